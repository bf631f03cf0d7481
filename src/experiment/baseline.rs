//! The baseline of the runner's overhead benchmark (`scripts/bench/runner.sh`): what
//! `sudolab run` does for a one-engine, one-thread experiment minus the runner itself. Reads
//! a puzzle file, runs one engine configuration on every puzzle once through
//! [`engines::run`] (solutions checked, up to two, default limits: as the runner's jobs) and
//! counts each status.
//!
//! It is reached two ways: `benches/engine_loop.rs`, and the hidden `sudolab bench-loop
//! FILE ENGINE`, which the benchmark times. In the `sudolab` binary the engine's machine code
//! sits at the same addresses for the loop and for `sudolab run`; two binaries place the
//! same code differently, which moves the bare loop's CPU time by 2-4% between builds, as
//! much as the runner's whole overhead (docs/benchmarks.md, `scripts/bench/runner.sh`).

use crate::engines::{self, EngineError, EngineSpec, Limits, SpecError};
use crate::puzzle::{read_puzzles, ParseError};
use std::collections::BTreeMap;
use std::path::Path;

/// Why [`bare_loop`] could not run.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BaselineError {
    /// The puzzle file could not be read.
    #[error(transparent)]
    Puzzles(#[from] ParseError),
    /// The engine specification is not `NAME[:KEY=VALUE,...]`.
    #[error(transparent)]
    Spec(#[from] SpecError),
    /// The engine could not be made.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Runs engine `spec` on every puzzle of `file` and returns the line to print: the number
/// of puzzles, the engine and the count of each status.
pub fn bare_loop(file: &Path, spec: &str) -> Result<String, BaselineError> {
    let puzzles = read_puzzles(file)?;
    let spec: EngineSpec = spec.parse()?;
    let mut engine = spec.make()?;
    let limits = Limits::solutions(2);
    let mut counts: BTreeMap<&str, u64> = BTreeMap::new();
    for p in &puzzles {
        let o = engines::run(engine.as_mut(), p, &limits);
        *counts.entry(o.status.as_str()).or_insert(0) += 1;
    }
    Ok(format!("{} puzzles, {spec}: {counts:?}", puzzles.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_every_puzzle_by_status() {
        let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pe96.txt");
        let line = bare_loop(Path::new(file), "human").unwrap();
        assert!(line.starts_with("50 puzzles, human: {"), "{line}");
        assert!(bare_loop(Path::new(file), "no-such-engine").is_err());
    }
}
