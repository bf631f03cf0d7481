//! `gac`: constraint programming with generalised arc consistency on every all-different.
//!
//! # The model
//!
//! One variable per cell, its domain the digits `1..=N` (a given: its digit alone). Every
//! house of the geometry (rows, columns, boxes or regions, diagonals, windoku windows, the
//! houses of combined layouts) is an all-different constraint, filtered to generalised arc
//! consistency by Régin's matching algorithm (J.-C. Régin, "A filtering algorithm for
//! constraints of difference in CSPs", AAAI 1994; `alldiff.rs`). Every killer cage is one
//! constraint, all-different plus sum, filtered to generalised arc consistency by its digit
//! combinations (`cages.rs`). This is the classic model of quasigroup completion and Sudoku
//! in constraint programming (Gomes and Shmoys, "Completing quasigroups or latin squares: a
//! structured graph coloring problem", 2002; Simonis, "Sudoku as a constraint problem",
//! 2005, who finds that GAC on the all-differents solves most published 9x9 puzzles without
//! search).
//!
//! # Propagation
//!
//! A queue of constraints (first in, first out), each in it at most once. The root enqueues
//! all; a domain change enqueues every constraint on the cell except the one that made it
//! (each filter leaves its own constraint arc consistent). A constraint whose filter finds no
//! support fails the node. Propagation ends at the fixpoint: every constraint is then
//! arc consistent, so a node whose domains are all singletons is a solution.
//!
//! # Search
//!
//! Depth first, with binary branching (`x = v` first, then `x != v`), undone by a trail of
//! domains (`domains.rs`). The variable `x` is chosen among the cells with two or more values:
//!
//! - `branch=dom` (default): the smallest domain, the first cell in row-major order on ties
//!   (Haralick and Elliott 1980, "fail first");
//! - `branch=domwdeg`: the smallest ratio of domain size to weighted degree (Boussemart,
//!   Hemery, Lecoutre and Sais, "Boosting systematic search by weighting constraints", ECAI
//!   2004): every constraint has a weight, 1 at the start, plus 1 each time its filter fails
//!   a node; a cell's weighted degree is the sum of the weights of its constraints (all of
//!   them, a common simplification of the paper's count of constraints with another free
//!   variable). Weights persist across restarts.
//!
//! and `v` is its smallest value.
//!
//! # Restarts
//!
//! `restarts=luby` (Luby, Sinclair and Zuckerman, "Optimal speedup of Las Vegas algorithms",
//! 1993: run `i` may fail `unit * luby(i)` nodes, 1 1 2 1 1 2 4 ...) or `restarts=geometric`
//! (run `i` may fail `unit * 1.5^(i-1)` nodes) restart the search from the root when a run
//! has failed that many nodes. Option `unit` sets the unit, in failed nodes (default 64). With restarts on, ties of the variable choice
//! are broken uniformly at random (seed: option `seed`, default 0): the randomisation and
//! restarts of Gomes, Selman and Kautz ("Boosting combinatorial search through
//! randomization", AAAI 1998), which cut the heavy tail of the runtimes of one fixed order.
//! A run that ends without a restart is complete, so counts stay exact: a solution found
//! again after a restart is not counted twice (the solutions found are kept to recognise them;
//! past 10,000 of them restarts stop and the run at hand goes on to the end).
//!
//! # Counters
//!
//! - `nodes`: nodes of the search tree entered: the root of each run plus every branch
//!   (`x = v` or `x != v`) entered;
//! - `guesses`: branchings (cells chosen), each with two alternatives;
//! - `backtracks`: failed nodes (a constraint without support, or an empty domain);
//! - `propagations`: runs of a constraint's filter;
//! - `removals`: values removed from domains by the filters (not by the branching);
//! - `restarts`: runs abandoned for a restart.
//!
//! Puzzles whose givens clash are `unsat` before any search (no node, no dead end). The
//! trail is bounded by 2 GiB; past it the search stops with `memory-limit`, as does a puzzle
//! whose cages have more than 1,000,000 combinations in all.

mod alldiff;
mod cages;
mod domains;

