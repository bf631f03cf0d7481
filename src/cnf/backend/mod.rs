//! SAT backends behind one trait: two embedded solvers and any external executable.
//!
//! - `varisat` (default): J. Fischer's varisat 0.2.2, a CDCL solver in Rust. It exposes no
//!   search statistics (decisions, conflicts and propagations are `None`) and no interrupt:
//!   the time limit and the cancel flag are checked before each `solve` call, not during it.
//! - `batsat`: S. Cruanes' batsat 0.6 (a Rust port of MiniSat 2.2, MIT). Exposes conflicts,
//!   decisions and propagations; the time limit and cancel flag are polled through its `stop`
//!   callback, which batsat calls before every decision and after every restart.
//! - `ext:PATH [ARGS...]`: an executable that reads a DIMACS file named as its last argument
//!   and answers in the SAT competition convention (`s`/`v` lines on stdout, exit 10/20).
//!   Executables whose file name contains `minisat` are run MiniSat's way instead:
//!   `minisat [ARGS...] in.cnf result.txt`, answer read from the result file. The process
//!   runs in its own process group, killed (group-wide) at the time limit or on cancel and
//!   always reaped; stdout and stderr are drained on threads, so a chatty solver cannot block.
//!
//! Clauses are DIMACS literals (`i32`, variables from 1). A backend keeps its clauses across
//! `solve` calls, so blocking clauses can be added between calls.

mod batsat;
mod external;
mod varisat;

pub use self::batsat::Batsat;
pub use self::external::{External, ExternalStyle};
pub use self::varisat::Varisat;

use super::formula::Cnf;
use super::model::Model;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Why a `solve` call ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The deadline passed.
    Time,
    /// The cancel flag was set.
    Cancelled,
}

/// What one `solve` call answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    Sat(Model),
    Unsat,
    Interrupted(Interrupt),
}

/// When to stop a `solve` call.
#[derive(Clone, Debug, Default)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// Whether the budget is spent now, and why.
    pub fn spent(&self) -> Option<Interrupt> {
        if let Some(c) = &self.cancel {
            if c.load(Ordering::Relaxed) {
                return Some(Interrupt::Cancelled);
            }
        }
        match self.deadline {
            Some(d) if Instant::now() >= d => Some(Interrupt::Time),
            _ => None,
        }
    }
}

/// Search counters of a backend, summed over its `solve` calls; `None` where the backend
/// does not expose them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BackendStats {
    pub decisions: Option<u64>,
    pub conflicts: Option<u64>,
    pub propagations: Option<u64>,
    /// CPU time (user + system) of external solver processes, microseconds.
    pub child_cpu_us: Option<u64>,
}

/// A SAT solver that keeps its clauses across calls.
pub trait SatBackend {
    /// `varisat`, `batsat` or `ext:PATH`.
    fn name(&self) -> String;
    /// Declares variables `1..=n` (clauses may also mention new ones).
    fn reserve_vars(&mut self, n: u32);
    /// Adds a clause (DIMACS literals, no 0). An empty clause makes the formula unsatisfiable.
    fn add_clause(&mut self, lits: &[i32]);
    /// Solves under `assumptions` (literals true for this call only).
    fn solve(&mut self, assumptions: &[i32], budget: &Budget) -> Result<SatAnswer, String>;
    /// Counters so far.
    fn stats(&self) -> BackendStats;

    /// Adds every clause of `cnf` (not its assumptions).
    fn add_cnf(&mut self, cnf: &Cnf) {
        self.reserve_vars(cnf.num_vars);
        for c in cnf.clauses.iter() {
            self.add_clause(c);
        }
    }
}

/// Names accepted by [`make_backend`] (for help texts).
pub const BACKEND_NAMES: &str = "varisat | batsat | ext:PATH [ARGS...]";

/// Checks a backend name without making the backend (an `ext:` path must exist).
pub fn check_backend_name(name: &str) -> Result<(), String> {
    make_backend(name).map(|_| ())
}

/// Makes a backend from its name: `varisat`, `batsat` or `ext:PATH [ARGS...]`.
pub fn make_backend(name: &str) -> Result<Box<dyn SatBackend>, String> {
    match name {
        "varisat" => Ok(Box::new(Varisat::new())),
        "batsat" => Ok(Box::new(Batsat::new())),
        _ => match name.strip_prefix("ext:") {
            Some(spec) => Ok(Box::new(External::from_spec(spec)?)),
            None => Err(format!(
                "unknown SAT backend {name:?} (known: {BACKEND_NAMES})"
            )),
        },
    }
}
