//! Watch lists for unit propagation, all in one array.
//!
//! Each clause of two or more literals is watched by its first two literals: the list of a
//! literal holds the clauses to visit when it becomes false. An entry carries the clause id,
//! a flag for binary clauses (whose other literal is then the entry's `blocker`, so that
//! propagating them never reads the clause store) and, for longer clauses, a literal of the
//! clause that is checked first: when it is true the clause is satisfied and is skipped
//! (the "blocking literal" of MiniSat-derived solvers).
//!
//! The lists of all literals share one array, each in a segment with room to grow; a segment
//! that fills up moves to the end with twice the room, and the array is compacted when the
//! space left behind exceeds what is in use. So a formula of millions of variables costs
//! twelve bytes per literal and eight per watch, and checking many small formulas one after
//! the other reuses the same memory.

use super::clauses::{ClauseDb, MAX_CLAUSES};
use super::lit::Lit;
use super::resize::resize_polled;

/// Flag on [`Watch::cref`]: the clause has two literals.
pub(super) const BIN: u32 = 1 << 31;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Watch {
    pub blocker: Lit,
    /// Clause id, with [`BIN`] for binary clauses.
    pub cref: u32,
}

#[derive(Clone, Copy, Debug, Default)]
struct Segment {
    off: u32,
    len: u32,
    cap: u32,
}

#[derive(Debug, Default)]
pub(super) struct Watches {
    segments: Vec<Segment>,
    pub data: Vec<Watch>,
    /// Entries of `data` that no segment uses.
    garbage: usize,
}

const _: () = assert!(4 * MAX_CLAUSES <= u32::MAX as usize + 1);

impl Watches {
    /// Empty lists for `lits` literal indices.
    #[cfg(test)]
    pub fn reset(&mut self, lits: usize) {
        self.segments.clear();
        self.segments.resize(lits, Segment::default());
        self.data.clear();
        self.garbage = 0;
    }

    /// Room for literal indices below `lits`.
    pub fn grow<E>(
        &mut self,
        lits: usize,
        poll: &mut impl FnMut() -> Result<(), E>,
    ) -> Result<(), E> {
        if self.segments.len() < lits {
            resize_polled(&mut self.segments, lits, Segment::default(), poll)?;
        }
        Ok(())
    }

    /// Start and length of `lit`'s list in `data`.
    #[inline]
    pub fn list(&self, lit: Lit) -> (usize, usize) {
        let s = self.segments[lit as usize];
        (s.off as usize, s.len as usize)
    }

    #[inline]
    pub fn set_len(&mut self, lit: Lit, len: usize) {
        self.segments[lit as usize].len = len as u32;
    }

    #[inline]
    pub fn push(&mut self, lit: Lit, w: Watch) {
        let s = self.segments[lit as usize];
        if s.len == s.cap {
            self.relocate(lit, (s.cap * 2).max(4));
        }
        let s = &mut self.segments[lit as usize];
        self.data[(s.off + s.len) as usize] = w;
        s.len += 1;
    }

    /// Gives `lit`'s list room for `cap` entries: in place when it ends the array, else at
    /// the end.
    fn relocate(&mut self, lit: Lit, cap: u32) {
        let s = self.segments[lit as usize];
        let (off, len) = (s.off as usize, s.len as usize);
        if off + s.cap as usize == self.data.len() {
            self.data.resize(off + cap as usize, Watch::default());
        } else {
            let new = self.data.len();
            self.data.extend_from_within(off..off + len);
            self.data.resize(new + cap as usize, Watch::default());
            self.garbage += s.cap as usize;
            self.segments[lit as usize].off = new as u32;
        }
        self.segments[lit as usize].cap = cap;
    }

    /// Removes the entry of clause `id` from `lit`'s list (the order of the others may
    /// change); false when it is not there.
    pub fn remove(&mut self, lit: Lit, id: u32) -> bool {
        let (off, len) = self.list(lit);
        let list = &mut self.data[off..off + len];
        match list.iter().position(|w| w.cref & !BIN == id) {
            Some(k) => {
                list[k] = list[len - 1];
                self.segments[lit as usize].len -= 1;
                true
            }
            None => false,
        }
    }

    /// Compacts the array when more than half of it is left-behind space. Never call it
    /// while a list is being walked by index.
    pub fn collect(&mut self) {
        if self.garbage < 1 << 12 || self.garbage * 2 < self.data.len() {
            return;
        }
        let live: usize = self.segments.iter().map(|s| s.len as usize).sum();
        let mut data = Vec::with_capacity(live + live / 8);
        for s in &mut self.segments {
            let (off, len) = (s.off as usize, s.len as usize);
            let cap = len + len / 8;
            s.off = data.len() as u32;
            s.cap = cap as u32;
            data.extend_from_slice(&self.data[off..off + len]);
            data.resize(data.len() + cap - len, Watch::default());
        }
        self.data = data;
        self.garbage = 0;
    }

