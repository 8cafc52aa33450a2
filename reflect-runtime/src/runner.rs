//! The property runner: generate cases with a guide, run the property, catch panics and hangs, shrink, remember and report.
//!
//! A [`Property`] is a generator (made by a function, so it can be built on
//! the thread that runs the cases) and a test. [`Property::check`] runs it
//! under a [`Config`]:
//!
//! 1. with a replay token (`REFLECT_REPLAY`), only that case runs;
//! 2. remembered failures (see [`crate::persist`]) run first, then the
//!    examples written by hand ([`Property::example`]);
//! 3. then generated cases, each from its own seed derived from the run's
//!    seed, answered by the guide, until `cases` valid cases passed. A case
//!    `assume!` or the generator's validity condition rejects is discarded;
//!    a run with too many discards stops with [`RunError::Vacuous`] rather
//!    than passing vacuously. The guide hears [`Feedback`] after every case;
//! 4. a failing case is shrunk ([`crate::shrink`]), replayed once more to
//!    print its arguments, remembered, and returned as a [`Failure`] whose
//!    `Display` is the report.
//!
//! Cases run on a worker thread that owns the generator, the guide and the
//! values (so none of them need be `Send`). The runner waits for each case
//! at most [`Config::case_timeout`]; a case that takes longer fails as
//! hanging, and its thread is abandoned (Rust cannot stop a thread; it ends
//! with the process). A hanging case is reported as found, not shrunk:
//! every shrink candidate that hangs would cost a time limit and a thread.
//! While shrinking another failure, a candidate that hangs is not kept.

use crate::case::{self, Discard, IntoOutcome};
use crate::config::Config;
use crate::guide::{Feedback, Guide, GuidedSource};
use crate::observe::Observer;
use crate::persist::Store;
use crate::shrink::{self, Budget, ShrinkStats};
use crate::token;
use reflect_core::choice::{Choice, ChoiceTree};
use reflect_core::gen::{BoxGen, Gen};
use reflect_core::interpret::{reflect, replay_lenient, run_recorded};
use reflect_core::source::Stop;
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeMap, HashSet};
use std::fmt::{self, Debug};
use std::hash::{Hash, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

type GenFn<V> = dyn Fn() -> BoxGen<V> + Send + Sync;
type TestFn<V> = dyn Fn(V) -> Result<(), String> + Send + Sync;
type DescribeFn<V> = dyn Fn(&V) -> Vec<(String, String)> + Send + Sync;
type ExampleFn<V> = dyn Fn() -> V + Send + Sync;
/// Each argument's name and `Debug`.
type Args = Vec<(String, String)>;

/// A property: a generator of inputs and a test over them.
pub struct Property<V> {
    gen: Arc<GenFn<V>>,
    test: Arc<TestFn<V>>,
    describe: Arc<DescribeFn<V>>,
    examples: Vec<Arc<ExampleFn<V>>>,
}

impl<V> Clone for Property<V> {
    fn clone(&self) -> Self {
        Property {
            gen: self.gen.clone(),
            test: self.test.clone(),
            describe: self.describe.clone(),
            examples: self.examples.clone(),
        }
    }
}

impl<V: Debug + 'static> Property<V> {
    /// The property that `test` holds for every value `gen()` makes. `gen`
    /// is called once on each thread that runs cases; `test` returns `()`,
    /// `bool` or a `Result` (see [`IntoOutcome`]).
    ///
    /// ```
    /// use reflect_core::combinators::{int, vec};
    /// use reflect_runtime::{config::Config, runner::Property};
    ///
    /// let p = Property::new(|| vec(int(0u8..=9), 0..=5), |xs: Vec<u8>| xs.len() <= 5);
    /// let report = p.check(&Config::new("doc").cases(50)).unwrap();
    /// assert_eq!(report.cases, 50);
    /// ```
    pub fn new<G, R>(gen: impl Fn() -> G + Send + Sync + 'static, test: impl Fn(V) -> R + Send + Sync + 'static) -> Self
    where
        G: Gen<Value = V> + 'static,
        R: IntoOutcome,
    {
        Property {
            gen: Arc::new(move || std::rc::Rc::new(gen()) as BoxGen<V>),
            test: Arc::new(move |v| test(v).into_outcome()),
            describe: Arc::new(|v: &V| vec![("value".to_owned(), format!("{v:?}"))]),
            examples: Vec::new(),
        }
    }
}

