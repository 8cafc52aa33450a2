//! The trail of one run: the choice tree as it grows, open nodes and closed children readable.
//!
//! A [`Trail`] is the one record of a run's choices. It holds the nodes in
//! the order they were made (pre-order), each with its site, its choice, what
//! its request was ([`Kind`]), and links to its parent and siblings, so that
//! a source answering the run (a recorder, a guide) can read, at any choice
//! point, the open nodes from the root down, the closed children at every
//! level and the flat prefix of choices, without a copy of its own. Finishing
//! a run turns the trail into a [`ChoiceTree`] ([`Trail::to_tree`]).
//!
//! The cursor that walks a recorded tree in step with a generator, for
//! lenient replay, is [`Cursor`](crate::interpret::replay::Cursor).

use crate::choice::{is_retry_site, retry_site, Choice, ChoiceTree, Opt, Request, Site, ROOT, SMALL_DOMAIN};
use crate::source::{Source, Stop};

/// What a node's request was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A part of the value (a field, an element): a group, no choice.
    Part,
    /// A pick among labelled options.
    Pick {
        /// The label of the option chosen.
        label: &'static str,
        /// How many options were offered.
        options: u32,
    },
    /// An integer offset in `0..=span`.
    Int {
        /// The largest offset.
        span: u64,
    },
}

impl Kind {
    /// The kind of a choice point answering `request` with `choice`.
    pub fn of(request: Request<'_>, choice: Choice) -> Kind {
        Asked::of(&request).kind(choice)
    }
}

/// What [`Kind::of`] reads of a request. A recorder reads it field by field
/// before it hands the request on, so the request is not copied whole: a
/// copy read the request in one wide load right after its maker wrote it in
/// narrower stores, and the processor waited for those to land.
#[derive(Clone, Copy)]
enum Asked<'a> {
    Pick(&'a [Opt]),
    Int(u64),
}

impl<'a> Asked<'a> {
    #[inline]
    fn of(request: &Request<'a>) -> Self {
        match *request {
            Request::Pick { options, .. } => Asked::Pick(options),
            Request::Int { span } => Asked::Int(span),
        }
    }

    #[inline]
    fn kind(self, choice: Choice) -> Kind {
        match self {
            Asked::Pick(options) => Kind::Pick {
                label: options.get(choice as usize).map_or("", |o| o.label),
                options: u32::try_from(options.len()).unwrap_or(u32::MAX),
            },
            Asked::Int(span) => Kind::Int { span },
        }
    }
}

const NONE: usize = usize::MAX;

/// One node of a [`Trail`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// The site of the choice point or part.
    pub site: Site,
    /// The choice made, for a choice point; `None` for a part.
    pub choice: Option<Choice>,
    /// What the request was.
    pub kind: Kind,
    /// The position of this node among its parent's children.
    pub index: usize,
    /// How many choice nodes were made before this one in the run.
    pub ordinal: usize,
    parent: usize,
    /// One past the last node of this node's subtree; [`usize::MAX`] while open.
    end: usize,
    prev: usize,
    last: usize,
}

impl Node {
    /// The choice's bucket ([`Request::bucket`]): a pick's option, a small
    /// range's offset, or one of a few buckets of a wide range. 0 for a part.
    pub fn bucket(&self) -> u64 {
        match (self.kind, self.choice) {
            (Kind::Int { span }, Some(c)) => Request::Int { span }.bucket(c),
            (_, c) => c.unwrap_or(0),
        }
    }

    /// The option's label, for a pick.
    pub fn label(&self) -> Option<&'static str> {
        match self.kind {
            Kind::Pick { label, .. } => Some(label),
            _ => None,
        }
    }

    /// Whether this is an integer choice over a range too wide to show value by value.
    pub fn is_wide(&self) -> bool {
        matches!(self.kind, Kind::Int { span } if span >= SMALL_DOMAIN)
    }

    /// Whether the node is still open (the generator has not left it).
    pub fn is_open(&self) -> bool {
        self.end == NONE
    }

    /// Whether the node is a failed attempt's group ([`ChoiceTree::is_retry`] for a trail node).
    pub fn is_retry(&self) -> bool {
        self.choice.is_none() && is_retry_site(self.site)
    }
}

