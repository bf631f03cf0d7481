//! The summary of a set of records, one line per engine configuration: what the runner prints
//! at the end of a run and what the report's tables show.
//!
//! Definitions (every figure is over the *instances* of a configuration, an instance being a
//! (dataset, puzzle) pair).
//!
//! **Repetitions.** An instance run several times counts as *solved only if every repetition
//! answered*; its figures (CPU time, nodes, guesses) are then those of its median repetition
//! by CPU time (the lower middle one for an even count), the convention of the field. An
//! instance with an unanswered repetition is unsolved, counted under the status of its first
//! unanswered repetition (in file order) and scored with that repetition's time limit. So
//! `solved` never exceeds the instances that every repetition answered.
//!
//! - `runs`: records of the configuration (repetitions included); `instances`: distinct puzzles;
//! - `solved`: instances whose every repetition answers the question (`solved`, `unique`,
//!   `multiple`, `unsat`); `by_status`: the unsolved instances by status (limits,
//!   unsupported, error);
//! - `median_cpu_s`, `mean_cpu_s`: over solved instances, of `cpu_s` (build + solve thread CPU);
//! - `par2_s`: mean over all instances of `cpu_s` for a solved one and twice its time limit for
//!   an unsolved one (PAR-2, as in the SAT competitions); `None` when an unsolved instance ran
//!   without a time limit, since the penalty is then undefined;
//! - `median_nodes`, `median_guesses`: over solved instances that have the count.

use super::record::Record;
use std::collections::BTreeMap;

/// One configuration's line.
#[derive(Clone, Debug, PartialEq)]
pub struct SummaryLine {
    pub config: String,
    pub runs: u64,
    pub instances: u64,
    pub solved: u64,
    /// Unanswered instances by status, e.g. `time-limit` -> 12.
    pub by_status: BTreeMap<String, u64>,
    pub median_cpu_s: Option<f64>,
    pub mean_cpu_s: Option<f64>,
    pub par2_s: Option<f64>,
    pub median_nodes: Option<f64>,
    pub median_guesses: Option<f64>,
}

/// What the summary needs of one run: a view of a [`Record`] that the runner can also make
/// without building one (it keeps this, not whole records, for every row it writes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunView<'a> {
    pub config: &'a str,
    pub dataset: &'a str,
    pub puzzle_index: u64,
    pub status: &'a str,
    pub answered: bool,
    pub cpu_s: f64,
    pub nodes: Option<u64>,
    pub guesses: Option<u64>,
    pub time_limit_s: Option<f64>,
}

impl<'a> From<&'a Record> for RunView<'a> {
    fn from(r: &'a Record) -> Self {
        RunView {
            config: &r.config,
            dataset: &r.dataset,
            puzzle_index: r.puzzle_index,
            status: &r.status,
            answered: r.answered(),
            cpu_s: r.cpu_s,
            nodes: r.nodes,
            guesses: r.guesses,
            time_limit_s: r.time_limit_s,
        }
    }
}

/// Summary lines in order of first appearance of each configuration in `records`.
pub fn summarize(records: &[Record]) -> Vec<SummaryLine> {
    summarize_runs(records.iter().map(RunView::from))
}

/// [`summarize`] over run views.
///
/// The runs are numbered by configuration (in order of first appearance), then each
/// configuration's runs are sorted stably by instance, (dataset, puzzle index): the
/// repetitions of an instance stay in input order and instances come in the order of a map
/// keyed by (dataset, puzzle index). The runs are kept once and their indexes are sorted, a
/// linear pass for input already in job order: the runner's end-of-run summary of 50,000 rows
/// costs a few milliseconds, not one map entry and one vector per instance.
pub fn summarize_runs<'a>(runs: impl IntoIterator<Item = RunView<'a>>) -> Vec<SummaryLine> {
    let runs: Vec<RunView<'a>> = runs.into_iter().collect();
    summarize_indexed(runs.len(), |i| runs[i])
}

