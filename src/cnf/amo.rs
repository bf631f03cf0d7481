//! At-most-one (AMO) encodings: clauses over a group of literals, plus auxiliary variables,
//! that are satisfiable (for some value of the auxiliary variables) exactly when at most one
//! literal of the group is true.
//!
//! Sources and the exact variants implemented (sizes for a group of `n` literals):
//!
//! - `pairwise`: the naive encoding, `(¬x_i ∨ ¬x_j)` for every pair: 0 aux, `n(n-1)/2` clauses.
//! - `sequential`: C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality
//!   constraints", CP 2005 (the sequential counter `LT_SEQ` for `k = 1`): aux `s_1..s_{n-1}`,
//!   clauses `(¬x_1 ∨ s_1)`, `(¬x_n ∨ ¬s_{n-1})` and, for `1 < i < n`, `(¬x_i ∨ s_i)`,
//!   `(¬s_{i-1} ∨ s_i)`, `(¬x_i ∨ ¬s_{i-1})`: `n-1` aux, `3n-4` clauses (`n >= 2`).
//! - `binary`: the bitwise encoding (A. M. Frisch, T. J. Peugniez, A. J. Doggett, P. Nightingale,
//!   "Solving non-Boolean satisfiability problems with stochastic local search", 2005; also
//!   Prestwich): `m = ceil(log2 n)` bits `b_1..b_m`; literal `i` (0-based) implies the bits of
//!   `i`: `(¬x_i ∨ b_j)` or `(¬x_i ∨ ¬b_j)`: `m` aux, `n*m` clauses.
//! - `product`: J. Chen, "A new SAT encoding of the at-most-one constraint", ModRef 2010:
//!   `p = ceil(sqrt n)`, `q = ceil(n/p)`, literal `i` sits at `(i / q, i % q)` of a `p x q`
//!   grid and implies its row variable `u_{i/q}` and column variable `v_{i%q}`; then AMO over
//!   the `u` and over the `v`, recursively with the product encoding, down to groups of
//!   `n <= 4`, which are pairwise: `2n` clauses plus the two sub-AMOs.
//! - `commander`: W. Klieber and G. Kwon, "Efficient CNF encoding for selecting 1 from N
//!   objects", CFV 2007: the group is cut into consecutive subgroups of `g` literals (default
//!   `g = 3`), each with a commander `c`; per subgroup: pairwise AMO inside it, `(¬c ∨ OR
//!   subgroup)` and `(c ∨ ¬x)` for each member (so `c` is exactly the OR of its subgroup);
//!   then AMO over the commanders, recursively with the commander encoding; a group of at most
//!   `g` literals is pairwise.
//! - `bimander`: Van-Hau Nguyen and Son Thai Mai, "A new method to encode the at-most-one
//!   constraint into SAT", SoICT 2015: the group is cut into `m = ceil(n/g)` consecutive
//!   subgroups of `g` literals (default `g = 2`, i.e. the paper's `m = n/2`; LogicNG's default
//!   too); pairwise AMO inside each subgroup; `k = ceil(log2 m)` bits `b_j`, and every literal
//!   of subgroup `i` implies the bits of `i`: `(¬x ∨ b_j)` or `(¬x ∨ ¬b_j)`. Two true literals
//!   in different subgroups imply different bit patterns. `k` aux, `m·g(g-1)/2 + n·k` clauses
//!   at most.
//! - `auto` (the default): `pairwise` for groups of at most [`AUTO_PAIRWISE_MAX`] literals,
//!   `bimander` above; in a formula that would have over [`AUTO_LARGE_LITERALS`] literals so,
//!   pairwise only up to [`AUTO_LARGE_PAIRWISE_MAX`] (memory: a 400x400 puzzle at 60% givens
//!   needs 3.1 GB of RSS with 32 and 1.8 GB with 16; formulas under the bound, which include
//!   every instance answered at 64x64-400x400, are unchanged). `auto:K` fixes the threshold
//!   at K on every formula. Measured by
//!   `scripts/bench/sat-amo.sh` (docs/reductions.md, "AMO for large groups"): in full groups
//!   bimander is 1.9-2.5x faster than pairwise at 36-49 literals; in the search-bound
//!   reduced/optimized formulas of the large instances, bimander on small groups is 2-4x
//!   slower; every classic size up to 32x32 keeps the published pairwise formula.
//!
//! With these variants the extended 9x9 encoding (324 groups of 9 literals under AMO, 324
//! at-least-one clauses) has exactly the published sizes: sequential 3321 vars / 7776 clauses,
//! binary 2025 / 11988, product 2673 / 8100, commander 1701 / 8100. Every variant is checked
//! exhaustively for small groups in the tests below.

