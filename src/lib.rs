//! sudolab: a research tool for reductions of Sudoku-family puzzles.
//!
//! One puzzle model ([`puzzle`]), many ways to solve it ([`engines`]), and honest measurement
//! of all of them. Every rule of every variant is a *house*: a set of `N` cells holding each
//! digit once; engines and reductions consume the house list of a [`puzzle::Geometry`].
//!
//! Measurement is three layers: [`experiment`] runs engines over puzzle sets and writes one
//! run record per run; [`records`] is those records (the column table, the checked reader and
//! writer, the sidecar, summaries and merge); [`plot`] draws charts and reports from records
//! alone. `experiment` and `plot` use `records`, `records` uses neither, and `plot` never uses
//! `experiment` (checked by `tests/module_cycles.rs`).

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
