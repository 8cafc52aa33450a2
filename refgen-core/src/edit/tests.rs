//! Tests of the edits: each kind applied, leaves lowered and restored, mutations drawn.

use super::*;
use crate::source::rng_from_seed;

/// `<root>(len=3 e(x=5) e(x=7) e(x=9))`, a list of three.
fn list() -> ChoiceTree {
    let e = |x| ChoiceTree::group("e", vec![ChoiceTree::choice("x", x, vec![])]);
    ChoiceTree::root(vec![ChoiceTree::choice("len", 3, vec![]), e(5), e(7), e(9)])
}

fn apply(e: Edit, t: &ChoiceTree) -> String {
    e.apply(t).map_or("none".to_owned(), |t| t.to_string())
}

/// The operators as first defined, over every path ([`choice_paths`],
/// [`partners`], [`promotions`]): the reference the indexed draws follow.
fn plain_draw(op: Mutation, tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
    match op {
        Mutation::Reroll => {
            let choices = choice_paths(tree);
            match choices.len() {
                0 => None,
                n => Some(Edit::Reroll { at: choices[rng.random_range(0..n)].clone() }),
            }
        }
        Mutation::Swap => {
            let paths = tree.paths();
            let xs: Vec<&Path> =
                paths.iter().filter(|x| !x.is_empty() && !partners(tree, &paths, x).is_empty()).collect();
            match xs.len() {
                0 => None,
                n => {
                    let x = xs[rng.random_range(0..n)].clone();
                    swap_with(tree, &paths, &x, rng)
                }
            }
        }
        Mutation::Shrink => {
            let ats: Vec<Path> = tree.paths().into_iter().filter(|at| !promotions(tree, at).is_empty()).collect();
            match ats.len() {
                0 => None,
                n => shrink_at(tree, &ats[rng.random_range(0..n)], rng),
            }
        }
    }
}

/// A random tree of three sites, choice points and groups mixed, up to `depth` deep.
fn random_tree(rng: &mut DetRng, depth: u32) -> ChoiceTree {
    let site = ["a", "b", "c"][rng.random_range(0..3)];
    let n = if depth == 0 { 0 } else { rng.random_range(0..4) };
    let children = (0..n).map(|_| random_tree(rng, depth - 1)).collect();
    if rng.random_bool(0.6) {
        ChoiceTree::choice(site, rng.random_range(0..5), children)
    } else {
        ChoiceTree::group(site, children)
    }
}

