//! The answer to sudoku-225-1 that results/README.md reports ("The hard public instances"):
//! the solution Kissat found in about half an hour, kept in results/ so that the claim is
//! checked on every test run without the search. Checked twice: by the model's own
//! `check_solution`, and by counting digits per row, column and box here.

use std::path::Path;
use sudolab::puzzle::{read_file, ReadOptions};

fn root(path: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

#[test]
fn the_reported_solution_of_sudoku_225_1_is_one() {
    let options = ReadOptions::default();
    let (_, puzzles) = read_file(&root("data/rk-225x225-1.txt"), &options).unwrap();
    let (_, solutions) = read_file(&root("results/rk-225x225-1.solution.txt"), &options).unwrap();
    assert_eq!((puzzles.len(), solutions.len()), (1, 1));
    let puzzle = &puzzles[0].puzzle;
    let grid = solutions[0].puzzle.givens();
    assert_eq!(puzzle.n(), 225);
    assert_eq!(puzzle.clues(), 33_928);
    puzzle.check_solution(grid).unwrap();

    // The same facts counted by hand: the givens kept, and 1..=225 once in every row, column
    // and 15x15 box.
    let (n, b) = (225usize, 15usize);
    for (cell, (&given, &digit)) in puzzle.givens().iter().zip(grid).enumerate() {
        assert!(
            given == 0 || given == digit,
            "cell {cell}: given {given}, {digit}"
        );
    }
    let once = |cells: &mut dyn Iterator<Item = usize>, what: String| {
        let mut seen = vec![false; n + 1];
        for c in cells {
            let d = grid[c] as usize;
            assert!(
                (1..=n).contains(&d) && !seen[d],
                "{what}: digit {d} twice or out of range"
            );
            seen[d] = true;
        }
    };
    for i in 0..n {
        once(&mut (0..n).map(|c| i * n + c), format!("row {i}"));
        once(&mut (0..n).map(|r| r * n + i), format!("column {i}"));
        let (top, left) = (i / b * b, i % b * b);
        once(
            &mut (0..n).map(|k| (top + k / b) * n + left + k % b),
            format!("box {i}"),
        );
    }
}
