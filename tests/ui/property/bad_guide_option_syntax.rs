use refgen::prelude::*;

// A guide's options are `key = value`, each key once: the macro checks this for every guide
// (and leaves the keys and values to the guide).
#[property(guide = cgs(samples = 5, samples = 6, 7))]
fn twice_and_positional(x: u8) {
    let _ = x;
}

#[property(guide = rl(window = 3, window = 4))]
fn twice(x: u8) {
    let _ = x;
}

#[property(guide = mutate(corpus = 8, 3))]
fn positional(x: u8) {
    let _ = x;
}

fn main() {}
