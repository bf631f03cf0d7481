//! sudolab: a research tool for reductions of Sudoku-family puzzles.
//!
//! One puzzle model ([`puzzle`]), many ways to solve it ([`engines`]), and honest measurement
//! of all of them. Every rule of every variant is a *house*: a set of `N` cells holding each
//! digit once; engines and reductions consume the house list of a [`puzzle::Geometry`].

pub mod certify;
pub mod cli;
pub mod cnf;
pub mod engines;
pub mod exact_cover;
pub mod experiment;
pub mod generate;
pub mod plot;
pub mod puzzle;
pub mod records;
pub mod search;
pub mod tiling;
pub mod timing;
pub mod verify;
