//! `bnb`: branch and bound over a queue of live nodes, each node owning its board.
//!
//! # Source
//!
//! "Sudoku ramificación y poda" (Spanish course notes on branch and bound; no author is named
//! in the text), pseudocode `sudoku_RyP` with its helper `es_factible`. A node (`NODO`) holds
//! a whole board (`sol`) and the cell it works on next (`fila`, `columna`); the live nodes
//! (`Vivos`) are kept in a queue. The root is the puzzle at cell (1, 1). The loop takes a node
//! (`atender`); if its cell is a given it passes the board on as one child at the next cell;
//! otherwise, for each `k = 1..9`, it writes `k` into the cell and, if `es_factible` (`k` is
//! not repeated in the cell's row, column or 3x3 box, found by scanning the board), makes a
//! child with a copy of the board at the next cell (`pedir_vez`). At the last cell a feasible
//! board is a solution (`mostrarPorPantalla`) instead of a child. The notes use a FIFO queue
//! (a breadth-first, level-by-level walk) and, since "un Sudoku puede tener varias
//! soluciones", enumerate them all.
//!
//! # Generalisation and deviations
//!
//! - `es_factible` scans every *house* of the cell (rows, columns, boxes or jigsaw regions,
//!   diagonals) instead of row, column and 3x3 box, and `k` runs over `1..=N`: any side the
//!   model accepts, any house list.
//! - The pseudocode initialises `inicial` inverted (`Falso` for a given, `Cierto` for an empty
//!   cell) while its loop and its prose use `inicial = Cierto` for "a given that cannot be
//!   modified"; read literally, it would branch on the givens and pass the empty cells
//!   through. This engine follows the prose: a given is passed through, an empty cell is
//!   branched on. The loops of `es_factible` as printed never advance `k` and `l`; they are
//!   taken to scan the row, the column and the box, as the prose says.
//! - The search stops at `Limits::max_solutions` solutions (0 = all, as in the source).
//! - Givens that clash make the puzzle `unsat` before any search (0 nodes): the notes assume
//!   valid givens, and given cells are never checked (they cannot be, since a given that
//!   clashes with another given would be passed through into a "solution").
//! - Option `order` chooses how the live nodes are kept:
//!   - `fifo` (default, the source's `cola`): breadth-first. Children are queued in
//!     increasing `k` and parents leave in the order they came, so the solutions come out in
//!     lexicographic (row-major) order, the same order as the `backtrack` engine.
//!   - `lifo`: a stack, i.e. depth-first. Children are still pushed in increasing `k`, so the
//!     largest digit is explored first and solutions come out in reverse lexicographic order.
//!   - `best`: a priority queue. A node's key is the number of digits feasible (by the same
//!     house scan) in the first *empty* cell at or after its cell, on its board; 0 when no
//!     empty cell is left. The node with the smallest key is taken first (a dead end, or a
//!     complete board, has key 0 and leaves at once); ties go to the node queued first.
//!     Computing the key is not counted in any counter.
//! - The live-node queue is bounded (see below); the source's is not.
//! - **Cages (killer sudoku), an extension.** `es_factible` is the test of a digit against
//!   the rules by scanning the board; with cages it also scans the cell's cage: `k` must not
//!   be in it, the cage's digits with `k` must not pass its sum, and the sum left must lie
//!   between the least and the greatest sums of as many distinct digits unused in the cage as
//!   it has other empty cells (the bound of the `backtrack` engine). For the cage's last
//!   empty cell the test is exact, so every complete board is a solution. Breadth first, a
//!   9x9 killer (no givens) can grow the queue past `max_live`: `order=lifo` or `best` then
//!   answers it with the same tree depth first.
//!
//! # Counters
//!
//! - `nodes`: nodes taken from the queue (`atender`), givens' pass-through nodes included.
//! - `guesses`: nodes taken at an empty cell that have two or more *successors*, a successor
//!   being a feasible digit: a child queued, or at the last cell a solution reported.
//! - `backtracks`: nodes taken at an empty cell that have no successor (dead ends).
//! - `max_live`: `Some(largest queue length)`, the root included; measured right after each
//!   push.
//! - No engine-specific counters. A node taken but cut short by a limit or by the solution cap
//!   is counted in `nodes` but neither in `guesses` nor in `backtracks`.
//!
//! # Memory bound
//!
//! A live node holds its board: one byte per cell when `N <= 255`, two otherwise. The queue
//! may hold at most `min(Limits::max_live, BOARD_BUDGET_BYTES / bytes_per_node)` nodes, where
//! `bytes_per_node` counts the board rounded up to the allocator's 16-byte granule plus a
//! 16-byte allocator header, and twice the queue slot (a growing queue may hold up to twice
//! its length in capacity). A push past that stops the search with `memory-limit`. Freed
//! boards go to a pool and are reused, so at most `live limit + 2` boards are ever allocated
//! (the queue's, the node being expanded, and a child that found the queue full), and the
//! queue with its boards stays within about [`BOARD_BUDGET_BYTES`] (1 GiB) whatever the side.
//! On an empty 9x9 grid the default `max_live` (4,000,000 nodes) binds first, at about
//! 0.7 GiB; on an empty 25x25 grid the budget binds, at 1,491,308 live nodes (FIFO), and the
//! whole process peaked at 0.94 GiB resident when measured.

