//! `sudolab certify` as a user runs it, and its bundles judged by two checkers that share no
//! code: `sudolab certify --check` (our DRAT checker, `src/cnf/drat.rs`) and `rate` (crates.io,
//! an independent DRAT checker) on the formula that `scripts/canonical-cnf.py` rebuilds from
//! the bundle entry alone.
//!
//! - Every verdict (`unique`, `multiple`, `unsat` without clashing givens, `unknown` at a time
//!   limit) on 4x4 to 25x25, jigsaw, X and jigsaw-X, on every encoding and at-most-one
//!   encoding: both checkers accept every entry, and the script's DIMACS is `sudolab encode
//!   --canonical`'s clause for clause.
//! - False claims (a swapped solution, a lost given, an altered lemma, two equal solutions,
//!   an `unsat` claim on a satisfiable puzzle): both checkers reject, and `--check` names the
//!   entry and the lemma.
//! - Malformed bundles exit 2 with `certificates.jsonl:LINE:COL`.
//!
//! `rate` (`cargo install rate --version 0.3.0 --locked`, which `scripts/ci/test.sh` does) and
//! `python3` are found on PATH or in `~/.cargo/bin`; without them the external half is
//! skipped with a warning, except under CI (`CI=true`), where the tests fail.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use sudolab::certify::bundle::{grid_text, Entry};
use tempfile::TempDir;

