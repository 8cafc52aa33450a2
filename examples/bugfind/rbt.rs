//! Etna's RBT workload: a red-black tree map (Okasaki's insert, Kahrs's delete) with its 15 mutants and 10 properties.
//!
//! The implementation, mutants and properties follow the RBT workload of
//! "Etna: An Evaluation Platform for Property-Based Testing" (Shi, Keles,
//! Goldstein, Pierce, Lampropoulos): keys are small integers, values
//! booleans. Delete's helpers can meet a tree of a shape they do not expect
//! (only on a broken tree, or through a mutant); they then give `None`, and
//! every property that sees a `None` fails.
//!
//! Etna's tasks here number 58; so do this workload's at the full budget,
//! but not the same ones: `miscolor_join_1` (a join of two red trees colours
//! its result's children black) shows only on trees of about 14 keys or
//! more (a join below the root), which keys `0..=15` and at most 12 inserts
//! almost never make, so it gives no task; `delete_5/InsertDelete` is one.

use super::bst::{gens, key, Key};
use super::harness::{is, prop, Prop, Workload};
use refgen::combinators::{bool as any_bool, int, vec};
use refgen::prelude::*;
use std::collections::HashSet;

/// A node's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Reflective)]
pub enum Color {
    /// Red.
    R,
    /// Black.
    B,
}

use Color::{B, R};

/// A red-black tree map from keys to booleans, as a user would derive it:
/// nodes three times as likely as leaves, every subtree a search tree with
/// no red node under a red node and as many black nodes on every path; at
/// the top, a black root.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Reflective)]
#[reflect(depth = 6)]
#[assume(is_rbt(self))]
#[assume(black_root(self), top)]
pub enum Rbt {
    /// The empty tree.
    #[choice(weight = 1)]
    E,
    /// A node: colour, left, key, value, right.
    #[choice(weight = 3)]
    T(Color, Box<Rbt>, Key, bool, Box<Rbt>),
}

use Rbt::{E, T};

fn node(c: Color, l: Rbt, k: Key, v: bool, r: Rbt) -> Rbt {
    T(c, Box::new(l), k, v, Box::new(r))
}

fn red(l: Rbt, k: Key, v: bool, r: Rbt) -> Rbt {
    node(R, l, k, v, r)
}

/// A black node of copies of `l` and `r`.
fn blk(l: &Rbt, k: Key, v: bool, r: &Rbt) -> Rbt {
    node(B, l.clone(), k, v, r.clone())
}

/// The number of nodes.
pub fn size(t: &Rbt) -> usize {
    match t {
        E => 0,
        T(_, l, _, _, r) => 1 + size(l) + size(r),
    }
}

fn to_list(t: &Rbt, out: &mut Vec<(Key, bool)>) {
    if let T(_, l, k, v, r) = t {
        to_list(l, out);
        out.push((*k, *v));
        to_list(r, out);
    }
}

fn list(t: &Rbt) -> Vec<(Key, bool)> {
    let mut out = Vec::new();
    to_list(t, &mut out);
    out
}

fn is_red(t: &Rbt) -> bool {
    matches!(t, T(R, ..))
}

fn no_red_red(t: &Rbt) -> bool {
    match t {
        E => true,
        T(c, l, _, _, r) => !(*c == R && (is_red(l) || is_red(r))) && no_red_red(l) && no_red_red(r),
    }
}

/// The number of black nodes on every path down (leaves count one), if it is the same on all.
fn black_height(t: &Rbt) -> Option<usize> {
    match t {
        E => Some(1),
        T(c, l, _, _, r) => {
            let (hl, hr) = (black_height(l)?, black_height(r)?);
            (hl == hr).then_some(hl + usize::from(*c == B))
        }
    }
}

/// Ordered (strictly), no red node with a red child, the same black height on every path.
pub fn is_rbt(t: &Rbt) -> bool {
    list(t).windows(2).all(|w| w[0].0 < w[1].0) && no_red_red(t) && black_height(t).is_some()
}

/// The root is black (or the tree empty).
pub fn black_root(t: &Rbt) -> bool {
    !is_red(t)
}

