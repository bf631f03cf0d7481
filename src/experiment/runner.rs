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
//! flush interval, when no job has a time limit and no progress bar is shown: it then has
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
//! ending in `.gz`, to a gzip file of one member per write ([`crate::records::rowfile`]). A worker
//! formats its row as soon as the job ends, into its own reused buffer
//! ([`writer::write_row`]: what is known in advance is prepared once per dataset and per
//! configuration, nothing is kept per puzzle), and appends it to the pending rows under a
//! short lock. The pending rows are
//! written with one `write` (one gzip member):
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

use super::config::{self, EngineFactory, Experiment};
use super::jobs::{self, Job, Shard};
use crate::engines::{self, Engine, Limits, Outcome, Stats, Status};
use crate::plot::ChartSpec;
use crate::puzzle::{read_file, Puzzle};
use crate::records::reader::RowReader;
use crate::records::record::{self, Record, COLUMNS};
use crate::records::rowfile::{self, OutputLock, RowSink};
use crate::records::sidecar;
use crate::records::summary::{summarize, summarize_indexed, RunView, SummaryLine};
use crate::records::writer::{self, RowParts};
use anyhow::{bail, Context};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How often the watchdog looks at the jobs in flight.
const TICK: Duration = Duration::from_millis(20);

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

/// What `sudolab run` was asked.
#[derive(Clone)]
pub struct RunOptions {
    pub threads: Option<usize>,
    pub shard: Option<Shard>,
    pub resume: bool,
    /// Output CSV instead of the file's `output`.
    pub out: Option<PathBuf>,
    /// Show a progress bar on stderr.
    pub progress: bool,
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
            progress: false,
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
    pub fn records(&self) -> anyhow::Result<Vec<Record>> {
        let mut r = crate::records::read_records(std::slice::from_ref(&self.output))?;
        r.sort_by_key(|r| r.job);
        Ok(r)
    }
}

/// A dataset's puzzles and what the first fields of their rows share.
struct Loaded {
    puzzles: Vec<Puzzle>,
    /// The line of the file each puzzle starts on (1-based).
    lines: Vec<usize>,
    fields: writer::DatasetFields,
}

