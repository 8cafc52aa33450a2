use refgen::prelude::*;

#[derive(Reflective)]
#[choice(weight = 2)]
struct Point {
    x: u8,
    y: u8,
}

fn main() {}
