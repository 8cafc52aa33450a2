use refgen::prelude::*;

// Every mistake in `cgs(...)` is reported, each at its tokens.
#[property(guide = cgs(samples = "many"))]
fn not_a_number(x: u8) {
    let _ = x;
}

#[property(guide = cgs(samples = 0))]
fn zero_samples(x: u8) {
    let _ = x;
}

#[property(guide = cgs(depth = 3))]
fn unknown_key(x: u8) {
    let _ = x;
}

#[property(guide = cgs(grow = 1.5))]
fn too_much_growth(x: u8) {
    let _ = x;
}

fn main() {}
