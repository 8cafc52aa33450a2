//! The worker that runs cases: generator, guide and trail, and caught panics.

mod batch;

pub(super) use batch::{Batch, Ran};

use super::panics;
use super::property::Property;
use super::remake::{generator_panic, made, recorded, remade, MadeValue};
use super::report::Report;
use super::watch::Watch;
use crate::case::{self, Discard};
use crate::case_result::{CaseResult, Status};
use crate::config::{Config, GuideFactory};
use crate::guide::{
    plan_case, CaseInfo, Choices, Feedback, GenHandle, Guide, GuideReport, GuidedSource, Origin, Outcome, Plan,
};
use crate::hashing::Seen;
use crate::persist::InFlight;
use crate::token;
use refgen_core::bytes::BytesSource;
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::combinators::failed_attempts;
use refgen_core::gen::BoxGen;
use refgen_core::interpret::{lenient_source, reflect};
use refgen_core::source::{rng_from_seed, RngSource, Stop};
use refgen_core::trail::Trail;
use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the run asks the worker to do: one case, made as `make` says,
/// its arguments rendered for the report when `render`, its property run
/// when `test` (a case that hung or ended the process is only made again).
pub(crate) struct CaseRequest<'a> {
    pub(crate) make: Make<'a>,
    pub(crate) render: bool,
    pub(crate) test: bool,
}

/// How a case's value is made.
pub(crate) enum Make<'a> {
    /// A case the guide makes: the `index`-th generated case of a run that
    /// wants `budget` valid ones, its RNG seeded by `seed`. When `edits` is
    /// false (the run's budget of rejected edits is spent), the guide plans
    /// nothing: the case is random generation's, which the guide hears as a
    /// case it did not plan (as a remembered one).
    Generate { seed: u64, index: u64, budget: u64, edits: bool },
    /// The case the seed makes under plain generation, made again under a
    /// recorder for its choice tree (a fast-path case that failed, or ended
    /// the process); heard by no guide. The result says whether the value
    /// differs from what the fast path makes from the same seed.
    Seeded { seed: u64 },
    /// A tree replayed leniently: a shrink candidate (lent by the shrinker),
    /// a remembered case, the minimal case replayed for the report.
    Replay { tree: Cow<'a, ChoiceTree>, seed: u64 },
    /// A remembered case, replayed leniently and heard by the guide as a
    /// case (a mutational guide seeds its corpus with it).
    Remembered { tree: ChoiceTree, seed: u64 },
    /// A case replayed exactly from its choices (a replay token, a case
    /// left in flight by a run that ended).
    Sequence { choices: Vec<Choice> },
    /// A case whose choices a fuzzer's bytes answer ([`refgen_core::bytes`]).
    Bytes { bytes: Vec<u8> },
    /// The example written by hand at `index`, reflected into its choices.
    Example { index: usize },
}

impl Make<'_> {
    /// Whether the guide hears of the case (a generated case, a remembered
    /// one, an example: a search may start from them).
    fn heard_by_guide(&self) -> bool {
        matches!(self, Make::Generate { .. } | Make::Remembered { .. } | Make::Example { .. })
    }

    /// Whether the case is timed when cases are not observed: all but a
    /// shrink try or a replay (nothing else reads their times; a failure's
    /// times are taken when it is found).
    fn timed(&self) -> bool {
        !matches!(self, Make::Replay { .. })
    }

    /// Whether the case's result keeps its tree even when it passes: a case
    /// made again from a seed is made to be recorded.
    fn keeps_tree(&self) -> bool {
        matches!(self, Make::Seeded { .. })
    }
}

