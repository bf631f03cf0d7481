//! Killer sudoku (cages): the janko.at set of `data/variants/killer-janko.json` read from
//! puzzlekit JSON, answered with each published solution by `backtrack`, `dlx` (both cage
//! formulations, which also agree on killers with many solutions), `human`,
//! `binary` (all 299), `bitmask` and `bnb` (every 4x4 and 6x6, the 9x9 ones within a node
//! limit; `sat`: tests/killer_sat.rs), refused by the engines and reductions that do not
//! enforce cages, and bad cages reported with their place.

mod common;

use common::{data, sudolab};
use sudolab::engines::{make, run as run_engine, EngineOptions, EngineSpec, Limits, Status};
use sudolab::puzzle::{read_file, read_str, ReadOptions, SourcedPuzzle};

/// The published solutions, by puzzle id (read independently of the tool's reader).
fn published() -> std::collections::HashMap<String, Vec<u16>> {
    common::published_solutions("variants/killer-janko.json")
}

fn killers(options: &ReadOptions) -> Vec<SourcedPuzzle> {
    read_file(&data("variants/killer-janko.json"), options)
        .unwrap()
        .1
}

fn backtrack_answer(p: &SourcedPuzzle, node_limit: Option<u64>) -> (Status, Vec<Vec<u16>>) {
    let mut engine = make("backtrack", &EngineOptions::new()).unwrap();
    let limits = Limits {
        node_limit,
        ..Limits::solutions(2)
    };
    let o = run_engine(engine.as_mut(), &p.puzzle, &limits);
    (o.status, o.solutions)
}

/// Every 4x4 and 6x6 killer of the set (144), and the 9x9 ones backtrack settles within 2M
/// nodes, are unique with the published solution.
#[test]
fn backtrack_gives_the_published_solutions() {
    let solutions = published();
    let puzzles = killers(&ReadOptions::default());
    assert_eq!(puzzles.len(), 299);
    let (mut small, mut nine) = (0, 0);
    for p in &puzzles {
        let id = p.name.clone().unwrap();
        assert_eq!(p.puzzle.variant(), "killer", "{id}");
        let limit = if p.puzzle.n() < 9 {
            None
        } else {
            Some(2_000_000)
        };
        let (status, grids) = backtrack_answer(p, limit);
        if status == Status::NodeLimit {
            continue;
        }
        if ["196_9x9", "197_9x9", "198_9x9"].contains(&id.as_str()) {
            // Killer-X on janko.at: without the diagonals they have several solutions.
            assert_eq!(status, Status::Multiple, "{id}");
            continue;
        }
        assert_eq!(status, Status::Unique, "{id}");
        assert_eq!(grids[0], solutions[&id], "{id}");
        if p.puzzle.n() < 9 {
            small += 1;
        } else {
            nine += 1;
        }
    }
    assert_eq!(small, 144);
    assert!(
        nine >= 100,
        "{nine} 9x9 killers answered within the node limit"
    );
}

/// The killer-X puzzles of the set are unique with `--diagonals`, with the published solution.
#[test]
fn killer_x_needs_the_diagonals() {
    let solutions = published();
    let options = ReadOptions {
        diagonals: true,
        ..ReadOptions::default()
    };
    for p in killers(&options)
        .iter()
        .filter(|p| ["196_9x9", "198_9x9"].contains(&p.name.as_deref().unwrap()))
    {
        assert_eq!(p.puzzle.variant(), "killer-x");
        let (status, grids) = backtrack_answer(p, None);
        assert_eq!(status, Status::Unique);
        assert_eq!(grids[0], solutions[p.name.as_ref().unwrap()]);
    }
}

/// Engines without cage reasoning answer `unsupported`; a wrong grid is caught by the check.
#[test]
fn other_engines_refuse_cages() {
    let p = &killers(&ReadOptions::default())[0];
    let mut fast = make("fast", &EngineOptions::new()).unwrap();
    let o = run_engine(fast.as_mut(), &p.puzzle, &Limits::solutions(2));
    assert_eq!(o.status, Status::Unsupported);
    let mut grid = published()["1_4x4"].clone();
    p.puzzle.check_solution(&grid).unwrap();
    // Swapping two rows of one band keeps every house but breaks a cage.
    for c in 0..4 {
        grid.swap(c, 4 + c);
    }
    let e = p.puzzle.check_solution(&grid).unwrap_err().to_string();
    assert!(e.starts_with("cage "), "{e}");
}

