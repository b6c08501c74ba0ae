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
    /// Mastermind with 7 colours (2401 secrets).
    pub const MASTERMIND_4X7: Game = Game::mastermind(4, "1234567");
    /// Mastermind with 8 colours (4096 secrets).
    pub const MASTERMIND_4X8: Game = Game::mastermind(4, "12345678");
    /// Mastermind with 9 colours (6561 secrets).
    pub const MASTERMIND_4X9: Game = Game::mastermind(4, "123456789");
    /// Mastermind with 5 pegs of 5 colours (3125 secrets).
    pub const MASTERMIND_5X5: Game = Game::mastermind(5, "12345");
    /// Mastermind with 5 pegs of 6 colours (7776 secrets).
    pub const MASTERMIND_5X6: Game = Game::mastermind(5, "123456");
    /// Mastermind with 5 pegs of 7 colours (16807 secrets).
    pub const MASTERMIND_5X7: Game = Game::mastermind(5, "1234567");
    /// Bulls and Cows with 5 distinct digits of 0-7 (6720 secrets).
    pub const BULLS_5_OF_0_7: Game = Game {
        length: 5,
        symbols: "01234567",
        repeats: false,
    };
    /// Bulls and Cows with 5 distinct digits of 0-8 (15120 secrets).
    pub const BULLS_5_OF_0_8: Game = Game {
        length: 5,
        symbols: "012345678",
        repeats: false,
    };

    /// Mastermind with `length` pegs of the colours `symbols`, repeats allowed.
    pub const fn mastermind(length: usize, symbols: &'static str) -> Game {
        Game {
            length,
            symbols,
            repeats: true,
        }
    }

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
    /// Secrets that need the most guesses (`max`), where the source gives it.
    pub at_worst: Option<u64>,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
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
    at_worst: None,
    histogram: None,
    source: "listed among the published figures moo reproduces since its first exhaustive \
             search; the original publication is not recorded here",
};

/// The fewest guesses in total on Mastermind with 7 colours.
pub const VILLE: Published = Published {
    game: Game::MASTERMIND_4X7,
    method: Method::Optimal(Objective::Average),
    total: 11228,
    max: None,
    six_or_more: None,
    at_worst: None,
    histogram: None,
    source: "Geoffroy Ville, \"An Optimal Mastermind (4,7) Strategy and More Results in the \
             Expected Case\", arXiv:1305.1010 (2013): average 4.676 (11228 over 2401 secrets)",
};

/// The fewest guesses in total on Mastermind with 8 colours.
pub const ARFST23: Published = Published {
    game: Game::MASTERMIND_4X8,
    method: Method::Optimal(Objective::Average),
    total: 20471,
    max: None,
    six_or_more: None,
    at_worst: None,
    histogram: None,
    source: "arfst23/Mastermind on GitHub (an exhaustive search, not peer reviewed): average \
             4.99780 (20471 over 4096 secrets), from a run of 33262 CPU seconds",
};

/// Where a row of [`NEW_RESULTS`] comes from.
const MOO: &str =
    "moo's own exhaustive search (`moo tree build`), every tree replayed by `moo tree \
                   verify`; no published figure found";

/// Where a row of [`NEW_RESULTS`] proven by a split run comes from.
const SPLIT: &str =
    "moo's own exhaustive search split into jobs (`moo tree split`, `moo tree job`, `moo tree \
     join`), the joined tree replayed by `moo tree verify`; no published figure found";

/// A row of moo's own (see [`NEW_RESULTS`]): the optimum of `objective` on `game`, `total`
/// guesses, `max` at worst (`at_worst` secrets there, where the row gives it).
const fn ours(
    game: Game,
    objective: Objective,
    total: u64,
    max: u32,
    at_worst: Option<u64>,
) -> Published {
    Published {
        game,
        method: Method::Optimal(objective),
        total,
        max: Some(max),
        six_or_more: None,
        at_worst,
        histogram: None,
        source: MOO,
    }
}

/// Mastermind: five guesses always suffice (KNUTH_WORST), and no strategy needs the fifth for fewer
/// than 539 secrets; with 539, no fewer than 5627 guesses in total.
pub const MASTERMIND_FEWEST_WORST: Published =
    ours(Game::MASTERMIND, Objective::FewestWorst, 5627, 5, Some(539));

/// Bulls and Cows: seven guesses are needed (TANAKA), and for no fewer than 50 secrets (the best
/// tree known before, Slovesnov's "crush5o", also has 50; its minimality was open).
pub const BULLS_FEWEST_WORST: Published =
    ours(Game::BULLS, Objective::FewestWorst, 26450, 7, Some(50));

