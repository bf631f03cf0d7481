use super::*;
use crate::puzzle::{default_box, GeometryError, Layout as GeoLayout};
use proptest::prelude::*;

fn data(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn read(text: &str) -> Result<(Format, Vec<SourcedPuzzle>), ParseError> {
    read_str(text, "t.txt", &ReadOptions::default())
}

fn read_as(text: &str, format: Format) -> Result<(Format, Vec<SourcedPuzzle>), ParseError> {
    let options = ReadOptions {
        format: Some(format),
        ..ReadOptions::default()
    };
    read_str(text, "t.txt", &options)
}

/// The error of reading `text`, as `(line, column, kind)`.
fn err(result: Result<(Format, Vec<SourcedPuzzle>), ParseError>) -> (usize, usize, ParseErrorKind) {
    match result {
        Ok((f, p)) => panic!("expected an error, read {} puzzles as {f:?}", p.len()),
        Err(e) => {
            // Display is `file:line:column: message`.
            let shown = e.to_string();
            assert!(
                shown.starts_with(&format!("{}:{}:{}: ", e.file, e.line, e.column)),
                "{shown}"
            );
            (e.line, e.column, e.kind)
        }
    }
}

/// A valid solution of side `r * c` with `r x c` boxes.
fn solution(r: usize, c: usize) -> Vec<u16> {
    let n = r * c;
    let mut g = Vec::with_capacity(n * n);
    for row in 0..n {
        for col in 0..n {
            g.push((((row % r) * c + row / r + col) % n + 1) as u16);
        }
    }
    g
}

/// `solution` with some cells emptied (deterministically).
fn puzzle_of(r: usize, c: usize) -> Vec<u16> {
    solution(r, c)
        .into_iter()
        .enumerate()
        .map(|(i, d)| if (i * 7 + i / 3) % 3 == 0 { d } else { 0 })
        .collect()
}

fn line_of(grid: &[u16]) -> String {
    let a = Alphabet::default_alphabet();
    grid.iter().map(|&d| a.symbol(d).unwrap_or('.')).collect()
}

fn all_share_geometry(puzzles: &[SourcedPuzzle]) -> bool {
    puzzles
        .windows(2)
        .all(|w| Arc::ptr_eq(w[0].puzzle.shared_geometry(), w[1].puzzle.shared_geometry()))
}

// ---------------------------------------------------------------- data files

#[test]
fn reads_pe96() {
    let (format, ps) = read_str(&data("pe96.txt"), "pe96.txt", &ReadOptions::default()).unwrap();
    assert_eq!(format, Format::Grid);
    assert_eq!(ps.len(), 50);
    assert_eq!(ps[0].name.as_deref(), Some("Grid 01"));
    assert_eq!(ps[49].name.as_deref(), Some("Grid 50"));
    assert_eq!(ps[0].line, 3);
    assert_eq!(ps[0].form, OutputFormat::Grid);
    assert_eq!(&ps[0].puzzle.givens()[..9], &[0, 0, 3, 0, 2, 0, 6, 0, 0]);
    assert_eq!(ps[0].puzzle.geometry().box_shape(), Some((3, 3)));
    assert!(all_share_geometry(&ps));
    assert!(ps.iter().all(|p| p.puzzle.clash().is_none()));
}

#[test]
fn reads_line_files() {
    for (file, count) in [
        ("norvig-top95.txt", 95),
        ("magictour-top1465.txt", 1465),
        ("forum-hardest-1106.txt", 375),
        ("norvig-hardest.txt", 11),
    ] {
        let (format, ps) = read_str(&data(file), file, &ReadOptions::default()).unwrap();
        assert_eq!(format, Format::Line, "{file}");
        assert_eq!(ps.len(), count, "{file}");
        assert!(ps
            .iter()
            .all(|p| p.puzzle.n() == 9 && p.form == OutputFormat::Line));
        assert!(all_share_geometry(&ps), "{file}");
    }
    let (_, ps) = read(&data("norvig-top95.txt")).unwrap();
    assert_eq!(ps[0].line, 1);
    assert_eq!(
        line_of(ps[0].puzzle.givens()),
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    );
    // magictour starts with two comment lines
    let (_, ps) = read(&data("magictour-top1465.txt")).unwrap();
    assert_eq!(ps[0].line, 3);
}

#[test]
fn reads_royle_17_clue() {
    let (format, ps) = read(&data("royle-17clue.txt")).unwrap();
    assert_eq!(format, Format::Line);
    assert_eq!(ps.len(), 49151);
    assert!(ps.iter().all(|p| p.puzzle.clues() == 17));
    assert!(all_share_geometry(&ps));
    assert_eq!(ps[49150].line, 49151);
}

#[test]
fn reads_rk_16_and_25() {
    let (format, ps) = read(&data("rk-16x16.txt")).unwrap();
    assert_eq!(format, Format::Grid);
    assert_eq!(ps.len(), 1);
    let p = &ps[0].puzzle;
    assert_eq!(p.n(), 16);
    assert_eq!(p.geometry().box_shape(), Some((4, 4)));
    assert_eq!(&p.givens()[..8], &[0, 15, 0, 1, 0, 2, 10, 14]);
    let (format, ps) = read(&data("rk-25x25.txt")).unwrap();
    assert_eq!(format, Format::Grid);
    assert_eq!(ps.len(), 1);
    let p = &ps[0].puzzle;
    assert_eq!(p.n(), 25);
    assert_eq!(p.geometry().box_shape(), Some((5, 5)));
    assert_eq!(&p.givens()[..5], &[0, 0, 12, 6, 0]);
}

// ---------------------------------------------------------------- line format

#[test]
fn line_sizes_and_default_boxes() {
    for (r, c) in [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5), (2, 4)] {
        let givens = puzzle_of(r, c);
        let text = format!("# a comment\n\n{}   trailing words\n", line_of(&givens));
        let (format, ps) = read(&text).unwrap();
        assert_eq!(format, Format::Line, "{r}x{c}");
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].line, 3);
        assert_eq!(ps[0].puzzle.givens(), &givens[..]);
        assert_eq!(
            ps[0].puzzle.geometry().box_shape(),
            Some(default_box(r * c))
        );
    }
    let (_, ps) = read(&line_of(&puzzle_of(2, 3))).unwrap();
    assert_eq!(ps[0].puzzle.geometry().box_shape(), Some((2, 3)));
    let (_, ps) = read(&line_of(&puzzle_of(3, 4))).unwrap();
    assert_eq!(ps[0].puzzle.geometry().box_shape(), Some((3, 4)));
}

#[test]
fn line_accepts_zero_lowercase_and_crlf() {
    let a = "000000010400000000020000000000050407008000300001090000300400200050100000000806000";
    let b = a.replace('0', ".");
    let text = format!("{a}\r\n{b}\r\n");
    let (_, ps) = read(&text).unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].puzzle, ps[1].puzzle);
    // Old Mac line ends (lone CR): every puzzle is read, none silently dropped.
    let (_, ps) = read(&format!("{a}\r{b}\r# c\r{a}")).unwrap();
    assert_eq!(ps.len(), 3);
    assert_eq!(ps[2].line, 4);
    // 16x16 in lower case
    let g = puzzle_of(4, 4);
    let (_, ps) = read(&line_of(&g).to_lowercase()).unwrap();
    assert_eq!(ps[0].puzzle.givens(), &g[..]);
}

