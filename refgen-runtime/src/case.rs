//! What a property says about its case: `assume!`, `target!` and kin, `label!`, `note!`, its return value.
//!
//! These macros talk to the runner through thread-local state of the thread
//! running the case. Outside a runner, `target!`, `label!` and `classify!` do
//! nothing, and `assume!` of a false condition panics with a message saying
//! it was used outside a property.

use std::cell::{Cell, RefCell};
use std::fmt::Debug;
use std::io::Write;

/// The panic payload of a failed [`crate::assume!`]: the runner discards the case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Discard {
    /// The condition that failed, as written.
    pub condition: &'static str,
}

/// Discard the current case (what `assume!` calls when its condition is
/// false). Outside a property's case there is no case to discard: it panics
/// with a message saying so, at the caller's location.
#[track_caller]
pub fn discard(condition: &'static str) -> ! {
    if !STATE.with(|s| s.on.get()) {
        panic!(
            "assume!({condition}) failed outside a property: `assume!` discards the current case of a \
             `#[property]` (or `Property::check`), and there is none here; use `assert!` in plain code"
        );
    }
    std::panic::panic_any(Discard { condition })
}

#[derive(Default)]
pub(crate) struct CaseState {
    pub(crate) labels: Vec<String>,
    pub(crate) utility: Option<f64>,
    pub(crate) notes: Vec<String>,
    /// The key of the model state the case's command sequence reached, when it ran a state machine.
    pub(crate) state: Option<u64>,
}

/// What the property has reported about the case running on a thread, if one runs.
struct Current {
    /// Whether a case runs.
    on: Cell<bool>,
    /// Its labels so far (empty between cases).
    labels: RefCell<Vec<String>>,
    /// Its utility so far (`None` between cases).
    utility: Cell<Option<f64>>,
    /// Whether its notes are kept (see [`notes_kept`]).
    keep_notes: Cell<bool>,
    /// Whether a report shows it (see [`shown`]).
    shown: Cell<bool>,
    /// Its notes so far.
    notes: RefCell<Vec<String>>,
    /// The model state its command sequence reached (see [`reached_state`]).
    state: Cell<Option<u64>>,
}

thread_local! {
    static STATE: Current = const {
        Current {
            on: Cell::new(false),
            labels: RefCell::new(Vec::new()),
            utility: Cell::new(None),
            keep_notes: Cell::new(false),
            shown: Cell::new(false),
            notes: RefCell::new(Vec::new()),
            state: Cell::new(None),
        }
    };
}

/// Starts recording what the property reports about a case on this thread,
/// its notes too when `keep_notes` (the case is shown or observed); `shown`
/// when a report shows it (see [`shown`]).
pub(crate) fn begin(keep_notes: bool, shown: bool) {
    STATE.with(|s| {
        s.on.set(true);
        s.keep_notes.set(keep_notes);
        s.shown.set(shown);
    });
}

/// Whether the case running on this thread is one a report shows (the shrunk failing case, a
/// replayed token): where what costs more than a run of the property may be noted.
pub(crate) fn shown() -> bool {
    STATE.with(|s| s.on.get() && s.shown.get())
}

/// Stops recording and returns what was reported.
pub(crate) fn end() -> CaseState {
    STATE.with(|s| {
        s.on.set(false);
        let labels = match s.labels.try_borrow_mut() {
            Ok(mut l) if !l.is_empty() => std::mem::take(&mut *l),
            _ => Vec::new(),
        };
        let notes = match s.notes.try_borrow_mut() {
            Ok(mut n) if !n.is_empty() => std::mem::take(&mut *n),
            _ => Vec::new(),
        };
        s.keep_notes.set(false);
        s.shown.set(false);
        CaseState { labels, utility: s.utility.take(), notes, state: s.state.take() }
    })
}

/// The current case ran a state machine's command sequence, which reached
/// the model state of key `key` (the last call counts): the case's novelty
/// is the model state's, so guides rewarded for new values are rewarded for
/// new model states. Outside a case it does nothing.
pub(crate) fn reached_state(key: u64) {
    STATE.with(|s| {
        if s.on.get() {
            s.state.set(Some(key));
        }
    });
}

/// Whether the notes of the case running on this thread are kept: only for
/// a case the runner shows (the shrunk failing case, a replayed token) or
/// observes, so that [`crate::note!`] formats nothing while a run searches.
pub fn notes_kept() -> bool {
    STATE.with(|s| s.on.get() && s.keep_notes.get())
}

