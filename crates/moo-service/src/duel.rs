//! Duels against the computer, held in the game store: start one, read it, play a move. The
//! rules are moo-core's [`Duel`]; this layer reads requests and stores the duel between moves.

use moo_core::duel::{Duel, DuelError, DuelReport, Level, Move};
use moo_core::{Feedback, Preset};
use serde::{Deserialize, Serialize};

use crate::play::{advice_error, SeedIn};
use crate::rules::{pick_rules, RulesIn};
use crate::spaces::check_size;
use crate::{Client, Job, Service, ServiceError, Work};

/// A new duel: its rules (a preset, full rules, or neither for Bulls and Cows), the computer's
/// level, a seed that makes its secret and its guesses reproducible, and your secret if moo is
/// to answer the computer's guesses for you.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewDuel {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    seed: Option<SeedIn>,
    /// From 1 (a beginner) to 4 (perfect play); 2 unless given.
    level: Option<usize>,
    /// Your secret: moo answers the computer's guesses from it.
    secret: Option<String>,
}

/// A move in a duel, exactly one of `{"guess": "0123"}`, `{"answer": "1B2C"}`, `{"fix":
/// {"turn": 2, "answer": "0B2C"}}` and `"give_up"`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
pub enum DuelMove {
    /// A guess at the computer's secret.
    Guess(String),
    /// The answer to the computer's guess.
    Answer(String),
    /// A corrected answer to the computer's guess `turn` (from 1).
    Fix {
        /// The computer's guess, counted from 1.
        turn: usize,
        /// Its right answer.
        answer: String,
    },
    /// Gives the duel up, which shows the computer's secret.
    GiveUp,
}

/// A duel as its player may see it, with its id.
#[derive(Debug, Serialize)]
pub struct DuelOut {
    id: String,
    /// A string: big spaces overflow JavaScript's exact integers.
    space_size: String,
    #[serde(flatten)]
    duel: DuelReport,
}

impl DuelOut {
    fn new(id: &str, duel: &Duel) -> DuelOut {
        DuelOut {
            id: id.to_string(),
            space_size: duel.rules().space_size().to_string(),
            duel: duel.report(),
        }
    }
}

/// What the duel's size limit is for, in the words of its refusal.
const DUEL: &str = "a duel";

/// A refused move, said for the web: the duel's state decides 409, a bad value 422.
fn duel_error(error: DuelError) -> ServiceError {
    match error {
        DuelError::Over => ServiceError::conflict(error.to_string()),
        DuelError::Advice(e) => advice_error(e),
        e => ServiceError::invalid(e.to_string()),
    }
}

impl Service {
    /// Starts a duel for `client`.
    pub fn new_duel(&self, body: NewDuel, client: Client) -> Result<DuelOut, ServiceError> {
        let rules = pick_rules(body.preset, body.rules)?;
        check_size(&rules, self.limits.solver_max_codes, DUEL)?;
        let level = Level::from_number(body.level.unwrap_or(2)).map_err(duel_error)?;
        let yours = body
            .secret
            .map(|s| {
                rules
                    .parse_code(&s)
                    .map_err(|e| ServiceError::invalid(format!("your secret: {e}")))
            })
            .transpose()?;
        let seed = match body.seed {
            Some(seed) => seed.value()?,
            None => rand::random(),
        };
        let duel = Duel::new(&rules, level, seed, yours).map_err(duel_error)?;
        let (id, _) = self.games.create(rules, Some(seed), client)?;
        self.games.with(&id, |g| {
            g.duel = Some(Box::new(duel));
            Ok(())
        })?;
        self.duel(&id)
    }

    /// The duel `id` as its player may see it.
    pub fn duel(&self, id: &str) -> Result<DuelOut, ServiceError> {
        self.games.read_duel(id, |d| Ok(DuelOut::new(id, d)))
    }

    /// Plays a move in the duel `id`: a job, since the computer's guess may take up to the
    /// advice time limit.
    pub fn duel_move(&self, id: &str, body: DuelMove) -> Result<Job<DuelOut>, ServiceError> {
        let max_turns = self.limits.max_turns;
        let duel = self.games.read_duel(id, |d| Ok(d.clone()))?;
        let rules = duel.rules().clone();
        let feedback = |text: &str| {
            Feedback::parse(text, rules.length()).map_err(|e| ServiceError::invalid(e.to_string()))
        };
        let mv = match body {
            DuelMove::Guess(text) => {
                if duel.yours().len() >= max_turns {
                    return Err(ServiceError::conflict(format!(
                        "this duel has reached the server's limit of {max_turns} turns: give up to see the secret, or start a new duel"
                    )));
                }
                Move::Guess(
                    rules
                        .parse_code(&text)
                        .map_err(|e| ServiceError::invalid(e.to_string()))?,
                )
            }
            DuelMove::Answer(text) => Move::Answer(feedback(&text)?),
            DuelMove::Fix { turn, answer } => Move::Fix {
                turn,
                feedback: feedback(&answer)?,
            },
            DuelMove::GiveUp => Move::GiveUp,
        };
        let id = id.to_string();
        Ok(Job::new(
            Work::Advice,
            self.limits.time_limit,
            rules,
            (self.limits.solver_max_codes, DUEL),
            move |service, space, stop| {
                let mut next = duel.clone();
                next.play(mv, space, &service.advisor, &stop)
                    .map_err(duel_error)?;
                service.games.with_duel(&id, |d| {
                    if d.moves() != duel.moves() {
                        return Err(ServiceError::conflict(
                            "another move was played in this duel at the same time: reload the duel",
                        ));
                    }
                    *d = next;
                    Ok(DuelOut::new(&id, d))
                })
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Limits, Service};

    /// A duel is reached only through the duel routes, and a game only through the game
    /// routes: a player cannot guess a duel's secret without the computer's turns.
    #[test]
    fn a_duel_is_no_game_and_a_game_no_duel() {
        let service = Service::new(Limits::default());
        let call = |method: &str, path: &str, body: &str| {
            service.dispatch(method, path, body, moo_core::Stop::after)
        };
        let id_of = |body: &str| {
            let value: serde_json::Value = serde_json::from_str(body).unwrap();
            value["id"].as_str().unwrap().to_string()
        };
        let duel = call("POST", "/api/duels", r#"{"seed":"5"}"#);
        assert_eq!(duel.status, 201, "{}", duel.body);
        let duel = id_of(&duel.body);
        let game = id_of(&call("POST", "/api/games", "{}").body);
        let guess = r#"{"guess":"0123"}"#;
        for (method, path, body, status) in [
            ("GET", format!("/api/games/{duel}"), "", 404),
            ("POST", format!("/api/games/{duel}/guesses"), guess, 404),
            ("GET", format!("/api/duels/{duel}"), "", 200),
            ("GET", format!("/api/duels/{game}"), "", 404),
            ("POST", format!("/api/duels/{game}/moves"), guess, 404),
        ] {
            assert_eq!(call(method, &path, body).status, status, "{method} {path}");
        }
    }
}
