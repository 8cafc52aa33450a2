//! Making a candidate: an edit of the current tree, in place or in a scratch copy, hashed, undone.
//!
//! A try is made cheap. The shrinker keeps an index of its current tree
//! (the nodes in pre-order, where each subtree ends, each node's choice and
//! number of children): a pass finds the nodes it can edit there, without
//! a list of every path. Every candidate but one edited at the root is
//! made in the current tree itself, by the shared edits
//! ([`Edit::apply_logged`], into one [`Undo`](refgen_core::edit::Undo) log kept from try to try,
//! the edits' paths in memory kept too), and set back after the try
//! ([`Undo::rewind`](refgen_core::edit::Undo::rewind)); an edit at the root is made in one scratch tree kept
//! from try to try ([`ChoiceTree`]'s `clone_from` reuses its lists). The
//! shrinker's own part is the hashing. A tree's hash is a polynomial over
//! its nodes in pre-order, and the index keeps its partial sums, so a
//! candidate is hashed in the time of what it changed: set choices or a
//! deleted run in a few steps, from the index, before the tree is touched
//! (a candidate seen before costs no edit); the leaves a renumbering or a
//! cap lowered from the log; an edited subtree in that subtree's size. Any edit but a deletion already
//! tried on the same tree is known by its own hash before
//! the tree is touched. A failing candidate that only set choices, and
//! that the replay made as it was (the usual case: a lowered element),
//! stays in place: its index follows the set choices in one pass over the
//! partial sums, and the tree the replay handed back is only compared with
//! it. Any other failing candidate has its choices read (into a list kept
//! from try to try) before anything else, so one that is not smaller costs
//! no index; one that is has its index made in a single walk, which also
//! gives its choices. Nothing is made before the first try that the
//! search may not need. [`shrink`](super::shrink) hands each
//! candidate over as a tree of its own (one copy per try);
//! [`shrink_by_ref`](super::shrink_by_ref) lends it, and a caller that records the replay into a trail it keeps
//! and builds the tree of the choices used only for a failing candidate
//! makes a passing try copy no tree at all (`benches/src/bin/shrink_cost.rs`
//! measures both).

use super::index::{hash_and_size, tree_hash};
use super::Shrinker;
use crate::hashing::finish;
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::{length_before, Edit, Path};
use std::borrow::Cow;
use std::hash::{Hash, Hasher};

/// Where a candidate is made.
#[derive(Clone, Copy)]
pub(super) enum Where {
    /// In [`Shrinker::scratch`], a copy of the current tree: the caller may take it.
    InScratch,
    /// In the current tree itself, set back after the try: only lent.
    InCurrent,
}

/// The path of the deepest node that holds every change `edit` makes.
pub(super) fn edit_root(edit: &Edit) -> Path {
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
        | Edit::Join { at, .. }
        | Edit::Rotate { at, .. }
        | Edit::Relabel { at } => at.clone(),
        Edit::Exchange { x, y } => common(x, y),
        Edit::Seq(edits) => {
            let mut roots = edits.iter().map(edit_root);
            let first = roots.next().unwrap_or_default();
            roots.fold(first, |a, b| common(&a, &b))
        }
    }
}

impl<F: FnMut(&mut ChoiceTree, bool) -> Option<ChoiceTree>> Shrinker<F> {
    /// Tests the edit of the current tree, when it applies; whether it was kept.
    pub(super) fn try_edit(&mut self, edit: Edit) -> bool {
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
        match self.test_candidate(hash, Where::InScratch) {
            Some(used) => self.keep(used),
            None => false,
        }
    }

    /// Tests the current tree with `edits` made one after another in a scratch copy (each on the
    /// tree the ones before it left); whether the candidate was kept. Within the budget.
    pub(super) fn try_edits(&mut self, edits: &[Edit]) -> bool {
        if self.out_of_budget() {
            return false;
        }
        self.scratch.clone_from(&self.current);
        if !edits.iter().all(|e| e.apply_in_place(&mut self.scratch)) {
            return false;
        }
        let hash = tree_hash(&self.scratch);
        match self.test_candidate(hash, Where::InScratch) {
            Some(used) => self.keep(used),
            None => false,
        }
    }

