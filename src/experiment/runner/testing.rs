//! Engines that misbehave, injected through the runner's engine factory, and a one-thread
//! run of them for the tests of the watchdog and the workers.

use super::{run, RunOptions, RunReport};
use crate::engines::{Engine, EngineError, EngineSpec, Limits, Outcome, Status};
use crate::puzzle::Puzzle;
use crate::records::record::Record;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Ignores its limits and its cancel flag: sleeps far past any deadline, as an engine
/// stuck in a non-interruptible call (varisat) would.
pub struct Stuck;

impl Engine for Stuck {
    fn solve(&mut self, _: &Puzzle, _: &Limits) -> Outcome {
        std::thread::sleep(Duration::from_secs(60));
        Outcome::unsupported("woke up")
    }
}

/// Watches only its cancel flag (no clock): stops when the watchdog cancels it.
pub struct CancelOnly;

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

pub struct Panics;

impl Engine for Panics {
    fn solve(&mut self, _: &Puzzle, _: &Limits) -> Outcome {
        panic!("test engine failure")
    }
}

/// The registered engines, and `stuck`, `cancel-only` and `panics`.
pub fn factory(spec: &EngineSpec) -> Result<Box<dyn Engine>, EngineError> {
    match spec.name.as_str() {
        "stuck" => Ok(Box::new(Stuck)),
        "cancel-only" => Ok(Box::new(CancelOnly)),
        "panics" => Ok(Box::new(Panics)),
        _ => spec.make(),
    }
}

/// Runs the `engines` (`[[engines]]` tables) with time limit `time` (seconds) on the first
/// two puzzles of data/pe96.txt, one thread; returns the report, the rows and the time taken.
pub fn run_with(engines: &str, time: f64) -> (RunReport, Vec<Record>, Duration) {
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
