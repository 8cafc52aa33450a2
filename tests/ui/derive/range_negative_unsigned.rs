use refgen::prelude::*;

#[derive(Reflective)]
struct Sample {
    #[choice(len = 0..=4, each(range = -1..=9))]
    ids: Vec<u32>,
}

fn main() {}
