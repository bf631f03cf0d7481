//! Validation: every engine and every reduction variant must give the same answer on the same
//! puzzle -- the same status, the same number of solutions up to the cap, and the same
//! solution set whenever the search was exhausted below the cap. Every solution has already
//! been checked against the houses by [`engines::run`].
//!
//! A run stopped by a limit answers nothing and is *inconclusive*, not a disagreement; a run
//! whose engine does not support the puzzle is *skipped*. A run with status `error` (an invalid
//! solution) is always a disagreement.
//!
//! With a certified verdict ([`Certified`]: a certificate of [`crate::certify`] that its
//! checker accepted), the certificate decides: every answer must agree with it
//! ([`against_certified`]), and the answers that do are then compared with each other as
//! above (counts and solution sets beyond what the certificate says).

use crate::certify;
use crate::engines::{self, Engine, EngineSpec, Limits, Outcome, Status};
use crate::puzzle::{Grid, Puzzle};
use std::fmt;

/// One configuration's result on one puzzle.
pub struct Run {
    pub spec: EngineSpec,
    pub outcome: Outcome,
}

/// What the runs on one puzzle amount to.
pub struct Verdict {
    pub runs: Vec<Run>,
    /// Index (into `runs`) of the run every other answer was compared with.
    pub reference: Option<usize>,
    pub disagreements: Vec<Disagreement>,
}

/// A run that contradicts the reference: the reference run's spec, or [`CERTIFICATE`].
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub spec: EngineSpec,
    pub reference: String,
    pub what: String,
}

/// The reference of a disagreement with a certified verdict.
pub const CERTIFICATE: &str = "the certificate";

/// A verdict proven by a checked certificate, with its solutions (one for `unique`, two for
/// `multiple`, none for `unsat`).
#[derive(Clone, Copy, Debug)]
pub struct Certified<'a> {
    pub verdict: certify::Verdict,
    pub solutions: &'a [Grid],
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} vs {}: {}", self.spec, self.reference, self.what)
    }
}

impl Verdict {
    pub fn agrees(&self) -> bool {
        self.disagreements.is_empty()
    }

    /// Runs stopped by a limit.
    pub fn inconclusive(&self) -> impl Iterator<Item = &Run> {
        self.runs.iter().filter(|r| r.outcome.status.is_limit())
    }

    /// Runs whose engine does not handle this puzzle.
    pub fn skipped(&self) -> impl Iterator<Item = &Run> {
        self.runs
            .iter()
            .filter(|r| r.outcome.status == Status::Unsupported)
    }

    /// The reference answer, if any run answered.
    pub fn answer(&self) -> Option<&Outcome> {
        self.reference.map(|i| &self.runs[i].outcome)
    }
}

/// Whether `outcome` exhausted the search (its solution set is complete).
fn exhausted(outcome: &Outcome, limits: &Limits) -> bool {
    match outcome.status {
        Status::Unique | Status::Unsat => true,
        Status::Multiple => limits.max_solutions == 0 || outcome.count < limits.max_solutions,
        _ => false,
    }
}

fn sorted(solutions: &[Grid]) -> Vec<Grid> {
    let mut s = solutions.to_vec();
    s.sort_unstable();
    s
}

/// Runs every engine on `puzzle` and compares their answers.
pub fn verify(
    puzzle: &Puzzle,
    engines: &mut [(EngineSpec, Box<dyn Engine>)],
    limits: &Limits,
) -> Verdict {
    compare(run_all(puzzle, engines, limits), limits)
}

/// Runs every engine on `puzzle` and compares their answers with `certified`, which decides.
pub fn verify_certified(
    puzzle: &Puzzle,
    engines: &mut [(EngineSpec, Box<dyn Engine>)],
    limits: &Limits,
    certified: &Certified<'_>,
) -> Verdict {
    compare_certified(run_all(puzzle, engines, limits), limits, certified)
}

fn run_all(
    puzzle: &Puzzle,
    engines: &mut [(EngineSpec, Box<dyn Engine>)],
    limits: &Limits,
) -> Vec<Run> {
    engines
        .iter_mut()
        .map(|(spec, engine)| Run {
            spec: spec.clone(),
            outcome: engines::run(engine.as_mut(), puzzle, limits),
        })
        .collect()
}

