//! Playing a decision tree as a [`Strategy`], and the optimal tree shipped for Bulls and Cows.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use web_time::{Duration, Instant};

use super::{GuessPool, Knowledge, Strategy, StrategyError, StrategyOptions};
use crate::code::Code;
use crate::history::History;
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::symmetry::{permutations, MAX_PERMUTED_LENGTH};
use crate::tree::{
    DecisionTree, NodeId, OptimalTree, Search, SearchError, SearchOptions, SearchOutcome, TreeError,
};

/// Spaces up to this many codes get an optimal tree searched on demand (a second or so).
pub const ON_DEMAND_MAX_CODES: usize = 1296;

/// The longest a search on demand may take before `optimal` gives up on the game, whatever the
/// caller's own [`StrategyOptions::stop`] allows: Mastermind takes a tenth of a second, but some
/// games of no more codes take minutes.
pub const ON_DEMAND_TIME: Duration = Duration::from_secs(10);

/// How long a search on the spot that ran out of time is remembered: a caller with no more
/// time than it had is refused at once meanwhile.
pub const FAILURE_MEMORY: Duration = Duration::from_secs(10 * 60);

/// The trees searched on the spot, by rules and guess pool.
type Found = Mutex<HashMap<(Rules, GuessPool), Arc<DecisionTree>>>;
/// The searches that ran out of time: the most time one had, and when it gave up.
type Failed = Mutex<HashMap<(Rules, GuessPool), (Duration, Instant)>>;

fn found() -> &'static Found {
    static FOUND: OnceLock<Found> = OnceLock::new();
    FOUND.get_or_init(Found::default)
}

fn failed() -> &'static Failed {
    static FAILED: OnceLock<Failed> = OnceLock::new();
    FAILED.get_or_init(Failed::default)
}

/// A cache's lock; a panic elsewhere leaves the map itself valid.
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The trees that ship with the library, with the rules each plays. Their searches take a minute
/// each, too long to run whenever someone wants to play; a test replays every secret through
/// each, and CI rebuilds the Bulls and Cows ones and checks each file is byte for byte what the
/// search writes. A rule set's optimal tree (fewest guesses in total) comes first; the trees
/// after it are optimal only among those opening as they do, and ship so that an opening the
/// optimal tree's symmetric images do not play still gets proven moves.
///
/// - Bulls and Cows, 4 distinct digits 0-9 (26274 guesses over the 5040 secrets), as written by
///   `moo tree build -o crates/moo-core/trees/bulls-4x10-average.json`. Every opening is an
///   image of its 0123.
/// - The same with no leading zero (23283 over 4536, the rules of CodinGame's arena at length 4),
///   as written by `moo tree build --no-leading-zero -o
///   crates/moo-core/trees/bulls-4x10-no-leading-average.json`. It opens 1234; the symmetries
///   that keep 0 out of the lead carry that onto every opening without a 0, but none onto an
///   opening with one.
/// - The same opening 1023 (23343 over 4536: the opening costs 60 guesses more than 1234), as
///   written by `moo tree build --no-leading-zero --first-guess 1023 -o
///   crates/moo-core/trees/bulls-4x10-no-leading-1023-average.json`: every opening with a 0 is
///   its image, and below its root every subtree is optimal for its own codes.
const SHIPPED: [Shipped; 3] = [
    Shipped {
        rules: Rules::bulls,
        file: "bulls-4x10-average.json",
        json: embedded!("../../trees/bulls-4x10-average.json"),
    },
    Shipped {
        rules: no_leading_zero,
        file: "bulls-4x10-no-leading-average.json",
        json: embedded!("../../trees/bulls-4x10-no-leading-average.json"),
    },
    Shipped {
        rules: no_leading_zero,
        file: "bulls-4x10-no-leading-1023-average.json",
        json: embedded!("../../trees/bulls-4x10-no-leading-1023-average.json"),
    },
];