/// Etna's `isRBT`: a red-black tree with a black root.
fn valid(t: &Rbt) -> bool {
    is_rbt(t) && black_root(t)
}

fn blacken(t: Rbt) -> Rbt {
    match t {
        T(_, l, k, v, r) => T(B, l, k, v, r),
        E => E,
    }
}

fn redden(t: &Rbt) -> Option<Rbt> {
    match t {
        T(B, l, k, v, r) => Some(T(R, l.clone(), *k, *v, r.clone())),
        _ => None,
    }
}

/// Which mutants are on: [`is`] for the code under test, [`never`] for the hand generator's insert.
type Switch = fn(usize) -> bool;

fn never(_: usize) -> bool {
    false
}

/// Okasaki's balance (mutants 14: `c` and `d` swapped in the left-left case; 15: `b` and `c` in the right-left case).
fn balance(on: Switch, col: Color, l: Rbt, k: Key, v: bool, r: Rbt) -> Rbt {
    if col == B {
        if let T(R, ll, y, vy, c) = &l {
            if let T(R, a, x, vx, b) = &**ll {
                let (c, d) = if on(14) { (&r, &**c) } else { (&**c, &r) };
                return red(blk(a, *x, *vx, b), *y, *vy, blk(c, k, v, d));
            }
            if let T(R, b, y2, vy2, c2) = &**c {
                return red(blk(ll, *y, *vy, b), *y2, *vy2, blk(c2, k, v, &r));
            }
        }
        if let T(R, rl, z, vz, d) = &r {
            if let T(R, b, y, vy, c) = &**rl {
                let (b, c) = if on(15) { (&**c, &**b) } else { (&**b, &**c) };
                return red(blk(&l, k, v, b), *y, *vy, blk(c, *z, *vz, d));
            }
            if let T(R, c, z2, vz2, d2) = &**d {
                return red(blk(&l, k, v, rl), *z, *vz, blk(c, *z2, *vz2, d2));
            }
        }
    }
    node(col, l, k, v, r)
}

/// Insert below the root (mutants 1 to 6).
fn ins(on: Switch, x: Key, vx: bool, s: &Rbt) -> Rbt {
    match s {
        E => node(if on(1) { B } else { R }, E, x, vx, E),
        T(..) if on(2) => red(E, x, vx, E),
        T(rb, a, y, vy, b) => {
            let (rb, y, vy) = (*rb, *y, *vy);
            if x < y {
                let a = ins(on, x, vx, a);
                if on(5) {
                    node(rb, a, y, vy, (**b).clone())
                } else {
                    balance(on, rb, a, y, vy, (**b).clone())
                }
            } else if x > y && !on(3) {
                if on(6) {
                    node(rb, (**a).clone(), y, vy, insert_with(on, x, vx, b))
                } else {
                    balance(on, rb, (**a).clone(), y, vy, ins(on, x, vx, b))
                }
            } else if on(4) {
                s.clone()
            } else {
                node(rb, (**a).clone(), y, vx, (**b).clone())
            }
        }
    }
}

fn insert_with(on: Switch, x: Key, vx: bool, t: &Rbt) -> Rbt {
    blacken(ins(on, x, vx, t))
}

/// Insert (mutants 1 to 6, 14, 15).
pub fn insert(x: Key, vx: bool, t: &Rbt) -> Rbt {
    insert_with(is, x, vx, t)
}

fn correct_insert(x: Key, vx: bool, t: &Rbt) -> Rbt {
    insert_with(never, x, vx, t)
}

/// Rebalance after the left side lost a black node (mutant 10: the right grandchild not reddened).
fn bal_left(l: Rbt, x: Key, vx: bool, r: Rbt) -> Option<Rbt> {
    if let T(R, a, y, vy, b) = &l {
        return Some(red(blk(a, *y, *vy, b), x, vx, r));
    }
    match &r {
        T(B, a, y, vy, b) => Some(balance(is, B, l, x, vx, red((**a).clone(), *y, *vy, (**b).clone()))),
        T(R, rl, z, vz, c) => {
            let T(B, a, y, vy, b) = &**rl else { return None };
            let c = if is(10) { (**c).clone() } else { redden(c)? };
            Some(red(node(B, l, x, vx, (**a).clone()), *y, *vy, balance(is, B, (**b).clone(), *z, *vz, c)))
        }
        E => None,
    }
}

