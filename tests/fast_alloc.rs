//! The `fast` solver allocates nothing per puzzle: a counting global allocator sees zero
//! allocations while one solver counts the solutions of many puzzles (unique, multiple,
//! unsat and clashing ones, classic and X).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use sudolab::engines::fast::{CountTo, Solver};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut found = 0;
    for (k, p) in puzzles.iter().enumerate() {
        for (x, sink) in sinks.iter_mut().enumerate() {
            *sink = CountTo::new([1, 2, 50, 2][x]);
            solver.solve(p, x == 3, sink);
            found += sink.count;
        }
        assert!(k < 200 || found > 0);
    }
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    assert_eq!(after - before, 0, "allocations while solving");
    assert!(found > 400);
}
