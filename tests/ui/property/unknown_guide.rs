use refgen::prelude::*;

#[property(guide = rlcheck)]
fn p(x: u8) {
    let _ = x;
}

fn main() {}
