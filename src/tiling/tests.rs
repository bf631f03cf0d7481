//! Tests of the tiling methods on cases counted by hand, and of the sudoku step.

use super::*;
use crate::engines::Limits;

fn set(text: &str) -> PieceSet {
    read_pieces_str(text, "t").unwrap()
}

/// Tilings found by a method, sorted, with the report.
fn tilings(method: Method, s: &PieceSet, rotations: bool) -> (Vec<Vec<usize>>, SearchReport) {
    let p = Placements::new(s, rotations);
    let mut all = Vec::new();
    let r = method.enumerate(&p, &Limits::solutions(0), |t| all.push(t.to_vec()));
    all.sort();
    (all, r)
}

fn both(s: &PieceSet, rotations: bool) -> u64 {
    let (a, ra) = tilings(Method::Dlx, s, rotations);
    let (b, rb) = tilings(Method::Backtrack, s, rotations);
    assert_eq!(a, b, "the methods found different tilings");
    assert_eq!((ra.end, rb.end), (End::Complete, End::Complete));
    assert_eq!(ra.digest, rb.digest);
    assert_eq!(ra.tilings, a.len() as u64);
    ra.tilings
}

#[test]
fn two_dominoes_counted_by_hand() {
    let s = set("xx\n\nxx\n");
    // Translations: both horizontal, piece 1 on top or below: 2 tilings.
    assert_eq!(both(&s, false), 2);
    // Rotations add the two vertical tilings.
    assert_eq!(both(&s, true), 4);
    let (_, b) = tilings(Method::Backtrack, &s, false);
    // Nodes: the empty board, then the 2 boards holding piece 1; positions: 2 for piece 1,
    // then 2 for piece 2 on each of those boards.
    assert_eq!(b.stats.nodes, 3);
    assert_eq!(b.stats.counter("positions"), Some(6));
    let (_, d) = tilings(Method::Dlx, &s, false);
    // DLX1: the root, then one level under each of the two options of r1c1.
    assert_eq!(d.stats.nodes, 3);
    assert!(d.stats.updates.unwrap() > 0);
}

#[test]
fn bars_and_trominoes() {
    // Four I-tetrominoes: 4! orders of the rows, and as many of the columns with rotations.
    let bars = set("xxxx\n\nxxxx\n\nxxxx\n\nxxxx\n");
    assert_eq!(both(&bars, false), 24);
    assert_eq!(both(&bars, true), 48);
    // Three L-trominoes cannot tile the 3x3 board (a corner cell forces a bad one): zero
    // tilings is an answer, not an error.
    let ls = set("xx\nx\n\nxx\nx\n\nxx\nx\n");
    assert_eq!(both(&ls, true), 0);
    // Two I-trominoes and an L cannot either: 9 cells, but the L leaves a hole.
    let mixed = set("xxx\n\nxxx\n\nxx\nx\n");
    assert_eq!(both(&mixed, true), 0);
    // A horizontal and a vertical domino: no tiling by translation, four with rotations.
    let wide = set("size 2\nxx\n\nx\nx\n");
    assert_eq!(both(&wide, false), 0);
    assert_eq!(both(&wide, true), 4);
}

#[test]
fn limits_stop_and_say_which() {
    let bars = set("xxxx\n\nxxxx\n\nxxxx\n\nxxxx\n");
    let p = Placements::new(&bars, true);
    for method in [Method::Dlx, Method::Backtrack] {
        let cap = method.enumerate(&p, &Limits::solutions(5), |_| {});
        assert_eq!((cap.tilings, cap.end), (5, End::MaxTilings), "{method}");
        let nodes = Limits {
            max_solutions: 0,
            node_limit: Some(3),
            ..Limits::default()
        };
        let r = method.enumerate(&p, &nodes, |_| {});
        assert_eq!((r.end, r.stats.nodes), (End::NodeLimit, 3), "{method}");
        let time = Limits {
            max_solutions: 0,
            time_limit: Some(std::time::Duration::from_millis(20)),
            ..Limits::default()
        };
        // The visitor sleeps past the deadline: the clock is read right after it.
        let r = method.enumerate(&p, &time, |_| {
            std::thread::sleep(std::time::Duration::from_millis(30))
        });
        assert_eq!((r.tilings, r.end), (1, End::TimeLimit), "{method}");
    }
}

