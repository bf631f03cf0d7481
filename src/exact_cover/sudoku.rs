//! The reduction of a Sudoku-family puzzle to exact cover, written over the houses of its
//! geometry, so that classic, jigsaw and X variants are the same code.
//!
//! Source: D. E. Knuth, *The Art of Computer Programming* 7.2.2.1 (the sudoku example, items
//! `pij`, `rik`, `cjk`, `bxk`), and "Dancing Links" (2000); the house-based form is the one of
//! this project's DESIGN notes.
//!
//! - items, all primary: one per cell (`p<r>,<c>`: the cell holds a digit), then one per
//!   house and digit (the house holds the digit), house by house in the geometry's order,
//!   digits `1..=N`: rows `r<i>#<d>`, columns `c<j>#<d>`, boxes `b<k>#<d>`, jigsaw regions
//!   `j<k>#<d>`, main diagonal `d1#<d>`, anti-diagonal `d2#<d>` (every number 1-based);
//! - options: one per cell and digit, cells row-major, digits `1..=N`, each holding the
//!   cell's item then the (house, digit) items of the cell's houses in house order.
//!
//! For an `N x N` grid with rows, columns and boxes: `4N^2` items, `N^3` options of 4 items,
//! `4N^3` ones (9x9: 324 / 729 / 2916). X-sudoku adds `2N` items and `2N^2` ones.
//!
//! A puzzle's own matrix ([`SudokuCover::for_puzzle`]) is the full matrix with the givens
//! selected and eliminated: the items they cover and every option meeting those items are
//! dropped, so it is exactly the problem the `dlx` engine searches after covering the givens
//! at the root (same items, options, order, hence the same nodes and updates). An item
//! covered by two givens (a clash) is kept, with no option left, so the matrix has no
//! solution.

use super::ExactCover;
use crate::puzzle::{Geometry, Grid, HouseKind, Puzzle};

/// An exact-cover matrix of a Sudoku-family grid, with the (cell, digit) of every option.
#[derive(Clone, Debug)]
pub struct SudokuCover {
    cover: ExactCover,
    n: usize,
    /// Cell and digit of each option.
    placements: Vec<(u32, u16)>,
    /// Givens eliminated from the matrix (all 0 for the full matrix).
    givens: Grid,
}

/// Name of the item "house `h` holds digit `d`".
pub fn house_item_name(kind: HouseKind, d: usize) -> String {
    match kind {
        HouseKind::Row(i) => format!("r{}#{d}", i + 1),
        HouseKind::Column(i) => format!("c{}#{d}", i + 1),
        HouseKind::Box(i) => format!("b{}#{d}", i + 1),
        HouseKind::Region(i) => format!("j{}#{d}", i + 1),
        HouseKind::Diagonal => format!("d1#{d}"),
        HouseKind::AntiDiagonal => format!("d2#{d}"),
        HouseKind::Window(i) => format!("w{}#{d}", i + 1),
        HouseKind::GridRow { grid, row } => format!("g{}r{}#{d}", grid + 1, row + 1),
        HouseKind::GridColumn { grid, col } => format!("g{}c{}#{d}", grid + 1, col + 1),
        HouseKind::GridBox { grid, b } => format!("g{}b{}#{d}", grid + 1, b + 1),
    }
}

/// Name of the item "cell `cell` holds a digit".
pub fn cell_item_name(width: usize, cell: usize) -> String {
    format!("p{},{}", cell / width + 1, cell % width + 1)
}

/// Names of all items of the full matrix of `g`, in item order.
pub fn item_names(g: &Geometry) -> Vec<String> {
    let n = g.n();
    let mut names = Vec::with_capacity(g.cells() + g.house_count() * n);
    names.extend((0..g.cells()).map(|c| cell_item_name(g.width(), c)));
    for h in 0..g.house_count() {
        let kind = g.house_kind(h);
        names.extend((1..=n).map(|d| house_item_name(kind, d)));
    }
    names
}

/// Items, options and ones of [`SudokuCover::for_puzzle`]'s matrix, counted without building
/// it (bounded memory at any side: bitsets of `N` bits per house): an item stays unless
/// exactly one given covers it, an option stays when no given covers any of its items.
pub fn cover_size(p: &Puzzle) -> (u64, u64, u64) {
    let g = p.geometry();
    let n = g.n();
    let words = n.div_ceil(64);
    // Per house: digits given once, and digits given more than once.
    let mut once = vec![0u64; g.house_count() * words];
    let mut twice = vec![0u64; g.house_count() * words];
    for (c, &d) in p.givens().iter().enumerate() {
        if d != 0 {
            let d = d as usize - 1;
            for &h in g.houses_of(c) {
                let i = h as usize * words + d / 64;
                let bit = 1u64 << (d % 64);
                twice[i] |= once[i] & bit;
                once[i] |= bit;
            }
        }
    }
    let given_once: u64 = once
        .iter()
        .zip(&twice)
        .map(|(&o, &t)| (o & !t).count_ones() as u64)
        .sum();
    let items = (g.cells() - p.clues()) as u64 + (g.house_count() * n) as u64 - given_once;
    let (mut options, mut ones) = (0u64, 0u64);
    let mut covered = vec![0u64; words];
    for (c, &d) in p.givens().iter().enumerate() {
        if d != 0 {
            continue;
        }
        covered.fill(0);
        for &h in g.houses_of(c) {
            for (x, &o) in covered.iter_mut().zip(&once[h as usize * words..]) {
                *x |= o;
            }
        }
        let free = n as u64 - covered.iter().map(|w| w.count_ones() as u64).sum::<u64>();
        options += free;
        ones += free * (1 + g.houses_of(c).len() as u64);
    }
    (items, options, ones)
}

