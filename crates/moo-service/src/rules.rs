//! Rules as a client names them (a preset or full rules), what a page shows of them, and the
//! strategy registry as the web sees it.

use moo_core::strategy::{self, StrategyInfo};
use moo_core::{Preset, Rules, RulesError};
use serde::{Deserialize, Serialize};

use crate::spaces::check_size;
use crate::{Service, ServiceError};

/// Rules as a client sends them; read here rather than through `Rules`' own serde form so a
/// refusal speaks of the page's fields, not of the command line's flags.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RulesIn {
    length: usize,
    symbols: String,
    repeats: bool,
    #[serde(default)]
    no_leading: bool,
}

impl RulesIn {
    fn rules(&self) -> Result<Rules, ServiceError> {
        Rules::new(self.length, &self.symbols, self.repeats, self.no_leading)
            .map_err(|e| ServiceError::invalid(rules_message(&e)))
    }
}

/// The library's message, with the two that name command-line flags said for the web.
fn rules_message(error: &RulesError) -> String {
    match error {
        RulesError::EmptyAlphabet => {
            "no symbols were given: list at least one, for example 0123456789".to_string()
        }
        RulesError::TooLong(n) => format!(
            "code length {n} is too long: at most {} symbols are supported",
            moo_core::rules::MAX_LENGTH
        ),
        RulesError::NoCodeLeft(c) => format!(
            "with {c:?} forbidden in front, no code is left: add a symbol or allow {c:?} to lead"
        ),
        other => other.to_string(),
    }
}

/// Either a preset name or full rules; neither means Bulls and Cows.
pub(crate) fn pick_rules(
    preset: Option<Preset>,
    rules: Option<RulesIn>,
) -> Result<Rules, ServiceError> {
    match (preset, rules) {
        (Some(_), Some(_)) => Err(ServiceError::invalid(
            "give either \"preset\" or \"rules\", not both",
        )),
        (Some(p), None) => Ok(p.rules()),
        (None, Some(r)) => r.rules(),
        (None, None) => Ok(Rules::bulls()),
    }
}

/// What the size limits are for, in the words of their refusals.
pub(crate) const SOLVER: &str = "this page";
pub(crate) const REVIEW: &str = "the review";
pub(crate) const BENCH: &str = "the benchmark";
pub(crate) const TREES: &str = "the Explorer";

/// The rules a request names, refused over `limit` codes before anything is enumerated; `what`
/// names the feature for the message.
pub(crate) fn rules_within(
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    limit: usize,
    what: &str,
) -> Result<Rules, ServiceError> {
    let rules = pick_rules(preset, rules)?;
    check_size(&rules, limit, what)?;
    Ok(rules)
}

/// Rules with what a page shows of them.
#[derive(Debug, Serialize)]
pub(crate) struct RulesReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
    rules: Rules,
    description: String,
    /// A string: big spaces overflow JavaScript's exact integers.
    space_size: String,
}

impl RulesReport {
    pub(crate) fn new(rules: &Rules) -> RulesReport {
        RulesReport {
            name: None,
            rules: rules.clone(),
            description: rules.describe(),
            space_size: rules.space_size().to_string(),
        }
    }
}

/// Every preset, with what a page shows of its rules.
#[derive(Debug, Serialize)]
pub struct Presets {
    presets: Vec<RulesReport>,
}

/// The registry's own entries, as the command line sees them, and the duel's levels built on
/// them.
#[derive(Debug, Serialize)]
pub struct Strategies {
    strategies: Vec<&'static StrategyInfo>,
    levels: Vec<moo_core::duel::LevelInfo>,
}

impl Service {
    /// Every preset.
    pub fn presets(&self) -> Presets {
        let presets = Preset::ALL
            .iter()
            .map(|p| RulesReport {
                name: Some(p.name()),
                ..RulesReport::new(&p.rules())
            })
            .collect();
        Presets { presets }
    }

    /// Every registered strategy.
    pub fn strategies(&self) -> Strategies {
        Strategies {
            strategies: strategy::list().collect(),
            levels: moo_core::Level::ALL.iter().map(|l| l.info()).collect(),
        }
    }
}

/// Refuses a strategy name the registry does not know, pointing a tree file's user to the
/// explorer page, which reads tree files in the browser (the service reads no files).
pub(crate) fn check_offered(name: &str) -> Result<(), ServiceError> {
    if strategy::info_of(name).is_some() {
        return Ok(());
    }
    let choices = strategy::names().collect::<Vec<_>>().join(", ");
    Err(ServiceError::invalid(if name.starts_with("tree:") {
        format!("strategy {name:?} would read a file on the server, which the API does not do: open tree files in the explorer page instead, or choose among {choices}")
    } else {
        format!("unknown strategy {name:?}: choose among {choices}")
    }))
}
