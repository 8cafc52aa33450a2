//! A failing case: made again under a recorder, shrunk, checked for flakiness, reported and kept.

use super::*;

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

impl<V: 'static> Run<V> {
    /// The failure of generated case `index` (its RNG seeded with `seed`),
    /// which a guide was making when its generator ended the process (left in
    /// flight in `store`'s directory). Its choices are not known, and a
    /// guide's case cannot be made again outside its run: it is reported as
    /// that case, by its index, and not remembered.
    pub(super) fn guided_orphan(&mut self, index: u64, seed: u64, store: PathBuf) -> RunError {
        let shown = format!(
            "not known: the guide `{}` was making generated case #{index} (its RNG seeded {seed:#x}) of an earlier \
             run, and making it ended the process; a guide's case cannot be made again outside its run",
            self.guide
        );
        let found = Found {
            status: Status::Ended,
            tree: ChoiceTree::root(Vec::new()),
            seed: None,
            choices: None,
            origin: Origin::Regression(store),
            cases: 0,
            discards: 0,
            times: [Duration::ZERO; 3],
            note: None,
        };
        let reason = found.status.describe();
        let args = vec![("case".to_owned(), shown)];
        let mut failure = self.build(&found, args, reason, FailureKind::EndedProcess, ShrinkStats::default());
        failure.token.clear();
        RunError::Failed(Box::new(failure))
    }

    /// A failing case made on the fast path, made again from its seed under
    /// a recorder for its choice tree, and tested again. When it fails the
    /// same way it is the case reported; otherwise the first result is kept
    /// with the tree made again, and the report's replays call the
    /// property flaky rather than show an input that did not fail.
    pub(super) fn recorded_again(&mut self, first: CaseResult, seed: u64) -> CaseResult {
        let render = self.render;
        let again =
            self.case(CaseRequest { make: Make::Seeded { seed }, render, test: true }, "made again under a recorder");
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

    /// The stamp of this property's tokens.
    pub(super) fn stamp(&self) -> token::Stamp {
        token::Stamp::new(&self.config.name, self.prop.type_name)
    }

    pub(super) fn fail_and_remember(&mut self, r: CaseResult, origin: Origin, store: Option<Store>) -> RunError {
        let err = self.failure(r, origin);
        Self::remember(err, store)
    }

    /// Remembers the failure of `err` in `store`, and says where in the failure.
    pub(super) fn remember(mut err: RunError, store: Option<Store>) -> RunError {
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
    pub(super) fn found(&mut self, first: CaseResult, origin: Origin) -> Found {
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
    pub(super) fn failure(&mut self, first: CaseResult, origin: Origin) -> RunError {
        let found = self.found(first, origin);
        self.conclude(found, true)
    }

    /// Reports `found`, a failure an abandoned run found (see
    /// [`crate::runner::supervise`]), without shrinking it; it is remembered.
    pub(in crate::runner) fn report_found(mut self, mut found: Found) -> Result<Report, RunError> {
        let _live = self.live();
        if let Some(w) = &self.watch {
            w.found(&found);
        }
        if found.seed.is_none() && found.choices.is_none() && found.tree.children.is_empty() {
            // It hung before its generator finished: nothing makes it again.
            return Err(self.raw_failure(found));
        }
        let remake = match (found.seed.take(), found.choices.take()) {
            (Some(seed), _) => Some(CaseRequest { make: Make::Seeded { seed }, render: false, test: false }),
            (None, Some(choices)) => Some(CaseRequest { make: Make::Sequence { choices }, render: false, test: false }),
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
    pub(in crate::runner) fn raw_failure(mut self, found: Found) -> RunError {
        let unknown = found.seed.is_none() && found.choices.is_none() && found.tree.children.is_empty();
        let shown = match (found.seed, &found.choices) {
            (Some(seed), _) => format!("the case made from seed {seed:#x} by plain generation"),
            (None, Some(choices)) => format!("the case made by the choices {choices:?}"),
            (None, None) if unknown => "not known: the case hung while its generator made it".to_owned(),
            (None, None) => found.tree.to_string(),
        };
        let kind = kind_of(&found.status);
        let reason = found.status.describe();
        let args = vec![("choices".to_owned(), shown)];
        let mut failure = self.build(&found, args, reason, kind, ShrinkStats::default());
        // The token is of the choices shown; a case known only by its seed, or not at all, has none.
        if found.tree.children.is_empty() {
            failure.token = found.choices.as_ref().map_or_else(String::new, |c| token::encode_stamped(self.stamp(), c));
        }
        RunError::Failed(Box::new(failure))
    }

    /// A failure of `found`, shown with `args`, failing for `reason`.
    pub(super) fn build(
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
            notes: Vec::new(),
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
    pub(super) fn conclude(&mut self, found: Found, shrink: bool) -> RunError {
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
            let mut fails_the_same_way = |cand: &ChoiceTree| {
                let render = self.render;
                let cmd = CaseRequest {
                    make: Make::Replay { tree: Cow::Borrowed(cand), seed: shrink_seed },
                    render,
                    test: true,
                };
                let r = self.case(cmd, SHRINKING);
                let kept = std::mem::discriminant(&r.status) == way;
                if let (true, Some(w)) = (kept, &self.watch) {
                    w.shrunk(&r.tree);
                }
                kept.then_some(r.tree)
            };
            // First the same value without the failed attempts of its retrying
            // filters (a guide's case keeps them; one made again from its seed
            // does not), outside the budget: every replay after is of the kept
            // choices only.
            if tree.retry_count() > 0 {
                if let Some(kept) = fails_the_same_way(&tree.without_retries()) {
                    tree = kept;
                }
            }
            let (t, s) = shrink::shrink_by_ref(tree, budget, fails_the_same_way);
            tree = t;
            stats = s;
        }
        // Replay the final case a few times, and once more for its arguments;
        // a hung case is only generated again, not run (it would hang again).
        // A case that passes in any replay is flaky: a property failing now
        // and then is called flaky (all replays failing by chance is unlikely).
        let replay = |tree: &ChoiceTree| CaseRequest {
            make: Make::Replay { tree: Cow::Owned(tree.clone()), seed: shrink_seed },
            render: true,
            test,
        };
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
        // The tree the shown arguments were made from, recorded as they were
        // made: its choices, replayed exactly (a token), make them again (a
        // tree a guide recorded may hold choices a recorder does not).
        let tree = if last.tree.children.is_empty() { tree } else { last.tree };
        let what = if kind == FailureKind::GeneratorPanicked { "choices before the panic" } else { "choices" };
        let args = last.args.unwrap_or_else(|| vec![(what.to_owned(), tree.to_string())]);
        let found = Found { tree, ..found };
        let mut failure = self.build(&found, args, reason, kind, stats);
        failure.notes = last.notes;
        failure.flaky = flaky;
        failure.guide_notes = notes;
        RunError::Failed(Box::new(failure))
    }
}
