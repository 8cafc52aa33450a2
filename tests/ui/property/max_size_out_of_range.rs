use refgen::prelude::*;

#[property(max_size = 0)]
fn p(xs: Vec<u8>) {
    let _ = xs;
}

fn main() {}
