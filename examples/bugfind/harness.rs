//! The benchmark's machinery: the mutant switch, properties as tasks, setups (guides), trials and tables.

use super::floor::Floor;
use refgen::guides::grow::{Growing, DEFAULT_GROW, GROW_GRAFT};
use refgen::guides::{AutoGuide, CgsGuide, MutateConfig, MutateGuide, RandomGuide, RlConfig, RlGuide, SaGuide};
use refgen::prelude::*;
use refgen::runner::RunError;
use std::cell::{Cell, RefCell};
use std::collections::HashSet;
use std::fmt::Debug;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The mutant the data structure code runs (0: the correct code).
static MUTANT: AtomicUsize = AtomicUsize::new(0);

/// The mutant now selected (0 is the correct implementation).
pub fn mutant() -> usize {
    MUTANT.load(Ordering::Relaxed)
}

/// Whether mutant `m` is selected.
pub fn is(m: usize) -> bool {
    mutant() == m
}

fn select(m: usize) {
    MUTANT.store(m, Ordering::Relaxed)
}

/// Buckets of the size histogram of valid values: `0`, `1-2`, `3-4`, `5-6`, `7-9`, `10+`.
pub const BUCKETS: [&str; 6] = ["0", "1-2", "3-4", "5-6", "7-9", "10+"];

/// The bucket of [`BUCKETS`] a size falls in.
pub fn bucket(size: usize) -> usize {
    match size {
        0 => 0,
        1..=2 => 1,
        3..=4 => 2,
        5..=6 => 3,
        7..=9 => 4,
        _ => 5,
    }
}

thread_local! {
    /// Valid values seen per bucket, and the sum of their sizes.
    static SIZES: RefCell<([u64; 6], u64)> = const { RefCell::new(([0; 6], 0)) };
}

/// Whether trials run to their whole budget, counting the failing tests (`--rate`).
pub static RATE: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// While a `--rate` trial runs: its tests so far, the failing ones, and the first failing one
    /// (counted from 1; 0 while none has failed). `None` outside such a trial (the discovery and
    /// cost runs stop at a failure as usual).
    static COUNTING: Cell<Option<(u64, u64, u64)>> = const { Cell::new(None) };
}

/// Counts one test of a `--rate` trial; whether one is under way.
fn count(failed: bool) -> bool {
    COUNTING.with(|c| match c.get() {
        Some((tests, failing, first)) => {
            let first = if failed && first == 0 { tests + 1 } else { first };
            c.set(Some((tests + 1, failing + u64::from(failed), first)));
            true
        }
        None => false,
    })
}

/// Whether the run prints, per workload, what one value costs each way instead of its table (`--floor`).
pub static FLOOR: AtomicBool = AtomicBool::new(false);

/// Whether each setup's cost run prints what its guide did (`--notes`).
pub static NOTES: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// What the last run that passed did: its counts and its guide's notes, for `--notes` (taken when printed).
    static LAST_NOTES: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

thread_local! {
    /// While a cost run with `--notes` runs: a hash of each value tested so far (of its `Debug` text),
    /// and the tests; those that tested a value tested before are the tests less the hashes. `None`
    /// otherwise.
    static REPEATS: RefCell<Option<(HashSet<u64>, u64)>> = const { RefCell::new(None) };
}

/// Whether the run prints, per workload and setup, a fingerprint of the values its first property
/// tests and of what the guide says (`--golden`), for checking a change that should keep behaviour.
pub static GOLDEN: AtomicBool = AtomicBool::new(false);