impl SudokuCover {
    /// The full matrix of a geometry: every (cell, digit) is an option. Option `cell * N +
    /// digit - 1` places `digit` in `cell`.
    pub fn full(g: &Geometry) -> Self {
        Self::full_until(g, &mut || false).expect("never stopped")
    }

    /// [`SudokuCover::full`] that calls `stop` every
    /// [`super::links::BUILD_OPTIONS_PER_POLL`] options and gives up (`None`) when it answers
    /// true: the matrix has `N^3` options, seconds of work at large sides.
    pub fn full_until(g: &Geometry, stop: &mut dyn FnMut() -> bool) -> Option<Self> {
        let n = g.n();
        let names = item_names(g);
        let primary = names.len();
        let mut cover = ExactCover::from_names(names, primary);
        let cells = g.cells();
        let mut placements = Vec::with_capacity(cells * n);
        let mut option = Vec::with_capacity(6);
        let cells_per_poll = (super::links::BUILD_OPTIONS_PER_POLL / n.max(1)).max(1);
        for cell in 0..cells {
            if cell % cells_per_poll == cells_per_poll - 1 && stop() {
                return None;
            }
            for d in 1..=n {
                option.clear();
                option.push(cell as u32);
                option.extend(
                    g.houses_of(cell)
                        .iter()
                        .map(|&h| (cells + h as usize * n + d - 1) as u32),
                );
                cover
                    .add_option(option.iter().copied())
                    .expect("items of a house matrix are distinct");
                placements.push((cell as u32, d as u16));
            }
        }
        Some(SudokuCover {
            cover,
            n,
            placements,
            givens: vec![0; cells],
        })
    }

    /// The matrix of a puzzle: the full matrix with the givens eliminated (see the module
    /// doc). Clashing givens leave an item with no option.
    pub fn for_puzzle(p: &Puzzle) -> Self {
        Self::full(p.geometry()).eliminate(p.givens())
    }

    /// This full matrix (from [`SudokuCover::full`]) with `givens` (one entry per cell, 0 =
    /// empty) eliminated: the puzzle's own matrix, as [`SudokuCover::for_puzzle`] builds it.
    pub fn eliminate(&self, givens: &[u16]) -> Self {
        let full = self;
        let x = &full.cover;
        let n = self.n;
        debug_assert!(
            self.givens.iter().all(|&d| d == 0) && x.options() == givens.len() * n,
            "eliminate works on a full matrix"
        );
        // covered[i] = how many givens cover item i.
        let mut covered = vec![0u32; x.items()];
        for (cell, &d) in givens.iter().enumerate() {
            if d != 0 {
                for &i in x.option(cell * n + d as usize - 1) {
                    covered[i as usize] += 1;
                }
            }
        }
        let mut new_index = vec![u32::MAX; x.items()];
        let mut names = Vec::new();
        for (i, &c) in covered.iter().enumerate() {
            if c != 1 {
                new_index[i] = names.len() as u32;
                names.push(x.name(i).to_string());
            }
        }
        let primary = names.len();
        let mut cover = ExactCover::from_names(names, primary);
        let mut placements = Vec::new();
        for (o, items) in x.all_options().enumerate() {
            if items.iter().all(|&i| covered[i as usize] == 0) {
                cover
                    .add_option(items.iter().map(|&i| new_index[i as usize]))
                    .expect("kept items are distinct");
                placements.push(full.placements[o]);
            }
        }
        SudokuCover {
            cover,
            n,
            placements,
            givens: givens.to_vec(),
        }
    }

    /// The exact-cover problem.
    pub fn cover(&self) -> &ExactCover {
        &self.cover
    }

    pub fn into_cover(self) -> ExactCover {
        self.cover
    }

    /// Side of the grid.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Cell and digit placed by option `o`.
    #[inline]
    pub fn placement(&self, o: usize) -> (usize, u16) {
        let (c, d) = self.placements[o];
        (c as usize, d)
    }

    /// The grid of a solution: the givens eliminated from the matrix, plus the placement of
    /// every chosen option. Any unknown option number is ignored.
    pub fn grid(&self, options: &[usize]) -> Grid {
        let mut grid = self.givens.clone();
        for &o in options {
            if let Some(&(c, d)) = self.placements.get(o) {
                grid[c as usize] = d;
            }
        }
        grid
    }
}

