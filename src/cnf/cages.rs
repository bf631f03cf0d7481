//! Killer cages in CNF: each cage's cells hold distinct digits that add up to its sum.
//!
//! Variables are those of the houses' encoding, `x(c, d)`: "cell `c` holds digit `d`" (or a
//! constant where `optimized` and `reduced` decided the pair before encoding). For a cage of
//! `k` cells `c_1..c_k` with sum `S` on an `N x N` grid write `y(i, d) = x(c_i, d)`. Every
//! model of the houses' clauses gives each cell exactly one true digit (the pigeonhole of
//! [`super::decode`]), so the encodings below may rely on it: they are correct, not merely
//! sound, under "exactly one `y(i, d)` per cell".
//!
//! - Distinct digits: for each digit `d`, at most one of `y(1, d)..y(k, d)`, with the
//!   formula's at-most-one encoding ([`super::amo`]). Skipped when the cage lies inside one
//!   house, whose own at-most-one clauses already say it.
//! - `sum=combinations`: the digit sets `T` of `k` distinct digits adding up to `S` that
//!   the constants leave possible are enumerated (the classic killer "cage combinations");
//!   a selector `s_T` per set; `OR_T s_T`; at most one selector (the formula's AMO
//!   encoding); `s_T -> OR_i y(i, d)` for each `d` in `T` (the set's digits appear);
//!   `y(i, d) -> OR_{T ∋ d} s_T` for each cell and digit (a digit outside the selected set is
//!   forbidden). Selected `T`: the `k` distinct digits lie in `T` of size `k`, so they are
//!   `T`. Variables: one per set (at most 12 on a 9x9 grid). Clauses: `1 + AMO(m) + k*m +
//!   k*N` for `m` sets, before constants are folded.
//! - `sum=totalizer`: the totalizer of O. Bailleux and Y. Boufkhad, "Efficient CNF encoding
//!   of Boolean cardinality constraints" (CP 2003), over integer values as in the
//!   generalized totalizer of S. Joshi, R. Martins and V. Manquinho, "Generalized totalizer
//!   encoding for pseudo-Boolean constraints" (CP 2015), with the order encoding of each
//!   node's value (N. Tamura et al., "Compiling finite linear CSP into SAT", Constraints
//!   2009) so that both bounds are stated. A balanced binary tree over the cells; a node
//!   whose value lies in `[lo, hi]` has variables `g_v` = "value >= v" for `v` in
//!   `lo+1..=hi` (`g_v` is true for `v <= lo`, false for `v > hi`). A leaf (one cell, `lo`
//!   and `hi` its least and greatest possible digit) has `y(i, d) -> g_v` for `v <= d` and
//!   `y(i, d) -> ¬g_v` for `v > d`. A node over children `a`, `b` has `(a >= α) ∧ (b >= β)
//!   -> (o >= α+β)` and `(a < α+1) ∧ (b < β+1) -> (o < α+β+1)` for every `α` in `a`'s range
//!   and `β` in `b`'s. The root gets `o >= S` and `o < S+1`. Variables: `Σ (hi - lo)` over
//!   the nodes; clauses: `Σ |D_i| (hi_i - lo_i)` over the leaves plus `2 (|a|)(|b|)` per
//!   inner node (`|a|` the number of values of `a`), before folding.
//! - `sum=bdd`: a multi-valued decision diagram (MDD) over the cells in cage order whose
//!   states are the partial sums, encoded node by node after N. Eén and N. Sörensson,
//!   "Translating pseudo-Boolean constraints into SAT" (JSAT 2006) and I. Abío, R.
//!   Nieuwenhuis, A. Oliveras and E. Rodríguez-Carbonell, "BDDs for pseudo-Boolean
//!   constraints – revisited" (SAT 2011): node `(i, s)` (cells `1..i` add up to `s`) has a
//!   child `(i+1, s+d)` per digit `d`; the node reached with `S` after `k` cells is the
//!   terminal true, every other end false. Reduced: a node is false when all its children
//!   are (dead states dropped), nodes of a layer with the same children are one node (equal
//!   states merged), a cell decided before encoding passes its node through to the child of
//!   its digit, and only nodes reachable from the root are encoded. Variable `n` per node
//!   left, meaning "the remaining cells can complete the sum"; per edge `y(i, d) -> (n <->
//!   child)`, as the two clauses `(¬y ∨ ¬child ∨ n)` and `(¬y ∨ child ∨ ¬n)`; the root is a
//!   unit clause. Variables: the nodes left (at most `k (S+1)`); clauses: 2 per edge plus 1.
//!
//! Constants: [`TRUE`] stands for a true literal, `-TRUE` for a false one (a pair decided
//! before encoding); clauses are folded ([`Fold`]): a clause with a true literal is dropped,
//! false literals are deleted. An empty clause left makes the formula unsatisfiable.

