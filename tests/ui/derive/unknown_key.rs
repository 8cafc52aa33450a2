use refgen::prelude::*;

#[derive(Reflective)]
enum Coin {
    #[choice(wieght = 2)]
    Heads,
    Tails,
}

fn main() {}
