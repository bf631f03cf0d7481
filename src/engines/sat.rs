//! The `sat` engine: the CNF reduction of [`crate::cnf`] solved by a SAT backend.
//!
//! Encode the puzzle (Lynce & Ouaknine 2006; Kwon & Jain 2006 for `optimized`; singles first
//! for `reduced`, see [`crate::cnf::singles`]) straight into the backend (the encoder's
//! clauses go to the solver as they are made, no formula is stored; a formula over
//! `max_literals`, counted exactly first, is refused), solve, decode the model into a grid, add a clause that blocks that grid (its
//! (cell, digit) literals over the cells that are not given) and solve again, until the
//! solution cap, unsatisfiability or a limit. Counting blocks grids, not raw models, so the
//! counts equal the other engines' (and every grid has one model, see [`crate::cnf::decode`]).
//!
//! Timing: `build` is the encoding, including loading the clauses into the backend (they go
//! in as they are made); solving is `solve`. For external solvers `solve` is this thread's CPU only (writing the file, waiting);
//! the solver's own CPU time is the counter `solver_cpu_us`. A portfolio's members run on
//! threads of their own: their CPU is added, loading to `build` and the rest to `solve`
//! (`solver_counters`).
//!
//! Propagation first: with `reduced` (the default) singles, locked candidates and probing run
//! before a backend is made, and a puzzle they fill (its only solution) or refute (`unsat`) is answered without a
//! backend or a solve call, as incremental mode does it (`answered_by_propagation`, shared);
//! its time is all `build`.
//!
//! Limits: `max_solutions` as everywhere. `time_limit` and `cancel` are read by the encoder
//! (during propagation and every 2^16 literals) and honoured during search
//! by every backend: batsat and CaDiCaL poll them through their callbacks, varisat through its
//! proof output (installed only when a time limit or cancel flag exists, see
//! [`crate::cnf::backend::Varisat`]), external solvers are killed. `node_limit` counts backend
//! decisions: checked between solve calls where they are known, and given to the backend as
//! each call's decision cap ([`crate::cnf::SatBackend::set_decision_limit`]; the decisions
//! left with batsat and external CaDiCaL or Kissat; with embedded CaDiCaL, which caps but
//! does not count, a cap that shrinks from call to call: N, then N/(k(k+1)) for call k,
//! so that one puzzle's calls make fewer than 2N decisions in all). varisat has no
//! decision limit: its rows say in their note
//! that the node limit was not applied. A backend's conflict limit ends the search as
//! `node-limit`.

use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Limits, OptionError, Outcome, Search, Sides,
    Status, Stop,
};
use crate::cnf::{
    decode, encode_into, encode_propagated, make_backend, propagate_singles, Amo, BackendStats,
    CnfEncoding, CnfOptions, Deadline, Deductions, EncodeLimits, EncodeStop, GivensMode, Interrupt,
    Propagated, SatAnswer, Scratch, SumEncoding, Teardown,
};
use crate::puzzle::Puzzle;
use incremental::{Assume, Mode, Rebuild, Reused};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

mod certified;
mod incremental;

pub static INFO: EngineInfo = EngineInfo {
    name: "sat",
    summary: "CNF reduction (Lynce-Ouaknine / Kwon-Jain encodings) solved by a SAT solver",
    source: "I. Lynce, J. Ouaknine, Sudoku as a SAT problem (2006); G. Kwon, H. Jain, \
             Optimized CNF encoding for Sudoku puzzles (2006); AMO encodings: Sinz 2005, \
             Frisch et al. 2005, Chen 2010, Klieber & Kwon 2007",
    nodes: "none: a SAT search has no tree, so the nodes, guesses and backtracks columns are \
            empty; what --node-limit counts is the backend's SAT decisions, in the decisions \
            column (batsat; external solvers that print them), summed over the solve calls, \
            empty with varisat and embedded CaDiCaL, which expose none (--node-limit caps \
            each solve call's decisions: batsat and external CaDiCaL or \
            Kissat at the decisions left, batsat passing N by up to the assumptions' number \
            with givens as assumptions; embedded CaDiCaL at N, N/2, N/6, ..., N/(k(k+1)) on a \
            puzzle's successive calls; not applied by varisat, which the row's note says)",
    counters: "decisions/conflicts/propagations: backend counters, empty for \
               varisat and embedded CaDiCaL; learned: clauses embedded CaDiCaL learned \
               (through its learner hook: at most its conflicts, as some conflicts learn \
               no clause; with a portfolio, CaDiCaL's alone); \
               vars/clauses/literals: the formula encoded (blocking clauses not \
               included); sat_calls: solve calls; solver_cpu_us: CPU of external solver \
               processes (not in solve_s); with backend=portfolio, member_cpu_us: CPU of the \
               members' threads (loading clauses, in build_s; searching, in solve_s) and \
               portfolio_winner: the member that answered first, from 1 as named (0: no race); with \
               backend=cubes:..., member_cpu_us as for a portfolio and cubes: the cubes its lookahead made. A puzzle that the propagation before the solver decides (reduced, \
               the default, and incremental=true: singles, locked candidates and probing fill the grid, its \
               only solution, or find a clash, unsat) is answered with no backend and no \
               solve call: sat_calls=0, vars=0, clauses=0 (1, the empty clause, if \
               refuted), literals=0, the backend counters 0 (empty where not exposed); all \
               its time is build_s (the propagation)",
    sides: Sides::Any,
    search_tree: false,
    capabilities: "classic, jigsaw, X, windoku, combined layouts such as samurai (any house \
                   list; a 1 given in each void cell, cleared in the answers), killer (cages: distinct digits \
                   with the AMO encoding, the sum with sum=; not with certify=true); options: \
                   encoding=minimal|efficient|extended|optimized|reduced (reduced; extended with \
                   incremental=true or givens=assumptions), \
                   amo=auto[:K]|pairwise|sequential|binary|product|commander[:K]|bimander[:G] \
                   (auto: pairwise up to 32 literals, bimander above, and pairwise only up \
                   to 16 in a formula that would have over 50M literals so (memory); \
                   auto:K: threshold K on every formula), \
                   backend=auto|varisat|batsat|cadical|cadical:plain|sat|unsat|kissat\
                   |portfolio[:A+B+...]|renamed:SEED:B|cubes:DEPTH:B|ext:PATH [ARGS] (auto: batsat, or \
                   portfolio:batsat+cadical:sat on grids of side 64 or more whose formula has \
                   5000 to 100000 variables, when the machine has 2 cores or more, never in \
                   run nor in incremental mode; \
                   portfolio: embedded backends racing, one thread each, the first answer \
                   kept, default members batsat+cadical; renamed:SEED:B: backend B with the \
                   variables renamed by a seeded permutation, to diversify a portfolio; \
                   cubes:DEPTH:B: cube-and-conquer, a lookahead splitting the formula into at \
                   most 2^DEPTH cubes that one B per core solves as assumptions), \
                   givens=units|assumptions (units), dedup=true|false (false), \
                   sum=combinations|totalizer|bdd (combinations: killer cages' sums as the digit sets \
                   enumerated with a selector each, an order-encoded totalizer, or a reduced \
                   decision diagram over the partial sums, crate::cnf::cages), \
                   probe=auto|true|false (auto: true on grids up to 9x9, false above; \
                   reduced, or incremental=true: after singles, failed-literal probing with \
                   singles and the cell dilemma on the cells with at most 3 candidates, to a \
                   fixpoint), \
                   locked=auto|true|false (auto: true on grids up to 9x9, false above; \
                   reduced, or incremental=true: after singles, locked candidates (pointing \
                   and claiming over the house list), to a fixpoint, before probing), \
                   incremental=true|false (false: one solver per geometry reused across \
                   puzzles, givens as assumptions; minimal/efficient/extended only), \
                   rebuild=auto|never|N (auto: when search time since the last rebuild \
                   passes 8 rebuilds' time), fallback=N|never (never: a puzzle whose call on the \
                   reused solver reaches N conflicts is finished by a fresh reduced solver, \
                   probed as by probe), assume=placed|all|refuted (placed: in incremental \
                   mode singles, locked candidates and probing run first, a puzzle they fill or refute needs no \
                   solver, and their conclusions are assumptions: the decided cells, plus \
                   every removed candidate negated (all) or those no placed peer explains \
                   (refuted)), \
                   max_literals=L (200000000: a puzzle whose formula has more than L literals, \
                   counted exactly before encoding, ends with memory-limit), \
                   certify=true|false (false: true answers through the certifying prover, \
                   varisat writing a DRAT proof against the canonical formula of \
                   docs/certify.md, which is checked; the verdict is unique, multiple (two \
                   solutions at most) or unsat; columns proof_lemmas, proof_bytes, check_s; \
                   backend auto or varisat, givens=units, not incremental)",
    make,
    variants,
};

