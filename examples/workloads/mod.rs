//! The workloads of "Parsing Randomness" (Goldstein and Pierce, OOPSLA 2022) shared by the examples: binary search trees, AVL trees and well-typed simply typed lambda terms.
//!
//! The generators follow the paper's artifact: every pick weighs its options
//! equally, recursion stops at depth 5, keys are `0..=9`. Each workload is a
//! shape type (its depth budget counts the wrapper around it as one level),
//! a wrapper whose `#[assume]` is validity (`ValidBst`, `ValidAvl`,
//! `Program`), and a wrapper without it (`AnyBst`, `AnyAvl`, `AnyTerm`):
//! the generator of the shape alone.
//!
//! An example includes it with `#[path = "workloads/mod.rs"] mod workloads;`.

#![allow(dead_code)]

use refgen::combinators::{just, pick, recursive};
use refgen::prelude::*;

/// A binary tree with keys in `0..=9`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
pub enum Bst {
    Leaf,
    Node(#[choice(range = 0..=9)] u8, Box<Bst>, Box<Bst>),
}

/// A binary tree that is a strict binary search tree.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(is_bst(&self.0))]
pub struct ValidBst(pub Bst);

/// Any binary tree of the shape.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub struct AnyBst(pub Bst);

/// The keys of `t`, in order.
pub fn bst_keys(t: &Bst, out: &mut Vec<u8>) {
    if let Bst::Node(x, l, r) = t {
        bst_keys(l, out);
        out.push(*x);
        bst_keys(r, out);
    }
}

/// Whether `t` is a strict binary search tree.
pub fn is_bst(t: &Bst) -> bool {
    let mut ks = Vec::new();
    bst_keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

/// `Node(height, key, left, right)`, heights and keys in `0..=9`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
pub enum Avl {
    Leaf,
    Node(#[choice(range = 0..=9)] u8, #[choice(range = 0..=9)] u8, Box<Avl>, Box<Avl>),
}

/// An AVL tree: ordered, every stored height right, balanced.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(is_avl(&self.0))]
pub struct ValidAvl(pub Avl);

/// Any tree of the AVL shape.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub struct AnyAvl(pub Avl);

/// The stored height of `t` (0 for a leaf).
pub fn height(t: &Avl) -> u8 {
    match t {
        Avl::Leaf => 0,
        Avl::Node(h, ..) => *h,
    }
}

/// The keys of `t`, in order.
pub fn avl_keys(t: &Avl, out: &mut Vec<u8>) {
    if let Avl::Node(_, x, l, r) = t {
        avl_keys(l, out);
        out.push(*x);
        avl_keys(r, out);
    }
}

/// Every stored height right and balanced (the order is checked apart).
pub fn avl_shape(t: &Avl) -> bool {
    match t {
        Avl::Leaf => true,
        Avl::Node(h, _, l, r) => {
            let (hl, hr) = (height(l), height(r));
            *h == 1 + hl.max(hr) && hl.abs_diff(hr) <= 1 && avl_shape(l) && avl_shape(r)
        }
    }
}

/// Whether `t` is an AVL tree.
pub fn is_avl(t: &Avl) -> bool {
    let mut ks = Vec::new();
    avl_keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1]) && avl_shape(t)
}

/// A type of the simply typed lambda calculus.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    Int,
    Fun(Box<Ty>, Box<Ty>),
}

/// Types at most 2 levels deep, by hand.
pub fn ty_gen() -> BoxGen<Ty> {
    recursive(2, |sub: Option<BoxGen<Ty>>| match sub {
        None => just(Ty::Int).boxed(),
        Some(sub) => {
            let fun = (sub.clone(), sub).map(
                |(a, b)| Ty::Fun(Box::new(a), Box::new(b)),
                |t: &Ty| match t {
                    Ty::Fun(a, b) => Some(((**a).clone(), (**b).clone())),
                    Ty::Int => None,
                },
            );
            pick("Ty", [("Int", 1, just(Ty::Int).boxed()), ("Fun", 1, fun.boxed())]).boxed()
        }
    })
}

/// A term with numbers, addition and de Bruijn variables.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
pub enum Term {
    Lit(#[choice(range = 0..=3)] u8),
    Var(#[choice(range = 0..=2)] u8),
    Plus(Box<Term>, Box<Term>),
    Lam(#[choice(with = ty_gen())] Ty, Box<Term>),
    App(Box<Term>, Box<Term>),
}

/// A closed, well-typed term.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(type_of(&mut Vec::new(), &self.0).is_some())]
pub struct Program(pub Term);

/// Any term of the shape.
#[derive(Debug, Clone, PartialEq, Reflective)]
pub struct AnyTerm(pub Term);

/// The type of `t` under the types of the variables in scope (innermost last).
pub fn type_of(scope: &mut Vec<Ty>, t: &Term) -> Option<Ty> {
    match t {
        Term::Lit(_) => Some(Ty::Int),
        Term::Var(i) => scope.iter().rev().nth(*i as usize).cloned(),
        Term::Plus(a, b) => match (type_of(scope, a)?, type_of(scope, b)?) {
            (Ty::Int, Ty::Int) => Some(Ty::Int),
            _ => None,
        },
        Term::Lam(ty, body) => {
            scope.push(ty.clone());
            let out = type_of(scope, body);
            scope.pop();
            Some(Ty::Fun(Box::new(ty.clone()), Box::new(out?)))
        }
        Term::App(f, x) => match type_of(scope, f)? {
            Ty::Fun(a, b) if type_of(scope, x)? == *a => Some(*b),
            _ => None,
        },
    }
}
