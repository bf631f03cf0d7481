//! External SAT solvers: any executable that reads a DIMACS file and answers in the SAT
//! competition convention (`s SATISFIABLE` + `v` lines on stdout, exit code 10 / 20), or in
//! MiniSat's (result file `SAT` + literals / `UNSAT`) for executables named `*minisat*`.
//!
//! Each `solve` writes the clauses (with the assumptions appended as unit clauses: DIMACS has
//! no assumptions) to a temporary file and runs the solver on it. The process is started in a
//! process group of its own; at the deadline or on cancel the whole group gets SIGKILL and the
//! process is reaped (`wait4`), so no zombie is left and a solver script's children die with
//! it. stdout and stderr are read on threads so a chatty solver never blocks on a full pipe.
//! The counters `decisions`, `conflicts` and `propagations` are taken from the solver's own
//! statistics lines when it prints them (`c decisions: N` for CaDiCaL, `decisions : N` for
//! MiniSat); the solver's CPU time (user + system, from `wait4`) is summed in `child_cpu_us`.
//! Conflict and decision limits become command-line options for the solvers whose options
//! are known by file name (CaDiCaL, Kissat).

use super::{
    AnswerErrorKind, BackendError, BackendStats, Deadline, Interrupt, SatAnswer, SatBackend,
};
use crate::cnf::dimacs::write_clauses;
use crate::cnf::formula::Clauses;
use crate::cnf::model::{is_comment, read_model, SolverAnswer};
use std::io::{BufWriter, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// How the solver is called and answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExternalStyle {
    /// `PATH [ARGS...] in.cnf`, answer on stdout (`s`/`v` lines), exit 10/20.
    Competition,
    /// `PATH [ARGS...] in.cnf result.txt`, answer in the result file (`SAT`/`UNSAT`).
    Minisat,
}

pub struct External {
    program: PathBuf,
    args: Vec<String>,
    style: ExternalStyle,
    num_vars: u32,
    clauses: Clauses,
    stats: BackendStats,
    conflict_limit: Option<u64>,
    /// Decisions allowed per run, where the solver's option is known.
    decision_limit: Option<u64>,
    /// Process id of the last solver run (for tests that check it was reaped).
    pub last_pid: Option<i32>,
}

/// Solvers whose limit options are known, told by the executable's file name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Cadical,
    Kissat,
}

static FILE_COUNTER: AtomicU64 = AtomicU64::new(0);

fn temp_path(ext: &str) -> PathBuf {
    let k = FILE_COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("sudolab-sat-{}-{k}.{ext}", std::process::id()))
}

/// Resolves `name` like a shell: a path if it has a `/`, else searched in `PATH`.
fn resolve(name: &str) -> Option<PathBuf> {
    if name.contains('/') {
        let p = PathBuf::from(name);
        return p.is_file().then_some(p);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    })
}

impl External {
    /// From `PATH [ARGS...]` (whitespace-separated). The style is MiniSat's when the file
    /// name contains `minisat`, else the competition's.
    pub fn from_spec(spec: &str) -> Result<Self, BackendError> {
        let mut words = spec.split_whitespace();
        let name = words.next().ok_or(BackendError::ExternalMissing)?;
        let program = resolve(name).ok_or_else(|| BackendError::ExternalNotFound {
            name: name.to_string(),
        })?;
        let file = program
            .file_name()
            .map(|f| f.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        let style = if file.contains("minisat") {
            ExternalStyle::Minisat
        } else {
            ExternalStyle::Competition
        };
        Ok(Self::new(
            &program,
            words.map(String::from).collect(),
            style,
        ))
    }

    pub fn new(program: &Path, args: Vec<String>, style: ExternalStyle) -> Self {
        External {
            program: program.to_path_buf(),
            args,
            style,
            num_vars: 0,
            clauses: Clauses::new(),
            stats: BackendStats::default(),
            conflict_limit: None,
            decision_limit: None,
            last_pid: None,
        }
    }

    /// The solver family, by file name, for the solvers whose limit options are known.
    fn family(&self) -> Option<Family> {
        let file = self
            .program
            .file_name()
            .map(|f| f.to_string_lossy().to_lowercase())
            .unwrap_or_default();
        if file.contains("cadical") {
            Some(Family::Cadical)
        } else if file.contains("kissat") {
            Some(Family::Kissat)
        } else {
            None
        }
    }

    /// The command-line options that cap the conflicts and the decisions of one run, for the
    /// solvers whose options are known (CaDiCaL `-c N` / `-d N`, Kissat `--conflicts=N` /
    /// `--decisions=N`).
    fn limit_args(&self) -> Result<Vec<String>, BackendError> {
        let mut args = Vec::new();
        if let Some(limit) = self.conflict_limit {
            match self.family() {
                Some(Family::Cadical) => args.extend(["-c".into(), limit.to_string()]),
                Some(Family::Kissat) => args.push(format!("--conflicts={limit}")),
                None => {
                    return Err(BackendError::NoConflictLimitOption {
                        program: self.program.clone(),
                    })
                }
            }
        }
        match (self.decision_limit, self.family()) {
            (Some(limit), Some(Family::Cadical)) => args.extend(["-d".into(), limit.to_string()]),
            (Some(limit), Some(Family::Kissat)) => args.push(format!("--decisions={limit}")),
            _ => {}
        }
        Ok(args)
    }

    fn add_counter(slot: &mut Option<u64>, v: Option<u64>) {
        if let Some(v) = v {
            *slot = Some(slot.unwrap_or(0) + v);
        }
    }
}

/// Reads all of `r` on a thread; the text comes back through the channel.
fn drain(mut r: impl Read + Send + 'static) -> mpsc::Receiver<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = r.read_to_end(&mut buf);
        let _ = tx.send(buf);
    });
    rx
}

