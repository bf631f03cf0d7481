//! Certified answers: every `unique`, `multiple` and `unsat` verdict with evidence that a
//! checker sharing no code with the solvers accepts.
//!
//! The evidence follows the SAT competition's practice of checkable unsatisfiability proofs
//! in DRAT (N. Wetzler, M. J. H. Heule, W. A. Hunt Jr., "DRAT-trim: Efficient checking and
//! trimming using expressive clausal proofs", SAT 2014):
//! - `unique`: the solution, and a DRAT proof that the canonical formula plus the solution's
//!   blocking clause is unsatisfiable;
//! - `multiple`: two distinct solutions;
//! - `unsat`: a DRAT proof that the canonical formula is unsatisfiable.
//!
//! The proof's statement is the *canonical formula* ([`canonical`]): a fixed CNF of the
//! puzzle, independent of every encoding option, which a 30-line script rebuilds
//! (`scripts/canonical-cnf.py`). Proofs are made on any encoding ([`prove`]): what was done
//! before the solver (singles, locked candidates, probing, the eliminations of the givens) is
//! written as lemmas, the encoding's auxiliary variables are introduced by definition, and
//! the solver's own DRAT proof follows, renamed to the canonical variables. [`check`] checks
//! a claim from the puzzle alone; [`bundle`] reads and writes the bundle that `sudolab
//! certify`, `generate --certify` and `verify --certify-out` make (`certificates.jsonl` and
//! one proof file per proof; `docs/certify.md`).
//!
//! Layering: this module uses the puzzle model, the CNF encoders (to make proofs) and the
//! DRAT checker of [`crate::cnf::drat`]; the checking half ([`check`], [`canonical`],
//! [`bundle`]) uses no encoder and no solver.

pub mod bundle;
pub mod canonical;
pub mod check;
mod drat_out;
pub mod prove;

pub use canonical::{Canonical, CanonicalForm, UnknownForm, PAIRWISE_MAX_SIDE};
pub use check::{
    check_claim, check_solution, Accepted, Claim, ClaimChecker, Rejection, SolutionError,
};
pub use drat_out::DratText;
pub use prove::{Certificate, ProofStats, ProveError, Prover, Verdict};

#[cfg(test)]
mod tests;
