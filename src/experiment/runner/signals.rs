//! SIGINT, SIGTERM and SIGHUP while the jobs run, and [`Interrupted`], the error a run so
//! stopped returns.
//!
//! The handler only notes the signal (one atomic store, async-signal-safe); the watchdog
//! thread sees it at its next tick, writes the buffered rows and the sidecar, and stops the
//! run: a run stopped this way loses only the jobs in flight, and `--resume` runs them.

use std::path::PathBuf;
use std::sync::atomic::{AtomicI32, Ordering};

/// A run stopped by SIGINT, SIGTERM or SIGHUP after writing every row it had: the CLI exits
/// with 128 + the signal's number, as a shell does for a process the signal killed.
#[derive(Debug)]
pub struct Interrupted {
    pub signal: i32,
    /// Rows this invocation wrote before it stopped.
    pub rows: usize,
    pub output: PathBuf,
}

impl Interrupted {
    pub fn exit_code(&self) -> u8 {
        (128 + self.signal).clamp(0, 255) as u8
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "interrupted by {}: {} row(s) of this session written to {}; run the same command \
             with --resume to run the jobs left",
            name(self.signal),
            self.rows,
            self.output.display()
        )
    }
}

impl std::error::Error for Interrupted {}

static CAUGHT: AtomicI32 = AtomicI32::new(0);
const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn note(signal: libc::c_int) {
    // Async-signal-safe: one atomic store.
    CAUGHT.store(signal, Ordering::SeqCst);
}

/// The signal caught since [`catch`], if any.
pub fn caught() -> Option<i32> {
    Some(CAUGHT.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

pub fn name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        n => format!("signal {n}"),
    }
}

/// The handlers in force until the guard is dropped (then the previous ones again).
/// One-shot (`SA_RESETHAND`): a second Ctrl-C while the rows are written kills at once.
pub struct Guard(Vec<(libc::c_int, libc::sigaction)>);

pub fn catch() -> Guard {
    CAUGHT.store(0, Ordering::SeqCst);
    let mut old = Vec::new();
    for signal in SIGNALS {
        // SAFETY: sigaction is plain data, valid zeroed; the handler only stores to an
        // atomic (async-signal-safe); `previous` receives the disposition to restore.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = note as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESTART | libc::SA_RESETHAND;
            libc::sigemptyset(&mut action.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(signal, &action, &mut previous) == 0 {
                old.push((signal, previous));
            }
        }
    }
    Guard(old)
}

impl Drop for Guard {
    fn drop(&mut self) {
        for (signal, previous) in &self.0 {
            // SAFETY: restores a disposition sigaction returned.
            unsafe {
                libc::sigaction(*signal, previous, std::ptr::null_mut());
            }
        }
    }
}
