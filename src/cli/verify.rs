//! `sudolab verify`: every engine and reduction variant on every puzzle; any disagreement is
//! printed in full and makes the exit status 1. With `--certify`, each puzzle's checked
//! certificate decides, and its verdict is printed beside every configuration's answer.

use super::certify::{create_bundle, Certifier, Made};
use super::common::{parse_seconds, whole, InputArgs};
use crate::certify::bundle::BundleWriter;
use crate::engines::{self, Engine, EngineSpec, Limits, Status};
use crate::puzzle::Puzzle;
use crate::verify::{verify, verify_certified, Certified, Run, Verdict};
use anyhow::anyhow;
use clap::Args;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// Puzzle files (`-` for standard input; none = standard input).
    pub files: Vec<String>,

    /// Configurations to compare: `all` (every engine with every variant: encodings, AMOs,
    /// backends, orders), or a comma-separated list of specs such as
    /// `human,bnb:order=lifo,sat:encoding=minimal,amo=sequential`.
    #[arg(long, default_value = "all", value_name = "LIST|all")]
    pub engines: String,

    /// Count solutions up to K (0 = all) and compare.
    #[arg(long, default_value_t = 2, value_name = "K", allow_negative_numbers = true,
          value_parser = whole::<u64, 0>)]
    pub max_solutions: u64,

    /// Per-run time limit; a run stopped by it is inconclusive, not a disagreement.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "10",
          allow_negative_numbers = true)]
    pub time_limit: Duration,

    /// Per-run node limit.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 0>)]
    pub node_limit: Option<u64>,

    /// Live-node limit of breadth-first search.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u64, 0>)]
    pub max_live: Option<u64>,

    /// Also decide each puzzle with a certificate (`certify`'s default encoding; made, then
    /// checked by the DRAT checker, each within --time-limit): its verdict decides, and is
    /// printed beside every configuration's answer. A certificate not made or not accepted is
    /// reported as unchecked, and the configurations are compared with each other.
    #[arg(long)]
    pub certify: bool,

    /// With --certify: keep the certificates in the bundle DIR, as `certify -o DIR` writes it.
    #[arg(long, value_name = "DIR", requires = "certify")]
    pub certify_out: Option<PathBuf>,

    #[command(flatten)]
    pub input: InputArgs,
}

