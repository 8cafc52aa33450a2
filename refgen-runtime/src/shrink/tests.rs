//! The shrinker's tests: minimal results, the same search however candidates are made, budgets.

use super::candidate::EditHasher;
use super::index::tree_hash;
use super::*;
use refgen_core::combinators::{any_int, int, vec};
use refgen_core::edit::Edit;
use refgen_core::interpret::{generate_recorded, reflect, replay_lenient, run_recorded};
use refgen_core::{parse_tree, BoxGen, Gen};
use std::borrow::Cow;
use std::hash::{Hash, Hasher};

fn shrink_with<G: Gen>(g: &G, seed: u64, fails: impl Fn(&G::Value) -> bool) -> (G::Value, ShrinkStats) {
    let (v, tree) = generate_recorded(g, seed);
    assert!(fails(&v.unwrap()), "seed {seed} should fail");
    let budget = Budget { max_steps: 10_000, max_time: Duration::from_secs(60) };
    let (t, stats) = shrink(tree, budget, |cand| match replay_lenient(g, &cand, 0) {
        (Ok(v), used) if fails(&v) => Some(used),
        _ => None,
    });
    (parse_tree(g, &t).unwrap(), stats)
}

/// Shrinks the value `start` (reflected into its choices) among the values that `fails`.
fn shrink_from<G: Gen>(g: &G, start: G::Value, fails: impl Fn(&G::Value) -> bool) -> G::Value {
    let tree = reflect(g, &start).into_iter().next().expect("the start value is in range");
    let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
    let (t, _) = shrink(tree, budget, |cand| match replay_lenient(g, &cand, 0) {
        (Ok(v), used) if fails(&v) => Some(used),
        _ => None,
    });
    parse_tree(g, &t).unwrap()
}

fn pair(hi: u32) -> impl Gen<Value = (u32, u32)> {
    (int(1u32..=hi).site("x"), int(1u32..=hi).site("y"))
}

#[test]
fn equal_values_go_down_together() {
    // No pass lowering one choice can keep `x == y`.
    for start in [(590, 590), (10_000, 10_000), (11, 11)] {
        let min = shrink_from(&pair(10_000), start, |&(x, y)| x >= 10 && x == y);
        assert_eq!(min, (10, 10), "from {start:?}");
    }
}

#[test]
fn two_values_go_down_by_the_same_amount() {
    for start in [(590, 591), (9_999, 9_998), (12, 11)] {
        let min = shrink_from(&pair(10_000), start, |&(x, y)| x >= 10 && x.abs_diff(y) == 1);
        assert_eq!(min, (10, 9), "from {start:?}");
    }
    for start in [(5_000, 5_004), (700, 697)] {
        let min = shrink_from(&pair(10_000), start, |&(x, y)| x >= 10 && x != y && x.abs_diff(y) <= 4);
        assert_eq!(min, (10, 6), "from {start:?}");
    }
}

#[test]
fn signed_values_go_down_together_a_unit_at_a_time() {
    // Choices of signed integers count outward (0, 1, -1, 2, ...): one unit is two choices.
    let g = (int(-1000i32..=1000), int(-1000i32..=1000));
    for start in [(-500, -501), (400, 401)] {
        let min = shrink_from(&g, start, |&(x, y)| x.abs() >= 10 && x.abs_diff(y) == 1);
        assert_eq!(min.0.abs(), 10, "from {start:?}: {min:?}");
        assert_eq!(min.1.abs(), 9, "from {start:?}: {min:?}");
    }
}

#[test]
fn an_amount_moves_from_one_value_to_the_next() {
    let g = (int(0u8..=255), int(0u8..=255));
    for start in [(181, 75), (120, 136), (255, 255)] {
        let min = shrink_from(&g, start, |&(x, y)| x.wrapping_add(y) < x);
        assert_eq!(min, (1, 255), "from {start:?}");
    }
}

