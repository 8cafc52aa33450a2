//! Making an edit in place, logged in an [`Undo`] that sets the tree back exactly.
//!
//! Every way of applying an [`Edit`] goes through [`Edit::apply_logged`]:
//! [`Edit::apply`] on a copy, [`Edit::apply_in_place`] with a log it
//! drops, [`Edit::apply_undoable`] with a log it hands back, and the
//! shrinker with one log kept from try to try (its memory reused), set
//! back after each try with [`Undo::rewind`]. Nodes an edit takes out of
//! the tree (a deleted run, a replaced subtree) are moved into the log, not
//! copied, so an edit and its undoing cost about what the edit alone did.

use super::rotate::{own_choices, rotate, unrotate};
use super::{joinable, length_before, lower_leaves, placeholder, restore_leaves, Edit};
use crate::choice::{Choice, ChoiceTree};

/// What edits made in place changed, to set the tree back exactly
/// ([`Undo::revert`]). Made by [`Edit::apply_undoable`], or kept from edit
/// to edit ([`Edit::apply_logged`], [`Undo::rewind`]) to reuse its memory.
#[derive(Debug, Clone, Default)]
pub struct Undo {
    /// What each edit did, oldest first.
    steps: Vec<Step>,
    /// The paths of the steps, one after another (each step holds its range).
    paths: Vec<usize>,
    /// Nodes the steps took out of the tree, newest last.
    trees: Vec<ChoiceTree>,
    /// The leaf choices the steps lowered: each one's number among the
    /// nodes of its run in pre-order, and its choice before.
    leaves: Vec<(usize, Choice)>,
}

/// One logged change, of the node whose path begins at `at` in
/// [`Undo::paths`] and runs to the end: the newest step's path is last.
#[derive(Debug, Clone)]
struct Step {
    at: usize,
    change: Change,
}

/// What a [`Step`] changed in its node.
#[derive(Debug, Clone)]
enum Change {
    /// `len` children taken out from `start` (the last `len` of the
    /// trees), and the child `length` (before them) lowered by `len`.
    Deleted { start: usize, len: usize, length: Option<usize> },
    /// The node replaced by another: the old one is the last of the trees.
    Replaced,
    /// The node's `n` children taken out: the last `n` of the trees.
    Emptied { n: usize },
    /// The node's choice set; it was `was`.
    Set { was: Choice },
    /// The node wrapped in a mark ([`ChoiceTree::reroll`], [`ChoiceTree::relabel`]): its only child.
    Wrapped,
    /// The node's children `a` and `b` swapped.
    Swapped { a: usize, b: usize },
    /// The node swapped with the one whose path begins at `y` in the paths.
    Exchanged { y: usize },
    /// The node rotated ([`Edit::Rotate`]) with the paths that begin at
    /// `child` and at `grandchild` in the paths (the second runs to the end).
    Rotated { child: usize, grandchild: usize },
    /// A child inserted at `index`.
    Inserted { index: usize },
    /// Leaf choices of the children `from..` lowered: the log's leaves from `first` on.
    Lowered { from: usize, first: usize },
    /// The children `a` and `a + 1` joined: the second, left with its
    /// length alone, is the last of the trees; the first had `len` children
    /// and its first child the choice `first`; the child `length` (before
    /// them) was lowered by one.
    Joined { a: usize, len: usize, first: Option<Choice>, length: Option<usize> },
}

/// Sets the choice of the choice node at `at`: what [`Edit::Set`] changes.
#[inline(always)]
fn set(tree: &mut ChoiceTree, at: &[usize], choice: Choice) -> Option<Change> {
    let node = tree.get_mut(at)?;
    let was = node.choice?;
    node.choice = Some(choice);
    Some(Change::Set { was })
}

impl Undo {
    /// An empty log.
    pub fn new() -> Self {
        Undo::default()
    }

    /// Whether nothing is logged.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// Sets `tree`, as the logged edits left it, back to what it was
    /// before them.
    pub fn revert(mut self, tree: &mut ChoiceTree) {
        self.rewind(tree);
    }

