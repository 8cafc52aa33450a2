//! The options of `#[property(...)]`, checked, as calls on the run's `Config`.

use super::guide::{parse_guide, GuideExpr};
use crate::errors::Ctxt;
use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Expr, Ident, Lit, Token};

/// One `name` or `name = value` in the attribute.
struct RawOpt {
    name: Ident,
    value: Option<Expr>,
}

impl Parse for RawOpt {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(RawOpt { name, value })
    }
}

const OPTIONS: &str =
    "cases, seed, shrink_steps, shrink_time_ms, timeout_ms, timeout, max_time_ms, max_discard_ratio, max_size, \
                       guide, distinct, difference, example, stats, regressions, report, executor";

/// Where failures are remembered.
pub(super) enum Regressions {
    /// `regressions/` beside `Cargo.toml`.
    Default,
    /// `regressions = false`.
    Off,
    /// `regressions = "dir"`, beside `Cargo.toml`.
    Dir(syn::LitStr),
}

/// `distinct = N` and `difference = EXPR`: the set the property is checked on.
pub(super) struct Distinct {
    pub(super) n: Expr,
    pub(super) difference: Option<Expr>,
}

/// The constructors of `refgen::distinct` that `difference = NAME` calls.
const DIFFERENCES: [&str; 5] = ["cover", "cover_regex", "cover_regex_counts", "not_equal", "different_lengths"];

/// `distinct = N` and `difference = EXPR` (each given at most once, as the
/// option loop checks), knowing which other options were `seen`.
fn parse_distinct(raw: Vec<(Ident, Option<Expr>)>, seen: &[String], errors: &mut Ctxt) -> Option<Distinct> {
    let get = |k: &str| raw.iter().find(|(name, _)| name == k);
    let Some((name, value)) = get("distinct") else {
        if let Some((name, _)) = get("difference") {
            errors
                .error_spanned(name, "`difference` says when the inputs of `distinct = N` differ: add `distinct = N`");
        }
        return None;
    };
    for other in ["cases", "guide"].iter().filter(|k| seen.iter().any(|s| s == *k)) {
        errors.error_spanned(
            name,
            format!("`distinct = N` runs N cases under the distinct guide, so it cannot go with `{other}`: drop one"),
        );
    }
    let n = integer(errors, name, value.clone())?;
    if is_zero(&n) {
        errors.error_spanned(&n, "`distinct = 0` tests no input; write `distinct = 1` or more");
        return None;
    }
    let difference = match get("difference") {
        None => None,
        Some((name, None)) => {
            errors.error_spanned(name, "`difference` needs a value, such as `difference = cover`");
            return None;
        }
        Some((_, Some(Expr::Path(p)))) if p.path.get_ident().is_some_and(|i| DIFFERENCES.iter().any(|d| i == d)) => {
            Some(syn::parse_quote_spanned!(p.span()=> #p()))
        }
        Some((_, Some(e))) => Some(e.clone()),
    };
    Some(Distinct { n, difference })
}

/// The options, checked.
pub(super) struct Options {
    /// `distinct = N` and `difference = EXPR`.
    pub(super) distinct: Option<Distinct>,
    /// The `Config` builder calls of the other options.
    pub(super) calls: Vec<TokenStream>,
    /// `example = EXPR`, in order.
    pub(super) examples: Vec<Expr>,
    /// `regressions = ...`.
    pub(super) regressions: Regressions,
    /// `guide = ...`.
    pub(super) guide: Option<GuideExpr>,
    /// `executor = EXPR`: what runs an async property's futures.
    pub(super) executor: Option<Expr>,
}

fn integer(errors: &mut Ctxt, name: &Ident, value: Option<Expr>) -> Option<Expr> {
    match value {
        None => {
            errors.error_spanned(name, format!("`{name}` needs a value: `{name} = 100`"));
            None
        }
        Some(Expr::Lit(l)) if !matches!(l.lit, Lit::Int(_)) => {
            errors.error_spanned(&l, format!("`{name}` must be a whole number, such as `{name} = 100`"));
            None
        }
        Some(e) => Some(e),
    }
}

/// Whether `e` is the literal `0`.
fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }) if i.base10_parse::<u64>().ok() == Some(0))
}

/// Whether `e` is an integer literal outside `range` (an expression is checked when it runs).
fn out_of(e: &Expr, range: std::ops::RangeInclusive<u64>) -> bool {
    matches!(e, Expr::Lit(syn::ExprLit { lit: Lit::Int(i), .. }) if i.base10_parse::<u64>().is_ok_and(|n| !range.contains(&n)))
}

