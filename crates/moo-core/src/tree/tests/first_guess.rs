//! The search with its root's guess forced ([`SearchOptions::first_guess`]): the best tree
//! among those opening with that guess, assembled from the same subtrees the free search writes.

use super::*;

fn games() -> Vec<Rules> {
    // First, Bulls and Cows with no leading zero, small: 300 codes.
    crate::rules::games("4 012345 no-leading, 3 012345 repeats, 3 012345 no-leading")
}

#[test]
fn forced_to_the_optimal_opening_the_search_writes_the_optimal_tree() {
    for rules in games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let (free, _) = found(&space, &SearchOptions::default());
        let opening = free.node(free.root_id()).guess;
        let options = SearchOptions::default().with_first_guess(Some(opening));
        let (forced, _) = found(&space, &options);
        assert_eq!(
            forced.to_json(false),
            free.to_json(false),
            "{}",
            rules.describe()
        );
    }
}

#[test]
fn a_forced_opening_costs_its_parts_optima_and_never_less_than_the_optimum() {
    for rules in games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let (_, optimum) = found(&space, &SearchOptions::default());
        let n = space.len();
        let mut dearer = 0;
        for index in [0, n / 5, n / 3, n / 2, n - 1] {
            let opening = space.code(index);
            let options = SearchOptions::default().with_first_guess(Some(opening));
            let (tree, stats) = found(&space, &options);
            let name = format!(
                "{} opening {}",
                rules.describe(),
                rules.format_code(&opening)
            );
            assert_eq!(tree.node(tree.root_id()).guess, opening, "{name}");
            assert!(stats.total >= optimum.total, "{name}");
            dearer += usize::from(stats.total > optimum.total);
            // Every code waits for the opening, then for its part's own optimum, which the
            // search of the position after that answer proves independently.
            let mut total = n as u64;
            for (feedback, part) in space.partition(index, &space.all()) {
                if feedback.is_win(space.length()) {
                    continue;
                }
                let mut history = History::new();
                history.push(opening, feedback);
                let plan = Search::after(&space, &history, &part).run().unwrap();
                total += plan.found().unwrap().total;
            }
            assert_eq!(stats.total, total, "{name}");
        }
        assert!(
            dearer > 0,
            "{}: some opening must cost more",
            rules.describe()
        );
    }
}

#[test]
fn a_first_guess_that_breaks_the_rules_is_refused_with_the_reason() {
    let rules = Rules::new(3, "0123", false, true).unwrap();
    let space = CodeSpace::new(rules).unwrap();
    for (symbols, reason) in [
        (&[0u8, 1, 2][..], "lead"),
        (&[1, 1, 2][..], "repeats"),
        (&[1, 2][..], "codes have 3"),
    ] {
        let options = SearchOptions::default().with_first_guess(Some(Code::from_symbols(symbols)));
        let err = Search::whole(&space).options(&options).run().unwrap_err();
        assert!(matches!(err, SearchError::FirstGuess { .. }), "{err}");
        let message = err.to_string();
        assert!(
            message.starts_with("the first guess cannot be played") && message.contains(reason),
            "{message}"
        );
    }
    // Only codes still possible, and this one is not.
    let mut history = History::new();
    let guess = space.rules().parse_code("123").unwrap();
    history.push(guess, Feedback::new(2, 0));
    let left = history.candidates(&space);
    let options = SearchOptions::default()
        .with_guesses(GuessPool::Consistent)
        .with_first_guess(Some(space.rules().parse_code("231").unwrap()));
    let err = Search::after(&space, &history, &left)
        .options(&options)
        .run()
        .unwrap_err();
    assert!(err.to_string().contains("still possible"), "{err}");
}
