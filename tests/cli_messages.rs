//! One test per misleading or raw message of issue 13: each bad input must say what was
//! expected and what was found (with `file:line:column` when the input is a file), exit 2,
//! and never show Rust's debug text. Also the engine-spec syntax of `solve`, its count cells
//! against `run`'s, and `decode`'s unchecked claims.

use std::path::Path;
use std::process::{Command, Output};

fn sudolab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    sudolab()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run sudolab")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit 2 with every piece of `wanted` in the message, no panic and no debug text.
fn refused(o: &Output, wanted: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for w in wanted {
        assert!(err.contains(w), "expected {w:?} in: {err}");
    }
    assert!(!err.contains("panicked") && !err.contains("Some("), "{err}");
}

const PUZZLE: &str =
    "000000010400000000020000000000050407008000300001090000300400200050100000000806000";

/// `sudolab encode INPUT -o OUT` in `dir` (default encoding), which must succeed.
fn encode_in(dir: &Path, input: &str, out: &str) {
    let o = run_in(dir, &["encode", input, "-o", out]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

fn puzzle_file(dir: &Path) -> String {
    std::fs::write(dir.join("p.txt"), format!("{PUZZLE}\n")).unwrap();
    "p.txt".into()
}

#[test]
fn a_line_one_symbol_short_names_the_length_expected() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("short.txt"), format!("{}\n", &PUZZLE[..80])).unwrap();
    let o = run_in(dir.path(), &["solve", "short.txt"]);
    refused(
        &o,
        &["short.txt:1:1: expected 81 symbols", "9x9", "found 80"],
    );
    assert!(!stderr(&o).contains("rows"), "{}", stderr(&o));
}

#[test]
fn a_line_one_symbol_long_names_the_length_expected() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("long.txt"), format!("{PUZZLE}.\n")).unwrap();
    let o = run_in(dir.path(), &["solve", "long.txt"]);
    refused(&o, &["long.txt:1:1: expected 81 symbols", "found 82"]);
}

#[test]
fn a_negative_node_limit_is_named_not_taken_for_a_flag() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    let o = run_in(dir.path(), &["solve", "--node-limit", "-1", &p]);
    refused(
        &o,
        &[
            "--node-limit",
            "expected a whole number of at least 0, found -1",
        ],
    );
    assert!(
        !stderr(&o).contains("unexpected argument"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_infinite_time_limit_says_a_limit_must_be_finite() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    let o = run_in(dir.path(), &["solve", "--time-limit", "inf", &p]);
    refused(
        &o,
        &[
            "expected a positive number of seconds",
            "found \"inf\"",
            "must be finite",
        ],
    );
}

#[test]
fn nan_and_negative_time_limits_say_what_was_found() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    let o = run_in(dir.path(), &["solve", "--time-limit", "nan", &p]);
    refused(&o, &["found \"nan\", which is not a number"]);
    let o = run_in(dir.path(), &["verify", "--time-limit", "-3", &p]);
    refused(&o, &["found -3, which is not above 0"]);
}

#[test]
fn zero_threads_asks_for_at_least_one() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_in(dir.path(), &["run", "--threads", "0", "e.toml"]);
    refused(
        &o,
        &[
            "--threads",
            "expected a whole number of at least 1, found 0",
        ],
    );
    assert!(!stderr(&o).contains("18446744073709551615"));
}

#[test]
fn a_failing_external_solver_is_described_in_words() {
    let dir = tempfile::tempdir().unwrap();
    // The empty grid: propagation decides nothing, so the solver is called (a puzzle that
    // singles or probing fill is answered without one).
    std::fs::write(
        dir.path().join("empty.txt"),
        format!("{}\n", ".".repeat(81)),
    )
    .unwrap();
    let p = "empty.txt".to_string();
    let o = run_in(
        dir.path(),
        &[
            "solve",
            "--engine",
            "sat",
            "--backend",
            "ext:/bin/false",
            &p,
        ],
    );
    // The puzzle was processed (status error): exit 0, as for any status.
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    for w in [
        "ext:/bin/false",
        "expected the solver's answer on its standard output",
        "found nothing",
        "it exited with status 1 and wrote nothing on stderr",
    ] {
        assert!(err.contains(w), "expected {w:?} in: {err}");
    }
    assert!(
        !err.contains("Some(") && !err.contains("exit Some"),
        "{err}"
    );
    assert!(
        stdout(&o).contains(": error, 0 solutions"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn dlx_errors_name_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.dlx"), "a b | c\na b\nx\n").unwrap();
    let o = run_in(dir.path(), &["dlx", "bad.dlx"]);
    refused(
        &o,
        &["bad.dlx:3:1: expected an item named on the item line, found \"x\""],
    );
    std::fs::write(dir.path().join("twice.dlx"), "a b | c | d\n").unwrap();
    let o = run_in(dir.path(), &["dlx", "twice.dlx"]);
    refused(&o, &["twice.dlx:1:9: expected at most one `|`"]);
    // Not UTF-8: at the bad byte, as for puzzle files (not `0:0`).
    std::fs::write(dir.path().join("bin.dlx"), b"a b\na\n\xff b\n").unwrap();
    let o = run_in(dir.path(), &["dlx", "bin.dlx"]);
    refused(&o, &["bin.dlx:3:1: expected UTF-8 text"]);
}

#[test]
fn summary_of_no_rows_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("empty.csv"), "").unwrap();
    let o = run_in(dir.path(), &["summary", "empty.csv"]);
    refused(
        &o,
        &["empty.csv: expected rows of runs", "found an empty file"],
    );
    std::fs::write(
        dir.path().join("header.csv"),
        format!("{}\n", sudolab::records::COLUMNS.join(",")),
    )
    .unwrap();
    let o = run_in(dir.path(), &["summary", "header.csv"]);
    refused(
        &o,
        &["header.csv: expected rows of runs", "only the header line"],
    );
    assert!(o.stdout.is_empty());
}