/// Runs the experiment file `path`.
pub fn run(path: &Path, opts: &RunOptions) -> anyhow::Result<RunReport> {
    // The jobs share the cores and are measured in CPU time: the sat engine's default backend
    // does not race two solvers here (docs/engines.md, "Defaults of the sat engine").
    crate::engines::sat::set_auto_may_race(false);
    let exp = config::load(path, &*opts.factory)?;
    let output = opts.out.clone().unwrap_or_else(|| exp.output.clone());
    let side = sidecar::sidecar_path(&output);

    let loaded = load_datasets(&exp)?;
    refuse_overwriting_a_dataset(&exp, &[&output, &side])?;
    let counts: Vec<usize> = loaded.iter().map(|d| d.puzzles.len()).collect();
    // The job list is allocated whole: its size is checked first.
    let configs = exp.engines.len();
    let too_many = |n: Option<u64>, what: &str| {
        anyhow::anyhow!(
            "{}{}: repetitions: {} puzzles x {configs} configurations x {} repetitions: {} \
             jobs{what}; one run plans at most {} (split it with --shard, or use fewer \
             repetitions, configurations or puzzles, `first`)",
            exp.path.display(),
            config::key_position(&exp.text, "repetitions"),
            counts.iter().sum::<usize>(),
            exp.repetitions,
            n.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string()),
            jobs::MAX_JOBS
        )
    };
    let jobs_total =
        jobs::count(&counts, configs, exp.repetitions).ok_or_else(|| too_many(None, ""))?;
    match jobs::shard_count(&counts, configs, exp.repetitions, opts.shard) {
        Some(n) if n <= jobs::MAX_JOBS => {}
        n => {
            let what = opts
                .shard
                .map_or(String::new(), |s| format!(" in shard {s}"));
            return Err(too_many(n, &what));
        }
    }
    let plan = jobs::plan(
        &counts,
        exp.engines.len(),
        exp.repetitions,
        opts.shard,
        exp.seed,
    );
    let jobs_shard = plan.len();
    let shard_text = opts.shard.map(|s| s.to_string()).unwrap_or_default();

    // Nothing is read or written before these two checks: the sidecar may be another
    // output's, and another run may be writing this output.
    sidecar::check_owner(&output, &side)?;
    if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create directory", dir.display()))?;
    }
    let mut output_lock = OutputLock::take(&output)?;

    // What the output already holds. An output without a single complete row (a run killed
    // in its first milliseconds) holds nothing worth keeping: it is started over, with or
    // without --resume. One with rows needs its sidecar, to tell which experiment wrote them.
    let existing = if output.exists() {
        Some(read_existing(&output)?).filter(|e| !e.records.is_empty())
    } else {
        None
    };
    let mut earlier_sessions = Vec::new();
    let mut first_start = None;
    let mut done = BTreeSet::new();
    if let Some(e) = &existing {
        let previous = sidecar::read(&side).with_context(|| {
            format!(
                "{}: holds {} rows but its sidecar {} cannot be read, so nothing tells which \
                 experiment wrote them; use --out to write elsewhere (or remove the output to \
                 start it over)",
                output.display(),
                e.records.len(),
                side.display()
            )
        })?;
        check_same_run(&previous, &exp, &shard_text, &side)?;
        if let Some(s) = previous.get("sessions").and_then(Value::as_array) {
            earlier_sessions = s.clone();
        }
        first_start = previous.get("start").cloned();
        let mine: BTreeMap<u64, &Job> = plan.iter().map(|j| (j.job, j)).collect();
        let mut texts: BTreeMap<u64, String> = BTreeMap::new();
        for (i, r) in e.records.iter().enumerate() {
            let Some(job) = mine.get(&r.job) else {
                bail!(
                    "{}:{}: job {}, which is not a job of this experiment and shard",
                    output.display(),
                    i + 2,
                    r.job
                );
            };
            // The row's puzzle must be the one the job names now: a puzzle file edited (or
            // reordered) since would mix rows of two files under the same job numbers.
            let (d, p) = (job.dataset as usize, job.puzzle as usize);
            let expected = texts
                .entry(job.ordinal)
                .or_insert_with(|| record::puzzle_text(&loaded[d].puzzles[p]));
            if r.puzzle != *expected || r.puzzle_index != p as u64 + 1 {
                bail!(
                    "{}:{}: job {} is puzzle {} of dataset {}, {}:{}: expected {:?}, found \
                     puzzle {} {:?}: the puzzle file is not the one these rows were run on; \
                     use --out to start a new output",
                    output.display(),
                    i + 2,
                    r.job,
                    p + 1,
                    exp.datasets[d].name,
                    exp.datasets[d].path.display(),
                    loaded[d].lines[p],
                    expected,
                    r.puzzle_index,
                    r.puzzle
                );
            }
            if !done.insert(r.job) {
                bail!(
                    "{}:{}: job {} appears twice",
                    output.display(),
                    i + 2,
                    r.job
                );
            }
        }
        if done.len() == plan.len() {
            // Complete: the command typed again reports it and changes nothing.
            let mut records = e.records.clone();
            records.sort_by_key(|r| r.job);
            return Ok(RunReport {
                summary: summarize(&records),
                rows: records.len(),
                output,
                sidecar: side,
                ran: 0,
                skipped: jobs_shard,
                abandoned: 0,
                already_complete: true,
                charts: exp.charts.clone(),
                metadata: Value::Null,
                _lock: output_lock,
            });
        }
        if !opts.resume {
            bail!(
                "{}: already exists with {} of the {} jobs of this experiment{}; pass --resume \
                 to run the other {}, or --out to write elsewhere",
                output.display(),
                done.len(),
                jobs_shard,
                if shard_text.is_empty() {
                    String::new()
                } else {
                    format!(" and shard {shard_text}")
                },
                jobs_shard - done.len()
            );
        }
    }

    // (In place: no copy of the job list.)
    let todo: Vec<Job> = plan
        .into_iter()
        .filter(|j| !done.contains(&j.job))
        .collect();
    if u32::try_from(todo.len()).is_err() {
        bail!(
            "{}: {} jobs to run; one invocation runs at most {} (use --shard to split them)",
            exp.path.display(),
            todo.len(),
            u32::MAX
        );
    }
    let threads = opts
        .threads
        .or(exp.threads)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);

    let start = sidecar::now_rfc3339();
    let (git_commit, git_dirty) = sidecar::git_commit();
    let mut session = json!({
        "start": start,
        "end": null,
        "command": opts.command,
        "threads": threads,
        "jobs_run": null,
        "jobs_abandoned": null,
    });
    let mut sessions = earlier_sessions.clone();
    sessions.push(session.clone());
    let mut meta = json!({
        "experiment": exp.name,
        "question": exp.question,
        "description": exp.description,
        "fingerprint": exp.fingerprint,
        "config_path": exp.path,
        "output": output,
        "config": exp.source_json(),
        "resolved": exp,
        "sudolab_version": env!("CARGO_PKG_VERSION"),
        "git_commit": git_commit,
        "git_dirty": git_dirty,
        "machine": sidecar::machine(),
        "command": opts.command,
        "threads": threads,
        "shard": opts.shard.map(|s| s.to_string()),
        "jobs_total": jobs_total,
        "jobs_shard": jobs_shard,
        "puzzle_fingerprints": puzzle_fingerprints(&exp, &loaded),
        "start": first_start.unwrap_or_else(|| json!(start)),
        "end": null,
        "status_counts": null,
        "sessions": sessions,
    });
    // The sidecar first, then the CSV's header: a run killed at any moment leaves either an
    // output without a row (started afresh; the lock may have created it empty) or an output
    // with its sidecar (resumed).
    sidecar::write(&side, &meta)?;
    let (file, earlier) = match existing {
        Some(e) => (e.cut_and_open(&output, &mut output_lock)?, e.records),
        None => (create_output(&output)?, Vec::new()),
    };

    let limits: Vec<Limits> = (0..exp.engines.len()).map(|c| exp.limits(c)).collect();
    let skipped = jobs_shard - todo.len();
    let config_prefixes = exp
        .engines
        .iter()
        .map(|c| writer::config_prefix(&c.label, &c.spec))
        .collect();
    let config_suffixes = limits
        .iter()
        .map(|l| writer::config_suffix(l, &shard_text))
        .collect();
    let search_tree = exp
        .engines
        .iter()
        .map(|c| engines::find(&c.spec.name).map_or(true, |i| i.search_tree))
        .collect();
    let shared = Arc::new(Shared {
        exp,
        datasets: loaded,
        limits,
        config_prefixes,
        config_suffixes,
        search_tree,
        out: Output {
            pending: Mutex::new(Pending {
                rows: Vec::with_capacity(FLUSH_BYTES + (FLUSH_BYTES >> 2)),
                done: Vec::with_capacity(todo.len()),
            }),
            sink: Mutex::new(Sink {
                file,
                spare: Vec::with_capacity(FLUSH_BYTES + (FLUSH_BYTES >> 2)),
                rows: 0,
            }),
        },
        todo,
        next: AtomicUsize::new(0),
        finished: AtomicUsize::new(0),
        failure: Mutex::new(None),
        stop: AtomicBool::new(false),
        factory: opts.factory.clone(),
        watchdog: std::thread::current(),
    });
    let executed = {
        let _signals = signals::catch();
        execute(&shared, threads, opts.progress)
    };
    let abandoned = match executed {
        Ok(n) => n,
        Err(e) => {
            // Every row handed over is on disk (execute flushed): say so in the sidecar.
            let written = lock(&shared.out.sink).rows;
            session["end"] = json!(sidecar::now_rfc3339());
            session["jobs_run"] = json!(written);
            if let Some(i) = e.downcast_ref::<Interrupted>() {
                session["interrupted_by"] = json!(signals::name(i.signal));
            }
            let mut sessions = earlier_sessions;
            sessions.push(session);
            meta["sessions"] = json!(sessions);
            if let Err(side_err) = sidecar::write(&side, &meta) {
                eprintln!("sudolab: warning: {side_err:#}");
            }
            return Err(e);
        }
    };
    let done_now = std::mem::take(&mut lock(&shared.out.pending).done);

    // The summary of every row of the file: the earlier sessions' (read when resuming) and
    // this one's (kept as they were written, not read back: reading 50,000 rows costs more
    // than the runner's whole overhead on a fast engine). Job order, not completion order,
    // so configurations are listed as in the file.
    // A fresh run whose rows came in job order (one thread, no `seed`: the usual case) is
    // summarised straight from `done_now`; otherwise through `order`, (job, i) sorted by job,
    // where i < earlier.len() is earlier[i], else done_now[i - earlier.len()].
    let job_of = |d: &Done| shared.todo[d.pos as usize].job;
    let in_job_order =
        earlier.is_empty() && done_now.windows(2).all(|w| job_of(&w[0]) < job_of(&w[1]));
    let order: Vec<(u64, usize)> = if in_job_order {
        Vec::new()
    } else {
        let mut order: Vec<(u64, usize)> = Vec::with_capacity(earlier.len() + done_now.len());
        order.extend(earlier.iter().enumerate().map(|(i, r)| (r.job, i)));
        order.extend(
            done_now
                .iter()
                .enumerate()
                .map(|(i, d)| (job_of(d), earlier.len() + i)),
        );
        order.sort_unstable_by_key(|&(job, _)| job);
        order
    };
    let view = |k: usize| {
        if in_job_order {
            return shared.view(&done_now[k]);
        }
        let i = order[k].1;
        match earlier.get(i) {
            Some(r) => RunView::from(r),
            None => shared.view(&done_now[i - earlier.len()]),
        }
    };
    let mut status_counts: BTreeMap<&str, u64> = BTreeMap::new();
    for r in &earlier {
        *status_counts.entry(&r.status).or_insert(0) += 1;
    }
    // This session's rows by Status discriminant (the order of Status::ALL), then by name.
    let mut by_status = [0u64; Status::ALL.len()];
    for d in &done_now {
        by_status[d.status as usize] += 1;
    }
    for (status, n) in Status::ALL.iter().zip(by_status) {
        if n > 0 {
            *status_counts.entry(status.as_str()).or_insert(0) += n;
        }
    }
    let rows_total = earlier.len() + done_now.len();
    let summary = summarize_indexed(rows_total, view);
    let end = sidecar::now_rfc3339();
    session["end"] = json!(end);
    session["jobs_run"] = json!(shared.todo.len());
    session["jobs_abandoned"] = json!(abandoned);
    let mut sessions = earlier_sessions;
    sessions.push(session);
    meta["end"] = json!(end);
    meta["status_counts"] = json!(status_counts);
    meta["sessions"] = json!(sessions);
    sidecar::write(&side, &meta)?;

    let report = RunReport {
        output,
        sidecar: side,
        summary,
        rows: rows_total,
        ran: shared.todo.len(),
        skipped,
        abandoned,
        already_complete: false,
        charts: shared.exp.charts.clone(),
        metadata: meta,
        _lock: output_lock,
    };
    Ok(report)
}

