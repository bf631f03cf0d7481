//! The formula and what it means: a flat clause list (DIMACS literals), the map from variables
//! back to (cell, digit), and the puzzle it was made from.
//!
//! Variable numbering (1-based DIMACS variables), after Lynce & Ouaknine (2006):
//!
//! - non-optimized encodings: `var(cell, digit) = cell * N + digit`, i.e. with 0-based row `r`,
//!   column `c` and digit `d` in `1..=N`: `r*N*N + c*N + d`, variables `1..=N^3`; the
//!   at-most-one encodings' auxiliary variables follow, from `N^3 + 1` on.
//! - optimized (Kwon & Jain 2006): the (cell, digit) pairs the givens leave undecided, in
//!   row-major (cell, digit) order, are numbered `1..=k`; auxiliary variables follow. The map
//!   is explicit ([`VarMap::Explicit`]).
//! - reduced: the same over the candidates that naked and hidden singles leave.

use super::options::CnfOptions;
use crate::puzzle::{CageSet, Geometry, Grid};
use std::sync::Arc;

/// Variables, clauses and literal occurrences of a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SizeStats {
    pub vars: u64,
    pub clauses: u64,
    pub literals: u64,
}

/// A list of clauses stored flat: literals in DIMACS form (no 0 terminators), clause ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clauses {
    lits: Vec<i32>,
    ends: Vec<usize>,
}

impl Clauses {
    pub fn new() -> Self {
        Self::default()
    }

    /// Room for `clauses` more clauses holding `literals` more literals.
    pub fn reserve(&mut self, clauses: usize, literals: usize) {
        self.ends.reserve(clauses);
        self.lits.reserve(literals);
    }

    pub fn push(&mut self, clause: &[i32]) {
        // Clauses are short: a loop beats a `memcpy` call per clause.
        self.lits.reserve(clause.len());
        for &l in clause {
            self.lits.push(l);
        }
        self.ends.push(self.lits.len());
    }

    /// The clauses `(-a, -b)` for every pair `a` before `b` of `lits` (pairwise at most one),
    /// in that order.
    pub fn push_pairwise(&mut self, lits: &[i32]) {
        let k = lits.len();
        if k < 2 {
            return;
        }
        self.lits.reserve(k * (k - 1));
        self.ends.reserve(k * (k - 1) / 2);
        let mut end = self.lits.len();
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                self.lits.extend_from_slice(&[-a, -b]);
                end += 2;
                self.ends.push(end);
            }
        }
    }

    /// Removes every clause, keeping the allocations.
    pub fn clear(&mut self) {
        self.lits.clear();
        self.ends.clear();
    }

    /// Number of clauses.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Total number of literal occurrences.
    pub fn literals(&self) -> usize {
        self.lits.len()
    }

    pub fn get(&self, i: usize) -> &[i32] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.lits[start..self.ends[i]]
    }

    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[i32]> + '_ {
        (0..self.ends.len()).map(move |i| self.get(i))
    }

    /// Largest variable mentioned (0 if none).
    pub fn max_var(&self) -> u32 {
        self.lits
            .iter()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
    }
}

/// Map from variables to (cell, digit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarMap {
    /// `var = cell * N + digit` for `var` in `1..=cells * N` (`N^3` for one grid).
    Formula { n: usize, cells: usize },
    /// `pairs[var - 1] = (cell, digit)` for `var` in `1..=pairs.len()`. The inverse is
    /// indexed by cell, not by (cell, digit), so that its size follows the variables (few
    /// after elimination), not `N^3`.
    Explicit {
        n: usize,
        pairs: Vec<(u32, u16)>,
        /// The variables sorted by (cell, digit): those of `cell` are
        /// `by_cell[cell_start[cell]..cell_start[cell + 1]]`.
        by_cell: Vec<u32>,
        cell_start: Vec<u32>,
    },
}

