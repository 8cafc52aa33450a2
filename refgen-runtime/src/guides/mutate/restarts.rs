//! When the mutational guide starts again: after periods of Luby's sequence, in units of `restart_every` cases.
//!
//! The cases to a failure of a search that can settle (a corpus grown from a few early values) are
//! heavy-tailed: most runs find a bug soon, a few settle on shapes that never show it. Restarting
//! after a fixed period bounds the tail only if the period fits the bug; restarting after periods of
//! Luby's sequence (1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...; Luby, Sinclair and Zuckerman, "Optimal Speedup
//! of Las Vegas Algorithms", 1993) mixes short runs with ever longer ones, and, for independent
//! runs, is within a logarithmic factor of the best fixed period for every distribution of run
//! lengths (a restart keeps the corpus's seeds and failures, so these runs are nearly independent).

/// Term `i` of Luby's sequence, counted from 1: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
/// (`0` is read as `1`).
pub(super) fn luby(i: u64) -> u64 {
    let mut i = i.clamp(1, 1 << 62);
    loop {
        // `i` has `k` bits: 2^(k-1) <= i <= 2^k - 1.
        let k = u64::from(u64::BITS - i.leading_zeros());
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// The cases from restart `restarts` (`0`: the start) to the next one: `unit` times term
/// `restarts + 1` of Luby's sequence, or `unit` itself without it.
pub(super) fn period(unit: u64, luby_periods: bool, restarts: u64) -> u64 {
    match luby_periods {
        true => unit.saturating_mul(luby(restarts.saturating_add(1))),
        false => unit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_is_the_sequence_of_its_definition() {
        // t(i) = 2^(k-1) when i = 2^k - 1, else t(i - 2^(k-1) + 1) for 2^(k-1) <= i < 2^k - 1.
        fn by_definition(i: u64) -> u64 {
            let k = (1..64).find(|&k| i < (1u64 << k)).expect("small");
            match i == (1 << k) - 1 {
                true => 1 << (k - 1),
                false => by_definition(i - (1 << (k - 1)) + 1),
            }
        }
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        for i in 1..5000 {
            assert_eq!(luby(i), by_definition(i), "term {i}");
        }
        assert_eq!(luby(0), 1);
        assert_eq!(luby(u64::MAX).count_ones(), 1, "a power of two, no overflow");
    }

    #[test]
    fn periods_follow_luby_in_units_or_stay_fixed() {
        let luby_starts: Vec<u64> = (0..7).map(|r| period(5000, true, r)).collect();
        assert_eq!(luby_starts, [5000, 5000, 10_000, 5000, 5000, 10_000, 20_000]);
        assert!((0..7).all(|r| period(5000, false, r) == 5000));
        assert_eq!(period(u64::MAX, true, 2), u64::MAX, "saturates");
    }
}
