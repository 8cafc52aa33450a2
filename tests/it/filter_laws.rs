//! Laws of retrying filters: failed attempts recorded, replayed, reflected, shrunk away and bounded.

use super::core_laws::SEEDS;
use refgen::combinators::{int, just, pick, recursive};
use refgen::interpret::{
    generate, generate_recorded, parse, parse_tree, probability, reflect, replay_lenient, ParseError,
};
use refgen::prelude::*;
use refgen::refgen_core::laws;
use refgen::refgen_core::Stop;
use refgen_fixtures::handwritten::{is_bst, Tree};

/// An even number of 0..=99, retried up to ten times.
fn even() -> impl Gen<Value = u32> + Clone {
    int(0u32..=99).site("x").filter(|x| x % 2 == 0)
}

/// Goldstein's BST filtered at every node (a hereditary condition): keys in 0..=9, depth 4.
fn filtered_bst() -> BoxGen<Tree> {
    recursive(4, |sub| match sub {
        None => just(Tree::Leaf).boxed(),
        Some(sub) => pick(
            "tree",
            [
                ("leaf", 1, just(Tree::Leaf).boxed()),
                (
                    "node",
                    3,
                    (sub.clone(), int(0i64..=9).site("key"), sub)
                        .map(
                            |(l, k, r)| Tree::Node(Box::new(l), k, Box::new(r)),
                            |t: &Tree| match t {
                                Tree::Node(l, k, r) => Some(((**l).clone(), *k, (**r).clone())),
                                Tree::Leaf => None,
                            },
                        )
                        .filter(is_bst)
                        .boxed(),
                ),
            ],
        )
        .boxed(),
    })
}

#[test]
fn a_retrying_filter_records_each_failed_attempt_before_the_kept_one() {
    let g = even();
    let mut retried = 0;
    for seed in 0..SEEDS {
        let (x, tree) = generate_recorded(&g, seed);
        let x = x.unwrap();
        // Every draw but the last was odd, and is a failed attempt holding that draw.
        let draws = tree.choices();
        assert_eq!(draws.last(), Some(&(x as u64)));
        assert!(draws[..draws.len() - 1].iter().all(|d| d % 2 == 1), "{tree}");
        assert_eq!(tree.retry_count(), draws.len() - 1, "{tree}");
        assert!(tree.children[..tree.children.len() - 1].iter().all(|c| c.is_retry()), "{tree}");
        retried += usize::from(tree.retry_count() > 0);
        // Reflection gives the way without a failed attempt.
        assert_eq!(reflect(&g, &x), vec![tree.without_retries()]);
        // The flat sequence parses, with its failed attempts, and without them.
        assert_eq!(parse(&g, &draws), Ok(x));
        assert_eq!(parse(&g, &draws[draws.len() - 1..]), Ok(x));
    }
    assert!(retried > SEEDS as usize / 3, "only {retried} of {SEEDS} seeds retried");
    assert_eq!(laws::round_trip(&g, SEEDS), SEEDS as usize);
    assert_eq!(laws::lenient_replay(&g, SEEDS), SEEDS as usize);
    laws::same_draws(&g, SEEDS);
    laws::bytes_total(&g, 64);
}

#[test]
fn nested_retrying_filters_keep_every_law() {
    let g = filtered_bst();
    let valid = laws::round_trip(&g, SEEDS);
    assert!(valid > SEEDS as usize / 3, "{valid} of {SEEDS}");
    laws::lenient_replay(&g, SEEDS);
    laws::bytes_total(&g, 64);
    let mut nested = 0;
    for seed in 0..SEEDS {
        let (t, tree) = generate_recorded(&g, seed);
        let Ok(t) = t else { continue };
        assert!(is_bst(&t));
        nested += usize::from(tree.retry_count() > 1);
        // The probability of a value is that of its way without a failed attempt.
        let ways = reflect(&g, &t);
        assert_eq!(ways, vec![tree.without_retries()]);
        let p = probability(&g, &t);
        assert!(p > 0.0 && p <= 1.0);
        assert!((p - refgen::interpret::sequence_probability(&g, &ways[0].choices())).abs() < 1e-12);
    }
    assert!(nested > 0, "no tree retried more than once");
}

