//! From records to what a chart draws: the metrics a chart can show, the selection of
//! configurations and datasets, and the reduction of repetitions to one value per instance.

// The metrics a chart can name are part of a chart's specification (an experiment file
// checks them when it is loaded, before any job): they live beside `ChartSpec`.
pub use super::spec::{bar_metric, metric, x_column, Metric, BAR_METRICS, METRICS};
use super::PlotError;
use crate::records::Record;
use std::collections::BTreeMap;

/// Whether a status is a limit hit (the run was stopped, its question is open).
pub fn is_limit(status: &str) -> bool {
    matches!(status, "node-limit" | "time-limit" | "memory-limit")
}

/// The records a chart draws, and what it left out.
pub struct Selection<'a> {
    /// Configurations in order of first appearance, each with its colour index (its position
    /// among all configurations of the input, so a configuration keeps its colour in every
    /// chart of a report whatever the selection).
    pub configs: Vec<(&'a str, usize)>,
    pub records: Vec<&'a Record>,
    /// Every record that passed the filters, `unsupported` and `error` ones included (for
    /// summaries, which count them).
    pub all: Vec<&'a Record>,
    /// Runs left out because they were `unsupported` or `error` (neither a time nor a limit).
    pub not_run: usize,
}

/// Applies a chart's `configs` and `datasets` filters; names that match nothing are an
/// error listing the names there are.
pub fn select<'a>(
    records: &'a [Record],
    configs: &'a [String],
    datasets: &[String],
) -> Result<Selection<'a>, PlotError> {
    let all_configs = first_seen(records.iter().map(|r| r.config.as_str()));
    let all_datasets = first_seen(records.iter().map(|r| r.dataset.as_str()));
    for (wanted, there, what) in [
        (configs, &all_configs, "configuration"),
        (datasets, &all_datasets, "dataset"),
    ] {
        for w in wanted {
            if !there.contains(&w.as_str()) {
                return Err(PlotError::NotInRecords {
                    what,
                    name: w.clone(),
                    known: there.join(", "),
                });
            }
        }
    }
    let keep = |r: &Record| {
        (configs.is_empty() || configs.contains(&r.config))
            && (datasets.is_empty() || datasets.contains(&r.dataset))
    };
    let mut not_run = 0;
    let mut kept = Vec::new();
    let all: Vec<&Record> = records.iter().filter(|r| keep(r)).collect();
    for &r in &all {
        if r.answered() || is_limit(&r.status) {
            kept.push(r);
        } else {
            not_run += 1;
        }
    }
    let order: Vec<&str> = if configs.is_empty() {
        first_seen(kept.iter().map(|r| r.config.as_str()))
    } else {
        // The order the user listed them in.
        configs
            .iter()
            .map(String::as_str)
            .filter(|c| kept.iter().any(|r| r.config == *c))
            .collect()
    };
    let configs = order
        .into_iter()
        .map(|c| (c, all_configs.iter().position(|a| *a == c).unwrap_or(0)))
        .collect();
    Ok(Selection {
        configs,
        records: kept,
        all,
        not_run,
    })
}

fn first_seen<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// One instance (dataset, puzzle) of one configuration, its repetitions reduced to one.
#[derive(Clone, Debug)]
pub struct Instance<'a> {
    pub config: &'a str,
    pub dataset: &'a str,
    pub puzzle_index: u64,
    /// As in the summary: the repetition with the median CPU time when every repetition
    /// answered, else the first unanswered one. Its status is the instance's, and its
    /// `clues`, `size` and limits stand for the instance.
    pub rep: &'a Record,
    /// Whether every repetition answered.
    pub answered: bool,
    /// Median of the metric over the repetitions with the same outcome (answered or not) as
    /// `rep`; `None` when none of them has the metric (e.g. `nodes` of the SAT engine).
    pub value: Option<f64>,
}

