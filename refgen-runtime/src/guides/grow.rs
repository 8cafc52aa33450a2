//! Growing: a learning guide that hands part of its work to grafting once its validity condition retries.
//!
//! The learning guides (`rl`, `cgs`, `sa`) choose one choice at a time, or
//! edit one input. Where validity couples a part with its surroundings (a
//! balanced tree's heights, a search tree's keys, a term's types), a
//! retrying `#[assume]` makes their values valid by regenerating the failing
//! part, and the valid values stay as small as random generation's: on the
//! AVL workload of `examples/bugfind`, 98% or more of the valid trees under `rl`,
//! `cgs` and `sa` had at most 4 nodes, and each guide missed tasks random
//! generation found. [`Growing`] runs such a guide as it is until the
//! validity condition is seen to retry (more than [`SWITCH_FAILED`] failed
//! attempts per case whose filters retried, over at least
//! [`SWITCH_CASES`] cases, as the default guide's switch, [`super::auto`],
//! but counted over the cases whose filters retried: `sa`'s neighbours
//! replay without retries),
//! and from then on shares the work with mutation with splicing and
//! grafting ([`MutateGuide`]): the guide makes the share of the work that
//! mutation leaves fresh (half, by default), and mutation grows valid values
//! from the valid parts of every case, the guide's own included (mutation
//! starts from the valid values of the guide's first 20 cases, which it
//! adopts at the switch: [`Guide::adopt`]). The guide learns from its own
//! cases only.
//!
//! `#[property(guide = rl)]`, `cgs` and `sa` make their guide this way;
//! `grow = 0` is the guide alone (`guide = rl(grow = 0)`, RLCheck as the
//! paper has it), `grow = P` gives mutation the share `P` of the work once
//! it switches (0.5 by default). A validity condition that discards rather
//! than retries (`.retries(0)`, `assume!`) never makes the switch.
//!
//! ```
//! use refgen_core::combinators::{int, vec};
//! use refgen_core::gen::Gen;
//! use refgen_runtime::guides::{grow::Growing, RlGuide};
//! use refgen_runtime::{config::Config, runner::Property};
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
use super::{MutateConfig, MutateGuide};
use crate::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Plan, ReportSection};
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::combinators::failed_attempts;
use refgen_core::source::{DetRng, Stop};
use std::cell::Cell;

/// No switch before this many cases have run (the default guide's [`super::AutoConfig::min_cases`]).
pub const SWITCH_CASES: u64 = 20;

/// Switch once the retrying filters have made more than this many failed attempts per case whose
/// filters retried (the default guide's [`super::AutoConfig::failed_attempts`]).
pub const SWITCH_FAILED: f64 = 1.0;

/// The share of the work [`Growing`] gives mutation once it switches, unless told otherwise.
///
/// Half is a compromise between workloads that pull each way. Measured under the default guide on
/// `examples/bugfind` (trials of at most 100,000 tests or 5 s, mean time to a failure): with a quarter,
/// the typed language's failures came sooner (26.5 ms against 32.6, 10 trials per task: its fresh cases
/// make small terms cheaply, a test cost 10.9 µs against 18.4, so more tests run in the time though
/// more are needed), the AVL tree's later (14.5 ms against 11.9, 5 trials); with three quarters, the typed
/// language's came later (45.4 ms against 34.6, 5 trials).
///
/// Measured again with nine tenths (`--per-task`, at most 1 s a trial, two runs side by side): the
/// red-black tree's mean time 89.36 against 90.83 ms (3 trials; 55 tasks solved in every trial against
/// 51), the typed language's 60.71 against 42.21 ms (3 trials: fewer tests, a geometric mean of 315.9
/// against 410.5, but larger terms, a test costing 61.6 µs against 27.2); the AVL tree's, the heap's and
/// the search tree's moved less than two runs of the same build did. A fresh cases' share adapted to
/// what each kind of case yields (fresh and grown cases' valid values per choice made, by probability
/// matching within a tenth and nine tenths, after 20 cases of each kind; the fresh share settled near a
/// tenth on the trees and near half on the typed language) was measured with at most 5,000 tests a trial, so by the tests: the same
/// on the search tree and the heap (their failures come before it adapts), about the same on the AVL
/// tree (geometric mean 148.3 against 148.8, 5 trials), the red-black tree (61.1 against 63.4, 151 of
/// 168 trials solved against 152) and the typed language (262.8 against 297.3, 18 tasks solved in every
/// trial against 19). Neither was kept.
pub const DEFAULT_GROW: f64 = 0.5;

