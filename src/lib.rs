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
//! `use reflect::prelude::*;` brings everything a test needs into scope.
//!
//! ```
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
//!     assert!(reflect(&g, &v).contains(&choices));
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

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub use reflect_core;
pub use reflect_derive;
pub use reflect_runtime;

/// Everything a user needs, in one `use`.
pub mod prelude {
    pub use reflect_core::prelude::*;
    #[allow(unused_imports)]
    pub use reflect_derive::*;
    pub use reflect_runtime::prelude::*;
}
