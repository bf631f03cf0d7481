//! Models written by SAT solvers, in the two conventions in use:
//!
//! - SAT competition output format (competition rules since 2002): `c` comment lines, one
//!   status line `s SATISFIABLE` / `s UNSATISFIABLE` / `s UNKNOWN`, then `v` lines of literals,
//!   the last ended by `0` (cadical, kissat, glucose, picosat -v ...);
//! - MiniSat's result file (`minisat in.cnf out.txt`): `SAT` then one line of literals ended by
//!   `0`; `UNSAT`; `INDET` when it stopped without an answer.

use super::dimacs::{syntax, tokens, SyntaxError};

/// A (possibly partial) assignment: `value(var)`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Model {
    /// `values[var]`, index 0 unused.
    values: Vec<Option<bool>>,
}

impl Model {
    /// The model that makes these literals true (a later literal of a variable wins).
    pub fn from_lits(lits: &[i32]) -> Self {
        let mut m = Model::default();
        for &l in lits {
            m.set(l);
        }
        m
    }

    /// A model of `values[var]` for `var` in `1..values.len()` (index 0 ignored).
    pub fn from_values(values: Vec<Option<bool>>) -> Self {
        Model { values }
    }

    /// Makes literal `l` true.
    pub fn set(&mut self, l: i32) {
        if l == 0 {
            return;
        }
        let v = l.unsigned_abs() as usize;
        if self.values.len() <= v {
            self.values.resize(v + 1, None);
        }
        self.values[v] = Some(l > 0);
    }

    /// Value of `var`; `None` if the model does not assign it.
    pub fn value(&self, var: u32) -> Option<bool> {
        self.values.get(var as usize).copied().flatten()
    }

    /// Whether literal `l` is true in the model (unassigned = not true).
    pub fn is_true(&self, l: i32) -> bool {
        self.value(l.unsigned_abs()) == Some(l > 0)
    }

    /// Largest variable the model mentions.
    pub fn max_var(&self) -> u32 {
        self.values.len().saturating_sub(1) as u32
    }

    /// The assigned literals in variable order.
    pub fn lits(&self) -> Vec<i32> {
        self.values
            .iter()
            .enumerate()
            .filter_map(|(v, &b)| b.map(|b| if b { v as i32 } else { -(v as i32) }))
            .collect()
    }
}

/// What a solver answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverAnswer {
    Sat(Model),
    Unsat,
    /// `s UNKNOWN` or `INDET`: no answer (limit, interrupt).
    Unknown,
}

/// Whether a line of a solver's output is blank or a comment (`c`, `c ...`).
pub fn is_comment(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t == "c" || t.starts_with("c ")
}

/// Reads a solver's answer in either convention (detected from the first line that is not a
/// comment or blank). Errors name the line and column. A literal of a variable above
/// `max_var` (the formula's variables) is an error, so that a stray number cannot make the
/// model allocate a table for it.
pub fn read_model(text: &str, max_var: u32) -> Result<SolverAnswer, SyntaxError> {
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
    let first = lines.by_ref().find(|(_, l)| !is_comment(l));
    let Some((ln, first)) = first else {
        return Err(syntax(
            1,
            1,
            "expected an answer (an `s SATISFIABLE`/`s UNSATISFIABLE` line, or SAT/UNSAT \
             first in minisat's result file), found no line but comments",
        ));
    };
    match first.trim() {
        "SAT" => {
            let mut m = Model::default();
            let mut ended = false;
            for (ln, line) in lines {
                for (col, tok) in tokens(line) {
                    if ended {
                        return Err(syntax(ln, col, "literal after the final 0"));
                    }
                    let l = lit(tok, ln, col, max_var)?;
                    if l == 0 {
                        ended = true;
                    } else {
                        assign(&mut m, l, ln, col)?;
                    }
                }
            }
            if !ended {
                return Err(syntax(ln + 1, 1, "model line is not ended by 0"));
            }
            Ok(SolverAnswer::Sat(m))
        }
        "UNSAT" => Ok(SolverAnswer::Unsat),
        "INDET" => Ok(SolverAnswer::Unknown),
        _ => read_competition(std::iter::once((ln, first)).chain(lines), max_var),
    }
}

/// Makes `l` true in `m`, refusing a literal whose variable the model already set the other
/// way: such a "model" is no assignment at all.
fn assign(m: &mut Model, l: i32, ln: usize, col: usize) -> Result<(), SyntaxError> {
    if m.value(l.unsigned_abs()) == Some(l < 0) {
        return Err(syntax(
            ln,
            col,
            format!(
                "literal {l}, but the model already gave {}: a model sets each variable one way",
                -l
            ),
        ));
    }
    m.set(l);
    Ok(())
}

fn lit(tok: &str, ln: usize, col: usize, max_var: u32) -> Result<i32, SyntaxError> {
    let l = tok
        .parse::<i32>()
        .map_err(|_| syntax(ln, col, format!("{tok:?} is not a literal")))?;
    if l.unsigned_abs() > max_var {
        return Err(syntax(
            ln,
            col,
            format!("literal {l} names a variable above the formula's {max_var}"),
        ));
    }
    Ok(l)
}

