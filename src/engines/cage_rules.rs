//! Cage reasoning on a candidate board (killer sudoku), shared by `human` and `binary`.
//!
//! Neither engine's source knows cages: this is an extension of their propagation, run beside
//! the singles. It works on *sum rules*: a set of cells whose digits add up to a known sum,
//! either pairwise distinct or not.
//!
//! - **Cages.** Each cage is a distinct sum rule (its cells, its sum).
//! - **Innies and outies** (the "rule of 45", e.g. the killer tutorials of janko.at and
//!   sudokuwiki.org, "Killer Sudoku: innies and outies"). A *region* is a union of disjoint
//!   houses: one to `N` consecutive rows, one to `N` consecutive columns, one house of any
//!   other kind (box, jigsaw region, diagonal), and with rectangular boxes two or more
//!   consecutive boxes of one band or one stack, short of the whole band or stack (a run of
//!   rows or columns). Above side [`RUN_SIDE_MAX`] only single houses are regions. Its
//!   digits add up to `houses x N(N+1)/2`.
//!   The cages wholly inside it account for their sums; the rest of the region (the
//!   *innies*: cells of cages that cross its border, and cells in no cage) adds up to what is
//!   left. When every innie lies in a cage, the cells of those crossing cages outside the
//!   region (the *outies*) add up to the crossing cages' sums minus the innies' sum. A
//!   remainder of one cell fixes it; a remainder of two or three cells that pairwise share a
//!   house or a cage is a distinct sum rule like a cage; two cells that need not differ are
//!   a plain sum rule. Larger remainders are not kept. The regions and rules are computed
//!   once per puzzle, from the cages alone (no digit is needed).
//!
//! # The propagation step
//!
//! For a distinct rule with placed digits `P` (a repeated digit is a contradiction), empty
//! cells `E` and remainder `s` = sum minus the digits of `P`, a *feasible combination* is a
//! set of `|E|` digits, none in `P`, adding up to `s`, each in the union of the candidates of
//! `E`, such that every cell of `E` has a candidate in it. Then:
//!
//! - no feasible combination: contradiction (this includes a full rule whose digits do not
//!   add up to its sum);
//! - every cell of `E` keeps only the candidates that lie in some feasible combination (so it
//!   also loses the digits of `P`);
//! - a digit in every feasible combination must go in one cell of `E`: with one such cell
//!   left it is placed there (a *cage single*), with none it is a contradiction, and when all
//!   such cells share a house it is removed from the house's other cells.
//!
//! A plain (not distinct) rule of one or two empty cells keeps for each cell the digits `d`
//! for which the other cell has `s - d`.
//!
//! Combinations are enumerated over the digit set, smallest first, pruned by the least and
//! greatest sums the digits left can still make. On large grids a rule can have very many
//! combinations: past [`ENUM_BUDGET`] steps the enumeration gives up and the rule restricts
//! nothing at that pass (the check of full rules and the search stay exact).

use super::bits::Bits;
use super::candidates::{Board, Meter, Net, Queue, Step};
use super::Search;
use crate::puzzle::{Geometry, HouseKind, Puzzle};
use std::collections::HashSet;

/// Steps one enumeration of combinations may take before it gives up (see the module doc).
pub(crate) const ENUM_BUDGET: u32 = 1 << 16;

/// Largest remainder (innies or outies) kept as a sum rule.
const REMAINDER_MAX: usize = 3;

/// Largest side on which runs of rows, columns and boxes are regions too: their cells add up
/// to about `N^4 / 3`, against `3 N^2` for the single houses (always regions).
const RUN_SIDE_MAX: usize = 36;

/// Where a sum rule comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    Cage,
    Remainder,
}

/// Cells whose digits add up to `sum`, pairwise distinct or not.
#[derive(Clone, Debug)]
struct SumRule {
    cells: Vec<u32>,
    sum: u32,
    distinct: bool,
    origin: Origin,
}

/// What the cage step did, for the engines' counters.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CageCounts {
    /// Candidates removed by cage rules (combinations and the house of a required digit).
    pub cage_removals: u64,
    /// Candidates removed by innie/outie rules.
    pub remainder_removals: u64,
    /// Cells filled because a digit every combination of a rule needs had one place left.
    pub cage_singles: u64,
}

/// Outcome of one pass of [`CageRules::pass`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pass {
    /// Nothing changed.
    Stable,
    /// Some candidate was removed or some cell filled.
    Changed,
    /// A rule has no feasible combination.
    Contradiction,
}

