//! Puzzles per second of the engines on a puzzle file in any format sudolab reads (default: the
//! 49151 puzzles of `data/royle-17clue.txt`), one thread, counting up to two solutions.
//!
//! ```text
//! cargo bench --bench throughput -- [FILE] [ENGINE[:KEY=VALUE,...] ...]
//! ```
//!
//! Puzzles are parsed before the clock starts; each engine solves every puzzle once per
//! repetition (`REPS` in the environment, default 3) and the best repetition is reported, with
//! the totals of its counters. Every outcome must be `unique`.

mod common;

use std::time::Instant;
use sudolab::engines::{EngineSpec, Limits, Status};
use sudolab::puzzle::{read_puzzles, Puzzle};

fn main() {
    let args = common::args();
    let file = args
        .first()
        .cloned()
        .unwrap_or_else(|| format!("{}/data/royle-17clue.txt", env!("CARGO_MANIFEST_DIR")));
    let names: Vec<String> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        vec!["human".into(), "binary".into()]
    };
    let puzzles: Vec<Puzzle> =
        read_puzzles(std::path::Path::new(&file)).unwrap_or_else(|e| panic!("{e}"));
    let limits = Limits::solutions(2);
    let reps: usize = std::env::var("REPS").map_or(3, |r| r.parse().expect("REPS is a number"));
    println!("{} puzzles from {file}", puzzles.len());
    for name in &names {
        let spec: EngineSpec = name.parse().expect("engine spec NAME[:KEY=VALUE,...]");
        let mut engine = spec.make().expect("engine");
        let mut best = f64::INFINITY;
        let mut totals = (0u64, 0u64, 0u64, Vec::new());
        for _ in 0..reps {
            let t = Instant::now();
            let (mut nodes, mut guesses, mut backtracks) = (0u64, 0u64, 0u64);
            let mut counters: Vec<(&'static str, u64)> = Vec::new();
            for p in &puzzles {
                let o = engine.solve(p, &limits);
                assert_eq!(o.status, Status::Unique, "{name}: {:?}", p.givens());
                nodes += o.stats.nodes;
                guesses += o.stats.guesses;
                backtracks += o.stats.backtracks;
                for (k, v) in o.stats.counters {
                    match counters.iter_mut().find(|(n, _)| *n == k) {
                        Some((_, x)) => *x += v,
                        None => counters.push((k, v)),
                    }
                }
            }
            let secs = t.elapsed().as_secs_f64();
            if secs < best {
                best = secs;
                totals = (nodes, guesses, backtracks, counters);
            }
        }
        let k = puzzles.len() as f64;
        let (nodes, guesses, backtracks, counters) = totals;
        println!(
            "{name:>8}: {:>9.0} puzzles/s ({best:.3} s)  per puzzle: nodes {:.2} guesses {:.2} \
             backtracks {:.2} {}",
            k / best,
            nodes as f64 / k,
            guesses as f64 / k,
            backtracks as f64 / k,
            counters
                .iter()
                .map(|(n, v)| format!("{n} {:.2}", *v as f64 / k))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
