//! The shrinker's passes, in the order a round runs them, each one counted.
//!
//! The passes, each over the shared edits of [`refgen_core::edit`], tried in
//! rounds until a round changes nothing (passes 7 to 10, which change
//! several choices at once and cost more tries, only in a round that did
//! not shorten the case):
//!
//! 1. delete a run of sibling subtrees (list elements), also lowering the
//!    length choice before them when there is one: in a long run (16 or
//!    more), first halves from the tail or the head with the length lowered
//!    (so the length goes down first), then quarters, and so on; in a wide
//!    node (32 or more children: a long list), zero runs of children with
//!    sizes that grow while they succeed (1, 2, 3, 4, 8, ..., then a binary
//!    search, as Hypothesis's `find_integer` probes), and swap each child
//!    with its smallest later sibling, so a long list is lowered in a
//!    logarithmic number of tries; then runs of 8, 4, 2 and 1 anywhere;
//! 2. replace a subtree by a smaller subtree of the same choice point inside it;
//! 3. empty a subtree (lenient replay takes the first option beneath);
//! 4. lower one choice: to 0; else down by 1, 2, 3, 4, then doubling, then
//!    a binary search where that stops (a long way down costs a logarithmic
//!    number of tries), then a binary search from 0 across values that
//!    pass; when it cannot go lower, lower it by one with the next choice of
//!    the same site raised to its largest (the high word of a two-choice
//!    integer, whose low word must grow to keep the value large: 2^64
//!    becomes 2^64 - 1);
//!    then move a pick whose option built a flat part (choices only) to the
//!    option before it, that option's part built as large as it goes
//!    ([`Edit::Raise`]): the default integers keep `MIN` and `MAX` in a last,
//!    small option, and a failure found at `MAX` has its smallest failing
//!    value in the uniform option before it, which the lowering then
//!    searches from its top (`MAX` becomes 1001 for `u <= 1000`);
//! 5. swap two sibling subtrees of the same site when that puts smaller choices first;
//! 6. join two neighbouring parts of the same site that each begin with a
//!    length (two lists in a list of lists): one part with the summed length
//!    and both parts' elements, the outer length lowered by one;
//! 7. lower all equal leaf choices together (`x == y` kept on the way down);
//! 8. lower two nearby leaf choices by the same amount (`x - y` kept);
//! 9. move an amount from a leaf choice to a later one (`x + y` kept, the
//!    earlier one smaller: an overflowing sum ends at `1 + 255`);
//! 10. delete a run of siblings with the length lowered and the later leaf
//!     choices lowered by the run's length (indices into the list renumbered);
//! 11. delete one sibling with the length lowered and raise one leaf choice
//!     of a later sibling of the same site by 1, 2, 3, 4, 8, 16, ... (a
//!     shorter list that needs a larger element: two allocations merged
//!     into one).
//!
//! [`Pass::ALL`] lists them in the order a round runs them, and
//! [`ShrinkStats::passes`](super::ShrinkStats::passes) counts each one's
//! tries and kept candidates. Passes 7 to 9 search the amount as pass 4 does. Choices of signed
//! integers count outward from zero (0, 1, -1, 2, -2, ...), so one unit of
//! value is two choices: each amount is tried in steps of one choice, then
//! of two.

use super::index::Index;
use super::{shortlex_less, Shrinker};
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::{joinable, promotions, Edit, Path};
use std::collections::BTreeMap;

/// A node with at least this many children is wide: its runs of children
/// are zeroed with run sizes that grow while they succeed, and each child
/// is swapped only with its smallest later sibling (not with each one), so
/// a long list costs a number of tries that grows with the log of its
/// length. Below it (every list of the `shrink_quality` problems), the
/// passes of one try per element or pair are cheap and find more.
const WIDE: usize = 32;

/// Pairs of choices are taken among this many neighbours in pre-order.
pub(super) const PAIR_WINDOW: usize = 4;

