//! `sudolab plot` and `sudolab report` as scripts call them: every chart kind to SVG and PNG,
//! the report page, and bad input (exit 2, a message naming the file and line).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use sudolab::records::Record;

fn sudolab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        // Charts must not need the system's fonts: the font is in the binary.
        .env("FONTCONFIG_FILE", "/nonexistent")
        .output()
        .expect("run sudolab")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Two configurations on 12 puzzles with varying clues, one with limit hits, and a sidecar.
fn write_records(dir: &Path) -> PathBuf {
    let path = dir.join("runs.csv");
    let mut w = csv::Writer::from_path(&path).unwrap();
    for i in 1..=12u64 {
        for (config, base) in [("dlx", 1e-4), ("backtrack", 2e-3)] {
            let hit = config == "backtrack" && i % 4 == 0;
            w.serialize(Record {
                experiment: "cli".into(),
                dataset: "pe96".into(),
                puzzle_index: i,
                size: 9,
                clues: 20 + i,
                config: config.into(),
                status: if hit { "time-limit" } else { "unique" }.into(),
                nodes: Some(i * 7),
                cpu_s: if hit { 0.02 } else { base * i as f64 },
                time_limit_s: Some(0.02),
                ..Record::default()
            })
            .unwrap();
        }
    }
    w.flush().unwrap();
    std::fs::write(
        dir.join("runs.json"),
        r#"{"version": "0.1.0", "commit": "abc123", "command": ["sudolab", "run", "x.toml"]}"#,
    )
    .unwrap();
    path
}

#[test]
fn every_kind_to_svg_and_png() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_records(dir.path());
    let csv = csv.to_str().unwrap();
    for (kind, extra) in [
        ("cactus", &[][..]),
        ("scatter", &["--x", "dlx", "--y", "backtrack"][..]),
        ("box", &["--metric", "nodes"][..]),
        ("bars", &["--metric", "solved"][..]),
        ("line", &["--x", "clues", "--metric", "nodes"][..]),
    ] {
        for ext in ["svg", "png"] {
            let out = dir.path().join(format!("{kind}.{ext}"));
            let mut args = vec![
                "plot",
                csv,
                "--kind",
                kind,
                "--out",
                out.to_str().unwrap(),
                "--title",
                "A <title> & more",
            ];
            args.extend_from_slice(extra);
            let o = sudolab(&args);
            assert!(o.status.success(), "{kind}.{ext}: {}", stderr(&o));
            let bytes = std::fs::read(&out).unwrap();
            if ext == "svg" {
                let text = String::from_utf8(bytes).unwrap();
                let doc = roxmltree::Document::parse(&text).unwrap();
                assert_eq!(doc.root_element().tag_name().name(), "svg");
                assert!(text.contains("A &lt;title&gt; &amp; more"));
            } else {
                let img = image::load_from_memory(&bytes).unwrap();
                assert!(img.width() >= 800 && img.height() >= 380);
            }
        }
    }
}

