//! Checks of the two modes and the reusable checker on proofs made by hand: accepted,
//! refused, trimmed, interrupted.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::super::{Deadline, Interrupt};
use super::*;

const MODES: [CheckMode; 2] = [CheckMode::Forward, CheckMode::Backward];

fn run(mode: CheckMode, clauses: &[&[i32]], proof: &[u8]) -> Result<ProofCheck, DratError> {
    let mut checker = DratChecker::with_mode(mode);
    checker.reset(0);
    for c in clauses {
        checker.add_clause(c);
    }
    checker.check_proof(proof, &Deadline::default())
}

fn not_implied(result: Result<ProofCheck, DratError>) -> (u64, ProofPosition, Vec<i32>) {
    match result {
        Err(DratError::NotImplied {
            lemma,
            position,
            clause,
        }) => (lemma, position, clause),
        other => panic!("expected NotImplied, got {other:?}"),
    }
}

/// The binary form of a step: `a`/`d`, then each literal as 2·var + sign in 7-bit groups.
pub(super) fn binary(steps: &[(bool, &[i32])]) -> Vec<u8> {
    let mut out = Vec::new();
    for (delete, lits) in steps {
        out.push(if *delete { b'd' } else { b'a' });
        for &l in lits.iter().chain(&[0]) {
            let mut u = if l == 0 {
                0
            } else {
                2 * l.unsigned_abs() as u64 + u64::from(l < 0)
            };
            loop {
                let b = (u & 0x7f) as u8;
                u >>= 7;
                if u == 0 {
                    out.push(b);
                    break;
                }
                out.push(b | 0x80);
            }
        }
    }
    out
}

/// The example of the DRAT format's documentation (drat-trim's README): `-1` is not RUP but
/// RAT on -1, and the proof goes on with a deletion.
const README: [&[i32]; 8] = [
    &[1, 2, -3],
    &[-1, -2, 3],
    &[2, 3, -4],
    &[-2, -3, 4],
    &[-1, -3, -4],
    &[1, 3, 4],
    &[-1, 2, 4],
    &[1, -2, -4],
];

#[test]
fn the_format_documentation_example_is_accepted_in_both_modes() {
    for mode in MODES {
        let got = run(mode, &README, b"-1 0\nd -1 2 4 0\n2 0\n0\n").unwrap();
        assert_eq!(got.mode, mode);
        assert_eq!(
            (got.lemmas, got.checked, got.rat_lemmas, got.deletions),
            (2, 2, 1, 1),
            "{mode:?}"
        );
        assert_eq!(got.refuted_at, 2);
    }
}

#[test]
fn a_lemma_the_conflict_needs_is_refused_when_it_does_not_follow() {
    // (-1 2)(-2 3)(-3 -1) holds with 1 false. The lemma `1` is not RUP and not RAT (its
    // resolvent `1 2` with (-1 2) is not RUP), and once it is added propagation conflicts:
    // both modes must check it and refuse it, at its place in the file.
    let f: [&[i32]; 3] = [&[-1, 2], &[-2, 3], &[-3, -1]];
    for mode in MODES {
        let (lemma, position, clause) = not_implied(run(mode, &f, b"c start\n  1 0\n"));
        assert_eq!(
            (lemma, position, clause),
            (1, ProofPosition::Text { line: 2, column: 3 }, vec![1]),
            "{mode:?}"
        );
        let proof = binary(&[(true, &[5, 6]), (false, &[1, 1])]);
        let (lemma, position, clause) = not_implied(run(mode, &f, &proof));
        assert_eq!(
            (lemma, position, clause),
            (1, ProofPosition::Binary { byte: 4 }, vec![1]),
            "{mode:?}"
        );
    }
}

#[test]
fn a_rat_lemma_with_one_resolvent_that_is_not_rup_is_refused() {
    // (3 -4)(3 4)(-4 5)(-4 -5) holds with 3 true. `-3`: not RUP; its resolvent with (3 -4),
    // `-3 -4`, is RUP, but the one with (3 4), `-3 4`, is not. Added, it conflicts.
    let f: [&[i32]; 4] = [&[3, -4], &[3, 4], &[-4, 5], &[-4, -5]];
    for mode in MODES {
        let (lemma, _, clause) = not_implied(run(mode, &f, b"-3 0\n"));
        assert_eq!((lemma, clause), (1, vec![-3]), "{mode:?}");
    }
}