/// Reads every dataset (all files before any job, so a bad file is bad input, not a result).
/// The output and its sidecar must not be one of the experiment's puzzle files: `run` would
/// overwrite it (the sidecar of `x.csv` is `x.json`, a name puzzlekit sets also use).
fn refuse_overwriting_a_dataset(exp: &Experiment, written: &[&Path]) -> anyhow::Result<()> {
    for (i, d) in exp.datasets.iter().enumerate() {
        let Ok(dataset) = d.path.canonicalize() else {
            continue;
        };
        for w in written {
            if w.canonicalize().is_ok_and(|w| w == dataset) {
                anyhow::bail!(
                    "{}: {} would be overwritten by the run's {}, and it is datasets[{i}]'s \
                     puzzle file; choose another output (--out or `output`)",
                    exp.path.display(),
                    w.display(),
                    if w.extension().is_some_and(|e| e == "json") {
                        "sidecar"
                    } else {
                        "output"
                    }
                );
            }
        }
    }
    Ok(())
}

fn load_datasets(exp: &Experiment) -> anyhow::Result<Vec<Loaded>> {
    let mut out = Vec::new();
    for (i, d) in exp.datasets.iter().enumerate() {
        let (_, puzzles) = read_file(&d.path, &d.read_options)
            .map_err(|e| anyhow::anyhow!("{e} (datasets[{i}] of {})", exp.path.display()))?;
        let (mut puzzles, mut lines): (Vec<Puzzle>, Vec<usize>) =
            puzzles.into_iter().map(|p| (p.puzzle, p.line)).unzip();
        if let Some(k) = d.first {
            puzzles.truncate(k as usize);
            lines.truncate(k as usize);
        }
        let fields = writer::DatasetFields::new(&exp.name, &d.name, puzzles.first());
        out.push(Loaded {
            puzzles,
            lines,
            fields,
        });
    }
    Ok(out)
}

