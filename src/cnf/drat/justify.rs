//! Checking one lemma: RUP, then RAT on its first literal; and, in backward checking,
//! marking as core the clauses that the successful check used.
//!
//! The clauses used are found from the conflict, as a conflict analysis would: the conflict
//! clause, the reason of each of its literals, the reasons of theirs, and so on (Heule,
//! Hunt and Wetzler, FMCAD 2013). A top-level literal whose reasons were all marked once is
//! flagged [`JUSTIFIED`] until it leaves the trail, so the analyses of later checks stop at it
//! instead of walking the same top-level reasons again.

use super::super::{Deadline, Interrupt};
use super::clauses::{ALIVE, CORE};
use super::lit::{var, Lit, NONE};
use super::propagate::Engine;
use super::trail::{JUSTIFIED, SEEN};

/// A conflict: a clause all of whose literals are false, or a literal that an assumption
/// wants false but is already true (`Literal(l)`: `l` is true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Conflict {
    Clause(u32),
    Literal(Lit),
}

#[derive(Debug, Default)]
pub(super) struct Justify {
    /// Mark the clauses used as core.
    pub analyze: bool,
    /// Propagate core-first.
    pub core_first: bool,
    stack: Vec<usize>,
    seen: Vec<usize>,
}

impl Justify {
    fn propagate(&self, e: &mut Engine, budget: &Deadline) -> Result<Option<Conflict>, Interrupt> {
        let conflict = if self.core_first {
            e.propagate_core_first(budget)?
        } else {
            e.propagate(budget)?
        };
        Ok(conflict.map(Conflict::Clause))
    }

    /// Marks core the clauses behind the top-level conflict on clause `id` (the final
    /// conflict of a backward check).
    pub fn analyze_conflict(
        &mut self,
        e: &mut Engine,
        id: u32,
        budget: &Deadline,
    ) -> Result<(), Interrupt> {
        let top = e.trail.lits.len();
        self.mark(e, Conflict::Clause(id), top, budget)
    }

    /// Assumes every literal of `lits` false but `skip`; the conflict when one is true.
    fn assume(e: &mut Engine, lits: &[Lit], skip: Lit) -> Option<Conflict> {
        for &l in lits {
            if l == skip {
                continue;
            }
            match e.trail.value(l) {
                1 => return Some(Conflict::Literal(l)),
                -1 => {}
                _ => e.trail.assign(l ^ 1, NONE),
            }
        }
        None
    }

    /// True when unit propagation on the current clauses and the negation of `lits`
    /// conflicts. The top level must be fully propagated; it is left as it was.
    pub fn rup(
        &mut self,
        e: &mut Engine,
        lits: &[Lit],
        budget: &Deadline,
    ) -> Result<bool, Interrupt> {
        let top = e.trail.lits.len();
        debug_assert!(e.conflict.is_some() || e.trail.settled());
        if let Some(id) = e.conflict {
            self.mark(e, Conflict::Clause(id), top, budget)?;
            return Ok(true);
        }
        let conflict = match Self::assume(e, lits, NONE) {
            Some(c) => Ok(Some(c)),
            None => self.propagate(e, budget),
        };
        let result = match conflict {
            Ok(Some(c)) => self.mark(e, c, top, budget).map(|()| true),
            Ok(None) => Ok(false),
            Err(why) => Err(why),
        };
        e.trail.backtrack(top);
        result
    }

    /// True when `lemma` (not RUP) is RAT on `pivot`: for every current clause `D` holding
    /// `-pivot`, the resolvent `lemma ∪ (D \ {-pivot})` is RUP. Each such `D` is marked core
    /// with the clauses its check used.
    pub fn rat(
        &mut self,
        e: &mut Engine,
        lemma: &[Lit],
        pivot: Lit,
        budget: &Deadline,
    ) -> Result<bool, Interrupt> {
        let top = e.trail.lits.len();
        let result = self.rat_from(e, lemma, pivot, top, budget);
        e.trail.backtrack(top);
        result
    }

    fn rat_from(
        &mut self,
        e: &mut Engine,
        lemma: &[Lit],
        pivot: Lit,
        top: usize,
        budget: &Deadline,
    ) -> Result<bool, Interrupt> {
        let conflict = match Self::assume(e, lemma, NONE) {
            Some(c) => Some(c),
            None => self.propagate(e, budget)?,
        };
        if let Some(c) = conflict {
            self.mark(e, c, top, budget)?;
            return Ok(true);
        }
        let level = e.trail.lits.len();
        let negated = pivot ^ 1;
        for id in 0..e.db.len() as u32 {
            e.ticks += 1;
            e.poll(budget)?;
            if !e.db.is(id, ALIVE) {
                continue;
            }
            let (s, end) = e.db.range(id);
            if !e.db.lits[s..end].contains(&negated) {
                continue;
            }
            e.ticks += (end - s) as u64;
            let mut conflict = None;
            for k in s..end {
                let l = e.db.lits[k];
                if l == negated {
                    continue;
                }
                match e.trail.value(l) {
                    1 => {
                        conflict = Some(Conflict::Literal(l));
                        break;
                    }
                    -1 => {}
                    _ => e.trail.assign(l ^ 1, NONE),
                }
            }
            if conflict.is_none() {
                conflict = self.propagate(e, budget)?;
            }
            let Some(c) = conflict else {
                return Ok(false);
            };
            if self.analyze {
                e.db.set(id, CORE);
            }
            self.mark(e, c, top, budget)?;
            e.trail.backtrack(level);
        }
        Ok(true)
    }

    /// Marks core the clauses behind conflict `c`; trail places below `top` are the top
    /// level.
    fn mark(
        &mut self,
        e: &mut Engine,
        c: Conflict,
        top: usize,
        budget: &Deadline,
    ) -> Result<(), Interrupt> {
        if !self.analyze {
            return Ok(());
        }
        self.stack.clear();
        match c {
            Conflict::Clause(id) => {
                e.db.set(id, CORE);
                self.stack.extend(e.db.clause(id).iter().map(|&l| var(l)));
            }
            Conflict::Literal(l) => self.stack.push(var(l)),
        }
        let result = self.walk(e, top, budget);
        for &v in &self.seen {
            e.trail.marks[v] &= !SEEN;
        }
        self.seen.clear();
        result
    }

    fn walk(&mut self, e: &mut Engine, top: usize, budget: &Deadline) -> Result<(), Interrupt> {
        while let Some(v) = self.stack.pop() {
            if e.trail.marks[v] & (SEEN | JUSTIFIED) != 0 {
                continue;
            }
            e.trail.marks[v] |= SEEN;
            self.seen.push(v);
            if (e.trail.pos[v] as usize) < top {
                e.trail.marks[v] |= JUSTIFIED;
            }
            let r = e.trail.reason[v];
            if r == NONE {
                continue;
            }
            e.db.set(r, CORE);
            let (s, end) = e.db.range(r);
            e.ticks += (end - s) as u64;
            for k in s..end {
                let u = var(e.db.lits[k]);
                if u != v {
                    self.stack.push(u);
                }
            }
            e.poll(budget)?;
        }
        Ok(())
    }
}
