//! DRAT checking throughput on many small checks: uniqueness proofs of 17-clue 9x9 puzzles.
//!
//! `cargo bench --bench drat` runs it. For each of the first 200 puzzles of
//! `data/royle-17clue.txt`, the formula is the `extended` encoding (729 variables, about
//! 12,000 clauses, nearly all binary, the givens as unit clauses) plus the clause that blocks
//! the puzzle's solution, and the proof is made here by failed-literal probing: each literal
//! whose assumption makes unit propagation conflict gives a unit lemma (its negation), until
//! propagation conflicts; then `0`. Two proofs per puzzle: `probe`, the failed literals only,
//! and `units`, every literal that propagation sets (from the givens on) written out as a
//! unit lemma as well: the longer proof a producer that logs every deduction would write. Puzzles that probing does not solve are left
//! out (the count is printed before timing).
//!
//! Each iteration checks all the puzzles with one reused [`DratChecker`]: `load+check`
//! starts from the encoded clauses, `shared+check` keeps the clauses every formula shares (the
//! empty grid's, which come first) with `truncate` and adds the givens and the blocking
//! clause, `encode+check` encodes each puzzle straight into the checker (as a certifier
//! would). Criterion reports puzzles/s ("elem/s").

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use sudolab::cnf::drat::{CheckMode, DratChecker};
use sudolab::cnf::{self, CnfOptions, Deadline, EncodeLimits, Scratch};
use sudolab::engines::{EngineSpec, Limits};
use sudolab::puzzle::{read_puzzles, Puzzle};

/// Unit propagation with two watched literals, for making the proofs.
struct Propagator {
    clauses: Vec<Vec<i32>>,
    watches: Vec<Vec<usize>>,
    val: Vec<i8>,
    trail: Vec<i32>,
    head: usize,
}

fn code(l: i32) -> usize {
    2 * l.unsigned_abs() as usize + usize::from(l < 0)
}

impl Propagator {
    /// None when the formula has an empty clause or clashing units.
    fn new(vars: u32, clauses: &cnf::Clauses) -> Option<Self> {
        let n = 2 * vars as usize + 2;
        let mut p = Self {
            clauses: clauses.iter().map(<[i32]>::to_vec).collect(),
            watches: vec![Vec::new(); n],
            val: vec![0; n],
            trail: Vec::new(),
            head: 0,
        };
        for (i, c) in p.clauses.iter().enumerate() {
            if c.len() >= 2 {
                p.watches[code(c[0])].push(i);
                p.watches[code(c[1])].push(i);
            }
        }
        for i in 0..p.clauses.len() {
            match p.clauses[i].len() {
                0 => return None,
                1 if !p.assign(p.clauses[i][0]) => return None,
                _ => {}
            }
        }
        Some(p)
    }

    fn value(&self, l: i32) -> i8 {
        self.val[code(l)]
    }

    /// False when `l` is already false.
    fn assign(&mut self, l: i32) -> bool {
        match self.value(l) {
            1 => true,
            -1 => false,
            _ => {
                self.val[code(l)] = 1;
                self.val[code(-l)] = -1;
                self.trail.push(l);
                true
            }
        }
    }

    /// True on a conflict.
    fn propagate(&mut self) -> bool {
        while self.head < self.trail.len() {
            let f = -self.trail[self.head];
            self.head += 1;
            let mut list = std::mem::take(&mut self.watches[code(f)]);
            let mut i = 0;
            let mut conflict = false;
            while i < list.len() {
                let c = list[i];
                let cl = &mut self.clauses[c];
                if cl[0] == f {
                    cl.swap(0, 1);
                }
                if self.val[code(cl[0])] == 1 {
                    i += 1;
                    continue;
                }
                if let Some(k) = (2..cl.len()).find(|&k| self.val[code(cl[k])] != -1) {
                    cl.swap(1, k);
                    self.watches[code(cl[1])].push(c);
                    list.swap_remove(i);
                    continue;
                }
                let first = cl[0];
                i += 1;
                if !self.assign(first) {
                    conflict = true;
                    break;
                }
            }
            self.watches[code(f)] = list;
            if conflict {
                return true;
            }
        }
        false
    }

    fn backtrack(&mut self, len: usize) {
        for l in self.trail.drain(len..) {
            self.val[code(l)] = 0;
            self.val[code(-l)] = 0;
        }
        self.head = len;
    }
}

/// A failed-literal proof (text) that `clauses` is unsatisfiable: `probe` lemmas only, or
/// with every implied literal as well; None when probing stops without a conflict.
fn probe_proof(vars: u32, clauses: &cnf::Clauses, all_units: bool) -> Option<(String, usize)> {
    let mut p = Propagator::new(vars, clauses)?;
    let mut proof = String::new();
    let mut lemmas = 0;
    if p.propagate() {
        return Some((proof, 0));
    }
    if all_units {
        for &u in &p.trail {
            proof.push_str(&format!("{u} 0\n"));
            lemmas += 1;
        }
    }
    loop {
        let mut progress = false;
        for v in 1..=vars as i32 {
            for l in [v, -v] {
                if p.value(l) != 0 {
                    continue;
                }
                let mark = p.trail.len();
                p.assign(l);
                let failed = p.propagate();
                p.backtrack(mark);
                if !failed {
                    continue;
                }
                progress = true;
                p.assign(-l);
                let conflict = p.propagate();
                let new: Vec<i32> = if all_units {
                    p.trail[mark..].to_vec()
                } else {
                    vec![-l]
                };
                for u in new {
                    proof.push_str(&format!("{u} 0\n"));
                    lemmas += 1;
                }
                if conflict {
                    proof.push_str("0\n");
                    return Some((proof, lemmas + 1));
                }
            }
        }
        if !progress {
            return None;
        }
    }
}

