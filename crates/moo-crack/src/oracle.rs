//! The bulls-and-cows oracle over a hidden long secret, counting every question.

use crate::LongCode;

/// The answer to a long query: symbols in place, and symbols present elsewhere.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct LongFeedback {
    /// Positions where query and secret agree.
    pub bulls: u32,
    /// Further matches when the symbols are paired regardless of position.
    pub cows: u32,
}

impl LongFeedback {
    /// The fitness the genetic baseline maximises: `bulls + cows / length`, so that a bull is worth
    /// more than any number of cows.
    pub fn fitness(self, length: usize) -> f64 {
        f64::from(self.bulls) + f64::from(self.cows) / length as f64
    }
}

/// A hidden secret that answers bulls and cows and counts the questions.
///
/// Cows follow the standard rule for repeats: a symbol scores `min(count in query, count in
/// secret)` matches in total, bulls first, the rest as cows. Crackers are given only
/// [`ask`](Oracle::ask); the harness that built the oracle keeps its own copy of the secret to check
/// the answer, so nothing here hands the secret back.
#[derive(Clone, Debug)]
pub struct Oracle {
    secret: Vec<u16>,
    secret_counts: Vec<u32>,
    scratch: Vec<u32>,
    queries: u64,
}

impl Oracle {
    /// An oracle hiding `secret`, whose symbols are below `symbols`.
    ///
    /// # Panics
    /// If a symbol of the secret is not below `symbols`.
    pub fn new(secret: &LongCode, symbols: usize) -> Oracle {
        let mut secret_counts = vec![0u32; symbols];
        for &s in secret.symbols() {
            secret_counts[usize::from(s)] += 1;
        }
        Oracle {
            secret: secret.symbols().to_vec(),
            secret_counts,
            scratch: vec![0; symbols],
            queries: 0,
        }
    }

    /// Length of the hidden secret (public knowledge in the game).
    pub fn length(&self) -> usize {
        self.secret.len()
    }

    /// Size of the alphabet (public knowledge in the game).
    pub fn symbols(&self) -> usize {
        self.secret_counts.len()
    }

    /// Scores one query and counts it.
    ///
    /// # Panics
    /// If the query's length differs from the secret's, or a symbol is outside the alphabet.
    pub fn ask(&mut self, query: &[u16]) -> LongFeedback {
        assert_eq!(
            query.len(),
            self.secret.len(),
            "a query must be as long as the secret"
        );
        self.queries += 1;
        let mut bulls = 0u32;
        for (&q, &s) in query.iter().zip(&self.secret) {
            bulls += u32::from(q == s);
            self.scratch[usize::from(q)] += 1;
        }
        let mut matches = 0u32;
        for &q in query {
            let slot = &mut self.scratch[usize::from(q)];
            if *slot != 0 {
                matches += (*slot).min(self.secret_counts[usize::from(q)]);
                *slot = 0;
            }
        }
        LongFeedback {
            bulls,
            cows: matches - bulls,
        }
    }

    /// Questions asked so far.
    pub fn queries(&self) -> u64 {
        self.queries
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeats_pair_each_symbol_at_most_min_count() {
        // secret aabc, query abaa: bulls a@0; a matches min(3,2)=2, b min(1,1)=1 -> 3 matches.
        let mut o = Oracle::new(&LongCode(vec![0, 0, 1, 2]), 3);
        assert_eq!(o.ask(&[0, 1, 0, 0]), LongFeedback { bulls: 1, cows: 2 });
        assert_eq!(o.ask(&[0, 0, 1, 2]), LongFeedback { bulls: 4, cows: 0 });
        assert_eq!(o.ask(&[2, 2, 2, 2]), LongFeedback { bulls: 1, cows: 0 });
        assert_eq!(o.queries(), 3);
    }

    #[test]
    fn fitness_weights_cows_below_one_bull() {
        let f = LongFeedback { bulls: 2, cows: 3 };
        assert!((f.fitness(4) - 2.75).abs() < 1e-12);
    }
}
