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
//!
//! `reduced` ([`super::singles`]): the optimized elimination followed by naked and hidden
//! singles to a fixpoint; the cells placed are left out like the givens.
//!
//! How: the clauses go straight into a [`ClauseSink`] (a solver, a clause store or a
//! counter), never through a list of clause vectors. The eliminating encodings keep one
//! candidate bitset per cell (`N` bits, `N^3` bits in all: 8 MB at 400x400) and index only the
//! live candidates: a cell's variables are consecutive, a (house, digit) group is collected per
//! house by a counting sort over the house's live candidates, and the variable map's inverse
//! is indexed by cell. The non-eliminating encodings need no table at all (`x(c,d) = c*N+d`).
//! The exact size of the formula is known before the first clause ([`count`]), so a size
//! guard refuses a formula before anything is allocated for it, and the budget (time limit,
//! cancel flag) is read every 2^16 literals.

use super::amo::{at_most_one, size as amo_size, Amo, ClauseOut};
use super::backend::{Deadline, Interrupt, Teardown};
use super::cages::{encode_cages, size_cages, TRUE};
use super::formula::{Clauses, Cnf, CnfInfo, SizeStats, VarMap};
use super::options::{CnfOptions, Deductions, GivensMode};
use super::singles::{propagate, SinglesWork, Table};
use super::sink::ClauseSink;
use super::CnfEncoding;
use crate::puzzle::{Geometry, Puzzle};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Literals between two looks at the budget while emitting clauses.
/// (2^16: at most a few milliseconds of loading into a solver, and a clock read per 2^16
/// literals costs nothing measurable.)
pub const CHECK_EVERY_LITERALS: u64 = 1 << 16;

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

/// Why encoding stopped before the formula was complete.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EncodeStop {
    /// The formula would hold `literals` literals, over `bound`: nothing was emitted.
    TooLarge { literals: u64, bound: u64 },
    /// The budget was spent (time limit or cancel flag); the sink holds part of the formula.
    Interrupted(Interrupt),
}

/// Limits of one encoding.
#[derive(Clone, Debug, Default)]
pub struct EncodeLimits {
    /// Refuse (before emitting anything) a formula of more literals than this.
    pub max_literals: Option<u64>,
    /// Time limit and cancel flag, read every [`CHECK_EVERY_LITERALS`] literals and during
    /// propagation.
    pub budget: Deadline,
    /// With a deadline: stop early enough to free what was loaded before the deadline (the
    /// sink is a solver that takes time to drop, see [`Teardown`]).
    pub teardown: Option<Teardown>,
}

/// What [`encode_into`] sent to its sink.
#[derive(Clone, Debug)]
pub struct Encoded {
    pub info: CnfInfo,
    /// Number of variables (primary + auxiliary).
    pub num_vars: u32,
    /// Givens as assumptions (empty unless `givens = assumptions`).
    pub assumptions: Vec<i32>,
    /// Variables, clauses and literals emitted (after the duplicate filter, if on).
    pub size: SizeStats,
    /// The formula is the empty clause: the givens clash, or (`reduced`) propagation found a
    /// clash. The sink got one empty clause; no solver call is needed.
    pub trivially_unsat: bool,
}

struct Builder<'a, S: ClauseSink + ?Sized> {
    next_var: i32,
    sink: &'a mut S,
    dedup: Option<Dedup>,
    clauses: u64,
    literals: u64,
    next_check: u64,
    budget: &'a Deadline,
    teardown: Option<Teardown>,
    stop: Option<Interrupt>,
}

impl<S: ClauseSink + ?Sized> ClauseOut for Builder<'_, S> {
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
        self.sink.add_clause(lits);
        self.clauses += 1;
        self.literals += lits.len() as u64;
    }
}

impl<S: ClauseSink + ?Sized> Builder<'_, S> {
    /// "At most one of `lits`": pairwise straight into the sink when no duplicate filter is
    /// on (the same clauses, in the same order, as [`at_most_one`]), else through
    /// [`at_most_one`].
    fn amo(&mut self, amo: Amo, lits: &[i32]) {
        let amo = amo.for_group(lits.len());
        if amo == Amo::Pairwise && self.dedup.is_none() {
            self.sink.add_pairwise(lits);
            let k = lits.len() as u64;
            self.clauses += k * k.saturating_sub(1) / 2;
            self.literals += k * k.saturating_sub(1);
        } else {
            at_most_one(amo, lits, self);
        }
    }

    /// Whether to stop: the budget, read every [`CHECK_EVERY_LITERALS`] literals.
    fn spent(&mut self) -> bool {
        if self.literals >= self.next_check {
            self.next_check = self.literals + CHECK_EVERY_LITERALS;
            if self.stop.is_none() {
                self.stop = self.budget.expired().map(Interrupt::from);
            }
            if let (None, Some(t), Some(d)) = (self.stop, &self.teardown, self.budget.at) {
                if std::time::Instant::now() >= t.deadline(d, self.clauses) {
                    self.stop = Some(Interrupt::Time);
                }
            }
        }
        self.stop.is_some()
    }
}

