//! Random jigsaw layouts: `N` regions of `N` cells each, every region 4-connected.
//!
//! # Method
//!
//! A random walk over valid layouts. It starts from the box layout of [`default_box`] (valid
//! and connected for every side: a prime side has `1 x N` boxes, the rows) and proposes
//! `30 N^2` *exchanges*: pick a random cell `a` and a random orthogonal neighbour `b` in
//! another region; `a` moves to `b`'s region and a random cell of `b`'s region that touches
//! `a`'s region moves the other way. Region sizes never change; the exchange is kept only if
//! both regions stay connected (checked by a flood fill of the two regions, `O(N)`), so every
//! layout on the walk is valid and no retry loop is needed. This is the move set of the test
//! suite's layout generator, done with per-region member lists so that a proposal costs
//! `O(N)` rather than `O(N^2)`.
//!
//! The walk does not sample layouts uniformly (nothing simple does; even counting the
//! connected layouts of 9x9 is a hard enumeration), but after `30 N^2` proposals no trace
//! of the boxes is visible.
//!
//! # Layouts around a grid
//!
//! Not every layout admits a full grid, and from side 16 up most random ones do not, or not
//! within a search budget: drawing layouts first and searching for a grid after, the
//! generator failed every 20x20 and 25x25 request after 200 layouts (7-15 s) and some 16x16
//! ones. So the generator draws the grid first, a random full grid of the box geometry, and
//! [`random_layout_around`] walks with exchanges that keep it a solution: `back` must hold
//! `a`'s digit. Each region starts as a box holding every digit once and gives a cell for a
//! cell of the same digit, so it holds every digit once after every exchange, and rows,
//! columns and diagonals are untouched by the walk. In `to` exactly one cell holds `a`'s digit, so
//! fewer proposals are kept than in the free walk; the walk makes `4x` as many
//! (`AROUND_FACTOR`).

use crate::puzzle::default_box;
use crate::search::Deadline;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Proposals per cell of the grid.
const PROPOSALS_PER_CELL: usize = 30;

/// How many times more proposals the walk around a grid makes: one cell of a region can take
/// part in an exchange with a given cell, against every cell of it touching the other region.
const AROUND_FACTOR: usize = 4;

/// Proposals between two reads of the clock in [`random_layout_until`] (each costs up to two
/// flood fills of a region, `O(N)`).
const PROPOSALS_PER_CLOCK_READ: usize = 256;

/// A random connected layout of side `n >= 1`: `region[cell]` in `0..n`, each region `n`
/// cells.
pub fn random_layout(n: usize, rng: &mut ChaCha8Rng) -> Vec<u16> {
    random_layout_until(n, rng, &Deadline::default()).expect("no deadline")
}

/// [`random_layout`] that reads the clock every `PROPOSALS_PER_CLOCK_READ` proposals and
/// gives up (`None`) once `deadline` has passed: at large sides the exchanges and their
/// connectivity checks take seconds. With the same seed and no deadline reached, the same
/// layout as [`random_layout`].
pub fn random_layout_until(
    n: usize,
    rng: &mut ChaCha8Rng,
    deadline: &Deadline,
) -> Option<Vec<u16>> {
    walk(n, None, rng, deadline)
}

/// The exchange walk from the boxes; with `grid`, only exchanges of cells holding the same
/// digit of it.
fn walk(
    n: usize,
    grid: Option<&[u16]>,
    rng: &mut ChaCha8Rng,
    deadline: &Deadline,
) -> Option<Vec<u16>> {
    let (br, bc) = default_box(n);
    let cells = n * n;
    let mut region: Vec<u16> = (0..cells)
        .map(|c| ((c / n / br) * (n / bc) + (c % n) / bc) as u16)
        .collect();
    let mut members: Vec<Vec<u32>> = vec![Vec::with_capacity(n); n];
    for (c, &r) in region.iter().enumerate() {
        members[r as usize].push(c as u32);
    }
    if n < 2 {
        return Some(region);
    }
    let mut flood = Flood::new(cells);
    let mut candidates = Vec::with_capacity(n);
    let proposals = PROPOSALS_PER_CELL * cells * if grid.is_some() { AROUND_FACTOR } else { 1 };
    for proposal in 0..proposals {
        if proposal % PROPOSALS_PER_CLOCK_READ == 0 && deadline.expired().is_some() {
            return None;
        }
        let a = rng.gen_range(0..cells);
        let Some(b) = neighbours(a, n)[rng.gen_range(0..4)] else {
            continue;
        };
        let (from, to) = (region[a], region[b]);
        if from == to {
            continue;
        }
        candidates.clear();
        candidates.extend(
            members[to as usize]
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| {
                    c != b
                        && grid.map_or(true, |g| g[c] == g[a])
                        && neighbours(c, n)
                            .iter()
                            .flatten()
                            .any(|&d| d != a && region[d] == from)
                }),
        );
        let Some(&back) = candidates.choose(rng) else {
            continue;
        };
        region[a] = to;
        region[back] = from;
        if flood.connected(&region, n, a_members(&members, from, a, back))
            && flood.connected(&region, n, a_members(&members, to, back, a))
        {
            replace(&mut members[from as usize], a, back);
            replace(&mut members[to as usize], back, a);
        } else {
            region[a] = from;
            region[back] = to;
        }
    }
    // Regions numbered in order of first appearance in reading order, as the readers number
    // them, so that a written puzzle reads back equal (not just equivalent).
    let mut rename = vec![u16::MAX; n];
    let mut next = 0;
    for r in &mut region {
        if rename[*r as usize] == u16::MAX {
            rename[*r as usize] = next;
            next += 1;
        }
        *r = rename[*r as usize];
    }
    Some(region)
}

