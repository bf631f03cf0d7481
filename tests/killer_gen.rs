//! Killer generation and the killer writers: generated killers are unique by another engine
//! than the generator's, have no givens by default and valid cages; the killer text format
//! and puzzlekit JSON read back as the same puzzles (the 299 shared killers and generated
//! ones); bad killer text is reported at its line and column.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use sudolab::engines::{make, run as run_engine, EngineOptions, Limits, Status};
use sudolab::generate::killer::{KillerGenerator, KillerOptions};
use sudolab::puzzle::{
    read_file, read_str, write_killer, write_puzzlekit, CageSet, Format, Puzzle, PuzzlekitEntry,
    ReadOptions,
};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn sudolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .output()
        .expect("run sudolab")
}

fn shared(options: &ReadOptions) -> Vec<Puzzle> {
    read_file(&data("variants/killer-janko.json"), options)
        .unwrap()
        .1
        .into_iter()
        .map(|p| p.puzzle)
        .collect()
}

/// Killer text: each puzzle written then read gives the same puzzle, and the whole file of
/// them too (detected as the killer format).
fn text_round_trip(puzzles: &[Puzzle]) {
    let mut all = String::new();
    for p in puzzles {
        let text = write_killer(p, None);
        let (format, back) = read_str(&text, "k.txt", &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(format, Format::Killer);
        assert_eq!(back.len(), 1);
        assert_eq!(&back[0].puzzle, p, "{text}");
        all.push_str(&text);
        all.push_str("\n\n");
    }
    let back = read_str(&all, "all.txt", &ReadOptions::default())
        .unwrap()
        .1;
    let back: Vec<Puzzle> = back.into_iter().map(|p| p.puzzle).collect();
    assert_eq!(back, puzzles);
}

/// puzzlekit: the puzzles written as one document read back the same, in order, with their
/// ids (`diagonals`: read back with --diagonals).
fn puzzlekit_round_trip(puzzles: &[Puzzle], diagonals: bool) {
    let entries: Vec<PuzzlekitEntry> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| PuzzlekitEntry {
            id: format!("{}_{}x{}", i + 1, p.n(), p.n()),
            puzzle: p,
            solution: None,
            source: String::new(),
            info: String::new(),
        })
        .collect();
    let json = write_puzzlekit(&entries).unwrap();
    let options = ReadOptions {
        diagonals,
        ..ReadOptions::default()
    };
    let (format, back) = read_str(&json, "k.json", &options).unwrap();
    assert_eq!(format, Format::Puzzlekit);
    for ((b, p), e) in back.iter().zip(puzzles).zip(&entries) {
        assert_eq!(&b.puzzle, p);
        assert_eq!(b.name.as_deref(), Some(e.id.as_str()));
    }
    assert_eq!(back.len(), puzzles.len());
}

#[test]
fn the_shared_killers_round_trip_in_both_formats() {
    let plain = shared(&ReadOptions::default());
    assert_eq!(plain.len(), 299);
    text_round_trip(&plain);
    puzzlekit_round_trip(&plain, false);
    let x = shared(&ReadOptions {
        diagonals: true,
        ..ReadOptions::default()
    });
    // The header carries the diagonals: read back with no option.
    text_round_trip(&x[195..198]);
    assert!(write_killer(&x[195], None).starts_with("killer 9 box=3x3 diagonals\n"));
    puzzlekit_round_trip(&x, true);
}

fn generate(size: usize, givens: usize, seed: u64) -> (Puzzle, Vec<u16>) {
    let mut g = KillerGenerator::new(KillerOptions {
        givens,
        seed,
        ..KillerOptions::new(size)
    })
    .unwrap();
    let p = g.next_puzzle().unwrap();
    (p, g.last_solution().to_vec())
}

/// Unique by `engine` (the generator used plain dlx), with the generator's solution.
fn assert_unique(p: &Puzzle, solution: &[u16], engine: &str) {
    let (name, opts) = engine.split_once(':').unwrap_or((engine, ""));
    let mut options = EngineOptions::new();
    for kv in opts.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        options = options.with(k, v);
    }
    let mut e = make(name, &options).unwrap();
    let o = run_engine(e.as_mut(), p, &Limits::solutions(2));
    assert_eq!(
        o.status,
        Status::Unique,
        "{engine}: {}",
        write_killer(p, None)
    );
    assert_eq!(o.solutions[0], solution);
}

/// Cages cover the grid, are connected, and their sums are the solution's (so reachable):
/// checked by building the cage set again from the cells and sums.
fn assert_valid_cages(p: &Puzzle, solution: &[u16]) {
    let n = p.n();
    let cages: Vec<(Vec<u32>, u32)> = p
        .cages()
        .iter()
        .map(|c| (c.cells().to_vec(), c.sum()))
        .collect();
    let set = CageSet::new(n, cages).unwrap();
    assert!((0..n * n).all(|c| set.cage_of(c).is_some()));
    assert!(p.cages().iter().all(|c| c.len() <= 5));
    p.check_solution(solution).unwrap();
}

#[test]
fn generated_killers_are_unique_by_backtrack_with_no_givens() {
    let mut made = Vec::new();
    for (size, seeds) in [(4, 0..6), (6, 0..6), (9, 0..4)] {
        for seed in seeds {
            let (p, solution) = generate(size, 0, seed);
            assert_eq!(p.clues(), 0);
            assert_eq!(p.variant(), "killer");
            assert_valid_cages(&p, &solution);
            assert_unique(&p, &solution, "backtrack");
            made.push(p);
        }
    }
    text_round_trip(&made);
    puzzlekit_round_trip(&made, false);
}

