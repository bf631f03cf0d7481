//! DIMACS CNF, the input format of the SAT competitions ("Satisfiability Suggested Format",
//! DIMACS 1993): comment lines `c ...`, the header `p cnf V C`, then clauses as literals
//! (`v` or `-v`) each ended by `0`, free-form across lines. A line `%` (SATLIB) ends the
//! clauses.
//!
//! The writer puts the formula's meaning in comments before the header (see [`super::header`]);
//! the reader keeps every comment with its line number so that [`super::parse_header`] and
//! [`super::decode_checked`] can rebuild the grid from a model.

use super::formula::{Clauses, Cnf};
use super::header::header_lines;
use std::io::{self, BufRead, BufWriter, Write};

/// Writes `cnf` as DIMACS with the header comments. Assumptions are written as a
/// `c assume` comment, not as clauses.
pub fn write_dimacs(cnf: &Cnf, out: &mut dyn Write) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 16, out);
    for line in header_lines(&cnf.info, &cnf.assumptions) {
        writeln!(w, "c {line}")?;
    }
    write_clauses(&mut w, cnf.num_vars, &cnf.clauses, &[])?;
    w.flush()
}

/// Writes `p cnf` and the clauses of `clauses` followed by `units` as unit clauses.
pub fn write_clauses(
    w: &mut dyn Write,
    num_vars: u32,
    clauses: &Clauses,
    units: &[i32],
) -> io::Result<()> {
    writeln!(w, "p cnf {} {}", num_vars, clauses.len() + units.len())?;
    let mut buf = Vec::with_capacity(64);
    for c in clauses.iter() {
        buf.clear();
        for &l in c {
            push_int(&mut buf, l as i64);
            buf.push(b' ');
        }
        buf.extend_from_slice(b"0\n");
        w.write_all(&buf)?;
    }
    for &l in units {
        writeln!(w, "{l} 0")?;
    }
    Ok(())
}

pub(crate) fn push_int(buf: &mut Vec<u8>, v: i64) {
    if v < 0 {
        buf.push(b'-');
    }
    let mut x = v.unsigned_abs();
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (x % 10) as u8;
        x /= 10;
        if x == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// A DIMACS file read back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dimacs {
    pub num_vars: u32,
    pub clauses: Clauses,
    /// Comment lines: (1-based line number, text after the `c` and one space).
    pub comments: Vec<(usize, String)>,
}

/// A syntax error in a DIMACS or model file, at a 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
    pub message: String,
}

pub(crate) fn syntax(line: usize, column: usize, message: impl Into<String>) -> SyntaxError {
    SyntaxError {
        line,
        column,
        message: message.into(),
    }
}

/// Whitespace-separated tokens of `line` with their 1-based columns.
pub(crate) fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line;
    let mut offset = 0;
    std::iter::from_fn(move || {
        let start = rest.find(|c: char| !c.is_whitespace())?;
        let tail = &rest[start..];
        let len = tail.find(char::is_whitespace).unwrap_or(tail.len());
        let tok = &tail[..len];
        let col = offset + start + 1;
        offset += start + len;
        rest = &tail[len..];
        Some((col, tok))
    })
}

/// A count of the `p cnf` header, `(column, token)`: a whole number of at most `max`.
fn header_count(
    (col, tok): (usize, &str),
    line: usize,
    what: &str,
    max: usize,
) -> Result<usize, SyntaxError> {
    if tok.is_empty() || !tok.bytes().all(|b| b.is_ascii_digit()) {
        return Err(syntax(
            line,
            col,
            format!("expected the number of {what}, found {tok:?}, which is not a whole number"),
        ));
    }
    match tok.parse::<usize>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(syntax(
            line,
            col,
            format!(
                "expected the number of {what}, at most {max}, found {tok}, which is too large"
            ),
        )),
    }
}

/// Reads DIMACS CNF text.
pub fn read_dimacs_str(text: &str) -> Result<Dimacs, SyntaxError> {
    read_dimacs(text.as_bytes())
}

/// Reads DIMACS CNF from a reader. Checks: one `p cnf V C` header before any clause,
/// literals within `1..=V`, every clause ended by 0, exactly `C` clauses.
pub fn read_dimacs(input: impl BufRead) -> Result<Dimacs, SyntaxError> {
    let mut d = Dimacs::default();
    let mut header: Option<(usize, usize)> = None; // (declared clauses, line)
    let mut current: Vec<i32> = Vec::new();
    let mut last = (0usize, 0usize);
    let mut lineno = 0;
    for line in input.lines() {
        lineno += 1;
        let line = line.map_err(|e| syntax(lineno, 1, format!("read error: {e}")))?;
        let trimmed = line.trim_start();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(rest) = trimmed.strip_prefix('c') {
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                let text = rest.strip_prefix(' ').unwrap_or(rest);
                d.comments.push((lineno, text.trim_end().to_string()));
                continue;
            }
        }
        if trimmed.starts_with('%') {
            break;
        }
        if trimmed.starts_with('p') {
            let col0 = line.len() - trimmed.len() + 1;
            if header.is_some() {
                return Err(syntax(lineno, col0, "second `p` header"));
            }
            let toks: Vec<(usize, &str)> = tokens(&line).collect();
            if toks.len() != 4 || toks[0].1 != "p" || toks[1].1 != "cnf" {
                return Err(syntax(lineno, col0, "header must be `p cnf VARS CLAUSES`"));
            }
            let v = header_count(toks[2], lineno, "variables", i32::MAX as usize)?;
            let c = header_count(toks[3], lineno, "clauses", usize::MAX)?;
            d.num_vars = v as u32;
            header = Some((c, lineno));
            continue;
        }
        for (col, tok) in tokens(&line) {
            if header.is_none() {
                return Err(syntax(lineno, col, "clause before the `p cnf` header"));
            }
            let l: i32 = tok
                .parse()
                .map_err(|_| syntax(lineno, col, format!("{tok:?} is not a literal")))?;
            if l.unsigned_abs() > d.num_vars {
                return Err(syntax(
                    lineno,
                    col,
                    format!(
                        "literal {l} is beyond the {} declared variables",
                        d.num_vars
                    ),
                ));
            }
            last = (lineno, col);
            if l == 0 {
                d.clauses.push(&current);
                current.clear();
            } else {
                current.push(l);
            }
        }
    }
    let Some((declared, hline)) = header else {
        return Err(syntax(lineno.max(1), 1, "no `p cnf` header"));
    };
    if !current.is_empty() {
        return Err(syntax(last.0, last.1, "last clause is not ended by 0"));
    }
    if d.clauses.len() != declared {
        return Err(syntax(
            hline,
            1,
            format!(
                "header declares {declared} clauses, the file has {}",
                d.clauses.len()
            ),
        ));
    }
    Ok(d)
}
