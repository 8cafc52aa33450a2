//! Edits of choice trees, shared by shrinking, mutation, annealing and the fuzz mutator.
//!
//! An [`Edit`] names one change to a [`ChoiceTree`] by the paths of the
//! nodes it touches (child indices from the root, as [`ChoiceTree::get`]);
//! [`Edit::apply`] makes the changed tree, or says the edit does not apply;
//! [`Edit::apply_undoable`] makes it in place, with an [`Undo`] that sets it
//! back exactly: the shrinker makes every candidate so.
//! An edited tree may no longer fit its generator: it is meant to be replayed
//! leniently ([`crate::replay_lenient`], or a guide's replay plan), which
//! keeps what still fits and repairs the rest, so every edit gives a value
//! the generator can make.
//!
//! The operators are those of the mutators of Goldstein's "Advancing
//! Property-Based Testing in Theory and Practice" (Sec. 3.4: `rerollMut`
//! marks one choice to be made differently, `swapMut` swaps two subtrees,
//! `shrinkMut` replaces a subtree by one inside it), plus what shrinking
//! needs: deleting runs of siblings (list elements), emptying a subtree,
//! setting a choice, joining two neighbouring parts, lowering the leaf
//! choices after a point ([`Edit::Shift`]) or in a run ([`Edit::Cap`]), and several edits as one
//! ([`Edit::Seq`]) for values that must move together ([`delete_renumbered`]);
//! and, for mutation, a rotation that changes the shape above a part
//! ([`Edit::Rotate`], [`rotation`]) and a node's own picks drawn afresh
//! ([`Edit::Relabel`]).
//! [`random_edit`] draws one mutation; [`Mutation::draw`] draws one by a
//! named operator (the runtime's `mutate` guide); the shrinker enumerates
//! edits in its own order (see the runtime's `shrink` module).
//!
//! Two submodules make edits from more than one tree or by rules:
//! [`splice`] keeps the parts of valid values as donors and puts one in
//! place of a part made at the same site (mutation's splices and grafts),
//! and [`neighbour`] draws the neighbourhood of a tree for simulated
//! annealing.

mod apply;
mod mutation;
pub mod neighbour;
mod rotate;
pub mod splice;

pub use apply::Undo;
pub use mutation::{Mutation, Mutations};
pub use rotate::{own_choices, rotation, Rotations};

use crate::choice::{Choice, ChoiceTree};
use crate::source::DetRng;
use rand::Rng;

/// A path from the root of a choice tree: child indices.
pub type Path = Vec<usize>;

/// A node to stand in a place for a moment (no allocation).
fn placeholder() -> ChoiceTree {
    ChoiceTree::root(Vec::new())
}

