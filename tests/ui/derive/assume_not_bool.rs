use refgen::prelude::*;

#[derive(Reflective)]
#[assume(self.lo)]
struct Interval {
    lo: u8,
    hi: u8,
}

fn main() {}
