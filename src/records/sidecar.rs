//! The JSON sidecar written next to an experiment's CSV (`results/quick.csv.gz` ->
//! `results/quick.json`): everything needed to know where the rows come from.
//!
//! Fields: `experiment`, `question` and `description` (the experiment file's, or `null`),
//! `fingerprint` (FNV-1a of the experiment file's text), `config_path`, `output` (the output
//! it belongs to, see [`check_owner`]), `config` (the file as written, as JSON), `resolved`
//! (datasets, configurations and limits with defaults filled in), `sudolab_version`,
//! `git_commit` and `git_dirty` (of the current directory at run time, `"unknown"`/`null`
//! outside a repository: experiments are run from the repository whose `data/` they read),
//! `machine` (CPU model, logical cores, memory, OS, kernel), `command`, `threads`, `shard`
//! (`"i/N"` or `null`), `jobs_total` (the whole
//! experiment), `jobs_shard` (this output's share), `puzzle_fingerprints` (per dataset, the
//! FNV-1a hash of its puzzles' `puzzle` cells in order, each followed by a line end), `start` and `end` (RFC 3339 UTC; `end` is
//! `null` while the run is going on or if it was killed), `status_counts` (over every row of
//! the output at the end) and `sessions` (one entry per `run`/`--resume` invocation: start,
//! end, command, threads, jobs run). A merged sidecar also has `merged_from`.
//!
//! The sidecar is rewritten whole (to a temporary file, then renamed), at the start and at the
//! end of a run, so a reader never sees half a file.

use super::error::{FileAction, FileError, RecordsError};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// `results/x.csv` (or `results/x.csv.gz`) -> `results/x.json`.
pub fn sidecar_path(csv: &Path) -> PathBuf {
    super::rowfile::sibling(csv, ".json")
}

/// Refuses to give `output` the sidecar `side` (and the charts and report of the same stem)
/// when they would be another existing output's: `x.csv`, `x.csv.gz` and `x.gz` in one
/// directory share `x.json`, `x-*.svg` and `x.html` (the names are a contract, so they are not
/// made distinct), and a run on one would overwrite the sidecar the other needs to be resumed
/// or merged. Such a neighbour is allowed only beside the output that the sidecar names as
/// its own (`output`, recorded since this check exists; an older sidecar names none, so the
/// neighbour is refused). An empty file does not count: a run that failed before writing
/// anything leaves one.
pub fn check_owner(output: &Path, side: &Path) -> Result<(), RecordsError> {
    let mine = output.file_name();
    let recorded = read(side)
        .ok()
        .and_then(|v| Some(PathBuf::from(v.get("output")?.as_str()?)));
    let owner = recorded.as_deref().and_then(Path::file_name);
    if mine.is_some() && owner == mine {
        return Ok(());
    }
    let dir = output.parent().unwrap_or(Path::new(""));
    let stem = super::rowfile::stem(output);
    let mut others: Vec<PathBuf> = ["csv", "csv.gz", "gz"]
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .collect();
    others.extend(owner.map(|o| dir.join(o)));
    for other in others {
        if other.file_name() == mine {
            continue;
        }
        if std::fs::metadata(&other).is_ok_and(|m| m.is_file() && m.len() > 0) {
            return Err(RecordsError::SharedSidecar {
                output: output.to_path_buf(),
                sidecar: side.to_path_buf(),
                other,
                stem,
            });
        }
    }
    Ok(())
}

/// Writes `value` to `path` atomically (temporary file in the same directory, then rename).
pub fn write(path: &Path, value: &Value) -> Result<(), FileError> {
    let tmp = path.with_extension("json.tmp");
    // A `Value`'s keys are strings: it always serialises.
    let text = serde_json::to_string_pretty(value).expect("a JSON value serialises") + "\n";
    std::fs::write(&tmp, text).map_err(|e| FileError::new(&tmp, FileAction::Write, e))?;
    std::fs::rename(&tmp, path).map_err(|e| FileError::new(path, FileAction::Write, e))
}

/// Reads a sidecar. Errors name the file.
pub fn read(path: &Path) -> Result<Value, RecordsError> {
    let text =
        std::fs::read_to_string(path).map_err(|e| FileError::new(path, FileAction::Read, e))?;
    serde_json::from_str(&text).map_err(|source| RecordsError::NotJson {
        path: path.to_path_buf(),
        source,
    })
}

/// Now as RFC 3339 UTC with seconds, e.g. `2024-05-01T12:00:00Z`.
pub fn now_rfc3339() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    rfc3339(secs)
}

