//! Measurements of the CNF reduction (run in release):
//!
//! ```text
//! cargo bench --bench sat_study -- [--royle K|all] [--reps R] [--only speed,decisions,rk25]
//! ```
//!
//! 1. speed: the `sat` engine on magictour-top1465 counting up to 2 solutions, for extended
//!    (givens as unit clauses or assumptions) and optimized, with varisat and batsat: the
//!    best of R runs (default 3) by wall time and by thread CPU time (build + solve), which a
//!    loaded machine disturbs less. `--only encode[=ENCODING]` times the encoding alone (with
//!    fresh allocations, and with memory reused as in the engine); `--only
//!    profile=ENCODING:BACKEND` runs one configuration once (for a profiler). `--only
//!    encode-large` times the encoding alone (into a counting sink, working memory reused,
//!    best of 5) of `optimized` and `reduced` on the large grids of data/ (rk-64x64 ..
//!    gen-400x400).
//! 2. decisions: batsat's decisions per puzzle for minimal, efficient, extended and optimized
//!    on Royle's 17-clue puzzles (every k-th puzzle, K of them, default 5000) and on
//!    top1465: mean and median of the first solve call (to the first solution) and of both
//!    calls (counting to 2); the share of puzzles solved by unit propagation alone (first call
//!    with 0 decisions).
//! 3. rk25: the `sat` engine with `optimized` (and `extended`) on data/rk-25x25.txt.

mod common;

use std::time::{Duration, Instant};
use sudolab::cnf::{
    self, backend::Batsat, CnfEncoding, CnfOptions, Deadline, SatAnswer, SatBackend,
};
use sudolab::engines::{self, EngineOptions, Limits, Status};
use sudolab::puzzle::{read_puzzles, Puzzle};

/// The puzzles of a data file, read by the library's reader.
fn lines81(name: &str) -> Vec<Puzzle> {
    let p = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    read_puzzles(std::path::Path::new(&p)).unwrap_or_else(|e| panic!("{e}"))
}

/// The one puzzle of a grid file.
fn grid_file(name: &str) -> Puzzle {
    lines81(name).remove(0)
}

fn sample(v: Vec<Puzzle>, k: Option<usize>) -> Vec<Puzzle> {
    match k {
        Some(k) if k < v.len() => {
            let step = v.len() / k;
            v.into_iter().step_by(step).take(k).collect()
        }
        _ => v,
    }
}

/// What [`run_engine`] measured: wall time, and per puzzle the means of vars, clauses, build
/// CPU and solve CPU.
struct Run {
    wall: Duration,
    vars: f64,
    clauses: f64,
    build_us: f64,
    solve_us: f64,
}

/// Runs the `sat` engine on every puzzle.
fn run_engine(opts: &[(&str, &str)], puzzles: &[Puzzle], limits: &Limits) -> Run {
    let mut o = EngineOptions::new();
    for (k, v) in opts {
        o = o.with(k, v);
    }
    let mut e = engines::make("sat", &o).unwrap();
    let (mut vars, mut clauses) = (0u64, 0u64);
    let (mut build, mut solve) = (Duration::ZERO, Duration::ZERO);
    let t = Instant::now();
    for p in puzzles {
        let out = engines::run(e.as_mut(), p, limits);
        assert!(
            matches!(
                out.status,
                Status::Unique | Status::Multiple | Status::Solved
            ),
            "{:?} {:?}",
            out.status,
            out.note
        );
        vars += out.stats.vars.unwrap_or(0);
        clauses += out.stats.clauses.unwrap_or(0);
        build += out.build;
        solve += out.solve;
    }
    let wall = t.elapsed();
    let n = puzzles.len() as f64;
    Run {
        wall,
        vars: vars as f64 / n,
        clauses: clauses as f64 / n,
        build_us: build.as_secs_f64() * 1e6 / n,
        solve_us: solve.as_secs_f64() * 1e6 / n,
    }
}

