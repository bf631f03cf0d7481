//! The checker against the DRAT definition, on thousands of random small formulas and
//! proofs.
//!
//! The reference below checks each lemma by the definition, with nothing kept between steps:
//! unit propagation from scratch over the current clause list, RUP, then RAT on the first
//! literal against every current clause; deletions remove one copy, ignoring units and absent
//! clauses. The random proofs mix lemmas that follow with lemmas that do not, deletions of
//! clauses present (reasons of top-level literals among them) and absent, units, repeated
//! literals, fresh variables and empty clauses. Then:
//! - forward checking must give the reference's verdict exactly (the refuting lemma, or the
//!   first lemma that does not follow, or no conflict), with the same counters;
//! - backward checking must find the conflict at the same lemma as the proof's steps applied
//!   without checks; it may accept only when the formula is unsatisfiable (brute force), must
//!   accept when every lemma up to the conflict follows, and may refuse only a lemma that
//!   does not follow.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::Deadline;
use super::scenarios::binary;
use super::*;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Verdict {
    Refuted(u64),
    NotImplied(u64),
    NoConflict,
}

fn dedup(c: &[i32]) -> Vec<i32> {
    let mut out: Vec<i32> = Vec::new();
    for &l in c {
        if !out.contains(&l) {
            out.push(l);
        }
    }
    out
}

/// Unit propagation from scratch over `clauses` with the literals of `assumed` set true;
/// true on a conflict.
fn conflicts(clauses: &[Vec<i32>], assumed: &[i32]) -> bool {
    let mut val: std::collections::HashMap<i32, bool> = Default::default();
    let value = |val: &std::collections::HashMap<i32, bool>, l: i32| {
        val.get(&l.abs()).map(|&v| v == (l > 0))
    };
    for &l in assumed {
        match value(&val, l) {
            Some(false) => return true,
            Some(true) => {}
            None => {
                val.insert(l.abs(), l > 0);
            }
        }
    }
    loop {
        let mut changed = false;
        for c in clauses {
            if c.iter().any(|&l| value(&val, l) == Some(true)) {
                continue;
            }
            let open: Vec<i32> = c
                .iter()
                .copied()
                .filter(|&l| value(&val, l).is_none())
                .collect();
            match open.len() {
                0 => return true,
                1 => {
                    val.insert(open[0].abs(), open[0] > 0);
                    changed = true;
                }
                _ => {}
            }
        }
        if !changed {
            return false;
        }
    }
}

fn rup(clauses: &[Vec<i32>], lemma: &[i32]) -> bool {
    let negated: Vec<i32> = lemma.iter().map(|&l| -l).collect();
    conflicts(clauses, &negated)
}

fn implied(clauses: &[Vec<i32>], lemma: &[i32]) -> bool {
    if rup(clauses, lemma) {
        return true;
    }
    let Some(&p) = lemma.first() else {
        return false;
    };
    clauses.iter().filter(|d| d.contains(&-p)).all(|d| {
        let mut r = lemma.to_vec();
        r.extend(d.iter().copied().filter(|&l| l != -p));
        rup(clauses, &r)
    })
}

/// A proof step: deletion or not, literals.
type Step = (bool, Vec<i32>);

/// Counters of a run: deletions applied, ignored.
struct Run {
    verdict: Verdict,
    deletions: u64,
    ignored: u64,
    /// Whether each lemma read follows from the clauses before it.
    follows: Vec<bool>,
}

