use refgen::prelude::*;

#[derive(Reflective)]
struct Sample {
    #[choice(range = 0..=300)]
    byte: u8,
}

fn main() {}
