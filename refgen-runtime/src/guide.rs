//! The guide interface: how every strategy steers a generator's choices.
//!
//! A guide has five methods to write (and a sixth, [`Guide::recycle`], to
//! save allocations). A case under a guide goes like this:
//!
//! 1. [`Guide::begin_case`] returns a [`Plan`], which is data: where the
//!    choices come from ([`Choices`]: the fast path of plain random
//!    generation, generate fresh with the guide answering, replay a
//!    (possibly edited) choice tree leniently with the guide answering the
//!    gaps, or first adopt the cases made before the guide took over),
//!    whether the case's retrying filters may retry, and whether its trail
//!    keeps their failed attempts;
//! 2. the generator runs; at every choice point the plan has no usable
//!    answer for, [`Guide::choose`] is asked, seeing a [`ChoiceContext`]: the
//!    choice point, its request, what the plan held there ([`Cue`]), the
//!    case's [`Trail`] (open nodes from the root, closed children at each
//!    level, the prefix of choices), the run's budget and a type-erased
//!    handle on the generator ([`GenHandle`]) for guides that run it on
//!    their own sources; `choose` may stop the case;
//! 3. the property runs, and [`Guide::feedback`] hears how the case went
//!    ([`Feedback`]: where the case came from, its failed attempts, passed,
//!    failed or discarded, new or not, the utility, and the trail, which
//!    becomes the case's choice tree);
//! 4. when the run ends, [`Guide::report`] says what the guide did.
//!
//! [`GuidedSource`] turns a guide and a plan into the [`Source`] a generator
//! runs against; it keeps the one trail of the case.
//!
//! A guide of its own, in a few lines: mutate the last valid input with one
//! of the shared choice-tree edits ([`refgen_core::edit`]), and answer the
//! gaps the edit leaves at random.
//!
//! ```
//! use refgen::choice::{Choice, ChoiceTree};
//! use refgen::combinators::{int, vec};
//! use refgen::edit::random_edit;
//! use refgen::source::{rng_from_seed, sample, DetRng, Stop};
//! use refgen::config::Config;
//! use refgen::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Plan};
//! use refgen::runner::Property;
//!
//! #[derive(Default)]
//! struct Mutate { last: Option<ChoiceTree> }
//!
//! impl Guide for Mutate {
//!     fn name(&self) -> &str { "mutate" }
//!     fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
//!         let Some(last) = &self.last else { return Plan::fresh() };
//!         let edit = random_edit(last, &mut rng_from_seed(case.index));
//!         edit.and_then(|e| e.apply(last)).map_or(Plan::fresh(), Plan::replay)
//!     }
//!     fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
//!         Ok(sample(rng, ctx.request))
//!     }
//!     fn feedback(&mut self, feedback: &Feedback<'_>) {
//!         if feedback.valid { self.last = Some(feedback.tree()) }
//!     }
//! }
//!
//! let p = Property::new(|| vec(int(0u8..=9), 0..=5), |xs: Vec<u8>| xs.len() <= 5);
//! let report = p.check(&Config::new("mutate").cases(100).guide(Mutate::default)).unwrap();
//! assert_eq!((report.cases, report.guide.as_str()), (100, "mutate"));
//! ```

use crate::hashing::value_key;
use refgen_core::choice::{Choice, ChoiceTree, Request, Site};
use refgen_core::combinators::failed_attempts;
use refgen_core::gen::Gen;
use refgen_core::interpret::replay::{Cue, Cursor};
use refgen_core::interpret::reroll_choice;
use refgen_core::source::{sample, DetRng, Source, Stop};
use refgen_core::trail::{Node, Trail};
use std::fmt::Debug;

/// How a guide wants the next case made, returned by [`Guide::begin_case`]:
/// where its choices come from, and how its retrying filters behave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Where the case's choices come from.
    pub choices: Choices,
    /// Whether the case's retrying filters (`#[assume]`, [`Gen::filter`])
    /// may make a failing part again ([`Source::filters_retry`]); `true`
    /// unless the plan says [`Plan::without_retries`]. A guide that replays
    /// an edited tree may say no, so that an edit that breaks validity
    /// rejects the case instead of being made again away.
    pub retry: bool,
    /// Whether the case's trail keeps the failed attempts of its retrying
    /// filters (as [`RETRY`](refgen_core::choice::RETRY) groups), for
    /// [`Guide::choose`] and [`Guide::feedback`] to read; `true` unless the
    /// plan says [`Plan::kept_choices_only`]. A guide that reads only the
    /// kept choices skips the cost of recording what it drops (see
    /// [`Trail::forget_failed_attempts`]); the value is the same either way.
    pub failed_attempts: bool,
}

