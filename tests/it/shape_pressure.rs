//! Pressure toward size and new shapes in the guides that learn: shape keys, the mutational corpus, annealing on size, size-weighed CGS.

use refgen::combinators::{int, vec};
use refgen::prelude::*;
use refgen::refgen_core::choice::Request;
use refgen::refgen_core::trail::Trail;
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guides::mutate::Joined;
use refgen::refgen_runtime::guides::shape::{shape_key, Shapes};
use refgen::refgen_runtime::guides::{CgsGuide, MutateGuide, RandomGuide, SaGuide};
use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

fn trail(picks: &[u64], ints: &[u64]) -> Trail {
    let mut t = Trail::new();
    let options = [
        refgen::refgen_core::choice::Opt { label: "a", weight: 1 },
        refgen::refgen_core::choice::Opt { label: "b", weight: 1 },
    ];
    for &p in picks {
        t.open_choice("p", Request::Pick { options: &options, total: 2 }, p);
        t.close();
    }
    for &i in ints {
        t.open_choice("x", Request::Int { span: 99 }, i);
        t.close();
    }
    t
}

#[test]
fn a_shape_is_the_picks_and_the_count_with_integers_erased() {
    assert_eq!(shape_key(&trail(&[0, 1], &[3, 4])), shape_key(&trail(&[0, 1], &[70, 0])));
    assert_ne!(shape_key(&trail(&[0, 1], &[3])), shape_key(&trail(&[1, 0], &[3])));
    assert_ne!(shape_key(&trail(&[0, 1], &[3])), shape_key(&trail(&[0, 1], &[3, 3])));
}

#[test]
fn shapes_say_what_is_new_and_how_large() {
    let mut s = Shapes::default();
    let first = s.observe(&trail(&[0], &[1]));
    assert!(first.new_shape);
    assert_eq!((first.size, first.relative_size), (2, 1.0));
    assert!(!s.observe(&trail(&[0], &[9])).new_shape);
    let big = s.observe(&trail(&[0, 1, 1], &[1, 2, 3]));
    assert!(big.new_shape && big.relative_size > 1.0);
    let small = s.observe(&trail(&[], &[]));
    assert!(small.relative_size < 1.0);
    assert_eq!(s.len(), 3);
}

/// A sorted list of digits by filtering: valid values are rare and small under random generation.
fn sorted() -> impl Gen<Value = Vec<u8>> {
    vec(int(0u8..=9), 0..=12).filter(|xs: &Vec<u8>| xs.is_sorted())
}

#[test]
fn the_mutational_corpus_keeps_one_new_value_per_shape() {
    let mut guide = MutateGuide::default();
    generate_distinct(&sorted(), &mut guide, 2_000, 3);
    let counts: Vec<usize> =
        guide.corpus().iter().filter(|e| e.joined == Joined::New).map(|e| e.tree.choice_count()).collect();
    let distinct: HashSet<usize> = counts.iter().copied().collect();
    assert!(!counts.is_empty());
    assert_eq!(counts.len(), distinct.len(), "a list's shape is its length: {counts:?}");
}

/// The mean length of the valid lists a property sees under `guide`, over 2,000 valid cases.
fn mean_length<G: refgen::guide::Guide + 'static>(make: fn() -> G) -> f64 {
    let (n, total) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let (n2, t2) = (n.clone(), total.clone());
    let p = Property::new(sorted, move |xs: Vec<u8>| {
        n2.fetch_add(1, Ordering::Relaxed);
        t2.fetch_add(xs.len() as u64, Ordering::Relaxed);
    });
    let config = Config::new("shape_pressure").seed(5).cases(2_000).max_discard_ratio(1_000).guide(make);
    p.check(&config).expect("the property holds");
    total.load(Ordering::Relaxed) as f64 / n.load(Ordering::Relaxed) as f64
}

#[test]
fn annealing_with_no_target_grows_valid_values() {
    let (sa, random) = (mean_length(SaGuide::default), mean_length(|| RandomGuide));
    assert!(sa > 2.0 * random, "sa {sa:.2} against random {random:.2}");
}

#[test]
fn size_weighed_cgs_makes_longer_valid_lists_than_random() {
    let (cgs, random) = (mean_length(CgsGuide::default), mean_length(|| RandomGuide));
    assert!(cgs > random, "cgs {cgs:.2} against random {random:.2}");
}
