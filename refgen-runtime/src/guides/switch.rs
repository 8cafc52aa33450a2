//! The switching combinator: a guide that starts as one guide and hands over to another once the run shows the need.
//!
//! One combinator serves the default guide ([`super::AutoGuide`]: random
//! generation first) and the learning guides' growing share
//! ([`super::Growing`]: `rl`, `cgs` or `sa` first). What it watches is data,
//! [`When`], and so is what it hands over to:
//!
//! - at the first case that reports a utility, to a search on it (the
//!   default guide: simulated annealing) for most of the cases while its
//!   best utility keeps up with the first guide's recent best, half while it
//!   trails ([`MIN_SHARE`]): the others stay the first guide's, so a utility
//!   adds a search and never takes away all the cases that would have found
//!   a failure without it;
//! - once at least [`When::min_cases`] cases have run and more than a share
//!   of them were discarded, to a learner (the default guide: `rl`);
//! - once the retrying filters (`#[assume]`, a retrying `filter`) make more
//!   than [`When::failed_attempts`] failed attempts per case counted, to
//!   mutation ([`Grower`]): mutation in place of the first guide, or
//!   mutation that makes its share of the work and lets the first guide make
//!   the rest ([`Grower::Share`]). Mutation starts from the valid new values
//!   of the first [`super::grow::SWITCH_CASES`] cases heard, and from the
//!   first fast-path cases that passed, made again for it
//!   ([`Choices::Adopt`]).
//!
//! It switches once, to whichever comes first, and says so in its report.
//! Every change to what the default guide does when plugs in here.

use super::grow::{Heard, DEFAULT_GROW};
use super::MutateGuide;
use crate::guide::{CaseInfo, ChoiceContext, Choices, Feedback, Guide, GuideReport, Origin, Outcome, Plan};
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::source::{DetRng, Stop};
use std::marker::PhantomData;

/// The least share of the cases each side makes once a [`Switching`] guide has switched to a search on a
/// utility. The search makes all but this share of the cases while its best utility is at least the
/// best of the first guide's last [`RECENT`] cases (for the default guide, fresh random cases), and half
/// of them while it trails: random generation keeps cases for the whole run, so a utility never takes
/// away the cases that would have found a failure without it, and a search that climbs past what random
/// generation reaches makes nearly all of them
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#targeting-beside-generation)).
pub const MIN_SHARE: f64 = 1.0 / 16.0;

/// How many of the first guide's latest utilities the search is measured against ([`MIN_SHARE`]).
pub const RECENT: usize = 64;

/// After this many of its cases in a row without a new model state, the explorer of a state machine's
/// cases ([`When::states`]) starts afresh (when it was given as a way to make one): a learner whose
/// policy settled where nothing new is reached starts again from the generator's weights.
pub const EXPLORER_STALL: u64 = 16;

/// The share of the cases the explorer makes once a [`Switching`] guide has switched on a state machine
/// ([`When::states`]); the first guide makes the others for the whole run.
pub const STATE_SHARE: f64 = 1.0 - MIN_SHARE;

/// When a [`Switching`] guide hands over.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct When {
    /// No switch on discards or failed attempts before this many cases have run.
    pub min_cases: u64,
    /// Switch to the learner once more than this share of the cases so far (`0..=1`) were discarded.
    pub discards: Option<f64>,
    /// Switch to the search at the first case that reports a utility.
    pub utility: bool,
    /// At the first case that runs a state machine's command sequence ([`Feedback::state_machine`]), share
    /// the cases with the explorer (the default guide: `rl(explore = diverse)`), rewarded for new model
    /// states ([`STATE_SHARE`]).
    pub states: bool,
    /// Switch to the grower once the failed attempts pass this many per case counted.
    pub failed_attempts: f64,
    /// Which cases the failed attempts are counted over.
    pub counted: Counted,
}

