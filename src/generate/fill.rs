//! Random full grids: a randomised depth-first search with constraint propagation over the
//! houses of any geometry (boxes, jigsaw regions, diagonals).
//!
//! # Method
//!
//! Candidates are kept per cell as a bit set (`u128`, hence sides up to [`MAX_FILL_SIDE`]).
//! Every node first propagates to a fixpoint:
//!
//! - *naked singles*: a cell left with one candidate takes it (queued as they appear);
//! - *hidden singles*: a digit with one place left in a house goes there; a digit with no
//!   place, or a cell that is the only place of two digits of one house, is a contradiction.
//!
//! It then branches on a cell with the fewest candidates (the MRV rule of Haralick and
//! Elliott 1980, "Increasing tree search efficiency for constraint satisfaction problems"),
//! **chosen uniformly at random among the cells tied on that count**, and tries its
//! candidates **in a uniformly random order**. Each search has a node budget; when it runs out
//! the search restarts from the empty grid with fresh random choices (randomised restarts,
//! Gomes, Selman and Kautz 1998, "Boosting combinatorial search through randomization"),
//! which avoids the heavy-tailed runs a single randomised search has on large grids. Finally
//! the digits are relabelled by a uniformly random permutation.
//!
//! # How random the grids are
//!
//! Every valid grid can come out (the search is complete within its budget and every choice
//! is random), but the distribution is **not uniform**: the first solution of a randomised
//! search favours grids that are reached by many choice sequences, i.e. grids whose first
//! decisions leave more completions. The final digit relabelling makes the distribution
//! exactly invariant under relabelling, nothing more. Uniform sampling of Sudoku grids needs
//! an enumeration (Felgenhauer and Jarvis 2006 count 6.67e21 9x9 grids) or a rejection scheme,
//! both out of reach for large sides; for generating puzzles, the removal order matters as
//! much as the grid and is uniform (see the parent module).

use crate::puzzle::Geometry;
use crate::search::Deadline;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Largest side the filler handles: candidates are `u128` bit sets.
pub const MAX_FILL_SIDE: usize = 128;

/// The peers of every cell (cells sharing a house with it), built once per geometry.
pub struct Filler {
    n: usize,
    /// Cells of the frame (`N * N` for one grid; a combined layout's void cells included,
    /// which take any digit: the caller clears them).
    cells: usize,
    full: u128,
    /// `peers[peer_start[c]..peer_start[c + 1]]`: the peers of cell `c`, each once.
    peers: Vec<u32>,
    peer_start: Vec<u32>,
    /// Houses as flat cell lists (`n` cells each), copied from the geometry.
    houses: Vec<u32>,
    /// No new search starts after this instant (the generator's time limit).
    pub deadline: Deadline,
}

/// The search state: candidates per cell and the digits placed (`0` = empty).
#[derive(Clone)]
struct State {
    cand: Vec<u128>,
    grid: Vec<u16>,
}

/// A contradiction was found: the state has no completion.
struct Dead;

/// The node budget of the current search ran out.
struct OutOfBudget;

impl Filler {
    /// Prepares the peer lists of `g`. Panics if the side exceeds [`MAX_FILL_SIDE`]; callers
    /// validate the side first.
    pub fn new(g: &Geometry) -> Self {
        let n = g.n();
        assert!(n <= MAX_FILL_SIDE, "side {n} above {MAX_FILL_SIDE}");
        let cells = g.cells();
        let mut peers = Vec::with_capacity(cells * 3 * n);
        let mut peer_start = Vec::with_capacity(cells + 1);
        // Marks the peers already listed for the current cell, so each appears once even when
        // it shares two houses (row and box) with it.
        let mut mark = vec![u32::MAX; cells];
        for c in 0..cells {
            peer_start.push(peers.len() as u32);
            mark[c] = c as u32;
            for &h in g.houses_of(c) {
                for &p in g.house(h as usize) {
                    if mark[p as usize] != c as u32 {
                        mark[p as usize] = c as u32;
                        peers.push(p);
                    }
                }
            }
        }
        peer_start.push(peers.len() as u32);
        let houses = g.houses().flatten().copied().collect();
        let full = if n == 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        Filler {
            n,
            cells,
            full,
            peers,
            peer_start,
            houses,
            deadline: Deadline::default(),
        }
    }

    /// A random full grid, or `None` when `restarts` searches of `budget` nodes each all ran
    /// out (a jigsaw layout may have no full grid at all; the caller then changes layout), or
    /// when the deadline passed.
    pub fn random_grid(
        &self,
        rng: &mut ChaCha8Rng,
        budget: u64,
        restarts: u32,
    ) -> Option<Vec<u16>> {
        for _ in 0..restarts {
            if self.deadline.expired().is_some() {
                return None;
            }
            let state = State {
                cand: vec![self.full; self.cells],
                grid: vec![0; self.cells],
            };
            let mut left = budget;
            match self.search(state, rng, &mut left) {
                Ok(Some(mut grid)) => {
                    let mut relabel: Vec<u16> = (1..=self.n as u16).collect();
                    relabel.shuffle(rng);
                    for d in &mut grid {
                        *d = relabel[*d as usize - 1];
                    }
                    return Some(grid);
                }
                // The whole space was searched: no full grid exists (an impossible layout).
                Ok(None) => return None,
                Err(OutOfBudget) => continue,
            }
        }
        None
    }

