//! The worker that runs cases: it owns the generator, the guide and the case's trail, takes the fast path when the guide allows, and catches panics.

use super::property::Property;
use super::watch::Watch;
use crate::case::{self, Discard};
use crate::config::{Config, GuideFactory};
use crate::guide::{run_guided, CaseInfo, Feedback, GenHandle, Guide, GuidedSource, Outcome, Plan, ReportSection};
use crate::hashing::Seen;
use crate::outcome::{CaseResult, Status};
use crate::persist::InFlight;
use crate::token;
use reflect_core::bytes::BytesSource;
use reflect_core::choice::{Choice, ChoiceTree};
use reflect_core::gen::BoxGen;
use reflect_core::interpret::{lenient_source, reflect};
use reflect_core::source::{rng_from_seed, RngSource, Stop};
use reflect_core::trail::{Recorder, Trail};
use std::any::Any;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// What the run asks the worker to do: one case.
pub(crate) enum Cmd<'a> {
    /// A case the guide makes: the `index`-th generated case of a run that
    /// wants `budget` valid ones, its RNG seeded by `seed`.
    Generate {
        seed: u64,
        index: u64,
        budget: u64,
        render: bool,
    },
    /// The case the seed makes under plain generation, made again under a
    /// recorder for its choice tree (a fast-path case that failed, or ended
    /// the process); heard by no guide. The result says whether the value
    /// differs from what the fast path makes from the same seed.
    Seeded {
        seed: u64,
        render: bool,
        test: bool,
    },
    /// A tree replayed leniently: a shrink candidate (lent by the shrinker),
    /// a remembered case, the minimal case replayed for the report.
    Replay {
        tree: Cow<'a, ChoiceTree>,
        seed: u64,
        render: bool,
        test: bool,
    },
    /// A remembered case, replayed leniently and heard by the guide as a
    /// case (a mutational guide seeds its corpus with it).
    Remembered {
        tree: ChoiceTree,
        seed: u64,
        render: bool,
    },
    /// A case replayed exactly from its choices (a replay token, a case
    /// left in flight by a run that ended); tested unless `test` is false.
    Sequence {
        choices: Vec<Choice>,
        render: bool,
        test: bool,
    },
    /// A case whose choices a fuzzer's bytes answer ([`reflect_core::bytes`]).
    Bytes {
        bytes: Vec<u8>,
    },
    Example {
        index: usize,
        render: bool,
    },
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
    /// Where the case about to run is written, should it end the process.
    inflight: InFlightSlot,
    /// When the last generated case's test ended: the next generated case
    /// starts its clock there, one reading fewer per case (the run's and
    /// the guide's work between two cases counts as generation).
    last_end: Option<Instant>,
    /// How fast-path cases' time is split between generation and test.
    split: Split,
    /// Whether cases are observed (observation lines, an HTML report), which
    /// read each case's option labels; no other case pays for them.
    observed: bool,
}

/// The in-flight file of a run (see [`crate::persist::InFlight`]), shared by
/// the run and its workers; the run empties it when it ends.
pub(super) type InFlightSlot = Arc<Mutex<Option<InFlight>>>;

/// The property's generator as a guide sees it: values keyed by the property's key.
struct Handle<'a, V> {
    gen: &'a BoxGen<V>,
    key: &'a (dyn Fn(&V) -> u64 + Send + Sync),
}

impl<V> GenHandle for Handle<'_, V> {
    fn run_key(&self, src: &mut dyn reflect_core::Source) -> Result<u64, Stop> {
        self.gen.run(src).map(|v| (self.key)(&v))
    }
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
    /// The panics of the current case, shown should the process abort.
    static CASE_PANICS: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// The messages the standard library panics with when a panic cannot
/// unwind (a panic in a destructor while unwinding): the process aborts next.
const ABORTING: [&str; 2] = ["panic in a destructor during cleanup", "panic in a function that cannot unwind"];

/// Installs (once) a panic hook that keeps the panics of cases quiet and
/// notes where they happened; every other panic goes to the previous hook.
/// A panic that will abort the process (it cannot unwind, or the crate is
/// built with `panic = "abort"`) is not kept quiet, and the case's earlier
/// panics are printed with it: nothing else will tell them.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !QUIET.with(Cell::get) || cfg!(panic = "abort") {
                return previous(info);
            }
            let loc = info.location().map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()));
            let message = panic_message(info.payload());
            if ABORTING.iter().any(|m| message.starts_with(m)) {
                let earlier = CASE_PANICS.with(|p| p.borrow().join("\n  "));
                let _ = writeln!(
                    std::io::stderr(),
                    "reflect: the case panicked while unwinding, so the process aborts:\n  {earlier}"
                );
                return previous(info);
            }
            CASE_PANICS.with(|p| {
                let mut p = p.borrow_mut();
                if p.len() < 8 {
                    p.push(format!("{message}{}", loc.as_deref().unwrap_or("")));
                }
            });
            LAST_PANIC.with(|p| *p.borrow_mut() = loc);
        }));
    });
}

