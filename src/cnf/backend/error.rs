//! Why a SAT backend could not be made from its name or could not answer a `solve` call.
//!
//! Name errors ([`BackendError::UnknownName`] and the per-backend spec errors) come from user
//! input (`--backend`, `sat:backend=...`); the others come from a solver that failed while
//! solving. The texts are the messages the command line shows.

use super::BACKEND_NAMES;
use crate::cnf::dimacs::SyntaxError;
use std::ffi::OsString;
use std::path::PathBuf;

/// A backend that could not be made or could not answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BackendError {
    #[error("unknown SAT backend {name:?} (known: {BACKEND_NAMES})")]
    UnknownName { name: String },
    #[error("unknown CaDiCaL configuration {config:?} (known: {known})")]
    UnknownCadicalConfig { config: String, known: String },
    #[error("cadical:{config}: {error}")]
    CadicalConfig {
        config: String,
        error: cadical::Error,
    },
    #[error("cadical: {0}")]
    CadicalLimit(cadical::Error),
    #[error("cadical: stopped without a reason")]
    CadicalNoReason,
    #[error("kissat: stopped without a reason")]
    KissatNoReason,
    #[error("kissat: {vars} variables, more than its C int literals hold")]
    KissatTooManyVars { vars: u64 },
    #[error("varisat: a conflict limit needs expect_limits (or set_conflict_limit) before the first clause")]
    VarisatLimitTooLate,
    #[error("varisat: SAT without a model")]
    VarisatNoModel,
    #[error("varisat: {0}")]
    Varisat(#[source] varisat::solver::SolverError),
    #[error(
        "portfolio member {name:?}: expected an embedded backend (varisat, batsat, cadical[:CONFIG], renamed:SEED:one of these)"
    )]
    PortfolioMember { name: String },
    #[error(
        "renamed:{spec}: expected renamed:SEED:BACKEND (SEED an unsigned integer, BACKEND a \
         backend name)"
    )]
    RenamedSpec { spec: String },
    #[error(
        "cubes:{spec}: expected cubes:DEPTH:BACKEND (DEPTH from 0 to 16, BACKEND an embedded \
         backend other than portfolio, cubes and varisat, which cannot go on after being stopped)"
    )]
    CubesSpec { spec: String },
    #[error("cube-and-conquer: a worker's loading was stopped, so the workers do not hold the whole formula")]
    CubesGone,
    #[error("portfolio:{spec}: a portfolio needs two members or more")]
    PortfolioTooSmall { spec: String },
    #[error("the portfolio's race ended with no winner; its members are gone")]
    PortfolioGone,
    #[error("backend ext: expected a solver after `ext:` (ext:PATH [ARGS...]), found nothing")]
    ExternalMissing,
    #[error(
        "backend ext: expected an executable solver (a path, or a name found on PATH), found {}: `{name}`",
        if name.contains('/') { "no such file" } else { "no such file in any directory of PATH" }
    )]
    ExternalNotFound { name: String },
    #[error(
        "{}: no known command-line option for a conflict limit (known for cadical and kissat)",
        program.display()
    )]
    NoConflictLimitOption { program: PathBuf },
    #[error("cannot start {program:?}: {source}")]
    Start {
        program: OsString,
        source: std::io::Error,
    },
    #[error("wait4: {0}")]
    Wait(#[source] std::io::Error),
    #[error("cannot write {}: {source}", path.display())]
    WriteInput {
        path: PathBuf,
        source: std::io::Error,
    },
    /// An external solver's answer that cannot be taken; `end` says how the process ended.
    #[error("{kind}; {end}")]
    Answer { kind: AnswerErrorKind, end: String },
}

/// What is wrong with an external solver's answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AnswerErrorKind {
    #[error(
        "expected the solver's answer {place} (`s SATISFIABLE`, `s UNSATISFIABLE` or SAT/UNSAT), found nothing"
    )]
    Missing { place: &'static str },
    #[error("expected the solver's answer {place}, found: {error}")]
    Unreadable {
        place: &'static str,
        error: SyntaxError,
    },
    #[error("expected exit status 10 with SAT and 20 with UNSAT, found the other")]
    ExitContradicts,
    #[error("expected SAT or UNSAT, found UNKNOWN (the solver gave up)")]
    Unknown,
}
