//! The published baseline: a genetic algorithm whose runs vote position by position (wisdom of
//! crowds).
//!
//! It is reproduced as described, so that its figures can be set beside the exact cracker's:
//!
//! - a population of 100; the first individuals are each one symbol repeated (one per symbol, at most
//!   half the population so that large alphabets still leave random individuals), the rest random;
//! - fitness is `bulls + cows / length` from one oracle query, cows counted with the repeat rule;
//! - selection is elitist and from the fitter half: each generation pairs parents drawn from the
//!   fitter half, the best individual being one parent in each of the first three pairs, and the best
//!   individual also passes unchanged into the next generation;
//! - one-point crossover with the cut in the middle 80% of the code, two children per pair;
//! - every 2nd generation each child has 3 random positions changed to random symbols, and every 5th
//!   generation 3 random pairs of positions swapped;
//! - at most 2000 generations, stopping early once the secret is found;
//! - 5 independent runs, whose best individuals form the crowd: the agreement matrix counts each
//!   symbol at each position, and the answer takes the majority at each position.
//!
//! Every fitness evaluation is an oracle query, so [`Crowd::queries`] is comparable with the exact
//! cracker's count.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::{LongCode, LongRules, Oracle};

/// Settings of the genetic baseline; [`Default`] is the published setup.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct GaOptions {
    /// Individuals per generation (even, at least 4).
    pub population: usize,
    /// Generations per run, at most.
    pub generations: usize,
    /// Independent runs forming the crowd.
    pub runs: usize,
    /// Seed of the first run; run `i` uses `seed + i`.
    pub seed: u64,
}

impl Default for GaOptions {
    fn default() -> GaOptions {
        GaOptions {
            population: 100,
            generations: 2000,
            runs: 5,
            seed: 0,
        }
    }
}

/// The outcome of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct GaRun {
    /// The fittest individual of the last generation.
    pub best: LongCode,
    /// Its fitness, `bulls + cows / length`.
    pub fitness: f64,
    /// Generations run (fewer than the limit when the secret was found).
    pub generations: usize,
    /// Fitness evaluations (oracle queries) made by this run.
    pub queries: u64,
}

/// How many runs put each symbol at each position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    symbols: usize,
    counts: Vec<u32>,
}

impl Agreement {
    /// The matrix of a set of codes of equal length over `symbols` symbols.
    pub fn new<'a>(
        codes: impl IntoIterator<Item = &'a LongCode>,
        length: usize,
        symbols: usize,
    ) -> Agreement {
        let mut counts = vec![0u32; length * symbols];
        for code in codes {
            for (i, &s) in code.symbols().iter().enumerate() {
                counts[i * symbols + usize::from(s)] += 1;
            }
        }
        Agreement { symbols, counts }
    }

    /// How many codes hold `symbol` at `position`.
    pub fn count(&self, position: usize, symbol: u16) -> u32 {
        self.counts[position * self.symbols + usize::from(symbol)]
    }

    /// The majority symbol at each position; a tie goes to the symbol of the earliest code in
    /// `preference` (pass the runs' best codes, fittest first) holding one of the tied symbols.
    pub fn majority(&self, preference: &[&LongCode]) -> LongCode {
        let length = self.counts.len() / self.symbols;
        let mut out = Vec::with_capacity(length);
        for pos in 0..length {
            let row = &self.counts[pos * self.symbols..(pos + 1) * self.symbols];
            let top = row.iter().copied().max().unwrap_or(0);
            let preferred = preference
                .iter()
                .map(|c| c.symbols()[pos])
                .find(|&s| row[usize::from(s)] == top);
            let first_top = row.iter().position(|&c| c == top).unwrap_or(0) as u16;
            out.push(preferred.unwrap_or(first_top));
        }
        LongCode(out)
    }
}

/// The crowd of runs and its vote.
#[derive(Clone, Debug, PartialEq)]
pub struct Crowd {
    /// Each run, in seed order.
    pub runs: Vec<GaRun>,
    /// Symbol counts per position over the runs' best individuals.
    pub agreement: Agreement,
    /// The per-position majority.
    pub answer: LongCode,
    /// The answer's fitness (one more query).
    pub fitness: f64,
    /// All queries: every run's evaluations plus the one scoring the answer.
    pub queries: u64,
}

/// Runs the genetic algorithm once against `oracle`.
pub fn run(rules: &LongRules, oracle: &mut Oracle, options: &GaOptions, seed: u64) -> GaRun {
    let n = rules.length();
    let k = rules.alphabet().len();
    let size = options.population.max(4) & !1;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let start = oracle.queries();
    let evaluate = |oracle: &mut Oracle, code: &[u16]| oracle.ask(code).fitness(n);

    let mut pop = first_generation(n, k, size, &mut rng);
    let mut fit: Vec<f64> = pop.iter().map(|c| evaluate(oracle, c)).collect();
    let mut next: Vec<Vec<u16>> = pop.clone();
    let mut next_fit = fit.clone();
    let mut order: Vec<usize> = (0..size).collect();
    let (cut_lo, cut_hi) = (n.div_ceil(10), n * 9 / 10);
    let mut generations = 0;

    for generation in 1..=options.generations {
        order.sort_by(|&a, &b| fit[b].total_cmp(&fit[a]));
        let best = order[0];
        if fit[best] >= n as f64 {
            break;
        }
        generations = generation;
        crossover(&pop, &order, &mut next, (cut_lo, cut_hi), &mut rng);
        for child in next.iter_mut() {
            mutate(child, generation, k, &mut rng);
        }
        // Elitism: the best individual survives as the last child, already scored.
        next[size - 1].copy_from_slice(&pop[best]);
        next_fit[size - 1] = fit[best];
        for i in 0..size - 1 {
            next_fit[i] = evaluate(oracle, &next[i]);
        }
        std::mem::swap(&mut pop, &mut next);
        std::mem::swap(&mut fit, &mut next_fit);
    }
    let best = (0..size)
        .max_by(|&a, &b| fit[a].total_cmp(&fit[b]))
        .unwrap_or(0);
    GaRun {
        best: LongCode(pop[best].clone()),
        fitness: fit[best],
        generations,
        queries: oracle.queries() - start,
    }
}

