//! The guide interface: how every strategy steers a generator's choices.
//!
//! A case under a guide goes like this:
//!
//! 1. [`Guide::begin_case`] returns a [`Plan`]: generate fresh, or replay a
//!    (possibly edited) choice tree leniently, the guide answering the gaps;
//! 2. the generator runs; at every choice point the plan has no usable
//!    answer for, [`Guide::choose`] is asked, seeing a [`ChoiceContext`]: the
//!    choice point, its request, what the plan held there ([`Cue`]), the
//!    case's [`Trail`] (open nodes from the root, closed children at each
//!    level, the prefix of choices), the run's budget and a type-erased
//!    handle on the generator ([`GenHandle`]) for guides that run it on
//!    their own sources; `choose` may stop the case;
//! 3. the property runs, and [`Guide::feedback`] hears how the case went
//!    ([`Feedback`]: passed, failed or discarded, new or not, the utility,
//!    and the trail, which becomes the case's choice tree).
//!
//! [`GuidedSource`] turns a guide and a plan into the [`Source`] a generator
//! runs against; it keeps the one trail of the case.
//!
//! A guide of its own, in a few lines: mutate the last valid input with one
//! of the shared choice-tree edits ([`refgen_core::edit`]), and answer the
//! gaps the edit leaves at random.
//!
//! ```
//! use refgen_core::choice::{Choice, ChoiceTree};
//! use refgen_core::combinators::{int, vec};
//! use refgen_core::edit::random_edit;
//! use refgen_core::source::{rng_from_seed, sample, DetRng, Stop};
//! use refgen_runtime::config::Config;
//! use refgen_runtime::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Plan};
//! use refgen_runtime::runner::Property;
//!
//! #[derive(Default)]
//! struct Mutate { last: Option<ChoiceTree> }
//!
//! impl Guide for Mutate {
//!     fn name(&self) -> &str { "mutate" }
//!     fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
//!         let Some(last) = &self.last else { return Plan::Fresh };
//!         let edit = random_edit(last, &mut rng_from_seed(case.index));
//!         edit.and_then(|e| e.apply(last)).map_or(Plan::Fresh, Plan::Replay)
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
use refgen_core::gen::Gen;
use refgen_core::interpret::replay::{Cue, Cursor};
use refgen_core::interpret::reroll_choice;
use refgen_core::source::{sample, DetRng, Source, Stop};
use refgen_core::trail::{Node, Trail};
use std::fmt::Debug;

/// How a guide wants the next case made.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Plan {
    /// Generate afresh: the guide answers every choice.
    #[default]
    Fresh,
    /// Replay this choice tree leniently (Goldstein's `MutGen`): a choice
    /// the generator can make is kept; the guide answers where the tree
    /// runs out, no longer matches, holds an unfit choice or a reroll mark.
    Replay(ChoiceTree),
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

/// How a case went, told to the guide when it ends.
#[derive(Debug, Clone, Copy)]
pub struct Feedback<'a> {
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
}

impl Feedback<'_> {
    /// The case's choice tree, the one a replay of it would follow.
    pub fn tree(&self) -> ChoiceTree {
        self.trail.to_tree()
    }
}

/// How many of a run's first fast-path cases that passed are kept, by their
/// seeds, for a guide that adopts them ([`Guide::adopts_plain_cases`]): as
/// many as the cases the default guide watches before it may switch.
pub const PLAIN_CASES_KEPT: usize = 20;

/// A strategy that answers a generator's choices.
pub trait Guide {
    /// The guide's name, for reports.
    fn name(&self) -> &str;

