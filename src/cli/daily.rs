//! `moo daily`: the day's puzzle, the same secret for everyone that day (UTC) and the same as
//! the web app's, played as `moo play` is, ending with the review and the share card.

use moo_core::daily::{self, Date, Puzzle};
use moo_core::Preset;
use serde::Serialize;

use super::input::Input;
use super::output::outln;
use super::{play, GameName, UsageError};

/// The most days `--list` prints: more than a lifetime of puzzles.
const MAX_LIST_DAYS: i64 = 100_000;

/// Arguments of `moo daily`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The day's secret comes from the date alone (the book's daily puzzle \
page gives the function), so everyone plays the same one, here and on the web. Type a guess per \
line, or: history, give up, help. At the end come the review of every guess and the share card, \
which shows how the game went without giving the secret away.

Examples:
  moo daily
  moo daily --game mastermind
  moo daily --date 2026-03-01
  moo daily --list 2026-03-01..2026-03-07 --json"
)]
pub struct Args {
    /// The game: Bulls and Cows (4 distinct digits) or Mastermind (4 pegs of 6 colours).
    #[arg(long, value_enum, default_value = "bulls")]
    game: GameName,

    /// The day to play, as YYYY-MM-DD, to replay a past day's puzzle [default: today, UTC].
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    date: Option<Date>,

    /// Print the puzzles of every day from FROM to TO (YYYY-MM-DD..YYYY-MM-DD, both included)
    /// with their secrets, instead of playing: for checking that every build agrees. It spoils
    /// them.
    #[arg(long, value_name = "FROM..TO", value_parser = parse_range, conflicts_with = "date")]
    list: Option<(Date, Date)>,

    /// With --list: print the list as JSON, one object a day (game, date, number, secret).
    #[arg(long, requires = "list")]
    json: bool,
}

fn parse_date(text: &str) -> Result<Date, String> {
    text.parse().map_err(|e: daily::DailyError| e.to_string())
}

fn parse_range(text: &str) -> Result<(Date, Date), String> {
    let (from, to) = text.split_once("..").ok_or_else(|| {
        format!("{text:?} is not a range: write it as FROM..TO, for example 2026-03-01..2026-03-31")
    })?;
    let (from, to) = (parse_date(from)?, parse_date(to)?);
    if to < from {
        return Err(format!("the range ends ({to}) before it starts ({from})"));
    }
    if to.days() - from.days() >= MAX_LIST_DAYS {
        return Err(format!("the range holds more than {MAX_LIST_DAYS} days"));
    }
    Ok((from, to))
}

/// A day of `--list --json`.
#[derive(Debug, Serialize)]
struct Listed {
    #[serde(flatten)]
    puzzle: Puzzle,
    secret: String,
}

/// Runs `moo daily`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let game = Preset::from(args.game);
    if let Some((from, to)) = args.list {
        return list(game, from, to, args.json);
    }
    let today = Date::today();
    let date = args.date.unwrap_or(today);
    let puzzle = Puzzle::playable(game, date, today).map_err(|e| UsageError(e.to_string()))?;
    play::Game::daily(puzzle).run(&mut Input::stdin())
}

fn list(game: Preset, from: Date, to: Date, json: bool) -> anyhow::Result<()> {
    let days = (from.days()..=to.days()).map(|d| -> anyhow::Result<Listed> {
        let puzzle =
            Puzzle::new(game, Date::from_days(d)).map_err(|e| UsageError(e.to_string()))?;
        let secret = puzzle.rules().format_code(&puzzle.secret());
        Ok(Listed { puzzle, secret })
    });
    if json {
        let days = days.collect::<anyhow::Result<Vec<_>>>()?;
        return outln!("{}", serde_json::to_string(&days)?);
    }
    for day in days {
        let day = day?;
        outln!(
            "{}  #{}  {}",
            day.puzzle.date,
            day.puzzle.number,
            day.secret
        )?;
    }
    Ok(())
}
