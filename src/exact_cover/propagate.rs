//! Propagation in the search: an option elimination repeated at every level of Algorithm X,
//! undone exactly on backtrack.
//!
//! Source: the first rule of D. E. Knuth's program DLX-PRE (the preprocessor written with
//! DLX1 and DLX2 for TAOCP 7.2.2.1; section "The dancing"): *if `p` is a primary item and
//! `c` an item such that every option containing `p` also contains `c`, then every option
//! that contains `c` but not `p` can be deleted*, "for we'll need to cover `p`, and then `c`
//! will automatically be covered too". DLX-PRE applies it (with a more general rule) once, to
//! the input, and so does [`preprocess`](fn@super::preprocess) (`dlx:pre=true`). Here it is applied inside
//! the search, to the problem left at the root and after every option the search chooses:
//! that problem is itself an exact-cover problem (the covered items and the options hidden
//! with them are gone), so the same argument removes only options that are in none of its
//! solutions. Applying it at every node rather than once is this module's choice, not
//! Knuth's program; the more general rule of DLX-PRE (an option whose choice would leave
//! some primary item with no option) is a one-step look-ahead over every option at every
//! level and is not done here.
//!
//! In Sudoku's matrix (one item per cell and per (house, digit), one option per candidate)
//! the rule with `p` of length two or more is exactly *locked candidates*: when the
//! candidates of digit `d` in a box all lie in one row, `p` = (box, `d`), `c` = (row, `d`),
//! and `d` goes from the rest of the row (pointing); with `p` = (row, `d`) and `c` = (box,
//! `d`), from the rest of the box (claiming); likewise for columns, diagonals and jigsaw
//! regions. A cell's options share no other item unless it has a single candidate. Items of
//! length 1 are left alone: DLX1's choice (least length first) takes them at the next level
//! anyway, which is naked and hidden singles one per level.
//!
//! # How it runs
//!
//! After the covers of a level (and once at the root, after the givens), the items whose
//! lists just shrank are queued: at the root every active primary item; after a choice, the
//! items of the options hidden by covering the chosen option's items (found by walking the
//! covered items' lists, where the hidden options stay). For each queued active primary item
//! `p` of length two or more, the items common to all its options are found (the first
//! option's items, filtered by each further option); for each such item `c`, the options of
//! `c` without `p` are removed from every list they are in (`Core::remove_option`) and
//! pushed on a trail, and the items of the removed options are queued in turn. The queue
//! runs to a fixpoint, or stops as soon as a primary item has no option left (the next level
//! is then a dead end, counted as DLX1 counts one). Only items whose lists shrank can newly
//! satisfy the rule, since lists only shrink below a fixpoint. When the search backs up
//! over a level, the options its eliminations removed are put back in the reverse order of
//! their removal before the level's covers are undone, so the lists are restored exactly
//! (dancing links restore any LIFO sequence of removals).
//!
//! # Counters
//!
//! - `prop_removed`: options removed by the elimination, summed over the search (an option
//!   removed, restored on backtrack and removed again below another choice counts twice).
//! - `prop_fired`: times the rule removed something: pairs (`p`, `c`) found with at least one
//!   option of `c` lacking `p`.
//! - `updates` also counts the nodes the elimination unlinks, +1 per node, as `cover` counts
//!   the nodes it hides; `nodes` keeps its meaning (levels entered).

use super::links::{Core, Idx, Key};

impl<I: Idx, K: Key> Core<I, K> {
    pub(crate) fn set_propagation(&mut self, on: bool) {
        let items = self.items() as usize;
        let levels = self.choice.len();
        let prop = &mut self.prop;
        prop.on = on;
        if on {
            prop.mark.resize(levels, 0);
            prop.queued.resize(items, false);
        }
    }

    /// Trail length now, to restore to later.
    #[inline]
    pub(crate) fn trail_len(&self) -> u32 {
        self.prop.trail.len() as u32
    }

