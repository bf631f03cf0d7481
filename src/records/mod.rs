//! Run records: one CSV row per run, the schema every experiment output, merge, chart and
//! report shares, and everything that reads or writes such rows without running anything.
//!
//! [`record`] holds [`Record`] and the table of its columns ([`record::COLUMN_TABLE`]: name,
//! kind and cell, in CSV order), from which the header and the count columns derive;
//! [`reader`] the checked reader of rows ([`read_records`], [`reader::RowReader`]), [`writer`]
//! the runner's byte writer of rows; [`rowfile`] the files on disk (plain or gzip), [`sidecar`]
//! the JSON metadata written next to them, [`summary`] the per-configuration statistics, and
//! [`merge`] the join of the shards of one experiment. Their errors are typed ([`error`]): a
//! kind and, where a file's contents are at fault, the file, line and field.
//!
//! This layer sits below the runner (`experiment`) and the charts (`plot`), which both use it;
//! it imports neither (`tests/module_cycles.rs`).

pub mod error;
pub mod merge;
pub mod reader;
pub mod record;
pub mod rowfile;
pub mod sidecar;
pub mod summary;
pub mod writer;

pub use error::{FileError, MergeError, RecordsError, RowError};
pub use reader::read_records;
pub use record::{puzzle_text, Record, RunKey, COLUMNS};
pub use summary::{format_table, summarize, SummaryLine};
