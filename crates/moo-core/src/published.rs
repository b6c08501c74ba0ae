//! The figures the literature reports for these games, each with its source.
//!
//! One table, so that every known-answer test (the library's, the CLI's, the web server's) checks
//! the same numbers against the same citation, and a figure is stated once. The rows are what
//! moo reproduces: a heuristic of the registry played against every secret, or the best possible
//! strategy found by exhaustive search. The results tables of the README and the
//! book (`docs/`) quote the same rows.
//!
//! The Shapiro, Irving, Neuwirth and Kooi rows are as compiled, totals included, in Serkan Gur's
//! "Mastermind strategies" table of solution-tree averages.

use crate::histogram::Histogram;
use crate::rules::{Rules, RulesError};
use crate::tree::Objective;

/// The rules of a published game, as plain data (no leading-symbol restriction in any of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// Symbols in a code.
    pub length: usize,
    /// The alphabet, in order.
    pub symbols: &'static str,
    /// Whether a symbol may appear more than once.
    pub repeats: bool,
}

impl Game {
    /// Mastermind: 4 pegs of 6 colours, repeats allowed (1296 secrets).
    pub const MASTERMIND: Game = Game {
        length: 4,
        symbols: "123456",
        repeats: true,
    };
    /// Bulls and Cows: 4 distinct digits 0-9 (5040 secrets).
    pub const BULLS: Game = Game {
        length: 4,
        symbols: "0123456789",
        repeats: false,
    };
    /// Bulls and Cows over the digits 1-9 (3024 secrets).
    pub const BULLS_1_TO_9: Game = Game {
        length: 4,
        symbols: "123456789",
        repeats: false,
    };

    /// The rules of the game.
    pub fn rules(&self) -> Result<Rules, RulesError> {
        Rules::new(self.length, self.symbols, self.repeats, false)
    }
}

/// How a published figure was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// A heuristic, by its registry name, guessing from every code.
    Strategy(&'static str),
    /// The best strategy possible for the objective, guessing from every code.
    Optimal(Objective),
}

/// One published result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Published {
    /// The game.
    pub game: Game,
    /// The strategy, or the optimum.
    pub method: Method,
    /// Guesses summed over every secret (the winning guess counts).
    pub total: u64,
    /// The most guesses any secret needs, where the source gives it.
    pub max: Option<u32>,
    /// Secrets that need six guesses or more, where the source gives it.
    pub six_or_more: Option<u64>,
    /// `histogram[k - 1]` secrets need exactly `k` guesses, where the source gives it.
    pub histogram: Option<&'static [u64]>,
    /// Who published it, and where.
    pub source: &'static str,
}

/// Knuth's minimax on Mastermind.
pub const KNUTH: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Strategy("knuth"),
    total: 5801,
    max: Some(5),
    six_or_more: Some(0),
    histogram: Some(&[1, 6, 62, 533, 694]),
    source: "Knuth, \"The computer as master mind\", J. Recreational Mathematics 9 (1976-77) 1-6; \
             the histogram from his table",
};

/// Shapiro's first-consistent-code strategy on Mastermind.
pub const SHAPIRO: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Strategy("simple"),
    total: 7471,
    max: Some(9),
    six_or_more: Some(853),
    histogram: None,
    source: "Shapiro 1983",
};

/// Irving's smallest expected size on Mastermind.
pub const IRVING: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Strategy("expected-size"),
    total: 5696,
    max: Some(6),
    six_or_more: Some(3),
    histogram: None,
    source: "Irving 1979",
};

/// Neuwirth's most information (entropy) on Mastermind.
pub const NEUWIRTH: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Strategy("entropy"),
    total: 5722,
    max: Some(6),
    six_or_more: Some(12),
    histogram: None,
    source: "Neuwirth 1982",
};

/// Kooi's most parts on Mastermind.
pub const KOOI: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Strategy("most-parts"),
    total: 5668,
    max: Some(6),
    six_or_more: Some(7),
    histogram: None,
    source: "Kooi, \"Yet another Mastermind strategy\", ICGA Journal 28 (2005)",
};

/// The fewest guesses in total on Mastermind.
pub const KOYAMA_LAI: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Optimal(Objective::Average),
    total: 5625,
    max: Some(6),
    six_or_more: None,
    histogram: None,
    source: "Koyama and Lai 1993, exhaustive search: 5625 (average 4.3403), which needs 6 \
             guesses for some secret",
};

/// The fewest guesses in the worst case on Mastermind, and the fewest in total among those.
pub const KNUTH_WORST: Published = Published {
    game: Game::MASTERMIND,
    method: Method::Optimal(Objective::Worst),
    total: 5626,
    max: Some(5),
    six_or_more: None,
    histogram: None,
    source: "Knuth 1977: five guesses always suffice, and no strategy needs fewer; Koyama and \
             Lai 1993: 5626 in total is the best within five",
};

/// The fewest guesses in total on Bulls and Cows.
pub const TANAKA: Published = Published {
    game: Game::BULLS,
    method: Method::Optimal(Objective::Average),
    total: 26274,
    max: Some(7),
    six_or_more: None,
    histogram: None,
    source: "Tanaka 1996: 26274 (average 5.2131), at most 7 guesses",
};