#[test]
fn small_lines_need_the_format_forced() {
    let (format, ps) = read_as("1..2\n.\n1", Format::Line).unwrap();
    assert_eq!(format, Format::Line);
    assert_eq!(ps.len(), 3);
    assert_eq!(ps[0].puzzle.n(), 2);
    assert_eq!(ps[0].puzzle.geometry().box_shape(), Some((1, 2)));
    assert_eq!(ps[1].puzzle.n(), 1);
    assert_eq!(ps[2].puzzle.givens(), &[1]);
}

#[test]
fn mixed_sizes_share_geometries() {
    let nine = line_of(&puzzle_of(3, 3));
    let four = line_of(&puzzle_of(2, 2));
    let text = format!("{nine}\n{four}\n{nine}\n{four}\n");
    let (_, ps) = read(&text).unwrap();
    assert_eq!(ps.len(), 4);
    let g = |i: usize| ps[i].puzzle.shared_geometry();
    assert!(Arc::ptr_eq(g(0), g(2)));
    assert!(Arc::ptr_eq(g(1), g(3)));
    assert!(!Arc::ptr_eq(g(0), g(1)));
}

#[test]
fn box_override() {
    let six = line_of(&puzzle_of(2, 3));
    let options = ReadOptions {
        box_shape: Some((3, 2)),
        ..ReadOptions::default()
    };
    let (_, ps) = read_str(&six, "t", &options).unwrap();
    assert_eq!(ps[0].puzzle.geometry().box_shape(), Some((3, 2)));
    // 3x2 does not tile the 9x9 on line 2
    let text = format!("{six}\n  {}\n", line_of(&puzzle_of(3, 3)));
    let e = read_str(&text, "t", &options).unwrap_err();
    assert_eq!((e.line, e.column), (2, 3));
    assert_eq!(
        e.kind,
        ParseErrorKind::BoxShape {
            rows: 3,
            cols: 2,
            side: 9
        }
    );
    assert!(e
        .to_string()
        .starts_with("t:2:3: box 3x2 does not tile a 9x9 puzzle"));
    // in the grid format, at the first row of the puzzle
    let text = "Grid 01\n003020600\n".to_string() + &"000000000\n".repeat(8);
    let options = ReadOptions {
        box_shape: Some((2, 4)),
        ..ReadOptions::default()
    };
    let e = read_str(&text, "t", &options).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1));
    let options = ReadOptions {
        box_shape: Some((0, 9)),
        ..ReadOptions::default()
    };
    assert!(read_str(&text, "t", &options).is_err());
}

#[test]
fn alphabet_override() {
    let hex = Alphabet::new("0123456789ABCDEF").unwrap();
    assert_eq!(hex.len(), 16);
    assert_eq!(hex.digit('0'), Some(1));
    assert_eq!(hex.digit('f'), Some(16));
    assert_eq!(hex.symbol(1), Some('0'));
    assert!(hex.has_zero());
    let g = puzzle_of(4, 4);
    let text: String = g.iter().map(|&d| hex.symbol(d).unwrap_or('.')).collect();
    assert!(text.contains('0'));
    let options = ReadOptions {
        alphabet: Some(hex.clone()),
        ..ReadOptions::default()
    };
    let (format, ps) = read_str(&text, "t", &options).unwrap();
    assert_eq!(format, Format::Line);
    assert_eq!(ps[0].puzzle.givens(), &g[..]);
    // the same text with the default alphabet: '0' is empty and 'G' is missing
    let (_, ps) = read_str(&text, "t", &ReadOptions::default()).unwrap();
    assert_ne!(ps[0].puzzle.givens(), &g[..]);
    // letters as digits of a 4x4
    let abcd = Alphabet::new("abcd").unwrap();
    assert_eq!(abcd.digit('C'), Some(3));
    let options = ReadOptions {
        alphabet: Some(abcd),
        ..ReadOptions::default()
    };
    let (_, ps) = read_str("a..d....b.......", "t", &options).unwrap();
    assert_eq!(&ps[0].puzzle.givens()[..4], &[1, 0, 0, 4]);
    // '1' is not in this alphabet
    let e = read_str("1..d....b.......", "t", &options).unwrap_err();
    assert_eq!(e.kind, ParseErrorKind::UnknownSymbol { symbol: '1' });
    // bad alphabets
    assert!(Alphabet::new("").is_err());
    assert!(Alphabet::new("12.").is_err());
    assert!(Alphabet::new("1231").is_err());
    assert!(Alphabet::new("12 3").is_err());
    assert!(Alphabet::new("1#").is_err());
    assert!(Alphabet::new(&"x".repeat(2000)).is_err());
    // both cases present: read exactly
    let both = Alphabet::new("aA").unwrap();
    assert_eq!((both.digit('a'), both.digit('A')), (Some(1), Some(2)));
    // non-ASCII symbols
    let greek = Alphabet::new("αβγδ").unwrap();
    assert_eq!(greek.digit('γ'), Some(3));
    let options = ReadOptions {
        alphabet: Some(greek),
        format: Some(Format::Line),
        ..ReadOptions::default()
    };
    let (_, ps) = read_str("α..δ....β.......", "t", &options).unwrap();
    assert_eq!(&ps[0].puzzle.givens()[..4], &[1, 0, 0, 4]);
    let e = read_str("α..δ....β..x....", "t", &options).unwrap_err();
    assert_eq!((e.line, e.column), (1, 12));
}

#[test]
fn line_errors_have_exact_positions() {
    let good = line_of(&puzzle_of(3, 3));
    // wrong length on line 3
    let text = format!("{good}\n# comment\n{}\n", &good[..80]);
    let (l, c, k) = err(read(&text));
    assert_eq!((l, c, k), (3, 1, ParseErrorKind::BadLength { length: 80 }));
    // unknown symbol at column 5 (after leading whitespace)
    let mut bad = good.clone().into_bytes();
    bad[2] = b'*';
    let text = format!("  {}", String::from_utf8(bad).unwrap());
    assert_eq!(
        err(read(&text)),
        (1, 5, ParseErrorKind::UnknownSymbol { symbol: '*' })
    );
    // a digit above N: 'A' in a 9x9 line, detected as a line and forced
    let mut bad = good.clone().into_bytes();
    bad[10] = b'A';
    let bad = String::from_utf8(bad).unwrap();
    let expected = (
        1,
        11,
        ParseErrorKind::DigitAboveSide {
            token: "A".into(),
            digit: 10,
            side: 9,
        },
    );
    assert_eq!(err(read(&bad)), expected);
    assert_eq!(err(read_as(&bad, Format::Line)), expected);
    // a non-ASCII character: the column counts characters
    let text = format!("é{}", &good[1..]);
    assert_eq!(
        err(read_as(&text, Format::Line)),
        (1, 1, ParseErrorKind::UnknownSymbol { symbol: 'é' })
    );
    let text = format!("{}é{}", &good[..40], &good[41..]);
    assert_eq!(
        err(read_as(&text, Format::Line)),
        (1, 41, ParseErrorKind::UnknownSymbol { symbol: 'é' })
    );
    // impossible N
    assert_eq!(
        err(read_as("1234567", Format::Line)),
        (1, 1, ParseErrorKind::BadLength { length: 7 })
    );
    // N above MAX_SIDE: a 1100*1100-character line, detected and forced
    let huge = ".".repeat(1100 * 1100);
    let expected = (1, 1, ParseErrorKind::SideTooLarge { side: 1100 });
    assert_eq!(err(read(&huge)), expected);
    assert_eq!(err(read_as(&huge, Format::Line)), expected);
    let e = read(&huge).unwrap_err().to_string();
    assert!(e.contains("1100") && e.contains("1024"), "{e}");
    // absurdly long and not square
    let long = ".".repeat(5_000_001);
    assert_eq!(
        err(read_as(&long, Format::Line)),
        (1, 1, ParseErrorKind::BadLength { length: 5_000_001 })
    );
}

