//! `#[property]` over a set of pairwise different inputs: the distinct guide's cover set comes first.

use refgen::combinators::int;
use refgen::guides::DistinctGuide;
use refgen::prelude::*;
use refgen::regex::regex;
use std::collections::{BTreeSet, HashSet};
use std::sync::Mutex;

#[derive(Debug, Clone, PartialEq, Reflective)]
enum Shape {
    Dot,
    Line(bool),
    Square(bool, bool),
}

static SEEN: Mutex<Vec<Shape>> = Mutex::new(Vec::new());

// Dot, Line(false/true), Square(4 pairs): 7 pick patterns, tested in the 7 cases.
#[property(cases = 7, guide = DistinctGuide::cover())]
fn every_shape_once(s: Shape) {
    SEEN.lock().unwrap().push(s);
}

#[test]
fn the_cover_set_was_tested() {
    every_shape_once();
    let seen = SEEN.lock().unwrap();
    let distinct: HashSet<String> = seen.iter().map(|s| format!("{s:?}")).collect();
    assert_eq!(distinct.len(), 7, "{seen:?}");
}

// `distinct = N, difference = ...`: the property is checked on a set of N
// pairwise different inputs, with a difference on values.
static FAR: Mutex<Vec<i64>> = Mutex::new(Vec::new());

#[property(distinct = 12, difference = numeric_distance(10, |x: &i64| i128::from(*x)))]
fn integers_far_apart(#[gen(int(0i64..=1000))] x: i64) {
    FAR.lock().unwrap().push(x);
}

#[test]
fn the_far_apart_set_was_tested() {
    integers_far_apart();
    // The run is deterministic: however often it ran, it tested the same 12 values.
    let far: BTreeSet<i64> = FAR.lock().unwrap().iter().copied().collect();
    assert_eq!(far.len(), 12, "{far:?}");
    let far: Vec<i64> = far.into_iter().collect();
    assert!(far.windows(2).all(|w| w[1] - w[0] >= 10), "{far:?}");
}

static LENGTHS: Mutex<Vec<String>> = Mutex::new(Vec::new());

// A bare constructor name is called: `different_lengths` is `different_lengths()`.
#[property(distinct = 10, difference = different_lengths)]
fn every_length(#[gen(regex("[a-z]{0,9}"))] s: String) {
    LENGTHS.lock().unwrap().push(s);
}

#[test]
fn every_length_was_tested() {
    every_length();
    let lengths: BTreeSet<usize> = LENGTHS.lock().unwrap().iter().map(String::len).collect();
    assert_eq!(lengths, (0..=9).collect());
}

static PAIRS: Mutex<Vec<(bool, bool)>> = Mutex::new(Vec::new());

// Without `difference`, the inputs differ by `Debug`: the 4 pairs of two bools, in 4 cases.
#[property(distinct = 4)]
fn every_pair(a: bool, b: bool) {
    PAIRS.lock().unwrap().push((a, b));
}

#[test]
fn every_pair_was_tested() {
    every_pair();
    let pairs: BTreeSet<(bool, bool)> = PAIRS.lock().unwrap().iter().copied().collect();
    assert_eq!(pairs.len(), 4);
}