#[test]
fn failed_attempts_cost_a_bounded_number_of_draws() {
    use refgen::refgen_core::source::rng_from_seed;
    // A condition that never holds: 1 + retries attempts, then `Invalid`.
    let never = int(0u8..=9).filter(|_| false).retries(5);
    for seed in 0..50 {
        let (r, tree) = generate_recorded(&never, seed);
        assert_eq!(r, Err(Stop::Invalid));
        assert_eq!(tree.retry_count(), 6, "{tree}");
        assert_eq!(parse_tree(&never, &tree), Err(ParseError::NoValue(Stop::Invalid)));
        let mut rng = rng_from_seed(seed);
        assert_eq!(never.run_rng(&mut rng), Err(Stop::Invalid));
    }
    // Nested, each level retrying the level below: the run's budget bounds the attempts.
    let mut g: BoxGen<u8> = int(0u8..=9).site("x").filter(|_| false).boxed();
    for _ in 0..6 {
        g = g.filter(|_| false).boxed();
    }
    for seed in 0..20 {
        let (r, tree) = generate_recorded(&g, seed);
        assert_eq!(r, Err(Stop::Invalid));
        let draws = tree.choice_count() as u32;
        let budget = refgen::combinators::RETRY_BUDGET;
        assert!(draws <= budget + 1 + 7, "{draws} draws");
        assert_eq!(parse_tree(&g, &tree), Err(ParseError::NoValue(Stop::Invalid)));
    }
}

#[test]
fn lenient_replay_steps_into_failed_attempts_and_drops_deleted_ones() {
    let g = even();
    for seed in 0..SEEDS {
        let (x, tree) = generate_recorded(&g, seed);
        let x = x.unwrap();
        // Unedited: the same value and tree.
        assert_eq!(replay_lenient(&g, &tree, seed), (Ok(x), tree.clone()));
        // The failed attempts deleted: the same value, made at the first try.
        let first = tree.without_retries();
        assert_eq!(replay_lenient(&g, &first, seed), (Ok(x), first.clone()));
        // The kept attempt's draw made odd: the replay retries from nothing left in the tree.
        if tree.retry_count() == 0 {
            let mut odd = tree.clone();
            odd.children[0].choice = Some(x as u64 | 1);
            let (y, used) = replay_lenient(&g, &odd, seed);
            assert_eq!(y, Ok(0), "{odd} -> {used}");
            assert_eq!(used.retry_count(), 1);
            assert_eq!(parse_tree(&g, &used), Ok(0));
        }
    }
}

#[test]
fn shrinking_drops_failed_attempts() {
    use refgen::refgen_runtime::shrink::{shrink, Budget};
    use std::time::Duration;
    let g = filtered_bst();
    let budget = Budget { max_steps: 10_000, max_time: Duration::from_secs(60) };
    let mut shrunk_some = 0;
    for seed in 0..60 {
        let (t, tree) = generate_recorded(&g, seed);
        let Ok(t) = t else { continue };
        // A property that fails on every tree with a node: its smallest failure is one node.
        if t == Tree::Leaf || tree.retry_count() == 0 {
            continue;
        }
        shrunk_some += 1;
        let (small, _) = shrink(tree, budget, |cand| {
            let (v, used) = replay_lenient(&g, &cand, 0);
            matches!(v, Ok(Tree::Node(..))).then_some(used)
        });
        assert_eq!(small.retry_count(), 0, "{small}");
        assert_eq!(parse_tree(&g, &small), Ok(Tree::Node(Box::new(Tree::Leaf), 0, Box::new(Tree::Leaf))));
    }
    assert!(shrunk_some > 5, "{shrunk_some}");
}

#[test]
fn a_filter_of_a_filter_tells_its_failed_attempts_from_the_inner_ones() {
    // Both filters begin their attempts at the same place: the inner one's failed attempts are
    // named apart (`<retry:1>`), so a replay gives each filter its own.
    let g = even().filter(|x| x % 3 == 0);
    assert!(laws::round_trip(&g, SEEDS) > SEEDS as usize * 9 / 10);
    assert!(laws::lenient_replay(&g, SEEDS) > SEEDS as usize * 9 / 10);
    let mut both = 0;
    for seed in 0..SEEDS {
        let tree = generate_recorded(&g, seed).1;
        let text = tree.to_string();
        both += usize::from(text.contains("<retry>(") && text.contains("<retry:1>("));
    }
    assert!(both > 0);
}

