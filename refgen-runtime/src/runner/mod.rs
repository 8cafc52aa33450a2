//! The property runner: cases under a guide, panics and hangs caught, failures shrunk and reported.
//!
//! A [`Property`] is a generator (made by a function, so it can be built on
//! the thread that runs the cases) and a test. [`Property::check`] runs it
//! under a [`Config`]:
//!
//! 1. with a replay token (`REFGEN_REPLAY`) this property printed, only
//!    that case runs, exactly as the token's choices make it, and it is not
//!    shrunk again (the token shows the input its report showed); whether it
//!    passed is said on standard error. A token names its property: another
//!    property runs its cases as usual, and says once, on standard error,
//!    that the token is not its own;
//! 2. remembered failures (see [`crate::persist`]) run first, then the
//!    examples written by hand ([`Property::example`]), whose reflected
//!    choices the guide hears as cases (a search may start from them);
//! 3. then generated cases, each from its own seed derived from the run's
//!    seed, answered by the guide, until `cases` valid cases passed. A case
//!    `assume!` or the generator's validity condition rejects is discarded;
//!    a run with too many discards stops with [`RunError::Vacuous`] rather
//!    than passing vacuously. A rejected case that the guide made by
//!    editing an earlier one ([`Choices::Replay`](crate::guide::Choices::Replay):
//!    a mutant, a graft, a rotation) is the guide's search, not a sign that
//!    valid inputs are rare: it is counted apart ([`Report::rejected`]),
//!    against a budget of its own of the same size, and once that is spent
//!    the run's remaining cases are random generation's, which the guide
//!    hears without planning them (a warning says so). The guide hears
//!    [`Feedback`](crate::guide::Feedback) after every case;
//! 4. a failing case is shrunk ([`crate::shrink`]) among cases that fail
//!    the same way (a generator's panic, or the property's failure),
//!    replayed a few times (a case that passes in any replay is reported as
//!    flaky) and once more to print its arguments, remembered, and returned
//!    as a [`Failure`] whose `Display` is the report.
//!
//! A generator that panics while making a case keeps the choices it made
//! before the panic: the failure is [`FailureKind::GeneratorPanicked`], its
//! input those choices. A generator that cannot even be built is
//! [`RunError::Setup`]. With a regressions directory, each case's choices
//! are written to an in-flight file before the property runs
//! ([`crate::persist::InFlight`]): a case that ends the process (which no
//! thread can catch) is reported by the next run as
//! [`FailureKind::EndedProcess`], without running it again. A panic that
//! cannot unwind (one in a destructor while unwinding) aborts the process;
//! the panic hook then prints the case's earlier panics, which it otherwise
//! keeps quiet.
//!
//! Generated cases under plain random generation (the `random` guide, the
//! default `auto` guide until it switches, and the fresh cases of mutation,
//! `mutate` and the default guide's grower) take the fast path: the
//! value is made by [`Gen::run_rng`](refgen_core::gen::Gen::run_rng) from
//! the case's seed, with no guided source and no choice tree; a case that
//! fails is made again from the same seed under a recorder for its tree
//! (and tested again: the report never shows an input that did not fail;
//! see [`crate::guide::Choices::Plain`]). A guide that keeps new values
//! ([`crate::guide::Choices::Plain::hear`]) is told each value's key,
//! and a new value's choices, made again from its seed under a recorder.
//!
//! With a per-case time limit
//! ([`Config::case_timeout`](crate::config::Config::case_timeout), 10 s by
//! default) the run goes on a thread of its own that runs every case inline
//! (it builds the generator and the guide there, so neither they nor the
//! values need be `Send`),
//! and the calling thread watches it (no round trip per case): a case that takes longer
//! fails as hanging, and the run's thread is abandoned (Rust cannot stop a
//! thread; it ends with the process). A hanging case is reported as found,
//! not shrunk; a hang while shrinking reports the failure being shrunk as
//! shrunk so far. [`Config::max_time`](crate::config::Config::max_time)
//! bounds the whole run: generation stops once it is spent, and the report
//! says so.

mod exits;
mod panics;
mod progress;
pub(crate) mod property;
mod remake;
mod report;
mod run;
mod supervise;
mod watch;
mod worker;

pub use crate::hashing::case_seed;
pub use property::Property;
pub use report::{BestUtility, Failure, FailureKind, Origin, Report, RunError};
pub(crate) use run::Run;

use crate::config::Config;
use panics::panic_message;

impl<V: 'static> Property<V> {
    /// Run the property under `config`.
    pub fn check(&self, config: &Config) -> Result<Report, RunError> {
        // The runner runs on boxed values: compiled once here, not once per property's type.
        check_erased(&self.erased(), config)
    }

    /// Run the property under `config` and panic with the report if it does
    /// not pass (what `#[property]` calls). The panic is located at the
    /// caller (the `#[property]` function), not in the runner. Statistics
    /// asked for ([`Config::statistics`]), with the run's timings, go straight to the standard error,
    /// so `cargo test` shows them without `--nocapture`.
    #[track_caller]
    pub fn assert(&self, config: &Config) {
        match self.check(config) {
            Ok(report) => {
                if config.statistics {
                    use std::io::Write;
                    // Not `eprintln!`: the test harness captures that, and hides it for a passing test.
                    let _ = writeln!(std::io::stderr(), "{}  {}", report.statistics(), report.timings());
                }
            }
            Err(e) => panic!("{e}"),
        }
    }
}

/// [`Property::check`] on boxed values.
fn check_erased(p: &Property<property::Erased>, config: &Config) -> Result<Report, RunError> {
    // A generator that cannot be built is a setup error, not a failing case.
    // Both are caught quietly: the error says what the panic said, once.
    if let Err(payload) = panics::quietly(|| drop((p.gen)())) {
        let reason = format!("building its generator panicked: {}", panic_message(&*payload));
        return Err(RunError::Setup { name: config.name.clone(), reason });
    }
    // So is a guide that cannot be built (examples it cannot be tuned by, say).
    if let Err(payload) = panics::quietly(|| drop((config.guide)())) {
        let reason = format!("building its guide panicked: {}", panic_message(&*payload));
        return Err(RunError::Setup { name: config.name.clone(), reason });
    }
    match config.case_timeout {
        None => Run::new(p.clone(), config, None).go(),
        Some(limit) => supervise::watched(p, config, limit, supervise::Job::Search, 0),
    }
}
