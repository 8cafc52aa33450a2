use refgen::prelude::*;

// Each wrong option of `rl(...)` is reported at its own tokens: a name the guide does not
// have, a key it does not take, a value of the wrong type, a key given twice.
#[property(guide = rl(explore = greedy))]
fn unknown_exploration(x: u8) {
    let _ = x;
}

#[property(guide = rl(abstraction = Forest))]
fn unknown_abstraction(x: u8) {
    let _ = x;
}

#[property(guide = rl(temperature = 2))]
fn unknown_key(x: u8) {
    let _ = x;
}

#[property(guide = rl(explore = uniform))]
fn a_name_of_another_key(x: u8) {
    let _ = x;
}

fn main() {}
