use refgen::combinators::pure;
use refgen::prelude::*;

#[derive(Clone)]
struct Opaque;

impl Reflective for Opaque {
    fn generator() -> BoxGen<Self> {
        pure(Opaque).boxed()
    }
}

#[property]
fn p(x: Opaque) {
    let _ = x;
}

fn main() {}
