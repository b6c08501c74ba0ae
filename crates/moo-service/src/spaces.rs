//! A small cache of code spaces, so consecutive requests on the same rules share one score table.
//!
//! Building the Bulls and Cows space with its 25 MB table takes a noticeable fraction of a second,
//! and a solver session asks for the same space at every step. The cache keeps the few most
//! recently used spaces; it is consulted from blocking jobs only.

use std::sync::{Arc, Mutex};

use moo_core::{CodeSpace, Rules};

use crate::ServiceError;

pub(crate) struct Spaces {
    capacity: usize,
    /// Most recently used last.
    entries: Mutex<Vec<Arc<CodeSpace>>>,
}

impl Spaces {
    pub fn new(capacity: usize) -> Spaces {
        Spaces {
            capacity,
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The space of `rules`, refused over `limit` codes; `what` names the feature for the message.
    pub fn get(
        &self,
        rules: &Rules,
        limit: usize,
        what: &str,
    ) -> Result<Arc<CodeSpace>, ServiceError> {
        check_size(rules, limit, what)?;
        if let Some(space) = self.lookup(rules) {
            return Ok(space);
        }
        // Built outside the lock: two racing builds of one space waste time but stay correct.
        let space = Arc::new(
            CodeSpace::with_limit(rules.clone(), limit)
                .map_err(|e| ServiceError::invalid(e.to_string()))?,
        );
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.retain(|s| s.rules() != rules);
        entries.push(space.clone());
        if entries.len() > self.capacity {
            let excess = entries.len() - self.capacity;
            entries.drain(..excess);
        }
        Ok(space)
    }

    fn lookup(&self, rules: &Rules) -> Option<Arc<CodeSpace>> {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let i = entries.iter().position(|s| s.rules() == rules)?;
        let space = entries.remove(i);
        entries.push(space.clone());
        Some(space)
    }
}

/// Refuses rules whose space exceeds `limit`, before anything is enumerated.
pub(crate) fn check_size(rules: &Rules, limit: usize, what: &str) -> Result<(), ServiceError> {
    let size = rules.space_size();
    if size > limit as u128 {
        return Err(ServiceError::new(
            422,
            crate::ErrorCode::SpaceTooLarge,
            format!(
            "{what} handles at most {limit} codes, and {rules} allow {size}: use a shorter code or fewer symbols"
        ),
        ));
    }
    Ok(())
}
