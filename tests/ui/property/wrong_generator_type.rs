use reflect::combinators::int;
use reflect::prelude::*;

#[property]
fn p(#[gen(int(0u8..=9))] x: String) {
    let _ = x;
}

fn main() {}
