//! Checking a certificate without trusting whoever made it: the solutions against the houses
//! and the givens, written out here again, and the proof against the canonical formula
//! rebuilt from the puzzle ([`super::canonical`]) by the DRAT checker of
//! [`crate::cnf::drat`]. None of this calls an engine, an encoder or a solver.
//!
//! What each verdict must show:
//! - `unique`: one solution, and a proof that the canonical formula plus the solution's
//!   blocking clause is unsatisfiable (so no other solution exists);
//! - `multiple`: two distinct solutions, no proof;
//! - `unsat`: no solution, and a proof that the canonical formula is unsatisfiable;
//! - `unknown`: at most one solution, each a real one; it claims nothing else.
//!
//! A minimality certificate (of a `unique` puzzle) lists, for each given in row-major
//! order, a solution of the puzzle without that given other than the unique one: so no given
//! can be dropped.

use super::canonical::{canonical_houses, Canonical, CanonicalForm};
use super::prove::Verdict;
use crate::cnf::drat::{DratChecker, DratError, ProofCheck, ProofPosition};
use crate::cnf::{ClauseSink, Deadline, Interrupt};
use crate::puzzle::Geometry;
use std::io::BufRead;

/// A certificate's claims, as read from a bundle or made by the prover.
pub struct Claim<'a> {
    pub geometry: &'a Geometry,
    pub givens: &'a [u16],
    pub verdict: Verdict,
    pub solutions: &'a [Vec<u16>],
    pub form: CanonicalForm,
    /// For each given (row-major), a solution of the puzzle without it.
    pub minimality: Option<&'a [Vec<u16>]>,
}

/// Why a grid is not a solution of a puzzle ([`check_solution`]); rows, columns and houses
/// are numbered from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolutionError {
    #[error("{found} cells, expected {expected}")]
    Length { found: usize, expected: usize },
    #[error("cell r{row}c{col} holds {digit}, not a digit 1..{n}")]
    NotADigit {
        row: usize,
        col: usize,
        digit: u16,
        n: usize,
    },
    #[error("cell r{row}c{col} holds {digit}, but its given is {given}")]
    NotTheGiven {
        row: usize,
        col: usize,
        digit: u16,
        given: u16,
    },
    #[error("digit {digit} twice in house {house} (cell r{row}c{col})")]
    Twice {
        digit: usize,
        house: usize,
        row: usize,
        col: usize,
    },
}

