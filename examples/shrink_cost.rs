//! The cost of one shrink try, in the shrinker and lenient replay alone (no runner).
//!
//! Run with `cargo run --release --example shrink_cost`. For each problem
//! and 100 seeds, a failing case is generated and shrunk with a budget of
//! 4,096 tries, each try a lenient replay of the candidate that records
//! the choices it makes, and the property. Two ways of calling the shrinker:
//!
//! - `mode=owned`: [`shrink`], each candidate handed over as a tree of its
//!   own, and the tree of the choices used built for every try (what the
//!   property runner does today);
//! - `mode=lent`: [`shrink_by_ref`], each candidate lent, the replay
//!   recorded into one trail kept from try to try, and the tree of the
//!   choices used built only for a candidate that fails.
//!
//! Both make the same search (the example checks that they end at the same
//! tree after the same number of tries); only the time differs. A line gives
//! the mean number of tries and the mean time per try; `shrink_quality`
//! gives the whole shrink, through the runner, beside proptest's.
//! `ONLY=<problem>` runs one problem.

use reflect::choice::ChoiceTree;
use reflect::combinators::{any_int, int, vec};
use reflect::interpret::{generate_recorded, lenient_source};
use reflect::prelude::*;
use reflect::reflect_core::trail::{Recorder, Trail};
use reflect::reflect_runtime::shrink::{shrink, shrink_by_ref, Budget, ShrinkStats};
use std::time::{Duration, Instant};

const RUNS: u64 = 100;
const BUDGET: Budget = Budget { max_steps: 4096, max_time: Duration::from_secs(600) };

/// Shrinks `tree`, each candidate handed over and its used tree always built.
/// (Both modes are kept out of line, so a profiler can tell them apart.)
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
    let mut kept = Some(Trail::new());
    shrink_by_ref(tree, BUDGET, |cand| {
        let mut trail = kept.take().expect("the trail is put back after each try");
        trail.clear();
        let mut rec = Recorder { inner: lenient_source(cand, 0), trail };
        let r = g.run(&mut rec);
        let fails = r.ok().is_some_and(|v| !prop(v));
        let used = fails.then(|| rec.trail.to_tree());
        kept = Some(rec.trail);
        used
    })
}

type Shrink<V> = fn(&BoxGen<V>, fn(V) -> bool, ChoiceTree) -> (ChoiceTree, ShrinkStats);

/// The first failing case of each of [`RUNS`] seeds, shrunk by both modes.
fn problem<V>(name: &str, g: BoxGen<V>, prop: fn(V) -> bool) {
    if std::env::var("ONLY").is_ok_and(|only| !name.starts_with(&only)) {
        return;
    }
    let starts: Vec<ChoiceTree> = (0..RUNS)
        .filter_map(|run| {
            (0..100_000u64).find_map(|i| {
                let (v, tree) = generate_recorded(&g, run * 100_000 + i);
                v.ok().is_some_and(|v| !prop(v)).then_some(tree)
            })
        })
        .collect();
    let mut ends: Vec<Vec<(ChoiceTree, u64)>> = Vec::new();
    for (mode, f) in [("owned", owned as Shrink<V>), ("lent", lent as Shrink<V>)] {
        let (mut tries, mut time, mut end) = (0, Duration::ZERO, Vec::new());
        for start in &starts {
            let t0 = Instant::now();
            let (t, stats) = f(&g, prop, start.clone());
            time += t0.elapsed();
            tries += stats.attempts;
            end.push((t, stats.attempts));
        }
        let n = starts.len().max(1) as f64;
        println!(
            "problem={name} mode={mode} runs={} mean_tries={:.1} us_per_try={:.3}",
            starts.len(),
            tries as f64 / n,
            time.as_secs_f64() * 1e6 / tries.max(1) as f64
        );
        ends.push(end);
    }
    assert!(ends[0] == ends[1], "{name}: lending a candidate changed the search");
}

fn main() {
    problem("reverse", vec(any_int::<i32>(), 0..=20).boxed(), |xs| xs.iter().rev().eq(xs.iter()));
    problem("difference_one_1000", (int(1u32..=1000), int(1u32..=1000)).boxed(), |(x, y)| x < 10 || x.abs_diff(y) != 1);
    problem("large_union_list", vec(vec(any_int::<i32>(), 0..=10), 0..=10).boxed(), |xss| {
        xss.iter().flatten().collect::<std::collections::HashSet<_>>().len() <= 4
    });
    problem("nested_lists", vec(vec(any_int::<i32>(), 0..=20), 0..=10).boxed(), |xss| {
        xss.iter().map(Vec::len).sum::<usize>() <= 10
    });
}
