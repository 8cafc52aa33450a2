//! Growing: a learning guide that hands part of its work to grafting once its validity condition retries.
//!
//! The learning guides (`rl`, `cgs`, `sa`) choose one choice at a time, or
//! edit one input. Where validity couples a part with its surroundings (a
//! balanced tree's heights, a search tree's keys, a term's types), a
//! retrying `#[assume]` makes their values valid by regenerating the failing
//! part, and the valid values stay as small as random generation's
//! ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#growing-the-learning-guides)).
//! [`Growing`] (a [`Switching`] guide, see [`super::switch`]) runs such a
//! guide as it is until the validity condition is seen to retry (more than
//! [`SWITCH_FAILED`] failed attempts per case whose filters retried, over
//! at least [`SWITCH_CASES`] cases: `sa`'s neighbours replay without
//! retries, and are not counted), and from then on shares the work with
//! mutation with splicing and grafting ([`MutateGuide`]): the guide makes
//! the share of the work that mutation leaves fresh (half, by default), and
//! mutation grows valid values from the valid parts of every case, the
//! guide's own included (mutation starts from the valid values of the
//! guide's first 20 cases). The guide learns from its own cases only.
//!
//! `#[property(guide = rl)]`, `cgs` and `sa` make their guide this way;
//! `grow = 0` is the guide alone (`guide = rl(grow = 0)`, RLCheck as the
//! paper has it), `grow = P` gives mutation the share `P` of the work once
//! it switches (0.5 by default). A validity condition that discards rather
//! than retries (`.retries(0)`, `assume!`) never makes the switch.
//!
//! ```
//! use refgen::combinators::{int, vec};
//! use refgen::gen::Gen;
//! use refgen::guides::{grow::Growing, RlGuide};
//! use refgen::{config::Config, runner::Property};
//!
//! // Sorted lists, by a filter that retries: random sorted lists are short.
//! let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted());
//! let report = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()))
//!     .check(&Config::new("sorted, rl").cases(300).guide(|| Growing::new(RlGuide::default(), 0.5)))
//!     .unwrap();
//! assert_eq!(report.guide, "rl");
//! assert!(report.guide_notes[0].starts_with("rl: grows valid values"), "{:?}", report.guide_notes);
//! ```

use super::mutate::Kept;
use super::switch::{option_name, Counted, Grower, Switching, When};
use super::{MutateConfig, MutateGuide};
use crate::guide::{Feedback, Guide};

/// No switch before this many cases have run (the default guide's [`super::AutoConfig::min_cases`]).
pub const SWITCH_CASES: u64 = 20;

/// Switch once the retrying filters have made more than this many failed attempts per case whose
/// filters retried (the default guide's [`super::AutoConfig::failed_attempts`]).
pub const SWITCH_FAILED: f64 = 1.0;

/// The share of the work [`Growing`] gives mutation once it switches, unless told otherwise.
///
/// Half is a compromise between workloads that pull each way: a quarter made the typed language's
/// failures come sooner and the AVL tree's later, three quarters the typed language's later
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#default_grow)).
pub const DEFAULT_GROW: f64 = 0.5;

/// The share of the grower's cases that are not fresh made by grafting ([`MutateConfig::graft`]), here
/// and in the default guide's switch to mutation: half, where `guide = mutate` grafts a quarter. A graft
/// case searches for parts that fit where a splice or a mutant tries one edit, so most graft cases are
/// valid. Half found more of the red-black tree's bugs in every trial than a quarter or three quarters
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#grow_graft)).
pub const GROW_GRAFT: f64 = 0.5;

/// The mutation that makes the share `share` of the work once a guide grows: half its grown cases grafted.
pub(super) fn grower(share: f64) -> MutateGuide {
    MutateGuide::new(MutateConfig::default().fresh(1.0 - share).graft(GROW_GRAFT))
}

/// The valid new values of a guide's first [`SWITCH_CASES`] cases, kept until it switches to its grower
/// and then handed to it ([`Origin::Adopted`](crate::guide::Origin::Adopted)): the grower's corpus and donors start from the values made
/// before the switch, where it would otherwise start from its own first fresh case.
#[derive(Debug, Default)]
pub(super) struct Heard {
    /// The cases kept.
    cases: Vec<Kept>,
    /// Cases heard so far.
    heard: u64,
}

