//! Exact symmetry reductions: of each class of guesses that lead to the same game, only one is
//! tried.
//!
//! Relabelling symbols and permuting positions preserves every score. A map of the game that also
//! fixes every guess played so far maps the candidate set onto itself, so a guess and its image
//! split the candidates alike and lead to the same figures; only one guess per class needs
//! scoring or searching, and choosing the first in alphabet order keeps every tie-break as a full
//! scan would make it. Two reductions of different cost use this, on one shared operation,
//! [`rename_in_order`]: renaming interchangeable symbols in order of first appearance gives the
//! first code in alphabet order that a code can be renamed to.
//!
//! - [`Renaming`] serves the one-step heuristics, which choose a guess in every position of
//!   every game played: it costs one pass over a code. It renames within two classes, the symbols
//!   no guess has used yet and the symbols no candidate holds, and never permutes positions.
//! - [`Symmetry`] serves the exact search, which spends far more per position: it keeps the whole
//!   group of position permutations and relabellings that fix the history.
//!
//! With the forbidden leading symbol of the no-leading-zero variant, that symbol (and, for
//! [`Symmetry`], position 0) is held fixed, so every image stays a legal code.

use crate::code::{Code, MAX_LENGTH};
use crate::codeset::CodeSet;
use crate::history::History;
use crate::rules::Rules;
use crate::space::CodeSpace;

/// An unmapped symbol.
const NONE: u8 = u8::MAX;

/// Renames, in place, the symbols of each class to the smallest of their class, in order of
/// first appearance (symbols of no class stay): the first code in alphabet order that `code` can
/// be turned into by permuting the symbols within each class.
fn rename_in_order<const N: usize>(code: &mut [u8], classes: [u64; N]) {
    let mut unseen = classes;
    let mut renamed = [NONE; 64];
    for s in code.iter_mut() {
        let bit = 1u64 << *s;
        let Some(c) = classes.iter().position(|c| c & bit != 0) else {
            continue;
        };
        if renamed[usize::from(*s)] == NONE {
            // A class holds at least as many symbols as a code has distinct ones of it.
            renamed[usize::from(*s)] = unseen[c].trailing_zeros() as u8;
            unseen[c] &= unseen[c] - 1;
        }
        *s = renamed[usize::from(*s)];
    }
}

// ---- the heuristics' renaming ---------------------------------------------------------

/// The renaming symmetry of one position: two classes of interchangeable symbols.
pub(crate) struct Renaming {
    /// Symbols no guess used, and symbols no candidate holds (never the pinned leading symbol).
    classes: [u64; 2],
    /// Whether some class has two symbols or more, so that renaming does anything.
    pub(crate) active: bool,
}

impl Renaming {
    /// The classes of interchangeable symbols in the position `history` and `candidates` make.
    pub fn new(space: &CodeSpace, history: &History, candidates: &CodeSet) -> Renaming {
        let rules = space.rules();
        let used = history.turns().iter().fold(0u64, |m, t| m | t.guess.mask());
        let all_symbols = if rules.alphabet().len() == 64 {
            u64::MAX
        } else {
            (1u64 << rules.alphabet().len()) - 1
        };
        // The first symbol may not lead a code: renaming it could make a code invalid, so it is
        // never treated as interchangeable.
        let pinned = u64::from(rules.no_leading());
        let free = all_symbols & !pinned;
        // Symbols no candidate holds: swapping two of them fixes every candidate. Big sets hold
        // every symbol after a few members, so the scan stops there.
        let mut present = 0u64;
        for c in candidates.iter() {
            present |= space.code(c).mask();
            if present & free == free {
                break;
            }
        }
        let absent = free & !present;
        // Symbols no guess used: swapping two of them fixes the history, hence the candidates.
        let fresh = free & !used & !absent;
        let classes = [fresh, absent];
        Renaming {
            classes,
            active: classes.iter().any(|c| c.count_ones() >= 2),
        }
    }

