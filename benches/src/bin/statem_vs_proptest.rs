//! Side by side with `proptest-state-machine` on the same key-value model and planted bug: tests to the first failure, shrunk length, shrink time.
//!
//! Run with `cargo run --release -p refgen-benches --bin statem_vs_proptest`. Both
//! libraries test `BuggyStore` against a `BTreeMap` model with the same
//! commands, the same weights (any command 3, a `Remove` of a present key
//! 1), up to 32 commands, and the same postcondition. The shortest failing
//! sequence has 6 commands (four keys put, one of them put again, removed).
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
use refgen_fixtures::statem_models::{BuggyStore, Kv, KvMachine};
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
        KvMachine::next_state(&mut state, t);
        state
    }

    fn preconditions(state: &Self::State, t: &Kv) -> bool {
        KvMachine::precondition(state, t)
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
        let out = KvMachine::run(&mut sut.store, &t);
        if !KvMachine::postcondition(&sut.before, &t, &out) {
            {
                let mut first = FIRST_FAILURE.lock().unwrap();
                if first.is_none() {
                    *first = Some((CASES_RUN.load(Ordering::SeqCst), Instant::now()));
                }
            }
            panic!("{t:?} returned {out:?}");
        }
        sut.before = after.clone();
        sut
    }
}

/// proptest-state-machine on `seed`: tests to the first failure, shrunk length, shrink time.
fn proptest_run(seed: u64) -> Option<(u64, usize, Duration)> {
    CASES_RUN.store(0, Ordering::SeqCst);
    *FIRST_FAILURE.lock().unwrap() = None;
    let config = PtConfig { cases: CASES, failure_persistence: None, ..PtConfig::default() };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let mut runner = TestRunner::new_with_rng(config.clone(), TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
    let result = runner.run(&KvRef::sequential_strategy(0..=32), |(init, transitions, seen)| {
        KvTest::test_sequential(config.clone(), init, transitions, seen);
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

/// This library on `seed`: tests to the first failure, shrunk length, shrink time.
fn reflect_run(seed: u64) -> Option<(u64, usize, Duration)> {
    let config = Config::new("statem_vs_proptest").seed(seed).cases(CASES as u64).no_timeout();
    match check_state_machine::<KvMachine>(&config) {
        Err(RunError::Failed(f)) => {
            let shrunk = state_machine_property::<KvMachine>().value_of(&f).expect("the shrunk case parses");
            Some((f.tests, shrunk.len(), f.shrink.elapsed))
        }
        _ => None,
    }
}

fn main() {
    // proptest reports each failing case's panic; keep the table readable.
    std::panic::set_hook(Box::new(|_| {}));
    println!("KV store with a planted bug: tests to first failure / shrunk length / shrink time, per seed");
    println!("{:<6}{:>28}{:>34}", "seed", "reflect (statem)", "proptest-state-machine 0.8");
    let mut sums = [(0u64, 0usize, Duration::ZERO, 0u64); 2];
    for seed in 1..=SEEDS {
        let rows = [reflect_run(seed), proptest_run(seed)];
        let cell = |r: &Option<(u64, usize, Duration)>| match r {
            Some((t, n, d)) => format!("{t:>6} / {n:>2} / {:>9.1?}", d),
            None => "not found".to_owned(),
        };
        println!("{seed:<6}{:>28}{:>34}", cell(&rows[0]), cell(&rows[1]));
        for (s, r) in sums.iter_mut().zip(&rows) {
            if let Some((t, n, d)) = r {
                *s = (s.0 + t, s.1 + n, s.2 + *d, s.3 + 1);
            }
        }
    }
    let mean = |s: &(u64, usize, Duration, u64)| {
        let k = s.3.max(1);
        format!("{:>6.1} / {:>4.1} / {:>9.1?}", s.0 as f64 / k as f64, s.1 as f64 / k as f64, s.2 / k as u32)
    };
    println!("{:<6}{:>28}{:>34}", "mean", mean(&sums[0]), mean(&sums[1]));
    println!("(the shortest failing sequence has 6 commands)");

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
