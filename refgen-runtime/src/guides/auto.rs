//! The default guide: random generation that switches itself to a utility search, RLCheck or mutation.
//!
//! Most properties are best served by plain random generation, and need no
//! choice of guide. Three kinds are not, and [`AutoGuide`] notices each:
//!
//! - a property that reports a utility (`maximize!`, `minimize!`,
//!   `target!`) asks for inputs of high utility, which random generation does
//!   not look for: at the first case that reports one, it hands every later
//!   case to a search on the utility (simulated annealing, [`SaGuide`], by
//!   default);
//! - a type whose validity condition (`#[assume]`, a `filter`, `assume!`)
//!   rejects most random values: the run would give up. Once at least
//!   [`AutoConfig::min_cases`] cases have run and more than
//!   [`AutoConfig::discard_threshold`] of them were discarded, it hands every
//!   later case to a learning guide ([`RlGuide`] by default), which is
//!   rewarded for valid, new values;
//! - a type whose validity condition holds for random values only after
//!   many failed attempts (a retrying `#[assume]` or filter: more than
//!   [`AutoConfig::failed_attempts`] per case, 1 by default, over at least
//!   [`AutoConfig::min_cases`] cases), such as a balanced search tree, a
//!   sorted list or a well-typed term: its random valid values stay small,
//!   whatever the number of tries. It hands every later case to mutation
//!   with splicing ([`MutateGuide`](super::MutateGuide) with half the work fresh,
//!   [`MutateConfig::fresh`](super::MutateConfig::fresh) 0.5, half its other cases grafted): half the work stays random generation as
//!   before the switch; the other half grows valid values from the valid
//!   parts seen, by splicing them into valid values (see
//!   [`refgen_core::splice`]) and by grafting them where the generator makes
//!   a part of a recursive type, retrying until one fits, and by rotating
//!   them (a part lifted above its node, the order of the parts kept, the
//!   two nodes recoloured); after periods of Luby's sequence in units of
//!   5,000 cases (5,000, 10,000, 20,000, 25,000, ... cases)
//!   it starts again from fresh cases, so that a long run is not held to the
//!   descendants of a few early values (see [`super::mutate`]). Mutation
//!   starts from the valid values random generation made before the switch
//!   (those of the first 20 cases, made again from their seeds when it
//!   switches: [`Guide::adopts_plain_cases`]; once their failed attempts
//!   pass the bar, which makes the switch certain, the cases until it are
//!   made noting their kept choices instead, [`Guide::will_adopt_plain_cases`],
//!   so that they need not be made again through their failed attempts), which it adopts
//!   ([`Guide::adopt`]) as the first entries of its corpus and its first
//!   donors: started from nothing, its first cases were mostly mutants of
//!   the first small value it made itself. It waits for the first
//!   [`AutoConfig::min_cases`] cases even when their failed attempts already
//!   pass the bar early (the count only grows), though a random case of such
//!   a type is the dearest of the run. Switching as soon as the count passes
//!   the bar was measured on `examples/bugfind` (the default guide,
//!   `--per-task`, the two builds side by side, 3 trials, 6 for the AVL
//!   tree): the mean time to a failure fell on the search tree (4.98 to 3.25
//!   ms), the heap (1.68 to 1.22) and the typed language (74.7 to 54.2), but
//!   rose on the AVL tree (20.8 to 27.1 ms) and the red-black tree's tests
//!   rose (the geometric mean 144 to 356, while its mean time went 256 to 237
//!   ms over the trials that failed; 28% of its valid trees were empty,
//!   against 15%), most likely as its corpus grew from two or three random
//!   values. Switching as soon but making every other case random until the
//!   first `min_cases` (so the corpus gets as many random values, later) kept
//!   part of the gains (search tree 5.01 to 4.34 ms, heap 1.67 to 1.49, typed
//!   language 76.5 to 44.2) and lost less (AVL 19.7 to 21.4 ms; red-black
//!   geometric mean of tests 144 to 210, mean time 252 to 284 ms, over the
//!   trials that failed). Neither was kept.
//!
//! It switches once, to whichever comes first, and says so in the run's
//! statistics and in failure reports ([`Guide::notes`]). (After a switch to
//! the learner, a utility has nowhere to go, and the runner says so: name
//! `guide = sa` for a search on the utility of such a property.)
//!
//! Until it switches, its cases take the runner's fast path
//! ([`Guide::plain_case`]): values made straight from each case's seed, no
//! trail kept; the switch needs only whether each case was discarded, its
//! utility, and the thread's count of failed attempts
//! ([`refgen_core::combinators::failed_attempts`]). After a switch to
//! mutation, the grower's fresh cases take it too (see [`super::mutate`]).
//! The learner it switches to starts from the generator's weights
//! (see [`super::rl`]), so the first learned cases look like the random ones
//! before them. (The learner's novelty counts from the switch on: values of
//! the random phase are not keyed, so one made again is new to it.)
//!
//! ```
//! use refgen_core::combinators::{int, vec};
//! use refgen_core::gen::Gen;
//! use refgen_runtime::{config::Config, guides::AutoGuide, maximize, runner::Property};
//!
//! // Sorted lists, by filtering without retries: most random lists are not sorted.
//! let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted()).retries(0);
//! let report = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()))
//!     .check(&Config::new("sorted").cases(200).guide(AutoGuide::default))
//!     .unwrap();
//! assert!(report.guide_notes[0].starts_with("auto: switched from random generation to rl"));
//!
//! // A utility: the search on it starts at once.
//! let report = Property::new(|| vec(int(0u8..=100), 0..=10), |xs: Vec<u8>| maximize!(xs.len()))
//!     .check(&Config::new("long").cases(200).guide(AutoGuide::default))
//!     .unwrap();
//! assert!(report.guide_notes[0].starts_with("auto: switched from random generation to sa"));
//!
//! // Sorted lists, by a filter that retries: valid, but random sorted lists are short.
//! let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted());
//! let report = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()))
//!     .check(&Config::new("sorted retried").cases(200).guide(AutoGuide::default))
//!     .unwrap();
//! assert!(report.guide_notes[0].starts_with("auto: switched from random generation to mutate"));
//! ```