/// A 12x12 killer: backtrack takes from 10 s to minutes there, so the check is dlx with
/// DLX-PRE's elimination and in-search propagation, which search another matrix.
#[test]
fn a_12x12_killer_is_unique_by_preprocessed_dlx() {
    let (p, solution) = generate(12, 0, 1);
    assert_eq!(p.clues(), 0);
    assert_valid_cages(&p, &solution);
    assert_unique(&p, &solution, "dlx:pre=true,prop=locked");
    text_round_trip(std::slice::from_ref(&p));
    puzzlekit_round_trip(std::slice::from_ref(&p), false);
}

#[test]
fn killers_keep_the_givens_asked_for_and_seeds_repeat() {
    let (p, solution) = generate(9, 5, 3);
    assert_eq!(p.clues(), 5);
    assert_valid_cages(&p, &solution);
    assert_unique(&p, &solution, "backtrack");
    text_round_trip(std::slice::from_ref(&p));
    let e = PuzzlekitEntry {
        id: "1".into(),
        puzzle: &p,
        solution: None,
        source: String::new(),
        info: String::new(),
    };
    assert!(write_puzzlekit(&[e])
        .unwrap_err()
        .to_string()
        .contains("givens"));
    assert_eq!(generate(9, 5, 3).0, p);
    assert_ne!(generate(9, 5, 4).0, p);
}

#[test]
fn generate_killer_puzzlekit_is_read_back_by_solve() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k.json");
    let f = file.to_str().unwrap();
    let o = sudolab(&[
        "generate",
        "--size",
        "6",
        "--killer",
        "--count",
        "3",
        "--seed",
        "5",
        "--format",
        "puzzlekit",
        "-o",
        f,
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let o = sudolab(&["solve", f, "--engine", "backtrack"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(out.matches("6x6 killer: unique").count(), 3, "{out}");
    // The published solutions of the file are the ones solve finds.
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(json["name"], "KillerSudoku");
    assert_eq!(json["count"], 3);
    let o = sudolab(&["solve", f, "--engine", "backtrack", "--output", "puzzlekit"]);
    let solved: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for (id, e) in json["data"].as_object().unwrap() {
        assert_eq!(solved["data"][id]["solution"], e["solution"], "{id}");
        assert_eq!(solved["data"][id]["problem"], e["problem"], "{id}");
    }
    // The text format, written by generate, read by solve and written back with cages.
    let text = dir.path().join("k.txt");
    let t = text.to_str().unwrap();
    let o = sudolab(&[
        "generate", "--size", "4", "--killer", "--seed", "2", "-o", t,
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = sudolab(&["solve", t, "--engine", "dlx"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("4x4 killer: unique"), "{out}");
    assert!(
        out.contains("\ncages\n") && out.contains("\nsums\n"),
        "{out}"
    );
}

#[test]
fn bad_killer_requests_are_refused() {
    for (args, needle) in [
        (
            &["generate", "--size", "18", "--killer"][..],
            "sides 4 to 16",
        ),
        (
            &["generate", "--size", "9", "--killer", "--format", "line"][..],
            "cages",
        ),
        (
            &[
                "generate",
                "--size",
                "9",
                "--killer",
                "--killer-givens",
                "3",
                "--format",
                "puzzlekit",
            ][..],
            "no givens",
        ),
        (
            &[
                "generate",
                "--size",
                "9",
                "--minimal",
                "--format",
                "puzzlekit",
            ][..],
            "--killer",
        ),
        (
            &["generate", "--size", "9", "--killer", "--jigsaw"][..],
            "cannot be used with",
        ),
    ] {
        let o = sudolab(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// Each error names the line and column of the offending token.
#[test]
fn bad_killer_text_names_line_and_column() {
    let good = "killer 4 box=2x2\ncages\n1 1 2 3\n1 4 2 3\n5 4 2 6\n5 4 6 6\nsums\n1=9 2=8 3=3 4=7 5=4 6=9\n";
    read_str(good, "k", &ReadOptions::default()).unwrap();
    for (bad, line, column, needle) in [
        (good.replace("box=2x2", "box=2x3"), 1, 10, "does not tile"),
        (good.replace("box=2x2", "boxes"), 1, 10, "keyword"),
        (good.replace("5 4 2 6\n", "5 4 2\n"), 5, 6, "row of 4"),
        (good.replace("4=7", "4=x"), 8, 15, "a sum"),
        (good.replace("4=7", "9=7"), 8, 13, "no cell"),
        (good.replace(" 6=9", ""), 5, 7, "none for `6`"),
        (good.replace("1=9", "1=30"), 8, 1, "cannot reach"),
        (good.replace("sums\n", ""), 7, 1, "`sums`"),
        (good.replace("5 4 6 6\n", ""), 6, 1, "cages row 4"),
        (good.replace("5 4 6 6", "5 4 6 1"), 8, 1, "not connected"),
    ] {
        let e = read_str(&bad, "k.txt", &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{e}\n{bad}");
        assert!(e.to_string().contains(needle), "{e}");
        let at = format!("k.txt:{line}:{column}: ");
        assert!(e.to_string().starts_with(&at), "{e}");
    }
}
