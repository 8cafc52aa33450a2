use refgen::prelude::*;

#[derive(Reflective)]
struct Point {
    #[choice(weight = 3)]
    x: u8,
}

fn main() {}