/// The time limit is the whole call's: `tile --method both --time-limit 5` took 10 s, each
/// method having its own 5 s.
#[test]
fn the_time_limit_covers_every_method() {
    // 16 bars of 16 cells: 2 x 16! tilings, more than any method lists in a second.
    let bars = set(&vec!["x".repeat(16); 16].join("\n\n"));
    let limit = std::time::Duration::from_millis(400);
    let options = TileOptions {
        rotations: true,
        methods: vec![Method::Dlx, Method::Backtrack],
        time_limit: Some(limit),
        ..TileOptions::default()
    };
    let start = std::time::Instant::now();
    let report = tile_and_solve(&bars, &options).unwrap();
    let took = start.elapsed();
    assert!(took < limit * 7 / 4, "{took:?}");
    assert!(report.runs.iter().all(|r| r.end == End::TimeLimit));
    // The first method's wall time holds its sudoku solves.
    let first = &report.runs[0];
    assert!(first.wall >= first.search_time);
    assert!(first.wall >= limit * 9 / 10, "{:?}", first.wall);
}

/// A unique 4x4 sudoku with 2x2 boxes, cut into its four boxes: the 24 orders of the boxes
/// are the tilings, and the original order has the known solution.
#[test]
fn boxes_of_a_4x4_sudoku_are_put_back() {
    let givens: Vec<u16> = "1.....2..3.....4"
        .chars()
        .map(|c| c.to_digit(10).unwrap_or(0) as u16)
        .collect();
    let regions: Vec<u16> = vec![0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3];
    let pieces = cut(4, &regions, &givens);
    let options = TileOptions {
        methods: vec![Method::Dlx, Method::Backtrack],
        max_solutions: 2,
        keep: 100,
        ..TileOptions::default()
    };
    let report = tile_and_solve(&pieces, &options).unwrap();
    assert_eq!(report.runs[0].tilings, 24);
    assert_eq!(report.agreement, Agreement::Same);
    assert_eq!(report.layouts, 1);
    assert_eq!(report.puzzles, 24);
    let original = report
        .shown
        .iter()
        .find(|f| f.puzzle.givens() == &givens[..])
        .expect("the original arrangement is among the tilings");
    let g = crate::puzzle::Geometry::square(4).unwrap();
    let reference = crate::puzzle::Puzzle::new(std::sync::Arc::new(g), givens.clone()).unwrap();
    let mut dlx = crate::engines::EngineSpec::new("dlx").make().unwrap();
    let want = crate::engines::run(dlx.as_mut(), &reference, &Limits::solutions(2));
    assert_eq!(original.outcome.status, want.status);
    assert_eq!(original.outcome.solutions, want.solutions);
    // Counts are consistent: every tiling is solved, unsat, undecided or unsupported.
    let s = &report.sudoku;
    assert_eq!(
        s.puzzles_unique
            + s.puzzles_multiple
            + s.puzzles_solved
            + s.puzzles_unsat
            + s.puzzles_undecided
            + s.puzzles_unsupported,
        24
    );
    assert_eq!((s.puzzles_undecided, s.puzzles_unsupported), (0, 0));
    assert_eq!(report.unsupported, None);
    assert!(s.tilings_unique >= 1);
    assert_eq!(s.tilings_solved, (report.shown.len()) as u64);
}

#[test]
fn clashing_givens_are_zero_solutions() {
    // Two horizontal dominoes each with a 1 on the left: stacked, the 1s share a column.
    let s = set("1x\n\n1x\n");
    let report = tile_and_solve(&s, &TileOptions::default()).unwrap();
    assert_eq!(report.runs[0].tilings, 2);
    assert_eq!(report.sudoku.tilings_solved, 0);
    assert_eq!(report.sudoku.tilings_unsat, 2);
    assert!(report.shown.is_empty());
    // Identical pieces swapped: one layout, one puzzle, solved once.
    assert_eq!((report.layouts, report.puzzles), (1, 1));
}

#[test]
fn unknown_engine_is_an_error() {
    let s = set("xx\n\nxx\n");
    let options = TileOptions {
        engine: "nope".parse().unwrap(),
        ..TileOptions::default()
    };
    assert!(tile_and_solve(&s, &options).is_err());
}
