//! Charts and the HTML report, drawn from run records (CSV) only, so they work on merged
//! shards and old runs alike.
//!
//! The runner (`sudolab run`) reads `[[charts]]` tables of an experiment file as
//! [`ChartSpec`]s, then calls [`render`] for each and [`report`] once; `sudolab plot` and
//! `sudolab report` do the same from CSV files.
//!
//! Conventions shared by every chart (see the captions, which say them to the reader):
//! repetitions of an instance are reduced to their median first; only runs that answered or
//! hit a limit are drawn (`unsupported`/`error` runs are counted, not drawn); time and count
//! axes are logarithmic, with zeros drawn at a stated floor; a configuration keeps its colour
//! (Okabe-Ito palette) across the charts of one input. Text is drawn with a font embedded in
//! the binary ([`font`]), so no system font is needed.

mod axis;
mod charts;
mod data;
mod draw;
mod font;
mod report;

pub use data::{BAR_METRICS, METRICS};
pub use report::{report_figures, Content, Figure};

use crate::experiment::Record;
use anyhow::Context;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The kinds of chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum ChartKind {
    /// Runs solved (x) against time or another metric (y, log), one line per configuration.
    Cactus,
    /// Configuration `x` against configuration `y` per puzzle, log-log, limit hits on the
    /// border, the diagonal drawn.
    Scatter,
    /// Distribution of a metric per configuration (box plot).
    Box,
    /// A summary figure per configuration (bars).
    Bars,
    /// Median and 90th percentile of a metric against a numeric column (`clues`, `size`), one
    /// line per configuration, limit hits marked.
    Line,
}

impl ChartKind {
    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Cactus => "cactus",
            ChartKind::Scatter => "scatter",
            ChartKind::Box => "box",
            ChartKind::Bars => "bars",
            ChartKind::Line => "line",
        }
    }
}

/// One chart to draw. In an experiment file: `[[charts]] kind = "cactus" metric = "cpu_s"`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChartSpec {
    pub kind: ChartKind,
    /// Column to plot (default: `cpu_s`; for bars: `par2_s`).
    #[serde(default)]
    pub metric: Option<String>,
    /// Scatter: the configuration on the x axis; line: the column on the x axis.
    #[serde(default)]
    pub x: Option<String>,
    /// Scatter: the configuration on the y axis.
    #[serde(default)]
    pub y: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// Output file name (`.svg` or `.png`), relative to the experiment output's directory;
    /// default: `<output stem>-<kind>-<metric>.svg`.
    #[serde(default)]
    pub file: Option<String>,
    /// Only these configurations (labels); empty = all.
    #[serde(default)]
    pub configs: Vec<String>,
    /// Only these datasets; empty = all.
    #[serde(default)]
    pub datasets: Vec<String>,
}

impl ChartSpec {
    /// A chart of `kind` with every other field at its default.
    pub fn new(kind: ChartKind) -> ChartSpec {
        ChartSpec {
            kind,
            metric: None,
            x: None,
            y: None,
            title: None,
            file: None,
            configs: Vec::new(),
            datasets: Vec::new(),
        }
    }

    /// The metric drawn, defaults filled in.
    pub fn metric_name(&self) -> &str {
        match (&self.metric, self.kind) {
            (Some(m), _) => m,
            (None, ChartKind::Bars) => "par2_s",
            (None, _) => "cpu_s",
        }
    }

    /// `kind-metric` (plus the x column of a line chart and the datasets): a file stem that
    /// tells charts of one experiment apart.
    pub fn slug(&self) -> String {
        let mut s = format!("{}-{}", self.kind.name(), self.metric_name());
        if self.kind == ChartKind::Line {
            s.push_str(&format!("-vs-{}", self.x.as_deref().unwrap_or("clues")));
        }
        if self.kind == ChartKind::Scatter {
            if let (Some(x), Some(y)) = (&self.x, &self.y) {
                s.push_str(&format!("-{x}-vs-{y}"));
            }
        }
        for d in &self.datasets {
            s.push('-');
            s.push_str(d);
        }
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }
}

/// The output format, from the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

fn format_of(out: &Path) -> anyhow::Result<Format> {
    match out
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => anyhow::bail!(
            "{}: the chart's file name must end in .svg or .png",
            out.display()
        ),
    }
}

