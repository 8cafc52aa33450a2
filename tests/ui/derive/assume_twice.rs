use refgen::prelude::*;

#[derive(Reflective)]
#[assume(self.lo <= self.hi)]
#[assume(self.hi < 100)]
#[assume(self.lo > 0, top)]
struct Interval {
    lo: u8,
    hi: u8,
}

fn main() {}