    /// Watches the first two literals of every clause of two or more literals. Each list is
    /// given room first, for as many entries as `sizes` says (by literal index: an estimate
    /// of how many of those clauses start with it, kept by the caller), so that few lists move
    /// while they are filled. `poll` is called every 2^16 clauses and stops the build when it
    /// returns an error.
    pub fn build<E>(
        &mut self,
        db: &ClauseDb,
        lits: usize,
        sizes: &[u32],
        mut poll: impl FnMut() -> Result<(), E>,
    ) -> Result<(), E> {
        self.segments.clear();
        self.data.clear();
        self.garbage = 0;
        resize_polled(&mut self.segments, lits, Segment::default(), &mut poll)?;
        let n = db.len();
        for (s, &c) in self.segments.iter_mut().zip(sizes) {
            s.cap = c;
        }
        let mut off = 0u32;
        for s in &mut self.segments {
            let count = s.cap;
            s.off = off;
            s.cap = count + count / 8;
            off += s.cap;
        }
        resize_polled(&mut self.data, off as usize, Watch::default(), &mut poll)?;
        for id in 0..n as u32 {
            if id & 0xffff == 0xffff {
                poll()?;
            }
            let (s, e) = db.range(id);
            if e - s >= 2 {
                let (a, b) = (db.lits[s], db.lits[s + 1]);
                let cref = if e - s == 2 { id | BIN } else { id };
                self.push(a, Watch { blocker: b, cref });
                self.push(b, Watch { blocker: a, cref });
            }
        }
        Ok(())
    }

    #[cfg(test)]
    pub fn entries(&self, lit: Lit) -> &[Watch] {
        let (off, len) = self.list(lit);
        &self.data[off..off + len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_grow_move_and_compact_without_losing_entries() {
        let mut w = Watches::default();
        w.reset(8);
        // Interleaved pushes make lists move past each other.
        for i in 0..3000u32 {
            w.push(
                2 + (i % 3),
                Watch {
                    blocker: 7,
                    cref: i,
                },
            );
        }
        assert!(w.garbage > 0);
        for lit in 2..5 {
            let got: Vec<u32> = w.entries(lit).iter().map(|e| e.cref).collect();
            let want: Vec<u32> = (0..3000).filter(|i| 2 + i % 3 == lit).collect();
            assert_eq!(got, want);
        }
        assert!(w.remove(3, 1));
        assert!(!w.remove(3, 1));
        let before: Vec<Vec<Watch>> = (0..8).map(|l| w.entries(l).to_vec()).collect();
        w.garbage = usize::MAX / 4;
        w.collect();
        assert_eq!(w.garbage, 0);
        let after: Vec<Vec<Watch>> = (0..8).map(|l| w.entries(l).to_vec()).collect();
        assert_eq!(before, after);
        w.push(
            3,
            Watch {
                blocker: 9,
                cref: 5,
            },
        );
        assert_eq!(
            w.entries(3).last(),
            Some(&Watch {
                blocker: 9,
                cref: 5
            })
        );
    }

    #[test]
    fn build_watches_the_first_two_literals() {
        let mut db = ClauseDb::default();
        db.push(&[2, 4]).unwrap();
        db.push(&[3]).unwrap();
        db.push(&[5, 2, 7]).unwrap();
        let mut w = Watches::default();
        // Exact sizes, then none: the same lists.
        w.build(&db, 8, &[0, 0, 2, 0, 1, 1, 0, 0], || Ok::<(), ()>(()))
            .unwrap();
        assert_eq!(w.garbage, 0);
        let sized: Vec<Watch> = w.entries(2).to_vec();
        w.build(&db, 8, &[], || Ok::<(), ()>(())).unwrap();
        assert_eq!(w.entries(2), &sized[..]);
        assert_eq!(
            w.entries(2),
            &[
                Watch {
                    blocker: 4,
                    cref: BIN
                },
                Watch {
                    blocker: 5,
                    cref: 2
                }
            ]
        );
        assert_eq!(
            w.entries(4),
            &[Watch {
                blocker: 2,
                cref: BIN
            }]
        );
        assert_eq!(
            w.entries(5),
            &[Watch {
                blocker: 2,
                cref: 2
            }]
        );
        assert!(w.entries(3).is_empty() && w.entries(7).is_empty());
    }
}