fn speed(top: &[Puzzle], reps: usize) {
    println!(
        "\n## speed: sat engine on magictour-top1465 ({} puzzles), count up to 2, best of {reps} runs",
        top.len()
    );
    println!("| encoding | givens | backend | wall s | puzzles/s (wall) | build µs CPU | solve µs CPU | puzzles/s (CPU) | mean vars | mean clauses |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let limits = Limits::solutions(2);
    let mut rates = Vec::new();
    for backend in ["varisat", "batsat"] {
        for (enc, givens) in [
            ("extended", "units"),
            ("extended", "assumptions"),
            ("optimized", "units"),
        ] {
            let runs: Vec<Run> = (0..reps)
                .map(|_| {
                    run_engine(
                        &[("encoding", enc), ("givens", givens), ("backend", backend)],
                        top,
                        &limits,
                    )
                })
                .collect();
            let best_wall = runs.iter().map(|r| r.wall).min().unwrap();
            let r = runs
                .iter()
                .min_by(|a, b| (a.build_us + a.solve_us).total_cmp(&(b.build_us + b.solve_us)))
                .unwrap();
            let wall_rate = top.len() as f64 / best_wall.as_secs_f64();
            let cpu_rate = 1e6 / (r.build_us + r.solve_us);
            rates.push(((enc, givens, backend), wall_rate, cpu_rate));
            println!(
                "| {enc} | {} | {backend} | {:.2} | {wall_rate:.0} | {:.0} | {:.0} | {cpu_rate:.0} | {:.0} | {:.0} |",
                if enc == "optimized" { "eliminated" } else { givens },
                best_wall.as_secs_f64(),
                r.build_us,
                r.solve_us,
                r.vars,
                r.clauses
            );
        }
    }
    let get = |k: (&str, &str, &str)| *rates.iter().find(|(x, _, _)| *x == k).unwrap();
    for b in ["varisat", "batsat"] {
        let (_, ow, oc) = get(("optimized", "units", b));
        let (_, ew, ec) = get(("extended", "units", b));
        println!(
            "optimized / extended(units) speed-up with {b}: {:.2}x by wall, {:.2}x by CPU",
            ow / ew,
            oc / ec
        );
    }
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    if v.is_empty() {
        0
    } else {
        v[v.len() / 2]
    }
}

fn decisions(set: &str, puzzles: &[Puzzle]) {
    println!(
        "\n## batsat decisions per puzzle: {set} ({} puzzles)",
        puzzles.len()
    );
    println!("| encoding | first call: mean | median | max | up to 2: mean | conflicts (up to 2): mean | solved by UP alone | wall s |");
    println!("|---|---|---|---|---|---|---|---|");
    for enc in CnfEncoding::ALL {
        let opts = CnfOptions {
            encoding: enc,
            ..CnfOptions::default()
        };
        let mut first = Vec::with_capacity(puzzles.len());
        let mut total = Vec::with_capacity(puzzles.len());
        let mut conflicts = 0u64;
        let mut up_only = 0usize;
        let t = Instant::now();
        for p in puzzles {
            let cnf = cnf::encode(p, &opts);
            let mut b = Batsat::new();
            b.add_cnf(&cnf);
            let budget = Deadline::default();
            let SatAnswer::Sat(m) = b.solve(&cnf.assumptions, &budget).unwrap() else {
                panic!("unsat")
            };
            let d1 = b.stats().decisions.unwrap();
            first.push(d1);
            if d1 == 0 {
                up_only += 1;
            }
            let grid = cnf::decode(&cnf.info, &m).unwrap();
            p.check_solution(&grid).unwrap();
            let block = cnf.blocking_clause(&grid).unwrap();
            b.add_clause(&block);
            let again = b.solve(&cnf.assumptions, &budget).unwrap();
            assert_eq!(again, SatAnswer::Unsat, "puzzle with two solutions");
            let s = b.stats();
            total.push(s.decisions.unwrap());
            conflicts += s.conflicts.unwrap();
        }
        let n = puzzles.len() as f64;
        let mean = |v: &[u64]| v.iter().sum::<u64>() as f64 / n;
        let (m1, mt) = (mean(&first), mean(&total));
        let max = first.iter().copied().max().unwrap_or(0);
        let med = median(&mut first);
        println!(
            "| {enc} | {m1:.1} | {med} | {max} | {mt:.1} | {:.1} | {:.1}% | {:.2} |",
            conflicts as f64 / n,
            100.0 * up_only as f64 / n,
            t.elapsed().as_secs_f64()
        );
    }
}

fn rk25() {
    let p = grid_file("rk-25x25.txt");
    println!(
        "\n## rk-25x25 ({} givens of {}), sat engine, count up to 2",
        p.clues(),
        p.n() * p.n()
    );
    println!("| encoding | backend | status | wall s | build s | solve s | vars | clauses |");
    println!("|---|---|---|---|---|---|---|---|");
    for (enc, backend) in [
        ("optimized", "varisat"),
        ("optimized", "batsat"),
        ("extended", "varisat"),
        ("extended", "batsat"),
    ] {
        let o = EngineOptions::new()
            .with("encoding", enc)
            .with("backend", backend);
        let mut e = engines::make("sat", &o).unwrap();
        let out = engines::run(e.as_mut(), &p, &Limits::solutions(2));
        println!(
            "| {enc} | {backend} | {} | {:.3} | {:.3} | {:.3} | {} | {} |",
            out.status,
            out.wall.as_secs_f64(),
            out.build.as_secs_f64(),
            out.solve.as_secs_f64(),
            out.stats.vars.unwrap_or(0),
            out.stats.clauses.unwrap_or(0)
        );
    }
}

fn main() {
    let args = common::args();
    let mut royle_k = Some(5000);
    let mut reps = 3;
    let mut only: Option<Vec<String>> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--royle" => {
                i += 1;
                royle_k = match args[i].as_str() {
                    "all" => None,
                    k => Some(k.parse().expect("--royle K|all")),
                };
            }
            "--reps" => {
                i += 1;
                reps = args[i].parse().expect("--reps R");
            }
            "--only" => {
                i += 1;
                only = Some(args[i].split(',').map(String::from).collect());
            }
            a => panic!("unknown argument {a}"),
        }
        i += 1;
    }
    let want = |s: &str| only.as_ref().map_or(true, |o| o.iter().any(|x| x == s));
    let top = lines81("magictour-top1465.txt");
    if want("speed") {
        speed(&top, reps);
    }
    if let Some(cfg) = only
        .as_ref()
        .and_then(|o| o.iter().find(|x| x.starts_with("profile=")))
    {
        // profile=ENCODING:BACKEND: one configuration, for a profiler
        let (enc, backend) = cfg["profile=".len()..].split_once(':').unwrap();
        let r = run_engine(
            &[("encoding", enc), ("backend", backend)],
            &top,
            &Limits::solutions(2),
        );
        println!("{enc} {backend}: {:.3} s", r.wall.as_secs_f64());
    }
    if only
        .as_ref()
        .is_some_and(|o| o.iter().any(|x| x == "encode-large"))
    {
        for name in [
            "rk-64x64.txt",
            "rk-81x81.txt",
            "rk-100x100.txt",
            "rk-144x144.txt",
            "gen-225x225.txt",
            "gen-400x400.txt",
        ] {
            let p = grid_file(name);
            for enc in [CnfEncoding::Optimized, CnfEncoding::Reduced] {
                let opts = CnfOptions {
                    encoding: enc,
                    ..CnfOptions::default()
                };
                let mut scratch = cnf::Scratch::new();
                let mut best = f64::MAX;
                let mut size = None;
                for _ in 0..5 {
                    let t = sudolab::timing::Stopwatch::start();
                    let mut sink = cnf::Counter::default();
                    let e = cnf::encode_into(
                        &p,
                        &opts,
                        &mut sink,
                        &mut scratch,
                        &cnf::EncodeLimits::default(),
                    )
                    .expect("no limits");
                    best = best.min(t.cpu().as_secs_f64());
                    size = Some(e.size);
                    scratch.recycle_info(e.info);
                }
                let s = size.unwrap();
                println!(
                    "encode-large {name} {enc}: {:.1} ms CPU (best of 5), {} vars, {} clauses, {} literals",
                    best * 1e3,
                    s.vars,
                    s.clauses,
                    s.literals
                );
            }
        }
    }
    if let Some(which) = only.as_ref().and_then(|o| {
        o.iter()
            .find(|x| x.starts_with("encode") && *x != "encode-large")
    }) {
        // encode or encode=ENCODING: CPU time of the encoding alone
        for enc in CnfEncoding::ALL {
            if which.len() > 7 && &which[7..] != enc.as_str() {
                continue;
            }
            let opts = CnfOptions {
                encoding: enc,
                ..CnfOptions::default()
            };
            // Fresh allocations per puzzle (`cnf::encode`), and reused working memory and
            // clause store as in the `sat` engine (`cnf::encode_with`, `Scratch::recycle`).
            let mut best = [f64::MAX; 2];
            let mut k = 0;
            let mut scratch = cnf::Scratch::new();
            for _ in 0..5 {
                for (reuse, best) in best.iter_mut().enumerate() {
                    let t = sudolab::timing::Stopwatch::start();
                    k = 0;
                    for p in &top {
                        if reuse == 1 {
                            let f = cnf::encode_with(p, &opts, &mut scratch);
                            k += f.clauses.len();
                            scratch.recycle(f);
                        } else {
                            k += cnf::encode(p, &opts).clauses.len();
                        }
                    }
                    *best = best.min(t.cpu().as_secs_f64() * 1e6 / top.len() as f64);
                }
            }
            println!(
                "encode {enc}: {:.1} µs CPU per puzzle, {:.1} with reused memory (best of 5; {k} clauses)",
                best[0], best[1]
            );
        }
    }
    if only
        .as_ref()
        .is_some_and(|o| o.iter().any(|x| x == "floor"))
    {
        // Fixed cost of a backend: new solver, one clause, SAT, block, UNSAT, drop.
        for name in ["varisat", "batsat"] {
            let k = 20_000;
            let t = sudolab::timing::Stopwatch::start();
            for _ in 0..k {
                let mut b = cnf::make_backend(name).unwrap();
                b.add_clause(&[1, 2]);
                let _ = b.solve(&[], &Deadline::default()).unwrap();
                b.add_clause(&[-1]);
                b.add_clause(&[-2]);
                let _ = b.solve(&[], &Deadline::default()).unwrap();
            }
            println!(
                "floor {name}: {:.1} µs CPU per new solver + SAT call + UNSAT call",
                t.cpu().as_secs_f64() * 1e6 / k as f64
            );
        }
    }
    if want("decisions") {
        let royle = sample(lines81("royle-17clue.txt"), royle_k);
        decisions("royle-17clue", &royle);
        decisions("magictour-top1465", &top);
    }
    if want("rk25") {
        rk25();
    }
}