/// The message of a panic's payload.
pub(super) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-string payload".to_owned()
    }
}

impl<V: 'static> Worker<V> {
    /// Whether `value`, made again from `seed` under a recorder, differs
    /// from what the fast path makes from the same seed (by the law of
    /// [`reflect_core::gen::Gen::run_rng`] it never does; a generator that
    /// reads anything but its choices can).
    fn differs_from_fast_path(&self, value: &V, seed: u64) -> bool {
        let fast = catch_unwind(AssertUnwindSafe(|| self.gen.run_rng(&mut rng_from_seed(seed))));
        match fast {
            Ok(Ok(v)) => (self.prop.key)(&v) != (self.prop.key)(value),
            _ => true,
        }
    }

    /// The seed of a case made on the fast path (see [`Guide::plain_case`]).
    fn fast_seed(&self, cmd: &Cmd<'_>) -> Option<u64> {
        match *cmd {
            Cmd::Generate { seed, render: false, .. } if self.guide.plain_case() => Some(seed),
            _ => None,
        }
    }

    /// See [`Exec::plain_seed`].
    fn plain_seed(&self, cmd: &Cmd<'_>) -> Option<u64> {
        match *cmd {
            Cmd::Seeded { seed, .. } => Some(seed),
            _ => self.fast_seed(cmd),
        }
    }

    fn new(prop: Property<V>, guide: &GuideFactory, inflight: InFlightSlot) -> Self {
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
            split: Split::default(),
            observed: false,
        }
    }

    /// Makes the value of one case; `plain` takes the fast path (see [`Guide::plain_case`]).
    fn make(&mut self, cmd: &Cmd<'_>, plain: bool) -> Made<V> {
        let gen = &self.gen;
        let made = match cmd {
            Cmd::Generate { seed, .. } if plain => {
                self.trail.clear();
                let r = catch_unwind(AssertUnwindSafe(|| gen.run_rng(&mut rng_from_seed(*seed))));
                // The trail, cleared, holds the tree the fast path has: no choices.
                return made(r, None);
            }
            Cmd::Seeded { seed, .. } => {
                return recorded(gen, RngSource(&mut rng_from_seed(*seed)), &mut self.trail, &mut self.spare);
            }
            Cmd::Generate { seed, index, budget, .. } => {
                let (guide, trail) = (&mut self.guide, &mut self.trail);
                let handle = Handle { gen, key: &*self.prop.key };
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let case = CaseInfo { index: *index, budget: *budget, gen: &handle };
                    run_guided(gen, &mut **guide, trail, case, &mut rng_from_seed(*seed))
                }));
                // After a panic the trail still holds the choices made before it.
                return made(r, None);
            }
            Cmd::Replay { tree, seed, .. } => {
                return recorded(gen, lenient_source(tree, *seed), &mut self.trail, &mut self.spare)
            }
            Cmd::Remembered { tree, seed, .. } => {
                // Recorded into the case's trail, for the guide's feedback.
                return recorded(gen, lenient_source(tree, *seed), &mut self.trail, &mut self.spare);
            }
            Cmd::Sequence { choices, .. } => {
                return recorded(gen, token::sequence_source(choices), &mut self.trail, &mut self.spare)
            }
            Cmd::Bytes { bytes } => return recorded(gen, BytesSource::new(bytes), &mut self.trail, &mut self.spare),
            Cmd::Example { index, .. } => {
                let make = self.prop.examples[*index].clone();
                let describe = self.prop.describe.clone();
                let (guide, trail) = (&mut self.guide, &mut self.trail);
                trail.clear();
                let handle = Handle { gen, key: &*self.prop.key };
                catch_unwind(AssertUnwindSafe(|| {
                    let v = make();
                    match reflect(gen, &v).into_iter().next() {
                        Some(tree) => {
                            // Replay the example's choices under the guide, so that it hears of the
                            // case as of a generated one (a search may start from it).
                            let plan = Plan::Replay(tree.clone());
                            let case = CaseInfo { index: 0, budget: 0, gen: &handle };
                            let mut rng = rng_from_seed(0);
                            let _ = gen.run(&mut GuidedSource::new(&mut **guide, trail, &plan, case, &mut rng));
                            Made::Value(v, Some(tree))
                        }
                        None => Made::NotInRange(
                            describe(&v).into_iter().map(|(n, d)| format!("{n} = {d}")).collect::<Vec<_>>().join(", "),
                        ),
                    }
                }))
            }
        };
        made.unwrap_or_else(|payload| Made::Panicked(generator_panic(&*payload), Some(ChoiceTree::root(Vec::new()))))
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
    fn run(&mut self, cmd: Cmd<'_>, mut started: Option<Started<'_>>) -> CaseResult {
        QUIET.with(|q| q.set(true));
        CASE_PANICS.with(|p| p.borrow_mut().clear());
        let plain = self.fast_seed(&cmd);
        let generated = matches!(cmd, Cmd::Generate { .. });
        let keep_tree = self.observed || matches!(cmd, Cmd::Seeded { .. });
        // A shrink try or a replay is timed only when cases are observed:
        // nothing else reads its times (a failure's times are taken when it is found).
        let clocked = self.observed || !matches!(cmd, Cmd::Replay { .. });
        let t0 = match self.last_end.take() {
            Some(end) if generated => Some(end),
            _ => clocked.then(Instant::now),
        };
        let made = self.make(&cmd, plain.is_some());
        let (render, test, guided) = match cmd {
            Cmd::Generate { render, .. } => (render, true, true),
            Cmd::Seeded { render, test, .. } => (render, test, false),
            Cmd::Replay { render, test, .. } => (render, test, false),
            Cmd::Sequence { render, test, .. } => (render, test, false),
            Cmd::Bytes { .. } => (false, true, false),
            Cmd::Remembered { render, .. } => (render, true, true),
            // An example is heard by the guide as a case, so a search may start from it.
            Cmd::Example { render, .. } => (render, true, true),
        };
        // One clock reading ends generation and starts the test (on the
        // fast path, only in the cases the split measures).
        let split = plain.is_some() && generated;
        let t1 = t0.filter(|_| !split || self.split.measure_next()).map(|_| Instant::now());
        let mut timed = t0.is_none() || t1.is_some();
        let gen_time = t0.zip(t1).map_or(Duration::ZERO, |(t0, t1)| t1 - t0);
        let mut result = CaseResult { gen_time, plain, ..CaseResult::empty(Status::Passed) };
        if self.observed {
            // The trail holds the case's choices as made (guided, replayed or reflected).
            result.options = self.trail.choice_nodes().map(|n| n.label()).collect();
        }
        let mut value_key = None;
        match made {
            Made::Panicked(reason, tree) => {
                result.tree = self.result_tree(tree, true);
                result.status = Status::GenPanicked(reason);
            }
            Made::NotInRange(shown) => result.status = Status::NotInRange(shown),
            Made::NoValue(stop, tree) => {
                result.tree = self.result_tree(tree, keep_tree || !test);
                result.status = Status::Discarded(match stop {
                    Stop::Invalid => "the generator's validity condition rejected the value".to_owned(),
                    other => format!("the generator gave no value: {other}"),
                });
            }
            Made::Value(value, tree) => {
                if let Cmd::Seeded { seed, .. } = cmd {
                    result.remade_differs = self.differs_from_fast_path(&value, seed);
                }
                if guided && plain.is_none() {
                    value_key = Some((self.prop.key)(&value));
                }
                if render {
                    result.args = Some((self.prop.describe)(&value));
                }
                if let (None, Some(started)) = (plain, started.as_mut()) {
                    match &tree {
                        Some(t) => started(&mut t.choices().into_iter()),
                        None => started(&mut self.trail.choice_nodes().filter_map(|n| n.choice)),
                    }
                }
                if test {
                    if let Some(f) = self.inflight.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
                        // Best effort: a case that cannot be written still runs.
                        let _ = match (plain, &tree) {
                            (Some(seed), _) => f.record_seed(seed),
                            (None, Some(t)) => f.record(t),
                            (None, None) => f.record_choices(self.trail.choice_nodes().filter_map(|n| n.choice)),
                        };
                    }
                    let test = &self.prop.test;
                    case::begin();
                    let outcome = catch_unwind(AssertUnwindSafe(move || test(value)));
                    if let Some(t0) = t0 {
                        let end = Instant::now();
                        match t1 {
                            Some(t1) => {
                                result.test_time = end - t1;
                                if split {
                                    self.split.learn(result.gen_time, result.test_time);
                                }
                            }
                            None => (result.gen_time, result.test_time) = self.split.share(end - t0),
                        }
                        if generated {
                            self.last_end = Some(end);
                        }
                    }
                    timed = true;
                    let st = case::end();
                    result.labels = st.labels;
                    result.utility = st.utility;
                    result.status = match outcome {
                        Ok(Ok(())) => Status::Passed,
                        Ok(Err(reason)) => Status::Failed(reason),
                        Err(payload) => {
                            let loc = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
                            match payload.downcast_ref::<Discard>() {
                                Some(d) => Status::Discarded(format!("assume!({})", d.condition)),
                                None => Status::Failed(format!("panicked{loc}: {}", panic_message(&*payload))),
                            }
                        }
                    };
                }
                result.tree = self.result_tree(tree, keep_tree || !test || result.status.fails());
            }
        }
        if let (false, Some(t0)) = (timed, t0) {
            // A fast-path case that ended before its test: all its time was generation.
            result.gen_time = t0.elapsed();
        }
        if guided {
            // A case with no value is invalid, and never new.
            let new = value_key.is_some_and(|k| self.seen.insert_key(k));
            let outcome = result.status.outcome();
            let valid = outcome != Outcome::Discarded;
            let (utility, key, trail) = (result.utility, value_key, &self.trail);
            self.guide.feedback(&Feedback { outcome, valid, new, utility, key, trail });
        }
        QUIET.with(|q| q.set(false));
        result
    }
}

