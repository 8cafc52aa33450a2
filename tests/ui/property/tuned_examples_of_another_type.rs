use refgen::prelude::*;

// The examples must be values of the argument's type: the error is at the examples.
#[property(guide = tuned(like = [1u16, 2u16]))]
fn examples_of_another_type(x: u8) {
    let _ = x;
}

fn main() {}