struct Case {
    puzzle: Puzzle,
    vars: u32,
    clauses: cnf::Clauses,
    blocking: Vec<i32>,
    probe: String,
    units: String,
}

fn cases(count: usize, opts: &CnfOptions) -> Vec<Case> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/royle-17clue.txt");
    let puzzles = read_puzzles(&path).expect("data file");
    let mut engine = "binary"
        .parse::<EngineSpec>()
        .expect("engine")
        .make()
        .expect("engine");
    let mut out = Vec::new();
    let (mut left_out, mut probe_lemmas, mut unit_lemmas) = (0, 0, 0);
    for puzzle in puzzles.into_iter().take(count) {
        let solution = engine.solve(&puzzle, &Limits::solutions(2)).solutions[0].clone();
        let cnf = cnf::encode(&puzzle, opts);
        let blocking = cnf.blocking_clause(&solution).expect("a blocking clause");
        let mut clauses = cnf.clauses.clone();
        clauses.push(&blocking);
        match (
            probe_proof(cnf.num_vars, &clauses, false),
            probe_proof(cnf.num_vars, &clauses, true),
        ) {
            (Some((probe, a)), Some((units, b))) => {
                probe_lemmas += a;
                unit_lemmas += b;
                out.push(Case {
                    puzzle,
                    vars: cnf.num_vars,
                    clauses: cnf.clauses,
                    blocking,
                    probe,
                    units,
                });
            }
            _ => left_out += 1,
        }
    }
    let n = out.len().max(1);
    println!(
        "{} puzzles ({left_out} left out: probing alone does not refute them); {} clauses on \
         average; lemmas per proof: probe {}, units {}",
        out.len(),
        out.iter().map(|c| c.clauses.len() + 1).sum::<usize>() / n,
        probe_lemmas / n,
        unit_lemmas / n
    );
    out
}

/// Adds the case's blocking clause and checks its proof; the lemmas checked.
fn finish(checker: &mut DratChecker, c: &Case, proof: &str) -> u64 {
    checker.add_clause(&c.blocking);
    let got = checker
        .check_proof(proof.as_bytes(), &Deadline::default())
        .expect("a valid proof");
    got.checked
}

fn check_all(checker: &mut DratChecker, cases: &[Case], units: bool) -> u64 {
    let mut sum = 0;
    for c in cases {
        checker.reset(c.vars);
        checker.add_clauses(&c.clauses);
        sum += finish(checker, c, if units { &c.units } else { &c.probe });
    }
    sum
}

fn encode_and_check_all(
    checker: &mut DratChecker,
    scratch: &mut Scratch,
    opts: &CnfOptions,
    cases: &[Case],
) -> u64 {
    let limits = EncodeLimits::default();
    let mut sum = 0;
    for c in cases {
        checker.reset(c.vars);
        cnf::encode_into(&c.puzzle, opts, checker, scratch, &limits).expect("encoded");
        sum += finish(checker, c, &c.probe);
    }
    sum
}

/// The formula of each case loaded by keeping the clauses all cases share (the empty grid's
/// encoding, which every puzzle's formula begins with) and adding the rest.
fn shared_and_check_all(checker: &mut DratChecker, cases: &[Case], shared: usize) -> u64 {
    let mut sum = 0;
    for c in cases {
        checker.truncate(shared);
        for clause in c.clauses.iter().skip(shared) {
            checker.add_clause(clause);
        }
        sum += finish(checker, c, &c.probe);
    }
    sum
}

fn drat(c: &mut Criterion) {
    let opts = CnfOptions::default();
    let cases = cases(200, &opts);
    let mut group = c.benchmark_group("drat-9x9-17clue");
    group.sample_size(20);
    group.throughput(Throughput::Elements(cases.len() as u64));
    for mode in [CheckMode::Backward, CheckMode::Forward] {
        let mut checker = DratChecker::with_mode(mode);
        for (proof, units) in [("probe", false), ("units", true)] {
            group.bench_function(format!("load+check/{mode:?}/{proof}"), |b| {
                b.iter(|| black_box(check_all(&mut checker, &cases, units)))
            });
        }
    }
    let empty = Puzzle::empty(std::sync::Arc::new(cases[0].puzzle.geometry().clone()));
    let base = cnf::encode(&empty, &opts).clauses;
    assert!(cases
        .iter()
        .all(|c| base.iter().zip(c.clauses.iter()).all(|(a, b)| a == b)));
    let mut checker = DratChecker::new();
    checker.reset(cases[0].vars);
    checker.add_clauses(&base);
    group.bench_function("shared+check/Forward/probe", |b| {
        b.iter(|| black_box(shared_and_check_all(&mut checker, &cases, base.len())))
    });
    let mut checker = DratChecker::new();
    let mut scratch = Scratch::new();
    group.bench_function("encode+check/Forward/probe", |b| {
        b.iter(|| {
            black_box(encode_and_check_all(
                &mut checker,
                &mut scratch,
                &opts,
                &cases,
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, drat);
criterion_main!(benches);
