//! Synthesized generators of the benchmark's balanced structures, each against the predicate a
//! user would write (in-order lists, heights and ranks computed bottom-up): every value made
//! satisfies it (100,000 each), and every small value it accepts is made (exhaustively).

use refgen::interpret::{check, generate, parse_tree, reflect};
use refgen::prelude::*;
use refgen::refgen_core::laws;

/// Keys of the benchmark's structures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Reflective)]
pub struct Key(#[choice(range = 0..=15)] pub u8);

// ---------------------------------------------------------------- AVL

#[derive(Debug, Clone, PartialEq)]
pub enum Avl {
    E,
    T(Box<Avl>, Key, Box<Avl>),
}

#[synth(h in 0..=5, lo = 0, hi = 15, depth = 8)]
pub fn avl_within(t: &Avl, h: u8, lo: i32, hi: i32) -> bool {
    match t {
        Avl::E => h == 0,
        Avl::T(l, Key(k), r) => {
            let k = i32::from(*k);
            h >= 1
                && lo <= k
                && k <= hi
                && ((avl_within(l, h - 1, lo, k - 1) && avl_within(r, h - 1, k + 1, hi))
                    || (h >= 2 && avl_within(l, h - 1, lo, k - 1) && avl_within(r, h - 2, k + 1, hi))
                    || (h >= 2 && avl_within(l, h - 2, lo, k - 1) && avl_within(r, h - 1, k + 1, hi)))
        }
    }
}

fn avl_keys(t: &Avl, out: &mut Vec<Key>) {
    if let Avl::T(l, k, r) = t {
        avl_keys(l, out);
        out.push(*k);
        avl_keys(r, out);
    }
}

fn balanced(t: &Avl) -> Option<usize> {
    match t {
        Avl::E => Some(0),
        Avl::T(l, _, r) => {
            let (hl, hr) = (balanced(l)?, balanced(r)?);
            (hl.abs_diff(hr) <= 1).then_some(1 + hl.max(hr))
        }
    }
}

/// The user's predicate: ordered (strictly) and balanced.
fn is_avl(t: &Avl) -> bool {
    let mut ks = Vec::new();
    avl_keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1]) && balanced(t).is_some()
}

// ---------------------------------------------------------------- red-black

#[derive(Debug, Clone, Copy, PartialEq, Eq, Reflective)]
pub enum Color {
    R,
    B,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Rbt {
    E,
    T(Color, Box<Rbt>, Key, bool, Box<Rbt>),
}

#[synth(bh in 0..=3, parent_red = true, lo = 0, hi = 15, depth = 8)]
pub fn rbt_within(t: &Rbt, bh: u8, parent_red: bool, lo: i32, hi: i32) -> bool {
    match t {
        Rbt::E => bh == 0,
        Rbt::T(c, l, Key(k), _, r) => {
            lo <= i32::from(*k)
                && i32::from(*k) <= hi
                && !(parent_red && *c == Color::R)
                && bh >= u8::from(*c == Color::B)
                && rbt_within(l, bh - u8::from(*c == Color::B), *c == Color::R, lo, i32::from(*k) - 1)
                && rbt_within(r, bh - u8::from(*c == Color::B), *c == Color::R, i32::from(*k) + 1, hi)
        }
    }
}

fn rbt_keys(t: &Rbt, out: &mut Vec<Key>) {
    if let Rbt::T(_, l, k, _, r) = t {
        rbt_keys(l, out);
        out.push(*k);
        rbt_keys(r, out);
    }
}

fn is_red(t: &Rbt) -> bool {
    matches!(t, Rbt::T(Color::R, ..))
}

fn no_red_red(t: &Rbt) -> bool {
    match t {
        Rbt::E => true,
        Rbt::T(c, l, _, _, r) => !(*c == Color::R && (is_red(l) || is_red(r))) && no_red_red(l) && no_red_red(r),
    }
}

fn black_height(t: &Rbt) -> Option<usize> {
    match t {
        Rbt::E => Some(1),
        Rbt::T(c, l, _, _, r) => {
            let (hl, hr) = (black_height(l)?, black_height(r)?);
            (hl == hr).then_some(hl + usize::from(*c == Color::B))
        }
    }
}

/// The user's predicate: ordered, no red node with a red child, one black height, a black root.
fn is_rbt(t: &Rbt) -> bool {
    let mut ks = Vec::new();
    rbt_keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1]) && no_red_red(t) && black_height(t).is_some() && !is_red(t)
}

// ---------------------------------------------------------------- leftist heap

#[derive(Debug, Clone, PartialEq)]
pub enum Heap {
    E,
    N(Box<Heap>, Key, Box<Heap>),
}