/// A random connected layout of side `n` for which `grid`, a full grid of the box layout of
/// [`default_box`] (`grid[cell]` in `1..=n`), is a solution: the walk of
/// [`random_layout_until`] restricted to exchanges of two cells holding the same digit (see
/// the module doc). `None` once `deadline` has passed.
pub fn random_layout_around(
    n: usize,
    grid: &[u16],
    rng: &mut ChaCha8Rng,
    deadline: &Deadline,
) -> Option<Vec<u16>> {
    walk(n, Some(grid), rng, deadline)
}

/// The cells of region `r` after the exchange: its members with `out` replaced by `inn`.
fn a_members(
    members: &[Vec<u32>],
    r: u16,
    out: usize,
    inn: usize,
) -> impl Iterator<Item = usize> + '_ {
    members[r as usize]
        .iter()
        .map(move |&c| if c as usize == out { inn } else { c as usize })
}

fn replace(list: &mut [u32], out: usize, inn: usize) {
    if let Some(slot) = list.iter_mut().find(|c| **c as usize == out) {
        *slot = inn as u32;
    }
}

/// The up to four orthogonal neighbours of `c`.
fn neighbours(c: usize, n: usize) -> [Option<usize>; 4] {
    let (r, k) = (c / n, c % n);
    [
        (r > 0).then(|| c - n),
        (r + 1 < n).then(|| c + n),
        (k > 0).then(|| c - 1),
        (k + 1 < n).then(|| c + 1),
    ]
}

/// Flood fill with a generation-stamped visited array, reused across checks.
struct Flood {
    seen: Vec<u32>,
    stamp: u32,
    stack: Vec<usize>,
}

impl Flood {
    fn new(cells: usize) -> Self {
        Flood {
            seen: vec![0; cells],
            stamp: 0,
            stack: Vec::new(),
        }
    }

    /// Whether the cells `cells` (all of one region of `region`) are 4-connected.
    fn connected(&mut self, region: &[u16], n: usize, cells: impl Iterator<Item = usize>) -> bool {
        let cells: Vec<usize> = cells.collect();
        let Some(&start) = cells.first() else {
            return true;
        };
        self.stamp += 1;
        let r = region[start];
        self.seen[start] = self.stamp;
        self.stack.clear();
        self.stack.push(start);
        let mut reached = 1;
        while let Some(c) = self.stack.pop() {
            for d in neighbours(c, n).into_iter().flatten() {
                if region[d] == r && self.seen[d] != self.stamp {
                    self.seen[d] = self.stamp;
                    reached += 1;
                    self.stack.push(d);
                }
            }
        }
        reached == cells.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deadline that has passed ends the exchanges; none gives `random_layout`'s layout.
    #[test]
    fn the_layout_reads_the_clock() {
        let past = Deadline {
            at: Some(std::time::Instant::now()),
            cancel: None,
        };
        std::thread::sleep(std::time::Duration::from_millis(1));
        assert!(random_layout_until(64, &mut ChaCha8Rng::seed_from_u64(1), &past).is_none());
        assert_eq!(
            random_layout_until(9, &mut ChaCha8Rng::seed_from_u64(7), &Deadline::default()),
            Some(random_layout(9, &mut ChaCha8Rng::seed_from_u64(7)))
        );
    }
    use crate::puzzle::Geometry;
    use rand::SeedableRng;

    #[test]
    fn layouts_are_valid_connected_and_not_boxes() {
        for n in [4, 5, 6, 7, 9, 12, 16] {
            for seed in 0..4 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let layout = random_layout(n, &mut rng);
                let g = Geometry::jigsaw(n, layout.clone()).expect("valid layout");
                assert_eq!(g.disconnected_region(), None, "n {n} seed {seed}");
                let boxes = Geometry::square(n).unwrap();
                assert_ne!(
                    g.regions(),
                    boxes.regions(),
                    "n {n} seed {seed}: still boxes"
                );
            }
        }
    }

    /// A layout around a grid keeps the grid a solution, is connected and is no longer boxes.
    #[test]
    fn layouts_around_a_grid_keep_it_a_solution() {
        use crate::generate::fill::Filler;
        for n in [4, 6, 9, 12, 16, 25] {
            let (r, c) = default_box(n);
            let boxes = Geometry::boxed(n, r, c).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
            let grid = Filler::new(&boxes)
                .random_grid(&mut rng, 4 * (n * n) as u64, 1000)
                .expect("a full grid");
            let layout = random_layout_around(n, &grid, &mut rng, &Deadline::default()).unwrap();
            let g = Geometry::jigsaw(n, layout).expect("valid layout");
            assert_eq!(g.disconnected_region(), None, "n {n}");
            assert_ne!(g.regions(), boxes.regions(), "n {n}: still boxes");
            for house in g.houses() {
                let mut digits: Vec<u16> = house.iter().map(|&c| grid[c as usize]).collect();
                digits.sort_unstable();
                assert_eq!(digits, (1..=n as u16).collect::<Vec<_>>(), "n {n}");
            }
        }
    }

    #[test]
    fn same_seed_same_layout() {
        let a = random_layout(9, &mut ChaCha8Rng::seed_from_u64(7));
        let b = random_layout(9, &mut ChaCha8Rng::seed_from_u64(7));
        let c = random_layout(9, &mut ChaCha8Rng::seed_from_u64(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
