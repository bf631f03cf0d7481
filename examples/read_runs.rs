//! Reads the run records of a committed experiment (a runner CSV, here gzip-compressed) with
//! the library's reader, which checks every row as `sudolab summary` does, and prints per
//! configuration the runs, how many answered, and the median CPU time of the answered ones;
//! then the library's own summary of the same rows (what `sudolab summary` prints).
//!
//! ```text
//! cargo run --release --example read_runs                        # results/killer.csv.gz
//! cargo run --release --example read_runs -- results/large.csv.gz
//! ```

use std::collections::BTreeMap;
use std::path::PathBuf;
use sudolab::records::{read_records, summarize};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("results/killer.csv.gz"),
        PathBuf::from,
    );
    // `.csv` or `.csv.gz`: the reader recognises gzip by its magic bytes.
    let records = read_records(std::slice::from_ref(&path))?;
    println!("{}: {} runs", path.display(), records.len());

    // Per configuration: (runs, CPU seconds of the answered runs).
    let mut by_config: BTreeMap<&str, (usize, Vec<f64>)> = BTreeMap::new();
    for r in &records {
        let entry = by_config.entry(&r.config).or_default();
        entry.0 += 1;
        if r.answered() {
            entry.1.push(r.cpu_s);
        }
    }
    println!(
        "{:32} {:>6} {:>9} {:>14}",
        "config", "runs", "answered", "median CPU ms"
    );
    for (config, (runs, mut cpu)) in by_config {
        cpu.sort_by(f64::total_cmp);
        let n = cpu.len();
        let median = match n {
            0 => f64::NAN,
            _ if n % 2 == 1 => cpu[n / 2] * 1e3,
            _ => (cpu[n / 2 - 1] + cpu[n / 2]) / 2.0 * 1e3,
        };
        println!("{config:32} {runs:>6} {:>9} {median:>14.3}", cpu.len());
    }

    // The summary's rules (repetitions, PAR-2, ...) are in docs/experiments.md.
    for line in summarize(&records) {
        let par2 = line.par2_s.map_or("-".to_string(), |s| format!("{s:.4} s"));
        println!(
            "{}: {} of {} instances solved, PAR-2 {par2}",
            line.config, line.solved, line.instances
        );
    }
    Ok(())
}