pub(super) struct Worker<V> {
    prop: Property<V>,
    gen: BoxGen<V>,
    guide: Box<dyn Guide>,
    /// The trail of the last case.
    trail: Trail,
    /// A trail kept for the next recorded case (whose recorder owns it while it runs).
    spare: Option<Trail>,
    seen: Seen,
    /// Where the case about to run is written, should it end the process
    /// (the run's in-flight file, removed when the worker is dropped).
    inflight: Option<InFlight>,
    /// When the last generated case's test ended: the next generated case
    /// (or batch of them) starts its clock there, one reading fewer (the
    /// run's and the guide's work between two cases counts as generation).
    last_end: Option<Instant>,
    /// Whether cases are observed (observation lines, an HTML report), which
    /// read each case's option labels; no other case pays for them.
    observed: bool,
    /// The keys of the values of the generated cases that passed, when the
    /// run counts distinct values ([`Config::count_distinct`]).
    distinct: Option<Seen>,
    /// The model states the generated cases' command sequences reached (a state machine's run).
    states: Seen,
    /// The seeds of the first fast-path cases that passed (at most
    /// [`PLAIN_CASES_KEPT`]), with their kept choices when they were noted
    /// ([`Choices::Plain::note`]), until the first plan off the fast path,
    /// which may ask for them ([`Choices::Adopt`]).
    plain_passed: Option<Vec<(u64, Option<Vec<Choice>>)>>,
    /// The plan the guide gave for the next generated case, not yet made
    /// (asked for to see whether the case takes the fast path), or the
    /// reason the guide panicked giving it.
    pending: Option<Result<Plan, String>>,
    /// The thread's count of failed attempts when the case under way was planned (or began, for a case
    /// the guide did not plan): the case's feedback says how many it made.
    failed_before: u64,
    /// Whether a filter of the last case made through a [`GuidedSource`] could retry; `None` for a case
    /// made through another source (whose filters always can).
    retried: Option<bool>,
    /// Where the last case made came from, for its feedback.
    origin: Origin,
    /// Whether a fast-path case of the run made failed attempts (a retrying filter's): then a case made
    /// again from its seed without them is made in two runs ([`remade`]).
    retries: bool,
    /// The kept choices of the last case made noting them ([`noting_kept_choices`]), reused from case to case.
    kept: Vec<Choice>,
    /// Whether the guide made the last generated case by replaying a tree
    /// ([`Choices::Replay`]: an edit of an earlier case) rather than afresh.
    edited: bool,
}

/// The property's generator as a guide sees it: values keyed by the property's key.
struct Handle<'a, V> {
    gen: &'a BoxGen<V>,
    key: &'a (dyn Fn(&V) -> u64 + Send + Sync),
}

impl<V> GenHandle for Handle<'_, V> {
    fn run_key(&self, src: &mut dyn refgen_core::Source) -> Result<u64, Stop> {
        self.gen.run(src).map(|v| (self.key)(&v))
    }
}