/// Which cases count toward [`When::failed_attempts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// Every case but the first (the default guide's switch).
    AfterFirst,
    /// The cases whose filters could retry ([`Feedback::failed_attempts`] is `Some`): a learning
    /// guide's edits replay without retries, and are left out.
    Retried,
}

/// What a [`Switching`] guide hands over to when the failed attempts pass the bar.
pub enum Grower {
    /// Nothing: failed attempts make no switch.
    None,
    /// This guide, in place of the first.
    Replace(Box<dyn Guide>),
    /// Mutation makes its share of the work (its fresh share left to the first guide, which goes on
    /// learning from its own cases).
    Share(Box<MutateGuide>),
}

impl Grower {
    /// The guide it hands over to, if any.
    fn guide(&self) -> Option<&dyn Guide> {
        match self {
            Grower::None => None,
            Grower::Replace(g) => Some(&**g),
            Grower::Share(g) => Some(&**g),
        }
    }

    fn guide_mut(&mut self) -> Option<&mut dyn Guide> {
        match self {
            Grower::None => None,
            Grower::Replace(g) => Some(&mut **g),
            Grower::Share(g) => Some(&mut **g),
        }
    }
}

/// Why a [`Switching`] guide switched, and when.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Switch {
    /// To the learner: `discards` of the first `cases` cases were discarded.
    Discards { cases: u64, discards: u64 },
    /// To the search: case `case` (from 0) reported a utility.
    Utility { case: u64 },
    /// To the learner, sharing: case `case` (from 0) ran a state machine.
    States { case: u64 },
    /// To the grower: `failed` failed attempts in `counted` cases counted, of the first `cases`.
    Validity { cases: u64, counted: u64, failed: u64 },
}

/// A guide that starts as one guide and hands over once, as [`When`] says; see the module docs.
/// `K` only names the kind ([`super::AutoGuide`] or [`super::Growing`]) for its constructors.
pub struct Switching<K> {
    pub(super) name: String,
    pub(super) first: Box<dyn Guide>,
    pub(super) when: When,
    pub(super) learner: Option<Box<dyn Guide>>,
    pub(super) search: Option<Box<dyn Guide>>,
    /// What a state machine's cases are shared with ([`When::states`]), and how to make it afresh.
    pub(super) explorer: Option<Box<dyn Guide>>,
    pub(super) fresh_explorer: Option<Box<dyn Fn() -> Box<dyn Guide>>>,
    /// The explorer's cases in a row without a new model state, and how many times it started afresh.
    explorer_stall: u64,
    explorer_restarts: u64,
    pub(super) grower: Grower,
    /// The share of the work a sharing grower makes ([`Grower::Share`]).
    pub(super) share: f64,
    /// Cases heard, discarded, counted toward the failed attempts, and their failed attempts.
    pub(super) cases: u64,
    discards: u64,
    counted: u64,
    pub(super) failed: u64,
    /// The valid new values of the first cases, for the grower when the guide switches to it.
    first_values: Heard,
    pub(super) switched: Option<Switch>,
    /// Whether the grower has asked for the fast-path cases made before the switch.
    adopted: bool,
    /// After a switch to [`Grower::Share`] or to the search: whether the case under way is the first guide's.
    first_case: bool,
    /// After a switch to the search: the cases made since, how many of them the search made, and the
    /// best utility the search's cases reported.
    since_switch: u64,
    searched: u64,
    best_search: Option<f64>,
    /// The utilities of the first guide's last [`RECENT`] cases that reported one.
    recent_first: std::collections::VecDeque<f64>,
    kind: PhantomData<K>,
}

impl<K> std::fmt::Debug for Switching<K> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Switching")
            .field("name", &self.name)
            .field("first", &self.first.name())
            .field("when", &self.when)
            .field("switched", &self.switched)
            .finish_non_exhaustive()
    }
}

