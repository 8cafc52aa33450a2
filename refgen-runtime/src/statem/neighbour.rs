//! Neighbours of a command sequence for annealing: commands replaced, inserted or deleted.

use super::commands::{Commands, TRIES};
use super::StateMachine;
use rand::Rng;
use refgen_core::gen::Gen;
use refgen_core::source::DetRng;

/// A neighbour of `commands` at temperature `temperature` (in `0..=1`), for
/// [`SaGuide::with_neighbour`](crate::guides::SaGuide::with_neighbour):
/// one edit, plus one more for each third of the temperature, each
/// replacing a command by a fresh one made over the model state before it,
/// inserting a fresh command, or deleting one; then every command whose
/// precondition no longer holds is dropped, so the neighbour is a sequence
/// the generator can make (its length kept within [`StateMachine::len`]).
///
/// The neighbourhood the annealer builds from choice trees makes new parts
/// from each pick's first option, so a longer sequence gets the first
/// command over and over; this one makes new commands as the generator does.
pub fn neighbour<M: StateMachine>(commands: &Commands<M>, temperature: f64, rng: &mut DetRng) -> Commands<M> {
    let m = commands.machine();
    let range = m.len();
    let mut cs: Vec<M::Command> = commands.commands().to_vec();
    let edits = 1 + (temperature.clamp(0.0, 1.0) * 3.0) as usize;
    for _ in 0..edits {
        let op = rng.random_range(0..3u32);
        if op == 2 && cs.len() > *range.start() {
            let i = rng.random_range(0..cs.len());
            cs.remove(i);
            continue;
        }
        let insert = op == 1 || cs.is_empty();
        if insert && cs.len() >= *range.end() {
            continue;
        }
        let i = rng.random_range(0..cs.len() + usize::from(insert));
        let mut state = m.initial_state();
        for c in &cs[..i] {
            if !m.precondition(&state, c) {
                break;
            }
            m.next_state(&mut state, c);
        }
        let g = m.commands(&state);
        let fresh = (0..TRIES).find_map(|_| g.run_rng(rng).ok().filter(|c| m.precondition(&state, c)));
        if let Some(c) = fresh {
            if insert {
                cs.insert(i, c);
            } else {
                cs[i] = c;
            }
        }
    }
    // Keep the commands whose preconditions hold, in order.
    let mut state = m.initial_state();
    cs.retain(|c| {
        let ok = m.precondition(&state, c);
        if ok {
            m.next_state(&mut state, c);
        }
        ok
    });
    commands.with_commands(cs)
}
