//! The datasets of a run, read whole before any job: a bad puzzle file is bad input (exit 2),
//! not a result. Also what follows from them alone: whether the output would overwrite one
//! of them, and their fingerprints for the sidecar.

use super::error::{RunError, RunErrorKind};
use crate::experiment::config::Experiment;
use crate::puzzle::{read_file, Puzzle};
use crate::records::record;
use crate::records::writer;
use std::collections::BTreeMap;
use std::path::Path;

/// A dataset's puzzles and what the first fields of their rows share.
pub(super) struct Loaded {
    pub puzzles: Vec<Puzzle>,
    /// The line of the file each puzzle starts on (1-based).
    pub lines: Vec<usize>,
    pub fields: writer::DatasetFields,
}

/// Reads every dataset of `exp`, keeping its `first` puzzles.
pub(super) fn load_datasets(exp: &Experiment) -> Result<Vec<Loaded>, RunError> {
    let mut out = Vec::new();
    for (i, d) in exp.datasets.iter().enumerate() {
        let (_, puzzles) =
            read_file(&d.path, &d.read_options).map_err(|error| RunErrorKind::Dataset {
                index: i,
                experiment: exp.path.clone(),
                error,
            })?;
        let (mut puzzles, mut lines): (Vec<Puzzle>, Vec<usize>) =
            puzzles.into_iter().map(|p| (p.puzzle, p.line)).unzip();
        if let Some(k) = d.first {
            puzzles.truncate(k as usize);
            lines.truncate(k as usize);
        }
        let fields = writer::DatasetFields::new(&exp.name, &d.name, puzzles.first());
        out.push(Loaded {
            puzzles,
            lines,
            fields,
        });
    }
    Ok(out)
}

/// The output and its sidecar must not be one of the experiment's puzzle files: `run` would
/// overwrite it (the sidecar of `x.csv` is `x.json`, a name puzzlekit sets also use).
pub(super) fn refuse_overwriting_a_dataset(
    exp: &Experiment,
    written: &[&Path],
) -> Result<(), RunError> {
    for (i, d) in exp.datasets.iter().enumerate() {
        let Ok(dataset) = d.path.canonicalize() else {
            continue;
        };
        for w in written {
            if w.canonicalize().is_ok_and(|w| w == dataset) {
                return Err(RunErrorKind::OverwritesDataset {
                    experiment: exp.path.clone(),
                    written: w.to_path_buf(),
                    what: if w.extension().is_some_and(|e| e == "json") {
                        "sidecar"
                    } else {
                        "output"
                    },
                    index: i,
                }
                .into());
            }
        }
    }
    Ok(())
}

/// Per dataset name, the FNV-1a hash of its puzzles' `puzzle` cells, each followed by a line
/// end, as 16 hex digits: `merge` refuses shards whose puzzle files differ.
pub(super) fn puzzle_fingerprints(exp: &Experiment, loaded: &[Loaded]) -> BTreeMap<String, String> {
    exp.datasets
        .iter()
        .zip(loaded)
        .map(|(d, l)| {
            let mut text = String::new();
            for p in &l.puzzles {
                text.push_str(&record::puzzle_text(p));
                text.push('\n');
            }
            (
                d.name.clone(),
                format!("{:016x}", record::fnv1a(text.as_bytes())),
            )
        })
        .collect()
}