#[test]
fn rat_is_checked_on_the_first_literal_only() {
    // With the same formula, `7 -3` (7 fresh) is RAT on 7: no clause holds -7. Written
    // `-3 7`, its first literal is -3, on which it is not RAT ((3 4) gives `-3 7 4`, not RUP).
    let f: [&[i32]; 4] = [&[3, -4], &[3, 4], &[-4, 5], &[-4, -5]];
    let got = run(
        CheckMode::Forward,
        &f,
        b"7 -3 0
",
    );
    assert!(
        matches!(got, Err(DratError::NoConflict { lemmas: 1 })),
        "{got:?}"
    );
    let (lemma, _, clause) = not_implied(run(
        CheckMode::Forward,
        &f,
        b"-3 7 0
",
    ));
    assert_eq!((lemma, clause), (1, vec![-3, 7]));
}

#[test]
fn backward_checking_skips_the_lemmas_the_conflict_does_not_use() {
    // (1 2)(-1 2)(1 -2)(-1 -2) is unsatisfiable; `1` is RUP and refutes it. Before it, `-3`
    // does not follow ((3 4) makes it neither RUP nor RAT) but nothing uses it: forward
    // checking refuses it, backward checking never looks at it (as drat-trim).
    let f: [&[i32]; 5] = [&[1, 2], &[-1, 2], &[1, -2], &[-1, -2], &[3, 4]];
    let (lemma, ..) = not_implied(run(CheckMode::Forward, &f, b"-3 0\n1 0\n"));
    assert_eq!(lemma, 1);
    let got = run(CheckMode::Backward, &f, b"-3 0\n1 0\n").unwrap();
    assert_eq!((got.lemmas, got.checked, got.refuted_at), (2, 1, 2));
    // A valid but useless lemma is read, not checked.
    let got = run(CheckMode::Backward, &f, b"1 2 0\n3 4 -1 0\n1 0\n0\n").unwrap();
    assert_eq!((got.lemmas, got.checked, got.refuted_at), (3, 1, 3));
}

#[test]
fn a_deleted_reason_is_not_used_backward_either() {
    // The unit 1 and (-1 2) imply 2. Deleting (-1 2) takes 2 off the top level, so the lemma
    // `2` (not RUP; its resolvents with (-2 -3 5) and (-2 -3 -5) are not RUP) must be refused
    // when the conflict uses it. drat-trim's backward mode would ignore that deletion and
    // accept the proof; here both modes refuse it.
    let f: [&[i32]; 6] = [
        &[1],
        &[-1, 2],
        &[-2, -3, 5],
        &[-2, -3, -5],
        &[3, 4],
        &[3, -4],
    ];
    for mode in MODES {
        let (lemma, ..) = not_implied(run(mode, &f, b"d -1 2 0\n2 0\n3 0\n"));
        assert_eq!(lemma, 1, "{mode:?}");
        // Without the deletion, `2` is implied and the proof checks.
        let got = run(mode, &f, b"2 0\n3 0\n").unwrap();
        assert_eq!(got.refuted_at, 2, "{mode:?}");
    }
}

#[test]
fn a_proof_without_a_conflict_is_refused_in_both_modes() {
    let f: [&[i32]; 3] = [&[1, 2], &[-1, 5], &[4, -2]];
    for mode in MODES {
        for proof in [&b""[..], b"2 1 0\n", b"c\nd 1 2 0\n-1 5 0\n"] {
            let err = run(mode, &f, proof).unwrap_err();
            assert!(
                matches!(err, DratError::NoConflict { .. }),
                "{mode:?} {err:?}"
            );
        }
        // A claimed empty clause is a lemma like any other: not RUP here.
        let (lemma, position, clause) = not_implied(run(mode, &f, b"2 1 0\n0\n"));
        assert_eq!(lemma, 2);
        assert_eq!(position, ProofPosition::Text { line: 2, column: 1 });
        assert!(clause.is_empty());
    }
}

#[test]
fn deletions_are_counted_alike_in_both_modes() {
    let f: [&[i32]; 6] = [&[1, 2], &[-1, 2], &[1, -2], &[-1, -2], &[9], &[5, 6]];
    for mode in MODES {
        // `d 1 3`: absent. `d 9`: a unit. `d 6 5 6`: present (another order, a repetition).
        let got = run(mode, &f, b"d 1 3 0\nd 9 0\nd 6 5 6 0\nd 5 6 0\n1 0\n").unwrap();
        assert_eq!((got.deletions, got.ignored_deletions), (1, 3), "{mode:?}");
        assert_eq!(got.refuted_at, 1);
    }
}