use self::alldiff::{AllDiff, ValueSets};
use self::domains::{Change, Domains};
use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Limits, OptionError, Outcome, Search, Sides,
};
use crate::puzzle::{Geometry, Puzzle};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashSet, VecDeque};

pub static INFO: EngineInfo = EngineInfo {
    name: "gac",
    summary: "constraint programming: all-different on every house filtered to generalised \
              arc consistency (Régin's matching), cages by their digit combinations, binary \
              branching on the smallest domain, optional dom/wdeg and randomised restarts",
    source: "J.-C. Régin, \"A filtering algorithm for constraints of difference in CSPs\", \
             AAAI 1994; Boussemart et al., ECAI 2004 (dom/wdeg); Gomes, Selman and Kautz, \
             AAAI 1998 (randomised restarts)",
    nodes: "nodes of the search tree entered: the root of each run plus every branch \
            (x = v or x != v) entered",
    counters: "guesses = branchings (2 alternatives each); backtracks = failed nodes; \
               propagations = runs of a constraint's filter; removals = values removed by the \
               filters; restarts = runs abandoned for a restart",
    sides: Sides::Any,
    search_tree: true,
    capabilities: "any geometry (boxes, jigsaw regions, diagonals, windoku windows, combined \
                   layouts such as samurai), any side; killer cages on sides up to 64; counts \
                   solutions up to the cap; options branch=dom (default) | domwdeg, \
                   restarts=none (default) | luby | geometric, unit=N (failures per restart \
                   unit, default 64), seed=N (tie-breaking with restarts)",
    make,
    variants,
};

/// `verify` also runs dom/wdeg and the randomised restarts: they must find the same answers.
fn variants() -> Vec<EngineOptions> {
    vec![
        EngineOptions::new().with("branch", "domwdeg"),
        EngineOptions::new().with("restarts", "luby"),
    ]
}

/// The variable choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Branch {
    Dom,
    DomWdeg,
}

/// The restart policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Restarts {
    None,
    Luby,
    Geometric,
}

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("gac", &["branch", "restarts", "seed", "unit"])?;
    let branch = match options.get("branch") {
        None | Some("dom") => Branch::Dom,
        Some("domwdeg") => Branch::DomWdeg,
        Some(v) => {
            return Err(OptionError::BadValue {
                context: "engine gac: ",
                key: "branch",
                expected: "dom or domwdeg",
                value: v.to_string(),
            }
            .into())
        }
    };
    let restarts = match options.get("restarts") {
        None | Some("none") => Restarts::None,
        Some("luby") => Restarts::Luby,
        Some("geometric") => Restarts::Geometric,
        Some(v) => {
            return Err(OptionError::BadValue {
                context: "engine gac: ",
                key: "restarts",
                expected: "none, luby or geometric",
                value: v.to_string(),
            }
            .into())
        }
    };
    let seed = match options.get("seed") {
        None => 0,
        Some(v) => v.parse().map_err(|_| OptionError::BadValue {
            context: "engine gac: ",
            key: "seed",
            expected: "a whole number from 0 to 18446744073709551615",
            value: v.to_string(),
        })?,
    };
    let unit = match options.get("unit") {
        None => 64,
        Some(v) => match v.parse() {
            Ok(u) if u >= 1 => u,
            _ => {
                return Err(OptionError::BadValue {
                    context: "engine gac: ",
                    key: "unit",
                    expected: "a whole number from 1 to 18446744073709551615",
                    value: v.to_string(),
                }
                .into())
            }
        },
    };
    Ok(Box::new(Gac {
        branch,
        restarts,
        seed,
        unit,
        filter: AllDiff::default(),
    }))
}

struct Gac {
    branch: Branch,
    restarts: Restarts,
    seed: u64,
    unit: u64,
    filter: AllDiff,
}

impl Engine for Gac {
    fn supports_cages(&self) -> bool {
        true
    }

