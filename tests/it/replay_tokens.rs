//! Every printed replay token makes again exactly the input its report shows, under every guide
//! and whatever the shrink budget.

use refgen::refgen_runtime::config::Config;
use refgen::refgen_runtime::guide::Guide;
use refgen::refgen_runtime::guides::{AutoGuide, CgsGuide, MutateGuide, RandomGuide, RlGuide, SaGuide, TunedGuide};
use refgen::refgen_runtime::runner::Property;
use refgen_fixtures::rlcheck::{bst_gen, Bst};
use refgen_fixtures::runs::failure;
use std::sync::Arc;

/// The keys of a BST in order, with the bug of `rl_find_bug`: those past the fifth are lost.
fn buggy_keys(t: &Bst) -> Vec<u8> {
    fn go(t: &Bst, out: &mut Vec<u8>) {
        if let Some(l) = &t.left {
            go(l, out);
        }
        if out.len() < 5 {
            out.push(t.value);
        }
        if let Some(r) = &t.right {
            go(r, out);
        }
    }
    let mut out = Vec::new();
    go(t, &mut out);
    out
}

/// Makes a guide.
type MakeGuide = fn() -> Box<dyn Guide>;

/// Every guide, by name.
fn guides() -> Vec<(&'static str, MakeGuide)> {
    vec![
        ("random", || Box::new(RandomGuide)),
        ("rl", || Box::new(RlGuide::default())),
        ("sa", || Box::new(SaGuide::default())),
        ("cgs", || Box::new(CgsGuide::default())),
        ("mutate", || Box::new(MutateGuide::default())),
        ("tuned", || {
            let leaf = |v| Some(Box::new(Bst { value: v, left: None, right: None }));
            let like = vec![Bst { value: 5, left: leaf(2), right: leaf(8) }];
            Box::new(TunedGuide::from_examples(&bst_gen(), like, Vec::<Bst>::new()).unwrap())
        }),
        ("auto", || Box::new(AutoGuide::default())),
    ]
}

/// Runs `p` under `config`, which must fail; replays the printed token, which must fail with the same
/// input, shown the same and parsed the same.
fn replays_exactly(p: &Property<Bst>, config: &Config, what: &str) {
    let f = failure(p.check(config));
    let again = failure(p.check(&config.clone().replay(f.token.clone())));
    assert_eq!(again.args, f.args, "{what}: the token {} replays another input", f.token);
    assert_eq!(again.token, f.token, "{what}");
    assert_eq!(p.value_of(&again), p.value_of(&f), "{what}");
    assert!(p.value_of(&f).is_some(), "{what}");
}

/// The failure the issue was found with: the BST bug that the RL guide finds, whatever the shrink budget
/// (a budget that stops the shrinker early leaves a case another replay would shrink further).
#[test]
fn a_token_printed_for_a_bst_failure_found_by_rl_replays_its_input() {
    let p = Property::new(bst_gen, |t: Bst| buggy_keys(&t).len() == t.size());
    for steps in [0, 1, 10, 100, u64::MAX] {
        for seed in 1..=3 {
            let config = Config::new("tokens::rl_bst").seed(seed).cases(5_000).max_shrink_steps(steps);
            replays_exactly(&p, &config.guide(RlGuide::default), &format!("{steps} shrink steps, seed {seed}"));
        }
    }
}

#[test]
fn a_token_replays_its_input_under_every_guide() {
    let p = Property::new(bst_gen, |t: Bst| t.size() < 4);
    for (name, guide) in guides() {
        for steps in [0, 3, u64::MAX] {
            for seed in 1..=2 {
                let config = Config::new(format!("tokens::{name}")).seed(seed).cases(20_000).max_shrink_steps(steps);
                let config = Config { guide: Arc::new(guide), ..config };
                replays_exactly(&p, &config, &format!("{name}, {steps} shrink steps, seed {seed}"));
            }
        }
    }
}
