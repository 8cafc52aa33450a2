//! Sets of pairwise different valid inputs, as in Tables 1-4 of the Iorek paper (Ringer, Grossman, Schwartz-Narbonne and Tasiran, "A Solver-Aided Language for Test Input Generation", OOPSLA 2017), found by the native search back end and, with `--features z3`, by the SMT one; then `cover_regex` on an ISBN-like pattern.
//!
//! Run with `cargo run --release -p refgen-benches --bin distinct_sets` (add
//! `--features z3`, which needs `libz3-dev`, for the `backend=z3` rows).
//! One line per table row and back end:
//!
//! ```text
//! table=<1-4> n=<n> backend=<native|z3> found=<n> stopped=<found|exhausted|budget> runs=<n> secs=<f>
//! ```
//!
//! 1. different integers (`not_equal` over all of `i64`), n = 200, 400, 600;
//! 2. integers at least 10 apart (`numeric_distance`), n = 100 to 400;
//! 3. strings matching `[a-z]*` of different lengths (`different_lengths`;
//!    the regex generator bounds `*` to 8 repetitions, so the pattern is
//!    written `[a-z]{0,1000}`), n = 50 to 200;
//! 4. strings covering `[_a-zA-Z][_a-zA-Z0-9]+` with the paper's measured
//!    variant of `cover-regexp`, which "treats + the same as concatenation"
//!    (`cover_regex_counts`: every count of the repetition is a case; `+`
//!    written `{1,1000}`), n = 200 to 1000.
//!
//! The z3 rows run Iorek's loop, one Z3 query per member, on the same
//! constraints (`IntDifference`, `StrDifference`). A query Z3 gives up on
//! (after `QUERY_TIMEOUT_MS`) stops the row as `budget`; the larger rows of
//! that table are then skipped, as they would give up at the same member.
//!
//! Every set is checked after the search, independently of it: each value
//! is valid (`check` against the generator) and every pair satisfies the
//! constraint, restated here; the example panics otherwise. The paper's
//! figures for its default loop over Z3: 600 integers in 395 s, 400 at
//! distance 10 in 592 s, 200 strings of different lengths in 298 s, 1,000
//! cover-regex strings in 168 s.

use refgen::distinct::{
    cover_regex, cover_regex_counts, different_lengths, distinct, not_equal, numeric_distance, Difference, DistinctSet,
    Member, Reduce,
};
use refgen::prelude::*;
use refgen::refgen_core::{check, combinators::int, regex::regex};
use std::time::Instant;

/// Run one row, check the set independently, print its line.
fn row<G>(
    table: u32,
    n: usize,
    gen: &G,
    difference: &Difference<G::Value>,
    different: impl Fn(&Member<G::Value>, &Member<G::Value>) -> bool,
) -> DistinctSet<G::Value>
where
    G: Gen,
    G::Value: std::fmt::Debug,
{
    let start = Instant::now();
    let set = distinct(n, gen, difference);
    report(table, n, "native", start, gen, &set, different);
    set
}

/// Check a set found for row `n` of `table` independently (each value
/// valid for `gen`, every pair `different`), and print its line.
fn report<G>(
    table: u32,
    n: usize,
    backend: &str,
    start: Instant,
    gen: &G,
    set: &DistinctSet<G::Value>,
    different: impl Fn(&Member<G::Value>, &Member<G::Value>) -> bool,
) where
    G: Gen,
    G::Value: std::fmt::Debug,
{
    let secs = start.elapsed().as_secs_f64();
    for m in &set.members {
        assert!(check(gen, &m.value), "table {table}: invalid value {:?}", m.value);
    }
    for (i, a) in set.members.iter().enumerate() {
        for b in &set.members[i + 1..] {
            assert!(different(a, b), "table {table}: {:?} and {:?} are not different", a.value, b.value);
        }
    }
    println!(
        "table={table} n={n} backend={backend} found={} stopped={} runs={} secs={secs:.3}",
        set.members.len(),
        format!("{:?}", set.stopped).to_lowercase(),
        set.runs
    );
}

/// The patterns of Tables 3 and 4.
const WORDS: &str = "[a-z]{0,1000}";
const NAMES: &str = "[_a-zA-Z][_a-zA-Z0-9]{1,1000}";

/// Different lengths: the constraint of Table 3, and what Table 4's cover means for its pattern.
fn lengths_differ(a: &Member<String>, b: &Member<String>) -> bool {
    a.value.len() != b.value.len()
}

/// The rows of each table.
const TABLE_1: [usize; 3] = [200, 400, 600];
const TABLE_2: [usize; 4] = [100, 200, 300, 400];
const TABLE_3: [usize; 4] = [50, 100, 150, 200];
const TABLE_4: [usize; 5] = [200, 400, 600, 800, 1000];

