//! A sequence of commands as a reflective value: its generator over the model, run and printing.

use super::StateMachine;
use refgen_core::args::GenWith;
use refgen_core::choice::{ChoiceTree, Site};
use refgen_core::combinators::{int, retrying, Int};
use refgen_core::gen::{product, BoxGen, Gen, Way};
use refgen_core::source::DetRng;
use refgen_core::{Reflective, ReflectiveWith, Source, Stop, WithArgs};
use std::fmt;
use std::rc::Rc;
use std::sync::Arc;

/// The choice point of a sequence's length.
pub const LEN: Site = "statem.len";
/// The part of the choice tree that makes one step (its tries, each a [`COMMAND`]).
pub const STEP: Site = "statem.step";
/// The part of the choice tree that makes one try at a step's command.
pub const COMMAND: Site = "statem.command";

/// How many tries a step's command gets while its precondition fails, before
/// the sequence ends at that step.
pub(crate) const TRIES: usize = 16;

/// A sequence of commands of the state machine `M`, each allowed by the
/// model state the ones before it reach.
///
/// It holds the machine it runs on. Its generator ([`Commands::of`] for a
/// given machine, [`Reflective::generator`] for a machine's default value)
/// makes the commands over the model; `Debug` prints the steps, numbered,
/// with the model state after each, as a `vec![...]` to give
/// [`Commands::new`] in a regression test.
pub struct Commands<M: StateMachine> {
    pub(crate) commands: Vec<M::Command>,
    pub(crate) machine: Arc<M>,
}

impl<M: StateMachine> Clone for Commands<M> {
    fn clone(&self) -> Self {
        Commands { commands: self.commands.clone(), machine: Arc::clone(&self.machine) }
    }
}

impl<M: StateMachine> PartialEq for Commands<M>
where
    M::Command: PartialEq,
{
    fn eq(&self, other: &Self) -> bool {
        self.commands == other.commands
    }
}

/// Why a run of a sequence disagreed with its model: the step and what happened.
#[derive(Clone, PartialEq, Eq)]
pub struct Violation(pub String);

impl fmt::Debug for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Violation {}

impl<M: StateMachine + Default> Commands<M> {
    /// The sequence `commands` (a regression test's, pasted from a report)
    /// on the machine's default value.
    /// [`Commands::check`] says where a precondition fails, if one does.
    pub fn new(commands: Vec<M::Command>) -> Self {
        Commands::on(M::default(), commands)
    }
}

impl<M: StateMachine> Commands<M> {
    /// The sequence `commands` on `machine`.
    pub fn on(machine: M, commands: Vec<M::Command>) -> Self {
        Commands { commands, machine: Arc::new(machine) }
    }

    /// The generator of sequences on `machine`: what a property over a
    /// machine with a context takes, `#[with(Commands::of(Store::new(4)))]`.
    pub fn of(machine: M) -> WithArgs<Self> {
        Self::generator_with(Arc::new(machine))
    }

    /// The machine the sequence runs on.
    pub fn machine(&self) -> &M {
        &self.machine
    }

    /// The sequence `commands` on this one's machine.
    pub(crate) fn with_commands(&self, commands: Vec<M::Command>) -> Self {
        Commands { commands, machine: Arc::clone(&self.machine) }
    }

    /// The commands, in order.
    pub fn commands(&self) -> &[M::Command] {
        &self.commands
    }

    /// The number of commands.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// Whether there is no command.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// The model states after each step, the initial state first, up to the
    /// first command whose precondition fails (which a generated sequence
    /// never has).
    pub fn states(&self) -> Vec<M::State> {
        let m = &*self.machine;
        let mut state = m.initial_state();
        let mut out = vec![state.clone()];
        for c in &self.commands {
            if !m.precondition(&state, c) {
                break;
            }
            m.next_state(&mut state, c);
            out.push(state.clone());
        }
        out
    }

    /// The model state the sequence reaches (where its first failing
    /// precondition is, if it has one).
    pub fn final_state(&self) -> M::State {
        let m = &*self.machine;
        let mut state = m.initial_state();
        for c in &self.commands {
            if !m.precondition(&state, c) {
                break;
            }
            m.next_state(&mut state, c);
        }
        state
    }

    /// Whether every command's precondition holds.
    pub fn valid(&self) -> bool {
        self.states().len() == self.commands.len() + 1
    }