#[test]
fn report_has_every_chart_the_summary_and_the_metadata() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_records(dir.path());
    let out = dir.path().join("report.html");
    let o = sudolab(&["report", csv.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    let figures = html.matches("<figure>").count();
    // cactus, box cpu, bars, box nodes, scatter, line vs clues
    assert_eq!(figures, 6);
    assert_eq!(html.matches("<svg").count(), figures);
    assert!(html.contains("<td>backtrack</td><td>12</td><td>9/12</td><td>time-limit 3</td>"));
    assert!(html.contains("abc123") && html.contains("sudolab run x.toml"));

    // the charts of an experiment file instead of the defaults
    let toml = dir.path().join("e.toml");
    std::fs::write(
        &toml,
        "name = \"e\"\n[[charts]]\nkind = \"cactus\"\n[[charts]]\nkind = \"bars\"\nmetric = \"solved\"\n",
    )
    .unwrap();
    let o = sudolab(&[
        "report",
        csv.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--charts-from",
        toml.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(html.matches("<svg").count(), 2);
}

#[test]
fn report_shows_the_question_from_the_sidecar_else_the_experiment_file() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_records(dir.path());
    let out = dir.path().join("report.html");
    let report = |from: Option<&Path>| {
        let mut args = vec!["report", csv.to_str().unwrap(), "-o", out.to_str().unwrap()];
        if let Some(f) = from {
            args.extend(["--charts-from", f.to_str().unwrap()]);
        }
        let o = sudolab(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read_to_string(&out).unwrap()
    };
    let at = |html: &str, needle: &str| html.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    let toml = dir.path().join("cli.toml");
    std::fs::write(
        &toml,
        "name = \"cli\"\nquestion = \"Is dlx <faster>?\"\ndescription = \"Two engines.\"\n",
    )
    .unwrap();
    let sidecar = dir.path().join("runs.json");
    // A sidecar of a run made before the fields existed: the file's question, right under the
    // title, escaped.
    std::fs::write(&sidecar, r#"{"experiment": "cli", "command": ["sudolab"]}"#).unwrap();
    let html = report(Some(&toml));
    assert!(at(&html, "</h1>") < at(&html, "<b>Question.</b> Is dlx &lt;faster&gt;?"));
    assert!(
        at(&html, "Is dlx") < at(&html, "Two engines.")
            && at(&html, "Two engines.") < at(&html, "<h2>Summary</h2>")
    );
    // Without the file: none to show (the sidecar's config_path is not there either).
    assert!(!report(None).contains("Question"));
    // A file of another experiment is not taken for this one.
    let other = dir.path().join("other.toml");
    std::fs::write(&other, "name = \"other\"\nquestion = \"Elsewhere?\"\n").unwrap();
    assert!(!report(Some(&other)).contains("Elsewhere"));
    // The sidecar's config_path, when it names the same experiment.
    let with_path = format!(
        r#"{{"experiment": "cli", "config_path": {:?}}}"#,
        toml.to_str().unwrap()
    );
    std::fs::write(&sidecar, with_path).unwrap();
    assert!(report(None).contains("Is dlx &lt;faster&gt;?"));
    // The sidecar's own question wins: it is what the rows were run for.
    std::fs::write(
        &sidecar,
        r#"{"experiment": "cli", "question": "Asked at run time?"}"#,
    )
    .unwrap();
    let html = report(Some(&toml));
    assert!(html.contains("<b>Question.</b> Asked at run time?") && !html.contains("Is dlx"));
}

#[test]
fn bad_input_exits_2_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let csv = write_records(dir.path());
    let mut text = std::fs::read_to_string(&csv).unwrap();
    // a row whose puzzle_index is not a number, on line 4
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    assert!(lines[3].starts_with("cli,pe96,2,"), "{}", lines[3]);
    lines[3] = lines[3].replacen(",pe96,2,", ",pe96,two,", 1);
    text = lines.join("\n");
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, text).unwrap();
    let out = dir.path().join("x.svg");
    let o = sudolab(&[
        "plot",
        bad.to_str().unwrap(),
        "--kind",
        "cactus",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains(&format!("{}:4:", bad.display())), "{e}");
    assert!(!e.contains("panicked"), "{e}");

    let o = sudolab(&[
        "plot",
        csv.to_str().unwrap(),
        "--kind",
        "box",
        "--metric",
        "speed",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("unknown metric `speed`") && e.contains("cpu_s") && e.contains("nodes"),
        "{e}"
    );

    let missing = dir.path().join("missing.csv");
    let o = sudolab(&[
        "report",
        missing.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.csv"), "{}", stderr(&o));

    let o = sudolab(&[
        "plot",
        csv.to_str().unwrap(),
        "--kind",
        "cactus",
        "--out",
        "x.pdf",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains(".svg or .png"));

    std::fs::write(dir.path().join("runs.json"), "{ not json").unwrap();
    let o = sudolab(&["report", csv.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("runs.json:1"), "{}", stderr(&o));
}
