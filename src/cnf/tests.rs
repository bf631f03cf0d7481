//! Tests of the encodings: the published sizes exactly, DIMACS and model round trips, decoding.

use super::*;
use crate::puzzle::{Geometry, Puzzle};
use std::sync::Arc;

/// The puzzles of a data file, read by the library's reader.
pub(crate) fn lines81(name: &str) -> Vec<Puzzle> {
    let p = format!("{}/data/{name}", env!("CARGO_MANIFEST_DIR"));
    crate::puzzle::read_puzzles(std::path::Path::new(&p)).unwrap_or_else(|e| panic!("{e}"))
}

fn opts(encoding: CnfEncoding, amo: Amo, dedup: bool) -> CnfOptions {
    CnfOptions {
        encoding,
        amo,
        givens: GivensMode::Units,
        dedup,
        probe: false,
        locked: false,
        sum: Default::default(),
    }
}

fn empty_size(n: usize, encoding: CnfEncoding, amo: Amo, dedup: bool) -> SizeStats {
    size_stats_empty(n, &opts(encoding, amo, dedup)).unwrap()
}

#[test]
fn published_sizes_9x9_pairwise() {
    use CnfEncoding::*;
    let s = |e| empty_size(9, e, Amo::Pairwise, false);
    assert_eq!(s(Minimal).vars, 729);
    assert_eq!(s(Minimal).clauses, 8829);
    assert_eq!(s(Efficient).clauses, 11745);
    assert_eq!(s(Extended).clauses, 11988);
    assert_eq!(s(Extended).literals, 26244);
    assert_eq!(s(Extended).vars, 729);
    // The same formula materialised has the same size as the counted one.
    let p = Puzzle::empty(Arc::new(Geometry::square(9).unwrap()));
    let cnf = encode(&p, &opts(Extended, Amo::Pairwise, false));
    assert_eq!(
        (cnf.num_vars, cnf.clauses.len(), cnf.clauses.literals()),
        (729, 11988, 26244)
    );
}

#[test]
fn published_sizes_other_sides() {
    use CnfEncoding::*;
    for (n, minimal, extended) in [(4, 304, 448), (16, 92416, 123904), (25, 563125, 752500)] {
        assert_eq!(
            empty_size(n, Minimal, Amo::Pairwise, false).clauses,
            minimal,
            "N={n}"
        );
        assert_eq!(
            empty_size(n, Extended, Amo::Pairwise, false).clauses,
            extended,
            "N={n}"
        );
        assert_eq!(
            empty_size(n, Extended, Amo::Pairwise, false).vars,
            (n * n * n) as u64
        );
    }
}

#[test]
fn dedup_sizes_9x9() {
    use CnfEncoding::*;
    assert_eq!(empty_size(9, Minimal, Amo::Pairwise, true).clauses, 7371);
    assert_eq!(empty_size(9, Extended, Amo::Pairwise, true).clauses, 10530);
    // Sequential, binary and product give every group its own auxiliary variables: no
    // clause is written twice, dedup changes nothing.
    for amo in [Amo::Sequential, Amo::Binary, Amo::Product] {
        assert_eq!(
            empty_size(9, Extended, amo, true),
            empty_size(9, Extended, amo, false),
            "{amo}"
        );
    }
    // The commander encoding's subgroups of a box (its rows, in reading order) are also
    // subgroups of the rows: their pairwise clauses come twice, 9 boxes x 3 subgroups x 3
    // pairs x 9 digits = 729 (the published 8100 counts them).
    let c = empty_size(9, Extended, Amo::Commander(3), true);
    assert_eq!((c.vars, c.clauses), (1701, 8100 - 729));
}

#[test]
fn published_sizes_other_amos() {
    let s = |amo| {
        let x = empty_size(9, CnfEncoding::Extended, amo, false);
        (x.vars, x.clauses)
    };
    assert_eq!(s(Amo::Sequential), (3321, 7776));
    assert_eq!(s(Amo::Binary), (2025, 11988));
    assert_eq!(s(Amo::Product), (2673, 8100));
    assert_eq!(s(Amo::Commander(3)), (1701, 8100));
}

#[test]
fn givens_units_or_assumptions() {
    let p = &lines81("norvig-top95.txt")[0];
    let clues = p.clues();
    let u = encode(p, &opts(CnfEncoding::Extended, Amo::Pairwise, false));
    assert_eq!(u.clauses.len(), 11988 + clues);
    assert!(u.assumptions.is_empty());
    let mut o = opts(CnfEncoding::Extended, Amo::Pairwise, false);
    o.givens = GivensMode::Assumptions;
    let a = encode(p, &o);
    assert_eq!(a.clauses.len(), 11988);
    assert_eq!(a.assumptions.len(), clues);
    assert!(o.check().is_ok());
    o.encoding = CnfEncoding::Optimized;
    assert!(o.check().is_err());
}

