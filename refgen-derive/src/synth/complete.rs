//! What a synthesized generator asks before it offers an option or keeps a part: can the parts still to make be completed.
//!
//! Each option gets a search (`__can_<i>`): its integer parts tried from
//! the middle of their ranges out, its computed parts computed, and each
//! call on a part asked whether the called predicate accepts some value
//! under its arguments one level down (`callee::__can`). The predicate's
//! answers per level and arguments (`__masks`) are remembered, and read
//! forward (the options offered, a part kept only where what follows it
//! can be completed) and backward (the same options offered).

use super::expand::{bounds_of, projection, ranged_of, span_of};
use super::model::{names, Arm, PartB, Pred};
use super::plan::{Make, Plan};
use crate::derive::core_path;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, ToTokens};
use syn::Expr;

/// Whether the predicate has an option that is always offered and always completed (no guard,
/// no call, no bound, no check: `Leaf => true`), so that every call of it can be completed
/// and nothing need be asked.
pub fn always<'a>(mut plans: impl Iterator<Item = &'a Plan>) -> bool {
    plans.any(|plan| {
        plan.guards.is_empty()
            && plan.early.is_empty()
            && plan.late.is_empty()
            && plan.makes.iter().all(|m| match m {
                Make::Any => true,
                Make::Eq(_, None) => true,
                Make::Eq(_, Some(_)) | Make::Int(..) | Make::Rec(..) => false,
            })
    })
}

/// Whether part `i` is named by what makes another part (a call's arguments, a bound, a computed value).
fn named_later(plan: &Plan, parts: &[PartB], i: usize) -> bool {
    let name = parts[i].name.to_string();
    plan.makes.iter().enumerate().any(|(j, m)| {
        j != i
            && match m {
                Make::Rec(_, args) => args.iter().any(|e| names(e.to_token_stream(), &name)),
                Make::Eq(e, _) => names(e.to_token_stream(), &name),
                Make::Int(lo, hi, _) => lo.iter().chain(hi).any(|(e, _)| names(e.to_token_stream(), &name)),
                Make::Any => false,
            }
    })
}

/// `callee::__can(level, args)`, each argument cloned (a search asks it once per value tried).
fn ask(callee: &Ident, level: TokenStream, args: &[Expr]) -> TokenStream {
    let core = core_path();
    quote!(
        if #callee::__ALWAYS {
            #core::__private::Can::Yes
        } else {
            #callee::__can(#level #(, ::core::clone::Clone::clone(&(#args)))*)
        }
    )
}

/// The forward check on part `i` of an option, once made: whether the parts made after it can be
/// completed (the search of the option from the next part on, the parts made so far bound).
/// `None` when no call on a part follows it, or nothing made after it reads it.
pub fn check_after(pred: &Pred, arm: &Arm, plan: &Plan, i: usize) -> Option<TokenStream> {
    let core = core_path();
    let p = plan.order.iter().position(|&k| k == i)?;
    let calls_after = plan.order[p + 1..].iter().any(|&j| matches!(plan.makes[j], Make::Rec(..)));
    if !calls_after || !named_later(plan, &arm.parts, i) {
        return None;
    }
    let suffix = step(pred, arm, plan, p + 1, None);
    Some(quote!({
        let __level = __frame.level();
        let mut __best = #core::__private::Can::No;
        let __m = false;
        '__top: { #suffix }
        __best.possible()
    }))
}

/// `__can_<index>`: the search of one option under a level and the arguments.
pub fn search_fn(pred: &Pred, arm: &Arm, plan: &Plan, index: usize, params: &TokenStream) -> TokenStream {
    let core = core_path();
    let f = format_ident!("__can_{}", index);
    let inner = step(pred, arm, plan, 0, None);
    let body = quote!(
        let mut __best = #core::__private::Can::No;
        let __m = false;
        '__top: { #inner }
        __best
    );
    quote!(
        #[allow(unused_variables, unused_parens, unused_labels, unreachable_code, non_snake_case, clippy::all)]
        fn #f(__level: usize, #params) -> #core::__private::Can {
            #body
        }
    )
}

