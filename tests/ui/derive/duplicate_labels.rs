use refgen::prelude::*;

#[derive(Reflective)]
enum Coin {
    #[choice(label = "side")]
    Heads,
    #[choice(label = "side")]
    Tails,
}

fn main() {}
