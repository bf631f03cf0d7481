//! Generator throughput, one thread: puzzles made per second, each proven unique by the
//! engine at every removal.
//!
//! `cargo bench --bench generate` runs: 100 minimal 9x9 puzzles (the project's target is under
//! 10 s on one core), 100 minimal 9x9 with `--spread`, 10 minimal 9x9 jigsaw, 2 16x16
//! minimal and one 25x25 at 50% givens. Criterion reports puzzles/s ("elem/s"). The seeds are
//! fixed, so every sample makes the same puzzles: the figures measure the code, not luck.
//!
//! Measured on the shared 2-core development machine (criterion medians): 100 minimal 9x9 in
//! 90 ms (about 1100 puzzles/s), with `--spread` 102 ms; 10 minimal 9x9 jigsaw 40 ms; a
//! minimal 16x16 0.88 s; a 25x25 with 313 givens 0.14 s. Outside the bench: 36x36 with 55%
//! givens about 0.6 s per puzzle, but 50% is past the point where uniqueness checks turn
//! hard (single checks take seconds with every engine) and runs for many minutes.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use sudolab::generate::{GenerateOptions, Generator, Target};

fn make(options: &GenerateOptions, count: usize) -> usize {
    let mut g = Generator::new(options.clone()).expect("options");
    (0..count)
        .map(|_| g.next_puzzle().expect("a puzzle").clues())
        .sum()
}

fn generate(c: &mut Criterion) {
    let cases: Vec<(&str, GenerateOptions, usize)> = vec![
        ("9x9-minimal", GenerateOptions::new(9, Target::Minimal), 100),
        (
            "9x9-minimal-spread",
            GenerateOptions {
                spread: true,
                ..GenerateOptions::new(9, Target::Minimal)
            },
            100,
        ),
        (
            "9x9-jigsaw-minimal",
            GenerateOptions {
                jigsaw: true,
                ..GenerateOptions::new(9, Target::Minimal)
            },
            10,
        ),
        (
            "16x16-minimal",
            GenerateOptions::new(16, Target::Minimal),
            5,
        ),
        (
            "25x25-half",
            GenerateOptions::new(25, Target::Clues(313)),
            1,
        ),
    ];
    let mut group = c.benchmark_group("generate");
    group.sample_size(10);
    for (name, options, count) in cases {
        group.throughput(Throughput::Elements(count as u64));
        group.bench_function(name, |b| b.iter(|| black_box(make(&options, count))));
    }
    group.finish();
}

criterion_group!(benches, generate);
criterion_main!(benches);