/// One pass of the shrinker (see the module docs); [`Pass::ALL`] is the order of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pass {
    /// 1a: delete halves, quarters, ... of long runs of siblings, the length lowered.
    HalveRuns,
    /// 1c: zero runs of children of a wide node, with sizes that grow while they succeed.
    ZeroRuns,
    /// 1d: swap a child of a wide node with its smallest later sibling.
    SwapWide,
    /// 1b: delete runs of 8, 4, 2 and 1 siblings anywhere.
    DeleteRuns,
    /// 2: replace a subtree by a smaller one of the same site inside it.
    Promote,
    /// 3: empty a subtree.
    EmptySubtrees,
    /// 4: lower one choice.
    LowerChoices,
    /// 4b: move a pick to the option before it, built as large as it goes.
    RaisePicks,
    /// 5: swap two siblings of the same site.
    SwapSiblings,
    /// 6: join two neighbouring parts that each begin with a length.
    JoinSiblings,
    /// 7: lower equal leaf choices together.
    LowerDuplicates,
    /// 8: lower two nearby leaf choices by the same amount.
    LowerPairs,
    /// 9: move an amount from a leaf choice to a later one.
    Redistribute,
    /// 10: delete a run of siblings and renumber the later leaf choices.
    DeleteAndRenumber,
    /// 11: delete a sibling and raise a leaf choice of a later one.
    DeleteAndRaise,
}

impl Pass {
    /// Every pass, in the order a round runs them.
    pub const ALL: [Pass; 15] = [
        Pass::HalveRuns,
        Pass::ZeroRuns,
        Pass::SwapWide,
        Pass::DeleteRuns,
        Pass::Promote,
        Pass::EmptySubtrees,
        Pass::LowerChoices,
        Pass::RaisePicks,
        Pass::SwapSiblings,
        Pass::JoinSiblings,
        Pass::LowerDuplicates,
        Pass::LowerPairs,
        Pass::Redistribute,
        Pass::DeleteAndRenumber,
        Pass::DeleteAndRaise,
    ];

    /// The pass's name, in snake case (`halve_runs`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Pass::HalveRuns => "halve_runs",
            Pass::ZeroRuns => "zero_runs",
            Pass::SwapWide => "swap_wide",
            Pass::DeleteRuns => "delete_runs",
            Pass::Promote => "promote",
            Pass::EmptySubtrees => "empty_subtrees",
            Pass::LowerChoices => "lower_choices",
            Pass::RaisePicks => "raise_picks",
            Pass::SwapSiblings => "swap_siblings",
            Pass::JoinSiblings => "join_siblings",
            Pass::LowerDuplicates => "lower_duplicates",
            Pass::LowerPairs => "lower_pairs",
            Pass::Redistribute => "redistribute",
            Pass::DeleteAndRenumber => "delete_and_renumber",
            Pass::DeleteAndRaise => "delete_and_raise",
        }
    }

    /// Whether the pass changes several choices at once, and so runs only
    /// in a round whose other passes did not shorten the case (these come
    /// last in [`Pass::ALL`]).
    pub fn costly(self) -> bool {
        matches!(
            self,
            Pass::LowerDuplicates
                | Pass::LowerPairs
                | Pass::Redistribute
                | Pass::DeleteAndRenumber
                | Pass::DeleteAndRaise
        )
    }
}

impl<F: FnMut(&mut ChoiceTree, bool) -> Option<ChoiceTree>> Shrinker<F> {
    /// Runs `pass` once over the current tree.
    pub(super) fn run_pass(&mut self, pass: Pass) {
        match pass {
            Pass::HalveRuns => self.halve_runs(),
            Pass::ZeroRuns => self.zero_runs(),
            Pass::SwapWide => self.swap_wide(),
            Pass::DeleteRuns => self.delete_runs(),
            Pass::Promote => self.promote(),
            Pass::EmptySubtrees => self.empty_subtrees(),
            Pass::LowerChoices => self.lower_choices(),
            Pass::RaisePicks => self.raise_picks(),
            Pass::SwapSiblings => self.swap_siblings(),
            Pass::JoinSiblings => self.join_siblings(),
            Pass::LowerDuplicates => self.lower_duplicates(),
            Pass::LowerPairs => self.lower_pairs(),
            Pass::Redistribute => self.redistribute(),
            Pass::DeleteAndRenumber => self.delete_and_renumber(),
            Pass::DeleteAndRaise => self.delete_and_raise(),
        }
    }

