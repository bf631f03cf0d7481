//! What to encode and how: the encoding (Lynce & Ouaknine 2006's minimal, efficient and
//! extended; Kwon & Jain 2006's optimized), the at-most-one encoding, how the givens enter
//! the formula, and whether duplicate clauses are dropped.
//!
//! - I. Lynce and J. Ouaknine, "Sudoku as a SAT problem", AIMATH 2006.
//! - G. Kwon and H. Jain, "Optimized CNF encoding for Sudoku puzzles", LPAR 2006.
//! - `reduced`: naked and hidden singles before encoding, see [`super::singles`].

use super::amo::Amo;
use super::cages::SumEncoding;
use super::unknown_value::UnknownValue;
use std::fmt;
use std::str::FromStr;

/// Which constraints the formula states (Lynce & Ouaknine's names; Kwon & Jain's
/// optimization of the extended encoding).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CnfEncoding {
    /// Every cell holds at least one digit; every digit at most once per house.
    Minimal,
    /// Minimal + every cell holds at most one digit.
    Efficient,
    /// Efficient + every digit at least once per house.
    #[default]
    Extended,
    /// Extended with the givens eliminated before encoding (Kwon & Jain): variables decided
    /// by the givens removed, satisfied clauses dropped, false literals deleted, variables
    /// renumbered with an explicit map back to (cell, digit).
    Optimized,
    /// Naked and hidden singles to a fixpoint first, then the extended encoding over the
    /// candidates left only (see [`crate::cnf::singles`]): the propagation-first reduction
    /// of rkkautsar/sudoku-solver. A clash found by propagation is the empty clause.
    Reduced,
}

impl CnfEncoding {
    pub const ALL: [CnfEncoding; 5] = [
        CnfEncoding::Minimal,
        CnfEncoding::Efficient,
        CnfEncoding::Extended,
        CnfEncoding::Optimized,
        CnfEncoding::Reduced,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CnfEncoding::Minimal => "minimal",
            CnfEncoding::Efficient => "efficient",
            CnfEncoding::Extended => "extended",
            CnfEncoding::Optimized => "optimized",
            CnfEncoding::Reduced => "reduced",
        }
    }

    /// Whether the formula states "each cell at most one digit".
    pub fn cell_amo(self) -> bool {
        !matches!(self, CnfEncoding::Minimal)
    }

    /// Whether the formula states "each digit at least once per house".
    pub fn house_alo(self) -> bool {
        matches!(
            self,
            CnfEncoding::Extended | CnfEncoding::Optimized | CnfEncoding::Reduced
        )
    }

    /// Whether the givens (and for `reduced` what propagation decides) are removed from the
    /// formula before encoding, with an explicit variable map.
    pub fn eliminates(self) -> bool {
        matches!(self, CnfEncoding::Optimized | CnfEncoding::Reduced)
    }
}

impl fmt::Display for CnfEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for CnfEncoding {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<Self, UnknownValue> {
        CnfEncoding::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| {
                UnknownValue::new(
                    "encoding",
                    s,
                    "minimal, efficient, extended, optimized, reduced",
                )
            })
    }
}

/// How the givens enter the formula of the non-optimized encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GivensMode {
    /// One unit clause `x(cell, given)` per given (Lynce & Ouaknine).
    #[default]
    Units,
    /// No clause: the givens are passed to the solver as assumptions (the formula is then
    /// the same for every puzzle of a geometry). External solvers have no assumption
    /// interface: the external backend appends them to the file as unit clauses.
    Assumptions,
}

impl GivensMode {
    pub fn as_str(self) -> &'static str {
        match self {
            GivensMode::Units => "units",
            GivensMode::Assumptions => "assumptions",
        }
    }
}

impl fmt::Display for GivensMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GivensMode {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<Self, UnknownValue> {
        match s {
            "units" => Ok(GivensMode::Units),
            "assumptions" => Ok(GivensMode::Assumptions),
            _ => Err(UnknownValue::new("givens mode", s, "units, assumptions")),
        }
    }
}

/// A combination of [`CnfOptions`] that does not make sense ([`CnfOptions::check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CnfOptionsError {
    /// `optimized` or `reduced` with the givens as assumptions.
    #[error("encoding {encoding} eliminates the givens: givens=assumptions does not apply")]
    GivensEliminated { encoding: CnfEncoding },
    /// `probe=true` or `locked=true` with another encoding than `reduced`.
    #[error(
        "{option}=true needs encoding=reduced (it strengthens reduced's propagation), not {encoding}"
    )]
    NeedsReduced {
        option: &'static str,
        encoding: CnfEncoding,
    },
}

/// Everything [`super::encode`] needs besides the puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct CnfOptions {
    pub encoding: CnfEncoding,
    pub amo: Amo,
    /// Ignored by `optimized` and `reduced`, which eliminate the givens (see
    /// [`CnfOptions::check`]).
    pub givens: GivensMode,
    /// Drop clauses that are already in the formula (same literal set). Off by default so
    /// that the pairwise encodings have the published sizes, which count the clauses of box
    /// pairs that share a row or a column twice.
    pub dedup: bool,
    /// `reduced` only: after singles, failed-literal probing with the singles propagator and
    /// the cell dilemma on the cells with at most three candidates, to a fixpoint
    /// ([`crate::cnf::singles`]). Off here; the sat engine's `probe=auto` turns it on for
    /// grids up to 9x9 (docs/engines.md, "Probing before encoding").
    pub probe: bool,
    /// `reduced` only: after singles, locked candidates (pointing and claiming over the house
    /// list) to a fixpoint ([`crate::cnf::singles`]). Off here; the sat engine's
    /// `locked=auto` turns it on for grids up to 9x9 (docs/engines.md, "Locked candidates
    /// before encoding").
    pub locked: bool,
    /// How a killer cage's sum is encoded ([`super::cages`]); no effect on a puzzle without
    /// cages.
    pub sum: SumEncoding,
}

/// What the `reduced` encoding's propagation does besides naked and hidden singles
/// ([`crate::cnf::singles`]): the two switches of [`CnfOptions`], alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Deductions {
    pub locked: bool,
    pub probe: bool,
}

impl CnfOptions {
    /// The deductions of the propagation before encoding (`reduced`).
    pub fn deductions(&self) -> Deductions {
        Deductions {
            locked: self.locked,
            probe: self.probe,
        }
    }

    /// Rejects combinations that do not make sense: `optimized` or `reduced` with givens as
    /// assumptions, probing or locked candidates with another encoding than `reduced`.
    pub fn check(&self) -> Result<(), CnfOptionsError> {
        if self.encoding.eliminates() && self.givens == GivensMode::Assumptions {
            return Err(CnfOptionsError::GivensEliminated {
                encoding: self.encoding,
            });
        }
        for (on, option) in [(self.probe, "probe"), (self.locked, "locked")] {
            if on && self.encoding != CnfEncoding::Reduced {
                return Err(CnfOptionsError::NeedsReduced {
                    option,
                    encoding: self.encoding,
                });
            }
        }
        Ok(())
    }

    /// Name of how the givens enter the formula: `units`, `assumptions`, `eliminated`
    /// (optimized) or `propagated` (reduced).
    pub fn givens_str(&self) -> &'static str {
        match self.encoding {
            CnfEncoding::Optimized => "eliminated",
            CnfEncoding::Reduced => "propagated",
            _ => self.givens.as_str(),
        }
    }
}
