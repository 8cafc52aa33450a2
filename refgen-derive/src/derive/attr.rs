//! Attribute parsing: `#[reflect]`, `#[choice]`, `#[at]`, `#[assume]` into typed, spanned structs.

use super::Ctxt;
use proc_macro2::Span;
use syn::meta::ParseNestedMeta;
use syn::parse::Parser;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprRange, LitInt, LitStr, Token, WherePredicate};

/// Where an attribute was written; decides which keys it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// On the struct or enum itself.
    Container,
    /// On an enum variant.
    Variant,
    /// On a field.
    Field,
}

impl Place {
    fn name(self) -> &'static str {
        match self {
            Place::Container => "the type",
            Place::Variant => "a variant",
            Place::Field => "a field",
        }
    }
}

/// Where a type's `#[assume]` applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// On every value of the type, its parts of the same type included (the default; `every`).
    Every,
    /// On the outermost value of the type only (`top`).
    Top,
}

/// One `#[assume(expr, ...)]`.
pub struct Assume {
    /// The condition.
    pub expr: Expr,
    /// `retries = N`: how many times a failing value is made again.
    pub retries: Option<(u32, LitInt)>,
    /// `top` or `every`, with the span of the word.
    pub scope: Option<(Scope, Span)>,
    /// The whole attribute.
    pub span: Span,
}

impl Assume {
    /// Where it applies (`every` unless it says `top`).
    pub fn scope(&self) -> Scope {
        self.scope.map_or(Scope::Every, |(s, _)| s)
    }
}

/// The largest `retries = N` of an `#[assume]`.
pub(crate) const MAX_RETRIES: u32 = 1000;

/// The attributes of the type itself.
#[derive(Default)]
pub struct ContainerAttrs {
    /// `#[assume(expr)]` (or `every`): the validity condition of every value of the type.
    pub assume: Option<Assume>,
    /// `#[assume(expr, top)]`: the validity condition of the outermost value only.
    pub assume_top: Option<Assume>,
    /// `#[reflect(bound = "...")]`: replaces the inferred bounds.
    pub bound: Option<(Vec<WherePredicate>, Span)>,
    /// `#[reflect(depth = N)]`: the recursion depth budget.
    pub depth: Option<(usize, LitInt)>,
    /// `#[reflect(args(name: Type, ...))]`: the arguments the generator takes, with the span of `args`.
    pub args: Option<(Vec<ArgDecl>, Span)>,
    /// `#[reflect(with = expr)]`: the type's whole generator (such as a `#[synth]` predicate's).
    pub with: Option<Expr>,
}

/// One argument of `#[reflect(args(...))]`: `name: Type`, `name: Type = default` or `name: Type in a..=b`.
pub struct ArgDecl {
    /// Its name, in scope in the type's attribute expressions.
    pub name: syn::Ident,
    /// Its type.
    pub ty: syn::Type,
    /// What the type's own `Reflective` generator gives it.
    pub top: Option<ArgTop>,
}

/// How the type's own `Reflective` generator sets an argument.
pub enum ArgTop {
    /// `= expr`: this value.
    Default(Expr),
    /// `in a..=b`: a choice in the range (an integer argument).
    Range(ExprRange),
}

impl syn::parse::Parse for ArgDecl {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let name: syn::Ident = input.parse()?;
        input.parse::<Token![:]>().map_err(|e| {
            syn::Error::new(e.span(), format!("an argument is `name: Type`, such as `args({name}: i32)`"))
        })?;
        let ty: syn::Type = input.parse()?;
        let top = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(ArgTop::Default(input.parse()?))
        } else if input.peek(Token![in]) {
            input.parse::<Token![in]>()?;
            match input.parse::<Expr>()? {
                Expr::Range(r) => Some(ArgTop::Range(r)),
                e => {
                    return Err(syn::Error::new_spanned(
                        e,
                        format!("`{name}: ... in` takes an inclusive range, such as `{name}: u8 in 0..=4`"),
                    ))
                }
            }
        } else {
            None
        };
        Ok(ArgDecl { name, ty, top })
    }
}

