//! `backtrack`: naive row-major depth-first backtracking with used-digit tables.
//!
//! # Source
//!
//! Pier Paolo Guillen Hernandez, "9.8. Sudoku", *World of πer* (Spanish), a solution of
//! Project Euler problem 96. Its procedure `pon(i, j)` visits the cells in row-major order,
//! skips a cell that is already occupied ("la casilla ya está ocupada, pasamos a la
//! siguiente"), and otherwise tries the digits `1..9` in increasing order, keeping which
//! digits each row, column and region already holds in the boolean arrays `h`, `v` and `c`
//! ("podríamos revisarlo en la matriz m, pero con estos arreglos agilizamos el proceso"). A
//! digit unused in all three is placed, marked used, and the search moves to the next cell;
//! on return the marks are taken back and the next digit is tried. When the cells run out,
//! the grid is a solution.
//!
//! # Generalisation
//!
//! - One used-digit table per *house* instead of the three arrays `h`, `v`, `c`: digit `d` may
//!   go in cell `x` iff `d` is unused in every house of `x`. Rows, columns, rectangular boxes,
//!   jigsaw regions and diagonals are then all handled the same way, for every side `N` the
//!   model accepts.
//! - The source recurses once per cell; here the recursion is an explicit loop over the list
//!   of empty cells (a 1024 x 1024 grid has a million cells, far beyond any call stack). The
//!   order of the search is exactly the source's.
//! - The source stops at the first solution (its flag `sol`); here the search goes on after a
//!   solution until `Limits::max_solutions` solutions are found (0 = all), so it can prove
//!   uniqueness. With `max_solutions = 1` it stops where the source stops.
//! - Givens that clash make the puzzle `unsat` before any search (0 nodes); the source
//!   assumes valid input.
//! - Killer cages get a used-digit table each too, and a digit is also refused when the
//!   cage's sum can no longer be reached: the cage's filled digits plus it must leave, for
//!   the cage's `k` other empty cells, a remainder between the sum of the `k` smallest and
//!   of the `k` largest digits still unused in the cage (a necessary condition, so no
//!   solution is cut).
//!
//! The seed's walkthrough holds: on the empty 4x4 grid (2x2 boxes) the first solution is
//! `1234 / 3412 / 2143 / 4321`, reached with 16 placements and no backtrack (tested below).
//!
//! # Counters
//!
//! Only *empty* cells (cells without a given) take part in the search; given cells are
//! skipped and counted nowhere. "The search arrives at a cell" means it comes to that empty
//! cell going forward (from the previous empty cell, or at the start), as opposed to coming
//! back to it after the cells after it failed or a solution was recorded.
//!
//! - `nodes`: assignments tried, i.e. the number of times a digit is placed into an empty
//!   cell (one per call of the source's `pon` for the next cell). Digits rejected by the
//!   tables are not nodes.
//! - `guesses`: arrivals at an empty cell that, at the moment of arrival, has two or more
//!   digits allowed by the tables (a branch point with two or more alternatives). It is
//!   counted on arrival, whether or not the search later comes back to try the second digit.
//! - `backtracks`: dead ends, i.e. arrivals at an empty cell where the tables allow no digit
//!   at all, so the search must go back. This is the definition every engine shares (a node
//!   with no alternative left: `bnb`'s node with no feasible digit, `human`'s contradiction,
//!   DLX's item with no option), so the column is comparable across engines.
//! - `failed_cells` (engine-specific counter): arrivals at an empty cell after which the search
//!   goes back to the previous empty cell (every digit of the cell tried, or none allowed)
//!   *without any solution having been found since the arrival*, i.e. nodes whose whole
//!   subtree failed. A cell left backwards after a solution was found below it (when counting
//!   past the first solution) does not count. A search stopped by a limit or the solution cap
//!   counts only those completed before the stop. On a unique puzzle searched to the end this
//!   is `nodes` minus the number of empty cells.
//! - `max_live` is `None` (no queue).
//!
//! Memory is `O(cells + houses * N)`, allocated once per puzzle; nothing is allocated per
//! node.

use super::{Engine, EngineError, EngineInfo, EngineOptions, Limits, Outcome, Search, Sides};
use crate::puzzle::{completable, CageSet, Geometry, Puzzle};

