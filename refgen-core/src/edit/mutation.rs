//! The three mutation operators of Goldstein's thesis, each drawing one edit from an index of the tree.

use super::{path_up, Edit, Path};
use crate::choice::ChoiceTree;
use crate::source::DetRng;
use rand::Rng;
use std::cell::OnceCell;

/// A tree's nodes in pre-order, each with the end of its subtree (the
/// subtree of node `i` is `i..end`), its parent, its place among its
/// parent's children, its site's number and how many of its ancestors (the
/// root left out) share its site: paths are read back from it only for the
/// nodes drawn.
#[derive(Debug, Clone)]
struct PreOrder {
    nodes: Vec<Indexed>,
    /// The distinct sites, numbered in the order first met.
    sites: usize,
}

/// Nodes by site (and kind), each group in pre-order, at `2 * site + kind`.
type Groups = Vec<Vec<usize>>;

#[derive(Debug, Clone)]
struct Indexed {
    /// Whether it is a choice node.
    choice: bool,
    end: usize,
    parent: usize,
    child: usize,
    site: usize,
    ancestors: usize,
}

impl PreOrder {
    fn new(tree: &ChoiceTree) -> Self {
        struct Walk<'t> {
            nodes: Vec<Indexed>,
            /// Each site, and how many nodes of it are on the path to the node being walked.
            sites: Vec<(&'t str, usize)>,
        }
        impl<'t> Walk<'t> {
            /// The number of `site`; a tree's sites are a few names, mostly the same static strings.
            fn site(&mut self, site: &'t str) -> usize {
                let same = |s: &&str| std::ptr::eq(s.as_ptr(), site.as_ptr()) && s.len() == site.len();
                match self
                    .sites
                    .iter()
                    .position(|(s, _)| same(s))
                    .or_else(|| self.sites.iter().position(|(s, _)| *s == site))
                {
                    Some(k) => k,
                    None => {
                        self.sites.push((site, 0));
                        self.sites.len() - 1
                    }
                }
            }

            fn go(&mut self, t: &'t ChoiceTree, parent: usize, child: usize) {
                let i = self.nodes.len();
                let site = self.site(&t.site);
                let ancestors = self.sites[site].1;
                self.nodes.push(Indexed { choice: t.choice.is_some(), end: 0, parent, child, site, ancestors });
                // The root is no node's ancestor of its site (it is in no group).
                let counted = usize::from(i > 0);
                self.sites[site].1 += counted;
                for (k, c) in t.children.iter().enumerate() {
                    self.go(c, i, k);
                }
                self.sites[site].1 -= counted;
                self.nodes[i].end = self.nodes.len();
            }
        }
        let mut walk = Walk { nodes: Vec::with_capacity(64), sites: Vec::with_capacity(8) };
        walk.go(tree, usize::MAX, 0);
        PreOrder { nodes: walk.nodes, sites: walk.sites.len() }
    }

    fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The path of node `i`.
    fn path(&self, i: usize) -> Path {
        path_up(i, 0, |n| (self.nodes[n].parent, self.nodes[n].child))
    }

    /// The nodes but the root, grouped by site (and, `by_kind`, by whether
    /// they are choice points), each group in pre-order.
    fn groups(&self, by_kind: bool) -> Groups {
        let mut groups: Groups = vec![Vec::new(); 2 * self.sites];
        for i in 1..self.nodes.len() {
            groups[self.key(i, by_kind)].push(i);
        }
        groups
    }

    fn key(&self, i: usize, by_kind: bool) -> usize {
        let n = &self.nodes[i];
        2 * n.site + usize::from(by_kind && n.choice)
    }

