//! The shrinking problems shared by `shrink_quality` and `shrink_cost`: each generator and property in this library.
//!
//! `shrink_quality` says what each problem is and what its minimal
//! counterexample is; it adds proptest's strategy for each. An example
//! includes this file with `#[path = "shrink_problems/mod.rs"] mod problems;`.

#![allow(dead_code)]

use refgen::combinators::{any_int, int, just, pick, recursive, vec};
use refgen::prelude::*;

pub fn small_int() -> BoxGen<i64> {
    int(-10i64..=10).site("lit").boxed()
}

#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    Lit(i64),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

impl Expr {
    pub fn size(&self) -> usize {
        match self {
            Expr::Lit(_) => 1,
            Expr::Add(a, b) | Expr::Div(a, b) => 1 + a.size() + b.size(),
        }
    }
    /// `Err(())` on division by zero; arithmetic wraps.
    pub fn eval(&self) -> Result<i64, ()> {
        match self {
            Expr::Lit(n) => Ok(*n),
            Expr::Add(a, b) => Ok(a.eval()?.wrapping_add(b.eval()?)),
            Expr::Div(a, b) => {
                let (x, y) = (a.eval()?, b.eval()?);
                if y == 0 {
                    Err(())
                } else {
                    Ok(x.wrapping_div(y))
                }
            }
        }
    }
    pub fn divides_by_literal_zero(&self) -> bool {
        match self {
            Expr::Lit(_) => false,
            Expr::Add(a, b) => a.divides_by_literal_zero() || b.divides_by_literal_zero(),
            Expr::Div(a, b) => **b == Expr::Lit(0) || a.divides_by_literal_zero() || b.divides_by_literal_zero(),
        }
    }
}

pub fn expr_gen() -> BoxGen<Expr> {
    let lit = || small_int().map(Expr::Lit, |e: &Expr| if let Expr::Lit(n) = e { Some(*n) } else { None }).boxed();
    // The bottom level is the literal alone; `recursive` makes it a
    // one-option pick at `expr`, so every level records the same shape (see
    // `binary_heap`, whose bottom level is `just(Empty)`).
    recursive(5, move |sub: Option<BoxGen<Expr>>| match sub {
        None => lit(),
        Some(sub) => {
            let bin = |ctor: fn(Box<Expr>, Box<Expr>) -> Expr, un: fn(&Expr) -> Option<(Expr, Expr)>| {
                (sub.clone(), sub.clone()).map(move |(a, b)| ctor(Box::new(a), Box::new(b)), un).boxed()
            };
            let add =
                bin(Expr::Add, |e| if let Expr::Add(a, b) = e { Some(((**a).clone(), (**b).clone())) } else { None });
            let div =
                bin(Expr::Div, |e| if let Expr::Div(a, b) = e { Some(((**a).clone(), (**b).clone())) } else { None });
            pick("expr", [("lit", 3, lit()), ("add", 2, add), ("div", 2, div)]).boxed()
        }
    })
    .filter(|e: &Expr| !e.divides_by_literal_zero())
    .boxed()
}

pub type Five = (Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>, Vec<i16>);

pub fn wrapping_sum(xs: &[i16]) -> i16 {
    xs.iter().fold(0i16, |a, &b| a.wrapping_add(b))
}

pub fn bound5_gen() -> BoxGen<Five> {
    let list = || vec(any_int::<i16>(), 0..=10).filter(|xs: &Vec<i16>| wrapping_sum(xs) < 256).boxed();
    (list(), list(), list(), list(), list()).boxed()
}

pub fn length_list_gen() -> BoxGen<Vec<u32>> {
    int(1usize..=100)
        .site("n")
        .at(|v: &Vec<u32>| Some(v.len()))
        .bind(move |n| vec(int(0u32..=1000).site("elem"), n..=n))
        .boxed()
}

pub type Pair = (u32, u32);

pub fn difference_gen(hi: u32) -> BoxGen<Pair> {
    (int(1u32..=hi).site("x"), int(1u32..=hi).site("y")).boxed()
}

pub fn coupling_gen() -> BoxGen<Vec<usize>> {
    int(1usize..=10)
        .site("n")
        .at(|v: &Vec<usize>| Some(v.len()))
        .bind(move |n| vec(int(0usize..=n - 1).site("index"), n..=n))
        .boxed()
}

pub fn coupled(xs: Vec<usize>) -> bool {
    xs.iter().enumerate().all(|(i, &j)| j == i || xs[j] != i)
}

/// A binary heap of small keys.
#[derive(Debug, Clone, PartialEq)]
pub enum Heap {
    /// No key.
    Empty,
    /// A key and the heaps below it.
    Node(u32, Box<Heap>, Box<Heap>),
}

