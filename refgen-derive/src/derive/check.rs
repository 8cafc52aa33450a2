//! The check pass: every misuse of the derive's attributes seen before code generation.

use super::attr::{ArgTop, PartAttrs};
use super::shape::{self, Tier};
use super::{Body, Ctxt, Field, Input};
use syn::{Expr, ExprRange, Lit, RangeLimits, UnOp};

/// Check `input`, recording every problem in `cx`.
pub fn check(cx: &mut Ctxt, input: &Input) {
    let all_fields: Vec<&Field> = match &input.body {
        Body::Struct(_, fs) => fs.iter().collect(),
        Body::Enum(vs) => vs.iter().flat_map(|v| v.fields.iter()).collect(),
    };
    for f in all_fields {
        if let syn::Type::Reference(r) = f.ty {
            if f.attrs.with.is_none() && f.attrs.default.is_none() {
                cx.error_spanned(
                    r,
                    format!(
                        "the field `{}` borrows its data, and a generated value must own it (`Reflective: 'static`); \
                         make it owned (`String` for `&str`, `Vec<T>` for `&[T]`, or `Cow<'a, str>`), \
                         or give it with `#[choice(default = ...)]`",
                        f.name
                    ),
                );
            }
        }
    }
    let params = type_params(input);
    arguments(cx, input, &params);
    match &input.body {
        Body::Struct(_, fields) => {
            for f in fields {
                field(cx, f);
                let generated = f.attrs.with.is_none() && f.attrs.default.is_none();
                if generated && shape::tier(f.ty, input.ident, &params) == Tier::Recursive {
                    let through_collection =
                        shape::generic_arg(f.ty, "Vec").is_some() || shape::generic_arg(f.ty, "Option").is_some();
                    if !through_collection {
                        cx.error_spanned(
                            f.ty,
                            format!(
                                "the field `{}` holds a `{}` in every value, so no value is finite; \
                                 make it `Option<Box<...>>` or `Vec<...>`, or make the type an enum with a base variant",
                                f.name, input.ident
                            ),
                        );
                    }
                }
            }
        }
        Body::Enum(variants) => {
            if variants.is_empty() {
                cx.error(
                    input.ident.span(),
                    format!(
                        "the enum `{}` has no variants, so it has no value to generate; add a variant",
                        input.ident
                    ),
                );
            }
            let mut labels: Vec<(String, proc_macro2::Span)> = Vec::new();
            let mut live = 0;
            let mut base = 0;
            for v in variants {
                for f in &v.fields {
                    field(cx, f);
                }
                if let Some(skip) = v.attrs.skip {
                    if v.attrs.weight.is_some() || v.attrs.label.is_some() {
                        cx.error(
                            skip,
                            format!(
                                "the variant `{}` is skipped, so its `weight` and `label` have no effect; remove them or remove `skip`",
                                v.ident
                            ),
                        );
                    }
                    continue;
                }
                live += 1;
                if let Some((0, lit)) = &v.attrs.weight {
                    cx.error_spanned(
                        lit,
                        format!(
                            "the weight of `{}` is 0, so it would never be generated; give it a weight of at least 1, \
                             or write `#[choice(skip)]` to leave it out",
                            v.ident
                        ),
                    );
                }
                let (label, span) = match &v.attrs.label {
                    Some(l) => (l.value(), l.span()),
                    None => (v.ident.to_string(), v.ident.span()),
                };
                if label.is_empty() {
                    cx.error(span, "a label cannot be empty; write a name such as `#[choice(label = \"leaf\")]`");
                }
                if labels.iter().any(|(l, _)| *l == label) {
                    cx.error(
                        span,
                        format!(
                            "the label \"{label}\" is used by two variants; labels name the options of the pick \
                             and must differ, so choose another one with `#[choice(label = \"...\")]`"
                        ),
                    );
                }
                labels.push((label, span));
                let tier = v.fields.iter().map(|f| field_tier(f, input, &params)).max().unwrap_or(Tier::Closed);
                if tier < Tier::Recursive {
                    base += 1;
                }
            }
            if !variants.is_empty() && live == 0 {
                cx.error(
                    input.ident.span(),
                    format!(
                        "every variant of `{}` is skipped, so there is nothing to generate; remove `#[choice(skip)]` from at least one variant",
                        input.ident
                    ),
                );
            } else if live > 0 && base == 0 {
                cx.error(
                    input.ident.span(),
                    format!(
                        "every generated variant of `{}` contains a `{}`, so no value is finite; \
                         add a variant without one (such as `Leaf`), or un-skip one",
                        input.ident, input.ident
                    ),
                );
            }
        }
    }
}

