//! Naked and hidden singles to a fixpoint, for any side and any house list, restarted from a
//! set of givens many times (the generator's uniqueness checks run it before any solver), or
//! grown given by given and rolled back (the singles-first removal pass).
//!
//! Candidates are bit sets of `ceil(N / 64)` words per cell; for every house and digit the
//! number of cells of the house still holding the digit as a candidate (placed cells
//! included) is kept, so a hidden single (count 1) and a digit with no place (count 0) are
//! found when the count changes, without rescanning houses, and so is the set of those cells
//! (bits by position in the house), so a placement clears its digit from exactly the peers
//! that hold it (no peer table: at side 400 one would take 0.8 GB). These are the two rules
//! every Sudoku propagator starts with (e.g. Norvig's "Solving every Sudoku puzzle", and the
//! singles of Simonis 2005, "Sudoku as a constraint problem").
//!
//! Every candidate removed and every cell placed is recorded on a trail, so that givens added
//! with [`Singles::place`] can be undone with [`Singles::undo`] (the trail of a chronological
//! backtracking solver, as in MiniSat's; Eén and Sörensson 2003): a state is returned to in
//! time proportional to what changed since, not to the grid.
//!
//! A run is not atomic: with a [`Singles::deadline`], the clock is read every
//! [`CLOCK_EVERY`] placements and cells loaded (one run from scratch takes 0.1-0.3 s at side
//! 400), and a run past it stops with [`Stop::Time`] / [`Closure::TimeLimit`].

use crate::puzzle::Geometry;
use crate::search::Deadline;

/// What the singles found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Closure {
    /// A cell or a house-digit was left with no place: no solution.
    Contradiction,
    /// Every cell placed: the only solution.
    Filled,
    /// Cells left with two or more candidates.
    Open,
    /// The deadline passed first: the state is partial (run again, or undo to a mark).
    TimeLimit,
}

#[derive(Clone, Copy)]
enum Job {
    Naked(u32),
    Hidden(u32, u16),
}

/// Why propagation stopped short of a fixpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// No solution left.
    Dead,
    /// The deadline passed; the state is partial.
    Time,
}

/// Why propagation halted inside the propagator: a [`Stop`], or the goal cell of
/// [`Singles::place_until`] about to be placed.
enum Halt {
    Stop(Stop),
    Goal,
}

impl From<Stop> for Halt {
    fn from(stop: Stop) -> Self {
        Halt::Stop(stop)
    }
}

/// Placements (or cells loaded) between two readings of the clock: about a millisecond of
/// work at side 400, and nothing measurable at 9x9, where a run places fewer cells.
pub const CLOCK_EVERY: u32 = 1024;

/// A point of the trail to return to ([`Singles::mark`], [`Singles::undo`]).
#[derive(Clone, Copy, Debug)]
pub struct Mark {
    removed: usize,
    placed: usize,
}

/// The propagator of one geometry, with its working memory (reused between runs).
pub struct Singles {
    n: usize,
    words: usize,
    /// Flat houses (`n` cells each), each cell's houses, and its position in each of them.
    houses: Vec<u32>,
    houses_of: Vec<u32>,
    pos_of: Vec<u32>,
    houses_start: Vec<u32>,
    full: Vec<u64>,
    cand: Vec<u64>,
    value: Vec<u16>,
    count: Vec<u32>,
    /// Per (house, digit): the positions in the house of the cells holding the digit.
    where_in: Vec<u64>,
    house_mask: Vec<u64>,
    queue: Vec<Job>,
    empty: usize,
    /// The trail: candidates removed (`cell * n + digit - 1`) and cells placed, in order.
    removed: Vec<u32>,
    placed: Vec<u32>,
    /// When runs and placements stop with [`Stop::Time`] (`None` = never).
    pub deadline: Deadline,
    /// Placements and cells loaded, for reading the clock every [`CLOCK_EVERY`].
    ticks: u32,
    /// The cell whose placement halts propagation ([`Singles::place_until`]; `usize::MAX` =
    /// none).
    goal: usize,
}

