//! Killer sudoku as exact cover: one option per feasible filling of a cage.
//!
//! Source: D. E. Knuth, *The Art of Computer Programming* 7.2.2.1, where killer sudoku is
//! solved by options that fill a whole cage at once ("each cage becomes a set of options, one
//! for each way to fill it"), the items being those of the plain sudoku.
//!
//! - items, all primary, as in [`super::sudoku`]: one per cell, then one per (house, digit);
//! - options: for each cage (in the puzzle's order), one per assignment of distinct digits
//!   to its cells (cells ascending) that adds up to the cage's sum and keeps the givens in
//!   the cage; the option holds each cell's item and the (house, digit) items of each
//!   cell's houses. A cell in no cage has one option per digit, as in the plain matrix (one
//!   only when given).
//!
//! The void cells of a combined layout (samurai) have no item and no option: the matrix is
//! that of the grid cells alone, so the plain puzzle of a combined layout is solved by the
//! same matrix without cages.
//!
//! Distinct digits in a cage make the (house, digit) items of one option distinct. The number
//! of options grows with cage size: a cage of `k` cells has up to `k!` times the digit sets
//! of its sum (9 cells summing to 45: 362,880 options), so a bound on the options is taken
//! ([`KillerCover::for_puzzle`]).

use super::ExactCover;
use crate::puzzle::{sum_range, Geometry, Puzzle};

/// An exact-cover matrix of a killer puzzle, with the (cell, digit) placements of each option.
#[derive(Debug)]
pub struct KillerCover {
    cover: ExactCover,
    /// `placements[starts[o]..starts[o + 1]]` are the (cell, digit) pairs of option `o`.
    placements: Vec<(u32, u16)>,
    starts: Vec<u32>,
}

/// The options would pass the bound.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the killer exact cover has over {bound} options (cage {cage} alone reaches {options})")]
pub struct TooManyOptions {
    pub bound: u64,
    pub cage: usize,
    pub options: u64,
}

impl KillerCover {
    /// The matrix of `p` (with or without cages), with at most `max_options` options.
    pub fn for_puzzle(p: &Puzzle, max_options: u64) -> Result<Self, TooManyOptions> {
        let g = p.geometry();
        let n = g.n();
        let items = CellItems::new(g, 0);
        let mut names: Vec<String> = super::sudoku::item_names(g);
        for (cell, &item) in items.item_of.iter().enumerate() {
            if item != u32::MAX {
                names.swap(item as usize, cell);
            }
        }
        names.drain(items.cells..g.cells());
        let primary = names.len();
        let mut cover = ExactCover::from_names(names, primary);
        let mut placements = Vec::new();
        let mut starts = vec![0u32];
        let givens = p.givens();
        let mut option = Vec::new();
        let mut add = |cover: &mut ExactCover, fill: &[(u32, u16)]| {
            option.clear();
            for &(cell, d) in fill {
                option.extend(items.placement(g, cell, d));
            }
            cover
                .add_option(option.iter().copied())
                .expect("distinct digits of a cage give distinct items");
        };
        let in_cage = |c: usize| p.cage_set().and_then(|s| s.cage_of(c)).is_some();
        for (cell, &given) in givens.iter().enumerate() {
            if in_cage(cell) || g.is_void(cell) {
                continue;
            }
            let digits = match given {
                0 => 1..=n as u16,
                d => d..=d,
            };
            for d in digits {
                add(&mut cover, &[(cell as u32, d)]);
                placements.push((cell as u32, d));
                starts.push(placements.len() as u32);
            }
        }
        let mut fill: Vec<(u32, u16)> = Vec::new();
        for (k, cage) in p.cages().iter().enumerate() {
            let before = cover.options() as u64;
            let mut used = vec![false; n + 1];
            let mut too_many = false;
            fillings(
                cage.cells(),
                givens,
                cage.sum(),
                n,
                &mut used,
                &mut fill,
                &mut |fill| {
                    if cover.options() as u64 >= max_options {
                        too_many = true;
                        return false;
                    }
                    add(&mut cover, fill);
                    placements.extend_from_slice(fill);
                    starts.push(placements.len() as u32);
                    true
                },
            );
            if too_many {
                return Err(TooManyOptions {
                    bound: max_options,
                    cage: k + 1,
                    options: cover.options() as u64 - before,
                });
            }
        }
        Ok(KillerCover {
            cover,
            placements,
            starts,
        })
    }

    pub fn cover(&self) -> &ExactCover {
        &self.cover
    }

    /// The (cell, digit) pairs option `o` places.
    pub fn placements(&self, o: usize) -> &[(u32, u16)] {
        &self.placements[self.starts[o] as usize..self.starts[o + 1] as usize]
    }
}

