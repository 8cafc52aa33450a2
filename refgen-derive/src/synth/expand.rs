//! Code for a synthesized generator: the hidden type beside the predicate, forward and backward.

use super::model::Pred;
use super::plan::{Make, Plan};
use super::Options;
use crate::derive::core_path;
use crate::errors::Ctxt;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, ToTokens};
use syn::{Expr, Pat, Visibility};

/// One option of the predicate's pick: an alternative of an arm.
struct Opt<'a> {
    arm: usize,
    label: String,
    plan: Plan,
    conjuncts: &'a [Expr],
    recursive: bool,
}

/// The hidden type `name` beside the predicate `name`: its generator.
pub fn expand(cx: &mut Ctxt, pred: &Pred, vis: &Visibility, opts: &Options) -> TokenStream {
    let core = core_path();
    let name = &pred.name;
    let value_ty = &pred.value_ty;
    let site = name.to_string();
    let mut options: Vec<Opt> = Vec::new();
    for (ai, arm) in pred.arms.iter().enumerate() {
        for (j, alt) in arm.alts.iter().enumerate() {
            match pred.plan(arm, alt) {
                Ok(plan) => {
                    let label =
                        if arm.alts.len() == 1 { arm.label.clone() } else { format!("{}#{}", arm.label, j + 1) };
                    let recursive =
                        plan.makes.iter().any(|m| matches!(m, Make::Rec(callee, _) if *callee == pred.name));
                    options.push(Opt { arm: ai, label, plan, conjuncts: alt, recursive });
                }
                Err((span, msg)) => cx.error(span, msg),
            }
        }
    }
    for (label, _, span) in &opts.weights {
        if !options.iter().any(|o| o.label == *label || pred.arms[o.arm].label == *label) {
            let labels: Vec<String> = options.iter().map(|o| format!("`{}`", o.label)).collect();
            cx.error(
                *span,
                format!("no option of `{name}` is labelled `{label}`; its options are {}", labels.join(", ")),
            );
        }
    }
    // Base options first: at the depth budget, they are the ones offered (where the guards allow one).
    options.sort_by_key(|o| o.recursive);
    let base = options.iter().filter(|o| !o.recursive).count();
    // An option always offered and completed: nothing need be asked before a pick or a part.
    let always = super::complete::always(options.iter().map(|o| &o.plan));
    let weight = |label: &str| {
        let arm_label = label.split('#').next().unwrap_or(label);
        let of = |name: &str| opts.weights.iter().find(|(l, ..)| l == name).map(|(_, w, _)| *w);
        of(label).or_else(|| of(arm_label)).unwrap_or(1)
    };
    let opt_consts = options.iter().map(|o| {
        let (label, w) = (&o.label, weight(&o.label));
        quote!(#core::Opt { label: #label, weight: #w })
    });
    let depth = match opts.depth {
        Some(d) => quote!(#d),
        None => quote!(#core::__private::DEFAULT_DEPTH),
    };
    let arg_names: Vec<&Ident> = pred.args.iter().map(|(n, _)| n).collect();
    let arg_tys: Vec<&syn::Type> = pred.args.iter().map(|(_, t)| t).collect();
    let args_ty = quote!((#(#arg_tys,)*));
    let params = quote!(#(#arg_names: #arg_tys),*);
    let value = &pred.value;

    // The guards: one bit per option.
    let bits = options.iter().enumerate().map(|(i, o)| {
        let bit = 1u64 << i;
        let arm = &pred.arms[o.arm];
        let mut gs: Vec<TokenStream> =
            o.plan.guards.iter().map(|g| quote!(#core::__private::assume_bool(#g))).collect();
        // An integer bounded by the arguments alone: offered only where its range is not empty.
        for (j, m) in o.plan.makes.iter().enumerate() {
            if let Make::Int(lo, hi, conv) = m {
                let by_args = lo.iter().chain(hi).all(|(e, _)| {
                    arm.parts.iter().all(|p| !super::model::names(e.to_token_stream(), &p.name.to_string()))
                });
                if by_args && conv.is_some() {
                    let span = span_of(lo, hi, &arm.parts);
                    gs.push(quote!(#span.is_some()));
                } else if by_args {
                    let ranged = ranged_of(pred, &arm.pat, &arm.parts[j].name);
                    let bounds = bounds_of(lo, hi, &arm.parts);
                    gs.push(quote!(#ranged.exists(#bounds, |_| true)));
                }
            }
        }
        // A part only checked, by the arguments and itself: offered only where a value passes.
        for (j, p) in arm.parts.iter().enumerate() {
            let checks: Vec<&Expr> = o.plan.early.iter().filter(|(k, _)| *k == j).map(|(_, c)| c).collect();
            let only_self = checks.iter().all(|c| {
                arm.parts
                    .iter()
                    .enumerate()
                    .all(|(k, q)| k == j || !super::model::names(c.to_token_stream(), &q.name.to_string()))
            });
            if let (Make::Int(lo, hi, conv), false, true) = (&o.plan.makes[j], checks.is_empty(), only_self) {
                let by_args = lo.iter().chain(hi).all(|(e, _)| {
                    arm.parts.iter().all(|q| !super::model::names(e.to_token_stream(), &q.name.to_string()))
                });
                if by_args {
                    let pname = &p.name;
                    let bind_v = bind_checked(p);
                    let valid = quote!(|__v| {
                        #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&*
                    });
                    if conv.is_some() {
                        let span = span_of(lo, hi, &arm.parts);
                        let convert = convert_of(true);
                        let project = projection(pred, &arm.pat, pname);
                        gs.push(quote!(#core::__private::bounded_exists(#project, #span, #convert, #valid)));
                    } else {
                        let ranged = ranged_of(pred, &arm.pat, pname);
                        let bounds = bounds_of(lo, hi, &arm.parts);
                        gs.push(quote!(#ranged.exists(#bounds, #valid)));
                    }
                }
            }
            if matches!(o.plan.makes[j], Make::Any) && !checks.is_empty() && only_self {
                let pname = &p.name;
                let bind_v = bind_checked(p);
                let project = projection(pred, &arm.pat, pname);
                gs.push(quote!(#core::__private::exists(#project, |__v| {
                    #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&*
                })));
            }
        }
        if gs.is_empty() {
            quote!(#bit)
        } else {
            quote!(if #(#gs)&&* { #bit } else { 0 })
        }
    });
    // At the depth budget, the base options only: where the arguments allow none, the value is a
    // dead end, and the option around it is made again.
    let base_mask = if base >= 64 { u64::MAX } else { (1u64 << base) - 1 };
    let guarded = quote!(
        #[allow(unused_variables)]
        let __allowed: u64 = 0 #(| #bits)*;
        let __allowed = if __limited { __allowed & #base_mask } else { __allowed };
    );
    // The options offered: those the guards allow, and that may be completed.
    let arg_clones = quote!(#(::core::clone::Clone::clone(&#arg_names)),*);
    let allowed = if always {
        guarded.clone()
    } else {
        quote!(
            #guarded
            let __allowed = __allowed & Self::__masks(__frame.level(), #arg_clones).possible;
        )
    };
    let plans: Vec<(&crate::synth::model::Arm, &Plan)> = options.iter().map(|o| (&pred.arms[o.arm], &o.plan)).collect();
    let completion = super::complete::completion_fns(pred, &plans, always, &guarded, &params, &arg_names, &depth, vis);

    let mut run_arms = TokenStream::new();
    let mut back_alts: Vec<TokenStream> = vec![TokenStream::new(); pred.arms.len()];
    let mut filtered: Vec<String> = Vec::new();
    for (index, o) in options.iter().enumerate() {
        let arm = &pred.arms[o.arm];
        let index64 = index as u64;
        let plan = &o.plan;
        let part_site =
            |i: usize| format!("{site}::{}.{}", o.label, arm.parts[i].name.to_string().trim_start_matches("__"));
        // Forward: the parts in order, each bound by name as the predicate binds it.
        let mut stmts = TokenStream::new();
        for &i in &plan.order {
            let p = &arm.parts[i];
            let local = format_ident!("__v_{}", p.name);
            let psite = part_site(i);
            let make = match &plan.makes[i] {
                Make::Rec(callee, args) => {
                    quote!(#core::__private::run_part(&#callee::with(#(#args),*), #psite, __src))
                }
                // Equal to another part bound by reference (`a == b`): a copy of it.
                Make::Eq(Expr::Path(q), None) if arm.parts.iter().any(|x| x.by_ref && q.path.is_ident(&x.name)) => {
                    quote!(::core::result::Result::<_, #core::Stop>::Ok(::core::clone::Clone::clone(#q)))
                }
                Make::Eq(e, None) => quote!(::core::result::Result::<_, #core::Stop>::Ok(#e)),
                Make::Eq(e, Some(_)) => quote!(#core::__private::converted(#e)),
                Make::Int(lo, hi, None) => {
                    let (ranged, bounds) = (ranged_of(pred, &arm.pat, &p.name), bounds_of(lo, hi, &arm.parts));
                    quote!(#ranged.make(__src, #psite, #bounds))
                }
                Make::Int(lo, hi, Some(_)) => {
                    let span = span_of(lo, hi, &arm.parts);
                    quote!(#core::__private::bounded(__src, #psite, #span).and_then(#core::__private::converted))
                }
                Make::Any => quote!(#core::__private::any(__src, #psite)),
            };
            let checks: Vec<&Expr> = plan.early.iter().filter(|(j, _)| *j == i).map(|(_, c)| c).collect();
            filtered.extend(checks.iter().map(|c| c.to_token_stream().to_string()));
            let pname = &p.name;
            let bind = if p.by_ref {
                quote!(let #pname = &#local;)
            } else {
                quote!(let #pname = ::core::clone::Clone::clone(&#local);)
            };
            let is_rec = matches!(plan.makes[i], Make::Rec(..));
            let bind_v = bind_checked(p);
            let made = if checks.is_empty() {
                make
            } else if matches!(plan.makes[i], Make::Any) {
                // A part only checked: drawn among the values that pass, when they are few.
                let project = projection(pred, &arm.pat, &p.name);
                quote!(
                    #core::__private::any_where(
                        __src,
                        #psite,
                        #project,
                        |__v| { #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&* },
                    )
                )
            } else if let Make::Int(lo, hi, None) = &plan.makes[i] {
                // An ordered part bounded and checked: an integer drawn among the values that pass,
                // when its range is small.
                let (ranged, bounds) = (ranged_of(pred, &arm.pat, &p.name), bounds_of(lo, hi, &arm.parts));
                quote!(
                    #ranged.make_where(
                        __src,
                        #psite,
                        #bounds,
                        |__v| { #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&* },
                    )
                )
            } else if let Make::Int(lo, hi, conv) = &plan.makes[i] {
                // An integer compared through a conversion, bounded and checked.
                let span = span_of(lo, hi, &arm.parts);
                let convert = convert_of(conv.is_some());
                let project = projection(pred, &arm.pat, &p.name);
                quote!(
                    #core::__private::bounded_where(
                        __src,
                        #psite,
                        #project,
                        #span,
                        #convert,
                        |__v| { #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&* },
                    )
                )
            } else {
                quote!(
                    #core::combinators::retrying(
                        __src,
                        #core::combinators::DEFAULT_RETRIES,
                        |__src| #make,
                        |__v| { #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&* },
                    )
                )
            };
            // A part that later parts read, kept only where what follows it can be completed.
            let completable = if always || is_rec { None } else { super::complete::check_after(pred, arm, plan, i) };
            if let Some(completable) = completable {
                let project = projection(pred, &arm.pat, &p.name);
                stmts.extend(quote!(
                    let #local = #core::combinators::retrying_completable(
                        __src,
                        #core::combinators::DEFAULT_RETRIES,
                        |__src: &mut __A| #core::__private::typed_part(#project, #made),
                        |__v| { #[allow(unused_variables)] #bind_v #completable },
                    )?;
                ));
            } else {
                stmts.extend(quote!(let #local = #made?;));
            }
            if !is_rec {
                stmts.extend(quote!(#[allow(unused_variables)] #bind));
            }
        }
        let build = build_expr(&arm.pat, &plan.makes, &arm.parts);
        let late = &plan.late;
        filtered.extend(late.iter().map(|c| c.to_token_stream().to_string()));
        let pat = &arm.pat;
        let scrutinee = if pred.deref_scrutinee { quote!(*__value) } else { quote!(__value) };
        // The checks on the whole value: a value that fails them is made again (a filter: its
        // failed attempts count as such).
        let run = if late.is_empty() {
            quote!({
                #stmts
                ::core::result::Result::Ok(#build)
            })
        } else {
            quote!(#core::combinators::retrying(
                __src,
                #core::combinators::DEFAULT_RETRIES,
                |__src: &mut __A| -> ::core::result::Result<#value_ty, #core::Stop> {
                    #stmts
                    ::core::result::Result::Ok(#build)
                },
                |__value: &#value_ty| {
                    #[allow(unused_variables, unreachable_patterns)]
                    match #scrutinee { #pat => #(#core::__private::assume_bool(#late))&&*, _ => false }
                },
            ))
        };
        run_arms.extend(quote!(#index64 => #run,));

        // Backward: every constructed conjunct and check as written (the predicate's own
        // bindings are in scope), then the ways of each part in the forward order.
        let mut back = TokenStream::new();
        for &i in &plan.order {
            let p = &arm.parts[i];
            let psite = part_site(i);
            let r = if p.by_ref {
                let n = &p.name;
                quote!(#n)
            } else {
                let n = &p.name;
                quote!(&#n)
            };
            let step = match &plan.makes[i] {
                Make::Rec(callee, args) => {
                    // The predicate's own value type named, another's inferred from its `__back`.
                    let borrowed = if *callee == pred.name {
                        quote!(#core::__private::borrow_part::<#value_ty, _>(#r))
                    } else {
                        quote!(#core::__private::borrow_part(#r))
                    };
                    quote!(
                        __ways = #core::__private::back_part(__ways, #psite, #callee::__back(#borrowed #(, #args)*));
                    )
                }
                Make::Eq(..) => continue,
                Make::Int(lo, hi, None) if plan.early.iter().any(|(j, _)| *j == i) => {
                    let checks = plan.early.iter().filter(|(j, _)| *j == i).map(|(_, c)| c);
                    let bind_v = bind_checked(p);
                    let (ranged, bounds) = (ranged_of(pred, &arm.pat, &p.name), bounds_of(lo, hi, &arm.parts));
                    quote!(
                        __ways = #ranged.back_where(__ways, #psite, #bounds, #r, |__v| {
                            #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&*
                        });
                    )
                }
                Make::Int(lo, hi, conv) if plan.early.iter().any(|(j, _)| *j == i) => {
                    let span = span_of(lo, hi, &arm.parts);
                    let checks = plan.early.iter().filter(|(j, _)| *j == i).map(|(_, c)| c);
                    let pname = &p.name;
                    let bind_v = bind_checked(p);
                    let w = match conv {
                        None => quote!(::core::clone::Clone::clone(#r)),
                        Some(c) => quote!(#c),
                    };
                    let convert = convert_of(conv.is_some());
                    let project = projection(pred, &arm.pat, pname);
                    quote!(
                        __ways = #core::__private::bounded_where_back(__ways, #psite, #project, #span, #w, #convert, |__v| {
                            #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&*
                        });
                    )
                }
                Make::Int(lo, hi, None) => {
                    let (ranged, bounds) = (ranged_of(pred, &arm.pat, &p.name), bounds_of(lo, hi, &arm.parts));
                    quote!(__ways = #ranged.back(__ways, #psite, #bounds, #r);)
                }
                Make::Int(lo, hi, Some(c)) => {
                    let span = span_of(lo, hi, &arm.parts);
                    quote!(__ways = #core::__private::bounded_back(__ways, #psite, #span, &(#c));)
                }
                Make::Any if plan.early.iter().any(|(j, _)| *j == i) => {
                    let checks = plan.early.iter().filter(|(j, _)| *j == i).map(|(_, c)| c);
                    let bind_v = bind_checked(p);
                    quote!(
                        __ways = #core::__private::any_where_back(__ways, #psite, #r, |__v| {
                            #[allow(unused_variables)] #bind_v #(#core::__private::assume_bool(#checks))&&*
                        });
                    )
                }
                Make::Any => quote!(__ways = #core::__private::any_back(__ways, #psite, #r);),
            };
            back.extend(quote!(#step if __ways.is_empty() { break 'alt; }));
        }
        let written: Vec<&Expr> = o.conjuncts.iter().filter(|c| !is_rec_call(c, plan, pred, &arm.parts)).collect();
        back_alts[o.arm].extend(quote!(
            'alt: {
                if !__ARMS.offers(__limited, __allowed, #index) { break 'alt; }
                if !(true #(&& #core::__private::assume_bool(#written))*) { break 'alt; }
                #[allow(unused_mut)]
                let mut __ways = ::std::vec![#core::Way::empty()];
                #back
                __all.extend(__ARMS.ways_among(__limited, __allowed, #index, __ways));
            }
        ));
    }
    let back_arms = pred.arms.iter().zip(&back_alts).map(|(arm, alts)| {
        let pat = &arm.pat;
        quote!(#pat => { #alts })
    });
    let scrutinee = if pred.deref_scrutinee { quote!(*#value) } else { quote!(#value) };
    let top = super::top::top_generator(pred, vis, opts);
    let doc = format!(
        "The generator of the values `{name}` accepts: `{name}::with(args)` under given arguments \
         (a `Gen`). Written by `#[synth]` beside the predicate."
    );
    quote!(
        #[doc = #doc]
        #[allow(non_camel_case_types)]
        #[derive(Clone)]
        #vis struct #name {
            args: #args_ty,
        }

        #[allow(non_upper_case_globals, clippy::all)]
        const _: () = {
            const __ARMS: #core::__private::Variants = #core::__private::Variants::new(#site, &[#(#opt_consts),*], #base);
            #[allow(unused_imports)]
            use #core::__private::{FiniteValues as _, RangedAny as _, RangedInt as _, Remembered as _, Unlisted as _, Unremembered as _};
            // The predicate and its generator go together: a use of one is a use of both.
            const _: fn(&#value_ty #(, #arg_tys)*) -> bool = #name;

            impl #name {
                /// The values the predicate accepts under these arguments.
                #[allow(clippy::too_many_arguments)]
                #vis fn with(#params) -> Self {
                    #name { args: (#(#arg_names,)*) }
                }

                /// The conjuncts the generator checks (made again while they fail) rather than constructs.
                #vis const FILTERED: &'static [&'static str] = &[#(#filtered),*];

                #completion

                #[allow(unused_variables, unused_parens, unused_labels, unused_mut, unreachable_code, non_snake_case, clippy::all)]
                fn __forward<__A: #core::gen::Answerer + ?::core::marker::Sized>(
                    __src: &mut __A, #params
                ) -> ::core::result::Result<#value_ty, #core::Stop> {
                    let __frame = #core::__private::Frame::enter();
                    if __frame.too_deep() { return ::core::result::Result::Err(#core::Stop::Void); }
                    let __limited = __frame.at_limit(#depth);
                    #allowed
                    // No option under these arguments: a dead end, and the pick around is made again.
                    if __ARMS.offered_mask(__limited, __allowed) == 0 {
                        return ::core::result::Result::Err(#core::Stop::Invalid);
                    }
                    // An option whose part cannot be made (or whose value fails a check) ends the
                    // attempt: the pick is made again.
                    #core::combinators::retrying_dead_ends(
                        __src,
                        #core::combinators::DEFAULT_RETRIES,
                        |__src: &mut __A| {
                            let __c = __ARMS.choose_among(__src, __limited, __allowed)?;
                            let __r = (|| -> ::core::result::Result<#value_ty, #core::Stop> {
                                match __c {
                                    #run_arms
                                    _ => ::core::result::Result::Err(#core::Stop::Rejected),
                                }
                            })();
                            #core::gen::Answerer::leave(__src);
                            __r
                        },
                    )
                }

                #[doc(hidden)]
                #[allow(unused_variables, unused_parens, unreachable_patterns, unused_labels, non_snake_case, clippy::all)]
                #vis fn __back(#value: &#value_ty, #params) -> ::std::vec::Vec<#core::Way> {
                    let __frame = #core::__private::Frame::enter();
                    if __frame.too_deep() { return ::std::vec::Vec::new(); }
                    let __limited = __frame.at_limit(#depth);
                    #allowed
                    let mut __all = ::std::vec::Vec::new();
                    match #scrutinee {
                        #(#back_arms)*
                        _ => {}
                    }
                    __all
                }
            }

            impl #core::Gen for #name {
                type Value = #value_ty;

                fn run(&self, __src: &mut dyn #core::Source) -> ::core::result::Result<#value_ty, #core::Stop> {
                    let (#(#arg_names,)*) = ::core::clone::Clone::clone(&self.args);
                    Self::__forward(__src, #(#arg_names),*)
                }

                fn run_rng(&self, __rng: &mut #core::DetRng) -> ::core::result::Result<#value_ty, #core::Stop> {
                    let (#(#arg_names,)*) = ::core::clone::Clone::clone(&self.args);
                    Self::__forward(__rng, #(#arg_names),*)
                }

                fn back(&self, __target: &#value_ty) -> ::std::vec::Vec<#core::Way> {
                    let (#(#arg_names,)*) = ::core::clone::Clone::clone(&self.args);
                    Self::__back(__target, #(#arg_names),*)
                }
            }

            #top
        };
    )
}

/// Whether `c` is the call that makes a part in `plan` (backward, its ways check it).
fn is_rec_call(c: &Expr, plan: &Plan, pred: &Pred, parts: &[super::model::PartB]) -> bool {
    let text = |es: &[Expr]| es.iter().map(|e| e.to_token_stream().to_string()).collect::<Vec<_>>();
    pred.recursive_call(c, parts).is_some_and(
        |(i, callee, args)| matches!(&plan.makes[i], Make::Rec(k, a) if *k == callee && text(a) == text(&args)),
    )
}

/// A closure taking part `part` from a value of the predicate's type (by the arm's pattern, every
/// binding by reference): never called, it gives the compiler the part's type.
pub(super) fn projection(pred: &Pred, pat: &Pat, part: &Ident) -> TokenStream {
    let value_ty = &pred.value_ty;
    let pat = by_reference(pat);
    quote!(
        #[allow(unused_variables, unreachable_patterns)]
        |__t: &#value_ty| match __t { #pat => ::core::option::Option::Some(#part), _ => ::core::option::Option::None }
    )
}

/// `pat` to match a reference in the default binding mode: no `&` at the top, no `ref` or `mut`.
fn by_reference(pat: &Pat) -> Pat {
    let mut p = match pat {
        Pat::Reference(r) => (*r.pat).clone(),
        other => other.clone(),
    };
    strip_modes(&mut p);
    p
}

fn strip_modes(p: &mut Pat) {
    match p {
        Pat::Ident(i) => {
            i.by_ref = None;
            i.mutability = None;
        }
        Pat::TupleStruct(ts) => ts.elems.iter_mut().for_each(strip_modes),
        Pat::Tuple(t) => t.elems.iter_mut().for_each(strip_modes),
        Pat::Struct(s) => s.fields.iter_mut().for_each(|f| strip_modes(&mut f.pat)),
        Pat::Paren(pp) => strip_modes(&mut pp.pat),
        _ => {}
    }
}

/// `let part = __v;` in a check's closure (`__v` a reference to the value tried), the part bound
/// as the predicate binds it: by reference, or a copy.
fn bind_checked(p: &super::model::PartB) -> TokenStream {
    let name = &p.name;
    if p.by_ref {
        quote!(let #name = __v;)
    } else {
        quote!(let #name = ::core::clone::Clone::clone(__v);)
    }
}

/// `(&&ranged(project))`: the receiver whose methods, chosen by the part's type, make an ordered
/// part within its bounds (see `refgen_core`'s `Ranged`).
pub(super) fn ranged_of(pred: &Pred, pat: &Pat, part: &Ident) -> TokenStream {
    let core = core_path();
    let project = projection(pred, pat, part);
    quote!((&&#core::__private::ranged(#project)))
}

/// `([(low, strict), ...], [(high, strict), ...])`: an ordered part's bounds (a bound that is
/// another part bound by reference read through the reference).
pub(super) fn bounds_of(lo: &[(Expr, bool)], hi: &[(Expr, bool)], parts: &[super::model::PartB]) -> TokenStream {
    let b = |(e, strict): &(Expr, bool)| {
        let by_ref = matches!(e, Expr::Path(p) if parts.iter().any(|q| q.by_ref && p.path.is_ident(&q.name)));
        if by_ref {
            quote!((::core::clone::Clone::clone(#e), #strict))
        } else {
            quote!((#e, #strict))
        }
    };
    let (lows, highs) = (lo.iter().map(b), hi.iter().map(b));
    quote!(([#(#lows),*], [#(#highs),*]))
}

/// How a value of an integer part's range becomes the part: as it is, or converted back from the
/// type the predicate compares it in.
fn convert_of(converted: bool) -> TokenStream {
    let core = core_path();
    if converted {
        quote!(#core::__private::converted)
    } else {
        quote!(|__w| ::core::result::Result::<_, #core::Stop>::Ok(__w))
    }
}

/// `span([lows], [highs])`: the range an integer part's bounds leave (a bound that is another
/// part bound by reference, `lo <= hi`, read through the reference).
pub(super) fn span_of(lo: &[(Expr, bool)], hi: &[(Expr, bool)], parts: &[super::model::PartB]) -> TokenStream {
    let core = core_path();
    let b = |(e, strict): &(Expr, bool), strict_fn: TokenStream| {
        let by_ref = matches!(e, Expr::Path(p) if parts.iter().any(|q| q.by_ref && p.path.is_ident(&q.name)));
        let e = if by_ref { quote!(*#e) } else { quote!(#e) };
        if *strict {
            quote!(#core::__private::#strict_fn(#e))
        } else {
            quote!(::core::option::Option::Some(#e))
        }
    };
    let lows = lo.iter().map(|x| b(x, quote!(above)));
    let highs = hi.iter().map(|x| b(x, quote!(below)));
    quote!(#core::__private::span([#(#lows),*], [#(#highs),*]))
}

/// The value an arm's pattern describes, each part from what made it.
fn build_expr(pat: &Pat, makes: &[Make], parts: &[super::model::PartB]) -> TokenStream {
    let core = core_path();
    let part = |name: &Ident| -> TokenStream {
        let i = parts.iter().position(|p| p.name == *name).expect("a part");
        let local = format_ident!("__v_{}", name);
        match makes[i] {
            Make::Rec(..) => quote!(#core::__private::into_part(#local)),
            _ => quote!(#local),
        }
    };
    match pat {
        Pat::Ident(i) if parts.iter().any(|p| p.name == i.ident) => part(&i.ident),
        Pat::Ident(i) => i.ident.to_token_stream(),
        Pat::Path(p) => p.to_token_stream(),
        Pat::Lit(l) => l.to_token_stream(),
        Pat::Paren(p) => build_expr(&p.pat, makes, parts),
        Pat::Reference(r) => build_expr(&r.pat, makes, parts),
        Pat::Tuple(t) => {
            let es = t.elems.iter().map(|e| build_expr(e, makes, parts));
            quote!((#(#es,)*))
        }
        Pat::TupleStruct(ts) => {
            let path = &ts.path;
            let es = ts.elems.iter().map(|e| build_expr(e, makes, parts));
            quote!(#path(#(#es),*))
        }
        Pat::Struct(s) => {
            let path = &s.path;
            let fs = s.fields.iter().map(|f| {
                let m = &f.member;
                let e = build_expr(&f.pat, makes, parts);
                quote!(#m: #e)
            });
            quote!(#path { #(#fs),* })
        }
        other => other.to_token_stream(),
    }
}
