//! Pieces to board (project issue 5): pieces cut from known jigsaw layouts are put back by
//! both tiling methods, which agree tiling for tiling; the samples give their known sudoku
//! solutions; `sudolab tile` reports limits, zero tilings and bad input as documented.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use sudolab::engines::Limits;
use sudolab::tiling::jigsaw::canonical;
use sudolab::tiling::{cut, read_pieces_file, read_pieces_str, write_pieces, Method, Placements};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sudolab"))
        .args(args)
        .output()
        .expect("run sudolab")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A tiled board: canonical region layout and givens.
type Board = (Vec<u16>, Vec<u16>);

/// Every tiling of a method as a board, sorted, with whether the search completed.
fn boards(method: Method, p: &Placements) -> (Vec<Board>, bool) {
    let limits = Limits {
        max_solutions: 0,
        time_limit: Some(std::time::Duration::from_secs(60)),
        ..Limits::default()
    };
    let mut all = Vec::new();
    let r = method.enumerate(p, &limits, |t| {
        let (region, givens) = p.board(t);
        all.push((canonical(&region, p.n), givens));
    });
    all.sort();
    (all, r.end == sudolab::tiling::End::Complete)
}

/// Random connected layouts of side 4, 5 and 6 (tests/common), filled with a random valid
/// grid and cut into pieces with some givens: the original board is among the tilings, and
/// DLX and the seed's backtracking find exactly the same tilings, with and without rotations.
#[test]
fn random_layouts_are_put_back_and_methods_agree() {
    let mut rng = common::rng(20261205);
    let cases: &[(usize, usize, bool)] = &[
        (4, 6, false),
        (4, 6, true),
        (5, 5, false),
        (5, 4, true),
        (6, 4, false),
        (6, 1, true),
    ];
    let mut tested = 0;
    for &(n, seeds, rotations) in cases {
        for _ in 0..seeds {
            let layout = common::random_layout(n, &mut rng);
            let g = sudolab::puzzle::Geometry::jigsaw(n, layout.clone()).unwrap();
            let Some(full) = common::random_grid(&g, &mut rng) else {
                continue;
            };
            // Keep every third cell as a given, so that givens tell pieces apart.
            let givens: Vec<u16> = full
                .iter()
                .enumerate()
                .map(|(i, &d)| if i % 3 == 0 { d } else { 0 })
                .collect();
            let set = cut(n, &layout, &givens);
            // Through the text format and back, as a user would give them.
            let set = read_pieces_str(&write_pieces(&set), "cut").unwrap();
            let p = Placements::new(&set, rotations);
            let (dlx, done_d) = boards(Method::Dlx, &p);
            let (bt, done_b) = boards(Method::Backtrack, &p);
            assert!(
                done_d && done_b,
                "n={n} rotations={rotations}: a search hit its limit"
            );
            assert_eq!(dlx, bt, "n={n} rotations={rotations} layout {layout:?}");
            let original = (canonical(&layout, n), givens.clone());
            assert!(
                dlx.contains(&original),
                "n={n} rotations={rotations}: the original board is not among {} tilings",
                dlx.len()
            );
            tested += 1;
        }
    }
    // The filler may give up on a layout; most must have been tested.
    assert!(tested >= 20, "only {tested} layouts tested");
}

/// The samples are the pieces of the puzzles data/PROVENANCE.md names: cutting the first
/// puzzle of data/examples/jigsaw-9x9.txt gives data/pieces/jigsaw-9x9.txt, piece for piece.
#[test]
fn nine_by_nine_sample_is_cut_from_the_example() {
    let puzzles = sudolab::puzzle::read_puzzles(&data("examples/jigsaw-9x9.txt")).unwrap();
    let first = &puzzles[0];
    let g = first.geometry();
    let set = cut(9, g.regions(), first.givens());
    let sample = read_pieces_file(&data("pieces/jigsaw-9x9.txt")).unwrap();
    let mut a: Vec<_> = set.pieces.iter().map(|p| p.cells.clone()).collect();
    let mut b: Vec<_> = sample.pieces.iter().map(|p| p.cells.clone()).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
}