thread_local! {
    /// While a `--golden` run runs: the hash of the `Debug` texts of the values tested so far, in order.
    static GOLDEN_HASH: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Folds `v` into the fingerprint of a `--golden` run, when one runs.
fn golden(v: &impl Debug) {
    GOLDEN_HASH.with(|g| {
        if let Some(h0) = g.get() {
            let mut h = DefaultHasher::new();
            h0.hash(&mut h);
            format!("{v:?}").hash(&mut h);
            g.set(Some(h.finish()));
        }
    })
}

/// `--golden`: the first property of `w` on the correct code under every setup, `budget.tests` cases
/// from `budget.seed` (no time limit): one line per setup with the run's counts, the fingerprint of
/// its values in order, and the guide's notes.
fn print_golden(w: &Workload, budget: &Budget, setup_filter: &dyn Fn(&str) -> bool) {
    for setup in setups_of(w).filter(|s| setup_filter(s.name)) {
        let c = config(format!("{}/golden/{}", w.name, w.props[0].name), budget, budget.seed)
            .max_time(Duration::from_secs(3600));
        let c = (setup.guide)(c);
        GOLDEN_HASH.with(|g| g.set(Some(0)));
        NOTES.store(true, Ordering::Relaxed);
        LAST_NOTES.with(|n| n.borrow_mut().clear());
        let t = (w.props[0].run)(setup.source, c);
        NOTES.store(false, Ordering::Relaxed);
        let hash = GOLDEN_HASH.with(|g| g.take()).unwrap_or(0);
        take_sizes();
        println!("{} {}: tests {} found {} values {hash:016x}", w.name, setup.name, t.tests, t.found);
        // The counts' times vary from run to run: only what follows them is behaviour.
        for note in LAST_NOTES.with(|n| n.take()) {
            let note = note.split_once("; making values").map_or(note.as_str(), |(counts, _)| counts);
            println!("  {note}");
        }
    }
}

/// Whether the run prints, per workload, only what a valid test costs under each setup (`--cost`).
pub static COST: AtomicBool = AtomicBool::new(false);

/// `--cost`: per setup, the first property on the correct code for the budget's tests (or seconds):
/// µs per valid test, the whole loop, and its ratio to the derived type under plain random generation.
fn print_cost(w: &Workload, budget: &Budget, setup_filter: &dyn Fn(&str) -> bool) {
    let mut random = None;
    for setup in setups_of(w).filter(|s| setup_filter(s.name) || s.name == "random") {
        let c = (setup.guide)(config(format!("{}/cost/{}", w.name, w.props[0].name), budget, budget.seed));
        let t = (w.props[0].run)(setup.source, c);
        take_sizes();
        let us = 1e6 * t.secs / t.tests.max(1) as f64;
        if setup.name == "random" {
            random = Some(us);
        }
        if setup_filter(setup.name) {
            let ratio = random.map_or(String::from("-"), |r| format!("{:.2}x", us / r));
            println!("{:<6} {:<20} {:>10.2} {:>9} {:>8}", w.name, setup.name, us, ratio, t.tests);
        }
    }
}

/// Counts a test of `v` while a cost run with `--notes` runs.
fn repeat(v: &impl Debug) {
    REPEATS.with(|r| {
        if let Some((seen, tests)) = r.borrow_mut().as_mut() {
            let mut h = DefaultHasher::new();
            format!("{v:?}").hash(&mut h);
            seen.insert(h.finish());
            *tests += 1;
        }
    })
}

/// The width of a window of `--curve` (0: no curve).
pub static CURVE: AtomicUsize = AtomicUsize::new(0);

/// How many windows of tests a `--curve` line shows.
const WINDOWS: usize = 10;

/// A window of a `--curve`: the valid values seen in it, the sum of their sizes, and how many had
/// 7 or more elements (the last two buckets).
#[derive(Debug, Clone, Copy, Default)]
struct Window {
    values: u64,
    size_sum: u64,
    large: u64,
}

thread_local! {
    /// While a trial of a `--curve` run is measured: its tests so far, and the windows of every such
    /// trial of the setup so far. `None` outside such a trial.
    static WINDOWS_SEEN: RefCell<Option<(u64, [Window; WINDOWS])>> = const { RefCell::new(None) };
}

fn record(size: usize) {
    let b = bucket(size);
    SIZES.with(|s| {
        let mut s = s.borrow_mut();
        s.0[b] += 1;
        s.1 += size as u64;
    });
    // The property loop is a measured figure: without `--curve`, one relaxed load and no more.
    if !curve() {
        return;
    }
    WINDOWS_SEEN.with(|w| {
        if let Some((tests, windows)) = w.borrow_mut().as_mut() {
            if let Some(win) = windows.get_mut(*tests as usize / CURVE.load(Ordering::Relaxed)) {
                win.values += 1;
                win.size_sum += size as u64;
                win.large += u64::from(b >= 4);
            }
            *tests += 1;
        }
    })
}

fn take_sizes() -> ([u64; 6], u64) {
    SIZES.with(|s| std::mem::take(&mut *s.borrow_mut()))
}

/// Where a trial's values come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The derived type (with its `#[assume]`) under a guide.
    Derived,
    /// The hand-written generator, valid by construction.
    Hand,
    /// The generator `#[synth]` writes from the workload's validity predicate (in the forms it
    /// reads), valid by construction.
    Synth,
}