/// Parses `a,b:k=v,k2=v2,c`: a piece with `=` but no `:` continues the previous spec.
pub fn parse_spec_list(list: &str) -> anyhow::Result<Vec<EngineSpec>> {
    if list.trim() == "all" {
        return Ok(engines::all_configurations());
    }
    let mut texts: Vec<String> = Vec::new();
    for piece in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        // `KEY=VALUE` continues the spec before it (a value may hold `:`, as in
        // `backend=cadical:plain` or `amo=commander:3`); `NAME` or `NAME:KEY=VALUE` starts one.
        let continues = piece
            .split_once('=')
            .is_some_and(|(key, _)| !key.contains(':'));
        match texts.last_mut() {
            Some(last) if continues => {
                last.push(if last.contains(':') { ',' } else { ':' });
                last.push_str(piece);
            }
            _ => texts.push(piece.to_string()),
        }
    }
    if texts.is_empty() {
        return Err(anyhow!("--engines: empty list"));
    }
    texts
        .iter()
        .map(|t| {
            t.parse::<EngineSpec>()
                .map_err(|e| anyhow!("--engines: {e}"))
        })
        .collect()
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let specs = parse_spec_list(&args.engines)?;
    let mut engines = specs
        .iter()
        .map(|s| Ok((s.clone(), s.make().map_err(|e| anyhow!("{s}: {e}"))?)))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let limits = Limits {
        max_solutions: args.max_solutions,
        node_limit: args.node_limit,
        time_limit: Some(args.time_limit),
        max_live: args.max_live.or(Limits::default().max_live),
        ..Limits::default()
    };
    let sets = args.input.load(&args.files)?;
    let mut certifying = match args.certify {
        true => {
            let total: usize = sets.iter().map(|s| s.puzzles.len()).sum();
            Some(Certifying {
                certifier: Certifier::new(Some(args.time_limit)),
                bundle: match &args.certify_out {
                    Some(dir) => Some(create_bundle(dir, total as u64)?),
                    None => None,
                },
                verdicts: BTreeMap::new(),
                unchecked: 0,
            })
        }
        false => None,
    };

    let mut out = std::io::stdout().lock();
    let (mut puzzles, mut agreed, mut runs) = (0usize, 0usize, 0usize);
    let mut disagreements = 0usize;
    let mut inconclusive: BTreeMap<String, usize> = BTreeMap::new();
    let mut skipped: BTreeMap<String, usize> = BTreeMap::new();
    let mut answers: BTreeMap<String, usize> = BTreeMap::new();
    for set in &sets {
        for (i, sp) in set.puzzles.iter().enumerate() {
            puzzles += 1;
            let v = match &mut certifying {
                None => verify(&sp.puzzle, &mut engines, &limits),
                Some(c) => {
                    let (v, head) = c.verify(&sp.puzzle, &mut engines, &limits, &set.source, i)?;
                    writeln!(out, "{}:{}: {head}", set.source, i + 1)?;
                    for r in &v.runs {
                        writeln!(out, "    {}  {}", run_line(r), mark(&v, r))?;
                    }
                    v
                }
            };
            runs += v.runs.len();
            for r in v.inconclusive() {
                *inconclusive.entry(r.spec.to_string()).or_default() += 1;
            }
            for r in v.skipped() {
                *skipped.entry(r.spec.to_string()).or_default() += 1;
            }
            if let Some(a) = v.answer() {
                *answers.entry(a.status.to_string()).or_default() += 1;
            }
            if v.agrees() {
                agreed += 1;
                continue;
            }
            disagreements += v.disagreements.len();
            writeln!(
                out,
                "DISAGREEMENT on {}:{} (line {})",
                set.source,
                i + 1,
                sp.line
            )?;
            writeln!(
                out,
                "  puzzle: {}",
                crate::puzzle::write_puzzle(&sp.puzzle, crate::puzzle::OutputFormat::Line, None)
            )?;
            for d in &v.disagreements {
                writeln!(out, "  {d}")?;
            }
            for r in &v.runs {
                writeln!(out, "    {}", run_line(r))?;
            }
        }
    }
    writeln!(
        out,
        "verified {puzzles} puzzle(s) x {} configuration(s) = {runs} runs, max solutions {}",
        engines.len(),
        args.max_solutions
    )?;
    let answers: Vec<String> = answers.iter().map(|(k, v)| format!("{k} {v}")).collect();
    writeln!(out, "answers: {}", answers.join(", "))?;
    if let Some(c) = &certifying {
        let verdicts: Vec<String> = c.verdicts.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(
            out,
            "certified: {}; unchecked {} (compared across configurations){}",
            if verdicts.is_empty() {
                "none".to_string()
            } else {
                verdicts.join(", ")
            },
            c.unchecked,
            c.bundle
                .as_ref()
                .map(|b| format!("; bundle {}", b.dir().display()))
                .unwrap_or_default()
        )?;
    }
    writeln!(
        out,
        "agreed on {agreed} of {puzzles} puzzle(s); {disagreements} disagreement(s)"
    )?;
    for (what, map) in [
        ("inconclusive (limit hit)", &inconclusive),
        ("skipped (unsupported)", &skipped),
    ] {
        if !map.is_empty() {
            writeln!(out, "{what}:")?;
            for (spec, n) in map {
                writeln!(out, "    {spec}: {n}")?;
            }
        }
    }
    Ok(if disagreements == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// One run as the disagreement report and `--certify` print it.
fn run_line(r: &Run) -> String {
    format!(
        "{:<45} {:<12} {} solution(s){}",
        r.spec.to_string(),
        r.outcome.status.as_str(),
        r.outcome.count,
        r.outcome
            .note
            .as_deref()
            .map(|n| format!(" ({n})"))
            .unwrap_or_default()
    )
}

/// How a run stands against the reference of `v` (the certified verdict, or the first
/// answer): `agrees`, `DISAGREES`, or why it answered nothing.
fn mark(v: &Verdict, r: &Run) -> &'static str {
    let status = r.outcome.status;
    if v.disagreements.iter().any(|d| d.spec == r.spec) || status == Status::Error {
        "DISAGREES"
    } else if status.is_answer() {
        "agrees"
    } else if status == Status::Unsupported {
        "skipped"
    } else {
        "inconclusive"
    }
}

