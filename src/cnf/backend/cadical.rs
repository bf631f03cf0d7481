//! The CaDiCaL backend (A. Biere et al., CaDiCaL 1.9.5, MIT), embedded through the `cadical`
//! crate 0.1.16 (M. Maróti, MIT), which compiles CaDiCaL's vendored C++ source with the C++
//! compiler alone (the `cc` crate; no bindgen, no libclang).
//!
//! Names: `cadical` (CaDiCaL's default options) and `cadical:plain|sat|unsat`, its predefined
//! configurations (`plain`: no inprocessing; `sat`/`unsat`: tuned for satisfiable or
//! unsatisfiable instances).
//!
//! Limits: the deadline and the cancel flag are polled through CaDiCaL's terminate callback,
//! which it calls during search and between inprocessing rounds (the clock is read on every
//! call); the conflict and decision limits are CaDiCaL's own `conflicts` and `decisions`
//! limits, which it resets after each `solve`, so they are set again before every call.
//! CaDiCaL's C API exposes no counters: decisions, conflicts and propagations stay `None`;
//! its learner hook counts the clauses it learns (`learned`: at most its conflicts, as some
//! conflicts learn no clause, e.g. those chronological backtracking resolves). Nor
//! does it say which of its own limits stopped a call: with both set (incremental mode's
//! fallback under a node limit), a stop is reported as the conflict limit, so the puzzle goes
//! to the fresh fallback, whose call is capped at the node limit again. (Telling them apart
//! by the clauses learned fails: on forum-hardest under `fallback=50` 129 of 375 puzzles
//! stopped at the conflict limit having learned fewer than 50 clauses: many of its conflicts
//! there learn no clause.)

use super::{BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend};
use crate::cnf::model::Model;

/// Callbacks that stop the search when the budget is spent, and count the clauses learned.
#[derive(Default)]
struct Stopper {
    budget: Deadline,
    why: Option<Interrupt>,
    /// Clauses learned in this call (units and the empty clause included).
    learned: u64,
}

impl cadical::Callbacks for Stopper {
    fn terminate(&mut self) -> bool {
        if self.why.is_some() {
            return true;
        }
        // CaDiCaL already calls this only every `terminateint` (10) checks, and a check can be
        // far apart on large formulas: the clock is read on every call.
        self.why = self.budget.expired().map(Interrupt::from);
        self.why.is_some()
    }

    /// Every learned clause is exported (its literals copied once into the wrapper's buffer):
    /// within the noise of the search time, measured in docs/engines.md ("CaDiCaL's learned
    /// clauses").
    fn max_length(&self) -> i32 {
        i32::MAX
    }

    fn learn(&mut self, _clause: &[i32]) {
        self.learned += 1;
    }
}

pub struct Cadical {
    solver: cadical::Solver<Stopper>,
    config: &'static str,
    num_vars: u32,
    conflict_limit: Option<u64>,
    decision_limit: Option<u64>,
    /// Clauses learned over every call, from the learner hook.
    learned: u64,
}

/// The configurations `cadical:NAME` accepts.
pub const CADICAL_CONFIGS: [&str; 3] = ["plain", "sat", "unsat"];

impl Cadical {
    /// CaDiCaL with its default options, or one of [`CADICAL_CONFIGS`].
    pub fn new(config: Option<&str>) -> Result<Self, BackendError> {
        let (solver, config) = match config {
            None => (cadical::Solver::new(), "default"),
            Some(c) => {
                let name = CADICAL_CONFIGS.iter().find(|&&k| k == c).ok_or_else(|| {
                    BackendError::UnknownCadicalConfig {
                        config: c.to_string(),
                        known: CADICAL_CONFIGS.join(", "),
                    }
                })?;
                let s = cadical::Solver::with_config(name).map_err(|error| {
                    BackendError::CadicalConfig {
                        config: c.to_string(),
                        error,
                    }
                })?;
                (s, *name)
            }
        };
        Ok(Cadical {
            solver,
            config,
            num_vars: 0,
            conflict_limit: None,
            decision_limit: None,
            learned: 0,
        })
    }
}

impl SatBackend for Cadical {
    fn name(&self) -> String {
        match self.config {
            "default" => "cadical".into(),
            c => format!("cadical:{c}"),
        }
    }

    fn reserve_vars(&mut self, n: u32) {
        if n > self.num_vars {
            self.num_vars = n;
            self.solver.reserve(n as i32);
        }
    }

    fn add_clause(&mut self, lits: &[i32]) {
        for &l in lits {
            self.num_vars = self.num_vars.max(l.unsigned_abs());
        }
        self.solver.add_clause(lits.iter().copied());
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }

    fn set_decision_limit(&mut self, limit: Option<u64>) -> bool {
        self.decision_limit = limit;
        true
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        self.solver.set_callbacks(Some(Stopper {
            budget: budget.clone(),
            ..Stopper::default()
        }));
        // CaDiCaL's limits: N allows N conflicts (decisions); -1 is none.
        let cap = |l: Option<u64>| l.map_or(-1, |l| l.min(i32::MAX as u64) as i32);
        for (name, limit) in [
            ("conflicts", self.conflict_limit),
            ("decisions", self.decision_limit),
        ] {
            self.solver
                .set_limit(name, cap(limit))
                .map_err(BackendError::CadicalLimit)?;
        }
        for &l in assumptions {
            self.num_vars = self.num_vars.max(l.unsigned_abs());
        }
        let answer = self.solver.solve_with(assumptions.iter().copied());
        self.learned += self.solver.get_callbacks().map_or(0, |s| s.learned);
        match answer {
            Some(true) => {
                let mut values = Vec::with_capacity(self.num_vars as usize + 1);
                values.push(None);
                values.extend((1..=self.num_vars as i32).map(|v| self.solver.value(v)));
                Ok(SatAnswer::Sat(Model::from_values(values)))
            }
            Some(false) => Ok(SatAnswer::Unsat),
            None => {
                let why = self
                    .solver
                    .get_callbacks()
                    .and_then(|s| s.why)
                    .or_else(|| budget.expired().map(Interrupt::from));
                Ok(SatAnswer::Interrupted(match why {
                    Some(w) => w,
                    None if self.conflict_limit.is_some() => Interrupt::ConflictLimit,
                    None if self.decision_limit.is_some() => Interrupt::DecisionLimit,
                    None => return Err(BackendError::CadicalNoReason),
                }))
            }
        }
    }

    /// Measured: see [`SatBackend::teardown_ns_per_clause`] (one heap allocation per clause).
    fn teardown_ns_per_clause(&self) -> f64 {
        120.0
    }

    fn stats(&self) -> BackendStats {
        BackendStats {
            learned: Some(self.learned),
            ..BackendStats::default()
        }
    }
}
