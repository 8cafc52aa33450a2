//! Parallel state-machine tests: a prefix, branches on threads, results checked for linearizability.
//!
//! A [`ParallelCommands<M>`] is a sequential prefix and two or more branches.
//! Its check runs the prefix on a new system, then each branch on a thread
//! of its own (the threads released together), and asks whether some
//! interleaving of the branches, run one command at a time on the model,
//! allows every result the threads saw: linearizability, as PropEr's and
//! QuickCheck's parallel state machines check it (Claessen et al., *Finding
//! Race Conditions in Erlang with QuickCheck and PULSE*). A race shows up
//! only on some runs, so each case runs [`ParallelStateMachine::repetitions`]
//! times. Branch commands are generated so that their preconditions hold in
//! every interleaving (the model cannot say which one the threads took).

use super::commands::{any_command, make_steps, steps_back, write_steps, Violation, LEN};
use super::StateMachine;
use refgen_core::choice::{ChoiceTree, Site};
use refgen_core::combinators::{int, Int};
use refgen_core::gen::{product, BoxGen, Gen, Way};
use refgen_core::{Reflective, Source, Stop};
use std::fmt;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The part of the choice tree that makes one branch (its length, then its steps).
pub const BRANCH: Site = "statem.branch";

/// The most interleavings' nodes the generator visits to check that a
/// branch command's precondition holds in every interleaving; past it, the
/// command is taken (keep branches short: 2 threads of up to 4 to 6 commands).
const INTERLEAVING_BUDGET: usize = 200_000;

/// A state machine whose system can be shared by threads: the parallel mode.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no parallel mode",
    label = "the parallel mode needs `ParallelStateMachine`",
    note = "implement `refgen::statem::ParallelStateMachine` for `{Self}` (`run_shared` on a `Sync` system under test)"
)]
pub trait ParallelStateMachine: StateMachine<Sut: Sync, Command: Send + Sync, Output: Send> + Sync {
    /// Run `command` on the shared system under test (from any thread).
    fn run_shared(&self, sut: &Self::Sut, command: &Self::Command) -> Self::Output;

    /// How many branches (threads) a case has (default 2).
    fn threads(&self) -> usize {
        2
    }

    /// How many commands the sequential prefix has (default `0..=4`).
    fn prefix_len(&self) -> RangeInclusive<usize> {
        0..=4
    }

    /// How many commands each branch has (default `1..=4`: an empty branch races with nothing).
    fn branch_len(&self) -> RangeInclusive<usize> {
        1..=4
    }

    /// How many times a case runs (each on a new system) before it passes
    /// (default 32; more for short branches, see [`ParallelCommands::check`]).
    fn repetitions(&self) -> usize {
        32
    }
}

/// A parallel case of `M`: a sequential prefix, then one branch per thread, on the machine it runs on.
pub struct ParallelCommands<M: StateMachine> {
    prefix: Vec<M::Command>,
    branches: Vec<Vec<M::Command>>,
    machine: Arc<M>,
}

impl<M: StateMachine> Clone for ParallelCommands<M> {
    fn clone(&self) -> Self {
        ParallelCommands {
            prefix: self.prefix.clone(),
            branches: self.branches.clone(),
            machine: Arc::clone(&self.machine),
        }
    }
}

impl<M: StateMachine> PartialEq for ParallelCommands<M>
where
    M::Command: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.prefix == other.prefix && self.branches == other.branches
    }
}

impl<M: StateMachine + Default> ParallelCommands<M> {
    /// The case `prefix`, then `branches` (one per thread), on the machine's default value.
    pub fn new(prefix: Vec<M::Command>, branches: Vec<Vec<M::Command>>) -> Self {
        ParallelCommands::on(M::default(), prefix, branches)
    }
}