/// A CSV that is not a run output, or a run output with a bad cell or row, is refused with
/// file, line (and column where there is one), what was expected and what was found: never a
/// raw "CSV deserialize error".
#[test]
fn summary_of_a_bad_csv_says_what_was_expected_and_found() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("junk.csv"), "x,y\n1,2\n").unwrap();
    let o = run_in(dir.path(), &["summary", "junk.csv"]);
    refused(
        &o,
        &[
            "junk.csv:1: expected the header of a CSV written by `sudolab run`",
            "found \"x,y\"",
        ],
    );
    // a well-formed row of a run output, then one cell and one row spoiled
    let header = sudolab::records::COLUMNS.join(",");
    let fields = sudolab::records::COLUMNS.len();
    let nodes = sudolab::records::COLUMNS
        .iter()
        .position(|c| *c == "nodes")
        .unwrap();
    let mut cells = vec![String::new(); fields];
    for (i, c) in sudolab::records::COLUMNS.iter().enumerate() {
        cells[i] = match *c {
            "puzzle_index" | "size" | "clues" | "repetition" | "solutions" | "max_solutions"
            | "job" => "1".into(),
            "build_s" | "solve_s" | "cpu_s" | "wall_s" => "0.000001000".into(),
            _ => String::new(),
        };
    }
    cells[nodes] = "12x".into();
    std::fs::write(
        dir.path().join("cell.csv"),
        format!("{header}\n{}\n", cells.join(",")),
    )
    .unwrap();
    let o = run_in(dir.path(), &["summary", "cell.csv"]);
    refused(
        &o,
        &[&format!(
            "cell.csv:2:{}: column `nodes`: expected a whole number (or an empty cell), found \"12x\"",
            nodes + 1
        )],
    );
    std::fs::write(
        dir.path().join("short.csv"),
        format!("{header}\n{}\n", cells[1..].join(",")),
    )
    .unwrap();
    let o = run_in(dir.path(), &["summary", "short.csv"]);
    refused(
        &o,
        &[&format!(
            "short.csv:2: expected {fields} fields like the header, found {}",
            fields - 1
        )],
    );
}

#[test]
fn decode_marks_an_unsat_claim_as_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    encode_in(dir.path(), &p, "p.cnf");
    // The puzzle is satisfiable; a model file that says otherwise is only a claim.
    std::fs::write(dir.path().join("m.txt"), "c made up\ns UNSATISFIABLE\n").unwrap();
    let o = run_in(dir.path(), &["decode", "p.cnf", "m.txt"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "UNSATISFIABLE (unchecked: the model file says so; give the solver's DRAT proof with \
         --proof to check it)"
    );
    std::fs::write(dir.path().join("m2.txt"), "c nothing\n").unwrap();
    let o = run_in(dir.path(), &["decode", "p.cnf", "m2.txt"]);
    refused(&o, &["m2.txt:1:1: expected an answer"]);
}

