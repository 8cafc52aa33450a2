//! The derive's depth counter: how many derived generators run around the current one.
//!
//! Every derived generator counts how many derived generators are running
//! around it (its *level*; 0 for the outermost), in one counter per thread
//! shared by all derived types, so mutually recursive types share it too.
//! Derived enums and depth-aware collections (and [`option`](super::option)
//! with a depth limit) read it to offer only their base choices at the
//! depth budget.

use crate::choice::Opt;
use std::cell::Cell;

/// The depth budget of a derived type without `#[reflect(depth = N)]`.
pub const DEFAULT_DEPTH: usize = 6;

/// The level at which every derived generator stops with [`Stop::Void`](crate::Stop::Void).
pub const HARD_DEPTH: usize = 128;

thread_local! {
    static LEVEL: Cell<usize> = const { Cell::new(0) };
}

/// Raises the level by one for a derived generator that begins; the level it ran at.
#[inline]
pub(crate) fn enter() -> usize {
    let v = LEVEL.with(|l| {
        let v = l.get();
        l.set(v + 1);
        v
    });
    if v == 0 {
        super::sizes::value_begins();
    }
    v
}

/// How many derived generators are running (0 when none runs).
#[inline]
pub(crate) fn raw_level() -> usize {
    LEVEL.with(|l| l.get())
}

/// Sets the level back to `level` when the derived generator that entered at it ends.
#[inline]
pub(crate) fn leave(level: usize) {
    LEVEL.with(|l| l.set(level));
}

/// The level of the innermost running derived generator (0 when none runs).
#[inline]
pub fn current_level() -> usize {
    LEVEL.with(|l| l.get()).saturating_sub(1)
}

/// Whether the innermost running derived generator is at or past the depth
/// budget `depth`: when a depth-aware collection of a derived type (or an
/// [`option`](super::option) with a depth limit) offers only its base choice.
#[inline]
pub fn at_budget(depth: usize) -> bool {
    current_level() >= depth
}

/// The options a depth-limited pick offers: all of them, or only the first
/// `base` (the base options, which come first) when `limited` (at the depth
/// budget). Derived enums and depth-limited options (whose base option is
/// `None`) both ask this.
#[inline]
pub fn offered(options: &[Opt], base: usize, limited: bool) -> &[Opt] {
    if limited {
        // `split_at`, not `&options[..base]`: with the index, a derived
        // enum's forward body compiled ~13% more instructions per value
        // (`gen_speed`'s derived tree), though both check the same bound.
        options.split_at(base).0
    } else {
        options
    }
}

/// The level the next derived generator to begin will run at.
#[inline]
pub fn next_level() -> usize {
    LEVEL.with(|l| l.get())
}