/// Hears a case's choices before its property runs.
type Started<'a> = &'a mut dyn FnMut(&mut dyn Iterator<Item = Choice>);

/// How the time of fast-path cases is split between generation and test.
///
/// Back-to-back cases share one clock reading (one case's end is the next
/// one's start), so a case's whole time costs one reading; splitting it
/// costs another. A case that takes [`Split::QUICK`] or longer is always
/// split. While cases are quicker than that, one in 2, then 4, ... up to
/// [`Split::MAX_EVERY`] is split, and each of the others is shared out in
/// the proportion of the last case split: totals stay exact, and the
/// division of the quick cases' time between generation and test is an
/// estimate from the cases measured.
#[derive(Debug)]
struct Split {
    /// One case in this many is split.
    every: u64,
    /// The cases seen.
    count: u64,
    /// Generation's share of the last split case's time.
    gen_share: f64,
}

impl Default for Split {
    fn default() -> Self {
        Split { every: 1, count: 0, gen_share: 0.5 }
    }
}

impl Split {
    /// A case at least this long is always split: its two readings cost little beside it.
    const QUICK: Duration = Duration::from_micros(2);
    /// At most this many quick cases share one split case.
    const MAX_EVERY: u64 = 16;

    /// Whether the next case is split (by a clock reading between its generation and its test).
    fn measure_next(&mut self) -> bool {
        let measure = self.count.is_multiple_of(self.every);
        self.count += 1;
        measure
    }

