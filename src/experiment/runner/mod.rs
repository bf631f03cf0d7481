//! `sudolab run`: runs an experiment's jobs on T threads, one CSV row per job, with a watchdog.
//!
//! **Validation first.** The experiment file is parsed and every engine configuration made
//! ([`super::config`]), then every dataset file is read; any error stops before a job runs
//! (exit 2). A puzzle with clashing givens is not an error: engines answer `unsat`.
//!
//! **Threads.** T worker threads (`--threads`, else `threads` of the file, else all cores)
//! take jobs from a shared queue in run order ([`super::jobs`]); each job runs on one thread,
//! and each thread keeps one engine per configuration (engines cache per-geometry work, and
//! CPU time is per thread, see [`crate::timing`]). Plain threads rather than a rayon pool: an
//! engine that ignores its clock holds its thread forever, and the runner must be able to
//! start a replacement thread and finish without joining the stuck one.
//!
//! **Watchdog.** The main thread watches the jobs in flight every 20 ms (every 200 ms, the
//! flush interval, when no job has a time limit and no progress is shown: it then has
//! nothing to watch, and each wake-up of a second thread costs the worker on a busy machine;
//! the worker that hands over the last row wakes it at once). At a job's time limit
//! it sets the job's cancel flag (engines also poll their own clock). If the job is still
//! running at the *hard deadline*, 2 x time limit + 1 s after it started, the watchdog writes
//! its row itself as `time-limit` with a note saying the engine did not stop and its thread
//! was abandoned (`solve_s` is then the wall time, CPU time being unknown; node counts are
//! empty), starts a replacement thread, and discards the late result if it ever arrives. The
//! run then ends normally; the process exits with the stuck thread still running. Jobs
//! without a time limit have no deadline.
//!
//! **One thread per job.** The sat engine's `backend=auto` never races two solvers in a run
//! ([`crate::engines::sat::set_auto_may_race`]): the jobs already share the cores.
//!
//! **Failures are rows.** An engine that cannot be made, returns an invalid solution or
//! panics (caught with `catch_unwind`; the engine object is then dropped and made anew) gives
//! a row with status `error` and the reason in `note`, and the run goes on.
//!
//! **Output.** Rows are appended in the order jobs finish, to a plain CSV or, for a path
//! ending in `.gz`, to a gzip file of one member per write ([`crate::records::rowfile`]). A
//! worker formats its row as soon as the job ends, into its own reused buffer
//! ([`crate::records::writer::write_row`]: what is known in advance is prepared once per
//! dataset and per configuration, nothing is kept per puzzle), and appends it to the pending
//! rows under a short lock. The pending rows are written with one `write` (one gzip member):
//!
//! - by the watchdog thread at least every [`FLUSH_EVERY`] (200 ms),
//! - by the worker that brings them to [`FLUSH_BYTES`] (256 KB),
//! - on every way out: all jobs done, a write error, a worker-less run, and SIGINT, SIGTERM
//!   or SIGHUP (caught while the jobs run: the watchdog writes the rows and the sidecar, then
//!   the command exits with 128 + the signal number).
//!
//! This is the **durability rule**: a run killed by SIGKILL (or a power cut) loses at most
//! the rows of the last 200 ms (plus scheduling delay) and the jobs in flight, never a row in
//! the middle of the file; `--resume` runs exactly the jobs missing. A `write` per row cost
//! more than the engines on fast puzzles (+12% over the bare loop of `scripts/bench/runner.sh`).
//!
//! **One run per output.** The run holds an exclusive advisory lock on its output
//! ([`OutputLock`]) from before it reads it until the CLI has drawn its charts: a second run
//! on the same output is refused (exit 2) instead of duplicating jobs and tearing lines, and
//! the lock dies with its process, so a SIGKILL never blocks the `--resume` after it. An
//! output whose sidecar (and chart and report names) would be another existing output's
//! (`x.csv` beside `x.csv.gz`) is refused before anything is written
//! ([`sidecar::check_owner`]).
//!
//! **Existing outputs.** The sidecar is written before the CSV's header, so an output with a
//! row always has its sidecar. An output without a complete row (killed in its first
//! milliseconds, or an empty shard) is started over. An output holding every job of the
//! experiment (and shard) is *complete*: `run` reports it, prints its summary and exits 0,
//! changing nothing, with or without `--resume`, so the same command can be typed twice. An
//! incomplete output is continued only with `--resume`: a torn last row (or gzip member) is
//! cut off, the jobs already present (by `job` number) are skipped, the sidecar's fingerprint
//! and shard must match, and the missing jobs are appended: the rows then equal those of an
//! uninterrupted run (timings aside). `--resume` on a missing output simply starts it, so a
//! batch script can always pass it.
//!
//! **Afterwards.** The sidecar ([`crate::records::sidecar`]) is written at the start and the end (and
//! when a run is interrupted: its session then has `interrupted_by`); the summary of every row
//! of the output (a resumed run summarises all of it) is returned for the CLI to print, with
//! the experiment's chart specs and the sidecar: `sudolab run` then draws the charts and the
//! HTML report next to the output (`crate::plot::draw_run_charts`) unless disabled or the
//! output has no row, and their failure is only a warning.