/// A counter from a statistics line: `c decisions: 12 ...` or `decisions   : 12 (...)`.
fn stat(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let t = line.trim_start();
        let t = t.strip_prefix("c ").unwrap_or(t).trim_start();
        let rest = t.strip_prefix(name)?.trim_start().strip_prefix(':')?;
        rest.split_whitespace().next()?.parse().ok()
    })
}

struct Run {
    exit: Option<i32>,
    /// The signal that ended the process, when one did.
    signal: Option<i32>,
    stdout: String,
    stderr: String,
    cpu_us: u64,
    interrupted: Option<Interrupt>,
}

/// Runs `cmd` with the budget; kills its process group when the budget is spent; reaps it.
fn run(
    mut cmd: Command,
    budget: &Deadline,
    last_pid: &mut Option<i32>,
) -> Result<Run, BackendError> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let mut child = cmd.spawn().map_err(|source| BackendError::Start {
        program: cmd.get_program().to_os_string(),
        source,
    })?;
    let pid = child.id() as i32;
    *last_pid = Some(pid);
    let out = drain(child.stdout.take().expect("piped"));
    let err = drain(child.stderr.take().expect("piped"));
    let mut status: libc::c_int = 0;
    // SAFETY: zeroed rusage is a valid value of this plain C struct.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let mut interrupted = None;
    let mut nap = Duration::from_micros(100);
    loop {
        // SAFETY: `pid` is our child, not yet reaped; status and ru are valid out-pointers.
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut ru) };
        if r == pid {
            break;
        }
        if r < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(BackendError::Wait(e));
        }
        if let Some(why) = budget.expired().map(Interrupt::from) {
            interrupted = Some(why);
            // SAFETY: plain syscalls on our own child's process group and pid.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
                libc::kill(pid, libc::SIGKILL);
                while libc::wait4(pid, &mut status, 0, &mut ru) < 0
                    && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted
                {
                }
            }
            break;
        }
        thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(5));
    }
    // The child is reaped; `child` must not be waited on again (dropping it does not wait).
    drop(child);
    let grace = Duration::from_secs(2);
    let stdout = out.recv_timeout(grace).unwrap_or_default();
    let stderr = err.recv_timeout(grace).unwrap_or_default();
    let exit = if libc::WIFEXITED(status) {
        Some(libc::WEXITSTATUS(status))
    } else {
        None
    };
    let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    let signal = libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status));
    Ok(Run {
        exit,
        signal,
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        cpu_us: tv(ru.ru_utime) + tv(ru.ru_stime),
        interrupted,
    })
}

impl Run {
    /// How the process ended and the end of what it wrote on stderr, for messages:
    /// `it exited with status 1 and wrote nothing on stderr`.
    fn describe_end(&self) -> String {
        let end = match (self.exit, self.signal) {
            (Some(code), _) => format!("it exited with status {code}"),
            (None, Some(sig)) => format!("it was killed by signal {sig}"),
            (None, None) => "it ended abnormally".to_string(),
        };
        let err = tail(&self.stderr);
        if err.is_empty() {
            format!("{end} and wrote nothing on stderr")
        } else {
            format!("{end}; its stderr ends with: {err}")
        }
    }
}

fn tail(s: &str) -> &str {
    let s = s.trim_end();
    let cut = s.len().saturating_sub(400);
    let cut = (cut..=s.len())
        .find(|&i| s.is_char_boundary(i))
        .unwrap_or(0);
    &s[cut..]
}

impl SatBackend for External {
    fn name(&self) -> String {
        format!("ext:{}", self.program.display())
    }

    fn reserve_vars(&mut self, n: u32) {
        self.num_vars = self.num_vars.max(n);
    }

    fn add_clause(&mut self, lits: &[i32]) {
        for &l in lits {
            self.num_vars = self.num_vars.max(l.unsigned_abs());
        }
        self.clauses.push(lits);
    }