impl Heard {
    /// Keep `feedback`'s case if it is among the first [`SWITCH_CASES`] heard and passed with a new value.
    pub(super) fn hear(&mut self, feedback: &Feedback<'_>) {
        self.heard += 1;
        if let Some(kept) = (self.heard <= SWITCH_CASES).then(|| Kept::of(feedback)).flatten() {
            self.cases.push(kept);
        }
    }

    /// Hand the kept cases to `grower`, in the order they were made, and forget them.
    pub(super) fn hand_to(&mut self, grower: &mut dyn Guide) {
        for kept in std::mem::take(&mut self.cases) {
            grower.feedback(&kept.feedback());
        }
    }
}

/// `p` as a `grow = P` option's value: the setters of `rl`, `cgs` and `sa` call it, so a share outside
/// `0..=1` is a compile error at the options.
pub const fn grow_option(p: f64) -> f64 {
    assert!(p >= 0.0 && p <= 1.0, "`grow` must be in 0..=1: the share of the work mutation makes");
    p
}

/// The kind of [`Switching`] guide a growing learner is (see [`Growing`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Grow;

/// A guide that shares its work with mutation once its validity condition retries; see the module docs.
pub type Growing = Switching<Grow>;

impl Growing {
    /// `inner`, giving mutation the share `grow` (clamped to `0..=1`) of the work once its validity
    /// condition retries; with `grow` 0, `inner` alone.
    pub fn new(inner: impl Guide + 'static, grow: f64) -> Self {
        let share = if grow.is_nan() { 0.0 } else { grow.clamp(0.0, 1.0) };
        let when = When {
            min_cases: SWITCH_CASES,
            discards: None,
            utility: false,
            states: false,
            failed_attempts: SWITCH_FAILED,
            counted: Counted::Retried,
        };
        let grows = if share > 0.0 { Grower::Share(Box::new(grower(share))) } else { Grower::None };
        let mut guide = Switching::with(option_name(inner.name(), share), Box::new(inner), when, grows);
        guide.share = share;
        guide
    }

    /// The guide that makes the fresh share of the work.
    pub fn inner(&self) -> &dyn Guide {
        &*self.first
    }

    /// The share of the work mutation makes once the guide switches.
    pub fn share(&self) -> f64 {
        self.share
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::guides::RlGuide;
    use crate::runner::Property;
    use refgen_core::combinators::{int, vec};
    use refgen_core::gen::Gen;

    fn sorted(retries: u32) -> impl Gen<Value = Vec<u8>> {
        vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted()).retries(retries)
    }

    /// The share of the valid lists a run under `guide` makes that have 3 or more elements.
    fn share_of_3_plus(retries: u32, guide: fn() -> Growing) -> (f64, Vec<String>) {
        let lens = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = lens.clone();
        let p = Property::new(move || sorted(retries), move |xs: Vec<u8>| seen.lock().unwrap().push(xs.len()));
        let report = p.check(&Config::new("grow").cases(2000).seed(3).guide(guide)).unwrap();
        let lens = lens.lock().unwrap();
        (lens.iter().filter(|&&n| n >= 3).count() as f64 / lens.len() as f64, report.guide_notes)
    }

    #[test]
    fn a_retrying_filter_makes_the_switch_and_the_values_grow() {
        let (alone, notes) = share_of_3_plus(10, || Growing::new(RlGuide::default(), 0.0));
        assert!(!notes.iter().any(|n| n.contains("grows valid values")), "{notes:?}");
        let (grown, notes) = share_of_3_plus(10, || Growing::new(RlGuide::default(), 0.5));
        assert!(notes[0].starts_with("rl: grows valid values"), "{notes:?}");
        assert!(notes.iter().any(|n| n.starts_with("mutate: corpus of")), "{notes:?}");
        assert!(grown > 2.0 * alone, "3+ elements: {grown} grown, {alone} alone");
    }

    #[test]
    fn a_discarding_filter_makes_no_switch() {
        let (_, notes) = share_of_3_plus(0, || Growing::new(RlGuide::default(), 0.5));
        assert!(!notes.iter().any(|n| n.contains("grows valid values")), "{notes:?}");
    }

    #[test]
    fn the_name_shows_a_share_that_is_not_the_default() {
        assert_eq!(Growing::new(RlGuide::default(), 0.5).name(), "rl");
        assert_eq!(Growing::new(RlGuide::default(), 0.0).name(), "rl(grow = 0)");
        let diverse = RlGuide::new(crate::guides::RlConfig::diverse());
        assert_eq!(Growing::new(diverse, 0.25).name(), "rl(explore = diverse, grow = 0.25)");
    }
}