/// [`summarize_runs`] over the runs `run(0)` to `run(count - 1)`, made on demand: the runner
/// makes its views from the few numbers it keeps per row rather than collecting 50,000 of
/// them (6 MB, whose page faults alone cost more than making each view several times).
pub fn summarize_indexed<'a>(count: usize, run: impl Fn(usize) -> RunView<'a>) -> Vec<SummaryLine> {
    let mut buckets: Vec<Bucket<'a>> = Vec::new();
    let mut last = 0;
    for i in 0..count {
        let r = run(i);
        let key = (r.dataset, r.puzzle_index);
        let c = if buckets
            .get(last)
            .is_some_and(|b| same_str(b.config, r.config))
        {
            last
        } else if let Some(c) = buckets.iter().position(|b| b.config == r.config) {
            c
        } else {
            // The first configuration's bucket is reserved for every run left (exact for a
            // one-configuration run; untouched capacity costs no page): growing it by
            // doubling copied it and faulted its pages in again at each step.
            let capacity = if buckets.is_empty() { count - i } else { 0 };
            buckets.push(Bucket {
                config: r.config,
                runs: Vec::with_capacity(capacity),
                last: key,
                sorted: true,
            });
            buckets.len() - 1
        };
        last = c;
        let b = &mut buckets[c];
        // Input in job order is already sorted: seen here, on the view made anyway, where a
        // later pass made a view per run again (and a sort's own check two per comparison).
        b.sorted &= instance_cmp(&key, &b.last).is_ge();
        b.last = key;
        b.runs.push(u32::try_from(i).expect("at most 2^32 runs"));
    }
    let key = |i: &u32| {
        let r = run(*i as usize);
        (r.dataset, r.puzzle_index)
    };
    buckets
        .into_iter()
        .map(|mut b| {
            if !b.sorted {
                b.runs.sort_by(|x, y| instance_cmp(&key(x), &key(y)));
            }
            let sorted = b.runs.iter().map(|&i| run(i as usize));
            summarize_config(b.config, b.runs.len(), sorted)
        })
        .collect()
}

/// One configuration's runs (indexes, in input order), its last run's instance and whether
/// its runs came in instance order.
struct Bucket<'a> {
    config: &'a str,
    runs: Vec<u32>,
    last: (&'a str, u64),
    sorted: bool,
}

/// Whether two strings are equal, seen without a byte comparison when they are the same
/// slice: the runner's views of one configuration or dataset all borrow one `String`.
#[inline]
fn same_str(a: &str, b: &str) -> bool {
    (std::ptr::eq(a.as_ptr(), b.as_ptr()) && a.len() == b.len()) || a == b
}

/// The order of instances, (dataset, puzzle index).
#[inline]
fn instance_cmp(a: &(&str, u64), b: &(&str, u64)) -> std::cmp::Ordering {
    if same_str(a.0, b.0) {
        a.1.cmp(&b.1)
    } else {
        a.cmp(b)
    }
}

