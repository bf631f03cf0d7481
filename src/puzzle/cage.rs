//! Cages: the killer sudoku constraint beside the houses.
//!
//! A cage is a set of cells whose digits are pairwise distinct and add up to the cage's sum
//! (the rules of killer sudoku as published, e.g. on janko.at). Unlike a house, a cage need not
//! hold every digit: a cage of `k` cells holds `k` distinct digits of `1..=N`, so its sum lies
//! between `1 + 2 + ... + k` and `N + (N-1) + ... + (N-k+1)`.
//!
//! A puzzle's cages are checked when they are attached ([`CageSet::new`]): every cell lies in
//! the grid, no cell lies in two cages, every cage is connected (orthogonally) and has at most
//! `N` cells, and every sum is one that `k` distinct digits can reach. Givens that break a
//! cage (a digit twice, or a sum the other cells cannot complete) are not bad input: the
//! puzzle has no solution, as with givens that clash in a house.

use std::fmt;

/// One cage: its cells (row-major numbers, ascending) and its sum.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Cage {
    cells: Vec<u32>,
    sum: u32,
}

impl Cage {
    /// The cells, ascending.
    pub fn cells(&self) -> &[u32] {
        &self.cells
    }

    pub fn sum(&self) -> u32 {
        self.sum
    }

    pub fn len(&self) -> usize {
        self.cells.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }
}

/// The least and the greatest sum of `k` distinct digits of `1..=n` (`None` when `k > n`).
pub fn sum_range(k: usize, n: usize) -> Option<(u32, u32)> {
    if k > n {
        return None;
    }
    let (k, n) = (k as u32, n as u32);
    Some((k * (k + 1) / 2, k * (2 * n - k + 1) / 2))
}

/// Whether `rest` more cells of a cage can add up to `need` with distinct digits taken from
/// `free` (ascending): `need` lies between the sums of the `rest` smallest and the `rest`
/// largest of them. Necessary for a completion, not sufficient; with `rest = 0`, exact.
pub fn completable<I>(need: u32, rest: usize, free: I) -> bool
where
    I: DoubleEndedIterator<Item = u32> + Clone,
{
    if rest == 0 {
        return need == 0;
    }
    if free.clone().take(rest).count() < rest {
        return false;
    }
    let least: u32 = free.clone().take(rest).sum();
    let most: u32 = free.rev().take(rest).sum();
    (least..=most).contains(&need)
}

/// Calls `visit` with every set of `k` distinct digits of `1..=n` that adds up to `sum` and
/// holds every digit `d` with `must[d]` (`must` is indexed by digit; a shorter slice, an
/// empty one included, asks for nothing past its end). A set is passed as `set[d]` for `d`
/// in `1..=n` (`set[0]` is unused and false). Sets come in lexicographic order of their
/// digits, least first. Returns `false` as soon as `visit` does (the enumeration stops
/// there), else `true`.
///
/// These sets are a cage's *combinations*: what the sum encodings, the exact-cover colour
/// matrix and the CP cage filter enumerate. Their number grows like a binomial coefficient
/// in `n` and `k`, so callers that build something per set count in `visit` and stop at a
/// bound. Branches that cannot reach `sum` (the `left` smallest or largest remaining digits
/// miss it, [`sum_range`]) are cut, so the work is proportional to the sets found.
pub fn for_each_digit_set(
    n: usize,
    k: usize,
    sum: u32,
    must: &[bool],
    visit: &mut dyn FnMut(&[bool]) -> bool,
) -> bool {
    fn go(
        d: usize,
        left: usize,
        sum: u32,
        must: &[bool],
        set: &mut [bool],
        visit: &mut dyn FnMut(&[bool]) -> bool,
    ) -> bool {
        let n = set.len() - 1;
        if left == 0 {
            let must_later = must.get(d..).is_some_and(|m| m.iter().any(|&m| m));
            return sum != 0 || must_later || visit(set);
        }
        // `left` distinct digits of `d..=n` add up to `least..=most` shifted by `d - 1` each.
        let Some((least, most)) = sum_range(left, n + 1 - d) else {
            return true;
        };
        let shift = (left * (d - 1)) as u32;
        if !(least + shift..=most + shift).contains(&sum) {
            return true;
        }
        set[d] = true;
        let go_on = go(d + 1, left - 1, sum - d as u32, must, set, visit);
        set[d] = false;
        go_on && (must.get(d).copied().unwrap_or(false) || go(d + 1, left, sum, must, set, visit))
    }
    let mut set = vec![false; n + 1];
    go(1, k, sum, must, &mut set, visit)
}