use super::unknown_value::UnknownValue;
use std::fmt;
use std::str::FromStr;

/// Group size of the commander encoding unless one is named (`commander:K`).
pub const DEFAULT_COMMANDER_GROUP: usize = 3;

/// Largest group that the product encoding encodes pairwise instead of recursing.
pub const PRODUCT_PAIRWISE_MAX: usize = 4;

/// Group size of the bimander encoding unless one is named (`bimander:G`).
pub const DEFAULT_BIMANDER_GROUP: usize = 2;

/// Largest group that `auto` encodes pairwise; larger groups get bimander.
pub const AUTO_PAIRWISE_MAX: usize = 32;

/// `auto`'s memory rule: a formula that would have more literals than this with
/// [`AUTO_PAIRWISE_MAX`] is encoded with [`AUTO_LARGE_PAIRWISE_MAX`] instead
/// ([`Amo::for_formula`]). About 1 GB inside batsat (21 bytes per literal measured at
/// 400x400); below it every formula keeps the threshold measured for speed.
pub const AUTO_LARGE_LITERALS: u64 = 50_000_000;

/// Largest group that `auto` encodes pairwise in a formula over [`AUTO_LARGE_LITERALS`]:
/// halves a 400x400 puzzle's formula at 60% givens (71.7M clauses, 3.1 GB peak RSS with 32;
/// 38.9M, 1.8 GB with 16; a threshold of 8 saves 1% more).
pub const AUTO_LARGE_PAIRWISE_MAX: usize = 16;

/// An at-most-one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Amo {
    /// Pairwise for groups of at most K literals, bimander above. `auto` (`None`, the
    /// default): K = [`AUTO_PAIRWISE_MAX`], lowered to [`AUTO_LARGE_PAIRWISE_MAX`] in a formula
    /// that would have over [`AUTO_LARGE_LITERALS`] literals ([`Amo::for_formula`]);
    /// `auto:K` (`Some(K)`, for measuring the rule): K on every formula.
    Auto(Option<usize>),
    Pairwise,
    Sequential,
    Binary,
    Product,
    /// Commander encoding with subgroups of this many literals (at least 2).
    Commander(usize),
    /// Bimander encoding with subgroups of this many literals (at least 1).
    Bimander(usize),
}

impl Default for Amo {
    fn default() -> Self {
        Amo::AUTO
    }
}

impl Amo {
    /// The default: `auto` with the measured threshold.
    pub const AUTO: Amo = Amo::Auto(None);

    /// Every encoding with its default parameters.
    pub const ALL: [Amo; 7] = [
        Amo::Pairwise,
        Amo::Sequential,
        Amo::Binary,
        Amo::Product,
        Amo::Commander(DEFAULT_COMMANDER_GROUP),
        Amo::Bimander(DEFAULT_BIMANDER_GROUP),
        Amo::AUTO,
    ];

    /// The encoding used for a group of `k` literals: `auto` resolved by size, the others
    /// as they are.
    pub fn for_group(self, k: usize) -> Amo {
        match self {
            Amo::Auto(max) if k <= max.unwrap_or(AUTO_PAIRWISE_MAX) => Amo::Pairwise,
            Amo::Auto(_) => Amo::Bimander(DEFAULT_BIMANDER_GROUP),
            a => a,
        }
    }

    /// The encoding of a formula that has `literals` literals when encoded with `self`:
    /// `auto`'s memory rule lowers its threshold to [`AUTO_LARGE_PAIRWISE_MAX`] over
    /// [`AUTO_LARGE_LITERALS`] literals; every other encoding (`auto:K` too) is kept.
    pub fn for_formula(self, literals: u64) -> Amo {
        match self {
            Amo::Auto(None) if literals > AUTO_LARGE_LITERALS => {
                Amo::Auto(Some(AUTO_LARGE_PAIRWISE_MAX))
            }
            a => a,
        }
    }

