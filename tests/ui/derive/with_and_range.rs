use refgen::prelude::*;

#[derive(Reflective)]
struct Point {
    #[choice(with = refgen::refgen_core::combinators::int(0u8..=3), range = 0..=3)]
    x: u8,
}

fn main() {}
