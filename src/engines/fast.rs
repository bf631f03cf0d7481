//! `fast`: a bit-parallel 9x9 solver with band-oriented candidate words, in the class of
//! JCZSolve, fsss2 and tdoku; classic 9x9 and X-sudoku (the two diagonals).
//!
//! Sources followed (descriptions, not code):
//! - the band representation and its update by word operations: JCZSolve by Zhou Yundong and
//!   "champagne" (forum posts on the New Sudoku Players' Forum, 2012-2014), as described in
//!   T. Dillon's survey "Sudoku solving: a survey of methods" (tdoku's docs, 2019): per digit,
//!   three words of 27 bits, one per band of three rows;
//! - the triad ("mini-row") reasoning on a band: tdoku's survey and M. Dobrichev's fsss2
//!   (in a band each digit occupies one triad per row and per box, i.e. a permutation of the
//!   three boxes over the three rows);
//! - guessing on a bivalue cell, counting up to a cap, the `guesses` metric: tdoku's survey.
//! - the tie-break among bivalue cells (most unsolved peers): Brelaz's DSATUR (1979).
//!
//! No code of any of these (nor of the AGPL `sudoku` crate) is copied; the tables below are
//! computed at compile time from the rules they encode.
//!
//! # Representation
//!
//! `f[9 * b + d]` holds, for digit `d` (0-based) and band `b` (rows `3b..3b+3`), bit
//! `9 * (row % 3) + col` set when the cell may hold `d`: the nine digits of a band are
//! contiguous, so clearing placed cells from a band is one loop over adjacent words. A placed digit keeps its bit (the
//! cell's other digits are cleared). `unsolved[b]` marks the band's cells not yet placed. Cell
//! `r * 9 + c` is bit `cell - 27 * b` of band `b = r / 3`.
//!
//! # Propagation (to a fixpoint, all by word operations)
//!
//! 1. **Band update** of every changed word (a dirty mask of the 27 words):
//!    - *locked candidates within the band*: the word is shrunk to its 3 x 3 triad matrix
//!      (row x box: does the triad hold a candidate?), a table gives the union of the
//!      permutation matrices inside it (each row and each box of the band holds the digit once),
//!      and the word keeps only the triads of that union. No permutation = contradiction. This
//!      covers pointing and claiming inside the band, and hidden singles in boxes (a box with one
//!      triad forces its row onto it);
//!    - *hidden singles in rows*: a row of the word with one candidate left places it; the
//!      column is cleared in the other rows and bands, the cell in the other digits' words.
//! 2. **Naked singles**: per band, bit-sliced counting over the nine words gives the cells with
//!    exactly one digit (placed) and the cells with none (contradiction).
//! 3. **Hidden singles in columns** (and in the diagonals for X-sudoku), only when 1 and 2
//!    stall: a column with one candidate cell places it; a column with none is a contradiction.
//!
//! # Search
//!
//! When propagation stalls, a bivalue cell is guessed, smaller digit first: among the bivalue
//! cells, the one with the most unsolved peers (row, column and box; the first in band order,
//! lowest bit first, on ties). This is the degree tie-break of DSATUR (D. Brelaz, "New methods
//! to color the vertices of a graph", CACM 1979), the "most constraining variable" of CSP
//! search: each alternative then removes its digit from more open cells, so propagation goes
//! further per guess. Without a bivalue cell, the first cell with fewest candidates. Boards are saved on a fixed stack of 81 frames (one per guessed cell), so a
//! solver allocates nothing per puzzle. Counting continues after a solution until the cap.
//!
//! # Killer cages: unsupported
//!
//! Puzzles with cages are answered `unsupported`. Propagation never places one digit at a
//! time: naked singles come out of bit-sliced counting over the nine words of a band, hidden
//! singles out of row and column words, so there is no placement at which a cage check (its
//! digit mask, its sum) could run. A cage must be read across the nine digit words and, when
//! it crosses a band border, across two or three bands, which the word-parallel band update
//! treats independently. Cage reasoning would be a second propagation over cell digits
//! beside the band one; the `human` engine does that on its candidate board and solves every
//! 9x9 killer of the shared set in under a millisecond at the median (docs/engines.md).
//!
//! # Counters
//!
//! - `nodes`: alternatives tried at guess points (each digit tried on a guessed cell, the first
//!   one included); a puzzle solved by propagation alone has 0;
//! - `guesses`: guess points (cells guessed on; each has two or more candidates: tdoku's
//!   metric);
//! - `backtracks`: dead ends (boards on which propagation found a contradiction).
//!
//! Clashing givens are `unsat` with no node and no dead end. The node limit, the deadline and
//! the cancel flag are checked through [`Search`] (the clock every 256 nodes). There is no build
//! stage: setting up the board is part of the search, so `build` is 0.
//!
//! # Implementation notes
//!
//! `bash scripts/bench/fast.sh 5 1` measures the solver against the `sudoku` crate 0.8: on 2
//! cores at load about 1 it runs at 0.94-0.99x / 1.27-1.28x / 1.21-1.26x the crate's rate on
//! 17-clue / top1465 / forum-hardest-1106, 2.2-2.3 µs per 17-clue puzzle; `bash
//! scripts/bench/tdoku.sh` puts it at 1.31-1.58x / 0.94-1.10x / 0.87-0.94x tdoku over seven
//! runs on the same code, baseline and native builds, tdoku built by g++ or clang++ (1.45x /
//! 1.02x / 0.88x against the clang build, the faster one; docs/benchmarks.md, where tdoku's
//! triad reasoning, tried here and left out, is measured). What makes it this fast:
//!
//! - The givens are loaded in one pass per digit (cells per digit and band, then their peers),
//!   not placed one by one.
//! - The dirty words are updated in passes over a snapshot of the dirty mask, so the next word
//!   to update never waits for the previous update's result and consecutive updates overlap.
//! - Words live in arrays of 32 indexed `j & 31`: safe code without bounds checks in the loops.
//! - The stall step (3.) skips the digits none of whose words changed since their last check
//!   (a mask of stale words): they would find nothing again, so the result is the same, and
//!   most digits are skipped.
//! - A band update that places cells clears them from all nine words of the band and their
//!   columns from all three words of the digit, then writes its own word back: no branch on
//!   the own digit and band, which the CPU would mispredict.
//! - The words are band-major (`9 * b + d`) and a band clear collects its changed words in a
//!   9-bit mask shifted once into the dirty mask.
//! - The guess rule takes the bivalue cell with the most unsolved peers, not the first one:
//!   mean guesses (`fast_bench guesses`) 10.4 on top1465 and 140 on forum-hardest, against
//!   18.8 and 284 with the first bivalue cell. Solution counts and the unique solutions are
//!   the same under both rules on all three sets and on 3,300 mutated puzzles (classic and X).

