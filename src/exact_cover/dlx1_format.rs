//! Knuth's text format for exact-cover problems, as read by his program DLX1 (and the later
//! DLX2, DLX3, ... for plain exact cover).
//!
//! Source: D. E. Knuth, program DLX1 (TAOCP 7.2.2.1), section "Intro" and "Inputting the
//! matrix":
//!
//! - lines whose first non-blank character is `|` are comments, and blank lines are skipped,
//!   anywhere in the file;
//! - the first other line lists the names of the primary items, separated by blanks, then
//!   optionally `|` followed by the names of the secondary items;
//! - every further line is one option: the names of its items, separated by blanks;
//! - a name is one or more non-blank characters other than `|` and `:`. DLX1 limits names to
//!   8 characters; this reader accepts longer ones (the Sudoku names written by sudolab fit
//!   in 8 characters up to `N = 999`).
//!
//! Errors name the 1-based line and column (in characters) of the offending token. As in
//! DLX1, an option with no primary item is accepted but can never be chosen.

use super::problem::{check_name, CoverError};
use super::ExactCover;
use std::collections::HashMap;
use std::io::{self, Write};

/// What is wrong with a DLX1 file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Dlx1ErrorKind {
    /// No line lists the items.
    #[error("expected a line listing the items, found only comments and blank lines")]
    NoItems,
    /// An item name holds `|` or `:`.
    #[error("expected an item name without `|` or `:`, found {0:?}")]
    BadName(String),
    /// The item line names an item twice.
    #[error("expected distinct item names, found {0:?} a second time")]
    DuplicateItem(String),
    /// The item line holds `|` twice.
    #[error(
        "expected at most one `|` (primary items before it, secondary after), found a second one"
    )]
    BarTwice,
    /// An option names an item that the item line does not list.
    #[error("expected an item named on the item line, found {0:?}")]
    UnknownItem(String),
    /// An option names the same item twice.
    #[error("expected each item at most once in an option, found {0:?} again")]
    RepeatedItem(String),
    /// The problem does not fit in 32-bit node indices.
    #[error("expected at most 2^32 nodes (items plus option entries), found more")]
    TooLarge,
}

/// An error in a DLX1 file, with its 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {kind}")]
pub struct Dlx1Error {
    pub line: usize,
    pub column: usize,
    pub kind: Dlx1ErrorKind,
}

/// Blank-separated tokens of a line with their 1-based character columns.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut col = 0usize;
    let mut rest = line;
    std::iter::from_fn(move || {
        let skip = rest.find(|c: char| !c.is_whitespace())?;
        col += rest[..skip].chars().count();
        rest = &rest[skip..];
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let tok = &rest[..end];
        let at = col + 1;
        col += tok.chars().count();
        rest = &rest[end..];
        Some((at, tok))
    })
}

/// Whether a line is skipped: blank, or a comment (first non-blank character `|`).
fn skipped(line: &str) -> bool {
    let t = line.trim_start();
    t.is_empty() || t.starts_with('|')
}

/// Reads a problem in DLX1's format. Options are numbered in file order.
pub fn read_dlx1(text: &str) -> Result<ExactCover, Dlx1Error> {
    read_dlx1_until(text, None).map(|x| x.expect("no deadline"))
}

/// Option lines read between two reads of the clock in [`read_dlx1_until`].
const LINES_PER_CLOCK_READ: usize = 4096;

/// [`read_dlx1`] that reads the clock every `LINES_PER_CLOCK_READ` lines and gives up
/// (`Ok(None)`) once `deadline` has passed: the matrix of an empty 128x128 grid is 62 MB and
/// takes about a second to read, which a time limit covers.
pub fn read_dlx1_until(
    text: &str,
    deadline: Option<std::time::Instant>,
) -> Result<Option<ExactCover>, Dlx1Error> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let err = |line, column, kind| Dlx1Error { line, column, kind };
    let Some((item_line, first)) = lines.by_ref().find(|(_, l)| !skipped(l)) else {
        let last = text.lines().count().max(1);
        return Err(err(last, 1, Dlx1ErrorKind::NoItems));
    };
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<&str, u32> = HashMap::new();
    let mut second: Option<usize> = None;
    for (col, tok) in tokens(first) {
        let (col, name) = if let Some(rest) = tok.strip_prefix('|') {
            if second.is_some() {
                return Err(err(item_line, col, Dlx1ErrorKind::BarTwice));
            }
            second = Some(names.len());
            if rest.is_empty() {
                continue;
            }
            (col + 1, rest)
        } else {
            (col, tok)
        };
        if check_name(name).is_err() {
            return Err(err(item_line, col, Dlx1ErrorKind::BadName(name.into())));
        }
        if index.insert(name, names.len() as u32).is_some() {
            return Err(err(
                item_line,
                col,
                Dlx1ErrorKind::DuplicateItem(name.into()),
            ));
        }
        names.push(name.to_string());
    }
    let primary = second.unwrap_or(names.len());
    let mut x = ExactCover::from_names(names, primary);
    let mut option: Vec<u32> = Vec::new();
    let mut cols: Vec<usize> = Vec::new();
    for (line, text) in lines {
        if line % LINES_PER_CLOCK_READ == 0
            && deadline.is_some_and(|d| std::time::Instant::now() >= d)
        {
            return Ok(None);
        }
        if skipped(text) {
            continue;
        }
        option.clear();
        cols.clear();
        for (col, tok) in tokens(text) {
            let Some(&i) = index.get(tok) else {
                return Err(err(line, col, Dlx1ErrorKind::UnknownItem(tok.into())));
            };
            option.push(i);
            cols.push(col);
        }
        match x.add_option(option.iter().copied()) {
            Ok(_) => {}
            Err(CoverError::RepeatedItem(name)) => {
                // Report the second occurrence.
                let mut seen = Vec::new();
                let at = option
                    .iter()
                    .position(|i| {
                        let dup = seen.contains(i);
                        seen.push(*i);
                        dup
                    })
                    .unwrap_or(0);
                return Err(err(line, cols[at], Dlx1ErrorKind::RepeatedItem(name)));
            }
            Err(_) => return Err(err(line, 1, Dlx1ErrorKind::TooLarge)),
        }
    }
    Ok(Some(x))
}

