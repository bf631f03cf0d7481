//! Every engine agrees with every other on random puzzles of sizes 4, 6 and 9 (classic boxes,
//! random jigsaw layouts, X-sudoku) with 0, 1, 2 and many solutions: same status, same count,
//! and the same solution set whenever the search was exhausted below the cap. Every solution
//! is checked against the houses by `engines::run`.

mod common;

use common::{geometry, puzzle_from, rng};
use proptest::prelude::*;
use std::collections::BTreeMap;
use sudolab::engines::{self, EngineSpec, Limits, Status};
use sudolab::puzzle::Puzzle;

/// Every engine with every variant: the classic engines, bnb's orders, every CNF encoding x
/// AMO x embedded backend (and assumptions, dedup), and DLX.
fn configurations() -> Vec<EngineSpec> {
    engines::all_configurations()
}

/// Whether the engine of `spec` takes puzzles of this geometry (only `fast` is restricted:
/// 9x9 with 3x3 boxes, with or without diagonals).
fn handles(spec: &EngineSpec, p: &Puzzle) -> bool {
    spec.name != "fast" || (p.n() == 9 && !p.geometry().is_jigsaw())
}

/// Solutions counted up to this cap (4x4 grids are counted completely: at most 288).
fn cap(n: usize) -> u64 {
    if n == 4 {
        0
    } else {
        40
    }
}

/// What the engines said about one puzzle (status, count, and whether bnb answered); panics
/// with a full report on disagreement.
fn agree(p: &Puzzle) -> (Status, u64, bool) {
    let n = p.n();
    let limits = Limits {
        max_solutions: cap(n),
        node_limit: Some(20_000_000),
        max_live: Some(300_000),
        ..Limits::default()
    };
    let mut answers: BTreeMap<String, (Status, u64, Vec<Vec<u16>>)> = BTreeMap::new();
    for spec in configurations() {
        let mut e = spec.make().unwrap();
        let o = engines::run(e.as_mut(), p, &limits);
        let name = spec.to_string();
        assert_ne!(o.status, Status::Error, "{name}: {:?}", o.note);
        if o.status == Status::Unsupported && !handles(&spec, p) {
            // `fast` is a 9x9 engine (classic and X): other grids are outside its scope.
            continue;
        }
        assert_ne!(o.status, Status::Unsupported, "{name}: {:?}", o.note);
        if o.status.is_limit() {
            // Breadth-first search on a sparse 6x6 or 9x9 grid may exhaust its live-node budget
            // (the queue holds a whole level of the tree): that is the method, reported
            // honestly. On 9x9, a naive engine (no propagation, fixed cell order) may also
            // need more than 20M nodes on an unlucky random puzzle (the property test met
            // one: bitmask on seed 472637); that run is inconclusive, not a disagreement.
            // Nothing else may hit a limit here.
            let naive = ["backtrack", "bnb", "bitmask"].contains(&spec.name.as_str());
            assert!(
                (spec.name == "bnb" && n >= 6 && o.status == Status::MemoryLimit)
                    || (naive && n == 9 && o.status == Status::NodeLimit),
                "{name} hit {} on {:?}",
                o.status,
                p.givens()
            );
            continue;
        }
        let mut sols = o.solutions.clone();
        sols.sort();
        answers.insert(name, (o.status, o.count, sols));
    }
    // The engines with propagation always answer, so there is something to agree with.
    for must in ["human", "dlx", "sat"] {
        assert!(answers.contains_key(must), "{must} did not answer");
    }
    let (first, (status, count, sols)) = answers.iter().next().unwrap();
    let exhausted = limits.max_solutions == 0 || *count < limits.max_solutions;
    for (name, (s, c, so)) in &answers {
        assert_eq!(
            (s, c),
            (status, count),
            "{name} vs {first} on {}x{} {} puzzle {:?}",
            n,
            n,
            p.geometry().variant(),
            p.givens()
        );
        if exhausted {
            assert_eq!(
                so,
                sols,
                "{name} vs {first}: solution sets differ on {:?}",
                p.givens()
            );
        }
    }
    (*status, *count, answers.contains_key("bnb"))
}

/// Puzzle `i` of a deterministic family covering sizes, variants, and sparse to full grids.
fn family(seed: u64) -> Option<Puzzle> {
    let mut r = rng(seed);
    let n = [4, 6, 9][(seed % 3) as usize];
    let g = geometry((seed / 3 % 3) as u8, n, &mut r);
    let cells = n * n;
    use rand::Rng;
    let holes = match seed / 9 % 4 {
        0 => r.gen_range(0..cells / 3),
        1 => r.gen_range(cells / 3..cells * 2 / 3),
        2 => r.gen_range(cells * 2 / 3..=cells),
        _ => r.gen_range(0..=cells),
    };
    let spoil = seed % 5 == 0;
    // Keep naive engines out of hopeless territory on 9x9: at most 58 holes.
    let holes = if n == 9 { holes.min(58) } else { holes };
    puzzle_from(g, &mut r, holes, spoil)
}

#[test]
fn engines_agree_and_every_case_is_covered() {
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut variants: BTreeMap<String, usize> = BTreeMap::new();
    // (puzzles, answered by bnb) per side
    let mut bnb: BTreeMap<usize, (usize, usize)> = BTreeMap::new();
    for seed in 0..360 {
        let Some(p) = family(seed) else { continue };
        let (status, count, bnb_answered) = agree(&p);
        let e = bnb.entry(p.n()).or_default();
        e.0 += 1;
        e.1 += bnb_answered as usize;
        let class = match (status, count) {
            (_, 0) => "none",
            (_, 1) => "one",
            (_, 2) => "two",
            _ => "many",
        };
        *seen.entry(class).or_default() += 1;
        *variants
            .entry(format!("{}-{}", p.n(), p.geometry().variant()))
            .or_default() += 1;
    }
    for class in ["none", "one", "two", "many"] {
        assert!(
            seen.get(class).copied().unwrap_or(0) >= 3,
            "too few puzzles with {class} solutions: {seen:?}"
        );
    }
    assert_eq!(variants.len(), 9, "{variants:?}");
    // Breadth-first search may give up on sparse grids, but must answer most of them.
    for (n, (all, answered)) in bnb {
        assert!(
            answered * 2 > all,
            "bnb answered {answered} of {all} {n}x{n} puzzles"
        );
    }
}

/// The random puzzle on which bitmask needs more than 20M nodes: still agreed by the rest.
#[test]
fn a_naive_engine_at_its_node_limit_is_inconclusive() {
    if let Some(p) = family(472637) {
        agree(&p);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn engines_agree_on_random_puzzles(seed in 1000u64..1_000_000) {
        if let Some(p) = family(seed) {
            agree(&p);
        }
    }
}
