//! The worker threads and what they share: the jobs, the engines' configurations, and the
//! rows on their way to the output.
//!
//! Each worker takes the next job from a shared counter, keeps one engine per configuration
//! (made on its first job, made anew after a panic), and formats its row outside any lock
//! into its own reused buffer; the row then joins the pending rows under a short lock, and the
//! pending rows reach the file in one `write` ([`Shared::flush`]). The watchdog
//! ([`super::watchdog`]) sees each worker through its [`Slot`].

use super::error::{RunError, RunErrorKind};
use super::load::Loaded;
use super::{hard_deadline, FLUSH_BYTES};
use crate::engines::{self, Engine, EngineError, Limits, Outcome, Status};
use crate::experiment::config::{EngineFactory, Experiment};
use crate::experiment::jobs::Job;
use crate::records::error::FileError;
use crate::records::rowfile::RowSink;
use crate::records::summary::RunView;
use crate::records::writer::{self, RowParts};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Instant;

/// What the workers and the watchdog share.
pub(super) struct Shared {
    pub exp: Experiment,
    datasets: Vec<Loaded>,
    /// Per configuration (without a cancel flag; each thread adds its own).
    pub limits: Vec<Limits>,
    /// Per configuration: [`writer::config_prefix`] and whether its engine has a search tree.
    config_prefixes: Vec<writer::ConfigPrefix>,
    /// Per configuration: [`writer::config_suffix`] of its limits and the shard.
    config_suffixes: Vec<Vec<u8>>,
    pub search_tree: Vec<bool>,
    /// This invocation's jobs, in run order.
    pub todo: Vec<Job>,
    next: AtomicUsize,
    pub out: Output,
    /// Rows handed to the output by this invocation (buffered or written): the length of
    /// `out.pending.done`, stored under that lock (a plain store, not a locked add per row).
    pub finished: AtomicUsize,
    /// The first write error: the run stops.
    pub failure: Mutex<Option<FileError>>,
    pub stop: AtomicBool,
    factory: Arc<EngineFactory>,
    /// The watchdog's thread (the one that runs [`super::watchdog::execute`]), unparked when
    /// the last row is handed over or the run fails, so that it does not sleep out its tick.
    watchdog: std::thread::Thread,
}

/// The output's rows: formatted by each worker into its own buffer, appended to `pending`
/// under a short lock, and written to the file by [`Shared::flush`] (at least every
/// [`FLUSH_EVERY`](super::FLUSH_EVERY), when [`FLUSH_BYTES`] are pending, and when the run
/// ends in any way).
pub(super) struct Output {
    pub pending: Mutex<Pending>,
    pub sink: Mutex<Sink>,
}

pub(super) struct Pending {
    /// Complete rows not yet written.
    rows: Vec<u8>,
    /// What the summary needs of each row handed over by this invocation.
    pub done: Vec<Done>,
}

pub(super) struct Sink {
    pub file: RowSink,
    /// The buffer swapped with `pending.rows` at each flush (both reused: no allocation).
    spare: Vec<u8>,
    /// Rows written to the file by this invocation.
    pub rows: usize,
}

/// What the summary keeps of a row written by this invocation (the rest follows from `pos`).
/// 32 bytes, one per job: kept small, as every page of it costs a page fault.
pub(super) struct Done {
    pub pos: u32,
    pub status: Status,
    /// Whether the row has `nodes` and `guesses` (an engine with a search tree, and not a row
    /// the watchdog wrote for an abandoned thread).
    counted: bool,
    cpu_s: f64,
    nodes: u64,
    guesses: u64,
}

/// One worker thread as the watchdog sees it.
pub(super) struct Slot {
    pub current: Mutex<Option<Running>>,
    /// Set by the watchdog when it gives up on the thread; the thread then exits at once.
    pub abandoned: AtomicBool,
    pub cancel: Arc<AtomicBool>,
}

