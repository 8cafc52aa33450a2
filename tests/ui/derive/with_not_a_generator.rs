use refgen::prelude::*;

#[derive(Debug, Clone, Reflective)]
struct Config {
    #[choice(with = 5)]
    port: u16,
}

fn main() {}