/// The choice tree of one run as it grows; see the module docs.
///
/// Node 0 is the root group ([`ROOT`]). Nodes are numbered in the order they
/// were made, which is pre-order, so a closed node's subtree is the range of
/// numbers from it up to [`Trail::end`].
#[derive(Debug, Clone)]
pub struct Trail {
    nodes: Vec<Node>,
    open: Vec<usize>,
    choices: usize,
    /// The choices made, those of failed attempts a forgetting trail dropped included.
    made: usize,
    /// The attempts of retrying filters begun and not ended: where each
    /// began (the number of nodes then), how many nodes were open, and
    /// how many attempts begun at the same place enclose it.
    attempts: Vec<(usize, usize, usize)>,
    /// Whether a failed attempt's nodes are dropped instead of kept in a retry group.
    forget_failed: bool,
}

impl Default for Trail {
    fn default() -> Self {
        Trail::new()
    }
}

impl Trail {
    /// A trail holding only the root.
    pub fn new() -> Self {
        let mut t = Trail {
            nodes: Vec::with_capacity(64),
            open: Vec::with_capacity(16),
            choices: 0,
            made: 0,
            attempts: Vec::new(),
            forget_failed: false,
        };
        t.clear();
        t
    }

    /// Forget everything but the root, keeping the memory; failed attempts are kept again.
    pub fn clear(&mut self) {
        self.forget_failed = false;
        self.nodes.clear();
        self.open.clear();
        self.attempts.clear();
        self.choices = 0;
        self.made = 0;
        self.nodes.push(Node {
            site: ROOT,
            choice: None,
            kind: Kind::Part,
            index: 0,
            ordinal: 0,
            parent: NONE,
            end: NONE,
            prev: NONE,
            last: NONE,
        });
        self.open.push(0);
    }

    #[inline]
    fn push(&mut self, site: Site, choice: Option<Choice>, kind: Kind, open: bool) -> usize {
        let id = self.nodes.len();
        let parent = *self.open.last().expect("the root is always open");
        let prev = self.nodes[parent].last;
        let index = if prev == NONE { 0 } else { self.nodes[prev].index + 1 };
        self.nodes[parent].last = id;
        self.nodes.push(Node {
            site,
            choice,
            kind,
            index,
            ordinal: self.choices,
            parent,
            end: if open { NONE } else { id + 1 },
            prev,
            last: NONE,
        });
        if choice.is_some() {
            self.choices += 1;
            self.made += 1;
        }
        if open {
            self.open.push(id);
        }
        id
    }

    /// A choice point answered `choice`; it stays open for what the choice selects.
    #[inline]
    pub fn open_choice(&mut self, site: Site, request: Request<'_>, choice: Choice) -> usize {
        self.push(site, Some(choice), Kind::of(request, choice), true)
    }

    /// A choice point answered `choice` with nothing beneath it (closed at once).
    #[inline]
    pub fn leaf_choice(&mut self, site: Site, request: Request<'_>, choice: Choice) -> usize {
        self.push(site, Some(choice), Kind::of(request, choice), false)
    }

    /// A part of the value begins.
    #[inline]
    pub fn open_part(&mut self, site: Site) -> usize {
        self.push(site, None, Kind::Part, true)
    }

    /// The innermost open node ends (the root never does).
    #[inline]
    pub fn close(&mut self) {
        if self.open.len() > 1 {
            let id = self.open.pop().expect("non-empty");
            self.nodes[id].end = self.nodes.len();
        }
    }

    /// Whether the failed attempts of retrying filters are dropped rather
    /// than kept (off by default, and again after [`Trail::clear`]).
    ///
    /// A trail that forgets them records what
    /// [`ChoiceTree::without_retries`] would leave of the tree, at the cost
    /// of the kept nodes only: replayed, it makes the same value. For a case
    /// made only to be shown or replayed (a failure's report), where the
    /// failed attempts of a hard validity condition can be a hundred times
    /// the choices kept.
    pub fn forget_failed_attempts(&mut self, forget: bool) {
        self.forget_failed = forget;
    }

    /// A retrying filter begins an attempt (see [`Source::begin_attempt`]).
    pub fn begin_attempt(&mut self) {
        let at = self.nodes.len();
        let level = match self.attempts.last() {
            Some(&(mark, _, level)) if mark == at => level + 1,
            _ => 0,
        };
        self.attempts.push((at, self.open.len(), level));
    }

