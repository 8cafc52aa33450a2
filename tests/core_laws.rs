//! Laws of reflect-core's interpretations, over hand-written generators and many seeds.

use rand::Rng;
use reflect::prelude::*;
use reflect::reflect_core::examples::{bin_tree, expr, is_bst, ref_bst, sized_vec, sorted_list, Expr, Tree};
use reflect::reflect_core::{rng_from_seed, sequence_probability, DetRng};
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

const SEEDS: u64 = 400;

/// `parse(choices(generate(seed))) == generate(seed)`, and reflection finds
/// the very tree generation recorded; every reflected tree parses back.
fn round_trip_and_reflect<T: Clone + PartialEq + Debug>(g: &BoxGen<T>) {
    for seed in 0..SEEDS {
        let (v, tree) = generate_recorded(g, seed);
        let v = v.unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(generate(g, seed).unwrap(), v, "recording changed the value (seed {seed})");
        assert_eq!(parse_tree(g, &tree).unwrap(), v, "round trip failed (seed {seed})");
        let reflected = reflect(g, &v);
        assert!(!reflected.is_empty(), "reflect found no way to make {v:?}");
        assert!(reflected.contains(&tree), "reflect({v:?}) misses the recorded tree {tree}");
        for t in &reflected {
            assert_eq!(parse_tree(g, t).unwrap(), v, "reflected tree {t} parses to another value");
        }
        assert!(check(g, &v), "check rejects generated {v:?}");
        assert!(probability(g, &v) > 0.0);
    }
}

#[test]
fn ref_bst_round_trip_reflect_check() {
    let g = ref_bst(0, 20);
    round_trip_and_reflect(&g);
    for seed in 0..SEEDS {
        assert!(is_bst(&generate(&g, seed).unwrap()));
    }
}

#[test]
fn bin_tree_round_trip_reflect_check() {
    round_trip_and_reflect(&bin_tree(4));
}

#[test]
fn sorted_list_round_trip_reflect_check() {
    let g = sorted_list(6, 9);
    round_trip_and_reflect(&g);
    for seed in 0..SEEDS {
        let v = generate(&g, seed).unwrap();
        assert!(v.windows(2).all(|w| w[0] <= w[1]), "{v:?} is not sorted");
    }
}

#[test]
fn expr_round_trip_reflect_check() {
    round_trip_and_reflect(&expr(4, 5));
}

#[test]
fn sized_vec_round_trip_reflect_check() {
    round_trip_and_reflect(&sized_vec(6, 9));
}

#[test]
fn combinators_round_trip_reflect_check() {
    round_trip_and_reflect(&(int(-5i32..=5), bool(), option(char_class(&[('a', 'c'), ('x', 'z')]))).boxed());
    round_trip_and_reflect(&string(any_char(), 0..=5).boxed());
    round_trip_and_reflect(&vec(int(0u128..=u128::MAX), 0..=3).boxed());
    round_trip_and_reflect(&vec(int(i64::MIN..=i64::MAX), 0..=3).boxed());
    round_trip_and_reflect(&int(i128::MIN..=i128::MAX).boxed());
    round_trip_and_reflect(&int(u8::MIN..=u8::MAX).boxed());
}

