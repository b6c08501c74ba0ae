//! Games, hints and the Solver through the API, in process: a game played to the win, seeds,
//! repeated guesses, the live game cap, and advice for every consistent history.

use axum::http::StatusCode;
use axum::Router;
use moo_core::Rules;
use serde_json::{json, Value};

mod common;
use common::{assert_error, call, call_with, ok, post};

#[tokio::test]
async fn a_game_is_played_to_the_win_through_the_api() {
    let app = moo_web::router(moo_web::Config::default());
    let (game, id) = new_game(&app, r#"{"preset":"mastermind","seed":5}"#).await;
    assert_eq!(game["space_size"], "1296");
    assert!(game["secret"].is_null(), "the secret must stay hidden");
    // Follow the hints: each suggests a code still possible, so the game must end in a win.
    for _ in 0..12 {
        let (guess, state) = play_the_hint(&app, &id).await;
        if state["won"] == true {
            assert_eq!(state["secret"], guess);
            let again = post(
                &app,
                &format!("/api/games/{id}/guesses"),
                r#"{"guess":"1111"}"#,
            )
            .await;
            assert_error(again, StatusCode::CONFLICT, "over");
            return;
        }
    }
    panic!("twelve hinted guesses did not win a Mastermind game");
}

#[tokio::test]
async fn the_same_seed_draws_the_same_secret() {
    let app = moo_web::router(moo_web::Config::default());
    let mut secrets = Vec::new();
    for _ in 0..2 {
        let (_, id) = new_game(&app, r#"{"seed":42}"#).await;
        let g = give_up(&app, &id).await;
        secrets.push(g["secret"].as_str().unwrap().to_string());
    }
    assert_eq!(secrets[0], secrets[1]);
    Rules::bulls().parse_code(&secrets[0]).unwrap();
}

/// A repeated guess is refused with the earlier answer, and costs no turn.
#[tokio::test]
async fn a_repeated_guess_is_explained_and_not_counted() {
    let app = moo_web::router(moo_web::Config::default());
    let (_, g) = post(&app, "/api/games", r#"{"seed":3}"#).await;
    let uri = format!("/api/games/{}/guesses", g["id"].as_str().unwrap());
    let (status, _) = post(&app, &uri, r#"{"guess":"0123"}"#).await;
    assert_eq!(status, StatusCode::OK);
    let again = post(&app, &uri, r#"{"guess":"0123"}"#).await;
    assert_error(
        again,
        StatusCode::UNPROCESSABLE_ENTITY,
        "already guessed 0123 (guess 1)",
    );
    let (_, state) = call_with(app.clone(), "GET", &uri.replace("/guesses", ""), None).await;
    assert_eq!(state["turns"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn the_live_game_cap_is_enforced() {
    let mut config = moo_web::Config::default();
    config.service.max_games = 2;
    let app = moo_web::router(config);
    for _ in 0..2 {
        let (status, _) = post(&app, "/api/games", "{}").await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let full = post(&app, "/api/games", "{}").await;
    assert_error(
        full,
        StatusCode::SERVICE_UNAVAILABLE,
        "limit of 2 live games",
    );
}

#[tokio::test]
async fn the_solver_offers_only_possible_answers_and_explains_contradictions() {
    let step = ok(call(
        "POST",
        "/api/solver",
        Some(r#"{"preset":"bulls","strategy":"simple","history":[{"guess":"0 1 2 3","feedback":"0 0"}]}"#),
    )
    .await);
    assert_eq!(step["remaining"], 360);
    assert_eq!(
        step["turns"],
        json!([{"guess": "0123", "feedback": "0B0C", "bulls": 0, "cows": 0}]),
        "the history comes back in one form"
    );
    assert_eq!(step["advice"]["method"], "named");
    let answers = step["answers"].as_array().unwrap();
    let offered: usize = answers
        .iter()
        .map(|f| f["remaining"].as_u64().unwrap() as usize)
        .sum();
    assert_eq!(offered, 360, "the answers partition the candidates");
    assert_eq!(
        answers.len(),
        14,
        "every answer of a 4-symbol code, possible or not"
    );
    assert!(
        answers
            .iter()
            .any(|a| a["feedback"] == "0B0C" && a["remaining"] == 0),
        "{step}"
    );
    // A contradiction is an answer too (200), with the repairs the page offers.
    let bad = ok(call(
        "POST",
        "/api/solver",
        Some(r#"{"preset":"bulls","history":[{"guess":"0123","feedback":"0B0C"},{"guess":"4567","feedback":"0B0C"}]}"#),
    )
    .await);
    assert_eq!(bad["remaining"], 0);
    assert!(bad["advice"].is_null(), "{bad}");
    let turns: Vec<u64> = bad["contradiction"]["repairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["turn"].as_u64().unwrap())
        .collect();
    assert_eq!(turns, [1, 2]);
}

#[tokio::test]
async fn a_consistent_history_always_gets_advice_and_never_a_422() {
    // The README's history, off the shipped tree.
    let step = ok(call(
        "POST",
        "/api/solver",
        Some(r#"{"preset":"bulls","history":[{"guess":"0123","feedback":"1B2C"},{"guess":"4567","feedback":"0B1C"}]}"#),
    )
    .await);
    let advice = &step["advice"];
    assert!(advice["guess"].is_string(), "{step}");
    assert_eq!(advice["remaining"], step["remaining"]);
    assert!(step["contradiction"].is_null());
    // Mastermind after the classic opening 1122.
    let step = ok(call(
        "POST",
        "/api/solver",
        Some(r#"{"preset":"mastermind","history":[{"guess":"1122","feedback":"1B0C"}]}"#),
    )
    .await);
    assert!(step["advice"]["guess"].is_string(), "{step}");
}

#[tokio::test]
async fn a_given_up_game_gets_no_hint() {
    let app = moo_web::router(moo_web::Config::default());
    let (_, id) = new_game(&app, "{}").await;
    let g = give_up(&app, &id).await;
    assert_eq!(g["gave_up"], true);
    assert_error(
        call_with(app, "GET", &format!("/api/games/{id}/hint"), None).await,
        StatusCode::CONFLICT,
        "given up",
    );
}

/// Seeds travel as strings, so every `u64` seed survives JavaScript (a number
/// above 2^53 would lose digits); the same seed as a string or a number draws the same secret
/// as `moo play --seed`, and a seed that is no whole number is refused, never replaced by a
/// random one (a shared link must replay the shared game or say it cannot).
#[tokio::test]
async fn seeds_travel_as_strings_and_a_bad_seed_is_refused() {
    let app = moo_web::router(moo_web::Config::default());
    let secret_of = |body: &'static str| {
        let app = app.clone();
        async move {
            let (status, g) = post(&app, "/api/games", body).await;
            assert_eq!(status, StatusCode::CREATED, "{body}: {g}");
            let uri = format!("/api/games/{}/give-up", g["id"].as_str().unwrap());
            let (_, g) = call_with(app, "POST", &uri, None).await;
            g["secret"].as_str().unwrap().to_string()
        }
    };
    assert_eq!(
        secret_of(r#"{"seed":"42"}"#).await,
        secret_of(r#"{"seed":42}"#).await
    );
    let big = u64::MAX - 2;
    let cli = Rules::bulls().format_code(
        &Rules::bulls()
            .random_code(&mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(big)),
    );
    assert_eq!(secret_of(r#"{"seed":"18446744073709551613"}"#).await, cli);
    for bad in [
        r#"{"seed":"abc"}"#,
        r#"{"seed":"-1"}"#,
        r#"{"seed":"18446744073709551616"}"#,
    ] {
        let answer = post(&app, "/api/games", bad).await;
        assert_error(
            answer,
            StatusCode::UNPROCESSABLE_ENTITY,
            "is not a whole number",
        );
    }
}

/// Against the adversary on Mastermind 4x6, the hints (the optimal tree's guesses) take 5 or
/// more: its optimal worst case; the game states its answers were proven, and shows at the end
/// a code that fits every answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_adversary_keeps_the_hints_to_the_worst_case() {
    let app = moo_web::router(moo_web::Config::default());
    let (game, id) = new_game(&app, r#"{"preset":"mastermind","adversary":true}"#).await;
    assert_eq!(game["adversary"], true);
    assert!(
        game["challenge"].is_null(),
        "the challenge is set on Bulls and Cows"
    );
    for turn in 1..=12 {
        let (guess, state) = play_the_hint(&app, &id).await;
        if state["won"] == true {
            assert_eq!(state["heuristic_turns"], json!([]), "{state}");
            assert!(turn >= 5, "won in {turn} against the adversary");
            assert_eq!(state["secret"], guess);
            return;
        }
    }
    panic!("twelve hinted guesses did not win");
}

#[tokio::test]
async fn the_adversary_states_the_challenge_on_bulls_and_cows() {
    let app = moo_web::router(moo_web::Config::default());
    let (game, id) = new_game(&app, r#"{"adversary":true}"#).await;
    let challenge = game["challenge"].as_str().unwrap();
    assert!(challenge.contains("win Bulls and Cows in 7"), "{challenge}");
    let (_, state) = post(
        &app,
        &format!("/api/games/{id}/guesses"),
        r#"{"guess":"9876"}"#,
    )
    .await;
    assert_eq!(state["turns"][0]["feedback"], "0B1C", "{state}");
    let over = give_up(&app, &id).await;
    let secret = Rules::bulls()
        .parse_code(over["secret"].as_str().unwrap())
        .unwrap();
    let guess = Rules::bulls().parse_code("9876").unwrap();
    assert_eq!(guess.score(&secret).to_string(), "0B1C");
}

/// Plays the game's hint, a code still possible, as its next guess: the guess and the game after
/// it. Following the hints must end a game in a win.
async fn play_the_hint(app: &Router, id: &str) -> (String, Value) {
    let (_, hint) = call_with(app.clone(), "GET", &format!("/api/games/{id}/hint"), None).await;
    let guess = hint["advice"]["guess"].as_str().unwrap().to_string();
    let state = ok(call_with(
        app.clone(),
        "POST",
        &format!("/api/games/{id}/guesses"),
        Some(&json!({ "guess": guess }).to_string()),
    )
    .await);
    (guess, state)
}

/// Starts a game with `body`, which must succeed: the game and its id.
async fn new_game(app: &Router, body: &str) -> (Value, String) {
    let (status, game) = post(app, "/api/games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{body}: {game}");
    let id = game["id"].as_str().unwrap().to_string();
    (game, id)
}

/// Gives the game up: the game, its secret shown.
async fn give_up(app: &Router, id: &str) -> Value {
    let game = ok(call_with(
        app.clone(),
        "POST",
        &format!("/api/games/{id}/give-up"),
        None,
    )
    .await);
    game
}
