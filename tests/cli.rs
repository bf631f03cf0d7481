//! The command line as users and scripts call it: outputs, CSV columns, exit codes, and bad
//! input (a clear `file:line:column` error, exit 2, never a panic).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn sudolab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    sudolab().args(args).output().expect("run sudolab")
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = sudolab()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Rows of a CSV output as maps from column name to value.
fn csv_rows(o: &Output) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

const ENGINE_NAMES: [&str; 5] = ["backtrack", "bnb", "bitmask", "human", "binary"];

#[test]
fn project_euler_96_with_every_engine() {
    let pe96 = data("pe96.txt");
    for engine in ENGINE_NAMES {
        let o = run(&[
            "solve",
            pe96.to_str().unwrap(),
            "--engine",
            engine,
            "--csv",
            "--time-limit",
            "60",
        ]);
        assert!(o.status.success(), "{engine}: {}", stderr(&o));
        let rows = csv_rows(&o);
        assert_eq!(rows.len(), 50, "{engine}");
        let mut sum = 0;
        for row in &rows {
            assert_eq!(row["status"], "unique", "{engine} on {}", row["name"]);
            assert_eq!(row["solutions"], "1");
            sum += row["solution"][..3].parse::<u32>().unwrap();
        }
        assert_eq!(sum, 24702, "{engine}");
        assert_eq!(rows[0]["name"], "Grid 01");
        assert!(rows[0]["solution"].starts_with("483"));
    }
}

#[test]
fn csv_header_has_the_contract_columns() {
    let o = run_stdin(&["solve", "--csv", "-"], b"................\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let header = stdout(&o).lines().next().unwrap().to_string();
    let cols: Vec<&str> = header.split(',').collect();
    for c in [
        "source",
        "index",
        "size",
        "clues",
        "engine",
        "status",
        "solutions",
        "nodes",
        "guesses",
        "backtracks",
        "solve_s",
        "solution",
    ] {
        assert!(cols.contains(&c), "missing column {c} in {header}");
    }
}

#[test]
fn seed_walkthrough_on_the_empty_4x4_grid() {
    let o = run_stdin(
        &[
            "solve",
            "--engine",
            "backtrack",
            "--max-solutions",
            "1",
            "--csv",
        ],
        b"0000000000000000\n",
    );
    let rows = csv_rows(&o);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["solution"], "1234341221434321");
    assert_eq!(rows[0]["backtracks"], "0");
    assert_eq!(rows[0]["source"], "<stdin>");
    assert_eq!(rows[0]["size"], "4");
}

#[test]
fn clashing_givens_are_unsat_not_an_error() {
    let line = format!("11{}\n", ".".repeat(79));
    for engine in ENGINE_NAMES {
        let o = run_stdin(&["solve", "--engine", engine, "--csv"], line.as_bytes());
        assert!(o.status.success(), "{engine}: {}", stderr(&o));
        let rows = csv_rows(&o);
        assert_eq!(rows[0]["status"], "unsat", "{engine}");
        assert_eq!(rows[0]["solutions"], "0");
        assert_eq!(rows[0]["solution"], "");
    }
}

