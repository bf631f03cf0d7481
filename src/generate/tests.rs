//! Tests of the generator. Uniqueness is re-checked with the `human` engine, not the `dlx`
//! engine that proved it during generation, so an engine bug cannot hide itself.

use super::singles::{Closure, Singles};
use super::*;
use crate::engines::{EngineSpec, Limits, Status};

fn checker() -> Box<dyn Engine> {
    EngineSpec::new("human").make().unwrap()
}

fn status(engine: &mut dyn Engine, p: &Puzzle) -> Status {
    engines::run(engine, p, &Limits::solutions(2)).status
}

fn options(size: usize, target: Target, seed: u64) -> GenerateOptions {
    GenerateOptions {
        seed,
        ..GenerateOptions::new(size, target)
    }
}

fn generate(options: GenerateOptions, count: usize) -> Vec<Puzzle> {
    let mut g = Generator::new(options).unwrap();
    (0..count).map(|_| g.next_puzzle().unwrap()).collect()
}

/// Whether removing any single given leaves several solutions.
fn is_minimal(engine: &mut dyn Engine, p: &Puzzle) -> bool {
    (0..p.geometry().cells())
        .filter(|&c| p.givens()[c] != 0)
        .all(|c| {
            let mut givens = p.givens().to_vec();
            givens[c] = 0;
            let q = Puzzle::new(p.shared_geometry().clone(), givens).unwrap();
            status(engine, &q) == Status::Multiple
        })
}

#[test]
fn minimal_9x9_puzzles_are_unique_and_minimal() {
    let mut human = checker();
    let mut g = Generator::new(options(9, Target::Minimal, 1)).unwrap();
    for _ in 0..10 {
        let p = g.next_puzzle().unwrap();
        assert_eq!(status(&mut *human, &p), Status::Unique);
        assert!(is_minimal(&mut *human, &p), "not minimal: {:?}", p.givens());
        assert!(p.clues() >= 17);
        // The puzzle is cut from the solution the generator reports.
        let solution = g.last_solution().to_vec();
        assert_eq!(p.check_solution(&solution), Ok(()));
        assert_eq!(g.last_stats().undecided, 0);
    }
}

/// `--minimal` above 12x12 is checked by `sat-incremental` (solution-guided phase, its own
/// conflict limit); an independent engine (DLX, counting to 2) confirms that every given is
/// necessary and the puzzle unique.
#[test]
fn minimal_16x16_puzzles_of_the_incremental_checker_are_minimal_for_dlx() {
    let mut dlx = EngineSpec::new("dlx").make().unwrap();
    let o = options(16, Target::Minimal, 4);
    assert_eq!(
        o.node_limit,
        crate::generate::DEFAULT_MINIMAL_CONFLICT_LIMIT
    );
    let mut g = Generator::new(o).unwrap();
    for _ in 0..2 {
        let p = g.next_puzzle().unwrap();
        assert_eq!(status(&mut *dlx, &p), Status::Unique);
        assert!(is_minimal(&mut *dlx, &p), "not minimal: {:?}", p.givens());
        assert_eq!(g.last_stats().undecided, 0);
    }
}

#[test]
fn clue_targets_are_exact() {
    let mut human = checker();
    for (n, k) in [(4, 6), (6, 14), (9, 25), (9, 40), (12, 80), (16, 150)] {
        for p in generate(options(n, Target::Clues(k), n as u64), 3) {
            assert_eq!(p.clues(), k, "{n}x{n}");
            assert_eq!(status(&mut *human, &p), Status::Unique, "{n}x{n}");
        }
    }
}

#[test]
fn other_box_shapes() {
    let mut human = checker();
    let o = GenerateOptions {
        box_shape: Some((3, 2)),
        ..options(6, Target::Minimal, 3)
    };
    for p in generate(o, 5) {
        assert_eq!(p.geometry().box_shape(), Some((3, 2)));
        assert_eq!(status(&mut *human, &p), Status::Unique);
    }
}

#[test]
fn full_grid_target_keeps_every_given() {
    let p = &generate(options(9, Target::Clues(81), 0), 1)[0];
    assert_eq!(p.clues(), 81);
    assert_eq!(p.geometry().check_grid(p.givens()), Ok(()));
}