/// Kwon & Jain's elimination on 17-clue puzzles (the fewest givens, so the least to
/// eliminate): the first 100 of Royle's list shrink about 4x in clauses (3.8 to 4.5 on the
/// first 500), 2.4x in variables; more givens shrink more.
#[test]
fn optimized_shrinks_a_17_clue_formula() {
    let ps = lines81("royle-17clue.txt");
    let mut ratios = Vec::new();
    for p in ps.iter().take(100) {
        assert_eq!(p.clues(), 17);
        let ext = size_stats(p, &opts(CnfEncoding::Extended, Amo::Pairwise, false));
        let opt = size_stats(p, &opts(CnfEncoding::Optimized, Amo::Pairwise, false));
        ratios.push(ext.clauses as f64 / opt.clauses as f64);
        assert!(opt.vars * 2 < ext.vars);
        assert!(opt.literals * 3 < ext.literals);
    }
    let mean = ratios.iter().sum::<f64>() / ratios.len() as f64;
    let min = ratios.iter().copied().fold(f64::MAX, f64::min);
    println!("17-clue, extended/optimized clauses: mean {mean:.2}, min {min:.2}");
    assert!(min > 3.5 && mean > 4.0, "mean {mean} min {min}");
    let p = &ps[0];
    let ext = size_stats(p, &opts(CnfEncoding::Extended, Amo::Pairwise, false));
    let opt = size_stats(p, &opts(CnfEncoding::Optimized, Amo::Pairwise, false));
    println!("first 17-clue puzzle: extended {ext:?}, optimized {opt:?}");
    // A puzzle with more givens (Project Euler 96 grid 1: 32 givens) shrinks more than 5x.
    let pe = lines81("pe96.txt").remove(0);
    let ext = size_stats(&pe, &opts(CnfEncoding::Extended, Amo::Pairwise, false));
    let opt = size_stats(&pe, &opts(CnfEncoding::Optimized, Amo::Pairwise, false));
    let r = ext.clauses as f64 / opt.clauses as f64;
    println!("pe96 grid 1 ({} givens): clause ratio {r:.1}", pe.clues());
    assert!(r > 5.0, "{r}");
    // The map of the optimized formula is explicit and covers only undecided pairs.
    let cnf = encode(p, &opts(CnfEncoding::Optimized, Amo::Pairwise, false));
    let VarMap::Explicit { pairs, .. } = &cnf.info.map else {
        panic!()
    };
    for &(cell, d) in pairs {
        assert_eq!(p.givens()[cell as usize], 0);
        let _ = d;
    }
}

#[test]
fn clashing_givens_make_an_unsat_formula() {
    let g = Arc::new(Geometry::square(4).unwrap());
    let mut givens = vec![0u16; 16];
    givens[0] = 1;
    givens[1] = 1;
    let p = Puzzle::new(g, givens).unwrap();
    let cnf = encode(&p, &opts(CnfEncoding::Optimized, Amo::Pairwise, false));
    assert!(cnf.clauses.iter().any(|c| c.is_empty()));
    for e in CnfEncoding::ALL {
        let cnf = encode(&p, &opts(e, Amo::Pairwise, false));
        let mut b = make_backend("batsat").unwrap();
        b.add_cnf(&cnf);
        assert_eq!(
            b.solve(&[], &Deadline::default()).unwrap(),
            SatAnswer::Unsat,
            "{e}"
        );
    }
}

