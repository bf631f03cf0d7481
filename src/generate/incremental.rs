//! Uniqueness checks of the generator by singles first, then incremental SAT
//! (`generate --engine sat-incremental[:backend=NAME,block=K]`).
//!
//! # The check
//!
//! The givens `G` have one solution `S`; the removal of the given of cell `c` (digit `v`) is
//! tested. Any other solution of `G \ {c}` has a digit other than `v` at `c`, for with `v`
//! it would solve `G`, whose only solution is `S`. So `G \ {c}` is unique exactly when
//! `G \ {c}` plus "`c` is not `v`" has **no** solution: one extra unit, far more
//! constraining than a clause "some cell differs from `S`" (the classic blocking clause of
//! Lynce and Ouaknine's solution counting).
//!
//! 1. **Singles first** ([`super::singles`]): naked and hidden singles from `G \ {c}` with
//!    `v` removed from `c`'s candidates. A contradiction proves uniqueness; a filled grid is a
//!    second solution. Dense puzzles (the first half of every removal pass, and all of it for
//!    clue targets of 60 % and more) never reach a solver.
//! 2. **Blocks of removals by singles** (clue targets with the random order only): the next
//!    `k` cells of the order are emptied together; if singles then fill the grid, `G \ B` is
//!    unique, and so is every set between it and `G`, so the `k` removals the one-at-a-time
//!    pass would make are all accepted, with one propagation. `k` doubles after a success and
//!    halves after a failure, down to single checks. The output is the one-at-a-time pass's.
//! 3. **Digit-pair swaps** (`PairSwaps`): if `c` is the only given on one of the closed
//!    sets where two digits of `S` can be exchanged, the exchanged grid is a second solution.
//!    This answers at once most of the checks a solver finds hardest in sparse puzzles.
//! 4. **Incremental SAT** (one solver per *block* of the removal order, reused for every check
//!    in it, learnt clauses kept): when singles leave cells open, a solver is built for the
//!    cells `U` = `c` and the next `K - 1` unvisited cells of the order (default `K = 2N`).
//!    Its formula is the residual of singles from `G \ U`: variables only for the candidates
//!    that survive there, a superset of the candidates of every given set the block will see
//!    (fewer givens never remove a solution). Each check of a cell of `U` then solves under
//!    the assumptions "`u` is `S(u)`" for the cells of `U` still given, plus "`c` is not `v`";
//!    a removal refused for good becomes a unit clause. A removal outside `U` (or a check of a
//!    cell outside it) retires the solver; the next SAT check builds one for the next block.
//!    **Solution-guided phase**: the solver's first decision on every cell's variable of
//!    its digit in `S` sets it true ([`SatBackend::prefer`]; batsat's user polarity, ignored by
//!    the other backends), so the search for a second solution starts from `S` and repairs
//!    around `c` (the phase idea of solution-guided search, Beck 2007, "Solution-guided
//!    multi-point constructive search for job shop scheduling", JAIR 29, and of phase
//!    saving, Pipatsrisawat and Darwiche 2007). Measured at 25x25 `--minimal` (conflicts are
//!    deterministic, so load does not matter): 76,639 -> 54,513 conflicts over the pass of
//!    seed 1, 395,028 -> 186,931 for the first 180 checks of seed 0 (docs/generate.md); the
//!    answers do not change, only the witnesses and the time.
//!    Encoding: a cell takes one of its candidates and a house one cell per digit, each as an
//!    at-least-one clause plus at-most-one (pairwise up to 16 literals, sequential counter of
//!    Sinz 2005 above), which is the *extended* encoding of Lynce and Ouaknine 2006 over the
//!    residual (its unit propagation is again naked and hidden singles).
//!
//! # What a second solution tells
//!
//! A SAT answer `S'` to the check of `c` agrees with `S` on every given but `c`; the cells
//! where `S'` and `S` differ form an *unavoidable set* (any unique puzzle of `S` needs a given
//! in it), hit only by `c` in `G`. The removal of `c` is refused and `c` stays for the rest of
//! the pass, so that set stays hit by `c` and can never refuse a later removal: kept as a
//! list it would never fire, so witnesses of single checks are not kept for pruning. (A
//! witness of a *block* test would be useful, but blocks are only tested by singles, which
//! give none.) With [`SatChecker::keep_second_solutions`] the last one is kept as a
//! certificate instead ([`SatChecker::take_second_solution`]): the grid singles filled, the
//! solution with a free digit-pair set exchanged, or the solver's model, whichever answered.
//!
//! A check stopped by the node limit (conflicts of the solver, counted per check: a
//! deterministic limit) keeps the given, as for the search engines.