impl<V: 'static> Property<V> {
    /// Describe a value as named arguments, for reports (the default is one
    /// argument called `value`, its `Debug`).
    pub fn describe(mut self, describe: impl Fn(&V) -> Vec<(String, String)> + Send + Sync + 'static) -> Self {
        self.describe = Arc::new(describe);
        self
    }

    /// Run the value `make` returns before any generated case. It is
    /// reflected into its choices, so if it fails it is shrunk like any case;
    /// a value the generator cannot make is reported as an error.
    pub fn example(mut self, make: impl Fn() -> V + Send + Sync + 'static) -> Self {
        self.examples.push(Arc::new(make));
        self
    }

    /// Run the property under `config`.
    pub fn check(&self, config: &Config) -> Result<Report, RunError> {
        Run::new(self.clone(), config).go()
    }

    /// Run the property under `config` and panic with the report if it does
    /// not pass (what `#[property]` calls).
    pub fn assert(&self, config: &Config) {
        match self.check(config) {
            Ok(report) => {
                if config.statistics {
                    eprintln!("{}", report.statistics());
                }
                if let Some(note) = &report.replay_note {
                    eprintln!("{note}");
                }
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// The generator of one argument of a `#[property]`, from a `#[gen(EXPR)]`
/// attribute: any generator of the argument's type, boxed.
pub fn argument<T, G: Gen<Value = T> + 'static>(gen: G) -> BoxGen<T> {
    std::rc::Rc::new(gen)
}

/// Compiles only when `T` is `Debug`: `#[property]` checks each argument's type with it.
#[doc(hidden)]
pub fn argument_is_debug<T: Debug>() {}

/// Compiles only when `R` is a property outcome: `#[property]` checks the return type with it.
#[doc(hidden)]
pub fn returns_outcome<R: IntoOutcome>() {}

/// The result of a run that passed.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The property's name.
    pub name: String,
    /// The run's seed.
    pub seed: u64,
    /// Valid cases that passed.
    pub cases: u64,
    /// Cases discarded (`assume!`, or the generator's validity condition).
    pub discards: u64,
    /// Remembered failures replayed first.
    pub regressions_replayed: usize,
    /// Examples written by hand that ran.
    pub examples_run: usize,
    /// How many valid cases had each label.
    pub labels: BTreeMap<String, u64>,
    /// Warnings met on the way (such as a corrupt regressions file).
    pub warnings: Vec<String>,
    /// Set when the run only replayed a token, and the case passed.
    pub replay_note: Option<String>,
    /// The guide's name.
    pub guide: String,
}

impl Report {
    /// The distribution of labels as a table.
    pub fn statistics(&self) -> String {
        let mut out =
            format!("statistics of `{}` ({} valid cases, {} discarded):\n", self.name, self.cases, self.discards);
        if self.labels.is_empty() {
            out.push_str("  (no labels; label cases with `label!` or `classify!`)\n");
        }
        let mut rows: Vec<_> = self.labels.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
        for (label, n) in rows {
            let pct = if self.cases == 0 { 0.0 } else { 100.0 * *n as f64 / self.cases as f64 };
            out.push_str(&format!("  {label:<width$}  {n:>7}  {pct:>5.1}%\n"));
        }
        out
    }
}

/// How a failing case failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureKind {
    /// The property panicked, returned `false` or returned `Err`.
    Failed,
    /// The case ran longer than the time limit.
    Hung(Duration),
}

