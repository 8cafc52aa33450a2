//! Making a candidate: an edit of the current tree, in place or in a scratch copy, hashed, undone.
//!
//! A try is made cheap. The shrinker keeps an index of its current tree
//! (the nodes in pre-order, where each subtree ends, each node's choice and
//! number of children): a pass finds the nodes it can edit there, without
//! a list of every path. A candidate that only sets choices, or deletes a
//! run of siblings, is made in the current tree itself and set back after
//! the try (a renumbered deletion and a cap lower their leaves with
//! [`refgen_core::edit::lower_leaves`], as [`Edit::Shift`] and [`Edit::Cap`]
//! do); any other edit beneath a node sets aside a copy of that node's
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
//! search may not need. [`shrink`](super::shrink) hands each
//! candidate over as a tree of its own (one copy per try);
//! [`shrink_by_ref`](super::shrink_by_ref) lends it, and a caller that records the replay into a trail it keeps
//! and builds the tree of the choices used only for a failing candidate
//! makes a passing try copy no tree at all (`examples/shrink_cost.rs`
//! measures both).

use super::index::{hash_and_size, key_of, node_key, tree_hash};
use super::Shrinker;
use crate::hashing::finish;
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::{length_before, lower_leaves, restore_leaves, Edit, Path};
use std::borrow::Cow;
use std::hash::{Hash, Hasher};

/// Where a candidate is made.
#[derive(Clone, Copy)]
pub(super) enum Made {
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
        match self.test_candidate(hash, Made::InScratch) {
            Some(used) => self.keep(used),
            None => false,
        }
    }

    /// Tests the current tree with the choices at `sets`' paths set
    /// (each path once), set in place and set back after the try: no copy
    /// of the tree, no edit made, and the hash from the current one's.
    pub(super) fn try_sets(&mut self, sets: &[(&[usize], Choice)]) -> bool {
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
    pub(super) fn try_deletion(
        &mut self,
        at: &[usize],
        start: usize,
        len: usize,
        lower_len: bool,
        renumber: bool,
    ) -> bool {
        !self.out_of_budget() && self.try_delete(at, start, len, lower_len, renumber)
    }

    /// Tests the current tree with an [`Edit::Delete`] made in place and
    /// undone after the try: the run deleted is kept aside and put back.
    /// With `renumber`, the leaf choices after the run are lowered by its
    /// length too ([`refgen_core::edit::delete_renumbered`]), and the edit applies only when
    /// that lowers one.
    pub(super) fn try_delete(
        &mut self,
        at: &[usize],
        start: usize,
        len: usize,
        lower_len: bool,
        renumber: bool,
    ) -> bool {
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
        let mut hash =
            ix.rekey(ix.splice(a, b, 0, 0), p, ix.key(p), key_of(node, node.choice, node.children.len() - len));
        if let Some(i) = length {
            let (j, l) = (ix.child(p, i), &node.children[i]);
            hash = ix.rekey(hash, j, ix.key(j), key_of(l, l.choice.map(|c| c - k), 0));
        }
        if !renumber && !self.seen.insert(hash) {
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
            lower_noted(&mut node.children[start..], |c| (c >= k).then(|| c - k), &mut self.lowered);
            for &(o, _, old, new) in &self.lowered {
                hash = ix.rekey(hash, a + o, old, new);
            }
        }
        let used = if renumber && self.lowered.is_empty() {
            None
        } else {
            debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a deletion follows the tree's");
            if renumber {
                self.test_candidate(hash, Made::InCurrent)
            } else {
                self.test_unseen(Made::InCurrent)
            }
        };
        let node = self.current.get_mut(at).expect("the node the run was deleted from");
        if renumber {
            restore_noted(&mut node.children[start..], &self.lowered);
        }
        shift(node, |c, k| c + k);
        node.children.splice(start..start, self.run.drain(..));
        used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with an [`Edit::Cap`] of the children
    /// `start..start + len` of the node at `at` made in place, and set back
    /// after the try; hashed from the lowered choices alone.
    pub(super) fn try_cap(&mut self, at: &[usize], start: usize, len: usize, max: Choice) -> bool {
        if self.out_of_budget() {
            return false;
        }
        let ix = &self.index;
        let Some(p) = ix.at(&self.current, at) else { return false };
        let node = self.current.get_mut(at).expect("the node is in the tree");
        let Some(run) = start.checked_add(len).and_then(|end| node.children.get_mut(start..end)) else {
            return false;
        };
        lower_noted(run, |c| (c > max).then_some(max), &mut self.lowered);
        if self.lowered.is_empty() {
            return false;
        }
        let a = ix.child(p, start);
        let hash = self.lowered.iter().fold(ix.hash(), |h, &(o, _, old, new)| ix.rekey(h, a + o, old, new));
        debug_assert_eq!(hash, tree_hash(&self.current), "the hash of a cap follows the tree's");
        let used = self.test_candidate(hash, Made::InCurrent);
        let node = self.current.get_mut(at).expect("the node the run was capped in");
        restore_noted(&mut node.children[start..start + len], &self.lowered);
        used.is_some_and(|used| self.keep(used))
    }

    /// Tests the current tree with `edit`, which changes nothing outside the
    /// subtree at `root`, made in place: only that subtree is copied, to
    /// be put back after the try.
    pub(super) fn try_beneath(&mut self, edit: &Edit, root: &[usize]) -> bool {
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

/// Lowers the leaf choices of `trees` as `lower` says ([`lower_leaves`]),
/// noting in `lowered` each one's number among the nodes of `trees` in
/// pre-order, its choice before, and its key before and after.
fn lower_noted(
    trees: &mut [ChoiceTree],
    lower: impl Fn(Choice) -> Option<Choice>,
    lowered: &mut Vec<(usize, Choice, u64, u64)>,
) {
    lowered.clear();
    lower_leaves(trees, lower, |n, t, was| lowered.push((n, was, key_of(t, Some(was), 0), node_key(t))));
}

/// Sets back the leaf choices [`lower_noted`] noted in `lowered`.
fn restore_noted(trees: &mut [ChoiceTree], lowered: &[(usize, Choice, u64, u64)]) {
    restore_leaves(trees, lowered.iter().map(|&(n, was, ..)| (n, was)));
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