/// Rebalance after the right side lost a black node (mutant 11: the left grandchild not reddened).
fn bal_right(l: Rbt, y: Key, vy: bool, r: Rbt) -> Option<Rbt> {
    if let T(R, b, z, vz, c) = &r {
        return Some(red(l, y, vy, blk(b, *z, *vz, c)));
    }
    match &l {
        T(B, a, x, vx, b) => Some(balance(is, B, red((**a).clone(), *x, *vx, (**b).clone()), y, vy, r)),
        T(R, a, x, vx, lr) => {
            let T(B, b, y2, vy2, c) = &**lr else { return None };
            let a = if is(11) { (**a).clone() } else { redden(a)? };
            Some(red(balance(is, B, a, *x, *vx, (**b).clone()), *y2, *vy2, node(B, (**c).clone(), y, vy, r)))
        }
        E => None,
    }
}

/// Join two trees, every key of `l` below every key of `r` (mutants 12, 13: miscoloured results).
fn join(l: &Rbt, r: &Rbt) -> Option<Rbt> {
    Some(match (l, r) {
        (E, r) => r.clone(),
        (l, E) => l.clone(),
        (T(R, a, x, vx, b), T(R, c, y, vy, d)) => match join(b, c)? {
            T(R, b2, z, vz, c2) => {
                let side = if is(12) { B } else { R };
                let left = node(side, (**a).clone(), *x, *vx, *b2);
                red(left, z, vz, node(side, *c2, *y, *vy, (**d).clone()))
            }
            bc => red((**a).clone(), *x, *vx, red(bc, *y, *vy, (**d).clone())),
        },
        (T(B, a, x, vx, b), T(B, c, y, vy, d)) => match join(b, c)? {
            T(R, b2, z, vz, c2) => {
                let side = if is(13) { R } else { B };
                let left = node(side, (**a).clone(), *x, *vx, *b2);
                red(left, z, vz, node(side, *c2, *y, *vy, (**d).clone()))
            }
            bc => bal_left((**a).clone(), *x, *vx, node(B, bc, *y, *vy, (**d).clone()))?,
        },
        (l, T(R, b, x, vx, c)) => red(join(l, b)?, *x, *vx, (**c).clone()),
        (T(R, a, x, vx, b), r) => red((**a).clone(), *x, *vx, join(b, r)?),
    })
}

fn del_left(x: Key, a: &Rbt, y: Key, vy: bool, b: &Rbt) -> Option<Rbt> {
    if let T(B, ..) = a {
        bal_left(del(x, a)?, y, vy, b.clone())
    } else {
        Some(red(del(x, a)?, y, vy, b.clone()))
    }
}

fn del_right(x: Key, a: &Rbt, y: Key, vy: bool, b: &Rbt) -> Option<Rbt> {
    if let T(B, ..) = b {
        bal_right(a.clone(), y, vy, del(x, b)?)
    } else {
        Some(red(a.clone(), y, vy, del(x, b)?))
    }
}

/// Delete below the root (mutants 7: the path's nodes dropped; 8: the wrong side searched).
fn del(x: Key, t: &Rbt) -> Option<Rbt> {
    match t {
        E => Some(E),
        T(_, a, y, vy, b) => {
            let (lt, gt) = if is(8) { (x > *y, x < *y) } else { (x < *y, x > *y) };
            if is(7) && (lt || gt) {
                del(x, if lt { a } else { b })
            } else if lt {
                del_left(x, a, *y, *vy, b)
            } else if gt {
                del_right(x, a, *y, *vy, b)
            } else {
                join(a, b)
            }
        }
    }
}

/// Delete (mutant 9: the root not blackened); `None` where a helper met a shape it does not expect.
pub fn delete(x: Key, t: &Rbt) -> Option<Rbt> {
    let t = del(x, t)?;
    Some(if is(9) { t } else { blacken(t) })
}

