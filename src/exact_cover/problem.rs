//! The exact-cover problem in Knuth's terms: *items* (primary ones, to be covered exactly once,
//! and secondary ones, to be covered at most once) and *options*, each a set of items; a
//! solution is a set of options that covers every primary item exactly once and every
//! secondary item at most once.
//!
//! Source: D. E. Knuth, *The Art of Computer Programming* 7.2.2.1 ("Dancing links"), whose
//! vocabulary (items, options, primary/secondary) and whose program DLX1 this follows. As in
//! DLX1, an option that holds no primary item can never be chosen; it is kept here (so that
//! option numbers match the input) and the solver ignores it.

use std::collections::HashMap;
use std::fmt;

/// Why a set of options is not a solution of an exact cover problem (`check_solution`).
/// Items are named by their name, or by their number where they have none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SolutionError {
    #[error("option {0} does not exist")]
    NoOption(usize),
    /// A primary item not covered exactly once, or a secondary item covered more than once.
    #[error("item {item} is covered {times} times")]
    Covered { item: String, times: u32 },
    /// A secondary item covered by two options that do not give it the same colour.
    #[error("item {item} is covered twice, not in one colour")]
    Colours { item: String },
}

/// Why an item name or an option is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoverError {
    #[error("item name {0:?} is empty or holds a blank, `|` or `:`")]
    BadName(String),
    #[error("item name {0:?} is given twice")]
    DuplicateName(String),
    #[error("option has no item")]
    EmptyOption,
    #[error("option names item {item}, but there are only {items} items")]
    UnknownItem { item: usize, items: usize },
    #[error("option names item {0:?} twice")]
    RepeatedItem(String),
    #[error("the problem is too large for 32-bit node indices")]
    TooLarge,
    #[error("option gives item {item} colour {colour}: only secondary items take a colour, from 1 to 2^31 - 1")]
    BadColour { item: usize, colour: u32 },
}

/// An exact-cover problem: named items (primary first, then secondary) and options.
///
/// Items are numbered `0..items()`, the primary ones first. Options are numbered in the order
/// they were added; option `o` is the list [`ExactCover::option`]`(o)` of item numbers, in
/// the order given.
#[derive(Clone, PartialEq, Eq)]
pub struct ExactCover {
    names: Vec<String>,
    primary: usize,
    /// Item numbers of all options, one after the other.
    entries: Vec<u32>,
    /// Option `o` is `entries[starts[o]..starts[o + 1]]`.
    starts: Vec<u32>,
    /// Scratch marks for the repeated-item check: `mark[i] == stamp` when item `i` was seen
    /// in the option being added.
    mark: Vec<u32>,
    stamp: u32,
}

impl ExactCover {
    /// A problem with these primary and secondary items and no option yet. Names must be
    /// non-empty, hold no blank, `|` or `:` (Knuth's rule), and be distinct.
    pub fn new<S: AsRef<str>>(primary: &[S], secondary: &[S]) -> Result<Self, CoverError> {
        let mut seen = HashMap::with_capacity(primary.len() + secondary.len());
        let mut names = Vec::with_capacity(primary.len() + secondary.len());
        for name in primary.iter().chain(secondary) {
            let name = name.as_ref();
            check_name(name)?;
            if seen.insert(name.to_string(), names.len()).is_some() {
                return Err(CoverError::DuplicateName(name.to_string()));
            }
            names.push(name.to_string());
        }
        Ok(Self::from_names(names, primary.len()))
    }

    /// Items named `x1`, `x2`, ... (primary) and `y1`, `y2`, ... (secondary).
    pub fn unnamed(primary: usize, secondary: usize) -> Self {
        let names = (1..=primary)
            .map(|i| format!("x{i}"))
            .chain((1..=secondary).map(|i| format!("y{i}")))
            .collect();
        Self::from_names(names, primary)
    }

    /// Names already checked by the caller (valid and distinct).
    pub(crate) fn from_names(names: Vec<String>, primary: usize) -> Self {
        let items = names.len();
        ExactCover {
            names,
            primary,
            entries: Vec::new(),
            starts: vec![0],
            mark: vec![0; items],
            stamp: 0,
        }
    }

