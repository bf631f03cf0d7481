//! Samurai (five 9x9 grids in a 21x21 frame, void cells) and windoku (four extra windows):
//! the janko.at samurai set of `data/variants/samurai-janko.json` read from puzzlekit JSON and
//! answered with each published solution, bad samurai input reported with its place, and the
//! engines that do not take these layouts answering `unsupported`.

mod common;

use common::{data, sudolab};
use std::sync::Arc;
use sudolab::engines::{make, run as run_engine, EngineOptions, EngineSpec, Limits, Status};
use sudolab::puzzle::{read_file, read_str, Geometry, HouseKind, Puzzle, ReadOptions};

/// The published solutions, by puzzle id (void cells 0).
fn published() -> std::collections::HashMap<String, Vec<u16>> {
    let all = common::published_solutions("variants/samurai-janko.json");
    assert!(all.values().all(|s| s.len() == 441));
    all
}

/// Engines that answer samurai puzzles (`engines::run` checks every solution against the
/// houses and the givens). Plain `binary` takes samurai too, but without hidden singles one
/// of the set costs it seconds.
const SAMURAI_ENGINES: &[&str] = &[
    "human",
    "binary:propagation=hidden",
    "dlx",
    "dlx:pre=true",
    "gac",
    "sat",
    "sat:encoding=minimal",
    "sat:encoding=minimal,backend=cadical",
    "sat:encoding=optimized,amo=binary",
    "sat:encoding=extended,backend=batsat",
];

#[test]
fn samurai_geometry_has_shared_boxes_and_void_cells() {
    let g = Geometry::samurai();
    assert_eq!((g.height(), g.width(), g.n(), g.cells()), (21, 21, 9, 441));
    // 5 grids x 27 houses, the 4 shared boxes once.
    assert_eq!(g.house_count(), 5 * 27 - 4);
    assert_eq!(g.void_cells(), 441 - (5 * 81 - 4 * 9));
    // Row 9 (0-based) lies in the centre grid only, columns 6..15; column 0 there is void.
    assert!(g.is_void(9 * 21) && !g.is_void(9 * 21 + 6));
    // A cell of a shared box: two rows, two columns, one box.
    let shared = 6 * 21 + 6;
    assert_eq!(g.houses_of(shared).len(), 5);
    let boxes = g
        .houses_of(shared)
        .iter()
        .filter(|&&h| matches!(g.house_kind(h as usize), HouseKind::GridBox { .. }))
        .count();
    assert_eq!(boxes, 1);
    assert!(g.houses_of(0).len() == 3 && g.houses_of(9 * 21).is_empty());
    assert_eq!(g.variant(), "samurai");
}

#[test]
fn samurai_engines_give_the_published_solutions() {
    let solutions = published();
    let puzzles = read_file(
        &data("variants/samurai-janko.json"),
        &ReadOptions::default(),
    )
    .unwrap()
    .1;
    assert_eq!(puzzles.len(), 62);
    for name in SAMURAI_ENGINES {
        for p in &puzzles {
            let id = p.name.clone().unwrap();
            assert_eq!(p.puzzle.variant(), "samurai");
            let spec: EngineSpec = name.parse().unwrap();
            let mut engine = spec.make().unwrap();
            let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
            assert_eq!(o.status, Status::Unique, "{name} {id}: {:?}", o.note);
            assert_eq!(o.solutions[0], solutions[&id], "{name} {id}");
        }
    }
}

#[test]
fn engines_without_the_layout_refuse_it() {
    let p = &read_file(
        &data("variants/samurai-janko.json"),
        &ReadOptions::default(),
    )
    .unwrap()
    .1[0];
    for name in ["fast", "bitmask"] {
        let mut engine = make(name, &EngineOptions::new()).unwrap();
        let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsupported, "{name}");
    }
    // A solution with a digit in a void cell is caught by the check.
    let mut grid = published()[p.name.as_ref().unwrap()].clone();
    p.puzzle.check_solution(&grid).unwrap();
    grid[9 * 21] = 1;
    let e = p.puzzle.check_solution(&grid).unwrap_err().to_string();
    assert!(e.contains("void"), "{e}");
}

