//! Exact cover with colours: Knuth's Algorithm C on dancing links, with the counters of his
//! program DLX2.
//!
//! Sources: D. E. Knuth, *The Art of Computer Programming* 7.2.2.1, Algorithm C ("exact
//! covering with colors", steps C1-C8, and the operations `commit`, `purify`, `uncommit`,
//! `unpurify`, `hide'`, `unhide'` it is written with); Knuth's program DLX2, its
//! reference implementation, whose data layout and counters this follows.
//!
//! # The problem
//!
//! As in [`super::problem`], items are primary (covered exactly once) or secondary; an
//! option is a set of items. In addition an option may give a secondary item a *colour*
//! (written `x:c` in DLX2's input). A solution is a set of options that covers every
//! primary item exactly once and in which every secondary item is either in at most one
//! chosen option, or in several that all give it the same colour. An uncoloured secondary
//! item in an option excludes every other option holding it (the plain secondary items of
//! DLX1). Primary items take no colour. Options with no primary item are never chosen and,
//! as in DLX2 ("option ignored"), are not linked.
//!
//! # The links
//!
//! DLX2's layout, written apart from the tuned generic links of [`super::links`] (which
//! have no colour field, and whose search is specialised for DLX1): node `i < items` is the
//! header of item `i`'s list; then come the options, each option's nodes consecutive, with
//! a spacer node before the first option, between options and after the last. Every node
//! has `up`, `down` (its item's list), `top` (its item; in a spacer, `items + 1 + o` for
//! the option `o` before it, `items` in the first spacer) and `color` (0: none; a positive
//! code; -1 once the node has been *cleansed*, see below). A spacer's `up` is the first node
//! of the option before it and its `down` the last node of the option after it, so an
//! option can be walked circularly from any node. The active primary items form a doubly
//! linked list (DLX2's `prev`/`next` from its root), the active secondary items another.
//!
//! # The search (Algorithm C)
//!
//! As Algorithm X ([`super::algorithm_x`]), with `commit` and `uncommit` in place of the
//! covers of an option's other items:
//!
//! - `cover(i)`: take item `i` out of its header list, then `hide'` every option of its
//!   list; `hide'(p)` takes every other node `q` of `p`'s option out of its item's list,
//!   except nodes with colour -1 (they sit in an item already purified, whose list no longer
//!   matters). `uncover` and `unhide'` undo them in the reverse order.
//! - `commit(p)` for a node `p` of the chosen option: `cover(top(p))` when `p` has no
//!   colour; `purify(p)` when it has a colour `c > 0`; nothing when its colour is -1 (its
//!   item was purified by an earlier choice with the same colour).
//! - `purify(p)`: for every node `q` in the list of `p`'s item (`p` itself is no longer
//!   there: covering the chosen item hid its option), set `color(q) = -1` when `q` has
//!   colour `c` (the option stays; it will not purify the item again), else `hide'(q)`.
//!   `unpurify` walks the list upwards, restoring `c` to the nodes with -1 and `unhide'`-ing
//!   the others. The purified item stays in its header list: it is never chosen (it is
//!   secondary) and nothing else walks that list.
//!
//! The chosen item is the active primary item with the fewest options, the leftmost (lowest
//! number) on ties, as in DLX1 and DLX2. Limits are those of every engine: each level entered
//! goes through [`Search::node`] (node limit; clock and cancel flag every 256 nodes), each
//! solution through the visitor, which stops the search at the solution cap; a stopped search
//! undoes the commits and covers of the levels on its stack, so the links are left as built.
//!
//! # Counters, defined before they are used
//!
//! - `nodes`: levels entered, as [`super::algorithm_x`] counts DLX1's nodes; a solution is
//!   recognised when the options' commits leave no active primary item, before a level is
//!   entered, so it is not a node. (Recent versions of DLX2 also add 1 per solution, "a
//!   solution is a special node, see 7.2.2-(4)": their figure is `nodes` plus the solutions
//!   found.)
//! - `updates`: DLX2's `updates`: +1 each time `cover` takes an item (primary or secondary)
//!   out of its header list, +1 for every node that `hide'` takes out of an item's list,
//!   whether `cover` or `purify` called it; cleansed nodes are not taken out and not counted
//!   (as in TAOCP's `hide'` and recent DLX2; an early DLX2 unlinked them in `cover`). Undoing
//!   counts nothing. Without colours this is exactly DLX1's count.
//! - `cleansings` (named counter): DLX2's `cleansings`: +1 per `purify`, +1 per node it sets
//!   to colour -1.
//! - `guesses`, `backtracks`, `failed_levels`: as in [`super::algorithm_x`] (levels whose
//!   chosen item had two or more options; levels whose chosen item had none; levels left
//!   with no solution found below them).

