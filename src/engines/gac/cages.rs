//! Cages (killer sudoku) as one constraint each, all-different plus sum, filtered to
//! generalised arc consistency by enumeration of the cage's digit sets.
//!
//! A cage of `k` cells with sum `s` holds one of the `k`-element sets of digits that add up
//! to `s` (its *combinations*, listed once per puzzle). A value `v` of a cell belongs to a
//! solution of the cage constraint exactly when some combination `S` holds `v` and the
//! all-different constraint on the cage's cells, each domain cut down to `S`, has a solution
//! with the cell at `v`. So the filter runs Régin's all-different filter
//! ([`super::alldiff`]) once per combination that meets every cell's domain, and keeps the
//! union of the supports. Filtering a sum of distinct values to domain consistency is
//! NP-hard in general (it contains subset sum), so no polynomial filter does the same; cages
//! have at most `N` cells and few combinations, so the enumeration is cheap on the grids
//! killers are played on. It is bounded all the same:
//! [`crate::puzzle::digit_set_masks`] stops at a cap and the engine answers `memory-limit`.
//!
//! Masks are one 64-bit word: the engine takes cages on sides up to 64.

use super::alldiff::{AllDiff, ValueSets};
use super::domains::Domains;

/// One-word domains, already cut down to a cage combination.
struct Masked<'a>(&'a [u64]);

impl ValueSets for Masked<'_> {
    fn words(&self) -> usize {
        1
    }
    fn dom(&self, var: usize) -> &[u64] {
        &self.0[var..var + 1]
    }
}

/// The supports of one cage: `union[i]` is the set of values of `cells[i]` that some
/// combination of `combos` and some all-different assignment within it support. `false`
/// when a cell has none (the cage fails). `matched` is the cage's kept matching;
/// `masked` and `union` are scratch, resized here.
#[allow(clippy::too_many_arguments)]
pub(super) fn supports(
    doms: &Domains,
    cells: &[u32],
    combos: &[u64],
    n: usize,
    filter: &mut AllDiff,
    matched: &mut [u32],
    masked: &mut Vec<u64>,
    union: &mut Vec<u64>,
) -> bool {
    let len = cells.len();
    union.clear();
    union.resize(len, 0);
    masked.resize(len, 0);
    for &combo in combos {
        let mut meets = true;
        for (m, &cell) in masked.iter_mut().zip(cells) {
            *m = doms.get(cell as usize)[0] & combo;
            meets &= *m != 0;
        }
        if meets && filter.filter(&Masked(masked), len, n, matched) {
            for (u, s) in union.iter_mut().zip(&filter.support) {
                *u |= s;
            }
        }
    }
    !union.contains(&0)
}
