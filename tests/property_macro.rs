//! `#[property]` on passing properties: every argument form, return type and option.

use reflect::combinators::int;
use reflect::prelude::*;
use reflect::reflect_core::Stop;
mod common;
use common::fixtures::{is_bst, ref_bst, Tree};
use reflect::reflect_core::DetRng;
use reflect::reflect_runtime::guide::{ChoiceContext, Guide};

#[property(cases = 100)]
fn reverse_twice_is_identity(xs: Vec<u8>) {
    let mut ys = xs.clone();
    ys.reverse();
    ys.reverse();
    assert_eq!(xs, ys);
}

#[property]
fn addition_commutes(a: u16, b: u16) -> bool {
    a.wrapping_add(b) == b.wrapping_add(a)
}

#[property(seed = 7, cases = 50)]
fn results_are_outcomes(s: String) -> Result<(), String> {
    if s.chars().count() <= 8 {
        Ok(())
    } else {
        Err(format!("too long: {s:?}"))
    }
}

#[property(cases = 200, guide = random)]
fn explicit_generators(#[gen(ref_bst(0, 20))] t: Tree, #[gen(int(0i64..=20))] x: i64) {
    assert!(is_bst(&t));
    assert!((0..=20).contains(&x));
}

#[property(cases = 100, max_discard_ratio = 10)]
fn assume_discards(a: u8, b: u8) {
    assume!(b != 0);
    assert_eq!(a / b * b + a % b, a);
}

/// A guide that always takes the first option: every value is the smallest.
struct FirstOption;

impl Guide for FirstOption {
    fn name(&self) -> &str {
        "FirstOption"
    }
    fn choose(&mut self, _ctx: &ChoiceContext<'_>, _rng: &mut DetRng) -> Result<u64, Stop> {
        Ok(0)
    }
}

#[property(cases = 20, guide = FirstOption)]
fn a_guide_expression_steers(xs: Vec<u32>) {
    assert!(xs.is_empty(), "the first option of the length is 0");
}

#[property(cases = 50, guide = rl)]
fn the_rl_shorthand(t: (bool, u8)) {
    let _ = t;
}

#[property(cases = 50, guide = rl(explore = diverse, window = 3))]
fn rl_with_exploration_options(t: (bool, u8)) {
    let _ = t;
}

#[property(cases = 50, guide = rl(explore = forget, epsilon = 0.1, abstraction = Sequence))]
fn rl_with_a_scheme_and_an_abstraction(t: (bool, u8)) {
    let _ = t;
}

#[property(cases = 30, example = (vec![1, 2, 3], 9), example = (vec![], 0), stats, regressions = false)]
fn examples_and_labels(xs: Vec<u8>, n: u8) {
    label!(if xs.is_empty() { "empty" } else { "non-empty" });
    classify!(n == 0, "n is zero");
    target!(xs.len());
    assert!(xs.len() <= 8);
}

#[property(timeout_ms = 5000, shrink_steps = 10, shrink_time_ms = 1000)]
fn time_options(x: Option<i32>) {
    let _ = x;
}

#[property(timeout_ms = 0)]
fn no_time_limit_by_zero(x: u8) {
    let _ = x;
}

std::thread_local! {
    static BUDGETED_CASES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

// Inline (no time limit per case), so the cases run on the calling thread and can be counted there.
#[property(max_time_ms = 200, timeout = none)]
fn searches_for_its_time_budget(x: u8) {
    let _ = x;
    BUDGETED_CASES.with(|c| c.set(c.get() + 1));
    std::thread::sleep(std::time::Duration::from_micros(100));
}

/// `max_time_ms` without `cases` searches until the budget is spent, past the default 256 cases.
#[test]
fn a_time_budget_without_cases_runs_more_than_the_default_cases() {
    let t0 = std::time::Instant::now();
    searches_for_its_time_budget();
    assert!(t0.elapsed() >= std::time::Duration::from_millis(200));
    let ran = BUDGETED_CASES.with(|c| c.get());
    assert!(ran > reflect::config::DEFAULT_CASES, "{ran} cases");
}
