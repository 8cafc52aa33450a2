//! The default guide: random generation that switches itself to a utility search, RLCheck or mutation.
//!
//! Most properties are best served by plain random generation, and need no
//! choice of guide. Four kinds are not, and [`AutoGuide`] (a
//! [`Switching`] guide, see [`super::switch`]) notices each:
//!
//! - a state machine ([`crate::statem`]: a property that runs a
//!   `Commands` or `ParallelCommands` sequence) has bugs that need a deep
//!   model state, which random sequences rarely reach: from its first case,
//!   it shares the cases with a learner rewarded for sequences that reach new
//!   model states (`rl(explore = diverse)`; [`AutoGuide::explorer`] names
//!   another), which makes 15 of 16 ([`super::switch::STATE_SHARE`]) and
//!   starts afresh when a run of its cases reaches no new state
//!   ([`super::switch::EXPLORER_STALL`]); random generation keeps the others;
//! - a property that reports a utility (`maximize!`, `minimize!`,
//!   `target!`) asks for inputs of high utility, which random generation does
//!   not look for: at the first case that reports one, it shares the later
//!   cases with a search on the utility (simulated annealing, [`SaGuide`], by
//!   default): the search makes most of them while its best utility is at
//!   least what random generation reaches, half while it trails, and random
//!   generation keeps the rest for the whole run, so a utility adds a search
//!   and does not take away the cases that find failures without it
//!   ([`super::switch::MIN_SHARE`]);
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
//!   ([`MutateGuide`](super::MutateGuide) with half the work fresh, half its
//!   other cases grafted, see [`super::mutate`]): half the work stays random
//!   generation; the other half grows valid values from the valid parts seen,
//!   by splicing, grafting and rotating them. Mutation starts from the valid
//!   values random generation made before the switch (those of the first 20
//!   cases, made again from their seeds when it switches, or noted as they
//!   are made once the switch is certain). It waits for the first
//!   [`AutoConfig::min_cases`] cases even when their failed attempts pass the
//!   bar sooner: switching sooner helped some workloads and hurt others
//!   ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#auto-switch)).
//!
//! It switches once, to whichever comes first, and says so in the run's
//! statistics and in failure reports ([`Guide::report`]).
//! (After a switch to the learner, a utility has nowhere to go, and the
//! runner says so: name `guide = sa` for a search on the utility of such a
//! property.)
//!
//! Until it switches, its cases take the runner's fast path
//! ([`Choices::Plain`](crate::guide::Choices::Plain)): values made straight
//! from each case's seed, no trail kept; the switch needs only whether each
//! case was discarded, its utility, and its failed attempts, which its
//! feedback carries. The learner it switches to starts from the generator's
//! weights (see [`super::rl`]), so the first learned cases look like the
//! random ones before them.
//!
//! ```
//! use refgen::combinators::{int, vec};
//! use refgen::gen::Gen;
//! use refgen::{config::Config, guides::AutoGuide, maximize, runner::Property};
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
//! assert!(report.guide_notes[0].starts_with("auto: shares the cases with sa"));
//!
//! // Sorted lists, by a filter that retries: valid, but random sorted lists are short.
//! let sorted = || vec(int(0u8..=255), 0..=10).filter(|xs: &Vec<u8>| xs.is_sorted());
//! let report = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()))
//!     .check(&Config::new("sorted retried").cases(200).guide(AutoGuide::default))
//!     .unwrap();
//! assert!(report.guide_notes[0].starts_with("auto: switched from random generation to mutate"));
//! ```

use super::grow::{grower, DEFAULT_GROW, SWITCH_CASES, SWITCH_FAILED};
use super::switch::{Counted, Grower, Switching, When};
use super::{RandomGuide, RlConfig, RlGuide, SaGuide};
use crate::guide::Guide;

/// When an [`AutoGuide`] switches. `#[property(guide = auto)]` takes no keys: [`options`] gives the defaults.
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
        options::<()>()
    }
}

/// The kind of [`Switching`] guide the default guide is (see [`AutoGuide`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Auto;

/// Random generation until a case reports a utility, too many cases are discarded or the validity
/// condition retries too often, then a search on the utility, a learning guide or mutation (see the
/// module docs). `AutoGuide::default()` is the default guide of every property;
/// `#[property(guide = auto)]` names it.
pub type AutoGuide = Switching<Auto>;

impl Default for AutoGuide {
    fn default() -> Self {
        AutoGuide::new(AutoConfig::default(), RlGuide::default())
    }
}

impl AutoGuide {
    /// A guide that switches from random generation to `learner` when most
    /// cases are discarded, as `config` says, to simulated annealing
    /// ([`SaGuide::default`]) when a case reports a utility, and to mutation
    /// with splicing when the validity condition retries.
    pub fn new(config: AutoConfig, learner: impl Guide + 'static) -> Self {
        let when = When {
            min_cases: config.min_cases,
            discards: Some(config.discard_threshold),
            utility: true,
            states: true,
            failed_attempts: config.failed_attempts,
            counted: Counted::AfterFirst,
        };
        let grower = Grower::Replace(Box::new(grower(DEFAULT_GROW)));
        let mut guide = Switching::with("auto".to_owned(), Box::new(RandomGuide), when, grower);
        guide.learner = Some(Box::new(learner));
        guide.search = Some(Box::new(SaGuide::default()));
        guide.explorer(|| RlGuide::new(RlConfig::diverse()))
    }