use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Limits, OptionError, Outcome, Search, Sides,
};
use crate::puzzle::{completable, CageSet, Geometry, Puzzle};
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// Most bytes the live nodes (boards, allocator overhead, queue slots) may take; see the
/// module doc. Together with `Limits::max_live` it bounds the queue.
pub const BOARD_BUDGET_BYTES: u64 = 1 << 30;

/// The clock is read whenever this much work (cells scanned or copied) has been done since
/// the last read, so that a node on a huge grid cannot run past the time limit for long.
const WORK_PER_CLOCK_CHECK: u64 = 1 << 22;

pub static INFO: EngineInfo = EngineInfo {
    name: "bnb",
    summary: "Branch and bound over a queue of live nodes, each owning a board and its next \
              cell (row-major); children for every digit feasible by scanning the cell's houses",
    source: "\"Sudoku ramificación y poda\" (Spanish course notes, author not named): \
             pseudocode sudoku_RyP with NODO (fila, columna, sol), queue Vivos and es_factible; \
             generalised to every house (rows, columns, boxes or jigsaw regions, diagonals) \
             and any N; given cells passed through as the prose says",
    nodes: "nodes taken from the live-node queue, given cells' pass-through nodes included",
    counters: "guesses = nodes taken at an empty cell with >= 2 feasible digits (children, or \
               solutions at the last cell); backtracks = nodes taken at an empty cell with no \
               feasible digit; max_live = largest queue length",
    sides: Sides::Any,
    search_tree: true,
    capabilities: "any N the model accepts, boxes, jigsaw regions, diagonals; killer cages \
                   (es_factible also scans the cage: digit unused, sum still reachable); option \
                   order=fifo (default, breadth-first as in the source) | lifo (depth-first) \
                   | best (fewest feasible digits in the next empty cell first, ties by \
                   insertion order); live queue bounded by max_live and a 1 GiB board budget \
                   (memory-limit)",
    make,
    variants,
};

/// How the live nodes are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Fifo,
    Lifo,
    Best,
}

impl Order {
    pub fn parse(s: &str) -> Option<Order> {
        match s {
            "fifo" => Some(Order::Fifo),
            "lifo" => Some(Order::Lifo),
            "best" => Some(Order::Best),
            _ => None,
        }
    }
}

/// `verify` also runs the two other orders: all three must find the same solutions.
fn variants() -> Vec<EngineOptions> {
    ["lifo", "best"]
        .iter()
        .map(|o| EngineOptions::new().with("order", o))
        .collect()
}

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("bnb", &["order"])?;
    let order = match options.get("order") {
        None => Order::Fifo,
        Some(s) => Order::parse(s).ok_or_else(|| OptionError::BadValue {
            context: "engine bnb: ",
            key: "order",
            expected: "fifo, lifo or best",
            value: s.to_string(),
        })?,
    };
    Ok(Box::new(Bnb { order }))
}

