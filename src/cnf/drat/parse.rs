//! Reading proof steps from a DRAT file, text or binary.
//!
//! The two forms are those of DRAT-trim (Wetzler, Heule and Hunt, SAT 2014). Text: each
//! step is an optional `d`, then literals as decimal integers, then `0`, separated by white
//! space; a `c` at the start of a step comments out the rest of its line. Binary: each step is
//! the byte `a` or `d`, then each literal as `2 * variable + (1 if negative)` in 7-bit groups,
//! low group first, the high bit set on every byte but the last, then a 0 byte.
//!
//! A file is binary when its first byte is `a` or when its first block (what the reader's
//! `fill_buf` returns first) holds a byte that is neither printable ASCII nor white space;
//! otherwise it is text.
//!
//! The reader copies the input through a buffer the caller owns (so that repeated checks do
//! not allocate one each time) and tracks the line and column of text steps, or the byte
//! offset of binary ones, for error messages.

use std::io::{self, BufRead};

use super::error::{DratError, ProofFormat, ProofPosition};

/// Size of the read buffer.
const BUFFER: usize = 1 << 16;

/// One step read: a deletion or an addition, where it starts, and (in the caller's vector)
/// its literals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Step {
    pub delete: bool,
    pub position: ProofPosition,
}

pub(super) struct ProofReader<'b, R> {
    input: R,
    buf: &'b mut Vec<u8>,
    at: usize,
    end: usize,
    /// File offset of `buf[0]`.
    base: u64,
    eof: bool,
    format: ProofFormat,
    /// Text: the current line (1-based) and the file offset where it starts.
    line: u64,
    line_start: u64,
    /// The text of a token that is not a number, for its error message.
    token: Vec<u8>,
}

impl<'b, R: BufRead> ProofReader<'b, R> {
    pub fn new(mut input: R, buf: &'b mut Vec<u8>) -> io::Result<Self> {
        let head = input.fill_buf()?;
        let binary = head.first() == Some(&b'a')
            || head
                .iter()
                .any(|&b| !(b.is_ascii_graphic() || b.is_ascii_whitespace()));
        if buf.len() < BUFFER {
            buf.resize(BUFFER, 0);
        }
        Ok(Self {
            input,
            buf,
            at: 0,
            end: 0,
            base: 0,
            eof: false,
            format: if binary {
                ProofFormat::Binary
            } else {
                ProofFormat::Text
            },
            line: 1,
            line_start: 0,
            token: Vec::new(),
        })
    }

    pub fn format(&self) -> ProofFormat {
        self.format
    }

    /// The next step, or `None` at the end of the file; its literals replace `lits`.
    pub fn next_step(&mut self, lits: &mut Vec<i32>) -> Result<Option<Step>, DratError> {
        lits.clear();
        match self.format {
            ProofFormat::Text => self.next_text_step(lits),
            ProofFormat::Binary => self.next_binary_step(lits),
        }
    }