#[test]
fn clashing_givens_are_not_errors() {
    let mut g = puzzle_of(3, 3);
    g[0] = 5;
    g[1] = 5;
    let (_, ps) = read(&line_of(&g)).unwrap();
    assert!(ps[0].puzzle.clash().is_some());
}

#[test]
fn x_sudoku_adds_diagonals() {
    let options = ReadOptions {
        diagonals: true,
        ..ReadOptions::default()
    };
    let text = format!(
        "{}\n{}\n",
        line_of(&puzzle_of(3, 3)),
        line_of(&puzzle_of(3, 3))
    );
    let (_, ps) = read_str(&text, "t", &options).unwrap();
    let g = ps[0].puzzle.geometry();
    assert!(g.has_diagonals());
    assert_eq!(g.house_count(), 29);
    assert!(all_share_geometry(&ps));
    let (_, ps) = read_str(&data("pe96.txt"), "t", &options).unwrap();
    assert!(ps[0].puzzle.geometry().has_diagonals());
    assert!(all_share_geometry(&ps));
}

// ---------------------------------------------------------------- grid format

#[test]
fn comma_separated_rows() {
    // seed 002: rows of comma-separated digits, 0 empty, one row per line
    let rows = [
        "0,0,3,0,2,0,6,0,0",
        "9,0,0,3,0,5,0,0,1",
        "0,0,1,8,0,6,4,0,0",
        "0,0,8,1,0,2,9,0,0",
        "7,0,0,0,0,0,0,0,8",
        "0,0,6,7,0,8,2,0,0",
        "0,0,2,6,0,9,5,0,0",
        "8,0,0,2,0,3,0,0,9",
        "0,0,5,0,1,0,3,0,0",
    ];
    let text = rows.join("\n");
    let (format, ps) = read(&text).unwrap();
    assert_eq!(format, Format::Grid);
    assert_eq!(ps.len(), 1);
    let (_, pe) = read(&data("pe96.txt")).unwrap();
    assert_eq!(ps[0].puzzle, pe[0].puzzle);
    assert_eq!(ps[0].name, None);
    // commas with spaces, and mixed with contiguous rows
    let text = rows
        .iter()
        .enumerate()
        .map(|(i, r)| match i % 3 {
            0 => r.replace(',', ", "),
            1 => r.replace(',', ""),
            _ => r.replace(',', " "),
        })
        .collect::<Vec<_>>()
        .join("\r\n");
    let (_, ps) = read(&text).unwrap();
    assert_eq!(ps[0].puzzle, pe[0].puzzle);
}

#[test]
fn grid_separators_headers_and_symbols() {
    let text = "\
# two 4x4 puzzles
Puzzle one:
1 . . 4
. 4 1 .
- 1 4 .
4 . . 1

1..4
.41.
.14.
4..1
Grid 3
12 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0 0 0 0 B
";
    let (format, ps) = read(text).unwrap();
    assert_eq!(format, Format::Grid);
    assert_eq!(ps.len(), 3);
    assert_eq!(ps[0].name.as_deref(), Some("Puzzle one:"));
    assert_eq!(ps[0].line, 3);
    assert_eq!(ps[1].name, None);
    assert_eq!(ps[1].line, 8);
    assert_eq!(ps[0].puzzle, ps[1].puzzle);
    assert!(Arc::ptr_eq(
        ps[0].puzzle.shared_geometry(),
        ps[1].puzzle.shared_geometry()
    ));
    assert_eq!(ps[2].name.as_deref(), Some("Grid 3"));
    assert_eq!(ps[2].puzzle.n(), 12);
    assert_eq!(ps[2].puzzle.geometry().box_shape(), Some((3, 4)));
    assert_eq!(ps[2].puzzle.givens()[0], 12);
    assert_eq!(ps[2].puzzle.givens()[143], 11);
}

