//! The property's function: its signature checked, and its arguments with their `#[gen(...)]`.

use crate::errors::Ctxt;
use quote::ToTokens;
use syn::{Attribute, Expr, FnArg, ItemFn, Pat, Type};

/// One argument of the property.
pub(super) struct Arg {
    /// Its pattern, as written.
    pub(super) pat: Pat,
    /// Its type.
    pub(super) ty: Type,
    /// The generator of `#[gen(EXPR)]`, if any.
    pub(super) gen: Option<Expr>,
    /// Its name in the report.
    pub(super) name: String,
}

/// Whether `attr` gives an argument's generator: `#[with(EXPR)]`, or `#[gen(EXPR)]` (`gen` is a
/// reserved word from edition 2024 on, where rustc's parser rejects it before this macro runs, so
/// `with` is the spelling that works in every edition; `r#gen` is accepted too).
fn is_generator_attr(attr: &Attribute) -> bool {
    attr.path().get_ident().is_some_and(|id| matches!(id.to_string().as_str(), "with" | "gen" | "r#gen"))
}

/// The `#[with(EXPR)]` (or `#[gen(EXPR)]`) of an argument, taking it (and any other attribute, an error) off.
fn take_gen_attr(attrs: &mut Vec<Attribute>, errors: &mut Ctxt) -> Option<Expr> {
    let mut gen = None;
    for attr in std::mem::take(attrs) {
        if is_generator_attr(&attr) {
            if gen.is_some() {
                errors.error_spanned(&attr, "only one `#[gen(...)]` per argument");
                continue;
            }
            match attr.parse_args::<Expr>() {
                Ok(e) => gen = Some(e),
                Err(_) => {
                    errors.error_spanned(&attr, "`#[gen(...)]` takes one generator expression: `#[gen(int(0..=9))]`")
                }
            }
        } else {
            errors.error_spanned(
                &attr,
                "only `#[with(EXPR)]` (or `#[gen(EXPR)]` before edition 2024) is allowed on a property's argument",
            );
        }
    }
    gen
}

/// The arguments of `func`, whose signature is checked (taking their `#[gen]` attributes off).
pub(super) fn arguments(func: &mut ItemFn, errors: &mut Ctxt) -> Vec<Arg> {
    let sig = &func.sig;
    if let Some(c) = &sig.constness {
        errors.error_spanned(c, "a property cannot be `const`");
    }
    if let Some(u) = &sig.unsafety {
        errors.error_spanned(u, "a property cannot be `unsafe`");
    }
    if let Some(a) = &sig.abi {
        errors.error_spanned(a, "a property cannot have an ABI");
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        errors.error_spanned(
            &sig.generics,
            "a property cannot be generic: its arguments are generated, so their types must be known",
        );
    }
    if let Some(v) = &sig.variadic {
        errors.error_spanned(v, "a property cannot be variadic");
    }
    for attr in &func.attrs {
        if attr.path().is_ident("test") {
            errors.error_spanned(attr, "`#[property]` already makes the function a `#[test]`; remove `#[test]`");
        }
    }
    let mut args = Vec::new();
    for input in func.sig.inputs.iter_mut() {
        match input {
            FnArg::Receiver(r) => errors.error_spanned(&*r, "a property cannot take `self`; it is a free function"),
            FnArg::Typed(pt) => {
                let gen = take_gen_attr(&mut pt.attrs, errors);
                if let syn::Type::Reference(r) = &*pt.ty {
                    errors.error_spanned(
                        r,
                        format!(
                            "a property's arguments are generated values it owns: write `{}` (and borrow it \
                             inside the function)",
                            crate::errors::owned_type(r)
                        ),
                    );
                }
                let name = match &*pt.pat {
                    Pat::Ident(p) => p.ident.to_string(),
                    other => other.to_token_stream().to_string(),
                };
                args.push(Arg { pat: (*pt.pat).clone(), ty: (*pt.ty).clone(), gen, name });
            }
        }
    }
    if args.is_empty() && func.sig.inputs.is_empty() {
        errors.error_spanned(
            &func.sig.ident,
            "a property needs at least one argument to generate; for a plain test use `#[test]`",
        );
    }
    args
}
