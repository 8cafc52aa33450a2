//! Laws of refgen-core's interpretations, over hand-written generators and many seeds.

use refgen::combinators::{any_char, bool, char_class, int, just, option, pick, recursive, string, vec};
use refgen::interpret::{
    check, generate, generate_recorded, generate_weighted, parse, parse_tree, probability, reflect, replay_lenient,
    ParseError, Weights,
};
use refgen::prelude::*;
use refgen::refgen_core::laws;
use refgen::refgen_core::{ChoiceTree, Stop};
use refgen_fixtures::handwritten::{bin_tree, expr, is_bst, ref_bst, sized_vec, sorted_list, Expr, Tree};
use std::fmt::Debug;
use std::hash::Hash;

pub(crate) const SEEDS: u64 = 400;

/// The round-trip and reflection laws (with the bytes encoding law) over 400 seeds; every seed gives a
/// value. And bytes totality: every byte string up to 64 bytes long decodes to a value in range.
fn round_trip_and_reflect<T: PartialEq + Debug>(g: &BoxGen<T>) {
    assert_eq!(laws::round_trip(g, SEEDS), SEEDS as usize);
    assert_eq!(laws::bytes_total(g, 64), 65 * 8);
}

fn derivative_laws<T: Ord + Clone + Debug + 'static>(g: &BoxGen<T>) {
    laws::derivatives(g);
}

fn factoring<T: Clone + Eq + Hash + Debug>(g: &BoxGen<T>, samples: u64) {
    laws::factoring(g, samples);
}