/// Where a failing case came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The `n`-th generated case (0-based).
    Generated(u64),
    /// A remembered failure from this file.
    Regression(PathBuf),
    /// The `n`-th example written by hand.
    Example(usize),
    /// A replay token.
    Replay,
}

/// A failing case, shrunk, with everything needed to reproduce it. Its
/// `Display` is the report `#[property]` prints.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The property's name.
    pub name: String,
    /// The run's seed.
    pub seed: u64,
    /// The guide's name.
    pub guide: String,
    /// Each argument's name and `Debug`.
    pub args: Vec<(String, String)>,
    /// Why the case failed: the panic message and location, or what the property returned.
    pub reason: String,
    /// How it failed.
    pub kind: FailureKind,
    /// Valid cases that passed before it.
    pub cases: u64,
    /// Cases discarded before it.
    pub discards: u64,
    /// What shrinking did.
    pub shrink: ShrinkStats,
    /// The choices of the final case.
    pub tree: ChoiceTree,
    /// The one-line replay token of the final case (see [`crate::token`]).
    pub token: String,
    /// Where the failing case came from.
    pub origin: Origin,
    /// Where it was remembered, if it was.
    pub saved_to: Option<PathBuf>,
    /// Set when the shrunk case passed when replayed for the report: the
    /// property is flaky (depends on more than its arguments).
    pub flaky: bool,
    /// Warnings met on the way.
    pub warnings: Vec<String>,
}

impl Failure {
    /// The test's name as `cargo test` filters it (the name without its crate).
    fn test_filter(&self) -> &str {
        self.name.split_once("::").map_or(&self.name, |(_, rest)| rest)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match &self.kind {
            FailureKind::Failed => "failed".to_owned(),
            FailureKind::Hung(d) => format!("hung (stopped after the time limit of {d:?})"),
        };
        let from = match &self.origin {
            Origin::Generated(n) => format!("on generated case #{n}"),
            Origin::Regression(p) => format!("on a remembered failure from {}", p.display()),
            Origin::Example(n) => format!("on example #{n}"),
            Origin::Replay => "on the replayed case".to_owned(),
        };
        writeln!(f, "property `{}` {how} {from}", self.name)?;
        writeln!(f, "minimal failing input:")?;
        for (name, value) in &self.args {
            writeln!(f, "    {name} = {value}")?;
        }
        writeln!(f, "reason: {}", self.reason)?;
        if self.flaky {
            writeln!(f, "warning: this input passed when replayed: the property is flaky")?;
        }
        writeln!(
            f,
            "seed: {:#x}, guide: {}, {} cases passed, {} discarded, {} shrink steps ({} tried{})",
            self.seed,
            self.guide,
            self.cases,
            self.discards,
            self.shrink.steps,
            self.shrink.attempts,
            if self.shrink.budget_exhausted { ", budget exhausted" } else { "" }
        )?;
        writeln!(f, "replay: REFLECT_REPLAY={} cargo test {}", self.token, self.test_filter())?;
        if let Some(p) = &self.saved_to {
            writeln!(f, "remembered in {} (replayed first from now on)", p.display())?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}

/// Why a run did not pass.
#[derive(Debug, Clone)]
pub enum RunError {
    /// A case failed.
    Failed(Box<Failure>),
    /// Most cases were discarded: passing would be vacuous.
    Vacuous {
        /// The property's name.
        name: String,
        /// Valid cases that passed.
        valid: u64,
        /// Cases discarded.
        discards: u64,
        /// The valid cases asked for.
        wanted: u64,
        /// The most common reasons for discarding, with counts.
        reasons: Vec<(String, u64)>,
    },
    /// The replay token could not be read.
    BadToken(token::TokenError),
    /// An example written by hand is not a value the generator can make.
    BadExample {
        /// The property's name.
        name: String,
        /// Which example (0-based).
        index: usize,
        /// Its `Debug`.
        value: String,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Failed(fail) => fmt::Display::fmt(fail, f),
            RunError::Vacuous { name, valid, discards, wanted, reasons } => {
                writeln!(
                    f,
                    "property `{name}` gave up: {discards} cases were discarded and only {valid} of the {wanted} wanted were valid, so passing would say little."
                )?;
                for (r, n) in reasons {
                    writeln!(f, "    discarded {n} times: {r}")?;
                }
                write!(
                    f,
                    "Generate valid inputs directly (a generator that only makes valid values, or `#[assume]` on the type so every guide learns it), or use a guide that learns validity, e.g. `#[property(guide = rl)]`."
                )
            }
            RunError::BadToken(e) => write!(f, "REFLECT_REPLAY: {e}"),
            RunError::BadExample { name, index, value } => write!(
                f,
                "property `{name}`: example #{index} ({value}) is not a value the generator can make, so it cannot be reflected into choices"
            ),
        }
    }
}

impl std::error::Error for RunError {}

// ---------------------------------------------------------------- the worker

/// How one case ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Status {
    Passed,
    Discarded(String),
    Failed(String),
    Hung(Duration),
    /// An example that the generator cannot make.
    NotInRange(String),
}

