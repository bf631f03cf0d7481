//! When work must stop: a point in time, a cancel flag set from another thread, or both.
//!
//! One type for every stage that can run long: the engines' searches ([`super::Search`]
//! reads it every few hundred nodes), the CNF encoders and propagation, the SAT backends (a
//! `solve` call stops when it expires and answers `Interrupted`), the DRAT and certificate
//! checkers, and the generator. A stage handed a deadline hands the same one (or a
//! [`Deadline::child`] with a tighter time limit) to the stages it calls, so a time limit
//! and a cancel flag given once reach all of them.
//!
//! The cancel flag is read before the clock: a search both cancelled and late reports the
//! cancellation.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The point in time at which work stops (`None`: no time limit) and the flag that stops it
/// early (`None`: no cancellation). The default never expires.
#[derive(Clone, Debug, Default)]
pub struct Deadline {
    pub at: Option<Instant>,
    pub cancel: Option<Arc<AtomicBool>>,
}

/// Why a [`Deadline`] expired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// The time passed.
    Time,
    /// The cancel flag was set.
    Cancelled,
}

impl Deadline {
    /// `limit` from `start` (none without a limit), and the cancel flag `cancel`.
    pub fn after(start: Instant, limit: Option<Duration>, cancel: Option<Arc<AtomicBool>>) -> Self {
        Deadline {
            at: limit.map(|t| start + t),
            cancel,
        }
    }

    /// Whether the deadline has expired now, and why (the cancel flag first).
    pub fn expired(&self) -> Option<Expiry> {
        if let Some(c) = &self.cancel {
            if c.load(Ordering::Relaxed) {
                return Some(Expiry::Cancelled);
            }
        }
        match self.at {
            Some(at) if Instant::now() >= at => Some(Expiry::Time),
            _ => None,
        }
    }

    /// Whether a time limit or a cancel flag is set (whether the deadline can expire at all).
    pub fn is_set(&self) -> bool {
        self.at.is_some() || self.cancel.is_some()
    }

    /// The time left (zero once passed); `None` without a time limit.
    pub fn remaining(&self) -> Option<Duration> {
        self.at
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// The deadline of a stage run within this one with its own time limit `limit` from now:
    /// the earlier of the two times, and the same cancel flag.
    pub fn child(&self, limit: Option<Duration>) -> Deadline {
        let own = limit.map(|t| Instant::now() + t);
        Deadline {
            at: match (self.at, own) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            cancel: self.cancel.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cancel_flag_is_read_before_the_clock() {
        let flag = Arc::new(AtomicBool::new(false));
        let d = Deadline {
            at: Some(Instant::now()),
            cancel: Some(flag.clone()),
        };
        assert_eq!(d.expired(), Some(Expiry::Time));
        flag.store(true, Ordering::Relaxed);
        assert_eq!(d.expired(), Some(Expiry::Cancelled));
        assert_eq!(Deadline::default().expired(), None);
        assert!(!Deadline::default().is_set());
    }

    #[test]
    fn a_child_ends_at_the_earlier_time() {
        let parent = Deadline::after(Instant::now(), Some(Duration::from_secs(60)), None);
        let child = parent.child(Some(Duration::from_millis(1)));
        assert!(child.at < parent.at);
        assert!(parent.child(None).at == parent.at);
        assert!(Deadline::default().child(None).remaining().is_none());
        std::thread::sleep(Duration::from_millis(2));
        assert_eq!(child.expired(), Some(Expiry::Time));
        assert_eq!(child.remaining(), Some(Duration::ZERO));
    }
}
