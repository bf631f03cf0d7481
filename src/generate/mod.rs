//! Puzzle generation: random full grids, then givens removed one at a time while a solver
//! proves the puzzle still has a unique solution.
//!
//! # Method
//!
//! 1. **A full grid** ([`fill`]): a randomised MRV search with naked and hidden singles and
//!    restarts, for any house list (boxes of any shape, jigsaw regions, diagonals). Jigsaw
//!    puzzles draw the grid first, a random full grid of the boxes (with the diagonals if
//!    asked; pattern grids above [`SEARCH_FILL_MAX`] without them), then a layout around it
//!    ([`layout::random_layout_around`]: a random walk of exchanges of two cells holding the
//!    same digit, every region kept connected), which that grid solves by construction.
//!    (Layouts drawn first and filled by search after failed from side 16 up: most random
//!    layouts there have no grid within the filler's budget.) A grid or layout not found
//!    before the deadline is drawn again, at most [`LAYOUT_TRIES`] times per attempt.
//! 2. **Removal**: every cell is visited once, in an order described below; its given is
//!    removed, and the removal is kept only if the engine answers `unique` with
//!    `max_solutions = 2`. On `multiple` the given is put back for good. One pass is enough
//!    for a *minimal* puzzle (no given can be removed): if removing a given from a puzzle `P`
//!    leaves several solutions, removing it from any `Q` with fewer givens (`Q` a subset of
//!    `P`) also does, since every solution of `P` minus that given solves `Q` minus it. So a
//!    given put back once never becomes removable later, and after the pass none is.
//! 3. **Targets**: [`Target::Minimal`] runs the whole pass. [`Target::Clues`] stops when `K`
//!    givens are left; if the pass ends above `K` (the puzzle became minimal first) the
//!    attempt fails and a new grid is drawn, at most `attempts` times, after which
//!    [`GenerateError::Unreachable`] reports the fewest clues reached.
//!
//! Every uniqueness check runs under a node limit (never a time limit, so the output does not
//! depend on the machine). A check stopped by the limit counts as "not proven unique" and the
//! given stays, so the puzzle written is always proven unique; under [`Target::Minimal`] such
//! an attempt is discarded, since minimality would no longer be proven.
//!
//! With [`GenerateOptions::second_solutions`] a minimal target also keeps, for each given,
//! the second solution that made its check refuse the removal: it solves the puzzle without
//! that given (the puzzle's other givens are a subset of those at the check), so it shows the
//! given is needed ([`Generator::last_second_solutions`]; `generate --minimal --certify`).
//!
//! # Removal order
//!
//! Without `spread`, a uniformly random permutation of the cells.
//!
//! With `spread` (*balanced holes*: Kautz, Ruan, Achlioptas, Gomes, Selman, Stickel 2001,
//! "Balance and filtering in structured satisfiable problems", for quasigroups with holes;
//! Ansótegui, Béjar, Fernández, Gomes, Mateu 2011, "Generating highly balanced sudoku
//! problems as hard problems", J. Heuristics 17, for Sudoku, where balanced hole patterns
//! give the hardest instances), the next cell is, among the cells not yet visited, one that
//! minimises, in this order:
//!
//! 1. the largest number of holes in any of its houses (row, column, box or region, and the
//!    diagonals it is on);
//! 2. the rank of its digit in a second, independent random full grid of the same geometry
//!    (the *pattern grid*), digits ranked in a random order;
//! 3. a random rank of the cell.
//!
//! Each digit's cells in the pattern grid form a transversal (one cell in every house), so
//! as long as every removal succeeds the holes are exactly the first `j` digit classes plus
//! part of the next: every row, column, box/region (and diagonal) then has `j` or `j + 1`
//! holes, **a difference of at most 1** (tested). A removal refused for uniqueness keeps a
//! cell and rule 1 then steers the following removals towards the houses with fewer holes,
//! so the difference stays small but is no longer bounded by 1; [`PuzzleStats::refused`]
//! counts such removals. If no pattern grid is found within the filler's budget (rare, some
//! jigsaw layouts), rule 2 is skipped for that attempt.
//!
//! # Clue bounds
//!
//! [`min_clues`]: a unique puzzle needs at least `N - 1` distinct digits among its givens
//! (two absent digits can be swapped in any solution), hence at least `N - 1` givens; for the
//! classic 9x9 grid the bound is 17 (McGuire, Tugemann, Civario 2012, "There is no 16-clue
//! Sudoku", Experimental Mathematics 23, 2014) and for the classic 4x4 grid 4 (checked
//! exhaustively by this module's tests). A target below the bound is refused at once.

pub mod fill;
pub mod incremental;
pub mod killer;
pub mod layout;
pub mod samurai;
pub mod singles;
pub mod switch;

#[cfg(test)]
mod tests;

use crate::engines::{self, Engine, EngineError, EngineSpec, Limits, Status};
use crate::puzzle::{Geometry, GeometryError, HouseKind, Puzzle};
use crate::search::Deadline;
use fill::{Filler, MAX_FILL_SIDE};
use incremental::{Answer, SatChecker};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use singles::{Closure, Singles, Stop};
use std::sync::Arc;

/// Smallest side generated: the readers take shorter lines for grid rows.
pub const MIN_SIDE: usize = 4;
/// Largest side generated: boxed grids come from [`switch::pattern_grid`] above
/// [`SEARCH_FILL_MAX`], and the geometry's limit applies.
pub const MAX_SIDE: usize = crate::puzzle::MAX_SIDE;
/// Largest side of X and jigsaw puzzles, whose full grids come from the filler's search.
pub const MAX_SEARCH_SIDE: usize = MAX_FILL_SIDE;
/// Largest boxed side whose full grids come from the filler's random search; larger ones
/// from the pattern grid with switches (the search took 45 s for one 64x64 grid).
pub const SEARCH_FILL_MAX: usize = 36;
/// Jigsaw grids and layouts drawn per attempt before giving up (only a failed boxed grid
/// search, with diagonals, can use more than one).
pub const LAYOUT_TRIES: u32 = 200;
/// Default attempts (full grids) per puzzle for a clue target.
pub const DEFAULT_ATTEMPTS: u32 = 100;
/// Default node limit of one uniqueness check by a search engine.
pub const DEFAULT_NODE_LIMIT: u64 = 1_000_000;
/// Default conflict limit of one uniqueness check by `sat-incremental`: a check that needs
/// more keeps its given (measured: at 64x64 near 60 % givens single checks take 5,000 to
/// 30,000 conflicts, 1-10 s each, while most take under 100).
pub const DEFAULT_CONFLICT_LIMIT: u64 = 2_000;
/// Default conflict limit of one check by `sat-incremental` for a minimal target, where a
/// check stopped by the limit voids the attempt (a new grid is drawn): most checks of such a
/// pass are refusals whose second solution is hard to find, and at 25x25 the largest check of
/// a pass took 1,025 to 5,494 conflicts on 6 of 8 grids (solution-guided phase), against
/// 9,000 to 38,000 on the other two. A limit of 5,000 accepts most grids and drops the hard
/// ones early (docs/generate.md, "Minimal puzzles at 25x25").
pub const DEFAULT_MINIMAL_CONFLICT_LIMIT: u64 = 5_000;

