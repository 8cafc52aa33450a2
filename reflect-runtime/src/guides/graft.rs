//! Grafting, for [`super::mutate`]: how a graft case answers the generator's choices.
//!
//! A graft case is made by the generator, retries included. [`Grafting`]
//! answers it from a script: first the start of a corpus entry, then, at
//! each pick made beneath a choice of the same site (a part of a recursive
//! type), a donor's choices (half the donors relabelled: their own picks
//! drawn afresh; half remapped: their integers moved in the range, in
//! order); at the first choice of a retry, a new cut of
//! the failed attempt (chronological backtracking). The module docs of
//! [`super::mutate`] say what a user sees of it and why.

use super::order::{Order, Orders};
use crate::guide::ChoiceContext;
use rand::seq::index;
use rand::Rng;
use refgen_core::choice::{Choice, ChoiceTree, Request, Site};
use refgen_core::source::{sample, DetRng, Stop};
use refgen_core::splice::{DonorChoices, Donors, Graft};
use refgen_core::trail::Trail;
use std::borrow::Cow;
use std::rc::Rc;

/// The state of the graft case under way.
#[derive(Debug, Clone, Default)]
pub(super) struct Grafting {
    /// What the case answers next.
    script: Script,
    /// How the case began: the kept start of a corpus entry.
    base: Script,
    /// The retries the case has begun.
    retries: u32,
    /// Whether the case draws its integers in the orders learned ([`ORDERED`]).
    ordered: bool,
}

impl Grafting {
    /// A graft case begins from a corpus entry (a valid value's tree, read once as `start`): its start
    /// before a cut. With `orders` known for some site, the case draws its integers in them with
    /// probability [`ORDERED`].
    pub(super) fn begin(&mut self, start: &Start, orders: &Orders, rng: &mut DetRng) {
        self.base = start.cut(rng);
        self.script.clone_from(&self.base);
        self.retries = 0;
        // No draw while no order is known, so a type whose integers keep none grafts as before.
        self.ordered = orders.any() && rng.random::<f64>() < ORDERED;
    }

    /// The case's answer at `ctx`: the script's next choice while it fits;
    /// at the first choice of a retry, a script that keeps the failed
    /// attempt's first parts (the case is rejected after [`GRAFT_RETRIES`]);
    /// at a pick made beneath a choice of the same site, a donor's choices;
    /// else a random choice.
    pub(super) fn answer(
        &mut self,
        ctx: &ChoiceContext<'_>,
        donors: &Donors,
        orders: &Orders,
        rng: &mut DetRng,
    ) -> Result<Choice, Stop> {
        // The known order of this site's integers and the last one made in the scope, read when needed.
        let on = self.ordered;
        let ordered = || if on { orders.at(ctx.trail, ctx.site) } else { None };
        if let Some(group) = retry_begun(ctx.trail) {
            self.retries += 1;
            if self.retries > GRAFT_RETRIES {
                return Err(Stop::Invalid);
            }
            // Nothing kept of the failed attempt (or, now and then, by choice): the case's start again.
            let kept = (rng.random::<f64>() >= RESTART).then(|| Script::cut(Attempt(ctx.trail, group), rng)).flatten();
            match kept {
                Some(script) => self.script = script,
                None => self.script.clone_from(&self.base),
            }
        }
        if let Some(c) = self.script.next(ctx, rng, &ordered) {
            return Ok(c);
        }
        if matches!(ctx.request, Request::Pick { .. }) && ctx.path().any(|n| n.choice.is_some() && n.site == ctx.site) {
            if let Some(donor) = donors.draw(ctx.site, rng) {
                self.script.load(donor, rng.random::<f64>() < RELABEL, rng.random::<f64>() < REMAP);
                if let Some(c) = self.script.next(ctx, rng, &ordered) {
                    return Ok(c);
                }
            }
        }
        if let Request::Int { span } = ctx.request {
            if let Some(c) = ordered().and_then(|(order, last)| Orders::draw(order, last, span, rng)) {
                return Ok(c);
            }
        }
        Ok(sample(rng, ctx.request))
    }
}

/// The most retries a graft case begins (over all its filters) before it is rejected: a case that does
/// not fit after that many tries costs no more.
const GRAFT_RETRIES: u32 = 30;

