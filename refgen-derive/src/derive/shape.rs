//! Syntactic shapes of field types: integers, strings, collections, and how recursive a type is.

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Expr, GenericArgument, Ident, Lit, PathArguments, Type, UnOp};

/// The primitive integer types, the ones `#[choice(range = ...)]` accepts.
pub const INTEGERS: [&str; 12] =
    ["u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize"];

/// How far a type may recurse, from the derive's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Tier {
    /// Built only from primitives and standard containers of them: cannot recurse.
    Closed,
    /// Mentions another user type or a type parameter: may recurse through it.
    Open,
    /// Mentions the type being derived (or `Self`): recursive.
    Recursive,
}

/// The single identifier of a plain path type such as `u8` or `String`.
fn plain_ident(ty: &Type) -> Option<&Ident> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last()?;
            matches!(seg.arguments, PathArguments::None).then_some(&seg.ident)
        }
        Type::Group(g) => plain_ident(&g.elem),
        Type::Paren(g) => plain_ident(&g.elem),
        _ => None,
    }
}

/// Whether `ty` is a primitive integer type.
pub fn is_integer(ty: &Type) -> bool {
    plain_ident(ty).is_some_and(|i| INTEGERS.iter().any(|n| i == n))
}

/// Whether `e` is an integer the derive may put in a const generic
/// argument: a literal, a negated literal, or a primitive integer type's
/// `MIN` or `MAX` (`u32::MAX`, `core::i64::MIN`). Other expressions (a
/// `const` item, a call, an earlier field) may not be constants, or may
/// name what a const argument cannot see.
pub fn is_const_bound(e: &Expr) -> bool {
    match e {
        Expr::Lit(l) => matches!(l.lit, Lit::Int(_)),
        Expr::Unary(u) => {
            matches!(u.op, UnOp::Neg(_)) && matches!(&*u.expr, Expr::Lit(l) if matches!(l.lit, Lit::Int(_)))
        }
        Expr::Paren(p) => is_const_bound(&p.expr),
        Expr::Group(g) => is_const_bound(&g.expr),
        Expr::Path(p) if p.qself.is_none() => {
            let segs: Vec<String> = p.path.segments.iter().map(|s| s.ident.to_string()).collect();
            let prefix_ok = match segs.len() {
                2 => true,
                3 => segs[0] == "core" || segs[0] == "std",
                _ => false,
            };
            let n = segs.len();
            prefix_ok
                && p.path.segments.iter().all(|s| s.arguments.is_none())
                && INTEGERS.contains(&segs[n - 2].as_str())
                && (segs[n - 1] == "MIN" || segs[n - 1] == "MAX")
        }
        _ => false,
    }
}

/// Whether `ty` is `String`.
pub fn is_string(ty: &Type) -> bool {
    plain_ident(ty).is_some_and(|i| i == "String")
}

/// Whether `ty` is `char`.
pub fn is_char(ty: &Type) -> bool {
    plain_ident(ty).is_some_and(|i| i == "char")
}

/// The collections `each(...)` applies to.
pub const EACH: [&str; 4] = ["Vec", "VecDeque", "BTreeSet", "HashSet"];

/// The element type of `ty` when it is one of [`EACH`], with the collection's name.
pub fn elements(ty: &Type) -> Option<(&'static str, &Type)> {
    EACH.iter().find_map(|&c| generic_arg(ty, c).map(|e| (c, e)))
}

/// The key and value types of `ty` when it is a `BTreeMap` or `HashMap`.
pub fn map_args(ty: &Type) -> Option<(&Type, &Type)> {
    ["BTreeMap", "HashMap"].iter().find_map(|&m| {
        let args = generic_args(ty, m)?;
        (args.len() == 2).then(|| (args[0], args[1]))
    })
}

/// The argument of `Name<T>` when `ty` is such a type with last segment `name`.
pub fn generic_arg<'t>(ty: &'t Type, name: &str) -> Option<&'t Type> {
    let args = generic_args(ty, name)?;
    (args.len() == 1).then(|| args[0])
}

/// The type arguments of `Name<A, B, ..>` when `ty` is such a type with last segment `name`.
fn generic_args<'t>(ty: &'t Type, name: &str) -> Option<Vec<&'t Type>> {
    match ty {
        Type::Path(p) if p.qself.is_none() => {
            let seg = p.path.segments.last()?;
            if seg.ident != name {
                return None;
            }
            let PathArguments::AngleBracketed(args) = &seg.arguments else { return None };
            args.args
                .iter()
                .map(|a| match a {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .collect()
        }
        Type::Group(g) => generic_args(&g.elem, name),
        Type::Paren(g) => generic_args(&g.elem, name),
        _ => None,
    }
}

/// Whether the tokens of `ty` mention any of `names` (or `Self`).
pub fn mentions(tokens: TokenStream, names: &[&Ident]) -> bool {
    tokens.into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == "Self" || names.iter().any(|n| i == **n),
        TokenTree::Group(g) => mentions(g.stream(), names),
        _ => false,
    })
}

/// How far `ty` may recurse, for the type named `me` with type parameters `params`.
pub fn tier(ty: &Type, me: &Ident, params: &[&Ident]) -> Tier {
    if mentions(ty.to_token_stream(), &[me]) {
        return Tier::Recursive;
    }
    closed_or_open(ty, params)
}

fn closed_or_open(ty: &Type, params: &[&Ident]) -> Tier {
    const LEAVES: [&str; 5] = ["bool", "char", "String", "f32", "f64"];
    const CONTAINERS: [&str; 6] = ["Vec", "Option", "Box", "Rc", "Arc", "VecDeque"];
    match ty {
        Type::Tuple(t) => t.elems.iter().map(|e| closed_or_open(e, params)).max().unwrap_or(Tier::Closed),
        Type::Array(a) => closed_or_open(&a.elem, params),
        Type::Group(g) => closed_or_open(&g.elem, params),
        Type::Paren(g) => closed_or_open(&g.elem, params),
        Type::Path(p) if p.qself.is_none() => {
            if let Some(i) = plain_ident(ty) {
                if params.contains(&i) {
                    return Tier::Open;
                }
                if is_integer(ty) || LEAVES.iter().any(|n| i == n) {
                    return Tier::Closed;
                }
                return Tier::Open;
            }
            for c in CONTAINERS {
                if let Some(inner) = generic_arg(ty, c) {
                    return closed_or_open(inner, params);
                }
            }
            let _ = p;
            Tier::Open
        }
        _ => Tier::Open,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use syn::parse_quote;

    /// Literals, negated literals and a primitive integer's `MIN`/`MAX` are constants a const
    /// argument can hold; other expressions are left to run time.
    #[test]
    fn const_bounds_are_literals_and_primitive_extremes() {
        let yes: [Expr; 7] = [
            parse_quote!(0),
            parse_quote!(1_000u64),
            parse_quote!(-5),
            parse_quote!((7)),
            parse_quote!(u32::MAX),
            parse_quote!(i64::MIN),
            parse_quote!(core::usize::MAX),
        ];
        for e in &yes {
            assert!(is_const_bound(e), "{}", e.to_token_stream());
        }
        let no: [Expr; 8] = [
            parse_quote!(LIMIT),
            parse_quote!(-LIMIT),
            parse_quote!(*n),
            parse_quote!(f()),
            parse_quote!(u32::BITS),
            parse_quote!(Foo::MAX),
            parse_quote!(1 + 2),
            parse_quote!(my::u32::MAX),
        ];
        for e in &no {
            assert!(!is_const_bound(e), "{}", e.to_token_stream());
        }
    }
}