    /// Run the sequence on a new system under test, checking each step's
    /// precondition, postcondition and the invariant after it; the first
    /// that fails is the error, naming the step.
    pub fn check(&self) -> Result<(), Violation> {
        let mut state = self.machine.initial_state();
        let result = self.check_from(&mut state);
        crate::case::reached_state(crate::hashing::value_key(&state));
        label_run::<M>(&self.commands);
        // The failing case a report shows says how short it is known to be.
        if result.is_err() && crate::case::shown() {
            crate::case::report_note(self.minimality());
        }
        result
    }

    /// Whether the sequence fails, run quietly (no label, no model state told).
    fn fails(&self) -> bool {
        self.check_from(&mut self.machine.initial_state()).is_err()
    }

    /// How short this failing sequence is known to be: "shortest" only when every sequence of fewer
    /// commands was made (by enumerating the generator's choices, up to [`SHORTER_CHECKED`] of them)
    /// and passed; "1-minimal" when no single deletion of a command fails (the sequences with one
    /// command left out whose preconditions hold); otherwise the shorter one that fails.
    fn minimality(&self) -> String {
        let n = self.commands.len();
        for i in 0..n {
            let mut fewer = self.commands.clone();
            fewer.remove(i);
            let fewer = self.with_commands(fewer);
            if fewer.valid() && fewer.fails() {
                return format!("not 1-minimal: it fails without step {} too", i + 1);
            }
        }
        if n == 0 {
            return "shortest: it has no command".to_owned();
        }
        let shorter = refgen_core::interpret::language(
            &CommandsGen::with_len(Arc::clone(&self.machine), 0..=n - 1),
            SHORTER_CHECKED,
            64 * n,
        );
        if let Some((_, c)) = shorter.members.iter().find(|(_, c)| c.fails()) {
            return format!("not shortest: a sequence of {} commands fails too", c.len());
        }
        let checked = shorter.members.len();
        if shorter.complete {
            format!("shortest: every sequence of fewer commands passes ({checked} checked)")
        } else {
            format!(
                "1-minimal: leaving out any one command passes; {checked} shorter sequences checked pass, not all of them"
            )
        }
    }

    /// [`Commands::check`] from `state`, the initial state, which it leaves where the run stopped.
    fn check_from(&self, state: &mut M::State) -> Result<(), Violation> {
        let m = &*self.machine;
        let mut sut = m.new_sut();
        for (i, c) in self.commands.iter().enumerate() {
            let step = i + 1;
            if !m.precondition(state, c) {
                return Err(Violation(format!(
                    "the precondition of step {step} ({c:?}) fails in the model state {state:?}"
                )));
            }
            let out = m.run(&mut sut, c);
            let before = state.clone();
            m.next_state(state, c);
            if !m.postcondition_between(&before, state, c, &out) {
                return Err(Violation(format!(
                    "step {step} ({c:?}) returned {out:?}, which the model does not allow in the state {before:?}"
                )));
            }
            if !m.invariant(state, &sut) {
                return Err(Violation(format!(
                    "after step {step} ({c:?}) the system under test breaks the invariant of the model state {state:?}"
                )));
            }
        }
        Ok(())
    }

    /// [`Commands::check`], panicking with its error: what a `#[property]`
    /// over `Commands<M>` (or a regression test) calls.
    #[track_caller]
    pub fn run(&self) {
        if let Err(v) = self.check() {
            panic!("{v}");
        }
    }
}

/// Labels the current case with what its sequence ran, for the run's statistics (`stats`, the
/// observability lines, the HTML report): `command NAME` for each kind of command in it (the command's
/// `Debug` up to its arguments) and `length A..=B`, its number of commands by powers of two.
pub(crate) fn label_run<M: StateMachine>(commands: &[M::Command]) {
    // One `Debug` per variant met (its name is the same for every command of it), not per command:
    // this runs on every case.
    let mut variants = Vec::new();
    let mut kinds: Vec<String> = Vec::new();
    for c in commands {
        let variant = std::mem::discriminant(c);
        if variants.contains(&variant) {
            continue;
        }
        variants.push(variant);
        let shown = format!("{c:?}");
        let kind = shown.split(|ch: char| ch == '(' || ch == '{' || ch.is_whitespace()).next().unwrap_or("");
        if !kinds.iter().any(|k| k == kind) {
            kinds.push(kind.to_owned());
        }
    }
    for kind in kinds {
        crate::case::report_label(format!("command {kind}"));
    }
    let n = commands.len();
    crate::case::report_label(match n {
        0 => "length 0".to_owned(),
        _ => {
            let lo = 1usize << n.ilog2();
            format!("length {lo}..={}", 2 * lo - 1)
        }
    });
}