/// The chance that a graft case draws its integers in the orders learned ([`Orders`]), when one is
/// known: the other cases draw them as before, so values whose integers the orders would never make
/// (where the order learned is not the validity condition's, or a bug needs keys out of order
/// somewhere the condition allows) stay within reach. On the red-black tree workload of
/// `examples/bugfind`, four tasks a graft in order helps or hurts, 10 trials each (at most 100,000
/// tests or 5 s), solved in 33 of the 40 trials with half the cases in order, 29 with all, 23 with
/// none, whose discovery run did not find `miscolor_join_1/DeleteValid` (that task 10, 8 and -;
/// `no_balance_insert_1/InsertDelete` 8, 2 and 9 of 10; `swap_bc/DeletePost` 6, 9 and 6).
pub(super) const ORDERED: f64 = 0.5;

/// The chance that a donor a graft case replays is relabelled ([`Script::load`]).
const RELABEL: f64 = 0.5;

/// The chance that a donor a graft case replays has its integers remapped in order ([`Script::load`]).
const REMAP: f64 = 0.5;

/// The chance that a retry of a graft case starts again from the case's start rather than from the
/// failed attempt's kept parts.
const RESTART: f64 = 0.25;

/// The chance that a cut of a graft case ([`Script::cut`]) is before the last part.
const CUT_LAST: f64 = 0.5;

