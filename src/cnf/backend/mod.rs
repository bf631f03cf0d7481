//! SAT backends behind one trait: embedded solvers and any external executable.
//!
//! - `varisat`: J. Fischer's varisat 0.2.2, a CDCL solver in Rust. It exposes no search
//!   statistics (decisions, conflicts and propagations are `None`) and no interrupt call: once
//!   [`SatBackend::expect_limits`] was called (before the first clause), it writes its native
//!   proof into a writer that discards it and fails once the budget is spent, which ends the
//!   search (see [`Varisat`]).
//! - `batsat`: S. Cruanes' batsat 0.6 (a Rust port of MiniSat 2.2, MIT). Exposes conflicts,
//!   decisions and propagations; the time limit and cancel flag are polled through its `stop`
//!   callback, which batsat calls before every decision and after every restart; conflicts are
//!   counted through its learned-clause callback for the conflict limit.
//! - `cadical`, `cadical:plain|sat|unsat`: CaDiCaL 1.9.5 (MIT) embedded through the `cadical`
//!   crate, built from its vendored C++ source; limits polled through its terminate callback,
//!   no counters exposed (see [`Cadical`]).
//! - `kissat`: Kissat 3.1.1 (MIT) embedded through the `cat_solver` crate, built from its
//!   vendored C source; not incremental, so every `solve` loads the kept clauses into a fresh
//!   solver; a watcher thread raises its termination flag at the deadline (its terminate
//!   callback is never called), no decision limit, no counters (see [`Kissat`]).
//! - `portfolio[:A+B+...]`: embedded backends racing on one thread each, the first answer
//!   kept and the others stopped (default members batsat and CaDiCaL; see [`Portfolio`]).
//! - `renamed:SEED:BACKEND`: BACKEND on the formula with its variables renamed by a seeded
//!   random permutation, to diversify a portfolio's members (see [`Renamed`]).
//! - `cubes:DEPTH:BACKEND`: cube-and-conquer: a lookahead splits the formula into at most
//!   `2^DEPTH` cubes, which worker threads (one per core, each with its own BACKEND) solve as
//!   assumptions (see [`Cubes`]).
//! - `ext:PATH [ARGS...]`: an executable that reads a DIMACS file named as its last argument
//!   and answers in the SAT competition convention (`s`/`v` lines on stdout, exit 10/20).
//!   Executables whose file name contains `minisat` are run MiniSat's way instead:
//!   `minisat [ARGS...] in.cnf result.txt`, answer read from the result file. The process
//!   runs in its own process group, killed (group-wide) at the time limit or on cancel and
//!   always reaped; stdout and stderr are drained on threads, so a chatty solver cannot block.
//!
//! Clauses are DIMACS literals (`i32`, variables from 1). A backend keeps its clauses across
//! `solve` calls, so blocking clauses can be added between calls.
//!
//! Limits of a `solve` call: the [`Deadline`] (time, cancel flag; the crate's one deadline
//! type, from [`crate::search`], read through [`Deadline::expired`] and reported as an
//! [`Interrupt`]) and the conflict limit of
//! [`SatBackend::set_conflict_limit`], a deterministic budget (the same formula and limit stop
//! at the same point on every run), reported as [`Interrupt::ConflictLimit`].

mod batsat;
mod cadical;
mod cubes;
mod error;
mod external;
mod kissat;
mod portfolio;
mod renamed;
mod varisat;

pub use self::batsat::Batsat;
pub use self::cadical::{Cadical, CADICAL_CONFIGS};
pub use self::cubes::Cubes;
pub use self::error::{AnswerErrorKind, BackendError};
pub use self::external::{External, ExternalStyle};
pub use self::kissat::Kissat;
pub use self::portfolio::Portfolio;
pub use self::renamed::Renamed;
pub use self::varisat::Varisat;

use super::formula::Cnf;
use super::model::Model;
pub use crate::search::Deadline;
use crate::search::Expiry;
use std::time::Instant;