impl<M: StateMachine> ParallelCommands<M> {
    /// The case `prefix`, then `branches` (one per thread), on `machine`.
    pub fn on(machine: M, prefix: Vec<M::Command>, branches: Vec<Vec<M::Command>>) -> Self {
        ParallelCommands { prefix, branches, machine: Arc::new(machine) }
    }

    /// The machine the case runs on.
    pub fn machine(&self) -> &M {
        &self.machine
    }

    /// The sequential prefix.
    pub fn prefix(&self) -> &[M::Command] {
        &self.prefix
    }

    /// The branches, one per thread.
    pub fn branches(&self) -> &[Vec<M::Command>] {
        &self.branches
    }

    /// The model state after the prefix (up to its first failing precondition).
    pub fn prefix_state(&self) -> M::State {
        let mut state = self.machine.initial_state();
        advance(&*self.machine, &mut state, &self.prefix);
        state
    }

    /// The model state after the prefix and then every branch, one after another.
    pub fn sequential_state(&self) -> M::State {
        let mut state = self.prefix_state();
        for b in &self.branches {
            advance(&*self.machine, &mut state, b);
        }
        state
    }
}

/// Moves `state` over `commands` while their preconditions hold.
fn advance<M: StateMachine>(machine: &M, state: &mut M::State, commands: &[M::Command]) {
    for c in commands {
        if !machine.precondition(state, c) {
            return;
        }
        machine.next_state(state, c);
    }
}

impl<M: ParallelStateMachine> ParallelCommands<M> {
    /// The generator of parallel cases on `machine`: what a property over a
    /// machine with a context takes, `#[with(ParallelCommands::of(Registry::new(8)))]`.
    pub fn of(machine: M) -> ParallelGen<M> {
        ParallelGen::new(Arc::new(machine))
    }

    /// Run the case [`ParallelStateMachine::repetitions`] times (4 / k
    /// times as often, rounded up, when its longest branch has k < 4 commands), each on
    /// a new system: the prefix in order (its postconditions checked), then
    /// the branches on threads; the results must be [`linearizable`].
    pub fn check(&self) -> Result<(), Violation> {
        let m = &*self.machine;
        crate::case::reached_state(crate::hashing::value_key(&self.sequential_state()));
        let all: Vec<M::Command> = self.prefix.iter().chain(self.branches.iter().flatten()).cloned().collect();
        super::commands::label_run::<M>(&all);
        // Short branches overlap in a narrower window: a case whose longest
        // branch has k < 4 commands runs 4 / k times as often (rounded up).
        let longest = self.branches.iter().map(Vec::len).max().unwrap_or(0).clamp(1, 4);
        let runs = (m.repetitions().max(1) * 4).div_ceil(longest);
        for _ in 0..runs {
            let mut sut = m.new_sut();
            let mut state = m.initial_state();
            for (i, c) in self.prefix.iter().enumerate() {
                if !m.precondition(&state, c) {
                    return Err(Violation(format!(
                        "the precondition of prefix step {} ({c:?}) fails in the model state {state:?}",
                        i + 1
                    )));
                }
                let out = m.run(&mut sut, c);
                let before = state.clone();
                m.next_state(&mut state, c);
                if !m.postcondition_between(&before, &state, c, &out) {
                    return Err(Violation(format!(
                        "prefix step {} ({c:?}) returned {out:?}, which the model does not allow in the state {before:?}",
                        i + 1
                    )));
                }
            }
            let outputs = run_branches(m, &sut, &self.branches);
            if !linearizable(m, &state, &self.branches, &outputs) {
                let mut seen = String::new();
                for (t, (b, o)) in self.branches.iter().zip(&outputs).enumerate() {
                    let steps: Vec<String> = b.iter().zip(o).map(|(c, o)| format!("{c:?} -> {o:?}")).collect();
                    seen.push_str(&format!("\n    thread {}: {}", t + 1, steps.join(", ")));
                }
                return Err(Violation(format!(
                    "no interleaving of the threads' results is allowed by the model (after the prefix, in the state {state:?}); the threads saw:{seen}"
                )));
            }
        }
        Ok(())
    }
}

