//! The canonical formula: the one CNF statement of a puzzle that every certificate proves
//! something about, whatever encoding the solver used. It depends on the puzzle alone (side,
//! house list, givens), never on an encoding option, so that a checker can rebuild it from the
//! recorded puzzle and nothing else. `docs/certify.md` states it for readers;
//! `scripts/canonical-cnf.py` rebuilds it in 30 lines of Python, and `sudolab encode
//! --canonical` writes it.
//!
//! Variables: `v(r, c, d) = r*N*N + c*N + d` for 0-based row `r` and column `c` and digit
//! `d` in `1..=N`, so `1..=N^3` ("cell `r*N + c` holds `d`").
//!
//! Houses, in this order: the rows `0..N`, the columns `0..N`, the boxes or jigsaw regions
//! ordered by their first cell in row-major order, then (X-sudoku) the main diagonal and the
//! anti-diagonal. The cells of a house are taken in row-major order. A *group* is a list of
//! literals of which exactly one must be true: first the `N*N` cell groups (cells in
//! row-major order, the digits `1..=N` of each), then for every house in order and every
//! digit `d = 1..=N`, the variables `v(cell, d)` of its cells.
//!
//! Clauses, in this order: for every group, its at-least-one clause (the group itself) and
//! its at-most-one clauses; then one unit clause `v(cell, d)` per given, row-major.
//! At-most-one comes in two forms ([`CanonicalForm`]):
//! - `pairwise` (sides up to [`PAIRWISE_MAX_SIDE`]): `(-a -b)` for every pair `a` before `b`
//!   of the group. A pair of cells that share two houses (a row and a box) gives the same
//!   clause twice; the clause *set* is what counts.
//! - `sequential` (larger sides, where the pairwise formula passes 3 GB of DIMACS: 81x81 has
//!   85 million pairwise clauses): C. Sinz's sequential counter (CP 2005) with fixed auxiliary
//!   variables. Group `g` (0-based, in the order above) of `n = N` literals `x_1..x_n` gets
//!   `s_1..s_{n-1}`, numbered `s_i = N^3 + g*(N-1) + i`, and the `3n - 4` clauses
//!   `(-x_1 s_1)`; for `1 < i < n`: `(-x_i s_i)`, `(-s_{i-1} s_i)`, `(-x_i -s_{i-1})`; and
//!   `(-x_n -s_{n-1})`. Unit propagation on it is as strong as on the pairwise form (a true
//!   `x_i` makes every other `x_j` false), so every unit-propagation argument below holds in
//!   both forms.
//!
//! A certificate of uniqueness proves the canonical formula plus one *blocking clause*
//! unsatisfiable: `-v(cell, s(cell))` for every cell that is not a given, row-major, where `s`
//! is the solution.

use crate::puzzle::{Geometry, Layout};
use std::fmt;
use std::str::FromStr;

/// Largest side whose canonical formula is [`CanonicalForm::Pairwise`]. A 48x48 pairwise
/// formula has 10.4 million clauses (about 200 MB of DIMACS); from 49x49 on the sequential
/// form is used (64x64: 33 million pairwise clauses against 1.6 million).
pub const PAIRWISE_MAX_SIDE: usize = 48;

/// How the canonical formula states "at most one of a group".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CanonicalForm {
    Pairwise,
    Sequential,
}

impl CanonicalForm {
    /// The form the tool uses for side `n`: pairwise up to [`PAIRWISE_MAX_SIDE`], sequential
    /// above. A checker accepts either form for any side, as the bundle names it.
    pub fn for_side(n: usize) -> Self {
        if n <= PAIRWISE_MAX_SIDE {
            CanonicalForm::Pairwise
        } else {
            CanonicalForm::Sequential
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CanonicalForm::Pairwise => "pairwise",
            CanonicalForm::Sequential => "sequential",
        }
    }
}