/// The share of the grower's cases that are not fresh made by grafting ([`MutateConfig::graft`]), here
/// and in the default guide's switch to mutation: half, where `guide = mutate` grafts a quarter. A graft
/// case searches for parts that fit where a splice or a mutant tries one edit, so most graft cases are
/// valid. On the red-black tree workload of `examples/bugfind` (3 trials per task of at most 100,000
/// tests or 5 s), the default guide solved 54 of the 58 tasks in every trial with half its grown cases
/// grafted, against 49 with a quarter (46 against 40 without [restarts](super::mutate)); on the AVL
/// workload, all 27 in every trial either way, with a mean time to a failure of 41 ms against 54 ms.
/// (Measured while a graft case's retries stopped at their first choice, so a graft case whose retry
/// began at a node was rejected. With retries that work, the default guide solved all 59 red-black
/// tasks its discovery run found, 56 of them in 9 or more of 10 trials.)
///
/// Three quarters were measured again (`--per-task`, at most 5,000 tests a trial, the share set by a
/// temporary switch): the AVL tree's tests to a failure fell (geometric mean 128.3 against 148.8, 5
/// trials), and the typed language's (249.2 against 327.1, 3 trials), but fewer trials found their
/// bug: 150 of 171 on the red-black tree against 153 (44 tasks in every trial against 47), 59 of 66 on
/// the typed language against 62. Half was kept.
pub const GROW_GRAFT: f64 = 0.5;

/// The mutation that makes the share `share` of the work once a guide grows: half its grown cases grafted.
pub(super) fn grower(share: f64) -> MutateGuide {
    MutateGuide::new(MutateConfig::default().fresh(1.0 - share).graft(GROW_GRAFT))
}

/// The valid new values of a guide's first [`SWITCH_CASES`] cases, kept until it switches to its grower
/// and then handed to it ([`Guide::adopt`]): the grower's corpus and donors start from the values made
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
            grower.adopt(&kept.feedback());
        }
    }
}

/// `p` as a `grow = P` option's value: the setters of `rl`, `cgs` and `sa` call it, so a share outside
/// `0..=1` is a compile error at the options.
pub const fn grow_option(p: f64) -> f64 {
    assert!(p >= 0.0 && p <= 1.0, "`grow` must be in 0..=1: the share of the work mutation makes");
    p
}

/// A guide that shares its work with mutation once its validity condition retries; see the module docs.
pub struct Growing {
    name: String,
    inner: Box<dyn Guide>,
    grower: MutateGuide,
    share: f64,
    /// Cases heard, cases whose filters retried, and their failed attempts.
    heard: (u64, u64, u64),
    /// [`failed_attempts`] when the case under way began.
    failed_before: u64,
    /// Whether the case under way asked whether its filters retry, and was told yes.
    retried: Cell<bool>,
    /// The case after which the guide switched, and the count that made it.
    switched: Option<(u64, u64, u64)>,
    /// Whether the case under way is the guide's own.
    inner_case: bool,
    /// The valid values of the first cases, for mutation when the guide switches.
    first: Heard,
}

impl std::fmt::Debug for Growing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Growing")
            .field("name", &self.name)
            .field("share", &self.share)
            .field("switched", &self.switched)
            .finish_non_exhaustive()
    }
}

