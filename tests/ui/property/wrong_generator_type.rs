use refgen::combinators::int;
use refgen::prelude::*;

#[property]
fn p(#[gen(int(0u8..=9))] x: String) {
    let _ = x;
}

fn main() {}
