//! The report types of a run: [`Report`], [`Failure`] and [`RunError`].

use crate::shrink::ShrinkStats;
use crate::token;
use refgen_core::choice::ChoiceTree;
use std::collections::BTreeMap;
use std::fmt;
use std::path::PathBuf;
use std::time::Duration;

/// The result of a run that passed.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The property's name.
    pub name: String,
    /// The run's seed.
    pub seed: u64,
    /// Valid cases that passed.
    pub cases: u64,
    /// Cases discarded (`assume!`, or the generator's validity condition).
    pub discards: u64,
    /// Cases a guide made by editing an earlier case (a mutant, a graft, a
    /// rotation: [`crate::guide::Choices::Replay`]) that were discarded: the
    /// guide's search, not a sign that the property's inputs are rarely
    /// valid, so they are not in [`Report::discards`].
    pub rejected: u64,
    /// How many distinct values (by `Debug`, as [`crate::hashing::value_key`]
    /// keys them) the generated cases that passed had, when the run counted
    /// them ([`crate::config::Config::count_distinct`]; `#[property(stats)]`
    /// and `REFGEN_STATS=1` turn it on); `None` otherwise. Counting keys every
    /// value, which costs a formatting of it per case.
    pub distinct: Option<u64>,
    /// How many distinct model states the generated cases' command sequences reached, when the
    /// property runs a state machine ([`crate::statem`]); `None` otherwise.
    pub model_states: Option<u64>,
    /// Remembered failures replayed first.
    pub regressions_replayed: usize,
    /// Examples written by hand that ran.
    pub examples_run: usize,
    /// How many valid cases had each label.
    pub labels: BTreeMap<String, u64>,
    /// Warnings met on the way (such as a corrupt regressions file). They
    /// are written to standard error as they happen (past the test
    /// harness's capture), and listed in [`Report::statistics`].
    pub warnings: Vec<String>,
    /// Health notes of a run that passed: most of its time went to generation, or most values made were
    /// rejected by a validity condition. Each is written once to standard error (past the test harness's
    /// capture) at the end of the run, and listed in [`Report::statistics`].
    pub health: Vec<String>,
    /// Set when the run only replayed a token, and the case passed.
    pub replay_note: Option<String>,
    /// The guide's name.
    pub guide: String,
    /// The best utility the property reported (`maximize!`, `minimize!`
    /// as its negation, `target!`) over the generated cases, and at which.
    pub best_utility: Option<BestUtility>,
    /// What the guide said about the run ([`crate::guide::Guide::report`]).
    pub guide_notes: Vec<String>,
    /// How long the run took.
    pub elapsed: Duration,
    /// Time spent making values (the generator), over every case. Between
    /// two generated cases the clock is read once, so the runner's and the
    /// guide's own work between them counts here too: `gen_time` and
    /// `test_time` add up to nearly all of `elapsed`. Cases on the fast path
    /// run in batches timed as a whole, and only a batch's first case is
    /// split between generation and test (a clock reading between the two);
    /// the rest of the batch is shared out in its proportion. The sum is
    /// exact; the division is an estimate.
    pub gen_time: Duration,
    /// Time spent testing them (the property), over every case.
    pub test_time: Duration,
    /// Set when the run's time budget ([`crate::config::Config::max_time`])
    /// stopped generation before `cases` valid cases passed: the budget.
    /// [`Report::cases`] says how many ran.
    pub out_of_time: Option<Duration>,
}

/// The best utility of a run, and where it was reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BestUtility {
    /// The utility (`minimize!` reports its value negated).
    pub utility: f64,
    /// The generated case that reached it (0-based).
    pub case: u64,
}

impl fmt::Display for BestUtility {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "best utility {} at generated case #{}", self.utility, self.case)
    }
}

impl Report {
    /// A case passed, labelled `labels`.
    #[inline]
    pub(super) fn passed(&mut self, labels: &[String]) {
        self.cases += 1;
        if !labels.is_empty() {
            self.label(labels);
        }
    }