/// The arguments (`#[reflect(args(...))]`), the guards (`when`), the
/// fields' `args(...)` and the order of fields they name.
fn arguments(cx: &mut Ctxt, input: &Input, params: &[&syn::Ident]) {
    let decls = input.attrs.args.as_ref().map_or(&[][..], |(d, _)| d.as_slice());
    let field_lists: Vec<&[Field]> = match &input.body {
        Body::Struct(_, fs) => vec![fs.as_slice()],
        Body::Enum(vs) => vs.iter().map(|v| v.fields.as_slice()).collect(),
    };
    for (i, d) in decls.iter().enumerate() {
        if decls[..i].iter().any(|e| e.name == d.name) {
            cx.error(d.name.span(), format!("the argument `{}` is declared twice; rename one", d.name));
        }
        if field_lists.iter().flat_map(|fs| fs.iter()).any(|f| f.binding == d.name) {
            cx.error(
                d.name.span(),
                format!(
                    "the argument `{}` has the name of a field, and attribute expressions name both; rename one",
                    d.name
                ),
            );
        }
        if let Some(ArgTop::Range(r)) = &d.top {
            if shape::is_integer(&d.ty) {
                range_bounds(cx, r, &format!("{}: ... in", d.name));
            } else {
                let ty = type_str(&d.ty);
                cx.error_spanned(
                    r,
                    format!(
                        "`in a..=b` makes the argument `{name}` a choice in an integer range, but it is `{ty}`; \
                         give it a default instead (`{name}: {ty} = ...`)",
                        name = d.name,
                    ),
                );
            }
        }
    }
    if let (Some(_), Some((_, span))) = (&input.attrs.with, &input.attrs.args) {
        cx.error(*span, "a type with `#[reflect(with = ...)]` is made by that generator, which takes no arguments from the derive; keep one of the two");
    }
    let all_top = decls.iter().all(|d| d.top.is_some());
    if let Body::Enum(vs) = &input.body {
        let guarded: Vec<_> = vs.iter().filter(|v| v.attrs.when.is_some()).collect();
        for v in &guarded {
            let when = v.attrs.when.as_ref().expect("guarded");
            if decls.is_empty() {
                cx.error_spanned(
                    when,
                    format!(
                        "`when` offers the variant `{}` only where a condition on the type's arguments holds, \
                         and `{}` declares none; declare them with `#[reflect(args(name: Type, ...))]`",
                        v.ident, input.ident
                    ),
                );
            } else if v.attrs.skip.is_some() {
                cx.error_spanned(
                    when,
                    format!("the variant `{}` is skipped, so `when` has no effect; keep one of the two", v.ident),
                );
            }
        }
        if !guarded.is_empty() && vs.iter().filter(|v| v.attrs.skip.is_none()).count() > 64 {
            cx.error(input.ident.span(), "`when` guards the variants of an enum of at most 64 generated variants");
        }
    }
    for fields in field_lists {
        if let Err(i) = super::args::field_order(fields) {
            let f = &fields[i];
            cx.error(
                f.binding.span(),
                format!(
                    "the field `{}` is in a circle of fields whose attributes name each other, so none can be \
                     made first; make one of them depend on the type's arguments or on constants only",
                    f.name
                ),
            );
        }
        for f in fields {
            let a = &f.attrs;
            let Some((_, span)) = &a.part.args else {
                let recursive = shape::tier(f.ty, input.ident, params) == Tier::Recursive;
                let generated = a.with.is_none() && a.default.is_none();
                if !decls.is_empty() && !all_top && recursive && generated && !a.part.has_args() {
                    cx.error_spanned(
                        f.ty,
                        format!(
                            "`{}` takes arguments, and the field `{}` does not give them: write \
                             `#[choice(args(...))]` (or `each(args(...))` / `some(args(...))` for its parts), \
                             or give every argument a default (`name: Type = value`) or a range \
                             (`name: Type in a..=b`)",
                            input.ident, f.name
                        ),
                    );
                }
                continue;
            };
            let mut both = false;
            for (name, present) in
                [("with", a.with.is_some()), ("range", a.part.range.is_some()), ("regex", a.part.regex.is_some())]
            {
                if present {
                    both = true;
                    cx.error(
                        *span,
                        format!(
                            "the field `{}` has both `args` and `{name}`; `args` gives the arguments of the field \
                             type's own generator, so keep one of the two",
                            f.name
                        ),
                    );
                }
            }
            let no_args = shape::is_string(f.ty)
                || shape::is_integer(f.ty)
                || shape::elements(f.ty).is_some()
                || shape::generic_arg(f.ty, "Option").is_some()
                || shape::map_args(f.ty).is_some();
            if no_args && !both {
                cx.error(
                    *span,
                    format!(
                        "`args` gives the arguments of a type with `#[reflect(args(...))]`, but the field `{}` is `{}`{}",
                        f.name,
                        type_str(f.ty),
                        or_with(part_hint(f.ty, "args", "...")).replace("args = ...", "args(...)")
                    ),
                );
            }
        }
    }
}