use super::grow::{grower, Heard, DEFAULT_GROW, SWITCH_CASES, SWITCH_FAILED};
use super::{RandomGuide, RlGuide, SaGuide};
use crate::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Outcome, Plan, ReportSection};
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::combinators::failed_attempts;
use refgen_core::source::{DetRng, Stop};

/// When an [`AutoGuide`] switches.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AutoConfig {
    /// No switch before this many cases have run; default 20.
    pub min_cases: u64,
    /// Switch once more than this share of the cases so far (`0..=1`) were discarded; default 0.5.
    pub discard_threshold: f64,
    /// Switch to mutation with splicing once the retrying filters (`#[assume]`, [`Gen::filter`]) have made
    /// more than this many failed attempts per case, on average over the cases so far; default 1.
    ///
    /// [`Gen::filter`]: refgen_core::gen::Gen::filter
    pub failed_attempts: f64,
}

impl Default for AutoConfig {
    fn default() -> Self {
        AutoConfig { min_cases: SWITCH_CASES, discard_threshold: 0.5, failed_attempts: SWITCH_FAILED }
    }
}

/// Random generation until a case reports a utility or too many cases are
/// discarded, then a search on the utility or a learning guide (see the
/// module docs). `AutoGuide::default()` is the default guide of every
/// property; `#[property(guide = auto)]` names it.
pub struct AutoGuide {
    config: AutoConfig,
    random: RandomGuide,
    learner: Box<dyn Guide>,
    search: Box<dyn Guide>,
    grower: Box<dyn Guide>,
    /// [`failed_attempts`] when the last case ended, and the failed attempts of the cases since the first.
    failed: (Option<u64>, u64),
    /// The guide switched to, and why.
    switched: Option<Switch>,
    cases: u64,
    discards: u64,
    /// The valid values of the first cases that were recorded (the fast path's are adopted later, see
    /// [`Guide::adopts_plain_cases`]), for the grower if it switches to it.
    first: Heard,
}