/// Where a case's choices come from ([`Plan::choices`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choices {
    /// Generate afresh: the guide answers every choice ([`Guide::choose`]).
    Fresh,
    /// Replay this choice tree leniently (Goldstein's `MutGen`): a choice
    /// the generator can make is kept; the guide answers where the tree
    /// runs out, no longer matches, holds an unfit choice or a reroll mark.
    Replay(ChoiceTree),
    /// The fast path: every choice as [`sample`] makes it from the case's
    /// RNG, the guide never asked. The runner makes such a case with
    /// [`Gen::run_rng`] (no trail), runs such cases back to back, and
    /// records a case's choice tree only if it fails, by making it again
    /// from its seed. Its [`Feedback`] has [`Origin::Plain`].
    Plain {
        /// Whether the guide hears the case's value: then its feedback has
        /// the value's key and whether it is new, and, when it passed with a
        /// new value or failed, its kept choices (made again from its seed
        /// under a recorder, the failed attempts of its retrying filters
        /// left out). A guide that keeps the new values it makes (a corpus)
        /// so pays for a recording only for them. Otherwise the feedback has
        /// an empty trail, no key, and `new` false.
        hear: bool,
        /// Whether the guide will adopt the case ([`Choices::Adopt`]) if it
        /// passes: the runner then makes it noting its kept choices (the
        /// same draws, a little dearer), so that adopting it need not make it
        /// again through its failed attempts.
        note: bool,
    },
    /// No case yet: first hand the guide the run's first fast-path cases that
    /// passed (at most [`PLAIN_CASES_KEPT`]), each made again from its seed
    /// under a recorder (its kept choices), as feedback of
    /// [`Origin::Adopted`], in the order they were made; then ask for the
    /// plan again. A guide that switches away from the fast path (the
    /// default guide) so starts from the values made before its switch, and
    /// a run that never switches pays nothing. The runner keeps those cases
    /// only until the first case off the fast path: a plan of `Adopt` later
    /// hands nothing, and a second `Adopt` in a row is taken as `Fresh`.
    Adopt,
}

impl Plan {
    /// Generate afresh, the guide answering every choice.
    pub const fn fresh() -> Plan {
        Plan::new(Choices::Fresh)
    }

    /// Replay `tree` leniently, the guide answering the gaps.
    pub const fn replay(tree: ChoiceTree) -> Plan {
        Plan::new(Choices::Replay(tree))
    }

    /// The fast path, the guide hearing no value ([`Choices::Plain`]).
    pub const fn plain() -> Plan {
        Plan::new(Choices::Plain { hear: false, note: false })
    }

    /// The case is made as `choices` says; its filters retry and its trail keeps the failed attempts.
    pub const fn new(choices: Choices) -> Plan {
        Plan { choices, retry: true, failed_attempts: true }
    }

    /// The same plan with no retry: a failing filter rejects the case ([`Plan::retry`]).
    pub fn without_retries(self) -> Plan {
        Plan { retry: false, ..self }
    }

    /// The same plan, its trail keeping the kept choices only ([`Plan::failed_attempts`]).
    pub fn kept_choices_only(self) -> Plan {
        Plan { failed_attempts: false, ..self }
    }

    /// Whether the case takes the fast path ([`Choices::Plain`]).
    pub fn is_plain(&self) -> bool {
        matches!(self.choices, Choices::Plain { .. })
    }
}

impl Default for Plan {
    fn default() -> Self {
        Plan::fresh()
    }
}

/// A generator with its value type erased, so a guide can run it on its own sources.
///
/// Each run through the handle is a run of the generator like a case's:
/// [`crate::explore::generate_distinct`] counts it against its budget (and
/// refuses it with [`Stop::Halt`] once the budget is spent). Under a
/// property, such a run is not a case: its value is not tested. A guide
/// whose samples should be tested, as [`crate::guides::CgsGuide`]'s are,
/// makes each sample a case instead.
pub trait GenHandle {
    /// Run the generator once against `src`: the key of the value made
    /// ([`crate::hashing::value_key`], equal for values with the same
    /// `Debug`), or why there is none ([`Stop::Invalid`] when its validity
    /// condition rejected it).
    fn run_key(&self, src: &mut dyn Source) -> Result<u64, Stop>;
}

/// A [`GenHandle`] for any generator whose values are `Debug`.
#[derive(Debug, Clone, Copy)]
pub struct Erased<'g, G: ?Sized>(pub &'g G);