/// The default node limit for the checks of `engine` towards `target`.
pub fn default_node_limit(engine: &EngineSpec, target: Target) -> u64 {
    match (engine.name == incremental::NAME, target) {
        (true, Target::Minimal) => DEFAULT_MINIMAL_CONFLICT_LIMIT,
        (true, Target::Clues(_)) => DEFAULT_CONFLICT_LIMIT,
        (false, _) => DEFAULT_NODE_LIMIT,
    }
}

/// How many givens to leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Exactly this many givens.
    Clues(usize),
    /// Remove until no given can be removed.
    Minimal,
}

/// What to generate. See the module doc for the method.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Side `N`.
    pub size: usize,
    /// Box shape `(rows, cols)`; `None` = the default for `N`. Not allowed with `jigsaw`.
    pub box_shape: Option<(usize, usize)>,
    /// Random connected regions instead of boxes (a new layout for every puzzle).
    pub jigsaw: bool,
    /// X-sudoku: the two diagonals are houses too.
    pub diagonals: bool,
    pub target: Target,
    /// Spread the holes evenly over the houses.
    pub spread: bool,
    pub seed: u64,
    /// Full grids tried per puzzle before [`GenerateError::Unreachable`].
    pub attempts: u32,
    /// Engine of the uniqueness checks; `None` = [`auto_engine`].
    pub engine: Option<EngineSpec>,
    /// Node limit of each uniqueness check (conflicts for `sat-incremental`).
    pub node_limit: u64,
    /// Progress lines on stderr every 5 s of a removal pass.
    pub progress: bool,
    /// Order of the removals (see [`Order`]).
    pub order: Order,
    /// Whether removals are checked for uniqueness at all: `false` removes the first cells of
    /// the random order with no check, so the puzzle may have several solutions (for
    /// hardness studies without the uniqueness condition; clue targets only).
    pub unique: bool,
    /// Wall time for the whole stream, from [`Generator::new`]: once spent, the puzzle under
    /// construction is abandoned with [`GenerateError::TimeLimit`] (`None` = no limit). The
    /// puzzles returned before are the ones the same options give without it.
    pub time_limit: Option<std::time::Duration>,
    /// Minimal targets: keep, for each given of the puzzle, the second solution that made
    /// the check refuse its removal ([`Generator::last_second_solutions`]): a solution of
    /// the puzzle without that given other than the unique one, which shows the given cannot
    /// be dropped. Ignored for clue targets (their givens are not all checked).
    pub second_solutions: bool,
}

/// Order in which the cells are visited for removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// One pass in a uniformly random order (or the balanced order with `spread`).
    Random,
    /// Two passes over the random order: first the removals that naked and hidden singles
    /// undo (the puzzle stays solvable by singles, so unique, with no uniqueness check), then
    /// the cells the first pass kept, each checked by the engine. Far fewer checks, and none
    /// of the hard ones while the target is within reach of singles; the puzzles are biased
    /// towards those singles solve.
    SinglesFirst,
    /// The two passes of [`Order::SinglesFirst`] over a *nested-squares* order: rows and
    /// columns get random ranks, and the cells are visited by the larger of their row's and
    /// their column's rank, ties in the random order (so the holes grow as a square of
    /// random rows by random columns). Singles then stall at fewer givens: measured 52.9 %
    /// against 56.6 % at 81x81 and 58.9 % against 63.2 % at 144x144 (docs/generate.md).
    Nested,
}

impl Order {
    /// Name as the command line spells it.
    pub fn name(self) -> &'static str {
        match self {
            Order::Random => "random",
            Order::SinglesFirst => "singles-first",
            Order::Nested => "nested",
        }
    }
}

/// Largest side whose default order is [`Order::Random`]; above, [`Order::SinglesFirst`].
pub const RANDOM_ORDER_MAX_SIDE: usize = 16;

/// The order used when none is given (see [`RANDOM_ORDER_MAX_SIDE`]).
pub fn auto_order(n: usize) -> Order {
    if n <= RANDOM_ORDER_MAX_SIDE {
        Order::Random
    } else {
        Order::SinglesFirst
    }
}

impl GenerateOptions {
    /// Options for `N x N` classic puzzles with the given target, seed 0 and the defaults.
    pub fn new(size: usize, target: Target) -> Self {
        GenerateOptions {
            size,
            box_shape: None,
            jigsaw: false,
            diagonals: false,
            target,
            spread: false,
            seed: 0,
            attempts: DEFAULT_ATTEMPTS,
            engine: None,
            node_limit: default_node_limit(&auto_engine(size), target),
            progress: false,
            order: auto_order(size),
            unique: true,
            time_limit: None,
            second_solutions: false,
        }
    }
}