/// The union and the intersection of the feasible combinations of a distinct rule, or why
/// there is none to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fit<B> {
    /// No feasible combination.
    None,
    /// `union`: digits of some feasible combination; `must`: digits of all of them.
    Some { union: B, must: B },
    /// The enumeration went past its budget.
    Unknown,
}

/// Feasible combinations of `cells.len()` distinct digits taken from `avail`, adding up to
/// `sum` (digit `d` is bit `d - 1`), each meeting every mask of `cells`. `budget` is
/// decremented per step.
pub(crate) fn fit<B: Bits>(avail: B, sum: u32, cells: &[B], budget: &mut u32) -> Fit<B> {
    let digits: Vec<u32> = avail.iter().map(|d| d as u32 + 1).collect();
    let k = cells.len();
    if k == 0 {
        return if sum == 0 {
            Fit::Some {
                union: B::EMPTY,
                must: B::EMPTY,
            }
        } else {
            Fit::None
        };
    }
    // prefix[i] = digits[0] + ... + digits[i - 1].
    let mut prefix = Vec::with_capacity(digits.len() + 1);
    prefix.push(0u32);
    for &d in &digits {
        prefix.push(prefix.last().unwrap() + d);
    }
    let mut walk = Walk {
        digits: &digits,
        prefix: &prefix,
        cells,
        budget,
        union: B::EMPTY,
        must: B::EMPTY,
        found: false,
        over: false,
    };
    walk.go(0, k, sum, B::EMPTY);
    if walk.over {
        Fit::Unknown
    } else if walk.found {
        Fit::Some {
            union: walk.union,
            must: walk.must,
        }
    } else {
        Fit::None
    }
}

struct Walk<'a, B> {
    digits: &'a [u32],
    prefix: &'a [u32],
    cells: &'a [B],
    budget: &'a mut u32,
    union: B,
    must: B,
    found: bool,
    over: bool,
}

impl<B: Bits> Walk<'_, B> {
    /// Chooses `left` more digits from `digits[i..]` adding up to `rest`.
    fn go(&mut self, i: usize, left: usize, rest: u32, chosen: B) {
        if self.over {
            return;
        }
        if left == 0 {
            if rest == 0 && self.cells.iter().all(|m| !m.and(chosen).is_empty()) {
                self.must = if self.found {
                    self.must.and(chosen)
                } else {
                    chosen
                };
                self.union = self.union.or(chosen);
                self.found = true;
            }
            return;
        }
        let len = self.digits.len();
        if len - i < left {
            return;
        }
        // The `left` smallest and largest digits still available bound the sum.
        let least = self.prefix[i + left] - self.prefix[i];
        let most = self.prefix[len] - self.prefix[len - left];
        if rest < least || rest > most {
            return;
        }
        if *self.budget == 0 {
            self.over = true;
            return;
        }
        *self.budget -= 1;
        let d = self.digits[i];
        if d <= rest {
            self.go(i + 1, left - 1, rest - d, chosen.or(B::bit(d as usize - 1)));
        }
        self.go(i + 1, left, rest, chosen);
    }
}

/// The sum rules of one puzzle: its cages, then the innie/outie remainders.
#[derive(Clone, Debug, Default)]
pub(crate) struct CageRules {
    rules: Vec<SumRule>,
    /// Cells of all rules (the work of one pass, for the clock).
    cells: usize,
    /// Whether the step on digits every combination needs runs.
    required: bool,
    /// The cages inside some region add up to more than the region (or the crossing cages
    /// to less than its innies): the puzzle has no solution.
    impossible: bool,
}

