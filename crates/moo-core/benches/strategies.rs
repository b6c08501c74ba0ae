//! One full evaluation per strategy: every secret, exhaustively.
//!
//! `cargo bench -p moo-core --bench strategies`

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use moo_core::strategy::by_name;
use moo_core::{evaluate, CodeSpace, EvalOptions, Rules, StrategyOptions};

fn evaluations(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluate");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    for (game, rules, names) in [
        (
            "bulls",
            Rules::bulls(),
            &[
                "simple",
                "knuth",
                "expected-size",
                "entropy",
                "most-parts",
                "cows",
            ][..],
        ),
        ("mastermind", Rules::mastermind(), &["knuth", "entropy"][..]),
    ] {
        let space = CodeSpace::new(rules).unwrap();
        for name in names {
            let build = |_| by_name(name, &space, &StrategyOptions::default());
            group.bench_function(format!("{game}/{name}"), |b| {
                b.iter(|| evaluate(&space, &build, &EvalOptions::default(), &|_| {}).unwrap())
            });
        }
    }
    group.finish();
}

criterion_group!(benches, evaluations);
criterion_main!(benches);