/// Why generation failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    #[error("side {0} is not supported (the generator makes sides {MIN_SIDE} to {MAX_SIDE})")]
    Side(usize),
    #[error(
        "side {0} is not supported for X and jigsaw puzzles (their full grids come from a \
         search, up to side {MAX_SEARCH_SIDE})"
    )]
    SearchSide(usize),
    #[error(
        "side {0} is not supported for killer puzzles (the killer generator makes boxed sides \
         {min} to {max})",
        min = killer::KILLER_MIN_SIDE,
        max = killer::KILLER_MAX_SIDE
    )]
    KillerSide(usize),
    #[error(transparent)]
    Geometry(#[from] GeometryError),
    #[error("a jigsaw puzzle has regions, not boxes: a box shape cannot be given with it")]
    BoxWithJigsaw,
    #[error(
        "the singles-first and nested orders cannot be combined with spread (use the random \
         order with it)"
    )]
    OrderWithSpread,
    #[error("a minimal puzzle needs uniqueness checks: give a clue target without them")]
    MinimalUnchecked,
    #[error("attempts must be at least 1")]
    NoAttempts,
    #[error(
        "{clues} clues is below the minimum of {min} for a unique {variant} puzzle ({reason})"
    )]
    TooFewClues {
        clues: usize,
        min: usize,
        variant: String,
        reason: &'static str,
    },
    #[error("{clues} clues is more than the {cells} cells of the grid")]
    TooManyClues { clues: usize, cells: usize },
    #[error("engine: {0}")]
    Engine(#[from] EngineError),
    /// The engine cannot check puzzles of this kind: `lacks` says what it does not do.
    #[error("engine: {spec} {lacks}")]
    EngineUnfit { spec: String, lacks: &'static str },
    #[error(
        "could not reach {clues} clues in {attempts} attempts; the fewest reached was {fewest} \
         (try more --attempts or more clues)"
    )]
    Unreachable {
        clues: usize,
        attempts: u32,
        fewest: usize,
    },
    #[error(
        "could not prove a minimal puzzle in {attempts} attempts: uniqueness checks hit the \
         node limit of {node_limit} (raise it or use another engine)"
    )]
    Undecided { attempts: u32, node_limit: u64 },
    #[error("no full grid found for {what} after {tries} tries")]
    NoGrid { what: String, tries: u32 },
    /// An engine's check that contradicts what the generator knows (a bug, not a result).
    #[error("the uniqueness check failed: {0}")]
    Check(String),
    #[error("the uniqueness check failed: {0}")]
    SatCheck(#[from] incremental::CheckError),
    #[error("the time limit of {} s was reached", .0.as_secs_f64())]
    TimeLimit(std::time::Duration),
}

/// Work done for the last puzzle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PuzzleStats {
    /// Full grids tried (1 unless a clue target was missed).
    pub attempts: u32,
    /// Jigsaw layouts drawn (0 for boxed grids).
    pub layouts: u32,
    /// Uniqueness checks run, over all attempts.
    pub checks: u64,
    /// Removals refused in the final attempt because the puzzle would have had several
    /// solutions.
    pub refused: u64,
    /// Checks of the final attempt stopped by the node limit (the given stayed).
    pub undecided: u64,
    /// Killer puzzles: cages split before the puzzle was unique ([`killer`]); 0 otherwise.
    pub splits: u64,
}

/// Largest side whose uniqueness checks default to `dlx`; above, `sat-incremental`.
/// Measured (see docs/generate.md): dlx is faster on small dense grids, where building a
/// propagator and a solver costs more than the whole search.
pub const DLX_MAX_SIDE: usize = 12;

/// The engine used when none is given: `dlx` up to [`DLX_MAX_SIDE`], `sat-incremental`
/// (singles first, then one incremental SAT solver per block of removals; see
/// [`incremental`]) above.
pub fn auto_engine(n: usize) -> EngineSpec {
    if n <= DLX_MAX_SIDE {
        EngineSpec::new("dlx")
    } else {
        EngineSpec::new(incremental::NAME)
    }
}

/// Fewest givens a unique puzzle of this geometry can have, as far as known, with the reason.
pub fn min_clues(g: &Geometry) -> (usize, &'static str) {
    let classic = !g.is_jigsaw() && !g.has_diagonals();
    match (g.n(), g.box_shape()) {
        (9, Some((3, 3))) if classic => (
            17,
            "McGuire, Tugemann and Civario 2012 showed no 16-clue 9x9 Sudoku is unique",
        ),
        (4, Some((2, 2))) if classic => (4, "no 3-clue 4x4 Sudoku is unique (exhaustive check)"),
        _ => (
            g.n() - 1,
            "a unique puzzle gives at least N-1 distinct digits: two absent ones could be swapped",
        ),
    }
}

/// Difference between the most and the fewest holes (empty cells) over the rows, the
/// columns and the boxes/regions of `p`, in that order.
pub fn hole_imbalance(p: &Puzzle) -> [usize; 3] {
    let g = p.geometry();
    let mut spread = [(usize::MAX, 0usize); 3];
    for (h, cells) in g.houses().enumerate() {
        let family = match g.house_kind(h) {
            HouseKind::Row(_) | HouseKind::GridRow { .. } => 0,
            HouseKind::Column(_) | HouseKind::GridColumn { .. } => 1,
            HouseKind::Box(_) | HouseKind::Region(_) | HouseKind::GridBox { .. } => 2,
            HouseKind::Diagonal | HouseKind::AntiDiagonal | HouseKind::Window(_) => continue,
        };
        let holes = cells
            .iter()
            .filter(|&&c| p.givens()[c as usize] == 0)
            .count();
        let (lo, hi) = &mut spread[family];
        *lo = (*lo).min(holes);
        *hi = (*hi).max(holes);
    }
    spread.map(|(lo, hi)| hi.saturating_sub(lo))
}

/// A stream of puzzles. Deterministic: the same options give the same puzzles in the same
/// order, on any machine (one seeded ChaCha8 stream, node limits rather than time limits).
pub struct Generator {
    options: GenerateOptions,
    rng: ChaCha8Rng,
    /// The geometry of boxed puzzles (fixed), with its filler; rebuilt per layout for jigsaw.
    /// `None` filler: grids from [`switch::pattern_grid`] (boxed sides above
    /// [`SEARCH_FILL_MAX`]).
    fixed: Option<(Arc<Geometry>, Option<Filler>)>,
    /// Jigsaw: the box geometry (with the diagonals if asked) whose random full grids the
    /// layouts are drawn around ([`layout::random_layout_around`]), with its filler (`None`:
    /// pattern grids, as for `fixed`).
    jigsaw_base: Option<(Geometry, Option<Filler>)>,
    checker: Checker,
    limits: Limits,
    stats: PuzzleStats,
    solution: Vec<u16>,
    /// The second solutions of the last puzzle's givens, row-major (see
    /// [`GenerateOptions::second_solutions`]); empty when not kept.
    second_solutions: Vec<Vec<u16>>,
    /// When the time limit ends (see [`GenerateOptions::time_limit`]).
    deadline: Deadline,
}