/// Working memory of the encoder, kept by a caller that encodes many puzzles (the `sat`
/// engine) so that its tables, and the clause store of a formula handed back with
/// [`Scratch::recycle`], are allocated once instead of once per puzzle.
#[derive(Default)]
pub struct Scratch {
    /// Candidate bitsets, `words` u64 per cell (eliminating encodings).
    bits: Vec<u64>,
    /// Digits placed per house, `words` u64 per house.
    used: Vec<u64>,
    /// Decided cells.
    fixed: Vec<u16>,
    /// `base[c]`: variables of open cell `c` are `base[c] + 1 ..= base[c + 1]`.
    base: Vec<u32>,
    /// One group's literals; one house's groups (counting sort by digit).
    group: Vec<i32>,
    house_lits: Vec<i32>,
    house_start: Vec<u32>,
    singles: SinglesWork,
    /// A clause store to fill next.
    clauses: Clauses,
    /// The pairs of an explicit variable map to fill next.
    pairs: Vec<(u32, u16)>,
}

impl Scratch {
    pub fn new() -> Self {
        Self::default()
    }

    /// Keeps (or stops keeping) the deductions of the propagation before encoding
    /// (`reduced`: singles, locked candidates, probing) as DRAT lemmas over the canonical
    /// variables, for [`crate::certify`]; [`Scratch::take_deductions`] hands them over.
    pub fn keep_deductions(&mut self, on: bool) {
        self.singles.proof = on.then(Vec::new);
    }

    /// The lemmas kept since the last call (literals, each lemma ended by 0), in the order the
    /// deductions were made; empty when none are kept.
    pub fn take_deductions(&mut self) -> Vec<i32> {
        match &mut self.singles.proof {
            Some(log) => std::mem::take(log),
            None => Vec::new(),
        }
    }

    /// Takes back a formula that is no longer needed, to reuse its clause store.
    pub fn recycle(&mut self, cnf: Cnf) {
        let mut clauses = cnf.clauses;
        clauses.clear();
        self.clauses = clauses;
        self.recycle_info(cnf.info);
    }

    /// Takes back the meaning of a formula that is no longer needed (its variable map).
    pub fn recycle_info(&mut self, info: CnfInfo) {
        if let VarMap::Explicit {
            mut pairs,
            by_cell: _,
            cell_start,
            ..
        } = info.map
        {
            pairs.clear();
            self.pairs = pairs;
            self.base = cell_start;
        }
    }
}

/// Encodes `puzzle` with `opts` (see the module doc) into a stored formula. Options that make
/// no sense together (see [`CnfOptions::check`]) are not rejected here: `optimized` and
/// `reduced` ignore the givens mode.
pub fn encode(puzzle: &Puzzle, opts: &CnfOptions) -> Cnf {
    encode_with(puzzle, opts, &mut Scratch::new())
}

/// [`encode`] with reusable working memory: the same formula.
pub fn encode_with(puzzle: &Puzzle, opts: &CnfOptions, scratch: &mut Scratch) -> Cnf {
    let mut clauses = std::mem::take(&mut scratch.clauses);
    clauses.clear();
    let e = encode_into(
        puzzle,
        opts,
        &mut clauses,
        scratch,
        &EncodeLimits::default(),
    )
    .expect("no limits: encoding always completes");
    Cnf {
        info: e.info,
        num_vars: e.num_vars,
        clauses,
        assumptions: e.assumptions,
    }
}

/// Literals of the AMO encoding `amo` of a group of `k`: (aux, clauses, literals), memoised.
struct AmoSizes {
    amo: Amo,
    memo: Vec<Option<(u64, u64, u64)>>,
}

