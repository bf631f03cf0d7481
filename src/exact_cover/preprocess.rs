//! Preprocessing of an exact-cover problem before the search: the option eliminations of
//! Knuth's program DLX-PRE.
//!
//! Source: D. E. Knuth, program DLX-PRE (a companion of DLX1, written for TAOCP 7.2.2.1). Its
//! rule: if `p` is a primary item and `r` an option with `p` not in `r` such that every option
//! containing `p` is incompatible with `r` (shares an item with it), then `r` can be in no
//! solution ("that row can't be used without making `p` uncoverable") and is deleted. The
//! rule includes DLX-PRE's first one (when every option of primary `i` holds item `j`, the
//! options holding `j` but not `i` go) and the propagation of an item with a single option.
//! The rule is applied option by option, round after round, until a round deletes nothing;
//! deletions take effect at once (each is justified by the options still alive, so the set of
//! solutions never changes). A primary item left with no option proves there is no solution.
//!
//! In Sudoku terms one round of this covers naked and hidden singles, locked candidates
//! (pointing and claiming) and every other elimination a one-step look-ahead finds: an
//! option is dropped when placing it would leave some cell or some (house, digit) with no
//! candidate. It is what lets the `dlx` engine (option `pre=true`) prove the 25x25 puzzle
//! `data/rk-25x25.txt` unique in thousands of nodes, where plain DLX1 ordering runs hundreds
//! of millions of nodes without an answer.
//!
//! Unlike DLX-PRE this keeps every item (an item whose options all hold another item is
//! redundant but harmless to the search) and reports the map from kept options to the input's
//! option numbers instead of printing a file. Options with no primary item, which DLX1 never
//! chooses, are dropped as well and counted as removed.
//!
//! Cost: for each live option, one pass over the options that clash with it (sharing an item)
//! and their items; a round is about `options x clashes x option length` steps.

use super::ExactCover;
use crate::search::Search;

/// How [`preprocess`] ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Preprocessed {
    /// The reduced problem: the same items (same names, same order), the options that can
    /// still be in a solution.
    Reduced(Reduction),
    /// Primary item `item` (input numbering) has no option left: the problem has no solution.
    Infeasible { item: usize, stats: PreStats },
    /// The search's clock or cancel flag said stop during the preprocessing.
    Stopped(PreStats),
}

impl Preprocessed {
    /// The counters, however the run ended.
    pub fn stats(&self) -> PreStats {
        match self {
            Preprocessed::Reduced(r) => r.stats,
            Preprocessed::Infeasible { stats, .. } | Preprocessed::Stopped(stats) => *stats,
        }
    }
}

/// Counters of a preprocessing run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PreStats {
    /// Options deleted (those with no primary item included).
    pub removed: u64,
    /// Passes over the options: the last one deletes nothing, unless the run ended early.
    pub rounds: u64,
}

/// A problem after preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    pub cover: ExactCover,
    /// `kept[o]` = number in the input problem of option `o` of [`Reduction::cover`].
    pub kept: Vec<usize>,
    pub stats: PreStats,
}

/// Options between two looks at the clock.
const CLOCK_EVERY: usize = 64;