/// The engine. It keeps nothing between puzzles.
pub struct Bnb {
    pub order: Order,
}

impl Engine for Bnb {
    fn supports_cages(&self) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        if puzzle.n() <= u8::MAX as usize {
            solve_with::<u8>(puzzle, limits, self.order)
        } else {
            solve_with::<u16>(puzzle, limits, self.order)
        }
    }
}

/// What a board cell is stored as: the narrowest type that holds `N`.
trait Digit: Copy + Default + Eq + 'static {
    fn from_u16(d: u16) -> Self;
    fn to_u16(self) -> u16;
}

impl Digit for u8 {
    #[inline]
    fn from_u16(d: u16) -> Self {
        d as u8
    }
    #[inline]
    fn to_u16(self) -> u16 {
        self as u16
    }
}

impl Digit for u16 {
    #[inline]
    fn from_u16(d: u16) -> Self {
        d
    }
    #[inline]
    fn to_u16(self) -> u16 {
        self
    }
}

/// The source's `NODO`: a board and the cell (row-major index) to work on next. `key` is the
/// priority under `order=best` (unused otherwise).
struct Node<T> {
    board: Vec<T>,
    cell: u32,
    key: u32,
}

/// A node in the priority queue: smallest key first, then smallest insertion number.
struct Ranked<T> {
    node: Node<T>,
    seq: u64,
}

impl<T> PartialEq for Ranked<T> {
    fn eq(&self, other: &Self) -> bool {
        (self.node.key, self.seq) == (other.node.key, other.seq)
    }
}

impl<T> Eq for Ranked<T> {}

impl<T> PartialOrd for Ranked<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Ranked<T> {
    /// Reversed, because `BinaryHeap` pops the greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.node.key, other.seq).cmp(&(self.node.key, self.seq))
    }
}

/// `Vivos`, in one of the three orders.
enum Live<T> {
    Fifo(VecDeque<Node<T>>),
    Lifo(Vec<Node<T>>),
    Best(BinaryHeap<Ranked<T>>, u64),
}

impl<T> Live<T> {
    fn new(order: Order) -> Self {
        match order {
            Order::Fifo => Live::Fifo(VecDeque::new()),
            Order::Lifo => Live::Lifo(Vec::new()),
            Order::Best => Live::Best(BinaryHeap::new(), 0),
        }
    }

    fn len(&self) -> usize {
        match self {
            Live::Fifo(q) => q.len(),
            Live::Lifo(s) => s.len(),
            Live::Best(h, _) => h.len(),
        }
    }

    /// `pedir_vez`.
    fn push(&mut self, node: Node<T>) {
        match self {
            Live::Fifo(q) => q.push_back(node),
            Live::Lifo(s) => s.push(node),
            Live::Best(h, seq) => {
                h.push(Ranked { node, seq: *seq });
                *seq += 1;
            }
        }
    }

    /// `atender`.
    fn pop(&mut self) -> Option<Node<T>> {
        match self {
            Live::Fifo(q) => q.pop_front(),
            Live::Lifo(s) => s.pop(),
            Live::Best(h, _) => h.pop().map(|r| r.node),
        }
    }
}

/// Bytes one live node may cost: see "Memory bound" in the module doc.
fn bytes_per_node<T>(cells: usize, order: Order) -> u64 {
    let board = (cells * std::mem::size_of::<T>()).div_ceil(16) * 16 + 16;
    let slot = match order {
        Order::Best => std::mem::size_of::<Ranked<T>>(),
        Order::Fifo | Order::Lifo => std::mem::size_of::<Node<T>>(),
    };
    (board + 2 * slot) as u64
}

/// Largest number of live nodes allowed for this puzzle and these limits.
fn live_limit<T>(cells: usize, order: Order, limits: &Limits) -> u64 {
    let by_budget = BOARD_BUDGET_BYTES / bytes_per_node::<T>(cells, order);
    limits.max_live.unwrap_or(u64::MAX).min(by_budget)
}