impl AmoSizes {
    fn new(amo: Amo) -> Self {
        AmoSizes {
            amo,
            memo: Vec::new(),
        }
    }
    fn get(&mut self, k: usize) -> (u64, u64, u64) {
        let amo = self.amo.for_group(k);
        if amo == Amo::Pairwise {
            let k = k as u64;
            return (0, k * k.saturating_sub(1) / 2, k * k.saturating_sub(1));
        }
        if self.memo.len() <= k {
            self.memo.resize(k + 1, None);
        }
        *self.memo[k].get_or_insert_with(|| amo_size(amo, k))
    }
}

/// Running total of a formula's size from its groups.
struct Tally<'a> {
    opts: &'a CnfOptions,
    sizes: AmoSizes,
    s: SizeStats,
}

impl Tally<'_> {
    fn cell(&mut self, k: usize, times: u64) {
        self.s.clauses += times;
        self.s.literals += times * k as u64;
        if self.opts.encoding.cell_amo() {
            let (a, c, l) = self.sizes.get(k);
            self.s.vars += times * a;
            self.s.clauses += times * c;
            self.s.literals += times * l;
        }
    }
    fn house(&mut self, k: usize, times: u64) {
        let (a, c, l) = self.sizes.get(k);
        self.s.vars += times * a;
        self.s.clauses += times * c;
        self.s.literals += times * l;
        if self.opts.encoding.house_alo() {
            self.s.clauses += times;
            self.s.literals += times * k as u64;
        }
    }
}

/// Size of the formula of a grid of `g` where every (cell, digit) is a variable and
/// `units` givens are unit clauses: the non-eliminating encodings, and every encoding of an
/// empty grid of side 2 or more (nothing to eliminate or propagate). Closed form, before
/// duplicate removal.
pub fn size_whole(g: &Geometry, opts: &CnfOptions, units: u64) -> SizeStats {
    sized(opts, |o| size_whole_as(g, o, units)).1
}

/// `opts` with `amo=auto`'s memory rule applied ([`Amo::for_formula`]: a lower pairwise
/// threshold for a formula over the bound), and the formula's size then; `size` counts the
/// formula under given options.
fn sized(
    opts: &CnfOptions,
    mut size: impl FnMut(&CnfOptions) -> SizeStats,
) -> (CnfOptions, SizeStats) {
    let s = size(opts);
    let amo = opts.amo.for_formula(s.literals);
    if amo == opts.amo {
        return (*opts, s);
    }
    let o = CnfOptions { amo, ..*opts };
    let s = size(&o);
    (o, s)
}

/// [`size_whole`] with `opts.amo` as it is.
fn size_whole_as(g: &Geometry, opts: &CnfOptions, units: u64) -> SizeStats {
    let n = g.n();
    let mut t = Tally {
        opts,
        sizes: AmoSizes::new(opts.amo),
        s: SizeStats::default(),
    };
    t.s.vars = (g.cells() * n) as u64;
    t.cell(n, g.cells() as u64);
    t.house(n, (g.house_count() * n) as u64);
    t.s.clauses += units;
    t.s.literals += units;
    t.s
}

/// The exact size of the formula of `puzzle` (before duplicate removal, so with `dedup` an
/// upper bound), computed from the groups that will be encoded without emitting a clause:
/// the size guard's count. Closed form where nothing is eliminated; else linear in the
/// candidates left.
pub fn count(puzzle: &Puzzle, opts: &CnfOptions, scratch: &mut Scratch) -> SizeStats {
    match prepare(puzzle, opts, scratch, &Deadline::default()) {
        Ok(prepared) => size_prepared(puzzle, opts, prepared, scratch).1,
        Err(_) => unreachable!("no budget"),
    }
}

/// The options (`amo=auto`'s memory rule applied) and exact size of `puzzle`'s formula from
/// what [`prepare`] left in `scratch`.
fn size_prepared(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    prepared: Prepared,
    scratch: &mut Scratch,
) -> (CnfOptions, SizeStats) {
    let g = puzzle.geometry();
    match prepared {
        Prepared::Whole => sized(opts, |o| {
            let s = size_whole_as(g, o, units(puzzle, o));
            plus(s, cage_size(puzzle, o, &|c, d| whole_lit(g.n(), c, d)))
        }),
        Prepared::Unsat => (
            *opts,
            SizeStats {
                vars: 0,
                clauses: 1,
                literals: 0,
            },
        ),
        Prepared::Open => sized(opts, |o| {
            let s = count_open(g, o, scratch);
            plus(
                s,
                cage_size(puzzle, o, &|c, d| open_lit(scratch, g.n(), c, d)),
            )
        }),
    }
}