/// A shipped tree's file, compiled in natively. In WebAssembly the trees are left out of the
/// module, which a page downloads before its first guess, and given to the library when a game
/// needs one ([`provide_shipped_tree`]): the static site fetches them from its `trees/`.
#[cfg(not(target_family = "wasm"))]
macro_rules! embedded {
    ($path:literal) => {
        Some(include_str!($path))
    };
}
#[cfg(target_family = "wasm")]
macro_rules! embedded {
    ($path:literal) => {
        None
    };
}
use embedded;

/// Bulls and Cows with no leading zero.
fn no_leading_zero() -> Rules {
    Rules::new(4, "0123456789", false, true).expect("valid rules")
}

/// A tree that ships: the rules it plays, its file's name under `crates/moo-core/trees/`, and
/// its contents when they are compiled in.
struct Shipped {
    rules: fn() -> Rules,
    file: &'static str,
    json: Option<&'static str>,
}

/// The shipped trees read so far (or given, in WebAssembly), by their index in [`SHIPPED`].
static TREES: [OnceLock<Arc<DecisionTree>>; SHIPPED.len()] =
    [const { OnceLock::new() }; SHIPPED.len()];

/// Which of [`SHIPPED`] play `rules` with `guesses`, the optimal one first, whether or not
/// they are at hand.
fn shipped_for(rules: &Rules, guesses: GuessPool) -> impl Iterator<Item = usize> + '_ {
    (0..SHIPPED.len()).filter(move |&i| guesses == GuessPool::All && (SHIPPED[i].rules)() == *rules)
}

/// Which of [`SHIPPED`] play `rules` with `guesses` and are at hand, the optimal one first.
fn shipped_indexes(rules: &Rules, guesses: GuessPool) -> Vec<usize> {
    shipped_for(rules, guesses)
        .filter(|&i| SHIPPED[i].json.is_some() || TREES[i].get().is_some())
        .collect()
}

/// [`SHIPPED`]`[i]`, read once per process; only for trees at hand ([`shipped_indexes`]).
fn shipped_tree(i: usize) -> Arc<DecisionTree> {
    TREES[i]
        .get_or_init(|| {
            let json = SHIPPED[i]
                .json
                .expect("shipped_indexes lists trees at hand only");
            let tree =
                DecisionTree::from_json(json).expect("a shipped tree is valid JSON for its rules");
            Arc::new(tree)
        })
        .clone()
}

/// The files of the shipped trees that would play `rules` with `guesses` but are not at hand:
/// always none natively, where they are compiled in; in WebAssembly, those not yet given with
/// [`provide_shipped_tree`].
pub fn missing_shipped_trees(rules: &Rules, guesses: GuessPool) -> Vec<&'static str> {
    shipped_for(rules, guesses)
        .filter(|&i| SHIPPED[i].json.is_none() && TREES[i].get().is_none())
        .map(|i| SHIPPED[i].file)
        .collect()
}

/// Gives the library the shipped tree of `file` (its name, such as `bulls-4x10-average.json`)
/// read from `json`, where it is not compiled in (WebAssembly). Refused when no shipped tree
/// has that name, or the text is not that tree's rules' tree; giving one already at hand
/// changes nothing.
pub fn provide_shipped_tree(file: &str, json: &str) -> Result<(), TreeError> {
    let Some(i) = SHIPPED.iter().position(|s| s.file == file) else {
        return Err(TreeError::NotShipped(format!(
            "no shipped tree is named {file:?}: the shipped trees are {}",
            SHIPPED.map(|s| s.file).join(", ")
        )));
    };
    let tree = DecisionTree::from_json(json)?;
    if *tree.rules() != (SHIPPED[i].rules)() {
        return Err(TreeError::NotShipped(format!(
            "{file} is a tree of {}, not of {}",
            tree.rules().describe(),
            (SHIPPED[i].rules)().describe()
        )));
    }
    let _ = TREES[i].set(Arc::new(tree));
    Ok(())
}