    /// Counts a passed case's labels.
    fn label(&mut self, labels: &[String]) {
        for l in labels {
            match self.labels.get_mut(l) {
                Some(n) => *n += 1,
                None => _ = self.labels.insert(l.clone(), 1),
            }
        }
    }

    /// Generated case `case` reached `utility`, when it reported one.
    pub(super) fn reached(&mut self, utility: Option<f64>, case: u64) {
        if let Some(u) = utility {
            if self.best_utility.is_none_or(|b| u > b.utility) {
                self.best_utility = Some(BestUtility { utility: u, case });
            }
        }
    }

    /// Where the run's time went, in one line (kept out of
    /// [`Report::statistics`], which is the same on every run of a seed).
    pub fn timings(&self) -> String {
        format!(
            "`{}` took {:.3?}: generation {:.3?}, tests {:.3?}",
            self.name, self.elapsed, self.gen_time, self.test_time
        )
    }

    /// The distribution of labels as a table.
    pub fn statistics(&self) -> String {
        let mut out =
            format!("statistics of `{}` ({} valid cases, {} discarded):\n", self.name, self.cases, self.discards);
        if self.rejected > 0 {
            out.push_str(&format!("  {} of the guide's edits of earlier cases were rejected\n", self.rejected));
        }
        if let Some(distinct) = self.distinct {
            out.push_str(&format!("  {distinct} distinct values among the generated cases that passed\n"));
        }
        if let Some(states) = self.model_states {
            out.push_str(&format!("  {states} distinct model states reached by the generated command sequences\n"));
        }
        if let Some(budget) = self.out_of_time {
            out.push_str(&format!("  stopped by the time budget of {budget:?} after {} valid cases\n", self.cases));
        }

        if let Some(best) = &self.best_utility {
            out.push_str(&format!("  {best}\n"));
        }
        for note in &self.guide_notes {
            out.push_str(&format!("  {note}\n"));
        }
        for w in &self.warnings {
            out.push_str(&format!("  warning: {w}\n"));
        }
        for h in &self.health {
            out.push_str(&format!("  health: {h}\n"));
        }
        if self.labels.is_empty() {
            out.push_str("  (no labels; label cases with `label!` or `classify!`)\n");
        }
        let mut rows: Vec<_> = self.labels.iter().collect();
        rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let width = rows.iter().map(|(l, _)| l.len()).max().unwrap_or(0);
        for (label, n) in rows {
            let pct = if self.cases == 0 { 0.0 } else { 100.0 * *n as f64 / self.cases as f64 };
            out.push_str(&format!("  {label:<width$}  {n:>7}  {pct:>5.1}%\n"));
        }
        out
    }
}

/// How a failing case failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FailureKind {
    /// The property panicked, returned `false` or returned `Err`.
    Failed,
    /// The generator panicked while making the input (in a `map` or `bind`
    /// closure, or a validity condition); the input shown is the choices it
    /// made before the panic.
    GeneratorPanicked,
    /// The case ended the process that ran it, in an earlier run (an abort,
    /// a stack overflow, `std::process::exit`): this run found the case it
    /// left behind, and did not run it again.
    EndedProcess,
    /// The case ran longer than the time limit.
    Hung(Duration),
}

/// Where a failing case came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// The `n`-th generated case (0-based).
    Generated(u64),
    /// A remembered failure from this file.
    Regression(PathBuf),
    /// The `n`-th example written by hand.
    Example(usize),
    /// A replay token.
    Replay,
    /// A fuzzer's input ([`crate::fuzz`]).
    Fuzzer,
}