use super::singles::{Closure, Singles, CLOCK_EVERY};
use crate::cnf::amo::{at_most_one, Amo, ClauseOut};
use crate::cnf::{make_backend, BackendError, Model, SatAnswer, SatBackend};
use crate::engines::{EngineError, EngineSpec, OptionError};
use crate::puzzle::Geometry;
use crate::search::Deadline;
use std::sync::Arc;

/// Name of the generator engine (not an `engines` registry entry: it checks removals, it
/// does not solve puzzles).
pub const NAME: &str = "sat-incremental";
/// Backend used when none is named.
pub const DEFAULT_BACKEND: &str = "batsat";
/// Largest at-most-one written pairwise; longer ones use the sequential counter.
const PAIRWISE_MAX: usize = 16;

/// Answer of one check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Unique,
    Multiple,
    Undecided,
}

/// Counters of the checks (over the generator's life).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    /// Checks answered by singles alone.
    pub by_singles: u64,
    /// Block tests by singles, and the removals they accepted.
    pub blocks: u64,
    pub block_removals: u64,
    /// Checks answered by a digit-pair swap free of givens.
    pub by_swaps: u64,
    /// Solver calls, and solvers built.
    pub sat_calls: u64,
    pub solvers: u64,
}

/// The incremental checker of one geometry.
pub struct SatChecker {
    backend: String,
    block: usize,
    node_limit: u64,
    /// The geometry whose houses `singles` and the solvers use: every pass gives its own
    /// ([`SatChecker::start`]), as a jigsaw generator draws a new layout per puzzle.
    geometry: Arc<Geometry>,
    singles: Singles,
    solver: Option<BlockSolver>,
    /// The digit-pair sets of the pass's solution (built at its first check).
    swaps: Option<PairSwaps>,
    pub stats: CheckStats,
    /// Deadline of the generator's time limit, passed to every solver call.
    pub deadline: Deadline,
    /// Whether a `multiple` answer keeps its second solution
    /// ([`SatChecker::take_second_solution`]).
    pub keep_second_solutions: bool,
    /// The second solution of the last `multiple` answer, when kept.
    second_solution: Option<Vec<u16>>,
}

/// A solver for the checks of one block of cells.
struct BlockSolver {
    backend: Box<dyn SatBackend>,
    in_block: Vec<bool>,
    /// Per cell: first variable and candidate digits in the base residual (empty if placed).
    var_start: Vec<u32>,
    digits: Vec<Vec<u16>>,
    /// Cells given for good (refused removals), asserted as units.
    fixed: Vec<bool>,
    /// The digits singles placed in the base residual (0 for a cell with variables): the same
    /// in every solution of every check of the block.
    placed: Vec<u16>,
}

impl BlockSolver {
    fn var(&self, cell: usize, digit: u16) -> Option<i32> {
        let i = self.digits[cell].iter().position(|&d| d == digit)?;
        Some((self.var_start[cell] + i as u32) as i32)
    }

    /// The grid of a model: the placed digits, and for every other cell its true variable.
    fn grid(&self, model: &Model) -> Result<Vec<u16>, CheckError> {
        (0..self.placed.len())
            .map(|c| {
                if self.digits[c].is_empty() {
                    return Ok(self.placed[c]);
                }
                let start = self.var_start[c];
                (0..self.digits[c].len())
                    .find(|&i| model.is_true((start + i as u32) as i32))
                    .map(|i| self.digits[c][i])
                    .ok_or(CheckError::NoDigit { cell: c })
            })
            .collect()
    }
}

/// Why a uniqueness check could not answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    #[error(transparent)]
    Backend(#[from] BackendError),
    #[error("the solver's model gives cell {cell} no digit")]
    NoDigit { cell: usize },
    #[error("the solution's digit is not a candidate of its cell")]
    NotACandidate,
    #[error("the givens of a valid grid gave a contradiction")]
    Contradiction,
}

