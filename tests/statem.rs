//! Stateful testing: generated sequences keep preconditions, failures are shrunk to minimal sequences, remembered and replayed, and the parallel mode finds a race.

use refgen::guides::{SaConfig, SaGuide};
use refgen::interpret::{check, generate, generate_recorded, parse_tree, reflect, replay_lenient};
use refgen::prelude::*;
use refgen::runner::Origin;
use refgen::statem::{
    check_parallel, check_state_machine, check_trace, linearizable, parallel_property, state_machine_property,
    ParallelCommands, ParallelStateMachine,
};
use refgen_fixtures::runs::{failure, temp_dir};
use refgen_fixtures::statem_models::{Bank, BankMachine, Count, CounterMachine, Kv, KvMachine, RacyMachine, Shared};
use std::sync::atomic::{AtomicU64, Ordering};

// ---------------------------------------------------------------- a correct machine, for #[property]

/// A stack against a `Vec` model: no bug.
#[derive(Default)]
struct StackMachine;

#[derive(Debug, Clone, PartialEq, Reflective)]
enum Stack {
    Push(#[choice(range = 0..=9)] u8),
    Pop,
}

impl StateMachine for StackMachine {
    type State = Vec<u8>;
    type Command = Stack;
    type Sut = Vec<u8>;
    type Output = Option<u8>;
    fn initial_state(&self) -> Vec<u8> {
        Vec::new()
    }
    fn commands(&self, _: &Vec<u8>) -> BoxGen<Stack> {
        Stack::generator()
    }
    fn precondition(&self, s: &Vec<u8>, c: &Stack) -> bool {
        !matches!(c, Stack::Pop) || !s.is_empty()
    }
    fn next_state(&self, s: &mut Vec<u8>, c: &Stack) {
        match c {
            Stack::Push(x) => s.push(*x),
            Stack::Pop => _ = s.pop(),
        }
    }
    fn new_sut(&self) -> Vec<u8> {
        Vec::new()
    }
    fn run(&self, sut: &mut Vec<u8>, c: &Stack) -> Option<u8> {
        match c {
            Stack::Push(x) => {
                sut.push(*x);
                None
            }
            Stack::Pop => sut.pop(),
        }
    }
    fn postcondition(&self, before: &Vec<u8>, c: &Stack, out: &Option<u8>) -> bool {
        match c {
            Stack::Push(_) => out.is_none(),
            Stack::Pop => *out == before.last().copied(),
        }
    }
    fn invariant(&self, state: &Vec<u8>, sut: &Vec<u8>) -> bool {
        state == sut
    }
}

// A state machine under `#[property]`: the argument is the sequence, the body runs it.
#[property(cases = 200)]
fn a_stack_agrees_with_its_model(commands: Commands<StackMachine>) {
    assert!(commands.valid());
    commands.run();
}

// ---------------------------------------------------------------- generation

#[test]
fn generated_sequences_keep_every_precondition() {
    let kv = Commands::<KvMachine>::generator();
    let bank = Commands::<BankMachine>::generator();
    let mut removes_present = 0;
    for seed in 0..300 {
        let c = generate(&kv, seed).unwrap();
        assert!(c.valid(), "{c:?}");
        assert!(c.len() <= 32);
        removes_present += c.commands().iter().filter(|k| matches!(k, Kv::Remove(_))).count();
        let b = generate(&bank, seed).unwrap();
        assert!(b.valid(), "{b:?}");
        let mut balance = 0;
        for c in b.commands() {
            if let Bank::Withdraw(a) = c {
                assert!(*a <= balance);
            }
            BankMachine.next_state(&mut balance, c);
        }
    }
    assert!(removes_present > 100, "removes of present keys are made: {removes_present}");
}

#[test]
fn a_sequence_is_a_reflective_value() {
    let g = Commands::<KvMachine>::generator();
    for seed in 0..50 {
        let (c, tree) = generate_recorded(&g, seed);
        let c = c.unwrap();
        // The same choices parse to the same sequence (the step retries included).
        assert_eq!(parse_tree(&g, &tree).unwrap(), c);
        // Backward: the sequence reflects into choices that make it, and is in range.
        let ways = reflect(&g, &c);
        assert!(!ways.is_empty());
        assert_eq!(parse_tree(&g, &ways[0]).unwrap(), c);
        assert!(check(&g, &c));
    }
    // A sequence whose precondition fails is not in the generator's range.
    assert!(!check(&g, &Commands::new(vec![Kv::Remove(3)])));
}

#[test]
fn lenient_replay_of_an_edited_sequence_keeps_preconditions() {
    let g = Commands::<KvMachine>::generator();
    for seed in 0..100 {
        let (_, tree) = generate_recorded(&g, seed);
        // Drop the second step (the length lowered with it) and replay: later steps are made over the new model.
        let mut edited = tree.clone();
        if edited.children.len() > 2 {
            edited.children.remove(2);
        }
        let (v, _) = replay_lenient(&g, &edited, seed);
        assert!(v.unwrap().valid());
    }
}

#[test]
fn annealing_reaches_the_deep_counter_through_new_commands() {
    // A neighbour's new commands are made as the generator makes them (a fresh mark), not as the
    // first command over and over: annealing on the counter's value drives it past 20.
    for seed in 1..=3 {
        let config = Config::new("statem::sa_counter").seed(seed).cases(10_000).no_regressions().no_timeout();
        let property = Property::new(Commands::<CounterMachine>::generator, |c: Commands<CounterMachine>| {
            maximize!(c.final_state());
            c.check()
        });
        // `failure` panics, with the report, when the run passes.
        failure(property.check(&config.guide(|| SaGuide::new(SaConfig::default()))));
    }
}

// ---------------------------------------------------------------- failures, shrinking, report

#[test]
fn the_kv_bug_shrinks_to_the_shortest_failing_sequence() {
    for seed in 1..=5 {
        let property = state_machine_property(KvMachine);
        let f = failure(property.check(&Config::new("statem::kv").seed(seed).cases(10_000)));
        let shrunk = property.value_of(&f).unwrap();
        // Four keys put, one put again, then removed: six commands, the fewest that fail.
        assert_eq!(shrunk.len(), 6, "{shrunk:?}");
        assert!(matches!(shrunk.commands()[5], Kv::Remove(_)));
        assert!(shrunk.check().is_err());
        // The report prints numbered steps with the model state after each, as a `vec![...]`.
        let report = f.to_string();
        assert!(report.contains("commands = vec!["), "{report}");
        assert!(report.contains("// 1. model: {"), "{report}");
        assert!(report.contains("// 6. model: {"), "{report}");
        assert!(report.contains("step 6 (Remove("), "{report}");
    }
}

#[test]
fn the_printed_steps_paste_back_into_a_regression_test() {
    let c = Commands::<KvMachine>::new(vec![
        Kv::Put(0, 0),
        Kv::Put(1, 0),
        Kv::Put(2, 0),
        Kv::Put(3, 0),
        Kv::Put(0, 1),
        Kv::Remove(0),
    ]);
    let printed = format!("{c:?}");
    assert!(printed.starts_with("vec![\n        Put(0, 0), // 1. model: {0: 0}\n"), "{printed}");
    assert!(printed.ends_with("Remove(0), // 6. model: {1: 0, 2: 0, 3: 0}\n    ]"), "{printed}");
    let err = c.check().unwrap_err();
    assert_eq!(
        err.to_string(),
        "step 6 (Remove(0)) returned Some(0), which the model does not allow in the state {0: 1, 1: 0, 2: 0, 3: 0}"
    );
    // A hand-written sequence whose precondition fails says so.
    let bad = Commands::<KvMachine>::new(vec![Kv::Remove(1)]);
    assert!(!bad.valid());
    assert!(format!("{bad:?}").contains("1. (its precondition fails)"));
    assert!(bad.check().unwrap_err().to_string().starts_with("the precondition of step 1"));
}

#[test]
fn the_bank_bug_is_found_with_preconditions_kept() {
    let property = state_machine_property(BankMachine);
    let f = failure(property.check(&Config::new("statem::bank").seed(3).cases(10_000)));
    let shrunk = property.value_of(&f).unwrap();
    assert!(shrunk.valid());
    // Deposits past 100, then a withdrawal leaving less than 20.
    let Some(Bank::Withdraw(a)) = shrunk.commands().last() else { panic!("{shrunk:?}") };
    let before = Commands::<BankMachine>::new(shrunk.commands()[..shrunk.len() - 1].to_vec()).final_state();
    assert!(before > 100 && (1..20).contains(&(before - a)), "{shrunk:?}");
    assert!(shrunk.len() <= 4, "{shrunk:?}");
}

#[test]
fn a_replay_token_reproduces_the_exact_sequence() {
    let property = state_machine_property(KvMachine);
    let config = Config::new("statem::token").seed(11).cases(10_000);
    let f = failure(property.check(&config));
    let again = failure(property.check(&config.clone().replay(f.token.clone())));
    assert_eq!(again.origin, Origin::Replay);
    assert_eq!(again.tests, 1);
    assert_eq!(property.value_of(&again), property.value_of(&f));
    assert_eq!(again.args, f.args);
}

#[test]
fn a_failure_is_remembered_and_replayed_first() {
    let dir = temp_dir("statem-remembered");
    let property = state_machine_property(KvMachine);
    let config = Config::new("statem::remembered").seed(5).cases(10_000).regressions(&dir);
    let first = failure(property.check(&config));
    assert!(first.saved_to.is_some());
    // Another seed: the remembered sequence runs first and fails at once.
    let second = failure(property.check(&config.clone().seed(999)));
    assert!(matches!(second.origin, Origin::Regression(_)), "{:?}", second.origin);
    assert_eq!(second.tests, 1);
    assert_eq!(property.value_of(&second), property.value_of(&first));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_gives_the_same_sequences() {
    let g = Commands::<CounterMachine>::generator();
    for seed in 0..20 {
        assert_eq!(generate(&g, seed).unwrap(), generate(&g, seed).unwrap());
    }
    let run = || failure(check_state_machine(KvMachine, &Config::new("statem::det").seed(2).cases(10_000)));
    let (a, b) = (run(), run());
    assert_eq!((a.tests, &a.args, &a.token), (b.tests, &b.args, &b.token));
}

#[test]
fn a_counter_bug_past_20_escapes_random_sequences() {
    // What the guides example measures: random sequences do not reach it.
    let r = check_state_machine(
        CounterMachine,
        &Config::new("statem::deep").seed(1).cases(2_000).guide(|| refgen::guides::RandomGuide),
    );
    assert!(r.is_ok());
    // The bug is there: 21 steps up.
    assert!(Commands::<CounterMachine>::new(vec![Count::Inc; 21]).check().is_err());
}

/// A state machine's run says which commands ran, how long the sequences were and how many model
/// states they reached.
#[test]
fn a_run_has_the_statistics_of_its_sequences() {
    let report = check_state_machine(AtomicMachine, &Config::new("statem::stats").seed(3).cases(200).no_regressions());
    let report = match report {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    let states = report.model_states.expect("a state machine's run counts its model states");
    assert!(states > 10, "{states}");
    let table = report.statistics();
    assert!(table.contains("distinct model states reached"), "{table}");
    // Its model states are few: the explorer meets runs of cases with none new, and starts afresh.
    let note = &report.guide_notes[0];
    let restarts: u64 = note
        .split("started afresh ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{note}"));
    assert!(restarts > 0, "{note}");
    let commands: Vec<&String> = report.labels.keys().filter(|l| l.starts_with("command ")).collect();
    assert!(commands.len() >= 2, "{commands:?}");
    let lengths: u64 = report.labels.iter().filter(|(l, _)| l.starts_with("length ")).map(|(_, n)| n).sum();
    assert_eq!(lengths, report.cases, "one length label per case");
    // A property that is not a state machine counts none.
    let plain = Property::new(|| int(0u8..=9), |x: u8| x < 10).check(&Config::new("statem::no_states")).unwrap();
    assert_eq!(plain.model_states, None);
}

/// A recorded trace of 200 commands, the bug at steps 101 to 106, reflected, run and shrunk to the
/// shortest failing sequence (6 commands); a trace that breaks a precondition is refused, naming the step.
#[test]
fn a_recorded_trace_is_replayed_and_shrunk() {
    let mut trace = Vec::new();
    for i in 0..25u8 {
        let k = i % 3;
        trace.extend([Kv::Put(k, u32::from(i)), Kv::Get(k), Kv::Remove(k), Kv::Get(k)]);
    }
    trace.extend([Kv::Put(1, 1), Kv::Put(2, 2), Kv::Put(3, 3), Kv::Put(4, 4), Kv::Put(1, 5), Kv::Remove(1)]);
    trace.extend((0..94).map(|i| Kv::Get(i % 8)));
    assert_eq!(trace.len(), 200);
    let config = Config::new("statem::trace").no_regressions();
    let f = failure(check_trace(KvMachine, trace.clone(), &config));
    assert_eq!(f.tests, 1, "only the trace runs");
    let shrunk = &f.args[0].1;
    assert_eq!(shrunk.matches("Put(").count() + shrunk.matches("Remove(").count(), 6, "{shrunk}");
    // Too many shorter sequences to make them all: 1-minimal, not called the shortest.
    assert!(f.notes.iter().any(|n| n.starts_with("1-minimal")), "{:?}", f.notes);
    // The passing prefix passes, and runs alone.
    let report = check_trace(KvMachine, trace[..100].to_vec(), &config).unwrap();
    assert_eq!((report.cases, report.examples_run), (1, 1));
    // A remove of a key the model does not hold.
    match check_trace(KvMachine, vec![Kv::Put(1, 1), Kv::Remove(2)], &config) {
        Err(refgen::runner::RunError::Setup { reason, .. }) => assert!(reason.contains("step 2"), "{reason}"),
        other => panic!("{other:?}"),
    }
}

/// The default guide shares a state machine's cases with a learner rewarded for new model states,
/// from the first case on: the counter bug that random sequences miss is found.
#[test]
fn the_default_guide_reaches_deep_states() {
    for seed in 1..=3 {
        let config = Config::new("statem::deep_default").seed(seed).cases(10_000).no_regressions();
        let f = failure(check_state_machine(CounterMachine, &config));
        assert!(f.tests < 1_000, "seed {seed}: {} tests", f.tests);
        assert_eq!(f.args[0].1.matches("Inc").count(), 21, "seed {seed}: shrunk to 21 steps up: {}", f.args[0].1);
    }
    // Not a state machine: no share.
    let plain = Property::new(|| int(0u8..=9), |x: u8| x < 10).check(&Config::new("statem::plain")).unwrap();
    assert!(plain.guide_notes.iter().all(|n| !n.contains("state machine")), "{:?}", plain.guide_notes);
    let kv = check_state_machine(KvMachine, &Config::new("statem::kv_notes").seed(1).cases(30).no_regressions());
    let notes = match kv {
        Ok(report) => report.guide_notes,
        Err(refgen::runner::RunError::Failed(f)) => f.guide_notes,
        Err(e) => panic!("{e}"),
    };
    assert!(notes.iter().any(|n| n.contains("the first to run a state machine")), "{notes:?}");
}

// ---------------------------------------------------------------- the parallel mode

#[test]
fn linearizability_is_decided_over_interleavings() {
    let branches = vec![vec![Shared::Incr], vec![Shared::Incr, Shared::Get]];
    // Thread 2 incremented first, thread 1 after, then thread 2 read 2.
    assert!(linearizable(&RacyMachine, &0, &branches, &[vec![2], vec![1, 2]]));
    // Both increments saw 0: no order explains it.
    assert!(!linearizable(&RacyMachine, &0, &branches, &[vec![1], vec![1, 1]]));
    // A read of 1 after both increments cannot be.
    assert!(!linearizable(&RacyMachine, &0, &branches, &[vec![1], vec![2, 1]]));
}

/// A counter with an atomic increment: linearizable.
#[derive(Default)]
struct AtomicCounter(AtomicU64);

#[derive(Default)]
struct AtomicMachine;

impl StateMachine for AtomicMachine {
    type State = u64;
    type Command = Shared;
    type Sut = AtomicCounter;
    type Output = u64;
    fn initial_state(&self) -> u64 {
        0
    }
    fn commands(&self, s: &u64) -> BoxGen<Shared> {
        RacyMachine.commands(s)
    }
    fn next_state(&self, n: &mut u64, c: &Shared) {
        RacyMachine.next_state(n, c)
    }
    fn new_sut(&self) -> AtomicCounter {
        AtomicCounter::default()
    }
    fn run(&self, sut: &mut AtomicCounter, c: &Shared) -> u64 {
        self.run_shared(sut, c)
    }
    fn postcondition(&self, before: &u64, c: &Shared, out: &u64) -> bool {
        RacyMachine.postcondition(before, c, out)
    }
}

impl ParallelStateMachine for AtomicMachine {
    fn run_shared(&self, sut: &AtomicCounter, c: &Shared) -> u64 {
        match c {
            Shared::Incr => sut.0.fetch_add(1, Ordering::SeqCst) + 1,
            Shared::Get => sut.0.load(Ordering::SeqCst),
        }
    }
    fn repetitions(&self) -> usize {
        4
    }
}

#[test]
fn a_linearizable_counter_passes_the_parallel_mode() {
    check_parallel(AtomicMachine, &Config::new("statem::atomic").seed(1).cases(100)).unwrap();
}

#[test]
fn the_parallel_mode_finds_the_race_and_shrinks_it() {
    // Threads that never run at once cannot race (a machine with one core).
    if std::thread::available_parallelism().map_or(1, |n| n.get()) < 2 {
        eprintln!("one core: the race cannot show; skipped");
        return;
    }
    // Sequentially the racy counter is right.
    check_state_machine(RacyMachine, &Config::new("statem::racy_seq").seed(1).cases(500)).unwrap();
    let property = parallel_property(RacyMachine);
    let f = failure(property.check(&Config::new("statem::racy").seed(1).cases(10_000)));
    let shrunk = property.value_of(&f).unwrap();
    assert!(shrunk.branches().iter().all(|b| b.len() <= 2), "{shrunk:?}");
    assert!(f.to_string().contains("vec![Incr], // thread 1"), "{f}");
}

#[test]
fn parallel_cases_are_reflective_and_keep_preconditions_in_every_interleaving() {
    let g = ParallelCommands::<BankParallel>::generator();
    for seed in 0..100 {
        let (c, tree) = generate_recorded(&g, seed);
        let c = c.unwrap();
        assert_eq!(parse_tree(&g, &tree).unwrap(), c);
        assert!(check(&g, &c));
        // Every withdrawal is covered by the balance, whatever the order the threads take.
        assert!(every_order_allowed(c.prefix_state(), c.branches()), "{c:?}");
    }
}

/// Whether the bank's preconditions hold in every interleaving of `branches` from `balance`.
fn every_order_allowed(balance: u32, branches: &[Vec<Bank>]) -> bool {
    (0..branches.len()).all(|b| match branches[b].split_first() {
        None => true,
        Some((c, rest)) => {
            let mut after = balance;
            let mut left = branches.to_vec();
            left[b] = rest.to_vec();
            BankMachine.precondition(&balance, c) && {
                BankMachine.next_state(&mut after, c);
                every_order_allowed(after, &left)
            }
        }
    })
}

/// The bank under the parallel mode (its account behind a lock), for generation only.
#[derive(Default)]
struct BankParallel;

impl StateMachine for BankParallel {
    type State = u32;
    type Command = Bank;
    type Sut = std::sync::Mutex<u32>;
    type Output = u32;
    fn initial_state(&self) -> u32 {
        0
    }
    fn commands(&self, s: &u32) -> BoxGen<Bank> {
        BankMachine.commands(s)
    }
    fn precondition(&self, s: &u32, c: &Bank) -> bool {
        BankMachine.precondition(s, c)
    }
    fn next_state(&self, s: &mut u32, c: &Bank) {
        BankMachine.next_state(s, c)
    }
    fn new_sut(&self) -> std::sync::Mutex<u32> {
        std::sync::Mutex::new(0)
    }
    fn run(&self, sut: &mut std::sync::Mutex<u32>, c: &Bank) -> u32 {
        self.run_shared(sut, c)
    }
}

impl ParallelStateMachine for BankParallel {
    fn run_shared(&self, sut: &std::sync::Mutex<u32>, c: &Bank) -> u32 {
        let mut b = sut.lock().unwrap();
        BankMachine.next_state(&mut b, c);
        *b
    }
}

/// A counter whose `incr` gives the value after: its postcondition compares the answer with the
/// model's state after the command (`postcondition_between`), not stepping the model again.
/// `OFF_BY_ONE` answers the value before instead.
#[derive(Default)]
struct AfterMachine<const OFF_BY_ONE: bool>;

impl<const OFF_BY_ONE: bool> StateMachine for AfterMachine<OFF_BY_ONE> {
    type State = u64;
    type Command = Shared;
    type Sut = u64;
    type Output = u64;
    fn initial_state(&self) -> u64 {
        0
    }
    fn commands(&self, s: &u64) -> BoxGen<Shared> {
        RacyMachine.commands(s)
    }
    fn next_state(&self, n: &mut u64, c: &Shared) {
        RacyMachine.next_state(n, c)
    }
    fn new_sut(&self) -> u64 {
        0
    }
    fn run(&self, n: &mut u64, c: &Shared) -> u64 {
        match c {
            Shared::Incr => {
                *n += 1;
                *n - u64::from(OFF_BY_ONE)
            }
            Shared::Get => *n,
        }
    }
    fn postcondition_between(&self, before: &u64, after: &u64, c: &Shared, out: &u64) -> bool {
        match c {
            Shared::Incr => out == after,
            Shared::Get => out == before,
        }
    }
}

#[test]
fn a_postcondition_sees_the_state_after_the_command() {
    let steps = vec![Shared::Incr, Shared::Get, Shared::Incr];
    assert!(Commands::<AfterMachine<false>>::new(steps.clone()).check().is_ok());
    let wrong = Commands::<AfterMachine<true>>::new(steps).check().unwrap_err().to_string();
    assert!(wrong.contains("step 1 (Incr) returned 0"), "{wrong}");
    let config = Config::new("statem::after").cases(200).no_regressions();
    assert!(check_state_machine(AfterMachine::<false>, &config).is_ok());
    let f = failure(check_state_machine(AfterMachine::<true>, &config));
    assert_eq!(f.args[0].1.matches("Incr").count(), 1, "shrunk to one step: {}", f.args[0].1);
    // The only shorter sequence, the empty one, passes: known shortest.
    assert!(
        f.notes.iter().any(|n| n.starts_with("shortest: every sequence of fewer commands passes")),
        "{:?}",
        f.notes
    );
}