use super::amo::{at_most_one, Amo, ClauseOut};
use super::unknown_value::UnknownValue;
use crate::puzzle::{for_each_digit_set, Cage, Geometry};
use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

/// The constant true literal of the cage encodings (`-TRUE` is false).
pub const TRUE: i32 = i32::MAX;

/// How a cage's sum is encoded (module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SumEncoding {
    /// The digit sets of the cage enumerated, a selector each. The default: measured
    /// fastest on the 299 janko.at killers (docs/engines.md, "Killer cages").
    #[default]
    Combinations,
    /// Order-encoded partial sums in a binary tree.
    Totalizer,
    /// A reduced decision diagram over the partial sums.
    Bdd,
}

impl SumEncoding {
    pub const ALL: [SumEncoding; 3] = [
        SumEncoding::Combinations,
        SumEncoding::Totalizer,
        SumEncoding::Bdd,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SumEncoding::Combinations => "combinations",
            SumEncoding::Totalizer => "totalizer",
            SumEncoding::Bdd => "bdd",
        }
    }
}

impl fmt::Display for SumEncoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for SumEncoding {
    type Err = UnknownValue;

    fn from_str(s: &str) -> Result<Self, UnknownValue> {
        SumEncoding::ALL
            .into_iter()
            .find(|e| e.as_str() == s)
            .ok_or_else(|| UnknownValue::new("sum encoding", s, "combinations, totalizer, bdd"))
    }
}

/// Folds the constants [`TRUE`] and `-TRUE` out of the clauses on their way to `out`.
pub struct Fold<'a> {
    out: &'a mut dyn ClauseOut,
    buf: Vec<i32>,
}

impl<'a> Fold<'a> {
    pub fn new(out: &'a mut dyn ClauseOut) -> Self {
        Fold {
            out,
            buf: Vec::new(),
        }
    }
}

impl ClauseOut for Fold<'_> {
    fn new_var(&mut self) -> i32 {
        self.out.new_var()
    }

    fn clause(&mut self, lits: &[i32]) {
        self.buf.clear();
        for &l in lits {
            if l == TRUE {
                return;
            }
            if l != -TRUE {
                self.buf.push(l);
            }
        }
        self.out.clause(&self.buf);
    }
}

/// Counts what the encoders emit: (aux variables, clauses, literals).
#[derive(Default)]
struct Count(u64, u64, u64);

impl ClauseOut for Count {
    fn new_var(&mut self) -> i32 {
        self.0 += 1;
        1 << 30
    }
    fn clause(&mut self, lits: &[i32]) {
        self.1 += 1;
        self.2 += lits.len() as u64;
    }
}

