use refgen::prelude::*;

#[derive(Debug, Clone, Reflective)]
struct Config {
    #[choice(range = 0..=9)]
    digits: Vec<u8>,
    #[choice(range = 1..=10)]
    port: Option<u32>,
    #[choice(regex = "[a-z]+", len = 0..=3)]
    names: Vec<String>,
    #[choice(some(range = 0..=3))]
    count: Vec<u8>,
    #[choice(each(range = 0..=3))]
    flag: bool,
    #[choice(each())]
    empty: Vec<u8>,
    #[choice(each(wieght = 2))]
    typo: Vec<u8>,
    #[choice(each(regex = "[a-z]"))]
    bytes: Vec<u8>,
}

fn main() {}
