//! A leftist min-heap (merge, insert, pop) with 7 mutants and 6 properties.
//!
//! Ranks (the length of the right spine) are computed, not stored, so
//! validity is heap order and the leftist condition only.

use super::bst::{gens, Key};
use super::harness::{is, prop, Prop, Workload};
use refgen::combinators::{int, vec};
use refgen::prelude::*;

/// A heap as a user would derive it, with heap order and the leftist condition as its `#[assume]`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
#[assume(is_heap(self))]
pub enum Heap {
    /// The empty heap.
    #[choice(weight = 1)]
    E,
    /// A node: left, key, right.
    #[choice(weight = 3)]
    N(Box<Heap>, Key, Box<Heap>),
}

use Heap::{E, N};

/// The rank: the length of the right spine.
pub fn rank(h: &Heap) -> usize {
    match h {
        E => 0,
        N(_, _, r) => 1 + rank(r),
    }
}

/// The number of elements.
pub fn size(h: &Heap) -> usize {
    match h {
        E => 0,
        N(l, _, r) => 1 + size(l) + size(r),
    }
}

fn root(h: &Heap) -> Option<Key> {
    match h {
        E => None,
        N(_, k, _) => Some(*k),
    }
}

/// Heap-ordered (no child's key below its parent's) and leftist (no right child of higher rank than its sibling).
pub fn is_heap(h: &Heap) -> bool {
    match h {
        E => true,
        N(l, k, r) => {
            root(l).is_none_or(|x| x >= *k)
                && root(r).is_none_or(|x| x >= *k)
                && rank(l) >= rank(r)
                && is_heap(l)
                && is_heap(r)
        }
    }
}

fn elems(h: &Heap) -> Vec<Key> {
    fn go(h: &Heap, out: &mut Vec<Key>) {
        if let N(l, k, r) = h {
            out.push(*k);
            go(l, out);
            go(r, out);
        }
    }
    let mut out = Vec::new();
    go(h, &mut out);
    out.sort();
    out
}

/// The rank `make` believes (mutant 7: the left spine's length).
fn believed_rank(h: &Heap) -> usize {
    match h {
        E => 0,
        N(l, _, r) => 1 + if is(7) { believed_rank(l) } else { believed_rank(r) },
    }
}

/// A node with the higher-ranked child on the left (mutants 1: never swaps; 2: swaps the wrong way).
fn make(k: Key, a: Heap, b: Heap) -> Heap {
    let keep = if is(1) {
        true
    } else if is(2) {
        believed_rank(&a) <= believed_rank(&b)
    } else {
        believed_rank(&a) >= believed_rank(&b)
    };
    if keep {
        N(Box::new(a), k, Box::new(b))
    } else {
        N(Box::new(b), k, Box::new(a))
    }
}

/// Merge (mutants 3: keeps the larger root on top; 5: drops one of two equal roots).
pub fn merge(a: &Heap, b: &Heap) -> Heap {
    match (a, b) {
        (E, b) => b.clone(),
        (a, E) => a.clone(),
        (N(l1, x, r1), N(l2, y, r2)) => {
            if is(5) && x == y {
                return make(*x, (**l1).clone(), merge(r1, &merge(l2, r2)));
            }
            let first = if is(3) { x >= y } else { x <= y };
            if first {
                make(*x, (**l1).clone(), merge(r1, b))
            } else {
                make(*y, (**l2).clone(), merge(a, r2))
            }
        }
    }
}

/// Insert (mutant 6: a key equal to the minimum is not added).
pub fn insert(k: Key, h: &Heap) -> Heap {
    if is(6) && root(h) == Some(k) {
        return h.clone();
    }
    merge(&N(Box::new(E), k, Box::new(E)), h)
}

/// Remove the minimum (mutant 4: the right child is lost).
pub fn pop(h: &Heap) -> Option<(Key, Heap)> {
    match h {
        E => None,
        N(l, k, r) => Some((*k, if is(4) { (**l).clone() } else { merge(l, r) })),
    }
}

