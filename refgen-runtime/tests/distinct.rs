//! Sets of pairwise different inputs: every member valid and every pair different, checked here without the search's help.

use refgen_core::prelude::*;
use refgen_runtime::distinct::{
    all_of, cover, cover_regex, cover_regex_counts, differ, different_lengths, distinct, distinct_with, edit_distance,
    enumerate_star, never, not, not_equal, numeric_distance, some_of, Assertion, Difference, DistinctSet, Member,
    Reduce, Stopped,
};
use std::collections::HashSet;
use std::rc::Rc;

/// Every member passes `valid`, every pair passes `different` (an independent
/// statement of the constraint), and no two members share a choice sequence.
fn check_set<T: std::fmt::Debug>(
    set: &DistinctSet<T>,
    valid: impl Fn(&T) -> bool,
    different: impl Fn(&Member<T>, &Member<T>) -> bool,
) {
    for m in &set.members {
        assert!(valid(&m.value), "invalid member {:?}", m.value);
    }
    for (i, a) in set.members.iter().enumerate() {
        for b in &set.members[i + 1..] {
            assert!(different(a, b), "{:?} and {:?} are not different", a.value, b.value);
            assert_ne!(a.steps, b.steps, "two members from the same choices");
        }
    }
}

#[test]
fn different_integers_fill_the_set() {
    let set = distinct(300, &int(-1_000_000i64..=1_000_000), &not_equal());
    assert_eq!(set.stopped, Stopped::Found);
    assert_eq!(set.members.len(), 300);
    check_set(&set, |x| (-1_000_000..=1_000_000).contains(x), |a, b| a.value != b.value);
}

#[test]
fn integers_at_a_distance() {
    let set = distinct(200, &int(0i64..=100_000), &numeric_distance(10, |x: &i64| *x as i128));
    assert_eq!(set.stopped, Stopped::Found);
    check_set(&set, |x| (0..=100_000).contains(x), |a, b| (a.value - b.value).abs() >= 10);
}

#[test]
fn a_full_space_is_exhausted_not_looped() {
    // 0..=99 at distance 10 holds exactly 10 values at most.
    let set = distinct(50, &int(0i64..=99), &numeric_distance(10, |x: &i64| *x as i128));
    assert_eq!(set.stopped, Stopped::Exhausted);
    assert!(set.members.len() <= 10 && set.members.len() >= 5, "{}", set.members.len());
    check_set(&set, |x| (0..=99).contains(x), |a, b| (a.value - b.value).abs() >= 10);
    // Every value of a finite generator, under not_equal: all 100, then exhausted.
    let all = distinct(1_000, &int(0u8..=99), &not_equal());
    assert_eq!(all.stopped, Stopped::Exhausted);
    let values: HashSet<u8> = all.values().copied().collect();
    assert_eq!(values, (0..=99).collect());
    assert!(all.runs <= 100);
}

#[test]
fn the_budget_is_reported() {
    let set = distinct_with(10_000, &int(0u64..=u64::MAX), &not_equal(), 500, 1);
    assert_eq!(set.stopped, Stopped::Budget);
    assert_eq!(set.runs, 500);
    check_set(&set, |_| true, |a, b| a.value != b.value);
}

#[test]
fn validity_comes_from_the_generator() {
    let even = int(0u32..=10_000).filter(|x| x % 2 == 0);
    let set = distinct(100, &even, &not_equal());
    assert_eq!(set.stopped, Stopped::Found);
    check_set(&set, |x| x % 2 == 0 && *x <= 10_000, |a, b| a.value != b.value);
}

#[test]
fn strings_of_different_lengths() {
    let g = string(char_class(&[('a', 'z')]), 0..=500);
    let set = distinct(100, &g, &different_lengths());
    assert_eq!(set.stopped, Stopped::Found);
    check_set(
        &set,
        |s| s.len() <= 500 && s.chars().all(|c| c.is_ascii_lowercase()),
        |a, b| a.value.len() != b.value.len(),
    );
}

#[test]
fn strings_at_an_edit_distance() {
    let g = regex("[ab]{3,6}");
    let set = distinct(20, &g, &edit_distance(2));
    check_set(&set, |s| check(&g, s), |a, b| strsim::levenshtein(&a.value, &b.value) >= 2);
    assert!(set.members.len() >= 5);
}

