//! Charts and the HTML report, drawn from run records (CSV) only, so they work on merged
//! shards and old runs alike.
//!
//! An experiment file's `[[charts]]` tables are read with it as [`ChartSpec`]s; after a run,
//! `sudolab run` calls [`draw_run_charts`] ([`render`] for each, [`report`] once); `sudolab
//! plot` and `sudolab report` do the same from CSV files. This module reads [`crate::records`]
//! only; the runner ([`crate::experiment`]) uses its [`ChartSpec`], never the reverse. What
//! cannot be drawn or written is a [`PlotError`].
//!
//! Conventions shared by every chart (see the captions, which say them to the reader):
//! repetitions of an instance are reduced to their median first; only runs that answered or
//! hit a limit are drawn (`unsupported`/`error` runs are counted, not drawn); time and count
//! axes are logarithmic, with zeros drawn at a stated floor; a configuration keeps its colour
//! (Okabe-Ito palette) across the charts of one input. Text is drawn with a font embedded in
//! the binary (`font`), so no system font is needed.

mod axis;
mod charts;
mod data;
mod draw;
mod error;
mod font;
mod report;
mod spec;

pub use data::{BAR_METRICS, METRICS};
pub use error::{DrawError, PlotError};
pub use report::{report_figures, About, Content, Figure};
pub use spec::{ChartError, ChartKind, ChartSpec, UnknownName};

use crate::records::error::{FileAction, FileError};
use crate::records::Record;
use std::path::{Path, PathBuf};

/// The output format, from the file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

fn format_of(out: &Path) -> Result<Format, PlotError> {
    match out
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .as_deref()
    {
        Some("svg") => Ok(Format::Svg),
        Some("png") => Ok(Format::Png),
        _ => Err(PlotError::Format(out.to_path_buf())),
    }
}

/// Draws `spec` from `records` into `out` (SVG or PNG by extension).
pub fn render(records: &[Record], spec: &ChartSpec, out: &Path) -> Result<(), PlotError> {
    let format = format_of(out)?;
    let plot = charts::build(records, spec)?;
    match format {
        Format::Svg => {
            let svg = svg_of(&plot)?;
            std::fs::write(out, svg).map_err(|e| FileError::new(out, FileAction::Write, e).into())
        }
        Format::Png => {
            font::ensure_registered();
            let backend = plotters::prelude::BitMapBackend::new(out, plot.size);
            let root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
            draw::draw(&root, &plot).map_err(|source| PlotError::WriteImage {
                path: out.to_path_buf(),
                source,
            })
        }
    }
}

/// `spec` drawn as an SVG document, and its caption.
pub fn render_svg(records: &[Record], spec: &ChartSpec) -> Result<(String, String), PlotError> {
    let plot = charts::build(records, spec)?;
    Ok((svg_of(&plot)?, plot.caption))
}

/// What the report prints under a chart: how to read it and what it leaves out.
pub fn caption(records: &[Record], spec: &ChartSpec) -> Result<String, PlotError> {
    Ok(charts::build(records, spec)?.caption)
}

fn svg_of(plot: &draw::Plot) -> Result<String, DrawError> {
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
) -> Result<(), PlotError> {
    let mut figures = Vec::new();
    for (spec, path) in charts {
        let bytes =
            std::fs::read(path).map_err(|e| FileError::new(path, FileAction::ReadChart, e))?;
        let content = match format_of(path)? {
            Format::Svg => report::Content::Svg(
                String::from_utf8(bytes).map_err(|_| PlotError::SvgNotUtf8(path.clone()))?,
            ),
            Format::Png => report::Content::Png(bytes),
        };
        figures.push(Figure {
            caption: caption(records, spec).unwrap_or_default(),
            content,
        });
    }
    let about: Vec<About> = metadata.iter().map(About::from_sidecar).collect();
    report_figures(records, &about, &figures, metadata, out)
}

/// Charts of the experiment (or the default ones) and the HTML report, next to the output.
/// Failures are warnings: the rows are the result, the charts a view of them.
pub fn draw_run_charts(
    specs: &[ChartSpec],
    records: &[Record],
    output: &Path,
    meta: &serde_json::Value,
) {
    let dir = output.parent().unwrap_or(Path::new("."));
    // results/x.csv.gz -> results/x-*.svg and results/x.html
    let stem = crate::records::rowfile::stem(output);
    let specs = if specs.is_empty() {
        default_charts(records)
    } else {
        specs.to_vec()
    };
    let mut drawn = Vec::new();
    for spec in specs {
        let file = spec
            .file
            .clone()
            .unwrap_or_else(|| format!("{stem}-{}.svg", spec.slug()));
        // Two charts of one name would overwrite each other: number the later ones.
        let mut file = file;
        while drawn
            .iter()
            .any(|(_, p): &(ChartSpec, PathBuf)| p == &dir.join(&file))
        {
            file = format!("{}-{}.svg", file.trim_end_matches(".svg"), drawn.len());
        }
        let path = dir.join(file);
        match render(records, &spec, &path) {
            Ok(()) => drawn.push((spec, path)),
            Err(e) => eprintln!(
                "sudolab: warning: chart {}: {}",
                path.display(),
                error::with_causes(&e)
            ),
        }
    }
    let html = dir.join(format!("{stem}.html"));
    if let Err(e) = report(records, &drawn, std::slice::from_ref(meta), &html) {
        eprintln!(
            "sudolab: warning: report {}: {}",
            html.display(),
            error::with_causes(&e)
        );
    }
}

#[cfg(test)]
mod tests;
