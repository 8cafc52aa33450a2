//! One collector of compile errors for both macros: all of an input's errors, each at its tokens.

use proc_macro2::Span;
use quote::ToTokens;

/// Collects every error of one input, so that all are reported together.
#[derive(Default)]
pub struct Ctxt {
    errors: Option<syn::Error>,
}

impl Ctxt {
    /// Record `e`.
    pub fn push(&mut self, e: syn::Error) {
        match &mut self.errors {
            Some(all) => all.combine(e),
            None => self.errors = Some(e),
        }
    }

    /// Record an error at `span`.
    pub fn error(&mut self, span: Span, msg: impl std::fmt::Display) {
        self.push(syn::Error::new(span, msg));
    }

    /// Record an error spanning all of `tokens`.
    pub fn error_spanned(&mut self, tokens: impl ToTokens, msg: impl std::fmt::Display) {
        self.push(syn::Error::new_spanned(tokens, msg));
    }

    /// The errors recorded, if any.
    pub fn finish(self) -> Result<(), syn::Error> {
        match self.errors {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The errors recorded as `compile_error!` invocations, or `None`.
    pub fn into_compile_error(self) -> Option<proc_macro2::TokenStream> {
        self.errors.map(|e| e.to_compile_error())
    }
}

/// The owned type to write for the borrowed `r`: `String` for `&str`, `Vec<T>` for `&[T]`, `T` for `&T`.
pub fn owned_type(r: &syn::TypeReference) -> String {
    match &*r.elem {
        syn::Type::Slice(sl) => format!("Vec<{}>", sl.elem.to_token_stream()),
        syn::Type::Path(tp) if tp.path.is_ident("str") => "String".to_owned(),
        other => other.to_token_stream().to_string(),
    }
}
