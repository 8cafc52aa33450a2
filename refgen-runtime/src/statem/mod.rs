//! Stateful testing: command sequences made against a model, run one after another or in parallel.
//!
//! A [`StateMachine`] pairs a *model* (a plain value, its state) with the
//! *system under test*. It says, for a model state, which commands may come
//! next ([`StateMachine::commands`], a generator built from the library's
//! combinators or `#[derive(Reflective)]`, so its arguments may depend on the
//! state: "remove a key that is present"), when a command is allowed
//! ([`StateMachine::precondition`]), how the model moves
//! ([`StateMachine::next_state`]), how to run the command on the real system
//! ([`StateMachine::run`]) and what the real system may answer
//! ([`StateMachine::postcondition`], [`StateMachine::invariant`]).
//!
//! A command sequence is a value: [`Commands<M>`] is [`Reflective`](refgen_core::Reflective) (on a machine given by [`Commands::of`]), its
//! generator makes the commands one by one over the model, so every
//! precondition holds (a command whose precondition fails is made again, in
//! place; the case is never discarded). The runner, its configuration and
//! environment variables, persistence, replay tokens, shrinking and every
//! guide work on it as on any value. Running a sequence ([`Commands::check`],
//! [`Commands::run`]) tells the guide the model state it reached, so guides
//! rewarded for new values are rewarded for new model states, and the default
//! guide shares the cases with such a learner from the first case on (see
//! [`crate::guides::AutoGuide`]). Shrinking deletes commands and
//! simplifies their arguments by editing the choice tree; lenient replay
//! makes each candidate over the model again, so a candidate's preconditions
//! hold too. A failing sequence is printed as numbered steps with the model
//! state after each, as a `vec![...]` to paste into
//! [`Commands::new`] for a regression test.
//!
//! The smallest complete example, a counter whose model is a number:
//!
//! ```
//! use refgen::statem::{check_state_machine, StateMachine};
//! use refgen::config::Config;
//! use refgen::{BoxGen, Gen, Reflective};
//! use refgen::combinators::{int, pick};
//!
//! #[derive(Debug, Clone, PartialEq)]
//! enum Cmd { Add(u8), Get }
//!
//! #[derive(Default)]
//! struct Counter;
//! impl StateMachine for Counter {
//!     type State = u64;                 // the model
//!     type Command = Cmd;
//!     type Sut = Vec<u8>;               // the system under test: adds kept in a list
//!     type Output = u64;
//!
//!     fn initial_state(&self) -> u64 { 0 }
//!     fn commands(&self, _: &u64) -> BoxGen<Cmd> {
//!         pick("cmd", [
//!             ("add", 3, int(0u8..=9).map(Cmd::Add, |c: &Cmd| match c { Cmd::Add(n) => Some(*n), _ => None }).boxed()),
//!             ("get", 1, refgen::combinators::just(Cmd::Get).boxed()),
//!         ]).boxed()
//!     }
//!     fn next_state(&self, n: &mut u64, c: &Cmd) { if let Cmd::Add(k) = c { *n += *k as u64 } }
//!     fn new_sut(&self) -> Vec<u8> { Vec::new() }
//!     fn run(&self, sut: &mut Vec<u8>, c: &Cmd) -> u64 {
//!         if let Cmd::Add(k) = c { sut.push(*k) }
//!         sut.iter().map(|&k| k as u64).sum()
//!     }
//!     fn postcondition_between(&self, _before: &u64, after: &u64, _: &Cmd, out: &u64) -> bool {
//!         *out == *after
//!     }
//! }
//!
//! check_state_machine(Counter, &Config::new("counter").cases(200)).unwrap();
//! ```
//!
//! [`ParallelStateMachine`] adds a parallel mode: a shared prefix run
//! first, then two or more branches run on threads against one system, and
//! the results checked for linearizability (some sequential interleaving of
//! the branches must be allowed by the model, as in *Finding Race Conditions
//! in Erlang with QuickCheck and PULSE* by Claessen, Pałka, Smallbone, Hughes,
//! Svensson, Arts and Wiger).

mod commands;
mod parallel;
mod trace;

pub use commands::{Commands, CommandsGen, Violation, COMMAND, LEN, STEP};
pub use parallel::{linearizable, ParallelCommands, ParallelGen, ParallelStateMachine, BRANCH};
pub use trace::{assert_trace, check_trace};