impl<K> Switching<K> {
    /// A guide named `name` that starts as `first` and hands over as `when` says, to `grower` (or, when
    /// they are given, the `learner` on discards and the `search` on a utility).
    pub(super) fn with(name: String, first: Box<dyn Guide>, when: When, grower: Grower) -> Self {
        Switching {
            name,
            first,
            when,
            learner: None,
            search: None,
            explorer: None,
            fresh_explorer: None,
            explorer_stall: 0,
            explorer_restarts: 0,
            grower,
            share: 0.0,
            cases: 0,
            discards: 0,
            counted: 0,
            failed: 0,
            first_values: Heard::default(),
            switched: None,
            adopted: false,
            first_case: true,
            since_switch: 0,
            searched: 0,
            best_search: None,
            recent_first: std::collections::VecDeque::new(),
            kind: PhantomData,
        }
    }

    /// Whether the guide has switched.
    pub fn switched(&self) -> bool {
        self.switched.is_some()
    }

    /// Whether `failed` failed attempts over `counted` cases pass the bar of the switch to the grower.
    fn over_bar(&self, failed: u64, counted: u64) -> bool {
        failed as f64 > self.when.failed_attempts * counted as f64
    }

    /// The most cases that can count toward the failed attempts by case [`When::min_cases`].
    fn counted_by_min_cases(&self) -> u64 {
        match self.when.counted {
            Counted::AfterFirst => self.when.min_cases.saturating_sub(1),
            Counted::Retried => self.when.min_cases,
        }
    }

    /// A case heard before the switch: counted, and the switch made when it is due.
    fn count(&mut self, feedback: &Feedback<'_>) {
        self.cases += 1;
        let discarded = feedback.outcome == Outcome::Discarded;
        self.discards += u64::from(discarded);
        self.first_values.hear(feedback);
        if self.when.utility && self.search.is_some() && feedback.utility.is_some() {
            self.switched = Some(Switch::Utility { case: self.cases - 1 });
            return;
        }
        if self.when.states && self.explorer.is_some() && feedback.state_machine {
            self.switched = Some(Switch::States { case: self.cases - 1 });
            return;
        }
        let counts = match self.when.counted {
            Counted::AfterFirst => self.cases > 1,
            Counted::Retried => feedback.failed_attempts.is_some(),
        };
        if counts {
            self.counted += 1;
            self.failed += feedback.failed_attempts.unwrap_or(0);
        }
        let grows = !matches!(self.grower, Grower::None);
        if grows && self.cases >= self.when.min_cases && self.over_bar(self.failed, self.counted) {
            let (cases, counted, failed) = (self.cases, self.counted, self.failed);
            self.switched = Some(Switch::Validity { cases, counted, failed });
            if let Some(g) = self.grower.guide_mut() {
                self.first_values.hand_to(g);
            }
            return;
        }
        let Some(threshold) = self.when.discards.filter(|_| self.learner.is_some()) else { return };
        // The share of discards rises only with a discard: past the first `min_cases` cases, a case that
        // was not discarded cannot make the switch.
        if !(discarded || self.cases <= self.when.min_cases.max(1)) {
            return;
        }
        let share = self.discards as f64 / self.cases as f64;
        if self.cases >= self.when.min_cases && share > threshold {
            self.switched = Some(Switch::Discards { cases: self.cases, discards: self.discards });
        }
    }

    /// A utility reported by a case of the first guide: one of the last [`RECENT`].
    fn hear_first_utility(&mut self, u: f64) {
        if self.recent_first.len() == RECENT {
            self.recent_first.pop_front();
        }
        self.recent_first.push_back(u);
    }

    /// The guide making the case under way.
    fn active(&mut self) -> &mut dyn Guide {
        match (self.switched, &mut self.grower) {
            (Some(Switch::Discards { .. }), _) => self.learner.as_deref_mut().expect("a learner"),
            (Some(Switch::Utility { .. }), _) if !self.first_case => self.search.as_deref_mut().expect("a search"),
            (Some(Switch::States { .. }), _) if !self.first_case => self.explorer.as_deref_mut().expect("an explorer"),
            (Some(Switch::Validity { .. }), Grower::Replace(g)) => &mut **g,
            (Some(Switch::Validity { .. }), Grower::Share(g)) if !self.first_case => &mut **g,
            _ => &mut *self.first,
        }
    }

