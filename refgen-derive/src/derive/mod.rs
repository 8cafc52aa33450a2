//! The `#[derive(Reflective)]` pipeline: read the input into a typed model, check it, write code.

pub mod args;
pub mod attr;
pub mod check;
pub mod expand;
mod fields;
pub mod shape;

use proc_macro2::{TokenStream, TokenTree};
use quote::{format_ident, quote, ToTokens};
use syn::ext::IdentExt;
use syn::{Data, DeriveInput, Fields, GenericParam, Ident, Member, Type};

pub use crate::errors::Ctxt;
pub(crate) use fields::core_path;

/// The input type, with its attributes parsed.
pub struct Input<'a> {
    /// The type's name.
    pub ident: &'a Ident,
    /// For a type with lifetime parameters, its arguments with every
    /// lifetime `'static` (`<'static, T>`): the impl is for that type.
    pub self_args: Option<TokenStream>,
    /// The type's generics, as written.
    pub generics: &'a syn::Generics,
    /// The type's own attributes.
    pub attrs: attr::ContainerAttrs,
    /// Its fields or variants.
    pub body: Body<'a>,
}

/// A struct's fields or an enum's variants.
pub enum Body<'a> {
    /// A struct.
    Struct(Style, Vec<Field<'a>>),
    /// An enum.
    Enum(Vec<Variant<'a>>),
}

/// How a struct or variant holds its fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `{ a: A, b: B }`.
    Named,
    /// `(A, B)`.
    Tuple,
    /// No fields.
    Unit,
}

/// One enum variant.
pub struct Variant<'a> {
    /// The variant's name.
    pub ident: &'a Ident,
    /// How it holds its fields.
    pub style: Style,
    /// Its fields.
    pub fields: Vec<Field<'a>>,
    /// Its attributes.
    pub attrs: attr::VariantAttrs,
}

/// One field.
pub struct Field<'a> {
    /// How to reach it in a value (`a` or `0`).
    pub member: Member,
    /// The name earlier-field expressions see it by: the field's name, or
    /// `_0`, `_1`, ... for a positional field.
    pub binding: Ident,
    /// The name in sites: `a` or `0`.
    pub name: String,
    /// Its type.
    pub ty: &'a Type,
    /// Its attributes.
    pub attrs: attr::FieldAttrs,
}

impl Field<'_> {
    /// The local variable holding this field's value in generated code.
    pub fn local(&self) -> Ident {
        format_ident!("__f_{}", self.name)
    }
}

fn fields<'a>(cx: &mut Ctxt, fields: &'a Fields) -> (Style, Vec<Field<'a>>) {
    let style = match fields {
        Fields::Named(_) => Style::Named,
        Fields::Unnamed(_) => Style::Tuple,
        Fields::Unit => Style::Unit,
    };
    let out = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let (member, binding, name) = match &f.ident {
                Some(id) => (Member::Named(id.clone()), id.clone(), id.unraw().to_string()),
                None => (Member::Unnamed(i.into()), format_ident!("_{}", i), i.to_string()),
            };
            Field { member, binding, name, ty: &f.ty, attrs: attr::field(cx, &f.attrs) }
        })
        .collect();
    (style, out)
}

/// Expand `#[derive(Reflective)]` on `input`: the generated code; or every
/// error found, with an impl of `Reflective` whose body is never run, so
/// that the type's uses do not add errors of their own ("the trait bound
/// `T: Reflective` is not satisfied") to the ones that matter.
pub fn derive(input: &DeriveInput) -> TokenStream {
    match expand(input) {
        Ok(code) => code,
        Err(e) => {
            let mut out = e.into_compile_error();
            if input.generics.lifetimes().next().is_none() {
                out.extend(expand::placeholder(input));
            }
            out
        }
    }
}

/// `tokens` with each lifetime named in `names` replaced by `'static` (same span).
fn static_lifetimes(tokens: TokenStream, names: &[String]) -> TokenStream {
    let tts: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(tts.len());
    let mut i = 0;
    while i < tts.len() {
        if let (TokenTree::Punct(p), Some(TokenTree::Ident(id))) = (&tts[i], tts.get(i + 1)) {
            if p.as_char() == '\'' && names.contains(&id.to_string()) {
                out.push(tts[i].clone());
                out.push(TokenTree::Ident(Ident::new("static", id.span())));
                i += 2;
                continue;
            }
        }
        match &tts[i] {
            TokenTree::Group(g) => {
                let mut ng = proc_macro2::Group::new(g.delimiter(), static_lifetimes(g.stream(), names));
                ng.set_span(g.span());
                out.push(TokenTree::Group(ng));
            }
            t => out.push(t.clone()),
        }
        i += 1;
    }
    out.into_iter().collect()
}

