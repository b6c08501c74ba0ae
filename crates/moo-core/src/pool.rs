//! Which codes a player may guess: any code, or only those still consistent with the feedback.
//!
//! The choice belongs to the game being played rather than to any one way of choosing a guess, so
//! it sits below both the strategies and the exact search, which each take it as a parameter.

use serde::{Deserialize, Serialize};

/// Which codes a strategy may guess. Serialized by its [`name`](GuessPool::name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
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

    /// The pool's name, as the command line takes it and files record it: `all` or `consistent`.
    pub fn name(self) -> &'static str {
        match self {
            GuessPool::All => "all",
            GuessPool::Consistent => "consistent",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_names_are_the_names() {
        for pool in GuessPool::ALL {
            let json = serde_json::to_string(&pool).unwrap();
            assert_eq!(json, format!("\"{}\"", pool.name()));
            assert_eq!(serde_json::from_str::<GuessPool>(&json).unwrap(), pool);
        }
    }
}
