//! The SMT back end agrees with the native one (run with `--features z3`).
#![cfg(feature = "z3")]

use refgen_core::prelude::*;
use refgen_runtime::distinct::smt::{distinct_ints, distinct_strings, IntDifference, StrDifference};
use refgen_runtime::distinct::{distinct, DistinctSet, Stopped};
use std::collections::BTreeSet;

/// Every member in range and every pair different, checked by `differ`.
fn check_ints(set: &DistinctSet<i64>, lo: i64, hi: i64, differ: impl Fn(i64, i64) -> bool) {
    let xs: Vec<i64> = set.values().copied().collect();
    for (i, &a) in xs.iter().enumerate() {
        assert!((lo..=hi).contains(&a));
        for &b in &xs[i + 1..] {
            assert!(differ(a, b), "{a} and {b}");
        }
    }
}

#[test]
fn both_back_ends_find_every_value_of_a_small_range() {
    let d = IntDifference::NotEqual;
    let smt = distinct_ints(100, 0, 20, &d, 1_000);
    let native = distinct(100, &int(0i64..=20), &d.native());
    assert_eq!(smt.stopped, Stopped::Exhausted);
    assert_eq!(native.stopped, Stopped::Exhausted);
    let a: BTreeSet<i64> = smt.values().copied().collect();
    let b: BTreeSet<i64> = native.values().copied().collect();
    assert_eq!(a, (0..=20).collect());
    assert_eq!(a, b);
}

#[test]
fn both_back_ends_keep_their_distance() {
    let d = IntDifference::Distance(10);
    let smt = distinct_ints(30, -1_000, 1_000, &d, 1_000);
    let native = distinct(30, &int(-1_000i64..=1_000), &d.native());
    for set in [&smt, &native] {
        assert_eq!(set.stopped, Stopped::Found);
        assert_eq!(set.members.len(), 30);
        check_ints(set, -1_000, 1_000, |a, b| a.abs_diff(b) >= 10);
    }
    // A range that holds at most 3 such values: both stop, exhausted.
    let smt = distinct_ints(10, 0, 25, &d, 1_000);
    let native = distinct(10, &int(0i64..=25), &d.native());
    for set in [&smt, &native] {
        assert_eq!(set.stopped, Stopped::Exhausted);
        assert!((2..=3).contains(&set.members.len()));
        check_ints(set, 0, 25, |a, b| a.abs_diff(b) >= 10);
    }
}

#[test]
fn combined_constraints_mean_the_same_on_both() {
    let d = IntDifference::AllOf(vec![
        IntDifference::Distance(3),
        IntDifference::Not(Box::new(IntDifference::Distance(50))),
    ]);
    let smt = distinct_ints(100, 0, 200, &d, 1_000);
    let native = distinct(100, &int(0i64..=200), &d.native());
    for set in [&smt, &native] {
        assert_eq!(set.stopped, Stopped::Exhausted);
        check_ints(set, 0, 200, |a, b| a.abs_diff(b) >= 3 && a.abs_diff(b) < 50);
    }
    let budget = distinct_ints(100, 0, 1_000, &IntDifference::NotEqual, 7);
    assert_eq!((budget.stopped, budget.runs, budget.members.len()), (Stopped::Budget, 7, 7));
}

// Strings: the specification is a regex, read by both back ends.

/// Every member matches `pattern` (by the regex generator's `check`) and every pair is different by `differ`.
fn check_strings(set: &DistinctSet<String>, pattern: &str, differ: impl Fn(&str, &str) -> bool) {
    let gen = regex(pattern);
    for (i, a) in set.members.iter().enumerate() {
        assert!(check(&gen, &a.value), "{:?} does not match {pattern}", a.value);
        for b in &set.members[i + 1..] {
            assert!(differ(&a.value, &b.value), "{:?} and {:?}", a.value, b.value);
        }
    }
}

/// Both back ends on `pattern` under `d`: (z3, native), each checked by `differ`.
fn both(n: usize, pattern: &str, d: &StrDifference, differ: impl Fn(&str, &str) -> bool) -> [DistinctSet<String>; 2] {
    let smt = distinct_strings(n, pattern, d, 10_000).unwrap();
    let native = distinct(n, &regex(pattern), &d.native());
    for set in [&smt, &native] {
        check_strings(set, pattern, &differ);
    }
    [smt, native]
}

fn values(set: &DistinctSet<String>) -> BTreeSet<String> {
    set.values().cloned().collect()
}

