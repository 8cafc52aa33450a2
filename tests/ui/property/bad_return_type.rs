use refgen::prelude::*;

#[property]
fn p(x: u8) -> u8 {
    x
}

fn main() {}
