//! Property-based testing with reflective generators.
//!
//! One dependency brings the three crates of the project:
//!
//! - [`refgen_core`]: the choice model, generators and combinators, and every
//!   interpretation of a generator (generate, parse, replay leniently,
//!   weighted, language, derivative, reflect, check, probability);
//! - [`refgen_derive`]: `#[derive(Reflective)]` and `#[property]`;
//! - [`refgen_runtime`]: the property runner, guides, shrinking and persistence.
//!
//! `use refgen::prelude::*;` brings what a test needs into scope, the
//! functions that make generators included; the combinators (every
//! generator, [`regex`](fn@combinators::regex) too), the interpretations and
//! the guides have a module each: [`combinators`], [`interpret`], [`guides`].
//!
//! ```
//! use refgen::interpret::{check, generate_recorded, parse_tree, reflect};
//! use refgen::prelude::*;
//!
//! #[derive(Debug, Clone, PartialEq, Reflective)]
//! #[assume(self.lo <= self.hi)]
//! struct Interval {
//!     #[choice(range = 0..=100)]
//!     lo: u8,
//!     #[choice(range = 0..=100)]
//!     hi: u8,
//! }
//!
//! // One generator per type, run forward...
//! let g = Interval::generator();
//! let (value, choices) = generate_recorded(&g, 1);
//! // ...and backward: the value back into the choices that make it.
//! if let Ok(v) = value {
//!     // (without the failed attempts a retried `#[assume]` records)
//!     assert!(reflect(&g, &v).contains(&choices.without_retries()));
//!     assert_eq!(parse_tree(&g, &choices).unwrap(), v);
//! }
//! assert!(!check(&g, &Interval { lo: 9, hi: 3 }));
//!
//! // A property runs under `cargo test` as a `#[test]`:
//! #[property(cases = 500)]
//! fn widening_keeps_order(i: Interval, by: u8) {
//!     assume!(i.hi.checked_add(by).is_some());
//!     assert!(i.lo <= i.hi + by);
//! }
//! ```
//!
//! # Choosing a guide
//!
//! No guide needs choosing: the default, `auto`, generates at random and
//! switches by itself (see [`guides::auto`]). Choose one with
//! `#[property(guide = ...)]` when you know more; [`guides`] has every
//! guide's options and defaults in one table.
//!
//! | `guide = ...` | choose it when |
//! |---|---|
//! | `auto` (the default) | you have no reason to choose |
//! | `random` | you want the plain baseline |
//! | `rl`, `rl(explore = diverse)` | valid inputs are rare under random generation; `diverse` finds the most distinct valid values |
//! | `cgs`, `cgs(samples = N)` | you want more distinct valid values than random at no training cost; it rarely beats `rl` (measured in [`guides::cgs`]) |
//! | `sa` | a bug needs an input that scores high on a measure you can write |
//! | `tuned(like = EXPR)` | you have inputs like the ones that matter |
//! | `mutate`, `mutate(corpus = N)` | you have seeds (`example = ...`) and want larger valid values around them |
//! | `distinct = N` (an option) | you want coverage of cases, not volume |
//!
//! `rl`, `cgs` and `sa` share half their work with `mutate` once a retrying
//! `#[assume]` makes more than one failed attempt per case; `grow = 0` is the
//! guide alone (see [`guides::grow`]).
//!
//! # Targeted properties
//!
//! A property says how close an input came with `maximize!` or `minimize!`;
//! `guide = sa` anneals on it, and `auto` switches to it at the first case
//! that reports one:
//!
//! ```
//! use refgen::prelude::*;
//!
//! #[property(cases = 2_000, guide = sa)]
//! fn sums_stay_small(#[with(vec(int(0u32..=100), 0..=20))] xs: Vec<u32>) {
//!     let total: u32 = xs.iter().sum();
//!     maximize!(total); // or minimize!(...)
//!     assert!(total < 1_900);
//! }
//! ```
//!
//! # Regressions
//!
//! Commit the `regressions/` directory: its files are small and make every
//! machine and CI replay the failures found so far. Delete an entry once its
//! bug has a test of its own. Warnings (a corrupt regressions file set aside,
//! a replay token of another property) go to standard error past the test
//! harness's capture, so they show even when the test passes.

