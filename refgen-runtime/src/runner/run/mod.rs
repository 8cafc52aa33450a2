//! The run's lifecycle: a token, regressions, examples, then generated cases; a failure is shrunk.

mod failure;
mod health;
mod observations;

use super::exits::Live;
use super::progress::Progress;
use super::property::Property;
use super::report::{Failure, FailureKind, Origin, Report, RunError};
use super::watch::{Found, Watch};
use super::worker::{Batch, CaseRequest, CaseRunner, Make};
use crate::case_result::{CaseResult, Status, ENDED};
use crate::config::Config;
use crate::guide::ReportSection;
use crate::hashing::case_seed;
use crate::html::{self, RunEnd, RunLog, Verdict};
use crate::observe::{CHECKING_FLAKINESS, EDITED, MINIMAL, SHRINKING};
use crate::persist::{InFlight, InFlightCase, Store};
use crate::shrink::{self, Budget, ShrinkStats};
use crate::token;
use observations::Observations;
use refgen_core::choice::ChoiceTree;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- the run

/// Writes the HTML report of a run that ended with `result` into `dir`; why it could not, if it could not.
pub(super) fn write_html(
    dir: &Path,
    log: &RunLog,
    result: &Result<Report, RunError>,
    section: Option<ReportSection>,
) -> Result<(), String> {
    let end = RunEnd {
        verdict: match result {
            Ok(_) => Verdict::Passed,
            Err(RunError::Failed(_)) => Verdict::Failed,
            Err(_) => Verdict::GaveUp,
        },
        text: match result {
            Ok(report) => report.statistics(),
            Err(e) => e.to_string(),
        },
        notes: match result {
            Ok(report) => report.guide_notes.clone(),
            Err(RunError::Failed(f)) => f.guide_notes.clone(),
            Err(_) => Vec::new(),
        },
        section,
    };
    html::write_report(dir, log, &end)
        .map(drop)
        .map_err(|e| format!("cannot write the HTML report to {}: {e}", dir.display()))
}

/// The most cases in a batch ([`Batch`]).
const MAX_BATCH: u64 = 1024;

/// The length of the batch after one of `len` cases that took `took`: twice
/// as long while batches are quick, half as long once one is slow, so that
/// a batch takes about a millisecond (the run's time budget, its progress
/// bar and the split of time between generation and test are looked at
/// between batches).
fn next_batch_len(len: u64, took: Duration) -> u64 {
    if took < Duration::from_micros(500) {
        (len * 2).min(MAX_BATCH)
    } else if took > Duration::from_millis(2) {
        (len / 2).max(1)
    } else {
        len
    }
}

/// Why the replay token of `config` is not this property's own, when it
/// was printed by another property (its stamp names another): the property
/// then runs its cases as if no token were given. A token that cannot be
/// read, or has no stamp, is taken as the property's own (and a token that
/// cannot be read is an error).
fn foreign_token(config: &Config) -> Option<String> {
    let stamp = token::decode(config.replay.as_deref()?).ok()?.stamp?;
    let name = &config.name;
    (stamp.property != token::Stamp::new(name, "").property).then(|| {
        format!(
            "REFGEN_REPLAY: the token is not `{name}`'s own (another property printed it), so `{name}` runs its cases as usual"
        )
    })
}

pub(crate) struct Run<V: 'static> {
    prop: Property<V>,
    config: Config,
    runner: CaseRunner<V>,
    seed: u64,
    guide: String,
    /// Where the run's cases are written (lines, the HTML report's log).
    obs: Observations,
    progress: Progress,
    report: Report,
    /// Whether cases are observed, and their arguments rendered ([`Observations::render`]).
    render: bool,
    /// The thread watching the run for hangs, if one does.
    watch: Option<Arc<Watch>>,
    /// Where the cases now running come from (for a hang's report).
    at: Origin,
    /// When the run began.
    started: Instant,
    /// The run's in-flight file, if it has one.
    inflight: Option<PathBuf>,
    /// The run's largest size, set on its thread while it lives.
    _size: refgen_core::combinators::sizes::MaxSize,
}