#[test]
fn variable_numbering_is_row_major() {
    let p = Puzzle::empty(Arc::new(Geometry::square(9).unwrap()));
    let cnf = encode(&p, &CnfOptions::default());
    // r, c 0-based, d 1-based: r*81 + c*9 + d
    assert_eq!(cnf.info.map.var(2 * 9 + 4, 7), Some(2 * 81 + 4 * 9 + 7));
    assert_eq!(cnf.info.map.cell_digit(2 * 81 + 4 * 9 + 7), Some((22, 7)));
    assert_eq!(cnf.info.map.cell_digit(730), None);
    // first clause: cell (0,0) holds at least one digit
    assert_eq!(cnf.clauses.get(0), &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
}

fn round_trip(cnf: &Cnf) -> Dimacs {
    let mut buf = Vec::new();
    write_dimacs(cnf, &mut buf).unwrap();
    let d = read_dimacs(&buf[..]).unwrap();
    assert_eq!(d.num_vars, cnf.num_vars);
    assert_eq!(d.clauses, cnf.clauses);
    let h = parse_header(&d.comments).unwrap();
    assert_eq!(h.info, cnf.info);
    assert_eq!(h.assumptions, cnf.assumptions);
    d
}

#[test]
fn dimacs_round_trip_and_decode() {
    let puzzles = lines81("norvig-top95.txt");
    for (i, e) in CnfEncoding::ALL.into_iter().enumerate() {
        let p = &puzzles[i];
        let mut o = opts(e, Amo::ALL[i % 5], i % 2 == 0);
        if i == 1 {
            o.givens = GivensMode::Assumptions;
        }
        let cnf = encode(p, &o);
        let d = round_trip(&cnf);
        let mut b = make_backend("batsat").unwrap();
        b.add_cnf(&cnf);
        let SatAnswer::Sat(m) = b.solve(&cnf.assumptions, &Deadline::default()).unwrap() else {
            panic!("{e}: not sat")
        };
        let grid = decode_checked(&d, &m).unwrap();
        p.check_solution(&grid).unwrap();
        assert_eq!(decode(&cnf.info, &m).unwrap(), grid);
        // A model that breaks a clause is refused.
        let mut bad = m.lits();
        let flip = bad.iter().position(|&l| l > 0).unwrap();
        bad[flip] = -bad[flip];
        assert!(decode_checked(&d, &Model::from_lits(&bad)).is_err());
    }
}

#[test]
fn dimacs_round_trip_jigsaw_x_and_big() {
    let g = Geometry::jigsaw(4, vec![0, 0, 1, 1, 0, 2, 1, 1, 0, 2, 3, 3, 2, 2, 3, 3])
        .unwrap()
        .with_diagonals(true);
    let p = Puzzle::empty(Arc::new(g));
    round_trip(&encode(&p, &CnfOptions::default()));
    // N = 36 writes the puzzle line as integers; a nearly full grid keeps the optimized
    // formula small: the pattern grid (6*(r%6) + r/6 + c) % 36 + 1 with 12 cells emptied.
    let g = Geometry::square(36).unwrap();
    let mut givens: Vec<u16> = (0..36 * 36)
        .map(|i| {
            let (r, c) = (i / 36, i % 36);
            ((6 * (r % 6) + r / 6 + c) % 36 + 1) as u16
        })
        .collect();
    g.check_grid(&givens).unwrap();
    for i in 0..12 {
        givens[i * 97] = 0;
    }
    let p = Puzzle::new(Arc::new(g), givens).unwrap();
    let o = opts(CnfEncoding::Optimized, Amo::Binary, false);
    round_trip(&encode(&p, &o));
}

#[test]
fn dimacs_reader_errors_name_line_and_column() {
    let e = read_dimacs_str("c x\np cnf 2 1\n1 -3 0\n").unwrap_err();
    assert_eq!((e.line, e.column), (3, 3));
    let e = read_dimacs_str("p cnf 2 2\n1 2 0\n").unwrap_err();
    assert_eq!(e.line, 1);
    let e = read_dimacs_str("p cnf 2 1\n1 2\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    let e = read_dimacs_str("1 2 0\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 1));
    let e = read_dimacs_str("p cnf 2 1\n  1 x 0\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 5));
    let e = read_dimacs_str("p dnf 2 1\n").unwrap_err();
    assert_eq!(e.line, 1);
    let d = read_dimacs_str("c hi\np cnf 3 2\n1 -2\n 3 0 -1 0\n%\n0\n").unwrap();
    assert_eq!(d.clauses.get(0), &[1, -2, 3]);
    assert_eq!(d.clauses.get(1), &[-1]);
    assert_eq!(d.comments, vec![(1, "hi".to_string())]);
}

/// Pigeonhole: `p` pigeons in `p - 1` holes, hard for CDCL (minutes at p = 12).
fn pigeonhole(b: &mut dyn SatBackend, p: usize) {
    let h = p - 1;
    let var = |i: usize, j: usize| (i * h + j + 1) as i32;
    for i in 0..p {
        let c: Vec<i32> = (0..h).map(|j| var(i, j)).collect();
        b.add_clause(&c);
    }
    for j in 0..h {
        for i in 0..p {
            for k in i + 1..p {
                b.add_clause(&[-var(i, j), -var(k, j)]);
            }
        }
    }
}

/// Every embedded backend stops a hard call at the deadline and on the cancel flag, during
/// search (bounds generous: the point is minutes versus well under a second).
#[test]
fn embedded_backends_stop_at_the_deadline_and_on_cancel() {
    for name in ["batsat", "varisat"] {
        let mut b = make_backend(name).unwrap();
        b.expect_limits();
        pigeonhole(b.as_mut(), 12);
        let budget = Deadline {
            at: Some(std::time::Instant::now() + std::time::Duration::from_millis(200)),
            cancel: None,
        };
        let t = std::time::Instant::now();
        let a = b.solve(&[], &budget).unwrap();
        assert_eq!(a, SatAnswer::Interrupted(Interrupt::Time), "{name}");
        assert!(
            t.elapsed() < std::time::Duration::from_secs(3),
            "{name}: {:?}",
            t.elapsed()
        );

        let mut b = make_backend(name).unwrap();
        b.expect_limits();
        pigeonhole(b.as_mut(), 12);
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let budget = Deadline {
            at: None,
            cancel: Some(flag.clone()),
        };
        let setter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(150));
            flag.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        let t = std::time::Instant::now();
        let a = b.solve(&[], &budget).unwrap();
        setter.join().unwrap();
        assert_eq!(a, SatAnswer::Interrupted(Interrupt::Cancelled), "{name}");
        assert!(t.elapsed() < std::time::Duration::from_secs(3), "{name}");
    }
    let mut v = make_backend("varisat").unwrap();
    v.add_clause(&[1]);
    let spent = Deadline {
        at: Some(std::time::Instant::now()),
        cancel: None,
    };
    assert_eq!(
        v.solve(&[], &spent).unwrap(),
        SatAnswer::Interrupted(Interrupt::Time)
    );
}

