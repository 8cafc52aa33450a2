//! Generators synthesized from validity predicates: soundness, completeness on small sizes, laws.

use refgen::interpret::{check, generate};
use refgen::prelude::*;
use refgen::refgen_core::laws;

#[derive(Debug, Clone, PartialEq)]
pub enum Tree {
    Leaf,
    Node(Box<Tree>, i32, bool, Box<Tree>),
}

use Tree::{Leaf, Node};

/// A search tree with keys in `lo..=hi`.
#[synth(lo = 0, hi = 30, weight(Node = 3))]
pub fn bst(t: &Tree, lo: i32, hi: i32) -> bool {
    match t {
        Leaf => true,
        Node(l, k, _, r) => lo <= *k && *k <= hi && bst(l, lo, *k - 1) && bst(r, *k + 1, hi),
    }
}

#[test]
fn a_search_tree_from_its_predicate() {
    let g = bst::generator();
    for seed in 0..2_000 {
        let t = generate(&g, seed).unwrap();
        assert!(bst(&t, 0, 30), "seed {seed}: {t:?}");
    }
    assert_eq!(laws::round_trip(&g, 300), 300);
    laws::lenient_replay(&g, 300);
    let t = Node(Box::new(Leaf), 40, true, Box::new(Leaf));
    assert!(!check(&g, &t));
    assert!(check(&bst::with(0, 50), &t));
    assert!(bst::FILTERED.is_empty(), "{:?}", bst::FILTERED);
}

/// Every tree of keys in `0..=k_hi` and depth at most `d` (values `false`).
fn all_trees(d: usize, k_hi: i32) -> Vec<Tree> {
    let mut out = vec![Leaf];
    if d == 0 {
        return out;
    }
    let sub = all_trees(d - 1, k_hi);
    for l in &sub {
        for r in &sub {
            for k in 0..=k_hi {
                out.push(Node(Box::new(l.clone()), k, false, Box::new(r.clone())));
            }
        }
    }
    out
}

#[test]
fn the_generator_makes_exactly_the_values_the_predicate_accepts() {
    // Every tree of depth 3 over keys 0..=2: `check` agrees with the predicate,
    // and every accepted tree reflects and parses back.
    let g = bst::with(0, 2);
    let trees = all_trees(3, 2);
    let mut accepted = 0;
    for t in &trees {
        assert_eq!(check(&g, t), bst(t, 0, 2), "{t:?}");
        if bst(t, 0, 2) {
            accepted += 1;
            let ways = refgen::interpret::reflect(&g, t);
            assert_eq!(ways.len(), 1, "one way to make {t:?}");
            assert_eq!(refgen::interpret::parse_tree(&g, &ways[0]).as_ref(), Ok(t));
        }
    }
    // The search trees of each subset of {0, 1, 2}: 1 + 3 * 1 + 3 * 2 + 5.
    assert_eq!(accepted, 15, "of {} trees", trees.len());
}

#[test]
fn a_shrunk_counterexample_satisfies_the_predicate() {
    let p = Property::new(bst::generator, |t: Tree| {
        fn size(t: &Tree) -> usize {
            match t {
                Leaf => 0,
                Node(l, _, _, r) => 1 + size(l) + size(r),
            }
        }
        assert!(size(&t) < 3, "three nodes");
    });
    for seed in 0..5 {
        let f = refgen_fixtures::runs::failure(p.check(&Config::new("bst_shrink").seed(seed).no_regressions()));
        let t = p.value_of(&f).expect("the typed counterexample");
        assert!(bst(&t, 0, 30), "seed {seed}: {t:?}");
    }
}

