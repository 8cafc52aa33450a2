//! An AVL tree set (insert, delete, rotations) with 9 mutants and 7 properties.
//!
//! Heights are computed, not stored, so validity is order and balance only.
//! Several mutants need trees of 5 or more nodes to show (a delete that
//! unbalances, a rotation's choice when the heavy child is level).

use super::bst::{gens, key, Key};
use super::harness::{is, prop, Prop, Workload};
use refgen::combinators::{int, vec};
use refgen::prelude::*;

/// A tree as a user would derive it, with the AVL invariant as its `#[assume]`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
#[assume(is_avl(self))]
pub enum Avl {
    /// The empty tree.
    #[choice(weight = 1)]
    E,
    /// A node: left, key, right.
    #[choice(weight = 3)]
    T(Box<Avl>, Key, Box<Avl>),
}

use Avl::{E, T};

fn node(l: Avl, k: Key, r: Avl) -> Avl {
    T(Box::new(l), k, Box::new(r))
}

/// The height (0 for the empty tree).
pub fn height(t: &Avl) -> usize {
    match t {
        E => 0,
        T(l, _, r) => 1 + height(l).max(height(r)),
    }
}

/// The number of nodes.
pub fn size(t: &Avl) -> usize {
    match t {
        E => 0,
        T(l, _, r) => 1 + size(l) + size(r),
    }
}

