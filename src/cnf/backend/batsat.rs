//! The batsat backend (S. Cruanes, batsat 0.6, MIT): a Rust port of MiniSat 2.2, embedded.
//!
//! Exposes decisions, conflicts and propagations (MiniSat's counters: `decisions` counts
//! branching literals picked by the heuristic, not assumptions). The budget is polled through
//! batsat's `stop` callback, which it calls before every decision and after every restart;
//! the clock is read once per 64 polls. The conflict limit counts the clauses batsat learns
//! (its `on_new_clause` callback, one per conflict) and stops at the next poll: batsat's own
//! conflict budget has no setter. The decision limit (the sat engine's node limit) is read the
//! same way: `stop` is read before every decision and at every assumption level, so the reads
//! allowed are the decisions left plus the assumptions, and a run that stops short of the
//! limit is resumed (see `solve`).

use super::{BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend};
use crate::cnf::model::Model;
use batsat::{clause, lbool, Callbacks, Lit, SolverInterface, SolverOpts, Var};
use std::cell::Cell;

/// Callbacks that stop the search when the budget is spent.
#[derive(Default)]
struct Stopper {
    budget: Deadline,
    polls: Cell<u32>,
    why: Cell<Option<Interrupt>>,
    /// Conflicts allowed in this call, and conflicts so far in it.
    conflict_limit: Option<u64>,
    conflicts: u64,
    /// Reads of `stop` allowed in this run of the search (each decision is preceded by one;
    /// so is each assumption level), and reads so far in it.
    read_limit: Option<u64>,
    reads: Cell<u64>,
}

impl Callbacks for Stopper {
    fn on_new_clause(&mut self, _c: &[Lit], kind: clause::Kind) {
        if kind == clause::Kind::Learnt {
            self.conflicts += 1;
        }
    }

    fn stop(&self) -> bool {
        if self.why.get().is_some() {
            return true;
        }
        if let Some(limit) = self.conflict_limit {
            if self.conflicts >= limit {
                self.why.set(Some(Interrupt::ConflictLimit));
                return true;
            }
        }
        if let Some(limit) = self.read_limit {
            let reads = self.reads.get() + 1;
            self.reads.set(reads);
            if reads > limit {
                self.why.set(Some(Interrupt::DecisionLimit));
                return true;
            }
        }
        let p = self.polls.get().wrapping_add(1);
        self.polls.set(p);
        if p % 64 != 0 {
            return false;
        }
        let why = self.budget.expired().map(Interrupt::from);
        self.why.set(why);
        why.is_some()
    }
}

pub struct Batsat {
    solver: batsat::Solver<Stopper>,
    scratch: Vec<Lit>,
    /// Decisions allowed per `solve` call ([`SatBackend::set_decision_limit`]).
    decision_limit: Option<u64>,
}

impl Batsat {
    pub fn new() -> Self {
        Batsat {
            solver: batsat::Solver::new(SolverOpts::default(), Stopper::default()),
            scratch: Vec::new(),
            decision_limit: None,
        }
    }

    fn lit(&mut self, l: i32) -> Lit {
        let v: Var = self.solver.var_of_int(l.unsigned_abs() - 1);
        Lit::new(v, l > 0)
    }
}

impl Default for Batsat {
    fn default() -> Self {
        Self::new()
    }
}

impl SatBackend for Batsat {
    fn name(&self) -> String {
        "batsat".into()
    }

    fn reserve_vars(&mut self, n: u32) {
        if n > 0 {
            self.solver.var_of_int(n - 1);
        }
    }

    /// Variables are created here with the user polarity of their literal (batsat sets it only
    /// when it creates a variable); variables already created keep theirs.
    fn prefer(&mut self, lits: &[i32]) {
        let mut polarity = Vec::new();
        for &l in lits {
            let v = l.unsigned_abs() as usize;
            if v > polarity.len() {
                polarity.resize(v, lbool::UNDEF);
            }
            polarity[v - 1] = lbool::from(l > 0);
        }
        for (v, &p) in polarity.iter().enumerate() {
            if v as u32 >= self.solver.num_vars() {
                self.solver.new_var(p, true);
            }
        }
    }

    fn add_clause(&mut self, lits: &[i32]) {
        let mut c = std::mem::take(&mut self.scratch);
        c.clear();
        for &l in lits {
            c.push(self.lit(l));
        }
        // `false` means the formula became unsatisfiable at level 0; `solve` then says so.
        self.solver.add_clause_reuse(&mut c);
        self.scratch = c;
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        let a: Vec<Lit> = assumptions.iter().map(|&l| self.lit(l)).collect();
        {
            let cb = self.solver.cb_mut();
            cb.budget = budget.clone();
            cb.why.set(None);
            cb.polls.set(0);
            cb.conflicts = 0;
        }
        // The decision limit: `stop` is also read at each assumption level (again after every
        // restart), so the reads allowed are the decisions left plus the assumptions, and a
        // run stopped before the decisions reach the limit is resumed while it makes
        // progress. The search restarts then, keeping what it learned.
        let first = self.solver.num_decisions();
        let mut r;
        loop {
            let made = self.solver.num_decisions() - first;
            let cb = self.solver.cb_mut();
            cb.reads.set(0);
            cb.read_limit = self
                .decision_limit
                .map(|l| l.saturating_sub(made) + a.len() as u64);
            r = self.solver.solve_limited(&a);
            let cb = self.solver.cb();
            let now = self.solver.num_decisions() - first;
            let short = self.decision_limit.is_some_and(|l| now < l);
            if r == lbool::UNDEF
                && cb.why.get() == Some(Interrupt::DecisionLimit)
                && short
                && now > made
            {
                self.solver.cb().why.set(None);
                continue;
            }
            break;
        }
        if r == lbool::TRUE {
            let model = self.solver.get_model();
            let mut values = Vec::with_capacity(model.len() + 1);
            values.push(None);
            values.extend(model.iter().map(|&b| {
                if b == lbool::TRUE {
                    Some(true)
                } else if b == lbool::FALSE {
                    Some(false)
                } else {
                    None
                }
            }));
            Ok(SatAnswer::Sat(Model::from_values(values)))
        } else if r == lbool::FALSE {
            Ok(SatAnswer::Unsat)
        } else {
            let why = self
                .solver
                .cb()
                .why
                .get()
                .or_else(|| budget.expired().map(Interrupt::from))
                .unwrap_or(Interrupt::Time);
            Ok(SatAnswer::Interrupted(why))
        }
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.solver.cb_mut().conflict_limit = limit;
    }

    fn set_decision_limit(&mut self, limit: Option<u64>) -> bool {
        self.decision_limit = limit;
        true
    }

    /// Measured: see [`SatBackend::teardown_ns_per_clause`] (clauses live in one arena; the watch lists are one vector per literal).
    fn teardown_ns_per_clause(&self) -> f64 {
        20.0
    }

    fn stats(&self) -> BackendStats {
        BackendStats {
            decisions: Some(self.solver.num_decisions()),
            conflicts: Some(self.solver.num_conflicts()),
            propagations: Some(self.solver.num_propagations()),
            ..BackendStats::default()
        }
    }
}
