//! The exact cracker: recovers any long secret with few queries, by counting symbols and then
//! locating single occurrences several at a time.
//!
//! # Design
//!
//! **Counting.** With repeats, the bulls of `cccc…` is the number of `c`s; the last symbol's count
//! is what is left, and counting stops as soon as every position is accounted for. In a distinct game
//! whose alphabet is exactly as long as the code every count is 1 and costs nothing; with a larger
//! alphabet the cows do the work: a query holding each symbol of a set `S` at least once scores
//! `bulls + cows = |S ∩ secret|`, so the present symbols are found by splitting sets in halves.
//!
//! **Bootstrap: two symbols by differences.** The usual way to locate a symbol `r` is to put it on
//! half a block and an absent filler everywhere else, so the bulls count the `r`s in that half. A
//! long secret rarely has an absent symbol (300 positions over 37 symbols miss one with probability
//! about 1%), so the first two symbols are located without one: the query is `r` on a half `L` and
//! a second symbol `s` on every other position. Every `s` outside `L` scores, so the bulls are
//! `count_r(L) + count_s - count_s(L)`, and with `count_s` known the query yields the difference
//! `count_r(L) - count_s(L)`. A difference can be ambiguous (`0` is "neither" or "one of each"), so
//! each block carries the set of `(count_r, count_s)` pairs still possible; a split whose answer is
//! forced is not asked, and a block small enough has every placement listed and is settled by the
//! test that splits the placements most evenly. The two rarest symbols are chosen, since the
//! ambiguity needs both in one block. Afterwards `r` is a neutral filler.
//!
//! **Isolating, then locating single occurrences together.** Each further symbol is split in
//! halves (`c` on one half, the neutral symbol elsewhere, so the bulls count the `c`s there) until
//! every part holds no `c`, only `c`, or exactly one `c`. A part with one `c` is an *item*: one
//! occurrence among known candidates. Items are located up to four at a time: each query puts each
//! item's symbol on a bit slice of its candidates, the answer is the number of hits (0 to 4), and
//! the joint candidates (one candidate per item) are listed explicitly so that each query can be
//! the slice combination whose answer splits them most evenly. One answer thus settles about a bit
//! of several items at once, which is where most of the saving over one-bit binary search comes
//! from. A distinct game starts with every symbol an item (its candidates are all unknown
//! positions); there, before anything is located, the second item's own symbol fills the query,
//! which is exact because it occurs only once. Positions already located are never queried again,
//! and the last symbol takes whatever positions remain.
//!
//! The algorithm never guesses: every deduction keeps the true counts among the candidates, and the
//! search only stops when a block's contents are forced, so the result is always exactly the
//! secret.

use crate::{LongCode, LongRules, Oracle};

/// Recovers the secret behind `oracle`, which must hide a valid code of `rules`.
///
/// Every query goes through the oracle, so [`Oracle::queries`] afterwards is the honest cost,
/// including the counting queries.
///
/// # Panics
/// If the oracle's secret does not match `rules` (length, alphabet size, or repeats in a distinct
/// game), since then the deductions would contradict each other.
pub fn crack(rules: &LongRules, oracle: &mut Oracle) -> LongCode {
    assert_eq!(oracle.length(), rules.length(), "oracle and rules disagree");
    assert_eq!(
        oracle.symbols(),
        rules.alphabet().len(),
        "oracle and rules disagree"
    );
    let mut cracker = Cracker {
        oracle,
        n: rules.length(),
        k: rules.alphabet().len(),
        repeats: rules.repeats(),
        known: vec![UNKNOWN; rules.length()],
        query: vec![0; rules.length()],
    };
    let counts = if rules.repeats() {
        cracker.count_with_repeats()
    } else {
        count_distinct(cracker.oracle, cracker.n, cracker.k)
    };
    cracker.locate(counts);
    LongCode(cracker.known)
}

const UNKNOWN: u16 = u16::MAX;

/// Joint candidates scored per test when choosing a pair query.
const SAMPLE: usize = 1000;

/// Items located together by one run of queries, at most.
const GROUP: usize = 4;

/// The longest joint candidate list a group may start with (pairs excepted).
const JOINT_LIMIT: usize = 100_000;

/// Joint candidates few enough to also try single-position tests.
const SINGLES: usize = 64;

