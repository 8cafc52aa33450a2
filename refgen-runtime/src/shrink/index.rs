//! The shrinker's index of its tree: nodes in pre-order, subtree ends, choices, a rolling hash.
//!
//! A tree's hash ([`tree_hash`]) is a polynomial over its nodes in
//! pre-order: `sum of key(node i) * B^i`, wrapping, where a node's key
//! ([`node_key`]) is made of its site, its choice and how many children it
//! has (the sequence of those, in pre-order, is the tree: the counts say
//! where each subtree ends). `B` is odd, so `B^-1` exists modulo `2^64`.
//! The [`Index`] of the current tree keeps the sums of the first `i`
//! terms, so the hash of a candidate follows from the current one:
//!
//! - a set choice at node `i` changes one term;
//! - a run of nodes `a..b` replaced by a run of `m` nodes (a deleted run of
//!   siblings, `m = 0`; an edited subtree) is the first `a` terms, the new
//!   run's own hash times `B^a`, and the rest times `B^(m - (b - a))`,
//!   besides the few nodes before `a` whose key changed (a parent's count
//!   of children, a length choice).
//!
//! A candidate then costs the size of what it changed to hash, not the
//! size of the tree; and a candidate kept that only set choices changes
//! the index in place ([`Index::set`]), with no walk of the tree.

use crate::hashing::{finish, fnv1a, mix};
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::Path;
use std::borrow::Cow;
use std::cell::RefCell;
use std::hash::{BuildHasherDefault, Hasher};

/// The base of the polynomial: odd (invertible modulo `2^64`), its bits mixed.
const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// A first index has room for this many nodes (a larger tree grows it).
const FIRST_ROOM: usize = 128;

/// [`Index::child`] lists the children of a node once it is asked for its
/// child this far along, rather than stepping from the first each time.
const LIST_KIDS: usize = 16;

/// `BASE^-1` modulo `2^64`.
const BASE_INV: u64 = inverse(BASE);

