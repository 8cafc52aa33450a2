//! Laws of derived generators: round trip, reflection soundness, check, derivatives, lenient replay, termination.

use refgen::interpret::{
    check, derivative, generate, generate_recorded, language, next_pick, nullable, parse, parse_tree, reflect,
    replay_lenient,
};
use refgen::prelude::*;
use refgen::refgen_core::combinators::{int, DEFAULT_DEPTH};
use refgen::refgen_core::{ChoiceTree, Stop};
use std::fmt::Debug;

// ---------------------------------------------------------------- types

use refgen_fixtures::bst::{is_bst, node, Tree};

/// Simple types of an STLC-style calculus.
#[derive(Debug, Clone, PartialEq, Reflective)]
enum Ty {
    Base,
    Fun(Box<Ty>, Box<Ty>),
}

/// Terms: recursion through Box, named and positional fields, a skipped variant.
#[derive(Debug, Clone, PartialEq, Reflective)]
enum Term {
    // Declared first but recursive: the derive moves it after the base cases.
    App(Box<Term>, Box<Term>),
    Var(#[choice(range = 0..=3)] u8),
    #[choice(label = "lit", weight = 2)]
    Lit(bool),
    Lam(Ty, Box<Term>),
    If {
        cond: Box<Term>,
        then: Box<Term>,
        els: Box<Term>,
    },
    #[choice(skip)]
    Hole,
}

fn term_depth(t: &Term) -> usize {
    match t {
        Term::Var(_) | Term::Lit(_) | Term::Hole => 0,
        Term::Lam(_, b) => 1 + term_depth(b),
        Term::App(f, a) => 1 + term_depth(f).max(term_depth(a)),
        Term::If { cond, then, els } => 1 + term_depth(cond).max(term_depth(then)).max(term_depth(els)),
    }
}

/// A generic pair.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Pair<T> {
    a: T,
    b: T,
}

/// A generic wrapper with its bound given by hand.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(bound = "T: Reflective + Clone + PartialEq")]
struct Twice<T>(T, #[choice(len = 0..=2)] Vec<T>);

/// Regex-constrained strings and a collection length.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Account {
    #[choice(regex = "[a-z][a-z0-9_]{0,5}")]
    user: String,
    #[choice(regex = "(gmail|proton)\\.(com|me)")]
    domain: String,
    #[choice(len = 1..=3)]
    pins: Vec<u8>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct Celsius(i16);

impl From<i16> for Celsius {
    fn from(c: i16) -> Self {
        Celsius(c)
    }
}

/// Custom generators: one with a projection (`at`), one depending on an earlier field.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Reading {
    #[choice(range = 1..=12)]
    month: u8,
    #[choice(with = int(-40i16..=50))]
    #[at(|c: &Celsius| Some(c.0))]
    temperature: Celsius,
    #[choice(with = int(*month..=12))]
    #[assume(*self % 2 == 0)]
    until: u8,
}