/// The sum of two sizes.
fn plus(a: SizeStats, b: SizeStats) -> SizeStats {
    SizeStats {
        vars: a.vars + b.vars,
        clauses: a.clauses + b.clauses,
        literals: a.literals + b.literals,
    }
}

/// The size of the cages' clauses ([`super::cages`]; nothing without cages).
fn cage_size(puzzle: &Puzzle, opts: &CnfOptions, lit: &dyn Fn(usize, u16) -> i32) -> SizeStats {
    if !puzzle.has_cages() {
        return SizeStats::default();
    }
    let (vars, clauses, literals) =
        size_cages(puzzle.geometry(), puzzle.cages(), opts.sum, opts.amo, lit);
    SizeStats {
        vars,
        clauses,
        literals,
    }
}

/// The literal of (cell, digit) when every pair is a variable: `cell * N + digit`.
fn whole_lit(n: usize, cell: usize, digit: u16) -> i32 {
    (cell * n + digit as usize) as i32
}

/// The literal of (cell, digit) from the candidate table of an eliminating encoding: the
/// constant [`TRUE`] or `-TRUE` for a decided cell or a removed candidate, else its variable
/// (the open cell's candidates are numbered in digit order from `base[cell] + 1`).
fn open_lit(scratch: &Scratch, n: usize, cell: usize, digit: u16) -> i32 {
    match scratch.fixed[cell] {
        0 => {}
        f if f == digit => return TRUE,
        _ => return -TRUE,
    }
    let words = n.div_ceil(64);
    let bits = &scratch.bits[cell * words..(cell + 1) * words];
    let d = digit as usize - 1;
    if bits[d / 64] >> (d % 64) & 1 == 0 {
        return -TRUE;
    }
    let below: u32 = bits[..d / 64].iter().map(|w| w.count_ones()).sum::<u32>()
        + (bits[d / 64] & ((1u64 << (d % 64)) - 1)).count_ones();
    (scratch.base[cell] + below + 1) as i32
}

fn units(puzzle: &Puzzle, opts: &CnfOptions) -> u64 {
    if opts.encoding.eliminates() || opts.givens == GivensMode::Assumptions {
        0
    } else {
        puzzle.clues() as u64
    }
}

/// What [`prepare`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prepared {
    /// Every (cell, digit) is a variable, numbered by formula.
    Whole,
    /// The givens clash, or propagation found a clash.
    Unsat,
    /// The candidate table in the scratch holds the open cells' candidates.
    Open,
}

/// Fills the candidate table of an eliminating encoding (givens eliminated, then for
/// `reduced` singles propagated) and the variable bases.
fn prepare(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    scratch: &mut Scratch,
    budget: &Deadline,
) -> Result<Prepared, Interrupt> {
    let g = puzzle.geometry();
    let n = g.n();
    let enc = opts.encoding;
    if !enc.eliminates() || (puzzle.clues() == 0 && n >= 2) {
        return Ok(Prepared::Whole);
    }
    let words = n.div_ceil(64);
    let cells = g.cells();
    let Scratch {
        bits,
        used,
        fixed,
        base,
        singles,
        ..
    } = scratch;
    fixed.clear();
    fixed.extend_from_slice(puzzle.givens());
    used.clear();
    used.resize(g.house_count() * words, 0);
    for (c, &d) in fixed.iter().enumerate() {
        if d != 0 {
            let d = d as usize - 1;
            for &h in g.houses_of(c) {
                let w = &mut used[h as usize * words + d / 64];
                if *w >> (d % 64) & 1 == 1 {
                    return Ok(Prepared::Unsat); // the digit is given twice in this house
                }
                *w |= 1u64 << (d % 64);
            }
        }
    }
    let mut full = vec![!0u64; words];
    if n % 64 != 0 {
        full[words - 1] = (1u64 << (n % 64)) - 1;
    }
    bits.clear();
    bits.resize(cells * words, 0);
    for c in 0..cells {
        if fixed[c] != 0 {
            continue;
        }
        let row = &mut bits[c * words..(c + 1) * words];
        row.copy_from_slice(&full);
        for &h in g.houses_of(c) {
            for (b, &u) in row.iter_mut().zip(&used[h as usize * words..]) {
                *b &= !u;
            }
        }
    }
    if enc == CnfEncoding::Reduced {
        let mut table = Table {
            words,
            bits,
            used,
            fixed,
        };
        if !propagate(g, &mut table, singles, budget, opts.deductions())? {
            return Ok(Prepared::Unsat);
        }
    }
    base.clear();
    base.resize(cells + 1, 0);
    let mut k = 0u32;
    for c in 0..cells {
        base[c] = k;
        if fixed[c] == 0 {
            k += bits[c * words..(c + 1) * words]
                .iter()
                .map(|w| w.count_ones())
                .sum::<u32>();
        }
    }
    base[cells] = k;
    Ok(Prepared::Open)
}