/// Attach `note` to the current case (what [`crate::note!`] calls): shown
/// with it if it is the failing case reported. Outside a case whose notes
/// are kept ([`notes_kept`]) it does nothing.
pub fn report_note(note: String) {
    STATE.with(|s| {
        if s.on.get() && s.keep_notes.get() {
            s.notes.borrow_mut().push(note);
        }
    });
}

/// Report the utility of the current case, for guides that search for high
/// utility (what [`crate::maximize!`] and [`crate::target!`] call;
/// [`crate::minimize!`] reports the negated value). When a case reports
/// several, the largest counts: the case is as good as its best measure. A
/// NaN is ignored.
///
/// Outside a property's case there is no guide to tell: the utility is
/// ignored, and the first such call of the process says so on standard error.
pub fn report_utility(utility: f64) {
    if utility.is_nan() {
        return;
    }
    let on = STATE.with(|s| {
        if s.on.get() {
            s.utility.set(Some(s.utility.get().map_or(utility, |u| u.max(utility))));
        }
        s.on.get()
    });
    if !on && !UTILITY_OUTSIDE_SAID.swap(true, std::sync::atomic::Ordering::Relaxed) {
        let _ = writeln!(
            std::io::stderr(),
            "refgen: warning: `maximize!` / `minimize!` / `target!` called outside a property: the utility ({utility}) \
             is ignored; it steers a search only inside a `#[property]` (or `Property::check`), under a guide that \
             searches on it (`auto`, `sa`, `mutate`). Said once per process."
        );
    }
}

/// Whether a utility reported outside a property has been said to be ignored.
static UTILITY_OUTSIDE_SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A number a property can report as its utility (what [`crate::maximize!`],
/// [`crate::minimize!`] and [`crate::target!`] take): any primitive integer or
/// float, or a reference to one. Anything else is a compile error saying so:
/// measure it first (`maximize!(s.len())`).
#[diagnostic::on_unimplemented(
    message = "`maximize!`, `minimize!` and `target!` take a number, not `{Self}`",
    label = "not a number",
    note = "a utility is an integer or a float (`u8`..`u128`, `i8`..`i128`, `usize`, `isize`, `f32`, `f64`); \
            measure the value as one first, such as `maximize!(s.len())`"
)]
pub trait Utility {
    /// The utility as an `f64` (a 64- or 128-bit integer past 2^53 is rounded).
    fn utility(self) -> f64;
}

macro_rules! utility_as_f64 {
    ($($t:ty),*) => {$(
        impl Utility for $t {
            #[inline]
            fn utility(self) -> f64 {
                self as f64
            }
        }
    )*};
}
utility_as_f64!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize, f32, f64);

impl<T: Utility + Copy> Utility for &T {
    #[inline]
    fn utility(self) -> f64 {
        (*self).utility()
    }
}

