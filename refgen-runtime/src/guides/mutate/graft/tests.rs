//! Tests of grafting: starts and their cuts, retries, relabelled and remapped donors.

use super::*;
use crate::guide::{CaseInfo, Erased};
use refgen_core::choice::Opt;
use refgen_core::combinators::int;
use refgen_core::interpret::replay::Cue;
use refgen_core::source::rng_from_seed;
use std::collections::HashSet;

/// The donor of `top` (the root group's one part) with `len` choices: `top` itself.
fn donor_of(top: ChoiceTree, len: usize) -> Graft {
    let mut donors = Donors::new(8);
    donors.add(&ChoiceTree::root(vec![top]), &mut rng_from_seed(1));
    let donor = (0..50).find_map(|s| donors.draw("x", &mut rng_from_seed(s)).filter(|g| g.choices.len() == len));
    donor.expect("the top node is a donor").clone()
}

/// The choices a script loaded with `donor` (`relabel`led, `remap`ped) answers to `steps`, each a
/// site and its request, with the rng of `seed`.
fn replay(donor: &Graft, steps: &[(Site, Request<'_>)], relabel: bool, remap: bool, seed: u64) -> Vec<Choice> {
    let (trail, gen) = (Trail::new(), int(0u8..=1));
    let handle = Erased(&gen);
    let (mut script, mut rng) = (Script::default(), rng_from_seed(seed));
    script.load(donor, relabel, remap);
    let ask = |(site, request)| ChoiceContext {
        site,
        request,
        cue: Cue::Missing,
        trail: &trail,
        case: CaseInfo { index: 0, budget: 1, gen: &handle },
    };
    steps
        .iter()
        .map(|&s| script.next(&ask(s), &mut rng, &|| None))
        .collect::<Option<Vec<_>>>()
        .expect("every step fits")
}

fn node() -> ChoiceTree {
    let x = |c: Choice, kids: Vec<ChoiceTree>| ChoiceTree::choice("x", c, kids);
    let k = |c: Choice| ChoiceTree::choice("k", c, vec![]);
    x(1, vec![x(1, vec![x(0, vec![]), k(3), x(0, vec![])]), k(7), x(1, vec![x(0, vec![]), k(9)])])
}

/// A corpus entry's start, read once, cuts as the entry itself does: the same script from the same
/// draws, for a tree of one pick with parts beneath it, for a root of one part or two, and for a
/// tree with no part.
#[test]
fn a_start_read_once_cuts_as_its_tree_does() {
    let k = |c: Choice| ChoiceTree::choice("k", c, vec![]);
    let trees = [
        ChoiceTree::root(vec![node()]),
        ChoiceTree::root(vec![]),
        ChoiceTree::root(vec![k(2)]),
        ChoiceTree::root(vec![node(), k(4)]),
    ];
    let mut ends = HashSet::new();
    for tree in &trees {
        let start = Start::of(tree);
        for seed in 0..64 {
            let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
            let cut = Script::cut(tree, &mut a).unwrap_or_default();
            let read = start.cut(&mut b);
            assert_eq!(cut.steps[..cut.end], read.steps[..read.end], "{tree:?}, seed {seed}");
            assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws");
            ends.insert(read.end);
        }
    }
    assert!(ends.len() >= 4, "cuts of several lengths: {ends:?}");
}

/// A start of several parts and no first choice (a property's arguments) keeps the parts before a
/// cut: before the first as often as a retry's cut, else before one of the others, uniformly (not
/// before the last half the time, as a retry's).
#[test]
fn a_start_of_several_arguments_cuts_after_the_first_uniformly() {
    let k = |c: Choice| ChoiceTree::choice("k", c, vec![]);
    let tree = ChoiceTree::root(vec![node(), k(4), k(5)]);
    let start = Start::of(&tree);
    let mut steps = Vec::new();
    Script::walk(&tree, &mut steps);
    let whole = steps.len();
    let (mut counts, n) = ([0u32; 3], 6000);
    for seed in 0..n {
        let read = start.cut(&mut rng_from_seed(seed));
        // The kept steps are the first arguments whole: none, the tree, or the tree and a key.
        let at = [0, whole - 2, whole - 1].iter().position(|&e| e == read.end).expect("a cut between arguments");
        assert_eq!(read.steps[..read.end], steps[..read.end]);
        counts[at] += 1;
    }
    let share = |i: usize| f64::from(counts[i]) / f64::from(n as u32);
    assert!((share(0) - (1.0 - CUT_LAST) / 3.0).abs() < 0.02, "{counts:?}");
    assert!((share(1) - share(2)).abs() < 0.04, "{counts:?}");
}

/// A retry of a filtered part is found at its first choice (beneath parts opened before it, too),
/// and no longer once it has made one: the pick it made opens its first part, and the choice asked
/// for there is the retry's second. (When that part was taken for the retry's first choice, every
/// retry of a graft case replayed its script's first choice one level deeper, and a graft case
/// whose retry began with a pick was never valid.)
#[test]
fn a_retry_is_begun_at_its_first_choice_only() {
    let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
    let pick = Request::Pick { options: &two, total: 2 };
    let mut trail = Trail::new();
    trail.open_part("arg");
    trail.begin_attempt();
    assert_eq!(retry_begun(&trail), None, "the first attempt");
    trail.open_choice("x", pick, 1);
    trail.open_part("x.0");
    trail.leaf_choice("x", pick, 0);
    trail.close();
    trail.close();
    trail.end_attempt(false);
    trail.begin_attempt();
    let failed = retry_begun(&trail).expect("the retry's first choice");
    assert!(trail.node(failed).is_retry());
    trail.open_part("wrapper");
    assert_eq!(retry_begun(&trail), Some(failed), "the first choice, beneath a part opened before it");
    trail.open_choice("x", pick, 1);
    assert_eq!(retry_begun(&trail), None, "the pick made, nothing beneath it yet");
    trail.open_part("x.0");
    assert_eq!(retry_begun(&trail), None, "in the pick's first part");
    trail.leaf_choice("x", pick, 0);
    assert_eq!(retry_begun(&trail), None, "after a choice of the retry");
}

/// A node `x(1)` with a colour pick `c`, a key `k` and two children at `x` (a node with its own colour,
/// and a leaf), replayed as a donor: relabelled, only its own colour is drawn afresh.
#[test]
fn a_relabelled_donor_draws_its_own_picks_afresh_and_keeps_its_integers_and_parts() {
    let leaf = |site: &'static str, c| ChoiceTree::choice(site, c, vec![]);
    let node = ChoiceTree::choice(
        "x",
        1,
        vec![leaf("c", 0), leaf("k", 7), ChoiceTree::choice("x", 1, vec![leaf("c", 1), leaf("x", 0)]), leaf("x", 0)],
    );
    let donor = donor_of(node, 7);
    assert_eq!(&donor.own[..], &[1, 2], "its colour and key");
    let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
    let pick = Request::Pick { options: &two, total: 2 };
    let steps = [
        ("x", pick),
        ("c", pick),
        ("k", Request::Int { span: 15 }),
        ("x", pick),
        ("c", pick),
        ("x", pick),
        ("x", pick),
    ];
    let replay = |relabel, seed| replay(&donor, &steps, relabel, false, seed);
    let colours: HashSet<Choice> = (0..40)
        .map(|seed| {
            assert_eq!(replay(false, seed), [1, 0, 7, 1, 1, 0, 0], "as made");
            let relabelled = replay(true, seed);
            assert_eq!((relabelled[0], &relabelled[2..]), (1, &[7, 1, 1, 0, 0][..]), "all but the colour kept");
            relabelled[1]
        })
        .collect();
    assert_eq!(colours.len(), 2, "the colour is drawn afresh");
}

/// A donor with keys 9, 3, 14 and 3 at `k` (in nested nodes at `x`), remapped: its keys keep their
/// order and their one equality, and land elsewhere in `0..=15` from seed to seed.
#[test]
fn a_remapped_donor_keeps_the_order_of_its_integers_and_moves_them_in_the_range() {
    let leaf = |site: &'static str, c| ChoiceTree::choice(site, c, vec![]);
    let inner = || ChoiceTree::choice("x", 1, vec![leaf("k", 3), leaf("x", 0)]);
    let node = ChoiceTree::choice("x", 1, vec![leaf("k", 9), inner(), leaf("k", 14), inner()]);
    let donor = donor_of(node, 9);
    let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
    let (pick, key) = (Request::Pick { options: &two, total: 2 }, Request::Int { span: 15 });
    let steps = [
        ("x", pick),
        ("k", key),
        ("x", pick),
        ("k", key),
        ("x", pick),
        ("k", key),
        ("x", pick),
        ("k", key),
        ("x", pick),
    ];
    let replay = |remap, seed| replay(&donor, &steps, false, remap, seed);
    let keys: HashSet<[Choice; 4]> = (0..40)
        .map(|seed| {
            assert_eq!(replay(false, seed), [1, 9, 1, 3, 0, 14, 1, 3, 0], "as made");
            let remapped = replay(true, seed);
            let picks = [remapped[0], remapped[2], remapped[4], remapped[6], remapped[8]];
            assert_eq!(picks, [1, 1, 0, 1, 0], "the picks kept");
            let [a, b, c, d] = [remapped[1], remapped[3], remapped[5], remapped[7]];
            assert!(b == d && b < a && a < c && c <= 15, "9, 3, 14, 3 in order: {a} {b} {c} {d}");
            [a, b, c, d]
        })
        .collect();
    assert!(keys.len() > 10, "the keys move: {keys:?}");
    assert!(keys.iter().any(|k| k[2] < 9) && keys.iter().any(|k| k[1] > 3), "down and up the range");
}

/// A site whose range changes from request to request (an integer bound by an earlier choice): a
/// remapped value outside the request's range is replayed as made, so every answer fits its request.
#[test]
fn a_remapped_integer_always_fits_its_request() {
    let leaf = |site: &'static str, c| ChoiceTree::choice(site, c, vec![]);
    let inner = || ChoiceTree::choice("x", 1, vec![leaf("k", 3), leaf("x", 0)]);
    let donor = donor_of(ChoiceTree::choice("x", 1, vec![leaf("k", 9), inner(), leaf("k", 14), inner()]), 9);
    let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
    let (pick, wide, narrow) =
        (Request::Pick { options: &two, total: 2 }, Request::Int { span: 15 }, Request::Int { span: 3 });
    let steps = [
        ("x", pick),
        ("k", wide),
        ("x", pick),
        ("k", narrow),
        ("x", pick),
        ("k", wide),
        ("x", pick),
        ("k", narrow),
        ("x", pick),
    ];
    for seed in 0..60 {
        let made = replay(&donor, &steps, false, true, seed);
        assert!(made.iter().zip(&steps).all(|(&c, s)| s.1.accepts(c)), "seed {seed}: {made:?}");
    }
}

/// Integers that cannot keep their order in the range (more distinct values than it holds), or that
/// have none to keep (one value), are replayed as made.
#[test]
fn a_remap_that_cannot_fit_or_has_no_order_is_the_identity() {
    let steps: Vec<(Cow<'static, str>, Choice)> = [5, 1, 3].iter().map(|&c| (Cow::Borrowed("k"), c)).collect();
    let m = Remap::draw("k", &steps, 1, None, &mut rng_from_seed(3));
    assert_eq!((m.apply(5), m.apply(1), m.apply(3)), (5, 1, 3));
    let one: Vec<(Cow<'static, str>, Choice)> = vec![(Cow::Borrowed("k"), 4), (Cow::Borrowed("k"), 4)];
    assert!((0..20).all(|s| Remap::draw("k", &one, 15, None, &mut rng_from_seed(s)).apply(4) == 4));
    let m = Remap::draw("k", &steps, 2, None, &mut rng_from_seed(3));
    assert_eq!((m.apply(1), m.apply(3), m.apply(5)), (0, 1, 2), "three values in 0..=2: the only order-keeping map");
}

/// A remap with room after the last integer of an ordered site (a bound) puts the donor's integers
/// inside that room, in their order; a bound with less room than the donor's distinct values is
/// ignored.
#[test]
fn a_remap_within_a_bound_stays_inside_it_in_order() {
    let steps: Vec<(Cow<'static, str>, Choice)> = [5, 1, 3].iter().map(|&c| (Cow::Borrowed("k"), c)).collect();
    let mut inside = HashSet::new();
    for s in 0..50 {
        let m = Remap::draw("k", &steps, 15, Some((10, 15)), &mut rng_from_seed(s));
        let (a, b, c) = (m.apply(1), m.apply(3), m.apply(5));
        assert!(10 <= a && a < b && b < c && c <= 15, "{a} {b} {c}");
        inside.insert(a);
    }
    assert!(inside.len() > 1, "the window moves inside the bound");
    let below = (0..50).any(|s| Remap::draw("k", &steps, 15, Some((14, 15)), &mut rng_from_seed(s)).apply(1) < 14);
    assert!(below, "two values of room for three: the whole range");
}

/// An integer made outside every pick (a property's key beside its tree) is answered, about
/// [`REUSE`] of the time, with one made before in the case at its site and range, drawn uniformly
/// among them (a key of the tree); a failed attempt's integers are not among them. Inside a pick, at
/// another site or range, or where none was made before, it is not, and no draw is made.
#[test]
fn a_key_beside_a_tree_is_now_and_then_one_of_its_keys() {
    let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
    let (pick, key) = (Request::Pick { options: &two, total: 2 }, Request::Int { span: 15 });
    let gen = int(0u8..=1);
    let handle = Erased(&gen);
    let ask = |trail: &Trail, site: Site, request: Request<'static>, seed: u64| {
        let ctx = ChoiceContext {
            site,
            request,
            cue: Cue::Missing,
            trail,
            case: CaseInfo { index: 0, budget: 1, gen: &handle },
        };
        let mut rng = rng_from_seed(seed);
        let reuse = reused(&ctx, &mut rng);
        (reuse, rng.random::<u64>())
    };
    let untouched = |seed: u64| rng_from_seed(seed).random::<u64>();
    let mut trail = Trail::new();
    trail.open_part("arg");
    // A failed attempt made the key 5; the kept tree has the keys 3 and 7.
    trail.begin_attempt();
    trail.open_choice("x", pick, 1);
    trail.leaf_choice("k", key, 5);
    trail.close();
    trail.end_attempt(false);
    trail.begin_attempt();
    trail.open_choice("x", pick, 1);
    trail.leaf_choice("k", key, 3);
    trail.leaf_choice("k", key, 7);
    // Inside the pick: never, and no draw.
    for seed in 0..50 {
        assert_eq!(ask(&trail, "k", key, seed), (None, untouched(seed)));
    }
    trail.close();
    trail.end_attempt(true);
    trail.close();
    // Outside every pick: 3 or 7, about `REUSE` of the time.
    let mut seen = HashSet::new();
    let answered = (0..1000).filter_map(|seed| ask(&trail, "k", key, seed).0.inspect(|c| _ = seen.insert(*c))).count();
    assert_eq!(seen, HashSet::from([3, 7]));
    assert!((answered as f64 - 1000.0 * REUSE).abs() < 100.0, "{answered} of 1000 at a chance of {REUSE}");
    // Another site, another range: never, and no draw.
    for seed in 0..50 {
        assert_eq!(ask(&trail, "j", key, seed), (None, untouched(seed)));
        assert_eq!(ask(&trail, "k", Request::Int { span: 16 }, seed), (None, untouched(seed)));
    }
    // None made before: never, and no draw.
    let mut empty = Trail::new();
    empty.open_part("arg");
    for seed in 0..50 {
        assert_eq!(ask(&empty, "k", key, seed), (None, untouched(seed)));
    }
}
