//! The runs a report shows, read back from observation lines, and what follows from them.

use crate::observe::{CaseStatus, Observation, Taken, SHRINKING};
use crate::shrink::shortlex_less;
use crate::token;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::fmt;

/// One run of a property: its cases in order.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLog {
    /// The property's name.
    pub property: String,
    /// The guide's name.
    pub guide: String,
    /// When the run started, in seconds since the Unix epoch.
    pub run_start: f64,
    /// The cases, in the order they ran.
    pub cases: Vec<Observation>,
}

/// A line that is not an observation of a case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineError {
    /// The line's number (1-based).
    pub line: usize,
    /// What is wrong with it.
    pub problem: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for LineError {}

/// The counts of a run's search (the cases before any shrinking).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Summary {
    /// Cases run.
    pub cases: u64,
    /// Cases that passed.
    pub valid: u64,
    /// Cases discarded, a guide's rejected edits of earlier cases included
    /// (the report counts those apart: [`crate::runner::Report::rejected`]).
    pub discarded: u64,
    /// Cases that failed.
    pub failed: u64,
    /// Values among the passing cases with different `Debug`s.
    pub distinct_valid: u64,
    /// The best utility reported, if any.
    pub best_utility: Option<f64>,
    /// The mean number of choices of a case.
    pub mean_size: f64,
}

/// Cumulative counts after each case of a run's search.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Timeline {
    /// Cases that passed, after each case.
    pub valid: Vec<u64>,
    /// Cases discarded, after each case.
    pub discarded: Vec<u64>,
    /// Distinct passing values, after each case.
    pub distinct_valid: Vec<u64>,
    /// Cases that failed, after each case.
    pub failed: Vec<u64>,
}

/// The runs in observation lines (JSON lines, as [`crate::observe`] writes
/// them): the cases of one property, guide and start time make one run, in
/// the order the runs first appear. Blank lines are skipped.
pub fn read_runs(text: &str) -> Result<Vec<RunLog>, LineError> {
    let mut runs: Vec<RunLog> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |problem: String| LineError { line: i + 1, problem };
        let v: Value = serde_json::from_str(line).map_err(|e| bad(format!("not JSON: {e}")))?;
        let (property, guide, run_start, case) = Observation::from_json(&v).map_err(bad)?;
        add_case(&mut runs, property, guide, run_start, case);
    }
    Ok(runs)
}

/// Adds `case` to its run in `runs`, or starts the run.
fn add_case(runs: &mut Vec<RunLog>, property: String, guide: String, run_start: f64, case: Observation) {
    match runs.iter_mut().find(|r| r.property == property && r.guide == guide && r.run_start == run_start) {
        Some(run) => run.cases.push(case),
        None => runs.push(RunLog { property, guide, run_start, cases: vec![case] }),
    }
}

impl RunLog {
    /// The cases of the search, in order (not those shrinking a failure or checking it).
    pub fn searched(&self) -> impl Iterator<Item = &Observation> + '_ {
        self.cases.iter().filter(|c| c.searched())
    }

    /// The counts of the search.
    pub fn summary(&self) -> Summary {
        let t = self.timeline();
        let last = |v: &[u64]| v.last().copied().unwrap_or(0);
        let (mut best, mut sizes) = (None::<f64>, 0usize);
        for c in self.searched() {
            if let Some(u) = c.utility {
                best = Some(best.map_or(u, |b| b.max(u)));
            }
            sizes += c.size;
        }
        let cases = t.valid.len() as u64;
        Summary {
            cases,
            valid: last(&t.valid),
            discarded: last(&t.discarded),
            failed: last(&t.failed),
            distinct_valid: last(&t.distinct_valid),
            best_utility: best,
            mean_size: if cases == 0 { 0.0 } else { sizes as f64 / cases as f64 },
        }
    }

    /// The cumulative counts after each case of the search.
    pub fn timeline(&self) -> Timeline {
        let mut t = Timeline::default();
        let (mut valid, mut discarded, mut failed) = (0, 0, 0);
        let mut seen = HashSet::new();
        for c in self.searched() {
            match c.status {
                CaseStatus::Passed => {
                    valid += 1;
                    seen.insert(c.representation.as_str());
                }
                CaseStatus::Discarded => discarded += 1,
                CaseStatus::Failed => failed += 1,
            }
            t.valid.push(valid);
            t.discarded.push(discarded);
            t.failed.push(failed);
            t.distinct_valid.push(seen.len() as u64);
        }
        t
    }

    /// For every choice point, how often each choice was taken over the search's cases.
    pub fn site_counts(&self) -> BTreeMap<String, BTreeMap<Taken, u64>> {
        let mut out: BTreeMap<String, BTreeMap<Taken, u64>> = BTreeMap::new();
        for c in self.searched() {
            for (site, taken) in &c.sites {
                let counts = out.entry(site.clone()).or_default();
                for choice in taken {
                    *counts.entry(choice.clone()).or_insert(0) += 1;
                }
            }
        }
        out
    }

    /// How many passing cases had each label.
    pub fn label_counts(&self) -> BTreeMap<String, u64> {
        let mut out = BTreeMap::new();
        for c in self.searched().filter(|c| c.status == CaseStatus::Passed) {
            for l in &c.labels {
                *out.entry(l.clone()).or_insert(0) += 1;
            }
        }
        out
    }

    /// The utility each case of the search reported, with the case's position in the search.
    pub fn utilities(&self) -> Vec<(usize, f64)> {
        self.searched().enumerate().filter_map(|(i, c)| c.utility.map(|u| (i, u))).collect()
    }

    /// The shrink trace of the run's failure: the failing case the search
    /// found, then every shrink candidate the shrinker kept (one that failed
    /// the same way with fewer or smaller choices than the last one kept, as
    /// [`crate::shrink`] decides). Empty when no case failed.
    pub fn shrink_trace(&self) -> Vec<&Observation> {
        let Some(first) = self.searched().find(|c| c.status == CaseStatus::Failed) else {
            return Vec::new();
        };
        let way = |c: &Observation| c.generator_panicked;
        let choices = |c: &Observation| token::decode(&c.choices).map(|t| t.choices).unwrap_or_default();
        let mut trace = vec![first];
        let mut current = choices(first);
        for c in self.cases.iter().filter(|c| c.how == SHRINKING && c.status == CaseStatus::Failed) {
            let next = choices(c);
            if way(c) == way(first) && shortlex_less(&next, &current) {
                trace.push(c);
                current = next;
            }
        }
        trace
    }
}