/// Label the current case, for the distribution table (what [`crate::label!`] calls).
pub fn report_label(label: impl Into<String>) {
    STATE.with(|s| {
        if s.on.get() {
            let label = label.into();
            let mut labels = s.labels.borrow_mut();
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
    });
}

/// Attach a line of context to the current case, formatted as `format!`
/// does: printed under the failing case's arguments in the report (the
/// shrunk case's notes only, not those of every case tried) and written to
/// the observability output. The arguments are formatted only when the
/// case's notes are kept, so a note costs nothing while a run searches.
/// Outside a property it does nothing.
///
/// ```
/// # use refgen::note;
/// fn prop(xs: Vec<u8>) {
///     let total: u32 = xs.iter().map(|&x| u32::from(x)).sum();
///     note!("total = {total}");
///     assert!(total < 10_000);
/// }
/// # prop(vec![1, 2]);
/// ```
#[macro_export]
macro_rules! note {
    ($($arg:tt)+) => {
        if $crate::case::notes_kept() {
            $crate::case::report_note(::std::format!($($arg)+))
        }
    };
}

/// Discard the current case unless `cond` holds: the runner counts it as a
/// discard, not a pass or a failure, and tells the guide the input was invalid.
///
/// ```
/// # use refgen::assume;
/// fn prop(a: u8, b: u8) {
///     assume!(b != 0);
///     assert_eq!(a / b * b + a % b, a);
/// }
/// # prop(7, 2);
/// ```
#[macro_export]
macro_rules! assume {
    ($cond:expr $(,)?) => {
        if !$cond {
            $crate::case::discard(::core::stringify!($cond))
        }
    };
}

/// Ask the guide to maximize `utility` (a number: any primitive integer or
/// float, see [`case::Utility`](crate::case::Utility)) for the current case:
/// targeted property-based testing (Löscher and Sagonas, "Automating
/// Targeted Property-Based Testing", ICST 2018). A search guide such as
/// simulated annealing (`#[property(guide = sa)]`) moves toward inputs of
/// higher utility; the report shows the best utility reached. Several calls
/// in one case: the largest value counts. The default guide, `auto`, shares
/// its cases with simulated annealing from the first case that reports a
/// utility, and keeps generating at random in some of them; under a
/// guide that does not search on it (`random`, `rl`, `cgs`, `tuned`), the run
/// says so once. Outside a property it does nothing (said once per process).
///
/// ```
/// # use refgen::maximize;
/// fn prop(xs: Vec<u8>) {
///     maximize!(xs.len());
///     assert!(xs.len() < 1000);
/// }
/// # prop(vec![1]);
/// ```
#[macro_export]
macro_rules! maximize {
    ($utility:expr $(,)?) => {
        $crate::case::report_utility($crate::case::Utility::utility($utility))
    };
}

/// Ask the guide to minimize `utility` for the current case (see
/// [`maximize!`]): it reports `-utility`, so the report's best utility is
/// the negated minimum.
///
/// ```
/// # use refgen::minimize;
/// fn prop(x: i32) {
///     minimize!((x - 7).abs());
/// }
/// # prop(3);
/// ```
#[macro_export]
macro_rules! minimize {
    ($utility:expr $(,)?) => {
        $crate::case::report_utility(-$crate::case::Utility::utility($utility))
    };
}

/// Report a utility for the current case; the same as [`maximize!`].
///
/// ```
/// # use refgen::target;
/// fn prop(xs: Vec<u8>) {
///     target!(xs.len() as f64);
/// }
/// # prop(vec![1]);
/// ```
#[macro_export]
macro_rules! target {
    ($utility:expr $(,)?) => {
        $crate::case::report_utility($crate::case::Utility::utility($utility))
    };
}

/// Label the current case; with statistics on (`REFGEN_STATS=1` or
/// `#[property(stats)]`) the runner prints how many cases had each label.
///
/// ```
/// # use refgen::label;
/// fn prop(xs: Vec<u8>) {
///     label!(if xs.is_empty() { "empty" } else { "non-empty" });
///     label!("length {}", xs.len());
/// }
/// # prop(vec![]);
/// ```
#[macro_export]
macro_rules! label {
    ($label:expr $(,)?) => {
        $crate::case::report_label($label)
    };
    ($fmt:expr, $($arg:tt)+) => {
        $crate::case::report_label(::std::format!($fmt, $($arg)+))
    };
}

/// Label the current case `label` when `cond` holds (see [`label!`]).
///
/// ```
/// # use refgen::classify;
/// fn prop(x: u8) {
///     classify!(x == 0, "zero");
///     classify!(x > 200, "large");
/// }
/// # prop(0);
/// ```
#[macro_export]
macro_rules! classify {
    ($cond:expr, $label:expr $(,)?) => {
        if $cond {
            $crate::case::report_label($label)
        }
    };
}

/// What a property function may return: `()`, `bool` (`false` fails), or a
/// `Result` (`Err` fails, with the error's `Debug` as the reason).
#[diagnostic::on_unimplemented(
    message = "a property must return `()`, `bool` or `Result<_, E: Debug>`, not `{Self}`",
    label = "this return type is not a property outcome"
)]
pub trait IntoOutcome {
    /// `Ok` when the case passed; `Err(reason)` when it failed.
    fn into_outcome(self) -> Result<(), String>;
}

impl IntoOutcome for () {
    fn into_outcome(self) -> Result<(), String> {
        Ok(())
    }
}

impl IntoOutcome for bool {
    fn into_outcome(self) -> Result<(), String> {
        if self {
            Ok(())
        } else {
            Err("the property returned false".to_owned())
        }
    }
}

impl<T, E: Debug> IntoOutcome for Result<T, E> {
    fn into_outcome(self) -> Result<(), String> {
        self.map(|_| ()).map_err(|e| format!("the property returned Err({e:?})"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outside a case a utility is dropped, and the process is told once.
    #[test]
    fn a_utility_outside_a_property_is_ignored_and_said() {
        crate::maximize!(5u8);
        assert!(UTILITY_OUTSIDE_SAID.load(std::sync::atomic::Ordering::Relaxed));
        begin(false, false);
        crate::maximize!(2);
        crate::minimize!(-3.5f32);
        assert_eq!(end().utility, Some(3.5), "inside a case, the largest counts");
    }
}