/// Encodes every cage of `cages` (module doc) into `out`; `lit(cell, digit)` is the literal
/// of the pair: a variable, [`TRUE`] or `-TRUE`.
pub fn encode_cages(
    g: &Geometry,
    cages: &[Cage],
    sum: SumEncoding,
    amo: Amo,
    lit: &dyn Fn(usize, u16) -> i32,
    out: &mut dyn ClauseOut,
) {
    let n = g.n();
    let mut out = Fold::new(out);
    let mut y = Vec::new();
    for cage in cages {
        let cells: Vec<usize> = cage.cells().iter().map(|&c| c as usize).collect();
        y.clear();
        for &c in &cells {
            y.extend((1..=n as u16).map(|d| lit(c, d)));
        }
        if !in_one_house(g, &cells) {
            let mut group = Vec::with_capacity(cells.len());
            for d in 0..n {
                group.clear();
                group.extend(
                    (0..cells.len())
                        .map(|i| y[i * n + d])
                        .filter(|&l| l != -TRUE),
                );
                at_most_one(amo.for_group(group.len()), &group, &mut out);
            }
        }
        let s = cage.sum() as usize;
        match sum {
            SumEncoding::Combinations => combinations(&y, n, s, amo, &mut out),
            SumEncoding::Totalizer => totalizer(&y, n, s, &mut out),
            SumEncoding::Bdd => bdd(&y, n, s, &mut out),
        }
    }
}

/// (aux variables, clauses, literals) that [`encode_cages`] emits (before any duplicate
/// filter).
pub fn size_cages(
    g: &Geometry,
    cages: &[Cage],
    sum: SumEncoding,
    amo: Amo,
    lit: &dyn Fn(usize, u16) -> i32,
) -> (u64, u64, u64) {
    let mut c = Count::default();
    encode_cages(g, cages, sum, amo, lit, &mut c);
    (c.0, c.1, c.2)
}

/// Whether some house holds every cell of `cells`.
fn in_one_house(g: &Geometry, cells: &[usize]) -> bool {
    g.houses_of(cells[0])
        .iter()
        .any(|h| cells.iter().all(|&c| g.houses_of(c).contains(h)))
}

/// `sum=combinations` for one cage: `y[i * n + d - 1]` is `y(i, d)`.
fn combinations(y: &[i32], n: usize, s: usize, amo: Amo, out: &mut dyn ClauseOut) {
    let k = y.len() / n;
    // A set is possible when each of its digits has a cell where it is not ruled out.
    let possible = |d: usize| (0..k).any(|i| y[i * n + d - 1] != -TRUE);
    // Each set as `n + 1` flags, `set[d]` for digit `d`, one after the other.
    let mut sets: Vec<bool> = Vec::new();
    for_each_digit_set(n, k, s as u32, &[], &mut |set| {
        if (1..=n).all(|d| !set[d] || possible(d)) {
            sets.extend_from_slice(set);
        }
        true
    });
    let sets: Vec<&[bool]> = sets.chunks(n + 1).collect();
    let sel: Vec<i32> = sets.iter().map(|_| out.new_var()).collect();
    out.clause(&sel);
    at_most_one(amo.for_group(sel.len()), &sel, out);
    let mut clause = Vec::new();
    for (set, &t) in sets.iter().zip(&sel) {
        for d in (1..=n).filter(|&d| set[d]) {
            clause.clear();
            clause.push(-t);
            clause.extend((0..k).map(|i| y[i * n + d - 1]));
            out.clause(&clause);
        }
    }
    for i in 0..k {
        for d in 1..=n {
            clause.clear();
            clause.push(-y[i * n + d - 1]);
            clause.extend(
                sets.iter()
                    .zip(&sel)
                    .filter(|(set, _)| set[d])
                    .map(|(_, &t)| t),
            );
            out.clause(&clause);
        }
    }
}

/// A totalizer node: its value lies in `lo..=hi`; `ge[v - lo - 1]` is "value >= v".
struct Node {
    lo: usize,
    hi: usize,
    ge: Vec<i32>,
}

impl Node {
    /// The literal "value >= v" (a constant outside `lo+1..=hi`).
    fn at_least(&self, v: usize) -> i32 {
        if v <= self.lo {
            TRUE
        } else if v > self.hi {
            -TRUE
        } else {
            self.ge[v - self.lo - 1]
        }
    }
}

