//! The README's first example, as a user writes it: a derived type with a
//! validity condition, and properties over it run by `cargo test`.

use refgen::interpret::{check, generate_recorded, parse_tree, reflect};
use refgen::prelude::*;
use refgen::refgen_core::Stop;
use refgen::runner::RunError;

// The derived tree of the README, with `is_bst` and `insert`, lives in `refgen_fixtures::bst`:
//
//     #[derive(Debug, Clone, PartialEq, Reflective)]
//     #[assume(is_bst(self))]
//     enum Tree {
//         #[choice(weight = 1)] Leaf,
//         #[choice(weight = 3)] Node(Box<Tree>, #[choice(range = 0..=10)] u8, Box<Tree>),
//     }
use refgen_fixtures::bst::{is_bst, Tree};

#[property(cases = 2_000, guide = rl)]
fn insert_keeps_bst(t: Tree, x: u8) {
    assert!(is_bst(&t.insert(x)));
}

#[property(cases = 500)]
fn insert_keeps_bst_random(t: Tree, x: u8) {
    assert!(is_bst(&t.insert(x)));
}

#[test]
fn the_derived_generator_is_reflective() {
    let g = Tree::generator();
    let mut valid = 0;
    for seed in 0..300 {
        let (v, tree) = generate_recorded(&g, seed);
        match v {
            Ok(t) => {
                valid += 1;
                assert!(is_bst(&t));
                assert_eq!(parse_tree(&g, &tree).unwrap(), t);
                assert!(reflect(&g, &t).contains(&tree));
            }
            Err(stop) => assert_eq!(stop, Stop::Invalid, "only the validity condition rejects"),
        }
    }
    assert!(valid > 0);
    let not_bst =
        Tree::Node(Box::new(Tree::Node(Box::new(Tree::Leaf), 5, Box::new(Tree::Leaf))), 3, Box::new(Tree::Leaf));
    assert!(!check(&g, &not_bst));
}

#[test]
fn a_failing_property_over_the_derived_type_shrinks_to_the_smallest_tree() {
    // "Every BST has fewer than 2 nodes" fails; the smallest counterexample has 2 nodes.
    let prop = Property::new(Tree::generator, |t: Tree| t.size() < 2);
    let failure = match prop.check(&Config::new("design_example::small").cases(1_000).seed(3).no_timeout()) {
        Err(RunError::Failed(f)) => f,
        other => panic!("expected a failure, got {other:?}"),
    };
    let t = parse_tree(&Tree::generator(), &failure.tree).unwrap();
    assert_eq!(t.size(), 2, "{t:?}");
    assert!(is_bst(&t));
}