/// One edit of a choice tree; see the module docs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Edit {
    /// Delete the children `start..start + len` of the node at `at` (a run
    /// of list elements). With `lower_len`, also lower by `len` the nearest
    /// leaf choice before the run that is at least `len`: the collection's
    /// length, or a length chosen before it; the edit does not apply when
    /// there is none.
    Delete {
        /// The parent of the run.
        at: Path,
        /// The first child deleted.
        start: usize,
        /// How many children are deleted.
        len: usize,
        /// Whether the length choice before the run goes down too.
        lower_len: bool,
    },
    /// Replace the node at `at` by its descendant at `at` followed by
    /// `from` (`shrinkMut`, when both are the same choice point).
    Promote {
        /// The node replaced.
        at: Path,
        /// The path of the replacement from `at`; not empty.
        from: Path,
    },
    /// Drop everything beneath the node at `at`: a lenient replay then takes
    /// the first (non-recursive) option wherever the generator asks beneath it.
    Empty {
        /// The node emptied.
        at: Path,
    },
    /// Set the choice of the choice node at `at`.
    Set {
        /// The choice node.
        at: Path,
        /// Its new choice.
        choice: Choice,
    },
    /// Mark the choice node at `at` to be made differently (`rerollMut`,
    /// Goldstein's `Reroll`): a replay takes any choice but the old one
    /// there, and replays the old node's children beneath it.
    Reroll {
        /// The choice node.
        at: Path,
    },
    /// Set the choice node at `at` to `choice` and rebuild what is beneath
    /// it as large as it goes: its children are dropped and the node is
    /// wrapped in a raise mark ([`ChoiceTree::raise`]), so a replay answers
    /// every choice point beneath it with its largest choice. Lowering a
    /// pick this way lets shrinking leave an option that holds only a few
    /// large values (an integer's `MAX`) for an earlier one that holds them
    /// all, from its top.
    Raise {
        /// The choice node.
        at: Path,
        /// Its new choice.
        choice: Choice,
    },
    /// Swap the children `a` and `b` of the node at `at`.
    Swap {
        /// The parent.
        at: Path,
        /// One child.
        a: usize,
        /// The other child.
        b: usize,
    },
    /// Swap two subtrees anywhere in the tree, neither inside the other (`swapMut`).
    Exchange {
        /// One subtree.
        x: Path,
        /// The other.
        y: Path,
    },
    /// Insert `node` as the child `index` of the node at `at` (`index` may be
    /// the number of children: at the end). An empty part inserted among
    /// list elements is a new element: a replay generates it afresh.
    Insert {
        /// The parent.
        at: Path,
        /// Where the new child goes.
        index: usize,
        /// The new child.
        node: ChoiceTree,
    },
    /// Lower by `by` every leaf choice (a choice with nothing beneath it: a
    /// number, not an option that selects a sub-generator) of at least `by`
    /// inside the children `from..` of the node at `at`: the later indices
    /// of a list renumbered after `by` elements before them were deleted.
    /// The edit does not apply when it would change nothing.
    Shift {
        /// The parent.
        at: Path,
        /// The first child whose choices go down.
        from: usize,
        /// How far they go down.
        by: Choice,
    },
    /// Lower to `max` every leaf choice above `max` inside the children
    /// `start..start + len` of the node at `at`: a run of list elements
    /// zeroed (`max` 0) or capped in one step, so a long list is lowered in a
    /// number of tries that grows with the log of its length, not with it.
    /// The edit does not apply when it would change nothing.
    Cap {
        /// The parent of the run.
        at: Path,
        /// The first child whose choices go down.
        start: usize,
        /// How many children.
        len: usize,
        /// The largest leaf choice left in the run.
        max: Choice,
    },
    /// Several edits, applied in order to the tree each leaves: one change
    /// of several choices at once (two values lowered together, a run
    /// deleted and the later indices renumbered). Applies when each does.
    Seq(Vec<Edit>),
    /// Rotate at the choice node at `at` (`P`): its descendant at `child`
    /// (`C`, a node made at `P`'s site) takes `P`'s place, and `P`, with
    /// `C`'s descendant at `grandchild` (`B`, from `C`, also made at that
    /// site) in `C`'s old place, takes `B`'s place in `C`. With `C` on
    /// `P`'s right and `B` on `C`'s left, this is a search tree's left
    /// rotation: the order of the parts is kept, the shape above them
    /// changes ([`rotation`] draws one).
    Rotate {
        /// The node rotated down (`P`).
        at: Path,
        /// The path from `P` to the node rotated up (`C`); not empty.
        child: Path,
        /// The path from `C` to the part that moves across (`B`); not empty.
        grandchild: Path,
    },
    /// Mark the own choices of the node at `at` to be drawn afresh where
    /// they are picks ([`ChoiceTree::relabel`]): the choice nodes beneath
    /// it that are not made at its site nor beneath one that is (a node's
    /// colour, a tag and its keys, not its parts of its own type); a
    /// replay draws the picks again and keeps the integers. The edit does
    /// not apply to a node with no own choice.
    Relabel {
        /// The node whose own choices are marked.
        at: Path,
    },
    /// Join the children `a` and `a + 1` of the node at `at`, two parts that
    /// each begin with a length (two lists in a list of lists): one part
    /// with the summed length and both parts' elements; the nearest leaf
    /// choice of at least 1 before them (the outer length) goes down by one.
    Join {
        /// The parent.
        at: Path,
        /// The first of the two parts.
        a: usize,
    },
}

/// Which of `children[..start]` a deletion of the `len` children from
/// `start` on lowers ([`Edit::Delete`] with `lower_len`; [`Edit::Join`]
/// with `len` 1): the nearest leaf choice before them of at least `len`, the
/// length of their list or one chosen before it. The shrinker hashes a
/// deletion from it before making it.
pub fn length_before(children: &[ChoiceTree], start: usize, len: usize) -> Option<usize> {
    let k = len as Choice;
    children[..start].iter().rposition(|c| c.children.is_empty() && c.choice.is_some_and(|c| c >= k))
}

