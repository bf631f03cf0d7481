//! Cages (killer sudoku) as one constraint each, all-different plus sum, filtered to
//! generalised arc consistency by enumeration of the cage's digit sets.
//!
//! A cage of `k` cells with sum `s` holds one of the `k`-element sets of digits that add up
//! to `s` (its *combinations*, listed once per puzzle). A value `v` of a cell belongs to a
//! solution of the cage constraint exactly when some combination `S` holds `v` and the
//! all-different constraint on the cage's cells, each domain cut down to `S`, has a solution
//! with the cell at `v`. So the filter runs Régin's all-different filter
//! ([`super::alldiff`]) once per combination that meets every cell's domain, and keeps the
//! union of the supports. Filtering a sum of distinct values to domain consistency is
//! NP-hard in general (it contains subset sum), so no polynomial filter does the same; cages
//! have at most `N` cells and few combinations, so the enumeration is cheap on the grids
//! killers are played on. It is bounded all the same:
//! [`combinations`] stops at a cap and the engine answers `memory-limit`.
//!
//! Masks are one 64-bit word: the engine takes cages on sides up to 64.

/// The sets of `k` distinct digits of `1..=n` adding up to `sum`, as masks (bit `d - 1` for
/// digit `d`), appended to `out`; `false` when they would pass `cap` entries in `out`.
pub(super) fn combinations(n: usize, k: usize, sum: u32, cap: usize, out: &mut Vec<u64>) -> bool {
    fn go(
        next: usize,
        n: usize,
        left: usize,
        need: u32,
        mask: u64,
        cap: usize,
        out: &mut Vec<u64>,
    ) -> bool {
        if left == 0 {
            if need == 0 {
                if out.len() >= cap {
                    return false;
                }
                out.push(mask);
            }
            return true;
        }
        for d in next..=n {
            let d32 = d as u32;
            // The least the other `left - 1` digits add up to is d+1 + ... + d+left-1.
            let l = (left - 1) as u32;
            let least = d32 * (l + 1) + l * (l + 1) / 2;
            if least > need {
                break;
            }
            // The most: n + (n-1) + ... over `left - 1` digits, plus d.
            let most = d32 + l * (2 * n as u32 - l + 1) / 2;
            if most < need {
                continue;
            }
            if !go(
                d + 1,
                n,
                left - 1,
                need - d32,
                mask | 1 << (d - 1),
                cap,
                out,
            ) {
                return false;
            }
        }
        true
    }
    go(1, n, k, sum, 0, cap, out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_of_small_cages() {
        let mut out = Vec::new();
        assert!(combinations(9, 2, 3, 100, &mut out));
        assert_eq!(out, vec![0b11]);
        out.clear();
        assert!(combinations(9, 3, 15, 100, &mut out));
        // 1+5+9 1+6+8 2+4+9 2+5+8 2+6+7 3+4+8 3+5+7 4+5+6
        assert_eq!(out.len(), 8);
        for m in &out {
            let s: u32 = (0..9).filter(|b| m >> b & 1 == 1).map(|b| b + 1).sum();
            assert_eq!((m.count_ones(), s), (3, 15));
        }
        out.clear();
        assert!(combinations(9, 9, 45, 100, &mut out));
        assert_eq!(out, vec![0x1ff]);
        out.clear();
        assert!(combinations(9, 2, 18, 100, &mut out));
        assert!(out.is_empty());
        out.clear();
        assert!(!combinations(16, 5, 40, 3, &mut out));
        assert_eq!(out.len(), 3);
    }
}