#[test]
fn check_rejects_values_outside_the_range() {
    let bst = ref_bst(0, 20);
    let not_bst = Tree::node(Tree::node(Tree::Leaf, 5, Tree::Leaf), 3, Tree::Leaf);
    assert!(!is_bst(&not_bst));
    assert!(!check(&bst, &not_bst));
    assert!(reflect(&bst, &not_bst).is_empty());
    assert_eq!(probability(&bst, &not_bst), 0.0);
    assert!(!check(&bst, &Tree::node(Tree::Leaf, 21, Tree::Leaf)), "key out of range");
    assert!(check(&bst, &Tree::node(Tree::node(Tree::Leaf, 3, Tree::Leaf), 5, Tree::Leaf)));

    let tree = bin_tree(2);
    let deep = Tree::node(Tree::node(Tree::node(Tree::Leaf, 1, Tree::Leaf), 1, Tree::Leaf), 1, Tree::Leaf);
    assert!(!check(&tree, &deep), "deeper than the bound");
    assert!(!check(&tree, &Tree::node(Tree::Leaf, 11, Tree::Leaf)), "key out of range");

    assert!(!check(&sorted_list(6, 9), &vec![3, 1]));
    assert!(!check(&sorted_list(2, 9), &vec![1, 2, 3]), "too long");
    assert!(!check(&sized_vec(3, 2), &vec![5]));
    assert!(!check(&expr(2, 5), &Expr::Lit(6)));
    assert!(!check(&int(1u8..=3), &0));
    assert!(!check(&char_class(&[('a', 'c')]), &'d'));
    assert!(!check(&string(char_class(&[('a', 'c')]), 0..=2), &"abc".to_string()));
}

/// The language as a multiset of (sequence, value).
fn multiset<T: Ord + Clone>(mut members: Vec<(Vec<Choice>, T)>) -> Vec<(Vec<Choice>, T)> {
    members.sort();
    members
}

/// Theorem 2 / Lemma 1 over every prefix of the language, up to `prefixes` of them.
fn derivative_laws<T: Ord + Clone + Debug + 'static>(g: &BoxGen<T>) {
    let lang = language(g, 100_000, 64);
    assert!(lang.complete, "the test generator must be finite");
    // Every prefix of every sequence in the language, and some that fit no sequence.
    let mut prefixes: Vec<Vec<Choice>> = vec![vec![]];
    for (s, _) in &lang.members {
        for k in 1..=s.len() {
            prefixes.push(s[..k].to_vec());
        }
        let mut bad = s.clone();
        bad.push(99);
        prefixes.push(bad);
    }
    prefixes.sort();
    prefixes.dedup();
    for prefix in prefixes.iter().filter(|p| !p.is_empty()).take(600) {
        // The derivative by the whole prefix, one choice at a time.
        let mut d = derivative(g.clone(), prefix[0]);
        for &c in &prefix[1..] {
            d = d.derive(c);
        }
        let expected: Vec<(Vec<Choice>, T)> = lang
            .members
            .iter()
            .filter(|(s, _)| s.starts_with(prefix))
            .map(|(s, v)| (s[prefix.len()..].to_vec(), v.clone()))
            .collect();
        let got = language(&d, 100_000, 64);
        assert!(got.complete);
        assert_eq!(multiset(got.members.clone()), multiset(expected.clone()), "δ_{prefix:?}");
        // ν holds exactly when no choice is left: the language is {ε}.
        let null = nullable(&d);
        match &null {
            Some(v) => assert_eq!(got.members, vec![(vec![], v.clone())], "ν(δ_{prefix:?})"),
            None => assert!(!got.members.iter().any(|(s, _)| s.is_empty()), "δ_{prefix:?} accepts ε but ν is ∅"),
        }
        // next_pick agrees: a choice is asked exactly when the language is not {ε} or ∅.
        assert_eq!(next_pick(&d).is_some(), !got.members.is_empty() && null.is_none(), "next pick after {prefix:?}");
    }
    // δ of void is void; a choice the pick cannot make gives void.
    let first_arity = next_pick(g).map(|p| p.request.as_request().arity()).unwrap_or(0);
    let off = derivative(g.clone(), first_arity);
    assert!(language(&off, 10, 64).members.is_empty());
    assert!(language(&derivative(void::<T>(), 0), 10, 8).members.is_empty());
    assert!(language(&derivative(just(1u8), 0), 10, 8).members.is_empty(), "δ(return v) = void");
}

#[test]
fn derivative_laws_ref_bst() {
    derivative_laws(&ref_bst(0, 3));
}