/// Collects the (house, digit) groups of house `h` from the candidate table: for each digit
/// (0-based), the variables of its candidate cells in house order, in
/// `lits[start[d]..start[d + 1]]`.
fn house_groups(g: &Geometry, h: usize, scratch: &mut Scratch) {
    let n = g.n();
    let words = n.div_ceil(64);
    let Scratch {
        bits,
        fixed,
        base,
        house_lits: lits,
        house_start: start,
        ..
    } = scratch;
    start.clear();
    start.resize(n + 1, 0);
    let house = g.house(h);
    for &c in house {
        let c = c as usize;
        if fixed[c] != 0 {
            continue;
        }
        for (wi, &w) in bits[c * words..(c + 1) * words].iter().enumerate() {
            let mut m = w;
            while m != 0 {
                start[wi * 64 + m.trailing_zeros() as usize + 1] += 1;
                m &= m - 1;
            }
        }
    }
    for d in 0..n {
        start[d + 1] += start[d];
    }
    lits.clear();
    lits.resize(start[n] as usize, 0);
    for &c in house {
        let c = c as usize;
        if fixed[c] != 0 {
            continue;
        }
        let mut v = base[c] as i32;
        for (wi, &w) in bits[c * words..(c + 1) * words].iter().enumerate() {
            let mut m = w;
            while m != 0 {
                let d = wi * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                v += 1;
                lits[start[d] as usize] = v;
                start[d] += 1;
            }
        }
    }
    // `start[d]` now ends digit d's group: shift back to starts.
    for d in (1..=n).rev() {
        start[d] = start[d - 1];
    }
    start[0] = 0;
}

/// Whether digit `d` (0-based) is placed in house `h`.
fn placed(scratch: &Scratch, words: usize, h: usize, d: usize) -> bool {
    scratch.used[h * words + d / 64] >> (d % 64) & 1 == 1
}

fn count_open(g: &Geometry, opts: &CnfOptions, scratch: &mut Scratch) -> SizeStats {
    let n = g.n();
    let words = n.div_ceil(64);
    let mut t = Tally {
        opts,
        sizes: AmoSizes::new(opts.amo),
        s: SizeStats::default(),
    };
    t.s.vars = scratch.base[g.cells()] as u64;
    for c in 0..g.cells() {
        if scratch.fixed[c] == 0 {
            t.cell((scratch.base[c + 1] - scratch.base[c]) as usize, 1);
        }
    }
    for h in 0..g.house_count() {
        house_groups(g, h, scratch);
        for d in 0..n {
            if !placed(scratch, words, h, d) {
                let k = scratch.house_start[d + 1] - scratch.house_start[d];
                t.house(k as usize, 1);
            }
        }
    }
    t.s
}

/// What [`propagate_singles`] leaves of a puzzle: the decided cells and the candidates of
/// the open ones.
pub struct Propagated<'s> {
    /// The decided cells, givens included (0 = open).
    pub fixed: &'s [u16],
    /// Candidates of the open cells (`words` u64 per cell, bit `d - 1` for digit `d`) and the
    /// digits placed per house (`words` u64 per house); `None`: no givens, nothing removed.
    table: Option<(&'s [u64], &'s [u64])>,
    words: usize,
    propagation: Propagation,
}

/// Which propagation [`propagate_singles`] left in its [`Scratch`]: [`encode_propagated`]
/// encodes the `reduced` formula from it without propagating again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Propagation {
    prepared: Prepared,
    rules: Deductions,
}