impl Singles {
    pub fn new(g: &Geometry) -> Self {
        let n = g.n();
        let words = n.div_ceil(64);
        let cells = g.cells();
        let houses: Vec<u32> = g.houses().flatten().copied().collect();
        // Each cell's houses in the geometry's order (ascending house numbers), by one
        // counting pass over the flat houses: no per-cell allocation, which at side 1024 (a
        // million cells) took longer than the generator's first reading of the clock.
        let mut houses_start = Vec::with_capacity(cells + 1);
        let mut total = 0u32;
        for c in 0..cells {
            houses_start.push(total);
            total += g.houses_of(c).len() as u32;
        }
        houses_start.push(total);
        let mut fill = houses_start[..cells].to_vec();
        let mut houses_of = vec![0u32; total as usize];
        let mut pos_of = vec![0u32; total as usize];
        for (i, &c) in houses.iter().enumerate() {
            let at = fill[c as usize] as usize;
            houses_of[at] = (i / n) as u32;
            pos_of[at] = (i % n) as u32;
            fill[c as usize] += 1;
        }
        debug_assert!((0..cells).all(|c| {
            let (a, b) = (houses_start[c] as usize, houses_start[c + 1] as usize);
            houses_of[a..b] == *g.houses_of(c)
        }));
        let mut full = vec![0u64; words];
        for d in 0..n {
            full[d / 64] |= 1 << (d % 64);
        }
        Singles {
            n,
            words,
            houses,
            houses_of,
            pos_of,
            houses_start,
            full,
            cand: vec![0; cells * words],
            value: vec![0; cells],
            count: vec![0; g.house_count() * n],
            where_in: vec![0; g.house_count() * n * words],
            house_mask: vec![0; g.house_count() * words],
            queue: Vec::new(),
            empty: 0,
            removed: Vec::new(),
            placed: Vec::new(),
            deadline: Deadline::default(),
            ticks: 0,
            goal: usize::MAX,
        }
    }

