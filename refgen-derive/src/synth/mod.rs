//! The `#[synth]` attribute: a validity predicate, kept as written, and beside it the generator of the values it accepts.

mod complete;
mod expand;
pub mod model;
pub mod plan;
mod top;

use crate::errors::Ctxt;
use proc_macro2::{Ident, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Expr, ItemFn, LitInt, Token};

/// The attribute's options: `name = default`, `name in a..=b`, `weight(Variant = N, "Variant#2" = N, ...)`, `depth = N`.
#[derive(Default)]
pub struct Options {
    /// What the top-level generator gives each argument.
    pub args: Vec<TopArg>,
    /// The weights: of every alternative of an arm, by the variant's name; of one alternative, by its label (`N#2`).
    pub weights: Vec<(String, u32, proc_macro2::Span)>,
    /// The recursion depth budget.
    pub depth: Option<usize>,
    /// Other `#[synth]` predicates whose calls on a part make the part: `uses(f, g)`.
    pub uses: Vec<Ident>,
}

/// One argument of the top-level generator.
pub struct TopArg {
    /// The argument's name.
    pub name: Ident,
    /// Its value.
    pub top: Top,
}

/// How the top-level generator sets an argument.
pub enum Top {
    /// This value.
    Default(Expr),
    /// A choice in `lo..=hi`.
    Range(Expr, Expr),
}

impl Parse for Options {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut out = Options::default();
        while !input.is_empty() {
            let name: Ident = input.parse()?;
            if name == "weight" && input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in input);
                while !content.is_empty() {
                    // A variant's name (every alternative of its arm), or one alternative's label in quotes (`"N#2"`).
                    let (label, span) = if content.peek(syn::LitStr) {
                        let l = content.parse::<syn::LitStr>()?;
                        (l.value(), l.span())
                    } else {
                        let i = content.parse::<Ident>()?;
                        (i.to_string(), i.span())
                    };
                    content.parse::<Token![=]>()?;
                    let n: LitInt = content.parse()?;
                    let w: u32 = n.base10_parse()?;
                    if w == 0 {
                        return Err(syn::Error::new(n.span(), "a weight is at least 1"));
                    }
                    out.weights.push((label, w, span));
                    if !content.is_empty() {
                        content.parse::<Token![,]>()?;
                    }
                }
            } else if name == "uses" && input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in input);
                let names = syn::punctuated::Punctuated::<Ident, Token![,]>::parse_terminated(&content)?;
                out.uses.extend(names);
            } else if name == "depth" && input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                let n: LitInt = input.parse()?;
                let d: usize = n.base10_parse()?;
                if d == 0 || d > crate::derive::attr::MAX_DEPTH {
                    return Err(syn::Error::new(
                        n.span(),
                        format!("`depth` is from 1 to {}", crate::derive::attr::MAX_DEPTH),
                    ));
                }
                out.depth = Some(d);
            } else if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                out.args.push(TopArg { name, top: Top::Default(input.parse()?) });
            } else if input.peek(Token![in]) {
                input.parse::<Token![in]>()?;
                let r: Expr = input.parse()?;
                match r {
                    Expr::Range(syn::ExprRange {
                        start: Some(lo),
                        end: Some(hi),
                        limits: syn::RangeLimits::Closed(_),
                        ..
                    }) => out.args.push(TopArg { name, top: Top::Range(*lo, *hi) }),
                    other => {
                        return Err(syn::Error::new_spanned(
                            other,
                            "`in` takes an inclusive range, such as `h in 0..=4`",
                        ))
                    }
                }
            } else {
                return Err(syn::Error::new(
                    name.span(),
                    "`#[synth(...)]` takes `arg = value` or `arg in a..=b` for the predicate's arguments, \
                     `weight(Variant = N, ...)`, `depth = N` and `uses(predicate, ...)`",
                ));
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(out)
    }
}

/// Expand `#[synth(attr)]` on `item`: the predicate unchanged, and its generator beside it.
pub fn expand(attr: TokenStream, item: TokenStream) -> TokenStream {
    let f: ItemFn = match syn::parse2(item.clone()) {
        Ok(f) => f,
        Err(e) => {
            let mut out =
                syn::Error::new(e.span(), "`#[synth]` goes on a predicate: `fn valid(t: &Tree, ...) -> bool`")
                    .to_compile_error();
            out.extend(item);
            return out;
        }
    };
    let mut cx = Ctxt::default();
    let opts = match syn::parse2::<Options>(attr) {
        Ok(o) => o,
        Err(e) => {
            cx.push(e);
            Options::default()
        }
    };
    let pred = model::read(&mut cx, &f, &opts.uses);
    if let Some(p) = &pred {
        for a in &opts.args {
            if !p.args.iter().any(|(n, _)| *n == a.name) {
                let names: Vec<String> = p.args.iter().map(|(n, _)| format!("`{n}`")).collect();
                let args = if names.is_empty() {
                    "it takes none".to_owned()
                } else {
                    format!("its arguments are {}", names.join(", "))
                };
                cx.error(
                    a.name.span(),
                    format!(
                        "`{}` is not an argument of `{}` ({args}); `#[synth(...)]` takes `arg = value` or `arg in a..=b` \
                         for the predicate's arguments, `weight(Variant = N, ...)` and `depth = N`",
                        a.name, p.name
                    ),
                );
            }
        }
    }
    let generated = pred.as_ref().map(|p| expand::expand(&mut cx, p, &f.vis, &opts));
    match cx.into_compile_error() {
        Some(errors) => quote!(#errors #f),
        None => quote!(#f #generated),
    }
}