/// `verify` runs every encoding x AMO x Rust backend, givens as assumptions, the duplicate-free
/// formulas, CaDiCaL on every encoding, the default portfolio, one with a renamed member,
/// Kissat and cube-and-conquer:
/// all must agree with each
/// other and with the classic engines.
fn variants() -> Vec<EngineOptions> {
    let mut v = Vec::new();
    for encoding in CnfEncoding::ALL {
        v.push(
            EngineOptions::new()
                .with("encoding", encoding.as_str())
                .with("backend", "cadical"),
        );
    }
    v.push(
        EngineOptions::new()
            .with("givens", "assumptions")
            .with("backend", "cadical:plain"),
    );
    v.push(EngineOptions::new().with("backend", "portfolio"));
    v.push(EngineOptions::new().with("backend", "portfolio:batsat+renamed:1:cadical:sat"));
    v.push(EngineOptions::new().with("backend", "kissat"));
    v.push(EngineOptions::new().with("backend", "cubes:3:batsat"));
    for backend in ["varisat", "batsat"] {
        for encoding in CnfEncoding::ALL {
            for amo in ["pairwise", "sequential", "binary", "product", "commander"] {
                let o = EngineOptions::new()
                    .with("encoding", encoding.as_str())
                    .with("amo", amo)
                    .with("backend", backend);
                if o != EngineOptions::new()
                    .with("encoding", "extended")
                    .with("amo", "pairwise")
                    .with("backend", "varisat")
                {
                    v.push(o);
                }
            }
            if !encoding.eliminates() {
                v.push(
                    EngineOptions::new()
                        .with("encoding", encoding.as_str())
                        .with("givens", "assumptions")
                        .with("backend", backend),
                );
            }
        }
        for encoding in ["minimal", "extended"] {
            v.push(
                EngineOptions::new()
                    .with("encoding", encoding)
                    .with("dedup", "true")
                    .with("backend", backend),
            );
        }
        v.push(
            EngineOptions::new()
                .with("encoding", "reduced")
                .with("probe", "true")
                .with("backend", backend),
        );
        v.push(
            EngineOptions::new()
                .with("encoding", "reduced")
                .with("locked", "true")
                .with("probe", "false")
                .with("backend", backend),
        );
        for encoding in ["extended", "reduced"] {
            v.push(
                EngineOptions::new()
                    .with("encoding", encoding)
                    .with("amo", "bimander")
                    .with("backend", backend),
            );
        }
    }
    v
}

const KEYS: &[&str] = &[
    "encoding",
    "amo",
    "backend",
    "givens",
    "dedup",
    "probe",
    "locked",
    "max_literals",
    "incremental",
    "rebuild",
    "fallback",
    "assume",
    "certify",
    "sum",
];

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    Ok(Box::new(Sat::from_options(options)?))
}