#[test]
fn grid_errors_have_exact_positions() {
    let pe = data("pe96.txt");
    let lines: Vec<&str> = pe.lines().collect();
    let first: Vec<String> = lines[1..11].iter().map(|s| s.to_string()).collect();
    let text_with = |f: &dyn Fn(&mut Vec<String>)| {
        let mut l = first.clone();
        f(&mut l);
        l.join("\n") + "\n"
    };
    // ragged contiguous row: too short (line 4 = third row), too long
    let t = text_with(&|l| l[3] = "00180640".into());
    assert_eq!(
        err(read(&t)),
        (
            4,
            9,
            ParseErrorKind::RaggedRow {
                expected: 9,
                found: 8
            }
        )
    );
    let t = text_with(&|l| l[3] = "0018064007".into());
    assert_eq!(
        err(read(&t)),
        (
            4,
            10,
            ParseErrorKind::RaggedRow {
                expected: 9,
                found: 10
            }
        )
    );
    // unknown symbol, digit above N
    let t = text_with(&|l| l[2] = "90030*001".into());
    assert_eq!(
        err(read(&t)),
        (3, 6, ParseErrorKind::UnknownSymbol { symbol: '*' })
    );
    let t = text_with(&|l| l[2] = "9003050B1".into());
    assert_eq!(
        err(read(&t)),
        (
            3,
            8,
            ParseErrorKind::DigitAboveSide {
                token: "B".into(),
                digit: 11,
                side: 9
            }
        )
    );
    // truncated: the last row missing at the end of the input
    let t = text_with(&|l| {
        l.pop();
    });
    let (l, c, k) = err(read(&t));
    assert_eq!((l, c), (10, 1));
    assert_eq!(
        k,
        ParseErrorKind::MissingRows {
            expected: 9,
            found: 8,
            layout: false,
            ended_by: RowsEnd::EndOfInput
        }
    );
    // without a final newline: just past the last character
    let t = text_with(&|l| {
        l.pop();
    });
    let (l, c, _) = err(read(t.trim_end()));
    assert_eq!((l, c), (9, 10));
    // a blank line or the next header inside a puzzle
    let t = text_with(&|l| l.insert(5, String::new()));
    let (l, c, k) = err(read(&t));
    assert_eq!((l, c), (6, 1));
    assert!(matches!(
        k,
        ParseErrorKind::MissingRows {
            found: 4,
            ended_by: RowsEnd::BlankLine,
            ..
        }
    ));
    let t = text_with(&|l| l[9] = "Grid 02".into());
    let (l, c, k) = err(read(&t));
    assert_eq!((l, c), (10, 1));
    assert!(matches!(
        k,
        ParseErrorKind::MissingRows {
            found: 8,
            ended_by: RowsEnd::Header(_),
            ..
        }
    ));

    // tokenised rows (rk-16x16)
    let rk = data("rk-16x16.txt");
    let mut rows: Vec<String> = rk.lines().map(String::from).collect();
    rows[4] = rows[4].replacen(" 3 ", " 3 x ", 1);
    let (l, c, k) = err(read(&rows.join("\n")));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 16,
            found: 17
        }
    );
    assert_eq!(l, 5);
    let row5 = &rows[4];
    let tokens: Vec<&str> = row5.split(' ').collect();
    let col16: usize = tokens[..16].iter().map(|t| t.len() + 1).sum::<usize>() + 1;
    assert_eq!(c, col16);
    // a bad token, a number above N, a short row
    let mut rows: Vec<String> = rk.lines().map(String::from).collect();
    rows[1] = rows[1].replacen("12", "1x", 1);
    let (l, c, k) = err(read(&rows.join("\n")));
    assert_eq!((l, c), (2, 10));
    assert_eq!(k, ParseErrorKind::BadToken { token: "1x".into() });
    let mut rows: Vec<String> = rk.lines().map(String::from).collect();
    rows[1] = rows[1].replacen("12", "17", 1);
    let (l, c, k) = err(read(&rows.join("\n")));
    assert_eq!((l, c), (2, 10));
    assert_eq!(
        k,
        ParseErrorKind::DigitAboveSide {
            token: "17".into(),
            digit: 17,
            side: 16
        }
    );
    let mut rows: Vec<String> = rk.lines().map(String::from).collect();
    rows[2] = "14 0 9  ".into();
    let (l, c, k) = err(read(&rows.join("\n")));
    assert_eq!((l, c), (3, 7));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 16,
            found: 3
        }
    );
    let mut rows: Vec<String> = rk.lines().map(String::from).collect();
    rows.truncate(15);
    let (l, c, k) = err(read(&(rows.join("\n") + "\n")));
    assert_eq!((l, c), (16, 1));
    assert!(matches!(
        k,
        ParseErrorKind::MissingRows {
            expected: 16,
            found: 15,
            ..
        }
    ));
    // a huge number
    let text = "1 99999999999999999999999\n1 2\n";
    let (l, c, k) = err(read(text));
    assert_eq!((l, c), (1, 3));
    assert!(matches!(
        k,
        ParseErrorKind::DigitAboveSide {
            digit: u64::MAX,
            side: 2,
            ..
        }
    ));
    // a header without a puzzle
    let (l, c, k) = err(read("Grid 01\n\n"));
    assert_eq!((l, c), (3, 1));
    assert_eq!(
        k,
        ParseErrorKind::HeaderWithoutPuzzle {
            header: "Grid 01".into()
        }
    );
    // a row that is neither a row nor a header
    let (l, c, k) = err(read("  1 2 *\n"));
    assert_eq!((l, c), (1, 7));
    assert_eq!(k, ParseErrorKind::BadToken { token: "*".into() });
    let (l, c, k) = err(read("1 2 x\n"));
    assert_eq!((l, c), (1, 5));
    assert!(matches!(
        k,
        ParseErrorKind::DigitAboveSide {
            digit: 33,
            side: 3,
            ..
        }
    ));
    // a row of separators only
    let (l, c, k) = err(read(" ,, \n"));
    assert_eq!((l, c), (1, 2));
    assert_eq!(k, ParseErrorKind::BadToken { token: ",,".into() });
    let (l, c, k) = err(read("1,2\n,\n"));
    assert_eq!((l, c), (2, 1));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 2,
            found: 0
        }
    );
    // a grid of side above MAX_SIDE
    let wide = vec!["0"; 1100].join(" ");
    let (l, c, k) = err(read_as(&wide, Format::Grid));
    assert_eq!((l, c), (1, 1));
    assert_eq!(k, ParseErrorKind::SideTooLarge { side: 1100 });
    let (_, _, k) = err(read_as(&"0".repeat(1100), Format::Grid));
    assert_eq!(k, ParseErrorKind::SideTooLarge { side: 1100 });
}

// ---------------------------------------------------------------- jigsaw

const JIGSAW_GIVENS: &str =
    "3.......4..2.6.1...1.9.8.2...5...6...2.....1...9...8...8.3.4.6...4.1.9..5.......7";
const JIGSAW_LAYOUT: &str =
    "AAABBBCCCAAABBBCCCAAABBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
/// A malformed layout: region `1` has 8 cells and region `3` has 10.
const IRREGULAR: &str =
    "111222333112223333111222333444555666444555666444555666777888999777888999777888999";

/// An irregular layout: boxes, with cell (0,3) moved to region `1` and (2,2) to region `2`.
fn irregular_ok() -> &'static str {
    "111122333111222333112222333444555666444555666444555666777888999777888999777888999"
}

#[test]
fn jigsaw_line_form() {
    let text = format!("# jigsaw\n{JIGSAW_GIVENS} {JIGSAW_LAYOUT} ignored\n");
    let (format, ps) = read(&text).unwrap();
    assert_eq!(format, Format::Jigsaw);
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].form, OutputFormat::Line);
    let g = ps[0].puzzle.geometry();
    assert!(g.is_jigsaw());
    assert_eq!(g.region_of(0), 0);
    assert_eq!(g.region_of(3), 1);
    assert_eq!(g.region_of(80), 8);
    // the same layout as boxes: same houses as the classic 9x9
    let classic = crate::puzzle::Geometry::square(9).unwrap();
    assert_eq!(g.regions(), classic.regions());
    // an irregular layout, digits as region names
    let layout = irregular_ok();
    let text = format!("{JIGSAW_GIVENS}\t{layout}\n{JIGSAW_GIVENS} {layout}");
    let (format, ps) = read(&text).unwrap();
    assert_eq!(format, Format::Jigsaw);
    assert_eq!(ps.len(), 2);
    assert!(all_share_geometry(&ps));
    // forced, and with diagonals
    let options = ReadOptions {
        format: Some(Format::Jigsaw),
        diagonals: true,
        ..ReadOptions::default()
    };
    let (_, ps) = read_str(&text, "t", &options).unwrap();
    assert!(ps[0].puzzle.geometry().has_diagonals() && ps[0].puzzle.geometry().is_jigsaw());
    // without the jigsaw format, the layout is ignored
    let (_, ps) = read_as(&text, Format::Line).unwrap();
    assert!(!ps[0].puzzle.geometry().is_jigsaw());
    // disconnected regions are allowed
    let (format, ps) = read("1..2............ AAABBBBCCCCDDDDA").unwrap();
    assert_eq!(format, Format::Jigsaw);
    assert_eq!(ps[0].puzzle.geometry().disconnected_region(), Some(0));
    // a puzzle followed by its solution is not a jigsaw
    let sol = line_of(&solution(3, 3));
    assert_eq!(
        detect_format(&format!("{} {sol}", line_of(&puzzle_of(3, 3)))),
        Format::Line
    );
}

