//! Algorithm X on dancing links, iterative (an explicit level stack, no recursion), with the
//! choice and the counters of Knuth's program DLX1.
//!
//! Sources: D. E. Knuth, "Dancing Links" (2000), arXiv cs/0011047, Algorithm X; Knuth's
//! program DLX1 (Algorithm 7.2.2.1X of *The Art of Computer Programming*), whose control
//! flow (`forward`, `advance`, `backup`, `recover`) this follows step by step.
//!
//! # The search
//!
//! At each level: choose the active primary item of least length, the leftmost one on ties
//! (DLX1's MRV rule; an item with no option left is chosen like any other and fails at once);
//! cover it; then try the options of its list from top to bottom: cover the option's other
//! items; if no primary item is left, visit a solution and try the next option; otherwise go
//! one level deeper. When the list is exhausted, uncover the item and go back up one level.
//! Givens, or any option forced before the search, are selected at the root with
//! [`Links::select`] and are not part of the search.
//!
//! One shortcut, invisible in every count: when a hide has just left an active primary item
//! with no option (tracked in the hide loop, checked against the item's key), the level fails
//! without the choice scan. DLX1 would choose the leftmost such item, cover it (+1 update, no
//! option to hide), find its list empty and back up (+1 backtrack); which of them it chooses
//! changes neither the counts nor the state, so the same counts are made directly.
//!
//! # Counters, defined before they are used
//!
//! - `nodes`: DLX1's `nodes`, the number of times the search enters a level (label
//!   `forward` in DLX1): the root level and every level below it, including levels whose
//!   chosen item has no option. A solution is recognised right after the other items of an
//!   option are covered, before a new level is entered, so a solution is not a node. A
//!   search that has nothing to do (no active primary item at the start) enters no level and
//!   reports its single, empty solution with 0 nodes.
//! - `updates`: DLX1's `updates`: +1 each time an item is removed from the header list
//!   (every `cover`), +1 for every node removed from another item's list while the options
//!   of a covered item are hidden. Uncovering counts nothing. The covers made at the root by
//!   [`Links::select`] (the givens) are not counted: the count is that of DLX1 run on the
//!   problem that remains after the selection.
//! - `guesses`: levels entered whose chosen item had two or more options (branch points with
//!   at least two alternatives).
//! - `backtracks`: dead ends, i.e. levels entered whose chosen item has no option left (the
//!   definition every sudolab engine shares: a node with no alternative at all).
//! - `failed_levels` (named counter): levels left with no solution found below them
//!   (every option failed, the whole subtree), including the dead ends. A level abandoned
//!   because a limit or the solution cap stopped the search does not count.
//!
//! # Propagation (off by default)
//!
//! With [`Links::set_propagation`], the search also runs the option elimination of
//! [`super::propagate`] (DLX-PRE's first rule, locked candidates in Sudoku terms) once at
//! the root and after the covers of every option it tries, and undoes it exactly when it
//! backs up. The choice rule, `nodes`, `guesses`, `backtracks` and `failed_levels` keep their
//! definitions (on a smaller tree); `updates` then also counts the nodes the elimination
//! unlinks; the counters `prop_removed` and `prop_fired` are defined in
//! [`super::propagate`]. Off, the search is compiled without it: the counts and the code
//! are those of plain DLX1.

use super::links::{with_core, AnyCore, Core, Idx, Key, Links};
use crate::search::Search;

impl Links {
    /// Runs Algorithm X from the current state (after any [`Links::select`]) until the space
    /// is exhausted or `search` says stop (node limit, clock, solution cap). For each solution
    /// `visit(search, options)` is called with the chosen options (numbers in the
    /// [`super::ExactCover`]), in level order; it returns `false` to stop. Counts nodes,
    /// guesses and backtracks into `search.stats` and sets `search.stats.updates`. The
    /// structure is left as it was at the call (every search cover undone).
    pub fn search<V>(&mut self, search: &mut Search, visit: V)
    where
        V: FnMut(&mut Search, &[u32]) -> bool,
    {
        with_core!(&mut self.core, c => c.search::<true, V>(search, visit))
    }

    /// [`Links::search`] that leaves the lists in whatever state the search ends in, so that
    /// only [`Links::start`] makes them usable again: when a limit or the solution cap stops
    /// the search it does not undo the covers of the levels on the stack, and once no level
    /// on the stack has an untried option (the rest of the search would only back up to the
    /// root, uncovering, and find nothing) it ends at once. Every count is that of
    /// [`Links::search`] (the levels it skips backing up through are counted in
    /// `failed_levels` exactly as backing up counts them); only the uncovering is saved.
    pub fn search_discarding<V>(&mut self, search: &mut Search, visit: V)
    where
        V: FnMut(&mut Search, &[u32]) -> bool,
    {
        with_core!(&mut self.core, c => c.search::<false, V>(search, visit))
    }
}