/// The search proper, with boards of `T`.
struct Run<'a, 'l, T> {
    geometry: &'a Geometry,
    givens: &'a [u16],
    search: Search<'l>,
    live: Live<T>,
    live_limit: u64,
    max_live: u64,
    /// Boards of nodes already expanded, for reuse.
    pool: Vec<Vec<T>>,
    /// `next_empty[c]`: the first cell at or after `c` without a given (`cells` if none).
    next_empty: Vec<u32>,
    order: Order,
    /// Buffer for the priority key: `mark[d] == stamp` means `d` is seen in some house.
    mark: Vec<u64>,
    stamp: u64,
    /// Buffer for reporting a solution as `u16` digits.
    out: Vec<u16>,
    work: u64,
    /// The cages (killer), checked by `es_factible` beside the houses.
    cages: Option<&'a CageSet>,
    /// Buffer for the cage check: `cage_mark[d] == cage_stamp` means `d` is in the cage.
    cage_mark: Vec<u64>,
    cage_stamp: u64,
}

fn solve_with<T: Digit>(puzzle: &Puzzle, limits: &Limits, order: Order) -> Outcome {
    let mut search = Search::new(limits);
    if puzzle.clash().is_some() {
        search.stats.max_live = Some(0);
        return search.finish_unsat();
    }
    let geometry = puzzle.geometry();
    let givens = puzzle.givens();
    let cells = geometry.cells();
    let mut next_empty = vec![cells as u32; cells + 1];
    for c in (0..cells).rev() {
        next_empty[c] = if givens[c] == 0 {
            c as u32
        } else {
            next_empty[c + 1]
        };
    }
    let mut run = Run {
        geometry,
        givens,
        search,
        live: Live::new(order),
        live_limit: live_limit::<T>(cells, order, limits),
        max_live: 0,
        pool: Vec::new(),
        next_empty,
        order,
        mark: vec![0; geometry.n() + 1],
        stamp: 0,
        out: vec![0; cells],
        work: 0,
        cages: puzzle.cage_set(),
        cage_mark: vec![0; geometry.n() + 1],
        cage_stamp: 0,
    };
    // The root: the puzzle at the first cell.
    let root: Vec<T> = givens.iter().map(|&d| T::from_u16(d)).collect();
    run.push(root, 0);
    run.search.built();
    run.main_loop();
    let mut search = run.search;
    search.stats.max_live = Some(run.max_live);
    search.finish()
}

impl<T: Digit> Run<'_, '_, T> {
    fn main_loop(&mut self) {
        let n = self.geometry.n();
        let cells = self.geometry.cells();
        // Work of one `es_factible` for one `k`: every house of the cell scanned once.
        let scan = n as u64;
        while let Some(mut x) = self.live.pop() {
            if !self.search.node() {
                return;
            }
            let cell = x.cell as usize;
            let last = cell + 1 == cells;
            if self.givens[cell] != 0 {
                // A given: one successor, the same board at the next cell.
                if last {
                    if !self.report(&x.board) {
                        return;
                    }
                    self.pool.push(x.board);
                } else {
                    let key = x.key; // the next empty cell is the same
                    if !self.push_keyed(x.board, cell + 1, key) {
                        return;
                    }
                }
                continue;
            }
            let mut successors = 0u32;
            let houses = self.geometry.houses_of(cell).len() as u64;
            for k in 1..=n as u16 {
                // The clock is read inside the loop over `k`: at large sides one node's
                // children (an N*N board copied each) are work enough to pass a limit.
                self.work += scan * houses;
                if self.work >= WORK_PER_CLOCK_CHECK {
                    self.work = 0;
                    if !self.search.check_clock() {
                        return;
                    }
                }
                if !self.feasible(&x.board, cell, k) {
                    continue;
                }
                successors += 1;
                let alive = if last {
                    x.board[cell] = T::from_u16(k);
                    let alive = self.report(&x.board);
                    x.board[cell] = T::default();
                    alive
                } else {
                    let mut child = self.pool.pop().unwrap_or_default();
                    child.clear();
                    child.extend_from_slice(&x.board);
                    child[cell] = T::from_u16(k);
                    self.work += cells as u64;
                    self.push(child, cell + 1)
                };
                if !alive {
                    return;
                }
            }
            match successors {
                0 => self.search.stats.backtracks += 1,
                1 => {}
                _ => self.search.stats.guesses += 1,
            }
            self.pool.push(x.board);
        }
    }