#[test]
fn decode_checks_an_unsat_claim_against_a_drat_proof() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    encode_in(dir.path(), &p, "p.cnf");
    std::fs::write(dir.path().join("m.txt"), "s UNSATISFIABLE\n").unwrap();
    let decode = |proof: &str, text: &str| {
        std::fs::write(dir.path().join(proof), text).unwrap();
        run_in(dir.path(), &["decode", "p.cnf", "m.txt", "--proof", proof])
    };
    // The puzzle is satisfiable: no proof can refute it. One that stops short is not proved.
    let o = decode("short.drat", "c nothing derived\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).is_empty());
    assert!(
        stderr(&o).contains(
            "short.drat: the proof ends after 0 lemmas without deriving the empty clause"
        ) && stderr(&o).contains("the UNSATISFIABLE claim is not proved"),
        "{}",
        stderr(&o)
    );
    // An empty clause claimed outright is neither RUP nor RAT: named with its position.
    let o = decode("bogus.drat", "c\n  0\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("bogus.drat: line 2, column 3: lemma 1 `0` is neither RUP nor RAT"),
        "{}",
        stderr(&o)
    );
    // A malformed proof is bad input.
    let o = decode("bad.drat", "d 1 2 0\nd 3 x 0\n");
    refused(&o, &["bad.drat:2:5: expected a literal", "found `x`"]);
    // A clash is refuted by unit propagation on the formula alone: an empty proof checks it.
    let clash = format!("11{}\n", &PUZZLE[2..]);
    std::fs::write(dir.path().join("clash.txt"), clash).unwrap();
    encode_in(dir.path(), "clash.txt", "c.cnf");
    std::fs::write(dir.path().join("empty.drat"), "").unwrap();
    let o = run_in(
        dir.path(),
        &[
            "decode",
            "c.cnf",
            "m.txt",
            "--proof",
            "empty.drat",
            "--time-limit",
            "60",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).trim(),
        "UNSATISFIABLE (checked by the DRAT proof empty.drat: unit propagation on the formula \
         alone conflicts)"
    );
    let o = run_in(
        dir.path(),
        &["decode", "c.cnf", "m.txt", "--proof", "none.drat"],
    );
    refused(&o, &["none.drat:0:0: opening the proof"]);
}

#[test]
fn unknown_engine_options_and_missing_solvers_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    // (engine and flags after `solve FILE`, what the message must say)
    let cases: [(&[&str], &[&str]); 6] = [
        (
            &["--engine", "sat:bogus=1"],
            &["engine sat: expected one of its options `", "found `bogus`"],
        ),
        (
            &["--engine", "bnb:x=1"],
            &["engine bnb: expected its one option `order`, found `x`"],
        ),
        (
            &["--engine", "backtrack:x=1"],
            &["engine backtrack: expected no option (it takes none), found `x`"],
        ),
        (
            &["--engine", "sat", "--backend", "ext:/nonexistent/solver"],
            &[
                "backend ext: expected an executable solver",
                "found no such file: `/nonexistent/solver`",
            ],
        ),
        (
            &["--engine", "sat", "--backend", "ext:no-such-solver-xyz"],
            &["found no such file in any directory of PATH: `no-such-solver-xyz`"],
        ),
        // A number too large for its option is told the range, not "not a whole number".
        (
            &["--engine", "gac:seed=99999999999999999999"],
            &[
                "seed must be a whole number from 0 to 18446744073709551615",
                "\"99999999999999999999\"",
            ],
        ),
    ];
    for (flags, wanted) in cases {
        let mut args = vec!["solve", p.as_str()];
        args.extend_from_slice(flags);
        refused(&run_in(dir.path(), &args), wanted);
    }
}

#[test]
fn solve_takes_an_engine_spec_and_refuses_conflicting_flags() {
    let dir = tempfile::tempdir().unwrap();
    let p = puzzle_file(dir.path());
    let spec = run_in(
        dir.path(),
        &["solve", "--engine", "sat:encoding=optimized", "--csv", &p],
    );
    let flag = run_in(
        dir.path(),
        &[
            "solve",
            "--engine",
            "sat",
            "--encoding",
            "optimized",
            "--csv",
            &p,
        ],
    );
    assert_eq!(spec.status.code(), Some(0), "{}", stderr(&spec));
    // The same configuration either way: same engine and options cells, same vars/clauses.
    let cells = |o: &Output| -> Vec<String> {
        let text = stdout(o);
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let h = r.headers().unwrap().clone();
        let rec = r.records().next().unwrap().unwrap();
        ["engine", "engine_options", "status", "vars", "clauses"]
            .iter()
            .map(|c| rec[h.iter().position(|x| x == *c).unwrap()].to_string())
            .collect()
    };
    assert_eq!(
        cells(&spec),
        ["sat", "encoding=optimized", "unique", "303", "2843"]
    );
    assert_eq!(cells(&spec), cells(&flag));
    // The same value twice is fine; two values are an error naming both.
    let same = run_in(
        dir.path(),
        &[
            "solve",
            "--engine",
            "sat:encoding=optimized",
            "--encoding",
            "optimized",
            &p,
        ],
    );
    assert_eq!(same.status.code(), Some(0), "{}", stderr(&same));
    let o = run_in(
        dir.path(),
        &[
            "solve",
            "--engine",
            "sat:encoding=optimized",
            "--encoding",
            "minimal",
            &p,
        ],
    );
    refused(
        &o,
        &[
            "--encoding minimal conflicts with --engine sat:encoding=optimized",
            "found \"optimized\" and \"minimal\"",
        ],
    );
    let o = run_in(
        dir.path(),
        &["solve", "--engine", "sat:amo=pairwise,amo=sequential", &p],
    );
    refused(&o, &["one value for option amo"]);
}

