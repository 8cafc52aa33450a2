//! Etna's BST workload: a search tree map (insert, delete, union) with its 8 mutants and 18 properties.
//!
//! The implementation, mutants and properties follow the BST workload of
//! "Etna: An Evaluation Platform for Property-Based Testing" (Shi, Keles,
//! Goldstein, Pierce, Lampropoulos), itself from "How to Specify It" (Hughes):
//! keys are small integers, values booleans.

use super::harness::{is, prop, Prop, Workload};
use refgen::combinators::{bool as any_bool, int, vec};
use refgen::prelude::*;

/// A key, `0..=15`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Reflective)]
pub struct Key(#[choice(range = 0..=15)] pub u8);

/// A search tree map from keys to booleans, as a user would derive it:
/// nodes three times as likely as leaves, every subtree a search tree.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
#[assume(is_bst(self))]
pub enum Tree {
    /// The empty tree.
    #[choice(weight = 1)]
    E,
    /// A node: left, key, value, right.
    #[choice(weight = 3)]
    T(Box<Tree>, Key, bool, Box<Tree>),
}

use Tree::{E, T};

fn node(l: Tree, k: Key, v: bool, r: Tree) -> Tree {
    T(Box::new(l), k, v, Box::new(r))
}

/// The entries in key order.
pub fn to_list(t: &Tree, out: &mut Vec<(Key, bool)>) {
    if let T(l, k, v, r) = t {
        to_list(l, out);
        out.push((*k, *v));
        to_list(r, out);
    }
}

fn list(t: &Tree) -> Vec<(Key, bool)> {
    let mut out = Vec::new();
    to_list(t, &mut out);
    out
}

/// The number of entries.
pub fn size(t: &Tree) -> usize {
    match t {
        E => 0,
        T(l, _, _, r) => 1 + size(l) + size(r),
    }
}

/// Whether the keys are strictly increasing in order.
pub fn is_bst(t: &Tree) -> bool {
    list(t).windows(2).all(|w| w[0].0 < w[1].0)
}

/// Insert (mutants 1, 2, 3).
pub fn insert(k: Key, v: bool, t: &Tree) -> Tree {
    match t {
        E => node(E, k, v, E),
        T(l, k2, v2, r) => {
            if is(1) {
                node(E, k, v, E)
            } else if is(2) {
                if k < *k2 {
                    node(insert(k, v, l), *k2, *v2, (**r).clone())
                } else {
                    node((**l).clone(), *k2, v, (**r).clone())
                }
            } else if k < *k2 {
                node(insert(k, v, l), *k2, *v2, (**r).clone())
            } else if k > *k2 {
                node((**l).clone(), *k2, *v2, insert(k, v, r))
            } else if is(3) {
                t.clone()
            } else {
                node((**l).clone(), *k2, v, (**r).clone())
            }
        }
    }
}

/// Delete (mutants 4, 5).
pub fn delete(k: Key, t: &Tree) -> Tree {
    match t {
        E => E,
        T(l, k2, v2, r) => {
            if is(4) {
                if k < *k2 {
                    return delete(k, l);
                } else if k > *k2 {
                    return delete(k, r);
                }
            } else if is(5) {
                if k > *k2 {
                    return node(delete(k, l), *k2, *v2, (**r).clone());
                } else if k < *k2 {
                    return node((**l).clone(), *k2, *v2, delete(k, r));
                }
            } else if k < *k2 {
                return node(delete(k, l), *k2, *v2, (**r).clone());
            } else if k > *k2 {
                return node((**l).clone(), *k2, *v2, delete(k, r));
            }
            join(l, r)
        }
    }
}

fn join(l: &Tree, r: &Tree) -> Tree {
    match (l, r) {
        (E, r) => r.clone(),
        (l, E) => l.clone(),
        (T(l1, k1, v1, r1), T(l2, k2, v2, r2)) => {
            node((**l1).clone(), *k1, *v1, node(join(r1, l2), *k2, *v2, (**r2).clone()))
        }
    }
}

fn below(k: Key, t: &Tree) -> Tree {
    match t {
        E => E,
        T(l, k2, v, r) => {
            if k <= *k2 {
                below(k, l)
            } else {
                node((**l).clone(), *k2, *v, below(k, r))
            }
        }
    }
}

fn above(k: Key, t: &Tree) -> Tree {
    match t {
        E => E,
        T(l, k2, v, r) => {
            if k >= *k2 {
                above(k, r)
            } else {
                node(above(k, l), *k2, *v, (**r).clone())
            }
        }
    }
}

/// Union, left-biased (mutants 6, 7, 8).
pub fn union(a: &Tree, b: &Tree) -> Tree {
    match (a, b) {
        (E, r) => r.clone(),
        (l, E) => l.clone(),
        (T(l, k, v, r), T(l2, k2, v2, r2)) => {
            if is(6) {
                node((**l).clone(), *k, *v, node(union(r, l2), *k2, *v2, (**r2).clone()))
            } else if is(7) || is(8) {
                if k == k2 {
                    node(union(l, l2), *k, *v, union(r, r2))
                } else if k < k2 {
                    if is(7) {
                        node((**l).clone(), *k, *v, node(union(r, l2), *k2, *v2, (**r2).clone()))
                    } else {
                        node(union(l, &below(*k, l2)), *k, *v, union(r, &node(above(*k, l2), *k2, *v2, (**r2).clone())))
                    }
                } else {
                    union(b, a)
                }
            } else {
                node(union(l, &below(*k, b)), *k, *v, union(r, &above(*k, b)))
            }
        }
    }
}

fn find(k: Key, t: &Tree) -> Option<bool> {
    match t {
        E => None,
        T(l, k2, v, r) => {
            if k < *k2 {
                find(k, l)
            } else if k > *k2 {
                find(k, r)
            } else {
                Some(*v)
            }
        }
    }
}

fn same(a: &Tree, b: &Tree) -> bool {
    list(a) == list(b)
}

fn model_insert(k: Key, v: bool, t: &Tree) -> Vec<(Key, bool)> {
    let mut xs: Vec<(Key, bool)> = list(t).into_iter().filter(|e| e.0 != k).collect();
    let at = xs.partition_point(|e| *e < (k, v));
    xs.insert(at, (k, v));
    xs
}

// ---------------------------------------------------------------- generators

/// `is_bst` in the forms `#[synth]` reads: the bounds on the keys passed down (`is_bst` says the
/// same of the in-order list: `list(t).windows(2).all(|w| w[0].0 < w[1].0)`), with the keys'
/// range `0..=15` (`Key`'s) as the top's bounds.
#[synth(lo = 0, hi = 15, weight(T = 3), depth = 6)]
pub fn bst_within(t: &Tree, lo: i32, hi: i32) -> bool {
    match t {
        E => true,
        T(l, Key(k), _, r) => {
            lo <= i32::from(*k)
                && i32::from(*k) <= hi
                && bst_within(l, lo, i32::from(*k) - 1)
                && bst_within(r, i32::from(*k) + 1, hi)
        }
    }
}

/// The hand-written generator: a fold of (correct) inserts over a list of entries.
pub fn hand_tree() -> impl Gen<Value = Tree> {
    vec((int(0u8..=15), any_bool()), 0..=12).map(
        |entries| {
            let mut t = E;
            for (k, v) in entries {
                t = correct_insert(Key(k), v, &t);
            }
            t
        },
        |t: &Tree| {
            // Inserting the keys in preorder builds the same tree again.
            fn pre(t: &Tree, out: &mut Vec<(u8, bool)>) {
                if let T(l, k, v, r) = t {
                    out.push((k.0, *v));
                    pre(l, out);
                    pre(r, out);
                }
            }
            let mut out = Vec::new();
            pre(t, &mut out);
            Some(out)
        },
    )
}

fn correct_insert(k: Key, v: bool, t: &Tree) -> Tree {
    match t {
        E => node(E, k, v, E),
        T(l, k2, v2, r) if k < *k2 => node(correct_insert(k, v, l), *k2, *v2, (**r).clone()),
        T(l, k2, v2, r) if k > *k2 => node((**l).clone(), *k2, *v2, correct_insert(k, v, r)),
        T(l, k2, _, r) => node((**l).clone(), *k2, v, (**r).clone()),
    }
}

/// A key, by hand: `0..=15`.
pub fn key() -> impl Gen<Value = Key> {
    int(0u8..=15).map(Key, |k: &Key| Some(k.0))
}

/// `gens!(d, h, s: T => hand_t => synth_t, U => hand_u => synth_u)`: `d()` the derived generator of
/// `(T, U)`, `h()` the hand-written one, `s()` the synthesized one.
macro_rules! gens {
    ($d:ident, $h:ident, $s:ident: $($t:ty => $g:expr => $sg:expr),+) => {
        fn $d() -> BoxGen<($($t,)+)> {
            <($($t,)+) as Reflective>::generator().boxed()
        }
        fn $h() -> BoxGen<($($t,)+)> {
            ($($g,)+).boxed()
        }
        fn $s() -> BoxGen<($($t,)+)> {
            ($($sg,)+).boxed()
        }
    };
}
pub(crate) use gens;

gens!(d_t, h_t, s_t: Tree => hand_tree() => bst_within::generator());
gens!(d_tk, h_tk, s_tk: Tree => hand_tree() => bst_within::generator(), Key => key() => key());
gens!(d_tkv, h_tkv, s_tkv: Tree => hand_tree() => bst_within::generator(), Key => key() => key(), bool => any_bool() => any_bool());
gens!(d_tkk, h_tkk, s_tkk: Tree => hand_tree() => bst_within::generator(), Key => key() => key(), Key => key() => key());
gens!(d_tkkv, h_tkkv, s_tkkv: Tree => hand_tree() => bst_within::generator(), Key => key() => key(), Key => key() => key(), bool => any_bool() => any_bool());
gens!(d_tkkvv, h_tkkvv, s_tkkvv: Tree => hand_tree() => bst_within::generator(), Key => key() => key(), Key => key() => key(), bool => any_bool() => any_bool(), bool => any_bool() => any_bool());
gens!(d_tt, h_tt, s_tt: Tree => hand_tree() => bst_within::generator(), Tree => hand_tree() => bst_within::generator());
gens!(d_ttk, h_ttk, s_ttk: Tree => hand_tree() => bst_within::generator(), Tree => hand_tree() => bst_within::generator(), Key => key() => key());
gens!(d_ttkv, h_ttkv, s_ttkv: Tree => hand_tree() => bst_within::generator(), Tree => hand_tree() => bst_within::generator(), Key => key() => key(), bool => any_bool() => any_bool());
gens!(d_ttt, h_ttt, s_ttt: Tree => hand_tree() => bst_within::generator(), Tree => hand_tree() => bst_within::generator(), Tree => hand_tree() => bst_within::generator());

/// The workload.
pub fn workload() -> Workload {
    let mutants = vec!["insert_1", "insert_2", "insert_3", "delete_4", "delete_5", "union_6", "union_7", "union_8"];
    #[rustfmt::skip]
    let props: Vec<Prop> = vec![
        prop("InsertValid", d_tkv, h_tkv, Some(s_tkv), |v| size(&v.0), |(t, k, v)| is_bst(&insert(*k, *v, t))),
        prop("DeleteValid", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| is_bst(&delete(*k, t))),
        prop("UnionValid", d_tt, h_tt, Some(s_tt), |v| size(&v.0), |(a, b)| is_bst(&union(a, b))),
        prop("InsertPost", d_tkkv, h_tkkv, Some(s_tkkv), |v| size(&v.0), |(t, k, k2, v)| {
            find(*k2, &insert(*k, *v, t)) == if k == k2 { Some(*v) } else { find(*k2, t) }
        }),
        prop("DeletePost", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| {
            find(*k2, &delete(*k, t)) == if k == k2 { None } else { find(*k2, t) }
        }),
        prop("UnionPost", d_ttk, h_ttk, Some(s_ttk), |v| size(&v.0), |(a, b, k)| find(*k, &union(a, b)) == find(*k, a).or(find(*k, b))),
        prop("InsertModel", d_tkv, h_tkv, Some(s_tkv), |v| size(&v.0), |(t, k, v)| list(&insert(*k, *v, t)) == model_insert(*k, *v, t)),
        prop("DeleteModel", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| {
            list(&delete(*k, t)) == list(t).into_iter().filter(|e| e.0 != *k).collect::<Vec<_>>()
        }),
        prop("UnionModel", d_tt, h_tt, Some(s_tt), |v| size(&v.0), |(a, b)| {
            let mut m = list(a);
            m.extend(list(b).into_iter().filter(|e| find(e.0, a).is_none()));
            m.sort();
            list(&union(a, b)) == m
        }),
        prop("InsertInsert", d_tkkvv, h_tkkvv, Some(s_tkkvv), |v| size(&v.0), |(t, k, k2, v, v2)| {
            let lhs = insert(*k, *v, &insert(*k2, *v2, t));
            let rhs = if k == k2 { insert(*k, *v, t) } else { insert(*k2, *v2, &insert(*k, *v, t)) };
            same(&lhs, &rhs)
        }),
        prop("InsertDelete", d_tkkv, h_tkkv, Some(s_tkkv), |v| size(&v.0), |(t, k, k2, v)| {
            let lhs = insert(*k, *v, &delete(*k2, t));
            let rhs = if k == k2 { insert(*k, *v, t) } else { delete(*k2, &insert(*k, *v, t)) };
            same(&lhs, &rhs)
        }),
        prop("InsertUnion", d_ttkv, h_ttkv, Some(s_ttkv), |v| size(&v.0), |(a, b, k, v)| {
            same(&insert(*k, *v, &union(a, b)), &union(&insert(*k, *v, a), b))
        }),
        prop("DeleteInsert", d_tkkv, h_tkkv, Some(s_tkkv), |v| size(&v.0), |(t, k, k2, v)| {
            let lhs = delete(*k, &insert(*k2, *v, t));
            let rhs = if k == k2 { delete(*k, t) } else { insert(*k2, *v, &delete(*k, t)) };
            same(&lhs, &rhs)
        }),
        prop("DeleteDelete", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| same(&delete(*k, &delete(*k2, t)), &delete(*k2, &delete(*k, t)))),
        prop("DeleteUnion", d_ttk, h_ttk, Some(s_ttk), |v| size(&v.0), |(a, b, k)| {
            same(&delete(*k, &union(a, b)), &union(&delete(*k, a), &delete(*k, b)))
        }),
        prop("UnionDeleteInsert", d_ttkv, h_ttkv, Some(s_ttkv), |v| size(&v.0), |(a, b, k, v)| {
            same(&union(&delete(*k, a), &insert(*k, *v, b)), &insert(*k, *v, &union(a, b)))
        }),
        prop("UnionUnionIdem", d_t, h_t, Some(s_t), |v| size(&v.0), |(t,)| same(&union(t, t), t)),
        prop("UnionUnionAssoc", d_ttt, h_ttt, Some(s_ttt), |v| size(&v.0), |(a, b, c)| union(&union(a, b), c) == union(a, &union(b, c))),
    ];
    Workload { name: "bst", mutants, props }
}