/// Lowers each leaf choice `c` of `trees` (a choice with nothing beneath
/// it) for which `lower(c)` gives a new one, in pre-order: the work of
/// [`Edit::Shift`] and [`Edit::Cap`]. `noted` hears of each leaf lowered: its number among the nodes
/// of `trees` in pre-order, the node as it is now, and its choice before.
/// Whether any leaf was lowered; [`restore_leaves`] sets them back.
fn lower_leaves(
    trees: &mut [ChoiceTree],
    lower: impl Fn(Choice) -> Option<Choice>,
    mut noted: impl FnMut(usize, &ChoiceTree, Choice),
) -> bool {
    fn go(
        t: &mut ChoiceTree,
        lower: &impl Fn(Choice) -> Option<Choice>,
        n: &mut usize,
        noted: &mut impl FnMut(usize, &ChoiceTree, Choice),
        any: &mut bool,
    ) {
        if let (Some(c), true) = (t.choice, t.children.is_empty()) {
            if let Some(to) = lower(c) {
                t.choice = Some(to);
                noted(*n, t, c);
                *any = true;
            }
        }
        *n += 1;
        for c in &mut t.children {
            go(c, lower, n, noted, any);
        }
    }
    let (mut n, mut any) = (0, false);
    for t in trees {
        go(t, &lower, &mut n, &mut noted, &mut any);
    }
    any
}

/// Sets back the leaf choices of `trees` that [`lower_leaves`] lowered:
/// `lowered` gives each one's number among the nodes of `trees` in
/// pre-order and its choice before, in that order.
fn restore_leaves(trees: &mut [ChoiceTree], lowered: impl IntoIterator<Item = (usize, Choice)>) {
    fn go<I: Iterator<Item = (usize, Choice)>>(t: &mut ChoiceTree, n: &mut usize, next: &mut std::iter::Peekable<I>) {
        if let Some(&(_, was)) = next.peek().filter(|l| l.0 == *n) {
            t.choice = Some(was);
            next.next();
        }
        *n += 1;
        for c in &mut t.children {
            if next.peek().is_none() {
                return;
            }
            go(c, n, next);
        }
    }
    let (mut n, mut next) = (0, lowered.into_iter().peekable());
    for t in trees {
        if next.peek().is_none() {
            return;
        }
        go(t, &mut n, &mut next);
    }
}

/// The path from node `to` down to node `i` of a pre-order index whose node `n` is child `step(n).1`
/// of node `step(n).0` (`to` is `i` or one of its ancestors).
fn path_up(mut i: usize, to: usize, step: impl Fn(usize) -> (usize, usize)) -> Path {
    let mut path = Vec::new();
    while i != to {
        let (parent, child) = step(i);
        path.push(child);
        i = parent;
    }
    path.reverse();
    path
}

/// Whether a node is a part that begins with a length: a group whose first
/// child is a choice with nothing beneath it.
fn starts_with_len(t: &ChoiceTree) -> bool {
    t.choice.is_none() && t.children.first().is_some_and(|c| c.choice.is_some() && c.children.is_empty())
}

/// Whether two sibling nodes can be joined ([`Edit::Join`]): parts of the
/// same site that each begin with a length.
pub fn joinable(x: &ChoiceTree, y: &ChoiceTree) -> bool {
    x.site == y.site && starts_with_len(x) && starts_with_len(y)
}

/// The [`Edit::Promote`]s of the node at `at`: by each descendant of the
/// same site and kind (choice point or part), smallest first (ties in
/// pre-order).
pub fn promotions(tree: &ChoiceTree, at: &[usize]) -> Vec<Edit> {
    /// The descendants of `t` like `like`, in pre-order, each with its size.
    fn like(t: &ChoiceTree, of: &ChoiceTree, path: &mut Path, out: &mut Vec<(usize, Path)>) {
        for (i, c) in t.children.iter().enumerate() {
            path.push(i);
            if c.site == of.site && c.choice.is_some() == of.choice.is_some() {
                out.push((c.size(), path.clone()));
            }
            like(c, of, path, out);
            path.pop();
        }
    }
    let Some(node) = tree.get(at) else { return Vec::new() };
    let mut inner = Vec::new();
    like(node, node, &mut Vec::new(), &mut inner);
    inner.sort_by_key(|(size, _)| *size);
    inner.into_iter().map(|(_, from)| Edit::Promote { at: at.to_vec(), from }).collect()
}

