//! An existing output: what it holds, whether this run may continue it, and opening it (or a
//! new one) for rows.
//!
//! An output without a single complete row (a run killed in its first milliseconds) holds
//! nothing worth keeping and is started over. One with rows is continued only by the
//! experiment text and shard that began it (the sidecar's fingerprint and shard), and only if
//! each row is a job of this plan, once, on the puzzle its job names now: a puzzle file
//! edited since would mix rows of two files under the same job numbers. A torn last row (or
//! gzip member) is cut off before rows are appended.

use super::error::{OutputAction, RunError, RunErrorKind};
use super::load::Loaded;
use crate::experiment::config::Experiment;
use crate::experiment::jobs::Job;
use crate::records::error::{FileAction, FileError};
use crate::records::reader::RowReader;
use crate::records::record::{self, Record, COLUMNS};
use crate::records::rowfile::{self, OutputLock, RowSink};
use crate::records::sidecar;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{File, OpenOptions};
use std::path::Path;

/// What the earlier sessions of an output left: their sidecar's sessions and start, and the
/// jobs its rows hold (nothing, for a new output).
#[derive(Default)]
pub(super) struct Earlier {
    pub sessions: Vec<Value>,
    pub start: Option<Value>,
    pub done: BTreeSet<u64>,
}

/// What `output` holds: `None` when it does not exist or has no complete row.
pub(super) fn read_output(output: &Path) -> Result<Option<Existing>, RunError> {
    if !output.exists() {
        return Ok(None);
    }
    Ok(Some(read_existing(output)?).filter(|e| !e.records.is_empty()))
}

impl Existing {
    /// Checks that this run may continue the output (same experiment text and shard per its
    /// sidecar `side`; rows of `plan`, once each, on the puzzles of `loaded`) and returns
    /// what its earlier sessions left.
    pub fn earlier(
        &self,
        exp: &Experiment,
        loaded: &[Loaded],
        plan: &[Job],
        output: &Path,
        side: &Path,
        shard: &str,
    ) -> Result<Earlier, RunError> {
        let previous = sidecar::read(side).map_err(|source| RunErrorKind::NoSidecar {
            output: output.to_path_buf(),
            rows: self.records.len(),
            sidecar: side.to_path_buf(),
            source,
        })?;
        check_same_run(&previous, exp, shard, side)?;
        let sessions = previous
            .get("sessions")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        Ok(Earlier {
            sessions,
            start: previous.get("start").cloned(),
            done: self.check_rows(exp, loaded, plan, output)?,
        })
    }

    /// The jobs of the rows, each a job of `plan` on the puzzle its job names now, once.
    fn check_rows(
        &self,
        exp: &Experiment,
        loaded: &[Loaded],
        plan: &[Job],
        output: &Path,
    ) -> Result<BTreeSet<u64>, RunError> {
        let mine: BTreeMap<u64, &Job> = plan.iter().map(|j| (j.job, j)).collect();
        let mut texts: BTreeMap<u64, String> = BTreeMap::new();
        let mut done = BTreeSet::new();
        for (i, r) in self.records.iter().enumerate() {
            let Some(job) = mine.get(&r.job) else {
                return Err(RunErrorKind::ForeignJob {
                    output: output.to_path_buf(),
                    line: i + 2,
                    job: r.job,
                }
                .into());
            };
            let (d, p) = (job.dataset as usize, job.puzzle as usize);
            let expected = texts
                .entry(job.ordinal)
                .or_insert_with(|| record::puzzle_text(&loaded[d].puzzles[p]));
            if r.puzzle != *expected || r.puzzle_index != p as u64 + 1 {
                return Err(RunErrorKind::DifferentPuzzle {
                    output: output.to_path_buf(),
                    line: i + 2,
                    job: r.job,
                    puzzle_index: p + 1,
                    dataset: exp.datasets[d].name.clone(),
                    dataset_path: exp.datasets[d].path.clone(),
                    dataset_line: loaded[d].lines[p],
                    expected: expected.clone(),
                    found_index: r.puzzle_index,
                    found: r.puzzle.clone(),
                }
                .into());
            }
            if !done.insert(r.job) {
                return Err(RunErrorKind::DuplicateJob {
                    output: output.to_path_buf(),
                    line: i + 2,
                    job: r.job,
                }
                .into());
            }
        }
        Ok(done)
    }
}

