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
//! The search is used only as an oracle here, to pick a part worth writing down: an error in it
//! can make the writing fail, never make a wrong refutation pass the checker. One search answers
//! every question, its cache kept between them: a part met again, or one an earlier answer
//! proved lost on its way, is not searched again, where a fresh search per question proved each
//! level's work again.

use std::cmp::Reverse;
use std::io::{self, Write};

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

use super::search::{Checkpoint, Oracle, Progress, SearchError, SearchOptions};

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
    /// The exact search, asked which part to write down, failed.
    #[error(transparent)]
    Search(#[from] SearchError),
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
    /// Parts the exact search was asked about: whether they can be won in time.
    pub searches: u64,
    /// Parts found lost in what the searches had already proven, without a search of their own.
    pub recalled: u64,
    /// The bytes written.
    pub bytes: u64,
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
/// guesses, proven by the exact search on the way.
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
    options: SearchOptions,
    progress: Option<&'a Progress>,
    checkpoint: Option<&'a Checkpoint>,
}

impl<'a> Refutation<'a> {
    /// A refutation of "some strategy wins every secret of `space` within `guesses` guesses".
    pub fn new(space: &'a CodeSpace, guesses: u32) -> Refutation<'a> {
        Refutation {
            space,
            guesses,
            options: SearchOptions::default(),
            progress: None,
            checkpoint: None,
        }
    }

    /// The cache size and sharing of equivalent sets of the search that proves it; the rest is
    /// the refutation's own: the worst case, any code a guess, any opening
    /// ([`Refutation::search_options`]).
    pub fn options(mut self, options: &SearchOptions) -> Refutation<'a> {
        self.options = options.clone();
        self
    }

    /// Counters of the search, for whoever shows its progress.
    pub fn progress(mut self, progress: &'a Progress) -> Refutation<'a> {
        self.progress = Some(progress);
        self
    }

    /// Loads what `checkpoint` holds first and appends what the search proves about large sets,
    /// so a long run that was stopped resumes where it was. Open it with
    /// [`Refutation::search_options`] of the options given here.
    pub fn checkpoint(mut self, checkpoint: &'a Checkpoint) -> Refutation<'a> {
        self.checkpoint = Some(checkpoint);
        self
    }

    /// The options the search runs under, given `options`: what a checkpoint's header names.
    pub fn search_options(options: &SearchOptions) -> SearchOptions {
        Oracle::options(options)
    }

    /// Writes the refutation to `out`, proving the claim false on the way, and returns its size.
    /// Fails with [`RefutationError::Winnable`] when the claim holds after all: what was written
    /// by then refutes nothing.
    pub fn write(self, out: impl Write) -> Result<RefutationStats, RefutationError> {
        let guesses = self.guesses;
        if guesses == 0 {
            return Err(RefutationError::NoGuesses { guesses });
        }
        let space = self.space;
        let (own_progress, never) = (Progress::new(), Stop::never());
        let progress = self.progress.unwrap_or(&own_progress);
        let oracle = Oracle::new(space, &self.options, progress, &never, self.checkpoint);
        let all = space.all();
        let sym = Symmetry::new(space.rules());
        let mut w = Writer {
            space,
            out: CountingWriter { out, bytes: 0 },
            stats: RefutationStats {
                positions: vec![0; guesses as usize],
                ..RefutationStats::default()
            },
            feedbacks: answers(space.length()),
            guesses,
            oracle,
        };
        w.header()?;
        w.position(&all, &sym, guesses)?;
        writeln!(w.out, ".")?;
        w.out.flush()?;
        w.stats.bytes = w.out.bytes;
        Ok(w.stats)
    }
}

/// An output that counts what it writes.
struct CountingWriter<W> {
    out: W,
    bytes: u64,
}

impl<W: Write> Write for CountingWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The refutation being written, depth first.
struct Writer<'a, W> {
    space: &'a CodeSpace,
    out: CountingWriter<W>,
    stats: RefutationStats,
    feedbacks: u64,
    guesses: u32,
    oracle: Oracle<'a>,
}

impl<W: Write> Writer<'_, W> {
    /// The lines before the root's entries: the format and the game's rules.
    fn header(&mut self) -> io::Result<()> {
        let rules = self.space.rules();
        writeln!(self.out, "{REFUTATION_FORMAT}")?;
        writeln!(self.out, "length {}", rules.length())?;
        writeln!(self.out, "symbols {}", rules.symbols())?;
        let repeats = if rules.repeats() { "yes" } else { "no" };
        writeln!(self.out, "repeats {repeats}")?;
        let leading = if rules.no_leading() {
            "not-first"
        } else {
            "any"
        };
        writeln!(self.out, "leading {leading}")?;
        writeln!(self.out, "within {}", self.guesses)
    }

