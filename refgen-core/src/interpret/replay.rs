//! Lenient replay (Goldstein's `MutGen`): a broken or edited choice tree replayed on a generator.
//!
//! A [`Cursor`] walks a (possibly broken, possibly edited) choice tree in
//! step with a running generator and says, at each choice point, what the
//! tree holds there ([`Cue`]); its gaps are answered by a rule or by another
//! source.

use super::run_recorded;
use crate::choice::{retry_site, Choice, ChoiceTree, Request, Site, ROOT};
use crate::gen::Gen;
use crate::source::{rng_from_seed, sample, sample_uniform, DetRng, Handover, Script, Scripted, Source, Stop};

/// Any choice of `request` but `old`, uniformly, when there is another (Goldstein's `Reroll`).
pub fn reroll_choice(rng: &mut DetRng, request: Request<'_>, old: Choice) -> Choice {
    let n = request.arity();
    if n <= 1 {
        0
    } else if old < n {
        let d = sample_uniform(rng, Request::Int { span: n - 2 });
        if d >= old {
            d + 1
        } else {
            d
        }
    } else {
        sample_uniform(rng, request)
    }
}

/// Replays a possibly broken choice tree (Goldstein's `MutGen`), asking `fill` at the gaps.
struct Lenient<'t, F> {
    cursor: Cursor<'t>,
    fill: F,
}

impl<F: FnMut(Site, Request<'_>, Cue) -> Result<Choice, Stop>> Source for Lenient<'_, F> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        // The request lent, not copied (see `trail::Asked`).
        match self.cursor.step(site, &request, false) {
            Cue::Keep(c) => Ok(c),
            cue => (self.fill)(site, request, cue),
        }
    }
    fn choose_leaf(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        match self.cursor.step(site, &request, true) {
            Cue::Keep(c) => Ok(c),
            cue => (self.fill)(site, request, cue),
        }
    }
    fn enter(&mut self, site: Site) {
        self.cursor.enter(site);
    }
    fn leave(&mut self) {
        self.cursor.leave();
    }
    fn begin_attempt(&mut self) {
        self.cursor.begin_attempt();
    }
    fn end_attempt(&mut self, kept: bool) {
        self.cursor.end_attempt(kept);
    }
}

/// Replay a possibly broken choice tree leniently (Goldstein's thesis Sec. 3.4.2,
/// `MutGen`): a choice the generator can make is kept; one it cannot is
/// replaced by a random one; a choice under a reroll mark
/// ([`ChoiceTree::reroll`]) is replaced by a random different one; a pick
/// under a relabel mark ([`ChoiceTree::relabel`]) is drawn afresh by its
/// weights (an integer under one is kept); where the
/// tree runs out or no longer matches the generator's structure (a different
/// site), the first option is taken. Randomness comes from `seed`.
/// Returns the value and the tree of choices actually made.
///
/// The value is always one the generator can produce; it is `Err` only when
/// the generator's own validity condition rejects it (or it is void).
pub fn replay_lenient<G: Gen + ?Sized>(g: &G, tree: &ChoiceTree, seed: u64) -> (Result<G::Value, Stop>, ChoiceTree) {
    run_recorded(g, lenient_source(tree, seed)).0
}

/// The source [`replay_lenient`] runs its generator on: `tree` replayed
/// leniently, its gaps answered from `seed`. Wrap it in a
/// [`Recorder`](crate::trail::Recorder) the caller owns to keep the choices
/// made so far even when the generator panics part way.
pub fn lenient_source(tree: &ChoiceTree, seed: u64) -> impl Source + '_ {
    // Seeded on first use: most replays (a shrinker's candidates) never need it.
    let mut rng: Option<DetRng> = None;
    let fill = move |_: Site, request: Request<'_>, cue: Cue| {
        Ok(match cue {
            Cue::Keep(c) => c,
            Cue::Unfit(_) => sample_uniform(rng.get_or_insert_with(|| rng_from_seed(seed)), request),
            Cue::Reroll(old) => reroll_choice(rng.get_or_insert_with(|| rng_from_seed(seed)), request, old),
            Cue::Relabel(_) => sample(rng.get_or_insert_with(|| rng_from_seed(seed)), request),
            Cue::Raise => request.largest(),
            Cue::Fresh => sample(rng.get_or_insert_with(|| rng_from_seed(seed)), request),
            Cue::Missing => 0,
        })
    };
    Lenient { cursor: Cursor::new(tree), fill }
}

