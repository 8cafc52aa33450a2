//! Tuning by examples and validity-preserving mutation: the laws of the three mutation operators, the tuned and mutational guides, and their `#[property]` switches.

use refgen::edit::Mutation;
use refgen::guides::mutate::{mutant, Joined};
use refgen::guides::tuned::{examples_from_dir, load_weights, save_weights, tune};
use refgen::guides::{MutateConfig, MutateGuide, TunedGuide};
use refgen::interpret::{
    generate_recorded, generate_weighted, labels_of, parse_tree, reflect, replay_lenient, Weights,
};
use refgen::prelude::*;
use refgen::refgen_core::choice::ChoiceTree;
use refgen::refgen_core::source::{rng_from_seed, Stop};
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::persist::Store;
use refgen::runner::RunError;
use refgen_fixtures::bst::{is_bst, node, Tree};
use refgen_fixtures::runs::temp_dir;
use std::collections::BTreeMap;

/// Arithmetic expressions, a grammar in the style of "Inputs from Hell".
#[derive(Debug, Clone, PartialEq, Reflective, serde::Deserialize)]
#[reflect(depth = 4)]
enum Expr {
    Num(#[choice(range = 0..=9)] u8),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
}

fn num(n: u8) -> Expr {
    Expr::Num(n)
}

fn add(a: Expr, b: Expr) -> Expr {
    Expr::Add(Box::new(a), Box::new(b))
}

/// For each site, the share of `n` values drawn by `draw` that take each
/// label at the site's first choice point (in generation order).
///
/// Only the first choice point of a site is counted: it sits at the top of
/// the value (the root pick of `Expr`, the first number), where the depth
/// budget never forces the answer. Deeper down, a pick past the budget
/// offers only its base option, so counting every choice would mix in
/// forced answers whose number grows with the values' depth, and lowering
/// a label's weight could raise its overall count (a deeper value has more
/// forced `Num` leaves).
fn first_label_shares(g: &BoxGen<Expr>, n: u64, draw: impl Fn(u64) -> Expr) -> BTreeMap<(String, String), f64> {
    let mut counts: BTreeMap<(String, String), f64> = BTreeMap::new();
    let mut reached: BTreeMap<String, f64> = BTreeMap::new();
    for seed in 0..n {
        let mut seen = std::collections::HashSet::new();
        for (site, label) in labels_of(g, &draw(seed)).expect("a value the generator made") {
            if seen.insert(site) {
                *counts.entry((site.to_owned(), label)).or_default() += 1.0;
                *reached.entry(site.to_owned()).or_default() += 1.0;
            }
        }
    }
    for ((site, _), c) in counts.iter_mut() {
        *c /= reached[site];
    }
    counts
}

#[test]
fn like_one_example_concentrates_on_it_as_its_weight_grows() {
    let g = Expr::generator();
    let ex = add(num(3), num(3));
    let share = |copies: usize| {
        let like = vec![ex.clone(); copies];
        let w = Weights::from_examples(&g, &like, &[], 1.0).unwrap();
        (0..2000).filter(|&s| generate_weighted(&g, &w, s).unwrap() == ex).count()
    };
    let shares: Vec<usize> = [1, 4, 16, 64].into_iter().map(share).collect();
    assert!(shares.windows(2).all(|w| w[0] < w[1]), "the example's share grows with its weight: {shares:?}");
    let untuned = (0..2000).filter(|&s| refgen::interpret::generate(&g, s).unwrap() == ex).count();
    assert!(shares[0] > untuned, "tuned like it, the example comes more often: {shares:?} vs {untuned}");
    // With no smoothing, every value uses only the example's labels.
    let w = Weights::like(&g, std::slice::from_ref(&ex)).unwrap();
    for seed in 0..200 {
        let labels = labels_of(&g, &generate_weighted(&g, &w, seed).unwrap()).unwrap();
        assert!(labels.iter().all(|(_, l)| l == "Add" || l == "Num" || l == "3"), "{labels:?}");
    }
}

#[test]
fn unlike_lowers_each_label_of_the_example() {
    let g = Expr::generator();
    let ex = Expr::Mul(Box::new(num(7)), Box::new(Expr::Neg(Box::new(num(7)))));
    let w = Weights::unlike(&g, std::slice::from_ref(&ex)).unwrap();
    let before = first_label_shares(&g, 3000, |s| refgen::interpret::generate(&g, s).unwrap());
    let after = first_label_shares(&g, 3000, |s| generate_weighted(&g, &w, s).unwrap());
    for (site, label) in labels_of(&g, &ex).unwrap() {
        let key = (site.to_owned(), label);
        let (b, a) = (before[&key], after.get(&key).copied().unwrap_or(0.0));
        assert!(a < b, "{key:?}: {b} before, {a} after");
    }
}

#[test]
fn wide_integer_ranges_are_tuned_per_bucket() {
    let g = refgen::combinators::int(0u32..=999);
    let w = Weights::like(&g, &[10, 20, 30]).unwrap();
    for seed in 0..300 {
        let x = generate_weighted(&g, &w, seed).unwrap();
        assert!(x < 125, "every example is in the first of 8 buckets, 0..=124: {x}");
    }
    assert!(
        (0..300).map(|s| generate_weighted(&g, &w, s).unwrap()).collect::<std::collections::HashSet<_>>().len() > 50
    );
}

#[test]
fn examples_the_generator_cannot_make_are_named() {
    let g = Tree::generator();
    let bad = node(node(Tree::Leaf, 5, Tree::Leaf), 2, Tree::Leaf); // not a BST
    let err = tune(&g, [Tree::Leaf, bad], Vec::new(), 0.1).unwrap_err();
    assert!(err.to_string().contains("like #1: Node(Node(Leaf, 5, Leaf), 2, Leaf)"), "{err}");
    // Through a property, it is a setup error, not a panic.
    let p = Property::new(Tree::generator, |_: Tree| true);
    let cfg = Config::new("tuned_setup").regressions(temp_dir("tuned_setup")).guide(move || {
        let bad = node(node(Tree::Leaf, 5, Tree::Leaf), 2, Tree::Leaf);
        TunedGuide::from_examples(&Tree::generator(), [bad], Vec::new()).unwrap_or_else(|e| panic!("{e}"))
    });
    match p.check(&cfg) {
        Err(e @ RunError::Setup { .. }) => assert!(e.to_string().contains("building its guide panicked"), "{e}"),
        other => panic!("expected a setup error, got {other:?}"),
    }
}

#[test]
fn examples_and_weights_read_from_files() {
    let dir = temp_dir("tuning_files");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.json"), r#"{"Add": [{"Num": 1}, {"Num": 2}]}"#).unwrap();
    std::fs::write(dir.join("b.json"), r#"{"Num": 4}"#).unwrap();
    std::fs::write(dir.join("notes.txt"), "not an example").unwrap();
    let examples: Vec<Expr> = examples_from_dir(&dir).into_result().unwrap();
    assert_eq!(examples, vec![add(num(1), num(2)), num(4)]);
    let g = Expr::generator();
    let w = tune(&g, examples_from_dir::<Expr>(&dir), Vec::new(), 0.1).unwrap();
    let path = dir.join("weights.json");
    save_weights(&w, &path).unwrap();
    assert_eq!(load_weights(&path).unwrap(), w);
    // Bad files are readable errors naming them.
    std::fs::write(dir.join("c.json"), r#"{"Sub": []}"#).unwrap();
    let err = examples_from_dir::<Expr>(&dir).into_result().unwrap_err().to_string();
    assert!(err.contains("c.json") && err.contains("not a value of this type"), "{err}");
    std::fs::write(&path, "{ corrupt").unwrap();
    let err = load_weights(&path).unwrap_err().to_string();
    assert!(err.contains("weights.json") && err.contains("corrupt"), "{err}");
    let err = examples_from_dir::<Expr>(dir.join("missing")).into_result().unwrap_err().to_string();
    assert!(err.contains("cannot read the examples directory"), "{err}");
}

/// Trees to mutate: generated BSTs with at least two nodes.
fn seeds() -> Vec<(Tree, ChoiceTree)> {
    let g = Tree::generator();
    (0..100_000u64)
        .filter_map(|s| match generate_recorded(&g, s) {
            (Ok(t), tree) if t.size() >= 2 => Some((t, tree)),
            _ => None,
        })
        .take(60)
        .collect()
}

#[test]
fn every_mutant_of_every_operator_is_in_range() {
    let g = Tree::generator();
    let mut rng = rng_from_seed(11);
    for op in Mutation::ALL {
        let (mut made, mut valid) = (0, 0);
        for (_, tree) in seeds() {
            for _ in 0..10 {
                let Some((r, recorded)) = mutant(&g, &tree, op, &mut rng) else { continue };
                made += 1;
                match r {
                    Ok(v) => {
                        valid += 1;
                        assert!(is_bst(&v));
                        assert_eq!(parse_tree(&g, &recorded).as_ref(), Ok(&v), "{op:?}: the mutant parses back");
                        assert!(reflect(&g, &v).iter().any(|t| parse_tree(&g, t).as_ref() == Ok(&v)));
                    }
                    // Only the validity condition may reject a mutant: its choices are the generator's.
                    Err(stop) => {
                        assert_eq!(stop, Stop::Invalid, "{op:?}");
                        assert!(matches!(
                            parse_tree(&g, &recorded),
                            Err(refgen::interpret::ParseError::NoValue(Stop::Invalid))
                        ));
                    }
                }
            }
        }
        assert!(made >= 300 && valid > 0, "{op:?}: {made} mutants, {valid} valid");
    }
}

#[test]
fn shrinking_a_subtree_never_grows_the_tree() {
    let g = Tree::generator();
    let mut rng = rng_from_seed(5);
    let mut shrunk = 0;
    for (t, tree) in seeds() {
        for _ in 0..10 {
            let edit = Mutation::Shrink.draw(&tree, &mut rng).expect("a tree of two nodes has a subtree to promote");
            assert!(matches!(edit, refgen::edit::Edit::Promote { .. }));
            let (lenient, recorded) = replay_lenient(&g, &edit.apply(&tree).unwrap(), 3);
            assert!(recorded.choice_count() <= tree.choice_count());
            if let Ok(v) = lenient {
                assert!(v.size() <= t.size());
            }
            let (r, recorded) = mutant(&g, &tree, Mutation::Shrink, &mut rng).unwrap();
            assert!(recorded.choice_count() < tree.choice_count(), "{tree} -> {recorded}");
            if let Ok(v) = r {
                assert!(v.size() < t.size());
                shrunk += 1;
            }
        }
    }
    assert!(shrunk > 100, "{shrunk}");
}

#[test]
fn the_corpus_is_replayable_from_the_regressions_file_format() {
    let g = Tree::generator();
    let mut guide = MutateGuide::new(MutateConfig::default().corpus_size(40));
    let out = generate_distinct(&g, &mut guide, 600, 3);
    assert!(out.valid > 0);
    let corpus = guide.corpus();
    // One new value per shape joins (see `refgen::guides::shape`), at most the corpus's size.
    assert!((2..=40).contains(&corpus.len()), "{}", corpus.len());
    assert!(corpus.iter().all(|e| e.joined == Joined::New));
    let stats = guide.stats();
    assert!(stats.mutants.iter().all(|&n| n > 20) && stats.fresh > 0 && stats.rotated > 0, "{stats:?}");
    let dir = temp_dir("corpus_file");
    let (mut store, _) = Store::open(&dir, "corpus");
    for e in corpus {
        store.add(e.tree.clone(), "corpus").unwrap();
    }
    let (back, warning) = Store::open(&dir, "corpus");
    assert!(warning.is_none());
    assert_eq!(back.entries.len(), corpus.len());
    for (e, b) in corpus.iter().zip(&back.entries) {
        let v = parse_tree(&g, &e.tree).expect("a corpus entry is a valid case");
        assert_eq!(replay_lenient(&g, &b.tree, 0).0.unwrap(), v);
    }
}

/// A bug only a tree of 4 or more keys shows.
fn insert_is_fine(t: &Tree, x: u8) -> bool {
    t.size() < 4 || t.insert(x).size() >= t.size()
}

#[test]
fn the_mutate_guide_seeds_its_corpus_from_examples_and_remembered_cases() {
    let dir = temp_dir("mutate_seeds");
    let name = "mutate_seeds";
    let (mut store, _) = Store::open(&dir, name);
    let g = Tree::generator();
    store.add_value(&g, &node(Tree::Leaf, 1, Tree::Leaf)).unwrap();
    store.add_value(&g, &node(Tree::Leaf, 2, node(Tree::Leaf, 3, Tree::Leaf))).unwrap();
    let p = Property::new(Tree::generator, |t: Tree| insert_is_fine(&t, 0))
        .example(|| node(node(Tree::Leaf, 0, Tree::Leaf), 4, Tree::Leaf));
    let report = p.check(&Config::new(name).cases(50).regressions(&dir).guide(MutateGuide::default)).unwrap();
    assert_eq!(report.guide, "mutate");
    assert!(report.guide_notes[0].contains("(3 seeds,"), "{:?}", report.guide_notes);
    assert!(report.guide_notes[1].starts_with("mutate: mutants by operator: reroll "), "{:?}", report.guide_notes);
}

#[property(cases = 100, guide = tuned(like = [Tree::Leaf], smoothing = 0.0), regressions = false)]
fn tuned_like_a_leaf_makes_only_leaves(t: Tree) {
    assert_eq!(t, Tree::Leaf);
}

fn big_expressions() -> Vec<Expr> {
    vec![add(add(num(1), num(2)), add(num(3), num(4)))]
}

#[property(cases = 200, guide = tuned(like = big_expressions().into_iter().map(|e| (e, 1)), unlike = vec![(num(0), 0)]), regressions = false)]
fn tuned_by_a_function_and_unlike_a_literal(e: Expr, #[gen(refgen::combinators::int(0u8..=3))] k: u8) {
    let _ = (e, k);
}

#[property(cases = 200, guide = mutate(corpus = 8, fresh = 0.5), regressions = false,
           example = node(Tree::Leaf, 3, Tree::Leaf))]
fn mutated_trees_stay_bsts(t: Tree) {
    assert!(is_bst(&t));
}

#[property(cases = 50, guide = mutate(operators = [shrink, reroll]), regressions = false)]
fn mutate_by_two_operators(t: Tree) {
    assert!(is_bst(&t));
}

#[property(cases = 50, guide = mutate, regressions = false)]
fn mutate_with_defaults(t: Tree) {
    assert!(is_bst(&t));
}

#[test]
fn a_saved_tuning_is_what_the_examples_make() {
    let saved = load_weights(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/leaf_tuning.json")).unwrap();
    assert_eq!(saved, Weights::like(&Tree::generator(), &[Tree::Leaf]).unwrap());
}

#[property(cases = 50, guide = tuned(weights = "tests/data/leaf_tuning.json"), regressions = false)]
fn a_saved_tuning_makes_only_leaves(t: Tree) {
    assert_eq!(t, Tree::Leaf);
}

#[test]
fn the_mutate_guide_uses_only_the_operators_it_is_given() {
    let g = Tree::generator();
    let mut guide = MutateGuide::new(MutateConfig::default().operators([Mutation::Shrink]));
    generate_distinct(&g, &mut guide, 400, 1);
    let s = guide.stats();
    assert_eq!(s.mutants[1], 0, "no swaps: {s:?}");
    assert!(s.mutants[2] > 0 && s.rejected[2] == 0, "shrinking a BST keeps it a BST: {s:?}");
}

/// `restart_every = N`: after `N` cases the guide starts again from the values of its latest fresh
/// cases; with `0` it keeps its corpus.
#[test]
fn the_mutate_guide_starts_again_every_n_cases() {
    let g = Tree::generator();
    for (every, restarts) in [(300, true), (0, false)] {
        let mut guide = MutateGuide::new(MutateConfig::default().restart_every(every));
        generate_distinct(&g, &mut guide, 300, 3);
        let (before, fresh) = (guide.corpus().len(), guide.stats().fresh);
        assert!(before > 5, "{before}");
        generate_distinct(&g, &mut guide, 1, 4);
        let after = guide.corpus().len();
        if restarts {
            // The corpus starts again from the values of the latest fresh cases (at most 20 of them)
            // and the case after the restart: what it had learned from its mutants is gone.
            let latest = fresh.min(20) as usize;
            assert!(after <= latest + 1 && after < before, "{before} {after} (fresh cases: {fresh})");
            assert!(guide.corpus().iter().all(|e| e.joined == Joined::New));
            let notes = guide.notes();
            assert!(notes[0].ends_with("; started again once (after 300 cases)"), "{notes:?}");
        } else {
            assert!(after >= before, "{before} {after}");
        }
    }
}

/// `restart_every = N` is the unit of Luby's periods: the guide starts again after N, 2N, 4N, 5N, 6N,
/// 8N, ... cases; with `restart_luby = false`, after every N cases.
#[test]
fn the_mutate_guide_starts_again_after_periods_of_lubys_sequence() {
    let g = Tree::generator();
    for (luby, note) in [
        (true, "started again 6 times (Luby's periods of 50 cases)"),
        (false, "started again 8 times (every 50 cases)"),
    ] {
        let mut guide = MutateGuide::new(MutateConfig::default().restart_every(50).restart_luby(luby));
        // With Luby's periods, restarts after 50, 100, 200, 250, 300 and 400 cases; without, after every 50.
        generate_distinct(&g, &mut guide, 420, 5);
        let notes = guide.notes();
        assert!(notes[0].ends_with(note), "{notes:?}");
    }
}

/// A case adopted from the guide before this one (the default guide's random phase) joins the corpus
/// and gives donors as a fresh case of the guide's own would, but is none of its cases: no fresh case is
/// counted, and with the corpus no longer empty, the guide's first case is not fresh.
#[test]
fn an_adopted_case_joins_the_corpus_but_is_none_of_the_guides_cases() {
    use refgen::guide::{run_guided, CaseInfo, Erased, Feedback, Guide, Origin, Outcome};
    use refgen::guides::RandomGuide;
    use refgen::refgen_core::trail::Trail;
    let g = Tree::generator();
    // A valid tree of three nodes or more, made by random generation, with its trail.
    let mut trail = Trail::new();
    let handle = Erased(&g);
    let made = (0..1000u64).any(|seed| {
        let case = CaseInfo { index: seed, budget: 0, gen: &handle };
        let made = run_guided(&g, &mut RandomGuide, &mut trail, case, &mut rng_from_seed(seed)).value;
        made.is_ok_and(|t| t.size() >= 3)
    });
    assert!(made, "random generation makes a tree of three nodes");
    let mut guide = MutateGuide::default();
    let (origin, failed_attempts, outcome) = (Origin::Adopted, None, Outcome::Passed);
    let adopted = Feedback {
        origin,
        failed_attempts,
        outcome,
        valid: true,
        new: true,
        utility: None,
        key: Some(7),
        trail: &trail,
        state_machine: false,
    };
    // A value made again adds nothing: it is not heard.
    guide.feedback(&Feedback { new: false, ..adopted });
    assert!(guide.corpus().is_empty() && !guide.notes()[0].contains("adopted"), "{:?}", guide.notes());
    guide.feedback(&adopted);
    assert_eq!(guide.corpus().len(), 1);
    assert_eq!(guide.corpus()[0].joined, Joined::New);
    assert_eq!(guide.corpus()[0].tree, trail.to_tree().into_without_retries());
    assert_eq!(guide.stats().fresh, 0);
    assert!(guide.notes()[0].ends_with(", 1 value adopted from before the switch"), "{:?}", guide.notes());
    // Its value's parts are donors: the guide's first case is a mutant, a splice, a graft or a rotation of it.
    generate_distinct(&g, &mut guide, 1, 5);
    let s = guide.stats();
    assert_eq!(s.fresh, 0, "{s:?}");
    assert_eq!(s.mutants.iter().sum::<u64>() + s.spliced + s.grafted + s.rotated, 1, "{s:?}");
}

/// `rotate = P`: rotations of a search tree keep it a search tree, so none is rejected; the notes count
/// them; with `0` the guide rotates nothing.
#[test]
fn the_mutate_guide_rotates_a_share_of_its_cases() {
    let g = Tree::generator();
    for (share, rotates) in [(0.5, true), (0.0, false)] {
        let mut guide = MutateGuide::new(MutateConfig::default().graft(0.0).rotate(share));
        generate_distinct(&g, &mut guide, 600, 5);
        let s = guide.stats();
        if rotates {
            assert!(s.rotated > 50 && s.rotate_rejected == 0, "{s:?}");
            let notes = guide.notes();
            let said = format!("{} rotated (0 rejected)", s.rotated);
            assert!(notes[2].contains(&said), "{notes:?}");
        } else {
            assert_eq!(s.rotated, 0, "{s:?}");
        }
    }
}