/// Per dataset name, the FNV-1a hash of its puzzles' `puzzle` cells, each followed by a line
/// end, as 16 hex digits: `merge` refuses shards whose puzzle files differ.
fn puzzle_fingerprints(exp: &Experiment, loaded: &[Loaded]) -> BTreeMap<String, String> {
    exp.datasets
        .iter()
        .zip(loaded)
        .map(|(d, l)| {
            let mut text = String::new();
            for p in &l.puzzles {
                text.push_str(&record::puzzle_text(p));
                text.push('\n');
            }
            (
                d.name.clone(),
                format!("{:016x}", record::fnv1a(text.as_bytes())),
            )
        })
        .collect()
}

/// An output may only be resumed by the experiment file (same text) and shard that began it.
fn check_same_run(
    previous: &Value,
    exp: &Experiment,
    shard: &str,
    side: &Path,
) -> anyhow::Result<()> {
    let fp = previous.get("fingerprint").and_then(Value::as_str);
    if fp != Some(exp.fingerprint.as_str()) {
        bail!(
            "{}: written by a different experiment file (fingerprint {}, {} now has {}); \
             use --out to start a new output",
            side.display(),
            fp.unwrap_or("missing"),
            exp.path.display(),
            exp.fingerprint
        );
    }
    let was = previous.get("shard").and_then(Value::as_str).unwrap_or("");
    if was != shard {
        bail!(
            "{}: written for shard {:?}, not {:?}",
            side.display(),
            was,
            shard
        );
    }
    Ok(())
}

/// What an existing output holds: its complete rows, and how to cut it back to them.
struct Existing {
    /// The complete rows, in file order.
    records: Vec<Record>,
    cut: Cut,
}

/// How an output is cut back to its header and complete rows before rows are appended.
enum Cut {
    /// Truncate to this many bytes: a plain CSV (after its last complete row), or a gzip
    /// output (after its last complete member).
    Truncate(u64),
    /// Rewrite as one gzip member of this text: a compressed output with a bad row inside a
    /// complete member (not made by sudolab, which writes whole rows per member).
    Rewrite(Vec<u8>),
}

/// Reads an existing output: checks the header, leaves out a torn last row (plain) or a torn
/// last member (gzip), and errors on a bad row elsewhere. Without a complete header the output
/// holds no row.
fn read_existing(path: &Path) -> anyhow::Result<Existing> {
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let gzip = rowfile::is_gzip_path(path);
    let (text, end) = if gzip {
        let (text, end) = rowfile::complete_members(&bytes);
        if end == 0 && bytes.len() >= 2 && !bytes.starts_with(&[0x1f, 0x8b]) {
            bail!(
                "{}: not a gzip file (a name ending in .gz is written compressed)",
                path.display()
            );
        }
        (text, end)
    } else {
        (bytes, 0)
    };
    // A run killed while writing leaves a last line without its newline: cut it off.
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let header = format!("{}\n", COLUMNS.join(","));
    let mut records = Vec::new();
    let mut good_end = 0;
    if keep > 0 {
        if !text.starts_with(header.as_bytes()) {
            bail!(
                "{}:1: not a sudolab run output (the header differs from this version's)",
                path.display()
            );
        }
        let mut reader = RowReader::new(path, &text[..keep])?;
        good_end = reader.end();
        loop {
            match reader.next_row() {
                Ok(Some((r, _))) => {
                    good_end = reader.end();
                    records.push(r);
                }
                Ok(None) => break,
                // A bad row is forgiven only as the last one (a torn write); elsewhere the
                // file is corrupt.
                Err(e) if reader.more() => return Err(e.into()),
                Err(_) => break,
            }
        }
    }
    let cut = if !gzip {
        Cut::Truncate(good_end as u64)
    } else if good_end == text.len() {
        Cut::Truncate(end as u64)
    } else {
        Cut::Rewrite(text[..good_end].to_vec())
    };
    Ok(Existing { records, cut })
}

impl Existing {
    /// Cuts the output back to its complete rows and opens it for appending. `lock` is the
    /// output's: a rewritten output is a new file, locked anew.
    fn cut_and_open(&self, path: &Path, lock: &mut OutputLock) -> anyhow::Result<RowSink> {
        match &self.cut {
            Cut::Truncate(len) => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .with_context(|| format!("{}: cannot open for writing", path.display()))?;
                file.set_len(*len)
                    .with_context(|| format!("{}: cannot truncate", path.display()))?;
            }
            Cut::Rewrite(text) => {
                let tmp = rowfile::sibling(path, ".csv.gz.tmp");
                std::fs::write(&tmp, rowfile::gzip_member(text))
                    .with_context(|| format!("{}: cannot write", tmp.display()))?;
                std::fs::rename(&tmp, path)
                    .with_context(|| format!("{}: cannot write", path.display()))?;
                // The rename made a new file: a run started since found it unlocked, and
                // then this one stops (it has written nothing but the same rows).
                *lock = OutputLock::take(path)?;
            }
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("{}: cannot open for appending", path.display()))?;
        Ok(RowSink::new(file, path))
    }
}

/// Creates (or starts over) an output with its header.
fn create_output(path: &Path) -> anyhow::Result<RowSink> {
    let file = File::create(path).with_context(|| format!("{}: cannot create", path.display()))?;
    let mut sink = RowSink::new(file, path);
    sink.append(format!("{}\n", COLUMNS.join(",")).as_bytes())?;
    Ok(sink)
}

