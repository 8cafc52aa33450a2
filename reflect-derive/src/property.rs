//! `#[property]`: a function over generated arguments becomes a `#[test]` run by the runtime.

use proc_macro2::TokenStream;

/// Expand `#[property(attr)] item`.
pub fn expand(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}