/// `sum=totalizer` for one cage.
fn totalizer(y: &[i32], n: usize, s: usize, out: &mut dyn ClauseOut) {
    let k = y.len() / n;
    let Some(root) = total(y, n, 0, k, out) else {
        out.clause(&[]); // a cell with no digit left
        return;
    };
    out.clause(&[root.at_least(s)]);
    out.clause(&[-root.at_least(s + 1)]);
}

/// The totalizer node of cells `from..to`; `None` when a cell has no possible digit.
fn total(y: &[i32], n: usize, from: usize, to: usize, out: &mut dyn ClauseOut) -> Option<Node> {
    if to - from == 1 {
        let cell = &y[from * n..(from + 1) * n];
        let live: Vec<usize> = (1..=n).filter(|&d| cell[d - 1] != -TRUE).collect();
        let (&lo, &hi) = (live.first()?, live.last()?);
        let node = Node {
            lo,
            hi,
            ge: (lo + 1..=hi).map(|_| out.new_var()).collect(),
        };
        for &d in &live {
            for v in lo + 1..=hi {
                let g = node.at_least(v);
                out.clause(&[-cell[d - 1], if v <= d { g } else { -g }]);
            }
        }
        return Some(node);
    }
    let mid = from + (to - from) / 2;
    let a = total(y, n, from, mid, out)?;
    let b = total(y, n, mid, to, out)?;
    let (lo, hi) = (a.lo + b.lo, a.hi + b.hi);
    let o = Node {
        lo,
        hi,
        ge: (lo + 1..=hi).map(|_| out.new_var()).collect(),
    };
    for al in a.lo..=a.hi {
        for be in b.lo..=b.hi {
            out.clause(&[-a.at_least(al), -b.at_least(be), o.at_least(al + be)]);
            out.clause(&[
                a.at_least(al + 1),
                b.at_least(be + 1),
                -o.at_least(al + be + 1),
            ]);
        }
    }
    Some(o)
}

