//! `sudolab run`, `sudolab merge` and `sudolab summary`: experiments from files (see
//! [`crate::experiment`]).

use super::common::load_records;
use super::common::whole;
use super::progress::Bar;
use crate::experiment::jobs::Shard;
use crate::experiment::runner::{self, RunOptions};
use crate::plot;
use crate::records::summary::{format_markdown, SummaryLine};
use crate::records::{format_table, merge, summarize, Record};
use clap::Args;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The experiment file (TOML; see docs/experiments.md).
    pub config: PathBuf,

    /// Worker threads (default: the file's `threads`, else all cores).
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = whole::<u64, 1>)]
    pub threads: Option<u64>,

    /// Run only shard i of N, numbered from 0 (0/N to N-1/N, like Slurm's array task ids):
    /// the puzzles whose ordinal is i mod N.
    #[arg(long, value_name = "i/N")]
    pub shard: Option<Shard>,

    /// Continue an existing output: skip the jobs it holds, append the rest. (A complete
    /// output is reported as such, with or without --resume.)
    #[arg(long)]
    pub resume: bool,

    /// Output CSV (default: the file's `output`, else results/<name>.csv); a name ending in
    /// .gz is written gzip-compressed.
    #[arg(long, value_name = "PATH")]
    pub out: Option<PathBuf>,

    /// Do not draw charts or the HTML report after the run.
    #[arg(long)]
    pub no_charts: bool,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// Outputs of the shards of one experiment (each with its .json sidecar; `.csv` or
    /// `.csv.gz`). Rows are copied byte for byte, sorted by job.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// The merged CSV (its sidecar is written next to it); a name ending in .gz is written
    /// gzip-compressed.
    #[arg(short, long, value_name = "OUT.csv")]
    pub out: PathBuf,

    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Args, Debug)]
#[command(
    after_help = "Figures are per instance (dataset, puzzle). With repetitions, an \
    instance counts as solved only if every repetition answered (solved, unique, multiple or \
    unsat); its CPU time, nodes and guesses are then those of its median repetition by CPU \
    time (the lower middle one for an even count). An instance with an unanswered repetition \
    is unsolved, listed under the status of its first unanswered repetition, and scores twice \
    that repetition's time limit in PAR-2."
)]
pub struct SummaryArgs {
    /// Run records (CSV written by `run` or `merge`; `.csv` or `.csv.gz`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,

    /// One table per dataset (default), or one table over all rows.
    #[arg(long, value_enum, default_value_t = By::Dataset)]
    pub by: By,

    /// Plain text for the terminal, or Markdown tables for a README.
    #[arg(long, value_enum, default_value_t = TableFormat::Text)]
    pub format: TableFormat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum By {
    Dataset,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TableFormat {
    Text,
    Markdown,
}

/// `sudolab summary`: the end-of-run table of any set of records, per dataset or overall.
pub fn summary(args: SummaryArgs) -> anyhow::Result<ExitCode> {
    let records = load_records(&args.inputs)?;
    let mut groups: Vec<(String, Vec<Record>)> = Vec::new();
    match args.by {
        By::None => groups.push(("all rows".into(), records)),
        By::Dataset => {
            for r in records {
                match groups.iter_mut().find(|(d, _)| *d == r.dataset) {
                    Some((_, v)) => v.push(r),
                    None => groups.push((r.dataset.clone(), vec![r])),
                }
            }
        }
    }
    for (i, (name, rows)) in groups.iter().enumerate() {
        let lines: Vec<SummaryLine> = summarize(rows);
        match args.format {
            TableFormat::Text => {
                if i > 0 {
                    println!();
                }
                println!("== {name} ({} rows)", rows.len());
                print!("{}", format_table(&lines));
            }
            TableFormat::Markdown => {
                println!("**{name}** ({} rows)\n", rows.len());
                println!("{}", format_markdown(&lines));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    let opts = RunOptions {
        threads: args.threads.map(|t| t as usize),
        shard: args.shard,
        resume: args.resume,
        out: args.out,
        progress: std::io::stderr()
            .is_terminal()
            .then(|| Arc::new(Bar::default()) as Arc<dyn runner::Progress>),
        command: std::env::args().collect(),
        ..RunOptions::default()
    };
    let report = match runner::run(&args.config, &opts) {
        Ok(report) => report,
        Err(e) => {
            if let runner::RunErrorKind::Interrupted(i) = e.kind() {
                eprintln!("sudolab: {i}");
                return Ok(ExitCode::from(i.exit_code()));
            }
            return Err(e.into());
        }
    };
    if report.already_complete {
        eprintln!(
            "sudolab: {} is already complete ({} rows, every job of the experiment); nothing \
             to run. Its summary:",
            report.output.display(),
            report.rows
        );
        print!("{}", format_table(&report.summary));
        return Ok(ExitCode::SUCCESS);
    }
    if report.rows == 0 {
        // An empty shard, or an experiment without a job: no chart of nothing.
        eprintln!(
            "sudolab: {}: no rows, so no charts and no report",
            report.output.display()
        );
    } else if !args.no_charts {
        match report.records() {
            Ok(records) => {
                plot::draw_run_charts(&report.charts, &records, &report.output, &report.metadata)
            }
            Err(e) => eprintln!("sudolab: warning: no charts: {:#}", anyhow::Error::from(e)),
        }
    }
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

#[derive(Args, Debug)]
pub struct BenchLoopArgs {
    /// Puzzle file.
    pub file: PathBuf,
    /// Engine specification (`NAME[:KEY=VALUE,...]`).
    pub engine: String,
}

/// `sudolab bench-loop FILE ENGINE`: [`crate::experiment::baseline::bare_loop`].
pub fn bench_loop(args: BenchLoopArgs) -> anyhow::Result<ExitCode> {
    println!(
        "{}",
        crate::experiment::baseline::bare_loop(&args.file, &args.engine)?
    );
    Ok(ExitCode::SUCCESS)
}