/// A choice a script answers, with the site that made it.
type Step = (Cow<'static, str>, Choice);

/// Choices a graft case answers in order, each with the site that made it
/// (a donor's, or the kept first parts of a failed attempt); shared, so
/// loading a donor or going back to the case's start copies nothing.
#[derive(Debug, Clone, Default)]
struct Script {
    steps: DonorChoices,
    /// The script ends before this step (a corpus entry's start is cut short of its steps).
    end: usize,
    at: usize,
    /// The positions of the steps to relabel, in order: a relabelled donor's own choices.
    relabel: Option<Rc<[u32]>>,
    /// How many of them are passed.
    relabelled: usize,
    /// For a remapped donor, the maps of its integers made so far, one per site; `None`: replayed as made.
    remap: Option<Vec<Remap>>,
}

/// An order-preserving map of a donor's integers made at one site: its distinct values, ascending, to
/// as many values, ascending, drawn from a window of the site's range.
#[derive(Debug, Clone)]
struct Remap {
    site: Site,
    from: Vec<Choice>,
    to: Vec<Choice>,
}

impl Remap {
    /// The map of the integers at `site` among `steps`, onto `k` (their number of distinct values)
    /// values drawn from a window of `0..=span` placed uniformly: half the time `k` wide (the values
    /// packed, consecutive), else of a width uniform in `k..=span + 1`. The identity when there is no
    /// order to keep (one value: moving it would be a plain redraw, which breaks what ties it to the
    /// rest, a variable's binder say), when they do not fit, or when the range is wider than `u32`'s.
    fn draw(site: Site, steps: &[Step], span: u64, bound: Option<(Choice, Choice)>, rng: &mut DetRng) -> Remap {
        let mut from: Vec<Choice> = steps.iter().filter(|s| s.0 == site).map(|s| s.1).collect();
        from.sort_unstable();
        from.dedup();
        let k = from.len() as u64;
        let to = match span < u64::from(u32::MAX) && (2..=span + 1).contains(&k) {
            true => {
                let width = match rng.random::<bool>() {
                    true => k,
                    false => rng.random_range(k..=span + 1),
                };
                let (lo, hi) = bound.filter(|&(lo, hi)| hi + 1 - lo >= k).unwrap_or((0, span));
                let width = width.min(hi + 1 - lo);
                let start = rng.random_range(lo..=hi + 1 - width);
                let mut to: Vec<Choice> =
                    index::sample(rng, width as usize, k as usize).iter().map(|x| start + x as u64).collect();
                to.sort_unstable();
                to
            }
            false => from.clone(),
        };
        Remap { site, from, to }
    }

    /// The image of `c` (a value not in the map is kept).
    fn apply(&self, c: Choice) -> Choice {
        self.from.binary_search(&c).map_or(c, |i| self.to[i])
    }
}

impl Script {
    /// Answer a donor's choices next, in order; `relabel`led, its own
    /// picks (its top part's labels: a node's colour, a tag) are drawn at
    /// random instead, its integers and its parts kept: a black node of a
    /// red-black tree tried as a red one, say, which gives a red node over
    /// two black subtrees, a shape no donor had as made in our
    /// measurements.
    ///
    /// `remap`ped, its integers are mapped in order, site by site: its
    /// distinct values at a site go to as many values drawn from a window
    /// of the site's range, the least to the least. Every order among them
    /// holds as before (a search tree's keys, a heap's priorities), and
    /// equal values stay equal; what changes is where the part sits in the
    /// range: a subtree whose keys span 1 to 13, say, comes back with keys
    /// 2 to 8, and fits beside another.
    fn load(&mut self, donor: &Graft, relabel: bool, remap: bool) {
        self.steps = donor.choices.clone();
        self.end = self.steps.len();
        self.at = 0;
        self.relabel = relabel.then(|| donor.own.clone());
        self.relabelled = 0;
        self.remap = remap.then(Vec::new);
    }

    /// The integer `c` at `ctx` (of range `0..=span`) as a remapped donor
    /// answers it, through its site's map (drawn at the site's first
    /// integer); `c` itself when the donor is not remapped, or when the
    /// image falls outside this request's range (a site's range can change
    /// from request to request, bound by an earlier choice).
    fn remapped(
        &mut self,
        ctx: &ChoiceContext<'_>,
        span: u64,
        c: Choice,
        rng: &mut DetRng,
        ordered: &dyn Fn() -> Option<(Order, Choice)>,
    ) -> Choice {
        let Some(maps) = self.remap.as_mut() else { return c };
        let i = match maps.iter().position(|m| m.site == ctx.site) {
            Some(i) => i,
            None => {
                let bound = ordered().and_then(|(order, last)| order.after(last, span));
                maps.push(Remap::draw(ctx.site, &self.steps[..self.end], span, bound, rng));
                maps.len() - 1
            }
        };
        let mapped = maps[i].apply(c);
        if ctx.request.accepts(mapped) {
            mapped
        } else {
            c
        }
    }

    /// Pushes the choices of `t` outside failed attempts, in order.
    fn walk<T: Part>(t: T, out: &mut Vec<Step>) {
        out.extend(t.choice());
        t.kept_children().for_each(|c| Script::walk(c, out));
    }

    /// A script that remakes `attempt` (a failed attempt's group, or a
    /// valid value's tree) in part: its first choice (the option it picked,
    /// when it is one pick with parts beneath it) and its parts before a
    /// cut are kept; what follows is made again. The cut is before the last
    /// part with probability one half (chronological backtracking: what
    /// was made last is what most often failed to fit), else before a part
    /// drawn uniformly. `None` when the attempt kept no choice to start from.
    fn cut<T: Part>(attempt: T, rng: &mut DetRng) -> Option<Script> {
        let (mut steps, parts) = Script::split(attempt)?;
        parts[..draw_cut(parts.len(), rng)].iter().for_each(|&p| Script::walk(p, &mut steps));
        let end = steps.len();
        (end > 0).then(|| Script { steps: steps.into(), end, at: 0, relabel: None, relabelled: 0, remap: None })
    }

    /// The steps `attempt` starts with (its first choice, when it is one pick with parts beneath it) and
    /// the parts a cut is drawn among; `None` when it has no part.
    fn split<T: Part>(attempt: T) -> Option<(Vec<Step>, Vec<T>)> {
        let mut tops = attempt.kept_children();
        let (first, rest) = (tops.next()?, tops.next());
        Some(match (first.choice(), rest) {
            (Some(c), None) if first.has_children() => (vec![c], first.kept_children().collect()),
            _ => (Vec::new(), attempt.kept_children().collect()),
        })
    }

    /// The next choice, when it was made at `ctx`'s site and fits its
    /// request (drawn at random for a pick to relabel); else the script ends.
    fn next(
        &mut self,
        ctx: &ChoiceContext<'_>,
        rng: &mut DetRng,
        ordered: &dyn Fn() -> Option<(Order, Choice)>,
    ) -> Option<Choice> {
        let (site, c) = self.steps[..self.end].get(self.at)?;
        // The positions to relabel go up one by one, as the steps do.
        let relabel = (self.relabel.as_ref()).is_some_and(|r| r.get(self.relabelled) == Some(&(self.at as u32)));
        self.relabelled += usize::from(relabel);
        if relabel && **site == *ctx.site && matches!(ctx.request, Request::Pick { .. }) {
            self.at += 1;
            Some(sample(rng, ctx.request))
        } else if **site == *ctx.site && ctx.request.accepts(*c) {
            self.at += 1;
            let c = *c;
            Some(match ctx.request {
                Request::Int { span } => self.remapped(ctx, span, c, rng, ordered),
                Request::Pick { .. } => c,
            })
        } else {
            self.at = self.end;
            None
        }
    }
}

/// Where a cut of `parts` parts falls ([`Script::cut`]): before the last part with probability
/// [`CUT_LAST`], else before one drawn uniformly; no draw when there is no part.
fn draw_cut(parts: usize, rng: &mut DetRng) -> usize {
    match parts {
        0 => 0,
        _ if rng.random::<f64>() < CUT_LAST => parts - 1,
        _ => rng.random_range(0..parts),
    }
}

/// A corpus entry's start as graft cases cut it ([`Script::cut`]), walked once, at the entry's first
/// graft case: its steps (its first choice, when it is one pick with parts beneath it, then every part's
/// choices in order) and where each part ends, so that a cut walks and copies nothing.
///
/// The value of a property of several arguments has no first choice: its parts are its arguments, so
/// a cut falls between them, and only a cut before a tree grafts inside it. Cutting inside the tree
/// instead, at its top node's parts, was measured on the AVL workload of `examples/bugfind`, whose
/// properties take a tree and one or two keys (27 tasks, 5 trials of at most 100,000 tests or 5 s):
/// the tests to a failure fell (geometric mean 197 to 108), but most such cases were rejected after
/// all their retries, a valid test cost 4 times as much, and the mean time to a failure went from 25
/// to 107 ms.
#[derive(Debug, Clone)]
pub(super) struct Start {
    steps: DonorChoices,
    /// `ends[k]`: the steps before part `k`; the last, all of them.
    ends: Vec<usize>,
}

impl Start {
    /// The start of `entry`, a valid value's tree.
    pub(super) fn of(entry: &ChoiceTree) -> Start {
        let (mut steps, parts) = Script::split(entry).unwrap_or_default();
        let mut ends = vec![steps.len()];
        for p in parts {
            Script::walk(p, &mut steps);
            ends.push(steps.len());
        }
        Start { steps: steps.into(), ends }
    }

    /// A script of the start before a cut drawn as [`Script::cut`] draws it (the same draws, the same
    /// script); the empty script when that keeps no choice.
    fn cut(&self, rng: &mut DetRng) -> Script {
        match self.ends[draw_cut(self.ends.len() - 1, rng)] {
            0 => Script::default(),
            end => Script { steps: self.steps.clone(), end, ..Script::default() },
        }
    }
}

/// A part a script is cut from and walks: a corpus entry's choice tree, or a failed attempt read in
/// place in the trail (a retry of a graft case copies nothing).
trait Part: Copy {
    /// The node's choice and site, for a choice node.
    fn choice(self) -> Option<Step>;
    /// Whether the node has children (failed attempts included).
    fn has_children(self) -> bool;
    /// The node's children outside failed attempts, first to last.
    fn kept_children(self) -> impl Iterator<Item = Self>;
}

impl Part for &ChoiceTree {
    fn choice(self) -> Option<Step> {
        self.choice.map(|c| (self.site.clone(), c))
    }
    fn has_children(self) -> bool {
        !self.children.is_empty()
    }
    fn kept_children(self) -> impl Iterator<Item = Self> {
        self.children.iter().filter(|c| !c.is_retry())
    }
}

/// Node `.1` of the trail `.0`.
#[derive(Clone, Copy)]
struct Attempt<'t>(&'t Trail, usize);