/// Applies the proof to the formula by the definition; with `check`, stops at the first
/// lemma that does not follow.
fn reference(formula: &[Vec<i32>], proof: &[Step], check: bool) -> Run {
    let mut clauses: Vec<Vec<i32>> = formula.iter().map(|c| dedup(c)).collect();
    let mut run = Run {
        verdict: Verdict::NoConflict,
        deletions: 0,
        ignored: 0,
        follows: Vec::new(),
    };
    if conflicts(&clauses, &[]) {
        run.verdict = Verdict::Refuted(0);
        return run;
    }
    for (delete, lits) in proof {
        let c = dedup(lits);
        if *delete {
            let same = |d: &Vec<i32>| d.len() == c.len() && d.iter().all(|l| c.contains(l));
            match clauses.iter().position(same) {
                Some(i) if c.len() != 1 => {
                    clauses.remove(i);
                    run.deletions += 1;
                }
                _ => run.ignored += 1,
            }
            continue;
        }
        let ok = implied(&clauses, &c);
        run.follows.push(ok);
        let k = run.follows.len() as u64;
        if check && !ok {
            run.verdict = Verdict::NotImplied(k);
            return run;
        }
        clauses.push(c);
        if conflicts(&clauses, &[]) {
            run.verdict = Verdict::Refuted(k);
            return run;
        }
    }
    run
}