impl Heap {
    pub fn node(k: u32, l: Heap, r: Heap) -> Heap {
        Heap::Node(k, Box::new(l), Box::new(r))
    }
    pub fn size(&self) -> usize {
        match self {
            Heap::Empty => 0,
            Heap::Node(_, l, r) => 1 + l.size() + r.size(),
        }
    }
    pub fn key(&self) -> Option<u32> {
        match self {
            Heap::Empty => None,
            Heap::Node(k, _, _) => Some(*k),
        }
    }
    /// Every key is at most the keys beneath it.
    pub fn ordered(&self) -> bool {
        match self {
            Heap::Empty => true,
            Heap::Node(k, l, r) => [l, r].iter().all(|h| h.key().is_none_or(|c| *k <= c) && h.ordered()),
        }
    }
    /// The keys in pre-order: a to-sorted-list that forgets to merge the two sides.
    pub fn wrong_sorted(&self, out: &mut Vec<u32>) {
        if let Heap::Node(k, l, r) = self {
            out.push(*k);
            l.wrong_sorted(out);
            r.wrong_sorted(out);
        }
    }
}

pub fn heap_sorts(h: Heap) -> bool {
    let mut keys = Vec::new();
    h.wrong_sorted(&mut keys);
    keys.is_sorted()
}

pub fn heap_gen() -> BoxGen<Heap> {
    recursive(3, |sub: Option<BoxGen<Heap>>| match sub {
        None => just(Heap::Empty).boxed(),
        Some(sub) => {
            let node = (int(0u32..=9).site("key"), sub.clone(), sub)
                .map(
                    |(k, l, r)| Heap::node(k, l, r),
                    |h: &Heap| match h {
                        Heap::Node(k, l, r) => Some((*k, (**l).clone(), (**r).clone())),
                        Heap::Empty => None,
                    },
                )
                .boxed();
            pick("heap", [("empty", 1, just(Heap::Empty).boxed()), ("node", 3, node)]).boxed()
        }
    })
    .filter(Heap::ordered)
    .boxed()
}

pub fn deletes(pair: (Vec<i32>, usize)) -> bool {
    let (mut xs, i) = pair;
    let x = xs[i % xs.len()];
    let first = xs.iter().position(|&y| y == x).expect("x is in xs");
    xs.remove(first);
    !xs.contains(&x)
}

pub fn distinct(xs: &[i32]) -> usize {
    xs.iter().collect::<std::collections::HashSet<_>>().len()
}

// The problems whose generator and property are one line each.

pub fn int_list(max_len: usize) -> BoxGen<Vec<i32>> {
    vec(any_int::<i32>(), 0..=max_len).boxed()
}

pub fn int_lists(max_len: usize, max_lists: usize) -> BoxGen<Vec<Vec<i32>>> {
    vec(vec(any_int::<i32>(), 0..=max_len), 0..=max_lists).boxed()
}

pub fn byte_pair() -> BoxGen<(u8, u8)> {
    (any_int::<u8>(), any_int::<u8>()).boxed()
}

pub fn deletion_gen() -> BoxGen<(Vec<i32>, usize)> {
    (vec(int(-100i32..=100), 1..=10), int(0usize..=9)).boxed()
}

/// reverse: a list reads the same backwards.
pub fn palindrome(xs: Vec<i32>) -> bool {
    xs.iter().rev().eq(xs.iter())
}

/// bound5: the five lists' sum stays below 5 * 256.
pub fn bounded((a, b, c, d, e): Five) -> bool {
    wrapping_sum(&[a, b, c, d, e].concat()) < 5 * 256
}

/// large_union_list: at most 4 distinct values in all.
pub fn small_union(xss: Vec<Vec<i32>>) -> bool {
    xss.iter().flatten().collect::<std::collections::HashSet<_>>().len() <= 4
}

/// length_list: every element below 900.
pub fn below_900(xs: Vec<u32>) -> bool {
    xs.iter().all(|&x| x < 900)
}

/// difference_zero: `x - y` is not zero (for `x >= 10`).
pub fn difference_not_zero((x, y): Pair) -> bool {
    x < 10 || x != y
}

/// difference_one: `x - y` is not one (for `x >= 10`).
pub fn difference_not_one((x, y): Pair) -> bool {
    x < 10 || x.abs_diff(y) != 1
}

/// difference_small: `x - y` is not small (for `x >= 10`).
pub fn difference_not_small((x, y): Pair) -> bool {
    x < 10 || x.abs_diff(y) > 4 || x == y
}

/// overflow: `x + y` does not wrap.
pub fn no_overflow((x, y): (u8, u8)) -> bool {
    x.wrapping_add(y) >= x
}

/// distinct: fewer than 3 distinct values.
pub fn few_distinct(xs: Vec<i32>) -> bool {
    distinct(&xs) < 3
}

/// nested_lists: at most 10 elements in all.
pub fn short_in_all(xss: Vec<Vec<i32>>) -> bool {
    xss.iter().map(Vec::len).sum::<usize>() <= 10
}