use super::{CoverError, SolutionError};
use crate::search::Search;

/// An exact-cover problem with colours: items `0..primary` primary, the rest secondary;
/// each option a list of `(item, colour)`, colour 0 meaning none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ColorCover {
    primary: usize,
    items: usize,
    /// `(item, colour)` of all options, one after the other.
    entries: Vec<(u32, u32)>,
    /// Option `o` is `entries[starts[o]..starts[o + 1]]`.
    starts: Vec<u32>,
}

impl ColorCover {
    /// A problem with `primary` primary and `secondary` secondary items and no option yet.
    pub fn new(primary: usize, secondary: usize) -> Self {
        ColorCover {
            primary,
            items: primary + secondary,
            entries: Vec::new(),
            starts: vec![0],
        }
    }

    /// Adds an option of `(item, colour)` entries (colour 0: none); returns its number.
    /// Refuses an empty option, an unknown item, an item named twice (reported by number,
    /// `#i`) and a colour on a primary item or above `i32::MAX` (colours are kept as `i32`,
    /// -1 marking a cleansed node).
    pub fn add_option<I>(&mut self, entries: I) -> Result<usize, CoverError>
    where
        I: IntoIterator<Item = (u32, u32)>,
    {
        let begin = self.entries.len();
        let fail = |me: &mut Self, e| {
            me.entries.truncate(begin);
            Err(e)
        };
        for (item, colour) in entries {
            let i = item as usize;
            if i >= self.items {
                let e = CoverError::UnknownItem {
                    item: i,
                    items: self.items,
                };
                return fail(self, e);
            }
            if self.entries[begin..].iter().any(|&(j, _)| j == item) {
                return fail(self, CoverError::RepeatedItem(format!("#{i}")));
            }
            if colour != 0 && (i < self.primary || colour > i32::MAX as u32) {
                return fail(self, CoverError::BadColour { item: i, colour });
            }
            self.entries.push((item, colour));
        }
        if self.entries.len() == begin {
            return Err(CoverError::EmptyOption);
        }
        if self.entries.len() + self.items + self.starts.len() + 2 >= u32::MAX as usize {
            return fail(self, CoverError::TooLarge);
        }
        self.starts.push(self.entries.len() as u32);
        Ok(self.starts.len() - 2)
    }

    /// Number of items, primary and secondary.
    pub fn items(&self) -> usize {
        self.items
    }

    pub fn primary_items(&self) -> usize {
        self.primary
    }

    pub fn options(&self) -> usize {
        self.starts.len() - 1
    }

    /// Entries over all options (the nodes of the options).
    pub fn ones(&self) -> usize {
        self.entries.len()
    }

    /// The `(item, colour)` entries of option `o`, in the order given.
    pub fn option(&self, o: usize) -> &[(u32, u32)] {
        &self.entries[self.starts[o] as usize..self.starts[o + 1] as usize]
    }

    /// Whether option `o` holds a primary item (an option without one is never chosen).
    pub fn has_primary(&self, o: usize) -> bool {
        self.option(o)
            .iter()
            .any(|&(i, _)| (i as usize) < self.primary)
    }