/// The line of one configuration; `runs` (at most `count` of them) are sorted by instance
/// (see [`summarize_runs`]).
fn summarize_config<'a>(
    config: &str,
    count: usize,
    runs: impl Iterator<Item = RunView<'a>>,
) -> SummaryLine {
    let mut runs = runs.peekable();
    let mut reps: Vec<RunView> = Vec::new();
    let mut line = SummaryLine {
        config: config.to_string(),
        runs: 0,
        instances: 0,
        solved: 0,
        by_status: BTreeMap::new(),
        median_cpu_s: None,
        mean_cpu_s: None,
        par2_s: None,
        median_nodes: None,
        median_guesses: None,
    };
    // At most one value per run: reserved once (growing 50,000 values by doubling cost more
    // page faults than the rest of the summary).
    let mut solved_cpu = Vec::with_capacity(count);
    let mut nodes = Vec::with_capacity(count);
    let mut guesses = Vec::with_capacity(count);
    let mut par2_sum = 0.0;
    let mut par2_defined = true;
    while let Some(first) = runs.next() {
        // The repetitions of first's instance: the runs that follow with the same key.
        reps.clear();
        reps.push(first);
        while let Some(r) = runs
            .next_if(|r| r.puzzle_index == first.puzzle_index && same_str(r.dataset, first.dataset))
        {
            reps.push(r);
        }
        line.instances += 1;
        line.runs += reps.len() as u64;
        let (rep, unanswered) = match reps[..] {
            [one] => (one, (!one.answered).then_some(one)),
            _ => (
                median_by_cpu(reps.iter().copied(), |r| r.cpu_s),
                reps.iter().copied().find(|r| !r.answered),
            ),
        };
        if let Some(rep) = unanswered {
            *line.by_status.entry(rep.status.to_string()).or_insert(0) += 1;
            match rep.time_limit_s {
                Some(t) => par2_sum += 2.0 * t,
                None => par2_defined = false,
            }
        } else {
            line.solved += 1;
            solved_cpu.push(total_key(rep.cpu_s));
            par2_sum += rep.cpu_s;
            nodes.extend(rep.nodes.map(|v| v as f64));
            guesses.extend(rep.guesses.map(|v| v as f64));
        }
    }
    // The mean sums the times in increasing order (as it always has: after the median's
    // sort). An unstable sort gives the same sequence (values equal in the total order are
    // the same bits), faster.
    solved_cpu.sort_unstable();
    let cpu_at = |i: usize| from_total_key(solved_cpu[i]);
    line.median_cpu_s = sorted_quantile(solved_cpu.len(), 0.5, cpu_at);
    line.mean_cpu_s = (!solved_cpu.is_empty()).then(|| {
        solved_cpu.iter().map(|&k| from_total_key(k)).sum::<f64>() / solved_cpu.len() as f64
    });
    line.par2_s = (par2_defined && line.instances > 0).then(|| par2_sum / line.instances as f64);
    line.median_nodes = select_median(&mut nodes);
    line.median_guesses = select_median(&mut guesses);
    line
}

/// An integer that orders as `f64::total_cmp` orders its float (the transformation
/// `total_cmp` makes at each comparison, made once): the summary sorts CPU times as these keys,
/// the same sequence bit for bit at a fraction of the comparisons' cost.
#[inline]
fn total_key(v: f64) -> i64 {
    let bits = v.to_bits() as i64;
    bits ^ (((bits >> 63) as u64) >> 1) as i64
}

/// The float of a [`total_key`].
#[inline]
fn from_total_key(k: i64) -> f64 {
    f64::from_bits((k ^ (((k >> 63) as u64) >> 1) as i64) as u64)
}

/// [`median`] by selection instead of a sort: the same two order statistics, so the same
/// result bit for bit, in linear time. Permutes `values`.
fn select_median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let pos = 0.5 * (values.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let (_, lo_value, above) = values.select_nth_unstable_by(lo, f64::total_cmp);
    let lo_value = *lo_value;
    let hi_value = if hi == lo {
        lo_value
    } else {
        // The next order statistic: the least of the values above the lo-th.
        *above.iter().min_by(|a, b| a.total_cmp(b))?
    };
    Some(lo_value + (hi_value - lo_value) * (pos - lo as f64))
}

/// The repetition with the median CPU time (the lower middle one for an even count).
pub fn median_run<'a>(reps: &[&'a Record]) -> &'a Record {
    median_by_cpu(reps.iter().copied(), |r| r.cpu_s)
}

/// The item with the median `cpu` (the lower middle one for an even count): the one rule by
/// which the summary and the charts reduce repetitions. Panics on an empty list (a group of
/// repetitions always has one).
fn median_by_cpu<T: Copy>(items: impl Iterator<Item = T>, cpu: impl Fn(T) -> f64) -> T {
    let mut sorted: Vec<T> = items.collect();
    sorted.sort_by(|a, b| cpu(*a).total_cmp(&cpu(*b)));
    sorted[(sorted.len() - 1) / 2]
}

/// Median of `values` (mean of the two middle ones for an even count); `None` if empty.
pub fn median(values: &mut [f64]) -> Option<f64> {
    quantile(values, 0.5)
}

/// The `q`-quantile of `values` by linear interpolation between order statistics (type 7, the
/// default of R and NumPy); `None` if empty. Sorts `values`.
pub fn quantile(values: &mut [f64], q: f64) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    sorted_quantile(values.len(), q, |i| values[i])
}