impl VarMap {
    /// An explicit map from its pairs (in variable order; any order of cells).
    pub fn explicit(n: usize, cells: usize, pairs: Vec<(u32, u16)>) -> Self {
        let mut cell_start = vec![0u32; cells + 1];
        for &(cell, _) in &pairs {
            cell_start[cell as usize + 1] += 1;
        }
        for c in 0..cells {
            cell_start[c + 1] += cell_start[c];
        }
        let mut next = cell_start.clone();
        let mut by_cell = vec![0u32; pairs.len()];
        for (i, &(cell, _)) in pairs.iter().enumerate() {
            by_cell[next[cell as usize] as usize] = i as u32 + 1;
            next[cell as usize] += 1;
        }
        for c in 0..cells {
            by_cell[cell_start[c] as usize..cell_start[c + 1] as usize]
                .sort_unstable_by_key(|&v| pairs[v as usize - 1].1);
        }
        VarMap::Explicit {
            n,
            pairs,
            by_cell,
            cell_start,
        }
    }

    /// Number of (cell, digit) variables: they are `1..=primary()`; the rest are auxiliary.
    pub fn primary(&self) -> u32 {
        match self {
            VarMap::Formula { n, cells } => (cells * n) as u32,
            VarMap::Explicit { pairs, .. } => pairs.len() as u32,
        }
    }

    /// (cell, digit) of `var`, `None` for auxiliary variables.
    pub fn cell_digit(&self, var: u32) -> Option<(usize, u16)> {
        if var == 0 || var > self.primary() {
            return None;
        }
        match self {
            VarMap::Formula { n, .. } => {
                let v = var as usize - 1;
                Some((v / n, (v % n) as u16 + 1))
            }
            VarMap::Explicit { pairs, .. } => {
                let (c, d) = pairs[var as usize - 1];
                Some((c as usize, d))
            }
        }
    }

    /// Variable of (cell, digit), `None` when the pair has none (decided before encoding).
    pub fn var(&self, cell: usize, digit: u16) -> Option<u32> {
        match self {
            VarMap::Formula { n, .. } => Some((cell * n + digit as usize) as u32),
            VarMap::Explicit {
                pairs,
                by_cell,
                cell_start,
                ..
            } => {
                let vars = &by_cell[cell_start[cell] as usize..cell_start[cell + 1] as usize];
                vars.binary_search_by_key(&digit, |&v| pairs[v as usize - 1].1)
                    .ok()
                    .map(|i| vars[i])
            }
        }
    }
}

/// What a formula means: the puzzle it encodes, the options, the variable map. Enough to
/// decode a model into a grid; written into the DIMACS comments and read back from them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CnfInfo {
    pub geometry: Arc<Geometry>,
    pub givens: Grid,
    /// The cells decided before encoding: the givens, plus with `reduced` what propagation
    /// placed. A model decodes to these plus its variables' digits.
    pub fixed: Grid,
    /// The killer cages the formula states (`None`: houses and givens only).
    pub cages: Option<Arc<CageSet>>,
    pub options: CnfOptions,
    pub map: VarMap,
}

impl CnfInfo {
    /// The clause that excludes `grid` from further models: the negation of its (cell, digit)
    /// variables over the cells not decided before encoding (the others are the same in
    /// every model). `None` if `grid` has such a pair without a variable, which a decoded
    /// model never has. An empty clause means no other grid is possible.
    pub fn blocking_clause(&self, grid: &[u16]) -> Option<Vec<i32>> {
        let mut clause = Vec::new();
        for (cell, (&f, &d)) in self.fixed.iter().zip(grid).enumerate() {
            if f == 0 {
                clause.push(-(self.map.var(cell, d)? as i32));
            }
        }
        Some(clause)
    }
}

/// A CNF formula for a puzzle: clauses, assumptions and meaning.
#[derive(Clone, Debug)]
pub struct Cnf {
    pub info: CnfInfo,
    /// Number of variables (`p cnf V C`).
    pub num_vars: u32,
    pub clauses: Clauses,
    /// Givens as assumptions (empty unless `givens = assumptions`).
    pub assumptions: Vec<i32>,
}

impl Cnf {
    /// [`CnfInfo::blocking_clause`].
    pub fn blocking_clause(&self, grid: &[u16]) -> Option<Vec<i32>> {
        self.info.blocking_clause(grid)
    }
}
