//! Naked and hidden singles to a fixpoint, for any side and any house list, restarted from a
//! set of givens many times (the generator's uniqueness checks run it before any solver).
//!
//! Candidates are bit sets of `ceil(N / 64)` words per cell; for every house and digit the
//! number of cells of the house still holding the digit as a candidate (placed cells
//! included) is kept, so a hidden single (count 1) and a digit with no place (count 0) are
//! found when the count changes, without rescanning houses. A placement clears its digit
//! from the peers through the houses (no peer table: at side 400 one would take 0.8 GB).
//! These are the two rules every Sudoku propagator starts with (e.g. Norvig's "Solving
//! every Sudoku puzzle", and the singles of Simonis 2005, "Sudoku as a constraint problem").

use crate::puzzle::Geometry;

/// What the singles found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closure {
    /// A cell or a house-digit was left with no place: no solution.
    Contradiction,
    /// Every cell placed: the only solution.
    Filled,
    /// Cells left with two or more candidates.
    Open,
}

#[derive(Clone, Copy)]
enum Job {
    Naked(u32),
    Hidden(u32, u16),
}

struct Dead;

/// The propagator of one geometry, with its working memory (reused between runs).
pub struct Singles {
    n: usize,
    words: usize,
    /// Flat houses (`n` cells each) and each cell's houses.
    houses: Vec<u32>,
    houses_of: Vec<u32>,
    houses_start: Vec<u32>,
    full: Vec<u64>,
    cand: Vec<u64>,
    value: Vec<u16>,
    count: Vec<u32>,
    house_mask: Vec<u64>,
    queue: Vec<Job>,
    empty: usize,
}

impl Singles {
    pub fn new(g: &Geometry) -> Self {
        let n = g.n();
        let words = n.div_ceil(64);
        let cells = g.cells();
        let mut houses_of = Vec::with_capacity(cells * 3);
        let mut houses_start = Vec::with_capacity(cells + 1);
        for c in 0..cells {
            houses_start.push(houses_of.len() as u32);
            houses_of.extend_from_slice(g.houses_of(c));
        }
        houses_start.push(houses_of.len() as u32);
        let mut full = vec![0u64; words];
        for d in 0..n {
            full[d / 64] |= 1 << (d % 64);
        }
        Singles {
            n,
            words,
            houses: g.houses().flatten().copied().collect(),
            houses_of,
            houses_start,
            full,
            cand: vec![0; cells * words],
            value: vec![0; cells],
            count: vec![0; g.house_count() * n],
            house_mask: vec![0; g.house_count() * words],
            queue: Vec::new(),
            empty: 0,
        }
    }

    /// Digits placed by the last run (`0` = open cell).
    pub fn values(&self) -> &[u16] {
        &self.value
    }

