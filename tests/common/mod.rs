//! Test support: random valid grids and jigsaw layouts, made independently of the engines
//! under test (a small randomised filler of its own), and puzzles cut from them.
#![allow(dead_code)]

use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;
use sudolab::puzzle::{Geometry, Puzzle};

pub type TestRng = ChaCha8Rng;

pub fn rng(seed: u64) -> TestRng {
    use rand::SeedableRng;
    ChaCha8Rng::seed_from_u64(seed)
}

/// Fills `grid` (0 = empty) to a complete valid grid with a randomised most-constrained-cell
/// search; `None` when `budget` nodes are not enough (the caller restarts or gives up).
pub fn random_fill(g: &Geometry, grid: &mut [u16], rng: &mut TestRng, budget: &mut u64) -> bool {
    let n = g.n();
    assert!(n <= 32);
    // used[h] = digits used in house h, bit d-1
    let mut used = vec![0u32; g.house_count()];
    for (c, &d) in grid.iter().enumerate() {
        if d != 0 {
            for &h in g.houses_of(c) {
                used[h as usize] |= 1 << (d - 1);
            }
        }
    }
    fill_rec(g, grid, &mut used, rng, budget)
}

fn fill_rec(
    g: &Geometry,
    grid: &mut [u16],
    used: &mut [u32],
    rng: &mut TestRng,
    budget: &mut u64,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let full = if g.n() == 32 {
        u32::MAX
    } else {
        (1u32 << g.n()) - 1
    };
    let mut best: Option<(usize, u32)> = None;
    for (c, &d) in grid.iter().enumerate() {
        if d != 0 {
            continue;
        }
        let mut cand = full;
        for &h in g.houses_of(c) {
            cand &= !used[h as usize];
        }
        if best.map_or(true, |(_, b)| cand.count_ones() < b.count_ones()) {
            best = Some((c, cand));
            if cand.count_ones() <= 1 {
                break;
            }
        }
    }
    let Some((cell, cand)) = best else {
        return true;
    };
    let mut digits: Vec<u16> = (0..g.n() as u16).filter(|d| cand >> d & 1 == 1).collect();
    digits.shuffle(rng);
    for d in digits {
        grid[cell] = d + 1;
        for &h in g.houses_of(cell) {
            used[h as usize] |= 1 << d;
        }
        if fill_rec(g, grid, used, rng, budget) {
            return true;
        }
        for &h in g.houses_of(cell) {
            used[h as usize] &= !(1 << d);
        }
        grid[cell] = 0;
    }
    false
}

/// A random full grid of `g`, or `None` if the filler's budget ran out (e.g. a jigsaw layout
/// with no solution).
pub fn random_grid(g: &Geometry, rng: &mut TestRng) -> Option<Vec<u16>> {
    for _ in 0..5 {
        let mut grid = vec![0u16; g.cells()];
        let mut budget = 20_000;
        if random_fill(g, &mut grid, rng, &mut budget) {
            g.check_grid(&grid).expect("filler made a bad grid");
            return Some(grid);
        }
    }
    None
}

/// A random jigsaw layout of side `n`: start from the default boxes and swap cells between
/// adjacent regions many times, keeping every region connected and of size `n`.
pub fn random_layout(n: usize, rng: &mut TestRng) -> Vec<u16> {
    let base = Geometry::square(n).unwrap();
    let mut region: Vec<u16> = base.regions().to_vec();
    let swaps = 40 * n;
    for _ in 0..swaps {
        let a = rng.gen_range(0..n * n);
        let (ra, ca) = (a / n, a % n);
        let nb = [(0i64, 1i64), (1, 0), (0, -1), (-1, 0)];
        let (dr, dc) = nb[rng.gen_range(0..4)];
        let (rb, cb) = (ra as i64 + dr, ca as i64 + dc);
        if rb < 0 || cb < 0 || rb >= n as i64 || cb >= n as i64 {
            continue;
        }
        let b = rb as usize * n + cb as usize;
        if region[a] == region[b] {
            continue;
        }
        // Give cell `a` to b's region and some cell of b's region adjacent to a's region back.
        let (from, to) = (region[a], region[b]);
        let candidates: Vec<usize> = (0..n * n)
            .filter(|&c| region[c] == to && c != b && touches(&region, n, c, from))
            .collect();
        let Some(&back) = candidates.choose(rng) else {
            continue;
        };
        let mut next = region.clone();
        next[a] = to;
        next[back] = from;
        if let Ok(g) = Geometry::jigsaw(n, next.clone()) {
            if g.disconnected_region().is_none() {
                region = next;
            }
        }
    }
    region
}