fn satisfiable(formula: &[Vec<i32>], vars: u32) -> bool {
    (0u32..1 << vars).any(|bits| {
        formula.iter().all(|c| {
            c.iter()
                .any(|&l| (bits >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
        })
    })
}

fn random_clause(rng: &mut ChaCha8Rng, vars: u32, width: usize) -> Vec<i32> {
    (0..width)
        .map(|_| {
            let v = rng.gen_range(1..=vars) as i32;
            if rng.gen_bool(0.5) {
                v
            } else {
                -v
            }
        })
        .collect()
}

fn width(rng: &mut ChaCha8Rng) -> usize {
    match rng.gen_range(0..100) {
        0..=1 => 1,
        2..=26 => 2,
        27..=86 => 3,
        _ => 4,
    }
}

/// A random formula over `vars` variables and a random proof for it (see the module doc).
fn instance(rng: &mut ChaCha8Rng, vars: u32) -> (Vec<Vec<i32>>, Vec<Step>) {
    // Formulas that unit propagation refutes alone are kept one time in ten.
    let formula = loop {
        let m = rng.gen_range(2 * vars as usize..=6 * vars as usize);
        let formula: Vec<Vec<i32>> = (0..m)
            .map(|_| {
                let w = width(rng);
                random_clause(rng, vars, w)
            })
            .collect();
        if !conflicts(&formula, &[]) || rng.gen_bool(0.1) {
            break formula;
        }
    };
    let mut clauses: Vec<Vec<i32>> = formula.iter().map(|c| dedup(c)).collect();
    let mut proof = Vec::new();
    for _ in 0..rng.gen_range(0..4 * vars as usize) {
        if rng.gen_bool(0.3) {
            let mut lits = if !clauses.is_empty() && rng.gen_bool(0.8) {
                clauses[rng.gen_range(0..clauses.len())].clone()
            } else {
                {
                    let w = rng.gen_range(1..=3);
                    random_clause(rng, vars, w)
                }
            };
            let k = lits.len();
            if k > 1 {
                lits.swap(0, rng.gen_range(1..k));
                if rng.gen_bool(0.1) {
                    lits.push(lits[0]);
                }
            }
            let c = dedup(&lits);
            if c.len() != 1 {
                let same = |d: &Vec<i32>| d.len() == c.len() && d.iter().all(|l| c.contains(l));
                if let Some(i) = clauses.iter().position(same) {
                    clauses.remove(i);
                }
            }
            proof.push((true, lits));
            continue;
        }
        // Mostly lemmas that follow (over two fresh variables too, for RAT).
        let w = rng.gen_range(0..=3);
        let mut lemma = random_clause(rng, vars + 2, w);
        if rng.gen_bool(0.85) {
            for _ in 0..30 {
                let w = match rng.gen_range(0..100) {
                    0 => 0,
                    1..=50 => 1,
                    51..=80 => 2,
                    _ => 3,
                };
                let c = random_clause(rng, vars + 2, w);
                if implied(&clauses, &dedup(&c)) {
                    lemma = c;
                    break;
                }
            }
        }
        clauses.push(dedup(&lemma));
        proof.push((false, lemma));
    }
    (formula, proof)
}

fn text(proof: &[Step]) -> Vec<u8> {
    let mut out = String::new();
    for (delete, lits) in proof {
        if *delete {
            out.push_str("d ");
        }
        for l in lits {
            out.push_str(&format!("{l} "));
        }
        out.push_str("0\n");
    }
    out.into_bytes()
}

fn verdict(result: &Result<ProofCheck, DratError>) -> Verdict {
    match result {
        Ok(c) => Verdict::Refuted(c.refuted_at),
        Err(DratError::NotImplied { lemma, .. }) => Verdict::NotImplied(*lemma),
        Err(DratError::NoConflict { .. }) => Verdict::NoConflict,
        Err(e) => panic!("unexpected error {e:?}"),
    }
}

/// Runs `cases` random instances with up to `max_vars` variables from `seed`.
fn compare(seed: u64, cases: usize, max_vars: u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut forward = DratChecker::with_mode(CheckMode::Forward);
    let mut backward = DratChecker::with_mode(CheckMode::Backward);
    let (mut refuted, mut trimmed, mut refused) = (0, 0, 0);
    let (mut at0, mut multi) = (0, 0);
    for case in 0..cases {
        let vars = rng.gen_range(2..=max_vars);
        let (formula, proof) = instance(&mut rng, vars);
        let bytes = if rng.gen_bool(0.3) {
            let steps: Vec<(bool, &[i32])> = proof.iter().map(|(d, c)| (*d, &c[..])).collect();
            binary(&steps)
        } else {
            text(&proof)
        };
        let checked = reference(&formula, &proof, true);
        let applied = reference(&formula, &proof, false);
        let what = || format!("case {case}: formula {formula:?}\nproof {proof:?}");
        let mut results = Vec::new();
        for checker in [&mut forward, &mut backward] {
            checker.reset(vars);
            for c in &formula {
                checker.add_clause(c);
            }
            results.push(checker.check_proof(&bytes[..], &Deadline::default()));
        }
        let (f, b) = (&results[0], &results[1]);
        assert_eq!(verdict(f), checked.verdict, "forward, {}", what());
        if let Ok(c) = f {
            assert_eq!(
                (c.deletions, c.ignored_deletions),
                (checked.deletions, checked.ignored)
            );
            assert_eq!(c.checked, c.lemmas);
            refuted += 1;
        }
        match (&applied.verdict, verdict(b)) {
            (Verdict::NoConflict, v) => assert_eq!(v, Verdict::NoConflict, "{}", what()),
            (Verdict::Refuted(k), Verdict::Refuted(j)) => {
                assert_eq!(*k, j, "backward, {}", what());
                assert!(!satisfiable(&formula, vars), "unsound: {}", what());
                let c = b.as_ref().unwrap();
                assert_eq!(
                    (c.deletions, c.ignored_deletions),
                    (applied.deletions, applied.ignored)
                );
                assert!(c.checked <= c.lemmas);
                if c.checked < c.lemmas {
                    trimmed += 1;
                }
                if j == 0 {
                    at0 += 1;
                }
                if j >= 2 {
                    multi += 1;
                }
            }
            (Verdict::Refuted(k), Verdict::NotImplied(j)) => {
                assert!(j <= *k, "backward, {}", what());
                assert!(
                    !applied.follows[j as usize - 1],
                    "refused a good lemma: {}",
                    what()
                );
                assert!(
                    applied.follows[..*k as usize].contains(&false),
                    "refused a proof whose lemmas all follow: {}",
                    what()
                );
                refused += 1;
            }
            (v, w) => panic!("backward gave {w:?}, the steps give {v:?}: {}", what()),
        }
    }
    eprintln!("{refuted} refuted {trimmed} trimmed {refused} refused {at0} at0 {multi} multi");
    // The random proofs must exercise every outcome.
    assert!(
        refuted > cases / 20 && trimmed > cases / 50 && refused > cases / 50,
        "{refuted} refuted, {trimmed} trimmed, {refused} refused"
    );
}

#[test]
fn random_small_proofs_agree_with_the_definition() {
    compare(1, 20_000, 6);
}

#[test]
fn random_larger_proofs_agree_with_the_definition() {
    compare(2, 10_000, 12);
}
