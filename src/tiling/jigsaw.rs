//! From tilings to sudoku: each tiling found is a jigsaw sudoku (regions = pieces, givens =
//! the pieces' givens where they were placed), solved with any sudolab engine.
//!
//! Source: the second half of D. de la Osa Fernández, "Sudoku de nominoes" (section 3.2,
//! "Resolviendo Sudoku"), which solves the board its tiling step produced; here the solver is
//! any engine of [`crate::engines`] (default `dlx`), run through [`engines::run`] so that
//! every solution is checked against the houses before it is counted.
//!
//! Tilings are streamed: the sudoku of a tiling is solved when the tiling is found, inside
//! the tiling search's time budget, and only digests and a few puzzles are kept, so memory
//! does not grow with the solutions' grids. Identical pieces swapped give the same puzzle:
//! each distinct puzzle (region layout up to renumbering, and givens) is solved once and its
//! answer reused for every tiling that gives it.

use super::place::Placements;
use super::{End, Method, PieceSet, SearchReport};
use crate::engines::{self, EngineError, EngineSpec, Limits, Outcome, Status};
use crate::puzzle::{Geometry, Puzzle};
use crate::search::Deadline;
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What `sudolab tile` asks for.
#[derive(Clone, Debug)]
pub struct TileOptions {
    /// Also place the pieces rotated and reflected.
    pub rotations: bool,
    /// Tiling methods to run, in order. The first one's tilings are solved as sudoku; the
    /// others only count theirs (to check that the methods agree).
    pub methods: Vec<Method>,
    /// Engine that solves each tiling's sudoku.
    pub engine: EngineSpec,
    /// Stop each tiling search after this many tilings (0 = all).
    pub max_tilings: u64,
    /// Solutions asked of each sudoku (2 = prove uniqueness, 0 = all).
    pub max_solutions: u64,
    /// Node limit of each tiling search and of each sudoku search (their own kinds of node).
    pub node_limit: Option<u64>,
    /// Wall-time limit of the whole call: every method's tiling search and the sudoku solves
    /// included (a second method gets what the first left).
    pub time_limit: Option<Duration>,
    /// Distinct puzzles with a solution to keep (with their solutions) for display.
    pub keep: usize,
}

impl Default for TileOptions {
    fn default() -> Self {
        TileOptions {
            rotations: false,
            methods: vec![Method::Dlx],
            engine: EngineSpec::new("dlx"),
            max_tilings: 0,
            max_solutions: 2,
            node_limit: None,
            time_limit: None,
            keep: 10,
        }
    }
}

/// A distinct puzzle met while tiling, with its sudoku answer.
#[derive(Clone, Debug)]
pub struct FoundPuzzle {
    /// 1-based number of the first tiling that gave it.
    pub tiling: u64,
    pub puzzle: Puzzle,
    pub outcome: Outcome,
}

/// Whether the methods found the same tilings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Agreement {
    /// Only one method ran.
    Single,
    /// Every search completed with the same count and the same set of tilings (digest).
    Same,
    /// Every search stopped at `--max-tilings` with the same count (the sets may differ: each
    /// method finds tilings in its own order).
    SameCount,
    /// A node or time limit stopped a search: nothing to compare.
    NotCompared(String),
    /// The methods disagree: a bug.
    Differ(String),
}

/// Sudoku answers over the tilings of the first method.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SudokuCounts {
    /// Labelled tilings whose puzzle has at least one solution / exactly one (proven) /
    /// none.
    pub tilings_solved: u64,
    pub tilings_unique: u64,
    pub tilings_unsat: u64,
    /// Distinct puzzles by answer; `undecided`: a limit stopped the sudoku search, or the
    /// engine failed; `unsupported`: the engine cannot solve jigsaw puzzles of this size.
    pub puzzles_unique: u64,
    pub puzzles_multiple: u64,
    /// Solved with `--max-solutions 1` (uniqueness not asked).
    pub puzzles_solved: u64,
    pub puzzles_unsat: u64,
    pub puzzles_undecided: u64,
    pub puzzles_unsupported: u64,
    /// Sum of the engine's nodes over the distinct puzzles.
    pub nodes: u64,
}