/// Adds clauses to a backend, numbering auxiliary variables after the last one used.
struct Out<'a> {
    backend: &'a mut dyn SatBackend,
    next: i32,
}

impl ClauseOut for Out<'_> {
    fn new_var(&mut self) -> i32 {
        self.next += 1;
        self.next
    }
    fn clause(&mut self, lits: &[i32]) {
        self.backend.add_clause(lits);
    }
}

impl Out<'_> {
    fn exactly_one(&mut self, lits: &[i32]) {
        self.backend.add_clause(lits);
        let amo = if lits.len() <= PAIRWISE_MAX {
            Amo::Pairwise
        } else {
            Amo::Sequential
        };
        at_most_one(amo, lits, self);
    }
}

impl SatChecker {
    /// The checker `spec` names (`sat-incremental[:backend=NAME,block=K]`) for `g`.
    pub fn new(g: &Arc<Geometry>, spec: &EngineSpec, node_limit: u64) -> Result<Self, EngineError> {
        spec.options.allow_only(NAME, &["backend", "block"])?;
        let backend = spec.options.get("backend").unwrap_or(DEFAULT_BACKEND);
        make_backend(backend)?;
        let block = match spec.options.get("block") {
            None => 2 * g.n(),
            Some(k) => match k.parse::<usize>() {
                Ok(k) if k >= 1 => k,
                _ => {
                    return Err(OptionError::Expected {
                        key: "block",
                        value: k.to_string(),
                        expected: "an integer >= 1",
                    }
                    .into())
                }
            },
        };
        Ok(SatChecker {
            backend: backend.to_string(),
            block,
            node_limit,
            geometry: Arc::clone(g),
            singles: Singles::new(g),
            solver: None,
            swaps: None,
            stats: CheckStats::default(),
            deadline: Deadline::default(),
            keep_second_solutions: false,
            second_solution: None,
        })
    }

    /// A new removal pass (a new solution of `g`): the solver of the last one goes, and the
    /// singles state is rebuilt if `g` is not the last pass's geometry (a new jigsaw layout:
    /// checked against the old regions, removals were accepted on the strength of houses the
    /// puzzle does not have, and puzzles with several solutions came out).
    pub fn start(&mut self, g: &Arc<Geometry>) {
        if !Arc::ptr_eq(&self.geometry, g) {
            self.singles = Singles::new(g);
        }
        self.geometry = Arc::clone(g);
        self.solver = None;
        self.swaps = None;
    }

    /// Whether the givens (with the cells of a block emptied) are solved by singles alone, in
    /// which case every removal of the block is accepted.
    pub fn block_unique(&mut self, givens: &[u16], removed: usize) -> bool {
        self.stats.blocks += 1;
        self.singles.deadline = self.deadline.clone();
        let unique = self.singles.run(givens, None) == Closure::Filled;
        if unique {
            self.stats.block_removals += removed as u64;
        }
        unique
    }

    /// The second solution of the last check, if it answered `multiple` with
    /// [`SatChecker::keep_second_solutions`] set: a solution of its givens other than the
    /// pass's solution (singles' filled grid, the pass's solution with a digit-pair set
    /// exchanged, or the solver's model).
    pub fn take_second_solution(&mut self) -> Option<Vec<u16>> {
        self.second_solution.take()
    }

