//! Splicing: a part of one valid value put in place of a part made at the same site in another.
//!
//! Mutation that edits a value below one of its parts (`rerollMut`,
//! `swapMut`, `shrinkMut`) grows a value only as far as a fresh part can
//! be valid on its own. Where validity couples a part with what is around
//! it (a balanced tree's heights, a search tree's key ranges, a typed
//! term's context), fresh parts of any size are almost never valid, and
//! the values stay small. Splicing brings in parts that are already valid:
//! every part of a valid value is kept as a **donor** under the site that
//! made it, and a splice replaces a part of a value (a leaf included) by a
//! donor made at the same site. The generator, replaying the spliced tree
//! leniently, checks validity again, so a splice that breaks a coupled
//! condition is rejected (or retried locally) like any other mutant. Two
//! valid parts of height `h` put under one node give height `h + 1`: a
//! corpus grows by doubling, where fresh parts grow by luck.
//!
//! This is the subtree splicing of grammar-based fuzzers (Aschermann et
//! al., "NAUTILUS: Fishing for Deep Bugs with Grammars", NDSS 2019), on
//! choice trees: a site plays the part of a grammar's non-terminal, and
//! the donors come only from valid values.
//!
//! ```
//! use refgen::choice::ChoiceTree;
//! use refgen::source::rng_from_seed;
//! use refgen::edit::splice::Donors;
//!
//! // A list of two parts made at site "x": one valid value gives two donors.
//! let x = |c, kids| ChoiceTree::choice("x", c, kids);
//! let leaf = |c| ChoiceTree::choice("k", c, vec![]);
//! let valid = ChoiceTree::root(vec![x(1, vec![leaf(3)]), x(1, vec![x(1, vec![leaf(4)])])]);
//! let mut donors = Donors::new(16);
//! let mut rng = rng_from_seed(7);
//! donors.add(&valid, &mut rng);
//! assert_eq!(donors.len(), 3); // x(1,[k 3]), x(1,[x(1,[k 4])]) and x(1,[k 4])
//!
//! // A splice replaces a part made at "x" by a donor made at "x".
//! let small = ChoiceTree::root(vec![x(0, vec![])]);
//! let edit = donors.splice(&small, &mut rng).unwrap();
//! let spliced = edit.apply(&small).unwrap();
//! assert_eq!(spliced.children.len(), 1);
//! assert_eq!(spliced.children[0].site, "x");
//! assert!(spliced.children[0].choice_count() > 1);
//! ```

use super::{Edit, Path};
use crate::choice::{Choice, ChoiceTree, ROOT};
use crate::hashing::{finish, mix, mix_bytes, BuildKey};
use crate::source::{weighted_index, weighted_pick, DetRng};
use rand::Rng;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// A target at depth `d` (path length) is drawn with weight `TARGET_SCALE / (d + 1)`.
const TARGET_SCALE: u64 = 1 << 20;

/// The share of graft draws ([`Donors::draw`]) that first draw the donor's top choice uniformly among
/// those of the site's donors, where they have more than one (a term's constructors). Without it, a
/// constructor that is rarely valid (a comparison, whose operands must both be integers) is as rare
/// among the donors as among the valid values, and so among the grafted parts. Half took the fewest
/// tests to the typed language's failures ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#graft-donors-by-constructor)).
const STRATIFY: f64 = 0.5;

/// How many donors a splice draws to choose the one nearest in size from.
const DRAWS: usize = 4;