/// A run stopped by SIGINT, SIGTERM or SIGHUP after writing every row it had: the CLI exits
/// with 128 + the signal's number, as a shell does for a process the signal killed.
#[derive(Debug)]
pub struct Interrupted {
    pub signal: i32,
    /// Rows this invocation wrote before it stopped.
    pub rows: usize,
    pub output: PathBuf,
}

impl Interrupted {
    pub fn exit_code(&self) -> u8 {
        (128 + self.signal).clamp(0, 255) as u8
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted by {}: {} row(s) of this session written to {}; run the same command \
             with --resume to run the jobs left",
            signals::name(self.signal),
            self.rows,
            self.output.display()
        )
    }
}

impl std::error::Error for Interrupted {}

/// SIGINT, SIGTERM and SIGHUP while the jobs run: the handler only notes the signal; the
/// watchdog thread sees it at its next tick, writes the buffered rows and stops the run.
mod signals {
    use std::sync::atomic::{AtomicI32, Ordering};

    static CAUGHT: AtomicI32 = AtomicI32::new(0);
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

    extern "C" fn note(signal: libc::c_int) {
        // Async-signal-safe: one atomic store.
        CAUGHT.store(signal, Ordering::SeqCst);
    }

    /// The signal caught since [`catch`], if any.
    pub fn caught() -> Option<i32> {
        Some(CAUGHT.load(Ordering::SeqCst)).filter(|&s| s != 0)
    }

    pub fn name(signal: i32) -> String {
        match signal {
            libc::SIGINT => "SIGINT".into(),
            libc::SIGTERM => "SIGTERM".into(),
            libc::SIGHUP => "SIGHUP".into(),
            n => format!("signal {n}"),
        }
    }

    /// The handlers in force until the guard is dropped (then the previous ones again).
    /// One-shot (`SA_RESETHAND`): a second Ctrl-C while the rows are written kills at once.
    pub struct Guard(Vec<(libc::c_int, libc::sigaction)>);

    pub fn catch() -> Guard {
        CAUGHT.store(0, Ordering::SeqCst);
        let mut old = Vec::new();
        for signal in SIGNALS {
            // SAFETY: sigaction is plain data, valid zeroed; the handler only stores to an
            // atomic (async-signal-safe); `previous` receives the disposition to restore.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = note as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
                libc::sigemptyset(&mut action.sa_mask);
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(signal, &action, &mut previous) == 0 {
                    old.push((signal, previous));
                }
            }
        }
        Guard(old)
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            for (signal, previous) in &self.0 {
                // SAFETY: restores a disposition sigaction returned.
                unsafe {
                    libc::sigaction(*signal, previous, std::ptr::null_mut());
                }
            }
        }
    }
}

// ---- execution ------------------------------------------------------------------------------

struct Shared {
    exp: Experiment,
    datasets: Vec<Loaded>,
    /// Per configuration (without a cancel flag; each thread adds its own).
    limits: Vec<Limits>,
    /// Per configuration: [`writer::config_prefix`] and whether its engine has a search tree.
    config_prefixes: Vec<writer::ConfigPrefix>,
    /// Per configuration: [`writer::config_suffix`] of its limits and the shard.
    config_suffixes: Vec<Vec<u8>>,
    search_tree: Vec<bool>,
    /// This invocation's jobs, in run order.
    todo: Vec<Job>,
    next: AtomicUsize,
    out: Output,
    /// Rows handed to the output by this invocation (buffered or written): the length of
    /// `out.pending.done`, stored under that lock (a plain store, not a locked add per row).
    finished: AtomicUsize,
    /// The first write error: the run stops.
    failure: Mutex<Option<String>>,
    stop: AtomicBool,
    factory: Arc<EngineFactory>,
    /// The watchdog's thread (the one that runs [`execute`]), unparked when the last row is
    /// handed over or the run fails, so that it does not sleep out its tick.
    watchdog: std::thread::Thread,
}

/// The output's rows: formatted by each worker into its own buffer, appended to `pending`
/// under a short lock, and written to the file by [`Shared::flush`] (at least every
/// [`FLUSH_EVERY`], when [`FLUSH_BYTES`] are pending, and when the run ends in any way).
struct Output {
    pending: Mutex<Pending>,
    sink: Mutex<Sink>,
}

struct Pending {
    /// Complete rows not yet written.
    rows: Vec<u8>,
    /// What the summary needs of each row handed over by this invocation.
    done: Vec<Done>,
}

struct Sink {
    file: RowSink,
    /// The buffer swapped with `pending.rows` at each flush (both reused: no allocation).
    spare: Vec<u8>,
    /// Rows written to the file by this invocation.
    rows: usize,
}

/// What the summary keeps of a row written by this invocation (the rest follows from `pos`).
/// 32 bytes, one per job: kept small, as every page of it costs a page fault.
struct Done {
    pos: u32,
    status: Status,
    /// Whether the row has `nodes` and `guesses` (an engine with a search tree, and not a row
    /// the watchdog wrote for an abandoned thread).
    counted: bool,
    cpu_s: f64,
    nodes: u64,
    guesses: u64,
}

/// One worker thread as the watchdog sees it.
struct Slot {
    current: Mutex<Option<Running>>,
    /// Set by the watchdog when it gives up on the thread; the thread then exits at once.
    abandoned: AtomicBool,
    cancel: Arc<AtomicBool>,
}

struct Running {
    pos: usize,
    started: Instant,
    soft: Option<Instant>,
    hard: Option<Instant>,
}

