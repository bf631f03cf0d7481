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
//! Optional locked candidates (`locked=true`; the sat engine's default `locked=auto` uses them
//! on grids up to 9x9), after singles: when the candidate cells of digit `d` in house `h` all
//! lie in one other house `h2`, `d` goes in `h2` inside `h`, so no other cell of `h2` can hold
//! it. With boxes this is the human solvers' *pointing* (box to line) and *claiming* (line to
//! box), A. Stuart, *The Logic of Sudoku* (2007), ch. 3; stated over the house list it works
//! for jigsaw regions and diagonals too. It is not unit propagation: it resolves the house's
//! at-least-one clause against the other house's at-most-one clauses, which a CDCL solver
//! only finds by learning. Passes over the open (house, digit) pairs, each followed by
//! singles, repeat until one removes nothing; a pair is skipped when it has more candidate
//! cells than its house shares with any other house.
//! Measured (docs/engines.md, "Locked candidates before encoding"): on 9x9 the default is
//! 1.30x as fast on 17-clue puzzles, 1.18x on top1465 and level on forum-hardest; above 9x9
//! single instances move both ways (search luck) and sets stay within 0.91-1.06x.
//!
//! Optional failed-literal probing (`probe=true`; the sat engine's default `probe=auto` uses it
//! on grids up to 9x9), after singles, to a
//! fixpoint: each candidate `d` of each open cell `c` with at most three candidates is placed
//! on trial and singles run from it; every change is written to a trail and undone
//! afterwards.
//! - A trial that clashes proves that no solution has `d` in `c`: the candidate is removed
//!   for good (failed-literal probing with unit propagation: J. W. Freeman, "Improvements to
//!   propositional satisfiability search algorithms", PhD thesis 1995; for Sudoku, the
//!   "single-level forcing chains" / "Nishio" techniques of human solvers).
//! - The cell dilemma: a placement made by every trial of `c` that does not clash holds in
//!   every solution (each solution puts one of those digits in `c`), so it is made for good
//!   (Stålmarck's dilemma rule, one level deep).
//!
//! Passes over the open cells repeat until one changes nothing; then locked candidates run
//! again when they are on, and probing again if they removed anything. It removes what
//! singles miss and answers many puzzles with no solver call, but each trial costs a singles
//! run. Probing every open cell made 17-clue puzzles 2.0x as fast, forum-hardest 0.70x and
//! rk-81x81 about half as fast; probing the cells with at most three candidates, 2.2x, 0.94x
//! and 0.75x. Measured in docs/engines.md ("Probing before encoding").
//!
//! Counts are kept per cell (candidates left) and per (house, digit) (candidate cells left),
//! so each rule fires from a counter reaching 1, and the whole run is linear in the
//! candidates removed times the houses per cell, plus one scan of a house per placement.

use super::backend::{Deadline, Interrupt};
use super::options::Deductions;
use crate::puzzle::Geometry;

/// Work between two looks at the budget.
const CHECK_EVERY: u64 = 1 << 20;

/// Probing tries the cells with at most this many candidates (see the module doc).
const PROBE_MAX_CANDIDATES: u32 = 3;

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
    /// Old values of what a probe changed, to undo it.
    trail: Vec<(Slot, u32, u64)>,
    /// Probing: `seen[c] = (branch stamp, digit)` of the last branch that placed cell `c`.
    seen: Vec<(u32, u16)>,
    stamp: u32,
    /// Probing: the placements common to the branches of one cell so far.
    common: Vec<(u32, u16)>,
    /// Locked candidates: `meet[h]`, the most cells house `h` shares with another house.
    meet: Vec<u32>,
    /// Locked candidates: cells shared with each house, while `meet` is computed.
    meet_count: Vec<u32>,
    /// Locked candidates: the other houses that hold every candidate cell seen so far.
    shared: Vec<u32>,
    /// When set, every deduction is written here as a DRAT lemma over the canonical variables
    /// `v(cell, d) = cell * N + d` (literals, each lemma ended by 0): placements as units,
    /// removals by locked candidates and failed probes as negative units, and the cell
    /// dilemma as the binary lemmas `(-v(c, e) v(p))` for each candidate `e` of the probed
    /// cell before its placement `p`. Removals that a placement makes in its peers are unit
    /// propagation on the canonical formula and are not written. Each lemma is RUP against
    /// the canonical formula, the givens and the lemmas before it (see [`crate::certify`]).
    pub(crate) proof: Option<Vec<i32>>,
}

