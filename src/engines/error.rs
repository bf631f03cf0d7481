//! Why an engine could not be read from its configuration text or made from its name and
//! options.
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
    Spec(#[from] SpecError),
    #[error(transparent)]
    Option(#[from] OptionError),
    #[error(transparent)]
    Cnf(#[from] CnfOptionsError),
    #[error(transparent)]
    Backend(#[from] BackendError),
}

/// An engine configuration `NAME[:KEY=VALUE,...]` (an [`super::EngineSpec`]'s text) that
/// could not be read: the text, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{spec:?}: {kind}")]
pub struct SpecError {
    pub spec: String,
    pub kind: SpecErrorKind,
}

/// What is wrong with an engine configuration's text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpecErrorKind {
    #[error("expected NAME[:KEY=VALUE,...], found no engine name")]
    NoName,
    /// An option without `=`.
    #[error("expected options KEY=VALUE after `NAME:`, found {0:?}")]
    NotKeyValue(String),
    /// An option given twice with different values.
    #[error("expected one value for option {key}, found {first:?} and {second:?}")]
    TwoValues {
        key: String,
        first: String,
        second: String,
    },
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
    Unparsed {
        key: &'static str,
        reason: Box<dyn std::error::Error + Send + Sync>,
    },
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
    /// [`OptionError::Unparsed`] from a parser's error.
    pub fn unparsed<E: std::error::Error + Send + Sync + 'static>(
        key: &'static str,
    ) -> impl FnOnce(E) -> OptionError {
        move |reason| OptionError::Unparsed {
            key,
            reason: Box::new(reason),
        }
    }
}