#[test]
fn deleted_elements_renumber_the_indices_after_them() {
    // A length, then that many indices into the list; no two-cycle.
    let g = int(1usize..=10).bind(|n| vec(int(0usize..=n - 1), n..=n));
    let two_cycle = |xs: &Vec<usize>| xs.iter().enumerate().any(|(i, &j)| j != i && xs[j] == i);
    for start in [vec![0, 0, 3, 2], vec![1, 1, 1, 4, 3], vec![2, 2, 5, 5, 5, 3]] {
        // The plain bind does not refgen: start from the choices instead.
        let mut choices = vec![start.len() as u64 - 1, 0];
        choices.extend(start.iter().map(|&x| x as u64));
        let ((v, tree), _) = run_recorded(&g, crate::token::sequence_source(&choices));
        assert_eq!(v.unwrap(), start);
        let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
        let (t, _) = shrink(tree, budget, |cand| match replay_lenient(&g, &cand, 0) {
            (Ok(v), used) if two_cycle(&v) => Some(used),
            _ => None,
        });
        assert_eq!(parse_tree(&g, &t).unwrap(), vec![1, 0], "from {start:?}");
    }
}

#[test]
fn an_extreme_integer_shrinks_into_the_uniform_option() {
    use refgen_core::combinators::integer;
    // `u64::MAX` and `u64::MAX - 1` sit in the default integer's last option; the smallest failing
    // value, 1001, in the uniform option before it: the raise pass gets there from the top.
    for (first, fails) in [(u64::MAX, 1001u64), (u64::MAX - 1, 70_000)] {
        let g = integer::<u64>("u64");
        let seed = (0..500u64)
            .find(|&s| generate_recorded(&g, s).0 == Ok(first))
            .expect("an extreme comes up in one case in twenty");
        let (v, _) = shrink_with(&g, seed, |&v| v >= fails);
        assert_eq!(v, fails, "from {first}");
    }
    // A signed one found at MIN shrinks to the negative boundary.
    let g = integer::<i32>("i32");
    let seed = (0..500u64).find(|&s| generate_recorded(&g, s).0 == Ok(i32::MIN)).expect("MIN comes up");
    let (v, _) = shrink_with(&g, seed, |&v| v < -5000);
    assert_eq!(v, -5001);
}

#[test]
fn shortlex_orders_by_length_then_lexicographically() {
    assert!(shortlex_less(&[9], &[0, 0]));
    assert!(shortlex_less(&[0, 1], &[1, 0]));
    assert!(!shortlex_less(&[1, 0], &[1, 0]));
}

#[test]
fn a_list_shrinks_to_the_smallest_failing_one() {
    let g = vec(int(0u32..=1000), 0..=20);
    let mut shrunk = 0;
    for seed in 0..40 {
        let (v, _) = generate_recorded(&g, seed);
        if !v.unwrap().iter().any(|&x| x >= 500) {
            continue;
        }
        let (min, stats) = shrink_with(&g, seed, |xs| xs.iter().any(|&x| x >= 500));
        assert_eq!(min, vec![500], "seed {seed}");
        assert!(stats.steps > 0);
        // Every try and every kept candidate is some pass's.
        assert_eq!(stats.passes.iter().map(|p| p.tries).sum::<u64>(), stats.attempts);
        assert_eq!(stats.passes.iter().map(|p| p.kept).sum::<u64>(), stats.steps);
        assert!(stats.pass(Pass::LowerChoices).kept > 0, "seed {seed}: {stats:?}");
        shrunk += 1;
    }
    assert!(shrunk > 10);
}

#[test]
fn reverse_shrinks_to_zero_one() {
    let g = vec(int(0u32..=100), 0..=10);
    for seed in 0..40 {
        let (v, _) = generate_recorded(&g, seed);
        let v = v.unwrap();
        if v.iter().rev().eq(v.iter()) {
            continue;
        }
        let (min, _) = shrink_with(&g, seed, |xs| !xs.iter().rev().eq(xs.iter()));
        assert_eq!(min, vec![0, 1], "seed {seed}");
    }
}