#[test]
fn x_sudoku_puzzles_keep_the_diagonals() {
    let mut human = checker();
    let o = GenerateOptions {
        diagonals: true,
        ..options(9, Target::Minimal, 5)
    };
    let mut g = Generator::new(o).unwrap();
    for _ in 0..5 {
        let p = g.next_puzzle().unwrap();
        assert!(p.geometry().has_diagonals());
        let solution = g.last_solution().to_vec();
        let n = 9;
        let main: std::collections::HashSet<u16> = (0..n).map(|i| solution[i * n + i]).collect();
        let anti: std::collections::HashSet<u16> =
            (0..n).map(|i| solution[i * n + n - 1 - i]).collect();
        assert_eq!(main.len(), 9);
        assert_eq!(anti.len(), 9);
        assert_eq!(status(&mut *human, &p), Status::Unique);
        assert!(is_minimal(&mut *human, &p));
    }
}

#[test]
fn jigsaw_puzzles_have_connected_regions_and_are_unique() {
    let mut human = checker();
    for (n, diagonals) in [(6, false), (9, false), (9, true)] {
        let o = GenerateOptions {
            jigsaw: true,
            diagonals,
            ..options(n, Target::Minimal, 11)
        };
        let mut layouts = std::collections::HashSet::new();
        for p in generate(o, 4) {
            let g = p.geometry();
            assert!(g.is_jigsaw());
            assert_eq!(g.has_diagonals(), diagonals);
            assert_eq!(g.disconnected_region(), None);
            assert_eq!(status(&mut *human, &p), Status::Unique);
            assert!(is_minimal(&mut *human, &p));
            layouts.insert(g.regions().to_vec());
        }
        assert_eq!(layouts.len(), 4, "a new layout per puzzle");
    }
}

/// Jigsaw grids from side 16 up: layouts drawn first and filled after failed every 20x20 and
/// 25x25 request ("no full grid found ... after 200 tries"); layouts around a grid always
/// have one.
#[test]
fn large_jigsaw_puzzles_are_made_and_unique() {
    let sat = EngineSpec::new("sat");
    for (n, clues, diagonals) in [
        (16, 150, false),
        (20, 250, false),
        (25, 500, false),
        (16, 160, true),
    ] {
        let o = GenerateOptions {
            jigsaw: true,
            diagonals,
            ..options(n, Target::Clues(clues), 1)
        };
        for p in generate(o, 2) {
            let g = p.geometry();
            assert!(g.is_jigsaw() && g.has_diagonals() == diagonals);
            assert_eq!(g.disconnected_region(), None);
            assert_eq!(p.clues(), clues);
            let mut engine = sat.make().unwrap();
            assert_eq!(status(&mut *engine, &p), Status::Unique, "{n}");
        }
    }
}

#[test]
fn same_seed_same_puzzles() {
    for o in [
        options(9, Target::Minimal, 42),
        GenerateOptions {
            jigsaw: true,
            spread: true,
            ..options(9, Target::Clues(30), 42)
        },
    ] {
        let a = generate(o.clone(), 3);
        let b = generate(o.clone(), 3);
        assert_eq!(a, b);
        let c = generate(GenerateOptions { seed: 43, ..o }, 3);
        assert_ne!(a, c);
    }
}

#[test]
fn spread_balances_holes_when_no_removal_is_refused() {
    let mut balanced_runs = 0;
    for (n, holes_per_house, diagonals) in
        [(9, 3, false), (9, 4, false), (16, 8, false), (9, 3, true)]
    {
        let k = n * n - n * holes_per_house;
        let o = GenerateOptions {
            spread: true,
            diagonals,
            ..options(n, Target::Clues(k), 7)
        };
        let mut g = Generator::new(o).unwrap();
        for _ in 0..5 {
            let p = g.next_puzzle().unwrap();
            if g.last_stats().refused == 0 {
                balanced_runs += 1;
                // A multiple of N holes: exactly `holes_per_house` in every row, column, box.
                assert_eq!(hole_imbalance(&p), [0, 0, 0], "{n}x{n}: {:?}", p.givens());
            }
        }
        // A count that is not a multiple of N: at most one apart.
        let o = GenerateOptions {
            spread: true,
            diagonals,
            ..options(n, Target::Clues(k + n / 2), 8)
        };
        let mut g = Generator::new(o).unwrap();
        for _ in 0..5 {
            let p = g.next_puzzle().unwrap();
            if g.last_stats().refused == 0 {
                balanced_runs += 1;
                assert!(hole_imbalance(&p).iter().all(|&d| d <= 1), "{n}x{n}");
            }
        }
    }
    // The bound was actually exercised.
    assert!(
        balanced_runs >= 20,
        "only {balanced_runs} runs without refusals"
    );
}

