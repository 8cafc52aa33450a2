//! Code generation for a type: its hidden generator struct and its `Reflective` impl.

use super::check::{field_tier, type_params};
use super::fields::{assume_check, core_path, retries, ExpandCx};
use super::shape::{self, Tier};
use super::{args, Body, Field, Input, Style};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned, ToTokens};
use syn::ext::IdentExt;
use syn::{parse_quote, Type};

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
    let core = core_path();
    let name = input.ident;
    let params = type_params(input);
    let depth = match &input.attrs.depth {
        Some((_, lit)) => quote!(#lit),
        None => quote!(#core::__private::DEFAULT_DEPTH),
    };
    let decls = input.attrs.args.as_ref().map_or(&[][..], |(d, _)| d.as_slice());
    let cx = ExpandCx {
        input,
        params: params.clone(),
        type_name: name.unraw().to_string(),
        depth: depth.clone(),
        args: decls,
    };
    let type_name = &cx.type_name;
    // A type with arguments: every body takes them (`__args`, a reference),
    // and binds the ones its expressions name.
    let with_args = !decls.is_empty();
    let args_ty = args::args_ty(decls);
    let (args_param, args_arg) =
        if with_args { (quote!(, __args: &#args_ty), quote!(, __args)) } else { (quote!(), quote!()) };
    let arg_binds = args::bind_args(decls, &args::all_tokens(input));

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
                        wc.predicates.push(parse_quote!(#p: #core::Reflective + ::core::clone::Clone));
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

    if let Some(with) = &input.attrs.with {
        return whole_with(input, with, &generics, &self_ty);
    }

    let mut members: Vec<(Ident, TokenStream, TokenStream)> = Vec::new();
    // The parts an override at the use site may replace (`Reflective::__overridable`).
    let mut overridable: Vec<TokenStream> = Vec::new();
    let mut helpers = TokenStream::new();
    let mut items = TokenStream::new();

    // The conditions on every value and on the outermost one (`top`), each a function of the value.
    // With arguments, a condition may name them: it takes them too.
    let condition = |f: Ident| {
        if with_args {
            quote!(|__v: &#self_ty| Self::#f(__v, __args))
        } else {
            quote!(Self::#f)
        }
    };
    let every = input.attrs.assume.as_ref().map(|a| {
        let ok = assume_check(&a.expr, quote!(__value));
        helpers.extend(quote!(
            #[allow(unused_variables)]
            fn __assume(__value: &#self_ty #args_param) -> bool { #arg_binds #ok }
        ));
        (condition(format_ident!("__assume")), retries(a))
    });
    let top = input.attrs.assume_top.as_ref().map(|a| {
        let ok = assume_check(&a.expr, quote!(__value));
        helpers.extend(quote!(
            #[allow(unused_variables)]
            fn __assume_top(__value: &#self_ty #args_param) -> bool { #ok }
        ));
        (condition(format_ident!("__assume_top")), retries(a))
    });
    let assume_back = every.as_ref().map(|(f, _)| quote!(if !(#f)(__target) { return ::std::vec::Vec::new(); }));
    // Backward, the outermost value only is held to `top` (the count of
    // this generator's runs around it is in `__nesting`, as forward).
    let top_back = top.as_ref().map(|(f, _)| {
        quote!(
            let __outer = #core::__private::Outermost::enter(&self.__nesting);
            if __outer.is_top() && !(#f)(__target) { return ::std::vec::Vec::new(); }
        )
    });

    let (run_body, back_body) = match &input.body {
        Body::Struct(style, fields) => {
            let (stmts, gens) = cx.run_fields(fields, type_name, "");
            let back = cx.back_fields(fields, &gens, type_name);
            members.extend(gens.into_iter().filter_map(|g| g.member));
            overridable.extend(overridable_fields(fields, type_name));
            let value = shape_of(quote!(#name), *style, fields, false);
            let pat = shape_of(quote!(#name), *style, fields, true);
            (
                quote!(
                    #arg_binds
                    #stmts
                    ::core::result::Result::Ok(#value)
                ),
                quote!(
                    #arg_binds
                    #top_back
                    #assume_back
                    let __frame = #core::__private::Frame::enter();
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
                quote!(#core::Opt { label: #label, weight: #weight })
            });
            items.extend(quote!(
                const __VARIANTS: #core::__private::Variants = #core::__private::Variants::new(#type_name, &[#(#opts),*], #base);
            ));
            // Guards (`when`): the options the arguments allow, one bit each.
            let guarded = live.iter().any(|&(_, i)| variants[i].attrs.when.is_some());
            let allowed = guarded.then(|| {
                let bits = live.iter().enumerate().map(|(index, &(_, i))| {
                    let bit = 1u64 << index;
                    match &variants[i].attrs.when {
                        Some(c) => quote!(if #core::__private::assume_bool(#c) { #bit } else { 0 }),
                        None => quote!(#bit),
                    }
                });
                quote!(let __allowed: u64 = 0 #(| #bits)*;)
            });
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
                overridable.push(quote!(#core::__private::Overridable::of::<#self_ty>(#prefix)));
                overridable.extend(overridable_fields(&v.fields, &prefix));
                let value = shape_of(path.clone(), v.style, &v.fields, false);
                let any_of = match v.style {
                    Style::Unit => path,
                    Style::Named => quote!(#path { .. }),
                    Style::Tuple => quote!(#path(..)),
                };
                let index64 = index as u64;
                let fields_back = quote!((|| -> ::std::vec::Vec<#core::Way> { #back __ways })());
                // A type with arguments has no override at the use site (`overriding` takes a
                // `Reflective` type): its arms make their fields.
                let (override_run, fields_ways) = if with_args {
                    (quote!(), quote!(let __fields = #fields_back;))
                } else {
                    (
                        quote!(
                            if let ::core::option::Option::Some(__r) = #core::__private::run_variant::<#self_ty, _>(
                                #prefix, __src, |__v| ::core::matches!(__v, #any_of)
                            ) {
                                return __r;
                            }
                        ),
                        // The fields' ways, or the ways of the variant's override.
                        quote!(
                            let __fields = match #core::__private::back_variant::<#self_ty>(#prefix, __target) {
                                ::core::option::Option::Some(__w) => __w,
                                ::core::option::Option::None => #fields_back,
                            };
                        ),
                    )
                };
                run_arms.extend(quote!(#index64 => {
                    #override_run
                    #stmts
                    ::core::result::Result::Ok(#value)
                }));
                if guarded {
                    back_arms.extend(quote!(#pat => {
                        if !__VARIANTS.offers(__limited, __allowed, #index) {
                            return ::std::vec::Vec::new();
                        }
                        #fields_ways
                        __VARIANTS.ways_among(__limited, __allowed, #index, __fields)
                    }));
                    continue;
                }
                let offered = (index >= base).then(|| {
                    quote!(if __limited {
                        return ::std::vec::Vec::new();
                    })
                });
                back_arms.extend(quote!(#pat => {
                    #offered
                    #fields_ways
                    __VARIANTS.ways(__limited, #index, __fields)
                }));
            }
            helpers.extend(quote!(
                #[allow(unused_variables, clippy::all)]
                fn __run_variant<__A: #core::gen::Answerer + ?::core::marker::Sized>(&self, __c: u64, __src: &mut __A #args_param) -> ::core::result::Result<#self_ty, #core::Stop> {
                    #arg_binds
                    match __c {
                        #run_arms
                        _ => ::core::result::Result::Err(#core::Stop::Rejected),
                    }
                }
            ));
            let choose = match &allowed {
                Some(a) => quote!(#arg_binds #a __VARIANTS.choose_among(__src, __limited, __allowed)?),
                None => quote!(__VARIANTS.choose(__src, __limited)?),
            };
            (
                quote!(
                    let __limited = __frame.at_limit(#depth);
                    let __c = { #choose };
                    let __r = self.__run_variant(__c, __src #args_arg);
                    #core::gen::Answerer::leave(__src);
                    __r
                ),
                quote!(
                    #arg_binds
                    #top_back
                    #assume_back
                    let __frame = #core::__private::Frame::enter();
                    if __frame.too_deep() { return ::std::vec::Vec::new(); }
                    let __limited = __frame.at_limit(#depth);
                    #allowed
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
    let answerer = quote!(__A: #core::gen::Answerer + ?::core::marker::Sized);
    let result = quote!(::core::result::Result<#self_ty, #core::Stop>);
    let enter = quote!(
        let __frame = #core::__private::Frame::enter();
        if __frame.too_deep() { return ::core::result::Result::Err(#core::Stop::Void); }
    );
    let forward = if every.is_none() && top.is_none() {
        quote!(
            /// The one forward body, for both `run` and `run_rng`.
            #[allow(unused_variables)]
            #[inline]
            fn __forward<#answerer>(&self, __src: &mut __A #args_param) -> #result {
                #enter
                #run_body
            }
        )
    } else {
        let every_run = match &every {
            Some((f, n)) => {
                quote!(#core::combinators::retrying(__src, #n, |__src| self.__once(__src, &__frame #args_arg), #f))
            }
            None => quote!(self.__once(__src, &__frame #args_arg)),
        };
        let body = match &top {
            Some((f, n)) => quote!(
                let __outer = #core::__private::Outermost::enter(&self.__nesting);
                if __outer.is_top() {
                    #core::combinators::retrying(__src, #n, |__src| self.__every(__src, &__frame #args_arg), #f)
                } else {
                    self.__every(__src, &__frame #args_arg)
                }
            ),
            None => quote!(self.__every(__src, &__frame #args_arg)),
        };
        quote!(
            /// The value, made once.
            #[allow(unused_variables)]
            #[inline]
            fn __once<#answerer>(&self, __src: &mut __A, __frame: &#core::__private::Frame #args_param) -> #result {
                #run_body
            }

            /// The value, made again while it fails the condition on every value.
            #[inline]
            fn __every<#answerer>(&self, __src: &mut __A, __frame: &#core::__private::Frame #args_param) -> #result {
                #every_run
            }

            /// The one forward body, for both `run` and `run_rng`.
            #[allow(unused_variables)]
            #[inline]
            fn __forward<#answerer>(&self, __src: &mut __A #args_param) -> #result {
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
        gen_generics.make_where_clause().predicates.push(parse_quote!(#p: #core::Gen<Value = #value_ty>));
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
    let new_body = quote!(__ReflectGen #turbofish {
        #(#member_inits,)*
        #nesting_init
        __marker: ::core::marker::PhantomData,
    });
    let impls = if with_args {
        // The body, made once per thread: for a type without parameters, in a cell of its own
        // (a recursive value asks for it at every node); for a generic one, in the shared cache.
        let generic = input.generics.params.iter().any(|p| !matches!(p, syn::GenericParam::Lifetime(_)));
        let (cell, shared) = if generic {
            (quote!(), quote!(#core::__private::cached_body::<#self_ty>(|| ::std::rc::Rc::new(#new_body))))
        } else {
            (
                quote!(::std::thread_local! {
                    static __BODY: ::std::cell::OnceCell<#core::args::BoxGenWith<#args_ty, #self_ty>> =
                        const { ::std::cell::OnceCell::new() };
                }),
                quote!(__BODY.with(|__c| ::std::rc::Rc::clone(__c.get_or_init(|| ::std::rc::Rc::new(#new_body))))),
            )
        };
        let top = args::top_impl(&generics, decls, &self_ty, type_name, &shared);
        quote!(
            #cell

            impl #user_impl_generics #core::ReflectiveWith for #self_ty #user_where_clause {
                type Args = #args_ty;

                fn generator_with(__args: #args_ty) -> #core::WithArgs<Self> {
                    #core::WithArgs::new(#shared, __args)
                }
            }

            #top

            impl #impl_generics #core::GenWith<#args_ty> for __ReflectGen #ty_generics #where_clause {
                type Value = #self_ty;

                fn run_with(&self, __args: &#args_ty, __src: &mut dyn #core::Source) -> ::core::result::Result<#self_ty, #core::Stop> {
                    self.__forward(__src, __args)
                }

                fn run_rng_with(&self, __args: &#args_ty, __rng: &mut #core::DetRng) -> ::core::result::Result<#self_ty, #core::Stop> {
                    self.__forward(__rng, __args)
                }

                #[allow(unused_variables)]
                fn back_with(&self, __args: &#args_ty, __target: &#self_ty) -> ::std::vec::Vec<#core::Way> {
                    #back_body
                }
            }
        )
    } else {
        quote!(
            impl #user_impl_generics #core::Reflective for #self_ty #user_where_clause {
                fn generator() -> #core::BoxGen<Self> {
                    #core::__private::cached::<Self>(|| -> #core::BoxGen<#self_ty> {
                        ::std::rc::Rc::new(#new_body)
                    })
                }

                #[inline]
                fn __overridable() -> ::std::vec::Vec<#core::__private::Overridable> {
                    ::std::vec![#(#overridable),*]
                }
            }

            impl #impl_generics #core::Gen for __ReflectGen #ty_generics #where_clause {
                type Value = #self_ty;

                fn run(&self, __src: &mut dyn #core::Source) -> ::core::result::Result<#self_ty, #core::Stop> {
                    self.__forward(__src)
                }

                fn run_rng(&self, __rng: &mut #core::DetRng) -> ::core::result::Result<#self_ty, #core::Stop> {
                    self.__forward(__rng)
                }

                #[allow(unused_variables)]
                fn back(&self, __target: &#self_ty) -> ::std::vec::Vec<#core::Way> {
                    #back_body
                }
            }
        )
    };

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

            #impls
        };
    )
}

/// The fields of `fields` an override may replace (those made by a
/// generator of their own type: not `default`, not `at`), with their sites.
fn overridable_fields(fields: &[Field], site_prefix: &str) -> Vec<TokenStream> {
    let core = core_path();
    fields
        .iter()
        .filter(|f| f.attrs.default.is_none() && f.attrs.at.is_none())
        .map(|f| {
            let (ty, site) = (f.ty, format!("{site_prefix}.{}", f.name));
            quote!(#core::__private::Overridable::of::<#ty>(#site))
        })
        .collect()
}

/// `#[reflect(with = expr)]`: the type's generator is `expr` (any generator of the type, such as
/// a `#[synth]` predicate's), its values held to the type's `#[assume]`s as a whole.
fn whole_with(input: &Input, with: &syn::Expr, generics: &syn::Generics, self_ty: &Type) -> TokenStream {
    let core = core_path();
    let conds: Vec<TokenStream> = [&input.attrs.assume, &input.attrs.assume_top]
        .into_iter()
        .flatten()
        .map(|a| assume_check(&a.expr, quote!(__value)))
        .collect();
    let g = quote_spanned!(syn::spanned::Spanned::span(with)=> #core::__private::with_gen::<#self_ty, _>(#with));
    let made = if conds.is_empty() {
        quote!(#core::Gen::boxed(#g))
    } else {
        quote!(#core::Gen::boxed(#core::Gen::filter(#g, |__value: &#self_ty| true #(&& #conds)*)))
    };
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    quote!(
        impl #impl_generics #core::Reflective for #self_ty #where_clause {
            fn generator() -> #core::BoxGen<Self> {
                #core::__private::cached::<Self>(|| -> #core::BoxGen<#self_ty> { #made })
            }
        }
    )
}

/// An impl of `Reflective` for a type the derive reported errors on: it
/// keeps the type's uses free of further errors, and its body never runs
/// (the crate does not compile).
pub fn placeholder(input: &syn::DeriveInput) -> TokenStream {
    let core = core_path();
    let name = &input.ident;
    let mut generics = input.generics.clone();
    let params: Vec<Ident> = generics.type_params().map(|p| p.ident.clone()).collect();
    let wc = generics.make_where_clause();
    for p in &params {
        wc.predicates.push(parse_quote!(#p: 'static));
    }
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote!(
        impl #impl_generics #core::Reflective for #name #ty_generics #where_clause {
            fn generator() -> #core::BoxGen<Self> {
                ::core::unreachable!("`#[derive(Reflective)]` reported errors on this type")
            }
        }
    )
}
