//! Incremental mode of the `sat` engine (`incremental=true`): one solver per geometry and
//! encoding, reused across the puzzles of a set, as tdoku's MiniSat harness does it
//! (T. Dillon, tdoku, `other/minisat`; the activation-literal technique is Eén & Sörensson,
//! "Temporary Boolean constraints", in "An Extensible SAT-solver", SAT 2003).
//!
//! - The formula of the *empty* grid is encoded once per geometry (the encodings whose clauses
//!   do not depend on the givens: minimal, efficient, extended) and loaded into one backend.
//! - A puzzle's givens are assumptions, plus a fresh activation literal `a` for the puzzle.
//! - Each solution found is blocked by the clause `-a or (not this grid)`, so the block holds
//!   only while `a` is assumed; after the puzzle the unit `-a` retires all its blocking clauses
//!   for good (the solver may then delete them as satisfied).
//! - The solver is rebuilt (formula reloaded, learned clauses dropped) by the rule of option
//!   `rebuild`: `auto` (default) rebuilds once the search work since the last rebuild exceeds
//!   [`AUTO_WORK_PER_REBUILD`] times the cost of a rebuild (encoding + loading, measured);
//!   `N` rebuilds every N puzzles (tdoku: 20); `never` keeps the solver. The auto rule is a
//!   rent-or-buy bound: learned clauses help the next easy puzzles but slow propagation as they
//!   pile up, most after hard puzzles, and a rebuild costs about one encoding; spending a
//!   rebuild's cost per that much search work bounds the loss either way (measured in
//!   `experiments/sat-incremental.toml`). Work is CPU time, so the rebuild points (not the
//!   answers) depend on the machine's speed.
//! - Propagation first: before the solver, the `reduced` encoding's propagation runs on the
//!   puzzle (naked and hidden singles, then locked candidates under `locked` and
//!   failed-literal probing under `probe`, each auto: up to 9x9, as the fresh default). A
//!   puzzle it fills is answered, a clash is `unsat`, both without a solver call; otherwise
//!   its conclusions are assumptions (`assume`: the decided cells; with `all` also every
//!   removed candidate negated, with `refuted` those that no digit placed in the cell's houses
//!   explains), so the reused solver starts from the state the fresh solver's formula
//!   encodes, with its learned clauses kept.
//! - After an interrupt (time limit, cancel) the solver is dropped: varisat cannot be used
//!   after one, and the next puzzle starts fresh.

use super::{
    answered_by_propagation, cap_next_call, solver_counters, stop_of, DeductionOptions, Limits,
    Search, Stop,
};
use crate::cnf::{
    decode, encode_into, make_backend, propagate_singles, BackendError, BackendStats, CnfInfo,
    CnfOptions, Deadline, EncodeLimits, EncodeStop, GivensMode, Interrupt, Propagated, SatAnswer,
    SatBackend, Scratch, SizeStats, Teardown,
};
use crate::engines::OptionError;
use crate::puzzle::{Geometry, Puzzle};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The `auto` rule's ratio: search work allowed between rebuilds, in units of one rebuild.
pub const AUTO_WORK_PER_REBUILD: u32 = 8;

/// When the reused solver is rebuilt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rebuild {
    /// Once the search time since the last rebuild passes `AUTO_WORK_PER_REBUILD` x rebuild.
    Auto,
    /// Every N puzzles.
    Every(u64),
    Never,
}

impl std::str::FromStr for Rebuild {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<Self, OptionError> {
        match s {
            "auto" => Ok(Rebuild::Auto),
            "never" => Ok(Rebuild::Never),
            _ => match s.parse::<u64>() {
                Ok(n) if n > 0 => Ok(Rebuild::Every(n)),
                _ => Err(OptionError::BadValue {
                    context: "",
                    key: "rebuild",
                    expected: "auto, never or a number of puzzles >= 1",
                    value: s.to_string(),
                }),
            },
        }
    }
}

/// The reused solver and what it was built for.
pub struct Reused {
    geometry: Arc<Geometry>,
    info: CnfInfo,
    size: SizeStats,
    backend: Box<dyn SatBackend>,
    /// Whether the backend was told to expect limits (varisat needs it before any clause).
    limits_expected: bool,
    next_var: u32,
    puzzles: u64,
    /// Time of the last rebuild, and search time since then.
    rebuild_cost: Duration,
    work: Duration,
}