    /// `self` with `auto`'s threshold written out (`auto` is `auto:32`), the form a run's
    /// record shows: every other encoding as it is.
    pub fn explicit(self) -> Amo {
        match self {
            Amo::Auto(None) => Amo::Auto(Some(AUTO_PAIRWISE_MAX)),
            a => a,
        }
    }

    /// Name as accepted by `FromStr`: `pairwise`, `sequential`, `binary`, `product`,
    /// `commander` (groups of 3) or `commander:K`.
    pub fn as_str(&self) -> String {
        match self {
            Amo::Pairwise => "pairwise".into(),
            Amo::Sequential => "sequential".into(),
            Amo::Binary => "binary".into(),
            Amo::Product => "product".into(),
            Amo::Commander(DEFAULT_COMMANDER_GROUP) => "commander".into(),
            Amo::Commander(g) => format!("commander:{g}"),
            Amo::Bimander(DEFAULT_BIMANDER_GROUP) => "bimander".into(),
            Amo::Bimander(g) => format!("bimander:{g}"),
            Amo::Auto(None) => "auto".into(),
            Amo::Auto(Some(max)) => format!("auto:{max}"),
        }
    }
}

impl fmt::Display for Amo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_str())
    }
}

/// An at-most-one encoding that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AmoError {
    /// None of the encodings' names.
    #[error(transparent)]
    Unknown(#[from] UnknownValue),
    /// `auto:K` whose `K` is not a number.
    #[error("auto threshold {0:?} is not a whole number of literals")]
    AutoThreshold(String),
    /// `commander:G` or `bimander:G` whose `G` is not a group size the encoding takes.
    #[error("{encoding} group size {value:?} is not an integer >= {min}")]
    GroupSize {
        encoding: &'static str,
        value: String,
        min: usize,
    },
}

impl FromStr for Amo {
    type Err = AmoError;

    fn from_str(s: &str) -> Result<Self, AmoError> {
        match s {
            "pairwise" => Ok(Amo::Pairwise),
            "sequential" => Ok(Amo::Sequential),
            "binary" | "bitwise" => Ok(Amo::Binary),
            "product" => Ok(Amo::Product),
            "commander" => Ok(Amo::Commander(DEFAULT_COMMANDER_GROUP)),
            "bimander" => Ok(Amo::Bimander(DEFAULT_BIMANDER_GROUP)),
            "auto" => Ok(Amo::AUTO),
            _ => {
                if let Some(k) = s.strip_prefix("auto:") {
                    return k
                        .parse::<usize>()
                        .map(|k| Amo::Auto(Some(k)))
                        .map_err(|_| AmoError::AutoThreshold(k.to_string()));
                }
                for (encoding, min, make) in [
                    ("bimander", 1, Amo::Bimander as fn(usize) -> Amo),
                    ("commander", 2, Amo::Commander),
                ] {
                    if let Some(g) = s.strip_prefix(encoding).and_then(|g| g.strip_prefix(':')) {
                        return match g.parse::<usize>() {
                            Ok(g) if g >= min => Ok(make(g)),
                            _ => Err(AmoError::GroupSize {
                                encoding,
                                value: g.to_string(),
                                min,
                            }),
                        };
                    }
                }
                Err(UnknownValue::new(
                    "at-most-one encoding",
                    s,
                    "auto, auto:K, pairwise, sequential, binary, product, commander, \
                     commander:K, bimander, bimander:G",
                )
                .into())
            }
        }
    }
}

/// Where AMO clauses go: a fresh auxiliary variable on demand, and each clause.
pub trait ClauseOut {
    /// A new auxiliary variable (DIMACS number, positive).
    fn new_var(&mut self) -> i32;
    /// One clause (DIMACS literals, no terminating 0).
    fn clause(&mut self, lits: &[i32]);
}

/// Emits the clauses of "at most one of `lits` is true" in encoding `amo`.
pub fn at_most_one(amo: Amo, lits: &[i32], out: &mut dyn ClauseOut) {
    match amo {
        Amo::Pairwise => pairwise(lits, out),
        Amo::Sequential => sequential(lits, out),
        Amo::Binary => binary(lits, out),
        Amo::Product => product(lits, out),
        Amo::Commander(g) => commander(lits, g.max(2), out),
        Amo::Bimander(g) => bimander(lits, g.max(1), out),
        Amo::Auto(_) => at_most_one(amo.for_group(lits.len()), lits, out),
    }
}

