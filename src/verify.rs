//! Validation: every engine and every reduction variant must give the same answer on the same
//! puzzle -- the same status, the same number of solutions up to the cap, and the same
//! solution set whenever the search was exhausted below the cap. Every solution has already
//! been checked against the houses by [`engines::run`].
//!
//! A run stopped by a limit answers nothing and is *inconclusive*, not a disagreement; a run
//! whose engine does not support the puzzle is *skipped*. A run with status `error` (an invalid
//! solution) is always a disagreement.

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

/// A run that contradicts the reference run.
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub spec: EngineSpec,
    pub reference: EngineSpec,
    pub what: String,
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
    let runs: Vec<Run> = engines
        .iter_mut()
        .map(|(spec, engine)| Run {
            spec: spec.clone(),
            outcome: engines::run(engine.as_mut(), puzzle, limits),
        })
        .collect();
    compare(runs, limits)
}

/// Compares runs already made on one puzzle under `limits`.
pub fn compare(runs: Vec<Run>, limits: &Limits) -> Verdict {
    let mut disagreements = Vec::new();
    for r in runs.iter().filter(|r| r.outcome.status == Status::Error) {
        disagreements.push(Disagreement {
            spec: r.spec.clone(),
            reference: r.spec.clone(),
            what: r.outcome.note.clone().unwrap_or_else(|| "error".into()),
        });
    }
    let reference = runs.iter().position(|r| r.outcome.status.is_answer());
    if let Some(ri) = reference {
        let base = &runs[ri].outcome;
        let base_exhausted = exhausted(base, limits);
        let base_set = sorted(&base.solutions);
        for r in runs.iter().filter(|r| r.outcome.status.is_answer()) {
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
                    reference: runs[ri].spec.clone(),
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