fn find(k: Key, t: &Rbt) -> Option<bool> {
    match t {
        E => None,
        T(_, l, k2, v, r) => {
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

fn delete_key(k: Key, xs: Vec<(Key, bool)>) -> Vec<(Key, bool)> {
    xs.into_iter().filter(|e| e.0 != k).collect()
}

fn model_insert(k: Key, v: bool, t: &Rbt) -> Vec<(Key, bool)> {
    let mut xs = delete_key(k, list(t));
    let at = xs.partition_point(|e| *e < (k, v));
    xs.insert(at, (k, v));
    xs
}

/// Etna's `=~=`: both operations succeeded, with the same entries.
fn same(a: Option<Rbt>, b: Option<Rbt>) -> bool {
    matches!((a, b), (Some(a), Some(b)) if list(&a) == list(&b))
}

// ---------------------------------------------------------------- generators

/// An order of `t`'s entries whose (correct) inserts build `t` again, colours
/// included, or `None` if there is none or the search gives up.
///
/// No fixed order does: a level-by-level order (as for the AVL tree) builds
/// red children where `t` has black ones, and the pre-, post- and in-orders
/// each fail on about half of the hand generator's trees. So search: insert
/// the remaining entries one at a time (in preorder first), skipping trees
/// already found to lead nowhere and trees whose black height exceeds `t`'s
/// (inserting never lowers it); give up after 200,000 trees. In a sample of
/// 3,000 of the hand generator's trees, the median took about 20 trees, the
/// worst about 26,000 (0.2 s); every one was rebuilt.
fn insertion_order(t: &Rbt) -> Option<Vec<(u8, bool)>> {
    struct Search<'a> {
        goal: &'a Rbt,
        height: usize,
        dead: HashSet<Rbt>,
        steps: usize,
        acc: Vec<(u8, bool)>,
    }
    fn go(s: &mut Search, t: &Rbt, rest: &mut Vec<(Key, bool)>) -> bool {
        if rest.is_empty() {
            return t == s.goal;
        }
        if s.steps == 0 || s.dead.contains(t) || black_height(t).is_none_or(|h| h > s.height) {
            return false;
        }
        s.steps -= 1;
        for i in 0..rest.len() {
            let (k, v) = rest.remove(i);
            s.acc.push((k.0, v));
            if go(s, &correct_insert(k, v, t), rest) {
                return true;
            }
            s.acc.pop();
            rest.insert(i, (k, v));
        }
        s.dead.insert(t.clone());
        false
    }
    fn pre(t: &Rbt, out: &mut Vec<(Key, bool)>) {
        if let T(_, l, k, v, r) = t {
            out.push((*k, *v));
            pre(l, out);
            pre(r, out);
        }
    }
    let mut rest = Vec::new();
    pre(t, &mut rest);
    let mut s = Search { goal: t, height: black_height(t)?, dead: HashSet::new(), steps: 200_000, acc: Vec::new() };
    go(&mut s, &E, &mut rest).then_some(s.acc)
}

/// The hand-written generator: a fold of (correct) inserts over a list of entries.
/// `valid` (`is_rbt` and `black_root`) in the forms `#[synth]` reads: the black height, the
/// parent's colour and the bounds on the keys passed down (`is_rbt` computes the black height
/// bottom-up and checks the order on the in-order list; a red root's parent counts as red, which
/// makes the root black), with the keys' range `0..=15` (`Key`'s) as the top's bounds.
#[synth(bh in 0..=3, parent_red = true, lo = 0, hi = 15, depth = 8)]
pub fn rbt_within(t: &Rbt, bh: u8, parent_red: bool, lo: i32, hi: i32) -> bool {
    match t {
        E => bh == 0,
        T(c, l, Key(k), _, r) => {
            lo <= i32::from(*k)
                && i32::from(*k) <= hi
                && !(parent_red && *c == R)
                && bh >= u8::from(*c == B)
                && rbt_within(l, bh - u8::from(*c == B), *c == R, lo, i32::from(*k) - 1)
                && rbt_within(r, bh - u8::from(*c == B), *c == R, i32::from(*k) + 1, hi)
        }
    }
}

pub fn hand_tree() -> impl Gen<Value = Rbt> {
    vec((int(0u8..=15), any_bool()), 0..=12)
        .map(|entries| entries.into_iter().fold(E, |t, (k, v)| correct_insert(Key(k), v, &t)), insertion_order)
}

gens!(d_tk, h_tk, s_tk: Rbt => hand_tree() => rbt_within::generator(), Key => key() => key());
gens!(d_tkv, h_tkv, s_tkv: Rbt => hand_tree() => rbt_within::generator(), Key => key() => key(), bool => any_bool() => any_bool());
gens!(d_tkk, h_tkk, s_tkk: Rbt => hand_tree() => rbt_within::generator(), Key => key() => key(), Key => key() => key());
gens!(d_tkkv, h_tkkv, s_tkkv: Rbt => hand_tree() => rbt_within::generator(), Key => key() => key(), Key => key() => key(), bool => any_bool() => any_bool());
gens!(d_tkkvv, h_tkkvv, s_tkkvv: Rbt => hand_tree() => rbt_within::generator(), Key => key() => key(), Key => key() => key(), bool => any_bool() => any_bool(), bool => any_bool() => any_bool());

/// The workload.
pub fn workload() -> Workload {
    let mutants = vec![
        "miscolor_insert",
        "insert_1",
        "insert_2",
        "insert_3",
        "no_balance_insert_1",
        "no_balance_insert_2",
        "delete_4",
        "delete_5",
        "miscolor_delete",
        "miscolor_balLeft",
        "miscolor_balRight",
        "miscolor_join_1",
        "miscolor_join_2",
        "swap_cd",
        "swap_bc",
    ];
    #[rustfmt::skip]
    let props: Vec<Prop> = vec![
        prop("InsertValid", d_tkv, h_tkv, Some(s_tkv), |v| size(&v.0), |(t, k, v)| valid(&insert(*k, *v, t))),
        prop("DeleteValid", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| delete(*k, t).is_some_and(|t| valid(&t))),
        prop("InsertPost", d_tkkv, h_tkkv, Some(s_tkkv), |v| size(&v.0), |(t, k, k2, v)| {
            find(*k2, &insert(*k, *v, t)) == if k == k2 { Some(*v) } else { find(*k2, t) }
        }),
        prop("DeletePost", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| {
            delete(*k, t).map(|t| find(*k2, &t)) == Some(if k == k2 { None } else { find(*k2, t) })
        }),
        prop("InsertModel", d_tkv, h_tkv, Some(s_tkv), |v| size(&v.0), |(t, k, v)| list(&insert(*k, *v, t)) == model_insert(*k, *v, t)),
        prop("DeleteModel", d_tk, h_tk, Some(s_tk), |v| size(&v.0), |(t, k)| {
            delete(*k, t).map(|t| list(&t)) == Some(delete_key(*k, list(t)))
        }),
        prop("InsertInsert", d_tkkvv, h_tkkvv, Some(s_tkkvv), |v| size(&v.0), |(t, k, k2, v, v2)| {
            let lhs = insert(*k, *v, &insert(*k2, *v2, t));
            let rhs = if k == k2 { insert(*k, *v, t) } else { insert(*k2, *v2, &insert(*k, *v, t)) };
            same(Some(lhs), Some(rhs))
        }),
        prop("InsertDelete", d_tkkv, h_tkkv, Some(s_tkkv), |v| size(&v.0), |(t, k, k2, v)| {
            let lhs = delete(*k2, t).map(|t| insert(*k, *v, &t));
            let rhs = if k == k2 { Some(insert(*k, *v, t)) } else { delete(*k2, &insert(*k, *v, t)) };
            same(lhs, rhs)
        }),
        prop("DeleteInsert", d_tkkv, h_tkkv, Some(s_tkkv), |v| size(&v.0), |(t, k, k2, v)| {
            let lhs = delete(*k, &insert(*k2, *v, t));
            let rhs = if k == k2 { delete(*k, t) } else { delete(*k, t).map(|t| insert(*k2, *v, &t)) };
            same(lhs, rhs)
        }),
        prop("DeleteDelete", d_tkk, h_tkk, Some(s_tkk), |v| size(&v.0), |(t, k, k2)| {
            same(delete(*k2, t).and_then(|t| delete(*k, &t)), delete(*k, t).and_then(|t| delete(*k2, &t)))
        }),
    ];
    Workload { name: "rbt", mutants, props }
}