/// The job a worker is running, and when it is to be cancelled (`soft`) and abandoned (`hard`).
pub(super) struct Running {
    pub pos: usize,
    pub started: Instant,
    pub soft: Option<Instant>,
    pub hard: Option<Instant>,
}

/// Locks, ignoring poison: a panic is caught per job, and the data behind these locks stays
/// consistent at every unlock.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    /// What the workers share to run `todo`, jobs of `exp` on `datasets`, appending their
    /// rows to `file`. Run by the watchdog's thread.
    pub fn new(
        exp: Experiment,
        datasets: Vec<Loaded>,
        todo: Vec<Job>,
        file: RowSink,
        shard: &str,
        factory: Arc<EngineFactory>,
    ) -> Shared {
        let limits: Vec<Limits> = (0..exp.engines.len()).map(|c| exp.limits(c)).collect();
        let config_prefixes = exp
            .engines
            .iter()
            .map(|c| writer::config_prefix(&c.label, &c.spec))
            .collect();
        let config_suffixes = limits
            .iter()
            .map(|l| writer::config_suffix(l, shard))
            .collect();
        let search_tree = exp
            .engines
            .iter()
            .map(|c| engines::find(&c.spec.name).map_or(true, |i| i.search_tree))
            .collect();
        Shared {
            exp,
            datasets,
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
            factory,
            watchdog: std::thread::current(),
        }
    }

    /// Formats the row of `todo[pos]` into `scratch` and hands it to the output.
    ///
    /// Each job's row is handed over once, by its thread or by the watchdog, never both:
    /// the watchdog gives up on a job only while the job is its slot's `current` and sets
    /// `abandoned` under that lock; the job's thread clears `current` under the same lock
    /// when the engine returns and then hands the row over only if the slot is not
    /// abandoned. (A job without a time limit is never `current`: only its thread sees it.)
    pub fn submit(&self, pos: usize, outcome: &Outcome, search_tree: bool, scratch: &mut Vec<u8>) {
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
    pub fn flush(&self) {
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
            Err(e) => self.fail(e),
        }
    }

    /// The summary's view of a row this invocation wrote. (Made three times per row by the
    /// end-of-run summary: only the fields it reads are looked up. Inlined, so that each pass
    /// of the summary computes only the fields it reads.)
    #[inline(always)]
    pub fn view(&self, d: &Done) -> RunView<'_> {
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

    fn fail(&self, error: FileError) {
        lock(&self.failure).get_or_insert(error);
        self.stop.store(true, Ordering::SeqCst);
        self.watchdog.unpark();
    }
}

/// A worker thread: runs jobs until none is left, the run stops, or the watchdog abandons it.
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
        Ok::<_, EngineError>(engines::run(e.as_mut(), puzzle, limits))
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

/// Starts worker thread number `id`, and returns how the watchdog sees it.
pub(super) fn spawn_worker(
    shared: &Arc<Shared>,
    id: usize,
) -> Result<(Arc<Slot>, JoinHandle<()>), RunError> {
    let slot = Arc::new(Slot {
        current: Mutex::new(None),
        abandoned: AtomicBool::new(false),
        cancel: Arc::new(AtomicBool::new(false)),
    });
    let (s, sl) = (shared.clone(), slot.clone());
    let handle = std::thread::Builder::new()
        .name(format!("sudolab-run-{id}"))
        .spawn(move || worker(s, sl))
        .map_err(RunErrorKind::SpawnWorker)?;
    Ok((slot, handle))
}

#[cfg(test)]
mod tests {
    use super::super::testing::run_with;

    #[test]
    fn a_panic_is_an_error_row_and_the_run_goes_on() {
        let engines = "[[engines]]\nengine = \"panics\"\n[[engines]]\nengine = \"dlx\"\n";
        let (_, records, _) = run_with(engines, 1.0);
        let statuses: Vec<&str> = records.iter().map(|r| r.status.as_str()).collect();
        assert_eq!(statuses, ["error", "unique", "error", "unique"]);
        assert!(records[0].note.contains("test engine failure"));
    }
}
