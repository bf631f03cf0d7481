//! Dancing links side by side, one thread, counting up to two solutions per puzzle (find a
//! solution and prove it unique), reported as puzzles/s ("elem/s"):
//!
//! - `sudolab-engine`: the `dlx` engine as `sudolab solve --engine dlx` runs it: the 9x9
//!   matrix linked once, the givens covered at the root, the search, the restore, the grid;
//! - `sudolab-own-matrix`: [`solve_exact_cover`] on each puzzle's own matrix (the givens
//!   eliminated), linked anew per puzzle: the same input, per puzzle, as the peers get;
//! - `dlx-rs` (crate dlx-rs 1.3.0, MIT) and `dlx` (crate dlx 0.8.5, MIT OR Apache-2.0, the
//!   stand-in for `xcov`, which is MPL-2.0 and so not a dependency here): each built per
//!   puzzle from that same matrix with its own API, then asked for up to two solutions.
//!   Building the matrix itself ([`SudokuCover::for_puzzle`]) is done before timing.
//!
//! Sets: the first 2000 of the 49 151 puzzles of royle-17clue (the whole set would take about
//! 4 s per iteration for dlx-rs), all 1465 of magictour-top1465 and all 375 of
//! forum-hardest-1106 (dated 2011-06). Before timing, every solver must count exactly one
//! solution per puzzle (all are unique). Then sudolab's engine alone on rk-25x25: plain DLX1
//! once under a time limit, and with DLX-PRE's elimination (`pre=true`) timed (see [`big`]);
//! and 6x10 pentominoes with [`solve_exact_cover`].
//!
//! `cargo bench --bench dlx`; `cargo bench --bench dlx -- royle` for one set (the answer
//! checks and the rk-25x25 run happen whatever the filter; `SUDOLAB_BENCH_25X25_SECONDS=1`
//! shortens the latter).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;
use sudolab::engines::{self, EngineOptions, Limits, Status};
use sudolab::exact_cover::{solve_exact_cover, ExactCover, SudokuCover};
use sudolab::puzzle::{read_puzzles, Puzzle};

