//! The baseline of the runner's overhead benchmark (`scripts/bench/runner.sh`): what
//! `sudolab run` does for a one-engine, one-thread experiment minus the runner itself
//! ([`sudolab::experiment::baseline::bare_loop`]). Reads a puzzle file, runs one engine
//! configuration on every puzzle once through `engines::run` (solutions checked, up to two,
//! default limits: as the runner's jobs), prints the count of each status. The benchmark
//! times the same loop in the `sudolab` binary (`sudolab bench-loop FILE ENGINE`), where the
//! engine's code sits where `sudolab run` has it.
//!
//! ```text
//! cargo bench --bench engine_loop -- FILE ENGINE[:KEY=VALUE,...]
//! ```

mod common;

fn main() {
    let args = common::args();
    let [file, spec] = &args[..] else {
        eprintln!("usage: engine_loop FILE ENGINE[:KEY=VALUE,...]");
        std::process::exit(2);
    };
    match sudolab::experiment::baseline::bare_loop(std::path::Path::new(file), spec) {
        Ok(line) => println!("{line}"),
        Err(e) => {
            eprintln!("{e:#}");
            std::process::exit(2)
        }
    }
}