    fn group_of<'g>(&self, groups: &'g Groups, i: usize) -> &'g [usize] {
        &groups[self.key(i, false)]
    }

    /// Whether `x` and `y` may be swapped: neither inside the other (nor the same node).
    fn partners(&self, x: usize, y: usize) -> bool {
        y >= self.nodes[x].end || x >= self.nodes[y].end
    }

    /// Whether `x` has a partner of its site: a node of its group that is
    /// neither `x`, nor inside it, nor one of its ancestors.
    fn has_partner(&self, groups: &Groups, x: usize) -> bool {
        let group = self.group_of(groups, x);
        let (lo, hi) = (group.partition_point(|&g| g < x), group.partition_point(|&g| g < self.nodes[x].end));
        group.len() - (hi - lo) - self.nodes[x].ancestors > 0
    }

    /// The nodes strictly inside `at` of its site and kind (what [`promotions`] lists), in pre-order.
    fn inside<'g>(&self, groups: &'g Groups, at: usize) -> impl Iterator<Item = usize> + 'g {
        let group = groups[self.key(at, true)].as_slice();
        let (lo, hi) = (group.partition_point(|&g| g <= at), group.partition_point(|&g| g < self.nodes[at].end));
        group[lo..hi].iter().copied()
    }
}

/// The three mutation operators of Goldstein's thesis (Sec. 3.4.2), each
/// drawing one [`Edit`] of a choice tree: the edits shrinking uses too, so
/// a mutant is replayed leniently like any edited tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mutation {
    /// `rerollMut`: one choice node, drawn uniformly, is marked to be made
    /// differently ([`Edit::Reroll`]).
    Reroll,
    /// `swapMut`: two subtrees made at the same site, neither inside the
    /// other, are swapped ([`Edit::Exchange`]).
    Swap,
    /// `shrinkMut`: a subtree is replaced by one of its own descendants made
    /// at the same site ([`Edit::Promote`]).
    Shrink,
}

impl Mutation {
    /// Every operator, in the order above.
    pub const ALL: [Mutation; 3] = [Mutation::Reroll, Mutation::Swap, Mutation::Shrink];

    /// The operator's name: `reroll`, `swap` or `shrink`.
    pub fn name(self) -> &'static str {
        match self {
            Mutation::Reroll => "reroll",
            Mutation::Swap => "swap",
            Mutation::Shrink => "shrink",
        }
    }

    /// One edit of `tree` by this operator, or `None` when the operator has
    /// nothing to act on (no choice to reroll, no two subtrees of one site
    /// to swap, no subtree with a descendant of its own site). The same RNG
    /// state gives the same edit.
    pub fn draw(self, tree: &ChoiceTree, rng: &mut DetRng) -> Option<Edit> {
        Mutations::of(tree).draw(self, rng)
    }

    /// A mutant of `tree` by this operator, or by [`Mutation::Reroll`] when
    /// this one has nothing to act on: the operator used and the edited tree
    /// (to replay leniently). `None` when not even a reroll applies (a tree
    /// with no choice).
    pub fn mutant(self, tree: &ChoiceTree, rng: &mut DetRng) -> Option<(Mutation, ChoiceTree)> {
        let mut out = ChoiceTree::root(Vec::new());
        self.mutant_into(tree, &mut out, rng).map(|op| (op, out))
    }

    /// [`Mutation::mutant`] (the same draws, the same tree) made into
    /// `out`, whose lists of children are reused where its shape is
    /// `tree`'s (see [`ChoiceTree`]'s `clone_from`): the operator used, or
    /// `None` when no mutant was made (`out` then holds no mutant).
    pub fn mutant_into(self, tree: &ChoiceTree, out: &mut ChoiceTree, rng: &mut DetRng) -> Option<Mutation> {
        Mutations::of(tree).mutant_into(self, tree, out, rng)
    }
}