/// The README's code, compiled as a doctest so that its snippet stays complete.
#[cfg(all(doctest, feature = "runtime"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use refgen_core;
pub use refgen_derive;
#[cfg(feature = "runtime")]
pub use refgen_runtime;

pub use refgen_core::{args, bytes, choice, combinators, edit, gen, interpret, laws, reflective, regex, source, trail};
#[cfg(feature = "runtime")]
pub use refgen_runtime::{asyncs, config, distinct, explore, fuzz, guide, guides, html, persist, runner, statem};

/// The generator types and the interpretations, at the root as the core has them (so a path of the
/// core's docs, `refgen_core::X`, is `refgen::X` here).
pub use refgen_core::{
    check, generate, generate_recorded, parse_tree, probability, reflect, replay_lenient, BoxGen, Choice, ChoiceTree,
    DetRng, Gen, Reflective, ReflectiveWith, Source, Stop, Way,
};
/// The macros a property calls, at the root as well as in the prelude.
#[cfg(feature = "runtime")]
pub use refgen_runtime::{assume, classify, label, maximize, minimize, note, target};

/// The derive and `#[synth]`, at the root: what a library that derives `Reflective` for its own
/// types names (`#[cfg_attr(feature = "refgen", derive(refgen::Reflective))]`), with or without the
/// runner (the default feature `runtime`).
pub use refgen_derive::{synth, Reflective};

/// A libFuzzer (cargo-fuzz) target over a property, in one line (the cargo feature `libfuzzer`; see [`fuzz`]).
#[cfg(feature = "libfuzzer")]
pub use refgen_runtime::fuzz_property;

/// What a test file needs, in one `use`: the macros (`#[derive(Reflective)]`,
/// `#[property]`, `assume!`, `maximize!`, `minimize!`, `target!`, `label!`, `note!`,
/// `classify!`), the generator types ([`Reflective`], [`Gen`], [`BoxGen`]), the functions
/// that make generators (`int`, `vec`, `regex`, `pick`, ..., everything of
/// [`combinators`], so a `#[gen(...)]` or `#[choice(with = ...)]` expression
/// needs no other `use`), and the runner ([`Property`](refgen_runtime::runner::Property),
/// [`Config`](refgen_runtime::config::Config)), and for stateful tests
/// [`StateMachine`](refgen_runtime::statem::StateMachine) and
/// [`Commands`](refgen_runtime::statem::Commands). The combinators' types and
/// the rest live in [`combinators`]; interpretations (generate, parse,
/// reflect, check, ...) in [`interpret`], guides in [`guides`].
///
/// ```
/// use refgen::prelude::*;
///
/// #[derive(Debug, Clone, Reflective)]
/// struct Login {
///     #[choice(with = regex("[a-z]{3,8}"))]
///     user: String,
///     #[choice(with = int(0u8..=120))]
///     age: u8,
/// }
///
/// let report = Property::new(Login::generator, |l: Login| l.age <= 120)
///     .check(&Config::new("login").cases(50))
///     .unwrap();
/// assert_eq!(report.cases, 50);
/// ```
pub mod prelude {
    pub use refgen_core::combinators::{
        any_char, any_int, bool, char, char_class, float, from_fns, int, integer, just, lazy, option, overriding, pick,
        pure, recursive, regex, string, vec, void, Overriding,
    };
    pub use refgen_core::{BoxGen, Gen, Reflective, ReflectiveWith};
    #[cfg(feature = "runtime")]
    pub use refgen_derive::property;
    pub use refgen_derive::{synth, Reflective};
    #[cfg(feature = "runtime")]
    pub use refgen_runtime::config::Config;
    #[cfg(feature = "runtime")]
    pub use refgen_runtime::runner::Property;
    #[cfg(feature = "runtime")]
    pub use refgen_runtime::statem::{Commands, StateMachine};
    #[cfg(feature = "runtime")]
    pub use refgen_runtime::{assume, classify, label, maximize, minimize, note, target};
}
