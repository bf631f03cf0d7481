//! Unit propagation on a changing clause set, at the top level and under assumptions.
//!
//! The [`Engine`] holds the clause store, the watch lists and the assignment. Its top-level
//! trail (the literals the current clauses imply by unit propagation) is kept from one step
//! to the next, as the proof adds and removes clauses:
//!
//! - a clause added ([`Engine::attach`]) is watched on two literals that are not false when
//!   it has them (else on its latest false ones); a clause that is unit sets its literal at
//!   once (a unit clause whose literal is already true is kept in a list instead: it has no
//!   watches);
//! - a clause removed ([`Engine::detach`]) that is the reason of a top-level literal takes off
//!   the trail that literal and every literal whose reason holds the negation of one taken off
//!   ([`Engine::retract`]); the others stay, in order, with their reasons. A clause that is
//!   unit again can only be one that watched a literal taken off (at a fixpoint, a clause
//!   watching a false literal has its other watched literal true), so the watch lists of those
//!   literals are all that is looked at again, with the list of unit clauses; propagation
//!   then sets back what follows.
//!
//! **Core-first propagation** (Heule, Hunt and Wetzler, "Trimming while checking clausal
//! proofs", FMCAD 2013): in backward checking, propagation first runs to a fixpoint over core
//! clauses only (those already used to justify something), and takes one implication of a
//! non-core clause only when the core clauses imply nothing more, so that the conflicts found
//! use core clauses where they can and fewer lemmas become core.

use super::super::{Deadline, Interrupt};
use super::clauses::{ClauseDb, ALIVE, CORE};
use super::lit::{var, Lit, NONE};
use super::resize::resize_polled;
use super::trail::{Trail, GONE, JUSTIFIED};
use super::watch::{Watch, Watches, BIN};

/// Which watch list entries a scan visits.
const ALL: u8 = 0;
const CORE_ONLY: u8 = 1;
const NON_CORE: u8 = 2;

/// The budget is read every this many units of work (watch entries visited, clauses
/// scanned).
pub(super) const POLL_TICKS: u64 = 1 << 12;

enum Scan {
    /// Every entry visited.
    Done,
    /// A non-core clause set a literal; the scan resumes at this entry.
    Paused(usize),
    Conflict(u32),
}

#[derive(Debug, Default)]
pub(super) struct Engine {
    pub db: ClauseDb,
    pub watches: Watches,
    pub trail: Trail,
    /// A conflict of the current clauses at the top level.
    pub conflict: Option<u32>,
    /// By variable: a unit clause attached while its literal was true by another reason
    /// ([`NONE`] if none); `extra` holds any others.
    backup: Vec<u32>,
    extra: Vec<u32>,
    /// Work done, and when to read the budget next.
    pub ticks: u64,
    next_poll: u64,
    scratch: Vec<u32>,
}

impl Engine {
    /// Empties the trail and the watch lists' bookkeeping for a new check.
    pub fn clear_state(&mut self) {
        self.backup.fill(NONE);
        self.trail.reset();
        self.extra.clear();
        self.conflict = None;
        self.ticks = 0;
        self.next_poll = POLL_TICKS;
    }

    /// Reads the budget when enough work was done since the last time.
    #[inline]
    pub fn poll(&mut self, budget: &Deadline) -> Result<(), Interrupt> {
        if self.ticks >= self.next_poll {
            self.next_poll = self.ticks + POLL_TICKS;
            if let Some(why) = budget.expired().map(Interrupt::from) {
                return Err(why);
            }
        }
        Ok(())
    }

    /// Room for variables `1..=vars`, allocated in pieces between calls of `poll`.
    pub fn grow<E>(
        &mut self,
        vars: usize,
        poll: &mut impl FnMut() -> Result<(), E>,
    ) -> Result<(), E> {
        self.trail.grow(vars, poll)?;
        resize_polled(&mut self.backup, vars + 1, NONE, poll)?;
        self.watches.grow(2 * (vars + 1), poll)
    }

    fn set_conflict(&mut self, id: u32) {
        if self.conflict.is_none() {
            self.conflict = Some(id);
        }
    }

    /// The trail place of the literal that clause `id` is the reason of, if any.
    pub fn implied_by(&self, id: u32) -> Option<usize> {
        self.db.clause(id).iter().find_map(|&l| {
            (self.trail.value(l) == 1 && self.trail.reason[var(l)] == id)
                .then(|| self.trail.pos[var(l)] as usize)
        })
    }