/// Applies DLX-PRE's option elimination to `x` until nothing changes (see the module doc).
/// `search` supplies the time limit and cancel flag (its nodes are not touched).
pub fn preprocess(x: &ExactCover, search: &mut Search) -> Preprocessed {
    let items = x.items();
    let options = x.options();
    let primary = x.primary_items();
    let mut stats = PreStats::default();
    // alive[o]: option o can still be part of a solution.
    let mut alive: Vec<bool> = (0..options).map(|o| x.has_primary(o)).collect();
    stats.removed = alive.iter().filter(|&&a| !a).count() as u64;
    // lists[i]: the options holding item i (dead ones are skipped when read); len[i]: the live
    // ones among them.
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); items];
    let mut len = vec![0u32; items];
    for o in (0..options).filter(|&o| alive[o]) {
        for &i in x.option(o) {
            lists[i as usize].push(o as u32);
            len[i as usize] += 1;
        }
    }
    if let Some(item) = (0..primary).find(|&i| len[i] == 0) {
        return Preprocessed::Infeasible { item, stats };
    }
    // Marks, all by the stamp of the option being tested: in_option[i] == stamp when item i
    // is in it; seen[q] == stamp when option q was counted as clashing with it; counted[p] ==
    // stamp when clash[p] holds the clashing options of primary item p found so far.
    let mut in_option = vec![0u32; items];
    let mut seen = vec![0u32; options];
    let mut counted = vec![0u32; primary];
    let mut clash = vec![0u32; primary];
    let mut stamp = 0u32;
    loop {
        stats.rounds += 1;
        let mut changed = false;
        for r in 0..options {
            if !alive[r] {
                continue;
            }
            if r % CLOCK_EVERY == 0 && !search.check_clock() {
                return Preprocessed::Stopped(stats);
            }
            stamp = stamp.wrapping_add(1);
            if stamp == 0 {
                // After 2^32 - 1 tests every mark could be stale: clear them.
                in_option.iter_mut().for_each(|m| *m = 0);
                seen.iter_mut().for_each(|m| *m = 0);
                counted.iter_mut().for_each(|m| *m = 0);
                stamp = 1;
            }
            let row = x.option(r);
            for &i in row {
                in_option[i as usize] = stamp;
            }
            seen[r] = stamp;
            let blocked = 'test: {
                for &i in row {
                    for &q in &lists[i as usize] {
                        let q = q as usize;
                        if !alive[q] || seen[q] == stamp {
                            continue;
                        }
                        seen[q] = stamp;
                        for &p in x.option(q) {
                            let p = p as usize;
                            if p >= primary || in_option[p] == stamp {
                                continue;
                            }
                            if counted[p] != stamp {
                                counted[p] = stamp;
                                clash[p] = 0;
                            }
                            clash[p] += 1;
                            if clash[p] == len[p] {
                                break 'test true;
                            }
                        }
                    }
                }
                false
            };
            if blocked {
                alive[r] = false;
                stats.removed += 1;
                changed = true;
                for &i in row {
                    len[i as usize] -= 1;
                    if (i as usize) < primary && len[i as usize] == 0 {
                        return Preprocessed::Infeasible {
                            item: i as usize,
                            stats,
                        };
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut cover = ExactCover::from_names(x.names().to_vec(), primary);
    let mut kept = Vec::with_capacity(options - stats.removed as usize);
    for o in (0..options).filter(|&o| alive[o]) {
        cover
            .add_option(x.option(o).iter().copied())
            .expect("options of a valid problem stay valid");
        kept.push(o);
    }
    Preprocessed::Reduced(Reduction { cover, kept, stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact_cover::{polyomino, read_dlx1, solve_exact_cover};
    use crate::search::Limits;

    fn run(x: &ExactCover) -> Preprocessed {
        let limits = Limits::default();
        let mut search = Search::new(&limits);
        preprocess(x, &mut search)
    }

    fn options_text(x: &ExactCover) -> Vec<String> {
        (0..x.options()).map(|o| x.option_text(o)).collect()
    }

    /// DLX-PRE's first example (Knuth's paper, matrix (3)): every option with A holds D, so
    /// `D E G` goes; then `B C F` and `C E F`... down to the three options of the unique
    /// solution.
    #[test]
    fn knuths_first_example_reduces_to_the_solution() {
        let text = "A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";
        let x = read_dlx1(text).unwrap();
        let Preprocessed::Reduced(r) = run(&x) else {
            panic!("not reduced")
        };
        assert_eq!(options_text(&r.cover), ["C E F", "A D", "B G"]);
        assert_eq!(r.kept, [0, 3, 4]);
        assert_eq!(r.stats.removed, 3);
        assert!(r.stats.rounds >= 2);
    }

    #[test]
    fn an_item_left_without_options_is_infeasible() {
        // A needs `A B`, which leaves C only `B C`: clashing on B. No solution.
        let x = read_dlx1("A B C\nA B\nB C\n").unwrap();
        assert!(matches!(run(&x), Preprocessed::Infeasible { .. }));
        let x = read_dlx1("A B\nA\n").unwrap();
        assert_eq!(
            run(&x),
            Preprocessed::Infeasible {
                item: 1,
                stats: PreStats::default()
            }
        );
    }

    #[test]
    fn stops_when_the_clock_says_so() {
        let limits = Limits {
            time_limit: Some(std::time::Duration::ZERO),
            ..Limits::default()
        };
        let mut search = Search::new(&limits);
        let x = polyomino::packing(6, 10, &polyomino::pentominoes());
        assert!(matches!(
            preprocess(&x, &mut search),
            Preprocessed::Stopped(_)
        ));
    }

    /// Preprocessing keeps the solution set: same count, and the kept map turns the reduced
    /// problem's solutions into solutions of the input.
    #[test]
    fn keeps_every_solution_of_pentomino_packings() {
        let x = polyomino::packing(3, 20, &polyomino::pentominoes());
        let Preprocessed::Reduced(r) = run(&x) else {
            panic!("not reduced")
        };
        let limits = Limits {
            max_solutions: 0,
            keep_solutions: 100,
            ..Limits::default()
        };
        let before = solve_exact_cover(&x, &limits);
        let after = solve_exact_cover(&r.cover, &limits);
        assert_eq!(before.count, 8);
        assert_eq!(after.count, 8);
        for s in &after.solutions {
            let orig: Vec<usize> = s.iter().map(|&o| r.kept[o]).collect();
            x.check_solution(&orig).unwrap();
        }
        assert!(r.stats.removed > 0, "3x20: some placements block a piece");
    }
}
