//! The state abstractions derived from the choice tree reproduce RLCheck's worked example (Fig. 2, Sec. 4.3.1).

use refgen::combinators::{int, vec};
use refgen::interpret::parse;
use refgen::refgen_runtime::guides::rl::{describe_states, Abstraction, RlConfig};
use refgen_fixtures::rlcheck::{tree_gen, Bst, MAX_DEPTH};

/// RLCheck Fig. 2: c1 = 2, c2 = True, c3 = 1, c4 = False, c5 = False,
/// c6 = True, then c7 = 3 (the right child's value), c8 = c9 = False.
const FIG2: [u64; 9] = [2, 1, 1, 0, 0, 1, 3, 0, 0];

fn states(abstraction: Abstraction) -> Vec<String> {
    let config = RlConfig::default().abstraction(abstraction).window(4);
    describe_states(&tree_gen(MAX_DEPTH), &FIG2, config).iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_choices_build_the_figure_2_tree() {
    let leaf = |v| Some(Box::new(Bst { value: v, left: None, right: None }));
    let want = Bst { value: 2, left: leaf(1), right: leaf(3) };
    assert_eq!(parse(&tree_gen(MAX_DEPTH), &FIG2), Ok(want));
    let sites: Vec<_> =
        describe_states(&tree_gen(MAX_DEPTH), &FIG2, RlConfig::default()).iter().map(|s| s.site).collect();
    assert_eq!(sites, ["value", "left", "value", "left", "right", "right", "value", "left", "right"]);
}

#[test]
fn the_state_before_c7_is_the_papers() {
    // Sec. 4.3.1, w = 4: Sequence [1, False, False, True], Tree [2, True], Tree L/R [2, R].
    assert_eq!(states(Abstraction::Sequence)[6], "[1, false, false, true]");
    assert_eq!(states(Abstraction::Tree)[6], "[2, true]");
    assert_eq!(states(Abstraction::TreeLR)[6], "[2, right=true]");
}

#[test]
fn every_state_of_the_example_is_figure_3s() {
    // Fig. 3's tree state: a node's choices see its ancestors' values and
    // branches and its own value; neither child choice sees the other.
    assert_eq!(
        states(Abstraction::TreeLR),
        [
            "[]",                 // c1: root value
            "[2]",                // c2: root has-left
            "[2, left=true]",     // c3: left child's value
            "[2, left=true, 1]",  // c4: its has-left
            "[2, left=true, 1]",  // c5: its has-right (not its has-left)
            "[2]",                // c6: root has-right (the left subtree is done)
            "[2, right=true]",    // c7: right child's value
            "[2, right=true, 3]", // c8
            "[2, right=true, 3]", // c9
        ]
    );
    // Tree: the same path, branches as their bare choice, so both children look alike.
    let tree = states(Abstraction::Tree);
    assert_eq!(tree[2], "[2, true]");
    assert_eq!(tree[2], tree[6]);
    // Sequence: just the last w choices.
    assert_eq!(states(Abstraction::Sequence)[8], "[false, true, 3, false]");
}

#[test]
fn the_window_keeps_the_newest_elements() {
    // Deep left spine: 5, 4, 3, 2, 1; the state of the deepest value keeps the last w elements.
    let choices = [5, 1, 4, 1, 3, 1, 2, 1, 1];
    let at = |w: usize| {
        let config = RlConfig::default().window(w);
        describe_states(&tree_gen(MAX_DEPTH), &choices, config)[8].to_string()
    };
    assert_eq!(at(4), "[3, left=true, 2, left=true]");
    assert_eq!(at(2), "[2, left=true]");
    assert_eq!(at(100), "[5, left=true, 4, left=true, 3, left=true, 2, left=true]");
    assert_eq!(at(0), "[]");
}

#[test]
fn sibling_picks_can_be_kept() {
    let config = RlConfig::default().sibling_picks(true);
    let s = describe_states(&tree_gen(MAX_DEPTH), &FIG2, config);
    assert_eq!(s[4].to_string(), "[2, left=true, 1, false]", "c5 now sees c4 = false");
    assert_eq!(s[6].to_string(), "[2, right=true]", "a finished subtree is still not seen");
}

#[test]
fn parts_are_branches_in_tree_lr_and_transparent_once_closed() {
    // A pair of a value and a list: fields are parts "0" and "1", elements parts "elem".
    let g = (int(0u8..=9).site("k"), vec(int(0u8..=9).site("x"), 0..=3));
    let choices = [7, 2, 4, 5];
    let lr = describe_states(&g, &choices, RlConfig::default());
    let sites: Vec<_> = lr.iter().map(|s| s.site).collect();
    assert_eq!(sites, ["k", "len", "x", "x"]);
    assert_eq!(lr[0].to_string(), "[0]");
    assert_eq!(lr[1].to_string(), "[7, 1]");
    assert_eq!(lr[2].to_string(), "[7, 1, 2, elem]");
    assert_eq!(lr[3].to_string(), "[1, 2, 4, elem]");
    let tree = describe_states(&g, &choices, RlConfig::default().abstraction(Abstraction::Tree));
    assert_eq!(tree[3].to_string(), "[7, 2, 4]");
}
