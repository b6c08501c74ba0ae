//! Reviewing a game: what each guess cost against the best move, in guesses.
//!
//! A guess is worth the guesses the game still needs after it when every later move is
//! optimal. A position whose `n` codes a guess splits into parts `P` takes `n + ΣT(P)` guesses
//! in total over its codes, `T(P)` being the optimal total of part `P` (the winning part, when
//! the guess could be the secret, takes nothing more). The best move's total is the position's
//! own optimal total `T(S)`, so a move costs `(n + ΣT(P) − T(S)) / n` guesses on average over
//! the codes it faced: 0 for an optimal move, exactly 1 for a guess that tells no code apart.
//!
//! Every total comes from the advisor, which proves it where it can (a closed form, the shipped
//! tree, a plan cached from an earlier search, an exact search within the move's time). Where
//! no proof fits, the review still answers: the best guess is the advisor's heuristic, and a
//! part's total is estimated from its size (see [`estimated_total`]). Such figures are marked as
//! estimates, never passed off as proven.

use std::collections::HashMap;

use web_time::{Duration, Instant};

use serde::Serialize;

use crate::advisor::{self, Advisor, Contradiction, TurnReport};
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::{History, Turn};
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::strategy::{partition_stats, Knowledge};

/// How long one move's review may search for proofs when the options name no limit.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(2);

/// What a review is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReviewOptions {
    /// Which codes may be guessed (the best move is chosen among them).
    pub guesses: GuessPool,
    /// How long the proofs of one move may take before its figures are estimated (`None`: no
    /// limit, every figure proven however long that takes).
    pub move_time: Option<Duration>,
    /// The seed of the heuristic's sampling on games too large to score in full.
    pub seed: u64,
}

impl Default for ReviewOptions {
    fn default() -> ReviewOptions {
        ReviewOptions {
            guesses: GuessPool::All,
            move_time: Some(DEFAULT_MOVE_TIME),
            seed: 0,
        }
    }
}

with_setters!(ReviewOptions {
    /// The time one move's proofs may take (`None`: no limit).
    with_move_time: move_time: Option<Duration>;
    /// Which codes may be guessed.
    with_guesses: guesses: GuessPool;
});

/// Why a game cannot be reviewed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReviewError {
    /// A turn follows the winning one.
    #[error(
        "turn {turn} comes after the game was won at turn {won}: remove the turns after the win"
    )]
    AfterWin {
        /// The first turn after the win, counted from 1.
        turn: usize,
        /// The winning turn, counted from 1.
        won: usize,
    },
    /// A guess is not a code of the game the review was asked for.
    #[error("turn {turn}'s guess is not a code of this game")]
    NotInGame {
        /// The turn, counted from 1.
        turn: usize,
    },
    /// The review was cancelled, or its time ran out before every move had its turn.
    #[error(
        "the review stopped after {reviewed} of {moves} moves: it was cancelled or ran out of time"
    )]
    Stopped {
        /// Moves reviewed before the stop.
        reviewed: usize,
        /// Moves in the game.
        moves: usize,
    },
}

/// What a move was worth, in one word, from its cost alone: luck (what the answer left) never
/// enters it, since the player chose the guess, not the answer.
///
/// The thresholds are [`Verdict::THRESHOLDS`], chosen from the costs of many reviewed games (the
/// distribution and the rule are in the book's review chapter): a move costs at most the
/// threshold of its word, and more than the one before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// As good as the best move: it costs nothing.
    Best,
    /// Almost as good as the best move.
    Excellent,
    /// A sound move that loses a little.
    Good,
    /// A move that loses noticeably.
    Inaccuracy,
    /// A move that loses a lot.
    Mistake,
    /// A move that loses about a whole guess or more, as a guess that tells nothing apart does.
    Blunder,
}