/// A layout in which no row repeats a region (here the columns) was read as a classic
/// puzzle, silently: a Latin layout whose regions are connected is a layout, while a
/// solution (Latin, no two cells of a digit touching) still is not.
#[test]
fn a_latin_layout_of_connected_regions_is_a_jigsaw() {
    let columns: String = (0..81).map(|i| (b'A' + (i % 9) as u8) as char).collect();
    let text = format!("{} {columns}\n", line_of(&puzzle_of(3, 3)));
    assert_eq!(detect_format(&text), Format::Jigsaw);
    let (format, ps) = read(&text).unwrap();
    assert_eq!(format, Format::Jigsaw);
    let g = ps[0].puzzle.geometry();
    assert!(g.is_jigsaw());
    assert_eq!(g.regions()[..10], [0, 1, 2, 3, 4, 5, 6, 7, 8, 0]);
    // a puzzle followed by its solution, and by a Latin layout of scattered regions, stay
    // line puzzles
    let sol = line_of(&solution(3, 3));
    let latin: String = sol
        .chars()
        .map(|c| (c as u8 - b'1' + b'a') as char)
        .collect();
    for second in [sol, latin] {
        let text = format!("{} {second}\n", line_of(&puzzle_of(3, 3)));
        assert_eq!(detect_format(&text), Format::Line, "{second}");
    }
}

/// `.` marks an empty cell: as a region name (accepted with `--format jigsaw`) it is an
/// error at the `.`, in the line and in the grid form.
#[test]
fn a_dot_is_not_a_region_name() {
    let layout = JIGSAW_LAYOUT.replacen('I', ".", 1);
    let at = JIGSAW_LAYOUT.find('I').unwrap();
    let text = format!("{JIGSAW_GIVENS} {layout}");
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!(
        (l, c, k),
        (1, JIGSAW_GIVENS.len() + 2 + at, ParseErrorKind::DotRegion)
    );
    assert!(ParseErrorKind::DotRegion.to_string().contains("found `.`"));
    // the grid form: givens, then the layout's rows
    let rows = |t: &str| -> String {
        t.as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect()
    };
    let text = format!("{}{}", rows(JIGSAW_GIVENS), rows(&layout));
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!(
        (l, c, k),
        (10 + at / 9, 1 + at % 9, ParseErrorKind::DotRegion)
    );
}

#[test]
fn jigsaw_line_errors() {
    // wrong number of regions: 'I' renamed 'H'
    let bad = JIGSAW_LAYOUT.replace('I', "H");
    let text = format!("{JIGSAW_GIVENS} {bad}");
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (1, 83));
    assert_eq!(
        k,
        ParseErrorKind::RegionCount {
            expected: 9,
            found: 8
        }
    );
    // a region of the wrong size
    let mut bad = JIGSAW_LAYOUT.to_string().into_bytes();
    bad[2] = b'B';
    let text = format!("{JIGSAW_GIVENS}  {}", String::from_utf8(bad).unwrap());
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (1, 84));
    assert_eq!(
        k,
        ParseErrorKind::RegionSize {
            region: "A".into(),
            size: 8,
            expected: 9
        }
    );
    let e = read_as(&text, Format::Jigsaw).unwrap_err().to_string();
    assert!(e.contains("region `A` with 8"), "{e}");
    // ten regions
    let mut bad = JIGSAW_LAYOUT.to_string().into_bytes();
    bad[80] = b'Z';
    let text = format!("{JIGSAW_GIVENS} {}", String::from_utf8(bad).unwrap());
    let (_, _, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!(
        k,
        ParseErrorKind::RegionCount {
            expected: 9,
            found: 10
        }
    );
    // layout of the wrong length, missing layout
    let text = format!("{JIGSAW_GIVENS} {}", &JIGSAW_LAYOUT[..80]);
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (1, 83));
    assert_eq!(
        k,
        ParseErrorKind::LayoutLength {
            expected: 81,
            found: 80
        }
    );
    let text = format!("{JIGSAW_GIVENS} {JIGSAW_LAYOUT}\n{JIGSAW_GIVENS}\n");
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (2, 82));
    assert_eq!(k, ParseErrorKind::MissingLayout { expected: 81 });
    // the unusable layout constant is indeed rejected
    let text = format!("{JIGSAW_GIVENS} {IRREGULAR}");
    assert!(read_as(&text, Format::Jigsaw).is_err());
}

/// A layout with a mistake is reported, not dropped as text after the givens (which would
/// solve the puzzle as a classic one); a second puzzle or a solution after the givens is not
/// taken for a layout.
#[test]
fn wrong_layouts_are_reported_without_the_jigsaw_format() {
    // line form: region `1` has 8 cells
    let (l, c, k) = err(read(&format!("{JIGSAW_GIVENS} {IRREGULAR}")));
    assert_eq!((l, c), (1, 83));
    assert!(
        matches!(k, ParseErrorKind::RegionSize { ref region, size: 8, expected: 9 } if region == "1")
    );
    // line form: five region names on a 4x4
    let (_, _, k) = err(read("1..2............ AAABABBBCCCDCDDE"));
    assert_eq!(
        k,
        ParseErrorKind::RegionCount {
            expected: 4,
            found: 5
        }
    );
    // a second puzzle after the first (with `.` or, when the givens use it, `0`) is ignored
    let zeros = JIGSAW_GIVENS.replace('.', "0");
    for text in [
        format!("{JIGSAW_GIVENS} {JIGSAW_GIVENS}"),
        format!("{zeros} {zeros}"),
    ] {
        let (format, ps) = read(&text).unwrap();
        assert_eq!((format, ps.len()), (Format::Line, 1));
    }
    // grid form: the layout rows of IRREGULAR after the givens
    let rows = |s: &str| {
        s.as_bytes()
            .chunks(9)
            .map(|c| String::from_utf8(c.to_vec()).unwrap())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let text = format!("{}\n{}\n", rows(JIGSAW_GIVENS), rows(IRREGULAR));
    let (l, c, k) = err(read(&text));
    assert_eq!((l, c), (10, 1));
    assert!(matches!(k, ParseErrorKind::RegionSize { size: 8, .. }));
    // ... but two classic grids stay two puzzles: the second has empty marks
    for empty in [".", "0"] {
        let second = JIGSAW_GIVENS.replace('.', empty);
        let text = format!("{}\n\n{}\n", rows(JIGSAW_GIVENS), rows(&second));
        let (format, ps) = read(&text).unwrap();
        assert_eq!((format, ps.len()), (Format::Grid, 2));
    }
    // puzzlekit form: region `1` has 5 cells
    let text = "4 4\n1 - - -\n- - - -\n- - - -\n- - - -\n1 1 1 1\n1 2 2 2\n3 3 3 4\n3 4 4 4\n";
    let (l, _, k) = err(read(text));
    assert_eq!(l, 6);
    assert!(matches!(k, ParseErrorKind::RegionSize { size: 5, .. }));
}

#[test]
fn jigsaw_grid_form() {
    let givens: Vec<String> = JIGSAW_GIVENS
        .as_bytes()
        .chunks(9)
        .map(|c| String::from_utf8(c.to_vec()).unwrap())
        .collect();
    let layout: Vec<String> = irregular_ok()
        .as_bytes()
        .chunks(9)
        .map(|c| {
            c.iter()
                .map(|&b| ((b - b'1' + b'a') as char).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = format!("Jigsaw 1\n{}\n\n{}\n", givens.join("\n"), layout.join("\n"));
    let (format, ps) = read(&text).unwrap();
    assert_eq!(format, Format::Jigsaw);
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].name.as_deref(), Some("Jigsaw 1"));
    assert_eq!(ps[0].form, OutputFormat::Grid);
    let line_text = format!("{JIGSAW_GIVENS} {}", irregular_ok());
    let (_, from_line) = read(&line_text).unwrap();
    assert_eq!(ps[0].puzzle, from_line[0].puzzle);
    // two puzzles without a blank line between givens and layout
    let one = format!("{}\n{}", givens.join("\n"), layout.join("\n"));
    let text = format!("{one}\n\n{one}\n");
    let (_, ps) = read_as(&text, Format::Jigsaw).unwrap();
    assert_eq!(ps.len(), 2);
    assert!(all_share_geometry(&ps));
    // a plain grid is not detected as jigsaw
    assert_eq!(detect_format(&data("pe96.txt")), Format::Grid);
    // a truncated layout, a ragged layout row, a malformed layout
    let text = format!("{}\n\n{}\n", givens.join("\n"), layout[..8].join("\n"));
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (19, 1));
    assert!(matches!(
        k,
        ParseErrorKind::MissingRows {
            layout: true,
            found: 8,
            ..
        }
    ));
    let mut short = layout.clone();
    short[3] = "a b".into();
    let text = format!("{}\n\n{}\n", givens.join("\n"), short.join("\n"));
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (14, 4));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 9,
            found: 2
        }
    );
    let mut bad = layout.clone();
    bad[8] = "g g g h h h i i a".into();
    let text = format!("\n{}\n\n{}\n", givens.join("\n"), bad.join("\n"));
    let (l, c, k) = err(read_as(&text, Format::Jigsaw));
    assert_eq!((l, c), (12, 1));
    assert!(matches!(k, ParseErrorKind::RegionSize { .. }));
}