//!
//! **Files.** `load` reads the datasets, `resume` reads and checks an existing output,
//! `metadata` writes the sidecar, `pool` holds the worker threads and the rows on their way
//! to the file, `watchdog` watches them, `signals` catches the signals, `finish` sums up the
//! output, and `error` says why a run stopped. The progress display is the
//! caller's ([`Progress`]): the command line draws a bar on a terminal.

mod error;
mod finish;
mod load;
mod metadata;
mod pool;
mod resume;
mod signals;
#[cfg(test)]
mod testing;
mod watchdog;

pub use error::{OutputAction, RunError, RunErrorKind};
pub use signals::Interrupted;

use super::config::{self, EngineFactory, Experiment};
use super::jobs::{self, Job, Shard};
use crate::plot::ChartSpec;
use crate::records::record::Record;
use crate::records::rowfile::{OutputLock, RowSink};
use crate::records::sidecar;
use crate::records::summary::{summarize, SummaryLine};
use crate::records::RecordsError;
use crate::records::{error::FileAction, error::FileError};
use load::Loaded;
use metadata::Sidecar;
use pool::{lock, Shared};
use resume::{Earlier, Existing};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The durability window: rows are written at least this often (by the watchdog thread), so a
/// run killed by SIGKILL loses at most the rows of the last window and the jobs in flight.
pub const FLUSH_EVERY: Duration = Duration::from_millis(200);

/// Rows are also written as soon as this many bytes are pending (a fast engine fills it in
/// well under [`FLUSH_EVERY`]; it bounds the buffer and the size of a gzip member).
pub const FLUSH_BYTES: usize = 256 * 1024;

/// The hard deadline of a job with time limit `limit`: 2 x limit + 1 s after its start.
pub fn hard_deadline(limit: Duration) -> Duration {
    limit * 2 + Duration::from_secs(1)
}

/// How far a run has got, shown as it runs (the command line draws a progress bar on a
/// terminal). Called from the thread that called [`run`], about every 20 ms: [`start`]
/// once the jobs are planned, [`set_position`] as they finish, then [`finish`] when all are
/// done or [`abandon`] when a write error or a signal stops the run. (After another error,
/// none of the last two.) Every method does nothing by default.
///
/// [`start`]: Progress::start
/// [`set_position`]: Progress::set_position
/// [`finish`]: Progress::finish
/// [`abandon`]: Progress::abandon
pub trait Progress: Send + Sync {
    /// The run is about to run `total` jobs.
    fn start(&self, _total: u64) {}
    /// `done` of them have their row.
    fn set_position(&self, _done: u64) {}
    /// Every job has its row: the display may go.
    fn finish(&self) {}
    /// The run stops before its last job: the display stays as it is.
    fn abandon(&self) {}
}

/// What `sudolab run` was asked.
#[derive(Clone)]
pub struct RunOptions {
    pub threads: Option<usize>,
    pub shard: Option<Shard>,
    pub resume: bool,
    /// Output CSV instead of the file's `output`.
    pub out: Option<PathBuf>,
    /// Where to show the run's progress (none: nothing is shown).
    pub progress: Option<Arc<dyn Progress>>,
    /// The command line, for the sidecar.
    pub command: Vec<String>,
    pub factory: Arc<EngineFactory>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            threads: None,
            shard: None,
            resume: false,
            out: None,
            progress: None,
            command: Vec::new(),
            factory: Arc::new(config::registered_engine),
        }
    }
}

