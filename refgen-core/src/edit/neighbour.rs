//! Neighbourhoods of choice trees for simulated annealing, applied with the shared edits.
//!
//! Löscher and Sagonas ("Automating Targeted Property-Based Testing", ICST
//! 2018, Sec. IV, Tables I-II) construct a neighbourhood function from a
//! generator by re-enacting its random decisions near the previous ones.
//! Here the decisions are the choice tree a replay recorded, with what each
//! choice point asked ([`Kind`], from the [`crate::trail::Trail`]), so the
//! construction works on any generator, however recursive or dependent (the
//! paper's constructor loses its "caching and matching" there). The
//! neighbour of a tree at temperature `t` (in `0..=1`) is a list of
//! [`Edit`]s, applied in an order that keeps their paths valid; the edited
//! tree is meant to be replayed leniently: a new list element under a fresh
//! mark ([`ChoiceTree::fresh`]) is made as the generator makes one, and a
//! pick's new option takes the first option beneath it.
//!
//! The rules, with the constants of the paper's implementation (PropEr)
//! except where said:
//!
//! | node | rule |
//! |---|---|
//! | integer choice over `0..=span` | moves by `o ~ U[-r, r]`, `r = ⌊span · 0.1 · t⌋ + 1`, reflected back into range ([`INT_STEP`]) |
//! | a length followed by its elements (a `Vec`, a `String`) | growth `g ~ U[0.1, 0.9]`; before each element: insert a new one (`0.1·g·t`, again after an insert), delete it (`0.1·(1-g)·t`), modify it (`0.1·t`) or keep it; at the end insert while `U < 0.5·t`; the length follows, within its range |
//! | pick (a union) | keep (`0.3·t`), change to a uniformly chosen option generated afresh (`0.3·t`), else modify what the option built |
//! | part, or what a pick built (a tuple) | each child modified with probability `0.5·t`; when nothing beneath the node changed, one child chosen uniformly is |
//!
//! Departures from the paper, and why: integers move in *choice order*
//! (choices count outward from zero, so for a range on one side of zero this
//! is the value moving; for a range around zero, its magnitude); the tuple
//! rule changes one child when nothing beneath the node changed, so a
//! neighbour is rarely the base itself (the paper's is, with probability
//! `(1 - 0.5·t)^n`, wasting a test); a part (a field, an element) is always
//! descended, as the paper's matching does for the parts of a `?LET`; a list
//! element is inserted, deleted and modified at rates `0.1·g`, `0.1·(1-g)`
//! and `0.1` (PropEr: `0.3·g`, `0.3·(1-g)`, `0.15`), because at PropEr's
//! rates a step at high temperature rewrites about a third of a list and the
//! search wanders. The tuple rate is PropEr's `0.5·t` (the paper's Table I
//! leaves it to `Tuple.getOperation`): a lower one helps the graph
//! generators whose vertex or edge count is a choice of its own, but
//! annealing grows smaller search trees with it
//! ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#neighbourhood-rates)).
//! PropEr also, by default, ignores the temperature inside its constructed
//! neighbourhood (its temperature scaling is off); the paper's tables scale
//! by it, as we do.

use super::{Edit, Path};
use crate::choice::{Choice, ChoiceTree};
use crate::source::DetRng;
use crate::trail::Kind;
use rand::Rng;

/// The fraction of an integer range an integer choice may move at temperature 1.
pub const INT_STEP: f64 = 0.1;
/// A list element: the rate of inserting a new one before it, times the growth coefficient.
pub const LIST_ADD: f64 = 0.1;
/// A list element: the rate of deleting it, times one minus the growth coefficient.
pub const LIST_DEL: f64 = 0.1;
/// A list element: the rate of modifying it.
pub const LIST_MODIFY: f64 = 0.1;
/// The end of a list: the rate of appending a new element.
pub const LIST_APPEND: f64 = 0.5;
/// A pick: the rate of keeping it as it is.
pub const PICK_KEEP: f64 = 0.3;
/// A pick: the rate of changing its option.
pub const PICK_CHANGE: f64 = 0.3;
/// A tuple: the rate of modifying each component.
pub const TUPLE_MODIFY: f64 = 0.5;

