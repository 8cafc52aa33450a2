//! Shrinking by reflection: edit a failing case's tree, replay it, keep edits that fail and shrink.
//!
//! Every candidate is a [`ChoiceTree`] edited from the current smallest
//! failing one, replayed by the caller with lenient replay
//! ([`refgen_core::replay_lenient`]), so every candidate is a value the
//! generator can make, and one its validity condition accepts (a candidate
//! the condition rejects is simply not interesting). A candidate is kept
//! when it still fails and the choices it actually used are smaller in
//! *shortlex* order (fewer choices first, then lexicographically smaller),
//! as Goldstein's reflective shrinker orders them. Because every kept
//! candidate is strictly smaller in a well-order, shrinking terminates; the
//! budget bounds it further. Candidates already tried are remembered by a
//! 64-bit hash, not kept whole, so memory stays small on large inputs, and
//! a candidate met again costs no try.
//!
//! The shrinker is in four parts: this module holds the API, the budget
//! and the rounds, and decides which candidates are kept; `passes` holds
//! the passes, in the order a round runs them, and counts each one's tries
//! and kept candidates ([`ShrinkStats::passes`]); `candidate` makes each
//! candidate in place and hashes it; `index` indexes the current tree.

mod candidate;
mod index;
mod passes;
mod raise;
#[cfg(test)]
mod tests;

use candidate::Where;
use index::{BuildPrehashed, Index};
pub use passes::Pass;
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::{Path, Undo};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// How much shrinking may do.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// At most this many candidates are tried.
    pub max_steps: u64,
    /// Shrinking stops after this long.
    pub max_time: Duration,
}

/// What a shrink did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ShrinkStats {
    /// Each pass's tries and kept candidates, in the order of [`Pass::ALL`]
    /// (see [`ShrinkStats::pass`]).
    pub passes: [PassStats; Pass::ALL.len()],
    /// Candidates tried (replayed and tested).
    pub attempts: u64,
    /// Candidates kept: each one a smaller failing case.
    pub steps: u64,
    /// The budget ran out before a round changed nothing.
    pub budget_exhausted: bool,
    /// How long shrinking took.
    pub elapsed: Duration,
}

/// What one pass did in a shrink, over all its rounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PassStats {
    /// Candidates the pass tried.
    pub tries: u64,
    /// Candidates the pass kept.
    pub kept: u64,
}

impl ShrinkStats {
    /// What `pass` did.
    pub fn pass(&self, pass: Pass) -> PassStats {
        self.passes[pass as usize]
    }
}

/// Whether `a` comes before `b` in shortlex order: shorter first, then lexicographically.
pub fn shortlex_less(a: &[Choice], b: &[Choice]) -> bool {
    (a.len(), a) < (b.len(), b)
}

/// Shrinks `start`, a failing case's choice tree.
///
/// `interesting` replays a candidate tree (handed over: a try does not
/// copy it again) and, when the value it gives
/// still fails the property the same way, returns the tree of the choices
/// the replay actually made; otherwise `None`. Returns the smallest failing
/// tree found (as made by a replay, or `start` itself) and what was done.
///
/// Each candidate handed over is a copy the shrinker does not see again;
/// [`shrink_by_ref`] lends it instead, which is cheaper.
pub fn shrink(
    start: ChoiceTree,
    budget: Budget,
    mut interesting: impl FnMut(ChoiceTree) -> Option<ChoiceTree>,
) -> (ChoiceTree, ShrinkStats) {
    // The candidate made in the shrinker's tree is handed over whole; the
    // next one is made in a new tree, as a plain copy would be.
    search(start, budget, |cand: &mut ChoiceTree, spare: bool| {
        interesting(if spare { std::mem::replace(cand, ChoiceTree::root(Vec::new())) } else { cand.clone() })
    })
}

/// Shrinks `start` as [`shrink`] does, lending each candidate to
/// `interesting` instead of handing it over.
///
/// The shrinker makes every candidate in one tree of its own, copying the
/// current tree into it and editing it there, so a try allocates only where
/// the candidate's shape differs from the last one's. A caller that
/// records the replay into a [`Trail`](refgen_core::trail::Trail) it keeps
/// between tries, and builds the tree of the choices used only for a
/// candidate that fails, makes a passing try allocate nothing at all.
pub fn shrink_by_ref(
    start: ChoiceTree,
    budget: Budget,
    mut interesting: impl FnMut(&ChoiceTree) -> Option<ChoiceTree>,
) -> (ChoiceTree, ShrinkStats) {
    search(start, budget, |cand: &mut ChoiceTree, _| interesting(cand))
}

/// The search of [`shrink`] and [`shrink_by_ref`]: `interesting` gets the
/// shrinker's own candidate tree, to read, or to take when it says so.
fn search(
    start: ChoiceTree,
    budget: Budget,
    interesting: impl FnMut(&mut ChoiceTree, bool) -> Option<ChoiceTree>,
) -> (ChoiceTree, ShrinkStats) {
    let began = Instant::now();
    let mut s = Shrinker::new(start, budget, began, interesting);
    s.run();
    s.stats.elapsed = began.elapsed();
    (s.current, s.stats)
}