impl CageRules {
    /// The rules of `puzzle` (none without cages). With `full`, the innie/outie rules and
    /// the step on required digits too (`human`); without, the cages' combinations alone
    /// restrict candidates (`binary`).
    pub fn new(puzzle: &Puzzle, full: bool) -> Self {
        let Some(set) = puzzle.cage_set() else {
            return CageRules::default();
        };
        let geo = puzzle.geometry();
        let mut rules: Vec<SumRule> = set
            .cages()
            .iter()
            .map(|c| SumRule {
                cells: c.cells().to_vec(),
                sum: c.sum(),
                distinct: true,
                origin: Origin::Cage,
            })
            .collect();
        let mut seen: HashSet<Vec<u32>> = rules.iter().map(|r| r.cells.clone()).collect();
        let n = geo.n();
        let house_sum = (n * (n + 1) / 2) as u32;
        let cages = set.cages();
        let mut impossible = false;
        let mut inside = vec![false; geo.cells()];
        let mut count_in = vec![0usize; cages.len()];
        // Cages with a cell in the region at hand.
        let mut touched: Vec<usize> = Vec::new();
        let regions = if full { regions(geo) } else { Vec::new() };
        for (houses, region) in regions {
            for &k in &touched {
                count_in[k] = 0;
            }
            touched.clear();
            for &c in &region {
                inside[c as usize] = true;
                if let Some(k) = set.cage_of(c as usize) {
                    if count_in[k] == 0 {
                        touched.push(k);
                    }
                    count_in[k] += 1;
                }
            }
            let mut left = houses as i64 * house_sum as i64;
            let mut innies = Vec::new();
            let mut uncaged = false;
            let mut crossing_sum = 0i64;
            for &k in &touched {
                if count_in[k] == cages[k].len() {
                    left -= cages[k].sum() as i64;
                } else {
                    crossing_sum += cages[k].sum() as i64;
                }
            }
            for &c in &region {
                match set.cage_of(c as usize) {
                    Some(k) if count_in[k] == cages[k].len() => {}
                    Some(_) => innies.push(c),
                    None => {
                        uncaged = true;
                        innies.push(c);
                    }
                }
            }
            let mut candidates = vec![(innies, left)];
            if !uncaged {
                let outies: Vec<u32> = touched
                    .iter()
                    .filter(|&&k| count_in[k] < cages[k].len())
                    .flat_map(|&k| cages[k].cells().iter().copied())
                    .filter(|&c| !inside[c as usize])
                    .collect();
                // crossing cages = innies + outies.
                candidates.push((outies, crossing_sum - left));
            }
            for (mut cells, sum) in candidates {
                if sum < 0 || (cells.is_empty() && sum != 0) {
                    impossible = true;
                    continue;
                }
                let sum = sum as u32;
                if cells.is_empty() || cells.len() > REMAINDER_MAX {
                    continue;
                }
                cells.sort_unstable();
                let distinct = cells.iter().enumerate().all(|(i, &a)| {
                    cells[i + 1..]
                        .iter()
                        .all(|&b| must_differ(geo, puzzle, a as usize, b as usize))
                });
                if !distinct && cells.len() > 2 {
                    continue;
                }
                if seen.insert(cells.clone()) {
                    rules.push(SumRule {
                        cells,
                        sum,
                        distinct,
                        origin: Origin::Remainder,
                    });
                }
            }
            for &c in &region {
                inside[c as usize] = false;
            }
        }
        let cells = rules.iter().map(|r| r.cells.len()).sum();
        CageRules {
            rules,
            cells,
            impossible,
            required: full,
        }
    }

    /// Number of innie/outie rules kept.
    pub fn remainders(&self) -> usize {
        self.rules
            .iter()
            .filter(|r| r.origin == Origin::Remainder)
            .count()
    }

    /// The singles of [`Board::fill_singles`] (naked, and hidden when `hidden` is given) and
    /// passes of the rules, until a pass changes nothing, a contradiction is found or a limit
    /// stops the search. A complete board is passed through the rules too: that pass checks
    /// every cage's digits and sum.
    #[allow(clippy::too_many_arguments)]
    pub fn propagate<B: Bits>(
        &self,
        board: &mut Board<B>,
        net: &Net<'_>,
        queue: &mut Queue,
        naked: &mut u64,
        mut hidden: Option<&mut u64>,
        counts: &mut CageCounts,
        meter: &mut Meter,
        search: &mut Search<'_>,
    ) -> Step {
        loop {
            let step = board.fill_singles(net, queue, naked, hidden.as_deref_mut(), meter, search);
            if step != Step::Ok || self.rules.is_empty() {
                return step;
            }
            match self.pass(board, net, queue, counts) {
                Pass::Contradiction => return Step::Contradiction,
                Pass::Stable => return Step::Ok,
                Pass::Changed => {}
            }
            if !meter.charge(self.cells, search) {
                return Step::Stop;
            }
        }
    }

