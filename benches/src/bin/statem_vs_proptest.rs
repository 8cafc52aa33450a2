//! Side by side with `proptest-state-machine` on the same models and planted bugs: tests to the first failure, shrunk length, shrink time.
//!
//! Run with `cargo run --release -p refgen-benches --bin statem_vs_proptest`. Both
//! libraries test `BuggyStore` against a `BTreeMap` model with the same
//! commands, the same weights (any command 3, a `Remove` of a present key
//! 1), up to 32 commands, and the same postcondition. The shortest failing
//! sequence has 6 commands (four keys put, one of them put again, removed).
//! Then both test the `Arena` allocator (an allocation 2, the freeing of a
//! live block 1), whose shortest failing sequence has 2 commands and needs
//! allocations merged into a larger one to be reached.
//! proptest's `apply` sees the model state after the command, so its system
//! under test keeps the state before it to check the same postcondition.

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config as PtConfig, RngAlgorithm, TestError, TestRng, TestRunner};
use proptest_state_machine::{ReferenceStateMachine, StateMachineTest};
use refgen::interpret::generate;
use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{check_state_machine, state_machine_property, StateMachine};
use refgen_fixtures::statem_models::{Arena, ArenaMachine, BuggyStore, Kv, KvMachine, Mem};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const CASES: u32 = 10_000;
const SEEDS: u64 = 10;

// ---------------------------------------------------------------- proptest-state-machine

struct KvRef;

impl ReferenceStateMachine for KvRef {
    type State = BTreeMap<u8, u32>;
    type Transition = Kv;

    fn init_state() -> BoxedStrategy<Self::State> {
        Just(BTreeMap::new()).boxed()
    }

    fn transitions(state: &Self::State) -> BoxedStrategy<Kv> {
        let any = prop_oneof![
            (0u8..=7, 0u32..=99).prop_map(|(k, v)| Kv::Put(k, v)),
            (0u8..=7).prop_map(Kv::Get),
            (0u8..=7).prop_map(Kv::Remove),
        ];
        if state.is_empty() {
            return any.boxed();
        }
        let keys: Vec<u8> = state.keys().copied().collect();
        prop_oneof![3 => any, 1 => proptest::sample::select(keys).prop_map(Kv::Remove)].boxed()
    }

    fn apply(mut state: Self::State, t: &Kv) -> Self::State {
        KvMachine.next_state(&mut state, t);
        state
    }

    fn preconditions(state: &Self::State, t: &Kv) -> bool {
        KvMachine.precondition(state, t)
    }
}

/// Test cases proptest ran, and the count when the first failure happened.
static CASES_RUN: AtomicU64 = AtomicU64::new(0);
static FIRST_FAILURE: Mutex<Option<(u64, Instant)>> = Mutex::new(None);

/// The store, with the model state before the next command (proptest's
/// `apply` is given the state after it).
struct Checked {
    store: BuggyStore,
    before: BTreeMap<u8, u32>,
}

struct KvTest;

impl StateMachineTest for KvTest {
    type SystemUnderTest = Checked;
    type Reference = KvRef;

    fn init_test(_: &BTreeMap<u8, u32>) -> Checked {
        CASES_RUN.fetch_add(1, Ordering::SeqCst);
        Checked { store: BuggyStore::default(), before: BTreeMap::new() }
    }

    fn apply(mut sut: Checked, after: &BTreeMap<u8, u32>, t: Kv) -> Checked {
        let out = KvMachine.run(&mut sut.store, &t);
        if !KvMachine.postcondition(&sut.before, &t, &out) {
            first_failure();
            panic!("{t:?} returned {out:?}");
        }
        sut.before = after.clone();
        sut
    }
}

/// Notes the first failure proptest saw (the count of cases then, and when).
fn first_failure() {
    let mut first = FIRST_FAILURE.lock().unwrap();
    if first.is_none() {
        *first = Some((CASES_RUN.load(Ordering::SeqCst), Instant::now()));
    }
}

struct MemRef;

impl ReferenceStateMachine for MemRef {
    type State = Vec<u8>;
    type Transition = Mem;

    fn init_state() -> BoxedStrategy<Self::State> {
        Just(Vec::new()).boxed()
    }

    fn transitions(live: &Self::State) -> BoxedStrategy<Mem> {
        let alloc = (1u8..=8).prop_map(Mem::Alloc);
        if live.is_empty() {
            return alloc.boxed();
        }
        prop_oneof![2 => alloc, 1 => (0..live.len() as u8).prop_map(Mem::Free)].boxed()
    }

    fn apply(mut state: Self::State, t: &Mem) -> Self::State {
        ArenaMachine.next_state(&mut state, t);
        state
    }

    fn preconditions(state: &Self::State, t: &Mem) -> bool {
        ArenaMachine.precondition(state, t)
    }
}

/// The arena, with the model state before the next command.
struct ArenaChecked {
    arena: Arena,
    before: Vec<u8>,
}

struct MemTest;

impl StateMachineTest for MemTest {
    type SystemUnderTest = ArenaChecked;
    type Reference = MemRef;

    fn init_test(_: &Vec<u8>) -> ArenaChecked {
        CASES_RUN.fetch_add(1, Ordering::SeqCst);
        ArenaChecked { arena: Arena::default(), before: Vec::new() }
    }