    /// Puts back the options removed since the trail had length `mark`, last removed first.
    #[inline]
    pub(crate) fn restore_to(&mut self, mark: u32) {
        while self.prop.trail.len() > mark as usize {
            let p = self.prop.trail.pop().unwrap_or_default();
            self.unremove_option(p);
        }
    }

    /// The elimination at the root: every active primary item is looked at. Starts a fresh
    /// trail (whatever an earlier discarding search left is gone with its lists).
    pub(crate) fn propagate_root(&mut self) {
        self.prop.trail.clear();
        if self.dead_end() {
            return;
        }
        for i in 0..self.primary() {
            if self.active_primary(i) {
                self.enqueue(i);
            }
        }
        self.propagate();
    }

    /// The elimination after the option holding node `p` was chosen and its items covered:
    /// the items of the options those covers hid are looked at.
    pub(crate) fn propagate_after(&mut self, p: u32) {
        if self.dead_end() {
            // The covers left a primary item with no option: the next level fails anyway.
            return;
        }
        let mut x = p;
        loop {
            let c = self.top(x);
            // The covered item's list still holds every option its cover hid (each hidden
            // option is in the list of the first of the chosen option's items covered).
            let mut r = self.first(c);
            while r != c {
                if r != x {
                    let mut q = self.right(r);
                    while q != r {
                        let t = self.top(q);
                        self.enqueue(t);
                        q = self.right(q);
                    }
                }
                r = self.down(r);
            }
            x = self.right(x);
            if x == p {
                break;
            }
        }
        self.propagate();
    }

    #[inline]
    fn enqueue(&mut self, i: u32) {
        if self.active_primary(i) && !self.prop.queued[i as usize] {
            self.prop.queued[i as usize] = true;
            self.prop.queue.push(i);
        }
    }

    /// Runs the queue to a fixpoint, or until a primary item is left with no option.
    fn propagate(&mut self) {
        let mut common = std::mem::take(&mut self.prop.common);
        while let Some(p) = self.prop.queue.pop() {
            self.prop.queued[p as usize] = false;
            if !self.is_active(p as usize) || self.len(p as usize) < 2 {
                continue;
            }
            // Items in every option of `p` whose lists are longer than `p`'s (if the lists
            // are as long, they are the same list and nothing goes; if shorter, the item
            // cannot be in every option of `p`): those of its first option, filtered by the
            // others.
            let len = self.len(p as usize);
            let first = self.first(p);
            common.clear();
            let mut q = self.right(first);
            while q != first {
                let c = self.top(q);
                if self.len(c as usize) > len {
                    common.push(c);
                }
                q = self.right(q);
            }
            let mut r = self.down(first);
            while r != p && !common.is_empty() {
                common.retain(|&c| self.option_holds(r, c));
                r = self.down(r);
            }
            for &c in &common {
                let mut fired = false;
                let mut r = self.first(c);
                while r != c {
                    let next = self.down(r);
                    // The options of `c` that hold `p` are exactly those of `p`.
                    if !self.option_holds(r, p) {
                        self.remove_option(r);
                        self.prop.trail.push(r);
                        self.prop.removed += 1;
                        fired = true;
                        if self.dead_end() {
                            self.clear_queue();
                            self.prop.common = common;
                            return;
                        }
                        let mut q = self.right(r);
                        while q != r {
                            let t = self.top(q);
                            self.enqueue(t);
                            q = self.right(q);
                        }
                    }
                    r = next;
                }
                self.prop.fired += fired as u64;
            }
        }
        self.prop.common = common;
    }

    fn clear_queue(&mut self) {
        while let Some(i) = self.prop.queue.pop() {
            self.prop.queued[i as usize] = false;
        }
    }

