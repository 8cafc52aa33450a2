use refgen::prelude::*;

#[derive(Reflective)]
#[assume(self.lo <= self.hi, retries = "many")]
struct Interval {
    lo: u8,
    hi: u8,
}

#[derive(Reflective)]
#[assume(self.lo <= self.hi, retries = 5000)]
struct Wide {
    lo: u8,
    hi: u8,
}

fn main() {}
