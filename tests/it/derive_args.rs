//! Derived generators with arguments: bounds passed down, guards, field order, ranged arguments, parts.

use refgen::interpret::{check, generate, reflect};
use refgen::prelude::*;
use refgen::refgen_core::laws;

/// A search tree whose keys lie in `lo..=hi`: the key is made first, and
/// bounds both subtrees (declared around it).
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(lo: i32 = 0, hi: i32 = 40))]
enum Bst {
    Leaf,
    #[choice(when = *lo <= *hi)]
    Node {
        #[choice(args(*lo, *key - 1))]
        left: Box<Bst>,
        #[choice(range = *lo..=*hi)]
        key: i32,
        #[choice(args(*key + 1, *hi))]
        right: Box<Bst>,
    },
}

fn within(t: &Bst, lo: i32, hi: i32) -> bool {
    match t {
        Bst::Leaf => true,
        Bst::Node { left, key, right } => {
            lo <= *key && *key <= hi && within(left, lo, *key - 1) && within(right, *key + 1, hi)
        }
    }
}

fn size(t: &Bst) -> usize {
    match t {
        Bst::Leaf => 0,
        Bst::Node { left, right, .. } => 1 + size(left) + size(right),
    }
}

fn node(l: Bst, k: i32, r: Bst) -> Bst {
    Bst::Node { left: Box::new(l), key: k, right: Box::new(r) }
}

#[test]
fn bounds_passed_down_make_only_search_trees() {
    let g = Bst::generator();
    let mut sizes = 0;
    for seed in 0..2_000 {
        let t = generate(&g, seed).expect("no condition to fail");
        assert!(within(&t, 0, 40), "seed {seed}: {t:?}");
        sizes += size(&t);
    }
    assert!(sizes > 2_000, "the trees are not all tiny: {sizes} nodes in 2,000");
    assert_eq!(laws::round_trip(&g, 300), 300);
    laws::lenient_replay(&g, 300);
    let given = Bst::generator_with((5, 9));
    assert_eq!(laws::round_trip(&given, 200), 200);
    for seed in 0..200 {
        assert!(within(&generate(&given, seed).unwrap(), 5, 9));
    }
}

#[test]
fn check_holds_a_value_to_its_arguments() {
    let t = node(node(Bst::Leaf, 3, Bst::Leaf), 7, Bst::Leaf);
    assert!(check(&Bst::generator(), &t));
    assert!(check(&Bst::generator_with((3, 7)), &t));
    assert!(!check(&Bst::generator_with((4, 7)), &t), "the key 3 is below the bound");
    assert!(!check(&Bst::generator_with((0, 6)), &t), "the key 7 is above the bound");
    let unordered = node(node(Bst::Leaf, 8, Bst::Leaf), 7, Bst::Leaf);
    assert!(!check(&Bst::generator(), &unordered));
    assert!(reflect(&Bst::generator(), &unordered).is_empty());
}

/// A chain of exactly `h` links: the guards forbid the base variant until
/// the height is spent, past the depth budget (the arguments win there).
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(h: u8 in 0..=10), depth = 3)]
enum Chain {
    #[choice(when = *h == 0)]
    End,
    #[choice(when = *h > 0)]
    Link(#[choice(args(*h - 1))] Box<Chain>),
}

fn links(c: &Chain) -> u8 {
    match c {
        Chain::End => 0,
        Chain::Link(c) => 1 + links(c),
    }
}

fn chain(n: u8) -> Chain {
    (0..n).fold(Chain::End, |c, _| Chain::Link(Box::new(c)))
}

#[test]
fn guards_offer_only_what_the_arguments_allow() {
    for h in 0..=10u8 {
        let g = Chain::generator_with(h);
        for seed in 0..20 {
            assert_eq!(links(&generate(&g, seed).unwrap()), h, "height {h}, seed {seed}");
        }
        assert!(check(&g, &chain(h)));
        assert!(!check(&g, &chain(h + 1)));
        if h > 0 {
            assert!(!check(&g, &chain(h - 1)));
        }
    }
    assert_eq!(laws::round_trip(&Chain::generator_with(6), 50), 50);
}

#[test]
fn a_ranged_argument_is_a_choice_reflected_from_the_value() {
    let g = Chain::generator();
    let mut seen = [false; 11];
    for seed in 0..300 {
        seen[links(&generate(&g, seed).unwrap()) as usize] = true;
    }
    assert!(seen.iter().all(|s| *s), "every height of 0..=10 is drawn: {seen:?}");
    for n in 0..=10 {
        assert_eq!(reflect(&g, &chain(n)).len(), 1, "one way: the height {n}, then the links");
    }
    assert!(!check(&g, &chain(11)), "outside the argument's range");
    assert_eq!(laws::round_trip(&g, 300), 300);
    laws::lenient_replay(&g, 300);
}

/// Fields made in dependency order: `end` names `start`, declared after it.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Span {
    #[choice(range = *start..=100)]
    end: u8,
    #[choice(range = 0..=60)]
    start: u8,
}

#[test]
fn a_field_is_made_after_the_fields_it_names() {
    let g = Span::generator();
    for seed in 0..500 {
        let s = generate(&g, seed).unwrap();
        assert!(s.start <= s.end && s.start <= 60, "{s:?}");
    }
    assert!(!check(&g, &Span { end: 3, start: 4 }));
    assert_eq!(laws::round_trip(&g, 300), 300);
}

