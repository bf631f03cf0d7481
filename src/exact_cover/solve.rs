//! Solving any exact-cover problem (for instance one read from a DLX1 file) with dancing
//! links, under the same [`Limits`] as every engine.
//!
//! Source: D. E. Knuth, "Dancing Links" (2000) and program DLX1; see
//! [`super::algorithm_x`] for the search and the exact definition of every counter.

use super::links::Links;
use super::ExactCover;
use crate::engines::{Limits, Search, Stats, Status};
use std::time::Duration;

/// Result of [`solve_exact_cover`].
#[derive(Clone, Debug)]
pub struct CoverOutcome {
    pub status: Status,
    /// Solutions found (capped by `max_solutions` unless that is 0).
    pub count: u64,
    /// The first `keep_solutions` solutions, each the option numbers chosen, in level order.
    pub solutions: Vec<Vec<usize>>,
    /// `nodes`, `updates`, `guesses`, `backtracks` as defined in [`super::algorithm_x`];
    /// `items`, `options`, `ones`: the problem as linked (options with no primary item left
    /// out, as DLX1 does).
    pub stats: Stats,
    /// Thread CPU time of linking the problem.
    pub build: Duration,
    /// Thread CPU time of the search.
    pub solve: Duration,
    pub wall: Duration,
}

/// Solves `x` with Algorithm X on dancing links, counting solutions up to
/// `limits.max_solutions` (0 = all) within the node and time limits.
pub fn solve_exact_cover(x: &ExactCover, limits: &Limits) -> CoverOutcome {
    // Search keeps grids; solutions here are option lists, kept below.
    let inner = Limits {
        keep_solutions: 0,
        ..limits.clone()
    };
    let mut search = Search::new(&inner);
    let mut links = Links::new(x);
    search.built();
    let mut solutions: Vec<Vec<usize>> = Vec::new();
    let keep = limits.keep_solutions;
    links.search(&mut search, |s, options| {
        if solutions.len() < keep {
            solutions.push(options.iter().map(|&o| o as usize).collect());
        }
        s.solution(&[])
    });
    let (options, ones) = links.linked_size();
    search.stats.items = Some(x.items() as u64);
    search.stats.options = Some(options);
    search.stats.ones = Some(ones);
    let o = search.finish();
    CoverOutcome {
        status: o.status,
        count: o.count,
        solutions,
        stats: o.stats,
        build: o.build,
        solve: o.solve,
        wall: o.wall,
    }
}