impl Status {
    fn fails(&self) -> bool {
        matches!(self, Status::Failed(_) | Status::Hung(_))
    }

    fn describe(&self) -> String {
        match self {
            Status::Passed => "it passed".to_owned(),
            Status::Discarded(why) => format!("it was discarded: {why}"),
            Status::Failed(why) => why.clone(),
            Status::Hung(d) => format!("it ran longer than the time limit of {d:?}"),
            Status::NotInRange(v) => format!("{v} is not a value the generator can make"),
        }
    }
}

enum Cmd {
    Generate { seed: u64, render: bool },
    Replay { tree: ChoiceTree, seed: u64, render: bool, test: bool },
    Sequence { choices: Vec<Choice>, render: bool },
    Example { index: usize, render: bool },
}

/// What the worker says about one case.
#[derive(Debug, Clone)]
pub(crate) struct CaseResult {
    pub(crate) tree: ChoiceTree,
    pub(crate) status: Status,
    pub(crate) args: Option<Vec<(String, String)>>,
    pub(crate) labels: Vec<String>,
    pub(crate) utility: Option<f64>,
    pub(crate) gen_time: Duration,
    pub(crate) test_time: Duration,
}

enum Msg {
    Started(ChoiceTree, Option<Vec<(String, String)>>),
    Done(CaseResult),
}

struct Worker<V> {
    prop: Property<V>,
    gen: BoxGen<V>,
    guide: Box<dyn Guide>,
    seen: HashSet<u64>,
}

thread_local! {
    static QUIET: Cell<bool> = const { Cell::new(false) };
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Installs (once) a panic hook that keeps the panics of cases quiet and
/// notes where they happened; every other panic goes to the previous hook.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if QUIET.with(Cell::get) {
                let loc = info.location().map(|l| format!(" at {}:{}:{}", l.file(), l.line(), l.column()));
                LAST_PANIC.with(|p| *p.borrow_mut() = loc);
            } else {
                previous(info)
            }
        }));
    });
}

fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic with a non-string payload".to_owned()
    }
}

