//! The encodings, written against the house list of the geometry (rows, columns, boxes or
//! jigsaw regions, diagonals), so every variant is covered by one code path.
//!
//! Lynce & Ouaknine, "Sudoku as a SAT problem" (2006), generalised from row/column/box to
//! houses, with variable `x(cell, digit)`:
//!
//! - minimal: cell definedness `OR_d x(c,d)` for each cell; AMO over `x(c,d)` for `c` in the
//!   house, for each house and digit;
//! - efficient: minimal + AMO over `x(c,d)` for `d` in `1..=N`, for each cell;
//! - extended: efficient + `OR_{c in house} x(c,d)` for each house and digit;
//! - givens: one unit clause each, or assumptions.
//!
//! Clauses are emitted in that order: cell ALO, cell AMO, house-digit AMO, house-digit ALO,
//! givens. With pairwise AMO every pair of every house is written, so a pair of cells that
//! share two houses (a box and a row, a box and a column, a box and a diagonal, ...) gives the
//! same clause twice, as in the published counts; `dedup` drops the repeats.
//!
//! Kwon & Jain, "Optimized CNF encoding for Sudoku puzzles" (2006): the extended encoding with
//! the givens eliminated first. A given `d` in cell `c` makes `x(c,d)` true and, by the cell
//! and house constraints, `x(c,d')` (`d' != d`) and `x(c',d)` for every peer `c'` false. Those
//! variables are removed, clauses satisfied by a true one are dropped, false literals are
//! deleted, and the remaining variables are renumbered. An at-least-one clause left empty makes
//! the formula unsatisfiable (an empty clause). No further propagation is done: this is the
//! paper's one-step elimination, not a pre-solve.

use super::amo::{at_most_one, ClauseOut};
use super::formula::{Clauses, Cnf, CnfInfo, VarMap};
use super::options::{CnfEncoding, CnfOptions, GivensMode};
use crate::puzzle::Puzzle;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Where the builder sends clauses: stored, or only counted.
pub(crate) trait Sink {
    fn push(&mut self, clause: &[i32]);
    /// Room for this many more clauses and literals (a hint).
    fn reserve(&mut self, _clauses: usize, _literals: usize) {}
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn push(&mut self, clause: &[i32]) {
        (**self).push(clause)
    }
    fn reserve(&mut self, clauses: usize, literals: usize) {
        (**self).reserve(clauses, literals)
    }
}

impl Sink for Clauses {
    fn push(&mut self, clause: &[i32]) {
        Clauses::push(self, clause)
    }
    fn reserve(&mut self, clauses: usize, literals: usize) {
        Clauses::reserve(self, clauses, literals)
    }
}

/// Counts clauses and literals without storing them.
#[derive(Default)]
pub(crate) struct Counter {
    pub clauses: u64,
    pub literals: u64,
}

impl Sink for Counter {
    fn push(&mut self, clause: &[i32]) {
        self.clauses += 1;
        self.literals += clause.len() as u64;
    }
}

/// FxHash-style hasher for the duplicate filter (clauses are small integer slices).
#[derive(Default)]
struct Fx(u64);

impl Hasher for Fx {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_i32(&mut self, i: i32) {
        self.write_u64(i as u32 as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

type FxSet<T> = HashSet<T, BuildHasherDefault<Fx>>;

/// Drops clauses already seen (same literal set, any order).
#[derive(Default)]
struct Dedup {
    empty: bool,
    units: FxSet<i32>,
    pairs: FxSet<u64>,
    long: FxSet<Box<[i32]>>,
    scratch: Vec<i32>,
}

impl Dedup {
    /// Whether `clause` is new (and remembers it).
    fn insert(&mut self, clause: &[i32]) -> bool {
        self.scratch.clear();
        self.scratch.extend_from_slice(clause);
        self.scratch.sort_unstable();
        self.scratch.dedup();
        match *self.scratch.as_slice() {
            [] => !std::mem::replace(&mut self.empty, true),
            [a] => self.units.insert(a),
            [a, b] => self
                .pairs
                .insert(((a as u32 as u64) << 32) | b as u32 as u64),
            _ => self.long.insert(self.scratch.clone().into_boxed_slice()),
        }
    }
}

struct Builder<S: Sink> {
    next_var: i32,
    sink: S,
    dedup: Option<Dedup>,
}

impl<S: Sink> ClauseOut for Builder<S> {
    fn new_var(&mut self) -> i32 {
        self.next_var += 1;
        self.next_var
    }

    fn clause(&mut self, lits: &[i32]) {
        if let Some(d) = &mut self.dedup {
            if !d.insert(lits) {
                return;
            }
        }
        self.sink.push(lits);
    }
}

/// Value of `x(cell, digit)` after given elimination: decided, or a variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum X {
    True,
    False,
    Var(i32),
}

/// Encodes `puzzle` with `opts` (see the module doc). Options that make no sense together
/// (see [`CnfOptions::check`]) are not rejected here: `optimized` ignores the givens mode.
pub fn encode(puzzle: &Puzzle, opts: &CnfOptions) -> Cnf {
    let mut clauses = Clauses::new();
    let (info, num_vars, assumptions) = build(puzzle, opts, &mut clauses);
    Cnf {
        info,
        num_vars,
        clauses,
        assumptions,
    }
}

/// Builds the formula into `sink`; returns its meaning, its number of variables and the
/// assumptions.
pub(crate) fn build<S: Sink>(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    sink: &mut S,
) -> (CnfInfo, u32, Vec<i32>) {
    let g = puzzle.geometry();
    let n = g.n();
    let cells = g.cells();
    let givens = puzzle.givens();
    let optimized = opts.encoding == CnfEncoding::Optimized;

    // x[cell * n + d - 1]
    let mut x: Vec<X> = Vec::with_capacity(cells * n);
    let map;
    let mut unsat = false;
    if optimized {
        let mut decided: Vec<Option<bool>> = vec![None; cells * n];
        let mut set = |i: usize, v: bool, unsat: &mut bool| match decided[i] {
            Some(old) if old != v => *unsat = true,
            _ => decided[i] = Some(v),
        };
        for (c, &d) in givens.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let d = d as usize;
            set(c * n + d - 1, true, &mut unsat);
            for e in 1..=n {
                if e != d {
                    set(c * n + e - 1, false, &mut unsat);
                }
            }
            for &h in g.houses_of(c) {
                for &p in g.house(h as usize) {
                    if p as usize != c {
                        set(p as usize * n + d - 1, false, &mut unsat);
                    }
                }
            }
        }
        let mut pairs = Vec::new();
        for (c, ds) in decided.chunks_exact(n).enumerate() {
            for (d, v) in ds.iter().enumerate() {
                x.push(match v {
                    Some(true) => X::True,
                    Some(false) => X::False,
                    None => {
                        pairs.push((c as u32, d as u16 + 1));
                        X::Var(pairs.len() as i32)
                    }
                });
            }
        }
        map = VarMap::explicit(n, pairs);
    } else {
        x.extend((1..=(cells * n) as i32).map(X::Var));
        map = VarMap::Formula { n };
    }
    let primary = map.primary() as i32;