use crate::config::Config;
use crate::hashing::value_key;
use crate::runner::{Property, Report, RunError};
use refgen_core::{BoxGen, ReflectiveWith};
use std::fmt::Debug;
use std::ops::RangeInclusive;
use std::sync::Arc;

/// A model of a stateful system and how to run commands on the real one.
///
/// Every function takes the machine (`&self`): its value is the context of a
/// run (a capacity, a variant of the system, a parameter), so one machine type
/// serves several configurations; a machine without one is a unit struct
/// deriving `Default`. The model is [`StateMachine::State`], a plain value;
/// the real system is [`StateMachine::Sut`], made fresh for each case by
/// [`StateMachine::new_sut`]. [`Commands::of`] generates sequences for a
/// given machine; a machine that is `Default` is also [`Reflective`](refgen_core::Reflective) through
/// `Commands<M>` (its default value).
///
/// A machine with a context: a bounded stack whose capacity is the machine's,
/// checked at two capacities.
///
/// ```
/// use refgen::prelude::*;
/// use refgen::statem::check_state_machine;
///
/// #[derive(Debug, Clone, PartialEq, Reflective)]
/// enum Op { Push(#[choice(range = 0..=9)] u8), Pop }
///
/// struct Bounded { capacity: usize }
///
/// impl StateMachine for Bounded {
///     type State = Vec<u8>;
///     type Command = Op;
///     type Sut = Vec<u8>;
///     type Output = Option<u8>;
///     fn initial_state(&self) -> Vec<u8> { Vec::new() }
///     fn commands(&self, _: &Vec<u8>) -> BoxGen<Op> { Op::generator() }
///     fn precondition(&self, model: &Vec<u8>, op: &Op) -> bool {
///         !matches!(op, Op::Push(_)) || model.len() < self.capacity
///     }
///     fn next_state(&self, model: &mut Vec<u8>, op: &Op) {
///         match op { Op::Push(v) => model.push(*v), Op::Pop => { model.pop(); } }
///     }
///     fn new_sut(&self) -> Vec<u8> { Vec::with_capacity(self.capacity) }
///     fn run(&self, sut: &mut Vec<u8>, op: &Op) -> Option<u8> {
///         match op { Op::Push(v) => { sut.push(*v); None } Op::Pop => sut.pop() }
///     }
///     fn postcondition(&self, model: &Vec<u8>, op: &Op, out: &Option<u8>) -> bool {
///         *op != Op::Pop || *out == model.last().copied()
///     }
/// }
///
/// for capacity in [1, 8] {
///     check_state_machine(Bounded { capacity }, &Config::new("bounded").cases(100).no_regressions()).unwrap();
/// }
/// // In a property: `#[with(Commands::of(Bounded { capacity: 8 }))] commands: Commands<Bounded>`.
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a state machine",
    label = "`Commands<...>` and the `statem` entry points take a machine: a value of a type that implements `StateMachine`",
    note = "implement `refgen::statem::StateMachine` for `{Self}`: its model state, `commands`, `next_state`, `new_sut` and `run`"
)]
// `len` is the range of a sequence's lengths, not a size: there is no `is_empty` to pair it with.
#[allow(clippy::len_without_is_empty)]
pub trait StateMachine: 'static {
    /// The model's state.
    type State: Clone + Debug;
    /// A command: what a step does, with its arguments.
    type Command: Clone + Debug + 'static;
    /// The system under test.
    type Sut;
    /// What running a command on the system under test gives back.
    type Output: Debug;

    /// The model's state before any command.
    fn initial_state(&self) -> Self::State;

    /// The generator of the next command, given the model's state: a
    /// command's arguments may depend on it (a key that is present). Build it
    /// from the combinators or `#[derive(Reflective)]`; a command it makes
    /// whose [`StateMachine::precondition`] fails is made again.
    fn commands(&self, state: &Self::State) -> BoxGen<Self::Command>;

    /// Whether `command` may run in the model state `state` (default: always).
    fn precondition(&self, state: &Self::State, command: &Self::Command) -> bool {
        let _ = (state, command);
        true
    }

    /// The model's next state after `command` (its precondition holds).
    fn next_state(&self, state: &mut Self::State, command: &Self::Command);

    /// A new system under test, for one run of a sequence.
    fn new_sut(&self) -> Self::Sut;

    /// Run `command` on the system under test.
    fn run(&self, sut: &mut Self::Sut, command: &Self::Command) -> Self::Output;

    /// Whether `output` is an answer the model allows to `command` in the
    /// model state `before` (the state before the command; default: any).
    fn postcondition(&self, before: &Self::State, command: &Self::Command, output: &Self::Output) -> bool {
        let _ = (before, command, output);
        true
    }

    /// Whether `output` is an answer the model allows to `command`, given the
    /// model state `before` the command and `after` it (what
    /// [`StateMachine::next_state`] made of `before`): what the runs check.
    /// By default [`StateMachine::postcondition`] with the state before;
    /// override this one instead to compare an answer with the model's new
    /// state without stepping the model again (a counter's `incr` returning
    /// its new value: `*output == *after`).
    fn postcondition_between(
        &self,
        before: &Self::State,
        after: &Self::State,
        command: &Self::Command,
        output: &Self::Output,
    ) -> bool {
        let _ = after;
        self.postcondition(before, command, output)
    }

    /// Whether the system under test agrees with the model state `state`
    /// after a step (default: always). Checked after every step of a
    /// sequential run.
    fn invariant(&self, state: &Self::State, sut: &Self::Sut) -> bool {
        let _ = (state, sut);
        true
    }

    /// How many commands a sequence has (drawn uniformly; default `0..=32`).
    fn len(&self) -> RangeInclusive<usize> {
        0..=32
    }
}

