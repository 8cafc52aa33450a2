//! A library's own types, derived behind its feature `refgen` on the light build of `refgen`, generated in a user's tests.

use refgen::interpret::{check, generate};
use refgen::laws;
use refgen::prelude::*;
use refgen_library_example::{Discount, Percent};

#[test]
fn a_librarys_types_generate_and_reflect() {
    let g = Discount::generator();
    assert_eq!(laws::round_trip(&g, 200), 200);
    let made: Vec<Discount> = (0..200).filter_map(|s| generate(&g, s).ok()).collect();
    assert!(made.iter().any(|d| matches!(d, Discount::Share(_))));
    assert!(made.iter().any(|d| matches!(d, Discount::Fixed { .. })));
    // The library's conditions hold backward too.
    assert!(!check(&g, &Discount::Fixed { off: 50, min: 10 }));
    assert!(!check(&Percent::generator(), &Percent(101)));
}

#[property(cases = 300)]
fn a_discount_never_raises_the_price(d: Discount, price: u32) {
    assert!(d.apply(price) <= price);
}