/// Delete the children `start..start + len` of the node at `at` with the
/// length before them lowered, and lower the leaf choices after them by
/// `len`: list elements deleted and the later indices into the list
/// renumbered in one step ([`Edit::Delete`] then [`Edit::Shift`]).
pub fn delete_renumbered(at: &[usize], start: usize, len: usize) -> Edit {
    Edit::Seq(vec![
        Edit::Delete { at: at.to_vec(), start, len, lower_len: true },
        Edit::Shift { at: at.to_vec(), from: start, by: len as Choice },
    ])
}

/// The paths of every choice node of `tree`, in pre-order.
pub fn choice_paths(tree: &ChoiceTree) -> Vec<Path> {
    tree.paths().into_iter().filter(|p| tree.get(p).is_some_and(|t| t.choice.is_some())).collect()
}

/// One random mutation of `tree`, as the mutators of Goldstein's thesis
/// draw them: most often a reroll of one choice (`rerollMut`), else a swap
/// of two subtrees of the same site (`swapMut`), a subtree replaced by one
/// of the same site inside it (`shrinkMut`), or the deletion of one child
/// of a node with several (a list element). `None` when the tree has no
/// choice to edit. The same RNG state gives the same edit.
pub fn random_edit(tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
    let paths = tree.paths();
    let choices: Vec<&Path> = paths.iter().filter(|p| tree.get(p).is_some_and(|t| t.choice.is_some())).collect();
    if choices.is_empty() {
        return None;
    }
    let reroll = |rng: &mut DetRng| Edit::Reroll { at: choices[rng.random_range(0..choices.len())].clone() };
    let edit = match rng.random_range(0..8u32) {
        // swapMut: two subtrees of the same site, neither inside the other
        // (a tree that is one choice node has nothing to swap).
        5 if paths.len() < 2 => reroll(rng),
        5 => {
            let x = &paths[rng.random_range(1..paths.len())];
            swap_with(tree, &paths, x, rng).unwrap_or_else(|| reroll(rng))
        }
        // shrinkMut: a subtree by one of the same site inside it.
        6 => {
            let at = &paths[rng.random_range(0..paths.len())];
            shrink_at(tree, at, rng).unwrap_or_else(|| reroll(rng))
        }
        // Delete one child of a node with at least two (a list element, with its length).
        7 => {
            let parents: Vec<&Path> =
                paths.iter().filter(|p| tree.get(p).is_some_and(|t| t.children.len() >= 2)).collect();
            match parents.len() {
                0 => reroll(rng),
                n => {
                    let at = parents[rng.random_range(0..n)];
                    let kids = tree.get(at).map_or(0, |t| t.children.len());
                    let start = rng.random_range(1..kids);
                    let cand = Edit::Delete { at: at.clone(), start, len: 1, lower_len: true };
                    if cand.apply(tree).is_some() {
                        cand
                    } else {
                        Edit::Delete { at: at.clone(), start, len: 1, lower_len: false }
                    }
                }
            }
        }
        _ => reroll(rng),
    };
    Some(edit)
}

/// The subtrees of the same site as the one at `x`, neither inside the
/// other, among `paths` (the tree's paths): what [`Edit::Exchange`] may swap it with.
fn partners<'p>(tree: &ChoiceTree, paths: &'p [Path], x: &Path) -> Vec<&'p Path> {
    let site = tree.get(x).map(|t| &t.site);
    paths
        .iter()
        .filter(|y| !y.is_empty() && !y.starts_with(x) && !x.starts_with(y) && tree.get(y).map(|t| &t.site) == site)
        .collect()
}

/// An [`Edit::Exchange`] of the subtree at `x` with one of its [`partners`], drawn uniformly.
fn swap_with(tree: &ChoiceTree, paths: &[Path], x: &Path, rng: &mut DetRng) -> Option<Edit> {
    let ys = partners(tree, paths, x);
    match ys.len() {
        0 => None,
        n => Some(Edit::Exchange { x: x.clone(), y: ys[rng.random_range(0..n)].clone() }),
    }
}

/// One of the [`promotions`] of the node at `at`, drawn uniformly.
fn shrink_at(tree: &ChoiceTree, at: &[usize], rng: &mut DetRng) -> Option<Edit> {
    let mut options = promotions(tree, at);
    match options.len() {
        0 => None,
        n => Some(options.swap_remove(rng.random_range(0..n))),
    }
}

#[cfg(test)]
mod tests;
