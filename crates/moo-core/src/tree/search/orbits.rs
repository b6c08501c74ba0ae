//! Which guesses a node tries: one per orbit of the symmetries that fix its history. Once the
//! only symmetries left rename unplayed symbols, the canonical guesses depend only on the symbols
//! played, so they are marked once per set of symbols and read as bits after.

use std::sync::OnceLock;

use crate::space::CodeSpace;
use crate::symmetry::Symmetry;

/// The largest alphabet whose canonical guesses are kept by the symbols played (a bit set of
/// the codes for each of `2^alphabet` sets of symbols, made only for those met).
const ORBIT_ALPHABET: usize = 12;

/// Which guesses a node's symmetries leave to be tried ([`OrbitCache::orbits`]).
pub(super) enum Orbits<'s> {
    /// Every guess: no symmetry is left.
    All,
    /// The guesses marked, one bit per code: only unplayed symbols can be renamed, and the
    /// canonical guesses for the symbols played are known.
    Marked(&'s [u64]),
    /// Those that [`Symmetry::is_canonical`] accepts.
    Check(&'s Symmetry),
}

impl Orbits<'_> {
    /// Whether guess `g` of `space` is tried.
    #[inline]
    pub(super) fn tries(&self, space: &CodeSpace, g: usize) -> bool {
        match self {
            Orbits::All => true,
            Orbits::Marked(marks) => marks[g / 64] & (1 << (g % 64)) != 0,
            Orbits::Check(sym) => sym.is_canonical(space.code(g).symbols()),
        }
    }

    /// Clears from `marks`, one bit per code, the guesses marked orbits leave out. The other
    /// kinds keep every mark: `All` tries every guess, and `Check` is asked guess by guess.
    pub(super) fn mask(&self, marks: &mut [u64]) {
        if let Orbits::Marked(canonical) = self {
            for (m, c) in marks.iter_mut().zip(canonical.iter()) {
                *m &= c;
            }
        }
    }
}

/// Which guesses are canonical ([`Symmetry::is_canonical`]) once the only symmetries left
/// rename unplayed symbols, one bit per code, by the symbols played; made when first asked for.
/// Empty for alphabets over [`ORBIT_ALPHABET`].
pub(super) struct OrbitCache {
    alphabet: usize,
    by_played: Vec<OnceLock<Box<[u64]>>>,
}

impl OrbitCache {
    /// An empty cache for an alphabet of `alphabet` symbols.
    pub(super) fn new(alphabet: usize) -> OrbitCache {
        let by_played = if alphabet <= ORBIT_ALPHABET {
            (0..1usize << alphabet).map(|_| OnceLock::new()).collect()
        } else {
            Vec::new()
        };
        OrbitCache {
            alphabet,
            by_played,
        }
    }

    /// Which guesses of `space` `sym` leaves to be tried: one per orbit.
    pub(super) fn orbits<'s>(&'s self, space: &CodeSpace, sym: &'s Symmetry) -> Orbits<'s> {
        if sym.is_identity(self.alphabet) {
            return Orbits::All;
        }
        let Some(played) = sym.played_when_trivial() else {
            return Orbits::Check(sym);
        };
        let Some(cell) = self.by_played.get(played as usize) else {
            return Orbits::Check(sym);
        };
        Orbits::Marked(cell.get_or_init(|| {
            let mut marks = vec![0u64; space.len().div_ceil(64)];
            for g in 0..space.len() {
                if sym.is_canonical(space.code(g).symbols()) {
                    marks[g / 64] |= 1 << (g % 64);
                }
            }
            marks.into_boxed_slice()
        }))
    }
}
