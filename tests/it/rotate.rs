//! Rotation: a rotation of a derived search tree keeps its keys in a new shape, and a red-black tree's,
//! recoloured by relabelling the two nodes it moves, is often a valid tree again.

use crate::graft::{keys, valid, Color, Rbt};
use refgen::choice::{Choice, ChoiceTree};
use refgen::edit::{rotation, Edit, Path};
use refgen::guide::{run_guided, CaseInfo, ChoiceContext, Erased, Guide, Plan};
use refgen::prelude::*;
use refgen_core::interpret::reflect;
use refgen_core::source::{rng_from_seed, sample, DetRng, Stop};
use refgen_core::trail::Trail;
use std::collections::HashSet;

/// A search tree with no validity condition: a rotation's replay is never rejected. Deep enough that a
/// rotation of a tree of 12 keys (one side a level deeper) is never cut by the depth budget.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Reflective)]
#[reflect(depth = 16)]
enum Bst {
    E,
    T(Box<Bst>, #[choice(range = 0..=15)] u8, Box<Bst>),
}

fn bst_insert(t: Bst, k: u8) -> Bst {
    match t {
        Bst::E => Bst::T(Box::new(Bst::E), k, Box::new(Bst::E)),
        Bst::T(l, x, r) if k < x => Bst::T(Box::new(bst_insert(*l, k)), x, r),
        Bst::T(l, x, r) if k > x => Bst::T(l, x, Box::new(bst_insert(*r, k))),
        t => t,
    }
}

fn bst_keys(t: &Bst, out: &mut Vec<u8>) {
    if let Bst::T(l, k, r) = t {
        bst_keys(l, out);
        out.push(*k);
        bst_keys(r, out);
    }
}

/// Okasaki's insert: the red-black trees a user's own code makes.
fn rbt_insert(t: &Rbt, k: u8) -> Rbt {
    use Color::{B, R};
    fn node(c: Color, l: Rbt, k: u8, r: Rbt) -> Rbt {
        Rbt::T(c, Box::new(l), k, Box::new(r))
    }
    fn balance(c: Color, l: Rbt, k: u8, r: Rbt) -> Rbt {
        if c == B {
            let red = |t: &Rbt| match t {
                Rbt::T(R, a, x, b) => Some(((**a).clone(), *x, (**b).clone())),
                _ => None,
            };
            let fix = |a, x, b, y, c, z, d| node(R, node(B, a, x, b), y, node(B, c, z, d));
            if let Some((ll, y, c2)) = red(&l) {
                if let Some((a, x, b)) = red(&ll) {
                    return fix(a, x, b, y, c2, k, r);
                }
                if let Some((b, y2, c3)) = red(&c2) {
                    return fix(ll, y, b, y2, c3, k, r);
                }
            }
            if let Some((rl, z, d)) = red(&r) {
                if let Some((b, y, c2)) = red(&rl) {
                    return fix(l, k, b, y, c2, z, d);
                }
                if let Some((c2, z2, d2)) = red(&d) {
                    return fix(l, k, rl, z, c2, z2, d2);
                }
            }
        }
        node(c, l, k, r)
    }
    fn ins(t: &Rbt, k: u8) -> Rbt {
        match t {
            Rbt::E => node(R, Rbt::E, k, Rbt::E),
            Rbt::T(c, l, x, r) if k < *x => balance(*c, ins(l, k), *x, (**r).clone()),
            Rbt::T(c, l, x, r) if k > *x => balance(*c, (**l).clone(), *x, ins(r, k)),
            t => t.clone(),
        }
    }
    match ins(t, k) {
        Rbt::T(_, l, x, r) => Rbt::T(B, l, x, r),
        Rbt::E => Rbt::E,
    }
}

/// Replays a tree as `mutate` replays its mutants: what fits kept, gaps drawn at random, a pick under a
/// relabel mark drawn afresh, and no local retry (an invalid value is rejected).
struct Replay(Option<ChoiceTree>);

impl Guide for Replay {
    fn name(&self) -> &str {
        "replay"
    }
    fn begin_case(&mut self, _: &CaseInfo<'_>) -> Plan {
        Plan::replay(self.0.take().expect("one case")).without_retries()
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        Ok(sample(rng, ctx.request))
    }
}

fn replay<G: Gen>(g: &G, tree: ChoiceTree, seed: u64) -> Result<G::Value, Stop>
where
    G::Value: std::fmt::Debug,
{
    let handle = Erased(g);
    let case = CaseInfo { index: 0, budget: 1, gen: &handle };
    run_guided(g, &mut Replay(Some(tree)), &mut Trail::new(), case, &mut rng_from_seed(seed)).value
}

/// Trees of 2 to 12 keys drawn from `0..=15`, by `insert`.
fn built<T>(empty: T, insert: impl Fn(T, u8) -> T) -> Vec<T>
where
    T: Clone,
{
    let mut rng = rng_from_seed(5);
    (0..60)
        .map(|i| (0..2 + i % 11).fold(empty.clone(), |t, _| insert(t, rand::Rng::random_range(&mut rng, 0..=15))))
        .collect()
}

#[test]
fn a_rotation_of_a_search_tree_keeps_its_keys_in_a_new_shape() {
    let g = Bst::generator();
    let mut rng = rng_from_seed(1);
    let mut rotated = 0;
    for t in built(Bst::E, bst_insert) {
        let tree = reflect(&g, &t).remove(0);
        let mut want = Vec::new();
        bst_keys(&t, &mut want);
        let Some(edit) = rotation(&tree, &mut rng) else {
            assert!(want.len() < 2 || !matches!(&t, Bst::T(..)), "{t:?} has a rotation");
            continue;
        };
        let value = replay(&g, edit.apply(&tree).expect("a drawn rotation applies"), 0).expect("no condition");
        let mut got = Vec::new();
        bst_keys(&value, &mut got);
        assert_eq!(got, want, "{edit:?} of {t:?} keeps the keys in order");
        assert_ne!(value, t, "{edit:?} of {t:?} changes the shape");
        rotated += 1;
    }
    assert!(rotated > 40, "{rotated}");
}

#[test]
fn a_recoloured_rotation_of_a_red_black_tree_is_often_valid_and_keeps_its_keys() {
    let g = Rbt::generator();
    let mut rng = rng_from_seed(2);
    let (mut plain_valid, mut recoloured_valid, mut tries) = (0, 0, 0);
    let mut shapes = HashSet::new();
    for t in built(Rbt::E, |t, k| rbt_insert(&t, k)) {
        assert!(valid(&t), "{t:?}");
        let tree = reflect(&g, &t).remove(0);
        let mut want = Vec::new();
        keys(&t, &mut want);
        for seed in 0..20 {
            let Some(edit) = rotation(&tree, &mut rng) else { break };
            let Edit::Rotate { at, grandchild, .. } = &edit else { panic!("{edit:?}") };
            let lower: Path = at.iter().chain(grandchild).copied().collect();
            tries += 1;
            // Rotated alone, a red-black tree's black heights no longer agree.
            plain_valid += usize::from(replay(&g, edit.apply(&tree).unwrap(), seed).is_ok());
            let recolour = Edit::Seq(vec![edit.clone(), Edit::Relabel { at: lower }, Edit::Relabel { at: at.clone() }]);
            if let Ok(v) = replay(&g, recolour.apply(&tree).expect("applies"), seed) {
                assert!(valid(&v), "{v:?}");
                let mut got = Vec::new();
                keys(&v, &mut got);
                assert_eq!(got, want, "{recolour:?} of {t:?} keeps the keys");
                recoloured_valid += 1;
                if v != t {
                    shapes.insert(format!("{v:?}"));
                }
            }
        }
    }
    assert_eq!(plain_valid, 0, "of {tries}");
    assert!(recoloured_valid * 20 > tries, "{recoloured_valid} of {tries} recoloured rotations valid");
    assert!(shapes.len() > 20, "{} valid trees of a new shape", shapes.len());
}