/// A failing case, shrunk, with everything needed to reproduce it. Its
/// `Display` is the report `#[property]` prints.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The property's name.
    pub name: String,
    /// The run's seed.
    pub seed: u64,
    /// The guide's name.
    pub guide: String,
    /// Each argument's name and `Debug`.
    pub args: Vec<(String, String)>,
    /// Why the case failed: the panic message and location, or what the property returned.
    pub reason: String,
    /// What the property noted about the failing case (`note!`), in order.
    pub notes: Vec<String>,
    /// How it failed.
    pub kind: FailureKind,
    /// Valid cases that passed before it.
    pub cases: u64,
    /// Cases discarded before it.
    pub discards: u64,
    /// Tests to failure: the cases the property was run on up to and
    /// including the first failing one (passed cases and the failure; a
    /// discarded case is not a test).
    pub tests: u64,
    /// What shrinking did, and how long it took.
    pub shrink: ShrinkStats,
    /// The choices of the final case.
    pub tree: ChoiceTree,
    /// The one-line replay token of the final case (see [`crate::token`]);
    /// empty when the case's choices are not known (it hung or ended the
    /// process while a guide was making it), so that no token stands for another input.
    pub token: String,
    /// Where the failing case came from.
    pub origin: Origin,
    /// Where it was remembered, if it was.
    pub saved_to: Option<PathBuf>,
    /// Set when the shrunk case passed when replayed for the report: the
    /// property is flaky (depends on more than its arguments).
    pub flaky: bool,
    /// Warnings met on the way.
    pub warnings: Vec<String>,
    /// The best utility reached before the failure, if the property reported any.
    pub best_utility: Option<BestUtility>,
    /// What the guide said about the run ([`crate::guide::Guide::report`]).
    pub guide_notes: Vec<String>,
    /// Time from the start of the run to the end of the first failing case
    /// (shrinking not included: see [`ShrinkStats::elapsed`]).
    pub time_to_failure: Duration,
    /// Time spent making values (the generator) up to the failure, with
    /// the runner's own work between cases (see [`Report::gen_time`]).
    pub gen_time: Duration,
    /// Time spent testing them (the property) up to the failure.
    pub test_time: Duration,
}

impl Failure {
    /// The test's name as `cargo test` filters it (the name without its crate).
    fn test_filter(&self) -> &str {
        self.name.split_once("::").map_or(&self.name, |(_, rest)| rest)
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = match &self.kind {
            FailureKind::Failed => "failed".to_owned(),
            FailureKind::GeneratorPanicked => "failed: its generator panicked".to_owned(),
            FailureKind::EndedProcess => "ended the process in an earlier run".to_owned(),
            FailureKind::Hung(d) => format!("hung (stopped after the time limit of {d:?})"),
        };
        let from = match &self.origin {
            _ if self.kind == FailureKind::EndedProcess => "(this run found the case it left in flight)".to_owned(),
            Origin::Generated(n) => format!("on generated case #{n}"),
            Origin::Regression(p) => format!("on a remembered failure from {}", p.display()),
            Origin::Example(n) => format!("on example #{n}"),
            Origin::Replay => "on the replayed case".to_owned(),
            Origin::Fuzzer => "on a fuzzer's input".to_owned(),
        };
        writeln!(f, "property `{}` {how} {from}", self.name)?;
        writeln!(f, "minimal failing input:")?;
        for (name, value) in &self.args {
            writeln!(f, "    {name} = {value}")?;
        }
        for note in &self.notes {
            writeln!(f, "note: {note}")?;
        }
        writeln!(f, "reason: {}", self.reason)?;
        if self.flaky {
            writeln!(f, "warning: this input passed when replayed: the property is flaky")?;
        }
        writeln!(
            f,
            "seed: {:#x}, guide: {}, {} cases passed, {} discarded, {} shrink steps ({} tried{})",
            self.seed,
            self.guide,
            self.cases,
            self.discards,
            self.shrink.steps,
            self.shrink.attempts,
            if self.shrink.budget_exhausted { ", budget exhausted" } else { "" }
        )?;
        writeln!(
            f,
            "found after {:.3?} ({} tests; generation {:.3?}, tests {:.3?}), shrunk in {:.3?}",
            self.time_to_failure, self.tests, self.gen_time, self.test_time, self.shrink.elapsed
        )?;
        if let Some(best) = &self.best_utility {
            writeln!(f, "{best}")?;
        }
        for note in &self.guide_notes {
            writeln!(f, "{note}")?;
        }
        if self.token.is_empty() {
            writeln!(f, "replay: no token (the case's choices are not known)")?;
        } else {
            writeln!(f, "replay: REFGEN_REPLAY={} cargo test {}", self.token, self.test_filter())?;
        }
        if let Some(p) = &self.saved_to {
            writeln!(f, "remembered in {} (replayed first from now on)", p.display())?;
        }
        for w in &self.warnings {
            writeln!(f, "warning: {w}")?;
        }
        Ok(())
    }
}