/// The shipped optimal tree for `rules` and `guesses`, if there is one.
pub fn shipped(rules: &Rules, guesses: GuessPool) -> Option<Arc<DecisionTree>> {
    shipped_indexes(rules, guesses)
        .first()
        .map(|&i| shipped_tree(i))
}

/// Every shipped tree for `rules` and `guesses`: the optimal one first, then those optimal only
/// among trees with their opening (the trees under `crates/moo-core/trees/`). Empty if none ships.
pub fn shipped_trees(rules: &Rules, guesses: GuessPool) -> Vec<Arc<DecisionTree>> {
    shipped_indexes(rules, guesses)
        .into_iter()
        .map(shipped_tree)
        .collect()
}

/// The total of every node of the `tree`-th shipped tree for the rules of `space` and `guesses`
/// (as [`shipped_trees`] orders them; 0 is the optimal one), from
/// [`DecisionTree::subtree_totals`], worked out once per process.
pub fn shipped_totals(
    space: &CodeSpace,
    guesses: GuessPool,
    tree: usize,
) -> Option<&'static [u64]> {
    let i = *shipped_indexes(space.rules(), guesses).get(tree)?;
    static TOTALS: [OnceLock<Vec<u64>>; SHIPPED.len()] = [const { OnceLock::new() }; SHIPPED.len()];
    Some(TOTALS[i].get_or_init(|| shipped_tree(i).subtree_totals(space)))
}

/// Plays the guesses of a decision tree, or of the first of several trees of one game whose
/// symmetric images play the history (see [`TreeStrategy::locate`]).
#[derive(Debug, Clone)]
pub struct TreeStrategy {
    name: String,
    /// Never empty; the first is the tree the strategy is named for.
    trees: Vec<Arc<DecisionTree>>,
}

/// Where a history leads in a [`TreeStrategy`]'s trees ([`TreeStrategy::locate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located {
    /// The next guess.
    pub guess: Code,
    /// The node that plays it, in the frame of its own tree.
    pub node: NodeId,
    /// Which tree: 0 for the strategy's own, then the others in the order they were added
    /// ([`TreeStrategy::with_others`]).
    pub tree: usize,
}

impl TreeStrategy {
    /// A strategy following `tree` in `space`, which must be for the same rules.
    pub fn new(
        name: impl Into<String>,
        tree: Arc<DecisionTree>,
        space: &CodeSpace,
    ) -> Result<TreeStrategy, StrategyError> {
        let name = name.into();
        if tree.rules() != space.rules() {
            return Err(StrategyError::Unsupported {
                name,
                rules: space.rules().describe(),
                reason: format!("the tree is for {}", tree.rules().describe()),
            });
        }
        Ok(TreeStrategy {
            name,
            trees: vec![tree],
        })
    }

    /// The strategy, also playing `others` (trees of the same rules) where no image of its own
    /// tree plays the history: trees optimal for other openings, say. They are tried in order
    /// after the strategy's own.
    pub fn with_others(
        mut self,
        others: impl IntoIterator<Item = Arc<DecisionTree>>,
    ) -> Result<TreeStrategy, StrategyError> {
        for tree in others {
            if tree.rules() != self.trees[0].rules() {
                return Err(StrategyError::Unsupported {
                    name: self.name,
                    rules: self.trees[0].rules().describe(),
                    reason: format!("another tree is for {}", tree.rules().describe()),
                });
            }
            self.trees.push(tree);
        }
        Ok(self)
    }