    /// A new case begins: how to make it (the default generates fresh).
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        let _ = case;
        Plan::Fresh
    }

    /// Answer one choice the plan has no usable answer for. `rng` is the
    /// case's seeded RNG, for guides that randomise. An answer the request
    /// does not accept is replaced by a weighted random one;
    /// `Err(Stop::Halt)` stops the case (it gets no value and is discarded).
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop>;

    /// The case that just ended went as `feedback` says.
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        let _ = feedback;
    }

    /// Whether the next case may take the fast path: the guide would answer
    /// every choice as [`sample`] does from the case's RNG, with no plan, and
    /// needs neither the case's trail nor its value's key. The runner then
    /// generates with [`Gen::run_rng`] (no [`GuidedSource`], no trail), runs
    /// such cases back to back in batches (asking again before each case),
    /// and records a case's choice tree only if it fails, by running the same
    /// seed again under a recorder. The feedback of such a case has an empty
    /// trail, no key, and `new` false. `false` by default.
    fn plain_case(&self) -> bool {
        false
    }

    /// Whether the guide hears the values of its fast-path cases
    /// ([`Guide::plain_case`]): then the feedback of such a case has its
    /// value's key and whether the value is new, and, when it passed with
    /// a new value or failed, its kept choices (the failed attempts of its
    /// retrying filters not recorded), made again from its seed under a
    /// recorder (the same value, by the law of [`Gen::run_rng`]). Once the
    /// run's fast-path cases have made failed attempts, such a case is made
    /// again in two runs: the first keeps only its kept choices, the second
    /// records them, so the trail's [`Trail::choices_made`] counts the kept
    /// choices only. A guide that keeps the new values it makes (a corpus)
    /// so pays for a recording only for them. `false` by default.
    fn hears_plain_values(&self) -> bool {
        false
    }

    /// The case that just ended took the fast path ([`Guide::plain_case`])
    /// and went as `feedback` says (see [`Guide::hears_plain_values`] for
    /// what it holds). [`Guide::feedback`] by default.
    fn plain_feedback(&mut self, feedback: &Feedback<'_>) {
        self.feedback(feedback)
    }

    /// The tree of the case that just ran ([`Plan::Replay`]), handed back
    /// once the case is made: a guide that copies trees to make its plans
    /// may keep it and copy the next one into it
    /// ([`ChoiceTree::clone_from`](Clone::clone_from) reuses the lists of
    /// children it has), so that a plan costs no allocation where its
    /// shape is the last one's. Dropped by default.
    fn recycle(&mut self, tree: ChoiceTree) {
        drop(tree);
    }

    /// Whether the guide searches on the utility a property reports
    /// (`maximize!`, `minimize!`, `target!`): moves toward inputs of higher
    /// utility. When it does not and the property reports one, the runner
    /// says once that the utility has nowhere to go. `false` by default.
    fn uses_utility(&self) -> bool {
        false
    }

    /// Whether the filters of the case under way (`#[assume]`, [`Gen::filter`])
    /// may retry a failing part ([`Source::filters_retry`]); asked during the
    /// case. A guide that replays an edited tree may say no, so that an edit
    /// that breaks validity rejects the case instead of being regenerated
    /// away. `true` by default.
    fn filters_retry(&self) -> bool {
        true
    }

    /// Whether the trail of the case under way keeps the failed attempts of
    /// its retrying filters (as [`RETRY`](refgen_core::choice::RETRY)
    /// groups), for [`Guide::choose`] and [`Guide::feedback`] to read; asked
    /// once, after [`Guide::begin_case`]. A guide that reads only the kept
    /// choices says no, and the case skips the cost of recording what it
    /// drops (for a hard validity condition, most of its choices; see
    /// [`Trail::forget_failed_attempts`]). The value is the same either
    /// way, and so is a failure's report, which shows the kept choices.
    /// `true` by default.
    fn records_failed_attempts(&self) -> bool {
        true
    }

    /// What the guide has to say about the run so far, one line each, for
    /// the report (its statistics and its failures); none by default.
    fn notes(&self) -> Vec<String> {
        Vec::new()
    }

    /// A section of the guide's own for the HTML report of the run
    /// ([`crate::html`]): a learning guide's reward curve, say; none by default.
    fn report_section(&self) -> Option<ReportSection> {
        None
    }

    /// A case another guide made before this one took over (the default
    /// guide's random phase, before it switches to mutation), given in the
    /// order the cases were made: the guide may learn from it, as from a case
    /// of its own, without counting it as one. Ignored by default.
    fn adopt(&mut self, feedback: &Feedback<'_>) {
        let _ = feedback;
    }

    /// Whether the guide adopts ([`Guide::adopt`]) the cases that passed on
    /// the fast path ([`Guide::plain_case`]) before it took a case off it;
    /// asked once, before the first generated case off the fast path. The
    /// fast path records no choices: the runner keeps only the seeds of the
    /// first [`PLAIN_CASES_KEPT`] fast-path cases that passed and, when the
    /// guide says yes, makes each again from its seed under a recorder (its
    /// kept choices only, as [`Guide::records_failed_attempts`] saying no)
    /// and gives it to `adopt`, in the order they were made, with its key and
    /// whether its value is new. A guide that switches away from random
    /// generation (the default guide) so pays for the values it adopts when
    /// it switches, and a run that ends before then pays nothing. `false` by
    /// default.
    fn adopts_plain_cases(&self) -> bool {
        false
    }

    /// Whether the guide knows already that it will adopt
    /// ([`Guide::adopts_plain_cases`]) the fast-path cases that pass from
    /// now on (the first [`PLAIN_CASES_KEPT`]); asked before each such
    /// case. The runner then makes them noting their kept choices (a
    /// little dearer than the fast path: the same draws through a source),
    /// so that adopting them records those choices only, without running
    /// through their failed attempts again. The same values and the same
    /// adopted trails either way. `false` by default.
    fn will_adopt_plain_cases(&self) -> bool {
        false
    }
}