    fn search(
        &self,
        mut state: State,
        rng: &mut ChaCha8Rng,
        budget: &mut u64,
    ) -> Result<Option<Vec<u16>>, OutOfBudget> {
        if *budget == 0 {
            return Err(OutOfBudget);
        }
        *budget -= 1;
        // One search runs up to 4 N^2 nodes: read the clock now and then inside it too (the
        // caller reads it again and gives up).
        if *budget % 1024 == 0 && self.deadline.expired().is_some() {
            return Err(OutOfBudget);
        }
        if self.propagate(&mut state, Vec::new()).is_err() {
            return Ok(None);
        }
        // MRV cell, ties broken uniformly at random (reservoir sampling over the tied cells).
        let mut best = u32::MAX;
        let mut chosen = usize::MAX;
        let mut ties = 0u32;
        for (c, &m) in state.cand.iter().enumerate() {
            if state.grid[c] != 0 {
                continue;
            }
            let k = m.count_ones();
            if k < best {
                best = k;
                chosen = c;
                ties = 1;
            } else if k == best {
                ties += 1;
                if rng.gen_range(0..ties) == 0 {
                    chosen = c;
                }
            }
        }
        if chosen == usize::MAX {
            return Ok(Some(state.grid));
        }
        let m = state.cand[chosen];
        let mut digits: Vec<u16> = (0..self.n as u16).filter(|&d| m >> d & 1 == 1).collect();
        digits.shuffle(rng);
        let last = digits.len() - 1;
        for (i, d) in digits.into_iter().enumerate() {
            // The last alternative may consume the state instead of copying it.
            let mut next = if i == last {
                std::mem::replace(
                    &mut state,
                    State {
                        cand: Vec::new(),
                        grid: Vec::new(),
                    },
                )
            } else {
                state.clone()
            };
            if self
                .assign(&mut next, chosen, d + 1, &mut Vec::new())
                .is_err()
            {
                continue;
            }
            if let Some(grid) = self.search(next, rng, budget)? {
                return Ok(Some(grid));
            }
        }
        Ok(None)
    }

    /// Places `digit` in `cell` and removes it from the peers; peers left with one candidate
    /// are pushed on `singles`.
    fn assign(
        &self,
        state: &mut State,
        cell: usize,
        digit: u16,
        singles: &mut Vec<u32>,
    ) -> Result<(), Dead> {
        let bit = 1u128 << (digit - 1);
        if state.cand[cell] & bit == 0 {
            return Err(Dead);
        }
        state.cand[cell] = bit;
        state.grid[cell] = digit;
        let (a, b) = (
            self.peer_start[cell] as usize,
            self.peer_start[cell + 1] as usize,
        );
        for &p in &self.peers[a..b] {
            let p = p as usize;
            let m = state.cand[p];
            if m & bit == 0 {
                continue;
            }
            if state.grid[p] != 0 {
                return Err(Dead);
            }
            let m = m & !bit;
            state.cand[p] = m;
            if m == 0 {
                return Err(Dead);
            }
            if m & (m - 1) == 0 {
                singles.push(p as u32);
            }
        }
        Ok(())
    }

    /// Naked and hidden singles to a fixpoint.
    fn propagate(&self, state: &mut State, mut singles: Vec<u32>) -> Result<(), Dead> {
        let n = self.n;
        loop {
            while let Some(c) = singles.pop() {
                let c = c as usize;
                if state.grid[c] == 0 {
                    let m = state.cand[c];
                    self.assign(state, c, m.trailing_zeros() as u16 + 1, &mut singles)?;
                }
            }
            let mut placed = false;
            for house in self.houses.chunks_exact(n) {
                let (mut once, mut twice) = (0u128, 0u128);
                for &c in house {
                    let m = state.cand[c as usize];
                    twice |= once & m;
                    once |= m;
                }
                if once != self.full {
                    return Err(Dead);
                }
                let hidden = once & !twice;
                if hidden == 0 {
                    continue;
                }
                for &c in house {
                    let c = c as usize;
                    if state.grid[c] != 0 {
                        continue;
                    }
                    let h = state.cand[c] & hidden;
                    if h == 0 {
                        continue;
                    }
                    if h & (h - 1) != 0 {
                        return Err(Dead);
                    }
                    self.assign(state, c, h.trailing_zeros() as u16 + 1, &mut singles)?;
                    placed = true;
                }
            }
            if !placed && singles.is_empty() {
                return Ok(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn fill(g: &Geometry, seed: u64) -> Option<Vec<u16>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        Filler::new(g).random_grid(&mut rng, 100_000, 20)
    }

    #[test]
    fn fills_boxed_grids_of_many_sides() {
        for (n, r, c) in [
            (4, 2, 2),
            (6, 2, 3),
            (6, 3, 2),
            (8, 2, 4),
            (9, 3, 3),
            (16, 4, 4),
        ] {
            let g = Geometry::boxed(n, r, c).unwrap();
            let grid = fill(&g, n as u64).expect("a grid");
            assert_eq!(g.check_grid(&grid), Ok(()), "{n}x{n} {r}x{c}");
        }
    }

    #[test]
    fn fills_x_sudoku() {
        let g = Geometry::square(9).unwrap().with_diagonals(true);
        for seed in 0..5 {
            let grid = fill(&g, seed).expect("a grid");
            assert_eq!(g.check_grid(&grid), Ok(()));
        }
    }

    #[test]
    fn grids_differ_between_seeds_and_repeat_for_one() {
        let g = Geometry::square(9).unwrap();
        assert_eq!(fill(&g, 1), fill(&g, 1));
        assert_ne!(fill(&g, 1), fill(&g, 2));
    }

    #[test]
    fn impossible_geometry_gives_none() {
        // 4x4 X-sudoku with 1x4 "boxes" (= rows) is a diagonal Latin square of order 4, which
        // exists; 2x2 with diagonals has none (the two diagonals need 4 distinct cells per
        // pair of digits). The search proves it and returns None without hanging.
        let g = Geometry::boxed(2, 1, 2).unwrap().with_diagonals(true);
        assert_eq!(fill(&g, 0), None);
    }
}
