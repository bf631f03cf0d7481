//! Naked and hidden singles to a fixpoint, before encoding: the propagation-first reduction
//! (`encoding = reduced`).
//!
//! Sources: the Go solver rkkautsar/sudoku-solver (`BasicSolve`, then "compressed literals":
//! only the candidates that basic solving leaves get a SAT variable), and G. Kwon and H. Jain,
//! "Optimized CNF encoding for Sudoku puzzles" (LPAR 2006) for removing what the givens
//! decide before encoding. Here the same house list as every other encoding is used, so it
//! works for boxed, jigsaw and X grids alike.
//!
//! The rules, applied until nothing changes:
//! - naked single: a cell with one candidate gets that digit;
//! - hidden single: a digit with one candidate cell in a house goes there;
//! - a placement removes its digit from the cell's peers (every house of the cell) and every
//!   other digit from the cell.
//!
//! A cell left without a candidate, or a (house, digit) not yet placed and without a
//! candidate cell, is a clash: the puzzle has no solution and the formula is the empty clause,
//! without a solver call.
//!
//! Locked candidates (pointing / claiming) are not done, on purpose: after singles the
//! formulas of the published large instances are already small (the encoding is then a small
//! part of the time), the solver's unit propagation over the house at-least-one clauses does
//! the same reasoning in its first steps, and the Go solver stops at singles too; locked
//! candidates would need a box-line intersection table that jigsaw and X houses make
//! irregular.
//!
//! Counts are kept per cell (candidates left) and per (house, digit) (candidate cells left),
//! so each rule fires from a counter reaching 1, and the whole run is linear in the
//! candidates removed times the houses per cell, plus one scan of a house per placement.

use super::backend::{Budget, Interrupt};
use crate::puzzle::Geometry;

/// Work between two looks at the budget.
const CHECK_EVERY: u64 = 1 << 20;

#[derive(Clone, Copy, Debug)]
enum Item {
    Naked(u32),
    Hidden(u32, u16),
}

/// Working memory of [`propagate`], kept across puzzles.
#[derive(Default)]
pub(crate) struct SinglesWork {
    /// Candidates left per cell.
    cell_cnt: Vec<u32>,
    /// `house_cnt[h * n + d]`: candidate cells of digit `d` (0-based) left in house `h`.
    house_cnt: Vec<u32>,
    queue: Vec<Item>,
}

/// The candidate table: `words` u64 per cell, bit `d` (0-based digit) set while the digit is
/// a candidate of the cell.
pub(crate) struct Table<'a> {
    pub words: usize,
    pub bits: &'a mut [u64],
    /// `used[h * words ..]`: digits placed in house `h`.
    pub used: &'a mut [u64],
    /// The decided cells (0 = open).
    pub fixed: &'a mut [u16],
}

impl Table<'_> {
    fn has(&self, c: usize, d: usize) -> bool {
        self.bits[c * self.words + d / 64] >> (d % 64) & 1 == 1
    }
    fn clear(&mut self, c: usize, d: usize) {
        self.bits[c * self.words + d / 64] &= !(1u64 << (d % 64));
    }
    fn used(&self, h: usize, d: usize) -> bool {
        self.used[h * self.words + d / 64] >> (d % 64) & 1 == 1
    }
    fn first(&self, c: usize) -> Option<usize> {
        let row = &self.bits[c * self.words..(c + 1) * self.words];
        row.iter()
            .position(|&w| w != 0)
            .map(|i| i * 64 + row[i].trailing_zeros() as usize)
    }
}

struct Run<'a, 'b> {
    g: &'a Geometry,
    n: usize,
    t: &'a mut Table<'b>,
    w: &'a mut SinglesWork,
    budget: &'a Budget,
    work: u64,
    next_check: u64,
}

/// Why propagation stopped early.
pub(crate) enum Stop {
    Clash,
    Interrupted(Interrupt),
}

impl Run<'_, '_> {
    fn tick(&mut self, amount: u64) -> Result<(), Stop> {
        self.work += amount;
        if self.work >= self.next_check {
            self.next_check = self.work + CHECK_EVERY;
            if let Some(why) = self.budget.spent() {
                return Err(Stop::Interrupted(why));
            }
        }
        Ok(())
    }