/// Locks, ignoring poison: a panic is caught per job, and the data behind these locks stays
/// consistent at every unlock.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// Formats the row of `todo[pos]` into `scratch` and hands it to the output.
    ///
    /// Each job's row is handed over once, by its thread or by the watchdog, never both:
    /// the watchdog gives up on a job only while the job is its slot's `current` and sets
    /// `abandoned` under that lock; the job's thread clears `current` under the same lock
    /// when the engine returns and then hands the row over only if the slot is not
    /// abandoned. (A job without a time limit is never `current`: only its thread sees it.)
    fn submit(&self, pos: usize, outcome: &Outcome, search_tree: bool, scratch: &mut Vec<u8>) {
        let job = &self.todo[pos];
        let c = job.config as usize;
        let dataset = &self.datasets[job.dataset as usize];
        let parts = RowParts {
            dataset: &dataset.fields,
            puzzle_index: job.puzzle as u64 + 1,
            puzzle: &dataset.puzzles[job.puzzle as usize],
            config_prefix: &self.config_prefixes[c],
            repetition: job.repetition as u64,
            config_suffix: &self.config_suffixes[c],
            search_tree,
            job: job.job,
        };
        let done = Done {
            pos: pos as u32,
            status: outcome.status,
            counted: search_tree && outcome.has_counts(),
            cpu_s: (outcome.build + outcome.solve).as_secs_f64(),
            nodes: outcome.stats.nodes,
            guesses: outcome.stats.guesses,
        };
        scratch.clear();
        writer::write_row(scratch, &parts, outcome);
        let (full, finished) = {
            let mut pending = lock(&self.out.pending);
            pending.rows.extend_from_slice(scratch);
            pending.done.push(done);
            // Every writer of `finished` holds this lock: a plain store counts exactly.
            let finished = pending.done.len();
            self.finished.store(finished, Ordering::Release);
            (pending.rows.len() >= FLUSH_BYTES, finished)
        };
        if full {
            self.flush();
        }
        if finished == self.todo.len() {
            self.watchdog.unpark();
        }
    }

    /// Writes the pending rows (one `write`; one gzip member for a `.gz` output). The sink's
    /// lock is taken first, so chunks reach the file in the order they were taken.
    fn flush(&self) {
        let mut sink = lock(&self.out.sink);
        let sink = &mut *sink;
        let rows = {
            let mut pending = lock(&self.out.pending);
            std::mem::swap(&mut pending.rows, &mut sink.spare);
            pending.done.len()
        };
        let result = sink.file.append(&sink.spare);
        sink.spare.clear();
        match result {
            Ok(()) => sink.rows = rows,
            Err(e) => self.fail(format!("{e:#}")),
        }
    }

    /// The summary's view of a row this invocation wrote. (Made three times per row by the
    /// end-of-run summary: only the fields it reads are looked up. Inlined, so that each pass
    /// of the summary computes only the fields it reads.)
    #[inline(always)]
    fn view(&self, d: &Done) -> RunView<'_> {
        let job = &self.todo[d.pos as usize];
        RunView {
            config: &self.exp.engines[job.config as usize].label,
            dataset: &self.exp.datasets[job.dataset as usize].name,
            puzzle_index: job.puzzle as u64 + 1,
            status: d.status.as_str(),
            answered: d.status.is_answer(),
            cpu_s: d.cpu_s,
            nodes: d.counted.then_some(d.nodes),
            guesses: d.counted.then_some(d.guesses),
            time_limit_s: self.limits[job.config as usize]
                .time_limit
                .map(|t| t.as_secs_f64()),
        }
    }

    fn fail(&self, message: String) {
        lock(&self.failure).get_or_insert(message);
        self.stop.store(true, Ordering::SeqCst);
        self.watchdog.unpark();
    }
}

fn worker(shared: Arc<Shared>, slot: Arc<Slot>) {
    let configs = shared.exp.engines.len();
    let mut engines: Vec<Option<Box<dyn Engine>>> = (0..configs).map(|_| None).collect();
    // This thread's row, formatted outside any lock (reused: no allocation per row).
    let mut row = Vec::with_capacity(1024);
    let limits: Vec<Limits> = shared
        .limits
        .iter()
        .map(|l| Limits {
            cancel: Some(slot.cancel.clone()),
            ..l.clone()
        })
        .collect();
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            return;
        }
        let pos = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(job) = shared.todo.get(pos) else {
            return;
        };
        let c = job.config as usize;
        let limits = &limits[c];
        let started = Instant::now();
        // A job without a time limit has no deadline: the watchdog has nothing to watch, so
        // its slot stays empty (and unlocked).
        let watched = limits.time_limit.is_some();
        if watched {
            let mut current = lock(&slot.current);
            slot.cancel.store(false, Ordering::SeqCst);
            *current = Some(Running {
                pos,
                started,
                soft: limits.time_limit.map(|t| started + t),
                hard: limits.time_limit.map(|t| started + hard_deadline(t)),
            });
        } else if slot.cancel.load(Ordering::Relaxed) {
            // Left set by an earlier job's time limit (the watchdog sets it only while a
            // job is its slot's `current`, under that lock): a load, not a locked store,
            // on every job.
            slot.cancel.store(false, Ordering::SeqCst);
        }
        let outcome = solve(&shared, job, &mut engines[c], limits, started);
        if watched {
            let mut current = lock(&slot.current);
            *current = None;
            if slot.abandoned.load(Ordering::SeqCst) {
                // The watchdog wrote this job's row and started a replacement thread.
                return;
            }
        }
        shared.submit(pos, &outcome, shared.search_tree[c], &mut row);
    }
}

