//! The errors of the records layer: a kind, and where (file, line, field) when a file's
//! contents are at fault, as the `csv` crate reports them. Their texts are the messages the
//! command line prints (`sudolab: ` and the error with its causes).

use std::path::{Path, PathBuf};

/// What could not be done to a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAction {
    Open,
    Create,
    CreateDir,
    Read,
    /// Reading failed inside the data, which for a record file is most likely a damaged gzip.
    Decode,
    Write,
    /// Reading a chart to inline in a report.
    ReadChart,
    /// Writing a report page.
    WriteReport,
}

impl std::fmt::Display for FileAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileAction::Open => "cannot open",
            FileAction::Create => "cannot create",
            FileAction::CreateDir => "cannot create directory",
            FileAction::Read => "cannot read",
            FileAction::Decode => "cannot read (corrupt or truncated gzip?)",
            FileAction::Write => "cannot write",
            FileAction::ReadChart => "cannot read chart",
            FileAction::WriteReport => "cannot write the report",
        })
    }
}

/// A file could not be opened, read or written; the system's error is the cause.
#[derive(Debug, thiserror::Error)]
#[error("{}: {action}", .path.display())]
pub struct FileError {
    pub path: PathBuf,
    pub action: FileAction,
    #[source]
    pub source: std::io::Error,
}

impl FileError {
    pub fn new(path: &Path, action: FileAction, source: std::io::Error) -> FileError {
        FileError {
            path: path.to_path_buf(),
            action,
            source,
        }
    }
}

/// A row (or the header) of a record file that the reader refused, and where:
/// `FILE:LINE[:FIELD]: ...`, LINE being the line the row starts on and FIELD the 1-based field
/// number.
#[derive(Debug, thiserror::Error)]
#[error("{}:{line}{}: {kind}", .path.display(), .field.map(|f| format!(":{f}")).unwrap_or_default())]
pub struct RowError {
    pub path: PathBuf,
    pub line: u64,
    pub field: Option<usize>,
    pub kind: RowErrorKind,
}

/// What is wrong with a row.
#[derive(Debug, thiserror::Error)]
pub enum RowErrorKind {
    /// The header is not CSV.
    #[error("expected CSV text, found {0}")]
    HeaderNotCsv(csv::Error),
    /// A row is not CSV (a broken quote, bytes the CSV layer refuses).
    #[error("expected CSV text: {0}")]
    RowNotCsv(csv::Error),
    /// A row has another number of fields than the header.
    #[error("expected {expected} fields like the header, found {found}")]
    FieldCount { expected: usize, found: u64 },
    /// A column the records need is not in the header: the file is not a run output.
    #[error(
        "expected the header of a CSV written by `sudolab run` (columns {}, ...), found {found:?}: \
         {detail}",
        super::COLUMNS[..3].join(", ")
    )]
    NotRunOutput { found: String, detail: String },
    /// A cell that does not hold what its column does.
    #[error("column `{column}`: expected {expected}, found {found:?}")]
    BadCell {
        column: String,
        expected: String,
        found: String,
    },
    /// A column whose value is impossible, not found in the header.
    #[error("column `{column}`: expected {expected}")]
    BadColumn { column: String, expected: String },
}

/// Another process holds the lock on an output.
#[derive(Debug, thiserror::Error)]
#[error(
    "{}: another `sudolab run` is writing this output (it holds the output's lock); wait for \
     it to end, or use --out to write elsewhere",
    .0.display()
)]
pub struct OutputBusy(pub PathBuf);

/// Any error of the records layer.
#[derive(Debug, thiserror::Error)]
pub enum RecordsError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Row(#[from] RowError),
    #[error(transparent)]
    Busy(#[from] OutputBusy),
    /// A sidecar that is not JSON.
    #[error("{}: not a JSON sidecar", .path.display())]
    NotJson {
        path: PathBuf,
        #[source]
        source: serde_json::Error,
    },
    /// An output whose sidecar (and charts and report) would be those of another output
    /// beside it ([`super::sidecar::check_owner`]).
    #[error(
        "{}: its sidecar {} (and charts {stem}-*.svg, report {stem}.html) would be those of {}, \
         which is beside it: outputs whose names differ only in .csv or .gz share them, and \
         this run would overwrite what {} needs to be resumed or merged; use --out with another \
         name, or move {} away",
        .output.display(),
        .sidecar.display(),
        .other.display(),
        .other.display(),
        .other.display()
    )]
    SharedSidecar {
        output: PathBuf,
        sidecar: PathBuf,
        other: PathBuf,
        stem: String,
    },
}