impl<G: Gen + ?Sized> GenHandle for Erased<'_, G>
where
    G::Value: Debug,
{
    fn run_key(&self, src: &mut dyn Source) -> Result<u64, Stop> {
        self.0.run(src).map(|v| value_key(&v))
    }
}

/// What a guide knows about the run when a case begins and at every choice.
#[derive(Clone, Copy)]
pub struct CaseInfo<'a> {
    /// The number of this case among the run's guided cases, from 0.
    pub index: u64,
    /// The number of valid cases the run wants (its budget of cases).
    pub budget: u64,
    /// The generator of the run.
    pub gen: &'a dyn GenHandle,
}

impl Debug for CaseInfo<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CaseInfo").field("index", &self.index).field("budget", &self.budget).finish_non_exhaustive()
    }
}

/// What a guide sees when asked for a choice.
#[derive(Clone, Copy)]
pub struct ChoiceContext<'a> {
    /// The choice point asking.
    pub site: Site,
    /// What it asks.
    pub request: Request<'a>,
    /// What the plan held here ([`Cue::Missing`] when generating fresh).
    pub cue: Cue,
    /// The case so far: every node made, open and closed (see [`Trail`]).
    pub trail: &'a Trail,
    /// The run: budget and generator.
    pub case: CaseInfo<'a>,
}

impl Debug for ChoiceContext<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChoiceContext")
            .field("site", &self.site)
            .field("request", &self.request)
            .field("cue", &self.cue)
            .field("index", &self.index())
            .finish_non_exhaustive()
    }
}

impl<'a> ChoiceContext<'a> {
    /// The open choice points and parts from the root down to (not
    /// including) this choice point; the root group itself is left out.
    pub fn path(&self) -> impl DoubleEndedIterator<Item = &'a Node> + 'a {
        let trail = self.trail;
        trail.open_nodes()[1..].iter().map(move |&id| trail.node(id))
    }

    /// The position this choice will take among its parent's children.
    pub fn index(&self) -> usize {
        self.trail.next_index()
    }

    /// The closed children of the `depth`-th open node (0 is the root), first to last.
    pub fn siblings(&self, depth: usize) -> Vec<&'a Node> {
        let trail = self.trail;
        match trail.open_nodes().get(depth) {
            Some(&id) => trail.children(id).map(|c| trail.node(c)).filter(|n| !n.is_open()).collect(),
            None => Vec::new(),
        }
    }

    /// The choices made so far in this case, in order: the prefix a
    /// derivative of the generator is taken by.
    pub fn prefix(&self) -> Vec<Choice> {
        self.trail.choices()
    }
}

/// How a case ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The property held.
    Passed,
    /// The property failed (or the generator panicked).
    Failed,
    /// The input was invalid: the generator's validity condition, `assume!`,
    /// or a generator that gave no value.
    Discarded,
}

/// Where a case the guide hears of came from ([`Feedback::origin`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Origin {
    /// The guide's own plan made it ([`Choices::Fresh`] or [`Choices::Replay`]).
    Planned,
    /// The fast path made it ([`Choices::Plain`]): what the feedback holds
    /// is what [`Choices::Plain::hear`] asked for.
    Plain,
    /// The runner made it and replayed it through the guide: an explicit
    /// example, a remembered failure, or random generation once the guide's
    /// edits have been rejected too often.
    Unplanned,
    /// Made before the guide asked for it ([`Choices::Adopt`]): the guide may
    /// learn from it as from a case of its own, without counting it as one.
    Adopted,
}

/// How a case went, told to the guide when it ends.
#[derive(Debug, Clone, Copy)]
pub struct Feedback<'a> {
    /// Where the case came from.
    pub origin: Origin,
    /// How many attempts the case's retrying filters rejected and made
    /// again, from its plan to its end (the runs a guide made through the
    /// generator's handle in that time included); `None` when no filter of
    /// the case could retry. A fast-path case's filters always can: it has
    /// `Some`, `Some(0)` when it met no filter.
    pub failed_attempts: Option<u64>,
    /// How the case ended.
    pub outcome: Outcome,
    /// The input passed its validity condition (`#[assume]`, `assume!`,
    /// filters): the outcome is not [`Outcome::Discarded`].
    pub valid: bool,
    /// The value had not been generated before in this run (same `Debug`;
    /// see [`crate::hashing::Seen`]).
    pub new: bool,
    /// The utility the property reported, if any (for targeted search).
    pub utility: Option<f64>,
    /// The key of the value the case made (see [`crate::hashing::value_key`]),
    /// equal for values with the same `Debug`; `None` when it made none.
    pub key: Option<u64>,
    /// The case's choices as made (see [`Feedback::tree`]).
    pub trail: &'a Trail,
    /// The case ran a state machine's command sequence ([`crate::statem`]): its
    /// `key` and `new` are of the model state the sequence reached, so a guide
    /// rewarded for new values is rewarded for new model states.
    pub state_machine: bool,
}

