//! The game, from its rules alone: the codes, how a guess is scored against a secret, and the
//! renamings of symbols and positions that keep every guess played so far as it was.
//!
//! Nothing here comes from moo: the scoring is the rule as players state it, and the symmetries
//! are enumerated the plain way, so an error in moo's own cannot hide in both.

/// A code: one symbol index (into the alphabet) per position.
pub type Code = Vec<u8>;

/// The rules of one game of the family.
#[derive(Debug, Clone)]
pub struct Game {
    /// Symbols in a code.
    pub length: usize,
    /// The alphabet, in order.
    pub symbols: Vec<char>,
    /// Whether a symbol may appear more than once in a code.
    pub repeats: bool,
    /// Whether the alphabet's first symbol may not lead a code.
    pub not_first: bool,
    /// Every code, in lexicographic order of symbol indexes.
    pub codes: Vec<Code>,
    /// How often each symbol is in each code, `symbols.len()` entries a code.
    tallies: Vec<u8>,
    /// For each code, the positions that hold a symbol's first appearance, one bit each.
    firsts: Vec<u16>,
    /// Every guess's slot against every secret, for games of at most [`TABLE_CODES`] codes.
    table: Vec<u8>,
}

/// The most codes whose scores are kept in a table (256 MiB of one byte each at most): a lookup
/// is several times as fast as scoring, and the checker scores billions of pairs.
const TABLE_CODES: usize = 1 << 14;

impl Game {
    /// The game with these rules, its codes listed.
    pub fn new(length: usize, symbols: Vec<char>, repeats: bool, not_first: bool) -> Game {
        let mut codes = Vec::new();
        let mut code = Vec::with_capacity(length);
        list_codes(length, symbols.len() as u8, repeats, &mut code, &mut codes);
        if not_first {
            codes.retain(|c| c[0] != 0);
        }
        let n = symbols.len();
        let mut tallies = vec![0u8; codes.len() * n];
        let mut firsts = vec![0u16; codes.len()];
        for (i, code) in codes.iter().enumerate() {
            for (p, &s) in code.iter().enumerate() {
                if tallies[i * n + usize::from(s)] == 0 {
                    firsts[i] |= 1 << p;
                }
                tallies[i * n + usize::from(s)] += 1;
            }
        }
        let mut game = Game {
            length,
            symbols,
            repeats,
            not_first,
            codes,
            tallies,
            firsts,
            table: Vec::new(),
        };
        let n = game.codes.len();
        if n <= TABLE_CODES {
            let table: Vec<u8> = (0..n * n)
                .map(|i| game.count_score(i / n, i % n) as u8)
                .collect();
            game.table = table;
        }
        game
    }

    /// The index of `code` among [`Game::codes`].
    pub fn index(&self, code: &[u8]) -> Option<usize> {
        self.codes.binary_search_by(|c| c.as_slice().cmp(code)).ok()
    }

    /// The code written as `text`, if it is one of the game's.
    pub fn parse(&self, text: &str) -> Option<Code> {
        let code: Option<Code> = text
            .chars()
            .map(|ch| self.symbols.iter().position(|&s| s == ch).map(|i| i as u8))
            .collect();
        let code = code?;
        let legal = code.len() == self.length
            && (self.repeats || (1..code.len()).all(|i| !code[..i].contains(&code[i])))
            && !(self.not_first && code[0] == 0);
        legal.then_some(code)
    }

    /// `code` as the alphabet writes it.
    pub fn format(&self, code: &[u8]) -> String {
        code.iter().map(|&s| self.symbols[usize::from(s)]).collect()
    }

    /// The feedback slot of bulls `b` and cows `c`: `b * (length + 1) + c`.
    pub fn slot(&self, bulls: usize, cows: usize) -> usize {
        bulls * (self.length + 1) + cows
    }

    /// How many feedback slots [`Game::slot`] uses.
    pub fn slots(&self) -> usize {
        (self.length + 1) * (self.length + 1)
    }

    /// The slot of the win, every symbol a bull.
    pub fn win(&self) -> usize {
        self.slot(self.length, 0)
    }

    /// The slot `guess` gets against `secret`: bulls are symbols in the right place; cows are
    /// the other symbols the two share, each symbol counted as often as it is in both.
    pub fn score(&self, guess: usize, secret: usize) -> usize {
        if self.table.is_empty() {
            self.count_score(guess, secret)
        } else {
            usize::from(self.table[guess * self.codes.len() + secret])
        }
    }

