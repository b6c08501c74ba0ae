//! Which vector instructions the exact search's counting kernels use.
//!
//! The search's inner loops (how every guess splits a candidate set) are compiled several times,
//! once per instruction set, and one is picked at run time. A machine only ever runs the best
//! version it has, so the others would go untested wherever the tests happen to run; the
//! `MOO_KERNEL` environment variable holds the search at a lower level, so that one machine can
//! run every version it is able to (CI runs the search tests once per level). Every version must
//! give the same answers: the level changes speed, never a result, and a result file records the
//! level it was found with so that a claim can be traced to the code that made it.

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The environment variable that holds the search's kernels at a lower level than the CPU's best.
pub const KERNEL_ENV: &str = "MOO_KERNEL";

/// A level of vector instructions for the search's kernels, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kernel {
    /// Plain Rust, no vector instructions beyond the target's baseline: every CPU.
    Scalar,
    /// AVX2 with POPCNT, BMI1 and BMI2 (x86-64 since 2013): 32-byte vectors, 16-entry byte
    /// lookups.
    Avx2,
    /// AVX-512 F and BW (x86-64 since 2017): 64-byte vectors, 32 registers.
    Avx512,
    /// AVX-512 with VBMI and the rest of the 2019 set (VBMI2, BITALG, VPOPCNTDQ): 64-entry
    /// byte lookups, which count five-symbol games' 20 feedbacks in one pass.
    Vbmi,
}

/// A `MOO_KERNEL` value (or a kernel name) that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum KernelError {
    /// The name is none of the levels.
    #[error("unknown kernel {0:?}: expected one of scalar, avx2, avx512, vbmi")]
    Unknown(String),
    /// The CPU lacks the level's instructions.
    #[error(
        "this CPU cannot run the {asked} kernel (the best it has is {best}): \
         ask for one of {}, or unset {KERNEL_ENV}",
        Kernel::supported().iter().map(|k| k.name()).collect::<Vec<_>>().join(", ")
    )]
    Unsupported {
        /// The level asked for.
        asked: Kernel,
        /// The best level this CPU has.
        best: Kernel,
    },
}

impl Kernel {
    /// Every level, lowest first.
    pub const ALL: [Kernel; 4] = [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512, Kernel::Vbmi];

    /// The level's name, as `MOO_KERNEL` and the result files spell it.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Vbmi => "vbmi",
        }
    }

    /// The best level this CPU has.
    pub fn detected() -> Kernel {
        static BEST: OnceLock<Kernel> = OnceLock::new();
        *BEST.get_or_init(|| {
            Kernel::ALL
                .into_iter()
                .rev()
                .find(|k| k.cpu_has())
                .unwrap_or(Kernel::Scalar)
        })
    }

    /// Every level this CPU can run, lowest first (scalar always).
    pub fn supported() -> Vec<Kernel> {
        Kernel::ALL
            .into_iter()
            .filter(|k| k.is_supported())
            .collect()
    }

    /// Whether this CPU can run the level.
    pub fn is_supported(self) -> bool {
        self <= Kernel::detected()
    }

    /// The level `MOO_KERNEL` asks for, if it is set: an error if it names no level or one
    /// this CPU cannot run. The binary checks it before anything runs.
    pub fn from_env() -> Result<Option<Kernel>, KernelError> {
        match std::env::var(KERNEL_ENV) {
            Ok(value) if !value.trim().is_empty() => value.parse().map(Some),
            _ => Ok(None),
        }
    }

    /// The level the search runs at: `MOO_KERNEL`'s when it is set and usable, else the best
    /// this CPU has. Read once per process. An unusable `MOO_KERNEL` is not used (the binary
    /// refuses it up front with [`Kernel::from_env`]'s error).
    pub fn active() -> Kernel {
        static ACTIVE: OnceLock<Kernel> = OnceLock::new();
        *ACTIVE.get_or_init(|| {
            Kernel::from_env()
                .ok()
                .flatten()
                .unwrap_or_else(Kernel::detected)
        })
    }

    /// Whether the CPU has every instruction the level's code is compiled with.
    fn cpu_has(self) -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            match self {
                Kernel::Scalar => true,
                Kernel::Avx2 => has!("avx2") && has!("popcnt") && has!("bmi1") && has!("bmi2"),
                Kernel::Avx512 => {
                    Kernel::Avx2.cpu_has()
                        && has!("avx512f")
                        && has!("avx512bw")
                        && has!("avx512cd")
                        && has!("avx512dq")
                        && has!("avx512vl")
                }
                Kernel::Vbmi => {
                    Kernel::Avx512.cpu_has()
                        && has!("avx512vbmi")
                        && has!("avx512vbmi2")
                        && has!("avx512bitalg")
                        && has!("avx512vpopcntdq")
                }
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            self == Kernel::Scalar
        }
    }
}

impl fmt::Display for Kernel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Kernel {
    type Err = KernelError;

    /// A level by its name (any case), refused if this CPU cannot run it.
    fn from_str(s: &str) -> Result<Kernel, KernelError> {
        let name = s.trim().to_ascii_lowercase();
        let kernel = Kernel::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| KernelError::Unknown(s.to_string()))?;
        if kernel.is_supported() {
            Ok(kernel)
        } else {
            Err(KernelError::Unsupported {
                asked: kernel,
                best: Kernel::detected(),
            })
        }
    }
}

