//! How large a refutation would be, measured without writing it: random paths from the root
//! down to the last level of positions, Knuth's estimator of a search tree's size ("Estimating
//! the efficiency of backtrack programs", 1975).
//!
//! A path stands at a position, counts the guesses counting does not refute there (each one an
//! entry of the file), picks one of them at random, and goes down to the part the writer would
//! write for it. A position met on a path whose positions above it had `b1, b2, ...` such
//! guesses stands for `b1 * b2 * ...` positions of its level, and the mean of that product over
//! many paths is the level's count: exactly, on average, whatever the paths.
//!
//! The writer writes, for each guess, the largest part that cannot be won. Finding out which is
//! the costly question: at the upper levels it is the whole proof. A path therefore takes the
//! largest part wherever the answer would need more than three guesses' worth of search, and
//! asks the oracle only from there down (where the answer costs milliseconds). In every
//! refutation written so far the largest part was the one written; a path that finds a position
//! it took winnable after all says so ([`RefutationEstimate::won_on_the_way`]).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use super::{answers, first_lost, most_won, open_guesses};
use crate::feedback::Feedback;
use crate::space::CodeSpace;
use crate::symmetry::Symmetry;
use crate::tree::search::{Oracle, Progress};

/// A mean over the paths, with its standard error.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Measured {
    /// The mean over the paths: the estimate.
    pub mean: f64,
    /// The standard error of that mean (the paths' standard deviation over the square root of
    /// their number).
    pub error: f64,
}

/// What a sample of random paths says of a refutation's size ([`RefutationEstimate::of`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RefutationEstimate {
    /// The paths followed.
    pub paths: u64,
    /// The positions, by guesses played (index 0: the root).
    pub positions: Vec<Measured>,
    /// Guesses refuted by a position below them.
    pub deeper: Measured,
    /// Guesses refuted by a two-guess test.
    pub tried: Measured,
    /// Guesses refuted by counting, not written.
    pub counted: Measured,
    /// The text's bytes, before compression.
    pub bytes: Measured,
    /// Scorings of one code against another a checker makes ([`super::RefutationStats::scorings`]).
    pub scorings: Measured,
    /// Paths that came to a position they took for lost and found it won: there the writer
    /// writes another part, and the estimate is off. None so far.
    pub won_on_the_way: u64,
}

/// One path's contribution to each figure.
#[derive(Debug, Clone, Default)]
struct Path {
    positions: Vec<f64>,
    deeper: f64,
    tried: f64,
    counted: f64,
    bytes: f64,
    scorings: f64,
    won_on_the_way: bool,
}

impl RefutationEstimate {
    /// Follows `paths` random paths down the refutation of "some strategy wins every secret of
    /// `space` within `guesses` guesses", the `i`th drawn from stream `i` of `seed`, on the
    /// current thread pool: the same seed gives the same estimate on any number of threads.
    pub fn of(
        space: &CodeSpace,
        guesses: u32,
        paths: u64,
        seed: u64,
        progress: &Progress,
    ) -> RefutationEstimate {
        let lines = Lines::of(space, guesses);
        let oracle = Oracle::new(space, progress, None);
        let walked: Vec<Path> = (0..paths)
            .into_par_iter()
            .map(|i| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(i);
                walk(space, &oracle, &lines, guesses, &mut rng)
            })
            .collect();
        let measure = |f: &dyn Fn(&Path) -> f64| measured(walked.iter().map(f));
        RefutationEstimate {
            paths,
            positions: (0..guesses as usize)
                .map(|d| measure(&|p: &Path| p.positions.get(d).copied().unwrap_or(0.0)))
                .collect(),
            deeper: measure(&|p| p.deeper),
            tried: measure(&|p| p.tried),
            counted: measure(&|p| p.counted),
            bytes: measure(&|p| p.bytes),
            scorings: measure(&|p| p.scorings),
            won_on_the_way: walked.iter().filter(|p| p.won_on_the_way).count() as u64,
        }
    }
}

/// The bytes of the file's lines, which depend only on the game.
struct Lines {
    /// A `>` entry, with the `.` line that closes its position.
    deeper: f64,
    /// A `try` entry.
    tried: f64,
    /// The header and the root's closing line.
    fixed: f64,
}

impl Lines {
    fn of(space: &CodeSpace, guesses: u32) -> Lines {
        let rules = space.rules();
        let length = space.length();
        let code = rules.format_code(&space.code(0)).len();
        let feedback = Feedback::win(length).to_string().len();
        // "CODE FEEDBACK >\n" and ".\n"; "CODE FEEDBACK try\n".
        let entry = (code + 1 + feedback + 1) as f64;
        let mut header = Vec::new();
        super::write_header(&mut header, rules, guesses).expect("writing to memory");
        Lines {
            deeper: entry + 2.0 + 2.0,
            tried: entry + 4.0,
            fixed: header.len() as f64 + 2.0,
        }
    }
}

/// One random path from the root, with what it says of each figure.
fn walk(
    space: &CodeSpace,
    oracle: &Oracle<'_>,
    lines: &Lines,
    guesses: u32,
    rng: &mut ChaCha8Rng,
) -> Path {
    let feedbacks = answers(space.length());
    let mut path = Path {
        bytes: lines.fixed,
        ..Path::default()
    };
    let (mut set, mut sym, mut left, mut weight) =
        (space.all(), Symmetry::new(space.rules()), guesses, 1.0);
    loop {
        path.positions.push(weight);
        let open = open_guesses(space, &set, &sym, most_won(feedbacks, left - 1));
        let entries = open.guesses.len() as f64;
        path.counted += weight * open.counted as f64;
        path.scorings += weight * (open.canonical * set.len() as u64) as f64;
        if left <= 3 {
            // The last level: each guess's two-guess test, found as the writer finds it.
            for (g, parts) in &open.guesses {
                let below = sym.after(space.code(*g).symbols());
                match first_lost(space, oracle, &set, *g, parts, &below, left - 1).1 {
                    Some((_, part)) => {
                        path.scorings += weight * (space.len() * part.len()) as f64;
                    }
                    None => path.won_on_the_way = true,
                }
            }
            path.tried += weight * entries;
            path.bytes += weight * entries * lines.tried;
            return path;
        }
        path.deeper += weight * entries;
        path.bytes += weight * entries * lines.deeper;
        if open.guesses.is_empty() {
            return path;
        }
        let (g, parts) = &open.guesses[rng.gen_range(0..open.guesses.len())];
        let below = sym.after(space.code(*g).symbols());
        let part = if left - 1 <= 3 {
            first_lost(space, oracle, &set, *g, parts, &below, left - 1)
                .1
                .map(|(_, part)| part)
        } else {
            // Taken to be lost: asking would be the proof itself.
            parts
                .first()
                .map(|&i| space.filter(&set, *g, Feedback::from_index(i, space.length())))
        };
        let Some(part) = part else {
            path.won_on_the_way = true;
            return path;
        };
        weight *= entries;
        (set, sym, left) = (part, below, left - 1);
    }
}

/// The mean and its standard error.
fn measured(values: impl ExactSizeIterator<Item = f64> + Clone) -> Measured {
    let n = values.len() as f64;
    if n == 0.0 {
        return Measured::default();
    }
    let mean = values.clone().sum::<f64>() / n;
    let spread = values.map(|v| (v - mean).powi(2)).sum::<f64>();
    let error = if n > 1.0 {
        (spread / (n - 1.0) / n).sqrt()
    } else {
        0.0
    };
    Measured { mean, error }
}
