//! The exact search's hot kernels on Mastermind 5x6, one at a time: the OR pass that gives
//! every guess its parts floor (at every set searched and every part's lookahead) and the
//! naming of sets for the cache of classes.
//!
//! `cargo bench -p moo-core --bench search_kernels`

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use moo_core::tree::bench::Kernels;
use moo_core::{CodeSpace, Rules};
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// A set of `n` codes of `space`, the same on every run.
fn set_of(space: &CodeSpace, n: usize, seed: u64) -> Vec<u32> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let all: Vec<u32> = (0..space.len() as u32).collect();
    let mut set: Vec<u32> = all.choose_multiple(&mut rng, n).copied().collect();
    set.sort_unstable();
    set
}

/// The set a history of guesses leaves: what the search meets, which random sets are not
/// (their members share feedbacks against the guesses played, and they have fewer ties).
fn set_after(space: &CodeSpace, guesses: &[usize], secret: usize) -> Vec<u32> {
    (0..space.len() as u32)
        .filter(|&c| {
            guesses
                .iter()
                .all(|&g| space.score_index(g, c as usize) == space.score_index(g, secret))
        })
        .collect()
}

fn kernels(c: &mut Criterion) {
    let rules = Rules::new(5, "123456", true, false).expect("Mastermind 5x6");
    let space = CodeSpace::new(rules).expect("a score table");
    let kernels = Kernels::new(&space);
    let mut group = c.benchmark_group("search-kernels-5x6");
    for n in [20, 60, 150] {
        let set = set_of(&space, n, n as u64);
        group.bench_function(format!("part-scores/{n}"), |b| {
            b.iter(|| kernels.part_scores(black_box(&set)))
        });
    }
    for (name, set) in [
        ("random-40", set_of(&space, 40, 40)),
        ("random-120", set_of(&space, 120, 120)),
        ("after-2", set_after(&space, &[7, 1234], 4321)),
        ("after-2b", set_after(&space, &[7, 5000], 4321)),
        ("after-2c", set_after(&space, &[100, 2000], 4321)),
    ] {
        group.bench_function(format!("class-name/{name}-{}", set.len()), |b| {
            b.iter(|| kernels.class_name(black_box(&set)))
        });
    }
    group.finish();
}

criterion_group!(benches, kernels);
criterion_main!(benches);
