//! Orders: integer sites whose values come in a fixed order in every valid value, learned, for grafting.
//!
//! A search tree's keys, made left part first, come in increasing order in
//! the order its choices are made; so do a sorted list's elements. Such an
//! order couples every integer of a part with every other, and a graft that
//! puts parts together by chance seldom keeps it. [`Orders`] counts, over
//! the valid values a guide hears, how each integer compares with the one
//! made before it at the same site **in the same scope** (the outermost
//! part of the recursive type the integer is made in, a tree's top node,
//! say; the case's root for an integer made outside any pick, such as a
//! property's other arguments). Once enough pairs have been seen and none
//! broke an order (increasing, or never decreasing, or the reverses), the
//! order is taken as the validity condition's, and a graft case draws the
//! integers it makes at that site (at random, or remapping a donor's) on
//! the right side of the last one made in the scope (half the graft cases:
//! the others graft as before).

use super::shape::kept_ids;
use crate::hashing::BuildKey;
use rand::Rng;
use refgen_core::choice::{Choice, Site};
use refgen_core::source::DetRng;
use refgen_core::trail::{Kind, Trail};
use std::collections::HashMap;

/// Pairs a site must show, none against the order, before the order is taken as known.
pub(super) const MIN_PAIRS: u64 = 30;

/// An order the integers at a site keep in their scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Order {
    /// Each greater than the one before.
    Increasing,
    /// None less than the one before.
    NonDecreasing,
    /// Each less than the one before.
    Decreasing,
    /// None greater than the one before.
    NonIncreasing,
}

impl Order {
    /// The values `0..=span` this order allows after `last`, as an inclusive range; `None` when empty.
    pub(super) fn after(self, last: Choice, span: u64) -> Option<(Choice, Choice)> {
        let (lo, hi) = match self {
            Order::Increasing => (last.checked_add(1)?, span),
            Order::NonDecreasing => (last, span),
            Order::Decreasing => (0, last.checked_sub(1)?),
            Order::NonIncreasing => (0, last),
        };
        let hi = hi.min(span);
        (lo <= hi).then_some((lo, hi))
    }
}

/// Pairs seen at one (site, scope site): increasing, equal, decreasing.
type Counts = [u64; 3];

/// The orders learned so far; see the module docs.
#[derive(Debug, Clone, Default)]
pub(super) struct Orders {
    counts: HashMap<(Site, Site), Counts, BuildKey>,
    /// Scratch: the last integer per (site, scope node) in the value being read.
    last: HashMap<(Site, usize), Choice, BuildKey>,
}

/// The scope of a node whose open ancestors are `ancestors` (root first): the outermost ancestor made
/// at the site of the nearest ancestor pick, and that site; the root and `""` when no ancestor is a pick.
fn scope(trail: &Trail, ancestors: impl DoubleEndedIterator<Item = usize> + Clone) -> (usize, Site) {
    let Some(pick) = ancestors.clone().rev().find(|&a| matches!(trail.node(a).kind, Kind::Pick { .. })) else {
        return (0, "");
    };
    let site = trail.node(pick).site;
    let top = ancestors.into_iter().find(|&a| trail.node(a).site == site && trail.node(a).choice.is_some());
    (top.unwrap_or(pick), site)
}

impl Orders {
    /// Learn from a valid value's trail: each integer against the one before it at its site, in its scope.
    pub(super) fn learn(&mut self, trail: &Trail) {
        self.last.clear();
        let mut stack: Vec<usize> = Vec::new();
        for id in kept_ids(trail).skip(1) {
            let n = trail.node(id);
            while stack.last().is_some_and(|&a| trail.end(a) <= id) {
                stack.pop();
            }
            if let (Kind::Int { .. }, Some(c)) = (n.kind, n.choice) {
                let (top, scope_site) = scope(trail, stack.iter().copied());
                if let Some(before) = self.last.insert((n.site, top), c) {
                    let counts = self.counts.entry((n.site, scope_site)).or_default();
                    counts[match c.cmp(&before) {
                        std::cmp::Ordering::Greater => 0,
                        std::cmp::Ordering::Equal => 1,
                        std::cmp::Ordering::Less => 2,
                    }] += 1;
                }
            }
            stack.push(id);
        }
    }