    /// Checks that `options` is a solution (module doc); returns the first offending item
    /// otherwise.
    pub fn check_solution(&self, options: &[usize]) -> Result<(), SolutionError> {
        // Per item: how many chosen options hold it, and the colour of the first.
        let mut seen: Vec<(u32, u32)> = vec![(0, 0); self.items];
        for &o in options {
            if o >= self.options() {
                return Err(SolutionError::NoOption(o));
            }
            for &(i, c) in self.option(o) {
                let s = &mut seen[i as usize];
                if s.0 > 0 && (c == 0 || s.1 != c) {
                    return Err(SolutionError::Colours {
                        item: i.to_string(),
                    });
                }
                *s = (s.0 + 1, c);
            }
        }
        match seen[..self.primary].iter().position(|s| s.0 != 1) {
            Some(i) => Err(SolutionError::Covered {
                item: i.to_string(),
                times: seen[i].0,
            }),
            None => Ok(()),
        }
    }
}

/// One node (DLX2's `up`, `down`, `itm`, `color`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Node {
    up: u32,
    down: u32,
    top: u32,
    color: i32,
}

/// A [`ColorCover`] linked for Algorithm C (module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColorLinks {
    nodes: Vec<Node>,
    /// Options in each item's list (DLX2's `len`).
    len: Vec<u32>,
    /// Header lists: `prev`/`next` of items `0..items`, then the root of the primary list
    /// (`items`) and of the secondary list (`items + 1`).
    prev: Vec<u32>,
    next: Vec<u32>,
    items: u32,
    primary: u32,
    /// Options linked (those with a primary item) and their nodes.
    linked: (u64, u64),
    updates: u64,
    cleansings: u64,
    /// Search stack: the node chosen on each level, and the solutions found before it was
    /// entered.
    choice: Vec<u32>,
    entry: Vec<u64>,
}

impl ColorLinks {
    /// Links the options of `x` that hold a primary item, in order.
    pub fn new(x: &ColorCover) -> Self {
        let items = x.items() as u32;
        let primary = x.primary_items() as u32;
        let mut nodes: Vec<Node> = (0..items)
            .map(|i| Node {
                up: i,
                down: i,
                top: i,
                color: 0,
            })
            .collect();
        let mut len = vec![0u32; items as usize];
        // The first spacer.
        nodes.push(Node {
            top: items,
            ..Node::default()
        });
        let mut linked = (0, 0);
        for o in (0..x.options()).filter(|&o| x.has_primary(o)) {
            let spacer = nodes.len() - 1;
            let first = nodes.len() as u32;
            for &(item, colour) in x.option(o) {
                let q = nodes.len() as u32;
                let tail = nodes[item as usize].up;
                nodes[tail as usize].down = q;
                nodes[item as usize].up = q;
                nodes.push(Node {
                    up: tail,
                    down: item,
                    top: item,
                    color: colour as i32,
                });
                len[item as usize] += 1;
            }
            let last = nodes.len() as u32 - 1;
            nodes[spacer].down = last;
            nodes.push(Node {
                up: first,
                down: 0,
                top: items + 1 + o as u32,
                color: 0,
            });
            linked.0 += 1;
            linked.1 += x.option(o).len() as u64;
        }
        let roots = items as usize + 2;
        let (mut prev, mut next) = (vec![0u32; roots], vec![0u32; roots]);
        for (root, range) in [(items, 0..primary), (items + 1, primary..items)] {
            let mut last = root;
            for i in range {
                next[last as usize] = i;
                prev[i as usize] = last;
                last = i;
            }
            next[last as usize] = root;
            prev[root as usize] = last;
        }
        ColorLinks {
            nodes,
            len,
            prev,
            next,
            items,
            primary,
            linked,
            updates: 0,
            cleansings: 0,
            choice: vec![0; primary as usize + 1],
            entry: vec![0; primary as usize + 1],
        }
    }

    /// Options linked (those holding a primary item) and their nodes.
    pub fn linked_size(&self) -> (u64, u64) {
        self.linked
    }

