//! A validity predicate read as a model: its arms, the parts each binds, and each arm's alternatives of conjuncts.

use crate::errors::Ctxt;
use proc_macro2::{Ident, TokenStream, TokenTree};
use quote::{format_ident, ToTokens};
use syn::spanned::Spanned;
use syn::{BinOp, Expr, FnArg, ItemFn, Pat, Type};

/// The predicate: `fn name(value: &V, arg: A, ...) -> bool`.
pub struct Pred {
    /// The function's name: the hidden generator type's name too.
    pub name: Ident,
    /// The value's parameter.
    pub value: Ident,
    /// The value's type (`V` of `&V`).
    pub value_ty: Type,
    /// The arguments, by value.
    pub args: Vec<(Ident, Type)>,
    /// Whether the `match` is on `*value` (bindings by value) rather than `value`.
    pub deref_scrutinee: bool,
    /// The arms, each with the alternatives of its body.
    pub arms: Vec<Arm>,
    /// Other `#[synth]` predicates whose calls on a part make the part (`uses(...)`).
    pub uses: Vec<Ident>,
}

/// One arm: a pattern and its body's alternatives (`a || b`).
pub struct Arm {
    /// The pattern, every `_` replaced by a binding `__w<i>` (so that backward sees every part).
    pub pat: Pat,
    /// The variant's name: the option's label.
    pub label: String,
    /// The parts the pattern binds (the user's and the wildcards'), in pattern order.
    pub parts: Vec<PartB>,
    /// The alternatives, each a list of conjuncts.
    pub alts: Vec<Vec<Expr>>,
}

/// One part a pattern binds.
pub struct PartB {
    /// The binding.
    pub name: Ident,
    /// Whether the binding is a reference to the part (default binding mode, or `ref`).
    pub by_ref: bool,
}

