//! Property tests of the `fast` engine against `human` and `dlx` on 9x9 puzzles, classic and
//! X-sudoku: random puzzles cut from random solved grids (any number of givens removed, so
//! unique, multiple and, with a spoiled cell, unsat or clashing puzzles), counted up to a cap
//! and completely; same status and count, and the same solution set whenever the search was
//! exhausted below the cap. Every solution is checked against the
//! houses by `engines::run`.

mod common;

use common::{puzzle_from, rng};
use proptest::prelude::*;
use std::sync::Arc;
use sudolab::engines::{self, EngineSpec, Limits, Status};
use sudolab::puzzle::{Geometry, Puzzle};

fn answer(name: &str, p: &Puzzle, limits: &Limits) -> (Status, u64, Vec<Vec<u16>>) {
    let mut e = EngineSpec::new(name).make().unwrap();
    let o = engines::run(e.as_mut(), p, limits);
    assert!(o.status.is_answer(), "{name}: {} {:?}", o.status, o.note);
    let mut sols = o.solutions;
    sols.sort();
    (o.status, o.count, sols)
}

fn check(p: &Puzzle, cap: u64) {
    let limits = Limits {
        max_solutions: cap,
        node_limit: Some(5_000_000),
        // Each engine keeps the first `keep_solutions` in its own search order: the sets are
        // comparable only when every solution was kept.
        keep_solutions: 100_000,
        ..Limits::default()
    };
    let fast = answer("fast", p, &limits);
    // Below the cap the search was exhausted: the solution sets must be equal too, if every
    // solution was kept.
    let exhausted = (cap == 0 || fast.1 < cap) && fast.2.len() as u64 == fast.1;
    for other in ["human", "dlx"] {
        let o = answer(other, p, &limits);
        assert_eq!(
            (o.0, o.1),
            (fast.0, fast.1),
            "fast vs {other} on {:?}",
            p.givens()
        );
        if exhausted {
            assert!(
                o.2 == fast.2,
                "fast vs {other}: solution sets differ on {:?}",
                p.givens()
            );
        }
    }
}

fn puzzle(seed: u64, diagonals: bool, holes: usize, spoil: bool) -> Option<Puzzle> {
    let g = Geometry::square(9).unwrap().with_diagonals(diagonals);
    puzzle_from(Arc::new(g), &mut rng(seed), holes, spoil)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn fast_agrees_on_random_9x9(seed in 0u64..1_000_000, holes in 0usize..=81, spoil in any::<bool>(), x in any::<bool>()) {
        // Up to 81 holes: sparse grids have many solutions; a cap keeps the count finite.
        if let Some(p) = puzzle(seed, x, holes, spoil) {
            check(&p, 25);
        }
    }

    #[test]
    fn fast_counts_all_solutions_of_nearly_full_grids(seed in 0u64..1_000_000, holes in 30usize..=50, x in any::<bool>()) {
        if let Some(p) = puzzle(seed, x, holes, false) {
            check(&p, 0);
        }
    }
}

/// A classic cut with 1,251 solutions, more than an engine keeps by default (1,000): the
/// engines keep different first thousands, so the sets are compared with every one kept.
#[test]
fn more_solutions_than_kept_by_default_are_compared_in_full() {
    let p = puzzle(401_426, false, 50, false).expect("a puzzle");
    let all = Limits {
        max_solutions: 0,
        keep_solutions: 100_000,
        ..Limits::default()
    };
    let (_, count, kept) = answer("fast", &p, &all);
    assert_eq!((count, kept.len()), (1251, 1251));
    check(&p, 0);
}

#[test]
fn clashing_givens_are_unsat_for_every_engine() {
    // Two 7s in row 1, in column 1, in box 1, on the main diagonal (X only).
    let cases: [(&[(usize, u16)], bool); 4] = [
        (&[(0, 7), (8, 7)], false),
        (&[(0, 7), (72, 7)], false),
        (&[(0, 7), (20, 7)], false),
        (&[(0, 7), (80, 7)], true),
    ];
    for (givens, x) in cases {
        let g = Arc::new(Geometry::square(9).unwrap().with_diagonals(x));
        let mut grid = vec![0u16; 81];
        for &(c, d) in givens {
            grid[c] = d;
        }
        let p = Puzzle::new(g, grid).unwrap();
        let (status, count, _) = answer("fast", &p, &Limits::default());
        assert_eq!((status, count), (Status::Unsat, 0), "{givens:?}");
        check(&p, 2);
    }
}

#[test]
fn other_geometries_are_unsupported_with_a_note() {
    for g in [
        Geometry::square(4).unwrap(),
        Geometry::square(16).unwrap(),
        Geometry::boxed(6, 2, 3).unwrap(),
        Geometry::jigsaw(9, common::random_layout(9, &mut rng(3))).unwrap(),
    ] {
        let p = Puzzle::empty(Arc::new(g));
        let mut e = EngineSpec::new("fast").make().unwrap();
        let o = engines::run(e.as_mut(), &p, &Limits::default());
        assert_eq!(o.status, Status::Unsupported);
        assert!(o.note.unwrap().contains("9x9"));
    }
}