#[test]
fn a_validity_filter_is_honoured_while_shrinking() {
    // Only lists with an even sum are valid; every shrunk candidate must be too.
    let g = vec(int(0u32..=100), 1..=10).filter(|xs: &Vec<u32>| xs.iter().sum::<u32>() % 2 == 0);
    let mut checked = 0;
    for seed in 0..60 {
        let (v, _) = generate_recorded(&g, seed);
        let Ok(v) = v else { continue };
        if v.len() < 2 {
            continue;
        }
        let (min, _) = shrink_with(&g, seed, |xs| xs.len() >= 2);
        assert_eq!(min, vec![0, 0]);
        checked += 1;
    }
    assert!(checked > 5);
}

type Lists = Vec<Vec<i32>>;
/// A generator and what makes its values fail.
type Shape = (BoxGen<Lists>, fn(&Lists) -> bool);

/// Lists of lists and what makes them fail: every kind of edit the passes make.
fn shapes() -> Vec<Shape> {
    let nested = vec(vec(any_int::<i32>(), 0..=8), 0..=6).boxed();
    let many: fn(&Lists) -> bool = |xss| xss.iter().map(Vec::len).sum::<usize>() >= 4;
    let distinct: fn(&Lists) -> bool = |xss| xss.iter().flatten().collect::<std::collections::HashSet<_>>().len() >= 3;
    vec![(nested.clone(), many), (nested, distinct)]
}

#[test]
fn lending_a_candidate_makes_the_same_search_as_handing_it_over() {
    for (g, fails) in shapes() {
        for seed in 0..30 {
            let (v, tree) = generate_recorded(&g, seed);
            if !v.is_ok_and(|v| fails(&v)) {
                continue;
            }
            let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
            let replay = |cand: &ChoiceTree| match replay_lenient(&g, cand, 0) {
                (Ok(v), used) if fails(&v) => Some(used),
                _ => None,
            };
            let (owned, a) = shrink(tree.clone(), budget, |cand| replay(&cand));
            let (lent, b) = shrink_by_ref(tree, budget, replay);
            assert_eq!(owned, lent, "seed {seed}");
            assert_eq!((a.attempts, a.steps), (b.attempts, b.steps), "seed {seed}");
        }
    }
}

#[test]
fn a_candidate_kept_in_place_makes_the_same_search_as_one_handed_back() {
    // A tree whose sites own their text (as one read back from a file)
    // is never taken for the replay's own: a failing candidate handed
    // back so is indexed anew. With the generator's sites, a set try the
    // replay made as it was stays in place. Both must search alike.
    fn alike<G: Gen>(g: &G, fails: impl Fn(&G::Value) -> bool, minimal: Option<G::Value>) -> usize
    where
        G::Value: PartialEq + std::fmt::Debug,
    {
        let owned = |mut t: ChoiceTree| {
            t.walk_mut(&mut |t| t.site = Cow::Owned(t.site.to_string()));
            t
        };
        let replay = |cand: &ChoiceTree| match replay_lenient(g, cand, 0) {
            (Ok(v), used) if fails(&v) => Some(used),
            _ => None,
        };
        let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
        let mut compared = 0;
        for seed in 0..60 {
            let (v, tree) = generate_recorded(g, seed);
            if !v.is_ok_and(|v| fails(&v)) {
                continue;
            }
            let (a, sa) = shrink_by_ref(tree.clone(), budget, replay);
            let (b, sb) = shrink_by_ref(owned(tree), budget, |cand| replay(cand).map(owned));
            assert_eq!(a.choices(), b.choices(), "seed {seed}");
            assert_eq!((sa.attempts, sa.steps), (sb.attempts, sb.steps), "seed {seed}");
            let shrunk = parse_tree(g, &a).unwrap();
            assert!(fails(&shrunk) && minimal.as_ref().is_none_or(|m| m == &shrunk), "seed {seed}: {shrunk:?}");
            compared += 1;
        }
        compared
    }
    let list = vec(int(0u32..=1000), 0..=20);
    assert!(alike(&list, |xs| xs.iter().filter(|&&x| x >= 300).count() >= 2, Some(vec![300, 300])) > 10);
    let triple = (int(0u32..=1000), int(0u32..=1000), int(0u32..=1000));
    assert!(alike(&triple, |&(x, y, z)| x + y + z >= 1000 && x > 10, None) > 10);
}