/// Draws `spec` from `records` into `out` (SVG or PNG by extension).
pub fn render(records: &[Record], spec: &ChartSpec, out: &Path) -> anyhow::Result<()> {
    let format = format_of(out)?;
    let plot = charts::build(records, spec)?;
    match format {
        Format::Svg => {
            let svg = svg_of(&plot)?;
            std::fs::write(out, svg).with_context(|| format!("{}: cannot write", out.display()))
        }
        Format::Png => {
            font::ensure_registered();
            let backend = plotters::prelude::BitMapBackend::new(out, plot.size);
            let root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
            draw::draw(&root, &plot).with_context(|| format!("{}: cannot write", out.display()))
        }
    }
}

/// `spec` drawn as an SVG document, and its caption.
pub fn render_svg(records: &[Record], spec: &ChartSpec) -> anyhow::Result<(String, String)> {
    let plot = charts::build(records, spec)?;
    Ok((svg_of(&plot)?, plot.caption))
}

/// What the report prints under a chart: how to read it and what it leaves out.
pub fn caption(records: &[Record], spec: &ChartSpec) -> anyhow::Result<String> {
    Ok(charts::build(records, spec)?.caption)
}

fn svg_of(plot: &draw::Plot) -> anyhow::Result<String> {
    font::ensure_registered();
    let mut svg = String::new();
    {
        let backend = plotters::prelude::SVGBackend::with_string(&mut svg, plot.size);
        let root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
        draw::draw(&root, plot)?;
    }
    Ok(svg)
}

/// The charts drawn when an experiment names none: chosen from what the records hold.
pub fn default_charts(records: &[Record]) -> Vec<ChartSpec> {
    let mut configs: Vec<&str> = Vec::new();
    for r in records {
        if !configs.contains(&r.config.as_str()) {
            configs.push(&r.config);
        }
    }
    let drawable = |r: &&Record| r.answered() || data::is_limit(&r.status);
    let with = |kind, metric: &str| ChartSpec {
        metric: Some(metric.to_string()),
        ..ChartSpec::new(kind)
    };
    let mut out = vec![
        with(ChartKind::Cactus, "cpu_s"),
        with(ChartKind::Box, "cpu_s"),
        with(ChartKind::Bars, "par2_s"),
    ];
    if records.iter().filter(drawable).any(|r| r.nodes.is_some()) {
        out.push(with(ChartKind::Box, "nodes"));
    }
    if configs.len() >= 2 {
        out.push(with(ChartKind::Scatter, "cpu_s"));
    }
    // Easy-hard-easy studies: clues vary widely within a dataset.
    // Datasets in order of first appearance, each with its clue counts.
    let mut clues: Vec<(&str, std::collections::BTreeSet<u64>)> = Vec::new();
    let mut sizes = std::collections::BTreeSet::new();
    for r in records.iter().filter(drawable) {
        match clues.iter_mut().find(|(d, _)| *d == r.dataset) {
            Some((_, c)) => {
                c.insert(r.clues);
            }
            None => clues.push((&r.dataset, [r.clues].into())),
        }
        sizes.insert(r.size);
    }
    // One chart per such dataset: clue counts of different grid sizes do not compare.
    for (dataset, c) in &clues {
        if c.len() >= 5 {
            out.push(ChartSpec {
                x: Some("clues".into()),
                datasets: vec![dataset.to_string()],
                ..with(ChartKind::Line, "cpu_s")
            });
        }
    }
    if sizes.len() >= 2 {
        out.push(ChartSpec {
            x: Some("size".into()),
            ..with(ChartKind::Line, "cpu_s")
        });
    }
    out
}

/// Writes one self-contained HTML page: summary tables, every chart in `charts` (inlined SVG),
/// and the metadata sidecars (`metadata`, one JSON value per CSV).
pub fn report(
    records: &[Record],
    charts: &[(ChartSpec, PathBuf)],
    metadata: &[serde_json::Value],
    out: &Path,
) -> anyhow::Result<()> {
    let mut figures = Vec::new();
    for (spec, path) in charts {
        let bytes = std::fs::read(path)
            .with_context(|| format!("{}: cannot read chart", path.display()))?;
        let content =
            match format_of(path)? {
                Format::Svg => report::Content::Svg(String::from_utf8(bytes).map_err(|_| {
                    anyhow::anyhow!("{}: the SVG file is not UTF-8", path.display())
                })?),
                Format::Png => report::Content::Png(bytes),
            };
        figures.push(Figure {
            caption: caption(records, spec).unwrap_or_default(),
            content,
        });
    }
    report_figures(records, &figures, metadata, out)
}

#[cfg(test)]
mod tests;
