//! Certificates made on every encoding and checked: each verdict, each form, false claims
//! rejected.

use super::*;
use crate::cnf::{Amo, CnfEncoding, CnfOptions, Deadline};
use crate::puzzle::{read_str, Geometry, Puzzle, ReadOptions};
use std::sync::Arc;

fn puzzle(text: &str) -> Puzzle {
    read_str(text, "test", &ReadOptions::default())
        .unwrap()
        .1
        .remove(0)
        .puzzle
}

const HARD: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

/// The 16x16 of `data/rk-16x16.txt`.
fn rk16() -> Puzzle {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/rk-16x16.txt")).unwrap();
    puzzle(&text)
}

fn options(encoding: CnfEncoding, amo: Amo) -> CnfOptions {
    CnfOptions {
        encoding,
        amo,
        ..CnfOptions::default()
    }
}

fn certify_and_check(p: &Puzzle, o: &CnfOptions) -> Certificate {
    let mut prover = Prover::new();
    let cert = prover.certify(p, o, &Deadline::default()).unwrap();
    let claim = Claim {
        geometry: p.geometry(),
        givens: p.givens(),
        verdict: cert.verdict,
        solutions: &cert.solutions,
        form: cert.form,
        minimality: None,
    };
    let mut proof = cert.proof.as_deref();
    let r = check_claim(
        &claim,
        proof.as_mut().map(|p| p as &mut dyn std::io::BufRead),
        &Deadline::default(),
    );
    if let Err(e) = &r {
        panic!(
            "{o:?}: {e}\n{}",
            String::from_utf8_lossy(&cert.proof.clone().unwrap_or_default())
                .lines()
                .take(40)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    cert
}

#[test]
fn every_encoding_and_amo_certifies_a_hard_puzzle() {
    let p = puzzle(HARD);
    for enc in [
        CnfEncoding::Minimal,
        CnfEncoding::Efficient,
        CnfEncoding::Extended,
        CnfEncoding::Optimized,
        CnfEncoding::Reduced,
    ] {
        for amo in [
            "pairwise",
            "sequential",
            "binary",
            "product",
            "commander",
            "bimander",
            "auto",
        ] {
            let o = options(enc, amo.parse().unwrap());
            let cert = certify_and_check(&p, &o);
            assert_eq!(cert.verdict, Verdict::Unique, "{enc:?} {amo}");
        }
    }
}

#[test]
fn multiple_and_unsat_verdicts() {
    // Drop givens until there are several solutions.
    let mut p = puzzle(EASY);
    let mut givens = p.givens().to_vec();
    let mut dropped = 0;
    for given in givens.iter_mut() {
        if *given != 0 && dropped < 12 {
            *given = 0;
            dropped += 1;
        }
    }
    p = Puzzle::new(p.shared_geometry().clone(), givens).unwrap();
    let o = CnfOptions::default();
    let cert = certify_and_check(&p, &o);
    assert_eq!(cert.verdict, Verdict::Multiple);
    assert_eq!(cert.solutions.len(), 2);

    // Unsat without a clash among the givens: a digit that its row needs elsewhere.
    let mut givens = puzzle(EASY).givens().to_vec();
    givens[0] = 5; // no clash among the givens; the unique solution has 4 there
    let p = Puzzle::new(Arc::new(Geometry::square(9).unwrap()), givens).unwrap();
    for enc in [CnfEncoding::Extended, CnfEncoding::Reduced] {
        let cert = certify_and_check(&p, &options(enc, Amo::Pairwise));
        assert_eq!(cert.verdict, Verdict::Unsat, "{enc:?}");
    }
}

#[test]
fn false_claims_are_rejected() {
    let p = puzzle(HARD);
    let cert = certify_and_check(&p, &CnfOptions::default());
    let proof = cert.proof.clone().unwrap();
    // Two cells of the solution swapped: not a solution.
    let mut swapped = cert.solutions[0].clone();
    let (a, b) = (1, 2);
    assert_ne!(swapped[a], swapped[b]);
    swapped.swap(a, b);
    let claim = Claim {
        geometry: p.geometry(),
        givens: p.givens(),
        verdict: Verdict::Unique,
        solutions: std::slice::from_ref(&swapped),
        form: cert.form,
        minimality: None,
    };
    let mut r: &[u8] = &proof;
    assert!(matches!(
        check_claim(&claim, Some(&mut r), &Deadline::default()),
        Err(Rejection::NotASolution { .. })
    ));
    // A given dropped so that there are several solutions, the old proof kept: the proof
    // no longer refutes the weaker formula (its lemmas lean on the lost given).
    let mut givens = p.givens().to_vec();
    let first = givens.iter().position(|&d| d != 0).unwrap();
    givens[first] = 0;
    let weaker = Puzzle::new(p.shared_geometry().clone(), givens.clone()).unwrap();
    let check = certify_and_check(&weaker, &CnfOptions::default());
    assert_eq!(check.verdict, Verdict::Multiple);
    let claim = Claim {
        geometry: p.geometry(),
        givens: &givens,
        verdict: Verdict::Unique,
        solutions: &cert.solutions,
        form: cert.form,
        minimality: None,
    };
    let mut r: &[u8] = &proof;
    let e = check_claim(&claim, Some(&mut r), &Deadline::default()).unwrap_err();
    assert!(matches!(e, Rejection::Proof(_)), "{e}");
}

#[test]
fn sequential_form_proofs_check() {
    // A 16x16 puzzle certified against the sequential form by hand: the prover picks the
    // form by side, so here the proof of the pairwise form is checked against both.
    let p = rk16();
    let cert = certify_and_check(&p, &CnfOptions::default());
    assert_eq!(cert.verdict, Verdict::Unique);
    let claim = Claim {
        geometry: p.geometry(),
        givens: p.givens(),
        verdict: cert.verdict,
        solutions: &cert.solutions,
        form: CanonicalForm::Sequential,
        minimality: None,
    };
    let proof = cert.proof.unwrap();
    let mut r: &[u8] = &proof;
    check_claim(&claim, Some(&mut r), &Deadline::default()).unwrap();
}

/// One [`ClaimChecker`] over a run of claims of one shape (the group clauses kept, givens
/// and blocking clause loaded anew), a false claim among them, then a claim of another shape:
/// each verdict is the one a fresh checker gives.
#[test]
fn a_reused_claim_checker_judges_each_claim_alone() {
    let hard = puzzle(HARD);
    let easy = puzzle(EASY);
    let mut prover = Prover::new();
    let budget = Deadline::default();
    let hard_cert = prover
        .certify(&hard, &CnfOptions::default(), &budget)
        .unwrap();
    let easy_cert = prover
        .certify(&easy, &CnfOptions::default(), &budget)
        .unwrap();
    let big = rk16();
    let big_cert = prover
        .certify(&big, &CnfOptions::default(), &budget)
        .unwrap();
    // The hard puzzle's claim and proof offered for the puzzle without its first given,
    // which has several solutions (same shape, other givens).
    let mut givens = hard.givens().to_vec();
    let first = givens.iter().position(|&d| d != 0).unwrap();
    givens[first] = 0;
    let weaker = Puzzle::new(hard.shared_geometry().clone(), givens).unwrap();
    let cases: [(&Puzzle, &Certificate, &Certificate, bool); 5] = [
        (&hard, &hard_cert, &hard_cert, true),
        (&weaker, &hard_cert, &hard_cert, false),
        (&easy, &easy_cert, &easy_cert, true),
        (&big, &big_cert, &big_cert, true),
        (&hard, &hard_cert, &hard_cert, true),
    ];
    let mut reused = ClaimChecker::new();
    for (k, (p, cert, proof_of, ok)) in cases.into_iter().enumerate() {
        let claim = Claim {
            geometry: p.geometry(),
            givens: p.givens(),
            verdict: cert.verdict,
            solutions: &cert.solutions,
            form: cert.form,
            minimality: None,
        };
        let proof = proof_of.proof.as_deref().unwrap();
        let mut r: &[u8] = proof;
        let fresh = check_claim(&claim, Some(&mut r), &budget).is_ok();
        let mut r: &[u8] = proof;
        let again = reused.check(&claim, Some(&mut r), &budget).is_ok();
        assert_eq!((fresh, again), (ok, ok), "case {k}");
    }
}
