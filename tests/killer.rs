//! Killer sudoku (cages): the janko.at set of `data/variants/killer-janko.json` read from
//! puzzlekit JSON, answered by `backtrack` with each published solution, refused by the
//! engines and reductions that do not enforce cages (`sat` does: tests/killer_sat.rs), and bad cages reported with their place.

mod common;

use common::{data, sudolab};
use sudolab::engines::{make, run as run_engine, EngineOptions, Limits, Status};
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
    for name in ["human", "bitmask", "bnb", "binary", "fast"] {
        let mut engine = make(name, &EngineOptions::new()).unwrap();
        let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsupported, "{name}");
    }
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
    let o = sudolab(&["solve", two.to_str().unwrap(), "--engine", "bitmask"]);
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