fn correct_insert(k: Key, h: &Heap) -> Heap {
    fn m(a: &Heap, b: &Heap) -> Heap {
        match (a, b) {
            (E, b) => b.clone(),
            (a, E) => a.clone(),
            (N(l1, x, r1), N(l2, y, r2)) => {
                let (k, l, r) = if x <= y { (*x, (**l1).clone(), m(r1, b)) } else { (*y, (**l2).clone(), m(a, r2)) };
                if rank(&l) >= rank(&r) {
                    N(Box::new(l), k, Box::new(r))
                } else {
                    N(Box::new(r), k, Box::new(l))
                }
            }
        }
    }
    m(&N(Box::new(E), k, Box::new(E)), h)
}

/// The hand-written generator: a fold of (correct) inserts over a list of keys.
pub fn hand_heap() -> impl Gen<Value = Heap> {
    vec(int(0u8..=15), 0..=12).map(|ks| ks.into_iter().fold(E, |h, k| correct_insert(Key(k), &h)), |_: &Heap| None)
}

fn key() -> impl Gen<Value = Key> {
    int(0u8..=15).map(Key, |k: &Key| Some(k.0))
}

/// `is_heap` in the forms `#[synth]` reads: the rank (the right spine's length) and the lower
/// bound on the keys passed down, the left child's rank as alternatives (`is_heap` compares each
/// key with its children's roots and the children's ranks, computed bottom-up), with the keys'
/// range `0..=15` (`Key`'s) as the top's bounds. Ranks stop at 3: a leftist heap of rank 4 holds
/// at least 15 keys, which the hand-written generator's 12 inserts never make. The depth budget is
/// the derived type's (6).
#[synth(rank in 0..=2, lo = 0, hi = 15, depth = 6, weight("N#1" = 6, "N#2" = 2))]
pub fn heap_within(h: &Heap, rank: u8, lo: i32, hi: i32) -> bool {
    match h {
        E => rank == 0,
        N(l, Key(k), r) => {
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

gens!(d_h, h_h, s_h: Heap => hand_heap() => heap_within::generator());
gens!(d_hk, h_hk, s_hk: Heap => hand_heap() => heap_within::generator(), Key => key() => key());
gens!(d_hh, h_hh, s_hh: Heap => hand_heap() => heap_within::generator(), Heap => hand_heap() => heap_within::generator());

/// The workload.
pub fn workload() -> Workload {
    let mutants = vec![
        "make_never_swaps",
        "make_swaps_wrong_way",
        "merge_larger_root_on_top",
        "pop_loses_right",
        "merge_drops_equal_root",
        "insert_skips_equal_min",
        "rank_of_left_spine",
    ];
    #[rustfmt::skip]
    let props: Vec<Prop> = vec![
        prop("InsertValid", d_hk, h_hk, Some(s_hk), |v| size(&v.0), |(h, k)| is_heap(&insert(*k, h))),
        prop("MergeValid", d_hh, h_hh, Some(s_hh), |v| size(&v.0), |(a, b)| is_heap(&merge(a, b))),
        prop("PopValid", d_h, h_h, Some(s_h), |v| size(&v.0), |(h,)| pop(h).is_none_or(|(_, rest)| is_heap(&rest))),
        prop("InsertModel", d_hk, h_hk, Some(s_hk), |v| size(&v.0), |(h, k)| {
            let mut want = elems(h);
            want.push(*k);
            want.sort();
            elems(&insert(*k, h)) == want
        }),
        prop("MergeModel", d_hh, h_hh, Some(s_hh), |v| size(&v.0), |(a, b)| {
            let mut want = elems(a);
            want.extend(elems(b));
            want.sort();
            elems(&merge(a, b)) == want
        }),
        prop("PopModel", d_h, h_h, Some(s_h), |v| size(&v.0), |(h,)| match pop(h) {
            None => size(h) == 0,
            Some((k, rest)) => {
                let all = elems(h);
                let mut rest = elems(&rest);
                rest.insert(0, k);
                all == rest
            }
        }),
    ];
    Workload { name: "heap", mutants, props }
}
