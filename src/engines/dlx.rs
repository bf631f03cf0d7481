//! `dlx`: Algorithm X with dancing links on the exact-cover matrix of the puzzle's houses.
//!
//! Sources: D. E. Knuth, "Dancing Links" (2000), arXiv cs/0011047; Knuth's program DLX1
//! (TAOCP 7.2.2.1, Algorithm X). The matrix is [`SudokuCover::full`] (one item per cell and per
//! (house, digit), one option per (cell, digit)); the search and the exact definition of every
//! counter are in [`crate::exact_cover::algorithm_x`].
//!
//! The matrix of a geometry is linked once and kept: the engine remembers the last geometry
//! (the same `Arc`, or an equal geometry) and reuses its links. For each puzzle
//! [`Links::start`] brings the links back to the matrix as built (a copy of the links as
//! built for matrices under 65 536 nodes, such as 9x9 and 16x16; relinking from the options
//! above) and selects the option of every given at the root (its items covered) before the
//! search; clashing givens end the puzzle as `unsat` with 0 nodes. The search is
//! [`Links::search_discarding`]: it does not undo its covers when it stops, nor back up
//! through levels that have no untried option left, since the next puzzle starts afresh
//! anyway. So a puzzle's answer and counts never depend on what was solved before, and they
//! are exactly those of DLX1 (`tests/dlx_counts.rs` checks them against counts recorded
//! by an implementation without the struct-of-arrays links, `tests/data/dlx-counts.txt`).
//!
//! Counters (see `algorithm_x` for the exact definitions): `nodes` = DLX1's nodes (levels
//! entered); `updates` = DLX1's updates, not counting the covers of the givens (so they equal
//! what DLX1 reports on the puzzle's own matrix, [`SudokuCover::for_puzzle`]); `guesses` =
//! levels whose chosen item had two or more options; `backtracks` = dead ends (levels whose
//! chosen item has no option left); `failed_levels` = levels left with no solution found
//! below them; `items` / `options` / `ones` = size of the matrix left after the
//! givens are covered, i.e. of the puzzle's own matrix. `build` = linking the matrix (first
//! puzzle of a geometry only), [`Links::start`] and covering the givens; `solve` = the search.
//!
//! Option `pre=true` runs Knuth's DLX-PRE option elimination ([`preprocess`](fn@crate::exact_cover::preprocess))
//! on the puzzle's own matrix before the search, and searches the reduced matrix, linked
//! afresh for the puzzle. `build` is then building the puzzle's matrix; `solve` the
//! preprocessing and the search. Counters `pre_removed` (options eliminated) and `pre_rounds`
//! (passes); `nodes`, `updates` and the other search counters are those of the search on the
//! reduced matrix; `items` / `options` / `ones` still describe the puzzle's own matrix before
//! preprocessing. Plain DLX1 (the default) is what the benchmarks against other DLX
//! implementations measure; `pre` pays a polynomial pass per puzzle that only large or very
//! hard grids repay (the 25x25 of `data/rk-25x25.txt`: about 4,800 nodes with it, no answer
//! within 10^8 nodes without it).
//!
//! Option `prop=locked` runs the first rule of DLX-PRE inside the search instead
//! ([`crate::exact_cover::propagate`]): at the root and after the covers of every option the
//! search tries, an item whose options all hold another item removes that item's other
//! options (in Sudoku terms, locked candidates: pointing and claiming), to a fixpoint, undone
//! when the search backs up. Counters `prop_removed` (options removed, summed over the
//! search) and `prop_fired` (times the rule removed something); `updates` then also counts
//! the nodes the elimination unlinks; `nodes` keeps its meaning (levels entered), and `build`
//! / `solve` split as without it (the elimination is part of the search). It combines with
//! `pre=true` (the elimination then runs on the reduced matrix).
//!
//! Killer puzzles (cages) and combined layouts (samurai) are searched on their own matrix,
//! [`KillerCover`] (TAOCP 7.2.2.1: one option per feasible filling of a cage, the items those
//! of the plain matrix less the void cells), built and linked afresh for each puzzle; over [`MAX_KILLER_OPTIONS`] options the answer is
//! `unsupported`, naming the cage that passes the bound. `build` is then building and
//! linking that matrix, `items` / `options` / `ones` describe it, and `nodes`, `updates` and
//! the other counters keep their meaning; `pre` and `prop` apply as to the plain matrix.
//!
//! Option `cages=colors` searches a killer puzzle (one with cages) on the colour matrix of
//! [`KillerColors`] instead: the plain matrix plus, per cage, one option per digit set of its
//! sum (not per filling), solved by Knuth's Algorithm C ([`ColorLinks`], TAOCP 7.2.2.1,
//! program DLX2). `nodes`, `updates`, `guesses`, `backtracks` and `failed_levels` keep the
//! meanings above (`updates` as DLX2 counts them, which for an option without colour is
//! DLX1's count); the named counter `cleansings` is DLX2's (see
//! [`crate::exact_cover::colors`]); `items` / `options` / `ones` describe the colour matrix.
//! Puzzles without cages take the plain path. `pre` and `prop` work on plain exact cover
//! and are refused with `cages=colors`. The default stays `cages=options`: the colour
//! matrix is far smaller but propagates less, and is slower at the median of the shared
//! janko set (0.17 against 0.11 ms), up to 1.9 s on one of its puzzles, and answers none of
//! the generated 16x16 killers within 2 s; it wins where a cage has very many fillings
//! (janko 148_9x9, a 9-cell cage: 10 ms against 1.25 s). Measured in results/README.md,
//! killer section.

