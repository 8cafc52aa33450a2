//! Grafting: a graft case is a value the generator makes, recorded as made, and it grows red-black trees
//! past the black height random generation and splicing reach.

use refgen::config::Config;
use refgen::guide::{run_guided, CaseInfo, Erased, Feedback, Guide, Outcome};
use refgen::guides::{MutateConfig, MutateGuide};
use refgen::prelude::*;
use refgen_core::interpret::{parse_tree, reflect};
use refgen_core::source::rng_from_seed;
use refgen_core::trail::Trail;
use refgen_runtime::hashing::value_key;
use std::collections::HashSet;
use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Reflective)]
pub(crate) enum Color {
    R,
    B,
}

/// A red-black tree as a user would derive it: every subtree ordered, with no red node under a red one and
/// one black height; at the top, a black root.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 6)]
#[assume(black_height(self).is_some() && ordered(self))]
#[assume(!matches!(self, Rbt::T(Color::R, ..)), top)]
pub(crate) enum Rbt {
    #[choice(weight = 1)]
    E,
    #[choice(weight = 3)]
    T(Color, Box<Rbt>, #[choice(range = 0..=15)] u8, Box<Rbt>),
}

fn red(t: &Rbt) -> bool {
    matches!(t, Rbt::T(Color::R, ..))
}

/// The black nodes on every path, when they agree and no red node is under a red one.
fn black_height(t: &Rbt) -> Option<usize> {
    match t {
        Rbt::E => Some(0),
        Rbt::T(c, l, _, r) => {
            let (hl, hr) = (black_height(l)?, black_height(r)?);
            let fine = hl == hr && !(*c == Color::R && (red(l) || red(r)));
            fine.then_some(hl + usize::from(*c == Color::B))
        }
    }
}

pub(crate) fn keys(t: &Rbt, out: &mut Vec<u8>) {
    if let Rbt::T(_, l, k, r) = t {
        keys(l, out);
        out.push(*k);
        keys(r, out);
    }
}

fn ordered(t: &Rbt) -> bool {
    let mut ks = Vec::new();
    keys(t, &mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

pub(crate) fn valid(t: &Rbt) -> bool {
    black_height(t).is_some() && ordered(t) && !red(t)
}

/// Every case of a guide that grafts half the time (once it has donors) is rejected or a valid value whose
/// recorded tree, failed attempts included, parses strictly to the same value; without its failed
/// attempts, the tree is one reflection gives for the value. Some graft cases are valid after several
/// failed attempts: a retry goes on from the failed attempt's kept parts.
#[test]
fn grafted_cases_are_values_the_generator_makes_recorded_as_made() {
    let g = Rbt::generator();
    let handle = Erased(&g);
    let mut guide = MutateGuide::new(MutateConfig::default().fresh(0.5).graft(0.5));
    let (mut trail, mut seen, mut valid_cases, mut retried_grafts) = (Trail::new(), HashSet::new(), 0, 0);
    for index in 0..3000 {
        let case = CaseInfo { index, budget: 3000, gen: &handle };
        let grafted = guide.stats().grafted;
        let run = run_guided(&g, &mut guide, &mut trail, case, &mut rng_from_seed(index));
        let (made, origin, failed_attempts) = (run.value, run.origin, run.failed_attempts);
        let tree = trail.to_tree();
        if let Ok(t) = &made {
            valid_cases += 1;
            retried_grafts += usize::from(guide.stats().grafted > grafted && tree.retry_count() >= 2);
            assert!(valid(t), "{t:?}");
            assert_eq!(parse_tree(&g, &tree).as_ref(), Ok(t), "{tree}");
            assert!(reflect(&g, t).contains(&tree.without_retries()), "{t:?}: {tree}");
        }
        let key = made.as_ref().ok().map(value_key);
        let outcome = if made.is_ok() { Outcome::Passed } else { Outcome::Discarded };
        let new = key.is_some_and(|k| seen.insert(k));
        guide.feedback(&Feedback {
            origin,
            failed_attempts,
            outcome,
            valid: made.is_ok(),
            new,
            utility: None,
            key,
            trail: &trail,
            state_machine: false,
        });
    }
    let stats = guide.stats();
    assert!(stats.grafted > 500, "{stats:?}");
    assert!(stats.grafted > stats.graft_rejected, "some grafted cases are valid: {stats:?}");
    assert!(valid_cases > 100, "{valid_cases}");
    // 107 at these seeds; 9 when a retry's first part was taken for its first choice (the retries that
    // began with a pick never got past it).
    assert!(retried_grafts > 50, "valid graft cases after two or more failed attempts: {retried_grafts}");
}

/// The black heights of the trees a guide makes, by test name.
static HEIGHTS: Mutex<Vec<(&'static str, usize)>> = Mutex::new(Vec::new());

fn heights_under(name: &'static str, config: Config) -> Vec<usize> {
    let p = Property::new(Rbt::generator, move |t: Rbt| {
        HEIGHTS.lock().unwrap().push((name, black_height(&t).expect("valid")));
    });
    p.check(&config.cases(4000).no_regressions()).unwrap();
    let mut all = HEIGHTS.lock().unwrap();
    let mine = all.iter().filter(|(n, _)| *n == name).map(|&(_, h)| h).collect();
    all.retain(|(n, _)| *n != name);
    mine
}

/// Mutation with grafting makes red-black trees of black height 3; random generation and mutation without
/// grafting (splicing and rotations included) make none at the same seed and budget.
#[test]
fn grafting_grows_red_black_trees_past_splicing() {
    let tall = |hs: &[usize]| hs.iter().filter(|&&h| h >= 3).count();
    let mutate = |graft| move || MutateGuide::new(MutateConfig::default().fresh(0.5).graft(graft));
    // Reaching black height 3 is a step that, once made, mutation and grafting build on: at 4000 cases,
    // each of seeds 1 to 8 reached it (1, 5, 7 and 8 before the run gave up for discards, when rejected
    // mutants counted as discards), where without grafting none of the eight did. Donors remapped in
    // order (their keys moved in the range) are what make it common: before them, only seed 4 did.
    let seed = 4;
    let grafted = heights_under("graft", Config::new("rbt graft").seed(seed).guide(mutate(0.25)));
    let spliced = heights_under("no graft", Config::new("rbt no graft").seed(seed).guide(mutate(0.0)));
    let random = heights_under("random", Config::new("rbt random").seed(seed).guide(|| refgen::guides::RandomGuide));
    assert_eq!(tall(&random), 0);
    assert_eq!(tall(&spliced), 0);
    assert!(tall(&grafted) > 40, "black height 3 or more: {} of {}", tall(&grafted), grafted.len());
}

/// The default guide's runs of a derived red-black tree at the default number of cases make their valid
/// values within the discard budget: its rotations of such a tree, 95% rejected, are rejected edits, not
/// discards (when they counted as discards, 4 of these 8 runs gave up as vacuous).
#[test]
fn the_default_guide_tests_red_black_trees_within_its_discard_budget() {
    for seed in 1..=8 {
        let p = Property::new(Rbt::generator, |t: Rbt| assert!(valid(&t)));
        let report = p.check(&Config::new("rbt default").seed(seed).no_regressions());
        let report = report.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        // Its edits were rejected, within their own budget (no warning that it was spent).
        assert!(report.rejected > 0 && report.warnings.is_empty(), "seed {seed}: {report:?}");
    }
}