/// Read `f` as a predicate, recording every form it cannot read.
pub fn read(cx: &mut Ctxt, f: &ItemFn, uses: &[Ident]) -> Option<Pred> {
    let sig = &f.sig;
    let returns_bool = matches!(&sig.output, syn::ReturnType::Type(_, t) if t.to_token_stream().to_string() == "bool");
    if !returns_bool {
        cx.error(
            sig.output.span().join(sig.ident.span()).unwrap_or(sig.ident.span()),
            "`#[synth]` reads a predicate: a function that returns `bool`",
        );
        return None;
    }
    if !sig.generics.params.is_empty() {
        cx.error_spanned(&sig.generics, "`#[synth]` reads a predicate without generic parameters");
        return None;
    }
    let mut inputs = sig.inputs.iter();
    let Some(first) = inputs.next() else {
        cx.error(sig.ident.span(), "`#[synth]` reads a predicate over a value: its first parameter is `value: &Type`");
        return None;
    };
    let (value, value_ty) = match first {
        FnArg::Typed(p) => match (&*p.pat, &*p.ty) {
            (Pat::Ident(i), Type::Reference(r)) if r.mutability.is_none() => (i.ident.clone(), (*r.elem).clone()),
            _ => {
                cx.error_spanned(
                    p,
                    "the first parameter of a `#[synth]` predicate is the value, by reference: `t: &Tree`",
                );
                return None;
            }
        },
        FnArg::Receiver(r) => {
            cx.error_spanned(
                r,
                "`#[synth]` goes on a free function, such as `fn valid(t: &Tree, ...) -> bool`, not a method",
            );
            return None;
        }
    };
    let mut args = Vec::new();
    let mut by_reference = false;
    for a in inputs {
        match a {
            FnArg::Typed(p) => match &*p.pat {
                Pat::Ident(i) if i.by_ref.is_none() && i.subpat.is_none() => {
                    if let Type::Reference(r) = &*p.ty {
                        let owned = crate::errors::owned_type(r);
                        cx.error_spanned(
                            &p.ty,
                            format!(
                                "the generator `#[synth]` writes holds the predicate's arguments, so they are taken \
                                 by value: write `{}: {owned}` (and pass it down by value, cloned where needed)",
                                i.ident
                            ),
                        );
                        by_reference = true;
                    }
                    args.push((i.ident.clone(), (*p.ty).clone()))
                }
                _ => {
                    cx.error_spanned(&p.pat, "an argument of a `#[synth]` predicate is a plain name, such as `lo: i32`")
                }
            },
            FnArg::Receiver(r) => cx.error_spanned(r, "`#[synth]` goes on a free function, not a method"),
        }
    }
    if by_reference {
        return None;
    }
    let Some((scrutinee, arms)) = forms(&f.block) else {
        let at: &dyn ToTokens = match single_expr(&f.block) {
            Some(e) => e,
            None => &f.block,
        };
        cx.error_spanned(
            at,
            "`#[synth]` reads a predicate whose body is a `match` on the value (`match t { Leaf => true, \
             Node(l, k, r) => ... }`), an `if let Pattern = t { ... } else { false }`, a \
             `matches!(t, Pattern)`, or `let Pattern = t;` then the condition; write it in one of these forms",
        );
        return None;
    };
    let scrutinee = &scrutinee;
    let arms: Vec<(&Pat, Option<&Expr>, &Expr)> = arms.iter().map(|(p, g, b)| (p, g.as_ref(), b)).collect();
    let deref_scrutinee = match strip_parens(scrutinee) {
        Expr::Path(p) if p.path.is_ident(&value) => false,
        Expr::Unary(u)
            if matches!(u.op, syn::UnOp::Deref(_))
                && matches!(strip_parens(&u.expr), Expr::Path(p) if p.path.is_ident(&value)) =>
        {
            true
        }
        other => {
            cx.error_spanned(
                other,
                format!("`#[synth]` reads a `match` on the value itself: `match {value} {{ ... }}` (or `*{value}`)"),
            );
            return None;
        }
    };
    let mut out = Vec::new();
    let mut unread = false;
    for (pat, guard, body) in arms {
        for pat in or_cases(pat) {
            match read_arm(cx, pat, guard, body, deref_scrutinee) {
                Ok(Some(arm)) => out.push(arm),
                Ok(None) => {}
                Err(()) => unread = true,
            }
        }
    }
    if out.is_empty() && !unread {
        cx.error(sig.ident.span(), "the predicate accepts no value: no arm can be true");
        return None;
    }
    Some(Pred { name: sig.ident.clone(), value, value_ty, args, deref_scrutinee, arms: out, uses: uses.to_vec() })
}

/// The value a predicate's body matches on, and its arms (pattern, guard, body), for each form it
/// may take: a `match`; `if let P = t { e } else { false }`; `matches!(t, P if g)`; `let P = t;`
/// then the condition.
#[allow(clippy::type_complexity)]
fn forms(b: &syn::Block) -> Option<(Expr, Vec<(Pat, Option<Expr>, Expr)>)> {
    if let [syn::Stmt::Local(syn::Local { pat, init: Some(init), .. }), rest @ ..] = b.stmts.as_slice() {
        if init.diverge.is_some() || rest.is_empty() {
            return None;
        }
        let body = Expr::Block(syn::ExprBlock {
            attrs: vec![],
            label: None,
            block: syn::Block { brace_token: b.brace_token, stmts: rest.to_vec() },
        });
        return Some(((*init.expr).clone(), vec![(pat.clone(), None, body)]));
    }
    match single_expr(b)? {
        Expr::Match(m) => Some((
            (*m.expr).clone(),
            m.arms
                .iter()
                .map(|a| (a.pat.clone(), a.guard.as_ref().map(|g| (*g.1).clone()), (*a.body).clone()))
                .collect(),
        )),
        Expr::If(i) => {
            let Expr::Let(l) = &*i.cond else { return None };
            let never = match &i.else_branch {
                None => true,
                Some((_, e)) => {
                    matches!(strip_parens(e), Expr::Lit(l) if matches!(&l.lit, syn::Lit::Bool(b) if !b.value))
                }
            };
            let then = Expr::Block(syn::ExprBlock { attrs: vec![], label: None, block: i.then_branch.clone() });
            never.then(|| ((*l.expr).clone(), vec![((*l.pat).clone(), None, then)]))
        }
        Expr::Macro(m) if m.mac.path.is_ident("matches") => {
            let (scrutinee, pat, guard) = m
                .mac
                .parse_body_with(|input: syn::parse::ParseStream| {
                    let e: Expr = input.parse()?;
                    input.parse::<syn::Token![,]>()?;
                    let p = Pat::parse_multi_with_leading_vert(input)?;
                    let g = if input.peek(syn::Token![if]) {
                        input.parse::<syn::Token![if]>()?;
                        Some(input.parse::<Expr>()?)
                    } else {
                        None
                    };
                    let _ = input.parse::<Option<syn::Token![,]>>()?;
                    Ok((e, p, g))
                })
                .ok()?;
            Some((scrutinee, vec![(pat, guard, syn::parse_quote!(true))]))
        }
        _ => None,
    }
}