impl fmt::Display for CanonicalForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not a [`CanonicalForm`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown canonical form `{0}` (expected pairwise or sequential)")]
pub struct UnknownForm(pub String);

impl FromStr for CanonicalForm {
    type Err = UnknownForm;
    fn from_str(s: &str) -> Result<Self, UnknownForm> {
        match s {
            "pairwise" => Ok(CanonicalForm::Pairwise),
            "sequential" => Ok(CanonicalForm::Sequential),
            _ => Err(UnknownForm(s.to_string())),
        }
    }
}

/// The canonical formula of one puzzle: its houses in canonical order, its givens and form.
pub struct Canonical {
    n: usize,
    form: CanonicalForm,
    /// The houses in canonical order, `N` cells each, row-major within a house.
    houses: Vec<u32>,
    givens: Vec<u16>,
}

impl Canonical {
    /// The canonical formula of the puzzle `geometry` + `givens` (0 = empty) in `form`.
    pub fn new(geometry: &Geometry, givens: &[u16], form: CanonicalForm) -> Self {
        Canonical {
            n: geometry.n(),
            form,
            houses: canonical_houses(geometry),
            givens: givens.to_vec(),
        }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn form(&self) -> CanonicalForm {
        self.form
    }

    /// Number of houses.
    pub fn house_count(&self) -> usize {
        self.houses.len() / self.n.max(1)
    }

    /// Number of groups: the cells, then every (house, digit).
    pub fn groups(&self) -> u64 {
        let n = self.n as u64;
        n * n + self.house_count() as u64 * n
    }

    /// `v(cell, d)` for `cell = r*N + c`.
    pub fn var(&self, cell: usize, digit: u16) -> i32 {
        (cell * self.n + digit as usize) as i32
    }

    /// Number of variables: `N^3`, plus the sequential form's auxiliary variables.
    pub fn num_vars(&self) -> u64 {
        let n = self.n as u64;
        match self.form {
            CanonicalForm::Pairwise => n * n * n,
            CanonicalForm::Sequential => n * n * n + self.groups() * n.saturating_sub(1),
        }
    }

    /// Number of clauses (duplicates included), givens included.
    pub fn num_clauses(&self) -> u64 {
        let n = self.n as u64;
        let amo = match self.form {
            CanonicalForm::Pairwise => n * n.saturating_sub(1) / 2,
            CanonicalForm::Sequential => (3 * n).saturating_sub(4),
        };
        let givens = self.givens.iter().filter(|&&d| d != 0).count() as u64;
        self.groups() * (1 + amo) + givens
    }

    /// The houses in canonical order, `N` cells each.
    pub fn houses(&self) -> &[u32] {
        &self.houses
    }

    /// Number of clauses before the givens' unit clauses: the same for every puzzle of one
    /// shape and form.
    pub fn num_group_clauses(&self) -> u64 {
        self.num_clauses() - self.givens.iter().filter(|&&d| d != 0).count() as u64
    }

    /// Calls `emit` with every clause, in the documented order.
    pub fn for_each_clause(&self, mut emit: impl FnMut(&[i32])) {
        self.for_each_group_clause(|c| {
            emit(c);
            true
        });
        self.for_each_given_clause(emit);
    }

    /// Calls `emit` with every clause of the groups (cells, then house x digit) in order,
    /// until it returns false; returns false if it did.
    pub fn for_each_group_clause(&self, mut emit: impl FnMut(&[i32]) -> bool) -> bool {
        let n = self.n;
        let mut group: Vec<i32> = Vec::with_capacity(n);
        let mut clause = [0i32; 2];
        let mut one_group = |group: &[i32], g: u64| -> bool {
            if !emit(group) {
                return false;
            }
            match self.form {
                CanonicalForm::Pairwise => {
                    for (i, &a) in group.iter().enumerate() {
                        for &b in &group[i + 1..] {
                            clause[0] = -a;
                            clause[1] = -b;
                            if !emit(&clause) {
                                return false;
                            }
                        }
                    }
                    true
                }
                CanonicalForm::Sequential => {
                    let k = group.len();
                    if k < 2 {
                        return true;
                    }
                    let base = (n * n * n) as u64 + g * (n as u64 - 1);
                    let s = |i: usize| (base + i as u64) as i32; // s_i, 1-based i
                    if !emit(&[-group[0], s(1)]) {
                        return false;
                    }
                    for i in 2..k {
                        let x = group[i - 1];
                        if !(emit(&[-x, s(i)])
                            && emit(&[-s(i - 1), s(i)])
                            && emit(&[-x, -s(i - 1)]))
                        {
                            return false;
                        }
                    }
                    emit(&[-group[k - 1], -s(k - 1)])
                }
            }
        };
        let mut g: u64 = 0;
        for cell in 0..n * n {
            group.clear();
            group.extend((1..=n as u16).map(|d| self.var(cell, d)));
            if !one_group(&group, g) {
                return false;
            }
            g += 1;
        }
        for house in self.houses.chunks(n.max(1)) {
            for d in 1..=n as u16 {
                group.clear();
                group.extend(house.iter().map(|&c| self.var(c as usize, d)));
                if !one_group(&group, g) {
                    return false;
                }
                g += 1;
            }
        }
        true
    }

    /// Calls `emit` with the unit clause of every given, row-major.
    pub fn for_each_given_clause(&self, mut emit: impl FnMut(&[i32])) {
        for (cell, &d) in self.givens.iter().enumerate() {
            if d != 0 {
                emit(&[self.var(cell, d)]);
            }
        }
    }

    /// The blocking clause of `solution`: `-v(cell, s(cell))` for every cell that is not a
    /// given, row-major.
    pub fn blocking_clause(&self, solution: &[u16]) -> Vec<i32> {
        self.givens
            .iter()
            .zip(solution)
            .enumerate()
            .filter(|(_, (&g, _))| g == 0)
            .map(|(cell, (_, &s))| -self.var(cell, s))
            .collect()
    }

    /// Writes the formula as DIMACS, with `extra` clauses (a blocking clause) after it. The
    /// comment lines name the form and the puzzle's shape.
    pub fn write_dimacs(
        &self,
        extra: &[Vec<i32>],
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        writeln!(
            out,
            "c sudolab canonical formula, form {}, side {}, {} houses, {} givens",
            self.form,
            self.n,
            self.house_count(),
            self.givens.iter().filter(|&&d| d != 0).count()
        )?;
        writeln!(
            out,
            "p cnf {} {}",
            self.num_vars(),
            self.num_clauses() + extra.len() as u64
        )?;
        let mut buf = Vec::with_capacity(1 << 16);
        let mut err = Ok(());
        let line = |clause: &[i32], buf: &mut Vec<u8>| {
            for &l in clause {
                buf.extend_from_slice(itoa::Buffer::new().format(l).as_bytes());
                buf.push(b' ');
            }
            buf.extend_from_slice(b"0\n");
        };
        self.for_each_clause(|clause| {
            line(clause, &mut buf);
            if buf.len() >= 1 << 16 && err.is_ok() {
                err = out.write_all(&buf);
                buf.clear();
            }
        });
        err?;
        for clause in extra {
            line(clause, &mut buf);
        }
        out.write_all(&buf)
    }
}

/// The houses of `geometry` in canonical order (rows, columns, boxes or regions by their
/// first cell, diagonals), each house's cells in row-major order, flattened.
pub fn canonical_houses(geometry: &Geometry) -> Vec<u32> {
    let n = geometry.n();
    let mut out = Vec::with_capacity(geometry.house_count() * n);
    for r in 0..n {
        out.extend((0..n).map(|c| (r * n + c) as u32));
    }
    for c in 0..n {
        out.extend((0..n).map(|r| (r * n + c) as u32));
    }
    // Regions (boxes too) by their first cell: `region_of` read in row-major order.
    let regions = geometry.regions();
    let mut order: Vec<u16> = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    for &r in regions {
        if !seen[r as usize] {
            seen[r as usize] = true;
            order.push(r);
        }
    }
    let mut members: Vec<Vec<u32>> = vec![Vec::with_capacity(n); n];
    for (cell, &r) in regions.iter().enumerate() {
        members[r as usize].push(cell as u32);
    }
    for r in order {
        out.extend_from_slice(&members[r as usize]);
    }
    if geometry.has_diagonals() {
        out.extend((0..n).map(|i| (i * n + i) as u32));
        out.extend((0..n).map(|i| (i * n + (n - 1 - i)) as u32));
    }
    debug_assert!(matches!(
        geometry.layout(),
        Layout::Boxes { .. } | Layout::Regions(_)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Geometry;

    fn clauses(c: &Canonical) -> Vec<Vec<i32>> {
        let mut all = Vec::new();
        c.for_each_clause(|cl| all.push(cl.to_vec()));
        all
    }

    #[test]
    fn counts_match_the_clauses() {
        for (g, form) in [
            (Geometry::square(4).unwrap(), CanonicalForm::Pairwise),
            (Geometry::square(4).unwrap(), CanonicalForm::Sequential),
            (
                Geometry::square(9).unwrap().with_diagonals(true),
                CanonicalForm::Sequential,
            ),
            (Geometry::boxed(6, 2, 3).unwrap(), CanonicalForm::Pairwise),
        ] {
            let mut givens = vec![0u16; g.cells()];
            givens[0] = 1;
            givens[7] = 2;
            let c = Canonical::new(&g, &givens, form);
            let all = clauses(&c);
            assert_eq!(all.len() as u64, c.num_clauses());
            let max = all
                .iter()
                .flatten()
                .map(|l| l.unsigned_abs())
                .max()
                .unwrap();
            assert_eq!(max as u64, c.num_vars());
        }
    }

    #[test]
    fn pairwise_4x4_has_the_published_shape() {
        let g = Geometry::square(4).unwrap();
        let c = Canonical::new(&g, &[0; 16], CanonicalForm::Pairwise);
        let all = clauses(&c);
        // 16 cells + 12 houses * 4 digits = 64 groups, each 1 ALO + 6 pairs.
        assert_eq!(all.len(), 64 * 7);
        assert_eq!(all[0], vec![1, 2, 3, 4]);
        assert_eq!(all[1], vec![-1, -2]);
        // The first house group: row 0, digit 1.
        assert_eq!(all[16 * 7], vec![1, 5, 9, 13]);
        // Box 0 (the third family starts after 8 houses) holds cells 0, 1, 4, 5.
        assert_eq!(all[(16 + 8 * 4) * 7], vec![1, 5, 17, 21]);
    }

    #[test]
    fn sequential_aux_numbering_is_by_group() {
        let g = Geometry::square(4).unwrap();
        let c = Canonical::new(&g, &[0; 16], CanonicalForm::Sequential);
        let all = clauses(&c);
        // Group 0 (cell 0): x = 1..4, s = 65, 66, 67.
        assert_eq!(
            all[..9],
            [
                vec![1, 2, 3, 4],
                vec![-1, 65],
                vec![-2, 66],
                vec![-65, 66],
                vec![-2, -65],
                vec![-3, 67],
                vec![-66, 67],
                vec![-3, -66],
                vec![-4, -67],
            ]
        );
        // Group 1 starts its counter at 68.
        assert_eq!(all[10], vec![-5, 68]);
    }

    #[test]
    fn jigsaw_regions_come_by_their_first_cell() {
        // Regions numbered against their reading order: region 1 holds cell 0.
        let layout: Vec<u16> = vec![
            1, 1, 0, 0, //
            1, 1, 0, 0, //
            3, 3, 2, 2, //
            3, 3, 2, 2,
        ];
        let g = Geometry::jigsaw(4, layout).unwrap();
        let houses = canonical_houses(&g);
        assert_eq!(&houses[32..36], &[0, 1, 4, 5]);
        assert_eq!(&houses[36..40], &[2, 3, 6, 7]);
        assert_eq!(&houses[40..44], &[8, 9, 12, 13]);
    }

    #[test]
    fn blocking_clause_skips_the_givens() {
        let g = Geometry::square(4).unwrap();
        let mut givens = vec![0u16; 16];
        givens[0] = 1;
        let c = Canonical::new(&g, &givens, CanonicalForm::Pairwise);
        let sol: Vec<u16> = vec![1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1];
        let b = c.blocking_clause(&sol);
        assert_eq!(b.len(), 15);
        assert_eq!(b[0], -(4 + 2));
    }
}