pub static INFO: EngineInfo = EngineInfo {
    name: "backtrack",
    summary: "Naive depth-first backtracking: empty cells in row-major order, digits 1..N in \
              increasing order, a used-digit table per house",
    source: "Pier Paolo Guillen Hernandez, \"9.8. Sudoku\", World of πer (Spanish; Project Euler \
             96): procedure pon with used-digit arrays h, v, c per row, column and region; \
             generalised to one table per house (rows, columns, boxes or jigsaw regions, \
             diagonals), iterative instead of recursive, counting past the first solution",
    nodes: "assignments tried: each placement of a digit into an empty cell",
    counters: "guesses = arrivals at an empty cell with >= 2 digits allowed by the tables; \
               backtracks = dead ends: arrivals at an empty cell with no digit allowed; \
               failed_cells = arrivals at an empty cell after which the search returns to the \
               previous empty cell with no solution found since the arrival (failed subtrees); \
               max_live not applicable",
    sides: Sides::Any,
    search_tree: true,
    capabilities: "any N the model accepts (up to 1024), boxes, jigsaw regions, diagonals, \
                   killer cages; no options",
    make,
    variants: super::no_variants,
};

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("backtrack", &[])?;
    Ok(Box::new(Backtrack))
}

/// The engine. It keeps nothing between puzzles.
pub struct Backtrack;

impl Engine for Backtrack {
    fn supports_cages(&self) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        let mut search = Search::new(limits);
        if puzzle.clash().is_some() {
            search.stats.bump("failed_cells", 0);
            return search.finish_unsat();
        }
        let geometry = puzzle.geometry();
        let n = geometry.n();
        let mut tables = Tables::new(puzzle);
        let mut grid = puzzle.givens().to_vec();
        for (cell, &d) in grid.iter().enumerate() {
            if d != 0 {
                tables.set(cell, d as usize, true);
            }
        }
        // The cells `pon` does not skip, in the order it visits them.
        let empties: Vec<u32> = (0..grid.len() as u32)
            .filter(|&c| grid[c as usize] == 0)
            .collect();
        // Solutions found when the search arrived at `empties[p]`: if the count is unchanged
        // when the search leaves that cell backwards, the cell was a dead end.
        let mut found_at_arrival = vec![0u64; empties.len()];
        search.built();

        // `p` is the position in `empties` of the cell being worked on; `arriving` says
        // whether the search comes to it going forward (true) or back from the cells after it
        // (false, and the cell then holds the digit placed last time).
        let mut p = 0usize;
        let mut arriving = true;
        let mut failed_cells = 0u64;
        loop {
            if p == empties.len() {
                // Every cell is filled: the source's "ya llegamos al resultado".
                if !search.solution(&grid) || p == 0 {
                    break;
                }
                p -= 1;
                arriving = false;
                continue;
            }
            let cell = empties[p] as usize;
            let first = if arriving {
                found_at_arrival[p] = search.count();
                1
            } else {
                // Take back the digit placed here before trying the next one.
                let d = grid[cell] as usize;
                tables.set(cell, d, false);
                grid[cell] = 0;
                d + 1
            };
            match (first..=n).find(|&d| tables.allows(cell, d)) {
                Some(d) => {
                    if !search.node() {
                        break;
                    }
                    if arriving && (d + 1..=n).any(|e| tables.allows(cell, e)) {
                        search.stats.guesses += 1;
                    }
                    grid[cell] = d as u16;
                    tables.set(cell, d, true);
                    p += 1;
                    arriving = true;
                }
                None => {
                    if arriving {
                        search.stats.backtracks += 1;
                    }
                    if search.count() == found_at_arrival[p] {
                        failed_cells += 1;
                    }
                    if p == 0 {
                        break; // the whole space is exhausted
                    }
                    p -= 1;
                    arriving = false;
                }
            }
        }
        search.stats.bump("failed_cells", failed_cells);
        search.finish()
    }
}

/// The source's arrays `h`, `v`, `c`, one per house: `used[h * (N + 1) + d]` says whether
/// house `h` already holds digit `d`. With cages (killer), the same per cage, plus the sum and
/// the number of its filled cells.
struct Tables<'g> {
    geometry: &'g Geometry,
    stride: usize,
    used: Vec<bool>,
    cages: Option<&'g CageSet>,
    cage_used: Vec<bool>,
    cage_total: Vec<u32>,
    cage_filled: Vec<u32>,
}

