//! Scoring and partitioning, the inner loops of every strategy.
//!
//! `cargo bench -p moo-core --bench scoring`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use moo_core::strategy::{PartitionScore, PartitionStrategy};
use moo_core::{CodeSpace, GuessPool, History, Knowledge, Rules};

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

criterion_group!(benches, scoring, partitioning);
criterion_main!(benches);