impl Verdict {
    /// Every verdict, best first.
    pub const ALL: [Verdict; 6] = [
        Verdict::Best,
        Verdict::Excellent,
        Verdict::Good,
        Verdict::Inaccuracy,
        Verdict::Mistake,
        Verdict::Blunder,
    ];

    /// The most a move may cost, in guesses on average, for each verdict but the last:
    /// `Best` costs nothing, `Excellent` at most 0.05, and so on; anything above the last figure
    /// is a `Blunder`. The figures are the 30th, 60th, 80th and 95th percentiles of the costs of
    /// the moves that cost something, over 1500 reviewed games of every strategy and of seeded
    /// players on Bulls and Cows and Mastermind, each rounded to the nearest 0.05 (the book's
    /// review chapter shows the distribution and the command).
    pub const THRESHOLDS: [(Verdict, f64); 5] = [
        (Verdict::Best, 0.0),
        (Verdict::Excellent, 0.05),
        (Verdict::Good, 0.15),
        (Verdict::Inaccuracy, 0.35),
        (Verdict::Mistake, 0.6),
    ];

    /// The verdict of a move costing `cost` guesses on average (a cost at or below zero is
    /// `Best`).
    pub fn of_cost(cost: f64) -> Verdict {
        Verdict::THRESHOLDS
            .iter()
            .find(|&&(_, most)| cost <= most)
            .map_or(Verdict::Blunder, |&(v, _)| v)
    }

    /// The verdict's position in [`Verdict::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The word, as the JSON writes it: `best`, `excellent`, `good`, `inaccuracy`, `mistake`
    /// or `blunder`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Excellent => "excellent",
            Verdict::Good => "good",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The symbol shown beside the word, as chess annotators mark moves.
    pub fn symbol(self) -> &'static str {
        match self {
            Verdict::Best => "★",
            Verdict::Excellent => "!",
            Verdict::Good => "✓",
            Verdict::Inaccuracy => "?!",
            Verdict::Mistake => "?",
            Verdict::Blunder => "??",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How lucky an answer was: the codes it left against what the guess leaves on average.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Luck {
    /// Codes the answer left.
    pub left: usize,
    /// Codes the guess leaves on average, every code equally likely to be the secret.
    pub expected_left: f64,
}

/// The review of one move.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MoveReview {
    /// The turn, counted from 1.
    pub turn: usize,
    /// The guess played and its answer.
    #[serde(flatten)]
    pub played: TurnReport,
    /// Codes still possible before the guess.
    pub before: usize,
    /// Codes still possible after its answer.
    pub after: usize,
    /// The best guess here (one of them, when several are as good).
    pub best_guess: String,
    /// Guesses still needed after the guess played, on average over the codes possible before
    /// it, when every later move is optimal (0 once the guess wins every time).
    pub expected_after_guess: f64,
    /// The same after the best guess.
    pub expected_after_best: f64,
    /// What the move cost: `expected_after_guess - expected_after_best`, in guesses on average.
    pub cost: f64,
    /// When proven, the guesses still needed after the guess played, summed over the codes
    /// possible before it (`expected_after_guess` times `before`; the guess itself not counted,
    /// unlike the advice's `total_guesses`).
    pub total_after_guess: Option<u64>,
    /// When proven, the same after the best guess.
    pub total_after_best: Option<u64>,
    /// Whether the cost is proven (both figures exact) rather than estimated.
    pub proven: bool,
    /// Whether the guess played is as good as the best one (with estimates: as good as the best
    /// one found).
    pub is_best: bool,
    /// The cost in one word ([`Verdict::THRESHOLDS`]).
    pub verdict: Verdict,
    /// Whether the verdict comes from an estimated cost (`proven` false), so it may be off.
    pub verdict_estimated: bool,
    /// Whether the guess could have been the secret.
    pub could_be_secret: bool,
    /// The earlier turn (counted from 1) that played the same guess, which then tells nothing
    /// new.
    pub repeats_turn: Option<usize>,
    /// Whether every code possible before gives the guess the same answer, so it told none of
    /// them apart.
    pub told_nothing_apart: bool,
    /// How lucky the answer was.
    pub luck: Luck,
    /// Why the figures are estimates, when they are.
    pub note: Option<String>,
    /// Time the review of this move took, in seconds.
    pub seconds: f64,
}

/// The review of a whole game: every move, and what they add up to.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameReview {
    /// Every move, in order (none when the answers contradict each other).
    pub moves: Vec<MoveReview>,
    /// Whether the last move won.
    pub won: bool,
    /// Guesses played.
    pub guesses_played: usize,
    /// The moves' costs added up: guesses lost against optimal play, on average.
    pub total_cost: f64,
    /// The guesses optimal play needs on average from the start of the game, when there is a
    /// move to review.
    pub optimal_expected: Option<f64>,
    /// Whether `optimal_expected` is proven rather than estimated.
    pub optimal_expected_proven: bool,
    /// Whether every move's figures are proven.
    pub proven: bool,
    /// Which answers could be wrong, when no code fits them all.
    pub contradiction: Option<Contradiction>,
    /// One sentence for people.
    pub summary: String,
    /// Time the whole review took, in seconds.
    pub seconds: f64,
}