fn read_competition<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    max_var: u32,
) -> Result<SolverAnswer, SyntaxError> {
    let mut status: Option<&str> = None;
    let mut m = Model::default();
    let mut ended = false;
    let mut saw_v = false;
    let mut last_line = 0;
    for (ln, line) in lines {
        last_line = ln;
        let t = line.trim_start();
        let col0 = line.len() - t.len() + 1;
        let mut toks = tokens(line);
        match toks.next() {
            None => continue,
            Some((_, "c")) => continue,
            Some((_, "s")) => {
                if status.is_some() {
                    return Err(syntax(ln, col0, "second `s` line"));
                }
                let rest = t[1..].trim();
                match rest {
                    "SATISFIABLE" | "UNSATISFIABLE" | "UNKNOWN" => status = Some(rest),
                    _ => return Err(syntax(ln, col0 + 2, format!("unknown status {rest:?}"))),
                }
            }
            Some((_, "v")) => {
                if let Some(s @ ("UNSATISFIABLE" | "UNKNOWN")) = status {
                    return Err(syntax(
                        ln,
                        col0,
                        format!("a `v` line after `s {s}`: only a SATISFIABLE answer has a model"),
                    ));
                }
                saw_v = true;
                for (col, tok) in toks {
                    if ended {
                        return Err(syntax(ln, col, "literal after the final 0"));
                    }
                    let l = lit(tok, ln, col, max_var)?;
                    if l == 0 {
                        ended = true;
                    } else {
                        assign(&mut m, l, ln, col)?;
                    }
                }
            }
            Some((col, tok)) => {
                return Err(syntax(
                    ln,
                    col,
                    format!("line starts with {tok:?}, expected `c`, `s` or `v`"),
                ))
            }
        }
    }
    match status {
        Some("SATISFIABLE") => {
            if !saw_v {
                return Err(syntax(last_line.max(1), 1, "SATISFIABLE without `v` lines"));
            }
            if !ended {
                return Err(syntax(last_line.max(1), 1, "`v` lines are not ended by 0"));
            }
            Ok(SolverAnswer::Sat(m))
        }
        Some(s) if saw_v => Err(syntax(
            last_line.max(1),
            1,
            format!("`v` lines with `s {s}`: only a SATISFIABLE answer has a model"),
        )),
        Some("UNSATISFIABLE") => Ok(SolverAnswer::Unsat),
        Some(_) => Ok(SolverAnswer::Unknown),
        None => Err(syntax(last_line.max(1), 1, "no `s` status line")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A model that sets a variable both ways, and `v` lines with an answer other than
    /// SATISFIABLE, were read without a word (the last literal won; the lines were ignored).
    #[test]
    fn contradictions_are_refused_at_their_position() {
        let e = read_model("s SATISFIABLE\nv 1 -2\nv 2 0\n", 10).unwrap_err();
        assert_eq!((e.line, e.column), (3, 3), "{e}");
        assert!(
            e.message
                .contains("literal 2, but the model already gave -2"),
            "{e}"
        );
        let e = read_model("SAT\n1 -1 0\n", 10).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3), "{e}");
        let e = read_model("s UNSATISFIABLE\nv 1 2 0\n", 10).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1), "{e}");
        assert!(e.message.contains("after `s UNSATISFIABLE`"), "{e}");
        let e = read_model("v 1 2 0\ns UNKNOWN\n", 10).unwrap_err();
        assert!(e.message.contains("`v` lines with `s UNKNOWN`"), "{e}");
        // the same literal twice is no contradiction
        assert!(read_model("s SATISFIABLE\nv 1 1 0\n", 10).is_ok());
    }

    #[test]
    fn competition_format() {
        let t = "c hello\ns SATISFIABLE\nv 1 -2 3\nv -4 0\n";
        let SolverAnswer::Sat(m) = read_model(t, 100).unwrap() else {
            panic!()
        };
        assert_eq!(m.lits(), vec![1, -2, 3, -4]);
        assert_eq!(
            read_model("s UNSATISFIABLE\n", 100).unwrap(),
            SolverAnswer::Unsat
        );
        assert_eq!(
            read_model("c x\ns UNKNOWN\n", 100).unwrap(),
            SolverAnswer::Unknown
        );
        let e = read_model("s SATISFIABLE\nv 1 x 0\n", 100).unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        let e = read_model("s SATISFIABLE\nv 1 2\n", 100).unwrap_err();
        assert!(e.message.contains("not ended"), "{e}");
        let e = read_model("s SATISFIED\n", 100).unwrap_err();
        assert_eq!(e.line, 1);
        let e = read_model("s SATISFIABLE\nq 1 0\n", 100).unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
    }

    #[test]
    fn minisat_format() {
        let SolverAnswer::Sat(m) = read_model("SAT\n-1 2 -3 0\n", 100).unwrap() else {
            panic!()
        };
        assert_eq!(m.value(2), Some(true));
        assert_eq!(m.value(3), Some(false));
        assert_eq!(m.value(4), None);
        assert!(m.is_true(-1));
        assert_eq!(read_model("UNSAT\n", 100).unwrap(), SolverAnswer::Unsat);
        assert_eq!(read_model("INDET\n", 100).unwrap(), SolverAnswer::Unknown);
        let e = read_model("SAT\n1 2\n", 100).unwrap_err();
        assert!(e.message.contains("not ended"));
        let e = read_model("SAT\n1 0 2\n", 100).unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert!(read_model("", 100).is_err());
        // a variable above the formula's is refused where it stands, not allocated
        for text in ["s SATISFIABLE\nv 1 -101 0\n", "SAT\n1 2147483647 0\n"] {
            let e = read_model(text, 100).unwrap_err();
            assert_eq!(
                (e.line, e.column),
                (2, if text.starts_with('s') { 5 } else { 3 })
            );
            assert!(
                e.message.contains("above the formula's 100"),
                "{}",
                e.message
            );
        }
        assert!(read_model("SAT\n-100 0\n", 100).is_ok());
    }
}