/// Writes `commands` as a `vec![...]` whose lines are the numbered steps,
/// each with the model state after it; `indent` is the closing bracket's.
pub(crate) fn write_steps<M: StateMachine>(
    f: &mut fmt::Formatter<'_>,
    machine: &M,
    start: &M::State,
    commands: &[M::Command],
    indent: &str,
    first: usize,
) -> fmt::Result {
    if commands.is_empty() {
        return f.write_str("vec![]");
    }
    let texts: Vec<String> = commands.iter().map(|c| format!("{c:?},")).collect();
    let width = texts.iter().map(|t| t.chars().count()).max().unwrap_or(0);
    writeln!(f, "vec![")?;
    let mut state = start.clone();
    let mut valid = true;
    for (i, (c, text)) in commands.iter().zip(&texts).enumerate() {
        let comment = if valid && machine.precondition(&state, c) {
            machine.next_state(&mut state, c);
            format!("{}. model: {state:?}", first + i)
        } else {
            valid = false;
            format!("{}. (its precondition fails)", first + i)
        };
        writeln!(f, "{indent}    {text:<width$} // {comment}")?;
    }
    write!(f, "{indent}]")
}

impl<M: StateMachine> fmt::Debug for Commands<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = &*self.machine;
        write_steps(f, m, &m.initial_state(), &self.commands, "    ", 1)
    }
}

/// The most shorter sequences a failing sequence's report checks before calling it the shortest.
pub const SHORTER_CHECKED: usize = 2_000;

/// The generator of [`Commands<M>`]: a length, then each step's command from
/// [`StateMachine::commands`] over the model state so far, made again by
/// the core's retrying filter ([`refgen_core::combinators::retrying`], up to
/// 16 tries, each a [`COMMAND`] part of the step's [`STEP`] part) while its
/// precondition fails: its failed tries are recorded as any filter's
/// ([`RETRY`](refgen_core::choice::RETRY) groups), so reflection, shrinking,
/// replay tokens and the guides treat them as they treat an `#[assume]`'s.
/// A step that finds no allowed command ends the sequence there.
pub struct CommandsGen<M> {
    len: Int<usize>,
    machine: Arc<M>,
}

impl<M: StateMachine> CommandsGen<M> {
    /// The generator of sequences on `machine` whose length is uniform in [`StateMachine::len`].
    pub fn new(machine: Arc<M>) -> Self {
        let len = machine.len();
        Self::with_len(machine, len)
    }

    /// The generator of sequences on `machine` whose length is uniform in `len`.
    pub fn with_len(machine: Arc<M>, len: std::ops::RangeInclusive<usize>) -> Self {
        CommandsGen { len: int(len).site(LEN), machine }
    }

    /// One way of making `target`: each command the first way its step's
    /// generator makes it; `None` when there is none (a length out of range,
    /// a precondition that fails, a command `commands` cannot make).
    pub(crate) fn first_way(&self, target: &Commands<M>) -> Option<Way> {
        let m = &*self.machine;
        let mut way = self.len.back(&target.commands.len()).into_iter().next()?;
        let mut state = m.initial_state();
        for c in &target.commands {
            if !m.precondition(&state, c) {
                return None;
            }
            let w = m.commands(&state).back(c).into_iter().next()?;
            way.forest.push(ChoiceTree::group(STEP, vec![ChoiceTree::group(COMMAND, w.forest)]));
            way.prob *= w.prob;
            m.next_state(&mut state, c);
        }
        Some(way)
    }
}

impl<M: StateMachine + Default> Default for CommandsGen<M> {
    fn default() -> Self {
        Self::new(Arc::new(M::default()))
    }
}

/// An extra condition on a step's command, beyond its precondition: given
/// the model state, the commands made so far in this run of steps, and the command.
pub(crate) type Allowed<'a, M> =
    dyn Fn(&<M as StateMachine>::State, &[<M as StateMachine>::Command], &<M as StateMachine>::Command) -> bool + 'a;

/// One step's command over `state`: tries until one's precondition holds
/// (each try a [`COMMAND`] part, a failed one a retry of the core's filter).
/// `Ok(None)` when none does in [`TRIES`] tries (or the source allows no
/// retry and the first fails), or the generator has nothing to give.
pub(crate) fn make_step<'s, M: StateMachine>(
    src: &mut (dyn Source + 's),
    machine: &M,
    state: &M::State,
    allowed: &dyn Fn(&M::Command) -> bool,
) -> Result<Option<M::Command>, Stop> {
    let g = machine.commands(state);
    let once = |src: &mut (dyn Source + 's)| {
        src.enter(COMMAND);
        let made = g.run(src);
        src.leave();
        made
    };
    match retrying(src, TRIES as u32 - 1, once, |c| allowed(c)) {
        Ok(c) => Ok(Some(c)),
        Err(Stop::Invalid | Stop::Void) => Ok(None),
        Err(stop) => Err(stop),
    }
}

