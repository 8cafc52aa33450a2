//! `#[property]`: a function over generated arguments becomes a `#[test]` run by the runtime.
//!
//! The attribute's reference is the docs of `refgen_derive::property` (the
//! crate's `lib.rs`); the guides and their options are the table of
//! `refgen_runtime::guides`. The expansion reads the options ([`options`],
//! with `guide = ...` written as the guide's own options by [`guide`]),
//! checks the function and reads its arguments ([`args`]), and writes the
//! test and the hidden type beside it ([`expand`]).

mod args;
mod expand;
mod guide;
mod options;

use crate::errors::Ctxt;
use proc_macro2::TokenStream;
use syn::ItemFn;

/// Expand `#[property(attr)] item`.
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let mut errors = Ctxt::default();
    let opts = options::parse_options(attr, &mut errors);
    let mut func: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(_) => {
            let e = syn::Error::new_spanned(&item, "`#[property]` goes on a function: `fn name(x: T, ...) { ... }`");
            return e.to_compile_error();
        }
    };
    let args = args::arguments(&mut func, &mut errors);
    if let (Some(e), None) = (&opts.executor, &func.sig.asyncness) {
        errors.error_spanned(e, "`executor` runs an `async fn` property's futures; this property is a plain `fn`");
    }
    if let Some(e) = errors.into_compile_error() {
        return e;
    }
    expand::generate(func, args, opts)
}
