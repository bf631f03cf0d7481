//! `binary`: the binary decision tree of Daniel de la Osa Fernández, "Documento de Ejemplo para
//! la Jornada Científica Estudiantil" (a jigsaw Sudoku solver in Haskell; Spanish), section 3.2
//! "Resolviendo Sudoku".
//!
//! # The method, as the source states it
//!
//! The board carries, for each empty cell, its list of possible values ("posibilidades") under
//! the rules. At each node of the search:
//!
//! 1. The possibilities are updated, fixing every cell with a single possible value, until no
//!    cell has a one-element list.
//! 2. Base cases: the board is *blocked* (an empty cell with no possible value): this branch
//!    fails (`Nothing`); or the board is *complete*: a solution.
//! 3. Otherwise a *pivot* is chosen, the cell with the fewest possible values, and two boards
//!    are made from the current one: if the pivot has exactly two values, one fixes the first
//!    and the other the second; if it has more, one fixes its first value and the other keeps
//!    the cell empty with that value removed from its possibilities. The search goes into the
//!    first and, if it fails, into the second: a depth-first search of a binary tree where each
//!    node is a decision to fill a cell or to remove one of its possibilities.
//!
//! # How this engine states it precisely
//!
//! - **Houses.** Row, column and nomino (jigsaw piece) are the houses of the geometry: boxes,
//!   regions and diagonals all work the same way. Fixing a value removes it from the
//!   possibilities of every cell sharing a house with the cell.
//! - **Propagation is naked singles only**, as in the source. Possibilities are updated on
//!   each placement and the cells that become singles are queued (first in, first out) rather
//!   than rescanned; the cells fixed are those of repeated scans whenever the node is not
//!   blocked. Propagation stops at the first empty cell left with no possibility: the node is
//!   then blocked whatever else would be fixed.
//! - **Pivot**: the empty cell with the fewest possibilities, the first in row-major order on
//!   ties; "first value" = smallest digit. With two possibilities `{a, b}` (a < b) the branches
//!   are "fix a", "fix b"; with more, "fix a" and "remove a".
//! - **Depth first, first branch first**, with an explicit stack instead of recursion: at a
//!   branching the current board is saved (digits and possibilities) with the second branch's
//!   decision, and the first branch is entered in place. When a branch ends (blocked or a
//!   solution) the last saved board is restored and its pending decision applied.
//! - **Saved boards** honour `max_live` (read as the number of saved boards) and a cap of
//!   2 GiB of saved boards; past either the search stops with `memory-limit`.
//! - **All solutions.** To count solutions up to `max_solutions` (1 first, 2 prove uniqueness,
//!   0 all) the search goes on after a solution as if that branch had failed.
//!
//! # Option `propagation=hidden` (not the source's method)
//!
//! Naked singles alone leave the tree large on hard puzzles: about 26,000 nodes per 17-clue
//! puzzle on average when proving uniqueness (Royle's 49,151 puzzles), against about 11 with
//! hidden singles. The source's own recommendation (section 5) is to fix
//! `k` values that belong to exactly `k` possibility lists of a row; its case `k = 1` in every
//! house is the hidden single. With `propagation=hidden` each node's propagation also runs
//! passes of hidden singles over every house (as the `human` engine's Deep Filler: naked
//! singles to their fixpoint, then one pass over the houses, again while the pass fills
//! something), and a node is also blocked when a digit has no place left in a house. The
//! default, `propagation=naked`, is the source's method.
//!
//! # Cages (killer sudoku): an extension, not the source's method
//!
//! The source's possibilities are the values "possible under the rules"; with cages, a cage
//! is one more rule, and a value is possible in a cage cell only if it belongs to a feasible
//! combination of the cage: distinct digits, none already placed in the cage, adding up to
//! what the cage's sum has left, each empty cell of the cage having one of them (the step
//! of `cage_rules` restricted to cages: no innies/outies, no placing of
//! required digits, which would go past the source's naked singles). Step 1 then alternates
//! the naked singles with one pass over the cages until neither changes anything; a cage
//! with no feasible combination blocks the node, and a complete board passes the cages once
//! (which checks their digits and sums) before it is a solution.
//!
//! # Counters
//!
//! - `nodes`: nodes of the binary tree entered: the root (the board with the givens placed)
//!   plus each branch entered (both children of a branching once both are explored). In an
//!   exhausted search `nodes = 1 + 2 * guesses`.
//! - `guesses`: branchings (nodes that were neither blocked nor complete after propagation);
//!   each has 2 alternatives.
//! - `backtracks`: dead ends, i.e. blocked nodes (the root included).
//! - `forced`: cells fixed by propagation of single possibilities (step 1), in every node,
//!   including on a node then found blocked (up to the first empty possibility list).
//! - `forced_hidden` (only with `propagation=hidden`): cells fixed as hidden singles.
//! - `cage_removals` (only with cages): possibilities removed by the cage step.
//!
//! Puzzles whose givens clash are `unsat` before any search (no node, no dead end).

