//! The arena's opening book: the entropy heuristic's first moves on the big games of CodinGame's
//! "Bulls and Cows 2" rules (distinct digits 0-9, no leading zero, lengths 5 to 10), chosen offline
//! against every code left rather than on samples, and shipped.
//!
//! In a game the heuristic samples because it must answer within milliseconds; its heaviest choice
//! is the second guess, where a million codes are left and the sampled choice with its climbs
//! costs ten million scored pairs. Offline there is time to score every guess that matters against
//! every code: after the first guess the game's symmetries that fix it (permuting the places whose
//! digits may move, with their digits, and renaming digits it lacks; never moving the lead or the
//! zero) leave only a few hundred to a few thousand classes of second guesses, one code of each
//! class is scored exactly, and the best by the in-game rank (entropy with the bonus of a guess that
//! may win) is the book's. Where the candidates after two guesses are still many, the third guess
//! is the in-game choice with a budget a game could not afford ([`THIRD_BUDGET`]).
//!
//! The book is followed only while the game's history is one of its paths, move for move; any
//! other guess, or an answer it has no entry for, leaves it, and the heuristic plays as it always
//! did. Its moves depend on the game's seed at most, so a seed still decides the whole game.
//!
//! The shipped book holds lengths 9 and 10 ([`OpeningPlan`]). Built for every length 5 to 10, the
//! exact opening played length 10 better on three draws of secrets (seeds 1 and 2, and 1000
//! secrets of seed 1) and lengths 5 to 8 within noise, but length 9 worse on all four (by 0.06 to
//! 0.15 guesses), and so did the game's own choice at sixteen times its budget (seeds 2 and 3).
//! So length 9's book holds the game's own second guesses, for each of [`SEEDS`] seeds: a game
//! with a seed below it plays exactly the moves it played without the book, and is spared its
//! heaviest choice, which held the time per guess at the arena's limit; lengths 5 to 8 keep the
//! in-game choice (docs/src/strategies.md, "The opening book").

use std::collections::BTreeMap;
use std::sync::OnceLock;

use hashbrown::HashMap;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{GuessPool, Knowledge, PartitionScore, PartitionStrategy, Sampling};
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::rules::Rules;
use crate::space::CodeSpace;

/// The digits of the arena's codes.
const ARENA_SYMBOLS: &str = "0123456789";

/// The book as shipped, written by `moo bench arena --build-book` (see [`build_opening`]).
const SHIPPED: &str = include_str!("../../books/arena.json");

/// The fewest candidates after two guesses for which the book holds a third: below it the
/// in-game choice is a full scan or close to one, fast and as good.
pub const THIRD_MIN_CANDIDATES: usize = 4096;

/// The pair budget of the third guesses the book holds: sixteen times a game's
/// ([`Sampling::DEFAULT_MAX_PAIRS`]), so each samples sixteen times as many codes.
pub const THIRD_BUDGET: u64 = 16 * Sampling::DEFAULT_MAX_PAIRS;

/// The seeds whose second guesses a seeded opening holds ([`Opening::seeded`]): a game with seed
/// `s` plays the move of seed `s % SEEDS`, so seeds below it play exactly the game's own moves.
pub const SEEDS: u64 = 16;

/// How an opening's second guesses are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SecondGuess {
    /// The best by the in-game rank of one code of every class of guesses ([`classes`]), each
    /// scored against every code the first answer left ([`Opening::second`]).
    Exact,
    /// The game's own choice, for each of [`SEEDS`] seeds ([`Opening::seeded`]).
    Seeded,
}

/// How the opening of one length is built: what measured at least as strong as the game's own
/// choice there (docs/src/strategies.md, "The opening book").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct OpeningPlan {
    /// How the second guesses are chosen.
    pub second: SecondGuess,
    /// Whether the opening holds third guesses ([`Opening::third`]).
    pub third: bool,
}

