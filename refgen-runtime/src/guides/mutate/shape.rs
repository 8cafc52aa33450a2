//! The shape, size and features of a case, and those seen, for guides that press toward new, larger shapes.
//!
//! A case's **shape** is its choice tree with the integers erased: the
//! options its picks took, in order, and how many choices it made. Two
//! search trees with the same nodes in the same places but other keys have
//! one shape; a list's shape is its length. Its **size** is the number of
//! choices it made (failed attempts of retrying filters count in neither). A guide rewarded only for values it has not seen before
//! finds new values most cheaply by changing the integers of small ones (a
//! key of a one-node tree); [`Shapes`] says whether a valid case's shape is
//! new, and how its size compares with the valid cases so far, so that it can
//! be rewarded for growing and for new shapes instead. Its **features**
//! ([`features`]) are the constructors under constructors it has, so that a
//! guide can give a rare construct its share ([`super`], the mutational guide).
//!
//! ```
//! use refgen::choice::Request;
//! use refgen::trail::Trail;
//! use refgen::guides::shape::{shape_key, Shapes};
//!
//! let mut t = Trail::new();
//! t.open_choice("x", Request::Int { span: 9 }, 3);
//! t.close();
//! let mut u = Trail::new();
//! u.open_choice("x", Request::Int { span: 9 }, 7);
//! u.close();
//! assert_eq!(shape_key(&t), shape_key(&u)); // integers are erased
//! let mut shapes = Shapes::default();
//! assert!(shapes.observe(&t).new_shape);
//! assert!(!shapes.observe(&u).new_shape);
//! ```

use crate::hashing::{finish, mix};
use refgen_core::hashing::mix_bytes;
use refgen_core::trail::{Node, Trail};
use std::collections::HashSet;

/// The key of a case's shape: its picks' options in order and its number of choices, the failed
/// attempts of retrying filters left out (two lists of one length have one shape, however many tries
/// each took).
pub fn shape_key(trail: &Trail) -> u64 {
    let (h, choices) = kept(trail);
    finish(mix(h, choices))
}

/// The hash of the kept nodes' options, and their number of choices.
fn kept(trail: &Trail) -> (u64, u64) {
    let mut h = 0x5eed_5a9e_u64;
    let mut choices = 0u64;
    for n in trail.kept_nodes() {
        if n.label().is_some() {
            h = mix(h, n.bucket().wrapping_add(1));
        }
        choices += u64::from(n.choice.is_some());
    }
    (h, choices)
}

/// A case's size: its number of choices, the failed attempts of retrying filters left out.
pub fn size(trail: &Trail) -> usize {
    kept(trail).1 as usize
}

