//! Default lengths: a long-tailed length up to the largest size, with one element budget per value.
//!
//! A collection without a length range of its own (`Vec<T>`, `String`,
//! the sets and maps, a derived type's collection field without `len`,
//! [`sized_vec`](super::sized_vec)) draws its length from 0 to the
//! *largest size* ([`DEFAULT_MAX_SIZE`], set per run with
//! [`with_max_size`]): most lengths are short and a few are long, in four
//! bands of lengths drawn uniformly, up to 4 (weight 20 of 32), up to 8
//! (8 of 32), up to 32 (3 of 32) and up to the largest size (1 of 32).
//!
//! The length is one weighted pick whose answer is the length itself, so
//! every interpretation reads it as it reads an explicit range's length:
//! shrinking lowers it, replay and reflection accept any length up to the
//! largest size. What the sizes change is only which lengths random
//! generation favours.
//!
//! The collections of one value share one budget of elements, the largest
//! size: each draws at most what the collections before it left (a longer
//! length keeps its weight of 0, so it is never drawn but is still
//! accepted). A value begins its budget at its outermost derived
//! generator, or at its outermost collection of default length when no
//! derived generator runs; so `Vec<Vec<T>>` and a recursive type with a
//! `Vec` field grow to about the largest size in all, not its square.

use super::depth;
use crate::choice::{Choice, ChoiceTree, Opt, Request, Site};
use crate::gen::{Answerer, Way};
use crate::source::Stop;
use std::cell::Cell;
use std::sync::Mutex;

/// The largest length a collection of default length is given, unless a
/// run sets another ([`with_max_size`]; `#[property(max_size = n)]`, the
/// environment variable `REFGEN_MAX_SIZE`).
pub const DEFAULT_MAX_SIZE: usize = 100;

/// The largest size a run may set.
pub const MAX_SIZE_LIMIT: usize = 10_000;

/// The bands of lengths: the longest length of each, and its weight (of 32).
const BANDS: [(usize, u32); 4] = [(4, 20), (8, 8), (32, 3), (usize::MAX, 1)];

/// The sum of the bands' weights.
const BANDS_TOTAL: f64 = 32.0;

/// The weight scale of one length: the weights of a table sum to about this.
const SCALE: f64 = 1_000_000.0;

/// The lengths offered for one budget: weight 0 past it.
struct Level {
    budget: usize,
    options: Box<[Opt]>,
    total: u64,
}

/// The lengths of one largest size, one [`Level`] per budget step.
struct Table {
    max: usize,
    /// By budget, ascending; the last is the whole table (budget `max`).
    levels: Box<[Level]>,
}

impl Table {
    fn build(max: usize) -> Table {
        let labels = labels(max);
        let weight = |n: usize| -> u32 {
            let p: f64 = BANDS
                .iter()
                .filter(|&&(cap, _)| n <= cap.min(max))
                .map(|&(cap, w)| w as f64 / BANDS_TOTAL / (cap.min(max) + 1) as f64)
                .sum();
            ((p * SCALE).round() as u32).max(1)
        };
        let weights: Vec<u32> = (0..=max).map(weight).collect();
        // Budgets 0 to 8 one by one, then the powers of two below `max`, then `max`.
        let budgets = (0..=8usize.min(max))
            .chain((4..usize::BITS).map(|b| 1usize << b).take_while(|&b| b < max))
            .chain(std::iter::once(max))
            .collect::<std::collections::BTreeSet<_>>();
        let levels = budgets
            .into_iter()
            .map(|budget| {
                let options: Box<[Opt]> = (0..=max)
                    .map(|n| Opt { label: labels[n], weight: if n <= budget { weights[n] } else { 0 } })
                    .collect();
                let total = options.iter().map(|o| o.weight as u64).sum();
                Level { budget, options, total }
            })
            .collect();
        Table { max, levels }
    }

    /// The level of the largest budget step at most `budget`.
    #[inline]
    fn level(&self, budget: usize) -> &Level {
        let i = self.levels.partition_point(|l| l.budget <= budget);
        &self.levels[i.saturating_sub(1)]
    }

