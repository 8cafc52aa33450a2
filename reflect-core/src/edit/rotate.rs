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

use super::{Edit, Path};
use crate::choice::ChoiceTree;
use crate::source::DetRng;
use rand::Rng;

/// Whether `t` is a mark or a failed attempt, which a rotation leaves alone.
fn is_aside(t: &ChoiceTree) -> bool {
    t.is_retry() || t.is_reroll() || t.is_raise() || t.is_relabel()
}

/// The paths from `node` of its parts: the nearest choice nodes beneath it made at its site, in pre-order.
fn parts(node: &ChoiceTree) -> Vec<Path> {
    fn walk(t: &ChoiceTree, site: &str, path: &mut Path, out: &mut Vec<Path>) {
        for (i, c) in t.children.iter().enumerate() {
            if is_aside(c) {
                continue;
            }
            path.push(i);
            if c.choice.is_some() && c.site == site {
                out.push(path.clone());
            } else {
                walk(c, site, path, out);
            }
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(node, &node.site, &mut Vec::new(), &mut out);
    out
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

/// One rotation of `tree` ([`Edit::Rotate`]), drawn uniformly among all of
/// them: every choice node `P` with a part `C` (the `i`-th of `P`'s parts)
/// that has a part `B` other than its `i`-th. `None` when there is none (no
/// node with a part that has parts of its own: a list, a tree of one node).
/// The same RNG state gives the same edit.
pub fn rotation(tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
    fn walk(t: &ChoiceTree, path: &mut Path, out: &mut Vec<Edit>) {
        if t.choice.is_some() {
            for (i, c) in parts(t).into_iter().enumerate() {
                let inner = t.get(&c).map(parts).unwrap_or_default();
                for (_, b) in inner.into_iter().enumerate().filter(|(j, _)| *j != i) {
                    out.push(Edit::Rotate { at: path.clone(), child: c.clone(), grandchild: b });
                }
            }
        }
        for (i, c) in t.children.iter().enumerate() {
            if !is_aside(c) {
                path.push(i);
                walk(c, path, out);
                path.pop();
            }
        }
    }
    let mut all = Vec::new();
    walk(tree, &mut Vec::new(), &mut all);
    match all.len() {
        0 => None,
        n => Some(all.swap_remove(rng.random_range(0..n))),
    }
}

/// `p` rotated ([`Edit::Rotate`]): `None` unless `p`, its descendant at
/// `child` and that one's at `grandchild` are choice nodes of one site.
pub(super) fn rotated(p: &ChoiceTree, child: &[usize], grandchild: &[usize]) -> Option<ChoiceTree> {
    if child.is_empty() || grandchild.is_empty() {
        return None;
    }
    let c = p.get(child)?;
    let b = c.get(grandchild)?;
    if p.choice.is_none() || [c, b].iter().any(|n| n.choice.is_none() || n.site != p.site) {
        return None;
    }
    let mut lower = p.clone();
    let slot = lower.get_mut(child)?;
    let mut upper = std::mem::replace(slot, ChoiceTree::root(Vec::new()));
    let moved = std::mem::replace(upper.get_mut(grandchild)?, ChoiceTree::root(Vec::new()));
    *lower.get_mut(child)? = moved;
    *upper.get_mut(grandchild)? = lower;
    Some(upper)
}