/// Why an [`AutoGuide`] switched, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Switch {
    /// To the learner: `discards` of the first `cases` cases were discarded.
    Discards { cases: u64, discards: u64 },
    /// To the search: case `case` (from 0) reported a utility.
    Utility { case: u64 },
    /// To mutation with splicing: the first `cases` cases made `failed` failed attempts.
    Validity { cases: u64, failed: u64 },
}

impl Default for AutoGuide {
    fn default() -> Self {
        AutoGuide::new(AutoConfig::default(), RlGuide::default())
    }
}

impl std::fmt::Debug for AutoGuide {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoGuide")
            .field("config", &self.config)
            .field("learner", &self.learner.name())
            .field("search", &self.search.name())
            .field("switched", &self.switched)
            .finish_non_exhaustive()
    }
}

impl AutoGuide {
    /// A guide that switches from random generation to `learner` when most
    /// cases are discarded, as `config` says, and to simulated annealing
    /// ([`SaGuide::default`]) when a case reports a utility.
    pub fn new(config: AutoConfig, learner: impl Guide + 'static) -> Self {
        AutoGuide {
            config,
            random: RandomGuide,
            learner: Box::new(learner),
            search: Box::new(SaGuide::default()),
            grower: Box::new(grower(DEFAULT_GROW)),
            failed: (None, 0),
            switched: None,
            cases: 0,
            discards: 0,
            first: Heard::default(),
        }
    }

    /// The same guide, switching to `search` (instead of simulated
    /// annealing) when a case reports a utility.
    pub fn search(mut self, search: impl Guide + 'static) -> Self {
        self.search = Box::new(search);
        self
    }

    /// The same guide, switching to `grower` (instead of mutation with splicing) when the validity
    /// condition makes many failed attempts (see [`AutoConfig::failed_attempts`]).
    pub fn grower(mut self, grower: impl Guide + 'static) -> Self {
        self.grower = Box::new(grower);
        self
    }

    /// Whether the guide has switched, to its learner, its search or its grower.
    pub fn switched(&self) -> bool {
        self.switched.is_some()
    }

    /// A case heard, by the random phase's switch: counted, and the switch made when it is due.
    fn count(&mut self, feedback: &Feedback<'_>) {
        self.cases += 1;
        let discarded = feedback.outcome == Outcome::Discarded;
        self.discards += u64::from(discarded);
        if self.switched.is_some() {
            return;
        }
        self.first.hear(feedback);
        if feedback.utility.is_some() {
            self.switched = Some(Switch::Utility { case: self.cases - 1 });
            return;
        }
        // The count is the thread's (cases are made and heard on one thread): the first case's attempts
        // are not seen, as the count is first read when it ends.
        let now = failed_attempts();
        let failed = self.failed.1 + self.failed.0.map_or(0, |before| now - before);
        self.failed = (Some(now), failed);
        if self.cases >= self.config.min_cases && self.over_bar(failed, self.cases) {
            self.switched = Some(Switch::Validity { cases: self.cases, failed });
            self.first.hand_to(&mut *self.grower);
            return;
        }
        // The share of discards rises only with a discard: past the first
        // `min_cases` cases, a case that was not discarded cannot make the switch.
        if !(discarded || self.cases <= self.config.min_cases.max(1)) {
            return;
        }
        let share = self.discards as f64 / self.cases as f64;
        if self.cases >= self.config.min_cases && share > self.config.discard_threshold {
            self.switched = Some(Switch::Discards { cases: self.cases, discards: self.discards });
        }
    }

    /// Whether `failed` failed attempts pass the bar of the switch to the grower as case `cases` ends.
    fn over_bar(&self, failed: u64, cases: u64) -> bool {
        failed as f64 > self.config.failed_attempts * cases.saturating_sub(1) as f64
    }