/// Seconds since the Unix epoch as RFC 3339 UTC.
pub fn rfc3339(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's
/// `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// The current directory's git commit and whether tracked files differ from it.
///
/// One `git status --porcelain=v2 --branch` gives both (its `# branch.oid` header is the
/// commit `git rev-parse HEAD` names; its other lines are the changed tracked files of
/// `git status --porcelain`), one process instead of two: the runner runs this at start-up,
/// inside its measured overhead. A git too old for that form falls back to the two commands.
pub fn git_commit() -> (String, Option<bool>) {
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let status = run(&[
        "status",
        "--porcelain=v2",
        "--branch",
        "--no-ahead-behind",
        "--untracked-files=no",
    ]);
    if let Some(status) = status {
        if let Some(oid) = status
            .lines()
            .find_map(|l| l.strip_prefix("# branch.oid "))
            .map(str::trim)
        {
            // "(initial)": no commit yet, where `git rev-parse HEAD` fails.
            if oid.is_empty() || oid == "(initial)" {
                return ("unknown".to_string(), None);
            }
            let dirty = status.lines().any(|l| !l.is_empty() && !l.starts_with('#'));
            return (oid.to_string(), Some(dirty));
        }
    }
    match run(&["rev-parse", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            let dirty =
                run(&["status", "--porcelain", "--untracked-files=no"]).map(|s| !s.is_empty());
            (commit, dirty)
        }
        _ => ("unknown".to_string(), None),
    }
}

/// `uname -srm` (kernel name, release, machine) from uname(2) itself, without starting a
/// process.
fn kernel() -> Option<String> {
    // SAFETY: utsname is plain old data (arrays of C chars), valid when zeroed; uname fills
    // it with NUL-terminated strings and returns 0 on success.
    let mut u: libc::utsname = unsafe { std::mem::zeroed() };
    if unsafe { libc::uname(&mut u) } != 0 {
        return None;
    }
    let field = |f: &[libc::c_char]| {
        let bytes: Vec<u8> = f
            .iter()
            .take_while(|&&c| c != 0)
            .map(|&c| c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    };
    let text = format!(
        "{} {} {}",
        field(&u.sysname),
        field(&u.release),
        field(&u.machine)
    );
    Some(text.trim().to_string())
}

/// CPU model, logical cores, memory, OS and kernel, from /proc and /etc (Linux); `null`
/// where unknown.
pub fn machine() -> Value {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_bytes = meminfo
        .lines()
        .find(|l| l.starts_with("MemTotal:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<u64>().ok())
        .map(|kb| kb * 1024);
    let os_release = std::fs::read_to_string("/etc/os-release").unwrap_or_default();
    let os = os_release
        .lines()
        .find_map(|l| l.strip_prefix("PRETTY_NAME="))
        .map(|v| v.trim_matches('"').to_string());
    let kernel = kernel();
    let cores = std::thread::available_parallelism().map(|n| n.get()).ok();
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string());
    json!({
        "cpu": cpu,
        "cores": cores,
        "memory_bytes": mem_bytes,
        "os": os,
        "kernel": kernel,
        "hostname": hostname,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339(1_714_564_800 + 3661), "2024-05-01T13:01:01Z");
        assert_eq!(rfc3339(4_102_444_799), "2099-12-31T23:59:59Z");
    }

    #[test]
    fn kernel_is_what_uname_prints() {
        let Ok(out) = std::process::Command::new("uname").arg("-srm").output() else {
            return; // no uname(1) to compare with
        };
        let want = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(kernel(), Some(want));
    }

    #[test]
    fn git_commit_is_what_git_prints() {
        let git = |args: &[&str]| {
            std::process::Command::new("git")
                .args(args)
                .output()
                .ok()
                .filter(|o| o.status.success())
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        };
        let (commit, dirty) = git_commit();
        match git(&["rev-parse", "HEAD"]) {
            Some(want) => {
                assert_eq!(commit, want);
                let changed = git(&["status", "--porcelain", "--untracked-files=no"]);
                assert_eq!(dirty, changed.map(|s| !s.is_empty()));
            }
            None => assert_eq!((commit.as_str(), dirty), ("unknown", None)),
        }
    }

    #[test]
    fn sidecar_next_to_csv() {
        assert_eq!(
            sidecar_path(Path::new("results/q.csv")),
            PathBuf::from("results/q.json")
        );
        assert_eq!(
            sidecar_path(Path::new("results/q.csv.gz")),
            PathBuf::from("results/q.json")
        );
    }
}
