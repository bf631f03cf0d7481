//! The seed paper's own tiling method, kept as the baseline it is: the pieces are placed in
//! input order; piece `i` is tried at every valid position on the board that already holds
//! pieces `1..i-1` (a position is valid when it lies inside the board on empty cells), and the
//! search goes depth-first, undoing a placement when the pieces after it cannot be placed.
//!
//! Source: D. de la Osa Fernández, "Sudoku de nominoes", section 3.1 "Encajando nominos":
//! "se toma una figura, se genera una posición válida dentro del tablero actual ... se coloca
//! en esa posición y se vuelve a repetir el proceso con la próxima figura y el tablero
//! resultado de poner la anterior". The paper places by translation; with `--rotations` the
//! positions also include every orientation ([`super::place`]).
//!
//! No pruning is added (no check for holes too small to fill, no choice of the most
//! constrained cell): that is what the DLX method ([`super::cover`]) adds, and the node
//! counts measure the difference.
//!
//! # Counters
//!
//! - `nodes`: boards on which the search tries to place the next piece: the empty board (the
//!   root) and every board reached with `1..N-1` pieces placed. A board with all `N` pieces is
//!   a tiling (a solution), not a node, as in DLX1's count.
//! - `positions` (named counter): candidate positions tested against the board (whether or
//!   not the piece fits there): the work of generating valid positions.

use super::place::Placements;
use super::{Collector, Method, SearchReport};
use crate::engines::{Limits, Search};

/// Enumerates the tilings by the seed's backtracking, calling `visit` with one placement
/// index per piece for each, within `limits` (`max_solutions` = most tilings, 0 = all; node
/// and time limits).
pub fn enumerate<V: FnMut(&[usize])>(p: &Placements, limits: &Limits, visit: V) -> SearchReport {
    let inner = Limits {
        keep_solutions: 0,
        ..limits.clone()
    };
    let mut search = Search::new(&inner);
    search.built();
    let mut state = State {
        p,
        board: vec![false; p.n * p.n],
        chosen: vec![0; p.pieces()],
        positions: 0,
        collector: Collector::new(visit),
    };
    if p.pieces() > 0 {
        state.place(0, &mut search);
    }
    search.stats.bump("positions", state.positions);
    state.collector.report(Method::Backtrack, search)
}

struct State<'a, V> {
    p: &'a Placements,
    /// Cells already covered.
    board: Vec<bool>,
    /// Placement index of each placed piece.
    chosen: Vec<usize>,
    positions: u64,
    collector: Collector<V>,
}

impl<V: FnMut(&[usize])> State<'_, V> {
    /// Tries every position of piece `i`; returns `false` when the search must stop. Depth
    /// is at most `N <= 35`, so recursion is safe.
    fn place(&mut self, i: usize, search: &mut Search) -> bool {
        if !search.node() {
            return false;
        }
        let p = self.p;
        for (k, pl) in p.of[i].iter().enumerate() {
            self.positions += 1;
            if pl.cells.iter().any(|&c| self.board[c as usize]) {
                continue;
            }
            for &c in &pl.cells {
                self.board[c as usize] = true;
            }
            self.chosen[i] = k;
            let go = if i + 1 == p.pieces() {
                self.collector.found(search, &self.chosen)
            } else {
                self.place(i + 1, search)
            };
            for &c in &pl.cells {
                self.board[c as usize] = false;
            }
            if !go {
                return false;
            }
        }
        true
    }
}