    /// The largest `n` for which `f(n)` holds, `f(0)` assumed: tries 1, 2,
    /// 3, 4, then doubles, then searches between the last `n` that held and
    /// the first that did not. `f` keeps what holds, so a long way down
    /// costs a logarithmic number of tries, not one per step.
    pub(super) fn find_integer(&mut self, mut f: impl FnMut(&mut Self, u64) -> bool) -> u64 {
        let mut lo = 0;
        for n in 1..=4 {
            if !f(self, n) {
                return lo;
            }
            lo = n;
        }
        let mut hi = 8;
        while f(self, hi) {
            lo = hi;
            match hi.checked_mul(2) {
                Some(h) => hi = h,
                None => return lo,
            }
        }
        while lo + 1 < hi && !self.out_of_budget() {
            let mid = lo + (hi - lo) / 2;
            if f(self, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Moves the choices at `moves`' paths at once, each from what it is
    /// now by `k * step` times its sign, as far as the case keeps failing
    /// ([`Shrinker::find_integer`]); the first of `steps` that moves
    /// anything wins. Whether anything was kept.
    pub(super) fn move_together(&mut self, moves: &[(&Path, i128)], steps: &[i128]) -> bool {
        // The choices as they are now: each amount is taken from these.
        let Some(base) = moves.iter().map(|(p, _)| self.choice_at(p)).collect::<Option<Vec<Choice>>>() else {
            return false;
        };
        let mut sets: Vec<(&[usize], Choice)> = moves.iter().map(|(p, _)| (p.as_slice(), 0)).collect();
        steps.iter().any(|&step| {
            let moved = self.find_integer(|s, k| {
                for ((set, &(_, sign)), &c) in sets.iter_mut().zip(moves).zip(&base) {
                    match Choice::try_from(c as i128 - sign * step * k as i128) {
                        Ok(c) => set.1 = c,
                        Err(_) => return false,
                    }
                }
                s.try_sets(&sets)
            });
            moved > 0
        })
    }

    /// The first node of the current tree from the `i`-th on in pre-order
    /// that `want` picks (by its number, from the index), with its number
    /// and its path: a pass visits only the nodes it can edit.
    pub(super) fn next_node(&self, i: usize, want: impl Fn(&Index, usize) -> bool, path: &mut Path) -> Option<usize> {
        let j = (i..self.index.len()).find(|&j| want(&self.index, j))?;
        self.index.path_into(j, path);
        Some(j)
    }

    /// Pass 1a: delete halves of long runs of siblings, then quarters, ...,
    /// down to single ones, with the length before them lowered: from the
    /// tail, then from the head (runs in the middle are left to pass 1b).
    pub(super) fn halve_runs(&mut self) {
        let wide: Vec<Path> =
            (0..self.index.len()).filter(|&i| self.index.children(i) >= 16).map(|i| self.index.path(i)).collect();
        for path in wide {
            let len = |s: &Self| s.current.get(&path).map_or(0, |t| t.children.len());
            let mut k = len(self) / 2;
            while k >= 1 && !self.out_of_budget() {
                let n = len(self);
                if n < 2 * k {
                    k = n / 2;
                    continue;
                }
                let kept = [n - k, 0, 1].into_iter().any(|start| self.try_delete(&path, start, k, true, false));
                if !kept {
                    k /= 2;
                }
            }
        }
    }

    /// The paths of the current tree's [`WIDE`] nodes.
    pub(super) fn wide_nodes(&self) -> Vec<Path> {
        (0..self.index.len()).filter(|&i| self.index.children(i) >= WIDE).map(|i| self.index.path(i)).collect()
    }

    /// Pass 1c: in a wide node, zero runs of children: from each child with
    /// a choice above zero, every child to the end, else runs of 1, 2, 3, 4,
    /// 8, ... children, then a
    /// binary search ([`Shrinker::find_integer`]), and on past the child that
    /// stopped it. A list that fails by a few of its elements has the others
    /// zeroed in a logarithmic number of tries.
    pub(super) fn zero_runs(&mut self) {
        for path in self.wide_nodes() {
            let mut s = 0;
            while !self.out_of_budget() {
                let Some(node) = self.current.get(&path) else { break };
                // Children with nothing to lower are passed over without a try.
                let Some(first) = (s..node.children.len()).find(|&i| positive_leaf(&node.children[i])) else {
                    break;
                };
                s = first;
                // The whole rest at once first: the last run of a sweep is often that.
                let n = node.children.len();
                if n - s > 4 && self.try_cap(&path, s, n - s, 0) {
                    break;
                }
                let k = self.find_integer(|sh, k| {
                    let n = sh.current.get(&path).map_or(0, |t| t.children.len());
                    s + k as usize <= n && sh.try_cap(&path, s, k as usize, 0)
                });
                s += k as usize + 1;
            }
        }
    }

    /// Pass 1d: in a wide node, swap each child with its smallest later
    /// sibling of the same site (the last of equal ones), when that is
    /// smaller: a large value goes to the end in one try, where pass 5 would
    /// try each pair.
    pub(super) fn swap_wide(&mut self) {
        for path in self.wide_nodes() {
            let mut a = 0;
            while !self.out_of_budget() {
                let Some(node) = self.current.get(&path) else { break };
                let keys: Vec<Vec<Choice>> = node.children.iter().map(ChoiceTree::choices).collect();
                // For each child, the smallest later sibling of its site.
                let mut later = vec![None; keys.len()];
                let mut smallest: Vec<(&str, usize)> = Vec::new();
                for i in (0..keys.len()).rev() {
                    let site: &str = &node.children[i].site;
                    match smallest.iter_mut().find(|(s, _)| *s == site) {
                        Some((_, m)) => {
                            later[i] = Some(*m);
                            if shortlex_less(&keys[i], &keys[*m]) {
                                *m = i;
                            }
                        }
                        None => smallest.push((site, i)),
                    }
                }
                let Some((x, y)) = (a..keys.len())
                    .find_map(|i| later[i].filter(|&b| shortlex_less(&keys[b], &keys[i])).map(|b| (i, b)))
                else {
                    break;
                };
                a = if self.try_edit(Edit::Swap { at: path.clone(), a: x, b: y }) { x } else { x + 1 };
            }
        }
    }

    /// Pass 1b: delete runs of sibling subtrees, largest runs first.
    pub(super) fn delete_runs(&mut self) {
        for k in [8usize, 4, 2, 1] {
            let mut i = 0;
            let mut path = Path::new();
            while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= k, &mut path) {
                if self.out_of_budget() {
                    return;
                }
                let mut start = 0;
                loop {
                    let n = self.current.get(&path).map_or(0, |t| t.children.len());
                    if start + k > n || self.out_of_budget() {
                        break;
                    }
                    // With the length choice lowered to match, then without.
                    let kept =
                        [true, false].into_iter().any(|lower_len| self.try_delete(&path, start, k, lower_len, false));
                    let n_now = self.current.get(&path).map_or(0, |t| t.children.len());
                    // A kept deletion brings new siblings to `start`: try there again.
                    if !kept || n_now >= n {
                        start += 1;
                    }
                }
                i = j + 1;
            }
        }
    }

    /// Pass 2: replace a subtree by a subtree of the same site and kind inside it, smallest first.
    pub(super) fn promote(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, has_children, &mut path) {
            if self.out_of_budget() {
                return;
            }
            for edit in promotions(&self.current, &path) {
                if self.try_edit(edit) {
                    break;
                }
            }
            i = j + 1;
        }
    }

    /// Pass 3: drop everything beneath a node.
    pub(super) fn empty_subtrees(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| i > 0 && has_children(ix, i), &mut path) {
            if self.out_of_budget() {
                return;
            }
            self.try_edit(Edit::Empty { at: path.clone() });
            i = j + 1;
        }
    }

