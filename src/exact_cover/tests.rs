//! Tests of the exact-cover module: matrix sizes, an independent reference of DLX1's search
//! and counters, polyomino packings, and the DLX1 format round trip.

use super::*;
use crate::puzzle::{Geometry, Puzzle};
use crate::search::{Limits, Stats, Status};
use rand::{Rng, SeedableRng};
use std::sync::Arc;

/// DLX1's search written the slow, obvious way, on sets instead of links: an option is *live*
/// while none of its items is covered (DLX1 never links an option without a primary item);
/// `cover(c)` counts 1 + (size - 1) for each live option meeting `c`.
struct Reference<'a> {
    x: &'a ExactCover,
    covered: Vec<bool>,
    stats: Stats,
    solutions: Vec<Vec<usize>>,
    stack: Vec<usize>,
    cap: usize,
}

impl<'a> Reference<'a> {
    fn run(x: &'a ExactCover, cap: usize) -> (Stats, Vec<Vec<usize>>) {
        let mut r = Reference {
            x,
            covered: vec![false; x.items()],
            stats: Stats::default(),
            solutions: Vec::new(),
            stack: Vec::new(),
            cap,
        };
        r.stats.updates = Some(0);
        r.level();
        (r.stats, r.solutions)
    }

    fn live(&self, o: usize) -> bool {
        self.x.has_primary(o) && self.x.option(o).iter().all(|&i| !self.covered[i as usize])
    }

    fn list(&self, c: usize) -> Vec<usize> {
        (0..self.x.options())
            .filter(|&o| self.x.option(o).contains(&(c as u32)) && self.live(o))
            .collect()
    }

    fn cover(&mut self, c: usize) {
        let u: usize = 1 + self
            .list(c)
            .iter()
            .map(|&o| self.x.option(o).len() - 1)
            .sum::<usize>();
        *self.stats.updates.as_mut().unwrap() += u as u64;
        self.covered[c] = true;
    }

    fn done(&self) -> bool {
        (0..self.x.primary_items()).all(|i| self.covered[i])
    }

    /// Returns true when the cap is reached.
    fn level(&mut self) -> bool {
        self.stats.nodes += 1;
        let mut best: Option<(usize, usize)> = None;
        for i in 0..self.x.primary_items() {
            if !self.covered[i] {
                let len = self.list(i).len();
                if best.map_or(true, |(_, b)| len < b) {
                    best = Some((i, len));
                }
            }
        }
        let (c, len) = best.unwrap();
        if len >= 2 {
            self.stats.guesses += 1;
        }
        if len == 0 {
            self.stats.backtracks += 1;
        }
        let entry = self.solutions.len();
        let options = self.list(c);
        self.cover(c);
        for o in options {
            let saved = self.covered.clone();
            for &j in self.x.option(o) {
                if j as usize != c {
                    self.cover(j as usize);
                }
            }
            self.stack.push(o);
            if self.done() {
                self.solutions.push(self.stack.clone());
                if self.solutions.len() == self.cap {
                    return true;
                }
            } else if self.level() {
                return true;
            }
            self.stack.pop();
            self.covered = saved;
        }
        self.covered[c] = false;
        if self.solutions.len() == entry {
            self.stats.bump("failed_levels", 1);
        }
        false
    }
}

pub(crate) fn random_problem(rng: &mut impl Rng) -> ExactCover {
    let primary = rng.gen_range(1..9);
    let secondary = rng.gen_range(0..3);
    let mut x = ExactCover::unnamed(primary, secondary);
    for _ in 0..rng.gen_range(1..30) {
        let mut items: Vec<u32> = (0..(primary + secondary) as u32)
            .filter(|_| rng.gen_bool(0.3))
            .collect();
        if items.is_empty() {
            items.push(rng.gen_range(0..(primary + secondary) as u32));
        }
        // Any item order: DLX1 may see an option's items in any order.
        let k = items.len();
        items.rotate_left(rng.gen_range(0..k));
        x.add_option(items).unwrap();
    }
    x
}

