//! Procedural macros for reflective generators: `#[derive(Reflective)]` and `#[property]`.
//!
//! (Documentation of every attribute is written with the derive.)

#![warn(missing_docs)]
#![forbid(unsafe_code)]

use proc_macro::TokenStream;

mod property;

/// Turns a function into a property test; see the `property` module docs.
#[proc_macro_attribute]
pub fn property(attr: TokenStream, item: TokenStream) -> TokenStream {
    property::expand(attr.into(), item.into()).into()
}
