//! `refutation-check FILE`: verifies a refutation written by `moo tree refute`, a proof that no
//! strategy wins every secret of a game within some number of guesses, and says what it proves.
//!
//! It shares no code with moo: the codes, the scoring and the symmetries are written here from
//! the rules (`game.rs`), and every step of the proof is a count. A position (the candidates a
//! history of guesses and answers leaves, with some guesses to go) is refuted when, for each
//! guess up to the renamings that keep the guesses played, some answer leaves a part no strategy
//! wins in the guesses after it: one with more codes than so few guesses can tell apart, one the
//! checker finds no second guess to split into single codes, or one refuted in turn below it.
//! The format is in the book's `docs/src/refutations.md`.

mod game;

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read};
use std::process::ExitCode;
use std::time::Instant;

use game::{Code, Game, Symmetries};

/// The first line of a refutation.
const FORMAT: &str = "moo-refutation 1";
/// The longest code checked: the symmetries are enumerated over every order of the positions.
const MAX_LENGTH: usize = 8;
/// The most codes a game may have here, to keep the lists of codes in memory.
const MAX_CODES: usize = 1 << 22;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = match args.as_slice() {
        [flag] if flag == "-h" || flag == "--help" => {
            println!("usage: refutation-check FILE   (a refutation from `moo tree refute`; .gz is read compressed; - reads standard input)");
            return ExitCode::SUCCESS;
        }
        [path] => path.clone(),
        _ => {
            eprintln!("refutation-check: give one file, the refutation `moo tree refute` wrote (- for standard input)");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    match open(&path).and_then(check) {
        Ok(proof) => {
            println!(
                "verified: no strategy wins every secret of {} within {} guesses",
                proof.game_text, proof.within
            );
            println!(
                "{} positions (by guesses played: {:?}); {} guesses refuted by a part listed below them, {} by the two-guess test, {} by counting; {:.1} s",
                proof.positions.iter().sum::<u64>(),
                proof.positions,
                proof.deeper,
                proof.tried,
                proof.counted,
                start.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("refutation-check: {path}: {e}");
            ExitCode::from(1)
        }
    }
}

/// The lines of the file at `path` (`-`: standard input), decompressed if its name ends in .gz.
fn open(path: &str) -> Result<Box<dyn BufRead>, String> {
    let raw: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("cannot open it: {e}"))?)
    };
    Ok(if path.ends_with(".gz") {
        Box::new(BufReader::new(flate2::read::GzDecoder::new(raw)))
    } else {
        Box::new(BufReader::new(raw))
    })
}

/// What a verified refutation proves, and its size.
#[derive(Debug, Default)]
struct Proof {
    game_text: String,
    within: u32,
    positions: Vec<u64>,
    deeper: u64,
    tried: u64,
    counted: u64,
}

/// A position being checked: what it takes to refute it is gathered from its entries and
/// checked when its closing line comes.
#[derive(Debug)]
struct Position {
    /// The guesses played to reach it.
    guesses: Vec<Code>,
    /// The guesses and answers that reach it, as the file writes them.
    path: Vec<String>,
    /// The candidates left, as indexes into the game's codes.
    set: Vec<usize>,
    /// The guesses to go, within which it must be shown unwinnable.
    left: u32,
    sym: Symmetries,
    /// The least guess of each orbit refuted by an entry.
    refuted: HashSet<Code>,
}