    fn full(&self) -> &Level {
        self.levels.last().expect("a table has its whole level")
    }
}

/// The labels `"0"`, `"1"`, ... of lengths up to `max`, made once per process.
fn labels(max: usize) -> Vec<&'static str> {
    static LABELS: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
    let mut all = LABELS.lock().unwrap_or_else(|e| e.into_inner());
    while all.len() <= max {
        let n = all.len();
        all.push(Box::leak(n.to_string().into_boxed_str()));
    }
    all[..=max].to_vec()
}

/// The table of the largest size `max`, built once per process.
fn table_of(max: usize) -> &'static Table {
    static TABLES: Mutex<Vec<&'static Table>> = Mutex::new(Vec::new());
    let mut tables = TABLES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(t) = tables.iter().find(|t| t.max == max) {
        return t;
    }
    let t: &'static Table = Box::leak(Box::new(Table::build(max)));
    tables.push(t);
    t
}

/// This thread's largest size, what is left of the current value's budget,
/// and how many collections of default length are making their elements.
#[derive(Clone, Copy)]
struct State {
    max: usize,
    budget: usize,
    open: usize,
    /// Whether a collection of the current value was cut short: it drew its length with no budget left.
    cut: bool,
}

thread_local! {
    static STATE: Cell<State> =
        const { Cell::new(State { max: DEFAULT_MAX_SIZE, budget: DEFAULT_MAX_SIZE, open: 0, cut: false }) };
    static CUT: Cell<u64> = const { Cell::new(0) };
    static TABLE: Cell<Option<&'static Table>> = const { Cell::new(None) };
}

/// This thread's table, for its largest size.
#[inline]
fn table(max: usize) -> &'static Table {
    TABLE.with(|c| match c.get() {
        Some(t) if t.max == max => t,
        _ => {
            let t = table_of(max);
            c.set(Some(t));
            t
        }
    })
}

/// The largest size of collections of default length on this thread.
pub fn max_size() -> usize {
    STATE.with(|s| s.get().max)
}

/// Runs `f` with `max` (clamped to `1..=`[`MAX_SIZE_LIMIT`]) as this
/// thread's largest size, then sets back the one before.
///
/// ```
/// use refgen::combinators::sizes::{max_size, with_max_size};
/// use refgen::{check, Reflective};
///
/// let long = vec![0u8; 150];
/// assert!(!check(&Vec::<u8>::generator(), &long));
/// assert!(with_max_size(200, || check(&Vec::<u8>::generator(), &long)));
/// assert_eq!(max_size(), 100);
/// ```
pub fn with_max_size<R>(max: usize, f: impl FnOnce() -> R) -> R {
    let _size = set_max_size(max);
    f()
}

/// Sets `max` (clamped to `1..=`[`MAX_SIZE_LIMIT`]) as this thread's
/// largest size until the guard this returns is dropped, which sets back
/// the one before: how a run applies its setting on the thread that makes
/// its cases.
pub fn set_max_size(max: usize) -> MaxSize {
    let max = max.clamp(1, MAX_SIZE_LIMIT);
    let before = STATE.with(|s| s.replace(State { max, budget: max, open: 0, cut: false }));
    MaxSize { before, _thread: std::marker::PhantomData }
}

/// A largest size set on this thread ([`set_max_size`]); dropped, it sets back the one before.
#[must_use = "the largest size is set back when the guard is dropped"]
pub struct MaxSize {
    before: State,
    /// The setting is this thread's: the guard stays on it.
    _thread: std::marker::PhantomData<*const ()>,
}

impl std::fmt::Debug for MaxSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaxSize").field("now", &max_size()).field("before", &self.before.max).finish()
    }
}

impl Drop for MaxSize {
    fn drop(&mut self) {
        STATE.with(|s| s.set(self.before));
    }
}

/// How many values made on this thread so far had a collection of default
/// length cut short: it came when the value's budget was spent, so it could
/// only be empty. A run compares the count before and after it.
pub fn values_cut() -> u64 {
    CUT.with(Cell::get)
}

