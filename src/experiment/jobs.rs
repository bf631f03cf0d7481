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

/// A `--shard` that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// Not `i/N` with `N >= 1`.
    #[error(
        "{0:?}: expected i/N with shards numbered from 0, so 0 <= i < N (e.g. 0/2 and 1/2 are \
         the two shards of 2)"
    )]
    NotAShard(String),
    /// `i/N` with `i >= N`.
    #[error(
        "{shard:?}: there is no shard {index} of {count}: shards are numbered from 0, so the \
         {count} shards are 0/{count} to {last}/{count}",
        last = .count - 1
    )]
    NoSuchShard {
        shard: String,
        index: u64,
        count: u64,
    },
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, ShardError> {
        let bad = || ShardError::NotAShard(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u64 = i.trim().parse().map_err(|_| bad())?;
        let count: u64 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 {
            return Err(bad());
        }
        if index >= count {
            return Err(ShardError::NoSuchShard {
                shard: s.to_string(),
                index,
                count,
            });
        }
        Ok(Shard { index, count })
    }
}

/// The most jobs one invocation of `run` plans (its shard's, or all of them): the job list
/// is built before the first job runs, at 32 bytes a job, so this bounds it at 320 MB. A
/// larger experiment is split with `--shard`.
pub const MAX_JOBS: u64 = 10_000_000;

/// The number of jobs of an experiment (`puzzles[d]` is the number of puzzles of dataset `d`),
/// or `None` if it does not fit in a `u64`.
pub fn count(puzzles: &[usize], configs: usize, repetitions: u64) -> Option<u64> {
    shard_count(puzzles, configs, repetitions, None)
}

/// The number of jobs of `shard` (all of them for `None`), or `None` if it does not fit in
/// a `u64`. Nothing is allocated: the bound [`MAX_JOBS`] is checked with it before [`plan`].
pub fn shard_count(
    puzzles: &[usize],
    configs: usize,
    repetitions: u64,
    shard: Option<Shard>,
) -> Option<u64> {
    let total: u64 = puzzles.iter().map(|&p| p as u64).sum();
    // The ordinals o < total with o mod count = index.
    let mine = match shard {
        Some(s) if total > s.index => (total - s.index).div_ceil(s.count),
        Some(_) => 0,
        None => total,
    };
    mine.checked_mul(configs as u64)?.checked_mul(repetitions)
}

/// Every job of an experiment in job-number order (the plan of no shard and no seed).
pub fn all_jobs(puzzles: &[usize], configs: usize, repetitions: u64) -> Vec<Job> {
    plan(puzzles, configs, repetitions, None, None)
}

/// The jobs of `shard` (all of them for `None`), in run order (see the module doc), for an
/// experiment whose dataset `d` has `puzzles[d]` puzzles. Built straight from the numbering
/// rather than filtered from the full list. The caller checks [`shard_count`] against
/// [`MAX_JOBS`] first: the list is allocated whole.
pub fn plan(
    puzzles: &[usize],
    configs: usize,
    repetitions: u64,
    shard: Option<Shard>,
    seed: Option<u64>,
) -> Vec<Job> {
    let per_puzzle = configs as u64 * repetitions;
    let mine = shard_count(puzzles, configs, repetitions, shard).unwrap_or(u64::MAX);
    let mut mine = Vec::with_capacity(mine.min(MAX_JOBS) as usize);
    let mut ordinal = 0u64;
    for (d, &count) in puzzles.iter().enumerate() {
        for p in 0..count {
            if shard.map_or(true, |s| s.contains(ordinal)) {
                let first = ordinal * per_puzzle;
                for c in 0..configs {
                    for r in 0..repetitions {
                        mine.push(Job {
                            job: first + c as u64 * repetitions + r,
                            dataset: d as u32,
                            puzzle: p as u32,
                            ordinal,
                            config: c as u32,
                            repetition: r as u32,
                        });
                    }
                }
            }
            ordinal += 1;
        }
    }
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
        assert_eq!(jobs.len() as u64, count(&[5, 4], 3, 2).unwrap());
        let mut seen = vec![0; jobs.len()];
        for i in 0..3 {
            let s = Shard { index: i, count: 3 };
            let unshuffled = plan(&[5, 4], 3, 2, Some(s), None);
            assert_eq!(
                Some(unshuffled.len() as u64),
                shard_count(&[5, 4], 3, 2, Some(s))
            );
            // A shard's jobs are the full list's jobs of its puzzles, in the same order.
            let want: Vec<Job> = jobs
                .iter()
                .filter(|j| j.ordinal % 3 == i)
                .copied()
                .collect();
            assert_eq!(unshuffled, want);
            let shuffled = plan(&[5, 4], 3, 2, Some(s), Some(9));
            assert_ne!(shuffled, unshuffled);
            for j in shuffled {
                seen[j.job as usize] += 1;
                assert_eq!(j.ordinal % 3, i);
            }
        }
        assert!(seen.iter().all(|&n| n == 1));
    }

    #[test]
    fn shuffle_is_deterministic_and_a_permutation() {
        let jobs = all_jobs(&[10], 2, 1);
        let a = plan(&[10], 2, 1, None, Some(7));
        assert_eq!(a, plan(&[10], 2, 1, None, Some(7)));
        assert_ne!(a, plan(&[10], 2, 1, None, Some(8)));
        assert_ne!(a, jobs);
        let mut ids: Vec<u64> = a.iter().map(|j| j.job).collect();
        ids.sort();
        assert_eq!(ids, (0..20).collect::<Vec<_>>());
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
        let err = "2/2".parse::<Shard>().unwrap_err().to_string();
        assert!(
            err.contains("numbered from 0") && err.contains("0/2 to 1/2"),
            "{err}"
        );
    }

    /// A product too large for a `u64` is `None`, not a wrapped count (`repetitions =
    /// 9223372036854775807` made a capacity overflow panic).
    #[test]
    fn counts_do_not_overflow() {
        assert_eq!(count(&[2, 1], 2, u64::MAX), None);
        assert_eq!(count(&[2, 1], 2, 1 << 40), Some(3 << 41));
        let s = Shard { index: 4, count: 5 };
        assert_eq!(shard_count(&[3], 1, 1, Some(s)), Some(0));
        assert_eq!(shard_count(&[9], 2, 1, Some(s)), Some(2));
    }
}