    fn apply(mut sut: ArenaChecked, after: &Vec<u8>, t: Mem) -> ArenaChecked {
        let out = ArenaMachine.run(&mut sut.arena, &t);
        if !ArenaMachine.postcondition(&sut.before, &t, &out) {
            first_failure();
            panic!("{t:?} returned {out:?}");
        }
        sut.before = after.clone();
        sut
    }
}

/// proptest-state-machine on `seed` with the test `T`: tests to the first failure, shrunk length, shrink time.
fn proptest_run<T: StateMachineTest>(seed: u64) -> Option<(u64, usize, Duration)>
where
    <T::Reference as ReferenceStateMachine>::State: Clone + std::fmt::Debug,
    <T::Reference as ReferenceStateMachine>::Transition: Clone + std::fmt::Debug,
{
    CASES_RUN.store(0, Ordering::SeqCst);
    *FIRST_FAILURE.lock().unwrap() = None;
    let config = PtConfig { cases: CASES, failure_persistence: None, ..PtConfig::default() };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(config.clone(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    let result = runner.run(&T::Reference::sequential_strategy(0..=32), |(init, transitions, seen)| {
        T::test_sequential(config.clone(), init, transitions, seen);
        Ok(())
    });
    let end = Instant::now();
    match result {
        Err(TestError::Fail(_, (_, transitions, _))) => {
            let (tests, at) = FIRST_FAILURE.lock().unwrap().expect("a failure was seen");
            Some((tests, transitions.len(), end - at))
        }
        _ => None,
    }
}

// ---------------------------------------------------------------- this library

/// This library on `seed` with the machine `M`: tests to the first failure, shrunk length, shrink time.
fn reflect_run<M: StateMachine + Default + Send + Sync>(seed: u64) -> Option<(u64, usize, Duration)> {
    let config = Config::new("statem_vs_proptest").seed(seed).cases(CASES as u64).no_timeout();
    match check_state_machine(M::default(), &config) {
        Err(RunError::Failed(f)) => {
            let shrunk = state_machine_property(M::default()).value_of(&f).expect("the shrunk case parses");
            Some((f.tests, shrunk.len(), f.shrink.elapsed))
        }
        _ => None,
    }
}

/// One table: per seed, each library's tests to the first failure, shrunk length and shrink time,
/// and how many seeds shrank to `shortest` commands.
fn table(title: &str, shortest: usize, runs: impl Fn(u64) -> [Option<(u64, usize, Duration)>; 2]) {
    println!("{title}: tests to first failure / shrunk length / shrink time, per seed");
    println!("{:<6}{:>28}{:>34}", "seed", "reflect (statem)", "proptest-state-machine 0.8");
    let mut sums = [(0u64, 0usize, Duration::ZERO, 0u64); 2];
    let mut minimal = [0u64; 2];
    for seed in 1..=SEEDS {
        let rows = runs(seed);
        let cell = |r: &Option<(u64, usize, Duration)>| match r {
            Some((t, n, d)) => format!("{t:>6} / {n:>2} / {:>9.1?}", d),
            None => "not found".to_owned(),
        };
        println!("{seed:<6}{:>28}{:>34}", cell(&rows[0]), cell(&rows[1]));
        for ((s, m), r) in sums.iter_mut().zip(&mut minimal).zip(&rows) {
            if let Some((t, n, d)) = r {
                *s = (s.0 + t, s.1 + n, s.2 + *d, s.3 + 1);
                *m += u64::from(*n == shortest);
            }
        }
    }
    let mean = |s: &(u64, usize, Duration, u64)| {
        let k = s.3.max(1);
        format!("{:>6.1} / {:>4.1} / {:>9.1?}", s.0 as f64 / k as f64, s.1 as f64 / k as f64, s.2 / k as u32)
    };
    println!("{:<6}{:>28}{:>34}", "mean", mean(&sums[0]), mean(&sums[1]));
    println!(
        "shortest ({shortest} commands) on {}/{SEEDS} seeds (reflect), {}/{SEEDS} (proptest-state-machine)",
        minimal[0], minimal[1]
    );
}

fn main() {
    // proptest reports each failing case's panic; keep the table readable.
    std::panic::set_hook(Box::new(|_| {}));
    table("KV store with a planted bug", 6, |seed| [reflect_run::<KvMachine>(seed), proptest_run::<KvTest>(seed)]);
    println!();
    table("Arena allocator with a planted bug", 2, |seed| {
        [reflect_run::<ArenaMachine>(seed), proptest_run::<MemTest>(seed)]
    });
    println!();

    // Tests to a first failure vary much from seed to seed; how often a
    // random sequence fails says whether the two generators differ.
    let n = 20_000u64;
    let g = Commands::<KvMachine>::generator();
    let ours = (0..n).filter(|&s| generate(&g, s).is_ok_and(|c| c.check().is_err())).count();
    let strategy = KvRef::sequential_strategy(0..=32);
    let theirs = (0..n)
        .filter(|&s| {
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&s.to_le_bytes());
            let mut runner =
                TestRunner::new_with_rng(PtConfig::default(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
            strategy.new_tree(&mut runner).is_ok_and(|t| Commands::<KvMachine>::new(t.current().1).check().is_err())
        })
        .count();
    println!("failing sequences among {n} random ones: reflect {ours}, proptest-state-machine {theirs}");
}