/// [`for_each_digit_set`] as bit masks (bit `d - 1` for digit `d`), for `n <= 64`, appended
/// to `out`; `false`, with `out` holding `cap` entries, when there are more than `cap`.
pub fn digit_set_masks(n: usize, k: usize, sum: u32, cap: usize, out: &mut Vec<u64>) -> bool {
    assert!(n <= 64, "digit masks are one 64-bit word");
    for_each_digit_set(n, k, sum, &[], &mut |set| {
        if out.len() >= cap {
            return false;
        }
        out.push((1..=n).filter(|&d| set[d]).fold(0, |m, d| m | 1 << (d - 1)));
        true
    })
}

/// Why a set of cages cannot be attached to a grid. Cages are numbered from 1, in the order
/// given; cells are row-major numbers, reported as `r<row>c<column>` from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CageError {
    #[error("cage {cage} has no cell")]
    Empty { cage: usize },
    #[error("cage {cage} names cell {cell}, outside the {n}x{n} grid")]
    OutsideGrid { cage: usize, cell: usize, n: usize },
    #[error("cell {} lies in cage {first} and in cage {second}", CellName(*.cell, *.n))]
    Overlap {
        cell: usize,
        n: usize,
        first: usize,
        second: usize,
    },
    #[error("cage {cage} is not connected: cell {} does not touch the rest", CellName(*.cell, *.n))]
    Disconnected { cage: usize, cell: usize, n: usize },
    #[error("cage {cage} has {cells} cells, more than the {n} distinct digits of the grid")]
    TooManyCells { cage: usize, cells: usize, n: usize },
    #[error(
        "cage {cage} has sum {sum}, which {cells} distinct digits of 1..={n} cannot reach \
         (they sum to {least}..={most})"
    )]
    UnreachableSum {
        cage: usize,
        sum: u32,
        cells: usize,
        n: usize,
        least: u32,
        most: u32,
    },
}

/// `r<row>c<column>`, both from 1.
struct CellName(usize, usize);

impl fmt::Display for CellName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.0 / self.1 + 1, self.0 % self.1 + 1)
    }
}

/// The cages of one puzzle on an `N x N` grid, validated, with the cage of every cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct CageSet {
    cages: Vec<Cage>,
    /// `cage_of[cell]` = index of the cell's cage + 1, 0 for a cell in no cage.
    cage_of: Vec<u32>,
}

impl CageSet {
    /// Validates `cages` (cells and sums) on an `n x n` grid.
    pub fn new(n: usize, cages: Vec<(Vec<u32>, u32)>) -> Result<Self, CageError> {
        let mut cage_of = vec![0u32; n * n];
        let mut out = Vec::with_capacity(cages.len());
        for (i, (mut cells, sum)) in cages.into_iter().enumerate() {
            let cage = i + 1;
            if cells.is_empty() {
                return Err(CageError::Empty { cage });
            }
            cells.sort_unstable();
            cells.dedup();
            for &c in &cells {
                let cell = c as usize;
                if cell >= n * n {
                    return Err(CageError::OutsideGrid { cage, cell, n });
                }
                if cage_of[cell] != 0 {
                    return Err(CageError::Overlap {
                        cell,
                        n,
                        first: cage_of[cell] as usize,
                        second: cage,
                    });
                }
                cage_of[cell] = cage as u32;
            }
            if let Some(cell) = first_unreached(&cells, n) {
                return Err(CageError::Disconnected { cage, cell, n });
            }
            let Some((least, most)) = sum_range(cells.len(), n) else {
                return Err(CageError::TooManyCells {
                    cage,
                    cells: cells.len(),
                    n,
                });
            };
            if sum < least || sum > most {
                return Err(CageError::UnreachableSum {
                    cage,
                    sum,
                    cells: cells.len(),
                    n,
                    least,
                    most,
                });
            }
            out.push(Cage { cells, sum });
        }
        Ok(CageSet {
            cages: out,
            cage_of,
        })
    }

