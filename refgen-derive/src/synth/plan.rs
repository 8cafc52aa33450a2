//! What each conjunct of an alternative makes of its arm's parts: a recursive call, a range, a computed value, a guard or a check; and the order the parts are made in.

use super::model::{names, part_of, strip_parens, Arm, PartB, Pred};
use proc_macro2::{Ident, Span};
use quote::ToTokens;
use syn::{BinOp, Expr};

/// How a part is made in one alternative.
pub enum Make {
    /// By the predicate itself (or by another `#[synth]` predicate it names in `uses(...)`), with
    /// these arguments (`bst(l, lo, *k - 1)`).
    Rec(Ident, Vec<Expr>),
    /// Computed: equal to this expression (through the conversion, when the predicate compares one).
    Eq(Expr, Option<Expr>),
    /// An integer within bounds: the lower ones and the upper ones, each with whether it is
    /// strict; with the conversion the predicate compares (`i32::from(*k)`), if any: the bounds
    /// are of its type, and the part is converted back.
    Int(Vec<(Expr, bool)>, Vec<(Expr, bool)>, Option<Expr>),
    /// Its type's own generator.
    Any,
}

/// What one alternative of an arm makes, and what it can only check.
pub struct Plan {
    /// How each part (by index in [`Arm::parts`]) is made.
    pub makes: Vec<Make>,
    /// The order the parts are made in.
    pub order: Vec<usize>,
    /// Conditions on the arguments alone: the alternative is offered where they hold.
    pub guards: Vec<Expr>,
    /// Checks on parts made directly (not by the predicate): each after the last part it names is made,
    /// that part made again while it fails.
    pub early: Vec<(usize, Expr)>,
    /// Checks that name parts the predicate makes, or the value: on the whole value, the alternative made again.
    pub late: Vec<Expr>,
}