/// The type parameters of the input.
pub fn type_params<'a>(input: &Input<'a>) -> Vec<&'a syn::Ident> {
    input.generics.type_params().map(|p| &p.ident).collect()
}

/// How far the field may recurse.
pub fn field_tier(f: &Field, input: &Input, params: &[&syn::Ident]) -> Tier {
    if f.attrs.part.range.is_some() || f.attrs.part.regex.is_some() || f.attrs.default.is_some() {
        return Tier::Closed;
    }
    let t = shape::tier(f.ty, input.ident, params);
    if f.attrs.with.is_some() {
        return t.max(Tier::Open);
    }
    t
}

fn field(cx: &mut Ctxt, f: &Field) {
    let a = &f.attrs;
    if let Some((_, span)) = &a.default {
        let p = &a.part;
        let parts = p.parts().map(|(k, v)| (k, v.is_some()));
        let others = [
            ("range", p.range.is_some()),
            ("len", p.len.is_some()),
            ("regex", p.regex.is_some()),
            ("args", p.args.is_some()),
        ]
        .into_iter()
        .chain(parts)
        .chain([("with", a.with.is_some()), ("#[at]", a.at.is_some())]);
        for (name, present) in others {
            if present {
                cx.error(
                    *span,
                    format!(
                        "the field `{}` is not generated (`default`), so `{name}` has no effect; keep one of the two",
                        f.name
                    ),
                );
            }
        }
    }
    if let Some(with) = &a.with {
        let p = &a.part;
        let parts = p.parts().map(|(k, v)| (k, v.is_some()));
        for (name, present) in [("range", p.range.is_some()), ("len", p.len.is_some()), ("regex", p.regex.is_some())]
            .into_iter()
            .chain(parts)
        {
            if present {
                cx.error_spanned(
                    with,
                    format!(
                        "the field `{}` has both `with` and `{name}`; `with` gives the whole generator, \
                         so put the {name} into it and keep one of the two",
                        f.name
                    ),
                );
            }
        }
    }
    if let Some(at) = &a.at {
        if a.with.is_none() {
            cx.error_spanned(
                at,
                format!(
                    "`#[at(...)]` gives the backward projection of a `#[choice(with = ...)]` generator, and the field `{}` has none; \
                     add `#[choice(with = ...)]` or remove `#[at(...)]`",
                    f.name
                ),
            );
        }
    }
    part(cx, f.ty, &a.part, &format!("the field `{}`", f.name));
}

/// Where the attribute for a part of `ty` goes, when `ty` has parts: `each`, `some` or `key`/`value`.
fn part_hint(ty: &syn::Type, key: &str, example: &str) -> String {
    if shape::elements(ty).is_some() {
        format!("; for its elements write `each({key} = {example})`")
    } else if shape::generic_arg(ty, "Option").is_some() {
        format!("; for the value inside `Some` write `some({key} = {example})`")
    } else if shape::map_args(ty).is_some() {
        format!("; for its keys or values write `key({key} = {example})` or `value({key} = {example})`")
    } else {
        String::new()
    }
}