/// The one expression of a block (`{ e }`), or an error.
fn single_expr(b: &syn::Block) -> Option<&Expr> {
    match b.stmts.as_slice() {
        [syn::Stmt::Expr(e, None)] => Some(e),
        _ => None,
    }
}

/// `e` without parentheses, and without a block around a single expression.
pub(super) fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        Expr::Block(b) if b.label.is_none() => match single_expr(&b.block) {
            Some(inner) => strip_parens(inner),
            None => e,
        },
        _ => e,
    }
}

/// The cases of an or-pattern (`A | B`), each its own arm.
fn or_cases(p: &Pat) -> Vec<&Pat> {
    match p {
        Pat::Or(o) => o.cases.iter().flat_map(or_cases).collect(),
        _ => vec![p],
    }
}

/// One arm; `None` for an arm that is never true; `Err` after an error.
fn read_arm(cx: &mut Ctxt, pat: &Pat, guard: Option<&Expr>, body: &Expr, deref: bool) -> Result<Option<Arm>, ()> {
    if matches!(strip_parens(body), Expr::Lit(l) if matches!(&l.lit, syn::Lit::Bool(b) if !b.value)) {
        return Ok(None);
    }
    let mut parts = Vec::new();
    let mut label = None;
    let pat = rewrite_pat(cx, pat, !deref, &mut parts, &mut label, true).ok_or(())?;
    let label = label.unwrap_or_else(|| "value".to_owned());
    let guard: Vec<Expr> = guard.into_iter().flat_map(conjuncts).cloned().collect();
    let inlined = inline_lets(cx, body).ok_or(())?;
    let forms = dnf(&inlined);
    if forms.len() > MAX_ALTERNATIVES {
        cx.error_spanned(
            body,
            format!(
                "this arm's condition has {} alternatives once its `||`s are spread over its `&&`s, more than \
                 the {MAX_ALTERNATIVES} `#[synth]` makes options of; write fewer `||`s",
                forms.len()
            ),
        );
        return Err(());
    }
    let mut alts = Vec::new();
    for alt in forms {
        let mut conj = guard.clone();
        conj.extend(alt);
        conj.retain(|c| !matches!(strip_parens(c), Expr::Lit(l) if matches!(&l.lit, syn::Lit::Bool(b) if b.value)));
        alts.push(conj);
    }
    Ok(Some(Arm { pat, label, parts, alts }))
}

