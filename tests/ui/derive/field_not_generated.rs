use refgen::prelude::*;

#[derive(Debug, Clone, Reflective)]
struct Account {
    #[choice(default, range = 0..=9)]
    id: u8,
    #[choice(filter = |x| *x > 0)]
    balance: u32,
    #[choice(skip)]
    cache: Vec<u8>,
    #[choice(default = 1, default = 2)]
    version: u8,
}

fn main() {}