/// Number of (aux vars, clauses, literals) that [`at_most_one`] emits for a group of `n`.
pub fn size(amo: Amo, n: usize) -> (u64, u64, u64) {
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
    let lits: Vec<i32> = (1..=n as i32).collect();
    let mut c = Count(0, 0, 0);
    at_most_one(amo, &lits, &mut c);
    (c.0, c.1, c.2)
}

fn pairwise(lits: &[i32], out: &mut dyn ClauseOut) {
    for i in 0..lits.len() {
        for j in i + 1..lits.len() {
            out.clause(&[-lits[i], -lits[j]]);
        }
    }
}

fn sequential(x: &[i32], out: &mut dyn ClauseOut) {
    let n = x.len();
    if n <= 1 {
        return;
    }
    let s: Vec<i32> = (0..n - 1).map(|_| out.new_var()).collect();
    out.clause(&[-x[0], s[0]]);
    for i in 1..n - 1 {
        out.clause(&[-x[i], s[i]]);
        out.clause(&[-s[i - 1], s[i]]);
        out.clause(&[-x[i], -s[i - 1]]);
    }
    out.clause(&[-x[n - 1], -s[n - 2]]);
}

fn binary(x: &[i32], out: &mut dyn ClauseOut) {
    let n = x.len();
    if n <= 1 {
        return;
    }
    let m = usize::BITS - (n - 1).leading_zeros(); // ceil(log2 n) for n >= 2
    let b: Vec<i32> = (0..m).map(|_| out.new_var()).collect();
    for (i, &xi) in x.iter().enumerate() {
        for (j, &bj) in b.iter().enumerate() {
            let bit = if (i >> j) & 1 == 1 { bj } else { -bj };
            out.clause(&[-xi, bit]);
        }
    }
}

fn product(x: &[i32], out: &mut dyn ClauseOut) {
    product_down_to(x, PRODUCT_PAIRWISE_MAX, out)
}

/// The product encoding, pairwise for groups of at most `base` literals (`base >= 2`).
fn product_down_to(x: &[i32], base: usize, out: &mut dyn ClauseOut) {
    let n = x.len();
    if n <= base {
        return pairwise(x, out);
    }
    let mut p = (n as f64).sqrt().ceil() as usize;
    while p * p < n {
        p += 1;
    }
    while (p - 1) * (p - 1) >= n {
        p -= 1;
    }
    let q = n.div_ceil(p);
    let u: Vec<i32> = (0..p).map(|_| out.new_var()).collect();
    let v: Vec<i32> = (0..q).map(|_| out.new_var()).collect();
    for (i, &xi) in x.iter().enumerate() {
        out.clause(&[-xi, u[i / q]]);
        out.clause(&[-xi, v[i % q]]);
    }
    product_down_to(&u, base, out);
    product_down_to(&v, base, out);
}

fn commander(x: &[i32], g: usize, out: &mut dyn ClauseOut) {
    let n = x.len();
    if n <= g {
        return pairwise(x, out);
    }
    let mut commanders = Vec::with_capacity(n.div_ceil(g));
    for group in x.chunks(g) {
        let c = out.new_var();
        pairwise(group, out);
        let mut alo = Vec::with_capacity(group.len() + 1);
        alo.push(-c);
        alo.extend_from_slice(group);
        out.clause(&alo);
        for &xi in group {
            out.clause(&[c, -xi]);
        }
        commanders.push(c);
    }
    commander(&commanders, g, out);
}