    /// The strategy registered as `optimal`: the shipped optimal tree for Bulls and Cows
    /// ([`shipped`]), with the other trees shipped for its rules to play the openings its images
    /// do not ([`shipped_trees`]), or a tree searched now for spaces of at most [`ON_DEMAND_MAX_CODES`] codes, within the
    /// caller's [`StrategyOptions::stop`] and at most [`ON_DEMAND_TIME`]. A search that runs out
    /// of time is remembered for [`FAILURE_MEMORY`], and callers with no more time are refused at
    /// once; a cancelled one is not remembered.
    pub fn optimal(
        space: &CodeSpace,
        options: &StrategyOptions,
    ) -> Result<TreeStrategy, StrategyError> {
        let unsupported = |reason: String| StrategyError::Unsupported {
            name: "optimal".into(),
            rules: space.rules().describe(),
            reason,
        };
        let mut trees = shipped_trees(space.rules(), options.guesses).into_iter();
        if let Some(tree) = trees.next() {
            return TreeStrategy::new("optimal", tree, space)?.with_others(trees);
        }
        if space.len() > ON_DEMAND_MAX_CODES {
            let mode = match options.guesses {
                GuessPool::All => "",
                GuessPool::Consistent => " --guesses consistent",
            };
            return Err(unsupported(format!(
                "no optimal tree ships for these rules and {} codes are too many to search on the spot; \
                 build one with `moo tree build <rule flags>{mode} -o tree.json` and use --strategy tree:tree.json",
                space.len()
            )));
        }
        // Callers may build the strategy once per thread or per game: search each game once.
        // The lock is never held during a search, so one slow game cannot hold up another.
        let key = (space.rules().clone(), options.guesses);
        if let Some(tree) = lock(found()).get(&key) {
            return TreeStrategy::new("optimal", tree.clone(), space);
        }
        let stop = options.stop.until(Instant::now() + ON_DEMAND_TIME);
        let budget = stop.remaining().unwrap_or(ON_DEMAND_TIME);
        let gave_up = |tried: Duration| {
            unsupported(format!(
                "no optimal tree ships for these rules and the search on the spot did not finish within {:.1} s; \
                 build one with `moo tree build <rule flags> -o tree.json` and use --strategy tree:tree.json",
                tried.as_secs_f64()
            ))
        };
        // A search that ran out of time is not tried again with no more time than it had: a
        // benchmark naming `optimal` a thousand times must not pay for it a thousand times.
        if let Some(&(tried, when)) = lock(failed()).get(&key) {
            if when.elapsed() < FAILURE_MEMORY && budget <= tried {
                return Err(gave_up(tried));
            }
        }
        let search_options = SearchOptions::default().with_guesses(options.guesses);
        let start = Instant::now();
        let search = Search::whole(space).options(&search_options).stop(&stop);
        match search.run() {
            Ok(SearchOutcome::Found(OptimalTree { tree, .. })) => {
                lock(failed()).remove(&key);
                let tree = lock(found())
                    .entry(key)
                    .or_insert_with(|| Arc::new(tree))
                    .clone();
                TreeStrategy::new("optimal", tree, space)
            }
            Ok(SearchOutcome::Impossible { .. }) => unreachable!("no depth limit was set"),
            Err(SearchError::Stopped) if stop.is_cancelled() => {
                Err(unsupported("the search on the spot was cancelled".into()))
            }
            Err(SearchError::Stopped) => {
                let tried = start.elapsed();
                let mut failed = lock(failed());
                let entry = failed.entry(key).or_insert((tried, Instant::now()));
                *entry = (entry.0.max(tried), Instant::now());
                Err(gave_up(tried))
            }
            Err(e) => Err(unsupported(e.to_string())),
        }
    }

    /// A strategy following a tree from elsewhere (a file, say), checked first: it must be for
    /// the rules of `space` and solve every secret. Reading the tree is the caller's business,
    /// so the library does no file I/O.
    pub fn checked(
        name: impl Into<String>,
        tree: DecisionTree,
        space: &CodeSpace,
    ) -> Result<TreeStrategy, StrategyError> {
        let name = name.into();
        let unsupported = |reason: String| StrategyError::Unsupported {
            name: name.clone(),
            rules: space.rules().describe(),
            reason,
        };
        if tree.rules() != space.rules() {
            return Err(unsupported(format!(
                "the tree is for {}",
                tree.rules().describe()
            )));
        }
        tree.verify_in(space)
            .map_err(|e: TreeError| unsupported(format!("the tree is not valid: {e}")))?;
        TreeStrategy::new(name.clone(), Arc::new(tree), space)
    }

