//! Engine throughput, one thread, counting up to two solutions (the usual benchmark mode:
//! find a solution and prove it unique).
//!
//! `cargo bench --bench engines` runs everything; `cargo bench --bench engines -- royle` only
//! the 17-clue throughput of the fast engines (human, binary with hidden singles, dlx, sat
//! optimized; the source's binary does about 270 puzzles/s there and would take minutes per
//! sample: `benches/throughput.rs` measures it on a subset). Criterion reports puzzles/s
//! ("elem/s"). The naive engines (backtrack, bnb, bitmask) run with per-puzzle limits so that
//! one hard puzzle cannot stall the bench; their limit hits are printed once before timing.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use sudolab::engines::{self, EngineSpec, Limits, Status};
use sudolab::puzzle::{read_puzzles, Puzzle};

fn load(name: &str) -> Vec<Puzzle> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    read_puzzles(&path).expect("data file")
}

fn limits_for(engine: &str) -> Limits {
    let mut l = Limits::solutions(2);
    if ["backtrack", "bnb", "bitmask"].contains(&engine) {
        l.time_limit = Some(Duration::from_millis(500));
        l.max_live = Some(200_000);
    }
    l
}

fn solve_all(engine: &str, puzzles: &[Puzzle], limits: &Limits) -> (u64, usize) {
    let mut e = engine.parse::<EngineSpec>().unwrap().make().unwrap();
    let mut nodes = 0;
    let mut unanswered = 0;
    for p in puzzles {
        let o = engines::run(e.as_mut(), p, limits);
        nodes += o.stats.nodes;
        if !o.status.is_answer() {
            unanswered += 1;
        }
        assert_ne!(o.status, Status::Error);
    }
    (nodes, unanswered)
}

fn sets(c: &mut Criterion) {
    for set in ["pe96.txt", "norvig-top95.txt"] {
        let puzzles = load(set);
        let mut group = c.benchmark_group(set.trim_end_matches(".txt"));
        group.sample_size(10);
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        for info in engines::ENGINES {
            let limits = limits_for(info.name);
            let (nodes, unanswered) = solve_all(info.name, &puzzles, &limits);
            eprintln!(
                "{set} {}: {nodes} nodes in all, {unanswered} of {} stopped by a limit",
                info.name,
                puzzles.len()
            );
            group.bench_with_input(BenchmarkId::from_parameter(info.name), &puzzles, |b, ps| {
                b.iter(|| black_box(solve_all(info.name, ps, &limits)))
            });
        }
        group.finish();
    }
}

fn royle(c: &mut Criterion) {
    let puzzles = load("royle-17clue.txt");
    let mut group = c.benchmark_group("royle-17clue");
    group.sample_size(10);
    group.throughput(Throughput::Elements(puzzles.len() as u64));
    for engine in [
        "human",
        "binary:propagation=hidden",
        "dlx",
        "sat:encoding=optimized",
    ] {
        let limits = limits_for(engine);
        group.bench_with_input(BenchmarkId::from_parameter(engine), &puzzles, |b, ps| {
            b.iter(|| black_box(solve_all(engine, ps, &limits)))
        });
    }
    group.finish();
}

criterion_group!(benches, sets, royle);
criterion_main!(benches);