    /// Every layout: the constraints are the house list; void cells have no variable.
    fn supports_geometry(&self, _: &Geometry) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        let mut search = Search::new(limits);
        if puzzle.clash().is_some() {
            return search.finish_unsat();
        }
        if puzzle.has_cages() && puzzle.n() > 64 {
            let mut o = search.finish();
            o.status = super::Status::Unsupported;
            o.note = Some("gac takes killer cages on sides up to 64".into());
            return o;
        }
        let Some(mut model) = Model::build(puzzle, &mut search) else {
            let mut o = search.finish();
            o.note = Some(format!(
                "the cages have more than {MAX_COMBINATIONS} digit combinations in all"
            ));
            return o;
        };
        search.built();
        let options = Run {
            branch: self.branch,
            restarts: self.restarts,
            seed: self.seed,
            unit: self.unit,
        };
        run(&mut model, &mut self.filter, &options, &mut search);
        let counters = [
            ("propagations", model.propagations),
            ("removals", model.removals),
            ("restarts", model.restarts),
        ];
        for (name, v) in counters {
            search.stats.bump(name, v);
        }
        search.finish()
    }
}

/// Combinations of all the cages of a puzzle, at most.
const MAX_COMBINATIONS: usize = 1_000_000;

/// Bytes of trail allowed.
const MAX_TRAIL_BYTES: usize = 2 << 30;

/// Past this many solutions found, restarts stop (see the module doc).
const MAX_REMEMBERED: usize = 10_000;

/// The constraint network of one puzzle and its propagation state.
struct Model {
    n: usize,
    doms: Domains,
    /// Constraint `c`'s cells: `cells[start[c]..start[c + 1]]`; houses first, then cages.
    start: Vec<u32>,
    cells: Vec<u32>,
    houses: usize,
    /// Per cage: its combinations `combos[combo_start[k]..combo_start[k + 1]]`.
    combo_start: Vec<u32>,
    combos: Vec<u64>,
    /// Constraints of each cell (CSR).
    of_start: Vec<u32>,
    of_cell: Vec<u32>,
    /// Per constraint: the matching kept for Régin's filter (one entry per cell).
    matched: Vec<u32>,
    weight: Vec<u64>,
    /// Per cell: the sum of the weights of its constraints.
    wdeg: Vec<u64>,
    queue: VecDeque<u32>,
    queued: Vec<bool>,
    /// Cells of the grid (not void), for the variable choice.
    live: Vec<u32>,
    propagations: u64,
    /// Cells times side of the filter calls since the clock was last read (see `propagate`).
    unclocked: u64,
    removals: u64,
    restarts: u64,
    /// Scratch: a cage's masked domains and the union of its supports.
    masked: Vec<u64>,
    union: Vec<u64>,
}

/// Why propagation stopped early.
enum Fail {
    /// Constraint `c` has no support (or a domain emptied).
    Conflict(usize),
    /// A limit (clock or cancel) said stop.
    Stopped,
}

/// A constraint's cells as the filter's variables.
struct View<'a> {
    doms: &'a Domains,
    cells: &'a [u32],
}

impl ValueSets for View<'_> {
    fn words(&self) -> usize {
        self.doms.words()
    }
    fn dom(&self, var: usize) -> &[u64] {
        self.doms.get(self.cells[var] as usize)
    }
}

