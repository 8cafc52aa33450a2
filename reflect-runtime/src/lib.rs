//! Runs properties over reflective generators: the guide interface and its strategies, the runner, shrinking, persistence and reports.
//!
//! - [`guide`]: the interface through which every strategy steers choices, and plain random generation;
//! - [`rl`]: RLCheck's reinforcement-learning guide;
//! - [`runner`]: [`runner::Property`] and its run: cases, discards, panics, hangs, feedback to the guide;
//! - [`shrink`]: shrinking by reflection, on choice trees replayed leniently;
//! - [`persist`]: remembered failures;
//! - [`token`]: one-line replay tokens;
//! - [`observe`]: one JSON line per case, for the Tyche viewer;
//! - [`case`]: what a property says about its case (`assume!`, `target!`, `label!`, `classify!`);
//! - [`config`]: the options of a run and the environment variables that override them.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod case;
pub mod config;
pub mod guide;
pub mod observe;
pub mod persist;
pub mod rl;
pub mod runner;
pub mod shrink;
pub mod token;

/// Everything a test needs from the runtime, in one `use`.
pub mod prelude {
    pub use crate::case::IntoOutcome;
    pub use crate::config::Config;
    pub use crate::guide::{Feedback, Guide, GuidedSource, PathStep, RandomGuide};
    pub use crate::rl::{describe_states, generate_distinct, Abstraction, Distinct, Learner, RlConfig, RlGuide};
    pub use crate::runner::{Failure, Property, Report, RunError};
    pub use crate::{assume, classify, label, target};
}
