//! Candidate-board machinery shared by the `human` and `binary` engines.
//!
//! Both sources keep, for every empty cell, the set of digits still possible there (the
//! "soluciones factibles" of a cell in the human source, the "posibilidades" matrix of the
//! binary source) and fill a cell as soon as that set is a single digit. This module holds that
//! board, generic over the [`Bits`] width so that one code path serves `u16` on 9x9 and wide
//! sets up to `MAX_SIDE`:
//!
//! - [`Board`]: digits, candidate masks (updated on each placement rather than recomputed:
//!   placing `d` in a cell removes `d` from the cells of its houses), digits placed per house
//!   and the number of empty cells;
//! - [`Queue`]: cells whose candidate set has just become a single digit, so that filling
//!   naked singles never rescans the board;
//! - [`Board::naked_singles`]: fills those cells until none is left (the fixpoint), and
//!   [`Board::hidden_singles`] / [`Board::fill_singles`]: one pass of hidden singles over the
//!   houses, and the loop of both rules (`human`, and `binary` with `propagation=hidden`);
//! - [`Net`] / [`Peers`]: the houses, and for grids up to about 100 x 100 a table of the peers
//!   of each cell, kept between puzzles of the same geometry;
//! - [`Saved`]: the stack of saved boards, flat and reused, so that a guess allocates nothing
//!   once the stack has grown to its working depth;
//! - [`Meter`]: charges work to the clock so that long propagation on huge grids still
//!   honours the time limit and the cancel flag between nodes.
//!
//! A contradiction is detected where it appears: when a placement empties the candidate set of
//! an empty cell, or when a hidden-single pass finds a digit with no place left in a house.
//! The caller abandons the board then, since nothing can undo it.

use super::bits::Bits;
use super::Search;
use crate::puzzle::{Geometry, Puzzle};
use std::sync::Arc;

/// Cell visits between two reads of the clock during propagation (a power of two). At about a
/// nanosecond a visit, the clock is read every few tens of microseconds of work.
const CLOCK_WORK: u64 = 1 << 16;

/// Largest total size of the saved boards of one search. Past it the search stops with
/// `memory-limit` instead of letting the process be killed: a 1024 x 1024 board with 1024-bit
/// masks is 130 MiB, so a deep search on such a grid can exhaust any machine.
const SAVED_BYTES_CAP: usize = 2 << 30;

/// What propagation ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// No contradiction found; the board may or may not be complete.
    Ok,
    /// An empty cell has no candidate, or (hidden-single passes only) a digit has no place
    /// left in a house.
    Contradiction,
    /// A limit (time, cancel) says stop.
    Stop,
}

/// The mark of a void cell (combined layouts) in [`Board::grid`]: a filled cell for every
/// rule of the board (no candidate, never chosen), in no house; [`Board::answer`] writes it
/// back as 0.
pub(crate) const VOID: u16 = u16::MAX;

/// A board: digits, candidates, digits placed per house.
#[derive(Clone, Debug)]
pub(crate) struct Board<B> {
    /// Digit of each cell, `1..=N`, `0` = empty, [`VOID`] for a void cell.
    pub grid: Vec<u16>,
    /// Candidates of each empty cell (bit `d` = digit `d + 1`); `EMPTY` for a filled cell.
    pub cand: Vec<B>,
    /// Digits placed in each house.
    pub placed: Vec<B>,
    /// Number of empty cells.
    pub empty: usize,
}

impl<B: Bits> Board<B> {
    pub fn new() -> Self {
        Board {
            grid: Vec::new(),
            cand: Vec::new(),
            placed: Vec::new(),
            empty: 0,
        }
    }

    /// Places the givens of `puzzle` (which must not clash) and computes every candidate set
    /// from them: a candidate of an empty cell is a digit placed in none of its houses. Queues
    /// (in row-major order) the empty cells left with a single candidate. Returns `false` if
    /// an empty cell has no candidate at all.
    pub fn load(&mut self, puzzle: &Puzzle, queue: &mut Queue) -> bool {
        let geo = puzzle.geometry();
        self.grid.clear();
        self.grid.extend_from_slice(puzzle.givens());
        if geo.void_cells() > 0 {
            for (c, d) in self.grid.iter_mut().enumerate() {
                if geo.is_void(c) {
                    *d = VOID;
                }
            }
        }
        self.placed.clear();
        self.placed.resize(geo.house_count(), B::EMPTY);
        self.cand.clear();
        self.cand.resize(geo.cells(), B::EMPTY);
        self.empty = 0;
        for (c, &d) in self.grid.iter().enumerate() {
            if d == 0 {
                self.empty += 1;
            } else {
                for &h in geo.houses_of(c) {
                    self.placed[h as usize].insert(d as usize - 1);
                }
            }
        }
        self.recompute_candidates(geo);
        queue.clear();
        for (c, m) in self.cand.iter().enumerate() {
            if self.grid[c] == 0 {
                if m.is_empty() {
                    return false;
                }
                if m.is_single() {
                    queue.push(c);
                }
            }
        }
        true
    }

