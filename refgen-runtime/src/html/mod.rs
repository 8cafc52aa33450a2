//! HTML reports: one self-contained page per run, and a page comparing runs under different guides.
//!
//! Set `REFGEN_REPORT=<dir>` (or `#[property(report = "dir")]`, or
//! [`Config::report`](crate::config::Config::report)) and each run writes
//! `<dir>/<property>.<guide>.html`: one file, with its style and charts
//! (inline SVG) inside it, no script and nothing fetched from the network.
//! It shows:
//!
//! - the outcome: passed, failed (with the failure's report) or gave up, and the counts;
//! - valid, distinct valid, discarded and failing cases over the cases run;
//! - for every choice point, how often each choice was taken: the
//!   distribution the generator actually produced under the guide, which is
//!   what tuning, RL and simulated annealing change;
//! - value sizes (choices per case) as a histogram;
//! - the labels of passing cases (`label!`, `classify!`) and the utilities
//!   (`target!`, `maximize!`, `minimize!`) over the cases, with the best so far;
//! - the guide, what it said ([`Guide::report`](crate::guide::Guide::report)),
//!   and its own section ([`GuideReport::section`](crate::guide::GuideReport::section)),
//!   such as RLCheck's reward curve or simulated annealing's utility and temperature;
//! - the shrink trace of a failure: the case found, then each smaller failing case kept, as its `Debug`.
//!
//! The page is drawn from the run's observations ([`crate::observe::Observation`]:
//! what each JSON line of [`crate::observe`] says, kept in memory during the
//! run whether or not the lines are written), so a report, the comparison
//! and the Tyche viewer see the same cases. Keeping them costs time: the
//! `report` example measures it.
//!
//! [`compare_page`] reads the observation lines of several runs of the same
//! property under different guides (from [`read_runs`]) and puts them side by
//! side: counts, distinct valid values and valid cases over the cases run,
//! and each choice point's distribution per guide: "which guide should I use
//! for this property?".
//!
//! ```
//! use refgen::combinators::{int, vec};
//! use refgen::{config::Config, html, runner::Property};
//!
//! let dir = std::env::temp_dir().join("reflect-html-doc");
//! let p = Property::new(|| vec(int(0u8..=9), 0..=5), |xs: Vec<u8>| xs.len() <= 5);
//! p.check(&Config::new("doc::lists").cases(50).report(&dir)).unwrap();
//! let page = std::fs::read_to_string(dir.join(html::report_file_name("doc::lists", "auto"))).unwrap();
//! assert!(page.contains("<section id=\"sites\">"));
//! ```

mod data;
mod page;
mod svg;

pub use data::{read_runs, LineError, RunLog, Summary, Timeline};

use crate::guide::ReportSection;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Verdict {
    /// Every case passed.
    #[default]
    Passed,
    /// A case failed.
    Failed,
    /// The run did not pass for another reason (too many discards, a bad replay token, ...).
    GaveUp,
}

/// What a report says beyond the run's cases: how the run ended, and what its guide said.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunEnd {
    /// How the run ended.
    pub verdict: Verdict,
    /// The run's text report: the statistics, or the failure's report.
    pub text: String,
    /// What the guide said ([`crate::guide::Guide::report`]).
    pub notes: Vec<String>,
    /// The guide's own section ([`crate::guide::GuideReport::section`]).
    pub section: Option<ReportSection>,
}

/// `s` with the characters HTML gives meaning to escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The HTML report of `run`, which ended as `end` says.
pub fn report_page(run: &RunLog, end: &RunEnd) -> String {
    page::report(run, end)
}

/// The page comparing `runs`: per property, the last run of each guide, side by side.
pub fn compare_page(runs: &[RunLog]) -> String {
    page::compare(runs)
}

/// The file name of the report of `property` under `guide`: `<property>.<guide>.html`,
/// the property's path with each `::` written `.` (a file name cannot hold
/// `:` on every system), and the guide's name as [`Guide::name`](crate::guide::Guide::name)
/// gives it, which is the spelling `#[property(guide = ...)]` takes: `lists.auto.html`,
/// `tests.sorted.rl(explore = diverse).html`. Any other character a file name cannot
/// hold (`<>:"/\|?*`, controls) becomes `_`.
///
/// ```
/// use refgen::html::report_file_name;
/// assert_eq!(report_file_name("tests::sorted", "mutate"), "tests.sorted.mutate.html");
/// assert_eq!(report_file_name("sorted", "rl(explore = diverse)"), "sorted.rl(explore = diverse).html");
/// ```
pub fn report_file_name(property: &str, guide: &str) -> String {
    let portable = |s: &str| -> String {
        s.chars().map(|c| if c.is_control() || "<>:\"/\\|?*".contains(c) { '_' } else { c }).collect()
    };
    format!("{}.{}.html", portable(&property.replace("::", ".")), portable(guide))
}

/// Writes the report of `run` into `dir` (created if need be), and returns
/// the file's path. The page is written beside it first and renamed into
/// place, so a reader never sees half a page.
pub fn write_report(dir: &Path, run: &RunLog, end: &RunEnd) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let name = report_file_name(&run.property, &run.guide);
    let path = dir.join(&name);
    let partial = dir.join(format!(".{name}.{}.partial", std::process::id()));
    fs::write(&partial, report_page(run, end))?;
    fs::rename(&partial, &path)?;
    Ok(path)
}

/// Reads the observation lines of `files` and writes the page comparing
/// their runs to `out`; a file that cannot be read, or a line that is not an
/// observation, is an error naming the file and the line.
pub fn write_compare(files: &[PathBuf], out: &Path) -> Result<(), String> {
    let mut runs = Vec::new();
    for f in files {
        let text = fs::read_to_string(f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        runs.extend(read_runs(&text).map_err(|e| format!("{}: {e}", f.display()))?);
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    fs::write(out, compare_page(&runs)).map_err(|e| format!("cannot write {}: {e}", out.display()))
}