/// The first generation: one individual per symbol repeated (at most half the population), the
/// rest random.
fn first_generation(n: usize, k: usize, size: usize, rng: &mut ChaCha8Rng) -> Vec<Vec<u16>> {
    (0..size)
        .map(|i| {
            if i < k.min(size / 2) {
                vec![i as u16; n]
            } else {
                (0..n).map(|_| rng.gen_range(0..k) as u16).collect()
            }
        })
        .collect()
}

/// Fills `next` with the children of parents from the fitter half of `pop` (`order` ranks it,
/// best first): one-point crossover with the cut in `cuts`, two children per pair, the best
/// individual a parent of the first three pairs.
fn crossover(
    pop: &[Vec<u16>],
    order: &[usize],
    next: &mut [Vec<u16>],
    (cut_lo, cut_hi): (usize, usize),
    rng: &mut ChaCha8Rng,
) {
    let n = pop[0].len();
    let best = order[0];
    let fitter = &order[..pop.len() / 2];
    for pair in 0..pop.len() / 2 {
        let mother = if pair < 3 {
            best
        } else {
            fitter[rng.gen_range(0..fitter.len())]
        };
        let father = fitter[rng.gen_range(0..fitter.len())];
        let cut = if cut_lo < cut_hi {
            rng.gen_range(cut_lo..=cut_hi)
        } else {
            n / 2
        };
        let (a, b) = next.split_at_mut(2 * pair + 1);
        let (c1, c2) = (&mut a[2 * pair], &mut b[0]);
        c1[..cut].copy_from_slice(&pop[mother][..cut]);
        c1[cut..].copy_from_slice(&pop[father][cut..]);
        c2[..cut].copy_from_slice(&pop[father][..cut]);
        c2[cut..].copy_from_slice(&pop[mother][cut..]);
    }
}

/// The published mutations: every 2nd generation 3 random positions get random symbols, every
/// 5th 3 random pairs of positions are swapped.
fn mutate(child: &mut [u16], generation: usize, k: usize, rng: &mut ChaCha8Rng) {
    let n = child.len();
    if generation.is_multiple_of(2) {
        for _ in 0..3 {
            child[rng.gen_range(0..n)] = rng.gen_range(0..k) as u16;
        }
    }
    if generation.is_multiple_of(5) {
        for _ in 0..3 {
            child.swap(rng.gen_range(0..n), rng.gen_range(0..n));
        }
    }
}

/// Runs the crowd: `options.runs` runs, their agreement matrix, and the majority answer.
pub fn crowd(rules: &LongRules, oracle: &mut Oracle, options: &GaOptions) -> Crowd {
    let start = oracle.queries();
    let runs: Vec<GaRun> = (0..options.runs.max(1) as u64)
        .map(|i| run(rules, oracle, options, options.seed.wrapping_add(i)))
        .collect();
    let n = rules.length();
    let agreement = Agreement::new(runs.iter().map(|r| &r.best), n, rules.alphabet().len());
    let mut fittest: Vec<&GaRun> = runs.iter().collect();
    fittest.sort_by(|a, b| b.fitness.total_cmp(&a.fitness));
    let preference: Vec<&LongCode> = fittest.iter().map(|r| &r.best).collect();
    let answer = agreement.majority(&preference);
    let fitness = oracle.ask(answer.symbols()).fitness(n);
    Crowd {
        queries: oracle.queries() - start,
        runs,
        agreement,
        answer,
        fitness,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Alphabet;

    #[test]
    fn majority_breaks_ties_towards_the_fittest_run() {
        let a = LongCode(vec![0, 1]);
        let b = LongCode(vec![1, 1]);
        let m = Agreement::new([&a, &b], 2, 2);
        assert_eq!(m.count(1, 1), 2);
        assert_eq!(m.majority(&[&b, &a]), LongCode(vec![1, 1]));
        assert_eq!(m.majority(&[&a, &b]), LongCode(vec![0, 1]));
    }

    #[test]
    fn short_secrets_are_found_and_every_evaluation_counts() {
        let rules = LongRules::new(10, Alphabet::text(), true).unwrap();
        let secret = rules.parse_code("call me is").unwrap();
        let mut oracle = Oracle::new(&secret, rules.alphabet().len());
        let options = GaOptions {
            generations: 300,
            runs: 2,
            ..GaOptions::default()
        };
        let crowd = crowd(&rules, &mut oracle, &options);
        assert_eq!(crowd.queries, oracle.queries());
        let per_run: u64 = crowd.runs.iter().map(|r| r.queries).sum();
        assert_eq!(crowd.queries, per_run + 1);
        for r in &crowd.runs {
            assert_eq!(r.queries, 100 + 99 * r.generations as u64);
        }
        assert!(crowd.fitness > 5.0, "fitness {}", crowd.fitness);
    }
}