    /// `es_factible`: `k` at `cell` repeats nothing in any house of the cell, found by
    /// scanning the board; with cages, also the cage check ([`Run::cage_allows`]).
    fn feasible(&mut self, board: &[T], cell: usize, k: u16) -> bool {
        let d = T::from_u16(k);
        self.geometry.houses_of(cell).iter().all(|&h| {
            self.geometry
                .house(h as usize)
                .iter()
                .all(|&c| c as usize == cell || board[c as usize] != d)
        }) && self.cage_allows(board, cell, k)
    }

    /// The cage of `cell`, scanned on the board: `k` is not in it, its digits with `k` do
    /// not pass its sum, and the sum left lies between the least and the greatest sums of
    /// as many distinct digits unused in the cage as it has empty cells left (exact when
    /// `cell` is its last empty cell).
    fn cage_allows(&mut self, board: &[T], cell: usize, k: u16) -> bool {
        let Some(set) = self.cages else {
            return true;
        };
        let Some(i) = set.cage_of(cell) else {
            return true;
        };
        let cage = &set.cages()[i];
        self.cage_stamp += 1;
        let stamp = self.cage_stamp;
        let (mut total, mut empty) = (k as u32, 0usize);
        for &c in cage.cells() {
            let d = board[c as usize].to_u16();
            if c as usize == cell {
                continue;
            }
            if d == 0 {
                empty += 1;
            } else if d == k {
                return false;
            } else {
                self.cage_mark[d as usize] = stamp;
                total += d as u32;
            }
        }
        self.work += (cage.len() + self.geometry.n()) as u64;
        if total > cage.sum() {
            return false;
        }
        let mark = &self.cage_mark;
        let free = (1..mark.len() as u32).filter(|&e| e != k as u32 && mark[e as usize] != stamp);
        completable(cage.sum() - total, empty, free)
    }

    /// Reports a complete board as a solution (`mostrarPorPantalla`). False: stop.
    fn report(&mut self, board: &[T]) -> bool {
        for (o, &d) in self.out.iter_mut().zip(board) {
            *o = d.to_u16();
        }
        self.search.solution(&self.out)
    }

    /// `pedir_vez` of a new node at `cell`, with its priority computed if needed.
    fn push(&mut self, board: Vec<T>, cell: usize) -> bool {
        let key = match self.order {
            Order::Best => self.key(&board, cell),
            Order::Fifo | Order::Lifo => 0,
        };
        self.push_keyed(board, cell, key)
    }

    /// Queues a node unless the queue is full, which stops the search with `memory-limit`.
    fn push_keyed(&mut self, board: Vec<T>, cell: usize, key: u32) -> bool {
        if self.live.len() as u64 >= self.live_limit {
            self.search.out_of_memory();
            self.pool.push(board);
            return false;
        }
        self.live.push(Node {
            board,
            cell: cell as u32,
            key,
        });
        self.max_live = self.max_live.max(self.live.len() as u64);
        true
    }

