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