fn touches(region: &[u16], n: usize, c: usize, r: u16) -> bool {
    let (row, col) = (c / n, c % n);
    (row > 0 && region[c - n] == r)
        || (row + 1 < n && region[c + n] == r)
        || (col > 0 && region[c - 1] == r)
        || (col + 1 < n && region[c + 1] == r)
}

/// Geometries the property tests draw from: boxed 4/6/9, jigsaw 4/6/9, X 4/6/9.
pub fn geometry(kind: u8, n: usize, rng: &mut TestRng) -> Arc<Geometry> {
    let g = match kind % 3 {
        0 => Geometry::square(n).unwrap(),
        1 => Geometry::jigsaw(n, random_layout(n, rng)).unwrap(),
        _ => Geometry::square(n).unwrap().with_diagonals(true),
    };
    Arc::new(g)
}

/// A puzzle cut from a random full grid: `holes` cells emptied at random; with `spoil`, one
/// more empty cell gets a random digit (often making the puzzle unsat, sometimes clashing).
pub fn puzzle_from(
    g: Arc<Geometry>,
    rng: &mut TestRng,
    holes: usize,
    spoil: bool,
) -> Option<Puzzle> {
    let mut grid = random_grid(&g, rng)?;
    let mut cells: Vec<usize> = (0..g.cells()).collect();
    cells.shuffle(rng);
    for &c in cells.iter().take(holes.min(g.cells())) {
        grid[c] = 0;
    }
    if spoil {
        if let Some(&c) = cells.iter().take(holes).next() {
            grid[c] = rng.gen_range(1..=g.n() as u16);
        }
    }
    Some(Puzzle::new(g, grid).unwrap())
}

/// Parses an 81-character (or N*N) line with `.`/`0` for empty and digits 1-9.
pub fn line_puzzle(line: &str) -> Puzzle {
    let digits: Vec<u16> = line
        .trim()
        .chars()
        .map(|ch| ch.to_digit(10).map(|d| d as u16).unwrap_or(0))
        .collect();
    let n = (digits.len() as f64).sqrt() as usize;
    Puzzle::new(Arc::new(Geometry::square(n).unwrap()), digits).unwrap()
}

/// A file of the project's `data/` directory.
pub fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// Runs the `sudolab` binary built for the tests (the `cli` feature builds it).
#[cfg(feature = "cli")]
pub fn sudolab(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .output()
        .expect("run sudolab")
}

/// The published solutions of a puzzlekit JSON set of `data/` (`solution`: a `R C` line,
/// then rows of tokens; `-`, a void cell, is read as 0), by puzzle id, read independently
/// of the tool's reader.
pub fn published_solutions(name: &str) -> std::collections::HashMap<String, Vec<u16>> {
    published_solutions_of(&data(name))
}

/// [`published_solutions`] of any puzzlekit file.
pub fn published_solutions_of(
    path: &std::path::Path,
) -> std::collections::HashMap<String, Vec<u16>> {
    let text = std::fs::read_to_string(path).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["data"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(id, e)| {
            let digits = e["solution"]
                .as_str()
                .unwrap()
                .lines()
                .skip(1)
                .flat_map(|l| l.split_whitespace().map(|t| t.parse::<u16>().unwrap_or(0)))
                .collect();
            (id.clone(), digits)
        })
        .collect()
}

/// Solves a DIMACS text with an embedded solver (batsat): the model, or `None` when
/// unsatisfiable.
pub fn solve_dimacs(text: &str) -> Option<sudolab::cnf::Model> {
    use sudolab::cnf::{make_backend, read_dimacs_str, Deadline, SatAnswer};
    let d = read_dimacs_str(text).unwrap();
    let mut s = make_backend("batsat").unwrap();
    s.reserve_vars(d.num_vars);
    for c in d.clauses.iter() {
        s.add_clause(c);
    }
    match s.solve(&[], &Deadline::default()).unwrap() {
        SatAnswer::Sat(m) => Some(m),
        _ => None,
    }
}

/// A model as a solver's output file (`s SATISFIABLE`, one `v` line).
pub fn model_file(m: &sudolab::cnf::Model) -> String {
    let mut t = String::from("s SATISFIABLE\nv");
    for l in m.lits() {
        t.push_str(&format!(" {l}"));
    }
    t.push_str(" 0\n");
    t
}