/// [`rotation`] as first defined: every rotation listed, in pre-order of
/// `P`, then of `C`, then of `B`, and one drawn from the list.
fn plain_rotation(tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
    /// The paths from `node` of its parts: the nearest choice nodes beneath it made at its site, in pre-order.
    fn parts(node: &ChoiceTree) -> Vec<Path> {
        fn walk(t: &ChoiceTree, site: &str, path: &mut Path, out: &mut Vec<Path>) {
            for (i, c) in t.children.iter().enumerate() {
                if rotate::is_aside(c) {
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
            if !rotate::is_aside(c) {
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

/// `tree` with some of its nodes (not the root) wrapped in marks or failed attempts, which rotations step over.
fn with_marks(tree: &ChoiceTree, rng: &mut DetRng) -> ChoiceTree {
    let mut t = tree.clone();
    t.children = t
        .children
        .iter()
        .map(|c| {
            let c = with_marks(c, rng);
            match rng.random_range(0..8) {
                0 => ChoiceTree::retry(vec![c]),
                1 if c.choice.is_some() => ChoiceTree::reroll(c),
                _ => c,
            }
        })
        .collect();
    t
}

/// The indexed draws are the plain definitions' draws: the same edit from the same RNG state.
#[test]
fn indexed_draws_are_the_plain_draws() {
    let mut trees = rng_from_seed(11);
    for case in 0..400 {
        let tree = ChoiceTree::root(vec![random_tree(&mut trees, 5), random_tree(&mut trees, 3)]);
        for op in Mutation::ALL {
            let (mut a, mut b) = (rng_from_seed(case), rng_from_seed(case));
            assert_eq!(op.draw(&tree, &mut a), plain_draw(op, &tree, &mut b), "{op:?} on {tree}");
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws were made");
        }
        let marked = with_marks(&tree, &mut trees);
        for t in [&tree, &marked] {
            let (mut a, mut b) = (rng_from_seed(case), rng_from_seed(case));
            assert_eq!(rotation(t, &mut a), plain_rotation(t, &mut b), "rotation of {t}");
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws were made");
        }
    }
}

/// A mutant made into a used tree (the last mutant, of another shape) is the mutant made afresh, by the
/// same draws; where none is made, neither is.
#[test]
fn a_mutant_made_into_a_used_tree_is_the_mutant_made_afresh() {
    let mut trees = rng_from_seed(12);
    let mut into = ChoiceTree::root(vec![random_tree(&mut trees, 6)]);
    let mut made = 0;
    for case in 0..300 {
        let tree = ChoiceTree::root(vec![random_tree(&mut trees, 4), random_tree(&mut trees, 2)]);
        for op in Mutation::ALL {
            let (mut a, mut b) = (rng_from_seed(case), rng_from_seed(case));
            let fresh = op.mutant(&tree, &mut a);
            let used = op.mutant_into(&tree, &mut into, &mut b);
            assert_eq!(fresh.as_ref().map(|m| m.0), used, "{op:?} on {tree}");
            if let Some((_, mutant)) = fresh {
                assert_eq!(mutant, into, "{op:?} on {tree}");
                made += 1;
            }
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws were made");
        }
    }
    assert!(made > 600, "mutants made: {made}");
}

/// A tree indexed once ([`Mutations`], [`Rotations`]) draws, again and again and by every operator in
/// turn, what the tree drawn from afresh each time draws: the same edits and mutants, from the same draws.
#[test]
fn an_index_kept_draws_what_the_tree_draws_afresh() {
    let mut trees = rng_from_seed(13);
    let (mut into, mut afresh) = (ChoiceTree::root(Vec::new()), ChoiceTree::root(Vec::new()));
    let mut drawn = 0;
    for case in 0..100 {
        let tree = ChoiceTree::root(vec![random_tree(&mut trees, 5), random_tree(&mut trees, 3)]);
        let marked = with_marks(&tree, &mut trees);
        let (mutations, rotations) = (Mutations::of(&marked), Rotations::of(&marked));
        let (mut a, mut b) = (rng_from_seed(case), rng_from_seed(case));
        for round in 0..12 {
            let op = Mutation::ALL[round % 3];
            let edit = mutations.draw(op, &mut a);
            assert_eq!(edit, op.draw(&marked, &mut b), "{op:?} on {marked}");
            let made = mutations.mutant_into(op, &marked, &mut into, &mut a);
            assert_eq!(made, op.mutant_into(&marked, &mut afresh, &mut b), "{op:?} on {marked}");
            if made.is_some() {
                assert_eq!(into, afresh, "{op:?} on {marked}");
            }
            let rotated = rotations.draw(&mut a);
            assert_eq!(rotated, rotation(&marked, &mut b), "rotation of {marked}");
            assert_eq!(rotations.is_empty(), rotated.is_none());
            drawn += usize::from(edit.is_some()) + usize::from(rotated.is_some());
        }
        assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws were made");
    }
    assert!(drawn > 1000, "edits drawn: {drawn}");
}

#[test]
fn shift_seq_and_the_edits_of_several_choices() {
    let t = list();
    // Later leaf choices down by 6: 5 stays (below 6), 7 and 9 go down.
    assert_eq!(apply(Edit::Shift { at: vec![], from: 2, by: 6 }, &t), "<root>(len=3 e(x=5) e(x=1) e(x=3))");
    assert_eq!(apply(Edit::Shift { at: vec![], from: 1, by: 10 }, &t), "none");
    assert_eq!(apply(Edit::Shift { at: vec![], from: 5, by: 1 }, &t), "none");
    // A run of elements capped, or zeroed; nothing to lower, or a run past the end, does not apply.
    assert_eq!(apply(Edit::Cap { at: vec![], start: 2, len: 2, max: 8 }, &t), "<root>(len=3 e(x=5) e(x=7) e(x=8))");
    assert_eq!(apply(Edit::Cap { at: vec![], start: 1, len: 3, max: 0 }, &t), "<root>(len=3 e(x=0) e(x=0) e(x=0))");
    assert_eq!(apply(Edit::Cap { at: vec![], start: 1, len: 1, max: 5 }, &t), "none");
    assert_eq!(apply(Edit::Cap { at: vec![], start: 3, len: 2, max: 0 }, &t), "none");
    // Two elements deleted, the length lowered, the index after them renumbered.
    assert_eq!(apply(delete_renumbered(&[], 1, 2), &t), "<root>(len=1 e(x=7))");
    // A sequence applies when each of its edits does.
    let seq = Edit::Seq(vec![Edit::Set { at: vec![0], choice: 2 }, Edit::Empty { at: vec![9] }]);
    assert_eq!(apply(seq, &t), "none");
}

#[test]
fn lowered_leaves_are_restored() {
    let t = list();
    let mut edited = t.clone();
    let mut lowered = Vec::new();
    assert!(lower_leaves(
        &mut edited.children[1..],
        |c| (c > 6).then_some(6),
        |n, node, was| {
            assert_eq!(node.choice, Some(6));
            lowered.push((n, was));
        }
    ));
    assert_eq!(edited.to_string(), "<root>(len=3 e(x=5) e(x=6) e(x=6))");
    assert_eq!(lowered, vec![(3, 7), (5, 9)]);
    restore_leaves(&mut edited.children[1..], lowered);
    assert_eq!(edited, t);
    assert!(!lower_leaves(&mut edited.children[..], |_| None, |_, _, _| ()));
}

#[test]
fn delete_with_and_without_the_length() {
    let t = list();
    assert_eq!(apply(Edit::Delete { at: vec![], start: 1, len: 2, lower_len: true }, &t), "<root>(len=1 e(x=9))");
    assert_eq!(
        apply(Edit::Delete { at: vec![], start: 2, len: 1, lower_len: false }, &t),
        "<root>(len=3 e(x=5) e(x=9))"
    );
    assert_eq!(apply(Edit::Delete { at: vec![], start: 0, len: 1, lower_len: true }, &t), "none");
    assert_eq!(apply(Edit::Delete { at: vec![], start: 3, len: 2, lower_len: false }, &t), "none");
}

#[test]
fn promote_empty_set_reroll() {
    let t = ChoiceTree::root(vec![ChoiceTree::choice(
        "t",
        1,
        vec![ChoiceTree::choice("k", 4, vec![]), ChoiceTree::choice("t", 0, vec![])],
    )]);
    let p = promotions(&t, &[0]);
    assert_eq!(p, vec![Edit::Promote { at: vec![0], from: vec![1] }]);
    assert_eq!(apply(p[0].clone(), &t), "<root>(t=0)");
    assert_eq!(apply(Edit::Empty { at: vec![0] }, &t), "<root>(t=1)");
    assert_eq!(apply(Edit::Empty { at: vec![0, 0] }, &t), "none");
    assert_eq!(apply(Edit::Set { at: vec![0, 0], choice: 2 }, &t), "<root>(t=1(k=2 t=0))");
    assert_eq!(apply(Edit::Set { at: vec![], choice: 2 }, &t), "none");
    let r = Edit::Reroll { at: vec![0, 0] }.apply(&t).unwrap();
    assert!(r.get(&[0, 0]).unwrap().is_reroll());
    assert_eq!(r.to_string(), "<root>(t=1(~(k=4) t=0))");
    assert_eq!(apply(Edit::Reroll { at: vec![] }, &t), "none");
}

#[test]
fn swap_exchange_join() {
    let t = list();
    assert_eq!(apply(Edit::Swap { at: vec![], a: 1, b: 3 }, &t), "<root>(len=3 e(x=9) e(x=7) e(x=5))");
    assert_eq!(apply(Edit::Swap { at: vec![], a: 1, b: 4 }, &t), "none");
    assert_eq!(apply(Edit::Exchange { x: vec![1, 0], y: vec![2, 0] }, &t), "<root>(len=3 e(x=7) e(x=5) e(x=9))");
    assert_eq!(apply(Edit::Exchange { x: vec![1], y: vec![1, 0] }, &t), "none");
    let inner = |n, xs: &[u64]| {
        let mut c = vec![ChoiceTree::choice("n", n, vec![])];
        c.extend(xs.iter().map(|&x| ChoiceTree::choice("x", x, vec![])));
        ChoiceTree::group("l", c)
    };
    let ll = ChoiceTree::root(vec![ChoiceTree::choice("len", 2, vec![]), inner(1, &[4]), inner(2, &[5, 6])]);
    assert!(joinable(&ll.children[1], &ll.children[2]));
    assert_eq!(apply(Edit::Join { at: vec![], a: 1 }, &ll), "<root>(len=1 l(n=3 x=4 x=5 x=6))");
    assert_eq!(apply(Edit::Join { at: vec![], a: 0 }, &ll), "none");
}

#[test]
fn raise_rebuilds_beneath_a_lowered_pick_as_large_as_it_goes() {
    use crate::combinators::{int, pick};
    use crate::gen::Gen;
    use crate::interpret::replay_lenient;
    // A pick between a wide option and a narrow one; the narrow one holds 1000 here.
    let g = pick(
        "p",
        [
            (
                "wide",
                1,
                (int(0u32..=999).site("w"), int(0u32..=9).site("v")).map(|(a, b)| a * 10 + b, |_| None).boxed(),
            ),
            ("narrow", 1, int(1000u32..=1000).site("n").boxed()),
        ],
    );
    let (_, narrow) = replay_lenient(&g, &ChoiceTree::root(vec![ChoiceTree::choice("p", 1, vec![])]), 0);
    let raised = Edit::Raise { at: vec![0], choice: 0 }.apply(&narrow).expect("a choice node");
    assert_eq!(raised.children[0].site, crate::choice::RAISE);
    let (v, used) = replay_lenient(&g, &raised, 0);
    assert_eq!(v, Ok(9999), "every choice beneath the raised pick is its largest");
    assert!(used.children.iter().all(|c| !c.is_raise()), "recorded trees hold no mark");
    // Outside the mark, a missing choice is still the first.
    let (v, _) = replay_lenient(&g, &ChoiceTree::root(vec![ChoiceTree::choice("p", 0, vec![])]), 0);
    assert_eq!(v, Ok(0));
    assert!(Edit::Raise { at: vec![], choice: 0 }.apply(&ChoiceTree::root(vec![])).is_none(), "not on a group");
}

#[test]
fn each_mutation_draws_its_own_kind_of_edit() {
    let t = list();
    let mut rng = rng_from_seed(9);
    for _ in 0..100 {
        let r = Mutation::Reroll.draw(&t, &mut rng).unwrap();
        assert!(matches!(r, Edit::Reroll { .. }) && r.apply(&t).is_some());
        let s = Mutation::Swap.draw(&t, &mut rng).unwrap();
        assert!(matches!(s, Edit::Exchange { .. }) && s.apply(&t).is_some());
    }
    // Nothing in `list()` has a descendant of its own site; a nested choice does.
    assert_eq!(Mutation::Shrink.draw(&t, &mut rng), None);
    let nested = ChoiceTree::root(vec![ChoiceTree::choice(
        "t",
        1,
        vec![ChoiceTree::choice("k", 4, vec![]), ChoiceTree::choice("t", 0, vec![])],
    )]);
    assert_eq!(Mutation::Shrink.draw(&nested, &mut rng), Some(Edit::Promote { at: vec![0], from: vec![1] }));
    // A lone choice has nothing to swap; an empty tree nothing to reroll.
    assert_eq!(Mutation::Swap.draw(&ChoiceTree::choice("x", 3, vec![]), &mut rng), None);
    assert_eq!(Mutation::Reroll.draw(&ChoiceTree::root(Vec::new()), &mut rng), None);
    assert_eq!(Mutation::ALL.map(Mutation::name), ["reroll", "swap", "shrink"]);
}

#[test]
fn insert() {
    let t = list();
    let fresh = ChoiceTree::group("e", vec![]);
    assert_eq!(
        apply(Edit::Insert { at: vec![], index: 4, node: fresh.clone() }, &t),
        "<root>(len=3 e(x=5) e(x=7) e(x=9) e)"
    );
    assert_eq!(
        apply(Edit::Insert { at: vec![1], index: 0, node: fresh.clone() }, &t),
        "<root>(len=3 e(e x=5) e(x=7) e(x=9))"
    );
    assert_eq!(apply(Edit::Insert { at: vec![], index: 5, node: fresh.clone() }, &t), "none");
    assert_eq!(apply(Edit::Insert { at: vec![7], index: 0, node: fresh }, &t), "none");
}

#[test]
fn random_edits_apply_and_are_deterministic() {
    let t = list();
    let draw = |seed| {
        let mut rng = rng_from_seed(seed);
        (0..200).map(|_| random_edit(&t, &mut rng).unwrap()).collect::<Vec<_>>()
    };
    let edits = draw(3);
    assert_eq!(edits, draw(3));
    assert!(edits.iter().all(|e| e.apply(&t).is_some()), "every random edit applies");
    let kinds = |f: fn(&Edit) -> bool| edits.iter().filter(|e| f(e)).count();
    assert!(kinds(|e| matches!(e, Edit::Reroll { .. })) > 100);
    assert!(kinds(|e| matches!(e, Edit::Exchange { .. })) > 0);
    assert!(kinds(|e| matches!(e, Edit::Delete { .. })) > 0);
    assert!(random_edit(&ChoiceTree::root(Vec::new()), &mut rng_from_seed(1)).is_none());
    // A tree that is a lone choice node can only be rerolled.
    let lone = ChoiceTree::choice("x", 3, vec![]);
    let mut rng = rng_from_seed(5);
    for _ in 0..100 {
        assert_eq!(random_edit(&lone, &mut rng), Some(Edit::Reroll { at: vec![] }));
    }
    assert_eq!(choice_paths(&t).len(), 4);
}

/// An edit of `kind` (0 to 14, one for each [`Edit`] variant) of `tree`,
/// its paths and numbers drawn so that it applies often, but not always.
fn edit_of_kind(kind: u32, tree: &ChoiceTree, rng: &mut DetRng) -> Edit {
    let paths = tree.paths();
    let mut path = || paths[rng.random_range(0..paths.len())].clone();
    let at = path();
    let y = path();
    let n = tree.get(&at).map_or(0, |t| t.children.len());
    let mut small = |hi: usize| rng.random_range(0..=hi);
    let (a, b, c) = (small(n), small(n), small(3));
    let part = vec![small(2)];
    let from = tree.get(&at).and_then(|t| t.paths().into_iter().nth(1 + small(4))).unwrap_or_default();
    match kind {
        0 => Edit::Delete { at, start: a, len: c, lower_len: c % 2 == 0 },
        1 => Edit::Promote { at, from },
        2 => Edit::Empty { at },
        3 => Edit::Set { at, choice: c as Choice },
        4 => Edit::Reroll { at },
        5 => Edit::Raise { at, choice: c as Choice },
        6 => Edit::Swap { at, a, b },
        7 => Edit::Exchange { x: at, y },
        8 => Edit::Insert { at, index: a, node: ChoiceTree::choice("b", c as Choice, vec![]) },
        9 => Edit::Shift { at, from: a, by: c as Choice },
        10 => Edit::Cap { at, start: a, len: b, max: c as Choice },
        // Among nodes with parts to join, most often the root (of the lists of lists).
        11 if c < 2 && n >= 2 => Edit::Join { at, a: a.min(n - 2) },
        11 => Edit::Join { at: vec![], a: small(4) },
        13 if c < 3 => rotation(tree, rng).unwrap_or(Edit::Rotate { at, child: from, grandchild: part }),
        13 => Edit::Rotate { at, child: from, grandchild: part },
        14 => Edit::Relabel { at },
        _ => Edit::Seq(vec![
            Edit::Set { at: y, choice: 0 },
            Edit::Delete { at: at.clone(), start: a, len: 1, lower_len: false },
            Edit::Empty { at },
        ]),
    }
}

/// Random trees, and lists of lists (whose parts [`Edit::Join`] joins).
fn law_trees() -> Vec<ChoiceTree> {
    let mut rng = rng_from_seed(11);
    let part = |k: u32| {
        let xs = (0..k).map(|x| ChoiceTree::choice("x", Choice::from(x) + 1, vec![]));
        ChoiceTree::group("part", std::iter::once(ChoiceTree::choice("len", k.into(), vec![])).chain(xs).collect())
    };
    let lists = (1..6).map(|n| {
        ChoiceTree::root([ChoiceTree::choice("n", n, vec![])].into_iter().chain((0..n as u32).map(part)).collect())
    });
    (0..200).map(|_| random_tree(&mut rng, 4)).chain(lists).chain([list()]).collect()
}

#[test]
fn an_undoable_edit_makes_the_tree_apply_makes_and_reverts_to_the_start() {
    let mut rng = rng_from_seed(7);
    let mut applied = [0; 15];
    for tree in law_trees() {
        for kind in 0..15 {
            for _ in 0..20 {
                let edit = edit_of_kind(kind, &tree, &mut rng);
                let mut t = tree.clone();
                match edit.apply_undoable(&mut t) {
                    Some(undo) => {
                        assert_eq!(Some(&t), edit.apply(&tree).as_ref(), "{edit:?} of {tree}");
                        undo.revert(&mut t);
                        assert_eq!(t, tree, "{edit:?} reverted");
                        applied[kind as usize] += 1;
                    }
                    None => {
                        assert_eq!(edit.apply(&tree), None, "{edit:?} of {tree}");
                        assert_eq!(t, tree, "{edit:?}, not applied, changed nothing");
                    }
                }
            }
        }
    }
    assert!(applied.iter().all(|&n| n > 20), "every kind applies: {applied:?}");
}

#[test]
fn a_log_of_several_edits_rewinds_to_the_start_and_is_reused() {
    let mut rng = rng_from_seed(8);
    let mut undo = Undo::new();
    for tree in law_trees() {
        let mut t = tree.clone();
        let mut expected = tree.clone();
        for _ in 0..6 {
            let edit = edit_of_kind(rng.random_range(0..15), &t, &mut rng);
            let applies = edit.apply_logged(&mut t, &mut undo);
            assert_eq!(applies, edit.apply_in_place(&mut expected), "{edit:?}");
            assert_eq!(t, expected, "{edit:?}");
        }
        undo.rewind(&mut t);
        assert_eq!(t, tree);
        assert!(undo.is_empty());
    }
    // What a forgotten log held stays made.
    let mut t = list();
    assert!(Edit::Cap { at: vec![], start: 1, len: 3, max: 6 }.apply_logged(&mut t, &mut undo));
    assert_eq!(undo.lowered(), [(3, 7), (5, 9)]);
    undo.forget();
    undo.rewind(&mut t);
    assert_eq!(t.to_string(), "<root>(len=3 e(x=5) e(x=6) e(x=6))");
}

#[test]
fn a_set_from_a_borrowed_path_is_the_set_edit_and_rewinds() {
    let mut undo = Undo::new();
    let mut made = 0;
    for tree in law_trees() {
        let mut t = tree.clone();
        for (k, path) in tree.paths().into_iter().enumerate() {
            let choice = k as Choice % 5;
            let edit = Edit::Set { at: path.clone(), choice };
            let mut expected = t.clone();
            let applies = edit.apply_in_place(&mut expected);
            assert_eq!(Edit::set_logged(&mut t, &path, choice, &mut undo), applies, "{edit:?}");
            assert_eq!(t, expected, "{edit:?}");
            made += usize::from(applies);
        }
        undo.rewind(&mut t);
        assert_eq!(t, tree);
    }
    assert!(made > 100, "sets applied: {made}");
}

/// A search tree at site `t`: `t=0` a leaf, `t=1(l(t..) k=key r(t..))` a node.
fn bst(keys: &[Choice]) -> ChoiceTree {
    fn build(keys: &[Choice]) -> ChoiceTree {
        if keys.is_empty() {
            return ChoiceTree::choice("t", 0, vec![]);
        }
        let mid = keys.len() / 2;
        ChoiceTree::choice(
            "t",
            1,
            vec![
                ChoiceTree::choice("c", keys[mid] % 2, vec![]),
                ChoiceTree::group("l", vec![build(&keys[..mid])]),
                ChoiceTree::choice("k", keys[mid], vec![]),
                ChoiceTree::group("r", vec![build(&keys[mid + 1..])]),
            ],
        )
    }
    ChoiceTree::root(vec![build(keys)])
}

/// The keys of a [`bst`] tree, in order, and its height.
fn in_order(t: &ChoiceTree) -> (Vec<Choice>, usize) {
    fn go(t: &ChoiceTree, out: &mut Vec<Choice>) -> usize {
        match t.choice {
            Some(1) => {
                let l = go(&t.children[1].children[0], out);
                out.push(t.children[2].choice.unwrap());
                let r = go(&t.children[3].children[0], out);
                1 + l.max(r)
            }
            _ => 0,
        }
    }
    let mut out = Vec::new();
    let h = go(&t.children[0], &mut out);
    (out, h)
}

#[test]
fn a_rotation_keeps_the_order_of_the_parts_and_changes_the_shape_above_them() {
    let tree = bst(&[1, 2, 3, 4, 5, 6, 7]);
    let (keys, height) = in_order(&tree);
    let mut rng = rng_from_seed(3);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..400 {
        let edit = rotation(&tree, &mut rng).expect("a tree of seven nodes rotates");
        let Edit::Rotate { at, child, grandchild } = &edit else { panic!("{edit:?}") };
        assert!(!child.is_empty() && !grandchild.is_empty());
        let rotated = edit.apply(&tree).expect("a drawn rotation applies");
        let (after, h) = in_order(&rotated);
        assert_eq!(after, keys, "{edit:?} keeps the order");
        assert_ne!(rotated, tree);
        assert!(h.abs_diff(height) == 1, "{edit:?}: one level up on one side, one down on the other");
        // The node rotated up took the place of the one rotated down, which is now beneath it.
        let top = rotated.get(at).unwrap();
        assert_eq!(top.children[2].choice, tree.get(at).unwrap().get(child).unwrap().children[2].choice);
        seen.insert(edit);
    }
    // Every (node, part, other part) triple: the root and its two children each rotate with either of
    // their two parts, through that part's part on the other side (a leaf's node has none of its own).
    assert_eq!(seen.len(), 6, "each of the six rotations is drawn: {seen:?}");
    // A leaf, or a node whose parts are leaves, has none.
    assert_eq!(rotation(&bst(&[]), &mut rng), None);
    assert_eq!(rotation(&bst(&[4]), &mut rng), None);
    // A rotation names three nodes of one site, else it does not apply.
    assert_eq!(Edit::Rotate { at: vec![0], child: vec![0], grandchild: vec![1, 0] }.apply(&tree), None);
    assert_eq!(Edit::Rotate { at: vec![0], child: vec![1, 0], grandchild: vec![] }.apply(&tree), None);
}

#[test]
fn relabel_marks_a_nodes_own_choices_and_not_its_parts() {
    let tree = bst(&[1, 2, 3]);
    let marked = Edit::Relabel { at: vec![0] }.apply(&tree).unwrap();
    // The root's colour and key are marked; its subtrees (made at its own site) are not, nor what is in them.
    assert_eq!(
        marked.to_string(),
        "<root>(t=1(<relabel>(c=0) l(t=1(c=1 l(t=0) k=1 r(t=0))) <relabel>(k=2) r(t=1(c=1 l(t=0) k=3 r(t=0)))))"
    );
    assert_eq!(own_choices(tree.get(&[0]).unwrap()), vec![vec![0], vec![2]]);
    assert_eq!(Edit::Relabel { at: vec![0, 1, 0, 1, 0] }.apply(&tree), None, "a leaf has no own choice");
}