/// The attributes of an enum variant.
#[derive(Default)]
pub struct VariantAttrs {
    /// `#[choice(weight = N)]`.
    pub weight: Option<(u32, LitInt)>,
    /// `#[choice(label = "...")]`.
    pub label: Option<LitStr>,
    /// `#[choice(skip)]`: the span of `skip`.
    pub skip: Option<Span>,
    /// `#[choice(when = expr)]`: the variant is offered only where the condition on the arguments holds.
    pub when: Option<Expr>,
}

/// The attributes of one part of a value (`each(...)`, ...), with the span of its key.
pub type Part = (Box<PartAttrs>, Span);

/// What decides the generator of a value: a field's, or a part of one
/// (`each(...)`, `some(...)`, `key(...)`, `value(...)`).
#[derive(Default)]
pub struct PartAttrs {
    /// `range = a..=b`.
    pub range: Option<ExprRange>,
    /// `len = a..=b`.
    pub len: Option<ExprRange>,
    /// `regex = "..."`.
    pub regex: Option<LitStr>,
    /// `each(...)`: the elements of a `Vec`, `VecDeque` or set; with the span of `each`.
    pub each: Option<Part>,
    /// `some(...)`: the value inside an `Option`'s `Some`.
    pub some: Option<Part>,
    /// `key(...)`: the keys of a map.
    pub key: Option<Part>,
    /// `value(...)`: the values of a map.
    pub value: Option<Part>,
    /// `args(expr, ...)`: the arguments a type with `#[reflect(args(...))]` is made with.
    pub args: Option<(Vec<Expr>, Span)>,
}

impl PartAttrs {
    /// Whether nothing is said: the type's own generator.
    pub fn is_empty(&self) -> bool {
        self.range.is_none()
            && self.len.is_none()
            && self.regex.is_none()
            && self.each.is_none()
            && self.some.is_none()
            && self.key.is_none()
            && self.value.is_none()
            && self.args.is_none()
    }

    /// The tokens of every range given here and in the parts: what a
    /// generator built from these attributes may name.
    pub fn expr_tokens(&self) -> proc_macro2::TokenStream {
        let mut out = proc_macro2::TokenStream::new();
        for r in [&self.range, &self.len].into_iter().flatten() {
            out.extend(quote::ToTokens::to_token_stream(r));
        }
        for e in self.args.iter().flat_map(|(a, _)| a) {
            out.extend(quote::ToTokens::to_token_stream(e));
        }
        for (_, part) in self.parts() {
            if let Some((inner, _)) = part {
                out.extend(inner.expr_tokens());
            }
        }
        out
    }

    /// Whether `args(...)` is given here or in a part.
    pub fn has_args(&self) -> bool {
        self.args.is_some() || self.parts().iter().any(|(_, p)| p.is_some_and(|(inner, _)| inner.has_args()))
    }

    /// The parts, by key.
    pub fn parts(&self) -> [(&'static str, Option<&Part>); 4] {
        [
            ("each", self.each.as_ref()),
            ("some", self.some.as_ref()),
            ("key", self.key.as_ref()),
            ("value", self.value.as_ref()),
        ]
    }
}

/// The attributes of a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `range`, `len`, `regex` and the parts' attributes.
    pub part: PartAttrs,
    /// `#[choice(with = expr)]`.
    pub with: Option<Expr>,
    /// `#[choice(default)]` (`None` inside: `Default::default()`) or
    /// `#[choice(default = expr)]`: the field is not generated; with the
    /// span of `default`.
    pub default: Option<(Option<Expr>, Span)>,
    /// `#[at(expr)]`.
    pub at: Option<Expr>,
    /// `#[assume(expr)]` on the field.
    pub assume: Option<Assume>,
}

/// The largest `depth` a derived generator honours: `refgen_core::combinators::HARD_DEPTH`
/// (this crate does not depend on the core: `tests/ui/derive/depth_too_deep.rs` and
/// `tests/reliability.rs` pin both at 128).
pub(crate) const MAX_DEPTH: usize = 128;

const CONTAINER_KEYS: &str = "`bound = \"...\"`, `depth = N`, `args(name: Type, ...)` or `with = generator`";
const VARIANT_KEYS: &str = "`weight = N`, `label = \"...\"`, `skip` or `when = condition`";
const FIELD_KEYS: &str = "`range = a..=b`, `len = a..=b`, `regex = \"...\"`, `each(...)`, `some(...)`, `key(...)`, \
     `value(...)`, `args(...)`, `with = expr` or `default` / `default = expr`";