/// What a guide adds to the HTML report of a run ([`Guide::report_section`]).
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
    fn plain_case(&self) -> bool {
        (**self).plain_case()
    }
    fn hears_plain_values(&self) -> bool {
        (**self).hears_plain_values()
    }
    fn plain_feedback(&mut self, feedback: &Feedback<'_>) {
        (**self).plain_feedback(feedback)
    }
    fn recycle(&mut self, tree: ChoiceTree) {
        (**self).recycle(tree)
    }
    fn uses_utility(&self) -> bool {
        (**self).uses_utility()
    }
    fn filters_retry(&self) -> bool {
        (**self).filters_retry()
    }
    fn records_failed_attempts(&self) -> bool {
        (**self).records_failed_attempts()
    }
    fn notes(&self) -> Vec<String> {
        (**self).notes()
    }
    fn report_section(&self) -> Option<ReportSection> {
        (**self).report_section()
    }
    fn adopt(&mut self, feedback: &Feedback<'_>) {
        (**self).adopt(feedback)
    }
    fn adopts_plain_cases(&self) -> bool {
        (**self).adopts_plain_cases()
    }
    fn will_adopt_plain_cases(&self) -> bool {
        (**self).will_adopt_plain_cases()
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
}

impl<'g, 't, G: Guide + ?Sized> GuidedSource<'g, 't, G> {
    /// A source for one case: replays `plan` (when it is [`Plan::Replay`])
    /// and asks `guide` at the gaps, recording into `trail` (cleared first);
    /// the guide's randomness comes from `rng`.
    pub fn new(
        guide: &'g mut G,
        trail: &'g mut Trail,
        plan: &'t Plan,
        case: CaseInfo<'g>,
        rng: &'g mut DetRng,
    ) -> Self {
        trail.clear();
        trail.forget_failed_attempts(!guide.records_failed_attempts());
        let cursor = match plan {
            Plan::Fresh => Cursor::empty(),
            Plan::Replay(tree) => Cursor::new(tree),
        };
        GuidedSource { guide, trail, cursor, case, rng }
    }

    /// The trail of the case so far.
    pub fn trail(&self) -> &Trail {
        self.trail
    }
}

impl<G: Guide + ?Sized> Source for GuidedSource<'_, '_, G> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let cue = self.cursor.choose(site, request);
        let c = match cue {
            Cue::Keep(c) => c,
            Cue::Raise => request.largest(),
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
        self.guide.filters_retry()
    }
}

/// Run `gen` once under `guide`: the guide plans the case and answers the
/// gaps, drawing randomness from `rng`; the case's trail is left in
/// `trail`. The guide is not told how the case went; call
/// [`Guide::feedback`] for that.
pub fn run_guided<G, U>(
    gen: &G,
    guide: &mut U,
    trail: &mut Trail,
    case: CaseInfo<'_>,
    rng: &mut DetRng,
) -> Result<G::Value, Stop>
where
    G: Gen + ?Sized,
    U: Guide + ?Sized,
{
    let plan = guide.begin_case(&case);
    let mut src = GuidedSource::new(guide, trail, &plan, case, rng);
    gen.run(&mut src)
}