    /// The guide that makes cases now, but for the first guide beside a sharing grower.
    fn successor(&self) -> Option<&dyn Guide> {
        match (self.switched?, &self.grower) {
            (Switch::Discards { .. }, _) => self.learner.as_deref(),
            (Switch::States { .. }, _) => self.explorer.as_deref(),
            (Switch::Utility { .. }, _) => self.search.as_deref(),
            (Switch::Validity { .. }, grower) => grower.guide(),
        }
    }

    /// What the switch note says.
    fn switch_note(&self, switch: Switch, to: &str) -> String {
        let first = self.first.name();
        match (switch, &self.grower) {
            (Switch::Validity { cases, counted, failed }, Grower::Share(_)) => format!(
                "{first}: grows valid values by mutation with splicing and grafting in {:.0}% of the work, from \
                 case #{cases} on, when the validity condition had rejected {failed} attempts in {counted} cases \
                 that retried",
                100.0 * self.share,
            ),
            (Switch::Validity { cases, failed, .. }, _) => format!(
                "{}: switched from random generation to {to} after case #{}, when the validity condition had \
                 rejected {failed} attempts in {cases} cases: mutation with splicing grows valid values from valid parts",
                self.name,
                cases - 1,
            ),
            (Switch::Discards { cases, discards }, _) => format!(
                "{}: switched from random generation to {to} after case #{}, when {discards} of {cases} cases had been discarded",
                self.name,
                cases - 1,
            ),
            (Switch::States { case }, _) => format!(
                "{}: shares the cases with {to} after case #{case}, the first to run a state machine, {to} rewarded \
                 for sequences that reach new model states; {to} made {} of the {} cases since, {first} the others; \
                 {to} started afresh {} times after {EXPLORER_STALL} of its cases without a new model state",
                self.name,
                self.searched,
                self.since_switch,
                self.explorer_restarts,
            ),
            (Switch::Utility { case }, _) => format!(
                "{}: shares the cases with {to} after case #{case}, the first to report a utility (`maximize!`, \
                 `minimize!`, `target!`), to search for higher utility; {to} made {} of the {} cases since, {first} \
                 the others",
                self.name,
                self.searched,
                self.since_switch,
            ),
        }
    }
}

impl<K> Guide for Switching<K> {
    fn name(&self) -> &str {
        &self.name
    }

