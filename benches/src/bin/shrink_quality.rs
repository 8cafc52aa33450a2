//! Shrinking quality on the well-known shrinking challenges (github.com/jlink/shrinking-challenge).
//!
//! Run with `cargo run --release -p refgen-benches --bin shrink_quality`. For each problem
//! and each of 100 seeds, the runner finds a failing case and shrinks it by
//! reflection (`lib=reflect`), and proptest does the same with its own
//! shrinker on the same property (`lib=proptest`), both with a budget of
//! 4,096 shrink tries. A line gives the mean size of the shrunk
//! counterexamples, how many were the minimal one, the mean number of
//! shrink tries and the mean time shrinking took, in µs to three decimals
//! (proptest shrinks a pair of integers in a few tenths of a µs; the time
//! per try is `mean_shrink_us / mean_tries`). Every run is deterministic (seeded); only
//! the times vary. `SHOW=1` prints a few counterexamples that are not minimal.
//!
//! - **reverse**: lists of integers; property `reverse(xs) == xs`; minimal `[0, 1]`.
//! - **calculator**: expressions over `Lit | Add | Div` with literals in
//!   `-10..=10`; the validity condition is "no division by a literal zero";
//!   property "evaluation does not divide by zero"; minimal size 5, e.g.
//!   `Div(Lit(0), Add(Lit(0), Lit(0)))`.
//! - **bound5**: five lists of `i16`, each (validity condition) summing to
//!   less than 256 with wrapping arithmetic; property "the wrapping sum of all
//!   is less than 5 * 256"; minimal: two elements, e.g. `([-32768], [-1], [], [], [])`.
//! - **large union list**: lists of lists of `i32`; property "at most four
//!   distinct integers"; minimal one list of five elements of `0, ±1, ±2`.
//! - **length list**: a length `n` in `1..=100`, then (bind) `n` integers in
//!   `0..=1000`; property "the maximum is below 900"; minimal `[900]`.
//! - **difference_zero / one / small** (on `1..=1000` and `1..=10_000`): two
//!   integers `x, y`; property "`x < 10` or the difference is not zero" (not
//!   one; more than 4 or zero); minimal `(10, 10)` (`(10, 9)`, `(10, 6)`).
//!   The two values must shrink together. (On a full-width range random
//!   generation almost never makes a failing pair, in either library.)
//! - **overflow**: two `u8`s; property `x.wrapping_add(y) >= x`; minimal
//!   `(1, 255)`: `x` lowered while `y` grows.
//! - **coupling**: a length `n` in `1..=10`, then `n` indices below `n`;
//!   property "no two-cycle: `xs[xs[i]] == i` only where `xs[i] == i`";
//!   minimal `[1, 0]`.
//! - **binary_heap**: heaps (`Empty | Node(key, left, right)`, keys in
//!   `0..=9`, the heap order as validity condition, depth at most 3, the
//!   bottom level `just(Empty)`); property "the pre-order list is sorted" (a
//!   to-sorted-list that forgets to merge); minimal `Node(0, Node(1), Node(0))`.
//! - **deletion**: a non-empty list of integers in `-100..=100` and an index; removing the first
//!   occurrence of the element at the index leaves none; minimal list `[0, 0]`.
//! - **distinct**: lists of `i32`; property "fewer than 3 distinct
//!   elements"; minimal three elements of absolute values `0, 1, 1` or `0, 1, 2`.
//! - **nested_lists**: lists (at most 10) of lists (at most 20) of `i32`; property "at most 10
//!   elements in all"; minimal one list of 11 zeros.
//!
//! proptest prints a note on standard error each time its budget of
//! shrink tries runs out (`coupling`); the table is on standard output.
//!
//! Integers are the library's own: their choices count outward from zero
//! (choice 0 is 0, then 1, -1, 2, -2, ...), so smaller choices are smaller
//! in absolute value.

use proptest::prelude::{any, prop_oneof, Just as PJust, Strategy};
use proptest::test_runner::{Config as PConfig, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};
use refgen::prelude::*;
use refgen::runner::RunError;
use std::cell::Cell;
use std::time::{Duration, Instant};

const RUNS: u64 = 100;
/// The shrink budget of both libraries: candidates tried.
const TRIES: u64 = 4096;

use refgen_fixtures::shrink_problems::*;

type PairProp = fn(Pair) -> bool;
type PairGen = fn() -> BoxGen<Pair>;

