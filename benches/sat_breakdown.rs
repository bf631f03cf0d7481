//! Where the time of the `sat` engine goes, per puzzle and per phase, for `extended` (givens
//! as unit clauses) and `optimized`, both on varisat, counting to 2 as the engine does:
//!
//! ```text
//! cargo bench --bench sat_breakdown -- [FILE] [--reps R]
//! ```
//!
//! Phases (wall clock, `Instant`): encode (with reused working memory, as the engine); new backend; load the clauses; first solve (with
//! the model copied out); decode + solution check; blocking clause + add; second solve; drop.
//! Then the whole engine (`engines::run`) on the same puzzle, and varisat alone on the same
//! formula (literals converted beforehand: new solver, clauses, solve, model, blocking
//! clause, solve, drop), the part of the engine that no change on this side can shorten. The two sides alternate puzzle by
//! puzzle (same binary, same moment), R rounds over the file; each puzzle's time per phase is
//! its best over the rounds; the table gives the median and the mean over the puzzles.

mod common;

use std::time::Instant;
use sudolab::cnf::{self, CnfEncoding, CnfOptions, Deadline, SatAnswer};
use sudolab::engines::{self, EngineOptions, Limits};
use sudolab::puzzle::{read_puzzles, Puzzle};
use varisat::{ExtendFormula, Lit};

const PHASES: [&str; 10] = [
    "encode",
    "new backend",
    "load clauses",
    "solve 1 (+ model)",
    "decode + check",
    "block + add",
    "solve 2",
    "drop",
    "engine (whole)",
    "varisat alone",
];

fn phases(
    p: &Puzzle,
    opts: &CnfOptions,
    scratch: &mut cnf::Scratch,
    engine: &mut dyn engines::Engine,
) -> [f64; 10] {
    let mut t = [0f64; 10];
    let budget = Deadline::default();
    let mut clock = Instant::now();
    let mut lap = |i: usize, t: &mut [f64; 10]| {
        let now = Instant::now();
        t[i] = (now - clock).as_secs_f64() * 1e6;
        clock = now;
    };
    let cnf = cnf::encode_with(p, opts, scratch);
    lap(0, &mut t);
    let mut b = cnf::make_backend("varisat").unwrap();
    lap(1, &mut t);
    b.add_cnf(&cnf);
    lap(2, &mut t);
    let SatAnswer::Sat(m) = b.solve(&cnf.assumptions, &budget).unwrap() else {
        panic!("unsat")
    };
    lap(3, &mut t);
    let grid = cnf::decode(&cnf.info, &m).unwrap();
    p.check_solution(&grid).unwrap();
    lap(4, &mut t);
    let block = cnf.blocking_clause(&grid).unwrap();
    b.add_clause(&block);
    lap(5, &mut t);
    let again = b.solve(&cnf.assumptions, &budget).unwrap();
    lap(6, &mut t);
    drop(b);
    lap(7, &mut t);
    assert_eq!(again, SatAnswer::Unsat);
    scratch.recycle(cnf);
    let s = Instant::now();
    let o = engines::run(engine, p, &Limits::solutions(2));
    t[8] = s.elapsed().as_secs_f64() * 1e6;
    assert_eq!(o.count, 1);
    let clauses = cnf_lits(&cnf::encode(p, opts));
    t[9] = varisat_alone(&clauses, &cnf_lits_one(&block));
    t
}

/// The clauses of a formula as varisat literals.
fn cnf_lits(cnf: &cnf::Cnf) -> Vec<Vec<Lit>> {
    cnf.clauses.iter().map(cnf_lits_one).collect()
}

fn cnf_lits_one(c: &[i32]) -> Vec<Lit> {
    c.iter().map(|&l| Lit::from_dimacs(l as isize)).collect()
}

/// varisat on its own, literals converted beforehand: new solver, every clause, solve, the
/// model, the blocking clause, solve again, drop (µs).
fn varisat_alone(clauses: &[Vec<Lit>], block: &[Lit]) -> f64 {
    let s = Instant::now();
    let mut solver = varisat::Solver::new();
    for c in clauses {
        solver.add_clause(c);
    }
    assert!(solver.solve().unwrap());
    std::hint::black_box(solver.model());
    solver.add_clause(block);
    assert!(!solver.solve().unwrap());
    drop(solver);
    s.elapsed().as_secs_f64() * 1e6
}

fn main() {
    let args = common::args();
    let mut file = format!("{}/data/magictour-top1465.txt", env!("CARGO_MANIFEST_DIR"));
    let mut reps = 3;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--reps" {
            i += 1;
            reps = args[i].parse().expect("--reps R");
        } else {
            file = args[i].clone();
        }
        i += 1;
    }
    let puzzles = read_puzzles(std::path::Path::new(&file)).unwrap_or_else(|e| panic!("{e}"));
    let sides = [CnfEncoding::Extended, CnfEncoding::Optimized];
    let mut engines: Vec<_> = sides
        .iter()
        .map(|e| engines::make("sat", &EngineOptions::new().with("encoding", e.as_str())).unwrap())
        .collect();
    let mut scratch: Vec<cnf::Scratch> = sides.iter().map(|_| cnf::Scratch::new()).collect();
    // best[side][puzzle][phase]
    let mut best = vec![vec![[f64::MAX; 10]; puzzles.len()]; 2];
    for _ in 0..reps {
        for (k, p) in puzzles.iter().enumerate() {
            for (s, &enc) in sides.iter().enumerate() {
                let opts = CnfOptions {
                    encoding: enc,
                    ..CnfOptions::default()
                };
                let t = phases(p, &opts, &mut scratch[s], engines[s].as_mut());
                for (b, x) in best[s][k].iter_mut().zip(t) {
                    *b = b.min(x);
                }
            }
        }
    }
    let stat = |s: usize, ph: usize| {
        let mut v: Vec<f64> = best[s].iter().map(|t| t[ph]).collect();
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v.iter().sum::<f64>() / v.len() as f64)
    };
    println!(
        "{} puzzles of {file}, best of {reps} per puzzle, µs (wall)",
        puzzles.len()
    );
    println!("| phase | extended median | extended mean | optimized median | optimized mean |");
    println!("|---|---|---|---|---|");
    let mut sums = [[0f64; 2]; 2];
    for (ph, name) in PHASES.iter().enumerate() {
        let (em, ea) = stat(0, ph);
        let (om, oa) = stat(1, ph);
        println!("| {name} | {em:.1} | {ea:.1} | {om:.1} | {oa:.1} |");
        if ph < 8 {
            sums[0][1] += ea;
            sums[1][1] += oa;
        }
    }
    println!(
        "| sum of phases (mean) | | {:.1} | | {:.1} |",
        sums[0][1], sums[1][1]
    );
    for (ph, what) in [(8, "engine"), (9, "varisat alone")] {
        let (em, ea) = stat(0, ph);
        let (om, oa) = stat(1, ph);
        println!(
            "{what}: extended/optimized {:.2}x by median, {:.2}x by mean",
            em / om,
            ea / oa
        );
    }
}