impl<I: Idx, K: Key> Core<I, K> {
    /// See [`Links::search`] (`TIDY`) and [`Links::search_discarding`] (`!TIDY`). Runs the
    /// search compiled for AVX2 when the CPU has it (the same code: only the item choice uses
    /// the wider instructions).
    pub(crate) fn search<const TIDY: bool, V>(&mut self, search: &mut Search, visit: V)
    where
        V: FnMut(&mut Search, &[u32]) -> bool,
    {
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: `avx2` is set only when the CPU has AVX2.
            unsafe { self.search_avx2::<TIDY, V>(search, visit) };
            return;
        }
        // Separate compiled searches, so that plain DLX1 runs the code it ran before the
        // elimination existed (not a test per level), and options of 4 nodes (every Sudoku
        // matrix without extra houses) are hidden by unrolled code (`W`, see `links::others`).
        match (self.prop.on, self.width) {
            (true, _) => self.run::<false, TIDY, true, 0, V>(search, visit),
            (false, 4) => self.run::<false, TIDY, false, 4, V>(search, visit),
            (false, _) => self.run::<false, TIDY, false, 0, V>(search, visit),
        }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn search_avx2<const TIDY: bool, V>(&mut self, search: &mut Search, visit: V)
    where
        V: FnMut(&mut Search, &[u32]) -> bool,
    {
        match (self.prop.on, self.width) {
            (true, _) => self.run::<true, TIDY, true, 0, V>(search, visit),
            (false, 4) => self.run::<true, TIDY, false, 4, V>(search, visit),
            (false, _) => self.run::<true, TIDY, false, 0, V>(search, visit),
        }
    }