impl std::fmt::Debug for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Generator")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// [`GenerateError::TimeLimit`] once `deadline` (the end of `time_limit`) has passed: the
/// one clock check of [`Generator::in_time`], also for code that holds the generator's
/// fields apart.
fn in_time(
    deadline: &Deadline,
    time_limit: Option<std::time::Duration>,
) -> Result<(), GenerateError> {
    match (deadline.expired(), time_limit) {
        (Some(_), Some(t)) => Err(GenerateError::TimeLimit(t)),
        _ => Ok(()),
    }
}

/// What checks the removals: an engine of the registry, or the incremental SAT checker.
enum Checker {
    Engine(Box<dyn Engine>),
    Sat(Box<SatChecker>),
}

/// One removal pass.
struct Carved {
    givens: Vec<u16>,
    clues: usize,
    refused: u64,
    undecided: u64,
    /// Each refused cell with the second solution that refused it, when they are kept.
    second_solutions: Vec<(usize, Vec<u16>)>,
}

impl Generator {
    /// Checks the options (side, box shape, clue target against [`min_clues`], engine) and
    /// prepares the engine. Every error a bad option can cause is reported here, before any
    /// puzzle is made.
    pub fn new(options: GenerateOptions) -> Result<Self, GenerateError> {
        // The clock starts before the geometry is built: the limit covers the whole command.
        let deadline = Deadline::after(std::time::Instant::now(), options.time_limit, None);
        let n = options.size;
        if !(MIN_SIDE..=MAX_SIDE).contains(&n) {
            return Err(GenerateError::Side(n));
        }
        if options.attempts == 0 {
            return Err(GenerateError::NoAttempts);
        }
        if options.jigsaw && options.box_shape.is_some() {
            return Err(GenerateError::BoxWithJigsaw);
        }
        let geometry = match options.box_shape {
            Some((r, c)) => Geometry::boxed(n, r, c)?,
            None => Geometry::square(n)?,
        };
        let geometry = if options.jigsaw {
            // Stands for every layout in the clue bound: jigsaw gets the general bound.
            Geometry::jigsaw(n, geometry.regions().to_vec())?
        } else {
            geometry
        };
        // Built again only to add houses: at side 1024 a build is tens of milliseconds.
        let geometry = if options.diagonals {
            geometry.with_diagonals(true)
        } else {
            geometry
        };
        if let Target::Clues(k) = options.target {
            let cells = n * n;
            if k > cells {
                return Err(GenerateError::TooManyClues { clues: k, cells });
            }
            let (min, reason) = min_clues(&geometry);
            if k < min {
                return Err(GenerateError::TooFewClues {
                    clues: k,
                    min,
                    variant: format!("{n}x{n} {}", geometry.variant()),
                    reason,
                });
            }
        }
        if options.spread && options.order != Order::Random {
            return Err(GenerateError::OrderWithSpread);
        }
        if !options.unique && options.target == Target::Minimal {
            return Err(GenerateError::MinimalUnchecked);
        }
        if (options.jigsaw || options.diagonals) && n > MAX_SEARCH_SIDE {
            return Err(GenerateError::SearchSide(n));
        }
        let spec = options.engine.clone().unwrap_or_else(|| auto_engine(n));
        let geometry = Arc::new(geometry);
        let mut checker = if spec.name == incremental::NAME {
            Checker::Sat(Box::new(SatChecker::new(
                &geometry,
                &spec,
                options.node_limit,
            )?))
        } else {
            Checker::Engine(spec.make()?)
        };
        let keep_second = keeps_second_solutions(&options);
        let limits = Limits {
            max_solutions: 2,
            node_limit: Some(options.node_limit),
            time_limit: None,
            // Keeping one solution lets `engines::run` check it against the houses; both, when
            // the second solutions are kept (one of them is the full grid).
            keep_solutions: if keep_second { 2 } else { 1 },
            ..Limits::default()
        };
        let jigsaw_base = match options.jigsaw {
            true => {
                let base = Geometry::square(n)?.with_diagonals(options.diagonals);
                let by_pattern = n > SEARCH_FILL_MAX && !options.diagonals;
                let filler = (!by_pattern).then(|| Filler::new(&base));
                Some((base, filler))
            }
            false => None,
        };
        let fixed = (!options.jigsaw).then(|| {
            let by_pattern = n > SEARCH_FILL_MAX && !options.diagonals;
            let filler = (!by_pattern).then(|| Filler::new(&geometry));
            (Arc::clone(&geometry), filler)
        });
        if let Checker::Sat(c) = &mut checker {
            c.deadline = deadline.clone();
            c.keep_second_solutions = keep_second;
        }
        Ok(Generator {
            deadline,
            rng: ChaCha8Rng::seed_from_u64(options.seed),
            options,
            fixed,
            jigsaw_base,
            checker,
            limits,
            stats: PuzzleStats::default(),
            solution: Vec::new(),
            second_solutions: Vec::new(),
        })
    }

    pub fn options(&self) -> &GenerateOptions {
        &self.options
    }

    /// [`GenerateError::TimeLimit`] once the deadline has passed.
    fn in_time(&self) -> Result<(), GenerateError> {
        in_time(&self.deadline, self.options.time_limit)
    }

    /// Work done for the last puzzle returned.
    pub fn last_stats(&self) -> &PuzzleStats {
        &self.stats
    }

    /// The solution of the last puzzle returned (the full grid it was cut from).
    pub fn last_solution(&self) -> &[u16] {
        &self.solution
    }

    /// For each given of the last puzzle returned, in row-major order, a solution of the
    /// puzzle without that given other than [`Generator::last_solution`]: the check's own
    /// witness that the given cannot be removed. `None` unless
    /// [`GenerateOptions::second_solutions`] is set with a minimal target.
    pub fn last_second_solutions(&self) -> Option<&[Vec<u16>]> {
        keeps_second_solutions(&self.options).then_some(self.second_solutions.as_slice())
    }