#[test]
fn combinators_mean_what_they_say() {
    let g = int(0i32..=200);
    let near: Difference<i32> = numeric_distance(50, |x: &i32| *x as i128);
    let parity = differ(|a: &i32, b: &i32| a % 2 != b % 2);
    let both = distinct(100, &g, &all_of([near.clone(), parity.clone()]));
    check_set(&both, |_| true, |a, b| (a.value - b.value).abs() >= 50 && a.value % 2 != b.value % 2);
    // Two values of different parity: at most two members.
    assert!(both.members.len() <= 2);
    let either = distinct(100, &g, &some_of([near.clone(), parity]));
    check_set(&either, |_| true, |a, b| (a.value - b.value).abs() >= 50 || a.value % 2 != b.value % 2);
    let close = distinct(100, &g, &not(near));
    check_set(&close, |_| true, |a, b| (a.value - b.value).abs() < 50);
    assert_eq!(distinct(100, &g, &never()).members.len(), 1);
}

#[test]
fn cover_gives_one_value_per_pick_pattern_then_exhausts() {
    #[derive(Debug, Clone, PartialEq)]
    enum Shape {
        Dot,
        Line(bool),
        Box(u8),
    }
    let g = pick(
        "shape",
        [
            ("dot", 1, just(Shape::Dot).boxed()),
            ("line", 1, bool().map(Shape::Line, |s| if let Shape::Line(b) = s { Some(*b) } else { None }).boxed()),
            ("box", 1, int(0u8..=255).map(Shape::Box, |s| if let Shape::Box(x) = s { Some(*x) } else { None }).boxed()),
        ],
    );
    let set = distinct(1_000, &g, &cover());
    // dot; line false/true; box in each of 8 buckets: 11 patterns.
    assert_eq!(set.stopped, Stopped::Exhausted);
    assert_eq!(set.members.len(), 11);
    let patterns: HashSet<Vec<u64>> = set.members.iter().map(|m| m.pattern(Reduce::Buckets)).collect();
    assert_eq!(patterns.len(), 11);
    let boxes: HashSet<u8> =
        set.values().filter_map(|s| if let Shape::Box(x) = s { Some(x / 32) } else { None }).collect();
    assert_eq!(boxes, (0..8).collect());
    // Pruning: far fewer runs than the 259 choice sequences.
    assert!(set.runs < 100, "{} runs", set.runs);
}

#[test]
fn cover_regex_is_cover_regexp() {
    // A class is one case, the alternation is enumerated, the repetition is short or long.
    let g = regex("(ab|c)[0-9]{1,4}");
    let set = distinct(100, &g, &cover_regex());
    assert_eq!(set.stopped, Stopped::Exhausted);
    assert_eq!(set.members.len(), 4);
    let cases: HashSet<(bool, bool)> =
        set.values().map(|s| (s.starts_with("ab"), s.trim_start_matches(char::is_alphabetic).len() > 1)).collect();
    assert_eq!(cases.len(), 4);
    for s in set.values() {
        assert!(check(&g, s));
    }
}

#[test]
fn cover_regex_counts_makes_every_count_a_case() {
    // The variant the Iorek paper measured: 6 counts of `x`, times 2 options, then nothing new.
    let g = regex("[a-c]x{0,5}(yy|z)");
    let set = distinct(100, &g, &cover_regex_counts());
    assert_eq!(set.stopped, Stopped::Exhausted);
    let cases: HashSet<(usize, bool)> = set.values().map(|s| (s.matches('x').count(), s.ends_with('y'))).collect();
    assert_eq!((set.members.len(), cases.len()), (12, 12));
    // Under plain cover_regex the counts are only short (none) and long (some).
    assert_eq!(distinct(100, &g, &cover_regex()).members.len(), 4);
}

/// Theorem 4.1 of the Iorek paper: `enumerate-linear` (enumerate_star with
/// every constraint `never`) visits each alternative exactly once.
#[test]
fn enumerate_star_visits_each_alternative_once() {
    for n in 1..=6u32 {
        let alternatives: Vec<Assertion<u32>> =
            (0..n).map(|i| Rc::new(move |x: &u32| x % n == i) as Assertion<u32>).collect();
        let (assertion, difference) = enumerate_star(alternatives, (0..n).map(|_| never()).collect());
        let g = int(0u32..=59).filter(move |x| assertion(x));
        let set = distinct(100, &g, &difference);
        assert_eq!(set.stopped, Stopped::Exhausted, "n = {n}");
        assert_eq!(set.members.len(), n as usize);
        let branches: HashSet<u32> = set.values().map(|x| x % n).collect();
        assert_eq!(branches.len(), n as usize);
    }
}