/// `p` with each wildcard made a binding `__w<i>`, its bindings recorded in `parts`, and the
/// variant's name in `label`; `None` (after an error) for a pattern no value can be built from.
fn rewrite_pat(
    cx: &mut Ctxt,
    p: &Pat,
    refs: bool,
    parts: &mut Vec<PartB>,
    label: &mut Option<String>,
    top: bool,
) -> Option<Pat> {
    let mut p = p.clone();
    let ok = match &mut p {
        Pat::Ident(i) => {
            if is_constant_name(&i.ident) && i.by_ref.is_none() && i.mutability.is_none() && i.subpat.is_none() {
                label.get_or_insert_with(|| i.ident.to_string());
                true
            } else if i.subpat.is_some() {
                cx.error_spanned(&*i, "`#[synth]` builds values from patterns, and cannot build from `name @ pattern`");
                false
            } else {
                parts.push(PartB { name: i.ident.clone(), by_ref: refs || i.by_ref.is_some() });
                true
            }
        }
        Pat::Wild(w) => {
            let name = format_ident!("__w{}", parts.len(), span = w.span());
            parts.push(PartB { name: name.clone(), by_ref: refs });
            p = Pat::Ident(syn::PatIdent { attrs: vec![], by_ref: None, mutability: None, ident: name, subpat: None });
            true
        }
        Pat::Path(path) => {
            label.get_or_insert_with(|| last_segment(&path.path));
            true
        }
        Pat::TupleStruct(ts) => {
            label.get_or_insert_with(|| last_segment(&ts.path));
            rewrite_elems(cx, ts.elems.iter_mut(), refs, parts, label)
        }
        Pat::Tuple(t) => rewrite_elems(cx, t.elems.iter_mut(), refs, parts, label),
        Pat::Struct(s) => {
            label.get_or_insert_with(|| last_segment(&s.path));
            if let Some(rest) = &s.rest {
                cx.error_spanned(rest, "`#[synth]` builds values from patterns: name every field instead of `..`");
                return None;
            }
            let mut ok = true;
            for f in s.fields.iter_mut() {
                if f.colon_token.is_none() {
                    // `Node { key, .. }`: the shorthand binds the field's name.
                    if let Pat::Ident(i) = &*f.pat {
                        parts.push(PartB { name: i.ident.clone(), by_ref: refs || i.by_ref.is_some() });
                    }
                } else if let Some(np) = rewrite_pat(cx, &f.pat, refs, parts, label, false) {
                    *f.pat = np;
                } else {
                    ok = false;
                }
            }
            ok
        }
        Pat::Reference(r) if top => match rewrite_pat(cx, &r.pat, false, parts, label, false) {
            Some(np) => {
                *r.pat = np;
                true
            }
            None => false,
        },
        Pat::Lit(_) => true,
        Pat::Paren(pp) => match rewrite_pat(cx, &pp.pat, refs, parts, label, top) {
            Some(np) => {
                *pp.pat = np;
                true
            }
            None => false,
        },
        other => {
            cx.error_spanned(
                &*other,
                "`#[synth]` builds values from the arms' patterns: variants, tuples, structs, bindings, `_` and literals",
            );
            false
        }
    };
    ok.then_some(p)
}

fn rewrite_elems<'p>(
    cx: &mut Ctxt,
    elems: impl Iterator<Item = &'p mut Pat>,
    refs: bool,
    parts: &mut Vec<PartB>,
    label: &mut Option<String>,
) -> bool {
    let mut ok = true;
    for e in elems {
        if let Pat::Rest(r) = e {
            cx.error_spanned(&*r, "`#[synth]` builds values from patterns: name every field instead of `..`");
            ok = false;
            continue;
        }
        match rewrite_pat(cx, e, refs, parts, label, false) {
            Some(np) => *e = np,
            None => ok = false,
        }
    }
    ok
}

fn last_segment(p: &syn::Path) -> String {
    p.segments.last().map(|s| s.ident.to_string()).unwrap_or_default()
}

/// A bare name that is a unit variant or a constant (`Leaf`, `E`), not a binding.
fn is_constant_name(i: &Ident) -> bool {
    i.to_string().chars().next().is_some_and(char::is_uppercase)
}