fn pt_list<T: std::fmt::Debug>(
    elem: impl Strategy<Value = T>,
    len: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = Vec<T>> {
    proptest::collection::vec(elem, len)
}

fn pt_expr() -> impl Strategy<Value = Expr> {
    let lit = (-10i64..=10).prop_map(Expr::Lit);
    lit.prop_recursive(5, 32, 2, |sub| {
        prop_oneof![
            (sub.clone(), sub.clone()).prop_map(|(a, b)| Expr::Add(Box::new(a), Box::new(b))),
            (sub.clone(), sub).prop_map(|(a, b)| Expr::Div(Box::new(a), Box::new(b))),
        ]
    })
    .prop_filter("no division by a literal zero", |e| !e.divides_by_literal_zero())
}

fn pt_bound5() -> impl Strategy<Value = Five> {
    let list = || pt_list(any::<i16>(), 0..=10).prop_filter("sum below 256", |xs| wrapping_sum(xs) < 256);
    (list(), list(), list(), list(), list())
}

fn pt_heap() -> impl Strategy<Value = Heap> {
    PJust(Heap::Empty)
        .prop_recursive(3, 16, 2, |sub| {
            prop_oneof![1 => PJust(Heap::Empty), 3 => (0u32..=9, sub.clone(), sub).prop_map(|(k, l, r)| Heap::node(k, l, r))]
        })
        .prop_filter("heap order", Heap::ordered)
}

/// One shrunk counterexample, with what shrinking it cost.
struct Found<V> {
    value: V,
    tries: u64,
    shrink: Duration,
}

/// Runs `prop` on `gen` with seeds `0..RUNS` in this library; the shrunk values.
fn run_reflect<V>(name: &str, cases: u64, gen: fn() -> BoxGen<V>, prop: fn(V) -> bool) -> Vec<Found<V>>
where
    V: std::fmt::Debug + 'static,
{
    let property = Property::new(gen, prop);
    (0..RUNS)
        .filter_map(|seed| {
            let c = Config::new(name)
                .seed(seed)
                .cases(cases)
                .no_timeout()
                .max_discard_ratio(1000)
                .max_shrink_steps(TRIES)
                .max_shrink_time(Duration::from_secs(600));
            match property.check(&c) {
                Err(RunError::Failed(f)) => Some(Found {
                    value: property.value_of(&f).expect("the shrunk choices make a value"),
                    tries: f.shrink.attempts,
                    shrink: f.shrink.elapsed,
                }),
                Ok(_) => None,
                Err(e) => panic!("{name}: {e}"),
            }
        })
        .collect()
}

/// Runs `prop` on `strategy` with seeds `0..RUNS` in proptest, its default
/// shrinker with the same budget of tries; the shrunk values.
fn run_proptest<S>(cases: u64, strategy: impl Fn() -> S, prop: fn(S::Value) -> bool) -> Vec<Found<S::Value>>
where
    S: Strategy,
{
    (0..RUNS)
        .filter_map(|seed| {
            let config = PConfig {
                cases: cases as u32,
                max_shrink_iters: TRIES as u32,
                max_global_rejects: u32::MAX,
                max_local_rejects: u32::MAX,
                failure_persistence: None,
                ..PConfig::default()
            };
            let mut bytes = [0u8; 32];
            bytes[..8].copy_from_slice(&seed.to_le_bytes());
            let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes));
            // Calls of the test after the first failure are shrink tries.
            let calls = Cell::new(0u64);
            let first: Cell<Option<(u64, Instant)>> = Cell::new(None);
            let result = runner.run(&strategy(), |v| {
                calls.set(calls.get() + 1);
                if prop(v) {
                    Ok(())
                } else {
                    if first.get().is_none() {
                        first.set(Some((calls.get(), Instant::now())));
                    }
                    Err(TestCaseError::fail("fails"))
                }
            });
            let end = Instant::now();
            match result {
                Err(TestError::Fail(_, value)) => {
                    let (at, began) = first.get().expect("a failure was seen");
                    Some(Found { value, tries: calls.get() - at, shrink: end - began })
                }
                Ok(()) => None,
                Err(e) => panic!("proptest: {e}"),
            }
        })
        .collect()
}

fn line<V: std::fmt::Debug>(
    name: &str,
    lib: &str,
    found: &[Found<V>],
    size: impl Fn(&V) -> usize,
    minimal: impl Fn(&V) -> bool,
) {
    let n = found.len().max(1) as f64;
    let mean = found.iter().map(|f| size(&f.value)).sum::<usize>() as f64 / n;
    let k = found.iter().filter(|f| minimal(&f.value)).count();
    let tries = found.iter().map(|f| f.tries).sum::<u64>() as f64 / n;
    let us = found.iter().map(|f| f.shrink.as_secs_f64() * 1e6).sum::<f64>() / n;
    if std::env::var_os("SHOW").is_some() {
        for f in found.iter().filter(|f| !minimal(&f.value)).take(4) {
            eprintln!("  {lib} not minimal: {:?}", f.value);
        }
    }
    println!(
        "problem={name} lib={lib} runs={} mean_size={mean:.2} minimal_found={k}/{} mean_tries={tries:.1} mean_shrink_us={us:.3}",
        found.len(),
        found.len()
    );
}