/// The novelty key of a command sequence: the model state it reaches, so a
/// guide rewarded for new values (RLCheck's) is rewarded for new model states.
fn state_key<M: StateMachine>(c: &Commands<M>) -> u64 {
    value_key(&c.final_state())
}

/// The property that every command sequence runs on `machine`'s real system
/// as its model says: a [`Property`] to run with any [`Config`] (its guide,
/// cases, seed, persistence, replay token). Its values are keyed by the
/// model state they reach, so a guide rewarded for new values is rewarded
/// for new model states; the report names its argument `commands`.
pub fn state_machine_property<M: StateMachine + Send + Sync>(machine: M) -> Property<Commands<M>> {
    let machine = Arc::new(machine);
    Property::new(move || Commands::generator_with(Arc::clone(&machine)), |c: Commands<M>| c.check())
        .key(state_key::<M>)
        .describe(|c: &Commands<M>| vec![("commands".to_owned(), format!("{c:?}"))])
}

/// Run [`state_machine_property`] of `machine` under `config`.
pub fn check_state_machine<M: StateMachine + Send + Sync>(machine: M, config: &Config) -> Result<Report, RunError> {
    state_machine_property(machine).check(config)
}

/// Run [`state_machine_property`] of `machine` under `config` and panic with
/// the report if it fails: what a `#[test]` calls (with
/// `Config::new(..).from_env()` for the usual environment variables).
#[track_caller]
pub fn assert_state_machine<M: StateMachine + Send + Sync>(machine: M, config: &Config) {
    state_machine_property(machine).assert(config)
}

/// The parallel property of `machine`: a prefix, then branches on threads,
/// the results linearizable (see [`ParallelCommands::check`]). Keyed by the
/// model state after the prefix and the branches run one after another.
pub fn parallel_property<M: ParallelStateMachine + Send>(machine: M) -> Property<ParallelCommands<M>> {
    let machine = Arc::new(machine);
    Property::new(move || ParallelGen::new(Arc::clone(&machine)), |c: ParallelCommands<M>| c.check())
        .key(|c: &ParallelCommands<M>| value_key(&c.sequential_state()))
        .describe(|c: &ParallelCommands<M>| vec![("commands".to_owned(), format!("{c:?}"))])
}

/// Run [`parallel_property`] of `machine` under `config`.
pub fn check_parallel<M: ParallelStateMachine + Send>(machine: M, config: &Config) -> Result<Report, RunError> {
    parallel_property(machine).check(config)
}

/// Run [`parallel_property`] of `machine` under `config` and panic with the report if it fails.
#[track_caller]
pub fn assert_parallel<M: ParallelStateMachine + Send>(machine: M, config: &Config) {
    parallel_property(machine).assert(config)
}
