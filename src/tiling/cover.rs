//! Tiling the board as exact cover, solved with the project's dancing-links engine.
//!
//! Items (all primary): the `N*N` cells, named `r<row>c<col>` (1-based), then the `N`
//! pieces, named `p<k>`. Options: one per placement of a piece ([`super::place`]), listing the
//! piece's item and the cells it covers. An exact cover chooses one placement per piece and
//! covers every cell once: a tiling. The search is Knuth's Algorithm X as DLX1 runs it
//! ([`crate::exact_cover::algorithm_x`]), with its `nodes` and `updates`.
//!
//! Source: D. E. Knuth, "Dancing Links" (2000), arXiv cs/0011047, whose pentomino packing is
//! the same reduction (pieces and cells as items, placements as options); TAOCP 7.2.2.1.

use super::place::Placements;
use super::{Collector, Method, SearchReport};
use crate::engines::{Limits, Search};
use crate::exact_cover::{ExactCover, Links};

/// The exact-cover problem of tiling, and the `(piece, placement index)` of each option.
pub fn problem(p: &Placements) -> (ExactCover, Vec<(usize, usize)>) {
    let n = p.n;
    let cells = n * n;
    let mut names: Vec<String> = (0..cells)
        .map(|c| format!("r{}c{}", c / n + 1, c % n + 1))
        .collect();
    names.extend((1..=p.pieces()).map(|k| format!("p{k}")));
    let mut x = ExactCover::from_names(names, cells + p.pieces());
    let mut owner = Vec::with_capacity(p.total());
    for (piece, list) in p.of.iter().enumerate() {
        for (k, pl) in list.iter().enumerate() {
            let items = pl
                .cells
                .iter()
                .copied()
                .chain(std::iter::once((cells + piece) as u32));
            // A placement covers distinct cells inside the board plus its own piece: the only
            // failure left is a matrix too large for 32-bit indices, far beyond 35x35.
            if x.add_option(items).is_ok() {
                owner.push((piece, k));
            }
        }
    }
    (x, owner)
}

/// Enumerates the tilings with dancing links, calling `visit` with one placement index per
/// piece for each, within `limits` (`max_solutions` = most tilings, 0 = all; node and time
/// limits). `nodes` and `updates` are DLX1's.
pub fn enumerate<V: FnMut(&[usize])>(p: &Placements, limits: &Limits, visit: V) -> SearchReport {
    let inner = Limits {
        keep_solutions: 0,
        ..limits.clone()
    };
    let mut search = Search::new(&inner);
    let (x, owner) = problem(p);
    let mut links = Links::new(&x);
    search.built();
    let mut collector = Collector::new(visit);
    let mut tiling = vec![0usize; p.pieces()];
    links.search(&mut search, |s, options| {
        for &o in options {
            let (piece, k) = owner[o as usize];
            tiling[piece] = k;
        }
        collector.found(s, &tiling)
    });
    collector.report(Method::Dlx, search)
}
