//! The choice model: sites, weighted options, requests, and the choice trees that record them.
//!
//! A generator asks one question at each *choice point* (a [`Site`]): pick one
//! of these labelled, weighted options ([`Request::Pick`]), or pick an integer
//! offset in `0..=span` ([`Request::Int`]). The answer is a [`Choice`], a plain
//! `u64`. A run of a generator records its answers in a [`ChoiceTree`] that
//! keeps which sub-generator made which choice; [`ChoiceTree::choices`] gives
//! the flat sequence view.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::fmt;

/// The answer to one choice point: the index of a picked option, or the
/// offset of an integer from the low end of its range.
pub type Choice = u64;

/// The stable identity of a choice point, such as `"Tree::Node"` or
/// `"Person.age"`. Guides keep one learner per site; tuning keeps weights per
/// site and label; reports name sites.
pub type Site = &'static str;

/// One labelled, weighted option of a pick.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opt {
    /// The option's label, used by weighted generation and reports.
    pub label: &'static str,
    /// The option's relative weight: at least 1, but for the lengths a
    /// collection of default length does not draw within its value's budget
    /// (0: never drawn, still a valid answer; see [`crate::combinators::sizes`]).
    pub weight: u32,
}

/// What a generator asks at one choice point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Request<'a> {
    /// Pick one of these options; the choice is the option's index.
    Pick {
        /// The options, in order; the first is the non-recursive one.
        options: &'a [Opt],
        /// The sum of the options' weights.
        total: u64,
    },
    /// Pick an offset in `0..=span`, each with the same weight.
    Int {
        /// The largest offset.
        span: u64,
    },
}

/// How many equal-width buckets [`Request::bucket`] splits a large integer range into.
pub const BUCKETS: u64 = 8;

/// Integer ranges with at most this many values are shown to guides value by value.
pub const SMALL_DOMAIN: u64 = 16;

impl Request<'_> {
    /// Whether `choice` is an answer this request accepts.
    pub fn accepts(&self, choice: Choice) -> bool {
        match *self {
            Request::Pick { options, .. } => choice < options.len() as u64,
            Request::Int { span } => choice <= span,
        }
    }

    /// The largest answer: the last option of a pick, the end of an integer range.
    pub fn largest(&self) -> Choice {
        match *self {
            Request::Pick { options, .. } => (options.len() as u64).saturating_sub(1),
            Request::Int { span } => span,
        }
    }

    /// The number of possible answers, saturating at `u64::MAX` for a full 64-bit range.
    pub fn arity(&self) -> u64 {
        match *self {
            Request::Pick { options, .. } => options.len() as u64,
            Request::Int { span } => span.saturating_add(1),
        }
    }

    /// The probability that generation gives `choice`.
    pub fn probability(&self, choice: Choice) -> f64 {
        match *self {
            Request::Pick { options, total } => match options.get(choice as usize) {
                Some(o) => o.weight as f64 / total as f64,
                None => 0.0,
            },
            Request::Int { span } => {
                if choice <= span {
                    1.0 / (span as f64 + 1.0)
                } else {
                    0.0
                }
            }
        }
    }

    /// The label of `choice`: the option's label for a pick, the decimal
    /// offset for an integer.
    pub fn label(&self, choice: Choice) -> Cow<'static, str> {
        match *self {
            Request::Pick { options, .. } => match options.get(choice as usize) {
                Some(o) => Cow::Borrowed(o.label),
                None => Cow::Owned(format!("#{choice}")),
            },
            Request::Int { .. } => Cow::Owned(choice.to_string()),
        }
    }

    /// The bucket a choice falls in, for guides that need small domains: a
    /// pick's option index; an integer's own offset when the range has at most
    /// [`SMALL_DOMAIN`] values; otherwise one of [`BUCKETS`] contiguous
    /// buckets of the range whose widths differ by at most one.
    pub fn bucket(&self, choice: Choice) -> u64 {
        match *self {
            Request::Pick { .. } => choice,
            Request::Int { span } => {
                if span < SMALL_DOMAIN {
                    choice
                } else {
                    // Bucket b holds the choices c with floor(c * BUCKETS / (span + 1)) = b.
                    ((choice as u128 * BUCKETS as u128) / (span as u128 + 1)).min(BUCKETS as u128 - 1) as u64
                }
            }
        }
    }

    /// The number of buckets [`Request::bucket`] uses for this request.
    pub fn buckets(&self) -> u64 {
        match *self {
            Request::Pick { options, .. } => options.len() as u64,
            Request::Int { span } => {
                if span < SMALL_DOMAIN {
                    span + 1
                } else {
                    BUCKETS
                }
            }
        }
    }

    /// The inclusive range of choices in `bucket` (see [`Request::bucket`]),
    /// or `None` when there is no such bucket.
    pub fn bucket_range(&self, bucket: u64) -> Option<(Choice, Choice)> {
        if bucket >= self.buckets() {
            return None;
        }
        match *self {
            Request::Pick { .. } => Some((bucket, bucket)),
            Request::Int { span } => {
                if span < SMALL_DOMAIN {
                    Some((bucket, bucket))
                } else {
                    let n = span as u128 + 1;
                    let b = BUCKETS as u128;
                    let start = |k: u128| (k * n).div_ceil(b);
                    let lo = start(bucket as u128);
                    let hi = start(bucket as u128 + 1) - 1;
                    Some((lo as u64, hi as u64))
                }
            }
        }
    }

    /// An owned copy of this request, for keeping after the generator moved on.
    pub fn to_owned_request(&self) -> OwnedRequest {
        match *self {
            Request::Pick { options, total } => OwnedRequest::Pick { options: options.to_vec(), total },
            Request::Int { span } => OwnedRequest::Int { span },
        }
    }
}