/// Why a run did not pass.
#[derive(Debug, Clone)]
pub enum RunError {
    /// A case failed.
    Failed(Box<Failure>),
    /// Most cases were discarded: passing would be vacuous.
    Vacuous {
        /// The property's name.
        name: String,
        /// Valid cases that passed.
        valid: u64,
        /// Cases discarded.
        discards: u64,
        /// The valid cases asked for.
        wanted: u64,
        /// The most common reasons for discarding, with counts.
        reasons: Vec<(String, u64)>,
        /// The guide's name.
        guide: String,
        /// What the guide said about the run ([`crate::guide::Guide::report`]).
        guide_notes: Vec<String>,
    },
    /// The replay token could not be read.
    BadToken(token::TokenError),
    /// The property's generator or guide could not be built (its
    /// construction panicked, as `regex` does on a pattern it cannot honour,
    /// or a tuning on examples the generator cannot make).
    Setup {
        /// The property's name.
        name: String,
        /// What could not be built, and the panic's message.
        reason: String,
    },
    /// Observations were asked for ([`crate::config::Config::observability`],
    /// `REFGEN_OBSERVABILITY`) and cannot be written: why.
    Observability(String),
    /// An example written by hand is not a value the generator can make.
    BadExample {
        /// The property's name.
        name: String,
        /// Which example (0-based).
        index: usize,
        /// Its `Debug`.
        value: String,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Failed(fail) => fmt::Display::fmt(fail, f),
            RunError::Vacuous { name, valid, discards, wanted, reasons, guide, guide_notes } => {
                writeln!(
                    f,
                    "property `{name}` gave up: {discards} cases were discarded and only {valid} of the {wanted} wanted were valid, so passing would say little."
                )?;
                for (r, n) in reasons {
                    writeln!(f, "    discarded {n} times: {r}")?;
                }
                writeln!(f, "guide: {guide}")?;
                for note in guide_notes {
                    writeln!(f, "{note}")?;
                }
                if reasons.iter().any(|(r, _)| r.starts_with("assume!(")) {
                    writeln!(
                        f,
                        "`assume!` in the property sees a value only after it was made, so generation cannot aim at it: \
                         state the condition on the type as `#[assume(...)]`, or build values that meet it (below)."
                    )?;
                }
                if !matches!(guide.as_str(), "auto") && !guide.starts_with("rl") {
                    writeln!(f, "A guide that learns validity may help: `#[property(guide = auto)]` (the default) or `guide = rl`.")?;
                }
                write!(
                    f,
                    "Build valid values directly rather than filtering them: a generator that only makes valid values, \
                     such as `#[choice(with = vec(int(0u8..=255), 0..=8).map(sorted, |v: &Vec<u8>| Some(v.clone())))]` \
                     for a sorted list (see `with` in `#[derive(Reflective)]`'s docs); or allow more discards with \
                     `#[property(max_discard_ratio = N)]`."
                )
            }
            RunError::BadToken(e) => write!(f, "REFGEN_REPLAY: {e}"),
            RunError::Setup { name, reason } => {
                write!(f, "property `{name}` cannot run: {reason}")
            }
            RunError::Observability(why) => write!(
                f,
                "REFGEN_OBSERVABILITY: {why}; give a writable `.jsonl` file or directory, or unset the variable"
            ),
            RunError::BadExample { name, index, value } => write!(
                f,
                "property `{name}`: example #{index} ({value}) is not a value the generator can make, so it cannot be reflected into choices"
            ),
        }
    }
}

impl std::error::Error for RunError {}
