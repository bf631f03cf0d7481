//! `sudolab merge`: joins the outputs of the shards of one experiment into one CSV.
//!
//! Every input must have its sidecar, and all sidecars must name the same experiment and
//! fingerprint (the same experiment file text) and the same `jobs_total`, and the same
//! `puzzle_fingerprints` (the same puzzles in the same order in each dataset). The union of the
//! rows must hold every job `0..jobs_total` exactly once; otherwise nothing is written and the
//! error lists the missing and the doubled jobs (as ranges, with the files holding doubles).
//! The merged CSV is sorted by job, and each row is copied byte for byte from its shard
//! (numbers are not parsed and re-printed, so `5.000000000` stays `5.000000000`; each row
//! keeps its `shard` cell), its line end made `\n`. Inputs may be plain or `.csv.gz`; an output named `.gz` is
//! written compressed. The merged sidecar is
//! the first input's with `shard` null, `jobs_shard` = `jobs_total`, `output` the merged
//! CSV, `start`/`end` the
//! earliest/latest of the inputs, `status_counts` recomputed, and `merged_from` holding every
//! input's sidecar. The output is written under the lock `run` takes on its output
//! ([`rowfile::OutputLock`]): a merge onto an output being written is refused.

use super::error::{DifferentPuzzles, FileAction, FileError, MergeError, MergeErrorKind};
use super::reader::RowReader;
use super::record::{Record, COLUMNS};
use super::{rowfile, sidecar};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a merge wrote.
pub struct MergeReport {
    pub output: PathBuf,
    pub sidecar: PathBuf,
    pub records: Vec<Record>,
}

