//! Where an encoder's clauses go: a [`ClauseSink`]. The formula is never held twice: the `sat`
//! engine sends the clauses straight into its solver (every [`SatBackend`] is a sink), `encode
//! --to cnf` and the tests store them in [`Clauses`], `stats` only counts them ([`Counter`]).

use super::backend::SatBackend;
use super::formula::Clauses;

/// A consumer of clauses (DIMACS literals, no terminating 0).
pub trait ClauseSink {
    /// One clause. An empty clause makes the formula unsatisfiable.
    fn add_clause(&mut self, lits: &[i32]);

    /// Room for this many more clauses and literals (a hint: the encoder knows the exact
    /// size of its formula before it emits the first clause).
    fn reserve(&mut self, _clauses: usize, _literals: usize) {}

    /// The pairwise at-most-one clauses of `lits`, `(-a, -b)` for every `a` before `b`, in
    /// that order (a sink may do it faster than clause by clause).
    fn add_pairwise(&mut self, lits: &[i32]) {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                self.add_clause(&[-a, -b]);
            }
        }
    }
}

impl<S: ClauseSink + ?Sized> ClauseSink for &mut S {
    fn add_clause(&mut self, lits: &[i32]) {
        (**self).add_clause(lits)
    }
    fn reserve(&mut self, clauses: usize, literals: usize) {
        (**self).reserve(clauses, literals)
    }
    fn add_pairwise(&mut self, lits: &[i32]) {
        (**self).add_pairwise(lits)
    }
}

impl ClauseSink for Clauses {
    fn add_clause(&mut self, lits: &[i32]) {
        self.push(lits)
    }
    fn reserve(&mut self, clauses: usize, literals: usize) {
        Clauses::reserve(self, clauses, literals)
    }
    fn add_pairwise(&mut self, lits: &[i32]) {
        self.push_pairwise(lits)
    }
}

/// Every SAT backend takes the clauses directly.
impl ClauseSink for dyn SatBackend + '_ {
    fn add_clause(&mut self, lits: &[i32]) {
        SatBackend::add_clause(self, lits)
    }
}

/// Counts clauses and literals without storing them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counter {
    pub clauses: u64,
    pub literals: u64,
}

impl ClauseSink for Counter {
    fn add_clause(&mut self, lits: &[i32]) {
        self.clauses += 1;
        self.literals += lits.len() as u64;
    }
    fn add_pairwise(&mut self, lits: &[i32]) {
        let k = lits.len() as u64;
        self.clauses += k * k.saturating_sub(1) / 2;
        self.literals += k * k.saturating_sub(1);
    }
}