/// How one trial went.
#[derive(Debug, Clone, Copy, Default)]
pub struct Trial {
    /// The property failed.
    pub found: bool,
    /// Tests (valid cases) up to and including the failure, or run in all.
    pub tests: u64,
    /// Wall-clock seconds.
    pub secs: f64,
}

type Runner = Box<dyn Fn(Source, Config) -> Trial>;

/// A property of a workload, runnable from either source.
pub struct Prop {
    /// The property's name.
    pub name: &'static str,
    run: Runner,
    /// `--floor`: the cost of one of its values, each way.
    floor: Box<dyn Fn() -> Floor>,
    /// Whether it has a synthesized generator.
    synthesized: bool,
}

/// A property over values of type `V`: the derived, hand-written and (where the workload has
/// one) synthesized generators, the size of a value (of its main structure), and the test.
pub fn prop<V: Debug + 'static>(
    name: &'static str,
    derived: fn() -> BoxGen<V>,
    hand: fn() -> BoxGen<V>,
    synth: Option<fn() -> BoxGen<V>>,
    size: fn(&V) -> usize,
    test: fn(&V) -> bool,
) -> Prop {
    let run = move |source: Source, config: Config| {
        let gen = match source {
            Source::Derived => derived,
            Source::Hand => hand,
            Source::Synth => synth.expect("a workload with a synthesized generator"),
        };
        let p = Property::new(gen, move |v: V| {
            record(size(&v));
            if NOTES.load(Ordering::Relaxed) {
                repeat(&v);
                golden(&v);
            }
            let ok = test(&v);
            // A `--rate` trial counts each test, and goes on past a failure.
            count(!ok) || ok
        });
        let t0 = Instant::now();
        let out = p.check(&config);
        let secs = t0.elapsed().as_secs_f64();
        match out {
            Ok(r) => {
                if NOTES.load(Ordering::Relaxed) {
                    let counts = format!(
                        "{} valid, {} discarded, {} edits rejected; making values {:.0} ms, testing them {:.0} ms",
                        r.cases,
                        r.discards,
                        r.rejected,
                        r.gen_time.as_secs_f64() * 1e3,
                        r.test_time.as_secs_f64() * 1e3
                    );
                    LAST_NOTES.with(|n| *n.borrow_mut() = std::iter::once(counts).chain(r.guide_notes).collect());
                }
                Trial { found: false, tests: r.cases, secs }
            }
            Err(RunError::Failed(f)) => Trial { found: true, tests: f.tests, secs },
            Err(RunError::Vacuous { valid, .. }) => Trial { found: false, tests: valid, secs },
            Err(e) => panic!("{name}: {e:?}"),
        }
    };
    Prop {
        name,
        run: Box::new(run),
        floor: Box::new(move || super::floor::measure(&derived(), &hand(), synth.map(|s| s()).as_ref())),
        synthesized: synth.is_some(),
    }
}

/// A workload: mutants of a data structure and properties over it.
pub struct Workload {
    /// Its name (the `--workload` filter matches it).
    pub name: &'static str,
    /// The mutants' names; mutant `i + 1` is `mutants[i]`.
    pub mutants: Vec<&'static str>,
    /// The properties.
    pub props: Vec<Prop>,
}

/// A setup: a source and, for the derived type, a guide.
#[derive(Clone, Copy)]
pub struct Setup {
    /// Its name in the tables.
    pub name: &'static str,
    /// Where values come from.
    pub source: Source,
    guide: fn(Config) -> Config,
}

impl Setup {
    /// `config` with this setup's guide.
    pub fn with_guide(&self, config: Config) -> Config {
        (self.guide)(config)
    }
}