#[test]
fn puzzlekit_jigsaw() {
    let text = "\
9 9
8 - - - - - - - -
- - - 1 - - - - -
2 - - - - - 4 - 6
- - - - - 8 - - 5
- - - 6 2 - - 1 8
- 3 - - - 4 - 2 -
- - - 5 - - 1 - 7
- - 2 - - - - - -
- - - 8 - - - 9 -
9 9 9 9 9 8 8 8 8
5 5 5 9 9 8 8 8 8
5 5 5 9 9 8 3 3 3
5 5 5 1 1 1 3 3 3
2 2 2 1 1 1 3 3 3
2 2 2 1 1 1 4 4 4
2 2 2 7 6 6 4 4 4
7 7 7 7 6 6 4 4 4
7 7 7 7 6 6 6 6 6
";
    let (format, ps) = read(text).unwrap();
    assert_eq!(format, Format::Jigsaw);
    assert_eq!(ps.len(), 1);
    let p = &ps[0].puzzle;
    assert_eq!(p.givens()[0], 8);
    assert_eq!(p.clues(), 20);
    assert!(p.geometry().is_jigsaw());
    assert_eq!(p.geometry().region_of(0), 0);
    assert_eq!(p.geometry().region_of(5), 1);
    assert_eq!(p.geometry().region_of(9), 2);
    // puzzlekit classic sudoku (size line, no layout) is a grid
    let classic: String = text.lines().take(10).collect::<Vec<_>>().join("\n");
    let (format, ps) = read(&classic).unwrap();
    assert_eq!(format, Format::Grid);
    assert_eq!(ps[0].puzzle.givens(), p.givens());
    // size lines that are not square, or with a wrong first row
    let (l, c, k) = err(read("9 8\n"));
    assert_eq!((l, c), (1, 1));
    assert_eq!(k, ParseErrorKind::NotSquare { rows: 9, cols: 8 });
    let (l, c, k) = err(read("4 4\n1 2 3\n"));
    assert_eq!((l, c), (2, 6));
    assert_eq!(
        k,
        ParseErrorKind::RaggedRow {
            expected: 4,
            found: 3
        }
    );
}

#[test]
fn module_doc_examples_read() {
    let text = "\
# two 9x9 puzzles and a 6x6 one
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
000000010400000000020000000000050407008000300001090000300400200050100000000806000 17 clues
1....6..5...3...2.5...4...1.6..2....
";
    let (format, ps) = read(text).unwrap();
    assert_eq!(format, Format::Line);
    assert_eq!(ps.len(), 3);
    assert_eq!(ps[2].puzzle.geometry().box_shape(), Some((2, 3)));
    let text = "3.......4..2.6.1...1.9.8.2...5...6...2.....1...9...8...8.3.4.6...4.1.9..5.......7 \
                AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
    let (format, ps) = read(text).unwrap();
    assert_eq!(format, Format::Jigsaw);
    let (_, digits) = read(&format!("{JIGSAW_GIVENS} {}", irregular_ok())).unwrap();
    assert_eq!(ps[0].puzzle, digits[0].puzzle);
    let e = read(&data("pe96.txt").replacen("001806400", "00180640", 1)).unwrap_err();
    assert_eq!(
        e.to_string().replace("t.txt", "pe96.txt"),
        "pe96.txt:5:9: expected a row of 9 cells (like the puzzle's first row), found 8"
    );
}

// ---------------------------------------------------------------- bad input

#[test]
fn empty_and_comment_only_inputs() {
    for format in [
        None,
        Some(Format::Line),
        Some(Format::Grid),
        Some(Format::Jigsaw),
    ] {
        let options = ReadOptions {
            format,
            ..ReadOptions::default()
        };
        let e = read_str("", "e.txt", &options).unwrap_err();
        assert_eq!(
            (e.line, e.column, &e.kind),
            (1, 1, &ParseErrorKind::NoPuzzle)
        );
        assert_eq!(e.to_string(), "e.txt:1:1: no puzzle found");
        let e = read_str("# one\n  # two\n\n", "c.txt", &options).unwrap_err();
        assert_eq!(
            (e.line, e.column, &e.kind),
            (4, 1, &ParseErrorKind::NoPuzzle)
        );
        let e = read_str("# one", "c.txt", &options).unwrap_err();
        assert_eq!(
            (e.line, e.column, &e.kind),
            (1, 6, &ParseErrorKind::NoPuzzle)
        );
    }
}