    /// Applies every rule once, in order (cages, then remainders), each on the board as the
    /// previous ones left it. Cells left with one candidate are queued for the naked singles.
    pub fn pass<B: Bits>(
        &self,
        board: &mut Board<B>,
        net: &Net<'_>,
        queue: &mut Queue,
        counts: &mut CageCounts,
    ) -> Pass {
        if self.impossible {
            return Pass::Contradiction;
        }
        let mut changed = false;
        let mut masks: Vec<B> = Vec::new();
        let mut empties: Vec<u32> = Vec::new();
        for rule in &self.rules {
            let before = *counts;
            let ok = if rule.distinct {
                let scratch = (&mut masks, &mut empties);
                apply_distinct(rule, self.required, board, net, queue, counts, scratch)
            } else {
                apply_plain(rule, board, queue, counts)
            };
            if !ok {
                return Pass::Contradiction;
            }
            let removed = counts.cage_removals + counts.remainder_removals + counts.cage_singles;
            if removed != before.cage_removals + before.remainder_removals + before.cage_singles {
                changed = true;
            }
        }
        if changed {
            Pass::Changed
        } else {
            Pass::Stable
        }
    }
}

/// Whether two cells must hold different digits: they share a house or a cage.
fn must_differ(geo: &Geometry, puzzle: &Puzzle, a: usize, b: usize) -> bool {
    let shared = geo
        .houses_of(a)
        .iter()
        .any(|h| geo.houses_of(b).contains(h));
    let set = puzzle.cage_set();
    shared || set.is_some_and(|s| s.cage_of(a).is_some() && s.cage_of(a) == s.cage_of(b))
}

/// The regions of the innie/outie rules, each with the number of houses it is the union of.
fn regions(geo: &Geometry) -> Vec<(usize, Vec<u32>)> {
    let n = geo.n();
    let mut rows: Vec<Option<&[u32]>> = vec![None; n];
    let mut cols: Vec<Option<&[u32]>> = vec![None; n];
    let mut boxes: Vec<Option<&[u32]>> = vec![None; n];
    let mut out: Vec<(usize, Vec<u32>)> = Vec::new();
    for h in 0..geo.house_count() {
        match geo.house_kind(h) {
            HouseKind::Row(i) => rows[i] = Some(geo.house(h)),
            HouseKind::Column(i) => cols[i] = Some(geo.house(h)),
            HouseKind::Box(i) => {
                boxes[i] = Some(geo.house(h));
                out.push((1, geo.house(h).to_vec()));
            }
            HouseKind::Region(_)
            | HouseKind::Diagonal
            | HouseKind::AntiDiagonal
            | HouseKind::Window(_)
            | HouseKind::GridRow { .. }
            | HouseKind::GridColumn { .. }
            | HouseKind::GridBox { .. } => out.push((1, geo.house(h).to_vec())),
        }
    }
    // Runs of `len` consecutive lines (rows or columns, in index order); single lines only
    // above `RUN_SIDE_MAX`.
    let longest = if n <= RUN_SIDE_MAX { n } else { 1 };
    let runs = |lines: &[Option<&[u32]>], out: &mut Vec<(usize, Vec<u32>)>| {
        if lines.iter().any(Option::is_none) {
            return;
        }
        for len in 1..=longest {
            for start in 0..=lines.len() - len {
                let cells = lines[start..start + len]
                    .iter()
                    .flat_map(|l| l.unwrap().iter().copied())
                    .collect();
                out.push((len, cells));
            }
        }
    };
    runs(&rows, &mut out);
    runs(&cols, &mut out);
    // Consecutive boxes of one band (left to right) or one stack (top to bottom).
    let boxed = boxes.iter().all(Option::is_some);
    if let (Some((r, c)), true) = (geo.box_shape(), boxed && n <= RUN_SIDE_MAX) {
        let per_band = n / c;
        let per_stack = n / r;
        let index = |band: usize, stack: usize| band * per_band + stack;
        let mut lines: Vec<Vec<usize>> = Vec::new();
        for band in 0..per_stack {
            lines.push((0..per_band).map(|s| index(band, s)).collect());
        }
        for stack in 0..per_band {
            lines.push((0..per_stack).map(|b| index(b, stack)).collect());
        }
        for line in lines {
            for len in 2..line.len() {
                for start in 0..=line.len() - len {
                    let cells = line[start..start + len]
                        .iter()
                        .flat_map(|&b| boxes[b].unwrap().iter().copied())
                        .collect();
                    out.push((len, cells));
                }
            }
        }
    }
    out
}