struct Cracker<'a> {
    oracle: &'a mut Oracle,
    n: usize,
    k: usize,
    repeats: bool,
    /// The symbol at each position, or [`UNKNOWN`].
    known: Vec<u16>,
    /// A reusable query buffer.
    query: Vec<u16>,
}

/// Placements of `r` and `s` in a block few enough to list and choose tests over.
const ENUMERATE: usize = 20_000;

/// How many ways `r` and `s` can sit in a block of `len` positions with counts among `pairs`.
fn placements(len: u32, pairs: &[(u32, u32)]) -> f64 {
    let choose =
        |n: u32, k: u32| (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1));
    pairs
        .iter()
        .map(|&(a, b)| choose(len, a) * choose(len - a, b))
        .sum()
}

/// Counts of `(r, s)` still possible in a block.
type Pairs = Vec<(u32, u32)>;

impl Cracker<'_> {
    fn ask_bulls(&mut self) -> u32 {
        self.oracle.ask(&self.query).bulls
    }

    fn count_with_repeats(&mut self) -> Vec<u32> {
        let mut counts = vec![0u32; self.k];
        let mut left = self.n as u32;
        let k = self.k;
        for (c, count) in counts.iter_mut().enumerate() {
            if left == 0 {
                break;
            }
            if c + 1 == k {
                *count = left;
                break;
            }
            self.query.fill(c as u16);
            *count = self.ask_bulls();
            left -= *count;
        }
        counts
    }

    fn locate(&mut self, counts: Vec<u32>) {
        let mut present: Vec<u16> = (0..self.k as u16)
            .filter(|&c| counts[usize::from(c)] > 0)
            .collect();
        let mut unknown: Vec<usize> = (0..self.n).collect();
        let mut neutral = (0..self.k as u16).find(|&c| counts[usize::from(c)] == 0);
        if neutral.is_none() && self.repeats && present.len() >= 2 {
            // No symbol is absent, so no query can test one symbol alone yet. Locate the two
            // rarest symbols together by differences (see `PairSearch`): with few occurrences the
            // ambiguous blocks holding both are rare, and afterwards either symbol is a neutral
            // filler for every position still unknown.
            present.sort_by_key(|&c| counts[usize::from(c)]);
            let (r, s) = (present[0], present[1]);
            let (cr, cs) = (counts[usize::from(r)], counts[usize::from(s)]);
            let others = self.n as u32 - cr - cs;
            PairSearch {
                r,
                s,
                count_s: cs,
                others,
            }
            .solve(self, &unknown, vec![(cr, cs)]);
            unknown.retain(|&i| self.known[i] == UNKNOWN);
            present.drain(..2);
            neutral = Some(r);
        }
        // Most frequent symbols first: they shrink the unknown positions fastest.
        present.sort_by_key(|&c| std::cmp::Reverse(counts[usize::from(c)]));
        let Some((&last, rest)) = present.split_last() else {
            return;
        };
        let mut pending: Vec<Item> = Vec::new();
        let mut done: Vec<u16> = Vec::new();
        for &c in rest {
            let mut items = Vec::new();
            let count = counts[usize::from(c)];
            self.isolate(c, &unknown, count, neutral, &mut items);
            for item in items {
                // Up to four items per query answer up to log2(5) bits; the joint list is capped,
                // so large candidate sets go in smaller groups (pairs at least).
                let product: usize = pending.iter().map(|it| it.candidates.len()).product();
                if pending.len() >= 2 && product * item.candidates.len() > JOINT_LIMIT {
                    self.group(&pending, neutral);
                    pending.clear();
                }
                pending.push(item);
                if pending.len() == GROUP {
                    self.group(&pending, neutral);
                    pending.clear();
                }
            }
            // Positions of pending items stay unknown until their group is settled.
            unknown.retain(|&i| self.known[i] == UNKNOWN);
            done.push(c);
            if neutral.is_none() {
                // A symbol with every occurrence located can score nowhere among the unknown
                // positions.
                neutral = done
                    .iter()
                    .copied()
                    .find(|&d| pending.iter().all(|it| it.symbol != d));
            }
        }
        if !pending.is_empty() {
            if neutral.is_none() && pending.len() == 1 {
                // Only in a distinct game of two symbols: the last symbol, once in the secret,
                // is the partner (and its own fill).
                pending.push(Item {
                    symbol: last,
                    candidates: unknown.clone(),
                });
            }
            self.group(&pending, neutral);
        }
        for i in 0..self.n {
            if self.known[i] == UNKNOWN {
                self.known[i] = last;
            }
        }
    }

    /// The query of `tests` (symbol, positions) with every other position unable to score: a
    /// wrong symbol on known positions, the neutral symbol (or `fill`) on unknown ones.
    fn build_query(&mut self, fill: u16) {
        for i in 0..self.n {
            let k = self.known[i];
            self.query[i] = if k == fill {
                // Any other symbol is wrong here.
                if fill == 0 {
                    1
                } else {
                    0
                }
            } else {
                fill
            };
        }
    }

    /// Splits `block` (holding `count` of `c`, none located yet) until every part holds no `c`,
    /// only `c`, or exactly one `c`; the last kind become items.
    fn isolate(
        &mut self,
        c: u16,
        block: &[usize],
        count: u32,
        neutral: Option<u16>,
        items: &mut Vec<Item>,
    ) {
        let len = block.len() as u32;
        if count == 0 {
            return;
        }
        if count == len {
            for &i in block {
                self.known[i] = c;
            }
            return;
        }
        if count == 1 {
            items.push(Item {
                symbol: c,
                candidates: block.to_vec(),
            });
            return;
        }
        let fill =
            neutral.expect("several occurrences are only split once a neutral symbol exists");
        let (left, right) = block.split_at(block.len() / 2);
        self.build_query(fill);
        for &i in left {
            self.query[i] = c;
        }
        let in_left = self.ask_bulls();
        self.isolate(c, left, in_left, neutral, items);
        self.isolate(c, right, count - in_left, neutral, items);
    }

    /// Locates the single occurrences of a few items together: each query tests a subset of each
    /// item's candidates, and the answer is the number of hits, so one query settles about a bit
    /// of each. The joint candidates (one candidate per item, no two on one position) are kept
    /// explicitly, and each query is the bit-slice test (for item `i`, the candidates whose index
    /// has bit `j_i` equal to `i % 2`) whose answer splits them most evenly.
    fn group(&mut self, items: &[Item], neutral: Option<u16>) {
        let g = items.len();
        let mut joint: Vec<u32> = Vec::new();
        let mut tuple = vec![0u32; g];
        joint_tuples(items, 0, &mut tuple, &mut joint);
        // Without a neutral symbol (a distinct game before anything is located) the last item's
        // symbol fills the rest: it occurs only at that item's position, so hits stay exact.
        let fill = neutral.unwrap_or(items[g - 1].symbol);
        let mut scratch = Scratch::new(items);
        while joint.len() > g {
            let (entropy, slices) = self.best_slices(items, fill, &joint, &mut scratch);
            match self.best_single(items, fill, &joint, entropy, &mut scratch) {
                Some((p, sym)) => {
                    self.build_query(fill);
                    self.query[p] = sym;
                }
                None => self.slice_query(items, fill, &slices),
            }
            let answer = self.ask_bulls() as usize;
            self.histogram(items, &[], &mut scratch.hits, &mut scratch.hist);
            joint = consistent(&joint, &scratch.hits, answer);
        }
        for (item, &x) in items.iter().zip(&joint) {
            self.known[item.candidates[x as usize]] = item.symbol;
        }
    }

    /// The bit-slice combination whose answer splits (a sample of) the joint candidates most
    /// evenly, with that answer's entropy.
    fn best_slices(
        &mut self,
        items: &[Item],
        fill: u16,
        joint: &[u32],
        scratch: &mut Scratch,
    ) -> (f64, Vec<usize>) {
        let g = items.len();
        let count = joint.len() / g;
        let stride = count / SAMPLE + 1;
        let sample: Vec<u32> = joint.chunks(g).step_by(stride).flatten().copied().collect();
        let large = count > SAMPLE;
        let mut best: Option<(f64, Vec<usize>)> = None;
        let mut slices = vec![0usize; g];
        loop {
            // While the joint set is large only matched slices (one bit for every tested item)
            // are scored; `bits[i]` means item `i` is not tested.
            if !large || matched(&slices, &scratch.bits) {
                self.slice_query(items, fill, &slices);
                self.histogram(items, &sample, &mut scratch.hits, &mut scratch.hist);
                let e = entropy_of(&scratch.hist, sample.len() / g);
                if best.as_ref().is_none_or(|(b, _)| e > *b + 1e-9) {
                    best = Some((e, slices.clone()));
                }
            }
            if !next_combination(&mut slices, &scratch.bits) {
                break;
            }
        }
        best.expect("at least one test was scored")
    }

    /// One symbol on one candidate position, if that splits the joint candidates better than the
    /// best bit slices' `entropy`: bit slices cannot tell every tuple apart (without a neutral
    /// symbol they only see differences), but a single position always can. Tried only when the
    /// slices are weak and the candidates few (or the slices useless).
    fn best_single(
        &mut self,
        items: &[Item],
        fill: u16,
        joint: &[u32],
        mut entropy: f64,
        scratch: &mut Scratch,
    ) -> Option<(usize, u16)> {
        let count = joint.len() / items.len();
        if entropy >= 1.0 || (count > SINGLES && entropy > 0.0) {
            return None;
        }
        let mut single = None;
        for t in joint.chunks(items.len()) {
            for (item, &x) in items.iter().zip(t) {
                for other in items {
                    let spot = (item.candidates[x as usize], other.symbol);
                    self.build_query(fill);
                    self.query[spot.0] = spot.1;
                    self.histogram(items, joint, &mut scratch.hits, &mut scratch.hist);
                    let e = entropy_of(&scratch.hist, count);
                    if e > entropy + 1e-9 {
                        entropy = e;
                        single = Some(spot);
                    }
                }
            }
        }
        single
    }

    /// Writes the query testing, for each item `i`, the candidates whose index has bit
    /// `slices[i]` equal to `i % 2` (a bit past the index width tests nothing); an earlier item
    /// wins a shared position.
    fn slice_query(&mut self, items: &[Item], fill: u16, slices: &[usize]) {
        self.build_query(fill);
        for (i, item) in items.iter().enumerate().rev() {
            let width = index_bits(item.candidates.len());
            if slices[i] >= width {
                continue;
            }
            for (x, &p) in item.candidates.iter().enumerate() {
                if (x >> slices[i]) & 1 == i % 2 {
                    self.query[p] = item.symbol;
                }
            }
        }
    }

    /// For the current query: which candidates of each item would score, and how many of the
    /// `joint` tuples give each answer.
    fn histogram(&self, items: &[Item], joint: &[u32], hits: &mut [Vec<bool>], hist: &mut [usize]) {
        for (item, h) in items.iter().zip(hits.iter_mut()) {
            for (hit, &p) in h.iter_mut().zip(&item.candidates) {
                *hit = self.query[p] == item.symbol;
            }
        }
        hist.fill(0);
        for t in joint.chunks(items.len()) {
            let sum: usize = t
                .iter()
                .zip(hits.iter())
                .map(|(&x, h)| usize::from(h[x as usize]))
                .sum();
            hist[sum] += 1;
        }
    }
}