    /// Priority under `order=best`: digits feasible in the first empty cell at or after
    /// `cell` (0 if there is none).
    fn key(&mut self, board: &[T], cell: usize) -> u32 {
        let target = self.next_empty[cell] as usize;
        if target == board.len() {
            return 0;
        }
        self.stamp += 1;
        let mut seen = 0u32;
        for &h in self.geometry.houses_of(target) {
            for &c in self.geometry.house(h as usize) {
                let d = board[c as usize].to_u16() as usize;
                if d != 0 && self.mark[d] != self.stamp {
                    self.mark[d] = self.stamp;
                    seen += 1;
                }
            }
        }
        self.work += (self.geometry.houses_of(target).len() * self.geometry.n()) as u64;
        self.geometry.n() as u32 - seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::backtrack::testkit::*;
    use crate::engines::backtrack::Backtrack;
    use crate::engines::{run, Status};
    use crate::puzzle::Grid;
    use std::sync::Arc;
    use std::time::Duration;

    const ORDERS: [Order; 3] = [Order::Fifo, Order::Lifo, Order::Best];

    fn solve_limits(p: &Puzzle, order: Order, limits: &Limits) -> Outcome {
        let o = run(&mut Bnb { order }, p, limits);
        assert_ne!(o.status, Status::Error, "{:?}", o.note);
        for s in &o.solutions {
            p.check_solution(s).unwrap();
        }
        o
    }

    fn solve(p: &Puzzle, order: Order, max_solutions: u64) -> Outcome {
        solve_limits(p, order, &Limits::solutions(max_solutions))
    }

    fn sorted(mut v: Vec<Grid>) -> Vec<Grid> {
        v.sort();
        v
    }

    /// Every order finds the same solutions as `backtrack`, FIFO in the same order. Searching
    /// the whole tree, every order takes the same nodes, and the branch points are the same
    /// as backtrack's: a node at an empty cell is an arrival of backtrack at that cell.
    fn agrees_with_backtrack(p: &Puzzle) -> u64 {
        let limits = Limits {
            max_solutions: 0,
            keep_solutions: usize::MAX,
            ..Limits::default()
        };
        let reference = run(&mut Backtrack, p, &limits);
        assert!(reference.status.is_answer());
        let fifo = solve_limits(p, Order::Fifo, &limits);
        for order in ORDERS {
            let o = solve_limits(p, order, &limits);
            assert_eq!((o.status, o.count), (reference.status, reference.count));
            assert_eq!(o.stats.guesses, reference.stats.guesses);
            assert_eq!(o.stats.backtracks, reference.stats.backtracks);
            assert_eq!(
                (o.stats.nodes, o.stats.backtracks),
                (fifo.stats.nodes, fifo.stats.backtracks)
            );
            if order == Order::Fifo {
                assert_eq!(o.solutions, reference.solutions);
            } else {
                assert_eq!(sorted(o.solutions), sorted(reference.solutions.clone()));
            }
        }
        reference.count
    }

    fn geometry(n: usize) -> Arc<Geometry> {
        Arc::new(Geometry::square(n).unwrap())
    }

    #[test]
    fn empty_4x4_has_288_solutions_in_backtrack_order() {
        let p = Puzzle::empty(geometry(4));
        assert_eq!(agrees_with_backtrack(&p), 288);
        // The first FIFO solution is the seed's 1234 / 3412 / 2143 / 4321.
        let o = solve(&p, Order::Fifo, 1);
        assert_eq!(o.solutions, vec![digits("1234 3412 2143 4321")]);
        assert_eq!(o.status, Status::Solved);
    }

    #[test]
    fn counters_on_the_empty_4x4() {
        // Every node is at an empty cell; each solution is reported from a node at the last
        // cell, which then has exactly one successor.
        let p = Puzzle::empty(geometry(4));
        let o = solve(&p, Order::Fifo, 0);
        assert_eq!(o.count, 288);
        let s = &o.stats;
        // Nodes: the root, plus one per placement of backtrack except the 288 placements in
        // the last cell, which bnb reports as solutions instead of queueing.
        let b = run(&mut Backtrack, &p, &Limits::solutions(0)).stats;
        assert_eq!(s.nodes, 1 + b.nodes - 288);
        assert_eq!(s.guesses, b.guesses);
        assert_eq!(s.backtracks, b.backtracks);
        let failed = b.counter("failed_cells").unwrap();
        assert!(s.backtracks > 0 && s.backtracks < failed);
        // When the last node at cell 15 is expanded the queue holds every node at cell 16
        // (0-based 15): at least one per solution.
        assert!(s.max_live.unwrap() >= 288);
        // LIFO visits the same tree (a node's children do not depend on the order).
        let l = solve(&p, Order::Lifo, 0);
        assert_eq!(
            (l.stats.nodes, l.stats.guesses, l.stats.backtracks),
            (s.nodes, s.guesses, s.backtracks)
        );
        assert!(l.stats.max_live < s.max_live);
    }

    #[test]
    fn multiple_solutions_agree_with_backtrack() {
        let full = digits(PE96_01_SOLUTION);
        let g9 = geometry(9);
        let p = Puzzle::new(g9.clone(), with_holes(&full, DEADLY)).unwrap();
        assert_eq!(agrees_with_backtrack(&p), 2);
        // Rows 2 and 3 emptied: many solutions.
        let p = Puzzle::new(g9, with_holes(&full, 9..27)).unwrap();
        assert!(agrees_with_backtrack(&p) > 2);
        let six = pattern(6);
        let p = Puzzle::new(
            geometry(6),
            with_holes(&six, (0..36).filter(|c| c % 5 != 0)),
        )
        .unwrap();
        assert!(agrees_with_backtrack(&p) > 2);
    }

    #[test]
    fn two_solutions_status() {
        let p = Puzzle::new(geometry(9), with_holes(&digits(PE96_01_SOLUTION), DEADLY)).unwrap();
        for order in ORDERS {
            let o = solve(&p, order, 2);
            assert_eq!(
                (o.status, o.count, o.solutions.len()),
                (Status::Multiple, 2, 2)
            );
            let o = solve(&p, order, 1);
            assert_eq!((o.status, o.count), (Status::Solved, 1));
        }
    }

    #[test]
    fn pe96_first_grid() {
        let p = &pe96()[0];
        for order in ORDERS {
            let o = solve(p, order, 2);
            assert_eq!(o.status, Status::Unique);
            assert_eq!(o.solutions, vec![digits(PE96_01_SOLUTION)]);
            // The whole tree is searched (unique puzzle, cap 2), whatever the order.
            let s = &o.stats;
            assert_eq!((s.nodes, s.guesses, s.backtracks), (1294, 216, 274));
        }
    }

    #[test]
    fn pe96_sample_agrees_with_backtrack() {
        for p in pe96().iter().step_by(7) {
            let b = run(&mut Backtrack, p, &Limits::solutions(2));
            let o = solve(p, Order::Fifo, 2);
            assert_eq!((o.status, &o.solutions), (Status::Unique, &b.solutions));
            assert_eq!(o.stats.guesses, b.stats.guesses);
            assert_eq!(o.stats.backtracks, b.stats.backtracks);
        }
    }

    #[test]
    fn six_by_six_jigsaw_and_x() {
        let six = pattern(6);
        let p = Puzzle::new(geometry(6), with_holes(&six, (0..36).step_by(2))).unwrap();
        for order in ORDERS {
            assert!(solve(&p, order, 0).solutions.contains(&six));
        }

        let regions = digits(JIGSAW_REGIONS);
        let jig = Arc::new(Geometry::jigsaw(9, regions).unwrap());
        let full = digits(PE96_01_SOLUTION);
        let p = Puzzle::new(jig, with_holes(&full, (0..81).step_by(2))).unwrap();
        for order in ORDERS {
            let o = solve(&p, order, 2);
            assert_eq!(
                (o.status, o.solutions),
                (Status::Unique, vec![full.clone()])
            );
        }

        let x = Arc::new(Geometry::square(9).unwrap().with_diagonals(true));
        let xfull = digits(X_SOLUTION);
        let p = Puzzle::new(x, with_holes(&xfull, 0..36)).unwrap();
        assert_eq!(agrees_with_backtrack(&p), 4);
        assert!(solve(&p, Order::Best, 0).solutions.contains(&xfull));
    }

    #[test]
    fn clashing_givens_are_unsat() {
        let mut givens = vec![0u16; 81];
        givens[3] = 7;
        givens[75] = 7; // column 4 twice
        let p = Puzzle::new(geometry(9), givens).unwrap();
        for order in ORDERS {
            let o = solve(&p, order, 2);
            assert_eq!((o.status, o.count, o.stats.nodes), (Status::Unsat, 0, 0));
        }
    }

    #[test]
    fn full_grid_and_tiny_grids() {
        let full = digits(PE96_01_SOLUTION);
        let p = Puzzle::new(geometry(9), full.clone()).unwrap();
        let o = solve(&p, Order::Fifo, 2);
        // 81 pass-through nodes, the last one reporting the solution.
        assert_eq!((o.status, o.stats.nodes), (Status::Unique, 81));
        assert_eq!(o.stats.max_live, Some(1));
        let o = solve(&Puzzle::empty(geometry(1)), Order::Fifo, 0);
        assert_eq!((o.status, o.count, o.stats.nodes), (Status::Unique, 1, 1));
        let o = solve(&Puzzle::empty(geometry(3)), Order::Best, 0);
        assert_eq!((o.status, o.count), (Status::Multiple, 12));
    }

    #[test]
    fn node_and_time_limits() {
        let p = Puzzle::empty(geometry(9));
        let limits = Limits {
            max_solutions: 0,
            node_limit: Some(5000),
            ..Limits::default()
        };
        for order in ORDERS {
            let o = solve_limits(&p, order, &limits);
            assert_eq!((o.status, o.stats.nodes), (Status::NodeLimit, 5000));
        }
        // Depth-first on the empty grid, counting all solutions: only the clock stops it.
        let limits = Limits {
            max_solutions: 0,
            time_limit: Some(Duration::from_millis(50)),
            keep_solutions: 0,
            ..Limits::default()
        };
        let o = solve_limits(&p, Order::Lifo, &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(o.count > 0);
    }

    #[test]
    fn memory_limit_on_the_empty_9x9() {
        let p = Puzzle::empty(geometry(9));
        let limits = Limits {
            max_solutions: 0,
            max_live: Some(10_000),
            ..Limits::default()
        };
        for order in [Order::Fifo, Order::Best] {
            let o = solve_limits(&p, order, &limits);
            assert_eq!(o.status, Status::MemoryLimit);
            assert_eq!(o.stats.max_live, Some(10_000));
        }
    }

    #[test]
    fn live_limit_respects_the_byte_budget() {
        let unlimited = Limits {
            max_live: None,
            ..Limits::default()
        };
        for (n, order) in [(9, Order::Fifo), (25, Order::Best), (400, Order::Lifo)] {
            let cells = n * n;
            let limit = live_limit::<u16>(cells, order, &unlimited);
            assert!(limit * bytes_per_node::<u16>(cells, order) <= BOARD_BUDGET_BYTES);
            assert!(limit * (cells as u64 * 2) <= BOARD_BUDGET_BYTES);
        }
        // 9x9 with u8 boards: the default max_live binds.
        assert_eq!(
            live_limit::<u8>(81, Order::Fifo, &Limits::default()),
            crate::engines::DEFAULT_MAX_LIVE
        );
        // 25x25: the budget binds, near 1.6 million nodes.
        let l = live_limit::<u8>(625, Order::Fifo, &Limits::default());
        assert!((1_000_000..2_000_000).contains(&l), "{l}");
    }

    #[test]
    fn wide_boards() {
        // N = 256 needs u16 boards: a pattern grid with a few holes.
        let n = 256;
        let full = pattern(n);
        let p = Puzzle::new(geometry(n), with_holes(&full, [0, 1000, 30000, 65535])).unwrap();
        let o = solve(&p, Order::Best, 2);
        assert_eq!((o.status, o.solutions), (Status::Unique, vec![full]));
        assert_eq!(o.stats.nodes, (n * n) as u64);
    }

    #[test]
    fn options() {
        assert!((INFO.make)(&EngineOptions::new()).is_ok());
        for o in ["fifo", "lifo", "best"] {
            assert!((INFO.make)(&EngineOptions::new().with("order", o)).is_ok());
        }
        assert!((INFO.make)(&EngineOptions::new().with("order", "dfs")).is_err());
        assert!((INFO.make)(&EngineOptions::new().with("depth", "1")).is_err());
    }
}