impl<V: 'static> Worker<V> {
    fn new(prop: Property<V>, guide: &crate::config::GuideFactory) -> Self {
        let gen = (prop.gen)();
        Worker { prop, gen, guide: guide(), seen: HashSet::new() }
    }

    /// Makes the value of one case.
    fn make(&mut self, cmd: &Cmd) -> Made<V> {
        let gen = &self.gen;
        let made = match cmd {
            Cmd::Generate { seed, .. } => {
                let guide = &mut self.guide;
                catch_unwind(AssertUnwindSafe(|| {
                    let mut src = GuidedSource::new(&mut **guide, *seed);
                    src.begin_case();
                    Made::from(run_recorded(gen, src).0)
                }))
            }
            Cmd::Replay { tree, seed, .. } => {
                catch_unwind(AssertUnwindSafe(|| Made::from(replay_lenient(gen, tree, *seed))))
            }
            Cmd::Sequence { choices, .. } => {
                catch_unwind(AssertUnwindSafe(|| Made::from(token::replay_sequence(gen, choices))))
            }
            Cmd::Example { index, .. } => {
                let make = self.prop.examples[*index].clone();
                let describe = self.prop.describe.clone();
                catch_unwind(AssertUnwindSafe(|| {
                    let v = make();
                    match reflect(gen, &v).into_iter().next() {
                        Some(tree) => Made::Value(v, tree),
                        None => Made::NotInRange(
                            describe(&v).into_iter().map(|(n, d)| format!("{n} = {d}")).collect::<Vec<_>>().join(", "),
                        ),
                    }
                }))
            }
        };
        made.unwrap_or_else(|payload| {
            let loc = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
            Made::Panicked(format!("the generator panicked{loc}: {}", panic_message(&*payload)))
        })
    }

    /// Runs one case; `started` hears the choice tree (and the arguments,
    /// when rendered) before the property runs.
    fn run(&mut self, cmd: Cmd, started: &mut dyn FnMut(&ChoiceTree, &Option<Args>)) -> CaseResult {
        QUIET.with(|q| q.set(true));
        let t0 = Instant::now();
        let made = self.make(&cmd);
        let (render, test, guided) = match cmd {
            Cmd::Generate { render, .. } => (render, true, true),
            Cmd::Replay { render, test, .. } => (render, test, false),
            Cmd::Sequence { render, .. } | Cmd::Example { render, .. } => (render, true, false),
        };
        let mut result = CaseResult {
            tree: ChoiceTree::root(Vec::new()),
            status: Status::Passed,
            args: None,
            labels: Vec::new(),
            utility: None,
            gen_time: t0.elapsed(),
            test_time: Duration::ZERO,
        };
        let mut value_key = None;
        match made {
            Made::Panicked(reason) => result.status = Status::Failed(reason),
            Made::NotInRange(shown) => result.status = Status::NotInRange(shown),
            Made::NoValue(stop, tree) => {
                result.tree = tree;
                result.status = Status::Discarded(match stop {
                    Stop::Invalid => "the generator's validity condition rejected the value".to_owned(),
                    other => format!("the generator gave no value: {other}"),
                });
            }
            Made::Value(value, tree) => {
                result.tree = tree;
                if render || guided {
                    let args = (self.prop.describe)(&value);
                    // Uniqueness for guides is structural equality of the value, read off its `Debug`.
                    let mut h = DefaultHasher::new();
                    args.hash(&mut h);
                    value_key = Some(h.finish());
                    if render {
                        result.args = Some(args);
                    }
                }
                started(&result.tree, &result.args);
                if test {
                    let test = self.prop.test.clone();
                    case::begin();
                    let t1 = Instant::now();
                    let outcome = catch_unwind(AssertUnwindSafe(move || test(value)));
                    result.test_time = t1.elapsed();
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
            }
        }
        if guided {
            // A case with no value is invalid, and never new.
            let new = value_key.is_some_and(|k| self.seen.insert(k));
            let valid = !matches!(result.status, Status::Discarded(_));
            self.guide.feedback(&Feedback { valid, new, utility: result.utility });
        }
        QUIET.with(|q| q.set(false));
        result
    }
}

/// The value of a case, or why there is none.
enum Made<V> {
    Value(V, ChoiceTree),
    NoValue(Stop, ChoiceTree),
    NotInRange(String),
    Panicked(String),
}