/// A distinct rule: combinations, then the digits every combination needs.
fn apply_distinct<B: Bits>(
    rule: &SumRule,
    required: bool,
    board: &mut Board<B>,
    net: &Net<'_>,
    queue: &mut Queue,
    counts: &mut CageCounts,
    (masks, empties): (&mut Vec<B>, &mut Vec<u32>),
) -> bool {
    let mut placed = B::EMPTY;
    let mut total = 0u32;
    masks.clear();
    empties.clear();
    for &c in &rule.cells {
        let d = board.grid[c as usize];
        if d == 0 {
            masks.push(board.cand[c as usize]);
            empties.push(c);
        } else {
            if placed.contains(d as usize - 1) {
                return false;
            }
            placed.insert(d as usize - 1);
            total += d as u32;
        }
    }
    if total > rule.sum {
        return false;
    }
    if empties.is_empty() {
        return total == rule.sum;
    }
    let avail = masks.iter().fold(B::EMPTY, |a, &m| a.or(m)).and_not(placed);
    let mut budget = ENUM_BUDGET;
    let (union, must) = match fit(avail, rule.sum - total, masks, &mut budget) {
        Fit::None => return false,
        Fit::Unknown => return true,
        Fit::Some { union, must } => (union, must),
    };
    let removals = match rule.origin {
        Origin::Cage => &mut counts.cage_removals,
        Origin::Remainder => &mut counts.remainder_removals,
    };
    for &c in empties.iter() {
        match board.restrict(c as usize, union, queue) {
            Some(k) => *removals += k as u64,
            None => return false,
        }
    }
    if !required {
        return true;
    }
    for d in must.iter() {
        // Empty cells of the rule that can still take `d` (a cell filled by a cage single
        // of this loop has no candidate left).
        let mut holders = empties
            .iter()
            .copied()
            .filter(|&c| board.grid[c as usize] == 0 && board.cand[c as usize].contains(d));
        let Some(first) = holders.next() else {
            return false;
        };
        let mut common: Vec<u32> = net.geo.houses_of(first as usize).to_vec();
        let mut one = true;
        for c in holders {
            one = false;
            let hs = net.geo.houses_of(c as usize);
            common.retain(|h| hs.contains(h));
        }
        if one {
            counts.cage_singles += 1;
            if !board.place(net, first as usize, d, queue) {
                return false;
            }
            continue;
        }
        for h in common {
            for &p in net.geo.house(h as usize) {
                let p = p as usize;
                if board.grid[p] != 0 || !board.cand[p].contains(d) || empties.contains(&(p as u32))
                {
                    continue;
                }
                let mut keep = board.cand[p];
                keep.remove(d);
                match board.restrict(p, keep, queue) {
                    Some(k) => *removals += k as u64,
                    None => return false,
                }
            }
        }
    }
    true
}