impl<V: 'static> Worker<V> {
    /// Whether `value`, made again from `seed` under a recorder, differs
    /// from what the fast path makes from the same seed (by the law of
    /// [`refgen_core::gen::Gen::run_rng`] it never does; a generator that
    /// reads anything but its choices can).
    fn differs_from_fast_path(&self, value: &V, seed: u64) -> bool {
        let fast = catch_unwind(AssertUnwindSafe(|| self.gen.run_rng(&mut rng_from_seed(seed))));
        match fast {
            Ok(Ok(v)) => (self.prop.key)(&v) != (self.prop.key)(value),
            _ => true,
        }
    }

    fn new(prop: Property<V>, config: &Config, inflight: Option<InFlight>) -> Self {
        let guide: &GuideFactory = &config.guide;
        let gen = (prop.gen)();
        Worker {
            prop,
            gen,
            guide: guide(),
            trail: Trail::new(),
            spare: None,
            seen: Seen::new(),
            inflight,
            last_end: None,
            observed: false,
            distinct: config.count_distinct.then(Seen::new),
            states: Seen::new(),
            plain_passed: Some(Vec::new()),
            pending: None,
            failed_before: 0,
            retried: None,
            origin: Origin::Unplanned,
            retries: false,
            kept: Vec::new(),
            edited: false,
        }
    }

    /// The plan of the generated case `index` (of a run that wants `budget`
    /// valid cases), kept for the case: see [`Worker::take_plan`].
    fn plan(&mut self, index: u64, budget: u64) -> &Result<Plan, String> {
        let plan = self.take_plan(index, budget);
        self.pending.insert(plan)
    }

    /// The plan of the generated case `index` (of a run that wants `budget`
    /// valid cases): the one the guide gave already, or a new one. Its failed
    /// attempts count from here. A plan that asks to adopt
    /// ([`Choices::Adopt`]) is handed the fast-path cases that passed first;
    /// any plan off the fast path ends their keeping.
    fn take_plan(&mut self, index: u64, budget: u64) -> Result<Plan, String> {
        if let Some(plan) = self.pending.take() {
            return plan;
        }
        let handle = Handle { gen: &self.gen, key: &*self.prop.key };
        let case = CaseInfo { index, budget, gen: &handle };
        let (guide, failed_before) = (&mut self.guide, &mut self.failed_before);
        let (plain_passed, gen, key) = (&mut self.plain_passed, &self.gen, &*self.prop.key);
        let (trail, spare, kept, seen, retries) =
            (&mut self.trail, &mut self.spare, &mut self.kept, &mut self.seen, self.retries);
        *failed_before = failed_attempts();
        let planned = catch_unwind(AssertUnwindSafe(|| {
            plan_case(&mut **guide, &case, |guide| {
                for (seed, noted) in plain_passed.take().unwrap_or_default() {
                    // The same value as on the fast path (the law of `run_rng`); one not made is not adopted.
                    let made = match noted {
                        Some(choices) => recorded(gen, token::sequence_source(&choices), trail, spare, true),
                        None => remade(gen, seed, trail, spare, kept, retries),
                    };
                    if let MadeValue::Value(value, _) = made {
                        let key = key(&value);
                        let new = seen.insert_key(key);
                        let (origin, outcome, failed_attempts) = (Origin::Adopted, Outcome::Passed, None);
                        let (valid, utility, key, trail) = (true, None, Some(key), &*trail);
                        let state_machine = false;
                        let fb = Feedback {
                            origin,
                            failed_attempts,
                            outcome,
                            valid,
                            new,
                            utility,
                            key,
                            trail,
                            state_machine,
                        };
                        guide.feedback(&fb);
                    }
                }
                *failed_before = failed_attempts();
            })
        }));
        let planned = planned.map_err(|payload| generator_panic(&*payload));
        if !matches!(&planned, Ok(plan) if plan.is_plain()) {
            self.plain_passed = None;
        }
        planned
    }

    /// Makes the value of one case (generated cases on the fast path are made by [`Worker::run_batch`]).
    fn make(&mut self, make: &Make<'_>) -> MadeValue<V> {
        self.retried = None;
        self.origin = Origin::Unplanned;
        let gen = &self.gen;
        let made = match make {
            Make::Seeded { seed } => {
                // Made again to be shown and replayed: the failed attempts of
                // its retrying filters are left out (the same value, from the
                // kept choices), where a hard validity condition can make a
                // hundred times the choices it keeps.
                let (trail, spare, kept) = (&mut self.trail, &mut self.spare, &mut self.kept);
                return remade(gen, *seed, trail, spare, kept, self.retries);
            }
            Make::Generate { seed, edits: false, .. } => {
                let src = RngSource(&mut rng_from_seed(*seed));
                return recorded(gen, src, &mut self.trail, &mut self.spare, false);
            }
            Make::Generate { seed, index, budget, .. } => {
                let plan = match self.take_plan(*index, *budget) {
                    Ok(plan) => plan,
                    Err(reason) => return MadeValue::Panicked(reason, Some(ChoiceTree::root(Vec::new()))),
                };
                let gen = &self.gen;
                let (guide, trail, edited) = (&mut self.guide, &mut self.trail, &mut self.edited);
                let (retried, origin) = (&mut self.retried, &mut self.origin);
                let handle = Handle { gen, key: &*self.prop.key };
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let case = CaseInfo { index: *index, budget: *budget, gen: &handle };
                    *edited = matches!(plan.choices, Choices::Replay(_));
                    *origin = if plan.is_plain() { Origin::Plain } else { Origin::Planned };
                    let mut rng = rng_from_seed(*seed);
                    let mut src = GuidedSource::new(&mut **guide, trail, &plan, case, &mut rng);
                    let made = gen.run(&mut src);
                    *retried = Some(src.retried());
                    if let Choices::Replay(tree) = plan.choices {
                        guide.recycle(tree);
                    }
                    made
                }));
                // After a panic the trail still holds the choices made before it.
                return made(r, None);
            }
            Make::Replay { tree, seed } => {
                return recorded(gen, lenient_source(tree, *seed), &mut self.trail, &mut self.spare, false)
            }
            Make::Remembered { tree, seed } => {
                // Recorded into the case's trail, for the guide's feedback.
                return recorded(gen, lenient_source(tree, *seed), &mut self.trail, &mut self.spare, false);
            }
            Make::Sequence { choices } => {
                return recorded(gen, token::sequence_source(choices), &mut self.trail, &mut self.spare, false)
            }
            Make::Bytes { bytes } => {
                return recorded(gen, BytesSource::new(bytes), &mut self.trail, &mut self.spare, false)
            }
            Make::Example { index } => {
                let make = self.prop.examples[*index].clone();
                let describe = self.prop.describe.clone();
                let (guide, trail, retried) = (&mut self.guide, &mut self.trail, &mut self.retried);
                trail.clear();
                let handle = Handle { gen, key: &*self.prop.key };
                catch_unwind(AssertUnwindSafe(|| {
                    let v = make();
                    match reflect(gen, &v).into_iter().next() {
                        Some(tree) => {
                            // Replay the example's choices under the guide, so that it hears of the
                            // case as of a generated one (a search may start from it).
                            let plan = Plan::replay(tree.clone());
                            let case = CaseInfo { index: 0, budget: 0, gen: &handle };
                            let mut rng = rng_from_seed(0);
                            let mut src = GuidedSource::new(&mut **guide, trail, &plan, case, &mut rng);
                            let _ = gen.run(&mut src);
                            *retried = Some(src.retried());
                            MadeValue::Value(v, Some(tree))
                        }
                        None => MadeValue::NotInRange(
                            describe(&v).into_iter().map(|(n, d)| format!("{n} = {d}")).collect::<Vec<_>>().join(", "),
                        ),
                    }
                }))
            }
        };
        made.unwrap_or_else(|payload| {
            MadeValue::Panicked(generator_panic(&*payload), Some(ChoiceTree::root(Vec::new())))
        })
    }

    /// The tree of a case's result: its own, else the one the trail holds
    /// when it is `needed`, else an empty tree.
    fn result_tree(&self, tree: Option<ChoiceTree>, needed: bool) -> ChoiceTree {
        match tree {
            Some(t) => t,
            None if needed => self.trail.to_tree(),
            None => ChoiceTree::root(Vec::new()),
        }
    }

    /// Runs one case; `started`, when given, hears its choices before the property runs.
    ///
    /// A case that the property passed or discarded has no tree in its
    /// result (nothing reads it: a shrink try that passes builds none),
    /// unless cases are observed, or made from a seed to be recorded.
    fn run(&mut self, request: CaseRequest<'_>, mut started: Option<Started<'_>>) -> CaseResult {
        panics::quiet(true);
        panics::case_begins();
        let CaseRequest { make, render, test } = request;
        let generated = matches!(make, Make::Generate { .. });
        let guided = make.heard_by_guide();
        // A case whose arguments are shown keeps the tree that made them: a
        // token printed with them is made of its choices, so it makes them again.
        let keep_tree = self.observed || make.keeps_tree() || render;
        let t0 = match self.last_end.take() {
            Some(end) if generated => Some(end),
            _ => (self.observed || make.timed()).then(Instant::now),
        };
        if let (Make::Generate { seed, index, .. }, Some(f)) = (&make, self.inflight.as_mut()) {
            // Recorded before the guide makes it: should its generator end the process, it is the
            // case reported, not the one before. Best effort, as every record.
            let _ = f.record_guided(*index, *seed);
        }
        if guided && !matches!(make, Make::Generate { edits: true, .. }) {
            self.failed_before = failed_attempts();
        }
        self.edited = false;
        let made = self.make(&make);
        // One clock reading ends generation and starts the test.
        let t1 = t0.map(|_| Instant::now());
        let gen_time = t0.zip(t1).map_or(Duration::ZERO, |(t0, t1)| t1 - t0);
        let mut result = CaseResult { gen_time, edited: self.edited, ..CaseResult::empty(Status::Passed) };
        if self.observed {
            // The trail holds the case's choices as made (guided, replayed or reflected).
            result.options = self.trail.choice_nodes().map(|n| n.label()).collect();
        }
        let mut value_key = None;
        // The model state a state machine's case reached: its key for novelty.
        let mut state_key = None;
        match made {
            MadeValue::Panicked(reason, tree) => {
                result.tree = self.result_tree(tree, true);
                result.status = Status::GenPanicked(reason);
            }
            MadeValue::NotInRange(shown) => result.status = Status::NotInRange(shown),
            MadeValue::NoValue(stop, tree) => {
                result.tree = self.result_tree(tree, keep_tree || !test);
                result.status = no_value(stop);
            }
            MadeValue::Value(value, tree) => {
                if let Make::Seeded { seed } = make {
                    result.remade_differs = self.differs_from_fast_path(&value, seed);
                }
                if guided || (generated && self.distinct.is_some()) {
                    value_key = Some((self.prop.key)(&value));
                }
                if render {
                    result.args = Some((self.prop.describe)(&value));
                }
                if let Some(started) = started.as_mut() {
                    match &tree {
                        Some(t) => started(&mut t.choices().into_iter()),
                        None => started(&mut self.trail.choice_nodes().filter_map(|n| n.choice)),
                    }
                }
                if test {
                    if let Some(f) = self.inflight.as_mut() {
                        // Best effort: a case that cannot be written still runs.
                        let _ = match &tree {
                            Some(t) => f.record(t),
                            None => f.record_choices(self.trail.choice_nodes().filter_map(|n| n.choice)),
                        };
                    }
                    let test = &self.prop.test;
                    case::begin(render || self.observed, render);
                    let outcome = catch_unwind(AssertUnwindSafe(move || test(value)));
                    if let Some(t1) = t1 {
                        let end = Instant::now();
                        result.test_time = end - t1;
                        if generated {
                            self.last_end = Some(end);
                        }
                    }
                    let st = case::end();
                    result.labels = st.labels;
                    result.utility = st.utility;
                    result.notes = st.notes;
                    state_key = st.state;
                    result.status = tested(outcome);
                }
                result.tree = self.result_tree(tree, keep_tree || !test || result.status.fails());
            }
        }
        if let (true, Some(seen), Some(k), Status::Passed) = (generated, &mut self.distinct, value_key, &result.status)
        {
            seen.insert_key(k);
        }
        if let (true, Some(k)) = (generated, state_key) {
            self.states.insert_key(k);
        }
        if guided {
            let state_machine = state_key.is_some();
            let value_key = state_key.or(value_key);
            // A case with no value is invalid, and never new.
            let new = value_key.is_some_and(|k| self.seen.insert_key(k));
            let outcome = result.status.outcome();
            let valid = outcome != Outcome::Discarded;
            let (utility, key, trail) = (result.utility, value_key, &self.trail);
            let origin = self.origin;
            let failed = failed_attempts() - self.failed_before;
            let failed_attempts = (self.retried != Some(false)).then_some(failed);
            let fb = Feedback { origin, failed_attempts, outcome, valid, new, utility, key, trail, state_machine };
            self.guide.feedback(&fb);
        }
        panics::quiet(false);
        result
    }
}

