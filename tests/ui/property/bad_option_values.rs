use refgen::prelude::*;

// Every mistake of one attribute is reported together.
#[property(cases = "many", seed = 1, seed = 2, stats = true, guide, regressions = 3)]
fn p(x: u8) {
    let _ = x;
}

fn main() {}
