//! Candidate sets that are the same up to the game's symmetries share one cache entry.
//!
//! Relabelling symbols and permuting positions maps the code space onto itself and keeps every
//! score, so a set and its image cost the same, under any depth limit and either guess pool (a
//! consistent guess maps to a consistent guess). The search meets many such images along
//! different paths: after two guesses the history's own symmetries are mostly gone, so it
//! cannot skip them by choosing guesses, but their sets still repeat up to relabelling.
//!
//! [`Classes::key`] names a set by one image of it, the same for every set of its class
//! whenever it can: the least sorted image over a few relabellings, each fixed by an anchor
//! member (mapped to the smallest symbols) and a position order, the other symbols named as they
//! first appear in the members chosen smallest-first. Only anchors and orders that a symmetry
//! cannot tell apart from the best ones are tried (the anchor's feedback counts over the set,
//! the column counts of its symbols), so every set of a class tries the images of the same
//! relabellings. Two members can tie in the smallest-first choice and leave a symbol's name to
//! the original labels; two sets of one class then get different keys, which costs a search,
//! never a wrong answer: every key is an image of its set, so equal keys always mean equivalent
//! sets.

use super::lower_bounds::Bounds;
use super::pairs::PartPairs;
use crate::code::Code;
use crate::space::CodeSpace;
use crate::symmetry::{permutations, MAX_PERMUTED_LENGTH};

/// An unnamed symbol.
const NONE: u8 = u8::MAX;

/// A relabelled code, four bits a symbol, first position highest: the order of codes in the
/// space.
type Image = u32;

/// The relabellings of one game, for naming sets up to them.
pub(super) struct Classes {
    length: usize,
    /// The position orders allowed (the first position stays first when a symbol is barred
    /// from it).
    orders: Vec<[u8; MAX_PERMUTED_LENGTH]>,
    /// The symbols that may be renamed, smallest first: the names given out in turn (the rest
    /// unused). An array of 16 so that indexing by a count of names needs no bounds check.
    names: [u8; 16],
    /// Symbols that keep their name (the barred leading symbol).
    fixed: u64,
    /// 1 when the first position stays first (a symbol is barred from it), else 0.
    lead: usize,
}

/// A member's symbols in the position order of one relabelling.
type Moved = [u8; MAX_PERMUTED_LENGTH];

/// Sets smaller than this are searched again rather than named: a small set's search costs
/// about as much as naming it, and it is rarely met again under another labelling (measured in
/// the book's `docs/src/performance.md`).
pub(super) const CLASS_MIN: usize = 10;

/// The most relabellings, counted as anchors times members, that naming one set may try. Sets
/// with many interchangeable members (the large ones near the root) would take quadratic time
/// per anchor to name, and repeat up to relabelling least.
const WORK: usize = 4096;

/// Larger sets are not named: finding their anchors alone scores every pair of members.
const CLASS_MAX: usize = 1024;

impl Classes {
    /// The relabellings of `space`, if its codes fit the packed images (an alphabet of up to 16
    /// symbols, codes of up to [`MAX_PERMUTED_LENGTH`]).
    pub(super) fn new(space: &CodeSpace) -> Option<Classes> {
        let rules = space.rules();
        let length = space.length();
        let alphabet = rules.alphabet().len();
        if alphabet > 16 || length > MAX_PERMUTED_LENGTH || length == 0 {
            return None;
        }
        let barred = rules.no_leading();
        let mut orders = Vec::new();
        let mut order: Vec<u8> = (0..length as u8).collect();
        permutations(&mut order, 0, &mut |p| {
            if !barred || p[0] == 0 {
                let mut o = [0u8; MAX_PERMUTED_LENGTH];
                o[..length].copy_from_slice(p);
                orders.push(o);
            }
        });
        let fixed = u64::from(barred);
        Some(Classes {
            length,
            orders,
            names: {
                let mut names = [NONE; 16];
                let free = (0..alphabet as u8).filter(|&s| fixed & (1 << s) == 0);
                for (n, s) in names.iter_mut().zip(free) {
                    *n = s;
                }
                names
            },
            fixed,
            lead: usize::from(barred),
        })
    }

