//! Charts and reports from records: every kind drawn to SVG (parsed as XML) and PNG
//! (decoded), what each kind draws (from its `Plot`), and the report's contents.

use super::charts::{box_stats, build};
use super::*;
use crate::engines::{self, EngineSpec, Limits};
use crate::puzzle::{read_file, ReadOptions};
use crate::records::{puzzle_text, summarize, Record, RunKey};
use std::time::Duration;

/// Synthetic records: three configurations on two datasets (9x9 with clue counts 20..=31,
/// and 16x16), two repetitions, limit hits for `slow`, one `error` run.
pub(crate) fn synthetic() -> Vec<Record> {
    let mut out = Vec::new();
    for (dataset, size, n) in [("nine", 9u64, 24u64), ("sixteen", 16, 6)] {
        for i in 1..=n {
            let clues = if size == 9 { 20 + i % 12 } else { 120 };
            for (config, base) in [("fast", 1e-5), ("slow", 1e-3), ("sat", 4e-4)] {
                for rep in 0..2 {
                    let cpu = base * (1.0 + (i as f64) * 0.3) * (1.0 + rep as f64 * 0.01);
                    let hit = config == "slow" && i % 5 == 0;
                    out.push(Record {
                        experiment: "test".into(),
                        dataset: dataset.into(),
                        puzzle_index: i,
                        size,
                        clues,
                        config: config.into(),
                        repetition: rep,
                        status: if hit { "time-limit" } else { "unique" }.into(),
                        nodes: (config != "sat").then_some(i * 10 + if hit { 1000 } else { 0 }),
                        guesses: (config != "sat").then_some(i),
                        vars: (config == "sat").then_some(size * size * size),
                        cpu_s: if hit { 0.5 } else { cpu },
                        solve_s: cpu,
                        time_limit_s: Some(0.5),
                        ..Record::default()
                    });
                }
            }
        }
    }
    out.push(Record {
        experiment: "test".into(),
        dataset: "nine".into(),
        puzzle_index: 99,
        size: 9,
        config: "fast".into(),
        status: "error".into(),
        ..Record::default()
    });
    out
}

/// Real records: engines run on the first puzzles of the sample datasets, `backtrack` with a
/// 20 ms limit on the hard ones so that limit hits appear.
fn engine_records() -> Vec<Record> {
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
    let mut out = Vec::new();
    for (file, take) in [("pe96.txt", 6), ("norvig-top95.txt", 6)] {
        let (_, puzzles) = read_file(&data.join(file), &ReadOptions::default()).unwrap();
        for (i, p) in puzzles.iter().take(take).enumerate() {
            for config in ["backtrack", "dlx"] {
                let spec: EngineSpec = config.parse().unwrap();
                let limits = Limits {
                    time_limit: Some(Duration::from_millis(20)),
                    ..Limits::solutions(2)
                };
                let outcome = engines::run(spec.make().unwrap().as_mut(), &p.puzzle, &limits);
                let key = RunKey {
                    experiment: "real",
                    dataset: file.trim_end_matches(".txt"),
                    puzzle_index: i as u64 + 1,
                    config,
                    spec: Some(&spec),
                    ..RunKey::default()
                };
                out.push(Record::new(
                    &key,
                    &p.puzzle,
                    &puzzle_text(&p.puzzle),
                    &limits,
                    &outcome,
                ));
            }
        }
    }
    out
}

fn spec(kind: ChartKind, metric: Option<&str>) -> ChartSpec {
    ChartSpec {
        metric: metric.map(String::from),
        ..ChartSpec::new(kind)
    }
}

/// Parses an SVG as XML and returns its root's (width, height) and its text.
fn check_svg(svg: &str) -> (u32, u32, String) {
    assert!(
        svg.trim_start().starts_with("<svg"),
        "{}",
        &svg[..80.min(svg.len())]
    );
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let w = root.attribute("width").unwrap().parse().unwrap();
    let h = root.attribute("height").unwrap().parse().unwrap();
    let text: Vec<&str> = doc
        .descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect();
    (w, h, text.join("\n"))
}

