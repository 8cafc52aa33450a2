//! The `arbitrary` bridge under the runner: a type that only implements `arbitrary::Arbitrary` finds a planted bug, shrinks and replays.

use crate::config::Config;
use crate::runner::{Property, RunError};
use refgen_core::combinators::arbitrary;

/// A type with no generator of its own: only `arbitrary::Arbitrary`.
#[derive(Debug, Clone, PartialEq, arbitrary::Arbitrary)]
struct Order {
    quantity: u16,
    discount: u8,
}

/// The planted bug: a large order with a large discount overflows a `u16` total.
fn total(o: &Order) -> Option<u16> {
    o.quantity.checked_add(u16::from(o.discount) * 64)
}

#[test]
fn an_arbitrary_type_finds_a_planted_bug_and_shrinks_it() {
    let p = Property::new(arbitrary::<Order>, |o: Order| total(&o).is_some());
    for seed in 1..=3 {
        let config = Config::new("bridge::order").seed(seed).cases(10_000).no_regressions();
        let Err(RunError::Failed(f)) = p.check(&config) else { panic!("seed {seed}: the bug is found") };
        let shrunk = p.value_of(&f).expect("the shrunk choices make the value");
        assert!(total(&shrunk).is_none(), "seed {seed}: {shrunk:?}");
        // Shrunk: no smaller quantity fails with this discount.
        let smaller = Order { quantity: shrunk.quantity - 1, ..shrunk.clone() };
        assert!(total(&smaller).is_some() || shrunk.quantity == 0, "seed {seed}: {shrunk:?} is not shrunk");
        assert!(f.args[0].1.contains("Order"), "{:?}", f.args);
        assert!(!f.token.is_empty(), "a replay token");
        let replayed = p.check(&config.clone().replay(f.token.clone()));
        assert!(matches!(replayed, Err(RunError::Failed(_))), "seed {seed}: the token replays the failure");
    }
}
