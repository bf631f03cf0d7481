//! Killer puzzles: cages drawn around a random full grid, then split until the puzzle is
//! unique.
//!
//! # Method
//!
//! 1. **A full grid**: the filler's randomised search ([`super::fill`]) on the boxed geometry.
//! 2. **Givens** (optional, [`KillerOptions::givens`]): that many cells, drawn at random, keep
//!    their digit. By default there are none (classic killer sudoku).
//! 3. **Cages**: the cells are visited in a random order; each cell not yet in a cage starts
//!    one, with a target size drawn from [`CAGE_SIZE_WEIGHTS`] (1 to 5 cells, mostly 2 to
//!    4), grown by adding a random orthogonal neighbour not yet in a cage whose digit is not
//!    already in the cage (the rules of killer sudoku: a cage holds distinct digits), until
//!    the size is reached or no neighbour fits. The sum of a cage is the sum of its digits in
//!    the full grid, which therefore solves the puzzle.
//! 4. **Uniqueness**: the engine (default `dlx`, whose killer matrix has one option per
//!    filling of a cage: Knuth, TAOCP 7.2.2.1) searches for two solutions. While it finds
//!    two, the cages holding a cell where the two solutions differ are the ones that let the
//!    second solution through: one of them, drawn at random (cages of one cell fix their
//!    digit, so some differing cage has two cells or more), is *split* in two connected
//!    parts (a piece grown from one of its cells, the rest cut into its connected
//!    components). A check stopped by the node limit, or refused by the engine (a matrix over
//!    its bound), splits the largest cage instead. Each split adds a cage and the number of
//!    cages is at most `N*N`, where every cage has one cell and the puzzle is the full grid:
//!    the loop ends. The puzzle returned is the one whose check answered `unique`, a search
//!    to two solutions that completed (never one stopped by a limit), as for
//!    [`super::Generator`].
//!
//! Splitting only makes the puzzle more constrained: a solution of the puzzle with the split
//! cage is a solution of the puzzle before the split, so no solution is lost and the full
//! grid stays one. No merge step follows: merging two cages of a unique puzzle can make it
//! ambiguous again and would need a check per merge.
//!
//! Determinism: one seeded ChaCha8 stream and node limits, never time limits (except the
//! optional [`KillerOptions::time_limit`], which only stops the stream), so a seed gives the
//! same puzzles on any machine.

use super::fill::Filler;
use super::{GenerateError, PuzzleStats, LAYOUT_TRIES};
use crate::engines::{self, Engine, EngineSpec, Limits, Status};
use crate::puzzle::{Geometry, Puzzle};
use crate::search::Deadline;
use rand::seq::SliceRandom;
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Smallest side of a killer puzzle made here.
pub const KILLER_MIN_SIDE: usize = 4;
/// Largest side of a killer puzzle made here: the engine's matrix has one option per filling
/// of each cage, which grows fast with the side (a 5-cell cage of a 16x16 grid can have tens
/// of thousands of fillings).
pub const KILLER_MAX_SIDE: usize = 16;

/// Default node limit of one uniqueness check. A check stopped by it splits the largest
/// cage, which is cheaper than a long search: measured on 16x16, seeds 0-7, at 20,000 nodes
/// every puzzle took 0.6 to 9.3 s, while at 1,000,000 one check alone could take 40 s
/// (`cargo bench --bench killer_generate -- -- 16 8 - 20000`, docs/generate.md).
pub const DEFAULT_KILLER_NODE_LIMIT: u64 = 20_000;

/// Relative weights of the target cage sizes `1, 2, 3, 4, 5`.
pub const CAGE_SIZE_WEIGHTS: [u32; 5] = [1, 3, 4, 3, 1];

/// What to generate.
#[derive(Clone, Debug)]
pub struct KillerOptions {
    /// Side `N`, [`KILLER_MIN_SIDE`] to [`KILLER_MAX_SIDE`].
    pub size: usize,
    /// Box shape `(rows, cols)`; `None` = the default for `N`.
    pub box_shape: Option<(usize, usize)>,
    /// Givens kept (0 = classic killer, no givens).
    pub givens: usize,
    pub seed: u64,
    /// Engine of the uniqueness checks (it must enforce cages); `None` = `dlx`.
    pub engine: Option<EngineSpec>,
    /// Node limit of each uniqueness check: a check stopped by it splits the largest cage.
    pub node_limit: u64,
    /// Wall time for the whole stream (`None` = no limit), as
    /// [`super::GenerateOptions::time_limit`].
    pub time_limit: Option<std::time::Duration>,
}

