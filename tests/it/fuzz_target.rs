//! A property as a fuzz target: the entry point a libFuzzer target calls, fed bytes by hand. A failing
//! input is shrunk by reflection and remembered, and the property's next run replays it; a
//! `#[property]` is a fuzz target without being written twice.

use rand::Rng;
use refgen::bytes::{from_bytes, to_bytes};
use refgen::combinators::{int, vec};
use refgen::config::Config;
use refgen::fuzz::{fuzz_one, mutate_bytes, mutate_into, seed_corpus, Fuzzer, SeedError};
use refgen::prelude::*;
use refgen::refgen_core::source::rng_from_seed;
use refgen::runner::{Origin, Property, RunError};
use refgen_fixtures::runs::{failure, temp_dir};

/// The property with a planted bug: every element is below 500.
fn below_500() -> Property<Vec<u32>> {
    Property::new(|| vec(int(0u32..=1000), 0..=9), |xs: Vec<u32>| xs.iter().all(|&x| x < 500))
}

#[test]
fn a_crash_from_the_fuzzer_is_shrunk_remembered_and_replayed_by_the_next_run() {
    let dir = temp_dir("fuzz-crash");
    let config = Config::new("fuzz_target::below_500").regressions(&dir);
    let p = below_500();
    let mut fuzzer = Fuzzer::new(&p, &config);
    let g = vec(int(0u32..=1000), 0..=9);

    // Passing inputs pass, and remember nothing.
    fuzzer.run_bytes(&to_bytes(&g, &vec![3, 499, 0]).unwrap()).unwrap();
    fuzzer.run_bytes(&[]).unwrap();
    assert!(!dir.join("fuzz_target__below_500.json").exists());

    // A crash: the value the bytes decode to fails; it is shrunk and saved.
    let crash = to_bytes(&g, &vec![7, 42, 977, 3]).unwrap();
    let f = match fuzzer.run_bytes(&crash) {
        Err(RunError::Failed(f)) => f,
        other => panic!("expected a failure, got {other:?}"),
    };
    assert_eq!(f.origin, Origin::Fuzzer);
    assert_eq!(f.cases, 2, "the passing inputs before it");
    assert_eq!(p.value_of(&f), Some(vec![500]), "shrunk by reflection");
    let saved = f.saved_to.clone().expect("remembered");
    assert!(saved.starts_with(&dir));
    assert!(f.to_string().contains("on a fuzzer's input"), "{f}");

    // `cargo test`: the property's own run replays it first, and fails on it.
    let f = failure(p.check(&config));
    assert!(matches!(&f.origin, Origin::Regression(path) if *path == saved), "{:?}", f.origin);
    assert_eq!(p.value_of(&f), Some(vec![500]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_fuzz_target_entry_point_panics_with_the_report_only_on_a_failure() {
    let dir = temp_dir("fuzz-entry");
    let make = || (below_500(), Config::new("fuzz_target::entry").regressions(&dir));
    // Random inputs of every length up to 64 that decode to passing values pass; the first failing one panics.
    let g = vec(int(0u32..=1000), 0..=9);
    let mut rng = rng_from_seed(3);
    let mut failed = 0;
    for len in 0..=64 {
        let bytes: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        let fails = from_bytes(&g, &bytes).unwrap().iter().any(|&x| x >= 500);
        let r = std::panic::catch_unwind(|| fuzz_one(make, &bytes));
        assert_eq!(r.is_err(), fails, "{bytes:?}");
        if let Err(payload) = r {
            let msg = payload.downcast_ref::<String>().expect("the report");
            assert!(msg.contains("on a fuzzer's input") && msg.contains("[500]"), "{msg}");
            failed += 1;
        }
    }
    assert!(failed > 0, "some random input fails");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A property written once, with a planted bug: its test is ignored (it fails by design); the test
/// below runs it as a fuzz target through what `#[property]` defines beside the test.
#[property(cases = 50, example = vec![1, 2])]
#[ignore = "fails by design: the fuzz target test below runs it"]
fn planted(#[gen(vec(int(0u32..=1000), 0..=9))] xs: Vec<u32>) -> bool {
    xs.iter().all(|&x| x < 500)
}

#[test]
fn a_property_written_once_is_a_fuzz_target_whose_find_its_test_replays() {
    // What the `#[test]` runs: the property and its config, named by its module path (test binary `it`).
    let (p, config) = planted::property();
    assert_eq!(config.name, "it::fuzz_target::planted");
    let dir = temp_dir("fuzz-property-fn");
    let config = config.regressions(&dir);
    // The generator a fuzz target's bytes answer (and the mutator mutates).
    let g = planted::generator();
    let passing = to_bytes(&g, &vec![4, 499]).unwrap();
    let crash = to_bytes(&g, &vec![3, 800, 9]).unwrap();
    assert_eq!(from_bytes(&g, &crash), Ok(vec![3, 800, 9]));

    let mut fuzzer = Fuzzer::new(&p, &config);
    fuzzer.run_bytes(&passing).unwrap();
    let f = match fuzzer.run_bytes(&crash) {
        Err(RunError::Failed(f)) => f,
        other => panic!("expected a failure, got {other:?}"),
    };
    assert_eq!((f.origin.clone(), p.value_of(&f)), (Origin::Fuzzer, Some(vec![500])));
    let saved = f.saved_to.clone().expect("remembered");

    // The property's own run (the test's, the same name and directory) replays the find first.
    let f = failure(p.check(&config));
    assert_eq!(f.origin, Origin::Regression(saved));
    assert_eq!(p.value_of(&f), Some(vec![500]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_input_the_property_discards_passes() {
    let p = Property::new(
        || int(0u8..=255),
        |x: u8| {
            assume!(x < 100);
            x < 100
        },
    );
    let mut fuzzer = Fuzzer::new(&p, &Config::new("fuzz_target::discards"));
    for b in 0..=255u8 {
        fuzzer.run_bytes(&[b]).unwrap();
    }
}

#[test]
fn a_corpus_seeded_by_reflection_decodes_to_the_values() {
    let dir = temp_dir("fuzz-seed");
    let g = vec(int(0u32..=1000), 0..=9);
    let values = [vec![], vec![1, 2, 3], vec![999; 9], vec![1, 2, 3]];
    let files = seed_corpus(&g, &values, &dir).unwrap();
    assert_eq!(files[1], files[3], "the same value is one file");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    for (file, v) in files.iter().zip(&values) {
        assert_eq!(from_bytes(&g, &std::fs::read(file).unwrap()).as_ref(), Ok(v));
    }
    // A value out of range writes nothing, and says which.
    let other = temp_dir("fuzz-seed-bad");
    let e = seed_corpus(&g, &[vec![1], vec![1001]], &other).unwrap_err();
    assert!(matches!(e, SeedError::NotInRange(1)), "{e}");
    assert!(!other.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn structure_aware_mutants_decode_to_valid_values() {
    use refgen_fixtures::bst::{is_bst, node, Tree};
    let g = Tree::generator();
    let seeds = [
        node(Tree::Leaf, 5, Tree::Leaf),
        node(node(Tree::Leaf, 1, Tree::Leaf), 4, node(Tree::Leaf, 9, Tree::Leaf)),
        node(node(node(Tree::Leaf, 0, Tree::Leaf), 2, Tree::Leaf), 6, node(Tree::Leaf, 8, Tree::Leaf)),
    ];
    let (mut mutants, mut changed) = (0, 0);
    for t in &seeds {
        let bytes = to_bytes(&g, t).unwrap();
        for seed in 0..200 {
            let Some(m) = mutate_bytes(&g, &bytes, seed) else { continue };
            mutants += 1;
            let v = from_bytes(&g, &m).expect("a mutant decodes to a value");
            assert!(is_bst(&v), "{v:?}");
            changed += usize::from(v != *t);
        }
    }
    assert!(mutants > 400 && changed > 300, "{mutants} mutants, {changed} changed");
    // The hook's form: the mutant is written in place and fits the room it has.
    let bytes = to_bytes(&g, &seeds[2]).unwrap();
    let mut data = bytes.clone();
    data.resize(64, 0);
    let n = (0..50).find_map(|s| mutate_into(Tree::generator, &mut data, bytes.len(), 64, s)).unwrap();
    assert!(is_bst(&from_bytes(&g, &data[..n]).unwrap()));
    assert_eq!(mutate_into(Tree::generator, &mut data, bytes.len(), 0, 1), None, "no room");
}
