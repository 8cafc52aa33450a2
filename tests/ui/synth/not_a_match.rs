use refgen::prelude::*;

#[derive(Debug, Clone, PartialEq)]
pub struct Pair(u8, u8);

// The body must be a `match` on the value.
#[synth]
fn ordered(p: &Pair) -> bool {
    p.0 <= p.1
}

fn main() {}