/// An owned [`Request`], as returned by [`crate::next_pick`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnedRequest {
    /// See [`Request::Pick`].
    Pick {
        /// The options, in order.
        options: Vec<Opt>,
        /// The sum of the weights.
        total: u64,
    },
    /// See [`Request::Int`].
    Int {
        /// The largest offset.
        span: u64,
    },
}

impl OwnedRequest {
    /// Borrow as a [`Request`].
    pub fn as_request(&self) -> Request<'_> {
        match self {
            OwnedRequest::Pick { options, total } => Request::Pick { options, total: *total },
            OwnedRequest::Int { span } => Request::Int { span: *span },
        }
    }
}

/// A record of the choices one run of a generator made, keeping which
/// sub-generator made which choice.
///
/// A node with `choice: Some(c)` is a choice point answered with `c`; its
/// `children` are the choices made by what that answer selected (the picked
/// option's sub-generator). A node with `choice: None` is a group: the
/// choices of one part of the value (a field, a tuple component, a list
/// element). The root is a group named [`ROOT`].
#[derive(Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChoiceTree {
    /// The site of the choice point or group.
    pub site: Cow<'static, str>,
    /// The answer, for a choice point; `None` for a group.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choice: Option<Choice>,
    /// What was chosen beneath this node, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub children: Vec<ChoiceTree>,
}

/// `clone_from` keeps the lists of children `self` already has (at every
/// depth) and copies into them: a shrinker that makes each candidate in the
/// same tree allocates only where the shapes differ.
impl Clone for ChoiceTree {
    fn clone(&self) -> Self {
        ChoiceTree { site: self.site.clone(), choice: self.choice, children: self.children.clone() }
    }

    fn clone_from(&mut self, source: &Self) {
        self.site.clone_from(&source.site);
        self.choice = source.choice;
        self.children.clone_from(&source.children);
    }
}

/// The site name of the root group of every recorded tree.
pub const ROOT: &str = "<root>";

/// The site name of a reroll mark (see [`ChoiceTree::reroll`]). Recorded
/// trees never hold one; only edited trees handed to a replay do.
pub const REROLL: &str = "<reroll>";

/// The site name of a raise mark (see [`ChoiceTree::raise`]). Recorded
/// trees never hold one; only edited trees handed to a replay do.
pub const RAISE: &str = "<raise>";

/// The site name of a fresh mark (see [`ChoiceTree::fresh`]). Recorded
/// trees never hold one; only edited trees handed to a replay do.
pub const FRESH: &str = "<fresh>";

/// The site name of a relabel mark (see [`ChoiceTree::relabel`]). Recorded
/// trees never hold one; only edited trees handed to a replay do.
pub const RELABEL: &str = "<relabel>";

/// The site name of a failed attempt: a group holding the choices of one
/// attempt of a retrying filter ([`Filter`](crate::combinators::Filter), a
/// derived `#[assume]`) whose value failed the condition, recorded before
/// the attempt that was kept. Strict parsing reads its choices as that
/// attempt's (the condition rejects them again); lenient replay steps into
/// it; deleting it drops the attempt. A tree made by reflection holds none.
///
/// Filters nested with no choice between their starts (a filter of a
/// filter) record their failed attempts at one place; the attempt of the
/// `k`-th of them, counted from the outermost, is named by
/// [`retry_site`]`(k)` (`"<retry>"`, `"<retry:1>"`, ...), so that a replay
/// tells whose it is.
pub const RETRY: &str = "<retry>";

