//! Killer sudoku through the CNF reduction (src/cnf/cages.rs): the `sat` engine with every sum
//! encoding gives each published solution of `data/variants/killer-janko.json`, under every
//! house encoding, AMO and backend kind; `encode --to cnf` writes the cages into the DIMACS
//! comments and `decode` checks a model against them; `stats` counts killers.

mod common;

use common::{data, model_file, solve_dimacs, sudolab};
use sudolab::cnf::{decode_checked, parse_header, read_dimacs_str};
use sudolab::engines::{make, run as run_engine, EngineOptions, Limits, Status};
use sudolab::puzzle::{read_file, ReadOptions, SourcedPuzzle};

/// The published solutions, by puzzle id (read independently of the tool's reader).
fn published() -> std::collections::HashMap<String, Vec<u16>> {
    common::published_solutions("variants/killer-janko.json")
}

fn killers(options: &ReadOptions) -> Vec<SourcedPuzzle> {
    read_file(&data("variants/killer-janko.json"), options)
        .unwrap()
        .1
}

const KILLER_X: [&str; 3] = ["196_9x9", "197_9x9", "198_9x9"];

/// Runs `sat:OPTIONS` on `puzzles` (two solutions asked) and checks every answer: unique with
/// the published solution, or, for the killer-X puzzles read without their diagonals,
/// multiple.
fn check_all(options: &str, puzzles: &[&SourcedPuzzle], diagonals: bool) {
    let solutions = published();
    let mut opts = EngineOptions::new();
    for kv in options.split(',').filter(|s| !s.is_empty()) {
        let (k, v) = kv.split_once('=').unwrap();
        opts = opts.with(k, v);
    }
    let mut engine = make("sat", &opts).unwrap();
    for p in puzzles {
        let id = p.name.clone().unwrap();
        let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
        if !diagonals && KILLER_X.contains(&id.as_str()) {
            assert_eq!(o.status, Status::Multiple, "{options}: {id}: {:?}", o.note);
            continue;
        }
        assert_eq!(o.status, Status::Unique, "{options}: {id}: {:?}", o.note);
        assert_eq!(o.solutions[0], solutions[&id], "{options}: {id}");
    }
}

/// Every sum encoding, with the engine's defaults otherwise, answers all 299 killers with
/// the published solutions (196-198 multiple without their diagonals).
#[test]
fn every_sum_encoding_gives_the_published_solutions() {
    let all = killers(&ReadOptions::default());
    assert_eq!(all.len(), 299);
    let refs: Vec<&SourcedPuzzle> = all.iter().collect();
    for sum in ["combinations", "totalizer", "bdd"] {
        check_all(&format!("sum={sum}"), &refs, false);
    }
}

/// With the diagonals (killer-X), 196-198 are unique with the published solution under every
/// sum encoding.
#[test]
fn killer_x_is_unique_with_the_diagonals() {
    let options = ReadOptions {
        diagonals: true,
        ..ReadOptions::default()
    };
    let all = killers(&options);
    let x: Vec<&SourcedPuzzle> = all
        .iter()
        .filter(|p| KILLER_X.contains(&p.name.as_deref().unwrap()))
        .collect();
    assert_eq!(x.len(), 3);
    for sum in ["combinations", "totalizer", "bdd"] {
        check_all(&format!("sum={sum}"), &x, true);
    }
}

/// Cages combine with every house encoding, AMO, givens mode, incremental mode, duplicate
/// filter and backend: every seventh killer (4x4, 6x6 and 9x9 alike) with each sum encoding.
#[test]
fn cages_combine_with_every_option() {
    let all = killers(&ReadOptions::default());
    let some: Vec<&SourcedPuzzle> = all.iter().step_by(7).collect();
    let configs = [
        "encoding=minimal",
        "encoding=efficient,amo=sequential",
        "encoding=extended,amo=binary",
        "encoding=optimized,amo=product",
        "encoding=reduced,amo=commander",
        "encoding=reduced,amo=bimander,probe=false,locked=false",
        "givens=assumptions",
        "incremental=true",
        "dedup=true",
        "backend=varisat",
        "backend=cadical",
    ];
    for config in configs {
        for sum in ["combinations", "totalizer", "bdd"] {
            check_all(&format!("{config},sum={sum}"), &some, false);
        }
    }
}

/// `certify=true` answers through the canonical formula, which states houses only: a killer
/// is unsupported there.
#[test]
fn certify_refuses_killers() {
    let p = &killers(&ReadOptions::default())[0];
    let mut engine = make("sat", &EngineOptions::new().with("certify", "true")).unwrap();
    let o = run_engine(engine.as_mut(), &p.puzzle, &Limits::solutions(2));
    assert_eq!(o.status, Status::Unsupported);
}

