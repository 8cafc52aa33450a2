use refgen::prelude::*;

// Every misuse of `distinct` / `difference` is reported, each at its tokens.
#[property(distinct = 0)]
fn zero(x: u8) {
    let _ = x;
}

#[property(distinct = "many")]
fn not_a_number(x: u8) {
    let _ = x;
}

#[property(distinct = 5, cases = 10, guide = rl)]
fn with_cases_and_guide(x: u8) {
    let _ = x;
}

#[property(difference = cover)]
fn difference_alone(x: u8) {
    let _ = x;
}

#[property(distinct = 5, difference)]
fn difference_without_value(x: u8) {
    let _ = x;
}

#[property(distinct = 5, distinct = 6)]
fn twice(x: u8) {
    let _ = x;
}

fn main() {}