/// What a property's outcome makes of a case.
fn tested(outcome: std::thread::Result<Result<(), String>>) -> Status {
    match outcome {
        Ok(Ok(())) => Status::Passed,
        Ok(Err(reason)) => Status::Failed(reason),
        Err(payload) => {
            let loc = panics::take_location();
            match payload.downcast_ref::<Discard>() {
                Some(d) => Status::Discarded(format!("assume!({})", d.condition)),
                None => Status::Failed(format!("panicked{loc}: {}", panics::panic_message(&*payload))),
            }
        }
    }
}

/// A case whose generator stopped with `stop` is discarded, for this reason.
fn no_value(stop: Stop) -> Status {
    Status::Discarded(match stop {
        Stop::Invalid => "the generator's validity condition rejected the value".to_owned(),
        other => format!("the generator gave no value: {other}"),
    })
}

/// Hears a case's choices before its property runs.
type Started<'a> = &'a mut dyn FnMut(&mut dyn Iterator<Item = Choice>);

/// Runs the cases of a run on the calling thread; with a [`Watch`], tells
/// it what each case is once it is made, so that a case that hangs can be
/// reported by the thread watching.
pub(super) struct CaseRunner<V: 'static> {
    worker: Box<Worker<V>>,
    watch: Option<Arc<Watch>>,
}