    /// The attempt begun last ends (see [`Source::end_attempt`]): when it
    /// was not `kept`, the nodes it made become the children of a new
    /// [`RETRY`](crate::choice::RETRY) group in their place (their numbers
    /// shift up by one), or are dropped if the trail
    /// [forgets failed attempts](Trail::forget_failed_attempts).
    pub fn end_attempt(&mut self, kept: bool) {
        let Some((mark, depth, level)) = self.attempts.pop() else { return };
        // A generator leaves what it opened; should one not have, the
        // attempt's nodes are closed here so that they can be wrapped.
        while self.open.len() > depth {
            self.close();
        }
        if kept {
            return;
        }
        if !self.forget_failed {
            self.wrap(mark, retry_site(level));
        } else if let Some(first) = self.nodes.get(mark) {
            // The attempt's nodes are the last ones, all closed: gone. Its
            // first node, a child of the innermost open node, tells what was
            // there before it: that node's last child, and the choices made.
            let (prev, ordinal) = (first.prev, first.ordinal);
            self.nodes.truncate(mark);
            let parent = self.innermost();
            self.nodes[parent].last = prev;
            self.choices = ordinal;
        }
    }

    /// Puts a failed attempt's group (a [`RETRY`](crate::choice::RETRY) site) at `mark`, holding
    /// the closed nodes from `mark` on (children of the innermost open node).
    fn wrap(&mut self, mark: usize, site: Site) {
        let parent = self.innermost();
        let len = self.nodes.len();
        let old_last = self.nodes[parent].last;
        let (index, prev, ordinal) = if mark < len {
            let first = &self.nodes[mark];
            (first.index, first.prev, first.ordinal)
        } else {
            (self.next_index(), old_last, self.choices)
        };
        let first_index = index;
        let shift = |x: usize| if x != NONE && x >= mark { x + 1 } else { x };
        for n in &mut self.nodes[mark..] {
            if n.parent == parent {
                n.parent = mark;
                n.prev = if n.index == first_index { NONE } else { shift(n.prev) };
                n.index -= first_index;
            } else {
                n.parent = shift(n.parent);
                n.prev = shift(n.prev);
            }
            n.end = shift(n.end);
            n.last = shift(n.last);
        }
        let last = if mark < len { shift(old_last) } else { NONE };
        let group = Node { site, choice: None, kind: Kind::Part, index, ordinal, parent, end: len + 1, prev, last };
        self.nodes.insert(mark, group);
        self.nodes[parent].last = mark;
    }

