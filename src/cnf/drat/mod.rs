//! Checking a solver's claim of unsatisfiability: a DRAT proof checker, backward (core-first)
//! or forward.
//!
//! Sources: N. Wetzler, M. J. H. Heule and W. A. Hunt Jr., "DRAT-trim: Efficient checking and
//! trimming using expressive clausal proofs" (SAT 2014), which defines the format that CaDiCaL,
//! Kissat, MiniSat-derived solvers and the SAT competition use, in both its text and its binary
//! form; M. J. H. Heule, W. A. Hunt Jr. and N. Wetzler, "Trimming while checking clausal
//! proofs" (FMCAD 2013), for backward checking and core-first propagation. This is a new
//! implementation from those papers.
//!
//! A proof is a sequence of steps, each adding a *lemma* or deleting a clause. A lemma is
//! accepted when it is
//! - **RUP** (reverse unit propagation): unit propagation on the current clauses plus the
//!   negation of the lemma reaches a conflict; or
//! - **RAT** (resolution asymmetric tautology) on its first literal `p`: for every current
//!   clause `D` holding `-p`, the resolvent `lemma ∪ (D \ {-p})` is RUP.
//!
//! Both kinds keep the clause set satisfiable if the formula is, and deleting clauses does too,
//! so once unit propagation on the current clauses conflicts the formula is proved
//! unsatisfiable. That is what the checker looks for ([`ProofCheck::refuted_at`]); the steps
//! after that point are not read.
//!
//! # Two ways to check ([`CheckMode`])
//!
//! - **Forward** (the default): every lemma is checked, in order, against the clauses before
//!   it.
//! - **Backward** (drat-trim's default): a forward pass adds the lemmas and applies
//!   the deletions without checking anything, keeping the top-level unit propagation up to
//!   date, until it conflicts. The clauses used in that conflict are marked *core*. A backward
//!   pass then undoes the steps in reverse order (removing each lemma, restoring each deleted
//!   clause) and checks only the core lemmas, each against the clauses before it; every check
//!   marks core the clauses it used (found from its conflict like a solver's conflict
//!   analysis). Propagation is core-first: it runs on core clauses to a fixpoint before it
//!   takes an implication from another clause, so that few lemmas become core. Lemmas that
//!   nothing uses are never checked; a proof whose unused lemmas are wrong is accepted, as by
//!   drat-trim, because the core alone refutes the formula.
//!
//! Both check a lemma with RUP, then RAT, against all current clauses (RAT candidates
//! included: every current clause with `-p`, core or not), and both honour the same deletions,
//! so a proof that forward checking accepts is accepted backward too.
//!
//! Forward is the default because it was the faster of the two on the proofs this project
//! checks: short proofs of small formulas (puzzle certificates, where the fixed cost of
//! loading and propagating the formula dominates), and CaDiCaL's proofs of Sudoku formulas,
//! where about half the lemmas are core, so that backward checking saves half the checks but
//! pays for its forward pass, for restoring deleted clauses and for taking literals off the top
//! level as lemmas go. Backward wins on proofs most of whose lemmas are useless, and it is the
//! one to use to see which lemmas a proof needs (`checked`).
//!
//! # Conventions, as drat-trim's
//!
//! - The deletion of a unit clause is ignored (solvers delete satisfied units that the checker
//!   still needs; ignoring a deletion only makes the RUP check use more clauses and the RAT
//!   check use more resolvents, which keeps it sound) and counted.
//! - The deletion of a clause that is not present is ignored and counted; the deletion of a
//!   clause present several times removes one copy.
//! - A file is binary when its first byte is `a` or when its first block holds a byte that is
//!   neither printable ASCII nor white space; otherwise it is text.
//!
//! One difference: drat-trim in backward mode also ignores the deletion of a clause that is
//! the reason of a top-level literal (a "pseudo unit"). Here such a deletion is applied, as
//! the DRAT definition and drat-trim's forward mode do: the literals that depended on the
//! clause are taken off the top level, so a lemma is never checked against a literal the
//! current clauses do not imply.
//!
//! # Counters ([`ProofCheck`])
//!
//! - `lemmas`: addition steps read (up to the conflict);
//! - `checked`: lemmas checked: all of them forward, the core ones backward;
//! - `rat_lemmas`: lemmas checked that were accepted by RAT (not RUP);
//! - `deletions`: deletion steps that removed a clause;
//! - `ignored_deletions`: deletion steps ignored by the two rules above.
//!
//! # Reuse and size
//!
//! [`DratChecker`] keeps its memory from one check to the next, so many small checks cost no
//! allocation:
//!
//! ```text
//! DratChecker::new() / with_mode(CheckMode), mode(), set_mode(CheckMode)
//! reset(num_vars)                    a new formula (allocates nothing)
//! add_clause(&[i32]), add_clauses(&Clauses), ClauseSink (reserve, add_clause, add_pairwise)
//! truncate(n)                        keep the first n formula clauses (a shared prefix)
//! num_clauses()
//! check_proof(impl BufRead, &Deadline) -> Result<ProofCheck, DratError>   (repeatable)
//! check(num_vars, &Clauses, impl BufRead, &Deadline)   reset + add (budgeted) + check_proof
//! ```
//!
//! Clauses are stored flat (four bytes per literal, five per clause), watch lists share one
//! array, and the table that finds deleted clauses is built on the first deletion only. The
//! budget is read every few thousand units of work (watch list entries visited, clauses
//! loaded or scanned, array elements allocated) and every 256 proof steps.