/// The neighbour of `tree` at temperature `t`: the tree with the edits of
/// [`neighbour_edits`] applied. `kinds[i]` is the kind of the `i`-th node of
/// `tree` in pre-order (the root is 0), as the trail that recorded it says.
pub fn neighbour(tree: &ChoiceTree, kinds: &[Kind], t: f64, rng: &mut DetRng) -> ChoiceTree {
    let mut out = tree.clone();
    for edit in neighbour_edits(tree, kinds, t, rng) {
        // The edits are ordered so that each one's path is still valid.
        edit.apply_in_place(&mut out);
    }
    out
}

/// The edits that make a neighbour of `tree` at temperature `t` (see the
/// module docs), in the order to apply them: positions from last to first
/// in pre-order, so that no edit moves a node a later edit names.
pub fn neighbour_edits(tree: &ChoiceTree, kinds: &[Kind], t: f64, rng: &mut DetRng) -> Vec<Edit> {
    let t = t.clamp(0.0, 1.0);
    let mut n = Neighbourhood { kinds, t, rng, edits: Vec::new() };
    n.children(tree, &mut Vec::new(), 1);
    let mut edits = n.edits;
    // Later positions first; at the same position, deletions and settings before insertions.
    edits.sort_by(|(pa, ra, _), (pb, rb, _)| pb.cmp(pa).then(ra.cmp(rb)));
    edits.into_iter().map(|(_, _, e)| e).collect()
}

struct Neighbourhood<'k, 'r> {
    kinds: &'k [Kind],
    t: f64,
    rng: &'r mut DetRng,
    /// (position, rank at that position, edit).
    edits: Vec<(Path, u8, Edit)>,
}

/// Whether children `i + 1 ..` are the elements counted by the length choice at `i`:
/// the number of following parts of one site, when it is at least the length's choice.
fn list_at(kids: &[ChoiceTree], i: usize, kind: Kind) -> Option<usize> {
    let len = &kids[i];
    let (Kind::Int { .. }, Some(c)) = (kind, len.choice) else { return None };
    if !len.children.is_empty() {
        return None;
    }
    let first = kids.get(i + 1)?;
    if first.choice.is_some() {
        return None;
    }
    let n = kids[i + 1..].iter().take_while(|k| k.choice.is_none() && k.site == first.site).count();
    (n as u64 >= c).then_some(n)
}

impl Neighbourhood<'_, '_> {
    fn kind(&self, id: usize) -> Kind {
        self.kinds.get(id).copied().unwrap_or(Kind::Part)
    }

    fn push(&mut self, pos: Path, rank: u8, edit: Edit) {
        self.edits.push((pos, rank, edit));
    }

    /// The children of the node at `path`, whose first child has pre-order id `first`.
    fn children(&mut self, node: &ChoiceTree, path: &mut Path, first: usize) {
        let kids = &node.children;
        let mut ids = Vec::with_capacity(kids.len());
        let mut id = first;
        for k in kids {
            ids.push(id);
            id += k.size();
        }
        // Lists, and the other children (the components of a tuple).
        let before = self.edits.len();
        let mut components = Vec::new();
        let mut i = 0;
        while i < kids.len() {
            if let Some(n) = list_at(kids, i, self.kind(ids[i])) {
                self.list(node, path, &ids, i, n);
                i += 1 + n;
            } else {
                components.push(i);
                i += 1;
            }
        }
        if components.is_empty() {
            return;
        }
        let chosen: Vec<usize> =
            components.iter().copied().filter(|_| self.rng.random::<f64>() < TUPLE_MODIFY * self.t).collect();
        for &i in &chosen {
            path.push(i);
            self.node(&kids[i], path, ids[i]);
            path.pop();
        }
        if self.edits.len() == before {
            // Nothing changed beneath this node: change one component.
            let i = components[self.rng.random_range(0..components.len())];
            path.push(i);
            self.node(&kids[i], path, ids[i]);
            path.pop();
        }
    }

