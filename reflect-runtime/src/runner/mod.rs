//! The property runner: generate cases with a guide, run the property, catch panics and hangs, shrink, remember and report.
//!
//! A [`Property`] is a generator (made by a function, so it can be built on
//! the thread that runs the cases) and a test. [`Property::check`] runs it
//! under a [`Config`](crate::config::Config):
//!
//! 1. with a replay token (`REFLECT_REPLAY`), only that case runs;
//! 2. remembered failures (see [`crate::persist`]) run first, then the
//!    examples written by hand ([`Property::example`]), whose reflected
//!    choices the guide hears as cases (a search may start from them);
//! 3. then generated cases, each from its own seed derived from the run's
//!    seed, answered by the guide, until `cases` valid cases passed. A case
//!    `assume!` or the generator's validity condition rejects is discarded;
//!    a run with too many discards stops with [`RunError::Vacuous`] rather
//!    than passing vacuously. The guide hears [`Feedback`](crate::guide::Feedback) after every case;
//! 4. a failing case is shrunk ([`crate::shrink`]), replayed once more to
//!    print its arguments, remembered, and returned as a [`Failure`] whose
//!    `Display` is the report.
//!
//! Cases run on a worker thread that owns the generator, the guide and the
//! values (so none of them need be `Send`). The runner waits for each case
//! at most [`Config::case_timeout`](crate::config::Config::case_timeout); a case that takes longer fails as
//! hanging, and its thread is abandoned (Rust cannot stop a thread; it ends
//! with the process). A hanging case is reported as found, not shrunk:
//! every shrink candidate that hangs would cost a time limit and a thread.

mod property;
mod report;
mod run;
mod worker;

pub use crate::hashing::case_seed;
pub use property::{argument, argument_is_debug, returns_outcome, Property};
pub use report::{BestUtility, Failure, FailureKind, Origin, Report, RunError};
