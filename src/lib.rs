//! Property-based testing with reflective generators.
//!
//! One dependency brings the three crates of the project:
//!
//! - [`reflect_core`]: the choice model, generators and combinators, and every
//!   interpretation of a generator (generate, parse, replay leniently,
//!   weighted, language, derivative, reflect, check, probability);
//! - [`reflect_derive`]: `#[derive(Reflective)]` and `#[property]`;
//! - [`reflect_runtime`]: the property runner, guides, shrinking and persistence.
//!
//! `use reflect::prelude::*;` brings what a test needs into scope; the
//! combinators, the interpretations and the guides have a module each.
//!
//! ```
//! use reflect::interpret::{check, generate_recorded, parse_tree, reflect};
//! use reflect::prelude::*;
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

/// The README's code, compiled as a doctest so that its snippet stays complete.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub use reflect_core;
pub use reflect_derive;
pub use reflect_runtime;

pub use reflect_core::{bytes, choice, combinators, edit, interpret, laws, regex};
pub use reflect_runtime::{config, distinct, explore, fuzz, guide, guides, html, runner};

/// A libFuzzer (cargo-fuzz) target over a property, in one line (the cargo feature `libfuzzer`; see [`fuzz`]).
#[cfg(feature = "libfuzzer")]
pub use reflect_runtime::fuzz_property;

/// What a test file needs, in one `use`: the macros (`#[derive(Reflective)]`,
/// `#[property]`, `assume!`, `target!`, `label!`, `classify!`), the
/// generator types ([`Reflective`](reflect_core::Reflective), [`Gen`](reflect_core::Gen),
/// [`BoxGen`](reflect_core::BoxGen)) and the runner ([`Property`](reflect_runtime::runner::Property),
/// [`Config`](reflect_runtime::config::Config)). Combinators live in [`combinators`],
/// interpretations (generate, parse, reflect, check, ...) in [`interpret`],
/// guides in [`guides`].
pub mod prelude {
    pub use reflect_core::{BoxGen, Gen, Reflective};
    pub use reflect_derive::{property, Reflective};
    pub use reflect_runtime::config::Config;
    pub use reflect_runtime::runner::Property;
    pub use reflect_runtime::{assume, classify, label, maximize, minimize, target};
}
