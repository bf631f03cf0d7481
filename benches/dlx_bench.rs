//! Timing loop of the `dlx` engine, shaped like `fast_bench`: puzzles parsed up front, then one
//! thread solves every puzzle counting up to two solutions (`engine.solve`, the engine's own
//! work: linking or restoring the matrix, the givens, the search; not the runner's solution
//! check), pass after pass, until `MIN_CPU_SECS` of thread CPU time have passed; the rate is
//! puzzles per CPU second and per wall second.
//!
//! ```text
//! cargo bench --bench dlx_bench -- MODE FILE [MIN_CPU_SECS] [ENGINE_SPEC]
//! ```
//!
//! Modes: `solve` = the timing loop (ENGINE_SPEC defaults to `dlx`); `counts` = one untimed
//! pass printing, per puzzle, its line number (1-based among the puzzles read), status,
//! nodes and updates: the file `tests/data/dlx-counts.txt` is made from it (see the
//! `dlx_counts` test). `scripts/bench/dlx.sh` runs an old and a new build of it interleaved.
//! Only the public API is used, so the same file builds against older versions of sudolab.

mod common;

use std::time::Instant;
use sudolab::engines::{EngineSpec, Limits, Status};
use sudolab::timing::thread_cpu_time;

fn main() {
    let args = common::args();
    if args.len() < 2 {
        eprintln!("usage: dlx_bench solve|counts FILE [MIN_CPU_SECS] [ENGINE_SPEC]");
        std::process::exit(2);
    }
    let (mode, file) = (args[0].as_str(), args[1].as_str());
    let min_secs: f64 = args.get(2).map_or(2.0, |s| s.parse().expect("seconds"));
    let spec: EngineSpec = args
        .get(3)
        .map_or("dlx", String::as_str)
        .parse()
        .expect("engine spec");
    let puzzles = common::puzzles_or_exit(file);
    let limits = Limits::solutions(2);
    let mut engine = spec.make().expect("engine");
    if mode == "counts" {
        for (k, p) in puzzles.iter().enumerate() {
            let o = engine.solve(p, &limits);
            println!(
                "{} {} {} {}",
                k + 1,
                o.status.as_str(),
                o.stats.nodes,
                o.stats.updates.map_or("-".to_string(), |u| u.to_string())
            );
        }
        return;
    }
    assert_eq!(mode, "solve", "unknown mode {mode}");
    let (w0, c0) = (Instant::now(), thread_cpu_time());
    let (mut calls, mut found, mut passes, mut nodes) = (0u64, 0u64, 0u64, 0u64);
    loop {
        for p in &puzzles {
            let o = engine.solve(p, &limits);
            assert_ne!(o.status, Status::Error);
            found += o.count;
            nodes += o.stats.nodes;
        }
        calls += puzzles.len() as u64;
        passes += 1;
        if (thread_cpu_time() - c0).as_secs_f64() >= min_secs {
            break;
        }
    }
    let (wall, cpu) = (
        w0.elapsed().as_secs_f64(),
        (thread_cpu_time() - c0).as_secs_f64(),
    );
    println!(
        "{spec} {file} puzzles={} passes={passes} solutions_found={found} nodes={nodes} \
         wall_s={wall:.3} cpu_s={cpu:.3} rate_wall={:.1}/s rate_cpu={:.1}/s usec_cpu={:.2}",
        puzzles.len(),
        calls as f64 / wall,
        calls as f64 / cpu,
        1e6 * cpu / calls as f64
    );
}