/// One problem in both libraries: `cases` cases at most per run.
#[allow(clippy::too_many_arguments)]
fn problem<V, S>(
    name: &str,
    cases: u64,
    gen: fn() -> BoxGen<V>,
    strategy: impl Fn() -> S,
    prop: fn(V) -> bool,
    size: impl Fn(&V) -> usize,
    minimal: impl Fn(&V) -> bool,
) where
    V: std::fmt::Debug + 'static,
    S: Strategy<Value = V>,
{
    if std::env::var("ONLY").is_ok_and(|only| !name.starts_with(&only)) {
        return;
    }
    line(name, "reflect", &run_reflect(name, cases, gen, prop), &size, &minimal);
    line(name, "proptest", &run_proptest(cases, strategy, prop), &size, &minimal);
}

fn main() {
    let start = Instant::now();

    problem(
        "reverse",
        10_000,
        || int_list(20),
        || pt_list(any::<i32>(), 0..=20),
        palindrome,
        Vec::len,
        |xs| xs == &[0, 1] || xs == &[1, 0],
    );
    problem("calculator", 10_000, expr_gen, pt_expr, |e| e.eval().is_ok(), Expr::size, |e| e.size() == 5);
    let elems = |t: &Five| t.0.len() + t.1.len() + t.2.len() + t.3.len() + t.4.len();
    problem("bound5", 10_000, bound5_gen, pt_bound5, bounded, elems, |t| elems(t) == 2);
    let total = |xss: &Vec<Vec<i32>>| xss.iter().map(Vec::len).sum::<usize>();
    problem(
        "large_union_list",
        10_000,
        || int_lists(10, 10),
        || pt_list(pt_list(any::<i32>(), 0..=10), 0..=10),
        small_union,
        total,
        |xss| xss.len() == 1 && xss[0].len() == 5 && xss[0].iter().all(|x| x.abs() <= 2),
    );
    problem(
        "length_list",
        10_000,
        length_list_gen,
        || (1usize..=100).prop_flat_map(|n| pt_list(0u32..=1000, n..=n)),
        below_900,
        Vec::len,
        |xs| xs == &[900],
    );

    let pair_size = |p: &(u32, u32)| (p.0 + p.1) as usize;
    let differences: [(&str, PairProp, Pair); 3] = [
        ("difference_zero", difference_not_zero, (10, 10)),
        ("difference_one", difference_not_one, (10, 9)),
        ("difference_small", difference_not_small, (10, 6)),
    ];
    let ranges: [(u32, PairGen); 2] = [(1000, || difference_gen(1000)), (10_000, || difference_gen(10_000))];
    for (name, prop, min) in differences {
        for (hi, gen) in ranges {
            let name = format!("{name}_{hi}");
            problem(&name, 1_000_000, gen, || (1u32..=hi, 1u32..=hi), prop, pair_size, |p| *p == min);
        }
    }
    problem(
        "overflow",
        10_000,
        byte_pair,
        || (any::<u8>(), any::<u8>()),
        no_overflow,
        |p| p.0 as usize + p.1 as usize,
        |p| *p == (1, 255),
    );
    problem(
        "coupling",
        10_000,
        coupling_gen,
        || (1usize..=10).prop_flat_map(|n| pt_list(0..n, n..=n)),
        coupled,
        Vec::len,
        |xs| xs == &[1, 0],
    );
    problem("binary_heap", 100_000, heap_gen, pt_heap, heap_sorts, Heap::size, |h| {
        *h == Heap::node(0, Heap::node(1, Heap::Empty, Heap::Empty), Heap::node(0, Heap::Empty, Heap::Empty))
    });
    problem(
        "deletion",
        10_000,
        deletion_gen,
        || (pt_list(-100i32..=100, 1..=10), 0usize..=9),
        deletes,
        |p| p.0.len(),
        |p| p.0 == [0, 0],
    );
    problem(
        "distinct",
        10_000,
        || int_list(10),
        || pt_list(any::<i32>(), 0..=10),
        few_distinct,
        Vec::len,
        |xs| {
            let mut abs: Vec<u32> = xs.iter().map(|x| x.unsigned_abs()).collect();
            abs.sort();
            abs == [0, 1, 1] || abs == [0, 1, 2]
        },
    );
    problem(
        "nested_lists",
        10_000,
        || int_lists(20, 10),
        || pt_list(pt_list(any::<i32>(), 0..=20), 0..=10),
        short_in_all,
        |xss| xss.iter().map(Vec::len).sum::<usize>(),
        |xss| xss.len() == 1 && xss[0] == [0; 11],
    );

    eprintln!("({:.1} s)", start.elapsed().as_secs_f64());
}
