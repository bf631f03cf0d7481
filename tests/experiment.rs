//! `sudolab run` and `sudolab merge` as scripts call them: bad experiment files (exit 2,
//! file and key named), limits, refusing to overwrite, kill -9 then `--resume`, shards merged.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn sudolab(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_sudolab"));
    c.current_dir(dir);
    c
}

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
        .display()
        .to_string()
}

fn run(dir: &Path, args: &[&str]) -> Output {
    sudolab(dir).args(args).output().expect("run sudolab")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Rows of a CSV without the timing columns (and `shard` when asked), sorted: what two runs
/// of the same jobs must agree on.
fn comparable(path: &Path, drop_shard: bool) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let headers = r.headers().unwrap().clone();
    let mut skip = vec!["build_s", "solve_s", "cpu_s", "wall_s"];
    if drop_shard {
        skip.push("shard");
    }
    let mut rows: Vec<Vec<String>> = r
        .records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .filter(|(h, _)| !skip.contains(h))
                .map(|(_, v)| v.to_string())
                .collect()
        })
        .collect();
    rows.sort();
    rows
}

fn jobs_of(path: &Path) -> Vec<u64> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let i = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "job")
        .unwrap();
    r.records()
        .map(|rec| rec.unwrap()[i].parse().unwrap())
        .collect()
}

fn column(path: &Path, name: &str) -> Vec<String> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let i = r.headers().unwrap().iter().position(|h| h == name).unwrap();
    r.records().map(|rec| rec.unwrap()[i].to_string()).collect()
}

const BASE: &str = "name = \"t\"\n";

fn engines_human() -> String {
    format!(
        "[[datasets]]\npath = \"{}\"\n[[engines]]\nengine = \"human\"\n",
        data("pe96.txt")
    )
}