/// Every setup: the hand-written generator, then the derived type under each guide.
pub fn setups() -> Vec<Setup> {
    let s = |name, source, guide| Setup { name, source, guide };
    vec![
        s("hand", Source::Hand, |c: Config| c.guide(|| RandomGuide)),
        s("synth", Source::Synth, |c: Config| c.guide(AutoGuide::default)),
        s("random", Source::Derived, |c: Config| c.guide(|| RandomGuide)),
        s("auto", Source::Derived, |c: Config| c.guide(AutoGuide::default)),
        // `guide = rl`, `cgs` and `sa` share their work with grafting once the validity condition
        // retries (`refgen::guides::grow`); `(grow = 0)` is the guide alone.
        s("rl", Source::Derived, |c: Config| c.guide(|| Growing::new(RlGuide::default(), DEFAULT_GROW))),
        s("rl(diverse)", Source::Derived, |c: Config| {
            c.guide(|| Growing::new(RlGuide::new(RlConfig::diverse()), DEFAULT_GROW))
        }),
        s("cgs", Source::Derived, |c: Config| c.guide(|| Growing::new(CgsGuide::default(), DEFAULT_GROW))),
        s("sa", Source::Derived, |c: Config| c.guide(|| Growing::new(SaGuide::default(), DEFAULT_GROW))),
        s("rl(grow=0)", Source::Derived, |c: Config| c.guide(RlGuide::default)),
        s("rl(diverse,grow=0)", Source::Derived, |c: Config| c.guide(|| RlGuide::new(RlConfig::diverse()))),
        s("cgs(grow=0)", Source::Derived, |c: Config| c.guide(CgsGuide::default)),
        s("sa(grow=0)", Source::Derived, |c: Config| c.guide(SaGuide::default)),
        s("mutate", Source::Derived, |c: Config| c.guide(MutateGuide::default)),
        s("mutate(splice=0)", Source::Derived, |c: Config| {
            c.guide(|| MutateGuide::new(MutateConfig::default().splice(0.0)))
        }),
        s("mutate(graft=0)", Source::Derived, |c: Config| {
            c.guide(|| MutateGuide::new(MutateConfig::default().graft(0.0)))
        }),
        // Rotations (on by default): `mutate` and the default guide's grower without them.
        s("mutate(rotate=0)", Source::Derived, |c: Config| {
            c.guide(|| MutateGuide::new(MutateConfig::default().rotate(0.0)))
        }),
        s("auto(rotate=0)", Source::Derived, |c: Config| {
            c.guide(|| {
                let grower = MutateConfig::default().fresh(1.0 - DEFAULT_GROW).graft(GROW_GRAFT).rotate(0.0);
                AutoGuide::default().grower(MutateGuide::new(grower))
            })
        }),
    ]
}

/// The setups `w` runs under: every one, but `synth` only where the workload has a synthesized generator.
fn setups_of(w: &Workload) -> impl Iterator<Item = Setup> + '_ {
    setups().into_iter().filter(|s| s.source != Source::Synth || w.props.iter().all(|p| p.synthesized))
}

/// The run's limits.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Trials per task.
    pub trials: u64,
    /// Tests (valid cases) per trial at most.
    pub tests: u64,
    /// Seconds per trial at most.
    pub secs: f64,
    /// The first seed.
    pub seed: u64,
}

fn config(name: String, budget: &Budget, seed: u64) -> Config {
    Config::new(name)
        .seed(seed)
        .cases(budget.tests)
        .max_time(Duration::from_secs_f64(budget.secs))
        .no_timeout()
        .max_shrink_steps(0)
        .max_discard_ratio(1 << 24)
}

/// A setup's results over every task.
#[derive(Debug, Default)]
struct Row {
    solved: usize,
    solved_all: usize,
    fail_secs: Vec<f64>,
    fail_tests: Vec<u64>,
    tests: u64,
    secs: f64,
    sizes: [u64; 6],
    size_sum: u64,
    missed: Vec<String>,
    loop_us: f64,
}