/// Runs one job, which started at `started`: makes the engine if this thread has none for
/// the configuration, then solves, turning a failure to make it or a panic into an `error`
/// outcome.
fn solve(
    shared: &Shared,
    job: &Job,
    engine: &mut Option<Box<dyn Engine>>,
    limits: &Limits,
    started: Instant,
) -> Outcome {
    let spec = &shared.exp.engines[job.config as usize].spec;
    let puzzle = &shared.datasets[job.dataset as usize].puzzles[job.puzzle as usize];
    let result = catch_unwind(AssertUnwindSafe(|| {
        if engine.is_none() {
            *engine = Some((shared.factory)(spec)?);
        }
        let e = engine.as_mut().expect("made above");
        Ok::<_, String>(engines::run(e.as_mut(), puzzle, limits))
    }));
    let failed = |note: String| {
        let mut o = Outcome::unsupported(note);
        o.status = Status::Error;
        o.wall = started.elapsed();
        o
    };
    match result {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(e)) => failed(format!("cannot make engine {spec}: {e}")),
        Err(panic) => {
            // The engine may be half-updated: make a fresh one for the next job.
            *engine = None;
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            failed(format!("engine panicked: {msg}"))
        }
    }
}

fn spawn_worker(shared: &Arc<Shared>, id: usize) -> anyhow::Result<(Arc<Slot>, JoinHandle<()>)> {
    let slot = Arc::new(Slot {
        current: Mutex::new(None),
        abandoned: AtomicBool::new(false),
        cancel: Arc::new(AtomicBool::new(false)),
    });
    let (s, sl) = (shared.clone(), slot.clone());
    let handle = std::thread::Builder::new()
        .name(format!("sudolab-run-{id}"))
        .spawn(move || worker(s, sl))
        .context("cannot start a worker thread")?;
    Ok((slot, handle))
}

/// Runs `shared.todo` on `threads` threads; the calling thread is the watchdog and writes
/// the pending rows every [`FLUSH_EVERY`]. Returns the number of abandoned jobs. On every
/// way out (all jobs done, a write error, a caught signal, no worker left) the rows handed
/// over are written before it returns.
fn execute(shared: &Arc<Shared>, threads: usize, progress: bool) -> anyhow::Result<usize> {
    let result = watch(shared, threads, progress);
    // Workers take no new job; the ones in flight are lost, and --resume runs them again.
    shared.stop.store(true, Ordering::SeqCst);
    shared.flush();
    let abandoned = result?;
    if let Some(e) = lock(&shared.failure).clone() {
        bail!(e);
    }
    if let Some(signal) = signals::caught() {
        if shared.finished.load(Ordering::SeqCst) < shared.todo.len() {
            let sink = lock(&shared.out.sink);
            return Err(Interrupted {
                signal,
                rows: sink.rows,
                output: sink.file.path().to_path_buf(),
            }
            .into());
        }
    }
    Ok(abandoned)
}

