//! What the subcommands share: how puzzle files are read (`InputArgs`), the CNF choices of
//! `solve`, `encode` and `stats`, the output form of grids and the parser of durations. The
//! subcommand modules import from here, never from each other.

use crate::cnf::{Amo, CnfEncoding, CnfOptions, GivensMode};
use crate::puzzle::{
    parse_box, read_file, Alphabet, Format, OutputFormat, ReadOptions, SourcedPuzzle,
};
use crate::records::reader::read_rows;
use crate::records::Record;
use anyhow::anyhow;
use clap::{Args, ValueEnum};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Line,
    Grid,
    Jigsaw,
    /// The killer text format (docs/formats.md).
    Killer,
    /// puzzlekit JSON (KillerSudoku).
    Puzzlekit,
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

    /// Windoku (hyper sudoku): add the windows as houses (on 9x9 the four 3x3 blocks whose
    /// rows and columns start at 1 and 5, counting from 0).
    #[arg(long)]
    pub windoku: bool,
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
                FormatArg::Killer => Format::Killer,
                FormatArg::Puzzlekit => Format::Puzzlekit,
            }),
            box_shape: self.box_shape,
            alphabet: self.alphabet()?,
            diagonals: self.diagonals,
            windoku: self.windoku,
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
            // A box shape is no part of a jigsaw puzzle: its regions are its layout.
            if let (Some((r, c)), Some(sp)) = (
                self.box_shape,
                puzzles.iter().find(|sp| sp.puzzle.geometry().is_jigsaw()),
            ) {
                anyhow::bail!(
                    "{f}:{}:1: --box {r}x{c} does not go with a jigsaw puzzle (its regions are \
                     its layout, not boxes): drop --box",
                    sp.line
                );
            }
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
    /// The killer text format: each solution as a solved puzzle with its cages.
    Killer,
    /// One puzzlekit JSON document: each killer with its first solution.
    Puzzlekit,
}

impl OutputArg {
    pub fn format(self) -> OutputFormat {
        match self {
            OutputArg::Line => OutputFormat::Line,
            OutputArg::Grid => OutputFormat::Grid,
            OutputArg::Killer => OutputFormat::Killer,
            OutputArg::Puzzlekit => OutputFormat::Puzzlekit,
        }
    }
}

/// The run records of CSV files (`summary`, `plot`, `report`), in job order (rows are written
/// in completion order; job order lists the configurations as the experiment file does;
/// stable, so files keep their order). A file with no row is an error naming it: a table or
/// chart of nothing would look like a result. So is a run read twice (the same
/// experiment, dataset, puzzle, configuration and repetition, in one file or two), naming
/// both places: it would be counted twice.
pub fn load_records(paths: &[PathBuf]) -> anyhow::Result<Vec<Record>> {
    // Each record with the file (its index in `paths`) and line it was read from.
    let mut records: Vec<(Record, usize, u64)> = Vec::new();
    for (i, path) in paths.iter().enumerate() {
        let rows = read_rows(path)?;
        if rows.is_empty() {
            let empty = std::fs::metadata(path).is_ok_and(|m| m.len() == 0);
            anyhow::bail!(
                "{}: expected rows of runs (a CSV written by `sudolab run`), found {}",
                path.display(),
                if empty {
                    "an empty file"
                } else {
                    "only the header line"
                }
            );
        }
        records.extend(rows.into_iter().map(|(r, line)| (r, i, line)));
    }
    // A run is its experiment, puzzle, configuration and repetition (rows made by hand may
    // leave `job` at 0, so it is not the key).
    let mut seen = HashMap::new();
    for (r, i, line) in &records {
        let key = (
            r.experiment.as_str(),
            r.dataset.as_str(),
            r.puzzle_index,
            r.config.as_str(),
            r.repetition,
        );
        if let Some((fi, fl)) = seen.insert(key, (*i, *line)) {
            anyhow::bail!(
                "{}:{line}: the run of {} on puzzle {} of {}, repetition {} (job {}, experiment \
                 {}) is also at {}:{fl}: each run must be counted once; give each output once \
                 (`merge` joins the shards of one experiment)",
                paths[*i].display(),
                r.config,
                r.puzzle_index,
                r.dataset,
                r.repetition,
                r.job,
                r.experiment,
                paths[fi].display(),
            );
        }
    }
    records.sort_by(|a, b| (&a.0.experiment, a.0.job).cmp(&(&b.0.experiment, b.0.job)));
    Ok(records.into_iter().map(|(r, _, _)| r).collect())
}

