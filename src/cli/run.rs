//! `sudolab run` and `sudolab merge`: experiments from files (see [`crate::experiment`]).

use crate::experiment::jobs::Shard;
use crate::experiment::runner::{self, RunOptions};
use crate::experiment::{format_table, merge, summarize};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The experiment file (TOML; see the README, "Experiments").
    pub config: PathBuf,

    /// Worker threads (default: the file's `threads`, else all cores).
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,

    /// Run only shard i of N (0-based): the puzzles whose ordinal is i mod N.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<Shard>,

    /// Continue an existing output: skip the jobs it holds, append the rest.
    #[arg(long)]
    pub resume: bool,

    /// Output CSV (default: the file's `output`, else results/<name>.csv).
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Do not draw charts or the HTML report after the run.
    #[arg(long)]
    pub no_charts: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Outputs of the shards of one experiment (each with its .json sidecar).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// The merged CSV (its sidecar is written next to it).
    #[arg(short, long, value_name = "OUT.csv")]
    pub out: PathBuf,

    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let opts = RunOptions {
        threads: args.threads.map(|t| t as usize),
        shard: args.shard,
        resume: args.resume,
        out: args.out,
        charts: !args.no_charts,
        progress: std::io::stderr().is_terminal(),
        command: std::env::args().collect(),
        ..RunOptions::default()
    };
    let report = runner::run(&args.config, &opts)?;
    print!("{}", format_table(&report.summary));
    eprintln!(
        "sudolab: {} job(s) run, {} already done{}; {} rows in {} (metadata: {})",
        report.ran,
        report.skipped,
        if report.abandoned > 0 {
            format!(", {} abandoned by the watchdog", report.abandoned)
        } else {
            String::new()
        },
        report.rows,
        report.output.display(),
        report.sidecar.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub fn merge(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let command: Vec<String> = std::env::args().collect();
    let report = merge::merge(&args.inputs, &args.out, args.force, &command)?;
    print!("{}", format_table(&summarize(&report.records)));
    eprintln!(
        "sudolab: merged {} rows into {} (metadata: {})",
        report.records.len(),
        report.output.display(),
        report.sidecar.display()
    );
    Ok(ExitCode::SUCCESS)
}