/// The engine: options of the encoding and the backend name.
pub struct Sat {
    pub cnf: CnfOptions,
    pub backend: String,
    /// Deadline on the formula's size: a puzzle whose formula has more literals is not encoded
    /// and ends with `memory-limit` (counted exactly by [`crate::cnf::count`]).
    pub max_literals: u64,
    /// The encoder's working memory and the last formula's clause store, reused from one
    /// puzzle to the next (every encoding alike).
    scratch: Scratch,
    /// Incremental mode: the rebuild rule and fallback, and the reused solver.
    incremental: Option<Mode>,
    reused: Option<Reused>,
    /// The `probe` and `locked` options: with `reduced`, `cnf.probe` and `cnf.locked` are set
    /// from them per puzzle (in incremental mode, [`Mode`] holds them).
    deductions: DeductionOptions,
    /// The backend's counters before any call (0 where it exposes them, `None` where not):
    /// those of a puzzle answered without a solver call.
    idle: BackendStats,
    /// `certify=true`: the certifying prover, which answers instead of the backend, and the
    /// checker of its certificates (kept, like the prover, from one puzzle to the next).
    certify: Option<(crate::certify::Prover, crate::certify::ClaimChecker)>,
}

/// `probe=auto` probes grids up to this side. Measured (docs/engines.md, "Probing before
/// encoding"): on 9x9 sets probing made the default 2.2x / 1.2x / 0.96x as fast (17-clue /
/// top1465 / forum-hardest); on 16x16 to 49x49 generated sets 0.96-1.01x, and on rk-81x81 and
/// rk-100x100 it costs more than it saves.
pub const PROBE_AUTO_MAX_SIDE: usize = 9;

/// `locked=auto` applies locked candidates on grids up to this side. Measured
/// (docs/engines.md, "Locked candidates before encoding"): on 9x9 sets they made the default
/// 1.30x / 1.18x / 0.99x as fast (17-clue / top1465 / forum-hardest); above 9x9 the changes
/// were within search luck either way.
pub const LOCKED_AUTO_MAX_SIDE: usize = 9;

/// The `probe` and `locked` options of the propagation before the solver (`reduced`, and
/// incremental mode): `None` is `auto`, on for sides up to [`PROBE_AUTO_MAX_SIDE`] and
/// [`LOCKED_AUTO_MAX_SIDE`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeductionOptions {
    pub probe: Option<bool>,
    pub locked: Option<bool>,
}

impl DeductionOptions {
    /// The deductions made on `puzzle`.
    pub fn for_puzzle(&self, puzzle: &Puzzle) -> Deductions {
        Deductions {
            locked: self.locked.unwrap_or(puzzle.n() <= LOCKED_AUTO_MAX_SIDE),
            probe: self.probe.unwrap_or(puzzle.n() <= PROBE_AUTO_MAX_SIDE),
        }
    }
}

/// An `auto|true|false` option: `None` when absent or `auto`.
fn auto_or_bool(options: &EngineOptions, key: &'static str) -> Result<Option<bool>, OptionError> {
    match options.get(key) {
        None | Some("auto") => Ok(None),
        Some(v) => v
            .parse::<bool>()
            .map(Some)
            .map_err(|_| OptionError::BadValue {
                context: "",
                key,
                expected: "auto, true or false",
                value: v.to_string(),
            }),
    }
}

/// Default [`Sat::max_literals`]: 2e8 literals, about 0.8 GB inside an embedded solver
/// (varisat holds the 4e8 literals of the empty 100x100 grid in 5.3 GB). The bound applies to
/// this puzzle's formula, counted exactly before encoding ([`crate::cnf::count`]): every
/// published large instance (64x64 to 400x400) is far below it with `optimized` or
/// `reduced`; the empty 400x400 grid is not.
pub const DEFAULT_MAX_LITERALS: u64 = 200_000_000;

/// Incremental mode's rebuild rule unless `rebuild` is given (docs/engines.md, "Incremental
/// mode": measured).
pub const DEFAULT_REBUILD: Rebuild = Rebuild::Auto;

/// Incremental mode's conflict limit per call on the reused solver, after which the puzzle
/// goes to a fresh `reduced` solver, unless `fallback` is given: none, since no limit measured
/// (50, 200, 1000) made incremental mode faster on the 9x9 sets (docs/engines.md).
pub const DEFAULT_FALLBACK: Option<u64> = None;

/// Incremental mode's assumptions from the propagation before the solver, unless `assume` is
/// given (docs/engines.md, "Incremental mode": measured).
pub const DEFAULT_ASSUME: Assume = Assume::Placed;

/// The backend of a bare `--engine sat`: `auto`, batsat or a race of batsat and CaDiCaL by
/// [`Sat::backend_for`] (docs/engines.md, "Defaults of the sat engine").
pub const DEFAULT_BACKEND: &str = "auto";

/// What `backend=auto` runs when it does not race: batsat, the fastest embedded solver on
/// every 9x9 set and the median of large grids (docs/engines.md).
pub const AUTO_SINGLE: &str = "batsat";

/// What `backend=auto` races: batsat and CaDiCaL in its `sat` configuration, each the faster
/// on some large grids. CaDiCaL's `sat` rather than its default options: on 30 random 64x64
/// cuts at 61% givens the race's 90th percentile is 2.5 s against 3.4 s and its sum 36.4 s
/// against 43.7 s (one cut fewer at the 10 s limit), on 30 49x49 cuts at 58% its sum 5.7 s
/// against 20.3 s, with the same median on both, and sudoku-64-1 is answered (CaDiCaL alone:
/// 18-22 s against 59 s); alone it is slower on rk-64x64 and rk-81x81 (0.90 and 1.14 s
/// against 0.39 and 0.38 s), which batsat wins in the race (`scripts/bench/sat-portfolio.sh`,
/// docs/benchmarks.md).
pub const AUTO_RACE: &str = "portfolio:batsat+cadical:sat";

