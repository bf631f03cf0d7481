//! Times sudolab's DRAT checker on one big formula and proof, and reports the counters and
//! the memory the process holds (`VmRSS` and `VmHWM` from `/proc/self/status`).
//!
//! ```text
//! cargo bench --bench drat_check -- FORMULA.cnf PROOF [OPTIONS]
//! cargo bench --bench drat_check -- --synthetic VARS [OPTIONS]
//! options: --mode forward|backward (default forward)   --time-limit MS
//! ```
//!
//! With a DIMACS file the clauses are read into a `Clauses` first (so the memory counts both
//! copies), then checked by `DratChecker::check`, which loads them under the budget; the time
//! (and the time limit) counts from there. With
//! `--synthetic VARS` the formula is written straight into the checker: an implication chain
//! `1 -> 2 -> ... -> VARS` ending in `(-VARS y)(-VARS -y)`, `(1 z)(1 -z)`, 1.4 * VARS random
//! binary clauses that keep the chain's direction (`-a b` with `a < b`, so the formula stays
//! free of other conflicts), and VARS / 100 random clauses of 100 literals. The proof deletes
//! 1,000 of the random binary clauses, then gives the lemma `1` (RUP through `z`), whose
//! propagation runs the whole chain to the conflict.

mod common;

use std::io::BufReader;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sudolab::cnf::drat::{CheckMode, DratChecker, DratError};
use sudolab::cnf::{read_dimacs, ClauseSink, Deadline};

fn memory() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .map_or("?".to_string(), |v| v.trim().to_string())
    };
    format!("RSS {}, peak {}", field("VmRSS:"), field("VmHWM:"))
}

/// Loads the synthetic formula (reading the budget every 2^16 clauses, as a caller that
/// loads a formula clause by clause should); returns the proof, or None when the budget ran
/// out.
fn synthetic(checker: &mut DratChecker, vars: i32, budget: &Deadline) -> Option<Vec<u8>> {
    let mut added = 0u32;
    let mut add = |checker: &mut DratChecker, c: &[i32]| {
        checker.add_clause(c);
        added = added.wrapping_add(1);
        added & 0xffff != 0 || budget.expired().is_none()
    };
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let (y, z) = (vars + 1, vars + 2);
    checker.reset(z as u32);
    // As an encoder would: the size is known before the first clause.
    let binaries = vars as usize * 24 / 10 + 3;
    ClauseSink::reserve(
        checker,
        binaries + vars as usize / 100,
        2 * binaries + vars as usize,
    );
    for i in 1..vars {
        if !add(checker, &[-i, i + 1]) {
            return None;
        }
    }
    checker.add_clause(&[-vars, y]);
    checker.add_clause(&[-vars, -y]);
    checker.add_clause(&[1, z]);
    checker.add_clause(&[1, -z]);
    let mut deleted = Vec::new();
    for k in 0..(vars as i64 * 14 / 10) {
        let a = rng.gen_range(1..vars);
        let b = rng.gen_range(a + 1..=vars);
        if !add(checker, &[-a, b]) {
            return None;
        }
        if k % 1000 == 0 && deleted.len() < 1000 {
            deleted.push((b, -a));
        }
    }
    let mut long = Vec::with_capacity(100);
    for _ in 0..vars / 100 {
        long.clear();
        long.extend((0..100).map(|_| {
            let v = rng.gen_range(1..=vars);
            if rng.gen_bool(0.5) {
                v
            } else {
                -v
            }
        }));
        if !add(checker, &long) {
            return None;
        }
    }
    let mut proof = String::new();
    for (b, a) in deleted {
        proof.push_str(&format!("d {b} {a} 0\n"));
    }
    proof.push_str("1 0\n");
    Some(proof.into_bytes())
}

fn report_load(checker: &DratChecker, start: Instant) {
    println!(
        "loaded {} clauses in {:.3} s; {}",
        checker.num_clauses(),
        start.elapsed().as_secs_f64(),
        memory()
    );
}

fn main() {
    let args = common::args();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let mode = match value("--mode").as_deref() {
        None | Some("forward") => CheckMode::Forward,
        Some("backward") => CheckMode::Backward,
        Some(other) => panic!("--mode forward|backward, not {other}"),
    };
    let limit = value("--time-limit").map(|ms| Duration::from_millis(ms.parse().expect("ms")));
    let mut checker = DratChecker::with_mode(mode);
    let mut start = Instant::now();
    let mut budget = Deadline {
        at: limit.map(|l| start + l),
        cancel: None,
    };
    let result = if let Some(vars) = value("--synthetic") {
        match synthetic(&mut checker, vars.parse().expect("VARS"), &budget) {
            Some(proof) => {
                report_load(&checker, start);
                checker.check_proof(&proof[..], &budget)
            }
            None => Err(DratError::Interrupted {
                lemmas: 0,
                interrupt: sudolab::cnf::Interrupt::Time,
            }),
        }
    } else {
        let (cnf, proof) = (&args[0], &args[1]);
        let file = std::fs::File::open(cnf).expect("formula");
        let dimacs = read_dimacs(BufReader::new(file)).expect("DIMACS");
        println!("read {} in {:.3} s", cnf, start.elapsed().as_secs_f64());
        let file = std::fs::File::open(proof).expect("proof");
        let proof = BufReader::with_capacity(1 << 16, file);
        // The clock starts again: `check` loads the clauses under the budget.
        start = Instant::now();
        budget.at = limit.map(|l| start + l);
        checker.check(dimacs.num_vars, &dimacs.clauses, proof, &budget)
    };
    let total = start.elapsed();
    match &result {
        Ok(c) => println!(
            "{mode:?}: refuted at lemma {} of {}; checked {}, RAT {}, deletions {} (+{} \
             ignored); {:.3} s",
            c.refuted_at,
            c.lemmas,
            c.checked,
            c.rat_lemmas,
            c.deletions,
            c.ignored_deletions,
            total.as_secs_f64()
        ),
        Err(e @ DratError::Interrupted { .. }) => println!(
            "{mode:?}: {e}; {:.1} ms after the {} ms limit",
            (total.as_secs_f64() - limit.unwrap_or_default().as_secs_f64()) * 1e3,
            limit.unwrap_or_default().as_millis()
        ),
        Err(e) => println!("{mode:?}: {e} after {:.3} s", total.as_secs_f64()),
    }
    println!("{}", memory());
}