/// Appends every tuple of candidate indexes, one per item from `i` on, with no two items on the
/// same position.
fn joint_tuples(items: &[Item], i: usize, tuple: &mut [u32], out: &mut Vec<u32>) {
    if i == items.len() {
        out.extend_from_slice(tuple);
        return;
    }
    for (x, &p) in items[i].candidates.iter().enumerate() {
        let taken = (0..i).any(|j| items[j].candidates[tuple[j] as usize] == p);
        if !taken {
            tuple[i] = x as u32;
            joint_tuples(items, i + 1, tuple, out);
        }
    }
}

/// The buffers one group's queries are scored with.
struct Scratch {
    /// Index bits of each item's candidates; slice `bits[i]` tests none of item `i`.
    bits: Vec<usize>,
    /// Per item, which candidates the current query would score.
    hits: Vec<Vec<bool>>,
    /// How many tuples give each answer.
    hist: Vec<usize>,
}

impl Scratch {
    fn new(items: &[Item]) -> Scratch {
        Scratch {
            bits: items
                .iter()
                .map(|it| index_bits(it.candidates.len()))
                .collect(),
            hits: items
                .iter()
                .map(|it| vec![false; it.candidates.len()])
                .collect(),
            hist: vec![0; items.len() + 1],
        }
    }
}