/// `backend=auto` races on grids of this side or more. Measured (docs/engines.md, "Defaults
/// of the sat engine"): on random 64x64 cuts at 61% givens batsat and CaDiCaL are level in
/// median and their tails differ, so the race cuts the 75th and 90th percentiles by a third;
/// on the 25x25 hardness-peak set batsat is twice as fast as CaDiCaL and a race there only
/// doubles the time of its 25 raced puzzles (12-60 ms each; a race's fixed cost, CaDiCaL
/// loading and freeing a second formula beside batsat, is 15-30 ms). On cuts just above the
/// hardness peak of sides 36 and 49 the race saves 2% of the wall time (36x36) or costs 10%
/// (49x49, where batsat is the faster), for twice the CPU (`scripts/bench/sat-portfolio.sh`).
pub const AUTO_RACE_MIN_SIDE: usize = 64;

/// `backend=auto` races on a formula of at least this many variables (the candidates left
/// after propagation with `reduced`, open cells times N otherwise): below it batsat alone
/// answers in milliseconds, under a race's fixed cost.
pub const AUTO_RACE_MIN_VARS: u64 = 5_000;

/// `backend=auto` races on a formula of at most this many variables: a race holds the
/// formula twice, and CaDiCaL's copy takes 4-5 times batsat's memory. Measured (docs/engines.md,
/// peak RSS of `solve --time-limit`, none answered): a 400x400 cut at 60% givens (3.0M
/// variables, 38.9M clauses) 4.70 GB raced against 1.87 GB for batsat alone, at 75% (348k,
/// 6.7M) 1.68 GB against 0.35 GB, a 225x225 cut at 70% (130k, 2.5M) 0.63 GB against 0.14
/// GB. The race's gains were measured at 8,600-12,000 variables (64x64 grids), and it costs
/// time on rk-81x81, rk-100x100 and gen-225x225 (20k, 17k and 48k variables).
pub const AUTO_RACE_MAX_VARS: u64 = 100_000;

/// Whether `backend=auto` may race (default yes): `run` turns it off, since its jobs already
/// share the cores and its figures are CPU time, which a race only adds to.
static AUTO_MAY_RACE: AtomicBool = AtomicBool::new(true);

/// `backend=auto`'s rule: race on a grid of side `side` whose formula has `vars` variables
/// when racing is allowed, there are two cores or more, the side is at least
/// [`AUTO_RACE_MIN_SIDE`] and the formula has from [`AUTO_RACE_MIN_VARS`] to
/// [`AUTO_RACE_MAX_VARS`] variables.
pub fn auto_backend(side: usize, vars: u64, cores: usize, may_race: bool) -> &'static str {
    let sized = (AUTO_RACE_MIN_VARS..=AUTO_RACE_MAX_VARS).contains(&vars);
    if may_race && cores >= 2 && side >= AUTO_RACE_MIN_SIDE && sized {
        AUTO_RACE
    } else {
        AUTO_SINGLE
    }
}

/// The backend named, with `auto` taken as it is where it never races ([`AUTO_SINGLE`]): in
/// incremental mode, in `run`'s CSV columns, and for the counters of a puzzle that needs no
/// solver.
pub fn without_race(backend: &str) -> &str {
    if backend == "auto" {
        AUTO_SINGLE
    } else {
        backend
    }
}

/// Lets `backend=auto` race (the single-job commands) or not (`run`), for the whole process.
pub fn set_auto_may_race(on: bool) {
    AUTO_MAY_RACE.store(on, Ordering::Relaxed);
}

