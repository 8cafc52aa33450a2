//! A derived generator's arguments: their type, their names in scope, the order of fields they induce, and the type's own generator over them.

use super::attr::{ArgDecl, ArgTop};
use super::fields::{core_path, names_value};
use super::{Body, Field, Input};
use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::Type;

/// The type of the arguments: the one declared, or the tuple of several.
pub fn args_ty(decls: &[ArgDecl]) -> TokenStream {
    match decls {
        [one] => one.ty.to_token_stream(),
        _ => {
            let tys = decls.iter().map(|d| &d.ty);
            quote!((#(#tys,)*))
        }
    }
}

/// How the argument at `i` is reached from `__args` (a reference to all of them).
fn access(decls: &[ArgDecl], i: usize) -> TokenStream {
    if decls.len() == 1 {
        quote!(__args)
    } else {
        let i = syn::Index::from(i);
        quote!(&__args.#i)
    }
}

/// `let name = &...;` for each argument that `tokens` name as a value:
/// the arguments in scope, as references, where an expression uses them.
pub fn bind_args(decls: &[ArgDecl], tokens: &TokenStream) -> TokenStream {
    decls
        .iter()
        .enumerate()
        .filter(|(_, d)| names_value(tokens.clone(), &d.name.to_string()))
        .map(|(i, d)| {
            let (name, get) = (&d.name, access(decls, i));
            quote!(#[allow(unused_variables)] let #name = #get;)
        })
        .collect()
}

/// The expressions of a field's attributes that may name other fields and arguments.
pub fn field_tokens(f: &Field) -> TokenStream {
    let a = &f.attrs;
    let mut out = a.part.expr_tokens();
    if let Some(w) = &a.with {
        out.extend(w.to_token_stream());
    }
    if let Some((Some(d), _)) = &a.default {
        out.extend(d.to_token_stream());
    }
    if let Some(c) = &a.assume {
        out.extend(c.expr.to_token_stream());
    }
    out
}

/// Every expression of the type's attributes: what may name an argument.
pub fn all_tokens(input: &Input) -> TokenStream {
    let mut out = TokenStream::new();
    for a in [&input.attrs.assume, &input.attrs.assume_top].into_iter().flatten() {
        out.extend(a.expr.to_token_stream());
    }
    match &input.body {
        Body::Struct(_, fs) => fs.iter().for_each(|f| out.extend(field_tokens(f))),
        Body::Enum(vs) => {
            for v in vs {
                if let Some(w) = &v.attrs.when {
                    out.extend(w.to_token_stream());
                }
                v.fields.iter().for_each(|f| out.extend(field_tokens(f)));
            }
        }
    }
    out
}

/// The order in which `fields` are made: each after the fields its
/// attributes name, in declaration order where nothing says otherwise (a
/// key before the subtrees it bounds). On a cycle, `Err` with the index of
/// a field in it.
pub fn field_order(fields: &[Field]) -> Result<Vec<usize>, usize> {
    let deps: Vec<Vec<usize>> = fields
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let tokens = field_tokens(f);
            (0..fields.len())
                .filter(|&j| j != i && names_value(tokens.clone(), &fields[j].binding.to_string()))
                .collect()
        })
        .collect();
    let mut placed = vec![false; fields.len()];
    let mut order = Vec::with_capacity(fields.len());
    while order.len() < fields.len() {
        let next = (0..fields.len()).find(|&i| !placed[i] && deps[i].iter().all(|&j| placed[j]));
        match next {
            Some(i) => {
                placed[i] = true;
                order.push(i);
            }
            None => return Err((0..fields.len()).find(|&i| !placed[i]).unwrap_or(0)),
        }
    }
    Ok(order)
}

/// An argument a top-level generator gives: `name: Type = value`, or a choice in a range.
pub struct Given<'a> {
    /// Its name.
    pub name: &'a syn::Ident,
    /// Its type.
    pub ty: &'a Type,
    /// Its value.
    pub value: GivenValue<'a>,
}

/// How a top-level generator gives an argument.
pub enum GivenValue<'a> {
    /// This value.
    Default(&'a syn::Expr),
    /// A choice in `lo..=hi`, at the site `Type.name`.
    Range(Option<&'a syn::Expr>, Option<&'a syn::Expr>),
}

/// The arguments a top-level generator gives (a derived type's own, or a `#[synth]` predicate's):
/// forward, statements binding each (a ranged one drawn as the part `{prefix}.{name}`, in order);
/// backward, statements collecting in `__all` the ways of `__target`: `body` (which sees the
/// arguments by name and the ways of their choices in `__ways`) run under every value of the
/// ranged ones.
pub fn given_arguments(args: &[Given], prefix: &str, body: TokenStream) -> (TokenStream, TokenStream) {
    let core = core_path();
    let draw = |a: &Given| {
        let (name, ty) = (a.name, a.ty);
        let site = format!("{prefix}.{name}");
        match &a.value {
            GivenValue::Default(e) => (quote!(let #name: #ty = #e;), None),
            GivenValue::Range(lo, hi) => {
                let (lo, hi) = (quote!(#lo), quote!(#hi));
                let g = quote!(#core::combinators::int::<#ty>(#lo..=#hi).site(#site));
                (quote!(let #name: #ty = #core::__private::run_part(&#g, #site, __src)?;), Some((g, site, lo, hi)))
            }
        }
    };
    let forward: TokenStream = args.iter().map(|a| draw(a).0).collect();
    let mut back = body;
    let mut defaults = TokenStream::new();
    for a in args.iter().rev() {
        let (name, ty) = (a.name, a.ty);
        match draw(a) {
            (bind, None) => defaults = quote!(#bind #defaults),
            (_, Some((g, site, lo, hi))) => {
                back = quote!(
                    for #name in (#lo as #ty)..=(#hi as #ty) {
                        let __ways = #core::__private::back_part(__ways.clone(), #site, #core::Gen::back(&#g, &#name));
                        if __ways.is_empty() { continue; }
                        #back
                    }
                );
            }
        }
    }
    let back = quote!(
        let mut __all = ::std::vec::Vec::new();
        let __ways = ::std::vec![#core::Way::empty()];
        #defaults
        #back
        __all
    );
    (forward, back)
}

/// The type's own generator when every argument has a default or a range
/// (`#[reflect(args(lo: i32 = 0, h: u8 in 0..=4))]`): each ranged argument
/// a choice at the site `Type.name`, in declaration order, then the body
/// under the arguments. Backward, every value of the ranges is tried, and
/// the ways of all that make the value are kept.
pub fn top_impl(
    generics: &syn::Generics,
    decls: &[ArgDecl],
    self_ty: &Type,
    type_name: &str,
    body: &TokenStream,
) -> TokenStream {
    let core = core_path();
    let args_ty = args_ty(decls);
    let Some(tops) = decls.iter().map(|d| d.top.as_ref()).collect::<Option<Vec<_>>>() else {
        return TokenStream::new();
    };
    let names: Vec<_> = decls.iter().map(|d| &d.name).collect();
    let value = if decls.len() == 1 { quote!(#(#names)*) } else { quote!((#(#names,)*)) };
    let given: Vec<Given> = decls
        .iter()
        .zip(&tops)
        .map(|(d, top)| Given {
            name: &d.name,
            ty: &d.ty,
            value: match top {
                ArgTop::Default(e) => GivenValue::Default(e),
                ArgTop::Range(r) => GivenValue::Range(r.start.as_deref(), r.end.as_deref()),
            },
        })
        .collect();
    let (forward, back) = given_arguments(
        &given,
        type_name,
        quote!(
            let __args: #args_ty = #value;
            let __body = #core::GenWith::back_with(&*self.body, &__args, __target);
            __all.extend(#core::gen::product(__ways, &__body));
        ),
    );
    let (impl_generics, ty_generics, where_clause) = generics.split_for_impl();
    quote!(
        /// The type's own generator: its arguments, then the body under them.
        #[doc(hidden)]
        struct __ReflectTop #impl_generics #where_clause {
            body: #core::args::BoxGenWith<#args_ty, #self_ty>,
        }

        impl #impl_generics __ReflectTop #ty_generics #where_clause {
            #[allow(unused_variables)]
            #[inline]
            fn __forward<__A: #core::gen::Answerer + ?::core::marker::Sized>(&self, __src: &mut __A) -> ::core::result::Result<#self_ty, #core::Stop> {
                #forward
                let __given = #core::WithArgs::<#self_ty>::new(::std::rc::Rc::clone(&self.body), #value);
                #core::gen::Answerer::sub(__src, &__given)
            }
        }

        impl #impl_generics #core::Gen for __ReflectTop #ty_generics #where_clause {
            type Value = #self_ty;

            fn run(&self, __src: &mut dyn #core::Source) -> ::core::result::Result<#self_ty, #core::Stop> {
                self.__forward(__src)
            }

            fn run_rng(&self, __rng: &mut #core::DetRng) -> ::core::result::Result<#self_ty, #core::Stop> {
                self.__forward(__rng)
            }

            #[allow(unused_variables)]
            fn back(&self, __target: &#self_ty) -> ::std::vec::Vec<#core::Way> {
                #back
            }
        }

        impl #impl_generics #core::Reflective for #self_ty #where_clause {
            fn generator() -> #core::BoxGen<Self> {
                #core::__private::cached::<Self>(|| -> #core::BoxGen<#self_ty> {
                    ::std::rc::Rc::new(__ReflectTop { body: #body })
                })
            }
        }
    )
}