impl<V: 'static> CaseRunner<V> {
    pub(super) fn new(
        prop: Property<V>,
        config: &Config,
        inflight: Option<InFlight>,
        watch: Option<Arc<Watch>>,
    ) -> Self {
        panics::install_hook();
        CaseRunner { worker: Box::new(Worker::new(prop, config, inflight)), watch }
    }

    pub(super) fn guide_name(&self) -> String {
        self.worker.guide.name().to_owned()
    }

    /// Records `case`, left in flight by a run that ended, as the case about to be made again (see
    /// [`InFlight::record_again`]); best effort.
    pub(super) fn record_again(&mut self, case: &crate::persist::InFlightCase) {
        if let Some(f) = self.worker.inflight.as_mut() {
            let _ = f.record_again(case);
        }
    }

    /// How many distinct values the generated cases that passed had, when the run counts them.
    pub(super) fn distinct(&self) -> Option<u64> {
        self.worker.distinct.as_ref().map(|s| s.len() as u64)
    }

    /// How many distinct model states the generated cases reached, when they ran a state machine.
    pub(super) fn model_states(&self) -> Option<u64> {
        Some(self.worker.states.len() as u64).filter(|&n| n > 0)
    }

    /// Cases are observed from now on: each result carries its option labels.
    pub(super) fn observe(&mut self) {
        self.worker.observed = true;
    }

    /// The seed `request` makes its case from, when it makes it again by plain generation.
    pub(super) fn plain_seed(&self, request: &CaseRequest<'_>) -> Option<u64> {
        match request.make {
            Make::Seeded { seed } => Some(seed),
            _ => None,
        }
    }

    /// Whether the generated case `index` (of a run that wants `budget` valid
    /// cases), and maybe the next ones, may run as a batch on the fast path
    /// ([`CaseRunner::run_batch`]): cases are not observed and the guide plans
    /// it ([`Choices::Plain`]). The plan is kept for the case.
    pub(super) fn batchable(&mut self, index: u64, budget: u64) -> bool {
        !self.worker.observed && matches!(self.worker.plan(index, budget), Ok(plan) if plan.is_plain())
    }

    /// Runs the generated cases of `batch` on the fast path (see [`Batch`]).
    pub(super) fn run_batch(&mut self, batch: &Batch, report: &mut Report) -> Ran {
        self.worker.run_batch(batch, self.watch.as_deref(), report)
    }

    /// What the guide says about the run so far ([`Guide::report`]).
    pub(super) fn guide_report(&self) -> GuideReport {
        self.worker.guide.report()
    }

    pub(super) fn run(&mut self, request: CaseRequest<'_>) -> CaseResult {
        match &self.watch {
            Some(w) if w.wants_made() => self.worker.run(request, Some(&mut |choices| w.made(choices))),
            _ => self.worker.run(request, None),
        }
    }
}
