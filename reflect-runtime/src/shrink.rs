//! Shrinking by reflection: edit a failing case's choice tree and replay it leniently, keeping edits that still fail and are smaller.
//!
//! Every candidate is a [`ChoiceTree`] edited from the current smallest
//! failing one, replayed by the caller with lenient replay
//! ([`reflect_core::replay_lenient`]), so every candidate is a value the
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
//! A try is made cheap. The shrinker keeps an index of its current tree
//! (the nodes in pre-order, where each subtree ends, each node's choice and
//! number of children): a pass finds the nodes it can edit there, without
//! a list of every path. A candidate that only sets choices, or deletes a
//! run of siblings, is made in the current tree itself and set back after
//! the try; any other edit beneath a node sets aside a copy of that node's
//! subtree only (into the one kept from the last such try); an edit at the
//! root is made in one scratch tree kept from try to try ([`ChoiceTree`]'s
//! `clone_from` reuses its lists). A tree's hash is a polynomial over its
//! nodes in pre-order, and the index keeps its partial sums, so a candidate
//! is hashed in the time of what it changed: a set choice or a deleted run
//! in a few steps, an edited subtree in that subtree's size. Any edit but a
//! deletion already tried on the same tree is known by its own hash before
//! the tree is touched. A failing candidate that only set choices, and
//! that the replay made as it was (the usual case: a lowered element),
//! stays in place: its index follows the set choices in one pass over the
//! partial sums, and the tree the replay handed back is only compared with
//! it. Any other failing candidate has its choices read (into a list kept
//! from try to try) before anything else, so one that is not smaller costs
//! no index; one that is has its index made in a single walk, which also
//! gives its choices. Nothing is made before the first try that the
//! search may not need. [`shrink`] hands each
//! candidate over as a tree of its own (one copy per try); [`shrink_by_ref`]
//! lends it, and a caller that records the replay into a trail it keeps
//! and builds the tree of the choices used only for a failing candidate
//! makes a passing try copy no tree at all (`examples/shrink_cost.rs`
//! measures both).
//!
//! The passes, each over the shared edits of [`reflect_core::edit`], tried in
//! rounds until a round changes nothing (passes 7 to 10, which change
//! several choices at once and cost more tries, only in a round that did
//! not shorten the case):
//!
//! 1. delete a run of sibling subtrees (list elements), also lowering the
//!    length choice before them when there is one: in a long run (16 or
//!    more), first halves from the tail or the head with the length lowered
//!    (so the length goes down first), then quarters, and so on; then runs
//!    of 8, 4, 2 and 1 anywhere;
//! 2. replace a subtree by a smaller subtree of the same choice point inside it;
//! 3. empty a subtree (lenient replay takes the first option beneath);
//! 4. lower one choice: to 0; else down by 1, 2, 3, 4, then doubling, then
//!    a binary search where that stops (a long way down costs a logarithmic
//!    number of tries), then a binary search from 0 across values that
//!    pass; when it cannot go lower, lower it by one with the next choice of
//!    the same site raised to its largest (the high word of a two-choice
//!    integer, whose low word must grow to keep the value large: 2^64
//!    becomes 2^64 - 1);
//!    then move a pick whose option built a flat part (choices only) to the
//!    option before it, that option's part built as large as it goes
//!    ([`Edit::Raise`]): the default integers keep `MIN` and `MAX` in a last,
//!    small option, and a failure found at `MAX` has its smallest failing
//!    value in the uniform option before it, which the lowering then
//!    searches from its top (`MAX` becomes 1001 for `u <= 1000`);
//! 5. swap two sibling subtrees of the same site when that puts smaller choices first;
//! 6. join two neighbouring parts of the same site that each begin with a
//!    length (two lists in a list of lists): one part with the summed length
//!    and both parts' elements, the outer length lowered by one;
//! 7. lower all equal leaf choices together (`x == y` kept on the way down);
//! 8. lower two nearby leaf choices by the same amount (`x - y` kept);
//! 9. move an amount from a leaf choice to a later one (`x + y` kept, the
//!    earlier one smaller: an overflowing sum ends at `1 + 255`);
//! 10. delete a run of siblings with the length lowered and the later leaf
//!     choices lowered by the run's length (indices into the list renumbered).
//!
//! Passes 7 to 9 search the amount as pass 4 does. Choices of signed
//! integers count outward from zero (0, 1, -1, 2, -2, ...), so one unit of
//! value is two choices: each amount is tried in steps of one choice, then
//! of two.

mod index;

use crate::hashing::finish;
use index::{hash_and_size, key_of, node_key, tree_hash, BuildPrehashed, Index};
use reflect_core::choice::{Choice, ChoiceTree};
use reflect_core::edit::{joinable, promotions, Edit, Path};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
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
    /// Candidates tried (replayed and tested).
    pub attempts: u64,
    /// Candidates kept: each one a smaller failing case.
    pub steps: u64,
    /// The budget ran out before a round changed nothing.
    pub budget_exhausted: bool,
    /// How long shrinking took.
    pub elapsed: Duration,
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
/// records the replay into a [`Trail`](reflect_core::trail::Trail) it keeps
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
    /// The subtree an edit beneath a node replaced, to be put back.
    saved: ChoiceTree,
    /// The run of siblings a deletion took out, to be put back.
    run: Vec<ChoiceTree>,
    /// The leaf choices a renumbering or a cap lowered: each one's number
    /// among the nodes of the run it lowered, its choice before, and its key
    /// before and after.
    lowered: Vec<(usize, Choice, u64, u64)>,
    /// The choices a try of set choices replaced, to be put back: each
    /// node's number, its choice, and its key before and after.
    undo: Vec<(usize, Option<Choice>, u64, u64)>,
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

/// A node with at least this many children is wide: its runs of children
/// are zeroed with run sizes that grow while they succeed, and each child
/// is swapped only with its smallest later sibling (not with each one), so
/// a long list costs a number of tries that grows with the log of its
/// length. Below it (every list of the `shrink_quality` problems), the
/// passes of one try per element or pair are cheap and find more.
const WIDE: usize = 32;

/// Pairs of choices are taken among this many neighbours in pre-order.
const PAIR_WINDOW: usize = 4;

/// Where a candidate is made.
#[derive(Clone, Copy)]
enum Made {
    /// In [`Shrinker::scratch`], a copy of the current tree: the caller may take it.
    InScratch,
    /// In the current tree itself, set back after the try: only lent.
    InCurrent,
}