impl Model {
    /// The network of `puzzle`; `None` when its cages pass [`MAX_COMBINATIONS`] (the search
    /// is then stopped with `memory-limit`).
    fn build(puzzle: &Puzzle, search: &mut Search) -> Option<Model> {
        let g = puzzle.geometry();
        let (n, cells) = (g.n(), g.cells());
        let mut doms = Domains::full(cells, n);
        let mut start = vec![0u32];
        let mut list = Vec::new();
        for h in g.houses() {
            list.extend_from_slice(h);
            start.push(list.len() as u32);
        }
        let houses = g.house_count();
        let mut combo_start = vec![0u32];
        let mut combos = Vec::new();
        for cage in puzzle.cages() {
            list.extend_from_slice(cage.cells());
            start.push(list.len() as u32);
            let cap = MAX_COMBINATIONS - combos.len();
            if !crate::puzzle::digit_set_masks(n, cage.len(), cage.sum(), cap, &mut combos) {
                search.out_of_memory();
                return None;
            }
            combo_start.push(combos.len() as u32);
        }
        let constraints = start.len() - 1;
        let mut count = vec![0u32; cells + 1];
        for &c in &list {
            count[c as usize + 1] += 1;
        }
        for i in 0..cells {
            count[i + 1] += count[i];
        }
        let mut of_cell = vec![0u32; list.len()];
        let mut fill = count.clone();
        for k in 0..constraints {
            for &c in &list[start[k] as usize..start[k + 1] as usize] {
                of_cell[fill[c as usize] as usize] = k as u32;
                fill[c as usize] += 1;
            }
        }
        let mut live = Vec::with_capacity(cells);
        for (c, &d) in puzzle.givens().iter().enumerate() {
            if g.is_void(c) {
                doms.clear_untrailed(c);
            } else {
                live.push(c as u32);
                if d != 0 {
                    doms.assign(c, usize::from(d) - 1);
                }
            }
        }
        let wdeg = (0..cells)
            .map(|c| u64::from(count[c + 1] - count[c]))
            .collect();
        Some(Model {
            n,
            doms,
            matched: vec![u32::MAX; list.len()],
            cells: list,
            start,
            houses,
            combo_start,
            combos,
            of_start: count,
            of_cell,
            weight: vec![1; constraints],
            wdeg,
            queue: VecDeque::with_capacity(constraints),
            queued: vec![false; constraints],
            live,
            propagations: 0,
            unclocked: 0,
            removals: 0,
            restarts: 0,
            masked: Vec::new(),
            union: Vec::new(),
        })
    }

    fn constraints(&self) -> usize {
        self.start.len() - 1
    }

    fn enqueue(&mut self, k: usize) {
        if !self.queued[k] {
            self.queued[k] = true;
            self.queue.push_back(k as u32);
        }
    }

    /// Enqueues the constraints on `cell`, except `but`.
    fn changed(&mut self, cell: usize, but: usize) {
        for i in self.of_start[cell]..self.of_start[cell + 1] {
            let k = self.of_cell[i as usize] as usize;
            if k != but {
                self.enqueue(k);
            }
        }
    }

    fn clear_queue(&mut self) {
        while let Some(k) = self.queue.pop_front() {
            self.queued[k as usize] = false;
        }
    }

    /// Runs the queue to its fixpoint.
    fn propagate(&mut self, filter: &mut AllDiff, search: &mut Search) -> Result<(), Fail> {
        while let Some(k) = self.queue.pop_front() {
            let k = k as usize;
            self.queued[k] = false;
            self.propagations += 1;
            // The clock every 64 filter calls, or sooner when they are large: a filter's cost
            // grows with its cells times the side (a house of a 1024x1024 grid takes
            // milliseconds on full domains), so `unclocked` sums that product since the last
            // check, which is due past 2^16 (one house call from side 256 up).
            let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
            self.unclocked += ((b - a) * self.n) as u64;
            if self.propagations % 64 == 0 || self.unclocked >= 1 << 16 {
                self.unclocked = 0;
                if !search.check_clock() {
                    self.clear_queue();
                    return Err(Fail::Stopped);
                }
            }
            let ok = if k < self.houses {
                self.filter_house(k, filter)
            } else {
                self.filter_cage(k, filter)
            };
            if !ok {
                self.clear_queue();
                return Err(Fail::Conflict(k));
            }
        }
        Ok(())
    }

    /// Régin's filter on house `k`, its supports applied to the domains.
    fn filter_house(&mut self, k: usize, filter: &mut AllDiff) -> bool {
        let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
        let view = View {
            doms: &self.doms,
            cells: &self.cells[a..b],
        };
        if !filter.filter(&view, b - a, self.n, &mut self.matched[a..b]) {
            return false;
        }
        let w = self.doms.words();
        for i in 0..b - a {
            let cell = self.cells[a + i] as usize;
            let before = self.doms.size(cell);
            if self
                .doms
                .restrict(cell, &filter.support[i * w..(i + 1) * w])
                == Change::Reduced
            {
                self.removals += u64::from(before - self.doms.size(cell));
                self.changed(cell, k);
            }
        }
        true
    }

