//! sudolab: a research tool for reductions of Sudoku-family puzzles.
//!
//! One puzzle model ([`puzzle`]), many ways to solve it ([`engines`]), and honest measurement
//! of all of them. Every rule of every variant is a *house*: a set of `N` cells holding each
//! digit once; engines and reductions consume the house list of a [`puzzle::Geometry`].
//!
//! # Layers
//!
//! Each module uses only the ones listed before it (no import cycles; `tests/module_cycles.rs`):
//!
//! 1. [`puzzle`]: geometry, houses, cages, givens, the text formats; knows nothing of engines.
//! 2. [`search`] and [`timing`]: limits, the one [`search::Deadline`], outcomes, counters, CPU
//!    clocks.
//! 3. [`cnf`] (CNF encodings, DIMACS, SAT backends) and [`exact_cover`] (dancing links,
//!    Knuth's dlx1 format, colours); [`certify`] (canonical formulas, DRAT proofs and their
//!    checker) builds on `cnf`.
//! 4. [`engines`]: every solver behind one trait and one registry line each; [`generate`],
//!    [`verify`] and [`tiling`] (jigsaw pieces as exact cover) use them.
//! 5. [`records`], [`experiment`], [`plot`]: measurement, below.
//! 6. [`cli`]: the `sudolab` command (the `cli` feature).
//!
//! The module docs of [`puzzle`], [`engines`], [`cnf`] and [`exact_cover`] open with a
//! runnable example (parse, solve, encode to DIMACS, exact cover); `examples/` holds short
//! programs, `examples/read_runs.rs` among them for reading a run CSV.
//!
//! Measurement is three layers: [`experiment`] runs engines over puzzle sets and writes one
//! run record per run; [`records`] is those records (the column table, the checked reader and
//! writer, the sidecar, summaries and merge); [`plot`] draws charts and reports from records
//! alone. `experiment` and `plot` use `records`, `records` uses neither, and `plot` never uses
//! `experiment` (checked by `tests/module_cycles.rs`).
//!
//! # Features
//!
//! `cli` (default): the `sudolab` binary and [`cli`], with what only they use (`clap`,
//! `anyhow`, `indicatif`); the library's errors are its own types. A program that uses the library alone turns it off:
//! `sudolab = { path = "...", default-features = false }`.

pub mod certify;
#[cfg(feature = "cli")]
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
