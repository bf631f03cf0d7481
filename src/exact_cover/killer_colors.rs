//! Killer sudoku as exact cover with colours ([`super::colors`], Algorithm C): one option
//! per digit set of a cage instead of one per filling ([`super::killer`]).
//!
//! Source: the colour controls of D. E. Knuth, *The Art of Computer Programming* 7.2.2.1
//! (Algorithm C; program DLX2), which let options agree on a secondary item's value; the
//! formulation below is sudolab's. For a cage `C` of `k` cells with sum `s` on an `N x N`
//! grid, its *digit sets* are the sets `S` of `k` distinct digits of `1..=N` that add up to
//! `s` and hold every digit given in the cage:
//!
//! - items, primary: one item `C` per cage, then those of the plain matrix
//!   ([`super::sudoku`]: one per cell, one per (house, digit)); secondary: per cage and
//!   digit `d`, an item `C.d` that options colour (`1`: `d` is among the cage's digits, `0`:
//!   it is not) and an uncoloured item `C#d` (`d` appears at most once in the cage);
//! - options: per cage, one per digit set `S`: `C`, then `C.d:1` for `d` in `S` and `C.d:0`
//!   for `d` not in `S`; per cell and digit, as in the plain matrix (the cell's item and its
//!   (house, digit) items; only the given digit when the cell is given), plus `C.d:1 C#d`
//!   when the cell lies in cage `C`, whose cells take only the digits of its digit sets (their
//!   union).
//!
//! Exactly one set option per cage is chosen (item `C`); a cell of the cage can then take
//! only digits of `S` (colour 1), distinct ones (`C#d`); `k` distinct digits of a set of `k`
//! are the whole set, so the cage holds `S` and adds up to `s`. Conversely every solution
//! grid selects its cages' digit sets. A 9-cell cage summing to 45 has one option here
//! (362,880 fillings in [`super::killer`]); a cage has at most `C(N, k)` options of `N + 1`
//! nodes, and each cell option gains 2 nodes.
//!
//! Two choices are measured, not needed for correctness (results/README.md, killer
//! section): the cells of a cage get no option for a digit in none of its digit sets (any
//! choice of set would purify them away), and the cage items come first, so that the
//! search, taking the leftmost item among those with the fewest options, picks a cage's
//! digit set before a cell's digit when they tie. On the 299 janko.at killers together they
//! cut the median search from 1,530 to 147 nodes.
//!
//! The colour codes of [`super::colors::ColorCover`] are positive: `C.d:1` is code [`IN`]
//! and `C.d:0` code [`OUT`]. The void cells of a combined layout have no item and no option,
//! as in [`super::killer`].

use super::colors::ColorCover;
use super::killer::{CellItems, TooManyOptions};
use crate::puzzle::{for_each_digit_set, Puzzle};

/// Colour code of `C.d:1` (digit `d` is in the cage's set).
pub const IN: u32 = 1;
/// Colour code of `C.d:0` (digit `d` is not in the cage's set).
pub const OUT: u32 = 2;

/// The colour matrix of a killer puzzle, with the (cell, digit) placement of each option.
#[derive(Debug)]
pub struct KillerColors {
    cover: ColorCover,
    /// Per option: the (cell, digit) it places, `None` for a cage's digit-set option.
    placements: Vec<Option<(u32, u16)>>,
}

