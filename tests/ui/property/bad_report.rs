use refgen::prelude::*;

#[property(report = 3)]
fn number(x: u8) {
    let _ = x;
}

#[property(report)]
fn no_value(x: u8) {
    let _ = x;
}

fn main() {}