    /// The symbols no candidate holds.
    pub(crate) fn absent(&self) -> u64 {
        self.classes[1]
    }

    /// Whether `code` is the first in alphabet order of the codes it can be renamed to: for each
    /// class, the class's symbols in `code` appear (first occurrences, in order) as the smallest of
    /// the class in increasing order.
    pub(crate) fn is_canonical(&self, code: &Code) -> bool {
        !self.active || in_order(code.symbols(), self.classes)
    }

    /// The first in alphabet order of the codes `code` can be renamed to.
    pub(crate) fn canonical(&self, code: &Code) -> Code {
        if !self.active {
            return *code;
        }
        let mut out = [0u8; MAX_LENGTH];
        let out = &mut out[..code.len()];
        out.copy_from_slice(code.symbols());
        rename_in_order(out, self.classes);
        Code::from_symbols(out)
    }

    /// Every canonical code of `rules` in alphabet order, or `None` once there are more than
    /// `cap`. Generated depth first, so the work is proportional to the codes listed.
    pub(crate) fn codes(&self, rules: &Rules, cap: usize) -> Option<Vec<Code>> {
        struct Walk<'a> {
            rules: &'a Rules,
            classes: [u64; 2],
            cap: usize,
            current: Vec<u8>,
            out: Vec<Code>,
        }
        impl Walk<'_> {
            /// False once the cap is passed.
            fn extend(&mut self, used: u64, unseen: [u64; 2]) -> bool {
                if self.current.len() == self.rules.length() {
                    self.out.push(Code::from_symbols(&self.current));
                    return self.out.len() <= self.cap;
                }
                let first = u8::from(self.current.is_empty() && self.rules.no_leading());
                for s in first..self.rules.alphabet().len() as u8 {
                    let bit = 1u64 << s;
                    if !self.rules.repeats() && used & bit != 0 {
                        continue;
                    }
                    let mut unseen = unseen;
                    if let Some(c) = self.classes.iter().position(|c| c & bit != 0) {
                        if unseen[c] & bit != 0 {
                            // A class symbol's first use must be the smallest unused of its class.
                            if s as u32 != unseen[c].trailing_zeros() {
                                continue;
                            }
                            unseen[c] &= !bit;
                        }
                    }
                    self.current.push(s);
                    let more = self.extend(used | bit, unseen);
                    self.current.pop();
                    if !more {
                        return false;
                    }
                }
                true
            }
        }
        let classes = if self.active { self.classes } else { [0, 0] };
        let mut walk = Walk {
            rules,
            classes,
            cap,
            current: Vec::with_capacity(rules.length()),
            out: Vec::new(),
        };
        walk.extend(0, classes).then_some(walk.out)
    }
}

/// Whether the symbols of each class appear in `code` (first occurrences, in order) as the
/// smallest of their class in increasing order: whether [`rename_in_order`] leaves `code` as it is.
fn in_order<const N: usize>(code: &[u8], classes: [u64; N]) -> bool {
    let mut unseen = classes;
    for &s in code {
        let bit = 1u64 << s;
        for (class, unseen) in classes.iter().zip(&mut unseen) {
            if class & bit != 0 {
                if *unseen & bit != 0 {
                    if s as u32 != unseen.trailing_zeros() {
                        return false;
                    }
                    *unseen &= !bit;
                }
                break;
            }
        }
    }
    true
}

// ---- the exact search's symmetry group -------------------------------------------------
//
// The group kept is the stabiliser of the history's guesses: a list of (position permutation,
// relabelling of the symbols already played) pairs, times every permutation of the symbols never
// played, which is never listed: those are handled by renaming unplayed symbols in order of first
// appearance. A guess is searched only if it is the smallest code of its orbit (symbol indexes
// compared lexicographically).

/// Position permutations are listed only up to this length (720 of them); longer codes use the
/// unplayed-symbol reduction alone, which is still exact.
pub(crate) const MAX_PERMUTED_LENGTH: usize = 6;

