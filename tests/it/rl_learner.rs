//! The Monte Carlo Control learner (RLCheck Alg. 1) and the RL guide's rewards, determinism and configuration.

use refgen::combinators::{bool, int};
use refgen::prelude::*;
use refgen::refgen_core::rng_from_seed;
use refgen::refgen_core::trail::Trail;
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guide::{Feedback, Guide, Origin, Outcome};
use refgen::refgen_runtime::guides::rl::{Abstraction, Explore, Learner, Prior, RlConfig, RlGuide};
use refgen::refgen_runtime::guides::RandomGuide;

#[test]
fn q_update_matches_a_hand_computed_episode() {
    let mut rng = rng_from_seed(7);
    let mut l = Learner::new();
    let (s0, s1) = (11u64, 22u64);

    // Episode 1: every Q is 0, so the greedy choice is a random tie-break.
    let a = l.act(s0, 3, 0.0, &mut rng);
    let b = l.act(s1, 2, 0.0, &mut rng);
    assert_eq!(l.episode_len(), 2);
    l.update(20.0);
    assert_eq!(l.episode_len(), 0);
    assert_eq!(l.q(s0, 3, a), 20.0);
    assert_eq!(l.q(s1, 2, b), 20.0);
    assert_eq!(l.visits(s0, 3, a), 1);
    for other in (0..3).filter(|&c| c != a) {
        assert_eq!(l.q(s0, 3, other), 0.0, "unvisited pairs keep Q = 0");
        assert_eq!(l.visits(s0, 3, other), 0);
    }

    // Episode 2: greedy picks `a` again (Q 20 > 0), twice in the same state:
    // every visit counts, no discount. By hand:
    //   first visit:  Q = (-1 + 20 * 1) / 2 = 9.5
    //   second visit: Q = (-1 + 9.5 * 2) / 3 = 6.0
    assert_eq!(l.act(s0, 3, 0.0, &mut rng), a);
    assert_eq!(l.act(s0, 3, 0.0, &mut rng), a);
    l.update(-1.0);
    assert_eq!(l.q(s0, 3, a), 6.0);
    assert_eq!(l.visits(s0, 3, a), 3);
    // s1 was not in episode 2: unchanged.
    assert_eq!(l.q(s1, 2, b), 20.0);
    assert_eq!(l.visits(s1, 2, b), 1);

    // A forgotten episode changes nothing.
    l.act(s0, 3, 0.0, &mut rng);
    l.forget_episode();
    l.update(100.0);
    assert_eq!(l.q(s0, 3, a), 6.0);

    // The same state with a different number of choices is a different table row.
    assert_eq!(l.q(s0, 4, a), 0.0);
    assert_eq!(l.states(), 2);
}

#[test]
fn greedy_ties_are_broken_at_random() {
    let mut rng = rng_from_seed(1);
    let mut l = Learner::new();
    let mut seen = [false; 4];
    for _ in 0..200 {
        seen[l.act(5, 4, 0.0, &mut rng)] = true;
        l.forget_episode();
    }
    assert_eq!(seen, [true; 4], "all tied choices get chosen");
}

#[test]
fn epsilon_one_is_uniform_and_epsilon_zero_is_greedy() {
    let mut rng = rng_from_seed(3);
    let mut l = Learner::new();
    let best = l.act(9, 2, 0.0, &mut rng);
    l.update(20.0);
    // Greedy: always the rewarded choice.
    for _ in 0..100 {
        assert_eq!(l.act(9, 2, 0.0, &mut rng), best);
        l.forget_episode();
    }
    // epsilon = 1: the other choice is taken too.
    let others = (0..200)
        .filter(|_| {
            let c = l.act(9, 2, 1.0, &mut rng);
            l.forget_episode();
            c != best
        })
        .count();
    assert!((60..=140).contains(&others), "{others} of 200 random choices were the other one");
}

