//! Live games: the server holds the secret, the client holds a random id.
//!
//! Ids are 128 random bits, so one client cannot guess another's game. The store is capped, and
//! games idle longer than the expiry are swept whenever a game is created, so memory stays
//! bounded without a background task.
//!
//! A full store must not lock new players out for the whole expiry (a burst of creations would
//! do that), so a new game takes the place of a finished game, or else of the game idle longest
//! once it has been idle for a short while. A game with a move in it is held far longer than one
//! nobody has played: the address of its owner cannot protect it, since on a loopback server a
//! script and the browser's player share one, so what protects a game in play is that somebody
//! played it recently. Only when no game may go is the request refused, with the time until a
//! place frees up.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use web_time::Instant;

use moo_core::{Code, CodeSet, Duel, History, Rules};
use rand::{Rng, SeedableRng};

use crate::ServiceError;

/// One game in play.
#[derive(Debug, Clone)]
pub(crate) struct Game {
    pub rules: Rules,
    pub secret: Code,
    pub history: History,
    /// Set when the player gave up; the secret is then shown.
    pub gave_up: bool,
    /// In a game against the adversary, which holds no secret: the codes that fit its answers
    /// (`secret` is then the first of them, shown at the end as a code that fits them all).
    pub adversary: Option<Adversarial>,
    /// Hard mode: every guess must be a code that could still be the secret.
    pub hard: bool,
    /// A duel, which keeps its own secrets and turns: reached only through the duel routes, and
    /// never through a game's.
    pub duel: Option<Box<Duel>>,
    /// A daily puzzle's game: its day (`secret` is the day's).
    pub daily: Option<moo_core::daily::Puzzle>,
    /// Who started it, when known: each address holds at most its share of the store.
    owner: Option<IpAddr>,
    /// When it was last played (a guess, a give-up): reading a game does not keep it alive, so
    /// a client cannot hold the store by refreshing its games.
    last_used: Instant,
}

/// What a game against the adversary keeps instead of a secret.
#[derive(Debug, Clone)]
pub(crate) struct Adversarial {
    /// The codes that fit every answer so far.
    pub candidates: CodeSet,
    /// The turns (counted from 1) whose answer the heuristic chose, the search not finishing.
    pub heuristic_turns: Vec<usize>,
}

impl Game {
    pub fn is_over(&self) -> bool {
        match &self.duel {
            Some(duel) => duel.outcome().is_some(),
            None => self.gave_up || self.history.is_won(self.rules.length()),
        }
    }

    /// Whether nobody has played it yet.
    fn is_fresh(&self) -> bool {
        match &self.duel {
            Some(duel) => duel.moves() == 0,
            None => self.history.is_empty(),
        }
    }
}

pub(crate) struct Games {
    max: usize,
    /// The most games one client address holds; its next game replaces its own idle longest.
    per_client: usize,
    expiry: Duration,
    evict_idle: Duration,
    /// How long a game with a move in it is safe from eviction after its last touch.
    evict_played: Duration,
    games: Mutex<HashMap<String, Game>>,
}

impl Games {
    pub fn new(max: usize, expiry: Duration, evict_idle: Duration) -> Games {
        Games {
            max,
            per_client: max,
            expiry,
            evict_idle,
            evict_played: evict_idle,
            games: Mutex::new(HashMap::new()),
        }
    }

    /// Games with a move in them are safe from eviction for `evict_played` after their last
    /// touch (at least as long as games nobody played).
    pub fn with_evict_played(mut self, evict_played: Duration) -> Games {
        self.evict_played = evict_played.max(self.evict_idle);
        self
    }

    /// How long `game` is safe from eviction after its last touch.
    fn protected_for(&self, game: &Game) -> Duration {
        if game.is_fresh() {
            self.evict_idle
        } else {
            self.evict_played
        }
    }

    /// At most `per_client` games per client address.
    pub fn with_per_client(mut self, per_client: usize) -> Games {
        self.per_client = per_client.max(1);
        self
    }