/// The fewest guesses in total on Bulls and Cows over the digits 1-9.
pub const BULLS_1_TO_9: Published = Published {
    game: Game::BULLS_1_TO_9,
    method: Method::Optimal(Objective::Average),
    total: 14914,
    max: None,
    six_or_more: None,
    histogram: None,
    source: "listed among the published figures moo reproduces since its first exhaustive \
             search; the original publication is not recorded here",
};

impl Published {
    /// The row in words: `knuth on 4 of 123456 with repeats`.
    pub fn describe(&self) -> String {
        let method = match self.method {
            Method::Strategy(name) => name.to_string(),
            Method::Optimal(Objective::Average) => "the optimum on average".to_string(),
            Method::Optimal(Objective::Worst) => "the optimum in the worst case".to_string(),
            Method::Optimal(Objective::FewestWorst) => {
                "the optimum in the worst case with the fewest secrets there".to_string()
            }
        };
        let Game {
            length,
            symbols,
            repeats,
        } = self.game;
        let repeats = if repeats { "with" } else { "without" };
        format!("{method} on {length} of {symbols} {repeats} repeats")
    }

    /// Checks figures counted over every secret against the row: every figure the source gives
    /// must match, every secret must be solved. The error names the row, what differs and the
    /// source.
    pub fn compare(&self, counted: &Histogram) -> Result<(), String> {
        let mut differences = Vec::new();
        let mut differ = |what: &str, published: String, counted: String| {
            differences.push(format!("{what} {counted}, published {published}"));
        };
        if let Ok(rules) = self.game.rules() {
            let secrets = rules.space_size();
            if u128::from(counted.games()) != secrets {
                differ("games", secrets.to_string(), counted.games().to_string());
            }
        }
        if counted.gave_up() > 0 {
            differ("gave up", "0".into(), counted.gave_up().to_string());
        }
        if counted.total() != self.total {
            differ("total", self.total.to_string(), counted.total().to_string());
        }
        if let Some(max) = self.max {
            if counted.max() != max as usize {
                differ("worst case", max.to_string(), counted.max().to_string());
            }
        }
        let counts = counted.counts();
        if let Some(n) = self.six_or_more {
            let six_or_more: u64 = counts.iter().skip(5).sum();
            if six_or_more != n {
                differ("six or more", n.to_string(), six_or_more.to_string());
            }
        }
        if let Some(histogram) = self.histogram {
            let end = counts.iter().rposition(|&c| c > 0).map_or(0, |i| i + 1);
            if counts[..end] != *histogram {
                differ(
                    "histogram",
                    format!("{histogram:?}"),
                    format!("{:?}", &counts[..end]),
                );
            }
        }
        if differences.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{}: {} ({})",
                self.describe(),
                differences.join("; "),
                self.source
            ))
        }
    }
}

/// Every row above.
pub const TABLE: &[Published] = &[
    KNUTH,
    SHAPIRO,
    IRVING,
    NEUWIRTH,
    KOOI,
    KOYAMA_LAI,
    KNUTH_WORST,
    TANAKA,
    BULLS_1_TO_9,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{evaluate, EvalOptions};
    use crate::space::CodeSpace;
    use crate::strategy::{by_name, StrategyOptions};

    /// Every published heuristic, played against every secret through the registry.
    #[test]
    fn every_published_heuristic_is_reproduced() {
        let mut heuristics = 0;
        for row in TABLE {
            let Method::Strategy(name) = row.method else {
                continue;
            };
            heuristics += 1;
            let space = CodeSpace::new(row.game.rules().unwrap()).unwrap();
            let build = |_seed| by_name(name, &space, &StrategyOptions::default());
            let e = evaluate(&space, &build, &EvalOptions::default(), &|_| {}).unwrap();
            assert!(e.deterministic, "{name}");
            row.compare(&e.histogram).unwrap();
        }
        assert_eq!(heuristics, 5);
    }

    #[test]
    fn a_mismatch_names_the_row_the_figure_and_the_source() {
        let mut off = Histogram::from_counts(vec![1, 6, 62, 532, 695]);
        let err = KNUTH.compare(&off).unwrap_err();
        assert!(
            err.starts_with("knuth on 4 of 123456 with repeats: total 5802"),
            "{err}"
        );
        assert!(
            err.contains("histogram") && err.contains("Knuth, "),
            "{err}"
        );
        off.give_up(1);
        assert!(KNUTH.compare(&off).unwrap_err().contains("games 1297"));
        let worse = Histogram::from_counts(vec![1, 6, 62, 533, 693, 1]);
        let err = KNUTH.compare(&worse).unwrap_err();
        assert!(err.contains("worst case 6, published 5"), "{err}");
        assert!(err.contains("six or more 1, published 0"), "{err}");
    }

    #[test]
    fn every_game_is_valid() {
        for row in TABLE {
            assert!(row.game.rules().is_ok(), "{}", row.describe());
        }
    }
}