    /// Takes item `i` out of its header list and hides the options of its list.
    fn cover(&mut self, i: u32) {
        let (l, r) = (self.prev[i as usize], self.next[i as usize]);
        self.next[l as usize] = r;
        self.prev[r as usize] = l;
        self.updates += 1;
        let mut p = self.nodes[i as usize].down;
        while p != i {
            self.hide(p);
            p = self.nodes[p as usize].down;
        }
    }

    /// Undoes `cover(i)`, going up the list.
    fn uncover(&mut self, i: u32) {
        let mut p = self.nodes[i as usize].up;
        while p != i {
            self.unhide(p);
            p = self.nodes[p as usize].up;
        }
        let (l, r) = (self.prev[i as usize], self.next[i as usize]);
        self.next[l as usize] = i;
        self.prev[r as usize] = i;
    }

    /// The node after `q` in its option, going right cyclically (past the spacer after the
    /// option to its first node).
    fn right(&self, q: u32) -> u32 {
        let n = self.nodes[q as usize + 1];
        if n.top >= self.items {
            n.up
        } else {
            q + 1
        }
    }

    /// The node before `q` in its option, going left cyclically.
    fn left(&self, q: u32) -> u32 {
        let n = self.nodes[q as usize - 1];
        if n.top >= self.items {
            n.down
        } else {
            q - 1
        }
    }

    /// `hide'(p)`: takes the other nodes of `p`'s option out of their lists, going right,
    /// except the cleansed ones (colour -1).
    fn hide(&mut self, p: u32) {
        let mut q = self.right(p);
        while q != p {
            let n = self.nodes[q as usize];
            if n.color >= 0 {
                self.nodes[n.up as usize].down = n.down;
                self.nodes[n.down as usize].up = n.up;
                self.len[n.top as usize] -= 1;
                self.updates += 1;
            }
            q = self.right(q);
        }
    }

    /// `unhide'(p)`: undoes `hide'(p)`, going left.
    fn unhide(&mut self, p: u32) {
        let mut q = self.left(p);
        while q != p {
            let n = self.nodes[q as usize];
            if n.color >= 0 {
                self.nodes[n.up as usize].down = q;
                self.nodes[n.down as usize].up = q;
                self.len[n.top as usize] += 1;
            }
            q = self.left(q);
        }
    }

    /// Keeps in the list of node `p`'s item only the options of `p`'s colour (cleansed),
    /// hiding the others.
    fn purify(&mut self, p: u32) {
        let Node { top: i, color, .. } = self.nodes[p as usize];
        self.cleansings += 1;
        let mut q = self.nodes[i as usize].down;
        while q != i {
            debug_assert_ne!(q, p, "the chosen option was hidden by its item's cover");
            if self.nodes[q as usize].color == color {
                self.nodes[q as usize].color = -1;
                self.cleansings += 1;
            } else {
                self.hide(q);
            }
            q = self.nodes[q as usize].down;
        }
    }

    /// Undoes `purify(p)`, going up the list.
    fn unpurify(&mut self, p: u32) {
        let Node { top: i, color, .. } = self.nodes[p as usize];
        let mut q = self.nodes[i as usize].up;
        while q != i {
            if self.nodes[q as usize].color < 0 {
                self.nodes[q as usize].color = color;
            } else {
                self.unhide(q);
            }
            q = self.nodes[q as usize].up;
        }
    }

    /// `commit` of every other node of the option holding node `p`, going right.
    fn commit_others(&mut self, p: u32) {
        let mut q = self.right(p);
        while q != p {
            let Node { top, color, .. } = self.nodes[q as usize];
            if color == 0 {
                self.cover(top);
            } else if color > 0 {
                self.purify(q);
            }
            q = self.right(q);
        }
    }

    /// `uncommit` of every other node of the option holding node `p`, going left.
    fn uncommit_others(&mut self, p: u32) {
        let mut q = self.left(p);
        while q != p {
            let Node { top, color, .. } = self.nodes[q as usize];
            if color == 0 {
                self.uncover(top);
            } else if color > 0 {
                self.unpurify(q);
            }
            q = self.left(q);
        }
    }