/// The **features** of a case, sorted and without repeats: for each pick
/// outside failed attempts with a choice beneath it (a constructor with
/// fields, not a leaf such as the empty tree), the option it took with the option of the
/// nearest pick above it and the branch between them (which part of that
/// option's value: the left or right subtree of a node, a function or its
/// argument). A term with a function applied has the feature "a function
/// under the first part of an application"; a search tree with a left
/// subtree, "a node under the left part of a node". Two cases of one shape
/// have the same features; a rare construct is a rare feature.
pub fn features(trail: &Trail, out: &mut Vec<u64>) {
    out.clear();
    let nodes = trail.nodes();
    // Per node: the hash of its nearest pick above and the branch to it (0 for none), and its own
    // pick's hash, so each pick's site and label are hashed once.
    let mut hashes = vec![(0u64, None::<u64>); nodes.len()];
    for id in kept_ids(trail).skip(1) {
        let n = &nodes[id];
        let parent = hashes[trail.parent(id).unwrap_or(0)];
        let above = match parent.1 {
            Some(h) => mix(h, n.index as u64 + 1),
            None => parent.0,
        };
        let own = picked(n);
        hashes[id] = (above, own);
        // A pick with nothing beneath it (a leaf: the empty tree) is no construct: the only value with it
        // at the top would be a feature's only holder.
        match own {
            Some(h) if trail.choices_beneath(id) > 0 => out.push(finish(mix(above, h))),
            _ => {}
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// The ids of `trail`'s nodes outside failed attempts, in pre-order (the root's, 0, first): the nodes of
/// [`Trail::kept_nodes`].
pub(super) fn kept_ids(trail: &Trail) -> impl Iterator<Item = usize> + '_ {
    let mut id = 0;
    std::iter::from_fn(move || loop {
        let n = trail.nodes().get(id)?;
        if n.is_retry() {
            id = trail.end(id);
            continue;
        }
        id += 1;
        return Some(id - 1);
    })
}

/// The hash of a pick's site and the option it took; `None` for any other node.
fn picked(n: &Node) -> Option<u64> {
    let label = n.label()?;
    Some(mix(mix_bytes(mix_bytes(0x9e37, n.site.as_bytes()), label.as_bytes()), n.bucket()))
}

/// What [`Shapes::observe`] found out about a valid case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observed {
    /// No valid case before had this shape.
    pub new_shape: bool,
    /// The case's size (its number of choices).
    pub size: usize,
    /// The case's size over the mean size of the valid cases before it
    /// (1 for the first).
    pub relative_size: f64,
}

/// The shapes of the valid cases seen, and their mean size.
#[derive(Debug, Clone, Default)]
pub struct Shapes {
    seen: HashSet<u64, crate::hashing::BuildKey>,
    cases: u64,
    total_size: u64,
}

impl Shapes {
    /// Record a valid case: whether its shape is new, and its size against the mean so far.
    pub fn observe(&mut self, trail: &Trail) -> Observed {
        let size = size(trail);
        let relative_size = if self.cases == 0 {
            1.0
        } else {
            (size as f64 + 1.0) / (self.total_size as f64 / self.cases as f64 + 1.0)
        };
        let new_shape = self.seen.insert(shape_key(trail));
        self.cases += 1;
        self.total_size += size as u64;
        Observed { new_shape, size, relative_size }
    }

    /// The number of distinct shapes seen.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no valid case was observed.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The mean size of the valid cases observed (0 before the first).
    pub fn mean_size(&self) -> f64 {
        if self.cases == 0 {
            0.0
        } else {
            self.total_size as f64 / self.cases as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use refgen_core::choice::{Opt, Request};

    const OPTIONS: [Opt; 3] =
        [Opt { label: "lit", weight: 1 }, Opt { label: "app", weight: 1 }, Opt { label: "lam", weight: 1 }];
    const PICK: Request<'static> = Request::Pick { options: &OPTIONS, total: 3 };

    /// A literal: a pick with an integer beneath it.
    fn lit(t: &mut Trail, n: u64) {
        t.open_choice("e", PICK, 0);
        t.leaf_choice("n", Request::Int { span: 9 }, n);
        t.close();
    }

    fn features_of(build: impl Fn(&mut Trail)) -> Vec<u64> {
        let mut t = Trail::new();
        build(&mut t);
        let mut out = Vec::new();
        features(&t, &mut out);
        out
    }

    /// app(lam(lit a), lit b).
    fn applied_lam(t: &mut Trail, a: u64, b: u64) {
        t.open_choice("e", PICK, 1);
        t.open_choice("e", PICK, 2);
        lit(t, a);
        t.close();
        lit(t, b);
        t.close();
    }

    #[test]
    fn features_are_constructors_under_constructors_by_branch() {
        // app(lam(lit), lit) and app(lit, lam(lit)): the same constructors, under other branches.
        let applied = features_of(|t| applied_lam(t, 1, 2));
        let argument = features_of(|t| {
            t.open_choice("e", PICK, 1);
            lit(t, 3);
            t.open_choice("e", PICK, 2);
            lit(t, 4);
            t.close();
            t.close();
        });
        // App at the top, lam under app's first part, lit under lam, lit under app's second part.
        assert_eq!(applied.len(), 4);
        assert_eq!(argument.len(), 4);
        // App at the top, lit under lam.
        assert_eq!(applied.iter().filter(|f| argument.contains(f)).count(), 2);
        // Integers are not features; a pick with nothing beneath it (a leaf) is none either.
        assert_eq!(features_of(|t| applied_lam(t, 7, 8)), applied);
        let leaf = features_of(|t| {
            t.open_choice("e", PICK, 1);
            t.leaf_choice("e", PICK, 2);
            t.close();
        });
        assert_eq!(leaf.len(), 1);
    }
}