    /// Adds an option covering `items` (item numbers); returns its number. Refuses an empty
    /// option, an unknown item and an item named twice.
    pub fn add_option<I>(&mut self, items: I) -> Result<usize, CoverError>
    where
        I: IntoIterator,
        I::Item: TryInto<u32> + Copy,
    {
        let begin = self.entries.len();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.stamp = 1;
        }
        let total = self.names.len();
        for item in items {
            let Ok(i) = item.try_into() else {
                self.entries.truncate(begin);
                return Err(CoverError::UnknownItem {
                    item: usize::MAX,
                    items: total,
                });
            };
            if i as usize >= total {
                self.entries.truncate(begin);
                return Err(CoverError::UnknownItem {
                    item: i as usize,
                    items: total,
                });
            }
            if self.mark[i as usize] == self.stamp {
                self.entries.truncate(begin);
                return Err(CoverError::RepeatedItem(self.names[i as usize].clone()));
            }
            self.mark[i as usize] = self.stamp;
            self.entries.push(i);
        }
        if self.entries.len() == begin {
            return Err(CoverError::EmptyOption);
        }
        // The solver numbers its nodes with u32: headers + spacers + entries must fit.
        if self.entries.len() + self.names.len() + self.starts.len() + 1 >= u32::MAX as usize {
            self.entries.truncate(begin);
            return Err(CoverError::TooLarge);
        }
        self.starts.push(self.entries.len() as u32);
        Ok(self.starts.len() - 2)
    }

    /// Number of items, primary and secondary.
    #[inline]
    pub fn items(&self) -> usize {
        self.names.len()
    }

    /// Number of primary items (items `0..primary_items()`).
    #[inline]
    pub fn primary_items(&self) -> usize {
        self.primary
    }

    /// Number of secondary items (items `primary_items()..items()`).
    #[inline]
    pub fn secondary_items(&self) -> usize {
        self.names.len() - self.primary
    }

    #[inline]
    pub fn is_primary(&self, item: usize) -> bool {
        item < self.primary
    }

    /// Number of options.
    #[inline]
    pub fn options(&self) -> usize {
        self.starts.len() - 1
    }

    /// Number of item entries over all options (the 1s of the 0-1 matrix).
    #[inline]
    pub fn ones(&self) -> usize {
        self.entries.len()
    }

    /// Items of option `o`, in the order given.
    #[inline]
    pub fn option(&self, o: usize) -> &[u32] {
        &self.entries[self.starts[o] as usize..self.starts[o + 1] as usize]
    }

    /// Every option, in order.
    pub fn all_options(&self) -> impl ExactSizeIterator<Item = &[u32]> + '_ {
        (0..self.options()).map(move |o| self.option(o))
    }

    /// Whether option `o` holds a primary item (an option without one is never chosen).
    pub fn has_primary(&self, o: usize) -> bool {
        self.option(o).iter().any(|&i| (i as usize) < self.primary)
    }

    /// Name of item `i`.
    #[inline]
    pub fn name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// All item names, primary first.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Option `o` as DLX1 writes it: its item names separated by blanks.
    pub fn option_text(&self, o: usize) -> String {
        let names: Vec<&str> = self
            .option(o)
            .iter()
            .map(|&i| self.name(i as usize))
            .collect();
        names.join(" ")
    }

    /// Item number of `name` (a linear search; build a map for many look-ups).
    pub fn find_item(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Checks that `options` is a solution: every primary item covered exactly once, every
    /// secondary item at most once. Returns the first offending item's name otherwise.
    pub fn check_solution(&self, options: &[usize]) -> Result<(), SolutionError> {
        let mut covered = vec![0u32; self.items()];
        for &o in options {
            if o >= self.options() {
                return Err(SolutionError::NoOption(o));
            }
            for &i in self.option(o) {
                covered[i as usize] += 1;
            }
        }
        for (i, &c) in covered.iter().enumerate() {
            if c > 1 || (c == 0 && i < self.primary) {
                return Err(SolutionError::Covered {
                    item: self.names[i].clone(),
                    times: c,
                });
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ExactCover {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ExactCover {{ {} primary + {} secondary items, {} options, {} ones }}",
            self.primary_items(),
            self.secondary_items(),
            self.options(),
            self.ones()
        )
    }
}

/// Knuth's rule for names: one or more non-blank characters, none of them `|` or `:`.
/// (DLX1 also limits names to 8 characters; sudolab accepts longer ones.)
pub fn check_name(name: &str) -> Result<(), CoverError> {
    if name.is_empty()
        || name
            .chars()
            .any(|c| c.is_whitespace() || c == '|' || c == ':')
    {
        Err(CoverError::BadName(name.to_string()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knuths_example_is_built_and_checked() {
        // The 7-item example of "Dancing Links" (2000), items A..G, G secondary here.
        let mut x = ExactCover::new(&["A", "B", "C", "D", "E", "F"], &["G"]).unwrap();
        for o in [
            &[2, 4, 5][..],
            &[0, 3, 6],
            &[1, 2, 5],
            &[0, 3],
            &[1, 6],
            &[3, 4, 6],
        ] {
            x.add_option(o.iter().copied()).unwrap();
        }
        assert_eq!(
            (x.items(), x.primary_items(), x.options(), x.ones()),
            (7, 6, 6, 16)
        );
        assert_eq!(x.option(1), &[0, 3, 6]);
        assert!(x.check_solution(&[0, 3, 4]).is_ok());
        assert!(x.check_solution(&[0, 3]).is_err());
        assert_eq!(x.find_item("E"), Some(4));
        assert_eq!(x.option_text(1), "A D G");
    }

    #[test]
    fn bad_input_is_refused() {
        assert_eq!(
            ExactCover::new(&["a", "b", "a"], &[]).unwrap_err(),
            CoverError::DuplicateName("a".into())
        );
        assert!(matches!(
            ExactCover::new(&["a|b"], &[]),
            Err(CoverError::BadName(_))
        ));
        let mut x = ExactCover::unnamed(2, 1);
        assert_eq!(
            x.add_option(Vec::<u32>::new()),
            Err(CoverError::EmptyOption)
        );
        assert!(matches!(
            x.add_option([0u32, 3]),
            Err(CoverError::UnknownItem { item: 3, .. })
        ));
        assert_eq!(
            x.add_option([1u32, 0, 1]),
            Err(CoverError::RepeatedItem("x2".into()))
        );
        assert_eq!(x.add_option([1u32, 0, 2]), Ok(0));
        assert_eq!(x.ones(), 3);
        assert!(x.has_primary(0));
    }
}