impl Sat {
    pub fn from_options(options: &EngineOptions) -> Result<Self, EngineError> {
        options.allow_only("sat", KEYS)?;
        // The engine's defaults are its fastest configuration as measured (docs/engines.md,
        // "Defaults of the sat engine"): the propagation-first `reduced` encoding with
        // `amo=auto` on batsat, raced against CaDiCaL on large formulas (`backend=auto`).
        // Incremental mode and givens as assumptions need clauses that do not depend on the
        // givens, so there the default encoding is `extended`.
        let givens_free = options.get("incremental") == Some("true")
            || options.get("givens") == Some("assumptions");
        let mut cnf = CnfOptions {
            encoding: if givens_free {
                CnfEncoding::Extended
            } else {
                CnfEncoding::Reduced
            },
            ..CnfOptions::default()
        };
        if let Some(e) = options.get("encoding") {
            cnf.encoding = e
                .parse::<CnfEncoding>()
                .map_err(OptionError::unparsed("encoding"))?;
        }
        if let Some(a) = options.get("amo") {
            cnf.amo = a.parse::<Amo>().map_err(OptionError::unparsed("amo"))?;
        }
        if let Some(g) = options.get("givens") {
            cnf.givens = g
                .parse::<GivensMode>()
                .map_err(OptionError::unparsed("givens"))?;
        }
        if let Some(e) = options.get("sum") {
            cnf.sum = e
                .parse::<SumEncoding>()
                .map_err(OptionError::unparsed("sum"))?;
        }
        if let Some(d) = options.get("dedup") {
            cnf.dedup = d.parse().map_err(|_| OptionError::BadValue {
                context: "",
                key: "dedup",
                expected: "true or false",
                value: d.to_string(),
            })?;
        }
        let incremental_on = options.get("incremental") == Some("true");
        let deductions = DeductionOptions {
            probe: auto_or_bool(options, "probe")?,
            locked: auto_or_bool(options, "locked")?,
        };
        // In incremental mode `probe` and `locked` are the propagation before the reused
        // solver (and the fallback's fresh solver), not options of the solver's formula.
        // Otherwise an explicit `true` must meet `cnf.check` (reduced only); the per-puzzle
        // values are set in `solve`.
        if !incremental_on {
            cnf.probe = deductions.probe.unwrap_or(false);
            cnf.locked = deductions.locked.unwrap_or(false);
        }
        cnf.check()?;
        let mut backend = options
            .get("backend")
            .unwrap_or(DEFAULT_BACKEND)
            .to_string();
        let idle = make_backend(without_race(&backend))?.stats();
        let max_literals = match options.get("max_literals") {
            None => DEFAULT_MAX_LITERALS,
            Some(v) => v.parse().map_err(|_| OptionError::BadValue {
                context: "",
                key: "max_literals",
                expected: "a whole number from 0 to 18446744073709551615",
                value: v.to_string(),
            })?,
        };
        let incremental = match options.get("incremental") {
            None | Some("false") => None,
            Some("true") => Some(Mode {
                rebuild: match options.get("rebuild") {
                    Some(r) => r.parse::<Rebuild>()?,
                    None => DEFAULT_REBUILD,
                },
                deductions,
                assume: match options.get("assume") {
                    Some(a) => a.parse::<Assume>()?,
                    None => DEFAULT_ASSUME,
                },
                fallback: match options.get("fallback") {
                    None => DEFAULT_FALLBACK,
                    Some("never") => None,
                    Some(v) => match v.parse::<u64>() {
                        Ok(k) if k > 0 => Some(k),
                        _ => {
                            return Err(OptionError::BadValue {
                                context: "",
                                key: "fallback",
                                expected: "never or a number of conflicts >= 1",
                                value: v.to_string(),
                            }
                            .into())
                        }
                    },
                },
            }),
            Some(v) => {
                return Err(OptionError::BadValue {
                    context: "",
                    key: "incremental",
                    expected: "true or false",
                    value: v.to_string(),
                }
                .into())
            }
        };
        for key in ["rebuild", "fallback", "assume"] {
            if incremental.is_none() && options.get(key).is_some() {
                return Err(OptionError::Needs {
                    key,
                    needs: "incremental=true",
                }
                .into());
            }
        }
        if incremental.is_some() && cnf.encoding.eliminates() {
            return Err(OptionError::Conflict {
                reason: format!(
                    "incremental=true needs an encoding whose clauses do not depend on the \
                     givens (minimal, efficient or extended), not {}",
                    cnf.encoding
                ),
            }
            .into());
        }
        let certify = match options.get("certify") {
            None | Some("false") => None,
            Some("true") => {
                if incremental.is_some() {
                    return Err(OptionError::Conflict {
                        reason: "certify=true makes a proof per puzzle: it does not go with \
                                 incremental=true"
                            .into(),
                    }
                    .into());
                }
                if cnf.givens == GivensMode::Assumptions {
                    return Err(OptionError::Conflict {
                        reason: "certify=true needs givens=units: a DRAT proof refutes a \
                                 formula, not a formula under assumptions"
                            .into(),
                    }
                    .into());
                }
                if !matches!(backend.as_str(), "auto" | "varisat") {
                    return Err(OptionError::Conflict {
                        reason: format!(
                            "certify=true proves with varisat, which writes DRAT: \
                             backend={backend} does not apply"
                        ),
                    }
                    .into());
                }
                // The backend the rows report is the one that answers.
                backend = "varisat".into();
                Some((
                    crate::certify::Prover::new().with_max_literals(Some(max_literals)),
                    crate::certify::ClaimChecker::new(),
                ))
            }
            Some(v) => {
                return Err(OptionError::BadValue {
                    context: "",
                    key: "certify",
                    expected: "true or false",
                    value: v.to_string(),
                }
                .into())
            }
        };
        Ok(Sat {
            cnf,
            backend,
            max_literals,
            scratch: Scratch::new(),
            incremental,
            reused: None,
            deductions,
            idle,
            certify,
        })
    }
}

impl Engine for Sat {
    /// Cages are encoded with every backend ([`crate::cnf::cages`]); `certify=true` answers
    /// through the canonical formula, which states houses and givens only (docs/certify.md).
    fn supports_cages(&self) -> bool {
        self.certify.is_none()
    }

    /// Every layout: the encodings are written from the house list, and a combined layout is
    /// encoded with a 1 given in each void cell ([`Puzzle::void_as_given`]), taken out of
    /// every answer. `certify=true` keeps to one grid and its diagonals (the canonical
    /// formula's houses).
    fn supports_geometry(&self, g: &crate::puzzle::Geometry) -> bool {
        self.certify.is_none() || !g.has_extra_houses()
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        let start = Instant::now();
        let mut search = Search::new(limits);
        if let Some((prover, checker)) = &mut self.certify {
            let mut cnf = self.cnf;
            if cnf.encoding == CnfEncoding::Reduced {
                let rules = self.deductions.for_puzzle(puzzle);
                cnf.probe = rules.probe;
                cnf.locked = rules.locked;
            }
            return certified::solve(prover, checker, puzzle, &cnf, limits, search, start);
        }
        let view = puzzle.void_as_given();
        let puzzle = view.as_ref().unwrap_or(puzzle);
        if puzzle.clash().is_some() {
            return search.finish_unsat();
        }
        if self.incremental.is_some() {
            // The incremental formula is the whole grid's (givens as assumptions): its size
            // has a closed form.
            let literals = crate::cnf::size_whole(puzzle.geometry(), &self.cnf, 0).literals;
            if literals > self.max_literals {
                search.out_of_memory();
                let mut o = search.finish();
                o.note = Some(format!(
                    "the incremental {} encoding of a {n}x{n} grid has {literals} literals, \
                     over the bound of {} (option max_literals)",
                    self.cnf.encoding.as_str(),
                    self.max_literals,
                    n = puzzle.n()
                ));
                return o;
            }
        }
        if let (Some(_), true) = (self.incremental, puzzle.has_cages()) {
            // The reused solver holds one geometry's house clauses; cages are the puzzle's
            // own, so a killer gets a fresh solver with the same encoding.
            let cnf = self.cnf;
            return self.fresh(puzzle, limits, &cnf, search, start, &[], 0);
        }
        if let Some(mode) = self.incremental {
            let ended = incremental::solve(
                &mut self.reused,
                puzzle,
                &self.cnf,
                without_race(&self.backend),
                mode,
                limits,
                &mut search,
                start,
                &mut self.scratch,
                self.idle,
            );
            if ended.gave_up {
                // The reused solver spent its conflict budget: a fresh solver on the `reduced`
                // formula finishes the puzzle, the grids found so far blocked.
                search.stats.bump("fallbacks", 1);
                let rules = mode.deductions.for_puzzle(puzzle);
                let cnf = CnfOptions {
                    encoding: CnfEncoding::Reduced,
                    givens: GivensMode::Units,
                    probe: rules.probe,
                    locked: rules.locked,
                    ..self.cnf
                };
                return self.fresh(
                    puzzle,
                    limits,
                    &cnf,
                    search,
                    start,
                    &ended.found,
                    ended.calls,
                );
            }
            search.stats.bump("sat_calls", ended.calls);
            let mut o = search.finish();
            o.status = Outcome::status_for(o.count, ended.stop, limits);
            if let Some(e) = ended.error {
                o.status = Status::Error;
                o.note = Some(format!("{}: {e}", self.backend));
            } else if ended.uncapped {
                o.note = Some(uncapped_note(
                    without_race(&self.backend),
                    o.stats.decisions.is_some(),
                ));
            }
            note_external_unsat(&mut o, &self.backend, ended.stop.is_none(), ended.calls);
            return o;
        }
        let mut cnf = self.cnf;
        if cnf.encoding == CnfEncoding::Reduced {
            let rules = self.deductions.for_puzzle(puzzle);
            cnf.probe = rules.probe;
            cnf.locked = rules.locked;
        }
        self.fresh(puzzle, limits, &cnf, search, start, &[], 0)
    }
}

