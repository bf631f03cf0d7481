//! Growing a large array in pieces, reading the budget between them, so that allocating
//! and filling hundreds of megabytes (the watch lists of a formula of millions of clauses)
//! does not hold a deadline up.

/// Elements written between two calls of `poll`.
const PIECE: usize = 1 << 20;

/// Grows `v` to `len` elements (new ones `value`; a longer `v` is left as it is), calling
/// `poll` after each piece of 2^20 elements and stopping at its first error.
pub(super) fn resize_polled<T: Clone, E>(
    v: &mut Vec<T>,
    len: usize,
    value: T,
    poll: &mut impl FnMut() -> Result<(), E>,
) -> Result<(), E> {
    if len <= v.len() {
        return Ok(());
    }
    v.reserve(len - v.len());
    while v.len() < len {
        let next = len.min(v.len() + PIECE);
        v.resize(next, value.clone());
        if v.len() < len {
            poll()?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resizes_in_pieces_and_stops_when_told() {
        let mut v = vec![1u8; 3];
        let mut calls = 0;
        resize_polled(&mut v, 2 * PIECE + 5, 0, &mut || {
            calls += 1;
            Ok::<(), ()>(())
        })
        .unwrap();
        assert_eq!((v.len(), calls, v[2], v[3]), (2 * PIECE + 5, 2, 1, 0));
        resize_polled(&mut v, 2, 0, &mut || Err(())).unwrap();
        assert_eq!(v.len(), 2 * PIECE + 5);
        let mut w = vec![0u8; 3];
        assert_eq!(
            resize_polled(&mut w, 3 * PIECE, 0, &mut || Err(())),
            Err(())
        );
        assert_eq!(w.len(), PIECE + 3);
    }
}