    /// [`Game::score`], counted from the two codes.
    fn count_score(&self, guess: usize, secret: usize) -> usize {
        let (g, s) = (&self.codes[guess], &self.codes[secret]);
        let bulls = g.iter().zip(s).filter(|(a, b)| a == b).count();
        let n = self.symbols.len();
        let (tg, ts) = (&self.tallies[guess * n..], &self.tallies[secret * n..]);
        let firsts = self.firsts[guess];
        let shared: usize = g
            .iter()
            .enumerate()
            .filter(|&(p, _)| firsts & (1 << p) != 0)
            .map(|(_, &x)| usize::from(tg[usize::from(x)].min(ts[usize::from(x)])))
            .sum();
        self.slot(bulls, shared - bulls)
    }

    /// How many answers a guess can get, the win among them: every bulls and cows pair summing
    /// to at most the length, but one cow beside `length - 1` bulls, which no two codes give.
    pub fn answers(&self) -> u64 {
        let l = self.length as u64;
        (l + 1) * (l + 2) / 2 - 1
    }

    /// The most secrets a strategy can win within `guesses` guesses: the one its guess wins,
    /// then, for each other answer, what it can win with a guess fewer.
    pub fn most_won(&self, guesses: u32) -> u64 {
        (0..guesses).fold(0u64, |n, _| {
            n.saturating_mul(self.answers() - 1).saturating_add(1)
        })
    }
}

/// Appends to `out` every code that extends `code` to `length` symbols of `n`.
fn list_codes(length: usize, n: u8, repeats: bool, code: &mut Code, out: &mut Vec<Code>) {
    if code.len() == length {
        out.push(code.clone());
        return;
    }
    for s in 0..n {
        if repeats || !code.contains(&s) {
            code.push(s);
            list_codes(length, n, repeats, code, out);
            code.pop();
        }
    }
}

/// One renaming that keeps each guess played as it was: positions moved by `positions` (the
/// image's position `i` takes the code's position `positions[i]`), played symbols renamed by
/// `symbols`, and the symbols never played renamed among themselves in any way.
#[derive(Debug, Clone)]
struct Renaming {
    positions: Vec<usize>,
    symbols: Vec<Option<u8>>,
}

/// The renamings of symbols and positions that keep every one of some guesses as it was, which
/// therefore keep every code's answers to them and so the candidates they leave.
#[derive(Debug, Clone)]
pub struct Symmetries {
    played: u64,
    alphabet: usize,
    renamings: Vec<Renaming>,
}

impl Symmetries {
    /// The symmetries of `game` that keep each of `guesses`.
    pub fn new(game: &Game, guesses: &[Code]) -> Symmetries {
        let alphabet = game.symbols.len();
        let mut played = 0u64;
        if game.not_first {
            played |= 1;
        }
        for g in guesses {
            for &s in g {
                played |= 1 << s;
            }
        }
        let mut renamings = Vec::new();
        let mut order: Vec<usize> = (0..game.length).collect();
        each_permutation(&mut order, 0, &mut |positions| {
            if game.not_first && positions[0] != 0 {
                return;
            }
            if let Some(symbols) = forced_symbols(game, guesses, positions) {
                renamings.push(Renaming {
                    positions: positions.to_vec(),
                    symbols,
                });
            }
        });
        Symmetries {
            played,
            alphabet,
            renamings,
        }
    }

    /// Whether `code` is the least (in lexicographic order of symbol indexes) of every code a
    /// symmetry takes it to.
    pub fn is_least(&self, code: &[u8]) -> bool {
        // Compared as it is made, the image is most often settled by its first symbol.
        self.renamings
            .iter()
            .all(|r| self.image(r, code).cmp(code.iter().copied()) != std::cmp::Ordering::Less)
    }

    /// The least code a symmetry takes `code` to.
    pub fn least(&self, code: &[u8]) -> Code {
        self.renamings
            .iter()
            .map(|r| self.image(r, code).collect::<Code>())
            .min()
            .expect("the identity is always a symmetry")
    }