/// Reads and checks a whole refutation.
fn check(input: Box<dyn BufRead>) -> Result<Proof, String> {
    let mut lines = input
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| {
            l.as_ref()
                .map_or(true, |l| !l.trim().is_empty() && !l.starts_with('#'))
        });
    let mut next = |what: &str| -> Result<(usize, String), String> {
        match lines.next() {
            Some((n, Ok(line))) => Ok((n, line)),
            Some((n, Err(e))) => Err(format!("line {n}: cannot read it: {e}")),
            None => Err(format!("it ends where {what} was expected")),
        }
    };
    let (n, first) = next("the first line")?;
    if first.trim() != FORMAT {
        return Err(format!("line {n}: expected {FORMAT:?}, the first line `moo tree refute` writes, found {first:?}"));
    }
    let (game, within) = header(&mut next)?;
    let mut proof = Proof {
        game_text: describe(&game),
        within,
        positions: vec![0; within as usize],
        ..Proof::default()
    };
    let root = Position {
        guesses: Vec::new(),
        path: Vec::new(),
        set: (0..game.codes.len()).collect(),
        left: within,
        sym: Symmetries::new(&game, &[]),
        refuted: HashSet::new(),
    };
    let mut stack = vec![root];
    while let Some(top) = stack.last_mut() {
        let (n, line) = next("more entries or the closing \".\"")?;
        let at = |e: String| format!("line {n}: {e}");
        if line.trim() == "." {
            let done = stack.pop().expect("the loop runs while a position is open");
            proof.positions[done.guesses.len()] += 1;
            proof.counted += close(&game, &done).map_err(at)?;
            if let (Some(parent), Some(guess)) = (stack.last_mut(), done.guesses.last()) {
                parent.refuted.insert(parent.sym.least(guess));
            }
            continue;
        }
        match entry(&game, top, &line).map_err(at)? {
            Some(below) => {
                proof.deeper += 1;
                stack.push(below);
            }
            None => proof.tried += 1,
        }
    }
    if let Ok((n, line)) = next("") {
        return Err(format!(
            "line {n}: {line:?} follows the root's closing \".\": a refutation ends there"
        ));
    }
    Ok(proof)
}

/// The rules and the claim, from the lines after the first.
fn header(
    next: &mut impl FnMut(&str) -> Result<(usize, String), String>,
) -> Result<(Game, u32), String> {
    let mut field = |key: &str| -> Result<(usize, String), String> {
        let (n, line) = next(&format!("the {key:?} line"))?;
        match line.split_once(' ') {
            Some((k, v)) if k == key => Ok((n, v.trim().to_string())),
            _ => Err(format!("line {n}: expected \"{key} ...\", found {line:?}")),
        }
    };
    let (n, length) = field("length")?;
    let length: usize = length
        .parse()
        .ok()
        .filter(|l| (1..=MAX_LENGTH).contains(l))
        .ok_or(format!(
            "line {n}: the length must be a number from 1 to {MAX_LENGTH}"
        ))?;
    let (n, symbols) = field("symbols")?;
    let symbols: Vec<char> = symbols.chars().collect();
    let distinct: HashSet<char> = symbols.iter().copied().collect();
    if symbols.is_empty() || symbols.len() > 64 || distinct.len() != symbols.len() {
        return Err(format!(
            "line {n}: the symbols must be 1 to 64 different characters"
        ));
    }
    let yes_no = |n: usize, value: &str, yes: &str, no: &str| match value {
        v if v == yes => Ok(true),
        v if v == no => Ok(false),
        v => Err(format!("line {n}: expected {yes:?} or {no:?}, found {v:?}")),
    };
    let (n, repeats) = field("repeats")?;
    let repeats = yes_no(n, &repeats, "yes", "no")?;
    let (n, leading) = field("leading")?;
    let not_first = yes_no(n, &leading, "not-first", "any")?;
    let count = (symbols.len() as f64).powi(length as i32);
    if count > MAX_CODES as f64 {
        return Err(format!(
            "line {n}: the game has too many codes to list here (over {MAX_CODES})"
        ));
    }
    let game = Game::new(length, symbols, repeats, not_first);
    if game.codes.is_empty() {
        return Err(format!("line {n}: these rules leave no code"));
    }
    let (n, within) = field("within")?;
    let within: u32 = within
        .parse()
        .ok()
        .filter(|&w| (1..=64).contains(&w))
        .ok_or(format!(
            "line {n}: the guesses must be a number from 1 to 64"
        ))?;
    Ok((game, within))
}

/// The rules in words.
fn describe(game: &Game) -> String {
    format!(
        "length {} over {} ({}{})",
        game.length,
        game.symbols.iter().collect::<String>(),
        if game.repeats {
            "repeats allowed"
        } else {
            "all different"
        },
        if game.not_first {
            ", the first symbol never leading"
        } else {
            ""
        }
    )
}