const PART_KEYS: &str = "`range = a..=b`, `len = a..=b`, `regex = \"...\"`, `args(...)`, `each(...)`, `some(...)`, \
     `key(...)` or `value(...)`";

fn set<T>(cx: &mut Ctxt, slot: &mut Option<T>, value: T, span: Span, what: &str) {
    if slot.is_some() {
        cx.error(span, format!("`{what}` is given twice; keep one"));
    } else {
        *slot = Some(value);
    }
}

/// Which attribute a misplaced one should become.
fn misplaced(cx: &mut Ctxt, attr: &Attribute, name: &str, place: Place) {
    let hint = match (name, place) {
        ("choice", Place::Container) => {
            "`#[choice(...)]` goes on variants and fields; for the whole type write `#[reflect(depth = N)]` or `#[reflect(bound = \"...\")]`"
        }
        ("reflect", _) => "`#[reflect(...)]` goes on the struct or enum itself; on variants and fields write `#[choice(...)]`",
        ("at", _) => "`#[at(...)]` goes on a field with `#[choice(with = ...)]`",
        ("assume", Place::Variant) => {
            "`#[assume(...)]` goes on the type or on a field; for a variant, state the condition on the type with a `match`"
        }
        _ => "this attribute does not apply here",
    };
    cx.error_spanned(attr, format!("`#[{name}]` cannot be used on {}: {hint}", place.name()));
}

/// Parse the attributes of the type itself.
pub fn container(cx: &mut Ctxt, attrs: &[Attribute]) -> ContainerAttrs {
    let mut out = ContainerAttrs::default();
    for attr in attrs {
        let Some(name) = ours(attr) else { continue };
        match name {
            "assume" => {
                if let Some(a) = assume_attr(cx, attr) {
                    match a.scope() {
                        Scope::Every if out.assume.is_some() => cx.error_spanned(
                            attr,
                            "a second `#[assume]` on every value of the type; join the conditions with `&&` in one",
                        ),
                        Scope::Top if out.assume_top.is_some() => cx.error_spanned(
                            attr,
                            "a second `#[assume(..., top)]`; join the conditions with `&&` in one",
                        ),
                        Scope::Every => out.assume = Some(a),
                        Scope::Top => out.assume_top = Some(a),
                    }
                }
            }
            "reflect" => {
                let r = attr.parse_nested_meta(|meta| {
                    let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                    match key.as_str() {
                        "bound" => {
                            let s: LitStr = meta.value()?.parse()?;
                            let preds = syn::punctuated::Punctuated::<WherePredicate, Token![,]>::parse_terminated
                                .parse_str(&s.value())
                                .map_err(|e| {
                                    syn::Error::new(
                                        s.span(),
                                        format!(
                                            "`bound` must hold where-clause predicates such as \"T: Reflective\": {e}"
                                        ),
                                    )
                                })?;
                            set(cx, &mut out.bound, (preds.into_iter().collect(), s.span()), s.span(), "bound");
                        }
                        "depth" => {
                            let n: LitInt = meta.value()?.parse()?;
                            let v: usize = n.base10_parse()?;
                            if v == 0 {
                                cx.error(
                                    n.span(),
                                    "`depth = 0` leaves no room for any value; write `depth = 1` or more",
                                );
                            } else if v > MAX_DEPTH {
                                cx.error(
                                    n.span(),
                                    format!(
                                        "`depth = {v}` is more than derived generators go: they stop at depth {MAX_DEPTH} \
                                         (`refgen_core::combinators::HARD_DEPTH`), so that a case's recursion stays well within \
                                         the 2 MiB stack of the thread that runs it; write `depth = {MAX_DEPTH}` or less"
                                    ),
                                );
                            }
                            let span = n.span();
                            set(cx, &mut out.depth, (v, n), span, "depth");
                        }
                        "args" => {
                            let span = meta.path.span();
                            if !meta.input.peek(syn::token::Paren) {
                                return Err(meta.error("`args` takes the arguments in parentheses, such as `args(lo: i32, hi: i32)`"));
                            }
                            let content;
                            syn::parenthesized!(content in meta.input);
                            let decls = syn::punctuated::Punctuated::<ArgDecl, Token![,]>::parse_terminated(&content)?;
                            if decls.is_empty() {
                                cx.error(span, "`args()` declares no argument; name them, such as `args(lo: i32, hi: i32)`, or remove it");
                            }
                            set(cx, &mut out.args, (decls.into_iter().collect(), span), span, "args");
                        }
                        "with" => {
                            let e: Expr = meta.value()?.parse()?;
                            let span = e.span();
                            set(cx, &mut out.with, e, span, "with");
                        }
                        "weight" | "label" | "skip" | "when" | "range" | "len" | "regex" | "each" | "some" | "key"
                        | "value" => {
                            return Err(meta.error(format!(
                                "`{key}` does not apply to the type; `#[reflect]` takes {CONTAINER_KEYS}"
                            )));
                        }
                        _ => {
                            return Err(meta.error(format!(
                                "unknown key `{}` in `#[reflect(...)]`; expected {CONTAINER_KEYS}",
                                path_str(&meta.path)
                            )))
                        }
                    }
                    Ok(())
                });
                if let Err(e) = r {
                    cx.push(e);
                }
            }
            other => misplaced(cx, attr, other, Place::Container),
        }
    }
    out
}

