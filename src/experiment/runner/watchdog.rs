//! The watchdog: the thread that called `run` watches the jobs in flight while the workers
//! run them, cancels a job at its time limit, gives up on one still running at its hard
//! deadline (writing its row itself and starting a replacement thread), writes the pending
//! rows at least every [`FLUSH_EVERY`], moves the progress display, and stops the run on a
//! write error or a caught signal. See the [module docs](super) for why.

use super::error::{RunError, RunErrorKind};
use super::pool::{lock, spawn_worker, Shared};
use super::signals::{self, Interrupted};
use super::{Progress, FLUSH_EVERY};
use crate::engines::{Outcome, Stats, Status};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the watchdog looks at the jobs in flight.
const TICK: Duration = Duration::from_millis(20);

/// Runs `shared.todo` on `threads` threads; the calling thread is the watchdog and writes
/// the pending rows every [`FLUSH_EVERY`]. Returns the number of abandoned jobs. On every
/// way out (all jobs done, a write error, a caught signal, no worker left) the rows handed
/// over are written before it returns.
pub(super) fn execute(
    shared: &Arc<Shared>,
    threads: usize,
    progress: Option<&dyn Progress>,
) -> Result<usize, RunError> {
    let result = watch(shared, threads, progress);
    // Workers take no new job; the ones in flight are lost, and --resume runs them again.
    shared.stop.store(true, Ordering::SeqCst);
    shared.flush();
    let abandoned = result?;
    if let Some(e) = lock(&shared.failure).take() {
        return Err(e.into());
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

/// The watchdog's loop, until every job has its row, a write fails or a signal is caught.
/// Returns the number of abandoned jobs.
fn watch(
    shared: &Arc<Shared>,
    threads: usize,
    progress: Option<&dyn Progress>,
) -> Result<usize, RunError> {
    let total = shared.todo.len();
    let threads = threads.min(total.max(1));
    if let Some(p) = progress {
        p.start(total as u64);
    }
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
    let tick = if progress.is_some() || shared.limits.iter().any(|l| l.time_limit.is_some()) {
        TICK
    } else {
        FLUSH_EVERY
    };
    while shared.finished.load(Ordering::SeqCst) < total {
        if lock(&shared.failure).is_some() || signals::caught().is_some() {
            if let Some(p) = progress {
                p.abandon();
            }
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
                let (pos, started) = (run.pos, run.started);
                drop(current);
                give_up(shared, pos, now - started, &mut row);
                abandoned += 1;
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
            if let Some(e) = lock(&shared.failure).take() {
                if let Some(p) = progress {
                    p.abandon();
                }
                return Err(e.into());
            }
            return Err(RunErrorKind::WorkersGone { finished, total }.into());
        }
        if let Some(p) = progress {
            p.set_position(finished as u64);
        }
    }
    if let Some(p) = progress {
        p.finish();
    }
    Ok(abandoned)
}

/// Writes the row of `todo[pos]`, whose thread the watchdog abandons `elapsed` after the
/// job started: `time-limit`, with a note saying so, and a warning on stderr. `row` is the
/// watchdog's buffer.
fn give_up(shared: &Shared, pos: usize, elapsed: Duration, row: &mut Vec<u8>) {
    let job = shared.todo[pos];
    let limit = shared.limits[job.config as usize]
        .time_limit
        .unwrap_or_default();
    let outcome = Outcome {
        status: Status::TimeLimit,
        count: 0,
        solutions: Vec::new(),
        stats: Stats::default(),
        build: Duration::ZERO,
        solve: elapsed,
        wall: elapsed,
        note: Some(format!(
            "the engine did not stop at its {:.3} s time limit: its thread was abandoned at \
             the hard deadline ({:.3} s = 2 x limit + 1 s) and any late result discarded; \
             solve_s is wall time (CPU time unknown)",
            limit.as_secs_f64(),
            elapsed.as_secs_f64()
        )),
    };
    // The search's counts are unknown, not zero: written as if it had no tree.
    shared.submit(pos, &outcome, false, row);
    eprintln!(
        "sudolab: warning: job {} ({} on {} #{}) ignored its time limit; its thread was \
         abandoned",
        job.job,
        shared.exp.engines[job.config as usize].label,
        shared.exp.datasets[job.dataset as usize].name,
        job.puzzle + 1
    );
}

#[cfg(test)]
mod tests {
    use super::super::testing::run_with;
    use std::time::Duration;

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
}
