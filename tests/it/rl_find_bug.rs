//! A property whose precondition random generation almost never meets: the RL guide finds its bug with the same case budget.

use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guide::Guide;
use refgen::refgen_runtime::guides::{RandomGuide, RlGuide};
use refgen_fixtures::rlcheck::{bst_gen, Bst};

/// The keys of a BST in order, with a bug: a fixed buffer of `N` slots that
/// silently drops the keys beyond it. Only a valid BST of more than `N`
/// nodes shows the bug.
fn buggy_keys(t: &Bst) -> Vec<u8> {
    const N: usize = 5;
    fn go(t: &Bst, buf: &mut [u8; N], len: &mut usize) {
        if let Some(l) = &t.left {
            go(l, buf, len);
        }
        if *len < N {
            buf[*len] = t.value;
            *len += 1;
        }
        if let Some(r) = &t.right {
            go(r, buf, len);
        }
    }
    let (mut buf, mut len) = ([0u8; N], 0);
    go(t, &mut buf, &mut len);
    buf[..len].to_vec()
}

/// The property `is_bst(t) ==> buggy_keys(t) has one key per node, strictly
/// increasing`, over `cases` generated cases: the number of counterexamples
/// and of valid cases (the precondition is the generator's filter: invalid
/// cases are discarded, as a runner would).
fn check(guide: &mut dyn Guide, cases: usize, seed: u64) -> (usize, usize) {
    let out = generate_distinct(&bst_gen(), guide, cases, seed);
    let fails = out
        .unique_valid
        .iter()
        .filter(|t| {
            let k = buggy_keys(t);
            !(k.len() == t.size() && k.windows(2).all(|w| w[0] < w[1]))
        })
        .count();
    (fails, out.valid)
}

#[test]
fn the_bug_needs_a_big_bst() {
    let leaf = |v| Some(Box::new(Bst { value: v, left: None, right: None }));
    let five = Bst { value: 3, left: Some(Box::new(Bst { value: 1, left: leaf(0), right: leaf(2) })), right: leaf(4) };
    assert_eq!(buggy_keys(&five), [0, 1, 2, 3, 4]);
    let six = Bst { value: 3, right: Some(Box::new(Bst { value: 5, left: leaf(4), right: None })), ..five.clone() };
    assert!(refgen_fixtures::rlcheck::is_bst(&six));
    assert_eq!(buggy_keys(&six), [0, 1, 2, 3, 4], "the sixth key is lost");
}

#[test]
fn the_rl_guide_finds_a_bug_random_misses() {
    // The same budget for both: 5,000 cases. A random tree of depth <= 4 is a
    // BST of 6 nodes or more about twice in 100,000 cases (see
    // `rlcheck_bst --sizes`); the RL guide learns to build big valid BSTs.
    const CASES: usize = 5_000;
    for seed in 1..=5 {
        let (random_fails, random_valid) = check(&mut RandomGuide, CASES, seed);
        let (rl_fails, rl_valid) = check(&mut RlGuide::default(), CASES, seed);
        assert_eq!(random_fails, 0, "seed {seed}: random generation found the bug");
        assert!(rl_fails > 0, "seed {seed}: the RL guide missed the bug");
        assert!(rl_valid > random_valid, "seed {seed}: the precondition held {rl_valid} vs {random_valid} times");
    }
}
