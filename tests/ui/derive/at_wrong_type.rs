use refgen::prelude::*;
use refgen::refgen_core::combinators::int;

#[derive(Clone, Debug, PartialEq)]
struct Celsius(i16);

impl From<i16> for Celsius {
    fn from(c: i16) -> Self {
        Celsius(c)
    }
}

#[derive(Reflective)]
struct Reading {
    #[choice(with = int(-40i16..=50))]
    #[at(|c: &Celsius| Some(c.0 as u8))]
    temperature: Celsius,
}

fn main() {}