/// A conflict limit stops a hard call at the same point on every run (deterministic), and the
/// limit is per call: batsat stops right after the limit-th conflict.
#[test]
fn conflict_limit_is_deterministic_and_per_call() {
    for name in ["batsat", "varisat", "cadical"] {
        let run = || {
            let mut b = make_backend(name).unwrap();
            b.set_conflict_limit(Some(300));
            pigeonhole(b.as_mut(), 10);
            let a = b.solve(&[], &Deadline::default()).unwrap();
            (a, b.stats())
        };
        let (a, s) = run();
        assert_eq!(
            a,
            SatAnswer::Interrupted(Interrupt::ConflictLimit),
            "{name}"
        );
        assert_eq!(run().1, s, "{name}: the same stop on a second run");
        if let Some(c) = s.conflicts {
            assert!((300..=301).contains(&c), "{name}: {c} conflicts");
        }
        // CaDiCaL's learner hook: a clause per conflict, less those chronological
        // backtracking resolves without one; CaDiCaL reads its limit once per round of its
        // search loop, so a few conflicts may pass it (302 here).
        if let Some(l) = s.learned {
            assert!((150..=310).contains(&l), "{name}: {l} learned");
        }
        assert_eq!(s.learned.is_some(), name == "cadical", "{name}");
    }
    // Per call: a second call on batsat gets another 300 conflicts.
    let mut b = make_backend("batsat").unwrap();
    b.set_conflict_limit(Some(300));
    pigeonhole(b.as_mut(), 10);
    for k in 1..=2u64 {
        let a = b.solve(&[], &Deadline::default()).unwrap();
        assert_eq!(a, SatAnswer::Interrupted(Interrupt::ConflictLimit));
        let c = b.stats().conflicts.unwrap();
        assert!((300 * k..=300 * k + 2).contains(&c), "call {k}: {c}");
    }
    // Lifted: an easy formula is answered.
    b.set_conflict_limit(None);
    let mut e = make_backend("batsat").unwrap();
    e.set_conflict_limit(Some(1));
    e.add_clause(&[1, 2]);
    assert!(matches!(
        e.solve(&[], &Deadline::default()).unwrap(),
        SatAnswer::Sat(_)
    ));
}