#[test]
fn invalid_utf8_nul_and_random_bytes() {
    let options = ReadOptions::default();
    let e = read_bytes(b"123\n45\xff6\n", "b.bin", &options).unwrap_err();
    assert_eq!(
        (e.line, e.column, &e.kind),
        (2, 3, &ParseErrorKind::InvalidUtf8)
    );
    assert!(e.to_string().starts_with("b.bin:2:3: invalid UTF-8"));
    let e = read_bytes(b"\xC3\xA9\xC3", "b", &options).unwrap_err();
    assert_eq!(
        (e.line, e.column, &e.kind),
        (1, 2, &ParseErrorKind::InvalidUtf8)
    );
    let e = read_str("1234\n12\x0034\n", "n", &options).unwrap_err();
    assert_eq!(
        (e.line, e.column, &e.kind),
        (2, 3, &ParseErrorKind::NulByte)
    );
    // random bytes never panic
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for len in [1usize, 10, 100, 1000, 10_000] {
        for _ in 0..20 {
            let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
            for format in [
                None,
                Some(Format::Line),
                Some(Format::Grid),
                Some(Format::Jigsaw),
            ] {
                let options = ReadOptions {
                    format,
                    ..ReadOptions::default()
                };
                let _ = read_bytes(&bytes, "r", &options);
            }
        }
    }
    // a byte-order mark is skipped
    let text = format!("\u{feff}{}", line_of(&puzzle_of(3, 3)));
    let (_, ps) = read_bytes(text.as_bytes(), "bom", &options).unwrap();
    assert_eq!(ps.len(), 1);
}

#[test]
fn io_errors_name_the_file() {
    let e = read_file(Path::new("/no/such/file.txt"), &ReadOptions::default()).unwrap_err();
    assert_eq!(e.file, "/no/such/file.txt");
    assert_eq!((e.line, e.column), (0, 0));
    assert!(matches!(
        e.kind,
        ParseErrorKind::Io {
            kind: std::io::ErrorKind::NotFound,
            ..
        }
    ));
    assert!(e
        .to_string()
        .starts_with("/no/such/file.txt:0:0: cannot read: "));
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/norvig-hardest.txt");
    let (_, ps) = read_file(&path, &ReadOptions::default()).unwrap();
    assert_eq!(ps.len(), 11);
}

#[test]
fn model_errors_are_kinds_not_panics() {
    // Geometry errors cannot be produced by the readers; their kind still displays.
    let k = ParseErrorKind::Geometry(GeometryError::Side(0));
    assert!(!k.to_string().is_empty());
}

// ---------------------------------------------------------------- output