/// Mutually recursive types.
#[derive(Debug, Clone, PartialEq, Reflective)]
enum Expr {
    Block(Box<Stmt>),
    Num(#[choice(range = 0..=9)] u8),
    Neg(Box<Expr>),
}

#[derive(Debug, Clone, PartialEq, Reflective)]
enum Stmt {
    Seq(Box<Stmt>, Box<Stmt>),
    Eval(Expr),
    Skip,
}

/// Recursion through a struct's `Vec` and `Option` fields.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 3)]
struct Rose {
    #[choice(range = 0..=3)]
    label: u8,
    kids: Vec<Rose>,
    next: Option<Box<Rose>>,
}

fn rose_depth(r: &Rose) -> usize {
    1 + r.kids.iter().map(rose_depth).chain(r.next.as_deref().map(rose_depth)).max().unwrap_or(0)
}

/// A finite type, for the derivative laws.
#[derive(Debug, Clone, PartialEq, Reflective)]
enum Small {
    A,
    B(bool),
    C {
        #[choice(range = 0..=2)]
        x: u8,
        y: Option<bool>,
    },
}

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Unit;

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Newtype(#[choice(range = -3..=3)] i32);

/// Wider than any tuple implementation.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Wide {
    f0: u8,
    f1: bool,
    f2: u8,
    f3: bool,
    f4: u8,
    f5: bool,
    f6: u8,
    f7: bool,
    f8: u8,
    f9: bool,
    f10: u8,
    f11: bool,
    f12: u8,
    f13: bool,
    f14: u8,
    f15: bool,
    f16: u8,
    f17: bool,
    f18: u8,
    f19: Small,
}

// ---------------------------------------------------------------- laws

/// Checks the laws of `refgen_core::laws` on `seeds` generated values of `T` (round trip, reflection,
/// lenient replay of edited trees, the bytes encoding and its totality); returns how many were valid.
fn laws<T: Reflective + Clone + PartialEq + Debug>(seeds: u64) -> usize {
    let g = T::generator();
    let valid = refgen::refgen_core::laws::round_trip(&g, seeds);
    refgen::refgen_core::laws::lenient_replay(&g, seeds);
    refgen::refgen_core::laws::bytes_total(&g, 64);
    valid
}

#[test]
fn bst_laws() {
    let valid = laws::<Tree>(400);
    assert!(valid > 100, "only {valid} valid trees");
}

#[test]
fn bst_check_rejects_values_outside_the_range() {
    let g = Tree::generator();
    assert!(check(&g, &node(Tree::Leaf, 3, node(Tree::Leaf, 7, Tree::Leaf))));
    // Not a search tree: the assumption rejects it.
    assert!(!check(&g, &node(node(Tree::Leaf, 5, Tree::Leaf), 3, Tree::Leaf)));
    // A key outside the range.
    assert!(!check(&g, &node(Tree::Leaf, 11, Tree::Leaf)));
    // Deeper than the depth budget.
    let mut deep = Tree::Leaf;
    for k in 0..=DEFAULT_DEPTH as u8 {
        deep = node(deep, k, Tree::Leaf);
    }
    assert!(!check(&g, &deep));
    // Generation honours the assumption: every tree it gives is a search tree.
    let mut invalid = 0;
    for seed in 0..300 {
        match generate(&g, seed) {
            Ok(t) => assert!(is_bst(&t), "{t:?}"),
            Err(Stop::Invalid) => invalid += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert!(invalid > 0, "random trees should sometimes break the assumption");
}

#[test]
fn stlc_laws_and_termination() {
    assert_eq!(laws::<Term>(500), 500);
    assert_eq!(laws::<Ty>(200), 200);
    let g = Term::generator();
    let mut deepest = 0;
    for seed in 0..2000 {
        let t = generate(&g, seed).expect("terms are always generated");
        assert_ne!(t, Term::Hole);
        deepest = deepest.max(term_depth(&t));
    }
    assert!(deepest <= DEFAULT_DEPTH, "depth {deepest}");
    assert!(deepest >= 3, "the generator should reach some depth, got {deepest}");
    // Out of range: a variable index above 3, and the skipped variant.
    assert!(!check(&g, &Term::Var(4)));
    assert!(!check(&g, &Term::Hole));
    assert!(check(&g, &Term::Var(3)));
}

#[test]
fn first_option_is_a_base_case_and_sites_are_stable() {
    let g = Term::generator();
    let pick = next_pick(&g).expect("a pick");
    assert_eq!(pick.site, "Term");
    let labels: Vec<&str> = match &pick.request {
        refgen::refgen_core::OwnedRequest::Pick { options, .. } => options.iter().map(|o| o.label).collect(),
        other => panic!("{other:?}"),
    };
    assert_eq!(labels, ["Var", "lit", "App", "Lam", "If"]);
    // Lenient replay of nothing takes the first option all the way down.
    let (v, _) = replay_lenient(&g, &ChoiceTree::root(Vec::new()), 0);
    assert_eq!(v, Ok(Term::Var(0)));
    // Choice trees are grouped by field.
    let t = Term::If { cond: Box::new(Term::Lit(true)), then: Box::new(Term::Var(1)), els: Box::new(Term::Var(2)) };
    let trees = reflect(&g, &t);
    assert_eq!(trees.len(), 1);
    assert_eq!(
        trees[0].to_string(),
        "<root>(Term=4(Term::If.cond(Term=1(Term::Lit.0(bool=1))) Term::If.then(Term=0(Term::Var.0(Term::Var.0=1))) \
         Term::If.els(Term=0(Term::Var.0(Term::Var.0=2)))))"
    );
}

#[test]
fn generic_laws() {
    assert_eq!(laws::<Pair<u8>>(100), 100);
    assert_eq!(laws::<Pair<Ty>>(100), 100);
    assert_eq!(laws::<Twice<bool>>(100), 100);
    assert!(!check(&Twice::<bool>::generator(), &Twice(true, vec![true, true, true])));
}

#[test]
fn regex_laws() {
    assert_eq!(laws::<Account>(300), 300);
    let g = Account::generator();
    for seed in 0..300 {
        let a = generate(&g, seed).unwrap();
        let first = a.user.chars().next().unwrap();
        assert!(first.is_ascii_lowercase() && a.user.len() <= 6, "{a:?}");
        assert!(["gmail.com", "gmail.me", "proton.com", "proton.me"].contains(&a.domain.as_str()));
        assert!((1..=3).contains(&a.pins.len()));
    }
    let ok = Account { user: "ab_1".into(), domain: "proton.me".into(), pins: vec![1] };
    assert!(check(&g, &ok));
    assert!(!check(&g, &Account { user: "1ab".into(), ..ok.clone() }));
    assert!(!check(&g, &Account { domain: "yahoo.com".into(), ..ok.clone() }));
    assert!(!check(&g, &Account { pins: vec![], ..ok }));
}

#[test]
fn with_and_at_laws() {
    let valid = laws::<Reading>(300);
    assert!(valid > 50, "{valid}");
    let g = Reading::generator();
    assert!(check(&g, &Reading { month: 3, temperature: Celsius(-40), until: 4 }));
    // Outside the custom generator's range, before the earlier field, or failing the field's assumption.
    assert!(!check(&g, &Reading { month: 3, temperature: Celsius(51), until: 4 }));
    assert!(!check(&g, &Reading { month: 5, temperature: Celsius(0), until: 4 }));
    assert!(!check(&g, &Reading { month: 3, temperature: Celsius(0), until: 5 }));
}

#[test]
fn mutual_recursion_laws() {
    assert_eq!(laws::<Expr>(300), 300);
    assert_eq!(laws::<Stmt>(300), 300);
    assert_eq!(laws::<Rose>(200), 200);
    let g = Rose::generator();
    for seed in 0..300 {
        let r = generate(&g, seed).unwrap();
        assert!(rose_depth(&r) <= 4, "{r:?}");
    }
}

#[test]
fn small_and_wide_types() {
    assert_eq!(laws::<Small>(100), 100);
    assert_eq!(laws::<Unit>(5), 5);
    assert_eq!(laws::<Newtype>(50), 50);
    assert_eq!(laws::<Wide>(50), 50);
    assert!(!check(&Newtype::generator(), &Newtype(4)));
    // The language of a finite derived type is complete and every member checks.
    let g = Small::generator();
    let lang = language(&g, 1000, 10);
    assert!(lang.complete);
    // A, B(false), B(true), C{x in 0..=2, y in {None, Some(false), Some(true)}}.
    assert_eq!(lang.members.len(), 1 + 2 + 3 * 3);
    for (choices, v) in &lang.members {
        assert!(check(&g, v));
        assert_eq!(parse(&g, choices).as_ref(), Ok(v));
    }
}

/// A bound the derive cannot see as a constant: the range falls back to `int(..)`.
const LIMIT: i16 = 300;

/// Ranges whose bounds the derive compiles into the generator (literals, negated literals,
/// `MIN`/`MAX`, also inside `each(...)` and `some(...)`), and ones it leaves to run time (a `const`
/// item, an earlier field).
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Bounded {
    #[choice(range = -5..=i8::MAX)]
    small: i8,
    #[choice(len = 0..=6, each(range = 0..=u32::MAX))]
    ids: Vec<u32>,
    #[choice(some(range = core::i64::MIN..=-1))]
    negative: Option<i64>,
    #[choice(range = -LIMIT..=LIMIT)]
    named: i16,
    #[choice(range = -5..=*small)]
    below_small: i8,
}

/// Both kinds of range make the values (and the choices) the same ranges made with `int` do, and
/// the derived type keeps every law.
#[test]
fn literal_and_computed_ranges() {
    use refgen::refgen_core::combinators::{option, vec};
    assert_eq!(laws::<Bounded>(300), 300);
    let g = Bounded::generator();
    for seed in 0..300 {
        let (value, tree) = generate_recorded(&g, seed);
        let b = value.unwrap();
        // The same choices, made by the combinators a user would write.
        let choices: Vec<u64> = tree.choices();
        let by_hand =
            (int(-5i8..=i8::MAX), vec(int(0..=u32::MAX), 0..=6), option(int(i64::MIN..=-1)), int(-LIMIT..=LIMIT));
        let (small, ids, negative, named) = parse(&by_hand, &choices[..choices.len() - 1]).unwrap();
        assert_eq!((small, ids, negative, named), (b.small, b.ids.clone(), b.negative, b.named), "seed {seed}");
        assert!((-5..=b.small).contains(&b.below_small), "{b:?}");
    }
}

#[test]
fn derivative_laws() {
    let g = Small::generator();
    let lang = language(&g, 1000, 10);
    assert!(lang.complete);
    for c in 0..4u64 {
        let d = derivative(g.clone(), c);
        let dl = language(&d, 1000, 10);
        let expected: Vec<(Vec<u64>, Small)> = lang
            .members
            .iter()
            .filter(|(s, _)| s.first() == Some(&c))
            .map(|(s, v)| (s[1..].to_vec(), v.clone()))
            .collect();
        assert_eq!(dl.members, expected, "derivative by {c}");
        // Reflection through the derivative.
        for (s, v) in &expected {
            let trees = reflect(&d, v);
            assert!(trees.iter().any(|t| t.choices() == *s), "{v:?}");
        }
    }
    // Nothing is nullable in a type whose every value makes a choice.
    assert_eq!(nullable(&g), None);
    assert_eq!(nullable(&Unit::generator()), Some(Unit));
}

/// Fields of every standard type with a `Reflective` implementation.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Everything {
    ratio: f64,
    small: f32,
    tags: std::collections::BTreeSet<u8>,
    index: std::collections::HashMap<char, i32>,
    grid: [i8; 4],
    queue: std::collections::VecDeque<bool>,
    shared: std::rc::Rc<String>,
}

#[test]
fn derived_fields_of_standard_types() {
    let g = Everything::generator();
    for seed in 0..200 {
        let (v, tree) = generate_recorded(&g, seed);
        let v = v.unwrap();
        let back = parse_tree(&g, &tree).unwrap();
        // Floats compare by bits (NaN is generated too).
        assert_eq!(back.ratio.to_bits(), v.ratio.to_bits());
        assert!(!reflect(&g, &v).is_empty());
        assert_eq!(
            (back.tags, back.index, back.grid, back.queue, back.shared),
            (v.tags, v.index, v.grid, v.queue, v.shared)
        );
    }
}

// ---------------------------------------------------------------- where an assumption applies, and retries

/// A tree whose root must be a node (`top`): its subtrees may be leaves.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(matches!(self, RootNode::Node(..)), top)]
enum RootNode {
    Leaf,
    Node(Box<RootNode>, #[choice(range = 0..=3)] u8, Box<RootNode>),
}

/// The same condition on every value (`every`, the default): only trees with no leaf at all,
/// which the depth budget does not allow; no value is valid.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(matches!(self, EveryNode::Node(..)), every, retries = 2)]
#[reflect(depth = 2)]
enum EveryNode {
    Leaf,
    Node(Box<EveryNode>, Box<EveryNode>),
}

/// A search tree held to its order on every part, with a root key that is even at the top only.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(ordered(self))]
#[assume(self.root_even(), top, retries = 30)]
enum Both {
    Leaf,
    Node(Box<Both>, #[choice(range = 0..=10)] u8, Box<Both>),
}

impl Both {
    fn keys(&self, out: &mut Vec<u8>) {
        if let Both::Node(l, k, r) = self {
            l.keys(out);
            out.push(*k);
            r.keys(out);
        }
    }
    fn root_even(&self) -> bool {
        matches!(self, Both::Node(_, k, _) if k % 2 == 0)
    }
}

fn ordered(t: &Both) -> bool {
    let mut ks = Vec::new();
    t.keys(&mut ks);
    ks.windows(2).all(|w| w[0] < w[1])
}

/// A field condition, retried; and one that never retries.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Fields {
    #[assume(*self % 3 == 0)]
    third: u8,
    #[assume(*self > 100, retries = 0)]
    big: u8,
}

/// Without retries, today's meaning: a failing value ends the case.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted(), retries = 0)]
struct SortedOnce(Vec<u8>);

/// With retries (the default).
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted())]
struct SortedRetried(Vec<u8>);

#[test]
fn top_holds_at_the_outermost_value_only() {
    let g = RootNode::generator();
    let mut leaf_beneath = 0;
    for seed in 0..300 {
        let t = generate(&g, seed).expect("a node at the root is easy to retry into");
        assert!(matches!(t, RootNode::Node(..)), "{t:?}");
        if let RootNode::Node(l, _, r) = &t {
            leaf_beneath += usize::from(**l == RootNode::Leaf || **r == RootNode::Leaf);
        }
    }
    assert!(leaf_beneath > 100, "{leaf_beneath}");
    assert!(!check(&g, &RootNode::Leaf));
    let leafy = RootNode::Node(Box::new(RootNode::Leaf), 1, Box::new(RootNode::Leaf));
    assert!(check(&g, &leafy));
    assert_eq!(reflect(&g, &leafy).len(), 1);
    assert_eq!(laws::<RootNode>(300), 300);
    // Every value held to it: no value at all.
    let e = EveryNode::generator();
    for seed in 0..50 {
        assert_eq!(generate(&e, seed), Err(Stop::Invalid));
    }
    assert!(!check(&e, &EveryNode::Node(Box::new(EveryNode::Leaf), Box::new(EveryNode::Leaf))));
}

#[test]
fn a_top_and_an_every_condition_together() {
    let g = Both::generator();
    let valid = laws::<Both>(300);
    assert!(valid > 200, "{valid}");
    for seed in 0..300 {
        if let Ok(t) = generate(&g, seed) {
            assert!(ordered(&t) && t.root_even(), "{t:?}");
        }
    }
    // A subtree's root may be odd.
    let odd_child =
        Both::Node(Box::new(Both::Node(Box::new(Both::Leaf), 1, Box::new(Both::Leaf))), 2, Box::new(Both::Leaf));
    assert!(check(&g, &odd_child));
    assert!(!check(&g, &Both::Node(Box::new(Both::Leaf), 3, Box::new(Both::Leaf))));
}

#[test]
fn field_conditions_retry_the_field_alone() {
    let g = Fields::generator();
    let (mut valid, mut retried) = (0, 0);
    for seed in 0..300 {
        let (v, tree) = generate_recorded(&g, seed);
        match v {
            Ok(f) => {
                valid += 1;
                assert!(f.third % 3 == 0 && f.big > 100);
                retried += usize::from(tree.retry_count() > 0);
                assert_eq!(parse_tree(&g, &tree), Ok(f.clone()));
                assert_eq!(reflect(&g, &f), vec![tree.without_retries()]);
            }
            Err(Stop::Invalid) => assert!(tree.retry_count() <= 11, "{tree}"),
            Err(e) => panic!("{e}"),
        }
    }
    assert!(valid > 20 && retried > 0, "{valid} valid, {retried} retried");
    laws::<Fields>(300);
}

#[test]
fn retries_raise_the_share_of_valid_cases_and_keep_the_laws() {
    let valid_once = laws::<SortedOnce>(400);
    let valid_retried = laws::<SortedRetried>(400);
    assert!(valid_retried > valid_once, "{valid_retried} <= {valid_once}");
    // Without retries nothing is recorded as an attempt.
    for seed in 0..100 {
        assert_eq!(generate_recorded(&SortedOnce::generator(), seed).1.retry_count(), 0);
    }
}