/// Checks one entry `GUESS ANSWER KIND` of `position`: the part the answer leaves is not
/// empty, and either (`try`) two guesses are left after it and none splits it into single codes,
/// or (`>`) it is refuted below, by the position returned, whose entries follow.
fn entry(game: &Game, position: &mut Position, line: &str) -> Result<Option<Position>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [guess_text, answer, kind] = words.as_slice() else {
        return Err(format!(
            "expected \"GUESS ANSWER try\", \"GUESS ANSWER >\" or \".\", found {line:?}"
        ));
    };
    let guess = game
        .parse(guess_text)
        .ok_or(format!("{guess_text:?} is not a code of the game"))?;
    let g = game
        .index(&guess)
        .expect("a code the game parses is one of its codes");
    let slot = parse_answer(game, answer)?;
    let part: Vec<usize> = position
        .set
        .iter()
        .copied()
        .filter(|&s| game.score(g, s) == slot)
        .collect();
    if part.is_empty() {
        return Err(format!(
            "no candidate left here answers {answer} to {guess_text}"
        ));
    }
    let after = position.left - 1;
    match *kind {
        "try" => {
            if after != 2 {
                return Err(format!(
                    "\"try\" is for parts with two guesses left; here {after} are"
                ));
            }
            if let Some(split) = won_within_two(game, &part) {
                return Err(format!(
                    "the part {guess_text} {answer} leaves is won within two guesses: {} splits it into single codes",
                    game.format(&split)
                ));
            }
            position.refuted.insert(position.sym.least(&guess));
            Ok(None)
        }
        ">" => {
            if after == 0 {
                return Err("no guess is left after this one: nothing to refute below it".into());
            }
            let mut guesses = position.guesses.clone();
            guesses.push(guess);
            let sym = Symmetries::new(game, &guesses);
            let mut path = position.path.clone();
            path.push(format!("{guess_text} {answer}"));
            Ok(Some(Position {
                guesses,
                path,
                set: part,
                left: after,
                sym,
                refuted: HashSet::new(),
            }))
        }
        other => Err(format!("unknown kind {other:?}: expected \"try\" or \">\"")),
    }
}

/// The slot of an answer written `xByC`; the win and answers no two codes give are refused.
fn parse_answer(game: &Game, text: &str) -> Result<usize, String> {
    let bad = || format!("{text:?} is not an answer: write it as bulls and cows, e.g. 1B2C");
    let (b, rest) = text.split_once('B').ok_or_else(bad)?;
    let c = rest.strip_suffix('C').ok_or_else(bad)?;
    let (b, c): (usize, usize) = (b.parse().map_err(|_| bad())?, c.parse().map_err(|_| bad())?);
    let l = game.length;
    if b + c > l || (b + 1 == l && c == 1) {
        return Err(format!("{text} is no answer a code of length {l} can get"));
    }
    if b == l {
        return Err(format!(
            "{text} wins: a part to refute is one the guess leaves unwon"
        ));
    }
    Ok(game.slot(b, c))
}

/// A guess that leaves each code of `part` alone in its part (or wins it), if there is one:
/// then two guesses win every code of it.
fn won_within_two(game: &Game, part: &[usize]) -> Option<Code> {
    if part.len() == 1 {
        return Some(game.codes[part[0]].clone());
    }
    let win = game.win();
    let mut counts = vec![0u32; game.slots()];
    (0..game.codes.len())
        .find(|&h| {
            counts.fill(0);
            // The first answer given twice rules `h` out: most guesses are out within a few codes.
            // A score is the same either way round (bulls are places both codes share, cows the
            // other symbols both hold), so `s`'s row is read along the guesses, in order.
            part.iter().all(|&s| {
                let slot = game.score(s, h);
                counts[slot] += 1;
                slot == win || counts[slot] <= 1
            })
        })
        .map(|h| game.codes[h].clone())
}