    /// The grid as an answer: the board's digits, void cells 0.
    pub fn answer(&self) -> std::borrow::Cow<'_, [u16]> {
        if !self.grid.contains(&VOID) {
            return std::borrow::Cow::Borrowed(&self.grid);
        }
        std::borrow::Cow::Owned(
            self.grid
                .iter()
                .map(|&d| if d == VOID { 0 } else { d })
                .collect(),
        )
    }

    /// Sets every candidate set from the digits placed per house (used after restoring a board
    /// saved without its candidates).
    pub fn recompute_candidates(&mut self, geo: &Geometry) {
        let full = B::full(geo.n());
        for (c, m) in self.cand.iter_mut().enumerate() {
            *m = if self.grid[c] != 0 {
                B::EMPTY
            } else {
                let mut x = full;
                for &h in geo.houses_of(c) {
                    x = x.and_not(self.placed[h as usize]);
                }
                x
            };
        }
    }

    /// Puts digit `d` (0-based) in the empty cell `c` and removes it from the candidates of
    /// every cell sharing a house with `c`. Cells left with one candidate are queued. Returns
    /// `false` as soon as an empty cell is left with no candidate (the board is then partly
    /// updated and must be abandoned).
    #[inline]
    pub fn place(&mut self, net: &Net<'_>, c: usize, d: usize, queue: &mut Queue) -> bool {
        debug_assert!(self.grid[c] == 0 && self.cand[c].contains(d));
        self.grid[c] = d as u16 + 1;
        self.cand[c] = B::EMPTY;
        self.empty -= 1;
        for &h in net.geo.houses_of(c) {
            self.placed[h as usize].insert(d);
        }
        match net.peers(c) {
            Some(peers) => {
                for &p in peers {
                    if !self.eliminate(p as usize, d, queue) {
                        return false;
                    }
                }
            }
            None => {
                // Visiting a cell twice (in the row and the box of `c`) or `c` itself (no
                // candidate left) changes nothing, so this visits the cells in the same
                // effective order as the peer table.
                for &h in net.geo.houses_of(c) {
                    for &p in net.geo.house(h as usize) {
                        if !self.eliminate(p as usize, d, queue) {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }

    /// Keeps only the candidates of `keep` in cell `c` (nothing happens to a filled cell).
    /// Queues the cell if this leaves it one candidate. Returns the number of candidates
    /// removed, or `None` if none is left (the board must then be abandoned).
    pub fn restrict(&mut self, c: usize, keep: B, queue: &mut Queue) -> Option<u32> {
        if self.grid[c] != 0 {
            return Some(0);
        }
        let old = self.cand[c];
        let new = old.and(keep);
        if new == old {
            return Some(0);
        }
        self.cand[c] = new;
        if new.is_empty() {
            return None;
        }
        if new.is_single() {
            queue.push(c);
        }
        Some(old.count() - new.count())
    }

    /// Removes candidate `d` from cell `p` if it has it (only empty cells have candidates);
    /// queues `p` if one candidate is left; `false` if none is.
    #[inline(always)]
    fn eliminate(&mut self, p: usize, d: usize, queue: &mut Queue) -> bool {
        let m = &mut self.cand[p];
        if m.contains(d) {
            m.remove(d);
            if m.is_empty() {
                return false;
            }
            // The set went from two digits to one: this happens once per cell and board.
            if m.is_single() {
                queue.push(p);
            }
        }
        true
    }

    /// Fills naked singles until none is left: each queued cell still empty gets its only
    /// candidate, which may queue more cells. `filled` counts the cells filled. Returns
    /// `Contradiction` at the first empty cell left with no candidate.
    pub fn naked_singles(
        &mut self,
        net: &Net<'_>,
        queue: &mut Queue,
        filled: &mut u64,
        meter: &mut Meter,
        search: &mut Search<'_>,
    ) -> Step {
        let cost = net.geo.houses_of(0).len() * net.geo.n();
        while let Some(c) = queue.pop() {
            // A queued cell may have been filled since (by the hidden-single pass of `human`,
            // with the same digit, its only candidate).
            if self.grid[c] != 0 {
                continue;
            }
            let Some(d) = self.cand[c].first() else {
                return Step::Contradiction;
            };
            *filled += 1;
            if !self.place(net, c, d, queue) {
                return Step::Contradiction;
            }
            if !meter.charge(cost, search) {
                return Step::Stop;
            }
        }
        Step::Ok
    }

    /// Naked singles to their fixpoint; then, if `hidden` is given, one pass of hidden singles
    /// ([`Board::hidden_singles`]) and again naked singles, as long as the pass fills something.
    /// Ends when the fills stall, the board is complete or a contradiction is found. `naked` and
    /// `hidden` count the cells each rule filled.
    pub fn fill_singles(
        &mut self,
        net: &Net<'_>,
        queue: &mut Queue,
        naked: &mut u64,
        mut hidden: Option<&mut u64>,
        meter: &mut Meter,
        search: &mut Search<'_>,
    ) -> Step {
        loop {
            match self.naked_singles(net, queue, naked, meter, search) {
                Step::Ok => {}
                other => return other,
            }
            let Some(filled) = hidden.as_deref_mut() else {
                return Step::Ok;
            };
            if self.empty == 0 {
                return Step::Ok;
            }
            let before = *filled;
            match self.hidden_singles(net, queue, filled, meter, search) {
                Step::Ok => {}
                other => return other,
            }
            if *filled == before {
                return Step::Ok;
            }
        }
    }

    /// One pass of hidden singles over every house, in the geometry's order (rows, columns,
    /// boxes or regions, diagonals). In each house, every digit that is a candidate of exactly
    /// one empty cell is placed there, smallest digit first, each placement updating the
    /// candidates at once (later houses see it). A digit neither placed in the house nor a
    /// candidate of any of its empty cells is a contradiction. `filled` counts the placements.
    pub fn hidden_singles(
        &mut self,
        net: &Net<'_>,
        queue: &mut Queue,
        filled: &mut u64,
        meter: &mut Meter,
        search: &mut Search<'_>,
    ) -> Step {
        let geo = net.geo;
        let n = geo.n();
        let full = B::full(n);
        for h in 0..geo.house_count() {
            if self.placed[h] == full {
                // A full house has no empty cell: nothing to fill, nothing missing.
                continue;
            }
            let cells = geo.house(h);
            // `once`: candidate of at least one empty cell; `twice`: of at least two.
            let (mut once, mut twice) = (B::EMPTY, B::EMPTY);
            for &p in cells {
                let m = self.cand[p as usize];
                twice = twice.or(once.and(m));
                once = once.or(m);
            }
            if !full.and_not(once.or(self.placed[h])).is_empty() {
                return Step::Contradiction;
            }
            for d in once.and_not(twice).iter() {
                // The one cell of the house with candidate `d`. Placements made earlier in this
                // house removed other digits only, so the cell can have lost `d` only by being
                // filled with another hidden single of the house: then `d` has no place left.
                let Some(&p) = cells.iter().find(|&&p| self.cand[p as usize].contains(d)) else {
                    return Step::Contradiction;
                };
                *filled += 1;
                if !self.place(net, p as usize, d, queue) {
                    return Step::Contradiction;
                }
            }
            if !meter.charge(n, search) {
                return Step::Stop;
            }
        }
        Step::Ok
    }

    /// The empty cell with the fewest candidates, the first in row-major order on ties, and its
    /// candidates. Stops at the first cell with `floor` candidates or fewer (no cell can have
    /// fewer than `floor` when the caller asks: 2 after naked singles are exhausted).
    pub fn fewest_candidates(&self, floor: u32) -> Option<(usize, B)> {
        let mut best: Option<(usize, B)> = None;
        let mut best_count = u32::MAX;
        for (c, m) in self.cand.iter().enumerate() {
            if self.grid[c] == 0 {
                let k = m.count();
                if k < best_count {
                    best = Some((c, *m));
                    best_count = k;
                    if k <= floor {
                        break;
                    }
                }
            }
        }
        best
    }
}

/// The geometry as the boards use it: houses, and for small grids a table of the peers of
/// each cell (the cells sharing a house with it, each once).
#[derive(Clone, Copy)]
pub(crate) struct Net<'a> {
    pub geo: &'a Geometry,
    peers: &'a Peers,
}

impl<'a> Net<'a> {
    #[inline(always)]
    fn peers(&self, c: usize) -> Option<&'a [u32]> {
        if self.peers.start.is_empty() {
            None
        } else {
            let (a, b) = (self.peers.start[c], self.peers.start[c + 1]);
            Some(&self.peers.list[a as usize..b as usize])
        }
    }
}

/// Largest peer table built (entries of 4 bytes): enough for every grid up to about 100 x 100.
/// Above it placements walk the houses of the cell instead, which needs no memory.
const PEER_TABLE_MAX: usize = 1 << 22;

/// Peer table of one geometry, kept between puzzles and rebuilt when the geometry changes.
/// Peers are listed in the order a walk over the cell's houses first meets them, so a
/// placement updates cells in the same order with or without the table.
#[derive(Default)]
pub(crate) struct Peers {
    geometry: Option<Arc<Geometry>>,
    start: Vec<u32>,
    list: Vec<u32>,
}

impl Peers {
    /// Makes the table match `geo` and returns the view the boards use.
    pub fn net<'a>(&'a mut self, geo: &'a Arc<Geometry>) -> Net<'a> {
        let same = match &self.geometry {
            Some(g) => Arc::ptr_eq(g, geo) || **g == **geo,
            None => false,
        };
        if !same {
            self.build(geo);
        }
        Net { geo, peers: self }
    }

    fn build(&mut self, geo: &Arc<Geometry>) {
        self.geometry = Some(geo.clone());
        self.start.clear();
        self.list.clear();
        let cells = geo.cells();
        let entries: usize = (0..cells).map(|c| geo.houses_of(c).len() * geo.n()).sum();
        if entries > PEER_TABLE_MAX {
            return;
        }
        let mut seen = vec![u32::MAX; cells];
        self.start.push(0);
        for c in 0..cells {
            seen[c] = c as u32;
            for &h in geo.houses_of(c) {
                for &p in geo.house(h as usize) {
                    if seen[p as usize] != c as u32 {
                        seen[p as usize] = c as u32;
                        self.list.push(p);
                    }
                }
            }
            self.start.push(self.list.len() as u32);
        }
    }
}

/// FIFO queue of cells whose candidate set became a single digit.
#[derive(Clone, Debug, Default)]
pub(crate) struct Queue {
    cells: Vec<u32>,
    head: usize,
}

impl Queue {
    #[inline]
    pub fn push(&mut self, c: usize) {
        self.cells.push(c as u32);
    }

    #[inline]
    pub fn pop(&mut self) -> Option<usize> {
        match self.cells.get(self.head) {
            Some(&c) => {
                self.head += 1;
                Some(c as usize)
            }
            None => {
                // Drained: reuse the storage from the start.
                self.cells.clear();
                self.head = 0;
                None
            }
        }
    }

    pub fn clear(&mut self) {
        self.cells.clear();
        self.head = 0;
    }
}

/// Charges work (cell visits) and reads the clock every [`CLOCK_WORK`] units, so that a long
/// propagation between two nodes still stops at the deadline.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Meter {
    work: u64,
}

impl Meter {
    /// Returns `false` when the search must stop.
    #[inline]
    pub fn charge(&mut self, units: usize, search: &mut Search<'_>) -> bool {
        self.work += units as u64;
        if self.work >= CLOCK_WORK {
            self.work = 0;
            search.check_clock()
        } else {
            true
        }
    }
}

/// A stack of saved boards in flat arrays, kept between searches so that saving a board
/// allocates nothing once the arrays have grown to the working depth.
///
/// With `keep_candidates` the candidate masks are saved too (always for `binary`, whose
/// branches remove candidates without placing a digit; for `human` on sides up to 64, where
/// the copy is cheaper than recomputing); without, only the digits and the per-house masks are
/// saved and the candidates are recomputed on restore (`human`, where the candidates of a
/// cell are by definition the digits absent from its houses, so the digits are the board).
#[derive(Clone, Debug)]
pub(crate) struct Saved<B> {
    cells: usize,
    houses: usize,
    keep_candidates: bool,
    grid: Vec<u16>,
    cand: Vec<B>,
    placed: Vec<B>,
    empty: Vec<usize>,
}

impl<B: Bits> Saved<B> {
    pub fn new() -> Self {
        Saved {
            cells: 0,
            houses: 0,
            keep_candidates: false,
            grid: Vec::new(),
            cand: Vec::new(),
            placed: Vec::new(),
            empty: Vec::new(),
        }
    }

    /// Empties the stack for boards of `geo`, saving their candidates or not from now on.
    pub fn reset(&mut self, geo: &Geometry, keep_candidates: bool) {
        self.keep_candidates = keep_candidates;
        self.cells = geo.cells();
        self.houses = geo.house_count();
        self.grid.clear();
        self.cand.clear();
        self.placed.clear();
        self.empty.clear();
    }

    /// Boards on the stack.
    #[inline]
    pub fn len(&self) -> usize {
        self.empty.len()
    }

    /// Bytes one saved board takes.
    pub fn board_bytes(&self) -> usize {
        let cand = if self.keep_candidates { self.cells } else { 0 };
        self.cells * 2 + (cand + self.houses) * std::mem::size_of::<B>()
    }

    /// Whether one more board fits under the live-board limit (`max_live`, read here as the
    /// number of saved boards) and under [`SAVED_BYTES_CAP`].
    pub fn has_room(&self, max_live: Option<u64>) -> bool {
        let next = self.len() + 1;
        max_live.map_or(true, |m| next as u64 <= m)
            && next.saturating_mul(self.board_bytes()) <= SAVED_BYTES_CAP
    }

    pub fn push(&mut self, b: &Board<B>) {
        self.grid.extend_from_slice(&b.grid);
        if self.keep_candidates {
            self.cand.extend_from_slice(&b.cand);
        }
        self.placed.extend_from_slice(&b.placed);
        self.empty.push(b.empty);
    }

    /// Copies the top board into `b` (the stack is unchanged).
    pub fn restore_top(&self, b: &mut Board<B>, geo: &Geometry) {
        let k = self.len() - 1;
        let (n, h) = (self.cells, self.houses);
        b.grid.copy_from_slice(&self.grid[k * n..(k + 1) * n]);
        b.placed.copy_from_slice(&self.placed[k * h..(k + 1) * h]);
        b.empty = self.empty[k];
        if self.keep_candidates {
            b.cand.copy_from_slice(&self.cand[k * n..(k + 1) * n]);
        } else {
            b.recompute_candidates(geo);
        }
    }

    pub fn pop(&mut self) {
        let k = self.len() - 1;
        self.grid.truncate(k * self.cells);
        if self.keep_candidates {
            self.cand.truncate(k * self.cells);
        }
        self.placed.truncate(k * self.houses);
        self.empty.pop();
    }
}

/// Per-width working storage an engine keeps between puzzles (boards, queue, saved stack), so
/// that solving a stream of puzzles allocates almost nothing. Stored type-erased in the engine
/// because the width is chosen per puzzle.
pub(crate) struct Workspace<B> {
    pub peers: Peers,
    pub board: Board<B>,
    pub queue: Queue,
    pub saved: Saved<B>,
}

impl<B: Bits> Workspace<B> {
    pub fn new() -> Self {
        Workspace {
            peers: Peers::default(),
            board: Board::new(),
            queue: Queue::default(),
            saved: Saved::new(),
        }
    }

    /// Takes the workspace of width `B` out of `slot` if it holds one, else makes a new one
    /// (the previous puzzle had another width, or this is the first).
    pub fn take(slot: &mut Option<Box<dyn std::any::Any + Send>>) -> Box<Self> {
        match slot.take().map(|b| b.downcast::<Self>()) {
            Some(Ok(ws)) => ws,
            _ => Box::new(Self::new()),
        }
    }
}

/// The tests every engine built on the candidate board (`human`, `binary`) must pass, one
/// `#[test]` per check of [`testing`]: `candidate_engine_tests!(engine)` in a test module
/// where `engine()` makes the engine under test.
#[cfg(test)]
#[macro_export]
macro_rules! candidate_engine_tests {
    ($engine:ident) => {
        #[test]
        fn project_euler_96() {
            $crate::engines::candidates::testing::pe96_unique(&mut *$engine());
        }
        #[test]
        fn empty_4x4_has_288_solutions() {
            $crate::engines::candidates::testing::empty_4x4(&mut *$engine());
        }
        #[test]
        fn six_by_six() {
            $crate::engines::candidates::testing::six(&mut *$engine());
        }
        #[test]
        fn rk_16x16() {
            $crate::engines::candidates::testing::rk16(&mut *$engine());
        }
        #[test]
        fn rk_25x25() {
            $crate::engines::candidates::testing::rk25(&mut *$engine());
        }
        #[test]
        fn small_and_wide_grids() {
            $crate::engines::candidates::testing::small_and_wide(&mut *$engine());
        }
        #[test]
        fn jigsaw() {
            $crate::engines::candidates::testing::jigsaw_unique(&mut *$engine());
        }
        #[test]
        fn x_sudoku() {
            $crate::engines::candidates::testing::x_unique(&mut *$engine());
        }
        #[test]
        fn clashing_givens_are_unsat() {
            $crate::engines::candidates::testing::clash(&mut *$engine());
        }
        #[test]
        fn two_solutions() {
            $crate::engines::candidates::testing::two_solutions(&mut *$engine());
        }
        #[test]
        fn node_limit() {
            $crate::engines::candidates::testing::node_limit(&mut *$engine());
        }
        #[test]
        fn memory_limit() {
            $crate::engines::candidates::testing::memory_limit(&mut *$engine());
        }
        #[test]
        fn time_limit() {
            $crate::engines::candidates::testing::time_limit(&mut *$engine());
        }
    };
}

#[cfg(test)]
pub(crate) mod testing {
    //! Helpers for the engine tests: puzzles from text without the parsers (written
    //! elsewhere), the data sets, and checks shared by both engines.

    use crate::engines::{run, Engine, Limits, Outcome, Status};
    use crate::puzzle::{Geometry, Puzzle};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    pub fn data(name: &str) -> String {
        let path = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// Digits of an 81-character line, `.` or `0` for empty.
    pub fn digits81(line: &str) -> Vec<u16> {
        let v: Vec<u16> = line
            .trim()
            .chars()
            .map(|ch| match ch {
                '.' | '0' => 0,
                '1'..='9' => ch as u16 - '0' as u16,
                _ => panic!("bad char {ch:?}"),
            })
            .collect();
        assert_eq!(v.len(), 81, "{line}");
        v
    }

    pub fn sudoku9(line: &str) -> Puzzle {
        Puzzle::new(Arc::new(Geometry::square(9).unwrap()), digits81(line)).unwrap()
    }

    /// A square-box puzzle from whitespace-separated integers (N rows of N).
    pub fn int_grid(text: &str) -> Puzzle {
        let v: Vec<u16> = text
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let n = (v.len() as f64).sqrt().round() as usize;
        assert_eq!(n * n, v.len());
        Puzzle::new(Arc::new(Geometry::square(n).unwrap()), v).unwrap()
    }

    /// The 50 grids of Project Euler 96.
    pub fn pe96() -> Vec<Puzzle> {
        let geo = Arc::new(Geometry::square(9).unwrap());
        let text = data("pe96.txt");
        let mut out = Vec::new();
        let mut rows = String::new();
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with("Grid") || line.is_empty() {
                continue;
            }
            rows.push_str(line);
            if rows.len() == 81 {
                out.push(Puzzle::new(geo.clone(), digits81(&rows)).unwrap());
                rows.clear();
            }
        }
        assert_eq!(out.len(), 50);
        out
    }

    /// Runs `engine` through [`run`] (which checks every solution against the houses and the
    /// givens) and asserts the check passed.
    pub fn solve(engine: &mut dyn Engine, p: &Puzzle, limits: &Limits) -> Outcome {
        let o = run(engine, p, limits);
        assert_ne!(o.status, Status::Error, "{:?}", o.note);
        for s in &o.solutions {
            p.check_solution(s).unwrap();
        }
        o
    }

    /// A jigsaw layout (regions 0..9, each connected), made from the classic boxes by swapping
    /// cells between neighbouring regions that hold the same digit of [`JIGSAW_SOLUTION`].
    pub const JIGSAW_REGIONS: &str = "\
        111111222\
        000011222\
        300001222\
        303444555\
        333444555\
        633444555\
        663777788\
        666778888\
        666777888";
    /// A full grid valid for [`JIGSAW_REGIONS`].
    pub const JIGSAW_SOLUTION: &str =
        "926381754718245396453697182241769835687523941539418627175932468362874519894156273";
    /// [`JIGSAW_SOLUTION`] with cells removed while the solution stays unique (19 givens).
    pub const JIGSAW_PUZZLE: &str =
        "006001004708200000050000100000709000080020001009000000000000068302000000000000070";

    pub fn jigsaw(givens: &str) -> Puzzle {
        let regions: Vec<u16> = JIGSAW_REGIONS.bytes().map(|b| (b - b'0') as u16).collect();
        let geo = Geometry::jigsaw(9, regions).unwrap();
        assert_eq!(geo.disconnected_region(), None);
        Puzzle::new(Arc::new(geo), digits81(givens)).unwrap()
    }

    /// A full X-sudoku grid (both diagonals hold 1..9) and a unique puzzle from it (20 givens).
    pub const X_SOLUTION: &str =
        "785246139296173548341958276469825713532761984178394652957482361614539827823617495";
    pub const X_PUZZLE: &str =
        "000040000090100540000008206060000013030060084000000002000480000000030000000000090";

    pub fn x_sudoku(givens: &str) -> Puzzle {
        let geo = Geometry::square(9).unwrap().with_diagonals(true);
        Puzzle::new(Arc::new(geo), digits81(givens)).unwrap()
    }

    /// A 6x6 puzzle (2x3 boxes) with a unique solution, and that solution.
    pub const SIX: &str = "0 0 0 5 0 0 0 0 4 0 0 1 5 0 2 0 6 0 0 0 0 0 0 0 0 0 0 0 0 3 3 1 0 0 0 5";
    pub const SIX_SOLUTION: &str =
        "1 2 3 5 4 6 6 5 4 2 3 1 5 3 2 1 6 4 4 6 1 3 5 2 2 4 5 6 1 3 3 1 6 4 2 5";

    /// Project Euler 96: every grid unique, top-left numbers summing to 24702.
    pub fn pe96_unique(engine: &mut dyn Engine) {
        let mut sum = 0u32;
        for (i, p) in pe96().iter().enumerate() {
            let o = solve(engine, p, &Limits::solutions(2));
            assert_eq!((o.status, o.count), (Status::Unique, 1), "grid {}", i + 1);
            let s = &o.solutions[0];
            sum += 100 * s[0] as u32 + 10 * s[1] as u32 + s[2] as u32;
            if i == 0 {
                assert_eq!(&s[..3], &[4, 8, 3]);
            }
        }
        assert_eq!(sum, 24702);
    }

    fn all(k: u64) -> Limits {
        Limits {
            keep_solutions: usize::MAX,
            ..Limits::solutions(k)
        }
    }

    /// The empty 4x4 grid has 288 solutions, all different.
    pub fn empty_4x4(engine: &mut dyn Engine) {
        let p = Puzzle::empty(Arc::new(Geometry::square(4).unwrap()));
        let o = solve(engine, &p, &all(0));
        assert_eq!((o.status, o.count), (Status::Multiple, 288));
        let mut sols = o.solutions.clone();
        sols.sort();
        sols.dedup();
        assert_eq!(sols.len(), 288);
    }

    pub fn six(engine: &mut dyn Engine) {
        let p = int_grid(SIX);
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unique, 1));
        assert_eq!(o.solutions[0], int_grid(SIX_SOLUTION).givens());
    }

    pub fn rk16(engine: &mut dyn Engine) {
        let p = int_grid(&data("rk-16x16.txt"));
        assert_eq!(p.n(), 16);
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unique, 1));
    }

    /// The unique solution of `rk-25x25.txt`, found with CaDiCaL on a direct CNF encoding and
    /// proved unique by a second call with that solution excluded.
    pub const RK25_SOLUTION: &str = "\
        3 14 12 6 25 19 7 21 18 16 5 24 9 10 1 13 23 4 20 8 22 11 17 15 2\n\
        2 9 19 8 13 12 20 3 10 11 17 7 23 15 14 22 25 18 5 16 4 21 6 24 1\n\
        21 18 15 7 5 4 6 22 17 1 13 20 3 11 2 24 10 14 12 9 16 8 25 19 23\n\
        1 16 11 4 20 2 23 9 24 13 12 22 25 6 8 21 15 19 3 17 10 7 5 14 18\n\
        23 17 24 22 10 15 14 5 25 8 4 18 16 19 21 6 2 7 1 11 13 3 12 20 9\n\
        18 4 3 2 6 13 11 8 20 23 19 10 21 24 12 17 16 15 7 25 5 9 22 1 14\n\
        13 7 9 14 23 6 25 2 15 21 8 4 5 3 11 1 12 10 22 24 20 17 16 18 19\n\
        15 21 10 11 8 16 9 18 12 19 22 6 13 1 17 2 5 23 14 20 7 25 3 4 24\n\
        5 19 17 24 1 7 10 14 3 22 23 25 18 16 20 9 6 11 13 4 15 12 2 8 21\n\
        20 22 16 25 12 24 1 17 5 4 7 2 15 14 9 8 3 21 19 18 11 10 23 13 6\n\
        4 20 13 15 17 3 24 23 22 14 9 12 11 2 10 25 18 1 8 19 6 5 7 21 16\n\
        6 1 22 23 19 21 16 10 8 7 15 13 4 20 3 5 9 12 2 14 18 24 11 17 25\n\
        25 2 5 3 14 18 15 11 13 20 16 17 24 21 22 4 7 6 10 23 19 1 8 9 12\n\
        9 24 7 21 11 25 12 19 2 17 1 5 8 18 6 16 22 20 15 3 23 13 14 10 4\n\
        8 10 18 12 16 9 4 6 1 5 25 14 7 23 19 11 13 17 24 21 3 15 20 2 22\n\
        10 8 2 13 15 22 3 20 6 25 21 23 19 7 4 18 14 5 11 1 24 16 9 12 17\n\
        12 6 14 19 24 1 18 16 11 9 20 3 10 22 25 15 17 8 23 13 2 4 21 5 7\n\
        22 3 1 9 21 23 17 4 19 10 11 8 2 5 13 7 24 25 16 12 14 18 15 6 20\n\
        11 25 20 18 7 5 8 15 21 12 14 16 6 17 24 19 4 2 9 10 1 22 13 23 3\n\
        17 5 23 16 4 14 13 24 7 2 18 9 1 12 15 3 20 22 21 6 25 19 10 11 8\n\
        7 11 25 20 2 10 19 13 9 6 24 1 17 8 16 23 21 3 18 15 12 14 4 22 5\n\
        16 12 4 5 18 11 21 1 23 3 2 15 20 13 7 14 19 9 17 22 8 6 24 25 10\n\
        19 23 8 10 9 20 22 7 4 24 3 21 14 25 18 12 11 13 6 5 17 2 1 16 15\n\
        24 15 6 17 22 8 2 25 14 18 10 11 12 9 5 20 1 16 4 7 21 23 19 3 13\n\
        14 13 21 1 3 17 5 12 16 15 6 19 22 4 23 10 8 24 25 2 9 20 18 7 11\n\
";

    /// `rk-25x25.txt` itself is beyond these engines in test time (the human engine ran 20
    /// minutes, 364 million nodes, without finding its solution): it is run under a time
    /// limit, and must then be either cut by the limit or solved right. It is then solved with
    /// the solution's digits added in every 4th empty cell (93 more givens), which keeps the
    /// 25x25 data and code path while leaving the search small.
    pub fn rk25(engine: &mut dyn Engine) {
        let p = int_grid(&data("rk-25x25.txt"));
        assert_eq!(p.n(), 25);
        let sol = int_grid(RK25_SOLUTION);
        p.check_solution(sol.givens()).unwrap();
        let limits = Limits {
            time_limit: Some(Duration::from_millis(100)),
            ..Limits::solutions(1)
        };
        let o = solve(engine, &p, &limits);
        match o.status {
            Status::TimeLimit => assert_eq!(o.count, 0),
            Status::Solved => assert_eq!(o.solutions[0], sol.givens()),
            other => panic!("rk-25x25: {other}"),
        }
        let mut g = p.givens().to_vec();
        let empty: Vec<usize> = (0..g.len()).filter(|&c| g[c] == 0).collect();
        for &c in empty.iter().step_by(4) {
            g[c] = sol.givens()[c];
        }
        let easier = Puzzle::new(p.shared_geometry().clone(), g).unwrap();
        let o = solve(engine, &easier, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unique, 1));
        assert_eq!(o.solutions[0], sol.givens());
    }

    /// Sides 1 and 2 (1x2 boxes: a Latin square), and a 144 x 144 grid (12 x 12 boxes, the
    /// 256-bit sets and the house walk used when the peer table would be too big) made from a
    /// pattern solution with 1,500 cells emptied.
    pub fn small_and_wide(engine: &mut dyn Engine) {
        for (n, count) in [(1, 1), (2, 2)] {
            let p = Puzzle::empty(Arc::new(Geometry::square(n).unwrap()));
            let o = solve(engine, &p, &all(0));
            assert_eq!(o.count, count, "side {n}");
        }
        let n = 144;
        let full: Vec<u16> = (0..n * n)
            .map(|i| {
                let (r, c) = (i / n, i % n);
                ((12 * (r % 12) + r / 12 + c) % n + 1) as u16
            })
            .collect();
        let geo = Arc::new(Geometry::square(n).unwrap());
        geo.check_grid(&full).unwrap();
        let mut g = full.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(144);
        for c in rand::seq::index::sample(&mut rng, n * n, 1500) {
            g[c] = 0;
        }
        let p = Puzzle::new(geo, g).unwrap();
        let o = solve(engine, &p, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
    }

    pub fn jigsaw_unique(engine: &mut dyn Engine) {
        let full = jigsaw(JIGSAW_SOLUTION);
        full.geometry().check_grid(full.givens()).unwrap();
        assert!(full.geometry().is_jigsaw());
        let p = jigsaw(JIGSAW_PUZZLE);
        for (&g, &s) in p.givens().iter().zip(full.givens()) {
            assert!(g == 0 || g == s);
        }
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unique, 1));
        assert_eq!(o.solutions[0], full.givens());
    }

    pub fn x_unique(engine: &mut dyn Engine) {
        let full = x_sudoku(X_SOLUTION);
        full.geometry().check_grid(full.givens()).unwrap();
        let p = x_sudoku(X_PUZZLE);
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unique, 1));
        assert_eq!(o.solutions[0], full.givens());
        // Without the diagonals the same givens have more solutions.
        let plain = sudoku9(X_PUZZLE);
        assert_eq!(solve(engine, &plain, &Limits::solutions(2)).count, 2);
    }

    /// Clashing givens: unsat without search. Non-clashing givens refuted by filling: unsat.
    pub fn clash(engine: &mut dyn Engine) {
        let mut g = digits81(&pe96_line(0));
        let (a, b) = (0..9)
            .filter(|&c| g[c] == 0)
            .fold((None, None), |acc, c| match acc {
                (None, _) => (Some(c), None),
                (x, None) => (x, Some(c)),
                done => done,
            });
        let d = (1..=9).find(|d| !g[..9].contains(d)).unwrap();
        g[a.unwrap()] = d;
        g[b.unwrap()] = d;
        let p = Puzzle::new(Arc::new(Geometry::square(9).unwrap()), g).unwrap();
        assert!(p.clash().is_some());
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unsat, 0));
        assert_eq!((o.stats.nodes, o.stats.backtracks), (0, 0));
        // Row 1 holds 1..8, column 9 holds a 9 lower down: cell r1c9 has no candidate.
        let p = sudoku9(
            "123456780000000000000000000000000009000000000000000000000000000000000000000000000",
        );
        assert!(p.clash().is_none());
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Unsat, 0));
        assert_eq!(o.stats.backtracks, 1);
    }

    fn pe96_line(i: usize) -> String {
        pe96()[i].givens().iter().map(|d| d.to_string()).collect()
    }

    /// A unique puzzle's solution with a deadly rectangle emptied (two rows of one band, two
    /// columns of different stacks, digits `a b / b a`) has exactly two solutions.
    pub fn two_solutions(engine: &mut dyn Engine) {
        let sol = solve(engine, &pe96()[0], &Limits::solutions(1)).solutions[0].clone();
        let at = |r: usize, c: usize| sol[r * 9 + c];
        let mut rect = None;
        'find: for r1 in 0..9 {
            for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
                for c1 in 0..9 {
                    for c2 in (c1 / 3 + 1) * 3..9 {
                        if at(r1, c1) == at(r2, c2) && at(r1, c2) == at(r2, c1) {
                            rect = Some([r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2]);
                            break 'find;
                        }
                    }
                }
            }
        }
        let mut g = sol.clone();
        for c in rect.expect("a deadly rectangle") {
            g[c] = 0;
        }
        let p = Puzzle::new(Arc::new(Geometry::square(9).unwrap()), g).unwrap();
        let o = solve(engine, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Multiple, 2));
        let o = solve(engine, &p, &all(0));
        assert_eq!((o.status, o.count), (Status::Multiple, 2));
        assert_ne!(o.solutions[0], o.solutions[1]);
        assert!(o.solutions.contains(&sol));
        let o = solve(engine, &p, &Limits::solutions(1));
        assert_eq!((o.status, o.count), (Status::Solved, 1));
    }

    pub fn node_limit(engine: &mut dyn Engine) {
        let p = Puzzle::empty(Arc::new(Geometry::square(9).unwrap()));
        let limits = Limits {
            node_limit: Some(50),
            ..Limits::solutions(0)
        };
        let o = solve(engine, &p, &limits);
        assert_eq!(o.status, Status::NodeLimit);
        assert_eq!(o.stats.nodes, 50);
    }

    /// `max_live` bounds the saved boards: an empty 9x9 grid needs more than two at once.
    pub fn memory_limit(engine: &mut dyn Engine) {
        let p = Puzzle::empty(Arc::new(Geometry::square(9).unwrap()));
        let limits = Limits {
            max_live: Some(2),
            ..Limits::solutions(0)
        };
        let o = solve(engine, &p, &limits);
        assert_eq!(o.status, Status::MemoryLimit);
    }

    pub fn time_limit(engine: &mut dyn Engine) {
        let p = Puzzle::empty(Arc::new(Geometry::square(16).unwrap()));
        let limits = Limits {
            time_limit: Some(Duration::from_millis(30)),
            keep_solutions: 10,
            ..Limits::solutions(0)
        };
        let t = Instant::now();
        let o = solve(engine, &p, &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(t.elapsed() < Duration::from_secs(2));
        // A cancel flag raised before the start stops the search at the first clock check.
        let limits = Limits {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..limits
        };
        assert_eq!(solve(engine, &p, &limits).status, Status::TimeLimit);
    }

    /// The first `k` puzzles of Royle's 17-clue list are unique.
    pub fn royle(engine: &mut dyn Engine, k: usize) {
        let text = data("royle-17clue.txt");
        for line in text.lines().take(k) {
            let o = solve(engine, &sudoku9(line), &Limits::solutions(2));
            assert_eq!((o.status, o.count), (Status::Unique, 1), "{line}");
        }
    }

    /// Random 4x4 and 6x6 puzzles with few givens (some from a full grid, so solvable; some
    /// with random digits, often unsat): both engines find the same solution sets.
    pub fn cross_check(a: &mut dyn Engine, b: &mut dyn Engine) {
        let mut rng = ChaCha8Rng::seed_from_u64(96);
        let mut total = 0;
        for n in [4usize, 6] {
            let geo = Arc::new(Geometry::square(n).unwrap());
            let full =
                solve(a, &Puzzle::empty(geo.clone()), &Limits::solutions(1)).solutions[0].clone();
            for round in 0..60 {
                let cells = n * n;
                // Few givens, but enough that 6x6 (28 million completions when empty) keeps
                // the solution sets small.
                let k = if n == 4 {
                    rng.gen_range(1..=8)
                } else {
                    rng.gen_range(12..=18)
                };
                let mut g = vec![0u16; cells];
                if round % 2 == 0 {
                    // Relabel the digits of the full grid, reveal k cells.
                    let mut perm: Vec<u16> = (1..=n as u16).collect();
                    perm.shuffle(&mut rng);
                    for c in rand::seq::index::sample(&mut rng, cells, k) {
                        g[c] = perm[full[c] as usize - 1];
                    }
                } else {
                    for c in rand::seq::index::sample(&mut rng, cells, k) {
                        g[c] = rng.gen_range(1..=n as u16);
                    }
                }
                let p = Puzzle::new(geo.clone(), g).unwrap();
                let oa = solve(a, &p, &all(0));
                let ob = solve(b, &p, &all(0));
                assert_eq!(oa.status, ob.status);
                total += oa.count;
                let (mut sa, mut sb) = (oa.solutions, ob.solutions);
                sa.sort();
                sb.sort();
                assert_eq!(sa, sb, "{:?}", p.givens());
                if round % 2 == 0 {
                    assert!(!sa.is_empty());
                }
            }
        }
        eprintln!("cross-check: {total} solutions compared");
    }
}