    /// Makes the edit `make` builds on a copy of the path `at` in the
    /// current tree, logged in [`Shrinker::log`]; whether it applied. The
    /// copy is made in memory an earlier edit gave back: a try allocates nothing.
    fn make(&mut self, at: &[usize], make: impl FnOnce(Path) -> Edit) -> bool {
        let mut path = self.paths.pop().unwrap_or_default();
        path.clear();
        path.extend_from_slice(at);
        let edit = make(path);
        let applied = edit.apply_logged(&mut self.current, &mut self.log);
        if let Edit::Delete { at, .. } | Edit::Shift { at, .. } | Edit::Cap { at, .. } = edit {
            self.paths.push(at);
        }
        applied
    }

    /// Tests the current tree with the choices at `sets`' paths set
    /// (each path once) by [`Edit::Set`]s made in place ([`Edit::set_logged`]) and set back after
    /// the try: no copy of the tree, and the hash from the current one's,
    /// before the tree is touched (a candidate seen costs no edit).
    pub(super) fn try_sets(&mut self, sets: &[(&[usize], Choice)]) -> bool {
        if self.out_of_budget() {
            return false;
        }
        debug_assert!(sets.iter().enumerate().all(|(i, (p, _))| sets[..i].iter().all(|(q, _)| p != q)));
        let ix = &self.index;
        let mut hash = ix.hash();
        let mut keys = std::mem::take(&mut self.set_keys);
        for &(path, choice) in sets {
            // Only a choice node's choice is set.
            let Some((i, was)) = ix.at(&self.current, path).and_then(|i| Some((i, ix.choice(i)?))) else {
                keys.clear();
                self.set_keys = keys;
                return false;
            };
            let (old, new) = (ix.key(i), ix.key_with(i, Some(choice), ix.children(i)));
            keys.push((i, was, old, new));
            hash = ix.rekey(hash, i, old, new);
        }
        let used = if self.seen.insert(hash) {
            for &(path, choice) in sets {
                let set = Edit::set_logged(&mut self.current, path, choice, &mut self.log);
                debug_assert!(set, "a choice node's choice is set");
            }
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a set follows the tree's");
            self.test_unseen(Where::InCurrent)
        } else {
            None
        };
        // A replay that used the candidate as it was made (the usual case)
        // leaves it in place when it is smaller: its index follows the sets,
        // with no walk of the tree.
        let stays = used.as_ref().is_some_and(|used| same_tree(used, &self.current)) && {
            // Only the set choices differ: the first one that changed, in pre-order, decides.
            let first = keys.iter().zip(sets).filter(|((_, was, ..), (_, c))| was != c).min_by_key(|(u, _)| u.0);
            first.is_some_and(|((_, was, ..), (_, c))| c < was)
        };
        if stays {
            for ((i, _, old, new), &(_, c)) in keys.drain(..).zip(sets) {
                self.index.set(i, c, old, new);
            }
            debug_assert_eq!(self.index.hash(), hash, "the index follows the sets");
            self.log.forget();
            self.seen.insert(hash);
            self.stats.steps += 1;
        } else {
            keys.clear();
            self.log.rewind(&mut self.current);
        }
        self.set_keys = keys;
        stays || used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with an [`Edit::Delete`] made in place and
    /// set back after the try, hashed from the index before it is made (the
    /// set of candidates seen is check enough: no hash of the edit). With
    /// `renumber`, the leaf choices after the run are lowered by its length
    /// too ([`Edit::Shift`], as [`refgen_core::edit::delete_renumbered`]
    /// does), and the edit applies only when that lowers one. Within the budget.
    pub(super) fn try_delete(
        &mut self,
        at: &[usize],
        start: usize,
        len: usize,
        lower_len: bool,
        renumber: bool,
    ) -> bool {
        if self.out_of_budget() {
            return false;
        }
        let Some(node) = self.current.get(at) else { return false };
        if len == 0 || start.checked_add(len).is_none_or(|end| end > node.children.len()) {
            return false;
        }
        let k = len as Choice;
        // The length before the run, as `Edit::Delete` finds it.
        let length = match lower_len {
            true => {
                let Some(i) = length_before(&node.children, start, len) else { return false };
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
        let parent = ix.key_with(p, node.choice, node.children.len() - len);
        let mut hash = ix.rekey(ix.splice(a, b, 0, 0), p, ix.key(p), parent);
        if let Some(i) = length {
            let (j, l) = (ix.child(p, i), &node.children[i]);
            hash = ix.rekey(hash, j, ix.key(j), ix.key_with(j, l.choice.map(|c| c - k), 0));
        }
        if !renumber && !self.seen.insert(hash) {
            return false;
        }
        let deleted = self.make(at, |at| Edit::Delete { at, start, len, lower_len });
        debug_assert!(deleted, "a deletion that fits applies");
        let used = if !renumber {
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a deletion follows the tree's");
            self.test_unseen(Where::InCurrent)
        } else if self.make(at, |at| Edit::Shift { at, from: start, by: k }) {
            // The later leaf choices renumbered: the nodes after the run now begin at `a`.
            let ix = &self.index;
            for &(o, was) in self.log.lowered() {
                hash = ix.rekey(hash, a + o, ix.key(b + o), ix.key_with(b + o, Some(was - k), 0));
            }
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a deletion follows the tree's");
            self.test_candidate(hash, Where::InCurrent)
        } else {
            None
        };
        self.log.rewind(&mut self.current);
        used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with an [`Edit::Cap`] of the children
    /// `start..start + len` of the node at `at` made in place, and set back
    /// after the try; hashed from the lowered choices alone.
    pub(super) fn try_cap(&mut self, at: &[usize], start: usize, len: usize, max: Choice) -> bool {
        if self.out_of_budget() {
            return false;
        }
        let Some(p) = self.index.at(&self.current, at) else { return false };
        if !self.make(at, |at| Edit::Cap { at, start, len, max }) {
            return false;
        }
        let ix = &self.index;
        let a = ix.child(p, start);
        let rekey = |h, &(o, _): &(usize, Choice)| ix.rekey(h, a + o, ix.key(a + o), ix.key_with(a + o, Some(max), 0));
        let hash = self.log.lowered().iter().fold(ix.hash(), rekey);
        debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a cap follows the tree's");
        let used = self.test_candidate(hash, Where::InCurrent);
        self.log.rewind(&mut self.current);
        used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with `edit`, which changes nothing outside the
    /// subtree at `root`, made in place and set back after the try; hashed
    /// from that subtree alone.
    pub(super) fn try_beneath(&mut self, edit: &Edit, root: &[usize]) -> bool {
        let Some(i) = self.index.at(&self.current, root) else { return false };
        let used = if edit.apply_logged(&mut self.current, &mut self.log) {
            let node = self.current.get(root).expect("an edit beneath a node keeps the node");
            let (run, m) = hash_and_size(node);
            let hash = self.index.splice(i, self.index.end(i), run, m);
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of an edit beneath a node follows the tree's");
            self.test_candidate(hash, Where::InCurrent)
        } else {
            None
        };
        self.log.rewind(&mut self.current);
        used.is_some_and(|used| self.keep(used))
    }
}

/// Hashes an edit, beginning from the hash of the tree it edits. Each
/// word goes through a full avalanche: a cheaper mix lets a leading zero
/// word (the first variant's discriminant) vanish, so that two different
/// edits of one tree would be taken for the same candidate.
pub(super) struct EditHasher(pub(super) u64);

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

/// Whether `a` and `b` are the same tree, their sites the same generator's
/// strings (at the same addresses: a site read back from a file is taken
/// for another, so that the tree kept is always the replay's own).
pub(super) fn same_tree(a: &ChoiceTree, b: &ChoiceTree) -> bool {
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