    /// The next puzzle: unique (proven by the engine), with the target number of givens.
    pub fn next_puzzle(&mut self) -> Result<Puzzle, GenerateError> {
        self.stats = PuzzleStats::default();
        self.second_solutions.clear();
        let mut fewest = usize::MAX;
        for attempt in 1..=self.options.attempts {
            self.stats.attempts = attempt;
            self.in_time()?;
            let (geometry, solution, pattern) = self.full_grid()?;
            self.in_time()?;
            let carved = self.carve(&geometry, &solution, pattern.as_deref())?;
            fewest = fewest.min(carved.clues);
            let done = match self.options.target {
                Target::Clues(k) => carved.clues == k,
                Target::Minimal => carved.undecided == 0,
            };
            if done {
                self.stats.refused = carved.refused;
                self.stats.undecided = carved.undecided;
                if keeps_second_solutions(&self.options) {
                    self.second_solutions =
                        second_solutions_by_given(&carved.givens, carved.second_solutions)?;
                }
                self.solution = solution;
                return Ok(Puzzle::new(geometry, carved.givens).expect("digits of a full grid"));
            }
        }
        Err(match self.options.target {
            Target::Clues(clues) => GenerateError::Unreachable {
                clues,
                attempts: self.options.attempts,
                fewest,
            },
            Target::Minimal => GenerateError::Undecided {
                attempts: self.options.attempts,
                node_limit: self.options.node_limit,
            },
        })
    }

    /// A geometry (new layout for jigsaw), a random full grid of it, and with `spread` a second
    /// independent one (the pattern grid), if found.
    #[allow(clippy::type_complexity)]
    fn full_grid(&mut self) -> Result<(Arc<Geometry>, Vec<u16>, Option<Vec<u16>>), GenerateError> {
        let n = self.options.size;
        // Budgets: a successful search takes about N^2 nodes or fewer (one per decision), and
        // its run time is heavy-tailed, so short searches restarted often beat long ones
        // (measured on 49x49: 4 N^2 nodes per search fill in 0.05 to 4 s, 0.4 N^2 never
        // does). A jigsaw layout that resists a few searches is more likely impossible than
        // unlucky, so it is dropped early.
        let budget = 4 * n as u64 * n as u64;
        let restarts = if self.options.jigsaw { 5 } else { 1000 };
        let spread = self.options.spread;
        if let Some((g, None)) = &self.fixed {
            // The switches take seconds at side 400: they read the clock too, and only the
            // deadline makes a boxed geometry's pattern grid fail.
            let deadline = &self.deadline;
            let late = || GenerateError::TimeLimit(self.options.time_limit.unwrap_or_default());
            let grid = switch::pattern_grid_until(g, &mut self.rng, deadline).ok_or_else(late)?;
            let pattern = if spread {
                Some(switch::pattern_grid_until(g, &mut self.rng, deadline).ok_or_else(late)?)
            } else {
                None
            };
            return Ok((Arc::clone(g), grid, pattern));
        }
        if let Some((_, Some(filler))) = &mut self.fixed {
            filler.deadline = self.deadline.clone();
            let grid = filler.random_grid(&mut self.rng, budget, restarts);
            if grid.is_none() {
                self.in_time()?;
            }
            let Some((g, Some(filler))) = &self.fixed else {
                unreachable!("matched above")
            };
            let grid = grid.ok_or_else(|| GenerateError::NoGrid {
                what: format!("the {n}x{n} {} geometry", g.variant()),
                tries: restarts,
            })?;
            let pattern = if spread {
                filler.random_grid(&mut self.rng, budget, restarts)
            } else {
                None
            };
            return Ok((Arc::clone(g), grid, pattern));
        }
        // Jigsaw: the grid first (a random full grid of the boxes), then a layout around it
        // (see `layout`): the layout always has a full grid, at any side.
        // The fields apart, so the base's filler can be used beside the rng and the clock.
        let Generator {
            jigsaw_base,
            rng,
            stats,
            deadline,
            options,
            ..
        } = self;
        let Some((base, base_filler)) = jigsaw_base else {
            unreachable!("fixed is None only for jigsaw")
        };
        let in_time = || in_time(deadline, options.time_limit);
        for _ in 0..LAYOUT_TRIES {
            in_time()?;
            stats.layouts += 1;
            let grid = match base_filler {
                Some(f) => {
                    f.deadline = deadline.clone();
                    f.random_grid(rng, budget, 1000)
                }
                None => switch::pattern_grid_until(base, rng, deadline),
            };
            let Some(grid) = grid else {
                in_time()?;
                continue;
            };
            let Some(regions) = layout::random_layout_around(n, &grid, rng, deadline) else {
                in_time()?; // it stops only at the deadline: this returns
                continue;
            };
            let g = Geometry::jigsaw(n, regions)?.with_diagonals(options.diagonals);
            let pattern = if spread {
                // A second grid of this layout, by search: a layout may resist it, and then
                // the spread order goes without its pattern (see the module doc).
                let mut filler = Filler::new(&g);
                filler.deadline = deadline.clone();
                filler.random_grid(rng, budget, restarts)
            } else {
                None
            };
            return Ok((Arc::new(g), grid, pattern));
        }
        Err(GenerateError::NoGrid {
            what: format!(
                "random {n}x{n} jigsaw layouts{}",
                if self.options.diagonals {
                    " with diagonals"
                } else {
                    ""
                }
            ),
            tries: LAYOUT_TRIES,
        })
    }