/// Whether every tested item is tested on the same bit (items past their width are untested).
fn matched(slices: &[usize], bits: &[usize]) -> bool {
    let first = slices
        .iter()
        .zip(bits)
        .find(|(j, b)| j < b)
        .map(|(j, _)| *j);
    slices
        .iter()
        .zip(bits)
        .all(|(j, b)| j == b || Some(*j) == first)
}

/// Steps `slices` to the next combination, odometer style (each `slices[i]` in `0..=bits[i]`);
/// false once every combination was seen.
fn next_combination(slices: &mut [usize], bits: &[usize]) -> bool {
    for (s, &b) in slices.iter_mut().zip(bits) {
        *s += 1;
        if *s <= b {
            return true;
        }
        *s = 0;
    }
    false
}

/// The tuples of `joint` whose hits under the query asked add up to its `answer`.
fn consistent(joint: &[u32], hits: &[Vec<bool>], answer: usize) -> Vec<u32> {
    let mut kept = Vec::with_capacity(joint.len());
    for t in joint.chunks(hits.len()) {
        let sum: usize = t
            .iter()
            .zip(hits)
            .map(|(&x, h)| usize::from(h[x as usize]))
            .sum();
        if sum == answer {
            kept.extend_from_slice(t);
        }
    }
    kept
}

