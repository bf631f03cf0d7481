//! CNF reduction: Sudoku-family puzzles as SAT formulas, written against the house list.
//!
//! Sources: I. Lynce and J. Ouaknine, "Sudoku as a SAT problem" (AIMATH 2006) for the
//! `minimal`, `efficient` and `extended` encodings; G. Kwon and H. Jain, "Optimized CNF
//! encoding for Sudoku puzzles" (LPAR 2006) for `optimized`; the at-most-one encodings'
//! sources are in [`amo`]. Variable numbering is in [`formula`]; what the DIMACS comments say
//! is in [`header`].
//!
//! # Public API (summary)
//!
//! ```text
//! CnfEncoding { Minimal, Efficient, Extended (default), Optimized, Reduced }   FromStr, as_str()
//! Amo { Auto (default), Pairwise, Sequential, Binary, Product, Commander(3), Bimander(2) }
//!     FromStr, as_str(), for_group(k)
//! GivensMode { Units (default), Assumptions }                         FromStr, as_str()
//! SumEncoding { Combinations (default), Totalizer, Bdd }              FromStr, as_str()
//! CnfOptions { encoding, amo, givens, dedup: bool, probe, locked, sum } check() -> Result<(), CnfOptionsError>
//!
//! encode(&Puzzle, &CnfOptions) -> Cnf
//! encode_with(&Puzzle, &CnfOptions, &mut Scratch) -> Cnf   (same formula, memory reused;
//!     Scratch::new(), scratch.recycle(cnf) hands a finished formula's storage back)
//! trait ClauseSink { add_clause(&[i32]), reserve(clauses, literals), add_pairwise(&[i32]) }
//!     implemented by Clauses, Counter and every `dyn SatBackend`
//! encode_into(&Puzzle, &CnfOptions, &mut impl ClauseSink, &mut Scratch, &EncodeLimits)
//!     -> Result<Encoded { info, num_vars, assumptions, size, trivially_unsat }, EncodeStop>
//!     EncodeLimits { max_literals: Option<u64>, budget: Deadline, teardown: Option<Teardown> }
//!         (budget read every 2^16 literals; teardown: stop early enough to free the solver)
//!     EncodeStop::{TooLarge { literals, bound }, Interrupted(Interrupt)}
//! count(&Puzzle, &CnfOptions, &mut Scratch) -> SizeStats   (exact, nothing emitted)
//! propagate_singles(&Puzzle, &mut Scratch, &Deadline, Deductions { locked, probe })
//!     -> Result<Option<Propagated>, Interrupt>
//!     (reduced's singles [+ locked candidates, probing] alone: None = clash, else Propagated { fixed }, has(c, d),
//!     placed_in(h, d), filled(), propagation())
//! encode_propagated(&Puzzle, &CnfOptions, Propagation, &mut impl ClauseSink, &mut Scratch,
//!     &EncodeLimits) -> Result<Encoded, EncodeStop>   (reduced, from that propagation: same
//!     formula as encode_into, propagation not run again)
//! Cnf { info: CnfInfo, num_vars: u32, clauses: Clauses, assumptions: Vec<i32> }
//!     cnf.blocking_clause(&grid) -> Option<Vec<i32>>
//! CnfInfo { geometry, givens: Grid, fixed: Grid, cages: Option<Arc<CageSet>>, options, map: VarMap }
//!     info.blocking_clause(&grid) -> Option<Vec<i32>>
//! VarMap::{Formula { n }, Explicit { .. }}: primary(), cell_digit(var), var(cell, digit)
//! Clauses: len(), literals(), get(i), iter(), push(&[i32])
//!
//! write_dimacs(&Cnf, &mut dyn Write) -> io::Result<()>
//! read_dimacs(impl BufRead) / read_dimacs_str(&str) -> Result<Dimacs, SyntaxError>
//! Dimacs { num_vars, clauses: Clauses, comments: Vec<(line, String)> }
//! parse_header(&comments) -> Result<Header { info, assumptions }, HeaderError { line: Option, message }>
//! read_model(&str) -> Result<SolverAnswer { Sat(Model), Unsat, Unknown }, SyntaxError>
//! Model: from_lits(&[i32]), value(var) -> Option<bool>, is_true(lit), lits()
//! check_model(&Clauses, &Model) -> Result<(), DecodeError>
//! decode(&CnfInfo, &Model) -> Result<Grid, DecodeError>
//! decode_checked(&Dimacs, &Model) -> Result<Grid, DecodeError>   (header + clauses + grid check)
//! drat::check_drat(num_vars, &Clauses, proof: impl BufRead, &Deadline)
//!     -> Result<ProofCheck { lemmas, checked, rat_lemmas, deletions, .. }, DratError>
//! drat::DratChecker::{new, with_mode(CheckMode::{Forward, Backward}), reset, add_clause,
//!     truncate, check_proof(impl BufRead, &Deadline)}   (reusable; also a ClauseSink)
//!
//! trait SatBackend { name, prefer, reserve_vars, add_clause, add_cnf, solve(&assumptions, &Deadline)
//!                    -> Result<SatAnswer { Sat(Model), Unsat, Interrupted(Interrupt) }, BackendError>,
//!                    stats() -> BackendStats { decisions, conflicts, propagations, learned,
//!                                              child_cpu_us, thread_cpu_us, .., winner },
//!                    set_conflict_limit, set_decision_limit -> bool, settle, .. }
//! make_backend("varisat" | "batsat" | "cadical[:CONFIG]" | "kissat" | "portfolio[:A+B+...]"
//!              | "renamed:SEED:BACKEND" | "ext:PATH [ARGS...]")
//!     -> Result<Box<dyn SatBackend>, BackendError>
//! Deadline { at: Option<Instant>, cancel: Option<Arc<AtomicBool>> }   (crate::search::Deadline;
//!     expired() -> Option<Expiry { Time, Cancelled }>, into Interrupt)
//!
//! size_stats(&Puzzle, &CnfOptions) -> SizeStats { vars, clauses, literals }
//! size_stats_empty(n, &CnfOptions) -> Result<SizeStats, GeometryError>   (default box shape)
//! ```
//!
//! The `sat` engine ([`crate::engines::sat`]) puts these together: encode, solve, decode,
//! block the grid, solve again up to the solution cap.
//!
//! # Example
//!
//! Encode a puzzle with one of the encodings and write it in DIMACS CNF, for any solver:
//!
//! ```
//! use sudolab::cnf::{encode, write_dimacs, CnfEncoding, CnfOptions};
//! use sudolab::puzzle::{read_str, ReadOptions};
//!
//! let line = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
//! let (_, puzzles) = read_str(line, "example", &ReadOptions::default())?;
//! let puzzle = &puzzles[0].puzzle;
//! let options = CnfOptions { encoding: CnfEncoding::Extended, ..CnfOptions::default() };
//! let cnf = encode(puzzle, &options);
//! let mut dimacs = Vec::new();
//! write_dimacs(&cnf, &mut dimacs)?;
//! let text = String::from_utf8(dimacs)?;
//! let header = text.lines().find(|l| l.starts_with("p cnf")).unwrap();
//! assert_eq!(header, format!("p cnf {} {}", cnf.num_vars, cnf.clauses.len()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod amo;
pub mod backend;
pub mod cages;
mod decode;
mod dimacs;
pub mod drat;
mod encode;
pub mod formula;
pub mod header;
mod model;
mod options;
pub mod singles;
mod sink;
mod size;
mod unknown_value;

pub use amo::{Amo, AmoError};
pub use backend::{
    make_backend, AnswerErrorKind, BackendError, BackendStats, Deadline, Interrupt, SatAnswer,
    SatBackend, Teardown, BACKEND_NAMES,
};
pub use cages::SumEncoding;
pub use decode::{check_model, decode, decode_checked, DecodeError};
pub use dimacs::{read_dimacs, read_dimacs_str, write_clauses, write_dimacs, Dimacs, SyntaxError};
pub use encode::{
    count, encode, encode_into, encode_propagated, encode_with, propagate_singles, size_whole,
    EncodeLimits, EncodeStop, Encoded, Propagated, Propagation, Scratch, CHECK_EVERY_LITERALS,
};
pub use formula::{Clauses, Cnf, CnfInfo, SizeStats, VarMap};
pub use header::{parse_header, Header, HeaderError};
pub use model::{read_model, Model, SolverAnswer};
pub use options::{CnfEncoding, CnfOptions, CnfOptionsError, Deductions, GivensMode};
pub use sink::{ClauseSink, Counter};
pub use size::{size_stats, size_stats_empty};
pub use unknown_value::UnknownValue;

#[cfg(test)]
mod tests;