    /// The option holding node `p` (its number in the [`ColorCover`]).
    fn option_of(&self, mut p: u32) -> u32 {
        while self.nodes[p as usize].top < self.items {
            p += 1;
        }
        self.nodes[p as usize].top - self.items - 1
    }

    /// The active primary item with the fewest options, leftmost on ties; `None` when no
    /// primary item is active.
    fn choose(&self) -> Option<u32> {
        let root = self.items;
        let mut best = None;
        let mut least = u32::MAX;
        let mut k = self.next[root as usize];
        while k != root && least > 0 {
            if self.len[k as usize] < least {
                least = self.len[k as usize];
                best = Some(k);
            }
            k = self.next[k as usize];
        }
        best
    }

    fn done(&self) -> bool {
        self.next[self.items as usize] == self.items
    }

    /// Runs Algorithm C until the space is exhausted or `search` says stop (node limit,
    /// clock, solution cap). For each solution `visit(search, options)` gets the chosen
    /// options (numbers in the [`ColorCover`]), in level order, and returns `false` to stop.
    /// Counts nodes, guesses and backtracks into `search.stats`, sets `updates` and the named
    /// counters `cleansings` and `failed_levels` (module doc). The structure is left as it
    /// was at the call.
    pub fn search<V>(&mut self, search: &mut Search, mut visit: V)
    where
        V: FnMut(&mut Search, &[u32]) -> bool,
    {
        let (updates, cleansings) = (self.updates, self.cleansings);
        let (mut guesses, mut backtracks, mut failed_levels) = (0u64, 0u64, 0u64);
        let mut solution: Vec<u32> = Vec::new();
        // Levels whose choice is on the stack (their covers and commits to undo on a stop).
        let mut levels = 0usize;
        if self.done() {
            let _ = visit(search, &[]);
        } else {
            let mut level = 0usize;
            'forward: loop {
                // C2-C4: enter a level, choose an item, cover it.
                if !search.node() {
                    break;
                }
                let Some(best) = self.choose() else {
                    unreachable!("a level is entered only while a primary item is active")
                };
                match self.len[best as usize] {
                    0 => backtracks += 1,
                    1 => {}
                    _ => guesses += 1,
                }
                self.entry[level] = search.count();
                self.cover(best);
                let mut cur = self.nodes[best as usize].down;
                self.choice[level] = cur;
                levels = level + 1;
                loop {
                    if cur < self.items {
                        // C7-C8: the list of the item chosen here (`cur`) is exhausted.
                        self.uncover(cur);
                        levels = level;
                        if search.count() == self.entry[level] {
                            failed_levels += 1;
                        }
                        if level == 0 {
                            break 'forward;
                        }
                        level -= 1;
                        // C6: uncommit the option of the level above and try the next.
                        let p = self.choice[level];
                        self.uncommit_others(p);
                        cur = self.nodes[p as usize].down;
                        self.choice[level] = cur;
                        continue;
                    }
                    // C5: try option `cur`.
                    self.commit_others(cur);
                    if self.done() {
                        solution.clear();
                        let chosen = &self.choice[..=level];
                        solution.extend(chosen.iter().map(|&p| self.option_of(p)));
                        if !visit(search, &solution) {
                            break 'forward;
                        }
                        self.uncommit_others(cur);
                        cur = self.nodes[cur as usize].down;
                        self.choice[level] = cur;
                        continue;
                    }
                    level += 1;
                    continue 'forward;
                }
            }
        }
        // A stop leaves levels on the stack: undo them, deepest first. A stop at a solution
        // left that level's option committed.
        for l in (0..levels).rev() {
            let p = self.choice[l];
            debug_assert!(
                p >= self.items,
                "a stop finds every level's option committed"
            );
            self.uncommit_others(p);
            self.uncover(self.nodes[p as usize].top);
        }
        search.stats.guesses += guesses;
        search.stats.backtracks += backtracks;
        search.stats.bump("failed_levels", failed_levels);
        search
            .stats
            .bump("cleansings", self.cleansings - cleansings);
        search.stats.updates = Some(self.updates - updates);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Limits, Stats};
    use rand::{Rng, SeedableRng};

    /// Solves `x` counting up to `cap` solutions (0: all); checks that the search leaves the
    /// links as built.
    fn solve(x: &ColorCover, limits: &Limits) -> (Stats, Vec<Vec<usize>>) {
        let mut search = Search::new(limits);
        let mut links = ColorLinks::new(x);
        let fresh = links.clone();
        let mut sols = Vec::new();
        links.search(&mut search, |s, o| {
            sols.push(o.iter().map(|&o| o as usize).collect());
            s.solution(&[])
        });
        assert_eq!(
            (&links.nodes, &links.len, &links.prev, &links.next),
            (&fresh.nodes, &fresh.len, &fresh.prev, &fresh.next)
        );
        (search.finish().stats, sols)
    }

    /// The example of DLX2's introduction: `A B C | X Y`; options `A B X:0 Y:0`,
    /// `A C X:1 Y:1`, `X:0 Y:1` (no primary item: ignored), `B X:1`, `C Y:1`. Its unique
    /// solution is `A C X:1 Y:1` and `B X:1`.
    #[test]
    fn knuths_example() {
        let (zero, one) = (1, 2);
        let mut x = ColorCover::new(3, 2);
        for o in [
            &[(0, 0), (1, 0), (3, zero), (4, zero)][..],
            &[(0, 0), (2, 0), (3, one), (4, one)],
            &[(3, zero), (4, one)],
            &[(1, 0), (3, one)],
            &[(2, 0), (4, one)],
        ] {
            x.add_option(o.iter().copied()).unwrap();
        }
        let (stats, sols) = solve(&x, &Limits::solutions(0));
        assert_eq!(sols, [vec![1, 3]]);
        assert!(x.check_solution(&[1, 3]).is_ok());
        assert!(x.check_solution(&[0, 4]).is_err());
        assert_eq!(ColorLinks::new(&x).linked_size(), (4, 12));
        // Level 0 chooses A (2 options, leftmost of the least): a guess. A B X:0 Y:0 leaves
        // C with no option (a dead end at level 1); A C X:1 Y:1 leaves B X:1.
        assert_eq!((stats.nodes, stats.guesses, stats.backtracks), (3, 1, 1));
    }

    #[test]
    fn bad_options_are_refused() {
        let mut x = ColorCover::new(2, 1);
        assert_eq!(x.add_option([]), Err(CoverError::EmptyOption));
        assert!(matches!(
            x.add_option([(0, 0), (3, 0)]),
            Err(CoverError::UnknownItem { item: 3, .. })
        ));
        assert!(matches!(
            x.add_option([(0, 0), (0, 0)]),
            Err(CoverError::RepeatedItem(_))
        ));
        assert_eq!(
            x.add_option([(0, 1)]),
            Err(CoverError::BadColour { item: 0, colour: 1 })
        );
        assert!(x.add_option([(2, 1 << 31)]).is_err());
        assert_eq!(x.add_option([(1, 0), (2, 7)]), Ok(0));
        assert_eq!((x.options(), x.ones()), (1, 2));
    }

    /// `state` of a covered item in [`Reference`].
    const COVERED: u32 = u32::MAX;

    /// Algorithm C written the slow, obvious way, on sets instead of links. Each item's
    /// `state` is 0 (free), [`COVERED`], or the colour it was purified with. An option is
    /// *live* while it holds a primary item, no item of it is covered, and it gives every
    /// purified item that item's colour. The counts follow the module doc: `cover(c)` counts
    /// 1 + the entries of each live option holding `c`, other than `c` and those at purified
    /// items (cleansed); `purify` counts 1 cleansing + 1 per live option of the colour, and an
    /// update for the same entries of each live option of another colour.
    struct Reference<'a> {
        x: &'a ColorCover,
        state: Vec<u32>,
        chosen: Vec<usize>,
        found: Vec<Vec<usize>>,
        stats: Stats,
        cap: u64,
    }

    impl<'a> Reference<'a> {
        fn run(x: &'a ColorCover, cap: u64) -> (Stats, Vec<Vec<usize>>) {
            let mut stats = Stats {
                updates: Some(0),
                ..Stats::default()
            };
            stats.bump("failed_levels", 0);
            stats.bump("cleansings", 0);
            let state = vec![0; x.items()];
            let (chosen, found) = (Vec::new(), Vec::new());
            let mut r = Reference {
                x,
                state,
                chosen,
                found,
                stats,
                cap,
            };
            r.level();
            (r.stats, r.found)
        }

        fn live(&self, o: usize) -> bool {
            // A covered item's state is no colour.
            let free = |&(j, c): &(u32, u32)| {
                let state = self.state[j as usize];
                state == 0 || state == c
            };
            self.x.has_primary(o) && self.x.option(o).iter().all(free)
        }

        /// The live options holding `item`, with the colour each gives it.
        fn list(&self, item: usize) -> Vec<(usize, u32)> {
            let holds = |o: usize| self.x.option(o).iter().find(|e| e.0 as usize == item);
            (0..self.x.options())
                .filter(|&o| self.live(o))
                .filter_map(|o| holds(o).map(|e| (o, e.1)))
                .collect()
        }

        /// Entries of option `o` a hide takes out, walking from item `item`.
        fn hidden(&self, o: usize, item: usize) -> u64 {
            let entries = self.x.option(o).iter();
            entries
                .filter(|&&(j, _)| j as usize != item && self.state[j as usize] == 0)
                .count() as u64
        }

        /// `cover(c)` with no colour, `purify` with one.
        fn commit(&mut self, item: usize, colour: u32) {
            let mut updates = u64::from(colour == 0);
            let mut cleansed = u64::from(colour != 0);
            for (o, c) in self.list(item) {
                if colour != 0 && c == colour {
                    cleansed += 1;
                } else {
                    updates += self.hidden(o, item);
                }
            }
            *self.stats.updates.as_mut().unwrap() += updates;
            self.stats.bump("cleansings", cleansed);
            self.state[item] = if colour == 0 { COVERED } else { colour };
        }

        /// One level of the search; returns true when the cap is reached.
        fn level(&mut self) -> bool {
            let open = (0..self.x.primary_items()).filter(|&i| self.state[i] != COVERED);
            let Some((len, c)) = open.map(|i| (self.list(i).len(), i)).min() else {
                self.found.push(Vec::new());
                return self.cap == 1;
            };
            self.stats.nodes += 1;
            self.stats.guesses += u64::from(len >= 2);
            self.stats.backtracks += u64::from(len == 0);
            let before = self.found.len();
            let options = self.list(c);
            self.commit(c, 0);
            for (o, _) in options {
                let saved = self.state.clone();
                // The other entries, going right cyclically from `c`'s.
                let entries = self.x.option(o);
                let at = entries.iter().position(|e| e.0 as usize == c).unwrap();
                for k in 1..entries.len() {
                    let (j, colour) = entries[(at + k) % entries.len()];
                    if colour == 0 || self.state[j as usize] == 0 {
                        self.commit(j as usize, colour);
                    }
                }
                self.chosen.push(o);
                let done = (0..self.x.primary_items()).all(|i| self.state[i] == COVERED);
                if done {
                    self.found.push(self.chosen.clone());
                    if self.found.len() as u64 == self.cap {
                        return true;
                    }
                } else if self.level() {
                    return true;
                }
                self.chosen.pop();
                self.state = saved;
            }
            self.state[c] = 0;
            if self.found.len() == before {
                self.stats.bump("failed_levels", 1);
            }
            false
        }
    }

    fn random_problem(rng: &mut impl Rng) -> ColorCover {
        let primary = rng.gen_range(1..6);
        let secondary = rng.gen_range(0..4);
        let items = (primary + secondary) as u32;
        let mut x = ColorCover::new(primary, secondary);
        for _ in 0..rng.gen_range(1..13) {
            let mut option: Vec<(u32, u32)> = Vec::new();
            for i in 0..items {
                if !rng.gen_bool(0.35) {
                    continue;
                }
                let uncoloured = (i as usize) < primary || rng.gen_bool(0.3);
                option.push((i, if uncoloured { 0 } else { rng.gen_range(1..3) }));
            }
            if option.is_empty() {
                option.push((rng.gen_range(0..primary as u32), 0));
            }
            let k = option.len();
            option.rotate_left(rng.gen_range(0..k));
            x.add_option(option).unwrap();
        }
        x
    }

    /// Every solution, by trying every set of options.
    fn brute_force(x: &ColorCover) -> Vec<Vec<usize>> {
        let mut all: Vec<Vec<usize>> = (0u32..1 << x.options())
            .map(|m| {
                (0..x.options())
                    .filter(|o| m >> o & 1 == 1)
                    .collect::<Vec<_>>()
            })
            .filter(|s| s.iter().all(|&o| x.has_primary(o)) && x.check_solution(s).is_ok())
            .collect();
        all.sort();
        all
    }

    fn counts(s: &Stats) -> (u64, Option<u64>, u64, u64, Option<u64>, Option<u64>) {
        (
            s.nodes,
            s.updates,
            s.guesses,
            s.backtracks,
            s.counter("failed_levels"),
            s.counter("cleansings"),
        )
    }

    /// On random small problems with colours: the solutions are those of brute force, and
    /// every count is the reference's, for every cap.
    #[test]
    fn agrees_with_brute_force_and_the_reference() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(29);
        let mut found = 0;
        for _ in 0..3000 {
            let x = random_problem(&mut rng);
            let (_, sols) = solve(&x, &Limits::solutions(0));
            let mut sorted: Vec<Vec<usize>> = sols
                .iter()
                .map(|s| {
                    let mut s = s.clone();
                    s.sort();
                    s
                })
                .collect();
            sorted.sort();
            assert_eq!(sorted, brute_force(&x), "{x:?}");
            found += sols.len();
            for cap in [0, 1, 2] {
                let (stats, sols) = solve(&x, &Limits::solutions(cap));
                let (want, want_sols) = Reference::run(&x, cap);
                assert_eq!(counts(&stats), counts(&want), "{x:?} cap {cap}");
                assert_eq!(sols, want_sols);
            }
        }
        assert!(found > 500, "{found} solutions");
    }

    /// Without colours Algorithm C is Algorithm X: every count equals DLX1's on the same
    /// problem (`Links`), and there is no cleansing.
    #[test]
    fn without_colours_it_counts_as_dlx1() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for _ in 0..1000 {
            let plain = super::super::tests::random_problem(&mut rng);
            let mut x = ColorCover::new(plain.primary_items(), plain.secondary_items());
            for o in plain.all_options() {
                x.add_option(o.iter().map(|&i| (i, 0))).unwrap();
            }
            for cap in [0, 1, 2] {
                let limits = Limits {
                    keep_solutions: usize::MAX,
                    ..Limits::solutions(cap)
                };
                let (stats, sols) = solve(&x, &limits);
                let dlx1 = super::super::solve_exact_cover(&plain, &limits);
                let (mut want, mut got) = (counts(&dlx1.stats), counts(&stats));
                assert_eq!(got.5, Some(0));
                (want.5, got.5) = (None, None);
                assert_eq!(got, want, "{plain:?} cap {cap}");
                assert!(sols == dlx1.solutions, "{plain:?} cap {cap}");
            }
        }
    }

    /// A node limit stops the search with the links restored (checked by `solve`).
    #[test]
    fn limits_stop_and_restore() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        for _ in 0..500 {
            let x = random_problem(&mut rng);
            for limit in 1..4 {
                let limits = Limits {
                    node_limit: Some(limit),
                    ..Limits::solutions(0)
                };
                let (stats, _) = solve(&x, &limits);
                assert!(stats.nodes <= limit);
            }
        }
    }
}
