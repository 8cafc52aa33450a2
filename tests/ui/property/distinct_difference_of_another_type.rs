use refgen::prelude::*;

// The difference must be over the argument's type: the error is at the difference.
#[property(distinct = 3, difference = numeric_distance(10, |x: &i64| i128::from(*x)))]
fn difference_of_another_type(x: u8) {
    let _ = x;
}

fn main() {}