use super::bits::Bits;
use super::cage_rules::{CageCounts, CageRules};
use super::candidates::{Meter, Step, Workspace};
use super::{
    Engine, EngineError, EngineInfo, EngineOptions, Limits, OptionError, Outcome, Search, Sides,
};
use crate::puzzle::Puzzle;
use std::any::Any;

pub static INFO: EngineInfo = EngineInfo {
    name: "binary",
    summary: "binary decision tree: fix forced singles, then branch on the cell with fewest \
              possibilities (fix its first value / remove it), depth first",
    source: "Daniel de la Osa Fernández, \"Documento de Ejemplo para la Jornada Científica \
             Estudiantil\" (jigsaw Sudoku in Haskell), section 3.2 \"Resolviendo Sudoku\"",
    nodes: "nodes of the binary tree entered: the root plus each branch entered \
            (1 + 2 * guesses when the search is exhausted)",
    counters: "guesses = branchings (2 alternatives each); backtracks = dead ends (blocked nodes: \
               an empty cell with no possibility, or a cage with no feasible combination); \
               forced = cells fixed by propagation of single possibilities; cage_removals \
               (killer only) = possibilities removed by the cages' combinations",
    sides: Sides::Any,
    search_tree: true,
    capabilities: "any geometry (boxes, jigsaw regions, diagonals, windoku windows, combined \
                   layouts such as samurai), any side up to MAX_SIDE; \
                   killer cages (possibilities limited to the cages' feasible combinations: an \
                   extension of the source); counts solutions up to the cap; option propagation=naked (default, the \
                   source) | hidden (adds hidden singles, counter forced_hidden)",
    make,
    variants,
};

/// `verify` also runs the hidden-singles propagation: it must find the same solutions.
fn variants() -> Vec<EngineOptions> {
    vec![EngineOptions::new().with("propagation", "hidden")]
}

fn make(options: &EngineOptions) -> Result<Box<dyn Engine>, EngineError> {
    options.allow_only("binary", &["propagation"])?;
    let hidden = match options.get("propagation") {
        None | Some("naked") => false,
        Some("hidden") => true,
        Some(other) => {
            return Err(OptionError::BadValue {
                context: "engine binary: ",
                key: "propagation",
                expected: "naked (the source) or hidden",
                value: other.to_string(),
            }
            .into())
        }
    };
    Ok(Box::new(Binary {
        hidden,
        workspace: None,
    }))
}

/// The engine keeps its working storage (boards, queue, saved stack) between puzzles.
struct Binary {
    /// `propagation=hidden`: hidden singles too (not in the source's method; see the module doc).
    hidden: bool,
    workspace: Option<Box<dyn Any + Send>>,
}

impl Engine for Binary {
    fn supports_cages(&self) -> bool {
        true
    }

    /// Every layout: the board is written from the house list, and a void cell is a filled
    /// cell in no house ([`super::candidates::VOID`]).
    fn supports_geometry(&self, _: &crate::puzzle::Geometry) -> bool {
        true
    }