/// The entropy in bits of answers split as `hist` over `total` candidates.
fn entropy_of(hist: &[usize], total: usize) -> f64 {
    let total = total as f64;
    hist.iter()
        .filter(|&&h| h > 0)
        .map(|&h| -(h as f64 / total) * (h as f64 / total).log2())
        .sum()
}

/// Lists every way to give `a` positions from `from` on the role 1 and `b` the role 2.
fn place(roles: &mut [u8], from: usize, a: u32, b: u32, out: &mut Vec<Vec<u8>>) {
    if a == 0 && b == 0 {
        out.push(roles.to_vec());
        return;
    }
    if roles.len() - from < (a + b) as usize {
        return;
    }
    if a > 0 {
        roles[from] = 1;
        place(roles, from + 1, a - 1, b, out);
    }
    if b > 0 {
        roles[from] = 2;
        place(roles, from + 1, a, b - 1, out);
    }
    roles[from] = 0;
    place(roles, from + 1, a, b, out);
}

/// Bits needed to write every index below `len`; testing bit `index_bits(len)` tests nothing.
fn index_bits(len: usize) -> usize {
    (usize::BITS - (len.max(2) - 1).leading_zeros()) as usize
}

/// One occurrence of `symbol`, known to lie at exactly one of `candidates` (and no other
/// occurrence of it lies there).
struct Item {
    symbol: u16,
    candidates: Vec<usize>,
}

/// The search for the positions of two symbols `r` and `s` among the unknown positions.
struct PairSearch {
    r: u16,
    s: u16,
    /// How many `s` the secret holds (all of them among the positions searched).
    count_s: u32,
    /// How many positions searched hold neither symbol.
    others: u32,
}

impl PairSearch {
    /// `count_r(L) - count_s(L)` from one query: `r` on `L`, `s` everywhere else.
    fn difference(&self, cracker: &mut Cracker<'_>, left: &[usize]) -> i64 {
        cracker.query.fill(self.s);
        for &i in left {
            cracker.query[i] = self.r;
        }
        i64::from(cracker.ask_bulls()) - i64::from(self.count_s)
    }

    fn feasible(&self, len: u32, (a, b): (u32, u32)) -> bool {
        a + b <= len && len - a - b <= self.others
    }

    fn assign(cracker: &mut Cracker<'_>, block: &[usize], symbol: u16) {
        for &i in block {
            cracker.known[i] = symbol;
        }
    }

