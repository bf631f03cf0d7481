//! The Kissat backend (A. Biere et al., Kissat 3.1.1, MIT), embedded through the `cat_solver`
//! crate 3.1.1 (J. Blanchard, MIT), which compiles Kissat's vendored C source with the C
//! compiler alone (the `cc` crate; no bindgen, no libclang).
//!
//! The crate builds Kissat as `./configure --ultimate` would (no options at run time, no
//! proofs, no messages) and wraps only its IPASIR subset; it has no terminate call. So this
//! module declares the functions of `kissat.h` it needs itself (`kissat_terminate` among
//! them) and links the library the crate builds.
//!
//! Kissat is not incremental: a solver answers one `solve` and must then be released. So the
//! backend keeps the clauses, and each `solve` loads them into a fresh Kissat, with the
//! assumptions added as unit clauses (an assumption only holds for its call, and the next
//! call starts from the clauses again). Counting to two solutions therefore solves the
//! formula twice from scratch, the second time with the first model's blocking clause.
//!
//! Limits: Kissat 3.1.1 stores an IPASIR terminate callback but never calls it (its search
//! reads only the flag that `kissat_terminate` raises, as its own signal handler does). So
//! a call with a deadline or a cancel flag runs a watcher thread beside the search, which
//! polls them every millisecond and raises the flag once one has passed; the call joins it
//! before it returns. The conflict limit is Kissat's own, set on the fresh solver. The
//! backend takes no decision limit: Kissat's API gives no count of decisions, and every call
//! starts a fresh solver that spends its decisions from scratch, so the sat engine's caps for
//! backends that cap but do not count (shrinking from call to call, sized for an incremental
//! solver) would stop a count of many solutions early (the empty 4x4 stopped at 268 of its
//! 288 under a node limit of 20 million). A node limit is so not applied to it, as for
//! varisat, and the row's note says so. Its API exposes no counters: decisions, conflicts and
//! propagations stay `None`.

use super::{BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend};
use crate::cnf::model::Model;
use std::os::raw::{c_int, c_uint};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

// The library `cat_solver` compiles and links (`links = "kissat"`); its Rust items are unused.
use cat_solver as _;

/// Kissat's opaque solver.
#[repr(C)]
struct RawKissat {
    _private: [u8; 0],
}

extern "C" {
    fn kissat_init() -> *mut RawKissat;
    fn kissat_release(solver: *mut RawKissat);
    fn kissat_reserve(solver: *mut RawKissat, max_var: c_int);
    fn kissat_add(solver: *mut RawKissat, lit: c_int);
    fn kissat_solve(solver: *mut RawKissat) -> c_int;
    fn kissat_value(solver: *mut RawKissat, lit: c_int) -> c_int;
    fn kissat_terminate(solver: *mut RawKissat);
    fn kissat_set_conflict_limit(solver: *mut RawKissat, limit: c_uint);
}

/// How often the watcher thread reads the deadline and the cancel flag.
const WATCH_EVERY: Duration = Duration::from_millis(1);

/// A solver pointer that the watcher thread may use for `kissat_terminate` alone.
struct Terminator(*mut RawKissat);

// SAFETY: the watcher calls only `kissat_terminate` through the pointer, which writes the
// solver's termination flag and nothing else (Kissat's own signal handler does the same from
// outside the search), and `Kissat::solve` joins the watcher before it releases the solver.
unsafe impl Send for Terminator {}

/// Runs the search of `solver` under `budget`: with a deadline or a cancel flag, a watcher
/// thread raises Kissat's termination flag once one has passed. Returns Kissat's answer
/// (10, 20 or 0) and the limit the watcher saw, if it stopped the search.
fn search(solver: &Instance, budget: &Deadline) -> (c_int, Option<Interrupt>) {
    if !budget.is_set() {
        // SAFETY: a live solver with its clauses loaded, searched on this thread.
        return (unsafe { kissat_solve(solver.0) }, None);
    }
    let (done, finished) = mpsc::channel::<()>();
    let watched = Terminator(solver.0);
    let budget = budget.clone();
    let watcher = std::thread::spawn(move || {
        let watched = watched;
        loop {
            match finished.recv_timeout(WATCH_EVERY) {
                Err(RecvTimeoutError::Timeout) => {}
                _ => return None,
            }
            if let Some(why) = budget.expired() {
                // SAFETY: see `Terminator`: the solver is live until the watcher is joined.
                unsafe { kissat_terminate(watched.0) };
                return Some(Interrupt::from(why));
            }
        }
    });
    // SAFETY: a live solver with its clauses loaded, searched on this thread; the watcher
    // only raises its termination flag.
    let answer = unsafe { kissat_solve(solver.0) };
    // The watcher may have stopped already (it raised the flag); then nobody receives.
    let _ = done.send(());
    let why = watcher.join().unwrap_or(None);
    (answer, why)
}

