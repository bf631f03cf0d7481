//! What a chart asks for: the kinds of chart, one chart's settings, and the metrics and
//! columns a chart can name. An experiment file's `[[charts]]` tables are read as
//! [`ChartSpec`]s and checked with it, before any job ([`ChartSpec::check`]); `sudolab plot`
//! builds one from its flags. They depend on the records only, so the runner can read them
//! without the plot module depending on the runner.

use crate::records::record::{column, Cell, ColumnKind};
use crate::records::Record;
use serde::Deserialize;
use std::path::Path;

/// The kinds of chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
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
    /// Median and 90th percentile of a metric against a numeric column (`clues`, `size`,
    /// `holes`), one line per configuration, limit hits marked.
    Line,
    /// The survival function of a metric per configuration: runs not yet answered (y, log)
    /// against the metric (x, log). A heavy tail (Gomes, Selman, Crato and Kautz, "Heavy-tailed
    /// phenomena in satisfiability and constraint satisfaction problems", JAR 2000) decays as
    /// a straight line on these axes rather than falling off.
    Survival,
}

impl ChartKind {
    pub fn name(self) -> &'static str {
        match self {
            ChartKind::Cactus => "cactus",
            ChartKind::Scatter => "scatter",
            ChartKind::Box => "box",
            ChartKind::Bars => "bars",
            ChartKind::Line => "line",
            ChartKind::Survival => "survival",
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

/// A `[[charts]]` entry that no rows could draw: the key at fault (for the error's position
/// in the experiment file) and why.
#[derive(Debug)]
pub struct ChartError {
    pub key: &'static str,
    pub message: String,
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

    /// Checks what can be checked before any row exists, so that a bad entry stops the run
    /// before its first job rather than after its last: the metric (and a line chart's x
    /// column) for the kind, a scatter's `x` and `y` and the `configs` against the
    /// experiment's configuration labels, `datasets` against its dataset names, and the
    /// file's extension. (What depends on the rows, e.g. a configuration whose runs all
    /// failed, is still found when the chart is drawn.)
    pub fn check(&self, labels: &[&str], datasets: &[&str]) -> Result<(), ChartError> {
        let fail = |key, message: String| Err(ChartError { key, message });
        for (key, wanted, there, what) in [
            ("configs", &self.configs, labels, "configuration"),
            ("datasets", &self.datasets, datasets, "dataset"),
        ] {
            if let Some(w) = wanted.iter().find(|w| !there.contains(&w.as_str())) {
                return fail(
                    key,
                    format!(
                        "no {what} `{w}` in the experiment; there are: {}",
                        there.join(", ")
                    ),
                );
            }
        }
        let named = match self.kind {
            ChartKind::Bars => bar_metric(self.metric_name()).map(|_| ()),
            _ => metric(self.metric_name()).map(|_| ()),
        };
        if let Err(e) = named {
            return fail("metric", e.to_string());
        }
        if self.kind == ChartKind::Line {
            if let Err(e) = x_column(self.x.as_deref().unwrap_or("clues")) {
                return fail("x", e.to_string());
            }
        }
        if self.kind == ChartKind::Scatter {
            // As the chart picks them: x defaults to the first configuration, y to the first
            // other one, among the `configs` if given.
            let names: Vec<&str> = if self.configs.is_empty() {
                labels.to_vec()
            } else {
                self.configs.iter().map(String::as_str).collect()
            };
            for (key, w) in [("x", &self.x), ("y", &self.y)] {
                if let Some(w) = w.as_deref().filter(|w| !names.contains(w)) {
                    return fail(
                        key,
                        format!(
                            "no configuration `{w}` for a scatter's {key}; there are: {}",
                            names.join(", ")
                        ),
                    );
                }
            }
            let x = self.x.as_deref().or(names.first().copied());
            if self.y.is_none() && !names.iter().any(|n| Some(*n) != x) {
                return fail(
                    "kind",
                    format!(
                        "a scatter needs two configurations, there is {}: {}",
                        names.len(),
                        names.join(", ")
                    ),
                );
            }
        }
        if let Some(f) = &self.file {
            let ext = Path::new(f)
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            if !matches!(ext.as_deref(), Some("svg" | "png")) {
                return fail(
                    "file",
                    format!("`{f}`: a chart's file name must end in .svg or .png"),
                );
            }
        }
        Ok(())
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

// ---- what a chart can draw -------------------------------------------------------------

/// What the values of an axis are, for clamping and tick labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Seconds: ticks read `10 µs`, `1 ms`, `2 s`.
    Seconds,
    /// Counts: ticks read `500`, `10k`, `2M`.
    Count,
    /// Plain numbers (categories, solved counts, clue counts).
    Plain,
}

/// A numeric column of the records that a chart can draw.
pub struct Metric {
    pub name: &'static str,
    /// Axis label (the unit is on the ticks: `1 ms`, `10k`).
    pub label: &'static str,
    pub unit: Unit,
    /// A property of the reduction (formula or matrix size), known whether or not the run
    /// answered: drawn for every run that has it, and limit hits are not set apart.
    pub structural: bool,
    source: Source,
}

/// Where a metric's value comes from.
enum Source {
    /// A column of the records.
    Column(for<'a> fn(&'a Record) -> Cell<'a>),
    /// A value computed from columns (`None` where it is not defined).
    Derived(fn(&Record) -> Option<f64>),
}

impl Metric {
    /// The record's column `name` ([`COLUMN_TABLE`]) as a metric: seconds for a time column,
    /// a count for any other. A name that is not a column fails the build.
    const fn column(name: &'static str, label: &'static str, structural: bool) -> Metric {
        let Some(c) = column(name) else {
            panic!("a metric names a column that the records do not have");
        };
        let unit = match c.kind {
            ColumnKind::Seconds | ColumnKind::OptionalSeconds => Unit::Seconds,
            _ => Unit::Count,
        };
        Metric {
            name: c.name,
            label,
            unit,
            structural,
            source: Source::Column(c.get),
        }
    }

    /// The value of the metric in `record`, `None` for an empty cell.
    pub fn value(&self, record: &Record) -> Option<f64> {
        match self.source {
            Source::Column(cell) => cell(record).number(),
            Source::Derived(value) => value(record),
        }
    }
}

/// The hole fraction of the puzzle, in percent: `100 (1 - clues / size^2)`, the share of the
/// grid's cells left empty (the x of quasigroup-with-holes studies, Achlioptas, Gomes, Kautz
/// and Selman 2000). Defined where the grid's cells are the `size^2` of one square: not for
/// samurai and combined grids, whose cells are several overlapping squares and void cells.
fn holes_percent(r: &Record) -> Option<f64> {
    if r.size == 0 || r.variant.starts_with("samurai") || r.variant.starts_with("combined") {
        return None;
    }
    let cells = (r.size * r.size) as f64;
    Some(100.0 * (1.0 - r.clues as f64 / cells))
}

/// Every per-run metric, in the order the error message lists them. Every count column of the
/// records is one (a test checks it).
pub const METRICS: &[Metric] = &[
    Metric::column("cpu_s", "CPU time per run (build + solve)", false),
    Metric::column("solve_s", "solve CPU time per run", false),
    Metric::column("build_s", "build CPU time per run", false),
    Metric::column("wall_s", "wall-clock time per run", false),
    Metric::column("nodes", "search nodes per run", false),
    Metric::column("proof_lemmas", "DRAT proof lemmas per certified run", false),
    Metric::column("proof_bytes", "DRAT proof bytes per certified run", false),
    Metric::column("check_s", "proof check CPU time per certified run", false),
    Metric::column("guesses", "guesses per run", false),
    Metric::column("backtracks", "backtracks per run", false),
    Metric::column("max_live", "most live nodes", false),
    Metric::column("updates", "DLX link updates per run", false),
    Metric::column("decisions", "SAT decisions per run", false),
    Metric::column("conflicts", "SAT conflicts per run", false),
    Metric::column("propagations", "SAT propagations per run", false),
    Metric::column("vars", "CNF variables", true),
    Metric::column("clauses", "CNF clauses", true),
    Metric::column("literals", "CNF literals", true),
    Metric::column("items", "exact-cover items", true),
    Metric::column("options", "exact-cover options", true),
    Metric::column("ones", "exact-cover matrix entries", true),
    Metric::column("solutions", "solutions found", false),
];

/// Columns a line chart can have on its x axis.
pub const X_COLUMNS: &[Metric] = &[
    Metric {
        unit: Unit::Plain,
        ..Metric::column("clues", "clues (givens)", true)
    },
    Metric {
        unit: Unit::Plain,
        ..Metric::column("size", "grid side N", true)
    },
    Metric {
        name: "holes",
        label: "holes (% of cells empty)",
        unit: Unit::Plain,
        structural: true,
        source: Source::Derived(holes_percent),
    },
];

/// Figures of the summary that a bar chart can show (`summarize`'s fields).
pub const BAR_METRICS: &[(&str, &str)] = &[
    (
        "par2_s",
        "PAR-2 score (mean CPU time, unsolved = 2 x time limit)",
    ),
    ("solved", "instances solved"),
    ("median_cpu_s", "median CPU time of solved instances"),
    ("mean_cpu_s", "mean CPU time of solved instances"),
    ("median_nodes", "median search nodes of solved instances"),
    ("median_guesses", "median guesses of solved instances"),
];

/// A name a chart gives that is not a metric or column it can draw; the message lists the
/// known ones.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnknownName {
    #[error(
        "unknown metric `{0}`; known metrics: {known}",
        known = names(METRICS.iter().map(|m| m.name))
    )]
    Metric(String),
    #[error(
        "unknown metric `{0}` for a bar chart; known: {known}",
        known = names(BAR_METRICS.iter().map(|(n, _)| *n))
    )]
    BarMetric(String),
    #[error(
        "unknown x column `{0}` for a line chart; known: {columns}, {counts}",
        columns = names(X_COLUMNS.iter().map(|m| m.name)),
        counts = names(METRICS.iter().filter(|m| m.unit == Unit::Count).map(|m| m.name))
    )]
    XColumn(String),
}

