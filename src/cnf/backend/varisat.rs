//! The varisat backend (J. Fischer, varisat 0.2.2, MIT/Apache-2.0): CDCL in Rust, embedded.
//!
//! varisat exposes neither search statistics nor an interrupt: its counters are reported as
//! `None`, and the budget is checked before each `solve` call only, so a single hard call can
//! overrun the time limit (a watchdog that runs the solver on a thread it can abandon is left
//! for later).

use super::{BackendStats, Budget, SatAnswer, SatBackend};
use crate::cnf::formula::Cnf;
use crate::cnf::model::Model;
use varisat::{ExtendFormula, Lit, Solver};

pub struct Varisat {
    solver: Solver<'static>,
    num_vars: u32,
    scratch: Vec<Lit>,
}

impl Varisat {
    pub fn new() -> Self {
        Varisat {
            solver: Solver::new(),
            num_vars: 0,
            scratch: Vec::new(),
        }
    }
}

impl Default for Varisat {
    fn default() -> Self {
        Self::new()
    }
}

impl SatBackend for Varisat {
    fn name(&self) -> String {
        "varisat".into()
    }

    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    fn add_clause(&mut self, lits: &[i32]) {
        self.scratch.clear();
        for &l in lits {
            self.num_vars = self.num_vars.max(l.unsigned_abs());
            self.scratch.push(Lit::from_dimacs(l as isize));
        }
        self.solver.add_clause(&self.scratch);
    }

    /// Every clause of `cnf`, converted straight into the scratch buffer (no per-clause
    /// dispatch; every variable is within `cnf.num_vars`).
    fn add_cnf(&mut self, cnf: &Cnf) {
        self.reserve_vars(cnf.num_vars);
        debug_assert!(cnf.clauses.max_var() <= cnf.num_vars);
        for c in cnf.clauses.iter() {
            self.scratch.clear();
            self.scratch
                .extend(c.iter().map(|&l| Lit::from_dimacs(l as isize)));
            self.solver.add_clause(&self.scratch);
        }
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Budget) -> Result<SatAnswer, String> {
        if let Some(why) = budget.spent() {
            return Ok(SatAnswer::Interrupted(why));
        }
        let a: Vec<Lit> = assumptions
            .iter()
            .map(|&l| Lit::from_dimacs(l as isize))
            .collect();
        self.solver.assume(&a);
        match self.solver.solve() {
            Ok(true) => {
                let lits = self.solver.model().ok_or("varisat: SAT without a model")?;
                let mut values = vec![None; self.num_vars as usize + 1];
                for l in lits {
                    let v = l.index() + 1;
                    if v >= values.len() {
                        values.resize(v + 1, None);
                    }
                    values[v] = Some(l.is_positive());
                }
                Ok(SatAnswer::Sat(Model::from_values(values)))
            }
            Ok(false) => Ok(SatAnswer::Unsat),
            Err(e) => Err(format!("varisat: {e}")),
        }
    }

    fn stats(&self) -> BackendStats {
        BackendStats::default()
    }
}
