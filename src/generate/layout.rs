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
//! of the boxes is visible. Not every layout admits a full grid (a region may, for example,
//! cover a row segment that conflicts with the diagonals), so the generator asks the grid
//! filler with a node budget and draws a new layout when it fails, a bounded number of times.

use crate::puzzle::default_box;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Proposals per cell of the grid.
const PROPOSALS_PER_CELL: usize = 30;

/// Proposals between two reads of the clock in [`random_layout_until`] (each costs up to two
/// flood fills of a region, `O(N)`).
const PROPOSALS_PER_CLOCK_READ: usize = 256;

/// A random connected layout of side `n >= 1`: `region[cell]` in `0..n`, each region `n`
/// cells.
pub fn random_layout(n: usize, rng: &mut ChaCha8Rng) -> Vec<u16> {
    random_layout_until(n, rng, None).expect("no deadline")
}

/// [`random_layout`] that reads the clock every [`PROPOSALS_PER_CLOCK_READ`] proposals and
/// gives up (`None`) once `deadline` has passed: at large sides the exchanges and their
/// connectivity checks take seconds. With the same seed and no deadline reached, the same
/// layout as [`random_layout`].
pub fn random_layout_until(
    n: usize,
    rng: &mut ChaCha8Rng,
    deadline: Option<std::time::Instant>,
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
    for proposal in 0..PROPOSALS_PER_CELL * cells {
        if proposal % PROPOSALS_PER_CLOCK_READ == 0
            && deadline.is_some_and(|d| std::time::Instant::now() >= d)
        {
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
        let past = Some(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(1));
        assert!(random_layout_until(64, &mut ChaCha8Rng::seed_from_u64(1), past).is_none());
        assert_eq!(
            random_layout_until(9, &mut ChaCha8Rng::seed_from_u64(7), None),
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

    #[test]
    fn same_seed_same_layout() {
        let a = random_layout(9, &mut ChaCha8Rng::seed_from_u64(7));
        let b = random_layout(9, &mut ChaCha8Rng::seed_from_u64(7));
        let c = random_layout(9, &mut ChaCha8Rng::seed_from_u64(8));
        assert_eq!(a, b);
        assert_ne!(a, c);
    }
}