#[test]
fn a_source_may_turn_retries_off() {
    use refgen::refgen_core::source::rng_from_seed;
    use refgen::refgen_core::{Request, RngSource, Site, Source};
    /// The RNG, asking filters not to retry.
    struct NoRetries<'a>(RngSource<'a>);
    impl Source for NoRetries<'_> {
        fn choose(&mut self, site: Site, request: Request<'_>) -> Result<u64, Stop> {
            self.0.choose(site, request)
        }
        fn filters_retry(&self) -> bool {
            false
        }
    }
    let g = even();
    let (mut retried, mut stopped) = (0, 0);
    for seed in 0..100 {
        let mut rng = rng_from_seed(seed);
        let once = g.run(&mut NoRetries(RngSource(&mut rng)));
        let first = int(0u32..=99).run_rng(&mut rng_from_seed(seed)).unwrap();
        match once {
            Ok(x) => assert_eq!(x, first),
            Err(e) => {
                assert_eq!((e, first % 2), (Stop::Invalid, 1));
                stopped += 1;
            }
        }
        retried += usize::from(generate(&g, seed).is_ok() && first % 2 == 1);
    }
    assert!(stopped > 20 && retried == stopped, "{stopped} {retried}");
}

#[test]
fn a_trail_that_forgets_failed_attempts_records_the_tree_without_them() {
    use refgen::refgen_core::source::{rng_from_seed, RngSource};
    use refgen::refgen_core::trail::Recorder;
    let g = filtered_bst();
    let mut retried = 0;
    for seed in 0..SEEDS {
        let (value, full) = generate_recorded(&g, seed);
        let mut rng = rng_from_seed(seed);
        let mut rec = Recorder::new(RngSource(&mut rng));
        rec.trail.forget_failed_attempts(true);
        let forgetting = g.run(&mut rec);
        // The same draws make the same value, and the tree is the full one without its failed attempts.
        assert_eq!(forgetting, value);
        // The work is still counted: every choice made, the forgotten ones included.
        assert_eq!(rec.trail.choices_made(), full.choice_count(), "seed {seed}");
        assert_eq!(rec.trail.choice_count(), full.without_retries().choice_count(), "seed {seed}");
        let (kept, _) = rec.finish();
        assert_eq!(kept, full.without_retries(), "seed {seed}");
        assert_eq!(kept.retry_count(), 0);
        retried += usize::from(full.retry_count() > 0);
        // Replayed, it makes the value again, with no failed attempt.
        if let Ok(v) = &value {
            let (again, tree) = replay_lenient(&g, &kept, seed);
            assert_eq!(again.as_ref(), Ok(v));
            assert_eq!(tree, kept);
        }
    }
    assert!(retried > SEEDS as usize / 4, "too few runs with failed attempts to test: {retried}");
}

#[test]
fn a_failure_is_reported_by_its_kept_choices_and_replays() {
    use refgen::guides::{AutoGuide, RandomGuide, RlGuide};
    use refgen_fixtures::runs::failure;
    let p = || Property::new(filtered_bst, |t: Tree| assert!(t.size() < 3, "big"));
    for seed in 0..12 {
        for (name, config) in [
            ("random", Config::new("kept").guide(|| RandomGuide)),
            ("auto", Config::new("kept").guide(AutoGuide::default)),
            ("rl", Config::new("kept").guide(RlGuide::default)),
        ] {
            // No shrinking: the failure shown is the case found, by the choices that made its value.
            let f = failure(p().check(&config.clone().seed(seed).max_shrink_steps(0)));
            assert_eq!(f.tree.retry_count(), 0, "{name}, seed {seed}: {}", f.tree);
            let again = failure(p().check(&Config::new("kept").replay(f.token.clone())));
            assert_eq!(again.args, f.args, "{name}, seed {seed}");
        }
    }
}