/// Merges `inputs` into `out` (refused if `out` exists, unless `force`).
pub fn merge(
    inputs: &[PathBuf],
    out: &Path,
    force: bool,
    command: &[String],
) -> Result<MergeReport, MergeError> {
    if inputs.is_empty() {
        return Err(MergeErrorKind::NoInputs.into());
    }
    if out.exists() && !force {
        return Err(MergeErrorKind::OutputExists(out.to_path_buf()).into());
    }
    let mut metas = Vec::new();
    for input in inputs {
        if input == out {
            return Err(MergeErrorKind::InputIsOutput(out.to_path_buf()).into());
        }
        let side = sidecar::sidecar_path(input);
        let meta = sidecar::read(&side).map_err(|source| MergeErrorKind::NoSidecar {
            input: input.clone(),
            source,
        })?;
        metas.push((input, side, meta));
    }
    let field = |v: &Value, k: &str| v.get(k).cloned().unwrap_or(Value::Null);
    let (_, first_side, first) = &metas[0];
    for (_, side, meta) in &metas[1..] {
        for key in ["experiment", "fingerprint", "jobs_total"] {
            if field(meta, key) != field(first, key) {
                return Err(MergeErrorKind::NotShards {
                    sidecar: side.clone(),
                    key,
                    value: field(meta, key),
                    first_sidecar: first_side.clone(),
                    first_value: field(first, key),
                }
                .into());
            }
        }
    }
    let total = first
        .get("jobs_total")
        .and_then(Value::as_u64)
        .ok_or_else(|| MergeErrorKind::NoJobsTotal(first_side.clone()))?;

    // Every input's text, and per row: its record and where its bytes are.
    let mut texts = Vec::new();
    let mut rows: Vec<(Record, usize, std::ops::Range<usize>)> = Vec::new();
    let mut holders: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    let header = COLUMNS.join(",");
    for (i, input) in inputs.iter().enumerate() {
        let text = rowfile::read_text(input)?;
        let first_line = text.split(|&b| b == b'\n').next().unwrap_or_default();
        if first_line.strip_suffix(b"\r").unwrap_or(first_line) != header.as_bytes() {
            return Err(MergeErrorKind::HeaderDiffers(input.clone()).into());
        }
        let mut reader = RowReader::new(input, text.as_slice())?;
        while let Some((r, span)) = reader.next_row()? {
            holders.entry(r.job).or_default().push(i);
            rows.push((r, i, span));
        }
        texts.push(text);
    }
    check_puzzle_files(inputs, &metas, &rows, &texts)?;
    let missing: Vec<u64> = (0..total).filter(|j| !holders.contains_key(j)).collect();
    let doubled: Vec<(u64, &Vec<usize>)> = holders
        .iter()
        .filter(|(_, h)| h.len() > 1)
        .map(|(&j, h)| (j, h))
        .collect();
    let extra: Vec<u64> = holders.keys().copied().filter(|&j| j >= total).collect();
    if !missing.is_empty() || !doubled.is_empty() || !extra.is_empty() {
        let mut msg = String::new();
        if !missing.is_empty() {
            msg += &format!("; missing {} job(s): {}", missing.len(), ranges(&missing));
        }
        if !doubled.is_empty() {
            let shown: Vec<String> = doubled
                .iter()
                .take(10)
                .map(|(j, h)| {
                    let files: Vec<String> =
                        h.iter().map(|&i| inputs[i].display().to_string()).collect();
                    format!("{j} (in {})", files.join(", "))
                })
                .collect();
            msg += &format!(
                "; doubled {} job(s): {}{}",
                doubled.len(),
                shown.join(", "),
                if doubled.len() > 10 { ", ..." } else { "" }
            );
        }
        if !extra.is_empty() {
            msg += &format!("; jobs beyond jobs_total: {}", ranges(&extra));
        }
        return Err(MergeErrorKind::Jobs {
            total,
            problems: msg,
        }
        .into());
    }
    rows.sort_by_key(|(r, _, _)| r.job);

    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| FileError::new(dir, FileAction::CreateDir, e))?;
    }
    let mut merged = Vec::with_capacity(texts.iter().map(Vec::len).sum());
    merged.extend_from_slice(header.as_bytes());
    merged.push(b'\n');
    for (_, i, span) in &rows {
        let bytes = &texts[*i][span.clone()];
        // Each row ends in `\n`: the last row of a file cut by hand may lack its line end,
        // and a row of a file with `\r\n` line ends is read without its `\n`.
        let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        merged.extend_from_slice(bytes.strip_suffix(b"\r").unwrap_or(bytes));
        merged.push(b'\n');
    }
    drop(texts);
    if rowfile::is_gzip_path(out) {
        merged = rowfile::gzip_member(&merged);
    }
    // The lock `run` takes: a run (or another merge) writing this output is not overwritten.
    let _lock = rowfile::OutputLock::take(out)?;
    let tmp = rowfile::sibling(out, ".merge.tmp");
    std::fs::write(&tmp, &merged).map_err(|e| FileError::new(&tmp, FileAction::Write, e))?;
    std::fs::rename(&tmp, out).map_err(|e| FileError::new(out, FileAction::Write, e))?;
    let records: Vec<Record> = rows.into_iter().map(|(r, _, _)| r).collect();

    let mut status_counts: BTreeMap<&str, u64> = BTreeMap::new();
    for r in &records {
        *status_counts.entry(&r.status).or_insert(0) += 1;
    }
    let starts = metas
        .iter()
        .filter_map(|(_, _, m)| m.get("start")?.as_str());
    let ends: Vec<Option<&str>> = metas
        .iter()
        .map(|(_, _, m)| m.get("end").and_then(Value::as_str))
        .collect();
    let mut meta = first.clone();
    meta["shard"] = Value::Null;
    meta["jobs_shard"] = json!(total);
    meta["output"] = json!(out);
    meta["start"] = json!(starts.min());
    // A shard killed and completed by hand has no end: then neither has the merge.
    meta["end"] = if ends.iter().all(Option::is_some) {
        json!(ends.iter().flatten().max())
    } else {
        Value::Null
    };
    meta["status_counts"] = json!(status_counts);
    meta["merge_command"] = json!(command);
    meta["merged_from"] = Value::Array(
        metas
            .iter()
            .map(|(input, _, m)| json!({"csv": input, "sidecar": m}))
            .collect(),
    );
    let side = sidecar::sidecar_path(out);
    sidecar::write(&side, &meta)?;
    Ok(MergeReport {
        output: out.to_path_buf(),
        sidecar: side,
        records,
    })
}