/// Parses a positive, finite number of seconds (at most 10^9). Every message says what was
/// expected and what was found; arguments using it set `allow_negative_numbers` so that
/// `-3` reaches it instead of being taken for an unknown flag.
pub fn parse_seconds(s: &str) -> Result<Duration, String> {
    const EXPECTED: &str = "expected a positive number of seconds (e.g. 10 or 0.5)";
    let secs: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{EXPECTED}, found {s:?}"))?;
    if secs.is_nan() {
        return Err(format!("{EXPECTED}, found {s:?}, which is not a number"));
    }
    if secs.is_infinite() {
        return Err(format!(
            "{EXPECTED}, found {s:?}: a limit must be finite (leave the option out for no limit)"
        ));
    }
    if secs <= 0.0 {
        return Err(format!("{EXPECTED}, found {s}, which is not above 0"));
    }
    if secs > 1e9 {
        return Err(format!("{EXPECTED} of at most 1e9, found {s}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Parses a whole number of at least `MIN` (`whole::<u64, 0>` for a count, `whole::<u64, 1>`
/// for a positive one), into any integer type that holds it. Arguments using it set
/// `allow_negative_numbers`, so `-1` is answered with what was expected, not taken for a flag.
pub fn whole<T: TryFrom<u64>, const MIN: u64>(s: &str) -> Result<T, String> {
    let expected = format!("expected a whole number of at least {MIN}");
    let t = s.trim();
    let v: u64 = match t.parse() {
        Ok(v) => v,
        Err(_)
            if t.starts_with('-') && t[1..].bytes().all(|b| b.is_ascii_digit()) && t.len() > 1 =>
        {
            return Err(format!("{expected}, found {t}, which is negative"))
        }
        Err(_) if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => {
            return Err(format!("{expected}, found {t}, which is too large"))
        }
        Err(_) => return Err(format!("{expected}, found {s:?}")),
    };
    if v < MIN {
        return Err(format!("{expected}, found {v}"));
    }
    T::try_from(v).map_err(|_| format!("{expected}, found {v}, which is too large"))
}

/// CNF encoding choices shared by `encode`, `stats` and `solve`.
#[derive(Args, Debug, Clone, Default)]
pub struct CnfArgs {
    /// CNF encoding: minimal, efficient, extended, optimized or reduced (singles first).
    /// Default: extended for encode and stats, reduced for the sat engine (extended with
    /// incremental=true or givens=assumptions).
    #[arg(long, value_name = "E")]
    pub encoding: Option<String>,

    /// At-most-one encoding: auto (default: pairwise up to 32 literals, bimander above; up to
    /// 16 in a formula that would have over 50M literals so; auto:K: threshold K on every
    /// formula), pairwise, sequential, binary, product,
    /// commander[:K], bimander[:G].
    #[arg(long, value_name = "A")]
    pub amo: Option<String>,

    /// Givens as unit clauses (units, default) or as solver assumptions.
    #[arg(long, value_name = "MODE")]
    pub givens: Option<String>,

    /// Drop duplicate clauses (the published counts include them).
    #[arg(long)]
    pub dedup: bool,

    /// With --encoding reduced: after singles, failed-literal probing with the singles
    /// propagator and the cell dilemma on the cells with at most 3 candidates, to a fixpoint,
    /// before encoding.
    #[arg(long)]
    pub probe: bool,

    /// With --encoding reduced: after singles, locked candidates (pointing and claiming over
    /// the house list) to a fixpoint, before encoding (and before probing with --probe).
    #[arg(long)]
    pub locked: bool,

    /// Sum encoding of killer cages: combinations, totalizer or bdd (default: the sat
    /// engine's, docs/engines.md "Killer cages"). No effect on puzzles without cages.
    #[arg(long, value_name = "S")]
    pub sum: Option<String>,
}

impl CnfArgs {
    /// The CNF flags given, as typed (`--encoding minimal`), for refusing them where no CNF
    /// is made.
    pub fn given(&self) -> Vec<String> {
        let mut given: Vec<String> = [
            ("--encoding", &self.encoding),
            ("--amo", &self.amo),
            ("--givens", &self.givens),
            ("--sum", &self.sum),
        ]
        .into_iter()
        .filter_map(|(flag, v)| v.as_ref().map(|v| format!("{flag} {v}")))
        .collect();
        for (flag, on) in [
            ("--dedup", self.dedup),
            ("--probe", self.probe),
            ("--locked", self.locked),
        ] {
            if on {
                given.push(flag.to_string());
            }
        }
        given
    }

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
        if let Some(e) = &self.sum {
            o.sum = e
                .parse::<crate::cnf::SumEncoding>()
                .map_err(|e| anyhow!("--sum: {e}"))?;
        }
        o.dedup = self.dedup;
        o.probe = self.probe;
        o.locked = self.locked;
        o.check().map_err(anyhow::Error::msg)?;
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_say_what_was_expected_and_found() {
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        for (input, found) in [
            ("inf", "found \"inf\": a limit must be finite"),
            ("nan", "found \"nan\", which is not a number"),
            ("-3", "found -3, which is not above 0"),
            ("0", "found 0, which is not above 0"),
            ("ten", "found \"ten\""),
            ("2e9", "of at most 1e9, found 2e9"),
        ] {
            let e = parse_seconds(input).unwrap_err();
            assert!(
                e.starts_with("expected a positive number of seconds"),
                "{e}"
            );
            assert!(e.contains(found), "{input}: {e}");
        }
    }

    #[test]
    fn whole_numbers_say_what_was_expected_and_found() {
        assert_eq!(whole::<u64, 0>("0"), Ok(0));
        assert_eq!(whole::<usize, 1>("7"), Ok(7));
        for (input, message) in [
            (
                "-1",
                "expected a whole number of at least 0, found -1, which is negative",
            ),
            (
                "1.5",
                "expected a whole number of at least 0, found \"1.5\"",
            ),
            (
                "99999999999999999999",
                "found 99999999999999999999, which is too large",
            ),
        ] {
            let e = whole::<u64, 0>(input).unwrap_err();
            assert!(e.contains(message), "{input}: {e}");
        }
        assert_eq!(
            whole::<u64, 1>("0").unwrap_err(),
            "expected a whole number of at least 1, found 0"
        );
        assert!(whole::<u32, 1>("4294967296")
            .unwrap_err()
            .contains("too large"));
    }
}