use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Limits, OptionError, Outcome, Search, Sides,
    Status,
};
use crate::exact_cover::colors::ColorLinks;
use crate::exact_cover::killer::{KillerCover, TooManyOptions};
use crate::exact_cover::killer_colors::KillerColors;
use crate::exact_cover::{preprocess, ExactCover, Links, Preprocessed, Reduction, SudokuCover};
use crate::puzzle::{Geometry, Puzzle};
use std::sync::Arc;

/// Largest side accepted: the matrix has `N^3` options of 4 to 6 nodes.
pub const MAX_SIDE: usize = 128;

/// Bound on the options of a killer puzzle's matrix (one per filling of each cage): over it
/// the answer is `unsupported`, with the cage that passed it.
pub const MAX_KILLER_OPTIONS: u64 = 4_000_000;

pub static INFO: EngineInfo = EngineInfo {
    name: "dlx",
    summary: "Algorithm X with dancing links (Knuth's DLX1) on the exact-cover matrix over houses",
    source: "D. E. Knuth, \"Dancing Links\" (2000); program DLX1, TAOCP 7.2.2.1 Algorithm X; \
             with cages=colors program DLX2, TAOCP 7.2.2.1 Algorithm C",
    nodes:
        "search levels entered (DLX1's nodes); the givens are covered at the root and are not nodes",
    counters: "updates: DLX1's (+1 per item taken out of the header list, +1 per node removed \
               from another item's list; the givens' covers not counted); guesses: levels whose \
               chosen item had >= 2 options; backtracks: dead ends (levels whose chosen item has no \
               option left); failed_levels: levels left with no solution below them; \
               items/options/ones: the matrix left once the givens are covered; with pre=true: \
               pre_removed = options eliminated by DLX-PRE's rule, pre_rounds = its passes, and \
               the search counters count the search on the reduced matrix; with prop=locked: \
               prop_removed = options removed by the elimination in the search (summed over \
               the search, again after each backtrack), prop_fired = times the rule removed \
               something, and updates also count the nodes it unlinks; with cages=colors on a \
               killer: updates as DLX2 counts them (also the nodes purify hides), cleansings = \
               DLX2's (+1 per purify, +1 per option it keeps), items/options/ones the colour \
               matrix",
    sides: Sides::UpTo(MAX_SIDE),
    search_tree: true,
    capabilities: "any house list: classic, jigsaw, X, windoku, combined layouts (samurai); \
                   killer cages (one option per cage \
                   filling, at most 4,000,000 options); sides up to 128; option pre=false \
                   (default, DLX1 as published) | true (Knuth's DLX-PRE option elimination on \
                   the puzzle's matrix before the search); option prop=none (default) | locked \
                   (DLX-PRE's first rule, i.e. locked candidates, at the root and after every \
                   choice of the search, undone on backtrack); pre and prop combine; option \
                   cages=options (default: one option per cage filling) | colors (one option per \
                   digit set of a cage, exact cover with colours by Knuth's Algorithm C / DLX2; \
                   refuses pre and prop; fewer options but weaker propagation: slower at the \
                   janko median and 0 of 10 generated 16x16 killers within 2 s, faster only \
                   where a cage has very many fillings, as a 9-cell cage)",
    make,
    variants,
};

fn variants() -> Vec<EngineOptions> {
    vec![
        EngineOptions::new().with("pre", "true"),
        EngineOptions::new().with("prop", "locked"),
        EngineOptions::new()
            .with("pre", "true")
            .with("prop", "locked"),
        EngineOptions::new().with("cages", "colors"),
    ]
}

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("dlx", &["pre", "prop", "cages"])?;
    let pre = match options.get("pre") {
        None | Some("false") => false,
        Some("true") => true,
        Some(v) => {
            return Err(OptionError::BadValue {
                context: "dlx: ",
                key: "pre",
                expected: "true or false",
                value: v.to_string(),
            }
            .into())
        }
    };
    let prop = match options.get("prop") {
        None | Some("none") => false,
        Some("locked") => true,
        Some(v) => {
            return Err(OptionError::BadValue {
                context: "dlx: ",
                key: "prop",
                expected: "none or locked",
                value: v.to_string(),
            }
            .into())
        }
    };
    let colors = match options.get("cages") {
        None | Some("options") => false,
        Some("colors") => true,
        Some(v) => {
            return Err(OptionError::BadValue {
                context: "dlx: ",
                key: "cages",
                expected: "options or colors",
                value: v.to_string(),
            }
            .into())
        }
    };
    if colors && (pre || prop) {
        let which = if pre { "pre=true" } else { "prop=locked" };
        return Err(OptionError::Conflict {
            reason: format!(
                "dlx: cages=colors does not combine with {which} (it works on plain exact \
                 cover, without colours)"
            ),
        }
        .into());
    }
    Ok(Box::new(Dlx {
        pre,
        prop,
        colors,
        ..Dlx::new()
    }))
}