fn path(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

/// The first `max` puzzles of a data file, read by the library's reader.
fn load81(name: &str, max: usize) -> Vec<Puzzle> {
    let mut puzzles = read_puzzles(&path(name)).expect("data file");
    puzzles.truncate(max);
    puzzles
}

/// The one puzzle of a grid file.
fn load_int_grid(name: &str) -> Puzzle {
    read_puzzles(&path(name)).expect("data file").remove(0)
}

fn sudolab_engine(puzzles: &[Puzzle]) -> u64 {
    let mut e = engines::make("dlx", &EngineOptions::new()).unwrap();
    let limits = Limits::solutions(2);
    puzzles.iter().map(|p| e.solve(p, &limits).count).sum()
}

fn sudolab_own(covers: &[ExactCover]) -> u64 {
    let limits = Limits::solutions(2);
    covers
        .iter()
        .map(|x| solve_exact_cover(x, &limits).count)
        .sum()
}

fn dlx_rs(covers: &[ExactCover]) -> u64 {
    covers
        .iter()
        .map(|x| {
            let mut s = dlx_rs::Solver::new_optional(x.primary_items(), x.secondary_items());
            let mut items = Vec::new();
            for (o, opt) in x.all_options().enumerate() {
                items.clear();
                items.extend(opt.iter().map(|&i| i as usize + 1));
                s.add_option(o, &items);
            }
            s.take(2).count() as u64
        })
        .sum()
}

fn dlx_crate(covers: &[ExactCover]) -> u64 {
    use dlx::choose::{mrv_chooser, no_tiebreak, prefer_any};
    covers
        .iter()
        .map(|x| {
            let os: Vec<Vec<dlx::Uint>> = x
                .all_options()
                .map(|o| o.iter().map(|&i| i as dlx::Uint).collect())
                .collect();
            let mut problem = dlx::x::make_problem(
                x.primary_items() as dlx::Uint,
                x.secondary_items() as dlx::Uint,
                &os,
                dlx::OptOrder::Seq,
            );
            let mut chooser = mrv_chooser(prefer_any(), no_tiebreak());
            let mut solver = dlx::Solver::new(&mut problem);
            let mut n = 0;
            while n < 2 && solver.next_solution(&mut chooser) {
                n += 1;
            }
            n
        })
        .sum()
}

fn sets(c: &mut Criterion) {
    for (file, max) in [
        ("royle-17clue.txt", 2000),
        ("magictour-top1465.txt", usize::MAX),
        ("forum-hardest-1106.txt", usize::MAX),
    ] {
        let puzzles = load81(file, max);
        let covers: Vec<ExactCover> = puzzles
            .iter()
            .map(|p| SudokuCover::for_puzzle(p).into_cover())
            .collect();
        // Every puzzle of these sets is unique: each solver must count one solution each.
        let want = puzzles.len() as u64;
        let check = |name: &str, count: u64, t: std::time::Instant| {
            eprintln!("{file}: {name} counted {count} in {:.2?}", t.elapsed());
            assert_eq!(count, want, "{name} on {file}");
        };
        let t = std::time::Instant::now();
        check("sudolab-engine", sudolab_engine(&puzzles), t);
        let t = std::time::Instant::now();
        check("sudolab-own-matrix", sudolab_own(&covers), t);
        let t = std::time::Instant::now();
        check("dlx", dlx_crate(&covers), t);
        let t = std::time::Instant::now();
        check("dlx-rs", dlx_rs(&covers), t);

        let mut group = c.benchmark_group(file.trim_end_matches(".txt"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(5));
        group.throughput(Throughput::Elements(puzzles.len() as u64));
        group.bench_function(BenchmarkId::from_parameter("sudolab-engine"), |b| {
            b.iter(|| black_box(sudolab_engine(&puzzles)))
        });
        group.bench_function(BenchmarkId::from_parameter("sudolab-own-matrix"), |b| {
            b.iter(|| black_box(sudolab_own(&covers)))
        });
        group.bench_function(BenchmarkId::from_parameter("dlx"), |b| {
            b.iter(|| black_box(dlx_crate(&covers)))
        });
        group.bench_function(BenchmarkId::from_parameter("dlx-rs"), |b| {
            b.iter(|| black_box(dlx_rs(&covers)))
        });
        group.finish();
    }
}

/// rk-25x25 is far beyond plain DLX1 (unique, but no solution found in minutes): one run
/// under a time limit (`SUDOLAB_BENCH_25X25_SECONDS`, default 60), reported, not timed by
/// criterion. With Knuth's DLX-PRE elimination first (`pre=true`) it takes milliseconds:
/// timed by criterion, the elimination included.
fn big(c: &mut Criterion) {
    let p = load_int_grid("rk-25x25.txt");
    let seconds = std::env::var("SUDOLAB_BENCH_25X25_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let mut e = engines::make("dlx", &EngineOptions::new()).unwrap();
    let limits = Limits {
        time_limit: Some(Duration::from_secs(seconds)),
        ..Limits::solutions(2)
    };
    let o = engines::run(e.as_mut(), &p, &limits);
    assert_ne!(o.status, Status::Error);
    let updates = o.stats.updates.unwrap_or(0);
    eprintln!(
        "rk-25x25 ({} clues), plain DLX1: {} after {:.1?} CPU ({} solutions), {} nodes, \
         {updates} updates ({:.0} updates/s), build {:?}",
        p.clues(),
        o.status,
        o.solve,
        o.count,
        o.stats.nodes,
        updates as f64 / o.solve.as_secs_f64(),
        o.build
    );
    let mut pre = engines::make("dlx", &EngineOptions::new().with("pre", "true")).unwrap();
    let o = engines::run(pre.as_mut(), &p, &Limits::solutions(2));
    assert_eq!(o.status, Status::Unique);
    eprintln!(
        "rk-25x25, dlx pre=true: {}, build {:?}, solve {:?} (elimination and search), {} nodes, \
         {} updates, {} options removed",
        o.status,
        o.build,
        o.solve,
        o.stats.nodes,
        o.stats.updates.unwrap_or(0),
        o.stats.counter("pre_removed").unwrap_or(0)
    );
    let mut group = c.benchmark_group("rk-25x25");
    group.sample_size(20);
    group.bench_function(BenchmarkId::from_parameter("sudolab-dlx-pre"), |b| {
        b.iter(|| {
            let o = pre.solve(black_box(&p), &Limits::solutions(2));
            assert_eq!(o.count, 1);
        })
    });
    group.finish();
}

/// 6x10 pentominoes: all 9356 packings, and the 2339 left when the X is kept in one quadrant
/// (Knuth's symmetry reduction).
fn pentominoes(c: &mut Criterion) {
    use sudolab::exact_cover::polyomino::{packing, packing_reduced, pentominoes};
    let all = packing(6, 10, &pentominoes());
    let reduced = packing_reduced(6, 10, &pentominoes());
    let mut group = c.benchmark_group("pentominoes-6x10");
    group.sample_size(10);
    for (name, x, want) in [
        ("all-9356", &all, 9356),
        ("x-in-a-quadrant-2339", &reduced, 2339),
    ] {
        group.bench_function(BenchmarkId::from_parameter(name), |b| {
            b.iter(|| {
                let o = solve_exact_cover(x, &Limits::solutions(0));
                assert_eq!(o.count, want);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, sets, big, pentominoes);
criterion_main!(benches);
