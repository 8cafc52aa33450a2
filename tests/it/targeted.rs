//! Targeted properties: `maximize!` / `minimize!`, the best utility in reports, and simulated annealing
//! (`guide = sa`) finding what random generation does not, on valid inputs only.

use refgen::combinators::{int, vec};
use refgen::guides::sa::{SaConfig, SaGuide};
use refgen::guides::RandomGuide;
use refgen::prelude::*;
use refgen::refgen_core::source::DetRng;
use refgen::runner::RunError;

use refgen_fixtures::bst::{is_bst, Tree};

/// Fails only when the numbers sum to more than 3,300: random lists of at most 40 numbers of at most
/// 100 sum to 2,000 ± 180 at their longest.
fn big_sum() -> Property<Vec<u32>> {
    Property::new(
        || vec(int(0u32..=100), 0..=40),
        |xs: Vec<u32>| {
            let sum: u32 = xs.iter().sum();
            maximize!(sum);
            sum <= 3_300
        },
    )
}

#[test]
fn simulated_annealing_finds_what_random_generation_does_not() {
    for seed in 1..=5 {
        let cfg = Config::new("big_sum").cases(10_000).seed(seed).max_shrink_steps(0);
        let random = big_sum().check(&cfg.clone().guide(|| RandomGuide)).expect("random generation should not find it");
        let best = random.best_utility.expect("the property reports a utility");
        assert!(best.utility < 3_000.0, "seed {seed}: random reached {}", best.utility);
        match big_sum().check(&cfg.guide(SaGuide::default)) {
            Err(RunError::Failed(f)) => {
                let best = f.best_utility.expect("the best utility is reported");
                assert!(best.utility > 3_300.0, "seed {seed}: {best}");
                assert!(f.to_string().contains("best utility"), "{f}");
                assert!(f.guide_notes[0].starts_with("simulated annealing: "), "{f}");
                assert!(f.to_string().contains("accepted"), "{f}");
            }
            other => panic!("seed {seed}: simulated annealing should find it: {other:?}"),
        }
    }
}

#[test]
fn minimize_is_maximizing_the_negation() {
    let p = Property::new(
        || int(0u32..=1_000_000),
        |x: u32| {
            minimize!((x as i64 - 123_456).abs());
        },
    );
    let cfg = Config::new("near").cases(3_000).seed(3);
    let random = p.check(&cfg.clone().guide(|| RandomGuide)).unwrap().best_utility.unwrap();
    let sa_report = p.check(&cfg.guide(SaGuide::default)).unwrap();
    assert!(sa_report.statistics().contains("simulated annealing: 3000 steps"), "{}", sa_report.statistics());
    let sa = sa_report.best_utility.unwrap();
    assert!(random.utility <= 0.0 && sa.utility <= 0.0);
    assert!(sa.utility > random.utility, "annealing got closer: {} against {}", sa.utility, random.utility);
    assert!(sa.utility > -100.0, "within 100 of the target: {}", sa.utility);
}

fn size(t: &Tree) -> usize {
    match t {
        Tree::Leaf => 0,
        Tree::Node(l, _, r) => 1 + size(l) + size(r),
    }
}

// The neighbours of a type with `#[assume]` are replayed leniently and checked: the property only sees
// valid binary search trees, while the search grows them.
#[property(cases = 3000, guide = sa)]
fn annealing_keeps_the_validity_condition(t: Tree) {
    assert!(is_bst(&t), "an invalid neighbour reached the property: {t:?}");
    maximize!(size(&t));
}

#[test]
fn annealing_grows_valid_trees() {
    let p = Property::new(Tree::generator, |t: Tree| {
        assert!(is_bst(&t));
        maximize!(size(&t));
    });
    let cfg = Config::new("bst_sa").cases(3_000).seed(1);
    let random = p.check(&cfg.clone().guide(|| RandomGuide)).unwrap().best_utility.unwrap();
    let sa = p.check(&cfg.guide(SaGuide::default)).unwrap().best_utility.unwrap();
    assert!(sa.utility >= random.utility + 2.0, "annealing {}, random {}", sa.utility, random.utility);
}