/// Why a backend or the encoder stopped, as the search's stop.
fn stop_of(why: Interrupt) -> Stop {
    match why {
        Interrupt::Time => Stop::Time,
        Interrupt::Cancelled => Stop::Cancelled,
        Interrupt::ConflictLimit | Interrupt::DecisionLimit => Stop::Nodes,
    }
}

/// The outcome of a search whose build (encoding or propagation) ran out of budget.
fn interrupted_build(mut search: Search, why: Interrupt, limits: &Limits) -> Outcome {
    search.built();
    let mut o = search.finish();
    o.status = Outcome::status_for(o.count, Some(stop_of(why)), limits);
    o.note = early_stop_note(o.status, o.wall, limits.time_limit);
    o
}

/// The note of a `time-limit` row that stopped well before the limit (under 90% of it): the
/// encoder and the solver stop early enough to free what they hold within the limit (the
/// teardown reserve, [`Teardown`]), and the row says so, so that it is not read as a search
/// that used its whole budget.
pub(crate) fn early_stop_note(
    status: Status,
    wall: Duration,
    limit: Option<Duration>,
) -> Option<String> {
    let limit = limit?;
    if status != Status::TimeLimit || wall.as_secs_f64() >= 0.9 * limit.as_secs_f64() {
        return None;
    }
    Some(format!(
        "stopped at {:.2} s of the {} s time limit: the rest was reserved for freeing the \
         formula and the solver within the limit (teardown reserve)",
        wall.as_secs_f64(),
        limit.as_secs_f64()
    ))
}

/// Writes a backend's counters (of this puzzle's calls) into `search`: `nodes` and `guesses`
/// are its decisions, `backtracks` its conflicts (0 where it exposes none, the typed counters
/// then empty); the CPU of the backend's own threads (a portfolio's members) goes into
/// `build_s` (loading clauses) and `solve_s` (the rest), and into the counter
/// `member_cpu_us`, a portfolio's winner into `portfolio_winner`, cube-and-conquer's cubes into
/// `cubes`.
pub(crate) fn solver_counters(search: &mut Search, s: BackendStats) {
    if let Some(us) = s.thread_cpu_us {
        let load = s.thread_load_cpu_us.unwrap_or(0).min(us);
        search.add_helper_cpu(
            Duration::from_micros(load),
            Duration::from_micros(us - load),
        );
        search.stats.bump("member_cpu_us", us);
    }
    let st = &mut search.stats;
    if let Some(w) = s.winner {
        st.bump("portfolio_winner", w);
    }
    if let Some(c) = s.cubes {
        st.bump("cubes", c);
    }
    if let Some(l) = s.learned {
        st.bump("learned", l);
    }
    st.decisions = s.decisions;
    st.conflicts = s.conflicts;
    st.propagations = s.propagations;
    st.nodes = s.decisions.unwrap_or(0);
    st.guesses = s.decisions.unwrap_or(0);
    st.backtracks = s.conflicts.unwrap_or(0);
    if let Some(us) = s.child_cpu_us {
        st.bump("solver_cpu_us", us);
    }
}

/// Answers the puzzle without a solver if the propagation that runs before the solver (the
/// `reduced` encoding's, in both modes: singles, then locked candidates and probing as
/// [`DeductionOptions`] say) decided it. `propagated` is what it left, `None` after a clash.
/// Singles, locked candidates and probing only remove
/// candidates that no solution has ([`crate::cnf::singles`]), so a clash proves there is no
/// solution and a grid they fill is the only one ([`Propagated::filled`]): the search is
/// complete either way, whatever the solution cap, and [`super::run`] checks the grid against
/// the houses as every engine's. `found`: grids an earlier solver already counted.
///
/// Returns whether the puzzle was answered. Its counters are then those of the formula left
/// (vars 0 and literals 0; clauses 0, or 1 for the empty clause of a clash), the backend's
/// counters before any call (`idle`: nodes 0), no solve call; all its CPU time is `build`.
fn answered_by_propagation(
    puzzle: &Puzzle,
    search: &mut Search,
    propagated: Option<&Propagated<'_>>,
    found: &[Vec<u16>],
    idle: BackendStats,
) -> bool {
    let grid = match propagated {
        Some(p) if !p.filled() => return false,
        // The only grid of the houses: the puzzle's only solution if it keeps the cages,
        // else the puzzle has none.
        Some(p) => Some(p.fixed).filter(|g| !breaks_cages(puzzle, g)),
        None => None,
    };
    search.built();
    if let Some(grid) = grid {
        // A combined layout is solved with a 1 given in each void cell
        // (`Puzzle::void_as_given`): the answer holds no digit there.
        let mut grid = grid.to_vec();
        puzzle.geometry().clear_void(&mut grid);
        if !found.contains(&grid) {
            search.solution(&grid);
        }
    }
    let st = &mut search.stats;
    st.vars = Some(0);
    st.clauses = Some(u64::from(grid.is_none()));
    st.literals = Some(0);
    solver_counters(search, idle);
    true
}