#[test]
fn solutions_print_in_the_input_form_and_reload() {
    let pe96 = data("pe96.txt");
    let o = run(&["solve", pe96.to_str().unwrap(), "--engine", "human"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(
        text.contains("483921657"),
        "grid form expected:\n{}",
        &text[..400]
    );
    // The printed solutions are themselves a puzzle file: solve it again, all unique, 0 guesses.
    let again = run_stdin(&["solve", "--csv", "-"], text.as_bytes());
    assert!(again.status.success(), "{}", stderr(&again));
    let rows = csv_rows(&again);
    assert_eq!(rows.len(), 50);
    assert!(rows
        .iter()
        .all(|r| r["status"] == "unique" && r["clues"] == "81"));
    let line = run(&["solve", pe96.to_str().unwrap(), "--output", "line"]);
    assert!(stdout(&line).lines().any(|l| l.starts_with("483921657")));
}

#[test]
fn limits_are_reported() {
    let hardest = data("norvig-hardest.txt");
    let o = run(&[
        "solve",
        hardest.to_str().unwrap(),
        "--engine",
        "backtrack",
        "--node-limit",
        "10",
        "--csv",
    ]);
    assert!(o.status.success());
    let rows = csv_rows(&o);
    assert!(rows.iter().all(|r| r["status"] == "node-limit"));
    assert!(rows.iter().all(|r| r["nodes"] == "10"));
    let empty9 = format!("{}\n", ".".repeat(81));
    let o = run_stdin(
        &["solve", "--engine", "bnb", "--max-live", "5000", "--csv"],
        empty9.as_bytes(),
    );
    let rows = csv_rows(&o);
    assert_eq!(rows[0]["status"], "memory-limit");
    assert!(rows[0]["max_live"].parse::<u64>().unwrap() <= 5000);
}

#[test]
fn engines_lists_every_engine_with_its_counts() {
    let o = run(&["engines"]);
    assert!(o.status.success());
    let text = stdout(&o);
    for e in ENGINE_NAMES {
        assert!(text.lines().any(|l| l == e), "{e} missing");
    }
    assert!(text.contains("nodes:"));
    let help = run(&["solve", "--help"]);
    assert!(
        stdout(&help).contains("nodes:"),
        "solve --help explains nodes"
    );
}

/// Bad input: an error that names the file, a line and a column, exit 2, never a panic.
#[test]
fn bad_input_is_reported_with_position() {
    let dir = tempfile::tempdir().unwrap();
    let cases: Vec<(&str, Vec<u8>, Vec<&str>)> = vec![
        (
            "short.txt",
            format!("{}\n", "1".repeat(80)).into_bytes(),
            vec![],
        ),
        (
            "symbol.txt",
            format!("12345678?{}\n", ".".repeat(72)).into_bytes(),
            vec![],
        ),
        (
            "too-big.txt",
            format!("A{}\n", ".".repeat(80)).into_bytes(),
            vec![],
        ),
        (
            "side.txt",
            format!("{}\n", ".".repeat(1100 * 1100)).into_bytes(),
            vec![],
        ),
        ("empty.txt", Vec::new(), vec![]),
        ("comments.txt", b"# nothing here\n\n".to_vec(), vec![]),
        (
            "bytes.txt",
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
                .collect(),
            vec![],
        ),
        (
            "regions.txt",
            format!("{} {}\n", ".".repeat(81), "A".repeat(81)).into_bytes(),
            vec!["--format", "jigsaw"],
        ),
        (
            "ragged.txt",
            b"1 2 3 4\n3 4 1\n2 1 4 3\n4 3 2 1\n".to_vec(),
            vec!["--format", "grid"],
        ),
    ];
    for (name, bytes, extra) in cases {
        let path = dir.path().join(name);
        std::fs::write(&path, &bytes).unwrap();
        let mut args = vec!["solve", path.to_str().unwrap()];
        args.extend(extra);
        let o = run(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        let prefix = format!("{}:", path.display());
        assert!(
            err.contains(&prefix),
            "{name}: error must name the file: {err}"
        );
        let pos = err.split(&prefix).nth(1).unwrap_or("");
        let mut parts = pos.splitn(3, ':');
        let line = parts.next().unwrap_or("");
        let col = parts.next().unwrap_or("");
        assert!(
            line.trim().parse::<usize>().is_ok() && col.trim().parse::<usize>().is_ok(),
            "{name}: error must give line and column: {err}"
        );
        assert!(
            o.stdout.is_empty(),
            "{name}: nothing solved from a bad file"
        );
    }
    let missing = run(&["solve", "/no/such/file.txt"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("/no/such/file.txt"));
    let usage = run(&[
        "solve",
        "--engine",
        "nope",
        data("pe96.txt").to_str().unwrap(),
    ]);
    assert_eq!(usage.status.code(), Some(2));
    assert!(stderr(&usage).contains("unknown engine"));
    let bad_flag = run(&["solve", "--time-limit", "-3"]);
    assert_eq!(bad_flag.status.code(), Some(2));
}

/// Engine names as `sudolab engines` lists them (unindented lines).
fn registered_engines() -> Vec<String> {
    let o = run(&["engines"]);
    stdout(&o)
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && !l.contains(' '))
        .map(str::to_string)
        .collect()
}

/// 6x6, 12x12, 16x16 (rk-16x16.txt), 9x9 jigsaw and 9x9 X-sudoku: every registered engine
/// finds the solution (max solutions 1; the fast engines also prove it unique). Breadth-first
/// bnb holds a whole tree level in memory, so on the larger grids it runs depth-first
/// (`--order lifo`), and its FIFO default must end honestly at its memory bound.
#[test]
fn every_size_and_variant_is_solved_by_every_engine() {
    let files: [(&str, &[&str]); 5] = [
        ("examples/6x6.txt", &[]),
        ("examples/12x12.txt", &[]),
        ("rk-16x16.txt", &[]),
        ("examples/jigsaw-9x9.txt", &["--format", "jigsaw"]),
        ("examples/x-9x9.txt", &["--diagonals"]),
    ];
    let engines = registered_engines();
    assert!(engines.len() >= 5, "{engines:?}");
    for (file, extra) in files {
        let path = data(file);
        let base = |engine: &str, k: &str| {
            let mut a = vec![
                "solve".to_string(),
                path.to_str().unwrap().to_string(),
                "--csv".into(),
                "--max-solutions".into(),
                k.into(),
                "--engine".into(),
                engine.into(),
            ];
            a.extend(extra.iter().map(|s| s.to_string()));
            a
        };
        let call = |args: Vec<String>| {
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            let o = run(&refs);
            assert!(o.status.success(), "{file}: {}", stderr(&o));
            csv_rows(&o)
        };
        let reference = call(base("human", "2"));
        assert!(reference.iter().all(|r| r["status"] == "unique"), "{file}");
        for engine in &engines {
            if engine == "fast" && !file.contains("x-9x9") {
                // `fast` is a 9x9 engine (classic and X): other grids are unsupported.
                let args = base(engine, "1");
                let refs: Vec<&str> = args.iter().map(String::as_str).collect();
                let o = run(&refs);
                assert!(stdout(&o).contains("unsupported"), "{file} fast");
                continue;
            }
            let mut args = base(engine, "1");
            if engine == "bnb" && !file.contains("6x6") {
                args.extend(["--order".to_string(), "lifo".to_string()]);
            }
            let rows = call(args);
            assert_eq!(rows.len(), reference.len(), "{file} {engine}");
            for (r, want) in rows.iter().zip(&reference) {
                assert_eq!(r["status"], "solved", "{file} {engine}: {r:?}");
                assert_eq!(r["solution"], want["solution"], "{file} {engine}");
            }
        }
        for fast in ["binary", "sat"] {
            let rows = call(base(fast, "2"));
            assert!(
                rows.iter().all(|r| r["status"] == "unique"),
                "{file} {fast}"
            );
        }
    }
    // Breadth-first on 12x12 exhausts its queue bound rather than the machine.
    let o = run(&[
        "solve",
        data("examples/12x12.txt").to_str().unwrap(),
        "--engine",
        "bnb",
        "--csv",
        "--max-live",
        "200000",
    ]);
    let rows = csv_rows(&o);
    assert!(rows.iter().all(|r| r["status"] == "memory-limit"));
    assert!(rows
        .iter()
        .all(|r| r["max_live"].parse::<u64>().unwrap() <= 200_000));
}

/// `verify --certify`: each puzzle is headed by its certified verdict, which stands beside
/// every configuration's answer; agreeing configurations exit 0; `--certify-out` keeps a
/// bundle that `certify --check` accepts; `--certify-out` without `--certify` is bad usage.
#[test]
fn verify_certify_prints_the_certified_verdict_beside_each_answer() {
    let dir = tempfile::tempdir().unwrap();
    let nine = dir.path().join("nine.txt");
    let four = dir.path().join("four.txt");
    std::fs::write(
        &nine,
        ".9..1.6.........852..4781..84...6.7.6..7.......1.......5..9.7.......4..2..2...93.\n",
    )
    .unwrap();
    std::fs::write(&four, "1234............\n11..............\n").unwrap();
    let bundle = dir.path().join("bundle");
    let o = run(&[
        "verify",
        "--certify",
        "--engines",
        "dlx,human,sat:encoding=minimal",
        nine.to_str().unwrap(),
        four.to_str().unwrap(),
        "--certify-out",
        bundle.to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let heads: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with(' ') && l.contains(".txt:"))
        .collect();
    assert_eq!(heads.len(), 3, "{out}");
    for (head, verdict) in heads.iter().zip(["unique", "multiple", "unsat"]) {
        assert!(head.ends_with(&format!(": certified {verdict}")), "{out}");
    }
    let runs: Vec<&str> = out.lines().filter(|l| l.starts_with("    ")).collect();
    assert_eq!(runs.len(), 9, "{out}");
    assert!(runs.iter().all(|l| l.ends_with("  agrees")), "{out}");
    assert!(
        out.contains("certified: multiple 1, unique 1, unsat 1; unchecked 0"),
        "{out}"
    );
    let check = run(&["certify", "--check", bundle.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
    assert!(stdout(&check).contains("3 accepted"), "{}", stdout(&check));

    // No certificate within the time limit (a 25x25 puzzle needs the solver, which starts
    // after 1 microsecond): said so, and the configurations are compared with each other.
    let o = run(&[
        "verify",
        "--certify",
        "--engines",
        "dlx,sat",
        "--time-limit",
        "0.000001",
        data("rk-25x25.txt").to_str().unwrap(),
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(
        out.contains(
            "rk-25x25.txt:1: unchecked (the prover stopped: time-limit): the configurations are \
             compared with each other"
        ),
        "{out}"
    );
    assert!(out.contains("certified: none; unchecked 1"), "{out}");

    let o = run(&["verify", "--certify-out", "x", four.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--certify"), "{}", stderr(&o));
}