    fn active(&mut self) -> &mut dyn Guide {
        match self.switched {
            None => &mut self.random,
            Some(Switch::Discards { .. }) => &mut *self.learner,
            Some(Switch::Utility { .. }) => &mut *self.search,
            Some(Switch::Validity { .. }) => &mut *self.grower,
        }
    }
}

impl Guide for AutoGuide {
    fn name(&self) -> &str {
        "auto"
    }

    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        self.active().begin_case(case)
    }

    fn filters_retry(&self) -> bool {
        self.active_ref().filters_retry()
    }

    /// Random generation's first cases are recorded for the grower, which keeps their kept choices only.
    fn records_failed_attempts(&self) -> bool {
        self.switched.is_some() && self.active_ref().records_failed_attempts()
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        self.active().choose(ctx, rng)
    }

    /// The random phase takes the fast path: the switch needs only whether
    /// each case was discarded, and its utility. After a switch to the
    /// grower, its fresh cases do ([`super::mutate`]).
    fn plain_case(&self) -> bool {
        match self.switched {
            None => true,
            Some(Switch::Validity { .. }) => self.grower.plain_case(),
            Some(_) => false,
        }
    }

    /// The grower hears the values of its fresh cases on the fast path; the random phase needs none.
    fn hears_plain_values(&self) -> bool {
        self.switched.is_some() && self.active_ref().hears_plain_values()
    }

    fn plain_feedback(&mut self, feedback: &Feedback<'_>) {
        self.active().plain_feedback(feedback);
        self.count(feedback);
    }

    fn recycle(&mut self, tree: ChoiceTree) {
        self.active().recycle(tree);
    }

    /// The grower adopts the valid values of the random phase's first cases, made again when it switches.
    fn adopts_plain_cases(&self) -> bool {
        matches!(self.switched, Some(Switch::Validity { .. }))
    }

    /// Once the random phase's failed attempts pass the bar, the switch to the grower after case
    /// [`AutoConfig::min_cases`] is certain (the count only grows, and is read first there), unless a
    /// utility comes before: the cases until then note their choices for it.
    fn will_adopt_plain_cases(&self) -> bool {
        self.switched.is_none()
            && self.cases < self.config.min_cases
            && self.over_bar(self.failed.1, self.config.min_cases)
    }

    /// A case of the random phase goes to the grower, if it switched to it.
    fn adopt(&mut self, feedback: &Feedback<'_>) {
        if self.adopts_plain_cases() {
            self.grower.adopt(feedback);
        }
    }

    /// A utility is searched on, unless the guide has switched to its learner.
    fn uses_utility(&self) -> bool {
        match self.switched {
            None | Some(Switch::Utility { .. }) => true,
            Some(Switch::Discards { .. }) => self.learner.uses_utility(),
            Some(Switch::Validity { .. }) => self.grower.uses_utility(),
        }
    }

    fn feedback(&mut self, feedback: &Feedback<'_>) {
        self.active().feedback(feedback);
        self.count(feedback);
    }

    fn notes(&self) -> Vec<String> {
        let mut notes = match self.switched {
            None => return Vec::new(),
            Some(Switch::Discards { cases, discards }) => vec![format!(
                "auto: switched from random generation to {} after case #{}, when {discards} of {cases} cases had been discarded",
                self.learner.name(),
                cases - 1,
            )],
            Some(Switch::Validity { cases, failed }) => vec![format!(
                "auto: switched from random generation to {} after case #{}, when the validity condition had \
                 rejected {failed} attempts in {cases} cases: mutation with splicing grows valid values from valid parts",
                self.grower.name(),
                cases - 1,
            )],
            Some(Switch::Utility { case }) => vec![format!(
                "auto: switched from random generation to {} after case #{case}, the first to report a utility \
                 (`maximize!`, `minimize!`, `target!`), to search for higher utility",
                self.search.name(),
            )],
        };
        notes.extend(self.active_ref().notes());
        notes
    }

    fn report_section(&self) -> Option<ReportSection> {
        self.switched.and_then(|_| self.active_ref().report_section())
    }
}