fn all_kinds() -> Vec<ChartSpec> {
    vec![
        spec(ChartKind::Cactus, None),
        spec(ChartKind::Scatter, None),
        spec(ChartKind::Box, Some("nodes")),
        spec(ChartKind::Bars, None),
        spec(ChartKind::Bars, Some("solved")),
        ChartSpec {
            x: Some("clues".into()),
            datasets: vec!["nine".into()],
            ..spec(ChartKind::Line, Some("guesses"))
        },
        ChartSpec {
            x: Some("size".into()),
            ..spec(ChartKind::Line, Some("vars"))
        },
        ChartSpec {
            x: Some("holes".into()),
            datasets: vec!["nine".into()],
            ..spec(ChartKind::Line, None)
        },
        spec(ChartKind::Survival, None),
    ]
}

/// Against `holes` the x values are the hole fractions of the puzzles, not rounded: 9x9 with
/// 20 to 31 givens (12 values, each ticked) is 75.3 % down to 61.7 % empty.
#[test]
fn line_against_holes_ticks_the_hole_fractions() {
    let records = synthetic();
    let s = ChartSpec {
        x: Some("holes".into()),
        datasets: vec!["nine".into()],
        ..spec(ChartKind::Line, None)
    };
    let (svg, _) = render_svg(&records, &s).unwrap();
    let (_, _, text) = check_svg(&svg);
    for tick in ["75.3", "74.1", "61.7"] {
        assert!(text.lines().any(|l| l == tick), "no tick {tick}: {text}");
    }
    assert!(text.contains("holes (% of cells empty)"), "{text}");
}

#[test]
fn every_kind_draws_well_formed_svg() {
    let records = synthetic();
    for s in all_kinds() {
        let (svg, caption) = render_svg(&records, &s).unwrap();
        let (w, h, text) = check_svg(&svg);
        assert!(w >= 800 && h >= 380, "{}: {w}x{h}", s.slug());
        assert!(!caption.is_empty());
        // The unsupported/error run is counted, not drawn.
        assert!(
            caption.contains("1 run(s) with status unsupported or error"),
            "{caption}"
        );
        match s.kind {
            ChartKind::Cactus => assert!(text.contains("time limit 500 ms"), "{text}"),
            ChartKind::Scatter => assert!(text.contains("limit hit by one or both"), "{text}"),
            ChartKind::Box => assert!(text.contains("slow (n=25, 5 unanswered)"), "{text}"),
            ChartKind::Bars => assert!(text.contains("fast"), "{text}"),
            ChartKind::Line => assert!(text.contains("median"), "{text}"),
            ChartKind::Survival => assert!(text.contains("slow (25/30 answered)"), "{text}"),
        }
    }
}