    /// Sets `tree`, as the logged edits left it, back to what it was
    /// before them, newest first, and empties the log, keeping its memory.
    pub fn rewind(&mut self, tree: &mut ChoiceTree) {
        self.rewind_to(tree, 0);
    }

    /// Empties the log, keeping the edits it logged and its memory.
    pub fn forget(&mut self) {
        self.steps.clear();
        self.paths.clear();
        self.trees.clear();
        self.leaves.clear();
    }

    /// The leaf choices the logged [`Edit::Shift`]s and [`Edit::Cap`]s
    /// lowered, in the order they were lowered: each one's number among the
    /// nodes of the edit's children (from `from` or `start` on) in
    /// pre-order, and its choice before.
    pub fn lowered(&self) -> &[(usize, Choice)] {
        &self.leaves
    }

    /// Logs `path`; where it begins in [`Undo::paths`].
    #[inline]
    fn path(&mut self, path: &[usize]) -> usize {
        let start = self.paths.len();
        self.paths.extend_from_slice(path);
        start
    }

    /// Undoes the steps from the `mark`-th on, newest first.
    fn rewind_to(&mut self, tree: &mut ChoiceTree, mark: usize) {
        while self.steps.len() > mark {
            let Step { at, change } = self.steps.pop().expect("a step past the mark");
            if let Change::Exchanged { y } = change {
                exchange(tree, &self.paths[at..y], &self.paths[y..]);
            } else if let Change::Rotated { child, grandchild } = change {
                let node = tree.get_mut(&self.paths[at..child]).expect("a logged node is in the tree it was logged on");
                unrotate(node, &self.paths[child..grandchild], &self.paths[grandchild..]);
            } else {
                let node = tree.get_mut(&self.paths[at..]).expect("a logged node is in the tree it was logged on");
                self.undo(node, change);
            }
            self.paths.truncate(at);
        }
    }

    /// Undoes one change of `node`, the newest.
    fn undo(&mut self, node: &mut ChoiceTree, change: Change) {
        match change {
            Change::Deleted { start, len, length } => {
                if let Some(c) = length.and_then(|i| node.children[i].choice.as_mut()) {
                    *c += len as Choice;
                }
                let from = self.trees.len() - len;
                node.children.splice(start..start, self.trees.drain(from..));
            }
            Change::Replaced => *node = self.trees.pop().expect("the node replaced"),
            Change::Emptied { n } => {
                let from = self.trees.len() - n;
                node.children.extend(self.trees.drain(from..));
            }
            Change::Set { was } => node.choice = Some(was),
            Change::Wrapped => {
                let mark = std::mem::replace(node, placeholder());
                *node = mark.children.into_iter().next().expect("a mark holds its node");
            }
            Change::Swapped { a, b } => node.children.swap(a, b),
            Change::Inserted { index } => drop(node.children.remove(index)),
            Change::Lowered { from, first } => {
                restore_leaves(&mut node.children[from..], self.leaves.drain(first..));
            }
            Change::Joined { a, len, first, length } => {
                let mut y = self.trees.pop().expect("the part joined");
                let x = &mut node.children[a];
                y.children.extend(x.children.drain(len..));
                x.children[0].choice = first;
                node.children.insert(a + 1, y);
                if let Some(c) = length.and_then(|i| node.children[i].choice.as_mut()) {
                    *c += 1;
                }
            }
            Change::Exchanged { .. } | Change::Rotated { .. } => unreachable!("undone by `rewind_to`"),
        }
    }
}

/// Swaps the subtrees at `x` and `y`, neither inside the other, both in
/// `tree`: moved, not copied.
fn exchange(tree: &mut ChoiceTree, x: &[usize], y: &[usize]) {
    let sx = std::mem::replace(tree.get_mut(x).expect("x is in the tree"), placeholder());
    let sy = std::mem::replace(tree.get_mut(y).expect("y is in the tree"), sx);
    *tree.get_mut(x).expect("x is in the tree") = sy;
}

impl Edit {
    /// The edited tree, or `None` when the edit does not apply to `tree`
    /// (a path that is not there, a choice edit on a group, ...).
    pub fn apply(&self, tree: &ChoiceTree) -> Option<ChoiceTree> {
        let mut out = tree.clone();
        self.apply_in_place(&mut out).then_some(out)
    }