    let mut b = Builder {
        next_var: primary,
        sink,
        dedup: opts.dedup.then(Dedup::default),
    };
    let info = CnfInfo {
        geometry: puzzle.shared_geometry().clone(),
        givens: givens.to_vec(),
        options: *opts,
        map,
    };
    if unsat {
        // Givens that clash: the elimination decided some variable both ways.
        b.clause(&[]);
        return (info, 0, Vec::new());
    }

    // The groups, each once: the undecided literals of every cell (digits 1..=N) and of every
    // (house, digit) (cells in house order); a group with a true literal is satisfied and
    // left out (it only happens in `optimized`, where its other literals are all false).
    let mut cell_lits: Vec<i32> = Vec::with_capacity(cells * n);
    let mut cell_ends: Vec<usize> = Vec::with_capacity(cells);
    let mut house_lits: Vec<i32> = Vec::with_capacity(g.house_count() * n * n);
    let mut house_ends: Vec<usize> = Vec::with_capacity(g.house_count() * n);
    // Pushes the undecided literals of `items` onto `lits`; false (and undone) if one is true.
    fn group(items: impl Iterator<Item = X>, lits: &mut Vec<i32>, ends: &mut Vec<usize>) {
        let start = lits.len();
        for v in items {
            match v {
                X::True => {
                    lits.truncate(start);
                    return;
                }
                X::False => {}
                X::Var(l) => lits.push(l),
            }
        }
        ends.push(lits.len());
    }
    for c in 0..cells {
        group(
            x[c * n..(c + 1) * n].iter().copied(),
            &mut cell_lits,
            &mut cell_ends,
        );
    }
    for h in 0..g.house_count() {
        let house = g.house(h);
        for d in 0..n {
            group(
                house.iter().map(|&c| x[c as usize * n + d]),
                &mut house_lits,
                &mut house_ends,
            );
        }
    }
    fn slices<'a>(lits: &'a [i32], ends: &'a [usize]) -> impl Iterator<Item = &'a [i32]> + 'a {
        let mut start = 0;
        ends.iter().map(move |&e| {
            let s = &lits[start..e];
            start = e;
            s
        })
    }
    let amo = opts.amo;

    // Size of the formula from the group sizes, so that the clause store never grows.
    {
        let sizes: Vec<(u64, u64, u64)> = (0..=n).map(|k| crate::cnf::amo::size(amo, k)).collect();
        let (mut nc, mut nl) = (0u64, 0u64);
        for c in slices(&cell_lits, &cell_ends) {
            nc += 1;
            nl += c.len() as u64;
            if opts.encoding.cell_amo() {
                nc += sizes[c.len()].1;
                nl += sizes[c.len()].2;
            }
        }
        for c in slices(&house_lits, &house_ends) {
            if opts.encoding.house_alo() {
                nc += 1;
                nl += c.len() as u64;
            }
            nc += sizes[c.len()].1;
            nl += sizes[c.len()].2;
        }
        let units = if optimized { 0 } else { puzzle.clues() };
        b.sink.reserve(nc as usize + units, nl as usize + units);
    }

    // 1. each cell holds at least one digit
    for c in slices(&cell_lits, &cell_ends) {
        b.clause(c);
    }
    // 2. each cell holds at most one digit
    if opts.encoding.cell_amo() {
        for c in slices(&cell_lits, &cell_ends) {
            at_most_one(amo, c, &mut b);
        }
    }
    // 3. each digit at most once per house
    for c in slices(&house_lits, &house_ends) {
        at_most_one(amo, c, &mut b);
    }
    // 4. each digit at least once per house
    if opts.encoding.house_alo() {
        for c in slices(&house_lits, &house_ends) {
            b.clause(c);
        }
    }
    // 5. givens
    let mut assumptions = Vec::new();
    if !optimized {
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                let l = (c * n + d as usize) as i32;
                match opts.givens {
                    GivensMode::Units => b.clause(&[l]),
                    GivensMode::Assumptions => assumptions.push(l),
                }
            }
        }
    }
    let num_vars = b.next_var as u32;
    (info, num_vars, assumptions)
}
