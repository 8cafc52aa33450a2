use refgen::prelude::*;

#[derive(Reflective)]
struct Sample {
    #[choice(len = 1..=3)]
    count: u8,
}

fn main() {}
