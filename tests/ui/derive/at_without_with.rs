use refgen::prelude::*;

#[derive(Reflective)]
struct Reading {
    #[at(|t: &u8| Some(*t))]
    temperature: u8,
}

fn main() {}
