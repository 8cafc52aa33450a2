use refgen::prelude::*;

#[property]
fn takes_a_str(s: &str) {
    assert!(s.len() < 100);
}

#[property]
fn takes_a_slice(xs: &[u8], n: &u32) {
    assert!(xs.len() < *n as usize);
}

fn main() {}
