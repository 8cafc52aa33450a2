use refgen::prelude::*;

#[derive(Reflective)]
enum Coin {
    #[choice(weight = 0)]
    Heads,
    Tails,
}

fn main() {}