#[test]
fn assumptions_are_written_as_a_comment() {
    let p = &lines81("norvig-top95.txt")[0];
    let o = CnfOptions {
        givens: GivensMode::Assumptions,
        ..CnfOptions::default()
    };
    let cnf = encode(p, &o);
    let mut buf = Vec::new();
    write_dimacs(&cnf, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    assert!(text.contains("c givens assumptions\n"));
    assert!(text.contains("\nc assume "));
    assert!(text.contains("\np cnf 729 11988\n"));
    assert!(text.contains("c map formula"));
}

/// The engine's path (`encode_with`, one `Scratch` for every puzzle, formulas handed back with
/// `recycle`) gives the formula of `encode`, whatever came before: sides 4, 9 and 16, jigsaw
/// and X, clashing givens, every encoding, AMO, givens mode and duplicate filter.
#[test]
fn encode_with_reused_scratch_equals_encode() {
    let mut puzzles = lines81("magictour-top1465.txt");
    puzzles.truncate(3);
    for f in [
        "examples/6x6.txt",
        "examples/jigsaw-9x9.txt",
        "examples/x-9x9.txt",
    ] {
        puzzles.extend(lines81(f).into_iter().take(2));
    }
    puzzles.extend(lines81("rk-16x16.txt").into_iter().take(1));
    let g4 = Arc::new(Geometry::square(4).unwrap());
    let mut clash = vec![0u16; 16];
    clash[0] = 1;
    clash[5] = 1; // same box
    puzzles.push(Puzzle::new(g4.clone(), clash).unwrap());
    puzzles.push(Puzzle::empty(g4));
    let mut scratch = Scratch::new();
    for p in &puzzles {
        for encoding in CnfEncoding::ALL {
            for amo in Amo::ALL {
                for givens in [GivensMode::Units, GivensMode::Assumptions] {
                    for dedup in [false, true] {
                        let o = CnfOptions {
                            encoding,
                            amo,
                            givens,
                            dedup,
                            probe: false,
                            locked: false,
                            sum: Default::default(),
                        };
                        let a = encode(p, &o);
                        let b = encode_with(p, &o, &mut scratch);
                        assert_eq!(a.clauses, b.clauses, "{o:?}");
                        assert_eq!(a.num_vars, b.num_vars);
                        assert_eq!(a.assumptions, b.assumptions);
                        assert_eq!(a.info, b.info);
                        let s = size_stats(p, &o);
                        assert_eq!(s.clauses, a.clauses.len() as u64);
                        assert_eq!(s.literals, a.clauses.literals() as u64);
                        scratch.recycle(b);
                    }
                }
            }
        }
    }
}

/// `stats`'s counts (closed form for an empty grid, from the groups otherwise, nothing
/// emitted) equal what the encoder emits, variables included: every encoding and AMO, sides 1
/// to 16, X and jigsaw, and puzzles with givens.
#[test]
fn closed_form_counts_equal_materialised_counts() {
    let mut puzzles: Vec<Puzzle> = [1usize, 2, 3, 4, 6, 8, 9, 12, 16]
        .into_iter()
        .map(|n| Puzzle::empty(Arc::new(Geometry::square(n).unwrap())))
        .collect();
    puzzles.push(Puzzle::empty(Arc::new(
        Geometry::square(9).unwrap().with_diagonals(true),
    )));
    puzzles.push(Puzzle::empty(Arc::new(
        Geometry::jigsaw(4, vec![0, 0, 1, 1, 0, 2, 1, 1, 0, 2, 3, 3, 2, 2, 3, 3]).unwrap(),
    )));
    puzzles.extend(lines81("norvig-top95.txt").into_iter().take(2));
    puzzles.extend(lines81("examples/jigsaw-9x9.txt").into_iter().take(1));
    for p in &puzzles {
        for e in CnfEncoding::ALL {
            for amo in Amo::ALL.into_iter().chain([Amo::Bimander(3)]) {
                let o = opts(e, amo, false);
                let counted = size_stats(p, &o);
                let emitted = size::size_emitted(p, &o);
                assert_eq!(counted, emitted, "{} {e} {amo}", p.n());
                let cnf = encode(p, &o);
                assert_eq!(counted.vars, cnf.num_vars as u64);
            }
        }
    }
}

/// `reduced` writes the cells that propagation placed into the header (`c fixed`), so that
/// `decode` maps a model of the smaller formula back to the full grid.
#[test]
fn reduced_round_trip_decodes_the_full_grid() {
    let puzzles = lines81("norvig-top95.txt");
    for p in puzzles.iter().take(4) {
        let o = opts(CnfEncoding::Reduced, Amo::AUTO, false);
        let cnf = encode(p, &o);
        let opt = encode(p, &opts(CnfEncoding::Optimized, Amo::AUTO, false));
        assert!(cnf.num_vars <= opt.num_vars);
        assert!(cnf.info.fixed.iter().filter(|&&d| d != 0).count() >= p.clues());
        let d = round_trip(&cnf);
        let mut b = make_backend("batsat").unwrap();
        b.add_cnf(&cnf);
        let SatAnswer::Sat(m) = b.solve(&[], &Deadline::default()).unwrap() else {
            panic!("not sat")
        };
        let grid = decode_checked(&d, &m).unwrap();
        p.check_solution(&grid).unwrap();
        // Every placed cell agrees with the solution (the puzzles are unique).
        for (&f, &g) in cnf.info.fixed.iter().zip(&grid) {
            assert!(f == 0 || f == g);
        }
    }
    // A clash that only propagation finds: the empty clause, no variable.
    let g = Arc::new(Geometry::square(4).unwrap());
    // Row 1: 1 2 3 . ; r2c4 = 4: r1c4 must be 4 (naked single), clash with r2c4.
    let mut givens = vec![0u16; 16];
    givens[..3].copy_from_slice(&[1, 2, 3]);
    givens[7] = 4;
    let p = Puzzle::new(g, givens).unwrap();
    assert!(p.clash().is_none());
    let cnf = encode(&p, &opts(CnfEncoding::Reduced, Amo::AUTO, false));
    assert_eq!(cnf.clauses.len(), 1);
    assert!(cnf.clauses.get(0).is_empty());
    assert_eq!(cnf.num_vars, 0);
}

/// Encodes `p` (extended, pairwise) under `limits` into a counter, checks that the time budget
/// stopped it, and returns what was written before the stop.
fn encode_until_time_stop(p: &Puzzle, limits: &EncodeLimits) -> Counter {
    let mut c = Counter::default();
    let r = encode_into(
        p,
        &opts(CnfEncoding::Extended, Amo::Pairwise, false),
        &mut c,
        &mut Scratch::new(),
        limits,
    );
    assert_eq!(r.unwrap_err(), EncodeStop::Interrupted(Interrupt::Time));
    c
}

/// With a teardown reserve the encoder stops before the deadline: loading stops once the
/// time left is what freeing the clauses loaded so far would take.
#[test]
fn encoding_leaves_time_to_free_the_solver() {
    let p = Puzzle::empty(Arc::new(Geometry::square(36).unwrap()));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let limits = EncodeLimits {
        max_literals: None,
        budget: Deadline {
            at: Some(deadline),
            cancel: None,
        },
        // A reserve of 2 x 1 ms per clause: 30 s are spent after at most 15000 clauses.
        teardown: Some(crate::cnf::Teardown {
            ns_per_clause: 1e6,
            watch: crate::timing::Stopwatch::start(),
        }),
    };
    let c = encode_until_time_stop(&p, &limits);
    assert!(std::time::Instant::now() < deadline);
    // Stopped at the first check past 15000 clauses at the latest (the reserve grows with
    // the load factor; pairwise clauses have 2 literals), far short of the whole formula.
    assert!(c.clauses > 0 && c.literals <= 15_000 * 2 + 2 * CHECK_EVERY_LITERALS);
}

/// The budget stops the encoder: a deadline already passed ends a large encoding early.
#[test]
fn encoding_stops_at_the_deadline() {
    let p = Puzzle::empty(Arc::new(Geometry::square(36).unwrap()));
    let limits = EncodeLimits {
        max_literals: None,
        budget: Deadline {
            at: Some(std::time::Instant::now()),
            cancel: None,
        },
        teardown: None,
    };
    let c = encode_until_time_stop(&p, &limits);
    let full = size_stats(&p, &opts(CnfEncoding::Extended, Amo::Pairwise, false));
    assert!(
        c.literals < full.literals / 2,
        "{} of {}",
        c.literals,
        full.literals
    );
}

/// `prefer` steers batsat's first decisions (MiniSat's user polarity) without changing what
/// is satisfiable; the other backends accept and ignore it.
#[test]
fn preferred_values_steer_the_model_not_the_answer() {
    let model = |name: &str, prefer: &[i32]| {
        let mut b = make_backend(name).unwrap();
        b.prefer(prefer);
        b.reserve_vars(3);
        b.add_clause(&[1, 2]);
        b.add_clause(&[-1, -3]);
        match b.solve(&[], &Deadline::default()).unwrap() {
            SatAnswer::Sat(m) => (1..=3).map(|v| m.is_true(v)).collect::<Vec<_>>(),
            other => panic!("{name}: {other:?}"),
        }
    };
    // batsat's own polarity is false: 1 false, then 2 forced, 3 false.
    assert_eq!(model("batsat", &[]), [false, true, false]);
    assert_eq!(model("batsat", &[1, 2]), [true, true, false]);
    assert_eq!(model("batsat", &[-2, 3]), [false, true, true]);
    for name in ["varisat", "cadical"] {
        let m = model(name, &[1, 2, 3]);
        assert!((m[0] || m[1]) && !(m[0] && m[2]), "{name}: {m:?}");
    }
}

/// Grids of a formula without auxiliary variables, counted by blocking each model's true
/// literals (exactly one digit per cell: one model per grid), up to `cap`.
fn count_grids(cnf: &Cnf, cap: usize) -> usize {
    let mut b = make_backend("batsat").unwrap();
    b.add_cnf(cnf);
    let mut found = 0;
    while found < cap {
        match b.solve(&[], &Deadline::default()).unwrap() {
            SatAnswer::Sat(m) => {
                found += 1;
                let block: Vec<i32> = (1..=cnf.num_vars as i32)
                    .filter(|&v| m.is_true(v))
                    .map(|v| -v)
                    .collect();
                if block.is_empty() {
                    break; // no variable: the one grid propagation filled
                }
                b.add_clause(&block);
            }
            SatAnswer::Unsat => break,
            other => panic!("{other:?}"),
        }
    }
    found
}

/// Probing and locked candidates (`reduced` with `probe`, `locked`, or both) remove only what
/// no solution has: the grids of each formula are those of the singles-only one, on seeded
/// random 4x4 and 6x6 puzzles (boxed, X and jigsaw; 3 to 2 + N*N/2 placements) and on 9x9
/// puzzles of norvig-top95 with one given changed to another digit (mostly no solution) or
/// three givens removed (several solutions); clashing givens are skipped. Each must also
/// find clashes and removals that singles alone miss (the test fails if one never does).
#[test]
fn probing_and_locked_candidates_keep_every_solution_and_find_what_singles_miss() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = |k: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % k as u64) as usize
    };
    let geometries = [
        Geometry::square(4).unwrap(),
        Geometry::square(6).unwrap(),
        Geometry::square(6).unwrap().with_diagonals(true),
        crate::puzzle::jigsaw6_for_tests(),
    ];
    let mut puzzles = Vec::new();
    for g in geometries {
        let n = g.n();
        let g = Arc::new(g);
        for _ in 0..300 {
            let mut givens = vec![0u16; n * n];
            for _ in 0..3 + next(n * n / 2) {
                givens[next(n * n)] = 1 + next(n) as u16;
            }
            puzzles.push(Puzzle::new(g.clone(), givens).unwrap());
        }
    }
    for p in lines81("norvig-top95.txt").iter().take(40) {
        let filled: Vec<usize> = (0..81).filter(|&c| p.givens()[c] != 0).collect();
        let mut changed = p.givens().to_vec();
        let c = filled[next(filled.len())];
        changed[c] = 1 + (changed[c] as usize + next(8)) as u16 % 9;
        let mut fewer = p.givens().to_vec();
        for _ in 0..3 {
            fewer[filled[next(filled.len())]] = 0;
        }
        for givens in [changed, fewer] {
            puzzles.push(Puzzle::new(p.shared_geometry().clone(), givens).unwrap());
        }
    }
    let plain = opts(CnfEncoding::Reduced, Amo::AUTO, false);
    let variants = [
        CnfOptions {
            probe: true,
            ..plain
        },
        CnfOptions {
            locked: true,
            ..plain
        },
        CnfOptions {
            probe: true,
            locked: true,
            ..plain
        },
    ];
    for strong in variants {
        let (mut clashes, mut shrunk, mut tried) = (0, 0, 0);
        for p in puzzles.iter().filter(|p| p.clash().is_none()) {
            tried += 1;
            let (a, b) = (encode(p, &plain), encode(p, &strong));
            assert!(b.num_vars <= a.num_vars);
            let count = count_grids(&a, 200);
            assert_eq!(
                count_grids(&b, 200),
                count,
                "{strong:?} {}x{} {:?}",
                p.n(),
                p.n(),
                p.givens()
            );
            if count == 0 && a.num_vars > 0 && b.num_vars == 0 {
                assert_eq!(b.clauses.len(), 1);
                assert!(b.clauses.get(0).is_empty());
                clashes += 1;
            }
            if count > 0 && b.num_vars < a.num_vars {
                shrunk += 1;
            }
        }
        assert!(
            tried > 300 && clashes > 0 && shrunk > 10,
            "{strong:?}: {tried} {clashes} {shrunk}"
        );
    }
}