/// An output may only be resumed by the experiment file (same text) and shard that began it.
fn check_same_run(
    previous: &Value,
    exp: &Experiment,
    shard: &str,
    side: &Path,
) -> Result<(), RunError> {
    let fp = previous.get("fingerprint").and_then(Value::as_str);
    if fp != Some(exp.fingerprint.as_str()) {
        return Err(RunErrorKind::DifferentExperiment {
            sidecar: side.to_path_buf(),
            fingerprint: fp.map(str::to_string),
            experiment: exp.path.clone(),
            now: exp.fingerprint.clone(),
        }
        .into());
    }
    let was = previous.get("shard").and_then(Value::as_str).unwrap_or("");
    if was != shard {
        return Err(RunErrorKind::DifferentShard {
            sidecar: side.to_path_buf(),
            was: was.to_string(),
            now: shard.to_string(),
        }
        .into());
    }
    Ok(())
}

/// [`RunErrorKind::Output`] for `path`.
fn output_error(
    path: &Path,
    action: OutputAction,
) -> impl FnOnce(std::io::Error) -> RunErrorKind + '_ {
    move |source| RunErrorKind::Output {
        path: path.to_path_buf(),
        action,
        source,
    }
}

/// What an existing output holds: its complete rows, and how to cut it back to them.
pub(super) struct Existing {
    /// The complete rows, in file order.
    pub records: Vec<Record>,
    cut: Cut,
}

/// How an output is cut back to its header and complete rows before rows are appended.
enum Cut {
    /// Truncate to this many bytes: a plain CSV (after its last complete row), or a gzip
    /// output (after its last complete member).
    Truncate(u64),
    /// Rewrite as one gzip member of this text: a compressed output with a bad row inside a
    /// complete member (not made by sudolab, which writes whole rows per member).
    Rewrite(Vec<u8>),
}

/// Reads an existing output: checks the header, leaves out a torn last row (plain) or a torn
/// last member (gzip), and errors on a bad row elsewhere. Without a complete header the output
/// holds no row.
fn read_existing(path: &Path) -> Result<Existing, RunError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::new(path, FileAction::Read, e))?;
    let gzip = rowfile::is_gzip_path(path);
    let (text, end) = if gzip {
        let (text, end) = rowfile::complete_members(&bytes);
        if end == 0 && bytes.len() >= 2 && !bytes.starts_with(&[0x1f, 0x8b]) {
            return Err(RunErrorKind::NotGzip(path.to_path_buf()).into());
        }
        (text, end)
    } else {
        (bytes, 0)
    };
    // A run killed while writing leaves a last line without its newline: cut it off.
    let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let header = format!("{}\n", COLUMNS.join(","));
    let mut records = Vec::new();
    let mut good_end = 0;
    if keep > 0 {
        if !text.starts_with(header.as_bytes()) {
            return Err(RunErrorKind::HeaderDiffers(path.to_path_buf()).into());
        }
        let mut reader = RowReader::new(path, &text[..keep])?;
        good_end = reader.end();
        loop {
            match reader.next_row() {
                Ok(Some((r, _))) => {
                    good_end = reader.end();
                    records.push(r);
                }
                Ok(None) => break,
                // A bad row is forgiven only as the last one (a torn write); elsewhere the
                // file is corrupt.
                Err(e) if reader.more() => return Err(e.into()),
                Err(_) => break,
            }
        }
    }
    let cut = if !gzip {
        Cut::Truncate(good_end as u64)
    } else if good_end == text.len() {
        Cut::Truncate(end as u64)
    } else {
        Cut::Rewrite(text[..good_end].to_vec())
    };
    Ok(Existing { records, cut })
}

impl Existing {
    /// Cuts the output back to its complete rows and opens it for appending. `lock` is the
    /// output's: a rewritten output is a new file, locked anew.
    pub fn cut_and_open(&self, path: &Path, lock: &mut OutputLock) -> Result<RowSink, RunError> {
        match &self.cut {
            Cut::Truncate(len) => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(output_error(path, OutputAction::OpenForWriting))?;
                file.set_len(*len)
                    .map_err(output_error(path, OutputAction::Truncate))?;
            }
            Cut::Rewrite(text) => {
                let tmp = rowfile::sibling(path, ".csv.gz.tmp");
                std::fs::write(&tmp, rowfile::gzip_member(text))
                    .map_err(|e| FileError::new(&tmp, FileAction::Write, e))?;
                std::fs::rename(&tmp, path)
                    .map_err(|e| FileError::new(path, FileAction::Write, e))?;
                // The rename made a new file: a run started since found it unlocked, and
                // then this one stops (it has written nothing but the same rows).
                *lock = OutputLock::take(path)?;
            }
        }
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(output_error(path, OutputAction::OpenForAppending))?;
        Ok(RowSink::new(file, path))
    }
}

/// Creates (or starts over) an output with its header.
pub(super) fn create_output(path: &Path) -> Result<RowSink, RunError> {
    let file = File::create(path).map_err(|e| FileError::new(path, FileAction::Create, e))?;
    let mut sink = RowSink::new(file, path);
    sink.append(format!("{}\n", COLUMNS.join(",")).as_bytes())?;
    Ok(sink)
}