/// Side `N` of the grid whose matrix `x` is, judged by its item names: the largest row,
/// column, box or region number and digit named by `p<r>,<c>`, `r<i>#<d>`, `c<j>#<d>`,
/// `b<k>#<d>`, `j<k>#<d>`, `d1#<d>`, `d2#<d>` (`None` when no name follows that grammar). For
/// a matrix read back from a DLX1 file, before [`decode_named`]. A puzzle's eliminated matrix
/// can in principle have lost every item naming `N` (when givens settle all of them); prefer
/// the side the caller knows when it knows it.
pub fn side_from_names(x: &ExactCover) -> Option<usize> {
    fn number(s: &str) -> Option<usize> {
        s.parse().ok()
    }
    x.names()
        .iter()
        .filter_map(|name| {
            if let Some((r, c)) = name.strip_prefix('p')?.split_once(',') {
                return Some(number(r)?.max(number(c)?));
            }
            None
        })
        .chain(x.names().iter().filter_map(|name| {
            let (house, d) = name.split_once('#')?;
            let d = number(d)?;
            match house.split_at_checked(1)? {
                ("r" | "c" | "b" | "j", k) => Some(number(k)?.max(d)),
                ("d", "1" | "2") => Some(d),
                _ => None,
            }
        }))
        .max()
}

/// Why a solution of a matrix read back by item names gives no placements ([`decode_named`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeNamedError {
    #[error("option {0} does not exist")]
    NoOption(usize),
    /// Option `option` (from 1), whose item names are `names`, places no digit in a cell.
    #[error("option {option} ({names}) names no cell p<r>,<c> and digit #<d> of a {n}x{n} grid")]
    NoPlacement {
        option: usize,
        names: String,
        n: usize,
    },
}

/// Reads the placements of a solution of a matrix written by this module (read back from a
/// file, so known only by its item names): each option must name one cell item `p<r>,<c>` and
/// at least one (house, digit) item `...#<d>`, with `r`, `c`, `d` in `1..=n`. Returns the
/// (cell, digit) of every option, in order; the givens of an eliminated matrix are not in it.
pub fn decode_named(
    x: &ExactCover,
    n: usize,
    options: &[usize],
) -> Result<Vec<(usize, u16)>, DecodeNamedError> {
    let mut out = Vec::with_capacity(options.len());
    for &o in options {
        if o >= x.options() {
            return Err(DecodeNamedError::NoOption(o));
        }
        let mut cell = None;
        let mut digit = None;
        for &i in x.option(o) {
            let name = x.name(i as usize);
            if let Some(rc) = name.strip_prefix('p') {
                if let Some((r, c)) = rc.split_once(',') {
                    if let (Ok(r), Ok(c)) = (r.parse::<usize>(), c.parse::<usize>()) {
                        if (1..=n).contains(&r) && (1..=n).contains(&c) {
                            cell = Some((r - 1) * n + c - 1);
                        }
                    }
                }
            } else if let Some((_, d)) = name.rsplit_once('#') {
                if let Ok(d) = d.parse::<usize>() {
                    if (1..=n).contains(&d) {
                        digit = Some(d as u16);
                    }
                }
            }
        }
        match (cell, digit) {
            (Some(c), Some(d)) => out.push((c, d)),
            _ => {
                let names: Vec<_> = x.option(o).iter().map(|&i| x.name(i as usize)).collect();
                return Err(DecodeNamedError::NoPlacement {
                    option: o + 1,
                    names: names.join(" "),
                    n,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod cover_size_tests {
    use super::*;
    use std::sync::Arc;

    /// The counted sizes equal the built matrix's, givens, clashes, X and jigsaw included.
    #[test]
    fn cover_size_equals_the_built_matrix() {
        let mut puzzles = Vec::new();
        for g in [
            Geometry::square(4).unwrap(),
            Geometry::square(9).unwrap(),
            Geometry::square(9).unwrap().with_diagonals(true),
            Geometry::jigsaw(4, vec![0, 0, 1, 1, 0, 2, 1, 1, 0, 2, 3, 3, 2, 2, 3, 3]).unwrap(),
        ] {
            let g = Arc::new(g);
            let n = g.n();
            puzzles.push(Puzzle::empty(g.clone()));
            let mut givens = vec![0u16; n * n];
            givens[0] = 1;
            givens[n + 2] = 2;
            givens[n * n - 1] = 3;
            puzzles.push(Puzzle::new(g.clone(), givens.clone()).unwrap());
            givens[1] = 1; // clash in row 1
            puzzles.push(Puzzle::new(g, givens).unwrap());
        }
        for p in &puzzles {
            let m = SudokuCover::for_puzzle(p);
            let x = m.cover();
            assert_eq!(
                cover_size(p),
                (x.items() as u64, x.options() as u64, x.ones() as u64),
                "{:?}",
                p.givens()
            );
        }
    }
}