/// One Kissat solver for one `solve` call, released on drop.
struct Instance(*mut RawKissat);

impl Instance {
    fn new() -> Self {
        // SAFETY: `kissat_init` has no precondition; it aborts the process on allocation
        // failure rather than returning null.
        Instance(unsafe { kissat_init() })
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `kissat_init` and is released once, here.
        unsafe { kissat_release(self.0) }
    }
}

pub struct Kissat {
    /// Every clause so far, each followed by 0 (DIMACS order).
    clauses: Vec<i32>,
    num_vars: u32,
    conflict_limit: Option<u64>,
}

impl Kissat {
    pub fn new() -> Self {
        Kissat {
            clauses: Vec::new(),
            num_vars: 0,
            conflict_limit: None,
        }
    }
}

impl Default for Kissat {
    fn default() -> Self {
        Kissat::new()
    }
}

impl SatBackend for Kissat {
    fn name(&self) -> String {
        "kissat".into()
    }

    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    fn add_clause(&mut self, lits: &[i32]) {
        for &l in lits {
            self.num_vars = self.num_vars.max(l.unsigned_abs());
        }
        self.clauses.extend_from_slice(lits);
        self.clauses.push(0);
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        let num_vars = assumptions
            .iter()
            .fold(self.num_vars, |n, &l| n.max(l.unsigned_abs()));
        let max_var = c_int::try_from(num_vars).map_err(|_| BackendError::KissatTooManyVars {
            vars: u64::from(num_vars),
        })?;
        let solver = Instance::new();
        let cap = |l: u64| l.min(u64::from(c_uint::MAX)) as c_uint;
        // SAFETY: `solver.0` is a live solver from `kissat_init`, used on this thread only.
        // Literals are non-zero and within `max_var` (reserved first); each clause ends with
        // 0.
        unsafe {
            kissat_reserve(solver.0, max_var);
            for &l in &self.clauses {
                kissat_add(solver.0, l);
            }
            for &l in assumptions {
                kissat_add(solver.0, l);
                kissat_add(solver.0, 0);
            }
            if let Some(l) = self.conflict_limit {
                kissat_set_conflict_limit(solver.0, cap(l));
            }
        }
        let (answer, stopped) = search(&solver, budget);
        match answer {
            10 => {
                let mut values = Vec::with_capacity(num_vars as usize + 1);
                values.push(None);
                values.extend((1..=max_var).map(|v| {
                    // SAFETY: the solver answered SAT just now and is still live.
                    let value = unsafe { kissat_value(solver.0, v) };
                    // A variable in no clause is left unassigned (0): any value does.
                    Some(value > 0)
                }));
                Ok(SatAnswer::Sat(Model::from_values(values)))
            }
            20 => Ok(SatAnswer::Unsat),
            _ => {
                let why = stopped.or_else(|| budget.expired().map(Interrupt::from));
                Ok(SatAnswer::Interrupted(match why {
                    Some(w) => w,
                    None if self.conflict_limit.is_some() => Interrupt::ConflictLimit,
                    None => return Err(BackendError::KissatNoReason),
                }))
            }
        }
    }

    fn stats(&self) -> BackendStats {
        BackendStats::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::backend::{pigeons, stops_at_a_300ms_deadline};

    fn solve(k: &mut Kissat, assumptions: &[i32]) -> SatAnswer {
        k.solve(assumptions, &Deadline::default()).unwrap()
    }

    #[test]
    fn answers_and_models_across_calls() {
        let mut k = Kissat::new();
        k.add_clause(&[1, 2]);
        k.add_clause(&[-1, 2]);
        let SatAnswer::Sat(m) = solve(&mut k, &[]) else {
            panic!("expected SAT");
        };
        assert_eq!(m.value(2), Some(true));
        // Assumptions hold for one call only.
        assert_eq!(solve(&mut k, &[-2]), SatAnswer::Unsat);
        assert!(matches!(solve(&mut k, &[1]), SatAnswer::Sat(_)));
        // A blocking clause added after a solve: Kissat is rebuilt, the clause holds.
        k.add_clause(&[-2]);
        assert_eq!(solve(&mut k, &[]), SatAnswer::Unsat);
    }

    #[test]
    fn limits_stop_the_search_and_say_which() {
        let mut k = Kissat::new();
        pigeons(&mut k, 14);
        k.set_conflict_limit(Some(100));
        assert_eq!(
            solve(&mut k, &[]),
            SatAnswer::Interrupted(Interrupt::ConflictLimit)
        );
        k.set_conflict_limit(None);
        stops_at_a_300ms_deadline(&mut k);
    }
}