/// Whether a filled grid breaks a cage of `puzzle` (never without cages).
fn breaks_cages(puzzle: &Puzzle, grid: &[u16]) -> bool {
    puzzle
        .cage_set()
        .is_some_and(|c| c.first_broken(grid).is_some())
}

impl Sat {
    /// The backend for a fresh formula on a grid of side `side`: the one named, or for `auto`
    /// a race ([`AUTO_RACE`]) by [`auto_backend`]'s rule on the formula's variables (`vars`,
    /// counted only for `auto`), when the process may race (not in `run`) and the machine
    /// has a second core for it, batsat ([`AUTO_SINGLE`]) otherwise. Incremental mode never
    /// races with `auto`: its one race would pick the solver of every later puzzle.
    pub fn backend_for(&self, side: usize, vars: impl FnOnce() -> u64) -> &str {
        if self.backend != "auto" {
            return &self.backend;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        auto_backend(side, vars(), cores, AUTO_MAY_RACE.load(Ordering::Relaxed))
    }

    /// Solves `puzzle` with a new backend and the formula of `cnf`, after blocking the grids
    /// in `found` (solutions already counted by an earlier solver); `calls` solve calls were
    /// made before.
    #[allow(clippy::too_many_arguments)]
    fn fresh(
        &mut self,
        puzzle: &Puzzle,
        limits: &Limits,
        cnf: &CnfOptions,
        mut search: Search,
        start: Instant,
        found: &[Vec<u16>],
        calls: u64,
    ) -> Outcome {
        let mut error: Option<String> = None;
        let mut stop: Option<Stop> = None;
        let mut calls = calls;
        let budget = limits.deadline_from(start);
        // `reduced` propagates first, before a backend is made: a puzzle that propagation
        // decides needs no solver (98.8% of 17-clue puzzles with probing, docs/engines.md).
        let propagation = if cnf.encoding == CnfEncoding::Reduced {
            match propagate_singles(puzzle, &mut self.scratch, &budget, cnf.deductions()) {
                Err(why) => return interrupted_build(search, why, limits),
                Ok(p) => {
                    if answered_by_propagation(puzzle, &mut search, p.as_ref(), found, self.idle) {
                        search.stats.bump("sat_calls", calls);
                        return search.finish();
                    }
                    // the variables, for backend=auto's rule only (a pass over the grid)
                    let auto = self.backend == "auto";
                    p.map(|p| (p.propagation(), auto.then(|| p.open_candidates())))
                }
            }
        } else {
            None
        };
        let open_candidates = propagation.and_then(|(_, vars)| vars);
        let propagation = propagation.map(|(p, _)| p);
        let vars = || {
            open_candidates.unwrap_or_else(|| {
                let open = puzzle.givens().iter().filter(|&&d| d == 0).count();
                (open * puzzle.n()) as u64
            })
        };
        let mut backend = match make_backend(self.backend_for(puzzle.n(), vars)) {
            Ok(b) => b,
            Err(e) => {
                let mut o = search.finish();
                o.status = Status::Error;
                o.note = Some(e.to_string());
                return o;
            }
        };
        if budget.is_set() {
            backend.expect_limits();
        }
        // The clauses go straight into the backend; the size guard counts this puzzle's
        // formula exactly before anything is emitted.
        // With a deadline, the encoder stops loading early enough to free what it loaded
        // in time, and the search ends early enough to free the whole formula.
        let teardown = budget.at.map(|_| Teardown {
            ns_per_clause: backend.teardown_ns_per_clause(),
            watch: crate::timing::Stopwatch::start(),
        });
        let encode_limits = EncodeLimits {
            max_literals: Some(self.max_literals),
            budget: budget.clone(),
            teardown,
        };
        let encoded = match propagation {
            Some(p) => encode_propagated(
                puzzle,
                cnf,
                p,
                &mut *backend,
                &mut self.scratch,
                &encode_limits,
            ),
            None => encode_into(
                puzzle,
                cnf,
                &mut *backend,
                &mut self.scratch,
                &encode_limits,
            ),
        };
        let enc = match encoded {
            Ok(e) => e,
            Err(EncodeStop::TooLarge { literals, bound }) => {
                search.out_of_memory();
                let mut o = search.finish();
                o.note = Some(format!(
                    "the {} encoding of this {n}x{n} puzzle has {literals} literals, over the \
                     bound of {bound} (option max_literals)",
                    cnf.encoding.as_str(),
                    n = puzzle.n()
                ));
                return o;
            }
            Err(EncodeStop::Interrupted(why)) => return interrupted_build(search, why, limits),
        };
        search
            .stats
            .resolved
            .push(("amo", enc.info.options.amo.explicit().to_string()));
        search.stats.vars = Some(enc.num_vars as u64);
        search.stats.clauses = Some(enc.size.clauses);
        search.stats.literals = Some(enc.size.literals);
        backend.reserve_vars(enc.num_vars);
        search.built();
        if enc.trivially_unsat {
            // An empty at-least-one clause after `optimized`'s elimination: no solver call.
            self.scratch.recycle_info(enc.info);
            solver_counters(&mut search, backend.stats());
            search.stats.bump("sat_calls", calls);
            let mut o = search.finish();
            o.status = Outcome::status_for(o.count, None, limits);
            return o;
        }
        if !search.check_clock() {
            return search.finish();
        }
        let mut done = false;
        for grid in found {
            match enc.info.blocking_clause(grid) {
                Some(c) if c.is_empty() => done = true, // it was the only grid
                Some(c) => backend.add_clause(&c),
                None => error = Some("a grid found before has a pair without a variable".into()),
            }
        }
        let budget = Deadline {
            at: budget
                .at
                .zip(teardown)
                .map(|(d, t)| t.deadline(d, enc.size.clauses)),
            ..budget
        };
        let mut uncapped = false;
        while !done && error.is_none() {
            let spent = backend.stats().decisions;
            match cap_next_call(&mut *backend, limits.node_limit, spent, calls) {
                Some(u) => uncapped |= u,
                None => {
                    stop = Some(Stop::Nodes);
                    break;
                }
            }
            calls += 1;
            match backend.solve(&enc.assumptions, &budget) {
                Err(e) => {
                    error = Some(e.to_string());
                    break;
                }
                Ok(SatAnswer::Unsat) => break,
                Ok(SatAnswer::Interrupted(why)) => {
                    stop = Some(stop_of(why));
                    break;
                }
                Ok(SatAnswer::Sat(model)) => {
                    let grid = match decode(&enc.info, &model) {
                        Ok(g) => g,
                        Err(e) => {
                            error = Some(format!("model does not decode: {e}"));
                            break;
                        }
                    };
                    if !search.solution(&grid) {
                        stop = Some(Stop::SolutionCap);
                        break;
                    }
                    match enc.info.blocking_clause(&grid) {
                        Some(c) if c.is_empty() => break, // every cell given: nothing else
                        Some(c) => backend.add_clause(&c),
                        None => {
                            error = Some("decoded grid has a pair without a variable".into());
                            break;
                        }
                    }
                }
            }
        }
        backend.settle();
        solver_counters(&mut search, backend.stats());
        search.stats.bump("sat_calls", calls);
        self.scratch.recycle_info(enc.info);
        let mut o = search.finish();
        o.status = Outcome::status_for(o.count, stop, limits);
        if let Some(e) = error {
            o.status = Status::Error;
            o.note = Some(format!("{}: {e}", backend.name()));
        } else if uncapped {
            o.note = Some(uncapped_note(&backend.name(), o.stats.decisions.is_some()));
        } else {
            o.note = early_stop_note(o.status, o.wall, limits.time_limit);
        }
        note_external_unsat(&mut o, &backend.name(), stop.is_none(), calls);
        o
    }
}

/// Adds [`UNCHECKED_EXTERNAL_UNSAT`] to the row's note when an external `backend` answered
/// its last call UNSATISFIABLE: it was called, and nothing stopped the search (`finished`),
/// so the verdict (unsat, unique, or the complete count) rests on that program's word.
fn note_external_unsat(o: &mut Outcome, backend: &str, finished: bool, calls: u64) {
    if o.status == Status::Error || !finished || calls == 0 || !backend.starts_with("ext:") {
        return;
    }
    let unchecked = UNCHECKED_EXTERNAL_UNSAT.to_string();
    o.note = Some(match o.note.take() {
        Some(n) => format!("{n}; {unchecked}"),
        None => unchecked,
    });
}

/// The note of a verdict that an external solver's UNSATISFIABLE ends (`unsat`, `unique`, or
/// a complete count): models are decoded and checked against the constraints, but no proof
/// of UNSATISFIABLE is asked for, so the claim is the program's.
const UNCHECKED_EXTERNAL_UNSAT: &str = "unchecked: the external solver's \
     UNSATISFIABLE is taken as it says (certify=true checks a proof, with the embedded prover)";

/// The decision cap of the next solve call under a node limit of `limit`: the decisions left
/// where the backend counts them (`spent` so far; `None` when none are left). Where it does
/// not (embedded CaDiCaL caps each call but counts nothing), the cap shrinks from call to
/// call: the puzzle's first call (`call` 0) gets `limit`, call k then `limit / (k (k + 1))`
/// (`limit`, `limit/2`, `limit/6`, `limit/12`, ...), and none is left once that is 0. The
/// calls of one puzzle then make fewer than 2 * `limit` decisions in all (the later caps sum
/// to at most `limit`), however many solutions are asked for; about the square root of
/// `limit` calls fit, so counting to 40 under a limit of 20M decisions still has 12,195
/// for its 41st call.
pub(crate) fn decisions_left(limit: u64, spent: Option<u64>, call: u64) -> Option<u64> {
    match spent {
        Some(d) => limit.checked_sub(d),
        None if call == 0 => Some(limit),
        None => Some(
            call.checked_add(1)
                .and_then(|next| call.checked_mul(next))
                .map_or(0, |div| limit / div),
        ),
    }
    .filter(|&left| left > 0)
}

/// Gives `backend` the decision cap of its next solve call under `node_limit` (`spent`: this
/// puzzle's decisions so far, where the backend counts them; `call`: this puzzle's solve
/// calls so far; [`decisions_left`]), or no cap without a limit, which also lifts a reused
/// solver's earlier one. `None` when no decisions are left (the search ends at the node
/// limit); otherwise whether a limit was given to a backend that cannot apply it
/// ([`uncapped_note`]).
pub(crate) fn cap_next_call(
    backend: &mut dyn crate::cnf::SatBackend,
    node_limit: Option<u64>,
    spent: Option<u64>,
    call: u64,
) -> Option<bool> {
    let Some(limit) = node_limit else {
        backend.set_decision_limit(None);
        return Some(false);
    };
    match decisions_left(limit, spent, call) {
        Some(cap) => Some(!backend.set_decision_limit(Some(cap))),
        // A backend that neither counts nor caps decisions is not stopped by the shrinking
        // caps meant for one that caps them: the limit does not apply to it at all.
        None if spent.is_none() && !backend.set_decision_limit(Some(1)) => Some(true),
        None => None,
    }
}

/// The row's note when a node limit was given to a backend that takes no decision limit:
/// checked between solve calls where it prints its decisions (external solvers), not applied
/// at all where it neither counts nor caps them (varisat).
pub(crate) fn uncapped_note(backend: &str, counted: bool) -> String {
    if counted {
        format!("node limit read between solve calls only: {backend} takes no decision limit")
    } else {
        format!("node limit not applied: {backend} neither counts nor caps its decisions")
    }
}

#[cfg(test)]
mod tests;