/// Reviews every move of `history` with `advisor` (whose cache of proven moves it shares), each
/// move's proofs bounded by `options.move_time`, the whole by `stop`.
pub fn review(
    advisor: &Advisor,
    space: &CodeSpace,
    history: &History,
    options: &ReviewOptions,
    stop: &Stop,
) -> Result<GameReview, ReviewError> {
    let start = Instant::now();
    check_turns(space, history)?;
    let turns = history.turns();
    let stopped = |reviewed| ReviewError::Stopped {
        reviewed,
        moves: turns.len(),
    };
    if history
        .candidates_until(space, stop)
        .map_err(|_| stopped(0))?
        .is_empty()
    {
        let contradiction = Contradiction::until(space, history, stop);
        return Ok(GameReview::contradicted(contradiction, turns.len(), start));
    }
    let mut moves = Vec::with_capacity(turns.len());
    let mut before = History::new();
    let mut candidates = space.all();
    // Each guess's first turn, so that a repeat is found without going over the history again:
    // every move's work is its own, and a long game reviews in time linear in its length.
    let mut first_played: HashMap<Code, usize> = HashMap::new();
    // The moves already reviewed in the position at hand. A move that rules nothing out leaves
    // the position as it was, and the same guess and answer there have the same figures: a run
    // of repeats costs one review, not one each (10000 repeated turns, the CLI's cap, took over
    // five minutes when each was searched again).
    let mut reviewed_here: HashMap<Turn, MoveReview> = HashMap::new();
    for (i, turn) in turns.iter().enumerate() {
        if stop.is_stopped() {
            return Err(stopped(i));
        }
        let repeats = first_played.get(&turn.guess).copied();
        if let Some(seen) = reviewed_here.get(turn) {
            moves.push(MoveReview {
                turn: i + 1,
                repeats_turn: repeats,
                seconds: 0.0,
                ..seen.clone()
            });
            before.push(turn.guess, turn.feedback);
            continue;
        }
        let move_stop = move_stop(stop, options, turns.len() - i);
        let reviewer = Reviewer {
            advisor,
            space,
            options,
            stop: &move_stop,
        };
        let left = space.filter_code(&candidates, &turn.guess, turn.feedback);
        let reviewed = reviewer.review_move(&mut before, &candidates, turn, repeats, left.len());
        if left.len() < candidates.len() {
            reviewed_here.clear();
            candidates = left;
        } else {
            reviewed_here.insert(*turn, reviewed.clone());
        }
        moves.push(reviewed);
        first_played.entry(turn.guess).or_insert(i + 1);
        before.push(turn.guess, turn.feedback);
    }
    Ok(GameReview::new(
        space,
        moves,
        history,
        start.elapsed().as_secs_f64(),
    ))
}