    pub fn cages(&self) -> &[Cage] {
        &self.cages
    }

    pub fn is_empty(&self) -> bool {
        self.cages.is_empty()
    }

    pub fn len(&self) -> usize {
        self.cages.len()
    }

    /// The index of the cage holding `cell`, if any.
    pub fn cage_of(&self, cell: usize) -> Option<usize> {
        match self.cage_of.get(cell) {
            Some(&k) if k > 0 => Some(k as usize - 1),
            _ => None,
        }
    }

    /// The first cage that `grid` (0 = empty) breaks: a digit twice, a sum passed, or, once
    /// the cage is full, a sum not reached. `(cage index, what)`.
    pub fn first_broken(&self, grid: &[u16]) -> Option<(usize, CageBreak)> {
        for (i, cage) in self.cages.iter().enumerate() {
            let mut seen = Vec::with_capacity(cage.len());
            let mut total = 0u32;
            let mut full = true;
            for &c in &cage.cells {
                let d = grid[c as usize];
                if d == 0 {
                    full = false;
                    continue;
                }
                if seen.contains(&d) {
                    return Some((i, CageBreak::Repeated(d)));
                }
                seen.push(d);
                total += d as u32;
            }
            if total > cage.sum || (full && total != cage.sum) {
                return Some((i, CageBreak::Sum(total)));
            }
        }
        None
    }
}

/// How a grid breaks a cage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CageBreak {
    /// The digit appears twice.
    Repeated(u16),
    /// The digits present sum to this, past the cage's sum or (the cage full) short of it.
    Sum(u32),
}

