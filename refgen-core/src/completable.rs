//! Whether a synthesized generator's option can still be completed: answers per predicate, level and arguments, remembered.
//!
//! A generator `#[synth]` writes asks, before it offers an option or keeps
//! a key, whether the parts still to make can be made: whether the
//! predicate accepts some value under the arguments they would be made
//! with, within the depth budget (a red-black subtree of black height 2
//! needs at least 3 keys; at the budget, only the options that do not
//! recurse are offered). The answer is [`Can::No`] only when no value
//! exists: a bounded search of the predicate's options, its integer parts
//! tried from the middle of their ranges out, gives [`Can::Yes`] for a
//! value it found and [`Can::Maybe`] where it could not look everywhere (a
//! wide range, a part made by its type's own generator). What is `No` is
//! never offered; the rest is made as before, a dead end retried. Answers
//! are a pure function of the predicate, the level and the arguments, so
//! remembering them (per thread, per predicate, when the arguments are
//! `Hash + Eq`) never changes a value made: the same seed gives the same
//! values whatever ran before.

use crate::combinators::IntValue;
use crate::hashing::BuildKey;
use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::Hash;
use std::thread::LocalKey;

pub use crate::combinators::depth::next_level;

/// Whether a predicate accepts some value: no, perhaps, or yes (ordered so).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Can {
    /// No value: never offered.
    No,
    /// Not known: offered.
    Maybe,
    /// A value was found.
    Yes,
}

impl Can {
    /// Whether a value may exist (what is offered).
    #[inline]
    pub fn possible(self) -> bool {
        self != Can::No
    }
}

/// The answers of one predicate's options under one level and arguments:
/// the options that may be completed (what is offered) and those known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Masks {
    /// The options offered: every one that may be completed.
    pub possible: u64,
    /// The options a value was found for.
    pub yes: u64,
}

impl Masks {
    /// What the predicate as a whole can: yes if an option can, no if none may.
    #[inline]
    pub fn can(self) -> Can {
        if self.yes != 0 {
            Can::Yes
        } else if self.possible != 0 {
            Can::Maybe
        } else {
            Can::No
        }
    }
}

/// The most answers one predicate keeps per thread; past it, they are forgotten and found again.
const MEMO_LIMIT: usize = 1 << 16;

/// One predicate's remembered answers on this thread (a `thread_local!` the generated code declares).
pub struct Memo(RefCell<Option<Box<dyn Any>>>);

impl Memo {
    /// No answer yet.
    #[allow(clippy::new_without_default)]
    pub const fn new() -> Memo {
        Memo(RefCell::new(None))
    }
}

/// The level and arguments a predicate is asked under, as the key of its answers.
pub struct Keyed<K>(pub K);

/// Answers remembered: for arguments that are `Hash + Eq`.
pub trait Remembered {
    /// The answer for this key: remembered, or found by `find` and remembered.
    fn masks(&self, memo: &'static LocalKey<Memo>, find: impl FnOnce() -> Masks) -> Masks;
}

/// Answers not remembered: for other arguments, where searching again at every node could cost
/// without bound, nothing is searched (every option may be completed).
pub trait Unremembered {
    /// Every option offered (`all`), none known.
    fn masks(&self, memo: &'static LocalKey<Memo>, find: impl FnOnce() -> Masks) -> Masks;
}

impl<K: Hash + Eq + Clone + 'static> Remembered for &Keyed<K> {
    #[inline]
    fn masks(&self, memo: &'static LocalKey<Memo>, find: impl FnOnce() -> Masks) -> Masks {
        let hit = memo.with(|m| {
            m.0.borrow()
                .as_ref()
                .and_then(|b| b.downcast_ref::<HashMap<K, Masks, BuildKey>>())
                .and_then(|t| t.get(&self.0).copied())
        });
        if let Some(h) = hit {
            return h;
        }
        // Found with the memo released: the search asks about other arguments.
        let found = find();
        memo.with(|m| {
            let mut m = m.0.borrow_mut();
            let table = m.get_or_insert_with(|| Box::new(HashMap::<K, Masks, BuildKey>::default()));
            if let Some(t) = table.downcast_mut::<HashMap<K, Masks, BuildKey>>() {
                if t.len() >= MEMO_LIMIT {
                    t.clear();
                }
                t.insert(self.0.clone(), found);
            }
        });
        found
    }
}

impl<K> Unremembered for Keyed<K> {
    #[inline]
    fn masks(&self, _: &'static LocalKey<Memo>, _: impl FnOnce() -> Masks) -> Masks {
        Masks { possible: u64::MAX, yes: 0 }
    }
}

/// How many values of an integer part's range the search tries.
const TRIED: u128 = 64;

/// The values of `lo..=hi` the search tries, from the middle out (a key in
/// the middle leaves the most room on both sides), and whether they are all
/// of the range; `None` for an empty range.
pub fn candidates<W: IntValue>(range: Option<(W, W)>) -> Option<(impl Iterator<Item = W>, bool)> {
    let (lo, hi) = range?;
    let (lo, len) = (lo.to_bits(), hi.to_bits().wrapping_sub(lo.to_bits()).wrapping_add(1));
    // A range of every value of a 128-bit type has `len` 0: more than is tried.
    let all = len != 0 && len <= TRIED;
    let tried = if all { len } else { TRIED };
    let mid = if len == 0 { u128::MAX / 2 } else { (len - 1) / 2 };
    let it = (0..tried).map(move |i| {
        // The middle, then one above, one below, two above, ...: within the range.
        let step = i.div_ceil(2);
        let off = if i % 2 == 1 { mid.wrapping_add(step) } else { mid.wrapping_sub(step) };
        W::from_bits(lo.wrapping_add(off))
    });
    Some((it, all))
}
