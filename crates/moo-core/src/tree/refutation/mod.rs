//! Refutations: a proof that no strategy wins every secret within a number of guesses, written
//! so that a checker sharing no code with moo can verify it by counting.
//!
//! The exact search proves such a claim ([`SearchOutcome::Impossible`](super::SearchOutcome::Impossible)) but keeps no record a
//! reader could check. A refutation is that record, cut down to what counting cannot see: at each
//! position it names, for one guess of each orbit of the symmetries that fix the guesses played,
//! a feedback whose candidates cannot all be won in the guesses left. The guesses that leave more
//! candidates in one part than so few guesses could ever tell apart ([`most_won`]) are not
//! written: a checker finds those itself. The format, and what a checker must verify, are in the
//! book's `docs/src/refutations.md`; `crates/refutation-check` is such a checker.
//!
//! A search is used only as an oracle here, to pick a part worth writing down: an error in it
//! can make the writing fail, never make a wrong refutation pass the checker. It asks yes or no,
//! not the exact search's cheapest tree ([`super::search`]'s `oracle`), and one such search
//! answers every question of a run, so a part met again, or proved lost on the way to an earlier
//! answer, is not searched again. [`RefutationEstimate`] measures a refutation's size without
//! writing it.

use std::cmp::Reverse;
use std::io::{self, Write};

use rayon::prelude::*;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::symmetry::Symmetry;

use super::search::{Checkpoint, Oracle, Progress, SearchOptions};

mod estimate;

pub use estimate::{Measured, RefutationEstimate};

/// The first line of a refutation file.
pub const REFUTATION_FORMAT: &str = "moo-refutation 1";

/// Why no refutation was written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RefutationError {
    /// The claim is false: a strategy wins every secret within the guesses given.
    #[error("a strategy wins every secret within {guesses} guesses, so there is nothing to refute: ask for fewer guesses (`moo tree build --objective worst` gives the fewest that always win)")]
    Winnable {
        /// The guesses asked about.
        guesses: u32,
    },
    /// The claim is beyond what a refutation can name: fewer than one guess.
    #[error("a refutation needs at least 1 guess to refute, not {guesses}")]
    NoGuesses {
        /// The guesses asked about.
        guesses: u32,
    },
    /// The output could not be written.
    #[error("cannot write the refutation: {0}")]
    Io(#[from] io::Error),
}

/// The size of a refutation written by [`Refutation::write`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RefutationStats {
    /// The positions written, the root included, by the guesses left there (index 0: the root's).
    pub positions: Vec<u64>,
    /// The guesses whose refuting part is a position written below them.
    pub deeper: u64,
    /// The guesses whose refuting part is left to the checker to try against every guess, as it
    /// has at most two guesses left.
    pub tried: u64,
    /// The guesses not written at all, as one of their parts is too large to win in time.
    pub counted: u64,
    /// Parts the writer asked the oracle about: whether they can be won in the guesses left.
    pub asked: u64,
    /// Candidate sets the oracle worked out on the way, at every level, rather than finding
    /// them in what it had already proven (or in the checkpoint) or settling them by size.
    pub searched: u64,
    /// The bytes written.
    pub bytes: u64,
    /// How many times, at most, a checker that tries every guess of each orbit scores a code
    /// against another: a position's candidates against each of its orbits' guesses, and a
    /// two-guess test's part against every code. A checker that drops a guess at its first part
    /// over the cap scores fewer; what checking costs grows with it all the same.
    pub scorings: u64,
}

/// The most secrets any strategy can win within `guesses` guesses when a guess can be answered
/// in `feedbacks` ways, the win among them: one the guess wins, and each other answer leaves a
/// part that must be won with one guess fewer.
pub fn most_won(feedbacks: u64, guesses: u32) -> u64 {
    (0..guesses).fold(0u64, |n, _| {
        n.saturating_mul(feedbacks - 1).saturating_add(1)
    })
}

/// How many answers a code of `length` symbols can get, the win among them: every bulls and cows
/// pair that sums to at most `length`, but `length - 1` bulls and one cow. A checker computes the
/// same count from the same rule.
pub fn answers(length: usize) -> u64 {
    let l = length as u64;
    (l + 1) * (l + 2) / 2 - u64::from(length > 0)
}