/// Why a certificate is rejected.
#[derive(Debug, thiserror::Error)]
pub enum Rejection {
    #[error("verdict {verdict} needs {expected} solution(s), found {found}")]
    SolutionCount {
        verdict: &'static str,
        expected: &'static str,
        found: usize,
    },
    #[error("solution {which} is not a solution: {why}")]
    NotASolution { which: usize, why: SolutionError },
    #[error("the two solutions are the same grid")]
    SameSolutions,
    #[error("verdict {0} needs a proof, and none is given")]
    MissingProof(&'static str),
    #[error("verdict {0} carries no proof, and one is given")]
    UnexpectedProof(&'static str),
    #[error("the proof is rejected: {0}")]
    Proof(DratError),
    #[error("minimality: {0}")]
    Minimality(String),
}

impl Rejection {
    /// The lemma (1-based) and its position in the proof, when the proof is what failed.
    pub fn lemma(&self) -> Option<(u64, ProofPosition)> {
        match self {
            Rejection::Proof(DratError::NotImplied {
                lemma, position, ..
            }) => Some((*lemma, *position)),
            _ => None,
        }
    }

    /// Whether this is a malformed proof (a syntax or read error) rather than a false claim.
    pub fn malformed(&self) -> bool {
        matches!(
            self,
            Rejection::Proof(DratError::Syntax { .. } | DratError::Io(_))
        )
    }

    /// The interrupt, when a limit stopped the check before a decision.
    pub fn interrupted(&self) -> Option<Interrupt> {
        match self {
            Rejection::Proof(DratError::Interrupted { interrupt, .. }) => Some(*interrupt),
            _ => None,
        }
    }
}

/// What an accepted certificate's check counted.
#[derive(Clone, Copy, Debug, Default)]
pub struct Accepted {
    /// The proof check's counters (none without a proof).
    pub proof: Option<ProofCheck>,
}

/// Whether `grid` solves the puzzle `givens` under the houses of `geometry`: digits in
/// `1..=N`, every given kept, every house holding every digit once. Written here rather than
/// taken from the model, so that the check shares as little as possible with what it checks.
pub fn check_solution(
    geometry: &Geometry,
    givens: &[u16],
    grid: &[u16],
) -> Result<(), SolutionError> {
    let n = geometry.n();
    if grid.len() != n * n {
        return Err(SolutionError::Length {
            found: grid.len(),
            expected: n * n,
        });
    }
    for (cell, (&g, &s)) in givens.iter().zip(grid).enumerate() {
        let (row, col) = (cell / n + 1, cell % n + 1);
        if s == 0 || s as usize > n {
            return Err(SolutionError::NotADigit {
                row,
                col,
                digit: s,
                n,
            });
        }
        if g != 0 && g != s {
            return Err(SolutionError::NotTheGiven {
                row,
                col,
                digit: s,
                given: g,
            });
        }
    }
    let houses = canonical_houses(geometry);
    let mut seen = vec![0u32; n + 1];
    for (h, house) in houses.chunks(n.max(1)).enumerate() {
        let stamp = h as u32 + 1;
        for &cell in house {
            let d = grid[cell as usize] as usize;
            if seen[d] == stamp {
                return Err(SolutionError::Twice {
                    digit: d,
                    house: h + 1,
                    row: cell as usize / n + 1,
                    col: cell as usize % n + 1,
                });
            }
            seen[d] = stamp;
        }
    }
    Ok(())
}

/// Checks `claim`, with its proof (if any) read from `proof`. For many claims, a
/// [`ClaimChecker`] reuses its memory and the formula the claims share.
pub fn check_claim(
    claim: &Claim<'_>,
    proof: Option<&mut dyn BufRead>,
    budget: &Deadline,
) -> Result<Accepted, Rejection> {
    ClaimChecker::new().check(claim, proof, budget)
}

/// Checks claims one after another with one DRAT checker. The canonical formula is streamed
/// into the checker clause by clause (no copy of it is made), the budget read every 2^16
/// clauses; when a claim has the houses and form of the one before, only the givens' unit
/// clauses and the blocking clause are loaded anew (they come last in the formula).
#[derive(Default)]
pub struct ClaimChecker {
    drat: DratChecker,
    /// The form, side and houses of the formula whose group clauses the checker holds.
    loaded: Option<(CanonicalForm, usize, Vec<u32>)>,
}

/// Clauses loaded between two readings of the budget.
const LOAD_POLL: u64 = 1 << 16;

impl ClaimChecker {
    pub fn new() -> Self {
        Self::default()
    }

    /// Checks `claim`, with its proof (if any) read from `proof`.
    pub fn check(
        &mut self,
        claim: &Claim<'_>,
        proof: Option<&mut dyn BufRead>,
        budget: &Deadline,
    ) -> Result<Accepted, Rejection> {
        let v = claim.verdict;
        let (lo, hi, expected) = match v {
            Verdict::Unique => (1, 1, "1"),
            Verdict::Multiple => (2, 2, "2"),
            Verdict::Unsat => (0, 0, "0"),
            Verdict::Unknown => (0, 1, "0 or 1"),
        };
        let found = claim.solutions.len();
        if found < lo || found > hi {
            return Err(Rejection::SolutionCount {
                verdict: v.as_str(),
                expected,
                found,
            });
        }
        for (i, s) in claim.solutions.iter().enumerate() {
            check_solution(claim.geometry, claim.givens, s)
                .map_err(|why| Rejection::NotASolution { which: i + 1, why })?;
        }
        if v == Verdict::Multiple && claim.solutions[0] == claim.solutions[1] {
            return Err(Rejection::SameSolutions);
        }
        if let Some(seconds) = claim.minimality {
            check_minimality(claim, seconds)?;
        }
        if !v.has_proof() {
            return match proof {
                Some(_) => Err(Rejection::UnexpectedProof(v.as_str())),
                None => Ok(Accepted::default()),
            };
        }
        let Some(proof) = proof else {
            return Err(Rejection::MissingProof(v.as_str()));
        };
        let canonical = Canonical::new(claim.geometry, claim.givens, claim.form);
        let block = (v == Verdict::Unique).then(|| canonical.blocking_clause(&claim.solutions[0]));
        self.load(&canonical, block.as_deref(), budget)?;
        let counts = self.drat.check_proof(proof, budget).map_err(|e| {
            if matches!(
                e,
                DratError::Interrupted { .. } | DratError::TooLarge { .. }
            ) {
                // A check cut short may leave its work half done: load afresh next time.
                self.loaded = None;
            }
            Rejection::Proof(e)
        })?;
        Ok(Accepted {
            proof: Some(counts),
        })
    }

    /// Puts the canonical formula plus `extra` into the checker.
    fn load(
        &mut self,
        canonical: &Canonical,
        extra: Option<&[i32]>,
        budget: &Deadline,
    ) -> Result<(), Rejection> {
        let key_matches = self.loaded.as_ref().is_some_and(|(form, n, houses)| {
            *form == canonical.form() && *n == canonical.n() && houses == canonical.houses()
        });
        let prefix = canonical.num_group_clauses() as usize;
        if key_matches && self.drat.num_clauses() >= prefix {
            self.drat.truncate(prefix);
        } else {
            self.loaded = None;
            self.drat.reset(canonical.num_vars() as u32);
            ClauseSink::reserve(
                &mut self.drat,
                canonical.num_clauses() as usize + 1,
                canonical.num_clauses() as usize * 2,
            );
            let mut count = 0u64;
            let mut stop = None;
            let drat = &mut self.drat;
            canonical.for_each_group_clause(|c| {
                count += 1;
                if count % LOAD_POLL == 0 {
                    stop = budget.expired().map(Interrupt::from);
                    if stop.is_some() {
                        return false;
                    }
                }
                drat.add_clause(c);
                true
            });
            if let Some(interrupt) = stop {
                self.drat.reset(0);
                return Err(Rejection::Proof(DratError::Interrupted {
                    lemmas: 0,
                    interrupt,
                }));
            }
            self.loaded = Some((canonical.form(), canonical.n(), canonical.houses().to_vec()));
        }
        let drat = &mut self.drat;
        canonical.for_each_given_clause(|c| drat.add_clause(c));
        if let Some(extra) = extra {
            self.drat.add_clause(extra);
        }
        Ok(())
    }
}

fn check_minimality(claim: &Claim<'_>, seconds: &[Vec<u16>]) -> Result<(), Rejection> {
    if claim.verdict != Verdict::Unique {
        return Err(Rejection::Minimality(format!(
            "a minimality certificate goes with a unique puzzle, not {}",
            claim.verdict.as_str()
        )));
    }
    let given_cells: Vec<usize> = (0..claim.givens.len())
        .filter(|&c| claim.givens[c] != 0)
        .collect();
    if seconds.len() != given_cells.len() {
        return Err(Rejection::Minimality(format!(
            "{} second solutions for {} givens",
            seconds.len(),
            given_cells.len()
        )));
    }
    let n = claim.geometry.n();
    let mut fewer = claim.givens.to_vec();
    for (k, (&cell, second)) in given_cells.iter().zip(seconds).enumerate() {
        fewer[cell] = 0;
        let r = check_solution(claim.geometry, &fewer, second);
        fewer[cell] = claim.givens[cell];
        let at = format!("given {} (r{}c{})", k + 1, cell / n + 1, cell % n + 1);
        r.map_err(|why| Rejection::Minimality(format!("{at}: not a solution without it: {why}")))?;
        if *second == claim.solutions[0] {
            return Err(Rejection::Minimality(format!(
                "{at}: the second solution is the unique one"
            )));
        }
    }
    Ok(())
}