    fn solve(&mut self, assumptions: &[i32], budget: &Deadline) -> Result<SatAnswer, BackendError> {
        if let Some(why) = budget.expired().map(Interrupt::from) {
            return Ok(SatAnswer::Interrupted(why));
        }
        let limit_args = self.limit_args()?;
        let input = temp_path("cnf");
        let result = temp_path("out");
        let guard = Cleanup(vec![input.clone(), result.clone()]);
        // The variables of the file written, the bound of the literals read back.
        let nv = assumptions
            .iter()
            .map(|l| l.unsigned_abs())
            .max()
            .unwrap_or(0)
            .max(self.num_vars);
        {
            let f = std::fs::File::create(&input).map_err(|source| BackendError::WriteInput {
                path: input.clone(),
                source,
            })?;
            let mut w = BufWriter::new(f);
            write_clauses(&mut w, nv, &self.clauses, assumptions)
                .and_then(|_| w.flush())
                .map_err(|source| BackendError::WriteInput {
                    path: input.clone(),
                    source,
                })?;
        }
        let mut cmd = Command::new(&self.program);
        cmd.args(&self.args).args(&limit_args).arg(&input);
        if self.style == ExternalStyle::Minisat {
            cmd.arg(&result);
        }
        let r = run(cmd, budget, &mut self.last_pid)?;
        Self::add_counter(&mut self.stats.child_cpu_us, Some(r.cpu_us));
        if let Some(why) = r.interrupted {
            drop(guard);
            return Ok(SatAnswer::Interrupted(why));
        }
        Self::add_counter(&mut self.stats.decisions, stat(&r.stdout, "decisions"));
        Self::add_counter(&mut self.stats.conflicts, stat(&r.stdout, "conflicts"));
        Self::add_counter(
            &mut self.stats.propagations,
            stat(&r.stdout, "propagations"),
        );
        let answer_text = match self.style {
            ExternalStyle::Competition => r.stdout.clone(),
            ExternalStyle::Minisat => std::fs::read_to_string(&result).unwrap_or_default(),
        };
        drop(guard);
        // The backend's name (`ext:PATH`) prefixes the engine's note; this says what came
        // back and how the process ended, in words.
        let fail = |kind: AnswerErrorKind| BackendError::Answer {
            kind,
            end: r.describe_end(),
        };
        // Some builds (Debian's CaDiCaL sc2021) print no `s UNKNOWN` line when they stop at a
        // limit given on the command line: nothing but comments and exit 0 say so then.
        if !limit_args.is_empty() && r.exit == Some(0) && answer_text.lines().all(is_comment) {
            return Ok(SatAnswer::Interrupted(if self.conflict_limit.is_some() {
                Interrupt::ConflictLimit
            } else {
                Interrupt::DecisionLimit
            }));
        }
        let answer = read_model(&answer_text, nv).map_err(|e| {
            let place = match self.style {
                ExternalStyle::Competition => "on its standard output",
                ExternalStyle::Minisat => "in its result file",
            };
            if answer_text.trim().is_empty() {
                fail(AnswerErrorKind::Missing { place })
            } else {
                fail(AnswerErrorKind::Unreadable { place, error: e })
            }
        })?;
        // Exit 10 = SAT, 20 = UNSAT; any other code is not a contradiction, but 10 with
        // UNSAT or 20 with SAT is.
        match (&answer, r.exit) {
            (SolverAnswer::Sat(_), Some(20)) | (SolverAnswer::Unsat, Some(10)) => {
                return Err(fail(AnswerErrorKind::ExitContradicts))
            }
            _ => {}
        }
        match answer {
            SolverAnswer::Sat(m) => Ok(SatAnswer::Sat(m)),
            SolverAnswer::Unsat => Ok(SatAnswer::Unsat),
            // With a limit, UNKNOWN is the solver saying it reached it (which one, it does not
            // say: the conflict limit if both were given).
            SolverAnswer::Unknown if self.conflict_limit.is_some() => {
                Ok(SatAnswer::Interrupted(Interrupt::ConflictLimit))
            }
            SolverAnswer::Unknown if self.decision_limit.is_some() => {
                Ok(SatAnswer::Interrupted(Interrupt::DecisionLimit))
            }
            SolverAnswer::Unknown => Err(fail(AnswerErrorKind::Unknown)),
        }
    }

    fn set_conflict_limit(&mut self, limit: Option<u64>) {
        self.conflict_limit = limit;
    }

    /// Applied where the solver's option is known (`External::limit_args`); the decisions
    /// it prints are then the count the sat engine subtracts from the next call's cap.
    fn set_decision_limit(&mut self, limit: Option<u64>) -> bool {
        self.decision_limit = limit.filter(|_| self.family().is_some());
        self.family().is_some()
    }

    fn stats(&self) -> BackendStats {
        self.stats
    }
}

struct Cleanup(Vec<PathBuf>);

impl Drop for Cleanup {
    fn drop(&mut self) {
        for p in &self.0 {
            let _ = std::fs::remove_file(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines() {
        assert_eq!(
            stat("c decisions:  12   3.0 per sec\n", "decisions"),
            Some(12)
        );
        assert_eq!(
            stat(
                "conflicts             : 7              (0 /sec)\n",
                "conflicts"
            ),
            Some(7)
        );
        assert_eq!(stat("c nothing\n", "conflicts"), None);
    }
}