struct Shrinker<F> {
    current: ChoiceTree,
    /// Where a candidate edited at the root is made: a copy of the current tree, edited.
    scratch: ChoiceTree,
    /// What a candidate made in the current tree changed, to set it back:
    /// one log, its memory kept from try to try.
    log: Undo,
    /// Paths for the edits a try makes, their memory kept from try to try.
    paths: Vec<Path>,
    /// The choices a try of set choices replaced: each node's number, its
    /// choice, and its key before and after.
    set_keys: Vec<(usize, Choice, u64, u64)>,
    /// The current tree's nodes in pre-order, its choices, and its hash.
    index: Index,
    /// The index of the last tree kept before this one, its lists kept for the next.
    spare: Index,
    /// The choices of the last failing candidate, its memory kept for the next.
    used_key: Vec<Choice>,
    test: F,
    /// Hashes of the candidates tried, and of the current tree.
    seen: HashSet<u64, BuildPrehashed>,
    /// Hashes of the edits tried, each with the hash of the tree it was
    /// applied to: the same edit of the same tree makes the same candidate,
    /// which is known without making it.
    edits: HashSet<u64, BuildPrehashed>,
    stats: ShrinkStats,
    max_steps: u64,
    deadline: Option<Instant>,
    /// The deadline passed (the clock is read every [`CLOCK_EVERY`] tries,
    /// and every [`LOOKS_PER_CLOCK`] looks at the budget).
    timed_out: bool,
    /// How many times the budget was looked at.
    looks: u64,
}

/// The shrinker reads the clock once every this many tries: a read costs
/// as much as a small try.
const CLOCK_EVERY: u64 = 16;

/// The shrinker reads the clock once every this many looks at the budget
/// too: a look costs far less than a try.
const LOOKS_PER_CLOCK: u64 = 4096;

/// The sets of tried candidates and edits start with room for this many
/// (most shrinks try fewer; a longer one grows them a few times).
const SET_ROOM: u64 = 64;

impl<F: FnMut(&mut ChoiceTree, bool) -> Option<ChoiceTree>> Shrinker<F> {
    /// A shrinker of `start`, begun at `began`.
    fn new(start: ChoiceTree, budget: Budget, began: Instant, test: F) -> Self {
        let mut index = Index::default();
        index.rebuild(&start);
        // The trees kept are seldom larger than the start: room for them from the start.
        let (spare, used_key) = (index.with_room(), Vec::with_capacity(index.choices().len()));
        // Room for the tries of a typical shrink, so the sets seldom grow.
        let room = budget.max_steps.min(SET_ROOM) as usize;
        let mut seen = HashSet::with_capacity_and_hasher(room, BuildPrehashed::default());
        seen.insert(index.hash());
        Shrinker {
            // Copied into only for an edit at the root: nothing to allocate before.
            scratch: ChoiceTree::root(Vec::new()),
            log: Undo::new(),
            paths: Vec::new(),
            set_keys: Vec::new(),
            current: start,
            index,
            spare,
            used_key,
            test,
            seen,
            edits: HashSet::with_capacity_and_hasher(room, BuildPrehashed::default()),
            stats: ShrinkStats::default(),
            max_steps: budget.max_steps,
            deadline: began.checked_add(budget.max_time),
            timed_out: false,
            looks: 0,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        // A pass over a wide node may go a long way without a try (its
        // candidates already seen): the clock is read every so many looks too.
        self.looks += 1;
        if self.looks.is_multiple_of(LOOKS_PER_CLOCK) {
            self.timed_out = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        let out = self.stats.attempts >= self.max_steps || self.timed_out;
        if out {
            self.stats.budget_exhausted = true;
        }
        out
    }

    /// Tests the candidate whose hash is `hash`, unless one with that hash
    /// was tried; the tree of the choices its replay used when it fails.
    pub(super) fn test_candidate(&mut self, hash: u64, made: Where) -> Option<ChoiceTree> {
        if !self.seen.insert(hash) {
            return None;
        }
        self.test_unseen(made)
    }

    /// Tests the candidate, whose hash was just put among those seen.
    pub(super) fn test_unseen(&mut self, made: Where) -> Option<ChoiceTree> {
        self.stats.attempts += 1;
        if self.stats.attempts.is_multiple_of(CLOCK_EVERY) {
            self.timed_out = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        match made {
            Where::InScratch => (self.test)(&mut self.scratch, true),
            Where::InCurrent => (self.test)(&mut self.current, false),
        }
    }

    /// Keeps `used`, a failing candidate's choices, when they are smaller
    /// than the current ones; whether it was kept.
    fn keep(&mut self, used: ChoiceTree) -> bool {
        // Its choices first: most failing candidates that are not smaller
        // (a replay that made more choices) cost no index.
        self.used_key.clear();
        used.choices_into(&mut self.used_key);
        if !shortlex_less(&self.used_key, self.index.choices()) {
            return false;
        }
        self.spare.rebuild(&used);
        std::mem::swap(&mut self.index, &mut self.spare);
        self.seen.insert(self.index.hash());
        self.current = used;
        self.stats.steps += 1;
        true
    }

    fn run(&mut self) {
        while !self.out_of_budget() {
            let before = self.index.choices().to_vec();
            // The passes that change several choices at once cost more
            // tries: only when the others no longer shortened the case.
            let mut costly = None;
            for pass in Pass::ALL {
                if pass.costly() && !*costly.get_or_insert_with(|| self.index.choices().len() == before.len()) {
                    break;
                }
                let (tries, kept) = (self.stats.attempts, self.stats.steps);
                self.run_pass(pass);
                let counts = &mut self.stats.passes[pass as usize];
                counts.tries += self.stats.attempts - tries;
                counts.kept += self.stats.steps - kept;
            }
            if self.index.choices() == before {
                break;
            }
        }
    }
}