/// The matrix of one geometry, linked.
struct Prepared {
    geometry: Arc<Geometry>,
    matrix: SudokuCover,
    links: Links,
}

/// The `dlx` engine. Keeps the linked matrix of the last geometry it solved.
#[derive(Default)]
pub struct Dlx {
    /// Run DLX-PRE's elimination on each puzzle's matrix before the search.
    pre: bool,
    /// Run the elimination of `exact_cover::propagate` at every level of the search.
    prop: bool,
    /// Search killer puzzles on the colour matrix ([`KillerColors`], Algorithm C).
    colors: bool,
    prepared: Option<Prepared>,
    /// Solution grid under construction (givens, then the chosen options).
    grid: Vec<u16>,
}

impl Dlx {
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds (or keeps) the geometry's full matrix and links, reading the search's clock as it
    /// goes. False: a limit stopped the build, and nothing is kept.
    fn prepare(&mut self, g: &Arc<Geometry>, search: &mut Search) -> bool {
        let same = self
            .prepared
            .as_ref()
            .is_some_and(|p| Arc::ptr_eq(&p.geometry, g) || *p.geometry == **g);
        if !same {
            self.prepared = None; // free the old matrix before building the new one
            let mut stop = || !search.check_clock();
            let Some(matrix) = SudokuCover::full_until(g, &mut stop) else {
                return false;
            };
            let Some(links) = Links::new_until(matrix.cover(), &mut stop) else {
                return false;
            };
            self.prepared = Some(Prepared {
                geometry: Arc::clone(g),
                matrix,
                links,
            });
        }
        true
    }
}

impl Engine for Dlx {
    fn supports_cages(&self) -> bool {
        true
    }

    fn supports_geometry(&self, _: &Geometry) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        let n = puzzle.n();
        if n > MAX_SIDE {
            return Outcome::unsupported(format!(
                "dlx links N^3 options; side {n} is above its limit {MAX_SIDE}"
            ));
        }
        let mut search = Search::new(limits);
        if puzzle.has_cages() || puzzle.geometry().is_combined() {
            return self.solve_own_matrix(puzzle, search);
        }
        if !self.prepare(puzzle.shared_geometry(), &mut search) {
            search.built();
            return search.finish();
        }
        if self.pre {
            return self.solve_preprocessed(puzzle, search);
        }
        let Some(prep) = self.prepared.as_mut() else {
            unreachable!("prepared above")
        };
        let links = &mut prep.links;
        links.set_propagation(self.prop);
        let cover = prep.matrix.cover();
        let givens = puzzle.givens().iter().enumerate().filter(|g| *g.1 != 0);
        let selected = givens.map(|(cell, &d)| cover.option(cell * n + d as usize - 1));
        if links.start(selected).is_err() {
            let own = SudokuCover::for_puzzle(puzzle);
            let x = own.cover();
            search.stats.items = Some(x.items() as u64);
            search.stats.options = Some(x.options() as u64);
            search.stats.ones = Some(x.ones() as u64);
            search.stats.updates = Some(0);
            search.built();
            return search.finish_unsat();
        }
        search.built();
        let (items, options, ones) = links.remaining(Some(puzzle.geometry().cells()));
        search.stats.items = Some(items);
        search.stats.options = Some(options);
        search.stats.ones = Some(ones);
        let grid = &mut self.grid;
        grid.clear();
        grid.extend_from_slice(puzzle.givens());
        // The next puzzle relinks the lists: no need to undo the search's covers.
        links.search_discarding(&mut search, |s, chosen| {
            for &o in chosen {
                let o = o as usize;
                grid[o / n] = (o % n + 1) as u16;
            }
            s.solution(grid)
        });
        search.finish()
    }
}

/// A killer matrix over [`MAX_KILLER_OPTIONS`] options: `unsupported`, with the cage.
fn too_many(mut search: Search, e: TooManyOptions) -> Outcome {
    search.built();
    let mut o = search.finish();
    o.status = Status::Unsupported;
    o.note = Some(e.to_string());
    o
}

/// Why the preprocessing gave no reduced matrix: `Infeasible(true)` when it proved the
/// problem has no solution, `Infeasible(false)` when the search's limits stopped it.
struct Infeasible(bool);