impl<'g> Tables<'g> {
    fn new(puzzle: &'g Puzzle) -> Self {
        let geometry = puzzle.geometry();
        let stride = geometry.n() + 1;
        let cages = puzzle.cage_set();
        let count = cages.map_or(0, CageSet::len);
        Tables {
            geometry,
            stride,
            used: vec![false; geometry.house_count() * stride],
            cages,
            cage_used: vec![false; count * stride],
            cage_total: vec![0; count],
            cage_filled: vec![0; count],
        }
    }

    /// Marks `d` used (or unused) in every house of `cell`, and in its cage.
    #[inline]
    fn set(&mut self, cell: usize, d: usize, used: bool) {
        for &h in self.geometry.houses_of(cell) {
            self.used[h as usize * self.stride + d] = used;
        }
        if let Some(k) = self.cages.and_then(|c| c.cage_of(cell)) {
            self.cage_used[k * self.stride + d] = used;
            if used {
                self.cage_total[k] += d as u32;
                self.cage_filled[k] += 1;
            } else {
                self.cage_total[k] -= d as u32;
                self.cage_filled[k] -= 1;
            }
        }
    }

    /// Whether `d` is unused in every house of `cell` and, if `cell` is in a cage, unused in
    /// the cage, with the cage's sum still reachable by distinct digits unused in the cage in
    /// its remaining empty cells.
    #[inline]
    fn allows(&self, cell: usize, d: usize) -> bool {
        self.geometry
            .houses_of(cell)
            .iter()
            .all(|&h| !self.used[h as usize * self.stride + d])
            && self.cage_allows(cell, d)
    }

    fn cage_allows(&self, cell: usize, d: usize) -> bool {
        let Some(set) = self.cages else {
            return true;
        };
        let Some(k) = set.cage_of(cell) else {
            return true;
        };
        let used = &self.cage_used[k * self.stride..(k + 1) * self.stride];
        if used[d] {
            return false;
        }
        let cage = &set.cages()[k];
        let total = self.cage_total[k] + d as u32;
        if total > cage.sum() {
            return false;
        }
        let rest = cage.len() - self.cage_filled[k] as usize - 1;
        // The `rest` smallest and largest digits unused in the cage (other than `d`) bound
        // what the remaining cells can add: a necessary condition, so no solution is cut.
        let free = (1..self.stride)
            .filter(|&e| e != d && !used[e])
            .map(|e| e as u32);
        completable(cage.sum() - total, rest, free)
    }
}

/// Puzzles and grids shared by the tests of the classic engines.
#[cfg(test)]
pub(crate) mod testkit {
    use crate::puzzle::{Geometry, Grid, Puzzle};
    use std::sync::Arc;

    /// Digits of a grid written as text, `.` or `0` for empty; other characters (spaces, row
    /// separators) are skipped.
    pub fn digits(text: &str) -> Grid {
        text.chars()
            .filter_map(|ch| match ch {
                '.' => Some(0),
                c => c.to_digit(10).map(|d| d as u16),
            })
            .collect()
    }

    pub fn puzzle(geometry: Geometry, text: &str) -> Puzzle {
        Puzzle::new(Arc::new(geometry), digits(text)).unwrap()
    }

    pub fn classic(text: &str) -> Puzzle {
        puzzle(Geometry::square(9).unwrap(), text)
    }

    /// The 50 grids of Project Euler 96 (`Grid NN` then 9 rows of 9 digits).
    pub fn pe96() -> Vec<Puzzle> {
        let text = include_str!("../../data/pe96.txt");
        let mut out = Vec::new();
        let mut rows = String::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            if line.starts_with("Grid") {
                continue;
            }
            rows.push_str(line);
            if rows.len() == 81 {
                out.push(classic(&rows));
                rows.clear();
            }
        }
        assert_eq!(out.len(), 50);
        out
    }

    /// The solution of the first Project Euler 96 grid (it starts 483).
    pub const PE96_01_SOLUTION: &str = "483921657 967345821 251876493 548132976 729564138 \
                                        136798245 372689514 814253769 695417382";

    /// A full grid for the default boxes of side `n`: row `r` is the digits shifted by
    /// `C * (r % R) + r / R` for `R x C` boxes.
    pub fn pattern(n: usize) -> Grid {
        let (r_, c_) = crate::puzzle::default_box(n);
        (0..n * n)
            .map(|cell| {
                let (r, c) = (cell / n, cell % n);
                ((c_ * (r % r_) + r / r_ + c) % n + 1) as u16
            })
            .collect()
    }

    /// Cells of the PE96 grid 01 solution forming a deadly rectangle (8 6 / 6 8 in rows 1-2,
    /// columns 2 and 7): emptying them leaves exactly two solutions.
    pub const DEADLY: [usize; 4] = [1, 6, 10, 15];

    /// `grid` with the cells in `holes` emptied.
    pub fn with_holes(grid: &[u16], holes: impl IntoIterator<Item = usize>) -> Grid {
        let mut g = grid.to_vec();
        for c in holes {
            g[c] = 0;
        }
        g
    }

    /// A 9x9 jigsaw layout made from the standard boxes by exchanging same-digit cells of
    /// neighbouring boxes of [`PE96_01_SOLUTION`], so that grid solves it; every region is
    /// connected (checked by the tests).
    pub const JIGSAW_REGIONS: &str = "011111112 000012222 000015222 \
                                      333445552 333444555 333444485 \
                                      667777885 667678888 666677788";

    /// A full X-sudoku grid (rows, columns, boxes and both diagonals).
    pub const X_SOLUTION: &str = "123456789 456789123 789123456 \
                                  312645978 645978312 978312645 \
                                  231564897 564897231 897231564";
}