/// The items of the plain matrix without the void cells, numbered from `first`: the cells'
/// items first, in cell order over the grid cells, then one per (house, digit).
pub(crate) struct CellItems {
    /// Item of each cell (`u32::MAX` for a void cell).
    pub item_of: Vec<u32>,
    /// Cells with an item (the grid cells).
    pub cells: usize,
    first: usize,
    n: usize,
}

impl CellItems {
    pub fn new(g: &Geometry, first: u32) -> Self {
        let mut item_of = vec![u32::MAX; g.cells()];
        let mut cells = 0;
        for (cell, item) in item_of.iter_mut().enumerate() {
            if !g.is_void(cell) {
                *item = first + cells as u32;
                cells += 1;
            }
        }
        CellItems {
            item_of,
            cells,
            first: first as usize,
            n: g.n(),
        }
    }

    /// Number of these items: the cells', then the (house, digit) ones.
    pub fn count(&self, g: &Geometry) -> usize {
        self.cells + g.house_count() * self.n
    }

    /// The items of placing `d` in `cell`: the cell's, then the (house, digit) item of each
    /// of its houses.
    pub fn placement<'a>(
        &'a self,
        g: &'a Geometry,
        cell: u32,
        d: u16,
    ) -> impl Iterator<Item = u32> + 'a {
        let houses = g.houses_of(cell as usize).iter();
        let first = (self.first + self.cells + d as usize - 1) as u32;
        std::iter::once(self.item_of[cell as usize])
            .chain(houses.map(move |&h| first + h * self.n as u32))
    }
}

/// A consumer of cage fillings: returns false to stop the enumeration.
type Emit<'a> = dyn FnMut(&[(u32, u16)]) -> bool + 'a;

/// Calls `emit` with every filling of `cells` (in order) by distinct digits summing to
/// `sum` that keeps `givens`, until it returns false. `fill` holds the filling so far.
fn fillings(
    cells: &[u32],
    givens: &[u16],
    sum: u32,
    n: usize,
    used: &mut [bool],
    fill: &mut Vec<(u32, u16)>,
    emit: &mut Emit<'_>,
) -> bool {
    let depth = fill.len();
    if depth == cells.len() {
        return sum != 0 || emit(fill);
    }
    let cell = cells[depth];
    let rest = cells.len() - depth - 1;
    let digits = match givens[cell as usize] {
        0 => 1..=n as u16,
        d => d..=d,
    };
    for d in digits {
        if used[d as usize] || d as u32 > sum {
            continue;
        }
        let left = sum - d as u32;
        // The remaining cells need `rest` distinct digits: at least 1+..+rest, at most
        // N+..+(N-rest+1).
        match sum_range(rest, n) {
            Some((least, most)) if (least..=most).contains(&left) => {}
            _ => continue,
        }
        used[d as usize] = true;
        fill.push((cell, d));
        let go_on = fillings(cells, givens, left, n, used, fill, emit);
        fill.pop();
        used[d as usize] = false;
        if !go_on {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Geometry;
    use std::sync::Arc;

    #[test]
    fn a_cage_has_one_option_per_filling() {
        let g = Arc::new(Geometry::square(4).unwrap());
        // Two cells summing to 3 (1+2, 2+1); the other 14 cells free.
        let p = Puzzle::empty(g).with_cages(vec![(vec![0, 1], 3)]).unwrap();
        let x = KillerCover::for_puzzle(&p, 1000).unwrap();
        assert_eq!(x.cover().options(), 14 * 4 + 2);
        let last = x.cover().options() - 1;
        assert_eq!(x.placements(last), &[(0, 2), (1, 1)]);
        assert_eq!(x.placements(last - 1), &[(0, 1), (1, 2)]);
        // Each option of the cage holds 2 cells x (1 cell item + 3 house items).
        assert_eq!(x.cover().option(last).len(), 8);
        let e = KillerCover::for_puzzle(&p, 57).unwrap_err();
        assert_eq!(e.cage, 1);
    }

    #[test]
    fn givens_restrict_the_fillings() {
        let g = Arc::new(Geometry::square(4).unwrap());
        let mut givens = vec![0; 16];
        givens[1] = 1;
        let p = Puzzle::new(g, givens)
            .unwrap()
            .with_cages(vec![(vec![0, 1, 2], 7)])
            .unwrap();
        let x = KillerCover::for_puzzle(&p, 1000).unwrap();
        let cage: Vec<_> = (13 * 4..x.cover().options())
            .map(|o| x.placements(o).to_vec())
            .collect();
        // 7 = a + 1 + c with a, c distinct, not 1: (2, 4), (4, 2).
        assert_eq!(
            cage,
            vec![vec![(0, 2), (1, 1), (2, 4)], vec![(0, 4), (1, 1), (2, 2)]]
        );
    }
}