/// Locked candidates on a hand-made 9x9 (Stuart's pointing): the six cells of the top-left
/// box's second and third columns hold 2..7, so that box's 1 is in the first column, and no
/// other cell of the first column can hold it; singles alone remove none of those. With the
/// bottom-left box filled the same way, both boxes need their 1 in the first column: a clash
/// that only locked candidates find.
#[test]
fn locked_candidates_point_from_a_box_to_a_column() {
    let g = Arc::new(Geometry::square(9).unwrap());
    let mut givens = vec![0u16; 81];
    // Fills the second and third columns of the three rows from `row` (0-based), row by row.
    let mut give = |row: usize, digits: [u16; 6]| {
        for (i, d) in digits.into_iter().enumerate() {
            givens[(row + i / 2) * 9 + 1 + i % 2] = d;
        }
        givens.clone()
    };
    let top = give(0, [2, 3, 4, 5, 6, 7]);
    let p = Puzzle::new(g.clone(), top).unwrap();
    let mut scratch = Scratch::new();
    let budget = Deadline::default();
    let rules = |locked| Deductions {
        locked,
        probe: false,
    };
    for locked in [false, true] {
        let q = propagate_singles(&p, &mut scratch, &budget, rules(locked))
            .unwrap()
            .unwrap();
        for r in 0..9 {
            // Column 1 keeps the 1 in box 1 (rows 0-2) and, without locked candidates,
            // everywhere else.
            assert_eq!(
                q.has(r * 9, 1),
                r < 3 || !locked,
                "row {r}, locked {locked}"
            );
        }
        assert!(q.has(9 * 4 + 4, 1));
    }
    // Columns 2 and 3 then hold 2..7 once each.
    let both = give(6, [3, 2, 5, 4, 7, 6]);
    let p = Puzzle::new(g, both).unwrap();
    assert!(p.clash().is_none());
    assert!(propagate_singles(&p, &mut scratch, &budget, rules(false))
        .unwrap()
        .is_some());
    assert!(propagate_singles(&p, &mut scratch, &budget, rules(true))
        .unwrap()
        .is_none());
}

