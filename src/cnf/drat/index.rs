//! Finding the clause a deletion step names.
//!
//! A deletion gives the clause's literals in any order, so clauses are found by a hash that
//! does not depend on the order (a sum of mixed literal values) in a chained table: one head
//! per bucket and one link per clause, both flat. The table is built on the first deletion
//! only, so a proof without deletions (the usual case for short proofs) costs nothing here,
//! and lemmas are entered as they are added from then on.

use super::clauses::{ClauseDb, ALIVE};
use super::lit::{Lit, NONE};
use super::resize::resize_polled;

#[derive(Debug, Default)]
pub(super) struct DeletionIndex {
    built: bool,
    heads: Vec<u32>,
    next: Vec<u32>,
    entries: usize,
}

/// An order-independent hash of a clause's literals.
fn hash(lits: &[Lit]) -> u64 {
    lits.iter().fold(0u64, |h, &l| {
        let mut x = u64::from(l).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^= x >> 31;
        h.wrapping_add(x.wrapping_mul(0xbf58_476d_1ce4_e5b9))
    })
}

impl DeletionIndex {
    pub fn clear(&mut self) {
        self.built = false;
        self.heads.clear();
        self.next.clear();
        self.entries = 0;
    }

    pub fn is_built(&self) -> bool {
        self.built
    }

    fn bucket(&self, lits: &[Lit]) -> usize {
        (hash(lits) as usize) & (self.heads.len() - 1)
    }

    /// Enters every alive clause. `poll` is called every 2^16 clauses.
    pub fn build<E>(
        &mut self,
        db: &ClauseDb,
        mut poll: impl FnMut() -> Result<(), E>,
    ) -> Result<(), E> {
        self.built = true;
        self.rehash(db, db.len().next_power_of_two().max(1 << 10), &mut poll)
    }

    fn rehash<E>(
        &mut self,
        db: &ClauseDb,
        buckets: usize,
        poll: &mut impl FnMut() -> Result<(), E>,
    ) -> Result<(), E> {
        self.heads.clear();
        resize_polled(&mut self.heads, buckets, NONE, poll)?;
        self.next.clear();
        resize_polled(&mut self.next, db.len(), NONE, poll)?;
        self.entries = 0;
        for id in 0..db.len() as u32 {
            if id & 0xffff == 0xffff {
                poll()?;
            }
            if db.is(id, ALIVE) {
                self.link(db, id);
            }
        }
        Ok(())
    }

    fn link(&mut self, db: &ClauseDb, id: u32) {
        let b = self.bucket(db.clause(id));
        if self.next.len() <= id as usize {
            self.next.resize(id as usize + 1, NONE);
        }
        self.next[id as usize] = self.heads[b];
        self.heads[b] = id;
        self.entries += 1;
    }

    /// Enters clause `id` (a new lemma) when the table exists.
    pub fn insert(&mut self, db: &ClauseDb, id: u32) {
        if !self.built {
            return;
        }
        if self.entries >= self.heads.len() {
            let buckets = 2 * self.heads.len();
            let _ = self.rehash(db, buckets, &mut || Ok::<(), ()>(()));
        } else {
            self.link(db, id);
        }
    }

    /// Removes from the table and returns an alive clause whose literals are exactly `lits`
    /// (no repetitions), whose literal indices are marked non-zero in `marks`.
    pub fn take(&mut self, db: &ClauseDb, lits: &[Lit], marks: &[u8]) -> Option<u32> {
        let b = self.bucket(lits);
        let mut prev = NONE;
        let mut id = self.heads[b];
        while id != NONE {
            let next = self.next[id as usize];
            let c = db.clause(id);
            if c.len() == lits.len() && c.iter().all(|&l| marks[l as usize] != 0) {
                if prev == NONE {
                    self.heads[b] = next;
                } else {
                    self.next[prev as usize] = next;
                }
                self.entries -= 1;
                return Some(id);
            }
            prev = id;
            id = next;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(lits: &[Lit]) -> Vec<u8> {
        let mut m = vec![0; 64];
        for &l in lits {
            m[l as usize] = 1;
        }
        m
    }

    #[test]
    fn clauses_are_found_in_any_order_once_per_copy() {
        let mut db = ClauseDb::default();
        for c in [&[2, 5][..], &[5, 2], &[2, 5, 8], &[9]] {
            db.push(c).unwrap();
        }
        let mut ix = DeletionIndex::default();
        ix.build(&db, || Ok::<(), ()>(())).unwrap();
        let d = [5, 2];
        let first = ix.take(&db, &d, &marks(&d)).unwrap();
        let second = ix.take(&db, &d, &marks(&d)).unwrap();
        assert_eq!(first + second, 1);
        assert_eq!(ix.take(&db, &d, &marks(&d)), None);
        let d = [8, 2, 5];
        assert_eq!(ix.take(&db, &d, &marks(&d)), Some(2));
        // A subset or a superset is another clause.
        let d = [2];
        assert_eq!(ix.take(&db, &d, &marks(&d)), None);
        // Lemmas entered after the build, through a rehash.
        for k in 0..3000u32 {
            let id = db.push(&[10 + 2 * (k % 20), 11 + 2 * (k % 7)]).unwrap();
            ix.insert(&db, id);
        }
        let d = [12, 13];
        assert!(ix.take(&db, &d, &marks(&d)).is_some());
    }
}
