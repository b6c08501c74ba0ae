//! The score table as the search reads it: a guess's row of feedbacks against every code, in
//! the search's numbering of feedbacks. A leaf of its own, so that the helpers that gather
//! feedbacks ([`super::columns`], [`super::pairs`]) read rows without reaching back into
//! [`super::lower_bounds::Bounds`], which uses them.

use crate::space::{CodeSpace, CompactTable};

/// The rows of the game's score table, from the compact table when there is one (feedbacks
/// renumbered to those that occur, so that the bulk passes can gather them by lookups into
/// 16-entry tables), else from the space's own.
#[derive(Clone, Copy)]
pub(super) struct ScoreRows<'a> {
    space: &'a CodeSpace,
    compact: Option<&'a CompactTable>,
}

impl<'a> ScoreRows<'a> {
    /// The rows of `space`'s score table.
    pub(super) fn new(space: &'a CodeSpace) -> ScoreRows<'a> {
        ScoreRows {
            space,
            compact: space.compact_table(),
        }
    }

    /// The compact table, when the search reads it.
    pub(super) fn compact(&self) -> Option<&'a CompactTable> {
        self.compact
    }

    /// Guess `g`'s row: its feedback against every code.
    pub(super) fn row(&self, g: u32) -> &'a [u8] {
        match self.compact {
            Some(c) => c.row(g as usize),
            None => self
                .space
                .score_row(g as usize)
                .expect("the search runs only with a score table"),
        }
    }
}
