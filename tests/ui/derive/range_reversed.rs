use refgen::prelude::*;

#[derive(Reflective)]
struct Sample {
    #[choice(range = 10..=1)]
    value: u8,
}

fn main() {}
