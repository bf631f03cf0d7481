//! What the subcommands share: how puzzle files are read (`InputArgs`), the CNF choices of
//! `solve`, `encode` and `stats`, the output form of grids and the parser of durations. The
//! subcommand modules import from here, never from each other.

use crate::cnf::{Amo, CnfEncoding, CnfOptions, GivensMode};
use crate::puzzle::{
    parse_box, read_file, Alphabet, Format, OutputFormat, ReadOptions, SourcedPuzzle,
};
use anyhow::anyhow;
use clap::{Args, ValueEnum};
use std::path::Path;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Line,
    Grid,
    Jigsaw,
}

/// How to read puzzle files; shared by every subcommand that reads puzzles.
#[derive(Args, Debug, Clone, Default)]
pub struct InputArgs {
    /// Input format (default: detected per file).
    #[arg(long, value_enum)]
    pub format: Option<FormatArg>,

    /// Box shape RxC (rows x columns, R*C = N) instead of the most square one for N.
    #[arg(long = "box", value_name = "RxC", value_parser = parse_box)]
    pub box_shape: Option<(usize, usize)>,

    /// Symbols of the digits 1..N in order (default 1-9 then A-Z, case-insensitive).
    #[arg(long, value_name = "SYMBOLS")]
    pub alphabet: Option<String>,

    /// X-sudoku: add the two diagonals as houses.
    #[arg(long)]
    pub diagonals: bool,
}

/// The puzzles of one input file.
pub struct PuzzleSet {
    /// The file name as given (`<stdin>` for standard input).
    pub source: String,
    pub format: Format,
    pub puzzles: Vec<SourcedPuzzle>,
}

impl InputArgs {
    pub fn alphabet(&self) -> anyhow::Result<Option<Alphabet>> {
        self.alphabet
            .as_deref()
            .map(|s| Alphabet::new(s).map_err(|e| anyhow::anyhow!("--alphabet: {e}")))
            .transpose()
    }

    pub fn read_options(&self) -> anyhow::Result<ReadOptions> {
        Ok(ReadOptions {
            format: self.format.map(|f| match f {
                FormatArg::Line => Format::Line,
                FormatArg::Grid => Format::Grid,
                FormatArg::Jigsaw => Format::Jigsaw,
            }),
            box_shape: self.box_shape,
            alphabet: self.alphabet()?,
            diagonals: self.diagonals,
        })
    }

    /// Reads every file (none or `-` = standard input). Any error stops before anything is
    /// solved, so a bad file never leaves a half-done run.
    pub fn load(&self, files: &[String]) -> anyhow::Result<Vec<PuzzleSet>> {
        let options = self.read_options()?;
        let stdin = ["-".to_string()];
        let files = if files.is_empty() { &stdin[..] } else { files };
        let mut sets = Vec::with_capacity(files.len());
        for f in files {
            let (format, puzzles) = read_file(Path::new(f), &options)?;
            sets.push(PuzzleSet {
                source: if f == "-" {
                    "<stdin>".into()
                } else {
                    f.clone()
                },
                format,
                puzzles,
            });
        }
        Ok(sets)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OutputArg {
    Line,
    Grid,
}

impl OutputArg {
    pub fn format(self) -> OutputFormat {
        match self {
            OutputArg::Line => OutputFormat::Line,
            OutputArg::Grid => OutputFormat::Grid,
        }
    }
}

/// Parses a positive, finite number of seconds.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    let secs: f64 = s
        .parse()
        .map_err(|_| format!("{s:?} is not a number of seconds"))?;
    if !secs.is_finite() || secs <= 0.0 || secs > 1e9 {
        return Err(format!("{s:?} is not a positive number of seconds"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// CNF encoding choices shared by `encode`, `stats` and `solve`.
#[derive(Args, Debug, Clone, Default)]
pub struct CnfArgs {
    /// CNF encoding: minimal, efficient, extended (default) or optimized.
    #[arg(long, value_name = "E")]
    pub encoding: Option<String>,

    /// At-most-one encoding: pairwise (default), sequential, binary, product, commander[:K].
    #[arg(long, value_name = "A")]
    pub amo: Option<String>,

    /// Givens as unit clauses (units, default) or as solver assumptions.
    #[arg(long, value_name = "MODE")]
    pub givens: Option<String>,

    /// Drop duplicate clauses (the published counts include them).
    #[arg(long)]
    pub dedup: bool,
}

impl CnfArgs {
    pub fn options(&self) -> anyhow::Result<CnfOptions> {
        let mut o = CnfOptions::default();
        if let Some(e) = &self.encoding {
            o.encoding = e
                .parse::<CnfEncoding>()
                .map_err(|e| anyhow!("--encoding: {e}"))?;
        }
        if let Some(a) = &self.amo {
            o.amo = a.parse::<Amo>().map_err(|e| anyhow!("--amo: {e}"))?;
        }
        if let Some(g) = &self.givens {
            o.givens = g
                .parse::<GivensMode>()
                .map_err(|e| anyhow!("--givens: {e}"))?;
        }
        o.dedup = self.dedup;
        o.check().map_err(anyhow::Error::msg)?;
        Ok(o)
    }
}