/// `solve --csv` and `run` write their count cells with one writer: for SAT (no search tree)
/// `nodes`, `guesses`, `backtracks` are empty in both, and every count cell agrees.
#[test]
fn solve_and_run_write_the_same_count_cells() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = puzzle_file(d);
    std::fs::write(
        d.join("e.toml"),
        "name = \"same\"\n[[datasets]]\npath = \"p.txt\"\n\
         [[engines]]\nspec = \"sat:encoding=optimized\"\n\
         [[engines]]\nspec = \"dlx\"\n",
    )
    .unwrap();
    let o = run_in(
        d,
        &["run", "e.toml", "--out", "out/same.csv", "--no-charts"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut runs = csv::Reader::from_path(d.join("out/same.csv")).unwrap();
    let rh = runs.headers().unwrap().clone();
    let run_rows: Vec<csv::StringRecord> = runs.records().map(Result::unwrap).collect();
    let counts = [
        "nodes",
        "guesses",
        "backtracks",
        "max_live",
        "updates",
        "decisions",
        "conflicts",
        "propagations",
        "vars",
        "clauses",
        "literals",
        "items",
        "options",
        "ones",
    ];
    for engine in ["sat:encoding=optimized", "dlx"] {
        let o = run_in(d, &["solve", "--engine", engine, "--csv", &p]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        let mut r = csv::Reader::from_reader(text.as_bytes());
        let sh = r.headers().unwrap().clone();
        let srow = r.records().next().unwrap().unwrap();
        let name = engine.split(':').next().unwrap();
        let rrow = run_rows
            .iter()
            .find(|row| &row[rh.iter().position(|x| x == "engine").unwrap()] == name)
            .unwrap();
        let cell = |h: &csv::StringRecord, row: &csv::StringRecord, c: &str| {
            row[h.iter().position(|x| x == c).unwrap()].to_string()
        };
        for c in counts {
            // Counts of work done may differ between two runs only for engines with clocks
            // in them; these two are deterministic.
            assert_eq!(cell(&sh, &srow, c), cell(&rh, rrow, c), "{engine} {c}");
        }
        if name == "sat" {
            for c in ["nodes", "guesses", "backtracks", "updates"] {
                assert_eq!(cell(&sh, &srow, c), "", "{engine} {c} must be empty");
            }
            // And the plain output's header line does not print 0 for them.
            let o = run_in(d, &["solve", "--engine", engine, &p]);
            let head = stdout(&o);
            let head = head.lines().next().unwrap();
            assert!(
                !head.contains("nodes") && !head.contains("guesses"),
                "{head}"
            );
        } else {
            assert_ne!(cell(&sh, &srow, "nodes"), "");
        }
    }
}

#[test]
fn bitmask_refuses_a_huge_grid_before_building_and_reports_its_time() {
    let dir = tempfile::tempdir().unwrap();
    let n = 1024;
    let row = vec!["0"; n].join(" ");
    let text = vec![row.as_str(); n].join("\n") + "\n";
    std::fs::write(dir.path().join("big.txt"), text).unwrap();
    let o = run_in(
        dir.path(),
        &["solve", "--engine", "bitmask", "--csv", "big.txt"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let mut r = csv::Reader::from_reader(text.as_bytes());
    let h = r.headers().unwrap().clone();
    let rec = r.records().next().unwrap().unwrap();
    let cell = |c: &str| rec[h.iter().position(|x| x == c).unwrap()].to_string();
    assert_eq!(cell("status"), "unsupported");
    // No search ran: its counts are empty cells, not a search of 0 nodes.
    assert_eq!(
        (cell("nodes"), cell("guesses")),
        (String::new(), String::new())
    );
    assert!(
        cell("note").contains("found 1073741824 candidates"),
        "{}",
        cell("note")
    );
    // The time spent deciding is reported, not 0.
    let wall: f64 = cell("wall_s").parse().unwrap();
    assert!(wall > 0.0, "wall_s {wall}");
}

// ------------- bounds checked before work, positions named by every reader, round trips

#[test]
fn encode_refuses_a_formula_over_its_bound_before_writing() {
    let dir = tempfile::tempdir().unwrap();
    // the empty 512x512 grid: 9.7 billion literals and 537 million ones, counted not built
    std::fs::write(
        dir.path().join("e.txt"),
        format!("{}\n", ".".repeat(512 * 512)),
    )
    .unwrap();
    let o = run_in(dir.path(), &["encode", "e.txt", "-o", "e.cnf"]);
    refused(
        &o,
        &[
            "e.txt: puzzle 1: the formula has 9663676416 literals",
            "--max-size",
        ],
    );
    assert!(!dir.path().join("e.cnf").exists());
    let o = run_in(
        dir.path(),
        &["encode", "e.txt", "--to", "dlx", "-o", "e.dlx"],
    );
    refused(
        &o,
        &["exact-cover matrix has", "ones, over the bound 200000000"],
    );
    assert!(!dir.path().join("e.dlx").exists());
    // the bound is the user's to move
    let p = puzzle_file(dir.path());
    let o = run_in(dir.path(), &["encode", &p, "--max-size", "100"]);
    refused(&o, &["over the bound 100"]);
    let o = run_in(dir.path(), &["encode", &p, "--max-size", "100000"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn decode_names_the_formula_when_its_header_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.cnf"), "p cnf 2 1\n1 2 0\n").unwrap();
    std::fs::write(dir.path().join("m.txt"), "s SATISFIABLE\nv 1 2 0\n").unwrap();
    let o = run_in(dir.path(), &["decode", "f.cnf", "m.txt"]);
    refused(&o, &["f.cnf:1:1: no `c sudolab cnf` comment"]);
    // a wrong comment is named at its own line
    std::fs::write(
        dir.path().join("f.cnf"),
        "c sudolab cnf\nc encoding bogus\np cnf 2 1\n1 2 0\n",
    )
    .unwrap();
    let o = run_in(dir.path(), &["decode", "f.cnf", "m.txt"]);
    refused(&o, &["f.cnf:2:1: ", "bogus"]);
    // a literal past the formula's variables is refused where it stands
    std::fs::write(
        dir.path().join("m.txt"),
        "s SATISFIABLE\nv 1 2147483647 0\n",
    )
    .unwrap();
    let o = run_in(dir.path(), &["decode", "f.cnf", "m.txt"]);
    refused(
        &o,
        &["m.txt:2:5: literal 2147483647 names a variable above the formula's 2"],
    );
}

#[test]
fn a_jigsaw_solution_reads_back_as_the_same_jigsaw() {
    let dir = tempfile::tempdir().unwrap();
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/examples/jigsaw-9x9.txt");
    for output in ["line", "grid"] {
        let o = run_in(
            dir.path(),
            &["solve", data.to_str().unwrap(), "--output", output],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        std::fs::write(dir.path().join("out.txt"), &o.stdout).unwrap();
        let again = run_in(dir.path(), &["solve", "out.txt", "--output", output]);
        let text = stdout(&again);
        let headers: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
        assert!(!headers.is_empty());
        for h in &headers {
            assert!(h.contains("9x9 jigsaw: unique"), "{output}: {h}");
        }
        // the solutions (and their layouts) come back unchanged
        let body = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| !l.starts_with('#'))
                .map(str::to_string)
                .collect()
        };
        assert_eq!(body(&stdout(&o)), body(&text), "{output}");
    }
}

/// A run output of 6 rows (`out/c.csv` and its sidecar `out/c.json`) from `e.toml` in `d`.
fn run_output(d: &Path) -> Vec<String> {
    puzzle_file(d);
    std::fs::write(
        d.join("e.toml"),
        // one thread: rows in job order, so the messages below name fixed rows
        "name = \"cells\"\nrepetitions = 3\nthreads = 1\n[[datasets]]\npath = \"p.txt\"\n\
         [[engines]]\nengine = \"dlx\"\n[[engines]]\nengine = \"human\"\n",
    )
    .unwrap();
    let o = run_in(d, &["run", "e.toml", "--out", "out/c.csv", "--no-charts"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(d.join("out/c.csv")).unwrap();
    let lines: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(lines.len(), 7);
    lines
}

/// `lines` with the cell of `column` on line `line` (1-based) set to `cell`, written to
/// `name` with a copy of the run's sidecar (for `merge` and `--resume`).
fn spoiled(d: &Path, lines: &[String], line: usize, column: &str, cell: &str, name: &str) {
    let i = sudolab::records::COLUMNS
        .iter()
        .position(|c| *c == column)
        .unwrap();
    let mut lines = lines.to_vec();
    // The runner's rows have no quoted comma before the note (the last column).
    let mut cells: Vec<&str> = lines[line - 1].split(',').collect();
    cells[i] = cell;
    lines[line - 1] = cells.join(",");
    std::fs::write(d.join(name), lines.join("\n") + "\n").unwrap();
    std::fs::copy(d.join("out/c.json"), d.join(name.replace(".csv", ".json"))).unwrap();
}

/// `run --resume` of the run output copied to `bad.csv` ([`spoiled`]).
const RESUME_BAD: &[&str] = &[
    "run",
    "e.toml",
    "--out",
    "bad.csv",
    "--resume",
    "--no-charts",
];

/// Every reader of run rows (`summary`, `plot`, `report`, `merge`, `run --resume`) refuses a
/// cell the runner never writes, naming file, line, field and column: an infinite `cpu_s`
/// made `plot --kind bars` and `report` allocate until killed, NaN and negative times gave
/// "NaN s" and negative means, and an unknown status was counted as unsolved.
#[test]
fn every_reader_refuses_impossible_cells() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lines = run_output(d);
    let seconds = "expected a finite non-negative number of seconds";
    for (column, cell, expected) in [
        ("cpu_s", "inf", seconds),
        ("cpu_s", "NaN", seconds),
        ("wall_s", "-1", seconds),
        ("build_s", "1e300", seconds),
        ("solve_s", "-inf", seconds),
        ("time_limit_s", "inf", seconds),
        (
            "status",
            "bogus",
            "expected one of solved, unique, multiple, unsat",
        ),
    ] {
        spoiled(d, &lines, 3, column, cell, "bad.csv");
        let field = sudolab::records::COLUMNS
            .iter()
            .position(|c| *c == column)
            .unwrap()
            + 1;
        let at = format!("bad.csv:3:{field}: column `{column}`: {expected}");
        let found = format!("found {cell:?}");
        for args in [
            &["summary", "bad.csv"][..],
            &["plot", "bad.csv", "--kind", "bars", "--out", "x.svg"],
            &["report", "bad.csv", "-o", "x.html"],
            &["merge", "bad.csv", "-o", "m.csv", "--force"],
            RESUME_BAD,
        ] {
            let o = run_in(d, args);
            refused(&o, &[&at, &found]);
        }
    }
}

/// `run --resume` names the line a bad row is on (it said the next one) and the column of a
/// bad cell (it said `field 41`, counted from 0); a torn last row is still forgiven.
#[test]
fn resume_names_the_line_and_column_of_a_bad_row() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lines = run_output(d);
    spoiled(d, &lines, 4, "job", "x", "bad.csv");
    refused(
        &run_in(d, RESUME_BAD),
        &["bad.csv:4:42: column `job`: expected a whole number, found \"x\""],
    );
    let torn = |last: usize| {
        let mut cut = lines.clone();
        cut[last - 1] = cut[last - 1]
            .split(',')
            .take(40)
            .collect::<Vec<_>>()
            .join(",");
        std::fs::write(d.join("bad.csv"), cut.join("\n") + "\n").unwrap();
    };
    torn(4);
    refused(
        &run_in(d, RESUME_BAD),
        &["bad.csv:4: expected 46 fields like the header, found 40"],
    );
    // `summary` says the same line.
    refused(
        &run_in(d, &["summary", "bad.csv"]),
        &["bad.csv:4: expected 46 fields like the header, found 40"],
    );
    torn(7);
    let o = run_in(d, RESUME_BAD);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(d.join("bad.csv"))
            .unwrap()
            .lines()
            .count(),
        7
    );
}

/// An experiment `e.toml` in `d` of one puzzle file and one `dlx` configuration, with
/// `extra` before its tables, run with `--no-charts`.
fn run_experiment(d: &Path, extra: &str) -> Output {
    puzzle_file(d);
    std::fs::write(
        d.join("e.toml"),
        format!(
            "name = \"e\"\n{extra}[[datasets]]\npath = \"p.txt\"\n[[engines]]\nengine = \"dlx\"\n"
        ),
    )
    .unwrap();
    run_in(d, &["run", "e.toml", "--out", "o.csv", "--no-charts"])
}

/// A huge `repetitions` is a bad value of the file (it panicked with "capacity overflow",
/// or aborted on a 304 TB allocation), and so is a job list too large to plan.
#[test]
fn a_huge_repetitions_is_refused_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for reps in ["9223372036854775807", "100000000000", "10001"] {
        let o = run_experiment(d, &format!("repetitions = {reps}\n"));
        refused(
            &o,
            &[
                "e.toml:2:15: repetitions: expected a whole number from 1 to 10000",
                &format!("found {reps}"),
            ],
        );
    }
    // 10,000 repetitions of 2,000 puzzles: within each bound but 20,000,000 jobs.
    let many = format!("{PUZZLE}\n").repeat(2000);
    std::fs::write(d.join("many.txt"), many).unwrap();
    std::fs::write(
        d.join("m.toml"),
        "name = \"m\"\nrepetitions = 10000\n[[datasets]]\npath = \"many.txt\"\n\
         [[engines]]\nengine = \"dlx\"\n",
    )
    .unwrap();
    let o = run_in(d, &["run", "m.toml", "--out", "m.csv", "--no-charts"]);
    refused(
        &o,
        &["m.toml:2:15: repetitions: 2000 puzzles x 1 configurations x 10000 repetitions: 20000000 jobs", "--shard"],
    );
    let o = run_in(
        d,
        &[
            "run",
            "m.toml",
            "--out",
            "m.csv",
            "--no-charts",
            "--shard",
            "0/1",
        ],
    );
    refused(&o, &["20000000 jobs in shard 0/1"]);
}

/// `PUZZLE` with every given `d` replaced by `d + k` (mod 9): `k` = 0..9 give 9 puzzles.
fn relabelled(k: u32) -> String {
    PUZZLE
        .chars()
        .map(|c| match c.to_digit(10) {
            Some(d) if d > 0 => char::from_digit((d - 1 + k) % 9 + 1, 10).unwrap(),
            _ => c,
        })
        .collect()
}

/// `run --resume` and `merge` refuse rows of another puzzle file than the one the job
/// numbers now name: reordering the file made a resumed run keep some puzzles twice and
/// lose others, and a merge of shards run on two orders did the same.
#[test]
fn resume_and_merge_refuse_rows_of_a_different_puzzle_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let puzzles: Vec<String> = (0..4).map(relabelled).collect();
    let write = |order: &[usize]| {
        let text: String = order.iter().map(|&i| format!("{}\n", puzzles[i])).collect();
        std::fs::write(d.join("p.txt"), text).unwrap();
    };
    std::fs::write(
        d.join("e.toml"),
        "name = \"e\"\n[[datasets]]\npath = \"p.txt\"\n[[engines]]\nengine = \"dlx\"\n",
    )
    .unwrap();
    let run = |args: &[&str]| {
        let mut all = vec!["run", "e.toml", "--no-charts", "--threads", "1"];
        all.extend_from_slice(args);
        run_in(d, &all)
    };
    write(&[0, 1, 2, 3]);
    let o = run(&["--out", "o.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The last row lost, as by a kill.
    let text = std::fs::read_to_string(d.join("o.csv")).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(d.join("o.csv"), kept.join("\n") + "\n").unwrap();
    write(&[3, 2, 1, 0]);
    let cell = |i: usize| puzzles[i].replace('0', ".");
    let expected = format!("expected {:?}, found puzzle 1 {:?}", cell(3), cell(0));
    refused(
        &run(&["--out", "o.csv", "--resume"]),
        &[
            "o.csv:2: job 0 is puzzle 1 of dataset p, p.txt:1",
            &expected,
        ],
    );

    // Shards of one experiment run on the two orders.
    write(&[0, 1, 2, 3]);
    let o = run(&["--out", "s0.csv", "--shard", "0/2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    write(&[3, 2, 1, 0]);
    let o = run(&["--out", "s1.csv", "--shard", "1/2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_in(d, &["merge", "s0.csv", "s1.csv", "-o", "m.csv"]);
    let found = format!(
        "s1.csv:2: puzzle 2 of dataset p is {:?}, which s0.csv:3 has as puzzle 3",
        cell(2)
    );
    refused(&o, &[&found, "different puzzle files"]);
    assert!(!d.join("m.csv").exists());
}

/// A bad cell of a CSV with `\r\n` line ends is on the line it is on (it was named one line
/// early), for every reader of run rows.
#[test]
fn a_bad_cell_of_a_crlf_file_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let lines = run_output(d);
    spoiled(d, &lines, 5, "cpu_s", "inf", "bad.csv");
    let text = std::fs::read_to_string(d.join("bad.csv")).unwrap();
    std::fs::write(d.join("bad.csv"), text.replace('\n', "\r\n")).unwrap();
    let field = sudolab::records::COLUMNS
        .iter()
        .position(|c| *c == "cpu_s")
        .unwrap()
        + 1;
    let at = format!("bad.csv:5:{field}: column `cpu_s`");
    for args in [
        &["summary", "bad.csv"][..],
        &["plot", "bad.csv", "--kind", "bars", "--out", "x.svg"],
        &["report", "bad.csv", "-o", "x.html"],
        &["merge", "bad.csv", "-o", "m.csv", "--force"],
    ] {
        refused(&run_in(d, args), &[&at, "found \"inf\""]);
    }
    // A good CRLF file merges into the same rows as its LF original.
    std::fs::write(d.join("good.csv"), lines.join("\r\n") + "\r\n").unwrap();
    std::fs::copy(d.join("out/c.json"), d.join("good.json")).unwrap();
    let o = run_in(d, &["merge", "good.csv", "-o", "m.csv", "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let merged = std::fs::read_to_string(d.join("m.csv")).unwrap();
    let mut want = lines[1..].to_vec();
    want.sort_by_key(|l| l.rsplit(',').nth(4).unwrap().parse::<u64>().unwrap());
    let got: Vec<&str> = merged
        .lines()
        .skip(1)
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    assert_eq!(got, want);
}

/// `summary`, `plot` and `report` refuse a run read twice (`summary k.csv k.csv` counted
/// every run twice), naming both places.
#[test]
fn a_run_read_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_output(d);
    for args in [
        &["summary", "out/c.csv", "out/c.csv"][..],
        &[
            "plot",
            "out/c.csv",
            "out/c.csv",
            "--kind",
            "bars",
            "--out",
            "x.svg",
        ],
        &["report", "out/c.csv", "out/c.csv", "-o", "x.html"],
    ] {
        refused(
            &run_in(d, args),
            &[
                "out/c.csv:",
                "repetition 0 (job 0, experiment cells) is also at out/c.csv:2",
                "counted once",
            ],
        );
    }
}

/// `solve --max-solutions 0` printed the first 1,000 solutions without a word: the `#` line
/// says when fewer are printed than counted, and `--print-solutions` sets how many.
#[test]
fn solve_says_when_it_prints_fewer_solutions_than_it_counts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("e.txt"), format!("{}\n", "0".repeat(16))).unwrap();
    let solve = |print: &str| {
        let o = run_in(
            d,
            &[
                "solve",
                "e.txt",
                "--format",
                "line",
                "--max-solutions",
                "0",
                "--print-solutions",
                print,
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let out = stdout(&o);
        let grids = out.lines().filter(|l| !l.starts_with('#')).count();
        (out, grids)
    };
    let (out, grids) = solve("5");
    assert!(
        out.contains("288 solutions (the first 5 printed; --print-solutions 0 prints all)"),
        "{out}"
    );
    assert_eq!(grids, 5);
    let (out, grids) = solve("0");
    assert!(
        out.contains("288 solutions,") && !out.contains("printed"),
        "{out}"
    );
    assert_eq!(grids, 288);
}

/// `decode` of a model file that is not text said "stream did not contain valid UTF-8",
/// with no position.
#[test]
fn decode_names_where_a_model_is_not_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = puzzle_file(d);
    encode_in(d, &input, "p.cnf");
    std::fs::write(d.join("junk.bin"), b"s SAT\nv 1 \xff\xfe 0\n").unwrap();
    refused(
        &run_in(d, &["decode", "p.cnf", "junk.bin"]),
        &["junk.bin:2:5: expected UTF-8 text"],
    );
}

/// `merge` takes the output lock `run` takes: it wrote over an output another process held.
#[test]
fn merge_refuses_an_output_another_process_holds() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    run_output(d);
    let _held = sudolab::records::rowfile::OutputLock::take(&d.join("m.csv")).unwrap();
    refused(
        &run_in(d, &["merge", "out/c.csv", "-o", "m.csv", "--force"]),
        &["m.csv: another `sudolab run` is writing this output"],
    );
    assert_eq!(std::fs::read(d.join("m.csv")).unwrap().len(), 0);
}

/// Flags that cannot apply were ignored without a word: CNF options with `encode --to dlx`,
/// and `--box` on jigsaw puzzles.
#[test]
fn flags_that_cannot_apply_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = puzzle_file(d);
    for flag in [
        &["--encoding", "minimal"][..],
        &["--amo", "pairwise"],
        &["--dedup"],
    ] {
        let mut args = vec!["encode", &input, "--to", "dlx", "-o", "x.dlx"];
        args.extend_from_slice(flag);
        refused(
            &run_in(d, &args),
            &[
                &format!("{} sets the CNF encoding", flag.join(" ")),
                "--to dlx",
            ],
        );
    }
    std::fs::write(
        d.join("j.txt"),
        "3.......4..2.6.1...1.9.8.2...5...6...2.....1...9...8...8.3.4.6...4.1.9..5.......7 \
         AAABBBCCCAAABBBCCCAAABBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII\n",
    )
    .unwrap();
    refused(
        &run_in(d, &["solve", "j.txt", "--format", "jigsaw", "--box", "1x9"]),
        &["j.txt:1:1: --box 1x9 does not go with a jigsaw puzzle"],
    );
}