impl<V: 'static> Run<V> {
    pub(crate) fn new(prop: Property<V>, config: &Config, watch: Option<Arc<Watch>>) -> Self {
        // Before anything is generated or reflected (examples, stored failures).
        let size = refgen_core::combinators::sizes::set_max_size(config.max_size);
        let mut warnings = Vec::new();
        // A token printed by another property is not this one's to replay: it runs its cases.
        let mut config = Cow::Borrowed(config);
        if let Some(w) = foreign_token(&config) {
            config.to_mut().replay = None;
            warnings.push(w);
        }
        let config = &*config;
        // A replayed token is run by hand: no in-flight file.
        let inflight = match (&config.regressions, &config.replay) {
            (Some(dir), None) => InFlight::create(dir, &config.name)
                .map_err(|e| warnings.push(format!("cannot write the in-flight case to {}: {e}", dir.display())))
                .ok(),
            _ => None,
        };
        let inflight_path = inflight.as_ref().map(|f| f.path().to_owned());
        if let (Some(w), Some(path)) = (&watch, &inflight_path) {
            *w.inflight.lock().unwrap_or_else(|e| e.into_inner()) = Some(path.clone());
        }
        // The worker owns the in-flight file, and removes it when the run ends.
        let mut runner = CaseRunner::new(prop.clone(), config, inflight, watch.clone());
        let seed = config.effective_seed();
        let guide = runner.guide_name();
        let obs = Observations::new(config, &guide);
        if let (Some(w), Some(log)) = (&watch, &obs.log) {
            *w.log.lock().unwrap_or_else(|e| e.into_inner()) = Some(log.clone());
        }
        let render = obs.render();
        if render {
            runner.observe();
        }
        let report = Report { name: config.name.clone(), seed, guide: guide.clone(), warnings, ..Report::default() };
        Run {
            prop,
            config: config.clone(),
            runner,
            seed,
            guide,
            obs,
            progress: Progress::new(&config.name, config.cases),
            report,
            render,
            watch,
            at: Origin::Replay,
            started: Instant::now(),
            inflight: inflight_path,
            _size: size,
        }
    }

    /// Notes a warning: in the report and the failure, and on standard error
    /// written directly, past the test harness's capture, so that it shows
    /// even when the test passes.
    fn warn(&mut self, w: String) {
        let _ = writeln!(std::io::stderr(), "refgen: warning: `{}`: {w}", self.config.name);
        self.report.warnings.push(w);
    }

    fn case(&mut self, request: CaseRequest<'_>, how: &str) -> CaseResult {
        if let Some(w) = &self.watch {
            w.begin(self.runner.plain_seed(&request), &self.at, self.report.cases, self.report.discards);
        }
        let r = self.runner.run(request);
        if let Some(w) = &self.watch {
            w.end();
        }
        self.report.gen_time += r.gen_time;
        self.report.test_time += r.test_time;
        self.obs.case(&r, if r.edited { EDITED } else { how });
        r
    }

    /// What the guide says about the run so far; its report section is kept for the HTML report.
    fn guide_notes(&mut self) -> Vec<String> {
        let report = self.runner.guide_report();
        self.obs.section = report.section;
        report.notes
    }

    /// The run is live (see [`crate::runner::exits`]) until the guard this returns is dropped.
    fn live(&self) -> Live {
        let live = Live::begin(&self.config.name, self.inflight.clone());
        if let Some(w) = &self.watch {
            w.live.store(live.id(), std::sync::atomic::Ordering::Relaxed);
        }
        live
    }

    pub(super) fn go(mut self) -> Result<Report, RunError> {
        if let Some(why) = self.obs.bad.take() {
            return Err(RunError::Observability(why));
        }
        let _live = self.live();

        let max_size = self.config.max_size;
        let counts = move || health::Counts {
            failed_attempts: refgen_core::combinators::failed_attempts(),
            values_cut: refgen_core::combinators::sizes::values_cut(),
            max_size,
        };
        let before = counts();
        let mut result = self.search();
        self.utility_nowhere(&mut result);
        if let Ok(report) = &mut result {
            let after = counts();
            let counted = health::Counts {
                failed_attempts: after.failed_attempts - before.failed_attempts,
                values_cut: after.values_cut - before.values_cut,
                max_size: after.max_size,
            };
            for note in health::notes(report, counted) {
                let _ = writeln!(std::io::stderr(), "refgen: health: `{}`: {note}", self.config.name);
                report.health.push(note);
            }
        }
        self.progress.finish(&result);
        if let (Some(dir), Some(log)) = (self.config.report.clone(), self.obs.log.take()) {
            let log = log.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = write_html(&dir, &log, &result, self.obs.section.take()) {
                self.warn(e);
            }
        }
        result
    }

    fn search(&mut self) -> Result<Report, RunError> {
        for w in std::mem::take(&mut self.report.warnings) {
            self.warn(w);
        }
        match self.config.replay.clone() {
            Some(tok) => self.replay_token(&tok),
            None => {
                let store = self.regressions()?;
                let store = self.examples(store)?;
                self.generated(store)
            }
        }
    }

    /// Phase 1: a replay token, only its case.
    fn replay_token(&mut self, tok: &str) -> Result<Report, RunError> {
        let token::Token { stamp, choices } = token::decode(tok).map_err(RunError::BadToken)?;
        if let Some(w) = self.stamp_mismatch(stamp) {
            self.warn(w);
        }
        let r = self
            .case(CaseRequest { make: Make::Sequence { choices }, render: true, test: true }, "replayed from a token");
        if r.status.fails() {
            // Not shrunk: the token names the input its report showed, and
            // that is the input shown again (a shrinker stopped early by
            // its budget would otherwise go on from it).
            let found = self.found(r, Origin::Replay);
            return Err(self.conclude(found, false));
        }
        match r.status {
            Status::Discarded(why) => {
                let note = format!("the replayed case was discarded: {why}");
                let _ = writeln!(std::io::stderr(), "refgen: `{}`: {note}", self.config.name);
                self.report.replay_note = Some(note);
                Ok(std::mem::take(&mut self.report))
            }
            _ => {
                // Said where the harness cannot hide it: a passing test shows it too.
                let _ = writeln!(std::io::stderr(), "refgen: `{}`: the replayed case passed", self.config.name);
                self.report.replay_note = Some("the replayed case passed".to_owned());
                self.report.cases = 1;
                Ok(std::mem::take(&mut self.report))
            }
        }
    }

    /// Phase 2: the remembered failures (and the cases dead runs left in
    /// flight); the store, to remember a failure found later in.
    fn regressions(&mut self) -> Result<Option<Store>, RunError> {
        let mut store = None;
        if let Some(dir) = self.config.regressions.clone() {
            let (s, warning) = Store::open(&dir, &self.config.name);
            if let Some(w) = warning {
                self.warn(w);
            }
            // A case a dead run left in flight ended its process: report it
            // without running it (it would end this process too).
            let mut s = s;
            let orphans = s.take_orphans();
            self.at = Origin::Regression(s.path.clone());
            if let Some(&InFlightCase::Guided { index, seed }) = orphans.first() {
                return Err(self.guided_orphan(index, seed, s.path.clone()));
            }
            for o in orphans.iter().skip(1).filter(|o| !matches!(o, InFlightCase::Guided { .. })) {
                self.making_again(o, &s.path);
                let tree = self.runner.run(self.remake(o.clone(), false)).tree;
                if let Err(e) = s.add(tree, ENDED) {
                    self.warn(format!("cannot remember a case that ended the process in {}: {e}", s.path.display()));
                }
            }
            if let Some(orphan) = orphans.into_iter().next() {
                self.making_again(&orphan, &s.path);
                let mut r = self.case(self.remake(orphan, true), "left in flight by a run that ended");
                r.status = Status::Ended;
                let origin = Origin::Regression(s.path.clone());
                return Err(self.fail_and_remember(r, origin, Some(s)));
            }
            for entry in s.entries.clone() {
                if entry.reason == ENDED {
                    // It may end this process too: say what runs, where the harness cannot hide it.
                    let _ = writeln!(
                        std::io::stderr(),
                        "refgen: `{}` replays a case that ended the process in an earlier run ({}); if this process ends now, that case is why",
                        self.config.name,
                        s.path.display()
                    );
                }
                self.report.regressions_replayed += 1;
                let render = self.render;
                let r = self.case(
                    CaseRequest { make: Make::Remembered { tree: entry.tree, seed: self.seed }, render, test: true },
                    "replayed from regressions",
                );
                if r.status.fails() {
                    let origin = Origin::Regression(s.path.clone());
                    return Err(self.fail_and_remember(r, origin, Some(s)));
                }
                self.count(&r);
            }
            store = Some(s);
        }
        Ok(store)
    }

    /// Phase 3: the examples written by hand.
    fn examples(&mut self, store: Option<Store>) -> Result<Option<Store>, RunError> {
        for index in 0..self.prop.examples.len() {
            let render = self.render;
            self.at = Origin::Example(index);
            let r = self.case(CaseRequest { make: Make::Example { index }, render, test: true }, "an explicit example");
            self.report.examples_run += 1;
            if let Status::NotInRange(value) = r.status {
                return Err(RunError::BadExample { name: self.config.name.clone(), index, value });
            }
            if r.status.fails() {
                return Err(self.fail_and_remember(r, Origin::Example(index), store));
            }
            self.count(&r);
        }
        Ok(store)
    }

    /// Phase 4: generated cases, until enough passed (or the time budget is spent).
    fn generated(&mut self, store: Option<Store>) -> Result<Report, RunError> {
        let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
        let mut i = 0u64;
        let mut batch_len = 1;
        // Whether the guide may still make a case by editing an earlier one.
        let mut edits = true;
        while self.report.cases < self.config.cases {
            if let Some(budget) = self.config.max_time.filter(|&b| self.started.elapsed() >= b) {
                self.report.out_of_time = Some(budget);
                let of = match self.config.cases {
                    u64::MAX => String::new(),
                    n => format!(" of the {n} wanted"),
                };
                let _ = writeln!(
                    std::io::stderr(),
                    "refgen: `{}` stopped generating after its time budget of {budget:?}: {} valid cases ran{of} ({} discarded)",
                    self.config.name,
                    self.report.cases,
                    self.report.discards
                );
                break;
            }
            // Once the guide's edits are off, its cases are random generation's, which it does not plan.
            let r = if edits && self.runner.batchable(i, self.config.cases) {
                let len = batch_len.min(self.config.cases - self.report.cases);
                let batch = Batch { run_seed: self.seed, budget: self.config.cases, from: i, len };
                let ran = self.runner.run_batch(&batch, &mut self.report);
                i = ran.next;
                batch_len = next_batch_len(batch_len, ran.took);
                match ran.stopped {
                    Some(r) => {
                        self.at = Origin::Generated(i);
                        r
                    }
                    None => {
                        self.progress.tick(&self.report);
                        continue;
                    }
                }
            } else {
                let render = self.render;
                self.at = Origin::Generated(i);
                let seed = case_seed(self.seed, i);
                self.case(
                    CaseRequest {
                        make: Make::Generate { seed, index: i, budget: self.config.cases, edits },
                        render,
                        test: true,
                    },
                    "generated",
                )
            };
            self.report.reached(r.utility, i);
            if r.status.fails() {
                return Err(self.fail_and_remember(r, Origin::Generated(i), store));
            }
            if let (Status::Discarded(why), false) = (&r.status, r.edited) {
                *reasons.entry(why.clone()).or_insert(0) += 1;
            }
            self.count(&r);
            self.progress.tick(&self.report);
            i += 1;
            let limit = self.config.cases.saturating_mul(self.config.max_discard_ratio).max(1);
            if self.report.discards >= limit && self.report.discards > self.report.cases {
                return Err(self.vacuous(reasons));
            }
            if edits && self.report.rejected >= limit {
                edits = false;
                self.warn(format!(
                    "the guide's edits of earlier cases were rejected {} times, as many as the run may discard \
                     (cases * max_discard_ratio): the rest of its cases are random generation's",
                    self.report.rejected
                ));
            }
        }
        // A run its time budget stopped is held to the ratio of discards to the cases it ran.
        let ran = self.report.cases.max(1).saturating_mul(self.config.max_discard_ratio);
        if self.report.out_of_time.is_some() && self.report.discards > ran {
            return Err(self.vacuous(reasons));
        }
        self.report.guide_notes = self.guide_notes();
        self.report.distinct = self.runner.distinct();
        self.report.model_states = self.runner.model_states();
        self.report.elapsed = self.started.elapsed();
        Ok(std::mem::take(&mut self.report))
    }

    /// A property that reported a utility under a guide that does not search
    /// on it ([`crate::guide::GuideReport::uses_utility`]) is told so once, on
    /// standard error (past the test harness's capture) and in the report's
    /// warnings and notes: the utility only showed in the report.
    fn utility_nowhere(&mut self, result: &mut Result<Report, RunError>) {
        let (best, notes, warnings) = match result {
            Ok(r) => (r.best_utility, &mut r.guide_notes, &mut r.warnings),
            Err(RunError::Failed(f)) => (f.best_utility, &mut f.guide_notes, &mut f.warnings),
            Err(_) => return,
        };
        let Some(best) = best.filter(|_| !self.runner.guide_report().uses_utility) else { return };
        let w = format!(
            "the property reported a utility (`maximize!`, `minimize!` or `target!`; {best}), but the guide `{}` \
             does not search on it, so it only shows in the report: for a search toward higher utility, use \
             `#[property(guide = sa)]` (or the default, `auto`, which switches to it), or `guide = mutate`",
            self.guide
        );
        let _ = writeln!(std::io::stderr(), "refgen: warning: `{}`: {w}", self.config.name);
        notes.push(w.clone());
        warnings.push(w);
    }

    /// The run gave up: too many cases were discarded, for these reasons.
    fn vacuous(&mut self, reasons: BTreeMap<String, u64>) -> RunError {
        let mut reasons: Vec<_> = reasons.into_iter().collect();
        reasons.sort_by_key(|r| std::cmp::Reverse(r.1));
        reasons.truncate(3);
        RunError::Vacuous {
            name: self.config.name.clone(),
            valid: self.report.cases,
            discards: self.report.discards,
            wanted: self.config.cases,
            reasons,
            guide: self.guide.clone(),
            guide_notes: self.runner.guide_report().notes,
        }
    }

    /// A case left in flight by a run that ended is about to be made again:
    /// it is recorded in flight again, so that, should making it end this
    /// process too (its generator ends the process), the next run finds it
    /// again; and this is said where the harness cannot hide it.
    fn making_again(&mut self, case: &InFlightCase, store: &Path) {
        let _ = writeln!(
            std::io::stderr(),
            "refgen: `{}` makes again a case that ended the process in an earlier run ({}); if this process ends now, making it is why",
            self.config.name,
            store.display()
        );
        self.runner.record_again(case);
    }

    /// The command that makes a case left in flight again, without testing it
    /// (a guide's case, which cannot be made again, makes the empty sequence's).
    fn remake(&self, case: InFlightCase, render: bool) -> CaseRequest<'static> {
        let make = match case {
            InFlightCase::Tree(tree) => Make::Replay { tree: Cow::Owned(tree), seed: self.seed },
            InFlightCase::Seed(seed) => Make::Seeded { seed },
            InFlightCase::Choices(choices) => Make::Sequence { choices },
            InFlightCase::Guided { .. } => Make::Sequence { choices: Vec::new() },
        };
        CaseRequest { make, render, test: false }
    }

    /// Runs one case whose choices `bytes` answer (a fuzzer's input). A
    /// failing case is shrunk like any other and remembered in the
    /// regressions directory `regressions`, when given, so that the next run
    /// of the property replays it.
    pub(crate) fn fuzz_case(&mut self, bytes: &[u8], regressions: Option<&Path>) -> Result<(), RunError> {
        let r = self.case(
            CaseRequest { make: Make::Bytes { bytes: bytes.to_vec() }, render: false, test: true },
            "from a fuzzer",
        );
        if !r.status.fails() {
            self.count(&r);
            return Ok(());
        }
        let store = regressions.map(|dir| {
            let (store, warning) = Store::open(dir, &self.config.name);
            if let Some(w) = warning {
                self.warn(w);
            }
            store
        });
        Err(self.fail_and_remember(r, Origin::Fuzzer, store))
    }

    /// Why a token stamped `stamp` does not fit this property, if it does
    /// not (a token of another property never gets here: [`foreign_token`]).
    fn stamp_mismatch(&self, stamp: Option<token::Stamp>) -> Option<String> {
        let (theirs, ours) = (stamp?, self.stamp());
        let (name, ty) = (&self.config.name, self.prop.type_name);
        (theirs.value != ours.value).then(|| {
            format!(
                "REFGEN_REPLAY: the token was printed when `{name}` made values of another type than `{ty}`: \
                 its choices make whatever they parse as here"
            )
        })
    }

    fn count(&mut self, r: &CaseResult) {
        match r.status {
            Status::Discarded(_) if r.edited => self.report.rejected += 1,
            Status::Discarded(_) => self.report.discards += 1,
            Status::Passed => self.report.passed(&r.labels),
            _ => {}
        }
    }
}