/// Bulls and Cows with 5 distinct digits of 0-7: the fewest guesses in total (a search of minutes,
/// too long for CI; the shipped tree `trees/bulls-5x8-average.json` is replayed instead).
pub const BULLS_5_OF_0_7: Published =
    ours(Game::BULLS_5_OF_0_7, Objective::Average, 34444, 7, Some(93));

/// Bulls and Cows with 5 distinct digits of 0-8: the fewest guesses in total, proven by a
/// search split into 1771 jobs (14.3 CPU hours, far too long for CI; the shipped tree
/// `trees/bulls-5x9-average.json.gz` is replayed instead, and an ignored test joins the run's
/// shipped results, `runs/bulls-5x9/b59.tar.gz`, to it again). The worst case is its tree's,
/// 8 for one secret: whether a tree of this total can keep every secret within 7 is open.
pub const BULLS_5_OF_0_8: Published = Published {
    source: SPLIT,
    ..ours(Game::BULLS_5_OF_0_8, Objective::Average, 81847, 8, Some(1))
};

/// Bulls and Cows with 5 distinct digits of 0-7: seven guesses are needed (BULLS_5_OF_0_7's tree
/// needs them too), and for no fewer than 15 secrets; with 15, no fewer than 34594 guesses in
/// total (a search of over half an hour of CPU, too long for CI; the shipped tree `trees/bulls-5x8-fewest-worst.json`
/// is replayed instead).
pub const BULLS_5_OF_0_7_FEWEST_WORST: Published = Published {
    histogram: Some(&[1, 6, 132, 1070, 3176, 2320, 15]),
    ..ours(
        Game::BULLS_5_OF_0_7,
        Objective::FewestWorst,
        34594,
        7,
        Some(15),
    )
};

/// Mastermind with 9 colours: the fewest guesses in total (a search of 96 CPU seconds, too long
/// for CI; the shipped tree `trees/mastermind-4x9-average.json` is replayed instead).
pub const MASTERMIND_4X9: Published = ours(
    Game::MASTERMIND_4X9,
    Objective::Average,
    34666,
    7,
    Some(155),
);

/// Mastermind with 5 pegs of 6 colours: the fewest guesses in total (a search of minutes and
/// 1.4 GB, too long for CI; the shipped tree `trees/mastermind-5x6-average.json` is replayed
/// instead).
pub const MASTERMIND_5X6: Published = ours(
    Game::MASTERMIND_5X6,
    Objective::Average,
    36721,
    6,
    Some(479),
);

/// Mastermind with 5 pegs of 6 colours: six guesses are needed (MASTERMIND_5X6's tree needs them
/// too), and for no fewer than 315 secrets; with 315, no fewer than 36822 guesses in total (a
/// search of 22 CPU minutes, too long for CI; the shipped tree
/// `trees/mastermind-5x6-fewest-worst.json` is replayed instead).
pub const MASTERMIND_5X6_FEWEST_WORST: Published = Published {
    histogram: Some(&[1, 10, 175, 1989, 5286, 315]),
    ..ours(
        Game::MASTERMIND_5X6,
        Objective::FewestWorst,
        36822,
        6,
        Some(315),
    )
};

/// Mastermind with 5 pegs of 7 colours: the fewest guesses in total, proven by a search split
/// into 3177 jobs (2.24 CPU hours, too long for CI; the shipped tree
/// `trees/mastermind-5x7-average.json.gz` is replayed instead, and an ignored test joins the
/// run's shipped results, `runs/mastermind-5x7/m57.tar.gz`, to it again). The worst case is its
/// tree's, 7 for 43 secrets: whether a tree of this total can keep every secret within 6 was
/// not searched.
pub const MASTERMIND_5X7: Published = Published {
    source: SPLIT,
    histogram: Some(&[1, 11, 157, 2276, 10168, 4151, 43]),
    ..ours(Game::MASTERMIND_5X7, Objective::Average, 85645, 7, Some(43))
};