    /// Every node so far, in the order made (pre-order); node 0 is the root.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The nodes outside failed attempts of retrying filters, in pre-order:
    /// the nodes of [`Trail::to_tree`]'s tree without its retries
    /// ([`ChoiceTree::without_retries`]), in its pre-order.
    pub fn kept_nodes(&self) -> impl Iterator<Item = &Node> + '_ {
        let mut id = 0;
        std::iter::from_fn(move || loop {
            let n = self.nodes.get(id)?;
            if n.is_retry() {
                id = self.end(id);
                continue;
            }
            id += 1;
            return Some(n);
        })
    }

    /// Node `id`.
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    /// The open nodes from the root (node 0, always first) down to the innermost.
    pub fn open_nodes(&self) -> &[usize] {
        &self.open
    }

    /// Whether an attempt of a retrying filter is under way: the choices made now are that attempt's,
    /// and its condition may yet reject them.
    pub fn in_attempt(&self) -> bool {
        !self.attempts.is_empty()
    }

    /// The innermost open node.
    pub fn innermost(&self) -> usize {
        *self.open.last().expect("the root is always open")
    }

    /// The position the next node made will take among its parent's children.
    pub fn next_index(&self) -> usize {
        let last = self.nodes[self.innermost()].last;
        if last == NONE {
            0
        } else {
            self.nodes[last].index + 1
        }
    }

    /// One past the last node of `id`'s subtree (the trail's length while `id` is open).
    pub fn end(&self, id: usize) -> usize {
        match self.nodes[id].end {
            NONE => self.nodes.len(),
            e => e,
        }
    }

    /// How many choice nodes lie strictly beneath `id`.
    pub fn choices_beneath(&self, id: usize) -> usize {
        let end = self.end(id);
        let after = if end < self.nodes.len() { self.nodes[end].ordinal } else { self.choices };
        let node = &self.nodes[id];
        after - node.ordinal - usize::from(node.choice.is_some())
    }

    /// The children of `id` made so far, first to last.
    pub fn children(&self, id: usize) -> impl DoubleEndedIterator<Item = usize> + '_ {
        let mut v = Vec::new();
        let mut c = self.nodes[id].last;
        while c != NONE {
            v.push(c);
            c = self.nodes[c].prev;
        }
        v.into_iter().rev()
    }

    /// The children of `id` made so far, last to first, without allocating.
    pub fn children_rev(&self, id: usize) -> ChildrenRev<'_> {
        ChildrenRev { trail: self, next: self.nodes[id].last }
    }

    /// The parent of `id` (`None` for the root).
    pub fn parent(&self, id: usize) -> Option<usize> {
        match self.nodes[id].parent {
            NONE => None,
            p => Some(p),
        }
    }

    /// How many choices were made so far.
    pub fn choice_count(&self) -> usize {
        self.choices
    }

    /// How many choices were made so far, those of the failed attempts a trail that
    /// [forgets them](Trail::forget_failed_attempts) dropped included: the work of the case
    /// (equal to [`Trail::choice_count`] when none was dropped).
    pub fn choices_made(&self) -> usize {
        self.made
    }

    /// The choice nodes so far, in the order made.
    pub fn choice_nodes(&self) -> impl DoubleEndedIterator<Item = &Node> + '_ {
        self.nodes.iter().filter(|n| n.choice.is_some())
    }

    /// The flat sequence of choices so far.
    pub fn choices(&self) -> Vec<Choice> {
        self.choice_nodes().filter_map(|n| n.choice).collect()
    }

    /// The tree recorded so far, as a [`ChoiceTree`]; nodes still open (a
    /// run that stopped) are closed and kept.
    pub fn to_tree(&self) -> ChoiceTree {
        self.subtree(0)
    }

    /// The subtree of node `id` as a [`ChoiceTree`].
    pub fn subtree(&self, id: usize) -> ChoiceTree {
        // In pre-order a node's first child comes right after it, and each
        // next sibling right after the subtree before it: the children are
        // read first to last, into a list made once at its exact length
        // (the last child's index + 1).
        let n = &self.nodes[id];
        let len = if n.last == NONE { 0 } else { self.nodes[n.last].index + 1 };
        let mut children = Vec::with_capacity(len);
        let (mut c, end) = (id + 1, self.end(id));
        while c < end {
            let after = self.end(c);
            // A leaf (most nodes) is made here, without a call.
            children.push(if after == c + 1 {
                let leaf = &self.nodes[c];
                ChoiceTree { site: leaf.site.into(), choice: leaf.choice, children: Vec::new() }
            } else {
                self.subtree(c)
            });
            c = after;
        }
        ChoiceTree { site: n.site.into(), choice: n.choice, children }
    }
}

/// The children of a trail node, last to first (see [`Trail::children_rev`]).
#[derive(Debug, Clone)]
pub struct ChildrenRev<'t> {
    trail: &'t Trail,
    next: usize,
}

impl Iterator for ChildrenRev<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.next == NONE {
            return None;
        }
        let id = self.next;
        self.next = self.trail.nodes[id].prev;
        Some(id)
    }
}

/// Wraps a source and records the trail of the run it answers.
#[derive(Debug)]
pub struct Recorder<S> {
    /// The source answering the choices.
    pub inner: S,
    /// The trail recorded so far.
    pub trail: Trail,
}

impl<S: Source> Recorder<S> {
    /// Record the choices `inner` makes.
    pub fn new(inner: S) -> Self {
        Recorder { inner, trail: Trail::new() }
    }

    /// The tree recorded, and the source.
    pub fn finish(self) -> (ChoiceTree, S) {
        (self.trail.to_tree(), self.inner)
    }
}