#[test]
fn both_back_ends_find_every_string_of_a_small_language() {
    // Backslash and quote go through Z3's string escapes and back.
    let [smt, native] = both(100, r#"[\\"a]{0,2}"#, &StrDifference::NotEqual, |a, b| a != b);
    assert_eq!((smt.stopped, native.stopped), (Stopped::Exhausted, Stopped::Exhausted));
    assert_eq!(values(&smt).len(), 1 + 3 + 9);
    assert_eq!(values(&smt), values(&native));
}

#[test]
fn both_back_ends_give_every_length_once() {
    let lengths = |set: &DistinctSet<String>| set.values().map(|s| s.len()).collect::<BTreeSet<_>>();
    let d = StrDifference::DifferentLengths;
    let [smt, native] = both(21, "[a-z]{0,20}", &d, |a, b| a.len() != b.len());
    assert_eq!((smt.stopped, native.stopped), (Stopped::Found, Stopped::Found));
    assert_eq!(lengths(&smt), (0..=20).collect());
    assert_eq!(lengths(&smt), lengths(&native));
    // The solver also proves that no 22nd length exists (the native search
    // would spend its budget trying the 26^20 strings).
    assert_eq!(distinct_strings(22, "[a-z]{0,20}", &d, 100).unwrap().stopped, Stopped::Exhausted);
}

/// Which of the four cover-regexp cases of `(ab|c)[0-9]{1,4}` a string is in, read off the string.
fn ab_case(s: &str) -> (bool, bool) {
    (s.starts_with("ab"), s.trim_start_matches("ab").trim_start_matches('c').len() > 1)
}

#[test]
fn both_back_ends_cover_a_regex_case_by_case() {
    let pattern = "(ab|c)[0-9]{1,4}";
    let [smt, native] = both(100, pattern, &StrDifference::CoverRegex, |a, b| ab_case(a) != ab_case(b));
    assert_eq!((smt.stopped, native.stopped), (Stopped::Exhausted, Stopped::Exhausted));
    let cases = |set: &DistinctSet<String>| set.values().map(|s| ab_case(s)).collect::<BTreeSet<_>>();
    assert_eq!(cases(&smt).len(), 4);
    assert_eq!(cases(&smt), cases(&native));
}

#[test]
fn counted_cover_gives_one_string_per_count() {
    // The Iorek paper's Table 4 constraint: a repetition's count is its case, so here one string per length.
    let pattern = "[_a-zA-Z][_a-zA-Z0-9]{1,30}";
    let [smt, native] = both(100, pattern, &StrDifference::CoverRegexCounts, |a, b| a.len() != b.len());
    for set in [&smt, &native] {
        assert_eq!(set.stopped, Stopped::Exhausted);
        assert_eq!(set.values().map(|s| s.len()).collect::<BTreeSet<_>>(), (2..=31).collect());
    }
}

/// Every string of `[ab]{0,4}`.
fn all_ab() -> Vec<String> {
    (0..=4u32)
        .flat_map(|len| {
            (0..1u32 << len).map(move |bits| (0..len).map(|i| if bits >> i & 1 == 1 { 'b' } else { 'a' }).collect())
        })
        .collect()
}

#[test]
fn edit_distance_sets_are_maximal_on_both() {
    let d = StrDifference::EditDistance(2);
    let far = |a: &str, b: &str| strsim::levenshtein(a, b) >= 2;
    for set in both(100, "[ab]{0,4}", &d, far) {
        assert_eq!(set.stopped, Stopped::Exhausted);
        // Exhausted means no string of the language is far from every member.
        for s in all_ab() {
            assert!(set.values().any(|m| !far(m, &s)), "{s:?} could still join {:?}", values(&set));
        }
    }
}

#[test]
fn combined_string_constraints_mean_the_same_on_both() {
    // Different lengths, but close: within edit distance 2 of each other.
    let d = StrDifference::AllOf(vec![
        StrDifference::DifferentLengths,
        StrDifference::Not(Box::new(StrDifference::EditDistance(3))),
    ]);
    let differ = |a: &str, b: &str| a.len() != b.len() && strsim::levenshtein(a, b) < 3;
    for set in both(100, "[ab]{0,4}", &d, differ) {
        assert_eq!(set.stopped, Stopped::Exhausted);
        for s in all_ab() {
            assert!(set.values().any(|m| m == &s || !differ(m, &s)), "{s:?} could still join {:?}", values(&set));
        }
    }
    // Another case, or another length: some_of over a cover.
    let d = StrDifference::SomeOf(vec![StrDifference::CoverRegex, StrDifference::DifferentLengths]);
    let differ = |a: &str, b: &str| ab_case(a) != ab_case(b) || a.len() != b.len();
    let language: Vec<String> = ["ab", "c"]
        .iter()
        .flat_map(|p| {
            all_ab()
                .into_iter()
                .filter(|s| (1..=3).contains(&s.len()))
                .map(move |s| format!("{p}{}", s.replace('a', "0").replace('b', "1")))
        })
        .collect();
    assert_eq!(language.len(), 28);
    for set in both(100, "(ab|c)[01]{1,3}", &d, differ) {
        assert_eq!(set.stopped, Stopped::Exhausted);
        for s in &language {
            assert!(set.values().any(|m| m == s || !differ(m, s)), "{s:?} could still join {:?}", values(&set));
        }
    }
}

#[test]
fn what_z3_cannot_take_is_an_error() {
    let err = |pattern: &str, d: StrDifference| match distinct_strings(3, pattern, &d, 10) {
        Ok(set) => panic!("{pattern}: {set:?}"),
        Err(e) => e.to_string(),
    };
    assert!(err("[é-ü]", StrDifference::NotEqual).contains("printable ASCII"));
    assert!(err("[a-z]{0,1000}", StrDifference::EditDistance(2)).contains("edit distance"));
    assert!(err("(", StrDifference::NotEqual).contains("regex"));
    assert!(err("(ab|c){0,20}", StrDifference::CoverRegexCounts).contains("cases"));
}