impl Propagated<'_> {
    /// Whether propagation decided every cell. The grid is then the puzzle's only solution:
    /// singles, locked candidates and probing only remove candidates that no solution has (see
    /// [`super::singles`]), and a placement removes its digit from every peer, so the
    /// filled grid breaks no house.
    pub fn filled(&self) -> bool {
        self.fixed.iter().all(|&d| d != 0)
    }

    /// The candidates of the open cells: the variables of the `reduced` formula.
    pub fn open_candidates(&self) -> u64 {
        let open = self.fixed.iter().enumerate().filter(|(_, &d)| d == 0);
        match self.table {
            // no givens: every digit of every cell (N of them, N * N cells)
            None => open.count() as u64 * (self.fixed.len() as f64).sqrt().round() as u64,
            Some((bits, _)) => open
                .map(|(c, _)| {
                    let w = &bits[c * self.words..(c + 1) * self.words];
                    w.iter().map(|x| u64::from(x.count_ones())).sum::<u64>()
                })
                .sum(),
        }
    }

    /// What [`encode_propagated`] needs to go on from this propagation.
    pub fn propagation(&self) -> Propagation {
        self.propagation
    }

    /// Whether digit `d` (1-based) is still a candidate of open cell `c`.
    pub fn has(&self, c: usize, d: u16) -> bool {
        let d = d as usize - 1;
        self.table.map_or(true, |(bits, _)| {
            bits[c * self.words + d / 64] >> (d % 64) & 1 == 1
        })
    }

    /// Whether digit `d` (1-based) is placed in house `h` (given or decided).
    pub fn placed_in(&self, h: usize, d: u16) -> bool {
        let d = d as usize - 1;
        self.table
            .is_some_and(|(_, used)| used[h * self.words + d / 64] >> (d % 64) & 1 == 1)
    }
}

/// The propagation of the `reduced` encoding alone (naked and hidden singles to a fixpoint,
/// [`super::singles`], with locked candidates and failed-literal probing as `rules` asks),
/// without encoding: `Ok(None)` when it finds a clash (no solution), else the decided cells
/// (givens included) and the candidates left. Incremental solving uses it to turn a puzzle
/// into more assumptions, and both modes to answer a puzzle without a solver.
pub fn propagate_singles<'s>(
    puzzle: &Puzzle,
    scratch: &'s mut Scratch,
    budget: &Deadline,
    rules: Deductions,
) -> Result<Option<Propagated<'s>>, Interrupt> {
    let opts = CnfOptions {
        encoding: CnfEncoding::Reduced,
        probe: rules.probe,
        locked: rules.locked,
        ..CnfOptions::default()
    };
    let words = puzzle.n().div_ceil(64);
    let prepared = prepare(puzzle, &opts, scratch, budget)?;
    let propagation = Propagation { prepared, rules };
    match prepared {
        Prepared::Unsat => Ok(None),
        Prepared::Whole => {
            // Nothing to propagate (no givens): the givens are the decided cells.
            scratch.fixed.clear();
            scratch.fixed.extend_from_slice(puzzle.givens());
            Ok(Some(Propagated {
                fixed: &scratch.fixed,
                table: None,
                words,
                propagation,
            }))
        }
        Prepared::Open => Ok(Some(Propagated {
            fixed: &scratch.fixed,
            table: Some((&scratch.bits, &scratch.used)),
            words,
            propagation,
        })),
    }
}

/// [`encode_into`] for the `reduced` encoding after [`propagate_singles`] ran on the same
/// puzzle and scratch (and nothing used the scratch since): the formula is the same, and the
/// propagation is not run again. A caller that answers the puzzles propagation decides
/// without a solver makes its solver only for the others.
///
/// Panics if `opts` is not the `reduced` encoding with the deductions of `propagation`.
pub fn encode_propagated<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    propagation: Propagation,
    sink: &mut S,
    scratch: &mut Scratch,
    limits: &EncodeLimits,
) -> Result<Encoded, EncodeStop> {
    assert!(
        opts.encoding == CnfEncoding::Reduced && opts.deductions() == propagation.rules,
        "encode_propagated: the options are not those of the propagation"
    );
    emit(puzzle, opts, propagation.prepared, sink, scratch, limits)
}

/// Encodes `puzzle` with `opts` into `sink`: every clause goes to the sink as it is made.
/// With `limits.max_literals` the exact size is counted first and a formula over the bound
/// is refused before anything is emitted ([`EncodeStop::TooLarge`]); the budget is read
/// during propagation and every [`CHECK_EVERY_LITERALS`] literals.
pub fn encode_into<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    sink: &mut S,
    scratch: &mut Scratch,
    limits: &EncodeLimits,
) -> Result<Encoded, EncodeStop> {
    let prepared =
        prepare(puzzle, opts, scratch, &limits.budget).map_err(EncodeStop::Interrupted)?;
    emit(puzzle, opts, prepared, sink, scratch, limits)
}

