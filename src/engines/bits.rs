//! Fixed-width bit sets for candidate digits, cells of a row and used-house masks.
//!
//! Engines that work on masks are written once, generically over [`Bits`], and instantiated
//! for the narrowest type that holds `N` bits with [`with_bits!`](crate::with_bits): `u16` for
//! `N <= 16` (every classic size), then `u32`, `u64`, `u128`, and [`Wide`] arrays of words up
//! to [`MAX_SIDE`](crate::puzzle::MAX_SIDE). Bit `i` stands for digit `i + 1`, or column `i`.

use std::fmt::Debug;

/// A set of small integers `0..CAPACITY` stored as bits.
pub trait Bits: Copy + Eq + Debug + Send + Sync + 'static {
    const CAPACITY: usize;
    const EMPTY: Self;
    /// `{0, 1, ..., n-1}`.
    fn full(n: usize) -> Self;
    fn bit(i: usize) -> Self;
    fn is_empty(&self) -> bool;
    fn count(&self) -> u32;
    /// Smallest member.
    fn first(&self) -> Option<usize>;
    fn contains(&self, i: usize) -> bool;
    fn insert(&mut self, i: usize);
    fn remove(&mut self, i: usize);
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    /// `self \ other`.
    fn and_not(self, other: Self) -> Self;
    /// Whether the set has exactly one member.
    #[inline]
    fn is_single(&self) -> bool {
        self.count() == 1
    }
    /// Members in increasing order.
    #[inline]
    fn iter(self) -> BitIter<Self> {
        BitIter(self)
    }
}

/// Iterator over the members of a [`Bits`] set, smallest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        let i = self.0.first()?;
        self.0.remove(i);
        Some(i)
    }
}

macro_rules! impl_prim {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;
            #[inline]
            fn full(n: usize) -> Self {
                if n >= Self::CAPACITY {
                    <$t>::MAX
                } else {
                    ((1 as $t) << n) - 1
                }
            }
            #[inline]
            fn bit(i: usize) -> Self {
                (1 as $t) << i
            }
            #[inline]
            fn is_empty(&self) -> bool {
                *self == 0
            }
            #[inline]
            fn count(&self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn first(&self) -> Option<usize> {
                if *self == 0 {
                    None
                } else {
                    Some(self.trailing_zeros() as usize)
                }
            }
            #[inline]
            fn contains(&self, i: usize) -> bool {
                (*self >> i) & 1 != 0
            }
            #[inline]
            fn insert(&mut self, i: usize) {
                *self |= (1 as $t) << i;
            }
            #[inline]
            fn remove(&mut self, i: usize) {
                *self &= !((1 as $t) << i);
            }
            #[inline]
            fn and(self, o: Self) -> Self {
                self & o
            }
            #[inline]
            fn or(self, o: Self) -> Self {
                self | o
            }
            #[inline]
            fn and_not(self, o: Self) -> Self {
                self & !o
            }
            #[inline]
            fn is_single(&self) -> bool {
                *self != 0 && *self & (*self - 1) == 0
            }
        }
    };
}

impl_prim!(u16);
impl_prim!(u32);
impl_prim!(u64);
impl_prim!(u128);

/// A bit set of `64 * W` bits for sides above 128.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Wide<const W: usize>(pub [u64; W]);

impl<const W: usize> Bits for Wide<W> {
    const CAPACITY: usize = 64 * W;
    const EMPTY: Self = Wide([0; W]);
    fn full(n: usize) -> Self {
        let mut w = [0u64; W];
        for (k, word) in w.iter_mut().enumerate() {
            let lo = 64 * k;
            if n >= lo + 64 {
                *word = u64::MAX;
            } else if n > lo {
                *word = (1u64 << (n - lo)) - 1;
            }
        }
        Wide(w)
    }
    #[inline]
    fn bit(i: usize) -> Self {
        let mut w = [0u64; W];
        w[i / 64] = 1 << (i % 64);
        Wide(w)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().all(|&x| x == 0)
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|x| x.count_ones()).sum()
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .enumerate()
            .find(|(_, &x)| x != 0)
            .map(|(k, x)| 64 * k + x.trailing_zeros() as usize)
    }
    #[inline]
    fn contains(&self, i: usize) -> bool {
        (self.0[i / 64] >> (i % 64)) & 1 != 0
    }
    #[inline]
    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    #[inline]
    fn remove(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
    #[inline]
    fn and(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= b;
        }
        self
    }
    #[inline]
    fn or(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a |= b;
        }
        self
    }
    #[inline]
    fn and_not(mut self, o: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a &= !b;
        }
        self
    }
}

/// Evaluates `$body` with the type alias `$B` bound to the narrowest [`Bits`] type holding
/// `$n` bits. `$n` must be at most [`MAX_SIDE`](crate::puzzle::MAX_SIDE).
///
/// ```
/// use sudolab::engines::bits::Bits;
/// let width = sudolab::with_bits!(9, B => B::CAPACITY);
/// assert_eq!(width, 16);
/// ```
#[macro_export]
macro_rules! with_bits {
    ($n:expr, $B:ident => $body:expr) => {{
        let n: usize = $n;
        if n <= 16 {
            type $B = u16;
            $body
        } else if n <= 32 {
            type $B = u32;
            $body
        } else if n <= 64 {
            type $B = u64;
            $body
        } else if n <= 128 {
            type $B = u128;
            $body
        } else if n <= 256 {
            type $B = $crate::engines::bits::Wide<4>;
            $body
        } else {
            type $B = $crate::engines::bits::Wide<16>;
            $body
        }
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: Bits>(n: usize) {
        let full = B::full(n);
        assert_eq!(full.count() as usize, n);
        assert_eq!(full.iter().collect::<Vec<_>>(), (0..n).collect::<Vec<_>>());
        let mut s = B::EMPTY;
        assert!(s.is_empty());
        s.insert(n - 1);
        assert!(s.is_single());
        assert_eq!(s.first(), Some(n - 1));
        s.insert(0);
        assert!(!s.is_single());
        assert_eq!(full.and_not(s).count() as usize, n - 2);
        assert!(full.and(s) == s);
        assert!(s.or(B::bit(1)).contains(1));
        s.remove(0);
        assert!(!s.contains(0));
    }

    #[test]
    fn every_width_behaves() {
        exercise::<u16>(9);
        exercise::<u16>(16);
        exercise::<u32>(25);
        exercise::<u64>(64);
        exercise::<u128>(100);
        exercise::<Wide<4>>(200);
        exercise::<Wide<16>>(1024);
        exercise::<Wide<16>>(400);
    }

    #[test]
    fn dispatch_picks_narrowest() {
        assert_eq!(with_bits!(16, B => B::CAPACITY), 16);
        assert_eq!(with_bits!(17, B => B::CAPACITY), 32);
        assert_eq!(with_bits!(400, B => B::CAPACITY), 1024);
    }
}
