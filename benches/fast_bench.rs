//! Timing loop of the `fast` engine, shaped like the peer harness's loop over the `sudoku` crate
//! (`/work/shared/peers`, mode `sudoku2`): puzzles parsed up front, then one thread solves every
//! puzzle counting up to two solutions, pass after pass, until `MIN_CPU_SECS` of thread CPU
//! time have passed; the rate is puzzles per CPU second and per wall second.
//!
//! ```text
//! cargo bench --bench fast_bench -- MODE FILE [MIN_CPU_SECS]
//! ```
//!
//! Modes: `solver` = the solver called directly ([`sudolab::engines::fast::Solver::count`],
//! the same shape as the peer's `solutions_count_up_to(2)`), with the mean guesses per puzzle
//! of one untimed pass beside the rate; `engine` = through
//! [`sudolab::engines::run`] (the runner's per-run bookkeeping: clocks, outcome, solution
//! check); `guesses` = one untimed pass printing the median and mean guesses per puzzle and
//! the mean nodes (alternatives tried).
//! `scripts/bench/fast.sh` runs it beside the peer harness.

mod common;

use std::time::Instant;
use sudolab::engines::fast::{CountTo, Solver};
use sudolab::engines::{self, EngineSpec, Limits, Status};
use sudolab::timing::thread_cpu_time;

fn main() {
    let args = common::args();
    if args.len() < 2 {
        eprintln!("usage: fast_bench solver|engine|guesses FILE [MIN_CPU_SECS]");
        std::process::exit(2);
    }
    let (mode, file) = (args[0].as_str(), args[1].as_str());
    let min_secs: f64 = args.get(2).map_or(2.0, |s| s.parse().expect("seconds"));
    let puzzles = common::puzzles_or_exit(file);
    let digits: Vec<[u8; 81]> = puzzles
        .iter()
        .map(|p| {
            let mut g = [0u8; 81];
            for (x, &d) in g.iter_mut().zip(p.givens()) {
                *x = d as u8;
            }
            g
        })
        .collect();
    let limits = Limits::solutions(2);
    let mut engine = EngineSpec::new("fast").make().expect("fast engine");
    if mode == "guesses" {
        let (mut guesses, mut nodes) = (Vec::new(), 0u64);
        for p in &puzzles {
            let stats = engines::run(engine.as_mut(), p, &limits).stats;
            guesses.push(stats.guesses);
            nodes += stats.nodes;
        }
        guesses.sort_unstable();
        let n = guesses.len() as f64;
        let mean = guesses.iter().sum::<u64>() as f64 / n;
        println!(
            "guesses {file} puzzles={} median={} mean={mean:.2} nodes/puzzle={:.2}",
            guesses.len(),
            guesses[guesses.len() / 2],
            nodes as f64 / n
        );
        return;
    }
    let mut solver = Solver::new();
    // Guesses per puzzle (tdoku's metric, printed beside the rate): one untimed pass.
    let guesses: u64 = digits
        .iter()
        .map(|g| solver.solve(g, false, &mut CountTo::new(2)).guesses)
        .sum();
    let (w0, c0) = (Instant::now(), thread_cpu_time());
    let (mut calls, mut found, mut passes) = (0u64, 0u64, 0u64);
    loop {
        match mode {
            "solver" => {
                for g in &digits {
                    found += solver.count(g, 2);
                }
            }
            "engine" => {
                for p in &puzzles {
                    let o = engines::run(engine.as_mut(), p, &limits);
                    assert_ne!(o.status, Status::Error);
                    found += o.count;
                }
            }
            _ => panic!("unknown mode {mode}"),
        }
        calls += digits.len() as u64;
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
        "fast-{mode} {file} puzzles={} passes={passes} solutions_found={found} wall_s={wall:.3} \
         cpu_s={cpu:.3} rate_wall={:.1}/s rate_cpu={:.1}/s usec_cpu={:.2} \
         guesses_per_puzzle={:.2}",
        digits.len(),
        calls as f64 / wall,
        calls as f64 / cpu,
        1e6 * cpu / calls as f64,
        guesses as f64 / digits.len() as f64
    );
}
