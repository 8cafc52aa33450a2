//! The trail of one run: the choice tree as it grows (open nodes, closed children readable), and the cursor that replays a tree leniently.
//!
//! A [`Trail`] is the one record of a run's choices. It holds the nodes in
//! the order they were made (pre-order), each with its site, its choice, what
//! its request was ([`Kind`]), and links to its parent and siblings, so that
//! a source answering the run (a recorder, a guide) can read, at any choice
//! point, the open nodes from the root down, the closed children at every
//! level and the flat prefix of choices, without a copy of its own. Finishing
//! a run turns the trail into a [`ChoiceTree`] ([`Trail::to_tree`]).
//!
//! A [`Cursor`] walks a (possibly broken, possibly edited) choice tree in
//! step with a running generator and says, at each choice point, what the
//! tree holds there ([`Cue`]): lenient replay (Goldstein's `MutGen`) is a
//! cursor plus a rule for the gaps.

use crate::choice::{retry_site, Choice, ChoiceTree, Opt, Request, Site, ROOT, SMALL_DOMAIN};
use crate::source::{Script, Scripted, Source, Stop};

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
    /// The attempts of retrying filters begun and not ended: where each
    /// began (the number of nodes then), how many nodes were open, and
    /// how many attempts begun at the same place enclose it.
    attempts: Vec<(usize, usize, usize)>,
}

impl Default for Trail {
    fn default() -> Self {
        Trail::new()
    }
}

impl Trail {
    /// A trail holding only the root.
    pub fn new() -> Self {
        let mut t =
            Trail { nodes: Vec::with_capacity(64), open: Vec::with_capacity(16), choices: 0, attempts: Vec::new() };
        t.clear();
        t
    }

