//! The exact optimal-tree search, end to end (search, tree building and the replay check).
//!
//! Bulls and Cows 4x10 is too long a search to repeat for criterion's ten samples at least; its
//! time is measured by `moo tree build`, which prints it (see the book's
//! `docs/src/performance.md`). Bulls and Cows over 1-9 (3024 codes) stands in for it here.

use criterion::{criterion_group, criterion_main, Criterion};
use moo_core::published::{self, Method};
use moo_core::tree::{Search, SearchOptions, SearchOutcome};
use moo_core::{CodeSpace, Objective, Rules};

fn total(space: &CodeSpace, options: &SearchOptions) -> u64 {
    let search = Search::whole(space).options(options);
    match search.run().expect("the space has a score table") {
        SearchOutcome::Found(found) => found.stats.total,
        SearchOutcome::Impossible { .. } => panic!("these games have a tree"),
    }
}

fn optimal(c: &mut Criterion) {
    let mut group = c.benchmark_group("optimal");
    group.sample_size(10);
    let published = |row: &published::Published| {
        let Method::Optimal(objective) = row.method else {
            panic!("{} is no optimum", row.describe());
        };
        (row.game.rules().expect("valid rules"), objective, row.total)
    };
    let (mm_rules, mm_objective, mm_total) = published(&published::KOYAMA_LAI);
    let (mmw_rules, mmw_objective, mmw_total) = published(&published::KNUTH_WORST);
    let (b19_rules, b19_objective, b19_total) = published(&published::BULLS_1_TO_9);
    let cases = [
        ("mastermind-4x6-average", mm_rules, mm_objective, mm_total),
        ("mastermind-4x6-worst", mmw_rules, mmw_objective, mmw_total),
        (
            "bulls-3x10-average",
            Rules::new(3, "0123456789", false, false).expect("valid rules"),
            Objective::Average,
            3575,
        ),
        ("bulls-4x9-average", b19_rules, b19_objective, b19_total),
    ];
    for (name, rules, objective, want) in cases {
        let space = CodeSpace::new(rules).expect("small space");
        let options = SearchOptions::new(objective);
        assert_eq!(total(&space, &options), want, "{name}");
        group.bench_function(name, |b| b.iter(|| total(&space, &options)));
    }
    group.finish();
}

criterion_group!(benches, optimal);
criterion_main!(benches);
