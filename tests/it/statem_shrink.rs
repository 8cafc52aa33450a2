//! Shrinking a state machine's failing sequence to the shortest one, where that needs a command merged into a later one.

use refgen::prelude::*;
use refgen::runner::RunError;
use refgen::statem::{check_state_machine, state_machine_property};
use refgen_fixtures::statem_models::{ArenaMachine, Mem};

#[test]
fn an_allocators_failing_sequence_shrinks_to_two_allocations() {
    // A random failing sequence fills the arena with three or more blocks; the shortest fills it
    // with two, which needs an allocation deleted and a later one made larger.
    for seed in 1..=5 {
        let config = Config::new("arena").seed(seed).cases(10_000).no_timeout();
        let Err(RunError::Failed(f)) = check_state_machine(ArenaMachine, &config) else {
            panic!("seed {seed}: the planted bug is found");
        };
        let shrunk = state_machine_property(ArenaMachine).value_of(&f).expect("the shrunk case parses");
        assert_eq!(shrunk.commands(), [Mem::Alloc(8), Mem::Alloc(8)], "seed {seed}");
    }
}