fn sudolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .output()
        .expect("run sudolab")
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn data(name: &str) -> PathBuf {
    repo("data").join(name)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn both(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

fn tmp() -> TempDir {
    tempfile::tempdir().unwrap()
}

// ---------------------------------------------------------------------------------------------
// The external checker.

/// Whether this is a CI run, where every external check must run.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// `name` on PATH, else in `~/.cargo/bin`.
fn find_program(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo/bin"));
    std::env::split_paths(&path)
        .chain(home)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The external half: `rate` and the `python3` that runs `scripts/canonical-cnf.py`.
struct External {
    rate: PathBuf,
    python: PathBuf,
}

/// `rate` and `python3`, or `None` with a warning (a failure under CI).
fn external() -> Option<External> {
    let rate = find_program("rate");
    let python = find_program("python3");
    if let (Some(rate), Some(python)) = (&rate, &python) {
        return Some(External {
            rate: rate.clone(),
            python: python.clone(),
        });
    }
    let missing: Vec<&str> = [("rate", rate.is_none()), ("python3", python.is_none())]
        .iter()
        .filter(|(_, m)| *m)
        .map(|(n, _)| *n)
        .collect();
    let what = missing.join(" and ");
    if under_ci() {
        panic!(
            "{what} not found (PATH, ~/.cargo/bin): scripts/ci/test.sh installs what is missing \
             (cargo install rate --version 0.3.0 --locked; apt-get install python3)"
        );
    }
    eprintln!("WARNING: {what} not found: skipping the checks by rate (they run under CI)");
    None
}

/// What `rate -d` said of a proof.
#[derive(Debug, PartialEq, Eq)]
enum Rate {
    Verified,
    NotVerified,
}

/// Runs `rate -d cnf proof`; its exit code and its `s` line must agree.
fn run_rate(ext: &External, cnf: &Path, proof: &Path) -> (Rate, String) {
    let o = Command::new(&ext.rate)
        .arg("-d")
        .arg(cnf)
        .arg(proof)
        .output()
        .expect("run rate");
    let out = both(&o);
    let said = |s: &str| out.lines().any(|l| l.trim() == s);
    let verdict = match o.status.code() {
        Some(0) if said("s VERIFIED") => Rate::Verified,
        Some(1) if said("s NOT VERIFIED") => Rate::NotVerified,
        _ => panic!(
            "rate on {} and {}: unexpected {:?}\n{out}",
            cnf.display(),
            proof.display(),
            o.status
        ),
    };
    (verdict, out)
}

/// The canonical formula of entry `line` of `bundle`, written by `scripts/canonical-cnf.py`.
fn script_cnf(ext: &External, bundle: &Bundle, line: usize) -> PathBuf {
    let o = Command::new(&ext.python)
        .arg(repo("scripts/canonical-cnf.py"))
        .arg(bundle.entries_path())
        .arg(line.to_string())
        .output()
        .expect("run python3");
    assert!(o.status.success(), "canonical-cnf.py: {}", both(&o));
    let cnf = bundle.dir.with_extension(format!("{line}.cnf"));
    std::fs::write(&cnf, &o.stdout).unwrap();
    cnf
}

/// `rate`'s answer on entry `line`'s proof against the script's formula for it.
fn rate_entry(ext: &External, bundle: &Bundle, line: usize) -> (Rate, String) {
    let proof = bundle.proof(line).expect("an entry with a proof");
    run_rate(ext, &script_cnf(ext, bundle, line), &proof)
}

/// The clauses of a DIMACS text, with its `p` line; comments dropped.
fn dimacs(text: &str) -> (String, Vec<Vec<i32>>) {
    let mut header = String::new();
    let mut clauses = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with('c') || line.is_empty() {
            continue;
        }
        if line.starts_with('p') {
            header = line.split_whitespace().collect::<Vec<_>>().join(" ");
            continue;
        }
        let lits: Vec<i32> = line
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(lits.last(), Some(&0), "clause line `{line}`");
        clauses.push(lits[..lits.len() - 1].to_vec());
    }
    (header, clauses)
}

// ---------------------------------------------------------------------------------------------
// Bundles.

/// A bundle made by `sudolab certify`, with the input options it was made with.
struct Bundle {
    dir: PathBuf,
    input: Vec<String>,
}

impl Bundle {
    /// `sudolab certify FILES INPUT EXTRA -o root/name`, which must succeed.
    fn make(root: &Path, name: &str, files: &[&Path], input: &[&str], extra: &[&str]) -> Bundle {
        let dir = root.join(name);
        let mut args = vec!["certify", "-q"];
        args.extend(files.iter().map(|f| path_str(f)));
        args.extend_from_slice(input);
        args.extend_from_slice(extra);
        args.extend(["-o", path_str(&dir)]);
        let o = sudolab(&args);
        assert!(o.status.success(), "{args:?}: {}", both(&o));
        Bundle {
            dir,
            input: input.iter().map(|s| s.to_string()).collect(),
        }
    }

    /// A copy of the bundle in `root/name`, to edit.
    fn copy(&self, root: &Path, name: &str) -> Bundle {
        let dir = root.join(name);
        std::fs::create_dir_all(dir.join("proofs")).unwrap();
        for f in std::fs::read_dir(self.dir.join("proofs")).unwrap() {
            let f = f.unwrap().path();
            std::fs::copy(&f, dir.join("proofs").join(f.file_name().unwrap())).unwrap();
        }
        std::fs::copy(self.entries_path(), dir.join("certificates.jsonl")).unwrap();
        Bundle {
            dir,
            input: self.input.clone(),
        }
    }

    fn entries_path(&self) -> PathBuf {
        self.dir.join("certificates.jsonl")
    }

    fn lines(&self) -> Vec<String> {
        std::fs::read_to_string(self.entries_path())
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    /// Entry `line` (1-based) as JSON.
    fn entry(&self, line: usize) -> Value {
        serde_json::from_str(&self.lines()[line - 1]).unwrap()
    }

    /// Entry `line` decoded by the library (to make puzzles from it).
    fn decoded(&self, line: usize) -> sudolab::certify::bundle::Decoded {
        let e: Entry = serde_json::from_str(&self.lines()[line - 1]).unwrap();
        e.decode().unwrap()
    }

    /// Replaces line `line` of `certificates.jsonl` by `text`; returns the new line.
    fn set_line(&self, line: usize, text: &str) -> String {
        let mut lines = self.lines();
        lines[line - 1] = text.to_string();
        std::fs::write(self.entries_path(), lines.join("\n") + "\n").unwrap();
        text.to_string()
    }

    /// Edits entry `line` as JSON; returns the new line.
    fn edit(&self, line: usize, f: impl FnOnce(&mut Value)) -> String {
        let mut e = self.entry(line);
        f(&mut e);
        self.set_line(line, &serde_json::to_string(&e).unwrap())
    }

    fn verdicts(&self) -> Vec<String> {
        (1..=self.lines().len())
            .map(|k| self.entry(k)["verdict"].as_str().unwrap().to_string())
            .collect()
    }

    fn proof(&self, line: usize) -> Option<PathBuf> {
        self.entry(line)["proof"].as_str().map(|p| self.dir.join(p))
    }

    /// `sudolab certify --check DIR`.
    fn check(&self) -> Output {
        sudolab(&["certify", "--check", path_str(&self.dir)])
    }

    /// Where `--check` places a message about `line`, column `col`.
    fn at(&self, line: usize, col: usize) -> String {
        format!("{}:{line}:{col}: ", self.entries_path().display())
    }
}

/// Both checkers accept every entry of `bundle`, whose verdicts are `expected`.
fn both_accept(bundle: &Bundle, expected: &[&str], ext: Option<&External>) {
    let name = bundle.dir.display();
    assert_eq!(bundle.verdicts(), expected, "{name}");
    let o = bundle.check();
    let n = expected.len();
    assert_eq!(o.status.code(), Some(0), "{name}: {}", both(&o));
    assert!(
        stdout(&o).contains(&format!("{n} entries in"))
            && stdout(&o).contains(&format!("{n} accepted, 0 rejected, 0 malformed")),
        "{name}: {}",
        both(&o)
    );
    for k in 1..=n {
        let e = bundle.entry(k);
        assert_eq!(e["checked"], true, "{name}:{k}: the tool's own check: {e}");
        let has_proof = matches!(expected[k - 1], "unique" | "unsat");
        assert_eq!(bundle.proof(k).is_some(), has_proof, "{name}:{k}");
        if let (true, Some(r)) = (has_proof, ext) {
            let (verdict, out) = rate_entry(r, bundle, k);
            assert_eq!(verdict, Rate::Verified, "{name}:{k}: rate: {out}");
        }
    }
}

/// The script's DIMACS for entry `line` is `sudolab encode --canonical`'s (with `--block` for
/// a `unique` entry) clause for clause, in the same order.
fn script_matches_encode(ext: &External, bundle: &Bundle, line: usize) {
    let e = bundle.entry(line);
    let index = e["index"].to_string();
    let mut args = vec![
        "encode",
        "--canonical",
        e["source"].as_str().unwrap(),
        "--index",
        &index,
    ];
    args.extend(bundle.input.iter().map(String::as_str));
    let solution;
    if e["verdict"] == "unique" {
        solution = e["solutions"][0].as_str().unwrap().to_string();
        args.extend(["--block", &solution]);
    }
    let o = sudolab(&args);
    assert!(o.status.success(), "{args:?}: {}", both(&o));
    let ours = dimacs(&stdout(&o));
    let script = dimacs(&std::fs::read_to_string(script_cnf(ext, bundle, line)).unwrap());
    assert!(!ours.1.is_empty());
    assert_eq!(ours.0, script.0, "{}:{line}: p lines", bundle.dir.display());
    assert!(
        ours.1 == script.1,
        "{}:{line}: the script's clauses differ from encode --canonical's",
        bundle.dir.display()
    );
}

// ---------------------------------------------------------------------------------------------
// Puzzles made from a certified one.

/// The givens of entry `line` with one more given: a digit that its solution does not hold in
/// that cell and that clashes with no given. No solution allows it (the puzzle is unique), so
/// the puzzle is unsat without a clash among its givens.
fn unsat_givens(bundle: &Bundle, line: usize) -> Vec<u16> {
    let d = bundle.decoded(line);
    let (g, solution) = (&d.geometry, &d.solutions[0]);
    let mut givens = d.givens.clone();
    for cell in 0..givens.len() {
        if givens[cell] != 0 {
            continue;
        }
        for digit in 1..=g.n() as u16 {
            givens[cell] = digit;
            if digit != solution[cell] && g.first_clash(&givens).is_none() {
                return givens;
            }
        }
        givens[cell] = 0;
    }
    panic!("no wrong digit fits an empty cell of entry {line}")
}

/// The givens of entry `line` less every other given: several solutions.
fn weaker_givens(bundle: &Bundle, line: usize) -> Vec<u16> {
    let mut givens = bundle.decoded(line).givens;
    let mut keep = false;
    for d in givens.iter_mut().filter(|d| **d != 0) {
        if !keep {
            *d = 0;
        }
        keep = !keep;
    }
    givens
}

/// Writes puzzles of the geometry of entry 1 of `bundle` as a line-format file (jigsaw: the
/// givens, a space and the region letters).
fn write_puzzles(bundle: &Bundle, puzzles: &[Vec<u16>], path: &Path) {
    let d = bundle.decoded(1);
    let regions: Option<String> = d.geometry.is_jigsaw().then(|| {
        d.geometry
            .regions()
            .iter()
            .map(|&r| char::from(b'A' + r as u8))
            .collect()
    });
    let mut text = String::new();
    for p in puzzles {
        text.push_str(&grid_text(p, &d.geometry));
        if let Some(r) = &regions {
            text.push(' ');
            text.push_str(r);
        }
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

impl Bundle {
    /// Certifies `puzzles` (givens in the geometry of entry 1) as `root/name.txt`, with this
    /// bundle's input options and `extra`.
    fn certify_puzzles(
        &self,
        root: &Path,
        name: &str,
        puzzles: &[Vec<u16>],
        extra: &[&str],
    ) -> Bundle {
        let file = root.join(format!("{name}.txt"));
        write_puzzles(self, puzzles, &file);
        let input: Vec<&str> = self.input.iter().map(String::as_str).collect();
        Bundle::make(root, name, &[&file], &input, extra)
    }
}

/// Certifies `file` (all unique), then an unsat and a several-solution puzzle made from its
/// first: both checkers accept everything, and the script's formula is `encode`'s.
/// Returns the bundle of `file`.
fn every_verdict(
    root: &Path,
    name: &str,
    file: &Path,
    input: &[&str],
    ext: Option<&External>,
) -> Bundle {
    let puzzles = Bundle::make(root, name, &[file], input, &[]);
    let n = puzzles.lines().len();
    both_accept(&puzzles, &vec!["unique"; n], ext);
    let variants = puzzles.certify_puzzles(
        root,
        &format!("{name}-made"),
        &[unsat_givens(&puzzles, 1), weaker_givens(&puzzles, 1)],
        &[],
    );
    both_accept(&variants, &["unsat", "multiple"], ext);
    if let Some(ext) = ext {
        script_matches_encode(ext, &puzzles, 1);
        script_matches_encode(ext, &variants, 1);
    }
    puzzles
}

/// The first `k` puzzles of `data/norvig-top95.txt` (hard 9x9: singles decide none of them),
/// as `root/norvig-K.txt`.
fn norvig(root: &Path, k: usize) -> PathBuf {
    let text = std::fs::read_to_string(data("norvig-top95.txt")).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(k)
        .collect();
    let path = root.join(format!("norvig-{k}.txt"));
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The bundle of `data/examples/6x6.txt` (2x3 boxes, every given needed).
fn six_by_six(root: &Path) -> Bundle {
    let file = data("examples/6x6.txt");
    Bundle::make(root, "6x6", &[&file], &["--box", "2x3"], &[])
}

/// `sudolab generate ARGS -o root/name`.
fn generate(root: &Path, name: &str, args: &[&str]) -> PathBuf {
    let path = root.join(name);
    let mut all = vec!["generate"];
    all.extend_from_slice(args);
    all.extend(["-o", path_str(&path)]);
    let o = sudolab(&all);
    assert!(o.status.success(), "{all:?}: {}", both(&o));
    path
}

// ---------------------------------------------------------------------------------------------
// Good bundles: both checkers accept.

#[test]
fn boxed_sizes_4_to_25_every_verdict_both_checkers_accept() {
    let ext = external();
    let root = tmp();
    let root = root.path();
    let four = generate(
        root,
        "4x4.txt",
        &["--size", "4", "--minimal", "--count", "3", "--seed", "1"],
    );
    every_verdict(root, "4x4", &four, &[], ext.as_ref());
    every_verdict(
        root,
        "6x6",
        &data("examples/6x6.txt"),
        &["--box", "2x3"],
        ext.as_ref(),
    );
    let nine = norvig(root, 4);
    every_verdict(root, "9x9", &nine, &[], ext.as_ref());
    every_verdict(root, "16x16", &data("rk-16x16.txt"), &[], ext.as_ref());
    every_verdict(root, "25x25", &data("rk-25x25.txt"), &[], ext.as_ref());
}

#[test]
fn jigsaw_x_and_jigsaw_x_every_verdict_both_checkers_accept() {
    let ext = external();
    let root = tmp();
    let root = root.path();
    let jigsaw = every_verdict(
        root,
        "jigsaw",
        &data("examples/jigsaw-9x9.txt"),
        &[],
        ext.as_ref(),
    );
    // The reader numbers regions by their first cell; an entry may number them otherwise
    // (here backwards) and states the same formula, whose houses come by their first cell.
    let renamed = jigsaw.copy(root, "jigsaw-renamed");
    let entries = renamed.lines().len();
    for k in 1..=entries {
        renamed.edit(k, |e| {
            let n = e["size"].as_u64().unwrap();
            for id in e["regions"].as_array_mut().unwrap() {
                *id = (n - 1 - id.as_u64().unwrap()).into();
            }
        });
    }
    assert_ne!(renamed.entry(1)["regions"], jigsaw.entry(1)["regions"]);
    both_accept(&renamed, &vec!["unique"; entries], ext.as_ref());
    if let Some(ext) = ext.as_ref() {
        script_matches_encode(ext, &renamed, 1);
    }
    every_verdict(
        root,
        "x",
        &data("examples/x-9x9.txt"),
        &["--diagonals"],
        ext.as_ref(),
    );
    let jx = generate(
        root,
        "jx.txt",
        &[
            "--size",
            "9",
            "--jigsaw",
            "--diagonals",
            "--clues",
            "30",
            "--count",
            "2",
            "--seed",
            "3",
        ],
    );
    every_verdict(root, "jigsaw-x", &jx, &["--diagonals"], ext.as_ref());
    let j6 = generate(
        root,
        "j6.txt",
        &[
            "--size",
            "6",
            "--jigsaw",
            "--minimal",
            "--count",
            "2",
            "--seed",
            "1",
        ],
    );
    every_verdict(root, "jigsaw-6", &j6, &[], ext.as_ref());
    let x6 = generate(
        root,
        "x6.txt",
        &[
            "--size",
            "6",
            "--box",
            "2x3",
            "--diagonals",
            "--minimal",
            "--seed",
            "1",
        ],
    );
    every_verdict(
        root,
        "x-6",
        &x6,
        &["--box", "2x3", "--diagonals"],
        ext.as_ref(),
    );
}

/// The at-most-one encodings of `--amo` (besides `auto`).
const AMOS: [&str; 6] = [
    "pairwise",
    "sequential",
    "binary",
    "product",
    "commander",
    "bimander",
];

#[test]
fn encodings_and_amos_both_checkers_accept() {
    let ext = external();
    let root = tmp();
    let root = root.path();
    // A hard 9x9 (not decided by singles, so the solver's proof is checked) and its unsat twin.
    let hard = norvig(root, 1);
    let first = Bundle::make(root, "first", &[&hard], &[], &["--encoding", "minimal"]);
    let two = [first.decoded(1).givens, unsat_givens(&first, 1)];
    let no_deductions = ["--locked", "false", "--probe", "false"];
    // Each encoding with three at-most-one encodings, each of those with two or three
    // encodings (the library's tests run the whole matrix with our checker alone).
    let encodings = ["minimal", "efficient", "extended", "optimized", "reduced"];
    for (i, encoding) in encodings.iter().enumerate() {
        for amo in &AMOS[3 * (i % 2)..3 * (i % 2) + 3] {
            let mut args = vec!["--encoding", encoding, "--amo", amo];
            if *encoding == "reduced" {
                // Without probing the solver decides (with it, propagation alone does).
                args.extend_from_slice(&no_deductions);
            }
            let b = first.certify_puzzles(root, &format!("{encoding}-{amo}"), &two, &args);
            both_accept(&b, &["unique", "unsat"], ext.as_ref());
        }
    }
    // reduced with its deductions (locked candidates and probing) as lemmas.
    let b = first.certify_puzzles(root, "reduced-probe", &two, &[]);
    both_accept(&b, &["unique", "unsat"], ext.as_ref());
}

#[test]
fn a_tiny_time_limit_gives_an_unknown_entry_that_the_check_accepts() {
    // A 25x25 puzzle takes hundreds of milliseconds to decide; one microsecond stops it at
    // any machine speed (the limit is checked while encoding and solving).
    let root = tmp();
    let root = root.path();
    let b = Bundle::make(
        root,
        "unknown",
        &[&data("rk-25x25.txt")],
        &[],
        &["--time-limit", "0.000001"],
    );
    both_accept(&b, &["unknown"], None);
    let e = b.entry(1);
    assert_eq!(e["note"], "stopped: time-limit", "{e}");
    assert_eq!(e["solutions"], serde_json::json!([]), "{e}");
}

#[test]
fn a_full_grid_is_unique_by_an_empty_blocking_clause() {
    // The canonical formula plus the empty blocking clause (no empty cell): our check accepts
    // the one-lemma proof. rate 0.3.0 is not run on it: it panics on a formula that holds the
    // empty clause.
    let root = tmp();
    let root = root.path();
    let src = six_by_six(root);
    let solution = src.decoded(1).solutions[0].clone();
    let b = src.certify_puzzles(root, "full", &[solution], &[]);
    both_accept(&b, &["unique"], None);
}

#[test]
fn sequential_form_both_checkers_agree() {
    // The prover states its proofs against the pairwise form up to side 48; the same proof
    // also refutes the sequential form when it has no auxiliary variable (unit propagation is
    // as strong on both), and refutes it no longer when its auxiliary variables take the
    // numbers of the sequential counter's: both checkers say so.
    let ext = external();
    let root = tmp();
    let root = root.path();
    let hard = norvig(root, 1);
    let cases = [
        ("rk16", data("rk-16x16.txt"), vec![], true),
        ("jigsaw", data("examples/jigsaw-9x9.txt"), vec![], true),
        (
            "pairwise",
            hard.clone(),
            vec!["--encoding", "minimal"],
            true,
        ),
        (
            "binary",
            hard,
            vec!["--encoding", "minimal", "--amo", "binary"],
            false,
        ),
    ];
    for (name, file, args, accepted) in cases {
        let made = Bundle::make(root, name, &[&file], &[], &args);
        let b = made.copy(root, &format!("{name}-seq"));
        let line = b.edit(1, |e| e["formula"] = "sequential".into());
        let o = b.check();
        if accepted {
            assert_eq!(o.status.code(), Some(0), "{name}: {}", both(&o));
        } else {
            assert_eq!(o.status.code(), Some(1), "{name}: {}", both(&o));
            assert!(stdout(&o).contains("(lemma "), "{name}: {}", both(&o));
        }
        let Some(r) = ext.as_ref() else { continue };
        let (verdict, out) = rate_entry(r, &b, 1);
        let want = if accepted {
            Rate::Verified
        } else {
            Rate::NotVerified
        };
        assert_eq!(verdict, want, "{name}: rate: {out}\n{line}");
        let o = sudolab(&[
            "encode",
            "--canonical",
            "--form",
            "sequential",
            path_str(&file),
            "--index",
            "1",
            "--block",
            b.entry(1)["solutions"][0].as_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", both(&o));
        let script = std::fs::read_to_string(script_cnf(r, &b, 1)).unwrap();
        assert!(
            dimacs(&stdout(&o)) == dimacs(&script),
            "{name}: sequential formulas differ"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// False claims: both checkers reject.

/// The lemma number and its line and column in the proof, as `--check` names them:
/// `(lemma K at PATH, line L, column C)`.
fn named_lemma(out: &str, proof: &Path) -> (u64, usize, usize) {
    let tail = format!(" at {}, line ", proof.display());
    let start = out
        .find("(lemma ")
        .unwrap_or_else(|| panic!("no lemma named: {out}"));
    let rest = &out[start + "(lemma ".len()..];
    let (lemma, rest) = rest
        .split_once(&tail)
        .unwrap_or_else(|| panic!("the lemma's proof file is not named: {out}"));
    let (line, rest) = rest.split_once(", column ").unwrap();
    let col = rest.split(')').next().unwrap();
    (
        lemma.parse().unwrap(),
        line.parse().unwrap(),
        col.parse().unwrap(),
    )
}

/// Line `line` (1-based) of `proof` is its lemma number `lemma` (additions counted, deletions
/// not): the position `--check` gives points at the lemma it names.
fn assert_lemma_at(proof: &Path, lemma: u64, line: usize, col: usize) {
    let text = std::fs::read_to_string(proof).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines[line - 1];
    assert!(!at.starts_with('d'), "line {line} is a deletion: {at}");
    assert!(col >= 1 && col <= at.len(), "column {col} of `{at}`");
    let additions = lines[..line]
        .iter()
        .filter(|l| !l.starts_with('d') && !l.trim().is_empty())
        .count() as u64;
    assert_eq!(additions, lemma, "line {line} `{at}`");
}

/// `--check` exits 1 with exactly one rejected entry, `line`, whose message holds `why`.
fn rejects_one(bundle: &Bundle, line: usize, total: usize, why: &str) -> String {
    let o = bundle.check();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{}", both(&o));
    let rejected: Vec<&str> = out.lines().filter(|l| l.contains(": rejected: ")).collect();
    assert_eq!(rejected.len(), 1, "{out}");
    assert!(
        rejected[0].starts_with(&format!("{}entry {line} (", bundle.at(line, 1))),
        "{out}"
    );
    assert!(rejected[0].contains(why), "expected `{why}`: {out}");
    assert!(
        out.contains(&format!("{total} entries in"))
            && out.contains(&format!("{} accepted, 1 rejected, 0 malformed", total - 1)),
        "{out}"
    );
    rejected[0].to_string()
}

#[test]
fn a_unique_claim_with_two_cells_swapped_is_rejected() {
    let root = tmp();
    let root = root.path();
    let nine = norvig(root, 3);
    let b = Bundle::make(root, "b", &[&nine], &[], &[]);
    let d = b.decoded(2);
    let n = d.geometry.n();
    // Two empty cells of one row holding different digits: the givens still hold, but the
    // columns (and maybe the boxes) of both cells now hold a digit twice.
    let (a, c) = (0..n * n)
        .flat_map(|a| (a + 1..(a / n + 1) * n).map(move |c| (a, c)))
        .find(|&(a, c)| d.givens[a] == 0 && d.givens[c] == 0)
        .unwrap();
    let mut swapped = d.solutions[0].clone();
    assert_ne!(swapped[a], swapped[c]);
    swapped.swap(a, c);
    b.edit(2, |e| {
        e["solutions"][0] = grid_text(&swapped, &d.geometry).into();
    });
    rejects_one(&b, 2, 3, "solution 1 is not a solution: digit");
}

#[test]
fn a_lost_given_with_the_old_unique_claim_is_rejected_by_both() {
    // Every given of the example puzzles is needed (they are minimal): without its first given
    // an X puzzle has several solutions, so the old proof cannot refute the weaker formula plus
    // the old solution's blocking clause.
    let ext = external();
    let root = tmp();
    let root = root.path();
    let src = data("examples/x-9x9.txt");
    let b = Bundle::make(root, "b", &[&src], &["--diagonals"], &[]);
    let mut givens = b.decoded(1).givens;
    let first = givens.iter().position(|&d| d != 0).unwrap();
    givens[first] = 0;
    let several = b.certify_puzzles(root, "weak", std::slice::from_ref(&givens), &[]);
    assert_eq!(several.verdicts(), ["multiple"]);

    let edited = b.copy(root, "edited");
    let g = edited.decoded(1).geometry;
    edited.edit(1, |e| e["puzzle"] = grid_text(&givens, &g).into());
    let msg = rejects_one(&edited, 1, 3, "the proof is rejected");
    let proof = edited.proof(1).unwrap();
    let (lemma, line, col) = named_lemma(&msg, &proof);
    assert_lemma_at(&proof, lemma, line, col);
    if let Some(r) = ext.as_ref() {
        let cnf = script_cnf(r, &edited, 1);
        // The script's formula is the weaker puzzle's with the old solution blocked.
        let (_, clauses) = dimacs(&std::fs::read_to_string(&cnf).unwrap());
        let empty = givens.iter().filter(|&&d| d == 0).count();
        assert_eq!(clauses.last().unwrap().len(), empty);
        let (verdict, out) = run_rate(r, &cnf, &proof);
        assert_eq!(verdict, Rate::NotVerified, "rate: {out}");
    }
}

#[test]
fn an_altered_lemma_is_rejected_by_both_at_its_position() {
    // A lemma of a solver proof replaced by the negation of a given: neither RUP (the given
    // is true and nothing conflicts) nor RAT (its resolvent with the given's unit clause is
    // the empty clause plus nothing, which propagation does not refute).
    let ext = external();
    let root = tmp();
    let root = root.path();
    let hard = norvig(root, 2);
    let good = Bundle::make(root, "good", &[&hard], &[], &["--encoding", "minimal"]);
    let b = good.copy(root, "altered");
    let d = b.decoded(1);
    let n = d.geometry.n();
    let given = d.givens.iter().position(|&x| x != 0).unwrap();
    let negated = -((given * n) as i64 + d.givens[given] as i64);
    let proof = b.proof(1).unwrap();
    let text = std::fs::read_to_string(&proof).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let additions: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].starts_with('d'))
        .collect();
    assert!(additions.len() > 100, "a solver proof: {}", additions.len());
    let lemma = additions.len() / 2; // 0-based: lemma number lemma + 1
    let line = additions[lemma];
    lines[line] = format!("{negated} 0");
    std::fs::write(&proof, lines.join("\n") + "\n").unwrap();

    let msg = rejects_one(&b, 1, 2, "neither RUP nor RAT");
    assert_eq!(
        named_lemma(&msg, &proof),
        (lemma as u64 + 1, line + 1, 1),
        "{msg}"
    );
    assert!(
        msg.contains(&format!("lemma {} `{negated} 0`", lemma + 1)),
        "{msg}"
    );
    if let Some(r) = ext.as_ref() {
        let (verdict, out) = rate_entry(r, &b, 1);
        assert_eq!(verdict, Rate::NotVerified, "rate: {out}");
        // rate names the same line of the proof.
        assert!(
            out.contains(&format!(":{} redundancy check failed", line + 1)),
            "rate: {out}"
        );
        // The unaltered proof passes both.
        both_accept(&good, &["unique", "unique"], Some(r));
    }
}

#[test]
fn a_multiple_claim_with_one_solution_twice_is_rejected() {
    let root = tmp();
    let root = root.path();
    let src = six_by_six(root);
    let b = src.certify_puzzles(
        root,
        "b",
        &[src.decoded(1).givens, weaker_givens(&src, 1)],
        &[],
    );
    assert_eq!(b.verdicts(), ["unique", "multiple"]);
    b.edit(2, |e| e["solutions"][1] = e["solutions"][0].clone());
    rejects_one(&b, 2, 2, "the two solutions are the same grid");
}

#[test]
fn an_unsat_claim_on_a_satisfiable_puzzle_with_another_proof_is_rejected_by_both() {
    let ext = external();
    let root = tmp();
    let root = root.path();
    // Entry 1: a unique puzzle; entry 2: the unsat twin of another puzzle.
    let hard = norvig(root, 2);
    let src = Bundle::make(root, "src", &[&hard], &[], &[]);
    let b = src.certify_puzzles(
        root,
        "b",
        &[src.decoded(2).givens, unsat_givens(&src, 1)],
        &["--encoding", "extended"],
    );
    both_accept(&b, &["unique", "unsat"], ext.as_ref());
    let other = b.entry(2)["proof"].clone();
    b.edit(1, |e| {
        e["verdict"] = "unsat".into();
        e["solutions"] = serde_json::json!([]);
        e["proof"] = other;
    });
    rejects_one(&b, 1, 2, "the proof is rejected");
    if let Some(r) = ext.as_ref() {
        let (verdict, out) = rate_entry(r, &b, 1);
        assert_eq!(verdict, Rate::NotVerified, "rate: {out}");
    }
}

// ---------------------------------------------------------------------------------------------
// Malformed bundles: exit 2, `certificates.jsonl:LINE:COL`.

/// `--check` exits 2 with one malformed entry, `line`, placed at column `col`, the message
/// holding `why`; the other entries are still checked.
fn malformed_one(bundle: &Bundle, line: usize, col: usize, total: usize, why: &str) -> String {
    let o = bundle.check();
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{}", both(&o));
    let at = bundle.at(line, col);
    let msg = out
        .lines()
        .find(|l| l.starts_with(&at))
        .unwrap_or_else(|| panic!("nothing at {at}: {out}"));
    assert!(msg.contains(why), "expected `{why}`: {out}");
    // The file's line is the only line named (serde_json's "at line 1 column C" counts the
    // lines of one entry's JSON text, not of the file).
    assert!(!msg.contains(" at line "), "{msg}");
    assert!(
        out.contains(&format!("{} accepted, 0 rejected, 1 malformed", total - 1)),
        "{out}"
    );
    msg.to_string()
}

/// The 1-based column of `"field"` in a JSON line.
fn column_of(line: &str, field: &str) -> usize {
    line.find(&format!("\"{field}\"")).unwrap() + 1
}

#[test]
fn malformed_bundles_exit_2_with_their_position() {
    let root = tmp();
    let root = root.path();
    let hard = norvig(root, 3);
    let good = Bundle::make(root, "good", &[&hard], &[], &["--encoding", "minimal"]);

    // A missing proof file: placed at the entry's `proof` field.
    let b = good.copy(root, "missing");
    std::fs::remove_file(b.proof(2).unwrap()).unwrap();
    let line = &b.lines()[1];
    malformed_one(&b, 2, column_of(line, "proof"), 3, "field `proof`");

    // An unknown verdict value: at the `verdict` field.
    let b = good.copy(root, "verdict");
    let line = b.edit(3, |e| e["verdict"] = "probably".into());
    malformed_one(
        &b,
        3,
        column_of(&line, "verdict"),
        3,
        "unknown verdict `probably`",
    );

    // A proof cut in the middle of a clause (after its first literal): the entry, and the
    // proof's own line.
    let b = good.copy(root, "truncated");
    let proof = b.proof(1).unwrap();
    let text = std::fs::read_to_string(&proof).unwrap();
    let (cut_line, offset) = text
        .lines()
        .scan(0usize, |at, l| {
            let start = *at;
            *at += l.len() + 1;
            Some((start, l))
        })
        .enumerate()
        .skip(text.lines().count() / 2)
        .find(|(_, (_, l))| !l.starts_with('d') && l.split_whitespace().count() >= 3)
        .map(|(i, (start, l))| (i + 1, start + l.find(' ').unwrap() + 1))
        .unwrap();
    std::fs::write(&proof, &text[..offset]).unwrap();
    let msg = malformed_one(&b, 1, 1, 3, &format!("line {cut_line}, column"));
    assert!(msg.contains(path_str(&proof)), "{msg}");

    // Broken JSON: the line cut short; placed where it ends.
    let b = good.copy(root, "json");
    let line = b.lines()[1].clone();
    let cut = &line[..line.len() - 10];
    b.set_line(2, cut);
    malformed_one(&b, 2, cut.len(), 3, "EOF while parsing");

    // An unknown field: placed at its name (where serde_json reads it: its closing quote).
    let b = good.copy(root, "field");
    let line = b.edit(2, |e| e["confidence"] = "high".into());
    malformed_one(
        &b,
        2,
        column_of(&line, "confidence") + "\"confidence\"".len() - 1,
        3,
        "unknown field `confidence`",
    );
}
