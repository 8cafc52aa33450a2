//! `guide = name(k = v, ...)` written, spans kept, as calls on the guide's own typed options.
//!
//! The macro knows no guide (their table is in `refgen_runtime::guides`):
//! `guide = name` is `guides::name::options::<V>()`, `V` the arguments'
//! value, and `guide = name(k = v)` adds `.k({ use guides::name::names::*; v })`,
//! so a bare name in a value is first the guide's own (`explore = diverse`),
//! else the user's (`neighbour = my_function`). A wrong key or value is then
//! rustc's error at the key or the value. When every value is a literal, a
//! name, or an array of them, the options are built in a `const` block, so
//! that a setter's `assert!` rejects a bad value at compile time.

use crate::errors::Ctxt;
use proc_macro2::{Group, Span, TokenStream, TokenTree};
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Ident};

/// The guide `guide = ...` names.
pub(super) enum GuideExpr {
    /// One of `refgen_runtime::guides`, by its name, with the calls that set its options, whether
    /// they can be made in a `const` block, and the checks that each key is one the guide takes.
    Named { name: Ident, calls: Vec<TokenStream>, constant: bool, keys: Vec<TokenStream> },
    /// Any other expression, whose value implements `Guide`.
    Value(Expr),
}

/// The guide's name when `e` is a bare lower-case identifier, such as `rl`.
fn guide_name(e: &Expr) -> Option<&Ident> {
    let Expr::Path(p) = e else { return None };
    let name = p.path.get_ident()?;
    (p.qself.is_none() && name.to_string().starts_with(|c: char| c.is_ascii_lowercase())).then_some(name)
}

/// Whether `e` can be evaluated in a `const` block: a literal, a bare name,
/// or an array, a negation or a group of those.
fn constant(e: &Expr) -> bool {
    match e {
        Expr::Lit(_) => true,
        Expr::Path(p) => p.path.get_ident().is_some(),
        Expr::Unary(u) => matches!(u.op, syn::UnOp::Neg(_)) && constant(&u.expr),
        Expr::Array(a) => a.elems.iter().all(constant),
        Expr::Group(g) => constant(&g.expr),
        Expr::Paren(p) => constant(&p.expr),
        _ => false,
    }
}

/// The guide of `guide = value`.
pub(super) fn parse_guide(value: Expr, errors: &mut Ctxt) -> GuideExpr {
    let value = match value {
        Expr::Group(g) => *g.expr,
        v => v,
    };
    let rt = quote!(::refgen::refgen_runtime);
    if let Some(name) = guide_name(&value) {
        return GuideExpr::Named { name: name.clone(), calls: Vec::new(), constant: true, keys: Vec::new() };
    }
    let call = match &value {
        Expr::Call(c) if guide_name(&c.func).is_some() && c.args.iter().any(|a| matches!(a, Expr::Assign(_))) => c,
        _ => return GuideExpr::Value(value),
    };
    let name = guide_name(&call.func).expect("checked above");
    let mut calls = Vec::new();
    let mut key_checks = Vec::new();
    let mut keys: Vec<Ident> = Vec::new();
    let mut all_constant = true;
    for arg in &call.args {
        let key = match arg {
            Expr::Assign(a) => match &*a.left {
                Expr::Path(p) => p.path.get_ident().map(|k| (k, &*a.right)),
                _ => None,
            },
            _ => None,
        };
        let Some((key, value)) = key else {
            errors.error_spanned(
                arg,
                format!("`{name}(...)` takes `key = value` options, such as `{name}(key = 1)`; see `refgen::guides`"),
            );
            continue;
        };
        if keys.contains(key) {
            errors.error_spanned(key, format!("`{key}` is given twice"));
            continue;
        }
        keys.push(key.clone());
        all_constant &= constant(value);
        let value = quote_spanned! {value.span()=>
            {
                #[allow(unused_imports)]
                use #rt::guides::#name::names::*;
                #value
            }
        };
        let args = quote_spanned!(value.span()=> (#value));
        calls.push(quote_spanned!(key.span()=> .#key #args));
        key_checks.push(quote_spanned! {key.span()=>
            let () = #rt::guides::#name::OPTIONS.#key;
        });
    }
    GuideExpr::Named { name: name.clone(), calls, constant: all_constant, keys: key_checks }
}

/// The expression of a named guide's options, for arguments of type `value_ty`, after the checks
/// `keys` that each key given is one the guide takes (a field of its `OPTIONS`: rustc's error at a key
/// it does not take lists those it does).
pub(super) fn options(
    name: &Ident,
    calls: &[TokenStream],
    constant: bool,
    keys: &[TokenStream],
    value_ty: &TokenStream,
) -> TokenStream {
    // The type spanned at the guide's name too, so that a call of a setter is spanned from the
    // name to its value, in the attribute.
    let value_ty = respan(value_ty.clone(), name.span());
    let base = quote_spanned!(name.span()=> ::refgen::refgen_runtime::guides::#name::options::<#value_ty>());
    let options =
        if constant { quote_spanned!(name.span()=> const { #base #(#calls)* }) } else { quote!(#base #(#calls)*) };
    quote!({ #(#keys)* #options })
}

/// `tokens`, every one of them spanned at `span`.
pub(super) fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let TokenTree::Group(g) = &t {
                let mut group = Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                t = TokenTree::Group(group);
            }
            t.set_span(span);
            t
        })
        .collect()
}