/// Replay a possibly broken choice tree as [`replay_lenient`] does, but ask
/// `fallback` wherever the tree has no usable choice: where it runs out or
/// no longer matches, where its choice does not fit, and under a reroll mark
/// (when `fallback` gives the old choice back there and another exists, the
/// next one, cyclically, is taken). `fallback` sees only the choice points it
/// answers (each matched by one [`Source::leave`]) and every part.
/// Returns the value and the tree of choices actually made.
pub fn replay_with<G: Gen + ?Sized>(
    g: &G,
    tree: &ChoiceTree,
    fallback: &mut dyn Source,
) -> (Result<G::Value, Stop>, ChoiceTree) {
    run_recorded(g, Handover::new(Cursor::new(tree), fallback)).0
}

/// What the replayed tree holds at a choice point (see [`Cursor::choose`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// A choice the point can make: make it.
    Keep(Choice),
    /// A choice the point cannot make (out of its range): choose another.
    Unfit(Choice),
    /// A reroll mark: choose any choice but this one (Goldstein's `Reroll`).
    Reroll(Choice),
    /// A relabel mark on a pick ([`ChoiceTree::relabel`](crate::choice::ChoiceTree::relabel)):
    /// choose afresh, as generation would; this choice may come again.
    Relabel(Choice),
    /// The tree has run out here, or no longer matches the generator (a
    /// different site): Goldstein's thesis takes the first option.
    Missing,
    /// Beneath a raise mark ([`ChoiceTree::raise`]), where the tree has run
    /// out, no longer matches or does not fit: take the largest choice.
    Raise,
    /// Beneath a fresh mark ([`ChoiceTree::fresh`]), where the tree has run
    /// out or no longer matches: choose as generation would.
    Fresh,
}

/// What a frame answers where the tree holds nothing that matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gap {
    /// [`Cue::Missing`]: the first option.
    First,
    /// [`Cue::Raise`]: the largest choice (beneath a raise mark).
    Largest,
    /// [`Cue::Fresh`]: as generation would (beneath a fresh mark).
    Fresh,
}

impl Gap {
    fn cue(self) -> Cue {
        match self {
            Gap::First => Cue::Missing,
            Gap::Largest => Cue::Raise,
            Gap::Fresh => Cue::Fresh,
        }
    }
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
    /// What the tree does not hold here: the first option, or beneath a
    /// raise mark the largest choice, or beneath a fresh mark a generated one.
    gap: Gap,
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
    fn new(nodes: &'t [ChoiceTree], gap: Gap) -> Self {
        Frame { nodes, pos: 0, gap, through: false, spent: false, attempt: None }
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
        stack.push(Frame::new(forest, Gap::First));
        Cursor { stack }
    }

    /// A cursor over nothing: every choice point is [`Cue::Missing`].
    pub fn empty() -> Self {
        Cursor { stack: vec![Frame::new(&[], Gap::First)] }
    }

