//! Unit propagation on a changing clause set, at the top level and under assumptions.
//!
//! The [`Engine`] holds the clause store, the watch lists and the assignment. Its top-level
//! trail (the literals the current clauses imply by unit propagation) is kept from one step
//! to the next, as the proof adds and removes clauses:
//!
//! - a clause added ([`Engine::attach`]) is watched on two literals that are not false when
//!   it has them; a clause that is unit sets its literal at once;
//! - a clause removed ([`Engine::detach`]) that is the reason of a top-level literal takes
//!   that literal and everything set after it off the trail ([`Engine::retract`]); what did
//!   not depend on it is found again by propagating from the earliest place any of the
//!   removed literals was set from (the trail's `since`).
//!
//! An attached clause whose only literal that is not false is true, or was just set by it,
//! watches a false literal that was already propagated; if that true literal later leaves the
//! trail while the false one stays, nothing would visit the clause again. Such clauses are
//! kept in a heap by the trail place of their true literal and looked at again by `retract`.
//!
//! **Core-first propagation** (Heule, Hunt and Wetzler, "Trimming while checking clausal
//! proofs", FMCAD 2013): in backward checking, propagation first runs to a fixpoint over core
//! clauses only (those already used to justify something), and takes one implication of a
//! non-core clause only when the core clauses imply nothing more, so that the conflicts found
//! use core clauses where they can and fewer lemmas become core.

use std::collections::BinaryHeap;

use super::super::{Budget, Interrupt};
use super::clauses::{ClauseDb, ALIVE, CORE};
use super::lit::{var, Lit};
use super::trail::Trail;
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
    /// (trail place of the clause's true or first literal, clause id): see the module doc.
    recheck: BinaryHeap<(u32, u32)>,
    /// A conflict of the current clauses at the top level.
    pub conflict: Option<u32>,
    /// Work done, and when to read the budget next.
    pub ticks: u64,
    next_poll: u64,
    scratch: Vec<u32>,
}

impl Engine {
    /// Empties the trail and the watch lists' bookkeeping for a new check.
    pub fn clear_state(&mut self) {
        self.trail.reset();
        self.recheck.clear();
        self.conflict = None;
        self.ticks = 0;
        self.next_poll = POLL_TICKS;
    }

    /// Reads the budget when enough work was done since the last time.
    #[inline]
    pub fn poll(&mut self, budget: &Budget) -> Result<(), Interrupt> {
        if self.ticks >= self.next_poll {
            self.next_poll = self.ticks + POLL_TICKS;
            if let Some(why) = budget.spent() {
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
                    _ => {}
                }
                let at = self.trail.pos[var(l)];
                self.recheck.push((at, id));
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
                    self.recheck.push((self.trail.pos[var(a)], id));
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

    /// Takes the trail back to its first `at` literals: unassigns the rest, rewinds the
    /// propagation heads so that what does not depend on them is found again, and looks again
    /// at the clauses that may have become unit (see the module doc).
    pub fn retract(&mut self, at: usize) {
        let low = self.trail.cut(at);
        self.trail.rewind(low);
        let mut again = std::mem::take(&mut self.scratch);
        again.clear();
        while let Some(&(p, id)) = self.recheck.peek() {
            if (p as usize) < at {
                break;
            }
            self.recheck.pop();
            again.push(id);
        }
        if let Some(id) = self.conflict.take() {
            again.push(id);
        }
        for &id in &again {
            if self.db.is(id, ALIVE) {
                self.detach(id);
                self.attach(id);
            }
        }
        self.scratch = again;
    }

    /// Unit propagation over every clause from the trail's heads; the conflict clause, if
    /// any.
    pub fn propagate(&mut self, budget: &Budget) -> Result<Option<u32>, Interrupt> {
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
    pub fn propagate_core_first(&mut self, budget: &Budget) -> Result<Option<u32>, Interrupt> {
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
        if i < len {
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
        e.grow(4, &mut || Ok::<(), ()>(())).unwrap();
        for c in clauses {
            let lits: Vec<Lit> = c.iter().map(|&l| from_dimacs(l)).collect();
            e.db.push(&lits).unwrap();
        }
        e
    }

    /// Sets `l` (DIMACS) as if propagated while the full pass was at `since`, and marks every
    /// literal so far propagated.
    fn set(e: &mut Engine, l: i32, reason: u32, since: usize) {
        e.trail.all = since;
        e.trail.assign(from_dimacs(l), reason);
        e.trail.all = e.trail.lits.len();
        e.trail.core = e.trail.all;
    }

    #[test]
    fn a_clause_attached_true_is_looked_at_again_when_its_literal_leaves() {
        // Clause 0 = (2 1) is attached when 2 is true (set at place 2 after 1 was false at
        // place 0 and propagated). Cutting 2 off the trail rewinds propagation to place 2
        // only, past the false literal it watches: only the recheck finds it unit.
        let mut e = engine(&[&[2, 1], &[2, 4]]);
        set(&mut e, -1, NONE, 0);
        set(&mut e, 3, NONE, 1);
        set(&mut e, 2, 1, 2);
        e.attach(0);
        e.retract(2);
        assert_eq!(e.trail.value(from_dimacs(2)), 1);
        assert_eq!(e.trail.reason[2], 0);
        assert_eq!(e.propagate(&Budget::default()), Ok(None));
    }

    #[test]
    fn a_unit_found_by_the_retraction_of_a_conflict_is_propagated() {
        // (-1 -3) is attached all false: a conflict. Cutting 3 leaves it unit: -3.
        let mut e = engine(&[&[-1, -3]]);
        set(&mut e, 1, NONE, 0);
        set(&mut e, 3, NONE, 1);
        e.attach(0);
        assert_eq!(e.conflict, Some(0));
        e.retract(1);
        assert_eq!(e.conflict, None);
        assert_eq!(e.trail.value(from_dimacs(-3)), 1);
    }
}