    /// One removal pass over the cells (see the module doc for the order).
    fn carve(
        &mut self,
        geometry: &Arc<Geometry>,
        solution: &[u16],
        pattern: Option<&[u16]>,
    ) -> Result<Carved, GenerateError> {
        let n = geometry.n();
        let cells = geometry.cells();
        let mut carved = Carved {
            givens: solution.to_vec(),
            clues: cells,
            refused: 0,
            undecided: 0,
            second_solutions: Vec::new(),
        };
        let keep_second = keeps_second_solutions(&self.options);
        let target = match self.options.target {
            Target::Clues(k) => k,
            Target::Minimal => 0,
        };
        let mut order: Vec<usize> = (0..cells).collect();
        order.shuffle(&mut self.rng);
        if self.options.order == Order::Nested && self.options.unique {
            order = nested_order(n, order, &mut self.rng);
        }
        let spread = self.options.spread.then(|| {
            let mut digit_rank: Vec<u16> = (0..n as u16).collect();
            digit_rank.shuffle(&mut self.rng);
            let mut cell_rank = vec![0u32; cells];
            for (i, &c) in order.iter().enumerate() {
                cell_rank[c] = i as u32;
            }
            // Visit order is decided step by step; `order` becomes the list of unvisited cells.
            Spread {
                holes: vec![0u32; geometry.house_count()],
                class: (0..cells)
                    .map(|c| pattern.map_or(0, |p| digit_rank[p[c] as usize - 1]))
                    .collect(),
                cell_rank,
            }
        });
        let mut spread = spread;
        if !self.options.unique {
            // No checks: the first cells of the random order go.
            for &c in &order[..cells - target] {
                carved.givens[c] = 0;
            }
            carved.clues = target;
            return Ok(carved);
        }
        if matches!(self.options.order, Order::SinglesFirst | Order::Nested) && spread.is_none() {
            order = self.singles_pass(geometry, solution, &order, target, &mut carved)?;
        }
        let mut step = 0;
        // Size of the next block test (see `incremental`); 1 = single checks.
        let mut block = 1usize;
        let mut progress = self
            .options
            .progress
            .then(|| Progress::new(self.stats.attempts));
        if let Checker::Sat(checker) = &mut self.checker {
            checker.start(geometry);
        }
        while carved.clues > target {
            let cell = match &spread {
                None => match order.get(step) {
                    Some(&c) => c,
                    None => break,
                },
                Some(s) => match s.pick(geometry, &order) {
                    Some(i) => order.swap_remove(i),
                    None => break,
                },
            };
            step += 1;
            self.in_time()?;
            let digit = carved.givens[cell];
            carved.givens[cell] = 0;
            self.stats.checks += 1;
            // The second solution of a refusal, when they are kept.
            let mut second = None;
            let answer = match &mut self.checker {
                Checker::Engine(engine) => {
                    let puzzle = Puzzle::new(Arc::clone(geometry), carved.givens.clone())
                        .expect("digits of a full grid");
                    let mut limits = self.limits.clone();
                    if let Some(left) = self.deadline.remaining() {
                        limits.time_limit = Some(left);
                    }
                    let outcome = engines::run(engine.as_mut(), &puzzle, &limits);
                    match outcome.status {
                        Status::Unique => Answer::Unique,
                        Status::Multiple => {
                            if keep_second {
                                second = outcome.solutions.into_iter().find(|s| s != solution);
                            }
                            Answer::Multiple
                        }
                        Status::NodeLimit | Status::TimeLimit | Status::MemoryLimit => {
                            Answer::Undecided
                        }
                        // Removing givens from a solvable puzzle cannot make it unsolvable, and
                        // the engine was chosen for this geometry: anything else is an engine
                        // failure.
                        other => {
                            return Err(GenerateError::Check(format!(
                                "the engine answered {other} on a puzzle cut from a valid grid{}",
                                outcome.note.map(|s| format!(" ({s})")).unwrap_or_default()
                            )))
                        }
                    }
                }
                Checker::Sat(checker) => {
                    let mut upcoming = |k: usize| -> Vec<usize> {
                        match &spread {
                            None => order[step..].iter().copied().take(k).collect(),
                            Some(s) => s.simulate(geometry, &order, k),
                        }
                    };
                    let answer = checker.check(&carved.givens, solution, cell, &mut upcoming)?;
                    if answer == Answer::Multiple && keep_second {
                        second = checker.take_second_solution();
                    }
                    answer
                }
            };
            // A check stopped by the deadline answers nothing: the attempt ends here.
            self.in_time()?;
            let removed = answer == Answer::Unique;
            if let Some(p) = &mut progress {
                p.tick(step, cells, carved.clues);
            }
            if let Checker::Sat(checker) = &mut self.checker {
                checker.settle(cell, digit, removed);
            }
            match answer {
                Answer::Unique => {
                    carved.clues -= 1;
                    if let Some(s) = &mut spread {
                        s.removed(geometry, cell);
                    }
                }
                Answer::Multiple => {
                    carved.givens[cell] = digit;
                    carved.refused += 1;
                    if keep_second {
                        let grid = second.ok_or_else(|| {
                            GenerateError::Check(format!(
                                "the check refused the removal of cell {cell} without a second \
                                 solution"
                            ))
                        })?;
                        carved.second_solutions.push((cell, grid));
                    }
                }
                Answer::Undecided => {
                    carved.givens[cell] = digit;
                    carved.undecided += 1;
                }
            }
            // Blocks of removals by singles (random order only; see `incremental`).
            if let (Checker::Sat(checker), None, true) = (&mut self.checker, &spread, removed) {
                block = (block * 2).min(carved.clues - target);
                while block >= 2 {
                    if self.deadline.expired().is_some() {
                        break; // the next check reports it
                    }
                    let Some(cells) = order.get(step..step + block) else {
                        break;
                    };
                    for &c in cells {
                        carved.givens[c] = 0;
                    }
                    self.stats.checks += 1;
                    if checker.block_unique(&carved.givens, block) {
                        for &c in cells {
                            checker.settle(c, solution[c], true);
                        }
                        carved.clues -= block;
                        step += block;
                        block = (block * 2).min(carved.clues - target);
                    } else {
                        for &c in cells {
                            carved.givens[c] = solution[c];
                        }
                        block /= 2;
                    }
                }
            } else {
                block = 1;
            }
        }
        Ok(carved)
    }
}