#[test]
fn bad_experiment_files_exit_2_naming_file_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: Vec<(&str, String, &[&str])> = vec![
        (
            "unknown.toml",
            format!("{BASE}{}optons = {{ order = \"lifo\" }}\n", engines_human()),
            &["unknown.toml:6:1", "engines[0].optons", "unknown field"],
        ),
        (
            "value.toml",
            format!("{BASE}[limits]\ntime = \"soon\"\n{}", engines_human()),
            &["value.toml:3:8", "limits.time", "seconds"],
        ),
        (
            "missing.toml",
            format!(
                "{BASE}[[datasets]]\npath = \"no/such.txt\"\n[[engines]]\nengine = \"human\"\n"
            ),
            &["missing.toml", "datasets[0].path", "no/such.txt"],
        ),
        (
            "option.toml",
            format!(
                "{BASE}{}encoding = \"minimall\"\n",
                engines_human().replace("human", "sat")
            ),
            &["option.toml", "engines[0]", "minimall"],
        ),
        (
            "engine.toml",
            format!("{BASE}{}", engines_human().replace("human", "humann")),
            &["engine.toml", "engines[0]", "humann"],
        ),
        (
            "noname.toml",
            engines_human(),
            &["noname.toml", "missing field `name`"],
        ),
    ];
    for (file, text, wanted) in cases {
        write(d, file, &text);
        let o = run(d, &["run", file, "--no-charts"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        for w in wanted {
            assert!(err.contains(w), "{file}: {w:?} not in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
        assert!(!d.join("results").exists(), "{file}: output created");
    }
}

#[test]
fn a_bad_dataset_file_stops_before_any_job() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "bad.txt", &format!("{}\n12345\n", ".".repeat(81)));
    write(
        d,
        "e.toml",
        &format!("{BASE}[[datasets]]\npath = \"bad.txt\"\n[[engines]]\nengine = \"human\"\n"),
    );
    let o = run(d, &["run", "e.toml", "--no-charts"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.txt:2:"), "{}", stderr(&o));
    assert!(!d.join("results/t.csv").exists());
}

#[test]
fn limits_end_searches_with_their_status() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // An empty grid has billions of solutions: counting them all (max_solutions = 0) only
    // ends at a limit. Clashing givens are not bad input: every engine says unsat.
    let clash = format!("11{}", ".".repeat(79));
    write(d, "p.txt", &format!("{}\n{clash}\n", ".".repeat(81)));
    write(
        d,
        "e.toml",
        "name = \"lim\"\nmax_solutions = 0\n[[datasets]]\npath = \"p.txt\"\n\
         [[engines]]\nengine = \"backtrack\"\nlabel = \"time\"\nlimits = { time = 0.2 }\n\
         [[engines]]\nengine = \"backtrack\"\nlabel = \"nodes\"\nlimits = { nodes = 5000 }\n\
         [[engines]]\nengine = \"bnb\"\nlabel = \"live\"\nlimits = { live = 2000 }\n",
    );
    let t = Instant::now();
    let o = run(d, &["run", "e.toml", "--no-charts", "--threads", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(t.elapsed() < Duration::from_secs(10));
    let out = d.join("results/lim.csv");
    let mut r = csv::Reader::from_path(&out).unwrap();
    let h = r.headers().unwrap().clone();
    let col = |name: &str| h.iter().position(|x| x == name).unwrap();
    let mut seen = BTreeSet::new();
    for rec in r.records() {
        let rec = rec.unwrap();
        let (config, idx, status) = (
            &rec[col("config")],
            &rec[col("puzzle_index")],
            &rec[col("status")],
        );
        seen.insert((config.to_string(), idx.to_string(), status.to_string()));
        if idx == "2" {
            assert_eq!(status, "unsat", "{config}");
            continue;
        }
        match config {
            "time" => {
                let wall: f64 = rec[col("wall_s")].parse().unwrap();
                assert!((0.2..2.0).contains(&wall), "wall {wall}");
                assert_eq!(status, "time-limit");
                assert_eq!(rec[col("time_limit_s")].parse::<f64>().unwrap(), 0.2);
            }
            "nodes" => {
                assert_eq!(status, "node-limit");
                assert_eq!(&rec[col("node_limit")], "5000");
            }
            "live" => {
                assert_eq!(status, "memory-limit");
                let live: u64 = rec[col("max_live")].parse().unwrap();
                assert!(live <= 2000, "max_live {live}");
            }
            other => panic!("config {other}"),
        }
    }
    assert_eq!(seen.len(), 6);
}

#[test]
fn an_existing_output_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "e.toml",
        &format!(
            "{BASE}{}[[datasets]]\npath = \"{}\"\nfirst = 3\n",
            engines_human(),
            data("norvig-top95.txt")
        )
        .replace(
            &format!("path = \"{}\"\n[[engines]]", data("pe96.txt")),
            &format!("path = \"{}\"\nfirst = 2\n[[engines]]", data("pe96.txt")),
        ),
    );
    let o = run(d, &["run", "e.toml", "--no-charts"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = d.join("results/t.csv");
    let before = std::fs::read(&out).unwrap();
    assert_eq!(jobs_of(&out).len(), 5);
    let o = run(d, &["run", "e.toml", "--no-charts"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("results/t.csv") && stderr(&o).contains("--resume"));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // A complete output resumed: nothing to do, nothing written twice.
    let o = run(d, &["run", "e.toml", "--no-charts", "--resume"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // The sidecar has the metadata, with an end time and the status counts.
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("results/t.json")).unwrap()).unwrap();
    assert_eq!(meta["experiment"], "t");
    assert_eq!(meta["jobs_total"], 5);
    assert_eq!(meta["status_counts"]["unique"], 5);
    assert!(meta["end"].as_str().unwrap().ends_with('Z'));
    assert_eq!(meta["sessions"].as_array().unwrap().len(), 2);
    // A different experiment text may not resume it.
    let text = std::fs::read_to_string(d.join("e.toml")).unwrap();
    write(d, "e.toml", &text.replace("first = 3", "first = 4"));
    let o = run(d, &["run", "e.toml", "--no-charts", "--resume"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("fingerprint"), "{}", stderr(&o));
}

/// Enough work to be killed mid-run: a node-limited (so deterministic) backtracking search
/// on hard puzzles, three repetitions, one thread.
fn long_experiment(d: &Path) {
    write(
        d,
        "long.toml",
        &format!(
            "name = \"long\"\nrepetitions = 3\nseed = 5\n[limits]\nnodes = 30000\n\
             [[datasets]]\npath = \"{}\"\n[[engines]]\nengine = \"backtrack\"\n\
             [[engines]]\nengine = \"human\"\n",
            data("norvig-top95.txt")
        ),
    );
}

#[test]
fn killed_then_resumed_equals_an_uninterrupted_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    long_experiment(d);
    let o = run(
        d,
        &[
            "run",
            "long.toml",
            "--no-charts",
            "--threads",
            "1",
            "--out",
            "full.csv",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let full = d.join("full.csv");
    assert_eq!(jobs_of(&full).len(), 95 * 2 * 3);

    let part = d.join("part.csv");
    let mut child = sudolab(d)
        .args([
            "run",
            "long.toml",
            "--no-charts",
            "--threads",
            "1",
            "--out",
            "part.csv",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    loop {
        let rows = std::fs::read(&part)
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .unwrap_or(0);
        if rows > 30 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "no rows appear");
        std::thread::sleep(Duration::from_millis(2));
    }
    // SIGKILL: no chance to clean up, as with a node failure or an OOM kill.
    child.kill().unwrap();
    child.wait().unwrap();
    let done = jobs_of(&part).len();
    assert!(
        done < 570,
        "the run finished before it was killed ({done} rows)"
    );
    // A write torn by the kill: the last line lacks its newline.
    let mut bytes = std::fs::read(&part).unwrap();
    bytes.extend_from_slice(b"long,norvig-top95,7,..5");
    std::fs::write(&part, bytes).unwrap();

    let o = run(
        d,
        &[
            "run",
            "long.toml",
            "--no-charts",
            "--threads",
            "2",
            "--out",
            "part.csv",
            "--resume",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut jobs = jobs_of(&part);
    jobs.sort();
    assert_eq!(
        jobs,
        (0..570).collect::<Vec<u64>>(),
        "each job exactly once"
    );
    assert_eq!(comparable(&part, false), comparable(&full, false));
}

#[test]
fn shards_merge_into_the_unsharded_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "s.toml",
        &format!(
            "name = \"s\"\nrepetitions = 2\n[[datasets]]\npath = \"{}\"\nfirst = 10\n\
             [[datasets]]\npath = \"{}\"\nfirst = 4\n\
             [[engines]]\nengine = \"human\"\n[[engines]]\nengine = \"dlx\"\n",
            data("pe96.txt"),
            data("norvig-top95.txt")
        ),
    );
    let o = run(d, &["run", "s.toml", "--no-charts", "--out", "all.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut shards = Vec::new();
    for i in 0..3 {
        let out = format!("s{i}.csv");
        let o = run(
            d,
            &[
                "run",
                "s.toml",
                "--no-charts",
                "--shard",
                &format!("{i}/3"),
                "--out",
                &out,
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(column(&d.join(&out), "shard")
            .iter()
            .all(|s| *s == format!("{i}/3")));
        shards.push(out);
    }
    let o = run(
        d,
        &["merge", "s0.csv", "s1.csv", "s2.csv", "-o", "merged.csv"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let merged = d.join("merged.csv");
    assert_eq!(
        jobs_of(&merged),
        (0..56).collect::<Vec<u64>>(),
        "sorted by job"
    );
    assert_eq!(
        comparable(&merged, true),
        comparable(&d.join("all.csv"), true)
    );
    let meta: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("merged.json")).unwrap()).unwrap();
    assert_eq!(meta["merged_from"].as_array().unwrap().len(), 3);

    // A shard left out: its jobs are missing.
    let o = run(d, &["merge", "s0.csv", "s1.csv", "-o", "m2.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing"), "{}", stderr(&o));
    assert!(!d.join("m2.csv").exists());
    // A shard given twice (under another name): its jobs are doubled.
    std::fs::copy(d.join("s1.csv"), d.join("again.csv")).unwrap();
    std::fs::copy(d.join("s1.json"), d.join("again.json")).unwrap();
    let o = run(
        d,
        &[
            "merge",
            "s0.csv",
            "s1.csv",
            "s2.csv",
            "again.csv",
            "-o",
            "m3.csv",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("doubled") && err.contains("again.csv"),
        "{err}"
    );
    // Outputs of another experiment do not merge.
    write(
        d,
        "other.toml",
        &std::fs::read_to_string(d.join("s.toml"))
            .unwrap()
            .replace("first = 4", "first = 5"),
    );
    let o = run(
        d,
        &[
            "run",
            "other.toml",
            "--no-charts",
            "--shard",
            "2/3",
            "--out",
            "o2.csv",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(d, &["merge", "s0.csv", "s1.csv", "o2.csv", "-o", "m4.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("fingerprint"), "{}", stderr(&o));
}

/// Breadth-first search on an empty 9x9 grid grows its queue without end: `live` must stop it
/// with `memory-limit` while the process stays small. (With the default 4,000,000 live nodes
/// the same run peaks near 0.5 GB; see docs/experiments.md.)
#[test]
fn bnb_on_an_empty_grid_stops_at_the_live_node_limit_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "empty.txt", &format!("{}\n", ".".repeat(81)));
    write(
        d,
        "b.toml",
        "name = \"b\"\nmax_solutions = 0\n[[datasets]]\npath = \"empty.txt\"\n\
         [[engines]]\nengine = \"bnb\"\nlimits = { live = 200000 }\n",
    );
    // Reaped by wait4 below, which also gives its peak RSS.
    #[allow(clippy::zombie_processes)]
    let child = sudolab(d)
        .args(["run", "b.toml", "--no-charts"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: zeroed rusage is a valid value; wait4 on our own child's pid.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    let peak_mb = usage.ru_maxrss / 1024;
    assert!(peak_mb < 150, "peak RSS {peak_mb} MB");
    let out = d.join("results/b.csv");
    assert_eq!(column(&out, "status"), ["memory-limit"]);
    let live: u64 = column(&out, "max_live")[0].parse().unwrap();
    assert!(live <= 200000 && live > 100000, "{live}");
}