    /// Whether an order is known for some site.
    pub(super) fn any(&self) -> bool {
        self.counts.keys().any(|&(site, scope_site)| self.order(site, scope_site).is_some())
    }

    /// The order the integers at `site` keep in scopes of `scope_site`, if one is known.
    fn order(&self, site: Site, scope_site: Site) -> Option<Order> {
        let [inc, eq, dec] = *self.counts.get(&(site, scope_site))?;
        if inc + eq + dec < MIN_PAIRS {
            return None;
        }
        match (inc, eq, dec) {
            (_, 0, 0) => Some(Order::Increasing),
            (0, 0, _) => Some(Order::Decreasing),
            (_, _, 0) if inc > 0 => Some(Order::NonDecreasing),
            (0, _, _) if dec > 0 => Some(Order::NonIncreasing),
            _ => None,
        }
    }

    /// For an integer about to be made at `site` under the trail's open nodes: its site's known order
    /// and the last integer made at the site in its scope, if both are there.
    pub(super) fn at(&self, trail: &Trail, site: Site) -> Option<(Order, Choice)> {
        let open = trail.open_nodes();
        let (top, scope_site) = scope(trail, open[1..].iter().copied());
        let order = self.order(site, scope_site)?;
        // The last integer at `site` made beneath `top` outside failed attempts: the latest such node none
        // of whose ancestors below `top` is a failed attempt's group.
        let outside_attempts = |mut id: usize| loop {
            match trail.parent(id) {
                Some(p) if p > top => {
                    if trail.node(p).is_retry() {
                        return false;
                    }
                    id = p;
                }
                _ => return true,
            }
        };
        let last = (top + 1..trail.nodes().len()).rev().find_map(|id| {
            let n = trail.node(id);
            (n.site == site && matches!(n.kind, Kind::Int { .. }) && outside_attempts(id)).then_some(n.choice).flatten()
        });
        Some((order, last?))
    }