#[test]
fn spread_is_more_balanced_than_random_order() {
    let total = |spread: bool| -> usize {
        let o = GenerateOptions {
            spread,
            ..options(9, Target::Clues(36), 9)
        };
        generate(o, 20)
            .iter()
            .map(|p| hole_imbalance(p).iter().sum::<usize>())
            .sum()
    };
    let (balanced, random) = (total(true), total(false));
    assert!(
        balanced * 3 < random,
        "spread {balanced} vs random {random}"
    );
}

#[test]
fn clues_below_the_bound_are_refused_at_once() {
    for (n, k, min) in [(9, 16, 17), (4, 3, 4), (6, 4, 5), (16, 14, 15)] {
        match Generator::new(options(n, Target::Clues(k), 0)) {
            Err(GenerateError::TooFewClues { min: m, .. }) => assert_eq!(m, min),
            other => panic!("{n}x{n} {k}: {other:?}"),
        }
    }
    // The 17 of McGuire et al. is for the classic grid only: X and jigsaw get N - 1.
    let x = GenerateOptions {
        diagonals: true,
        ..options(9, Target::Clues(16), 0)
    };
    assert!(Generator::new(x).is_ok());
    assert!(matches!(
        Generator::new(options(9, Target::Clues(82), 0)),
        Err(GenerateError::TooManyClues { .. })
    ));
}

#[test]
fn bad_options_are_errors() {
    assert!(matches!(
        Generator::new(options(3, Target::Minimal, 0)).unwrap_err(),
        GenerateError::Side(3)
    ));
    assert!(matches!(
        Generator::new(options(MAX_SIDE + 1, Target::Minimal, 0)).unwrap_err(),
        GenerateError::Side(n) if n == MAX_SIDE + 1
    ));
    let bad_box = GenerateOptions {
        box_shape: Some((2, 4)),
        ..options(9, Target::Minimal, 0)
    };
    assert!(matches!(
        Generator::new(bad_box),
        Err(GenerateError::Geometry(_))
    ));
    let both = GenerateOptions {
        box_shape: Some((3, 3)),
        jigsaw: true,
        ..options(9, Target::Minimal, 0)
    };
    assert!(matches!(
        Generator::new(both).unwrap_err(),
        GenerateError::BoxWithJigsaw
    ));
    let engine = GenerateOptions {
        engine: Some(EngineSpec::new("nope")),
        ..options(9, Target::Minimal, 0)
    };
    assert!(matches!(
        Generator::new(engine),
        Err(GenerateError::Engine(_))
    ));
}

#[test]
fn unreachable_targets_fail_after_the_attempts() {
    let o = GenerateOptions {
        attempts: 3,
        ..options(9, Target::Clues(18), 0)
    };
    let mut g = Generator::new(o).unwrap();
    match g.next_puzzle() {
        Err(GenerateError::Unreachable {
            clues: 18,
            attempts: 3,
            fewest,
        }) => assert!((19..40).contains(&fewest)),
        other => panic!("{other:?}"),
    }
    assert_eq!(g.last_stats().attempts, 3);
}

#[test]
fn undecided_checks_keep_the_given_and_void_minimality() {
    // dlx enters one level per empty cell at least, so a limit of 60 nodes stops every check
    // once about 60 cells are empty: minimality (55 to 60 holes) can no longer be proven,
    // while 50 clues (31 holes) are reached with checks that all finished.
    let o = GenerateOptions {
        node_limit: 60,
        attempts: 2,
        ..options(9, Target::Minimal, 0)
    };
    assert!(matches!(
        Generator::new(o).unwrap().next_puzzle(),
        Err(GenerateError::Undecided { attempts: 2, .. })
    ));
    let o = GenerateOptions {
        node_limit: 60,
        ..options(9, Target::Clues(50), 0)
    };
    let mut human = checker();
    let mut g = Generator::new(o).unwrap();
    let p = g.next_puzzle().unwrap();
    assert_eq!(p.clues(), 50);
    assert_eq!(status(&mut *human, &p), Status::Unique);
    // A limit of 1 node stops every check with two holes or more: the given stays each time,
    // and the first removal is the only one kept.
    let o = GenerateOptions {
        node_limit: 1,
        attempts: 2,
        ..options(9, Target::Clues(70), 0)
    };
    let result = Generator::new(o).unwrap().next_puzzle();
    assert!(matches!(
        result,
        Err(GenerateError::Unreachable {
            clues: 70,
            attempts: 2,
            fewest: 80
        })
    ));
}