#[test]
fn derivative_laws_bin_tree() {
    derivative_laws(&recursive(2, |sub: Option<BoxGen<Tree>>| match sub {
        None => just(Tree::Leaf).boxed(),
        Some(s) => pick(
            "t",
            [
                ("leaf", 1, just(Tree::Leaf).boxed()),
                (
                    "node",
                    3,
                    (s.clone(), int(0i64..=2), s)
                        .map(|(l, x, r)| Tree::node(l, x, r), |t: &Tree| Some((t.left()?, t.key()?, t.right()?)))
                        .boxed(),
                ),
            ],
        )
        .boxed(),
    }));
}

#[test]
fn derivative_laws_sorted_list_expr_sized_vec() {
    derivative_laws(&sorted_list(3, 3));
    derivative_laws(&expr(2, 1).map(|e| format!("{e:?}"), |_| None).boxed());
    derivative_laws(&sized_vec(3, 2));
}

/// Theorem 1: parsing choices drawn from the randomness interpretation has
/// the distribution of generation, which `probability` gives exactly.
fn factoring<T: Clone + Eq + Hash + Debug>(g: &BoxGen<T>, samples: u64) {
    let lang = language(g, 100_000, 64);
    assert!(lang.complete);
    // Exact: the probabilities of the language's sequences sum to 1 and
    // `probability` of a value is the sum over its sequences.
    let mut by_value: HashMap<T, f64> = HashMap::new();
    let mut total = 0.0;
    for (s, v) in &lang.members {
        let p = sequence_probability(g, s);
        total += p;
        *by_value.entry(v.clone()).or_default() += p;
    }
    assert!((total - 1.0).abs() < 1e-9, "the language's probabilities sum to {total}");
    for (v, p) in &by_value {
        assert!((probability(g, v) - p).abs() < 1e-12, "probability({v:?})");
    }
    // Sampled: R then P, against the exact distribution.
    let mut counts: HashMap<T, u64> = HashMap::new();
    for seed in 0..samples {
        let (_, tree) = generate_recorded(g, 1_000_000 + seed);
        *counts.entry(parse_tree(g, &tree).unwrap()).or_default() += 1;
    }
    for v in counts.keys() {
        assert!(by_value.contains_key(v), "{v:?} sampled but not in the language");
    }
    let n = samples as f64;
    for (v, &p) in &by_value {
        let freq = *counts.get(v).unwrap_or(&0) as f64 / n;
        let sd = (p * (1.0 - p) / n).sqrt();
        assert!((freq - p).abs() <= 5.0 * sd + 1e-3, "{v:?}: sampled {freq}, exact {p}");
    }
}

#[test]
fn theorem_1_factoring() {
    factoring(&ref_bst(0, 2), 20_000);
    factoring(&sized_vec(2, 2), 20_000);
    factoring(&sorted_list(2, 2), 20_000);
    factoring(&(bool(), option(int(0u8..=2))).boxed(), 20_000);
}

/// Random edits of a choice tree, of the kinds mutation and shrinking make.
fn edit(tree: &mut ChoiceTree, rng: &mut DetRng) {
    let paths = tree.paths();
    let path = &paths[rng.random_range(0..paths.len())];
    match rng.random_range(0..6) {
        0 => {
            // A new value, possibly one no choice point accepts.
            if let Some(n) = tree.get_mut(path) {
                n.choice = Some(rng.random_range(0..40));
            }
        }
        1 => {
            if let Some(n) = tree.get_mut(path) {
                n.reroll = true;
            }
        }
        2 => {
            // Delete a subtree.
            if let Some((last, parent)) = path.split_last() {
                tree.get_mut(parent).unwrap().children.remove(*last);
            }
        }
        3 => {
            // Replace a node by one of its subtrees.
            if let Some(n) = tree.get_mut(path) {
                if !n.children.is_empty() {
                    let k = rng.random_range(0..n.children.len());
                    *n = n.children[k].clone();
                }
            }
        }
        4 => {
            // Swap two subtrees.
            let other = paths[rng.random_range(0..paths.len())].clone();
            let disjoint = !other.starts_with(path) && !path.starts_with(&other);
            if disjoint {
                let a = tree.get(path).unwrap().clone();
                let b = tree.get(&other).unwrap().clone();
                *tree.get_mut(path).unwrap() = b;
                *tree.get_mut(&other).unwrap() = a;
            }
        }
        _ => {
            // Shorten: drop a node's last children.
            if let Some(n) = tree.get_mut(path) {
                let keep = rng.random_range(0..=n.children.len());
                n.children.truncate(keep);
            }
        }
    }
}

