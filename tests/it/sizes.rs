//! Default lengths: short most often, up to the largest size at times, one budget per value, every length replayable.

use refgen::combinators::sizes::{values_cut, with_max_size, DEFAULT_MAX_SIZE};
use refgen::interpret::{check, generate, parse_tree, reflect};
use refgen::prelude::*;
use refgen::refgen_core::laws;
use refgen::runner::RunError;
use std::collections::BTreeMap;

/// A tree with a `Vec` of children: a default collection inside a recursive type.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Rose {
    label: u8,
    children: Vec<Rose>,
}

fn nodes(t: &Rose) -> usize {
    1 + t.children.iter().map(nodes).sum::<usize>()
}

#[test]
fn default_lengths_keep_the_laws() {
    assert_eq!(laws::round_trip(&Vec::<u8>::generator(), 300), 300);
    assert_eq!(laws::round_trip(&String::generator(), 300), 300);
    // A map reflects as its entries in order, not in the order they were made: the reflection law
    // holds of the value, not of the generation's tree.
    let map = BTreeMap::<u8, bool>::generator();
    for s in 0..300 {
        let m = generate(&map, s).unwrap();
        let trees = reflect(&map, &m);
        assert!(!trees.is_empty() && trees.iter().all(|t| parse_tree(&map, t).as_ref() == Ok(&m)), "seed {s}");
    }
    assert_eq!(laws::round_trip(&Vec::<Vec<u8>>::generator(), 300), 300);
    assert_eq!(laws::round_trip(&Rose::generator(), 200), 200);
}

#[test]
fn most_lengths_are_short_and_some_are_long() {
    let lens: Vec<usize> = (0..2000).map(|s| generate(&Vec::<u8>::generator(), s).unwrap().len()).collect();
    let short = lens.iter().filter(|&&n| n <= 4).count();
    let long = lens.iter().filter(|&&n| n > 16).count();
    assert!(short > 1300, "{short} of 2000 at most 4");
    assert!((60..300).contains(&long), "{long} of 2000 past 16");
    assert!(lens.iter().all(|&n| n <= DEFAULT_MAX_SIZE));
    assert!(lens.iter().any(|&n| n > 64), "the tail reaches toward the largest size");
}

/// Any length up to the largest size is in the range, whatever the lengths generation favours;
/// past it, none. A run's setting moves the bound.
#[test]
fn every_length_up_to_the_largest_size_reflects_and_replays() {
    let g = Vec::<u8>::generator();
    for n in [0, 9, 17, 64, 100] {
        let v = vec![7u8; n];
        let trees = reflect(&g, &v);
        assert_eq!(trees.len(), 1, "length {n}");
        assert_eq!(parse_tree(&g, &trees[0]).as_ref(), Ok(&v));
    }
    assert!(!check(&g, &vec![0u8; 101]));
    with_max_size(300, || {
        assert!(check(&g, &vec![0u8; 300]));
        assert!(!check(&g, &vec![0u8; 301]));
        assert_eq!(laws::round_trip(&g, 100), 100);
    });
    assert!(!check(&g, &vec![0u8; 101]), "the setting is set back");
}

/// The collections of one value share one budget of elements: nested and recursive values grow to
/// about the largest size in all, not its square; once it is spent the rest are cut short (counted).
#[test]
fn nested_and_recursive_values_share_one_budget() {
    let nested = Vec::<Vec<u8>>::generator();
    let cut = values_cut();
    for s in 0..2000 {
        let v = generate(&nested, s).unwrap();
        let elements = v.len() + v.iter().map(Vec::len).sum::<usize>();
        assert!(elements <= DEFAULT_MAX_SIZE, "seed {s}: {elements} elements");
    }
    for s in 0..300 {
        let t = generate(&Rose::generator(), s).unwrap();
        assert!(nodes(&t) <= DEFAULT_MAX_SIZE + 1, "seed {s}: {} nodes", nodes(&t));
    }
    assert!(values_cut() > cut, "some values spent their budget");
    // Every value has its own budget: a long value does not starve the next.
    let long = (0..400).filter(|&s| generate(&nested, s).unwrap().iter().map(Vec::len).sum::<usize>() > 16).count();
    assert!(long > 20, "{long}");
}

/// A bug that needs more than 16 elements is found within the default cases, and shrunk to 17.
#[test]
fn a_long_value_bug_is_found_and_shrunk_to_its_minimum() {
    for seed in 1..=3 {
        let config = Config::new("sizes::long_vec").seed(seed).no_regressions();
        let p = Property::new(Vec::<u8>::generator, |v: Vec<u8>| v.len() <= 16);
        match p.check(&config) {
            Err(RunError::Failed(f)) => {
                assert!(f.cases < 256, "seed {seed}: {} cases", f.cases);
                assert_eq!(f.args[0].1, format!("{:?}", vec![0u8; 17]), "seed {seed}");
            }
            other => panic!("seed {seed}: {other:?}"),
        }
    }
}

/// `max_size = 8`: nothing longer is made.
#[property(cases = 200, max_size = 8)]
fn a_run_sets_its_largest_size(xs: Vec<u8>, s: String, m: BTreeMap<u8, u8>) {
    assert!(xs.len() <= 8 && s.chars().count() <= 8 && m.len() <= 8);
}