#[synth(rank in 0..=3, lo = 0, hi = 15, depth = 8, weight("N#1" = 6, "N#2" = 2))]
pub fn heap_within(h: &Heap, rank: u8, lo: i32, hi: i32) -> bool {
    match h {
        Heap::E => rank == 0,
        Heap::N(l, Key(k), r) => {
            (1..=3).contains(&rank)
                && lo <= i32::from(*k)
                && i32::from(*k) <= hi
                && heap_within(r, rank - 1, i32::from(*k), hi)
                && (heap_within(l, rank - 1, i32::from(*k), hi)
                    || heap_within(l, rank, i32::from(*k), hi)
                    || (rank < 3 && heap_within(l, rank + 1, i32::from(*k), hi))
                    || (rank < 2 && heap_within(l, rank + 2, i32::from(*k), hi)))
        }
    }
}

fn rank(h: &Heap) -> usize {
    match h {
        Heap::E => 0,
        Heap::N(_, _, r) => 1 + rank(r),
    }
}

fn root(h: &Heap) -> Option<Key> {
    match h {
        Heap::E => None,
        Heap::N(_, k, _) => Some(*k),
    }
}

/// The user's predicate: heap-ordered and leftist.
fn is_heap(h: &Heap) -> bool {
    match h {
        Heap::E => true,
        Heap::N(l, k, r) => {
            root(l).is_none_or(|x| x >= *k)
                && root(r).is_none_or(|x| x >= *k)
                && rank(l) >= rank(r)
                && is_heap(l)
                && is_heap(r)
        }
    }
}

// ---------------------------------------------------------------- laws

/// Every value `g` makes from seeds `0..n` satisfies `valid`; returns the share made (not a dead end).
fn sound<V: std::fmt::Debug>(g: &impl Gen<Value = V>, n: u64, valid: impl Fn(&V) -> bool) -> f64 {
    let mut made = 0;
    for seed in 0..n {
        if let Ok(v) = generate(g, seed) {
            assert!(valid(&v), "seed {seed}: {v:?}");
            made += 1;
        }
    }
    made as f64 / n as f64
}

/// Every small tree with keys in `0..=2` (depth at most 3).
fn small<T: Clone>(leaf: T, node: impl Fn(T, Key, T) -> Vec<T> + Copy, depth: usize) -> Vec<T> {
    let mut out = vec![leaf.clone()];
    if depth == 0 {
        return out;
    }
    let sub = small(leaf, node, depth - 1);
    for l in &sub {
        for r in &sub {
            for k in 0..=2 {
                out.extend(node(l.clone(), Key(k), r.clone()));
            }
        }
    }
    out
}

/// `check` agrees with `valid` on every value of `all`, and each accepted one reflects and parses back.
fn complete<V: std::fmt::Debug + PartialEq>(g: &impl Gen<Value = V>, all: &[V], valid: impl Fn(&V) -> bool) -> usize {
    let mut accepted = 0;
    for v in all {
        assert_eq!(check(g, v), valid(v), "{v:?}");
        if valid(v) {
            accepted += 1;
            let ways = reflect(g, v);
            assert!(!ways.is_empty(), "{v:?}");
            assert_eq!(parse_tree(g, &ways[0]).as_ref(), Ok(v));
        }
    }
    accepted
}

#[test]
fn avl_trees_made_and_accepted() {
    let g = avl_within::generator();
    // Every key leaves room for the subtrees: no dead end.
    let made = sound(&g, 100_000, is_avl);
    assert_eq!(made, 1.0);
    assert_eq!(laws::round_trip(&g, 300), 300);
    let all = small(Avl::E, |l, k, r| vec![Avl::T(Box::new(l), k, Box::new(r))], 3);
    assert!(complete(&g, &all, is_avl) > 10);
}

#[test]
fn red_black_trees_made_and_accepted() {
    let g = rbt_within::generator();
    let made = sound(&g, 100_000, is_rbt);
    assert_eq!(made, 1.0);
    assert_eq!(laws::round_trip(&g, 300), 300);
    let node = |l: Rbt, k, r: Rbt| {
        let mut out = Vec::new();
        for c in [Color::R, Color::B] {
            out.push(Rbt::T(c, Box::new(l.clone()), k, false, Box::new(r.clone())));
        }
        out
    };
    assert!(complete(&g, &small(Rbt::E, node, 3), is_rbt) > 10);
}

#[test]
fn leftist_heaps_made_and_accepted() {
    let g = heap_within::generator();
    let made = sound(&g, 100_000, is_heap);
    assert_eq!(made, 1.0);
    assert_eq!(laws::round_trip(&g, 300), 300);
    let all = small(Heap::E, |l, k, r| vec![Heap::N(Box::new(l), k, Box::new(r))], 3);
    assert!(complete(&g, &all, is_heap) > 10);
}