/// The names of failed attempts, by how many attempts begun at the same
/// place enclose them (see [`RETRY`]); deeper ones share the last name.
const RETRY_SITES: [&str; 8] =
    [RETRY, "<retry:1>", "<retry:2>", "<retry:3>", "<retry:4>", "<retry:5>", "<retry:6>", "<retry:7>"];

/// Whether `site` names a failed attempt ([`RETRY`] or one of the names [`retry_site`] gives).
#[inline]
pub fn is_retry_site(site: &str) -> bool {
    // Every failed attempt's site begins with `<retry`: most sites are told apart by their first bytes.
    site.starts_with("<retry") && RETRY_SITES.contains(&site)
}

/// The site of a failed attempt enclosed by `level` attempts begun at the same place (see [`RETRY`]).
pub fn retry_site(level: usize) -> Site {
    RETRY_SITES[level.min(RETRY_SITES.len() - 1)]
}

impl ChoiceTree {
    /// A group node.
    #[inline]
    pub fn group(site: impl Into<Cow<'static, str>>, children: Vec<ChoiceTree>) -> Self {
        ChoiceTree { site: site.into(), choice: None, children }
    }

    /// A choice node.
    pub fn choice(site: impl Into<Cow<'static, str>>, choice: Choice, children: Vec<ChoiceTree>) -> Self {
        ChoiceTree { site: site.into(), choice: Some(choice), children }
    }

    /// A reroll mark around `node` (Goldstein's `Reroll`): a replay answers
    /// the choice point `node` records with any choice but `node`'s, then
    /// replays `node`'s children beneath it. The mark is a group whose only
    /// child is `node`; recorded trees never hold one.
    pub fn reroll(node: ChoiceTree) -> Self {
        ChoiceTree::group(REROLL, vec![node])
    }

    /// A raise mark around `node`: a replay answers the choice point `node`
    /// records with `node`'s choice (when it fits), then answers every
    /// choice point beneath it that `node`'s children do not hold (or hold
    /// out of range) with its largest choice. Shrinking uses it to move a
    /// pick to an earlier option whose part is built as large as it goes
    /// (an integer's uniform option, when its edge option held `MAX`), so
    /// that the lowering that follows can search down from there. The mark
    /// is a group whose only child is `node`; recorded trees never hold one.
    pub fn raise(node: ChoiceTree) -> Self {
        ChoiceTree::group(RAISE, vec![node])
    }

    /// A relabel mark around `node`: where `node` records a pick, a replay
    /// draws it afresh (any option, `node`'s own included, as generation
    /// would); where it records an integer, the replay keeps it. Either way
    /// `node`'s children are replayed beneath it. Mutation marks a node's
    /// own choices so ([`Edit::Relabel`](crate::edit::Edit::Relabel)): a
    /// node's colour or tag drawn again, its keys kept. The mark is a group
    /// whose only child is `node`; recorded trees never hold one.
    pub fn relabel(node: ChoiceTree) -> Self {
        ChoiceTree::group(RELABEL, vec![node])
    }

    /// A fresh mark around `node`, a part: a replay enters the part and
    /// answers every choice point beneath it that `node`'s children do not
    /// hold as generation would ([`Cue::Fresh`](crate::interpret::replay::Cue::Fresh)),
    /// where a gap elsewhere takes the first option. An edit that inserts a
    /// new element into a sequence marks it so: the element is one the
    /// generator could make (a command of a state machine drawn by its
    /// weights), not its simplest. The mark is a group whose only child is
    /// `node`; recorded trees never hold one.
    pub fn fresh(node: ChoiceTree) -> Self {
        ChoiceTree::group(FRESH, vec![node])
    }

    /// Whether this node is a fresh mark (see [`ChoiceTree::fresh`]).
    pub fn is_fresh(&self) -> bool {
        self.choice.is_none() && self.site == FRESH && self.children.len() == 1
    }

    /// Whether this node is a relabel mark (see [`ChoiceTree::relabel`]).
    pub fn is_relabel(&self) -> bool {
        self.choice.is_none() && self.site == RELABEL && self.children.len() == 1
    }

    /// Whether this node is a raise mark (see [`ChoiceTree::raise`]).
    pub fn is_raise(&self) -> bool {
        self.choice.is_none() && self.site == RAISE && self.children.len() == 1
    }

    /// A failed attempt of a retrying filter holding `children` (see [`RETRY`]).
    pub fn retry(children: Vec<ChoiceTree>) -> Self {
        ChoiceTree::group(RETRY, children)
    }

