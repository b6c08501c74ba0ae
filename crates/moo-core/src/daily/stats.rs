//! Statistics and streaks of daily puzzles, kept by the player (the page keeps them in the
//! browser) as a [`Record`] of one [`DayResult`] a game and day: played, won, the current and
//! longest streak of days won, the guesses of each win, the average cost of a move.
//!
//! The record is also the export file, so it carries a version: a file this code cannot read,
//! or one from a newer version, is refused with the reason, and the record it would have been
//! merged into is left as it was.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::review::GameReview;
use crate::rules::Preset;

use super::{DailyError, Date, Puzzle};

/// The version of the record's JSON this code writes and reads.
pub const RECORD_VERSION: u64 = 1;

/// The most results a record holds: two games a day for well over a century.
const MAX_RESULTS: usize = 100_000;

/// The most guesses a result may claim: far more than any game of the daily puzzles needs.
const MAX_GUESSES: usize = 1000;

/// One daily game's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DayResult {
    /// The game.
    pub game: Preset,
    /// The puzzle's day.
    pub date: Date,
    /// Guesses played.
    pub guesses: usize,
    /// Whether the secret was found.
    pub won: bool,
    /// The game's total cost against perfect play, in guesses.
    pub cost: f64,
}

impl DayResult {
    /// The result of `puzzle` played as `review` reviews it.
    pub fn of(puzzle: &Puzzle, review: &GameReview) -> DayResult {
        DayResult {
            game: puzzle.game,
            date: puzzle.date,
            guesses: review.guesses_played,
            won: review.won,
            cost: review.total_cost,
        }
    }
}

/// Every daily result of a player, at most one a game and day.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// [`RECORD_VERSION`].
    pub version: u64,
    /// The results, by day then game.
    pub results: Vec<DayResult>,
}

impl Default for Record {
    fn default() -> Record {
        Record {
            version: RECORD_VERSION,
            results: Vec::new(),
        }
    }
}

/// The statistics of one game's daily puzzles.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GameStats {
    /// The game.
    pub game: Preset,
    /// Days played.
    pub played: usize,
    /// Days won.
    pub won: usize,
    /// Days won in a row up to today, or up to yesterday while today is still to play.
    pub current_streak: usize,
    /// The most days won in a row.
    pub longest_streak: usize,
    /// Wins by guesses used: entry `i` counts the wins in `i + 1` guesses, up to the most used.
    pub distribution: Vec<usize>,
    /// The average cost of a move against perfect play, in guesses, over every game played
    /// (none before the first move).
    pub average_cost: Option<f64>,
    /// Whether today's puzzle is played.
    pub played_today: bool,
}