/// A red-black tree: black height, the parent's colour and key bounds as
/// arguments; the colour is a finite field the predicate only checks, drawn
/// among the colours that pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflective)]
pub enum Color {
    R,
    B,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Rbt {
    E,
    T(Color, Box<Rbt>, i32, Box<Rbt>),
}

#[synth(bh in 0..=3, parent_red = true, lo = 0, hi = 1_000)]
pub fn rb(t: &Rbt, bh: u8, parent_red: bool, lo: i32, hi: i32) -> bool {
    match t {
        Rbt::E => bh == 0,
        Rbt::T(c, l, k, r) => {
            lo <= *k
                && *k <= hi
                && !(parent_red && *c == Color::R)
                && bh >= u8::from(*c == Color::B)
                && rb(l, bh - u8::from(*c == Color::B), *c == Color::R, lo, *k - 1)
                && rb(r, bh - u8::from(*c == Color::B), *c == Color::R, *k + 1, hi)
        }
    }
}

#[test]
fn a_red_black_tree_from_its_predicate() {
    let g = rb::generator();
    let mut heights = [0; 4];
    for seed in 0..2_000 {
        let t = generate(&g, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let bh = (0..=3).find(|&bh| rb(&t, bh, true, 0, 1_000));
        heights[bh.unwrap_or_else(|| panic!("seed {seed}: not a red-black tree: {t:?}")) as usize] += 1;
    }
    assert!(heights.iter().all(|n| *n > 0), "every black height: {heights:?}");
    assert_eq!(laws::round_trip(&g, 200), 200);
    laws::lenient_replay(&g, 200);
    assert_eq!(rb::FILTERED.len(), 2, "the colour's two conditions are checked: {:?}", rb::FILTERED);
}

/// An AVL tree whose height is an argument, its three shapes a disjunction.
#[derive(Debug, Clone, PartialEq)]
pub enum Avl {
    Leaf,
    Node(Box<Avl>, u8, Box<Avl>),
}

#[synth(h in 0..=4)]
pub fn avl(t: &Avl, h: u8) -> bool {
    match t {
        Avl::Leaf => h == 0,
        Avl::Node(l, _, r) => {
            h >= 1
                && ((avl(l, h - 1) && avl(r, h - 1))
                    || (h >= 2 && avl(l, h - 1) && avl(r, h - 2))
                    || (h >= 2 && avl(l, h - 2) && avl(r, h - 1)))
        }
    }
}

fn height(t: &Avl) -> u8 {
    match t {
        Avl::Leaf => 0,
        Avl::Node(l, _, r) => 1 + height(l).max(height(r)),
    }
}

#[test]
fn a_balanced_tree_from_its_predicate() {
    let g = avl::generator();
    let mut seen = [0; 5];
    for seed in 0..1_000 {
        let t = generate(&g, seed).unwrap();
        let h = height(&t);
        assert!(avl(&t, h), "seed {seed}: {t:?}");
        seen[h as usize] += 1;
    }
    assert!(seen.iter().all(|n| *n > 0), "every height: {seen:?}");
    assert_eq!(laws::round_trip(&g, 200), 200);
    laws::lenient_replay(&g, 200);
}

/// A type whose generator is a synthesized one: `#[reflect(with = ...)]`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(with = sorted::generator())]
#[assume(sorted(self, 0))]
pub enum Sorted {
    Nil,
    Cons(u8, Box<Sorted>),
}

/// A list whose elements never go down, each at least `lo`.
#[synth(lo = 0, weight(Cons = 4))]
pub fn sorted(s: &Sorted, lo: u8) -> bool {
    match s {
        Sorted::Nil => true,
        Sorted::Cons(x, rest) => lo <= *x && sorted(rest, *x),
    }
}

#[test]
fn a_type_takes_its_generator_from_a_predicate() {
    let g = Sorted::generator();
    let mut long = 0;
    for seed in 0..1_000 {
        let mut s = &generate(&g, seed).unwrap();
        let mut prev = 0;
        let mut len = 0;
        while let Sorted::Cons(x, rest) = s {
            assert!(prev <= *x);
            (prev, s, len) = (*x, rest, len + 1);
        }
        long += usize::from(len >= 3);
    }
    assert!(long > 300, "{long} of 1,000 lists of 3 or more");
    assert!(!check(&g, &Sorted::Cons(3, Box::new(Sorted::Cons(2, Box::new(Sorted::Nil))))));
    assert_eq!(laws::round_trip(&g, 300), 300);
}

/// The README's example: the tree of the first property, a `let` in an arm, keys compared as `i16`.
#[derive(Debug, Clone, PartialEq)]
pub enum Small {
    Leaf,
    Node(Box<Small>, u8, Box<Small>),
}

#[synth(lo = 0, hi = 10)]
pub fn small_bst(t: &Small, lo: i16, hi: i16) -> bool {
    match t {
        Small::Leaf => true,
        Small::Node(l, k, r) => {
            let k = i16::from(*k);
            lo <= k && k <= hi && small_bst(l, lo, k - 1) && small_bst(r, k + 1, hi)
        }
    }
}

#[test]
fn an_arm_with_lets_reads_as_its_condition() {
    assert!(small_bst::FILTERED.is_empty(), "{:?}", small_bst::FILTERED);
    let g = small_bst::generator();
    for seed in 0..1_000 {
        let t = generate(&g, seed).unwrap();
        assert!(small_bst(&t, 0, 10), "{t:?}");
    }
    assert_eq!(laws::round_trip(&g, 200), 200);
}

/// A struct's predicate, in each of the forms besides `match`.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    pub lo: u8,
    pub hi: u8,
}

#[synth]
pub fn ordered(i: &Interval) -> bool {
    let Interval { lo, hi } = i;
    lo <= hi
}

#[synth]
pub fn wide(i: &Interval) -> bool {
    matches!(i, Interval { lo, hi } if *lo < 100 && *lo + 10 <= *hi)
}

/// A shape: only its boxes are narrow.
#[derive(Debug, Clone, PartialEq)]
pub enum Shape {
    Dot,
    Box2(u8, u8),
}

#[synth]
pub fn narrow(s: &Shape) -> bool {
    if let Shape::Box2(lo, hi) = s {
        *lo <= *hi && *hi <= *lo + 2 && *lo < 200
    } else {
        false
    }
}

#[test]
fn destructuring_matches_and_if_let_read_as_one_arm() {
    let g = narrow::generator();
    for seed in 0..1_000 {
        let s = generate(&g, seed).unwrap();
        assert!(narrow(&s), "seed {seed}: {s:?}");
    }
    assert_eq!(laws::round_trip(&g, 200), 200);
    assert!(!check(&g, &Shape::Dot));
    for (name, g, p) in [
        ("ordered", ordered::generator().boxed(), ordered as fn(&Interval) -> bool),
        ("wide", wide::generator().boxed(), wide),
    ] {
        for seed in 0..1_000 {
            let i = generate(&g, seed).unwrap_or_else(|e| panic!("{name}, seed {seed}: {e}"));
            assert!(p(&i), "{name}, seed {seed}: {i:?}");
        }
        assert_eq!(laws::round_trip(&g, 200), 200, "{name}");
    }
    assert!(ordered::FILTERED.is_empty() && wide::FILTERED.is_empty() && narrow::FILTERED.is_empty());
    assert!(!check(&wide::generator(), &Interval { lo: 5, hi: 9 }));
}

/// Parts compared to each other without dereferencing, one computed from another.
#[derive(Debug, Clone, PartialEq)]
pub struct Twins {
    pub a: u16,
    pub b: u16,
    pub name: String,
    pub copy: String,
}

#[synth]
pub fn twins(t: &Twins) -> bool {
    let Twins { a, b, name, copy } = t;
    a == b && copy == name
}

#[test]
fn a_part_equal_to_another_is_a_copy() {
    let g = twins::generator();
    for seed in 0..300 {
        let t = generate(&g, seed).unwrap();
        assert!(t.a == t.b && t.name == t.copy, "{t:?}");
    }
    assert!(twins::FILTERED.is_empty(), "{:?}", twins::FILTERED);
    assert_eq!(laws::round_trip(&g, 100), 100);
}

/// A variable of a typed language: an index into the context whose type is the one wanted.
#[derive(Debug, Clone, PartialEq)]
pub struct Var(pub u8);

#[synth(ctx = vec![0, 1, 1, 2], want = 1)]
pub fn var_of(v: &Var, ctx: Vec<u8>, want: u8) -> bool {
    let Var(i) = v;
    (*i as usize) < ctx.len() && ctx[*i as usize] == want
}

#[test]
fn an_integer_part_in_a_small_range_is_drawn_among_the_values_that_pass() {
    let g = var_of::generator();
    let mut seen = [0; 4];
    for seed in 0..400 {
        let v = generate(&g, seed).unwrap();
        assert!(var_of(&v, vec![0, 1, 1, 2], 1), "{v:?}");
        seen[v.0 as usize] += 1;
    }
    assert!(seen[1] > 150 && seen[2] > 150 && seen[0] + seen[3] == 0, "{seen:?}");
    assert_eq!(laws::round_trip(&g, 100), 100);
    assert!(!check(&g, &Var(3)));
    // No index has the type: no value, at once.
    assert!(generate(&var_of::with(vec![0, 0], 1), 1).is_err());
    assert_eq!(var_of::FILTERED.len(), 1, "{:?}", var_of::FILTERED);
}

/// Two runs, each made by another synthesized predicate (`uses`).
#[derive(Debug, Clone, PartialEq)]
pub struct TwoRuns {
    pub low: Box<Sorted>,
    pub high: Sorted,
}

#[synth(uses(sorted))]
pub fn two_runs(t: &TwoRuns) -> bool {
    let TwoRuns { low, high } = t;
    sorted(low, 0) && sorted(high, 100)
}

#[test]
fn a_part_is_made_by_another_synthesized_predicate() {
    assert!(two_runs::FILTERED.is_empty(), "{:?}", two_runs::FILTERED);
    let g = two_runs::generator();
    for seed in 0..500 {
        let t = generate(&g, seed).unwrap();
        assert!(two_runs(&t), "{t:?}");
    }
    assert_eq!(laws::round_trip(&g, 200), 200);
    let bad = TwoRuns { low: Box::new(Sorted::Nil), high: Sorted::Cons(3, Box::new(Sorted::Nil)) };
    assert!(!check(&g, &bad));
}

/// Parts of an ordered type that is not an integer, compared directly: made by their type's own
/// generator and checked against their bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Reflective)]
pub struct Name(#[choice(range = 0..=20)] pub u8);

#[derive(Debug, Clone, PartialEq)]
pub enum NameTree {
    Leaf,
    Node(Box<NameTree>, Name, Box<NameTree>),
}

#[synth(lo = Name(0), hi = Name(20))]
pub fn names_in(t: &NameTree, lo: Name, hi: Name) -> bool {
    match t {
        NameTree::Leaf => true,
        NameTree::Node(l, k, r) => lo <= *k && *k <= hi && names_in(l, lo, *k) && names_in(r, *k, hi),
    }
}

#[test]
fn an_ordered_part_of_another_type_is_checked_against_its_bounds() {
    let g = names_in::generator();
    let mut made = 0;
    for seed in 0..500 {
        if let Ok(t) = generate(&g, seed) {
            assert!(names_in(&t, Name(0), Name(20)), "{t:?}");
            made += 1;
        }
    }
    assert!(made > 400, "{made} of 500");
    let bad = NameTree::Node(Box::new(NameTree::Leaf), Name(21), Box::new(NameTree::Leaf));
    assert!(!check(&g, &bad));
    assert!(check(&g, &NameTree::Node(Box::new(NameTree::Leaf), Name(7), Box::new(NameTree::Leaf))));
}