/// An arm's body with its `let name = expr;` statements inlined: each later use of `name` becomes
/// `(expr)`, so that `let k = i32::from(*k); lo <= k` reads as `lo <= (i32::from(*k))`. `None`
/// (after an error) for a statement of another kind.
fn inline_lets(cx: &mut Ctxt, body: &Expr) -> Option<Expr> {
    let Expr::Block(b) = body else { return Some(body.clone()) };
    let Some((last, lets)) = b.block.stmts.split_last() else { return Some(body.clone()) };
    let syn::Stmt::Expr(last, None) = last else {
        cx.error_spanned(last, "`#[synth]` reads an arm whose block ends with its condition");
        return None;
    };
    let mut names: Vec<(String, TokenStream)> = Vec::new();
    for stmt in lets {
        match stmt {
            syn::Stmt::Local(syn::Local { pat: Pat::Ident(i), init: Some(init), .. })
                if i.by_ref.is_none() && i.subpat.is_none() && init.diverge.is_none() =>
            {
                let value = substitute(init.expr.to_token_stream(), &names);
                names.push((i.ident.to_string(), quote::quote!((#value))));
            }
            other => {
                cx.error_spanned(
                    other,
                    "`#[synth]` reads an arm's block of `let name = expr;` statements and a condition; \
                     write the condition without other statements",
                );
                return None;
            }
        }
    }
    syn::parse2(substitute(last.to_token_stream(), &names)).ok()
}

/// `tokens` with each identifier bound in `names` (not a field access or a path's segment)
/// replaced by its tokens.
fn substitute(tokens: TokenStream, names: &[(String, TokenStream)]) -> TokenStream {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = TokenStream::new();
    for (i, t) in tts.iter().enumerate() {
        match t {
            TokenTree::Ident(id) => {
                let path = matches!(tts.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                let field = i > 0 && matches!(tts.get(i - 1), Some(TokenTree::Punct(p)) if p.as_char() == '.');
                match names.iter().rev().find(|(n, _)| id == n) {
                    Some((_, v)) if !path && !field => out.extend(v.clone()),
                    _ => out.extend([t.clone()]),
                }
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), substitute(g.stream(), names));
                ng.set_span(g.span());
                out.extend([TokenTree::Group(ng)]);
            }
            _ => out.extend([t.clone()]),
        }
    }
    out
}

/// The most alternatives one arm may have.
const MAX_ALTERNATIVES: usize = 32;

/// `e` as alternatives of conjuncts: its `||`s spread over its `&&`s (a
/// disjunctive normal form), in the order they are written.
fn dnf(e: &Expr) -> Vec<Vec<Expr>> {
    match strip_parens(e) {
        Expr::Binary(b) if matches!(b.op, BinOp::Or(_)) => {
            let mut v = dnf(&b.left);
            v.extend(dnf(&b.right));
            v
        }
        Expr::Binary(b) if matches!(b.op, BinOp::And(_)) => {
            let (l, r) = (dnf(&b.left), dnf(&b.right));
            let mut out = Vec::with_capacity(l.len() * r.len());
            for a in &l {
                for c in &r {
                    out.push(a.iter().chain(c).cloned().collect());
                    if out.len() > MAX_ALTERNATIVES {
                        return out;
                    }
                }
            }
            out
        }
        other => vec![vec![other.clone()]],
    }
}

/// The conjuncts of `a && b && ...`.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    match strip_parens(e) {
        Expr::Binary(b) if matches!(b.op, BinOp::And(_)) => {
            let mut v = conjuncts(&b.left);
            v.extend(conjuncts(&b.right));
            v
        }
        other => vec![other],
    }
}

/// Whether `tokens` use `name` as a value (not as a function called or a path's first segment).
pub fn names(tokens: TokenStream, name: &str) -> bool {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    tts.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Ident(id) if id == name => {
            let path = matches!(tts.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
            let field = i > 0 && matches!(tts.get(i - 1), Some(TokenTree::Punct(p)) if p.as_char() == '.');
            !path && !field
        }
        TokenTree::Group(g) => names(g.stream(), name),
        _ => false,
    })
}

/// The part an expression stands for (`k`, `*k`, `&l`, `&**l`, `l.as_ref()`), if it is one.
pub(super) fn part_of(e: &Expr, parts: &[PartB]) -> Option<usize> {
    match strip_parens(e) {
        Expr::Path(p) => parts.iter().position(|b| p.path.is_ident(&b.name)),
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => part_of(&u.expr, parts),
        Expr::Reference(r) => part_of(&r.expr, parts),
        Expr::MethodCall(m) if m.args.is_empty() && (m.method == "as_ref" || m.method == "as_deref") => {
            part_of(&m.receiver, parts)
        }
        _ => None,
    }
}