/// Bad cages are refused with the file, the puzzle's line and its id; the dlx1 exact cover
/// and `certify` refuse killers rather than drop the cages (the CNF encodes them:
/// tests/killer_sat.rs).
#[test]
fn bad_killers_and_reductions_are_refused() {
    let text = std::fs::read_to_string(data("variants/killer-janko.json")).unwrap();
    let bad = text.replacen("\"problem\": \"4 4\\n9 -", "\"problem\": \"4 4\\n19 -", 1);
    assert_ne!(bad, text);
    let e = read_str(&bad, "k.json", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.line, 6, "{e}");
    let msg = e.to_string();
    assert!(msg.starts_with("k.json:6:"), "{msg}");
    assert!(
        msg.contains("puzzle 1_4x4") && msg.contains("cannot reach"),
        "{msg}"
    );

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, &bad).unwrap();
    let o = sudolab(&["solve", file.to_str().unwrap(), "--engine", "backtrack"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("bad.json:6:"));

    let set = data("variants/killer-janko.json");
    let set = set.to_str().unwrap();
    let o = sudolab(&["encode", "--to", "dlx", set, "--index", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cages"));
    // The first two puzzles alone, through `solve`.
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entries = json["data"].as_object_mut().unwrap();
    entries.retain(|id, _| id == "1_4x4" || id == "2_4x4");
    let two = dir.path().join("two.json");
    std::fs::write(&two, serde_json::to_string_pretty(&json).unwrap()).unwrap();
    let o = sudolab(&[
        "solve",
        two.to_str().unwrap(),
        "--engine",
        "backtrack",
        "--max-solutions",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("1_4x4 4x4 killer: unique"), "{out}");
    assert!(out.contains("2_4x4 4x4 killer: unique"), "{out}");
    let o = sudolab(&["solve", two.to_str().unwrap(), "--engine", "fast"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("killer: unsupported"), "{out}");
}

/// `dlx` (one option per cage filling) answers every puzzle of the set: unique with the
/// published solution, except the three killer-X puzzles read without their diagonals.
#[test]
fn dlx_gives_the_published_solutions() {
    let solutions = published();
    for p in &killers(&ReadOptions::default()) {
        let id = p.name.clone().unwrap();
        let mut engine = make("dlx", &EngineOptions::new()).unwrap();
        let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
        if ["196_9x9", "197_9x9", "198_9x9"].contains(&id.as_str()) {
            assert_eq!(o.status, Status::Multiple, "{id}");
            continue;
        }
        assert_eq!(o.status, Status::Unique, "{id}");
        assert_eq!(o.solutions[0], solutions[&id], "{id}");
        assert!(o.stats.options.unwrap() > 0, "{id}");
    }
}

/// Killer-X on janko.at: read without the diagonals they have several solutions.
const KILLER_X: [&str; 3] = ["196_9x9", "197_9x9", "198_9x9"];

/// Runs `spec` on every puzzle of the set (4x4 and 6x6 without limit, 9x9 under
/// `nine_limit` nodes, or not at all when `nine` is false) and checks each answer: unique with the published solution, or
/// `multiple` for the killer-X puzzles. Returns the number of 9x9 puzzles answered.
fn gives_the_published_solutions(spec: &str, nine: bool, nine_limit: Option<u64>) -> usize {
    let solutions = published();
    let puzzles = killers(&ReadOptions::default());
    assert_eq!(puzzles.len(), 299);
    let spec: EngineSpec = spec.parse().unwrap();
    let mut engine = spec.make().unwrap();
    let (mut small, mut answered) = (0, 0);
    for p in puzzles.iter().filter(|p| nine || p.puzzle.n() < 9) {
        let id = p.name.clone().unwrap();
        let limits = Limits {
            node_limit: if p.puzzle.n() < 9 { None } else { nine_limit },
            ..Limits::solutions(2)
        };
        let o = run_engine(engine.as_mut(), &p.puzzle, &limits);
        if o.status == Status::NodeLimit && p.puzzle.n() == 9 {
            continue;
        }
        if KILLER_X.contains(&id.as_str()) {
            assert_eq!(o.status, Status::Multiple, "{spec} {id}");
        } else {
            assert_eq!(o.status, Status::Unique, "{spec} {id}: {:?}", o.note);
            assert_eq!(o.solutions[0], solutions[&id], "{spec} {id}");
        }
        if p.puzzle.n() < 9 {
            small += 1;
        } else {
            answered += 1;
        }
    }
    assert_eq!(small, 144, "{spec}");
    answered
}

/// `dlx:cages=colors` (one option per digit set of a cage, exact cover with colours)
/// answers every puzzle of the set, as plain `dlx` does.
#[test]
fn dlx_colors_gives_the_published_solutions() {
    assert_eq!(
        gives_the_published_solutions("dlx:cages=colors", true, None),
        155
    );
}

/// The two formulations of `dlx` find the same solutions where there are many: the 4x4 and
/// 6x6 killers of the set with every other cage removed (their cells then in no cage), and
/// with the first two cages merged where that is a valid cage.
#[test]
fn dlx_formulations_agree_on_killers_with_cages_removed() {
    let all = Limits {
        keep_solutions: usize::MAX,
        ..Limits::solutions(0)
    };
    let (mut options, mut colors) = (
        make("dlx", &EngineOptions::new()).unwrap(),
        make("dlx", &EngineOptions::new().with("cages", "colors")).unwrap(),
    );
    let (mut puzzles, mut solutions, mut merged) = (0, 0, 0);
    for p in killers(&ReadOptions::default())
        .iter()
        .filter(|p| p.puzzle.n() < 9)
    {
        let cages: Vec<(Vec<u32>, u32)> = p
            .puzzle
            .cages()
            .iter()
            .map(|c| (c.cells().to_vec(), c.sum()))
            .collect();
        let bare = || {
            let g = p.puzzle.shared_geometry().clone();
            sudolab::puzzle::Puzzle::new(g, p.puzzle.givens().to_vec()).unwrap()
        };
        let halved: Vec<_> = cages.iter().skip(1).step_by(2).cloned().collect();
        let mut variants = vec![bare().with_cages(halved).unwrap()];
        let mut two = cages.clone();
        let (second, sum) = two.remove(1);
        two[0].0.extend(second);
        two[0].0.sort();
        two[0].1 += sum;
        if let Ok(q) = bare().with_cages(two) {
            variants.push(q);
            merged += 1;
        }
        for q in &variants {
            let a = run_engine(options.as_mut(), q, &all);
            let b = run_engine(colors.as_mut(), q, &all);
            let id = p.name.as_deref().unwrap();
            assert!(a.status.is_answer(), "{id}: {}", a.status);
            assert_eq!((a.status, a.count), (b.status, b.count), "{id}");
            let (mut x, mut y) = (a.solutions, b.solutions);
            x.sort();
            y.sort();
            assert!(x == y, "{id}: the solutions differ");
            puzzles += 1;
            solutions += a.count;
        }
    }
    assert!(merged > 0);
    assert!(
        solutions > 10 * puzzles,
        "{solutions} solutions in {puzzles} puzzles"
    );
}

#[test]
fn human_gives_the_published_solutions() {
    assert_eq!(gives_the_published_solutions("human", true, None), 155);
}

#[test]
fn binary_gives_the_published_solutions() {
    assert_eq!(gives_the_published_solutions("binary", true, None), 155);
    assert_eq!(
        gives_the_published_solutions("binary:propagation=hidden", true, None),
        155
    );
}

#[test]
fn gac_gives_the_published_solutions() {
    for spec in ["gac", "gac:branch=domwdeg", "gac:restarts=luby"] {
        assert_eq!(gives_the_published_solutions(spec, true, None), 155);
    }
}

#[test]
fn bitmask_gives_the_published_solutions() {
    let nine = gives_the_published_solutions("bitmask", true, Some(2_000_000));
    assert!(
        nine >= 20,
        "{nine} 9x9 killers answered within the node limit"
    );
}

#[test]
fn bnb_gives_the_published_solutions() {
    // Breadth first (the default) on 9x9 grows its queue past memory on some: 4x4 and 6x6.
    gives_the_published_solutions("bnb", false, None);
    let nine = gives_the_published_solutions("bnb:order=lifo", true, Some(500_000));
    assert!(
        nine >= 20,
        "{nine} 9x9 killers answered within the node limit"
    );
}

/// With their diagonals the killer-X puzzles are unique, with the published solution.
#[test]
fn killer_x_with_the_diagonals() {
    let solutions = published();
    let options = ReadOptions {
        diagonals: true,
        ..ReadOptions::default()
    };
    let set = killers(&options);
    for spec in ["human", "binary"] {
        let mut engine = spec.parse::<EngineSpec>().unwrap().make().unwrap();
        for p in set
            .iter()
            .filter(|p| KILLER_X.contains(&p.name.as_deref().unwrap()))
        {
            let id = p.name.as_ref().unwrap();
            let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
            assert_eq!(p.puzzle.variant(), "killer-x");
            assert_eq!(o.status, Status::Unique, "{spec} {id}");
            assert_eq!(o.solutions[0], solutions[id], "{spec} {id}");
        }
    }
}

/// The cage counters of `human` are reported on killers, and cage reasoning does work: a
/// killer with no given has 0 givens to fill from, yet most cells are filled by propagation.
#[test]
fn human_counts_its_cage_steps() {
    let p = &killers(&ReadOptions::default())[0];
    let mut engine = "human".parse::<EngineSpec>().unwrap().make().unwrap();
    let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
    assert_eq!(o.status, Status::Unique);
    for name in [
        "cage_removals",
        "remainder_removals",
        "cage_singles",
        "remainder_rules",
    ] {
        assert!(o.stats.counter(name).is_some(), "{name}");
    }
    assert!(o.stats.counter("cage_removals").unwrap() > 0);
}

/// Random cages on a random solution grid (connected, distinct digits, 1 to `most` cells,
/// sums from the grid), some with givens: a killer with at least that solution.
fn random_killer(rng: &mut impl rand::Rng, n: usize, most: usize) -> sudolab::puzzle::Puzzle {
    use rand::seq::SliceRandom;
    use std::sync::Arc;
    use sudolab::puzzle::{Geometry, Puzzle};
    let geo = Arc::new(Geometry::square(n).unwrap());
    let mut engine = make("human", &EngineOptions::new()).unwrap();
    let grid = run_engine(
        engine.as_mut(),
        &Puzzle::empty(geo.clone()),
        &Limits::solutions(1),
    )
    .solutions[0]
        .clone();
    let mut perm: Vec<u16> = (1..=n as u16).collect();
    perm.shuffle(rng);
    let grid: Vec<u16> = grid.iter().map(|&d| perm[d as usize - 1]).collect();
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(rng);
    let mut cage_of = vec![usize::MAX; n * n];
    let mut cages: Vec<(Vec<u32>, u32)> = Vec::new();
    for start in order {
        if cage_of[start] != usize::MAX {
            continue;
        }
        let k = cages.len();
        let size = rng.gen_range(1..=most);
        let mut cells = vec![start];
        cage_of[start] = k;
        while cells.len() < size {
            let grow: Vec<usize> = cells
                .iter()
                .flat_map(|&c| {
                    let (r, col) = (c / n, c % n);
                    [
                        (r > 0).then(|| c - n),
                        (r + 1 < n).then(|| c + n),
                        (col > 0).then(|| c - 1),
                        (col + 1 < n).then(|| c + 1),
                    ]
                })
                .flatten()
                .filter(|&p| cage_of[p] == usize::MAX && cells.iter().all(|&c| grid[c] != grid[p]))
                .collect();
            let Some(&p) = grow.choose(rng) else { break };
            cage_of[p] = k;
            cells.push(p);
        }
        let sum = cells.iter().map(|&c| grid[c] as u32).sum();
        cages.push((cells.iter().map(|&c| c as u32).collect(), sum));
    }
    let givens: Vec<u16> = grid
        .iter()
        .map(|&d| if rng.gen_bool(0.05) { d } else { 0 })
        .collect();
    Puzzle::new(geo, givens).unwrap().with_cages(cages).unwrap()
}

/// On random 4x4 and 6x6 killers, every engine that enforces cages finds exactly the
/// solutions `backtrack` finds (all of them, in any order).
#[test]
fn cage_engines_agree_on_random_killers() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(45);
    let specs = [
        "human",
        "binary",
        "binary:propagation=hidden",
        "bnb",
        "bnb:order=best",
        "bitmask",
        "dlx",
        "dlx:cages=colors",
        "gac",
        "gac:branch=domwdeg,restarts=luby",
    ];
    let all = Limits {
        keep_solutions: usize::MAX,
        ..Limits::solutions(0)
    };
    let mut compared = 0;
    for round in 0..400 {
        let (n, most) = match round % 4 {
            0 => (6, 3),
            1 => (6, 5),
            _ => (4, 4),
        };
        let p = random_killer(&mut rng, n, most);
        let mut reference = make("backtrack", &EngineOptions::new()).unwrap();
        let o = run_engine(reference.as_mut(), &p, &all);
        assert!(o.count >= 1);
        let mut want = o.solutions;
        want.sort();
        for spec in specs {
            let mut e = spec.parse::<EngineSpec>().unwrap().make().unwrap();
            let o = run_engine(e.as_mut(), &p, &all);
            assert!(o.status.is_answer(), "{spec}: {} {:?}", o.status, o.note);
            let mut got = o.solutions;
            got.sort();
            assert_eq!(got, want, "{spec} on {:?} {:?}", p.givens(), p.cages());
        }
        compared += want.len();
    }
    eprintln!("random killers: {compared} solutions compared");
    assert!(compared >= 400);
}