    /// The same guide, sharing a state machine's cases with the guide `make` makes (instead of
    /// `rl(explore = diverse)`) from its first case on, made afresh after
    /// [`super::switch::EXPLORER_STALL`] of its cases in a row without a new model state.
    pub fn explorer<G: Guide + 'static>(mut self, make: impl Fn() -> G + 'static) -> Self {
        self.explorer = Some(Box::new(make()));
        self.fresh_explorer = Some(Box::new(move || Box::new(make())));
        self
    }

    /// The same guide, switching to `search` (instead of simulated
    /// annealing) when a case reports a utility.
    pub fn search(mut self, search: impl Guide + 'static) -> Self {
        self.search = Some(Box::new(search));
        self
    }

    /// The same guide, switching to `grower` (instead of mutation with splicing) when the validity
    /// condition makes many failed attempts (see [`AutoConfig::failed_attempts`]).
    pub fn grower(mut self, grower: impl Guide + 'static) -> Self {
        self.grower = Grower::Replace(Box::new(grower));
        self
    }
}

/// `#[property(guide = auto)]`'s options: none, the default guide (see [`super`]'s table); the same as
/// [`AutoConfig::default`].
pub const fn options<V>() -> AutoConfig {
    AutoConfig { min_cases: SWITCH_CASES, discard_threshold: 0.5, failed_attempts: SWITCH_FAILED }
}

super::option_keys!();

/// The names `auto`'s options may use: none.
pub mod names {}

impl<V> super::GuideOptions<V> for AutoConfig {
    type Guide = AutoGuide;
    fn into_guide(self, _property: super::ForProperty<V>) -> AutoGuide {
        AutoGuide::new(self, RlGuide::default())
    }
}

#[cfg(test)]
mod tests {
    use super::super::switch::Switch;
    use super::*;
    use crate::config::Config;
    use crate::guide::{CaseInfo, ChoiceContext, Choices, Feedback, GuideReport, Plan};
    use crate::runner::Property;
    use refgen_core::choice::{Choice, ChoiceTree};
    use refgen_core::combinators::{int, vec};
    use refgen_core::gen::Gen;
    use refgen_core::source::{DetRng, Stop};

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
        assert!(plan(&mut guide).is_plain(), "the random phase: the fast path");
        guide.switched = Some(Switch::Utility { case: 0 });
        assert_ne!(plan(&mut guide).choices, Choices::Adopt, "a search on the utility adopts nothing");
        guide.switched = Some(Switch::Validity { cases: 20, counted: 19, failed: 30 });
        assert_eq!(plan(&mut guide).choices, Choices::Adopt, "the grower adopts");
        assert!(!matches!(plan(&mut guide).choices, Choices::Adopt | Choices::Plain { .. }), "once, then it plans");
    }

    /// The plan `guide` gives for a case of a generator of `u8`s.
    fn plan(guide: &mut AutoGuide) -> Plan {
        let gen = int(0u8..=9);
        let handle = crate::guide::Erased(&gen);
        guide.begin_case(&CaseInfo { index: 0, budget: 100, gen: &handle })
    }

    /// Whether `guide`'s next plan notes the kept choices of its fast-path case, for adoption.
    fn notes_choices(guide: &mut AutoGuide) -> bool {
        matches!(plan(guide).choices, Choices::Plain { note: true, .. })
    }

    /// The default guide, but that never says it will adopt the random phase's cases before it switches.
    struct Unnoted(AutoGuide);

    impl Guide for Unnoted {
        fn name(&self) -> &str {
            self.0.name()
        }
        fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
            match self.0.begin_case(case) {
                Plan { choices: Choices::Plain { hear, .. }, retry, failed_attempts } => {
                    Plan { choices: Choices::Plain { hear, note: false }, retry, failed_attempts }
                }
                plan => plan,
            }
        }
        fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
            self.0.choose(ctx, rng)
        }
        fn feedback(&mut self, feedback: &Feedback<'_>) {
            self.0.feedback(feedback)
        }
        fn recycle(&mut self, tree: ChoiceTree) {
            self.0.recycle(tree)
        }
        fn report(&self) -> GuideReport {
            self.0.report()
        }
    }

    /// Once the random phase's failed attempts pass the bar, the guide says it will adopt the cases
    /// until the switch, and the runner notes their kept choices: the values tested and what the grower
    /// learns are the same as when it does not.
    #[test]
    fn noting_the_random_phases_choices_for_the_grower_changes_no_value() {
        let mut guide = AutoGuide::default();
        assert!(!notes_choices(&mut guide), "no failed attempt yet");
        (guide.cases, guide.failed) = (3, 19);
        assert!(!notes_choices(&mut guide), "19 failed attempts may not pass the bar by case 20");
        guide.failed = 20;
        assert!(notes_choices(&mut guide), "20 do: the switch after case 20 is certain");
        guide.cases = 20;
        assert!(!notes_choices(&mut guide), "the switch is made as this case ends");
        (guide.cases, guide.switched) = (3, Some(Switch::Utility { case: 0 }));
        assert!(!notes_choices(&mut guide), "switched to a search on a utility");

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