impl<V> From<(Result<V, Stop>, ChoiceTree)> for Made<V> {
    fn from((r, tree): (Result<V, Stop>, ChoiceTree)) -> Self {
        match r {
            Ok(v) => Made::Value(v, tree),
            Err(stop) => Made::NoValue(stop, tree),
        }
    }
}

/// Runs cases inline, or on a worker thread with a time limit.
enum Exec<V: 'static> {
    Inline(Box<Worker<V>>),
    Threaded { prop: Property<V>, config: Box<Config>, timeout: Duration, chan: Option<(Sender<Cmd>, Receiver<Msg>)> },
}

impl<V: 'static> Exec<V> {
    fn new(prop: Property<V>, config: &Config) -> Self {
        install_panic_hook();
        match config.case_timeout {
            None => Exec::Inline(Box::new(Worker::new(prop, &config.guide))),
            Some(timeout) => Exec::Threaded { prop, config: Box::new(config.clone()), timeout, chan: None },
        }
    }

    fn guide_name(&mut self) -> String {
        match self {
            Exec::Inline(w) => w.guide.name().to_owned(),
            Exec::Threaded { config, .. } => (config.guide)().name().to_owned(),
        }
    }

    fn run(&mut self, cmd: Cmd) -> CaseResult {
        match self {
            Exec::Inline(w) => w.run(cmd, &mut |_, _| {}),
            Exec::Threaded { prop, config, timeout, chan } => {
                if chan.is_none() {
                    *chan = Some(spawn_worker(prop.clone(), config.guide.clone()));
                }
                let (tx, rx) = chan.as_ref().expect("a worker");
                let deadline = Instant::now() + *timeout;
                if tx.send(cmd).is_err() {
                    *chan = None;
                    return hung(ChoiceTree::root(Vec::new()), None, Duration::ZERO, "the worker thread ended");
                }
                let mut tree = ChoiceTree::root(Vec::new());
                let mut args = None;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    match rx.recv_timeout(left) {
                        Ok(Msg::Started(t, a)) => (tree, args) = (t, a),
                        Ok(Msg::Done(r)) => return r,
                        Err(RecvTimeoutError::Timeout) => {
                            // Abandon the worker: it may never come back.
                            *chan = None;
                            return hung(tree, args, *timeout, "");
                        }
                        Err(RecvTimeoutError::Disconnected) => {
                            *chan = None;
                            return hung(tree, args, Duration::ZERO, "the worker thread ended");
                        }
                    }
                }
            }
        }
    }
}

fn hung(tree: ChoiceTree, args: Option<Vec<(String, String)>>, after: Duration, why: &str) -> CaseResult {
    CaseResult {
        tree,
        status: if why.is_empty() { Status::Hung(after) } else { Status::Failed(why.to_owned()) },
        args,
        labels: Vec::new(),
        utility: None,
        gen_time: Duration::ZERO,
        test_time: after,
    }
}

fn spawn_worker<V: 'static>(prop: Property<V>, guide: crate::config::GuideFactory) -> (Sender<Cmd>, Receiver<Msg>) {
    let (cmd_tx, cmd_rx) = channel::<Cmd>();
    let (msg_tx, msg_rx) = channel::<Msg>();
    // The property's closures are `Send + Sync`; the generator, guide and
    // values are made on the worker and never leave it.
    let spawned = std::thread::Builder::new().name("reflect-case".into()).spawn(move || {
        let mut worker = Worker::new(prop, &guide);
        while let Ok(cmd) = cmd_rx.recv() {
            let tx = msg_tx.clone();
            let r = worker.run(cmd, &mut |t, args| {
                let _ = tx.send(Msg::Started(t.clone(), args.clone()));
            });
            if msg_tx.send(Msg::Done(r)).is_err() {
                break;
            }
        }
    });
    if let Err(e) = spawned {
        panic!("reflect: cannot start a thread to run cases: {e}");
    }
    (cmd_tx, msg_rx)
}