    /// Forget everything but the root, keeping the memory.
    pub fn clear(&mut self) {
        self.nodes.clear();
        self.open.clear();
        self.attempts.clear();
        self.choices = 0;
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
    /// [`RETRY`](crate::choice::RETRY) group in their place (their numbers shift up by one).
    pub fn end_attempt(&mut self, kept: bool) {
        let Some((mark, depth, level)) = self.attempts.pop() else { return };
        // A generator leaves what it opened; should one not have, the
        // attempt's nodes are closed here so that they can be wrapped.
        while self.open.len() > depth {
            self.close();
        }
        if !kept {
            self.wrap(mark, retry_site(level));
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

    /// Node `id`.
    pub fn node(&self, id: usize) -> &Node {
        &self.nodes[id]
    }

    /// The open nodes from the root (node 0, always first) down to the innermost.
    pub fn open_nodes(&self) -> &[usize] {
        &self.open
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

// ---------------------------------------------------------------- the replay cursor

/// What the replayed tree holds at a choice point (see [`Cursor::choose`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// A choice the point can make: make it.
    Keep(Choice),
    /// A choice the point cannot make (out of its range): choose another.
    Unfit(Choice),
    /// A reroll mark: choose any choice but this one (Goldstein's `Reroll`).
    Reroll(Choice),
    /// The tree has run out here, or no longer matches the generator (a
    /// different site): Goldstein's thesis takes the first option.
    Missing,
    /// Beneath a raise mark ([`ChoiceTree::raise`]), where the tree has run
    /// out, no longer matches or does not fit: take the largest choice.
    Raise,
}

/// Whether a recorded site is `site`: by address first (a tree recorded by
/// a generator holds the generator's own `&'static str`s, so a replay of
/// it compares no text), by text otherwise.
fn is_site(recorded: &str, site: Site) -> bool {
    std::ptr::eq(recorded, site) || recorded == site
}

#[derive(Debug, Clone, Copy)]
struct Frame<'t> {
    nodes: &'t [ChoiceTree],
    pos: usize,
    /// Beneath a raise mark: what the tree does not hold is the largest choice.
    raise: bool,
    /// An attempt of a retrying filter read from its parent's nodes (the
    /// tree holds no failed attempt there): its position goes back to the
    /// parent when it ends.
    through: bool,
    /// An attempt read from this frame's nodes failed: a further attempt
    /// of the same filter finds nothing here but a recorded failed one.
    spent: bool,
    /// For an attempt's frame: how many attempts begun at the same place
    /// enclose it (see [`RETRY`](crate::choice::RETRY)), and where in `nodes` it began.
    attempt: Option<(usize, usize)>,
}

impl<'t> Frame<'t> {
    fn new(nodes: &'t [ChoiceTree], raise: bool) -> Self {
        Frame { nodes, pos: 0, raise, through: false, spent: false, attempt: None }
    }
}

/// Walks a choice tree in step with a running generator; see the module docs.
#[derive(Debug, Clone)]
pub struct Cursor<'t> {
    stack: Vec<Frame<'t>>,
}

impl<'t> Cursor<'t> {
    /// A cursor at the start of `tree`. A root group is replayed from its
    /// children; any other node is a forest of one.
    pub fn new(tree: &'t ChoiceTree) -> Self {
        let forest =
            if tree.choice.is_none() && tree.site == ROOT { &tree.children[..] } else { std::slice::from_ref(tree) };
        let mut stack = Vec::with_capacity(16);
        stack.push(Frame::new(forest, false));
        Cursor { stack }
    }

    /// A cursor over nothing: every choice point is [`Cue::Missing`].
    pub fn empty() -> Self {
        Cursor { stack: vec![Frame::new(&[], false)] }
    }

    fn next_node(&self) -> Option<&'t ChoiceTree> {
        let top = self.stack.last()?;
        top.nodes.get(top.pos)
    }

    fn raising(&self) -> bool {
        self.stack.last().is_some_and(|f| f.raise)
    }

    /// Steps past the next node into `beneath` (raising beneath it when `raise`).
    fn consume(&mut self, beneath: &'t [ChoiceTree], raise: bool) {
        let raise = raise || self.raising();
        if let Some(top) = self.stack.last_mut() {
            top.pos += 1;
        }
        self.stack.push(Frame::new(beneath, raise));
    }

    /// Steps into nothing: the tree does not hold this choice point or part.
    fn skip(&mut self) {
        let raise = self.raising();
        self.stack.push(Frame::new(&[], raise));
    }

    /// The choice point `site` asks `request`: what the tree holds there.
    /// The cursor steps into what the tree recorded beneath (nothing, when
    /// [`Cue::Missing`]); match with one [`Cursor::leave`].
    #[inline]
    pub fn choose(&mut self, site: Site, request: Request<'_>) -> Cue {
        self.step(site, &request, false)
    }

    /// The choice point `site`, which selects nothing beneath it, asks
    /// `request`: [`Cursor::choose`] and [`Cursor::leave`] in one step.
    #[inline]
    pub fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Cue {
        self.step(site, &request, true)
    }

    /// What the tree holds at the choice point `site`; the cursor steps
    /// past it, and into what the tree recorded beneath unless `leaf`. The
    /// request is read by reference (see [`Asked`]).
    #[inline]
    pub(crate) fn step(&mut self, site: Site, request: &Request<'_>, leaf: bool) -> Cue {
        let raising = self.raising();
        let Some(node) = self.next_node() else {
            if !leaf {
                self.skip();
            }
            return if raising { Cue::Raise } else { Cue::Missing };
        };
        let (node, reroll, raise) = if node.is_reroll() {
            (&node.children[0], true, false)
        } else if node.is_raise() {
            (&node.children[0], false, true)
        } else {
            (node, false, false)
        };
        match node.choice {
            Some(old) if is_site(&node.site, site) => {
                if leaf {
                    self.stack.last_mut().expect("a node was next").pos += 1;
                } else {
                    self.consume(&node.children, raise);
                }
                if reroll {
                    Cue::Reroll(old)
                } else if request.accepts(old) {
                    Cue::Keep(old)
                } else if raise || raising {
                    Cue::Raise
                } else {
                    Cue::Unfit(old)
                }
            }
            _ => {
                if !leaf {
                    self.skip();
                }
                if raising {
                    Cue::Raise
                } else {
                    Cue::Missing
                }
            }
        }
    }

    /// A part `site` begins: step into the tree's part there, if it matches.
    /// Match with one [`Cursor::leave`].
    #[inline]
    pub fn enter(&mut self, site: Site) {
        match self.next_node() {
            Some(node) if node.choice.is_none() && is_site(&node.site, site) => self.consume(&node.children, false),
            _ => self.skip(),
        }
    }

    /// The innermost choice point or part ends.
    #[inline]
    pub fn leave(&mut self) {
        if self.stack.len() > 1 {
            self.stack.pop();
        }
    }

    /// A retrying filter begins an attempt: the cursor steps into the
    /// failed attempt the tree holds next (a [`RETRY`](crate::choice::RETRY) group); where it
    /// holds none, the attempt reads on from the tree's nodes here, the
    /// first attempt to do so (what reflection and a first try record),
    /// and a later one finds nothing. Match with one [`Cursor::end_attempt`].
    pub fn begin_attempt(&mut self) {
        let Some(top) = self.stack.last().copied() else { return };
        // An attempt begun where the enclosing one began, before it read anything.
        let level = match top.attempt {
            Some((level, start)) if start == top.pos => level + 1,
            _ => 0,
        };
        let site = retry_site(level);
        match top.nodes.get(top.pos) {
            Some(node) if node.choice.is_none() && node.site == site => {
                self.consume(&node.children, false);
            }
            _ if !top.spent => {
                self.stack.push(Frame { through: true, spent: false, attempt: None, ..top });
            }
            _ => self.skip(),
        }
        let at = self.stack.last_mut().expect("a frame was pushed");
        at.attempt = Some((level, at.pos));
    }

    /// The attempt begun last ends, `kept` or failed.
    pub fn end_attempt(&mut self, kept: bool) {
        if self.stack.len() <= 1 {
            return;
        }
        let ended = self.stack.pop().expect("more than one frame");
        let parent = self.stack.last_mut().expect("the first frame stays");
        if ended.through {
            parent.pos = ended.pos;
            parent.spent |= !kept;
        }
        if kept {
            parent.spent = false;
        }
    }
}

/// A cursor as a script: keep what fits, hand the rest over (see [`crate::replay_with`]).
impl Script for Cursor<'_> {
    fn next(&mut self, site: Site, request: Request<'_>) -> Scripted {
        match self.choose(site, request) {
            Cue::Keep(c) => Scripted::Take(c),
            Cue::Reroll(old) => Scripted::AskNot(old),
            Cue::Raise => Scripted::Take(request.largest()),
            Cue::Unfit(_) | Cue::Missing => Scripted::Ask,
        }
    }
    fn enter(&mut self, site: Site) {
        Cursor::enter(self, site)
    }
    fn leave(&mut self) {
        Cursor::leave(self)
    }
    fn begin_attempt(&mut self) {
        Cursor::begin_attempt(self)
    }
    fn end_attempt(&mut self, kept: bool) {
        Cursor::end_attempt(self, kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

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
        assert_eq!(t.to_tree().to_string(), "<root>(before=1 p(<retry>(t=1(key=3) x=4) <retry> t=0) after=2)");
        assert_eq!(t.choices_beneath(2), 4);
        assert_eq!(t.to_tree().without_retries().to_string(), "<root>(before=1 p(t=0) after=2)");
    }

    #[test]
    fn the_cursor_steps_into_failed_attempts_and_reads_on_where_there_is_none() {
        let tree = ChoiceTree::root(vec![
            ChoiceTree::retry(vec![ChoiceTree::choice("x", 1, vec![])]),
            ChoiceTree::choice("x", 2, vec![]),
            ChoiceTree::choice("y", 3, vec![]),
        ]);
        let int = Request::Int { span: 9 };
        let mut c = Cursor::new(&tree);
        c.begin_attempt();
        assert_eq!(c.choose_leaf("x", int), Cue::Keep(1));
        c.end_attempt(false);
        c.begin_attempt();
        assert_eq!(c.choose_leaf("x", int), Cue::Keep(2));
        c.end_attempt(false);
        // A further attempt finds nothing: it does not read the next part's choices.
        c.begin_attempt();
        assert_eq!(c.choose_leaf("x", int), Cue::Missing);
        c.end_attempt(true);
        assert_eq!(c.choose_leaf("y", int), Cue::Keep(3));
    }

    #[test]
    fn the_cursor_says_what_the_tree_holds() {
        let tree = ChoiceTree::root(vec![
            ChoiceTree::choice("t", 1, vec![ChoiceTree::choice("key", 5, vec![])]),
            ChoiceTree::reroll(ChoiceTree::choice("t", 0, vec![])),
            ChoiceTree::group("g", vec![ChoiceTree::choice("x", 9, vec![])]),
        ]);
        let mut c = Cursor::new(&tree);
        assert_eq!(c.choose("t", pick()), Cue::Keep(1));
        assert_eq!(c.choose("key", Request::Int { span: 3 }), Cue::Unfit(5));
        c.leave();
        assert_eq!(c.choose("other", pick()), Cue::Missing);
        c.leave();
        c.leave();
        assert_eq!(c.choose("t", pick()), Cue::Reroll(0));
        c.leave();
        c.enter("g");
        assert_eq!(c.choose("x", Request::Int { span: 10 }), Cue::Keep(9));
        c.leave();
        c.leave();
        assert_eq!(c.choose("t", pick()), Cue::Missing);
        assert_eq!(Cursor::empty().choose("t", pick()), Cue::Missing);
    }

    #[test]
    fn a_leaf_step_is_a_choice_and_a_leave() {
        // Every kind of cue, met by choose_leaf and by choose then leave.
        let tree = ChoiceTree::root(vec![
            ChoiceTree::raise(ChoiceTree::choice("t", 1, vec![ChoiceTree::choice("key", 50, vec![])])),
            ChoiceTree::choice("k", 7, vec![ChoiceTree::choice("under", 1, vec![])]),
            ChoiceTree::reroll(ChoiceTree::choice("x", 1, vec![])),
            ChoiceTree::group("g", vec![ChoiceTree::choice("y", 2, vec![])]),
        ]);
        let int = |span| Request::Int { span };
        let run = |by_leaf: bool| {
            let mut c = Cursor::new(&tree);
            let leaf = |c: &mut Cursor<'_>, site, request| {
                if by_leaf {
                    c.choose_leaf(site, request)
                } else {
                    let cue = c.choose(site, request);
                    c.leave();
                    cue
                }
            };
            let mut cues = vec![c.choose("t", pick())];
            cues.push(leaf(&mut c, "key", int(10)));
            cues.push(leaf(&mut c, "gone", int(10)));
            c.leave();
            cues.push(leaf(&mut c, "k", int(3)));
            cues.push(leaf(&mut c, "x", pick()));
            c.enter("g");
            cues.push(leaf(&mut c, "y", int(5)));
            cues.push(leaf(&mut c, "z", int(5)));
            c.leave();
            cues.push(leaf(&mut c, "after", int(5)));
            cues
        };
        let cues = run(true);
        assert_eq!(cues, run(false));
        use Cue::*;
        assert_eq!(cues, vec![Keep(1), Raise, Raise, Unfit(7), Reroll(1), Keep(2), Missing, Missing]);
    }

    #[test]
    fn the_cursor_matches_sites_by_text_whatever_holds_them() {
        // A tree read back from a file owns its sites' text; one recorded
        // holds the generator's own strings, perhaps at other addresses.
        let owned = |s: &str| Cow::Owned(s.to_owned());
        let elsewhere: &'static str = Box::leak("key".to_owned().into_boxed_str());
        let tree = ChoiceTree::root(vec![
            ChoiceTree::choice(owned("t"), 1, vec![ChoiceTree::choice(elsewhere, 5, vec![])]),
            ChoiceTree::group(owned("g"), vec![]),
        ]);
        let mut c = Cursor::new(&tree);
        assert_eq!(c.choose("t", pick()), Cue::Keep(1));
        assert_eq!(c.choose("key", Request::Int { span: 9 }), Cue::Keep(5));
        c.leave();
        c.leave();
        c.enter("g");
        assert_eq!(c.choose("x", pick()), Cue::Missing);
        assert!(is_site("t", "t") && is_site(&owned("t"), "t") && !is_site(&owned("t"), "u"));
    }
}
