//! The expansion: the `#[test]`, beside a hidden type of the same name with `property()`.

use super::args::Arg;
use super::guide::GuideExpr;
use super::options::{Distinct, Options, Regressions};
use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Ident, ItemFn, Pat, ReturnType, Type};

/// The code of the property `func` with arguments `args` and options `opts`.
pub(super) fn generate(func: ItemFn, args: Vec<Arg>, opts: Options) -> TokenStream {
    let core = quote!(::refgen::refgen_core);
    let rt = quote!(::refgen::refgen_runtime);
    let name = &func.sig.ident;
    let name_str = name.to_string();
    let vis = &func.vis;
    let attrs = &func.attrs;
    let output = &func.sig.output;
    let block = &func.block;
    let span = name.span();

    let pats: Vec<&Pat> = args.iter().map(|a| &a.pat).collect();
    let tys: Vec<&Type> = args.iter().map(|a| &a.ty).collect();
    let idents: Vec<Ident> = (0..args.len()).map(|i| format_ident!("__reflect_arg{}", i)).collect();
    let names: Vec<&str> = args.iter().map(|a| a.name.as_str()).collect();

    let gens: Vec<TokenStream> = args
        .iter()
        .map(|a| {
            let ty = &a.ty;
            match &a.gen {
                Some(e) => quote_spanned!(e.span()=> #rt::__private::argument::<#ty, _>(#e)),
                None => quote_spanned!(ty.span()=> <#ty as #core::Reflective>::generator()),
            }
        })
        .collect();

    let ret_check = match output {
        ReturnType::Default => quote!(),
        ReturnType::Type(_, ty) => quote_spanned!(ty.span()=> #rt::__private::returns_outcome::<#ty>();),
    };
    let debug_checks = tys.iter().map(|ty| quote_spanned!(ty.span()=> #rt::__private::argument_is_debug::<#ty>();));

    // The described value's name, one token used both as the closure's
    // parameter and in its body: the same hygiene whatever span the function's
    // name has (a `macro_rules!` argument has its own).
    let value = Ident::new("__reflect_value", Span::call_site());
    let (gen_expr, value_ty, test_fn, describe) = if args.len() == 1 {
        let (g, ty, n) = (&gens[0], tys[0], names[0]);
        (
            quote!(#g),
            quote!(#ty),
            quote!(__reflect_property),
            quote!(::std::vec![(::std::string::String::from(#n), ::std::format!("{:?}", #value))]),
        )
    } else {
        let idx = (0..args.len()).map(syn::Index::from);
        (
            quote!((#(#gens,)*)),
            quote!((#(#tys,)*)),
            quote!(|(#(#idents,)*): (#(#tys,)*)| __reflect_property(#(#idents),*)),
            quote!(::std::vec![#((::std::string::String::from(#names), ::std::format!("{:?}", &#value.#idx))),*]),
        )
    };

    let regressions = match &opts.regressions {
        Regressions::Default => {
            quote!(.regressions(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/regressions")))
        }
        Regressions::Off => quote!(),
        Regressions::Dir(d) => quote!(.regressions(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #d))),
    };
    let mut calls = opts.calls.clone();
    match &opts.guide {
        None => {}
        Some(GuideExpr::Value(e)) => calls.push(quote_spanned!(e.span()=> .guide(|| #e))),
        Some(GuideExpr::Named { name, calls: set, constant, keys }) => {
            let options = super::guide::options(name, set, *constant, keys, &value_ty);
            // The calls spanned at the guide's name (paths written here, not interpolated), so
            // that options which make no guide are an error there. One ident for the binding
            // and its use, whatever hygiene the name's span has.
            let property = Ident::new("__reflect_for_property", name.span());
            let ty = super::guide::respan(value_ty.clone(), name.span());
            let for_property = quote! {
                #rt::guides::ForProperty {
                    gen: #rt::__private::argument::<#value_ty, _>(#gen_expr),
                    manifest_dir: ::core::env!("CARGO_MANIFEST_DIR"),
                }
            };
            calls.push(quote_spanned! {name.span()=>
                .boxed_guide(|| {
                    let #property = #for_property;
                    ::refgen::refgen_runtime::guides::guide_from::<#ty, _>(#options, #property)
                })
            });
        }
    }
    if let Some(Distinct { n, difference }) = &opts.distinct {
        calls.push(quote_spanned!(n.span()=> .cases(#n)));
        calls.push(match difference {
            None => quote!(.guide(|| #rt::guides::DistinctGuide::all_different())),
            Some(d) => quote_spanned! {d.span()=>
                .guide(|| #rt::guides::DistinctGuide::new(
                    #rt::__private::argument::<#value_ty, _>(#gen_expr),
                    {
                        #[allow(unused_imports)]
                        use #rt::distinct::*;
                        #d
                    },
                ))
            },
        });
    }
    let calls = &calls;
    let examples = opts.examples.iter().map(|e| quote_spanned!(e.span()=> .example(|| #e)));

    // An async property's function stays `async`; the property runs each case's future to its
    // output on the executor (`refgen::asyncs::block_on` unless `executor = ...` names another).
    let property_fn = match &func.sig.asyncness {
        None => quote! {
            #[allow(clippy::needless_pass_by_value, unused_mut)]
            fn __reflect_property(#(#pats: #tys),*) #output #block
        },
        Some(a) => {
            let executor = match &opts.executor {
                Some(e) => quote_spanned!(e.span()=> #e),
                None => quote_spanned!(a.span()=> #rt::asyncs::block_on),
            };
            quote! {
                #[allow(clippy::needless_pass_by_value, unused_mut)]
                async fn __reflect_async(#(#pats: #tys),*) #output #block
                fn __reflect_property(#(#idents: #tys),*) #output {
                    (#executor)(__reflect_async(#(#idents),*))
                }
            }
        }
    };
    let checks = quote! {
        #ret_check
        #(#debug_checks)*
    };
    // Beside the `#[test]`, a hidden type of the same name (types and
    // functions have separate namespaces) whose `property()` builds the
    // property and its config in every build, not only under `cfg(test)`: the
    // test runs it, a fuzz target (`fuzz_property!(path::to::name)`) feeds it
    // bytes, and `cargo check` (and trybuild) report misuse without building tests.
    quote_spanned! {span=>
        #[doc(hidden)]
        #[allow(dead_code, non_camel_case_types)]
        #vis struct #name {}

        #[allow(dead_code, private_interfaces, clippy::redundant_closure, clippy::type_complexity)]
        impl #name {
            /// The property and its config, as the test runs them.
            #vis fn property() -> (#rt::runner::Property<#value_ty>, #rt::config::Config) {
                #property_fn
                #checks
                let __reflect_config = #rt::config::Config::new(::core::concat!(::core::module_path!(), "::", #name_str))
                    #regressions
                    #(#calls)*
                    .from_env();
                let __reflect_property = #rt::runner::Property::new(
                    || #gen_expr,
                    #test_fn,
                )
                .describe(|#value: &#value_ty| #describe)
                #(#examples)*;
                (__reflect_property, __reflect_config)
            }

            /// The generator of the property's arguments (a tuple when there are several).
            #vis fn generator() -> #core::BoxGen<#value_ty> {
                #rt::__private::argument::<#value_ty, _>(#gen_expr)
            }
        }

        #(#attrs)*
        #[test]
        #vis fn #name() {
            let (__reflect_property, __reflect_config) = #name::property();
            __reflect_property.assert(&__reflect_config);
        }
    }
}