/// moo's own exact results: optima that no publication we know of gives, kept apart from
/// [`TABLE`] so that nobody mistakes them for independent confirmation. Each is the optimum of
/// its objective: `Average` the fewest guesses in total (and `max` the least worst case among
/// such trees that the search's tie rule finds), `Worst` the fewest guesses that always suffice
/// and the fewest in total among such trees, `FewestWorst` also the fewest secrets at that worst
/// case (`at_worst`) before the total. docs/src/exact-results.md gives each row's command, time
/// and memory.
#[rustfmt::skip] // a table: a row a line, its columns aligned
pub const NEW_RESULTS: &[Published] = &[
    // Mastermind, 3 pegs of 4 colours (64 secrets).
    ours(Game::mastermind(3, "1234"),        Objective::Average,      206,    4,  None),
    ours(Game::mastermind(3, "1234"),        Objective::Worst,        206,    4,  None),
    ours(Game::mastermind(3, "1234"),        Objective::FewestWorst,  206,    4,  Some(21)),
    // Mastermind, 3 pegs of 5 colours (125 secrets).
    ours(Game::mastermind(3, "12345"),       Objective::Average,      451,    5,  None),
    ours(Game::mastermind(3, "12345"),       Objective::Worst,        451,    5,  None),
    ours(Game::mastermind(3, "12345"),       Objective::FewestWorst,  453,    5,  Some(1)),
    // Mastermind, 3 pegs of 6 colours (216 secrets).
    ours(Game::mastermind(3, "123456"),      Objective::Average,      854,    5,  None),
    ours(Game::mastermind(3, "123456"),      Objective::Worst,        854,    5,  None),
    ours(Game::mastermind(3, "123456"),      Objective::FewestWorst,  855,    5,  Some(36)),
    // Mastermind, 3 pegs of 7 colours (343 secrets).
    ours(Game::mastermind(3, "1234567"),     Objective::Average,      1474,   6,  None),
    ours(Game::mastermind(3, "1234567"),     Objective::Worst,        1474,   6,  None),
    ours(Game::mastermind(3, "1234567"),     Objective::FewestWorst,  1475,   6,  Some(1)),
    // Mastermind, 3 pegs of 8 colours (512 secrets).
    ours(Game::mastermind(3, "12345678"),    Objective::Average,      2359,   6,  None),
    ours(Game::mastermind(3, "12345678"),    Objective::Worst,        2359,   6,  None),
    ours(Game::mastermind(3, "12345678"),    Objective::FewestWorst,  2361,   6,  Some(20)),
    // Mastermind, 3 pegs of 9 colours (729 secrets).
    ours(Game::mastermind(3, "123456789"),   Objective::Average,      3596,   6,  None),
    ours(Game::mastermind(3, "123456789"),   Objective::Worst,        3596,   6,  None),
    ours(Game::mastermind(3, "123456789"),   Objective::FewestWorst,  3600,   6,  Some(134)),
    // Mastermind, 3 pegs of 10 colours (1000 secrets).
    ours(Game::mastermind(3, "0123456789"),  Objective::Average,      5242,   7,  None),
    ours(Game::mastermind(3, "0123456789"),  Objective::Worst,        5242,   7,  None),
    ours(Game::mastermind(3, "0123456789"),  Objective::FewestWorst,  5248,   7,  Some(4)),
    // Mastermind 4x7 and 4x8: the optimum on average is published (VILLE, ARFST23).
    ours(Game::MASTERMIND_4X7,               Objective::Worst,        11228,  6,  None),
    ours(Game::MASTERMIND_4X7,               Objective::FewestWorst,  11302,  6,  Some(92)),
    ours(Game::MASTERMIND_4X8,               Objective::Worst,        20473,  6,  None),
    ours(Game::MASTERMIND_4X8,               Objective::FewestWorst,  20506,  6,  Some(767)),
    // Mastermind, 5 pegs of 5 colours.
    ours(Game::MASTERMIND_5X5,               Objective::Average,      13496,  6,  None),
    ours(Game::MASTERMIND_5X5,               Objective::Worst,        13531,  5,  None),
    ours(Game::MASTERMIND_5X5,               Objective::FewestWorst,  13536,  5,  Some(1215)),
    // Bulls and Cows over 1-9: the optimum on average is published (BULLS_1_TO_9).
    ours(Game::BULLS_1_TO_9,                 Objective::Worst,        14916,  6,  None),
    ours(Game::BULLS_1_TO_9,                 Objective::FewestWorst,  14936,  6,  Some(578)),
    MASTERMIND_FEWEST_WORST,
    BULLS_FEWEST_WORST,
    BULLS_5_OF_0_7,
    BULLS_5_OF_0_7_FEWEST_WORST,
    BULLS_5_OF_0_8,
    MASTERMIND_4X9,
    MASTERMIND_5X6,
    MASTERMIND_5X6_FEWEST_WORST,
    MASTERMIND_5X7,
];

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
        if let Some(n) = self.at_worst {
            let at_worst = counted
                .max()
                .checked_sub(1)
                .and_then(|i| counts.get(i))
                .copied()
                .unwrap_or(0);
            if at_worst != n {
                differ(
                    "secrets at the worst case",
                    n.to_string(),
                    at_worst.to_string(),
                );
            }
        }
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
    VILLE,
    ARFST23,
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
        for row in TABLE.iter().chain(NEW_RESULTS) {
            assert!(row.game.rules().is_ok(), "{}", row.describe());
        }
    }
}