/// Run `w` under every setup whose name `setup_filter` accepts, over the (mutant, property) pairs
/// whose `mutant/property` name `task_filter` accepts, and print its table.
pub fn run(w: &Workload, budget: &Budget, setup_filter: &dyn Fn(&str) -> bool, task_filter: &dyn Fn(&str) -> bool) {
    if FLOOR.load(Ordering::Relaxed) {
        (w.props[0].floor)().print(w.name);
        return;
    }
    if GOLDEN.load(Ordering::Relaxed) {
        print_golden(w, budget, setup_filter);
        return;
    }
    if COST.load(Ordering::Relaxed) {
        print_cost(w, budget, setup_filter);
        return;
    }
    // Which (mutant, property) pairs are tasks: those that fail in a discovery
    // run of the hand-written generator or of the derived type under the
    // default guide (one trial each, the full budget). The correct code must
    // pass every property.
    let discovery = |source: Source, guide: fn(Config) -> Config, m: usize, p: &Prop| {
        select(m);
        let c = guide(config(format!("{}/discover/{m}/{}", w.name, p.name), budget, budget.seed ^ 0xd15c));
        let t = (p.run)(source, c);
        select(0);
        take_sizes();
        t
    };
    for p in &w.props {
        let t = discovery(Source::Hand, |c| c.guide(|| RandomGuide), 0, p);
        assert!(!t.found, "{}: the correct implementation fails {}", w.name, p.name);
    }
    let mut tasks = Vec::new();
    for m in 1..=w.mutants.len() {
        for (i, p) in w.props.iter().enumerate() {
            if !task_filter(&format!("{}/{}", w.mutants[m - 1], p.name)) {
                continue;
            }
            if discovery(Source::Hand, |c| c.guide(|| RandomGuide), m, p).found
                || discovery(Source::Derived, |c| c.guide(AutoGuide::default), m, p).found
            {
                tasks.push((m, i));
            }
        }
    }
    println!(
        "\n== {}: {} mutants x {} properties, {} tasks; {} trials per task, at most {} tests or {} s per trial",
        w.name,
        w.mutants.len(),
        w.props.len(),
        tasks.len(),
        budget.trials,
        budget.tests,
        budget.secs
    );
    if rate() {
        println!("(--rate: every trial runs its whole budget, past its failures)");
    }
    println!(
        "{:<16} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}   valid sizes: {}",
        "setup",
        "solved",
        "all_trials",
        "mean_ms",
        "med_tests",
        "us/valid",
        "loop_us",
        "valid",
        BUCKETS.map(|b| format!("{b:>5}")).join(" ")
    );
    for setup in setups_of(w).filter(|s| setup_filter(s.name)) {
        let mut row = Row::default();
        // The property loop's cost: the first property on the correct code, the whole budget of tests.
        let c = (setup.guide)(config(format!("{}/cost/{}", w.name, w.props[0].name), budget, budget.seed));
        // Only a cost run that passed leaves notes: one that failed or gave up prints none, never an earlier run's.
        LAST_NOTES.with(|n| n.borrow_mut().clear());
        let notes = NOTES.load(Ordering::Relaxed);
        REPEATS.with(|r| *r.borrow_mut() = notes.then(Default::default));
        let t = (w.props[0].run)(setup.source, c);
        let repeats = REPEATS.with(|r| r.take()).filter(|r| r.1 > 0).map(|(seen, tests)| {
            let repeats = tests - seen.len() as u64;
            let share = 100.0 * repeats as f64 / tests as f64;
            format!("{repeats} of its {tests} tests ({share:.1}%) tested a value tested before in the run")
        });
        take_sizes();
        row.loop_us = 1e6 * t.secs / t.tests.max(1) as f64;
        LAST_NOTES
            .with(|n| n.take().iter().chain(&repeats).for_each(|note| println!("  {} cost run: {note}", setup.name)));
        // With `--rate`: each task's share of failing tests.
        let mut shares = Vec::new();
        for (ti, &(m, pi)) in tasks.iter().enumerate() {
            let p = &w.props[pi];
            select(m);
            let mut found = 0;
            let (mut task_secs, mut task_tests) = (0.0, Vec::new());
            let (mut counted, mut failing, mut firsts) = (0, 0, Vec::new());
            for trial in 0..budget.trials {
                let seed = budget.seed.wrapping_add(trial * 1_000_003 + ti as u64 * 7919);
                let c = (setup.guide)(config(format!("{}/{m}/{}", w.name, p.name), budget, seed));
                if rate() {
                    COUNTING.with(|c| c.set(Some((0, 0, 0))));
                }
                if curve() {
                    WINDOWS_SEEN.with(|w| w.borrow_mut().get_or_insert_with(Default::default).0 = 0);
                }
                let t = (p.run)(setup.source, c);
                row.tests += t.tests;
                row.secs += t.secs;
                if let Some((tests, fails, first)) = COUNTING.with(Cell::take) {
                    (counted, failing) = (counted + tests, failing + fails);
                    firsts.push(first);
                    if first > 0 {
                        found += 1;
                        row.fail_tests.push(first);
                    }
                } else if t.found {
                    found += 1;
                    row.fail_secs.push(t.secs);
                    task_secs += t.secs;
                    task_tests.push(t.tests);
                    row.fail_tests.push(t.tests);
                }
            }
            select(0);
            if rate() {
                let share = failing as f64 / counted.max(1) as f64;
                shares.push(share);
                println!(
                    "    {:<16} {}/{}: {share:.4} of {counted} valid tests fail; first failing test per trial {firsts:?} (0: none)",
                    setup.name,
                    w.mutants[m - 1],
                    p.name,
                );
            } else if per_task() {
                println!(
                    "    {:<16} {}/{}: {found}/{} trials, mean_ms {:.2}, tests {:?}",
                    setup.name,
                    w.mutants[m - 1],
                    p.name,
                    budget.trials,
                    1000.0 * task_secs / found.max(1) as f64,
                    task_tests
                );
            }
            row.solved += usize::from(found > 0);
            row.solved_all += usize::from(found == budget.trials);
            if found < budget.trials {
                row.missed.push(format!("{}/{}:{}", w.mutants[m - 1], p.name, found));
            }
            let (sizes, sum) = take_sizes();
            for (a, b) in row.sizes.iter_mut().zip(sizes) {
                *a += b;
            }
            row.size_sum += sum;
        }
        let windows = WINDOWS_SEEN.with(RefCell::take);
        if rate() {
            println!(
                "{:<16} {}/{} tasks with a failing test; median first failing test {} (of the trials with one); median share of failing tests {:.4}",
                setup.name,
                row.solved,
                tasks.len(),
                median(&row.fail_tests, u64::cmp).unwrap_or(0),
                median(&shares, f64::total_cmp).unwrap_or(0.0)
            );
        } else {
            print_row(setup.name, &row, tasks.len());
        }
        if let Some((_, windows)) = windows {
            print_curve(setup.name, &windows);
        }
    }
}