    /// Before the switch, the first guide's plan; a fast-path plan keeps its kept choices only, and, once
    /// the failed attempts make the switch to the grower after case [`When::min_cases`] certain (the
    /// count only grows), notes them for it. After that switch, the grower first adopts the fast-path
    /// cases made before it; a sharing grower then plans, and leaves its fresh cases to the first guide.
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        match self.switched {
            None => {
                let mut plan = self.first.begin_case(case);
                if let Choices::Plain { note, .. } = &mut plan.choices {
                    let grows = !matches!(self.grower, Grower::None);
                    *note |= grows
                        && self.cases < self.when.min_cases
                        && self.over_bar(self.failed, self.counted_by_min_cases());
                    plan.failed_attempts = false;
                }
                plan
            }
            Some(Switch::Validity { .. }) if !self.adopted => {
                self.adopted = true;
                Plan::new(Choices::Adopt)
            }
            Some(Switch::Validity { .. }) => match &mut self.grower {
                Grower::Share(grower) => {
                    let plan = grower.plan_recorded(case);
                    self.first_case = grower.fresh_planned();
                    if self.first_case {
                        self.first.begin_case(case)
                    } else {
                        plan
                    }
                }
                _ => self.active().begin_case(case),
            },
            Some(Switch::Utility { .. }) => {
                // The search makes its share of the cases, the first guide the others, interleaved.
                self.since_switch += 1;
                let recent = self.recent_first.iter().copied().reduce(f64::max);
                let share = match (self.best_search, recent) {
                    (Some(search), Some(first)) if search >= first => 1.0 - MIN_SHARE,
                    _ => 0.5,
                };
                self.first_case = self.searched as f64 >= share * self.since_switch as f64;
                self.searched += u64::from(!self.first_case);
                self.active().begin_case(case)
            }
            Some(Switch::States { .. }) => {
                // The learner makes its share of the cases, the first guide the others, interleaved.
                self.since_switch += 1;
                self.first_case = self.searched as f64 >= STATE_SHARE * self.since_switch as f64;
                self.searched += u64::from(!self.first_case);
                self.active().begin_case(case)
            }
            Some(_) => self.active().begin_case(case),
        }
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        self.active().choose(ctx, rng)
    }

    /// A case made before the switch for the grower goes to it. Before the switch a case is heard by
    /// the first guide and counted; after it, by the guide that made it, and by a sharing grower.
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        if feedback.origin == Origin::Adopted {
            if let (Some(Switch::Validity { .. }), Some(g)) = (self.switched, self.grower.guide_mut()) {
                g.feedback(feedback);
            }
            return;
        }
        if self.switched.is_none() {
            self.first.feedback(feedback);
            if let Some(u) = feedback.utility {
                self.hear_first_utility(u);
            }
            return self.count(feedback);
        }
        if let (Some(Switch::Utility { .. }), Some(u)) = (self.switched, feedback.utility) {
            match self.first_case {
                true => self.hear_first_utility(u),
                false => self.best_search = Some(self.best_search.map_or(u, |b| b.max(u))),
            }
        }
        if let (Some(Switch::States { .. }), false) = (self.switched, self.first_case) {
            self.explorer_stall = if feedback.new { 0 } else { self.explorer_stall + 1 };
            if self.explorer_stall >= EXPLORER_STALL {
                if let Some(make) = &self.fresh_explorer {
                    self.explorer = Some(make());
                    self.explorer_stall = 0;
                    self.explorer_restarts += 1;
                    return;
                }
            }
        }
        match &mut self.grower {
            Grower::Share(g) if matches!(self.switched, Some(Switch::Validity { .. })) => {
                if self.first_case {
                    self.first.feedback(feedback);
                }
                g.feedback(feedback);
            }
            _ => self.active().feedback(feedback),
        }
    }

    fn recycle(&mut self, tree: ChoiceTree) {
        self.active().recycle(tree);
    }

    /// Why it switched, then what the guides making cases say: the first guide until the switch (and
    /// beside a sharing grower), then the one it switched to. A utility is searched on while a switch to
    /// the search may come, after it, and where the guides making cases do.
    fn report(&self) -> GuideReport {
        let first = self.first.report();
        let Some(switch) = self.switched else {
            return GuideReport { uses_utility: self.when.utility || first.uses_utility, ..first };
        };
        let next = self.successor();
        let mut notes = vec![self.switch_note(switch, next.map_or("", |g| g.name()))];
        let next = next.map(|g| g.report()).unwrap_or_default();
        if let (Switch::Validity { .. }, Grower::Share(_)) = (switch, &self.grower) {
            notes.extend(first.notes);
            notes.extend(next.notes);
            return GuideReport { notes, ..first };
        }
        notes.extend(next.notes);
        let uses_utility = matches!(switch, Switch::Utility { .. }) || next.uses_utility;
        GuideReport { notes, section: next.section, uses_utility }
    }
}

/// `name` with `grow = P` among its options when `share` is not the default.
pub(super) fn option_name(name: &str, share: f64) -> String {
    if share == DEFAULT_GROW {
        return name.to_owned();
    }
    match name.strip_suffix(')') {
        Some(open) => format!("{open}, grow = {share})"),
        None => format!("{name}(grow = {share})"),
    }
}