    /// A split case took `gen` and `test`.
    fn learn(&mut self, gen: Duration, test: Duration) {
        let total = gen + test;
        if !total.is_zero() {
            self.gen_share = gen.as_secs_f64() / total.as_secs_f64();
        }
        self.every = if total < Self::QUICK { (self.every * 2).min(Self::MAX_EVERY) } else { 1 };
        // This case begins the next period of `every` cases.
        self.count = 1;
    }

    /// A case not split took `total`: its generation and test time, in the share of the last split case.
    fn share(&mut self, total: Duration) -> (Duration, Duration) {
        if total >= Self::QUICK {
            // Cases got slow: split the next ones.
            (self.every, self.count) = (1, 0);
        }
        let gen = total.mul_f64(self.gen_share).min(total);
        (gen, total - gen)
    }
}

/// The value of a case, or why there is none.
///
/// A tree of `None` is the one the worker's trail holds (built only when needed).
enum Made<V> {
    Value(V, Option<ChoiceTree>),
    NoValue(Stop, Option<ChoiceTree>),
    NotInRange(String),
    /// The generator panicked, after making the choices of the tree.
    Panicked(String, Option<ChoiceTree>),
}

/// How the reason of a generator's panic begins.
pub(crate) const GENERATOR_PANICKED: &str = "the generator panicked";

/// What a generator's panic says, with where it happened.
fn generator_panic(payload: &(dyn Any + Send)) -> String {
    let loc = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
    format!("{GENERATOR_PANICKED}{loc}: {}", panic_message(payload))
}

/// The value of a run of the generator that may have panicked, and the choices it made.
fn made<V>(r: std::thread::Result<Result<V, Stop>>, tree: Option<ChoiceTree>) -> Made<V> {
    match r {
        Ok(r) => Made::from((r, tree)),
        Err(payload) => Made::Panicked(generator_panic(&*payload), tree),
    }
}