/// What a run did.
pub struct RunReport {
    pub output: PathBuf,
    pub sidecar: PathBuf,
    /// The summary of every row of the output (earlier sessions included), in job order.
    pub summary: Vec<SummaryLine>,
    /// Rows in the output (earlier sessions included).
    pub rows: usize,
    /// Jobs run by this invocation (rows written).
    pub ran: usize,
    /// Jobs skipped because the output already had them (`--resume`).
    pub skipped: usize,
    /// Jobs whose thread was abandoned at the hard deadline.
    pub abandoned: usize,
    /// The output already held every job of the experiment (and shard): nothing was run or
    /// written, and `summary` is the output's.
    pub already_complete: bool,
    /// The experiment's `[[charts]]` (empty: the default charts), for drawing after the run.
    pub charts: Vec<ChartSpec>,
    /// The sidecar as written by this run (`Null` when nothing ran), for the report.
    pub metadata: Value,
    /// The output's lock, held until the report is dropped: the CLI draws the charts and
    /// the report first, and they are this run's too.
    _lock: OutputLock,
}

impl RunReport {
    /// Every row of the output, read back from the file, in job order.
    pub fn records(&self) -> Result<Vec<Record>, RecordsError> {
        let mut r = crate::records::read_records(std::slice::from_ref(&self.output))?;
        r.sort_by_key(|r| r.job);
        Ok(r)
    }
}

/// Where a run writes: its output, the output's sidecar, and the shard as the rows and the
/// sidecar name it (`i/N`, or empty).
struct Target {
    output: PathBuf,
    side: PathBuf,
    shard: String,
}

/// How many jobs the experiment has, and how many of them are the shard's (all of them
/// without a shard).
struct Counts {
    total: u64,
    shard: usize,
}

/// Runs the experiment file `path`.
pub fn run(path: &Path, opts: &RunOptions) -> Result<RunReport, RunError> {
    // The jobs share the cores and are measured in CPU time: the sat engine's default backend
    // does not race two solvers here (docs/engines.md, "Defaults of the sat engine").
    crate::engines::sat::set_auto_may_race(false);
    // Load: the experiment and every dataset, before anything is locked, read or written.
    let exp = config::load(path, &*opts.factory)?;
    let output = opts.out.clone().unwrap_or_else(|| exp.output.clone());
    let target = Target {
        side: sidecar::sidecar_path(&output),
        output,
        shard: opts.shard.map(|s| s.to_string()).unwrap_or_default(),
    };
    let loaded = load::load_datasets(&exp)?;
    load::refuse_overwriting_a_dataset(&exp, &[&target.output, &target.side])?;

    // Plan, and resume: the jobs, minus those the output holds if this run may continue it.
    let (plan, counts) = plan(&exp, &loaded, opts.shard)?;
    let mut output_lock = lock_output(&target)?;
    let existing = resume::read_output(&target.output)?;
    let earlier = match &existing {
        None => Earlier::default(),
        Some(e) => {
            let earlier = e.earlier(
                &exp,
                &loaded,
                &plan,
                &target.output,
                &target.side,
                &target.shard,
            )?;
            if earlier.done.len() == counts.shard {
                // Complete: the command typed again reports it and changes nothing.
                return Ok(already_complete(e, &exp, target, counts.shard, output_lock));
            }
            if !opts.resume {
                return Err(RunErrorKind::NeedsResume {
                    output: target.output,
                    done: earlier.done.len(),
                    jobs: counts.shard,
                    shard: target.shard,
                }
                .into());
            }
            earlier
        }
    };

    let todo = jobs_left(&exp, plan, &earlier.done)?;

    // Execute: the sidecar, the output opened, the jobs run.
    let threads = opts
        .threads
        .or(exp.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    // The sidecar first, then the CSV's header: a run killed at any moment leaves either an
    // output without a row (started afresh; the lock may have created it empty) or an output
    // with its sidecar (resumed).
    let mut side = Sidecar::begin(&exp, &loaded, opts, &target, threads, &counts, earlier)?;
    let (file, earlier_rows) = open_output(existing, &target.output, &mut output_lock)?;

    let skipped = counts.shard - todo.len();
    let shared = Arc::new(Shared::new(
        exp,
        loaded,
        todo,
        file,
        &target.shard,
        opts.factory.clone(),
    ));
    let abandoned = execute(&shared, threads, opts.progress.as_deref(), &mut side)?;

    // Finish: the summary of the whole output, and the sidecar's last word.
    let done_now = std::mem::take(&mut lock(&shared.out.pending).done);
    let totals = finish::totals(&shared, &earlier_rows, &done_now);
    let metadata = side.finish(shared.todo.len(), abandoned, &totals.status_counts)?;
    Ok(RunReport {
        output: target.output,
        sidecar: target.side,
        summary: totals.summary,
        rows: totals.rows,
        ran: shared.todo.len(),
        skipped,
        abandoned,
        already_complete: false,
        charts: shared.exp.charts.clone(),
        metadata,
        _lock: output_lock,
    })
}

/// Runs the jobs of `shared` on `threads` threads, catching SIGINT, SIGTERM and SIGHUP
/// meanwhile, and returns the number of abandoned jobs. A run stopped before its last job
/// says in its sidecar `side` how many rows it wrote, and which signal stopped it.
fn execute(
    shared: &Arc<Shared>,
    threads: usize,
    progress: Option<&dyn Progress>,
    side: &mut Sidecar,
) -> Result<usize, RunError> {
    let executed = {
        let _signals = signals::catch();
        watchdog::execute(shared, threads, progress)
    };
    executed.inspect_err(|e| {
        // Every row handed over is on disk (execute flushed): say so in the sidecar.
        let written = lock(&shared.out.sink).rows;
        let signal = match e.kind() {
            RunErrorKind::Interrupted(i) => Some(i.signal),
            _ => None,
        };
        side.stopped(written, signal);
    })
}

/// The jobs of `exp` (in `shard`), in run order, after checking their number: the job list
/// is allocated whole.
fn plan(
    exp: &Experiment,
    loaded: &[Loaded],
    shard: Option<Shard>,
) -> Result<(Vec<Job>, Counts), RunError> {
    let counts: Vec<usize> = loaded.iter().map(|d| d.puzzles.len()).collect();
    let configs = exp.engines.len();
    let too_many = |jobs: Option<u64>, shard: Option<Shard>| RunErrorKind::TooManyJobs {
        experiment: exp.path.clone(),
        position: config::key_position(&exp.text, "repetitions"),
        puzzles: counts.iter().sum::<usize>(),
        configurations: configs,
        repetitions: exp.repetitions,
        jobs,
        shard,
    };
    let total =
        jobs::count(&counts, configs, exp.repetitions).ok_or_else(|| too_many(None, None))?;
    match jobs::shard_count(&counts, configs, exp.repetitions, shard) {
        Some(n) if n <= jobs::MAX_JOBS => {}
        n => return Err(too_many(n, shard).into()),
    }
    let plan = jobs::plan(&counts, configs, exp.repetitions, shard, exp.seed);
    let counts = Counts {
        total,
        shard: plan.len(),
    };
    Ok((plan, counts))
}

/// Takes the output's lock, after checking that its sidecar is not another output's and
/// creating its directory: nothing is read or written before, as another run may be writing
/// this output.
fn lock_output(target: &Target) -> Result<OutputLock, RunError> {
    sidecar::check_owner(&target.output, &target.side)?;
    if let Some(dir) = target.output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| FileError::new(dir, FileAction::CreateDir, e))?;
    }
    Ok(OutputLock::take(&target.output)?)
}

