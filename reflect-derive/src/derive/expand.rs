//! Code generation: a hidden generator struct implementing `Gen` forward (`run` and `run_rng`, from one body generic over the answerer) and backward (`back`) from one description of the type, and the `Reflective` impl returning it.

use super::attr::{Assume, Part, PartAttrs};
use super::check::{field_tier, type_params};
use super::shape::{self, Tier};
use super::{Body, Field, Input, Style};
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::{parse_quote, Expr, Type};

/// The path of reflect-core as users see it (through the `refgen` crate).
fn rc() -> TokenStream {
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
fn assume_check(expr: &Expr, value: TokenStream) -> TokenStream {
    let rc = rc();
    let me = self_ident();
    let body = replace_self(quote!(#expr));
    let call = quote_spanned!(expr.span()=> #rc::derived::assume_bool(#body));
    quote!({ let #me = #value; #call })
}

/// Whether `tokens` use the identifier `name` other than as a function
/// called (`name(...)`) or a path's first segment (`name::...`).
fn names_value(tokens: TokenStream, name: &str) -> bool {
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
struct Cx<'a> {
    input: &'a Input<'a>,
    params: Vec<&'a Ident>,
    type_name: String,
    depth: TokenStream,
}

/// One field's generator: an optional stored member (its name, the type
/// of the values it makes, its initializer), and how to run it forward and
/// backward.
struct FieldGen {
    member: Option<(Ident, TokenStream, TokenStream)>,
    run: TokenStream,
    back: TokenStream,
}

impl Cx<'_> {
    fn field_gen(&self, f: &Field, site: &str, member: Ident, earlier: &[&Field]) -> FieldGen {
        let rc = rc();
        let ty = f.ty;
        let a = &f.attrs;
        let local = f.local();
        let stored = |init: TokenStream| FieldGen {
            member: Some((member.clone(), quote!(#ty), init)),
            run: quote!(#rc::derived::run_part(&self.#member, #site, __src)),
            back: quote!(#rc::Gen::back(&self.#member, #local)),
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
                run: quote!(::core::result::Result::<#ty, #rc::Stop>::Ok({ #fwd_bind #value })),
                back: quote!(::std::vec![#rc::Way::empty()]),
            };
        }
        if let Some(with) = &a.with {
            let (fwd_bind, back_bind) = bindings(with);
            return match &a.at {
                None => {
                    let g = quote_spanned!(with.span()=> #rc::derived::with_gen::<#ty, _>(#with));
                    FieldGen {
                        member: None,
                        run: quote!({
                            let __gen = { #fwd_bind #g };
                            #rc::derived::run_part(&__gen, #site, __src)
                        }),
                        back: quote!({
                            let __gen = { #back_bind #g };
                            #rc::Gen::back(&__gen, #local)
                        }),
                    }
                }
                Some(at) => {
                    let g = quote_spanned!(with.span()=> #rc::derived::with_gen::<_, _>(#with));
                    let into = quote_spanned!(with.span()=> ::core::convert::Into::<#ty>::into);
                    let back_at = quote_spanned!(at.span()=> #rc::derived::back_at::<#ty, _, _>(&__gen, #local, #at));
                    FieldGen {
                        member: None,
                        run: quote!({
                            let __gen = { #fwd_bind #g };
                            #rc::derived::run_part(&__gen, #site, __src).map(#into)
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
                    run: quote!({ #fwd_bind #rc::derived::run_part(&#g, #site, __src) }),
                    back: quote!({ #back_bind #rc::Gen::back(&#g, #local) }),
                };
            }
        }
        let g = self.part_gen(ty, &a.part, site);
        let (fwd_bind, back_bind) = bindings(&a.part.expr_tokens());
        if fwd_bind.is_empty() {
            return stored(g);
        }
        // Bounds that name earlier fields (`len = 1..=*n`): the generator is
        // built for each value, with those fields in scope.
        FieldGen {
            member: None,
            run: quote!({ #fwd_bind let __gen = #g; #rc::derived::run_part(&__gen, #site, __src) }),
            back: quote!({ #back_bind let __gen = #g; #rc::Gen::back(&__gen, #local) }),
        }
    }

    /// A generator of `ty` at `site`, as the attributes `p` say (the type's
    /// own generator when they say nothing). The combinators it is built of
    /// stay unboxed, so that their calls to each other are static. A type's
    /// own generator that may lead back to the type being derived is built
    /// on first use (`combinators::lazy`), so that building the generator ends.
    fn part_gen(&self, ty: &Type, p: &PartAttrs, site: &str) -> TokenStream {
        let rc = rc();
        let depth = &self.depth;
        let limited = |t: &Type| shape::tier(t, self.input.ident, &self.params) > Tier::Closed;
        let recursive_path =
            |t: &Type| matches!(t, Type::Path(_)) && shape::tier(t, self.input.ident, &self.params) == Tier::Recursive;
        let own_of = |t: &Type| match shape::generic_arg(t, "Box") {
            // `Box<T>` of a type that names the type derived: `T`'s own
            // generator boxed here, not behind `Box<T>`'s (one call fewer
            // per value).
            Some(inner) if recursive_path(inner) => quote!(#rc::reflective::boxed_values(
                #rc::combinators::lazy(|| <#inner as #rc::Reflective>::generator())
            )),
            _ if limited(t) => quote!(#rc::combinators::lazy(|| <#t as #rc::Reflective>::generator())),
            _ => quote!(<#t as #rc::Reflective>::generator()),
        };
        let own = || own_of(ty);
        if let Some(r) = &p.range {
            let (lo, hi) = (&r.start, &r.end);
            return if shape::is_char(ty) {
                quote_spanned!(r.span()=> #rc::combinators::char_class(&[(#lo, #hi)]).site(#site))
            } else {
                int_gen(ty, r, site)
            };
        }
        if let Some(re) = &p.regex {
            return quote!(#rc::regex::regex(#re));
        }
        let len = p.len.as_ref().map(|r| {
            let (lo, hi) = (&r.start, &r.end);
            quote_spanned!(r.span()=> #lo, #hi)
        });
        let default_len = || quote!(0, #rc::reflective::DEFAULT_MAX_LEN);
        let part = |q: &Option<Part>, t: &Type, name: &str| match q {
            Some((inner, _)) => self.part_gen(t, inner, &format!("{site}.{name}")),
            None => own_of(t),
        };
        if shape::is_string(ty) {
            if let Some(len) = len {
                return quote!(#rc::derived::SeqField::<_, ::std::string::String>::new(
                    #site, #len, #depth, false, #rc::combinators::char()
                ));
            }
        }
        if let Some(elem) = shape::generic_arg(ty, "Vec") {
            let (lim, len, g) = (limited(elem), len.unwrap_or_else(default_len), part(&p.each, elem, "each"));
            return quote!(#rc::derived::SeqField::<_, #ty>::new(#site, #len, #depth, #lim, #g));
        }
        if let Some(inner) = shape::generic_arg(ty, "Option") {
            let (lim, g) = (limited(inner), part(&p.some, inner, "some"));
            return quote!(#rc::derived::option_field(#site, #depth, #lim, #g));
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
        let len = len.unwrap_or_else(default_len);
        quote!(#rc::derived::collected::<#ty, _>(
            #rc::derived::SeqField::<_, ::std::vec::Vec<#entry>>::new(#site, #len, #depth, #lim, #g)
        ))
    }

    /// Statements generating `fields` into their locals (forward).
    /// `prefix` names the variant for sites and members.
    fn run_fields(&self, fields: &[Field], site_prefix: &str, member_prefix: &str) -> (TokenStream, Vec<FieldGen>) {
        let rc = rc();
        let mut stmts = TokenStream::new();
        let mut gens = Vec::new();
        for (i, f) in fields.iter().enumerate() {
            let site = format!("{site_prefix}.{}", f.name);
            let member = format_ident!("__g_{}{}", member_prefix, f.name);
            let earlier: Vec<&Field> = fields[..i].iter().collect();
            let g = self.field_gen(f, &site, member, &earlier);
            let (local, ty, run) = (f.local(), f.ty, &g.run);
            match &f.attrs.assume {
                None => stmts.extend(quote!(let #local: #ty = #run?;)),
                // The field made again while it fails its condition (see `combinators::retrying`).
                Some(a) => {
                    let ok = assume_check(&a.expr, quote!(__v));
                    let retries = retries(a);
                    stmts.extend(quote!(
                        let #local: #ty = #rc::combinators::retrying(
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
    /// locals (references); they return early with no way.
    fn back_fields(&self, fields: &[Field], gens: &[FieldGen], site_prefix: &str) -> TokenStream {
        let rc = rc();
        let mut stmts = quote!(#[allow(unused_mut)] let mut __ways = ::std::vec![#rc::Way::empty()];);
        for (f, g) in fields.iter().zip(gens) {
            let site = format!("{site_prefix}.{}", f.name);
            let back = &g.back;
            if let Some(a) = &f.attrs.assume {
                let l = f.local();
                let ok = assume_check(&a.expr, quote!(#l));
                stmts.extend(quote!(if !#ok { return ::std::vec::Vec::new(); }));
            }
            stmts.extend(quote!(
                __ways = #rc::derived::back_part(__ways, #site, #back);
                if __ways.is_empty() { return __ways; }
            ));
        }
        stmts
    }
}

/// How many times an `#[assume]` makes a failing value again: its
/// `retries = N`, or `combinators::DEFAULT_RETRIES`.
fn retries(a: &Assume) -> TokenStream {
    let rc = rc();
    match &a.retries {
        Some((_, n)) => quote!(#n),
        None => quote!(#rc::combinators::DEFAULT_RETRIES),
    }
}

/// The generator of an integer of type `ty` in the range `r`, at `site`:
/// a `ConstInt` when both bounds are constants the derive can see
/// ([`shape::is_const_bound`]) and the type is not `u128` (whose values
/// an `i128` argument cannot all hold), so that the range is compiled
/// into the draws; `int(..)` otherwise. Both make the same values.
fn int_gen(ty: &Type, r: &syn::ExprRange, site: &str) -> TokenStream {
    let rc = rc();
    let (lo, hi) = (&r.start, &r.end);
    let is_const = |e: &Option<Box<Expr>>| e.as_deref().is_some_and(shape::is_const_bound);
    let u128 = matches!(ty, Type::Path(p) if p.path.is_ident("u128"));
    if !u128 && is_const(lo) && is_const(hi) {
        // Typed first, so a bound outside the type is the usual error at its tokens.
        let bound = |e: &Option<Box<Expr>>| quote_spanned!(e.span()=> { let __bound: #ty = #e; __bound as i128 });
        let (lo, hi) = (bound(lo), bound(hi));
        return quote_spanned!(r.span()=> #rc::combinators::ConstInt::<#ty, #lo, #hi>::new(#site));
    }
    quote_spanned!(r.span()=> #rc::combinators::int::<#ty>(#lo..=#hi).site(#site))
}

/// `Path { a: __f_a, .. }`, `Path(__f_0, ..)` or `Path`, as a pattern (`dots`) or a value.
fn shape_of(path: TokenStream, style: Style, fields: &[Field], dots: bool) -> TokenStream {
    let rest = if dots { quote!(..) } else { quote!() };
    match style {
        Style::Unit => path,
        Style::Named => {
            let fs = fields.iter().map(|f| {
                let (m, l) = (&f.member, f.local());
                quote!(#m: #l)
            });
            quote!(#path { #(#fs,)* #rest })
        }
        Style::Tuple => {
            let fs = fields.iter().map(|f| f.local());
            quote!(#path( #(#fs,)* #rest ))
        }
    }
}

/// The generated code for `input`.
pub fn expand(input: &Input) -> TokenStream {
    let rc = rc();
    let name = input.ident;
    let params = type_params(input);
    let depth = match &input.attrs.depth {
        Some((_, lit)) => quote!(#lit),
        None => quote!(#rc::derived::DEFAULT_DEPTH),
    };
    let cx = Cx { input, params: params.clone(), type_name: name.unraw().to_string(), depth: depth.clone() };
    let type_name = &cx.type_name;

    // Bounds: inferred for type parameters used by generated fields, or the user's.
    let mut generics = input.generics.clone();
    {
        let wc = generics.make_where_clause();
        for p in &params {
            wc.predicates.push(parse_quote!(#p: 'static));
        }
        match &input.attrs.bound {
            Some((preds, _)) => wc.predicates.extend(preds.iter().cloned()),
            None => {
                for p in &params {
                    let all: Vec<&Field> = match &input.body {
                        Body::Struct(_, fs) => fs.iter().collect(),
                        Body::Enum(vs) => {
                            vs.iter().filter(|v| v.attrs.skip.is_none()).flat_map(|v| v.fields.iter()).collect()
                        }
                    };
                    let ty_uses = all.iter().any(|f| {
                        let ty = f.ty;
                        let generated = f.attrs.with.is_none() && f.attrs.default.is_none();
                        generated
                            && shape::generic_arg(ty, "PhantomData").is_none()
                            && shape::mentions(quote!(#ty), &[p])
                    });
                    if ty_uses {
                        wc.predicates.push(parse_quote!(#p: #rc::Reflective + ::core::clone::Clone));
                    }
                }
            }
        }
    }
    let (_, ty_generics, _) = generics.split_for_impl();
    let self_ty: Type = match &input.self_args {
        Some(args) => parse_quote!(#name #args),
        None => parse_quote!(#name #ty_generics),
    };

    let mut members: Vec<(Ident, TokenStream, TokenStream)> = Vec::new();
    let mut helpers = TokenStream::new();
    let mut items = TokenStream::new();

    // The conditions on every value and on the outermost one (`top`), each a function of the value.
    let every = input.attrs.assume.as_ref().map(|a| {
        let ok = assume_check(&a.expr, quote!(__value));
        helpers.extend(quote!(
            fn __assume(__value: &#self_ty) -> bool { #ok }
        ));
        (quote!(Self::__assume), retries(a))
    });
    let top = input.attrs.assume_top.as_ref().map(|a| {
        let ok = assume_check(&a.expr, quote!(__value));
        helpers.extend(quote!(
            fn __assume_top(__value: &#self_ty) -> bool { #ok }
        ));
        (quote!(Self::__assume_top), retries(a))
    });
    let assume_back = every.as_ref().map(|(f, _)| quote!(if !#f(__target) { return ::std::vec::Vec::new(); }));
    // Backward, the outermost value only is held to `top` (the count of
    // this generator's runs around it is in `__nesting`, as forward).
    let top_back = top.as_ref().map(|(f, _)| {
        quote!(
            let __outer = #rc::derived::Outermost::enter(&self.__nesting);
            if __outer.is_top() && !#f(__target) { return ::std::vec::Vec::new(); }
        )
    });

    let (run_body, back_body) = match &input.body {
        Body::Struct(style, fields) => {
            let (stmts, gens) = cx.run_fields(fields, type_name, "");
            let back = cx.back_fields(fields, &gens, type_name);
            members.extend(gens.into_iter().filter_map(|g| g.member));
            let value = shape_of(quote!(#name), *style, fields, false);
            let pat = shape_of(quote!(#name), *style, fields, true);
            (
                quote!(
                    #stmts
                    ::core::result::Result::Ok(#value)
                ),
                quote!(
                    #top_back
                    #assume_back
                    let __frame = #rc::derived::Frame::enter();
                    if __frame.too_deep() { return ::std::vec::Vec::new(); }
                    #[allow(unused_variables)]
                    let #pat = __target;
                    #back
                    __ways
                ),
            )
        }
        Body::Enum(variants) => {
            // Options: generated variants ordered by tier (base ones first), in declaration order within a tier.
            let mut live: Vec<(Tier, usize)> = variants
                .iter()
                .enumerate()
                .filter(|(_, v)| v.attrs.skip.is_none())
                .map(|(i, v)| (v.fields.iter().map(|f| field_tier(f, input, &params)).max().unwrap_or(Tier::Closed), i))
                .collect();
            live.sort_by_key(|(t, _)| *t);
            let min_tier = live.first().map(|(t, _)| *t).unwrap_or(Tier::Closed);
            let base = live.iter().filter(|(t, _)| *t == min_tier).count();
            let opts = live.iter().map(|&(_, i)| {
                let v = &variants[i];
                let label = v.attrs.label.as_ref().map(|l| l.value()).unwrap_or_else(|| v.ident.unraw().to_string());
                let weight = v.attrs.weight.as_ref().map(|w| w.0).unwrap_or(1);
                quote!(#rc::Opt { label: #label, weight: #weight })
            });
            items.extend(quote!(
                const __VARIANTS: #rc::derived::Variants = #rc::derived::Variants::new(#type_name, &[#(#opts),*], #base);
            ));
            let mut run_arms = TokenStream::new();
            let mut back_arms = TokenStream::new();
            for (i, v) in variants.iter().enumerate() {
                let vname = v.ident;
                let path = quote!(#name::#vname);
                let pat = shape_of(path.clone(), v.style, &v.fields, true);
                let Some(index) = live.iter().position(|&(_, j)| j == i) else {
                    back_arms.extend(quote!(#pat => ::std::vec::Vec::new(),));
                    continue;
                };
                let prefix = format!("{type_name}::{}", vname.unraw());
                let (stmts, gens) = cx.run_fields(&v.fields, &prefix, &format!("{}_", vname.unraw()));
                let back = cx.back_fields(&v.fields, &gens, &prefix);
                members.extend(gens.into_iter().filter_map(|g| g.member));
                let value = shape_of(path, v.style, &v.fields, false);
                let index64 = index as u64;
                run_arms.extend(quote!(#index64 => { #stmts ::core::result::Result::Ok(#value) }));
                let offered = (index >= base).then(|| {
                    quote!(if __limited {
                        return ::std::vec::Vec::new();
                    })
                });
                back_arms.extend(quote!(#pat => {
                    #offered
                    let __fields = (|| -> ::std::vec::Vec<#rc::Way> { #back __ways })();
                    __VARIANTS.ways(__limited, #index, __fields)
                }));
            }
            helpers.extend(quote!(
                #[allow(unused_variables, clippy::all)]
                fn __run_variant<__A: #rc::source::Answerer + ?::core::marker::Sized>(&self, __c: u64, __src: &mut __A) -> ::core::result::Result<#self_ty, #rc::Stop> {
                    match __c {
                        #run_arms
                        _ => ::core::result::Result::Err(#rc::Stop::Rejected),
                    }
                }
            ));
            (
                quote!(
                    let __limited = __frame.at_limit(#depth);
                    let __c = __VARIANTS.choose(__src, __limited)?;
                    let __r = self.__run_variant(__c, __src);
                    #rc::source::Answerer::leave(__src);
                    __r
                ),
                quote!(
                    #top_back
                    #assume_back
                    let __frame = #rc::derived::Frame::enter();
                    if __frame.too_deep() { return ::std::vec::Vec::new(); }
                    let __limited = __frame.at_limit(#depth);
                    #[allow(unused_variables)]
                    match __target {
                        #back_arms
                    }
                ),
            )
        }
    };

    // The forward body: the value made once, or (with `#[assume]`) made
    // again while it fails (`combinators::retrying`), the outermost value
    // held to `top` as well.
    let answerer = quote!(__A: #rc::source::Answerer + ?::core::marker::Sized);
    let result = quote!(::core::result::Result<#self_ty, #rc::Stop>);
    let enter = quote!(
        let __frame = #rc::derived::Frame::enter();
        if __frame.too_deep() { return ::core::result::Result::Err(#rc::Stop::Void); }
    );
    let forward = if every.is_none() && top.is_none() {
        quote!(
            /// The one forward body, for both `run` and `run_rng`.
            #[allow(unused_variables)]
            #[inline]
            fn __forward<#answerer>(&self, __src: &mut __A) -> #result {
                #enter
                #run_body
            }
        )
    } else {
        let every_run = match &every {
            Some((f, n)) => quote!(#rc::combinators::retrying(__src, #n, |__src| self.__once(__src, &__frame), #f)),
            None => quote!(self.__once(__src, &__frame)),
        };
        let body = match &top {
            Some((f, n)) => quote!(
                let __outer = #rc::derived::Outermost::enter(&self.__nesting);
                if __outer.is_top() {
                    #rc::combinators::retrying(__src, #n, |__src| self.__every(__src, &__frame), #f)
                } else {
                    self.__every(__src, &__frame)
                }
            ),
            None => quote!(self.__every(__src, &__frame)),
        };
        quote!(
            /// The value, made once.
            #[allow(unused_variables)]
            #[inline]
            fn __once<#answerer>(&self, __src: &mut __A, __frame: &#rc::derived::Frame) -> #result {
                #run_body
            }

            /// The value, made again while it fails the condition on every value.
            #[inline]
            fn __every<#answerer>(&self, __src: &mut __A, __frame: &#rc::derived::Frame) -> #result {
                #every_run
            }

            /// The one forward body, for both `run` and `run_rng`.
            #[allow(unused_variables)]
            #[inline]
            fn __forward<#answerer>(&self, __src: &mut __A) -> #result {
                #enter
                #body
            }
        )
    };
    // How many runs of this generator (one per thread, shared by the
    // type's parts) are under way: `top` holds where it is none.
    let (nesting_decl, nesting_init) = match top {
        Some(_) => (quote!(__nesting: ::core::cell::Cell<u32>,), quote!(__nesting: ::core::cell::Cell::new(0),)),
        None => (quote!(), quote!()),
    };

    // Each stored field generator is a type parameter of the generator
    // struct, inferred from its initializer: the combinators stay unboxed,
    // and the forward body calls them statically.
    let mut gen_generics = generics.clone();
    let mut member_decls = Vec::new();
    for (i, (m, value_ty, _)) in members.iter().enumerate() {
        let p = format_ident!("__G{}", i);
        gen_generics.params.push(parse_quote!(#p));
        gen_generics.make_where_clause().predicates.push(parse_quote!(#p: #rc::Gen<Value = #value_ty>));
        member_decls.push(quote!(#m: #p));
    }
    let (impl_generics, ty_generics, where_clause) = gen_generics.split_for_impl();
    let member_inits = members.iter().map(|(m, _, init)| quote!(#m: #init));
    let type_args = input.generics.params.iter().map(|p| match p {
        syn::GenericParam::Type(t) => t.ident.to_token_stream(),
        syn::GenericParam::Const(c) => c.ident.to_token_stream(),
        syn::GenericParam::Lifetime(l) => l.lifetime.to_token_stream(),
    });
    let inferred = members.iter().map(|_| quote!(_));
    let turbofish = quote!(::<#(#type_args,)* #(#inferred),*>);
    let (user_impl_generics, _, user_where_clause) = generics.split_for_impl();

    quote!(
        #[allow(non_upper_case_globals, non_snake_case, non_camel_case_types, clippy::all)]
        const _: () = {
            #items

            #[doc(hidden)]
            struct __ReflectGen #impl_generics #where_clause {
                #(#member_decls,)*
                #nesting_decl
                __marker: ::core::marker::PhantomData<fn() -> #self_ty>,
            }

            impl #impl_generics __ReflectGen #ty_generics #where_clause {
                #helpers

                #forward
            }

            impl #user_impl_generics #rc::Reflective for #self_ty #user_where_clause {
                fn generator() -> #rc::BoxGen<Self> {
                    #rc::derived::cached::<Self>(|| -> #rc::BoxGen<#self_ty> {
                        ::std::rc::Rc::new(__ReflectGen #turbofish {
                            #(#member_inits,)*
                            #nesting_init
                            __marker: ::core::marker::PhantomData,
                        })
                    })
                }
            }

            impl #impl_generics #rc::Gen for __ReflectGen #ty_generics #where_clause {
                type Value = #self_ty;

                fn run(&self, __src: &mut dyn #rc::Source) -> ::core::result::Result<#self_ty, #rc::Stop> {
                    self.__forward(__src)
                }

                fn run_rng(&self, __rng: &mut #rc::DetRng) -> ::core::result::Result<#self_ty, #rc::Stop> {
                    self.__forward(__rng)
                }

                #[allow(unused_variables)]
                fn back(&self, __target: &#self_ty) -> ::std::vec::Vec<#rc::Way> {
                    #back_body
                }
            }
        };
    )
}

/// An impl of `Reflective` for a type the derive reported errors on: it
/// keeps the type's uses free of further errors, and its body never runs
/// (the crate does not compile).
pub fn placeholder(input: &syn::DeriveInput) -> TokenStream {
    let rc = rc();
    let name = &input.ident;
    let mut generics = input.generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let wc = generics.make_where_clause();
    for p in &params {
        wc.predicates.push(parse_quote!(#p: 'static));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote!(
        impl #impl_generics #rc::Reflective for #name #ty_generics #where_clause {
            fn generator() -> #rc::BoxGen<Self> {
                ::core::unreachable!("`#[derive(Reflective)]` reported errors on this type")
            }
        }
    )
}