/// A type with lifetime parameters, as the impl sees it: the lifetimes
/// dropped from its parameters and `'static` wherever they were used; and
/// the type's arguments (`<'static, T>`).
fn staticize(input: &DeriveInput) -> (DeriveInput, TokenStream) {
    let names: Vec<String> = input.generics.lifetimes().map(|l| l.lifetime.ident.to_string()).collect();
    let args = input.generics.params.iter().map(|p| match p {
        GenericParam::Lifetime(l) => {
            let span = l.lifetime.span();
            let l = syn::Lifetime::new("'static", span);
            quote!(#l)
        }
        GenericParam::Type(t) => {
            let i = &t.ident;
            quote!(#i)
        }
        GenericParam::Const(c) => {
            let i = &c.ident;
            quote!(#i)
        }
    });
    let args = quote!(<#(#args),*>);
    let mut out: DeriveInput = syn::parse2(static_lifetimes(input.to_token_stream(), &names))
        .expect("the input with 'static lifetimes parses");
    out.generics.params = out.generics.params.into_iter().filter(|p| !matches!(p, GenericParam::Lifetime(_))).collect();
    (out, args)
}

/// Expand `#[derive(Reflective)]` on `input`: the generated code, or every error found.
pub fn expand(input: &DeriveInput) -> Result<TokenStream, syn::Error> {
    let staticized;
    let (input, self_args) = if input.generics.lifetimes().next().is_some() {
        let (i, args) = staticize(input);
        staticized = i;
        (&staticized, Some(args))
    } else {
        (input, None)
    };
    let mut cx = Ctxt::default();
    let attrs = attr::container(&mut cx, &input.attrs);
    let body = match &input.data {
        Data::Struct(s) => {
            let (style, fs) = fields(&mut cx, &s.fields);
            Body::Struct(style, fs)
        }
        Data::Enum(e) => Body::Enum(
            e.variants
                .iter()
                .map(|v| {
                    let va = attr::variant(&mut cx, &v.attrs);
                    let (style, fs) = fields(&mut cx, &v.fields);
                    Variant { ident: &v.ident, style, fields: fs, attrs: va }
                })
                .collect(),
        ),
        Data::Union(u) => {
            cx.error(
                u.union_token.span,
                "`#[derive(Reflective)]` cannot be used on a union: a generator cannot tell which field is live; \
                 use an enum, or implement `Reflective` by hand",
            );
            return Err(cx.finish().expect_err("an error was recorded"));
        }
    };
    let input = Input { ident: &input.ident, self_args, generics: &input.generics, attrs, body };
    check::check(&mut cx, &input);
    cx.finish()?;
    Ok(expand::expand(&input))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The expansion of one small type, pretty-printed by `rustfmt`,
    /// compared with the committed snapshot. Set `REFGEN_SNAPSHOT=overwrite`
    /// to accept a deliberate change.
    #[test]
    fn expansion_snapshot() {
        let input: DeriveInput = syn::parse_quote! {
            #[assume(self.depth() < 4)]
            enum Shape {
                #[choice(weight = 2)]
                Dot,
                Line(#[choice(range = 1..=9)] u8),
                Group { #[choice(len = 0..=3)] parts: Vec<Shape>, #[choice(regex = "[a-z]{1,4}")] name: String },
            }
        };
        snapshot("expand_shape.rs", &input);
    }

    /// The expansion of a type with arguments, guards and fields made out of
    /// declaration order, against its snapshot.
    #[test]
    fn expansion_snapshot_with_arguments() {
        let input: DeriveInput = syn::parse_quote! {
            #[reflect(args(lo: i32 = 0, hi: i32 in 0..=9))]
            enum Bst {
                Leaf,
                #[choice(when = *lo <= *hi)]
                Node {
                    #[choice(args(*lo, *key - 1))]
                    left: Box<Bst>,
                    #[choice(range = *lo..=*hi)]
                    key: i32,
                    #[choice(args(*key + 1, *hi))]
                    right: Box<Bst>,
                },
            }
        };
        snapshot("expand_args.rs", &input);
    }

    fn snapshot(file: &str, input: &DeriveInput) {
        let code = expand(input).expect("expands").to_string();
        let formatted = rustfmt(&code);
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots").join(file);
        if std::env::var("REFGEN_SNAPSHOT").as_deref() == Ok("overwrite") {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &formatted).unwrap();
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            expected == formatted,
            "the expansion changed; read it, and if the change is meant, rerun with REFGEN_SNAPSHOT=overwrite.\n\
             --- new expansion ---\n{formatted}"
        );
    }

    fn rustfmt(code: &str) -> String {
        use std::io::Write;
        use std::process::{Command, Stdio};
        let mut child = Command::new(std::env::var("RUSTFMT").unwrap_or_else(|_| "rustfmt".into()))
            .args(["--edition", "2021", "--emit", "stdout"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the snapshot test needs rustfmt");
        child.stdin.take().unwrap().write_all(code.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "rustfmt failed on the expansion:\n{code}");
        String::from_utf8(out.stdout).unwrap()
    }
}
