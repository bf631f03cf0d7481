//! `sudolab plot` (one chart from run records) and `sudolab report` (an HTML page with the
//! summary tables and charts).

use super::common::load_records as load;

use crate::plot::{self, About, ChartKind, ChartSpec, Content, Figure};
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
    /// size, holes = percent of cells empty, or a count such as vars).
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

    /// Draw the `[[charts]]` of this experiment file instead of the default charts, and show
    /// its `question` and `description` when the sidecar has none (runs made before they
    /// were recorded).
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

/// What `report` reads of an experiment file: its `[[charts]]`, and its name, question and
/// description (the other tables are the runner's business).
struct ExperimentFile {
    charts: Vec<ChartSpec>,
    about: About,
}

fn experiment_file(path: &Path) -> anyhow::Result<ExperimentFile> {
    #[derive(serde::Deserialize)]
    struct Experiment {
        #[serde(default)]
        name: String,
        question: Option<String>,
        description: Option<String>,
        #[serde(default)]
        charts: Vec<ChartSpec>,
    }
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    let e: Experiment =
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let text = |s: Option<String>| s.map(|s| s.trim().to_string()).filter(|s| !s.is_empty());
    Ok(ExperimentFile {
        charts: e.charts,
        about: About {
            experiment: e.name,
            question: text(e.question),
            description: text(e.description),
        },
    })
}

/// The question and description of each sidecar's experiment: the sidecar's own (runs made
/// since the fields exist), else those of the experiment file given with `--charts-from` if it
/// is the same experiment (same `name`), else those of the sidecar's `config_path` if that
/// file still exists and names the same experiment.
fn abouts(metadata: &[serde_json::Value], given: Option<&ExperimentFile>) -> Vec<About> {
    let mut out = Vec::new();
    for m in metadata {
        let mut about = About::from_sidecar(m);
        if about.question.is_none() && about.description.is_none() {
            let from_path = m
                .get("config_path")
                .and_then(|p| p.as_str())
                .map(Path::new)
                .filter(|p| p.is_file())
                .and_then(|p| experiment_file(p).ok());
            let found = given
                .map(|f| &f.about)
                .into_iter()
                .chain(from_path.as_ref().map(|f| &f.about))
                .find(|a| a.experiment == about.experiment);
            if let Some(a) = found {
                about = a.clone();
            }
        }
        out.push(about);
    }
    // No sidecar at all: the given file's, if any.
    if metadata.is_empty() {
        out.extend(given.map(|f| f.about.clone()));
    }
    out
}

/// The JSON sidecar of each CSV (`X.csv` or `X.csv.gz` -> `X.json`), where there is one.
fn sidecars(paths: &[PathBuf]) -> anyhow::Result<Vec<serde_json::Value>> {
    let mut out = Vec::new();
    for p in paths {
        let json = crate::records::sidecar::sidecar_path(p);
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
    let given = args
        .charts_from
        .as_deref()
        .map(experiment_file)
        .transpose()?;
    let specs = match &given {
        Some(f) if !f.charts.is_empty() => f.charts.clone(),
        _ => plot::default_charts(&records),
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
    let about = abouts(&metadata, given.as_ref());
    plot::report_figures(&records, &about, &figures, &metadata, &args.out)?;
    Ok(ExitCode::SUCCESS)
}