use super::{Engine, EngineError, EngineInfo, EngineOptions, Limits, Outcome, Search, Sides};
use crate::puzzle::{Layout, Puzzle};

pub static INFO: EngineInfo = EngineInfo {
    name: "fast",
    summary: "bit-parallel 9x9 solver (JCZSolve-style band words): band locked candidates, \
              row/column hidden singles and naked singles by word operations, bivalue guesses",
    source: "JCZSolve (Zhou Yundong, champagne), fsss2 (M. Dobrichev) and T. Dillon's \"Sudoku \
             solving: a survey of methods\" (tdoku docs)",
    nodes: "alternatives tried at guess points (each digit tried on a guessed cell); \
            propagation is not counted (a puzzle solved by propagation alone has 0)",
    counters: "guesses = guess points (cells guessed on, >= 2 candidates each); backtracks = dead \
               ends (boards found contradictory by propagation)",
    sides: Sides::Only(9),
    search_tree: true,
    capabilities: "classic 9x9 with 3x3 boxes, and X-sudoku 9x9 (diagonals); any other geometry \
                   is unsupported; killer cages are unsupported (its digits are placed in bulk \
                   by word operations over bands, with no per-placement hook where a cage \
                   check would go, and a cage crossing bands couples words the band update \
                   treats apart: see the module doc); counts solutions up to the cap; no \
                   options",
    make,
    variants: super::no_variants,
};

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("fast", &[])?;
    Ok(Box::new(Fast {
        solver: Solver::new(),
    }))
}

/// The engine keeps its solver (and its saved-board stack) between puzzles.
struct Fast {
    solver: Box<Solver>,
}

impl Engine for Fast {
    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        let geo = puzzle.geometry();
        if geo.n() != 9 || *geo.layout() != (Layout::Boxes { rows: 3, cols: 3 }) {
            return Outcome::unsupported(format!(
                "fast handles 9x9 grids with 3x3 boxes (classic or X) only, not a {}x{} {} grid",
                geo.n(),
                geo.n(),
                geo.variant()
            ));
        }
        let mut givens = [0u8; 81];
        for (g, &d) in givens.iter_mut().zip(puzzle.givens()) {
            *g = d as u8;
        }
        // No build stage: setting up the board is part of the search (`build` is 0), which
        // also spares one thread-CPU clock read per puzzle.
        let mut sink = EngineSink {
            search: Search::new(limits),
        };
        let counts = self.solver.solve(&givens, geo.has_diagonals(), &mut sink);
        let mut search = sink.search;
        search.stats.guesses = counts.guesses;
        search.stats.backtracks = counts.backtracks;
        if counts.clash {
            return search.finish_unsat();
        }
        search.finish()
    }
}

