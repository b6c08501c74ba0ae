//! How many games took each number of guesses: the one tally behind every figure moo reports.
//!
//! An evaluation counts games in parallel and merges the counts, `moo bench` merges the runs of a
//! random strategy, and a tree's statistics come from the depths its leaves sit at. All three are
//! the same numbers (a count per guess count, and the games given up), so they share one type
//! and the total, worst case and average are derived in one place instead of being kept in step
//! by hand. Its JSON form carries the derived figures too (games, total, average, worst case, the
//! counts, the games given up), so every report that holds one says them in the same words.

use serde::ser::{Serialize, SerializeStruct, Serializer};

/// Games counted by the number of guesses they took, plus the games given up.
///
/// The total and the worst case follow from the counts; a game given up counts in neither, nor
/// in the average.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Histogram {
    /// `counts[k - 1]`: games won with exactly `k` guesses.
    counts: Vec<u64>,
    gave_up: u64,
}

impl Histogram {
    /// An empty histogram: no game yet.
    pub fn new() -> Histogram {
        Histogram::default()
    }

    /// A histogram of won games only: `counts[k - 1]` games took `k` guesses.
    pub fn from_counts(counts: Vec<u64>) -> Histogram {
        Histogram { counts, gave_up: 0 }
    }

    /// Counts `games` more games won with `guesses` guesses.
    ///
    /// # Panics
    /// If `guesses` is 0: a game is won by a guess.
    pub fn won(&mut self, guesses: usize, games: u64) {
        assert!(guesses > 0, "a game is won by a guess");
        if self.counts.len() < guesses {
            self.counts.resize(guesses, 0);
        }
        self.counts[guesses - 1] += games;
    }

    /// Counts `games` more games given up (the guess cap was reached).
    pub fn give_up(&mut self, games: u64) {
        self.gave_up += games;
    }

    /// The counts of both histograms added up, as if one had counted every game.
    #[must_use]
    pub fn merge(mut self, other: &Histogram) -> Histogram {
        if self.counts.len() < other.counts.len() {
            self.counts.resize(other.counts.len(), 0);
        }
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.gave_up += other.gave_up;
        self
    }

    /// `counts()[k - 1]`: the games won with exactly `k` guesses. Ends at the worst case, unless
    /// trailing zeros were given to [`Histogram::from_counts`].
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The counts, by value.
    pub fn into_counts(self) -> Vec<u64> {
        self.counts
    }

    /// The games won.
    pub fn solved(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The games given up.
    pub fn gave_up(&self) -> u64 {
        self.gave_up
    }

    /// Every game counted, won or given up.
    pub fn games(&self) -> u64 {
        self.solved() + self.gave_up
    }

    /// The guesses of every won game, summed (the winning guess counts).
    pub fn total(&self) -> u64 {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (i as u64 + 1) * c)
            .sum()
    }

    /// The most guesses a won game took; 0 when no game was won.
    pub fn max(&self) -> usize {
        self.counts
            .iter()
            .rposition(|&c| c > 0)
            .map_or(0, |i| i + 1)
    }

    /// The mean guesses of the won games; 0 when no game was won.
    pub fn average(&self) -> f64 {
        match self.solved() {
            0 => 0.0,
            n => self.total() as f64 / n as f64,
        }
    }
}

/// `{"games", "total", "average", "max", "histogram", "gave_up"}`: the figures a report shows,
/// flattened into the reports that hold a histogram.
impl Serialize for Histogram {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Histogram", 6)?;
        s.serialize_field("games", &self.games())?;
        s.serialize_field("total", &self.total())?;
        s.serialize_field("average", &self.average())?;
        s.serialize_field("max", &self.max())?;
        s.serialize_field("histogram", &self.counts)?;
        s.serialize_field("gave_up", &self.gave_up)?;
        s.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_follow_from_the_counts() {
        let mut h = Histogram::new();
        h.won(3, 2);
        h.won(1, 1);
        h.give_up(4);
        assert_eq!(h.counts(), &[1, 0, 2]);
        assert_eq!((h.solved(), h.gave_up(), h.games()), (3, 4, 7));
        assert_eq!((h.total(), h.max()), (7, 3));
        assert!((h.average() - 7.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn an_empty_histogram_has_no_worst_case_and_no_average() {
        let h = Histogram::from_counts(vec![0, 0]);
        assert_eq!((h.total(), h.max(), h.average()), (0, 0, 0.0));
        let mut gave_up = Histogram::new();
        gave_up.give_up(2);
        assert_eq!(
            (gave_up.games(), gave_up.max(), gave_up.average()),
            (2, 0, 0.0)
        );
    }

    #[test]
    fn the_json_form_gives_the_derived_figures() {
        let mut h = Histogram::from_counts(vec![1, 2]);
        h.give_up(1);
        assert_eq!(
            serde_json::to_string(&h).unwrap(),
            r#"{"games":4,"total":5,"average":1.6666666666666667,"max":2,"histogram":[1,2],"gave_up":1}"#
        );
    }

    #[test]
    fn merging_counts_every_game_of_both() {
        let mut a = Histogram::from_counts(vec![1, 6, 62]);
        a.give_up(1);
        let mut b = Histogram::from_counts(vec![0, 0, 0, 533, 694]);
        b.give_up(2);
        let merged = a.clone().merge(&b);
        assert_eq!(merged.counts(), &[1, 6, 62, 533, 694]);
        assert_eq!(merged.gave_up(), 3);
        assert_eq!(merged.total(), a.total() + b.total());
        assert_eq!(merged.max(), 5);
        // Merging is symmetric, and the empty histogram changes nothing.
        assert_eq!(b.clone().merge(&a), merged);
        assert_eq!(merged.clone().merge(&Histogram::new()), merged);
    }
}
