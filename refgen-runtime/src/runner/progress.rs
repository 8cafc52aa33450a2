//! Progress of a long run on the terminal: cases, the valid rate, the best utility, a summary.
//!
//! A run that takes longer than [`AFTER`] draws a progress bar on standard
//! error, only when standard error is a terminal and the `CI` environment
//! variable is not set (so never in CI logs); when the run ends, the bar is
//! cleared and one summary line is written in its place. The bars of runs
//! in parallel (the tests of one `cargo test`) are drawn together, one line each.

use super::report::{Report, RunError};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// A run shows its progress once it has taken this long.
pub(super) const AFTER: Duration = Duration::from_secs(2);

/// The bar's text is brought up to date at most this often.
const REFRESH: Duration = Duration::from_millis(100);

/// The bars of the runs in progress in this process (tests run in parallel), drawn together.
fn bars() -> &'static MultiProgress {
    static BARS: OnceLock<MultiProgress> = OnceLock::new();
    BARS.get_or_init(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr()))
}

/// The progress of one run.
pub(super) struct Progress {
    name: String,
    wanted: u64,
    start: Instant,
    last: Instant,
    enabled: bool,
    bar: Option<ProgressBar>,
}

/// Whether progress may be shown: standard error is a `terminal`, and `ci` (the `CI` variable) is unset or empty.
pub(super) fn enabled(terminal: bool, ci: Option<&str>) -> bool {
    terminal && ci.is_none_or(|v| v.trim().is_empty())
}

/// The bar's message: the valid rate and the best utility so far.
pub(super) fn message(report: &Report) -> String {
    let run = report.cases + report.discards;
    let rate = if run == 0 { 100.0 } else { 100.0 * report.cases as f64 / run as f64 };
    match report.best_utility {
        Some(b) => format!("{rate:.1}% valid, best utility {}", b.utility),
        None => format!("{rate:.1}% valid"),
    }
}

/// The line that ends a run that showed its progress.
pub(super) fn summary(name: &str, result: &Result<Report, RunError>, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    match result {
        Ok(r) => format!(
            "refgen: `{name}` passed {} valid cases ({} discarded, {}{}) in {secs:.1}s",
            r.cases,
            r.discards,
            match r.rejected {
                0 => String::new(),
                n => format!("{n} edits rejected, "),
            },
            message(r)
        ),
        Err(RunError::Failed(f)) => {
            format!("refgen: `{name}` failed after {} valid cases ({} discarded) in {secs:.1}s", f.cases, f.discards)
        }
        Err(_) => format!("refgen: `{name}` did not pass, after {secs:.1}s"),
    }
}

impl Progress {
    /// The progress of the run of `name`, which wants `wanted` valid cases.
    pub(super) fn new(name: &str, wanted: u64) -> Self {
        let ci = std::env::var("CI").ok();
        let now = Instant::now();
        Progress {
            name: name.to_owned(),
            wanted,
            start: now,
            last: now,
            enabled: enabled(std::io::stderr().is_terminal(), ci.as_deref()),
            bar: None,
        }
    }

    /// A case ended; `report` holds the counts so far.
    pub(super) fn tick(&mut self, report: &Report) {
        if !self.enabled || self.last.elapsed() < REFRESH {
            return;
        }
        self.last = Instant::now();
        if self.bar.is_none() {
            if self.start.elapsed() < AFTER {
                return;
            }
            let bar = bars().add(ProgressBar::new(self.wanted));
            let style = ProgressStyle::with_template("{prefix} [{elapsed}] {wide_bar} {pos}/{len} valid cases, {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.set_prefix(format!("refgen: `{}`", self.name));
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_position(report.cases);
            bar.set_message(message(report));
        }
    }

    /// The run ended: clear the bar, if one was shown, and write the summary line in its place.
    pub(super) fn finish(&mut self, result: &Result<Report, RunError>) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
            bars().remove(&bar);
            let _ = bars().println(summary(&self.name, result, self.start.elapsed()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runner::BestUtility;

    #[test]
    fn progress_only_on_a_terminal_outside_ci() {
        assert!(enabled(true, None));
        assert!(enabled(true, Some("")));
        assert!(!enabled(true, Some("true")));
        assert!(!enabled(false, None));
    }

    #[test]
    fn the_message_and_summary_give_counts_rate_and_best_utility() {
        let r = Report {
            cases: 75,
            discards: 25,
            best_utility: Some(BestUtility { utility: 12.5, case: 3 }),
            ..Report::default()
        };
        assert_eq!(message(&r), "75.0% valid, best utility 12.5");
        let edited = Report { rejected: 7, ..r.clone() };
        assert_eq!(
            summary("m::p", &Ok(r), Duration::from_millis(2500)),
            "refgen: `m::p` passed 75 valid cases (25 discarded, 75.0% valid, best utility 12.5) in 2.5s"
        );
        // A guide's rejected edits are not discards: they leave the valid rate alone.
        assert_eq!(
            summary("m::p", &Ok(edited), Duration::from_millis(2500)),
            "refgen: `m::p` passed 75 valid cases (25 discarded, 7 edits rejected, 75.0% valid, best utility 12.5) in 2.5s"
        );
    }
}
