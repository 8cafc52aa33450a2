use refgen::prelude::*;

#[property]
struct NotAFunction;

fn main() {}