impl Pred {
    /// The plan of alternative `alt` of `arm`; `Err` with a span and message when its parts name each other in a circle.
    pub fn plan(&self, arm: &Arm, alt: &[Expr]) -> Result<Plan, (Span, String)> {
        let n = arm.parts.len();
        let mut makes: Vec<Make> = (0..n).map(|_| Make::Any).collect();
        let names_part = |e: &Expr, i: usize| names(e.to_token_stream(), &arm.parts[i].name.to_string());
        let names_value = |e: &Expr| names(e.to_token_stream(), &self.value.to_string());
        // First the recursive calls: the parts the predicate makes.
        let mut rec = vec![false; n];
        let mut used = vec![false; alt.len()];
        for (ci, c) in alt.iter().enumerate() {
            if let Some((i, callee, args)) = self.recursive_call(c, &arm.parts) {
                if !rec[i] {
                    rec[i] = true;
                    used[ci] = true;
                    makes[i] = Make::Rec(callee, args);
                }
            }
        }
        // A recursive call whose arguments name a part the predicate makes is a check.
        for i in 0..n {
            if let Make::Rec(_, args) = &makes[i] {
                if args.iter().any(|a| (0..n).any(|j| rec[j] && names_part(a, j)) || names_value(a)) {
                    rec[i] = false;
                    makes[i] = Make::Any;
                    let ci = alt
                        .iter()
                        .position(|c| self.recursive_call(c, &arm.parts).is_some_and(|(k, ..)| k == i))
                        .expect("a call");
                    used[ci] = false;
                }
            }
        }
        let mut guards = Vec::new();
        let mut early = Vec::new();
        let mut late = Vec::new();
        let clean = |e: &Expr| !names_value(e) && (0..n).all(|j| !rec[j] || !names_part(e, j));
        // Which parts each part's making names so far (the recursive calls' arguments included).
        let mut deps: Vec<Vec<usize>> = (0..n)
            .map(|i| match &makes[i] {
                Make::Rec(_, a) => (0..n).filter(|&j| j != i && a.iter().any(|e| names_part(e, j))).collect(),
                _ => Vec::new(),
            })
            .collect();
        // Whether part `to` is made from part `from`, through the dependencies so far.
        let reaches = |deps: &Vec<Vec<usize>>, from: usize, to: usize| {
            let mut stack = vec![from];
            let mut seen = vec![false; n];
            while let Some(x) = stack.pop() {
                if x == to {
                    return true;
                }
                if !std::mem::replace(&mut seen[x], true) {
                    stack.extend(deps[x].iter().copied());
                }
            }
            false
        };
        // First the bounds by the arguments alone, then those between parts: a comparison of two
        // parts bounds the one that has no bound of its own yet, where that keeps an order.
        let mut pending = Vec::new();
        for (ci, c) in alt.iter().enumerate() {
            if used[ci] {
                continue;
            }
            let named: Vec<usize> = (0..n).filter(|&i| names_part(c, i)).collect();
            if named.is_empty() && !names_value(c) {
                guards.push(c.clone());
                continue;
            }
            let absolute = |e: &Expr| clean(e) && (0..n).all(|j| !names_part(e, j));
            let applied = orientations(c, &arm.parts)
                .into_iter()
                .filter(|(i, _, _, other)| !rec[*i] && absolute(other))
                .any(|(i, conv, op, other)| constrain(&mut makes[i], conv, op, other));
            if applied {
                continue;
            }
            if let Some((i, conv, lo, hi)) = contains(c, &arm.parts) {
                if !rec[i] && absolute(&lo) && absolute(&hi) && constrain_range(&mut makes[i], conv, lo, hi) {
                    continue;
                }
            }
            pending.push((named, c));
        }
        let bounded: Vec<bool> = makes.iter().map(|m| !matches!(m, Make::Any)).collect();
        for (named, c) in pending {
            let mut choices = orientations(c, &arm.parts);
            // Prefer bounding a part with no bound of its own by one that has.
            choices.sort_by_key(|(i, ..)| bounded[*i]);
            let mut applied = false;
            for (i, conv, op, other) in choices {
                let from: Vec<usize> = (0..n).filter(|&j| names_part(&other, j)).collect();
                let ordered = !from.contains(&i) && from.iter().all(|&j| !reaches(&deps, j, i));
                if !rec[i] && clean(&other) && ordered && constrain(&mut makes[i], conv, op, other) {
                    deps[i].extend(from);
                    applied = true;
                    break;
                }
            }
            if applied {
                continue;
            }
            if let Some((i, conv, lo, hi)) = contains(c, &arm.parts) {
                let from: Vec<usize> = (0..n).filter(|&j| names_part(&lo, j) || names_part(&hi, j)).collect();
                let ordered = !from.contains(&i) && from.iter().all(|&j| !reaches(&deps, j, i));
                if !rec[i] && clean(&lo) && clean(&hi) && ordered && constrain_range(&mut makes[i], conv, lo, hi) {
                    deps[i].extend(from);
                    continue;
                }
            }
            if clean(c) {
                early.push((named, c.clone()));
            } else {
                late.push(c.clone());
            }
        }
        // The order: each part after the parts its making names.
        let deps: Vec<Vec<usize>> = (0..n)
            .map(|i| {
                let exprs: Vec<&Expr> = match &makes[i] {
                    Make::Rec(_, a) => a.iter().collect(),
                    Make::Eq(e, _) => vec![e],
                    Make::Int(lo, hi, _) => lo.iter().chain(hi).map(|(e, _)| e).collect(),
                    Make::Any => Vec::new(),
                };
                (0..n).filter(|&j| j != i && exprs.iter().any(|e| names_part(e, j))).collect()
            })
            .collect();
        let mut placed = vec![false; n];
        let mut order = Vec::with_capacity(n);
        while order.len() < n {
            match (0..n).find(|&i| !placed[i] && deps[i].iter().all(|&j| placed[j])) {
                Some(i) => {
                    placed[i] = true;
                    order.push(i);
                }
                None => {
                    let i = (0..n).find(|&i| !placed[i]).unwrap_or(0);
                    return Err((
                        arm.parts[i].name.span(),
                        format!(
                            "the part `{}` is bounded by parts that are bounded by it, so none can be made first; \
                             bound one of them by the arguments or by constants only",
                            arm.parts[i].name
                        ),
                    ));
                }
            }
        }
        let position = |i: usize| order.iter().position(|&j| j == i).unwrap_or(0);
        let early = early
            .into_iter()
            .map(|(named, c)| (named.into_iter().max_by_key(|&i| position(i)).unwrap_or(order[0]), c))
            .collect();
        Ok(Plan { makes, order, guards, early, late })
    }

    /// `name(part, args...)`: the part, the predicate called and the arguments, when `c` is a
    /// call on a part of this predicate or of one it `uses`.
    pub fn recursive_call(&self, c: &Expr, parts: &[PartB]) -> Option<(usize, Ident, Vec<Expr>)> {
        let Expr::Call(call) = strip_parens(c) else { return None };
        let Expr::Path(f) = &*call.func else { return None };
        let callee = f.path.get_ident()?;
        let own = *callee == self.name && call.args.len() == self.args.len() + 1;
        if !own && !self.uses.contains(callee) {
            return None;
        }
        let mut args = call.args.iter();
        let part = part_of(args.next()?, parts)?;
        Some((part, callee.clone(), args.cloned().collect()))
    }
}

/// A comparison.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
}

