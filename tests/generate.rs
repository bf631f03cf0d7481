//! `sudolab generate` as scripts call it: output that reads back with the normal readers (and
//! solves as unique with an engine other than the generator's), byte-identical reruns, and
//! bad usage ending with a clear message and exit status 2, never a panic or a hang.

use std::path::Path;
use std::process::{Command, Output};
use sudolab::certify::bundle::{Entry, ENTRIES_FILE};
use sudolab::engines::{self, EngineSpec, Limits, Status};
use sudolab::generate::{GenerateOptions, Generator, Target};
use sudolab::puzzle::{read_file, ReadOptions};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .output()
        .expect("run sudolab")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Generates into a file, reads it back with the library's reader, checks the count, the
/// clues, uniqueness with the `human` engine (the generator used `dlx`), and that the
/// puzzles are those of the library API with the same options.
fn round_trip(args: &[&str], read: ReadOptions, options: GenerateOptions, count: usize) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("out.txt");
    let mut full: Vec<&str> = vec!["generate"];
    full.extend_from_slice(args);
    let count_s = count.to_string();
    full.extend_from_slice(&["--count", &count_s, "-o", file.to_str().unwrap()]);
    let o = run(&full);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# sudolab generate --size"), "{text}");
    let (_, read_back) = read_file(Path::new(&file), &read).unwrap();
    assert_eq!(read_back.len(), count, "{args:?}:\n{text}");
    let mut human = EngineSpec::new("human").make().unwrap();
    let mut generator = Generator::new(options).unwrap();
    for sp in &read_back {
        let expected = generator.next_puzzle().unwrap();
        assert_eq!(sp.puzzle, expected, "{args:?}: round trip changed a puzzle");
        let outcome = engines::run(human.as_mut(), &sp.puzzle, &Limits::solutions(2));
        assert_eq!(outcome.status, Status::Unique, "{args:?}");
    }
}

fn opts(size: usize, target: Target, seed: u64) -> GenerateOptions {
    GenerateOptions {
        seed,
        ..GenerateOptions::new(size, target)
    }
}

#[test]
fn classic_line_and_grid_round_trip() {
    for format in ["line", "grid"] {
        round_trip(
            &[
                "--size",
                "9",
                "--minimal",
                "--seed",
                "3",
                "--format",
                format,
            ],
            ReadOptions::default(),
            opts(9, Target::Minimal, 3),
            5,
        );
    }
}

#[test]
fn other_boxes_and_large_sides_round_trip() {
    round_trip(
        &[
            "--size", "6", "--box", "3x2", "--clues", "12", "--seed", "4",
        ],
        ReadOptions {
            box_shape: Some((3, 2)),
            ..ReadOptions::default()
        },
        GenerateOptions {
            box_shape: Some((3, 2)),
            ..opts(6, Target::Clues(12), 4)
        },
        3,
    );
    round_trip(
        &["--size", "16", "--clues", "140", "--spread", "--seed", "5"],
        ReadOptions::default(),
        GenerateOptions {
            spread: true,
            ..opts(16, Target::Clues(140), 5)
        },
        3,
    );
    // 36x36 digits have no symbol in the default alphabet: the line form falls back to the
    // grid form, puzzles separated by blank lines.
    round_trip(
        &["--size", "36", "--clues", "1100", "--seed", "6"],
        ReadOptions::default(),
        opts(36, Target::Clues(1100), 6),
        2,
    );
}

#[test]
fn x_sudoku_round_trips() {
    round_trip(
        &["--size", "9", "--diagonals", "--minimal", "--seed", "7"],
        ReadOptions {
            diagonals: true,
            ..ReadOptions::default()
        },
        GenerateOptions {
            diagonals: true,
            ..opts(9, Target::Minimal, 7)
        },
        3,
    );
}

#[test]
fn jigsaw_round_trips_in_both_forms() {
    for format in ["line", "grid"] {
        round_trip(
            &[
                "--size", "9", "--jigsaw", "--clues", "30", "--seed", "8", "--format", format,
            ],
            ReadOptions::default(),
            GenerateOptions {
                jigsaw: true,
                ..opts(9, Target::Clues(30), 8)
            },
            3,
        );
    }
}

#[test]
fn same_command_same_bytes() {
    let args = [
        "generate",
        "--size",
        "9",
        "--jigsaw",
        "--minimal",
        "--spread",
        "--count",
        "4",
        "--seed",
        "99",
    ];
    let a = run(&args);
    let b = run(&args);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let mut other = args.to_vec();
    other[9] = "100";
    assert_ne!(run(&other).stdout, a.stdout);
    // The same puzzles go to a file as to standard output.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.txt");
    let mut to_file = args.to_vec();
    to_file.extend_from_slice(&["-o", file.to_str().unwrap()]);
    assert!(run(&to_file).status.success());
    assert_eq!(std::fs::read(&file).unwrap(), a.stdout);
}