fn lenient_replay_stays_in_range<T: Clone + PartialEq + Debug>(g: &BoxGen<T>) {
    let mut rng = rng_from_seed(7);
    for seed in 0..SEEDS {
        let (v, tree) = generate_recorded(g, seed);
        let v = v.unwrap();
        // Unedited, replay is the identity.
        let (same, used) = replay_lenient(g, &tree, seed);
        assert_eq!(same.unwrap(), v);
        assert_eq!(used, tree);
        let mut edited = tree.clone();
        for _ in 0..rng.random_range(1..4) {
            edit(&mut edited, &mut rng);
        }
        let (mutant, used) = replay_lenient(g, &edited, seed);
        let mutant = mutant.unwrap_or_else(|e| panic!("replay of {edited} failed: {e}"));
        assert!(check(g, &mutant), "lenient replay of {edited} gave {mutant:?}, outside the range");
        assert_eq!(parse_tree(g, &used).unwrap(), mutant, "the tree replay reports is not the one it used");
    }
}

#[test]
fn lenient_replay_of_edited_trees_stays_in_range() {
    lenient_replay_stays_in_range(&ref_bst(0, 20));
    lenient_replay_stays_in_range(&bin_tree(4));
    lenient_replay_stays_in_range(&sorted_list(6, 9));
    lenient_replay_stays_in_range(&expr(4, 5));
    lenient_replay_stays_in_range(&sized_vec(6, 9));
}

#[test]
fn lenient_replay_keeps_bst_validity_after_a_key_change() {
    // papers/001 Fig. 3.2: change a key; the rest of the tree is fixed up to stay a BST.
    let g = ref_bst(0, 20);
    let t = Tree::node(Tree::node(Tree::Leaf, 4, Tree::Leaf), 6, Tree::node(Tree::Leaf, 9, Tree::Leaf));
    let mut tree = reflect(&g, &t).remove(0);
    // The root key is the second choice (after "node"): its offset from 0 is 6; make it 3.
    let key = tree.paths().into_iter().find(|p| tree.get(p).unwrap().site == "key").unwrap();
    tree.get_mut(&key).unwrap().choice = Some(3);
    let (m, _) = replay_lenient(&g, &tree, 0);
    let m = m.unwrap();
    assert_eq!(m.key(), Some(3));
    assert!(is_bst(&m), "{m:?}");
}

#[test]
fn parse_is_strict_and_reports_why() {
    let g = ref_bst(0, 3);
    assert!(matches!(parse(&g, &[2]), Err(ParseError::Unfit { index: 0, site: "bst", choice: 2, arity: 2 })));
    assert!(matches!(parse(&g, &[1]), Err(ParseError::Exhausted { index: 1, site: "key" })));
    assert!(matches!(parse(&g, &[0, 0]), Err(ParseError::Leftover { left: 1 })));
    assert_eq!(parse(&g, &[0]).unwrap(), Tree::Leaf);
    let msg = parse(&g, &[7]).unwrap_err().to_string();
    assert!(msg.contains("`bst`") && msg.contains('7'), "{msg}");
    // A filter's rejection is reported as such.
    let even = int(0u8..=9).filter(|x| x % 2 == 0);
    assert_eq!(parse(&even, &[3]), Err(ParseError::NoValue(Stop::Invalid)));
}

#[test]
fn choice_trees_serialise() {
    let g = bin_tree(4);
    for seed in 0..50 {
        let (_, tree) = generate_recorded(&g, seed);
        let json = serde_json::to_string(&tree).unwrap();
        let back: ChoiceTree = serde_json::from_str(&json).unwrap();
        assert_eq!(back, tree);
    }
}