impl OpeningPlan {
    /// The plan of `length`'s opening. At length 9 every other choice of second guesses played
    /// worse than the game's own (the exact ones, the game's at sixteen times its budget), so
    /// its book holds the game's own, precomputed to spare a game its heaviest choice; every
    /// other length gets the exact opening with third guesses.
    pub fn of(length: usize) -> OpeningPlan {
        match length {
            9 => OpeningPlan {
                second: SecondGuess::Seeded,
                third: false,
            },
            _ => OpeningPlan {
                second: SecondGuess::Exact,
                third: true,
            },
        }
    }
}

/// The seed of the book's sampled third guesses: not the bench's seeds (0 and 1), so that the book
/// is tuned to no benchmark's draw.
pub const BOOK_SEED: u64 = 0x600d_b00c;

/// An opening book: for each length it covers, the moves of the first turns.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Book {
    /// The opening of each length, by length.
    pub lengths: BTreeMap<usize, Opening>,
}

/// The first moves of one length: the first guess, the second for every first answer, and the
/// third for the pairs of answers that leave many codes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Opening {
    /// The first guess.
    pub first: String,
    /// The second guess after each answer to the first (`"2B1C"`); answers that leave one or two
    /// codes are left out, since the heuristic guesses one of them at once.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub second: BTreeMap<String, String>,
    /// Where the second guesses are the game's own ([`SecondGuess::Seeded`]): after each answer
    /// to the first guess (as in [`Opening::second`]), the choice of the heuristic at its default
    /// budget with each seed 0 to [`SEEDS`] - 1, in order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub seeded: BTreeMap<String, Vec<String>>,
    /// The third guess after each pair of answers (`"2B1C 0B3C"`) that leaves at least
    /// [`THIRD_MIN_CANDIDATES`] codes.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub third: BTreeMap<String, String>,
}

impl Book {
    /// The book shipped with the crate, read once.
    ///
    /// # Panics
    /// If the shipped file is not a book (a test reads it).
    pub fn shipped() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| serde_json::from_str(SHIPPED).expect("the shipped book is valid JSON"))
    }

    /// The book's move for `history` under `rules`, while the history is one of its paths.
    /// `seed` is the seed of the game's sampling when its budget is the default
    /// ([`Sampling::DEFAULT_MAX_PAIRS`]), for the seeded moves ([`Opening::seeded`]): at another
    /// budget the game would choose otherwise, so `None` leaves them to it.
    pub fn next(&self, rules: &Rules, history: &History, seed: Option<u64>) -> Option<Code> {
        if !is_arena(rules) {
            return None;
        }
        self.lengths
            .get(&rules.length())?
            .next(rules, history, seed)
    }
}

impl Opening {
    /// The book's move after `history` for a game with `seed` ([`Book::next`]), or `None` when
    /// the history left the book (a guess other than the book's, or an answer the book has no
    /// entry for) or is past its depth.
    pub fn next(&self, rules: &Rules, history: &History, seed: Option<u64>) -> Option<Code> {
        let turns = history.turns();
        let played = |at: usize, book: &str| rules.format_code(&turns[at].guess) == book;
        let text = match turns.len() {
            0 => &self.first,
            1 if played(0, &self.first) => self.second_after(turns[0].feedback, seed)?,
            2 if played(0, &self.first) => {
                let second = self.second_after(turns[0].feedback, seed)?;
                if !played(1, second) {
                    return None;
                }
                self.third
                    .get(&path_key(turns[0].feedback, turns[1].feedback))?
            }
            _ => return None,
        };
        rules.parse_code(text).ok()
    }

    /// The second guess after the first answer `answer`, for a game with `seed`.
    fn second_after(&self, answer: Feedback, seed: Option<u64>) -> Option<&String> {
        let key = answer.to_string();
        if let Some(second) = self.second.get(&key) {
            return Some(second);
        }
        let moves = self.seeded.get(&key)?;
        let at = seed? % moves.len() as u64;
        moves.get(usize::try_from(at).ok()?)
    }
}

/// The key of a third guess: the two answers, space-separated.
fn path_key(first: Feedback, second: Feedback) -> String {
    format!("{first} {second}")
}