/// Runs `n` steps from `state` (advancing it), each a [`STEP`] part, with
/// `allowed` the extra condition on a command (beyond its precondition).
pub(crate) fn make_steps<M: StateMachine>(
    src: &mut dyn Source,
    machine: &M,
    state: &mut M::State,
    n: usize,
    allowed: &Allowed<'_, M>,
) -> Result<Vec<M::Command>, Stop> {
    let mut out: Vec<M::Command> = Vec::with_capacity(n.min(1024));
    for _ in 0..n {
        src.enter(STEP);
        let made = {
            let s: &M::State = state;
            let so_far: &[M::Command] = &out;
            make_step(src, machine, s, &|c| machine.precondition(s, c) && allowed(s, so_far, c))
        };
        src.leave();
        match made? {
            Some(c) => {
                machine.next_state(state, &c);
                out.push(c);
            }
            None => break,
        }
    }
    Ok(out)
}

/// Every way of making `commands` from `state` as [`make_steps`] makes them
/// (each command made at its first try), advancing `state`; no way when a
/// precondition (or `allowed`) fails.
pub(crate) fn steps_back<M: StateMachine>(
    machine: &M,
    state: &mut M::State,
    commands: &[M::Command],
    mut ways: Vec<Way>,
    allowed: &Allowed<'_, M>,
) -> Vec<Way> {
    for (i, c) in commands.iter().enumerate() {
        if ways.is_empty() || !machine.precondition(state, c) || !allowed(state, &commands[..i], c) {
            return Vec::new();
        }
        let parts: Vec<Way> = machine
            .commands(state)
            .back(c)
            .into_iter()
            .map(|w| Way {
                forest: vec![ChoiceTree::group(STEP, vec![ChoiceTree::group(COMMAND, w.forest)])],
                prob: w.prob,
            })
            .collect();
        ways = product(ways, &parts);
        machine.next_state(state, c);
    }
    ways
}

/// No extra condition on a command beyond its precondition.
pub(crate) fn any_command<M: StateMachine>(_: &M::State, _: &[M::Command], _: &M::Command) -> bool {
    true
}

impl<M: StateMachine> Gen for CommandsGen<M> {
    type Value = Commands<M>;

    fn run(&self, src: &mut dyn Source) -> Result<Commands<M>, Stop> {
        let m = &*self.machine;
        let n = self.len.run(src)?;
        let mut state = m.initial_state();
        let commands = make_steps(src, m, &mut state, n, &any_command::<M>)?;
        Ok(Commands { commands, machine: Arc::clone(&self.machine) })
    }

    fn back(&self, target: &Commands<M>) -> Vec<Way> {
        let m = &*self.machine;
        let ways = self.len.back(&target.commands.len());
        steps_back(m, &mut m.initial_state(), &target.commands, ways, &any_command::<M>)
    }
}

/// The body of [`Commands`]' generator under a machine (its argument).
struct CommandsBody;

impl<M: StateMachine> GenWith<Arc<M>> for CommandsBody {
    type Value = Commands<M>;

    fn run_with(&self, machine: &Arc<M>, src: &mut dyn Source) -> Result<Commands<M>, Stop> {
        CommandsGen::new(Arc::clone(machine)).run(src)
    }

    fn run_rng_with(&self, machine: &Arc<M>, rng: &mut DetRng) -> Result<Commands<M>, Stop> {
        CommandsGen::new(Arc::clone(machine)).run_rng(rng)
    }

    fn back_with(&self, machine: &Arc<M>, target: &Commands<M>) -> Vec<Way> {
        CommandsGen::new(Arc::clone(machine)).back(target)
    }
}

/// A sequence's generator takes the machine it runs on as its argument, as a
/// derived type takes its arguments: a field `#[choice(args(machine))]` of a
/// derived type passes it, and [`Commands::of`] gives it.
impl<M: StateMachine> ReflectiveWith for Commands<M> {
    type Args = Arc<M>;

    fn generator_with(machine: Arc<M>) -> WithArgs<Self> {
        WithArgs::new(Rc::new(CommandsBody), machine)
    }
}

/// The sequences on the machine's default value.
impl<M: StateMachine + Default> Reflective for Commands<M> {
    fn generator() -> BoxGen<Self> {
        CommandsGen::<M>::default().boxed()
    }
}