    /// Whether the option holding node `r` contains item `c`.
    #[inline]
    fn option_holds(&self, r: u32, c: u32) -> bool {
        let mut q = r;
        loop {
            if self.top(q) == c {
                return true;
            }
            q = self.right(q);
            if q == r {
                return false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_problem;
    use super::super::{polyomino, read_dlx1, ExactCover, Links, SudokuCover};
    use crate::puzzle::{Geometry, Puzzle};
    use crate::search::{Limits, Search, Stats, Status};
    use rand::{Rng, SeedableRng};

    /// A tidy search of `links` (propagation as set) under `limits`: the stats and the
    /// solutions found, each sorted (the elimination may change the order of the choices).
    fn run(links: &mut Links, limits: &Limits) -> (Stats, Vec<Vec<u32>>) {
        let mut search = Search::new(limits);
        let mut sols = Vec::new();
        links.search(&mut search, |s, o| {
            let mut o = o.to_vec();
            o.sort();
            sols.push(o);
            s.solution(&[])
        });
        (search.finish().stats, sols)
    }

    fn with_prop(x: &ExactCover, large: bool) -> Links {
        let mut links = Links::new_forced(x, large);
        links.set_propagation(true);
        links
    }

    /// On random problems (secondary items, any item order, both representations, givens
    /// selected at the root): the elimination finds exactly the solutions of plain DLX1;
    /// every tidy search, complete or stopped at any point by the solution cap or the node
    /// limit, leaves the lists exactly as it found them; a discarding search restarted with
    /// `start` gives the same answers again.
    #[test]
    fn keeps_every_solution_and_restores_the_lists_exactly() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut removed = 0;
        for round in 0..400 {
            let x = random_problem(&mut rng);
            let picks: Vec<usize> = (0..rng.gen_range(0..3))
                .map(|_| rng.gen_range(0..x.options()))
                .collect();
            for large in [false, true] {
                let mut plain = Links::new_forced(&x, large);
                let mut prop = with_prop(&x, large);
                let a = picks.iter().try_for_each(|&o| plain.select(x.option(o)));
                let b = picks.iter().try_for_each(|&o| prop.select(x.option(o)));
                assert_eq!(a, b);
                if a.is_err() {
                    continue;
                }
                let before = prop.clone();
                let all = Limits::solutions(0);
                let (sa, mut want) = run(&mut plain, &all);
                assert_eq!(sa.counter("prop_removed"), None);
                let (sb, mut got) = run(&mut prop, &all);
                want.sort();
                got.sort();
                assert_eq!(got, want, "round {round}");
                assert!(prop.same_lists(&before) && prop.sane(), "round {round}");
                removed += sb.counter("prop_removed").unwrap();
                // Stopped by the solution cap or the node limit, at any point.
                let cap = rng.gen_range(1..3u64);
                let nodes = rng.gen_range(1..6u64);
                for limits in [
                    Limits::solutions(cap),
                    Limits {
                        node_limit: Some(nodes),
                        ..Limits::solutions(0)
                    },
                ] {
                    let (s, sols) = run(&mut prop, &limits);
                    assert!(prop.same_lists(&before) && prop.sane(), "round {round}");
                    assert!(sols.iter().all(|o| want.contains(o)));
                    if let Some(n) = limits.node_limit {
                        assert!(s.nodes <= n);
                    } else {
                        assert_eq!(sols.len() as u64, cap.min(want.len() as u64));
                    }
                }
                // The engine's way: a discarding search, then `start` again.
                let mut search = Search::new(&all);
                prop.search_discarding(&mut search, |s, _| s.solution(&[]));
                assert_eq!(search.finish().count, want.len() as u64);
                prop.start(picks.iter().map(|&o| x.option(o))).unwrap();
                let (_, again) = run(&mut prop, &all);
                assert_eq!(again.len(), want.len(), "round {round}");
            }
        }
        assert!(removed > 0, "the rule never fired");
    }

    /// Knuth's example of DLX-PRE: at the root, every option with A holds D, so `D E G` goes;
    /// the search then finds the unique solution.
    #[test]
    fn knuths_example_is_reduced_at_the_root() {
        let x = read_dlx1("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
        let mut links = with_prop(&x, false);
        let (s, sols) = run(&mut links, &Limits::solutions(0));
        assert_eq!(sols, [vec![0, 3, 4]]);
        assert!(s.counter("prop_removed").unwrap() >= 1);
        assert!(s.counter("prop_fired").unwrap() >= 1);
    }

    /// Pentomino packings of 3x20 (8 solutions): same count with the elimination, each
    /// solution valid, fewer nodes.
    #[test]
    fn pentominoes_3x20_keep_their_8_packings() {
        let x = polyomino::packing(3, 20, &polyomino::pentominoes());
        let all = Limits::solutions(0);
        let (sa, _) = run(&mut Links::new(&x), &all);
        let mut links = Links::new(&x);
        links.set_propagation(true);
        let (sb, sols) = run(&mut links, &all);
        assert_eq!(sols.len(), 8);
        for s in &sols {
            let s: Vec<usize> = s.iter().map(|&o| o as usize).collect();
            x.check_solution(&s).unwrap();
        }
        assert!(sb.nodes < sa.nodes, "{} vs {}", sb.nodes, sa.nodes);
    }

    /// Sudoku: locked candidates cut the tree of hard 9x9 puzzles (fewer nodes in total, the
    /// rule fires), and counting every grid of under-constrained 4x4 and 6x6 puzzles (the
    /// search backs up through every elimination many times) gives plain DLX1's counts.
    #[test]
    fn sudoku_locked_candidates() {
        let path = format!("{}/data/magictour-top1465.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let g = std::sync::Arc::new(Geometry::square(9).unwrap());
        let (mut plain_nodes, mut prop_nodes, mut fired) = (0, 0, 0);
        for line in text.lines().filter(|l| l.len() >= 81).take(20) {
            let givens = line
                .bytes()
                .take(81)
                .map(|b| {
                    if b.is_ascii_digit() {
                        (b - b'0') as u16
                    } else {
                        0
                    }
                })
                .collect();
            let p = Puzzle::new(g.clone(), givens).unwrap();
            let x = SudokuCover::for_puzzle(&p).into_cover();
            let (a, sa) = run(&mut Links::new(&x), &Limits::solutions(2));
            let mut links = Links::new(&x);
            links.set_propagation(true);
            let (b, sb) = run(&mut links, &Limits::solutions(2));
            assert_eq!(sa, sb);
            assert_eq!(sa.len(), 1);
            plain_nodes += a.nodes;
            prop_nodes += b.nodes;
            fired += b.counter("prop_fired").unwrap();
        }
        assert!(fired > 0);
        assert!(
            prop_nodes * 3 < plain_nodes * 2,
            "{prop_nodes} vs {plain_nodes}"
        );

        let four = Geometry::square(4).unwrap();
        let six = std::sync::Arc::new(Geometry::square(6).unwrap());
        // A 6x6 grid with its first row and first column given: many completions.
        let mut givens = vec![0u16; 36];
        for (k, d) in [1, 2, 3, 4, 5, 6].into_iter().enumerate() {
            givens[k] = d;
        }
        for (r, d) in [(1, 4), (2, 2), (3, 3), (4, 5), (5, 6)] {
            givens[r * 6] = d;
        }
        let partial = Puzzle::new(six, givens).unwrap();
        let covers = [
            SudokuCover::full(&four).cover().clone(),
            SudokuCover::for_puzzle(&partial).into_cover(),
        ];
        for x in &covers {
            let all = Limits::solutions(0);
            let (a, _) = run(&mut Links::new(x), &all);
            let mut links = Links::new(x);
            links.set_propagation(true);
            let fresh = links.clone();
            let mut search = Search::new(&all);
            links.search(&mut search, |s, _| s.solution(&[]));
            let o = search.finish();
            assert!(links.same_lists(&fresh));
            let (_, want) = run(&mut Links::new(x), &all);
            assert_eq!(o.count, want.len() as u64);
            assert_eq!(o.status, Status::Multiple);
            assert!(o.count > 100, "{}", o.count);
            assert!(o.stats.nodes <= a.nodes);
        }
    }
}