fn same_counts(a: &Stats, b: &Stats) {
    assert_eq!(
        (a.nodes, a.updates, a.guesses, a.backtracks),
        (b.nodes, b.updates, b.guesses, b.backtracks)
    );
    assert_eq!(
        a.counter("failed_levels").unwrap_or(0),
        b.counter("failed_levels").unwrap_or(0)
    );
}

/// [`solve_exact_cover`] on a forced representation (`u32`/`i32` when `large`, else
/// `u16`/`i16`), with the portable choice scan when `portable` (else the AVX2 one where the
/// CPU has it), checking that the search leaves the links as built.
fn solve_forced(
    x: &ExactCover,
    limits: &Limits,
    large: bool,
    portable: bool,
) -> (Stats, Vec<Vec<usize>>) {
    let mut search = crate::search::Search::new(limits);
    let mut links = Links::new_forced(x, large);
    assert_eq!(
        links.representation(),
        if large { "large" } else { "small" }
    );
    if portable {
        links.force_portable_search();
    }
    let fresh = links.clone();
    let mut sols = Vec::new();
    links.search(&mut search, |s, o| {
        sols.push(o.iter().map(|&o| o as usize).collect());
        s.solution(&[])
    });
    assert!(links.same_lists(&fresh) && links.sane());
    (search.finish().stats, sols)
}

/// Checks the forced representations, each with the portable and the AVX2 search (the
/// portable one twice where the CPU has no AVX2), against `stats` and `sols`.
fn same_in_every_representation(x: &ExactCover, cap: u64, stats: &Stats, sols: &[Vec<usize>]) {
    for large in [false, true] {
        for portable in [false, true] {
            let (s, so) = solve_forced(x, &Limits::solutions(cap), large, portable);
            same_counts(&s, stats);
            assert_eq!(so, sols);
        }
    }
}

/// [`Links::start`] (the copy of the structure as built, or [`Links::relink`] for `u32`
/// links) from the dirty state a [`Links::search_discarding`] leaves gives the lists of
/// [`Links::select`] on fresh links, the same clash, and the same search.
#[test]
fn start_equals_select_after_a_discarding_search() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for round in 0..300 {
        let x = random_problem(&mut rng);
        let picks: Vec<usize> = (0..rng.gen_range(0..4))
            .map(|_| rng.gen_range(0..x.options()))
            .collect();
        let cap = rng.gen_range(0..3u64);
        for large in [false, true] {
            let mut fresh = Links::new_forced(&x, large);
            let selected = picks.iter().try_for_each(|&o| fresh.select(x.option(o)));
            let mut dirty = Links::new_forced(&x, large);
            for first in [1u64, 0] {
                let limits = Limits::solutions(first);
                let mut s = crate::search::Search::new(&limits);
                dirty.search_discarding(&mut s, |s, _| s.solution(&[]));
            }
            let started = dirty.start(picks.iter().map(|&o| x.option(o)));
            assert_eq!(started, selected, "round {round}");
            if selected.is_err() {
                continue;
            }
            assert_eq!(dirty.active_lists(), fresh.active_lists(), "round {round}");
            assert_eq!(dirty.active(), fresh.active());
            let run = |links: &mut Links, tidy: bool| {
                let limits = Limits::solutions(cap);
                let mut search = crate::search::Search::new(&limits);
                let mut sols = Vec::new();
                let visit = |s: &mut crate::search::Search, o: &[u32]| {
                    sols.push(o.to_vec());
                    s.solution(&[])
                };
                if tidy {
                    links.search(&mut search, visit);
                } else {
                    links.search_discarding(&mut search, visit);
                }
                (search.finish().stats, sols)
            };
            let (a, sa) = run(&mut fresh, true);
            let (b, sb) = run(&mut dirty, false);
            same_counts(&a, &b);
            assert_eq!(sa, sb, "round {round}");
        }
    }
}

