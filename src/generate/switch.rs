//! Random full grids for large sides: a pattern grid, shuffled by the validity-preserving
//! symmetries of the geometry and then by *digit-pair switches*.
//!
//! # Method
//!
//! 1. **Pattern grid** of a boxed `R x C` geometry (`N = R C`, boxes of `R` rows and `C`
//!    columns): `d(r, c) = ((r mod R) C + floor(r / R) + c) mod N`, digits from 0. Rows hold
//!    every digit (`c` runs over `0..N`); a column holds `(r mod R) C + floor(r / R)`, which
//!    is a bijection from `0..N`; a box (rows `bR..bR+R`, columns `sC..sC+C`) holds
//!    `i C + j + const` for `i < R`, `j < C`, again all `N` values.
//! 2. **Symmetries**: bands (groups of `R` rows) permuted, rows permuted within each band,
//!    stacks (groups of `C` columns) permuted, columns permuted within each stack, digits
//!    relabelled, all uniformly at random. These map valid grids to valid grids.
//! 3. **Digit-pair switches** (the Sudoku form of the cycle switches of Latin squares,
//!    Jacobson and Matthews 1996, "Generating uniformly distributed random Latin squares",
//!    J. Combin. Des. 4): pick two digits `a`, `b` and a cell holding one of them; take the
//!    smallest set of cells holding `a` or `b` that contains it and, with every cell, the
//!    cell holding the other digit in each of its houses. Every house then holds both or
//!    neither of the two set cells, so exchanging `a` and `b` on the set keeps the grid
//!    valid. A set equal to all `2 N` cells of the two digits is a mere relabelling; smaller
//!    ones change the grid's structure. This works for any house list (boxes, jigsaw
//!    regions, diagonals), so it is written against the geometry, not the pattern.
//!
//! Random search ([`super::fill`]) gives more varied grids but its run time grows steeply
//! with the side (a 64x64 grid took 45 s); this takes `O(N^2)` plus `O(N)` per switch.
//! The grids are not uniformly distributed (nothing known samples Sudoku grids uniformly
//! at large sides); the removal order, which decides the puzzle, is uniform.

use crate::puzzle::Geometry;
use crate::search::Deadline;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Switches per digit of the side: enough that every digit pair is touched several times
/// (`N / 2` pairs cover the digits once).
pub const SWITCHES_PER_DIGIT: usize = 64;

/// A random full grid of the boxed geometry `g` (no diagonals, no jigsaw regions), digits
/// `1..=N`: the shuffled pattern grid of the module doc, then `SWITCHES_PER_DIGIT * N`
/// digit-pair switches. `None` if `g` is not a plain boxed geometry.
pub fn pattern_grid(g: &Geometry, rng: &mut ChaCha8Rng) -> Option<Vec<u16>> {
    pattern_grid_until(g, rng, &Deadline::default())
}

/// Switches between two readings of the clock in [`pattern_grid_until`]: the switches take
/// 2.5 s of CPU at side 400 (about 0.1 ms each), so a few milliseconds.
const SWITCHES_PER_CLOCK: usize = 64;

/// [`pattern_grid`], also `None` once `deadline` has passed (read every
/// `SWITCHES_PER_CLOCK` switches).
pub fn pattern_grid_until(
    g: &Geometry,
    rng: &mut ChaCha8Rng,
    deadline: &Deadline,
) -> Option<Vec<u16>> {
    if g.is_jigsaw() || g.has_diagonals() {
        return None;
    }
    let (r_box, c_box) = g.box_shape()?;
    let n = g.n();
    // Bands are groups of `r_box` rows (there are `c_box` of them); stacks groups of `c_box`
    // columns (`r_box` of them).
    let rows = shuffled_groups(c_box, r_box, rng);
    let cols = shuffled_groups(r_box, c_box, rng);
    let mut digits: Vec<u16> = (1..=n as u16).collect();
    digits.shuffle(rng);
    let mut grid = vec![0u16; n * n];
    for (i, &r) in rows.iter().enumerate() {
        for (j, &c) in cols.iter().enumerate() {
            let d = ((r % r_box) * c_box + r / r_box + c) % n;
            grid[i * n + j] = digits[d];
        }
    }
    let mut switcher = Switcher::new(g, &grid);
    for i in 0..SWITCHES_PER_DIGIT * n {
        if i % SWITCHES_PER_CLOCK == 0 && deadline.expired().is_some() {
            return None;
        }
        switcher.random_switch(g, &mut grid, rng);
    }
    Some(grid)
}

