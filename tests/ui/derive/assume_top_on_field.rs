use refgen::prelude::*;

#[derive(Reflective)]
struct Interval {
    lo: u8,
    #[assume(*self > 3, top)]
    hi: u8,
}

fn main() {}
