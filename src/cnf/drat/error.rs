//! What a check reports when it fails, and where in the proof file.

use std::fmt;
use std::io;

use super::super::Interrupt;

/// Where a proof step starts: a 1-based line and column in a text proof, a 0-based byte
/// offset in a binary one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofPosition {
    Text { line: u64, column: u64 },
    Binary { byte: u64 },
}

impl fmt::Display for ProofPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProofPosition::Text { line, column } => write!(f, "line {line}, column {column}"),
            ProofPosition::Binary { byte } => write!(f, "byte {byte}"),
        }
    }
}

/// The form of a proof file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    Text,
    Binary,
}

/// Why a proof does not prove the formula unsatisfiable.
#[derive(Debug, thiserror::Error)]
pub enum DratError {
    /// The file could not be read.
    #[error("{0}")]
    Io(#[source] io::Error),
    /// The file is not a DRAT proof at this position.
    #[error("{position}: {message}")]
    Syntax {
        position: ProofPosition,
        message: String,
    },
    /// Lemma number `lemma` (1-based, counting additions only) is neither RUP nor RAT on its
    /// first literal. `clause` holds its literals without repetitions, its first literal
    /// first.
    #[error(
        "{position}: lemma {lemma} `{}0` is neither RUP nor RAT on its first literal with respect to the clauses before it",
        clause.iter().map(|l| format!("{l} ")).collect::<String>()
    )]
    NotImplied {
        lemma: u64,
        position: ProofPosition,
        clause: Vec<i32>,
    },
    /// The proof ended, after `lemmas` lemmas, without unit propagation reaching a conflict.
    #[error(
        "the proof ends after {lemmas} lemmas without deriving the empty clause (unit propagation on the clauses left reaches no conflict)"
    )]
    NoConflict { lemmas: u64 },
    /// The budget ran out after `lemmas` lemmas had been read.
    #[error("the check stopped {} after {lemmas} lemmas", stopped(*interrupt))]
    Interrupted { lemmas: u64, interrupt: Interrupt },
    /// The formula or the proof exceeds what the checker can hold (the message says which
    /// limit).
    #[error("{message}")]
    TooLarge { message: String },
}

/// How an interrupted check stopped, for [`DratError::Interrupted`].
fn stopped(interrupt: Interrupt) -> &'static str {
    match interrupt {
        Interrupt::Time => "at the time limit",
        Interrupt::Cancelled => "on cancellation",
        Interrupt::ConflictLimit => "at the conflict limit",
        Interrupt::DecisionLimit => "at the decision limit",
    }
}
