use refgen::prelude::*;

#[derive(Debug, Clone, Reflective)]
enum Coin {
    #[choice()]
    Heads,
    Tails(#[choice()] u8),
}

fn main() {}