    /// The cage filter of [`cages`] on cage constraint `k`, its supports applied to the domains.
    fn filter_cage(&mut self, k: usize, filter: &mut AllDiff) -> bool {
        let (a, b) = (self.start[k] as usize, self.start[k + 1] as usize);
        let len = b - a;
        let cage = k - self.houses;
        let (ca, cb) = (
            self.combo_start[cage] as usize,
            self.combo_start[cage + 1] as usize,
        );
        let supported = cages::supports(
            &self.doms,
            &self.cells[a..b],
            &self.combos[ca..cb],
            self.n,
            filter,
            &mut self.matched[a..b],
            &mut self.masked,
            &mut self.union,
        );
        if !supported {
            return false;
        }
        for i in 0..len {
            let cell = self.cells[a + i] as usize;
            let before = self.doms.size(cell);
            if self.doms.restrict(cell, &self.union[i..i + 1]) == Change::Reduced {
                self.removals += u64::from(before - self.doms.size(cell));
                self.changed(cell, k);
            }
        }
        true
    }

    /// Adds 1 to the weight of constraint `k` (dom/wdeg).
    fn bump(&mut self, k: usize) {
        self.weight[k] += 1;
        for &c in &self.cells[self.start[k] as usize..self.start[k + 1] as usize] {
            self.wdeg[c as usize] += 1;
        }
    }

    /// The cell to branch on, `None` when every cell is fixed. Ties go to the first cell, or
    /// to a uniformly random one with `rng` (reservoir sampling).
    fn choose(&self, branch: Branch, mut rng: Option<&mut ChaCha8Rng>) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut ties = 0u32;
        for &c in &self.live {
            let c = c as usize;
            let size = self.doms.size(c);
            if size < 2 {
                continue;
            }
            let order = match best {
                None => std::cmp::Ordering::Less,
                Some(b) => match branch {
                    Branch::Dom => size.cmp(&self.doms.size(b)),
                    Branch::DomWdeg => (u64::from(size) * self.wdeg[b])
                        .cmp(&(u64::from(self.doms.size(b)) * self.wdeg[c])),
                },
            };
            match order {
                std::cmp::Ordering::Less => {
                    best = Some(c);
                    ties = 1;
                }
                std::cmp::Ordering::Equal => {
                    if let Some(r) = rng.as_deref_mut() {
                        ties += 1;
                        if r.gen_range(0..ties) == 0 {
                            best = Some(c);
                        }
                    }
                }
                std::cmp::Ordering::Greater => {}
            }
        }
        best
    }

    fn grid(&self) -> Vec<u16> {
        let mut grid = vec![0u16; self.doms.cells()];
        for &c in &self.live {
            let c = c as usize;
            grid[c] = self.doms.first(c).map_or(0, |v| v as u16 + 1);
        }
        grid
    }
}

/// The search options.
struct Run {
    branch: Branch,
    restarts: Restarts,
    seed: u64,
    unit: u64,
}

/// A pending branching: the trail mark before it, the cell and value, and whether the
/// second branch (`cell != value`) was entered.
struct Frame {
    mark: usize,
    cell: usize,
    value: usize,
    second: bool,
}