/// Which array a trail entry restores.
#[derive(Clone, Copy, Debug)]
enum Slot {
    Bits,
    Used,
    Fixed,
    CellCnt,
    HouseCnt,
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
    budget: &'a Deadline,
    work: u64,
    next_check: u64,
    /// While probing: every change is written to the trail first.
    trailing: bool,
}

/// Why propagation stopped early.
pub(crate) enum Stop {
    Clash,
    Interrupted(Interrupt),
}

impl Run<'_, '_> {
    fn log(&mut self, slot: Slot, i: usize, old: u64) {
        if self.trailing {
            self.w.trail.push((slot, i as u32, old));
        }
    }
    fn set_bits(&mut self, i: usize, v: u64) {
        self.log(Slot::Bits, i, self.t.bits[i]);
        self.t.bits[i] = v;
    }
    /// Writes a lemma to the proof log, if one is kept.
    fn lemma(&mut self, lits: &[i32]) {
        if let Some(log) = &mut self.w.proof {
            log.extend_from_slice(lits);
            log.push(0);
        }
    }

    /// The canonical variable of (cell, 0-based digit).
    fn var(&self, c: usize, d: usize) -> i32 {
        (c * self.n + d + 1) as i32
    }

    fn set_cell_cnt(&mut self, c: usize, v: u32) {
        self.log(Slot::CellCnt, c, self.w.cell_cnt[c] as u64);
        self.w.cell_cnt[c] = v;
    }

    /// Undoes the changes logged since the trail had `mark` entries.
    fn undo(&mut self, mark: usize) {
        while self.w.trail.len() > mark {
            let (slot, i, old) = self.w.trail.pop().expect("above the mark");
            let i = i as usize;
            match slot {
                Slot::Bits => self.t.bits[i] = old,
                Slot::Used => self.t.used[i] = old,
                Slot::Fixed => self.t.fixed[i] = old as u16,
                Slot::CellCnt => self.w.cell_cnt[i] = old as u32,
                Slot::HouseCnt => self.w.house_cnt[i] = old as u32,
            }
        }
    }

    fn tick(&mut self, amount: u64) -> Result<(), Stop> {
        self.work += amount;
        if self.work >= self.next_check {
            self.next_check = self.work + CHECK_EVERY;
            if let Some(why) = self.budget.expired().map(Interrupt::from) {
                return Err(Stop::Interrupted(why));
            }
        }
        Ok(())
    }