impl Growing {
    /// `inner`, giving mutation the share `grow` (clamped to `0..=1`) of the work once its validity
    /// condition retries; with `grow` 0, `inner` alone.
    pub fn new(inner: impl Guide + 'static, grow: f64) -> Self {
        let share = if grow.is_nan() { 0.0 } else { grow.clamp(0.0, 1.0) };
        let name = option_name(inner.name(), share);
        Growing {
            name,
            inner: Box::new(inner),
            grower: grower(share),
            share,
            heard: (0, 0, 0),
            failed_before: 0,
            retried: Cell::new(false),
            switched: None,
            inner_case: true,
            first: Heard::default(),
        }
    }

    /// The guide that makes the fresh share of the work.
    pub fn inner(&self) -> &dyn Guide {
        &*self.inner
    }

    /// Whether the guide has switched: mutation now makes its share of the work.
    pub fn switched(&self) -> bool {
        self.switched.is_some()
    }

    /// The share of the work mutation makes once the guide switches.
    pub fn share(&self) -> f64 {
        self.share
    }
}

/// `name` with `grow = P` among its options when `share` is not the default.
fn option_name(name: &str, share: f64) -> String {
    if share == DEFAULT_GROW {
        return name.to_owned();
    }
    match name.strip_suffix(')') {
        Some(open) => format!("{open}, grow = {share})"),
        None => format!("{name}(grow = {share})"),
    }
}

impl Growing {
    /// The guide that makes the case under way: the inner guide's, or mutation's.
    fn case_guide(&self) -> &dyn Guide {
        if self.inner_case {
            &*self.inner
        } else {
            &self.grower
        }
    }

    fn case_guide_mut(&mut self) -> &mut dyn Guide {
        if self.inner_case {
            &mut *self.inner
        } else {
            &mut self.grower
        }
    }
}

impl Guide for Growing {
    fn name(&self) -> &str {
        &self.name
    }

    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        self.failed_before = failed_attempts();
        self.retried.set(false);
        if self.switched.is_none() {
            self.inner_case = true;
            return self.inner.begin_case(case);
        }
        let plan = self.grower.begin_case(case);
        self.inner_case = self.grower.fresh_planned();
        if self.inner_case {
            self.inner.begin_case(case)
        } else {
            plan
        }
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        self.case_guide_mut().choose(ctx, rng)
    }

    fn filters_retry(&self) -> bool {
        let retry = self.case_guide().filters_retry();
        if retry {
            self.retried.set(true);
        }
        retry
    }

    fn records_failed_attempts(&self) -> bool {
        self.case_guide().records_failed_attempts()
    }

    fn feedback(&mut self, feedback: &Feedback<'_>) {
        if self.inner_case {
            self.inner.feedback(feedback);
        }
        if self.switched.is_some() {
            self.grower.feedback(feedback);
            return;
        }
        let failed = failed_attempts().saturating_sub(self.failed_before);
        let retried = self.retried.get();
        let (cases, retrying, attempts) = &mut self.heard;
        *cases += 1;
        *retrying += u64::from(retried);
        *attempts += if retried { failed } else { 0 };
        self.first.hear(feedback);
        if self.share > 0.0 && *cases >= SWITCH_CASES && *attempts as f64 > SWITCH_FAILED * *retrying as f64 {
            self.switched = Some(self.heard);
            self.first.hand_to(&mut self.grower);
        }
    }

    fn recycle(&mut self, tree: ChoiceTree) {
        self.case_guide_mut().recycle(tree);
    }

    fn uses_utility(&self) -> bool {
        self.inner.uses_utility()
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if let Some((cases, retrying, attempts)) = self.switched {
            notes.push(format!(
                "{}: grows valid values by mutation with splicing and grafting in {:.0}% of the work, from case #{cases} on, \
                 when the validity condition had rejected {attempts} attempts in {retrying} cases that retried",
                self.inner.name(),
                100.0 * self.share,
            ));
        }
        notes.extend(self.inner.notes());
        if self.switched.is_some() {
            notes.extend(self.grower.notes());
        }
        notes
    }

    fn report_section(&self) -> Option<ReportSection> {
        self.inner.report_section()
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