/// An integer part as a comparison names it: the part itself (`k`, `*k`), or converted
/// (`i32::from(*k)`, `*k as i32`), with the conversion as written.
fn int_part(e: &Expr, parts: &[PartB]) -> Option<(usize, Option<Expr>)> {
    if let Some(i) = part_of(e, parts) {
        return Some((i, None));
    }
    match strip_parens(e) {
        Expr::Call(c) if c.args.len() == 1 => {
            let Expr::Path(f) = &*c.func else { return None };
            let last = f.path.segments.last()?;
            (f.path.segments.len() == 2 && (last.ident == "from" || last.ident == "try_from"))
                .then(|| part_of(&c.args[0], parts))
                .flatten()
                .filter(|_| last.ident == "from")
                .map(|i| (i, Some(e.clone())))
        }
        Expr::Cast(c) => part_of(&c.expr, parts).map(|i| (i, Some(e.clone()))),
        _ => None,
    }
}

/// Each way to read `c` as `part OP other`: with the part on the left, and turned around with the
/// part on the right.
fn orientations(c: &Expr, parts: &[PartB]) -> Vec<(usize, Option<Expr>, Cmp, Expr)> {
    let Expr::Binary(b) = strip_parens(c) else { return Vec::new() };
    let op = match b.op {
        BinOp::Lt(_) => Cmp::Lt,
        BinOp::Le(_) => Cmp::Le,
        BinOp::Gt(_) => Cmp::Gt,
        BinOp::Ge(_) => Cmp::Ge,
        BinOp::Eq(_) => Cmp::Eq,
        _ => return Vec::new(),
    };
    let flipped = match op {
        Cmp::Lt => Cmp::Gt,
        Cmp::Le => Cmp::Ge,
        Cmp::Gt => Cmp::Lt,
        Cmp::Ge => Cmp::Le,
        Cmp::Eq => Cmp::Eq,
    };
    let mut out = Vec::new();
    if let Some((i, conv)) = int_part(&b.left, parts) {
        out.push((i, conv, op, (*b.right).clone()));
    }
    if let Some((i, conv)) = int_part(&b.right, parts) {
        out.push((i, conv, flipped, (*b.left).clone()));
    }
    out
}

/// `(lo..=hi).contains(part)`: the part, its conversion and its bounds.
fn contains(c: &Expr, parts: &[PartB]) -> Option<(usize, Option<Expr>, Expr, Expr)> {
    let Expr::MethodCall(m) = strip_parens(c) else { return None };
    if m.method != "contains" || m.args.len() != 1 {
        return None;
    }
    let Expr::Range(r) = strip_parens(&m.receiver) else { return None };
    if !matches!(r.limits, syn::RangeLimits::Closed(_)) {
        return None;
    }
    let arg = match strip_parens(&m.args[0]) {
        Expr::Reference(r) => &*r.expr,
        other => other,
    };
    let (i, conv) = int_part(arg, parts)?;
    Some((i, conv, (**r.start.as_ref()?).clone(), (**r.end.as_ref()?).clone()))
}

/// Makes `m` hold `part OP other` (a bound, or with `==` a computed part); `false` when it cannot
/// (the part is computed already, or compared through another conversion).
fn constrain(m: &mut Make, conv: Option<Expr>, op: Cmp, other: Expr) -> bool {
    let same = |c2: &Option<Expr>| {
        c2.as_ref().map(|e| e.to_token_stream().to_string()) == conv.as_ref().map(|e| e.to_token_stream().to_string())
    };
    match (&*m, op) {
        (Make::Any, Cmp::Eq) => {
            *m = Make::Eq(other, conv);
            true
        }
        (Make::Any, _) => {
            *m = Make::Int(Vec::new(), Vec::new(), conv);
            bound(m, op, other)
        }
        (Make::Int(_, _, c2), _) if !same(c2) => false,
        (Make::Int(..), Cmp::Eq) => bound(m, Cmp::Ge, other.clone()) && bound(m, Cmp::Le, other),
        (Make::Int(..), _) => bound(m, op, other),
        (Make::Eq(..) | Make::Rec(..), _) => false,
    }
}

/// Makes `m` hold `(lo..=hi).contains(part)`; `false` when it cannot.
fn constrain_range(m: &mut Make, conv: Option<Expr>, lo: Expr, hi: Expr) -> bool {
    constrain(m, conv.clone(), Cmp::Ge, lo) && constrain(m, conv, Cmp::Le, hi)
}

/// Adds the bound `part OP e` to an integer's bounds; `false` when `op` is not a bound.
fn bound(m: &mut Make, op: Cmp, e: Expr) -> bool {
    let Make::Int(lo, hi, _) = m else { return false };
    match op {
        Cmp::Lt => hi.push((e, true)),
        Cmp::Le => hi.push((e, false)),
        Cmp::Gt => lo.push((e, true)),
        Cmp::Ge => lo.push((e, false)),
        Cmp::Eq => return false,
    }
    true
}