/// DLX-PRE on `x`, its counters added to `search` (`updates` set to 0 when no search follows).
fn preprocess_counted(x: &ExactCover, search: &mut Search) -> Result<Reduction, Infeasible> {
    let result = preprocess(x, search);
    let pre = result.stats();
    search.stats.bump("pre_removed", pre.removed);
    search.stats.bump("pre_rounds", pre.rounds);
    match result {
        Preprocessed::Reduced(r) => Ok(r),
        Preprocessed::Infeasible { .. } => {
            search.stats.updates = Some(0);
            Err(Infeasible(true))
        }
        Preprocessed::Stopped(_) => {
            search.stats.updates = Some(0);
            Err(Infeasible(false))
        }
    }
}

impl Dlx {
    /// A killer puzzle or a combined layout: its own matrix ([`KillerCover`]: cage fillings,
    /// no void cells), linked afresh and searched (`pre` and `prop` apply as to the plain
    /// matrix).
    fn solve_own_matrix(&mut self, puzzle: &Puzzle, mut search: Search) -> Outcome {
        if puzzle.clash().is_some() {
            search.built();
            return search.finish_unsat();
        }
        if self.colors && puzzle.has_cages() {
            return self.solve_colors(puzzle, search);
        }
        let own = match KillerCover::for_puzzle(puzzle, MAX_KILLER_OPTIONS) {
            Ok(x) => x,
            Err(e) => return too_many(search, e),
        };
        let x = own.cover();
        search.stats.items = Some(x.items() as u64);
        search.stats.options = Some(x.options() as u64);
        search.stats.ones = Some(x.ones() as u64);
        let (cover, kept): (std::borrow::Cow<'_, ExactCover>, Option<Vec<usize>>) = if self.pre {
            search.built();
            match preprocess_counted(x, &mut search) {
                Ok(r) => (std::borrow::Cow::Owned(r.cover), Some(r.kept)),
                Err(Infeasible(true)) => return search.finish_unsat(),
                Err(Infeasible(false)) => return search.finish(),
            }
        } else {
            (std::borrow::Cow::Borrowed(x), None)
        };
        let mut links = Links::new(&cover);
        links.set_propagation(self.prop);
        if !self.pre {
            search.built();
        }
        let grid = &mut self.grid;
        grid.clear();
        grid.extend_from_slice(puzzle.givens());
        links.search_discarding(&mut search, |s, chosen| {
            for &o in chosen {
                let o = kept.as_ref().map_or(o as usize, |k| k[o as usize]);
                for &(cell, d) in own.placements(o) {
                    grid[cell as usize] = d;
                }
            }
            s.solution(grid)
        });
        search.finish()
    }

    /// `cages=colors` on a killer puzzle whose givens do not clash: the colour matrix
    /// ([`KillerColors`]), linked and searched by Algorithm C.
    fn solve_colors(&mut self, puzzle: &Puzzle, mut search: Search) -> Outcome {
        let own = match KillerColors::for_puzzle(puzzle, MAX_KILLER_OPTIONS) {
            Ok(x) => x,
            Err(e) => return too_many(search, e),
        };
        let x = own.cover();
        let mut links = ColorLinks::new(x);
        let (options, ones) = links.linked_size();
        search.stats.items = Some(x.items() as u64);
        search.stats.options = Some(options);
        search.stats.ones = Some(ones);
        search.built();
        let grid = &mut self.grid;
        grid.clear();
        grid.extend_from_slice(puzzle.givens());
        links.search(&mut search, |s, chosen| {
            for &o in chosen {
                if let Some((cell, d)) = own.placement(o as usize) {
                    grid[cell as usize] = d;
                }
            }
            s.solution(grid)
        });
        search.finish()
    }

