//! Size of an encoding (variables, clauses, literals) without keeping the clauses, for a
//! `sudolab stats` command and for checking the published counts (Lynce & Ouaknine 2006,
//! Table 1; Kwon & Jain 2006 for the optimized sizes).

use super::encode::{build, Counter};
use super::options::CnfOptions;
use crate::puzzle::{Geometry, Puzzle};
use std::sync::Arc;

/// Variables, clauses and literal occurrences of a formula.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct SizeStats {
    pub vars: u64,
    pub clauses: u64,
    pub literals: u64,
}

/// Size of the encoding of `puzzle` (clauses are counted, not stored; with `dedup` a set of
/// the clauses seen is kept). With `optimized` this is the size after given elimination;
/// with givens as assumptions the givens add no clause.
pub fn size_stats(puzzle: &Puzzle, opts: &CnfOptions) -> SizeStats {
    let mut c = Counter::default();
    let (_, vars, _) = build(puzzle, opts, &mut c);
    SizeStats {
        vars: vars as u64,
        clauses: c.clauses,
        literals: c.literals,
    }
}

/// Size for the empty `N x N` grid with the default box shape (see
/// [`crate::puzzle::default_box`]).
pub fn size_stats_empty(n: usize, opts: &CnfOptions) -> Result<SizeStats, String> {
    let g = Geometry::square(n).map_err(|e| e.to_string())?;
    Ok(size_stats(&Puzzle::empty(Arc::new(g)), opts))
}