    /// Candidates (digits from 1) of `cell` after the last run.
    pub fn candidates(&self, cell: usize) -> impl Iterator<Item = u16> + '_ {
        let w = &self.cand[cell * self.words..(cell + 1) * self.words];
        w.iter().enumerate().flat_map(|(i, &word)| {
            let mut m = word;
            std::iter::from_fn(move || {
                (m != 0).then(|| {
                    let b = m.trailing_zeros();
                    m &= m - 1;
                    (i * 64) as u16 + b as u16 + 1
                })
            })
        })
    }

    /// Whether `digit` is still a candidate of `cell`.
    pub fn has(&self, cell: usize, digit: u16) -> bool {
        let d = digit as usize - 1;
        self.cand[cell * self.words + d / 64] >> (d % 64) & 1 == 1
    }

    /// The houses of `cell`.
    pub fn houses_of(&self, cell: usize) -> &[u32] {
        &self.houses_of[self.houses_start[cell] as usize..self.houses_start[cell + 1] as usize]
    }

    /// The cells of house `h`.
    pub fn house(&self, h: usize) -> &[u32] {
        &self.houses[h * self.n..(h + 1) * self.n]
    }

    /// Side of the grid.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of houses.
    pub fn house_count(&self) -> usize {
        self.houses.len() / self.n
    }

    /// Singles from `givens` (`0` = empty), with `eliminate = Some((cell, digit))` removing one
    /// candidate of an empty cell first.
    pub fn run(&mut self, givens: &[u16], eliminate: Option<(usize, u16)>) -> Closure {
        match self.propagate(givens, eliminate) {
            Err(Dead) => Closure::Contradiction,
            Ok(()) if self.empty == 0 => Closure::Filled,
            Ok(()) => Closure::Open,
        }
    }

    fn propagate(&mut self, givens: &[u16], eliminate: Option<(usize, u16)>) -> Result<(), Dead> {
        let (n, words) = (self.n, self.words);
        self.value.copy_from_slice(givens);
        self.house_mask.fill(0);
        for h in 0..self.house_count() {
            for &c in &self.houses[h * n..(h + 1) * n] {
                let d = givens[c as usize];
                if d != 0 {
                    let (w, b) = ((d as usize - 1) / 64, (d as usize - 1) % 64);
                    let m = &mut self.house_mask[h * words + w];
                    if *m >> b & 1 == 1 {
                        return Err(Dead);
                    }
                    *m |= 1 << b;
                }
            }
        }
        self.count.fill(0);
        self.queue.clear();
        self.empty = 0;
        #[allow(clippy::needless_range_loop)] // `c` indexes four arrays
        for c in 0..givens.len() {
            let hs = self.houses_start[c] as usize..self.houses_start[c + 1] as usize;
            let cand = &mut self.cand[c * words..(c + 1) * words];
            let d = givens[c];
            if d != 0 {
                cand.fill(0);
                cand[(d as usize - 1) / 64] = 1 << ((d as usize - 1) % 64);
            } else {
                self.empty += 1;
                cand.copy_from_slice(&self.full);
                for &h in &self.houses_of[hs.clone()] {
                    let m = &self.house_mask[h as usize * words..(h as usize + 1) * words];
                    for (x, &y) in cand.iter_mut().zip(m) {
                        *x &= !y;
                    }
                }
                if let Some((e, ed)) = eliminate {
                    if e == c {
                        cand[(ed as usize - 1) / 64] &= !(1 << ((ed as usize - 1) % 64));
                    }
                }
                let k: u32 = cand.iter().map(|w| w.count_ones()).sum();
                if k == 0 {
                    return Err(Dead);
                }
                if k == 1 {
                    self.queue.push(Job::Naked(c as u32));
                }
            }
            for (i, &word) in cand.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let d = i * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    for &h in &self.houses_of[hs.clone()] {
                        self.count[h as usize * n + d] += 1;
                    }
                }
            }
        }
        for (i, &k) in self.count.iter().enumerate() {
            match k {
                0 => return Err(Dead),
                1 => self
                    .queue
                    .push(Job::Hidden((i / n) as u32, (i % n) as u16 + 1)),
                _ => {}
            }
        }
        while let Some(job) = self.queue.pop() {
            match job {
                Job::Naked(c) => {
                    let c = c as usize;
                    if self.value[c] == 0 {
                        let d = self.candidates(c).next().ok_or(Dead)?;
                        self.assign(c, d)?;
                    }
                }
                Job::Hidden(h, d) => {
                    let h = h as usize;
                    let cell = self.houses[h * n..(h + 1) * n]
                        .iter()
                        .map(|&c| c as usize)
                        .find(|&c| self.has(c, d))
                        .ok_or(Dead)?;
                    if self.value[cell] == 0 {
                        self.assign(cell, d)?;
                    } else if self.value[cell] != d {
                        return Err(Dead);
                    }
                }
            }
        }
        Ok(())
    }

    /// Places `d` in the open cell `c`: its other candidates go, and `d` leaves its peers.
    fn assign(&mut self, c: usize, d: u16) -> Result<(), Dead> {
        let words = self.words;
        for i in 0..words {
            let mut m = self.cand[c * words + i];
            while m != 0 {
                let e = (i * 64) as u16 + m.trailing_zeros() as u16 + 1;
                m &= m - 1;
                if e != d {
                    self.remove(c, e)?;
                }
            }
        }
        self.value[c] = d;
        self.empty -= 1;
        let hs = self.houses_start[c] as usize..self.houses_start[c + 1] as usize;
        for hi in hs {
            let h = self.houses_of[hi] as usize;
            for k in 0..self.n {
                let p = self.houses[h * self.n + k] as usize;
                if p != c && self.has(p, d) {
                    if self.value[p] != 0 {
                        return Err(Dead);
                    }
                    self.remove(p, d)?;
                }
            }
        }
        Ok(())
    }

    /// Removes candidate `d` of the open cell `c`, queueing the singles this creates.
    fn remove(&mut self, c: usize, d: u16) -> Result<(), Dead> {
        let (n, words) = (self.n, self.words);
        let i = d as usize - 1;
        self.cand[c * words + i / 64] &= !(1 << (i % 64));
        for hi in self.houses_start[c] as usize..self.houses_start[c + 1] as usize {
            let h = self.houses_of[hi] as usize;
            let k = &mut self.count[h * n + i];
            *k -= 1;
            match *k {
                0 => return Err(Dead),
                1 => self.queue.push(Job::Hidden(h as u32, d)),
                _ => {}
            }
        }
        if self.value[c] == 0 {
            let k: u32 = self.cand[c * words..(c + 1) * words]
                .iter()
                .map(|w| w.count_ones())
                .sum();
            match k {
                0 => return Err(Dead),
                1 => self.queue.push(Job::Naked(c as u32)),
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> Vec<u16> {
        s.bytes()
            .map(|b| if b == b'.' { 0 } else { (b - b'0') as u16 })
            .collect()
    }

    #[test]
    fn solves_an_easy_9x9_and_finds_its_solution() {
        let g = Geometry::square(9).unwrap();
        let p = grid(
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
        );
        let mut s = Singles::new(&g);
        assert_eq!(s.run(&p, None), Closure::Filled);
        assert_eq!(g.check_grid(s.values()), Ok(()));
        assert!(s.values().starts_with(&[4, 8, 3, 9, 2, 1, 6, 5, 7]));
        // Forbidding the solution's digit in one cell leaves no solution: singles see it.
        assert_eq!(s.run(&p, Some((0, 4))), Closure::Contradiction);
    }

    #[test]
    fn a_hard_puzzle_stays_open_and_clashes_are_contradictions() {
        let g = Geometry::square(9).unwrap();
        let hard = grid(
            "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..",
        );
        let mut s = Singles::new(&g);
        assert_eq!(s.run(&hard, None), Closure::Open);
        assert!(s.candidates(1).count() >= 2);
        let mut clash = hard.clone();
        clash[1] = 8;
        assert_eq!(s.run(&clash, None), Closure::Contradiction);
    }

    #[test]
    fn works_beyond_64_digits() {
        let g = Geometry::boxed(100, 10, 10).unwrap();
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
        let full = super::super::switch::pattern_grid(&g, &mut rng).unwrap();
        let mut holes = full.clone();
        // The first row emptied: each of its cells misses one digit in its column.
        for c in holes.iter_mut().take(100) {
            *c = 0;
        }
        let mut s = Singles::new(&g);
        assert_eq!(s.run(&holes, None), Closure::Filled);
        assert_eq!(s.values(), &full[..]);
        assert_eq!(s.run(&holes, Some((5, full[5]))), Closure::Contradiction);
    }
}