/// Lenient replay of edited trees (the shared edits, and choices set out of range) stays in range;
/// these generators have no validity condition, so every replay gives a value.
fn lenient_replay_stays_in_range<T: PartialEq + Debug>(g: &BoxGen<T>) {
    assert_eq!(laws::lenient_replay(g, SEEDS), SEEDS as usize);
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

#[test]
fn theorem_1_factoring() {
    factoring(&ref_bst(0, 2), 20_000);
    factoring(&sized_vec(2, 2), 20_000);
    factoring(&sorted_list(2, 2), 20_000);
    factoring(&(bool(), option(int(0u8..=2))).boxed(), 20_000);
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
    // Goldstein's thesis Fig. 3.2: change a key; the rest of the tree is fixed up to stay a BST.
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
    // A filter without retries: its rejection is reported as such.
    let even = int(0u8..=9).filter(|x| x % 2 == 0).retries(0);
    assert_eq!(parse(&even, &[3]), Err(ParseError::NoValue(Stop::Invalid)));
    // With retries, a rejected value is a failed attempt, and another follows.
    let even = int(0u8..=9).filter(|x| x % 2 == 0).retries(2);
    assert!(matches!(parse(&even, &[3]), Err(ParseError::Exhausted { index: 1, .. })));
    assert_eq!(parse(&even, &[3, 5, 4]), Ok(4));
    assert_eq!(parse(&even, &[3, 5, 7]), Err(ParseError::NoValue(Stop::Invalid)));
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
    let like_leaf = Weights::like(&g, &[Tree::Leaf]).unwrap();
    for seed in 0..100 {
        assert_eq!(generate_weighted(&g, &like_leaf, seed).unwrap(), Tree::Leaf);
    }
    // Tuned unlike a lone leaf: nodes are preferred.
    let unlike_leaf = Weights::unlike(&g, &[Tree::Leaf]).unwrap();
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
    fn laws<F: refgen::refgen_core::combinators::FloatValue>(g: &BoxGen<F>) -> [usize; 3] {
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

#[test]
fn more_standard_types_reflect() {
    use std::cmp::{Ordering, Reverse};
    use std::collections::{BinaryHeap, LinkedList};
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
    use std::num::{Saturating, Wrapping};
    /// Every generated value reflects, and each of its reflections parses back to a value `same` as it.
    fn laws_by<T: Reflective + Debug>(same: impl Fn(&T, &T) -> bool) -> Vec<T> {
        let g = T::generator();
        let mut made = Vec::new();
        for seed in 0..200 {
            let v = generate(&g, seed).unwrap();
            let reflected = reflect(&g, &v);
            assert!(!reflected.is_empty(), "{v:?}");
            for t in &reflected {
                let back = parse_tree(&g, t).unwrap();
                assert!(same(&back, &v), "{back:?} from {v:?}");
            }
            made.push(v);
        }
        made
    }
    fn laws<T: Reflective + PartialEq + Debug>() -> Vec<T> {
        laws_by::<T>(|a, b| a == b)
    }
    let results = laws::<Result<u8, String>>();
    assert!(results.iter().any(Result::is_ok) && results.iter().any(Result::is_err));
    let orderings = laws::<Ordering>();
    assert!([Ordering::Less, Ordering::Equal, Ordering::Greater].iter().all(|o| orderings.contains(o)));
    let v4 = laws::<Ipv4Addr>();
    assert!(v4.contains(&Ipv4Addr::UNSPECIFIED), "the edges come up");
    laws::<Ipv6Addr>();
    let ips = laws::<IpAddr>();
    assert!(ips.iter().any(IpAddr::is_ipv4) && ips.iter().any(IpAddr::is_ipv6));
    laws::<SocketAddr>();
    laws::<SocketAddrV4>();
    laws::<SocketAddrV6>();
    let ranges = laws::<std::ops::Range<u8>>();
    assert!(ranges.iter().any(|r| r.is_empty()) && ranges.iter().any(|r| !r.is_empty()));
    laws::<std::ops::RangeInclusive<i16>>();
    laws::<Wrapping<u32>>();
    laws::<Saturating<i8>>();
    laws::<Reverse<char>>();
    laws::<std::ffi::OsString>();
    laws::<LinkedList<u8>>();
    laws_by::<BinaryHeap<u16>>(|a, b| a.clone().into_sorted_vec() == b.clone().into_sorted_vec());
    // A value the generator cannot make does not reflect.
    let scoped = SocketAddrV6::new(Ipv6Addr::LOCALHOST, 80, 0, 7);
    assert!(reflect(&SocketAddrV6::generator(), &scoped).is_empty());
    assert!(reflect(&SocketAddr::generator(), &SocketAddr::V6(scoped)).is_empty());
}

/// A heap of keys: `Empty | Node(key, left, right)`.
#[derive(Debug, Clone, PartialEq)]
enum Heap {
    Empty,
    Node(u8, Box<Heap>, Box<Heap>),
}

/// Heaps up to `depth` levels, the bottom level `just(Empty)` or a one-option pick.
fn heap(depth: usize, bottom_is_a_pick: bool) -> BoxGen<Heap> {
    recursive(depth, move |sub: Option<BoxGen<Heap>>| {
        let empty = || just(Heap::Empty).boxed();
        match sub {
            None if bottom_is_a_pick => pick("heap", [("empty", 1, empty())]).boxed(),
            None => empty(),
            Some(sub) => {
                let node = (int(0u8..=9), sub.clone(), sub)
                    .map(
                        |(k, l, r)| Heap::Node(k, Box::new(l), Box::new(r)),
                        |h: &Heap| match h {
                            Heap::Node(k, l, r) => Some((*k, (**l).clone(), (**r).clone())),
                            Heap::Empty => None,
                        },
                    )
                    .boxed();
                pick("heap", [("empty", 1, empty()), ("node", 3, node)]).boxed()
            }
        }
    })
}

#[test]
fn a_recursive_generator_records_the_same_shape_whether_it_ends_in_just_or_a_pick() {
    let leaf = |k| Heap::Node(k, Box::new(Heap::Empty), Box::new(Heap::Empty));
    let v = Heap::Node(0, Box::new(leaf(1)), Box::new(Heap::Empty));
    for depth in [2, 3] {
        let (a, b) = (heap(depth, false), heap(depth, true));
        let ta = reflect(&*a, &v);
        assert_eq!(ta, reflect(&*b, &v), "depth {depth}");
        // The leaf node costs the same choices at the bottom as anywhere: node, key, empty, empty.
        assert_eq!(ta[0].choices(), vec![1, 0, 1, 1, 0, 0, 0], "depth {depth}");
        round_trip_and_reflect(&a);
        for seed in 0..50 {
            assert_eq!(generate(&*a, seed), generate(&*b, seed), "seed {seed}");
        }
    }
}

#[test]
fn a_plain_bind_runs_forward_and_does_not_reflect() {
    let g = int(1usize..=5).bind(|n| vec(int(0..=n - 1), n..=n));
    for seed in 0..50 {
        let (v, tree) = generate_recorded(&g, seed);
        let v = v.unwrap();
        assert!(!v.is_empty() && v.iter().all(|&i| i < v.len()), "{v:?}");
        assert_eq!(parse(&g, &tree.choices()), Ok(v.clone()));
        assert!(reflect(&g, &v).is_empty());
        assert!(!check(&g, &v));
    }
}

#[test]
fn a_heap_ending_in_just_shrinks_as_one_ending_in_a_pick() {
    use refgen::refgen_runtime::shrink::{shrink, Budget};
    let n = |k, l, r| Heap::Node(k, Box::new(l), Box::new(r));
    let leaf = |k| n(k, Heap::Empty, Heap::Empty);
    let unsorted = |h: &Heap| {
        fn pre(h: &Heap, out: &mut Vec<u8>) {
            if let Heap::Node(k, l, r) = h {
                out.push(*k);
                pre(l, out);
                pre(r, out);
            }
        }
        let mut keys = Vec::new();
        pre(h, &mut keys);
        !keys.is_sorted()
    };
    // The minimal failing value sits deeper than it must: at the top it costs more choices
    // than at the bottom unless the bottom level records the same shape as the others.
    let start = n(0, Heap::Empty, n(0, leaf(1), leaf(0)));
    for bottom_is_a_pick in [false, true] {
        let g = heap(3, bottom_is_a_pick);
        let tree = reflect(&*g, &start).remove(0);
        let budget = Budget { max_steps: 4096, max_time: std::time::Duration::from_secs(60) };
        let (t, _) = shrink(tree, budget, |cand| match replay_lenient(&*g, &cand, 0) {
            (Ok(v), used) if unsorted(&v) => Some(used),
            _ => None,
        });
        assert_eq!(parse_tree(&*g, &t).unwrap(), n(0, leaf(1), leaf(0)), "bottom is a pick: {bottom_is_a_pick}");
    }
}

/// The fast path of collections (`Gen::fill_rng`: integers and chars decide their arithmetic once
/// for a whole run of elements) and of picks draws exactly as the source path does, for every kind
/// of range: unsigned, a power of two, every word (no scaling), one value (no draw), signed
/// (counted outward from zero), wider than a word (two choices); ASCII, Latin-1, several ranges,
/// one char; elements that stop the run; regexes whose top is one repetition and others.
#[test]
fn fast_paths_draw_as_the_source_path_does() {
    use refgen::combinators::any_int;
    use refgen::refgen_core::regex::regex;
    fn same<G: Gen>(g: G)
    where
        G::Value: PartialEq + Debug,
    {
        laws::same_draws(&g, SEEDS);
    }
    same(vec(int(0u32..=9), 0..=20));
    same(vec(any_int::<u32>(), 0..=20));
    same(vec(any_int::<u64>(), 0..=8));
    same(vec(int(7u8..=7), 0..=8));
    same(vec(int(-1000i64..=1000), 0..=8));
    same(vec(int(-3i8..=100), 0..=8));
    same(vec(int(-100i16..=-7), 0..=8));
    same(vec(any_int::<i128>(), 0..=4));
    same(vec(int(5u128..=9), 0..=4));
    same(vec(int(0u8..=9).filter(|x| *x < 8), 0..=6));
    same(vec(vec(int(0u8..=3), 0..=3), 0..=3));
    same(vec(just(1u8), 0..=4));
    same(string(char_class(&[(' ', '~')]), 0..=16));
    same(string(char_class(&[('a', 'ÿ')]), 0..=16));
    same(string(char_class(&[('a', 'c'), ('x', 'z')]), 0..=16));
    same(string(char_class(&[('é', 'é')]), 0..=5));
    same(string(any_char(), 0..=16));
    for pattern in ["[ -~]{0,16}", "[a-z]{1,4}", "(ab){2,3}", "x[0-9]{2}", "[a-c]{2}(x|yz)?", "(a|bc)*d"] {
        same(regex(pattern));
    }
    same(bin_tree(4));
    same(pick("p", [("a", 1, just(0u8).boxed()), ("b", 2, just(1u8).boxed()), ("c", 3, int(2u8..=9).boxed())]));
}

/// A tuple whose part stops the run draws nothing after that part, on the fast path as with a
/// source: the RNG is left where the stopping part left it.
#[test]
fn a_tuple_stops_at_the_part_that_stops() {
    use refgen::refgen_core::source::rng_from_seed;
    use refgen::refgen_core::RngSource;
    let never = || int(0u8..=9).filter(|x| *x > 9).retries(0);
    let (first, middle) = ((never(), int(0u8..=9), int(0u8..=9)), (int(0u8..=9), never(), int(0u8..=9)));
    for seed in 0..SEEDS {
        let mut alone = rng_from_seed(seed);
        int(0u8..=9).run_rng(&mut alone).unwrap();
        let mut fast = rng_from_seed(seed);
        assert_eq!(first.run_rng(&mut fast), Err(Stop::Invalid));
        assert!(fast == alone, "seed {seed}: the tuple drew after its first part stopped");
        let mut slow = rng_from_seed(seed);
        assert_eq!(first.run(&mut RngSource(&mut slow)), Err(Stop::Invalid));
        assert!(slow == alone, "seed {seed}: with a source, the tuple drew after its first part stopped");
        int(0u8..=9).run_rng(&mut alone).unwrap();
        let mut fast = rng_from_seed(seed);
        assert_eq!(middle.run_rng(&mut fast), Err(Stop::Invalid));
        assert!(fast == alone, "seed {seed}: the tuple drew after its second part stopped");
    }
}

/// `ConstInt::<T, LO, HI>` is `int(LO..=HI)` with its bounds in its type: for every kind of range
/// (unsigned, full width, one value, signed around zero, asymmetric, negative only, wider than a
/// word), the same values and draws from every seed, alone and as a collection's elements (the
/// fill path with the range folded in), and the same ways backward.
#[test]
fn const_int_is_int_with_constant_bounds() {
    use refgen::combinators::ConstInt;
    use refgen::refgen_core::source::rng_from_seed;
    fn alike<T, const LO: i128, const HI: i128>(lo: T, hi: T, probes: &[T])
    where
        T: refgen::combinators::IntValue + Hash,
    {
        let (fast, slow) = (ConstInt::<T, LO, HI>::new("n"), int(lo..=hi).site("n"));
        for seed in 0..SEEDS {
            assert_eq!(generate(&fast, seed), generate(&slow, seed), "{lo:?}..={hi:?}, seed {seed}");
            assert_eq!(generate_recorded(&fast, seed), generate_recorded(&slow, seed), "{lo:?}..={hi:?}");
            let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
            let (xs, ys) = (vec(fast, 0..=12).run_rng(&mut a), vec(slow, 0..=12).run_rng(&mut b));
            assert_eq!(xs, ys, "{lo:?}..={hi:?}, seed {seed}: the elements differ");
            assert!(a == b, "{lo:?}..={hi:?}, seed {seed}: the elements draw differently");
        }
        laws::same_draws(&vec(fast, 0..=12), SEEDS);
        for &v in probes.iter().chain([lo, hi].iter()) {
            assert_eq!(reflect(&fast, &v), reflect(&slow, &v), "{lo:?}..={hi:?}: the ways of {v:?}");
        }
    }
    alike::<u8, 0, 9>(0, 9, &[5, 10]);
    alike::<u32, 0, { u32::MAX as i128 }>(0, u32::MAX, &[1 << 31]);
    alike::<u64, 0, { u64::MAX as i128 }>(0, u64::MAX, &[1 << 63]);
    alike::<u16, 7, 7>(7, 7, &[6, 8]);
    alike::<u64, 3, 1000>(3, 1000, &[2, 500]);
    alike::<i64, -1000, 1000>(-1000, 1000, &[0, -1, 1, 1001]);
    alike::<i8, -3, 100>(-3, 100, &[-4, 0, 50]);
    alike::<i16, -100, -7>(-100, -7, &[-6, -50]);
    alike::<i32, { i32::MIN as i128 }, { i32::MAX as i128 }>(i32::MIN, i32::MAX, &[0, -1]);
    alike::<i128, { i128::MIN }, { i128::MAX }>(i128::MIN, i128::MAX, &[0, -1, 1 << 100]);
    alike::<u128, 5, { 1 << 80 }>(5, 1 << 80, &[4, 1 << 70]);
}

/// A `ConstInt` whose bounds do not fit its type, or whose range is empty, is refused when it is
/// built, as `int` refuses an empty range.
#[test]
fn const_int_refuses_bounds_it_cannot_hold() {
    use refgen::combinators::ConstInt;
    let refused = |f: fn()| std::panic::catch_unwind(f).is_err();
    assert!(refused(|| {
        ConstInt::<u8, 0, 256>::new("n");
    }));
    assert!(refused(|| {
        ConstInt::<u32, -1, 5>::new("n");
    }));
    assert!(refused(|| {
        ConstInt::<u128, -1, 5>::new("n");
    }));
    assert!(refused(|| {
        ConstInt::<i8, -129, 0>::new("n");
    }));
    assert!(refused(|| {
        ConstInt::<i32, 5, 4>::new("n");
    }));
    assert!(!refused(|| {
        ConstInt::<i8, -128, 127>::new("n");
    }));
}

/// A source whose answers lie outside the choice point's range stops the run with
/// `Stop::Rejected` at every kind of integer choice (the check the fast path leaves out, since
/// the RNG's draws are always in range).
#[test]
fn answers_out_of_range_are_rejected() {
    use refgen::refgen_core::choice::{Choice, Request, Site};
    use refgen::refgen_core::regex::regex;
    use refgen::refgen_core::Source;
    /// Answers every choice point with one more than its largest answer.
    struct PastTheEnd;
    impl Source for PastTheEnd {
        fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
            Ok(request.arity())
        }
    }
    assert_eq!(int(0u8..=9).run(&mut PastTheEnd), Err(Stop::Rejected));
    assert_eq!(int(-5i64..=5).run(&mut PastTheEnd), Err(Stop::Rejected));
    assert_eq!(char_class(&[('a', 'c'), ('x', 'z')]).run(&mut PastTheEnd), Err(Stop::Rejected));
    assert_eq!(vec(int(0u8..=9), 0..=3).run(&mut PastTheEnd), Err(Stop::Rejected));
    assert_eq!(regex("[a-z]{0,3}").run(&mut PastTheEnd), Err(Stop::Rejected));
    /// Answers its first choice point (a length) with its largest answer,
    /// then every other one past the end: an element's answer is checked too.
    struct ElementsPastTheEnd(bool);
    impl Source for ElementsPastTheEnd {
        fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
            let length = !std::mem::replace(&mut self.0, true);
            Ok(if length { request.largest() } else { request.arity() })
        }
    }
    assert_eq!(vec(int(0u8..=9), 0..=3).run(&mut ElementsPastTheEnd(false)), Err(Stop::Rejected));
    assert_eq!(vec(char_class(&[('a', 'c')]), 1..=3).run(&mut ElementsPastTheEnd(false)), Err(Stop::Rejected));
    assert_eq!(regex("[a-z]{0,3}").run(&mut ElementsPastTheEnd(false)), Err(Stop::Rejected));
}