    /// Edit `tree` in place; whether the edit applied (when it did not,
    /// `tree` is as it was).
    pub fn apply_in_place(&self, tree: &mut ChoiceTree) -> bool {
        self.apply_logged(tree, &mut Undo::new())
    }

    /// Edit `tree` in place, giving back what sets it back exactly
    /// ([`Undo::revert`]); `None`, with `tree` as it was, when the edit does
    /// not apply. The edited tree is the one [`Edit::apply`] makes.
    pub fn apply_undoable(&self, tree: &mut ChoiceTree) -> Option<Undo> {
        let mut undo = Undo::new();
        self.apply_logged(tree, &mut undo).then_some(undo)
    }

    /// [`Edit::Set`] of the choice at `at` to `choice`, made in place and
    /// logged as [`Edit::apply_logged`] logs it, from a borrowed path: the
    /// same edit, without building it (a shrinker's cheapest try).
    #[inline]
    pub fn set_logged(tree: &mut ChoiceTree, at: &[usize], choice: Choice, undo: &mut Undo) -> bool {
        let Some(change) = set(tree, at, choice) else { return false };
        let at = undo.path(at);
        undo.steps.push(Step { at, change });
        true
    }

    /// Edit `tree` in place, logging what it changed in `undo` after what
    /// is there already (so that [`Undo::rewind`] sets back this edit and
    /// those before it); whether it applied. When it did not, `tree` and
    /// `undo` are as they were.
    #[inline(always)]
    pub fn apply_logged(&self, tree: &mut ChoiceTree, undo: &mut Undo) -> bool {
        let mark = undo.steps.len();
        // One edit (what the shrinker makes in a try) is made here, where a
        // caller that names its kind can have the other kinds left out.
        let applied = match self {
            Edit::Seq(_) => self.edit(tree, undo),
            one => one.edit_one(tree, undo),
        }
        .is_some();
        if !applied {
            undo.rewind_to(tree, mark);
        }
        applied
    }

    /// Makes the edit, logging each change; `None` when a part of it does
    /// not apply (what was changed before is still logged).
    fn edit(&self, out: &mut ChoiceTree, log: &mut Undo) -> Option<()> {
        match self {
            Edit::Seq(edits) => edits.iter().try_for_each(|e| e.edit(out, log)),
            one => one.edit_one(out, log),
        }
    }

