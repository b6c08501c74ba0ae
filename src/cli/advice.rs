//! The command line's side of choosing guesses: the flags `solve`, `hint` and `play` share, and
//! strategies named on the command line.
//!
//! The decision itself belongs to the library's advisor ([`moo_core::advisor`]), which the web
//! server calls too, so a history gets the same answer everywhere. This module only turns flags
//! into its options and resolves `tree:FILE`, since reading files is the binary's business.

use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use moo_core::advisor::{
    Advice, AdviceError, AdviceOptions, Advisor, Chooser, Position, Unproven, OPTIMAL,
};
use moo_core::review::ReviewOptions;
use moo_core::strategy::{self, GuessPool, Strategy, StrategyOptions, TreeStrategy};
use moo_core::{CodeSet, CodeSpace, History, Stop};

use super::{GuessPoolArg, TableArgs, UsageError};

/// How long one guess may take when no `--time-limit` is given: short enough to feel
/// immediate at a terminal.
pub const DEFAULT_TIME_LIMIT: &str = "1s";

/// The longest `--time-limit` accepted.
const MAX_TIME_LIMIT: Duration = Duration::from_secs(24 * 3600);

/// How the computer chooses its guesses.
#[derive(Debug, Clone, clap::Args)]
#[command(next_help_heading = "Guessing")]
pub struct AdviceArgs {
    /// The strategy that guesses: `optimal` (the default) plays proven optimal moves wherever
    /// an exact search fits the time limit and a bounded heuristic elsewhere; any name of `moo
    /// bench --list`, or `tree:FILE` to follow a tree written by `moo tree build`.
    #[arg(long, value_name = "NAME")]
    pub strategy: Option<String>,

    /// Which codes may be guessed: any code, or only codes still possible ("hard mode").
    #[arg(long, value_enum, default_value = "all")]
    pub guesses: GuessPoolArg,

    /// The seed of sampling on games too large to score in full, and of random strategies.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,

    /// The most time one guess may take, such as 500ms, 2s or 1m; an exact search that does not
    /// finish in time gives way to a heuristic, and the answer says so.
    #[arg(long, value_name = "DURATION", default_value = DEFAULT_TIME_LIMIT, value_parser = parse_time_limit)]
    pub time_limit: Duration,

    #[command(flatten)]
    pub table: TableArgs,
}

impl AdviceArgs {
    /// The default flags with this time limit (for `play`'s hints, which take no other).
    pub fn with_time_limit(time_limit: Duration) -> AdviceArgs {
        AdviceArgs {
            strategy: None,
            guesses: GuessPoolArg::All,
            seed: 0,
            time_limit,
            table: TableArgs { table_memory: None },
        }
    }
}

/// Reads a `--time-limit`.
pub fn parse_time_limit(text: &str) -> Result<Duration, String> {
    let d = humantime::parse_duration(text)
        .map_err(|e| format!("{e}: write a duration such as 500ms, 2s or 1m"))?;
    if d.is_zero() || d > MAX_TIME_LIMIT {
        return Err("the time limit must be more than 0 and at most 24h".into());
    }
    Ok(d)
}

/// Builds the strategy `name` for `space`: a registry name, or `tree:FILE`.
pub fn build_strategy(
    name: &str,
    space: &CodeSpace,
    options: &StrategyOptions,
) -> anyhow::Result<Box<dyn Strategy>> {
    if let Some(tree) = tree_strategy_named(name, space)? {
        return Ok(Box::new(tree));
    }
    // A tree file that cannot be read or checked is a runtime error (exit 1), as for `moo tree
    // verify`; a strategy that does not exist or cannot play these rules is a usage error (2).
    strategy::by_name(name, space, options).map_err(|e| match e {
        strategy::StrategyError::Unknown { .. } => UsageError(format!(
            "{e}, or tree:FILE for a tree written by `moo tree build`"
        ))
        .into(),
        e => UsageError(e.to_string()).into(),
    })
}

