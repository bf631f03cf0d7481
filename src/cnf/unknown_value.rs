//! A value that is none of the names an option takes (`encoding=`, `amo=`, `givens=`,
//! `sum=`, and the same names in a formula's header): one error type for all of them, so a
//! caller can say which option was wrong and list what it takes.

/// A value that is none of an option's names: `unknown {what} "{value}" (known: {known})`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} {value:?} (known: {known})")]
pub struct UnknownValue {
    /// What the value should have named: `encoding`, `givens mode`, ...
    pub what: &'static str,
    /// The value given.
    pub value: String,
    /// The names there are, joined by `, `.
    pub known: &'static str,
}

impl UnknownValue {
    pub fn new(what: &'static str, value: &str, known: &'static str) -> UnknownValue {
        UnknownValue {
            what,
            value: value.to_string(),
            known,
        }
    }
}