/// Reduces repetitions of each (config, dataset, puzzle) to one [`Instance`], in order of
/// first appearance.
pub fn instances<'a>(records: &[&'a Record], metric: &Metric) -> Vec<Instance<'a>> {
    let mut order = Vec::new();
    let mut groups: BTreeMap<(&str, &str, u64), Vec<&Record>> = BTreeMap::new();
    for &r in records {
        let key = (r.config.as_str(), r.dataset.as_str(), r.puzzle_index);
        groups
            .entry(key)
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(r);
    }
    order
        .into_iter()
        .map(|key| {
            let reps = &groups[&key];
            // The summary's rule: solved only if every repetition answered, then stood for by
            // the median repetition; else by the first unanswered one.
            let unanswered = reps.iter().copied().find(|r| !r.answered());
            let answered = unanswered.is_none();
            let rep = unanswered.unwrap_or_else(|| crate::records::summary::median_run(reps));
            let mut values: Vec<f64> = reps
                .iter()
                .filter(|r| r.answered() == answered)
                .filter_map(|r| metric.value(r))
                .collect();
            Instance {
                config: key.0,
                dataset: key.1,
                puzzle_index: key.2,
                rep,
                answered,
                value: crate::records::summary::median(&mut values),
            }
        })
        .collect()
}

/// The time limit every selected run had, if they all had the same one.
pub fn uniform_time_limit(records: &[&Record]) -> Option<f64> {
    let first = records.first()?.time_limit_s?;
    records
        .iter()
        .all(|r| r.time_limit_s == Some(first))
        .then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(config: &str, index: u64, rep: u64, status: &str, cpu: f64) -> Record {
        Record {
            config: config.into(),
            dataset: "d".into(),
            puzzle_index: index,
            repetition: rep,
            status: status.into(),
            cpu_s: cpu,
            nodes: Some((cpu * 1000.0) as u64),
            ..Record::default()
        }
    }

    #[test]
    fn repetitions_reduce_to_their_median() {
        let records = [
            rec("a", 1, 0, "unique", 0.3),
            rec("a", 1, 1, "unique", 0.1),
            rec("a", 1, 2, "unique", 0.2),
            rec("a", 2, 0, "time-limit", 1.0),
            rec("b", 1, 0, "unique", 0.5),
            rec("b", 2, 0, "unique", 0.1),
            rec("b", 2, 1, "node-limit", 0.4),
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let inst = instances(&refs, metric("cpu_s").unwrap());
        assert_eq!(inst.len(), 4);
        assert_eq!(inst[0].value, Some(0.2));
        assert!(inst[0].answered && !inst[1].answered);
        assert_eq!(inst[2].config, "b");
        // One repetition of b/2 did not answer: unsolved, as in the summary.
        assert!(!inst[3].answered);
        assert_eq!(inst[3].rep.status, "node-limit");
        assert_eq!(inst[3].value, Some(0.4));
        let nodes = instances(&refs, metric("nodes").unwrap());
        assert_eq!(nodes[0].value, Some(200.0));
    }

    #[test]
    fn selection_filters_and_keeps_colours() {
        let mut records = vec![
            rec("a", 1, 0, "unique", 0.1),
            rec("b", 1, 0, "unique", 0.1),
            rec("c", 1, 0, "error", 0.1),
        ];
        records[1].dataset = "e".into();
        let b = ["b".to_string()];
        let s = select(&records, &b, &[]).unwrap();
        assert_eq!(s.configs, vec![("b", 1)]);
        let all = select(&records, &[], &[]).unwrap();
        assert_eq!(all.not_run, 1);
        assert_eq!(all.configs.len(), 2);
        let zz = ["zz".to_string()];
        let e = select(&records, &zz, &[]).err().unwrap().to_string();
        assert!(
            e.contains("no configuration `zz`") && e.contains("a, b, c"),
            "{e}"
        );
        let (nope, e) = (["nope".to_string()], ["e".to_string()]);
        assert!(select(&records, &[], &nope).is_err());
        let d = select(&records, &[], &e).unwrap();
        assert_eq!(d.records.len(), 1);
    }

    #[test]
    fn unknown_metrics_list_the_known_ones() {
        let e = metric("speed").err().unwrap().to_string();
        assert!(
            e.contains("unknown metric `speed`") && e.contains("cpu_s, solve_s"),
            "{e}"
        );
        assert!(x_column("clues").is_ok() && x_column("vars").is_ok());
        assert!(x_column("cpu_s").is_err());
    }
}
