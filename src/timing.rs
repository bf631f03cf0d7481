//! Clocks for measurement: thread CPU time (what the experiments report as `build_s` and
//! `solve_s`) beside wall time. Thread CPU time is not disturbed by other threads of the same
//! process, so runs on several threads stay comparable with runs on one.

use std::time::{Duration, Instant};

/// CPU time consumed by the calling thread so far.
pub fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is supported on
    // every Linux and macOS this tool targets. On failure the clock reads zero.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// A start point on both clocks.
#[derive(Clone, Copy, Debug)]
pub struct Stopwatch {
    cpu: Duration,
    wall: Instant,
}

impl Stopwatch {
    pub fn start() -> Self {
        Stopwatch {
            cpu: thread_cpu_time(),
            wall: Instant::now(),
        }
    }

    /// Thread CPU time since the start.
    pub fn cpu(&self) -> Duration {
        thread_cpu_time().saturating_sub(self.cpu)
    }

    /// Wall time since the start.
    pub fn wall(&self) -> Duration {
        self.wall.elapsed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_clock_advances_with_work() {
        let w = Stopwatch::start();
        let mut x = 0u64;
        while w.wall() < Duration::from_millis(20) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        assert!(w.cpu() > Duration::from_millis(5));
    }
}