/// Parse the attributes of one enum variant.
pub fn variant(cx: &mut Ctxt, attrs: &[Attribute]) -> VariantAttrs {
    let mut out = VariantAttrs::default();
    for attr in attrs {
        let Some(name) = ours(attr) else { continue };
        if name != "choice" {
            misplaced(cx, attr, name, Place::Variant);
            continue;
        }
        if empty_list(cx, attr) {
            continue;
        }
        let r = attr.parse_nested_meta(|meta| {
            let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            match key.as_str() {
                "weight" => {
                    let n: LitInt = meta.value()?.parse()?;
                    let v: u32 = n.base10_parse().map_err(|_| {
                        syn::Error::new(n.span(), "`weight` must be a whole number from 1 to 4294967295")
                    })?;
                    let span = n.span();
                    set(cx, &mut out.weight, (v, n), span, "weight");
                }
                "label" => {
                    let s: LitStr = meta.value()?.parse()?;
                    let span = s.span();
                    set(cx, &mut out.label, s, span, "label");
                }
                "skip" => {
                    if meta.input.peek(Token![=]) {
                        return Err(meta.error("`skip` takes no value; write `#[choice(skip)]`"));
                    }
                    let span = meta.path.span();
                    set(cx, &mut out.skip, span, span, "skip");
                }
                "when" => {
                    let e: Expr = meta.value()?.parse()?;
                    let span = e.span();
                    set(cx, &mut out.when, e, span, "when");
                }
                "range" | "len" | "regex" | "with" | "each" | "some" | "key" | "value" | "args" => {
                    return Err(meta.error(format!(
                        "`{key}` applies to a field, not to a variant; on a variant `#[choice]` takes {VARIANT_KEYS}"
                    )));
                }
                _ => {
                    return Err(meta.error(format!(
                        "unknown key `{}` in `#[choice(...)]` on a variant; expected {VARIANT_KEYS}",
                        path_str(&meta.path)
                    )))
                }
            }
            Ok(())
        });
        if let Err(e) = r {
            cx.push(e);
        }
    }
    out
}

