//! Solving any exact-cover problem (for instance one read from a DLX1 file) with dancing
//! links, under the same [`Limits`] as every engine.
//!
//! Source: D. E. Knuth, "Dancing Links" (2000) and program DLX1; see
//! [`super::algorithm_x`] for the search and the exact definition of every counter.

use super::links::Links;
use super::preprocess::{preprocess, PreStats, Preprocessed};
use super::ExactCover;
use crate::search::{Limits, Search, Stats, Status};
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
    /// With [`solve_exact_cover_pre`]: what DLX-PRE's elimination removed, and its thread CPU
    /// time (included in `solve`).
    pub pre: Option<(PreStats, Duration)>,
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
    cover_outcome(search.finish(), solutions, None)
}

fn cover_outcome(
    o: crate::search::Outcome,
    solutions: Vec<Vec<usize>>,
    pre: Option<(PreStats, Duration)>,
) -> CoverOutcome {
    CoverOutcome {
        status: o.status,
        count: o.count,
        solutions,
        stats: o.stats,
        build: o.build,
        pre,
        solve: o.solve,
        wall: o.wall,
    }
}

/// [`solve_exact_cover`] after Knuth's DLX-PRE option elimination
/// ([`preprocess`](fn@super::preprocess)): the search runs on the reduced problem and the solutions are
/// given in `x`'s option numbers. `build` is 0; `solve` covers the preprocessing, linking the
/// reduced problem and the search (the preprocessing alone is in `pre`). `nodes` and
/// `updates` are the search's on the reduced problem; `options` / `ones` those of `x` as
/// linked.
pub fn solve_exact_cover_pre(x: &ExactCover, limits: &Limits) -> CoverOutcome {
    let inner = Limits {
        keep_solutions: 0,
        ..limits.clone()
    };
    let mut search = Search::new(&inner);
    search.built();
    let started = crate::timing::Stopwatch::start();
    let result = preprocess(x, &mut search);
    let pre_time = started.cpu();
    let (x_options, x_ones) = {
        let linkable = (0..x.options()).filter(|&o| x.has_primary(o));
        linkable.fold((0u64, 0u64), |(o, n), i| {
            (o + 1, n + x.option(i).len() as u64)
        })
    };
    search.stats.items = Some(x.items() as u64);
    search.stats.options = Some(x_options);
    search.stats.ones = Some(x_ones);
    let mut solutions: Vec<Vec<usize>> = Vec::new();
    let stats = result.stats();
    match result {
        Preprocessed::Reduced(r) => {
            let mut links = Links::new(&r.cover);
            let keep = limits.keep_solutions;
            links.search(&mut search, |s, options| {
                if solutions.len() < keep {
                    solutions.push(options.iter().map(|&o| r.kept[o as usize]).collect());
                }
                s.solution(&[])
            });
        }
        Preprocessed::Infeasible { .. } | Preprocessed::Stopped(_) => {
            search.stats.updates = Some(0);
        }
    }
    cover_outcome(search.finish(), solutions, Some((stats, pre_time)))
}