/// The report of an output that holds all `jobs` of its experiment and shard: nothing is
/// run or written.
fn already_complete(
    existing: &Existing,
    exp: &Experiment,
    target: Target,
    jobs: usize,
    lock: OutputLock,
) -> RunReport {
    let mut records = existing.records.clone();
    records.sort_by_key(|r| r.job);
    RunReport {
        summary: summarize(&records),
        rows: records.len(),
        output: target.output,
        sidecar: target.side,
        ran: 0,
        skipped: jobs,
        abandoned: 0,
        already_complete: true,
        charts: exp.charts.clone(),
        metadata: Value::Null,
        _lock: lock,
    }
}

/// The jobs of `plan` the output does not hold (`done`), in run order.
fn jobs_left(exp: &Experiment, plan: Vec<Job>, done: &BTreeSet<u64>) -> Result<Vec<Job>, RunError> {
    // (In place: no copy of the job list.)
    let todo: Vec<Job> = plan
        .into_iter()
        .filter(|j| !done.contains(&j.job))
        .collect();
    if u32::try_from(todo.len()).is_err() {
        return Err(RunErrorKind::TooManyToRun {
            experiment: exp.path.clone(),
            jobs: todo.len(),
        }
        .into());
    }
    Ok(todo)
}

/// Opens the output for this session's rows: an existing one cut back to its complete rows
/// (which are returned), else a new one with its header.
fn open_output(
    existing: Option<Existing>,
    output: &Path,
    lock: &mut OutputLock,
) -> Result<(RowSink, Vec<Record>), RunError> {
    Ok(match existing {
        Some(e) => (e.cut_and_open(output, lock)?, e.records),
        None => (resume::create_output(output)?, Vec::new()),
    })
}