/// Refuses shards run on different puzzle files: each run records, per dataset, the
/// fingerprint of its puzzles (`puzzle_fingerprints` in the sidecar; older sidecars have
/// none, and are not compared). The error names the first row whose puzzle another input
/// holds under another number, when there is one.
fn check_puzzle_files(
    inputs: &[PathBuf],
    metas: &[(&PathBuf, PathBuf, Value)],
    rows: &[(Record, usize, std::ops::Range<usize>)],
    texts: &[Vec<u8>],
) -> Result<(), MergeError> {
    let prints = |m: &Value| m.get("puzzle_fingerprints").cloned().unwrap_or(Value::Null);
    let (_, first_side, first) = &metas[0];
    for (b, (_, side, meta)) in metas.iter().enumerate().skip(1) {
        let (fa, fb) = (prints(first), prints(meta));
        let Some(dataset) = fa.as_object().and_then(|fa| {
            fa.iter()
                .find(|(d, f)| fb.get(d.as_str()).is_some_and(|g| g != *f))
                .map(|(d, _)| d.clone())
        }) else {
            continue;
        };
        let line = |i: usize, at: usize| texts[i][..at].iter().filter(|&&c| c == b'\n').count() + 1;
        // A puzzle of input 0 under one number that input b has under another.
        let mut seen: BTreeMap<&str, (u64, usize)> = BTreeMap::new();
        for (r, i, span) in rows
            .iter()
            .filter(|(r, i, _)| *i == 0 && r.dataset == dataset)
        {
            seen.entry(&r.puzzle)
                .or_insert((r.puzzle_index, line(*i, span.start)));
        }
        let clash = rows.iter().find_map(|(r, i, span)| {
            let (index, at) = *seen.get(r.puzzle.as_str())?;
            (*i == b && r.dataset == dataset && index != r.puzzle_index)
                .then(|| (r, line(*i, span.start), index, at))
        });
        let why = DifferentPuzzles {
            fingerprint: fb[&dataset].as_str().unwrap_or("?").to_string(),
            sidecar: side.clone(),
            first_fingerprint: fa[&dataset].as_str().unwrap_or("?").to_string(),
            first_sidecar: first_side.clone(),
            dataset,
        };
        return Err(match clash {
            Some((r, line, first_index, first_line)) => MergeErrorKind::PuzzleClash {
                input: inputs[b].clone(),
                line,
                index: r.puzzle_index,
                puzzle: r.puzzle.clone(),
                first_input: inputs[0].clone(),
                first_line,
                first_index,
                why,
            },
            None => MergeErrorKind::PuzzleFiles {
                input: inputs[b].clone(),
                why,
            },
        }
        .into());
    }
    Ok(())
}

/// `[1,2,3,7,9,10]` -> `1-3, 7, 9-10`, at most 20 ranges shown.
fn ranges(jobs: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < jobs.len() {
        let mut j = i;
        while j + 1 < jobs.len() && jobs[j + 1] == jobs[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            jobs[i].to_string()
        } else {
            format!("{}-{}", jobs[i], jobs[j])
        });
        i = j + 1;
    }
    if parts.len() > 20 {
        let n = parts.len();
        parts.truncate(20);
        parts.push(format!("... ({} more ranges)", n - 20));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_ranges() {
        assert_eq!(ranges(&[1, 2, 3, 7, 9, 10]), "1-3, 7, 9-10");
        assert_eq!(ranges(&[4]), "4");
        let many: Vec<u64> = (0..50).map(|i| i * 2).collect();
        assert!(ranges(&many).ends_with("(30 more ranges)"));
    }
}
