//! Exact symmetry reduction of the guesses worth trying.
//!
//! A game automorphism permutes positions and relabels symbols; it preserves every score. If it
//! also fixes every guess played so far, it maps the candidate set onto itself, so a guess and its
//! image lead to trees of the same cost and only one per orbit needs searching.
//!
//! The group kept here is the stabiliser of the history's guesses: a list of (position
//! permutation, relabelling of the symbols already played) pairs, times every permutation of the
//! symbols never played, which is never listed: those are handled by renaming unplayed symbols in
//! order of first appearance. A guess is searched only if it is the smallest code of its orbit
//! (symbol indexes compared lexicographically). With the forbidden leading symbol of the
//! no-leading-zero variant, position 0 and symbol 0 are held fixed, so every image stays legal.

use crate::rules::{Rules, MAX_LENGTH};

/// Position permutations are listed only up to this length (720 of them); longer codes use the
/// unplayed-symbol reduction alone, which is still exact.
pub(super) const MAX_PERMUTED_LENGTH: usize = 6;

const NONE: u8 = u8::MAX;

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
    pub(crate) fn is_canonical(&self, code: &[u8]) -> bool {
        let mut image = [0u8; MAX_LENGTH];
        for e in &self.elements {
            for i in 0..self.length {
                let s = code[e.pos[i] as usize];
                image[i] = if self.used & (1 << s) != 0 {
                    e.sym[s as usize]
                } else {
                    s
                };
            }
            self.rename_unplayed(&mut image[..self.length]);
            if image[..self.length] < code[..self.length] {
                return false;
            }
        }
        true
    }

    /// Renames unplayed symbols to the smallest unplayed ones, in order of first appearance: the
    /// smallest code reachable by permuting unplayed symbols.
    fn rename_unplayed(&self, code: &mut [u8]) {
        let mut map = [NONE; 64];
        let mut next = 0u8;
        for s in code.iter_mut() {
            if self.used & (1 << *s) != 0 {
                continue;
            }
            if map[*s as usize] == NONE {
                while self.used & (1 << next) != 0 {
                    next += 1;
                }
                map[*s as usize] = next;
                next += 1;
            }
            *s = map[*s as usize];
        }
    }
}

/// Calls `f` with every permutation of `p[k..]` after the fixed prefix `p[..k]`.
pub(super) fn permutations(p: &mut Vec<u8>, k: usize, f: &mut impl FnMut(&[u8])) {
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
    use crate::space::CodeSpace;

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

    fn same_orbit(sym: &Symmetry, a: &[u8], b: &[u8]) -> bool {
        let mut image = [0u8; MAX_LENGTH];
        let n = sym.length;
        let mut canon_b = [0u8; MAX_LENGTH];
        canon_b[..n].copy_from_slice(b);
        sym.rename_unplayed(&mut canon_b[..n]);
        sym.elements.iter().any(|e| {
            for i in 0..n {
                let s = a[e.pos[i] as usize];
                image[i] = if sym.used & (1 << s) != 0 {
                    e.sym[s as usize]
                } else {
                    s
                };
            }
            sym.rename_unplayed(&mut image[..n]);
            image[..n] == canon_b[..n]
        })
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
}