impl KillerColors {
    /// The matrix of `p` (with or without cages), with at most `max_options` digit-set
    /// options.
    pub fn for_puzzle(p: &Puzzle, max_options: u64) -> Result<Self, TooManyOptions> {
        let g = p.geometry();
        let n = g.n();
        let cages = p.cages();
        let items = CellItems::new(g, cages.len() as u32);
        let primary = cages.len() + items.count(g);
        let mut cover = ColorCover::new(primary, 2 * n * cages.len());
        // Secondary items of cage `k`: `C.d` then `C#d`.
        let dot = |k: usize, d: u16| (primary + 2 * n * k + d as usize - 1) as u32;
        let sharp = |k: usize, d: u16| dot(k, d) + n as u32;
        let givens = p.givens();
        // Per cage: the digits given in it, then the union of its digit sets.
        let mut must = Vec::with_capacity(cages.len());
        let mut union = Vec::with_capacity(cages.len());
        let mut sets = 0u64;
        for (k, cage) in cages.iter().enumerate() {
            let mut given = vec![false; n + 1];
            for &c in cage.cells() {
                given[givens[c as usize] as usize] = true;
            }
            given[0] = false;
            let mut digits = vec![false; n + 1];
            let before = sets;
            let mut add = |set: &[bool]| {
                sets += 1;
                digits.iter_mut().zip(set).for_each(|(u, &s)| *u |= s);
                sets < max_options
            };
            if !for_each_digit_set(n, cage.len(), cage.sum(), &given, &mut add) {
                return Err(TooManyOptions {
                    bound: max_options,
                    cage: k + 1,
                    options: sets - before,
                });
            }
            must.push(given);
            union.push(digits);
        }
        let mut option: Vec<(u32, u32)> = Vec::new();
        let mut placements = Vec::new();
        for (k, cage) in cages.iter().enumerate() {
            for_each_digit_set(n, cage.len(), cage.sum(), &must[k], &mut |set| {
                option.clear();
                option.push((k as u32, 0));
                for d in 1..=n as u16 {
                    let colour = if set[d as usize] { IN } else { OUT };
                    option.push((dot(k, d), colour));
                }
                cover
                    .add_option(option.iter().copied())
                    .expect("a cage's items are distinct");
                placements.push(None);
                true
            });
        }
        let cage_of = |cell: usize| p.cage_set().and_then(|s| s.cage_of(cell));
        for (cell, &given) in givens.iter().enumerate() {
            if g.is_void(cell) {
                continue;
            }
            let digits = match given {
                0 => 1..=n as u16,
                d => d..=d,
            };
            let cage = cage_of(cell);
            for d in digits {
                if cage.is_some_and(|k| !union[k][d as usize]) {
                    continue;
                }
                option.clear();
                option.extend(items.placement(g, cell as u32, d).map(|i| (i, 0)));
                if let Some(k) = cage {
                    option.extend([(dot(k, d), IN), (sharp(k, d), 0)]);
                }
                cover
                    .add_option(option.iter().copied())
                    .expect("a placement's items are distinct");
                placements.push(Some((cell as u32, d)));
            }
        }
        Ok(KillerColors { cover, placements })
    }

    pub fn cover(&self) -> &ColorCover {
        &self.cover
    }

    /// The (cell, digit) option `o` places (`None` for a cage's digit-set option).
    pub fn placement(&self, o: usize) -> Option<(u32, u16)> {
        self.placements[o]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Geometry;
    use std::sync::Arc;

    #[test]
    fn a_cage_has_one_option_per_digit_set() {
        let g = Arc::new(Geometry::square(4).unwrap());
        // Two cells summing to 3 (the set {1, 2}); the other 14 cells free.
        let p = Puzzle::empty(g).with_cages(vec![(vec![0, 1], 3)]).unwrap();
        let x = KillerColors::for_puzzle(&p, 1000).unwrap();
        let c = x.cover();
        assert_eq!(c.options(), 1 + 2 * 2 + 14 * 4);
        // 1 cage + 16 cells + 12 houses x 4 digits; 2 x 4 secondary.
        assert_eq!((c.primary_items(), c.items()), (65, 73));
        // The set {1, 2}: C, C.1:1 C.2:1 C.3:0 C.4:0.
        assert_eq!(x.placement(0), None);
        assert_eq!(
            c.option(0),
            &[(0, 0), (65, IN), (66, IN), (67, OUT), (68, OUT)]
        );
        // Cell 0 holding 2: its item, its 3 houses' items, C.2:1, C#2; no option for 3, 4.
        assert_eq!(x.placement(2), Some((0, 2)));
        assert_eq!(
            c.option(2),
            &[(1, 0), (18, 0), (34, 0), (50, 0), (66, IN), (70, 0)]
        );
        assert_eq!(x.placement(5), Some((2, 1)));
        let e = KillerColors::for_puzzle(&p, 1).unwrap_err();
        assert_eq!((e.cage, e.options), (1, 1));
    }

    /// Every solution of small killers is a solution of the colour matrix and back: the
    /// 4x4 empty grid (288 grids) with a cage on its first row.
    #[test]
    fn the_matrix_keeps_the_solutions() {
        use crate::exact_cover::colors::ColorLinks;
        use crate::search::{Limits, Search};
        let g = Arc::new(Geometry::square(4).unwrap());
        for (cells, sum, want) in [
            (vec![0, 1], 3, 288 / 6),
            (vec![0, 1, 2, 3], 10, 288),
            (vec![0, 4], 7, 288 / 6),
        ] {
            let p = Puzzle::empty(g.clone())
                .with_cages(vec![(cells, sum)])
                .unwrap();
            let x = KillerColors::for_puzzle(&p, 1000).unwrap();
            let limits = Limits::solutions(0);
            let mut search = Search::new(&limits);
            let mut count = 0;
            ColorLinks::new(x.cover()).search(&mut search, |_, chosen| {
                let mut grid = vec![0u16; 16];
                for &o in chosen {
                    if let Some((cell, d)) = x.placement(o as usize) {
                        grid[cell as usize] = d;
                    }
                }
                p.check_solution(&grid).unwrap();
                count += 1;
                true
            });
            assert_eq!(count, want, "{:?}", p.cages());
        }
    }
}
