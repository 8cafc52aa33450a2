//! The mutants made by more than one edit: a splice spliced again, a rotation with its nodes relabelled.

use rand::Rng;
use refgen_core::choice::ChoiceTree;
use refgen_core::edit::splice::Donors;
use refgen_core::edit::{Edit, Path, Rotations};
use refgen_core::source::DetRng;

/// A splice of `parent` (see [`Donors::splice`]), spliced again with probability one half each time, at most
/// three splices in all: two valid parts brought under one node in one step.
/// Made into `tree` (its lists of children reused); whether there was a splice.
pub(super) fn spliced(donors: &Donors, parent: &ChoiceTree, tree: &mut ChoiceTree, rng: &mut DetRng) -> bool {
    if !donors.spliced_into(parent, tree, rng) {
        return false;
    }
    for _ in 1..3 {
        if rng.random::<f64>() >= 0.5 || !donors.splice_in_place(tree, rng) {
            break;
        }
    }
    true
}

/// The chance that each of a rotation's two nodes has its own picks drawn afresh ([`Edit::Relabel`]).
const ROTATE_RELABEL: f64 = 0.75;

/// A rotation of `parent`, drawn from its `rotations` ([`refgen_core::edit::rotation`]), each of the two
/// nodes it moves relabelled with probability [`ROTATE_RELABEL`] (a red-black tree's rotation keeps its
/// heights only recoloured). Made into `tree` (its lists of children reused); whether there was one.
pub(super) fn rotated(parent: &ChoiceTree, rotations: &Rotations, tree: &mut ChoiceTree, rng: &mut DetRng) -> bool {
    let Some(Edit::Rotate { at, child, grandchild }) = rotations.draw(rng) else { return false };
    let lower: Path = at.iter().chain(&grandchild).copied().collect();
    let mut edits = vec![Edit::Rotate { at: at.clone(), child, grandchild }];
    // The lower node first: marking the upper one's own choices may move what is beneath them.
    for node in [lower, at] {
        if rng.random::<f64>() < ROTATE_RELABEL {
            edits.push(Edit::Relabel { at: node });
        }
    }
    tree.clone_from(parent);
    for edit in &edits {
        // A node with no own choice has nothing to relabel.
        edit.apply_in_place(tree);
    }
    true
}