#[test]
fn the_defaults_are_the_papers() {
    let c = RlConfig::default();
    assert_eq!(c.epsilon, 0.25);
    assert_eq!((c.r_unique, c.r_valid, c.r_invalid), (20.0, 0.0, -1.0));
    assert_eq!(c.window, 4);
    assert_eq!(c.abstraction, Abstraction::TreeLR);
    assert!(!c.sibling_picks);
    let trail = Trail::new();
    let fb = |valid, new| Feedback {
        origin: Origin::Planned,
        failed_attempts: None,
        outcome: if valid { Outcome::Passed } else { Outcome::Discarded },
        valid,
        new,
        utility: None,
        key: None,
        trail: &trail,
        state_machine: false,
    };
    assert_eq!(c.reward(&fb(true, true)), 20.0);
    assert_eq!(c.reward(&fb(true, false)), 0.0);
    assert_eq!(c.reward(&fb(false, false)), -1.0);
    assert_eq!(RlGuide::default().config(), &c);
}

#[test]
fn the_guide_learns_from_its_rewards() {
    // One choice: `true` is invalid.
    let g = bool().site("flag").filter(|b| !*b);
    let greedy = RlConfig::default().epsilon(0.0);

    // Invalid is punished: after at most one invalid case the guide only answers `false`.
    let out = generate_distinct(&g, &mut RlGuide::new(greedy), 50, 1);
    assert!(out.invalid <= 1, "{} invalid", out.invalid);
    assert_eq!(out.unique_valid, vec![false]);

    // Reward invalid values and punish valid ones instead: the same guide now keeps answering `true`.
    let mut perverse = RlGuide::new(greedy.rewards(-5.0, -5.0, 30.0));
    let out = generate_distinct(&g, &mut perverse, 50, 1);
    assert!(out.invalid >= 49, "{} invalid", out.invalid);
    assert_eq!(perverse.sites(), vec!["flag"]);
    assert_eq!(perverse.learner("flag").map(|l| l.states()), Some(1));
}

#[test]
fn same_seed_same_results() {
    let g = (int(0u8..=20).site("a"), int(0u8..=20).site("b"), int(0u32..=1_000_000).site("c"))
        .filter(|(a, b, c)| a < b && c % 2 == 0);
    for abstraction in Abstraction::ALL {
        let run = |seed| generate_distinct(&g, &mut RlGuide::with_abstraction(abstraction), 3_000, seed);
        let (x, y, z) = (run(4), run(4), run(5));
        assert_eq!(x, y, "{abstraction}: same seed, same values");
        assert_ne!(x.unique_valid, z.unique_valid, "{abstraction}: another seed, other values");
        assert_eq!(x.valid + x.invalid, x.trials);
        // The wide range is learnt over its buckets, and values still spread inside them.
        assert!(x.unique_valid.len() > 100);
    }
}

#[test]
fn distinct_means_structurally_distinct() {
    let g = int(0u8..=3).site("x");
    let out = generate_distinct(&g, &mut RandomGuide, 500, 9);
    let mut got = out.unique_valid.clone();
    got.sort();
    assert_eq!(got, vec![0, 1, 2, 3]);
    assert_eq!(out.valid, 500);
    assert_eq!(out.invalid, 0);
}

#[test]
fn forgetting_is_the_mean_until_one_over_alpha_visits_then_a_constant_step() {
    let mut rng = rng_from_seed(2);
    let mut l = Learner::with_explore(Explore { forget: Some(0.25), ..Explore::PAPER });
    let a = l.act(1, 1, 0.0, &mut rng);
    let mut update = |l: &mut Learner, r: f64| {
        l.act(1, 1, 0.0, &mut rng);
        l.update(r);
    };
    l.update(20.0); // visit 1: the mean, 20
    update(&mut l, 0.0); // visit 2: the mean, 10
    update(&mut l, 0.0); // visit 3: the mean, 20/3
    assert_eq!(l.q(1, 1, a), 20.0 / 3.0);
    update(&mut l, 0.0); // visit 4: 1/4 = α, the mean still: 5
    assert_eq!(l.q(1, 1, a), 5.0);
    update(&mut l, 0.0); // visit 5: the step stays at α = 1/4 (the mean would be 4): 5 - 5/4 = 3.75
    assert_eq!(l.q(1, 1, a), 3.75);
    update(&mut l, 20.0); // 3.75 + (20 - 3.75) / 4 = 7.8125
    assert_eq!(l.q(1, 1, a), 7.8125);
    assert_eq!(l.visits(1, 1, a), 6);
}