#[test]
fn one_checker_serves_many_formulas_and_proofs() {
    let mut checker = DratChecker::new();
    assert_eq!(checker.mode(), CheckMode::Forward);
    for round in 0..3 {
        checker.reset(4);
        for c in README {
            checker.add_clause(c);
        }
        assert_eq!(checker.num_clauses(), 8);
        let got = checker
            .check_proof(&b"-1 0\nd -1 2 4 0\n2 0\n0\n"[..], &Deadline::default())
            .unwrap();
        assert_eq!((got.refuted_at, got.rat_lemmas), (2, 1), "round {round}");
        // The same formula against another proof: the first one's lemmas are gone.
        let err = checker
            .check_proof(&b"2 0\n"[..], &Deadline::default())
            .unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
        // A clause added after a check joins the formula: now propagation alone conflicts.
        checker.add_clause(&[-2]);
        checker.add_clause(&[1]);
        checker.add_clause(&[3]);
        let got = checker.check_proof(&b""[..], &Deadline::default()).unwrap();
        assert_eq!(got.refuted_at, 0);
        // A satisfiable formula after an unsatisfiable one.
        checker.reset(2);
        checker.add_clause(&[1, 2]);
        let err = checker.check_proof(&b"1 0\n"[..], &Deadline::default());
        assert!(matches!(err, Err(DratError::NoConflict { .. })), "{err:?}");
        checker.set_mode(if round == 0 {
            CheckMode::Backward
        } else {
            CheckMode::Forward
        });
    }
}

#[test]
fn a_formula_shared_up_to_a_point_is_loaded_once() {
    // The documentation example without its last clause is satisfiable; each round adds a
    // different last clause after `truncate(7)` and must get what a fresh checker gets.
    let mut shared = DratChecker::new();
    shared.reset(4);
    for c in &README[..7] {
        shared.add_clause(c);
    }
    let proof = b"-1 0\nd -1 2 4 0\n2 0\n0\n";
    let lasts: [&[i32]; 5] = [&[1, -2, -4], &[], &[1, -2], &[5, 6, 7], &[-4]];
    for round in 0..3 {
        for last in lasts {
            shared.truncate(7);
            assert_eq!(shared.num_clauses(), 7);
            shared.add_clause(last);
            let mut fresh = DratChecker::new();
            fresh.reset(4);
            for c in README[..7].iter().chain([&last]) {
                fresh.add_clause(c);
            }
            let (a, b) = (
                shared.check_proof(&proof[..], &Deadline::default()),
                fresh.check_proof(&proof[..], &Deadline::default()),
            );
            assert_eq!(
                format!("{a:?}"),
                format!("{b:?}"),
                "round {round}, {last:?}"
            );
        }
    }
    shared.truncate(100);
    assert_eq!(shared.num_clauses(), 8);
    shared.truncate(0);
    let err = shared.check_proof(&b"1 0\n"[..], &Deadline::default());
    assert!(matches!(err, Err(DratError::NoConflict { .. })), "{err:?}");
}

#[test]
fn an_encoder_writes_the_formula_straight_into_the_checker() {
    use super::super::ClauseSink;
    // At most one of 1..3 (pairwise), at least one of 1 2 and of 2 3 and of 1 3: unsatisfiable,
    // and `-2` (RUP) refutes it.
    let mut checker = DratChecker::new();
    checker.reset(3);
    let sink: &mut dyn ClauseSink = &mut checker;
    sink.reserve(6, 12);
    sink.add_pairwise(&[1, 2, 3]);
    sink.add_clause(&[1, 2]);
    sink.add_clause(&[2, 3]);
    sink.add_clause(&[1, 3]);
    assert_eq!(checker.num_clauses(), 6);
    let got = checker
        .check_proof(&b"-2 0\n"[..], &Deadline::default())
        .unwrap();
    assert_eq!(got.refuted_at, 1);
}

#[test]
fn variables_far_beyond_the_formula_are_refused() {
    let f: [&[i32]; 1] = [&[1, 2]];
    let far = (MAX_NEW_VARS + 3) as i32;
    for mode in MODES {
        let err = run(mode, &f, format!("{far} 0\n").as_bytes()).unwrap_err();
        assert!(matches!(err, DratError::TooLarge { .. }), "{err:?}");
        let err = run(mode, &f, format!("{} 0\n", far - 1).as_bytes()).unwrap_err();
        assert!(matches!(err, DratError::NoConflict { .. }), "{err:?}");
    }
}