impl KillerOptions {
    /// Options for `N x N` killers with no givens, seed 0 and the defaults.
    pub fn new(size: usize) -> Self {
        KillerOptions {
            size,
            box_shape: None,
            givens: 0,
            seed: 0,
            engine: None,
            node_limit: DEFAULT_KILLER_NODE_LIMIT,
            time_limit: None,
        }
    }
}

/// A stream of unique killer puzzles (see the module doc).
pub struct KillerGenerator {
    options: KillerOptions,
    geometry: Arc<Geometry>,
    filler: Filler,
    engine: Box<dyn Engine>,
    rng: ChaCha8Rng,
    stats: PuzzleStats,
    solution: Vec<u16>,
    deadline: Deadline,
}

impl std::fmt::Debug for KillerGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KillerGenerator")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl KillerGenerator {
    /// Checks the options (side, box shape, givens, engine) and prepares the engine.
    pub fn new(options: KillerOptions) -> Result<Self, GenerateError> {
        let deadline = Deadline::after(std::time::Instant::now(), options.time_limit, None);
        let n = options.size;
        if !(KILLER_MIN_SIDE..=KILLER_MAX_SIDE).contains(&n) {
            return Err(GenerateError::KillerSide(n));
        }
        let geometry = match options.box_shape {
            Some((r, c)) => Geometry::boxed(n, r, c)?,
            None => Geometry::square(n)?,
        };
        if options.givens > n * n {
            return Err(GenerateError::TooManyClues {
                clues: options.givens,
                cells: n * n,
            });
        }
        let spec = options
            .engine
            .clone()
            .unwrap_or_else(|| EngineSpec::new("dlx"));
        let engine = spec.make()?;
        if !engine.supports_cages() {
            return Err(GenerateError::EngineUnfit {
                spec: spec.to_string(),
                lacks: "does not enforce cages (killer sudoku); dlx and backtrack do",
            });
        }
        Ok(KillerGenerator {
            filler: Filler::new(&geometry),
            geometry: Arc::new(geometry),
            engine,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            options,
            stats: PuzzleStats::default(),
            solution: Vec::new(),
            deadline,
        })
    }

    pub fn options(&self) -> &KillerOptions {
        &self.options
    }

    /// Work done for the last puzzle returned: `checks` (uniqueness checks), `refused`
    /// (checks that found two solutions), `undecided` (checks stopped by the node limit or
    /// refused by the engine) and `splits` (cages split).
    pub fn last_stats(&self) -> &PuzzleStats {
        &self.stats
    }

    /// The solution of the last puzzle returned (the full grid its cages were drawn on).
    pub fn last_solution(&self) -> &[u16] {
        &self.solution
    }

    fn in_time(&self) -> Result<(), GenerateError> {
        super::in_time(&self.deadline, self.options.time_limit)
    }

    /// The next puzzle: cages (and the asked givens) with exactly one solution, proven by
    /// the engine.
    pub fn next_puzzle(&mut self) -> Result<Puzzle, GenerateError> {
        self.stats = PuzzleStats {
            attempts: 1,
            ..PuzzleStats::default()
        };
        let n = self.options.size;
        let budget = 4 * (n * n) as u64;
        self.filler.deadline = self.deadline.clone();
        let grid = self
            .filler
            .random_grid(&mut self.rng, budget, LAYOUT_TRIES)
            .ok_or_else(|| match self.in_time() {
                Err(e) => e,
                Ok(()) => GenerateError::NoGrid {
                    what: format!("the {n}x{n} killer grid"),
                    tries: LAYOUT_TRIES,
                },
            })?;
        let mut givens = vec![0u16; n * n];
        let mut cells: Vec<usize> = (0..n * n).collect();
        cells.shuffle(&mut self.rng);
        for &c in &cells[..self.options.givens] {
            givens[c] = grid[c];
        }
        let mut cage_of = draw_cages(n, &grid, &mut self.rng);
        loop {
            self.in_time()?;
            let puzzle = self.puzzle(&givens, &cage_of, &grid);
            let mut limits = Limits {
                node_limit: Some(self.options.node_limit),
                keep_solutions: 2,
                ..Limits::solutions(2)
            };
            if let Some(left) = self.deadline.remaining() {
                limits.time_limit = Some(left);
            }
            self.stats.checks += 1;
            let outcome = engines::run(self.engine.as_mut(), &puzzle, &limits);
            let target = match outcome.status {
                Status::Unique => {
                    self.solution = grid;
                    return Ok(puzzle);
                }
                Status::Multiple => {
                    self.stats.refused += 1;
                    let other =
                        outcome
                            .solutions
                            .iter()
                            .find(|s| **s != grid)
                            .ok_or_else(|| {
                                GenerateError::Check(
                                    "the engine answered multiple without a second solution".into(),
                                )
                            })?;
                    differing_cage(&cage_of, &grid, other, &mut self.rng)
                }
                Status::TimeLimit => {
                    self.in_time()?;
                    return Err(GenerateError::Check("a check stopped by its time".into()));
                }
                Status::NodeLimit | Status::MemoryLimit | Status::Unsupported => {
                    self.stats.undecided += 1;
                    largest_cage(&cage_of)
                }
                other => {
                    return Err(GenerateError::Check(format!(
                        "the engine answered {other} on a killer drawn on a valid grid{}",
                        outcome.note.map(|s| format!(" ({s})")).unwrap_or_default()
                    )))
                }
            };
            let Some(cage) = target else {
                return Err(GenerateError::Check(
                    "every cage has one cell, yet the puzzle is not proven unique".into(),
                ));
            };
            split_cage(n, &mut cage_of, cage, &mut self.rng);
            self.stats.splits += 1;
        }
    }

    /// The puzzle of these givens and cages (ids `0..`), sums from `grid`; the cages in
    /// order of their first cell (row-major), the order the readers give.
    fn puzzle(&self, givens: &[u16], cage_of: &[u32], grid: &[u16]) -> Puzzle {
        let count = cage_of.iter().max().map_or(0, |&m| m as usize + 1);
        let mut rank = vec![usize::MAX; count];
        let mut cages: Vec<(Vec<u32>, u32)> = Vec::with_capacity(count);
        for (cell, &k) in cage_of.iter().enumerate() {
            let slot = &mut rank[k as usize];
            if *slot == usize::MAX {
                *slot = cages.len();
                cages.push((Vec::new(), 0));
            }
            cages[*slot].0.push(cell as u32);
            cages[*slot].1 += u32::from(grid[cell]);
        }
        Puzzle::new(Arc::clone(&self.geometry), givens.to_vec())
            .expect("digits of a full grid")
            .with_cages(cages)
            .expect("connected cages of distinct digits summed from the grid")
    }
}

