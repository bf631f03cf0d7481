//! Lines, positions, tokens and symbols: the pieces shared by the readers.

use super::{Alphabet, ParseError, ParseErrorKind};
use std::collections::HashMap;

/// Marks a character that is not a symbol in [`Symbols::char_value`].
pub(super) const UNKNOWN: u16 = u16::MAX;

/// The input and its name, to place errors.
pub(super) struct Ctx<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl Ctx<'_> {
    fn error(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            file: self.file.to_string(),
            line,
            column,
            kind,
        }
    }

    /// An error at byte `offset` of `line` (the text of line number `number`).
    pub fn error_at(
        &self,
        number: usize,
        line: &str,
        offset: usize,
        kind: ParseErrorKind,
    ) -> ParseError {
        self.error(number, column(line, offset), kind)
    }

    /// An error at byte `offset` of the whole input.
    pub fn error_at_byte(&self, offset: usize, kind: ParseErrorKind) -> ParseError {
        let offset = offset.min(self.text.len());
        let before = self.text.as_bytes()[..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        let start = self.text.as_bytes()[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        let line = self.text.get(start..).unwrap_or("");
        self.error(before + 1, column(line, offset - start), kind)
    }

    /// An error just past the last character of the input.
    pub fn error_at_end(&self, kind: ParseErrorKind) -> ParseError {
        self.error_at_byte(self.text.len(), kind)
    }
}

/// 1-based character column of byte `offset` in `line`.
pub(super) fn column(line: &str, offset: usize) -> usize {
    let offset = offset.min(line.len());
    let prefix = &line.as_bytes()[..offset];
    if prefix.is_ascii() {
        offset + 1
    } else {
        // Count characters: every byte that does not continue a UTF-8 sequence.
        prefix.iter().filter(|&&b| (b & 0xC0) != 0x80).count() + 1
    }
}

/// Byte offset of `part` (a subslice) in `whole`.
#[inline]
pub(super) fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// Lines with their 1-based numbers, without line terminators (`\n`, `\r\n`, or a lone `\r`
/// as old Mac files have: read as one line, such a file would silently lose every puzzle
/// after the first). A final line terminator does not start another line.
pub(super) fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = text;
    let mut number = 0;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        number += 1;
        let line = match rest.find(['\n', '\r']) {
            None => std::mem::take(&mut rest),
            Some(i) => {
                let end = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                let line = &rest[..i];
                rest = &rest[i + end..];
                line
            }
        };
        Some((number, line))
    })
}

/// What a line is, before any format looks at it.
pub(super) enum LineKind {
    /// Only whitespace.
    Blank,
    /// First non-blank character `#`.
    Comment,
    /// Content starting at this byte offset.
    Content(usize),
}

pub(super) fn classify(line: &str) -> LineKind {
    let rest = line.trim_start();
    if rest.is_empty() {
        LineKind::Blank
    } else if rest.starts_with('#') {
        LineKind::Comment
    } else {
        LineKind::Content(line.len() - rest.len())
    }
}

/// Non-blank, non-comment lines, with their numbers.
pub(super) fn meaningful_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    lines(text).filter(|(_, l)| matches!(classify(l), LineKind::Content(_)))
}

/// Separators of grid tokens: whitespace and commas.
#[inline]
pub(super) fn is_sep(c: char) -> bool {
    c == ' ' || c == ',' || c.is_whitespace()
}

/// Tokens of a grid row (separated by whitespace and/or commas).
pub(super) fn tokens(line: &str) -> impl Iterator<Item = &str> {
    line.split(is_sep).filter(|t| !t.is_empty())
}

/// Number of characters of `s`.
#[inline]
pub(super) fn char_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().count()
    }
}

/// Integer square root: the `r` with `r*r <= x < (r+1)*(r+1)`.
pub(super) fn isqrt(x: usize) -> usize {
    let mut r = (x as f64).sqrt() as usize;
    while r > 0 && r.checked_mul(r).map_or(true, |s| s > x) {
        r -= 1;
    }
    while (r + 1).checked_mul(r + 1).is_some_and(|s| s <= x) {
        r += 1;
    }
    r
}