    /// Starts a game for `owner` with a uniformly drawn secret; `seed` makes the secret
    /// reproducible, the same secret `moo play --seed` draws for the same rules.
    pub fn create(
        &self,
        rules: Rules,
        seed: Option<u64>,
        owner: Option<IpAddr>,
    ) -> Result<(String, Game), ServiceError> {
        let secret = match seed {
            Some(seed) => rules.random_code(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
            None => rules.random_code(&mut rand::thread_rng()),
        };
        let id = format!("{:032x}", rand::thread_rng().gen::<u128>());
        let game = Game {
            rules,
            secret,
            history: History::new(),
            gave_up: false,
            adversary: None,
            hard: false,
            duel: None,
            daily: None,
            owner,
            last_used: Instant::now(),
        };
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        games.retain(|_, g| now.duration_since(g.last_used) < self.expiry);
        if games.len() >= self.max {
            self.make_room(&mut games, now)?;
        }
        games.insert(id.clone(), game.clone());
        Ok((id, game))
    }

    /// Runs `f` on a live game without refreshing its idle clock (a read).
    pub fn read<T>(
        &self,
        id: &str,
        f: impl FnOnce(&Game) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.live(id, false, false, |game| f(game))
    }

    /// Runs `f` on a live duel without refreshing its idle clock (a read).
    pub fn read_duel<T>(
        &self,
        id: &str,
        f: impl FnOnce(&Duel) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.live(id, true, false, |game| {
            f(game.duel.as_ref().ok_or_else(|| self.missing(id))?)
        })
    }

    /// Runs `f` on a live duel, refreshing its idle clock.
    pub fn with_duel<T>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Duel) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.live(id, true, true, |game| {
            f(game.duel.as_mut().ok_or_else(|| self.missing(id))?)
        })
    }

    /// Runs `f` on a live game, refreshing its idle clock.
    pub fn with<T>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        self.live(id, false, true, f)
    }

    /// The four accessors' one lookup: `f` runs on entry `id` if it has not been idle past the
    /// expiry and is a duel exactly when `duel`; `touch` refreshes its idle clock then, never
    /// when the entry is missing or of the other kind.
    fn live<T>(
        &self,
        id: &str,
        duel: bool,
        touch: bool,
        f: impl FnOnce(&mut Game) -> Result<T, ServiceError>,
    ) -> Result<T, ServiceError> {
        let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        match games.get_mut(id) {
            Some(game)
                if now.duration_since(game.last_used) < self.expiry
                    && game.duel.is_some() == duel =>
            {
                if touch {
                    game.last_used = now;
                }
                f(game)
            }
            _ => Err(self.missing(id)),
        }
    }

    fn missing(&self, id: &str) -> ServiceError {
        crate::play::no_such_game(format!(
            "no live game with id {:?}: games are dropped after {} minutes without a move; start a new one with POST /api/games",
            moo_core::text::excerpt(id),
            self.expiry.as_secs() / 60
        ))
    }
}

impl Games {
    /// Drops the finished game used longest ago, or else the game touched longest ago of a
    /// client holding more than its share, or else the game idle longest, of those out of their
    /// protection (see the module docs); otherwise says when a place will free up.
    fn make_room(
        &self,
        games: &mut HashMap<String, Game>,
        now: Instant,
    ) -> Result<(), ServiceError> {
        let finished = games
            .iter()
            .filter(|(_, g)| g.is_over())
            .min_by_key(|(_, g)| g.last_used);
        let left = |g: &Game| {
            self.protected_for(g)
                .saturating_sub(now.duration_since(g.last_used))
        };
        let mut held: HashMap<IpAddr, usize> = HashMap::new();
        for owner in games.values().filter_map(|g| g.owner) {
            *held.entry(owner).or_default() += 1;
        }
        // A hog gives up games nobody has played, or played ones out of their protection.
        let hog = games
            .iter()
            .filter(|(_, g)| g.owner.is_some_and(|o| held[&o] > self.per_client))
            .filter(|(_, g)| g.is_fresh() || left(g).is_zero())
            .min_by_key(|(_, g)| g.last_used);
        let idle = games
            .iter()
            .filter(|(_, g)| left(g).is_zero())
            .min_by_key(|(_, g)| g.last_used);
        let victim = match finished.or(hog).or(idle) {
            Some((id, _)) => id.clone(),
            None => {
                let Some(wait) = games.values().map(left).min() else {
                    return Ok(());
                };
                return Err(ServiceError::unavailable(format!(
                    "the server holds its limit of {} live games, none of them over or left \
                     alone long enough to give its place to a new one: try again in {} seconds",
                    self.max,
                    wait.as_secs() + 1
                )));
            }
        };
        games.remove(&victim);
        Ok(())
    }

    /// How many games are held.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.games.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One seed, one secret, on the web and in `moo play --seed`.
    #[test]
    fn a_seed_gives_the_cli_secret() {
        let games = Games::new(10, Duration::from_secs(60), Duration::from_secs(60));
        for rules in [
            Rules::bulls(),
            Rules::mastermind(),
            Rules::new(3, "0123", false, true).unwrap(),
        ] {
            for seed in [0, 7, u64::MAX] {
                let (_, game) = games.create(rules.clone(), Some(seed), None).unwrap();
                let cli = rules.random_code(&mut rand_chacha::ChaCha8Rng::seed_from_u64(seed));
                assert_eq!(game.secret, cli, "{rules}, seed {seed}");
            }
        }
    }

