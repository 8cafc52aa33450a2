//! The run's lifecycle: a replay token, remembered failures and examples first, then generated cases until enough passed; a failure is shrunk, remembered and reported.

use super::progress::Progress;
use super::property::Property;
use super::report::{Failure, FailureKind, Origin, Report, RunError};
use super::watch::{Found, Watch};
use super::worker::{Batch, Cmd, Exec};
use crate::config::Config;
use crate::guide::ReportSection;
use crate::hashing::case_seed;
use crate::html::{self, RunEnd, RunLog, Verdict};
use crate::observe::{Lines, Observer, CHECKING_FLAKINESS, MINIMAL, SHRINKING};
use crate::outcome::{CaseResult, Status, ENDED};
use crate::persist::{InFlight, InFlightCase, Store};
use crate::shrink::{self, Budget, ShrinkStats};
use crate::token;
use reflect_core::choice::ChoiceTree;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
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

/// How many more times a failing case is replayed to tell a flaky property.
const FLAKY_REPLAYS: usize = 5;

/// The kind of failure a failing status is.
fn kind_of(status: &Status) -> FailureKind {
    match status {
        Status::GenPanicked(_) => FailureKind::GeneratorPanicked,
        Status::Hung(d) => FailureKind::Hung(*d),
        Status::Ended => FailureKind::EndedProcess,
        _ => FailureKind::Failed,
    }
}

pub(crate) struct Run<V: 'static> {
    prop: Property<V>,
    config: Config,
    exec: Exec<V>,
    seed: u64,
    guide: String,
    observer: Option<Observer>,
    /// Why the observations asked for cannot be written, if they cannot.
    bad_observability: Option<String>,
    /// Makes the observation lines of the run's cases.
    lines: Lines,
    /// The run's cases, kept for its HTML report when one is asked for.
    log: Option<Arc<Mutex<RunLog>>>,
    /// The guide's section of the HTML report, as it said when last asked.
    section: Option<ReportSection>,
    progress: Progress,
    report: Report,
    render: bool,
    /// The thread watching the run for hangs, if one does.
    watch: Option<Arc<Watch>>,
    /// Where the cases now running come from (for a hang's report).
    at: Origin,
    /// When the run began.
    started: Instant,
}

