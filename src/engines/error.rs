//! Why an engine could not be made from its name and options.
//!
//! An engine configuration is user input (`--engine`, `name:key=value,...` in experiment
//! files), so each error says which option was wrong and what was expected; the texts are the
//! messages the command line shows.

use crate::cnf::{BackendError, CnfOptionsError};

/// An engine that could not be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum EngineError {
    #[error("unknown engine {name:?} (known: {known})")]
    UnknownEngine { name: String, known: String },
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error(transparent)]
    Cnf(#[from] CnfOptionsError),
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// An engine option that is unknown, has a value outside its values, or does not go with
/// the others.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum OptionError {
    /// A key the engine does not read.
    #[error("engine {engine}: {}", expected_keys(known, key))]
    UnknownKey {
        engine: String,
        key: String,
        known: Vec<String>,
    },
    /// A value outside the key's values. `context` starts the message as the engine starts
    /// its messages (`engine gac: `, `dlx: `, or nothing).
    #[error("{context}{key} must be {expected}, not {value:?}")]
    BadValue {
        context: &'static str,
        key: &'static str,
        expected: &'static str,
        value: String,
    },
    /// A value its type's parser refused, with the parser's words.
    #[error("{reason}")]
    Unparsed { key: &'static str, reason: String },
    /// A value outside the key's values, in the `key=value: expected ...` form.
    #[error("{key}={value:?}: expected {expected}")]
    Expected {
        key: &'static str,
        value: String,
        expected: &'static str,
    },
    /// An option given without the one it needs: `rebuild needs incremental=true`.
    #[error("{key} needs {needs}")]
    Needs {
        key: &'static str,
        needs: &'static str,
    },
    /// Options that do not go together, and why.
    #[error("{reason}")]
    Conflict { reason: String },
}

/// `expected one of its options `a`, `b`, found `k`` and its one- and no-option forms.
fn expected_keys(known: &[String], key: &str) -> String {
    match known {
        [] => format!("expected no option (it takes none), found `{key}`"),
        [one] => format!("expected its one option `{one}`, found `{key}`"),
        _ => format!(
            "expected one of its options {}, found `{key}`",
            known
                .iter()
                .map(|o| format!("`{o}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl OptionError {
    /// [`OptionError::Unparsed`] from a parser's error text.
    pub fn unparsed(key: &'static str) -> impl FnOnce(String) -> OptionError {
        move |reason| OptionError::Unparsed { key, reason }
    }
}