// How a kernel is compiled once per level and one version chosen at run time.
//
// Each kernel is written once, its body generic over its level `K` (one of the constants
// below). `by_level!` compiles it into one function per level carrying that level's
// `#[target_feature]`s, so the plain loops in it are vectorised for the level, and `K` tests
// pick the hand-written intrinsics; the caller names the level with a `Level`. Choosing the level per call, rather than once per process as a dispatcher crate does,
// is what lets one test run every version side by side on one machine.

/// The kernels' levels as const-generic arguments, in [`Kernel`]'s order.
pub(crate) const SCALAR: u8 = 0;
/// See [`SCALAR`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const AVX2: u8 = 1;
/// See [`SCALAR`].
pub(crate) const AVX512: u8 = 2;
/// See [`SCALAR`].
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const VBMI: u8 = 3;

/// A kernel level this CPU can run. Only [`Level::new`] and [`Level::active`] make one, which
/// is what makes calling the level's `#[target_feature]` code sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Level(Kernel);

impl Level {
    /// The level, if this CPU can run it.
    #[cfg(test)]
    pub fn new(kernel: Kernel) -> Option<Level> {
        kernel.is_supported().then_some(Level(kernel))
    }

    /// The level the search runs at ([`Kernel::active`]).
    pub fn active() -> Level {
        Level(Kernel::active())
    }

    /// Which level this is.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn kernel(self) -> Kernel {
        self.0
    }
}

/// `$vis fn $name(level: Level, args) -> R { body }`: the body compiled once per level, with
/// that level's target features, its level the const `K` it may test (against [`AVX2`],
/// [`AVX512`], [`VBMI`]); the function runs the version `level` names. The body may use a level's
/// intrinsics only under a `K` test of at least that level, and gets `unsafe` blocks for them
/// (needless only in a build whose target has the features already, `-C target-cpu=native`).
macro_rules! by_level {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        $vis fn $name(level: $crate::kernel::Level, $($arg: $ty),*) $(-> $ret)? {
            // Inlined into each version below, so compiled with its features.
            #[inline(always)]
            #[allow(unused_unsafe, clippy::too_many_arguments)]
            fn body<const K: u8>($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            {
                #[allow(clippy::too_many_arguments)]
                #[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
                fn avx2($($arg: $ty),*) $(-> $ret)? {
                    body::<{ $crate::kernel::AVX2 }>($($arg),*)
                }
                #[allow(clippy::too_many_arguments)]
                #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,\
                    avx512f,avx512bw,avx512cd,avx512dq,avx512vl")]
                fn avx512($($arg: $ty),*) $(-> $ret)? {
                    body::<{ $crate::kernel::AVX512 }>($($arg),*)
                }
                #[allow(clippy::too_many_arguments)]
                #[target_feature(enable = "avx2,popcnt,bmi1,bmi2,\
                    avx512f,avx512bw,avx512cd,avx512dq,avx512vl,\
                    avx512vbmi,avx512vbmi2,avx512bitalg,avx512vpopcntdq")]
                fn vbmi($($arg: $ty),*) $(-> $ret)? {
                    body::<{ $crate::kernel::VBMI }>($($arg),*)
                }
                match level.kernel() {
                    // SAFETY: a `Level` is made only for a kernel this CPU can run
                    // (`Kernel::cpu_has` checks the features each of these enables).
                    $crate::Kernel::Vbmi => return unsafe { vbmi($($arg),*) },
                    // SAFETY: as above.
                    $crate::Kernel::Avx512 => return unsafe { avx512($($arg),*) },
                    // SAFETY: as above.
                    $crate::Kernel::Avx2 => return unsafe { avx2($($arg),*) },
                    $crate::Kernel::Scalar => {}
                }
            }
            #[cfg(not(target_arch = "x86_64"))]
            let _ = level;
            body::<{ $crate::kernel::SCALAR }>($($arg),*)
        }
    };
}

pub(crate) use by_level;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_parse_back_and_unknown_names_say_what_is_expected() {
        for k in Kernel::supported() {
            assert_eq!(k.name().parse::<Kernel>(), Ok(k));
            assert_eq!(k.name().to_uppercase().parse::<Kernel>(), Ok(k));
            assert_eq!(serde_json::to_string(&k).unwrap(), format!("\"{k}\""));
        }
        let err = "sse9".parse::<Kernel>().unwrap_err();
        assert_eq!(err, KernelError::Unknown("sse9".into()));
        assert!(err.to_string().contains("scalar, avx2, avx512, vbmi"));
    }

    /// CI runs the search's tests once per level through `MOO_KERNEL`: a value the search
    /// would not use fails here, instead of those runs testing the default level again.
    #[test]
    fn a_set_kernel_is_the_level_searches_run_at() {
        match Kernel::from_env() {
            Ok(Some(k)) => assert_eq!(Kernel::active(), k),
            Ok(None) => assert_eq!(Kernel::active(), Kernel::detected()),
            Err(e) => panic!("{KERNEL_ENV} cannot be used: {e}"),
        }
    }

    #[test]
    fn levels_above_the_cpu_are_refused_and_scalar_always_runs() {
        assert_eq!(Kernel::supported()[0], Kernel::Scalar);
        assert_eq!(*Kernel::supported().last().unwrap(), Kernel::detected());
        assert!(Kernel::active().is_supported());
        for k in Kernel::ALL.into_iter().filter(|k| !k.is_supported()) {
            let err = k.name().parse::<Kernel>().unwrap_err();
            assert!(matches!(err, KernelError::Unsupported { asked, .. } if asked == k));
            assert!(err.to_string().contains("unset MOO_KERNEL"), "{err}");
        }
    }
}