    /// Whether `givens` (the current givens with `cell` emptied; its solution's digit is
    /// `solution[cell]`) has only the solution `solution`. `upcoming` lists the cells the
    /// pass will visit next, in order (for the block of a new solver).
    pub fn check(
        &mut self,
        givens: &[u16],
        solution: &[u16],
        cell: usize,
        upcoming: &mut dyn FnMut(usize) -> Vec<usize>,
    ) -> Result<Answer, CheckError> {
        let v = solution[cell];
        self.second_solution = None;
        let keep = self.keep_second_solutions;
        self.singles.deadline = self.deadline.clone();
        match self.singles.run(givens, Some((cell, v))) {
            // The generator reads the clock after the check.
            Closure::TimeLimit => return Ok(Answer::Undecided),
            Closure::Contradiction => {
                self.stats.by_singles += 1;
                return Ok(Answer::Unique);
            }
            Closure::Filled => {
                self.stats.by_singles += 1;
                if keep {
                    self.second_solution = Some(self.singles.values().to_vec());
                }
                return Ok(Answer::Multiple);
            }
            Closure::Open => {}
        }
        if self.swaps.is_none() {
            self.swaps = Some(PairSwaps::new(&self.singles, solution));
        }
        let swaps = self.swaps.as_mut().expect("built above");
        if let Some(other) = swaps.free_swap(&self.singles, givens, solution, cell) {
            self.stats.by_swaps += 1;
            if keep {
                self.second_solution = Some(swaps.swapped(solution, v, other));
            }
            return Ok(Answer::Multiple);
        }
        if !self.solver.as_ref().is_some_and(|s| s.in_block[cell]) {
            let mut block = vec![cell];
            block.extend(
                upcoming(self.block.saturating_sub(1))
                    .into_iter()
                    .filter(|&u| u != cell && givens[u] != 0),
            );
            match self.build(givens, solution, &block)? {
                Some(solver) => self.solver = Some(solver),
                None => return Ok(Answer::Undecided),
            }
        }
        let solver = self.solver.as_mut().expect("built above");
        let mut assumptions = Vec::new();
        for (u, &inside) in solver.in_block.iter().enumerate() {
            if inside && givens[u] != 0 && !solver.fixed[u] {
                if let Some(x) = solver.var(u, solution[u]) {
                    assumptions.push(x);
                }
            }
        }
        let x = solver.var(cell, v).ok_or(CheckError::NotACandidate)?;
        assumptions.push(-x);
        self.stats.sat_calls += 1;
        match solver.backend.solve(&assumptions, &self.deadline)? {
            SatAnswer::Unsat => Ok(Answer::Unique),
            SatAnswer::Sat(model) => {
                if keep {
                    self.second_solution = Some(solver.grid(&model)?);
                }
                Ok(Answer::Multiple)
            }
            SatAnswer::Interrupted(_) => Ok(Answer::Undecided),
        }
    }

    /// The outcome of the check of `cell`: `removed`, or kept for good.
    pub fn settle(&mut self, cell: usize, digit: u16, removed: bool) {
        let Some(solver) = &mut self.solver else {
            return;
        };
        if !solver.in_block[cell] {
            if removed {
                // A given built into the base residual left: the residual no longer covers
                // the solutions of the next checks.
                self.solver = None;
            }
            return;
        }
        if !removed && !solver.fixed[cell] {
            if let Some(x) = solver.var(cell, digit) {
                solver.backend.add_clause(&[x]);
            }
            solver.fixed[cell] = true;
        }
    }

    /// A solver whose formula is the residual of singles from `givens` without `block`, its
    /// phase set to `solution`, or `None` if the deadline passed first (the clock is read every
    /// [`CLOCK_EVERY`] cells and every house: at side 400 the residual can have millions of
    /// clauses).
    fn build(
        &mut self,
        givens: &[u16],
        solution: &[u16],
        block: &[usize],
    ) -> Result<Option<BlockSolver>, CheckError> {
        self.stats.solvers += 1;
        let cells = givens.len();
        let mut base = givens.to_vec();
        let mut in_block = vec![false; cells];
        for &u in block {
            base[u] = 0;
            in_block[u] = true;
        }
        let deadline = &self.deadline;
        let late = || deadline.expired().is_some();
        let s = &mut self.singles;
        match s.run(&base, None) {
            Closure::Contradiction => return Err(CheckError::Contradiction),
            Closure::TimeLimit => return Ok(None),
            Closure::Filled | Closure::Open => {}
        }
        let mut var_start = vec![0u32; cells];
        let mut digits = vec![Vec::new(); cells];
        let mut next = 1u32;
        for c in 0..cells {
            if s.values()[c] == 0 {
                var_start[c] = next;
                digits[c] = s.candidates(c).collect();
                next += digits[c].len() as u32;
            }
        }
        let mut backend = make_backend(&self.backend)?;
        backend.set_conflict_limit(Some(self.node_limit));
        // Solution-guided phase: every cell tries its digit of S first, so the solver searches
        // near S for the second solution of a check (see the module doc).
        let prefer: Vec<i32> = (0..cells)
            .filter_map(|c| {
                let i = digits[c].iter().position(|&d| d == solution[c])?;
                Some((var_start[c] + i as u32) as i32)
            })
            .collect();
        backend.prefer(&prefer);
        backend.reserve_vars(next - 1);
        let mut out = Out {
            backend: backend.as_mut(),
            next: next as i32 - 1,
        };
        let mut lits = Vec::new();
        for c in 0..cells {
            if c % CLOCK_EVERY as usize == 0 && late() {
                return Ok(None);
            }
            if !digits[c].is_empty() {
                lits.clear();
                lits.extend((0..digits[c].len() as u32).map(|i| (var_start[c] + i) as i32));
                out.exactly_one(&lits);
            }
        }
        let n = s.n();
        let mut per_digit: Vec<Vec<i32>> = vec![Vec::new(); n];
        for h in 0..s.house_count() {
            if late() {
                return Ok(None);
            }
            per_digit.iter_mut().for_each(Vec::clear);
            for &c in s.house(h) {
                let c = c as usize;
                for (i, &d) in digits[c].iter().enumerate() {
                    per_digit[d as usize - 1].push((var_start[c] + i as u32) as i32);
                }
            }
            for l in &per_digit {
                if !l.is_empty() {
                    out.exactly_one(l);
                }
            }
        }
        Ok(Some(BlockSolver {
            backend,
            in_block,
            var_start,
            digits,
            fixed: vec![false; cells],
            placed: s.values().to_vec(),
        }))
    }
}

