//! `moo daily`.

use serde_json::Value;

use crate::common::{json_of, moo, run, run_ok, says};

/// The secrets `moo daily --list FROM..TO --json` prints for `game`, in order.
fn listed(game: &str, range: &str) -> Vec<Value> {
    let list = json_of(moo().args(["daily", "--game", game, "--list", range, "--json"]));
    list.as_array().expect("a JSON list").clone()
}

fn secret_of(game: &str, date: &str) -> String {
    listed(game, &format!("{date}..{date}"))[0]["secret"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_won_day_ends_with_the_review_and_the_share_card() {
    let secret = secret_of("bulls", "2026-03-01");
    let wrong = if secret == "0123" { "4567" } else { "0123" };
    let input = format!("{wrong}\nhint\n{wrong}\n{secret}\n");
    let out = run_ok(&["daily", "--date", "2026-03-01"], &input);
    says(
        &out,
        &[
            "Daily puzzle #791 of 2026-03-01 (Bulls and Cows)",
            "The daily puzzle has no hints",
            &format!("not counted: you already guessed {wrong}"),
            "You got it in 2 guesses!",
            "| verdict",
        ],
    );
    let card: Vec<&str> = out
        .split("does not give the secret away):\n\n")
        .nth(1)
        .expect("a share card")
        .lines()
        .collect();
    assert_eq!(card[0], "moo daily #791 · Bulls and Cows · solved in 2");
    assert_eq!(card[1].split(' ').count(), 2, "{card:?}");
    assert!(card[2].ends_with("perfect play"), "{card:?}");
    assert!(!card.join("\n").contains(&secret), "{card:?}");
}

#[test]
fn a_day_given_up_shows_the_secret_and_the_card() {
    let secret = secret_of("mastermind", "2024-01-10");
    says(
        &run_ok(
            &["daily", "--game", "mastermind", "--date", "2024-01-10"],
            "1122\ngive up\n",
        ),
        &[
            &format!("The secret was {secret}."),
            "moo daily #10 · Mastermind · not solved after 1\n",
        ],
    );
}

/// A thousand consecutive days of each game: the list is the core's function, and no day
/// repeats the day before's secret.
#[test]
fn the_list_is_the_cores_and_no_day_repeats_the_day_before() {
    use moo_core::daily::{Date, Puzzle};
    for (game, preset) in [
        ("bulls", moo_core::Preset::Bulls),
        ("mastermind", moo_core::Preset::Mastermind),
    ] {
        let days = listed(game, "2024-01-01..2026-09-26");
        assert_eq!(days.len(), 1000);
        let first: Date = "2024-01-01".parse().unwrap();
        for (i, day) in days.iter().enumerate() {
            let puzzle = Puzzle::new(preset, Date::from_days(first.days() + i as i64)).unwrap();
            assert_eq!(day["number"], i + 1);
            assert_eq!(day["date"], puzzle.date.to_string());
            assert_eq!(
                day["secret"],
                puzzle.rules().format_code(&puzzle.secret()),
                "{game} {}",
                day["date"]
            );
        }
        for pair in days.windows(2) {
            assert_ne!(
                pair[0]["secret"], pair[1]["secret"],
                "{game} {}",
                pair[1]["date"]
            );
        }
    }
}

#[test]
fn bad_days_are_usage_errors() {
    for (args, want) in [
        (
            vec!["--date", "2026-02-30"],
            "is not a date: write it as YYYY-MM-DD",
        ),
        (vec!["--date", "9999-01-01"], "is not out yet: today is "),
        (
            vec!["--date", "2023-12-31"],
            "there was no daily puzzle on 2023-12-31",
        ),
        (
            vec!["--list", "2024-01-03..2024-01-01"],
            "the range ends (2024-01-01) before it starts",
        ),
        (
            vec!["--list", "2024-01-03"],
            "is not a range: write it as FROM..TO",
        ),
        (
            vec!["--list", "2023-12-31..2024-01-01"],
            "there was no daily puzzle on 2023-12-31",
        ),
        (vec!["--json"], "--list"),
    ] {
        let mut all = vec!["daily"];
        all.extend(args.iter());
        let (code, _, err) = run(&all, "");
        assert_eq!(code, 2, "{all:?}: {err}");
        assert!(err.contains(want), "{all:?}: {err}");
    }
}