/// A rule whose cells need not differ (two cells at most): each empty cell keeps the digits
/// the other can complete.
fn apply_plain<B: Bits>(
    rule: &SumRule,
    board: &mut Board<B>,
    queue: &mut Queue,
    counts: &mut CageCounts,
) -> bool {
    let mut total = 0u32;
    let mut empties = [0usize; 2];
    let mut k = 0;
    for &c in &rule.cells {
        let d = board.grid[c as usize];
        if d == 0 {
            empties[k] = c as usize;
            k += 1;
        } else {
            total += d as u32;
        }
    }
    if total > rule.sum {
        return false;
    }
    let rest = rule.sum - total;
    let digit = |v: u32| -> Option<usize> { (v >= 1).then(|| v as usize - 1) };
    match k {
        0 => rest == 0,
        1 => {
            let c = empties[0];
            let keep = match digit(rest) {
                Some(d) if d < B::CAPACITY => B::bit(d),
                _ => B::EMPTY,
            };
            match board.restrict(c, keep, queue) {
                Some(r) => {
                    counts.remainder_removals += r as u64;
                    true
                }
                None => false,
            }
        }
        _ => {
            for (a, b) in [(empties[0], empties[1]), (empties[1], empties[0])] {
                let other = board.cand[b];
                let mut keep = B::EMPTY;
                for d in board.cand[a].iter() {
                    let need = rest as i64 - d as i64 - 1;
                    if need >= 1 && other.contains(need as usize - 1) {
                        keep.insert(d);
                    }
                }
                match board.restrict(a, keep, queue) {
                    Some(r) => counts.remainder_removals += r as u64,
                    None => return false,
                }
            }
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Geometry;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::sync::Arc;

    /// Every subset of `1..=n`, filtered by the definition of a feasible combination.
    fn brute(n: usize, avail: u16, sum: u32, cells: &[u16]) -> Fit<u16> {
        let mut union = 0u16;
        let mut must = u16::MAX;
        let mut found = false;
        for s in 0u32..(1 << n) {
            let s = s as u16;
            let digits_sum: u32 = (0..n)
                .filter(|&d| s >> d & 1 == 1)
                .map(|d| d as u32 + 1)
                .sum();
            if s & !avail == 0
                && s.count_ones() as usize == cells.len()
                && digits_sum == sum
                && cells.iter().all(|&m| m & s != 0)
            {
                union |= s;
                must &= s;
                found = true;
            }
        }
        if found {
            Fit::Some { union, must }
        } else {
            Fit::None
        }
    }

    #[test]
    fn fit_matches_brute_force() {
        let mut rng = ChaCha8Rng::seed_from_u64(45);
        let mut some = 0;
        for _ in 0..20_000 {
            let n = rng.gen_range(1..=9usize);
            let k = rng.gen_range(0..=n);
            let full = (1u16 << n) - 1;
            let cells: Vec<u16> = (0..k).map(|_| rng.gen::<u16>() & full).collect();
            let avail = cells.iter().fold(0, |a, m| a | m) & (rng.gen::<u16>() | rng.gen::<u16>());
            let sum = rng.gen_range(0..=(n * (n + 1) / 2) as u32);
            let mut budget = ENUM_BUDGET;
            let got = fit(avail, sum, &cells, &mut budget);
            assert_eq!(
                got,
                brute(n, avail, sum, &cells),
                "n {n} avail {avail:b} sum {sum} cells {cells:?}"
            );
            some += matches!(got, Fit::Some { .. }) as usize;
        }
        // The random cases include many with a combination.
        assert!(some > 1000, "{some}");
    }

    #[test]
    fn known_combinations() {
        let mut budget = ENUM_BUDGET;
        // Two cells summing to 3 on 1..=9: {1, 2}, both required.
        let all = u16::full(9);
        assert_eq!(
            fit(all, 3, &[all, all], &mut budget),
            Fit::Some {
                union: 0b11,
                must: 0b11
            }
        );
        // Three cells summing to 23: {6, 8, 9} only.
        let f = fit(all, 23, &[all, all, all], &mut budget);
        assert_eq!(
            f,
            Fit::Some {
                union: 0b1_1010_0000,
                must: 0b1_1010_0000
            }
        );
        // 2 cells, 10: {1,9} {2,8} {3,7} {4,6}; with a cell limited to {1, 2}: {1,9} {2,8}.
        let f = fit(all, 10, &[0b11, all], &mut budget);
        assert_eq!(
            f,
            Fit::Some {
                union: 0b1_1000_0011,
                must: 0
            }
        );
        // A cell with no digit of any combination.
        assert_eq!(fit(all, 3, &[0b100, all], &mut budget), Fit::None);
    }

    #[test]
    fn the_budget_is_honoured() {
        // 60 cells on 1..=120 summing to the middle: very many combinations.
        type B = u128;
        let n = 120;
        let cells = vec![B::full(n); 60];
        let mut budget = 1000;
        assert_eq!(fit(B::full(n), 3630, &cells, &mut budget), Fit::Unknown);
        assert_eq!(budget, 0);
    }

    /// Two cages covering row 1 but one cell, whose digit is then fixed by an innie.
    #[test]
    fn innies_of_a_row_make_a_rule() {
        let geo = Arc::new(Geometry::square(4).unwrap());
        // Row 1: cells 0, 1 (sum 3) and 2 with 6 below it (cage {2, 6}, sum 7); row sum 10.
        let p = Puzzle::empty(geo)
            .with_cages(vec![(vec![0, 1], 3), (vec![2, 6], 7)])
            .unwrap();
        let rules = CageRules::new(&p, true);
        let innie = rules
            .rules
            .iter()
            .find(|r| r.origin == Origin::Remainder && r.cells == vec![2, 3])
            .expect("the innies of row 1");
        assert_eq!(innie.sum, 7);
        assert!(innie.distinct);
        assert!(rules.remainders() >= 1);
    }
}