#[test]
fn enumerate_star_nests_a_constraint_per_alternative() {
    // Below 100: different values; from 100: at least 50 apart (the Iorek paper's example).
    let small: Assertion<i64> = Rc::new(|x| *x < 100);
    let large: Assertion<i64> = Rc::new(|x| *x >= 100);
    let (assertion, difference) =
        enumerate_star(vec![small, large], vec![not_equal(), numeric_distance(50, |x: &i64| *x as i128)]);
    let g = int(90i64..=300).filter(move |x| assertion(x));
    let set = distinct(1_000, &g, &difference);
    assert_eq!(set.stopped, Stopped::Exhausted);
    let smalls: HashSet<i64> = set.values().copied().filter(|x| *x < 100).collect();
    assert_eq!(smalls, (90..100).collect());
    let larges: Vec<i64> = set.values().copied().filter(|x| *x >= 100).collect();
    check_set(
        &set,
        |_| true,
        |a, b| {
            (a.value < 100) != (b.value < 100)
                || if a.value < 100 { a.value != b.value } else { (a.value - b.value).abs() >= 50 }
        },
    );
    assert!((3..=5).contains(&larges.len()), "{larges:?}");
}

#[test]
fn same_seed_same_set() {
    let g = string(char_class(&[('a', 'z')]), 0..=50);
    let a = distinct_with(30, &g, &cover(), 10_000, 7);
    let b = distinct_with(30, &g, &cover(), 10_000, 7);
    assert_eq!(a, b);
}

#[test]
fn a_set_is_written_out_as_json() {
    let set = distinct(5, &regex("[a-c]{1,3}"), &cover_regex());
    let json = serde_json::to_value(&set).unwrap();
    let values: Vec<String> =
        json["members"].as_array().unwrap().iter().map(|m| m["value"].as_str().unwrap().to_owned()).collect();
    assert_eq!(values, set.values().cloned().collect::<Vec<_>>());
    assert_eq!(json["stopped"], "Exhausted");
    assert_eq!(json["members"][0]["steps"][0]["site"], "regex.repeat");
}

mod guide {
    use super::*;
    use refgen_runtime::{
        config::Config,
        guides::DistinctGuide,
        runner::{Property, RunError},
    };
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_property_runs_on_the_cover_set_first() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let p = Property::new(
            || regex("(ab|c)[0-9]{1,4}"),
            move |s: String| {
                log.lock().unwrap().push(s);
            },
        );
        let report = p.check(&Config::new("distinct_cover").cases(10).guide(DistinctGuide::cover_regex)).unwrap();
        let seen = seen.lock().unwrap();
        // The first four cases are the four cases of cover-regexp.
        let cases: HashSet<(bool, bool)> = seen[..4]
            .iter()
            .map(|s| (s.starts_with("ab"), s.trim_start_matches(char::is_alphabetic).len() > 1))
            .collect();
        assert_eq!(cases.len(), 4, "{:?}", &seen[..4]);
        assert!(
            report.guide_notes.iter().any(|n| n.contains("4 members") && n.contains("exhausted")),
            "{:?}",
            report.guide_notes
        );
    }

    #[test]
    fn a_rare_pick_is_tested_early() {
        // Random generation makes "rare" once in 10,000 cases; the cover set holds it.
        let p = Property::new(
            || pick("kind", [("common", 10_000, just(0u8).boxed()), ("rare", 1, just(1u8).boxed())]),
            |x: u8| x == 0,
        );
        let config = Config::new("distinct_rare").cases(5).guide(DistinctGuide::cover);
        let Err(RunError::Failed(f)) = p.check(&config) else { panic!("the rare pick was not tested") };
        assert_eq!(p.value_of(&f), Some(1));
        assert!(f.tests <= 2);
    }

    #[test]
    fn all_different_values_then_random() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        let p = Property::new(|| int(0u8..=9), move |x: u8| log.lock().unwrap().push(x));
        let report = p.check(&Config::new("distinct_all").cases(30).guide(DistinctGuide::all_different)).unwrap();
        let seen = seen.lock().unwrap();
        let first: HashSet<u8> = seen[..10].iter().copied().collect();
        assert_eq!(first, (0..=9).collect());
        assert_eq!(seen.len(), 30);
        assert!(report.guide_notes.iter().any(|n| n.contains("10 members")), "{:?}", report.guide_notes);
    }
}