/// Refuses a history with turns after its win, or a guess that is no code of the game.
fn check_turns(space: &CodeSpace, history: &History) -> Result<(), ReviewError> {
    let turns = history.turns();
    if let Some(won) = turns.iter().position(|t| t.feedback.is_win(space.length())) {
        if won + 1 < turns.len() {
            return Err(ReviewError::AfterWin {
                turn: won + 2,
                won: won + 1,
            });
        }
    }
    match turns
        .iter()
        .position(|t| space.index_of(&t.guess).is_none())
    {
        Some(turn) => Err(ReviewError::NotInGame { turn: turn + 1 }),
        None => Ok(()),
    }
}

/// The stop of one move's review, `moves_left` counting it: under a deadline for the whole
/// review, each move may take its share of what is left, so that a hard early move cannot leave
/// the later ones no time at all.
fn move_stop(stop: &Stop, options: &ReviewOptions, moves_left: usize) -> Stop {
    let share = stop.remaining().map(|left| left / moves_left as u32);
    match options.move_time.or(share) {
        Some(t) => stop.until(Instant::now() + t.min(share.unwrap_or(t))),
        None => stop.clone(),
    }
}

impl GameReview {
    /// The review of a game whose answers no code fits: no move is reviewed, the contradiction
    /// is the summary.
    fn contradicted(contradiction: Contradiction, played: usize, start: Instant) -> GameReview {
        GameReview {
            moves: Vec::new(),
            won: false,
            guesses_played: played,
            total_cost: 0.0,
            optimal_expected: None,
            optimal_expected_proven: false,
            proven: false,
            summary: contradiction.message.clone(),
            contradiction: Some(contradiction),
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    fn new(
        space: &CodeSpace,
        moves: Vec<MoveReview>,
        history: &History,
        seconds: f64,
    ) -> GameReview {
        let won = history.is_won(space.length());
        let total_cost = moves.iter().map(|m| m.cost).sum::<f64>();
        let proven = moves.iter().all(|m| m.proven);
        let optimal_expected = moves.first().map(|m| 1.0 + m.expected_after_best);
        let optimal_expected_proven = moves.first().is_some_and(|m| m.total_after_best.is_some());
        let approx = if proven { "" } else { "about " };
        let approx_best = if optimal_expected_proven {
            ""
        } else {
            "about "
        };
        let mut summary = match optimal_expected {
            None => "No guess was played yet.".to_string(),
            Some(best) if won => format!(
                "Solved in {} guess{}; perfect play needs {approx_best}{best:.2} on average for this game.",
                moves.len(),
                if moves.len() == 1 { "" } else { "es" }
            ),
            Some(best) => format!(
                "{} guess{} played, not solved yet; perfect play needs {approx_best}{best:.2} on average for this game.",
                moves.len(),
                if moves.len() == 1 { "" } else { "es" }
            ),
        };
        if !moves.is_empty() {
            let best_moves = moves.iter().filter(|m| m.is_best).count();
            let possible = if proven { "possible" } else { "found" };
            summary.push_str(&format!(
                " {best_moves} of {} move{} {} the best {possible}; together the moves cost {approx}{total_cost:.2} guesses on average.",
                moves.len(),
                if moves.len() == 1 { "" } else { "s" },
                if best_moves == 1 { "was" } else { "were" }
            ));
        }
        GameReview {
            moves,
            won,
            guesses_played: history.len(),
            total_cost,
            optimal_expected,
            optimal_expected_proven,
            proven,
            contradiction: None,
            summary,
            seconds,
        }
    }
}

/// The review of one move's position.
struct Reviewer<'a> {
    advisor: &'a Advisor,
    space: &'a CodeSpace,
    options: &'a ReviewOptions,
    stop: &'a Stop,
}

/// A guess's total over the parts it leaves: what the guesses after it take, summed over the
/// codes possible before it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct After {
    total: f64,
    proven: bool,
}