/// Connects the solver to the shared bookkeeping (node limit, clock, solutions kept).
struct EngineSink<'a> {
    search: Search<'a>,
}

impl Sink for EngineSink<'_> {
    #[inline]
    fn node(&mut self) -> bool {
        self.search.node()
    }

    fn solution(&mut self, grid: &[u8; 81]) -> bool {
        let mut wide = [0u16; 81];
        for (w, &d) in wide.iter_mut().zip(grid) {
            *w = d as u16;
        }
        self.search.solution(&wide)
    }
}

/// What the solver reports to its caller as it goes: nodes (to enforce limits) and solutions.
pub trait Sink {
    /// One more node (an alternative tried). `false` = stop now.
    fn node(&mut self) -> bool;
    /// A solution, digits 1..=9 row-major. `false` = stop now (cap reached).
    fn solution(&mut self, grid: &[u8; 81]) -> bool;
}

/// A sink that counts solutions up to `cap` (0 = all) and keeps the first one; no other limit.
pub struct CountTo {
    pub cap: u64,
    pub count: u64,
    pub first: [u8; 81],
}

impl CountTo {
    pub fn new(cap: u64) -> Self {
        CountTo {
            cap,
            count: 0,
            first: [0; 81],
        }
    }
}

impl Sink for CountTo {
    #[inline]
    fn node(&mut self) -> bool {
        true
    }

    #[inline]
    fn solution(&mut self, grid: &[u8; 81]) -> bool {
        if self.count == 0 {
            self.first = *grid;
        }
        self.count += 1;
        self.cap == 0 || self.count < self.cap
    }
}

/// Search counters of one [`Solver::solve`] call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub nodes: u64,
    pub guesses: u64,
    pub backtracks: u64,
    /// The givens clash (two equal digits in a house): no search was made.
    pub clash: bool,
    /// The sink asked to stop (cap or limit) before the search space was exhausted.
    pub stopped: bool,
}

// ---------------------------------------------------------------------------------------------
// Tables (computed at compile time)

const BAND: u32 = 0x7ff_ffff;
const ROW: u32 = 0x1ff;

/// Triad occupancy of a 9-bit row: bit k set when columns 3k..3k+3 hold a candidate.
const SHRINK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// For a 3x3 boolean matrix (bit `3 * row + column`), the union of the permutation matrices
/// it contains (0 when it contains none).
const PERMUTATIONS: [u32; 512] = {
    let perms = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let mut pm = 0u32;
            let mut r = 0;
            while r < 3 {
                pm |= 1 << (3 * r + perms[p][r]);
                r += 1;
            }
            if pm & (m as u32) == pm {
                t[m] |= pm;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// For a 3x3 triad matrix (bit 3 * row + box), the union of the permutation matrices it
/// contains, expanded back to a 27-bit band mask (every cell of every allowed triad); 0 when it
/// contains none.
const ALLOWED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let union = PERMUTATIONS[m];
        let mut mask = 0u32;
        let mut bit = 0;
        while bit < 9 {
            if union & (1 << bit) != 0 {
                mask |= 7 << (9 * (bit / 3) + 3 * (bit % 3));
            }
            bit += 1;
        }
        t[m] = mask;
        m += 1;
    }
    t
};

/// A 9-bit row mask repeated on the three rows of a band.
#[inline(always)]
fn rep3(x: u32) -> u32 {
    x | (x << 9) | (x << 18)
}

/// The columns of a band mask, as a 9-bit mask.
#[inline(always)]
fn fold(x: u32) -> u32 {
    (x | (x >> 9) | (x >> 18)) & ROW
}

/// Peers of a band position inside its band: its row, column and box, the cell itself
/// excluded.
const PEERS_IN_BAND: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let row = ROW << (9 * r);
        let col = (1 << c) | (1 << (c + 9)) | (1 << (c + 18));
        let bx = (7 << (3 * (c / 3))) * (1 | (1 << 9) | (1 << 18));
        t[p] = (row | col | bx) & !(1 << p);
        p += 1;
    }
    t
};

/// Cells of the main diagonal (`r == c`) and of the anti-diagonal (`r + c == 8`) per band.
const DIAG: [u32; 3] = diag_masks(false);
const ANTI: [u32; 3] = diag_masks(true);

const fn diag_masks(anti: bool) -> [u32; 3] {
    let mut t = [0u32; 3];
    let mut r = 0;
    while r < 9 {
        let c = if anti { 8 - r } else { r };
        t[r / 3] |= 1 << (9 * (r % 3) + c);
        r += 1;
    }
    t
}

/// Rows of a band word that hold exactly one candidate, as a band mask of those candidates.
#[inline(always)]
fn row_singles(w: u32) -> u32 {
    SINGLE[(w & ROW) as usize]
        | SINGLE[((w >> 9) & ROW) as usize] << 9
        | SINGLE[(w >> 18) as usize] << 18
}