    /// Writes the entries of the position `history` leaves (`set`, under `sym`) with `left`
    /// guesses to go, which no strategy wins; the caller writes the closing line.
    fn position(
        &mut self,
        set: &CodeSet,
        sym: &Symmetry,
        left: u32,
    ) -> Result<(), RefutationError> {
        let space = self.space;
        let length = space.length();
        self.stats.positions[(self.guesses - left) as usize] += 1;
        let cap = most_won(self.feedbacks, left - 1);
        let win = Feedback::win(length).index(length);
        let mut counts = vec![0u32; space.rules().feedback_slots()];
        for g in 0..space.len() {
            if !sym.is_canonical(space.code(g).symbols()) {
                continue;
            }
            space.partition_counts(g, set, &mut counts);
            let mut parts: Vec<usize> = (0..counts.len())
                .filter(|&i| i != win && counts[i] > 0)
                .collect();
            if parts.iter().any(|&i| u64::from(counts[i]) > cap) {
                self.stats.counted += 1;
                continue;
            }
            parts.sort_by_key(|&i| Reverse(counts[i]));
            if !self.refute_guess(set, sym, g, &parts, left)? {
                return Err(RefutationError::Winnable {
                    guesses: self.guesses,
                });
            }
        }
        Ok(())
    }

    /// Writes the first of `parts` (feedback indexes of guess `g`, largest first) that cannot be
    /// won with `left - 1` guesses, with its own refutation below it when it needs one; `false`
    /// when every part can be won, so `g` wins the position within `left` guesses.
    fn refute_guess(
        &mut self,
        set: &CodeSet,
        sym: &Symmetry,
        g: usize,
        parts: &[usize],
        left: u32,
    ) -> Result<bool, RefutationError> {
        let space = self.space;
        let code = space.code(g);
        let below = left - 1;
        if below < 2 {
            // With one guess left after this one, counting has already refused every part but
            // a single code, which that guess wins.
            return Ok(false);
        }
        // Filtered one at a time: the first lost part ends the search, and the rest are never
        // needed.
        let parts = parts.iter().map(|&i| {
            let feedback = Feedback::from_index(i, space.length());
            (feedback, space.filter(set, g, feedback))
        });
        if below == 2 {
            // The checker tries every guess on a part with two guesses left.
            let mut lost = parts.filter(|(_, p)| !won_within_two(space, p));
            let Some((feedback, _)) = lost.next() else {
                return Ok(false);
            };
            self.entry(&code, feedback, "try")?;
            self.stats.tried += 1;
            return Ok(true);
        }
        let below_sym = sym.after(code.symbols());
        for (feedback, part) in parts {
            // Largest first, whatever the cache holds, so the file does not depend on it.
            if self.oracle.known_lost(part.as_slice(), below) {
                self.stats.recalled += 1;
            } else {
                self.stats.searches += 1;
                if self.oracle.winnable(part.as_slice(), &below_sym, below)? {
                    continue;
                }
            }
            self.entry(&code, feedback, ">")?;
            self.stats.deeper += 1;
            self.position(&part, &below_sym, below)?;
            writeln!(self.out, ".")?;
            return Ok(true);
        }
        Ok(false)
    }

    /// One entry line: `code`'s part for `feedback`, refuted as `how` says (`try` or `>`).
    fn entry(&mut self, code: &Code, feedback: Feedback, how: &str) -> io::Result<()> {
        let code = self.space.rules().format_code(code);
        writeln!(self.out, "{code} {feedback} {how}")
    }
}

/// Whether some guess splits `part` into parts of one code each (or wins it), so that two guesses
/// win every code of it.
fn won_within_two(space: &CodeSpace, part: &CodeSet) -> bool {
    if part.len() <= 1 {
        return true;
    }
    let length = space.length();
    let win = Feedback::win(length).index(length);
    let mut counts = vec![0u32; space.rules().feedback_slots()];
    (0..space.len()).any(|h| {
        space.partition_counts(h, part, &mut counts);
        counts.iter().enumerate().all(|(i, &n)| i == win || n <= 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

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
        assert_eq!(stats.deeper + stats.tried + stats.searches, 0);
        assert!(text.ends_with("within 4\n.\n"), "{text}");
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