impl Feedback<'_> {
    /// The case's choice tree, the one a replay of it would follow.
    pub fn tree(&self) -> ChoiceTree {
        self.trail.to_tree()
    }
}

/// How many of a run's first fast-path cases that passed are kept, by their
/// seeds, for a guide that adopts them ([`Choices::Adopt`]): as many as the
/// cases the default guide watches before it may switch.
pub const PLAIN_CASES_KEPT: usize = 20;

/// A strategy that answers a generator's choices.
///
/// What a guide wants of a case is data: its [`Plan`] (where the choices
/// come from, whether filters retry, what the trail keeps), and what it
/// hears is data too, in its [`Feedback`] (where the case came from, its
/// failed attempts).
pub trait Guide {
    /// The guide's name, for reports.
    fn name(&self) -> &str;

    /// A new case begins: how to make it (the default generates fresh).
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        let _ = case;
        Plan::fresh()
    }

    /// Answer one choice the plan has no usable answer for. `rng` is the
    /// case's seeded RNG, for guides that randomise. An answer the request
    /// does not accept is replaced by a weighted random one;
    /// `Err(Stop::Halt)` stops the case (it gets no value and is discarded).
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop>;

    /// A case ended, and went as `feedback` says.
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        let _ = feedback;
    }

    /// The tree of the case that just ran ([`Choices::Replay`]), handed back
    /// once the case is made: a guide that copies trees to make its plans
    /// may keep it and copy the next one into it
    /// ([`ChoiceTree::clone_from`](Clone::clone_from) reuses the lists of
    /// children it has), so that a plan costs no allocation where its
    /// shape is the last one's. Dropped by default.
    fn recycle(&mut self, tree: ChoiceTree) {
        drop(tree);
    }

    /// What the guide has to say about the run so far (nothing by default).
    fn report(&self) -> GuideReport {
        GuideReport::default()
    }
}

/// What a guide says about its run ([`Guide::report`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GuideReport {
    /// Its statistics and its failures, one line each, for the run's report.
    pub notes: Vec<String>,
    /// A section of its own for the HTML report of the run ([`crate::html`]):
    /// a learning guide's reward curve, say.
    pub section: Option<ReportSection>,
    /// Whether it searches on the utility a property reports (`maximize!`,
    /// `minimize!`, `target!`): moves toward inputs of higher utility. When
    /// it does not and the property reports one, the runner says once that
    /// the utility has nowhere to go.
    pub uses_utility: bool,
}

/// What a guide adds to the HTML report of a run ([`GuideReport::section`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReportSection {
    /// The section's heading.
    pub title: String,
    /// Paragraphs of text, shown in order.
    pub lines: Vec<String>,
    /// Curves drawn as line charts: each a name and its points, one per step
    /// (a case, a window of cases, a search step: the name says which).
    pub curves: Vec<(String, Vec<f64>)>,
}

impl<G: Guide + ?Sized> Guide for Box<G> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        (**self).begin_case(case)
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        (**self).choose(ctx, rng)
    }
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        (**self).feedback(feedback)
    }
    fn recycle(&mut self, tree: ChoiceTree) {
        (**self).recycle(tree)
    }
    fn report(&self) -> GuideReport {
        (**self).report()
    }
}

/// A [`Source`] that answers from a plan and asks a [`Guide`] at the gaps,
/// keeping the case's [`Trail`].
pub struct GuidedSource<'g, 't, G: ?Sized> {
    guide: &'g mut G,
    trail: &'g mut Trail,
    cursor: Cursor<'t>,
    case: CaseInfo<'g>,
    rng: &'g mut DetRng,
    /// The plan's [`Plan::retry`].
    retry: bool,
    /// Whether the guide is asked at the gaps (not on the fast path's plan).
    asks: bool,
    /// Whether a filter of the case asked whether it may retry, and was told yes.
    retried: std::cell::Cell<bool>,
}