/// The mutations of one choice tree, indexed once: [`Mutations::draw`] and
/// [`Mutations::mutant_into`] draw what [`Mutation::draw`] and
/// [`Mutation::mutant_into`] of that tree draw (the same edits from the
/// same RNG state) without walking the tree again, for a tree mutated many
/// times (a corpus entry of the mutational guide). Each operator's
/// candidates are listed at its first draw.
#[derive(Debug, Clone)]
pub struct Mutations {
    index: PreOrder,
    /// The choice nodes, for [`Mutation::Reroll`].
    reroll: OnceCell<Vec<usize>>,
    /// The nodes by site, and the nodes with a partner, for [`Mutation::Swap`].
    swap: OnceCell<(Groups, Vec<usize>)>,
    /// The nodes by site and kind, and the nodes with one of theirs inside, for [`Mutation::Shrink`].
    shrink: OnceCell<(Groups, Vec<usize>)>,
}

impl Mutations {
    /// The index of `tree`.
    pub fn of(tree: &ChoiceTree) -> Mutations {
        Mutations {
            index: PreOrder::new(tree),
            reroll: OnceCell::new(),
            swap: OnceCell::new(),
            shrink: OnceCell::new(),
        }
    }

    /// One edit by `op` of the tree indexed, as [`Mutation::draw`] draws it.
    pub fn draw(&self, op: Mutation, rng: &mut DetRng) -> Option<Edit> {
        let index = &self.index;
        // Each draws what the plain definitions (`choice_paths`, `partners`,
        // `promotions` over every path) would, in the same order, from one
        // pre-order index of the tree: linear in its size, where those are
        // quadratic (they were most of a mutant's cost on trees of hundreds of nodes).
        match op {
            Mutation::Reroll => {
                let choices = self.reroll.get_or_init(|| (0..index.len()).filter(|&i| index.nodes[i].choice).collect());
                match choices.len() {
                    0 => None,
                    n => Some(Edit::Reroll { at: index.path(choices[rng.random_range(0..n)]) }),
                }
            }
            Mutation::Swap => {
                let (groups, xs) = self.swap.get_or_init(|| {
                    let groups = index.groups(false);
                    let xs = (1..index.len()).filter(|&x| index.has_partner(&groups, x)).collect();
                    (groups, xs)
                });
                match xs.len() {
                    0 => None,
                    n => {
                        let x = xs[rng.random_range(0..n)];
                        let ys: Vec<usize> =
                            index.group_of(groups, x).iter().copied().filter(|&y| index.partners(x, y)).collect();
                        let y = ys[rng.random_range(0..ys.len())];
                        Some(Edit::Exchange { x: index.path(x), y: index.path(y) })
                    }
                }
            }
            Mutation::Shrink => {
                let (groups, ats) = self.shrink.get_or_init(|| {
                    let groups = index.groups(true);
                    let ats = (0..index.len()).filter(|&at| index.inside(&groups, at).next().is_some()).collect();
                    (groups, ats)
                });
                match ats.len() {
                    0 => None,
                    n => {
                        let at = ats[rng.random_range(0..n)];
                        // `promotions`: smallest first, ties in pre-order.
                        let mut inner: Vec<usize> = index.inside(groups, at).collect();
                        inner.sort_by_key(|&d| index.nodes[d].end - d);
                        let from = inner.swap_remove(rng.random_range(0..inner.len()));
                        let (at_path, from_path) = (index.path(at), index.path(from));
                        Some(Edit::Promote { from: from_path[at_path.len()..].to_vec(), at: at_path })
                    }
                }
            }
        }
    }

    /// [`Mutation::mutant_into`] by `op` of `tree`, the tree indexed: the same draws, the same tree in `out`.
    pub fn mutant_into(
        &self,
        op: Mutation,
        tree: &ChoiceTree,
        out: &mut ChoiceTree,
        rng: &mut DetRng,
    ) -> Option<Mutation> {
        let (op, edit) = match self.draw(op, rng) {
            Some(e) => (op, e),
            None => (Mutation::Reroll, self.draw(Mutation::Reroll, rng)?),
        };
        out.clone_from(tree);
        edit.apply_in_place(out).then_some(op)
    }
}