/// Everything `sudolab tile` reports.
#[derive(Clone, Debug)]
pub struct TileReport {
    pub n: usize,
    pub givens: usize,
    pub rotations: bool,
    /// Number of placements over all pieces (options of the exact cover).
    pub placements: usize,
    /// One report per method run, in order.
    pub runs: Vec<SearchReport>,
    pub agreement: Agreement,
    /// Distinct region layouts and distinct puzzles among the first method's tilings.
    pub layouts: u64,
    pub puzzles: u64,
    pub sudoku: SudokuCounts,
    /// Wall time spent solving sudoku.
    pub sudoku_time: Duration,
    /// The first `keep` distinct puzzles that have a solution, in the order found.
    pub shown: Vec<FoundPuzzle>,
    /// Engine failures (an invalid solution returned): bugs, reported apart.
    pub engine_errors: Vec<String>,
    /// Why the engine answered `unsupported` (its note, from the first such puzzle): the
    /// engine was the wrong choice for these boards, which is a usage error, not a finding.
    pub unsupported: Option<String>,
}

/// Tiles the board with `set`'s pieces by each method of `options` and solves the first
/// method's tilings as jigsaw sudoku. Fails only when the engine cannot be made.
pub fn tile_and_solve(set: &PieceSet, options: &TileOptions) -> Result<TileReport, EngineError> {
    let mut engine = options.engine.make()?;
    let placements = Placements::new(set, options.rotations);
    let limits = Limits {
        max_solutions: options.max_tilings,
        node_limit: options.node_limit,
        time_limit: options.time_limit,
        ..Limits::default()
    };
    let mut solver = Solver {
        n: set.n,
        engine: engine.as_mut(),
        options,
        layouts: HashSet::new(),
        puzzles: HashMap::new(),
        counts: SudokuCounts::default(),
        shown: Vec::new(),
        errors: Vec::new(),
        unsupported: None,
        tilings: 0,
        time: Duration::ZERO,
    };
    let mut runs = Vec::new();
    // One deadline for every method and sudoku solve: the limit is the whole call's.
    let deadline = Deadline::after(Instant::now(), options.time_limit, None);
    for (i, &method) in options.methods.iter().enumerate() {
        let limits = Limits {
            time_limit: deadline.remaining(),
            ..limits.clone()
        };
        let report = if i == 0 {
            method.enumerate(&placements, &limits, |tiling| {
                let (region, givens) = placements.board(tiling);
                solver.tiling(region, givens, &deadline);
            })
        } else {
            method.enumerate(&placements, &limits, |_| {})
        };
        runs.push(report);
    }
    let agreement = agreement(&runs);
    Ok(TileReport {
        n: set.n,
        givens: set.givens(),
        rotations: options.rotations,
        placements: placements.total(),
        runs,
        agreement,
        layouts: solver.layouts.len() as u64,
        puzzles: solver.puzzles.len() as u64,
        sudoku: solver.counts,
        sudoku_time: solver.time,
        shown: solver.shown,
        engine_errors: solver.errors,
        unsupported: solver.unsupported,
    })
}

/// Compares the runs of several methods.
fn agreement(runs: &[SearchReport]) -> Agreement {
    if runs.len() < 2 {
        return Agreement::Single;
    }
    if let Some(r) = runs
        .iter()
        .find(|r| matches!(r.end, End::NodeLimit | End::TimeLimit))
    {
        return Agreement::NotCompared(format!("{} stopped at its {}", r.method, r.end));
    }
    let first = &runs[0];
    for r in &runs[1..] {
        if r.tilings != first.tilings || r.end != first.end {
            return Agreement::Differ(format!(
                "{} found {} tilings ({}), {} found {} ({})",
                first.method, first.tilings, first.end, r.method, r.tilings, r.end
            ));
        }
        if r.end == End::Complete && r.digest != first.digest {
            return Agreement::Differ(format!(
                "{} and {} both found {} tilings, but not the same ones",
                first.method, r.method, r.tilings
            ));
        }
    }
    if first.end == End::Complete {
        Agreement::Same
    } else {
        Agreement::SameCount
    }
}

/// Solves the puzzle of each tiling, once per distinct puzzle.
struct Solver<'a> {
    n: usize,
    engine: &'a mut dyn engines::Engine,
    options: &'a TileOptions,
    layouts: HashSet<u64>,
    /// Digest of each distinct puzzle -> its status and solution count.
    puzzles: HashMap<u64, (Status, u64)>,
    counts: SudokuCounts,
    shown: Vec<FoundPuzzle>,
    errors: Vec<String>,
    unsupported: Option<String>,
    tilings: u64,
    time: Duration,
}