    /// Whether a set of `n` members is worth naming.
    pub(super) fn worth(n: usize) -> bool {
        (CLASS_MIN..=CLASS_MAX).contains(&n)
    }

    /// The name of `set`'s class: the least image of the set found ([`Classes::key`]), or
    /// `None` when it cannot be named.
    ///
    /// `pairs`, when the set is a part of a searched set that gathered its pairwise feedbacks,
    /// gives the members' feedbacks from that small table instead of the score table.
    pub(super) fn name(
        &self,
        bounds: &Bounds,
        set: &[u32],
        pairs: Option<PartPairs>,
    ) -> Option<Vec<u32>> {
        let spread = match pairs {
            Some(pairs) => {
                let at = pairs.at();
                spread(set.len(), |i| pairs.row(i), |j| usize::from(at[j]))
            }
            None => {
                let len = bounds.row(0).len();
                // Every row has the space's length: one bounds check covers a step's reads.
                spread(
                    set.len(),
                    |i| &bounds.row(set[i])[..len],
                    |j| set[j] as usize,
                )
            }
        };
        let mut key = Vec::with_capacity(set.len());
        self.key(bounds.space, set, &spread, &mut key);
        (!key.is_empty()).then_some(key)
    }

    /// The name of `set`'s class, as sorted code indexes, into `out`; `spread[i]` is an
    /// invariant of member `i` under every symmetry (its feedback counts over the set). Leaves
    /// `out` empty when naming would take too long ([`WORK`]). The name is the least of the
    /// set's images under the relabellings worth trying ([`Classes::tries`]).
    pub(super) fn key(&self, space: &CodeSpace, set: &[u32], spread: &[u64], out: &mut Vec<u32>) {
        out.clear();
        let codes = space.codes();
        let Some(tries) = self.tries(codes, set, spread) else {
            return;
        };
        let present = space.symbols_held(set);
        let to_name = (present & !self.fixed).count_ones() as usize;
        let mut best: Vec<Image> = Vec::new();
        let mut images: Vec<Image> = Vec::with_capacity(set.len());
        let mut done = vec![false; set.len()];
        let mut moved: Vec<Moved> = Vec::with_capacity(set.len());
        for &(anchor, order) in &tries {
            // The members with their positions in `order`, read over and over below.
            moved.clear();
            moved.extend(set.iter().map(|&c| {
                let code = codes[c as usize].symbols();
                let mut m = [0u8; MAX_PERMUTED_LENGTH];
                for (to, &p) in m.iter_mut().zip(order) {
                    *to = code[usize::from(p)];
                }
                m
            }));
            let name = self.relabelling(&moved, spread, (anchor, order), to_name, &mut done);
            let l = self.length;
            images.clear();
            images.extend(moved.iter().map(|m| {
                m[..l].iter().fold(0, |image, &s| {
                    image << 4 | Image::from(name[usize::from(s)])
                })
            }));
            images.sort_unstable();
            if best.is_empty() || images < best {
                std::mem::swap(&mut best, &mut images);
            }
        }
        let l = self.length;
        out.extend(best.iter().map(|&image| {
            let mut code = [0u8; MAX_PERMUTED_LENGTH];
            for (i, s) in code[..l].iter_mut().enumerate() {
                *s = (image >> (4 * (l - 1 - i)) & 15) as u8;
            }
            space.rank(&crate::code::Code::from_symbols(&code[..l])) as u32
        }));
    }