/// `sum=bdd` for one cage.
fn bdd(y: &[i32], n: usize, s: usize, out: &mut dyn ClauseOut) {
    const FALSE_ID: u32 = 0;
    const TRUE_ID: u32 = 1;
    let k = y.len() / n;
    // nodes[id - 2] = (layer, children by digit); `layer[i][t]`: node of partial sum t.
    let mut nodes: Vec<(usize, Vec<u32>)> = Vec::new();
    let mut merged: HashMap<(usize, Vec<u32>), u32> = HashMap::new();
    let mut below: Vec<u32> = (0..=s)
        .map(|t| if t == s { TRUE_ID } else { FALSE_ID })
        .collect();
    for i in (0..k).rev() {
        let cell = &y[i * n..(i + 1) * n];
        let mut layer = vec![FALSE_ID; s + 1];
        for (t, id) in layer.iter_mut().enumerate() {
            let child = |d: usize| {
                if cell[d - 1] == -TRUE || t + d > s {
                    FALSE_ID
                } else {
                    below[t + d]
                }
            };
            if let Some(d) = (1..=n).find(|&d| cell[d - 1] == TRUE) {
                *id = child(d); // a decided cell passes through
                continue;
            }
            let children: Vec<u32> = (1..=n).map(child).collect();
            if children.iter().all(|&c| c == FALSE_ID) {
                continue; // dead
            }
            *id = *merged.entry((i, children)).or_insert_with_key(|key| {
                nodes.push(key.clone());
                nodes.len() as u32 + 1
            });
        }
        below = layer;
    }
    let root = below[0];
    // Variables for the nodes reachable from the root, in order from the root.
    let mut var = vec![0i32; nodes.len() + 2];
    var[FALSE_ID as usize] = -TRUE;
    var[TRUE_ID as usize] = TRUE;
    let mut reach = vec![false; nodes.len() + 2];
    reach[root as usize] = true;
    // Ids grow from the last layer to the first, so children have smaller ids than parents.
    for id in (2..nodes.len() + 2).rev() {
        if reach[id] {
            var[id] = out.new_var();
            for &c in &nodes[id - 2].1 {
                reach[c as usize] = true;
            }
        }
    }
    out.clause(&[var[root as usize]]);
    for id in 2..nodes.len() + 2 {
        if !reach[id] {
            continue;
        }
        let (i, children) = &nodes[id - 2];
        let node = var[id];
        for (d, &c) in children.iter().enumerate() {
            let x = y[i * n + d];
            if x == -TRUE {
                continue;
            }
            let child = var[c as usize];
            out.clause(&[-x, -child, node]);
            out.clause(&[-x, child, -node]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::{make_backend, Deadline, SatAnswer};

    /// Collects the clauses and numbers aux variables after `first`.
    struct Store {
        next: i32,
        clauses: Vec<Vec<i32>>,
    }

    impl ClauseOut for Store {
        fn new_var(&mut self) -> i32 {
            self.next += 1;
            self.next
        }
        fn clause(&mut self, lits: &[i32]) {
            self.clauses.push(lits.to_vec());
        }
    }

    /// The fillings of a cage of `k` cells (digits `1..=n`, distinct, sum `s`, cell `i`
    /// restricted to `allowed[i]` as a bitmask) by brute force.
    fn brute(k: usize, n: usize, s: usize, allowed: &[u64]) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        let mut cur = vec![0u16; k];
        fn go(
            i: usize,
            n: usize,
            s: usize,
            allowed: &[u64],
            cur: &mut Vec<u16>,
            out: &mut Vec<Vec<u16>>,
        ) {
            if i == cur.len() {
                if cur.iter().map(|&d| d as usize).sum::<usize>() == s {
                    out.push(cur.clone());
                }
                return;
            }
            for d in 1..=n as u16 {
                if allowed[i] >> (d - 1) & 1 == 1 && !cur[..i].contains(&d) {
                    cur[i] = d;
                    go(i + 1, n, s, allowed, cur, out);
                }
            }
        }
        go(0, n, s, allowed, &mut cur, &mut out);
        out
    }

    /// The fillings that the cage's clauses alone allow (each cell exactly one digit, cell
    /// `i` restricted to `allowed[i]`: the other digits are constants false, and a cell with
    /// one allowed digit is the constant true), enumerated with the solver and blocking
    /// clauses.
    fn by_solver(
        k: usize,
        n: usize,
        s: usize,
        allowed: &[u64],
        sum: SumEncoding,
        amo: Amo,
    ) -> Vec<Vec<u16>> {
        // A 1 x k strip of cells, no houses but the cage: a geometry is not needed, the
        // cage is encoded directly (distinctness through `encode_cages`' AMO path).
        let var = |i: usize, d: usize| (i * n + d) as i32;
        let lit = |i: usize, d: usize| {
            if allowed[i] >> (d - 1) & 1 == 0 {
                -TRUE
            } else if allowed[i].count_ones() == 1 {
                TRUE
            } else {
                var(i, d)
            }
        };
        let mut y = Vec::new();
        for i in 0..k {
            y.extend((1..=n).map(|d| lit(i, d)));
        }
        let mut store = Store {
            next: (k * n) as i32,
            clauses: Vec::new(),
        };
        {
            let mut out = Fold::new(&mut store);
            for i in 0..k {
                let cell: Vec<i32> = (1..=n).map(|d| lit(i, d)).collect();
                out.clause(&cell);
                at_most_one(Amo::Pairwise, &cell, &mut out);
            }
            for d in 1..=n {
                let group: Vec<i32> = (0..k).map(|i| lit(i, d)).filter(|&l| l != -TRUE).collect();
                at_most_one(amo, &group, &mut out);
            }
            match sum {
                SumEncoding::Combinations => combinations(&y, n, s, amo, &mut out),
                SumEncoding::Totalizer => totalizer(&y, n, s, &mut out),
                SumEncoding::Bdd => bdd(&y, n, s, &mut out),
            }
        }
        let mut solver = make_backend("batsat").unwrap();
        solver.reserve_vars(store.next as u32);
        for c in &store.clauses {
            solver.add_clause(c);
        }
        let mut found = Vec::new();
        loop {
            match solver.solve(&[], &Deadline::default()).unwrap() {
                SatAnswer::Sat(m) => {
                    let fill: Vec<u16> = (0..k)
                        .map(|i| {
                            let ds: Vec<u16> = (1..=n)
                                .filter(|&d| match lit(i, d) {
                                    TRUE => true,
                                    l if l == -TRUE => false,
                                    l => m.is_true(l),
                                })
                                .map(|d| d as u16)
                                .collect();
                            assert_eq!(ds.len(), 1, "cell {i} has digits {ds:?}");
                            ds[0]
                        })
                        .collect();
                    let block: Vec<i32> = (0..k)
                        .map(|i| lit(i, fill[i] as usize))
                        .filter(|&l| l != TRUE)
                        .map(|l| -l)
                        .collect();
                    found.push(fill);
                    if block.is_empty() {
                        break;
                    }
                    solver.add_clause(&block);
                }
                SatAnswer::Unsat => break,
                SatAnswer::Interrupted(_) => unreachable!("no budget"),
            }
        }
        found.sort();
        found
    }

    /// Every sum encoding allows exactly the fillings of the cage, on every cage of 1 to 4
    /// cells of a 4x4 or 6x6 grid with every reachable sum (and one unreachable above),
    /// with and without cells restricted.
    #[test]
    fn models_are_the_fillings() {
        for n in [4usize, 6] {
            for k in 1..=4usize.min(n) {
                let (lo, hi) = crate::puzzle::sum_range(k, n).unwrap();
                for s in lo - 1..=hi + 1 {
                    let full = vec![(1u64 << n) - 1; k];
                    // cell 0 only odd digits; cell 1 decided (digit 2) when k > 1
                    let mut restricted = full.clone();
                    restricted[0] = 0b0101_0101 & ((1 << n) - 1);
                    if k > 1 {
                        restricted[1] = 0b10;
                    }
                    for allowed in [&full, &restricted] {
                        let want = brute(k, n, s as usize, allowed);
                        for sum in SumEncoding::ALL {
                            for amo in [Amo::Pairwise, Amo::Sequential] {
                                let got = by_solver(k, n, s as usize, allowed, sum, amo);
                                assert_eq!(got, want, "n={n} k={k} s={s} {sum} {amo} {allowed:?}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The size counted before encoding ([`crate::cnf::count`], the size guard's) is the
    /// size emitted, for killers under every encoding and sum encoding.
    #[test]
    fn counted_size_is_emitted_size() {
        use crate::cnf::{size_stats, CnfEncoding, CnfOptions};
        let path = format!(
            "{}/data/variants/killer-janko.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let (_, puzzles) =
            crate::puzzle::read_file(std::path::Path::new(&path), &Default::default()).unwrap();
        for sp in puzzles.iter().step_by(23) {
            // also with a given, so that the eliminating encodings have constants
            let mut givens = sp.puzzle.givens().to_vec();
            givens[0] = 1;
            let given = crate::puzzle::Puzzle::new(sp.puzzle.shared_geometry().clone(), givens)
                .unwrap()
                .with_cage_set(sp.puzzle.shared_cages().cloned());
            for p in [&sp.puzzle, &given] {
                for encoding in CnfEncoding::ALL {
                    for sum in SumEncoding::ALL {
                        for amo in [Amo::AUTO, Amo::Sequential] {
                            let o = CnfOptions {
                                encoding,
                                sum,
                                amo,
                                ..CnfOptions::default()
                            };
                            let counted = size_stats(p, &o);
                            let emitted = super::super::size::size_emitted(p, &o);
                            assert_eq!(counted, emitted, "{:?} {encoding} {sum} {amo}", sp.name);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sum_encoding_names_round_trip() {
        for e in SumEncoding::ALL {
            assert_eq!(e.as_str().parse::<SumEncoding>(), Ok(e));
        }
        assert!("mdd".parse::<SumEncoding>().is_err());
    }
}