/// The `q`-quantile of `len` sorted values, value `i` being `at(i)` (as [`quantile`]).
fn sorted_quantile(len: usize, q: f64, at: impl Fn(usize) -> f64) -> Option<f64> {
    if len == 0 {
        return None;
    }
    let pos = q.clamp(0.0, 1.0) * (len - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    Some(at(lo) + (at(hi) - at(lo)) * (pos - lo as f64))
}

/// The summary as a plain-text table (for the terminal).
pub fn format_table(lines: &[SummaryLine]) -> String {
    let header = [
        "config",
        "runs",
        "solved",
        "unsolved",
        "median_cpu",
        "mean_cpu",
        "PAR-2",
        "med_nodes",
        "med_guesses",
    ];
    let rows: Vec<Vec<String>> = lines.iter().map(cells).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut push_row = |cells: Vec<String>| {
        let line: Vec<String> = cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if i == 0 {
                    format!("{c:<w$}")
                } else {
                    format!("{c:>w$}")
                }
            })
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    };
    push_row(header.iter().map(|s| s.to_string()).collect());
    for row in rows {
        push_row(row);
    }
    out
}

/// The cells of one line, in the order of the tables' columns.
fn cells(l: &SummaryLine) -> Vec<String> {
    vec![
        l.config.clone(),
        l.runs.to_string(),
        format!("{}/{}", l.solved, l.instances),
        unsolved_text(l),
        secs(l.median_cpu_s),
        secs(l.mean_cpu_s),
        secs(l.par2_s),
        count(l.median_nodes),
        count(l.median_guesses),
    ]
}

/// The summary as a Markdown table (for READMEs and reports).
pub fn format_markdown(lines: &[SummaryLine]) -> String {
    let mut out = String::from(
        "| config | runs | solved | unsolved | median CPU | mean CPU | PAR-2 | median nodes | median guesses |\n\
         |---|---:|---:|---|---:|---:|---:|---:|---:|\n",
    );
    for l in lines {
        let mut c = cells(l);
        c[0] = format!("`{}`", c[0]);
        out.push_str(&format!("| {} |\n", c.join(" | ")));
    }
    out
}

/// `time-limit 3, error 1`, or `-` when every instance was answered.
pub fn unsolved_text(line: &SummaryLine) -> String {
    if line.by_status.is_empty() {
        return "-".into();
    }
    line.by_status
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Seconds with a unit chosen for reading (`12.3 µs`, `4.56 ms`, `1.23 s`), `-` for none.
pub fn secs(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(s) if s < 1e-3 => format!("{:.1} µs", s * 1e6),
        Some(s) if s < 1.0 => format!("{:.2} ms", s * 1e3),
        Some(s) => format!("{s:.2} s"),
    }
}

