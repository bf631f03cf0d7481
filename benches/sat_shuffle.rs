//! How much a SAT backend's time on one puzzle depends on the variable numbering alone: the
//! puzzle's `reduced` formula (`cnf::encode` with default options, what `sudolab encode
//! --encoding reduced` writes), its variables renamed by a random permutation per seed (the
//! `renamed:SEED:BACKEND` backend; seed 0: the numbering of the encoder), each renamed formula given to a fresh backend and solved
//! to its first answer, one seed after the other on one thread:
//!
//! ```text
//! cargo bench --bench sat_shuffle -- FILE [SEEDS] [LIMIT_S] [BACKEND]
//! ```
//!
//! Defaults: seeds 0..12, 60 s per solve, backend `cadical:sat`. Prints one line per seed
//! (answer, seconds of wall time from the first clause given to the answer), then the median,
//! the minimum, the maximum and the expected minimum of two independent seeds (the time a
//! race of two renamed copies would take, one core each), over the seeds; a seed stopped by
//! the limit counts as the limit. The renaming changes nothing but the numbers, so the
//! spread is the search's sensitivity to its initial variable order: the heavy tail of
//! Gomes, Selman and Kautz ("Heavy-tailed phenomena in satisfiability and constraint
//! satisfaction problems", JAR 2000) that diversified portfolios exploit.

mod common;

use std::time::{Duration, Instant};
use sudolab::cnf::backend::Renamed;
use sudolab::cnf::{self, make_backend, CnfEncoding, CnfOptions, Deadline, SatAnswer, SatBackend};

fn main() {
    let args = common::args();
    let Some(file) = args.first() else {
        eprintln!("usage: sat_shuffle FILE [SEEDS] [LIMIT_S] [BACKEND]");
        std::process::exit(2);
    };
    let seeds: u64 = args.get(1).map_or(12, |s| s.parse().expect("SEEDS"));
    let limit: f64 = args.get(2).map_or(60.0, |s| s.parse().expect("LIMIT_S"));
    let backend = args.get(3).map_or("cadical:sat", |s| s.as_str());
    let puzzles = common::puzzles_or_exit(file);
    let options = CnfOptions {
        encoding: CnfEncoding::Reduced,
        ..CnfOptions::default()
    };
    let formula = cnf::encode(&puzzles[0], &options);
    let n = formula.num_vars as usize;
    println!(
        "# {file}: puzzle 1, {n} variables, {} clauses; backend {backend}, limit {limit} s",
        formula.clauses.len()
    );
    let mut times = Vec::new();
    for seed in 0..seeds {
        // The renaming of the `renamed:SEED:BACKEND` backend (seed 0: none).
        let inner = make_backend(backend).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        });
        let mut solver = Renamed::new(seed, inner);
        solver.reserve_vars(n as u32);
        let start = Instant::now();
        for c in formula.clauses.iter() {
            solver.add_clause(c);
        }
        let budget = Deadline {
            at: Some(start + Duration::from_secs_f64(limit)),
            cancel: None,
        };
        let answer = match solver.solve(&[], &budget) {
            Ok(SatAnswer::Sat(_)) => "sat",
            Ok(SatAnswer::Unsat) => "unsat",
            Ok(SatAnswer::Interrupted(_)) => "limit",
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2)
            }
        };
        let secs = start.elapsed().as_secs_f64().min(limit);
        println!("seed {seed:3} {answer:5} {secs:8.2} s");
        times.push(secs);
    }
    times.sort_by(f64::total_cmp);
    let k = times.len();
    if k == 0 {
        return;
    }
    // The minimum of two draws with replacement is the i-th smallest (0-based) with
    // probability ((k - i)^2 - (k - i - 1)^2) / k^2.
    let race: f64 = times
        .iter()
        .enumerate()
        .map(|(i, t)| t * ((k - i).pow(2) - (k - i - 1).pow(2)) as f64)
        .sum::<f64>()
        / (k * k) as f64;
    println!(
        "median {:.2} s  min {:.2} s  max {:.2} s  expected min of two {:.2} s  ({k} seeds)",
        times[k / 2],
        times[0],
        times[k - 1],
        race
    );
}