use std::io::BufRead;

use super::formula::Clauses;
use super::Deadline;
#[cfg(test)]
use super::Interrupt;

mod checker;
mod clauses;
mod error;
mod index;
mod justify;
mod lit;
mod parse;
mod propagate;
#[cfg(test)]
mod reference;
mod resize;
#[cfg(test)]
mod scenarios;
mod trail;
mod watch;

pub use checker::{DratChecker, MAX_NEW_VARS};
pub use error::{DratError, ProofFormat, ProofPosition};

/// How a proof is checked (see the module doc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CheckMode {
    /// Every lemma, in order.
    #[default]
    Forward,
    /// The lemmas the conflict needs, from the last to the first, core-first.
    Backward,
}

/// What a successful check counted (see the module doc for each counter's definition).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofCheck {
    pub format: Option<ProofFormat>,
    pub mode: CheckMode,
    pub lemmas: u64,
    pub checked: u64,
    pub rat_lemmas: u64,
    pub deletions: u64,
    pub ignored_deletions: u64,
    /// The lemma after which unit propagation conflicted: 0 when the formula alone does.
    pub refuted_at: u64,
}

/// Checks a DRAT proof of unsatisfiability of the formula `clauses` over `num_vars` variables,
/// forward (every lemma). Ok when unit propagation conflicts on the formula, or after some
/// lemma of the proof. For many checks, or backward checking, use a [`DratChecker`].
pub fn check_drat(
    num_vars: u32,
    clauses: &Clauses,
    proof: impl BufRead,
    budget: &Deadline,
) -> Result<ProofCheck, DratError> {
    DratChecker::with_mode(CheckMode::Forward).check(num_vars, clauses, proof, budget)
}

#[cfg(test)]
mod tests {
    use super::scenarios::binary;
    use super::*;

    fn formula(clauses: &[&[i32]]) -> (u32, Clauses) {
        let mut c = Clauses::new();
        for cl in clauses {
            c.push(cl);
        }
        (c.max_var(), c)
    }

    fn check(clauses: &[&[i32]], proof: &[u8]) -> Result<ProofCheck, DratError> {
        let (n, c) = formula(clauses);
        check_drat(n, &c, proof, &Deadline::default())
    }

    /// The pigeonhole formula: 3 pigeons, 2 holes; `p(i, j)` = pigeon i in hole j.
    fn php32() -> Vec<Vec<i32>> {
        let p = |i: i32, j: i32| 2 * (i - 1) + j;
        let mut f: Vec<Vec<i32>> = (1..=3).map(|i| vec![p(i, 1), p(i, 2)]).collect();
        for j in 1..=2 {
            for a in 1..=3 {
                for b in a + 1..=3 {
                    f.push(vec![-p(a, j), -p(b, j)]);
                }
            }
        }
        f
    }

    fn run_php(proof: &[u8]) -> Result<ProofCheck, DratError> {
        let f = php32();
        let refs: Vec<&[i32]> = f.iter().map(|c| c.as_slice()).collect();
        check(&refs, proof)
    }

    /// (1 2)(-1 5)(4 -2): satisfiable; `2 1` follows (it is a clause), `1 3` does not.
    fn small() -> [&'static [i32]; 3] {
        [&[1, 2], &[-1, 5], &[4, -2]]
    }

    #[test]
    fn a_rup_proof_of_the_pigeonhole_formula_is_accepted() {
        // With pigeon 1 in hole 1, pigeons 2 and 3 both need hole 2: `-1` is RUP, and once
        // it is added, propagation alone conflicts.
        let got = run_php(b"c a RUP proof\n-1 0\n").expect("valid proof");
        assert_eq!(got.format, Some(ProofFormat::Text));
        assert_eq!((got.lemmas, got.rat_lemmas, got.refuted_at), (1, 0, 1));
    }