    /// Counts one step; every [`CLOCK_EVERY`] steps, whether the deadline has passed.
    fn late(&mut self) -> bool {
        self.ticks = self.ticks.wrapping_add(1);
        self.ticks % CLOCK_EVERY == 0 && self.deadline.expired().is_some()
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
    /// candidate of an empty cell first. Starts a new trail.
    pub fn run(&mut self, givens: &[u16], eliminate: Option<(usize, u16)>) -> Closure {
        let r = self
            .load(givens, eliminate)
            .and_then(|()| self.drain().map_err(stopped));
        self.closure(r)
    }

    fn closure(&self, r: Result<(), Stop>) -> Closure {
        match r {
            Err(Stop::Dead) => Closure::Contradiction,
            Err(Stop::Time) => Closure::TimeLimit,
            Ok(()) if self.empty == 0 => Closure::Filled,
            Ok(()) => Closure::Open,
        }
    }

    /// The current point of the trail.
    pub fn mark(&self) -> Mark {
        Mark {
            removed: self.removed.len(),
            placed: self.placed.len(),
        }
    }

    /// Adds the given `digit` at `cell` to the last state (a fixpoint) and propagates to the
    /// next fixpoint; nothing happens if the cell holds it already. After an error the state
    /// is partial: [`Singles::undo`] to a mark restores it.
    pub fn place(&mut self, cell: usize, digit: u16) -> Result<(), Stop> {
        // No goal: no cell is numbered `usize::MAX`, so this runs to the fixpoint.
        self.place_until(cell, digit, usize::MAX).map(|_| ())
    }

    /// [`Singles::place`], halted as soon as propagation is about to place `goal` (an open
    /// cell other than `cell`, or `usize::MAX` for no goal): `Ok(true)` then, and the state is partial, to be undone to a
    /// mark before anything else is asked of it; `Ok(false)` at a fixpoint that leaves `goal`
    /// open. Singles place `goal` at the fixpoint exactly when they do on the way (the
    /// fixpoint does not depend on the order of the singles), so the answer is the fixpoint's
    /// for a fraction of the work when `goal` is placed early.
    pub fn place_until(&mut self, cell: usize, digit: u16, goal: usize) -> Result<bool, Stop> {
        if self.value[cell] == digit {
            return Ok(false);
        }
        if self.value[cell] != 0 || !self.has(cell, digit) {
            return Err(Stop::Dead);
        }
        self.goal = goal;
        let r = self.assign(cell, digit).and_then(|()| self.drain());
        self.goal = usize::MAX;
        if r.is_err() {
            self.queue.clear();
        }
        match r {
            Ok(()) => Ok(false),
            Err(Halt::Goal) => Ok(true),
            Err(Halt::Stop(stop)) => Err(stop),
        }
    }

    /// Returns to the state of `mark`, undoing every placement and removal since.
    pub fn undo(&mut self, mark: Mark) {
        let (n, words) = (self.n, self.words);
        for c in self.placed.drain(mark.placed..) {
            self.value[c as usize] = 0;
            self.empty += 1;
        }
        for x in self.removed.drain(mark.removed..) {
            let (c, i) = (x as usize / n, x as usize % n);
            self.cand[c * words + i / 64] |= 1 << (i % 64);
            for hi in self.houses_start[c] as usize..self.houses_start[c + 1] as usize {
                let h = self.houses_of[hi] as usize;
                let k = self.pos_of[hi] as usize;
                self.count[h * n + i] += 1;
                self.where_in[(h * n + i) * words + k / 64] |= 1 << (k % 64);
            }
        }
    }

    fn load(&mut self, givens: &[u16], eliminate: Option<(usize, u16)>) -> Result<(), Stop> {
        let (n, words) = (self.n, self.words);
        self.value.copy_from_slice(givens);
        self.removed.clear();
        self.placed.clear();
        self.house_mask.fill(0);
        for h in 0..self.house_count() {
            for &c in &self.houses[h * n..(h + 1) * n] {
                let d = givens[c as usize];
                if d != 0 {
                    let (w, b) = ((d as usize - 1) / 64, (d as usize - 1) % 64);
                    let m = &mut self.house_mask[h * words + w];
                    if *m >> b & 1 == 1 {
                        return Err(Stop::Dead);
                    }
                    *m |= 1 << b;
                }
            }
        }
        self.count.fill(0);
        self.where_in.fill(0);
        self.queue.clear();
        self.empty = 0;
        #[allow(clippy::needless_range_loop)] // `c` indexes four arrays
        for c in 0..givens.len() {
            if self.late() {
                return Err(Stop::Time);
            }
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
                    return Err(Stop::Dead);
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
                    for hi in hs.clone() {
                        let h = self.houses_of[hi] as usize;
                        let k = self.pos_of[hi] as usize;
                        self.count[h * n + d] += 1;
                        self.where_in[(h * n + d) * words + k / 64] |= 1 << (k % 64);
                    }
                }
            }
        }
        for (i, &k) in self.count.iter().enumerate() {
            let (h, d) = (i / n, i % n);
            let given = self.house_mask[h * words + d / 64] >> (d % 64) & 1 == 1;
            match k {
                0 => return Err(Stop::Dead),
                // A digit given in the house is its own only place: nothing to do.
                1 if !given => self.queue.push(Job::Hidden(h as u32, d as u16 + 1)),
                _ => {}
            }
        }
        Ok(())
    }

    /// The cell at the first position of house `h` holding digit index `i`.
    fn first_in(&self, h: usize, i: usize) -> Option<usize> {
        let words = self.words;
        let w = &self.where_in[(h * self.n + i) * words..(h * self.n + i + 1) * words];
        let (j, &word) = w.iter().enumerate().find(|(_, &x)| x != 0)?;
        let k = j * 64 + word.trailing_zeros() as usize;
        Some(self.houses[h * self.n + k] as usize)
    }

    /// Processes the queue to a fixpoint.
    fn drain(&mut self) -> Result<(), Halt> {
        while let Some(job) = self.queue.pop() {
            self.job(job)?;
        }
        Ok(())
    }

    /// Does one queued single (nothing if it was done already).
    fn job(&mut self, job: Job) -> Result<(), Halt> {
        match job {
            Job::Naked(c) => {
                let c = c as usize;
                if self.value[c] == 0 {
                    let d = self.candidates(c).next().ok_or(Stop::Dead)?;
                    self.assign(c, d)?;
                }
            }
            Job::Hidden(h, d) => {
                let cell = self
                    .first_in(h as usize, d as usize - 1)
                    .ok_or(Stop::Dead)?;
                if self.value[cell] == 0 {
                    self.assign(cell, d)?;
                } else if self.value[cell] != d {
                    return Err(Stop::Dead.into());
                }
            }
        }
        Ok(())
    }

    /// Places `d` in the open cell `c`: its other candidates go, and `d` leaves its peers.
    /// The clock is read before anything changes, so a stop leaves the trail exact.
    fn assign(&mut self, c: usize, d: u16) -> Result<(), Halt> {
        if c == self.goal {
            return Err(Halt::Goal);
        }
        if self.late() {
            return Err(Stop::Time.into());
        }
        let (n, words) = (self.n, self.words);
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
        self.placed.push(c as u32);
        self.empty -= 1;
        let i = d as usize - 1;
        for hi in self.houses_start[c] as usize..self.houses_start[c + 1] as usize {
            let h = self.houses_of[hi] as usize;
            for j in 0..words {
                // Re-read each time: removals clear bits of this word as they go.
                loop {
                    let m = self.where_in[(h * n + i) * words + j] & !self.self_bit(hi, j);
                    if m == 0 {
                        break;
                    }
                    let p = self.houses[h * n + j * 64 + m.trailing_zeros() as usize] as usize;
                    if self.value[p] != 0 {
                        return Err(Stop::Dead.into());
                    }
                    self.remove(p, d)?;
                }
            }
        }
        Ok(())
    }

    /// The bit of word `j` of a house's position set that is the cell of `houses_of[hi]`.
    fn self_bit(&self, hi: usize, j: usize) -> u64 {
        let k = self.pos_of[hi] as usize;
        if k / 64 == j {
            1 << (k % 64)
        } else {
            0
        }
    }

    /// Removes candidate `d` of cell `c`, queueing the singles this creates. Every count and
    /// set is updated before a contradiction is reported, so that the trail undoes exactly
    /// what was done.
    fn remove(&mut self, c: usize, d: u16) -> Result<(), Halt> {
        let (n, words) = (self.n, self.words);
        let i = d as usize - 1;
        self.cand[c * words + i / 64] &= !(1 << (i % 64));
        self.removed.push((c * n + i) as u32);
        let mut dead = false;
        for hi in self.houses_start[c] as usize..self.houses_start[c + 1] as usize {
            let h = self.houses_of[hi] as usize;
            let k = self.pos_of[hi] as usize;
            self.where_in[(h * n + i) * words + k / 64] &= !(1 << (k % 64));
            let cnt = &mut self.count[h * n + i];
            *cnt -= 1;
            match *cnt {
                0 => dead = true,
                1 => self.queue.push(Job::Hidden(h as u32, d)),
                _ => {}
            }
        }
        if self.value[c] == 0 {
            match few_bits(&self.cand[c * words..(c + 1) * words]) {
                0 => dead = true,
                1 => self.queue.push(Job::Naked(c as u32)),
                _ => {}
            }
        }
        if dead {
            Err(Stop::Dead.into())
        } else {
            Ok(())
        }
    }
}