/// A 9-bit row itself when it has exactly one bit, else 0.
const SINGLE: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut k = 0;
    while k < 9 {
        t[1 << k] = 1 << k;
        k += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------------
// The board and its propagation

/// Candidate words are indexed `j & 31` into arrays of 32 (27 used): the mask proves the index
/// in range, so the hot loops carry no bounds checks and no panic paths, in safe code.
const WORDS: usize = 32;

/// The word of digit `d` in band `b`: the nine digits of a band are contiguous.
#[inline(always)]
fn ix(d: usize, b: usize) -> usize {
    9 * b + d
}

#[inline(always)]
fn w32(j: usize) -> usize {
    debug_assert!(j < 27, "word index {j}");
    j & (WORDS - 1)
}

/// Candidates of a board: see the module doc (`unsolved[3]` is padding, always 0).
#[derive(Clone, Copy)]
struct Board {
    f: [u32; WORDS],
    unsolved: [u32; 4],
}

impl Board {
    const EMPTY: Board = Board {
        f: [BAND; WORDS],
        unsolved: [BAND, BAND, BAND, 0],
    };

    #[inline(always)]
    fn word(&self, j: usize) -> u32 {
        self.f[w32(j)]
    }

    /// Clears `mask` from word `j`, marking it dirty when it changed.
    #[inline(always)]
    fn clear(&mut self, j: usize, mask: u32, dirty: &mut u32) {
        let j = w32(j);
        let old = self.f[j];
        let new = old & !mask;
        self.f[j] = new;
        *dirty |= ((old != new) as u32) << j;
    }

    /// Clears `mask` from the nine words of band `b`, marking the changed ones dirty.
    #[inline(always)]
    fn clear_band(&mut self, b: usize, mask: u32, dirty: &mut u32) {
        let base = 9 * (b % 3);
        let mut changed = 0u32;
        for d in 0..9 {
            let j = w32(base + d);
            let old = self.f[j];
            let new = old & !mask;
            self.f[j] = new;
            changed |= ((old != new) as u32) << d;
        }
        *dirty |= changed << base;
    }

    #[inline(always)]
    fn solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }
}

/// A saved board, the cell guessed on and its digits not yet tried.
#[derive(Clone, Copy)]
struct Frame {
    board: Board,
    cell: u8,
    rest: u16,
}

/// The solver: a board, its dirty words and the stack of saved boards. Reused across puzzles.
pub struct Solver {
    board: Board,
    dirty: u32,
    /// Words changed since their digit's last stall check (`hidden_singles`): a digit none of
    /// whose three words changed would find nothing there again, so it is skipped. Every
    /// board saved at a guess point is a fixpoint with nothing stale, so restoring one resets
    /// this to 0.
    stale: u32,
    frames: [Frame; 81],
}

impl Solver {
    /// A solver ready for any number of puzzles (the only allocation: its own box).
    pub fn new() -> Box<Solver> {
        Box::new(Solver {
            board: Board::EMPTY,
            dirty: 0,
            stale: 0,
            frames: [Frame {
                board: Board::EMPTY,
                cell: 0,
                rest: 0,
            }; 81],
        })
    }

    /// Counts the solutions of `givens` (81 digits, 0 = empty, row-major; X-sudoku when
    /// `diagonals`), reporting nodes and solutions to `sink` until it says stop.
    pub fn solve<S: Sink>(&mut self, givens: &[u8; 81], diagonals: bool, sink: &mut S) -> Counts {
        if diagonals {
            self.solve_in::<true, S>(givens, sink)
        } else {
            self.solve_in::<false, S>(givens, sink)
        }
    }

    /// Counts the solutions of a classic puzzle up to `cap` (0 = all).
    pub fn count(&mut self, givens: &[u8; 81], cap: u64) -> u64 {
        let mut sink = CountTo::new(cap);
        self.solve(givens, false, &mut sink);
        sink.count
    }

