//! `sudolab plot` (one chart from run records) and `sudolab report` (an HTML page with the
//! summary tables and charts).

use super::common::load_records as load;

use crate::plot::{self, ChartKind, ChartSpec, Content, Figure};
use anyhow::Context;
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct PlotArgs {
    /// Run records: CSV files written by `sudolab run` or `sudolab merge` (`.csv` or
    /// `.csv.gz`).
    #[arg(required = true, value_name = "CSV")]
    csv: Vec<PathBuf>,

    /// The kind of chart.
    #[arg(long, value_enum)]
    kind: ChartKind,

    /// Output file: .svg or .png.
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,

    /// Column to plot: cpu_s (default), solve_s, nodes, guesses, ...; for bars: par2_s
    /// (default), solved, median_cpu_s, mean_cpu_s, median_nodes, median_guesses.
    #[arg(long)]
    metric: Option<String>,

    /// Scatter: the configuration on the x axis; line: the column on the x axis (clues,
    /// size or a count such as vars).
    #[arg(long)]
    x: Option<String>,

    /// Scatter: the configuration on the y axis.
    #[arg(long)]
    y: Option<String>,

    /// Chart title (default: says what is drawn).
    #[arg(long)]
    title: Option<String>,

    /// Only these configurations (comma-separated labels), in this order.
    #[arg(long, value_delimiter = ',')]
    configs: Vec<String>,

    /// Only these datasets (comma-separated).
    #[arg(long, value_delimiter = ',')]
    datasets: Vec<String>,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run records: CSV files written by `sudolab run` or `sudolab merge` (`.csv` or
    /// `.csv.gz`). A `X.json` beside `X.csv[.gz]` is shown as the run's metadata.
    #[arg(required = true, value_name = "CSV")]
    csv: Vec<PathBuf>,

    /// The HTML file to write.
    #[arg(long, short, value_name = "FILE")]
    out: PathBuf,

    /// Draw the `[[charts]]` of this experiment file instead of the default charts.
    #[arg(long, value_name = "TOML")]
    charts_from: Option<PathBuf>,
}

pub fn plot(args: PlotArgs) -> anyhow::Result<ExitCode> {
    let records = load(&args.csv)?;
    let spec = ChartSpec {
        metric: args.metric,
        x: args.x,
        y: args.y,
        title: args.title,
        configs: args.configs,
        datasets: args.datasets,
        ..ChartSpec::new(args.kind)
    };
    plot::render(&records, &spec, &args.out)?;
    Ok(ExitCode::SUCCESS)
}

/// The `[[charts]]` of an experiment file (its other tables are the runner's business).
fn charts_from(path: &Path) -> anyhow::Result<Vec<ChartSpec>> {
    #[derive(serde::Deserialize)]
    struct Experiment {
        #[serde(default)]
        charts: Vec<ChartSpec>,
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    let e: Experiment =
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    Ok(e.charts)
}

/// The JSON sidecar of each CSV (`X.csv` or `X.csv.gz` -> `X.json`), where there is one.
fn sidecars(paths: &[PathBuf]) -> anyhow::Result<Vec<serde_json::Value>> {
    let mut out = Vec::new();
    for p in paths {
        let json = crate::experiment::sidecar::sidecar_path(p);
        if !json.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&json)
            .with_context(|| format!("{}: cannot read", json.display()))?;
        let v = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}:{}: bad JSON: {e}", json.display(), e.line()))?;
        out.push(v);
    }
    Ok(out)
}

pub fn report(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let records = load(&args.csv)?;
    let metadata = sidecars(&args.csv)?;
    let specs = match &args.charts_from {
        Some(path) => match charts_from(path)? {
            charts if charts.is_empty() => plot::default_charts(&records),
            charts => charts,
        },
        None => plot::default_charts(&records),
    };
    let mut figures = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        let (svg, caption) = plot::render_svg(&records, spec)
            .with_context(|| format!("chart {} ({})", i + 1, spec.slug()))?;
        figures.push(Figure {
            caption,
            content: Content::Svg(svg),
        });
    }
    plot::report_figures(&records, &figures, &metadata, &args.out)?;
    Ok(ExitCode::SUCCESS)
}