/// The implication chain `1 -> 2 -> ... -> n`, with `(-n y)(-n -y)` (so `n` is false) and
/// `(1 z)(1 -z)` (so `1` is true): unsatisfiable, and the lemma `1` (RUP through `z`) makes
/// propagation run the whole chain.
fn chain(n: i32) -> Vec<Vec<i32>> {
    let (y, z) = (n + 1, n + 2);
    let mut f: Vec<Vec<i32>> = (1..n).map(|i| vec![-i, i + 1]).collect();
    f.extend([vec![-n, y], vec![-n, -y], vec![1, z], vec![1, -z]]);
    f
}

fn load(checker: &mut DratChecker, f: &[Vec<i32>]) {
    checker.reset(0);
    for c in f {
        checker.add_clause(c);
    }
}

#[test]
fn a_spent_budget_stops_every_pass() {
    let now = Deadline {
        at: Some(Instant::now()),
        cancel: None,
    };
    let cancelled = Deadline {
        at: None,
        cancel: Some(Arc::new(AtomicBool::new(true))),
    };
    let long = chain(50_000);
    let short = chain(100);
    for mode in MODES {
        let mut checker = DratChecker::with_mode(mode);
        // Loading (`check` adds the clauses, reading the budget every 2^16 of them).
        let clauses = {
            let mut c = Clauses::new();
            for cl in chain(70_000) {
                c.push(&cl);
            }
            c
        };
        let err = checker.check(0, &clauses, &b"1 0\n"[..], &now).unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Interrupted {
                    lemmas: 0,
                    interrupt: Interrupt::Time
                }
            ),
            "{mode:?} {err:?}"
        );
        // Propagation after the first lemma: the chain is 50 000 steps long.
        load(&mut checker, &long);
        let err = checker.check_proof(&b"1 0\n"[..], &cancelled).unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Interrupted {
                    lemmas: 1,
                    interrupt: Interrupt::Cancelled
                }
            ),
            "{mode:?} {err:?}"
        );
        // Reading the proof: every 256 lemmas.
        load(&mut checker, &short);
        let proof = "-1 2 0\n".repeat(300) + "1 0\n";
        let err = checker.check_proof(proof.as_bytes(), &now).unwrap_err();
        assert!(
            matches!(err, DratError::Interrupted { lemmas: 256, .. }),
            "{mode:?} {err:?}"
        );
        // And without a budget the same proofs check.
        let got = checker
            .check_proof(proof.as_bytes(), &Deadline::default())
            .unwrap();
        assert_eq!(got.refuted_at, 301);
        load(&mut checker, &long);
        let got = checker
            .check_proof(&b"1 0\n"[..], &Deadline::default())
            .unwrap();
        assert_eq!(got.refuted_at, 1);
    }
    // The backward pass reads the budget too: a short proof whose forward pass does too
    // little work to read it.
    let mut checker = DratChecker::with_mode(CheckMode::Backward);
    load(&mut checker, &short);
    let err = checker.check_proof(&b"1 0\n"[..], &now).unwrap_err();
    assert!(
        matches!(err, DratError::Interrupted { lemmas: 1, .. }),
        "{err:?}"
    );
}

#[test]
fn a_deadline_is_kept_closely_on_a_long_check() {
    // 2 million variables in a chain, and a proof that makes propagation walk it: loading,
    // watching and propagating take well over 30 ms. A 30 ms deadline must stop the check
    // within 25 ms of it, whether it falls while clauses are added or while the checker
    // works. (On a busy machine a thread may wait for a core: the best of three tries counts.)
    let mut c = Clauses::new();
    for cl in chain(2_000_000) {
        c.push(&cl);
    }
    let limit = Duration::from_millis(30);
    for mode in MODES {
        let mut checker = DratChecker::with_mode(mode);
        for loaded in [false, true] {
            let mut best = Duration::MAX;
            for _ in 0..3 {
                if loaded {
                    checker.reset(0);
                    checker.add_clauses(&c);
                }
                let start = Instant::now();
                let budget = Deadline {
                    at: Some(start + limit),
                    cancel: None,
                };
                let result = if loaded {
                    checker.check_proof(&b"1 0\n"[..], &budget)
                } else {
                    checker.check(0, &c, &b"1 0\n"[..], &budget)
                };
                match result {
                    Err(DratError::Interrupted { .. }) => {}
                    other => panic!("{mode:?}: {other:?} in {:?}", start.elapsed()),
                }
                best = best.min(start.elapsed().saturating_sub(limit));
            }
            assert!(
                best < Duration::from_millis(25),
                "{mode:?}, {loaded}: {best:?} late"
            );
        }
    }
}