    /// The search proper; `AVX2`: see [`Core::choose`]; `TIDY`: see [`Core::search`];
    /// `PROP`: run the elimination of [`super::propagate`] at the root and after the covers
    /// of every option tried (`prop.mark[level]` = the trail before them), and undo it
    /// before those covers are undone; `W`: every option has `W` nodes (0: any number), see
    /// [`Core::cover_noting`].
    ///
    /// Without `TIDY`, `open` counts the levels on the stack whose current option has a next
    /// one in its list (`open_at` says which): when a level's list is exhausted and `open` is
    /// 0, every level below would back up too, with no cover and no solution.
    #[inline(always)]
    fn run<const AVX2: bool, const TIDY: bool, const PROP: bool, const W: u32, V>(
        &mut self,
        search: &mut Search,
        mut visit: V,
    ) where
        V: FnMut(&mut Search, &[u32]) -> bool,
    {
        let start_updates = self.updates;
        let mut guesses = 0u64;
        let mut backtracks = 0u64;
        let mut failed_levels = 0u64;
        if self.active == 0 {
            self.solution.clear();
            let _ = visit(search, &[]);
            search.stats.updates = Some(0);
            if PROP {
                search.stats.bump("prop_removed", 0);
                search.stats.bump("prop_fired", 0);
            }
            return;
        }
        let (start_removed, start_fired) = (self.prop.removed, self.prop.fired);
        if PROP {
            self.propagate_root();
        }
        let items = self.items();
        let mut level = 0usize;
        let mut open = 0u32;
        'forward: loop {
            // forward: enter a level.
            if !search.node() {
                if TIDY {
                    self.unwind::<PROP>(level);
                }
                break;
            }
            let mut cur;
            // Without the elimination the covers do not note emptied lists (`zeroed`), and a
            // dead end is found by the choice scan below (a least `len` of 0), which counts
            // exactly what this shortcut counts.
            if PROP && self.dead_end() {
                // An active primary item has no option left. DLX1 would choose the leftmost
                // such item (least length 0), cover it (+1 update; no option to hide), find
                // its list empty, uncover it and back up (+1 backtrack). Which of them it
                // chooses changes nothing, so do exactly that without the scan.
                self.updates += 1;
                backtracks += 1;
                failed_levels += 1;
                if level == 0 {
                    break 'forward;
                }
                if !TIDY && open == 0 {
                    failed_levels += self.unfruitful(level, search.count());
                    break 'forward;
                }
                level -= 1;
                let p = *at(&mut self.choice, level);
                if PROP {
                    self.restore_to(self.prop.mark[level]);
                }
                self.uncover_others::<W>(p);
                cur = self.down(p);
                *at(&mut self.choice, level) = cur;
                if !TIDY {
                    open = self.reopen(level, cur, open);
                }
            } else {
                let Some(best) = self.choose::<AVX2>() else {
                    unreachable!("a level is entered only while a primary item is active")
                };
                match self.len(best) {
                    0 => backtracks += 1,
                    1 => {}
                    _ => guesses += 1,
                }
                *at(&mut self.entry, level) = search.count();
                let best = best as u32;
                self.cover_noting::<PROP, W>(best);
                cur = self.first(best);
                *at(&mut self.choice, level) = cur;
                if !TIDY {
                    *at(&mut self.open_at, level) = false;
                    open = self.reopen(level, cur, open);
                }
            }
            // advance / backup / recover.
            loop {
                if cur < items {
                    // backup: `cur` is the header of the item chosen on this level, whose
                    // list is exhausted.
                    if !TIDY && open == 0 {
                        failed_levels += self.unfruitful(level + 1, search.count());
                        break 'forward;
                    }
                    self.uncover_width::<W>(cur);
                    if search.count() == *at(&mut self.entry, level) {
                        failed_levels += 1;
                    }
                    if level == 0 {
                        break 'forward;
                    }
                    level -= 1;
                    let p = *at(&mut self.choice, level);
                    // recover
                    if PROP {
                        self.restore_to(self.prop.mark[level]);
                    }
                    self.uncover_others::<W>(p);
                    cur = self.down(p);
                    *at(&mut self.choice, level) = cur;
                    if !TIDY {
                        open = self.reopen(level, cur, open);
                    }
                    continue;
                }
                self.cover_others::<PROP, W>(cur);
                if PROP {
                    self.prop.mark[level] = self.trail_len();
                }
                if self.active == 0 {
                    self.solution.clear();
                    for l in 0..=level {
                        let o = self.option_of(self.choice[l]);
                        self.solution.push(o);
                    }
                    if !visit(search, &self.solution) {
                        if TIDY {
                            self.unwind::<PROP>(level + 1);
                        }
                        break 'forward;
                    }
                    // recover
                    self.uncover_others::<W>(cur);
                    cur = self.down(cur);
                    *at(&mut self.choice, level) = cur;
                    if !TIDY {
                        open = self.reopen(level, cur, open);
                    }
                    continue;
                }
                if PROP {
                    self.propagate_after(cur);
                }
                level += 1;
                continue 'forward;
            }
        }
        if TIDY && PROP {
            // The root's eliminations, made before level 0 was entered.
            self.restore_to(0);
        }
        if PROP {
            search
                .stats
                .bump("prop_removed", self.prop.removed - start_removed);
            search
                .stats
                .bump("prop_fired", self.prop.fired - start_fired);
        }
        search.stats.guesses += guesses;
        search.stats.backtracks += backtracks;
        search.stats.bump("failed_levels", failed_levels);
        search.stats.updates = Some(self.updates - start_updates);
    }

    /// `open` once level `level`'s current option is `cur` (a node, or the header when the
    /// list is exhausted): the level is open when `cur` has a next option.
    #[inline(always)]
    fn reopen(&mut self, level: usize, cur: u32, open: u32) -> u32 {
        let items = self.items();
        let now = cur >= items && self.down(cur) >= items;
        let was = std::mem::replace(at(&mut self.open_at, level), now);
        open + now as u32 - was as u32
    }

    /// `failed_levels` that backing up from level `levels - 1` to the root would count, when
    /// no level on the stack has an untried option: each level with no solution below it,
    /// i.e. none found since it was entered.
    fn unfruitful(&self, levels: usize, count: u64) -> u64 {
        self.entry[..levels].iter().filter(|&&e| e == count).count() as u64
    }
}

/// Level `level`'s entry of a search stack (`choice`, `entry`, `open_at`), without a bounds
/// check: the three checks per level showed in the search's profile.
///
/// SAFETY (for every caller in this file): the stacks have `primary + 1` entries
/// (`Core::new`, never resized), and `level` is always a level on the stack: a level is
/// entered only while a primary item is active, and each level below it has covered at least
/// one primary item (its chosen item), so every level entered is below `primary`. Checked by
/// `debug_assert!` in debug builds (all tests run there).
#[inline(always)]
fn at<T>(stack: &mut [T], level: usize) -> &mut T {
    debug_assert!(level < stack.len());
    unsafe { stack.get_unchecked_mut(level) }
}