// ---------------------------------------------------------------- the run

/// The seed of generated case `i` of a run with seed `seed` (SplitMix64 of both).
pub fn case_seed(seed: u64, i: u64) -> u64 {
    let mut z = seed ^ i.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

struct Run<V: 'static> {
    prop: Property<V>,
    config: Config,
    exec: Exec<V>,
    seed: u64,
    guide: String,
    observer: Option<Observer>,
    report: Report,
    render: bool,
}

impl<V: 'static> Run<V> {
    fn new(prop: Property<V>, config: &Config) -> Self {
        let mut exec = Exec::new(prop.clone(), config);
        let seed = config.effective_seed();
        let guide = exec.guide_name();
        let mut warnings = Vec::new();
        let observer = config.observability.as_ref().and_then(|p| match Observer::open(p, &config.name) {
            Ok(o) => Some(o),
            Err(e) => {
                warnings.push(format!("cannot write observations to {}: {e}", p.display()));
                None
            }
        });
        let render = observer.is_some();
        let report = Report { name: config.name.clone(), seed, guide: guide.clone(), warnings, ..Report::default() };
        Run { prop, config: config.clone(), exec, seed, guide, observer, report, render }
    }

    fn warn(&mut self, w: String) {
        eprintln!("reflect: warning: {w}");
        self.report.warnings.push(w);
    }

    fn case(&mut self, cmd: Cmd, how: &str) -> CaseResult {
        let r = self.exec.run(cmd);
        if let Some(o) = &mut self.observer {
            o.record(&r, how, &self.guide);
        }
        r
    }

    fn go(mut self) -> Result<Report, RunError> {
        for w in std::mem::take(&mut self.report.warnings) {
            self.warn(w);
        }
        // 1. A replay token: only that case.
        if let Some(tok) = self.config.replay.clone() {
            let choices = token::decode(&tok).map_err(RunError::BadToken)?;
            let r = self.case(Cmd::Sequence { choices, render: true }, "replayed from a token");
            if r.status.fails() {
                return Err(self.failure(r, Origin::Replay));
            }
            return match r.status {
                Status::Discarded(why) => {
                    self.report.replay_note = Some(format!("the replayed case was discarded: {why}"));
                    Ok(self.report)
                }
                _ => {
                    self.report.replay_note = Some("the replayed case passed".to_owned());
                    self.report.cases = 1;
                    Ok(self.report)
                }
            };
        }
        // 2. Remembered failures, then examples.
        let mut store = None;
        if let Some(dir) = self.config.regressions.clone() {
            let (s, warning) = Store::open(&dir, &self.config.name);
            if let Some(w) = warning {
                self.warn(w);
            }
            for entry in s.entries.clone() {
                self.report.regressions_replayed += 1;
                let render = self.render;
                let r = self.case(
                    Cmd::Replay { tree: entry.tree, seed: self.seed, render, test: true },
                    "replayed from regressions",
                );
                if r.status.fails() {
                    let origin = Origin::Regression(s.path.clone());
                    return Err(self.fail_and_remember(r, origin, Some(s)));
                }
                self.count(&r);
            }
            store = Some(s);
        }
        for index in 0..self.prop.examples.len() {
            let render = self.render;
            let r = self.case(Cmd::Example { index, render }, "an explicit example");
            self.report.examples_run += 1;
            if let Status::NotInRange(value) = r.status {
                return Err(RunError::BadExample { name: self.config.name.clone(), index, value });
            }
            if r.status.fails() {
                return Err(self.fail_and_remember(r, Origin::Example(index), store));
            }
            self.count(&r);
        }
        // 3. Generated cases.
        let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
        let mut i = 0u64;
        while self.report.cases < self.config.cases {
            let render = self.render;
            let r = self.case(Cmd::Generate { seed: case_seed(self.seed, i), render }, "generated");
            if r.status.fails() {
                return Err(self.fail_and_remember(r, Origin::Generated(i), store));
            }
            if let Status::Discarded(why) = &r.status {
                *reasons.entry(why.clone()).or_insert(0) += 1;
            }
            self.count(&r);
            i += 1;
            let limit = self.config.cases.saturating_mul(self.config.max_discard_ratio).max(1);
            if self.report.discards >= limit && self.report.discards > self.report.cases {
                let mut reasons: Vec<_> = reasons.into_iter().collect();
                reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
                reasons.truncate(3);
                return Err(RunError::Vacuous {
                    name: self.config.name.clone(),
                    valid: self.report.cases,
                    discards: self.report.discards,
                    wanted: self.config.cases,
                    reasons,
                });
            }
        }
        Ok(self.report)
    }

    fn count(&mut self, r: &CaseResult) {
        match r.status {
            Status::Discarded(_) => self.report.discards += 1,
            Status::Passed => {
                self.report.cases += 1;
                for l in &r.labels {
                    *self.report.labels.entry(l.clone()).or_insert(0) += 1;
                }
            }
            _ => {}
        }
    }

    fn fail_and_remember(&mut self, r: CaseResult, origin: Origin, store: Option<Store>) -> RunError {
        let mut err = self.failure(r, origin);
        if let (RunError::Failed(f), Some(mut store)) = (&mut err, store) {
            match store.add(f.tree.clone(), f.reason.clone()) {
                Ok(()) => f.saved_to = Some(store.path.clone()),
                Err(e) => f.warnings.push(format!("cannot remember the failure in {}: {e}", store.path.display())),
            }
        }
        err
    }

    /// Shrinks (when asked) the failing case `tree`, replays it for the report, and builds the failure.
    fn failure(&mut self, first: CaseResult, origin: Origin) -> RunError {
        let status = first.status;
        let shrink_it = matches!(status, Status::Failed(_));
        let mut tree = first.tree;
        let mut stats = ShrinkStats::default();
        let shrink_seed = self.seed;
        if shrink_it {
            let budget = Budget { max_steps: self.config.max_shrink_steps, max_time: self.config.max_shrink_time };
            let (t, s) = shrink::shrink(tree, budget, |cand| {
                let render = self.render;
                let r =
                    self.case(Cmd::Replay { tree: cand.clone(), seed: shrink_seed, render, test: true }, "shrinking");
                matches!(r.status, Status::Failed(_)).then_some(r.tree)
            });
            tree = t;
            stats = s;
        }
        // Replay the final case once more for its arguments; a hung case is
        // only generated again, not run (it would hang again).
        let test = !matches!(status, Status::Hung(_));
        let last = self
            .case(Cmd::Replay { tree: tree.clone(), seed: shrink_seed, render: true, test }, "minimal failing case");
        let (kind, reason, flaky) = match (&status, &last.status) {
            (Status::Hung(d), _) => {
                (FailureKind::Hung(*d), format!("it ran longer than the time limit of {d:?}"), false)
            }
            (_, Status::Failed(reason)) => (FailureKind::Failed, reason.clone(), false),
            (Status::Failed(reason), other) => {
                (FailureKind::Failed, format!("{reason} (but when replayed: {})", other.describe()), true)
            }
            (_, other) => (FailureKind::Failed, other.describe(), true),
        };
        let args = last.args.unwrap_or_else(|| vec![("choices".to_owned(), tree.to_string())]);
        let token = token::encode(&tree.choices());
        RunError::Failed(Box::new(Failure {
            name: self.config.name.clone(),
            seed: self.seed,
            guide: self.guide.clone(),
            args,
            reason,
            kind,
            cases: self.report.cases,
            discards: self.report.discards,
            shrink: stats,
            tree,
            token,
            origin,
            saved_to: None,
            flaky,
            warnings: self.report.warnings.clone(),
        }))
    }
}
