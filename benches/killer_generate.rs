//! Time to generate killer puzzles (`generate --killer`, no givens), one puzzle per seed, with
//! the work of each: uniqueness checks, checks that found two solutions, checks stopped by the
//! node limit, cages split, and the cages of the puzzle.
//!
//! ```text
//! cargo bench --bench killer_generate -- N [SEEDS] [ENGINE|-] [NODE_LIMIT]
//! ```
//!
//! `SEEDS` seeds `0..SEEDS` (default 5); `ENGINE` the engine of the checks (default, or `-`:
//! dlx); `NODE_LIMIT` the node limit of each check (default that of `generate --killer`).

mod common;

use std::time::Instant;
use sudolab::engines::EngineSpec;
use sudolab::generate::killer::{KillerGenerator, KillerOptions};

fn main() {
    let args = common::args();
    let n: usize = args
        .first()
        .map_or(9, |s| s.parse().expect("N is a number"));
    let seeds: u64 = args
        .get(1)
        .map_or(5, |s| s.parse().expect("SEEDS is a number"));
    let engine: Option<EngineSpec> = args
        .get(2)
        .filter(|s| *s != "-")
        .map(|s| s.parse().expect("an engine spec"));
    let node_limit: Option<u64> = args.get(3).map(|s| s.parse().expect("a node limit"));
    println!("size,seed,seconds,checks,multiple,undecided,splits,cages");
    for seed in 0..seeds {
        let options = KillerOptions {
            seed,
            engine: engine.clone(),
            node_limit: node_limit.unwrap_or(KillerOptions::new(n).node_limit),
            ..KillerOptions::new(n)
        };
        let start = Instant::now();
        let mut generator = KillerGenerator::new(options).unwrap_or_else(|e| panic!("{e}"));
        let puzzle = generator.next_puzzle().unwrap_or_else(|e| panic!("{e}"));
        let secs = start.elapsed().as_secs_f64();
        let s = generator.last_stats();
        println!(
            "{n},{seed},{secs:.3},{},{},{},{},{}",
            s.checks,
            s.refused,
            s.undecided,
            s.splits,
            puzzle.cages().len()
        );
    }
}