/// Whether `rules` are the arena's at some length: distinct digits 0-9, no leading zero.
pub fn is_arena(rules: &Rules) -> bool {
    !rules.repeats() && rules.no_leading() && rules.symbols() == ARENA_SYMBOLS
}

/// The heuristic the book stands in for, without the book: what it plays off the book, and what
/// chooses the book's first guess.
fn in_game() -> PartitionStrategy {
    PartitionStrategy::new(PartitionScore::Entropy, GuessPool::All).without_book()
}

/// Computes the opening of `space`'s length (arena rules) as its [`OpeningPlan`] says: the
/// heuristic's own first guess, a second guess for every answer, and the third guesses
/// ([`Opening::third`]) where the plan holds them.
/// `progress` hears each move as it is decided. Deterministic: the same rules give the same
/// opening on any machine and any number of threads.
pub fn build_opening(space: &CodeSpace, mut progress: impl FnMut(&str)) -> Opening {
    let rules = space.rules();
    let plan = OpeningPlan::of(space.length());
    let all = space.all();
    let first = first_guess(space, &all);
    let first_code = space.code(first);
    // Only the exact choice scores one guess of every class.
    let classes = match plan.second {
        SecondGuess::Exact => classes(space, &first_code),
        SecondGuess::Seeded => Vec::new(),
    };
    progress(&match plan.second {
        SecondGuess::Exact => format!(
            "first guess {}, {} classes of second guesses",
            rules.format_code(&first_code),
            classes.len()
        ),
        SecondGuess::Seeded => format!(
            "first guess {}, the game's own second guesses for seeds 0 to {}",
            rules.format_code(&first_code),
            SEEDS - 1
        ),
    });
    let mut opening = Opening {
        first: rules.format_code(&first_code),
        ..Opening::default()
    };
    for (f1, part) in space.partition(first, &all) {
        if f1.is_win(space.length()) || part.len() <= 2 {
            continue;
        }
        let mut history = History::new();
        history.push(first_code, f1);
        let knowledge = Knowledge::new(space, &history, &part);
        let second = match plan.second {
            SecondGuess::Exact => in_game()
                .best_of(&knowledge, &classes)
                .expect("there are candidates") as usize,
            SecondGuess::Seeded => {
                let moves = seeded_guesses(&knowledge);
                let texts: Vec<String> = moves
                    .iter()
                    .map(|&g| rules.format_code(&space.code(g)))
                    .collect();
                progress(&format!(
                    "{} {f1} ({} codes): {}",
                    opening.first,
                    part.len(),
                    texts.join(" ")
                ));
                opening.seeded.insert(f1.to_string(), texts);
                // No third guesses follow seeded ones (the plan has none).
                continue;
            }
        };
        let second_code = space.code(second);
        opening
            .second
            .insert(f1.to_string(), rules.format_code(&second_code));
        progress(&format!(
            "{} {f1} ({} codes): {}",
            opening.first,
            part.len(),
            rules.format_code(&second_code)
        ));
        if plan.third {
            let thirds = third_guesses(space, &history, f1, second, &part, &mut progress);
            opening.third.extend(thirds);
        }
    }
    opening
}

/// The in-game choice over every code, before any answer.
fn first_guess(space: &CodeSpace, all: &CodeSet) -> usize {
    in_game()
        .best(&Knowledge::new(space, &History::new(), all))
        .expect("a space has codes")
}

/// The third guess after each answer to `second` (played after `history`, whose first answer
/// was `f1`) that leaves enough codes for one to matter, keyed by the path of answers.
fn third_guesses(
    space: &CodeSpace,
    history: &History,
    f1: Feedback,
    second: usize,
    part: &CodeSet,
    progress: &mut impl FnMut(&str),
) -> Vec<(String, String)> {
    let second_code = space.code(second);
    let mut thirds = Vec::new();
    for (f2, rest) in space.partition(second, part) {
        if rest.len() < THIRD_MIN_CANDIDATES {
            continue;
        }
        let third = third_guess(space, history, second_code, f2, &rest);
        let key = path_key(f1, f2);
        progress(&format!("  {key} ({} codes): {third}", rest.len()));
        thirds.push((key, third));
    }
    thirds
}