/// For a name `tree:FILE`, the tree in FILE, read, checked and replayed, ready to play; `None`
/// for any other name.
pub fn tree_strategy_named(name: &str, space: &CodeSpace) -> anyhow::Result<Option<TreeStrategy>> {
    let Some(path) = name.strip_prefix("tree:") else {
        return Ok(None);
    };
    let tree = super::tree::read_tree(Path::new(path))?;
    let tree = TreeStrategy::checked(name, tree, space).with_context(|| path.to_string())?;
    Ok(Some(tree))
}

/// Chooses the guesses of one game, as the flags say.
pub struct Guesser {
    advisor: Advisor,
    options: AdviceOptions,
    /// A strategy built once for the whole game: a tree file, or one that keeps state between
    /// turns (a random strategy's generator).
    held: Option<Box<dyn Strategy>>,
    time_limit: Duration,
}

impl Guesser {
    /// The guesser the flags describe, for games of `space`.
    pub fn new(args: &AdviceArgs, space: &CodeSpace) -> anyhow::Result<Guesser> {
        let guesses = GuessPool::from(args.guesses);
        let mut held = None;
        let mut strategy = None;
        match args.strategy.as_deref() {
            None | Some(OPTIMAL) => {}
            Some(name) => {
                let mut options = StrategyOptions::default();
                options.guesses = guesses;
                options.seed = args.seed;
                let built = build_strategy(name, space, &options)?;
                if name.starts_with("tree:") || !built.is_deterministic() {
                    held = Some(built);
                } else {
                    strategy = Some(name.to_string());
                }
            }
        }
        let mut options = AdviceOptions::default();
        options.guesses = guesses;
        options.strategy = strategy;
        options.seed = args.seed;
        Ok(Guesser {
            advisor: Advisor::new(),
            options,
            held,
            time_limit: args.time_limit,
        })
    }

    /// The advisor, whose cache of proven moves the game's review shares.
    pub fn advisor(&self) -> &Advisor {
        &self.advisor
    }

    /// The review of a game these flags played: the same guesses allowed, and each move's
    /// proofs within the time limit of a guess.
    pub fn review_options(&self) -> ReviewOptions {
        let mut options = ReviewOptions::default()
            .with_guesses(self.options.guesses)
            .with_move_time(Some(self.time_limit));
        options.seed = self.options.seed;
        options
    }

    /// The next guess for `history`, whose candidates are `candidates`.
    pub fn advise(
        &mut self,
        space: &CodeSpace,
        history: &History,
        candidates: &CodeSet,
    ) -> Result<Advice, AdviceError> {
        let stop = Stop::after(self.time_limit);
        let chooser = chooser(&mut self.held, &self.options, &stop);
        self.advisor.advise(space, history, candidates, chooser)
    }

    /// Everything about the position `history` leaves, listing at most `list` codes.
    pub fn position(
        &mut self,
        space: &CodeSpace,
        history: &History,
        list: usize,
    ) -> Result<Position, AdviceError> {
        let stop = Stop::after(self.time_limit);
        let chooser = chooser(&mut self.held, &self.options, &stop);
        self.advisor.position(space, history, list, chooser)
    }
}

/// The strategy held, else the advisor with `options` within `stop`.
fn chooser<'a>(
    held: &'a mut Option<Box<dyn Strategy>>,
    options: &'a AdviceOptions,
    stop: &'a Stop,
) -> Chooser<'a> {
    match held {
        Some(s) => Chooser::Held(s.as_mut()),
        None => Chooser::Advisor(options, stop),
    }
}

/// What to print after an advice's explanation: why it is not proven optimal, if an exact search
/// was tried, with what to do about it.
pub fn note_line(advice: &Advice) -> Option<String> {
    advice.note.as_ref().map(|note| match note {
        Unproven::TimeLimit { .. } => format!("({note}; --time-limit allows more)"),
        Unproven::NoTable { .. } => format!("({note}; --table-memory allows it)"),
        _ => format!("({note})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_limits_are_read_and_checked() {
        assert_eq!(parse_time_limit("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_time_limit("2s"), Ok(Duration::from_secs(2)));
        assert!(parse_time_limit("0s").unwrap_err().contains("more than 0"));
        assert!(parse_time_limit("2 days").is_err());
        assert!(parse_time_limit("fast").unwrap_err().contains("such as"));
    }
}
