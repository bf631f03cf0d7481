//! The assignment: literal values, the trail of true literals in the order they were set,
//! and for each variable its reason (the clause that implied it, or [`NONE`] for an
//! assumption) and its place on the trail.
//!
//! Two propagation heads walk the trail (see `propagate`): `core` for the pass over core
//! clauses, `all` for the pass over the rest. `all` never passes `core`; the literals before
//! `all` have had every watch list entry visited.

use super::lit::{var, Lit, NONE};
use super::resize::resize_polled;

/// Per-variable marks: met in the current conflict analysis.
pub(super) const SEEN: u8 = 1;
/// Per-variable marks: a top-level literal whose reason and all the reasons behind it are
/// already marked core (analysis need not go through it again).
pub(super) const JUSTIFIED: u8 = 2;
/// Per-variable marks: taken off the trail by `Engine::retract`.
pub(super) const GONE: u8 = 4;

#[derive(Debug, Default)]
pub(super) struct Trail {
    /// By literal: 1 true, -1 false, 0 unassigned.
    pub val: Vec<i8>,
    /// By variable.
    pub reason: Vec<u32>,
    pub pos: Vec<u32>,
    pub marks: Vec<u8>,
    pub lits: Vec<Lit>,
    /// Next literal for the core pass.
    pub core: usize,
    /// Next literal for the full pass, and where in its watch list to resume.
    pub all: usize,
    pub resume: usize,
}

impl Trail {
    /// Nothing assigned.
    pub fn reset(&mut self) {
        self.cut(0);
        self.core = 0;
        self.all = 0;
        self.resume = 0;
    }

    /// Room for variables `1..=vars`, allocated in pieces between calls of `poll`.
    pub fn grow<E>(
        &mut self,
        vars: usize,
        poll: &mut impl FnMut() -> Result<(), E>,
    ) -> Result<(), E> {
        let n = vars + 1;
        if self.reason.len() < n {
            resize_polled(&mut self.val, 2 * n, 0, poll)?;
            resize_polled(&mut self.pos, n, 0, poll)?;
            resize_polled(&mut self.marks, n, 0, poll)?;
            resize_polled(&mut self.reason, n, NONE, poll)?;
        }
        Ok(())
    }

    /// Room for variables `1..=vars`.
    pub fn vars(&self) -> usize {
        self.reason.len().saturating_sub(1)
    }

    #[inline]
    pub fn value(&self, l: Lit) -> i8 {
        self.val[l as usize]
    }

    #[inline]
    pub fn assign(&mut self, l: Lit, reason: u32) {
        let v = var(l);
        self.val[l as usize] = 1;
        self.val[(l ^ 1) as usize] = -1;
        self.reason[v] = reason;
        self.pos[v] = self.lits.len() as u32;
        self.lits.push(l);
    }

    /// Unassigns `l` and clears its variable's marks.
    #[inline]
    pub fn unassign(&mut self, l: Lit) {
        self.val[l as usize] = 0;
        self.val[(l ^ 1) as usize] = 0;
        self.marks[var(l)] = 0;
    }

    /// Unassigns the literals from trail place `mark` on.
    pub fn cut(&mut self, mark: usize) {
        for i in mark..self.lits.len() {
            self.unassign(self.lits[i]);
        }
        self.lits.truncate(mark);
    }

    /// Back to the assignment of the first `mark` trail literals, all of which were fully
    /// propagated (the RUP checks' undo).
    pub fn backtrack(&mut self, mark: usize) {
        self.cut(mark);
        self.core = mark;
        self.all = mark;
        self.resume = 0;
    }

    /// Every literal fully propagated.
    pub fn settled(&self) -> bool {
        self.all == self.lits.len() && self.core == self.lits.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assign_records_place_and_reason_and_cut_undoes() {
        let mut t = Trail::default();
        t.grow(5, &mut || Ok::<(), ()>(())).unwrap();
        t.assign(2, NONE);
        t.assign(4, 7);
        t.assign(7, 8);
        t.marks[3] = JUSTIFIED;
        assert_eq!(
            (t.value(4), t.value(5), t.value(6), t.value(10)),
            (1, -1, -1, 0)
        );
        assert_eq!((t.pos[3], t.reason[3]), (2, 8));
        t.all = 3;
        t.backtrack(1);
        assert_eq!(t.lits, vec![2]);
        assert_eq!(
            (t.value(4), t.value(5), t.value(7), t.marks[3]),
            (0, 0, 0, 0)
        );
        assert_eq!((t.all, t.core, t.settled()), (1, 1, true));
    }
}
