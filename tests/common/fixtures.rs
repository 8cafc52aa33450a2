//! Hand-written reflective generators shared by the tests and the benchmark examples (not part of the library).
//!
//! - [`ref_bst`]: Goldstein's `refBST (lo, hi)` (Fig. 3.1), binary search trees;
//! - [`bin_tree`]: a plain binary tree of `0..=10` with a depth bound;
//! - [`sorted_list`]: sorted lists, built by dependent generation;
//! - [`expr`]: arithmetic expressions with division;
//! - [`sized_vec`]: a dependent pair, a length and then a vector of that length.

#![allow(dead_code)]

use refgen::refgen_core::combinators::{int, just, pick, pure, recursive, vec};
use refgen::refgen_core::gen::{BoxGen, Gen};

/// A binary tree with `i64` keys.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Tree {
    /// The empty tree.
    Leaf,
    /// A node: left subtree, key, right subtree.
    Node(Box<Tree>, i64, Box<Tree>),
}

impl Tree {
    /// A node.
    pub fn node(l: Tree, x: i64, r: Tree) -> Tree {
        Tree::Node(Box::new(l), x, Box::new(r))
    }

    /// The key of a node.
    pub fn key(&self) -> Option<i64> {
        match self {
            Tree::Node(_, x, _) => Some(*x),
            Tree::Leaf => None,
        }
    }

    /// The left subtree of a node.
    pub fn left(&self) -> Option<Tree> {
        match self {
            Tree::Node(l, _, _) => Some((**l).clone()),
            Tree::Leaf => None,
        }
    }

    /// The right subtree of a node.
    pub fn right(&self) -> Option<Tree> {
        match self {
            Tree::Node(_, _, r) => Some((**r).clone()),
            Tree::Leaf => None,
        }
    }

    /// The keys in order.
    pub fn keys(&self) -> Vec<i64> {
        let mut out = Vec::new();
        fn go(t: &Tree, out: &mut Vec<i64>) {
            if let Tree::Node(l, x, r) = t {
                go(l, out);
                out.push(*x);
                go(r, out);
            }
        }
        go(self, &mut out);
        out
    }

    /// The number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.size() + r.size(),
        }
    }

    /// The depth: 0 for a leaf.
    pub fn depth(&self) -> usize {
        match self {
            Tree::Leaf => 0,
            Tree::Node(l, _, r) => 1 + l.depth().max(r.depth()),
        }
    }
}

/// Whether the keys of `t` are strictly increasing in order.
pub fn is_bst(t: &Tree) -> bool {
    t.keys().windows(2).all(|w| w[0] < w[1])
}

/// Goldstein's `refBST (lo, hi)` (Fig. 3.1): binary search trees with keys
/// in `lo..=hi`. The pick `"bst"` has options `"leaf"` (weight 1) and
/// `"node"` (weight 5); the key is the choice point `"key"`.
pub fn ref_bst(lo: i64, hi: i64) -> BoxGen<Tree> {
    if lo > hi {
        return just(Tree::Leaf).boxed();
    }
    pick(
        "bst",
        [
            ("leaf", 1, just(Tree::Leaf).boxed()),
            (
                "node",
                5,
                int(lo..=hi)
                    .site("key")
                    .at(Tree::key)
                    .bind(move |x| {
                        ref_bst(lo, x - 1).at(Tree::left).bind(move |l| {
                            ref_bst(x + 1, hi).at(Tree::right).bind(move |r| pure(Tree::node(l.clone(), x, r)))
                        })
                    })
                    .boxed(),
            ),
        ],
    )
    .boxed()
}

/// A plain binary tree with keys in `0..=10` and depth at most `depth`:
/// the pick `"tree"` between `"leaf"` (weight 1) and `"node"` (weight 3),
/// the key at `"key"`, the subtrees as parts `"left"` and `"right"`.
pub fn bin_tree(depth: usize) -> BoxGen<Tree> {
    recursive(depth, |smaller: Option<BoxGen<Tree>>| match smaller {
        None => just(Tree::Leaf).boxed(),
        Some(sub) => pick(
            "tree",
            [
                ("leaf", 1, just(Tree::Leaf).boxed()),
                (
                    "node",
                    3,
                    (sub.clone().part("left"), int(0i64..=10).site("key"), sub.part("right"))
                        .map(
                            |(l, x, r)| Tree::node(l, x, r),
                            |t: &Tree| match t {
                                Tree::Node(l, x, r) => Some(((**l).clone(), *x, (**r).clone())),
                                Tree::Leaf => None,
                            },
                        )
                        .boxed(),
                ),
            ],
        )
        .boxed(),
    })
}

