use refgen::prelude::*;

#[property]
fn p(s: String) {
    maximize!(s.clone());
}

fn main() {}
