//! What an experiment file's `[[charts]]` tables ask for: the kinds of chart and one chart's
//! settings. The experiment file owns them (they are read and checked with it); drawing them
//! is [`crate::plot`]'s work.

use serde::Deserialize;

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
