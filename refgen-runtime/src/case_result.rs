//! What one case produced: its tree, how it ended, its arguments, labels, utility and timings.
//!
//! The worker ([`crate::runner`]) makes these; the run counts them, the
//! observer ([`crate::observe`]) writes them, and guides hear them as
//! [`crate::guide::Feedback`].

use crate::guide::Outcome;
use refgen_core::choice::ChoiceTree;
use std::time::Duration;

/// Why a case that ended the process failed.
pub(crate) const ENDED: &str = "the process ended while this case ran, in an earlier run (an abort, a stack overflow, a failed allocation or `std::process::exit`, none of which can be caught; or the run was interrupted): it was not run again, replay it with the token below";

/// How one case ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Status {
    Passed,
    Discarded(String),
    Failed(String),
    /// The generator panicked while making the value (the reason says where).
    GenPanicked(String),
    Hung(Duration),
    /// The case ended the process that ran it (found by a later run).
    Ended,
    /// An example that the generator cannot make.
    NotInRange(String),
}

impl Status {
    pub(crate) fn fails(&self) -> bool {
        matches!(self, Status::Failed(_) | Status::GenPanicked(_) | Status::Hung(_) | Status::Ended)
    }

    pub(crate) fn describe(&self) -> String {
        match self {
            Status::Passed => "it passed".to_owned(),
            Status::Discarded(why) => format!("it was discarded: {why}"),
            Status::Failed(why) | Status::GenPanicked(why) => why.clone(),
            Status::Hung(d) => format!("it ran longer than the time limit of {d:?}"),
            Status::Ended => ENDED.to_owned(),
            Status::NotInRange(v) => format!("{v} is not a value the generator can make"),
        }
    }

    /// The outcome a guide hears.
    pub(crate) fn outcome(&self) -> Outcome {
        match self {
            Status::Passed => Outcome::Passed,
            Status::Discarded(_) | Status::NotInRange(_) => Outcome::Discarded,
            Status::Failed(_) | Status::GenPanicked(_) | Status::Hung(_) | Status::Ended => Outcome::Failed,
        }
    }
}

/// Each argument's name and `Debug`.
pub(crate) type Args = Vec<(String, String)>;

/// What the worker says about one case.
#[derive(Debug, Clone)]
pub(crate) struct CaseResult {
    pub(crate) tree: ChoiceTree,
    pub(crate) status: Status,
    pub(crate) args: Option<Args>,
    pub(crate) labels: Vec<String>,
    pub(crate) utility: Option<f64>,
    /// Its notes (`note!`), when they were kept.
    pub(crate) notes: Vec<String>,
    pub(crate) gen_time: Duration,
    pub(crate) test_time: Duration,
    /// For each choice of the tree, in order, the label of the option taken
    /// when it is a pick (`None` for an integer); empty when not known.
    pub(crate) options: Vec<Option<&'static str>>,
    /// The case's seed when it took the fast path: its tree was not recorded.
    pub(crate) plain: Option<u64>,
    /// A case made again from a seed gave another value than the fast path did.
    pub(crate) remade_differs: bool,
    /// A generated case the guide made by replaying a tree ([`crate::guide::Choices::Replay`]):
    /// an edit of an earlier case. Discarded, it is a rejected edit, not a discard.
    pub(crate) edited: bool,
}

impl CaseResult {
    /// A result with no case behind it.
    pub(crate) fn empty(status: Status) -> Self {
        CaseResult {
            tree: ChoiceTree::root(Vec::new()),
            status,
            args: None,
            labels: Vec::new(),
            utility: None,
            notes: Vec::new(),
            gen_time: Duration::ZERO,
            test_time: Duration::ZERO,
            options: Vec::new(),
            plain: None,
            remade_differs: false,
            edited: false,
        }
    }
}
