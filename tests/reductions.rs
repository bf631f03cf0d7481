//! The reductions as files for other tools: DIMACS written by `sudolab encode` is solved by
//! Debian's `minisat` and `cadical` and decoded back by `sudolab decode` to the grids the
//! engines find; an unsat puzzle gives `s UNSATISFIABLE`. Without the solvers installed these
//! tests print a notice and pass, except under CI (`CI` set), where they must run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sudolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .output()
        .expect("run sudolab")
}

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// The external solver's path, or `None` (with a notice) when it is not installed.
fn solver(name: &str) -> Option<PathBuf> {
    for dir in ["/usr/bin", "/usr/local/bin", "/bin"] {
        let p = Path::new(dir).join(name);
        if p.exists() {
            return Some(p);
        }
    }
    if std::env::var_os("CI").is_some() {
        panic!("{name} is not installed; scripts/ci/test.sh installs it with apt-get");
    }
    eprintln!("NOTICE: {name} not installed: skipping its checks");
    None
}

/// Line-form solutions of the puzzles of `file` as the classic `human` engine finds them.
fn solutions(file: &Path) -> Vec<String> {
    let o = sudolab(&[
        "solve",
        file.to_str().unwrap(),
        "--csv",
        "--max-solutions",
        "1",
    ]);
    assert!(o.status.success());
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let col = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "solution")
        .unwrap();
    r.records()
        .map(|rec| rec.unwrap()[col].to_string())
        .collect()
}