#[test]
fn other_engines_can_check() {
    let mut human = checker();
    for spec in ["sat", "human", "bitmask"] {
        let o = GenerateOptions {
            engine: Some(spec.parse().unwrap()),
            ..options(6, Target::Minimal, 2)
        };
        for p in generate(o, 2) {
            assert_eq!(status(&mut *human, &p), Status::Unique, "{spec}");
        }
    }
}

/// The incremental SAT checker decides every removal the way a search engine does, so with no
/// limit hit both make the same puzzles (random order with block tests, and spread order).
#[test]
fn incremental_sat_and_dlx_make_the_same_puzzles() {
    // Jigsaw draws a new layout per puzzle: the incremental checker once kept the first
    // geometry's houses and accepted removals that left several solutions.
    for (size, target, spread, jigsaw) in [
        (9, Target::Minimal, false, false),
        (9, Target::Clues(26), true, false),
        (16, Target::Clues(120), false, false),
        (16, Target::Clues(130), true, false),
        (9, Target::Minimal, false, true),
        (9, Target::Clues(30), false, true),
    ] {
        let with = |engine: &str| {
            let spec: EngineSpec = engine.parse().unwrap();
            let o = GenerateOptions {
                engine: Some(spec.clone()),
                node_limit: 10_000_000,
                spread,
                jigsaw,
                ..options(size, target, 11)
            };
            generate(o, 3)
        };
        let dlx = with("dlx");
        let mut human = checker();
        for p in &dlx {
            assert_eq!(status(&mut *human, p), Status::Unique);
        }
        assert_eq!(dlx, with("sat-incremental"), "{size} {target:?}");
        assert_eq!(dlx, with("sat-incremental:backend=varisat,block=5"));
    }
}

/// Large boxed sides come from pattern grids with switches; the puzzles are unique (checked
/// by the sat engine, not the generator's checker) and repeat for a seed.
#[test]
fn large_sides_are_unique_and_repeat_for_a_seed() {
    let o = GenerateOptions {
        box_shape: Some((5, 10)),
        ..options(50, Target::Clues(2250), 3)
    };
    let a = generate(o.clone(), 1);
    assert_eq!(a, generate(o, 1));
    assert_eq!(a[0].clues(), 2250);
    let mut sat = EngineSpec::new("sat").make().unwrap();
    assert_eq!(status(&mut *sat, &a[0]), Status::Unique);
}

#[test]
fn sat_incremental_options_are_checked() {
    for bad in [
        "sat-incremental:block=0",
        "sat-incremental:nope=1",
        "sat-incremental:backend=x",
    ] {
        let o = GenerateOptions {
            engine: Some(bad.parse().unwrap()),
            ..options(9, Target::Minimal, 0)
        };
        assert!(
            matches!(Generator::new(o), Err(GenerateError::Engine(_))),
            "{bad}"
        );
    }
    let x = GenerateOptions {
        diagonals: true,
        ..options(200, Target::Clues(30_000), 0)
    };
    assert!(matches!(
        Generator::new(x).unwrap_err(),
        GenerateError::SearchSide(200)
    ));
}