/// The game's own choice in `knowledge` for each seed 0 to [`SEEDS`] - 1, in order.
fn seeded_guesses(knowledge: &Knowledge<'_>) -> Vec<usize> {
    (0..SEEDS)
        .into_par_iter()
        .map(|seed| {
            in_game()
                .with_sampling(Sampling::new(Sampling::DEFAULT_MAX_PAIRS, seed))
                .best(knowledge)
                .expect("there are candidates")
        })
        .collect()
}

/// The in-game choice after two turns, at the book's larger budget and its own seed.
fn third_guess(
    space: &CodeSpace,
    history: &History,
    second: Code,
    f2: Feedback,
    rest: &CodeSet,
) -> String {
    let mut history = history.clone();
    history.push(second, f2);
    let strategy = in_game().with_sampling(Sampling::new(THIRD_BUDGET, BOOK_SEED));
    let guess = strategy
        .best(&Knowledge::new(space, &history, rest))
        .expect("there are candidates");
    space.rules().format_code(&space.code(guess))
}

/// One code (the first in index order) of each class of codes equal up to the symmetries of the
/// game that fix `first`: those split the codes left after any answer to `first` alike, so the
/// best second guess is among them.
///
/// A code relates to the first guess as a map of places: place `p` points to place `q` when the
/// code holds at `p` the digit the first guess holds at `q`, and to its digit when the first guess
/// lacks it. Every place points somewhere and is pointed to at most once, so the map is a set of
/// cycles and of chains ending at a digit the first guess lacks. A symmetry fixing the first guess
/// permutes places along with their digits and renames the digits it lacks, keeping the lead place
/// and the digit 0 (no leading zero); so two codes are equivalent exactly when their maps have the
/// same cycles and chains, with the lead place, the place of the first guess's 0 and the digit 0
/// (when the first guess lacks it) at the same spots.
pub fn classes(space: &CodeSpace, first: &Code) -> Vec<u32> {
    let mut seen: HashMap<Vec<u16>, u32> = HashMap::new();
    for (i, code) in space.codes().iter().enumerate() {
        seen.entry(class_key(first.symbols(), code.symbols()))
            .or_insert(i as u32);
    }
    let mut reps: Vec<u32> = seen.into_values().collect();
    reps.sort_unstable();
    reps
}

/// Marks of a place in a class key: the lead place, the place of the first guess's 0.
const LEAD: u16 = 1;
const ZERO_PLACE: u16 = 2;

