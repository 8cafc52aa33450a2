use refgen::prelude::*;

#[derive(Reflective)]
struct Sample {
    #[choice(range = 0..=10)]
    value: f64,
}

fn main() {}