    /// The least image of `code` under `r` and the renamings of unplayed symbols, symbol by
    /// symbol: those take the smallest unplayed symbols in the order they first appear.
    fn image<'a>(&'a self, r: &'a Renaming, code: &'a [u8]) -> impl Iterator<Item = u8> + 'a {
        let mut fresh = (0..self.alphabet as u8).filter(|&s| self.played & (1 << s) == 0);
        let mut renamed = [None; 64];
        r.positions.iter().map(move |&p| {
            let s = usize::from(code[p]);
            match r.symbols[s] {
                Some(t) => t,
                None => *renamed[s].get_or_insert_with(|| {
                    fresh
                        .next()
                        .expect("as many fresh symbols as unplayed ones")
                }),
            }
        })
    }
}

/// The renaming of played symbols that moving positions by `positions` forces for every guess
/// to stay as it was, if there is one: each guess's symbol at `positions[i]` must become its
/// symbol at `i`, consistently and one to one. With a first symbol that may not lead, that
/// symbol stays.
fn forced_symbols(game: &Game, guesses: &[Code], positions: &[usize]) -> Option<Vec<Option<u8>>> {
    let mut map: Vec<Option<u8>> = vec![None; game.symbols.len()];
    let mut taken = vec![false; game.symbols.len()];
    let mut bind = |from: u8, to: u8| -> bool {
        match map[usize::from(from)] {
            Some(t) => t == to,
            None if taken[usize::from(to)] => false,
            None => {
                map[usize::from(from)] = Some(to);
                taken[usize::from(to)] = true;
                true
            }
        }
    };
    if game.not_first && !bind(0, 0) {
        return None;
    }
    for g in guesses {
        for (i, &p) in positions.iter().enumerate() {
            if !bind(g[p], g[i]) {
                return None;
            }
        }
    }
    Some(map)
}

/// Calls `f` with every ordering of `items[k..]` after the fixed `items[..k]`.
fn each_permutation(items: &mut Vec<usize>, k: usize, f: &mut impl FnMut(&[usize])) {
    if k == items.len() {
        f(items);
        return;
    }
    for i in k..items.len() {
        items.swap(k, i);
        each_permutation(items, k + 1, f);
        items.swap(k, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mastermind() -> Game {
        Game::new(4, "123456".chars().collect(), true, false)
    }

    #[test]
    fn the_codes_follow_the_rules() {
        assert_eq!(mastermind().codes.len(), 1296);
        assert_eq!(
            Game::new(4, "0123456789".chars().collect(), false, false)
                .codes
                .len(),
            5040
        );
        assert_eq!(
            Game::new(4, "0123456789".chars().collect(), false, true)
                .codes
                .len(),
            4536
        );
    }

    #[test]
    fn scores_count_each_shared_symbol_once() {
        let g = mastermind();
        let code = |t: &str| g.index(&g.parse(t).unwrap()).unwrap();
        assert_eq!(g.score(code("1122"), code("1222")), g.slot(3, 0));
        assert_eq!(g.score(code("1122"), code("2211")), g.slot(0, 4));
        assert_eq!(g.score(code("1234"), code("5612")), g.slot(0, 2));
        assert_eq!(g.score(code("1111"), code("1234")), g.slot(1, 0));
        assert_eq!(g.score(code("1213"), code("3112")), g.slot(1, 3));
    }

    #[test]
    fn a_score_is_the_same_either_way_round() {
        // The two-guess test reads a secret's row along the guesses on this ground.
        let g = mastermind();
        for a in 0..g.codes.len() {
            for b in 0..g.codes.len() {
                assert_eq!(g.score(a, b), g.score(b, a), "{a} {b}");
            }
        }
    }

    #[test]
    fn the_empty_history_leaves_one_opening_per_pattern() {
        let g = mastermind();
        let sym = Symmetries::new(&g, &[]);
        let least: Vec<String> = g
            .codes
            .iter()
            .filter(|c| sym.is_least(c))
            .map(|c| g.format(c))
            .collect();
        assert_eq!(least, ["1111", "1112", "1122", "1123", "1234"]);
    }

    #[test]
    fn a_played_guess_keeps_its_own_symmetries() {
        let g = mastermind();
        let played = g.parse("1122").unwrap();
        let sym = Symmetries::new(&g, std::slice::from_ref(&played));
        // Swapping the first two positions, or the last two, keeps 1122; so does swapping the
        // halves with 1 and 2 exchanged.
        assert_eq!(g.format(&sym.least(&g.parse("2113").unwrap())), "1213");
        assert_eq!(g.format(&sym.least(&g.parse("3412").unwrap())), "1234");
        assert_eq!(g.format(&sym.least(&g.parse("6655").unwrap())), "3344");
        assert!(!sym.is_least(&g.parse("2111").unwrap()));
    }
}
