//! A tour of the library: one generator, every interpretation.
//!
//! Run with `cargo run --release --example tour`.

use refgen::interpret::{
    check, derivative, generate, generate_recorded, generate_weighted, language, next_pick, nullable, parse,
    parse_tree, probability, reflect, replay_lenient, Weights,
};
use refgen::prelude::*;
// Hand-written generators the tests share: Goldstein's BST and a plain binary tree.
use refgen_fixtures::handwritten::{bin_tree, is_bst, ref_bst, Tree};

fn main() {
    println!("== one generator, every interpretation ==");
    // Goldstein's refBST: binary search trees with keys in 0..=9.
    let g = ref_bst(0, 9);

    // Generate: a seeded RNG answers the choices. (Seed 1 gives a small tree.)
    let seed = 1;
    let (t, tree) = generate_recorded(&g, seed);
    let t = t.expect("refBST always gives a value");
    println!("generate(seed {seed})        = {t:?}");
    println!("  its choice tree       = {tree}");
    println!(
        "    (each `site=choice` is one answer a choice point got; the answers made inside it follow in parentheses)"
    );
    println!("  flat choices          = {:?}", tree.choices());

    // Parse: the same choices, replayed strictly, give the same value.
    println!("parse(choices)          = {:?}", parse(&g, &tree.choices()).unwrap());

    // Reflect: the value back into the choices that make it.
    let reflected = reflect(&g, &t);
    println!("reflect(value)          = {} tree(s), first = {}", reflected.len(), reflected[0]);
    println!("check(value)            = {}", check(&g, &t));
    let not_bst = Tree::node(Tree::node(Tree::Leaf, 5, Tree::Leaf), 3, Tree::Leaf);
    println!("check({not_bst:?}) = {} (is_bst = {})", check(&g, &not_bst), is_bst(&not_bst));
    println!("probability(value)      = {:.3e}", probability(&g, &t));

    // Derivatives: fix the first choice ("node") and look at what comes next.
    let d = derivative(&g, 1);
    println!("next pick of refBST     = {:?}", next_pick(&g).map(|p| p.site));
    println!("next pick after `node`  = {:?}", next_pick(&d).map(|p| p.site));
    println!("nullable(refBST)        = {:?}", nullable(&g));

    // Lenient replay: edit the tree (reroll the root's first choice) and replay.
    let broken = refgen::refgen_core::edit::Edit::Reroll { at: vec![0] }
        .apply(&reflected[0])
        .expect("the root's first child is a choice");
    let (mutant, _) = replay_lenient(&g, &broken, 1);
    let mutant = mutant.unwrap();
    println!("lenient replay (reroll) = {mutant:?}  still a BST: {}", is_bst(&mutant));

    // Tuned generation: weights from examples (Goldstein's tunedLike).
    let small = bin_tree(4);
    let examples = [Tree::Leaf, Tree::node(Tree::Leaf, 1, Tree::Leaf)];
    let w = Weights::like(&small, &examples).expect("the generator makes both examples");
    let tuned: Vec<usize> = (0..8).map(|s| generate_weighted(&small, &w, s).unwrap().size()).collect();
    println!("sizes tuned like {{Leaf, Node(Leaf,1,Leaf)}} = {tuned:?}");
    println!("    (the number of nodes of 8 trees generated with the weights of the two examples: small, like them)");

    // Language: every choice sequence of a small generator.
    let lang = language(&ref_bst(0, 2), 10_000, 64);
    println!("language(refBST(0,2))   = {} sequences, complete = {}", lang.members.len(), lang.complete);

    derived_type();
    failing_property();
    guided_by_rl();
}

// ---------------------------------------------------------------- a derived type

/// A user's own type with `#[derive(Reflective)]`: the same interpretations, nothing written by hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Reflective)]
#[assume(self.lo <= self.hi)]
struct Booking {
    #[choice(regex = "[A-Z]{3}-[0-9]{2}")]
    room: String,
    #[choice(range = 8..=20)]
    lo: u8,
    #[choice(range = 8..=20)]
    hi: u8,
    #[choice(len = 0..=3)]
    guests: Vec<Guest>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Reflective)]
enum Guest {
    #[choice(weight = 3)]
    Adult,
    Child(#[choice(range = 0..=17)] u8),
}

fn derived_type() {
    println!();
    println!("== a derived type ==");
    let g = Booking::generator();
    let b = (0..).find_map(|seed| generate(&g, seed).ok()).unwrap();
    println!("generate                = {b:?}");
    let trees = reflect(&g, &b);
    println!("reflect                 = {}", trees[0]);
    println!("check                   = {}", check(&g, &b));
    let backwards = Booking { hi: b.lo.saturating_sub(1), ..b.clone() };
    println!("check(lo > hi)          = {} (the #[assume] is the validity condition)", check(&g, &backwards));
    let valid = (0..1000).filter(|&s| generate(&g, s).is_ok()).count();
    println!("valid among 1000 seeds  = {valid}");
    println!(
        "    (the other seeds made a booking with lo > hi, which the #[assume] rejects: such cases are discarded)"
    );
}

// ---------------------------------------------------------------- a failing property

/// A property found failing, shrunk by reflection and replayed, through the
/// runner API (a `#[property]` test does the same and prints the report).
fn failing_property() {
    use refgen::refgen_runtime::runner::RunError;

    println!();
    println!("== a failing property: found, shrunk, replayed ==");
    // "Every BST has fewer than three keys": false, and the runner finds out.
    let property = Property::new(|| ref_bst(0, 9), |t: Tree| t.size() < 3);
    let config = Config::new("tour::small_trees").seed(1);
    let failure = match property.check(&config) {
        Err(RunError::Failed(f)) => f,
        other => panic!("the property should fail: {other:?}"),
    };
    // The report `#[property]` prints, once, for the shrunk case.
    print!("{failure}");
    let shrunk = parse_tree(&ref_bst(0, 9), &failure.tree).unwrap();
    println!("the shrunk case is still a BST: {}", is_bst(&shrunk));

    // Replaying the printed token runs exactly that case again.
    let again = match property.check(&config.clone().replay(failure.token.clone())) {
        Err(RunError::Failed(f)) => f,
        other => panic!("the replay should fail too: {other:?}"),
    };
    println!("replayed {} -> {} = {}", failure.token, again.args[0].0, again.args[0].1);
}

// ---------------------------------------------------------------- a guide

/// The same generator steered by RLCheck's learner: far more distinct valid values.
fn guided_by_rl() {
    use refgen::refgen_runtime::explore::generate_distinct;
    use refgen::refgen_runtime::guides::{RandomGuide, RlGuide};
    println!();
    println!("== guided generation: Random vs RLCheck (TreeLR) ==");
    let g = Booking::generator();
    for (name, distinct) in [
        ("Random", generate_distinct(&g, &mut RandomGuide, 2_000, 1)),
        ("RLCheck", generate_distinct(&g, &mut RlGuide::default(), 2_000, 1)),
    ] {
        println!("{name:<8} 2000 trials: {} valid, {} distinct valid", distinct.valid, distinct.unique_valid.len());
    }
}