#[test]
fn candidates_made_in_place_leave_the_current_tree_as_it_was() {
    // Nothing fails, so nothing is kept: every pass tries every edit it
    // makes on the start, each made in the current tree (or a copy) and
    // set back. The tree handed back must be the start, untouched.
    for (g, _) in shapes() {
        for seed in 0..20 {
            let (_, tree) = generate_recorded(&g, seed);
            let budget = Budget { max_steps: 4096, max_time: Duration::from_secs(60) };
            let mut tried = 0;
            let (back, stats) = shrink_by_ref(tree.clone(), budget, |cand| {
                assert_ne!(cand, &tree, "a candidate is the start itself");
                tried += 1;
                None
            });
            assert_eq!(back, tree, "seed {seed}");
            assert_eq!(stats.attempts, tried);
            assert_eq!(stats.steps, 0);
        }
    }
}

#[test]
fn an_edit_hash_tells_apart_edits_that_differ_only_in_a_leading_zero() {
    // `Delete` is the first variant (discriminant 0), and its fields
    // here write the same words as `Promote`'s: a mix that starts from
    // zero and lets a zero word through unchanged took them for one,
    // and the second of them was never tried.
    let key = |e: &Edit| {
        let mut h = EditHasher(tree_hash(&ChoiceTree::root(Vec::new())));
        e.hash(&mut h);
        h.finish()
    };
    let delete = Edit::Delete { at: vec![1], start: 1, len: 1, lower_len: true };
    let promote = Edit::Promote { at: vec![1], from: vec![1] };
    assert_ne!(key(&delete), key(&promote));
    assert_eq!(key(&delete), key(&delete.clone()));
}

#[test]
fn the_budget_bounds_the_attempts() {
    let g = vec(int(1u32..=1000), 10..=20);
    let (_, tree) = generate_recorded(&g, 3);
    let budget = Budget { max_steps: 5, max_time: Duration::from_secs(60) };
    let (_, stats) = shrink(tree, budget, |cand| Some(replay_lenient(&g, &cand, 0).1));
    assert_eq!(stats.attempts, 5);
    assert!(stats.budget_exhausted);
}