/// Checks that every guess at `position`, up to its symmetries, is refuted: by an entry, or by
/// a part larger than the guesses left after it can win. Returns how many were counted. The
/// codes are shared out among the machine's cores.
fn close(game: &Game, position: &Position) -> Result<u64, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = game.codes.len().div_ceil(threads);
    let results: Vec<Result<u64, usize>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..game.codes.len())
            .step_by(chunk)
            .map(|from| {
                let to = (from + chunk).min(game.codes.len());
                scope.spawn(move || count_refuted(game, position, from..to))
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a counting thread does not panic"))
            .collect()
    });
    let mut counted = 0;
    for result in results {
        match result {
            Ok(n) => counted += n,
            Err(g) => {
                return Err(format!(
                    "the position after [{}], with {} guesses left, is not refuted: its guess {} is listed nowhere, and none of its parts has more than {} codes",
                    position.path.join(", "),
                    position.left,
                    game.format(&game.codes[g]),
                    game.most_won(position.left - 1)
                ));
            }
        }
    }
    Ok(counted)
}

/// How many of the codes `range` are least in their orbit, not refuted by an entry, and refuted
/// by counting; the first that is none of these fails.
fn count_refuted(
    game: &Game,
    position: &Position,
    range: std::ops::Range<usize>,
) -> Result<u64, usize> {
    let cap = game.most_won(position.left - 1);
    let win = game.win();
    let mut counts = vec![0u64; game.slots()];
    let mut counted = 0;
    for g in range {
        let code = &game.codes[g];
        if !position.sym.is_least(code) || position.refuted.contains(code) {
            continue;
        }
        counts.fill(0);
        // The first part to outgrow the cap settles the guess: most do long before the end.
        let too_large = position.set.iter().any(|&s| {
            let slot = game.score(g, s);
            counts[slot] += 1;
            slot != win && counts[slot] > cap
        });
        if !too_large {
            return Err(g);
        }
        counted += 1;
    }
    Ok(counted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mastermind() -> Game {
        Game::new(4, "123456".chars().collect(), true, false)
    }

    fn indexes(game: &Game, codes: &[&str]) -> Vec<usize> {
        codes
            .iter()
            .map(|c| game.index(&game.parse(c).unwrap()).unwrap())
            .collect()
    }

    #[test]
    fn two_guesses_win_what_one_guess_splits_into_single_codes() {
        let game = mastermind();
        assert!(won_within_two(&game, &indexes(&game, &["1111"])).is_some());
        assert!(won_within_two(&game, &indexes(&game, &["1111", "2222", "3333"])).is_some());
        // More codes than a guess has answers cannot be split into single codes.
        let all: Vec<usize> = (0..game.codes.len()).collect();
        assert!(won_within_two(&game, &all).is_none());
    }

    #[test]
    fn an_entry_whose_part_is_won_in_two_is_refused() {
        let game = mastermind();
        let set = indexes(&game, &["1111", "2222", "3333"]);
        let mut position = Position {
            guesses: Vec::new(),
            path: Vec::new(),
            set,
            left: 3,
            sym: Symmetries::new(&game, &[]),
            refuted: HashSet::new(),
        };
        let err = entry(&game, &mut position, "4444 0B0C try").unwrap_err();
        assert!(err.contains("is won within two guesses"), "{err}");
        let err = entry(&game, &mut position, "1111 2B0C try").unwrap_err();
        assert!(err.contains("no candidate left here answers"), "{err}");
        position.left = 4;
        let err = entry(&game, &mut position, "4444 0B0C try").unwrap_err();
        assert!(err.contains("two guesses left; here 3 are"), "{err}");
        assert!(position.refuted.is_empty());
    }

    #[test]
    fn a_position_is_refuted_by_counting_only_when_a_part_is_too_large() {
        let game = mastermind();
        let all: Vec<usize> = (0..game.codes.len()).collect();
        let position = |left| Position {
            guesses: Vec::new(),
            path: Vec::new(),
            set: all.clone(),
            left,
            sym: Symmetries::new(&game, &[]),
            refuted: HashSet::new(),
        };
        // Within 4: every opening leaves more than 183 codes in a part (Knuth's 5 is optimal).
        assert_eq!(close(&game, &position(4)), Ok(5));
        // Within 5 counting proves nothing: 1122's largest part is 256 codes.
        let err = close(&game, &position(5)).unwrap_err();
        assert!(err.contains("is listed nowhere"), "{err}");
    }
}
