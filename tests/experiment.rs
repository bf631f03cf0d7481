//! `sudolab run` and `sudolab merge` as scripts call them: bad experiment files (exit 2,
//! file and key named), limits, refusing to overwrite, kill -9 then `--resume`, shards merged.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
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

/// The text of a CSV, decompressed if it is gzip (every member).
fn text(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::MultiGzDecoder::new(bytes.as_slice()),
            &mut out,
        )
        .unwrap();
        out
    } else {
        bytes
    }
}

fn reader(path: &Path) -> csv::Reader<std::io::Cursor<Vec<u8>>> {
    csv::Reader::from_reader(std::io::Cursor::new(text(path)))
}

/// Rows of a CSV without the timing columns (and `shard` when asked), sorted: what two runs
/// of the same jobs must agree on.
fn comparable(path: &Path, drop_shard: bool) -> Vec<Vec<String>> {
    let mut r = reader(path);
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
    let mut r = reader(path);
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
    let mut r = reader(path);
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

/// A `[[charts]]` entry that no rows could draw stops the run before its first job, exit 2,
/// naming the file, line and column of the value at fault (not a warning after the last
/// job with exit 0), as `report --charts-from` refuses it.
#[test]
fn a_bad_chart_stops_the_run_before_its_first_job() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Lines 1-8; the chart's table starts at line 9, its key at line 10.
    let head = format!(
        "{BASE}[[datasets]]\npath = \"{}\"\nfirst = 2\n[[engines]]\nengine = \"human\"\n\
         [[engines]]\nengine = \"dlx\"\n",
        data("pe96.txt")
    );
    let cases: [(&str, &[&str]); 9] = [
        (
            "kind = \"scatter\"\nx = \"nonexistent\"\nmetric = \"foo\"\n",
            &["c.toml:12:10: charts[0].metric", "unknown metric `foo`"],
        ),
        (
            "kind = \"scatter\"\nx = \"nonexistent\"\n",
            &[
                "c.toml:11:5: charts[0].x",
                "`nonexistent`",
                "there are: human, dlx",
            ],
        ),
        (
            "kind = \"scatter\"\nmetric = \"foo\"\n",
            &[
                "c.toml:11:10: charts[0].metric",
                "unknown metric `foo`",
                "cpu_s",
            ],
        ),
        (
            "kind = \"bars\"\nmetric = \"nodes\"\n",
            &[
                "c.toml:11:10: charts[0].metric",
                "for a bar chart",
                "par2_s",
            ],
        ),
        (
            "kind = \"line\"\nx = \"colour\"\n",
            &["c.toml:11:5: charts[0].x", "unknown x column `colour`"],
        ),
        (
            "kind = \"box\"\nconfigs = [\"dlx\", \"sat\"]\n",
            &["c.toml:11:11: charts[0].configs", "no configuration `sat`"],
        ),
        (
            "kind = \"cactus\"\ndatasets = [\"top95\"]\n",
            &[
                "c.toml:11:12: charts[0].datasets",
                "no dataset `top95`",
                "pe96",
            ],
        ),
        (
            "kind = \"cactus\"\nfile = \"c.pdf\"\n",
            &["c.toml:11:8: charts[0].file", ".svg or .png"],
        ),
        (
            "kind = \"scatter\"\nconfigs = [\"dlx\"]\n",
            &["c.toml:10:8: charts[0].kind", "two configurations"],
        ),
    ];
    for (chart, wanted) in cases {
        write(d, "c.toml", &format!("{head}[[charts]]\n{chart}"));
        let o = run(d, &["run", "c.toml", "--out", "c.csv"]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{chart}: {err}");
        for w in wanted {
            assert!(err.contains(w), "{chart}: {w:?} not in {err}");
        }
        assert!(!d.join("c.csv").exists(), "{chart}: jobs ran");
    }
    // The same charts, written well, are drawn after the run.
    let good = "kind = \"scatter\"\nx = \"dlx\"\ny = \"human\"\n[[charts]]\nkind = \"bars\"\n\
                metric = \"median_nodes\"\n[[charts]]\nkind = \"line\"\nmetric = \"nodes\"\n";
    write(d, "c.toml", &format!("{head}[[charts]]\n{good}"));
    let o = run(d, &["run", "c.toml", "--out", "c.csv"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("warning"), "{err}");
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

/// The README's main command typed twice: the second run finds the output complete, says
/// so, prints its summary and exits 0 without touching anything (plain and gzip outputs). An
/// incomplete output is never overwritten: it needs --resume.
#[test]
fn an_existing_output_is_never_overwritten_and_a_complete_one_is_reported() {
    for name in ["t.csv", "t.csv.gz"] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        write(
            d,
            "e.toml",
            &format!(
                "{BASE}question = \"Does it stay?\"\noutput = \"results/{name}\"\n{}[[datasets]]\npath = \"{}\"\nfirst = 3\n",
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
        let first_summary = String::from_utf8_lossy(&o.stdout).into_owned();
        let out = d.join("results").join(name);
        let side = d.join("results/t.json");
        let before = std::fs::read(&out).unwrap();
        let side_before = std::fs::read(&side).unwrap();
        assert_eq!(jobs_of(&out).len(), 5);
        assert_eq!(before.starts_with(&[0x1f, 0x8b]), name.ends_with(".gz"));
        for extra in [&[][..], &["--resume"]] {
            let mut args = vec!["run", "e.toml", "--no-charts"];
            args.extend_from_slice(extra);
            let o = run(d, &args);
            assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
            assert!(stderr(&o).contains("already complete"), "{}", stderr(&o));
            assert_eq!(String::from_utf8_lossy(&o.stdout), first_summary);
            assert_eq!(std::fs::read(&out).unwrap(), before);
            assert_eq!(std::fs::read(&side).unwrap(), side_before);
        }
        // The sidecar has the metadata, with an end time and the status counts.
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
        assert_eq!(meta["experiment"], "t");
        // What the study asks, kept for reports drawn later from the CSV.
        assert_eq!(meta["question"], "Does it stay?");
        assert!(meta["description"].is_null());
        assert_eq!(meta["jobs_total"], 5);
        assert_eq!(meta["status_counts"]["unique"], 5);
        assert!(meta["end"].as_str().unwrap().ends_with('Z'));
        assert_eq!(meta["sessions"].as_array().unwrap().len(), 1);
        // An incomplete output (here: rows lost) is not overwritten without --resume.
        let rows = text(&out);
        let keep = rows.iter().filter(|&&b| b == b'\n').count() - 2;
        let cut: Vec<&[u8]> = rows.split_inclusive(|&b| b == b'\n').take(keep).collect();
        std::fs::write(d.join("results/t.csv"), cut.concat()).unwrap();
        if name.ends_with(".gz") {
            std::fs::remove_file(&out).unwrap();
            let o = std::process::Command::new("gzip")
                .arg(d.join("results/t.csv"))
                .output();
            if !o.is_ok_and(|o| o.status.success()) {
                continue; // no gzip(1) here
            }
        }
        let cut_bytes = std::fs::read(&out).unwrap();
        let o = run(d, &["run", "e.toml", "--no-charts"]);
        assert_eq!(o.status.code(), Some(2));
        let err = stderr(&o);
        assert!(
            err.contains(name) && err.contains("3 of the 5 jobs") && err.contains("--resume"),
            "{err}"
        );
        assert_eq!(std::fs::read(&out).unwrap(), cut_bytes);
        let o = run(d, &["run", "e.toml", "--no-charts", "--resume"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut jobs = jobs_of(&out);
        jobs.sort();
        assert_eq!(jobs, [0, 1, 2, 3, 4]);
        // A different experiment text may not resume it.
        let text = std::fs::read_to_string(d.join("e.toml")).unwrap();
        write(d, "e.toml", &text.replace("first = 3", "first = 4"));
        let o = run(d, &["run", "e.toml", "--no-charts", "--resume"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("fingerprint"), "{}", stderr(&o));
    }
}

/// Two runs on one output appended the same jobs, tore each other's lines and both exited 0.
/// While a run holds its output, a second one, with or without --resume, is refused (exit 2,
/// naming the output); the other shard, written to another output, runs beside it; and the
/// lock dies with its process, so the --resume after a SIGKILL runs the jobs left.
#[test]
fn a_second_run_on_the_same_output_is_refused_while_the_first_holds_it() {
    const REPS: usize = 60;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Shard 0/2 is the empty grid, each run stopped at its 0.05 s limit (about 3 s in all);
    // shard 1/2 a grid one cell short of solved, done at once.
    let solved =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    write(
        d,
        "grids.txt",
        &format!("{}\n.{}\n", ".".repeat(81), &solved[1..]),
    );
    timed_experiment(d, REPS, "grids.txt");
    let args = |shard: &str, out: &str| {
        [
            "run",
            "timed.toml",
            "--no-charts",
            "--threads",
            "1",
            "--shard",
            shard,
            "--out",
            out,
        ]
        .map(String::from)
        .to_vec()
    };
    // (Two names: x.csv and x.csv.gz in one directory would share their sidecar.)
    for out in ["busy.csv", "zbusy.csv.gz"] {
        let path = d.join(out);
        let mut child = spawn_until_rows(d, &args("0/2", out), Stdio::null(), &path, 2);
        for resume in [false, true] {
            let mut second = args("0/2", out);
            if resume {
                second.push("--resume".into());
            }
            let o = sudolab(d).args(&second).output().unwrap();
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{err}");
            assert!(
                err.contains(out) && err.contains("another `sudolab run`"),
                "{err}"
            );
        }
        let other = format!("other-{out}");
        let o = sudolab(d).args(args("1/2", &other)).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(jobs_or_none(&d.join(&other)), REPS);
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first run ended before the checks"
        );
        // SIGKILL: the lock goes with the process.
        child.kill().unwrap();
        child.wait().unwrap();
        let mut resume = args("0/2", out);
        resume.push("--resume".into());
        let o = sudolab(d).args(&resume).output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let mut jobs = jobs_of(&path);
        jobs.sort();
        let shard0: Vec<u64> = (0..REPS as u64).collect();
        assert_eq!(jobs, shard0, "each job of shard 0/2 exactly once");
    }
}

/// `x.csv` and `x.csv.gz` (or `x.gz`) in one directory share the sidecar `x.json`, the charts
/// and the report: a run of one beside the other would overwrite what the other needs to be
/// resumed or merged, so it is refused (exit 2, naming both) and nothing is written. A
/// sidecar that names its output lets that output alone run beside a copy.
#[test]
fn outputs_that_would_share_a_sidecar_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "e.toml",
        &format!(
            "{BASE}[[datasets]]\npath = \"{}\"\nfirst = 2\n[[engines]]\nengine = \"human\"\n",
            data("pe96.txt")
        ),
    );
    std::fs::create_dir(d.join("r")).unwrap();
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let side = d.join("r/x.json");
    let side_before = std::fs::read(&side).unwrap();
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv.gz"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("r/x.csv.gz") && err.contains("r/x.json") && err.contains("r/x.csv,"),
        "{err}"
    );
    assert!(!d.join("r/x.csv.gz").exists());
    assert_eq!(std::fs::read(&side).unwrap(), side_before);
    // The first output is intact: the same command reports it complete.
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("already complete"), "{}", stderr(&o));
    // A copy beside it (gzip -k) leaves the owner of the sidecar free, not the copy.
    std::fs::copy(d.join("r/x.csv"), d.join("r/x.csv.gz")).unwrap();
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv.gz"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A sidecar written before outputs were recorded names none: the neighbour is refused.
    let mut meta: serde_json::Value = serde_json::from_slice(&side_before).unwrap();
    meta.as_object_mut().unwrap().remove("output");
    std::fs::write(&side, meta.to_string()).unwrap();
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    std::fs::remove_file(d.join("r/x.csv.gz")).unwrap();
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r/x.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A puzzle file named like the output's sidecar (`k.json` beside `k.csv`, as puzzlekit sets
/// are named) is refused, not overwritten; so is an output that is a puzzle file.
#[test]
fn a_puzzle_file_is_never_overwritten_by_the_output_or_its_sidecar() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::copy(data("variants/killer-janko.json"), d.join("k.json")).unwrap();
    let before = std::fs::read(d.join("k.json")).unwrap();
    write(
        d,
        "e.toml",
        &format!(
            "{BASE}[[datasets]]\npath = \"k.json\"\nfirst = 2\n[[engines]]\nengine = \"human\"\n"
        ),
    );
    for out in ["k.csv", "k.json"] {
        let o = run(d, &["run", "e.toml", "--no-charts", "--out", out]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{out}: {err}");
        assert!(
            err.contains("k.json") && err.contains("datasets[0]"),
            "{err}"
        );
        assert_eq!(std::fs::read(d.join("k.json")).unwrap(), before, "{out}");
    }
    assert!(!d.join("k.csv").exists());
    let o = run(d, &["run", "e.toml", "--no-charts", "--out", "r.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// A run killed before its first row leaves a header (or less) and perhaps no sidecar: the
/// next run, with or without --resume, starts it over instead of refusing.
#[test]
fn an_output_without_rows_is_started_over() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "e.toml",
        &format!("{BASE}{}", engines_human()).replace("[[engines]]", "first = 2\n[[engines]]"),
    );
    std::fs::create_dir(d.join("results")).unwrap();
    let header = "experiment,dataset,puzzle_index,puzzle,size,box,variant,clues,config,engine,\
                  engine_options,encoding,amo,backend,givens,repetition,status,solutions,nodes,\
                  guesses,backtracks,max_live,updates,decisions,conflicts,propagations,vars,\
                  clauses,literals,items,options,ones,counters,build_s,solve_s,cpu_s,wall_s,\
                  time_limit_s,node_limit,max_solutions,shard,job,note,proof_lemmas,proof_bytes,\
                  check_s\n";
    for (contents, args) in [
        (header, &["--resume"][..]),
        (header, &[][..]),
        ("experiment,data", &[][..]),
        ("", &["--resume"][..]),
    ] {
        std::fs::write(d.join("results/t.csv"), contents).unwrap();
        let _ = std::fs::remove_file(d.join("results/t.json"));
        let mut all = vec!["run", "e.toml", "--no-charts"];
        all.extend_from_slice(args);
        let o = run(d, &all);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{contents:?} {args:?}: {}",
            stderr(&o)
        );
        // (Sorted: the run has a thread per core, so rows come in the order jobs finish.)
        let mut jobs = jobs_of(&d.join("results/t.csv"));
        jobs.sort_unstable();
        assert_eq!(jobs, [0, 1]);
        assert!(d.join("results/t.json").exists());
    }
    // With rows but without its sidecar, an output cannot be vouched for: a clear refusal.
    std::fs::remove_file(d.join("results/t.json")).unwrap();
    let rows = std::fs::read(d.join("results/t.csv")).unwrap();
    std::fs::write(d.join("results/t.csv"), &rows[..rows.len() - 10]).unwrap();
    let o = run(d, &["run", "e.toml", "--no-charts", "--resume"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("t.json") && err.contains("--out"), "{err}");
}

/// Enough work to be killed mid-run: a node-limited (so deterministic) backtracking search
/// on hard puzzles, three repetitions, one thread.
/// Repetitions and jobs of [`long_experiment`]: 95 puzzles x 2 engines x `LONG_REPS`. The run
/// takes about 1.2 s on one core of this project's fastest machine so far (AMD EPYC, 2026),
/// six 200 ms flush windows, so a kill once rows appear lands mid-run.
const LONG_REPS: usize = 9;
const LONG_JOBS: usize = 95 * 2 * LONG_REPS;

fn long_experiment(d: &Path) {
    write(
        d,
        "long.toml",
        &format!(
            "name = \"long\"\nrepetitions = {LONG_REPS}\nseed = 5\n[limits]\nnodes = 30000\n\
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
    assert_eq!(jobs_of(&full).len(), LONG_JOBS);

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
        done < LONG_JOBS,
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
        (0..LONG_JOBS as u64).collect::<Vec<u64>>(),
        "each job exactly once"
    );
    assert_eq!(comparable(&part, false), comparable(&full, false));
}

/// Issue 13: a run killed (SIGKILL) at any moment, from its first milliseconds on, plain or
/// gzip, is resumed by `--resume`, which runs exactly the jobs missing: the final output holds
/// every job once, as an uninterrupted run does. The two kinds of output are killed in
/// parallel. Besides kills at fixed moments, two kills per kind wait until the output has
/// grown once and twice past its header (the first and second flush): those land mid-run
/// however fast the machine is, as long as the run outlasts two flush windows (flushes come
/// every 200 ms; the run takes about 1.1 s on one core of this project's fastest machine so
/// far, an AMD EPYC of 2026, where 2 repetitions took 0.45 s and left the second-flush kill
/// little room).
#[test]
fn killed_at_any_moment_then_resumed_runs_exactly_the_lost_jobs() {
    const K_REPS: usize = 5;
    const K_JOBS: usize = 95 * 2 * K_REPS;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_path_buf();
    write(
        &d,
        "k.toml",
        &format!(
            "name = \"k\"\nrepetitions = {K_REPS}\nseed = 3\n[limits]\nnodes = 60000\n\
             [[datasets]]\npath = \"{}\"\n[[engines]]\nengine = \"backtrack\"\n\
             [[engines]]\nengine = \"human\"\n",
            data("norvig-top95.txt")
        ),
    );
    let o = run(&d, &["run", "k.toml", "--no-charts", "--out", "full.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let want = comparable(&d.join("full.csv"), false);
    assert_eq!(want.len(), K_JOBS);
    let kinds = ["plain.csv", "gz.csv.gz"];
    let threads: Vec<_> = kinds
        .iter()
        .map(|&out| {
            let d = d.clone();
            std::thread::spawn(move || {
                let mut seen_partial = 0;
                // Kill after `ms` milliseconds, or (for `grown` > 0) once the file has grown
                // `grown` times past the size it first had (the header).
                let moments = [
                    (0u64, 0),
                    (1, 0),
                    (4, 0),
                    (40, 0),
                    (0, 1),
                    (0, 2),
                    (500, 0),
                    (1500, 0),
                ];
                for (ms, grown) in moments {
                    let path = d.join(out);
                    let _ = std::fs::remove_file(&path);
                    let mut child = sudolab(&d)
                        .args([
                            "run",
                            "k.toml",
                            "--no-charts",
                            "--threads",
                            "1",
                            "--out",
                            out,
                        ])
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .spawn()
                        .unwrap();
                    std::thread::sleep(Duration::from_millis(ms));
                    let (mut sizes, start) = (Vec::new(), Instant::now());
                    while grown > 0 && sizes.len() <= grown {
                        if child.try_wait().unwrap().is_some()
                            || start.elapsed() > Duration::from_secs(60)
                        {
                            break;
                        }
                        let size = std::fs::metadata(&path).map_or(0, |m| m.len());
                        if size > 0 && sizes.last() != Some(&size) {
                            sizes.push(size);
                        }
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    child.kill().unwrap();
                    child.wait().unwrap();
                    let before: BTreeSet<u64> = if path.exists() {
                        let b = std::fs::read(&path).unwrap();
                        // What a reader can decode of a killed output (a torn gzip member
                        // and a torn row left out).
                        let t = if out.ends_with(".gz") {
                            let mut t = Vec::new();
                            let _ = std::io::Read::read_to_end(
                                &mut flate2::read::MultiGzDecoder::new(b.as_slice()),
                                &mut t,
                            );
                            t
                        } else {
                            b
                        };
                        // Whole lines only (a row torn by the kill is not a row).
                        let whole = t.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
                        let mut r = csv::Reader::from_reader(&t[..whole]);
                        r.records()
                            .filter_map(|rec| rec.ok()?.get(41)?.parse().ok())
                            .collect()
                    } else {
                        BTreeSet::new()
                    };
                    if !before.is_empty() && before.len() < K_JOBS {
                        seen_partial += 1;
                    }
                    let o = run(
                        &d,
                        &["run", "k.toml", "--no-charts", "--out", out, "--resume"],
                    );
                    assert_eq!(
                        o.status.code(),
                        Some(0),
                        "{out} {ms} ms {grown}: {}",
                        stderr(&o)
                    );
                    let err = stderr(&o);
                    let ran = if err.contains("already complete") {
                        0
                    } else {
                        err.lines()
                            .find(|l| l.contains("job(s) run"))
                            .and_then(|l| l.strip_prefix("sudolab: "))
                            .and_then(|l| l.split(' ').next())
                            .and_then(|n| n.parse::<usize>().ok())
                            .unwrap_or_else(|| panic!("{err}"))
                    };
                    let mut jobs = jobs_of(&path);
                    jobs.sort();
                    assert_eq!(
                        jobs,
                        (0..K_JOBS as u64).collect::<Vec<u64>>(),
                        "{out} {ms} ms {grown}"
                    );
                    // --resume ran exactly the jobs that were not in the killed output.
                    assert!(
                        ran <= K_JOBS - before.len(),
                        "{out} {ms} ms {grown}: ran {ran}"
                    );
                    assert_eq!(
                        ran + before.len().min(K_JOBS),
                        K_JOBS,
                        "{out} {ms} ms {grown}: {err}"
                    );
                    assert_eq!(comparable(&path, false).len(), K_JOBS);
                }
                seen_partial
            })
        })
        .collect();
    let mut partial = 0;
    for t in threads {
        partial += t.join().unwrap();
    }
    // Some kills landed mid-run (else the test would test nothing).
    assert!(partial >= 2, "only {partial} kills left a partial output");
    for out in kinds {
        assert_eq!(comparable(&d.join(out), false), want, "{out}");
    }
}

/// Writes `timed.toml`: `reps` runs of `backtrack` counting every solution of each grid of
/// `grids` (a file in `d`), each stopped at a 50 ms time limit unless the grid is nearly
/// solved. An empty 9x9 grid has about 6.7e21 solutions, so its runs last 50 ms each however
/// fast the machine is.
fn timed_experiment(d: &Path, reps: usize, grids: &str) {
    write(
        d,
        "timed.toml",
        &format!(
            "name = \"timed\"\nrepetitions = {reps}\nmax_solutions = 0\n[limits]\n\
             time = 0.05\n[[datasets]]\npath = \"{grids}\"\n[[engines]]\n\
             engine = \"backtrack\"\n"
        ),
    );
}

/// Starts `sudolab ARGS` in `d` (stdout discarded) and returns once `out` holds `rows` rows.
fn spawn_until_rows<S: AsRef<std::ffi::OsStr>>(
    d: &Path,
    args: &[S],
    stderr: Stdio,
    out: &Path,
    rows: usize,
) -> Child {
    let child = sudolab(d)
        .args(args)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let t = Instant::now();
    while jobs_or_none(out) < rows {
        assert!(t.elapsed() < Duration::from_secs(20), "no rows appear");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

/// SIGTERM and SIGINT: the run writes every row it has, notes the signal in its sidecar and
/// exits with 128 + the signal number; --resume then runs exactly the jobs left.
///
/// The run must still be going when the signal comes, on any machine: each of its 60 jobs
/// counts every solution of the empty 9x9 grid (about 6.7e21) with `backtrack`, so each ends
/// at its 50 ms time limit, and the run lasts about 3 s however fast the machine is. The
/// signal is sent once 4 rows are in the file (after 200 ms at least, one flush window), so
/// over 2 s of the run are left.
#[test]
fn a_signal_writes_the_rows_and_exits_128_plus_its_number() {
    const JOBS: usize = 60;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "empty.txt", &format!("{}\n", ".".repeat(81)));
    timed_experiment(d, JOBS, "empty.txt");
    for (signal, code, out) in [
        (libc::SIGTERM, 143, "term.csv.gz"),
        (libc::SIGINT, 130, "int.csv"),
    ] {
        let path = d.join(out);
        let args = [
            "run",
            "timed.toml",
            "--no-charts",
            "--threads",
            "1",
            "--out",
            out,
        ];
        let child = spawn_until_rows(d, &args, Stdio::piped(), &path, 4);
        // SAFETY: a signal to our own child.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(code), "{err}");
        assert!(
            err.contains("interrupted") && err.contains("--resume"),
            "{err}"
        );
        // Every row it reported is in the file, whole (no torn row, no torn member), and
        // each ended at its time limit.
        let written = jobs_of(&path).len();
        assert!(written < JOBS, "finished before the signal");
        assert!(
            err.contains(&format!("{written} row(s)")),
            "{written}: {err}"
        );
        assert!(String::from_utf8(text(&path))
            .unwrap()
            .lines()
            .skip(1)
            .all(|row| row.contains(",time-limit,")));
        let side = d.join(out.split('.').next().unwrap().to_string() + ".json");
        let meta: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(side).unwrap()).unwrap();
        let session = &meta["sessions"][0];
        assert!(session["interrupted_by"]
            .as_str()
            .unwrap()
            .starts_with("SIG"));
        assert_eq!(session["jobs_run"], written);
        assert!(meta["end"].is_null());
        let o = run(
            d,
            &["run", "timed.toml", "--no-charts", "--out", out, "--resume"],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!(
                "{} job(s) run, {written} already done",
                JOBS - written
            )),
            "{}",
            stderr(&o)
        );
        let mut jobs = jobs_of(&path);
        jobs.sort();
        assert_eq!(jobs, (0..JOBS as u64).collect::<Vec<u64>>());
    }
}

/// Rows in a file that may be partly written: 0 while it is missing or holds no full row.
fn jobs_or_none(path: &Path) -> usize {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    let mut t = Vec::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let _ = std::io::Read::read_to_end(
            &mut flate2::read::MultiGzDecoder::new(bytes.as_slice()),
            &mut t,
        );
    } else {
        t = bytes;
    }
    t.iter().filter(|&&b| b == b'\n').count().saturating_sub(1)
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
    merged_rows_are_the_shards_bytes(d, &shards);

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

/// Issue 13: `merge` copies each shard's row bytes (no float re-formatting: `5.000000000`
/// stays as written), in job order, plain or gzip in and out; `summary`, `plot` and `report`
/// read the compressed result.
fn merged_rows_are_the_shards_bytes(d: &Path, shards: &[String]) {
    let lines = |t: Vec<u8>| -> Vec<Vec<u8>> {
        t.split_inclusive(|&b| b == b'\n')
            .map(<[u8]>::to_vec)
            .collect()
    };
    let mut want: Vec<Vec<u8>> = Vec::new();
    for s in shards {
        want.extend(lines(text(&d.join(s))).into_iter().skip(1));
    }
    // One shard compressed: merge reads it as it reads the others.
    let o = std::process::Command::new("gzip")
        .args(["-k", "s2.csv"])
        .current_dir(d)
        .output();
    let third = if o.is_ok_and(|o| o.status.success()) {
        std::fs::copy(d.join("s2.json"), d.join("s2z.json")).unwrap();
        std::fs::rename(d.join("s2.csv.gz"), d.join("s2z.csv.gz")).unwrap();
        "s2z.csv.gz"
    } else {
        "s2.csv"
    };
    let o = run(
        d,
        &["merge", "s0.csv", "s1.csv", third, "-o", "merged.csv.gz"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let merged = std::fs::read(d.join("merged.csv.gz")).unwrap();
    assert!(merged.starts_with(&[0x1f, 0x8b]));
    let got = lines(text(&d.join("merged.csv.gz")));
    assert_eq!(got[0], lines(text(&d.join("s0.csv")))[0], "header");
    let mut rows = got[1..].to_vec();
    assert_eq!(rows.len(), want.len());
    rows.sort();
    want.sort();
    assert_eq!(
        rows, want,
        "every merged row is a shard's row, byte for byte"
    );
    assert_eq!(text(&d.join("merged.csv.gz")), text(&d.join("merged.csv")));
    // The readers take the compressed file as the plain one.
    let plain = run(d, &["summary", "merged.csv"]);
    let gz = run(d, &["summary", "merged.csv.gz"]);
    assert_eq!(gz.status.code(), Some(0), "{}", stderr(&gz));
    assert_eq!(plain.stdout, gz.stdout);
    let o = run(d, &["report", "merged.csv.gz", "-o", "m.html"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run(
        d,
        &["plot", "merged.csv.gz", "--kind", "cactus", "-o", "m.svg"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// An empty shard runs no job: no charts, no report, exit 0.
#[test]
fn a_run_without_rows_draws_no_charts() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "e.toml",
        &format!("{BASE}{}", engines_human()).replace("[[engines]]", "first = 1\n[[engines]]"),
    );
    let o = run(d, &["run", "e.toml", "--shard", "1/2", "--out", "o/e.csv"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("no charts"), "{}", stderr(&o));
    let files: Vec<String> = std::fs::read_dir(d.join("o"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        files
            .iter()
            .all(|f| !f.ends_with(".svg") && !f.ends_with(".html")),
        "{files:?}"
    );
    let o = run(d, &["run", "e.toml", "--shard", "2/2", "--out", "o/f.csv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("numbered from 0"), "{}", stderr(&o));
}