/// The class of `code` under the symmetries fixing `first` ([`classes`]): its cycles and chains,
/// each described by kind, length and where the marked places sit, sorted.
fn class_key(first: &[u8], code: &[u8]) -> Vec<u16> {
    let length = first.len();
    let mut place_of = [u8::MAX; 64];
    for (q, &s) in first.iter().enumerate() {
        place_of[usize::from(s)] = q as u8;
    }
    // next[p]: the place p points to, or u8::MAX when it points to a digit `first` lacks.
    let next: Vec<u8> = code.iter().map(|&s| place_of[usize::from(s)]).collect();
    let mut pointed = [false; 64];
    for &q in next.iter().filter(|&&q| q != u8::MAX) {
        pointed[usize::from(q)] = true;
    }
    let mark = |p: usize| -> u16 {
        let mut m = 0;
        if p == 0 {
            m |= LEAD;
        }
        if first[p] == 0 {
            m |= ZERO_PLACE;
        }
        m
    };
    let mut done = vec![false; length];
    let mut parts: Vec<Vec<u16>> = Vec::new();
    // Chains start at places nothing points to and end at a digit `first` lacks.
    for start in (0..length).filter(|&p| !pointed[p]) {
        let mut part = vec![0u16];
        let mut p = start;
        loop {
            done[p] = true;
            part.push(mark(p));
            match next[p] {
                u8::MAX => {
                    // The digit 0 is fixed by the rules, every other lacking digit is not.
                    part[0] = if code[p] == 0 { 1 } else { 2 };
                    break;
                }
                q => p = usize::from(q),
            }
        }
        parts.push(part);
    }
    // What is left are cycles: start each at its first marked place, if any.
    for start in 0..length {
        if done[start] {
            continue;
        }
        let mut members = vec![start];
        let mut p = usize::from(next[start]);
        while p != start {
            members.push(p);
            p = usize::from(next[p]);
        }
        let at = members.iter().position(|&p| mark(p) != 0).unwrap_or(0);
        members.rotate_left(at);
        let mut part = vec![3u16];
        for &p in &members {
            done[p] = true;
            part.push(mark(p));
        }
        parts.push(part);
    }
    parts.sort_unstable();
    let mut key = Vec::with_capacity(2 * length + parts.len());
    for part in parts {
        key.push(part.len() as u16);
        key.extend(part);
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::Strategy;

    fn arena(length: usize) -> Rules {
        Rules::new(length, ARENA_SYMBOLS, false, true).unwrap()
    }

    fn history(rules: &Rules, turns: &[(&str, Feedback)]) -> History {
        let mut h = History::new();
        for &(g, f) in turns {
            h.push(rules.parse_code(g).unwrap(), f);
        }
        h
    }

    #[test]
    fn every_shipped_move_is_a_legal_code_of_its_length() {
        let book = Book::shipped();
        assert_eq!(book.lengths.keys().copied().collect::<Vec<_>>(), [9, 10]);
        for (&length, opening) in &book.lengths {
            let rules = arena(length);
            let moves = std::iter::once(&opening.first)
                .chain(opening.second.values())
                .chain(opening.seeded.values().flatten())
                .chain(opening.third.values());
            for text in moves {
                let code = rules.parse_code(text).unwrap();
                rules.check_code(&code).unwrap();
                assert!(code.is_distinct() && code.symbols()[0] != 0, "{text}");
            }
            for key in opening.second.keys().chain(opening.seeded.keys()) {
                Feedback::parse(key, length).unwrap();
            }
            for moves in opening.seeded.values() {
                assert_eq!(moves.len() as u64, SEEDS, "{length}");
            }
            for key in opening.third.keys() {
                let (a, b) = key.split_once(' ').unwrap();
                assert!(opening.second.contains_key(a), "{length}: {key}");
                Feedback::parse(b, length).unwrap();
            }
        }
    }

    #[test]
    fn the_book_is_followed_only_along_its_paths() {
        let book = Book::shipped();
        let rules = arena(10);
        let opening = &book.lengths[&10];
        let first = opening.first.as_str();
        let start = book.next(&rules, &History::new(), Some(1)).unwrap();
        assert_eq!(rules.format_code(&start), first);
        let (f1, second) = opening.second.iter().next().unwrap();
        let f1 = Feedback::parse(f1, 10).unwrap();
        let on = history(&rules, &[(first, f1)]);
        assert_eq!(
            rules.format_code(&book.next(&rules, &on, Some(1)).unwrap()),
            *second
        );
        // Another first guess leaves the book.
        let other = history(&rules, &[("9876543210", f1)]);
        assert_eq!(book.next(&rules, &other, Some(1)), None);
        // An answer with no entry (a win leaves nothing to guess) leaves it too.
        let won = history(&rules, &[(first, Feedback::win(10))]);
        assert_eq!(book.next(&rules, &won, Some(1)), None);
        // A second guess other than the book's leaves it, whatever the answer.
        let off = history(&rules, &[(first, f1), ("9876543210", Feedback::new(2, 8))]);
        assert_eq!(book.next(&rules, &off, Some(1)), None);
        // Other rules than the arena's never use it.
        let repeats = Rules::new(10, ARENA_SYMBOLS, true, true).unwrap();
        assert_eq!(book.next(&repeats, &History::new(), Some(1)), None);
        let leading = Rules::new(10, ARENA_SYMBOLS, false, false).unwrap();
        assert_eq!(book.next(&leading, &History::new(), Some(1)), None);
    }

    #[test]
    fn the_third_guess_follows_both_answers() {
        let book = Book::shipped();
        let (length, opening) = book
            .lengths
            .iter()
            .find(|(_, o)| !o.third.is_empty())
            .expect("some length has third guesses");
        let rules = arena(*length);
        let (key, third) = opening.third.iter().next().unwrap();
        let (a, b) = key.split_once(' ').unwrap();
        let (f1, f2) = (
            Feedback::parse(a, *length).unwrap(),
            Feedback::parse(b, *length).unwrap(),
        );
        let h = history(&rules, &[(&opening.first, f1), (&opening.second[a], f2)]);
        assert_eq!(
            rules.format_code(&book.next(&rules, &h, Some(1)).unwrap()),
            *third
        );
        let mut past = h.clone();
        past.push(rules.parse_code(third).unwrap(), Feedback::new(0, 1));
        assert_eq!(book.next(&rules, &past, Some(1)), None);
    }

    #[test]
    fn classes_cover_every_code_once_up_to_the_symmetries() {
        // Length 5: the first guess 10234 keeps the lead and the 0's place, so the other three
        // places move with their digits and 5-9 rename freely. Two codes of a class split every
        // answer's codes alike, so their partition sizes must agree on each part of the first.
        let space = CodeSpace::new(arena(5)).unwrap();
        let first = space.rules().parse_code("10234").unwrap();
        let reps = classes(&space, &first);
        let parts = space.partition(space.index_of(&first).unwrap(), &space.all());
        let profile = |g: usize| -> Vec<Vec<u32>> {
            parts
                .iter()
                .map(|(_, p)| {
                    let mut counts = [0u32; 256];
                    space.partition_counts(g, p, &mut counts);
                    let mut c = counts.to_vec();
                    c.sort_unstable();
                    c
                })
                .collect()
        };
        // The image of a code under one symmetry (places 2 and 3 swapped with their digits 2
        // and 3; digits 5 and 9 swapped) is in its class.
        let image = |s: &[u8]| -> Code {
            let swap = |d: u8| match d {
                2 => 3,
                3 => 2,
                5 => 9,
                9 => 5,
                d => d,
            };
            let mut out = [s[0], s[1], s[3], s[2], s[4]];
            out.iter_mut().for_each(|d| *d = swap(*d));
            Code::from_symbols(&out)
        };
        for g in (0..space.len()).step_by(97) {
            let code = space.code(g);
            let twin = image(code.symbols());
            assert_eq!(
                class_key(first.symbols(), code.symbols()),
                class_key(first.symbols(), twin.symbols())
            );
            assert_eq!(profile(g), profile(space.index_of(&twin).unwrap()));
        }
        // Classes differ: representatives are pairwise in different classes, and few.
        let keys: hashbrown::HashSet<Vec<u16>> = reps
            .iter()
            .map(|&r| class_key(first.symbols(), space.code(r as usize).symbols()))
            .collect();
        assert_eq!(keys.len(), reps.len());
        assert!(reps.len() < space.len() / 10, "{}", reps.len());
    }

    /// The shipped openings are what the build writes (about 12 CPU s in a release build).
    #[test]
    fn the_shipped_openings_are_what_the_build_writes() {
        for length in [9, 10] {
            let space = CodeSpace::new(arena(length)).unwrap();
            let built = build_opening(&space, |_| {});
            assert_eq!(&built, &Book::shipped().lengths[&length], "{length}");
        }
    }

    /// Length 9's second guesses are the game's own: with a seed below [`SEEDS`] the strategy
    /// with the book plays the move the strategy without it chooses, and with another seed the
    /// move of the seed modulo [`SEEDS`]; at another budget than the default it chooses itself.
    #[test]
    fn seeded_second_guesses_are_the_games_own() {
        let rules = arena(9);
        let space = CodeSpace::new(rules.clone()).unwrap();
        let opening = &Book::shipped().lengths[&9];
        assert!(opening.second.is_empty() && opening.third.is_empty());
        let first = rules.parse_code(&opening.first).unwrap();
        let secret = rules.parse_code("564738291").unwrap();
        let f1 = first.score(&secret);
        let part = space.filter_code(&space.all(), &first, f1);
        let h = history(&rules, &[(&opening.first, f1)]);
        let knowledge = Knowledge::new(&space, &h, &part);
        let moves = &opening.seeded[&f1.to_string()];
        let with_book = |seed: u64, pairs: u64| {
            let mut s = PartitionStrategy::new(PartitionScore::Entropy, GuessPool::All)
                .with_sampling(Sampling::new(pairs, seed));
            rules.format_code(&s.next_guess(&knowledge).unwrap())
        };
        let own = |seed: u64| {
            let s = in_game().with_sampling(Sampling::new(Sampling::DEFAULT_MAX_PAIRS, seed));
            rules.format_code(&space.code(s.best(&knowledge).unwrap()))
        };
        let default = Sampling::DEFAULT_MAX_PAIRS;
        for seed in [0, 3] {
            assert_eq!(with_book(seed, default), own(seed), "seed {seed}");
            assert_eq!(with_book(seed, default), moves[seed as usize]);
        }
        assert_eq!(with_book(SEEDS + 5, default), moves[5]);
        assert_ne!(
            moves
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            1,
            "the seeds chose alike"
        );
        let small = default / 4;
        let s = in_game().with_sampling(Sampling::new(small, 1));
        assert_eq!(
            with_book(1, small),
            rules.format_code(&space.code(s.best(&knowledge).unwrap()))
        );
        // The book leaves the game where its history leaves the book.
        let off = history(&rules, &[("987654321", f1)]);
        assert_eq!(Book::shipped().next(&rules, &off, Some(1)), None);
        let past = history(
            &rules,
            &[(&opening.first, f1), (&moves[1], Feedback::new(1, 1))],
        );
        assert_eq!(Book::shipped().next(&rules, &past, Some(1)), None);
    }

    /// Every length the build covers gets a legal opening; length 6 is the cheapest with third
    /// guesses (about a second).
    #[test]
    fn the_build_covers_the_lengths_it_does_not_ship() {
        let rules = arena(6);
        let space = CodeSpace::new(rules.clone()).unwrap();
        let built = build_opening(&space, |_| {});
        assert!(!built.second.is_empty() && !built.third.is_empty());
        let first = rules.parse_code(&built.first).unwrap();
        for (answer, text) in &built.second {
            let code = rules.parse_code(text).unwrap();
            rules.check_code(&code).unwrap();
            let f1 = Feedback::parse(answer, 6).unwrap();
            let left = space.filter_code(&space.all(), &first, f1);
            assert!(left.len() >= 3, "{answer}: {}", left.len());
        }
    }

    #[test]
    fn the_entropy_strategy_plays_the_book_and_leaves_it_as_before() {
        let rules = arena(10);
        let space = CodeSpace::new(rules.clone()).unwrap();
        let opening = &Book::shipped().lengths[&10];
        let mut strategy = PartitionStrategy::new(PartitionScore::Entropy, GuessPool::All);
        let first = rules.parse_code(&opening.first).unwrap();
        for (f1, part) in space
            .partition_code(&first, &space.all())
            .into_iter()
            .take(4)
        {
            let h = history(&rules, &[(&opening.first, f1)]);
            let knowledge = Knowledge::new(&space, &h, &part);
            let guess = strategy.next_guess(&knowledge).unwrap();
            match opening.second.get(&f1.to_string()) {
                Some(book) => assert_eq!(rules.format_code(&guess), *book),
                None => assert_eq!(
                    Some(guess),
                    in_game().best(&knowledge).map(|g| space.code(g))
                ),
            }
        }
    }
}