/// Runs each branch on a thread of its own against `sut`, the threads
/// released together (each waits, spinning, until all have started).
fn run_branches<M: ParallelStateMachine>(
    machine: &M,
    sut: &M::Sut,
    branches: &[Vec<M::Command>],
) -> Vec<Vec<M::Output>> {
    let ready = AtomicUsize::new(0);
    let n = branches.len();
    std::thread::scope(|s| {
        let handles: Vec<_> = branches
            .iter()
            .map(|b| {
                let ready = &ready;
                s.spawn(move || {
                    ready.fetch_add(1, Ordering::SeqCst);
                    let mut spins = 0u32;
                    while ready.load(Ordering::SeqCst) < n {
                        spins += 1;
                        if spins < 20_000 {
                            std::hint::spin_loop();
                        } else {
                            std::thread::yield_now();
                        }
                    }
                    b.iter().map(|c| machine.run_shared(sut, c)).collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    })
}

/// Whether some interleaving of `branches` from the model state `start`
/// allows every output: at each step of it the command's precondition and
/// its postcondition on the output the thread saw hold.
pub fn linearizable<M: StateMachine>(
    machine: &M,
    start: &M::State,
    branches: &[Vec<M::Command>],
    outputs: &[Vec<M::Output>],
) -> bool {
    fn go<M: StateMachine>(
        m: &M,
        state: &M::State,
        at: &mut Vec<usize>,
        branches: &[Vec<M::Command>],
        outputs: &[Vec<M::Output>],
    ) -> bool {
        let mut done = true;
        for b in 0..branches.len() {
            let i = at[b];
            let (Some(c), Some(o)) = (branches[b].get(i), outputs[b].get(i)) else { continue };
            done = false;
            if !m.precondition(state, c) {
                continue;
            }
            let mut next = state.clone();
            m.next_state(&mut next, c);
            if m.postcondition_between(state, &next, c, o) {
                at[b] += 1;
                let ok = go(m, &next, at, branches, outputs);
                at[b] -= 1;
                if ok {
                    return true;
                }
            }
        }
        done
    }
    go(machine, start, &mut vec![0; branches.len()], branches, outputs)
}

/// Whether every precondition holds in every interleaving of `branches`
/// from `start` (or the budget of nodes ran out first).
fn every_interleaving_allowed<M: StateMachine>(machine: &M, start: &M::State, branches: &[&[M::Command]]) -> bool {
    fn go<M: StateMachine>(
        m: &M,
        state: &M::State,
        at: &mut Vec<usize>,
        branches: &[&[M::Command]],
        budget: &mut usize,
    ) -> bool {
        for b in 0..branches.len() {
            let Some(c) = branches[b].get(at[b]) else { continue };
            if *budget == 0 {
                return true;
            }
            *budget -= 1;
            if !m.precondition(state, c) {
                return false;
            }
            let mut next = state.clone();
            m.next_state(&mut next, c);
            at[b] += 1;
            let ok = go(m, &next, at, branches, budget);
            at[b] -= 1;
            if !ok {
                return false;
            }
        }
        true
    }
    go(machine, start, &mut vec![0; branches.len()], branches, &mut INTERLEAVING_BUDGET.clone())
}

/// Whether `c`, after `so_far` in branch `b`, keeps every interleaving of
/// the branches allowed.
fn fits<M: StateMachine>(
    machine: &M,
    start: &M::State,
    done: &[Vec<M::Command>],
    so_far: &[M::Command],
    c: &M::Command,
) -> bool {
    let mut own = so_far.to_vec();
    own.push(c.clone());
    let mut all: Vec<&[M::Command]> = done.iter().map(|b| b.as_slice()).collect();
    all.push(&own);
    every_interleaving_allowed(machine, start, &all)
}

impl<M: StateMachine> fmt::Debug for ParallelCommands<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ParallelCommands::new(\n        ")?;
        let m = &*self.machine;
        write_steps(f, m, &m.initial_state(), &self.prefix, "        ", 1)?;
        writeln!(f, ",\n        vec![")?;
        for (t, b) in self.branches.iter().enumerate() {
            let cmds: Vec<String> = b.iter().map(|c| format!("{c:?}")).collect();
            writeln!(f, "            vec![{}], // thread {}", cmds.join(", "), t + 1)?;
        }
        write!(f, "        ],\n    )")
    }
}

/// The generator of [`ParallelCommands<M>`]: the prefix as a sequence is
/// made, then each branch (a [`BRANCH`] part: a length, then its steps)
/// from the model state after the prefix, each command kept only when its
/// precondition holds in every interleaving with the branches before it.
pub struct ParallelGen<M> {
    prefix_len: Int<usize>,
    branch_len: Int<usize>,
    threads: usize,
    machine: Arc<M>,
}

impl<M: ParallelStateMachine> ParallelGen<M> {
    /// The generator on `machine`, with the lengths and thread count it gives.
    pub fn new(machine: Arc<M>) -> Self {
        ParallelGen {
            prefix_len: int(machine.prefix_len()).site(LEN),
            branch_len: int(machine.branch_len()).site(LEN),
            threads: machine.threads().max(1),
            machine,
        }
    }
}

impl<M: ParallelStateMachine + Default> Default for ParallelGen<M> {
    fn default() -> Self {
        Self::new(Arc::new(M::default()))
    }
}

impl<M: ParallelStateMachine> Gen for ParallelGen<M> {
    type Value = ParallelCommands<M>;

    fn run(&self, src: &mut dyn Source) -> Result<ParallelCommands<M>, Stop> {
        let m = &*self.machine;
        let n = self.prefix_len.run(src)?;
        let mut state = m.initial_state();
        let prefix = make_steps(src, m, &mut state, n, &any_command::<M>)?;
        let start = state;
        let mut branches: Vec<Vec<M::Command>> = Vec::with_capacity(self.threads);
        for _ in 0..self.threads {
            src.enter(BRANCH);
            let made = self.branch_len.run(src).and_then(|n| {
                let mut own_state = start.clone();
                let done: &[Vec<M::Command>] = &branches;
                let allowed = |_: &M::State, so_far: &[M::Command], c: &M::Command| fits(m, &start, done, so_far, c);
                make_steps(src, m, &mut own_state, n, &allowed)
            });
            src.leave();
            branches.push(made?);
        }
        Ok(ParallelCommands { prefix, branches, machine: Arc::clone(&self.machine) })
    }

    fn back(&self, target: &ParallelCommands<M>) -> Vec<Way> {
        if target.branches.len() != self.threads {
            return Vec::new();
        }
        let m = &*self.machine;
        let mut state = m.initial_state();
        let mut ways =
            steps_back(m, &mut state, &target.prefix, self.prefix_len.back(&target.prefix.len()), &any_command::<M>);
        let start = state;
        for (b, branch) in target.branches.iter().enumerate() {
            if ways.is_empty() {
                break;
            }
            let done = &target.branches[..b];
            let allowed = |_: &M::State, so_far: &[M::Command], c: &M::Command| fits(m, &start, done, so_far, c);
            let inner = steps_back(m, &mut start.clone(), branch, self.branch_len.back(&branch.len()), &allowed);
            let parts: Vec<Way> = inner
                .into_iter()
                .map(|w| Way { forest: vec![ChoiceTree::group(BRANCH, w.forest)], prob: w.prob })
                .collect();
            ways = product(ways, &parts);
        }
        ways
    }
}

/// The parallel cases on the machine's default value.
impl<M: ParallelStateMachine + Default> Reflective for ParallelCommands<M> {
    fn generator() -> BoxGen<Self> {
        ParallelGen::<M>::default().boxed()
    }
}