    pub(super) fn set(&mut self, path: &[usize], choice: Choice) -> bool {
        self.try_sets(&[(path, choice)])
    }

    pub(super) fn choice_at(&self, path: &[usize]) -> Option<Choice> {
        self.current.get(path).and_then(|t| t.choice)
    }

    /// Pass 4: lower each choice: to 0 first, then down by 1, 2, 3, 4, 8,
    /// 16, ... and a binary search where that stops, then by a binary
    /// search from 0 (across values that pass between failing ones).
    pub(super) fn lower_choices(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| ix.choice(i).is_some_and(|c| c > 0), &mut path) {
            if self.out_of_budget() {
                return;
            }
            let c = self.index.choice(j).expect("a choice node");
            if !self.set(&path, 0) {
                self.find_integer(|s, k| k < c && s.set(&path, c - k));
                self.bisect(&path);
            }
            self.borrow(&path);
            i = j + 1;
        }
    }

    /// A binary search for the smallest choice at `path` that still fails,
    /// between 0 (taken to pass) and the current one.
    pub(super) fn bisect(&mut self, path: &[usize]) {
        let Some(c) = self.choice_at(path) else { return };
        let (mut lo, mut hi) = (0, c);
        while lo + 1 < hi && !self.out_of_budget() && self.choice_at(path) == Some(hi) {
            let mid = lo + (hi - lo) / 2;
            if self.set(path, mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }

    /// The leaf choices (numbers, not options) above zero, in pre-order.
    pub(super) fn leaf_choices(&self) -> Vec<(Path, Choice)> {
        (0..self.index.len())
            .filter_map(|i| {
                let c = self.index.choice(i).filter(|&c| c > 0 && !has_children(&self.index, i))?;
                Some((self.index.path(i), c))
            })
            .collect()
    }

    /// Pass 7: lower all equal leaf choices together (a value that appears
    /// twice, such as `x == y`, must go down in both places at once).
    /// Choices of signed integers count outward from zero (0, 1, -1, 2, ...),
    /// so after steps of one choice, steps of two (one unit of value) are tried.
    pub(super) fn lower_duplicates(&mut self) {
        let mut groups: BTreeMap<Choice, Vec<Path>> = BTreeMap::new();
        for (p, c) in self.leaf_choices() {
            groups.entry(c).or_default().push(p);
        }
        for paths in groups.into_values().rev().filter(|ps| ps.len() >= 2) {
            if self.out_of_budget() {
                return;
            }
            let moves: Vec<(&Path, i128)> = paths.iter().map(|p| (p, 1)).collect();
            self.move_together(&moves, &[1, 2]);
        }
    }

    /// Moves each pair of leaf choices at most [`PAIR_WINDOW`] apart in
    /// pre-order together, the later one by `sign` times the earlier one's amount.
    pub(super) fn move_pairs(&mut self, sign: i128) {
        let leaves = self.leaf_choices();
        for (i, (a, _)) in leaves.iter().enumerate() {
            for (b, _) in leaves.iter().skip(i + 1).take(PAIR_WINDOW) {
                if self.out_of_budget() {
                    return;
                }
                self.move_together(&[(a, 1), (b, sign)], &[1, 2]);
            }
        }
    }

    /// Pass 8: lower two choices by the same amount (`x - y` kept while both go down).
    pub(super) fn lower_pairs(&mut self) {
        self.move_pairs(1);
    }

    /// Pass 9: move an amount from an earlier choice to a later one (the
    /// sum kept while the earlier one goes down: `x + y` overflowing with
    /// `x` as small as it can be).
    pub(super) fn redistribute(&mut self) {
        self.move_pairs(-1);
    }

    /// Pass 10: delete a run of siblings with the length before them
    /// lowered, and the leaf choices after them lowered by the run's length
    /// (indices into a list renumbered after elements before them went).
    pub(super) fn delete_and_renumber(&mut self) {
        for k in [1usize, 2, 3, 4] {
            let mut i = 0;
            let mut path = Path::new();
            while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= k, &mut path) {
                let mut start = 0;
                while start + k <= self.current.get(&path).map_or(0, |t| t.children.len()) {
                    if self.out_of_budget() {
                        return;
                    }
                    if !self.try_delete(&path, start, k, true, true) {
                        start += 1;
                    }
                }
                i = j + 1;
            }
        }
    }

    /// Lowers the choice at `path` by one and raises the next sibling of
    /// the same site to the largest choice (a lenient replay makes it at
    /// random where that does not fit).
    pub(super) fn borrow(&mut self, path: &[usize]) {
        let Some((&last, parent)) = path.split_last() else { return };
        let Some(siblings) = self.current.get(parent).map(|p| &p.children[..]) else { return };
        let (Some(node), Some(after)) = (siblings.get(last), siblings.get(last + 1)) else { return };
        let (Some(c), Some(_)) = (node.choice, after.choice) else { return };
        if c == 0 || node.site != after.site {
            return;
        }
        let next = [parent, &[last + 1]].concat();
        self.try_sets(&[(path, c - 1), (&next, Choice::MAX)]);
    }

    /// Pass 4b: move a pick whose option built only choices to the option
    /// before it, built as large as it goes (see the module docs).
    pub(super) fn raise_picks(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) =
            self.next_node(i, |ix, i| ix.choice(i).is_some_and(|c| c > 0) && has_children(ix, i), &mut path)
        {
            if self.out_of_budget() {
                return;
            }
            let flat_pick = self.current.get(&path).and_then(|t| {
                let flat =
                    !t.children.is_empty() && t.children.iter().all(|k| k.choice.is_some() && k.children.is_empty());
                t.choice.filter(|&c| c > 0 && flat)
            });
            if let Some(c) = flat_pick {
                self.try_edit(Edit::Raise { at: path.clone(), choice: c - 1 });
            }
            i = j + 1;
        }
    }

    /// Pass 5: swap sibling subtrees of the same site when the smaller
    /// choices then come first (in a node that is not [`WIDE`]: pass 1d).
    pub(super) fn swap_siblings(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| (2..WIDE).contains(&ix.children(i)), &mut path) {
            if self.out_of_budget() {
                return;
            }
            let n = self.current.get(&path).map_or(0, |t| t.children.len());
            // The children's choices, made once for the node (again after a kept swap).
            let mut keys: Option<Vec<Vec<Choice>>> = None;
            for a in 0..n {
                for b in a + 1..n {
                    // A kept swap's replay may have reshaped the tree: stop when the node or child is gone.
                    let Some(node) = self.current.get(&path).filter(|t| b < t.children.len()) else {
                        break;
                    };
                    if node.children[a].site != node.children[b].site {
                        continue;
                    }
                    let k = keys.get_or_insert_with(|| node.children.iter().map(ChoiceTree::choices).collect());
                    if shortlex_less(&k[b], &k[a]) && self.try_edit(Edit::Swap { at: path.clone(), a, b }) {
                        keys = None;
                    }
                }
            }
            i = j + 1;
        }
    }

    /// Pass 6: join neighbouring parts that each begin with a length.
    pub(super) fn join_siblings(&mut self) {
        let mut i = 0;
        let mut path = Path::new();
        while let Some(j) = self.next_node(i, |ix, i| ix.children(i) >= 2, &mut path) {
            if self.out_of_budget() {
                return;
            }
            let mut a = 0;
            while let Some(node) = self.current.get(&path) {
                if a + 1 >= node.children.len() {
                    break;
                }
                if !joinable(&node.children[a], &node.children[a + 1])
                    || !self.try_edit(Edit::Join { at: path.clone(), a })
                {
                    a += 1;
                }
            }
            i = j + 1;
        }
    }
}

/// Whether `t` has a leaf choice above zero.
pub(super) fn positive_leaf(t: &ChoiceTree) -> bool {
    match t.choice {
        Some(c) if t.children.is_empty() => c > 0,
        _ => t.children.iter().any(positive_leaf),
    }
}

/// Whether node `i` of the index has children.
pub(super) fn has_children(ix: &Index, i: usize) -> bool {
    ix.children(i) > 0
}