/// A derived generator begins at level 0: the value's budget begins there,
/// unless a collection of default length around it is making its elements.
#[inline]
pub(crate) fn value_begins() {
    STATE.with(|c| {
        let mut s = c.get();
        if s.open == 0 {
            (s.budget, s.cut) = (s.max, false);
            c.set(s);
        }
    })
}

/// The length of a collection of default length at `site`: one weighted
/// pick among `0..=max`, drawn within what is left of the value's budget
/// (see the module). The caller makes the elements within an [`Open`].
#[inline]
pub(crate) fn choose_len<A: Answerer + ?Sized>(a: &mut A, site: Site) -> Result<usize, Stop> {
    let mut s = STATE.with(Cell::get);
    if s.open == 0 && depth::raw_level() == 0 {
        (s.budget, s.cut) = (s.max, false);
    } else if s.budget == 0 && !s.cut {
        s.cut = true;
        CUT.with(|c| c.set(c.get() + 1));
    }
    let t = table(s.max);
    let level = t.level(s.budget);
    let n = a.choose_leaf(site, Request::Pick { options: &level.options, total: level.total })? as usize;
    if n > t.max {
        return Err(Stop::Rejected);
    }
    s.budget -= n.min(s.budget);
    STATE.with(|c| c.set(s));
    Ok(n)
}

/// The ways of the length `n` at `site`: its one choice, with the
/// probability of the whole table (a value's budget is not known backward);
/// none past the largest size.
pub(crate) fn len_ways(site: Site, n: usize) -> Vec<Way> {
    let t = table(max_size());
    let full = t.full();
    match full.options.get(n) {
        Some(o) => vec![Way {
            forest: vec![ChoiceTree::choice(site, n as Choice, Vec::new())],
            prob: o.weight as f64 / full.total as f64,
        }],
        None => Vec::new(),
    }
}

/// A collection of default length making its elements: the collections
/// within it share its value's budget. Counted while alive (also when a
/// generator panics on the way).
pub(crate) struct Open(());

impl Open {
    #[inline]
    pub(crate) fn enter() -> Open {
        STATE.with(|c| {
            let mut s = c.get();
            s.open += 1;
            c.set(s);
        });
        Open(())
    }
}

impl Drop for Open {
    #[inline]
    fn drop(&mut self) {
        STATE.with(|c| {
            let mut s = c.get();
            s.open -= 1;
            c.set(s);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bands_hold_their_weights() {
        let t = table_of(100);
        let full = t.full();
        let share = |r: std::ops::RangeInclusive<usize>| {
            r.map(|n| full.options[n].weight as f64).sum::<f64>() / full.total as f64
        };
        // Up to 4: 20/32 of the first band, 8/32 * 5/9, 3/32 * 5/33, 1/32 * 5/101.
        let small = 20.0 / 32.0 + 8.0 / 32.0 * 5.0 / 9.0 + 3.0 / 32.0 * 5.0 / 33.0 + 1.0 / 32.0 * 5.0 / 101.0;
        assert!((share(0..=4) - small).abs() < 1e-4, "{}", share(0..=4));
        let past_16 = 3.0 / 32.0 * 16.0 / 33.0 + 1.0 / 32.0 * 84.0 / 101.0;
        assert!((share(17..=100) - past_16).abs() < 1e-4, "{}", share(17..=100));
        assert!(full.options.iter().all(|o| o.weight >= 1));
    }

    #[test]
    fn a_budget_offers_no_length_past_it() {
        let t = table_of(100);
        for budget in [0, 3, 8, 9, 20, 64, 99, 100, 1000] {
            let level = t.level(budget);
            assert!(level.budget <= budget);
            assert_eq!(level.options.len(), 101);
            assert!(level.options.iter().enumerate().all(|(n, o)| (o.weight > 0) == (n <= level.budget)));
            assert_eq!(level.total, level.options.iter().map(|o| o.weight as u64).sum::<u64>());
        }
        assert_eq!(t.level(1000).budget, 100);
        assert_eq!(t.level(20).budget, 16);
    }

    #[test]
    fn small_largest_sizes_clamp_the_bands() {
        let t = table_of(3);
        assert_eq!(t.full().options.len(), 4);
        assert!(t.full().options.iter().all(|o| o.weight > 0));
    }
}