/// Region symbols of a jigsaw layout, numbered `0, 1, ...` in order of first appearance.
pub(super) struct RegionNames<'a> {
    map: HashMap<&'a str, u32>,
    names: Vec<&'a str>,
    sizes: Vec<usize>,
    ids: Vec<u32>,
}

impl<'a> RegionNames<'a> {
    pub fn with_capacity(cells: usize) -> Self {
        RegionNames {
            map: HashMap::new(),
            names: Vec::new(),
            sizes: Vec::new(),
            ids: Vec::with_capacity(cells),
        }
    }

    #[inline]
    pub fn push(&mut self, name: &'a str) {
        let next = self.names.len() as u32;
        let id = *self.map.entry(name).or_insert(next);
        if id == next {
            self.names.push(name);
            self.sizes.push(0);
        }
        self.sizes[id as usize] += 1;
        self.ids.push(id);
    }

    /// The region of every cell, checked: `n` regions of `n` cells.
    pub fn finish(self, n: usize) -> Result<Vec<u16>, ParseErrorKind> {
        if self.names.len() != n {
            return Err(ParseErrorKind::RegionCount {
                expected: n,
                found: self.names.len(),
            });
        }
        if let Some(r) = self.sizes.iter().position(|&s| s != n) {
            return Err(ParseErrorKind::RegionSize {
                region: self.names[r].to_string(),
                size: self.sizes[r],
                expected: n,
            });
        }
        // n <= MAX_SIDE, so region numbers fit in u16.
        Ok(self.ids.into_iter().map(|i| i as u16).collect())
    }
}

/// The symbols of one read: the alphabet plus the empty marks.
pub(super) struct Symbols<'a> {
    /// Value of each ASCII character: a digit, `0` for empty, [`UNKNOWN`].
    table: [u16; 128],
    alphabet: &'a Alphabet,
}

impl<'a> Symbols<'a> {
    pub fn new(alphabet: &'a Alphabet) -> Self {
        let mut table = [UNKNOWN; 128];
        for (c, slot) in table.iter_mut().enumerate() {
            if let Some(d) = alphabet.digit(c as u8 as char) {
                *slot = d;
            }
        }
        table[b'.' as usize] = 0;
        if !alphabet.has_zero() {
            table[b'0' as usize] = 0;
        }
        Symbols { table, alphabet }
    }

    pub fn alphabet(&self) -> &'a Alphabet {
        self.alphabet
    }

    /// Value of a character in the line format and in contiguous rows: a digit, `0` for an
    /// empty mark, [`UNKNOWN`] otherwise.
    #[inline]
    pub fn char_value(&self, c: char) -> u16 {
        if c.is_ascii() {
            self.table[c as usize]
        } else {
            self.alphabet.digit(c).unwrap_or(UNKNOWN)
        }
    }

    /// Value of an ASCII byte (see [`Symbols::char_value`]).
    #[inline]
    pub fn byte_value(&self, b: u8) -> u16 {
        self.table[(b & 0x7F) as usize]
    }

    /// Value of a grid token: a decimal number (saturated), `0` for `.`/`-`, or the digit of
    /// a one-character symbol. `None` if it is none of these.
    pub fn token_value(&self, token: &str) -> Option<u64> {
        let bytes = token.as_bytes();
        if !bytes.is_empty() && bytes.iter().all(u8::is_ascii_digit) {
            return Some(bytes.iter().fold(0u64, |acc, &b| {
                acc.saturating_mul(10).saturating_add(u64::from(b - b'0'))
            }));
        }
        let mut chars = token.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        if c == '.' || c == '-' {
            return Some(0);
        }
        self.alphabet.digit(c).map(u64::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_square_roots() {
        for x in 0..2000 {
            let r = isqrt(x);
            assert!(r * r <= x && (r + 1) * (r + 1) > x, "{x}");
        }
        assert_eq!(isqrt(usize::MAX), (1usize << (usize::BITS / 2)) - 1);
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(column("abc", 0), 1);
        assert_eq!(column("abc", 2), 3);
        assert_eq!(column("éa", 2), 2);
        assert_eq!(column("éa", 3), 3);
    }
}