/// What one puzzle's search ended with.
#[derive(Default)]
pub struct Ended {
    pub stop: Option<Stop>,
    pub error: Option<String>,
    pub calls: u64,
    /// The reused solver reached the fallback's conflict limit: the caller finishes the
    /// puzzle with a fresh solver, blocking the grids in `found` (already counted).
    pub gave_up: bool,
    pub found: Vec<Vec<u16>>,
    /// A node limit was given to a backend that takes no decision limit
    /// ([`super::uncapped_note`]).
    pub uncapped: bool,
}

/// The (cell, digit) pairs of the open cells that propagation removed and that `assume` makes
/// negative assumptions: every one (`All`), or those of digits placed in none of the cell's
/// houses (`Refuted`: unit propagation on the placements finds the others).
fn removed_candidates(
    puzzle: &Puzzle,
    p: &Propagated<'_>,
    assume: Assume,
    out: &mut Vec<(u32, u16)>,
) {
    let g = puzzle.geometry();
    for (c, &f) in p.fixed.iter().enumerate() {
        if f != 0 {
            continue;
        }
        for d in 1..=g.n() as u16 {
            if p.has(c, d) {
                continue;
            }
            if assume == Assume::Refuted
                && g.houses_of(c).iter().any(|&h| p.placed_in(h as usize, d))
            {
                continue;
            }
            out.push((c as u32, d));
        }
    }
}

/// The activation literal's blocking clause of `grid`: `-a`, then the (cell, digit) literals
/// of the cells not decided before the search (the others are the same in every solution).
fn guarded_block(info: &CnfInfo, decided: &[u16], grid: &[u16], a: i32) -> Option<Vec<i32>> {
    let mut c = vec![-a];
    for (cell, (&g, &d)) in decided.iter().zip(grid).enumerate() {
        if g == 0 {
            c.push(-(info.map.var(cell, d)? as i32));
        }
    }
    Some(c)
}

impl Reused {
    /// Encodes the empty grid straight into a new backend, under `budget` (with a deadline,
    /// early enough to free the backend in time, see [`Teardown`]). `Ok(Err(why))`: the
    /// budget ran out first.
    fn build(
        puzzle: &Puzzle,
        options: &CnfOptions,
        backend: &str,
        limits_expected: bool,
        fallback: Option<u64>,
        scratch: &mut Scratch,
        budget: &Deadline,
    ) -> Result<Result<Self, Interrupt>, BackendError> {
        let t = Instant::now();
        let empty = Puzzle::empty(puzzle.shared_geometry().clone());
        let opts = CnfOptions {
            givens: GivensMode::Assumptions,
            ..*options
        };
        let mut b = make_backend(backend)?;
        if limits_expected {
            b.expect_limits();
        }
        b.set_conflict_limit(fallback);
        let limits = EncodeLimits {
            max_literals: None,
            budget: budget.clone(),
            teardown: budget.at.map(|_| Teardown {
                ns_per_clause: b.teardown_ns_per_clause(),
                watch: crate::timing::Stopwatch::start(),
            }),
        };
        let enc = match encode_into(&empty, &opts, &mut *b, scratch, &limits) {
            Ok(e) => e,
            Err(EncodeStop::Interrupted(why)) => return Ok(Err(why)),
            Err(EncodeStop::TooLarge { .. }) => unreachable!("no size bound"),
        };
        b.reserve_vars(enc.num_vars);
        Ok(Ok(Reused {
            geometry: puzzle.shared_geometry().clone(),
            next_var: enc.num_vars + 1,
            info: enc.info,
            size: enc.size,
            backend: b,
            limits_expected,
            puzzles: 0,
            rebuild_cost: t.elapsed(),
            work: Duration::ZERO,
        }))
    }

    /// Whether this solver can take `puzzle` under `rule` (else it is rebuilt).
    fn fits(&self, puzzle: &Puzzle, rule: Rebuild, limits_expected: bool) -> bool {
        (Arc::ptr_eq(&self.geometry, puzzle.shared_geometry())
            || *self.geometry == *puzzle.geometry())
            && (self.limits_expected || !limits_expected)
            && match rule {
                Rebuild::Never => true,
                Rebuild::Every(n) => self.puzzles < n,
                Rebuild::Auto => self.work < self.rebuild_cost * AUTO_WORK_PER_REBUILD,
            }
    }
}