/// A permutation of `0..groups * size` that permutes the groups (of `size` consecutive
/// indices) and the indices within each group.
fn shuffled_groups(groups: usize, size: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut order: Vec<usize> = (0..groups).collect();
    order.shuffle(rng);
    let mut out = Vec::with_capacity(groups * size);
    for g in order {
        let mut within: Vec<usize> = (0..size).map(|i| g * size + i).collect();
        within.shuffle(rng);
        out.extend(within);
    }
    out
}

/// Where each digit sits in each house, kept up to date across switches.
pub struct Switcher {
    n: usize,
    /// `place[h * n + d - 1]`: the cell of house `h` holding digit `d`.
    place: Vec<u32>,
    /// Scratch: cells of the current switch set, and a mark per cell.
    set: Vec<u32>,
    mark: Vec<bool>,
}

impl Switcher {
    /// Indexes a valid full grid of `g`.
    pub fn new(g: &Geometry, grid: &[u16]) -> Self {
        let n = g.n();
        let mut place = vec![0u32; g.house_count() * n];
        for (h, cells) in g.houses().enumerate() {
            for &c in cells {
                place[h * n + grid[c as usize] as usize - 1] = c;
            }
        }
        Switcher {
            n,
            place,
            set: Vec::new(),
            mark: vec![false; g.cells()],
        }
    }

    /// One switch on a random digit pair from a random cell; returns the size of the set
    /// exchanged.
    pub fn random_switch(&mut self, g: &Geometry, grid: &mut [u16], rng: &mut ChaCha8Rng) -> usize {
        let n = self.n;
        let a = rng.gen_range(1..=n as u16);
        let mut b = rng.gen_range(1..n as u16);
        if b >= a {
            b += 1;
        }
        // A cell holding `a`: the one in a random house.
        let h = rng.gen_range(0..g.house_count());
        let start = self.place[h * n + a as usize - 1] as usize;
        self.switch(g, grid, start, b)
    }

    /// Exchanges the digit of `start` with `other` on the closed set containing `start`.
    pub fn switch(&mut self, g: &Geometry, grid: &mut [u16], start: usize, other: u16) -> usize {
        let n = self.n;
        let first = grid[start];
        self.set.clear();
        self.set.push(start as u32);
        self.mark[start] = true;
        let mut i = 0;
        while i < self.set.len() {
            let c = self.set[i] as usize;
            i += 1;
            let d = grid[c];
            let e = if d == first { other } else { first };
            for &h in g.houses_of(c) {
                let p = self.place[h as usize * n + e as usize - 1] as usize;
                if !self.mark[p] {
                    self.mark[p] = true;
                    self.set.push(p as u32);
                }
            }
        }
        for &c in &self.set {
            let c = c as usize;
            self.mark[c] = false;
            grid[c] = if grid[c] == first { other } else { first };
        }
        for &c in &self.set {
            let c = c as usize;
            for &h in g.houses_of(c) {
                self.place[h as usize * n + grid[c] as usize - 1] = c as u32;
            }
        }
        self.set.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn pattern_grids_are_valid_for_many_box_shapes() {
        for (n, r, c) in [
            (4, 2, 2),
            (6, 2, 3),
            (6, 3, 2),
            (12, 4, 3),
            (25, 5, 5),
            (64, 8, 8),
        ] {
            let g = Geometry::boxed(n, r, c).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
            let grid = pattern_grid(&g, &mut rng).expect("boxed");
            assert_eq!(g.check_grid(&grid), Ok(()), "{n}x{n} {r}x{c}");
        }
    }

    #[test]
    fn switches_keep_grids_valid_and_change_them() {
        let g = Geometry::square(9).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut grid = pattern_grid(&g, &mut rng).unwrap();
        let before = grid.clone();
        let mut s = Switcher::new(&g, &grid);
        let mut partial = 0;
        for _ in 0..200 {
            let k = s.random_switch(&g, &mut grid, &mut rng);
            partial += usize::from(k < 18);
            assert_eq!(g.check_grid(&grid), Ok(()));
        }
        assert!(partial > 0, "no switch smaller than a relabelling");
        assert_ne!(grid, before);
    }

    #[test]
    fn same_seed_same_grid() {
        let g = Geometry::boxed(12, 3, 4).unwrap();
        let grid = |s| pattern_grid(&g, &mut ChaCha8Rng::seed_from_u64(s)).unwrap();
        assert_eq!(grid(1), grid(1));
        assert_ne!(grid(1), grid(2));
    }

    #[test]
    fn refuses_geometries_without_a_pattern() {
        let g = Geometry::square(9).unwrap().with_diagonals(true);
        assert!(pattern_grid(&g, &mut ChaCha8Rng::seed_from_u64(0)).is_none());
    }
}