/// Sorted lists, stated once.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.windows(2).all(|w| w[0] <= w[1]))]
struct Sorted(#[choice(len = 0..=12)] Vec<u8>);

#[property(cases = 2000, guide = sa(steps = 2000, restart_after = 300, initial_temp = 0.8))]
fn annealing_keeps_lists_sorted(s: Sorted) {
    assert!(s.0.windows(2).all(|w| w[0] <= w[1]), "{s:?}");
    maximize!(s.0.len());
}

/// A neighbourhood function written by hand: one more, wrapping.
fn bump(x: &u16, _t: f64, _rng: &mut DetRng) -> u16 {
    x.wrapping_add(1)
}

#[test]
fn a_neighbourhood_written_by_hand_is_used() {
    let p = Property::new(
        || int(0u16..=u16::MAX),
        |x: u16| {
            maximize!(x);
        },
    );
    let cfg = Config::new("bump").cases(200).seed(5);
    let guide = move || SaGuide::with_neighbour(SaConfig::default(), int(0u16..=u16::MAX).boxed(), bump);
    let report = p.check(&cfg.guide(guide)).unwrap();
    assert_eq!(report.guide, "sa(neighbour)");
    // Every step is one more: the best is the first value plus 199 (the case the search started from is case 0).
    let best = report.best_utility.unwrap();
    assert_eq!(best.case, 199);
}

#[property(cases = 300, guide = sa(neighbour = bump_by_macro))]
fn the_macro_takes_a_neighbourhood_function(x: u16) {
    maximize!(x);
}

fn bump_by_macro(x: &u16, _t: f64, _rng: &mut DetRng) -> u16 {
    x.saturating_add(3)
}

#[test]
fn annealing_starts_from_an_example() {
    let p = || {
        Property::new(
            || int(0u32..=1_000_000),
            |x: u32| {
                maximize!(x);
            },
        )
    };
    // At temperature 0 an integer moves by at most 1: the search stays near where it started.
    let cold = || SaGuide::new(SaConfig::default().initial_temp(0.0));
    let cfg = Config::new("start").cases(50).seed(1);
    let from_example = p().example(|| 999_000u32).check(&cfg.clone().guide(cold)).unwrap();
    let best = from_example.best_utility.unwrap().utility;
    assert!((999_000.0..=999_050.0).contains(&best), "{best}");
    let from_generator = p().check(&cfg.guide(cold)).unwrap().best_utility.unwrap().utility;
    assert!(from_generator < 999_000.0, "{from_generator}");
}

/// The default guide moves to simulated annealing at the first utility, and finds what random generation
/// does not (the property of `simulated_annealing_finds_what_random_generation_does_not`).
#[test]
fn the_default_guide_searches_on_a_reported_utility() {
    let cfg = Config::new("big_sum_auto").cases(10_000).seed(1).max_shrink_steps(0);
    match big_sum().check(&cfg) {
        Err(RunError::Failed(f)) => {
            assert_eq!(f.guide, "auto");
            assert!(f.guide_notes[0].starts_with("auto: shares the cases with sa after case #0"), "{f}");
            assert!(f.guide_notes[1].starts_with("simulated annealing: "), "{f}");
            assert!(f.warnings.is_empty(), "{:?}", f.warnings);
        }
        other => panic!("the default guide should search on the utility: {other:?}"),
    }
}

/// A utility under a guide that does not search on it is said once, in the report's warnings and notes.
#[test]
fn a_utility_with_nowhere_to_go_is_said() {
    let p = Property::new(|| int(0u8..=9), |x: u8| maximize!(x));
    let report = p.check(&Config::new("nowhere").cases(50).guide(|| RandomGuide)).unwrap();
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(report.warnings[0].contains("the guide `random` does not search on it"), "{:?}", report.warnings);
    assert!(report.guide_notes.iter().any(|n| n.contains("guide = sa")), "{:?}", report.guide_notes);
    // A property without a utility, or a guide that searches on it, is not warned.
    let quiet = Property::new(|| int(0u8..=9), |x: u8| x < 10);
    assert!(quiet.check(&Config::new("quiet").cases(50).guide(|| RandomGuide)).unwrap().warnings.is_empty());
    let sa = p.check(&Config::new("sa").cases(50).guide(SaGuide::default)).unwrap();
    assert!(sa.warnings.is_empty(), "{:?}", sa.warnings);
}

/// `maximize!` takes any primitive number, or a reference to one.
#[test]
fn maximize_takes_every_primitive_number() {
    let p = Property::new(
        || int(0u8..=9),
        |x: u8| {
            maximize!(x);
            maximize!(&x);
            maximize!(x as i128 - 100);
            maximize!(f32::from(x) / 2.0);
            minimize!(usize::from(x));
            target!(3);
        },
    );
    let report = p.check(&Config::new("numbers").cases(50).guide(SaGuide::default)).unwrap();
    assert_eq!(report.best_utility.unwrap().utility, 9.0);
}

/// The values a search on `x` (maximized) visits, in order, under `seed`.
fn visited(seed: u64) -> Vec<Vec<u32>> {
    use std::sync::{Arc, Mutex};
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let p = Property::new(
        || vec(int(0u32..=1_000), 3..=3),
        move |xs: Vec<u32>| {
            log.lock().unwrap().push(xs.clone());
            maximize!(xs.iter().sum::<u32>() as f64);
        },
    );
    p.check(&Config::new("sa seeds").seed(seed).cases(60).no_regressions().guide(SaGuide::default)).unwrap();
    let v = seen.lock().unwrap().clone();
    v
}

/// Two runs with other seeds make other searches: the steps (which parts change, and by how much) follow
/// the run, not only the case's number. (Each step's change is the difference of two visited values.)
#[test]
fn other_seeds_make_other_searches() {
    let steps = |v: &[Vec<u32>]| -> Vec<Vec<i64>> {
        v.windows(2).map(|w| w[0].iter().zip(&w[1]).map(|(a, b)| *b as i64 - *a as i64).collect()).collect()
    };
    let (a, b) = (visited(1), visited(2));
    assert_eq!(visited(1), a, "same seed, same search");
    let (sa, sb) = (steps(&a), steps(&b));
    // Most neighbours at low temperature change nothing; compare the steps that change something.
    let moved = |x: &Vec<i64>| x.iter().any(|&d| d != 0);
    let pairs: Vec<_> = sa.iter().zip(&sb).filter(|(x, y)| moved(x) || moved(y)).collect();
    let same = pairs.iter().filter(|(x, y)| x == y).count();
    assert!(pairs.len() >= 5 && same * 2 < pairs.len(), "{same} of {} moving steps the same", pairs.len());
}

/// A utility that leads away from the failure (`x` near 0, the failures at 4 values past 128) does not
/// make the default guide miss what random generation finds: random generation keeps at least a
/// sixteenth of the cases (`MIN_SHARE`), 250 of 4,000 here, where it finds a failure in 64 on average.
#[test]
fn a_misleading_utility_does_not_make_the_default_guide_miss_what_random_generation_finds() {
    let p = || {
        Property::new(
            || int(0u8..=255),
            |x: u8| {
                maximize!(255 - u32::from(x));
                !(x >= 128 && x % 32 == 7)
            },
        )
    };
    for seed in 1..=5 {
        let cfg = Config::new("misleading").cases(4_000).seed(seed).max_shrink_steps(0);
        let random = p().check(&cfg.clone().guide(|| RandomGuide));
        assert!(matches!(random, Err(RunError::Failed(_))), "seed {seed}: random generation finds it");
        let Err(RunError::Failed(f)) = p().check(&cfg.clone().guide(refgen::guides::AutoGuide::default)) else {
            panic!("seed {seed}: the default guide with the utility misses what random generation finds")
        };
        assert!(f.guide_notes[0].starts_with("auto: shares the cases with sa"), "{}", f.guide_notes[0]);
        // Nor does it starve the search: it made a share of the cases since the switch.
        let words: Vec<&str> = f.guide_notes[0].split(' ').collect();
        let at = words.iter().position(|w| *w == "made").expect("the note says how many cases the search made");
        let (made, of): (u64, u64) = (words[at + 1].parse().unwrap(), words[at + 4].parse().unwrap());
        assert!(made > 0 && made < of, "seed {seed}: {}", f.guide_notes[0]);
    }
}