/// Digit-pair swaps of a solution `S`: for digits `a`, `b`, the cells of `S` holding `a` or `b`
/// fall into closed sets (from a cell, the cell of the other digit in each of its houses, and
/// so on) on which `a` and `b` can be exchanged with every house still valid: the moves of
/// Jacobson and Matthews' Latin-square switches (see [`super::switch`]). Each such set is an
/// *unavoidable set* (McGuire, Tugemann and Civario 2012: every unique puzzle of `S` has a
/// given in it). So if the set through `c` for some `b` has no given but `c`, removing `c`
/// leaves two solutions, `S` and `S` with the set swapped: proven at once, with no search.
/// This catches the hardest checks of sparse puzzles (second solutions a CDCL solver needs
/// thousands of conflicts to find).
struct PairSwaps {
    n: usize,
    /// Cell of each (house, digit) in `S`.
    place: Vec<u32>,
    set: Vec<u32>,
    mark: Vec<bool>,
}

impl PairSwaps {
    fn new(s: &Singles, solution: &[u16]) -> Self {
        let n = s.n();
        let mut place = vec![0u32; s.house_count() * n];
        for h in 0..s.house_count() {
            for &c in s.house(h) {
                place[h * n + solution[c as usize] as usize - 1] = c;
            }
        }
        PairSwaps {
            n,
            place,
            set: Vec::new(),
            mark: vec![false; solution.len()],
        }
    }

    /// A digit `b` whose set with `cell`'s digit through `cell` holds no given (`givens` has
    /// `cell` emptied already); that set is then [`PairSwaps::swapped`]'s.
    fn free_swap(
        &mut self,
        s: &Singles,
        givens: &[u16],
        solution: &[u16],
        cell: usize,
    ) -> Option<u16> {
        let n = self.n;
        let a = solution[cell];
        (1..=n as u16).filter(|&b| b != a).find(|&b| {
            self.set.clear();
            self.set.push(cell as u32);
            self.mark[cell] = true;
            let mut free = true;
            let mut i = 0;
            while free && i < self.set.len() {
                let c = self.set[i] as usize;
                i += 1;
                let other = if solution[c] == a { b } else { a };
                for &h in s.houses_of(c) {
                    let p = self.place[h as usize * n + other as usize - 1] as usize;
                    if !self.mark[p] {
                        if givens[p] != 0 {
                            free = false;
                            break;
                        }
                        self.mark[p] = true;
                        self.set.push(p as u32);
                    }
                }
            }
            for &c in &self.set {
                self.mark[c as usize] = false;
            }
            free
        })
    }

    /// `solution` with the digits `a` and `b` exchanged on the set of the last
    /// [`PairSwaps::free_swap`] that found one: another valid grid.
    fn swapped(&self, solution: &[u16], a: u16, b: u16) -> Vec<u16> {
        let mut grid = solution.to_vec();
        for &c in &self.set {
            let c = c as usize;
            grid[c] = if solution[c] == a { b } else { a };
        }
        grid
    }
}