/// A problem whose options all have one item of each of 4 groups, in group order (so every
/// item has one place in all its options, as in a Sudoku matrix), some of them secondary.
fn random_four_place_problem(rng: &mut impl Rng) -> ExactCover {
    let sizes: Vec<u32> = (0..4).map(|_| rng.gen_range(1..4)).collect();
    let secondary = rng.gen_range(0..2);
    let all: u32 = sizes.iter().sum::<u32>() + secondary;
    let mut x = ExactCover::unnamed(all as usize - secondary as usize, secondary as usize);
    for _ in 0..rng.gen_range(1..25) {
        let mut base = 0;
        let mut option = Vec::new();
        for (g, &n) in sizes.iter().enumerate() {
            // The last group also draws the secondary items, numbered after the primary ones.
            let n = if g == 3 { n + secondary } else { n };
            let pick = rng.gen_range(0..n);
            option.push(if g == 3 && pick >= sizes[3] {
                all - secondary + pick - sizes[3]
            } else {
                base + pick
            });
            base += n;
        }
        x.add_option(option).unwrap();
    }
    x
}

/// Solves `x` up to `cap` solutions in every representation and checks each against the
/// reference (counts and solutions); returns the default solver's outcome.
fn agrees_with_the_reference(x: &ExactCover, cap: u64, round: usize) -> CoverOutcome {
    let (stats, sols) = Reference::run(x, cap as usize);
    let o = solve_exact_cover(x, &Limits::solutions(cap));
    same_counts(&o.stats, &stats);
    assert_eq!(o.solutions, sols, "round {round} cap {cap}");
    same_in_every_representation(x, cap, &stats, &sols);
    o
}

/// Options of 4 items in fixed places are hidden by the unrolled code of the search
/// (`Core::width` 4), which must count and find exactly what the reference does, from fresh
/// links and from [`Links::start`] after a discarding search; mixed widths or places use the
/// general walk.
#[test]
fn four_place_options_agree_with_the_reference() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    for round in 0..300 {
        let x = random_four_place_problem(&mut rng);
        let picked = rng.gen_range(0..x.options());
        for cap in [0u64, 1, 2] {
            agrees_with_the_reference(&x, cap, round);
            for large in [false, true] {
                let mut fresh = Links::new_forced(&x, large);
                assert_eq!(fresh.width(), 4, "round {round}");
                let mut dirty = fresh.clone();
                let one = Limits::solutions(1);
                let mut s = crate::search::Search::new(&one);
                dirty.search_discarding(&mut s, |s, _| s.solution(&[]));
                let selected = fresh.select(x.option(picked));
                assert_eq!(dirty.start([x.option(picked)]), selected);
                if selected.is_ok() {
                    assert_eq!(dirty.active_lists(), fresh.active_lists(), "round {round}");
                }
            }
        }
    }
    let g = Geometry::square(9).unwrap();
    assert_eq!(Links::new(SudokuCover::full(&g).cover()).width(), 4);
    let g = g.with_diagonals(true);
    assert_eq!(Links::new(SudokuCover::full(&g).cover()).width(), 0);
    let mut x = ExactCover::unnamed(3, 0);
    x.add_option([0, 1]).unwrap();
    x.add_option([1, 0]).unwrap();
    assert_eq!(Links::new(&x).width(), 0, "one item in two places");
    x.add_option([2]).unwrap();
    assert_eq!(Links::new(&x).width(), 0, "two widths");
}

#[test]
fn links_agree_with_the_reference_on_random_problems() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    for round in 0..400 {
        let x = random_problem(&mut rng);
        for cap in [0u64, 1, 2] {
            let o = agrees_with_the_reference(&x, cap, round);
            for s in &o.solutions {
                x.check_solution(s).unwrap();
            }
            let want = match (o.solutions.len(), cap) {
                (0, _) => Status::Unsat,
                (1, 1) => Status::Solved,
                (1, _) => Status::Unique,
                _ => Status::Multiple,
            };
            assert_eq!(o.status, want, "round {round} cap {cap}");
        }
    }
}