impl Solver<'_> {
    fn tiling(&mut self, region: Vec<u16>, givens: Vec<u16>, deadline: &Deadline) {
        self.tilings += 1;
        let region = canonical(&region, self.n);
        let layout_key = digest(&region);
        self.layouts.insert(layout_key);
        let puzzle_key = digest(&(&region, &givens));
        let (status, count) = match self.puzzles.get(&puzzle_key) {
            Some(&answer) => answer,
            None => {
                let answer = self.solve(region, givens, deadline);
                self.puzzles.insert(puzzle_key, answer);
                answer
            }
        };
        if count > 0 {
            self.counts.tilings_solved += 1;
        }
        match status {
            Status::Unique => self.counts.tilings_unique += 1,
            Status::Unsat => self.counts.tilings_unsat += 1,
            _ => {}
        }
    }

    /// Solves one new puzzle; returns its status and number of solutions.
    fn solve(&mut self, region: Vec<u16>, givens: Vec<u16>, deadline: &Deadline) -> (Status, u64) {
        let remaining = deadline.remaining();
        if remaining == Some(Duration::ZERO) {
            self.counts.puzzles_undecided += 1;
            return (Status::TimeLimit, 0);
        }
        // Pieces of N cells each, N of them, tiling the board: the layout is always valid.
        let puzzle = match Geometry::jigsaw(self.n, region)
            .map_err(|e| e.to_string())
            .and_then(|g| Puzzle::new(Arc::new(g), givens).map_err(|e| e.to_string()))
        {
            Ok(p) => p,
            Err(e) => {
                self.errors.push(format!("tiling {}: {e}", self.tilings));
                self.counts.puzzles_undecided += 1;
                return (Status::Error, 0);
            }
        };
        let limits = Limits {
            max_solutions: self.options.max_solutions,
            node_limit: self.options.node_limit,
            time_limit: remaining,
            keep_solutions: if self.shown.len() < self.options.keep {
                10
            } else {
                0
            },
            ..Limits::default()
        };
        let t = Instant::now();
        let outcome = engines::run(self.engine, &puzzle, &limits);
        self.time += t.elapsed();
        self.counts.nodes += outcome.stats.nodes;
        match outcome.status {
            Status::Unique => self.counts.puzzles_unique += 1,
            Status::Multiple => self.counts.puzzles_multiple += 1,
            Status::Solved => self.counts.puzzles_solved += 1,
            Status::Unsat => self.counts.puzzles_unsat += 1,
            Status::Error => {
                self.errors.push(format!(
                    "tiling {}: engine {}: {}",
                    self.tilings,
                    self.options.engine,
                    outcome.note.as_deref().unwrap_or("failed")
                ));
                self.counts.puzzles_undecided += 1;
            }
            Status::Unsupported => {
                self.counts.puzzles_unsupported += 1;
                if self.unsupported.is_none() {
                    self.unsupported = Some(outcome.note.clone().unwrap_or_else(|| {
                        format!("{} cannot solve this puzzle", self.options.engine)
                    }));
                }
            }
            _ => self.counts.puzzles_undecided += 1,
        }
        let answer = (outcome.status, outcome.count);
        if outcome.count > 0 && self.shown.len() < self.options.keep {
            self.shown.push(FoundPuzzle {
                tiling: self.tilings,
                puzzle,
                outcome,
            });
        }
        answer
    }
}

/// Regions renumbered in order of first appearance, so that layouts that differ only by the
/// labels of their regions (identical pieces swapped) compare equal.
pub fn canonical(region: &[u16], n: usize) -> Vec<u16> {
    let mut rename = vec![u16::MAX; n];
    let mut next = 0u16;
    region
        .iter()
        .map(|&r| {
            let slot = &mut rename[r as usize];
            if *slot == u16::MAX {
                *slot = next;
                next += 1;
            }
            *slot
        })
        .collect()
}

/// A 64-bit digest (std's SipHash with fixed keys). Collisions are possible in principle;
/// at 2^-64 per pair they are far below anything a run can meet.
fn digest<T: Hash>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}
