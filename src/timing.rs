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
        // Work until the thread's CPU clock passes 5 ms. A fixed wall-time loop would depend
        // on the machine's load (on a loaded machine 20 ms of wall time can hold under 5 ms of
        // this thread's CPU); the wall bound only ends the loop if the clock never advances.
        let w = Stopwatch::start();
        let mut x = 0u64;
        while w.cpu() <= Duration::from_millis(5) && w.wall() < Duration::from_secs(60) {
            for _ in 0..10_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            std::hint::black_box(x);
        }
        let (cpu, wall) = (w.cpu(), w.wall());
        assert!(
            cpu > Duration::from_millis(5),
            "CPU {cpu:?} after {wall:?} of wall time"
        );
        // One thread cannot use more CPU than wall time (1 ms of slack for clock granularity).
        assert!(
            cpu <= wall + Duration::from_millis(1),
            "CPU {cpu:?} > wall {wall:?}"
        );
    }
}
