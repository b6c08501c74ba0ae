//! Time of the long-code crackers: the interval (default) and earlier exact crackers on the two
//! reference games, and generations of the genetic baseline (whose cost is one oracle query per
//! individual).

use criterion::measurement::WallTime;
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkGroup, Criterion};
use moo_crack::{exact, ga, intervals, Alphabet, CrackError, LongRules, Oracle};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn exact_cracker(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    time_cracks(&mut group, reference_games("exact"), exact::crack);
    group.finish();
}

fn interval_cracker(c: &mut Criterion) {
    // A long secret, where the scoring of tests against tables near the cap dominates
    // (the goal is length 5000 in 10 s; 1000 keeps a sample within a few seconds).
    let long = (
        "intervals 1000 over 37, repeats".to_string(),
        LongRules::new(1000, Alphabet::text(), true),
    );
    let games = reference_games("intervals").into_iter().chain([long]);
    let mut group = c.benchmark_group("intervals");
    group.sample_size(10);
    time_cracks(&mut group, games, |rules, oracle| {
        intervals::crack(rules, oracle, &intervals::IntervalOptions::default())
    });
    group.finish();
}

/// The two reference games every cracker is timed on, named after `cracker`, so that each
/// cracker's figures compare with the others' row for row.
fn reference_games(cracker: &str) -> [(String, Result<LongRules, CrackError>); 2] {
    [
        (
            format!("{cracker} 300 over 37, repeats"),
            LongRules::new(300, Alphabet::text(), true),
        ),
        (
            format!("{cracker} 300 distinct over 300"),
            LongRules::new(300, Alphabet::unicode(300), false),
        ),
    ]
}

/// Times `crack` on one seeded secret of each game, each run from a fresh oracle.
fn time_cracks<R>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    games: impl IntoIterator<Item = (String, Result<LongRules, CrackError>)>,
    crack: impl Fn(&LongRules, &mut Oracle) -> R,
) {
    for (name, rules) in games {
        let rules = rules.expect("valid rules");
        let secret = rules.random_code(&mut ChaCha8Rng::seed_from_u64(1));
        group.bench_function(name, |b| {
            b.iter_batched(
                || Oracle::new(&secret, rules.alphabet().len()),
                |mut oracle| crack(&rules, &mut oracle),
                BatchSize::SmallInput,
            )
        });
    }
}

fn genetic_generations(c: &mut Criterion) {
    let rules = LongRules::new(300, Alphabet::text(), true).expect("valid rules");
    let secret = rules.random_code(&mut ChaCha8Rng::seed_from_u64(1));
    let mut options = ga::GaOptions::default();
    options.generations = 100;
    c.bench_function("ga 100 generations, length 300", |b| {
        b.iter_batched(
            || Oracle::new(&secret, rules.alphabet().len()),
            |mut oracle| ga::run(&rules, &mut oracle, &options, 7),
            BatchSize::SmallInput,
        )
    });
}

criterion_group!(
    benches,
    interval_cracker,
    exact_cracker,
    genetic_generations
);
criterion_main!(benches);