    /// Whether this node is a failed attempt (see [`RETRY`]).
    #[inline]
    pub fn is_retry(&self) -> bool {
        self.choice.is_none() && is_retry_site(&self.site)
    }

    /// This tree without its failed attempts (every [`RETRY`] group, at
    /// any depth, dropped): the tree of a run in which every filter kept
    /// its first attempt, which reflection gives for the value.
    pub fn without_retries(&self) -> ChoiceTree {
        ChoiceTree {
            site: self.site.clone(),
            choice: self.choice,
            children: self.children.iter().filter(|c| !c.is_retry()).map(ChoiceTree::without_retries).collect(),
        }
    }

    /// [`ChoiceTree::without_retries`], taking the tree: one that holds no
    /// failed attempt is handed back as it is, without a copy.
    pub fn into_without_retries(self) -> ChoiceTree {
        if self.retry_count() > 0 {
            self.without_retries()
        } else {
            self
        }
    }

    /// How many failed attempts ([`RETRY`] groups) the tree holds, at any depth.
    pub fn retry_count(&self) -> usize {
        usize::from(self.is_retry()) + self.children.iter().map(ChoiceTree::retry_count).sum::<usize>()
    }

    /// Whether this node is a reroll mark (see [`ChoiceTree::reroll`]).
    pub fn is_reroll(&self) -> bool {
        self.choice.is_none() && self.site == REROLL && self.children.len() == 1
    }

    /// The root group holding `children`.
    #[inline]
    pub fn root(children: Vec<ChoiceTree>) -> Self {
        ChoiceTree::group(ROOT, children)
    }

    /// The flat sequence view: every choice in the tree, in the order it was made.
    pub fn choices(&self) -> Vec<Choice> {
        let mut out = Vec::new();
        self.choices_into(&mut out);
        out
    }

    /// Appends the flat sequence view ([`ChoiceTree::choices`]) to `out`,
    /// whose memory a caller may keep from tree to tree.
    pub fn choices_into(&self, out: &mut Vec<Choice>) {
        out.extend(self.choice);
        for c in &self.children {
            c.choices_into(out);
        }
    }

    /// The flat sequence view with each choice's site.
    pub fn sited_choices(&self) -> Vec<(&str, Choice)> {
        let mut out = Vec::new();
        self.walk(&mut |t| {
            if let Some(c) = t.choice {
                out.push((&*t.site, c))
            }
        });
        out
    }

    /// Visit every node in pre-order (the order choices were made).
    pub fn walk<'t>(&'t self, f: &mut impl FnMut(&'t ChoiceTree)) {
        f(self);
        for c in &self.children {
            c.walk(f);
        }
    }

    /// Visit every node in pre-order, mutably.
    pub fn walk_mut(&mut self, f: &mut impl FnMut(&mut ChoiceTree)) {
        f(self);
        for c in &mut self.children {
            c.walk_mut(f);
        }
    }

    /// The number of nodes in the tree, this one included.
    pub fn size(&self) -> usize {
        1 + self.children.iter().map(ChoiceTree::size).sum::<usize>()
    }

    /// The number of choice nodes in the tree.
    pub fn choice_count(&self) -> usize {
        usize::from(self.choice.is_some()) + self.children.iter().map(ChoiceTree::choice_count).sum::<usize>()
    }

    /// The node at `path` (child indices from this node), if any.
    pub fn get(&self, path: &[usize]) -> Option<&ChoiceTree> {
        path.iter().try_fold(self, |t, &i| t.children.get(i))
    }

    /// The node at `path`, mutably.
    pub fn get_mut(&mut self, path: &[usize]) -> Option<&mut ChoiceTree> {
        path.iter().try_fold(self, |t, &i| t.children.get_mut(i))
    }

    /// The paths of all nodes, in pre-order.
    pub fn paths(&self) -> Vec<Vec<usize>> {
        fn go(t: &ChoiceTree, path: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            out.push(path.clone());
            for (i, c) in t.children.iter().enumerate() {
                path.push(i);
                go(c, path, out);
                path.pop();
            }
        }
        let mut out = Vec::new();
        go(self, &mut Vec::new(), &mut out);
        out
    }

    /// The path of the `i`-th node in pre-order (the order of [`ChoiceTree::paths`]),
    /// found without building the other paths.
    pub fn path_at(&self, i: usize) -> Option<Vec<usize>> {
        let mut path = Vec::new();
        let mut node = self;
        let mut left = i;
        while left > 0 {
            left -= 1; // step past `node` itself
            let mut next = None;
            for (k, child) in node.children.iter().enumerate() {
                let size = child.size();
                if left < size {
                    next = Some((k, child));
                    break;
                }
                left -= size;
            }
            let (k, child) = next?;
            path.push(k);
            node = child;
        }
        Some(path)
    }