/// Which conclusions of the propagation before the solver become assumptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assume {
    /// The decided cells' digits only (givens, singles, probing's placements).
    Placed,
    /// Those, and the negation of every candidate removed from an open cell.
    All,
    /// Those, and the negation of the removed candidates of open cells that no digit placed
    /// in one of the cell's houses explains (what probing refuted; the rest unit propagation
    /// finds from the placements).
    Refuted,
}

impl std::str::FromStr for Assume {
    type Err = OptionError;
    fn from_str(s: &str) -> Result<Self, OptionError> {
        match s {
            "placed" => Ok(Assume::Placed),
            "all" => Ok(Assume::All),
            "refuted" => Ok(Assume::Refuted),
            _ => Err(OptionError::BadValue {
                context: "",
                key: "assume",
                expected: "placed, all or refuted",
                value: s.to_string(),
            }),
        }
    }
}

/// How the reused solver is used: the rebuild rule, the conflict limit of each call after
/// which the puzzle goes to a fresh solver (`None`: never), whether failed-literal probing
/// and locked candidates run after singles, and which conclusions become assumptions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mode {
    pub rebuild: Rebuild,
    pub fallback: Option<u64>,
    /// The propagation before the reused solver (and by the fallback's fresh solver).
    pub deductions: DeductionOptions,
    pub assume: Assume,
}

