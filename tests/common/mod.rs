//! Types shared by the integration tests.

#![allow(dead_code)]

pub mod fixtures;
pub mod runs;

use refgen::prelude::*;

/// A binary search tree with small keys; validity is stated once. Its condition does not retry
/// (`retries = 0`): the tests of guides that share it measure them against generation that
/// discards; `tests/derive_laws.rs` tests retries.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(is_bst(self), retries = 0)]
pub enum Tree {
    #[choice(weight = 1)]
    Leaf,
    #[choice(weight = 3)]
    Node(Box<Tree>, #[choice(range = 0..=10)] u8, Box<Tree>),
}

pub fn keys(t: &Tree, out: &mut Vec<u8>) {
    if let Tree::Node(l, x, r) = t {
        keys(l, out);
        out.push(*x);
        keys(r, out);
    }
}

pub fn is_bst(t: &Tree) -> bool {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

pub fn node(l: Tree, x: u8, r: Tree) -> Tree {
    Tree::Node(Box::new(l), x, Box::new(r))
}

impl Tree {
    /// Insert a key, keeping the order.
    pub fn insert(&self, x: u8) -> Tree {
        match self {
            Tree::Leaf => node(Tree::Leaf, x, Tree::Leaf),
            Tree::Node(l, k, r) if x < *k => Tree::Node(Box::new(l.insert(x)), *k, r.clone()),
            Tree::Node(l, k, r) if x > *k => Tree::Node(l.clone(), *k, Box::new(r.insert(x))),
            t => t.clone(),
        }
    }

    /// The number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.size() + r.size(),
        }
    }
}