#[cfg(test)]
mod tests {
    use super::testkit::*;
    use super::*;
    use crate::engines::{run, Status};
    use crate::puzzle::Geometry;
    use std::sync::Arc;

    fn solve(p: &Puzzle, max_solutions: u64) -> Outcome {
        let o = run(&mut Backtrack, p, &Limits::solutions(max_solutions));
        assert_ne!(o.status, Status::Error, "{:?}", o.note);
        for s in &o.solutions {
            p.check_solution(s).unwrap();
        }
        o
    }

    #[test]
    fn seed_walkthrough_4x4() {
        let p = Puzzle::empty(Arc::new(Geometry::square(4).unwrap()));
        let o = solve(&p, 1);
        assert_eq!(o.status, Status::Solved);
        assert_eq!(o.solutions, vec![digits("1234 3412 2143 4321")]);
        assert_eq!(o.stats.nodes, 16);
        assert_eq!(o.stats.backtracks, 0);
        // Cells with >= 2 allowed digits on arrival: r1c1 (1-4), r1c2 (2-4), r1c3 (3, 4),
        // r2c1 (3, 4), r2c3 (1, 2), r3c1 (2, 4), r3c2 (1, 3); the other nine are forced.
        assert_eq!(o.stats.guesses, 7);
    }

    #[test]
    fn empty_4x4_has_288_solutions() {
        let p = Puzzle::empty(Arc::new(Geometry::square(4).unwrap()));
        let o = solve(&p, 0);
        assert_eq!(o.status, Status::Multiple);
        assert_eq!(o.count, 288);
        assert_eq!(o.solutions.len(), 288);
        let mut sorted = o.solutions.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, o.solutions, "lexicographic order, no repeats");
    }

    #[test]
    fn project_euler_96() {
        let mut sum = 0;
        for (i, p) in pe96().iter().enumerate() {
            let o = solve(p, 2);
            assert_eq!(o.status, Status::Unique, "grid {}", i + 1);
            let s = &o.solutions[0];
            sum += 100 * s[0] as u32 + 10 * s[1] as u32 + s[2] as u32;
        }
        assert_eq!(sum, 24702);
    }

    #[test]
    fn pe96_first_grid() {
        let o = solve(&pe96()[0], 2);
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], digits(PE96_01_SOLUTION));
    }

    /// The source's recursive `pon`, transcribed for boxed grids with its three arrays
    /// `h`, `v`, `c` (row, column, box), instrumented with the counters as the module doc
    /// defines them. The engine must agree with it exactly.
    struct Pon {
        n: usize,
        rows: usize,
        cols: usize,
        m: Vec<u16>,
        h: Vec<Vec<bool>>,
        v: Vec<Vec<bool>>,
        c: Vec<Vec<bool>>,
        max: u64,
        sols: u64,
        nodes: u64,
        guesses: u64,
        backtracks: u64,
        wipeouts: u64,
    }

    impl Pon {
        fn run(givens: &[u16], rows: usize, cols: usize, max: u64) -> Pon {
            let n = rows * cols;
            let mut s = Pon {
                n,
                rows,
                cols,
                m: givens.to_vec(),
                h: vec![vec![false; n + 1]; n],
                v: vec![vec![false; n + 1]; n],
                c: vec![vec![false; n + 1]; n],
                max,
                sols: 0,
                nodes: 0,
                guesses: 0,
                backtracks: 0,
                wipeouts: 0,
            };
            for (x, &d) in givens.iter().enumerate() {
                if d != 0 {
                    let (i, j, t) = s.at(x);
                    s.h[i][d as usize] = true;
                    s.v[j][d as usize] = true;
                    s.c[t][d as usize] = true;
                }
            }
            s.pon(0);
            s
        }

        fn at(&self, x: usize) -> (usize, usize, usize) {
            let (i, j) = (x / self.n, x % self.n);
            let t = (i / self.rows) * (self.n / self.cols) + j / self.cols;
            (i, j, t)
        }

        /// Returns true when the solution cap stops the search.
        fn pon(&mut self, x: usize) -> bool {
            if x == self.n * self.n {
                self.sols += 1;
                return self.max != 0 && self.sols >= self.max;
            }
            if self.m[x] != 0 {
                return self.pon(x + 1);
            }
            let (i, j, t) = self.at(x);
            let ok: Vec<usize> = (1..=self.n)
                .filter(|&k| !self.h[i][k] && !self.v[j][k] && !self.c[t][k])
                .collect();
            match ok.len() {
                0 => self.wipeouts += 1,
                1 => {}
                _ => self.guesses += 1,
            }
            let before = self.sols;
            for k in ok {
                self.nodes += 1;
                self.m[x] = k as u16;
                (self.h[i][k], self.v[j][k], self.c[t][k]) = (true, true, true);
                if self.pon(x + 1) {
                    return true;
                }
                (self.h[i][k], self.v[j][k], self.c[t][k]) = (false, false, false);
                self.m[x] = 0;
            }
            if self.sols == before {
                self.backtracks += 1;
            }
            false
        }
    }

    #[test]
    fn counters_match_the_recursive_source() {
        let mut cases: Vec<(Puzzle, u64)> = pe96()
            .into_iter()
            .step_by(7)
            .flat_map(|p| [(p.clone(), 1), (p, 2)])
            .collect();
        let full = digits(PE96_01_SOLUTION);
        for max in [0, 1, 2] {
            cases.push((classic_from(&with_holes(&full, DEADLY)), max));
            cases.push((classic_from(&with_holes(&full, 0..30)), max));
        }
        let empty4 = Puzzle::empty(Arc::new(Geometry::square(4).unwrap()));
        for max in [0, 1, 2, 100] {
            cases.push((empty4.clone(), max));
        }
        for (p, max) in cases {
            let (rows, cols) = p.geometry().box_shape().unwrap();
            let r = Pon::run(p.givens(), rows, cols, max);
            let o = solve(&p, max);
            let failed_cells = o.stats.counter("failed_cells").unwrap();
            assert_eq!(
                (
                    o.count,
                    o.stats.nodes,
                    o.stats.guesses,
                    failed_cells,
                    o.stats.backtracks
                ),
                (r.sols, r.nodes, r.guesses, r.backtracks, r.wipeouts)
            );
        }
    }

    fn classic_from(givens: &[u16]) -> Puzzle {
        Puzzle::new(Arc::new(Geometry::square(9).unwrap()), givens.to_vec()).unwrap()
    }

    #[test]
    fn six_by_six() {
        let g = Geometry::square(6).unwrap();
        let full = pattern(6);
        g.check_grid(&full).unwrap();
        let holes = (0..36).filter(|c| (c * 7) % 3 != 0);
        let p = Puzzle::new(Arc::new(g), with_holes(&full, holes)).unwrap();
        let o = solve(&p, 0);
        assert!(o.count >= 1 && o.status.is_answer());
        assert!(o.solutions.contains(&full));
    }

    #[test]
    fn jigsaw_9x9() {
        let g = Geometry::jigsaw(9, digits(JIGSAW_REGIONS)).unwrap();
        assert_eq!(g.disconnected_region(), None);
        let full = digits(PE96_01_SOLUTION);
        g.check_grid(&full).unwrap();
        let p = Puzzle::new(Arc::new(g), with_holes(&full, (0..81).step_by(2))).unwrap();
        let o = solve(&p, 2);
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions, vec![full]);
    }

    #[test]
    fn x_sudoku_uses_the_diagonals() {
        let x = Geometry::square(9).unwrap().with_diagonals(true);
        let full = digits(X_SOLUTION);
        x.check_grid(&full).unwrap();
        // The first four rows empty: 4 X-sudoku solutions, 3000 without the diagonals.
        let givens = with_holes(&full, 0..36);
        let px = Puzzle::new(Arc::new(x), givens.clone()).unwrap();
        let ox = solve(&px, 0);
        assert!(ox.solutions.contains(&full));
        let plain = solve(&classic_from(&givens), 0);
        assert_eq!(
            (ox.status, ox.count, plain.count),
            (Status::Multiple, 4, 3000)
        );
        for s in &plain.solutions {
            assert_eq!(ox.solutions.contains(s), px.check_solution(s).is_ok());
        }
    }

    #[test]
    fn clashing_givens_are_unsat_without_search() {
        let mut givens = vec![0u16; 81];
        givens[0] = 5;
        givens[80] = 5; // same digit, but no common house: fine
        givens[40] = 5; // centre box, row 5, column 5: clashes with neither... so add one
        givens[44] = 5; // row 5 again: clash
        let o = solve(&classic_from(&givens), 2);
        assert_eq!(o.status, Status::Unsat);
        assert_eq!((o.count, o.stats.nodes), (0, 0));
    }

    #[test]
    fn two_solutions() {
        let p = classic_from(&with_holes(&digits(PE96_01_SOLUTION), DEADLY));
        let o = solve(&p, 2);
        assert_eq!(
            (o.status, o.count, o.solutions.len()),
            (Status::Multiple, 2, 2)
        );
        let o = solve(&p, 0);
        assert_eq!((o.status, o.count), (Status::Multiple, 2));
        let o = solve(&p, 1);
        assert_eq!((o.status, o.count), (Status::Solved, 1));
    }

    #[test]
    fn full_grid_and_tiny_grids() {
        let full = digits(PE96_01_SOLUTION);
        let o = solve(&classic_from(&full), 2);
        assert_eq!((o.status, o.stats.nodes), (Status::Unique, 0));
        assert_eq!(o.solutions, vec![full]);
        let one = Puzzle::empty(Arc::new(Geometry::square(1).unwrap()));
        let o = solve(&one, 0);
        assert_eq!((o.status, o.count, o.stats.nodes), (Status::Unique, 1, 1));
        let two = Puzzle::empty(Arc::new(Geometry::square(2).unwrap()));
        let o = solve(&two, 0);
        assert_eq!((o.status, o.count), (Status::Multiple, 2));
        let three = Puzzle::empty(Arc::new(Geometry::square(3).unwrap()));
        let o = solve(&three, 0);
        assert_eq!((o.status, o.count), (Status::Multiple, 12)); // Latin squares of order 3
    }

    #[test]
    fn large_side_runs_without_recursion() {
        // 100 x 100 (10x10 boxes), one cell in eleven empty: 909 empty cells, each forced.
        let n = 100;
        let full = pattern(n);
        let p = Puzzle::new(
            Arc::new(Geometry::square(n).unwrap()),
            with_holes(&full, (0..n * n).step_by(11)),
        )
        .unwrap();
        let o = solve(&p, 2);
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions, vec![full]);
        assert_eq!(
            (o.stats.nodes, o.stats.guesses, o.stats.backtracks),
            (910, 0, 0)
        );
    }

    #[test]
    fn limits() {
        let p = Puzzle::empty(Arc::new(Geometry::square(9).unwrap()));
        let limits = Limits {
            max_solutions: 0,
            node_limit: Some(1000),
            ..Limits::default()
        };
        let o = run(&mut Backtrack, &p, &limits);
        assert_eq!((o.status, o.stats.nodes), (Status::NodeLimit, 1000));
        let limits = Limits {
            max_solutions: 0,
            time_limit: Some(std::time::Duration::from_millis(30)),
            keep_solutions: 0,
            ..Limits::default()
        };
        let o = run(&mut Backtrack, &p, &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(o.count > 0);
        let cancel = Arc::new(std::sync::atomic::AtomicBool::new(true));
        let limits = Limits {
            max_solutions: 0,
            cancel: Some(cancel),
            ..Limits::default()
        };
        assert_eq!(run(&mut Backtrack, &p, &limits).status, Status::TimeLimit);
    }

    #[test]
    fn options() {
        assert!((INFO.make)(&EngineOptions::new()).is_ok());
        assert!((INFO.make)(&EngineOptions::new().with("order", "lifo")).is_err());
    }
}