/// Encodes `puzzle` into `sink` from the table [`prepare`] left in `scratch`.
fn emit<S: ClauseSink + ?Sized>(
    puzzle: &Puzzle,
    opts: &CnfOptions,
    prepared: Prepared,
    sink: &mut S,
    scratch: &mut Scratch,
    limits: &EncodeLimits,
) -> Result<Encoded, EncodeStop> {
    let g = puzzle.geometry();
    let n = g.n();
    let cells = g.cells();
    let givens = puzzle.givens();
    let (opts, size) = size_prepared(puzzle, opts, prepared, scratch);
    let opts = &opts;
    if let Some(bound) = limits.max_literals {
        if size.literals > bound {
            return Err(EncodeStop::TooLarge {
                literals: size.literals,
                bound,
            });
        }
    }
    let whole = matches!(prepared, Prepared::Whole);
    let fixed = if whole {
        givens.to_vec()
    } else {
        scratch.fixed.clone()
    };
    let map = match prepared {
        Prepared::Whole if !opts.encoding.eliminates() => VarMap::Formula { n, cells },
        Prepared::Open | Prepared::Whole => {
            // Explicit map: the open cells' candidates in (cell, digit) order.
            let mut pairs = std::mem::take(&mut scratch.pairs);
            pairs.clear();
            let mut cell_start = Vec::new();
            if whole {
                pairs.extend((0..cells as u32).flat_map(|c| (1..=n as u16).map(move |d| (c, d))));
                cell_start.extend((0..=cells as u32).map(|c| c * n as u32));
            } else {
                let words = n.div_ceil(64);
                pairs.reserve(scratch.base[cells] as usize);
                for c in 0..cells {
                    if scratch.fixed[c] != 0 {
                        continue;
                    }
                    for (wi, &w) in scratch.bits[c * words..(c + 1) * words].iter().enumerate() {
                        let mut m = w;
                        while m != 0 {
                            pairs.push((
                                c as u32,
                                (wi * 64 + m.trailing_zeros() as usize) as u16 + 1,
                            ));
                            m &= m - 1;
                        }
                    }
                }
                cell_start.extend_from_slice(&scratch.base);
            }
            let by_cell = (1..=pairs.len() as u32).collect();
            VarMap::Explicit {
                n,
                pairs,
                by_cell,
                cell_start,
            }
        }
        Prepared::Unsat => VarMap::explicit(n, cells, Vec::new()),
    };
    let primary = map.primary() as i32;
    let info = CnfInfo {
        geometry: puzzle.shared_geometry().clone(),
        givens: givens.to_vec(),
        fixed,
        cages: puzzle.shared_cages().cloned(),
        options: *opts,
        map,
    };
    let mut b = Builder {
        next_var: primary,
        sink,
        dedup: opts.dedup.then(Dedup::default),
        clauses: 0,
        literals: 0,
        next_check: CHECK_EVERY_LITERALS,
        budget: &limits.budget,
        teardown: limits.teardown,
        stop: None,
    };
    let done = |b: Builder<'_, S>, info: CnfInfo, assumptions: Vec<i32>, unsat: bool| Encoded {
        info,
        num_vars: b.next_var as u32,
        assumptions,
        size: SizeStats {
            vars: b.next_var as u64,
            clauses: b.clauses,
            literals: b.literals,
        },
        trivially_unsat: unsat,
    };
    if matches!(prepared, Prepared::Unsat) {
        b.clause(&[]);
        return Ok(done(b, info, Vec::new(), true));
    }
    b.sink
        .reserve(size.clauses as usize, size.literals as usize);
    let amo = opts.amo;
    let enc = opts.encoding;
    let stop = |b: &Builder<'_, S>| EncodeStop::Interrupted(b.stop.unwrap_or(Interrupt::Time));

    // 1. each cell holds at least one digit; 2. at most one. A cell's variables are
    // consecutive: `c*N+1 ..= c*N+N` when nothing is eliminated, else those of its live
    // candidates (cells decided before encoding have none).
    let mut group = std::mem::take(&mut scratch.group);
    for pass in 0..2 {
        if pass == 1 && !enc.cell_amo() {
            break;
        }
        for c in 0..cells {
            let (first, last) = if whole {
                ((c * n) as i32 + 1, ((c + 1) * n) as i32)
            } else if scratch.fixed[c] == 0 {
                (scratch.base[c] as i32 + 1, scratch.base[c + 1] as i32)
            } else {
                continue;
            };
            group.clear();
            group.extend(first..=last);
            if pass == 0 {
                b.clause(&group);
            } else {
                b.amo(amo, &group);
            }
            if b.spent() {
                scratch.group = group;
                return Err(stop(&b));
            }
        }
    }
    if whole {
        // 3. each digit at most once per house; 4. at least once
        for pass in 0..2 {
            if pass == 1 && !enc.house_alo() {
                break;
            }
            for h in 0..g.house_count() {
                let house = g.house(h);
                for d in 1..=n as i32 {
                    group.clear();
                    group.extend(house.iter().map(|&c| c as i32 * n as i32 + d));
                    if pass == 0 {
                        b.amo(amo, &group);
                    } else {
                        b.clause(&group);
                    }
                }
                if b.spent() {
                    scratch.group = group;
                    return Err(stop(&b));
                }
            }
        }
    } else {
        let words = n.div_ceil(64);
        // 3. and 4.: the (house, digit) groups of the digits not placed in the house.
        for pass in 0..2 {
            if pass == 1 && !enc.house_alo() {
                break;
            }
            for h in 0..g.house_count() {
                house_groups(g, h, scratch);
                for d in 0..n {
                    if placed(scratch, words, h, d) {
                        continue;
                    }
                    let grp = &scratch.house_lits
                        [scratch.house_start[d] as usize..scratch.house_start[d + 1] as usize];
                    if pass == 0 {
                        b.amo(amo, grp);
                    } else {
                        b.clause(grp);
                    }
                }
                if b.spent() {
                    return Err(stop(&b));
                }
            }
        }
    }
    scratch.group = group;
    // 5. givens
    let mut assumptions = Vec::new();
    if !enc.eliminates() {
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
    // 6. cages: distinct digits and the sum ([`super::cages`])
    if puzzle.has_cages() {
        let lit = |c: usize, d: u16| {
            if whole {
                whole_lit(n, c, d)
            } else {
                open_lit(scratch, n, c, d)
            }
        };
        encode_cages(g, puzzle.cages(), opts.sum, amo, &lit, &mut b);
        if b.spent() {
            return Err(stop(&b));
        }
    }
    Ok(done(b, info, assumptions, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `amo=auto`'s memory rule as the encoder applies it: a formula over the bound is
    /// counted again, and encoded, with the lower threshold; other formulas and an explicit
    /// `auto:K` are kept.
    #[test]
    fn auto_lowers_its_threshold_over_the_literal_bound() {
        use super::super::amo::{AUTO_LARGE_LITERALS, AUTO_LARGE_PAIRWISE_MAX};
        let size = |literals| SizeStats {
            vars: 1,
            clauses: 1,
            literals,
        };
        let big = |o: &CnfOptions| match o.amo {
            Amo::Auto(None) => size(AUTO_LARGE_LITERALS + 1),
            _ => size(7),
        };
        let o = CnfOptions::default();
        assert_eq!(o.amo, Amo::AUTO);
        let (r, s) = sized(&o, big);
        assert_eq!(
            (r.amo, s.literals),
            (Amo::Auto(Some(AUTO_LARGE_PAIRWISE_MAX)), 7)
        );
        assert_eq!(sized(&o, |_| size(AUTO_LARGE_LITERALS)).0.amo, Amo::AUTO);
        let fixed = CnfOptions {
            amo: Amo::Auto(Some(32)),
            ..o
        };
        assert_eq!(sized(&fixed, big).0.amo, fixed.amo);
    }

    /// Probing reads the budget: with a deadline already passed it stops on rk-64x64, where
    /// singles alone do less work than one look at the clock and finish.
    #[test]
    fn probing_stops_at_the_deadline() {
        let path = format!("{}/data/rk-64x64.txt", env!("CARGO_MANIFEST_DIR"));
        let p = crate::puzzle::read_puzzles(std::path::Path::new(&path)).unwrap();
        let past = Deadline {
            at: Some(std::time::Instant::now()),
            cancel: None,
        };
        let mut o = CnfOptions {
            encoding: CnfEncoding::Reduced,
            ..CnfOptions::default()
        };
        let mut scratch = Scratch::new();
        assert!(matches!(
            prepare(&p[0], &o, &mut scratch, &past),
            Ok(Prepared::Open)
        ));
        o.probe = true;
        assert!(matches!(
            prepare(&p[0], &o, &mut scratch, &past),
            Err(Interrupt::Time)
        ));
    }
}