    /// Modify the node at `path`, whose pre-order id is `id`.
    fn node(&mut self, node: &ChoiceTree, path: &mut Path, id: usize) {
        match (self.kind(id), node.choice) {
            (Kind::Int { span }, Some(c)) => {
                let r = ((span as f64 * INT_STEP * self.t) as u64).saturating_add(1).min(span.max(1));
                let step = self.rng.random_range(0..=2 * r);
                let moved = move_in_range(c, step as i128 - r as i128, span);
                if moved != c {
                    self.push(path.clone(), 0, Edit::Set { at: path.clone(), choice: moved });
                }
                if !node.children.is_empty() {
                    self.children(node, path, id + 1);
                }
            }
            (Kind::Pick { options, .. }, Some(c)) => {
                let u = self.rng.random::<f64>();
                if u < PICK_KEEP * self.t {
                    // Keep.
                } else if u < (PICK_KEEP + PICK_CHANGE) * self.t {
                    let new = self.rng.random_range(0..options.max(1) as Choice);
                    if new != c {
                        self.push(path.clone(), 0, Edit::Set { at: path.clone(), choice: new });
                        if !node.children.is_empty() {
                            self.push(path.clone(), 0, Edit::Empty { at: path.clone() });
                        }
                    }
                } else if !node.children.is_empty() {
                    self.children(node, path, id + 1);
                }
            }
            _ => self.children(node, path, id + 1),
        }
    }

    /// The list whose length is child `i` of the node at `path`, with `n` elements after it.
    fn list(&mut self, parent: &ChoiceTree, path: &mut Path, ids: &[usize], i: usize, n: usize) {
        let kids = &parent.children;
        let Kind::Int { span } = self.kind(ids[i]) else { return };
        let c = kids[i].choice.unwrap_or(0);
        let lo = n as u64 - c;
        let hi = lo.saturating_add(span);
        let site = kids[i + 1].site.clone();
        // A new element is made as the generator makes one (a fresh mark), not as its simplest.
        let fresh = || ChoiceTree::fresh(ChoiceTree::group(site.clone(), Vec::new()));
        let g = self.rng.random_range(0.1..0.9);
        let (add, del, modify) = (LIST_ADD * g * self.t, LIST_DEL * (1.0 - g) * self.t, LIST_MODIFY * self.t);
        let mut count = n as u64;
        for j in 0..n {
            let index = i + 1 + j;
            loop {
                let u = self.rng.random::<f64>();
                if u < add {
                    if count < hi {
                        count += 1;
                        self.push(child(path, index), 1, Edit::Insert { at: path.clone(), index, node: fresh() });
                    }
                    continue;
                }
                if u < add + del {
                    if count > lo {
                        count -= 1;
                        self.push(
                            child(path, index),
                            0,
                            Edit::Delete { at: path.clone(), start: index, len: 1, lower_len: false },
                        );
                    }
                } else if u < add + del + modify {
                    path.push(index);
                    self.node(&kids[index], path, ids[index]);
                    path.pop();
                }
                break;
            }
        }
        let end = i + 1 + n;
        while count < hi && self.rng.random::<f64>() < LIST_APPEND * self.t {
            count += 1;
            self.push(child(path, end), 1, Edit::Insert { at: path.clone(), index: end, node: fresh() });
        }
        if count != n as u64 {
            let at = child(path, i);
            self.push(at.clone(), 0, Edit::Set { at, choice: count - lo });
        }
    }
}

fn child(path: &Path, i: usize) -> Path {
    let mut p = path.clone();
    p.push(i);
    p
}

