use refgen::prelude::*;

// Not a predicate: the value by value, and a result that is not `bool`.
#[synth]
fn by_value(x: u8) -> bool {
    match x {
        _ => true,
    }
}

#[synth]
fn counts(x: &u8) -> usize {
    match x {
        _ => 1,
    }
}

fn main() {}