/// How an answer differs from a certified verdict ([`against_certified`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CertifiedMismatch {
    #[error("status {status} vs certified {certified}")]
    Status {
        status: Status,
        certified: &'static str,
    },
    #[error("solution {solution:?} vs the certified unique solution")]
    Solution { solution: Grid },
}

/// Whether the answer `outcome` agrees with `certified`; what differs if not. An answer
/// agrees when its status is the certified verdict (`solved`, a first solution, agrees with
/// `unique` and `multiple`) and, for `unique`, every solution it kept is the certified one.
pub fn against_certified(
    outcome: &Outcome,
    certified: &Certified<'_>,
) -> Result<(), CertifiedMismatch> {
    use certify::Verdict as V;
    let verdict = certified.verdict;
    let status_agrees = matches!(
        (outcome.status, verdict),
        (Status::Solved, V::Unique | V::Multiple)
            | (Status::Unique, V::Unique)
            | (Status::Multiple, V::Multiple)
            | (Status::Unsat, V::Unsat)
    );
    if !status_agrees {
        return Err(CertifiedMismatch::Status {
            status: outcome.status,
            certified: verdict.as_str(),
        });
    }
    if verdict == V::Unique {
        if let Some(other) = outcome
            .solutions
            .iter()
            .find(|s| Some(*s) != certified.solutions.first())
        {
            return Err(CertifiedMismatch::Solution {
                solution: other.clone(),
            });
        }
    }
    Ok(())
}

/// Compares runs already made on one puzzle under `limits`.
pub fn compare(runs: Vec<Run>, limits: &Limits) -> Verdict {
    compare_with(runs, limits, None)
}

/// Compares runs already made on one puzzle under `limits` with a certified verdict, which
/// decides (see the module doc).
pub fn compare_certified(runs: Vec<Run>, limits: &Limits, certified: &Certified<'_>) -> Verdict {
    compare_with(runs, limits, Some(certified))
}

