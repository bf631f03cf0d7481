//! Literals as array indices: `2 * variable + (1 if negative)`, so that a literal's negation
//! is `lit ^ 1` and per-literal arrays need no offset arithmetic (indices 0 and 1, variable 0,
//! are unused).

pub(super) type Lit = u32;

/// No clause (the reason of an assumption, an empty slot).
pub(super) const NONE: u32 = u32::MAX;

#[inline]
pub(super) fn from_dimacs(l: i32) -> Lit {
    (l.unsigned_abs() << 1) | u32::from(l < 0)
}

#[inline]
pub(super) fn to_dimacs(l: Lit) -> i32 {
    let v = (l >> 1) as i32;
    if l & 1 == 1 {
        -v
    } else {
        v
    }
}

#[inline]
pub(super) fn var(l: Lit) -> usize {
    (l >> 1) as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_negate_by_the_low_bit() {
        for l in [1, -1, 7, -7, i32::MAX, -i32::MAX] {
            assert_eq!(to_dimacs(from_dimacs(l)), l);
            assert_eq!(from_dimacs(l) ^ 1, from_dimacs(-l));
            assert_eq!(var(from_dimacs(l)), l.unsigned_abs() as usize);
        }
    }
}