/// The bound of 4 for the classic 4x4 grid: no 3-clue puzzle is unique. Every 4x4 grid is
/// enumerated (288 of them) and every 3-cell subset of each is checked.
#[test]
fn no_three_clue_4x4_puzzle_is_unique() {
    let g = Arc::new(Geometry::square(4).unwrap());
    let mut dlx = EngineSpec::new("dlx").make().unwrap();
    let all = engines::run(dlx.as_mut(), &Puzzle::empty(g.clone()), &{
        let mut l = Limits::solutions(0);
        l.keep_solutions = 1000;
        l
    });
    assert_eq!(all.count, 288);
    for grid in &all.solutions {
        for a in 0..16 {
            for b in a + 1..16 {
                for c in b + 1..16 {
                    let mut givens = vec![0; 16];
                    for x in [a, b, c] {
                        givens[x] = grid[x];
                    }
                    let p = Puzzle::new(g.clone(), givens).unwrap();
                    assert_eq!(status(dlx.as_mut(), &p), Status::Multiple);
                }
            }
        }
    }
    // And 4 is reached, so it is the exact minimum (re-checked by another engine).
    let four = generate(options(4, Target::Clues(4), 0), 1);
    assert_eq!(four[0].clues(), 4);
    assert_eq!(status(&mut *checker(), &four[0]), Status::Unique);
}

/// The singles-first order: the puzzles are unique, those within reach of singles are solved
/// by singles alone, a minimal one is minimal (its second pass checks every given left), and
/// a seed repeats.
#[test]
fn singles_first_order_makes_unique_puzzles_singles_solve() {
    let mut human = checker();
    let o = GenerateOptions {
        order: Order::SinglesFirst,
        ..options(16, Target::Clues(140), 5)
    };
    let a = generate(o.clone(), 2);
    assert_eq!(a, generate(o, 2));
    let mut singles = Singles::new(a[0].geometry());
    for p in &a {
        assert_eq!(p.clues(), 140);
        assert_eq!(status(&mut *human, p), Status::Unique);
        assert_eq!(singles.run(p.givens(), None), Closure::Filled);
    }
    let o = GenerateOptions {
        order: Order::SinglesFirst,
        ..options(9, Target::Minimal, 6)
    };
    for p in generate(o, 3) {
        assert_eq!(status(&mut *human, &p), Status::Unique);
        assert!(is_minimal(&mut *human, &p), "not minimal: {:?}", p.givens());
    }
    // The same puzzles whichever engine checks the second pass.
    let with = |engine: &str| {
        let o = GenerateOptions {
            order: Order::SinglesFirst,
            engine: Some(engine.parse().unwrap()),
            node_limit: 10_000_000,
            ..options(16, Target::Clues(100), 7)
        };
        generate(o, 1)
    };
    assert_eq!(with("dlx"), with("sat-incremental"));
}

/// Without checks the puzzle is cut to the target from its solution, and may have several
/// solutions; minimal targets and spread with singles-first are refused.
#[test]
fn unchecked_puzzles_are_cut_from_their_solution() {
    let o = GenerateOptions {
        unique: false,
        ..options(9, Target::Clues(20), 3)
    };
    let mut g = Generator::new(o.clone()).unwrap();
    let mut multiple = 0;
    for _ in 0..10 {
        let p = g.next_puzzle().unwrap();
        assert_eq!(p.clues(), 20);
        assert_eq!(p.check_solution(g.last_solution()), Ok(()));
        if status(&mut *checker(), &p) == Status::Multiple {
            multiple += 1;
        }
    }
    assert!(multiple > 0, "20 random givens of 9x9 are rarely unique");
    let minimal = GenerateOptions {
        target: Target::Minimal,
        ..o
    };
    assert!(matches!(
        Generator::new(minimal).unwrap_err(),
        GenerateError::MinimalUnchecked
    ));
    let spread = GenerateOptions {
        spread: true,
        order: Order::SinglesFirst,
        ..options(9, Target::Minimal, 0)
    };
    assert!(matches!(
        Generator::new(spread).unwrap_err(),
        GenerateError::OrderWithSpread
    ));
}