/// Parse the attributes of one field.
pub fn field(cx: &mut Ctxt, attrs: &[Attribute]) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in attrs {
        let Some(name) = ours(attr) else { continue };
        match name {
            "assume" => {
                if let Some(a) = assume_attr(cx, attr) {
                    if let Some((_, word)) = a.scope {
                        cx.error(
                            word,
                            "`top` and `every` say where a type's `#[assume]` applies; a field's condition \
                             applies to the field wherever it is made: remove the word, or move the condition \
                             to the type as `#[assume(..., top)]`",
                        );
                    }
                    let span = a.span;
                    set(cx, &mut out.assume, a, span, "assume");
                }
            }
            "at" => match attr.parse_args::<Expr>() {
                Ok(e) => set(cx, &mut out.at, e, attr.span(), "at"),
                Err(e) => cx.push(syn::Error::new(
                    e.span(),
                    format!("`#[at(...)]` takes one projection, such as `#[at(|c: &Celsius| Some(c.0))]`: {e}"),
                )),
            },
            "choice" => {
                if empty_list(cx, attr) {
                    continue;
                }
                let r = attr.parse_nested_meta(|meta| {
                    let key = meta.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                    match key.as_str() {
                        "range" | "len" | "regex" | "each" | "some" | "key" | "value" | "args" => {
                            part_key(cx, &meta, &key, &mut out.part)?;
                        }
                        "with" => {
                            let e: Expr = meta.value()?.parse()?;
                            let span = e.span();
                            set(cx, &mut out.with, e, span, "with");
                        }
                        "default" => {
                            let span = meta.path.span();
                            let value = if meta.input.peek(Token![=]) { Some(meta.value()?.parse()?) } else { None };
                            set(cx, &mut out.default, (value, span), span, "default");
                        }
                        "filter" => {
                            return Err(meta.error(
                                "a field's condition is written `#[assume(...)]` on the field, with `self` the field, \
                                 such as `#[assume(*self != 0)]`; values that fail it are discarded",
                            ));
                        }
                        "skip" => {
                            return Err(meta.error(
                                "to leave a field out of generation write `#[choice(default)]` (its `Default`) \
                                 or `#[choice(default = expr)]`; `skip` is for enum variants",
                            ));
                        }
                        "weight" | "label" | "when" => {
                            return Err(meta.error(format!(
                                "`{key}` applies to an enum variant, not to a field; on a field `#[choice]` takes {FIELD_KEYS}"
                            )));
                        }
                        _ => {
                            return Err(meta.error(format!(
                                "unknown key `{}` in `#[choice(...)]` on a field; expected {FIELD_KEYS}",
                                path_str(&meta.path)
                            )))
                        }
                    }
                    Ok(())
                });
                if let Err(e) = r {
                    cx.push(e);
                }
            }
            other => misplaced(cx, attr, other, Place::Field),
        }
    }
    out
}

/// One key of a field's or a part's generator (see [`PART_KEYS`]) into `out`.
fn part_key(cx: &mut Ctxt, meta: &ParseNestedMeta, key: &str, out: &mut PartAttrs) -> syn::Result<()> {
    match key {
        "range" | "len" => {
            let e: Expr = meta.value()?.parse()?;
            let Expr::Range(r) = e else {
                return Err(syn::Error::new_spanned(e, format!("`{key}` takes an inclusive range such as `0..=10`")));
            };
            let span = r.span();
            let slot = if key == "range" { &mut out.range } else { &mut out.len };
            set(cx, slot, r, span, key);
        }
        "regex" => {
            let s: LitStr = meta.value()?.parse()?;
            let span = s.span();
            set(cx, &mut out.regex, s, span, "regex");
        }
        "args" => {
            let span = meta.path.span();
            if !meta.input.peek(syn::token::Paren) {
                return Err(meta.error("`args` takes the arguments in parentheses, such as `args(*lo, *key - 1)`"));
            }
            let content;
            syn::parenthesized!(content in meta.input);
            let exprs = syn::punctuated::Punctuated::<Expr, Token![,]>::parse_terminated(&content)?;
            if exprs.is_empty() {
                cx.error(span, "`args()` gives no argument; give the type's arguments, such as `args(*lo, *key - 1)`");
            }
            set(cx, &mut out.args, (exprs.into_iter().collect(), span), span, "args");
        }
        _ => {
            let span = meta.path.span();
            if !meta.input.peek(syn::token::Paren) {
                return Err(meta.error(format!(
                    "`{key}` takes the attributes of the part in parentheses, such as `{key}(range = 0..=9)`"
                )));
            }
            let mut inner = PartAttrs::default();
            let probe = meta.input.fork();
            let content;
            syn::parenthesized!(content in probe);
            if content.is_empty() {
                let _group: proc_macro2::Group = meta.input.parse()?;
                cx.error(span, format!("`{key}()` says nothing; give the part's attributes, such as `{key}(range = 0..=9)`, or remove it"));
                return Ok(());
            }
            meta.parse_nested_meta(|m| {
                let k = m.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
                match k.as_str() {
                    "range" | "len" | "regex" | "each" | "some" | "key" | "value" | "args" => {
                        part_key(cx, &m, &k, &mut inner)
                    }
                    _ => Err(
                        m.error(format!("unknown key `{}` in `{key}(...)`; expected {PART_KEYS}", path_str(&m.path)))
                    ),
                }
            })?;
            let slot = match key {
                "each" => &mut out.each,
                "some" => &mut out.some,
                "key" => &mut out.key,
                _ => &mut out.value,
            };
            set(cx, slot, (Box::new(inner), span), span, key);
        }
    }
    Ok(())
}