#[test]
fn samples_give_their_known_solutions() {
    for (file, solution, tilings) in [
        (
            "pieces/jigsaw-9x9.txt",
            "982376451415962783327581964546128379671439528139857642763294815258643197894715236",
            "1 tiling (complete)",
        ),
        (
            "pieces/jigsaw-4x4.txt",
            "4312213414233241",
            "4 tilings (complete)",
        ),
        (
            "pieces/jigsaw-5x5.txt",
            "3154224135453215321412453",
            "6 tilings (complete)",
        ),
        (
            "pieces/jigsaw-6x6.txt",
            "135624423165342516651432516243264351",
            "2 tilings (complete)",
        ),
    ] {
        let path = data(file);
        let o = run(&[
            "tile",
            path.to_str().unwrap(),
            "--method",
            "both",
            "--output",
            "line",
        ]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{file}: {out}{}", stderr(&o));
        assert!(
            out.contains(&format!("tiling dlx: {tilings}")),
            "{file}: {out}"
        );
        assert!(
            out.contains(&format!("tiling backtrack: {tilings}")),
            "{file}: {out}"
        );
        assert!(out.contains("methods agree: same tilings"), "{file}: {out}");
        assert!(
            out.lines().any(|l| l == solution),
            "{file}: known solution not printed:\n{out}"
        );
    }
    // With rotations the 9x9 pieces tile the board in 8 ways: the eight symmetries of the
    // original board, each a valid puzzle with a unique solution.
    let o = run(&[
        "tile",
        data("pieces/jigsaw-9x9.txt").to_str().unwrap(),
        "--rotations",
        "--show",
        "0",
    ]);
    let out = stdout(&o);
    assert!(out.contains("tiling dlx: 8 tilings (complete)"), "{out}");
    assert!(
        out.contains("8 of 8 tilings with a solution, 8 with a unique one"),
        "{out}"
    );
}

#[test]
fn both_methods_agree_with_rotations_on_the_6x6_sample() {
    let o = run(&[
        "tile",
        data("pieces/jigsaw-6x6.txt").to_str().unwrap(),
        "--rotations",
        "--method",
        "both",
        "--show",
        "0",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("tiling dlx: 320 tilings (complete)"), "{out}");
    assert!(
        out.contains("tiling backtrack: 320 tilings (complete)"),
        "{out}"
    );
    assert!(out.contains("methods agree: same tilings"), "{out}");
}

fn temp(text: &str) -> tempfile::NamedTempFile {
    use std::io::Write;
    let mut f = tempfile::NamedTempFile::new().unwrap();
    f.write_all(text.as_bytes()).unwrap();
    f
}

#[test]
fn pieces_that_cannot_tile_give_zero_tilings() {
    // Three L-trominoes never tile the 3x3 board.
    let f = temp("xx\nx\n\nxx\nx\n\nxx\nx\n");
    let o = run(&[
        "tile",
        f.path().to_str().unwrap(),
        "--rotations",
        "--method",
        "both",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(out.contains("tiling dlx: 0 tilings (complete)"), "{out}");
    assert!(
        out.contains("tiling backtrack: 0 tilings (complete)"),
        "{out}"
    );
}

#[test]
fn limits_are_reported() {
    let path = data("pieces/jigsaw-4x4.txt");
    let path = path.to_str().unwrap();
    let o = run(&[
        "tile",
        path,
        "--rotations",
        "--max-tilings",
        "3",
        "--method",
        "both",
    ]);
    let out = stdout(&o);
    assert!(out.contains("tiling dlx: 3 tilings (max-tilings)"), "{out}");
    assert!(out.contains("methods agree: same count"), "{out}");
    let o = run(&[
        "tile",
        path,
        "--rotations",
        "--node-limit",
        "7",
        "--method",
        "backtrack",
    ]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0));
    assert!(out.contains("(node-limit); nodes 7,"), "{out}");
}

/// Bad input: `file:line:column: message`, exit 2, never a panic.
#[test]
fn bad_pieces_are_reported_with_position() {
    for (text, want) in [
        ("xx\nx?\n", ":2:2: expected '.', 'x', '0' or a digit symbol"),
        (
            "size 3\nxxx\n\nxx\nx\n\nxx\n",
            ":7:1: piece 3 has 2 cells, expected 3",
        ),
        ("size 3\nxxx\n\nxxx\n", ":5:1: expected 3 pieces"),
        ("xx\n\nx.x\n", ":3:3: piece 2 is not connected"),
        ("size 40\n", ":1:6: expected `size N`"),
        ("xA\n\nxx\n", ":1:2: expected a given 1..=2, found 'A' = 10"),
        ("# only a comment\n", ":2:1: expected pieces, found none"),
    ] {
        let f = temp(text);
        let name = f.path().to_str().unwrap().to_string();
        let o = run(&["tile", &name]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{text:?}: {err}");
        assert!(err.contains(&format!("{name}{want}")), "{text:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = run(&["tile", "/no/such/pieces.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/no/such/pieces.txt:0:0: cannot read"));
    let o = run(&[
        "tile",
        data("pieces/jigsaw-4x4.txt").to_str().unwrap(),
        "--engine",
        "nope",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown engine"));
}

/// An engine that cannot solve the tilings' jigsaw sudoku (`fast`: 9x9 classic and X only) is
/// a usage error that says so, with the engine's own reason; not a quiet "undecided", exit 0.
#[test]
fn an_engine_without_jigsaw_support_is_refused_with_its_reason() {
    let path = data("pieces/jigsaw-9x9.txt");
    let o = run(&["tile", path.to_str().unwrap(), "--engine", "fast"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(
        out.contains("0 undecided, 1 unsupported by the engine"),
        "{out}"
    );
    assert!(
        err.contains("expected an engine that solves 9x9 jigsaw sudoku")
            && err.contains("found --engine fast which answered unsupported on 1 distinct puzzle")
            && err.contains("fast handles 9x9 grids with 3x3 boxes"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
    // the same pieces with an engine that takes jigsaw grids: no such message, exit 0
    let o = run(&["tile", path.to_str().unwrap(), "--engine", "human"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!stdout(&o).contains("unsupported"), "{}", stdout(&o));
}