    /// One candidate cell of `d` fewer in house `h`.
    fn house_lost(&mut self, h: usize, d: usize) -> Result<(), Stop> {
        let k = &mut self.w.house_cnt[h * self.n + d];
        *k -= 1;
        if self.t.used(h, d) {
            return Ok(());
        }
        match *k {
            0 => Err(Stop::Clash),
            1 => {
                self.w.queue.push(Item::Hidden(h as u32, d as u16));
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// Puts digit `d` (0-based) in open cell `c`.
    fn place(&mut self, c: usize, d: usize) -> Result<(), Stop> {
        let (g, n, words) = (self.g, self.n, self.t.words);
        self.t.fixed[c] = d as u16 + 1;
        for &h in g.houses_of(c) {
            self.t.used[h as usize * words + d / 64] |= 1u64 << (d % 64);
        }
        // The cell's candidates leave its houses' counts.
        for wi in 0..words {
            let mut m = std::mem::take(&mut self.t.bits[c * words + wi]);
            while m != 0 {
                let e = wi * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                for &h in g.houses_of(c) {
                    self.house_lost(h as usize, e)?;
                }
            }
        }
        self.w.cell_cnt[c] = 0;
        // The digit leaves the peers.
        for &h in g.houses_of(c) {
            let h = h as usize;
            if self.w.house_cnt[h * n + d] == 0 {
                continue;
            }
            self.tick(n as u64)?;
            for &p in g.house(h) {
                let p = p as usize;
                if self.t.fixed[p] != 0 || !self.t.has(p, d) {
                    continue;
                }
                self.t.clear(p, d);
                self.w.cell_cnt[p] -= 1;
                match self.w.cell_cnt[p] {
                    0 => return Err(Stop::Clash),
                    1 => self.w.queue.push(Item::Naked(p as u32)),
                    _ => {}
                }
                for &h2 in g.houses_of(p) {
                    self.house_lost(h2 as usize, d)?;
                }
                if self.w.house_cnt[h * n + d] == 0 {
                    break;
                }
            }
        }
        Ok(())
    }

    fn run(&mut self) -> Result<(), Stop> {
        let (g, n, words) = (self.g, self.n, self.t.words);
        // Counts, and the singles already there.
        self.w.cell_cnt.clear();
        self.w.cell_cnt.resize(g.cells(), 0);
        self.w.house_cnt.clear();
        self.w.house_cnt.resize(g.house_count() * n, 0);
        self.w.queue.clear();
        for c in 0..g.cells() {
            if self.t.fixed[c] != 0 {
                continue;
            }
            let mut k = 0;
            for wi in 0..words {
                let mut m = self.t.bits[c * words + wi];
                k += m.count_ones();
                while m != 0 {
                    let d = wi * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    for &h in g.houses_of(c) {
                        self.w.house_cnt[h as usize * n + d] += 1;
                    }
                }
            }
            self.tick(k as u64)?;
            self.w.cell_cnt[c] = k;
            match k {
                0 => return Err(Stop::Clash),
                1 => self.w.queue.push(Item::Naked(c as u32)),
                _ => {}
            }
        }
        for h in 0..g.house_count() {
            for d in 0..n {
                if self.t.used(h, d) {
                    continue;
                }
                match self.w.house_cnt[h * n + d] {
                    0 => return Err(Stop::Clash),
                    1 => self.w.queue.push(Item::Hidden(h as u32, d as u16)),
                    _ => {}
                }
            }
        }
        while let Some(item) = self.w.queue.pop() {
            match item {
                Item::Naked(c) => {
                    let c = c as usize;
                    if self.t.fixed[c] != 0 {
                        continue;
                    }
                    let d = self.t.first(c).ok_or(Stop::Clash)?;
                    self.place(c, d)?;
                }
                Item::Hidden(h, d) => {
                    let (h, d) = (h as usize, d as usize);
                    if self.t.used(h, d) {
                        continue;
                    }
                    self.tick(n as u64)?;
                    let c = g
                        .house(h)
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| self.t.fixed[c] == 0 && self.t.has(c, d))
                        .ok_or(Stop::Clash)?;
                    self.place(c, d)?;
                }
            }
        }
        Ok(())
    }
}

/// Applies naked and hidden singles to a fixpoint on `table` (candidates after the givens'
/// elimination, `used` and `fixed` from the givens, no clash among the givens). Returns
/// `Ok(true)` at the fixpoint (every open cell then has at least two candidates and every
/// open (house, digit) at least two cells), `Ok(false)` on a clash, or the interrupt.
pub(crate) fn propagate(
    g: &Geometry,
    table: &mut Table<'_>,
    work: &mut SinglesWork,
    budget: &Budget,
) -> Result<bool, Interrupt> {
    let mut run = Run {
        g,
        n: g.n(),
        t: table,
        w: work,
        budget,
        work: 0,
        next_check: CHECK_EVERY,
    };
    match run.run() {
        Ok(()) => Ok(true),
        Err(Stop::Clash) => Ok(false),
        Err(Stop::Interrupted(why)) => Err(why),
    }
}