    /// Makes an edit that is not an [`Edit::Seq`], as [`Edit::edit`].
    #[inline(always)]
    fn edit_one(&self, out: &mut ChoiceTree, log: &mut Undo) -> Option<()> {
        let (path, change) = match self {
            Edit::Delete { at, start, len, lower_len } => {
                let node = out.get_mut(at)?;
                let (start, len) = (*start, *len);
                if len == 0 || start.checked_add(len)? > node.children.len() {
                    return None;
                }
                let length = match lower_len {
                    true => Some(length_before(&node.children, start, len)?),
                    false => None,
                };
                log.trees.extend(node.children.drain(start..start + len));
                if let Some(c) = length.and_then(|i| node.children[i].choice.as_mut()) {
                    *c -= len as Choice;
                }
                (at, Change::Deleted { start, len, length })
            }
            Edit::Promote { at, from } => {
                if from.is_empty() {
                    return None;
                }
                let node = out.get_mut(at)?;
                let inner = node.get(from)?.clone();
                log.trees.push(std::mem::replace(node, inner));
                (at, Change::Replaced)
            }
            Edit::Empty { at } => {
                let node = out.get_mut(at)?;
                if node.children.is_empty() {
                    return None;
                }
                let n = node.children.len();
                log.trees.append(&mut node.children);
                (at, Change::Emptied { n })
            }
            Edit::Set { at, choice } => (at, set(out, at, *choice)?),
            Edit::Reroll { at } => {
                let node = out.get_mut(at)?;
                node.choice?;
                let old = std::mem::replace(node, placeholder());
                *node = ChoiceTree::reroll(old);
                (at, Change::Wrapped)
            }
            Edit::Raise { at, choice } => {
                let node = out.get_mut(at)?;
                node.choice?;
                let site = node.site.clone();
                let raised = ChoiceTree::raise(ChoiceTree::choice(site, *choice, Vec::new()));
                log.trees.push(std::mem::replace(node, raised));
                (at, Change::Replaced)
            }
            Edit::Rotate { at, child, grandchild } => {
                if !rotate(out.get_mut(at)?, child, grandchild) {
                    return None;
                }
                let at = log.path(at);
                let child = log.path(child);
                let grandchild = log.path(grandchild);
                log.steps.push(Step { at, change: Change::Rotated { child, grandchild } });
                return Some(());
            }
            Edit::Relabel { at } => {
                let own = own_choices(out.get(at)?);
                if own.is_empty() {
                    return None;
                }
                // Deepest first: a mark moves only what is beneath it, so the paths not yet marked still hold.
                let mut path = at.clone();
                for inner in own.iter().rev() {
                    path.truncate(at.len());
                    path.extend_from_slice(inner);
                    let node = out.get_mut(&path).expect("an own choice is in the tree");
                    let old = std::mem::replace(node, placeholder());
                    *node = ChoiceTree::relabel(old);
                    let logged = log.path(&path);
                    log.steps.push(Step { at: logged, change: Change::Wrapped });
                }
                return Some(());
            }
            Edit::Swap { at, a, b } => {
                let node = out.get_mut(at)?;
                if a == b || (*a).max(*b) >= node.children.len() {
                    return None;
                }
                node.children.swap(*a, *b);
                (at, Change::Swapped { a: *a, b: *b })
            }
            Edit::Exchange { x, y } => {
                if x.is_empty() || y.is_empty() || x.starts_with(y) || y.starts_with(x) {
                    return None;
                }
                out.get(x)?;
                out.get(y)?;
                exchange(out, x, y);
                let at = log.paths.len();
                log.paths.extend_from_slice(x);
                let y = log.path(y);
                log.steps.push(Step { at, change: Change::Exchanged { y } });
                return Some(());
            }
            Edit::Insert { at, index, node } => {
                let parent = out.get_mut(at)?;
                if *index > parent.children.len() {
                    return None;
                }
                parent.children.insert(*index, node.clone());
                (at, Change::Inserted { index: *index })
            }
            Edit::Shift { at, from, by } => {
                let node = out.get_mut(at)?;
                let by = *by;
                let first = log.leaves.len();
                let lower = |c: Choice| (by > 0 && c >= by).then(|| c - by);
                let leaves = &mut log.leaves;
                if !lower_leaves(node.children.get_mut(*from..)?, lower, |n, _, was| leaves.push((n, was))) {
                    return None;
                }
                (at, Change::Lowered { from: *from, first })
            }
            Edit::Cap { at, start, len, max } => {
                let node = out.get_mut(at)?;
                let max = *max;
                let run = node.children.get_mut(*start..start.checked_add(*len)?)?;
                let first = log.leaves.len();
                let leaves = &mut log.leaves;
                if !lower_leaves(run, |c| (c > max).then_some(max), |n, _, was| leaves.push((n, was))) {
                    return None;
                }
                (at, Change::Lowered { from: *start, first })
            }
            Edit::Seq(_) => unreachable!("a sequence is made by `edit`"),
            Edit::Join { at, a } => {
                let node = out.get_mut(at)?;
                let a = *a;
                if a + 1 >= node.children.len() || !joinable(&node.children[a], &node.children[a + 1]) {
                    return None;
                }
                let mut y = node.children.remove(a + 1);
                let x = &mut node.children[a];
                let (len, first) = (x.children.len(), x.children[0].choice);
                let added = y.children[0].choice.unwrap_or(0);
                x.children[0].choice = first.map(|c| c.saturating_add(added));
                // The second part's elements move; its length stays with it, for the undoing.
                x.children.extend(y.children.drain(1..));
                log.trees.push(y);
                let length = length_before(&node.children, a, 1);
                if let Some(c) = length.and_then(|i| node.children[i].choice.as_mut()) {
                    *c -= 1;
                }
                (at, Change::Joined { a, len, first, length })
            }
        };
        let at = log.path(path);
        log.steps.push(Step { at, change });
        Some(())
    }
}
