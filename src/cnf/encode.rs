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

use super::amo::{at_most_one, Amo, ClauseOut};
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
    /// The pairwise at-most-one clauses of `lits`, `(-a, -b)` for `a` before `b`, in the
    /// order of [`at_most_one`].
    fn pairwise(&mut self, lits: &[i32]) {
        for (i, &a) in lits.iter().enumerate() {
            for &b in &lits[i + 1..] {
                self.push(&[-a, -b]);
            }
        }
    }
}

impl<S: Sink + ?Sized> Sink for &mut S {
    fn push(&mut self, clause: &[i32]) {
        (**self).push(clause)
    }
    fn reserve(&mut self, clauses: usize, literals: usize) {
        (**self).reserve(clauses, literals)
    }
    fn pairwise(&mut self, lits: &[i32]) {
        (**self).pairwise(lits)
    }
}

impl Sink for Clauses {
    fn push(&mut self, clause: &[i32]) {
        Clauses::push(self, clause)
    }
    fn reserve(&mut self, clauses: usize, literals: usize) {
        Clauses::reserve(self, clauses, literals)
    }
    fn pairwise(&mut self, lits: &[i32]) {
        Clauses::push_pairwise(self, lits)
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
    fn pairwise(&mut self, lits: &[i32]) {
        let k = lits.len() as u64;
        self.clauses += k * k.saturating_sub(1) / 2;
        self.literals += k * k.saturating_sub(1);
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

impl<S: Sink> Builder<S> {
    /// "At most one of `lits`": pairwise straight into the sink when no duplicate filter is
    /// on (the same clauses, in the same order, as [`at_most_one`]), else through
    /// [`at_most_one`].
    fn amo(&mut self, amo: Amo, lits: &[i32]) {
        if amo == Amo::Pairwise && self.dedup.is_none() {
            self.sink.pairwise(lits);
        } else {
            at_most_one(amo, lits, self);
        }
    }
}

/// `x(cell, digit)` after given elimination, stored as an `i32`: a variable (`> 0`), or
/// decided false (`FALSE`) or true (`TRUE`).
const FALSE: i32 = 0;
const TRUE: i32 = -1;

/// Working memory of the encoder, kept by a caller that encodes many puzzles (the `sat`
/// engine) so that its buffers, and the clause store of a formula handed back with
/// [`Scratch::recycle`], are allocated once instead of once per puzzle.
#[derive(Default)]
pub struct Scratch {
    /// `x[cell * n + d - 1]`: variable of `x(cell, d)`, `FALSE` or `TRUE`.
    x: Vec<i32>,
    /// The groups (the cells' and the (house, digit)s' undecided literals) and their ends.
    cell_lits: Vec<i32>,
    cell_ends: Vec<usize>,
    house_lits: Vec<i32>,
    house_ends: Vec<usize>,
    /// A clause store to fill next.
    clauses: Clauses,
    /// The pairs and inverse of an explicit variable map to fill next.
    map: (Vec<(u32, u16)>, Vec<u32>),
}

impl Scratch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Takes back a formula that is no longer needed, to reuse its clause store.
    pub fn recycle(&mut self, cnf: Cnf) {
        let mut clauses = cnf.clauses;
        clauses.clear();
        self.clauses = clauses;
        if let VarMap::Explicit { pairs, inverse, .. } = cnf.info.map {
            self.map = (pairs, inverse);
        }
    }
}

/// Encodes `puzzle` with `opts` (see the module doc). Options that make no sense together
/// (see [`CnfOptions::check`]) are not rejected here: `optimized` ignores the givens mode.
pub fn encode(puzzle: &Puzzle, opts: &CnfOptions) -> Cnf {
    encode_with(puzzle, opts, &mut Scratch::new())
}

/// [`encode`] with reusable working memory: the same formula.
pub fn encode_with(puzzle: &Puzzle, opts: &CnfOptions, scratch: &mut Scratch) -> Cnf {
    let mut clauses = std::mem::take(&mut scratch.clauses);
    clauses.clear();
    let (info, num_vars, assumptions) = build_with(puzzle, opts, &mut clauses, scratch);
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
    build_with(puzzle, opts, sink, &mut Scratch::new())
}

fn build_with<S: Sink>(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    sink: &mut S,
    scratch: &mut Scratch,
) -> (CnfInfo, u32, Vec<i32>) {
    let g = puzzle.geometry();
    let n = g.n();
    let cells = g.cells();
    let givens = puzzle.givens();
    let optimized = opts.encoding == CnfEncoding::Optimized;

    let x = &mut scratch.x;
    x.clear();
    let map;
    let mut unsat = false;
    if optimized {
        // Decide x(c, d) true for each given and x(c, e) (e != d), x(peer, d) false. A
        // variable decided both ways can only be x(c, d) of a given whose digit is also given
        // in a peer (givens that clash): the peers are marked first, then each given's own
        // variable is checked. (Which way such a variable ends does not matter: decided either
        // way, it gets no variable, and the formula is the empty clause.)
        const UNDECIDED: i32 = 1; // a placeholder until the numbering below
        x.resize(cells * n, UNDECIDED);
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                let d = d as usize;
                for &h in g.houses_of(c) {
                    for &p in g.house(h as usize) {
                        if p as usize != c {
                            x[p as usize * n + d - 1] = FALSE;
                        }
                    }
                }
            }
        }
        for (c, &d) in givens.iter().enumerate() {
            if d != 0 {
                let d = d as usize;
                unsat |= x[c * n + d - 1] == FALSE;
                let row = &mut x[c * n..(c + 1) * n];
                row.fill(FALSE);
                row[d - 1] = TRUE;
            }
        }
        // Number the undecided pairs in (cell, digit) order.
        let (mut pairs, mut inverse) = std::mem::take(&mut scratch.map);
        pairs.clear();
        pairs.resize(cells * n, (0, 0));
        inverse.clear();
        inverse.resize(cells * n, 0);
        let mut k = 0;
        for (c, (xs, inv)) in x
            .chunks_exact_mut(n)
            .zip(inverse.chunks_exact_mut(n))
            .enumerate()
        {
            for (d, (v, i)) in xs.iter_mut().zip(inv).enumerate() {
                let undecided = *v == UNDECIDED;
                pairs[k] = (c as u32, d as u16 + 1);
                k += undecided as usize;
                if undecided {
                    *v = k as i32;
                    *i = k as u32;
                }
            }
        }
        pairs.truncate(k);
        map = VarMap::Explicit { n, pairs, inverse };
    } else {
        x.extend(1..=(cells * n) as i32);
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
    let Scratch {
        x,
        cell_lits,
        cell_ends,
        house_lits,
        house_ends,
        ..
    } = scratch;
    cell_lits.clear();
    cell_ends.clear();
    house_lits.clear();
    house_ends.clear();
    if optimized {
        // A group holds a true literal exactly when it holds a given: a given cell, or a
        // (house, digit) with the digit given in the house; those are left out. The other
        // groups hold variables and false literals only; the variables are kept, in order.
        cell_lits.resize(cells * n, 0);
        let mut len = 0;
        for (c, &d) in givens.iter().enumerate() {
            if d == 0 {
                for &v in &x[c * n..(c + 1) * n] {
                    cell_lits[len] = v;
                    len += (v > 0) as usize;
                }
                cell_ends.push(len);
            }
        }
        cell_lits.truncate(len);
        house_lits.resize(g.house_count() * n * n, 0);
        let mut len = 0;
        for h in 0..g.house_count() {
            let house = g.house(h);
            let mut given = [false; 65];
            let given = if n < given.len() {
                &mut given[..]
            } else {
                &mut vec![false; n + 1][..]
            };
            for &c in house {
                given[givens[c as usize] as usize] = true;
            }
            for d in 0..n {
                if given[d + 1] {
                    continue;
                }
                for &c in house {
                    let v = x[c as usize * n + d];
                    house_lits[len] = v;
                    len += (v > 0) as usize;
                }
                house_ends.push(len);
            }
        }
        house_lits.truncate(len);
    } else {
        // Nothing decided: every group is whole.
        cell_lits.extend_from_slice(x);
        cell_ends.extend((1..=cells).map(|c| c * n));
        for h in 0..g.house_count() {
            let house = g.house(h);
            for d in 1..=n as i32 {
                house_lits.extend(house.iter().map(|&c| c as i32 * n as i32 + d));
                house_ends.push(house_lits.len());
            }
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
    let (cells_g, houses_g) = (
        || slices(cell_lits, cell_ends),
        || slices(house_lits, house_ends),
    );

    // Size of the formula from the group sizes, so that the clause store never grows.
    {
        // (clauses, literals) of the AMO of a group of k, k <= N (closed form for pairwise).
        let mut memo: Vec<Option<(u64, u64)>> = Vec::new();
        let mut size = |k: usize| -> (u64, u64) {
            if amo == Amo::Pairwise {
                let k = k as u64;
                return (k * k.saturating_sub(1) / 2, k * k.saturating_sub(1));
            }
            if memo.is_empty() {
                memo.resize(n + 1, None);
            }
            *memo[k].get_or_insert_with(|| {
                let (_, c, l) = crate::cnf::amo::size(amo, k);
                (c, l)
            })
        };
        let (mut nc, mut nl) = (0u64, 0u64);
        for c in cells_g() {
            nc += 1;
            nl += c.len() as u64;
            if opts.encoding.cell_amo() {
                let (sc, sl) = size(c.len());
                nc += sc;
                nl += sl;
            }
        }
        for c in houses_g() {
            if opts.encoding.house_alo() {
                nc += 1;
                nl += c.len() as u64;
            }
            let (sc, sl) = size(c.len());
            nc += sc;
            nl += sl;
        }
        let units = if optimized { 0 } else { puzzle.clues() };
        b.sink.reserve(nc as usize + units, nl as usize + units);
    }

    // 1. each cell holds at least one digit
    for c in cells_g() {
        b.clause(c);
    }
    // 2. each cell holds at most one digit
    if opts.encoding.cell_amo() {
        for c in cells_g() {
            b.amo(amo, c);
        }
    }
    // 3. each digit at most once per house
    for c in houses_g() {
        b.amo(amo, c);
    }
    // 4. each digit at least once per house
    if opts.encoding.house_alo() {
        for c in houses_g() {
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