#[test]
fn every_kind_draws_a_png_with_text() {
    let records = synthetic();
    let dir = tempfile::tempdir().unwrap();
    for s in all_kinds() {
        let path = dir.path().join(format!("{}.png", s.slug()));
        render(&records, &s, &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let img = image::load_from_memory(&bytes).unwrap().to_rgb8();
        let plot = build(&records, &s).unwrap();
        assert_eq!(img.dimensions(), plot.size);
        // The title is drawn with the embedded font: dark pixels in the top band.
        let dark = (0..img.width())
            .flat_map(|x| (10..40).map(move |y| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0.iter().all(|&c| c < 80))
            .count();
        assert!(
            dark > 200,
            "{}: {dark} dark pixels in the title band",
            s.slug()
        );
    }
}

#[test]
fn real_runs_with_limit_hits_draw() {
    let records = engine_records();
    assert!(records.iter().any(|r| r.status == "time-limit"));
    for s in default_charts(&records) {
        let (svg, _) = render_svg(&records, &s).unwrap();
        check_svg(&svg);
    }
}

#[test]
fn cactus_sorts_answered_runs_and_draws_the_limit() {
    let records = synthetic();
    let plot = build(&records, &spec(ChartKind::Cactus, None)).unwrap();
    let lines: Vec<&Vec<(f64, f64)>> = plot
        .items
        .iter()
        .filter_map(|i| match i {
            draw::Item::Line { points, .. } => Some(points),
            _ => None,
        })
        .collect();
    // the limit line, then one line per configuration
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[0][0].1, plot.y.pos(0.5));
    for l in &lines[1..] {
        assert!(l.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
    }
    // slow: 30 instances, 5 hit the limit
    assert_eq!(lines[2].len(), 25);
    assert!(plot.legend.iter().any(|e| e.label == "slow (25/30)"));
}

#[test]
fn scatter_puts_limit_hits_on_the_border() {
    let records = synthetic();
    let s = ChartSpec {
        x: Some("slow".into()),
        y: Some("fast".into()),
        ..spec(ChartKind::Scatter, None)
    };
    let plot = build(&records, &s).unwrap();
    let hits = plot
        .items
        .iter()
        .find_map(|i| match i {
            draw::Item::Markers {
                points,
                marker: draw::Marker::Cross,
                ..
            } => Some(points.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(hits.len(), 5);
    assert!(hits.iter().all(|p| p.0 == plot.x.pos(0.5)));
    assert!(
        plot.caption.contains("took more with slow"),
        "{}",
        plot.caption
    );
    // one configuration only: a clear error
    let one = ChartSpec {
        configs: vec!["fast".into()],
        ..spec(ChartKind::Scatter, None)
    };
    let e = build(&records, &one).err().unwrap().to_string();
    assert!(e.contains("scatter needs two configurations"), "{e}");
    let bad = ChartSpec {
        x: Some("nope".into()),
        ..spec(ChartKind::Scatter, None)
    };
    assert!(build(&records, &bad).is_err());
}

#[test]
fn box_statistics_follow_tukey() {
    let b = box_stats(&[1.0, 2.0, 3.0, 4.0, 5.0, 100.0]).unwrap();
    assert_eq!((b.q1, b.median, b.q3), (2.25, 3.5, 4.75));
    assert_eq!((b.lo, b.hi), (1.0, 5.0));
    assert_eq!(b.outliers, vec![100.0]);
    assert!(box_stats(&[]).is_none());
}

#[test]
fn bad_metrics_and_names_are_clear_errors() {
    let records = synthetic();
    let e = build(&records, &spec(ChartKind::Cactus, Some("speed")))
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("unknown metric `speed`") && e.contains("nodes"),
        "{e}"
    );
    let e = build(&records, &spec(ChartKind::Bars, Some("nodes")))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("par2_s") && e.contains("median_nodes"), "{e}");
    let e = render(&records, &spec(ChartKind::Box, None), Path::new("x.pdf"))
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("x.pdf") && e.contains(".svg or .png"), "{e}");
}

#[test]
fn all_unanswered_draws_an_empty_chart_that_says_so() {
    let records: Vec<Record> = synthetic()
        .into_iter()
        .filter(|r| r.status == "time-limit")
        .collect();
    let (svg, _) = render_svg(&records, &spec(ChartKind::Cactus, None)).unwrap();
    let (_, _, text) = check_svg(&svg);
    assert!(text.contains("no answered run to draw"), "{text}");
}

/// Times at the ends of the float range (finite, as the run-CSV reader lets nothing else
/// through, and not, for records made in code) draw every kind in bounded time and memory:
/// an infinite `cpu_s` made the bar chart's log axis loop over 2^31 decades (a 4 GB
/// allocation, then the OOM killer).
#[test]
fn extreme_times_draw_every_kind() {
    for extreme in [1e300, 1e-300, f64::MAX, f64::INFINITY, f64::NAN] {
        for every_row in [false, true] {
            let mut records = synthetic();
            for (i, r) in records.iter_mut().enumerate() {
                if every_row || i % 7 == 0 {
                    (r.cpu_s, r.solve_s, r.wall_s) = (extreme, extreme, extreme);
                    r.time_limit_s = Some(extreme);
                }
            }
            let mut kinds = all_kinds();
            kinds.push(spec(ChartKind::Bars, Some("par2_s")));
            for s in kinds {
                let (svg, _) = render_svg(&records, &s)
                    .unwrap_or_else(|e| panic!("{extreme} {}: {e}", s.slug()));
                check_svg(&svg);
            }
        }
    }
}

#[test]
fn default_charts_fit_the_records() {
    let records = synthetic();
    let kinds: Vec<String> = default_charts(&records).iter().map(|s| s.slug()).collect();
    assert_eq!(
        kinds,
        [
            "cactus-cpu_s",
            "box-cpu_s",
            "bars-par2_s",
            "box-nodes",
            "scatter-cpu_s",
            "line-cpu_s-vs-clues-nine",
            "line-cpu_s-vs-size"
        ]
    );
    let one: Vec<Record> = records
        .into_iter()
        .filter(|r| r.config == "sat" && r.dataset == "sixteen")
        .collect();
    let kinds: Vec<String> = default_charts(&one).iter().map(|s| s.slug()).collect();
    assert_eq!(kinds, ["cactus-cpu_s", "box-cpu_s", "bars-par2_s"]);
}

#[test]
fn report_inlines_every_chart_and_the_summary() {
    let mut records = synthetic();
    records[0].config = "<b>&co".into();
    let dir = tempfile::tempdir().unwrap();
    let mut charts = Vec::new();
    for (i, s) in default_charts(&records).into_iter().enumerate() {
        // one PNG among the SVGs: embedded as a data URI
        let ext = if i == 1 { "png" } else { "svg" };
        let path = dir.path().join(format!("{}.{ext}", s.slug()));
        render(&records, &s, &path).unwrap();
        charts.push((s, path));
    }
    let meta = serde_json::json!({"version": "0.1.0", "command": ["sudolab", "run", "e.toml"],
        "experiment": "test", "question": "Which is <fastest>?", "description": null});
    let out = dir.path().join("r.html");
    report(&records, &charts, &[meta], &out).unwrap();
    let html = std::fs::read_to_string(&out).unwrap();
    assert_eq!(html.matches("<svg").count(), charts.len() - 1);
    assert_eq!(html.matches("data:image/png;base64,").count(), 1);
    assert_eq!(html.matches("<figcaption>").count(), charts.len());
    assert!(html.contains("&lt;b&gt;&amp;co") && !html.contains("<b>&co"));
    assert!(html.contains("sudolab run e.toml"));
    assert!(html.contains("<h3>test / nine</h3>") && html.contains("<h3>All datasets</h3>"));
    assert!(html.contains("<td>slow</td>"));
    // the question under the title, the summary, then the charts, then the metadata folded
    let at = |needle: &str| html.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    assert!(at("</h1>") < at("<b>Question.</b> Which is &lt;fastest&gt;?"));
    assert!(at("<b>Question.</b>") < at("<h2>Summary</h2>"));
    // the summary's rule for repetitions, as `summary --help` and docs/experiments.md say it
    assert!(at("<h2>Summary</h2>") < at("solved only if every repetition answered"));
    assert!(!html.contains("class=\"description\""));
    assert!(at("<h2>Summary</h2>") < at("<h2>Charts</h2>"));
    assert!(at("<h2>Charts</h2>") < at("<details class=\"runs\">"));
    assert!(at("<details class=\"runs\">") < at("<h2>Runs</h2>"));
    assert!(at("sudolab run e.toml") < at("</details>"));
    // self-contained: nothing to run, nothing to fetch
    assert!(!html.contains("<script") && !html.contains("<link"));
    assert!(!html.contains("src=\"http") && !html.contains("href=\"http"));
}

#[test]
fn the_font_is_embedded_and_parses() {
    font::ensure_registered();
    let style = plotters::style::TextStyle::from((font::FAMILY, 20.0));
    let (w, h) = style.font.box_size("Cactus").unwrap();
    assert!(w > 40 && h > 10, "{w}x{h}");
    assert!(font::REGULAR.len() > 100_000 && font::BOLD.len() > 100_000);
}

/// Bar heights (lengths) of a bar chart, in row order, and the chart.
fn bar_ends(records: &[Record], metric: &str) -> (Vec<f64>, draw::Plot) {
    let plot = build(records, &spec(ChartKind::Bars, Some(metric))).unwrap();
    let ends = plot
        .items
        .iter()
        .filter_map(|i| match i {
            draw::Item::Rect { from, to, .. } => Some(to.0 - from.0),
            _ => None,
        })
        .collect();
    (ends, plot)
}

#[test]
fn bars_turn_log_past_a_tenfold_span_and_stay_monotone() {
    // synthetic() without its error run (which has no time limit, so no PAR-2): PAR-2 of
    // fast ~5e-5 s, sat ~2e-3 s, slow ~0.2 s, over 1000x apart.
    let records: Vec<Record> = synthetic()
        .into_iter()
        .filter(|r| r.status != "error")
        .collect();
    let (ends, plot) = bar_ends(&records, "par2_s");
    assert!(plot.x.log, "{}", plot.x.label);
    assert!(plot.x.label.contains("log scale"), "{}", plot.x.label);
    assert!(plot.caption.contains("logarithmic"), "{}", plot.caption);
    let par2: Vec<f64> = ["fast", "slow", "sat"]
        .iter()
        .map(|c| {
            let lines = summarize(&records);
            lines
                .iter()
                .find(|l| l.config == *c)
                .unwrap()
                .par2_s
                .unwrap()
        })
        .collect();
    assert_eq!(ends.len(), 3);
    // Every bar visible, and a longer bar for every larger value.
    assert!(ends.iter().all(|e| *e > 0.0), "{ends:?}");
    for i in 0..3 {
        for j in 0..3 {
            if par2[i] < par2[j] {
                assert!(ends[i] < ends[j], "{par2:?} {ends:?}");
            }
        }
    }
    // The smallest bar is a real share of the largest (on a linear axis it was 1/20000).
    let (lo, hi) = (ends[0], ends[1]);
    assert!(lo / hi > 0.1, "{ends:?}");

    // Solved counts (30, 25, 30) are within 10x: linear, bars from 0.
    let (ends, plot) = bar_ends(&records, "solved");
    assert!(!plot.x.log, "{}", plot.x.label);
    assert!(plot.caption.contains("linear"), "{}", plot.caption);
    assert!(ends[0] > ends[1], "fast solved 30, slow 25: {ends:?}");

    // The rule itself, at its edges.
    let axis = |v: &[f64]| charts::bar_axis("x", axis::Unit::Seconds, v).1;
    assert!(!axis(&[1.0, 10.0]));
    assert!(axis(&[1.0, 10.01]));
    assert!(!axis(&[0.0, 1.0, 5.0]), "zeros do not count in the span");
    assert!(axis(&[0.0, 0.001, 5.0]));
    assert!(!axis(&[]));
}

/// A chart or report that cannot be written names its file, and the system's error is the
/// cause (as `sudolab` prints an error: the text, then each cause after `: `).
#[test]
fn unwritable_files_name_the_file_and_the_cause() {
    let records = synthetic();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    for name in ["x.svg", "x.png"] {
        let out = missing.join(name);
        let e = render(&records, &spec(ChartKind::Box, None), &out).unwrap_err();
        let text = error::with_causes(&e);
        assert!(
            text.starts_with(&format!("{}: cannot write: ", out.display())),
            "{text}"
        );
    }
    let out = missing.join("x.html");
    let e = report(&records, &[], &[], &out).unwrap_err();
    assert!(
        error::with_causes(&e)
            .starts_with(&format!("{}: cannot write the report: ", out.display())),
        "{e}"
    );
    let chart = missing.join("chart.svg");
    let e = report(
        &records,
        &[(spec(ChartKind::Box, None), chart.clone())],
        &[],
        &dir.path().join("x.html"),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: cannot read chart", chart.display())
    );
}