    fn next_node(&self) -> Option<&'t ChoiceTree> {
        let top = self.stack.last()?;
        top.nodes.get(top.pos)
    }

    fn gap(&self) -> Gap {
        self.stack.last().map_or(Gap::First, |f| f.gap)
    }

    fn raising(&self) -> bool {
        self.gap() == Gap::Largest
    }

    /// Steps past the next node into `beneath`, whose gaps are `mark`'s when
    /// the node is a mark, and this frame's otherwise.
    fn consume(&mut self, beneath: &'t [ChoiceTree], mark: Option<Gap>) {
        let gap = mark.unwrap_or_else(|| self.gap());
        if let Some(top) = self.stack.last_mut() {
            top.pos += 1;
        }
        self.stack.push(Frame::new(beneath, gap));
    }

    /// Steps into nothing: the tree does not hold this choice point or part.
    fn skip(&mut self) {
        let gap = self.gap();
        self.stack.push(Frame::new(&[], gap));
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
            return self.gap().cue();
        };
        // A fresh mark where a choice point asks: its part is not here; the gap is generated.
        let gap = if node.is_fresh() { Gap::Fresh } else { self.gap() };
        let (node, reroll, raise, relabel) = if node.is_reroll() {
            (&node.children[0], true, false, false)
        } else if node.is_raise() {
            (&node.children[0], false, true, false)
        } else if node.is_relabel() {
            (&node.children[0], false, false, true)
        } else {
            (node, false, false, false)
        };
        match node.choice {
            Some(old) if is_site(&node.site, site) => {
                if leaf {
                    self.stack.last_mut().expect("a node was next").pos += 1;
                } else {
                    self.consume(&node.children, raise.then_some(Gap::Largest));
                }
                if reroll {
                    Cue::Reroll(old)
                } else if relabel && matches!(request, Request::Pick { .. }) {
                    Cue::Relabel(old)
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
                gap.cue()
            }
        }
    }

    /// A part `site` begins: step into the tree's part there, if it matches.
    /// Match with one [`Cursor::leave`].
    #[inline]
    pub fn enter(&mut self, site: Site) {
        match self.next_node() {
            Some(node) if node.choice.is_none() && is_site(&node.site, site) => self.consume(&node.children, None),
            // A part in a raise mark: every choice point beneath it answers its largest choice
            // where the part holds none that fits (a part made again as large as it goes).
            Some(node)
                if node.is_raise() && node.children[0].choice.is_none() && is_site(&node.children[0].site, site) =>
            {
                self.consume(&node.children[0].children, Some(Gap::Largest))
            }
            // A part in a fresh mark: what it does not hold is made as generation would.
            Some(node)
                if node.is_fresh() && node.children[0].choice.is_none() && is_site(&node.children[0].site, site) =>
            {
                self.consume(&node.children[0].children, Some(Gap::Fresh))
            }
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
                self.consume(&node.children, None);
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
            Cue::Unfit(_) | Cue::Relabel(_) | Cue::Missing | Cue::Fresh => Scripted::Ask,
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
    use crate::choice::Opt;
    use std::borrow::Cow;

    const OPTS: [Opt; 2] = [Opt { label: "leaf", weight: 1 }, Opt { label: "node", weight: 3 }];

    fn pick() -> Request<'static> {
        Request::Pick { options: &OPTS, total: 4 }
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
    fn beneath_a_fresh_mark_the_gaps_are_generated() {
        // A part under a fresh mark: what it holds is kept, what it does not is `Fresh`, in nested
        // parts too; after it, gaps take the first option again.
        let tree = ChoiceTree::root(vec![
            ChoiceTree::fresh(ChoiceTree::group("elem", vec![ChoiceTree::choice("a", 1, vec![])])),
            ChoiceTree::fresh(ChoiceTree::group("elem", vec![])),
        ]);
        let mut c = Cursor::new(&tree);
        c.enter("elem");
        assert_eq!(c.choose("a", pick()), Cue::Keep(1));
        c.leave();
        assert_eq!(c.choose("b", pick()), Cue::Fresh);
        c.enter("inner");
        assert_eq!(c.choose_leaf("c", Request::Int { span: 4 }), Cue::Fresh);
        c.leave();
        c.leave();
        c.leave();
        c.enter("elem");
        assert_eq!(c.choose("a", pick()), Cue::Fresh);
        c.leave();
        c.leave();
        assert_eq!(c.choose("after", pick()), Cue::Missing);
    }

    #[test]
    fn lenient_replay_makes_a_fresh_element_by_the_weights() {
        // A pick of weights 1:9 in a new element: drawn by them, where a plain gap takes option 0.
        let g = crate::combinators::pick(
            "p",
            [("rare", 1, crate::combinators::just(0u8).boxed()), ("often", 9, crate::combinators::just(1u8).boxed())],
        )
        .part("elem");
        let fresh = ChoiceTree::root(vec![ChoiceTree::fresh(ChoiceTree::group("elem", vec![]))]);
        let plain = ChoiceTree::root(vec![ChoiceTree::group("elem", vec![])]);
        let often = (0..200).filter(|&seed| replay_lenient(&g, &fresh, seed).0 == Ok(1)).count();
        assert!((150..200).contains(&often), "{often} of 200");
        assert!((0..50).all(|seed| replay_lenient(&g, &plain, seed).0 == Ok(0)));
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