    #[test]
    fn a_lemma_that_does_not_follow_is_refused_with_its_position() {
        // `1 3`: assuming -1 and -3 propagates 2 and 4, no conflict (not RUP); its resolvent
        // on 1 with (-1 5), `1 3 5`, is not RUP either (not RAT).
        let err = check(&small(), b"c x\n2 1 0\n 1 3 0\n").unwrap_err();
        match err {
            DratError::NotImplied {
                lemma,
                position,
                clause,
            } => {
                assert_eq!(lemma, 2);
                assert_eq!(position, ProofPosition::Text { line: 3, column: 2 });
                assert_eq!(clause, vec![1, 3]);
            }
            other => panic!("expected NotImplied, got {other:?}"),
        }
        // The same clause with the fresh variable first is RAT on 3 (no clause holds -3).
        let err = check(&small(), b"3 1 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
    }

    #[test]
    fn a_proof_that_stops_short_is_not_a_refutation() {
        let err = check(&small(), b"2 1 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
        let err = check(&[&[1, 2]], b"").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 0 }),
            "{err:?}"
        );
    }

    #[test]
    fn a_formula_refuted_by_propagation_needs_no_lemma() {
        let got = check(&[&[1], &[-1, 2], &[-2]], b"").unwrap();
        assert_eq!((got.lemmas, got.refuted_at), (0, 0));
        // An empty clause in the formula.
        let got = check(&[&[1, 2], &[]], b"").unwrap();
        assert_eq!(got.refuted_at, 0);
    }

    #[test]
    fn rat_lemmas_are_counted() {
        // (1 2)(-1 2)(1 -2)(-1 -2) is unsat. `3` (fresh) is not RUP but RAT on 3; then `1` is
        // RUP and refutes.
        let f: &[&[i32]] = &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2]];
        let got = check(f, b"3 0\n1 0\n").unwrap();
        assert_eq!((got.lemmas, got.rat_lemmas, got.refuted_at), (2, 1, 2));
    }

    #[test]
    fn deleting_a_reason_recomputes_what_the_clauses_imply() {
        // The unit 1 and (-1 2) imply 2. Once (-1 2) is deleted, `2` no longer follows:
        // (1)(3 4)(-2 3) does not imply it, and its resolvent `2 3` with (-2 3) is not RUP.
        let f: &[&[i32]] = &[&[1], &[-1, 2], &[3, 4], &[-2, 3]];
        let err = check(f, b"d -1 2 0\n2 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NotImplied { lemma: 1, .. }),
            "{err:?}"
        );
        // Without the deletion the same lemma follows (and the proof stops short).
        let err = check(f, b"2 0\n").unwrap_err();
        assert!(
            matches!(err, DratError::NoConflict { lemmas: 1 }),
            "{err:?}"
        );
    }

    #[test]
    fn unit_and_absent_deletions_are_ignored_and_counted() {
        let f: &[&[i32]] = &[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2], &[9], &[5, 6]];
        // `d 1 3`: absent. `d 9`: a unit. `d 6 5`: present (in another order), deleted.
        let got = check(f, b"d 1 3 0\nd 9 0\nd 6 5 0\n1 0\n").unwrap();
        assert_eq!((got.deletions, got.ignored_deletions), (1, 2));
        assert_eq!(got.refuted_at, 1);
    }

    #[test]
    fn binary_proofs_are_read_like_text_ones() {
        let got = run_php(&binary(&[(false, &[-1])])).unwrap();
        assert_eq!(got.format, Some(ProofFormat::Binary));
        assert_eq!((got.lemmas, got.refuted_at), (1, 1));
        // Multi-byte literals (variable 200 needs two bytes) and a deletion.
        let bytes = binary(&[(false, &[200, -1]), (true, &[-1, 200]), (false, &[-1])]);
        let got = run_php(&bytes).unwrap();
        assert_eq!((got.lemmas, got.deletions, got.refuted_at), (2, 1, 2));
        // A wrong lemma is placed at its byte offset: `a 4 2 0` takes bytes 0-3.
        let err = check(&small(), &binary(&[(false, &[2, 1]), (false, &[1, 3])])).unwrap_err();
        assert!(
            matches!(
                err,
                DratError::NotImplied {
                    lemma: 2,
                    position: ProofPosition::Binary { byte: 4 },
                    ..
                }
            ),
            "{err:?}"
        );
    }

    #[test]
    fn malformed_proofs_name_the_position() {
        let err = check(&small(), b"2 1 0\n-2 x 0\n").unwrap_err();
        match err {
            DratError::Syntax { position, message } => {
                assert_eq!(position, ProofPosition::Text { line: 2, column: 4 });
                assert!(message.contains("found `x`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        let err = check(&small(), b"2 1 0\n-2").unwrap_err();
        assert!(matches!(err, DratError::Syntax { .. }), "{err:?}");
        let err = check(&small(), b"a\x03").unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Syntax {
                    position: ProofPosition::Binary { byte: 2 },
                    ..
                }
            ),
            "{err:?}"
        );
        let err = check(&small(), b"a\x04\x02\x00\x07").unwrap_err();
        match err {
            DratError::Syntax { position, message } => {
                assert_eq!(position, ProofPosition::Binary { byte: 4 });
                assert!(message.contains("found 0x07"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_spent_budget_stops_the_check() {
        let budget = Deadline {
            at: Some(std::time::Instant::now()),
            cancel: None,
        };
        let mut proof = String::new();
        for _ in 0..300 {
            proof.push_str("1 2 0\n");
        }
        let (n, c) = formula(&[&[1, 2], &[-1, 2], &[1, -2], &[-1, -2, 3]]);
        let err = check_drat(n, &c, proof.as_bytes(), &budget).unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Interrupted {
                    lemmas: 256,
                    interrupt: Interrupt::Time
                }
            ),
            "{err:?}"
        );
    }
}