    /// Watches clause `id` in the current assignment (see the module doc) and sets its
    /// literal when it is unit; records a top-level conflict when all its literals are false.
    pub fn attach(&mut self, id: u32) {
        let (s, e) = self.db.range(id);
        let t = &self.trail;
        match e - s {
            0 => self.set_conflict(id),
            1 => {
                let l = self.db.lits[s];
                match t.value(l) {
                    0 => self.trail.assign(l, id),
                    -1 => self.set_conflict(id),
                    // No watches for `retract` to find it by: it keeps them by variable.
                    _ => {
                        let v = var(l);
                        let old = self.backup[v];
                        if old != NONE && self.db.is(old, ALIVE) {
                            self.extra.push(old);
                        }
                        self.backup[v] = id;
                    }
                }
            }
            n => {
                // The two best literals: not false (true first), else the latest set.
                let rank = |l: Lit| match t.value(l) {
                    1 => u64::MAX,
                    0 => u64::MAX - 1,
                    _ => u64::from(t.pos[var(l)]),
                };
                let lits = &mut self.db.lits[s..e];
                for k in 0..2 {
                    let mut best = k;
                    for j in k + 1..n {
                        if rank(lits[j]) > rank(lits[best]) {
                            best = j;
                        }
                    }
                    lits.swap(k, best);
                }
                let (a, b) = (lits[0], lits[1]);
                let cref = if n == 2 { id | BIN } else { id };
                self.watches.push(a, Watch { blocker: b, cref });
                self.watches.push(b, Watch { blocker: a, cref });
                if self.trail.value(b) == -1 {
                    match self.trail.value(a) {
                        -1 => self.set_conflict(id),
                        0 => self.trail.assign(a, id),
                        _ => {}
                    }
                }
            }
        }
    }

    /// Stops watching clause `id`.
    pub fn detach(&mut self, id: u32) {
        let (s, e) = self.db.range(id);
        if e - s >= 2 {
            let (a, b) = (self.db.lits[s], self.db.lits[s + 1]);
            self.watches.remove(a, id);
            self.watches.remove(b, id);
        }
    }

    /// Takes off the trail the literal at place `at` (whose reason is going away) and those
    /// that depend on it, and makes the clauses that watched them right again (see the module
    /// doc). The top level should be fully propagated.
    pub fn retract(&mut self, at: usize) {
        // A unit clause for the same literal takes over as its reason: nothing leaves the
        // trail. (Flags that said the literals from here on were justified by the old reason
        // are dropped.)
        let y = self.trail.lits[at];
        let b = self.backup[var(y)];
        if b != NONE && self.db.is(b, ALIVE) {
            self.trail.reason[var(y)] = b;
            for i in at..self.trail.lits.len() {
                let v = var(self.trail.lits[i]);
                self.trail.marks[v] &= !JUSTIFIED;
            }
            return;
        }
        let t = &mut self.trail;
        let mut gone = std::mem::take(&mut self.scratch);
        gone.clear();
        let (core, all) = (t.core, t.all);
        let mut kept = at;
        for i in at..t.lits.len() {
            if i == core {
                t.core = kept;
            }
            if i == all {
                t.all = kept;
            }
            let z = t.lits[i];
            let v = var(z);
            let r = t.reason[v];
            let depends = i == at
                || (r != NONE
                    && self
                        .db
                        .clause(r)
                        .iter()
                        .any(|&l| t.marks[var(l)] & GONE != 0));
            if depends {
                t.marks[v] |= GONE;
                gone.push(z);
            } else {
                t.lits[kept] = z;
                t.pos[v] = kept as u32;
                kept += 1;
            }
        }
        t.core = t.core.min(kept);
        t.all = t.all.min(kept);
        t.resume = 0;
        t.lits.truncate(kept);
        for &z in &gone {
            t.unassign(z);
        }
        for &z in &gone {
            let b = self.backup[var(z)];
            if b != NONE && self.db.is(b, ALIVE) && self.trail.value(z) == 0 {
                self.trail.assign(z, b);
            }
        }
        for &z in &gone {
            self.repair(z);
        }
        self.scratch = gone;
        if !self.extra.is_empty() {
            let db = &self.db;
            self.extra.retain(|&id| db.is(id, ALIVE));
            for i in 0..self.extra.len() {
                let id = self.extra[i];
                let l = self.db.clause(id)[0];
                if self.trail.value(l) == 0 {
                    self.trail.assign(l, id);
                }
            }
        }
        if let Some(id) = self.conflict.take() {
            if self.db.is(id, ALIVE) {
                self.detach(id);
                self.attach(id);
            }
        }
    }