/// A refutation to write: that no strategy wins every secret of a game within a number of
/// guesses, proven on the way.
///
/// ```
/// use moo_core::tree::{Refutation, REFUTATION_FORMAT};
/// use moo_core::{CodeSpace, Rules};
///
/// // Mastermind with 3 pegs of 4 colours needs 4 guesses at worst: none wins within 3.
/// let space = CodeSpace::new(Rules::new(3, "1234", true, false).unwrap()).unwrap();
/// let mut text = Vec::new();
/// let stats = Refutation::new(&space, 3).write(&mut text).unwrap();
/// assert!(text.starts_with(REFUTATION_FORMAT.as_bytes()));
/// assert_eq!(stats.positions[0], 1);
/// ```
pub struct Refutation<'a> {
    space: &'a CodeSpace,
    guesses: u32,
    progress: Option<&'a Progress>,
    checkpoint: Option<&'a Checkpoint>,
}

impl<'a> Refutation<'a> {
    /// A refutation of "some strategy wins every secret of `space` within `guesses` guesses".
    pub fn new(space: &'a CodeSpace, guesses: u32) -> Refutation<'a> {
        Refutation {
            space,
            guesses,
            progress: None,
            checkpoint: None,
        }
    }

    /// Counters of the search, for whoever shows its progress.
    pub fn progress(mut self, progress: &'a Progress) -> Refutation<'a> {
        self.progress = Some(progress);
        self
    }

    /// Loads what `checkpoint` holds first and appends what the search proves about large sets,
    /// so a long run that was stopped resumes where it was. Open it with
    /// [`Refutation::search_options`].
    pub fn checkpoint(mut self, checkpoint: &'a Checkpoint) -> Refutation<'a> {
        self.checkpoint = Some(checkpoint);
        self
    }

    /// The options a checkpoint's header names for the search that picks what to write.
    pub fn search_options() -> SearchOptions {
        Oracle::options(&SearchOptions::default())
    }

    /// Writes the refutation to `out`, proving the claim false on the way, and returns its size.
    /// Fails with [`RefutationError::Winnable`] when the claim holds after all: what was written
    /// by then refutes nothing. The positions with four guesses or more to go are written side
    /// by side on the current thread pool, and the file is the same on any number of threads.
    pub fn write(self, mut out: impl Write) -> Result<RefutationStats, RefutationError> {
        let guesses = self.guesses;
        if guesses == 0 {
            return Err(RefutationError::NoGuesses { guesses });
        }
        let space = self.space;
        let own_progress = Progress::new();
        let progress = self.progress.unwrap_or(&own_progress);
        let oracle = Oracle::new(space, progress, self.checkpoint);
        let mut w = Writer::new(space, &oracle, guesses);
        write_header(&mut w.out, space.rules(), guesses)?;
        w.position(&space.all(), &Symmetry::new(space.rules()), guesses)?;
        writeln!(w.out, ".")?;
        out.write_all(&w.out)?;
        out.flush()?;
        w.stats.bytes = w.out.len() as u64;
        w.stats.searched = oracle.searched();
        Ok(w.stats)
    }
}

impl RefutationStats {
    /// Adds what another writer of the same refutation wrote.
    fn add(&mut self, other: &RefutationStats) {
        for (a, b) in self.positions.iter_mut().zip(&other.positions) {
            *a += b;
        }
        self.deeper += other.deeper;
        self.tried += other.tried;
        self.counted += other.counted;
        self.asked += other.asked;
        self.scorings += other.scorings;
    }
}

/// The fewest guesses to go at which a position's guesses are written side by side: above the
/// last level, where each guess's entry carries a position of thousands below it.
const SIDE_BY_SIDE_FROM: u32 = 4;

/// The refutation being written, depth first, into memory.
struct Writer<'a, 'o> {
    space: &'a CodeSpace,
    oracle: &'o Oracle<'a>,
    out: Vec<u8>,
    stats: RefutationStats,
    feedbacks: u64,
    guesses: u32,
}

impl<'a, 'o> Writer<'a, 'o> {
    fn new(space: &'a CodeSpace, oracle: &'o Oracle<'a>, guesses: u32) -> Writer<'a, 'o> {
        Writer {
            space,
            oracle,
            out: Vec::new(),
            stats: RefutationStats {
                positions: vec![0; guesses as usize],
                ..RefutationStats::default()
            },
            feedbacks: answers(space.length()),
            guesses,
        }
    }

    /// Writes the entries of the position `history` leaves (`set`, under `sym`) with `left`
    /// guesses to go, which no strategy wins; the caller writes the closing line.
    fn position(
        &mut self,
        set: &CodeSet,
        sym: &Symmetry,
        left: u32,
    ) -> Result<(), RefutationError> {
        self.stats.positions[(self.guesses - left) as usize] += 1;
        let open = open_guesses(self.space, set, sym, most_won(self.feedbacks, left - 1));
        self.stats.counted += open.counted;
        self.stats.scorings += open.canonical * set.len() as u64;
        if left < SIDE_BY_SIDE_FROM {
            for (g, parts) in open.guesses {
                self.refute_guess(set, sym, g, &parts, left)?;
            }
            return Ok(());
        }
        // Each guess's entry, with the position below it, is written apart and the pieces
        // joined in order: the same bytes as one after another.
        let pieces: Vec<Result<Writer, RefutationError>> = open
            .guesses
            .par_iter()
            .map(|(g, parts)| {
                let mut w = Writer::new(self.space, self.oracle, self.guesses);
                w.refute_guess(set, sym, *g, parts, left)?;
                Ok(w)
            })
            .collect();
        for piece in pieces {
            let piece = piece?;
            self.out.extend_from_slice(&piece.out);
            self.stats.add(&piece.stats);
        }
        Ok(())
    }

    /// Writes the first of `parts` (feedback indexes of guess `g`, largest first) that cannot be
    /// won with `left - 1` guesses, with its own refutation below it when it needs one. Fails
    /// with [`RefutationError::Winnable`] when every part can be won, as `g` then wins the
    /// position within `left` guesses.
    fn refute_guess(
        &mut self,
        set: &CodeSet,
        sym: &Symmetry,
        g: usize,
        parts: &[usize],
        left: u32,
    ) -> Result<(), RefutationError> {
        let space = self.space;
        let code = space.code(g);
        let below = left - 1;
        if below < 2 {
            // With one guess left after this one, counting has already refused every part but
            // a single code, which that guess wins.
            return Err(self.winnable());
        }
        let below_sym = sym.after(code.symbols());
        let (asked, lost) = first_lost(space, self.oracle, set, g, parts, &below_sym, below);
        self.stats.asked += asked;
        let Some((feedback, part)) = lost else {
            return Err(self.winnable());
        };
        if below == 2 {
            // The checker tries every guess on a part with two guesses left.
            self.entry(&code, feedback, "try")?;
            self.stats.tried += 1;
            self.stats.scorings += (space.len() * part.len()) as u64;
            return Ok(());
        }
        self.entry(&code, feedback, ">")?;
        self.stats.deeper += 1;
        self.position(&part, &below_sym, below)?;
        writeln!(self.out, ".")?;
        Ok(())
    }

    /// The error of a claim that turns out to hold: some guess wins a position taken for lost.
    fn winnable(&self) -> RefutationError {
        RefutationError::Winnable {
            guesses: self.guesses,
        }
    }

    /// One entry line: `code`'s part for `feedback`, refuted as `how` says (`try` or `>`).
    fn entry(&mut self, code: &Code, feedback: Feedback, how: &str) -> io::Result<()> {
        let code = self.space.rules().format_code(code);
        writeln!(self.out, "{code} {feedback} {how}")
    }
}

/// The lines before the root's entries: the format, the game's rules and the claim.
fn write_header(out: &mut impl Write, rules: &Rules, within: u32) -> io::Result<()> {
    writeln!(out, "{REFUTATION_FORMAT}")?;
    writeln!(out, "length {}", rules.length())?;
    writeln!(out, "symbols {}", rules.symbols())?;
    let repeats = if rules.repeats() { "yes" } else { "no" };
    writeln!(out, "repeats {repeats}")?;
    let leading = if rules.no_leading() {
        "not-first"
    } else {
        "any"
    };
    writeln!(out, "leading {leading}")?;
    writeln!(out, "within {within}")
}

/// The part the writer writes for guess `g`: the first of `parts` (feedback indexes, largest
/// first) that cannot be won in `left` guesses, with its answer, if any; and how many parts were
/// asked about. They are filtered one at a time: the first lost part ends the search, and the
/// rest are never needed.
fn first_lost(
    space: &CodeSpace,
    oracle: &Oracle<'_>,
    set: &CodeSet,
    g: usize,
    parts: &[usize],
    sym: &Symmetry,
    left: u32,
) -> (u64, Option<(Feedback, CodeSet)>) {
    let mut asked = 0;
    let lost = parts
        .iter()
        .map(|&i| {
            let feedback = Feedback::from_index(i, space.length());
            (feedback, space.filter(set, g, feedback))
        })
        .find(|(_, part)| {
            asked += 1;
            oracle.lost(part, sym, left)
        });
    (asked, lost)
}

/// A position's guesses, one of each orbit, as counting leaves them.
struct Open {
    /// Guesses with a part too large to win in the guesses left after them.
    counted: u64,
    /// Every guess looked at: one of each orbit.
    canonical: u64,
    /// The others, each with its parts (feedback indexes, the win left out), largest first.
    guesses: Vec<(usize, Vec<usize>)>,
}

/// The guesses of the position `set` (under `sym`) that counting does not refute: those whose
/// every part has at most `cap` codes.
fn open_guesses(space: &CodeSpace, set: &CodeSet, sym: &Symmetry, cap: u64) -> Open {
    let length = space.length();
    let win = Feedback::win(length).index(length);
    let mut counts = vec![0u32; space.rules().feedback_slots()];
    let mut open = Open {
        counted: 0,
        canonical: 0,
        guesses: Vec::new(),
    };
    for g in 0..space.len() {
        if !sym.is_canonical(space.code(g).symbols()) {
            continue;
        }
        open.canonical += 1;
        if !space.partition_counts_within(g, set, cap, &mut counts) {
            open.counted += 1;
            continue;
        }
        let mut parts: Vec<usize> = (0..counts.len())
            .filter(|&i| i != win && counts[i] > 0)
            .collect();
        // Stable: equal parts stay in feedback order, so the file is the same on every run.
        parts.sort_by_key(|&i| Reverse(counts[i]));
        open.guesses.push((g, parts));
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refute(
        length: usize,
        symbols: &str,
        repeats: bool,
        guesses: u32,
    ) -> (String, RefutationStats) {
        let space = CodeSpace::new(Rules::new(length, symbols, repeats, false).unwrap()).unwrap();
        let mut out = Vec::new();
        let stats = Refutation::new(&space, guesses).write(&mut out).unwrap();
        (String::from_utf8(out).unwrap(), stats)
    }

    #[test]
    fn the_counting_bound_follows_the_answers() {
        assert_eq!(answers(4), 14);
        assert_eq!(answers(5), 20);
        assert_eq!(most_won(14, 0), 0);
        assert_eq!(most_won(14, 1), 1);
        assert_eq!(most_won(14, 2), 14);
        assert_eq!(most_won(14, 3), 1 + 13 * 14);
    }

    #[test]
    fn mastermind_within_four_is_refuted_by_counting_alone() {
        // Every opening of Mastermind 4x6 leaves a part of more than 183 codes.
        let (text, stats) = refute(4, "123456", true, 4);
        assert_eq!(stats.positions, vec![1, 0, 0, 0]);
        assert_eq!(stats.counted, 5);
        assert_eq!(stats.deeper + stats.tried + stats.asked, 0);
        assert!(text.ends_with("within 4\n.\n"), "{text}");
    }

    #[test]
    fn an_estimate_of_a_refutation_by_counting_alone_is_exact() {
        // Every path ends at the root, so every path says the same.
        let space = CodeSpace::new(Rules::new(4, "123456", true, false).unwrap()).unwrap();
        let (text, stats) = refute(4, "123456", true, 4);
        let e = RefutationEstimate::of(&space, 4, 20, 1, &Progress::new());
        let exact = |m: Measured, n: u64| m.error == 0.0 && m.mean == n as f64;
        assert!(
            exact(e.positions[0], 1) && exact(e.positions[1], 0),
            "{e:?}"
        );
        assert!(exact(e.counted, stats.counted), "{e:?}");
        assert!(exact(e.scorings, stats.scorings), "{e:?}");
        assert!(exact(e.bytes, text.len() as u64), "{e:?}");
        assert_eq!(e.won_on_the_way, 0);
    }

    #[test]
    fn a_winnable_claim_is_refused() {
        let space = CodeSpace::new(Rules::new(3, "1234", true, false).unwrap()).unwrap();
        let err = Refutation::new(&space, 6).write(Vec::new()).unwrap_err();
        assert!(
            matches!(err, RefutationError::Winnable { guesses: 6 }),
            "{err}"
        );
    }

    #[test]
    fn small_games_are_refuted_one_short_of_their_worst_case() {
        // Mastermind 3x4 needs 4 guesses at worst (the search's own figure); within 3 none wins.
        let (text, stats) = refute(3, "1234", true, 3);
        assert!(stats.tried + stats.counted > 0, "{stats:?}");
        assert!(text.starts_with(
            "moo-refutation 1\nlength 3\nsymbols 1234\nrepeats yes\nleading any\nwithin 3\n"
        ));
    }
}
