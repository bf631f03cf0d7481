//! Experiments: puzzle sets x engine configurations x repetitions, run with limits, one CSV
//! row per run ([`crate::records`]), summarised per configuration
//! ([`crate::records::summary`]).
//!
//! An experiment is a TOML file ([`config`]) expanded into numbered jobs ([`jobs`]), run by
//! [`runner`] on several threads with a watchdog, written as CSV rows plus a JSON sidecar of
//! metadata ([`crate::records::sidecar`]); shards of one experiment run apart are joined by
//! [`crate::records::merge`].
//!
//! Conventions follow the SAT-competition practice: per-run CPU time beside wall time, a
//! per-run time limit, PAR-2 scoring, the median of repeated runs, machine metadata saved
//! beside the results.

pub mod baseline;
pub mod config;
pub mod jobs;
pub mod runner;