    fn solve(&mut self, puzzle: &Puzzle, limits: &Limits) -> Outcome {
        crate::with_bits!(puzzle.n(), B => {
            let mut ws = Workspace::<B>::take(&mut self.workspace);
            let outcome = solve(&mut ws, puzzle, limits, self.hidden);
            self.workspace = Some(ws);
            outcome
        })
    }
}

/// The decision of a pending second branch.
#[derive(Clone, Copy, Debug)]
enum Decision {
    /// Fix the cell to this digit (0-based).
    Fix(usize),
    /// Remove this digit (0-based) from the cell's possibilities, keeping the cell empty.
    Remove(usize),
}

fn solve<B: Bits>(
    ws: &mut Workspace<B>,
    puzzle: &Puzzle,
    limits: &Limits,
    hidden: bool,
) -> Outcome {
    let mut search = Search::new(limits);
    if puzzle.clash().is_some() {
        return search.finish_unsat();
    }
    let Workspace {
        peers,
        board,
        queue,
        saved,
    } = ws;
    let net = peers.net(puzzle.shared_geometry());
    let geo = net.geo;
    saved.reset(geo, true);
    let rules = CageRules::new(puzzle, false);
    let mut cage = CageCounts::default();
    // Pending second branch of each saved board: the cell and the decision to apply.
    let mut pending: Vec<(usize, Decision)> = Vec::new();
    // Cells fixed by propagation: naked singles, and hidden singles with the option.
    let (mut forced, mut forced_hidden) = (0u64, 0u64);
    let mut meter = Meter::default();
    // The root: givens placed. `blocked` = the node at hand has an empty cell without
    // possibility.
    let mut blocked = !board.load(puzzle, queue);
    search.built();

    if search.node() {
        loop {
            let step = if blocked {
                Step::Contradiction
            } else {
                let fh = hidden.then_some(&mut forced_hidden);
                rules.propagate(
                    board,
                    &net,
                    queue,
                    &mut forced,
                    fh,
                    &mut cage,
                    &mut meter,
                    &mut search,
                )
            };
            match step {
                Step::Stop => break,
                Step::Contradiction => search.stats.backtracks += 1,
                Step::Ok if board.empty == 0 => {
                    if !search.solution(&board.answer()) {
                        break;
                    }
                }
                Step::Ok => {
                    // Branch on the pivot; it has >= 2 possibilities after propagation.
                    let (c, poss) = board
                        .fewest_candidates(2)
                        .expect("an incomplete board has an empty cell");
                    // Scanning and saving a board is work between nodes: on huge grids it
                    // must count towards the clock.
                    if !meter.charge(2 * geo.cells(), &mut search) {
                        break;
                    }
                    if !saved.has_room(limits.max_live) {
                        search.out_of_memory();
                        break;
                    }
                    search.stats.guesses += 1;
                    let a = poss.first().expect("a pivot has possibilities");
                    let second = if poss.count() == 2 {
                        let mut rest = poss;
                        rest.remove(a);
                        Decision::Fix(rest.first().expect("two possibilities"))
                    } else {
                        Decision::Remove(a)
                    };
                    saved.push(board);
                    pending.push((c, second));
                    if !search.node() {
                        break;
                    }
                    blocked = !board.place(&net, c, a, queue);
                    continue;
                }
            }
            // The branch ended (blocked or a solution): enter the last pending second branch.
            let Some((c, decision)) = pending.pop() else {
                break;
            };
            saved.restore_top(board, geo);
            saved.pop();
            queue.clear();
            if !meter.charge(geo.cells(), &mut search) {
                break;
            }
            if !search.node() {
                break;
            }
            blocked = match decision {
                Decision::Fix(d) => !board.place(&net, c, d, queue),
                Decision::Remove(d) => {
                    // The pivot had >= 3 possibilities, so >= 2 remain: no cell is blocked
                    // or made a naked single by this decision itself.
                    board.cand[c].remove(d);
                    false
                }
            };
        }
    }

    search.stats.bump("forced", forced);
    if hidden {
        search.stats.bump("forced_hidden", forced_hidden);
    }
    if puzzle.has_cages() {
        search.stats.bump("cage_removals", cage.cage_removals);
    }
    search.finish()
}

