//! Writing a DRAT proof in its text form (N. Wetzler, M. J. H. Heule, W. A. Hunt Jr.,
//! "DRAT-trim", SAT 2014): one step per line, a lemma as its literals and `0`, a deletion
//! as `d`, its literals and `0`.

/// A DRAT proof being written, with its counts.
#[derive(Clone, Debug, Default)]
pub struct DratText {
    bytes: Vec<u8>,
    /// Lemma (addition) steps written.
    lemmas: u64,
    /// Deletion steps written.
    deletions: u64,
}

impl DratText {
    fn line(&mut self, lits: &[i32]) {
        let mut buf = itoa::Buffer::new();
        for &l in lits {
            self.bytes.extend_from_slice(buf.format(l).as_bytes());
            self.bytes.push(b' ');
        }
        self.bytes.extend_from_slice(b"0\n");
    }

    /// Adds the lemma `lits` (the empty clause for `[]`).
    pub fn add(&mut self, lits: &[i32]) {
        self.line(lits);
        self.lemmas += 1;
    }

    /// Deletes the clause `lits`.
    pub fn delete(&mut self, lits: &[i32]) {
        self.bytes.extend_from_slice(b"d ");
        self.line(lits);
        self.deletions += 1;
    }

    pub fn lemmas(&self) -> u64 {
        self.lemmas
    }

    pub fn deletions(&self) -> u64 {
        self.deletions
    }

    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_lemmas_deletions_and_the_empty_clause() {
        let mut p = DratText::default();
        p.add(&[1, -2]);
        p.delete(&[-3]);
        p.add(&[]);
        assert_eq!(p.into_bytes(), b"1 -2 0\nd -3 0\n0\n");
    }
}
