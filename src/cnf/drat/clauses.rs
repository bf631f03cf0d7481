//! The clause store: every clause of the formula and of the proof, flat.
//!
//! Literals of all clauses sit in one array, a clause's run from `start[id]` to
//! `start[id + 1]`, so that a clause costs its literals plus four bytes of offset and one
//! byte of flags, and no allocation of its own. Formula clauses come first (ids below
//! `originals`), lemmas after them in proof order, so a check can be repeated by cutting the
//! lemmas off. A clause of two or more literals keeps its two watched literals in its first
//! two places (see `watch`).

use super::lit::{from_dimacs, Lit};

/// The clause is in the current clause set.
pub(super) const ALIVE: u8 = 1;
/// The clause was used to justify a lemma or the final conflict (backward checking).
pub(super) const CORE: u8 = 2;

/// Most clauses the store holds: ids need 30 bits (the watch lists use the 31st).
pub(super) const MAX_CLAUSES: usize = 1 << 30;

#[derive(Debug)]
pub(super) struct ClauseDb {
    pub lits: Vec<Lit>,
    pub start: Vec<u32>,
    pub flags: Vec<u8>,
    /// Number of formula clauses.
    pub originals: usize,
}

impl Default for ClauseDb {
    fn default() -> Self {
        Self {
            lits: Vec::new(),
            start: vec![0],
            flags: Vec::new(),
            originals: 0,
        }
    }
}

/// The store is full: the clause was not added.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Full;

impl ClauseDb {
    pub fn clear(&mut self) {
        self.lits.clear();
        self.start.clear();
        self.start.push(0);
        self.flags.clear();
        self.originals = 0;
    }

    pub fn len(&self) -> usize {
        self.flags.len()
    }

    /// Whether a clause of `len` literals fits.
    #[inline]
    pub fn has_room(&self, len: usize) -> bool {
        self.flags.len() < MAX_CLAUSES && self.lits.len() + len <= u32::MAX as usize
    }

    /// Adds a clause (alive, not core) and returns its id.
    pub fn push(&mut self, lits: &[Lit]) -> Result<u32, Full> {
        let id = self.flags.len();
        if !self.has_room(lits.len()) {
            return Err(Full);
        }
        self.lits.extend_from_slice(lits);
        self.start.push(self.lits.len() as u32);
        self.flags.push(ALIVE);
        Ok(id as u32)
    }

    /// Adds a clause given in DIMACS literals, without their repetitions (found by comparing
    /// with the literals kept so far when the clause is short, else with `marks`, by literal
    /// index, all zero before and after), and returns its id.
    pub fn push_dimacs(&mut self, lits: &[i32], marks: &mut [u8]) -> Result<u32, Full> {
        let id = self.flags.len();
        let s = self.lits.len();
        if !self.has_room(lits.len()) {
            return Err(Full);
        }
        if lits.len() <= 16 {
            for &l in lits {
                let l = from_dimacs(l);
                if !self.lits[s..].contains(&l) {
                    self.lits.push(l);
                }
            }
        } else {
            for &l in lits {
                let l = from_dimacs(l);
                if marks[l as usize] == 0 {
                    marks[l as usize] = 1;
                    self.lits.push(l);
                }
            }
            for &l in &self.lits[s..] {
                marks[l as usize] = 0;
            }
        }
        self.start.push(self.lits.len() as u32);
        self.flags.push(ALIVE);
        Ok(id as u32)
    }

    /// Keeps the first `n` clauses.
    pub fn truncate(&mut self, n: usize) {
        if n < self.flags.len() {
            self.lits.truncate(self.start[n] as usize);
            self.start.truncate(n + 1);
            self.flags.truncate(n);
        }
    }

    #[inline]
    pub fn range(&self, id: u32) -> (usize, usize) {
        let id = id as usize;
        (self.start[id] as usize, self.start[id + 1] as usize)
    }

    #[inline]
    pub fn clause(&self, id: u32) -> &[Lit] {
        let (s, e) = self.range(id);
        &self.lits[s..e]
    }

    #[inline]
    pub fn is(&self, id: u32, flag: u8) -> bool {
        self.flags[id as usize] & flag != 0
    }

    #[inline]
    pub fn set(&mut self, id: u32, flag: u8) {
        self.flags[id as usize] |= flag;
    }

    #[inline]
    pub fn unset(&mut self, id: u32, flag: u8) {
        self.flags[id as usize] &= !flag;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_are_stored_flat_and_cut_back() {
        let mut db = ClauseDb::default();
        assert_eq!(db.push(&[2, 5]), Ok(0));
        assert_eq!(db.push(&[]), Ok(1));
        assert_eq!(db.push(&[7, 9, 11]), Ok(2));
        assert_eq!(db.clause(0), &[2, 5]);
        assert_eq!(db.clause(1), &[] as &[Lit]);
        assert_eq!(db.clause(2), &[7, 9, 11]);
        assert!(db.is(2, ALIVE) && !db.is(2, CORE));
        db.set(2, CORE);
        db.unset(2, ALIVE);
        assert_eq!(db.flags[2], CORE);
        let mut marks = vec![0u8; 64];
        assert_eq!(db.push_dimacs(&[3, -2, 3, 1, -2], &mut marks), Ok(3));
        assert_eq!(db.clause(3), &[6, 5, 2]);
        let long: Vec<i32> = (1..=20).chain(1..=20).collect();
        assert_eq!(db.push_dimacs(&long, &mut marks), Ok(4));
        assert_eq!(db.clause(4).len(), 20);
        assert!(marks.iter().all(|&m| m == 0));
        db.truncate(1);
        assert_eq!((db.len(), db.lits.len()), (1, 2));
        assert_eq!(db.push(&[3]), Ok(1));
        assert_eq!(db.clause(1), &[3]);
    }
}