/// Reports `#[choice()]` with nothing inside; `true` when it was.
fn empty_list(cx: &mut Ctxt, attr: &Attribute) -> bool {
    let empty = matches!(&attr.meta, syn::Meta::List(l) if l.tokens.is_empty());
    if empty {
        cx.error_spanned(
            attr,
            "`#[choice()]` says nothing; give it a key (see the keys in the derive's docs) or remove it",
        );
    }
    empty
}

/// The name of one of our attributes, or `None` for anyone else's.
fn ours(attr: &Attribute) -> Option<&'static str> {
    let id = attr.path().get_ident()?;
    ["choice", "at", "assume", "reflect"].into_iter().find(|n| id == n)
}

/// Parses `#[assume(expr)]`, `#[assume(expr, retries = N)]`, `#[assume(expr, top)]`,
/// `#[assume(expr, every)]` (the options in any order after the condition).
fn assume_attr(cx: &mut Ctxt, attr: &Attribute) -> Option<Assume> {
    let span = attr.span();
    let parsed = attr.parse_args_with(|input: syn::parse::ParseStream| {
        let expr: Expr = input.parse().map_err(|e| {
            syn::Error::new(
                e.span(),
                format!(
                    "`#[assume(...)]` takes one `bool` expression over `self`, such as `#[assume(self.lo <= self.hi)]`: {e}"
                ),
            )
        })?;
        let mut retries: Option<(u32, LitInt)> = None;
        let mut scope: Option<(Scope, Span)> = None;
        while !input.is_empty() {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            let key: syn::Ident = syn::ext::IdentExt::parse_any(input)?;
            match key.to_string().as_str() {
                "retries" => {
                    input.parse::<Token![=]>()?;
                    let n: LitInt = input.parse().map_err(|e| {
                        syn::Error::new(e.span(), "`retries` takes a whole number, such as `retries = 20`")
                    })?;
                    let v: u32 = n.base10_parse().ok().filter(|v| *v <= MAX_RETRIES).ok_or_else(|| {
                        syn::Error::new(
                            n.span(),
                            format!("`retries` is at most {MAX_RETRIES} (0 discards a failing value at once)"),
                        )
                    })?;
                    if retries.is_some() {
                        return Err(syn::Error::new(key.span(), "`retries` is given twice; keep one"));
                    }
                    retries = Some((v, n));
                }
                word @ ("top" | "every") => {
                    let s = if word == "top" { Scope::Top } else { Scope::Every };
                    if let Some((old, _)) = scope {
                        let msg = if old == s {
                            format!("`{word}` is given twice; keep one")
                        } else {
                            "`top` and `every` contradict each other: `every` (the default) checks every value \
                             of the type, parts included; `top` only the outermost one"
                                .to_string()
                        };
                        return Err(syn::Error::new(key.span(), msg));
                    }
                    scope = Some((s, key.span()));
                }
                _ => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                            "unknown `#[assume]` option `{key}`; after the condition write `retries = N`, \
                             `top` (the outermost value only) or `every` (every value of the type, the default)"
                        ),
                    ))
                }
            }
        }
        Ok(Assume { expr, retries, scope, span })
    });
    match parsed {
        Ok(a) => Some(a),
        Err(e) => {
            cx.push(e);
            None
        }
    }
}

fn path_str(p: &syn::Path) -> String {
    p.segments.iter().map(|s| s.ident.to_string()).collect::<Vec<_>>().join("::")
}
