//! Rotations: a node's part of its own type lifted above it, the shape above the parts changed and their order kept.
//!
//! Mutation that edits a value below one of its parts, splicing and
//! grafting all keep the shape above the part they change. Where validity
//! couples a part with its surroundings (a balanced tree's heights), some
//! shapes are reached only by changing what is above: a search tree's
//! rotation does that and keeps the in-order of the keys. On a choice tree
//! it reads: `P` a choice node, `C` one of its *parts* (the nearest choice
//! nodes beneath it made at its own site: a node's subtrees), `B` a part of
//! `C` at another place among `C`'s parts than `C` holds among `P`'s; `C`
//! takes `P`'s place, `P` takes `B`'s place in `C`, and `B` takes `C`'s old
//! place in `P` ([`Edit::Rotate`]). Each node keeps its own choices (its
//! key, its colour); [`Edit::Relabel`] draws a node's own picks afresh, so a
//! red-black tree's rotation can be recoloured, as the tree's own insert
//! does.

use super::{path_up, placeholder, Edit, Path};
use crate::choice::ChoiceTree;
use crate::source::DetRng;
use rand::Rng;

/// Whether `t` is a mark or a failed attempt, which a rotation leaves alone.
pub(super) fn is_aside(t: &ChoiceTree) -> bool {
    // Every mark's and failed attempt's site begins with `<`: most nodes are told apart by their first byte.
    t.choice.is_none() && t.site.starts_with('<') && is_mark_or_retry(t)
}

fn is_mark_or_retry(t: &ChoiceTree) -> bool {
    t.is_retry() || t.is_reroll() || t.is_raise() || t.is_relabel()
}

