use refgen::prelude::*;

#[derive(Clone, Reflective)]
struct Chain {
    value: u8,
    next: Box<Chain>,
}

fn main() {}
