//! How far a split's run has got, while a round is still running: the parts settled, what the
//! results in prove of the others from below, and the best strategy they have found so far.

use super::shared::{solved_total, Derivation};
use super::{DeepPart, JobResult, PartOutcome, SettledPart, Split, SplitError, Standing, Task};
use crate::space::CodeSpace;
use crate::tree::{DecisionTree, Objective, TreeStats};

impl Split {
    /// How far the results in have got, while a round is still running: the rounds derived
    /// as [`Split::join`] derives them, the last of them with only some of its results in
    /// (each result in is checked as the join checks it, and none need be missing).
    pub fn standing(&self, results: &[Option<JobResult>]) -> Result<Standing, SplitError> {
        let space = super::exact_space(self.rules.clone())?;
        let derived = self.rounds(&space, results, true)?.derived;
        Ok(self.standing_of(&space, results, derived))
    }

    /// [`Split::standing`], and the best strategy for the whole game the results in have
    /// found so far, replayed over every secret: each part's optimum where it is settled, else
    /// the cheapest subtree found for it (a second guess whose every piece is solved); the first
    /// guess whose parts add up to the least. `None` while some part of every first guess has
    /// none, and for the worst-case objectives. Its total is [`Standing::upper`].
    #[allow(clippy::type_complexity)]
    pub fn standing_with_strategy(
        &self,
        results: &[Option<JobResult>],
    ) -> Result<(Standing, Option<(DecisionTree, TreeStats)>), SplitError> {
        let space = super::exact_space(self.rules.clone())?;
        let derived = self.rounds(&space, results, true)?.derived;
        let strategy = self.strategy_of(&space, results, &derived)?;
        Ok((self.standing_of(&space, results, derived), strategy))
    }

    /// The best strategy `derived` has found, assembled and replayed.
    fn strategy_of(
        &self,
        space: &CodeSpace,
        results: &[Option<JobResult>],
        derived: &Derivation,
    ) -> Result<Option<(DecisionTree, TreeStats)>, SplitError> {
        let Some((guess, total, parts)) = self.cheapest_strategy(space, results, derived) else {
            return Ok(None);
        };
        let parts: Vec<(&JobResult, &DecisionTree)> = parts
            .into_iter()
            .filter_map(|r| match &r.outcome {
                PartOutcome::Solved { tree, .. } => Some((r, tree)),
                _ => None,
            })
            .collect();
        let (tree, stats) = self.assemble(space, &guess, &parts)?;
        if stats.total != total {
            return Err(SplitError::Disagree {
                claimed: total,
                replayed: stats.total,
            });
        }
        Ok(Some((tree, stats)))
    }

    /// The standing a derivation gives: its settled parts, its open ones, the least total they
    /// leave the whole game and the best strategy's.
    pub(super) fn standing_of(
        &self,
        space: &CodeSpace,
        results: &[Option<JobResult>],
        derived: Derivation,
    ) -> Standing {
        Standing {
            lower: self.least_total(space.len() as u64, results, &derived),
            upper: self
                .cheapest_strategy(space, results, &derived)
                .map(|(_, total, _)| total),
            settled: derived.parts.iter().filter_map(settled_part).collect(),
            open: derived.open,
        }
    }

    /// The first guess of the cheapest strategy `derived` has found, its total and its parts'
    /// results, each part's optimum or best subtree so far (see [`Split::standing_with_strategy`]).
    fn cheapest_strategy<'d>(
        &self,
        space: &CodeSpace,
        results: &'d [Option<JobResult>],
        derived: &'d Derivation,
    ) -> Option<(String, u64, Vec<&'d JobResult>)> {
        if self.objective != Objective::Average || self.max_depth.is_some() {
            return None;
        }
        let mut cheapest: Option<(String, u64, Vec<&JobResult>)> = None;
        'guesses: for guess in &self.first_guesses {
            let whole = self.jobs.iter().filter(|e| e.task == Task::Part);
            let mut parts = Vec::new();
            for e in whole.filter(|e| e.guess == *guess) {
                match results.get(e.index).and_then(Option::as_ref) {
                    Some(r) => parts.push(r),
                    None => continue 'guesses,
                }
            }
            let of_guess = |r: &&JobResult| r.entry.guess == *guess;
            parts.extend(derived.parts.iter().filter(of_guess));
            let best = derived.best.iter().filter(of_guess);
            let open = derived.open.iter().filter(|o| o.part.guess == *guess);
            if best.clone().count() < open.count() {
                continue;
            }
            parts.extend(best);
            let Some(sum) = parts.iter().map(|r| solved_total(r)).sum::<Option<u64>>() else {
                continue;
            };
            let total = space.len() as u64 + sum;
            if cheapest.as_ref().is_none_or(|(_, t, _)| total < *t) {
                cheapest = Some((guess.clone(), total, parts));
            }
        }
        cheapest
    }

    /// The least total any strategy for the whole game of `secrets` can have, by what
    /// `derived` proves: for each first guess, one guess per secret and each of its parts'
    /// optimum or proven lower bound; the least of those. Only for the average objective without
    /// a depth limit, and `None` while a part solved whole in round 1 has no result.
    fn least_total(
        &self,
        secrets: u64,
        results: &[Option<JobResult>],
        derived: &Derivation,
    ) -> Option<u64> {
        if self.objective != Objective::Average || self.max_depth.is_some() {
            return None;
        }
        let mut least: Option<u64> = None;
        for guess in &self.first_guesses {
            let mut total = secrets;
            let whole = self.jobs.iter().filter(|e| e.task == Task::Part);
            for e in whole.filter(|e| e.guess == *guess) {
                total += solved_total(results.get(e.index)?.as_ref()?)?;
            }
            let settled = derived.parts.iter().filter(|r| r.entry.guess == *guess);
            total += settled.filter_map(solved_total).sum::<u64>();
            for o in derived.open.iter().filter(|o| o.part.guess == *guess) {
                total = total.saturating_add(o.lower);
            }
            least = Some(least.map_or(total, |l| l.min(total)));
        }
        least
    }
}

/// A settled part's report, from the result the join made of it.
fn settled_part(r: &JobResult) -> Option<SettledPart> {
    let PartOutcome::Solved { total, .. } = r.outcome else {
        return None;
    };
    Some(SettledPart {
        part: DeepPart {
            guess: r.entry.guess.clone(),
            feedback: r.entry.feedback.clone(),
            size: r.entry.size,
        },
        total,
    })
}
