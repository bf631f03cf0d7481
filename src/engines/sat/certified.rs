//! `certify=true`: the answer comes from the certifying prover ([`crate::certify`]), which
//! decides the puzzle on the configured encoding with varisat and writes a DRAT proof against
//! the canonical formula; the proof is then checked ([`crate::certify::ClaimChecker`]) and the
//! row records its size (`proof_lemmas`, `proof_bytes`) and the check's CPU time (`check_s`,
//! outside `cpu_s`).
//!
//! The verdict is `unique` (one solution, with a proof that no other exists), `multiple` (two
//! solutions), `unsat` (with a proof) or a limit. A certified search never counts past two
//! solutions: with `max_solutions` other than 1 or 2 the row's note says so. A proof that the
//! check rejects makes the row an `error` (a defect); one whose check hits the time limit
//! keeps its verdict, and its note says it is unchecked.

use super::super::{Limits, Outcome, Search, Status, Stop};
use crate::certify::{Claim, ClaimChecker, ProveError, Prover, Verdict};
use crate::cnf::{CnfOptions, Interrupt};
use crate::puzzle::Puzzle;
use crate::timing::Stopwatch;
use std::io::BufRead;
use std::time::Instant;

pub(super) fn solve(
    prover: &mut Prover,
    checker: &mut ClaimChecker,
    puzzle: &Puzzle,
    cnf: &CnfOptions,
    limits: &Limits,
    mut search: Search,
    start: Instant,
) -> Outcome {
    let budget = limits.deadline_from(start);
    let cert = match prover.certify(puzzle, cnf, &budget) {
        Ok(c) => c,
        Err(ProveError::TooLarge { literals, bound }) => {
            search.out_of_memory();
            let mut o = search.finish();
            o.note = Some(format!(
                "the {} encoding has {literals} literals, over the bound of {bound} (option \
                 max_literals)",
                cnf.encoding.as_str()
            ));
            return o;
        }
        Err(e) => {
            let mut o = search.finish();
            o.status = Status::Error;
            o.note = Some(format!("certify: {e}"));
            return o;
        }
    };
    search.stats.vars = Some(cert.stats.vars);
    search.stats.clauses = Some(cert.stats.clauses);
    search
        .stats
        .bump("sat_calls", cert.stats.solver_calls as u64);
    for s in &cert.solutions {
        search.solution(s);
    }
    let stop = match cert.stop {
        Some(Interrupt::Cancelled) => Some(Stop::Cancelled),
        Some(Interrupt::Time) => Some(Stop::Time),
        _ => Some(Stop::Nodes),
    };
    let mut o = search.finish();
    o.count = cert.solutions.len() as u64;
    o.status = match cert.verdict {
        Verdict::Unique => Status::Unique,
        Verdict::Multiple => Status::Multiple,
        Verdict::Unsat => Status::Unsat,
        Verdict::Unknown => Outcome::status_for(o.count, stop, limits),
    };
    if let Some(proof) = &cert.proof {
        o.stats.proof_lemmas = Some(cert.stats.lemmas());
        o.stats.proof_bytes = Some(proof.len() as u64);
    }
    if limits.max_solutions == 0 || limits.max_solutions > 2 {
        o.note = Some(format!(
            "certify=true decides unique or multiple: it counts at most 2 solutions, not {}",
            if limits.max_solutions == 0 {
                "all".to_string()
            } else {
                limits.max_solutions.to_string()
            }
        ));
    }
    // The check: its own clock and budget, outside the search's time.
    let watch = Stopwatch::start();
    let claim = Claim {
        geometry: puzzle.geometry(),
        givens: puzzle.givens(),
        verdict: cert.verdict,
        solutions: &cert.solutions,
        form: cert.form,
        minimality: None,
    };
    let check_budget = limits.deadline_from(Instant::now());
    let mut reader = cert.proof.as_deref();
    let checked = checker.check(
        &claim,
        reader.as_mut().map(|r| r as &mut dyn BufRead),
        &check_budget,
    );
    o.stats.check_s = Some(watch.cpu().as_secs_f64());
    match checked {
        Ok(_) => {}
        Err(r) if r.interrupted().is_some() => {
            let note = "certificate unchecked: its check stopped at the limit".to_string();
            o.note = Some(match o.note.take() {
                Some(n) => format!("{n}; {note}"),
                None => note,
            });
        }
        Err(r) => {
            o.status = Status::Error;
            o.note = Some(format!("the certificate's check rejected it: {r}"));
        }
    }
    o
}
