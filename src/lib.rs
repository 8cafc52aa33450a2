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