/// How often each of three choices is taken in 30,000 acts, after one
/// episode has set `Q = (reward, 0, 0)` (the other two at their start).
fn frequencies(explore: Explore, reward: f64) -> [f64; 3] {
    let mut rng = rng_from_seed(11);
    let mut l = Learner::with_explore(explore);
    // Make choice 0 the rewarded one: act until the learner picks it, then reward that episode alone.
    while l.act(3, 3, 0.0, &mut rng) != 0 {
        l.forget_episode();
    }
    l.update(reward);
    let mut counts = [0.0; 3];
    for _ in 0..30_000 {
        counts[l.act(3, 3, 0.0, &mut rng)] += 1.0;
        l.forget_episode();
    }
    counts.map(|c| c / 30_000.0)
}

#[test]
fn the_softmax_policy_draws_by_boltzmann_weight() {
    // Q = (1, 0, 0) at τ = 1: weights e, 1, 1.
    let at_one = Explore { softmax: Some(1.0), ..Explore::PAPER };
    let f = frequencies(at_one, 1.0);
    let e = std::f64::consts::E;
    let expected = [e / (e + 2.0), 1.0 / (e + 2.0), 1.0 / (e + 2.0)];
    for i in 0..3 {
        assert!((f[i] - expected[i]).abs() < 0.015, "choice {i}: {} against {}", f[i], expected[i]);
    }
    // Greedy (the paper): only the rewarded choice.
    assert_eq!(frequencies(Explore::PAPER, 1.0), [1.0, 0.0, 0.0]);
    // A far better choice takes nearly every draw (weights e^20, 1, 1 at τ = 1).
    assert!(frequencies(at_one, 20.0)[0] > 0.999);
    // Halving τ squares the odds: Q = (1, 0, 0) at τ = 0.5 gives weights e², 1, 1.
    let f = frequencies(Explore::SOFTMAX, 1.0);
    let e2 = std::f64::consts::E.powi(2);
    assert!((f[0] - e2 / (e2 + 2.0)).abs() < 0.015, "{} against {}", f[0], e2 / (e2 + 2.0));
}

#[test]
fn the_novelty_bonus_tries_what_was_tried_least() {
    // Q = (1, 0, 0): greedy would stay on choice 0 forever; with the bonus,
    // each untried choice is worth 5·sqrt(ln 2 / 1) ≈ 4.2 against 1 + 5·sqrt(ln 2 / 2) ≈ 3.9.
    let mut rng = rng_from_seed(4);
    let mut l = Learner::with_explore(Explore::BONUS);
    while l.act(3, 3, 0.0, &mut rng) != 0 {
        l.forget_episode();
    }
    l.update(1.0);
    let next = l.act(3, 3, 0.0, &mut rng);
    assert_ne!(next, 0, "an untried choice comes before the tried one");
}