    /// One candidate cell of `d` fewer in house `h`.
    fn house_lost(&mut self, h: usize, d: usize) -> Result<(), Stop> {
        let i = h * self.n + d;
        let k = self.w.house_cnt[i];
        self.log(Slot::HouseCnt, i, k as u64);
        self.w.house_cnt[i] = k - 1;
        if self.t.used(h, d) {
            return Ok(());
        }
        match k - 1 {
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
        if !self.trailing {
            self.lemma(&[self.var(c, d)]);
        }
        self.log(Slot::Fixed, c, self.t.fixed[c] as u64);
        self.t.fixed[c] = d as u16 + 1;
        for &h in g.houses_of(c) {
            let i = h as usize * words + d / 64;
            self.log(Slot::Used, i, self.t.used[i]);
            self.t.used[i] |= 1u64 << (d % 64);
        }
        // The cell's candidates leave its houses' counts.
        for wi in 0..words {
            let mut m = self.t.bits[c * words + wi];
            self.set_bits(c * words + wi, 0);
            while m != 0 {
                let e = wi * 64 + m.trailing_zeros() as usize;
                m &= m - 1;
                for &h in g.houses_of(c) {
                    self.house_lost(h as usize, e)?;
                }
            }
        }
        self.set_cell_cnt(c, 0);
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
                self.remove(p, d)?;
                if self.w.house_cnt[h * n + d] == 0 {
                    break;
                }
            }
        }
        Ok(())
    }

    /// Removes candidate `d` (0-based) of open cell `c`, queueing the singles it makes.
    fn remove(&mut self, c: usize, d: usize) -> Result<(), Stop> {
        let i = c * self.t.words + d / 64;
        self.set_bits(i, self.t.bits[i] & !(1u64 << (d % 64)));
        let k = self.w.cell_cnt[c] - 1;
        self.set_cell_cnt(c, k);
        match k {
            0 => return Err(Stop::Clash),
            1 => self.w.queue.push(Item::Naked(c as u32)),
            _ => {}
        }
        for &h in self.g.houses_of(c) {
            self.house_lost(h as usize, d)?;
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
        self.drain()
    }

    /// `meet[h]` for every house (see [`SinglesWork::meet`]).
    fn measure_meets(&mut self) {
        let g = self.g;
        let SinglesWork {
            meet,
            meet_count: count,
            ..
        } = &mut *self.w;
        meet.clear();
        meet.resize(g.house_count(), 0);
        // For each house, the cells it shares with each other house, counted by a scan of
        // its cells (`count[h2]`, back to 0 after each house).
        count.clear();
        count.resize(g.house_count(), 0);
        for (h, m) in meet.iter_mut().enumerate() {
            for &c in g.house(h) {
                for &h2 in g.houses_of(c as usize) {
                    if h2 as usize != h {
                        count[h2 as usize] += 1;
                    }
                }
            }
            for &c in g.house(h) {
                for &h2 in g.houses_of(c as usize) {
                    *m = (*m).max(count[h2 as usize]);
                    count[h2 as usize] = 0;
                }
            }
        }
    }

    /// Locked candidates to a fixpoint (see the module doc). Returns whether anything changed.
    fn locked(&mut self) -> Result<bool, Stop> {
        let mut any = false;
        while self.locked_pass()? {
            any = true;
        }
        Ok(any)
    }

    /// One pass of locked candidates over the open (house, digit) pairs, singles after each
    /// removal. Returns whether it removed anything.
    fn locked_pass(&mut self) -> Result<bool, Stop> {
        let (g, n) = (self.g, self.n);
        let mut changed = false;
        for h in 0..g.house_count() {
            for d in 0..n {
                let k = self.w.house_cnt[h * n + d];
                if self.t.used(h, d) || k < 2 || k > self.w.meet[h] {
                    continue;
                }
                self.tick(n as u64)?;
                // The other houses that hold every candidate cell of `d` in `h`.
                let mut shared = std::mem::take(&mut self.w.shared);
                shared.clear();
                let mut first = true;
                for &c in g.house(h) {
                    let c = c as usize;
                    if self.t.fixed[c] != 0 || !self.t.has(c, d) {
                        continue;
                    }
                    let hs = g.houses_of(c);
                    if first {
                        shared.extend(hs.iter().filter(|&&x| x as usize != h));
                        first = false;
                    } else {
                        shared.retain(|x| hs.contains(x));
                    }
                    if shared.is_empty() {
                        break;
                    }
                }
                for &h2 in &shared {
                    for &p in g.house(h2 as usize) {
                        let p = p as usize;
                        if self.t.fixed[p] == 0
                            && self.t.has(p, d)
                            && !g.houses_of(p).contains(&(h as u32))
                        {
                            changed = true;
                            self.lemma(&[-self.var(p, d)]);
                            self.remove(p, d)?;
                        }
                    }
                }
                self.w.shared = shared;
                self.drain()?;
            }
        }
        Ok(changed)
    }

    /// Failed-literal probing with the cell dilemma, to a fixpoint (see the module doc).
    /// Returns whether anything changed.
    fn probe(&mut self) -> Result<bool, Stop> {
        let (g, n) = (self.g, self.n);
        self.w.seen.clear();
        self.w.seen.resize(g.cells(), (0, 0));
        let mut any = false;
        loop {
            let mut changed = false;
            for c in 0..g.cells() {
                if self.t.fixed[c] != 0 || self.w.cell_cnt[c] > PROBE_MAX_CANDIDATES {
                    continue;
                }
                // The placements every branch that does not clash makes, besides `c` itself.
                let mut branches = 0u32;
                self.w.common.clear();
                for d in 0..n {
                    if self.t.fixed[c] != 0 {
                        break;
                    }
                    if !self.t.has(c, d) {
                        continue;
                    }
                    self.tick(1)?;
                    let mark = self.w.trail.len();
                    self.trailing = true;
                    let r = self.place(c, d).and_then(|()| self.drain());
                    self.w.queue.clear();
                    if r.is_ok() {
                        branches += 1;
                        self.note_branch(c, mark, branches == 1);
                    }
                    self.undo(mark);
                    self.trailing = false;
                    match r {
                        Ok(()) => {}
                        Err(Stop::Clash) => {
                            // No solution has `d` in `c`.
                            changed = true;
                            self.lemma(&[-self.var(c, d)]);
                            self.remove(c, d)?;
                            self.drain()?;
                        }
                        Err(e) => return Err(e),
                    }
                }
                if self.t.fixed[c] != 0 || branches < 2 || self.w.common.is_empty() {
                    continue;
                }
                // Every solution puts one of the branches' digits in `c`, so it makes the
                // common placements. (A branch tried before a later removal ran on fewer
                // facts: its placements are a subset of what it implies now, so the common
                // set can only be too small, never wrong.)
                let common = std::mem::take(&mut self.w.common);
                for &(i, v) in &common {
                    let (i, d) = (i as usize, v as usize - 1);
                    if self.t.fixed[i] == 0 {
                        if self.w.proof.is_some() {
                            // Each candidate of `c` places `(i, d)`: `(-v(c, e) v(i, d))`.
                            let p = self.var(i, d);
                            for e in 0..n {
                                if self.t.has(c, e) {
                                    self.lemma(&[-self.var(c, e), p]);
                                }
                            }
                        }
                        if !self.t.has(i, d) {
                            return Err(Stop::Clash);
                        }
                        changed = true;
                        self.place(i, d)?;
                        self.drain()?;
                    }
                }
                self.w.common = common;
            }
            if !changed {
                return Ok(any);
            }
            any = true;
        }
    }

    /// Records the placements of the branch whose changes start at `mark` on the trail, and
    /// keeps in `common` those that every branch of cell `c` so far made.
    fn note_branch(&mut self, c: usize, mark: usize, first: bool) {
        self.w.stamp += 1;
        let stamp = self.w.stamp;
        let SinglesWork {
            trail,
            seen,
            common,
            ..
        } = &mut *self.w;
        for &(slot, i, _) in &trail[mark..] {
            let i = i as usize;
            if let Slot::Fixed = slot {
                if i != c {
                    seen[i] = (stamp, self.t.fixed[i]);
                    if first {
                        common.push((i as u32, self.t.fixed[i]));
                    }
                }
            }
        }
        if !first {
            common.retain(|&(i, v)| seen[i as usize] == (stamp, v));
        }
    }

    /// Applies the queued singles, and those they make, to the fixpoint.
    fn drain(&mut self) -> Result<(), Stop> {
        let (g, n) = (self.g, self.n);
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
/// elimination, `used` and `fixed` from the givens, no clash among the givens), with locked
/// candidates and probing as `rules` asks. Returns `Ok(true)` at the fixpoint (every open
/// cell then has at least two candidates and every open (house, digit) at least two cells),
/// `Ok(false)` on a clash, or the interrupt.
pub(crate) fn propagate(
    g: &Geometry,
    table: &mut Table<'_>,
    work: &mut SinglesWork,
    budget: &Deadline,
    rules: Deductions,
) -> Result<bool, Interrupt> {
    let mut run = Run {
        g,
        n: g.n(),
        t: table,
        w: work,
        budget,
        work: 0,
        next_check: CHECK_EVERY,
        trailing: false,
    };
    let r = run.run().and_then(|()| {
        if !(rules.locked || rules.probe) || run.t.fixed.iter().all(|&d| d != 0) {
            // Nothing to do, or singles filled the grid.
            return Ok(());
        }
        if rules.locked {
            run.measure_meets();
        }
        // Locked candidates, then probing, until neither changes anything.
        loop {
            if rules.locked {
                run.locked()?;
            }
            if !(rules.probe && run.probe()? && rules.locked) {
                return Ok(());
            }
        }
    });
    match r {
        Ok(()) => Ok(true),
        Err(Stop::Clash) => Ok(false),
        Err(Stop::Interrupted(why)) => Err(why),
    }
}