/// Why a `solve` call ended without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// The deadline passed.
    Time,
    /// The cancel flag was set.
    Cancelled,
    /// The call's conflict limit ([`SatBackend::set_conflict_limit`]) was reached.
    ConflictLimit,
    /// The call's decision limit ([`SatBackend::set_decision_limit`]) was reached.
    DecisionLimit,
}

/// What one `solve` call answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    Sat(Model),
    Unsat,
    Interrupted(Interrupt),
}

impl From<Expiry> for Interrupt {
    fn from(why: Expiry) -> Self {
        match why {
            Expiry::Time => Interrupt::Time,
            Expiry::Cancelled => Interrupt::Cancelled,
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
    /// Clauses learned from conflicts, where only those are known (CaDiCaL's learner hook):
    /// at most the conflicts, as some conflicts learn no clause.
    pub learned: Option<u64>,
    /// CPU time (user + system) of external solver processes, microseconds.
    pub child_cpu_us: Option<u64>,
    /// CPU time of threads the backend ran beside the caller's (a portfolio's members, loading
    /// the clauses, searching and freeing), microseconds. Unlike a child process's, the sat
    /// engine counts it in this process's times: the part in `thread_load_cpu_us` in
    /// `build_s`, the rest in `solve_s`.
    pub thread_cpu_us: Option<u64>,
    /// The part of `thread_cpu_us` spent loading clauses into the solvers, microseconds.
    pub thread_load_cpu_us: Option<u64>,
    /// A portfolio's winner: the position (from 1) of the member that decided its race, as
    /// named in its spec; 0 before the race; `None` for a single solver.
    pub winner: Option<u64>,
    /// Cube-and-conquer: the cubes its lookahead made, summed over the splits (a call that
    /// reuses the last split adds none); `None` for other backends.
    pub cubes: Option<u64>,
}

/// A SAT solver that keeps its clauses across calls. `Send`, so that an engine can keep one
/// across puzzles (engines move between threads).
pub trait SatBackend: Send {
    /// `varisat`, `batsat` or `ext:PATH`.
    fn name(&self) -> String;
    /// Declares variables `1..=n` (clauses may also mention new ones).
    fn reserve_vars(&mut self, n: u32);
    /// Adds a clause (DIMACS literals, no 0). An empty clause makes the formula unsatisfiable.
    fn add_clause(&mut self, lits: &[i32]);
    /// Solves under `assumptions` (literals true for this call only).
    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError>;
    /// Counters so far.
    fn stats(&self) -> BackendStats;

    /// Caps the conflicts of each later `solve` call (counted from the start of that call) at
    /// `limit`; `None` removes the cap. A call that reaches it answers
    /// `Interrupted(ConflictLimit)`. batsat stops at the first decision after the limit-th
    /// conflict; CaDiCaL uses its own `conflicts` limit; varisat stops at the first flush of
    /// its proof output after the limit (a few conflicts later, at the same point on every
    /// run); external solvers get the limit as a command-line option where one is known
    /// (CaDiCaL `-c N`, Kissat `--conflicts=N`), and answer an error otherwise.
    fn set_conflict_limit(&mut self, limit: Option<u64>);

    /// Caps the decisions of each later `solve` call at `limit` (`None` removes the cap): the
    /// sat engine's `--node-limit` inside one call. A call that reaches it answers
    /// `Interrupted(DecisionLimit)`. Returns whether the backend applies such a cap (false:
    /// it has no decision limit and ignores it, the default).
    /// - batsat counts its decisions (in [`SatBackend::stats`]): its stop callback is read
    ///   before every decision and at assumption levels, so it is allowed `limit` reads plus
    ///   one per assumption, and resumed while it stops short of `limit` decisions and makes
    ///   progress. A call with assumptions may so pass `limit` by at most their number (an
    ///   assumption already true takes no read); one without stops at `limit` exactly.
    /// - CaDiCaL applies it as its own `decisions` limit, exact within the call; its C API
    ///   exposes no count, so the caller cannot subtract one call's decisions from the next
    ///   call's cap.
    /// - A portfolio passes it to the members that count decisions (all members if none does).
    /// - External CaDiCaL and Kissat get it as a command-line option (`-d N`,
    ///   `--decisions=N`), and the decisions they print are the count.
    /// - varisat, embedded Kissat (see its module) and other external solvers have none.
    fn set_decision_limit(&mut self, _limit: Option<u64>) -> bool {
        false
    }

    /// A hint to the decision heuristic: the first decision on the variable of each literal of
    /// `lits` sets it to that literal's value. Call it before `reserve_vars` and the first
    /// clause; the answers do not depend on it, only the model found and the search time. batsat
    /// keeps the value as MiniSat's user polarity (every decision on the variable tries it
    /// first); the other backends ignore the hint.
    fn prefer(&mut self, _lits: &[i32]) {}

    /// Declares, before the first clause, that `solve` calls may carry a deadline, a cancel
    /// flag or a conflict limit. Only varisat needs it: its interrupt (the proof output) must
    /// exist from the first clause, and it costs search time, so it is installed only when a
    /// limit may come. The other backends poll their limits at no cost and ignore it.
    fn expect_limits(&mut self) {}

    /// CPU time this backend needs to free one loaded clause (with its share of watch lists
    /// and variables), in nanoseconds: the measured drop time of a solver holding the empty
    /// 81x81 grid's `extended` formula (1.38e7 clauses, amo=auto), divided by its clauses, on
    /// the 2-core development machine: batsat 19, varisat 18, CaDiCaL 116 (load 8.6). [`Teardown`] uses it so that a time limit covers
    /// freeing the solver too.
    fn teardown_ns_per_clause(&self) -> f64 {
        0.0
    }

    /// Whether `solve` can be called again after a call was interrupted (a time limit, a
    /// cancel flag or the conflict limit). varisat can only when its conflict limit was set
    /// before its first clause (it then keeps a copy of the clauses and rebuilds).
    fn survives_interrupts(&self) -> bool {
        true
    }

    /// Waits for any thread the backend still runs for an answer it gave (a portfolio's losers
    /// stopping and freeing their solvers beside the winner), so that [`SatBackend::stats`]
    /// counts their work. The sat engine calls it before it reads the counters of a puzzle.
    fn settle(&mut self) {}

    /// Adds every clause of `cnf` (not its assumptions).
    fn add_cnf(&mut self, cnf: &Cnf) {
        self.reserve_vars(cnf.num_vars);
        for c in cnf.clauses.iter() {
            self.add_clause(c);
        }
    }
}

/// The time needed to free a backend, reserved inside a deadline: a solver holding 1.4e7
/// clauses takes from 0.2 s (batsat) to seconds (CaDiCaL, one allocation per clause) to drop,
/// which would otherwise come on top of the time limit. The estimate is the backend's CPU cost
/// per clause ([`SatBackend::teardown_ns_per_clause`]) times the clauses loaded, stretched by
/// this thread's wall/CPU ratio since `watch` started (on a loaded machine freeing takes wall
/// time in the same proportion as the work before it), times a safety factor of 2.
#[derive(Clone, Copy, Debug)]
pub struct Teardown {
    pub ns_per_clause: f64,
    pub watch: crate::timing::Stopwatch,
}

impl Teardown {
    /// The wall time to reserve for freeing a backend that holds `clauses` clauses.
    pub fn reserve(&self, clauses: u64) -> std::time::Duration {
        if self.ns_per_clause <= 0.0 || clauses == 0 {
            return std::time::Duration::ZERO;
        }
        let wall = self.watch.wall().as_secs_f64();
        let cpu = self.watch.cpu().as_secs_f64();
        // Early on both clocks are near zero and the ratio means nothing; so is the reserve.
        let load = if cpu > 0.01 {
            (wall / cpu).clamp(1.0, 16.0)
        } else {
            1.0
        };
        std::time::Duration::from_secs_f64(2.0 * load * clauses as f64 * self.ns_per_clause * 1e-9)
    }

    /// `deadline` moved earlier by the reserve for `clauses` clauses.
    pub fn deadline(&self, deadline: Instant, clauses: u64) -> Instant {
        let r = self.reserve(clauses);
        deadline.checked_sub(r).unwrap_or(deadline)
    }
}

/// The backend a `renamed:SEED:` chain wraps (`name` itself without one; empty when a
/// `renamed:` lacks its seed or backend): portfolio members and cube-and-conquer workers are
/// checked on it.
fn renamed_base(name: &str) -> &str {
    let mut base = name;
    while let Some(rest) = base.strip_prefix("renamed:") {
        base = rest.split_once(':').map_or("", |(_, b)| b);
    }
    base
}

/// Names accepted by [`make_backend`] (for help texts).
pub const BACKEND_NAMES: &str = "varisat | batsat | cadical | cadical:plain|sat|unsat | kissat | \
     portfolio[:A+B+...] | renamed:SEED:BACKEND | cubes:DEPTH:BACKEND | ext:PATH [ARGS...]";

/// Checks a backend name without making the backend (an `ext:` path must exist).
pub fn check_backend_name(name: &str) -> Result<(), BackendError> {
    make_backend(name).map(|_| ())
}

/// Makes a backend from its name: `varisat`, `batsat`, `cadical[:CONFIG]`, `kissat`,
/// `portfolio[:A+B+...]`, `renamed:SEED:BACKEND`, `cubes:DEPTH:BACKEND` or `ext:PATH [ARGS...]`.
pub fn make_backend(name: &str) -> Result<Box<dyn SatBackend>, BackendError> {
    match name {
        "varisat" => Ok(Box::new(Varisat::new())),
        "batsat" => Ok(Box::new(Batsat::new())),
        "cadical" => Ok(Box::new(Cadical::new(None)?)),
        _ if name.starts_with("cadical:") => Ok(Box::new(Cadical::new(Some(&name[8..]))?)),
        "kissat" => Ok(Box::new(Kissat::new())),
        "portfolio" => Ok(Box::new(Portfolio::from_spec(portfolio::DEFAULT_MEMBERS)?)),
        _ if name.starts_with("portfolio:") => Ok(Box::new(Portfolio::from_spec(&name[10..])?)),
        _ if name.starts_with("renamed:") => Ok(Box::new(Renamed::from_spec(&name[8..])?)),
        _ if name.starts_with("cubes:") => Ok(Box::new(Cubes::from_spec(&name[6..])?)),
        _ => match name.strip_prefix("ext:") {
            Some(spec) => Ok(Box::new(External::from_spec(spec)?)),
            None => Err(BackendError::UnknownName {
                name: name.to_string(),
            }),
        },
    }
}

/// A pigeonhole formula for the backends' tests: `holes + 1` pigeons, `holes` holes
/// (unsatisfiable, and exponential for resolution, so that a search runs long enough to be
/// stopped).
#[cfg(test)]
pub(crate) fn pigeons(b: &mut dyn SatBackend, holes: i32) {
    let var = |p: i32, h: i32| p * holes + h + 1;
    for p in 0..=holes {
        b.add_clause(&(0..holes).map(|h| var(p, h)).collect::<Vec<_>>());
    }
    for h in 0..holes {
        for p in 0..=holes {
            for q in p + 1..=holes {
                b.add_clause(&[-var(p, h), -var(q, h)]);
            }
        }
    }
}

/// Asserts that a deadline 300 ms away stops `b`'s search on a hard formula with
/// `Interrupted(Time)` well before the search could end (within 5 s: generous, the point is
/// a fraction of a second against minutes).
#[cfg(test)]
pub(crate) fn stops_at_a_300ms_deadline(b: &mut dyn SatBackend) {
    let start = Instant::now();
    let budget = Deadline::after(start, Some(std::time::Duration::from_millis(300)), None);
    assert_eq!(
        b.solve(&[], &budget).unwrap(),
        SatAnswer::Interrupted(Interrupt::Time)
    );
    assert!(
        start.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}
