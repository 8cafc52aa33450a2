//! The cost of one shrink try, in the shrinker and lenient replay alone (no runner).
//!
//! Run with `cargo run --release -p refgen-benches --bin shrink_cost`. For each problem
//! of `shrink_quality` and 100 seeds, a failing case is generated and shrunk
//! with a budget of 4,096 tries, each try a lenient replay of the candidate
//! that records the choices it makes, and the property. Four lines per
//! problem:
//!
//! - `mode=owned`: [`shrink`], each candidate handed over as a tree of its
//!   own, and the tree of the choices used built for every try;
//! - `mode=lent`: [`shrink_by_ref`], each candidate lent, the replay
//!   recorded into one trail kept from try to try, and the tree of the
//!   choices used built only for a candidate that fails (what the property
//!   runner does);
//! - `mode=search`: the shrinker alone: the same search again, each try
//!   answered from a record of the `lent` search's answers instead of a
//!   replay, so `us_per_try` is what the shrinker itself spends on a try
//!   (making the candidate, hashing it, keeping a smaller one), besides a
//!   copy of the recorded tree for a try that fails (where a replay builds
//!   the tree of the choices it used);
//! - `mode=fixed`: what a shrink costs before and around its tries: the
//!   mean time of a shrink with a budget of no tries (`us_per_shrink`).
//!
//! All modes make the same search (the example checks that they end at the
//! same tree after the same number of tries); only the time differs. A line
//! gives the mean number of tries and the mean time per try (the whole
//! shrink's time over its tries, so the fixed cost is spread over them);
//! `shrink_quality` gives the whole shrink, through the runner, beside
//! proptest's. Each start is shrunk 5 times in each mode and the fastest
//! counts (the machine's other work only ever adds time); `REPEAT=<n>`
//! shrinks it `n` times instead (many, for a profiler). `ONLY=<problem>`
//! runs the problems whose names begin so.

use refgen::choice::ChoiceTree;
use refgen::interpret::{generate_recorded, lenient_source};
use refgen::prelude::*;
use refgen::refgen_core::trail::{Recorder, Trail};
use refgen::refgen_runtime::shrink::{shrink, shrink_by_ref, Budget, ShrinkStats};
use refgen_fixtures::shrink_problems::*;
use std::time::{Duration, Instant};

const RUNS: u64 = 100;
const BUDGET: Budget = Budget { max_steps: 4096, max_time: Duration::from_secs(600) };

/// Shrinks `tree`, each candidate handed over and its used tree always built.
/// (The modes are kept out of line, so a profiler can tell them apart.)
#[inline(never)]
fn owned<V>(g: &BoxGen<V>, prop: fn(V) -> bool, tree: ChoiceTree) -> (ChoiceTree, ShrinkStats) {
    shrink(tree, BUDGET, |cand| {
        let mut rec = Recorder::new(lenient_source(&cand, 0));
        let r = g.run(&mut rec);
        let used = rec.trail.to_tree();
        r.ok().is_some_and(|v| !prop(v)).then_some(used)
    })
}

/// Shrinks `tree`, each candidate lent, recorded into one kept trail, its
/// used tree built only when it fails.
#[inline(never)]
fn lent<V>(g: &BoxGen<V>, prop: fn(V) -> bool, tree: ChoiceTree) -> (ChoiceTree, ShrinkStats) {
    lent_recorded(g, prop, tree, None)
}

/// The search of [`lent`], every answer also put into `answers` when given
/// (kept apart, so a profiler counts [`lent`] alone).
#[inline(never)]
fn lent_recorded<V>(
    g: &BoxGen<V>,
    prop: fn(V) -> bool,
    tree: ChoiceTree,
    mut answers: Option<&mut Vec<Option<ChoiceTree>>>,
) -> (ChoiceTree, ShrinkStats) {
    let mut kept = Some(Trail::new());
    shrink_by_ref(tree, BUDGET, |cand| {
        let mut trail = kept.take().expect("the trail is put back after each try");
        trail.clear();
        let mut rec = Recorder { inner: lenient_source(cand, 0), trail };
        let r = g.run(&mut rec);
        let fails = r.ok().is_some_and(|v| !prop(v));
        let used = fails.then(|| rec.trail.to_tree());
        kept = Some(rec.trail);
        if let Some(a) = answers.as_deref_mut() {
            a.push(used.clone());
        }
        used
    })
}