    /// The tree being played (the strategy's own, not those [`TreeStrategy::with_others`]
    /// added).
    pub fn tree(&self) -> &DecisionTree {
        &self.trees[0]
    }
}

impl Strategy for TreeStrategy {
    fn name(&self) -> &str {
        &self.name
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        self.locate(knowledge.history).map(|l| l.guess)
    }
}

/// How a history fares against one symmetric image of a tree.
enum Follow {
    /// The image plays this history; this is its next guess, played at this node of the tree.
    Guess(Code, NodeId),
    /// The image plays the guesses, but some feedback has no branch: no secret fits.
    Contradiction,
    /// The image does not play these guesses: it plays the first this many, not the next.
    OffTree(usize),
}

impl TreeStrategy {
    /// The tree's next guess after `history` and the node that plays it, followed through the
    /// image of the tree under the game's symmetries where the history leaves the tree itself,
    /// and through the other trees ([`TreeStrategy::with_others`]) in order where no image of
    /// the strategy's own plays it. The node is in its tree's own frame: its subtree solves the
    /// image of the codes `history` leaves under that symmetry, which scores alike, so its
    /// total ([`DecisionTree::subtree_totals`]) is that position's total under the tree.
    pub fn locate(&self, history: &History) -> Result<Located, StrategyError> {
        let turns = history.turns();
        let rules = self.trees[0].rules();
        let length = rules.length();
        // The game's symmetries carry an optimal tree onto an optimal tree, so a history the tree
        // does not play (a first guess of 4567 where the tree opens with 0123, say) is followed
        // through the image of the tree that does play it: try every position permutation, each
        // fixing how the played symbols must be renamed.
        let mut perms: Vec<Vec<u8>> = Vec::new();
        let identity: Vec<u8> = (0..length as u8).collect();
        if length <= MAX_PERMUTED_LENGTH {
            permutations(&mut identity.clone(), 0, &mut |p| perms.push(p.to_vec()));
            // The identity first, so a history on the tree is followed as it is.
            perms.sort_by_key(|p| *p != identity);
        } else {
            perms.push(identity);
        }
        let mut contradicted = false;
        // The most turns any image played: the error names the guesses up to the first none
        // plays, not a whole long history (a review asks after every move of one).
        let mut played = 0;
        for (k, tree) in self.trees.iter().enumerate() {
            for perm in &perms {
                match follow(tree, turns, perm) {
                    Follow::Guess(guess, node) => {
                        return Ok(Located {
                            guess,
                            node,
                            tree: k,
                        })
                    }
                    Follow::Contradiction => contradicted = true,
                    Follow::OffTree(turns) => played = played.max(turns),
                }
            }
        }
        if contradicted {
            // A verified tree has a branch for every feedback some secret can give, so a missing
            // one means the answers contradict each other.
            return Err(StrategyError::NoCandidates);
        }
        let guesses = turns[..turns.len().min(played + 1)]
            .iter()
            .map(|t| rules.format_code(&t.guess))
            .collect::<Vec<_>>()
            .join(", ");
        Err(StrategyError::Unsupported {
            name: self.name.clone(),
            rules: rules.describe(),
            reason: format!(
                "no symmetry of the game carries the guesses {guesses} onto the tree's, so it has no move here"
            ),
        })
    }
}