fn curve() -> bool {
    CURVE.load(Ordering::Relaxed) > 0
}

/// A `--curve` line: per window of tests, the mean size of the valid values and the share of them
/// with 7 or more elements, over every trial of every task that reached the window.
fn print_curve(name: &str, windows: &[Window; WINDOWS]) {
    let width = CURVE.load(Ordering::Relaxed);
    let cells: Vec<String> = windows
        .iter()
        .map(|w| match w.values {
            0 => "-".to_owned(),
            n => format!("{:.1}/{:.0}%", w.size_sum as f64 / n as f64, 100.0 * w.large as f64 / n as f64),
        })
        .collect();
    println!("{name:<16} curve, by window of {width} tests (mean size / share of 7+): {}", cells.join(" "));
}

fn rate() -> bool {
    RATE.load(Ordering::Relaxed)
}

/// Whether each task's line is printed too (`--per-task`).
pub static PER_TASK: AtomicBool = AtomicBool::new(false);

fn per_task() -> bool {
    PER_TASK.load(Ordering::Relaxed)
}

/// The median of `xs` (the upper one of an even count) in the order `cmp`; `None` when empty.
fn median<T: Copy>(xs: &[T], cmp: impl Fn(&T, &T) -> std::cmp::Ordering) -> Option<T> {
    let mut sorted = xs.to_vec();
    sorted.sort_by(cmp);
    sorted.get(sorted.len() / 2).copied()
}

fn print_row(name: &str, row: &Row, tasks: usize) {
    let mean_ms = if row.fail_secs.is_empty() {
        f64::NAN
    } else {
        1000.0 * row.fail_secs.iter().sum::<f64>() / row.fail_secs.len() as f64
    };
    let median = median(&row.fail_tests, u64::cmp).unwrap_or(0);
    let valid: u64 = row.sizes.iter().sum();
    let us = if row.tests == 0 { f64::NAN } else { 1e6 * row.secs / row.tests as f64 };
    let shares = row.sizes.map(|n| format!("{:>4.0}%", 100.0 * n as f64 / valid.max(1) as f64)).join(" ");
    let mean_size = row.size_sum as f64 / valid.max(1) as f64;
    println!(
        "{name:<16} {:>7} {:>9} {mean_ms:>9.2} {median:>9} {us:>9.2} {:>9.2} {valid:>9}   {shares}  mean {mean_size:.1}",
        format!("{}/{tasks}", row.solved),
        row.solved_all,
        row.loop_us,
    );
    if !row.missed.is_empty() {
        let shown: Vec<&str> = row.missed.iter().take(16).map(String::as_str).collect();
        let more = row.missed.len().saturating_sub(16);
        let more = if more > 0 { format!(" (+{more} more)") } else { String::new() };
        println!("{:<16} not in every trial (mutant/property:trials solved): {}{more}", "", shown.join(" "));
    }
}
