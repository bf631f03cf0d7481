//! Experiments: puzzle sets x engine configurations x repetitions, run with limits, one CSV
//! row per run ([`record`]), summarised per configuration ([`summary`]).
//!
//! Conventions follow the SAT-competition practice: per-run CPU time beside wall time, a
//! per-run time limit, PAR-2 scoring, the median of repeated runs, machine metadata saved
//! beside the results.

pub mod record;
pub mod summary;

pub use record::{puzzle_text, read_records, Record, RunKey, COLUMNS};
pub use summary::{format_table, summarize, SummaryLine};
