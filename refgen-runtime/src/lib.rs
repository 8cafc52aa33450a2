//! Runs properties over reflective generators: guides, the runner, shrinking, persistence, reports.
//!
//! - [`guide`]: the interface through which every strategy steers choices;
//! - [`guides`]: the strategies, one module each, and the table of them and their `#[property]` options;
//! - [`explore`]: running a generator under a guide outside a property;
//! - [`fuzz`]: a property as a fuzz target, on a fuzzer's bytes (libFuzzer with the feature `libfuzzer`, AFL++ with `afl`);
//! - [`runner`]: [`runner::Property`] and its run: cases, discards, panics, hangs, feedback to the guide;
//! - [`case_result`]: what one case produced;
//! - [`shrink`]: shrinking by reflection, on choice trees replayed leniently;
//! - [`statem`]: stateful (model-based) testing: command sequences over a model, run sequentially or in parallel;
//! - [`persist`]: remembered failures;
//! - [`token`]: one-line replay tokens;
//! - [`observe`]: one JSON line per case, for the Tyche viewer;
//! - [`html`]: an HTML report of a run, and a page comparing guides;
//! - [`asyncs`]: running an async property's cases (`#[property] async fn`, tokio with the feature `tokio`);
//! - [`case`]: what a property says about its case (`assume!`, `target!`, `label!`, `classify!`, `note!`);
//! - [`config`]: the options of a run and the environment variables that override them;
//! - [`hashing`]: deterministic hashing, and when a value is new.

pub mod asyncs;
pub mod case;
pub mod case_result;
pub mod config;
pub mod distinct;
pub mod explore;
pub mod fuzz;
pub mod guide;
pub mod guides;
pub mod hashing;
pub mod html;
pub mod observe;
pub mod persist;
pub mod runner;
pub mod shrink;
pub mod statem;
pub mod token;

#[cfg(all(test, feature = "arbitrary"))]
mod arbitrary_bridge_tests;

/// What the code `#[property]` writes calls: not part of the API, and may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::runner::property::{argument, argument_is_debug, returns_outcome};
}

/// Everything a test needs from the runtime, in one `use` (the facade's
/// `refgen::prelude` is the one to use: this one is kept for old code).
#[doc(hidden)]
pub mod prelude {
    pub use crate::case::IntoOutcome;
    pub use crate::config::Config;
    pub use crate::runner::{Failure, Property, Report, RunError};
    pub use crate::{assume, classify, label, maximize, minimize, note, target};
}
