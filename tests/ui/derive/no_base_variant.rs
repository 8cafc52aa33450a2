use refgen::prelude::*;

#[derive(Clone, Reflective)]
enum Stream {
    Cons(u8, Box<Stream>),
    Twice(Box<Stream>, Box<Stream>),
}

fn main() {}