impl AutoGuide {
    fn active_ref(&self) -> &dyn Guide {
        match self.switched {
            None => &self.random,
            Some(Switch::Discards { .. }) => &*self.learner,
            Some(Switch::Utility { .. }) => &*self.search,
            Some(Switch::Validity { .. }) => &*self.grower,
        }
    }
}

/// `#[property(guide = auto)]`'s options: none, the default guide (see [`super`]'s table).
pub const fn options<V>() -> AutoOptions {
    AutoOptions
}

/// The options of `guide = auto`: none.
#[derive(Debug, Clone, Copy, Default)]
pub struct AutoOptions;

/// The names `auto`'s options may use: none.
pub mod names {}

impl<V> super::GuideOptions<V> for AutoOptions {
    type Guide = AutoGuide;
    fn into_guide(self, _property: super::ForProperty<V>) -> AutoGuide {
        AutoGuide::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;
    use crate::runner::Property;
    use refgen_core::combinators::{int, vec};
    use refgen_core::gen::Gen;

    /// A property whose inputs are always valid stays random, and says nothing.
    #[test]
    fn stays_random_when_inputs_are_valid() {
        let p = Property::new(|| vec(int(0u8..=9), 0..=5), |xs: Vec<u8>| xs.len() <= 5);
        let report = p.check(&Config::new("valid").cases(300).guide(AutoGuide::default)).unwrap();
        assert_eq!(report.guide, "auto");
        assert!(report.guide_notes.is_empty(), "{:?}", report.guide_notes);
    }

    /// Sorted lists by a retrying filter: mutation starts from random generation's valid values, which
    /// it adopts when it switches, made again from their seeds; the random phase is on the fast path.
    #[test]
    fn the_grower_adopts_the_valid_values_made_before_the_switch() {
        let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted());
        let p = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()));
        let report = p.check(&Config::new("sorted adopted").cases(200).guide(AutoGuide::default)).unwrap();
        assert!(report.guide_notes[0].contains("to mutate after case #19"), "{:?}", report.guide_notes);
        let adopted = report.guide_notes[1].rsplit(", ").next().unwrap();
        let n: u64 = adopted.split(' ').next().unwrap().parse().unwrap();
        // The first 20 cases passed (a retrying filter gives a valid value), and their new values are adopted.
        assert!((2..=20).contains(&n) && adopted.ends_with("adopted from before the switch"), "{adopted}");

        let mut guide = AutoGuide::default();
        assert!(guide.plain_case() && !guide.adopts_plain_cases(), "the random phase: the fast path");
        guide.switched = Some(Switch::Utility { case: 0 });
        assert!(!guide.adopts_plain_cases(), "a search on the utility adopts nothing");
        guide.switched = Some(Switch::Validity { cases: 20, failed: 30 });
        assert!(!guide.plain_case() && guide.adopts_plain_cases(), "the grower adopts");
    }

    /// The default guide, but that never says it will adopt the random phase's cases before it switches.
    struct Unnoted(AutoGuide);

    impl Guide for Unnoted {
        fn name(&self) -> &str {
            self.0.name()
        }
        fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
            self.0.begin_case(case)
        }
        fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
            self.0.choose(ctx, rng)
        }
        fn feedback(&mut self, feedback: &Feedback<'_>) {
            self.0.feedback(feedback)
        }
        fn plain_case(&self) -> bool {
            self.0.plain_case()
        }
        fn hears_plain_values(&self) -> bool {
            self.0.hears_plain_values()
        }
        fn plain_feedback(&mut self, feedback: &Feedback<'_>) {
            self.0.plain_feedback(feedback)
        }
        fn recycle(&mut self, tree: ChoiceTree) {
            self.0.recycle(tree)
        }
        fn uses_utility(&self) -> bool {
            self.0.uses_utility()
        }
        fn filters_retry(&self) -> bool {
            self.0.filters_retry()
        }
        fn records_failed_attempts(&self) -> bool {
            self.0.records_failed_attempts()
        }
        fn notes(&self) -> Vec<String> {
            self.0.notes()
        }
        fn adopt(&mut self, feedback: &Feedback<'_>) {
            self.0.adopt(feedback)
        }
        fn adopts_plain_cases(&self) -> bool {
            self.0.adopts_plain_cases()
        }
    }

    /// Once the random phase's failed attempts pass the bar, the guide says it will adopt the cases
    /// until the switch, and the runner notes their kept choices: the values tested and what the grower
    /// learns are the same as when it does not.
    #[test]
    fn noting_the_random_phases_choices_for_the_grower_changes_no_value() {
        let mut guide = AutoGuide::default();
        assert!(!guide.will_adopt_plain_cases(), "no failed attempt yet");
        (guide.cases, guide.failed) = (3, (Some(0), 19));
        assert!(!guide.will_adopt_plain_cases(), "19 failed attempts may not pass the bar by case 20");
        guide.failed.1 = 20;
        assert!(guide.will_adopt_plain_cases(), "20 do: the switch after case 20 is certain");
        guide.cases = 20;
        assert!(!guide.will_adopt_plain_cases(), "the switch is made as this case ends");
        (guide.cases, guide.switched) = (3, Some(Switch::Utility { case: 0 }));
        assert!(!guide.will_adopt_plain_cases(), "switched to a search on a utility");

        thread_local!(static TESTED: std::cell::RefCell<Vec<Vec<u8>>> = const { std::cell::RefCell::new(Vec::new()) });
        let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted());
        let p = Property::new(sorted, |xs: Vec<u8>| TESTED.with(|t| t.borrow_mut().push(xs)));
        // Without a time limit, the cases run on this thread.
        let config = || Config::new("noted").cases(300).seed(7).no_timeout();
        let noted = p.check(&config().guide(AutoGuide::default)).unwrap();
        let noted_values = TESTED.with(|t| t.take());
        let unnoted = p.check(&config().guide(|| Unnoted(AutoGuide::default()))).unwrap();
        let unnoted_values = TESTED.with(|t| t.take());
        assert!(noted.guide_notes[0].contains("to mutate after case #19"), "{:?}", noted.guide_notes);
        assert_eq!(noted.guide_notes, unnoted.guide_notes);
        assert_eq!(noted_values.len(), 300);
        assert_eq!(noted_values, unnoted_values);
    }

    /// Observed, the random phase's cases are recorded, and their valid values are handed over at the switch.
    #[test]
    fn observed_the_grower_adopts_the_recorded_values() {
        let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted());
        let p = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()));
        let path = std::env::temp_dir().join(format!("refgen-auto-observed-{}.jsonl", std::process::id()));
        let config = Config::new("sorted observed").cases(200).observability(&path).guide(AutoGuide::default);
        let report = p.check(&config).unwrap();
        let _ = std::fs::remove_file(&path);
        let adopted = report.guide_notes[1].rsplit(", ").next().unwrap();
        assert!(adopted.ends_with("adopted from before the switch"), "{:?}", report.guide_notes);
    }

    /// Sorted lists by filtering: random generation alone gives up, the automatic switch does not.
    #[test]
    fn switches_when_most_cases_are_discarded() {
        let sorted = || vec(int(0u8..=255), 0..=20).filter(|xs: &Vec<u8>| xs.is_sorted()).retries(0);
        let p = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()));
        let random = p.check(&Config::new("sorted").cases(500).guide(|| RandomGuide));
        assert!(random.is_err(), "random generation alone gives up");
        let report = p.check(&Config::new("sorted").cases(500).guide(AutoGuide::default)).unwrap();
        assert_eq!(report.cases, 500);
        assert!(report.guide_notes[0].contains("switched from random generation to rl"), "{:?}", report.guide_notes);
    }
}
