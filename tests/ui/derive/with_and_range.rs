use reflect::prelude::*;

#[derive(Reflective)]
struct Point {
    #[choice(with = reflect::reflect_core::combinators::int(0u8..=3), range = 0..=3)]
    x: u8,
}

fn main() {}