#[test]
fn too_few_clues_fail_at_once() {
    let start = std::time::Instant::now();
    let o = run(&["generate", "--size", "9", "--clues", "16"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("16 clues is below the minimum of 17"), "{e}");
    assert!(e.contains("McGuire"), "{e}");
    let o = run(&["generate", "--size", "16", "--clues", "10"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("minimum of 15"), "{}", stderr(&o));
    assert!(start.elapsed().as_secs() < 5);
}

#[test]
fn unreachable_clues_fail_after_the_attempts() {
    let o = run(&[
        "generate",
        "--size",
        "9",
        "--clues",
        "18",
        "--attempts",
        "3",
        "--count",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("could not reach 18 clues in 3 attempts; the fewest reached was"),
        "{e}"
    );
    assert!(!e.contains("panicked"), "{e}");
    assert!(
        o.stdout.is_empty(),
        "nothing is written when the first puzzle fails"
    );
}

#[test]
fn bad_usage_exits_2() {
    for args in [
        &["generate", "--size", "9"][..],
        &["generate", "--size", "9", "--minimal", "--clues", "30"],
        &["generate", "--size", "3", "--minimal"],
        &["generate", "--size", "2000", "--minimal"],
        &["generate", "--size", "9", "--box", "2x4", "--minimal"],
        &[
            "generate",
            "--size",
            "9",
            "--box",
            "3x3",
            "--jigsaw",
            "--minimal",
        ],
        &["generate", "--size", "9", "--clues", "82"],
        &["generate", "--size", "9", "--minimal", "--count", "0"],
        &["generate", "--size", "9", "--minimal", "--attempts", "0"],
        &["generate", "--size", "9", "--minimal", "--engine", "nope"],
        &[
            "generate",
            "--size",
            "9",
            "--minimal",
            "--engine",
            "dlx:x=1",
        ],
        &["generate", "--size", "9", "--minimal", "--seed", "-1"],
        &[
            "generate",
            "--size",
            "9",
            "--minimal",
            "-o",
            "/nonexistent/dir/out.txt",
        ],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(!e.is_empty() && !e.contains("panicked"), "{args:?}: {e}");
    }
}

/// `--time-limit` (seconds, wall, for the whole command) stops a run that takes minutes
/// without it (a minimal 64x64: the second pass checks thousands of givens by SAT): exit
/// status 3, a message naming the limit, and no partial puzzle. With a count, the puzzles
/// finished before the limit are written whole and read back. Bounds generous: the point is
/// seconds against minutes (the overshoot is measured in docs/generate.md).
#[test]
fn time_limit_stops_and_writes_only_finished_puzzles() {
    let start = std::time::Instant::now();
    let o = run(&["generate", "--size", "64", "--minimal", "--time-limit", "1"]);
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("time limit of 1 s"), "{}", stderr(&o));
    assert!(stderr(&o).contains("0 puzzles written"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());

    let o = run(&[
        "generate",
        "--size",
        "9",
        "--minimal",
        "--count",
        "100000000",
        "--time-limit",
        "0.5",
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    let puzzles = text.lines().filter(|l| !l.starts_with('#')).count();
    assert!(puzzles >= 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{puzzles} puzzles written")),
        "{}",
        stderr(&o)
    );
    assert!(text.lines().skip(1).all(|l| l.len() == 81), "{text}");
}

/// The entries of a bundle's `certificates.jsonl`.
fn bundle_entries(dir: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(dir.join(ENTRIES_FILE)).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `sudolab certify --check DIR`.
fn check_bundle(dir: &Path) -> Output {
    run(&["certify", "--check", dir.to_str().unwrap()])
}

/// `generate --certify DIR` writes one checked entry per puzzle, in output order, whose
/// givens are the puzzle's; with `--minimal` each carries one second solution per given. The
/// puzzles are those of the same command without it, and `certify --check` accepts the
/// bundle.
#[test]
fn certified_bundles_pass_the_check() {
    for (args, count, minimal) in [
        (&["--size", "9", "--minimal", "--seed", "2"][..], 5, true),
        (
            &["--size", "9", "--clues", "30", "--seed", "2"][..],
            4,
            false,
        ),
        (&["--size", "16", "--minimal", "--seed", "2"][..], 1, true),
        (
            &["--size", "9", "--jigsaw", "--minimal", "--seed", "2"][..],
            3,
            true,
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let bundle = dir.path().join("bundle");
        let file = dir.path().join("p.txt");
        let count_s = count.to_string();
        let mut full = vec!["generate", "--count", &count_s];
        full.extend_from_slice(args);
        let plain = run(&full);
        assert!(plain.status.success(), "{args:?}: {}", stderr(&plain));
        full.extend_from_slice(&[
            "-o",
            file.to_str().unwrap(),
            "--certify",
            bundle.to_str().unwrap(),
        ]);
        let o = run(&full);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        assert_eq!(std::fs::read(&file).unwrap(), plain.stdout, "{args:?}");
        let read = ReadOptions::default();
        let (_, puzzles) = read_file(&file, &read).unwrap();
        let entries = bundle_entries(&bundle);
        assert_eq!(entries.len(), count, "{args:?}");
        for (k, (e, sp)) in entries.iter().zip(&puzzles).enumerate() {
            assert_eq!(e.source, file.to_str().unwrap());
            assert_eq!(e.index, k as u64 + 1);
            assert_eq!((e.verdict.as_str(), e.checked), ("unique", true), "{e:?}");
            let d = e.decode().unwrap();
            assert_eq!(d.givens, sp.puzzle.givens(), "{args:?}: entry {}", k + 1);
            assert_eq!(d.geometry.regions(), sp.puzzle.geometry().regions());
            let givens = d.givens.iter().filter(|&&g| g != 0).count();
            match (&e.minimality, minimal) {
                (Some(list), true) => assert_eq!(list.len(), givens, "{args:?}"),
                (None, false) => {}
                (m, _) => panic!("{args:?}: minimality {m:?}"),
            }
        }
        let c = check_bundle(&bundle);
        assert_eq!(c.status.code(), Some(0), "{args:?}: {}", stdout(&c));
        assert!(
            stdout(&c).contains(&format!("{count} accepted")),
            "{}",
            stdout(&c)
        );
        // The same folder again is refused before anything is written.
        let again = run(&full);
        assert_eq!(again.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&again).contains("a bundle is already there"),
            "{}",
            stderr(&again)
        );
    }
}

/// `generate --size 9 --minimal ARGS --certify DIR/bundle`: the run and the bundle folder.
fn certified_9x9_minimal(dir: &Path, args: &[&str]) -> (Output, std::path::PathBuf) {
    let bundle = dir.join("bundle");
    let mut full = vec!["generate", "--size", "9", "--minimal"];
    full.extend_from_slice(args);
    full.extend_from_slice(&["--certify", bundle.to_str().unwrap()]);
    (run(&full), bundle)
}

/// Asserts that a `certify --check` run rejected an entry, saying each of `needles`.
fn assert_rejected(o: &Output, needles: &[&str]) {
    let out = stdout(o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    for needle in needles {
        assert!(out.contains(needle), "{needle:?} not in {out}");
    }
}

/// A bundle whose minimality list is wrong is rejected (exit 1) with the given named: a second
/// solution equal to the unique one, one that breaks a house, one missing.
#[test]
fn a_wrong_minimality_list_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let (o, bundle) = certified_9x9_minimal(dir.path(), &["--count", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(check_bundle(&bundle).status.code(), Some(0));
    let entries = bundle_entries(&bundle);
    let edit = |change: &dyn Fn(&mut Vec<String>, &str)| {
        let mut first = entries[0].clone();
        let mut list = first.minimality.clone().unwrap();
        change(&mut list, &first.solutions[0]);
        first.minimality = Some(list);
        let lines: Vec<String> = [&first, &entries[1]]
            .iter()
            .map(|e| serde_json::to_string(e).unwrap())
            .collect();
        std::fs::write(bundle.join(ENTRIES_FILE), lines.join("\n") + "\n").unwrap();
        check_bundle(&bundle)
    };
    let unique = edit(&|list, solution| list[2] = solution.to_string());
    assert_rejected(&unique, &["minimality: given 3", "is the unique one"]);
    // The first two cells exchanged: the row keeps its digits, the first column breaks.
    let broken = edit(&|list, _| {
        let mut cells: Vec<char> = list[0].chars().collect();
        cells.swap(0, 1);
        list[0] = cells.into_iter().collect();
    });
    assert_rejected(
        &broken,
        &["minimality: given 1", "not a solution without it"],
    );
    let short = edit(&|list, _| {
        list.pop();
    });
    assert_rejected(&short, &["second solutions for", "1 accepted, 1 rejected"]);
}

/// With `--time-limit`, the bundle holds exactly the puzzles written: a puzzle whose
/// certificate the limit stopped is unfinished, as one the generator did not finish.
#[test]
fn certified_runs_stop_at_the_time_limit_with_one_entry_per_puzzle() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--count", "100000000", "--time-limit", "0.5"];
    let (o, bundle) = certified_9x9_minimal(dir.path(), &args);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout.clone()).unwrap();
    let puzzles = text.lines().filter(|l| !l.starts_with('#')).count();
    assert!(puzzles >= 1, "{}", stderr(&o));
    assert_eq!(bundle_entries(&bundle).len(), puzzles);
    assert_eq!(check_bundle(&bundle).status.code(), Some(0));
}