    /// The relabellings to try, as (anchor's symbols, position order): each member with the
    /// least invariant as an anchor, with the position orders that list how many members share
    /// its symbol in each position largest first. `None` when they are too many to try
    /// ([`WORK`]).
    fn tries<'a>(
        &'a self,
        codes: &'a [Code],
        set: &[u32],
        spread: &[u64],
    ) -> Option<Vec<(&'a [u8], &'a [u8])>> {
        let least = *spread.iter().min()?;
        if spread.iter().filter(|&&s| s == least).count() * set.len() > WORK {
            return None;
        }
        let l = self.length;
        let mut tries = Vec::new();
        for (&anchor, _) in set.iter().zip(spread).filter(|&(_, &s)| s == least) {
            let a = codes[anchor as usize].symbols();
            let mut column = [0u64; MAX_PERMUTED_LENGTH];
            for &c in set {
                for (i, (x, y)) in codes[c as usize].symbols().iter().zip(a).enumerate() {
                    column[i] += u64::from(x == y);
                }
            }
            // The column counts in the best order allowed: largest first, after the first
            // position when that one stays first. The orders to try list them so.
            let mut top = column;
            top[self.lead..l].sort_unstable_by(|x, y| y.cmp(x));
            tries.extend(
                self.orders
                    .iter()
                    .filter(|o| (0..l).all(|i| column[usize::from(o[i])] == top[i]))
                    .map(|o| (a, &o[..l])),
            );
            if tries.len() * set.len() > WORK {
                return None;
            }
        }
        Some(tries)
    }

    /// The names the symbols take under one relabelling to try: the fixed symbols keep theirs,
    /// the anchor's take the first names in `order`, then, member by member, the one whose
    /// image is smallest gives its unnamed symbols the next names, until `to_name` are named.
    /// `moved` holds the members' symbols in `order`; `done` is scratch space of one flag per
    /// member.
    fn relabelling(
        &self,
        moved: &[Moved],
        spread: &[u64],
        (anchor, order): (&[u8], &[u8]),
        to_name: usize,
        done: &mut [bool],
    ) -> [u8; 16] {
        let l = self.length;
        let mut name = [NONE; 16];
        for (s, n) in name.iter_mut().enumerate() {
            if self.fixed & (1 << s) != 0 {
                *n = s as u8;
            }
        }
        let mut named = 0;
        let mut anchor_moved = [0u8; MAX_PERMUTED_LENGTH];
        for (to, &p) in anchor_moved.iter_mut().zip(order) {
            *to = anchor[usize::from(p)];
        }
        self.give(&anchor_moved[..l], &mut name, &mut named);
        done.fill(false);
        while named < to_name {
            // The member whose image is smallest when its unnamed symbols take the next
            // names in order: the next smallest image of the set under this anchor.
            let mut pick: Option<(Image, u64, usize)> = None;
            for (j, m) in moved.iter().enumerate() {
                if done[j] {
                    continue;
                }
                let mut fresh = name;
                let mut next = named;
                let mut unnamed = false;
                let mut image: Image = 0;
                for &s in &m[..l] {
                    // Symbols and counts of names are below 16: the masks drop bounds checks.
                    let s = usize::from(s) & 15;
                    if fresh[s] == NONE {
                        unnamed = true;
                        fresh[s] = self.names[next & 15];
                        next += 1;
                    }
                    image = image << 4 | Image::from(fresh[s]);
                }
                if !unnamed {
                    done[j] = true;
                } else if pick.is_none_or(|(i, s, _)| (image, spread[j]) < (i, s)) {
                    // Ties on the image go to the member with the smaller invariant,
                    // which a relabelling keeps.
                    pick = Some((image, spread[j], j));
                }
            }
            let Some((_, _, j)) = pick else { break };
            done[j] = true;
            self.give(&moved[j][..l], &mut name, &mut named);
        }
        name
    }

    /// Gives the unnamed symbols of `symbols` the next names, in their order.
    fn give(&self, symbols: &[u8], name: &mut [u8; 16], named: &mut usize) {
        for &s in symbols {
            let s = usize::from(s) & 15;
            if name[s] == NONE {
                name[s] = self.names[*named & 15];
                *named += 1;
            }
        }
    }
}