/// Check the attributes `p` of a value of type `ty`, called `what` in messages (a field, or a part of one).
fn part(cx: &mut Ctxt, ty: &syn::Type, p: &PartAttrs, what: &str) {
    // "the field `x` is", "the elements of the field `x` are".
    let is = if what.starts_with("the field") || what.starts_with("the value inside") { "is" } else { "are" };
    if let Some(r) = &p.range {
        if shape::is_char(ty) {
            char_bounds(cx, r);
        } else {
            if !shape::is_integer(ty) {
                cx.error_spanned(
                    r,
                    format!(
                        "`range` needs an integer (u8, u16, u32, u64, u128, usize, i8, ..., isize) or a `char`, but {what} {is} `{}`{}",
                        type_str(ty),
                        or_with(part_hint(ty, "range", "0..=9"))
                    ),
                );
            }
            range_bounds(cx, r, "range");
        }
    }
    if let Some(r) = &p.len {
        if !shape::is_string(ty) && shape::elements(ty).is_none() && shape::map_args(ty).is_none() {
            cx.error_spanned(
                r,
                format!(
                    "`len` bounds the length of a `String`, `Vec`, `VecDeque`, set or map, but {what} {is} `{}`{}",
                    type_str(ty),
                    or_with(part_hint(ty, "len", "0..=9"))
                ),
            );
        }
        if let Some((lo, _)) = range_bounds(cx, r, "len") {
            if lo < 0 {
                cx.error_spanned(r, "a length cannot be negative; start the range at 0 or more");
            }
        }
    }
    if let Some(re) = &p.regex {
        if !shape::is_string(ty) {
            cx.error(
                re.span(),
                format!(
                    "`regex` makes a `String`, but {what} {is} `{}`{}",
                    type_str(ty),
                    or_with(part_hint(ty, "regex", "\"[a-z]+\""))
                ),
            );
        } else if p.len.is_some() {
            cx.error(
                re.span(),
                "`regex` and `len` both decide the length of the string; bound the length inside the pattern (`{1,8}`) and remove `len`",
            );
        }
        match regex_syntax::Parser::new().parse(&re.value()) {
            Err(e) => {
                cx.error(re.span(), format!("this regex does not parse:\n{e}\nwrite a pattern `regex-syntax` accepts"))
            }
            Ok(h) => {
                if h.properties().minimum_len().is_none() {
                    cx.error(re.span(), "this regex matches no string; write a pattern that matches at least one")
                }
            }
        }
    }
    let map = shape::map_args(ty);
    for (key, attrs) in p.parts() {
        let Some((inner, span)) = attrs else { continue };
        let (inner_ty, whose) = match key {
            "each" => (shape::elements(ty).map(|(_, e)| e), "the elements of"),
            "some" => (shape::generic_arg(ty, "Option"), "the value inside `Some` of"),
            "key" => (map.map(|(k, _)| k), "the keys of"),
            _ => (map.map(|(_, v)| v), "the values of"),
        };
        match inner_ty {
            Some(t) => part(cx, t, inner, &format!("{whose} {what}")),
            None => {
                let applies = match key {
                    "each" => "the elements of a `Vec`, `VecDeque`, `BTreeSet` or `HashSet`",
                    "some" => "the value inside an `Option`'s `Some`",
                    "key" => "the keys of a `BTreeMap` or `HashMap`",
                    _ => "the values of a `BTreeMap` or `HashMap`",
                };
                cx.error(*span, format!("`{key}(...)` applies to {applies}, but {what} {is} `{}`", type_str(ty)));
            }
        }
    }
}

/// `hint`, or the advice to write a generator with `with` when there is no better one.
fn or_with(hint: String) -> String {
    if hint.is_empty() {
        "; for other types write `#[choice(with = ...)]`".to_owned()
    } else {
        hint
    }
}

/// Checks that a char range is `'a'..='b'` with `a <= b` when both are literals.
fn char_bounds(cx: &mut Ctxt, r: &ExprRange) {
    let lit = |e: &Option<Box<Expr>>| match e.as_deref() {
        Some(Expr::Lit(l)) => match &l.lit {
            Lit::Char(c) => Some(c.value()),
            _ => None,
        },
        _ => None,
    };
    let (Some(lo), Some(hi)) = (lit(&r.start), lit(&r.end)) else {
        cx.error_spanned(r, "a `char` range takes two char literals, such as `'a'..='z'`");
        return;
    };
    if let RangeLimits::HalfOpen(_) = r.limits {
        cx.error_spanned(r, format!("`range` takes an inclusive range; write `{lo:?}..=...`"));
    } else if lo > hi {
        cx.error_spanned(
            r,
            format!("the range {lo:?}..={hi:?} is empty (its start is above its end); write it low..=high"),
        );
    }
}

fn type_str(ty: &syn::Type) -> String {
    quote::quote!(#ty).to_string().replace(' ', "")
}

/// An integer literal, possibly negated.
fn int_lit(e: &Expr) -> Option<i128> {
    match e {
        Expr::Lit(l) => match &l.lit {
            Lit::Int(i) => i.base10_parse::<i128>().ok(),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => int_lit(&u.expr).map(|v| -v),
        Expr::Paren(p) => int_lit(&p.expr),
        Expr::Group(g) => int_lit(&g.expr),
        _ => None,
    }
}

/// Checks that `r` is `a..=b` with `a <= b` where both are literals; returns them when known.
fn range_bounds(cx: &mut Ctxt, r: &ExprRange, key: &str) -> Option<(i128, i128)> {
    let (Some(start), Some(end)) = (&r.start, &r.end) else {
        cx.error_spanned(r, format!("`{key}` needs both ends; write an inclusive range such as `0..=10`"));
        return None;
    };
    if let RangeLimits::HalfOpen(_) = r.limits {
        cx.error_spanned(
            r,
            format!("`{key}` takes an inclusive range; write `{}..={}`", quote::quote!(#start), {
                match int_lit(end) {
                    Some(v) => (v - 1).to_string(),
                    None => format!("{} - 1", quote::quote!(#end)),
                }
            }),
        );
        return None;
    }
    let (lo, hi) = (int_lit(start)?, int_lit(end)?);
    if lo > hi {
        cx.error_spanned(
            r,
            format!("the range {lo}..={hi} is empty (its start is above its end); write it low..=high, such as `{hi}..={lo}`"),
        );
        return None;
    }
    Some((lo, hi))
}
