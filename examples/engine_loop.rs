//! The baseline of the runner's overhead benchmark (`scripts/bench-runner.sh`): what
//! `sudolab run` does for a one-engine, one-thread experiment minus the runner itself. Reads a
//! puzzle file, runs one engine configuration on every puzzle once through `engines::run`
//! (solutions checked, up to two, default limits: as the runner's jobs), prints the count of
//! each status.
//!
//! ```text
//! cargo run --release --example engine_loop -- FILE ENGINE[:KEY=VALUE,...]
//! ```

use std::collections::BTreeMap;
use sudolab::engines::{self, EngineSpec, Limits};
use sudolab::puzzle::read_puzzles;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, spec] = &args[..] else {
        eprintln!("usage: engine_loop FILE ENGINE[:KEY=VALUE,...]");
        std::process::exit(2);
    };
    let puzzles = read_puzzles(std::path::Path::new(file)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let spec: EngineSpec = spec.parse().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut engine = spec.make().unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let limits = Limits::solutions(2);
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for p in &puzzles {
        let o = engines::run(engine.as_mut(), p, &limits);
        *counts.entry(o.status.as_str()).or_insert(0) += 1;
    }
    println!("{} puzzles, {spec}: {counts:?}", puzzles.len());
}