#[test]
fn knuths_example() {
    // "Dancing Links" (2000), matrix (3): unique solution {A D}, {E F C}, {B G}.
    let x = read_dlx1("A B C D E F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
    let o = solve_exact_cover(&x, &Limits::solutions(0));
    assert_eq!(o.status, Status::Unique);
    let mut s = o.solutions[0].clone();
    s.sort();
    assert_eq!(s, [0, 3, 4]);
    let (stats, _) = Reference::run(&x, 0);
    same_counts(&o.stats, &stats);
    // By hand: level 0 chooses A (len 2) and tries A D G: B C E F remain, level 1 chooses B
    // (len 1), B C F leaves E with no option: level 2 fails. Level 0 tries A D: level 1
    // chooses E (len 1), C E F leaves B G: level 2 chooses B, B G is a solution.
    assert_eq!(o.stats.nodes, 5);
    assert_eq!(o.stats.guesses, 1);
    // One dead end (E with no option); two failed levels (that one and level 1 above it).
    assert_eq!(o.stats.backtracks, 1);
    assert_eq!(o.stats.counter("failed_levels"), Some(2));
}

#[test]
fn sudoku_matrix_sizes() {
    let sizes = |g: &Geometry| {
        let x = SudokuCover::full(g).into_cover();
        (x.items(), x.options(), x.ones(), x.primary_items())
    };
    for n in [1usize, 4, 6, 9, 16, 25] {
        let g = Geometry::square(n).unwrap();
        assert_eq!(sizes(&g), (4 * n * n, n * n * n, 4 * n * n * n, 4 * n * n));
        let x = g.with_diagonals(true);
        if n > 1 {
            assert_eq!(
                sizes(&x),
                (
                    4 * n * n + 2 * n,
                    n * n * n,
                    4 * n * n * n + 2 * n * n,
                    4 * n * n + 2 * n
                )
            );
        }
    }
    assert_eq!(sizes(&Geometry::square(9).unwrap()), (324, 729, 2916, 324));
    let j = Geometry::jigsaw(9, JIGSAW.bytes().map(|b| (b - b'0') as u16).collect()).unwrap();
    assert_eq!(sizes(&j), (324, 729, 2916, 324));
    let names = item_names(&Geometry::square(9).unwrap().with_diagonals(true));
    assert_eq!(names[0], "p1,1");
    assert_eq!(names[80], "p9,9");
    assert_eq!(names[81], "r1#1");
    assert_eq!(names[81 + 9 * 9], "c1#1");
    assert_eq!(names[81 + 18 * 9 + 8], "b1#9");
    assert_eq!(names[81 + 27 * 9], "d1#1");
    assert_eq!(names.last().unwrap(), "d2#9");
    assert_eq!(item_names(&j)[81 + 18 * 9], "j1#1");
    assert!(names.iter().all(|n| n.len() <= 8));
}

/// A 9x9 jigsaw layout (region of each cell, row-major).
pub(crate) const JIGSAW: &str =
    "000122222000111122033141122034441555036644455336645558333648858666677888777777788";

#[test]
fn puzzle_matrix_eliminates_the_givens() {
    let g = Arc::new(Geometry::square(4).unwrap());
    let mut givens = vec![0u16; 16];
    givens[0] = 1;
    let p = Puzzle::new(g.clone(), givens.clone()).unwrap();
    let m = SudokuCover::for_puzzle(&p);
    // 4 items covered; options: 64 - (4 in the cell) - 3 * 3 (digit 1 in the row, column,
    // box, other cells; the box shares one cell with the row and one with the column) ...
    let x = m.cover();
    assert_eq!(x.items(), 60);
    assert_eq!(x.ones(), 4 * x.options());
    assert_eq!(x.options(), 64 - 4 - 7);
    // Clashing givens: an item covered twice stays, with no option.
    givens[1] = 1;
    let p = Puzzle::new(g, givens).unwrap();
    let x = SudokuCover::for_puzzle(&p).into_cover();
    let o = solve_exact_cover(&x, &Limits::solutions(2));
    assert_eq!(o.status, Status::Unsat);
    assert_eq!(o.stats.nodes, 1);
}

#[test]
fn empty_4x4_has_288_grids() {
    let g = Geometry::square(4).unwrap();
    let m = SudokuCover::full(&g);
    let o = solve_exact_cover(m.cover(), &Limits::solutions(0));
    assert_eq!(o.count, 288);
    assert_eq!(o.status, Status::Multiple);
    let (stats, _) = Reference::run(m.cover(), 0);
    same_counts(&o.stats, &stats);
    assert_eq!(Links::new(m.cover()).representation(), "tiny");
    same_in_every_representation(m.cover(), 0, &stats, &o.solutions);
    for s in &o.solutions {
        g.check_grid(&m.grid(s)).unwrap();
    }
}

#[test]
fn pentominoes_3x20_round_trip_through_dlx1() {
    let x = polyomino::packing(3, 20, &polyomino::pentominoes());
    let o = solve_exact_cover(&x, &Limits::solutions(0));
    assert_eq!(o.count, 8);
    assert_eq!(o.status, Status::Multiple);
    for s in &o.solutions {
        x.check_solution(s).unwrap();
    }
    let text = to_dlx1(&x, &["pentominoes in a 3x20 box"]);
    let y = read_dlx1(&text).unwrap();
    assert_eq!(y, x);
    let p = solve_exact_cover(&y, &Limits::solutions(0));
    assert_eq!(p.count, 8);
    assert_eq!(p.solutions, o.solutions);
    same_counts(&p.stats, &o.stats);
    assert_eq!(Links::new(&x).representation(), "small");
    same_in_every_representation(&x, 0, &o.stats, &o.solutions);
}

/// 6x10 pentominoes: 9356 packings (2339 up to symmetry). About a second in release.
#[test]
#[ignore]
fn pentominoes_6x10_has_9356_packings() {
    let x = polyomino::packing(6, 10, &polyomino::pentominoes());
    let o = solve_exact_cover(&x, &Limits::solutions(0));
    assert_eq!(o.count, 9356);
    assert_eq!(o.count % 4, 0);
    eprintln!("6x10: {:?} {:?}", o.stats, o.solve);
}

#[test]
fn limits_stop_and_leave_the_links_clean() {
    let x = polyomino::packing(3, 20, &polyomino::pentominoes());
    let limits = Limits {
        max_solutions: 0,
        node_limit: Some(100),
        ..Limits::default()
    };
    let o = solve_exact_cover(&x, &limits);
    assert_eq!(o.status, Status::NodeLimit);
    assert_eq!(o.stats.nodes, 100);

    let mut links = Links::new(&x);
    let fresh = links.clone();
    for cap in [1u64, 3, 5] {
        let l = Limits::solutions(cap);
        let mut s = crate::search::Search::new(&l);
        let mut n = 0;
        links.search(&mut s, |s, _| {
            n += 1;
            s.solution(&[])
        });
        assert_eq!(n, cap);
        assert!(links.sane());
        assert!(links.same_lists(&fresh));
    }
}

/// 6x10 pentominoes with the X in one quadrant: 2339 packings. A few seconds in debug.
#[test]
#[ignore]
fn pentominoes_6x10_up_to_symmetry() {
    let x = polyomino::packing_reduced(6, 10, &polyomino::pentominoes());
    let o = solve_exact_cover(&x, &Limits::solutions(0));
    assert_eq!(o.count, 2339);
    eprintln!("6x10 reduced: {:?} {:?}", o.stats, o.solve);
}