impl<S: Source> Source for Recorder<S> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let asked = Asked::of(&request);
        let c = self.inner.choose(site, request)?;
        self.trail.push(site, Some(c), asked.kind(c), true);
        Ok(c)
    }
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let asked = Asked::of(&request);
        let c = self.inner.choose_leaf(site, request)?;
        self.trail.push(site, Some(c), asked.kind(c), false);
        Ok(c)
    }
    fn enter(&mut self, site: Site) {
        self.inner.enter(site);
        self.trail.open_part(site);
    }
    fn leave(&mut self) {
        self.inner.leave();
        self.trail.close();
    }
    fn begin_attempt(&mut self) {
        self.inner.begin_attempt();
        self.trail.begin_attempt();
    }
    fn end_attempt(&mut self, kept: bool) {
        self.inner.end_attempt(kept);
        self.trail.end_attempt(kept);
    }
    fn filters_retry(&self) -> bool {
        self.inner.filters_retry()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTS: [Opt; 2] = [Opt { label: "leaf", weight: 1 }, Opt { label: "node", weight: 3 }];

    fn pick() -> Request<'static> {
        Request::Pick { options: &OPTS, total: 4 }
    }

    #[test]
    fn the_trail_reads_as_the_tree_it_records() {
        let mut t = Trail::new();
        let a = t.open_choice("t", pick(), 1);
        let k = t.leaf_choice("key", Request::Int { span: 100 }, 70);
        let p = t.open_part("left");
        assert_eq!(t.open_nodes(), &[0, a, p]);
        assert_eq!(t.next_index(), 0);
        let l = t.leaf_choice("t", pick(), 0);
        t.close();
        assert_eq!(t.next_index(), 2);
        assert_eq!(t.children(a).collect::<Vec<_>>(), vec![k, p]);
        assert_eq!(t.children_rev(a).collect::<Vec<_>>(), vec![p, k]);
        assert_eq!(t.node(l).label(), Some("leaf"));
        assert_eq!(t.node(k).bucket(), Request::Int { span: 100 }.bucket(70));
        assert!(t.node(k).is_wide() && !t.node(k).is_open() && t.node(a).is_open());
        assert_eq!(t.choices_beneath(a), 2);
        assert_eq!(t.choices_beneath(p), 1);
        assert_eq!(t.choices_beneath(k), 0);
        assert_eq!(t.choices(), vec![1, 70, 0]);
        assert_eq!(t.parent(l), Some(p));
        // A run that stopped here: open nodes are closed and kept.
        assert_eq!(t.to_tree().to_string(), "<root>(t=1(key=70 left(t=0)))");
        t.close();
        assert_eq!(t.to_tree().to_string(), "<root>(t=1(key=70 left(t=0)))");
        t.clear();
        assert_eq!(t.nodes().len(), 1);
        assert_eq!(t.to_tree(), ChoiceTree::root(Vec::new()));
    }

    /// Every link of a trail agrees with the tree it reads as.
    fn consistent(t: &Trail) {
        let tree = t.to_tree();
        for (id, n) in t.nodes().iter().enumerate().skip(1) {
            let p = t.parent(id).unwrap();
            assert_eq!(t.children(p).nth(n.index), Some(id), "node {id}");
            assert!(t.end(id) <= t.end(p) && id > p);
        }
        assert_eq!(t.nodes().len(), tree.size());
        assert_eq!(t.choices(), tree.choices());
    }

    #[test]
    fn a_failed_attempt_is_wrapped_in_a_retry_group() {
        let mut t = Trail::new();
        t.leaf_choice("before", Request::Int { span: 9 }, 1);
        t.open_part("p");
        t.begin_attempt();
        t.open_choice("t", pick(), 1);
        t.leaf_choice("key", Request::Int { span: 9 }, 3);
        t.close();
        t.leaf_choice("x", Request::Int { span: 9 }, 4);
        t.end_attempt(false);
        consistent(&t);
        t.begin_attempt();
        t.begin_attempt();
        t.end_attempt(false); // an attempt that made nothing
        t.open_choice("t", pick(), 0);
        t.close();
        t.end_attempt(true);
        consistent(&t);
        t.close();
        t.leaf_choice("after", Request::Int { span: 9 }, 2);
        consistent(&t);
        // The empty attempt began where the attempt around it did: it is named apart.
        assert_eq!(t.to_tree().to_string(), "<root>(before=1 p(<retry>(t=1(key=3) x=4) <retry:1> t=0) after=2)");
        assert_eq!(t.choices_beneath(2), 4);
        assert_eq!(t.to_tree().without_retries().to_string(), "<root>(before=1 p(t=0) after=2)");
    }

    #[test]
    fn kept_nodes_leave_out_the_failed_attempts_of_nested_filters() {
        let mut t = Trail::new();
        t.open_part("p");
        t.begin_attempt();
        t.begin_attempt(); // a filter of a filter: its failed attempt is a `<retry:1>` group
        t.leaf_choice("y", Request::Int { span: 9 }, 5);
        t.end_attempt(false);
        t.leaf_choice("x", Request::Int { span: 9 }, 4);
        t.end_attempt(true);
        t.close();
        assert_eq!(t.to_tree().to_string(), "<root>(p(<retry:1>(y=5) x=4))");
        let kept: Vec<&str> = t.kept_nodes().map(|n| n.site).collect();
        assert_eq!(kept, ["<root>", "p", "x"]);
    }
}
