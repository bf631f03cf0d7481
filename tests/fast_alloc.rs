//! The `fast` solver allocates nothing per puzzle: a counting global allocator sees zero
//! allocations while one solver counts the solutions of many puzzles (unique, multiple,
//! unsat and clashing ones, classic and X); through `engines::run` only the kept solutions
//! are allocated.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use sudolab::engines::fast::{CountTo, Solver};

struct Counting;

thread_local! {
    /// Allocations made by this thread: the test harness's other threads do not count.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn digits(line: &str) -> [u8; 81] {
    let mut g = [0u8; 81];
    for (x, ch) in g.iter_mut().zip(line.bytes()) {
        *x = if ch.is_ascii_digit() { ch - b'0' } else { 0 };
    }
    g
}

#[test]
fn solving_allocates_nothing() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/magictour-top1465.txt"
    ))
    .unwrap();
    let mut puzzles: Vec<[u8; 81]> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .take(200)
        .map(digits)
        .collect();
    puzzles.push([0; 81]); // many solutions
    let mut clash = [0u8; 81];
    clash[0] = 3;
    clash[1] = 3;
    puzzles.push(clash);
    let mut solver = Solver::new();
    let mut sinks: Vec<CountTo> = (0..4).map(|_| CountTo::new(2)).collect();
    let before = allocations();
    let mut found = 0;
    for (k, p) in puzzles.iter().enumerate() {
        for (x, sink) in sinks.iter_mut().enumerate() {
            *sink = CountTo::new([1, 2, 50, 2][x]);
            solver.solve(p, x == 3, sink);
            found += sink.count;
        }
        assert!(k < 200 || found > 0);
    }
    let after = allocations();
    assert_eq!(after - before, 0, "allocations while solving");
    assert!(found > 400);
}

/// Through the runner (`engines::run`: the engine, its limits, the outcome and the check of
/// the reported grids against the houses) nothing is allocated per puzzle when no solution
/// is kept, and only the kept grid (the list and the grid) when one is.
#[test]
fn the_engine_allocates_only_the_kept_solutions() {
    use sudolab::engines::{self, EngineSpec, Limits, Status};
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/magictour-top1465.txt"
    ));
    let puzzles = sudolab::puzzle::read_puzzles(path).unwrap();
    let puzzles = &puzzles[..100];
    let mut engine = EngineSpec::new("fast").make().unwrap();
    for (keep, most) in [(0usize, 0u64), (1, 2)] {
        let limits = Limits {
            keep_solutions: keep,
            ..Limits::solutions(2)
        };
        let before = allocations();
        let mut found = 0;
        for p in puzzles {
            let o = engines::run(engine.as_mut(), p, &limits);
            assert_eq!(o.status, Status::Unique);
            assert_eq!(o.solutions.len(), keep);
            found += o.count;
        }
        let after = allocations();
        assert_eq!(found, 100);
        assert!(
            after - before <= most * 100,
            "{} allocations for 100 puzzles keeping {keep}",
            after - before
        );
    }
}
