//! `name::generator()` beside a synthesized predicate: its arguments as the attribute gives them (a default, or a choice in a range), then its values.

use super::model::Pred;
use super::Options;
use crate::derive::args::{given_arguments, Given, GivenValue};
use crate::derive::core_path;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use syn::Visibility;

/// `name::generator()`, when every argument has a default or a range in the attribute.
pub fn top_generator(pred: &Pred, vis: &Visibility, opts: &Options) -> TokenStream {
    let core = core_path();
    let name = &pred.name;
    let value_ty = &pred.value_ty;
    let tops: Option<Vec<&super::TopArg>> =
        pred.args.iter().map(|(n, _)| opts.args.iter().find(|a| a.name == *n)).collect();
    let Some(tops) = tops else { return TokenStream::new() };
    let names: Vec<&Ident> = pred.args.iter().map(|(n, _)| n).collect();
    let given: Vec<Given> = tops
        .iter()
        .zip(&pred.args)
        .map(|(a, (n, t))| Given {
            name: n,
            ty: t,
            value: match &a.top {
                super::Top::Default(e) => GivenValue::Default(e),
                super::Top::Range(lo, hi) => GivenValue::Range(Some(lo), Some(hi)),
            },
        })
        .collect();
    let (forward, back) = given_arguments(
        &given,
        &name.to_string(),
        quote!(
            let __body = #name::__back(__target, #(::core::clone::Clone::clone(&#names)),*);
            __all.extend(#core::gen::product(__ways, &__body));
        ),
    );
    let ranged_args = tops.iter().any(|a| matches!(a.top, super::Top::Range(..)));
    let arg_tys: Vec<&syn::Type> = pred.args.iter().map(|(_, t)| t).collect();
    // Arguments drawn from ranges: drawn again where no value can be completed under them.
    let forward = if ranged_args {
        quote!(
            let (#(#names,)*) = #core::combinators::retrying_completable(
                __src,
                #core::combinators::DEFAULT_RETRIES,
                |__src: &mut __A| -> ::core::result::Result<(#(#arg_tys,)*), #core::Stop> {
                    #forward
                    ::core::result::Result::Ok((#(#names,)*))
                },
                |__a| {
                    let (#(#names,)*) = ::core::clone::Clone::clone(__a);
                    #name::__can(#core::__private::next_level(), #(#names),*).possible()
                },
            )?;
        )
    } else {
        forward
    };
    quote!(
        /// The predicate's top-level generator: its arguments (the attribute's), then its values.
        #[doc(hidden)]
        #[derive(Clone, Copy)]
        #vis struct __Top;

        impl __Top {
            #[allow(unused_variables)]
            fn __forward<__A: #core::gen::Answerer + ?::core::marker::Sized>(__src: &mut __A) -> ::core::result::Result<#value_ty, #core::Stop> {
                #forward
                #core::gen::Answerer::sub(__src, &#name::with(#(#names),*))
            }
        }

        impl #core::Gen for __Top {
            type Value = #value_ty;

            fn run(&self, __src: &mut dyn #core::Source) -> ::core::result::Result<#value_ty, #core::Stop> {
                Self::__forward(__src)
            }

            fn run_rng(&self, __rng: &mut #core::DetRng) -> ::core::result::Result<#value_ty, #core::Stop> {
                Self::__forward(__rng)
            }

            #[allow(unused_variables)]
            fn back(&self, __target: &#value_ty) -> ::std::vec::Vec<#core::Way> {
                #back
            }
        }

        impl #name {
            /// The values the predicate accepts, its arguments as the attribute gives them
            /// (a default, or a choice in a range).
            #vis fn generator() -> impl #core::Gen<Value = #value_ty> + Clone {
                __Top
            }
        }
    )
}