#[cfg(test)]
mod tests {
    use super::super::candidates::testing;
    use super::super::Status;
    use super::*;

    fn engine() -> Box<dyn Engine> {
        make(&EngineOptions::new()).unwrap()
    }

    #[test]
    fn rejects_options() {
        assert!(make(&EngineOptions::new().with("order", "lifo")).is_err());
    }

    // The checks both candidate-board engines must pass (sizes, variants, limits).
    crate::candidate_engine_tests!(engine);

    #[test]
    fn royle_first_5_unique() {
        testing::royle(&mut *engine(), 5);
    }

    #[test]
    #[ignore = "slow in debug: naked singles alone need ~16,000 nodes per 17-clue puzzle"]
    fn royle_first_200_unique() {
        testing::royle(&mut *engine(), 200);
    }

    #[test]
    #[ignore = "slow: every 17-clue puzzle"]
    fn royle_all_unique() {
        testing::royle(&mut *engine(), usize::MAX);
    }

    #[test]
    fn counters_are_consistent() {
        // Exhausting the search (max_solutions 0): every node entered is blocked, complete or
        // a branching, and every branching has both children entered.
        for p in testing::pe96().iter().take(10) {
            let o = testing::solve(&mut *engine(), p, &Limits::solutions(0));
            let s = &o.stats;
            assert_eq!(s.nodes, 1 + 2 * s.guesses);
            assert_eq!(s.nodes, s.guesses + s.backtracks + o.count);
        }
    }

    #[test]
    fn tree_matches_a_reference_implementation() {
        // Nodes / branchings / blocked nodes of the first three 17-clue puzzles (max_solutions
        // 2), as computed by an independent recursive transcription of section 3.2 (Python,
        // sets of possibilities, rescanning for singles).
        let text = testing::data("royle-17clue.txt");
        let want = [(1919, 959, 959), (3543, 1771, 1771), (12179, 6089, 6089)];
        for (line, want) in text.lines().zip(want) {
            let o = testing::solve(
                &mut *engine(),
                &testing::sudoku9(line),
                &Limits::solutions(2),
            );
            assert_eq!(o.status, Status::Unique);
            let s = &o.stats;
            assert_eq!((s.nodes, s.guesses, s.backtracks), want);
        }
    }

    #[test]
    fn propagation_alone_solves_an_easy_grid() {
        // PE96 grid 1 falls to single possibilities: the root is the only node.
        let p = &testing::pe96()[0];
        let o = testing::solve(&mut *engine(), p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(
            (o.stats.nodes, o.stats.guesses, o.stats.backtracks),
            (1, 0, 0)
        );
        assert_eq!(o.stats.counter("forced"), Some(81 - p.clues() as u64));
        assert_eq!(o.stats.counter("forced_hidden"), None);
    }

    fn hidden() -> Box<dyn Engine> {
        make(&EngineOptions::new().with("propagation", "hidden")).unwrap()
    }

    #[test]
    fn option_values() {
        assert!(make(&EngineOptions::new().with("propagation", "naked")).is_ok());
        assert!(make(&EngineOptions::new().with("propagation", "pairs")).is_err());
    }

    #[test]
    fn hidden_propagation_agrees() {
        let mut e = hidden();
        testing::pe96_unique(&mut *e);
        testing::royle(&mut *e, 200);
        testing::empty_4x4(&mut *e);
        testing::jigsaw_unique(&mut *e);
        testing::x_unique(&mut *e);
        testing::two_solutions(&mut *e);
        testing::clash(&mut *e);
        testing::cross_check(&mut *e, &mut *engine());
        let o = testing::solve(&mut *e, &testing::pe96()[1], &Limits::solutions(0));
        let s = &o.stats;
        assert_eq!(s.nodes, s.guesses + s.backtracks + o.count);
        assert!(s.counter("forced_hidden").is_some());
    }
}