#[test]
fn exploration_names_the_guide_and_the_paper_mode_is_the_default() {
    assert_eq!(RlConfig::default().explore, Explore::PAPER);
    assert_eq!(RlGuide::default().name(), "rl");
    let diverse = RlGuide::new(RlConfig::diverse());
    assert_eq!(diverse.name(), "rl(explore = diverse)");
    // The name is the one `#[property(guide = ...)]` writes: only the options that depart from the defaults.
    let tuned = RlConfig::diverse().epsilon(0.1).window(2).abstraction(refgen::guides::rl::Abstraction::Sequence);
    assert_eq!(RlGuide::new(tuned).name(), "rl(explore = diverse, epsilon = 0.1, window = 2, abstraction = Sequence)");
    assert_eq!(RlGuide::new(RlConfig::default().explore(Explore::FORGET)).name(), "rl(explore = forget)");
    assert_eq!(diverse.config().epsilon, 0.05);
}

#[test]
fn diverse_exploration_finds_more_distinct_valid_values() {
    // Strictly increasing triples from 0..=9: 120 of them.
    let g = (int(0u8..=9).site("a"), int(0u8..=9).site("b"), int(0u8..=9).site("c"))
        .filter(|(a, b, c)| a < b && b < c)
        .retries(0);
    let paper = generate_distinct(&g, &mut RlGuide::default(), 2_000, 1);
    let diverse = generate_distinct(&g, &mut RlGuide::new(RlConfig::diverse()), 2_000, 1);
    assert!(diverse.unique_valid.iter().all(|(a, b, c)| a < b && b < c));
    assert!(
        diverse.unique_valid.len() > paper.unique_valid.len(),
        "diverse {} against paper {}",
        diverse.unique_valid.len(),
        paper.unique_valid.len()
    );
}

/// A pick whose second option weighs 9 times the first.
fn heavy_pick() -> impl Gen<Value = u8> {
    use refgen::combinators::{just, pick};
    pick("p", [("light", 1, just(0u8).boxed()), ("heavy", 9, just(1u8).boxed())])
}

/// The first case of a fresh guide: by default drawn as the generator draws, with
/// `prior = uniform` as RLCheck's uniform start.
#[test]
fn the_first_policy_is_the_generators_distribution() {
    let heavy_share = |prior: Prior| {
        let runs = 2_000;
        let heavy = (0..runs)
            .filter(|&seed| {
                let out =
                    generate_distinct(&heavy_pick(), &mut RlGuide::new(RlConfig::default().prior(prior)), 1, seed);
                out.unique_valid == vec![1]
            })
            .count();
        heavy as f64 / runs as f64
    };
    let weights = heavy_share(Prior::Weights);
    assert!((0.87..=0.93).contains(&weights), "{weights}");
    let uniform = heavy_share(Prior::Uniform);
    assert!((0.45..=0.55).contains(&uniform), "{uniform}");
    assert_eq!(RlConfig::default().prior, Prior::Weights);
    assert_eq!(RlGuide::new(RlConfig::default().prior(Prior::Uniform)).name(), "rl(prior = uniform)");
}

/// The weights only start the policy: when the heavy option is invalid, the rewards take over.
#[test]
fn rewards_take_over_from_the_weights() {
    let g = heavy_pick().filter(|&x| x == 0);
    let mut guide = RlGuide::new(RlConfig::default().epsilon(0.0));
    let out = generate_distinct(&g, &mut guide, 200, 1);
    assert!(out.invalid <= 2, "{} of 200 invalid", out.invalid);
}

/// Where every weight is equal, starting from the weights is RLCheck's policy, draw for draw.
#[test]
fn equal_weights_draw_as_the_uniform_start() {
    let g = (int(0u8..=9).site("a"), int(0u8..=9).site("b"), bool().site("c")).filter(|(a, b, _)| a < b);
    for explore in [Explore::PAPER, Explore::DIVERSE] {
        let config = RlConfig::default().explore(explore);
        let weights = generate_distinct(&g, &mut RlGuide::new(config), 1_000, 3);
        let uniform = generate_distinct(&g, &mut RlGuide::new(config.prior(Prior::Uniform)), 1_000, 3);
        assert_eq!(weights.unique_valid, uniform.unique_valid);
        assert_eq!(weights.invalid, uniform.invalid);
    }
}