fn compare_with(runs: Vec<Run>, limits: &Limits, certified: Option<&Certified<'_>>) -> Verdict {
    let mut disagreements = Vec::new();
    for r in runs.iter().filter(|r| r.outcome.status == Status::Error) {
        disagreements.push(Disagreement {
            spec: r.spec.clone(),
            reference: r.spec.to_string(),
            what: r.outcome.note.clone().unwrap_or_else(|| "error".into()),
        });
    }
    // The answers compared with each other: all of them, or those the certificate accepts.
    let mut compared: Vec<&Run> = Vec::new();
    for r in runs.iter().filter(|r| r.outcome.status.is_answer()) {
        match certified.map(|c| against_certified(&r.outcome, c)) {
            Some(Err(what)) => disagreements.push(Disagreement {
                spec: r.spec.clone(),
                reference: CERTIFICATE.to_string(),
                what: what.to_string(),
            }),
            _ => compared.push(r),
        }
    }
    let reference = compared
        .first()
        .and_then(|first| runs.iter().position(|r| std::ptr::eq(r, *first)));
    if let Some(ri) = reference {
        let base = &runs[ri].outcome;
        let base_exhausted = exhausted(base, limits);
        let base_set = sorted(&base.solutions);
        for r in compared {
            let o = &r.outcome;
            let mut what = Vec::new();
            if o.status != base.status {
                what.push(format!("status {} vs {}", o.status, base.status));
            }
            if o.count != base.count {
                what.push(format!("{} solutions vs {}", o.count, base.count));
            }
            let kept_all = |x: &Outcome| x.solutions.len() as u64 == x.count;
            if what.is_empty() && base_exhausted && kept_all(o) && kept_all(base) {
                let set = sorted(&o.solutions);
                if set != base_set {
                    let only: Vec<&Grid> = set.iter().filter(|s| !base_set.contains(s)).collect();
                    what.push(format!(
                        "different solution sets ({} found only here, e.g. {:?})",
                        only.len(),
                        only.first()
                    ));
                }
            }
            if !what.is_empty() {
                disagreements.push(Disagreement {
                    spec: r.spec.clone(),
                    reference: runs[ri].spec.to_string(),
                    what: what.join("; "),
                });
            }
        }
    }
    Verdict {
        runs,
        reference,
        disagreements,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::Stats;
    use crate::puzzle::Geometry;
    use std::sync::Arc;
    use std::time::Duration;

    fn outcome(status: Status, solutions: Vec<Grid>) -> Outcome {
        Outcome {
            status,
            count: solutions.len() as u64,
            solutions,
            stats: Stats::default(),
            build: Duration::ZERO,
            solve: Duration::ZERO,
            wall: Duration::ZERO,
            note: None,
        }
    }

    fn run(name: &str, o: Outcome) -> Run {
        Run {
            spec: EngineSpec::new(name),
            outcome: o,
        }
    }

    #[test]
    fn agreeing_and_disagreeing_answers() {
        let limits = Limits::solutions(0);
        let a = vec![1, 2];
        let b = vec![2, 1];
        let v = compare(
            vec![
                run("x", outcome(Status::Multiple, vec![a.clone(), b.clone()])),
                run("y", outcome(Status::Multiple, vec![b.clone(), a.clone()])),
                run("z", outcome(Status::TimeLimit, vec![])),
            ],
            &limits,
        );
        assert!(v.agrees());
        assert_eq!(v.inconclusive().count(), 1);
        let v = compare(
            vec![
                run("x", outcome(Status::Multiple, vec![a.clone(), b.clone()])),
                run("y", outcome(Status::Multiple, vec![a.clone(), a.clone()])),
                run("z", outcome(Status::Unique, vec![a.clone()])),
            ],
            &limits,
        );
        assert_eq!(v.disagreements.len(), 2, "{:?}", v.disagreements);
        assert!(v.disagreements[0].what.contains("solution sets"));
    }

    /// The certified verdict decides: an answer that contradicts it disagrees even when it
    /// comes first (and is not the reference the others are compared with), and a unique
    /// answer with another solution disagrees.
    #[test]
    fn a_certified_verdict_decides() {
        use certify::Verdict as V;
        let limits = Limits::solutions(2);
        let (a, b) = (vec![1, 2], vec![2, 1]);
        let unique = [a.clone()];
        let certified = Certified {
            verdict: V::Unique,
            solutions: &unique,
        };
        let v = compare_certified(
            vec![
                run("w", outcome(Status::Multiple, vec![a.clone(), b.clone()])),
                run("x", outcome(Status::Unique, vec![a.clone()])),
                run("y", outcome(Status::Unique, vec![b.clone()])),
                run("z", outcome(Status::Unique, vec![a.clone()])),
                run("t", outcome(Status::TimeLimit, vec![])),
            ],
            &limits,
            &certified,
        );
        let who: Vec<String> = v.disagreements.iter().map(|d| d.spec.to_string()).collect();
        assert_eq!(who, ["w", "y"], "{:?}", v.disagreements);
        assert!(v.disagreements.iter().all(|d| d.reference == CERTIFICATE));
        assert!(v.disagreements[0].what.contains("certified unique"));
        assert_eq!(v.reference, Some(1));
        let none: [Grid; 0] = [];
        let unsat = Certified {
            verdict: V::Unsat,
            solutions: &none,
        };
        for (status, agrees) in [
            (Status::Unsat, true),
            (Status::Solved, false),
            (Status::Unique, false),
            (Status::Multiple, false),
        ] {
            let o = outcome(status, vec![]);
            assert_eq!(against_certified(&o, &unsat).is_ok(), agrees, "{status}");
        }
        let two = [a.clone(), b.clone()];
        let multiple = Certified {
            verdict: V::Multiple,
            solutions: &two,
        };
        assert!(against_certified(&outcome(Status::Solved, vec![b.clone()]), &multiple).is_ok());
        assert!(against_certified(&outcome(Status::Unique, vec![a]), &multiple).is_err());
    }

    #[test]
    fn capped_runs_compare_counts_only() {
        let limits = Limits::solutions(2);
        let v = compare(
            vec![
                run("x", outcome(Status::Multiple, vec![vec![1], vec![2]])),
                run("y", outcome(Status::Multiple, vec![vec![3], vec![4]])),
            ],
            &limits,
        );
        assert!(v.agrees());
    }

    #[test]
    fn every_classic_engine_agrees_on_a_small_puzzle() {
        let g = Arc::new(Geometry::square(4).unwrap());
        let p = Puzzle::new(g, vec![1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap();
        let mut engines: Vec<_> = engines::all_configurations()
            .into_iter()
            .map(|s| {
                let e = s.make().unwrap();
                (s, e)
            })
            .collect();
        let v = verify(&p, &mut engines, &Limits::solutions(0));
        assert!(v.agrees(), "{:?}", v.disagreements);
        assert!(v.answer().unwrap().count > 2);
    }
}