/// On unique 9x9 puzzles probing places at least what singles place, and the solution is
/// the same; its header says so, and a model still decodes to the full grid.
#[test]
fn probing_agrees_with_singles_on_unique_puzzles() {
    let plain = opts(CnfEncoding::Reduced, Amo::AUTO, false);
    let probed = CnfOptions {
        probe: true,
        ..plain
    };
    for p in lines81("norvig-top95.txt").iter().take(10) {
        let (a, b) = (encode(p, &plain), encode(p, &probed));
        assert!(b.num_vars <= a.num_vars);
        assert!(a
            .info
            .fixed
            .iter()
            .zip(&b.info.fixed)
            .all(|(&x, &y)| x == 0 || x == y));
        let d = round_trip(&b);
        assert!(parse_header(&d.comments).unwrap().info.options.probe);
        let mut s = make_backend("batsat").unwrap();
        s.add_cnf(&b);
        let SatAnswer::Sat(m) = s.solve(&[], &Deadline::default()).unwrap() else {
            panic!("not sat")
        };
        let grid = decode_checked(&d, &m).unwrap();
        p.check_solution(&grid).unwrap();
        assert_eq!(count_grids(&b, 3), 1);
    }
}

/// Header values out of range are errors, not truncated or folded into a digit: a region
/// number past `u16` (it was read as region 1) and a non-ASCII symbol whose byte is a digit's
/// (`ı`, U+0131, was read as `1`). Each error names the comment line at fault, or no line
/// when a needed comment is missing.
#[test]
fn header_values_out_of_range_are_refused() {
    const BOX4: &str = "geometry 4 box 2x2 diagonals no";
    let regions = format!("regions {}", ["1"; 16].join(" ").replacen('1', "65537", 1));
    let map = "map formula var = (row-1)*N*N + (col-1)*N + digit, vars 1..64";
    // (comment lines after `sudolab cnf`, the line named (None: a missing comment), message)
    let cases: [(Vec<&str>, Option<usize>, &str); 4] = [
        (
            vec![
                "encoding extended",
                "geometry 4 regions diagonals no",
                &regions,
            ],
            Some(4),
            "region number 65537",
        ),
        (
            vec!["encoding extended", BOX4, "puzzle \u{131}..............."],
            Some(4),
            "'\u{131}' is not a digit",
        ),
        (vec![BOX4], None, "no `c encoding` comment"),
        // a map that disagrees with `c primary` is named at the `primary` line
        (
            vec![
                "encoding extended",
                BOX4,
                "puzzle ................",
                map,
                "primary 63",
            ],
            Some(6),
            "`c primary 63`",
        ),
    ];
    for (lines, line, message) in cases {
        let comments: Vec<(usize, String)> = std::iter::once("sudolab cnf")
            .chain(lines)
            .enumerate()
            .map(|(i, l)| (i + 1, l.to_string()))
            .collect();
        let e = parse_header(&comments).unwrap_err();
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(message), "{e}");
    }
}

/// A count too large for the `p cnf` header said "is not a number"; a word is still one.
#[test]
fn header_counts_too_large_are_named_so() {
    let e = read_dimacs_str("p cnf 18446744073709551615 1\n1 0\n").unwrap_err();
    assert_eq!((e.line, e.column), (1, 7), "{e:?}");
    assert!(
        e.message
            .contains("at most 2147483647, found 18446744073709551615, which is too large"),
        "{e:?}"
    );
    let e = read_dimacs_str("p cnf 3 99999999999999999999999\n").unwrap_err();
    assert!(
        e.message.contains("number of clauses") && e.message.contains("too large"),
        "{e:?}"
    );
    let e = read_dimacs_str("p cnf x 1\n").unwrap_err();
    assert!(
        e.message.contains("\"x\", which is not a whole number"),
        "{e:?}"
    );
    let e = read_dimacs_str("p cnf -3 1\n").unwrap_err();
    assert!(e.message.contains("not a whole number"), "{e:?}");
}
