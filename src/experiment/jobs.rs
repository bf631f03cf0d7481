//! The job list of an experiment, shards of it and the order jobs run in.
//!
//! **Job numbers.** One job per (puzzle, engine configuration, repetition). The full list is
//! ordered by dataset (file order), then puzzle (file order, after `first`), then engine
//! configuration (file order), then repetition; a job's number (`job` column) is its 0-based
//! position in that list. It does not depend on `seed`, `--shard` or `--threads`, so a job
//! number names the same run in every output of the same experiment file.
//!
//! **Shards.** `--shard i/N` (0-based `i`, like Slurm's `SLURM_ARRAY_TASK_ID`) keeps the jobs
//! of the puzzles whose global ordinal (0-based position among all puzzles of all datasets, in
//! the order above) is `i` mod `N`. All configurations and repetitions of a puzzle go to the
//! same shard, so a shard's rows compare configurations on the same puzzles, and every shard
//! gets a similar mix of easy and hard puzzles.
//!
//! **Order.** Jobs run in job-number order, or, with `seed`, in an order shuffled by the
//! Fisher-Yates shuffle of `rand` 0.8 (`SliceRandom::shuffle`) driven by ChaCha8 seeded with
//! `seed_from_u64(seed)`; the shuffle is of the shard's jobs, so it is deterministic for a
//! given (file, shard). Shuffling spreads the slow configurations over the run, so a run
//! stopped early is a fair sample and threads finish together.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fmt;

/// One run to do. Indexes refer to the experiment's datasets, their loaded puzzles and
/// engine configurations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    pub job: u64,
    pub dataset: u32,
    /// 0-based index in the dataset's (possibly truncated) puzzle list.
    pub puzzle: u32,
    /// 0-based ordinal of the puzzle among all puzzles of the experiment.
    pub ordinal: u64,
    pub config: u32,
    pub repetition: u32,
}

/// `--shard i/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    pub fn contains(&self, ordinal: u64) -> bool {
        ordinal % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let bad = || {
            format!(
                "{s:?}: expected i/N with shards numbered from 0, so 0 <= i < N (e.g. 0/2 and \
                 1/2 are the two shards of 2)"
            )
        };
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(bad());
        }
        if index >= count {
            return Err(format!(
                "{s:?}: there is no shard {index} of {count}: shards are numbered from 0, so \
                 the {count} shards are 0/{count} to {}/{count}",
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

/// Every job of an experiment in job-number order. `puzzles[d]` is the number of puzzles of
/// dataset `d`.
pub fn all_jobs(puzzles: &[usize], configs: usize, repetitions: u64) -> Vec<Job> {
    let total: usize = puzzles.iter().sum::<usize>() * configs * repetitions as usize;
    let mut jobs = Vec::with_capacity(total);
    let mut ordinal = 0u64;
    for (d, &count) in puzzles.iter().enumerate() {
        for p in 0..count {
            for c in 0..configs {
                for r in 0..repetitions {
                    jobs.push(Job {
                        job: jobs.len() as u64,
                        dataset: d as u32,
                        puzzle: p as u32,
                        ordinal,
                        config: c as u32,
                        repetition: r as u32,
                    });
                }
            }
            ordinal += 1;
        }
    }
    jobs
}

/// The jobs of `shard` (all of them for `None`), in run order (see the module doc).
pub fn plan(jobs: &[Job], shard: Option<Shard>, seed: Option<u64>) -> Vec<Job> {
    let mut mine: Vec<Job> = jobs
        .iter()
        .filter(|j| shard.map_or(true, |s| s.contains(j.ordinal)))
        .copied()
        .collect();
    if let Some(seed) = seed {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        mine.shuffle(&mut rng);
    }
    mine
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_follows_the_documented_order() {
        let jobs = all_jobs(&[2, 1], 2, 2);
        assert_eq!(jobs.len(), 12);
        let j = jobs[5];
        // dataset 0, puzzle 1, config 0, repetition 1
        assert_eq!((j.dataset, j.puzzle, j.config, j.repetition), (0, 1, 0, 1));
        assert_eq!(j.ordinal, 1);
        assert_eq!(jobs[8].ordinal, 2);
        assert!(jobs.iter().enumerate().all(|(i, j)| j.job == i as u64));
    }

    #[test]
    fn shards_partition_by_puzzle() {
        let jobs = all_jobs(&[5, 4], 3, 2);
        let mut seen = vec![0; jobs.len()];
        for i in 0..3 {
            let s = Shard { index: i, count: 3 };
            for j in plan(&jobs, Some(s), Some(9)) {
                seen[j.job as usize] += 1;
                assert_eq!(j.ordinal % 3, i);
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
    }

    #[test]
    fn shuffle_is_deterministic_and_a_permutation() {
        let jobs = all_jobs(&[10], 2, 1);
        let a = plan(&jobs, None, Some(7));
        assert_eq!(a, plan(&jobs, None, Some(7)));
        assert_ne!(a, plan(&jobs, None, Some(8)));
        assert_ne!(a, jobs);
        let mut ids: Vec<u64> = a.iter().map(|j| j.job).collect();
        ids.sort();
        assert_eq!(ids, (0..20).collect::<Vec<_>>());
        assert_eq!(plan(&jobs, None, None), jobs);
    }

    #[test]
    fn shard_syntax() {
        assert_eq!(
            "1/3".parse::<Shard>().unwrap(),
            Shard { index: 1, count: 3 }
        );
        assert_eq!("1/3".parse::<Shard>().unwrap().to_string(), "1/3");
        for bad in ["3/3", "1", "a/2", "0/0", "-1/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let err = "2/2".parse::<Shard>().unwrap_err();
        assert!(
            err.contains("numbered from 0") && err.contains("0/2 to 1/2"),
            "{err}"
        );
    }
}