/// The nested order: the puzzles are unique (re-checked by another engine), a seed repeats,
/// those within reach of singles are solved by singles alone, and spread is refused with it.
#[test]
fn nested_order_makes_unique_puzzles() {
    let mut human = checker();
    for (size, clues, seed) in [(16, 150, 1), (16, 110, 2), (25, 330, 3)] {
        let o = GenerateOptions {
            order: Order::Nested,
            ..options(size, Target::Clues(clues), seed)
        };
        let a = generate(o.clone(), 2);
        assert_eq!(a, generate(o, 2));
        for p in &a {
            assert_eq!(p.clues(), clues);
            assert_eq!(
                status(&mut *human, p),
                Status::Unique,
                "{size}: {:?}",
                p.givens()
            );
        }
    }
    // 150 of 256 givens is within reach of singles: no check ran, singles fill the grid.
    let o = GenerateOptions {
        order: Order::Nested,
        ..options(16, Target::Clues(150), 1)
    };
    let p = &generate(o, 1)[0];
    assert_eq!(
        Singles::new(p.geometry()).run(p.givens(), None),
        Closure::Filled
    );
    let spread = GenerateOptions {
        spread: true,
        order: Order::Nested,
        ..options(9, Target::Minimal, 0)
    };
    assert!(matches!(
        Generator::new(spread).unwrap_err(),
        GenerateError::OrderWithSpread
    ));
}

/// The nested-squares order is a permutation whose first `k^2` cells are the square of `k`
/// rows by `k` columns, for every `k`.
#[test]
fn nested_order_grows_squares() {
    let n = 12;
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut order: Vec<usize> = (0..n * n).collect();
    order.shuffle(&mut rng);
    let nested = nested_order(n, order, &mut rng);
    let mut sorted = nested.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..n * n).collect::<Vec<_>>());
    for k in 1..=n {
        let prefix = &nested[..k * k];
        let rows: std::collections::BTreeSet<usize> = prefix.iter().map(|c| c / n).collect();
        let cols: std::collections::BTreeSet<usize> = prefix.iter().map(|c| c % n).collect();
        assert_eq!((rows.len(), cols.len()), (k, k), "square {k}");
    }
}

/// The second solutions kept for a minimal puzzle: one per given in row-major order, each a
/// solution of the puzzle without that given other than the puzzle's own (checked here
/// against the houses), whichever check found it (the dlx engine's second solution; singles'
/// filled grid, a digit-pair swap or the solver's model in `sat-incremental`). Keeping them
/// changes no puzzle, and a clue target keeps none.
#[test]
fn second_solutions_show_each_given_of_a_minimal_puzzle_is_needed() {
    for (engine, size, jigsaw, count) in [
        ("dlx", 9, false, 6),
        ("dlx", 9, true, 3),
        ("sat-incremental", 9, false, 6),
        ("sat-incremental:backend=varisat,block=5", 16, false, 1),
        ("sat-incremental", 16, true, 1),
    ] {
        let spec: EngineSpec = engine.parse().unwrap();
        let o = GenerateOptions {
            engine: Some(spec.clone()),
            node_limit: default_node_limit(&spec, Target::Minimal),
            jigsaw,
            ..options(size, Target::Minimal, 5)
        };
        let plain = generate(o.clone(), count);
        let mut g = Generator::new(GenerateOptions {
            second_solutions: true,
            ..o
        })
        .unwrap();
        for expected in &plain {
            let p = g.next_puzzle().unwrap();
            assert_eq!(
                &p, expected,
                "{engine}: keeping second solutions changed a puzzle"
            );
            let seconds = g.last_second_solutions().unwrap();
            let given: Vec<usize> = (0..p.geometry().cells())
                .filter(|&c| p.givens()[c] != 0)
                .collect();
            assert_eq!(seconds.len(), given.len(), "{engine}");
            for (&cell, second) in given.iter().zip(seconds) {
                let mut fewer = p.givens().to_vec();
                fewer[cell] = 0;
                let q = Puzzle::new(p.shared_geometry().clone(), fewer).unwrap();
                assert!(q.check_solution(second).is_ok(), "{engine}: cell {cell}");
                assert_ne!(
                    second.as_slice(),
                    g.last_solution(),
                    "{engine}: cell {cell}"
                );
            }
        }
        if let Checker::Sat(c) = &g.checker {
            // Every kind of witness was taken at least once over these runs.
            assert!(c.stats.by_singles > 0, "{engine}: {:?}", c.stats);
            if size == 16 {
                assert!(c.stats.sat_calls > 0, "{engine}: {:?}", c.stats);
                assert!(c.stats.by_swaps > 0, "{engine}: {:?}", c.stats);
            }
        }
    }
    let mut clues = Generator::new(GenerateOptions {
        second_solutions: true,
        ..options(9, Target::Clues(30), 5)
    })
    .unwrap();
    clues.next_puzzle().unwrap();
    assert!(clues.last_second_solutions().is_none());
}