    fn refill(&mut self) -> Result<(), DratError> {
        if self.eof {
            return Ok(());
        }
        self.base += self.end as u64;
        self.at = 0;
        self.end = 0;
        loop {
            match self.input.read(&mut self.buf[..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end = n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(DratError::Io(e)),
            }
        }
    }

    #[inline]
    fn peek(&mut self) -> Result<Option<u8>, DratError> {
        if self.at == self.end {
            self.refill()?;
            if self.at == self.end {
                return Ok(None);
            }
        }
        Ok(Some(self.buf[self.at]))
    }

    /// Consumes the byte `peek` returned.
    #[inline]
    fn bump(&mut self, b: u8) {
        self.at += 1;
        if b == b'\n' {
            self.line += 1;
            self.line_start = self.offset();
        }
    }

    fn offset(&self) -> u64 {
        self.base + self.at as u64
    }

    fn position(&self) -> ProofPosition {
        match self.format {
            ProofFormat::Text => ProofPosition::Text {
                line: self.line,
                column: self.offset() - self.line_start + 1,
            },
            ProofFormat::Binary => ProofPosition::Binary {
                byte: self.offset(),
            },
        }
    }

    fn syntax(position: ProofPosition, message: String) -> DratError {
        DratError::Syntax { position, message }
    }

    fn next_binary_step(&mut self, lits: &mut Vec<i32>) -> Result<Option<Step>, DratError> {
        let start = self.position();
        let Some(b) = self.peek()? else {
            return Ok(None);
        };
        self.bump(b);
        let delete = match b {
            b'a' => false,
            b'd' => true,
            _ => {
                return Err(Self::syntax(
                    start,
                    format!(
                        "expected `a` (0x61) or `d` (0x64) to start a binary step, found 0x{b:02x}"
                    ),
                ))
            }
        };
        loop {
            let at = self.position();
            let mut value: u64 = 0;
            let mut shift = 0;
            loop {
                let Some(b) = self.peek()? else {
                    return Err(Self::syntax(
                        at,
                        "expected a literal or the 0 that ends the clause, found the end of the file"
                            .into(),
                    ));
                };
                self.bump(b);
                value |= u64::from(b & 0x7f) << shift;
                if b & 0x80 == 0 {
                    break;
                }
                shift += 7;
                if shift > 35 {
                    return Err(Self::syntax(
                        at,
                        "expected a literal of at most 31 bits, found a longer number".into(),
                    ));
                }
            }
            if value == 0 {
                return Ok(Some(Step {
                    delete,
                    position: start,
                }));
            }
            let var = value >> 1;
            if var == 0 || var > i32::MAX as u64 {
                return Err(Self::syntax(
                    at,
                    format!(
                        "expected a literal (2 * variable + sign, variable 1 to {}), found {value}",
                        i32::MAX
                    ),
                ));
            }
            let var = var as i32;
            lits.push(if value & 1 == 1 { -var } else { var });
        }
    }

    /// Skips the rest of a comment line, its newline included.
    fn skip_line(&mut self) -> Result<(), DratError> {
        loop {
            if self.at == self.end {
                self.refill()?;
                if self.at == self.end {
                    return Ok(());
                }
            }
            let rest = &self.buf[self.at..self.end];
            match rest.iter().position(|&b| b == b'\n') {
                Some(k) => {
                    self.at += k;
                    self.bump(b'\n');
                    return Ok(());
                }
                None => self.at = self.end,
            }
        }
    }

    fn next_text_step(&mut self, lits: &mut Vec<i32>) -> Result<Option<Step>, DratError> {
        let mut start: Option<ProofPosition> = None;
        let mut delete = false;
        loop {
            // White space and comment lines.
            let Some(b) = self.peek()? else {
                return match start {
                    None => Ok(None),
                    Some(_) => Err(Self::syntax(
                        self.position(),
                        "expected a literal or the 0 that ends the clause, found the end of the file"
                            .into(),
                    )),
                };
            };
            if b.is_ascii_whitespace() {
                self.bump(b);
                continue;
            }
            if b == b'c' && start.is_none() {
                self.skip_line()?;
                continue;
            }
            let at = self.position();
            let value = self.number()?;
            let Some(value) = value else {
                if self.token == b"d" && start.is_none() {
                    start = Some(at);
                    delete = true;
                    continue;
                }
                return Err(Self::syntax(
                    at,
                    format!(
                        "expected a literal (a non-zero integer), a 0 ending the clause, `d` or a \
                         `c` comment line, found `{}`",
                        String::from_utf8_lossy(&self.token)
                    ),
                ));
            };
            let start = *start.get_or_insert(at);
            if value == 0 {
                return Ok(Some(Step {
                    delete,
                    position: start,
                }));
            }
            if value.unsigned_abs() > i32::MAX as u64 {
                return Err(Self::syntax(
                    at,
                    format!(
                        "expected a literal of magnitude at most {}, found {value}",
                        i32::MAX
                    ),
                ));
            }
            lits.push(value as i32);
        }
    }

    /// Reads a token (up to white space or the end of the file): its value when it is a
    /// decimal integer that fits an `i64` (with an optional sign), else `None` with its text
    /// in `self.token`.
    fn number(&mut self) -> Result<Option<i64>, DratError> {
        let mut negative = false;
        let mut digits = 0u32;
        let mut magnitude: u64 = 0;
        let mut valid = true;
        let mut first = true;
        self.token.clear();
        while let Some(b) = self.peek()? {
            if b.is_ascii_whitespace() {
                break;
            }
            self.bump(b);
            self.token.push(b);
            match b {
                b'-' | b'+' if first => negative = b == b'-',
                b'0'..=b'9' => {
                    digits += 1;
                    match magnitude
                        .checked_mul(10)
                        .and_then(|m| m.checked_add(u64::from(b - b'0')))
                    {
                        Some(m) => magnitude = m,
                        None => valid = false,
                    }
                }
                _ => valid = false,
            }
            first = false;
        }
        if !valid || digits == 0 {
            return Ok(None);
        }
        // Whatever `i64` holds: up to 2^63 - 1, or 2^63 when negative.
        Ok(if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn steps(proof: &[u8]) -> Result<Vec<(bool, Vec<i32>, ProofPosition)>, DratError> {
        let mut buf = Vec::new();
        let mut r = ProofReader::new(proof, &mut buf).map_err(DratError::Io)?;
        let mut out = Vec::new();
        let mut lits = Vec::new();
        while let Some(s) = r.next_step(&mut lits)? {
            out.push((s.delete, lits.clone(), s.position));
        }
        Ok(out)
    }

    fn text(line: u64, column: u64) -> ProofPosition {
        ProofPosition::Text { line, column }
    }

    #[test]
    fn text_steps_comments_and_positions() {
        // `c` inside a step is a token, not a comment.
        let got = steps(b"1 c 0\n").unwrap_err();
        assert!(matches!(got, DratError::Syntax { .. }), "{got:?}");
        let got = steps(b"c head\n1 -2 0\n  d 3\n 4 0\nc tail\n+5 -0").unwrap();
        assert_eq!(
            got,
            vec![
                (false, vec![1, -2], text(2, 1)),
                (true, vec![3, 4], text(3, 3)),
                (false, vec![5], text(6, 1)),
            ]
        );
        // A step split across buffer refills keeps its values and position.
        let mut long = b"c x\n".to_vec();
        long.extend(vec![b' '; BUFFER - 6]);
        long.extend(b"123456 -7 0\n");
        let got = steps(&long).unwrap();
        assert_eq!(
            got,
            vec![(false, vec![123456, -7], text(2, BUFFER as u64 - 5))]
        );
    }

    #[test]
    fn text_numbers_out_of_range_are_refused() {
        let err = steps(b"2147483648 0\n").unwrap_err();
        match err {
            DratError::Syntax { message, .. } => {
                assert!(message.contains("found 2147483648"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        // -2^31 is not a literal; -2^63 parses (as `i64` does) and is refused by magnitude;
        // anything longer is not a number at all.
        for (input, needle) in [
            (&b"-2147483648 0"[..], "magnitude"),
            (b"-9223372036854775808 0", "magnitude"),
            (b"99999999999999999999 0", "found `99999999999999999999`"),
            (b"1-2 0", "found `1-2`"),
            (b"- 0", "found `-`"),
            (b"dd 1 0", "found `dd`"),
            (b"1 d 0", "found `d`"),
        ] {
            match steps(input).unwrap_err() {
                DratError::Syntax { message, .. } => assert!(message.contains(needle), "{message}"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn binary_steps() {
        // a 2 -1 0, d 200 0 (variable 200 takes two bytes: 400 = 0x190).
        let got = steps(b"a\x04\x03\x00d\x90\x03\x00").unwrap();
        assert_eq!(
            got,
            vec![
                (false, vec![2, -1], ProofPosition::Binary { byte: 0 }),
                (true, vec![200], ProofPosition::Binary { byte: 4 }),
            ]
        );
        let err = steps(b"a\x80\x80\x80\x80\x80\x01\x00").unwrap_err();
        assert!(
            matches!(
                err,
                DratError::Syntax {
                    position: ProofPosition::Binary { byte: 1 },
                    ..
                }
            ),
            "{err:?}"
        );
        // Variable 0 (value 1) is not a literal.
        let err = steps(b"a\x01\x00").unwrap_err();
        assert!(matches!(err, DratError::Syntax { .. }), "{err:?}");
    }
}