/// `c + offset` in `0..=span`, reflected (`c - offset`) when it falls out, then clamped.
fn move_in_range(c: Choice, offset: i128, span: u64) -> Choice {
    let (c, span) = (c as i128, span as i128);
    let v = if (0..=span).contains(&(c + offset)) { c + offset } else { c - offset };
    v.clamp(0, span) as Choice
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::rng_from_seed;

    #[test]
    fn integers_move_within_reach_and_range() {
        assert_eq!(move_in_range(3, 5, 10), 8);
        assert_eq!(move_in_range(8, 5, 10), 3, "reflected back into range");
        assert_eq!(move_in_range(1, -5, 3), 3, "reflected, then clamped");
        let tree = ChoiceTree::root(vec![ChoiceTree::choice("x", 500, vec![])]);
        let kinds = [Kind::Part, Kind::Int { span: 1000 }];
        let mut rng = rng_from_seed(1);
        for (t, reach) in [(1.0, 101), (0.5, 51), (0.0, 1)] {
            let mut seen_far = false;
            for _ in 0..2000 {
                let n = neighbour(&tree, &kinds, t, &mut rng);
                let c = n.children[0].choice.unwrap() as i64;
                assert!((c - 500).abs() <= reach, "t = {t}: moved to {c}");
                seen_far |= (c - 500).abs() >= reach - 2;
            }
            assert!(seen_far, "t = {t}: the whole reach is used");
        }
    }
}

#[cfg(test)]
mod rule_tests {
    use super::*;
    use crate::source::rng_from_seed;

    /// `<root>(len=n e(x) e(x) ...)`: a list of `n` elements of `0..=99`, lengths `0..=span`.
    fn list(n: u64, span: u64) -> (ChoiceTree, Vec<Kind>) {
        let mut kids = vec![ChoiceTree::choice("len", n, vec![])];
        let mut kinds = vec![Kind::Part, Kind::Int { span }];
        for i in 0..n {
            kids.push(ChoiceTree::group("e", vec![ChoiceTree::choice("x", i, vec![])]));
            kinds.extend([Kind::Part, Kind::Int { span: 99 }]);
        }
        (ChoiceTree::root(kids), kinds)
    }

    #[test]
    fn list_elements_are_added_deleted_and_modified_at_the_tables_rates() {
        // At t = 1, E[g] = 0.5: each element is deleted with probability 0.05, modified 0.1, and a new
        // one inserted before it 0.05 / (1 - 0.05) times on average; at the end, 0.5 / (1 - 0.5) = 1.
        let (tree, kinds) = list(20, 1000);
        let mut rng = rng_from_seed(4);
        let (mut kept, mut total, mut len_sum, mut fresh) = (0usize, 0usize, 0u64, 0usize);
        let samples = 4000;
        for _ in 0..samples {
            let n = neighbour(&tree, &kinds, 1.0, &mut rng);
            let len = n.children[0].choice.unwrap();
            assert_eq!(len as usize, n.children.len() - 1, "the length follows the elements");
            len_sum += len;
            for e in &n.children[1..] {
                // A new element is an empty part under a fresh mark.
                if e.is_fresh() {
                    assert!(e.children[0].children.is_empty());
                    fresh += 1;
                    continue;
                }
                match e.children.first() {
                    None => panic!("an old element emptied"),
                    Some(x) => {
                        total += 1;
                        kept += usize::from(x.choice.unwrap() < 20);
                    }
                }
            }
        }
        let old_left = total as f64 / (samples * 20) as f64;
        assert!((old_left - 0.95).abs() < 0.01, "{old_left} of the old elements remain (expected 0.95)");
        // Modified elements move by at most 10: some leave 0..20, most stay.
        assert!(kept as f64 / total as f64 > 0.9);
        let inserted = fresh as f64 / samples as f64;
        assert!((inserted - (20.0 * 0.05 / 0.95 + 1.0)).abs() < 0.2, "{inserted} inserted per neighbour");
        assert!((len_sum as f64 / samples as f64 - (19.0 + inserted)).abs() < 0.3);
        // At t = 0 a list is left as it is (it has no tuple component to force a change in).
        assert_eq!(neighbour(&tree, &kinds, 0.0, &mut rng), tree);
    }