#[derive(Clone, Debug)]
struct Element {
    /// `image[i] = symbol map(code[pos[i]])`.
    pos: [u8; MAX_LENGTH],
    /// The image of each played symbol; [`NONE`] for unplayed ones.
    sym: [u8; 64],
}

/// The symmetries that fix a history, for picking one guess per orbit.
#[derive(Clone, Debug)]
pub(crate) struct Symmetry {
    length: usize,
    /// Symbols played so far (or fixed by the rules), one bit each.
    used: u64,
    elements: Vec<Element>,
}

impl Symmetry {
    /// The symmetries of the empty history.
    pub(crate) fn new(rules: &Rules) -> Symmetry {
        let length = rules.length();
        let mut used = 0u64;
        let mut base_sym = [NONE; 64];
        if rules.no_leading() {
            used |= 1;
            base_sym[0] = 0;
        }
        let mut elements = Vec::new();
        let fixed_first = rules.no_leading();
        if length <= MAX_PERMUTED_LENGTH {
            let mut perm: Vec<u8> = (0..length as u8).collect();
            permutations(&mut perm, 0, &mut |p| {
                if fixed_first && p[0] != 0 {
                    return;
                }
                let mut pos = [0u8; MAX_LENGTH];
                pos[..length].copy_from_slice(p);
                elements.push(Element { pos, sym: base_sym });
            });
        } else {
            let mut pos = [0u8; MAX_LENGTH];
            for (i, p) in pos.iter_mut().enumerate() {
                *p = i as u8;
            }
            elements.push(Element { pos, sym: base_sym });
        }
        Symmetry {
            length,
            used,
            elements,
        }
    }

    /// Whether every symmetry is the identity on played symbols and positions (only unplayed
    /// symbols can be renamed).
    fn is_trivial(&self) -> bool {
        self.elements.len() == 1
    }

    /// Whether no symbol is left unplayed and no other symmetry remains: every guess is its own orbit.
    pub(crate) fn is_identity(&self, alphabet: usize) -> bool {
        self.is_trivial() && (self.used.count_ones() as usize) >= alphabet
    }

    /// The symbols played so far, when the only symmetries left rename unplayed symbols: the
    /// orbits then depend on nothing else, so searches can share which guesses are canonical.
    pub(crate) fn played_when_trivial(&self) -> Option<u64> {
        self.is_trivial().then_some(self.used)
    }

    /// The symmetries that also fix `guess`.
    pub(crate) fn after(&self, guess: &[u8]) -> Symmetry {
        let mut used = self.used;
        for &s in guess {
            used |= 1 << s;
        }
        let mut elements = Vec::new();
        'next: for e in &self.elements {
            let mut sym = e.sym;
            let mut taken = 0u64;
            for &image in sym.iter().filter(|&&t| t != NONE) {
                taken |= 1 << image;
            }
            for i in 0..self.length {
                let a = guess[e.pos[i] as usize];
                let b = guess[i];
                if sym[a as usize] == NONE {
                    // A symbol new to the history may only go to another new symbol, once.
                    if self.used & (1 << b) != 0 || taken & (1 << b) != 0 {
                        continue 'next;
                    }
                    sym[a as usize] = b;
                    taken |= 1 << b;
                } else if sym[a as usize] != b {
                    continue 'next;
                }
            }
            elements.push(Element { pos: e.pos, sym });
        }
        Symmetry {
            length: self.length,
            used,
            elements,
        }
    }

    /// Whether `code` is the smallest member of its orbit.
    ///
    /// Each symmetry's image is built and compared one symbol at a time, unplayed symbols renamed
    /// to the smallest unplayed ones as they first appear, so most images are settled by their
    /// first symbol or two. The search asks this of every guess it counts, a few million
    /// times a second.
    pub(crate) fn is_canonical(&self, code: &[u8]) -> bool {
        let code = &code[..self.length];
        'elements: for e in &self.elements {
            let mut free = !self.used;
            let mut renamed = [NONE; 64];
            for (i, &c) in code.iter().enumerate() {
                let s = code[e.pos[i] as usize];
                let image = if self.used & (1 << s) != 0 {
                    e.sym[usize::from(s)]
                } else {
                    if renamed[usize::from(s)] == NONE {
                        renamed[usize::from(s)] = free.trailing_zeros() as u8;
                        free &= free - 1;
                    }
                    renamed[usize::from(s)]
                };
                match image.cmp(&c) {
                    std::cmp::Ordering::Less => return false,
                    std::cmp::Ordering::Greater => continue 'elements,
                    std::cmp::Ordering::Equal => {}
                }
            }
        }
        true
    }

    /// Renames unplayed symbols to the smallest unplayed ones, in order of first appearance: the
    /// smallest code reachable by permuting unplayed symbols.
    #[cfg(test)]
    fn rename_unplayed(&self, code: &mut [u8]) {
        rename_in_order(code, [!self.used]);
    }
}

