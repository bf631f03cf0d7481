//! Reads a puzzle from text, makes an engine from a spec string (the same `NAME:KEY=VALUE,...`
//! that `sudolab solve --engine` and experiment files take), solves the puzzle counting up to
//! two solutions (two prove that it is not unique), checks the answer and prints it.
//!
//! ```text
//! cargo run --release --example parse_and_solve             # the dlx engine
//! cargo run --release --example parse_and_solve -- sat:encoding=minimal
//! ```

use sudolab::engines::{self, EngineSpec, Limits, Status};
use sudolab::puzzle::{read_str, write_grid, OutputFormat, ReadOptions};

/// The first grid of Project Euler 96 in the line format: 81 cells, `0` for an empty one.
const PUZZLE: &str =
    "003020600900305001001806400008102900700000008006708200002609500800203009005010300";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The reader detects the format (line, grid, puzzlekit JSON, ...) and the size.
    let (_format, puzzles) = read_str(PUZZLE, "<example>", &ReadOptions::default())?;
    let puzzle = &puzzles[0].puzzle;

    let spec: EngineSpec = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "dlx".to_string())
        .parse()?;
    let mut engine = spec.make()?;

    // `engines::run` checks every solution the engine reports against the houses and givens.
    let outcome = engines::run(engine.as_mut(), puzzle, &Limits::solutions(2));
    println!(
        "{spec}: {} ({} solution(s), {} guesses, {:.3} ms of CPU)",
        outcome.status,
        outcome.count,
        outcome.stats.guesses,
        (outcome.build + outcome.solve).as_secs_f64() * 1e3
    );
    if outcome.status != Status::Unique {
        return Err(format!("expected a unique solution, found {}", outcome.status).into());
    }
    let solution = &outcome.solutions[0];
    puzzle.check_solution(solution)?;
    println!(
        "{}",
        write_grid(solution, puzzle.geometry(), OutputFormat::Grid, None)
    );
    Ok(())
}