impl<'g, 't, G: Guide + ?Sized> GuidedSource<'g, 't, G> {
    /// A source for one case: replays `plan` (when it is [`Choices::Replay`])
    /// and asks `guide` at the gaps (a [`Choices::Plain`] plan samples them,
    /// as the fast path does), recording into `trail` (cleared first); the
    /// guide's randomness comes from `rng`.
    pub fn new(
        guide: &'g mut G,
        trail: &'g mut Trail,
        plan: &'t Plan,
        case: CaseInfo<'g>,
        rng: &'g mut DetRng,
    ) -> Self {
        trail.clear();
        trail.forget_failed_attempts(!plan.failed_attempts);
        let cursor = match &plan.choices {
            Choices::Replay(tree) => Cursor::new(tree),
            _ => Cursor::empty(),
        };
        let asks = !plan.is_plain();
        GuidedSource { guide, trail, cursor, case, rng, retry: plan.retry, asks, retried: Default::default() }
    }

    /// The trail of the case so far.
    pub fn trail(&self) -> &Trail {
        self.trail
    }

    /// Whether a filter of the case asked whether it may retry, and was told yes.
    pub fn retried(&self) -> bool {
        self.retried.get()
    }
}

impl<G: Guide + ?Sized> Source for GuidedSource<'_, '_, G> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let cue = self.cursor.choose(site, request);
        let c = match cue {
            Cue::Keep(c) => c,
            Cue::Raise => request.largest(),
            _ if !self.asks => sample(self.rng, request),
            _ => {
                let ctx = ChoiceContext { site, request, cue, trail: self.trail, case: self.case };
                let mut c = self.guide.choose(&ctx, self.rng)?;
                if !request.accepts(c) {
                    c = sample(self.rng, request);
                }
                if let Cue::Reroll(old) = cue {
                    if c == old {
                        c = reroll_choice(self.rng, request, old);
                    }
                }
                c
            }
        };
        self.trail.open_choice(site, request, c);
        Ok(c)
    }
    fn enter(&mut self, site: Site) {
        self.cursor.enter(site);
        self.trail.open_part(site);
    }
    fn leave(&mut self) {
        self.cursor.leave();
        self.trail.close();
    }
    fn begin_attempt(&mut self) {
        self.cursor.begin_attempt();
        self.trail.begin_attempt();
    }
    fn end_attempt(&mut self, kept: bool) {
        self.cursor.end_attempt(kept);
        self.trail.end_attempt(kept);
    }
    fn filters_retry(&self) -> bool {
        if self.retry {
            self.retried.set(true);
        }
        self.retry
    }
}

/// The plan `guide` gives for the case `case`; a plan of [`Choices::Adopt`]
/// first calls `adopt` to hand it the cases it asks for, then asks again (a
/// second `Adopt` is taken as [`Choices::Fresh`]).
pub fn plan_case<G: Guide + ?Sized>(guide: &mut G, case: &CaseInfo<'_>, adopt: impl FnOnce(&mut G)) -> Plan {
    let plan = guide.begin_case(case);
    if !matches!(plan.choices, Choices::Adopt) {
        return plan;
    }
    adopt(guide);
    match guide.begin_case(case) {
        Plan { choices: Choices::Adopt, .. } => Plan::fresh(),
        plan => plan,
    }
}

/// One case made by [`run_guided`]: its value, and what its [`Feedback`] needs of how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct GuidedRun<V> {
    /// The value made, or why there is none.
    pub value: Result<V, Stop>,
    /// [`Origin::Plain`] when the guide planned the fast path (its choices sampled), else [`Origin::Planned`].
    pub origin: Origin,
    /// The case's failed attempts ([`Feedback::failed_attempts`]).
    pub failed_attempts: Option<u64>,
}

/// Run `gen` once under `guide`: the guide plans the case and answers the
/// gaps, drawing randomness from `rng`; the case's trail is left in
/// `trail`. The guide is not told how the case went; call
/// [`Guide::feedback`] for that, with the run's origin and failed attempts.
pub fn run_guided<G, U>(
    gen: &G,
    guide: &mut U,
    trail: &mut Trail,
    case: CaseInfo<'_>,
    rng: &mut DetRng,
) -> GuidedRun<G::Value>
where
    G: Gen + ?Sized,
    U: Guide + ?Sized,
{
    let before = failed_attempts();
    let plan = plan_case(guide, &case, |_| ());
    let origin = if plan.is_plain() { Origin::Plain } else { Origin::Planned };
    let mut src = GuidedSource::new(guide, trail, &plan, case, rng);
    let value = gen.run(&mut src);
    let failed_attempts = src.retried().then(|| failed_attempts() - before);
    GuidedRun { value, origin, failed_attempts }
}
