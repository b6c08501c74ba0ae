//! The estimate's unit tests: the fits, the spreads and the parts' scaling.

use std::cell::Cell;

use super::*;
use crate::rules::Rules;
use crate::tree::SearchOptions;

/// 3 of 0-9 split as `moo tree split` splits it by default: four parts deeper.
fn split() -> Split {
    let space = CodeSpace::new(Rules::new(3, "0123456789", false, false).unwrap()).unwrap();
    let options = SearchOptions::new(crate::tree::Objective::Average);
    Split::plan(&space, &options, &super::super::SplitOptions::default())
        .unwrap()
        .0
}

#[test]
fn a_driven_part_counts_every_job_it_derives_and_times_each_once() {
    let split = split();
    assert!(split.deeper.len() >= 2, "{:?}", split.deeper);
    let sizes: Vec<usize> = split.deeper.iter().map(|d| d.size).collect();
    let picked = split.drive_sample();
    let (largest, smallest) = (sizes.iter().max(), sizes.iter().min());
    assert_eq!(Some(&sizes[picked[0]]), largest);
    assert_eq!(Some(&sizes[picked[1]]), smallest);
    // A clock that ticks once a reading: every job measures one second, and a run's search
    // none beyond its position's setup.
    let ticks = Cell::new(0.0);
    let clock = || {
        ticks.set(ticks.get() + 1.0);
        ticks.get()
    };
    let d = &split.deeper[picked[0]];
    let space = super::super::exact_space(split.rules.clone()).unwrap();
    let driven = split
        .drive(&space, picked[0], &clock, &Stop::never())
        .unwrap();
    assert_eq!(
        (driven.size, &driven.guess, &driven.feedback),
        (d.size, &d.guess, &d.feedback)
    );
    assert_eq!(driven.jobs, driven.pieces + driven.runs);
    assert_eq!(driven.pieces_seconds, driven.pieces as f64);
    assert_eq!(driven.runs_seconds, driven.runs as f64);
    assert!(
        driven.runs > 0 && driven.tried_guesses <= driven.later_guesses,
        "{driven:?}"
    );
    // Round 1's jobs of the part are among those it derives.
    let first = split
        .jobs
        .iter()
        .filter(|e| e.guess == d.guess && e.feedback == d.feedback)
        .count();
    assert!(first > 0 && driven.pieces >= first, "{first} {driven:?}");
    assert!(split
        .drive(&space, split.deeper.len(), &clock, &Stop::never())
        .is_err());
}

#[test]
fn deep_parts_scale_from_the_driven_ones_by_a_power_of_size() {
    let split = split();
    let picked = split.drive_sample();
    let part = |which: usize, jobs: usize, seconds: f64| {
        let d = &split.deeper[which];
        DrivenPart {
            guess: d.guess.clone(),
            feedback: d.feedback.clone(),
            size: d.size,
            jobs,
            pieces: jobs,
            pieces_seconds: seconds,
            runs: 0,
            later_guesses: 0,
            tried_guesses: 0,
            runs_seconds: 0.0,
            largest: 0.5,
            took: 1.0,
        }
    };
    let driven = vec![part(picked[0], 10, 99.0), part(picked[1], 2, 0.8)];
    let sampled = vec![
        SampledJob {
            index: 0,
            size: 1,
            cpu_seconds: 0.1,
        },
        SampledJob {
            index: 1,
            size: 10,
            cpu_seconds: 0.2,
        },
    ];
    let e = split.estimate(sampled, driven);
    assert_eq!(e.start, 0.1);
    let by_size = |size: usize| e.deep_scale * (size as f64).powf(e.deep_exponent);
    for p in &e.parts {
        let d = e.driven.iter().find(|d| d.feedback == p.feedback);
        assert_eq!(p.driven, d.is_some());
        match d {
            // Each job's start and the searches.
            Some(d) if d.jobs == 10 => assert!((p.seconds - 100.0).abs() < 1e-9),
            Some(_) => assert!((p.seconds - 1.0).abs() < 1e-9),
            None => assert!((p.seconds - by_size(p.size)).abs() < 1e-9),
        }
        assert!((p.seconds - by_size(p.size)).abs() < 1e-6 * p.seconds);
    }
    let sum: f64 = e.parts.iter().map(|p| p.seconds).sum();
    assert!((e.total - e.whole - sum).abs() < 1e-9);
    assert!((e.took - 2.3).abs() < 1e-9);
    assert!(
        e.largest >= 0.6 - 1e-9,
        "the start and the largest driven job"
    );
}

#[test]
fn a_power_law_is_recovered() {
    let points: Vec<(usize, f64)> = [10usize, 100, 1000]
        .iter()
        .map(|&size| (size, 0.001 * (size as f64).powf(1.5)))
        .collect();
    let (exponent, scale) = fit(&points);
    assert!((exponent - 1.5).abs() < 1e-9, "{exponent}");
    assert!((scale - 0.001).abs() < 1e-9, "{scale}");
    // One size, or costs that fall as sizes grow (noise): the square through them.
    for points in [&[(10, 3.0)][..], &[(5, 12.0), (20, 0.75)]] {
        let (exponent, scale) = fit(points);
        assert_eq!(exponent, 2.0);
        assert!((scale * 100.0 - 3.0).abs() < 1e-9, "{scale}");
    }
}

#[test]
fn the_spread_spans_the_powers_one_to_four_from_the_nearest_point_and_the_scatter() {
    let on = |n: usize| 0.001 * (n as f64).powf(1.5);
    let points: Vec<(usize, f64)> = [10usize, 100, 1000].iter().map(|&n| (n, on(n))).collect();
    let exact = fit(&points);
    // Above the points: from the largest, by the powers 1 and 4, no scatter.
    let (low, high) = spread(&points, exact, 5000);
    assert!((low / (on(1000) * 5.0) - 1.0).abs() < 1e-9, "{low}");
    assert!((high / (on(1000) * 625.0) - 1.0).abs() < 1e-9, "{high}");
    // Between them: from the one below; below them all: from the smallest, downwards.
    let (low, high) = spread(&points, exact, 200);
    assert!((low / (on(100) * 2.0) - 1.0).abs() < 1e-9, "{low}");
    assert!((high / (on(100) * 16.0) - 1.0).abs() < 1e-9, "{high}");
    let (low, high) = spread(&points, exact, 5);
    assert!((low / (on(10) / 16.0) - 1.0).abs() < 1e-9, "{low}");
    assert!((high / (on(10) / 2.0) - 1.0).abs() < 1e-9, "{high}");
    // A point twice off the fit widens both ends twice.
    let (low, high) = spread(&[(10, 2.0)], (1.0, 0.1), 20);
    assert!(
        (low - 2.0).abs() < 1e-9 && (high - 64.0).abs() < 1e-9,
        "{low} {high}"
    );
    assert_eq!(spread(&[], (2.0, 1.0), 20), (0.0, 0.0));
}

#[test]
fn a_stride_spreads_over_the_run() {
    let guesses: Vec<String> = (0..100).map(|g| g.to_string()).collect();
    assert_eq!(stride(&guesses, 32), ["16", "48", "80"]);
    assert_eq!(stride(&guesses[..10], 32), ["5"]);
    assert_eq!(stride(&guesses[..1], 32), ["0"]);
    assert!(stride(&[], 32).is_empty());
    assert_eq!(stride(&guesses[..3], 1), ["0", "1", "2"]);
}
