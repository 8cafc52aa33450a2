//! A small typed expression language (booleans, integers, `if`, `let`, functions): a type checker, a small-step evaluator, 7 mutants, 4 properties.
//!
//! Variables are de Bruijn indices; evaluation is call by value with
//! substitution. The properties are "well-typed terms keep their type"
//! (one step, and every step to a normal form), progress (a well-typed normal
//! form is a value), and agreement with a reference interpreter that uses an
//! environment instead of substitution.

use super::harness::{is, prop, Prop, Workload};
use refgen::combinators::{bool as any_bool, int, just, lazy, pick};
use refgen::prelude::*;
use std::rc::Rc;

/// A type.
#[derive(Debug, Clone, PartialEq, Eq, Reflective)]
#[reflect(depth = 3)]
pub enum Ty {
    /// Integers.
    Int,
    /// Booleans.
    Bool,
    /// Functions.
    Fun(Box<Ty>, Box<Ty>),
}

/// A term, as a user would derive it.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
pub enum Expr {
    /// An integer literal.
    Int(#[choice(range = 0..=3)] u8),
    /// A boolean literal.
    Bool(bool),
    /// A variable (de Bruijn index).
    Var(#[choice(range = 0..=2)] u8),
    /// Integer addition.
    Add(Box<Expr>, Box<Expr>),
    /// Integer comparison.
    Lt(Box<Expr>, Box<Expr>),
    /// A conditional.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let x = a in b` (`b` binds index 0).
    Let(Box<Expr>, Box<Expr>),
    /// A function of one argument of the type.
    Lam(Ty, Box<Expr>),
    /// Application.
    App(Box<Expr>, Box<Expr>),
}

/// A closed, well-typed term.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(type_of(&mut Vec::new(), &self.0).is_some())]
pub struct Program(pub Expr);

use Expr::*;

fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

/// The type of `e` with the variables in `scope` (innermost last); mutants 5, 6, 7 break the checker.
pub fn type_of(scope: &mut Vec<Ty>, e: &Expr) -> Option<Ty> {
    match e {
        Int(_) => Some(Ty::Int),
        Bool(_) => Some(Ty::Bool),
        Var(i) => {
            let i = *i as usize + usize::from(is(7) && *i > 0);
            scope.iter().rev().nth(i).cloned()
        }
        Add(x, y) => (type_of(scope, x)? == Ty::Int && type_of(scope, y)? == Ty::Int).then_some(Ty::Int),
        Lt(x, y) => (type_of(scope, x)? == Ty::Int && type_of(scope, y)? == Ty::Int).then_some(Ty::Bool),
        If(c, t, f) => {
            let (tc, tt, tf) = (type_of(scope, c)?, type_of(scope, t)?, type_of(scope, f)?);
            (tc == Ty::Bool && (is(5) || tt == tf)).then_some(tt)
        }
        Let(a, body) => {
            let ta = type_of(scope, a)?;
            scope.push(ta);
            let out = type_of(scope, body);
            scope.pop();
            out
        }
        Lam(t, body) => {
            scope.push(t.clone());
            let out = type_of(scope, body);
            scope.pop();
            Some(Ty::Fun(Box::new(t.clone()), Box::new(out?)))
        }
        App(f, x) => match type_of(scope, f)? {
            Ty::Fun(a, r) => {
                let tx = type_of(scope, x)?;
                (is(6) || tx == *a).then_some(*r)
            }
            _ => None,
        },
    }
}

fn ty(e: &Expr) -> Option<Ty> {
    type_of(&mut Vec::new(), e)
}

/// The number of nodes of a term.
pub fn size(e: &Expr) -> usize {
    match e {
        Int(_) | Bool(_) | Var(_) => 1,
        Add(x, y) | Lt(x, y) | Let(x, y) | App(x, y) => 1 + size(x) + size(y),
        If(c, t, f) => 1 + size(c) + size(t) + size(f),
        Lam(_, x) => 1 + size(x),
    }
}

fn is_value(e: &Expr) -> bool {
    matches!(e, Int(_) | Bool(_) | Lam(..))
}

/// Shift the free variables of `e` at or above `cut` up by one.
fn shift(cut: u8, e: &Expr) -> Expr {
    match e {
        Var(i) => Var(if *i >= cut { i + 1 } else { *i }),
        Int(_) | Bool(_) => e.clone(),
        Add(x, y) => Add(b(shift(cut, x)), b(shift(cut, y))),
        Lt(x, y) => Lt(b(shift(cut, x)), b(shift(cut, y))),
        If(c, t, f) => If(b(shift(cut, c)), b(shift(cut, t)), b(shift(cut, f))),
        Let(x, y) => Let(b(shift(cut, x)), b(shift(cut + 1, y))),
        Lam(t, x) => Lam(t.clone(), b(shift(cut + 1, x))),
        App(x, y) => App(b(shift(cut, x)), b(shift(cut, y))),
    }
}

/// Replace variable `j` of `e` by `s`, and lower the free variables above it
/// (mutants 1, 2: the index is not raised under a `fun`, a `let`).
fn subst(j: u8, s: &Expr, e: &Expr) -> Expr {
    match e {
        Var(i) if *i == j => s.clone(),
        Var(i) => Var(if *i > j { i - 1 } else { *i }),
        Int(_) | Bool(_) => e.clone(),
        Add(x, y) => Add(b(subst(j, s, x)), b(subst(j, s, y))),
        Lt(x, y) => Lt(b(subst(j, s, x)), b(subst(j, s, y))),
        If(c, t, f) => If(b(subst(j, s, c)), b(subst(j, s, t)), b(subst(j, s, f))),
        Let(x, y) => {
            let inner = if is(2) { j } else { j + 1 };
            Let(b(subst(j, s, x)), b(subst(inner, &shift(0, s), y)))
        }
        Lam(t, x) => {
            let inner = if is(1) { j } else { j + 1 };
            Lam(t.clone(), b(subst(inner, &shift(0, s), x)))
        }
        App(x, y) => App(b(subst(j, s, x)), b(subst(j, s, y))),
    }
}

/// One step of evaluation, if `e` can take one (mutants 3: `if` takes the
/// wrong branch; 4: a comparison gives an integer).
pub fn step(e: &Expr) -> Option<Expr> {
    Some(match e {
        Int(_) | Bool(_) | Var(_) | Lam(..) => return None,
        Add(x, y) => match (&**x, &**y) {
            (Int(m), Int(n)) => Int(m.wrapping_add(*n)),
            (x, y) if is_value(x) => Add(b(x.clone()), b(step(y)?)),
            (x, y) => Add(b(step(x)?), b(y.clone())),
        },
        Lt(x, y) => match (&**x, &**y) {
            (Int(m), Int(n)) => {
                if is(4) {
                    Int(u8::from(m < n))
                } else {
                    Bool(m < n)
                }
            }
            (x, y) if is_value(x) => Lt(b(x.clone()), b(step(y)?)),
            (x, y) => Lt(b(step(x)?), b(y.clone())),
        },
        If(c, t, f) => match &**c {
            Bool(v) => {
                if *v != is(3) {
                    (**t).clone()
                } else {
                    (**f).clone()
                }
            }
            c => If(b(step(c)?), t.clone(), f.clone()),
        },
        Let(x, body) if is_value(x) => subst(0, x, body),
        Let(x, body) => Let(b(step(x)?), body.clone()),
        App(f, x) => match (&**f, &**x) {
            (Lam(_, body), x) if is_value(x) => subst(0, x, body),
            (f, x) if is_value(f) => App(b(f.clone()), b(step(x)?)),
            (f, x) => App(b(step(f)?), b(x.clone())),
        },
    })
}

/// Values of the reference interpreter.
#[derive(Debug, Clone, PartialEq)]
enum Val {
    Int(u8),
    Bool(bool),
    Fun(Rc<Vec<Val>>, Expr),
}

/// The reference interpreter: environments, no substitution, never mutated.
fn eval(env: &Rc<Vec<Val>>, e: &Expr, fuel: &mut u32) -> Option<Val> {
    *fuel = fuel.checked_sub(1)?;
    Some(match e {
        Int(n) => Val::Int(*n),
        Bool(v) => Val::Bool(*v),
        Var(i) => env.iter().rev().nth(*i as usize)?.clone(),
        Add(x, y) => match (eval(env, x, fuel)?, eval(env, y, fuel)?) {
            (Val::Int(m), Val::Int(n)) => Val::Int(m.wrapping_add(n)),
            _ => return None,
        },
        Lt(x, y) => match (eval(env, x, fuel)?, eval(env, y, fuel)?) {
            (Val::Int(m), Val::Int(n)) => Val::Bool(m < n),
            _ => return None,
        },
        If(c, t, f) => match eval(env, c, fuel)? {
            Val::Bool(true) => eval(env, t, fuel)?,
            Val::Bool(false) => eval(env, f, fuel)?,
            _ => return None,
        },
        Let(x, body) => {
            let v = eval(env, x, fuel)?;
            let mut inner = (**env).clone();
            inner.push(v);
            eval(&Rc::new(inner), body, fuel)?
        }
        Lam(_, body) => Val::Fun(env.clone(), (**body).clone()),
        App(f, x) => match eval(env, f, fuel)? {
            Val::Fun(closure, body) => {
                let v = eval(env, x, fuel)?;
                let mut inner = (*closure).clone();
                inner.push(v);
                eval(&Rc::new(inner), &body, fuel)?
            }
            _ => return None,
        },
    })
}

/// Up to 200 steps from `e`: every term reached, `e` first.
fn trace(e: &Expr) -> Vec<Expr> {
    let mut out = vec![e.clone()];
    while out.len() < 200 {
        match step(out.last().expect("not empty")) {
            Some(next) => out.push(next),
            None => break,
        }
    }
    out
}

// ---------------------------------------------------------------- the hand-written generator

fn ty_gen(depth: usize) -> BoxGen<Ty> {
    let base = [("Int", 2, just(Ty::Int).boxed()), ("Bool", 1, just(Ty::Bool).boxed())];
    if depth == 0 {
        return pick("Ty", base).boxed();
    }
    let fun = (ty_gen(depth - 1), ty_gen(depth - 1)).map(|(a, r)| Ty::Fun(Box::new(a), Box::new(r)), |_: &Ty| None);
    let [i, bo] = base;
    pick("Ty", [i, bo, ("Fun", 1, fun.boxed())]).boxed()
}

/// Terms of type `t` in `scope` (innermost last), at most `depth` levels of
/// operators (a function's body may go one level further per arrow).
fn typed(scope: Rc<Vec<Ty>>, t: Ty, depth: usize) -> BoxGen<Expr> {
    let mut options: Vec<(&'static str, u32, BoxGen<Expr>)> = Vec::new();
    match &t {
        Ty::Int => options.push(("lit", 2, int(0u8..=3).map(Int, |_: &Expr| None).boxed())),
        Ty::Bool => options.push(("lit", 2, any_bool().map(Bool, |_: &Expr| None).boxed())),
        Ty::Fun(a, r) => {
            let (a, r) = ((**a).clone(), (**r).clone());
            let inner = Rc::new(scope.iter().cloned().chain([a.clone()]).collect::<Vec<_>>());
            let body = lazy(move || typed(inner.clone(), r.clone(), depth));
            options.push(("lam", 2, body.map(move |x| Lam(a.clone(), b(x)), |_: &Expr| None).boxed()));
        }
    }
    let vars: Vec<u8> = scope.iter().rev().enumerate().filter(|(_, s)| **s == t).map(|(i, _)| i as u8).collect();
    if !vars.is_empty() {
        let n = vars.len() - 1;
        options.push(("var", 3, int(0usize..=n).map(move |i| Var(vars[i]), |_: &Expr| None).boxed()));
    }
    if depth > 0 {
        let d = depth - 1;
        let sc = scope.clone();
        let sub = move |t: Ty| typed(sc.clone(), t, d);
        if t == Ty::Int {
            let s = sub.clone();
            let g = lazy(move || (s(Ty::Int), s(Ty::Int)).map(|(x, y)| Add(b(x), b(y)), |_: &Expr| None).boxed());
            options.push(("add", 1, g.boxed()));
        }
        if t == Ty::Bool {
            let s = sub.clone();
            let g = lazy(move || (s(Ty::Int), s(Ty::Int)).map(|(x, y)| Lt(b(x), b(y)), |_: &Expr| None).boxed());
            options.push(("lt", 1, g.boxed()));
        }
        let (s, tt) = (sub.clone(), t.clone());
        let g = lazy(move || {
            (s(Ty::Bool), s(tt.clone()), s(tt.clone())).map(|(c, x, y)| If(b(c), b(x), b(y)), |_: &Expr| None).boxed()
        });
        options.push(("if", 1, g.boxed()));
        let (sc, tt) = (scope.clone(), t.clone());
        let g = ty_gen(1).bind(move |a: Ty| {
            let inner = Rc::new(sc.iter().cloned().chain([a.clone()]).collect::<Vec<_>>());
            (typed(sc.clone(), a, d), typed(inner, tt.clone(), d)).map(|(x, y)| Let(b(x), b(y)), |_: &Expr| None)
        });
        options.push(("let", 1, g.boxed()));
        let (sc, tt) = (scope.clone(), t.clone());
        let g = ty_gen(1).bind(move |a: Ty| {
            let f = Ty::Fun(Box::new(a.clone()), Box::new(tt.clone()));
            (typed(sc.clone(), f, d), typed(sc.clone(), a, d)).map(|(f, x)| App(b(f), b(x)), |_: &Expr| None)
        });
        options.push(("app", 1, g.boxed()));
    }
    pick("Term", options).boxed()
}

fn hand() -> BoxGen<(Program,)> {
    ty_gen(1).bind(|t| typed(Rc::new(Vec::new()), t, 4)).map(|e| (Program(e),), |_: &(Program,)| None).boxed()
}

fn derived() -> BoxGen<(Program,)> {
    <(Program,)>::generator().boxed()
}

/// The workload.
pub fn workload() -> Workload {
    let mutants = vec![
        "subst_fun_index_not_raised",
        "subst_let_index_not_raised",
        "if_takes_wrong_branch",
        "lt_gives_int",
        "check_if_branches_unequal",
        "check_app_argument_ignored",
        "check_var_skips_one",
    ];
    #[rustfmt::skip]
    let props: Vec<Prop> = vec![
        prop("Preservation", derived, hand, None, |v| size(&v.0 .0), |(p,)| {
            let t = ty(&p.0);
            step(&p.0).is_none_or(|e| ty(&e) == t)
        }),
        prop("MultiPreservation", derived, hand, None, |v| size(&v.0 .0), |(p,)| {
            let t = ty(&p.0);
            trace(&p.0).iter().all(|e| ty(e) == t)
        }),
        prop("Progress", derived, hand, None, |v| size(&v.0 .0), |(p,)| {
            let tr = trace(&p.0);
            let last = tr.last().expect("not empty");
            tr.len() == 200 || is_value(last)
        }),
        prop("EvalAgrees", derived, hand, None, |v| size(&v.0 .0), |(p,)| {
            let last = trace(&p.0).pop().expect("not empty");
            match (eval(&Rc::new(Vec::new()), &p.0, &mut 10_000), &last) {
                (Some(Val::Int(m)), Int(n)) => m == *n,
                (Some(Val::Bool(m)), Bool(n)) => m == *n,
                (Some(Val::Fun(..)), Lam(..)) => true,
                // Ill-typed under a checker mutant: the reference gets stuck, not the property's business.
                (None, _) => true,
                _ => false,
            }
        }),
    ];
    Workload { name: "lang", mutants, props }
}