impl Part for Attempt<'_> {
    fn choice(self) -> Option<Step> {
        let n = self.0.node(self.1);
        n.choice.map(|c| (Cow::Borrowed(n.site), c))
    }
    fn has_children(self) -> bool {
        self.1 + 1 < self.0.end(self.1)
    }
    fn kept_children(self) -> impl Iterator<Item = Self> {
        // In pre-order a node's first child comes right after it, and each next sibling right after
        // the subtree before it.
        let (trail, end) = (self.0, self.0.end(self.1));
        let mut next = self.1 + 1;
        std::iter::from_fn(move || {
            while next < end {
                let (id, n) = (next, trail.node(next));
                next = trail.end(id);
                if !n.is_retry() {
                    return Some(Attempt(trail, id));
                }
            }
            None
        })
    }
}

/// Whether `tree` has a choice made beneath a choice of the same site (below `sites`, the sites of the
/// choices above it): a part of a recursive type, somewhere to graft.
pub(super) fn recursive<'t>(tree: &'t ChoiceTree, sites: &mut Vec<&'t str>) -> bool {
    let choice = tree.choice.is_some();
    if choice && sites.contains(&tree.site.as_ref()) {
        return true;
    }
    if choice {
        sites.push(&tree.site);
    }
    let found = tree.children.iter().any(|c| recursive(c, sites));
    if choice {
        sites.pop();
    }
    found
}