/// Writes `x` in DLX1's format: each of `comments` as a `| ` comment line, the item line, then
/// one line per option. A problem with no primary item cannot be written in this format (its
/// item line would read as a comment).
pub fn write_dlx1<W: Write>(x: &ExactCover, comments: &[&str], mut out: W) -> io::Result<()> {
    for c in comments {
        for l in c.lines() {
            writeln!(out, "| {l}")?;
        }
    }
    let names = x.names();
    let mut line = String::new();
    for (i, name) in names.iter().enumerate() {
        if i == x.primary_items() {
            line.push_str(if i == 0 { "|" } else { " |" });
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(name);
    }
    writeln!(out, "{line}")?;
    for opt in x.all_options() {
        line.clear();
        for (k, &i) in opt.iter().enumerate() {
            if k > 0 {
                line.push(' ');
            }
            line.push_str(&names[i as usize]);
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// [`write_dlx1`] into a string.
pub fn to_dlx1(x: &ExactCover, comments: &[&str]) -> String {
    let mut out = Vec::new();
    write_dlx1(x, comments, &mut out).expect("writing to a Vec cannot fail");
    String::from_utf8(out).expect("names are UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNUTH: &str =
        "| A simple example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

    /// A passed deadline stops the reading of a long file; none reads it whole.
    #[test]
    fn reading_stops_at_the_deadline() {
        let mut text = String::from("a b\n");
        for _ in 0..3 * LINES_PER_CLOCK_READ {
            text.push_str("a\n");
        }
        let past = std::time::Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(1));
        assert_eq!(read_dlx1_until(&text, Some(past)), Ok(None));
        let x = read_dlx1(&text).unwrap();
        assert_eq!(x.options(), 3 * LINES_PER_CLOCK_READ);
    }

    #[test]
    fn reads_knuths_example_and_round_trips() {
        let x = read_dlx1(KNUTH).unwrap();
        assert_eq!((x.primary_items(), x.secondary_items()), (5, 2));
        assert_eq!((x.options(), x.ones()), (6, 16));
        assert_eq!(x.option(0), &[2, 4, 5]);
        let text = to_dlx1(&x, &["A simple example"]);
        assert_eq!(text, KNUTH);
        assert_eq!(read_dlx1(&text).unwrap(), x);
    }

    #[test]
    fn bar_may_touch_a_name_and_comments_go_anywhere() {
        let x = read_dlx1("\n  | c\nA B |C\n| c2\n\nA C\n  B\n").unwrap();
        assert_eq!((x.primary_items(), x.items(), x.options()), (2, 3, 2));
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read_dlx1("A B\nA  Q\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 4));
        assert_eq!(e.kind, Dlx1ErrorKind::UnknownItem("Q".into()));
        let e = read_dlx1("| x\nA B A\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 5, Dlx1ErrorKind::DuplicateItem("A".into()))
        );
        let e = read_dlx1("A B\nB A B\n").unwrap_err();
        assert_eq!(
            (e.line, e.column, e.kind),
            (2, 5, Dlx1ErrorKind::RepeatedItem("B".into()))
        );
        let e = read_dlx1("A | B | C\n").unwrap_err();
        assert_eq!((e.line, e.column, e.kind), (1, 7, Dlx1ErrorKind::BarTwice));
        let e = read_dlx1("A b:c\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        assert!(matches!(e.kind, Dlx1ErrorKind::BadName(_)));
        let e = read_dlx1("| only a comment\n\n").unwrap_err();
        assert_eq!(e.kind, Dlx1ErrorKind::NoItems);
        assert!(e.to_string().contains("line"));
    }
}
