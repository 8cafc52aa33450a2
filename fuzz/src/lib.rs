//! Properties the example fuzz targets run: a binary search tree whose delete is broken only on valid trees.
//!
//! The property is written once, with `#[property]`: it runs under `cargo
//! test` (its regressions directory replays what a fuzzer found) and as the
//! fuzz targets in `fuzz_targets/`.

use refgen::prelude::*;
use serde::Deserialize;

/// A binary search tree; validity (ordered keys) is stated once. `Arbitrary`
/// too, for the baseline target `bst_delete_arbitrary`.
#[derive(Debug, Clone, PartialEq, Reflective, Deserialize, arbitrary::Arbitrary)]
#[assume(is_bst(self))]
pub enum Tree {
    /// The empty tree.
    #[choice(weight = 1)]
    Leaf,
    /// A node: left subtree, key, right subtree.
    #[choice(weight = 3)]
    Node(Box<Tree>, u8, Box<Tree>),
}

/// The node `l k r`.
pub fn node(l: Tree, k: u8, r: Tree) -> Tree {
    Tree::Node(Box::new(l), k, Box::new(r))
}

fn keys(t: &Tree, out: &mut Vec<u8>) {
    if let Tree::Node(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

/// Whether the keys are in strictly increasing order.
pub fn is_bst(t: &Tree) -> bool {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

impl Tree {
    /// The largest key.
    fn max(&self) -> Option<u8> {
        match self {
            Tree::Leaf => None,
            Tree::Node(_, k, r) => r.max().or(Some(*k)),
        }
    }

    /// Deletes `x`. The planted bug: a node with two children takes its left
    /// subtree's largest key but keeps it in the left subtree too.
    pub fn delete(&self, x: u8) -> Tree {
        match self {
            Tree::Leaf => Tree::Leaf,
            Tree::Node(l, k, r) if x < *k => Tree::Node(Box::new(l.delete(x)), *k, r.clone()),
            Tree::Node(l, k, r) if x > *k => Tree::Node(l.clone(), *k, Box::new(r.delete(x))),
            Tree::Node(l, _, r) => match (&**l, &**r) {
                (Tree::Leaf, _) => (**r).clone(),
                (_, Tree::Leaf) => (**l).clone(),
                _ => {
                    let m = l.max().unwrap_or(0);
                    Tree::Node(l.clone(), m, r.clone())
                }
            },
        }
    }
}

/// Deleting a key keeps a tree ordered: a property written once, that runs
/// under `cargo test` (ignored here, since its bug is planted; `cargo test --
/// --ignored` runs it) and as the fuzz targets `bst_delete` and
/// `bst_delete_mutate` (`fuzz_property!(refgen_fuzz::bst_delete)`), which
/// remember what they find in `fuzz/regressions`, where the test replays it.
#[property]
#[ignore = "the planted bug: it fails by design"]
pub fn bst_delete(t: Tree, x: u8) -> bool {
    is_bst(&t.delete(x))
}

#[cfg(test)]
mod tests {
    use super::{bst_delete, is_bst};
    use refgen::runner::{Origin, RunError};

    /// What CI checks after a fuzz run: the property's run (what `cargo test
    /// -- --ignored` runs) replays the fuzzer's find from the regressions
    /// directory first, and it is a tree the delete breaks.
    #[test]
    #[ignore = "needs a fuzzer's find in fuzz/regressions: run it after `cargo +nightly fuzz run bst_delete`"]
    fn the_fuzzers_find_is_replayed_first() {
        let (property, config) = bst_delete::property();
        let failure = match property.check(&config) {
            Err(RunError::Failed(f)) => f,
            other => panic!("expected the remembered failure, got {other:?}"),
        };
        let file = config.regressions.as_ref().unwrap().join("refgen_fuzz__bst_delete.json");
        assert_eq!(failure.origin, Origin::Regression(file), "{failure}");
        let (t, x) = property.value_of(&failure).expect("the failing value");
        assert!(is_bst(&t) && !is_bst(&t.delete(x)), "{failure}");
    }
}