/// The failed attempt a retry begins after, at the first choice of the
/// retry: the last node made before the open ones (which have no children
/// yet, and are no choice: an open pick was made in the retry) is a
/// [`RETRY`](refgen_core::choice::RETRY) group.
fn retry_begun(trail: &Trail) -> Option<usize> {
    let mut open = trail.innermost();
    if let Some(last) = trail.children_rev(open).next() {
        return trail.node(last).is_retry().then_some(last);
    }
    loop {
        if trail.node(open).choice.is_some() {
            return None;
        }
        let parent = trail.parent(open)?;
        match trail.children_rev(parent).nth(1) {
            Some(before) => return trail.node(before).is_retry().then_some(before),
            None => open = parent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guide::{CaseInfo, Erased};
    use refgen_core::choice::Opt;
    use refgen_core::combinators::int;
    use refgen_core::interpret::replay::Cue;
    use refgen_core::source::rng_from_seed;
    use std::collections::HashSet;

    /// The donor of `top` (the root group's one part) with `len` choices: `top` itself.
    fn donor_of(top: ChoiceTree, len: usize) -> Graft {
        let mut donors = Donors::new(8);
        donors.add(&ChoiceTree::root(vec![top]), &mut rng_from_seed(1));
        let donor = (0..50).find_map(|s| donors.draw("x", &mut rng_from_seed(s)).filter(|g| g.choices.len() == len));
        donor.expect("the top node is a donor").clone()
    }

    /// The choices a script loaded with `donor` (`relabel`led, `remap`ped) answers to `steps`, each a
    /// site and its request, with the rng of `seed`.
    fn replay(donor: &Graft, steps: &[(Site, Request<'_>)], relabel: bool, remap: bool, seed: u64) -> Vec<Choice> {
        let (trail, gen) = (Trail::new(), int(0u8..=1));
        let handle = Erased(&gen);
        let (mut script, mut rng) = (Script::default(), rng_from_seed(seed));
        script.load(donor, relabel, remap);
        let ask = |(site, request)| ChoiceContext {
            site,
            request,
            cue: Cue::Missing,
            trail: &trail,
            case: CaseInfo { index: 0, budget: 1, gen: &handle },
        };
        steps
            .iter()
            .map(|&s| script.next(&ask(s), &mut rng, &|| None))
            .collect::<Option<Vec<_>>>()
            .expect("every step fits")
    }

    /// A corpus entry's start, read once, cuts as the entry itself does: the same script from the same
    /// draws, for a tree of one pick with parts beneath it, for a root of several parts, and for a tree
    /// with no part.
    #[test]
    fn a_start_read_once_cuts_as_its_tree_does() {
        let x = |c: Choice, kids: Vec<ChoiceTree>| ChoiceTree::choice("x", c, kids);
        let k = |c: Choice| ChoiceTree::choice("k", c, vec![]);
        let node = x(1, vec![x(1, vec![x(0, vec![]), k(3), x(0, vec![])]), k(7), x(1, vec![x(0, vec![]), k(9)])]);
        let trees = [
            ChoiceTree::root(vec![node.clone()]),
            ChoiceTree::root(vec![node.clone(), k(4), node]),
            ChoiceTree::root(vec![]),
            ChoiceTree::root(vec![k(2)]),
        ];
        let mut ends = HashSet::new();
        for tree in &trees {
            let start = Start::of(tree);
            for seed in 0..64 {
                let (mut a, mut b) = (rng_from_seed(seed), rng_from_seed(seed));
                let cut = Script::cut(tree, &mut a).unwrap_or_default();
                let read = start.cut(&mut b);
                assert_eq!(cut.steps[..cut.end], read.steps[..read.end], "{tree:?}, seed {seed}");
                assert_eq!(a.random::<u64>(), b.random::<u64>(), "the same draws");
                ends.insert(read.end);
            }
        }
        assert!(ends.len() >= 4, "cuts of several lengths: {ends:?}");
    }

    /// A retry of a filtered part is found at its first choice (beneath parts opened before it, too),
    /// and no longer once it has made one: the pick it made opens its first part, and the choice asked
    /// for there is the retry's second. (When that part was taken for the retry's first choice, every
    /// retry of a graft case replayed its script's first choice one level deeper, and a graft case
    /// whose retry began with a pick was never valid.)
    #[test]
    fn a_retry_is_begun_at_its_first_choice_only() {
        let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
        let pick = Request::Pick { options: &two, total: 2 };
        let mut trail = Trail::new();
        trail.open_part("arg");
        trail.begin_attempt();
        assert_eq!(retry_begun(&trail), None, "the first attempt");
        trail.open_choice("x", pick, 1);
        trail.open_part("x.0");
        trail.leaf_choice("x", pick, 0);
        trail.close();
        trail.close();
        trail.end_attempt(false);
        trail.begin_attempt();
        let failed = retry_begun(&trail).expect("the retry's first choice");
        assert!(trail.node(failed).is_retry());
        trail.open_part("wrapper");
        assert_eq!(retry_begun(&trail), Some(failed), "the first choice, beneath a part opened before it");
        trail.open_choice("x", pick, 1);
        assert_eq!(retry_begun(&trail), None, "the pick made, nothing beneath it yet");
        trail.open_part("x.0");
        assert_eq!(retry_begun(&trail), None, "in the pick's first part");
        trail.leaf_choice("x", pick, 0);
        assert_eq!(retry_begun(&trail), None, "after a choice of the retry");
    }

    /// A node `x(1)` with a colour pick `c`, a key `k` and two children at `x` (a node with its own colour,
    /// and a leaf), replayed as a donor: relabelled, only its own colour is drawn afresh.
    #[test]
    fn a_relabelled_donor_draws_its_own_picks_afresh_and_keeps_its_integers_and_parts() {
        let leaf = |site: &'static str, c| ChoiceTree::choice(site, c, vec![]);
        let node = ChoiceTree::choice(
            "x",
            1,
            vec![
                leaf("c", 0),
                leaf("k", 7),
                ChoiceTree::choice("x", 1, vec![leaf("c", 1), leaf("x", 0)]),
                leaf("x", 0),
            ],
        );
        let donor = donor_of(node, 7);
        assert_eq!(&donor.own[..], &[1, 2], "its colour and key");
        let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
        let pick = Request::Pick { options: &two, total: 2 };
        let steps = [
            ("x", pick),
            ("c", pick),
            ("k", Request::Int { span: 15 }),
            ("x", pick),
            ("c", pick),
            ("x", pick),
            ("x", pick),
        ];
        let replay = |relabel, seed| replay(&donor, &steps, relabel, false, seed);
        let colours: HashSet<Choice> = (0..40)
            .map(|seed| {
                assert_eq!(replay(false, seed), [1, 0, 7, 1, 1, 0, 0], "as made");
                let relabelled = replay(true, seed);
                assert_eq!((relabelled[0], &relabelled[2..]), (1, &[7, 1, 1, 0, 0][..]), "all but the colour kept");
                relabelled[1]
            })
            .collect();
        assert_eq!(colours.len(), 2, "the colour is drawn afresh");
    }

    /// A donor with keys 9, 3, 14 and 3 at `k` (in nested nodes at `x`), remapped: its keys keep their
    /// order and their one equality, and land elsewhere in `0..=15` from seed to seed.
    #[test]
    fn a_remapped_donor_keeps_the_order_of_its_integers_and_moves_them_in_the_range() {
        let leaf = |site: &'static str, c| ChoiceTree::choice(site, c, vec![]);
        let inner = || ChoiceTree::choice("x", 1, vec![leaf("k", 3), leaf("x", 0)]);
        let node = ChoiceTree::choice("x", 1, vec![leaf("k", 9), inner(), leaf("k", 14), inner()]);
        let donor = donor_of(node, 9);
        let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
        let (pick, key) = (Request::Pick { options: &two, total: 2 }, Request::Int { span: 15 });
        let steps = [
            ("x", pick),
            ("k", key),
            ("x", pick),
            ("k", key),
            ("x", pick),
            ("k", key),
            ("x", pick),
            ("k", key),
            ("x", pick),
        ];
        let replay = |remap, seed| replay(&donor, &steps, false, remap, seed);
        let keys: HashSet<[Choice; 4]> = (0..40)
            .map(|seed| {
                assert_eq!(replay(false, seed), [1, 9, 1, 3, 0, 14, 1, 3, 0], "as made");
                let remapped = replay(true, seed);
                let picks = [remapped[0], remapped[2], remapped[4], remapped[6], remapped[8]];
                assert_eq!(picks, [1, 1, 0, 1, 0], "the picks kept");
                let [a, b, c, d] = [remapped[1], remapped[3], remapped[5], remapped[7]];
                assert!(b == d && b < a && a < c && c <= 15, "9, 3, 14, 3 in order: {a} {b} {c} {d}");
                [a, b, c, d]
            })
            .collect();
        assert!(keys.len() > 10, "the keys move: {keys:?}");
        assert!(keys.iter().any(|k| k[2] < 9) && keys.iter().any(|k| k[1] > 3), "down and up the range");
    }

    /// A site whose range changes from request to request (an integer bound by an earlier choice): a
    /// remapped value outside the request's range is replayed as made, so every answer fits its request.
    #[test]
    fn a_remapped_integer_always_fits_its_request() {
        let leaf = |site: &'static str, c| ChoiceTree::choice(site, c, vec![]);
        let inner = || ChoiceTree::choice("x", 1, vec![leaf("k", 3), leaf("x", 0)]);
        let donor = donor_of(ChoiceTree::choice("x", 1, vec![leaf("k", 9), inner(), leaf("k", 14), inner()]), 9);
        let two = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }];
        let (pick, wide, narrow) =
            (Request::Pick { options: &two, total: 2 }, Request::Int { span: 15 }, Request::Int { span: 3 });
        let steps = [
            ("x", pick),
            ("k", wide),
            ("x", pick),
            ("k", narrow),
            ("x", pick),
            ("k", wide),
            ("x", pick),
            ("k", narrow),
            ("x", pick),
        ];
        for seed in 0..60 {
            let made = replay(&donor, &steps, false, true, seed);
            assert!(made.iter().zip(&steps).all(|(&c, s)| s.1.accepts(c)), "seed {seed}: {made:?}");
        }
    }

    /// Integers that cannot keep their order in the range (more distinct values than it holds), or that
    /// have none to keep (one value), are replayed as made.
    #[test]
    fn a_remap_that_cannot_fit_or_has_no_order_is_the_identity() {
        let steps: Vec<(Cow<'static, str>, Choice)> = [5, 1, 3].iter().map(|&c| (Cow::Borrowed("k"), c)).collect();
        let m = Remap::draw("k", &steps, 1, None, &mut rng_from_seed(3));
        assert_eq!((m.apply(5), m.apply(1), m.apply(3)), (5, 1, 3));
        let one: Vec<(Cow<'static, str>, Choice)> = vec![(Cow::Borrowed("k"), 4), (Cow::Borrowed("k"), 4)];
        assert!((0..20).all(|s| Remap::draw("k", &one, 15, None, &mut rng_from_seed(s)).apply(4) == 4));
        let m = Remap::draw("k", &steps, 2, None, &mut rng_from_seed(3));
        assert_eq!(
            (m.apply(1), m.apply(3), m.apply(5)),
            (0, 1, 2),
            "three values in 0..=2: the only order-keeping map"
        );
    }

    /// A remap with room after the last integer of an ordered site (a bound) puts the donor's integers
    /// inside that room, in their order; a bound with less room than the donor's distinct values is
    /// ignored.
    #[test]
    fn a_remap_within_a_bound_stays_inside_it_in_order() {
        let steps: Vec<(Cow<'static, str>, Choice)> = [5, 1, 3].iter().map(|&c| (Cow::Borrowed("k"), c)).collect();
        let mut inside = HashSet::new();
        for s in 0..50 {
            let m = Remap::draw("k", &steps, 15, Some((10, 15)), &mut rng_from_seed(s));
            let (a, b, c) = (m.apply(1), m.apply(3), m.apply(5));
            assert!(10 <= a && a < b && b < c && c <= 15, "{a} {b} {c}");
            inside.insert(a);
        }
        assert!(inside.len() > 1, "the window moves inside the bound");
        let below = (0..50).any(|s| Remap::draw("k", &steps, 15, Some((14, 15)), &mut rng_from_seed(s)).apply(1) < 14);
        assert!(below, "two values of room for three: the whole range");
    }
}
