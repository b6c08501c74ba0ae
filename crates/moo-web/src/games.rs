//! Live games: the server holds the secret, the client holds a random id.
//!
//! Ids are 128 random bits, so one client cannot guess another's game. The store is capped, and
//! games idle longer than the expiry are swept whenever a game is created, so memory stays
//! bounded without a background task.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use moo_core::{Code, History, Rules};
use rand::{Rng, SeedableRng};

use crate::error::ApiError;

/// One game in play.
#[derive(Debug, Clone)]
pub(crate) struct Game {
    pub rules: Rules,
    pub secret: Code,
    pub history: History,
    /// Set when the player gave up; the secret is then shown.
    pub gave_up: bool,
    last_used: Instant,
}

impl Game {
    pub fn is_over(&self) -> bool {
        self.gave_up || self.history.is_won(self.rules.length())
    }
}

pub(crate) struct Games {
    max: usize,
    expiry: Duration,
    games: Mutex<HashMap<String, Game>>,
}

impl Games {
    pub fn new(max: usize, expiry: Duration) -> Games {
        Games {
            max,
            expiry,
            games: Mutex::new(HashMap::new()),
        }
    }

    /// Starts a game with a uniformly drawn secret; `seed` makes the secret reproducible.
    pub fn create(&self, rules: Rules, seed: Option<u64>) -> Result<(String, Game), ApiError> {
        let secret = match seed {
            Some(seed) => random_code(&rules, &mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
            None => random_code(&rules, &mut rand::thread_rng()),
        };
        let id = format!("{:032x}", rand::thread_rng().gen::<u128>());
        let game = Game {
            rules,
            secret,
            history: History::new(),
            gave_up: false,
            last_used: Instant::now(),
        };
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        games.retain(|_, g| now.duration_since(g.last_used) < self.expiry);
        if games.len() >= self.max {
            return Err(ApiError::unavailable(format!(
                "the server already holds its limit of {} live games, each kept until it has been idle {} minutes: try again later",
                self.max,
                self.expiry.as_secs() / 60
            )));
        }
        games.insert(id.clone(), game.clone());
        Ok((id, game))
    }

    /// Runs `f` on a live game, refreshing its idle clock.
    pub fn with<T>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Game) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        match games.get_mut(id) {
            Some(game) if now.duration_since(game.last_used) < self.expiry => {
                game.last_used = now;
                f(game)
            }
            _ => Err(ApiError::not_found(format!(
                "no live game with id {id:?}: games are dropped after {} minutes idle; start a new one with POST /api/games",
                self.expiry.as_secs() / 60
            ))),
        }
    }
}

/// A code drawn uniformly from the rules' space, without enumerating it (so any rules work).
pub(crate) fn random_code(rules: &Rules, rng: &mut impl Rng) -> Code {
    let n = rules.alphabet().len();
    let first_min = usize::from(rules.no_leading());
    let mut symbols = Vec::with_capacity(rules.length());
    if rules.repeats() {
        for i in 0..rules.length() {
            let low = if i == 0 { first_min } else { 0 };
            symbols.push(rng.gen_range(low..n) as u8);
        }
    } else {
        // Partial Fisher-Yates; the first draw skips the forbidden leading symbol (index 0).
        let mut pool: Vec<u8> = (0..n as u8).collect();
        for i in 0..rules.length() {
            let low = if i == 0 { i + first_min } else { i };
            let j = rng.gen_range(low..n);
            pool.swap(i, j);
            symbols.push(pool[i]);
        }
    }
    Code::from_symbols(&symbols)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_codes_obey_the_rules_and_cover_the_space() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for rules in [
            Rules::new(3, "0123", false, true).unwrap(),
            Rules::new(2, "abc", true, true).unwrap(),
        ] {
            let mut seen = std::collections::HashSet::new();
            for _ in 0..2000 {
                let code = random_code(&rules, &mut rng);
                rules.check_code(&code).unwrap();
                seen.insert(code);
            }
            assert_eq!(seen.len() as u128, rules.space_size(), "{rules}");
        }
    }

    #[test]
    fn the_store_is_capped_and_ids_are_checked() {
        let games = Games::new(2, Duration::from_secs(60));
        let (a, _) = games.create(Rules::bulls(), Some(1)).unwrap();
        games.create(Rules::bulls(), None).unwrap();
        let full = games.create(Rules::bulls(), None).unwrap_err();
        assert_eq!(full.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
        assert!(games.with(&a, |g| Ok(g.history.len())).is_ok());
        let missing = games.with("nope", |_| Ok(())).unwrap_err();
        assert_eq!(missing.status, axum::http::StatusCode::NOT_FOUND);
    }

    #[test]
    fn idle_games_expire() {
        let games = Games::new(1, Duration::ZERO);
        let (a, _) = games.create(Rules::bulls(), None).unwrap();
        assert!(games.with(&a, |_| Ok(())).is_err());
        // The expired game no longer counts against the cap.
        assert!(games.create(Rules::bulls(), None).is_ok());
    }
}