    /// Settles a small block by listing every placement of `r` and `s` it may hold and asking, each
    /// time, the test (`r` on one bit slice of the block, or on one position) whose answer splits
    /// the placements most evenly. Halving alone cannot tell "neither symbol here" from "one of
    /// each" without going down to single positions; a listed set of placements can.
    fn enumerate(&mut self, cracker: &mut Cracker<'_>, block: &[usize], pairs: &Pairs) {
        let len = block.len();
        // Each placement: the role of every position (0 other, 1 r, 2 s).
        let mut options: Vec<Vec<u8>> = Vec::new();
        for &(a, b) in pairs {
            let mut roles = vec![0u8; len];
            place(&mut roles, 0, a, b, &mut options);
        }
        let bits = index_bits(len);
        let mut test = vec![false; len];
        let mut hist = vec![0usize; 2 * len + 1];
        let value = |roles: &[u8], test: &[bool]| -> usize {
            let mut v = len as i64;
            for (&role, &t) in roles.iter().zip(test) {
                if t {
                    v += i64::from(role == 1) - i64::from(role == 2);
                }
            }
            v as usize
        };
        while options.len() > 1 {
            let mut best: Option<(f64, Vec<bool>)> = None;
            let singles = options.len() <= SINGLES;
            for j in 0..bits + if singles { len } else { 0 } {
                for (i, t) in test.iter_mut().enumerate() {
                    *t = if j < bits {
                        (i >> j) & 1 == 0
                    } else {
                        i == j - bits
                    };
                }
                hist.fill(0);
                for roles in &options {
                    hist[value(roles, &test)] += 1;
                }
                let e = entropy_of(&hist, options.len());
                if best.as_ref().is_none_or(|(b, _)| e > *b + 1e-9) {
                    best = Some((e, test.clone()));
                }
            }
            let (e, mut chosen) = best.expect("a test was scored");
            if e <= 0.0 {
                // Slices cannot split these placements; a single position always can.
                let (first, second) = (&options[0], &options[1]);
                let i = (0..len).find(|&i| first[i] != second[i]).unwrap_or(0);
                chosen = (0..len).map(|x| x == i).collect();
            }
            let inside: Vec<usize> = (0..len).filter(|&i| chosen[i]).map(|i| block[i]).collect();
            let d = self.difference(cracker, &inside);
            options.retain(|roles| value(roles, &chosen) as i64 - len as i64 == d);
        }
        for (i, &role) in options[0].iter().enumerate() {
            match role {
                1 => cracker.known[block[i]] = self.r,
                2 => cracker.known[block[i]] = self.s,
                _ => {}
            }
        }
    }

    /// Settles every position of `block` that holds `r` or `s`, given the pairs
    /// `(count_r, count_s)` the block may hold (the true one among them).
    fn solve(&mut self, cracker: &mut Cracker<'_>, block: &[usize], mut pairs: Pairs) {
        let len = block.len() as u32;
        pairs.retain(|&p| self.feasible(len, p));
        debug_assert!(!pairs.is_empty(), "the true counts were lost");
        if let [(a, b)] = pairs[..] {
            if a == 0 && b == 0 {
                return;
            }
            if a == len {
                return Self::assign(cracker, block, self.r);
            }
            if b == len {
                return Self::assign(cracker, block, self.s);
            }
        }
        if placements(len, &pairs) <= ENUMERATE as f64 {
            return self.enumerate(cracker, block, &pairs);
        }
        if len == 1 {
            match self.difference(cracker, block) {
                1 => Self::assign(cracker, block, self.r),
                -1 => Self::assign(cracker, block, self.s),
                _ => {}
            }
            return;
        }
        let h = len / 2;
        let (left, right) = block.split_at(h as usize);
        let mut left_pairs: Pairs = Vec::new();
        for &(a_all, b_all) in &pairs {
            for a in 0..=a_all.min(h) {
                for b in 0..=b_all.min(h) {
                    if self.feasible(h, (a, b))
                        && self.feasible(len - h, (a_all - a, b_all - b))
                        && !left_pairs.contains(&(a, b))
                    {
                        left_pairs.push((a, b));
                    }
                }
            }
        }
        let first = i64::from(left_pairs[0].0) - i64::from(left_pairs[0].1);
        let forced = left_pairs
            .iter()
            .all(|&(a, b)| i64::from(a) - i64::from(b) == first);
        let d = if forced {
            first
        } else {
            self.difference(cracker, left)
        };
        left_pairs.retain(|&(a, b)| i64::from(a) - i64::from(b) == d);
        self.solve(cracker, left, left_pairs);
        let count = |sym: u16| left.iter().filter(|&&i| cracker.known[i] == sym).count() as u32;
        let (a, b) = (count(self.r), count(self.s));
        let mut right_pairs: Pairs = Vec::new();
        for &(a_all, b_all) in &pairs {
            if a_all >= a && b_all >= b && !right_pairs.contains(&(a_all - a, b_all - b)) {
                right_pairs.push((a_all - a, b_all - b));
            }
        }
        self.solve(cracker, right, right_pairs);
    }
}

