//! Charts and the HTML report, drawn from run records (CSV) only, so they work on merged
//! shards and old runs alike.
//!
//! INTERFACE DRAFT (to be implemented): the runner (`sudolab run`) reads `[[charts]]` tables
//! of an experiment file as [`ChartSpec`]s, then calls [`render`] for each and [`report`] once.

use crate::experiment::Record;
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

/// Draws `spec` from `records` into `out` (SVG or PNG by extension).
pub fn render(records: &[Record], spec: &ChartSpec, out: &Path) -> anyhow::Result<()> {
    let _ = (records, spec, out);
    anyhow::bail!("charts are not implemented yet")
}

/// The charts drawn when an experiment names none: chosen from what the records hold.
pub fn default_charts(records: &[Record]) -> Vec<ChartSpec> {
    let _ = records;
    Vec::new()
}

/// Writes one self-contained HTML page: summary tables, every chart in `charts` (inlined SVG),
/// and the metadata sidecars (`metadata`, one JSON value per CSV).
pub fn report(
    records: &[Record],
    charts: &[(ChartSpec, PathBuf)],
    metadata: &[serde_json::Value],
    out: &Path,
) -> anyhow::Result<()> {
    let _ = (records, charts, metadata, out);
    anyhow::bail!("the report is not implemented yet")
}