fn keys(t: &Avl, out: &mut Vec<Key>) {
    if let T(l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

fn list(t: &Avl) -> Vec<Key> {
    let mut out = Vec::new();
    keys(t, &mut out);
    out
}

fn balanced(t: &Avl) -> Option<usize> {
    match t {
        E => Some(0),
        T(l, _, r) => {
            let (hl, hr) = (balanced(l)?, balanced(r)?);
            (hl.abs_diff(hr) <= 1).then_some(1 + hl.max(hr))
        }
    }
}

/// Ordered (strictly) and balanced.
pub fn is_avl(t: &Avl) -> bool {
    list(t).windows(2).all(|w| w[0] < w[1]) && balanced(t).is_some()
}

fn rot_right(t: Avl) -> Avl {
    match t {
        T(l, k, r) => match *l {
            T(ll, lk, lr) => {
                if is(2) {
                    node(*ll, lk, node(E, k, *r))
                } else {
                    node(*ll, lk, node(*lr, k, *r))
                }
            }
            E => node(E, k, *r),
        },
        E => E,
    }
}

fn rot_left(t: Avl) -> Avl {
    match t {
        T(l, k, r) => match *r {
            T(rl, rk, rr) => {
                if is(3) {
                    node(node(*rl, k, *l), rk, *rr)
                } else {
                    node(node(*l, k, *rl), rk, *rr)
                }
            }
            E => node(*l, k, E),
        },
        E => E,
    }
}

fn children(t: &Avl) -> (usize, usize) {
    match t {
        T(l, _, r) => (height(l), height(r)),
        E => (0, 0),
    }
}

/// Rebalance a node whose children differ in height by at most 2 (mutants 4, 5, 9).
fn balance(l: Avl, k: Key, r: Avl) -> Avl {
    let (hl, hr) = (height(&l), height(&r));
    let limit = if is(5) { 2 } else { 1 };
    if hl > hr + limit {
        let (ll, lr) = children(&l);
        let single = if is(9) { ll > lr } else { ll >= lr };
        if single || is(4) {
            rot_right(node(l, k, r))
        } else {
            rot_right(node(rot_left(l), k, r))
        }
    } else if hr > hl + limit {
        let (rl, rr) = children(&r);
        let single = if is(9) { rr > rl } else { rr >= rl };
        if single || is(4) {
            rot_left(node(l, k, r))
        } else {
            rot_left(node(l, k, rot_right(r)))
        }
    } else {
        node(l, k, r)
    }
}

/// Insert (mutant 1: no rebalancing after an insert on the left).
pub fn insert(x: Key, t: &Avl) -> Avl {
    match t {
        E => node(E, x, E),
        T(l, k, r) if x < *k => {
            if is(1) {
                node(insert(x, l), *k, (**r).clone())
            } else {
                balance(insert(x, l), *k, (**r).clone())
            }
        }
        T(l, k, r) if x > *k => balance((**l).clone(), *k, insert(x, r)),
        _ => t.clone(),
    }
}

fn remove_min(t: &Avl) -> Option<(Key, Avl)> {
    match t {
        E => None,
        T(l, k, r) => match remove_min(l) {
            None => Some((*k, (**r).clone())),
            Some((m, l2)) => {
                if is(8) {
                    Some((m, node(l2, *k, (**r).clone())))
                } else {
                    Some((m, balance(l2, *k, (**r).clone())))
                }
            }
        },
    }
}

/// Delete (mutants 6: no rebalancing; 7: the successor is not removed; 8: `remove_min` does not rebalance).
pub fn delete(x: Key, t: &Avl) -> Avl {
    match t {
        E => E,
        T(l, k, r) => {
            let rebuild = |l: Avl, r: Avl| if is(6) { node(l, *k, r) } else { balance(l, *k, r) };
            if x < *k {
                rebuild(delete(x, l), (**r).clone())
            } else if x > *k {
                rebuild((**l).clone(), delete(x, r))
            } else {
                match remove_min(r) {
                    None => (**l).clone(),
                    Some((m, r2)) => {
                        if is(7) {
                            balance((**l).clone(), m, (**r).clone())
                        } else {
                            balance((**l).clone(), m, r2)
                        }
                    }
                }
            }
        }
    }
}

fn member(x: Key, t: &Avl) -> bool {
    list(t).contains(&x)
}

fn correct_insert(x: Key, t: &Avl) -> Avl {
    fn h(t: &Avl) -> usize {
        height(t)
    }
    fn rr(t: Avl) -> Avl {
        let T(l, k, r) = t else { return t };
        let T(ll, lk, lr) = *l else { return node(E, k, *r) };
        node(*ll, lk, node(*lr, k, *r))
    }
    fn rl(t: Avl) -> Avl {
        let T(l, k, r) = t else { return t };
        let T(rl, rk, rr) = *r else { return node(*l, k, E) };
        node(node(*l, k, *rl), rk, *rr)
    }
    fn bal(l: Avl, k: Key, r: Avl) -> Avl {
        let (hl, hr) = (h(&l), h(&r));
        if hl > hr + 1 {
            let (a, b) = children(&l);
            if a >= b {
                rr(node(l, k, r))
            } else {
                rr(node(rl(l), k, r))
            }
        } else if hr > hl + 1 {
            let (a, b) = children(&r);
            if b >= a {
                rl(node(l, k, r))
            } else {
                rl(node(l, k, rr(r)))
            }
        } else {
            node(l, k, r)
        }
    }
    match t {
        E => node(E, x, E),
        T(l, k, r) if x < *k => bal(correct_insert(x, l), *k, (**r).clone()),
        T(l, k, r) if x > *k => bal((**l).clone(), *k, correct_insert(x, r)),
        _ => t.clone(),
    }
}

/// The hand-written generator: a fold of (correct) inserts over a list of keys.
pub fn hand_tree() -> impl Gen<Value = Avl> {
    vec(int(0u8..=15), 0..=12).map(
        |ks| ks.into_iter().fold(E, |t, k| correct_insert(Key(k), &t)),
        |t: &Avl| {
            // Inserting the keys level by level builds the same tree again.
            let mut out = Vec::new();
            let mut level = vec![t];
            while !level.is_empty() {
                let mut next = Vec::new();
                for n in level {
                    if let T(l, k, r) = n {
                        out.push(k.0);
                        next.push(&**l);
                        next.push(&**r);
                    }
                }
                level = next;
            }
            Some(out)
        },
    )
}

/// `is_avl` in the forms `#[synth]` reads: the height and the bounds on the keys passed down, a
/// node's three legal shapes as alternatives (`is_avl` computes the height bottom-up, `balanced`,
/// and checks the order on the in-order list), with the keys' range `0..=15` (`Key`'s) as the
/// top's bounds. (A key that leaves a side too few keys for its subtree's height is never chosen:
/// the generator asks whether each subtree can be completed.)
#[synth(h in 0..=5, lo = 0, hi = 15, depth = 8)]
pub fn avl_within(t: &Avl, h: u8, lo: i32, hi: i32) -> bool {
    match t {
        E => h == 0,
        T(l, Key(k), r) => {
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

gens!(d_tk, h_tk, s_tk: Avl => hand_tree() => avl_within::generator(), Key => key() => key());
gens!(d_tkk, h_tkk, s_tkk: Avl => hand_tree() => avl_within::generator(), Key => key() => key(), Key => key() => key());

fn sorted_with(t: &Avl, k: Key) -> Vec<Key> {
    let mut xs = list(t);
    if let Err(at) = xs.binary_search(&k) {
        xs.insert(at, k);
    }
    xs
}

/// The workload.
pub fn workload() -> Workload {
    let mutants = vec![
        "insert_no_rebalance_left",
        "rotate_right_drops_subtree",
        "rotate_left_swaps_subtrees",
        "balance_single_rotations_only",
        "balance_off_by_one",
        "delete_no_rebalance",
        "delete_keeps_successor",
        "remove_min_no_rebalance",
        "balance_double_when_level",
    ];
    #[rustfmt::skip]
    let props: Vec<Prop> = vec![
        prop("InsertValid", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| is_avl(&insert(*k, t))),
        prop("DeleteValid", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| is_avl(&delete(*k, t))),
        prop("InsertPost", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| {
            member(*k2, &insert(*k, t)) == (k == k2 || member(*k2, t))
        }),
        prop("DeletePost", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| {
            member(*k2, &delete(*k, t)) == (k != k2 && member(*k2, t))
        }),
        prop("InsertModel", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| list(&insert(*k, t)) == sorted_with(t, *k)),
        prop("DeleteModel", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| {
            list(&delete(*k, t)) == list(t).into_iter().filter(|x| x != k).collect::<Vec<_>>()
        }),
        prop("DeleteDelete", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| {
            let (a, b) = (delete(*k, &delete(*k2, t)), delete(*k2, &delete(*k, t)));
            list(&a) == list(&b) && is_avl(&a) == is_avl(&b)
        }),
    ];
    Workload { name: "avl", mutants, props }
}
