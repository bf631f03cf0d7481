//! Exact cover: the problem ([`ExactCover`]), Knuth's DLX1 text format ([`read_dlx1`],
//! [`write_dlx1`]), the reduction of a Sudoku-family puzzle over its houses
//! ([`SudokuCover`]), polyomino packing ([`polyomino`]), and Algorithm X with dancing links
//! ([`Links`], [`solve_exact_cover`]; the `dlx` engine in [`crate::engines::dlx`]), and exact
//! cover with colours (Algorithm C, [`colors`]) with the killer formulation that uses it
//! ([`killer_colors`]).
//!
//! Sources: D. E. Knuth, "Dancing Links" (2000), arXiv cs/0011047; Knuth's programs DLX1 and
//! DLX2 and *The Art of Computer Programming* 7.2.2.1. Each file cites what it follows.
//!
//! # Example
//!
//! Build a puzzle's exact-cover matrix (cells and house-digit pairs as items, placements
//! as options, the givens' items covered) and solve it with dancing links:
//!
//! ```
//! use sudolab::engines::{Limits, Status};
//! use sudolab::exact_cover::{solve_exact_cover, SudokuCover};
//! use sudolab::puzzle::{read_str, ReadOptions};
//!
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let (_, puzzles) = read_str(line, "example", &ReadOptions::default())?;
//! let puzzle = &puzzles[0].puzzle;
//! let matrix = SudokuCover::for_puzzle(puzzle);
//! let cover = matrix.cover();
//! assert_eq!(cover.primary_items(), 4 * (81 - 30));
//! let limits = Limits { max_solutions: 2, ..Limits::default() };
//! let outcome = solve_exact_cover(cover, &limits);
//! assert_eq!((outcome.status, outcome.count), (Status::Unique, 1));
//! let grid = matrix.grid(&outcome.solutions[0]);
//! assert!(puzzle.check_solution(&grid).is_ok());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod algorithm_x;
pub mod colors;
pub mod dlx1_format;
pub mod killer;
pub mod killer_colors;
pub mod links;
pub mod polyomino;
pub mod preprocess;
pub mod problem;
pub mod propagate;
pub mod solve;
pub mod sudoku;

pub use dlx1_format::{read_dlx1, read_dlx1_until, to_dlx1, write_dlx1, Dlx1Error, Dlx1ErrorKind};
pub use links::Links;
pub use preprocess::{preprocess, PreStats, Preprocessed, Reduction};
pub use problem::{CoverError, ExactCover, SolutionError};
pub use solve::{solve_exact_cover, solve_exact_cover_pre, CoverOutcome};
pub use sudoku::{decode_named, item_names, side_from_names, DecodeNamedError, SudokuCover};

#[cfg(test)]
pub(crate) mod tests;