/// The path of the deepest node that holds every change `edit` makes.
fn edit_root(edit: &Edit) -> Path {
    fn common(a: &[usize], b: &[usize]) -> Path {
        a.iter().zip(b).take_while(|(x, y)| x == y).map(|(x, _)| *x).collect()
    }
    match edit {
        Edit::Delete { at, .. }
        | Edit::Promote { at, .. }
        | Edit::Empty { at }
        | Edit::Set { at, .. }
        | Edit::Reroll { at }
        | Edit::Raise { at, .. }
        | Edit::Swap { at, .. }
        | Edit::Insert { at, .. }
        | Edit::Shift { at, .. }
        | Edit::Cap { at, .. }
        | Edit::Join { at, .. } => at.clone(),
        Edit::Exchange { x, y } => common(x, y),
        Edit::Seq(edits) => {
            let mut roots = edits.iter().map(edit_root);
            let first = roots.next().unwrap_or_default();
            roots.fold(first, |a, b| common(&a, &b))
        }
    }
}

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
            saved: ChoiceTree::root(Vec::new()),
            run: Vec::new(),
            lowered: Vec::new(),
            undo: Vec::new(),
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
    fn test_candidate(&mut self, hash: u64, made: Made) -> Option<ChoiceTree> {
        if !self.seen.insert(hash) {
            return None;
        }
        self.stats.attempts += 1;
        if self.stats.attempts.is_multiple_of(CLOCK_EVERY) {
            self.timed_out = self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        match made {
            Made::InScratch => (self.test)(&mut self.scratch, true),
            Made::InCurrent => (self.test)(&mut self.current, false),
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
            self.halve_runs();
            self.zero_runs();
            self.swap_wide();
            self.delete_runs();
            self.promote();
            self.empty_subtrees();
            self.lower_choices();
            self.raise_picks();
            self.swap_siblings();
            self.join_siblings();
            // The passes that change several choices at once cost more
            // tries: only when the others no longer shorten the case.
            if self.index.choices().len() == before.len() {
                self.lower_duplicates();
                self.lower_pairs();
                self.redistribute();
                self.delete_and_renumber();
            }
            if self.index.choices() == before {
                break;
            }
        }
    }

    /// The largest `n` for which `f(n)` holds, `f(0)` assumed: tries 1, 2,
    /// 3, 4, then doubles, then searches between the last `n` that held and
    /// the first that did not. `f` keeps what holds, so a long way down
    /// costs a logarithmic number of tries, not one per step.
    fn find_integer(&mut self, mut f: impl FnMut(&mut Self, u64) -> bool) -> u64 {
        let mut lo = 0;
        for n in 1..=4 {
            if !f(self, n) {
                return lo;
            }
            lo = n;
        }
        let mut hi = 8;
        while f(self, hi) {
            lo = hi;
            match hi.checked_mul(2) {
                Some(h) => hi = h,
                None => return lo,
            }
        }
        while lo + 1 < hi && !self.out_of_budget() {
            let mid = lo + (hi - lo) / 2;
            if f(self, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Moves the choices at `moves`' paths at once, each from what it is
    /// now by `k * step` times its sign, as far as the case keeps failing
    /// ([`Shrinker::find_integer`]); the first of `steps` that moves
    /// anything wins. Whether anything was kept.
    fn move_together(&mut self, moves: &[(&Path, i128)], steps: &[i128]) -> bool {
        // The choices as they are now: each amount is taken from these.
        let Some(base) = moves.iter().map(|(p, _)| self.choice_at(p)).collect::<Option<Vec<Choice>>>() else {
            return false;
        };
        let mut sets: Vec<(&[usize], Choice)> = moves.iter().map(|(p, _)| (p.as_slice(), 0)).collect();
        steps.iter().any(|&step| {
            let moved = self.find_integer(|s, k| {
                for ((set, &(_, sign)), &c) in sets.iter_mut().zip(moves).zip(&base) {
                    match Choice::try_from(c as i128 - sign * step * k as i128) {
                        Ok(c) => set.1 = c,
                        Err(_) => return false,
                    }
                }
                s.try_sets(&sets)
            });
            moved > 0
        })
    }

    /// The first node of the current tree from the `i`-th on in pre-order
    /// that `want` picks (by its number, from the index), with its number
    /// and its path: a pass visits only the nodes it can edit.
    fn next_node(&self, i: usize, want: impl Fn(&Index, usize) -> bool, path: &mut Path) -> Option<usize> {
        let j = (i..self.index.len()).find(|&j| want(&self.index, j))?;
        self.index.path_into(j, path);
        Some(j)
    }

    /// Tests the edit of the current tree, when it applies; whether it was kept.
    fn try_edit(&mut self, edit: Edit) -> bool {
        if self.out_of_budget() {
            return false;
        }
        // An edit tried on this tree before makes a candidate already seen:
        // known without making it.
        let mut h = EditHasher(self.index.hash());
        edit.hash(&mut h);
        if !self.edits.insert(h.finish()) {
            return false;
        }
        let root = edit_root(&edit);
        if !root.is_empty() {
            return self.try_beneath(&edit, &root);
        }
        self.scratch.clone_from(&self.current);
        if !edit.apply_in_place(&mut self.scratch) {
            return false;
        }
        let hash = tree_hash(&self.scratch);
        match self.test_candidate(hash, Made::InScratch) {
            Some(used) => self.keep(used),
            None => false,
        }
    }

    /// Tests the current tree with the choices at `sets`' paths set
    /// (each path once), set in place and set back after the try: no copy
    /// of the tree, no edit made, and the hash from the current one's.
    fn try_sets(&mut self, sets: &[(&[usize], Choice)]) -> bool {
        if self.out_of_budget() {
            return false;
        }
        debug_assert!(sets.iter().enumerate().all(|(i, (p, _))| sets[..i].iter().all(|(q, _)| p != q)));
        let mut hash = self.index.hash();
        let mut undo = std::mem::take(&mut self.undo);
        let mut fits = true;
        for &(path, choice) in sets {
            let node = self.index.at(&self.current, path);
            let Some((i, node)) = node.zip(self.current.get_mut(path)).filter(|(_, n)| n.choice.is_some()) else {
                fits = false;
                break;
            };
            let (old, was) = (self.index.key(i), node.choice);
            node.choice = Some(choice);
            let new = node_key(node);
            undo.push((i, was, old, new));
            hash = self.index.rekey(hash, i, old, new);
        }
        let used = if fits {
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a set follows the tree's");
            self.test_candidate(hash, Made::InCurrent)
        } else {
            None
        };
        // A replay that used the candidate as it was made (the usual case)
        // leaves it in place when it is smaller: its index follows the sets,
        // with no walk of the tree.
        let stays = used.as_ref().is_some_and(|used| same_tree(used, &self.current)) && {
            // Only the set choices differ: the first one that changed, in pre-order, decides.
            let first =
                undo.iter().zip(sets).filter(|((_, was, ..), (_, c))| *was != Some(*c)).min_by_key(|(u, _)| u.0);
            first.is_some_and(|((_, was, ..), (_, c))| Some(*c) < *was)
        };
        if stays {
            for ((i, _, old, new), &(_, c)) in undo.drain(..).zip(sets) {
                self.index.set(i, c, old, new);
            }
            debug_assert_eq!(self.index.hash(), hash, "the index follows the sets");
            self.seen.insert(hash);
            self.stats.steps += 1;
        } else {
            for (k, (_, was, ..)) in undo.drain(..).enumerate().rev() {
                if let Some(node) = self.current.get_mut(sets[k].0) {
                    node.choice = was;
                }
            }
        }
        self.undo = undo;
        stays || used.is_some_and(|used| self.keep(used))
    }

    /// Tests a deletion ([`Shrinker::try_delete`]), within the budget. A
    /// deletion is made and hashed in a few steps, with no [`Edit`] (the
    /// set of candidates seen is check enough).
    fn try_deletion(&mut self, at: &[usize], start: usize, len: usize, lower_len: bool, renumber: bool) -> bool {
        !self.out_of_budget() && self.try_delete(at, start, len, lower_len, renumber)
    }

    /// Tests the current tree with an [`Edit::Delete`] made in place and
    /// undone after the try: the run deleted is kept aside and put back.
    /// With `renumber`, the leaf choices after the run are lowered by its
    /// length too ([`reflect_core::edit::delete_renumbered`]), and the edit applies only when
    /// that lowers one.
    fn try_delete(&mut self, at: &[usize], start: usize, len: usize, lower_len: bool, renumber: bool) -> bool {
        let Some(node) = self.current.get(at) else { return false };
        if len == 0 || start.checked_add(len).is_none_or(|end| end > node.children.len()) {
            return false;
        }
        let k = len as Choice;
        // The length before the run, as `Edit::Delete` finds it.
        let length = match lower_len {
            true => {
                let found = node.children[..start]
                    .iter()
                    .rposition(|c| c.children.is_empty() && c.choice.is_some_and(|c| c >= k));
                let Some(i) = found else { return false };
                Some(i)
            }
            false => None,
        };
        // The hash, before the tree is touched: the run's nodes cut out, the
        // parent's and the length's keys changed. A deletion already tried
        // (in a wide node, most runs of equal elements) costs no more.
        let ix = &self.index;
        let p = ix.at(&self.current, at).expect("the node is in the tree");
        let (a, b) = (ix.child(p, start), ix.child(p, start + len));
        let mut hash =
            ix.rekey(ix.splice(a, b, 0, 0), p, ix.key(p), key_of(node, node.choice, node.children.len() - len));
        if let Some(i) = length {
            let (j, l) = (ix.child(p, i), &node.children[i]);
            hash = ix.rekey(hash, j, ix.key(j), key_of(l, l.choice.map(|c| c - k), 0));
        }
        if !renumber && self.seen.contains(&hash) {
            return false;
        }
        let node = self.current.get_mut(at).expect("the node is in the tree");
        self.run.extend(node.children.drain(start..start + len));
        let shift = |node: &mut ChoiceTree, f: fn(Choice, Choice) -> Choice| {
            if let Some(c) = length.and_then(|i| node.children[i].choice.as_mut()) {
                *c = f(*c, k);
            }
        };
        shift(node, |c, k| c - k);
        // The later leaf choices renumbered: the nodes after the run now begin at `a`.
        if renumber {
            lower_leaves(&mut node.children[start..], |c| (c >= k).then(|| c - k), &mut self.lowered);
            for &(o, _, old, new) in &self.lowered {
                hash = ix.rekey(hash, a + o, old, new);
            }
        }
        let used = if renumber && self.lowered.is_empty() {
            None
        } else {
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a deletion follows the tree's");
            self.test_candidate(hash, Made::InCurrent)
        };
        let node = self.current.get_mut(at).expect("the node the run was deleted from");
        if renumber {
            restore_leaves(&mut node.children[start..], &self.lowered);
        }
        shift(node, |c, k| c + k);
        node.children.splice(start..start, self.run.drain(..));
        used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with an [`Edit::Cap`] of the children
    /// `start..start + len` of the node at `at` made in place, and set back
    /// after the try; hashed from the lowered choices alone.
    fn try_cap(&mut self, at: &[usize], start: usize, len: usize, max: Choice) -> bool {
        if self.out_of_budget() {
            return false;
        }
        let ix = &self.index;
        let Some(p) = ix.at(&self.current, at) else { return false };
        let node = self.current.get_mut(at).expect("the node is in the tree");
        let Some(run) = start.checked_add(len).and_then(|end| node.children.get_mut(start..end)) else {
            return false;
        };
        lower_leaves(run, |c| (c > max).then_some(max), &mut self.lowered);
        if self.lowered.is_empty() {
            return false;
        }
        let a = ix.child(p, start);
        let hash = self.lowered.iter().fold(ix.hash(), |h, &(o, _, old, new)| ix.rekey(h, a + o, old, new));
        debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a cap follows the tree's");
        let used = self.test_candidate(hash, Made::InCurrent);
        let node = self.current.get_mut(at).expect("the node the run was capped in");
        restore_leaves(&mut node.children[start..start + len], &self.lowered);
        used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with `edit`, which changes nothing outside the
    /// subtree at `root`, made in place: only that subtree is copied, to
    /// be put back after the try.
    fn try_beneath(&mut self, edit: &Edit, root: &[usize]) -> bool {
        let Some(i) = self.index.at(&self.current, root) else { return false };
        // Copied into the subtree set aside last time: its lists are reused.
        self.saved.clone_from(self.current.get(root).expect("the node is in the tree"));
        let used = if edit.apply_in_place(&mut self.current) {
            let node = self.current.get(root).expect("an edit beneath a node keeps the node");
            let (run, m) = hash_and_size(node);
            let hash = self.index.splice(i, self.index.end(i), run, m);
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of an edit beneath a node follows the tree's");
            self.test_candidate(hash, Made::InCurrent)
        } else {
            None
        };
        std::mem::swap(self.current.get_mut(root).expect("an edit beneath a node keeps the node"), &mut self.saved);
        used.is_some_and(|used| self.keep(used))
    }

    /// Pass 1a: delete halves of long runs of siblings, then quarters, ...,
    /// down to single ones, with the length before them lowered: from the
    /// tail, then from the head (runs in the middle are left to pass 1b).
    fn halve_runs(&mut self) {
        let wide: Vec<Path> =
            (0..self.index.len()).filter(|&i| self.index.children(i) >= 16).map(|i| self.index.path(i)).collect();
        for path in wide {
            let len = |s: &Self| s.current.get(&path).map_or(0, |t| t.children.len());
            let mut k = len(self) / 2;
            while k >= 1 && !self.out_of_budget() {
                let n = len(self);
                if n < 2 * k {
                    k = n / 2;
                    continue;
                }
                let kept = [n - k, 0, 1].into_iter().any(|start| self.try_deletion(&path, start, k, true, false));
                if !kept {
                    k /= 2;
                }
            }
        }
    }

    /// The paths of the current tree's [`WIDE`] nodes.
    fn wide_nodes(&self) -> Vec<Path> {
        (0..self.index.len()).filter(|&i| self.index.children(i) >= WIDE).map(|i| self.index.path(i)).collect()
    }

    /// Pass 1c: in a wide node, zero runs of children: from each child with
    /// a choice above zero, every child to the end, else runs of 1, 2, 3, 4,
    /// 8, ... children, then a
    /// binary search ([`Shrinker::find_integer`]), and on past the child that
    /// stopped it. A list that fails by a few of its elements has the others
    /// zeroed in a logarithmic number of tries.
    fn zero_runs(&mut self) {
        for path in self.wide_nodes() {
            let mut s = 0;
            while !self.out_of_budget() {
                let Some(node) = self.current.get(&path) else { break };
                // Children with nothing to lower are passed over without a try.
                let Some(first) = (s..node.children.len()).find(|&i| positive_leaf(&node.children[i])) else {
                    break;
                };
                s = first;
                // The whole rest at once first: the last run of a sweep is often that.
                let n = node.children.len();
                if n - s > 4 && self.try_cap(&path, s, n - s, 0) {
                    break;
                }
                let k = self.find_integer(|sh, k| {
                    let n = sh.current.get(&path).map_or(0, |t| t.children.len());
                    s + k as usize <= n && sh.try_cap(&path, s, k as usize, 0)
                });
                s += k as usize + 1;
            }
        }
    }

    /// Pass 1d: in a wide node, swap each child with its smallest later
    /// sibling of the same site (the last of equal ones), when that is
    /// smaller: a large value goes to the end in one try, where pass 5 would
    /// try each pair.
    fn swap_wide(&mut self) {
        for path in self.wide_nodes() {
            let mut a = 0;
            while !self.out_of_budget() {
                let Some(node) = self.current.get(&path) else { break };
                let keys: Vec<Vec<Choice>> = node.children.iter().map(ChoiceTree::choices).collect();
                // For each child, the smallest later sibling of its site.
                let mut later = vec![None; keys.len()];
                let mut smallest: Vec<(&str, usize)> = Vec::new();
                for i in (0..keys.len()).rev() {
                    let site: &str = &node.children[i].site;
                    match smallest.iter_mut().find(|(s, _)| *s == site) {
                        Some((_, m)) => {
                            later[i] = Some(*m);
                            if shortlex_less(&keys[i], &keys[*m]) {
                                *m = i;
                            }
                        }
                        None => smallest.push((site, i)),
                    }
                }
                let Some((x, y)) = (a..keys.len())
                    .find_map(|i| later[i].filter(|&b| shortlex_less(&keys[b], &keys[i])).map(|b| (i, b)))
                else {
                    break;
                };
                a = if self.try_edit(Edit::Swap { at: path.clone(), a: x, b: y }) { x } else { x + 1 };
            }
        }
    }

    /// Pass 1b: delete runs of sibling subtrees, largest runs first.
    fn delete_runs(&mut self) {
        for k in [8usize, 4, 2, 1] {
            let mut i = 0;
            let mut path = Path::new();
            while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= k, &mut path) {
                if self.out_of_budget() {
                    return;
                }
                let mut start = 0;
                loop {
                    let n = self.current.get(&path).map_or(0, |t| t.children.len());
                    if start + k > n || self.out_of_budget() {
                        break;
                    }
                    // With the length choice lowered to match, then without.
                    let kept =
                        [true, false].into_iter().any(|lower_len| self.try_deletion(&path, start, k, lower_len, false));
                    let n_now = self.current.get(&path).map_or(0, |t| t.children.len());
                    // A kept deletion brings new siblings to `start`: try there again.
                    if !kept || n_now >= n {
                        start += 1;
                    }
                }
                i = j + 1;
            }
        }
    }

    /// Pass 2: replace a subtree by a subtree of the same site and kind inside it, smallest first.
    fn promote(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, has_children, &mut path) {
            if self.out_of_budget() {
                return;
            }
            for edit in promotions(&self.current, &path) {
                if self.try_edit(edit) {
                    break;
                }
            }
            i = j + 1;
        }
    }

    /// Pass 3: drop everything beneath a node.
    fn empty_subtrees(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| i > 0 && has_children(ix, i), &mut path) {
            if self.out_of_budget() {
                return;
            }
            self.try_edit(Edit::Empty { at: path.clone() });
            i = j + 1;
        }
    }

    fn set(&mut self, path: &[usize], choice: Choice) -> bool {
        self.try_sets(&[(path, choice)])
    }

    fn choice_at(&self, path: &[usize]) -> Option<Choice> {
        self.current.get(path).and_then(|t| t.choice)
    }

    /// Pass 4: lower each choice: to 0 first, then down by 1, 2, 3, 4, 8,
    /// 16, ... and a binary search where that stops, then by a binary
    /// search from 0 (across values that pass between failing ones).
    fn lower_choices(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| ix.choice(i).is_some_and(|c| c > 0), &mut path) {
            if self.out_of_budget() {
                return;
            }
            let c = self.index.choice(j).expect("a choice node");
            if !self.set(&path, 0) {
                self.find_integer(|s, k| k < c && s.set(&path, c - k));
                self.bisect(&path);
            }
            self.borrow(&path);
            i = j + 1;
        }
    }

    /// A binary search for the smallest choice at `path` that still fails,
    /// between 0 (taken to pass) and the current one.
    fn bisect(&mut self, path: &[usize]) {
        let Some(c) = self.choice_at(path) else { return };
        let (mut lo, mut hi) = (0, c);
        while lo + 1 < hi && !self.out_of_budget() && self.choice_at(path) == Some(hi) {
            let mid = lo + (hi - lo) / 2;
            if self.set(path, mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }

    /// The leaf choices (numbers, not options) above zero, in pre-order.
    fn leaf_choices(&self) -> Vec<(Path, Choice)> {
        (0..self.index.len())
            .filter_map(|i| {
                let c = self.index.choice(i).filter(|&c| c > 0 && !has_children(&self.index, i))?;
                Some((self.index.path(i), c))
            })
            .collect()
    }

    /// Pass 7: lower all equal leaf choices together (a value that appears
    /// twice, such as `x == y`, must go down in both places at once).
    /// Choices of signed integers count outward from zero (0, 1, -1, 2, ...),
    /// so after steps of one choice, steps of two (one unit of value) are tried.
    fn lower_duplicates(&mut self) {
        let mut groups: BTreeMap<Choice, Vec<Path>> = BTreeMap::new();
        for (p, c) in self.leaf_choices() {
            groups.entry(c).or_default().push(p);
        }
        for paths in groups.into_values().rev().filter(|ps| ps.len() >= 2) {
            if self.out_of_budget() {
                return;
            }
            let moves: Vec<(&Path, i128)> = paths.iter().map(|p| (p, 1)).collect();
            self.move_together(&moves, &[1, 2]);
        }
    }

    /// Moves each pair of leaf choices at most [`PAIR_WINDOW`] apart in
    /// pre-order together, the later one by `sign` times the earlier one's amount.
    fn move_pairs(&mut self, sign: i128) {
        let leaves = self.leaf_choices();
        for (i, (a, _)) in leaves.iter().enumerate() {
            for (b, _) in leaves.iter().skip(i + 1).take(PAIR_WINDOW) {
                if self.out_of_budget() {
                    return;
                }
                self.move_together(&[(a, 1), (b, sign)], &[1, 2]);
            }
        }
    }

    /// Pass 8: lower two choices by the same amount (`x - y` kept while both go down).
    fn lower_pairs(&mut self) {
        self.move_pairs(1);
    }

    /// Pass 9: move an amount from an earlier choice to a later one (the
    /// sum kept while the earlier one goes down: `x + y` overflowing with
    /// `x` as small as it can be).
    fn redistribute(&mut self) {
        self.move_pairs(-1);
    }

    /// Pass 10: delete a run of siblings with the length before them
    /// lowered, and the leaf choices after them lowered by the run's length
    /// (indices into a list renumbered after elements before them went).
    fn delete_and_renumber(&mut self) {
        for k in [1usize, 2, 3, 4] {
            let mut i = 0;
            let mut path = Path::new();
            while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= k, &mut path) {
                let mut start = 0;
                while start + k <= self.current.get(&path).map_or(0, |t| t.children.len()) {
                    if self.out_of_budget() {
                        return;
                    }
                    if !self.try_deletion(&path, start, k, true, true) {
                        start += 1;
                    }
                }
                i = j + 1;
            }
        }
    }

    /// Lowers the choice at `path` by one and raises the next sibling of
    /// the same site to the largest choice (a lenient replay makes it at
    /// random where that does not fit).
    fn borrow(&mut self, path: &[usize]) {
        let Some((&last, parent)) = path.split_last() else { return };
        let Some(siblings) = self.current.get(parent).map(|p| &p.children[..]) else { return };
        let (Some(node), Some(after)) = (siblings.get(last), siblings.get(last + 1)) else { return };
        let (Some(c), Some(_)) = (node.choice, after.choice) else { return };
        if c == 0 || node.site != after.site {
            return;
        }
        let next = [parent, &[last + 1]].concat();
        self.try_sets(&[(path, c - 1), (&next, Choice::MAX)]);
    }

    /// Pass 4b: move a pick whose option built only choices to the option
    /// before it, built as large as it goes (see the module docs).
    fn raise_picks(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) =
            self.next_node(i, |ix, i| ix.choice(i).is_some_and(|c| c > 0) && has_children(ix, i), &mut path)
        {
            if self.out_of_budget() {
                return;
            }
            let flat_pick = self.current.get(&path).and_then(|t| {
                let flat =
                    !t.children.is_empty() && t.children.iter().all(|k| k.choice.is_some() && k.children.is_empty());
                t.choice.filter(|&c| c > 0 && flat)
            });
            if let Some(c) = flat_pick {
                self.try_edit(Edit::Raise { at: path.clone(), choice: c - 1 });
            }
            i = j + 1;
        }
    }

    /// Pass 5: swap sibling subtrees of the same site when the smaller
    /// choices then come first (in a node that is not [`WIDE`]: pass 1d).
    fn swap_siblings(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| (2..WIDE).contains(&ix.children(i)), &mut path) {
            if self.out_of_budget() {
                return;
            }
            let n = self.current.get(&path).map_or(0, |t| t.children.len());
            // The children's choices, made once for the node (again after a kept swap).
            let mut keys: Option<Vec<Vec<Choice>>> = None;
            for a in 0..n {
                for b in a + 1..n {
                    // A kept swap's replay may have reshaped the tree: stop when the node or child is gone.
                    let Some(node) = self.current.get(&path).filter(|t| b < t.children.len()) else {
                        break;
                    };
                    if node.children[a].site != node.children[b].site {
                        continue;
                    }
                    let k = keys.get_or_insert_with(|| node.children.iter().map(ChoiceTree::choices).collect());
                    if shortlex_less(&k[b], &k[a]) && self.try_edit(Edit::Swap { at: path.clone(), a, b }) {
                        keys = None;
                    }
                }
            }
            i = j + 1;
        }
    }

    /// Pass 6: join neighbouring parts that each begin with a length.
    fn join_siblings(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= 2, &mut path) {
            if self.out_of_budget() {
                return;
            }
            let mut a = 0;
            while let Some(node) = self.current.get(&path) {
                if a + 1 >= node.children.len() {
                    break;
                }
                if !joinable(&node.children[a], &node.children[a + 1])
                    || !self.try_edit(Edit::Join { at: path.clone(), a })
                {
                    a += 1;
                }
            }
            i = j + 1;
        }
    }
}

