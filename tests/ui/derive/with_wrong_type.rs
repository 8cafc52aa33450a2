use refgen::prelude::*;
use refgen::refgen_core::combinators::int;

#[derive(Reflective)]
struct Point {
    #[choice(with = int(0u16..=3))]
    x: u8,
}

fn main() {}