impl Generator {
    /// The first pass of [`Order::SinglesFirst`]: the cells of `order` are emptied in turn
    /// while naked and hidden singles still fill the grid from the givens left (then the
    /// solution is the only one: no check needed), stopping at `target` givens. Returns the
    /// order of the second pass: the cells kept, in their order, then the cells not visited.
    ///
    /// Singles from `G` minus `c` fill the grid exactly when they place `c` (the placed cells
    /// then include `G`, which singles fill). The pass answers that for every cell without
    /// re-running singles from scratch, by divide and conquer over the order (the offline
    /// scheme of dynamic connectivity, with a trail to undo; cf. the "segment tree on time"):
    /// for a stretch `[l, r)` of the order, the propagator holds the singles fixpoint of the
    /// givens with every cell of the stretch empty (the cells before it as decided, the cells
    /// after it given). The left half is entered after placing the givens of the right half,
    /// the right half after placing those the left half kept; a stretch of one cell `c` is
    /// then the fixpoint of `G` minus `c`, and `c` is removable exactly when it is placed.
    /// Each cell is placed once per level, so a block of `B` cells costs `O(B log B)`
    /// placements, each as cheap as what it changes. Blocks of [`singles_block`] cells each
    /// start from a fixpoint computed from scratch (one full run per block). The decisions
    /// are the one-at-a-time pass's, so the output does not depend on the blocks.
    ///
    /// A leaf only asks whether its cell gets placed, so the placements that lead to it halt
    /// as soon as it is ([`Singles::place_until`]; the fixpoint does not depend on the order
    /// of the singles). Near the stall that is most of the work: with two cells of the order
    /// empty singles leave much of the grid open, and a removable cell's leaf re-filled it:
    /// at 144x144 (`--clues 12300`, seed 0) about 16,100 candidates removed per removable
    /// cell, 64 % of the pass's removals; halted, about 550.
    fn singles_pass(
        &mut self,
        geometry: &Geometry,
        solution: &[u16],
        order: &[usize],
        target: usize,
        carved: &mut Carved,
    ) -> Result<Vec<usize>, GenerateError> {
        let mut pass = SinglesPass {
            singles: Singles::new(geometry),
            order,
            solution,
            carved,
            target,
            kept: Vec::new(),
            visited: 0,
            progress: self
                .options
                .progress
                .then(|| Progress::new(self.stats.attempts)),
            deadline: self.deadline.clone(),
            leaves: 0,
        };
        pass.singles.deadline = self.deadline.clone();
        let block = singles_block(geometry.cells());
        let dead = || GenerateError::Check("singles found a contradiction in a valid grid".into());
        let stopped = |stop: PassStop| match stop {
            PassStop::Dead => dead(),
            PassStop::Time => GenerateError::TimeLimit(self.options.time_limit.unwrap_or_default()),
        };
        while pass.visited < order.len() && pass.carved.clues > target {
            self.in_time()?;
            let (l, r) = (pass.visited, (pass.visited + block).min(order.len()));
            for &c in &order[l..r] {
                pass.carved.givens[c] = 0;
            }
            self.stats.checks += 1;
            let closure = pass.singles.run(&pass.carved.givens, None);
            for &c in &order[l..r] {
                pass.carved.givens[c] = solution[c];
            }
            match closure {
                Closure::Contradiction => return Err(dead()),
                Closure::TimeLimit => return Err(stopped(PassStop::Time)),
                Closure::Filled | Closure::Open => {}
            }
            pass.visit(l, r).map_err(stopped)?;
        }
        if let Some(p) = &pass.progress {
            p.finish("singles pass", pass.visited, order.len(), pass.carved.clues);
        }
        let SinglesPass {
            mut kept, visited, ..
        } = pass;
        kept.extend_from_slice(&order[visited..]);
        Ok(kept)
    }
}

/// Whether the generator keeps the second solutions of its refusals (see
/// [`GenerateOptions::second_solutions`]).
fn keeps_second_solutions(options: &GenerateOptions) -> bool {
    options.second_solutions && options.target == Target::Minimal
}

/// The second solutions of a minimal pass in the row-major order of its givens: every given
/// of a minimal puzzle is a refused removal, and the second solution that refused it (found
/// with more givens, all still there but one) solves the puzzle without it.
fn second_solutions_by_given(
    givens: &[u16],
    mut by_cell: Vec<(usize, Vec<u16>)>,
) -> Result<Vec<Vec<u16>>, GenerateError> {
    by_cell.sort_unstable_by_key(|(cell, _)| *cell);
    let refused: Vec<usize> = by_cell.iter().map(|(cell, _)| *cell).collect();
    let given: Vec<usize> = (0..givens.len()).filter(|&c| givens[c] != 0).collect();
    if refused != given {
        return Err(GenerateError::Check(format!(
            "{} refused removals for {} givens: a given of the minimal puzzle has no second \
             solution",
            refused.len(),
            given.len()
        )));
    }
    Ok(by_cell.into_iter().map(|(_, grid)| grid).collect())
}

/// The nested-squares order of [`Order::Nested`]: `order` (a random permutation of the
/// cells of an `n x n` grid) sorted by the larger of two random ranks, one per row and one
/// per column, ties kept in `order`'s order. The first `k^2` cells visited are then the
/// square of the `k` rows and `k` columns ranked first.
fn nested_order(n: usize, order: Vec<usize>, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut row_rank: Vec<usize> = (0..n).collect();
    row_rank.shuffle(rng);
    let mut col_rank: Vec<usize> = (0..n).collect();
    col_rank.shuffle(rng);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for c in order {
        layers[row_rank[c / n].max(col_rank[c % n])].push(c);
    }
    layers.concat()
}

/// Cells per block of the singles-first pass (see [`Generator::singles_pass`]): large enough
/// that the full run starting each block is rare, small enough that a block's first
/// fixpoint (all its cells empty at once) keeps most of the grid placed.
fn singles_block(cells: usize) -> usize {
    (cells / 16).max(256)
}

/// The state of the divide and conquer of [`Generator::singles_pass`].
struct SinglesPass<'a> {
    singles: Singles,
    order: &'a [usize],
    solution: &'a [u16],
    carved: &'a mut Carved,
    target: usize,
    /// Cells visited and kept, in order, and the number of cells of `order` visited.
    kept: Vec<usize>,
    visited: usize,
    progress: Option<Progress>,
    deadline: Deadline,
    /// Cells decided, for reading the clock every 256 of them.
    leaves: u64,
}

/// Why [`SinglesPass::visit`] stopped early.
enum PassStop {
    Dead,
    Time,
}

