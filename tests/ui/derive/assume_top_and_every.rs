use refgen::prelude::*;

#[derive(Reflective)]
#[assume(self.lo <= self.hi, top, every)]
struct Interval {
    lo: u8,
    hi: u8,
}

fn main() {}