/// A donor's choices in the order they were made, each with the site that made it: what a graft
/// replays ([`Donors::draw`]).
pub type DonorChoices = Rc<[(Cow<'static, str>, Choice)]>;

/// What a graft replays of a donor ([`Donors::draw`]), shared, so a draw copies nothing.
#[derive(Debug, Clone)]
pub struct Graft {
    /// The donor's choices in order.
    pub choices: DonorChoices,
    /// The positions among [`Graft::choices`] of the donor's **own**
    /// choices, in order: those its top part makes itself, not beneath a
    /// part of the same site (a tree node's colour and key, not its
    /// subtrees'), its first (the top pick) left out.
    pub own: Rc<[u32]>,
}

/// The donors kept for one site.
#[derive(Debug, Clone, Default)]
struct Site {
    trees: Vec<ChoiceTree>,
    /// Each donor's choices in order, for grafting ([`Donors::draw`]).
    grafts: Vec<Graft>,
    /// The weight of each as a donor: its number of choices.
    weights: Vec<u64>,
    total: u64,
    /// The distinct parts offered to the site so far.
    offered: u64,
    /// The donors by top choice (the option a donor's top part picked), in the order first seen: the choice and the donors' indices.
    by_top: Vec<(Choice, Vec<u32>)>,
}

impl Site {
    /// Donor `i` will have top choice `top`: a new one when `i` is the number of donors, else the one
    /// about to replace donor `i` (still in `trees`).
    fn index_top(&mut self, i: usize, top: Choice) {
        if let Some(old) = self.trees.get(i).map(|t| t.choice.unwrap_or(0)) {
            if let Some(g) = self.by_top.iter_mut().find(|g| g.0 == old) {
                if let Some(k) = g.1.iter().position(|&j| j as usize == i) {
                    g.1.swap_remove(k);
                }
            }
            self.by_top.retain(|g| !g.1.is_empty());
        }
        match self.by_top.iter_mut().find(|g| g.0 == top) {
            Some(g) => g.1.push(i as u32),
            None => self.by_top.push((top, vec![i as u32])),
        }
    }
}

/// Parts of valid values, by the site that made them, for [`Donors::splice`].
///
/// A site keeps at most `per_site` donors, a uniform sample of the distinct
/// parts it was offered (reservoir sampling, Vitter's Algorithm R): once
/// full, the `n`-th part offered takes the place of a donor with
/// probability `per_site / n`, and only a part that is kept is copied, so a
/// long run spends ever less on its pool. A part already kept (the same choice tree) is not
/// kept twice.
#[derive(Debug, Clone)]
pub struct Donors {
    per_site: usize,
    /// By site name; only looked up, never iterated, so no draw depends on the hashing.
    sites: HashMap<String, Site, BuildKey>,
    seen: HashSet<u64, BuildKey>,
}

impl Donors {
    /// An empty pool keeping at most `per_site` donors per site (at least 1).
    pub fn new(per_site: usize) -> Self {
        Donors { per_site: per_site.max(1), sites: HashMap::default(), seen: HashSet::default() }
    }

    /// The number of donors kept, over all sites.
    pub fn len(&self) -> usize {
        self.sites.values().map(|s| s.trees.len()).sum()
    }

    /// Whether no donor is kept.
    pub fn is_empty(&self) -> bool {
        self.sites.values().all(|s| s.trees.is_empty())
    }

    /// Keep every part of `valid` (the choice tree of a valid value) as a
    /// donor: each choice node with choices beneath it (an option that
    /// selected a sub-generator: a node of a recursive type, a variant with
    /// fields), its failed attempts left out. A part with nothing beneath it
    /// is not kept: splicing it in would only delete, as shrinking does.
    pub fn add(&mut self, valid: &ChoiceTree, rng: &mut DetRng) {
        // Each part's hash comes from its children's, in one walk; only a part not seen before is copied.
        let mut parts = Vec::new();
        part_hashes(valid, &mut parts);
        for (part, hash) in parts {
            if !self.seen.insert(hash) {
                continue;
            }
            let entry = match self.sites.get_mut(part.site.as_ref()) {
                Some(entry) => entry,
                None => self.sites.entry(part.site.to_string()).or_default(),
            };
            entry.offered += 1;
            let slot = match entry.trees.len() < self.per_site {
                true => None,
                false => match rng.random_range(0..entry.offered) as usize {
                    i if i < entry.trees.len() => Some(i),
                    _ => continue,
                },
            };
            let tree = part.without_retries();
            let (mut choices, mut own) = (Vec::new(), Vec::new());
            own_choices(&tree, &tree.site, &mut choices, &mut own);
            let weight = choices.len() as u64;
            let graft = Graft { choices: DonorChoices::from(choices), own: Rc::from(own) };
            entry.index_top(slot.unwrap_or(entry.trees.len()), tree.choice.unwrap_or(0));
            match slot {
                None => {
                    entry.trees.push(tree);
                    entry.grafts.push(graft);
                    entry.weights.push(weight);
                }
                Some(i) => {
                    entry.total -= entry.weights[i];
                    entry.trees[i] = tree;
                    entry.grafts[i] = graft;
                    entry.weights[i] = weight;
                }
            }
            entry.total += weight;
        }
    }

    /// One splice of `tree`: a choice node made at a site with donors (a
    /// leaf included, such as the empty case of a recursive type), drawn
    /// with weight one over its depth plus one, replaced by one of that
    /// site's donors: of four drawn with weight their number of choices,
    /// the one nearest twice the node's choices plus one. The edit is a [`Edit::Seq`] of a [`Edit::Delete`] and an
    /// [`Edit::Insert`] at the node's place. `None` when `tree` has no node
    /// made at a site with donors. Failed attempts in `tree` are not
    /// spliced into. The same RNG state gives the same edit.
    pub fn splice(&self, tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
        let (at, donor) = self.draw_splice(tree, rng)?;
        let (parent, index) = at.split_at(at.len() - 1);
        let (parent, index) = (parent.to_vec(), index[0]);
        Some(Edit::Seq(vec![
            Edit::Delete { at: parent.clone(), start: index, len: 1, lower_len: false },
            Edit::Insert { at: parent, index, node: donor.clone() },
        ]))
    }

    /// `tree` with one splice ([`Donors::splice`], the same draws): the tree
    /// its edit makes, copied once, without the part it replaces.
    pub fn spliced(&self, tree: &ChoiceTree, rng: &mut DetRng) -> Option<ChoiceTree> {
        let mut out = ChoiceTree::root(Vec::new());
        self.spliced_into(tree, &mut out, rng).then_some(out)
    }

    /// [`Donors::spliced`] (the same draws, the same tree) made into `out`,
    /// whose lists of children are reused where its shape is `tree`'s (see
    /// [`ChoiceTree`]'s `clone_from`); whether there was a splice (when
    /// not, `out` is as it was).
    pub fn spliced_into(&self, tree: &ChoiceTree, out: &mut ChoiceTree, rng: &mut DetRng) -> bool {
        let Some((at, donor)) = self.draw_splice(tree, rng) else { return false };
        copy_replacing(tree, &at, donor, out);
        true
    }

    /// One splice ([`Donors::splice`], the same draws) made in place; whether there was one.
    pub fn splice_in_place(&self, tree: &mut ChoiceTree, rng: &mut DetRng) -> bool {
        let Some((at, donor)) = self.draw_splice(tree, rng) else { return false };
        match tree.get_mut(&at) {
            Some(node) => {
                node.clone_from(donor);
                true
            }
            None => false,
        }
    }

    /// The draws of a splice: the path of the part replaced (never the root) and its donor.
    fn draw_splice(&self, tree: &ChoiceTree, rng: &mut DetRng) -> Option<(Path, &ChoiceTree)> {
        let mut depths: Vec<u64> = Vec::new();
        self.targets(tree, &mut |path| {
            // Nearer the root, more often: a part there has the most room around it (the widest range of
            // keys in a search tree, the most context in a term), so a larger donor fits more often.
            depths.push(TARGET_SCALE / (path.len() as u64 + 1));
            false
        });
        if depths.is_empty() {
            return None;
        }
        let mut k = weighted(&depths, depths.iter().sum(), rng);
        let mut at = Path::new();
        self.targets(tree, &mut |path| {
            let found = k == 0;
            if found {
                at.extend_from_slice(path);
            }
            k = k.wrapping_sub(1);
            found
        });
        let target = tree.get(&at)?;
        let site = self.sites.get(target.site.as_ref())?;
        // A donor a little larger than the part it replaces: of a few drawn by size, the one nearest
        // twice the part's choices plus one (a part grows by steps it can stay valid through).
        let want = 2 * target.choice_count() as u64 + 1;
        let donor = (0..DRAWS)
            .map(|_| weighted(&site.weights, site.total, rng))
            .min_by_key(|&i| site.weights[i].abs_diff(want))
            .map(|i| &site.trees[i])?;
        Some((at, donor))
    }

    /// A donor made at `site`, drawn with weight its number of choices
    /// (larger parts more often), as a graft replays it: its choices and
    /// where its own are among them. Where the site's donors have more than
    /// one top choice (a term's constructors), half the draws first draw a
    /// top choice uniformly among theirs, then a donor with it by weight, so
    /// a rare constructor is grafted as often as a common one. `None` when
    /// the site has none. For
    /// grafting: a part made, during generation, by replaying a donor's
    /// choices where the generator makes a part at the same site. They are
    /// kept with the donor, so a draw copies nothing.
    pub fn draw(&self, site: &str, rng: &mut DetRng) -> Option<&Graft> {
        let s = self.sites.get(site).filter(|s| !s.trees.is_empty())?;
        // No draw where there is one top choice, so a tree with one kind of node draws as before.
        if s.by_top.len() > 1 && rng.random::<f64>() < STRATIFY {
            let group = &s.by_top[rng.random_range(0..s.by_top.len())].1;
            // A donor's weight counts its top choice, so a group's total is more than 0.
            let weight = |&i: &u32| s.weights[i as usize];
            let k = weighted_pick(group.iter().map(weight), group.iter().map(weight).sum(), rng);
            return Some(&s.grafts[group[k] as usize]);
        }
        Some(&s.grafts[weighted(&s.weights, s.total, rng)])
    }

    /// Calls `f` with the path of each choice node of `tree` made at a site
    /// with donors, outside failed attempts, in pre-order, until it returns
    /// `true`; whether it did.
    fn targets(&self, tree: &ChoiceTree, f: &mut impl FnMut(&[usize]) -> bool) -> bool {
        // Whether a site has donors, by the address of its name: a tree's sites are a few static
        // names, so a walk looks each up once instead of hashing it at every node.
        let mut known: Vec<(*const u8, usize, bool)> = Vec::new();
        let mut has_donors = |site: &str| {
            let key = (site.as_ptr(), site.len());
            match known.iter().find(|(p, n, _)| (*p, *n) == key) {
                Some(&(_, _, has)) => has,
                None => {
                    let has = self.sites.get(site).is_some_and(|s| !s.trees.is_empty());
                    known.push((key.0, key.1, has));
                    has
                }
            }
        };
        fn walk(
            tree: &ChoiceTree,
            path: &mut Vec<usize>,
            has_donors: &mut impl FnMut(&str) -> bool,
            f: &mut impl FnMut(&[usize]) -> bool,
        ) -> bool {
            for (i, child) in tree.children.iter().enumerate() {
                if child.is_retry() {
                    continue;
                }
                path.push(i);
                let target = child.choice.is_some() && has_donors(&child.site);
                if (target && f(path)) || walk(child, path, has_donors, f) {
                    return true;
                }
                path.pop();
            }
            false
        }
        walk(tree, &mut Vec::new(), &mut has_donors, f)
    }
}

/// Pushes `tree`'s choices in order, each with its site, to `choices`, and
/// the positions among them of its own choices (beneath its top but not
/// beneath a choice made at `top`, the top's site) to `own`. `tree` has no
/// failed attempt.
fn own_choices(tree: &ChoiceTree, top: &str, choices: &mut Vec<(Cow<'static, str>, Choice)>, own: &mut Vec<u32>) {
    fn walk(t: &ChoiceTree, top: &str, mine: bool, choices: &mut Vec<(Cow<'static, str>, Choice)>, own: &mut Vec<u32>) {
        for c in &t.children {
            let nested = c.choice.is_some() && c.site == top;
            if let Some(ch) = c.choice {
                if mine && !nested {
                    own.push(choices.len() as u32);
                }
                choices.push((c.site.clone(), ch));
            }
            walk(c, top, mine && !nested, choices, own);
        }
    }
    if let Some(c) = tree.choice {
        choices.push((tree.site.clone(), c));
    }
    walk(tree, top, true, choices, own);
}

/// The hash of `tree` without its failed attempts. Pushes, in pre-order,
/// each choice node with choices beneath it outside failed attempts (the
/// root group left out) with its own such hash.
fn part_hashes<'t>(tree: &'t ChoiceTree, out: &mut Vec<(&'t ChoiceTree, u64)>) -> u64 {
    let slot = out.len();
    let part = tree.choice.is_some() && !tree.children.is_empty() && tree.site != ROOT;
    if part {
        out.push((tree, 0));
    }
    let mut h = mix(mix_bytes(0, tree.site.as_bytes()), tree.choice.map_or(u64::MAX, |c| c));
    let mut kept = 0;
    for c in tree.children.iter().filter(|c| !c.is_retry()) {
        h = mix(h, part_hashes(c, out));
        kept += 1;
    }
    let h = finish(mix(h, kept));
    if part {
        out[slot].1 = h;
    }
    h
}

/// Makes `out` a copy of `tree` with the node at `at` (not the root) replaced by a copy of `with`; the
/// replaced node is not copied, and `out`'s lists of children are reused where its shape agrees.
fn copy_replacing(tree: &ChoiceTree, at: &[usize], with: &ChoiceTree, out: &mut ChoiceTree) {
    let Some((&i, rest)) = at.split_first() else { return out.clone_from(with) };
    out.site.clone_from(&tree.site);
    out.choice = tree.choice;
    out.children.truncate(tree.children.len());
    for (j, c) in tree.children.iter().enumerate() {
        if j == out.children.len() {
            out.children.push(ChoiceTree::root(Vec::new()));
        }
        match j == i {
            true => copy_replacing(c, rest, with, &mut out.children[j]),
            false => out.children[j].clone_from(c),
        }
    }
}

/// An index drawn with probability its weight over `total` (uniform when every weight is 0).
fn weighted(weights: &[u64], total: u64, rng: &mut DetRng) -> usize {
    match total {
        0 => rng.random_range(0..weights.len()),
        _ => weighted_index(weights, total, rng),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::rng_from_seed;

    fn x(c: u64, kids: Vec<ChoiceTree>) -> ChoiceTree {
        ChoiceTree::choice("x", c, kids)
    }

    fn k(c: u64) -> ChoiceTree {
        ChoiceTree::choice("k", c, vec![])
    }

    #[test]
    fn failed_attempts_give_no_donors_and_take_no_splices() {
        let mut donors = Donors::new(8);
        let mut rng = rng_from_seed(1);
        let tree = ChoiceTree::root(vec![ChoiceTree::retry(vec![x(1, vec![k(9)])]), x(1, vec![k(2)])]);
        donors.add(&tree, &mut rng);
        assert_eq!(donors.len(), 1);
        for seed in 0..20 {
            let edit = donors.splice(&tree, &mut rng_from_seed(seed)).unwrap();
            let out = edit.apply(&tree).unwrap();
            assert_eq!(out.children[0], tree.children[0], "the failed attempt is untouched");
        }
    }

    #[test]
    fn a_splice_puts_a_donor_of_the_same_site_in_place() {
        let mut donors = Donors::new(8);
        let mut rng = rng_from_seed(3);
        donors.add(&ChoiceTree::root(vec![x(1, vec![x(1, vec![k(5)]), k(6)])]), &mut rng);
        let tree = ChoiceTree::root(vec![x(0, vec![]), k(1)]);
        for seed in 0..50 {
            let out = donors.splice(&tree, &mut rng_from_seed(seed)).unwrap().apply(&tree).unwrap();
            assert_eq!(out.children.len(), 2);
            assert_eq!(out.children[1], k(1), "a node of another site is not replaced");
            assert!(out.children[0].site == "x" && out.children[0].choice == Some(1));
        }
        assert!(donors.splice(&ChoiceTree::root(vec![k(1)]), &mut rng).is_none());
    }

    #[test]
    fn a_splice_copied_or_made_in_place_is_the_tree_its_edit_makes() {
        let mut donors = Donors::new(8);
        let mut rng = rng_from_seed(2);
        donors.add(&ChoiceTree::root(vec![x(1, vec![x(1, vec![k(5)]), x(1, vec![k(7), x(0, vec![])])])]), &mut rng);
        let tree = ChoiceTree::root(vec![x(1, vec![x(0, vec![]), k(1)]), x(1, vec![k(2), x(1, vec![k(3)])])]);
        // Made into a tree of other shapes: the last one made, and trees shallower, deeper and wider than it.
        let mut into = x(4, vec![x(1, vec![k(8), k(8), k(8)]), ChoiceTree::retry(vec![k(2)]), k(1), k(0)]);
        for seed in 0..60 {
            let by_edit = donors.splice(&tree, &mut rng_from_seed(seed)).unwrap().apply(&tree).unwrap();
            assert_eq!(donors.spliced(&tree, &mut rng_from_seed(seed)), Some(by_edit.clone()));
            let mut in_place = tree.clone();
            assert!(donors.splice_in_place(&mut in_place, &mut rng_from_seed(seed)));
            assert_eq!(in_place, by_edit);
            if seed % 3 == 0 {
                into = ChoiceTree::root(vec![k(seed); seed as usize % 5]);
            }
            assert!(donors.spliced_into(&tree, &mut into, &mut rng_from_seed(seed)));
            assert_eq!(into, by_edit, "made into a used tree, seed {seed}");
        }
        let mut untouched = k(3);
        assert!(!donors.spliced_into(&ChoiceTree::root(vec![k(1)]), &mut untouched, &mut rng), "no site to splice");
        assert_eq!(untouched, k(3));
    }

    #[test]
    fn a_full_site_keeps_its_size_and_the_same_seed_gives_the_same_pool() {
        let pool = |seed| {
            let mut donors = Donors::new(4);
            let mut rng = rng_from_seed(seed);
            for i in 0..30 {
                donors.add(&ChoiceTree::root(vec![x(1, vec![k(i)])]), &mut rng);
            }
            donors
        };
        assert_eq!(pool(5).len(), 4);
        let (a, b) = (pool(5), pool(5));
        let tree = ChoiceTree::root(vec![x(0, vec![])]);
        for seed in 0..10 {
            assert_eq!(a.splice(&tree, &mut rng_from_seed(seed)), b.splice(&tree, &mut rng_from_seed(seed)));
        }
    }

    #[test]
    fn a_full_site_is_a_uniform_sample_of_the_parts_offered() {
        // 40 runs of 100 distinct parts offered to a site of 10: each part is kept with chance 1/10,
        // early or late alike (a pool that kept the latest would hold only the last ones).
        let mut early = 0;
        for seed in 0..40 {
            let mut donors = Donors::new(10);
            let mut rng = rng_from_seed(seed);
            for i in 0..100 {
                donors.add(&ChoiceTree::root(vec![x(1, vec![k(i)])]), &mut rng);
            }
            let kept = &donors.sites["x"].trees;
            assert_eq!(kept.len(), 10);
            early += kept.iter().filter(|t| t.children[0].choice < Some(50)).count();
        }
        // Uniform: about half of the 400 kept parts are from the first half (binomial, sd 10).
        assert!((160..=240).contains(&early), "kept from the first half: {early} of 400");
    }

    #[test]
    fn a_graft_is_the_donors_choices_in_order_with_its_own_choices_marked() {
        // A node x(1) with a colour c, a part holding a key k and a nested node x(1) with its own
        // colour, and a nested leaf x(0): the top's own choices are its colour and key, at positions
        // 1 and 2; the nested nodes' choices are not its own.
        let c = |v| ChoiceTree::choice("c", v, vec![]);
        let node =
            x(1, vec![c(0), ChoiceTree::group("part", vec![k(7)]), x(1, vec![c(1), x(0, vec![])]), x(0, vec![])]);
        let mut donors = Donors::new(8);
        donors.add(&ChoiceTree::root(vec![node.clone()]), &mut rng_from_seed(1));
        let mut seen = Vec::new();
        for seed in 0..40 {
            let g = donors.draw("x", &mut rng_from_seed(seed)).unwrap();
            let mut walked = Vec::new();
            let tree = if g.choices.len() == 7 { &node } else { &node.children[2] };
            tree.walk(&mut |t| walked.extend(t.choice.map(|ch| (t.site.clone(), ch))));
            assert_eq!(&g.choices[..], &walked[..], "the donor's choices in pre-order");
            let want: &[u32] = if tree == &node { &[1, 2] } else { &[1] };
            assert_eq!(&g.own[..], want);
            seen.push(g.choices.len());
        }
        assert!(seen.contains(&7) && seen.contains(&3), "both donors drawn: {seen:?}");
        assert!(donors.draw("k", &mut rng_from_seed(1)).is_none());
    }

    /// A pool whose parts are all made at `x`, with the top choices 1 (many, large: a node with keys
    /// `k`) and 2 (one, small).
    fn pool_with_a_rare_top(per_site: usize) -> Donors {
        let mut donors = Donors::new(per_site);
        let mut rng = rng_from_seed(5);
        for key in 0..100 {
            donors.add(&ChoiceTree::root(vec![x(1, (0..8).map(|j| k(key * 8 + j)).collect())]), &mut rng);
        }
        donors.add(&ChoiceTree::root(vec![x(2, vec![k(0)])]), &mut rng);
        donors
    }

    #[test]
    fn a_rare_top_choice_is_grafted_as_often_as_a_common_one_in_a_share_of_the_draws() {
        let donors = pool_with_a_rare_top(512);
        let draws = 4000;
        let rare = (0..draws).filter(|&s| donors.draw("x", &mut rng_from_seed(s)).unwrap().choices[0].1 == 2).count();
        // By weight alone: 2 choices of 902, about 0.2%; a uniform top in half the draws: about 25%.
        let share = rare as f64 / draws as f64;
        assert!((share - STRATIFY / 2.0).abs() < 0.03, "share of the rare top: {share}");
    }

    #[test]
    fn the_donors_by_top_choice_follow_the_pool_as_donors_are_replaced() {
        for per_site in [1, 7, 64] {
            let donors = pool_with_a_rare_top(per_site);
            let site = &donors.sites["x"];
            let mut indexed: Vec<u32> = site.by_top.iter().flat_map(|(_, ids)| ids.iter().copied()).collect();
            indexed.sort_unstable();
            assert_eq!(indexed, (0..site.trees.len() as u32).collect::<Vec<_>>(), "each donor once");
            for (top, ids) in &site.by_top {
                assert!(!ids.is_empty());
                for &i in ids {
                    assert_eq!(site.trees[i as usize].choice, Some(*top));
                }
            }
        }
    }
}