/// The `i`-th term (from 1) of Luby's sequence 1 1 2 1 1 2 4 ...
fn luby(mut i: u64) -> u64 {
    loop {
        let mut k = 1u32;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// The failure budget of run `r` (from 1).
fn cutoff(options: &Run, r: u64) -> Option<u64> {
    match options.restarts {
        Restarts::None => None,
        Restarts::Luby => Some(options.unit.saturating_mul(luby(r))),
        Restarts::Geometric => {
            Some((options.unit as f64 * 1.5f64.powi(r.min(200) as i32 - 1)).min(1e18) as u64)
        }
    }
}

fn run(model: &mut Model, filter: &mut AllDiff, options: &Run, search: &mut Search) {
    let mut rng =
        (options.restarts != Restarts::None).then(|| ChaCha8Rng::seed_from_u64(options.seed));
    // The root: every constraint on the givens' domains.
    if !search.node() {
        return;
    }
    for k in 0..model.constraints() {
        model.enqueue(k);
    }
    match model.propagate(filter, search) {
        Ok(()) => {}
        Err(Fail::Conflict(_)) => {
            search.stats.backtracks += 1;
            return;
        }
        Err(Fail::Stopped) => return,
    }
    let root = model.doms.branch();
    let mut stack: Vec<Frame> = Vec::new();
    let mut run_index = 1u64;
    let mut budget = cutoff(options, run_index);
    let mut failures = 0u64;
    let mut seen: HashSet<Vec<u16>> = HashSet::new();
    loop {
        // At a node at its fixpoint.
        let mut failed = false;
        match model.choose(options.branch, rng.as_mut()) {
            None => {
                let grid = model.grid();
                // With restarts on, every solution is remembered; after them, the earlier
                // ones are recognised and the new ones need not be kept.
                let fresh = if budget.is_some() {
                    seen.insert(grid.clone())
                } else {
                    !seen.contains(&grid)
                };
                if fresh && !search.solution(&grid) {
                    return;
                }
                if budget.is_some() && seen.len() >= MAX_REMEMBERED {
                    budget = None;
                }
            }
            Some(cell) => {
                if model.doms.trail_bytes() > MAX_TRAIL_BYTES {
                    search.out_of_memory();
                    return;
                }
                search.stats.guesses += 1;
                let value = model.doms.first(cell).expect("a free cell has values");
                let mark = model.doms.branch();
                stack.push(Frame {
                    mark,
                    cell,
                    value,
                    second: false,
                });
                if !search.node() {
                    return;
                }
                model.doms.assign(cell, value);
                model.changed(cell, usize::MAX);
                match model.propagate(filter, search) {
                    Ok(()) => continue,
                    Err(Fail::Stopped) => return,
                    Err(Fail::Conflict(k)) => {
                        model.bump(k);
                        search.stats.backtracks += 1;
                        failed = true;
                    }
                }
            }
        }
        if failed {
            failures += 1;
        }
        // Backtrack: enter the next second branch.
        loop {
            if budget.is_some_and(|b| failures >= b) {
                model.doms.undo(root);
                stack.clear();
                model.restarts += 1;
                run_index += 1;
                failures = 0;
                budget = cutoff(options, run_index);
                if seen.len() >= MAX_REMEMBERED {
                    budget = None;
                }
                if !search.node() {
                    return;
                }
                break;
            }
            let Some(frame) = stack.last_mut() else {
                return;
            };
            model.doms.undo(frame.mark);
            if frame.second {
                stack.pop();
                continue;
            }
            frame.second = true;
            let (cell, value) = (frame.cell, frame.value);
            if !search.node() {
                return;
            }
            // `cell` had two or more values, so removing one leaves it non-empty.
            model.doms.remove(cell, value);
            model.changed(cell, usize::MAX);
            match model.propagate(filter, search) {
                Ok(()) => break,
                Err(Fail::Stopped) => return,
                Err(Fail::Conflict(k)) => {
                    model.bump(k);
                    search.stats.backtracks += 1;
                    failures += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{run as run_engine, EngineSpec, Status};
    use crate::puzzle::Geometry;
    use std::sync::Arc;

    fn solve(spec: &str, p: &Puzzle, limits: &Limits) -> Outcome {
        let mut e = spec.parse::<EngineSpec>().unwrap().make().unwrap();
        run_engine(e.as_mut(), p, limits)
    }

    fn puzzle(n: usize, r: usize, c: usize, line: &str) -> Puzzle {
        let g = Arc::new(Geometry::boxed(n, r, c).unwrap());
        let givens = line
            .bytes()
            .map(|b| if b == b'.' { 0 } else { u16::from(b - b'0') })
            .collect();
        Puzzle::new(g, givens).unwrap()
    }

    /// The clock is read after every filter call of a large house: a search cancelled
    /// before it starts stops after one call on a 256x256 grid, not 64 (a 1024x1024 grid
    /// overran a 0.1 s limit by 0.7 s while 64 house filters ran on full domains).
    #[test]
    fn large_houses_read_the_clock_after_each_filter_call() {
        let p = Puzzle::empty(Arc::new(Geometry::boxed(256, 16, 16).unwrap()));
        let limits = Limits {
            cancel: Some(Arc::new(std::sync::atomic::AtomicBool::new(true))),
            ..Limits::solutions(2)
        };
        let o = solve("gac", &p, &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert_eq!(o.stats.counter("propagations"), Some(1));
    }

    #[test]
    fn luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn counts_every_solution_of_the_empty_4x4_in_a_full_binary_tree() {
        let p = Puzzle::empty(Arc::new(Geometry::boxed(4, 2, 2).unwrap()));
        let all = Limits {
            keep_solutions: usize::MAX,
            ..Limits::solutions(0)
        };
        for spec in ["gac", "gac:branch=domwdeg"] {
            let o = solve(spec, &p, &all);
            assert_eq!((o.status, o.count), (Status::Multiple, 288), "{spec}");
            let mut seen = o.solutions.clone();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 288);
            // Exhausted without restarts: each branching entered both of its branches.
            assert_eq!(o.stats.nodes, 1 + 2 * o.stats.guesses, "{spec}");
        }
    }

    /// Restarts find the same solutions, each counted once, though a solution found in one
    /// run is found again in the next.
    #[test]
    fn restarts_count_each_solution_once() {
        let all = Limits {
            keep_solutions: usize::MAX,
            ..Limits::solutions(0)
        };
        // A hard unique puzzle (206 failures for gac), and the same with one given fewer
        // (3,455 solutions).
        let hard =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        for (line, specs) in [
            (
                hard,
                &[
                    "gac:restarts=luby,unit=1",
                    "gac:restarts=luby,unit=2,branch=domwdeg",
                ][..],
            ),
            (
                "...........3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3",
                &["gac:restarts=geometric,unit=16,seed=7"][..],
            ),
        ] {
            let p = puzzle(9, 3, 3, line);
            let plain = solve("gac", &p, &all);
            assert!(plain.stats.backtracks > 100, "{line}");
            for spec in specs {
                let o = solve(spec, &p, &all);
                assert_eq!((o.status, o.count), (plain.status, plain.count), "{spec}");
                let (mut a, mut b) = (o.solutions.clone(), plain.solutions.clone());
                a.sort();
                b.sort();
                assert_eq!(a, b, "{spec}");
                assert!(o.stats.counter("restarts").unwrap() > 3, "{spec}");
            }
        }
    }

    #[test]
    fn limits_stop_the_search() {
        let p = Puzzle::empty(Arc::new(Geometry::boxed(25, 5, 5).unwrap()));
        let limits = Limits {
            node_limit: Some(50),
            ..Limits::solutions(0)
        };
        let o = solve("gac", &p, &limits);
        assert_eq!((o.status, o.stats.nodes), (Status::NodeLimit, 50));
        let limits = Limits {
            time_limit: Some(std::time::Duration::from_millis(50)),
            ..Limits::solutions(0)
        };
        let o = solve("gac:restarts=luby", &p, &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(o.wall < std::time::Duration::from_secs(5), "{:?}", o.wall);
    }

    #[test]
    fn clashing_givens_are_unsat_without_search() {
        let p = puzzle(4, 2, 2, "11..............");
        let o = solve("gac", &p, &Limits::solutions(2));
        assert_eq!((o.status, o.stats.nodes), (Status::Unsat, 0));
        // No clash, but no solution: found by propagation at the root.
        let p = puzzle(4, 2, 2, "12....3.........");
        let o = solve("gac", &p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsat);
    }

    #[test]
    fn bad_options_are_named() {
        for (spec, word) in [
            ("gac:branch=random", "branch"),
            ("gac:restarts=often", "restarts"),
            ("gac:unit=0", "unit"),
            ("gac:seed=x", "seed"),
            ("gac:depth=3", "depth"),
        ] {
            let e = spec.parse::<EngineSpec>().unwrap().make().err().unwrap();
            assert!(e.to_string().contains(word), "{spec}: {e}");
        }
    }
}