    /// A value of `0..=span` that `order` allows after `last`, uniform; `None` when there is none.
    pub(super) fn draw(order: Order, last: Choice, span: u64, rng: &mut DetRng) -> Option<Choice> {
        let (lo, hi) = order.after(last, span)?;
        Some(rng.random_range(lo..=hi))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use refgen_core::choice::{Opt, Request};
    use refgen_core::source::rng_from_seed;

    const TWO: [Opt; 2] = [Opt { label: "E", weight: 1 }, Opt { label: "T", weight: 3 }];
    const PICK: Request<'static> = Request::Pick { options: &TWO, total: 4 };
    const KEY: Request<'static> = Request::Int { span: 15 };

    /// A search tree's node: `T(left, key, right)` made at site `t`, its key at `k`; `None` a leaf.
    enum Tree {
        E,
        T(Box<Tree>, Choice, Box<Tree>),
    }

    fn record(t: &Tree, trail: &mut Trail) {
        match t {
            Tree::E => {
                trail.leaf_choice("t", PICK, 0);
            }
            Tree::T(l, k, r) => {
                trail.open_choice("t", PICK, 1);
                record(l, trail);
                trail.leaf_choice("k", KEY, *k);
                record(r, trail);
                trail.close();
            }
        }
    }

    /// A tree of the keys `keys`, each to the right of the one before: its keys in choice order are `keys`.
    fn chain(keys: &[Choice]) -> Tree {
        keys.iter().rev().fold(Tree::E, |r, &k| Tree::T(Box::new(Tree::E), k, Box::new(r)))
    }

    /// The trail of a case `(tree, key)`: the tree, then an argument's key at the same site, outside the tree.
    fn case(tree: &Tree, arg: Choice) -> Trail {
        let mut trail = Trail::new();
        trail.open_part("arg.0");
        record(tree, &mut trail);
        trail.close();
        trail.open_part("arg.1");
        trail.leaf_choice("k", KEY, arg);
        trail.close();
        trail
    }

    /// The order known at a key made right after the tree `keys` (at the right of its last node).
    fn known_after(orders: &Orders, keys: &[Choice]) -> Option<(Order, Choice)> {
        let mut trail = Trail::new();
        trail.open_part("arg.0");
        for &k in keys {
            trail.open_choice("t", PICK, 1);
            trail.leaf_choice("t", PICK, 0);
            trail.leaf_choice("k", KEY, k);
        }
        orders.at(&trail, "k")
    }

    #[test]
    fn a_site_whose_integers_always_increase_in_their_scope_gets_that_order_once_enough_pairs_are_seen() {
        let mut orders = Orders::default();
        // Three keys a tree: two pairs each; the argument's key, in the root's scope, breaks no order of the tree's.
        let mut pairs = 0;
        for (i, arg) in (0..20).zip([9, 2, 14, 0, 7].into_iter().cycle()) {
            assert_eq!(known_after(&orders, &[3]).is_some(), pairs >= MIN_PAIRS, "after {i} values");
            orders.learn(&case(&chain(&[1 + i % 3, 5, 9 + i % 4]), arg));
            pairs += 2;
        }
        assert_eq!(known_after(&orders, &[3, 6]), Some((Order::Increasing, 6)));
        assert!(orders.any() && !Orders::default().any());
        assert_eq!(orders.order("k", ""), None, "the arguments' keys keep no order: a scope of their own");
    }

    #[test]
    fn one_pair_against_the_order_drops_it_and_equal_pairs_weaken_it() {
        let learned = |last: &[Choice]| {
            let mut orders = Orders::default();
            (0..MIN_PAIRS).for_each(|_| orders.learn(&case(&chain(&[1, 2]), 0)));
            orders.learn(&case(&chain(last), 0));
            orders.order("k", "t")
        };
        assert_eq!(learned(&[3, 4]), Some(Order::Increasing));
        assert_eq!(learned(&[4, 4]), Some(Order::NonDecreasing));
        assert_eq!(learned(&[4, 3]), None);
    }

    #[test]
    fn failed_attempts_teach_nothing_and_are_not_the_last_integer() {
        let mut orders = Orders::default();
        // A node keyed 5, then a failed attempt keyed `failed`, then a retry begun.
        let retrying = |failed| {
            let mut trail = Trail::new();
            trail.open_choice("t", PICK, 1);
            trail.leaf_choice("k", KEY, 5);
            trail.begin_attempt();
            trail.leaf_choice("k", KEY, failed);
            trail.end_attempt(false);
            trail.begin_attempt();
            trail
        };
        for _ in 0..MIN_PAIRS {
            let mut trail = retrying(1);
            trail.leaf_choice("k", KEY, 8);
            trail.end_attempt(true);
            trail.close();
            orders.learn(&trail);
        }
        assert_eq!(orders.order("k", "t"), Some(Order::Increasing), "5 then 8; the failed 1 not read");
        let trail = retrying(12);
        assert_eq!(orders.at(&trail, "k"), Some((Order::Increasing, 5)), "the failed attempt's 12 is not the last");
    }

    #[test]
    fn a_draw_keeps_the_order_and_the_range_or_gives_none() {
        let mut rng = rng_from_seed(5);
        for order in [Order::Increasing, Order::NonDecreasing, Order::Decreasing, Order::NonIncreasing] {
            for last in 0..=20 {
                for _ in 0..20 {
                    match Orders::draw(order, last, 15, &mut rng) {
                        Some(c) => {
                            assert!(c <= 15);
                            let kept = match order {
                                Order::Increasing => c > last,
                                Order::NonDecreasing => c >= last,
                                Order::Decreasing => c < last,
                                Order::NonIncreasing => c <= last,
                            };
                            assert!(kept, "{order:?} after {last}: {c}");
                        }
                        None => assert!(matches!(
                            (order, last),
                            (Order::Increasing, 15..) | (Order::NonDecreasing, 16..) | (Order::Decreasing, 0)
                        )),
                    }
                }
            }
        }
    }
}