fn watch(shared: &Arc<Shared>, threads: usize, progress: bool) -> anyhow::Result<usize> {
    let total = shared.todo.len();
    let threads = threads.min(total.max(1));
    let bar = if progress {
        let bar = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} jobs, eta {eta}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut workers = Vec::new();
    for id in 0..threads {
        workers.push(spawn_worker(shared, id)?);
    }
    let mut abandoned = 0;
    let mut next_id = threads;
    // The rows of jobs the watchdog gives up on.
    let mut row = Vec::new();
    let mut next_flush = Instant::now() + FLUSH_EVERY;
    // With no time limit to enforce and no progress bar to move, the watchdog only writes the
    // rows and looks for a signal: it wakes every FLUSH_EVERY rather than every TICK (each
    // wake-up of a second thread costs the worker's cache on a busy machine).
    let tick = if progress || shared.limits.iter().any(|l| l.time_limit.is_some()) {
        TICK
    } else {
        FLUSH_EVERY
    };
    while shared.finished.load(Ordering::SeqCst) < total {
        if lock(&shared.failure).is_some() || signals::caught().is_some() {
            bar.abandon();
            return Ok(abandoned);
        }
        std::thread::park_timeout(tick.min(next_flush.saturating_duration_since(Instant::now())));
        let now = Instant::now();
        if now >= next_flush {
            shared.flush();
            next_flush = now + FLUSH_EVERY;
        }
        let mut replacements = 0;
        for (slot, _) in &workers {
            if slot.abandoned.load(Ordering::SeqCst) {
                continue;
            }
            let current = lock(&slot.current);
            let Some(run) = current.as_ref() else {
                continue;
            };
            if run.soft.is_some_and(|s| now >= s) {
                slot.cancel.store(true, Ordering::SeqCst);
            }
            if run.hard.is_some_and(|h| now >= h) {
                slot.abandoned.store(true, Ordering::SeqCst);
                let pos = run.pos;
                let job = shared.todo[pos];
                let limit = shared.limits[job.config as usize]
                    .time_limit
                    .unwrap_or_default();
                let elapsed = now - run.started;
                let outcome = Outcome {
                    status: Status::TimeLimit,
                    count: 0,
                    solutions: Vec::new(),
                    stats: Stats::default(),
                    build: Duration::ZERO,
                    solve: elapsed,
                    wall: elapsed,
                    note: Some(format!(
                        "the engine did not stop at its {:.3} s time limit: its thread was \
                         abandoned at the hard deadline ({:.3} s = 2 x limit + 1 s) and any late \
                         result discarded; solve_s is wall time (CPU time unknown)",
                        limit.as_secs_f64(),
                        elapsed.as_secs_f64()
                    )),
                };
                drop(current);
                // The search's counts are unknown, not zero: written as if it had no tree.
                shared.submit(pos, &outcome, false, &mut row);
                abandoned += 1;
                eprintln!(
                    "sudolab: warning: job {} ({} on {} #{}) ignored its time limit; \
                     its thread was abandoned",
                    job.job,
                    shared.exp.engines[job.config as usize].label,
                    shared.exp.datasets[job.dataset as usize].name,
                    job.puzzle + 1
                );
                replacements += 1;
            }
        }
        workers.retain(|(slot, handle)| {
            !(slot.abandoned.load(Ordering::SeqCst) && handle.is_finished())
        });
        for _ in 0..replacements {
            workers.push(spawn_worker(shared, next_id)?);
            next_id += 1;
        }
        let live = workers
            .iter()
            .filter(|(s, h)| !s.abandoned.load(Ordering::SeqCst) && !h.is_finished())
            .count();
        let finished = shared.finished.load(Ordering::SeqCst);
        if live == 0 && finished < total {
            if let Some(e) = lock(&shared.failure).clone() {
                bar.abandon();
                bail!(e);
            }
            bail!("internal error: every worker stopped with {finished} of {total} jobs done");
        }
        bar.set_position(finished as u64);
    }
    bar.finish_and_clear();
    Ok(abandoned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::EngineSpec;

    /// Ignores its limits and its cancel flag: sleeps far past any deadline, as an engine
    /// stuck in a non-interruptible call (varisat) would.
    struct Stuck;

    impl Engine for Stuck {
        fn solve(&mut self, _: &Puzzle, _: &Limits) -> Outcome {
            std::thread::sleep(Duration::from_secs(60));
            Outcome::unsupported("woke up")
        }
    }

    /// Watches only its cancel flag (no clock): stops when the watchdog cancels it.
    struct CancelOnly;

    impl Engine for CancelOnly {
        fn solve(&mut self, _: &Puzzle, limits: &Limits) -> Outcome {
            let flag = limits
                .cancel
                .clone()
                .expect("the runner gives a cancel flag");
            let start = Instant::now();
            while !flag.load(Ordering::SeqCst) {
                assert!(start.elapsed() < Duration::from_secs(20), "never cancelled");
                std::thread::sleep(Duration::from_millis(2));
            }
            let mut o = Outcome::unsupported("cancelled");
            o.status = Status::TimeLimit;
            o.wall = start.elapsed();
            o
        }
    }

    struct Panics;

    impl Engine for Panics {
        fn solve(&mut self, _: &Puzzle, _: &Limits) -> Outcome {
            panic!("test engine failure")
        }
    }

    fn factory(spec: &EngineSpec) -> Result<Box<dyn Engine>, String> {
        match spec.name.as_str() {
            "stuck" => Ok(Box::new(Stuck)),
            "cancel-only" => Ok(Box::new(CancelOnly)),
            "panics" => Ok(Box::new(Panics)),
            _ => spec.make().map_err(|e| e.to_string()),
        }
    }

    fn run_with(engines: &str, time: f64) -> (RunReport, Vec<Record>, Duration) {
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("e.toml");
        let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pe96.txt");
        std::fs::write(
            &cfg,
            format!(
                "name = \"w\"\n[limits]\ntime = {time}\n[[datasets]]\npath = \"{data}\"\n\
                 first = 2\n{engines}"
            ),
        )
        .unwrap();
        let opts = RunOptions {
            threads: Some(1),
            out: Some(dir.path().join("w.csv")),
            factory: Arc::new(factory),
            ..RunOptions::default()
        };
        let t = Instant::now();
        let report = run(&cfg, &opts).unwrap();
        let elapsed = t.elapsed();
        let records = report.records().unwrap();
        // The summary reported is the summary of the rows on disk.
        assert_eq!(report.rows, records.len());
        assert_eq!(report.summary, crate::records::summarize(&records));
        (report, records, elapsed)
    }

    #[test]
    fn watchdog_abandons_a_thread_that_ignores_its_limit() {
        let engines = "[[engines]]\nengine = \"stuck\"\n[[engines]]\nengine = \"human\"\n";
        let (report, records, elapsed) = run_with(engines, 0.1);
        // Two stuck jobs, each abandoned at 2 x 0.1 + 1 = 1.2 s; one thread, replaced each
        // time, so the human jobs still run.
        assert_eq!(report.abandoned, 2);
        assert!(elapsed < Duration::from_secs(10), "{elapsed:?}");
        assert!(elapsed >= Duration::from_millis(2400), "{elapsed:?}");
        let r = &records;
        assert_eq!(r.len(), 4);
        for rec in r.iter().filter(|r| r.engine == "stuck") {
            assert_eq!(rec.status, "time-limit");
            assert!(rec.note.contains("abandoned"), "{}", rec.note);
            assert!(rec.wall_s >= 1.2 && rec.wall_s < 5.0, "{}", rec.wall_s);
        }
        for rec in r.iter().filter(|r| r.engine == "human") {
            assert_eq!(rec.status, "unique");
        }
        let jobs: Vec<u64> = r.iter().map(|r| r.job).collect();
        assert_eq!(jobs, [0, 1, 2, 3]);
    }

    #[test]
    fn watchdog_cancels_at_the_time_limit() {
        let engines = "[[engines]]\nengine = \"cancel-only\"\n";
        let (report, records, elapsed) = run_with(engines, 0.1);
        assert_eq!(report.abandoned, 0);
        assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
        for rec in &records {
            assert_eq!(rec.status, "time-limit");
            assert!(rec.wall_s >= 0.1 && rec.wall_s < 1.0, "{}", rec.wall_s);
        }
    }

    #[test]
    fn statuses_are_numbered_in_the_order_of_all() {
        for (i, s) in Status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i, "{s}");
        }
    }

    #[test]
    fn a_panic_is_an_error_row_and_the_run_goes_on() {
        let engines = "[[engines]]\nengine = \"panics\"\n[[engines]]\nengine = \"dlx\"\n";
        let (_, records, _) = run_with(engines, 1.0);
        let statuses: Vec<&str> = records.iter().map(|r| r.status.as_str()).collect();
        assert_eq!(statuses, ["error", "unique", "error", "unique"]);
        assert!(records[0].note.contains("test engine failure"));
    }
}