/// The orthogonal neighbours of `cell` on an `n x n` grid.
fn neighbours(n: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (r, c) = (cell / n, cell % n);
    [
        (r > 0).then(|| cell - n),
        (r + 1 < n).then(|| cell + n),
        (c > 0).then(|| cell - 1),
        (c + 1 < n).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// A target cage size drawn from [`CAGE_SIZE_WEIGHTS`].
fn cage_size(rng: &mut ChaCha8Rng) -> usize {
    let total: u32 = CAGE_SIZE_WEIGHTS.iter().sum();
    let mut x = rng.gen_range(0..total);
    for (i, &w) in CAGE_SIZE_WEIGHTS.iter().enumerate() {
        if x < w {
            return i + 1;
        }
        x -= w;
    }
    CAGE_SIZE_WEIGHTS.len()
}

/// Grows a cage from `start` over the cells where `free` holds, each added cell a random
/// orthogonal neighbour of the cage whose digit in `grid` is not in it yet, up to `size`
/// cells. Marks the cells taken in `free` and returns them.
fn grow(
    n: usize,
    grid: &[u16],
    free: &mut [bool],
    start: usize,
    size: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<usize> {
    let mut cage = vec![start];
    free[start] = false;
    let mut frontier = Vec::new();
    while cage.len() < size {
        frontier.clear();
        for &c in &cage {
            for nb in neighbours(n, c) {
                if free[nb] && !frontier.contains(&nb) && cage.iter().all(|&o| grid[o] != grid[nb])
                {
                    frontier.push(nb);
                }
            }
        }
        let Some(&next) = frontier.choose(rng) else {
            break;
        };
        free[next] = false;
        cage.push(next);
    }
    cage
}

/// A random partition of the grid into connected cages of distinct digits: the cage id of
/// every cell, ids `0..` in order of creation.
fn draw_cages(n: usize, grid: &[u16], rng: &mut ChaCha8Rng) -> Vec<u32> {
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut free = vec![true; n * n];
    let mut cage_of = vec![0u32; n * n];
    let mut next = 0u32;
    for &start in &order {
        if !free[start] {
            continue;
        }
        let size = cage_size(rng);
        for c in grow(n, grid, &mut free, start, size, rng) {
            cage_of[c] = next;
        }
        next += 1;
    }
    cage_of
}

/// A random cage of two cells or more that holds a cell where `grid` and `other` differ.
fn differing_cage(
    cage_of: &[u32],
    grid: &[u16],
    other: &[u16],
    rng: &mut ChaCha8Rng,
) -> Option<u32> {
    let sizes = cage_sizes(cage_of);
    let mut cages: Vec<u32> = (0..grid.len())
        .filter(|&c| grid[c] != other[c] && sizes[cage_of[c] as usize] > 1)
        .map(|c| cage_of[c])
        .collect();
    cages.sort_unstable();
    cages.dedup();
    cages.choose(rng).copied()
}

/// The first of the largest cages, if it has two cells or more.
fn largest_cage(cage_of: &[u32]) -> Option<u32> {
    let sizes = cage_sizes(cage_of);
    let (k, &size) = sizes
        .iter()
        .enumerate()
        .max_by_key(|&(k, &s)| (s, std::cmp::Reverse(k)))?;
    (size > 1).then_some(k as u32)
}

fn cage_sizes(cage_of: &[u32]) -> Vec<usize> {
    let count = cage_of.iter().max().map_or(0, |&m| m as usize + 1);
    let mut sizes = vec![0usize; count];
    for &k in cage_of {
        sizes[k as usize] += 1;
    }
    sizes
}

/// Splits cage `cage` (two cells or more) in two or more connected cages: a piece of
/// `1..len` cells grown from a random cell of the cage keeps the id, and each connected
/// component of the rest gets a new id.
fn split_cage(n: usize, cage_of: &mut [u32], cage: u32, rng: &mut ChaCha8Rng) {
    let cells: Vec<usize> = (0..cage_of.len()).filter(|&c| cage_of[c] == cage).collect();
    debug_assert!(cells.len() > 1);
    let mut next = cage_of.iter().max().map_or(0, |&m| m + 1);
    let mut free = vec![false; cage_of.len()];
    for &c in &cells {
        free[c] = true;
    }
    let start = *cells.choose(rng).expect("a cage has cells");
    let size = rng.gen_range(1..cells.len());
    // Digits are distinct within the cage already: the digit test of `grow` is moot here, so
    // a grid of distinct values stands in for it.
    let distinct: Vec<u16> = (0..cage_of.len()).map(|c| c as u16).collect();
    grow(n, &distinct, &mut free, start, size, rng);
    // The rest, by connected components.
    for &c in &cells {
        if !free[c] {
            continue;
        }
        let mut stack = vec![c];
        free[c] = false;
        while let Some(x) = stack.pop() {
            cage_of[x] = next;
            for nb in neighbours(n, x) {
                if free[nb] {
                    free[nb] = false;
                    stack.push(nb);
                }
            }
        }
        next += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every cage drawn is connected with distinct digits, so `CageSet` accepts it, and a
    /// split leaves two or more connected cages covering the same cells.
    #[test]
    fn cages_are_connected_and_splits_partition_them() {
        let g = Geometry::square(9).unwrap();
        let filler = Filler::new(&g);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let grid = filler.random_grid(&mut rng, 400, 100).unwrap();
        let mut cage_of = draw_cages(9, &grid, &mut rng);
        let before = cage_sizes(&cage_of).len();
        let big = largest_cage(&cage_of).unwrap();
        let cells: Vec<usize> = (0..81).filter(|&c| cage_of[c] == big).collect();
        split_cage(9, &mut cage_of, big, &mut rng);
        assert!(cage_sizes(&cage_of).len() > before);
        let ids: std::collections::HashSet<u32> = cells.iter().map(|&c| cage_of[c]).collect();
        assert!(ids.len() >= 2, "{ids:?}");
        let sizes = cage_sizes(&cage_of);
        assert!(sizes.iter().all(|&s| (1..=5).contains(&s)), "{sizes:?}");
        let cages: Vec<(Vec<u32>, u32)> = (0..sizes.len() as u32)
            .map(|k| {
                let cells: Vec<u32> = (0..81u32).filter(|&c| cage_of[c as usize] == k).collect();
                let sum = cells.iter().map(|&c| u32::from(grid[c as usize])).sum();
                (cells, sum)
            })
            .collect();
        let set = crate::puzzle::CageSet::new(9, cages).unwrap();
        assert_eq!(set.first_broken(&grid), None);
    }
}
