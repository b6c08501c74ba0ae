//! What the results prove a position below a part costs, or one guess at it: its value once
//! every job it needs is in, a lower bound while some are not; and the guesses tried at a
//! position, whose least bound is the position's.

use crate::tree::DecisionTree;

/// What a position (or one guess at it) was proven to cost.
#[derive(Debug, Clone)]
pub(super) enum Value {
    /// Its first optimal subtree.
    Tree {
        /// Guesses summed over its secrets, counting from its root.
        total: u64,
        /// `histogram[k - 1]` secrets need `k` guesses from its root.
        histogram: Vec<u64>,
        /// The subtree.
        tree: DecisionTree,
        /// A job whose result it comes from, to name in errors.
        index: usize,
    },
    /// No subtree below its bound: every one costs at least this.
    AtLeast(u64),
}

impl Value {
    pub(super) fn total(&self) -> Option<u64> {
        match self {
            Value::Tree { total, .. } => Some(*total),
            Value::AtLeast(_) => None,
        }
    }

    /// What it proves the position (or guess) costs at least.
    fn proven(&self) -> u64 {
        match self {
            Value::Tree { total, .. } => *total,
            Value::AtLeast(b) => *b,
        }
    }
}

/// What the results so far give a position (or one guess at it).
#[derive(Debug, Clone)]
pub(super) enum Derived {
    /// Its value.
    Value(Value),
    /// Not known while some of its jobs have no result (those are added to
    /// [`Deeper::wanted`](super::deeper::Deeper::wanted)); what the results in prove it costs
    /// at least meanwhile.
    Waiting {
        /// Its total is at least this.
        lower: u64,
        /// At a part, the cheapest subtree its results have found so far, a guess whose every
        /// piece is solved (a strategy for it, not yet proven optimal); `None` below a part.
        best: Option<Box<Value>>,
        /// At a part, [`Trials::open`]; empty below a part.
        open: Vec<(u32, u64)>,
    },
}

impl Derived {
    /// Waiting, proven to cost at least `lower`.
    pub(super) fn waiting(lower: u64) -> Derived {
        Derived::Waiting {
            lower,
            best: None,
            open: Vec::new(),
        }
    }
}

/// The guesses tried at a position so far: their values, and what each guess the search tries
/// there is proven to cost at least, so that the position costs at least the least of those,
/// whatever is still waiting.
pub(super) struct Trials {
    /// Per guess, in the search's order: its one-guess lower bound, raised by its results.
    pub(super) floor: Vec<u64>,
    /// The values known, in the order tried.
    pub(super) values: Vec<Value>,
    /// Whether some guess tried is still waiting for results.
    pub(super) pending: bool,
}

impl Trials {
    pub(super) fn new(guesses: &[(u32, u64)]) -> Trials {
        Trials {
            floor: guesses.iter().map(|&(_, lower)| lower).collect(),
            values: Vec::new(),
            pending: false,
        }
    }

    /// Records what the results give the guesses `at` (in the search's order) together: one
    /// guess, or a run of them, whose tree is its cheapest guess's, so that what it proves holds
    /// for each.
    pub(super) fn record(&mut self, at: &[usize], derived: Derived) {
        let proven = match derived {
            Derived::Value(v) => {
                let proven = v.proven();
                self.values.push(v);
                proven
            }
            Derived::Waiting { lower, .. } => {
                self.pending = true;
                lower
            }
        };
        for &i in at {
            self.floor[i] = self.floor[i].max(proven);
        }
    }

    /// What the position is proven to cost at least so far, with, at a part (`part`: its
    /// guesses in the search's order), the cheapest subtree found so far and the guesses that
    /// may still beat it.
    pub(super) fn waiting(&self, part: Option<&[(u32, u64)]>) -> Derived {
        let best = part.and_then(|_| self.cheapest_at(u64::MAX));
        let best_total = best.and_then(|i| self.values[i].total());
        Derived::Waiting {
            lower: self.floor.iter().copied().min().unwrap_or(u64::MAX),
            best: best.map(|i| Box::new(self.values[i].clone())),
            open: part.map_or_else(Vec::new, |guesses| self.open(guesses, best_total)),
        }
    }

    /// The guesses (of `guesses`, the position's in the search's order) that may still cost
    /// less than `best`, the cheapest value found so far (every guess before one is found), each
    /// with what it is proven to cost at least: the least first, in the search's order among
    /// equals. What is left to search at the position.
    fn open(&self, guesses: &[(u32, u64)], best: Option<u64>) -> Vec<(u32, u64)> {
        let mut open: Vec<(u32, u64)> = guesses
            .iter()
            .zip(&self.floor)
            .filter(|&(_, &floor)| best.is_none_or(|b| floor < b))
            .map(|(&(g, _), &floor)| (g, floor))
            .collect();
        open.sort_by_key(|&(_, floor)| floor);
        open
    }

    /// The cheapest value below `limit`, the earliest in the search's order among equals.
    pub(super) fn cheapest(mut self, limit: u64) -> Option<Value> {
        let i = self.cheapest_at(limit)?;
        Some(self.values.swap_remove(i))
    }

    /// Where [`Trials::cheapest`] is among the values.
    fn cheapest_at(&self, limit: u64) -> Option<usize> {
        let mut best: Option<(usize, u64)> = None;
        for (i, v) in self.values.iter().enumerate() {
            if let Some(t) = v.total() {
                if t < limit && best.is_none_or(|(_, b)| t < b) {
                    best = Some((i, t));
                }
            }
        }
        best.map(|(i, _)| i)
    }
}

/// Guesses summed over the secrets of `histogram[k - 1]` secrets needing `k` guesses each.
pub(super) fn histogram_total(histogram: &[u64]) -> u64 {
    histogram
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as u64 + 1) * c)
        .sum()
}

/// What the pieces solved so far cost above their lower bounds, in all.
pub(super) fn spent<F>(values: &[Option<Value>], lowers: &[(F, u64)]) -> u64 {
    values
        .iter()
        .zip(lowers)
        .filter_map(|(v, (_, lower))| Some(v.as_ref()?.total()? - lower))
        .sum()
}

/// What a guess ruled out at a position of `n` secrets is proven to cost at least: each piece's
/// total, proven bound, or (not yet known) lower bound.
pub(super) fn ruled_out<F>(n: u64, values: &[Option<Value>], lowers: &[(F, u64)]) -> u64 {
    n + values
        .iter()
        .zip(lowers)
        .map(|(v, (_, lower))| match v {
            Some(Value::Tree { total, .. }) => *total,
            Some(Value::AtLeast(b)) => *b,
            None => *lower,
        })
        .sum::<u64>()
}