/// The paths from `node` of its own choices: the choice nodes beneath it
/// not made at its site nor beneath one that is (a node's colour, its keys;
/// not its subtrees), in pre-order. What [`Edit::Relabel`] marks.
pub fn own_choices(node: &ChoiceTree) -> Vec<Path> {
    fn walk(t: &ChoiceTree, site: &str, path: &mut Path, out: &mut Vec<Path>) {
        for (i, c) in t.children.iter().enumerate() {
            if is_aside(c) || (c.choice.is_some() && c.site == site) {
                continue;
            }
            path.push(i);
            if c.choice.is_some() {
                out.push(path.clone());
            }
            walk(c, site, path, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(node, &node.site, &mut Vec::new(), &mut out);
    out
}

/// A node of the tree [`rotation`] reads, in pre-order (marks and failed attempts left out).
#[derive(Debug, Clone)]
struct Indexed {
    /// The node before it whose child it is, and its index among that node's children.
    parent: usize,
    child: usize,
    /// The end of its subtree: the subtree of node `i` is `i..end`.
    end: usize,
    /// The choice node it is a part of (its nearest choice ancestor of its own site), if it is a choice node.
    owner: Option<usize>,
    /// Its place among its owner's parts.
    rank: usize,
    /// How many parts it has.
    parts: usize,
    /// How many rotations there are with it as `P`.
    rotations: usize,
}

/// One rotation of `tree` ([`Edit::Rotate`]), drawn uniformly among all of
/// them: every choice node `P` with a part `C` (the `i`-th of `P`'s parts)
/// that has a part `B` other than its `i`-th. `None` when there is none (no
/// node with a part that has parts of its own: a list, a tree of one node).
/// The same RNG state gives the same edit.
///
/// The rotations are counted, in pre-order of `P`, then of `C`, then of
/// `B`, from one index of the tree, and only the one drawn is built. A tree
/// rotated again and again counts them once: [`Rotations`].
pub fn rotation(tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
    Rotations::of(tree).draw(rng)
}

/// The rotations of one choice tree, counted once: [`Rotations::draw`]
/// draws what [`rotation`] of that tree draws (the same edit from the same
/// RNG state) without walking the tree again, for a tree rotated many times
/// (a corpus entry of the mutational guide).
#[derive(Debug, Clone)]
pub struct Rotations {
    nodes: Vec<Indexed>,
    total: usize,
}

impl Rotations {
    /// The rotations of `tree`.
    pub fn of(tree: &ChoiceTree) -> Rotations {
        fn walk<'t>(
            t: &'t ChoiceTree,
            parent: usize,
            child: usize,
            owners: &mut Vec<(usize, &'t str)>,
            out: &mut Vec<Indexed>,
        ) {
            let i = out.len();
            let own = t.choice.is_some();
            let owner =
                if own { owners.iter().rev().find(|(_, site)| *site == &*t.site).map(|&(o, _)| o) } else { None };
            let rank = owner.map_or(0, |o| {
                out[o].parts += 1;
                out[o].parts - 1
            });
            out.push(Indexed { parent, child, end: 0, owner, rank, parts: 0, rotations: 0 });
            if own {
                owners.push((i, &t.site));
            }
            for (k, c) in t.children.iter().enumerate() {
                if !is_aside(c) {
                    walk(c, i, k, owners, out);
                }
            }
            if own {
                owners.pop();
            }
            out[i].end = out.len();
        }
        let mut nodes = Vec::with_capacity(64);
        walk(tree, usize::MAX, 0, &mut Vec::with_capacity(16), &mut nodes);
        for c in 0..nodes.len() {
            if let Some(p) = nodes[c].owner {
                nodes[p].rotations += Self::with_child(&nodes[c]);
            }
        }
        let total = nodes.iter().map(|p| p.rotations).sum();
        Rotations { nodes, total }
    }

    /// How many rotations there are.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// The rotations with `C` at node `c`: one for each part of `C` but its `rank`-th.
    fn with_child(c: &Indexed) -> usize {
        c.parts - usize::from(c.parts > c.rank)
    }

    /// One rotation, drawn uniformly (see [`rotation`]); `None`, with no draw, when there is none.
    pub fn draw(&self, rng: &mut DetRng) -> Option<Edit> {
        if self.total == 0 {
            return None;
        }
        let nodes = &self.nodes;
        let mut k = rng.random_range(0..self.total);
        // `P` in pre-order, then its parts in pre-order (a part comes after its owner, inside its subtree).
        let p = nth_counted(0..nodes.len(), &mut k, |p| nodes[p].rotations);
        let c = nth_counted(p + 1..nodes[p].end, &mut k, |c| match nodes[c].owner == Some(p) {
            true => Self::with_child(&nodes[c]),
            false => 0,
        });
        let j = if k >= nodes[c].rank { k + 1 } else { k };
        let b = (c + 1..nodes[c].end)
            .find(|&b| nodes[b].owner == Some(c) && nodes[b].rank == j)
            .expect("a part of that rank is in its owner's subtree");
        let path = |i: usize, to: usize| path_up(i, to, |n| (nodes[n].parent, nodes[n].child));
        Some(Edit::Rotate { at: path(p, 0), child: path(c, p), grandchild: path(b, c) })
    }
}

/// The node of `range` that the `k`-th of their counted items (counted from 0, in order) belongs to;
/// `k` is left as that item's place among the node's own.
fn nth_counted(range: std::ops::Range<usize>, k: &mut usize, count: impl Fn(usize) -> usize) -> usize {
    for i in range {
        match count(i) {
            n if *k < n => return i,
            n => *k -= n,
        }
    }
    unreachable!("the draw is below the count of the range")
}

/// Rotates `p` in place ([`Edit::Rotate`]), its nodes moved, not copied;
/// false, with `p` as it was, unless `p`, its descendant at `child` and
/// that one's at `grandchild` are choice nodes of one site.
pub(super) fn rotate(p: &mut ChoiceTree, child: &[usize], grandchild: &[usize]) -> bool {
    if child.is_empty() || grandchild.is_empty() {
        return false;
    }
    let Some(c) = p.get(child) else { return false };
    let Some(b) = c.get(grandchild) else { return false };
    if p.choice.is_none() || [c, b].iter().any(|n| n.choice.is_none() || n.site != p.site) {
        return false;
    }
    swing(p, child, grandchild);
    true
}

/// Sets back a rotation [`rotate`] made with the same paths: the node rotated up is at the top, and
/// the inverse rotation is the same move with the two paths swapped.
pub(super) fn unrotate(top: &mut ChoiceTree, child: &[usize], grandchild: &[usize]) {
    swing(top, grandchild, child);
}

/// The move of a rotation: the node at `down` beneath `top` takes `top`'s place, its node at `up`
/// takes its own old place, and `top` goes where that node was.
fn swing(top: &mut ChoiceTree, down: &[usize], up: &[usize]) {
    let mut lower = std::mem::replace(top, placeholder());
    let mut upper = take(&mut lower, down);
    let moved = take(&mut upper, up);
    *lower.get_mut(down).expect("the rotated-up node's place") = moved;
    *upper.get_mut(up).expect("the moved part's place") = lower;
    *top = upper;
}

/// The node at `path` in `t` (which holds it), a placeholder left in its place.
fn take(t: &mut ChoiceTree, path: &[usize]) -> ChoiceTree {
    std::mem::replace(t.get_mut(path).expect("a node checked to be there"), placeholder())
}