/// Each member's feedback counts over its set, hashed: an invariant of the member under every
/// symmetry (a symmetry keeps every feedback), so only the members with the least need to be
/// tried as anchors. Member `i`'s feedback against member `j` is `row(i)[col(j)]`.
///
/// The hash is the sum, over the set, of a random weight of each feedback the member gets: the
/// counts times the weights, summed without counting anything. Two members with different
/// counts hash alike only by a coincidence of 64-bit weights, and then naming only tries more
/// anchors. Four members at a time share each column's index.
#[inline]
fn spread<'r>(n: usize, row: impl Fn(usize) -> &'r [u8], col: impl Fn(usize) -> usize) -> Vec<u64> {
    const LANES: usize = 4;
    let mut out = Vec::with_capacity(n);
    for first in (0..n).step_by(LANES) {
        // A short last step repeats its last member, whose extra hashes are dropped.
        let rows: [&[u8]; LANES] = std::array::from_fn(|k| row((first + k).min(n - 1)));
        let mut sums = [0u64; LANES];
        for j in 0..n {
            let c = col(j);
            for (sum, row) in sums.iter_mut().zip(&rows) {
                *sum = sum.wrapping_add(WEIGHTS[usize::from(row[c])]);
            }
        }
        out.extend_from_slice(&sums[..LANES.min(n - first)]);
    }
    out
}