/// Sorted lists of at most `max_len` elements of `0..=hi`: each element is
/// chosen at least as large as the one before (dependent generation).
pub fn sorted_list(max_len: usize, hi: u8) -> BoxGen<Vec<u8>> {
    fn from(lo: u8, hi: u8, left: usize) -> BoxGen<Vec<u8>> {
        if left == 0 {
            return just(Vec::new()).boxed();
        }
        pick(
            "sorted",
            [
                ("nil", 1, just(Vec::new()).boxed()),
                (
                    "cons",
                    3,
                    int(lo..=hi)
                        .site("elem")
                        .at(|v: &Vec<u8>| v.first().copied())
                        .bind(move |x| {
                            from(x, hi, left - 1).at(|v: &Vec<u8>| Some(v[1..].to_vec())).bind(move |rest| {
                                let mut v = vec![x];
                                v.extend(rest);
                                pure(v)
                            })
                        })
                        .boxed(),
                ),
            ],
        )
        .boxed()
    }
    from(0, hi, max_len)
}

/// Arithmetic expressions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Expr {
    /// A literal.
    Lit(i64),
    /// Addition.
    Add(Box<Expr>, Box<Expr>),
    /// Division.
    Div(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Evaluate; `None` on division by zero or overflow.
    pub fn eval(&self) -> Option<i64> {
        match self {
            Expr::Lit(n) => Some(*n),
            Expr::Add(a, b) => a.eval()?.checked_add(b.eval()?),
            Expr::Div(a, b) => a.eval()?.checked_div(b.eval()?),
        }
    }

    /// The number of constructors.
    pub fn size(&self) -> usize {
        match self {
            Expr::Lit(_) => 1,
            Expr::Add(a, b) | Expr::Div(a, b) => 1 + a.size() + b.size(),
        }
    }
}

/// Expressions of depth at most `depth` with literals in `0..=lit_max`: the
/// pick `"expr"` among `"lit"` (weight 2), `"add"` and `"div"` (weight 1 each).
pub fn expr(depth: usize, lit_max: i64) -> BoxGen<Expr> {
    let lit = move || {
        int(0..=lit_max)
            .site("lit")
            .map(Expr::Lit, |e: &Expr| match e {
                Expr::Lit(n) => Some(*n),
                _ => None,
            })
            .boxed()
    };
    recursive(depth, move |smaller: Option<BoxGen<Expr>>| match smaller {
        None => lit(),
        Some(sub) => {
            let binary = |ctor: fn(Box<Expr>, Box<Expr>) -> Expr, un: fn(&Expr) -> Option<(Expr, Expr)>| {
                (sub.clone(), sub.clone()).map(move |(a, b)| ctor(Box::new(a), Box::new(b)), un).boxed()
            };
            pick(
                "expr",
                [
                    ("lit", 2, lit()),
                    (
                        "add",
                        1,
                        binary(Expr::Add, |e| match e {
                            Expr::Add(a, b) => Some(((**a).clone(), (**b).clone())),
                            _ => None,
                        }),
                    ),
                    (
                        "div",
                        1,
                        binary(Expr::Div, |e| match e {
                            Expr::Div(a, b) => Some(((**a).clone(), (**b).clone())),
                            _ => None,
                        }),
                    ),
                ],
            )
            .boxed()
        }
    })
}

/// A dependent pair: a length in `0..=max_len`, then a vector of exactly
/// that many elements of `0..=hi`.
pub fn sized_vec(max_len: usize, hi: u8) -> BoxGen<Vec<u8>> {
    int(0..=max_len)
        .site("n")
        .at(|v: &Vec<u8>| Some(v.len()))
        .bind(move |n| vec(int(0..=hi).site("elem"), n..=n))
        .boxed()
}
