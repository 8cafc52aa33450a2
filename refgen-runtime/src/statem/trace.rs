//! Recorded traces: a log of commands from elsewhere reflected into a command sequence, run, and shrunk as any failure.
//!
//! A trace (commands a production system logged, or a failing integration
//! test's steps) is a [`Commands<M>`] value: reflection turns it into the
//! choices the sequence generator would make for it, so the runner runs it as
//! its first case and, when it fails, shrinks it by deleting and simplifying
//! commands over the model, as a generated failure. Its length is not bounded
//! by [`StateMachine::len`]: the generator it runs under has room for it.

use super::commands::{Commands, CommandsGen};
use super::{state_key, StateMachine};
use crate::config::Config;
use crate::runner::{Property, Report, RunError};
use refgen_core::choice::ChoiceTree;
use refgen_core::interpret::parse_tree;
use refgen_core::source::{Source, Stop};
use refgen_core::{Gen, Way};
use std::sync::Arc;

/// The generator a trace runs under: sequences of `0..=len` commands made as
/// [`CommandsGen`] makes them, reflected one way (each command the first way
/// its step's generator makes it), so a long trace reflects in time linear in
/// its length.
struct TraceGen<M> {
    gen: CommandsGen<M>,
}

impl<M: StateMachine> Gen for TraceGen<M> {
    type Value = Commands<M>;

    fn run(&self, src: &mut dyn Source) -> Result<Commands<M>, Stop> {
        self.gen.run(src)
    }

    fn back(&self, target: &Commands<M>) -> Vec<Way> {
        self.gen.first_way(target).into_iter().collect()
    }
}

/// Runs the recorded `trace` of commands against `M`'s system under test as
/// the property's first case (under `config`: its name, seed, shrink budget,
/// regressions): `Ok` when it passes, and when it fails the failure, shrunk
/// to a shorter sequence that fails ([`RunError::Failed`]). A trace whose
/// command breaks its precondition, or that `M::commands` cannot make, is a
/// [`RunError::Setup`] naming the step. Only the trace runs: no generated case.
///
/// ```
/// use refgen::statem::check_trace;
/// use refgen::config::Config;
/// # use refgen::statem::StateMachine;
/// # use refgen::{BoxGen, Gen};
/// # use refgen::combinators::just;
/// # #[derive(Debug, Clone, PartialEq)] struct Inc;
/// # struct Counter;
/// # impl StateMachine for Counter {
/// #     type State = u32; type Command = Inc; type Sut = u8; type Output = u32;
/// #     fn initial_state(&self) -> u32 { 0 }
/// #     fn commands(&self, _: &u32) -> BoxGen<Inc> { just(Inc).boxed() }
/// #     fn next_state(&self, n: &mut u32, _: &Inc) { *n += 1 }
/// #     fn new_sut(&self) -> u8 { 0 }
/// #     fn run(&self, s: &mut u8, _: &Inc) -> u32 { *s = s.wrapping_add(1); u32::from(*s) }
/// #     fn postcondition(&self, n: &u32, _: &Inc, out: &u32) -> bool { *out == n + 1 }
/// # }
/// // A log of 300 steps; the system under test wraps at 256.
/// let Err(refgen::runner::RunError::Failed(f)) =
///     check_trace(Counter, vec![Inc; 300], &Config::new("trace").no_regressions())
/// else {
///     panic!("the trace fails")
/// };
/// assert_eq!(f.args[0].1.matches("Inc").count(), 256); // shrunk to the shortest failing prefix
/// ```
pub fn check_trace<M: StateMachine + Send + Sync>(
    machine: M,
    trace: Vec<M::Command>,
    config: &Config,
) -> Result<Report, RunError> {
    let setup = |reason: String| RunError::Setup { name: config.name.clone(), reason };
    let machine = Arc::new(machine);
    let mut state = machine.initial_state();
    for (i, c) in trace.iter().enumerate() {
        if !machine.precondition(&state, c) {
            return Err(setup(format!(
                "step {} of the trace ({c:?}) breaks its precondition in the model state {state:?}",
                i + 1
            )));
        }
        machine.next_state(&mut state, c);
    }
    let len = trace.len().max(*machine.len().end());
    let trace = Commands { commands: trace, machine: Arc::clone(&machine) };
    let gen = move || TraceGen { gen: CommandsGen::with_len(Arc::clone(&machine), 0..=len) };
    let Some(way) = gen().back(&trace).into_iter().next() else {
        return Err(setup(
            "the trace has a command that `commands` cannot make in the model state before it".to_owned(),
        ));
    };
    // The example is made again from its choices on the thread that runs the cases.
    let tree = ChoiceTree::root(way.forest);
    let again = gen.clone();
    let example = move || parse_tree(&again(), &tree).expect("the trace's own choices make it");
    let property = Property::new(gen, |c: Commands<M>| c.check())
        .key(state_key::<M>)
        .describe(|c: &Commands<M>| vec![("commands".to_owned(), format!("{c:?}"))])
        .example(example);
    property.check(&config.clone().cases(0))
}

/// [`check_trace`], panicking with the report when the trace fails (or cannot run).
#[track_caller]
pub fn assert_trace<M: StateMachine + Send + Sync>(machine: M, trace: Vec<M::Command>, config: &Config) {
    if let Err(e) = check_trace(machine, trace, config) {
        panic!("{e}");
    }
}
