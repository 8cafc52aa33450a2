use refgen::prelude::*;

#[derive(Clone, Reflective)]
#[reflect(depth = 0)]
enum List {
    Nil,
    Cons(u8, Box<List>),
}

fn main() {}
