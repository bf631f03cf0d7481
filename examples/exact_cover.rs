//! Builds the exact-cover matrix of a puzzle (Knuth's reduction: an item per cell and per
//! house and digit, an option per cell and digit, the givens eliminated), counts its items,
//! options and ones, solves it with dancing links (DLX1), turns the chosen options back into
//! a grid and checks it; then solves the same puzzle through the `dlx` engine.
//!
//! ```text
//! cargo run --release --example exact_cover
//! ```
//!
//! `sudolab encode PUZZLE --to dlx` writes the matrix in Knuth's DLX1 text format.

use sudolab::engines::{self, EngineSpec, Limits};
use sudolab::exact_cover::{solve_exact_cover, SudokuCover};
use sudolab::puzzle::{read_str, ReadOptions};

/// The first grid of Project Euler 96 in the line format: 81 cells, `0` for an empty one.
const PUZZLE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (_format, puzzles) = read_str(PUZZLE, "<example>", &ReadOptions::default())?;
    let puzzle = &puzzles[0].puzzle;

    let matrix = SudokuCover::for_puzzle(puzzle);
    let cover = matrix.cover();
    println!(
        "{} items, {} options, {} ones (the full 9x9 matrix: 324 / 729 / 2916)",
        cover.items(),
        cover.options(),
        cover.ones()
    );

    // Count up to two exact covers: one is the solution, a second would make it not unique.
    let outcome = solve_exact_cover(cover, &Limits::solutions(2));
    println!(
        "DLX1: {} ({} cover(s), {} nodes, {} updates)",
        outcome.status,
        outcome.count,
        outcome.stats.nodes,
        outcome.stats.updates.unwrap_or(0)
    );
    let grid = matrix.grid(&outcome.solutions[0]);
    puzzle.check_solution(&grid)?;

    // The `dlx` engine searches the same matrix (same items, options and order).
    let mut engine = EngineSpec::new("dlx").make()?;
    let run = engines::run(engine.as_mut(), puzzle, &Limits::solutions(2));
    println!("dlx engine: {} in {} nodes", run.status, run.stats.nodes);
    assert_eq!(run.solutions[0], grid);
    Ok(())
}