    /// Looks again at the clauses watching `z`, just unassigned: one whose other watched
    /// literal is false gets another watched literal, or, unit, sets `z` back.
    fn repair(&mut self, z: Lit) {
        let (off, len) = self.watches.list(z);
        self.ticks += len as u64;
        for i in 0..len {
            if self.trail.value(z) != 0 {
                return;
            }
            let w = self.watches.data[off + i];
            let id = w.cref & !BIN;
            if w.cref & BIN != 0 {
                if self.trail.value(w.blocker) == -1 {
                    self.trail.assign(z, id);
                }
                continue;
            }
            let (s, e) = self.db.range(id);
            let other = if self.db.lits[s] == z { s + 1 } else { s };
            let o = self.db.lits[other];
            if self.trail.value(o) != -1 {
                continue;
            }
            match (s + 2..e).find(|&k| self.trail.value(self.db.lits[k]) != -1) {
                Some(k) => {
                    let l = self.db.lits[k];
                    self.db.lits[k] = o;
                    self.db.lits[other] = l;
                    self.watches.remove(o, id);
                    self.watches.push(
                        l,
                        Watch {
                            blocker: z,
                            cref: id,
                        },
                    );
                }
                None => self.trail.assign(z, id),
            }
        }
    }

    /// Unit propagation over every clause from the trail's heads; the conflict clause, if
    /// any.
    pub fn propagate(&mut self, budget: &Deadline) -> Result<Option<u32>, Interrupt> {
        while self.trail.all < self.trail.lits.len() {
            let f = self.trail.lits[self.trail.all] ^ 1;
            if let Scan::Conflict(id) = self.scan::<ALL>(f, 0) {
                self.trail.core = self.trail.core.max(self.trail.all);
                return Ok(Some(id));
            }
            self.trail.all += 1;
            self.poll(budget)?;
        }
        self.trail.core = self.trail.all;
        Ok(None)
    }

    /// Core-first unit propagation (see the module doc); the conflict clause, if any.
    pub fn propagate_core_first(&mut self, budget: &Deadline) -> Result<Option<u32>, Interrupt> {
        loop {
            while self.trail.core < self.trail.lits.len() {
                let f = self.trail.lits[self.trail.core] ^ 1;
                if let Scan::Conflict(id) = self.scan::<CORE_ONLY>(f, 0) {
                    return Ok(Some(id));
                }
                self.trail.core += 1;
                self.poll(budget)?;
            }
            if self.trail.all == self.trail.lits.len() {
                return Ok(None);
            }
            let f = self.trail.lits[self.trail.all] ^ 1;
            match self.scan::<NON_CORE>(f, self.trail.resume) {
                Scan::Conflict(id) => return Ok(Some(id)),
                Scan::Paused(at) => self.trail.resume = at,
                Scan::Done => {
                    self.trail.all += 1;
                    self.trail.resume = 0;
                }
            }
            self.poll(budget)?;
        }
    }