/// A cell no larger than its row's width: arguments through `each` and `some`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(width: u8))]
struct Cell {
    #[choice(range = 0..=*width)]
    v: u8,
}

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Row {
    #[choice(range = 1..=5)]
    width: u8,
    #[choice(len = 0..=4, each(args(*width)))]
    cells: Vec<Cell>,
    #[choice(some(args(*width * 2)))]
    spare: Option<Cell>,
    #[choice(args(0))]
    zero: Cell,
}

#[test]
fn arguments_reach_elements_and_options() {
    let g = Row::generator();
    for seed in 0..500 {
        let r = generate(&g, seed).unwrap();
        assert!(r.cells.iter().all(|c| c.v <= r.width), "{r:?}");
        assert!(r.spare.as_ref().is_none_or(|c| c.v <= 2 * r.width), "{r:?}");
        assert_eq!(r.zero.v, 0);
    }
    let bad = Row { width: 2, cells: vec![Cell { v: 3 }], spare: None, zero: Cell { v: 0 } };
    assert!(!check(&g, &bad));
    assert_eq!(laws::round_trip(&g, 300), 300);
    laws::lenient_replay(&g, 300);
}

/// A red-black tree: colour, black height and key bounds as arguments. The
/// colours offered depend on them (a red node only under a black one, a
/// black node only where black height remains), and each choice keeps room
/// for the keys the subtrees need (a subtree of black height `c` holds at
/// least `2^c - 1` keys), so no choice leads to a dead end.
#[derive(Debug, Clone, Copy, PartialEq, Reflective)]
#[reflect(args(red: bool = true, black: bool = true))]
enum Color {
    #[choice(when = *red)]
    R,
    #[choice(when = *black)]
    B,
}

/// The fewest keys a subtree of black height `c` holds.
fn room(c: u8) -> i32 {
    (1 << c) - 1
}

/// The black height of the children of a node of `color` at black height `bh`.
fn child(bh: u8, color: Color) -> u8 {
    bh - u8::from(color == Color::B)
}

#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(bh: u8 in 0..=3, parent_red: bool = true, lo: i32 = 0, hi: i32 = 1_000))]
enum Rbt {
    #[choice(when = *bh == 0)]
    E,
    #[choice(when = *lo <= *hi && (*bh >= 1 || !*parent_red))]
    T {
        #[choice(args(!*parent_red && *hi - *lo + 1 >= 2 * room(*bh) + 1, *bh >= 1))]
        color: Color,
        #[choice(args(child(*bh, *color), *color == Color::R, *lo, *key - 1))]
        left: Box<Rbt>,
        #[choice(range = (*lo + room(child(*bh, *color)))..=(*hi - room(child(*bh, *color))))]
        key: i32,
        #[choice(args(child(*bh, *color), *color == Color::R, *key + 1, *hi))]
        right: Box<Rbt>,
    },
}

/// The black height of a valid red-black tree within the bounds, or `None`.
fn rb(t: &Rbt, parent_red: bool, lo: i32, hi: i32) -> Option<u8> {
    match t {
        Rbt::E => Some(0),
        Rbt::T { color, left, key, right } => {
            let red = *color == Color::R;
            if (parent_red && red) || *key < lo || *key > hi {
                return None;
            }
            let (l, r) = (rb(left, red, lo, *key - 1)?, rb(right, red, *key + 1, hi)?);
            (l == r).then_some(l + u8::from(!red))
        }
    }
}

#[test]
fn colours_and_black_height_as_arguments_make_red_black_trees() {
    let g = Rbt::generator();
    let mut heights = [0; 4];
    for seed in 0..2_000 {
        let t = generate(&g, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let bh = rb(&t, true, 0, 1_000).unwrap_or_else(|| panic!("seed {seed}: not a red-black tree: {t:?}"));
        heights[bh as usize] += 1;
    }
    assert!(heights.iter().all(|n| *n > 0), "every black height of 0..=3: {heights:?}");
    assert_eq!(laws::round_trip(&g, 300), 300);
    laws::lenient_replay(&g, 300);
}

#[test]
fn same_seed_same_values() {
    for seed in 0..50 {
        assert_eq!(generate(&Rbt::generator(), seed), generate(&Rbt::generator(), seed));
        assert_eq!(generate(&Bst::generator(), seed), generate(&Bst::generator(), seed));
    }
}

/// A generic type with arguments: exactly `n` items.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(args(n: usize = 2))]
struct Repeat<T> {
    #[choice(len = *n..=*n)]
    items: Vec<T>,
}

#[test]
fn a_generic_type_takes_arguments() {
    for seed in 0..50 {
        assert_eq!(generate(&Repeat::<u8>::generator(), seed).unwrap().items.len(), 2);
        assert_eq!(generate(&Repeat::<bool>::generator_with(5), seed).unwrap().items.len(), 5);
    }
    assert!(!check(&Repeat::<u8>::generator_with(1), &Repeat { items: vec![1, 2] }));
    assert_eq!(laws::round_trip(&Repeat::<u8>::generator_with(3), 100), 100);
}