/// The guess a move played, as its totals need it.
#[derive(Debug, Clone, Copy)]
struct Played {
    /// Its code index.
    guess: usize,
    /// The bits it tells about the position's codes.
    entropy: f64,
    /// Whether it left the position as it was (one part, not the win).
    told_nothing_apart: bool,
}

/// The best move of a position, before the total after it is known when it is not proven.
enum Best {
    /// A proven optimal guess and the total after it.
    Proven { guess: usize, after: u64 },
    /// The heuristic's guess, and why no proof was found.
    Heuristic { guess: usize, note: String },
}

impl Reviewer<'_> {
    /// The review of `turn`, played where `history` leaves `candidates` and leaving `left`;
    /// `repeats` is the turn that played its guess first, if one did. `history` is lent for the proofs of the parts
    /// the guesses leave (a turn pushed and taken back for each) and comes back as it was.
    fn review_move(
        &self,
        history: &mut History,
        candidates: &CodeSet,
        turn: &Turn,
        repeats: Option<usize>,
        left: usize,
    ) -> MoveReview {
        let start = Instant::now();
        let space = self.space;
        let n = candidates.len() as f64;
        let g = space
            .index_of(&turn.guess)
            .expect("review() checked every guess is a code of the space");
        let stats = partition_stats(space, g, candidates);
        let told_nothing_apart = stats.parts == 1 && !turn.feedback.is_win(space.length());
        let best = self.best(&Knowledge {
            space,
            history,
            candidates,
        });
        let best_note = match &best {
            Best::Proven { .. } => None,
            Best::Heuristic { note, .. } => Some(note.clone()),
        };
        let played = Played {
            guess: g,
            entropy: stats.entropy,
            told_nothing_apart,
        };
        let (after, best_after, best_guess) = self.totals(history, candidates, played, best);
        let proven = after.proven && best_after.proven;
        let note = (!proven).then(|| {
            best_note.unwrap_or_else(|| {
                "not every part this guess leaves was solved exactly within the time limit: their totals are estimated from their sizes".to_string()
            })
        });
        let cost = (after.total - best_after.total) / n;
        MoveReview {
            turn: history.len() + 1,
            played: TurnReport::new(space.rules(), turn),
            before: candidates.len(),
            after: left,
            best_guess: space.rules().format_code(&space.code(best_guess)),
            expected_after_guess: after.total / n,
            expected_after_best: best_after.total / n,
            cost,
            total_after_guess: after.proven.then_some(after.total as u64),
            total_after_best: best_after.proven.then_some(best_after.total as u64),
            proven,
            is_best: cost <= 0.0,
            verdict: Verdict::of_cost(cost),
            verdict_estimated: !proven,
            could_be_secret: stats.is_candidate,
            repeats_turn: repeats,
            told_nothing_apart,
            luck: Luck {
                left,
                expected_left: stats.expected_size,
            },
            note,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The totals after the guess `played` and after the best guess, and the best guess:
    /// `best`'s, or the one played where that does better.
    fn totals(
        &self,
        history: &mut History,
        candidates: &CodeSet,
        played: Played,
        best: Best,
    ) -> (After, After, usize) {
        let space = self.space;
        let n = candidates.len() as f64;
        let (Best::Proven { guess, .. } | Best::Heuristic { guess, .. }) = best;
        let information = played
            .entropy
            .max(partition_stats(space, guess, candidates).entropy);
        let mut best_after = match best {
            Best::Proven { after, .. } => After {
                total: after as f64,
                proven: true,
            },
            Best::Heuristic { guess, .. } => {
                let parts = space.partition(guess, candidates);
                let after = self.after(history, guess, &parts, information);
                // A heuristic guess is proven optimal only when it meets the bound no play
                // beats: every code but one found with the next guess (2n - 1 in all).
                After {
                    proven: after.proven && after.total == n - 1.0,
                    ..after
                }
            }
        };
        let g = played.guess;
        let mut after = if played.told_nothing_apart {
            // The one part is the position itself: the move costs exactly one guess.
            After {
                total: best_after.total + n,
                proven: best_after.proven,
            }
        } else if g == guess && best_after.proven {
            best_after
        } else {
            let parts = space.partition(g, candidates);
            self.after(history, g, &parts, information)
        };
        let mut best_guess = guess;
        if after.total < best_after.total {
            // Better than the heuristic's guess, or, with only consistent guesses allowed, a
            // guess outside them that beats their best.
            best_guess = g;
            best_after = After {
                proven: after.proven && best_after.proven,
                ..after
            };
        }
        if !after.proven {
            // No guess beats the optimum, or the best guess found.
            after.total = after.total.max(best_after.total);
        }
        (after, best_after, best_guess)
    }

    /// The best move here: proven by the advisor within half the move's time, else the
    /// heuristic's within half of what is left, the rest kept for the parts of the guess played.
    fn best(&self, knowledge: &Knowledge<'_>) -> Best {
        let n = knowledge.candidates.len() as u64;
        let note = match self.advisor.prove(
            knowledge,
            self.options.guesses,
            &share(self.stop, 0.5),
            Instant::now(),
        ) {
            Ok(p) => match p.total {
                Some(total) => {
                    return Best::Proven {
                        guess: p.guess,
                        after: total - n,
                    }
                }
                None => "the best move's total was not known".to_string(),
            },
            Err(unproven) => unproven.to_string(),
        };
        let guess = advisor::fallback(self.options.guesses, self.options.seed)
            .choose(knowledge, &share(self.stop, 0.5))
            .map_or_else(
                || knowledge.candidates.first().expect("never empty"),
                |c| c.guess,
            );
        Best::Heuristic { guess, note }
    }

    /// The total after `guess`, whose parts are `parts`: each part's optimal total, proven by
    /// the advisor where it can be within the move's time, else estimated with `information`
    /// bits a guess.
    fn after(
        &self,
        history: &mut History,
        guess: usize,
        parts: &[(Feedback, CodeSet)],
        information: f64,
    ) -> After {
        let space = self.space;
        let code = space.code(guess);
        let mut sum = After {
            total: 0.0,
            proven: true,
        };
        for (feedback, part) in parts {
            if feedback.is_win(space.length()) {
                continue;
            }
            history.push(code, *feedback);
            let child = Knowledge {
                space,
                history,
                candidates: part,
            };
            let proven = self
                .advisor
                .prove(&child, self.options.guesses, self.stop, Instant::now())
                .ok()
                .and_then(|p| p.total);
            history.undo();
            match proven {
                Some(total) => sum.total += total as f64,
                None => {
                    sum.total += estimated_total(part.len(), information);
                    sum.proven = false;
                }
            }
        }
        sum
    }
}

/// `stop`, or sooner: after `fraction` of the time it leaves.
fn share(stop: &Stop, fraction: f64) -> Stop {
    match stop.remaining() {
        Some(left) => stop.until(Instant::now() + left.mul_f64(fraction)),
        None => stop.clone(),
    }
}

/// An estimate of the optimal total of a set of `size` codes, when every guess tells
/// `information` bits: each code takes the guess that finds it, plus `log2(size) /
/// information` guesses to narrow the set down to it, and never fewer than the `2 size - 1`
/// guesses of the best conceivable play (a first guess that could be the secret and tells every
/// other code apart).
pub fn estimated_total(size: usize, information: f64) -> f64 {
    let k = size as f64;
    match size {
        0 => 0.0,
        1 | 2 => 2.0 * k - 1.0,
        _ => (k * (1.0 + crate::log2(k) / information.max(1.0))).max(2.0 * k - 1.0),
    }
}

#[cfg(test)]
mod tests;