/// The number of bits set in `words`, capped at 2: all a removal asks of a cell's candidates.
/// No popcount: without a target CPU that has one, `count_ones` is a dozen instructions per
/// word, and this is on the path of every candidate removed.
fn few_bits(words: &[u64]) -> u32 {
    let mut k = 0;
    for &w in words {
        if w != 0 {
            if k == 1 || w & (w - 1) != 0 {
                return 2;
            }
            k = 1;
        }
    }
    k
}

/// A halt outside [`Singles::place_until`] is a [`Stop`] (no goal is set there).
fn stopped(halt: Halt) -> Stop {
    match halt {
        Halt::Stop(stop) => stop,
        Halt::Goal => unreachable!("a goal is set only inside place_until"),
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
    fn few_bits_counts_to_two() {
        for words in [
            [0u64, 0, 0],
            [0, 1 << 63, 0],
            [0, 0, 3],
            [1, 0, 1],
            [4, 0, 0],
            [0, 5, 8],
        ] {
            let k: u32 = words.iter().map(|w| w.count_ones()).sum();
            assert_eq!(few_bits(&words), k.min(2), "{words:?}");
        }
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

    /// A full grid of `g` (the pattern grid with random switches) and a random order of its
    /// cells, both from `seed`.
    fn full_and_order(g: &Geometry, seed: u64) -> (Vec<u16>, Vec<usize>) {
        use rand::seq::SliceRandom;
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
        let full = super::super::switch::pattern_grid(g, &mut rng).unwrap();
        let mut order: Vec<usize> = (0..full.len()).collect();
        order.shuffle(&mut rng);
        (full, order)
    }

    #[test]
    fn works_beyond_64_digits() {
        let g = Geometry::boxed(100, 10, 10).unwrap();
        let (full, _) = full_and_order(&g, 1);
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

    /// A run past its deadline stops with `TimeLimit` (the clock is read while loading, so
    /// even a run that would place nothing stops), and a later run without one is whole.
    #[test]
    fn a_deadline_stops_a_run() {
        let g = Geometry::boxed(64, 8, 8).unwrap();
        let (full, _) = full_and_order(&g, 2);
        let mut holes = full.clone();
        for c in holes.iter_mut().step_by(3) {
            *c = 0;
        }
        let mut s = Singles::new(&g);
        let whole = s.run(&holes, None);
        assert_ne!(whole, Closure::TimeLimit);
        let values = s.values().to_vec();
        assert!(values.iter().filter(|&&v| v != 0).count() > holes.len() / 2);
        s.deadline = Deadline {
            at: Some(std::time::Instant::now()),
            cancel: None,
        };
        assert_eq!(s.run(&holes, None), Closure::TimeLimit);
        s.deadline = Deadline::after(
            std::time::Instant::now(),
            Some(std::time::Duration::from_secs(3600)),
            None,
        );
        assert_eq!(s.run(&holes, None), whole);
        assert_eq!(s.values(), &values[..]);
    }

    /// Placing a given on a fixpoint gives the fixpoint a run from scratch gives, and undo
    /// returns to the state before (values, candidates), on a 16x16 grid thinned out.
    #[test]
    fn place_and_undo_agree_with_runs_from_scratch() {
        let g = Geometry::square(16).unwrap();
        let (full, order) = full_and_order(&g, 3);
        let mut holes = full.clone();
        for &c in &order[..150] {
            holes[c] = 0;
        }
        let snapshot = |s: &Singles| {
            let cands: Vec<Vec<u16>> = (0..full.len()).map(|c| s.candidates(c).collect()).collect();
            (s.values().to_vec(), cands)
        };
        let (mut inc, mut scratch) = (Singles::new(&g), Singles::new(&g));
        assert_eq!(inc.run(&holes, None), Closure::Open);
        let before = snapshot(&inc);
        let mark = inc.mark();
        let mut partial = holes.clone();
        for &c in &order[..40] {
            inc.place(c, full[c]).unwrap();
            partial[c] = full[c];
            scratch.run(&partial, None);
            assert_eq!(snapshot(&inc), snapshot(&scratch), "after placing cell {c}");
        }
        inc.undo(mark);
        assert_eq!(snapshot(&inc), before);
        // A clash is reported, and undone like the rest.
        let open = (0..full.len()).find(|&c| inc.values()[c] == 0).unwrap();
        let wrong = inc.candidates(open).find(|&d| d != full[open]).unwrap();
        let mark = inc.mark();
        let _ = inc.place(open, wrong);
        inc.undo(mark);
        assert_eq!(snapshot(&inc), before);
    }

    /// `place_until` answers whether the fixpoint places the goal, as `place` then a look at
    /// the goal does, and undo returns to the state before either; on a 25x25 grid thinned
    /// out just past where singles stop filling it, so that some placements place their
    /// goal and some do not.
    #[test]
    fn place_until_answers_as_the_fixpoint_does() {
        let g = Geometry::square(25).unwrap();
        let (full, order) = full_and_order(&g, 4);
        let mut s = Singles::new(&g);
        // Just past the first number of holes singles do not fill: some placements re-fill
        // the grid, some do not.
        let mut holes = full.clone();
        let mut k = 0;
        while s.run(&holes, None) == Closure::Filled {
            holes[order[k]] = 0;
            k += 1;
        }
        for &c in &order[k..k + 30] {
            holes[c] = 0;
        }
        assert_eq!(s.run(&holes, None), Closure::Open);
        let open: Vec<usize> = (0..full.len()).filter(|&c| s.values()[c] == 0).collect();
        assert!(open.len() >= 20);
        let snapshot = |s: &Singles| -> Vec<Vec<u16>> {
            (0..full.len()).map(|c| s.candidates(c).collect()).collect()
        };
        let before = snapshot(&s);
        let (mut reached, mut missed) = (0, 0);
        for pair in open.chunks(2).take(60) {
            let (cell, goal) = (pair[0], pair[pair.len() - 1]);
            if cell == goal {
                continue;
            }
            let mark = s.mark();
            s.place(cell, full[cell]).unwrap();
            let placed = s.values()[goal] != 0;
            s.undo(mark);
            assert_eq!(snapshot(&s), before);
            let halted = s.place_until(cell, full[cell], goal).unwrap();
            assert_eq!(halted, placed, "cell {cell}, goal {goal}");
            if halted {
                reached += 1;
            } else {
                missed += 1;
                // At a fixpoint that leaves the goal open, as `place` does.
                assert_eq!(s.values()[goal], 0);
            }
            s.undo(mark);
            assert_eq!(snapshot(&s), before);
        }
        assert!(
            reached > 0 && missed > 0,
            "{reached} reached, {missed} missed"
        );
    }
}
