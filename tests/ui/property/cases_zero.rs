use refgen::prelude::*;

#[property(cases = 0)]
fn p(x: u8) {
    let _ = x;
}

fn main() {}