/// The search of [`lent`] again, each try answered from `answers`: the shrinker's own cost.
#[inline(never)]
fn search(tree: ChoiceTree, answers: &[Option<ChoiceTree>]) -> (ChoiceTree, ShrinkStats) {
    let mut next = answers.iter();
    shrink_by_ref(tree, BUDGET, |_| next.next().expect("the same search makes the same tries").clone())
}

/// A shrink with a budget of no tries: the shrinker's fixed cost.
#[inline(never)]
fn fixed(tree: ChoiceTree) -> (ChoiceTree, ShrinkStats) {
    shrink_by_ref(tree, Budget { max_steps: 0, ..BUDGET }, |_| unreachable!("a budget of no tries"))
}

fn repeat() -> usize {
    std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).filter(|&r| r > 0).unwrap_or(5)
}

/// The first failing case of each of [`RUNS`] seeds, shrunk in every mode.
fn problem<V>(name: &str, g: BoxGen<V>, prop: fn(V) -> bool) {
    if std::env::var("ONLY").is_ok_and(|only| !name.starts_with(&only)) {
        return;
    }
    let starts: Vec<ChoiceTree> = (0..RUNS)
        .filter_map(|run| {
            (0..1_000_000u64).find_map(|i| {
                let (v, tree) = generate_recorded(&g, run * 1_000_000 + i);
                v.ok().is_some_and(|v| !prop(v)).then_some(tree)
            })
        })
        .collect();
    let n = starts.len().max(1) as f64;
    let line = |mode: &str, tries: u64, time: Duration| {
        println!(
            "problem={name} mode={mode} runs={} mean_tries={:.1} us_per_try={:.3}",
            starts.len(),
            tries as f64 / n,
            time.as_secs_f64() * 1e6 / tries.max(1) as f64
        );
    };
    let timed = |f: &mut dyn FnMut(usize, ChoiceTree) -> (ChoiceTree, ShrinkStats)| {
        let (mut tries, mut time, mut ends) = (0, Duration::ZERO, Vec::new());
        for (i, start) in starts.iter().enumerate() {
            let mut fastest = Duration::MAX;
            for _ in 0..repeat() {
                let start = start.clone();
                let t0 = Instant::now();
                let (end, stats) = f(i, start);
                fastest = fastest.min(t0.elapsed());
                ends.push((end, stats.attempts));
            }
            time += fastest;
            tries += ends.last().map_or(0, |e| e.1);
        }
        (tries, time, ends)
    };
    let (tries, time, owned_ends) = timed(&mut |_, t| owned(&g, prop, t));
    line("owned", tries, time);
    let (tries, time, lent_ends) = timed(&mut |_, t| lent(&g, prop, t));
    line("lent", tries, time);
    // Each start's answers, recorded by one more lent search.
    let records: Vec<Vec<Option<ChoiceTree>>> = starts
        .iter()
        .map(|start| {
            let mut answers = Vec::new();
            lent_recorded(&g, prop, start.clone(), Some(&mut answers));
            answers
        })
        .collect();
    let (tries, time, search_ends) = timed(&mut |i, t| search(t, &records[i]));
    line("search", tries, time);
    assert!(owned_ends == lent_ends, "{name}: lending a candidate changed the search");
    assert!(search_ends == lent_ends, "{name}: answering from the record changed the search");
    let (_, time, _) = timed(&mut |_, t| fixed(t));
    println!("problem={name} mode=fixed runs={} us_per_shrink={:.3}", starts.len(), time.as_secs_f64() * 1e6 / n);
}

fn main() {
    problem("reverse", int_list(20), palindrome);
    problem("calculator", expr_gen(), |e| e.eval().is_ok());
    problem("bound5", bound5_gen(), bounded);
    problem("large_union_list", int_lists(10, 10), small_union);
    problem("length_list", length_list_gen(), below_900);
    problem("difference_zero_1000", difference_gen(1000), difference_not_zero);
    problem("difference_one_1000", difference_gen(1000), difference_not_one);
    problem("difference_small_1000", difference_gen(1000), difference_not_small);
    problem("overflow", byte_pair(), no_overflow);
    problem("coupling", coupling_gen(), coupled);
    problem("binary_heap", heap_gen(), heap_sorts);
    problem("deletion", deletion_gen(), deletes);
    problem("distinct", int_list(10), few_distinct);
    problem("nested_lists", int_lists(20, 10), short_in_all);
}