/// The inverse of an odd `b` modulo `2^64`, by Newton's iteration: each
/// step doubles the number of correct low bits, from 3 (`b * b = 1 mod 8`).
const fn inverse(b: u64) -> u64 {
    let mut x = b;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(b.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// `BASE^e` for a signed `e`.
fn power(e: isize) -> u64 {
    if e >= 0 {
        BASE.wrapping_pow(e as u32)
    } else {
        BASE_INV.wrapping_pow(e.unsigned_abs() as u32)
    }
}

/// One node's key: its site (by address and length when it is a
/// `&'static str`, as the candidates of one shrink, made by one generator,
/// share them; by its text otherwise: hashing every site's text cost a
/// sixth of a try), its choice and how many children it has.
pub(super) fn node_key(t: &ChoiceTree) -> u64 {
    key_from(site_key(t), t.choice, t.children.len())
}

/// The part of `t`'s key its site makes ([`node_key`]).
fn site_key(t: &ChoiceTree) -> u64 {
    match &t.site {
        Cow::Borrowed(s) => mix(s.as_ptr() as u64, s.len() as u64),
        Cow::Owned(s) => fnv1a(s.as_bytes()),
    }
}

/// The key of a node of site key `site` with `choice` and `children` children.
fn key_from(site: u64, choice: Option<Choice>, children: usize) -> u64 {
    finish(mix(mix(site, choice.map_or(u64::MAX, |c| c)), children as u64))
}

/// The hash of `t` (see the module docs) and its number of nodes.
pub(super) fn hash_and_size(t: &ChoiceTree) -> (u64, usize) {
    fn go(t: &ChoiceTree, power: &mut u64, sum: &mut u64, size: &mut usize) {
        *sum = sum.wrapping_add(node_key(t).wrapping_mul(*power));
        *power = power.wrapping_mul(BASE);
        *size += 1;
        for c in &t.children {
            go(c, power, sum, size);
        }
    }
    let (mut power, mut sum, mut size) = (1, 0, 0);
    go(t, &mut power, &mut sum, &mut size);
    (sum, size)
}

/// A 64-bit hash of a tree, for the set of candidates tried (see the module docs).
pub(super) fn tree_hash(t: &ChoiceTree) -> u64 {
    hash_and_size(t).0
}

/// A hasher for keys that are hashes already (a tree's, an edit's: each
/// term went through a full avalanche): a table takes them as they are.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct Prehashed(u64);

impl Hasher for Prehashed {
    fn write(&mut self, bytes: &[u8]) {
        // Not met with `u64` keys; any other key is mixed in.
        for &b in bytes {
            self.0 = mix(self.0, b.into());
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// Builds [`Prehashed`] hashers: the sets of candidates and edits tried.
pub(super) type BuildPrehashed = BuildHasherDefault<Prehashed>;

/// The current tree's nodes in pre-order: where each subtree ends, its
/// choices in order, and the sums of the first terms of its hash (see the
/// module docs).
#[derive(Debug, Default)]
pub(super) struct Index {
    /// Node `i`, in pre-order.
    nodes: Vec<Slot>,
    /// The tree's hash: the sum of every node's term.
    hash: u64,
    /// The choices in pre-order (the tree's key in shortlex order).
    choices: Vec<Choice>,
    /// `BASE^i`, for as many nodes as the largest tree indexed: kept from tree to tree.
    powers: Vec<u64>,
    /// A node with many children, and its children's numbers (and one past
    /// its subtree) listed ([`Index::child`]), so that a pass along the
    /// children of a wide node finds each in one step, not from the first.
    kids: RefCell<(Option<usize>, Vec<usize>)>,
}

/// What the index knows of one node.
#[derive(Debug, Clone, Copy)]
struct Slot {
    /// The sum of the terms of the nodes before this one.
    prefix: u64,
    /// One past the last node of this node's subtree.
    end: usize,
    /// The node's choice (`None` for a part).
    choice: Option<Choice>,
    /// How many children the node has.
    children: usize,
    /// The node's parent, and its place among the parent's children (the root's: 0, 0).
    up: (usize, usize),
    /// How many choices come before the node in pre-order.
    ord: usize,
    /// The node's key ([`node_key`]).
    key: u64,
    /// The part of the key its site makes.
    site: u64,
}

impl Index {
    /// Indexes `t`, keeping the lists' memory.
    pub(super) fn rebuild(&mut self, t: &ChoiceTree) {
        fn go(t: &ChoiceTree, up: (usize, usize), ix: &mut Index) {
            let i = ix.nodes.len();
            if i == ix.powers.len() {
                let next = ix.powers.last().map_or(1, |p| p.wrapping_mul(BASE));
                ix.powers.push(next);
            }
            let (prefix, site) = (ix.hash, site_key(t));
            let key = key_from(site, t.choice, t.children.len());
            ix.hash = prefix.wrapping_add(key.wrapping_mul(ix.powers[i]));
            let ord = ix.choices.len();
            ix.nodes.push(Slot { prefix, end: 0, choice: t.choice, children: t.children.len(), up, ord, key, site });
            if let Some(c) = t.choice {
                ix.choices.push(c);
            }
            for (k, c) in t.children.iter().enumerate() {
                go(c, (i, k), ix);
            }
            ix.nodes[i].end = ix.nodes.len();
        }
        self.nodes.clear();
        self.choices.clear();
        self.hash = 0;
        self.kids.get_mut().0 = None;
        if self.nodes.capacity() == 0 {
            // A first tree: room for a typical one at once, not by doubling from one.
            self.nodes.reserve(FIRST_ROOM);
            self.choices.reserve(FIRST_ROOM);
            self.powers.reserve(FIRST_ROOM);
        }
        go(t, (0, 0), self);
    }

    /// An empty index with room for a tree as large as this one's (its
    /// powers of the base already made).
    pub(super) fn with_room(&self) -> Index {
        Index {
            nodes: Vec::with_capacity(self.nodes.len()),
            hash: 0,
            choices: Vec::with_capacity(self.choices.len()),
            powers: self.powers.clone(),
            kids: RefCell::default(),
        }
    }

    /// The sum of the first `i` terms of the hash (`i` up to [`Index::len`]).
    fn prefix(&self, i: usize) -> u64 {
        self.nodes.get(i).map_or(self.hash, |s| s.prefix)
    }

    /// The indexed tree's choices, in pre-order.
    pub(super) fn choices(&self) -> &[Choice] {
        &self.choices
    }

    /// The indexed tree's hash.
    pub(super) fn hash(&self) -> u64 {
        self.hash
    }

    /// The pre-order number of the node at `path` of `t`, the indexed tree.
    pub(super) fn at(&self, t: &ChoiceTree, path: &[usize]) -> Option<usize> {
        let (mut node, mut i) = (t, 0);
        for &c in path {
            node = node.children.get(c)?;
            i = self.child(i, c);
        }
        Some(i)
    }

    /// The pre-order number of the `k`-th child of node `i` (or, for `k`
    /// its number of children, one past its subtree).
    #[inline]
    pub(super) fn child(&self, i: usize, k: usize) -> usize {
        if k < LIST_KIDS {
            return (0..k).fold(i + 1, |j, _| self.nodes[j].end);
        }
        self.listed_child(i, k)
    }

    /// [`Index::child`] far along a wide node: from the list of its children.
    #[inline(never)]
    fn listed_child(&self, i: usize, k: usize) -> usize {
        let mut kids = self.kids.borrow_mut();
        if kids.0 != Some(i) {
            let (n, list) = (self.nodes[i].children, &mut kids.1);
            list.clear();
            list.push(i + 1);
            for c in 0..n {
                list.push(self.nodes[list[c]].end);
            }
            kids.0 = Some(i);
        }
        kids.1[k]
    }

    /// One past the last node of node `i`'s subtree.
    pub(super) fn end(&self, i: usize) -> usize {
        self.nodes[i].end
    }

    /// How many nodes the indexed tree has.
    pub(super) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Node `i`'s choice (`None` for a part).
    pub(super) fn choice(&self, i: usize) -> Option<Choice> {
        self.nodes[i].choice
    }

    /// Node `i`'s key ([`node_key`]).
    pub(super) fn key(&self, i: usize) -> u64 {
        self.nodes[i].key
    }

    /// The key node `i` would have with `choice` and `children` children.
    #[inline]
    pub(super) fn key_with(&self, i: usize, choice: Option<Choice>, children: usize) -> u64 {
        key_from(self.nodes[i].site, choice, children)
    }

    /// How many children node `i` has.
    pub(super) fn children(&self, i: usize) -> usize {
        self.nodes[i].children
    }

    /// The path of node `i` (`i` below [`Index::len`]).
    pub(super) fn path(&self, i: usize) -> Path {
        let mut path = Path::new();
        self.path_into(i, &mut path);
        path
    }

    /// Puts the path of node `i` (`i` below [`Index::len`]) in `path`, its memory reused.
    pub(super) fn path_into(&self, i: usize, path: &mut Path) {
        path.clear();
        let mut j = i;
        while j != 0 {
            let (parent, k) = self.nodes[j].up;
            path.push(k);
            j = parent;
        }
        path.reverse();
    }

    /// Indexes the tree with node `i`'s choice set to `choice`, its key
    /// changed from `old` to `new` (as [`Index::rekey`] hashes it).
    pub(super) fn set(&mut self, i: usize, choice: Choice, old: u64, new: u64) {
        let d = new.wrapping_sub(old).wrapping_mul(self.powers[i]);
        let slot = &mut self.nodes[i];
        slot.choice = Some(choice);
        slot.key = new;
        self.choices[slot.ord] = choice;
        for later in &mut self.nodes[i + 1..] {
            later.prefix = later.prefix.wrapping_add(d);
        }
        self.hash = self.hash.wrapping_add(d);
    }

    /// `hash`, with the key of node `i` changed from `old` to `new`.
    pub(super) fn rekey(&self, hash: u64, i: usize, old: u64, new: u64) -> u64 {
        hash.wrapping_add(new.wrapping_sub(old).wrapping_mul(self.powers[i]))
    }

    /// The hash of the indexed tree with its nodes `a..b` replaced by a run
    /// of `m` nodes whose own hash (numbered from 0) is `run` (the keys of
    /// nodes before `a` as they are indexed).
    pub(super) fn splice(&self, a: usize, b: usize, run: u64, m: usize) -> u64 {
        let rest = self.hash.wrapping_sub(self.prefix(b));
        let shift = power(m as isize - (b - a) as isize);
        self.prefix(a).wrapping_add(run.wrapping_mul(self.powers[a])).wrapping_add(rest.wrapping_mul(shift))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use refgen_core::combinators::{int, vec};
    use refgen_core::interpret::generate_recorded;

    /// Trees of lists of lists, each with its index.
    fn indexed() -> Vec<(ChoiceTree, Index)> {
        let g = vec(vec(int(0u32..=9), 0..=4), 1..=4);
        (0..30)
            .map(|seed| {
                let t = generate_recorded(&g, seed).1;
                let mut ix = Index::default();
                ix.rebuild(&t);
                (t, ix)
            })
            .collect()
    }

    #[test]
    fn the_inverse_of_the_base_is_one() {
        assert_eq!(BASE.wrapping_mul(BASE_INV), 1);
        assert_eq!(power(5).wrapping_mul(power(-5)), 1);
    }

    #[test]
    fn the_index_numbers_nodes_in_pre_order_and_sums_the_hash() {
        for (t, ix) in indexed() {
            assert_eq!(ix.hash(), tree_hash(&t));
            assert_eq!(ix.len(), t.paths().len());
            for (i, path) in t.paths().iter().enumerate() {
                assert_eq!(ix.at(&t, path), Some(i));
                assert_eq!(&ix.path(i), path);
                let node = t.get(path).unwrap();
                assert_eq!((ix.choice(i), ix.children(i)), (node.choice, node.children.len()));
                assert_eq!(ix.key(i), node_key(node));
                let other = ChoiceTree { site: node.site.clone(), choice: Some(7), children: Vec::new() };
                assert_eq!(ix.key_with(i, Some(7), 0), node_key(&other));
                assert_eq!(ix.end(i) - i, hash_and_size(t.get(path).unwrap()).1);
            }
        }
    }

    #[test]
    fn a_set_choice_rekeys_one_node_and_the_index_set_in_place_follows() {
        for (t, ix) in indexed() {
            for path in t.paths() {
                let Some(c) = t.get(&path).and_then(|n| n.choice) else { continue };
                let mut set = t.clone();
                let node = set.get_mut(&path).unwrap();
                let old = node_key(node);
                node.choice = Some(c + 1);
                let new = node_key(node);
                let i = ix.at(&t, &path).unwrap();
                let hash = ix.rekey(ix.hash(), i, old, new);
                assert_eq!(hash, tree_hash(&set), "{path:?}");
                assert_ne!(hash, ix.hash());
                // The index set in place is the index of the tree with the choice set.
                let mut patched = Index::default();
                patched.rebuild(&t);
                patched.set(i, c + 1, old, new);
                let mut rebuilt = Index::default();
                rebuilt.rebuild(&set);
                assert_eq!(patched.hash(), rebuilt.hash(), "{path:?}");
                assert_eq!(patched.choices(), rebuilt.choices(), "{path:?}");
                assert_ne!(patched.choices(), ix.choices());
                for i in 0..=rebuilt.len() {
                    assert_eq!(patched.prefix(i), rebuilt.prefix(i), "{path:?} {i}");
                }
                for i in 0..rebuilt.len() {
                    assert_eq!(patched.choice(i), rebuilt.choice(i), "{path:?} {i}");
                    assert_eq!(patched.key(i), rebuilt.key(i), "{path:?} {i}");
                }
            }
        }
    }

    #[test]
    fn a_replaced_run_of_nodes_is_hashed_from_the_run_alone() {
        for (t, ix) in indexed() {
            for path in t.paths() {
                let node = t.get(&path).unwrap();
                // Each run of children deleted (the parent's count of children changed too).
                for start in 0..node.children.len() {
                    for len in 1..=node.children.len() - start {
                        let mut del = t.clone();
                        del.get_mut(&path).unwrap().children.drain(start..start + len);
                        let p = ix.at(&t, &path).unwrap();
                        let a = ix.at(&t, &[&path[..], &[start]].concat()).unwrap();
                        let b = ix.end(ix.at(&t, &[&path[..], &[start + len - 1]].concat()).unwrap());
                        let hash =
                            ix.rekey(ix.splice(a, b, 0, 0), p, node_key(node), node_key(del.get(&path).unwrap()));
                        assert_eq!(hash, tree_hash(&del), "{path:?} {start} {len}");
                    }
                }
                // The subtree replaced by another, smaller or larger.
                let i = ix.at(&t, &path).unwrap();
                for other in [ChoiceTree::choice("x", 3, Vec::new()), t.clone()] {
                    let mut edited = t.clone();
                    *edited.get_mut(&path).unwrap() = other.clone();
                    let (run, m) = hash_and_size(&other);
                    assert_eq!(ix.splice(i, ix.end(i), run, m), tree_hash(&edited), "{path:?}");
                }
            }
        }
    }

    #[test]
    fn the_hash_tells_shapes_and_orders_apart() {
        let leaf = |c| ChoiceTree::choice("x", c, Vec::new());
        let flat = ChoiceTree::root(vec![leaf(1), leaf(2)]);
        let deep = ChoiceTree::root(vec![ChoiceTree::choice("x", 1, vec![leaf(2)])]);
        let swapped = ChoiceTree::root(vec![leaf(2), leaf(1)]);
        let hashes = [tree_hash(&flat), tree_hash(&deep), tree_hash(&swapped)];
        assert!(hashes[0] != hashes[1] && hashes[0] != hashes[2] && hashes[1] != hashes[2]);
        assert_eq!(tree_hash(&flat), tree_hash(&flat.clone()));
    }
}