/// `encode --to cnf` of a killer, solved outside the engine, decodes with `decode` to the
/// published solution, with each sum encoding and an eliminating encoding; the cages travel
/// in the comments, and a model is checked against them: with one cage's sum changed in the
/// comments the same model is refused.
#[test]
fn dimacs_of_a_killer_round_trips_through_decode() {
    let solutions = published();
    let set = data("variants/killer-janko.json");
    let set = set.to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let all = killers(&ReadOptions::default());
    // a 4x4, a 6x6 and a 9x9 puzzle
    for index in [1usize, 100, 250] {
        let id = all[index - 1].name.clone().unwrap();
        for (sum, encoding) in [
            ("combinations", "extended"),
            ("totalizer", "minimal"),
            ("bdd", "optimized"),
        ] {
            let cnf = dir.path().join(format!("{index}-{sum}.cnf"));
            let o = sudolab(&[
                "encode",
                "--to",
                "cnf",
                set,
                "--index",
                &index.to_string(),
                "--sum",
                sum,
                "--encoding",
                encoding,
                "-o",
                cnf.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let text = std::fs::read_to_string(&cnf).unwrap();
            assert!(text.contains(&format!("c sum {sum}\n")), "{id}");
            let d = read_dimacs_str(&text).unwrap();
            let header = parse_header(&d.comments).unwrap();
            assert_eq!(
                header.info.cages.as_deref(),
                all[index - 1].puzzle.cage_set(),
                "{id}"
            );
            let model = solve_dimacs(&text).expect("satisfiable");
            assert_eq!(decode_checked(&d, &model).unwrap(), solutions[&id], "{id}");
            let model_path = dir.path().join(format!("{index}-{sum}.model"));
            std::fs::write(&model_path, model_file(&model)).unwrap();
            let o = sudolab(&[
                "decode",
                cnf.to_str().unwrap(),
                model_path.to_str().unwrap(),
            ]);
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let line = String::from_utf8_lossy(&o.stdout).trim().to_string();
            let want: String = solutions[&id]
                .iter()
                .map(|d| char::from_digit(u32::from(*d), 10).unwrap())
                .collect();
            assert_eq!(line, want, "{id}");

            // The first cage's sum, one more (or less) in the comments: the clauses still hold, the
            // grid breaks the cage as the comments state it.
            let first = text.lines().find(|l| l.starts_with("c cage ")).unwrap();
            let mut words: Vec<String> = first.split(' ').map(String::from).collect();
            let s: u32 = words[2].parse().unwrap();
            let (least, most) =
                sudolab::puzzle::sum_range((words.len() - 3) / 2, all[index - 1].puzzle.n())
                    .unwrap();
            assert!(least < most, "{id}: a cage with one possible sum first");
            words[2] = if s < most { s + 1 } else { s - 1 }.to_string();
            let edited = text.replacen(first, &words.join(" "), 1);
            let bad = dir.path().join(format!("{index}-{sum}-bad.cnf"));
            std::fs::write(&bad, &edited).unwrap();
            let o = sudolab(&[
                "decode",
                bad.to_str().unwrap(),
                model_path.to_str().unwrap(),
            ]);
            assert!(!o.status.success(), "{id}: a broken cage was accepted");
            let err = String::from_utf8_lossy(&o.stderr);
            assert!(err.contains("cage"), "{err}");
        }
    }
}

/// `encode --to dlx` and `--canonical` still refuse killers (houses only); `stats` counts a
/// killer's formula with the cages (more clauses than the same grid without them) and its
/// killer exact cover.
#[test]
fn stats_counts_killers_and_dlx_refuses_them() {
    let set = data("variants/killer-janko.json");
    let set = set.to_str().unwrap();
    for extra in [&["--to", "dlx"][..], &["--canonical"][..]] {
        let mut args = vec!["encode", set, "--index", "1"];
        args.extend_from_slice(extra);
        let o = sudolab(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("cages"));
    }
    let mut clauses = Vec::new();
    for sum in ["combinations", "totalizer", "bdd"] {
        let o = sudolab(&[
            "stats",
            set,
            "--encodings",
            "extended",
            "--amos",
            "pairwise",
            "--sum",
            sum,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let rows: Vec<&str> = out.lines().skip(1).collect();
        assert_eq!(rows.len(), 2 * 299);
        let first_cnf: Vec<&str> = rows[1].split(',').collect();
        assert_eq!(first_cnf[1], "cnf");
        clauses.push(first_cnf[6].parse::<u64>().unwrap());
        // every killer has an exact-cover row with its killer cover's size
        assert!(rows[0].split(',').nth(9).unwrap().parse::<u64>().unwrap() > 0);
    }
    // the empty 4x4 grid's extended pairwise formula has 448 clauses
    assert!(clauses.iter().all(|&c| c > 448), "{clauses:?}");
}
