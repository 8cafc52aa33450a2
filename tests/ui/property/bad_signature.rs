use refgen::prelude::*;

#[property(executor = refgen::asyncs::block_on)]
fn not_async(x: u8) {
    let _ = x;
}

#[property]
fn is_generic<T: Reflective>(x: T) {
    let _ = x;
}

#[property]
fn no_arguments() {}

#[property]
#[test]
fn already_a_test(x: u8) {
    let _ = x;
}

fn main() {}
