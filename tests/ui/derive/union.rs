use refgen::prelude::*;

#[derive(Reflective)]
union Bits {
    int: u32,
    float: f32,
}

fn main() {}