    /// Turns the first `n` choices (in pre-order) into groups, keeping the
    /// structure; returns how many were turned. Used to take a prefix off a
    /// reflected tree.
    pub(crate) fn forget_prefix(&mut self, n: usize) -> usize {
        let mut left = n;
        fn go(t: &mut ChoiceTree, left: &mut usize) {
            if *left == 0 {
                return;
            }
            if t.choice.is_some() {
                t.choice = None;
                *left -= 1;
            }
            for c in &mut t.children {
                go(c, left);
            }
        }
        go(self, &mut left);
        n - left
    }
}

impl fmt::Display for ChoiceTree {
    /// A compact one-line rendering: `site=choice` for choice points, `site(...)` for groups.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.choice {
            Some(c) => write!(f, "{}={}", self.site, c)?,
            None if self.is_reroll() => f.write_str("~")?,
            None => write!(f, "{}", self.site)?,
        }
        if !self.children.is_empty() {
            f.write_str("(")?;
            for (i, c) in self.children.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{c}")?;
            }
            f.write_str(")")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clone_from_makes_the_tree_it_copies_whatever_the_shape_before() {
        let leaf = |c| ChoiceTree::choice("x", c, Vec::new());
        let trees = [
            ChoiceTree::root(Vec::new()),
            ChoiceTree::root(vec![leaf(1), ChoiceTree::group("g", vec![leaf(2), leaf(3)])]),
            ChoiceTree::root(vec![ChoiceTree::choice("p", 4, vec![leaf(5)]), leaf(6), leaf(7)]),
            ChoiceTree::group(Cow::Owned("owned".to_owned()), vec![leaf(8)]),
        ];
        for from in &trees {
            for into in &trees {
                let mut t = into.clone();
                t.clone_from(from);
                assert_eq!(&t, from);
            }
        }
    }

    #[test]
    fn buckets_partition_every_range() {
        for span in [0u64, 1, 5, 15, 16, 17, 100, 1000, u32::MAX as u64, u64::MAX - 1, u64::MAX] {
            let r = Request::Int { span };
            let n = r.buckets();
            assert!(n <= SMALL_DOMAIN.max(BUCKETS));
            let mut next = 0u64;
            for b in 0..n {
                let (lo, hi) = r.bucket_range(b).unwrap();
                assert_eq!(lo, next, "span {span} bucket {b}");
                assert!(lo <= hi);
                assert_eq!(r.bucket(lo), b);
                assert_eq!(r.bucket(hi), b);
                next = hi.wrapping_add(1);
            }
            assert_eq!(next, span.wrapping_add(1), "the buckets of span {span} end at the span");
            assert!(r.bucket_range(n).is_none());
        }
    }

    #[test]
    fn tree_views() {
        let t = ChoiceTree::root(vec![
            ChoiceTree::choice("a", 1, vec![ChoiceTree::group("g", vec![ChoiceTree::choice("b", 2, vec![])])]),
            ChoiceTree::choice("c", 3, vec![]),
        ]);
        assert_eq!(t.choices(), vec![1, 2, 3]);
        assert_eq!(t.sited_choices(), vec![("a", 1), ("b", 2), ("c", 3)]);
        assert_eq!(t.size(), 5);
        assert_eq!(t.choice_count(), 3);
        assert_eq!(t.get(&[0, 0, 0]).unwrap().site, "b");
        assert_eq!(t.paths().len(), 5);
        for (i, p) in t.paths().into_iter().enumerate() {
            assert_eq!(t.path_at(i), Some(p));
        }
        assert_eq!(t.path_at(5), None);
        assert_eq!(t.to_string(), "<root>(a=1(g(b=2)) c=3)");
        let mut u = t.clone();
        assert_eq!(u.forget_prefix(2), 2);
        assert_eq!(u.choices(), vec![3]);
    }

    #[test]
    fn requests() {
        let opts = [Opt { label: "x", weight: 1 }, Opt { label: "y", weight: 3 }];
        let r = Request::Pick { options: &opts, total: 4 };
        assert!(r.accepts(1) && !r.accepts(2));
        assert_eq!(r.probability(1), 0.75);
        assert_eq!(r.label(0), "x");
        let i = Request::Int { span: 9 };
        assert_eq!(i.arity(), 10);
        assert_eq!(i.label(4), "4");
        assert_eq!(Request::Int { span: u64::MAX }.arity(), u64::MAX);
        assert_eq!(r.to_owned_request().as_request(), r);
    }
}