/// Hashes an edit, beginning from the hash of the tree it edits. Each
/// word goes through a full avalanche: a cheaper mix lets a leading zero
/// word (the first variant's discriminant) vanish, so that two different
/// edits of one tree would be taken for the same candidate.
struct EditHasher(u64);

impl Hasher for EditHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = finish(self.0 ^ x ^ 0x9e37_79b9_7f4a_7c15).rotate_left(17);
    }
    fn write_u8(&mut self, x: u8) {
        self.write_u64(x.into());
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Lowers each leaf choice `c` of `trees` for which `lower(c)` gives a new
/// one (as [`Edit::Shift`] and [`Edit::Cap`] do), noting in `lowered` each
/// one's number among the nodes of `trees` in pre-order, its choice before,
/// and its key before and after.
fn lower_leaves(
    trees: &mut [ChoiceTree],
    lower: impl Fn(Choice) -> Option<Choice>,
    lowered: &mut Vec<(usize, Choice, u64, u64)>,
) {
    fn go(
        t: &mut ChoiceTree,
        lower: &impl Fn(Choice) -> Option<Choice>,
        n: &mut usize,
        lowered: &mut Vec<(usize, Choice, u64, u64)>,
    ) {
        if let (Some(c), true) = (t.choice, t.children.is_empty()) {
            if let Some(to) = lower(c) {
                let old = node_key(t);
                t.choice = Some(to);
                lowered.push((*n, c, old, node_key(t)));
            }
        }
        *n += 1;
        for c in &mut t.children {
            go(c, lower, n, lowered);
        }
    }
    lowered.clear();
    let mut n = 0;
    for t in trees {
        go(t, &lower, &mut n, lowered);
    }
}

/// Sets back the leaf choices of `trees` that [`lower_leaves`] noted in `lowered`.
fn restore_leaves(trees: &mut [ChoiceTree], lowered: &[(usize, Choice, u64, u64)]) {
    fn go(t: &mut ChoiceTree, n: &mut usize, next: &mut usize, lowered: &[(usize, Choice, u64, u64)]) {
        if lowered.get(*next).is_some_and(|l| l.0 == *n) {
            t.choice = Some(lowered[*next].1);
            *next += 1;
        }
        *n += 1;
        for c in &mut t.children {
            if *next == lowered.len() {
                return;
            }
            go(c, n, next, lowered);
        }
    }
    let (mut n, mut next) = (0, 0);
    for t in trees {
        if next == lowered.len() {
            return;
        }
        go(t, &mut n, &mut next, lowered);
    }
}

/// Whether `a` and `b` are the same tree, their sites the same generator's
/// strings (at the same addresses: a site read back from a file is taken
/// for another, so that the tree kept is always the replay's own).
fn same_tree(a: &ChoiceTree, b: &ChoiceTree) -> bool {
    fn same_node(a: &ChoiceTree, b: &ChoiceTree) -> bool {
        let same_site = match (&a.site, &b.site) {
            (Cow::Borrowed(x), Cow::Borrowed(y)) => std::ptr::eq(*x, *y),
            _ => false,
        };
        same_site && a.choice == b.choice && a.children.len() == b.children.len()
    }
    // A leaf (most nodes) is compared here, without a call.
    same_node(a, b)
        && a.children.iter().zip(&b.children).all(|(x, y)| {
            same_node(x, y)
                && (x.children.is_empty() || x.children.iter().zip(&y.children).all(|(x, y)| same_tree(x, y)))
        })
}

/// Whether `t` has a leaf choice above zero.
fn positive_leaf(t: &ChoiceTree) -> bool {
    match t.choice {
        Some(c) if t.children.is_empty() => c > 0,
        _ => t.children.iter().any(positive_leaf),
    }
}

/// Whether node `i` of the index has children.
fn has_children(ix: &Index, i: usize) -> bool {
    ix.children(i) > 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use reflect_core::combinators::{any_int, int, vec};
    use reflect_core::interpret::{generate_recorded, reflect, replay_lenient, run_recorded};
    use reflect_core::{parse_tree, BoxGen, Gen};

    fn shrink_with<G: Gen>(g: &G, seed: u64, fails: impl Fn(&G::Value) -> bool) -> (G::Value, ShrinkStats) {
        let (v, tree) = generate_recorded(g, seed);
        assert!(fails(&v.unwrap()), "seed {seed} should fail");
        let budget = Budget { max_steps: 10_000, max_time: Duration::from_secs(60) };
        let (t, stats) = shrink(tree, budget, |cand| match replay_lenient(g, &cand, 0) {
            (Ok(v), used) if fails(&v) => Some(used),
            _ => None,
        });
        (parse_tree(g, &t).unwrap(), stats)
    }

    /// Shrinks the value `start` (reflected into its choices) among the values that `fails`.
    fn shrink_from<G: Gen>(g: &G, start: G::Value, fails: impl Fn(&G::Value) -> bool) -> G::Value {
        let tree = reflect(g, &start).into_iter().next().expect("the start value is in range");
        let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
        let (t, _) = shrink(tree, budget, |cand| match replay_lenient(g, &cand, 0) {
            (Ok(v), used) if fails(&v) => Some(used),
            _ => None,
        });
        parse_tree(g, &t).unwrap()
    }

    fn pair(hi: u32) -> impl Gen<Value = (u32, u32)> {
        (int(1u32..=hi).site("x"), int(1u32..=hi).site("y"))
    }

    #[test]
    fn equal_values_go_down_together() {
        // No pass lowering one choice can keep `x == y`.
        for start in [(590, 590), (10_000, 10_000), (11, 11)] {
            let min = shrink_from(&pair(10_000), start, |&(x, y)| x >= 10 && x == y);
            assert_eq!(min, (10, 10), "from {start:?}");
        }
    }

    #[test]
    fn two_values_go_down_by_the_same_amount() {
        for start in [(590, 591), (9_999, 9_998), (12, 11)] {
            let min = shrink_from(&pair(10_000), start, |&(x, y)| x >= 10 && x.abs_diff(y) == 1);
            assert_eq!(min, (10, 9), "from {start:?}");
        }
        for start in [(5_000, 5_004), (700, 697)] {
            let min = shrink_from(&pair(10_000), start, |&(x, y)| x >= 10 && x != y && x.abs_diff(y) <= 4);
            assert_eq!(min, (10, 6), "from {start:?}");
        }
    }

    #[test]
    fn signed_values_go_down_together_a_unit_at_a_time() {
        // Choices of signed integers count outward (0, 1, -1, 2, ...): one unit is two choices.
        let g = (int(-1000i32..=1000), int(-1000i32..=1000));
        for start in [(-500, -501), (400, 401)] {
            let min = shrink_from(&g, start, |&(x, y)| x.abs() >= 10 && x.abs_diff(y) == 1);
            assert_eq!(min.0.abs(), 10, "from {start:?}: {min:?}");
            assert_eq!(min.1.abs(), 9, "from {start:?}: {min:?}");
        }
    }

    #[test]
    fn an_amount_moves_from_one_value_to_the_next() {
        let g = (int(0u8..=255), int(0u8..=255));
        for start in [(181, 75), (120, 136), (255, 255)] {
            let min = shrink_from(&g, start, |&(x, y)| x.wrapping_add(y) < x);
            assert_eq!(min, (1, 255), "from {start:?}");
        }
    }

    #[test]
    fn deleted_elements_renumber_the_indices_after_them() {
        // A length, then that many indices into the list; no two-cycle.
        let g = int(1usize..=10).bind(|n| vec(int(0usize..=n - 1), n..=n));
        let two_cycle = |xs: &Vec<usize>| xs.iter().enumerate().any(|(i, &j)| j != i && xs[j] == i);
        for start in [vec![0, 0, 3, 2], vec![1, 1, 1, 4, 3], vec![2, 2, 5, 5, 5, 3]] {
            // The plain bind does not reflect: start from the choices instead.
            let mut choices = vec![start.len() as u64 - 1, 0];
            choices.extend(start.iter().map(|&x| x as u64));
            let ((v, tree), _) = run_recorded(&g, crate::token::sequence_source(&choices));
            assert_eq!(v.unwrap(), start);
            let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
            let (t, _) = shrink(tree, budget, |cand| match replay_lenient(&g, &cand, 0) {
                (Ok(v), used) if two_cycle(&v) => Some(used),
                _ => None,
            });
            assert_eq!(parse_tree(&g, &t).unwrap(), vec![1, 0], "from {start:?}");
        }
    }

    #[test]
    fn an_extreme_integer_shrinks_into_the_uniform_option() {
        use reflect_core::combinators::integer;
        // `u64::MAX` and `u64::MAX - 1` sit in the default integer's last option; the smallest failing
        // value, 1001, in the uniform option before it: the raise pass gets there from the top.
        for (first, fails) in [(u64::MAX, 1001u64), (u64::MAX - 1, 70_000)] {
            let g = integer::<u64>("u64");
            let seed = (0..500u64)
                .find(|&s| generate_recorded(&g, s).0 == Ok(first))
                .expect("an extreme comes up in one case in twenty");
            let (v, _) = shrink_with(&g, seed, |&v| v >= fails);
            assert_eq!(v, fails, "from {first}");
        }
        // A signed one found at MIN shrinks to the negative boundary.
        let g = integer::<i32>("i32");
        let seed = (0..500u64).find(|&s| generate_recorded(&g, s).0 == Ok(i32::MIN)).expect("MIN comes up");
        let (v, _) = shrink_with(&g, seed, |&v| v < -5000);
        assert_eq!(v, -5001);
    }

    #[test]
    fn shortlex_orders_by_length_then_lexicographically() {
        assert!(shortlex_less(&[9], &[0, 0]));
        assert!(shortlex_less(&[0, 1], &[1, 0]));
        assert!(!shortlex_less(&[1, 0], &[1, 0]));
    }

    #[test]
    fn a_list_shrinks_to_the_smallest_failing_one() {
        let g = vec(int(0u32..=1000), 0..=20);
        let mut shrunk = 0;
        for seed in 0..40 {
            let (v, _) = generate_recorded(&g, seed);
            if !v.unwrap().iter().any(|&x| x >= 500) {
                continue;
            }
            let (min, stats) = shrink_with(&g, seed, |xs| xs.iter().any(|&x| x >= 500));
            assert_eq!(min, vec![500], "seed {seed}");
            assert!(stats.steps > 0);
            shrunk += 1;
        }
        assert!(shrunk > 10);
    }

    #[test]
    fn reverse_shrinks_to_zero_one() {
        let g = vec(int(0u32..=100), 0..=10);
        for seed in 0..40 {
            let (v, _) = generate_recorded(&g, seed);
            let v = v.unwrap();
            if v.iter().rev().eq(v.iter()) {
                continue;
            }
            let (min, _) = shrink_with(&g, seed, |xs| !xs.iter().rev().eq(xs.iter()));
            assert_eq!(min, vec![0, 1], "seed {seed}");
        }
    }

    #[test]
    fn a_validity_filter_is_honoured_while_shrinking() {
        // Only lists with an even sum are valid; every shrunk candidate must be too.
        let g = vec(int(0u32..=100), 1..=10).filter(|xs: &Vec<u32>| xs.iter().sum::<u32>() % 2 == 0);
        let mut checked = 0;
        for seed in 0..60 {
            let (v, _) = generate_recorded(&g, seed);
            let Ok(v) = v else { continue };
            if v.len() < 2 {
                continue;
            }
            let (min, _) = shrink_with(&g, seed, |xs| xs.len() >= 2);
            assert_eq!(min, vec![0, 0]);
            checked += 1;
        }
        assert!(checked > 5);
    }

    type Lists = Vec<Vec<i32>>;
    /// A generator and what makes its values fail.
    type Shape = (BoxGen<Lists>, fn(&Lists) -> bool);

    /// Lists of lists and what makes them fail: every kind of edit the passes make.
    fn shapes() -> Vec<Shape> {
        let nested = vec(vec(any_int::<i32>(), 0..=8), 0..=6).boxed();
        let many: fn(&Lists) -> bool = |xss| xss.iter().map(Vec::len).sum::<usize>() >= 4;
        let distinct: fn(&Lists) -> bool =
            |xss| xss.iter().flatten().collect::<std::collections::HashSet<_>>().len() >= 3;
        vec![(nested.clone(), many), (nested, distinct)]
    }

    #[test]
    fn lending_a_candidate_makes_the_same_search_as_handing_it_over() {
        for (g, fails) in shapes() {
            for seed in 0..30 {
                let (v, tree) = generate_recorded(&g, seed);
                if !v.is_ok_and(|v| fails(&v)) {
                    continue;
                }
                let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
                let replay = |cand: &ChoiceTree| match replay_lenient(&g, cand, 0) {
                    (Ok(v), used) if fails(&v) => Some(used),
                    _ => None,
                };
                let (owned, a) = shrink(tree.clone(), budget, |cand| replay(&cand));
                let (lent, b) = shrink_by_ref(tree, budget, replay);
                assert_eq!(owned, lent, "seed {seed}");
                assert_eq!((a.attempts, a.steps), (b.attempts, b.steps), "seed {seed}");
            }
        }
    }

    #[test]
    fn a_candidate_kept_in_place_makes_the_same_search_as_one_handed_back() {
        // A tree whose sites own their text (as one read back from a file)
        // is never taken for the replay's own: a failing candidate handed
        // back so is indexed anew. With the generator's sites, a set try the
        // replay made as it was stays in place. Both must search alike.
        fn alike<G: Gen>(g: &G, fails: impl Fn(&G::Value) -> bool, minimal: Option<G::Value>) -> usize
        where
            G::Value: PartialEq + std::fmt::Debug,
        {
            let owned = |mut t: ChoiceTree| {
                t.walk_mut(&mut |t| t.site = Cow::Owned(t.site.to_string()));
                t
            };
            let replay = |cand: &ChoiceTree| match replay_lenient(g, cand, 0) {
                (Ok(v), used) if fails(&v) => Some(used),
                _ => None,
            };
            let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
            let mut compared = 0;
            for seed in 0..60 {
                let (v, tree) = generate_recorded(g, seed);
                if !v.is_ok_and(|v| fails(&v)) {
                    continue;
                }
                let (a, sa) = shrink_by_ref(tree.clone(), budget, replay);
                let (b, sb) = shrink_by_ref(owned(tree), budget, |cand| replay(cand).map(owned));
                assert_eq!(a.choices(), b.choices(), "seed {seed}");
                assert_eq!((sa.attempts, sa.steps), (sb.attempts, sb.steps), "seed {seed}");
                let shrunk = parse_tree(g, &a).unwrap();
                assert!(fails(&shrunk) && minimal.as_ref().is_none_or(|m| m == &shrunk), "seed {seed}: {shrunk:?}");
                compared += 1;
            }
            compared
        }
        let list = vec(int(0u32..=1000), 0..=20);
        assert!(alike(&list, |xs| xs.iter().filter(|&&x| x >= 300).count() >= 2, Some(vec![300, 300])) > 10);
        let triple = (int(0u32..=1000), int(0u32..=1000), int(0u32..=1000));
        assert!(alike(&triple, |&(x, y, z)| x + y + z >= 1000 && x > 10, None) > 10);
    }

    #[test]
    fn candidates_made_in_place_leave_the_current_tree_as_it_was() {
        // Nothing fails, so nothing is kept: every pass tries every edit it
        // makes on the start, each made in the current tree (or a copy) and
        // set back. The tree handed back must be the start, untouched.
        for (g, _) in shapes() {
            for seed in 0..20 {
                let (_, tree) = generate_recorded(&g, seed);
                let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
                let mut tried = 0;
                let (back, stats) = shrink_by_ref(tree.clone(), budget, |cand| {
                    assert_ne!(cand, &tree, "a candidate is the start itself");
                    tried += 1;
                    None
                });
                assert_eq!(back, tree, "seed {seed}");
                assert_eq!(stats.attempts, tried);
                assert_eq!(stats.steps, 0);
            }
        }
    }

    #[test]
    fn an_edit_hash_tells_apart_edits_that_differ_only_in_a_leading_zero() {
        // `Delete` is the first variant (discriminant 0), and its fields
        // here write the same words as `Promote`'s: a mix that starts from
        // zero and lets a zero word through unchanged took them for one,
        // and the second of them was never tried.
        let key = |e: &Edit| {
            let mut h = EditHasher(tree_hash(&ChoiceTree::root(Vec::new())));
            e.hash(&mut h);
            h.finish()
        };
        let delete = Edit::Delete { at: vec![1], start: 1, len: 1, lower_len: true };
        let promote = Edit::Promote { at: vec![1], from: vec![1] };
        assert_ne!(key(&delete), key(&promote));
        assert_eq!(key(&delete), key(&delete.clone()));
    }

    #[test]
    fn the_budget_bounds_the_attempts() {
        let g = vec(int(1u32..=1000), 10..=20);
        let (_, tree) = generate_recorded(&g, 3);
        let budget = Budget { max_steps: 5, max_time: Duration::from_secs(60) };
        let (_, stats) = shrink(tree, budget, |cand| Some(replay_lenient(&g, &cand, 0).1));
        assert_eq!(stats.attempts, 5);
        assert!(stats.budget_exhausted);
    }

    #[test]
    fn deletions_made_in_place_make_the_trees_their_edits_make() {
        // Every deletion, renumbered deletion and cap the shrinker makes in
        // the current tree, and every edit beneath a node, against `Edit::apply`.
        let coupling = int(1usize..=10).bind(|n| vec(int(0usize..=n - 1), n..=n)).boxed();
        let nested = vec(vec(int(0u32..=9), 0..=4), 1..=4).boxed();
        let trees: Vec<ChoiceTree> = (0..20)
            .flat_map(|seed| [generate_recorded(&coupling, seed).1, generate_recorded(&nested, seed).1])
            .collect();
        let budget = Budget { max_steps: u64::MAX, max_time: Duration::from_secs(60) };
        for tree in trees {
            for path in tree.paths() {
                let n = tree.get(&path).unwrap().children.len();
                // Each edit, with the deletion or cap the shrinker makes in place for it.
                enum InPlace {
                    Delete(usize, usize, bool, bool),
                    Cap(usize, usize, Choice),
                    Edit,
                }
                let mut edits = vec![(Edit::Empty { at: path.clone() }, InPlace::Edit)];
                for start in 0..n {
                    for len in 1..=n - start {
                        let renumbered = reflect_core::edit::delete_renumbered(&path, start, len);
                        edits.push((renumbered, InPlace::Delete(start, len, true, true)));
                        for lower_len in [true, false] {
                            let delete = Edit::Delete { at: path.clone(), start, len, lower_len };
                            edits.push((delete, InPlace::Delete(start, len, lower_len, false)));
                        }
                        for max in [0, 3] {
                            edits
                                .push((Edit::Cap { at: path.clone(), start, len, max }, InPlace::Cap(start, len, max)));
                        }
                    }
                }
                for (edit, in_place) in edits {
                    // A shrinker of its own for each edit: only the start tree is seen.
                    let mut made = None;
                    let mut s = Shrinker::new(tree.clone(), budget, Instant::now(), |cand: &mut ChoiceTree, _| {
                        made = Some(cand.clone());
                        None
                    });
                    match in_place {
                        InPlace::Delete(start, len, lower_len, renumber) => {
                            s.try_deletion(&path, start, len, lower_len, renumber)
                        }
                        InPlace::Cap(start, len, max) => s.try_cap(&path, start, len, max),
                        InPlace::Edit => s.try_edit(edit.clone()),
                    };
                    assert_eq!(s.current, tree, "{edit:?} was set back");
                    drop(s);
                    assert_eq!(made, edit.apply(&tree).filter(|t| t != &tree), "{edit:?} of {tree}");
                }
            }
        }
    }

    #[test]
    fn a_long_list_is_lowered_in_runs_not_element_by_element() {
        // Fails with at least 2,000 elements, one of them 1000: the minimal
        // case is 1,999 zeros and then 1000. One try per element would not
        // get there in 300 tries; runs zeroed with growing sizes do.
        let g = vec(int(0u32..=1000), 0..=4000);
        let fails = |xs: &Vec<u32>| xs.len() >= 2000 && xs.contains(&1000);
        let mut shrunk = 0;
        for seed in 0..40 {
            let (v, tree) = generate_recorded(&g, seed);
            if !v.is_ok_and(|v| fails(&v)) {
                continue;
            }
            let budget = Budget { max_steps: 300, max_time: Duration::from_secs(600) };
            let (t, _) = shrink_by_ref(tree, budget, |cand| match replay_lenient(&g, cand, 0) {
                (Ok(v), used) if fails(&v) => Some(used),
                _ => None,
            });
            let min = parse_tree(&g, &t).unwrap();
            let mut want = vec![0; 1999];
            want.push(1000);
            assert!(
                min == want,
                "seed {seed}: {} elements, {} not zero",
                min.len(),
                min.iter().filter(|&&x| x > 0).count()
            );
            shrunk += 1;
            if shrunk == 2 {
                break;
            }
        }
        assert_eq!(shrunk, 2);
    }

    #[test]
    fn a_budget_of_no_tries_makes_no_candidate() {
        let g = vec(int(1u32..=1000), 10..=20);
        let (_, tree) = generate_recorded(&g, 3);
        let budget = Budget { max_steps: 0, max_time: Duration::from_secs(60) };
        let (back, stats) = shrink_by_ref(tree.clone(), budget, |_| panic!("a candidate was made"));
        assert_eq!(back, tree);
        assert_eq!((stats.attempts, stats.steps), (0, 0));
        assert!(stats.budget_exhausted);
    }
}
