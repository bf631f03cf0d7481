//! The sidecar of a run ([`crate::records::sidecar`]): written before the output's header (so
//! an output with a row always has one), again when the run stops early (its session then
//! says how many rows it wrote, and which signal stopped it), and at the end.

use super::load::{puzzle_fingerprints, Loaded};
use super::resume::Earlier;
use super::signals;
use super::{Counts, RunOptions, Target};
use crate::experiment::config::Experiment;
use crate::records::error::FileError;
use crate::records::sidecar;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// The sidecar as this session last wrote it.
pub(super) struct Sidecar {
    path: PathBuf,
    meta: Value,
    /// This session's entry of `sessions`.
    session: Value,
    /// The entries of the earlier sessions.
    earlier: Vec<Value>,
}

impl Sidecar {
    /// Writes the sidecar of a session starting now, on `threads` threads, of an experiment
    /// and shard with `counts` jobs.
    pub fn begin(
        exp: &Experiment,
        loaded: &[Loaded],
        opts: &RunOptions,
        target: &Target,
        threads: usize,
        counts: &Counts,
        earlier: Earlier,
    ) -> Result<Sidecar, FileError> {
        let start = sidecar::now_rfc3339();
        let (git_commit, git_dirty) = sidecar::git_commit();
        let session = json!({
            "start": start,
            "end": null,
            "command": opts.command,
            "threads": threads,
            "jobs_run": null,
            "jobs_abandoned": null,
        });
        let mut sessions = earlier.sessions.clone();
        sessions.push(session.clone());
        let meta = json!({
            "experiment": exp.name,
            "question": exp.question,
            "description": exp.description,
            "fingerprint": exp.fingerprint,
            "config_path": exp.path,
            "output": target.output,
            "config": exp.source_json(),
            "resolved": exp,
            "sudolab_version": env!("CARGO_PKG_VERSION"),
            "git_commit": git_commit,
            "git_dirty": git_dirty,
            "machine": sidecar::machine(),
            "command": opts.command,
            "threads": threads,
            "shard": opts.shard.map(|s| s.to_string()),
            "jobs_total": counts.total,
            "jobs_shard": counts.shard,
            "puzzle_fingerprints": puzzle_fingerprints(exp, loaded),
            "start": earlier.start.unwrap_or_else(|| json!(start)),
            "end": null,
            "status_counts": null,
            "sessions": sessions,
        });
        sidecar::write(&target.side, &meta)?;
        Ok(Sidecar {
            path: target.side.clone(),
            meta,
            session,
            earlier: earlier.sessions,
        })
    }

    /// Records a session stopped before its last job, after writing `written` rows (by
    /// `signal`, if a signal stopped it). A sidecar that cannot be written is only a
    /// warning: the error that stopped the run is the one to report.
    pub fn stopped(&mut self, written: usize, signal: Option<i32>) {
        self.session["end"] = json!(sidecar::now_rfc3339());
        self.session["jobs_run"] = json!(written);
        if let Some(signal) = signal {
            self.session["interrupted_by"] = json!(signals::name(signal));
        }
        self.close_session();
        if let Err(side_err) = sidecar::write(&self.path, &self.meta) {
            eprintln!("sudolab: warning: {side_err:#}");
        }
    }

    /// Records a session that ran its `jobs_run` jobs, `abandoned` of them abandoned by the
    /// watchdog, leaving an output with `status_counts`; returns the sidecar written.
    pub fn finish(
        mut self,
        jobs_run: usize,
        abandoned: usize,
        status_counts: &BTreeMap<&str, u64>,
    ) -> Result<Value, FileError> {
        let end = sidecar::now_rfc3339();
        self.session["end"] = json!(end);
        self.session["jobs_run"] = json!(jobs_run);
        self.session["jobs_abandoned"] = json!(abandoned);
        self.meta["end"] = json!(end);
        self.meta["status_counts"] = json!(status_counts);
        self.close_session();
        sidecar::write(&self.path, &self.meta)?;
        Ok(self.meta)
    }

    /// Puts this session's entry, as it now is, after the earlier ones.
    fn close_session(&mut self) {
        let mut sessions = std::mem::take(&mut self.earlier);
        sessions.push(self.session.take());
        self.meta["sessions"] = json!(sessions);
    }
}