fn count(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(x) if x.fract() == 0.0 => format!("{x:.0}"),
        Some(x) => format!("{x:.1}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(config: &str, index: u64, status: &str, cpu: f64, rep: u64) -> Record {
        Record {
            config: config.into(),
            dataset: "d".into(),
            puzzle_index: index,
            status: status.into(),
            cpu_s: cpu,
            repetition: rep,
            nodes: Some(index * 10),
            time_limit_s: Some(1.0),
            ..Record::default()
        }
    }

    #[test]
    fn total_keys_order_as_total_cmp() {
        let mut values = vec![
            0.0,
            -0.0,
            1.5e-9,
            -2.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::MIN_POSITIVE,
            3.25,
            0.000023364,
            f64::MAX,
        ];
        for i in 0..200 {
            values.push(((i * 7919) % 1000) as f64 * 1e-6 - 0.1);
        }
        let mut keys: Vec<i64> = values.iter().map(|&v| total_key(v)).collect();
        keys.sort_unstable();
        let by_keys: Vec<u64> = keys.iter().map(|&k| from_total_key(k).to_bits()).collect();
        values.sort_by(f64::total_cmp);
        let by_cmp: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        assert_eq!(by_keys, by_cmp);
    }

    #[test]
    fn quantiles_interpolate() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), Some(2.5));
        assert_eq!(quantile(&mut [1.0, 2.0, 3.0, 4.0, 5.0], 0.9), Some(4.6));
    }

    #[test]
    fn summary_counts_par2_and_medians() {
        let records = vec![
            rec("a", 1, "unique", 0.1, 0),
            rec("a", 2, "unique", 0.3, 0),
            rec("a", 3, "time-limit", 1.0, 0),
            rec("b", 1, "unique", 0.2, 0),
            // repetitions of one instance: the median one (0.4) counts
            rec("b", 2, "unique", 0.9, 0),
            rec("b", 2, "unique", 0.4, 1),
            rec("b", 2, "unique", 0.1, 2),
        ];
        let s = summarize(&records);
        assert_eq!(s.len(), 2);
        let a = &s[0];
        assert_eq!(
            (a.config.as_str(), a.runs, a.instances, a.solved),
            ("a", 3, 3, 2)
        );
        assert_eq!(a.by_status.get("time-limit"), Some(&1));
        assert!((a.median_cpu_s.unwrap() - 0.2).abs() < 1e-12);
        assert!((a.par2_s.unwrap() - (0.1 + 0.3 + 2.0) / 3.0).abs() < 1e-12);
        assert_eq!(a.median_nodes, Some(15.0));
        let b = &s[1];
        assert_eq!((b.runs, b.instances, b.solved), (4, 2, 2));
        assert!((b.median_cpu_s.unwrap() - 0.3).abs() < 1e-12);
        assert!(format_table(&s).contains("time-limit 1"));
        let md = format_markdown(&s);
        let rows: Vec<&str> = md.lines().collect();
        assert_eq!(rows.len(), 4, "{md}");
        assert!(
            rows[2].starts_with("| `a` | 3 | 2/3 | time-limit 1 | 200.00 ms |"),
            "{md}"
        );
        assert_eq!(rows[1].matches('|').count(), rows[3].matches('|').count());
    }

    /// The summary as it was first written (a map of instances, a vector of repetitions per
    /// instance): the reference that the bucketed, sorted one must equal exactly.
    fn reference(records: &[Record]) -> Vec<SummaryLine> {
        let mut order: Vec<&str> = Vec::new();
        let mut groups: BTreeMap<&str, BTreeMap<(&str, u64), Vec<RunView>>> = BTreeMap::new();
        for r in records.iter().map(RunView::from) {
            let by_instance = groups.entry(r.config).or_insert_with(|| {
                order.push(r.config);
                BTreeMap::new()
            });
            by_instance
                .entry((r.dataset, r.puzzle_index))
                .or_default()
                .push(r);
        }
        order
            .into_iter()
            .map(|config| {
                let runs: Vec<RunView> = groups[config].values().flatten().copied().collect();
                let mut line = summarize_config(config, 0, std::iter::empty());
                line.instances = groups[config].len() as u64;
                let mut solved_cpu = Vec::new();
                let (mut nodes, mut guesses) = (Vec::new(), Vec::new());
                let (mut par2_sum, mut par2_defined) = (0.0, true);
                for reps in groups[config].values() {
                    line.runs += reps.len() as u64;
                    let rep = median_by_cpu(reps.iter(), |r| r.cpu_s);
                    let first_unanswered = reps.iter().find(|r| !r.answered);
                    if let Some(rep) = first_unanswered {
                        *line.by_status.entry(rep.status.to_string()).or_insert(0) += 1;
                        match rep.time_limit_s {
                            Some(t) => par2_sum += 2.0 * t,
                            None => par2_defined = false,
                        }
                    } else {
                        line.solved += 1;
                        solved_cpu.push(rep.cpu_s);
                        par2_sum += rep.cpu_s;
                        nodes.extend(rep.nodes.map(|v| v as f64));
                        guesses.extend(rep.guesses.map(|v| v as f64));
                    }
                }
                assert_eq!(runs.len() as u64, line.runs);
                line.median_cpu_s = median(&mut solved_cpu);
                line.mean_cpu_s = (!solved_cpu.is_empty())
                    .then(|| solved_cpu.iter().sum::<f64>() / solved_cpu.len() as f64);
                line.par2_s =
                    (par2_defined && line.instances > 0).then(|| par2_sum / line.instances as f64);
                line.median_nodes = median(&mut nodes);
                line.median_guesses = median(&mut guesses);
                line
            })
            .collect()
    }

    /// Shuffled rows of three configurations on two datasets (not in name order), with
    /// repetitions, ties of CPU time and every kind of status: the summary equals the
    /// reference bit for bit (sums in the same order).
    #[test]
    fn summary_equals_the_reference_on_shuffled_rows() {
        use rand::seq::SliceRandom;
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let statuses = [
            "unique",
            "unsat",
            "time-limit",
            "node-limit",
            "error",
            "solved",
        ];
        let mut records = Vec::new();
        for (dataset, puzzles) in [("zeta", 40), ("alpha", 30)] {
            for index in 1..=puzzles {
                for config in ["c", "a", "b"] {
                    for repetition in 0..rng.gen_range(1..4) {
                        let mut r = rec(
                            config,
                            index,
                            statuses[rng.gen_range(0..statuses.len())],
                            rng.gen_range(0..5) as f64 * 0.1 + 1e-3 * rng.gen::<f64>(),
                            repetition,
                        );
                        r.dataset = dataset.into();
                        if rng.gen_bool(0.3) {
                            r.cpu_s = 0.25;
                        }
                        if rng.gen_bool(0.2) {
                            r.time_limit_s = None;
                        }
                        if rng.gen_bool(0.3) {
                            r.nodes = None;
                            r.guesses = Some(index);
                        }
                        records.push(r);
                    }
                }
            }
        }
        for round in 0..5 {
            if round > 0 {
                records.shuffle(&mut rng);
            }
            let got = summarize(&records);
            assert_eq!(got.len(), 3);
            assert_eq!(got, reference(&records));
            for (g, w) in got.iter().zip(reference(&records)) {
                assert_eq!(
                    g.mean_cpu_s.map(f64::to_bits),
                    w.mean_cpu_s.map(f64::to_bits)
                );
                assert_eq!(g.par2_s.map(f64::to_bits), w.par2_s.map(f64::to_bits));
            }
        }
    }

    #[test]
    fn selected_medians_equal_sorted_ones() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for len in 0..60 {
            for _ in 0..20 {
                let values: Vec<f64> = (0..len)
                    .map(|_| match rng.gen_range(0..4) {
                        0 => 0.25,
                        1 => -0.0,
                        2 => 0.0,
                        _ => rng.gen::<f64>() * 1e-3,
                    })
                    .collect();
                let want = median(&mut values.clone());
                let got = select_median(&mut values.clone());
                assert_eq!(got.map(f64::to_bits), want.map(f64::to_bits), "{values:?}");
            }
        }
    }

    /// Issue 13: with two repetitions, an instance answered by one of them only is not
    /// solved; the solved figures are the median repetition's.
    #[test]
    fn an_instance_is_solved_only_if_every_repetition_answered() {
        let records = vec![
            rec("a", 1, "unique", 0.1, 0),
            rec("a", 1, "unique", 0.3, 1),
            // the median repetition (lower middle of two by CPU) answered, the other did not
            rec("a", 2, "unique", 0.2, 0),
            rec("a", 2, "time-limit", 1.0, 1),
            rec("a", 3, "error", 0.0, 0),
            rec("a", 3, "time-limit", 1.0, 1),
            rec("a", 4, "unsat", 0.5, 0),
            rec("a", 4, "unsat", 0.7, 1),
            rec("a", 4, "unsat", 0.6, 2),
        ];
        let s = &summarize(&records)[0];
        assert_eq!((s.runs, s.instances, s.solved), (9, 4, 2));
        // unsolved: under the status of the first unanswered repetition
        assert_eq!(
            s.by_status,
            BTreeMap::from([("time-limit".to_string(), 1), ("error".to_string(), 1)])
        );
        // solved figures: instance 1 -> 0.1 (lower middle of two), instance 4 -> 0.6
        assert!((s.median_cpu_s.unwrap() - 0.35).abs() < 1e-12);
        assert_eq!(s.median_nodes, Some(25.0));
        assert!((s.par2_s.unwrap() - (0.1 + 2.0 + 2.0 + 0.6) / 4.0).abs() < 1e-12);
    }

    #[test]
    fn par2_is_undefined_without_a_limit() {
        let mut r = rec("a", 1, "node-limit", 0.5, 0);
        r.time_limit_s = None;
        assert_eq!(summarize(&[r])[0].par2_s, None);
    }
}
