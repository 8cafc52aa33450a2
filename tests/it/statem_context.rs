//! A state machine with a context: one machine type, its value the configuration of a run.

use refgen::interpret::{check, generate_recorded, parse_tree, reflect};
use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{check_state_machine, state_machine_property};
use std::collections::VecDeque;

/// A ring buffer of `capacity` slots against a `VecDeque` model.
#[derive(Debug, Clone)]
struct Ring {
    capacity: usize,
}

#[derive(Debug, Clone, PartialEq, Reflective)]
enum RingCmd {
    Push(#[choice(range = 0..=9)] u8),
    Pop,
}

/// The system under test: its index wraps with a mask, right only for a capacity that is a power of two.
struct RingBuf {
    slots: Vec<u8>,
    head: usize,
    len: usize,
}

impl StateMachine for Ring {
    type State = VecDeque<u8>;
    type Command = RingCmd;
    type Sut = RingBuf;
    type Output = Option<u8>;

    fn initial_state(&self) -> VecDeque<u8> {
        VecDeque::new()
    }
    fn commands(&self, _: &VecDeque<u8>) -> BoxGen<RingCmd> {
        RingCmd::generator()
    }
    fn precondition(&self, model: &VecDeque<u8>, c: &RingCmd) -> bool {
        match c {
            RingCmd::Push(_) => model.len() < self.capacity,
            RingCmd::Pop => !model.is_empty(),
        }
    }
    fn next_state(&self, model: &mut VecDeque<u8>, c: &RingCmd) {
        match c {
            RingCmd::Push(v) => model.push_back(*v),
            RingCmd::Pop => {
                model.pop_front();
            }
        }
    }
    fn new_sut(&self) -> RingBuf {
        RingBuf { slots: vec![0; self.capacity], head: 0, len: 0 }
    }
    fn run(&self, ring: &mut RingBuf, c: &RingCmd) -> Option<u8> {
        let mask = self.capacity - 1;
        match c {
            RingCmd::Push(v) => {
                ring.slots[(ring.head + ring.len) & mask] = *v;
                ring.len += 1;
                None
            }
            RingCmd::Pop => {
                let v = ring.slots[ring.head];
                ring.head = (ring.head + 1) & mask;
                ring.len -= 1;
                Some(v)
            }
        }
    }
    fn postcondition(&self, model: &VecDeque<u8>, c: &RingCmd, out: &Option<u8>) -> bool {
        match c {
            RingCmd::Push(_) => out.is_none(),
            RingCmd::Pop => *out == model.front().copied(),
        }
    }
    fn len(&self) -> std::ops::RangeInclusive<usize> {
        0..=4 * self.capacity
    }
}

#[test]
fn one_machine_type_serves_several_configurations() {
    for capacity in [1, 2, 4, 8] {
        let config = Config::new(format!("context::ring{capacity}")).seed(1).cases(2_000).no_regressions();
        check_state_machine(Ring { capacity }, &config).unwrap();
    }
    // The shortest failures: the mask sends the second push (capacity 3: mask 2; 5: mask 4) or the
    // third (6: mask 5) onto the first's slot, and the first value pops back wrong.
    use RingCmd::{Pop, Push};
    let shortest =
        [(3, vec![Push(0), Push(1), Pop]), (5, vec![Push(0), Push(1), Pop]), (6, vec![Push(0), Push(0), Push(1), Pop])];
    for (capacity, expected) in shortest {
        let config = Config::new(format!("context::ring{capacity}")).seed(1).cases(2_000).no_regressions();
        let Err(RunError::Failed(f)) = check_state_machine(Ring { capacity }, &config) else {
            panic!("capacity {capacity}: the mask's bug is found");
        };
        let shrunk = state_machine_property(Ring { capacity }).value_of(&f).expect("the shrunk case parses");
        assert_eq!(shrunk.commands(), expected, "capacity {capacity}");
        assert_eq!(shrunk.machine().capacity, capacity);
    }
}

#[test]
fn preconditions_read_the_context_forward_and_backward() {
    let g = Commands::of(Ring { capacity: 2 });
    let mut longest = 0;
    for seed in 0..200 {
        let (c, choices) = generate_recorded(&g, seed);
        let c = c.unwrap();
        assert!(c.valid());
        longest = longest.max(c.states().iter().map(VecDeque::len).max().unwrap_or(0));
        assert!(reflect(&g, &c).contains(&choices.without_retries()), "seed {seed}");
        assert_eq!(parse_tree(&g, &choices).unwrap().commands(), c.commands());
    }
    assert_eq!(longest, 2, "the buffer fills to its capacity and no further");
    let three = vec![RingCmd::Push(1), RingCmd::Push(2), RingCmd::Push(3)];
    assert!(!check(&g, &Commands::on(Ring { capacity: 2 }, three.clone())));
    assert!(check(&Commands::of(Ring { capacity: 4 }), &Commands::on(Ring { capacity: 4 }, three)));
}

#[property(cases = 300)]
fn a_ring_of_four_keeps_its_order(#[with(Commands::of(Ring { capacity: 4 }))] commands: Commands<Ring>) {
    commands.run();
}
