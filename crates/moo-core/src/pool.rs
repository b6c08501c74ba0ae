//! Which codes a player may guess: any code, or only those still consistent with the feedback.
//!
//! The choice belongs to the game being played rather than to any one way of choosing a guess, so
//! it sits below both the strategies and the exact search, which each take it as a parameter.

/// Which codes a strategy may guess, named in files as on the command line.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum GuessPool {
    /// Any code of the space, even one already ruled out (it may split the candidates better).
    #[default]
    All,
    /// Only codes still consistent with the feedback ("hard mode").
    Consistent,
}

impl GuessPool {
    /// Every pool, for listings and array indexes.
    pub const ALL: [GuessPool; 2] = [GuessPool::All, GuessPool::Consistent];

    /// The pool's position in [`GuessPool::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}