fn bimander(x: &[i32], g: usize, out: &mut dyn ClauseOut) {
    let n = x.len();
    if n <= g {
        return pairwise(x, out);
    }
    let m = n.div_ceil(g);
    let k = usize::BITS - (m - 1).leading_zeros(); // ceil(log2 m) for m >= 2
    let b: Vec<i32> = (0..k).map(|_| out.new_var()).collect();
    for (i, group) in x.chunks(g).enumerate() {
        pairwise(group, out);
        for &xi in group {
            for (j, &bj) in b.iter().enumerate() {
                let bit = if (i >> j) & 1 == 1 { bj } else { -bj };
                out.clause(&[-xi, bit]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collects clauses over variables `1..=n` (the group) and aux `n+1..`.
    struct Collect {
        next: i32,
        clauses: Vec<Vec<i32>>,
    }

    impl ClauseOut for Collect {
        fn new_var(&mut self) -> i32 {
            self.next += 1;
            self.next
        }
        fn clause(&mut self, lits: &[i32]) {
            self.clauses.push(lits.to_vec());
        }
    }

    fn encode(amo: Amo, n: usize) -> (usize, Vec<Vec<i32>>) {
        let lits: Vec<i32> = (1..=n as i32).collect();
        let mut c = Collect {
            next: n as i32,
            clauses: Vec::new(),
        };
        at_most_one(amo, &lits, &mut c);
        (c.next as usize - n, c.clauses)
    }

    /// Whether `clauses` (vars `1..=nv`) are satisfiable with the first `n` variables fixed to
    /// the bits of `x`: a complete backtracking search over the auxiliary variables that
    /// prunes as soon as a clause has all its literals false.
    fn satisfiable_with(clauses: &[Vec<i32>], nv: usize, n: usize, x: u64) -> bool {
        let mut val: Vec<Option<bool>> = vec![None; nv + 1];
        for (v, slot) in val.iter_mut().enumerate().take(n + 1).skip(1) {
            *slot = Some((x >> (v - 1)) & 1 == 1);
        }
        fn falsified(clauses: &[Vec<i32>], val: &[Option<bool>]) -> bool {
            clauses.iter().any(|cl| {
                cl.iter()
                    .all(|&l| val[l.unsigned_abs() as usize] == Some(l < 0))
            })
        }
        fn go(clauses: &[Vec<i32>], val: &mut Vec<Option<bool>>, v: usize) -> bool {
            if falsified(clauses, val) {
                return false;
            }
            if v == val.len() {
                return true;
            }
            for b in [false, true] {
                val[v] = Some(b);
                if go(clauses, val, v + 1) {
                    return true;
                }
            }
            val[v] = None;
            false
        }
        go(clauses, &mut val, n + 1)
    }

    /// For every assignment of the group's `n` variables: the clauses are satisfiable with
    /// some assignment of the auxiliary variables iff at most one group variable is true.
    fn check(n: usize, aux: usize, clauses: &[Vec<i32>], what: &str) {
        assert!(clauses
            .iter()
            .flatten()
            .all(|&l| l != 0 && (l.unsigned_abs() as usize) <= n + aux));
        for x in 0u64..(1 << n) {
            assert_eq!(
                satisfiable_with(clauses, n + aux, n, x),
                x.count_ones() <= 1,
                "{what} n={n} group assignment {x:b}"
            );
        }
    }

    fn prove(amo: Amo, n: usize) {
        let (aux, clauses) = encode(amo, n);
        check(n, aux, &clauses, &amo.as_str());
    }

    #[test]
    fn every_amo_is_exact_for_small_groups() {
        for amo in Amo::ALL.into_iter().chain([
            Amo::Commander(2),
            Amo::Commander(4),
            Amo::Bimander(1),
            Amo::Bimander(3),
            Amo::Bimander(4),
        ]) {
            for n in 0..=10 {
                prove(amo, n);
            }
        }
    }

    #[test]
    fn product_recursion_is_exact() {
        // With pairwise only down to 2 literals, groups of 5..=10 recurse two levels deep.
        for n in 0..=10 {
            let lits: Vec<i32> = (1..=n as i32).collect();
            let mut c = Collect {
                next: n as i32,
                clauses: Vec::new(),
            };
            product_down_to(&lits, 2, &mut c);
            check(n, c.next as usize - n, &c.clauses, "product(base 2)");
        }
    }

    #[test]
    fn sizes_for_nine() {
        assert_eq!(size(Amo::Pairwise, 9), (0, 36, 72));
        assert_eq!(size(Amo::Sequential, 9), (8, 23, 46));
        assert_eq!(size(Amo::Binary, 9), (4, 36, 72));
        assert_eq!(size(Amo::Product, 9), (6, 24, 48));
        assert_eq!(size(Amo::Commander(3), 9).0, 3);
        assert_eq!(size(Amo::Commander(3), 9).1, 24);
        for n in 2..40 {
            assert_eq!(
                size(Amo::Sequential, n),
                (n as u64 - 1, 3 * n as u64 - 4, 6 * n as u64 - 8)
            );
        }
    }

    #[test]
    fn bimander_sizes_and_auto_rule() {
        // m = ceil(n/2) pairs, k = ceil(log2 m) bits: n/2 pair clauses (odd n: one single) and
        // n*k bit clauses.
        for n in 3..200usize {
            let m = n.div_ceil(2);
            let k = (usize::BITS - (m - 1).leading_zeros()) as u64;
            let n64 = n as u64;
            assert_eq!(
                size(Amo::Bimander(2), n),
                (k, n64 / 2 + n64 * k, 2 * (n64 / 2 + n64 * k)),
                "n={n}"
            );
        }
        assert_eq!(Amo::AUTO.for_group(AUTO_PAIRWISE_MAX), Amo::Pairwise);
        assert_eq!(
            Amo::AUTO.for_group(AUTO_PAIRWISE_MAX + 1),
            Amo::Bimander(DEFAULT_BIMANDER_GROUP)
        );
        assert_eq!(size(Amo::AUTO, 9), size(Amo::Pairwise, 9));
        assert_eq!(size(Amo::AUTO, 100), size(Amo::Bimander(2), 100));
        assert_eq!(Amo::Auto(Some(8)).for_group(9), Amo::Bimander(2));
        assert_eq!(Amo::Auto(Some(8)).for_group(8), Amo::Pairwise);
        assert_eq!(Amo::Auto(Some(0)).for_group(2), Amo::Bimander(2));
        // The memory rule: `auto` only, and only over the bound.
        let big = AUTO_LARGE_LITERALS + 1;
        assert_eq!(Amo::AUTO.for_formula(AUTO_LARGE_LITERALS), Amo::AUTO);
        assert_eq!(Amo::AUTO.explicit().as_str(), "auto:32");
        assert_eq!(Amo::Auto(Some(16)).explicit(), Amo::Auto(Some(16)));
        assert_eq!(Amo::Sequential.explicit(), Amo::Sequential);
        assert_eq!(
            Amo::AUTO.for_formula(big),
            Amo::Auto(Some(AUTO_LARGE_PAIRWISE_MAX))
        );
        for a in [Amo::Auto(Some(32)), Amo::Pairwise, Amo::Bimander(2)] {
            assert_eq!(a.for_formula(big), a);
        }
    }

    proptest::proptest! {
        /// Bimander (and auto) on groups too large for the exhaustive check: a random set of
        /// true literals satisfies the clauses (for some value of the bits) iff it has at most
        /// one element.
        #[test]
        fn bimander_is_an_amo_on_large_groups(
            n in 11usize..80,
            g in 1usize..6,
            trues in proptest::collection::btree_set(0usize..80, 0..4),
        ) {
            for amo in [Amo::Bimander(g), Amo::AUTO, Amo::Auto(Some(g))] {
                let (aux, clauses) = encode(amo, n);
                proptest::prop_assert!(aux <= 7);
                let x: Vec<usize> = trues.iter().copied().filter(|&t| t < n).collect();
                // Fix the group by unit clauses, then search the aux variables.
                let mut fixed = clauses.clone();
                for v in 1..=n {
                    let lit = v as i32;
                    fixed.push(vec![if x.contains(&(v - 1)) { lit } else { -lit }]);
                }
                proptest::prop_assert_eq!(
                    satisfiable_with(&fixed, n + aux, 0, 0),
                    x.len() <= 1,
                    "{} n={} trues={:?}", amo, n, x
                );
            }
        }
    }

    #[test]
    fn names_round_trip() {
        for amo in Amo::ALL.into_iter().chain([
            Amo::Commander(5),
            Amo::Bimander(7),
            Amo::Auto(Some(8)),
            Amo::Auto(Some(0)),
            Amo::Auto(Some(AUTO_PAIRWISE_MAX)),
        ]) {
            assert_eq!(amo.as_str().parse::<Amo>(), Ok(amo));
        }
        assert!("commander:1".parse::<Amo>().is_err());
        assert!("bimander:0".parse::<Amo>().is_err());
        assert!("nope".parse::<Amo>().is_err());
        assert!("auto:x".parse::<Amo>().is_err());
        // `auto:32` is the same threshold as `auto` without the memory rule.
        assert_eq!("auto:32".parse::<Amo>(), Ok(Amo::Auto(Some(32))));
        assert_eq!("auto".parse::<Amo>(), Ok(Amo::AUTO));
    }
}
