//! The errors of the plot layer: a kind, and the file when one is at fault. Charts are drawn
//! from records already read (the records layer reports a row's position), so what can go
//! wrong here is a name the records do not hold, the drawing backend, or a chart or report
//! file. The texts are the messages the command line prints (`sudolab: ` and the error with
//! its causes).

use super::spec::UnknownName;
use crate::records::FileError;
use std::path::PathBuf;

/// A chart or report that could not be drawn or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PlotError {
    /// A chart file whose extension names no format a chart is drawn in.
    #[error("{}: the chart's file name must end in .svg or .png", .0.display())]
    Format(PathBuf),
    /// A metric or column that the chart cannot draw.
    #[error(transparent)]
    UnknownName(#[from] UnknownName),
    /// A configuration or dataset that a chart selects and the records do not hold.
    #[error("no {what} `{name}` in the records; there are: {known}")]
    NotInRecords {
        /// `configuration` or `dataset`.
        what: &'static str,
        name: String,
        /// The names the records hold, joined by `, `.
        known: String,
    },
    /// A scatter's `x` or `y` configuration that the selection does not hold.
    #[error("scatter: no configuration `{name}` for --{axis}; there are: {known}")]
    ScatterAxis {
        /// `x` or `y`.
        axis: &'static str,
        name: String,
        known: String,
    },
    /// A scatter over fewer than two configurations.
    #[error("scatter needs two configurations, the records have {count}: {known}")]
    ScatterNeedsTwo { count: usize, known: String },
    /// The drawing backend failed.
    #[error(transparent)]
    Draw(#[from] DrawError),
    /// A PNG chart that could not be drawn into its file (the backend writes the file, so
    /// its failure is the cause).
    #[error("{}: cannot write", .path.display())]
    WriteImage {
        path: PathBuf,
        #[source]
        source: DrawError,
    },
    /// A chart or report file that could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// An SVG chart to inline in the report that is not UTF-8 text.
    #[error("{}: the SVG file is not UTF-8", .0.display())]
    SvgNotUtf8(PathBuf),
}

/// What the drawing backend (plotters) reported, as text: plotters' error types are generic
/// in the backend, so the error keeps their message.
#[derive(Debug, thiserror::Error)]
#[error("drawing the chart: {0}")]
pub struct DrawError(pub String);

impl DrawError {
    /// The backend's error `e`.
    pub fn of<E: std::fmt::Display>(e: E) -> DrawError {
        DrawError(e.to_string())
    }
}

/// `error` followed by its causes, each after `: `, as the command line prints an error.
pub(crate) fn with_causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