/// Follows `turns` through the image of `tree` under position permutation `perm` and the
/// symbol renaming the turns force: guess `g` corresponds to tree guess `t` when
/// `t[perm[p]] = rename(g[p])` at every position `p`. Scores are unchanged by such a map, so
/// feedbacks carry over as they are.
fn follow(tree: &DecisionTree, turns: &[crate::history::Turn], perm: &[u8]) -> Follow {
    const NONE: u8 = u8::MAX;
    let rules = tree.rules();
    let length = rules.length();
    // rename[a] = b: history symbol a is tree symbol b; back is its inverse.
    let mut rename = [NONE; 64];
    let mut back = [NONE; 64];
    if rules.no_leading() {
        // The forbidden leading symbol and the first position must stay where they are.
        if perm[0] != 0 {
            return Follow::OffTree(0);
        }
        rename[0] = 0;
        back[0] = 0;
    }
    let mut id = tree.root_id();
    for (played, turn) in turns.iter().enumerate() {
        let node = tree.node(id);
        let tree_guess = node.guess.symbols();
        for (p, &a) in turn.guess.symbols().iter().enumerate() {
            let b = tree_guess[usize::from(perm[p])];
            match rename[usize::from(a)] {
                NONE if back[usize::from(b)] == NONE => {
                    rename[usize::from(a)] = b;
                    back[usize::from(b)] = a;
                }
                x if x == b => {}
                _ => return Follow::OffTree(played),
            }
        }
        match node.child(turn.feedback) {
            Some(child) => id = child,
            None => return Follow::Contradiction,
        }
    }
    // Tree symbols not yet renamed stand for symbols the history never played, which are
    // interchangeable: take the smallest free ones.
    let unplayed: Vec<u8> = (0..rules.alphabet().len() as u8)
        .filter(|&a| rename[usize::from(a)] == NONE)
        .collect();
    let mut free = unplayed.into_iter();
    let tree_guess = tree.node(id).guess.symbols();
    let mut symbols = vec![0u8; length];
    for (p, s) in symbols.iter_mut().enumerate() {
        let b = tree_guess[usize::from(perm[p])];
        if back[usize::from(b)] == NONE {
            let a = free
                .next()
                .expect("an alphabet has a symbol for every tree symbol");
            rename[usize::from(a)] = b;
            back[usize::from(b)] = a;
        }
        *s = back[usize::from(b)];
    }
    Follow::Guess(Code::from_symbols(&symbols), id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::published::TANAKA;
    use crate::rules::Rules;
    use crate::strategy::{by_name, play};
    use crate::{CodeSet, Feedback, Histogram, History, Stop};

    /// Natively every shipped tree is compiled in; a tree given by name must be the one of
    /// that name's rules, and an unknown name is refused with the names there are.
    #[test]
    fn shipped_trees_are_at_hand_and_given_ones_are_checked() {
        for rules in [Rules::bulls(), no_leading_zero()] {
            assert_eq!(
                missing_shipped_trees(&rules, GuessPool::All),
                Vec::<&str>::new()
            );
        }
        let bulls = SHIPPED[0].json.unwrap();
        provide_shipped_tree("bulls-4x10-average.json", bulls).unwrap();
        let wrong = provide_shipped_tree("bulls-4x10-no-leading-average.json", bulls).unwrap_err();
        assert!(wrong.to_string().contains("not of"), "{wrong}");
        let unknown = provide_shipped_tree("nope.json", bulls).unwrap_err();
        assert!(
            unknown.to_string().contains("bulls-4x10-average.json"),
            "{unknown}"
        );
        let bad = provide_shipped_tree("bulls-4x10-average.json", "{").unwrap_err();
        assert!(matches!(bad, TreeError::Malformed(_)), "{bad}");
    }

    #[test]
    fn optimal_searches_small_games_and_refuses_large_ones() {
        let rules = Rules::new(3, "012345", false, false).unwrap();
        let space = CodeSpace::new(rules).unwrap();
        let mut strategy = by_name("optimal", &space, &StrategyOptions::default()).unwrap();
        for secret in space.codes() {
            assert!(play(strategy.as_mut(), &space, secret, 10)
                .unwrap()
                .is_won(3));
        }
        // 2688 codes, and no tree ships for them.
        let rules = Rules::new(4, "012345678", false, true).unwrap();
        let space = CodeSpace::new(rules).unwrap();
        let err = by_name("optimal", &space, &StrategyOptions::default())
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("moo tree build"), "{err}");
    }

    /// The shipped tree solves every Bulls and Cows secret with Tanaka's published figures;
    /// `bulls_optimal_average_is_published` (tree/tests.rs) proves it optimal by rebuilding it.
    #[test]
    fn shipped_bulls_tree_solves_every_secret_as_published() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let tree = shipped(&Rules::bulls(), GuessPool::All).unwrap();
        let stats = tree.verify_in(&space).unwrap();
        TANAKA
            .compare(&Histogram::from_counts(stats.histogram))
            .unwrap();
        assert!(shipped(&Rules::bulls(), GuessPool::Consistent).is_none());
        assert!(shipped(&Rules::mastermind(), GuessPool::All).is_none());
        let mut strategy = by_name("optimal", &space, &StrategyOptions::default()).unwrap();
        let secret = Rules::bulls().parse_code("9876").unwrap();
        let history = play(strategy.as_mut(), &space, &secret, 7).unwrap();
        assert!(history.is_won(4));
    }

    /// The no-leading-zero tree solves every secret of its rules in the optimum the exact search
    /// proves (23283 guesses, 7 at worst; the book's exact results), and the advisor plays it.
    #[test]
    fn shipped_no_leading_zero_tree_solves_every_secret_optimally() {
        let rules = Rules::new(4, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let tree = shipped(&rules, GuessPool::All).unwrap();
        let stats = tree.verify_in(&space).unwrap();
        assert_eq!((stats.secrets, stats.total, stats.max), (4536, 23283, 7));
        assert!(shipped(&rules, GuessPool::Consistent).is_none());
        let totals = shipped_totals(&space, GuessPool::All, 0).unwrap();
        assert_eq!(totals[0], 23283);
        let mut strategy = by_name("optimal", &space, &StrategyOptions::default()).unwrap();
        let secret = rules.parse_code("9876").unwrap();
        assert!(play(strategy.as_mut(), &space, &secret, 7)
            .unwrap()
            .is_won(4));
    }

    /// Plays every secret of `space` after `opening`, then as `strategy` says: the guesses in
    /// total, and the most any secret took.
    fn after_opening(space: &CodeSpace, strategy: &mut dyn Strategy, opening: &str) -> (u64, u32) {
        let opening = space.rules().parse_code(opening).unwrap();
        let (mut total, mut worst) = (0, 0);
        for secret in space.codes() {
            let mut history = History::new();
            let mut candidates = space.all();
            let mut guess = opening;
            loop {
                let feedback = guess.score(secret);
                candidates = space.filter_code(&candidates, &guess, feedback);
                history.push(guess, feedback);
                if feedback.is_win(space.length()) {
                    break;
                }
                let knowledge = Knowledge::new(space, &history, &candidates);
                guess = strategy.next_guess(&knowledge).unwrap();
            }
            total += history.len() as u64;
            worst = worst.max(history.len() as u32);
        }
        (total, worst)
    }

    /// With no leading zero, an opening with a 0 is no image of the optimal tree's 1234 but one
    /// of the second tree's 1023, optimal given that opening: the strategy plays every opening,
    /// each class at its own tree's total (the 1023 tree costs 60 guesses more over the game).
    #[test]
    fn with_no_leading_zero_every_opening_is_followed_through_one_of_the_trees() {
        let rules = Rules::new(4, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let trees = shipped_trees(&rules, GuessPool::All);
        assert_eq!(trees.len(), 2);
        assert!(Arc::ptr_eq(
            &trees[0],
            &shipped(&rules, GuessPool::All).unwrap()
        ));
        let second = &trees[1];
        assert_eq!(
            rules.format_code(&second.node(second.root_id()).guess),
            "1023"
        );
        let stats = second.verify_in(&space).unwrap();
        assert_eq!((stats.secrets, stats.total, stats.max), (4536, 23343, 7));
        assert_eq!(shipped_totals(&space, GuessPool::All, 1).unwrap()[0], 23343);
        assert!(shipped_totals(&space, GuessPool::All, 2).is_none());
        let mut strategy = by_name("optimal", &space, &StrategyOptions::default()).unwrap();
        for (opening, total) in [
            ("1234", 23283),
            ("9876", 23283),
            ("1023", 23343),
            ("5067", 23343),
            ("9870", 23343),
        ] {
            let (played, worst) = after_opening(&space, strategy.as_mut(), opening);
            assert_eq!((played, worst), (total, 7), "opening {opening}");
        }
    }

    /// Every opening is a symmetric image of the tree's 0123, so the optimal tree keeps playing
    /// optimally after it: the totals are the optimum plus nothing, whatever the opening.
    #[test]
    fn any_opening_is_followed_through_the_trees_image() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let rules = space.rules().clone();
        let mut strategy = by_name("optimal", &space, &StrategyOptions::default()).unwrap();
        for opening in ["4567", "3210", "9082"] {
            let (total, worst) = after_opening(&space, strategy.as_mut(), opening);
            assert_eq!(
                (total, Some(worst)),
                (TANAKA.total, TANAKA.max),
                "opening {opening}"
            );
        }
        // Answers no secret can give are still reported as a contradiction.
        let mut history = History::new();
        history.push(rules.parse_code("4567").unwrap(), Feedback::new(0, 0));
        history.push(rules.parse_code("0123").unwrap(), Feedback::new(0, 0));
        let none = CodeSet::default();
        let knowledge = Knowledge::new(&space, &history, &none);
        let err = strategy.next_guess(&knowledge).unwrap_err();
        assert!(matches!(err, StrategyError::NoCandidates), "{err}");
    }

    /// The search on the spot stops at the caller's deadline and cancel flag, and one
    /// that ran out of time is not run again for a caller with no more time.
    #[test]
    fn the_search_on_the_spot_takes_the_callers_stop_and_remembers_a_failure() {
        use std::sync::atomic::AtomicBool;
        // 1024 codes, under the on-the-spot cap, but a search of minutes.
        let space = CodeSpace::new(Rules::new(10, "01", true, false).unwrap()).unwrap();
        let flag = Arc::new(AtomicBool::new(true));
        let cancelled = StrategyOptions {
            stop: Stop::never().with_flag(flag),
            ..StrategyOptions::default()
        };
        let start = Instant::now();
        let err = by_name("optimal", &space, &cancelled).err().unwrap();
        assert!(err.to_string().contains("cancelled"), "{err}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );

        let short = || StrategyOptions {
            stop: Stop::after(Duration::from_millis(300)),
            ..StrategyOptions::default()
        };
        let start = Instant::now();
        let err = by_name("optimal", &space, &short()).err().unwrap();
        let first = start.elapsed();
        assert!(err.to_string().contains("did not finish within"), "{err}");
        assert!(first >= Duration::from_millis(250), "{first:?}");
        assert!(first < Duration::from_secs(5), "{first:?}");
        // The same budget again: refused from memory, without a search.
        let start = Instant::now();
        for _ in 0..100 {
            assert!(by_name("optimal", &space, &short()).is_err());
        }
        assert!(start.elapsed() < first, "{:?}", start.elapsed());
    }

    #[test]
    fn outside_trees_are_checked_before_play() {
        let mm = CodeSpace::new(Rules::mastermind()).unwrap();
        let small = Rules::new(4, "01234", false, false).unwrap();
        let small_space = CodeSpace::new(small.clone()).unwrap();
        let tiny = match Search::whole(&small_space).run().unwrap() {
            SearchOutcome::Found(found) => found.tree,
            SearchOutcome::Impossible { .. } => unreachable!("no depth limit"),
        };
        let err = TreeStrategy::checked("tree:t.json", tiny.clone(), &mm)
            .unwrap_err()
            .to_string();
        assert!(err.contains("the tree is for"), "{err}");
        let mut strategy = TreeStrategy::checked("tree:t.json", tiny, &small_space).unwrap();
        assert_eq!(strategy.name(), "tree:t.json");
        let secret = small.parse_code("4201").unwrap();
        assert!(play(&mut strategy, &small_space, &secret, 7)
            .unwrap()
            .is_won(4));
    }
}