fn main() {
    let ints = int(i64::MIN..=i64::MAX);
    for n in TABLE_1 {
        row(1, n, &ints, &not_equal(), |a, b| a.value != b.value);
    }
    let far = numeric_distance(10, |x: &i64| *x as i128);
    for n in TABLE_2 {
        row(2, n, &ints, &far, |a, b| a.value.abs_diff(b.value) >= 10);
    }
    #[cfg(feature = "z3")]
    smt_rows();
    let words = regex(WORDS);
    for n in TABLE_3 {
        row(3, n, &words, &different_lengths(), lengths_differ);
    }
    let names = regex(NAMES);
    for n in TABLE_4 {
        row(4, n, &names, &cover_regex_counts(), lengths_differ);
    }
    #[cfg(feature = "z3")]
    smt_string_rows();

    let pattern = "97[89]-[0-9]{1,5}-[0-9]{1,7}-[0-9]{1,6}-[0-9X]";
    let isbn = regex(pattern);
    let set = distinct(100, &isbn, &cover_regex());
    println!(
        "cover_regex {pattern}: {} values, stopped={}",
        set.members.len(),
        format!("{:?}", set.stopped).to_lowercase()
    );
    for m in &set.members {
        assert!(check(&isbn, &m.value));
        let case: Vec<&str> =
            m.pattern(Reduce::RegexCases).iter().map(|&k| if k == 0 { "short" } else { "long" }).collect();
        println!("  {:<20} {}", m.value, case.join(" "));
    }
    #[cfg(feature = "z3")]
    {
        use refgen::distinct::smt::{distinct_strings, StrDifference};
        let set = distinct_strings(100, pattern, &StrDifference::CoverRegex, 101).expect("the pattern suits Z3");
        println!(
            "cover_regex {pattern} backend=z3: {} values, stopped={}",
            set.members.len(),
            format!("{:?}", set.stopped).to_lowercase()
        );
        // The case of each value, read off the string: each of the three
        // middle groups is short (one digit) or long.
        let case = |v: &str| -> Vec<&str> {
            v.split('-').skip(1).take(3).map(|g| if g.len() == 1 { "short" } else { "long" }).collect()
        };
        let cases: std::collections::HashSet<Vec<&str>> = set.values().map(|v| case(v)).collect();
        assert_eq!(cases.len(), set.members.len(), "one value per case");
        for v in set.values() {
            assert!(check(&isbn, v));
            println!("  {:<20} {}", v, case(v).join(" "));
        }
    }
}

/// Tables 3 and 4 on the SMT back end, checked the same way; once Z3 gives
/// up on a row, the table's larger rows are skipped.
#[cfg(feature = "z3")]
fn smt_string_rows() {
    use refgen::distinct::smt::{distinct_strings, StrDifference};
    use refgen::distinct::Stopped;
    let tables: [(u32, &str, StrDifference, &[usize]); 2] =
        [(3, WORDS, StrDifference::DifferentLengths, &TABLE_3), (4, NAMES, StrDifference::CoverRegexCounts, &TABLE_4)];
    for (table, pattern, difference, ns) in tables {
        let gen = regex(pattern);
        let mut gave_up: Option<(usize, usize)> = None;
        for &n in ns {
            if let Some((at, members)) = gave_up {
                println!("table={table} n={n} backend=z3 skipped: Z3 gave up at member {} for n={at}", members + 1);
                continue;
            }
            let start = Instant::now();
            let set = distinct_strings(n, pattern, &difference, n + 1).expect("the pattern suits Z3");
            report(table, n, "z3", start, &gen, &set, lengths_differ);
            if set.stopped == Stopped::Budget {
                gave_up = Some((n, set.members.len()));
            }
        }
    }
}

/// Tables 1 and 2 on the SMT back end, checked the same way (over `i64`, the generator of the native rows).
#[cfg(feature = "z3")]
fn smt_rows() {
    use refgen::distinct::smt::{distinct_ints, IntDifference};
    let ints = int(i64::MIN..=i64::MAX);
    let rows: [(u32, IntDifference, u64, &[usize]); 2] =
        [(1, IntDifference::NotEqual, 1, &TABLE_1), (2, IntDifference::Distance(10), 10, &TABLE_2)];
    for (table, difference, t, ns) in rows {
        for &n in ns {
            let start = Instant::now();
            let set = distinct_ints(n, i64::MIN, i64::MAX, &difference, n + 1);
            report(table, n, "z3", start, &ints, &set, |a, b| a.value.abs_diff(b.value) >= t);
        }
    }
}