/// `names` joined by `, `.
fn names<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

/// The metric called `name`, or an error listing the known ones.
pub fn metric(name: &str) -> Result<&'static Metric, UnknownName> {
    METRICS
        .iter()
        .find(|m| m.name == name)
        .ok_or_else(|| UnknownName::Metric(name.to_string()))
}

/// The bar chart's figure called `name` and its label, or an error listing the known ones.
pub fn bar_metric(name: &str) -> Result<&'static (&'static str, &'static str), UnknownName> {
    BAR_METRICS
        .iter()
        .find(|(n, _)| *n == name)
        .ok_or_else(|| UnknownName::BarMetric(name.to_string()))
}

/// The x column of a line chart: `clues`, `size`, `holes` (the hole fraction in percent, from
/// `clues` and `size`), or any count metric (e.g. `vars`).
pub fn x_column(name: &str) -> Result<&'static Metric, UnknownName> {
    if let Some(m) = X_COLUMNS.iter().find(|m| m.name == name) {
        return Ok(m);
    }
    match metric(name) {
        Ok(m) if m.unit == Unit::Count => Ok(m),
        _ => Err(UnknownName::XColumn(name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::record::COLUMN_TABLE;

    #[test]
    fn holes_are_the_share_of_empty_cells() {
        let holes = x_column("holes").unwrap();
        let r = |size, clues, variant: &str| Record {
            size,
            clues,
            variant: variant.into(),
            ..Record::default()
        };
        assert_eq!(holes.value(&r(25, 250, "classic")), Some(60.0));
        assert_eq!(holes.value(&r(9, 81, "x")), Some(0.0));
        assert_eq!(holes.value(&r(4, 0, "jigsaw")), Some(100.0));
        assert_eq!(holes.value(&r(21, 100, "samurai")), None);
        assert_eq!(holes.value(&r(9, 30, "combined")), None);
        assert_eq!(holes.value(&r(0, 0, "")), None);
    }

    /// A count the records gain can be drawn: it is a metric (with a label for its axis).
    #[test]
    fn every_count_column_is_a_metric() {
        for c in COLUMN_TABLE {
            if matches!(c.kind, ColumnKind::Count(_)) {
                assert!(METRICS.iter().any(|m| m.name == c.name), "{}", c.name);
            }
        }
    }

    /// The messages for names a chart cannot draw, as `sudolab plot` prints them.
    #[test]
    fn unknown_names_list_the_known_ones() {
        assert_eq!(
            metric("foo").err().unwrap().to_string(),
            "unknown metric `foo`; known metrics: cpu_s, solve_s, build_s, wall_s, nodes, \
             proof_lemmas, proof_bytes, check_s, guesses, backtracks, max_live, updates, \
             decisions, conflicts, propagations, vars, clauses, literals, items, options, ones, \
             solutions"
        );
        assert_eq!(
            bar_metric("foo").err().unwrap().to_string(),
            "unknown metric `foo` for a bar chart; known: par2_s, solved, median_cpu_s, \
             mean_cpu_s, median_nodes, median_guesses"
        );
        assert_eq!(
            x_column("colour").err().unwrap().to_string(),
            "unknown x column `colour` for a line chart; known: clues, size, holes, nodes, \
             proof_lemmas, proof_bytes, guesses, backtracks, max_live, updates, decisions, conflicts, \
             propagations, vars, clauses, literals, items, options, ones, solutions"
        );
    }
}
