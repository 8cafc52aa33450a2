use refgen::prelude::*;

#[derive(Reflective)]
struct Name<'a> {
    text: &'a str,
}

fn main() {}
