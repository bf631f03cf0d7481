//! Size of an encoding (variables, clauses, literals) without keeping the clauses, for a
//! `sudolab stats` command and for checking the published counts (Lynce & Ouaknine 2006,
//! Table 1; Kwon & Jain 2006 for the optimized sizes).

use super::encode::{encode_into, EncodeLimits, Scratch};
use super::formula::SizeStats;
use super::options::CnfOptions;
use super::sink::Counter;
use crate::puzzle::{Geometry, GeometryError, Puzzle};
use std::sync::Arc;

/// Size of the encoding of `puzzle` (clauses are counted, not stored; with `dedup` a set of
/// the clauses seen is kept). With `optimized` this is the size after given elimination;
/// with givens as assumptions the givens add no clause.
/// Without `dedup` nothing is emitted: the count is [`super::count`] (closed form for an
/// empty grid, linear in the candidates otherwise), so it runs in bounded memory at any side.
pub fn size_stats(puzzle: &Puzzle, opts: &CnfOptions) -> SizeStats {
    if !opts.dedup {
        return super::encode::count(puzzle, opts, &mut Scratch::new());
    }
    size_emitted(puzzle, opts)
}

/// The size of the formula as the encoder emits it into a [`Counter`] (after the duplicate
/// filter, if on). Tests compare it with [`size_stats`]'s count.
pub(crate) fn size_emitted(puzzle: &Puzzle, opts: &CnfOptions) -> SizeStats {
    let mut c = Counter::default();
    let e = encode_into(
        puzzle,
        opts,
        &mut c,
        &mut Scratch::new(),
        &EncodeLimits::default(),
    )
    .expect("no limits: encoding always completes");
    debug_assert_eq!((e.size.clauses, e.size.literals), (c.clauses, c.literals));
    e.size
}

/// Size for the empty `N x N` grid with the default box shape (see
/// [`crate::puzzle::default_box`]).
pub fn size_stats_empty(n: usize, opts: &CnfOptions) -> Result<SizeStats, GeometryError> {
    let g = Geometry::square(n)?;
    Ok(size_stats(&Puzzle::empty(Arc::new(g)), opts))
}
