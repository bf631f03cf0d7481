//! The end of a run: the summary of every row of the output and the count of each status,
//! for the CLI and the sidecar.
//!
//! The rows of the earlier sessions are those read when resuming; this session's are kept
//! as they were written ([`Done`]), not read back: reading 50,000 rows costs more than the
//! runner's whole overhead on a fast engine.

use super::pool::{Done, Shared};
use crate::engines::Status;
use crate::records::record::Record;
use crate::records::summary::{summarize_indexed, RunView, SummaryLine};
use std::collections::BTreeMap;

/// What the output holds after a run.
pub(super) struct Totals<'a> {
    /// The summary of every row, in job order.
    pub summary: Vec<SummaryLine>,
    /// Rows per status.
    pub status_counts: BTreeMap<&'a str, u64>,
    /// Rows in the output.
    pub rows: usize,
}

/// The totals of `earlier` (the output's rows before this session) and `done_now` (this
/// session's rows).
pub(super) fn totals<'a>(shared: &Shared, earlier: &'a [Record], done_now: &[Done]) -> Totals<'a> {
    // Job order, not completion order, so configurations are listed as in the file.
    // A fresh run whose rows came in job order (one thread, no `seed`: the usual case) is
    // summarised straight from `done_now`; otherwise through `order`, (job, i) sorted by job,
    // where i < earlier.len() is earlier[i], else done_now[i - earlier.len()].
    let job_of = |d: &Done| shared.todo[d.pos as usize].job;
    let in_job_order =
        earlier.is_empty() && done_now.windows(2).all(|w| job_of(&w[0]) < job_of(&w[1]));
    let order: Vec<(u64, usize)> = if in_job_order {
        Vec::new()
    } else {
        let mut order: Vec<(u64, usize)> = Vec::with_capacity(earlier.len() + done_now.len());
        order.extend(earlier.iter().enumerate().map(|(i, r)| (r.job, i)));
        order.extend(
            done_now
                .iter()
                .enumerate()
                .map(|(i, d)| (job_of(d), earlier.len() + i)),
        );
        order.sort_unstable_by_key(|&(job, _)| job);
        order
    };
    let view = |k: usize| {
        if in_job_order {
            return shared.view(&done_now[k]);
        }
        let i = order[k].1;
        match earlier.get(i) {
            Some(r) => RunView::from(r),
            None => shared.view(&done_now[i - earlier.len()]),
        }
    };
    let mut status_counts: BTreeMap<&str, u64> = BTreeMap::new();
    for r in earlier {
        *status_counts.entry(&r.status).or_insert(0) += 1;
    }
    // This session's rows by Status discriminant (the order of Status::ALL), then by name.
    let mut by_status = [0u64; Status::ALL.len()];
    for d in done_now {
        by_status[d.status as usize] += 1;
    }
    for (status, n) in Status::ALL.iter().zip(by_status) {
        if n > 0 {
            *status_counts.entry(status.as_str()).or_insert(0) += n;
        }
    }
    let rows = earlier.len() + done_now.len();
    Totals {
        summary: summarize_indexed(rows, view),
        status_counts,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_numbered_in_the_order_of_all() {
        for (i, s) in Status::ALL.iter().enumerate() {
            assert_eq!(*s as usize, i, "{s}");
        }
    }
}
