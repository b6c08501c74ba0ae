//! Scoring and partitioning, the inner loops of every strategy.
//!
//! `cargo bench -p moo-core --bench scoring`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use moo_core::space::SpaceOptions;
use moo_core::strategy::{PartitionScore, PartitionStrategy};
use moo_core::{CodeSet, CodeSpace, GuessPool, History, Knowledge, Rules};

fn scoring(c: &mut Criterion) {
    let mut group = c.benchmark_group("score");
    for (name, rules) in [
        ("bulls", Rules::bulls()),
        ("mastermind", Rules::mastermind()),
    ] {
        let space = CodeSpace::new(rules).unwrap();
        let codes = space.codes();
        // Every guess against 64 secrets: direct scoring, then the table.
        group.bench_function(format!("{name}/direct"), |b| {
            b.iter(|| {
                let mut sum = 0usize;
                for g in codes.iter().step_by(7) {
                    for s in &codes[..64] {
                        sum += usize::from(black_box(g).score(s).bulls);
                    }
                }
                sum
            })
        });
        group.bench_function(format!("{name}/table"), |b| {
            b.iter(|| {
                let mut sum = 0usize;
                for g in (0..space.len()).step_by(7) {
                    for s in 0..64 {
                        sum += usize::from(space.score_index(black_box(g), s));
                    }
                }
                sum
            })
        });
        // Every code against every code into one table: what Python's CodeSpace.scores()
        // returns, timed here so the binding's overhead can be measured against it.
        let all: Vec<u32> = (0..space.len() as u32).collect();
        let mut out = vec![0u8; all.len() * all.len()];
        group.bench_function(format!("{name}/every pair"), |b| {
            b.iter(|| space.score_table(black_box(&all), &all, &mut out))
        });
    }
    group.finish();
    c.bench_function("table/build bulls", |b| {
        b.iter(|| CodeSpace::new(black_box(Rules::bulls())).unwrap())
    });
}

fn partitioning(c: &mut Criterion) {
    let space = CodeSpace::new(Rules::bulls()).unwrap();
    let all = space.all();
    let mut group = c.benchmark_group("partition");
    group.bench_function("counts, one guess x 5040", |b| {
        let mut counts = [0u32; 256];
        b.iter(|| {
            space.partition_counts(black_box(1234), &all, &mut counts);
            counts[0]
        })
    });
    // The most expensive choice a heuristic makes on Bulls and Cows: after one guess, the
    // largest class (0B1C, 1440 candidates) against every guess.
    let g = 0;
    let fb = moo_core::Feedback::new(0, 1);
    let candidates = space.filter(&all, g, fb);
    let mut history = History::new();
    history.push(space.code(g), fb);
    for score in PartitionScore::ALL {
        let s = PartitionStrategy::new(score, GuessPool::All);
        let k = Knowledge {
            space: &space,
            history: &history,
            candidates: &candidates,
        };
        group.bench_function(
            format!("{} second guess, 1440 candidates", score.name()),
            |b| b.iter(|| s.best(black_box(&k))),
        );
    }
    group.finish();
}

/// The cost of one (guess, candidate) pair when a heuristic splits a position's candidates by
/// every guess: 4 digits through the table, 5 digits (30240 codes) through a 915 MB table and
/// on the fly from packed codes. The candidates are the first 1000 of the largest class the first
/// guess leaves, the guesses 1000 codes spread over the space.
fn per_pair(c: &mut Criterion) {
    let mut group = c.benchmark_group("per pair");
    let five = Rules::new(5, "0123456789", false, false).unwrap();
    let large = SpaceOptions::default().with_table_bytes(1 << 30);
    let none = SpaceOptions::default().with_table_bytes(0);
    for (name, rules, options) in [
        ("4 of 0-9, table", Rules::bulls(), SpaceOptions::default()),
        ("5 of 0-9, table", five.clone(), large),
        ("5 of 0-9, packed", five, none),
    ] {
        let space = CodeSpace::with_options(rules, &options).unwrap();
        let parts = space.partition(0, &space.all());
        let largest = parts.iter().map(|(_, set)| set).max_by_key(|set| set.len());
        let candidates: CodeSet = largest.unwrap().iter().take(1000).collect();
        let step = space.len() / 1000;
        let guesses: Vec<usize> = (0..1000).map(|i| i * step).collect();
        group.throughput(Throughput::Elements(
            (guesses.len() * candidates.len()) as u64,
        ));
        group.bench_function(name, |b| {
            let mut counts = [0u32; 256];
            b.iter(|| {
                let mut sum = 0u32;
                for &g in &guesses {
                    space.partition_counts(g, black_box(&candidates), &mut counts);
                    sum += counts[0];
                }
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, scoring, partitioning, per_pair);
criterion_main!(benches);