/// The first cell of `cells` (ascending) that an orthogonal walk from the first cell does not
/// reach, if any.
fn first_unreached(cells: &[u32], n: usize) -> Option<usize> {
    let mut reached = vec![false; cells.len()];
    let mut stack = vec![0usize];
    reached[0] = true;
    while let Some(i) = stack.pop() {
        let c = cells[i] as usize;
        let (r, k) = (c / n, c % n);
        for (j, &other) in cells.iter().enumerate() {
            if reached[j] {
                continue;
            }
            let o = other as usize;
            let (r2, k2) = (o / n, o % n);
            if r.abs_diff(r2) + k.abs_diff(k2) == 1 {
                reached[j] = true;
                stack.push(j);
            }
        }
    }
    reached.iter().position(|&r| !r).map(|j| cells[j] as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_ranges_are_those_of_distinct_digits() {
        assert_eq!(sum_range(1, 9), Some((1, 9)));
        assert_eq!(sum_range(2, 9), Some((3, 17)));
        assert_eq!(sum_range(9, 9), Some((45, 45)));
        assert_eq!(sum_range(10, 9), None);
        assert_eq!(sum_range(3, 4), Some((6, 9)));
    }

    fn sets(n: usize, k: usize, sum: u32, must: &[usize]) -> Vec<Vec<usize>> {
        let mut m = vec![false; n + 1];
        for &d in must {
            m[d] = true;
        }
        let mut out = Vec::new();
        assert!(for_each_digit_set(n, k, sum, &m, &mut |s| {
            assert!(!s[0]);
            out.push((1..=n).filter(|&d| s[d]).collect());
            true
        }));
        out
    }

    #[test]
    fn digit_sets_are_those_of_the_sum() {
        assert_eq!(sets(9, 2, 3, &[]), [[1, 2]]);
        assert_eq!(sets(9, 2, 10, &[]), [[1, 9], [2, 8], [3, 7], [4, 6]]);
        assert_eq!(sets(9, 2, 10, &[7]), [[3, 7]]);
        assert_eq!(sets(9, 3, 15, &[]).len(), 8);
        assert_eq!(sets(9, 9, 45, &[]).len(), 1);
        assert_eq!(sets(4, 4, 10, &[]).len(), 1);
        assert!(sets(9, 2, 18, &[]).is_empty());
        assert!(sets(9, 0, 0, &[]).len() == 1 && sets(9, 0, 0, &[1]).is_empty());
        // Against a brute force over all subsets, with and without a digit that must be in.
        for n in [4, 6, 9] {
            let digits = |m: u32| (1..=n).filter(move |d| m >> (d - 1) & 1 == 1);
            for k in 1..=n {
                for sum in 1..=(n * (n + 1) / 2) as u32 {
                    for must in [None, Some(3)] {
                        let want: Vec<Vec<usize>> = (0u32..1 << n)
                            .filter(|&m| m.count_ones() as usize == k)
                            .filter(|&m| digits(m).sum::<usize>() as u32 == sum)
                            .filter(|&m| must.map_or(true, |d| m >> (d - 1) & 1 == 1))
                            .map(|m| digits(m).collect())
                            .collect();
                        let mut got = sets(n, k, sum, must.as_slice());
                        got.sort_by_key(|s| s.iter().map(|d| 1u32 << (d - 1)).sum::<u32>());
                        assert_eq!(got, want, "{n} {k} {sum} {must:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn digit_set_masks_stop_at_the_cap() {
        let mut out = Vec::new();
        assert!(digit_set_masks(9, 3, 15, 100, &mut out));
        assert_eq!(out.len(), 8);
        for m in &out {
            let s: u32 = (0..9).filter(|b| m >> b & 1 == 1).map(|b| b + 1).sum();
            assert_eq!((m.count_ones(), s), (3, 15));
        }
        out.clear();
        assert!(digit_set_masks(64, 1, 64, 1, &mut out));
        assert_eq!(out, [1 << 63]);
        out.clear();
        assert!(!digit_set_masks(16, 5, 40, 3, &mut out));
        assert_eq!(out.len(), 3);
    }

    #[test]
    fn completable_bounds_the_rest() {
        let free = || [1u32, 2, 5, 9].into_iter();
        assert!(completable(0, 0, free()));
        assert!(!completable(1, 0, free()));
        assert!(completable(3, 2, free()));
        assert!(completable(14, 2, free()));
        assert!(!completable(2, 2, free()));
        assert!(!completable(15, 2, free()));
        assert!(!completable(17, 5, free()));
    }

    #[test]
    fn bad_cages_are_refused_naming_the_cage_and_cell() {
        let e = CageSet::new(4, vec![(vec![], 3)]).unwrap_err();
        assert_eq!(e, CageError::Empty { cage: 1 });
        let e = CageSet::new(4, vec![(vec![0, 16], 3)]).unwrap_err();
        assert!(matches!(
            e,
            CageError::OutsideGrid {
                cage: 1,
                cell: 16,
                ..
            }
        ));
        let e = CageSet::new(4, vec![(vec![0, 1], 3), (vec![1, 2], 3)]).unwrap_err();
        assert_eq!(e.to_string(), "cell r1c2 lies in cage 1 and in cage 2");
        let e = CageSet::new(4, vec![(vec![0, 5], 3)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cage 1 is not connected: cell r2c2 does not touch the rest"
        );
        let e = CageSet::new(4, vec![(vec![0, 1], 8)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cage 1 has sum 8, which 2 distinct digits of 1..=4 cannot reach (they sum to 3..=7)"
        );
        let e = CageSet::new(2, vec![(vec![0, 1, 2], 3)]).unwrap_err();
        assert!(matches!(e, CageError::TooManyCells { cells: 3, .. }));
    }

    #[test]
    fn broken_cages_are_found() {
        let set = CageSet::new(4, vec![(vec![0, 1], 3), (vec![2, 3, 7], 9)]).unwrap();
        assert_eq!(set.cage_of(7), Some(1));
        assert_eq!(set.cage_of(4), None);
        let mut grid = vec![0u16; 16];
        assert_eq!(set.first_broken(&grid), None);
        grid[0] = 2;
        assert_eq!(set.first_broken(&grid), None);
        grid[1] = 2;
        assert_eq!(set.first_broken(&grid), Some((0, CageBreak::Repeated(2))));
        grid[1] = 1;
        assert_eq!(set.first_broken(&grid), None);
        grid[2] = 4;
        grid[3] = 3;
        assert_eq!(set.first_broken(&grid), None);
        grid[7] = 1;
        assert_eq!(set.first_broken(&grid), Some((1, CageBreak::Sum(8))));
        grid[7] = 2;
        assert_eq!(set.first_broken(&grid), None);
        grid[1] = 4;
        assert_eq!(set.first_broken(&grid), Some((0, CageBreak::Sum(6))));
    }
}