    #[test]
    fn the_store_is_capped_and_ids_are_checked() {
        let games = Games::new(2, Duration::from_secs(60), Duration::from_secs(60));
        let (a, _) = games.create(Rules::bulls(), Some(1), None).unwrap();
        games.create(Rules::bulls(), None, None).unwrap();
        let full = games.create(Rules::bulls(), None, None).unwrap_err();
        assert_eq!(full.status, 503);
        assert!(
            full.message
                .contains("limit of 2 live games, none of them over or left alone long enough to give its place to a new one: try again in"),
            "{}",
            full.message
        );
        assert!(games.with(&a, |g| Ok(g.history.len())).is_ok());
        let missing = games.with("nope", |_| Ok(())).unwrap_err();
        assert_eq!(missing.status, 404);
    }

    /// In a full store, a client holding more than its share gives up its game played
    /// longest ago, so it cannot lock others out; and reading a game does not keep it alive.
    #[test]
    fn a_full_store_takes_room_from_a_client_over_its_share() {
        let games =
            Games::new(10, Duration::from_secs(600), Duration::from_secs(600)).with_per_client(3);
        let greedy = Some(IpAddr::from([127, 0, 0, 2]));
        let ids: Vec<String> = (0..50)
            .map(|_| games.create(Rules::bulls(), None, greedy).unwrap().0)
            .collect();
        assert_eq!(games.games.lock().unwrap().len(), 10);
        assert!(games.read(&ids[49], |_| Ok(())).is_ok());
        assert!(games.read(&ids[0], |_| Ok(())).is_err());
        // Everybody else still gets a game, each from the greedy client's share.
        for n in 3..10 {
            let other = Some(IpAddr::from([127, 0, 0, n]));
            assert!(games.create(Rules::bulls(), None, other).is_ok());
        }
        let greedy_left = games
            .games
            .lock()
            .unwrap()
            .values()
            .filter(|g| g.owner == greedy)
            .count();
        assert_eq!(greedy_left, 3);
        // Within its share, a client's games are safe: the next new player waits.
        let late = Some(IpAddr::from([127, 0, 0, 20]));
        assert!(games.create(Rules::bulls(), None, late).is_err());
        let short = Games::new(10, Duration::from_millis(300), Duration::ZERO);
        let (id, _) = short.create(Rules::bulls(), None, None).unwrap();
        for _ in 0..5 {
            std::thread::sleep(Duration::from_millis(100));
            let _ = short.read(&id, |_| Ok(()));
        }
        assert!(
            short.read(&id, |_| Ok(())).is_err(),
            "reads kept the game alive"
        );
    }

    #[test]
    fn idle_games_expire() {
        let games = Games::new(1, Duration::ZERO, Duration::ZERO);
        let (a, _) = games.create(Rules::bulls(), None, None).unwrap();
        assert!(games.with(&a, |_| Ok(())).is_err());
        // The expired game no longer counts against the cap.
        assert!(games.create(Rules::bulls(), None, None).is_ok());
    }

    #[test]
    fn a_full_store_makes_room_from_finished_then_idle_games() {
        let games = Games::new(2, Duration::from_secs(600), Duration::ZERO);
        let (a, _) = games.create(Rules::bulls(), None, None).unwrap();
        let (b, _) = games.create(Rules::bulls(), None, None).unwrap();
        games
            .with(&b, |g| {
                g.gave_up = true;
                Ok(())
            })
            .unwrap();
        // b is finished, so it goes first even though a was used longer ago.
        games.create(Rules::bulls(), None, None).unwrap();
        assert!(games.with(&b, |_| Ok(())).is_err());
        assert!(games.with(&a, |_| Ok(())).is_ok());
        // Then the game idle longest (every game counts as idle at once here).
        let (c, _) = games.create(Rules::bulls(), None, None).unwrap();
        assert!(games.with(&c, |_| Ok(())).is_ok());
        assert_eq!(games.games.lock().unwrap().len(), 2);
    }

    /// On a loopback server the player in the browser and a script share one
    /// address; the script creating games past the store's size evicts only its own games
    /// nobody played, never the player's game in play.
    #[test]
    fn a_game_in_play_outlives_a_flood_of_games_from_its_own_address() {
        let games = Games::new(1000, Duration::from_secs(1800), Duration::ZERO)
            .with_per_client(100)
            .with_evict_played(Duration::from_secs(600));
        let local = Some(IpAddr::from([127, 0, 0, 1]));
        let (mine, game) = games.create(Rules::bulls(), None, local).unwrap();
        let guess = game.rules.parse_code("0123").unwrap();
        games
            .with(&mine, |g| {
                g.history.push(guess, guess.score(&g.secret));
                Ok(())
            })
            .unwrap();
        for _ in 0..1100 {
            games.create(Rules::bulls(), None, local).unwrap();
        }
        assert_eq!(games.len(), 1000);
        assert!(
            games.read(&mine, |_| Ok(())).is_ok(),
            "the game in play was evicted"
        );
    }
}