    /// `pre=true`: the puzzle's own matrix, DLX-PRE's elimination, then the search on what is
    /// left (see the module doc).
    fn solve_preprocessed(&mut self, puzzle: &Puzzle, mut search: Search) -> Outcome {
        let Some(prep) = self.prepared.as_ref() else {
            unreachable!("prepared by solve")
        };
        let own = prep.matrix.eliminate(puzzle.givens());
        let x = own.cover();
        search.stats.items = Some(x.items() as u64);
        search.stats.options = Some(x.options() as u64);
        search.stats.ones = Some(x.ones() as u64);
        search.built();
        let reduced = match preprocess_counted(x, &mut search) {
            Ok(r) => r,
            Err(Infeasible(true)) => return search.finish_unsat(),
            Err(Infeasible(false)) => return search.finish(),
        };
        let mut links = Links::new(&reduced.cover);
        links.set_propagation(self.prop);
        let grid = &mut self.grid;
        grid.clear();
        grid.extend_from_slice(puzzle.givens());
        links.search_discarding(&mut search, |s, chosen| {
            for &o in chosen {
                let (cell, d) = own.placement(reduced.kept[o as usize]);
                grid[cell] = d;
            }
            s.solution(grid)
        });
        search.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{self, Stats, Status};
    use crate::exact_cover::{read_dlx1, solve_exact_cover, to_dlx1};
    use std::time::Duration;

    /// An 81-character line (`0` or `.` empty) as givens.
    fn givens(line: &str) -> Vec<u16> {
        line.bytes()
            .take(81)
            .map(|b| {
                if b.is_ascii_digit() {
                    (b - b'0') as u16
                } else {
                    0
                }
            })
            .collect()
    }

    /// The matrix and links are built under the clock: a limit that passes during the build
    /// ends the puzzle with nothing kept, and the next puzzle of that geometry builds them
    /// in full.
    #[test]
    fn the_build_reads_the_clock_and_keeps_nothing_partial() {
        let g = Arc::new(Geometry::square(36).unwrap());
        let empty = Puzzle::empty(g);
        let passed = Limits {
            time_limit: Some(Duration::from_nanos(1)),
            ..Limits::solutions(1)
        };
        let mut dlx = Dlx::new();
        let o = engines::run(&mut dlx, &empty, &passed);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(dlx.prepared.is_none());
        let o = engines::run(&mut dlx, &empty, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
        assert!(dlx.prepared.is_some());
    }

    fn classic() -> Arc<Geometry> {
        Arc::new(Geometry::square(9).unwrap())
    }

    fn puzzle(g: &Arc<Geometry>, line: &str) -> Puzzle {
        Puzzle::new(g.clone(), givens(line)).unwrap()
    }

    /// Puzzle lines of a data file (`#` comments skipped), at most `max`.
    fn data(file: &str, max: usize) -> Vec<String> {
        let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && l.len() >= 81)
            .take(max)
            .map(str::to_string)
            .collect()
    }

    /// nodes, updates, guesses, backtracks, items, options, ones.
    type Counts = (
        u64,
        Option<u64>,
        u64,
        u64,
        Option<u64>,
        Option<u64>,
        Option<u64>,
    );

    fn counts(s: &Stats) -> Counts {
        (
            s.nodes,
            s.updates,
            s.guesses,
            s.backtracks,
            s.items,
            s.options,
            s.ones,
        )
    }

    const X_GRID: &str =
        "254367198376189425189542673567491382491238567823756914715924836642813759938675241";
    const X_PUZZLE: &str =
        "004000098006089400100500000000000080400200007803050000000904800600000009030075000";
    const JIGSAW: &str = crate::exact_cover::tests::JIGSAW;
    const JIGSAW_GRID: &str =
        "785491623624719385391268574179356248943827156852643791236985417417532869568174932";
    const JIGSAW_PUZZLE: &str =
        "085000003000010005300260070009000048000000050000003001036005407407000000500174000";

    #[test]
    fn known_puzzles_have_their_unique_solution() {
        let g = classic();
        let mut e = Dlx::new();
        let lines: Vec<String> = data("norvig-top95.txt", 40)
            .into_iter()
            .chain(data("magictour-top1465.txt", 40))
            .chain(data("royle-17clue.txt", 40))
            .collect();
        for line in &lines {
            let p = puzzle(&g, line);
            let o = engines::run(&mut e, &p, &Limits::solutions(2));
            assert_eq!(o.status, Status::Unique, "{line}");
            assert_eq!(o.count, 1);
            p.check_solution(&o.solutions[0]).unwrap();
            assert!(o.stats.nodes >= 1 && o.stats.updates.unwrap() > 0);
        }
        // Norvig's first "top95" puzzle, whose solution is published with it.
        let p = puzzle(&g, &lines[0]);
        let o = e.solve(&p, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
        let s: String = o.solutions[0].iter().map(|d| d.to_string()).collect();
        assert_eq!(
            s,
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
        );
    }

    #[test]
    fn x_and_jigsaw_puzzles() {
        let x = Arc::new(Geometry::square(9).unwrap().with_diagonals(true));
        x.check_grid(&givens(X_GRID)).unwrap();
        let p = puzzle(&x, X_PUZZLE);
        let mut e = Dlx::new();
        let o = engines::run(&mut e, &p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], givens(X_GRID));
        // Without the diagonals the same givens leave more than one grid.
        let o = engines::run(&mut e, &puzzle(&classic(), X_PUZZLE), &Limits::solutions(2));
        assert_eq!(o.status, Status::Multiple);

        let regions = JIGSAW.bytes().map(|b| (b - b'0') as u16).collect();
        let j = Arc::new(Geometry::jigsaw(9, regions).unwrap());
        assert_eq!(j.disconnected_region(), None);
        j.check_grid(&givens(JIGSAW_GRID)).unwrap();
        let p = puzzle(&j, JIGSAW_PUZZLE);
        let o = engines::run(&mut e, &p, &Limits::solutions(0));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], givens(JIGSAW_GRID));
    }

    #[test]
    fn counts_empty_4x4_and_two_solution_puzzles() {
        let g = Arc::new(Geometry::square(4).unwrap());
        let mut e = Dlx::new();
        let o = engines::run(&mut e, &Puzzle::empty(g), &Limits::solutions(0));
        assert_eq!((o.status, o.count), (Status::Multiple, 288));
        let mut distinct = o.solutions.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 288);

        // A deadly rectangle: cells (r1, c1) (r1, c2) (r2, c1) (r2, c2) holding a b / b a in
        // exactly two boxes. Emptying them leaves exactly two grids.
        let g = classic();
        let full = givens(X_GRID);
        let (r1, r2, c1, c2) = (1, 3, 1, 2);
        assert_eq!(full[r1 * 9 + c1], full[r2 * 9 + c2]);
        assert_eq!(full[r1 * 9 + c2], full[r2 * 9 + c1]);
        let mut cut = full.clone();
        for c in [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2] {
            cut[c] = 0;
        }
        let p = Puzzle::new(g, cut).unwrap();
        let o = engines::run(&mut e, &p, &Limits::solutions(0));
        assert_eq!((o.status, o.count), (Status::Multiple, 2));
        assert!(o.solutions.contains(&full));
        let o = engines::run(&mut e, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count), (Status::Multiple, 2));
        let o = engines::run(&mut e, &p, &Limits::solutions(1));
        assert_eq!((o.status, o.count), (Status::Solved, 1));
    }

    #[test]
    fn a_full_grid_is_its_own_unique_solution_with_no_node() {
        let g = classic();
        let p = puzzle(&g, X_GRID);
        let mut e = Dlx::new();
        let o = engines::run(&mut e, &p, &Limits::solutions(2));
        assert_eq!((o.status, o.count, o.stats.nodes), (Status::Unique, 1, 0));
        assert_eq!(o.solutions[0], givens(X_GRID));
        assert_eq!((o.stats.items, o.stats.options), (Some(0), Some(0)));
        let o = engines::run(&mut e, &p, &Limits::solutions(1));
        assert_eq!((o.status, o.count), (Status::Solved, 1));
    }

    #[test]
    fn clashing_givens_are_unsat_with_no_node() {
        let g = classic();
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "55");
        let mut e = Dlx::new();
        let o = engines::run(&mut e, &puzzle(&g, &line), &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsat);
        assert_eq!((o.count, o.stats.nodes, o.stats.updates), (0, 0, Some(0)));
        // The structure is clean afterwards.
        let lines = data("norvig-top95.txt", 1);
        let a = e.solve(&puzzle(&g, &lines[0]), &Limits::solutions(2));
        let b = Dlx::new().solve(&puzzle(&g, &lines[0]), &Limits::solutions(2));
        assert_eq!(counts(&a.stats), counts(&b.stats));
    }

    #[test]
    fn limits_are_reported_and_leave_the_matrix_clean() {
        let g = classic();
        let hard = &data("forum-hardest-1106.txt", 1)[0];
        let mut e = Dlx::new();
        let reference = Dlx::new().solve(&puzzle(&g, hard), &Limits::solutions(2));
        assert!(reference.stats.nodes > 10);
        let limits = Limits {
            node_limit: Some(10),
            ..Limits::solutions(2)
        };
        let o = e.solve(&puzzle(&g, hard), &limits);
        assert_eq!((o.status, o.stats.nodes), (Status::NodeLimit, 10));
        let limits = Limits {
            time_limit: Some(Duration::from_millis(20)),
            ..Limits::solutions(0)
        };
        let o = e.solve(&Puzzle::empty(g.clone()), &limits);
        assert_eq!(o.status, Status::TimeLimit);
        assert!(o.count > 0);
        let again = e.solve(&puzzle(&g, hard), &Limits::solutions(2));
        assert_eq!(counts(&again.stats), counts(&reference.stats));
        assert_eq!(again.solutions, reference.solutions);
    }

    #[test]
    fn matrix_is_reused_and_stats_repeat() {
        let g = classic();
        let lines = data("magictour-top1465.txt", 2);
        let (a, b) = (puzzle(&g, &lines[0]), puzzle(&g, &lines[1]));
        let mut e = Dlx::new();
        let first = e.solve(&a, &Limits::solutions(2));
        let addr = e.prepared.as_ref().map(|p| &p.links as *const Links);
        let other = e.solve(&b, &Limits::solutions(2));
        let again = e.solve(&a, &Limits::solutions(2));
        assert_eq!(addr, e.prepared.as_ref().map(|p| &p.links as *const Links));
        assert_eq!(counts(&first.stats), counts(&again.stats));
        assert_eq!(first.solutions, again.solutions);
        assert_ne!(counts(&first.stats), counts(&other.stats));
        // An equal geometry in another Arc reuses the links too.
        let g2 = classic();
        let o = e.solve(&puzzle(&g2, &lines[0]), &Limits::solutions(2));
        assert_eq!(addr, e.prepared.as_ref().map(|p| &p.links as *const Links));
        assert_eq!(counts(&o.stats), counts(&first.stats));
        // A new geometry is linked anew.
        let o = e.solve(
            &Puzzle::empty(Arc::new(Geometry::square(4).unwrap())),
            &Limits::solutions(2),
        );
        assert_eq!(o.status, Status::Multiple);
    }

    fn with_pre() -> Dlx {
        Dlx {
            pre: true,
            ..Dlx::new()
        }
    }

    /// `pre=true` gives the same answers as plain DLX1 (it only removes options that are in
    /// no solution). Its trees are smaller in total, not on every puzzle: with fewer options
    /// the fewest-options rule may pick another item, and a heuristic is not monotone.
    #[test]
    fn preprocessing_agrees_with_plain_dlx() {
        let g = classic();
        let lines: Vec<String> = data("forum-hardest-1106.txt", 30)
            .into_iter()
            .chain(data("magictour-top1465.txt", 30))
            .collect();
        let (mut plain, mut pre) = (Dlx::new(), with_pre());
        let mut removed = 0;
        let mut nodes = (0, 0);
        for line in &lines {
            let p = puzzle(&g, line);
            let a = engines::run(&mut plain, &p, &Limits::solutions(2));
            let b = engines::run(&mut pre, &p, &Limits::solutions(2));
            assert_eq!((a.status, a.count), (b.status, b.count), "{line}");
            assert_eq!(a.solutions, b.solutions, "{line}");
            assert_eq!(
                (a.stats.items, a.stats.options),
                (b.stats.items, b.stats.options)
            );
            nodes.0 += a.stats.nodes;
            nodes.1 += b.stats.nodes;
            removed += b.stats.counter("pre_removed").unwrap();
            assert!(b.stats.counter("pre_rounds").unwrap() >= 1);
        }
        assert!(removed > 0);
        assert!(nodes.1 < nodes.0, "{nodes:?}");
        // Several solutions, and none.
        let two = Puzzle::empty(Arc::new(Geometry::square(4).unwrap()));
        let o = engines::run(&mut pre, &two, &Limits::solutions(0));
        assert_eq!((o.status, o.count), (Status::Multiple, 288));
        let x = Arc::new(Geometry::square(9).unwrap().with_diagonals(true));
        let o = engines::run(&mut pre, &puzzle(&x, X_PUZZLE), &Limits::solutions(2));
        assert_eq!(o.solutions, [givens(X_GRID)]);
        let mut line = ".".repeat(81);
        line.replace_range(0..2, "55");
        let o = engines::run(&mut pre, &puzzle(&g, &line), &Limits::solutions(2));
        assert_eq!((o.status, o.stats.nodes), (Status::Unsat, 0));
        // A puzzle whose givens do not clash but leave a cell with no candidate left after
        // elimination: r1c1 sees 1-8 in its row and 9 in its column.
        let mut line = ".".repeat(81);
        line.replace_range(1..9, "12345678");
        line.replace_range(9..10, "9");
        let o = engines::run(&mut pre, &puzzle(&g, &line), &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsat);
        assert_eq!(
            engines::run(&mut plain, &puzzle(&g, &line), &Limits::solutions(2)).status,
            Status::Unsat
        );
    }

    /// The 25x25 puzzle of `data/rk-25x25.txt`: plain DLX1 passes a million nodes without an
    /// answer; with DLX-PRE's elimination the search proves it unique in a few thousand.
    #[test]
    fn preprocessing_solves_the_25x25() {
        let path = format!("{}/data/rk-25x25.txt", env!("CARGO_MANIFEST_DIR"));
        let p = crate::puzzle::read_puzzles(std::path::Path::new(&path))
            .unwrap()
            .remove(0);
        let limits = Limits {
            node_limit: Some(1_000_000),
            ..Limits::solutions(2)
        };
        let plain = engines::run(&mut Dlx::new(), &p, &limits);
        assert_eq!(plain.status, Status::NodeLimit);
        let o = engines::run(&mut with_pre(), &p, &limits);
        assert_eq!((o.status, o.count), (Status::Unique, 1));
        assert!(o.stats.nodes < 100_000, "{} nodes", o.stats.nodes);
        p.check_solution(&o.solutions[0]).unwrap();
    }

    /// The engine's counts are DLX1's on the puzzle's own matrix, also through the DLX1 text.
    #[test]
    fn engine_counts_equal_the_puzzles_own_matrix() {
        let g = classic();
        let x = Arc::new(Geometry::square(9).unwrap().with_diagonals(true));
        let regions = JIGSAW.bytes().map(|b| (b - b'0') as u16).collect();
        let j = Arc::new(Geometry::jigsaw(9, regions).unwrap());
        let mut puzzles: Vec<Puzzle> = data("magictour-top1465.txt", 10)
            .iter()
            .map(|l| puzzle(&g, l))
            .collect();
        puzzles.push(puzzle(&x, X_PUZZLE));
        puzzles.push(puzzle(&j, JIGSAW_PUZZLE));
        let mut e = Dlx::new();
        for p in &puzzles {
            for cap in [1, 2] {
                let o = e.solve(p, &Limits::solutions(cap));
                let own = SudokuCover::for_puzzle(p);
                let c = solve_exact_cover(own.cover(), &Limits::solutions(cap));
                assert_eq!(counts(&o.stats), counts(&c.stats));
                assert_eq!(o.status, c.status);
                let grids: Vec<_> = c.solutions.iter().map(|s| own.grid(s)).collect();
                assert_eq!(o.solutions, grids);
                let text = to_dlx1(own.cover(), &["a puzzle"]);
                let back = read_dlx1(&text).unwrap();
                let d = solve_exact_cover(&back, &Limits::solutions(cap));
                assert_eq!(counts(&d.stats), counts(&c.stats));
                assert_eq!(crate::exact_cover::side_from_names(&back), Some(9));
                let placed = crate::exact_cover::decode_named(&back, 9, &d.solutions[0]).unwrap();
                let mut grid = p.givens().to_vec();
                for (cell, digit) in placed {
                    grid[cell] = digit;
                }
                assert_eq!(grid, o.solutions[0]);
            }
        }
    }

    #[test]
    fn large_grids() {
        // rk-16x16 (unique), on the compact links.
        let text =
            std::fs::read_to_string(format!("{}/data/rk-16x16.txt", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        let givens: Vec<u16> = text
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let p = Puzzle::new(Arc::new(Geometry::square(16).unwrap()), givens).unwrap();
        let mut e = Dlx::new();
        let o = engines::run(&mut e, &p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(e.prepared.as_ref().unwrap().links.representation(), "tiny");
        // A 25x25 grid made by formula, a third of its cells emptied: the u32 links.
        let n = 25;
        let full: Vec<u16> = (0..n * n)
            .map(|c| {
                let (r, k) = (c / n, c % n);
                ((5 * (r % 5) + r / 5 + k) % n + 1) as u16
            })
            .collect();
        let g = Arc::new(Geometry::square(n).unwrap());
        g.check_grid(&full).unwrap();
        let cut: Vec<u16> = full
            .iter()
            .enumerate()
            .map(|(c, &d)| if c % 3 == 1 { 0 } else { d })
            .collect();
        let p = Puzzle::new(g, cut).unwrap();
        let o = engines::run(&mut e, &p, &Limits::solutions(1));
        assert_eq!(o.status, Status::Solved);
        assert_eq!(e.prepared.as_ref().unwrap().links.representation(), "large");
        assert_eq!(o.stats.items, Some(4 * 625 - 4 * (625 - 208)));
    }

    #[test]
    fn registered() {
        let info = engines::find("dlx").unwrap();
        assert!((info.make)(&EngineOptions::new()).is_ok());
        assert!((info.make)(&EngineOptions::new().with("x", "1")).is_err());
        let colors = EngineOptions::new().with("cages", "colors");
        assert!((info.make)(&colors).is_ok());
        assert!((info.make)(&EngineOptions::new().with("cages", "options")).is_ok());
        let e = (info.make)(&EngineOptions::new().with("cages", "sets")).err();
        assert!(e
            .unwrap()
            .to_string()
            .contains("cages must be options or colors"));
        let e = (info.make)(&colors.clone().with("pre", "true")).err();
        assert!(e
            .unwrap()
            .to_string()
            .contains("cages=colors does not combine with pre=true"));
        let e = (info.make)(&colors.with("prop", "locked")).err();
        assert!(e.unwrap().to_string().contains("with prop=locked"));
    }

    /// `cages=colors`: a killer is searched on the colour matrix (its counters say so), a
    /// puzzle without cages on the plain matrix, with the plain engine's counts.
    #[test]
    fn colors_apply_to_cages_only() {
        let mut colors = Dlx {
            colors: true,
            ..Dlx::new()
        };
        let g = Arc::new(Geometry::square(4).unwrap());
        let killer = Puzzle::empty(g.clone())
            .with_cages(vec![(vec![0, 1], 3), (vec![2, 3], 7)])
            .unwrap();
        let o = engines::run(&mut colors, &killer, &Limits::solutions(0));
        let plain = engines::run(&mut Dlx::new(), &killer, &Limits::solutions(0));
        assert_eq!((o.status, o.count), (plain.status, plain.count));
        assert_eq!(o.count, 288 / 6);
        assert!(o.stats.counter("cleansings").unwrap() > 0);
        // 2 cages + 16 cells + 48 (house, digit); 2 x 8 secondary.
        assert_eq!(o.stats.items, Some(82));
        let empty = Puzzle::empty(g);
        let o = engines::run(&mut colors, &empty, &Limits::solutions(0));
        let plain = engines::run(&mut Dlx::new(), &empty, &Limits::solutions(0));
        assert_eq!(counts(&o.stats), counts(&plain.stats));
        assert_eq!(o.stats.counter("cleansings"), None);
        // Clashing givens in a cage, and a node limit.
        let mut givens = vec![0; 16];
        givens[0] = 2;
        givens[1] = 2;
        let clash = Puzzle::new(Arc::new(Geometry::square(4).unwrap()), givens)
            .unwrap()
            .with_cages(vec![(vec![0, 1], 4)])
            .unwrap();
        let o = engines::run(&mut colors, &clash, &Limits::solutions(2));
        assert_eq!((o.status, o.stats.nodes), (Status::Unsat, 0));
        let limits = Limits {
            node_limit: Some(3),
            ..Limits::solutions(0)
        };
        let o = engines::run(&mut colors, &killer, &limits);
        assert_eq!((o.status, o.stats.nodes), (Status::NodeLimit, 3));
    }
}