/// `verify --certify`: the certifier, the bundle if kept, and the tallies.
struct Certifying {
    certifier: Certifier,
    bundle: Option<BundleWriter>,
    /// Certified verdicts, by name.
    verdicts: BTreeMap<&'static str, usize>,
    /// Puzzles without a certified verdict.
    unchecked: usize,
}

impl Certifying {
    /// Certifies `puzzle` (the `index`-th of `source`, 0-based), keeps its entry if asked,
    /// and runs the engines against the certified verdict, or against each other when there
    /// is none. Returns the comparison and the line that heads the puzzle's runs.
    fn verify(
        &mut self,
        puzzle: &Puzzle,
        engines: &mut [(EngineSpec, Box<dyn Engine>)],
        limits: &Limits,
        source: &str,
        index: usize,
    ) -> anyhow::Result<(Verdict, String)> {
        let made = self.certifier.certify(puzzle, None);
        let certified = made.as_ref().ok().and_then(Made::certified);
        let (v, head) = match (&made, certified) {
            (Ok(m), Some(verdict)) => {
                *self.verdicts.entry(verdict.as_str()).or_default() += 1;
                let certified = Certified {
                    verdict,
                    solutions: &m.certificate.solutions,
                };
                let v = verify_certified(puzzle, engines, limits, &certified);
                (v, format!("certified {}", verdict.as_str()))
            }
            (made, _) => {
                self.unchecked += 1;
                let why = match made {
                    Ok(m) => m.why_uncertified(),
                    Err(e) => format!("no certificate: {e}"),
                };
                let v = verify(puzzle, engines, limits);
                let head =
                    format!("unchecked ({why}): the configurations are compared with each other");
                (v, head)
            }
        };
        if let Some(bundle) = &mut self.bundle {
            let (mut entry, proof) = match made {
                Ok(m) => (m.entry, m.certificate.proof),
                Err(e) => (
                    self.certifier.unknown_entry(puzzle, format!("error: {e}")),
                    None,
                ),
            };
            entry.source = source.to_string();
            entry.index = index as u64 + 1;
            bundle.write(&mut entry, proof.as_deref())?;
        }
        Ok((v, head))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_lists() {
        let names = |list: &str| -> Vec<String> {
            let specs = parse_spec_list(list).unwrap();
            specs.iter().map(|s| s.to_string()).collect()
        };
        assert_eq!(
            names("human, bnb:order=lifo,sat:encoding=minimal,amo=sequential,dlx"),
            [
                "human",
                "bnb:order=lifo",
                "sat:amo=sequential,encoding=minimal",
                "dlx"
            ]
        );
        // values holding `:` continue their spec wherever the option stands
        assert_eq!(
            names("human,sat:encoding=minimal,backend=cadical:plain,amo=commander:3"),
            [
                "human",
                "sat:amo=commander:3,backend=cadical:plain,encoding=minimal"
            ]
        );
        assert!(parse_spec_list(" , ").is_err());
        assert!(parse_spec_list("all").unwrap().len() >= 5);
    }
}