/// A random odd weight for each feedback byte ([`spread`]), from the SplitMix64 sequence.
static WEIGHTS: [u64; 256] = {
    let mut weights = [0u64; 256];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut i = 0;
    while i < 256 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        weights[i] = (z ^ (z >> 31)) | 1;
        i += 1;
    }
    weights
};

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::code::Code;
    use crate::rules::Rules;

    fn games() -> Vec<CodeSpace> {
        [
            Rules::bulls(),
            Rules::new(4, "0123456789", false, true).unwrap(),
            Rules::mastermind(),
            Rules::new(3, "012345", false, false).unwrap(),
            Rules::new(5, "01234567", false, false).unwrap(),
        ]
        .into_iter()
        .map(|r| CodeSpace::new(r).unwrap())
        .collect()
    }

    /// Each member's feedbacks over the set, weighted and summed as the search does.
    fn spread(space: &CodeSpace, set: &[u32]) -> Vec<u64> {
        set.iter()
            .map(|&a| {
                set.iter().fold(0u64, |h, &s| {
                    h.wrapping_add(WEIGHTS[usize::from(space.score_index(a as usize, s as usize))])
                })
            })
            .collect()
    }

    fn key(space: &CodeSpace, classes: &Classes, set: &[u32]) -> Vec<u32> {
        let mut out = Vec::new();
        classes.key(space, set, &spread(space, set), &mut out);
        out
    }

    /// A random set of `n` codes.
    fn random_set(space: &CodeSpace, n: usize, rng: &mut ChaCha8Rng) -> Vec<u32> {
        let all: Vec<u32> = (0..space.len() as u32).collect();
        let mut set: Vec<u32> = all.choose_multiple(rng, n).copied().collect();
        set.sort_unstable();
        set
    }

    /// `set` under a random symmetry of the game: symbols renamed (the barred leading symbol
    /// kept) and positions permuted (the first kept when a symbol is barred from it).
    fn random_image(space: &CodeSpace, set: &[u32], rng: &mut ChaCha8Rng) -> Vec<u32> {
        let rules = space.rules();
        let barred = usize::from(rules.no_leading());
        let mut symbols: Vec<u8> = (0..rules.alphabet().len() as u8).collect();
        symbols[barred..].shuffle(rng);
        let mut order: Vec<usize> = (0..space.length()).collect();
        order[barred..].shuffle(rng);
        let mut image: Vec<u32> = set
            .iter()
            .map(|&c| {
                let code = space.code(c as usize);
                let moved: Vec<u8> = order
                    .iter()
                    .map(|&p| symbols[usize::from(code.symbols()[p])])
                    .collect();
                space.index_of(&Code::from_symbols(&moved)).unwrap() as u32
            })
            .collect();
        image.sort_unstable();
        image
    }

    /// For every guess of the space, the sizes of the parts it splits `set` into, sorted; and
    /// those lists sorted. A symmetry maps guesses onto guesses, so equivalent sets have equal
    /// profiles.
    fn profile(space: &CodeSpace, set: &[u32]) -> Vec<Vec<u32>> {
        let mut all: Vec<Vec<u32>> = (0..space.len())
            .map(|g| {
                let mut counts = vec![0u32; space.rules().feedback_slots()];
                for &s in set {
                    counts[usize::from(space.score_index(g, s as usize))] += 1;
                }
                let mut sizes: Vec<u32> = counts.into_iter().filter(|&c| c > 0).collect();
                sizes.sort_unstable();
                sizes
            })
            .collect();
        all.sort_unstable();
        all
    }

    /// The invariants the search computes four members at a time are each member's own
    /// weighted feedbacks, for every length of a last step.
    #[test]
    fn spreads_are_each_members_weighted_feedbacks() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for space in games() {
            let bounds = Bounds::new(&space, crate::pool::GuessPool::All, None);
            for n in [1, 2, 3, 4, 5, 7, 8, 9, 33] {
                let set = random_set(&space, n, &mut rng);
                let want: Vec<u64> = set
                    .iter()
                    .map(|&a| {
                        set.iter().fold(0u64, |h, &s| {
                            h.wrapping_add(WEIGHTS[usize::from(bounds.row(a)[s as usize])])
                        })
                    })
                    .collect();
                let got = super::spread(n, |i| bounds.row(set[i]), |j| set[j] as usize);
                assert_eq!(got, want, "{}", space.rules());
            }
        }
    }

    #[test]
    fn a_key_is_an_image_of_its_set() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for space in games() {
            let classes = Classes::new(&space).unwrap();
            for n in [16, 17, 40, 90] {
                for _ in 0..3 {
                    let set = random_set(&space, n, &mut rng);
                    let key = key(&space, &classes, &set);
                    assert_eq!(key.len(), n, "{}", space.rules());
                    assert!(key.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
                    assert_eq!(profile(&space, &key), profile(&space, &set));
                }
            }
        }
    }

    #[test]
    fn images_of_a_set_share_its_key() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for space in games() {
            let classes = Classes::new(&space).unwrap();
            let (mut same, mut tried) = (0, 0);
            for n in [16, 30, 60, 120] {
                for _ in 0..10 {
                    let set = random_set(&space, n, &mut rng);
                    let image = random_image(&space, &set, &mut rng);
                    let key = key(&space, &classes, &set);
                    if key.is_empty() {
                        continue;
                    }
                    tried += 1;
                    same += usize::from(key == self::key(&space, &classes, &image));
                }
            }
            // Ties between members can leave a symbol's name to the original labels (a missed
            // share, not an error); random sets almost never have them.
            eprintln!("{}: {same} of {tried} images named alike", space.rules());
            assert!(tried >= 20, "{}: only {tried} sets named", space.rules());
            assert!(
                same * 20 >= tried * 19,
                "{}: {same} of {tried}",
                space.rules()
            );
        }
    }

    #[test]
    fn different_sets_of_one_size_get_different_keys() {
        // Sets of the same size that split differently are not equivalent: the keys differ.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let classes = Classes::new(&space).unwrap();
        let sets: Vec<Vec<u32>> = (0..12).map(|_| random_set(&space, 20, &mut rng)).collect();
        for (i, a) in sets.iter().enumerate() {
            for b in &sets[..i] {
                if profile(&space, a) != profile(&space, b) {
                    assert_ne!(key(&space, &classes, a), key(&space, &classes, b));
                }
            }
        }
    }

    #[test]
    fn games_it_cannot_name_are_left_out() {
        let long = Rules::new(7, "0123456", false, false).unwrap();
        let wide = Rules::new(2, "0123456789abcdefg", false, false).unwrap();
        for rules in [long, wide] {
            let space = CodeSpace::new(rules.clone()).unwrap();
            assert!(Classes::new(&space).is_none(), "{rules}");
        }
    }
}