#[test]
fn weighted_generation_follows_the_examples() {
    let g = bin_tree(4);
    // Tuned like a lone leaf: "node" never chosen.
    let like_leaf = Weights::like(&g, &[Tree::Leaf]);
    for seed in 0..100 {
        assert_eq!(generate_weighted(&g, &like_leaf, seed).unwrap(), Tree::Leaf);
    }
    // Tuned unlike a lone leaf: nodes are preferred.
    let unlike_leaf = Weights::unlike(&g, &[Tree::Leaf]);
    let nodes = (0..1000).filter(|&s| generate_weighted(&g, &unlike_leaf, s).unwrap() != Tree::Leaf).count();
    assert!(nodes > 600, "{nodes}");
    // Explicit weights by label.
    let mut w = Weights::new();
    w.set("tree", "node", 1.0).set("key", "7", 1.0);
    let t = generate_weighted(&g, &w, 3).unwrap();
    assert_eq!(t.depth(), 4);
    assert!(t.keys().iter().all(|&k| k == 7));
}

#[test]
fn same_seed_same_values() {
    let g = expr(5, 100);
    let a: Vec<Expr> = (0..50).map(|s| generate(&g, s).unwrap()).collect();
    let b: Vec<Expr> = (0..50).map(|s| generate(&g, s).unwrap()).collect();
    assert_eq!(a, b);
    // Pinned values: the RNG algorithm and sampling are part of the contract.
    let pinned: Vec<u64> = (0..4).map(|s| generate(&int(0u64..=1_000_000), s).unwrap()).collect();
    assert_eq!(pinned, PINNED);
}

const PINNED: [u64; 4] = [324575, 811612, 765236, 51451];

#[test]
fn floats_round_trip_by_bits() {
    fn laws<F: reflect::reflect_core::combinators::FloatValue>(g: &BoxGen<F>) -> [usize; 3] {
        let mut kinds = [0; 3];
        for seed in 0..SEEDS {
            let (v, tree) = generate_recorded(g, seed);
            let v = v.unwrap();
            kinds[tree.children[0].choice.unwrap() as usize] += 1;
            assert_eq!(parse_tree(g, &tree).unwrap().bits(), v.bits());
            let reflected = reflect(g, &v);
            assert!(reflected.contains(&tree), "{v:?}");
            for t in &reflected {
                assert_eq!(parse_tree(g, t).unwrap().bits(), v.bits());
            }
        }
        kinds
    }
    let kinds = laws(&f64::generator());
    assert!(kinds.iter().all(|&k| k > 0), "every kind of float is generated: {kinds:?}");
    laws(&f32::generator());
    let g = f64::generator();
    for v in [0.0, -0.0, f64::NAN, f64::INFINITY, 0.1, -999.9, 1e300, f64::MIN_POSITIVE / 2.0] {
        assert!(!reflect(&g, &v).is_empty(), "{v:?} reflects");
    }
    // Smaller choices are simpler floats: the first decimal choices are 0, 0.1, -0.1.
    assert_eq!(parse(&g, &[0, 0]).unwrap(), 0.0);
    assert_eq!(parse(&g, &[0, 1]).unwrap(), 0.1);
    assert_eq!(parse(&g, &[0, 2]).unwrap(), -0.1);
}

#[test]
fn standard_collections_reflect() {
    use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
    fn laws<T: Reflective + PartialEq + Debug>() {
        let g = T::generator();
        for seed in 0..100 {
            let v = generate(&g, seed).unwrap();
            let reflected = reflect(&g, &v);
            assert!(!reflected.is_empty(), "{v:?}");
            for t in &reflected {
                assert_eq!(parse_tree(&g, t).unwrap(), v);
            }
        }
    }
    laws::<VecDeque<u8>>();
    laws::<BTreeSet<i16>>();
    laws::<HashSet<u32>>();
    laws::<BTreeMap<u8, bool>>();
    laws::<HashMap<char, Option<u8>>>();
    laws::<[u8; 3]>();
    laws::<std::rc::Rc<(u8, i64)>>();
    laws::<(i8, String, usize)>();
}
