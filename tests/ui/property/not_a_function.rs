use reflect::prelude::*;

#[property]
struct NotAFunction;

fn main() {}