/// Which symbols a distinct secret of length `n` over `k` symbols uses (each once), found by
/// group tests on the cows: the opening of both exact crackers.
pub(super) fn count_distinct(oracle: &mut Oracle, n: usize, k: usize) -> Vec<u32> {
    let mut counts = vec![0u32; k];
    if k == n {
        counts.fill(1);
        return counts;
    }
    let mut query = vec![0u16; n];
    // Groups of at most n symbols fit in one query; the last group's count is what is left.
    let all: Vec<u16> = (0..k as u16).collect();
    let groups: Vec<&[u16]> = all.chunks(n).collect();
    let mut left = n as u32;
    for (g, group) in groups.iter().enumerate() {
        let present = if g + 1 == groups.len() {
            left
        } else {
            present_in(oracle, &mut query, group)
        };
        left -= present;
        split_present(oracle, &mut query, group, present, &mut counts);
    }
    counts
}

/// `|set ∩ secret|` for a set of at most n symbols, from one query's bulls + cows.
fn present_in(oracle: &mut Oracle, query: &mut [u16], set: &[u16]) -> u32 {
    for (i, slot) in query.iter_mut().enumerate() {
        *slot = set[i % set.len()];
    }
    let fb = oracle.ask(query);
    fb.bulls + fb.cows
}

/// Marks the `present` members of `set` in `counts`, halving the set with one query per split.
fn split_present(
    oracle: &mut Oracle,
    query: &mut [u16],
    set: &[u16],
    present: u32,
    counts: &mut [u32],
) {
    if present == 0 {
        return;
    }
    if present as usize == set.len() {
        for &c in set {
            counts[usize::from(c)] = 1;
        }
        return;
    }
    let (left, right) = set.split_at(set.len() / 2);
    let in_left = present_in(oracle, query, left);
    split_present(oracle, query, left, in_left, counts);
    split_present(oracle, query, right, present - in_left, counts);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Alphabet;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn check(rules: &LongRules, seed: u64) -> u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let secret = rules.random_code(&mut rng);
        let mut oracle = Oracle::new(&secret, rules.alphabet().len());
        let found = crack(rules, &mut oracle);
        assert_eq!(found, secret, "seed {seed}");
        oracle.queries()
    }

    #[test]
    fn recovers_text_secrets_with_repeats() {
        let rules = LongRules::new(300, Alphabet::text(), true).unwrap();
        for seed in 0..3 {
            check(&rules, seed);
        }
    }

    #[test]
    fn recovers_distinct_secrets() {
        let rules = LongRules::new(300, Alphabet::unicode(300), false).unwrap();
        check(&rules, 1);
        let rules = LongRules::new(50, Alphabet::unicode(300), false).unwrap();
        check(&rules, 2);
    }

    #[test]
    fn one_symbol_alphabet_needs_no_query() {
        let rules = LongRules::new(5, Alphabet::new("x").unwrap(), true).unwrap();
        assert_eq!(check(&rules, 0), 0);
    }
    mod properties {
        //! The exact cracker recovers every secret, whatever the alphabet, length and repeat rule,
        //! and never asks more than a plain per-position search would.
        use super::super::*;
        use crate::testing::{long_game, small_game};
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(128))]

            #[test]
            fn recovers_every_small_secret((rules, secret) in small_game(1..=12)) {
                prop_assert!(rules.check_code(&secret).is_ok());
                let mut oracle = Oracle::new(&secret, rules.alphabet().len());
                prop_assert_eq!(&crack(&rules, &mut oracle), &secret);
                // Counting, then trying each symbol at each position in turn.
                let k = rules.alphabet().len() as u64;
                let naive = k + rules.length() as u64 * k.saturating_sub(1);
                prop_assert!(oracle.queries() <= naive, "{} queries", oracle.queries());
            }

            #[test]
            fn recovers_long_secrets_over_large_alphabets((rules, secret) in long_game()) {
                let mut oracle = Oracle::new(&secret, rules.alphabet().len());
                prop_assert_eq!(crack(&rules, &mut oracle), secret);
            }
        }
    }
}