/// Solves `puzzle`: naked and hidden singles, locked candidates and probing first (a puzzle
/// they decide needs no solver, answered as by the fresh default, [`answered_by_propagation`];
/// the cells they decide become assumptions), then the reused solver in `slot` (built or rebuilt first when
/// needed), each call under the fallback's conflict limit. Counters go into `search.stats` as
/// this puzzle's share; `idle`: the backend's counters before any call.
#[allow(clippy::too_many_arguments)]
pub fn solve(
    slot: &mut Option<Reused>,
    puzzle: &Puzzle,
    options: &CnfOptions,
    backend: &str,
    mode: Mode,
    limits: &Limits,
    search: &mut Search,
    start: Instant,
    scratch: &mut Scratch,
    idle: BackendStats,
) -> Ended {
    let budget = limits.deadline_from(start);
    let limits_expected = budget.is_set();
    let mut removed: Vec<(u32, u16)> = Vec::new();
    let decided =
        match propagate_singles(puzzle, scratch, &budget, mode.deductions.for_puzzle(puzzle)) {
            Err(why) => {
                search.built();
                return Ended {
                    stop: Some(stop_of(why)),
                    ..Ended::default()
                };
            }
            Ok(p) if answered_by_propagation(puzzle, search, p.as_ref(), &[], idle) => {
                return Ended {
                    stop: search.stop_reason(), // the solution cap, as a solver's answer would
                    ..Ended::default()
                };
            }
            Ok(None) => unreachable!("a clash is answered by propagation"),
            Ok(Some(p)) => {
                if mode.assume != Assume::Placed {
                    removed_candidates(puzzle, &p, mode.assume, &mut removed);
                }
                p.fixed.to_vec()
            }
        };
    if !slot
        .as_ref()
        .is_some_and(|r| r.fits(puzzle, mode.rebuild, limits_expected))
    {
        *slot = None; // free the old solver before building the new one
        match Reused::build(
            puzzle,
            options,
            backend,
            limits_expected,
            mode.fallback,
            scratch,
            &budget,
        ) {
            Ok(Ok(r)) => *slot = Some(r),
            Ok(Err(why)) => {
                search.built();
                return Ended {
                    stop: Some(stop_of(why)),
                    ..Ended::default()
                };
            }
            Err(e) => {
                return Ended {
                    error: Some(e.to_string()),
                    ..Ended::default()
                }
            }
        }
    }
    let r = slot.as_mut().expect("built above");
    search
        .stats
        .resolved
        .push(("amo", r.info.options.amo.explicit().to_string()));
    search.stats.vars = Some(r.size.vars);
    search.stats.clauses = Some(r.size.clauses);
    search.stats.literals = Some(r.size.literals);
    search.built();
    let searching = Instant::now();
    let before = r.backend.stats();
    let a = r.next_var as i32;
    r.next_var += 1;
    r.puzzles += 1;
    r.backend.reserve_vars(a as u32);
    let mut assumptions = Vec::with_capacity(decided.len() + 1);
    for (cell, &d) in decided.iter().enumerate() {
        if d != 0 {
            match r.info.map.var(cell, d) {
                Some(v) => assumptions.push(v as i32),
                None => {
                    return Ended {
                        error: Some(format!("given {d} of cell {cell} has no variable")),
                        ..Ended::default()
                    }
                }
            }
        }
    }
    for &(cell, d) in &removed {
        match r.info.map.var(cell as usize, d) {
            Some(v) => assumptions.push(-(v as i32)),
            None => {
                return Ended {
                    error: Some(format!("candidate {d} of cell {cell} has no variable")),
                    ..Ended::default()
                }
            }
        }
    }
    assumptions.push(a);
    // The search ends early enough to free the solver in time if the deadline is reached
    // (it is dropped after an interrupt).
    let budget = Deadline {
        at: budget.at.map(|d| {
            Teardown {
                ns_per_clause: r.backend.teardown_ns_per_clause(),
                watch: crate::timing::Stopwatch::start(),
            }
            .deadline(d, r.size.clauses)
        }),
        ..budget
    };
    let mut ended = Ended::default();
    loop {
        // This puzzle's decisions left as the call's cap; none without a node limit, so that
        // no earlier puzzle's cap stays on the reused solver.
        let spent = (r.backend.stats().decisions).map(|d| d - before.decisions.unwrap_or(0));
        match cap_next_call(&mut *r.backend, limits.node_limit, spent, ended.calls) {
            Some(u) => ended.uncapped |= u,
            None => {
                ended.stop = Some(Stop::Nodes);
                break;
            }
        }
        ended.calls += 1;
        match r.backend.solve(&assumptions, &budget) {
            Err(e) => {
                ended.error = Some(e.to_string());
                break;
            }
            Ok(SatAnswer::Unsat) => break,
            Ok(SatAnswer::Interrupted(Interrupt::ConflictLimit)) if mode.fallback.is_some() => {
                ended.gave_up = true;
                break;
            }
            Ok(SatAnswer::Interrupted(why)) => {
                ended.stop = Some(stop_of(why));
                break;
            }
            Ok(SatAnswer::Sat(model)) => {
                let grid = match decode(&r.info, &model) {
                    Ok(g) => g,
                    Err(e) => {
                        ended.error = Some(format!("model does not decode: {e}"));
                        break;
                    }
                };
                if !search.solution(&grid) {
                    ended.stop = Some(Stop::SolutionCap);
                    break;
                }
                let block = guarded_block(&r.info, &decided, &grid, a);
                ended.found.push(grid);
                match block {
                    Some(c) if c.len() == 1 => break, // every cell decided: nothing else
                    Some(c) => r.backend.add_clause(&c),
                    None => {
                        ended.error = Some("decoded grid has a pair without a variable".into());
                        break;
                    }
                }
            }
        }
    }
    r.backend.settle();
    let after = r.backend.stats();
    let diff = |x: Option<u64>, y: Option<u64>| Some(x? - y.unwrap_or(0));
    solver_counters(
        search,
        BackendStats {
            decisions: diff(after.decisions, before.decisions),
            conflicts: diff(after.conflicts, before.conflicts),
            propagations: diff(after.propagations, before.propagations),
            learned: diff(after.learned, before.learned),
            child_cpu_us: diff(after.child_cpu_us, before.child_cpu_us),
            thread_cpu_us: diff(after.thread_cpu_us, before.thread_cpu_us),
            thread_load_cpu_us: diff(after.thread_load_cpu_us, before.thread_load_cpu_us),
            // not a counter: the member that won the reused solver's race, for every puzzle
            winner: after.winner,
            cubes: diff(after.cubes, before.cubes),
        },
    );
    let interrupted = !matches!(ended.stop, None | Some(Stop::SolutionCap)) || ended.gave_up;
    if ended.error.is_some() || (interrupted && !r.backend.survives_interrupts()) {
        *slot = None; // varisat without a conflict limit cannot go on after an interrupt; start clean
    } else {
        r.backend.add_clause(&[-a]); // retire this puzzle's blocking clauses
        r.work += searching.elapsed();
    }
    ended
}
