//! What a new user pastes compiles with the one `use` line the docs give: generators in
//! `#[gen(...)]` and `#[choice(with = ...)]` from the prelude, every generator (`regex` too) in
//! `refgen::combinators` with the old paths kept, and `examples_from_dir` in scope in `tuned(...)`.

use refgen::prelude::*;

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Login {
    #[choice(with = regex("[a-z]{3,8}"))]
    user: String,
    #[choice(with = int(0u8..=120))]
    age: u8,
    #[choice(with = vec(int(0u16..=9), 0..=3))]
    pins: Vec<u16>,
}

#[property(cases = 50)]
fn logins_are_in_range(login: Login, #[gen(int(1u8..=9))] digit: u8) {
    assert!((3..=8).contains(&login.user.len()) && login.age <= 120 && (1..=9).contains(&digit));
}

#[property(cases = 50, guide = tuned(like = examples_from_dir("tests/data/small_numbers")))]
fn tuned_by_files_without_an_import(#[gen(int(0u8..=9))] x: u8) {
    assert!(x <= 9);
}

#[test]
fn every_generator_is_in_combinators_and_the_old_paths_still_work() {
    let new = refgen::combinators::regex("[0-9]{2}");
    let old = refgen::regex::regex("[0-9]{2}");
    let (a, b) = (refgen::interpret::generate(&new, 3).unwrap(), refgen::interpret::generate(&old, 3).unwrap());
    assert_eq!(a, b);
    let _: refgen::combinators::Regex = new;
    let _ = refgen::refgen_core::prelude::regex("a");
}

/// The advice of the `cgs` docs, on their example made rarer (sorted lists of up to 12 digits): at an
/// equal budget, `rl(explore = diverse)` finds more distinct valid values than `cgs`, and `cgs` at least
/// as many as random generation.
#[test]
fn the_guide_advice_of_the_cgs_docs_holds() {
    use refgen::guides::rl::RlConfig;
    use refgen::guides::{CgsGuide, RandomGuide, RlGuide};
    use refgen::refgen_runtime::explore::generate_distinct;
    // Discarding, not retrying, as the docs' numbers were measured (a retried filter is rejection sampling).
    let g = vec(int(0u8..=9), 0..=12).filter(|xs: &Vec<u8>| xs.windows(2).all(|w| w[0] <= w[1])).retries(0);
    let found = |guide: &mut dyn refgen::refgen_runtime::guide::Guide| {
        generate_distinct(&g, guide, 20_000, 1).unique_valid.len()
    };
    let random = found(&mut RandomGuide);
    let cgs = found(&mut CgsGuide::default());
    let diverse = found(&mut RlGuide::new(RlConfig::diverse()));
    assert!(cgs >= random, "cgs {cgs}, random {random}");
    assert!(diverse > 2 * cgs, "rl(explore = diverse) {diverse}, cgs {cgs}");
}
