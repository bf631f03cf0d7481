//! The domains of the cells, as bit sets, with a trail that restores them on backtracking.
//!
//! Cell `c`'s domain is the `words` 64-bit words from `c * words`; bit `d - 1` stands for
//! digit `d`. A cell's domain is saved on the trail the first time it changes after the
//! current *stamp* began (a stamp begins with each branch of the search), so undoing a branch
//! restores each cell it touched once, whatever the number of changes: the trail holds at most
//! one entry per cell and branch. This is the trailing of Schulte's comparison of trailing and
//! copying ("Comparing trailing and copying for constraint programming", ICLP 1999).

/// Whether a change left the domain as it was, smaller, or empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Change {
    Same,
    Reduced,
    Wiped,
}

pub(super) struct Domains {
    words: usize,
    bits: Vec<u64>,
    size: Vec<u32>,
    /// The stamp at which each cell's domain was last saved on the trail.
    saved_at: Vec<u64>,
    /// Saved domains: (cell, the stamp it was saved at before) and its `words` old words.
    trail: Vec<(u32, u64)>,
    trail_bits: Vec<u64>,
    stamp: u64,
}

impl Domains {
    /// `cells` domains of `n` digits each, all full.
    pub(super) fn full(cells: usize, n: usize) -> Self {
        let words = n.div_ceil(64);
        let mut one = vec![0u64; words];
        for d in 0..n {
            one[d / 64] |= 1 << (d % 64);
        }
        let mut bits = Vec::with_capacity(cells * words);
        for _ in 0..cells {
            bits.extend_from_slice(&one);
        }
        Domains {
            words,
            bits,
            size: vec![n as u32; cells],
            saved_at: vec![0; cells],
            trail: Vec::new(),
            trail_bits: Vec::new(),
            stamp: 1,
        }
    }

    pub(super) fn cells(&self) -> usize {
        self.size.len()
    }

    pub(super) fn words(&self) -> usize {
        self.words
    }

    #[inline]
    pub(super) fn get(&self, c: usize) -> &[u64] {
        &self.bits[c * self.words..(c + 1) * self.words]
    }

    #[inline]
    pub(super) fn size(&self, c: usize) -> u32 {
        self.size[c]
    }

    #[inline]
    pub(super) fn contains(&self, c: usize, v: usize) -> bool {
        self.bits[c * self.words + v / 64] >> (v % 64) & 1 == 1
    }

    /// The smallest value (digit - 1) of `c`'s domain; `None` when it is empty.
    pub(super) fn first(&self, c: usize) -> Option<usize> {
        self.get(c)
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// Empties `c` for good (a void cell of a combined layout): not trailed.
    pub(super) fn clear_untrailed(&mut self, c: usize) {
        let w = self.words;
        self.bits[c * w..(c + 1) * w].fill(0);
        self.size[c] = 0;
    }

    fn save(&mut self, c: usize) {
        if self.saved_at[c] != self.stamp {
            self.trail.push((c as u32, self.saved_at[c]));
            let w = self.words;
            self.trail_bits
                .extend_from_slice(&self.bits[c * w..(c + 1) * w]);
            self.saved_at[c] = self.stamp;
        }
    }

    /// Intersects `c`'s domain with `mask` (`words` words).
    pub(super) fn restrict(&mut self, c: usize, mask: &[u64]) -> Change {
        let w = self.words;
        let cell = &self.bits[c * w..(c + 1) * w];
        if cell.iter().zip(mask).all(|(a, m)| a & !m == 0) {
            return Change::Same;
        }
        self.save(c);
        let mut size = 0;
        for (a, m) in self.bits[c * w..(c + 1) * w].iter_mut().zip(mask) {
            *a &= m;
            size += a.count_ones();
        }
        self.size[c] = size;
        if size == 0 {
            Change::Wiped
        } else {
            Change::Reduced
        }
    }

    /// Removes value `v` from `c`'s domain.
    pub(super) fn remove(&mut self, c: usize, v: usize) -> Change {
        if !self.contains(c, v) {
            return Change::Same;
        }
        self.save(c);
        self.bits[c * self.words + v / 64] &= !(1u64 << (v % 64));
        self.size[c] -= 1;
        if self.size[c] == 0 {
            Change::Wiped
        } else {
            Change::Reduced
        }
    }

    /// Reduces `c`'s domain to `{v}`.
    pub(super) fn assign(&mut self, c: usize, v: usize) -> Change {
        if !self.contains(c, v) {
            self.save(c);
            let w = self.words;
            self.bits[c * w..(c + 1) * w].fill(0);
            self.size[c] = 0;
            return Change::Wiped;
        }
        if self.size[c] == 1 {
            return Change::Same;
        }
        self.save(c);
        let w = self.words;
        self.bits[c * w..(c + 1) * w].fill(0);
        self.bits[c * w + v / 64] = 1u64 << (v % 64);
        self.size[c] = 1;
        Change::Reduced
    }

    /// Begins a new branch: changes from now on are undone by [`Domains::undo`] to the mark
    /// returned.
    pub(super) fn branch(&mut self) -> usize {
        self.stamp += 1;
        self.trail.len()
    }

    /// Restores every domain saved since `mark`.
    pub(super) fn undo(&mut self, mark: usize) {
        let w = self.words;
        while self.trail.len() > mark {
            let (c, at) = self.trail.pop().expect("trail entry");
            let c = c as usize;
            let start = self.trail_bits.len() - w;
            self.bits[c * w..(c + 1) * w].copy_from_slice(&self.trail_bits[start..]);
            self.trail_bits.truncate(start);
            self.size[c] = self.bits[c * w..(c + 1) * w]
                .iter()
                .map(|x| x.count_ones())
                .sum();
            self.saved_at[c] = at;
        }
        self.stamp += 1;
    }

    /// Bytes held by the trail.
    pub(super) fn trail_bytes(&self) -> usize {
        self.trail.len() * 16 + self.trail_bits.len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_are_undone_to_the_mark() {
        let mut d = Domains::full(3, 70);
        assert_eq!(d.words(), 2);
        assert_eq!(d.size(0), 70);
        let root = d.branch();
        assert_eq!(d.remove(0, 65), Change::Reduced);
        assert_eq!(d.remove(0, 65), Change::Same);
        assert_eq!(d.assign(1, 3), Change::Reduced);
        let inner = d.branch();
        assert_eq!(d.remove(1, 3), Change::Wiped);
        assert_eq!(d.remove(0, 2), Change::Reduced);
        assert_eq!(d.size(0), 68);
        d.undo(inner);
        assert_eq!(d.size(1), 1);
        assert_eq!(d.first(1), Some(3));
        assert_eq!(d.size(0), 69);
        assert!(d.contains(0, 2) && !d.contains(0, 65));
        d.undo(root);
        assert_eq!(d.size(0), 70);
        assert_eq!(d.size(1), 70);
    }

    #[test]
    fn restrict_counts_and_wipes() {
        let mut d = Domains::full(1, 9);
        d.branch();
        assert_eq!(d.restrict(0, &[0b1_1111_1111]), Change::Same);
        assert_eq!(d.restrict(0, &[0b101]), Change::Reduced);
        assert_eq!(d.size(0), 2);
        assert_eq!(d.restrict(0, &[0b10]), Change::Wiped);
    }
}