impl From<Stop> for PassStop {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Dead => PassStop::Dead,
            Stop::Time => PassStop::Time,
        }
    }
}

impl SinglesPass<'_> {
    /// Decides the cells `order[l..r]`; the propagator holds the fixpoint of the givens with
    /// all of them empty, and is left so.
    fn visit(&mut self, l: usize, r: usize) -> Result<(), PassStop> {
        if self.carved.clues <= self.target {
            return Ok(());
        }
        if r - l == 1 {
            let placed = self.singles.values()[self.order[l]] != 0;
            return self.decide(l, placed);
        }
        let m = l + (r - l) / 2;
        let mark = self.singles.mark();
        if m - l == 1 {
            // A leaf only asks whether its cell gets placed: propagation halts when it is.
            let placed = self.reaches(m..r, self.order[l], false)?;
            self.decide(l, placed)?;
        } else {
            for &c in &self.order[m..r] {
                self.singles.place(c, self.solution[c])?;
            }
            self.visit(l, m)?;
        }
        self.singles.undo(mark);
        if self.carved.clues <= self.target {
            return Ok(());
        }
        if r - m == 1 {
            let placed = self.reaches(l..m, self.order[m], true)?;
            self.decide(m, placed)?;
        } else {
            for &c in &self.order[l..m] {
                if self.carved.givens[c] != 0 {
                    self.singles.place(c, self.solution[c])?;
                }
            }
            self.visit(m, r)?;
        }
        self.singles.undo(mark);
        Ok(())
    }

    /// Whether singles place the open cell `goal` once the cells `order[range]` are added
    /// (only those still given if `kept_only`), as they would at the fixpoint: propagation
    /// halts as soon as `goal` is placed, and the caller undoes to its mark.
    fn reaches(
        &mut self,
        range: std::ops::Range<usize>,
        goal: usize,
        kept_only: bool,
    ) -> Result<bool, PassStop> {
        if self.singles.values()[goal] != 0 {
            return Ok(true);
        }
        for &c in &self.order[range] {
            if (!kept_only || self.carved.givens[c] != 0)
                && self.singles.place_until(c, self.solution[c], goal)?
            {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Decides the cell `order[l]`: removed if singles place it from the givens without it.
    fn decide(&mut self, l: usize, placed: bool) -> Result<(), PassStop> {
        if self.carved.clues <= self.target {
            return Ok(());
        }
        self.leaves += 1;
        if self.leaves % 256 == 0 && self.deadline.expired().is_some() {
            return Err(PassStop::Time);
        }
        let c = self.order[l];
        self.visited = l + 1;
        if placed {
            self.carved.givens[c] = 0;
            self.carved.clues -= 1;
        } else {
            self.kept.push(c);
        }
        if let Some(p) = &mut self.progress {
            p.tick(self.visited, self.order.len(), self.carved.clues);
        }
        Ok(())
    }
}

/// Progress lines on stderr during long removal passes (wall clock only decides when to
/// print; the output does not depend on it).
struct Progress {
    attempt: u32,
    start: std::time::Instant,
    last: std::time::Instant,
}

impl Progress {
    fn new(attempt: u32) -> Self {
        let now = std::time::Instant::now();
        Progress {
            attempt,
            start: now,
            last: now,
        }
    }

    /// The closing line of a pass, if it printed any (it lasted 5 s or more).
    fn finish(&self, what: &str, visited: usize, cells: usize, givens: usize) {
        if self.start != self.last {
            eprintln!(
                "generate: attempt {}: {what} done: {givens} givens left ({:.1} %), {visited} of \
                 {cells} cells visited, {:.1} s",
                self.attempt,
                100.0 * givens as f64 / cells as f64,
                self.start.elapsed().as_secs_f64()
            );
        }
    }

    fn tick(&mut self, visited: usize, cells: usize, givens: usize) {
        if self.last.elapsed().as_secs_f64() >= 5.0 {
            self.last = std::time::Instant::now();
            eprintln!(
                "generate: attempt {}: {visited} of {cells} cells visited, {givens} givens \
                 left, {:.0} s",
                self.attempt,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

/// State of the balanced removal order.
struct Spread {
    /// Holes per house so far.
    holes: Vec<u32>,
    /// Rank of each cell's digit class in the pattern grid (0 for all without a pattern).
    class: Vec<u16>,
    /// Random rank of each cell, the last tie-break.
    cell_rank: Vec<u32>,
}

impl Spread {
    /// Records the removal of `cell`.
    fn removed(&mut self, g: &Geometry, cell: usize) {
        for &h in g.houses_of(cell) {
            self.holes[h as usize] += 1;
        }
    }

    /// The next `k` cells [`Spread::pick`] would visit if every removal succeeded.
    fn simulate(&self, g: &Geometry, unvisited: &[usize], k: usize) -> Vec<usize> {
        let mut sim = Spread {
            holes: self.holes.clone(),
            class: Vec::new(),
            cell_rank: Vec::new(),
        };
        let mut left = unvisited.to_vec();
        let mut out = Vec::with_capacity(k);
        while out.len() < k {
            let Some(i) = self.pick_with(&sim.holes, g, &left) else {
                break;
            };
            let c = left.swap_remove(i);
            sim.removed(g, c);
            out.push(c);
        }
        out
    }

    /// Index in `unvisited` of the next cell: the smallest (most holes in one of its houses,
    /// pattern class, random rank).
    fn pick(&self, g: &Geometry, unvisited: &[usize]) -> Option<usize> {
        self.pick_with(&self.holes, g, unvisited)
    }

    fn pick_with(&self, holes: &[u32], g: &Geometry, unvisited: &[usize]) -> Option<usize> {
        unvisited
            .iter()
            .enumerate()
            .min_by_key(|&(_, &c)| {
                let worst = g
                    .houses_of(c)
                    .iter()
                    .map(|&h| holes[h as usize])
                    .max()
                    .unwrap_or(0);
                (worst, self.class[c], self.cell_rank[c])
            })
            .map(|(i, _)| i)
    }
}

impl Iterator for Generator {
    type Item = Result<Puzzle, GenerateError>;

    /// Endless: take as many as needed.
    fn next(&mut self) -> Option<Self::Item> {
        Some(self.next_puzzle())
    }
}
