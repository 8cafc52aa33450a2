use refgen::prelude::*;

#[property(casez = 10)]
fn p(x: u8) {
    let _ = x;
}

fn main() {}