#[test]
fn a_digit_in_a_void_cell_is_bad_input() {
    let text = std::fs::read_to_string(data("variants/samurai-janko.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    let (id, first) = json["data"].as_object().unwrap().iter().next().unwrap();
    let problem = first["problem"].as_str().unwrap();
    // Row 10 (1-based) starts with six void cells.
    let mut lines: Vec<String> = problem.lines().map(str::to_string).collect();
    assert!(lines[10].starts_with("- "));
    lines[10].replace_range(0..1, "5");
    let bad = text.replacen(
        &serde_json::to_string(problem).unwrap(),
        &serde_json::to_string(&lines.join("\n")).unwrap(),
        1,
    );
    assert_ne!(bad, text);
    let e = read_str(&bad, "s.json", &ReadOptions::default()).unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("s.json:"), "{msg}");
    assert!(
        msg.contains(id.as_str()) && msg.contains("row 10, column 1") && msg.contains("void"),
        "{msg}"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.json");
    std::fs::write(&file, &bad).unwrap();
    let o = sudolab(&["solve", file.to_str().unwrap(), "--engine", "dlx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("void"));
}

#[test]
fn solve_marks_void_cells_in_the_solution_column() {
    let set = data("variants/samurai-janko.json");
    let o = sudolab(&["solve", set.to_str().unwrap(), "--engine", "dlx", "--csv"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout);
    let mut rows = csv::Reader::from_reader(out.as_bytes());
    let header = rows.headers().unwrap().clone();
    let col = header.iter().position(|h| h == "solution").unwrap();
    let solutions = published();
    let names = header.iter().position(|h| h == "name").unwrap();
    let mut n = 0;
    for row in rows.records() {
        let row = row.unwrap();
        let expected: String = solutions[&row[names]]
            .iter()
            .map(|&d| {
                if d == 0 {
                    '-'
                } else {
                    (b'0' + d as u8) as char
                }
            })
            .collect();
        assert_eq!(&row[col], expected);
        n += 1;
    }
    assert_eq!(n, 62);
}

/// A windoku: the four windows are houses, a full grid keeps them, and a puzzle cut from it
/// while dlx proves it unique has that grid as its only solution.
#[test]
fn windoku_windows_are_houses() {
    let g = Geometry::square(9).unwrap().with_windows(true).unwrap();
    assert_eq!(g.house_count(), 31);
    assert_eq!(g.variant(), "windoku");
    let windows: Vec<&[u32]> = (27..31).map(|h| g.house(h)).collect();
    assert_eq!(windows[0], &[10, 11, 12, 19, 20, 21, 28, 29, 30]);
    assert_eq!(windows[3][0], 5 * 9 + 5);
    let g = Arc::new(g);
    let mut dlx = make("dlx", &EngineOptions::new()).unwrap();
    let o = run_engine(
        dlx.as_mut(),
        &Puzzle::empty(g.clone()),
        &Limits::solutions(1),
    );
    assert_eq!(o.status, Status::Solved);
    let full = o.solutions[0].clone();
    g.check_grid(&full).unwrap();
    // Without the windows the grid is a plain sudoku; a plain one breaks some window.
    let mut givens = full.clone();
    for cell in 0..81 {
        let keep = givens[cell];
        givens[cell] = 0;
        let p = Puzzle::new(g.clone(), givens.clone()).unwrap();
        let o = run_engine(dlx.as_mut(), &p, &Limits::solutions(2));
        if o.status != Status::Unique {
            givens[cell] = keep;
        }
    }
    let p = Puzzle::new(g.clone(), givens).unwrap();
    let o = run_engine(dlx.as_mut(), &p, &Limits::solutions(2));
    assert_eq!(o.status, Status::Unique);
    assert_eq!(o.solutions[0], full);
    assert!(p.clues() < 30, "{}", p.clues());
    // The same givens without the windows have more than one solution: the windows matter.
    let plain = Puzzle::new(Arc::new(Geometry::square(9).unwrap()), p.givens().to_vec()).unwrap();
    let o = run_engine(dlx.as_mut(), &plain, &Limits::solutions(2));
    assert_eq!(o.status, Status::Multiple);
    for name in ["fast", "bitmask"] {
        let mut engine = make(name, &EngineOptions::new()).unwrap();
        let o = run_engine(engine.as_mut(), &p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unsupported, "{name}");
    }
    // The killer text format keeps the windows; sat and human agree with dlx.
    let text = sudolab::puzzle::write_killer(&p, None);
    assert!(text.starts_with("killer 9 box=3x3 windoku\n"), "{text}");
    let back = read_str(&text, "w.txt", &ReadOptions::default()).unwrap().1;
    assert_eq!(back[0].puzzle, p);
    for name in ["sat", "human"] {
        let mut engine = make(name, &EngineOptions::new()).unwrap();
        let o = run_engine(engine.as_mut(), &p, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique, "{name}");
        assert_eq!(o.solutions[0], full, "{name}");
    }
}

/// `encode --to cnf` of a samurai (a 1 given in each void cell, so every cell of the frame has
/// a digit in the formula), solved outside the engine, decodes to the published solution with
/// the void cells empty, through the library and through `decode`.
#[test]
fn dimacs_of_a_samurai_round_trips_through_decode() {
    let solutions = published();
    let set = data("variants/samurai-janko.json");
    let dir = tempfile::tempdir().unwrap();
    let first = read_file(&set, &ReadOptions::default()).unwrap().1[0]
        .name
        .clone()
        .unwrap();
    for encoding in ["extended", "optimized"] {
        let cnf = dir.path().join(format!("{encoding}.cnf"));
        let o = sudolab(&[
            "encode",
            "--to",
            "cnf",
            set.to_str().unwrap(),
            "--index",
            "1",
            "--encoding",
            encoding,
            "-o",
            cnf.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&cnf).unwrap();
        assert!(text.contains("c geometry 9 combined 21x21 box 3x3 grids 0,0 0,12 6,6 12,0 12,12"));
        let d = sudolab::cnf::read_dimacs_str(&text).unwrap();
        let model = common::solve_dimacs(&text).expect("satisfiable");
        assert_eq!(
            sudolab::cnf::decode_checked(&d, &model).unwrap(),
            solutions[&first]
        );
        let model_path = dir.path().join(format!("{encoding}.model"));
        std::fs::write(&model_path, common::model_file(&model)).unwrap();
        let o = sudolab(&[
            "decode",
            cnf.to_str().unwrap(),
            model_path.to_str().unwrap(),
            "--output",
            "grid",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout);
        let rows: Vec<&str> = out.lines().collect();
        assert_eq!(rows.len(), 21, "{out}");
        assert!(
            rows[9].starts_with("------") && rows[9].ends_with("------"),
            "{out}"
        );
    }
}

/// `generate --samurai` writes puzzlekit JSON that `solve` reads back: every puzzle unique by
/// `sat` (not the generator's engine) with the solution written beside it.
#[test]
fn generated_samurai_read_back_unique() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("gen.json");
    let o = sudolab(&[
        "generate",
        "--samurai",
        "--count",
        "3",
        "--seed",
        "7",
        "-o",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let puzzles = read_file(&file, &ReadOptions::default()).unwrap().1;
    assert_eq!(puzzles.len(), 3);
    let text = std::fs::read_to_string(&file).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["name"], "SamuraiSudoku");
    let solutions = common::published_solutions_of(&file);
    let mut sat = make("sat", &EngineOptions::new()).unwrap();
    for p in &puzzles {
        assert_eq!(p.puzzle.variant(), "samurai");
        let o = run_engine(sat.as_mut(), &p.puzzle, &Limits::solutions(2));
        assert_eq!(o.status, Status::Unique);
        assert_eq!(o.solutions[0], solutions[p.name.as_ref().unwrap()]);
    }
    let o = sudolab(&["generate", "--samurai", "--format", "grid"]);
    assert_eq!(o.status.code(), Some(2));
    let o = sudolab(&["generate", "--samurai", "--size", "16"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The killer text format writes combined layouts (`samurai`, or `frame=HxW grids=...`) and
/// reads them back as the same puzzles; a digit in a void cell is refused at its line.
#[test]
fn combined_layouts_round_trip_through_the_text_format() {
    use sudolab::puzzle::write_killer;
    let puzzles = read_file(
        &data("variants/samurai-janko.json"),
        &ReadOptions::default(),
    )
    .unwrap()
    .1;
    for p in &puzzles {
        let text = write_killer(&p.puzzle, None);
        assert!(
            text.starts_with("killer 9 box=3x3 samurai\ngivens\n"),
            "{text}"
        );
        let back = read_str(&text, "s.txt", &ReadOptions::default()).unwrap().1;
        assert_eq!(back.len(), 1);
        assert_eq!(back[0].puzzle, p.puzzle);
    }
    // A butterfly: four 9x9 grids overlapping in a 12x12 frame (no void cell), solved from
    // empty by dlx, written with its frame and read back.
    let butterfly = "killer 9 frame=12x12 grids=0,0/0,3/3,0/3,3\n";
    let empty = read_str(butterfly, "b.txt", &ReadOptions::default())
        .unwrap()
        .1;
    let g = empty[0].puzzle.geometry();
    assert_eq!((g.height(), g.width(), g.void_cells()), (12, 12, 0));
    assert_eq!(g.variant(), "combined");
    let mut dlx = make("dlx", &EngineOptions::new()).unwrap();
    let o = run_engine(dlx.as_mut(), &empty[0].puzzle, &Limits::solutions(1));
    assert_eq!(o.status, Status::Solved);
    let full = Puzzle::new(
        empty[0].puzzle.shared_geometry().clone(),
        o.solutions[0].clone(),
    )
    .unwrap();
    let text = write_killer(&full, None);
    assert!(
        text.starts_with("killer 9 box=3x3 frame=12x12 grids=0,0/0,3/3,0/3,3\n"),
        "{text}"
    );
    assert_eq!(
        read_str(&text, "b.txt", &ReadOptions::default()).unwrap().1[0].puzzle,
        full
    );
    // A digit in a void cell: the error names the line of its row.
    let text = write_killer(&puzzles[0].puzzle, None);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    assert!(lines[11].starts_with('-'));
    lines[11].replace_range(0..1, "4");
    let e = read_str(&lines.join("\n"), "s.txt", &ReadOptions::default()).unwrap_err();
    assert_eq!(e.line, 12, "{e}");
    assert!(e.to_string().contains("void"), "{e}");
}
