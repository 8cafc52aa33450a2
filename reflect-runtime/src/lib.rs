//! Runs properties over reflective generators: the guide interface and its strategies, the runner, shrinking, persistence and reports.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod guide;

/// Everything a test needs from the runtime, in one `use`.
pub mod prelude {
    pub use crate::guide::{Feedback, Guide, GuidedSource, PathStep, RandomGuide};
}