/// Writes DIMACS for puzzle `k` of `file`, runs `solver` on it, decodes the model.
fn round_trip(solver_path: &Path, dir: &Path, file: &Path, k: usize, enc: &str) -> (i32, String) {
    let cnf = dir.join(format!("p{k}-{enc}.cnf"));
    let model = dir.join(format!("p{k}-{enc}.model"));
    let o = sudolab(&[
        "encode",
        file.to_str().unwrap(),
        "--index",
        &k.to_string(),
        "--encoding",
        enc,
        "-o",
        cnf.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let is_minisat = solver_path.ends_with("minisat");
    let run = if is_minisat {
        Command::new(solver_path)
            .arg("-verb=0")
            .arg(&cnf)
            .arg(&model)
            .output()
            .unwrap()
    } else {
        let r = Command::new(solver_path)
            .arg("-q")
            .arg(&cnf)
            .output()
            .unwrap();
        std::fs::write(&model, &r.stdout).unwrap();
        r
    };
    let code = run.status.code().unwrap_or(-1);
    let d = sudolab(&["decode", cnf.to_str().unwrap(), model.to_str().unwrap()]);
    assert!(d.status.success(), "{}", String::from_utf8_lossy(&d.stderr));
    (code, String::from_utf8_lossy(&d.stdout).trim().to_string())
}

#[test]
fn external_solvers_solve_what_encode_writes() {
    let dir = tempfile::tempdir().unwrap();
    let file = data("norvig-top95.txt");
    let expected = solutions(&file);
    for name in ["minisat", "cadical"] {
        let Some(path) = solver(name) else { continue };
        for k in 1..=6 {
            for enc in ["minimal", "extended", "optimized"] {
                let (code, grid) = round_trip(&path, dir.path(), &file, k, enc);
                assert_eq!(code, 10, "{name} {enc} puzzle {k}: exit 10 = satisfiable");
                assert_eq!(grid, expected[k - 1], "{name} {enc} puzzle {k}");
            }
        }
    }
}

#[test]
fn external_solvers_report_unsat() {
    let dir = tempfile::tempdir().unwrap();
    // Two 1s in the first row: no solution.
    let file = dir.path().join("clash.txt");
    std::fs::write(&file, format!("11{}\n", ".".repeat(79))).unwrap();
    for name in ["minisat", "cadical"] {
        let Some(path) = solver(name) else { continue };
        for enc in ["minimal", "extended"] {
            let (code, out) = round_trip(&path, dir.path(), &file, 1, enc);
            assert_eq!(code, 20, "{name} {enc}: exit 20 = unsatisfiable");
            // A claim decode cannot check (no proof): marked as such, not printed as a result.
            assert_eq!(
                out,
                "UNSATISFIABLE (unchecked: the model file says so; give the solver's DRAT \
                 proof with --proof to check it)"
            );
        }
    }
    if let Some(path) = solver("cadical") {
        let cnf = dir.path().join("p1-extended.cnf");
        let r = Command::new(path).arg("-q").arg(&cnf).output().unwrap();
        assert!(String::from_utf8_lossy(&r.stdout).contains("s UNSATISFIABLE"));
    }
}

/// A puzzle that is unsat only by search: norvig-top95 #1 with a wrong digit in its first
/// empty cell, one that no given in its row, column or box rules out.
fn wrong_digit_puzzle(dir: &Path) -> PathBuf {
    let file = data("norvig-top95.txt");
    let line = std::fs::read_to_string(&file)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string();
    let solution = solutions(&file).remove(0);
    let cells: Vec<u8> = line.bytes().collect();
    let c = cells.iter().position(|&b| b == b'.' || b == b'0').unwrap();
    let (r, k) = (c / 9, c % 9);
    let peers: Vec<u8> = (0..81)
        .filter(|&o| o / 9 == r || o % 9 == k || (o / 27 == c / 27 && o % 9 / 3 == k / 3))
        .map(|o| cells[o])
        .collect();
    let d = (b'1'..=b'9')
        .find(|&d| d != solution.as_bytes()[c] && !peers.contains(&d))
        .unwrap();
    let mut wrong = cells.clone();
    wrong[c] = d;
    let path = dir.join("wrong.txt");
    std::fs::write(&path, [&wrong[..], b"\n"].concat()).unwrap();
    path
}

#[test]
fn decode_checks_cadical_drat_proofs() {
    let Some(cadical) = solver("cadical") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let wrong = wrong_digit_puzzle(dir.path());
    // `minimal` gives unit propagation the least to work with, so the proof has lemmas.
    for (cnf, puzzle) in [
        ("wrong.cnf", wrong.clone()),
        ("right.cnf", data("norvig-top95.txt")),
    ] {
        let o = sudolab(&[
            "encode",
            puzzle.to_str().unwrap(),
            "--index",
            "1",
            "--encoding",
            "minimal",
            "-o",
            &d(cnf),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for (proof, flag) in [("p.drat", "--no-binary"), ("p.bin", "--binary=true")] {
        let r = Command::new(&cadical)
            .args(["-q", flag, &d("wrong.cnf"), &d(proof)])
            .output()
            .unwrap();
        assert_eq!(
            r.status.code(),
            Some(20),
            "{}",
            String::from_utf8_lossy(&r.stdout)
        );
        std::fs::write(d("m.txt"), &r.stdout).unwrap();
        let o = sudolab(&["decode", &d("wrong.cnf"), &d("m.txt"), "--proof", &d(proof)]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{out} {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            out.starts_with(&format!(
                "UNSATISFIABLE (checked by the DRAT proof {}: lemma ",
                d(proof)
            )),
            "{out}"
        );
        // The same proof against the satisfiable puzzle's formula (same variables) must not
        // pass: a sound check cannot refute a satisfiable formula.
        let o = sudolab(&["decode", &d("right.cnf"), &d("m.txt"), "--proof", &d(proof)]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(
            err.contains("the UNSATISFIABLE claim is not proved"),
            "{err}"
        );
    }
}

#[test]
fn sat_engine_drives_an_external_solver() {
    let Some(path) = solver("cadical") else {
        return;
    };
    let rows = solve_external("norvig-top95.txt", &path, &[]);
    assert_eq!(rows.len(), 95);
    assert!(
        rows.iter()
            .all(|r| cell(r, "status") == "unique" && cell(r, "solutions") == "1"),
        "{:?}",
        rows[0]
    );
}

/// `solve FILE --engine sat --backend ext:PATH --csv` with `args` after it: its rows, each
/// as (column name, cell) pairs.
fn solve_external(file: &str, path: &Path, args: &[&str]) -> Vec<Vec<(String, String)>> {
    let backend = format!("ext:{}", path.display());
    let file = data(file);
    let mut all = vec![
        "solve",
        file.to_str().unwrap(),
        "--engine",
        "sat",
        "--backend",
        &backend,
        "--csv",
    ];
    all.extend_from_slice(args);
    let o = sudolab(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut r = csv::Reader::from_reader(&o.stdout[..]);
    let header: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    r.records()
        .map(|rec| {
            header
                .iter()
                .cloned()
                .zip(rec.unwrap().iter().map(String::from))
                .collect()
        })
        .collect()
}

/// The cell of column `name` in a row of [`solve_external`].
fn cell<'a>(row: &'a [(String, String)], name: &str) -> &'a str {
    &row.iter().find(|(k, _)| k == name).unwrap().1
}

/// `--node-limit` reaches an external CaDiCaL as its `-d N` option: `minimal` on rk-25x25
/// takes it hundreds of thousands of decisions, and a limit of 300 ends the run at 300
/// decisions (Debian's build then prints no answer line at all, only its statistics).
#[test]
fn an_external_cadical_stops_at_the_node_limit() {
    let Some(path) = solver("cadical") else {
        return;
    };
    let limits = [
        "--option",
        "encoding=minimal",
        "--node-limit",
        "300",
        "--time-limit",
        "60",
    ];
    let rows = solve_external("rk-25x25.txt", &path, &limits);
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(cell(row, "status"), "node-limit", "{row:?}");
    assert_eq!(cell(row, "decisions"), "300", "{row:?}");
    assert_eq!(cell(row, "note"), "", "{row:?}");
}

/// An external solver with no known decision option (MiniSat) takes `--node-limit` between
/// its calls only, from the decisions it prints, and every row that called it says so in
/// its note; a row answered by propagation alone (no call) has no note.
#[test]
fn an_external_solver_without_a_decision_option_says_so() {
    let Some(path) = solver("minisat") else {
        return;
    };
    let rows = solve_external("norvig-top95.txt", &path, &["--node-limit", "5"]);
    assert_eq!(rows.len(), 95);
    let note = format!(
        "node limit read between solve calls only: ext:{} takes no decision limit",
        path.display()
    );
    let mut called = 0;
    for row in &rows {
        if cell(row, "counters").contains("sat_calls=0") {
            assert_eq!(cell(row, "note"), "", "{row:?}");
        } else {
            called += 1;
            // A row that the solver's UNSATISFIABLE ended also says that it is unchecked.
            let expected = match cell(row, "status") {
                "node-limit" => note.clone(),
                _ => format!("{note}; {UNCHECKED}"),
            };
            assert_eq!(cell(row, "note"), expected, "{row:?}");
        }
    }
    assert!(called > 0, "no puzzle reached the solver");
}

/// The note of a row whose verdict an external solver's UNSATISFIABLE ends.
const UNCHECKED: &str = "unchecked: the external solver's UNSATISFIABLE is taken as it says \
     (certify=true checks a proof, with the embedded prover)";

/// An external solver's UNSATISFIABLE is not checked (models are, proofs are not asked
/// for): a program that says it to everything makes every puzzle that reaches it `unsat`,
/// and those rows say that the verdict is unchecked; a puzzle the propagation before the
/// solver fills has no call and no note. With a real solver the uniqueness proof (the
/// second call's UNSATISFIABLE) is the unchecked part, the solution itself is checked.
#[test]
fn an_external_unsat_is_marked_unchecked() {
    let dir = tempfile::tempdir().unwrap();
    let liar = dir.path().join("liar.sh");
    std::fs::write(&liar, "#!/bin/sh\necho 's UNSATISFIABLE'\n").unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&liar, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    for extra in [&[][..], &["--option", "incremental=true"][..]] {
        let rows = solve_external("norvig-top95.txt", &liar, extra);
        assert_eq!(rows.len(), 95);
        let mut called = 0;
        for row in &rows {
            if cell(row, "counters").contains("sat_calls=0") {
                assert_eq!(cell(row, "note"), "", "{row:?}");
                assert_eq!(cell(row, "status"), "unique", "{row:?}");
            } else {
                called += 1;
                assert_eq!(cell(row, "status"), "unsat", "{row:?}");
                assert_eq!(cell(row, "note"), UNCHECKED, "{row:?}");
            }
        }
        assert!(called > 0, "{extra:?}: no puzzle reached the solver");
    }
    if let Some(path) = solver("cadical") {
        let rows = solve_external("norvig-top95.txt", &path, &[]);
        for row in rows
            .iter()
            .filter(|r| !cell(r, "counters").contains("sat_calls=0"))
        {
            assert_eq!(cell(row, "status"), "unique", "{row:?}");
            assert_eq!(cell(row, "note"), UNCHECKED, "{row:?}");
        }
    }
}

#[test]
fn a_model_that_does_not_satisfy_the_formula_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let file = data("norvig-top95.txt");
    let cnf = dir.path().join("p.cnf");
    let o = sudolab(&[
        "encode",
        file.to_str().unwrap(),
        "--index",
        "1",
        "-o",
        cnf.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    // Every variable false: falsifies the cell clauses.
    let model = dir.path().join("bad.model");
    let lits: Vec<String> = (1..=729).map(|v| format!("-{v}")).collect();
    std::fs::write(&model, format!("s SATISFIABLE\nv {} 0\n", lits.join(" "))).unwrap();
    let d = sudolab(&["decode", cnf.to_str().unwrap(), model.to_str().unwrap()]);
    assert_eq!(d.status.code(), Some(1));
    // the clause in DIMACS form, numbered from 1 in file order (no Rust debug list)
    let err = String::from_utf8_lossy(&d.stderr);
    assert!(
        err.contains(
            "expected a model that makes every clause true, found clause 1 of the formula false: `"
        ) && err.contains(" 0` (no literal true)")
            && !err.contains('['),
        "{err}"
    );
    // A file that is not a model at all is bad input.
    std::fs::write(&model, "hello\n").unwrap();
    let d = sudolab(&["decode", cnf.to_str().unwrap(), model.to_str().unwrap()]);
    assert_eq!(
        d.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&d.stderr)
    );
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `sudolab stats` prints the published sizes (Lynce & Ouaknine; the AMO variants; Knuth).
#[test]
fn stats_reproduce_the_published_sizes() {
    let o = sudolab(&["stats"]);
    assert!(o.status.success());
    let t = text(&o);
    for row in [
        "cnf,minimal,pairwise,false,729,8829,",
        "cnf,efficient,pairwise,false,729,11745,",
        "cnf,extended,pairwise,false,729,11988,26244,",
        "cnf,extended,sequential,false,3321,7776,",
        "cnf,extended,binary,false,2025,11988,",
        "cnf,extended,product,false,2673,8100,",
        "cnf,extended,commander,false,1701,8100,",
        "exact-cover,,,,,,,324,729,2916",
    ] {
        assert!(t.contains(row), "missing {row} in\n{t}");
    }
    let d = text(&sudolab(&["stats", "--dedup", "--amos", "pairwise"]));
    assert!(d.contains("minimal,pairwise,true,729,7371,"));
    assert!(d.contains("extended,pairwise,true,729,10530,"));
    for (n, minimal, extended) in [(4, 304, 448), (16, 92416, 123904), (25, 563125, 752500)] {
        let t = text(&sudolab(&[
            "stats",
            "--size",
            &n.to_string(),
            "--amos",
            "pairwise",
        ]));
        assert!(
            t.contains(&format!("minimal,pairwise,false,{},{minimal},", n * n * n)),
            "{t}"
        );
        assert!(
            t.contains(&format!(
                "extended,pairwise,false,{},{extended},",
                n * n * n
            )),
            "{t}"
        );
    }
    let x = text(&sudolab(&["stats", "--diagonals", "--amos", "pairwise"]));
    assert!(
        x.contains(&format!("exact-cover,,,,,,,{},729,", 324 + 18)),
        "{x}"
    );
}

/// `encode --to dlx` writes Knuth's format; `sudolab dlx` solves it to the engines' grid.
#[test]
fn exact_cover_export_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let file = data("norvig-top95.txt");
    let expected = solutions(&file);
    for k in [1usize, 2, 3] {
        let path = dir.path().join(format!("p{k}.dlx"));
        let o = sudolab(&[
            "encode",
            "--to",
            "dlx",
            file.to_str().unwrap(),
            "--index",
            &k.to_string(),
            "-o",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success());
        let d = sudolab(&["dlx", path.to_str().unwrap()]);
        assert!(d.status.success(), "{}", String::from_utf8_lossy(&d.stderr));
        let t = text(&d);
        assert!(t.contains(": unique, 1 solution;"), "{t}");
        let grid_line = t.lines().find(|l| l.contains("grid (givens")).unwrap();
        let grid = grid_line.rsplit(' ').next().unwrap();
        // The decoded grid holds the non-given cells; it must agree with the solution there.
        for (g, e) in grid.chars().zip(expected[k - 1].chars()) {
            assert!(g == '.' || g == e, "{grid} vs {}", expected[k - 1]);
        }
    }
    // A filled grid leaves no item once its givens are covered; the file keeps the givens
    // as options, so `dlx` reads it and finds the one solution (none when the givens clash).
    let filled =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    let clash = format!("55{}", &filled[2..]);
    for (name, line, verdict) in [
        ("filled", filled, ": unique, 1 solution;"),
        ("clash", &clash, "unsat"),
    ] {
        let puzzle = dir.path().join(format!("{name}.txt"));
        std::fs::write(&puzzle, format!("{line}\n")).unwrap();
        let path = dir.path().join(format!("{name}.dlx"));
        let o = sudolab(&[
            "encode",
            "--to",
            "dlx",
            puzzle.to_str().unwrap(),
            "-o",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let d = sudolab(&["dlx", path.to_str().unwrap()]);
        assert!(
            d.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&d.stderr)
        );
        assert!(text(&d).contains(verdict), "{name}: {}", text(&d));
    }
    let bad = dir.path().join("bad.dlx");
    std::fs::write(&bad, "a b\na c\n").unwrap();
    let o = sudolab(&["dlx", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(":2:3:"));
}

/// The size test: `sat` with `optimized` and `dlx` each solve rk-25x25.txt, to the
/// same grid. Plain DLX1 does not finish it (hundreds of millions of nodes, see
/// docs/reductions.md), so `dlx` runs with Knuth's DLX-PRE elimination (`pre=true`), also
/// through `sudolab dlx --pre` on the exported matrix. Node limits, not clocks, keep this test honest on a slow machine.
#[test]
fn the_25x25_is_solved_by_sat_optimized_and_by_dlx_with_preprocessing() {
    let file = data("rk-25x25.txt");
    let f = file.to_str().unwrap();
    let grid = |o: &Output| {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let t = text(o);
        let row = t.lines().nth(1).unwrap().to_string();
        assert!(row.contains(",unique,1,"), "{row}");
        row.split(',').rev().nth(1).unwrap().to_string()
    };
    let sat = sudolab(&[
        "solve",
        "--engine",
        "sat",
        "--encoding",
        "optimized",
        "--csv",
        f,
    ]);
    let dlx = sudolab(&[
        "solve",
        "--engine",
        "dlx",
        "--option",
        "pre=true",
        "--node-limit",
        "100000",
        "--csv",
        f,
    ]);
    let (a, b) = (grid(&sat), grid(&dlx));
    assert_eq!(a.len(), 625);
    assert_eq!(a, b);
    let plain = sudolab(&[
        "solve",
        "--engine",
        "dlx",
        "--node-limit",
        "1000000",
        "--csv",
        f,
    ]);
    assert!(text(&plain).contains(",node-limit,0,"), "{}", text(&plain));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rk25.dlx");
    let o = sudolab(&["encode", "--to", "dlx", f, "-o", path.to_str().unwrap()]);
    assert!(o.status.success());
    let d = sudolab(&[
        "dlx",
        "--pre",
        "--max-solutions",
        "2",
        "--node-limit",
        "100000",
        path.to_str().unwrap(),
    ]);
    let t = text(&d);
    assert!(t.contains("preprocessing (DLX-PRE's rule) removed"), "{t}");
    assert!(t.contains(": unique, 1 solution;"), "{t}");
}

/// `verify` runs every engine and reduction variant and finds them in agreement; a wrong
/// answer would make it exit 1 (checked on the library's comparison in `src/verify.rs`).
#[test]
fn verify_agrees_on_every_variant() {
    let o = sudolab(&["verify", data("pe96.txt").to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(
        t.contains("agreed on 50 of 50 puzzle(s); 0 disagreement(s)"),
        "{t}"
    );
    let o = sudolab(&[
        "verify",
        data("examples/jigsaw-9x9.txt").to_str().unwrap(),
        "--format",
        "jigsaw",
        "--engines",
        "human,binary,dlx,sat:encoding=minimal,amo=sequential,sat:encoding=optimized,backend=batsat",
    ]);
    assert!(text(&o).contains("agreed on 3 of 3"), "{}", text(&o));
}