/// The search from position `p` of the order on: each part made, bound or asked about; `lp` the
/// label of the innermost loop (what a dead path continues), if any.
fn step(pred: &Pred, arm: &Arm, plan: &Plan, p: usize, lp: Option<&syn::Lifetime>) -> TokenStream {
    let core = core_path();
    let can = quote!(#core::__private::Can);
    let skip = match lp {
        Some(l) => quote!(continue #l),
        None => quote!(break '__top),
    };
    let Some(&i) = plan.order.get(p) else {
        return quote!({
            let __path = if __m { #can::Maybe } else { #can::Yes };
            if __path > __best { __best = __path; }
            if __best == #can::Yes { break '__top; }
        });
    };
    let part = &arm.parts[i];
    let (name, local) = (&part.name, format_ident!("__v_{}", part.name));
    let bind = if part.by_ref {
        quote!(let #name = &#local;)
    } else {
        quote!(let #name = ::core::clone::Clone::clone(&#local);)
    };
    let needed = named_later(plan, &arm.parts, i);
    // The checks on this part alone (and the arguments): a value that fails them is not tried further.
    let own_checks: Vec<&Expr> = plan
        .early
        .iter()
        .filter(|(j, c)| {
            *j == i && arm.parts.iter().all(|q| q.name == *name || !names(c.to_token_stream(), &q.name.to_string()))
        })
        .map(|(_, c)| c)
        .collect();
    let passes = |label: &syn::Lifetime| {
        if own_checks.is_empty() {
            TokenStream::new()
        } else {
            quote!(if !(#(#core::__private::assume_bool(#own_checks))&&*) { continue #label; })
        }
    };
    match &plan.makes[i] {
        Make::Rec(callee, args) => {
            let q = ask(callee, quote!(__level + 1), args);
            let rest = step(pred, arm, plan, p + 1, lp);
            quote!(
                let __c = #q;
                if __c == #can::No { #skip; }
                let __m = __m || __c == #can::Maybe;
                #rest
            )
        }
        Make::Int(lo, hi, conv) => {
            let bounded_by_parts = lo.iter().chain(hi).any(|(e, _)| {
                arm.parts.iter().any(|q| q.name != *name && names(e.to_token_stream(), &q.name.to_string()))
            });
            if !needed && !bounded_by_parts {
                // Its range is not empty (a guard), and nothing made after it reads it.
                return step(pred, arm, plan, p + 1, lp);
            }
            let label = syn::Lifetime::new(&format!("'__p{i}"), proc_macro2::Span::call_site());
            let rest = step(pred, arm, plan, p + 1, Some(&label));
            let passes = passes(&label);
            let project = projection(pred, &arm.pat, name);
            let (candidates, value) = match conv {
                None => {
                    let (ranged, bounds) = (ranged_of(pred, &arm.pat, name), bounds_of(lo, hi, &arm.parts));
                    (quote!(#ranged.candidates(#bounds)), quote!(__x))
                }
                Some(_) => {
                    let span = span_of(lo, hi, &arm.parts);
                    (
                        quote!(#core::__private::candidates(#span)),
                        quote!(match #core::__private::converted_as(#project, __x) {
                            ::core::result::Result::Ok(__y) => __y,
                            ::core::result::Result::Err(_) => continue #label,
                        }),
                    )
                }
            };
            quote!(
                match #candidates {
                    ::core::option::Option::Some((__it, __all)) => {
                        if !__all && __best < #can::Maybe { __best = #can::Maybe; }
                        #label: for __x in __it {
                            let #local = #value;
                            #bind
                            #passes
                            #rest
                        }
                    }
                    ::core::option::Option::None => { #skip; }
                }
            )
        }
        Make::Eq(e, conv) if needed => {
            let project = projection(pred, &arm.pat, name);
            let value = match conv {
                None => quote!(::core::result::Result::<_, #core::Stop>::Ok(#e)),
                Some(_) => quote!(#core::__private::converted_as(#project, #e)),
            };
            let rest = step(pred, arm, plan, p + 1, lp);
            quote!(
                let #local = match #value {
                    ::core::result::Result::Ok(__y) => __y,
                    ::core::result::Result::Err(_) => { #skip; }
                };
                #bind
                #rest
            )
        }
        Make::Any if needed => {
            // Read by a later part: each value of its type, when it has few (a colour).
            let label = syn::Lifetime::new(&format!("'__p{i}"), proc_macro2::Span::call_site());
            let rest = step(pred, arm, plan, p + 1, Some(&label));
            let passes = passes(&label);
            let project = projection(pred, &arm.pat, name);
            let bind = if part.by_ref {
                quote!(let #name = __x;)
            } else {
                quote!(let #name = ::core::clone::Clone::clone(__x);)
            };
            quote!(
                match (&&#core::__private::finite(#project)).values() {
                    ::core::option::Option::Some(__values) => {
                        #label: for __x in __values.iter() {
                            #bind
                            #passes
                            #rest
                        }
                    }
                    ::core::option::Option::None => {
                        if __best < #can::Maybe { __best = #can::Maybe; }
                        #skip;
                    }
                }
            )
        }
        // Not read by a later part: taken as made.
        Make::Eq(..) | Make::Any => step(pred, arm, plan, p + 1, lp),
    }
}

/// The items that answer whether the predicate can be completed: `__ALWAYS`, `__can` (asked by
/// callers one level up), and, unless always, `__masks` (remembered), `__find` and each option's
/// search. `options` are the options in pick order, each with its arm and plan; `guarded` sets
/// `__allowed` from the guards under `__limited`.
#[allow(clippy::too_many_arguments)]
pub fn completion_fns(
    pred: &Pred,
    options: &[(&Arm, &Plan)],
    always: bool,
    guarded: &TokenStream,
    params: &TokenStream,
    arg_names: &[&Ident],
    depth: &TokenStream,
    vis: &syn::Visibility,
) -> TokenStream {
    let core = core_path();
    let can = quote!(#core::__private::Can);
    let clones = quote!(#(::core::clone::Clone::clone(&#arg_names)),*);
    let head = quote!(
        #[doc(hidden)]
        #vis const __ALWAYS: bool = #always;
    );
    if always {
        return quote!(
            #head
            #[doc(hidden)]
            #[allow(unused_variables, clippy::too_many_arguments)]
            #vis fn __can(__level: usize, #params) -> #can {
                #can::Yes
            }
        );
    }
    let asks = options.iter().enumerate().map(|(i, _)| {
        let bit = 1u64 << i;
        let f = format_ident!("__can_{}", i);
        quote!(
            if __allowed & #bit != 0 {
                match Self::#f(__level, #clones) {
                    #can::Yes => { __possible |= #bit; __yes |= #bit; }
                    #can::Maybe => __possible |= #bit,
                    #can::No => {}
                }
            }
        )
    });
    let searches = options.iter().enumerate().map(|(i, (arm, plan))| search_fn(pred, arm, plan, i, params));
    quote!(
        #head

        #[doc(hidden)]
        #[allow(clippy::too_many_arguments)]
        #vis fn __can(__level: usize, #params) -> #can {
            Self::__masks(__level, #(#arg_names),*).can()
        }

        /// The options that may be completed under the arguments at `__level` (remembered).
        #[allow(clippy::too_many_arguments)]
        fn __masks(__level: usize, #params) -> #core::__private::Masks {
            ::std::thread_local!(static __MEMO: #core::__private::Memo = const { #core::__private::Memo::new() });
            (&&#core::__private::Keyed((__level, #(::core::clone::Clone::clone(&#arg_names),)*)))
                .masks(&__MEMO, || Self::__find(__level, #(#arg_names),*))
        }

        /// [`Self::__masks`], searched.
        #[allow(unused_variables, unused_mut, clippy::too_many_arguments)]
        fn __find(__level: usize, #params) -> #core::__private::Masks {
            if __level >= #core::__private::HARD_DEPTH {
                return #core::__private::Masks { possible: 0, yes: 0 };
            }
            let __limited = __level >= #depth;
            #guarded
            let mut __possible = 0u64;
            let mut __yes = 0u64;
            #(#asks)*
            #core::__private::Masks { possible: __possible, yes: __yes }
        }

        #(#searches)*
    )
}