/// Runs the generator on `src`, recording its choices into `trail`; a panic keeps the choices made before it.
/// The recorder takes `spare` (its lists kept from case to case) and leaves the last trail there.
fn recorded<V>(
    gen: &BoxGen<V>,
    src: impl reflect_core::Source,
    trail: &mut Trail,
    spare: &mut Option<Trail>,
) -> Made<V> {
    let mut into = spare.take().unwrap_or_default();
    into.clear();
    let mut rec = Recorder { inner: src, trail: into };
    let r = catch_unwind(AssertUnwindSafe(|| gen.run(&mut rec)));
    *spare = Some(std::mem::replace(trail, rec.trail));
    made(r, None)
}

impl<V> From<(Result<V, Stop>, Option<ChoiceTree>)> for Made<V> {
    fn from((r, tree): (Result<V, Stop>, Option<ChoiceTree>)) -> Self {
        match r {
            Ok(v) => Made::Value(v, tree),
            Err(stop) => Made::NoValue(stop, tree),
        }
    }
}

/// Runs the cases of a run on the calling thread; with a [`Watch`], tells
/// it what each case is once it is made, so that a case that hangs can be
/// reported by the thread watching.
pub(super) struct Exec<V: 'static> {
    worker: Box<Worker<V>>,
    watch: Option<Arc<Watch>>,
}

impl<V: 'static> Exec<V> {
    pub(super) fn new(prop: Property<V>, config: &Config, inflight: InFlightSlot, watch: Option<Arc<Watch>>) -> Self {
        install_panic_hook();
        Exec { worker: Box::new(Worker::new(prop, &config.guide, inflight)), watch }
    }

    pub(super) fn guide_name(&self) -> String {
        self.worker.guide.name().to_owned()
    }

    /// Cases are observed from now on: each result carries its option labels.
    pub(super) fn observe(&mut self) {
        self.worker.observed = true;
    }

    /// The seed `cmd` makes its case from, when it makes it by plain
    /// generation (the fast path, or made again from a seed).
    pub(super) fn plain_seed(&self, cmd: &Cmd<'_>) -> Option<u64> {
        self.worker.plain_seed(cmd)
    }

    /// What the guide says about the run so far ([`Guide::notes`]), and its section of the HTML report.
    pub(super) fn notes(&mut self) -> (Vec<String>, Option<ReportSection>) {
        (self.worker.guide.notes(), self.worker.guide.report_section())
    }

    pub(super) fn run(&mut self, cmd: Cmd<'_>) -> CaseResult {
        match &self.watch {
            Some(w) if w.wants_made() => self.worker.run(cmd, Some(&mut |choices| w.made(choices))),
            _ => self.worker.run(cmd, None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases `split` measures among the next `n`.
    fn measured(split: &mut Split, n: usize) -> Vec<bool> {
        (0..n).map(|_| split.measure_next()).collect()
    }

    #[test]
    fn quick_cases_are_split_ever_more_rarely_and_slow_ones_always() {
        let mut s = Split::default();
        let quick = Duration::from_nanos(100);
        let slow = Split::QUICK * 3;
        // Every case is split at first; each quick split case halves how often.
        for every in [2, 4, 8, 16, 16] {
            assert!(s.measure_next());
            s.learn(quick, quick);
            assert_eq!(s.every, every);
            assert_eq!(measured(&mut s, every as usize - 1), vec![false; every as usize - 1]);
        }
        // A slow case, split or not, makes every case split again.
        assert!(s.measure_next());
        s.learn(slow, slow);
        assert_eq!(measured(&mut s, 3), vec![true; 3]);
        // (the last of them was quick: the next case is not split, the one after is)
        s.learn(quick, quick);
        assert_eq!(measured(&mut s, 2), vec![false, true]);
        let _ = s.share(slow);
        assert_eq!(measured(&mut s, 2), vec![true, true]);
    }

    #[test]
    fn a_case_not_split_is_shared_out_as_the_last_split_one_was() {
        let mut s = Split::default();
        s.learn(Duration::from_nanos(300), Duration::from_nanos(100));
        let (gen, test) = s.share(Duration::from_nanos(1000));
        assert_eq!((gen, test), (Duration::from_nanos(750), Duration::from_nanos(250)));
        // The total is kept exactly, whatever the share's rounding.
        s.learn(Duration::from_nanos(1), Duration::from_nanos(2));
        let total = Duration::from_nanos(1001);
        let (gen, test) = s.share(total);
        assert_eq!(gen + test, total);
    }
}
