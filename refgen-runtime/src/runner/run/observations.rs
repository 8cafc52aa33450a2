//! What a run writes about its cases: observation lines, the HTML report's log and guide section.

use crate::case_result::CaseResult;
use crate::config::Config;
use crate::guide::ReportSection;
use crate::html::RunLog;
use crate::observe::{Lines, Observer};
use std::sync::{Arc, Mutex};

/// Where a run's cases are written, when they are observed at all.
pub(super) struct Observations {
    /// Where observation lines go, when they are asked for.
    observer: Option<Observer>,
    /// Why the observations asked for cannot be written, if they cannot.
    pub(super) bad: Option<String>,
    /// Makes the observation lines of the run's cases.
    lines: Lines,
    /// The run's cases, kept for its HTML report when one is asked for.
    pub(super) log: Option<Arc<Mutex<RunLog>>>,
    /// The guide's section of the HTML report, as it said when last asked.
    pub(super) section: Option<ReportSection>,
}

impl Observations {
    /// What `config` asks to be written about the cases of a run under the guide `guide`.
    pub(super) fn new(config: &Config, guide: &str) -> Self {
        let mut bad = None;
        let observer = config.observability.as_ref().and_then(|p| match Observer::open(p, &config.name) {
            Ok(o) => Some(o),
            Err(e) => {
                bad = Some(format!("cannot write observations to {}: {e}", p.display()));
                None
            }
        });
        let lines = Lines::new(&config.name, guide);
        let log = config.report.as_ref().map(|_| {
            Arc::new(Mutex::new(RunLog {
                property: config.name.clone(),
                guide: guide.to_owned(),
                run_start: lines.run_start,
                cases: Vec::new(),
            }))
        });
        Observations { observer, bad, lines, log, section: None }
    }

    /// Whether cases are observed (written as lines, or kept for the HTML
    /// report): their arguments are then rendered, and their options labelled.
    pub(super) fn render(&self) -> bool {
        self.observer.is_some() || self.log.is_some()
    }

    /// Writes the case `r`, made `how`, where cases are observed.
    pub(super) fn case(&mut self, r: &CaseResult, how: &str) {
        if !self.render() {
            return;
        }
        let case = self.lines.observe(r, how);
        if let Some(o) = &mut self.observer {
            o.write(&self.lines.json(&case));
        }
        if let Some(log) = &self.log {
            log.lock().unwrap_or_else(|e| e.into_inner()).cases.push(case);
        }
    }
}
