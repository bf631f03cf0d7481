//! Exact cover: the problem ([`ExactCover`]), Knuth's DLX1 text format ([`read_dlx1`],
//! [`write_dlx1`]), the reduction of a Sudoku-family puzzle over its houses
//! ([`SudokuCover`]), polyomino packing ([`polyomino`]), and Algorithm X with dancing links
//! ([`Links`], [`solve_exact_cover`]; the `dlx` engine in [`crate::engines::dlx`]), and exact
//! cover with colours (Algorithm C, [`colors`]) with the killer formulation that uses it
//! ([`killer_colors`]).
//!
//! Sources: D. E. Knuth, "Dancing Links" (2000), arXiv cs/0011047; Knuth's programs DLX1 and
//! DLX2 and *The Art of Computer Programming* 7.2.2.1. Each file cites what it follows.

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