/// Calls `f` with every permutation of `p[k..]` after the fixed prefix `p[..k]`.
pub(crate) fn permutations(p: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
    if k == p.len() {
        f(p);
        return;
    }
    for i in k..p.len() {
        p.swap(k, i);
        permutations(p, k + 1, f);
        p.swap(k, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canonical_count(sym: &Symmetry, space: &CodeSpace) -> usize {
        space
            .codes()
            .iter()
            .filter(|c| sym.is_canonical(c.symbols()))
            .count()
    }

    #[test]
    fn first_guesses_up_to_symmetry() {
        // Bulls and Cows: every first guess is equivalent. Mastermind: the 5 patterns
        // AAAA, AAAB, AABB, AABC, ABCD.
        let bulls = CodeSpace::new(Rules::bulls()).unwrap();
        let sym = Symmetry::new(bulls.rules());
        assert_eq!(canonical_count(&sym, &bulls), 1);
        let mm = CodeSpace::new(Rules::mastermind()).unwrap();
        let sym = Symmetry::new(mm.rules());
        let firsts: Vec<String> = mm
            .codes()
            .iter()
            .filter(|c| sym.is_canonical(c.symbols()))
            .map(|c| mm.rules().format_code(c))
            .collect();
        assert_eq!(firsts, ["1111", "1112", "1122", "1123", "1234"]);
    }

    #[test]
    fn orbits_after_one_guess_are_exact() {
        // After 0123 the stabiliser is S4 acting on positions and digits 0-3 together, times any
        // permutation of 4-9. Check that canonical representatives cover each orbit exactly once
        // by brute force over the 24 * 720 group elements' effect on partitions: two guesses in one
        // orbit must have the same multiset of partition sizes for every feedback of 0123.
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let sym = Symmetry::new(space.rules()).after(&[0, 1, 2, 3]);
        assert_eq!(sym.elements.len(), 24);
        let reps: Vec<usize> = (0..space.len())
            .filter(|&g| sym.is_canonical(space.code(g).symbols()))
            .collect();
        // Orbits of 4-digit codes under this group: classified by which of positions hold a digit
        // of 0123 and the pattern of those digits; every code maps to exactly one representative.
        for g in 0..space.len() {
            let code = space.code(g);
            let hits = reps
                .iter()
                .filter(|&&r| same_orbit(&sym, code.symbols(), space.code(r).symbols()))
                .count();
            assert_eq!(hits, 1, "{:?}", code);
        }
    }

    /// The image of `code` under element `e`, built whole, its unplayed symbols renamed after.
    fn whole_image(sym: &Symmetry, e: &Element, code: &[u8]) -> [u8; MAX_LENGTH] {
        let n = sym.length;
        let mut image = [0u8; MAX_LENGTH];
        for i in 0..n {
            let s = code[e.pos[i] as usize];
            image[i] = if sym.used & (1 << s) != 0 {
                e.sym[s as usize]
            } else {
                s
            };
        }
        sym.rename_unplayed(&mut image[..n]);
        image
    }

    fn same_orbit(sym: &Symmetry, a: &[u8], b: &[u8]) -> bool {
        let n = sym.length;
        let mut canon_b = [0u8; MAX_LENGTH];
        canon_b[..n].copy_from_slice(b);
        sym.rename_unplayed(&mut canon_b[..n]);
        sym.elements
            .iter()
            .any(|e| whole_image(sym, e, a)[..n] == canon_b[..n])
    }

    /// The canonical test, against building each image whole and renaming its unplayed symbols
    /// afterwards (how it was first written), over every code after a few histories.
    #[test]
    fn canonical_test_matches_whole_images() {
        let whole = |sym: &Symmetry, code: &[u8]| {
            let n = sym.length;
            sym.elements
                .iter()
                .all(|e| whole_image(sym, e, code)[..n] >= code[..n])
        };
        let games = [
            (Rules::bulls(), vec![vec![0u8, 1, 2, 3], vec![1, 0, 4, 5]]),
            (
                Rules::mastermind(),
                vec![vec![0u8, 0, 1, 1], vec![0, 1, 2, 2]],
            ),
            (
                Rules::new(4, "0123456789", false, true).unwrap(),
                vec![vec![1u8, 0, 2, 3], vec![2, 3, 0, 4]],
            ),
            (
                Rules::new(3, "abcde", true, true).unwrap(),
                vec![vec![1u8, 0, 0]],
            ),
        ];
        for (rules, guesses) in games {
            let space = CodeSpace::new(rules.clone()).unwrap();
            let mut sym = Symmetry::new(&rules);
            for guess in std::iter::once(None).chain(guesses.iter().map(Some)) {
                if let Some(g) = guess {
                    sym = sym.after(g);
                }
                for code in space.codes() {
                    assert_eq!(
                        sym.is_canonical(code.symbols()),
                        whole(&sym, code.symbols()),
                        "{rules:?} after {guess:?}: {code:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn no_leading_keeps_zero_in_place() {
        let rules = Rules::new(4, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let sym = Symmetry::new(&rules);
        let firsts: Vec<String> = space
            .codes()
            .iter()
            .filter(|c| sym.is_canonical(c.symbols()))
            .map(|c| rules.format_code(c))
            .collect();
        // With a leading-zero ban, 0 is special: codes without 0, and with 0 in position 2, 3 or 4
        // (all equivalent under swapping the other positions).
        assert_eq!(firsts, ["1023", "1234"]);
    }

    #[test]
    fn generated_canonical_codes_are_the_canonical_codes() {
        for rules in crate::rules::every_kind() {
            let space = CodeSpace::new(rules.clone()).unwrap();
            let mut history = History::new();
            let g = space.code(space.len() / 3);
            let fb = g.score(&space.code(space.len() / 2));
            history.push(g, fb);
            let candidates: CodeSet = space.filter_code(&space.all(), &g, fb);
            for history in [History::new(), history] {
                let candidates = if history.is_empty() {
                    space.all()
                } else {
                    candidates.clone()
                };
                let symmetry = Renaming::new(&space, &history, &candidates);
                let listed = symmetry.codes(&rules, usize::MAX).unwrap();
                let filtered: Vec<Code> = space
                    .codes()
                    .iter()
                    .copied()
                    .filter(|c| symmetry.is_canonical(c))
                    .collect();
                assert_eq!(listed, filtered);
                for c in space.codes().iter().step_by(7) {
                    let canonical = symmetry.canonical(c);
                    assert!(symmetry.is_canonical(&canonical));
                    assert!(canonical <= *c);
                    assert!(rules.check_code(&canonical).is_ok());
                }
                assert!(symmetry.codes(&rules, listed.len() - 1).is_none());
            }
        }
    }
}