impl Record {
    /// Reads a record from its JSON text; empty text is an empty record (a first visit).
    pub fn parse(text: &str) -> Result<Record, DailyError> {
        let bad = |reason: String| DailyError::BadRecord { reason };
        if text.trim().is_empty() {
            return Ok(Record::default());
        }
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| bad(format!("it is not JSON ({e})")))?;
        match value.get("version").map(|v| v.as_u64()) {
            None => return Err(bad("it has no \"version\" field".into())),
            Some(None) => return Err(bad("its \"version\" is not a whole number".into())),
            Some(Some(v)) if v > RECORD_VERSION => {
                return Err(DailyError::NewerRecord { version: v })
            }
            Some(Some(_)) => {}
        }
        let record: Record = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
        if record.results.len() > MAX_RESULTS {
            return Err(bad(format!(
                "it holds {} results, more than the {MAX_RESULTS} a record may",
                record.results.len()
            )));
        }
        for r in &record.results {
            Puzzle::new(r.game, r.date)?;
            if !(r.cost.is_finite() && r.cost >= 0.0) || r.guesses > MAX_GUESSES {
                return Err(bad(format!(
                    "its result of {} has impossible figures",
                    r.date
                )));
            }
        }
        let mut clean = Record::default();
        clean.merge(record);
        Ok(clean)
    }

    /// The record as JSON text, as it is exported.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a record serialises")
    }

    /// Adds `result` unless the record has its game and day already (the first try counts);
    /// whether it was added.
    pub fn add(&mut self, result: DayResult) -> bool {
        let key = |r: &DayResult| (r.date, r.game.index());
        match self.results.binary_search_by_key(&key(&result), key) {
            Ok(_) => false,
            Err(at) => {
                self.results.insert(at, result);
                true
            }
        }
    }

    /// Adds every result of `other` this record lacks; how many were added.
    pub fn merge(&mut self, other: Record) -> usize {
        other
            .results
            .into_iter()
            .filter(|r| self.add(r.clone()))
            .count()
    }

    /// The statistics of `game` on `today`.
    pub fn stats(&self, game: Preset, today: Date) -> GameStats {
        let days: BTreeMap<Date, &DayResult> = self
            .results
            .iter()
            .filter(|r| r.game == game && r.date <= today)
            .map(|r| (r.date, r))
            .collect();
        let won = |d: Date| days.get(&d).is_some_and(|r| r.won);
        let mut longest = 0;
        let mut run = 0;
        let mut last: Option<Date> = None;
        for (&d, r) in &days {
            run = match (r.won, last) {
                (false, _) => 0,
                (true, Some(prev)) if prev.next() == d && run > 0 => run + 1,
                (true, _) => 1,
            };
            longest = longest.max(run);
            last = Some(d);
        }
        let played_today = days.contains_key(&today);
        let mut day = if played_today {
            today
        } else {
            Date::from_days(today.days() - 1)
        };
        let mut current = 0;
        while won(day) {
            current += 1;
            day = Date::from_days(day.days() - 1);
        }
        let mut distribution = Vec::new();
        for r in days.values().filter(|r| r.won && r.guesses > 0) {
            if distribution.len() < r.guesses {
                distribution.resize(r.guesses, 0);
            }
            distribution[r.guesses - 1] += 1;
        }
        let moves: usize = days.values().map(|r| r.guesses).sum();
        let cost: f64 = days.values().map(|r| r.cost).sum();
        GameStats {
            game,
            played: days.len(),
            won: days.values().filter(|r| r.won).count(),
            current_streak: current,
            longest_streak: longest,
            distribution,
            average_cost: (moves > 0).then(|| cost / moves as f64),
            played_today,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(game: Preset, date: &str, guesses: usize, won: bool) -> DayResult {
        DayResult {
            game,
            date: date.parse().unwrap(),
            guesses,
            won,
            cost: 0.5,
        }
    }

    #[test]
    fn streaks_count_days_won_in_a_row() {
        let mut record = Record::default();
        for (date, won) in [
            ("2026-03-01", true),
            ("2026-03-02", true),
            ("2026-03-03", true),
            ("2026-03-04", false),
            ("2026-03-06", true),
            ("2026-03-07", true),
        ] {
            assert!(record.add(result(Preset::Bulls, date, 5, won)));
        }
        record.add(result(Preset::Mastermind, "2026-03-08", 4, true));
        let on = |d: &str| record.stats(Preset::Bulls, d.parse().unwrap());
        let s = on("2026-03-07");
        assert_eq!(
            (s.played, s.won, s.current_streak, s.longest_streak),
            (6, 5, 2, 3)
        );
        assert!(s.played_today);
        assert_eq!(s.distribution, [0, 0, 0, 0, 5]);
        assert_eq!(s.average_cost, Some(0.1));
        // Today still to play keeps yesterday's streak; a day missed ends it.
        assert_eq!(on("2026-03-08").current_streak, 2);
        assert!(!on("2026-03-08").played_today);
        assert_eq!(on("2026-03-09").current_streak, 0);
        // Days after `today` do not count.
        assert_eq!(on("2026-03-02").played, 2);
        assert_eq!(on("2026-03-04").current_streak, 0);
        let m = record.stats(Preset::Mastermind, "2026-03-08".parse().unwrap());
        assert_eq!(
            (m.played, m.current_streak, m.distribution.len()),
            (1, 1, 4)
        );
    }

    #[test]
    fn the_first_try_of_a_day_counts_and_merges_keep_it() {
        let mut record = Record::default();
        assert!(record.add(result(Preset::Bulls, "2026-03-01", 5, true)));
        assert!(!record.add(result(Preset::Bulls, "2026-03-01", 2, true)));
        let mut other = Record::default();
        other.add(result(Preset::Bulls, "2026-03-01", 9, false));
        other.add(result(Preset::Bulls, "2026-02-28", 6, true));
        assert_eq!(record.merge(other), 1);
        assert_eq!(record.results.len(), 2);
        assert_eq!(record.results[0].date.to_string(), "2026-02-28");
        assert_eq!(record.results[1].guesses, 5);
        assert_eq!(Record::parse(&record.to_json()).unwrap(), record);
    }

    #[test]
    fn a_bad_file_is_refused_with_its_reason() {
        assert_eq!(Record::parse("  ").unwrap(), Record::default());
        for (text, reason) in [
            ("hello", "it is not JSON"),
            ("{}", "no \"version\" field"),
            (r#"{"version": "1"}"#, "not a whole number"),
            (r#"{"version": 1}"#, "missing field `results`"),
            (
                r#"{"version": 1, "results": [{"game": "chess", "date": "2026-01-01", "guesses": 4, "won": true, "cost": 0}]}"#,
                "unknown variant `chess`",
            ),
            (
                r#"{"version": 1, "results": [{"game": "bulls", "date": "2026-02-30", "guesses": 4, "won": true, "cost": 0}]}"#,
                "write it as YYYY-MM-DD",
            ),
            (
                r#"{"version": 1, "results": [{"game": "bulls", "date": "2026-02-03", "guesses": 4, "won": true, "cost": -1}]}"#,
                "impossible figures",
            ),
        ] {
            let e = Record::parse(text).unwrap_err().to_string();
            assert!(e.contains(reason), "{text}: {e}");
        }
        assert_eq!(
            Record::parse(r#"{"version": 2, "results": []}"#)
                .unwrap_err()
                .to_string(),
            "this statistics file has version 2, and this moo reads version 1: open it with a newer moo"
        );
        let early = r#"{"version": 1, "results": [{"game": "bulls", "date": "2023-02-03", "guesses": 4, "won": true, "cost": 0}]}"#;
        assert!(Record::parse(early)
            .unwrap_err()
            .to_string()
            .contains("no daily puzzle on 2023-02-03"));
    }
}
