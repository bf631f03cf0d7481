//! Run records: one CSV row per run, the schema every experiment output, merge, chart and
//! report shares, and everything that reads or writes such rows without running anything.
//!
//! [`record`] holds [`Record`], the column list and the checked reader of rows ([`read_records`],
//! [`record::RowReader`]) with the runner's byte writer of rows; [`rowfile`] the files on disk
//! (plain or gzip), [`sidecar`] the JSON metadata written next to them, [`summary`] the
//! per-configuration statistics, and [`merge`] the join of the shards of one experiment.
//!
//! This layer sits below the runner (`experiment`) and the charts (`plot`), which both use it;
//! it imports neither (`tests/module_cycles.rs`).

pub mod merge;
pub mod record;
pub mod rowfile;
pub mod sidecar;
pub mod summary;

pub use record::{puzzle_text, read_records, Record, RunKey, COLUMNS};
pub use summary::{format_table, summarize, SummaryLine};