pub(super) fn parse_options(attr: TokenStream, errors: &mut Ctxt) -> Options {
    let mut opts = Options {
        distinct: None,
        calls: Vec::new(),
        examples: Vec::new(),
        regressions: Regressions::Default,
        guide: None,
        executor: None,
    };
    let mut distinct = Vec::new();
    let raw = match Punctuated::<RawOpt, Token![,]>::parse_terminated.parse2(attr) {
        Ok(r) => r,
        Err(e) => {
            errors.push(syn::Error::new(
                e.span(),
                format!("{e}; options are `name = value` or a flag, separated by commas ({OPTIONS})"),
            ));
            return opts;
        }
    };
    let mut seen: Vec<String> = Vec::new();
    for RawOpt { name, value } in raw {
        let key = name.to_string();
        if key != "example" && seen.contains(&key) {
            errors.error_spanned(&name, format!("`{key}` is given twice"));
            continue;
        }
        seen.push(key.clone());
        match key.as_str() {
            "cases" | "seed" | "shrink_steps" | "max_discard_ratio" | "max_size" => {
                if let Some(e) = integer(errors, &name, value) {
                    if key == "max_size" && out_of(&e, 1..=10_000) {
                        errors.error_spanned(
                            &e,
                            "`max_size` is the largest length of a collection of default length: give 1 to 10_000",
                        );
                        continue;
                    }
                    if key == "cases" && is_zero(&e) {
                        errors.error_spanned(
                            &e,
                            "`cases = 0` runs no case, so the property would pass without testing anything; \
                             write `cases = 1` or more (to skip the test, add `#[ignore]`)",
                        );
                        continue;
                    }
                    let method = match key.as_str() {
                        "shrink_steps" => format_ident!("max_shrink_steps"),
                        _ => name.clone(),
                    };
                    opts.calls.push(quote_spanned!(e.span()=> .#method(#e)));
                }
            }
            "timeout_ms" | "timeout" if seen.iter().filter(|k| k.starts_with("timeout")).count() > 1 => {
                errors.error_spanned(&name, "give `timeout_ms = N` or `timeout = none`, not both");
            }
            "timeout" => match value {
                Some(Expr::Path(p)) if p.path.is_ident("none") => opts.calls.push(quote!(.no_timeout())),
                Some(e) => errors.error_spanned(
                    e,
                    "`timeout` is `none` (no time limit per case); for a limit write `timeout_ms = N`",
                ),
                None => {
                    errors.error_spanned(&name, "`timeout` needs a value: `timeout = none`, or write `timeout_ms = N`")
                }
            },
            "timeout_ms" if value.as_ref().is_some_and(is_zero) => opts.calls.push(quote!(.no_timeout())),
            "max_time_ms" => {
                if let Some(e) = integer(errors, &name, value) {
                    if is_zero(&e) {
                        errors.error_spanned(&e, "`max_time_ms = 0` runs no case; give the run's time budget in ms, such as `max_time_ms = 10_000`");
                        continue;
                    }
                    opts.calls.push(quote_spanned!(e.span()=> .max_time(::std::time::Duration::from_millis(#e))));
                }
            }
            "shrink_time_ms" | "timeout_ms" => {
                if let Some(e) = integer(errors, &name, value) {
                    let method = if key == "timeout_ms" { quote!(case_timeout) } else { quote!(max_shrink_time) };
                    opts.calls.push(quote_spanned!(e.span()=> .#method(::std::time::Duration::from_millis(#e))));
                }
            }
            "stats" => match value {
                None => opts.calls.push(quote!(.statistics(true))),
                Some(v) => errors.error_spanned(v, "`stats` is a flag: write `stats` alone"),
            },
            "guide" => match value {
                None => errors.error_spanned(
                    &name,
                    "`guide` needs a value: a guide of `refgen::guides`, such as `guide = rl` or \
                     `guide = rl(explore = diverse)`, or an expression whose value implements `Guide`",
                ),
                Some(e) => opts.guide = Some(parse_guide(e, errors)),
            },
            "distinct" | "difference" => distinct.push((name, value)),
            "executor" => match value {
                None => errors.error_spanned(
                    &name,
                    "`executor` needs a value: a function that runs a future to its output, such as \
                     `executor = my_runtime::block_on`",
                ),
                Some(e) => opts.executor = Some(e),
            },
            "example" => match value {
                None => errors.error_spanned(&name, "`example` needs a value: `example = (1, vec![2])`"),
                Some(e) => opts.examples.push(e),
            },
            "regressions" => match value {
                Some(Expr::Lit(syn::ExprLit { lit: Lit::Bool(b), .. })) => {
                    opts.regressions = if b.value { Regressions::Default } else { Regressions::Off };
                }
                Some(Expr::Lit(syn::ExprLit { lit: Lit::Str(s), .. })) => opts.regressions = Regressions::Dir(s),
                Some(e) => errors
                    .error_spanned(e, "`regressions` is `false`, `true`, or a directory such as `\"regressions\"`"),
                None => {
                    errors.error_spanned(&name, "`regressions` needs a value: `regressions = false` or a directory")
                }
            },
            "report" => match value {
                Some(Expr::Lit(syn::ExprLit { lit: Lit::Str(d), .. })) => {
                    opts.calls.push(quote!(.report(::core::concat!(::core::env!("CARGO_MANIFEST_DIR"), "/", #d))))
                }
                Some(e) => {
                    errors.error_spanned(e, "`report` is a directory, such as `report = \"target/reflect-report\"`")
                }
                None => errors.error_spanned(&name, "`report` needs a directory: `report = \"target/reflect-report\"`"),
            },
            _ => errors.error_spanned(&name, format!("unknown option `{key}`; the options are {OPTIONS}")),
        }
    }
    // A time budget without a number of cases (nor a distinct set, which gives one) searches for that long.
    if seen.iter().any(|k| k == "max_time_ms") && !seen.iter().any(|k| k == "cases" || k == "distinct") {
        opts.calls.push(quote!(.cases(u64::MAX)));
    }
    opts.distinct = parse_distinct(distinct, &seen, errors);
    opts
}