    fn solve_in<const X: bool, S: Sink>(&mut self, givens: &[u8; 81], sink: &mut S) -> Counts {
        let mut counts = Counts::default();
        if !self.load::<X>(givens) {
            counts.clash = true;
            return counts;
        }
        let mut depth = 0usize;
        'search: loop {
            let ok = self.propagate::<X>();
            if !ok {
                counts.backtracks += 1;
            } else if self.board.solved() {
                let grid = self.grid();
                if !sink.solution(&grid) {
                    counts.stopped = true;
                    break 'search;
                }
            } else {
                let (cell, digits) = self.choose();
                counts.guesses += 1;
                let d = digits.trailing_zeros() as usize;
                // Only the board is saved (no other state lives across a guess); the last
                // alternative of a cell reuses the frame's board without saving it again.
                self.frames[depth] = Frame {
                    board: self.board,
                    cell: cell as u8,
                    rest: digits & (digits - 1),
                };
                depth += 1;
                counts.nodes += 1;
                if !sink.node() {
                    counts.stopped = true;
                    break 'search;
                }
                // The cell holds `d` on this board, and no peer holds it: cannot fail.
                self.assign::<X>(d, cell);
                continue 'search;
            }
            // This branch is over: the next digit of the last guessed cell.
            if depth == 0 {
                break 'search;
            }
            let frame = &mut self.frames[depth - 1];
            let d = frame.rest.trailing_zeros() as usize;
            frame.rest &= frame.rest - 1;
            let cell = frame.cell as usize;
            self.board = frame.board;
            if frame.rest == 0 {
                depth -= 1;
            }
            self.dirty = 0;
            self.stale = 0;
            counts.nodes += 1;
            if !sink.node() {
                counts.stopped = true;
                break 'search;
            }
            self.assign::<X>(d, cell);
        }
        counts
    }

    /// Sets up the board of `givens` in one pass over the digits (the same board as placing
    /// the givens one by one). `false` when two equal givens share a house.
    fn load<const X: bool>(&mut self, givens: &[u8; 81]) -> bool {
        // pos[g][b]: the cells of band b holding g (0 = empty), filled without a branch.
        let mut pos = [[0u32; 3]; 10];
        for (b, band) in givens.chunks_exact(27).enumerate() {
            for (p, &g) in band.iter().enumerate() {
                pos[g as usize][b] |= 1 << p;
            }
        }
        let given = [BAND & !pos[0][0], BAND & !pos[0][1], BAND & !pos[0][2]];
        let mut board = Board::EMPTY;
        for (d, at) in pos[1..].iter().enumerate() {
            // Peers inside each band (row, box, column), and the columns of all bands.
            let mut cols = 0u32;
            let mut peers = [0u32; 3];
            for b in 0..3 {
                let mut q = at[b];
                while q != 0 {
                    peers[b] |= PEERS_IN_BAND[q.trailing_zeros() as usize];
                    q &= q - 1;
                }
                let c = fold(at[b]);
                if at[b] & peers[b] != 0 || c & cols != 0 {
                    return false;
                }
                cols |= c;
            }
            let mut off_diagonals = [0u32; 3];
            if X {
                for diag in [&DIAG, &ANTI] {
                    let on: u32 = (0..3).map(|b| (at[b] & diag[b]).count_ones()).sum();
                    if on > 1 {
                        return false;
                    }
                    if on == 1 {
                        for b in 0..3 {
                            off_diagonals[b] |= diag[b] & !at[b];
                        }
                    }
                }
            }
            for b in 0..3 {
                let others = given[b] & !at[b];
                board.f[w32(ix(d, b))] =
                    BAND & !others & !peers[b] & !(rep3(cols) & !at[b]) & !off_diagonals[b];
            }
        }
        for (u, g) in board.unsolved.iter_mut().zip(given) {
            *u = BAND & !g;
        }
        self.board = board;
        self.dirty = (1 << 27) - 1;
        self.stale = 0;
        true
    }

    /// Places digit `d` in `cell`: clears the cell's other digits and the digit from the cell's
    /// peers. The caller knows that the cell can hold `d`.
    #[inline]
    fn assign<const X: bool>(&mut self, d: usize, cell: usize) {
        let b = cell / 27;
        let p = cell - 27 * b;
        let bit = 1u32 << p;
        let i = ix(d, b);
        debug_assert!(d < 9 && self.board.word(i) & bit != 0);
        let mut dirty = self.dirty;
        let own = self.board.word(i) & !PEERS_IN_BAND[p % 27];
        let col = rep3(1 << (p % 9));
        for ob in 0..3 {
            self.board.clear(ix(d, ob), col, &mut dirty);
        }
        self.board.clear_band(b, bit, &mut dirty);
        self.board.f[w32(i)] = own;
        dirty |= 1 << w32(i);
        self.board.unsolved[b & 3] &= !bit;
        self.dirty = dirty;
        if X {
            self.clear_diagonals(d, b, bit);
        }
    }

    /// Places digit `d` on the naked singles `cells` of band `b` (cells where `d` is the last
    /// candidate). `false` when two of them see each other.
    #[inline]
    fn place_naked<const X: bool>(&mut self, d: usize, b: usize, cells: u32) -> bool {
        let mut peers = 0u32;
        let mut q = cells;
        while q != 0 {
            peers |= PEERS_IN_BAND[q.trailing_zeros() as usize];
            q &= q - 1;
        }
        if cells & peers != 0 {
            return false;
        }
        let mut dirty = self.dirty;
        let cols = rep3(fold(cells));
        for ob in 0..3 {
            let mask = if ob == b { peers } else { cols };
            self.board.clear(ix(d, ob), mask, &mut dirty);
        }
        self.board.unsolved[b & 3] &= !cells;
        self.dirty = dirty;
        if X {
            self.clear_diagonals(d, b, cells);
        }
        true
    }

    /// X-sudoku: digit `d` placed on `placed` (cells of band `b`) leaves the diagonals through
    /// those cells.
    #[inline]
    fn clear_diagonals(&mut self, d: usize, b: usize, placed: u32) {
        let mut dirty = self.dirty;
        for diag in [&DIAG, &ANTI] {
            if placed & diag[b % 3] != 0 {
                for (ob, &on_diag) in diag.iter().enumerate() {
                    let keep = if ob == b { placed } else { 0 };
                    self.board.clear(ix(d, ob), on_diag & !keep, &mut dirty);
                }
            }
        }
        self.dirty = dirty;
    }

    /// Band update of word `i` (see the module doc). `false` on a contradiction.
    #[inline(always)]
    fn update_word<const X: bool>(&mut self, i: usize) -> bool {
        let b = i / 9;
        let d = i - 9 * b;
        let mut w = self.board.word(i);
        let mut placed = 0u32;
        let open = self.board.unsolved[b & 3];
        loop {
            let triads = SHRINK[(w & ROW) as usize]
                | SHRINK[((w >> 9) & ROW) as usize] << 3
                | SHRINK[((w >> 18) & ROW) as usize] << 6;
            let allowed = ALLOWED[triads as usize];
            if allowed == 0 {
                return false;
            }
            w &= allowed;
            let singles = row_singles(w) & open & !placed;
            placed |= singles;
            // A row with one cell left has one triad: the permutation rule has already taken
            // that box (so that column) from the band's other rows. Only the diagonals of
            // X-sudoku can take more, and then the word is shrunk again.
            if !X || singles == 0 {
                break;
            }
            let before = w;
            for diag in [&DIAG, &ANTI] {
                if singles & diag[b % 3] != 0 {
                    w &= !diag[b % 3] | singles;
                }
            }
            if w == before {
                break;
            }
        }
        self.board.f[w32(i)] = w;
        if placed != 0 {
            // The placed cells leave every other word of the band, their columns every other
            // word of the digit.
            // No branch on the word's own digit and band: the own word is cleared with the
            // others and written back after (the placed cells' columns in its other rows are
            // in their boxes, already clear).
            let mut dirty = self.dirty;
            let cols = rep3(fold(placed));
            for ob in 0..3 {
                self.board.clear(ix(d, ob), cols, &mut dirty);
            }
            self.board.clear_band(b, placed, &mut dirty);
            self.board.f[w32(i)] = w;
            self.board.unsolved[b & 3] &= !placed;
            self.dirty = dirty & !(1 << w32(i));
            if X {
                self.clear_diagonals(d, b, placed);
                self.dirty &= !(1 << w32(i));
            }
        }
        true
    }

    /// Propagation to a fixpoint. `false` on a contradiction.
    fn propagate<const X: bool>(&mut self) -> bool {
        loop {
            // Passes over a snapshot of the dirty words: which word comes next does not wait
            // for the previous update, so consecutive updates overlap in the CPU.
            while self.dirty != 0 {
                let mut todo = self.dirty;
                // Every word an update can change is in the snapshot (its clears of other
                // words mark them dirty for the next one).
                self.stale |= todo;
                while todo != 0 {
                    let i = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    self.dirty &= !(1 << i);
                    if !self.update_word::<X>(i) {
                        return false;
                    }
                }
            }
            // Naked singles, and cells with no digit left.
            let mut placed_any = false;
            for b in 0..3 {
                let u = self.board.unsolved[b];
                if u == 0 {
                    continue;
                }
                let (mut once, mut twice) = (0u32, 0u32);
                for d in 0..9 {
                    let x = self.board.word(ix(d, b));
                    twice |= once & x;
                    once |= x;
                }
                if u & !once != 0 {
                    return false;
                }
                let singles = u & !twice;
                if singles != 0 {
                    placed_any = true;
                    for d in 0..9 {
                        let cells = self.board.word(ix(d, b)) & singles;
                        if cells != 0 && !self.place_naked::<X>(d, b, cells) {
                            return false;
                        }
                    }
                }
            }
            if placed_any {
                continue;
            }
            if self.board.solved() {
                return true;
            }
            match self.hidden_singles::<X>() {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Hidden singles in columns (and diagonals for X). `None` on a contradiction (a house
    /// where a digit has no place), else whether anything was placed.
    fn hidden_singles<const X: bool>(&mut self) -> Option<bool> {
        for d in 0..9 {
            let words = 0x40201 << d;
            if self.stale & words == 0 {
                continue;
            }
            self.stale &= !words;
            if !self.stack_update(d) {
                return None;
            }
            let (mut once, mut twice) = (0u32, 0u32);
            for b in 0..3 {
                let w = self.board.word(ix(d, b));
                let (r0, r1, r2) = (w & ROW, (w >> 9) & ROW, (w >> 18) & ROW);
                let band_once = r0 | r1 | r2;
                let band_twice = (r0 & r1) | (r0 & r2) | (r1 & r2);
                twice |= band_twice | (once & band_once);
                once |= band_once;
            }
            if once != ROW {
                return None;
            }
            let single_cols = rep3(once & !twice);
            for b in 0..3 {
                let mut new = self.board.word(ix(d, b)) & single_cols & self.board.unsolved[b];
                while new != 0 {
                    let p = new.trailing_zeros() as usize;
                    new &= new - 1;
                    if self.board.word(ix(d, b)) & (1 << p) == 0 {
                        // Taken by a cell placed just before (two singles that see each other).
                        return None;
                    }
                    self.assign::<X>(d, 27 * b + p);
                }
            }
            if X {
                for diag in [&DIAG, &ANTI] {
                    let mut total = 0;
                    let mut at = (0, 0u32);
                    for (b, &on_diag) in diag.iter().enumerate() {
                        let on = self.board.word(ix(d, b)) & on_diag;
                        total += on.count_ones();
                        if on != 0 {
                            at = (b, on);
                        }
                    }
                    if total == 0 {
                        return None;
                    }
                    let (b, on) = at;
                    if total == 1 && self.board.unsolved[b] & on != 0 {
                        self.assign::<X>(d, 27 * b + on.trailing_zeros() as usize);
                    }
                }
            }
            if self.dirty != 0 {
                // Let the cheap word updates run before looking at the next digits.
                return Some(true);
            }
        }
        Some(false)
    }

    /// Locked candidates within the stacks for digit `d`: per stack, the 3 x 3 matrix (band x
    /// column: does the column hold a candidate in the band?) keeps only the union of its
    /// permutation matrices, as the band update does for triads. `false` on a contradiction.
    #[inline]
    fn stack_update(&mut self, d: usize) -> bool {
        let cols = [
            fold(self.board.word(ix(d, 0))),
            fold(self.board.word(ix(d, 1))),
            fold(self.board.word(ix(d, 2))),
        ];
        let mut keep = [0u32; 3];
        for s in 0..3 {
            let m = ((cols[0] >> (3 * s)) & 7)
                | ((cols[1] >> (3 * s)) & 7) << 3
                | ((cols[2] >> (3 * s)) & 7) << 6;
            let allowed = PERMUTATIONS[m as usize];
            if allowed == 0 {
                return false;
            }
            for (b, k) in keep.iter_mut().enumerate() {
                *k |= ((allowed >> (3 * b)) & 7) << (3 * s);
            }
        }
        let mut dirty = self.dirty;
        for (b, k) in keep.iter().enumerate() {
            self.board.clear(ix(d, b), !rep3(*k), &mut dirty);
        }
        self.dirty = dirty;
        true
    }

    /// The cell to guess on and its digits (a 9-bit mask with two or more bits): among the
    /// bivalue cells, the one with the most unsolved peers (the first in band order, lowest bit
    /// first, on ties); without a bivalue cell, the first cell with fewest candidates.
    fn choose(&self) -> (usize, u16) {
        let open = self.board.unsolved;
        let mut best = None;
        let mut most = 0u32;
        for b in 0..3 {
            let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.board.word(ix(d, b));
                thrice |= twice & x;
                twice |= once & x;
                once |= x;
            }
            let mut two = open[b] & twice & !thrice;
            let (o1, o2) = (open[(b + 1) % 3], open[(b + 2) % 3]);
            while two != 0 {
                let p = two.trailing_zeros() as usize;
                two &= two - 1;
                // Unsolved peers: in the band (row, box, column), then in the column's cells
                // of the other two bands (gathered at bits 0, 1, 9, 10, 18, 19); one count.
                let c = p % 9;
                let col = rep3(1 << c);
                let in_column = ((o1 & col) >> c) | ((o2 & col) >> c) << 1;
                let peers = u64::from(PEERS_IN_BAND[p % 27] & open[b]) | u64::from(in_column) << 32;
                let k = peers.count_ones();
                if best.is_none() || k > most {
                    most = k;
                    best = Some((b, p));
                }
            }
        }
        if let Some((b, p)) = best {
            return (27 * b + p, self.digits_at(b, p));
        }
        let mut best = (0usize, 0u16);
        let mut fewest = u32::MAX;
        for b in 0..3 {
            let mut u = self.board.unsolved[b];
            while u != 0 {
                let p = u.trailing_zeros() as usize;
                u &= u - 1;
                let digits = self.digits_at(b, p);
                if digits.count_ones() < fewest {
                    fewest = digits.count_ones();
                    best = (27 * b + p, digits);
                }
            }
        }
        best
    }

    /// The digits (bit d = digit d + 1) still possible at position `p` of band `b`.
    #[inline]
    fn digits_at(&self, b: usize, p: usize) -> u16 {
        let mut digits = 0u16;
        for d in 0..9 {
            digits |= (((self.board.word(ix(d, b)) >> p) & 1) as u16) << d;
        }
        digits
    }

    /// The solved board as digits 1..=9.
    fn grid(&self) -> [u8; 81] {
        let mut grid = [0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut w = self.board.word(ix(d, b));
                while w != 0 {
                    let p = w.trailing_zeros() as usize;
                    w &= w - 1;
                    grid[27 * b + p] = d as u8 + 1;
                }
            }
        }
        grid
    }
}

#[cfg(test)]
mod tests {
    use super::super::candidates::testing;
    use super::*;
    use crate::engines::Status;

    fn engine() -> Box<dyn Engine> {
        make(&EngineOptions::new()).unwrap()
    }

    fn digits(line: &str) -> [u8; 81] {
        let mut g = [0u8; 81];
        for (x, ch) in g.iter_mut().zip(line.bytes()) {
            *x = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
        }
        g
    }

    #[test]
    fn rejects_options() {
        assert!(make(&EngineOptions::new().with("order", "lifo")).is_err());
    }

    #[test]
    fn allowed_table_is_the_permutation_rule() {
        // Full matrix: every triad allowed. A single permutation: itself. A matrix with a row
        // of one triad in box 0 and the others free: box 0 is taken from rows 1 and 2.
        assert_eq!(ALLOWED[0x1ff], BAND);
        assert_eq!(ALLOWED[0b100_010_001], 7 | 7 << 12 | 7 << 24);
        let m = 0b110_110_001;
        assert_eq!(ALLOWED[m], 7 | (0o77 << 12) | (0o77 << 21));
        assert_eq!(ALLOWED[0b000_110_110], 0, "a row with no triad");
        assert_eq!(ALLOWED[0b001_001_001], 0, "three rows in one box");
    }

    #[test]
    fn royle_first_300_unique_and_checked() {
        let text = testing::data("royle-17clue.txt");
        let mut solver = Solver::new();
        for line in text.lines().filter(|l| !l.starts_with('#')).take(300) {
            let mut sink = CountTo::new(2);
            solver.solve(&digits(line), false, &mut sink);
            assert_eq!(sink.count, 1, "{line}");
            let p = testing::sudoku9(line);
            let grid: Vec<u16> = sink.first.iter().map(|&d| d as u16).collect();
            p.check_solution(&grid).unwrap();
        }
    }

    #[test]
    fn empty_grid_counts_to_any_cap() {
        let mut solver = Solver::new();
        for cap in [1, 2, 7, 1000] {
            assert_eq!(solver.count(&[0; 81], cap), cap);
        }
    }

    #[test]
    fn clashing_givens_are_unsat_without_search() {
        let mut g = [0u8; 81];
        g[0] = 5;
        g[80] = 5;
        g[8] = 5; // same row as cell 0
        let o = testing::solve(
            &mut *engine(),
            &testing::sudoku9(&line_of(&g)),
            &Limits::default(),
        );
        assert_eq!(o.status, Status::Unsat);
        assert_eq!((o.stats.nodes, o.stats.backtracks), (0, 0));
    }

    fn line_of(g: &[u8; 81]) -> String {
        g.iter().map(|&d| (b'0' + d) as char).collect()
    }

    #[test]
    fn counters_are_consistent() {
        // Exhausting the search: the root and each node start a branch, and every branch ends
        // in exactly one of a guess point, a dead end or a solution.
        for p in testing::pe96().iter().take(10) {
            let o = testing::solve(&mut *engine(), p, &Limits::solutions(0));
            let s = &o.stats;
            assert_eq!(s.nodes + 1, s.guesses + s.backtracks + o.count);
        }
        let top = testing::data("magictour-top1465.txt");
        let mut e = engine();
        for line in top.lines().filter(|l| !l.starts_with('#')).take(50) {
            let o = testing::solve(&mut *e, &testing::sudoku9(line), &Limits::solutions(0));
            let s = &o.stats;
            assert_eq!(s.nodes + 1, s.guesses + s.backtracks + o.count, "{line}");
            assert!(s.nodes >= 2 * s.guesses);
        }
    }

    #[test]
    fn node_limit_is_honoured() {
        let limits = Limits {
            node_limit: Some(5),
            max_solutions: 0,
            ..Limits::default()
        };
        let o = testing::solve(&mut *engine(), &testing::sudoku9(&".".repeat(81)), &limits);
        assert_eq!(o.status, Status::NodeLimit);
        assert_eq!(o.stats.nodes, 5);
    }
}