#[test]
fn deletions_made_in_place_make_the_trees_their_edits_make() {
    // Every deletion, renumbered deletion and cap the shrinker makes in
    // the current tree, and every edit beneath a node, against `Edit::apply`.
    let coupling = int(1usize..=10).bind(|n| vec(int(0usize..=n - 1), n..=n)).boxed();
    let nested = vec(vec(int(0u32..=9), 0..=4), 1..=4).boxed();
    let trees: Vec<ChoiceTree> =
        (0..20).flat_map(|seed| [generate_recorded(&coupling, seed).1, generate_recorded(&nested, seed).1]).collect();
    let budget = Budget { max_steps: u64::MAX, max_time: Duration::from_secs(60) };
    for tree in trees {
        for path in tree.paths() {
            let n = tree.get(&path).unwrap().children.len();
            // Each edit, with the deletion or cap the shrinker makes in place for it.
            enum InPlace {
                Delete(usize, usize, bool, bool),
                Cap(usize, usize, Choice),
                Edit,
            }
            let mut edits = vec![(Edit::Empty { at: path.clone() }, InPlace::Edit)];
            for start in 0..n {
                for len in 1..=n - start {
                    let renumbered = refgen_core::edit::delete_renumbered(&path, start, len);
                    edits.push((renumbered, InPlace::Delete(start, len, true, true)));
                    for lower_len in [true, false] {
                        let delete = Edit::Delete { at: path.clone(), start, len, lower_len };
                        edits.push((delete, InPlace::Delete(start, len, lower_len, false)));
                    }
                    for max in [0, 3] {
                        edits.push((Edit::Cap { at: path.clone(), start, len, max }, InPlace::Cap(start, len, max)));
                    }
                }
            }
            for (edit, in_place) in edits {
                // A shrinker of its own for each edit: only the start tree is seen.
                let mut made = None;
                let mut s = Shrinker::new(tree.clone(), budget, Instant::now(), |cand: &mut ChoiceTree, _| {
                    made = Some(cand.clone());
                    None
                });
                match in_place {
                    InPlace::Delete(start, len, lower_len, renumber) => {
                        s.try_delete(&path, start, len, lower_len, renumber)
                    }
                    InPlace::Cap(start, len, max) => s.try_cap(&path, start, len, max),
                    InPlace::Edit => s.try_edit(edit.clone()),
                };
                assert_eq!(s.current, tree, "{edit:?} was set back");
                drop(s);
                assert_eq!(made, edit.apply(&tree).filter(|t| t != &tree), "{edit:?} of {tree}");
            }
        }
    }
}

#[test]
fn a_long_list_is_lowered_in_runs_not_element_by_element() {
    // Fails with at least 2,000 elements, one of them 1000: the minimal
    // case is 1,999 zeros and then 1000. One try per element would not
    // get there in 300 tries; runs zeroed with growing sizes do.
    let g = vec(int(0u32..=1000), 0..=4000);
    let fails = |xs: &Vec<u32>| xs.len() >= 2000 && xs.contains(&1000);
    let mut shrunk = 0;
    for seed in 0..40 {
        let (v, tree) = generate_recorded(&g, seed);
        if !v.is_ok_and(|v| fails(&v)) {
            continue;
        }
        let budget = Budget { max_steps: 300, max_time: Duration::from_secs(600) };
        let (t, _) = shrink_by_ref(tree, budget, |cand| match replay_lenient(&g, cand, 0) {
            (Ok(v), used) if fails(&v) => Some(used),
            _ => None,
        });
        let min = parse_tree(&g, &t).unwrap();
        let mut want = vec![0; 1999];
        want.push(1000);
        assert!(
            min == want,
            "seed {seed}: {} elements, {} not zero",
            min.len(),
            min.iter().filter(|&&x| x > 0).count()
        );
        shrunk += 1;
        if shrunk == 2 {
            break;
        }
    }
    assert_eq!(shrunk, 2);
}

#[test]
fn a_budget_of_no_tries_makes_no_candidate() {
    let g = vec(int(1u32..=1000), 10..=20);
    let (_, tree) = generate_recorded(&g, 3);
    let budget = Budget { max_steps: 0, max_time: Duration::from_secs(60) };
    let (back, stats) = shrink_by_ref(tree.clone(), budget, |_| panic!("a candidate was made"));
    assert_eq!(back, tree);
    assert_eq!((stats.attempts, stats.steps), (0, 0));
    assert!(stats.budget_exhausted);
}

#[test]
fn an_element_deleted_with_a_later_one_raised() {
    // Failing needs a sum of exactly 16 from values of at most 8: the shortest is two 8s, which
    // no deletion alone reaches from three values (each deletion changes the sum), nor any lowering.
    let g = vec(int(1u8..=8).site("n"), 0..=8);
    let sum16 = |v: &Vec<u8>| v.iter().map(|&n| u32::from(n)).sum::<u32>() == 16;
    for start in [vec![3, 5, 8], vec![1, 7, 8], vec![2, 6, 4, 4], vec![8, 1, 7]] {
        let min = shrink_from(&g, start.clone(), sum16);
        assert_eq!(min, vec![8, 8], "from {start:?}");
    }
}