    #[test]
    fn picks_are_kept_changed_or_modified_at_the_tables_rates() {
        // A pick of 4 options with one integer beneath it; the pick's own rule, as a list element's is.
        let tree = ChoiceTree::root(vec![ChoiceTree::choice("p", 2, vec![ChoiceTree::choice("x", 50, vec![])])]);
        let kinds = [Kind::Part, Kind::Pick { label: "c", options: 4 }, Kind::Int { span: 100 }];
        let mut rng = rng_from_seed(8);
        let (mut same, mut changed, mut modified) = (0, 0, 0);
        let samples = 20_000;
        for _ in 0..samples {
            let mut n = Neighbourhood { kinds: &kinds, t: 0.5, rng: &mut rng, edits: Vec::new() };
            n.node(&tree.children[0], &mut vec![0], 1);
            let mut out = tree.clone();
            let mut edits = n.edits;
            edits.sort_by(|(pa, ra, _), (pb, rb, _)| pb.cmp(pa).then(ra.cmp(rb)));
            for (_, _, e) in edits {
                assert!(e.apply_in_place(&mut out));
            }
            let p = &out.children[0];
            if p.choice != Some(2) {
                changed += 1;
                assert!(p.children.is_empty(), "a changed pick is generated afresh beneath");
            } else if p.children[0].choice != Some(50) {
                modified += 1;
            } else {
                same += 1;
            }
        }
        let f = |n: i32| n as f64 / samples as f64;
        // change: 0.3 t, 3/4 of the draws another option; modify: 1 - 0.6 t, what the option built is
        // changed (its one integer, reach ⌊100 × 0.1 × 0.5⌋ + 1 = 6, moves by 0 with probability 1/13,
        // and is then drawn once more: it stays put with probability 1/13 × (0.25 / 13 + 0.75)).
        let stay = (0.25 / 13.0 + 0.75) / 13.0;
        assert!((f(changed) - 0.15 * 0.75).abs() < 0.01, "changed {}", f(changed));
        assert!((f(modified) - 0.7 * (1.0 - stay)).abs() < 0.015, "modified {}", f(modified));
        assert!((f(same) - (0.15 + 0.15 * 0.25 + 0.7 * stay)).abs() < 0.015, "same {}", f(same));
    }

    #[test]
    fn tuples_modify_each_component_at_the_tuple_rate_and_at_least_one() {
        let tree = ChoiceTree::root((0..4).map(|_| ChoiceTree::choice("x", 500, vec![])).collect());
        let kinds = [
            Kind::Part,
            Kind::Int { span: 1000 },
            Kind::Int { span: 1000 },
            Kind::Int { span: 1000 },
            Kind::Int { span: 1000 },
        ];
        let mut rng = rng_from_seed(2);
        let mut moved = 0;
        let samples = 5000;
        for _ in 0..samples {
            let n = neighbour(&tree, &kinds, 0.4, &mut rng);
            let m = n.children.iter().filter(|c| c.choice != Some(500)).count();
            moved += m;
        }
        // Each of 4 components with probability p = TUPLE_MODIFY · 0.4 (or one forced when none is):
        // 4p + (1 - p)^4 modified per neighbour (1.08 at p = 0.12), less the integer moves of 0 (1 in 83).
        let p = TUPLE_MODIFY * 0.4;
        let per = moved as f64 / samples as f64;
        assert!((per - (4.0 * p + (1.0 - p).powi(4)) * (82.0 / 83.0)).abs() < 0.05, "{per} components moved");
    }
}
