use refgen::prelude::*;

#[derive(Reflective)]
enum Coin {
    Heads,
    #[choice(skip, weight = 2)]
    Tails,
}

fn main() {}