    /// Visits the entries of the watch list of `f` (false) from `from` on, as `MODE` says.
    #[inline(always)]
    fn scan<const MODE: u8>(&mut self, f: Lit, from: usize) -> Scan {
        let (off, len) = self.watches.list(f);
        let (mut i, mut j) = (from, from);
        let mut result = Scan::Done;
        while i < len {
            let w = self.watches.data[off + i];
            i += 1;
            let blocker = self.trail.val[w.blocker as usize];
            if blocker == 1 {
                self.watches.data[off + j] = w;
                j += 1;
                continue;
            }
            let id = w.cref & !BIN;
            if MODE != ALL && (self.db.flags[id as usize] & CORE != 0) != (MODE == CORE_ONLY) {
                self.watches.data[off + j] = w;
                j += 1;
                continue;
            }
            if w.cref & BIN != 0 {
                self.watches.data[off + j] = w;
                j += 1;
                if blocker == -1 {
                    result = Scan::Conflict(id);
                    break;
                }
                self.trail.assign(w.blocker, id);
                if MODE == NON_CORE {
                    result = Scan::Paused(j);
                    break;
                }
                continue;
            }
            let (s, e) = self.db.range(id);
            let lits = &mut self.db.lits;
            if lits[s] == f {
                lits.swap(s, s + 1);
            }
            let first = lits[s];
            let first_value = self.trail.val[first as usize];
            if first_value == 1 {
                self.watches.data[off + j] = Watch {
                    blocker: first,
                    cref: w.cref,
                };
                j += 1;
                continue;
            }
            let mut k = s + 2;
            while k < e && self.trail.val[lits[k] as usize] == -1 {
                k += 1;
            }
            if k < e {
                let l = lits[k];
                lits[k] = f;
                lits[s + 1] = l;
                self.watches.push(
                    l,
                    Watch {
                        blocker: first,
                        cref: w.cref,
                    },
                );
                continue;
            }
            self.watches.data[off + j] = Watch {
                blocker: first,
                cref: w.cref,
            };
            j += 1;
            if first_value == -1 {
                result = Scan::Conflict(id);
                break;
            }
            self.trail.assign(first, id);
            if MODE == NON_CORE {
                result = Scan::Paused(j);
                break;
            }
        }
        self.ticks += (i - from) as u64 + 1;
        if i < len && i != j {
            self.watches.data.copy_within(off + i..off + len, off + j);
        }
        self.watches.set_len(f, j + (len - i));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::drat::lit::{from_dimacs, NONE};

    fn engine(clauses: &[&[i32]]) -> Engine {
        let mut e = Engine::default();
        e.clear_state();
        e.grow(8, &mut || Ok::<(), ()>(())).unwrap();
        for c in clauses {
            let lits: Vec<Lit> = c.iter().map(|&l| from_dimacs(l)).collect();
            e.db.push(&lits).unwrap();
        }
        e
    }

    /// Sets `l` (DIMACS) with this reason, and marks every literal so far propagated.
    fn set(e: &mut Engine, l: i32, reason: u32) {
        e.trail.assign(from_dimacs(l), reason);
        e.trail.all = e.trail.lits.len();
        e.trail.core = e.trail.all;
    }

    #[test]
    fn retraction_keeps_what_does_not_depend_on_the_reason_removed() {
        // 1 (assumed), then 2 by clause 0 = (-1 2), 3 by clause 1 = (3) ... trail 1 2 3 4 5:
        // 4 by (-2 4), 5 by (-3 5). Taking 2 off takes 4 off, keeps 3 and 5 in order.
        let mut e = engine(&[&[-1, 2], &[3], &[-2, 4], &[-3, 5]]);
        set(&mut e, 1, NONE);
        set(&mut e, 2, 0);
        set(&mut e, 3, 1);
        set(&mut e, 4, 2);
        set(&mut e, 5, 3);
        e.retract(1);
        let trail: Vec<i32> = e
            .trail
            .lits
            .iter()
            .map(|&l| crate::cnf::drat::lit::to_dimacs(l))
            .collect();
        assert_eq!(trail, vec![1, 3, 5]);
        assert_eq!((e.trail.pos[5], e.trail.all, e.trail.core), (2, 3, 3));
        assert_eq!(e.trail.value(from_dimacs(4)), 0);
    }

    #[test]
    fn a_clause_that_watched_a_literal_taken_off_sets_it_back() {
        // Clause 0 = (2 1) is attached when 2 is true (by clause 1) and 1 false: it watches
        // both. When clause 1 goes and 2 with it, clause 0 is unit and sets 2 again; a long
        // clause (2 4 -5) watching 2 and a false literal moves to the free one.
        let mut e = engine(&[&[2, 1], &[2, 3], &[2, -5, 4]]);
        set(&mut e, -1, NONE);
        set(&mut e, -3, NONE);
        set(&mut e, 5, NONE);
        set(&mut e, 2, 1);
        e.attach(0);
        e.attach(2);
        e.retract(3);
        assert_eq!(e.trail.value(from_dimacs(2)), 1);
        assert_eq!(e.trail.reason[2], 0);
        assert_eq!(e.propagate(&Deadline::default()), Ok(None));
        // The unit clause (4), attached while 4 is true by (-1 4), sets it back when (-1 4)
        // goes.
        let mut e = engine(&[&[-1, 4], &[4]]);
        set(&mut e, 1, NONE);
        set(&mut e, 4, 0);
        e.attach(1);
        assert_eq!(e.implied_by(1), None);
        e.detach(0);
        e.retract(1);
        assert_eq!((e.trail.value(from_dimacs(4)), e.trail.reason[4]), (1, 1));
    }

    #[test]
    fn a_unit_found_by_the_retraction_of_a_conflict_is_propagated() {
        // (-1 -3) is attached all false: a conflict. Taking 3 off leaves it unit: -3.
        let mut e = engine(&[&[-1, -3]]);
        set(&mut e, 1, NONE);
        set(&mut e, 3, NONE);
        e.attach(0);
        assert_eq!(e.conflict, Some(0));
        e.retract(1);
        assert_eq!(e.conflict, None);
        assert_eq!(e.trail.value(from_dimacs(-3)), 1);
    }
}