/// Why `sudolab merge` refused its inputs or could not write the merged output (boxed: the
/// kinds hold several paths).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct MergeError(pub Box<MergeErrorKind>);

impl MergeError {
    pub fn kind(&self) -> &MergeErrorKind {
        &self.0
    }
}

impl<E: Into<MergeErrorKind>> From<E> for MergeError {
    fn from(e: E) -> Self {
        MergeError(Box::new(e.into()))
    }
}

/// What `sudolab merge` found wrong.
#[derive(Debug, thiserror::Error)]
pub enum MergeErrorKind {
    #[error("merge: no input files")]
    NoInputs,
    #[error("{}: already exists; pass --force to replace it", .0.display())]
    OutputExists(PathBuf),
    #[error("{}: is both an input and the output", .0.display())]
    InputIsOutput(PathBuf),
    #[error("{}: its sidecar is needed to merge it", .input.display())]
    NoSidecar {
        input: PathBuf,
        #[source]
        source: RecordsError,
    },
    /// Two sidecars differ in `key` (`experiment`, `fingerprint` or `jobs_total`).
    #[error(
        "{}: {key} is {value}, but {} has {first_value}: these outputs are not shards of one \
         experiment",
        .sidecar.display(),
        .first_sidecar.display()
    )]
    NotShards {
        sidecar: PathBuf,
        key: &'static str,
        value: serde_json::Value,
        first_sidecar: PathBuf,
        first_value: serde_json::Value,
    },
    #[error("{}: no jobs_total", .0.display())]
    NoJobsTotal(PathBuf),
    #[error("{}:1: not a sudolab run output (the header differs from this version's)", .0.display())]
    HeaderDiffers(PathBuf),
    /// The inputs do not hold every job exactly once.
    #[error("merge: the inputs do not hold each of the {total} jobs exactly once{problems}")]
    Jobs { total: u64, problems: String },
    /// A puzzle that one input holds under one number and another input under another.
    #[error(
        "{}:{line}: puzzle {index} of dataset {} is {puzzle:?}, which {}:{first_line} has as \
         puzzle {first_index}: {why}",
        .input.display(),
        .why.dataset,
        .first_input.display()
    )]
    PuzzleClash {
        input: PathBuf,
        line: usize,
        index: u64,
        puzzle: String,
        first_input: PathBuf,
        first_line: usize,
        first_index: u64,
        why: DifferentPuzzles,
    },
    #[error("{}: {why}", .input.display())]
    PuzzleFiles {
        input: PathBuf,
        why: DifferentPuzzles,
    },
    #[error(transparent)]
    Records(#[from] RecordsError),
}

impl From<FileError> for MergeErrorKind {
    fn from(e: FileError) -> Self {
        MergeErrorKind::Records(e.into())
    }
}

impl From<RowError> for MergeErrorKind {
    fn from(e: RowError) -> Self {
        MergeErrorKind::Records(e.into())
    }
}

/// Two shards' sidecars give one dataset different puzzle fingerprints.
#[derive(Debug, thiserror::Error)]
#[error(
    "the shards were run on different puzzle files (dataset {dataset}: puzzle fingerprint \
     {fingerprint} in {}, {first_fingerprint} in {}); run every shard on the same files",
    .sidecar.display(),
    .first_sidecar.display()
)]
pub struct DifferentPuzzles {
    pub dataset: String,
    pub fingerprint: String,
    pub sidecar: PathBuf,
    pub first_fingerprint: String,
    pub first_sidecar: PathBuf,
}