impl<V: 'static> Run<V> {
    pub(crate) fn new(prop: Property<V>, config: &Config, watch: Option<Arc<Watch>>) -> Self {
        let mut warnings = Vec::new();
        // A replayed token is run by hand: no in-flight file.
        let inflight = match (&config.regressions, &config.replay) {
            (Some(dir), None) => InFlight::create(dir, &config.name)
                .map_err(|e| warnings.push(format!("cannot write the in-flight case to {}: {e}", dir.display())))
                .ok(),
            _ => None,
        };
        if let (Some(w), Some(f)) = (&watch, &inflight) {
            *w.inflight.lock().unwrap_or_else(|e| e.into_inner()) = Some(f.path().to_owned());
        }
        // The worker owns the in-flight file, and removes it when the run ends.
        let mut exec = Exec::new(prop.clone(), config, inflight, watch.clone());
        let seed = config.effective_seed();
        let guide = exec.guide_name();
        let mut bad_observability = None;
        let observer = config.observability.as_ref().and_then(|p| match Observer::open(p, &config.name) {
            Ok(o) => Some(o),
            Err(e) => {
                bad_observability = Some(format!("cannot write observations to {}: {e}", p.display()));
                None
            }
        });
        let lines = Lines::new(&config.name, &guide);
        let log = config.report.as_ref().map(|_| {
            Arc::new(Mutex::new(RunLog {
                property: config.name.clone(),
                guide: guide.clone(),
                run_start: lines.run_start,
                cases: Vec::new(),
            }))
        });
        if let (Some(w), Some(log)) = (&watch, &log) {
            *w.log.lock().unwrap_or_else(|e| e.into_inner()) = Some(log.clone());
        }
        let render = observer.is_some() || log.is_some();
        if render {
            exec.observe();
        }
        let report = Report { name: config.name.clone(), seed, guide: guide.clone(), warnings, ..Report::default() };
        Run {
            prop,
            config: config.clone(),
            exec,
            seed,
            guide,
            observer,
            bad_observability,
            lines,
            log,
            section: None,
            progress: Progress::new(&config.name, config.cases),
            report,
            render,
            watch,
            at: Origin::Replay,
            started: Instant::now(),
        }
    }

    /// Notes a warning: in the report and the failure, and on standard error
    /// written directly, past the test harness's capture, so that it shows
    /// even when the test passes.
    fn warn(&mut self, w: String) {
        let _ = writeln!(std::io::stderr(), "reflect: warning: `{}`: {w}", self.config.name);
        self.report.warnings.push(w);
    }

    fn case(&mut self, cmd: Cmd<'_>, how: &str) -> CaseResult {
        if let Some(w) = &self.watch {
            w.begin(self.exec.plain_seed(&cmd), &self.at, self.report.cases, self.report.discards);
        }
        let r = self.exec.run(cmd);
        if let Some(w) = &self.watch {
            w.end();
        }
        self.report.gen_time += r.gen_time;
        self.report.test_time += r.test_time;
        if self.observer.is_some() || self.log.is_some() {
            let case = self.lines.observe(&r, how);
            if let Some(o) = &mut self.observer {
                o.write(&self.lines.json(&case));
            }
            if let Some(log) = &self.log {
                log.lock().unwrap_or_else(|e| e.into_inner()).cases.push(case);
            }
        }
        r
    }

    /// What the guide says about the run so far; its report section is kept for the HTML report.
    fn guide_notes(&mut self) -> Vec<String> {
        let (notes, section) = self.exec.notes();
        self.section = section;
        notes
    }

    pub(super) fn go(mut self) -> Result<Report, RunError> {
        if let Some(why) = self.bad_observability.take() {
            return Err(RunError::Observability(why));
        }

        let mut result = self.search();
        self.utility_nowhere(&mut result);
        self.progress.finish(&result);
        if let (Some(dir), Some(log)) = (self.config.report.clone(), self.log.take()) {
            let log = log.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = write_html(&dir, &log, &result, self.section.take()) {
                self.warn(e);
            }
        }
        result
    }

    fn search(&mut self) -> Result<Report, RunError> {
        for w in std::mem::take(&mut self.report.warnings) {
            self.warn(w);
        }
        // 1. A replay token: only that case.
        if let Some(tok) = self.config.replay.clone() {
            let token::Token { stamp, choices } = token::decode(&tok).map_err(RunError::BadToken)?;
            if let Some(w) = self.stamp_mismatch(stamp) {
                self.warn(w);
            }
            let r = self.case(Cmd::Sequence { choices, render: true, test: true }, "replayed from a token");
            if r.status.fails() {
                return Err(self.failure(r, Origin::Replay));
            }
            return match r.status {
                Status::Discarded(why) => {
                    self.report.replay_note = Some(format!("the replayed case was discarded: {why}"));
                    Ok(std::mem::take(&mut self.report))
                }
                _ => {
                    self.report.replay_note = Some("the replayed case passed".to_owned());
                    self.report.cases = 1;
                    Ok(std::mem::take(&mut self.report))
                }
            };
        }
        // 2. Remembered failures, then examples.
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
            for o in orphans.iter().skip(1) {
                self.making_again(o, &s.path);
                let tree = self.exec.run(self.remake(o.clone(), false)).tree;
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
                        "reflect: `{}` replays a case that ended the process in an earlier run ({}); if this process ends now, that case is why",
                        self.config.name,
                        s.path.display()
                    );
                }
                self.report.regressions_replayed += 1;
                let render = self.render;
                let r = self
                    .case(Cmd::Remembered { tree: entry.tree, seed: self.seed, render }, "replayed from regressions");
                if r.status.fails() {
                    let origin = Origin::Regression(s.path.clone());
                    return Err(self.fail_and_remember(r, origin, Some(s)));
                }
                self.count(&r);
            }
            store = Some(s);
        }
        for index in 0..self.prop.examples.len() {
            let render = self.render;
            self.at = Origin::Example(index);
            let r = self.case(Cmd::Example { index, render }, "an explicit example");
            self.report.examples_run += 1;
            if let Status::NotInRange(value) = r.status {
                return Err(RunError::BadExample { name: self.config.name.clone(), index, value });
            }
            if r.status.fails() {
                return Err(self.fail_and_remember(r, Origin::Example(index), store));
            }
            self.count(&r);
        }
        // 3. Generated cases.
        let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
        let mut i = 0u64;
        let mut batch_len = 1;
        while self.report.cases < self.config.cases {
            if let Some(budget) = self.config.max_time.filter(|&b| self.started.elapsed() >= b) {
                self.report.out_of_time = Some(budget);
                let of = match self.config.cases {
                    u64::MAX => String::new(),
                    n => format!(" of the {n} wanted"),
                };
                let _ = writeln!(
                    std::io::stderr(),
                    "reflect: `{}` stopped generating after its time budget of {budget:?}: {} valid cases ran{of} ({} discarded)",
                    self.config.name,
                    self.report.cases,
                    self.report.discards
                );
                break;
            }
            let r = if self.exec.batchable() {
                let batch =
                    Batch { run_seed: self.seed, from: i, len: batch_len.min(self.config.cases - self.report.cases) };
                let ran = self.exec.run_batch(&batch, &mut self.report);
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
                self.case(Cmd::Generate { seed, index: i, budget: self.config.cases, render }, "generated")
            };
            self.report.reached(r.utility, i);
            if r.status.fails() {
                return Err(self.fail_and_remember(r, Origin::Generated(i), store));
            }
            if let Status::Discarded(why) = &r.status {
                *reasons.entry(why.clone()).or_insert(0) += 1;
            }
            self.count(&r);
            self.progress.tick(&self.report);
            i += 1;
            let limit = self.config.cases.saturating_mul(self.config.max_discard_ratio).max(1);
            if self.report.discards >= limit && self.report.discards > self.report.cases {
                return Err(self.vacuous(reasons));
            }
        }
        // A run its time budget stopped is held to the ratio of discards to the cases it ran.
        let ran = self.report.cases.max(1).saturating_mul(self.config.max_discard_ratio);
        if self.report.out_of_time.is_some() && self.report.discards > ran {
            return Err(self.vacuous(reasons));
        }
        self.report.guide_notes = self.guide_notes();
        self.report.distinct = self.exec.distinct();
        self.report.elapsed = self.started.elapsed();
        Ok(std::mem::take(&mut self.report))
    }

    /// A property that reported a utility under a guide that does not search
    /// on it ([`crate::guide::Guide::uses_utility`]) is told so once, on
    /// standard error (past the test harness's capture) and in the report's
    /// warnings and notes: the utility only showed in the report.
    fn utility_nowhere(&mut self, result: &mut Result<Report, RunError>) {
        let (best, notes, warnings) = match result {
            Ok(r) => (r.best_utility, &mut r.guide_notes, &mut r.warnings),
            Err(RunError::Failed(f)) => (f.best_utility, &mut f.guide_notes, &mut f.warnings),
            Err(_) => return,
        };
        let Some(best) = best.filter(|_| !self.exec.uses_utility()) else { return };
        let w = format!(
            "the property reported a utility (`maximize!`, `minimize!` or `target!`; {best}), but the guide `{}` \
             does not search on it, so it only shows in the report: for a search toward higher utility, use \
             `#[property(guide = sa)]` (or the default, `auto`, which switches to it), or `guide = mutate`",
            self.guide
        );
        let _ = writeln!(std::io::stderr(), "reflect: warning: `{}`: {w}", self.config.name);
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
            guide_notes: self.exec.notes().0,
        }
    }

    /// A case left in flight by a run that ended is about to be made again:
    /// it is recorded in flight again, so that, should making it end this
    /// process too (its generator ends the process), the next run finds it
    /// again; and this is said where the harness cannot hide it.
    fn making_again(&mut self, case: &InFlightCase, store: &Path) {
        let _ = writeln!(
            std::io::stderr(),
            "reflect: `{}` makes again a case that ended the process in an earlier run ({}); if this process ends now, making it is why",
            self.config.name,
            store.display()
        );
        self.exec.record_again(case);
    }

    /// The command that makes a case left in flight again, without testing it.
    fn remake(&self, case: InFlightCase, render: bool) -> Cmd<'static> {
        match case {
            InFlightCase::Tree(tree) => Cmd::Replay { tree: Cow::Owned(tree), seed: self.seed, render, test: false },
            InFlightCase::Seed(seed) => Cmd::Seeded { seed, render, test: false },
            InFlightCase::Choices(choices) => Cmd::Sequence { choices, render, test: false },
        }
    }

    /// A failing case made on the fast path, made again from its seed under
    /// a recorder for its choice tree, and tested again. When it fails the
    /// same way it is the case reported; otherwise the first result is kept
    /// with the tree made again, and the report's replays call the
    /// property flaky rather than show an input that did not fail.
    fn recorded_again(&mut self, first: CaseResult, seed: u64) -> CaseResult {
        let render = self.render;
        let again = self.case(Cmd::Seeded { seed, render, test: true }, "made again under a recorder");
        if again.remade_differs {
            self.warn(
                "the generator made another value from the same seed when run again: it reads more than its choices \
                 (a global, the clock, the environment), so its failures may not reproduce"
                    .to_owned(),
            );
        }
        let same = std::mem::discriminant(&again.status) == std::mem::discriminant(&first.status);
        if same && !again.remade_differs {
            again
        } else {
            CaseResult { tree: again.tree, plain: None, ..first }
        }
    }

    /// Runs one case whose choices `bytes` answer (a fuzzer's input). A
    /// failing case is shrunk like any other and remembered in the
    /// regressions directory `regressions`, when given, so that the next run
    /// of the property replays it.
    pub(crate) fn fuzz_case(&mut self, bytes: &[u8], regressions: Option<&Path>) -> Result<(), RunError> {
        let r = self.case(Cmd::Bytes { bytes: bytes.to_vec() }, "from a fuzzer");
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

    /// The stamp of this property's tokens.
    fn stamp(&self) -> token::Stamp {
        token::Stamp::new(&self.config.name, std::any::type_name::<V>())
    }

    /// Why a token stamped `stamp` does not fit this property, if it does not.
    fn stamp_mismatch(&self, stamp: Option<token::Stamp>) -> Option<String> {
        let (theirs, ours) = (stamp?, self.stamp());
        let (name, ty) = (&self.config.name, std::any::type_name::<V>());
        let parse = "its choices make whatever they parse as here";
        match (theirs.property == ours.property, theirs.value == ours.value) {
            (true, true) => None,
            (false, true) => Some(format!("REFLECT_REPLAY: the token was printed by another property than `{name}`")),
            (false, false) => Some(format!(
                "REFLECT_REPLAY: the token was printed by another property than `{name}`, for a value of another type than `{ty}`: {parse}"
            )),
            (true, false) => Some(format!(
                "REFLECT_REPLAY: the token was printed when `{name}` made values of another type than `{ty}`: {parse}"
            )),
        }
    }

    fn count(&mut self, r: &CaseResult) {
        match r.status {
            Status::Discarded(_) => self.report.discards += 1,
            Status::Passed => self.report.passed(&r.labels),
            _ => {}
        }
    }

    fn fail_and_remember(&mut self, r: CaseResult, origin: Origin, store: Option<Store>) -> RunError {
        let err = self.failure(r, origin);
        Self::remember(err, store)
    }

    /// Remembers the failure of `err` in `store`, and says where in the failure.
    fn remember(mut err: RunError, store: Option<Store>) -> RunError {
        if let (RunError::Failed(f), Some(mut store)) = (&mut err, store) {
            match store.add(f.tree.clone(), f.reason.clone()) {
                Ok(()) => f.saved_to = Some(store.path.clone()),
                Err(e) => f.warnings.push(format!("cannot remember the failure in {}: {e}", store.path.display())),
            }
        }
        err
    }

    /// The failing case `first` as found: its choices (recorded again when
    /// it took the fast path), and the run's counts and times up to it.
    /// The watch hears of it before the case is made again, so that a hang
    /// then does not lose it.
    fn found(&mut self, first: CaseResult, origin: Origin) -> Found {
        let times = [self.started.elapsed(), self.report.gen_time, self.report.test_time];
        let (cases, discards) = (self.report.cases, self.report.discards);
        let (status, tree, seed) = (first.status.clone(), first.tree.clone(), first.plain);
        let mut found = Found { status, tree, seed, choices: None, origin, cases, discards, times, note: None };
        if let Some(w) = &self.watch {
            w.found(&found);
        }
        if let Some(seed) = first.plain {
            let again = self.recorded_again(first, seed);
            (found.status, found.tree, found.seed) = (again.status, again.tree, None);
            if let Some(w) = &self.watch {
                w.found(&found);
            }
        }
        found
    }

    /// Shrinks the failing case `first`, replays it for the report, and builds the failure.
    fn failure(&mut self, first: CaseResult, origin: Origin) -> RunError {
        let found = self.found(first, origin);
        self.conclude(found, true)
    }

    /// Reports `found`, a failure an abandoned run found (see
    /// [`super::watch`]), without shrinking it; it is remembered.
    pub(super) fn report_found(mut self, mut found: Found) -> Result<Report, RunError> {
        if let Some(w) = &self.watch {
            w.found(&found);
        }
        if found.seed.is_none() && found.choices.is_none() && found.tree.children.is_empty() {
            // It hung before its generator finished: nothing makes it again.
            return Err(self.raw_failure(found));
        }
        let remake = match (found.seed.take(), found.choices.take()) {
            (Some(seed), _) => Some(Cmd::Seeded { seed, render: false, test: false }),
            (None, Some(choices)) => Some(Cmd::Sequence { choices, render: false, test: false }),
            (None, None) => None,
        };
        if let Some(cmd) = remake {
            found.tree = self.case(cmd, MINIMAL).tree;
            if let Some(w) = &self.watch {
                w.found(&found);
            }
        }
        let store = self.config.regressions.clone().map(|dir| Store::open(&dir, &self.config.name).0);
        let err = self.conclude(found, false);
        Err(Self::remember(err, store))
    }

    /// `found` as it is, when even its report hung: its choices, no arguments.
    pub(super) fn raw_failure(mut self, found: Found) -> RunError {
        let shown = match (found.seed, &found.choices) {
            (Some(seed), _) => format!("the case made from seed {seed:#x} by plain generation"),
            (None, Some(choices)) => format!("the case made by the choices {choices:?}"),
            (None, None) if found.tree.children.is_empty() => {
                "not known: the case hung while its generator made it".to_owned()
            }
            (None, None) => found.tree.to_string(),
        };
        let kind = kind_of(&found.status);
        let reason = found.status.describe();
        RunError::Failed(Box::new(self.build(
            &found,
            vec![("choices".to_owned(), shown)],
            reason,
            kind,
            ShrinkStats::default(),
        )))
    }

    /// A failure of `found`, shown with `args`, failing for `reason`.
    fn build(
        &mut self,
        found: &Found,
        args: Vec<(String, String)>,
        reason: String,
        kind: FailureKind,
        shrink: ShrinkStats,
    ) -> Failure {
        let token = token::encode_stamped(self.stamp(), &found.tree.choices());
        let mut warnings = self.report.warnings.clone();
        warnings.extend(found.note.clone());
        let [time_to_failure, gen_time, test_time] = found.times;
        Failure {
            name: self.config.name.clone(),
            seed: self.seed,
            guide: self.guide.clone(),
            args,
            reason,
            kind,
            cases: found.cases,
            discards: found.discards,
            tests: found.cases + 1,
            shrink,
            tree: found.tree.clone(),
            token,
            origin: found.origin.clone(),
            saved_to: None,
            flaky: false,
            warnings,
            best_utility: self.report.best_utility,
            guide_notes: Vec::new(),
            time_to_failure,
            gen_time,
            test_time,
        }
    }

    /// Shrinks `found` (when `shrink` and it is a failure that can be
    /// shrunk), replays it for the report, and builds the failure.
    fn conclude(&mut self, found: Found, shrink: bool) -> RunError {
        let status = found.status.clone();
        // A hung case abandoned its run, and the guide with it.
        let notes = if matches!(status, Status::Hung(_)) { Vec::new() } else { self.guide_notes() };
        // A case that hung or ended the process is only generated again, never run.
        let test = !matches!(status, Status::Hung(_) | Status::Ended);
        let shrink_it = shrink && matches!(status, Status::Failed(_) | Status::GenPanicked(_));
        let mut tree = found.tree.clone();
        let mut stats = ShrinkStats::default();
        let shrink_seed = self.seed;
        if shrink_it {
            let budget = Budget { max_steps: self.config.max_shrink_steps, max_time: self.config.max_shrink_time };
            // A candidate must fail the same way: a generator's panic does not
            // stand in for the property's failure, nor the other way round.
            let way = std::mem::discriminant(&status);
            // Each candidate is lent, not copied: the replay only reads it.
            let (t, s) = shrink::shrink_by_ref(tree, budget, |cand| {
                let render = self.render;
                let cmd = Cmd::Replay { tree: Cow::Borrowed(cand), seed: shrink_seed, render, test: true };
                let r = self.case(cmd, SHRINKING);
                let kept = std::mem::discriminant(&r.status) == way;
                if let (true, Some(w)) = (kept, &self.watch) {
                    w.shrunk(&r.tree);
                }
                kept.then_some(r.tree)
            });
            tree = t;
            stats = s;
        }
        // Replay the final case a few times, and once more for its arguments;
        // a hung case is only generated again, not run (it would hang again).
        // A case that passes in any replay is flaky: a property failing now
        // and then is called flaky (all replays failing by chance is unlikely).
        let replay =
            |tree: &ChoiceTree| Cmd::Replay { tree: Cow::Owned(tree.clone()), seed: shrink_seed, render: true, test };
        let mut passed_once = None;
        if test {
            for _ in 0..FLAKY_REPLAYS {
                let again = self.case(replay(&tree), CHECKING_FLAKINESS);
                if !again.status.fails() {
                    passed_once = Some(again.status);
                    break;
                }
            }
        }
        let last = self.case(replay(&tree), MINIMAL);
        let (kind, reason, flaky) = match (&status, &last.status) {
            (Status::Hung(_) | Status::Ended, _) => (kind_of(&status), status.describe(), false),
            (_, Status::Failed(reason) | Status::GenPanicked(reason)) => match passed_once {
                None => (kind_of(&last.status), reason.clone(), false),
                Some(other) => {
                    (kind_of(&last.status), format!("{reason} (but when replayed again: {})", other.describe()), true)
                }
            },
            (Status::Failed(reason) | Status::GenPanicked(reason), other) => {
                (kind_of(&status), format!("{reason} (but when replayed: {})", other.describe()), true)
            }
            (_, other) => (FailureKind::Failed, other.describe(), true),
        };
        let what = if kind == FailureKind::GeneratorPanicked { "choices before the panic" } else { "choices" };
        let args = last.args.unwrap_or_else(|| vec![(what.to_owned(), tree.to_string())]);
        let found = Found { tree, ..found };
        let mut failure = self.build(&found, args, reason, kind, stats);
        failure.flaky = flaky;
        failure.guide_notes = notes;
        RunError::Failed(Box::new(failure))
    }
}
