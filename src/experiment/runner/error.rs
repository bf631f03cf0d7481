//! Why `sudolab run` stopped before or while running its jobs.
//!
//! The errors of the layers below (an experiment file, a puzzle file, the records) are
//! wrapped as they are; the runner's own conditions (an output it will not overwrite or
//! continue, a plan too large, a signal) have their variants. Each text is the message the
//! command line prints after `sudolab: `, the causes following it.

use super::signals::Interrupted;
use crate::experiment::config::ConfigError;
use crate::experiment::jobs::{self, Shard};
use crate::puzzle::ParseError;
use crate::records::error::{FileError, RecordsError, RowError};
use std::path::PathBuf;

/// A run that could not start, or stopped before its last job (boxed: the kinds hold several
/// paths).
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct RunError(pub Box<RunErrorKind>);

impl RunError {
    pub fn kind(&self) -> &RunErrorKind {
        &self.0
    }
}

impl<E: Into<RunErrorKind>> From<E> for RunError {
    fn from(e: E) -> Self {
        RunError(Box::new(e.into()))
    }
}

/// Why a run could not start, or stopped before its last job.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunErrorKind {
    /// The experiment file is bad.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A dataset's puzzle file could not be read.
    #[error("{error} (datasets[{index}] of {})", .experiment.display())]
    Dataset {
        index: usize,
        experiment: PathBuf,
        error: ParseError,
    },
    /// The output or its sidecar is one of the experiment's puzzle files.
    #[error(
        "{}: {} would be overwritten by the run's {what}, and it is datasets[{index}]'s puzzle \
         file; choose another output (--out or `output`)",
        .experiment.display(),
        .written.display()
    )]
    OverwritesDataset {
        experiment: PathBuf,
        written: PathBuf,
        /// `output` or `sidecar`.
        what: &'static str,
        index: usize,
    },
    /// More jobs than one run plans ([`jobs::MAX_JOBS`]); `jobs` is `None` past 2^64.
    #[error(
        "{}{position}: repetitions: {puzzles} puzzles x {configurations} configurations x \
         {repetitions} repetitions: {} jobs{}; one run plans at most {} (split it with \
         --shard, or use fewer repetitions, configurations or puzzles, `first`)",
        .experiment.display(),
        .jobs.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string()),
        .shard.map_or(String::new(), |s| format!(" in shard {s}")),
        jobs::MAX_JOBS
    )]
    TooManyJobs {
        experiment: PathBuf,
        /// `:LINE:COLUMN` of `repetitions` in the file, or nothing.
        position: String,
        puzzles: usize,
        configurations: usize,
        repetitions: u64,
        jobs: Option<u64>,
        shard: Option<Shard>,
    },
    /// More jobs left to run than one invocation runs (`u32::MAX`).
    #[error(
        "{}: {jobs} jobs to run; one invocation runs at most {} (use --shard to split them)",
        .experiment.display(),
        u32::MAX
    )]
    TooManyToRun { experiment: PathBuf, jobs: usize },
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A row of an existing output is bad (other than a torn last one).
    #[error(transparent)]
    Row(#[from] RowError),
    /// The output's lock, its sidecar's name or the sidecar's text.
    #[error(transparent)]
    Records(#[from] RecordsError),
    /// An existing output could not be cut back to its complete rows or opened for appending.
    #[error("{}: {action}", .path.display())]
    Output {
        path: PathBuf,
        action: OutputAction,
        #[source]
        source: std::io::Error,
    },
    /// An output ending in `.gz` that is not gzip.
    #[error("{}: not a gzip file (a name ending in .gz is written compressed)", .0.display())]
    NotGzip(PathBuf),
    /// An output whose header is not this version's.
    #[error(
        "{}:1: not a sudolab run output (the header differs from this version's)",
        .0.display()
    )]
    HeaderDiffers(PathBuf),
    /// An output with rows whose sidecar cannot be read.
    #[error(
        "{}: holds {rows} rows but its sidecar {} cannot be read, so nothing tells which \
         experiment wrote them; use --out to write elsewhere (or remove the output to start it \
         over)",
        .output.display(),
        .sidecar.display()
    )]
    NoSidecar {
        output: PathBuf,
        rows: usize,
        sidecar: PathBuf,
        #[source]
        source: RecordsError,
    },
    /// The output was begun by another experiment text.
    #[error(
        "{}: written by a different experiment file (fingerprint {}, {} now has {now}); use \
         --out to start a new output",
        .sidecar.display(),
        .fingerprint.as_deref().unwrap_or("missing"),
        .experiment.display()
    )]
    DifferentExperiment {
        sidecar: PathBuf,
        /// The sidecar's fingerprint, if it has one.
        fingerprint: Option<String>,
        experiment: PathBuf,
        now: String,
    },
    /// The output was begun for another shard (`""`: no shard).
    #[error("{}: written for shard {was:?}, not {now:?}", .sidecar.display())]
    DifferentShard {
        sidecar: PathBuf,
        was: String,
        now: String,
    },
    /// A row of the output whose job number is not one of this experiment and shard.
    #[error(
        "{}:{line}: job {job}, which is not a job of this experiment and shard",
        .output.display()
    )]
    ForeignJob {
        output: PathBuf,
        line: usize,
        job: u64,
    },
    /// A row of the output whose puzzle is not the one its job names now.
    #[error(
        "{}:{line}: job {job} is puzzle {puzzle_index} of dataset {dataset}, {}:{dataset_line}: \
         expected {expected:?}, found puzzle {found_index} {found:?}: the puzzle file is not \
         the one these rows were run on; use --out to start a new output",
        .output.display(),
        .dataset_path.display()
    )]
    DifferentPuzzle {
        output: PathBuf,
        line: usize,
        job: u64,
        /// The puzzle's 1-based number in its dataset.
        puzzle_index: usize,
        dataset: String,
        dataset_path: PathBuf,
        /// The line of the puzzle file the expected puzzle starts on.
        dataset_line: usize,
        expected: String,
        found_index: u64,
        found: String,
    },
    /// Two rows of the output have the same job.
    #[error("{}:{line}: job {job} appears twice", .output.display())]
    DuplicateJob {
        output: PathBuf,
        line: usize,
        job: u64,
    },
    /// An incomplete output, without `--resume`.
    #[error(
        "{}: already exists with {done} of the {jobs} jobs of this experiment{}; pass \
         --resume to run the other {}, or --out to write elsewhere",
        .output.display(),
        if .shard.is_empty() { String::new() } else { format!(" and shard {}", .shard) },
        .jobs - .done
    )]
    NeedsResume {
        output: PathBuf,
        done: usize,
        jobs: usize,
        /// The shard (`i/N`), or empty.
        shard: String,
    },
    #[error("cannot start a worker thread")]
    SpawnWorker(#[source] std::io::Error),
    /// Every worker thread ended with jobs left (a bug).
    #[error("internal error: every worker stopped with {finished} of {total} jobs done")]
    WorkersGone { finished: usize, total: usize },
    /// SIGINT, SIGTERM or SIGHUP.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
}

/// What could not be done to an existing output ([`RunErrorKind::Output`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputAction {
    OpenForWriting,
    Truncate,
    OpenForAppending,
}

impl std::fmt::Display for OutputAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OutputAction::OpenForWriting => "cannot open for writing",
            OutputAction::Truncate => "cannot truncate",
            OutputAction::OpenForAppending => "cannot open for appending",
        })
    }
}
