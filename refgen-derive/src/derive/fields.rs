//! One field's generator, forward and backward: `range`, `with`, parts and `assume` as code.

use super::attr::{Assume, Part, PartAttrs};
use super::shape::{self, Tier};
use super::{Field, Input};
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Type};

/// The path of refgen-core as users see it (through the `refgen` crate).
pub(crate) fn core_path() -> TokenStream {
    quote!(::refgen::refgen_core)
}

/// The name `self` becomes inside `#[assume]` conditions.
fn self_ident() -> Ident {
    Ident::new("__reflect_self", Span::call_site())
}

/// `tokens` with every `self` (not followed by `::`) renamed to [`self_ident`].
fn replace_self(tokens: TokenStream) -> TokenStream {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tts.len());
    for (i, t) in tts.iter().enumerate() {
        match t {
            TokenTree::Ident(id) if id == "self" => {
                let path = matches!(tts.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
                if path {
                    out.push(t.clone());
                } else {
                    out.push(TokenTree::Ident(Ident::new("__reflect_self", id.span())));
                }
            }
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), replace_self(g.stream()));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            _ => out.push(t.clone()),
        }
    }
    out.into_iter().collect()
}

/// `assume_bool(expr)` with `self` bound to `value` (a reference).
pub(super) fn assume_check(expr: &Expr, value: TokenStream) -> TokenStream {
    let core = core_path();
    let me = self_ident();
    let body = replace_self(quote!(#expr));
    let call = quote_spanned!(expr.span()=> #core::__private::assume_bool(#body));
    quote!({ let #me = #value; #call })
}

/// Whether `tokens` use the identifier `name` other than as a function
/// called (`name(...)`) or a path's first segment (`name::...`).
pub(super) fn names_value(tokens: TokenStream, name: &str) -> bool {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    tts.iter().enumerate().any(|(i, t)| match t {
        TokenTree::Ident(id) if id == name => {
            let called = matches!(tts.get(i + 1), Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Parenthesis);
            let path = matches!(tts.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == ':');
            !called && !path
        }
        TokenTree::Group(g) => names_value(g.stream(), name),
        _ => false,
    })
}

/// What generated code needs to know about the type as a whole.
pub(super) struct ExpandCx<'a> {
    pub(super) input: &'a Input<'a>,
    pub(super) params: Vec<&'a Ident>,
    pub(super) type_name: String,
    pub(super) depth: TokenStream,
    /// The type's arguments (`#[reflect(args(...))]`), none for most types.
    pub(super) args: &'a [super::attr::ArgDecl],
}

/// One field's generator: an optional stored member (its name, the type
/// of the values it makes, its initializer), and how to run it forward and
/// backward.
pub(super) struct FieldGen {
    pub(super) member: Option<(Ident, TokenStream, TokenStream)>,
    run: TokenStream,
    back: TokenStream,
}

impl ExpandCx<'_> {
    /// Whether `tokens` name one of the type's arguments.
    fn names_arg(&self, tokens: &TokenStream) -> bool {
        self.args.iter().any(|d| names_value(tokens.clone(), &d.name.to_string()))
    }

    fn field_gen(&self, f: &Field, site: &str, member: Ident, earlier: &[&Field]) -> FieldGen {
        let core = core_path();
        let ty = f.ty;
        let a = &f.attrs;
        let local = f.local();
        let stored = |init: TokenStream| FieldGen {
            member: Some((member.clone(), quote!(#ty), init)),
            run: quote!(#core::__private::run_field(&self.#member, #site, __src)),
            back: quote!(#core::__private::back_field(&self.#member, #site, #local)),
        };
        // The earlier fields an expression names as values, bound by name
        // (forward to references of the locals, backward to the locals, which
        // are references already). Only those: a field called `regex` must
        // not shadow the function `regex(...)`.
        let bindings = |e: &dyn quote::ToTokens| {
            let tokens = e.to_token_stream();
            let named: Vec<&&Field> =
                earlier.iter().filter(|f| names_value(tokens.clone(), &f.binding.to_string())).collect();
            let fwd: TokenStream = named
                .iter()
                .map(|f| {
                    let (b, l) = (&f.binding, f.local());
                    quote!(#[allow(unused_variables)] let #b = &#l;)
                })
                .collect();
            let back: TokenStream = named
                .iter()
                .map(|f| {
                    let (b, l) = (&f.binding, f.local());
                    quote!(#[allow(unused_variables)] let #b = #l;)
                })
                .collect();
            (fwd, back)
        };
        if let Some((value, span)) = &a.default {
            let value = value
                .as_ref()
                .map_or_else(|| quote_spanned!(*span=> <#ty as ::core::default::Default>::default()), |e| quote!(#e));
            let (fwd_bind, _) = bindings(&value);
            return FieldGen {
                member: None,
                run: quote!(::core::result::Result::<#ty, #core::Stop>::Ok({ #fwd_bind #value })),
                back: quote!(::std::vec![#core::Way::empty()]),
            };
        }
        if let Some(with) = &a.with {
            let (fwd_bind, back_bind) = bindings(with);
            return match &a.at {
                None => {
                    let g = quote_spanned!(with.span()=> #core::__private::with_gen::<#ty, _>(#with));
                    FieldGen {
                        member: None,
                        run: quote!({
                            let __gen = { #fwd_bind #g };
                            #core::__private::run_field(&__gen, #site, __src)
                        }),
                        back: quote!({
                            let __gen = { #back_bind #g };
                            #core::__private::back_field(&__gen, #site, #local)
                        }),
                    }
                }
                Some(at) => {
                    let g = quote_spanned!(with.span()=> #core::__private::with_gen::<_, _>(#with));
                    let into = quote_spanned!(with.span()=> ::core::convert::Into::<#ty>::into);
                    let back_at =
                        quote_spanned!(at.span()=> #core::__private::back_at::<#ty, _, _>(&__gen, #local, #at));
                    FieldGen {
                        member: None,
                        run: quote!({
                            let __gen = { #fwd_bind #g };
                            #core::__private::run_part(&__gen, #site, __src).map(#into)
                        }),
                        back: quote!({
                            let __gen = { #back_bind #g };
                            #back_at
                        }),
                    }
                }
            };
        }
        if let Some(r) = &a.part.range {
            if shape::is_integer(ty) {
                let g = int_gen(ty, r, site);
                // The bounds may name earlier fields (`range = 0..=*len`).
                let (fwd_bind, back_bind) = bindings(r);
                return FieldGen {
                    member: None,
                    run: quote!({ #fwd_bind #core::__private::run_field(&#g, #site, __src) }),
                    back: quote!({ #back_bind #core::__private::back_field(&#g, #site, #local) }),
                };
            }
        }
        let g = self.part_gen(ty, &a.part, site);
        let tokens = a.part.expr_tokens();
        let (fwd_bind, back_bind) = bindings(&tokens);
        // A generator given arguments is made for each value: its type's
        // body may be the one being built (a recursive type).
        if fwd_bind.is_empty() && !self.names_arg(&tokens) && !a.part.has_args() {
            return stored(g);
        }
        // Bounds that name earlier fields (`len = 1..=*n`): the generator is
        // built for each value, with those fields in scope.
        FieldGen {
            member: None,
            run: quote!({ #fwd_bind let __gen = #g; #core::__private::run_field(&__gen, #site, __src) }),
            back: quote!({ #back_bind let __gen = #g; #core::__private::back_field(&__gen, #site, #local) }),
        }
    }

    /// A generator of `ty` at `site`, as the attributes `p` say (the type's
    /// own generator when they say nothing). The combinators it is built of
    /// stay unboxed, so that their calls to each other are static. A type's
    /// own generator that may lead back to the type being derived is built
    /// on first use (`combinators::lazy`), so that building the generator ends.
    fn part_gen(&self, ty: &Type, p: &PartAttrs, site: &str) -> TokenStream {
        let core = core_path();
        let depth = &self.depth;
        let limited = |t: &Type| shape::tier(t, self.input.ident, &self.params) > Tier::Closed;
        let recursive_path =
            |t: &Type| matches!(t, Type::Path(_)) && shape::tier(t, self.input.ident, &self.params) == Tier::Recursive;
        let own_of = |t: &Type, args: Option<&(Vec<Expr>, Span)>| match (args, shape::generic_arg(t, "Box")) {
            // A type with arguments: its generator under them (through `Box`).
            (Some((es, _)), boxed) => {
                let given = if es.len() == 1 { quote!(#(#es)*) } else { quote!((#(#es,)*)) };
                match boxed {
                    Some(inner) => quote!(#core::reflective::boxed_values(
                        <#inner as #core::ReflectiveWith>::generator_with(#given)
                    )),
                    None => quote!(<#t as #core::ReflectiveWith>::generator_with(#given)),
                }
            }
            // `Box<T>` of a type that names the type derived: `T`'s own
            // generator boxed here, not behind `Box<T>`'s (one call fewer
            // per value).
            (None, Some(inner)) if recursive_path(inner) => quote!(#core::reflective::boxed_values(
                #core::combinators::lazy(|| <#inner as #core::Reflective>::generator())
            )),
            _ if limited(t) => quote!(#core::combinators::lazy(|| <#t as #core::Reflective>::generator())),
            _ => quote!(<#t as #core::Reflective>::generator()),
        };
        let own = || own_of(ty, p.args.as_ref());
        if let Some(r) = &p.range {
            let (lo, hi) = (&r.start, &r.end);
            return if shape::is_char(ty) {
                quote_spanned!(r.span()=> #core::combinators::char_class(&[(#lo, #hi)]).site(#site))
            } else {
                int_gen(ty, r, site)
            };
        }
        if let Some(re) = &p.regex {
            return quote!(#core::regex::regex(#re));
        }
        if p.args.is_some() {
            return own();
        }
        let len = p.len.as_ref().map(|r| {
            let (lo, hi) = (&r.start, &r.end);
            quote_spanned!(r.span()=> #lo, #hi)
        });
        // Without `len`: the default length (`SeqField::sized`).
        let seq = |len: Option<TokenStream>, lim: bool, g: TokenStream, c: TokenStream| match len {
            Some(len) => quote!(#core::__private::SeqField::<_, #c>::new(#site, #len, #depth, #lim, #g)),
            None => quote!(#core::__private::SeqField::<_, #c>::sized(#site, #depth, #lim, #g)),
        };
        let part = |q: &Option<Part>, t: &Type, name: &str| match q {
            Some((inner, _)) => self.part_gen(t, inner, &format!("{site}.{name}")),
            None => own_of(t, None),
        };
        if shape::is_string(ty) {
            if let Some(len) = len {
                return quote!(#core::__private::SeqField::<_, ::std::string::String>::new(
                    #site, #len, #depth, false, #core::combinators::char()
                ));
            }
        }
        if let Some(elem) = shape::generic_arg(ty, "Vec") {
            return seq(len, limited(elem), part(&p.each, elem, "each"), quote!(#ty));
        }
        if let Some(inner) = shape::generic_arg(ty, "Option") {
            let (lim, g) = (limited(inner), part(&p.some, inner, "some"));
            return quote!(#core::__private::option_field(#site, #depth, #lim, #g));
        }
        if p.is_empty() {
            return own();
        }
        // A set, map or `VecDeque` with attributes: made from the `Vec` of its entries.
        let (entry, lim, g) = match (shape::elements(ty), shape::map_args(ty)) {
            (Some((_, e)), _) => (quote!(#e), limited(e), part(&p.each, e, "each")),
            (None, Some((k, v))) => {
                let (gk, gv) = (part(&p.key, k, "key"), part(&p.value, v, "value"));
                (quote!((#k, #v)), limited(k) || limited(v), quote!((#gk, #gv)))
            }
            // The check pass reported the attributes that do not fit the type.
            (None, None) => return own(),
        };
        let seq = seq(len, lim, g, quote!(::std::vec::Vec<#entry>));
        quote!(#core::__private::collected::<#ty, _>(#seq))
    }

    /// Statements generating `fields` into their locals (forward).
    /// `prefix` names the variant for sites and members.
    pub(super) fn run_fields(
        &self,
        fields: &[Field],
        site_prefix: &str,
        member_prefix: &str,
    ) -> (TokenStream, Vec<FieldGen>) {
        let core = core_path();
        let mut stmts = TokenStream::new();
        let mut gens = Vec::new();
        let order = field_order(fields);
        for (n, &i) in order.iter().enumerate() {
            let f = &fields[i];
            let site = format!("{site_prefix}.{}", f.name);
            let member = format_ident!("__g_{}{}", member_prefix, f.name);
            let earlier: Vec<&Field> = order[..n].iter().map(|&j| &fields[j]).collect();
            let g = self.field_gen(f, &site, member, &earlier);
            let (local, ty, run) = (f.local(), f.ty, &g.run);
            match &f.attrs.assume {
                None => stmts.extend(quote!(let #local: #ty = #run?;)),
                // The field made again while it fails its condition (see `combinators::retrying`).
                Some(a) => {
                    let ok = assume_check(&a.expr, quote!(__v));
                    let retries = retries(a);
                    stmts.extend(quote!(
                        let #local: #ty = #core::combinators::retrying(
                            __src,
                            #retries,
                            |__src| #run,
                            |__v: &#ty| #ok,
                        )?;
                    ));
                }
            }
            gens.push(g);
        }
        (stmts, gens)
    }

    /// Statements computing `__ways` for `fields` (backward), from their
    /// locals (references), in the order they are made (`gens`, from
    /// [`ExpandCx::run_fields`]); they return early with no way.
    pub(super) fn back_fields(&self, fields: &[Field], gens: &[FieldGen], site_prefix: &str) -> TokenStream {
        let core = core_path();
        let mut stmts = quote!(#[allow(unused_mut)] let mut __ways = ::std::vec![#core::Way::empty()];);
        for (f, g) in field_order(fields).into_iter().map(|i| &fields[i]).zip(gens) {
            let site = format!("{site_prefix}.{}", f.name);
            let back = &g.back;
            if let Some(a) = &f.attrs.assume {
                let l = f.local();
                let ok = assume_check(&a.expr, quote!(#l));
                stmts.extend(quote!(if !#ok { return ::std::vec::Vec::new(); }));
            }
            stmts.extend(quote!(
                __ways = #core::__private::back_part(__ways, #site, #back);
                if __ways.is_empty() { return __ways; }
            ));
        }
        stmts
    }
}

/// The order fields are made in (see [`super::args::field_order`]);
/// declaration order when they name each other in a circle (the check pass
/// reported it).
fn field_order(fields: &[Field]) -> Vec<usize> {
    super::args::field_order(fields).unwrap_or_else(|_| (0..fields.len()).collect())
}

/// The generator of an integer of type `ty` in the range `r`, at `site`:
/// a `ConstInt` when both bounds are constants the derive can see
/// ([`shape::is_const_bound`]) and the type is not `u128` (whose values
/// an `i128` argument cannot all hold), so that the range is compiled
/// into the draws; `int(..)` otherwise. Both make the same values.
fn int_gen(ty: &Type, r: &syn::ExprRange, site: &str) -> TokenStream {
    let core = core_path();
    let (lo, hi) = (&r.start, &r.end);
    let is_const = |e: &Option<Box<Expr>>| e.as_deref().is_some_and(shape::is_const_bound);
    let u128 = matches!(ty, Type::Path(p) if p.path.is_ident("u128"));
    if !u128 && is_const(lo) && is_const(hi) {
        // Typed first, so a bound outside the type is the usual error at its tokens.
        let bound = |e: &Option<Box<Expr>>| quote_spanned!(e.span()=> { let __bound: #ty = #e; __bound as i128 });
        let (lo, hi) = (bound(lo), bound(hi));
        return quote_spanned!(r.span()=> #core::combinators::ConstInt::<#ty, #lo, #hi>::new(#site));
    }
    quote_spanned!(r.span()=> #core::combinators::int::<#ty>(#lo..=#hi).site(#site))
}

/// How many times an `#[assume]` makes a failing value again: its
/// `retries = N`, or `combinators::DEFAULT_RETRIES`.
pub(super) fn retries(a: &Assume) -> TokenStream {
    let core = core_path();
    match &a.retries {
        Some((_, n)) => quote!(#n),
        None => quote!(#core::combinators::DEFAULT_RETRIES),
    }
}