#[test]
fn write_forms() {
    let (_, ps) = read(&data("pe96.txt")).unwrap();
    let p = &ps[0].puzzle;
    let grid = write_grid(p.givens(), p.geometry(), OutputFormat::Grid, None);
    assert!(grid.starts_with("003020600\n900305001\n"));
    assert_eq!(grid.lines().count(), 9);
    let line = write_grid(p.givens(), p.geometry(), OutputFormat::Line, None);
    assert!(line.starts_with("..3.2.6..9..3.5..1"));
    let (_, ps) = read(&data("rk-16x16.txt")).unwrap();
    let p = &ps[0].puzzle;
    let grid = write_grid(p.givens(), p.geometry(), OutputFormat::Grid, None);
    assert!(grid.starts_with(" 0 15  0  1  0  2 10 14 12"), "{grid}");
    let line = write_grid(p.givens(), p.geometry(), OutputFormat::Line, None);
    assert_eq!(line.len(), 256);
    assert!(line.starts_with(".F.1.2AEC"));
    assert_eq!(format_of_output(Format::Line), OutputFormat::Line);
    assert_eq!(format_of_output(Format::Grid), OutputFormat::Grid);
    // 36x36 cannot be written as a line with 35 symbols: grid form instead
    let g = crate::puzzle::Geometry::square(36).unwrap();
    let s = solution(6, 6);
    let out = write_grid(&s, &g, OutputFormat::Line, None);
    assert_eq!(out.lines().count(), 36);
    // hex alphabet: '.' for empty in contiguous rows since '0' is a digit
    let hex = Alphabet::new("0123456789ABCDEF").unwrap();
    let g4 = crate::puzzle::Geometry::square(4).unwrap();
    let out = write_grid(
        &[1, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
        &g4,
        OutputFormat::Grid,
        Some(&hex),
    );
    assert!(out.starts_with("0..3\n"), "{out}");
}

#[test]
fn round_trips() {
    let hex = Alphabet::new("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ").unwrap();
    for (r, c) in [
        (1, 1),
        (1, 2),
        (2, 2),
        (2, 3),
        (3, 3),
        (2, 5),
        (3, 4),
        (4, 4),
        (5, 5),
        (6, 6),
        (5, 7),
    ] {
        let n = r * c;
        let geometry = crate::puzzle::Geometry::boxed(n, r, c).unwrap();
        for givens in [puzzle_of(r, c), solution(r, c), vec![0; n * n]] {
            for alphabet in [None, Some(&hex)] {
                for form in [OutputFormat::Line, OutputFormat::Grid] {
                    let text = write_grid(&givens, &geometry, form, alphabet);
                    let options = ReadOptions {
                        box_shape: Some((r, c)),
                        alphabet: alphabet.cloned(),
                        ..ReadOptions::default()
                    };
                    let written_as_line = !text.contains('\n');
                    let forced = ReadOptions {
                        format: Some(if written_as_line {
                            Format::Line
                        } else {
                            Format::Grid
                        }),
                        ..options.clone()
                    };
                    let (_, ps) = read_str(&text, "rt", &forced)
                        .unwrap_or_else(|e| panic!("{n} {form:?} {alphabet:?}: {e}\n{text}"));
                    assert_eq!(ps.len(), 1);
                    assert_eq!(ps[0].puzzle.givens(), &givens[..], "{n} {form:?}\n{text}");
                    assert_eq!(ps[0].puzzle.geometry(), &geometry);
                    let form_read = if written_as_line {
                        OutputFormat::Line
                    } else {
                        OutputFormat::Grid
                    };
                    assert_eq!(ps[0].form, form_read);
                    if n >= 4 {
                        // detection agrees for N >= 4
                        let (f, ps) = read_str(&text, "rt", &options)
                            .unwrap_or_else(|e| panic!("{n} {form:?} detect: {e}\n{text}"));
                        assert_eq!(
                            f,
                            if written_as_line {
                                Format::Line
                            } else {
                                Format::Grid
                            }
                        );
                        assert_eq!(ps[0].puzzle.givens(), &givens[..]);
                    }
                }
            }
        }
    }
}

#[test]
fn jigsaw_round_trips() {
    let text = format!("{JIGSAW_GIVENS} {}", irregular_ok());
    let (_, ps) = read(&text).unwrap();
    let p = &ps[0].puzzle;
    for form in [OutputFormat::Line, OutputFormat::Grid] {
        let out = write_puzzle(p, form, None);
        let (format, back) = read(&out).unwrap();
        assert_eq!(format, Format::Jigsaw, "{out}");
        assert_eq!(&back[0].puzzle, p);
        assert_eq!(back[0].form, form);
    }
    // a 12x12 jigsaw (regions = 3x4 boxes, renamed) in both forms
    let g = crate::puzzle::Geometry::square(12).unwrap();
    let j = crate::puzzle::Geometry::jigsaw(12, g.regions().to_vec()).unwrap();
    let p = crate::puzzle::Puzzle::new(Arc::new(j), puzzle_of(3, 4)).unwrap();
    for form in [OutputFormat::Line, OutputFormat::Grid] {
        let out = write_puzzle(&p, form, None);
        let (_, back) = read_as(&out, Format::Jigsaw).unwrap();
        assert_eq!(&back[0].puzzle, &p, "{out}");
    }
    assert!(matches!(p.geometry().layout(), GeoLayout::Regions(_)));
    // a classic puzzle writes its grid only
    let (_, ps) = read(&data("pe96.txt")).unwrap();
    let out = write_puzzle(&ps[0].puzzle, OutputFormat::Grid, None);
    assert_eq!(out.lines().count(), 9);
}

// ---------------------------------------------------------------- never panic

fn all_options() -> impl Strategy<Value = ReadOptions> {
    (
        prop_oneof![
            Just(None),
            Just(Some(Format::Line)),
            Just(Some(Format::Grid)),
            Just(Some(Format::Jigsaw))
        ],
        prop_oneof![Just(None), (0usize..5, 0usize..5).prop_map(Some)],
        prop_oneof![
            Just(None),
            Just(Some(Alphabet::new("0123456789ABCDEF").unwrap())),
            Just(Some(Alphabet::new("ab").unwrap()))
        ],
        any::<bool>(),
    )
        .prop_map(|(format, box_shape, alphabet, diagonals)| ReadOptions {
            format,
            box_shape,
            alphabet,
            diagonals,
            windoku: false,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_strings_never_panic(text in any::<String>(), options in all_options()) {
        let _ = read_str(&text, "p", &options);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400),
                                   options in all_options()) {
        let _ = read_bytes(&bytes, "p", &options);
    }

    #[test]
    fn puzzle_like_strings_never_panic(
        text in "([0-9A-Ga-c.,# \\-\t]{0,20}\r?\n){0,40}",
        options in all_options(),
    ) {
        let _ = read_str(&text, "p", &options);
    }

    #[test]
    fn grids_with_noise_never_panic(
        (r, c) in (1usize..4, 1usize..4),
        edits in proptest::collection::vec((any::<usize>(), "[0-9A-Z.,# \n-]{0,3}"), 0..4),
        form in prop_oneof![Just(OutputFormat::Line), Just(OutputFormat::Grid)],
        options in all_options(),
    ) {
        let g = crate::puzzle::Geometry::boxed(r * c, r, c).unwrap();
        let mut text = write_grid(&puzzle_of(r, c), &g, form, None);
        text = format!("{text}\n\n{text}\n");
        for (at, s) in edits {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) { at -= 1; }
            text.insert_str(at, &s);
        }
        match read_str(&text, "p", &options) {
            Ok((_, ps)) => prop_assert!(!ps.is_empty()),
            Err(e) => prop_assert!(e.line >= 1 && e.column >= 1),
        }
    }
}

/// A jigsaw file whose first layout is broken was read as classic puzzles, its layouts
/// skipped (as text after the givens, or as header lines) and the puzzles solved with boxes:
/// without `--format`, a layout after a classic puzzle is an error at the layout.
#[test]
fn a_layout_after_a_classic_puzzle_is_an_error_when_the_format_was_detected() {
    let rows = |t: &str| -> String {
        t.as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", std::str::from_utf8(r).unwrap()))
            .collect()
    };
    let stray = ParseErrorKind::StrayLayout { side: 9 };
    let classic = line_of(&puzzle_of(3, 3));
    // grid form: the layout one row short, then another puzzle (the rows were headers)
    let short = &JIGSAW_LAYOUT[..72];
    let text = format!("{}{}\n{}", rows(JIGSAW_GIVENS), rows(short), rows(&classic));
    assert_eq!(err(read(&text)), (10, 1, stray.clone()));
    // ... after a blank line too, and with a row one symbol short
    let text = format!(
        "{}\n{}{}\n",
        rows(JIGSAW_GIVENS),
        rows(&JIGSAW_LAYOUT[..72]),
        &JIGSAW_LAYOUT[72..80]
    );
    assert_eq!(err(read(&text)), (11, 1, stray.clone()));
    // a layout of digits after a later puzzle would be read as a puzzle of its own (after
    // the first, it makes the file a jigsaw one)
    let text = format!(
        "{}
{}{}",
        rows(&classic),
        rows(&classic),
        rows(irregular_ok())
    );
    assert_eq!(err(read(&text)), (20, 1, stray.clone()));
    // line form: a layout on a later line, and a layout one symbol short on the first
    let text = format!("{classic}\n{JIGSAW_GIVENS} {JIGSAW_LAYOUT}\n");
    assert_eq!(err(read(&text)), (2, 83, stray.clone()));
    let text = format!("{JIGSAW_GIVENS} {}\n", &JIGSAW_LAYOUT[..80]);
    assert_eq!(
        err(read(&text)),
        (
            1,
            83,
            ParseErrorKind::TrailingLength {
                expected: 81,
                found: 80
            }
        )
    );
    assert!(stray.to_string().contains("--format jigsaw"));
    // what stays skipped: a solution, ratings and names, a string under half the givens'
    // length, headers and solutions in the grid form, and everything with --format
    let sol = line_of(&solution(3, 3));
    for after in [sol.as_str(), "11.9/11.9/11.3", "#1234 hardest", &sol[..30]] {
        let (f, ps) = read(&format!("{classic} {after}\n{classic}\n")).unwrap();
        assert_eq!((f, ps.len()), (Format::Line, 2), "{after}");
    }
    let text = format!(
        "Grid 01\n{}Grid 02\n{}\n{}",
        rows(&classic),
        rows(&classic),
        rows(&sol)
    );
    assert_eq!(read(&text).unwrap().1.len(), 3);
    let text = format!("{classic}\n{JIGSAW_GIVENS} {JIGSAW_LAYOUT}\n");
    let (_, ps) = read_as(&text, Format::Line).unwrap();
    assert!(!ps[1].puzzle.geometry().is_jigsaw());
    let text = format!("{}{}\n{}", rows(JIGSAW_GIVENS), rows(short), rows(&classic));
    assert_eq!(read_as(&text, Format::Grid).unwrap().1.len(), 2);
}

/// A digit above the side is named by its value when its symbol does not say it: `9` is 10
/// in a hex alphabet (read as "found 9, above the side 9"); and a killer side of 0 is not
/// "above the maximum".
#[test]
fn messages_name_what_was_found() {
    let k = ParseErrorKind::DigitAboveSide {
        token: "9".into(),
        digit: 10,
        side: 9,
    };
    assert_eq!(
        k.to_string(),
        "expected a digit 1..=9, found `9` = 10, above the side 9"
    );
    let k = ParseErrorKind::DigitAboveSide {
        token: "17".into(),
        digit: 17,
        side: 16,
    };
    assert_eq!(
        k.to_string(),
        "expected a digit 1..=16, found 17, above the side 16"
    );
    let e = read("killer 0\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "t.txt:1:8: expected the side N (1 or more), found `0`"
    );
}
