use refgen::prelude::*;

#[derive(Reflective)]
#[assume(self.lo <= self.hi, tries = 3)]
struct Interval {
    lo: u8,
    hi: u8,
}

fn main() {}
