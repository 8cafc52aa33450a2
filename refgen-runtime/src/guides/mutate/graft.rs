//! Grafting, for the mutational guide ([`super`]): how a graft case answers the generator's choices.
//!
//! A graft case is made by the generator, retries included. [`Grafting`]
//! answers it from a script: first the start of a corpus entry, then, at
//! each pick made beneath a choice of the same site (a part of a recursive
//! type), a donor's choices (half the donors relabelled: their own picks
//! drawn afresh; half remapped: their integers moved in the range, in
//! order); at an integer made outside every pick (a property's key
//! beside its tree), now and then one made before in the case at the same
//! site ([`REUSE`]); at the first choice of a retry, a new cut of
//! the failed attempt (chronological backtracking). The module docs of
//! [`super`] say what a user sees of it and why.
//!
//! A donor is drawn without regard to the sibling it goes beside; the
//! filter's retries find one that fits. Drawing donors to fit their
//! sibling's profile was tried and left out: it saved retries and grew the
//! valid values, but the failures came no sooner
//! ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#graft-donors-fitted-to-their-sibling)).

use super::order::{Order, Orders};
use super::tested::Tested;
use crate::guide::ChoiceContext;
use rand::seq::index;
use rand::Rng;
use refgen_core::choice::{Choice, ChoiceTree, Request, Site};
use refgen_core::edit::splice::{DonorChoices, Donors, Graft};
use refgen_core::source::{sample, DetRng, Stop};
use refgen_core::trail::{Kind, Node, Trail};
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
    /// else a random choice, one that does not remake a value `tested` heard where it can.
    pub(super) fn answer(
        &mut self,
        ctx: &ChoiceContext<'_>,
        donors: &Donors,
        orders: &Orders,
        tested: &mut Tested,
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
        let drawn = match ctx.request {
            Request::Int { span } => ordered().and_then(|(order, last)| Orders::draw(order, last, span, rng)),
            Request::Pick { .. } => None,
        };
        let drawn = drawn.or_else(|| reused(ctx, rng));
        let c = drawn.unwrap_or_else(|| sample(rng, ctx.request));
        Ok(tested.steer(ctx, self.retries, c, rng))
    }
}

/// The answer to an integer made outside every pick (a property's key beside its tree): with
/// probability [`REUSE`], one made before in the case at the same site and range, drawn uniformly among
/// them (a failed attempt's left out). `None` otherwise, and at once, with no draw, for a pick, inside
/// a pick, or where none was made before.
fn reused(ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Option<Choice> {
    let Request::Int { span } = ctx.request else { return None };
    if ctx.path().any(|n| n.choice.is_some()) {
        return None;
    }
    let same = |n: &&Node| n.kind == Kind::Int { span } && n.site == ctx.site;
    let earlier = ctx.trail.kept_nodes().filter(same).count();
    if earlier == 0 || rng.random::<f64>() >= REUSE {
        return None;
    }
    let k = rng.random_range(0..earlier);
    ctx.trail.kept_nodes().filter(same).nth(k).and_then(|n| n.choice)
}

/// The chance that a graft case answers an integer made outside every pick with one made before at the
/// same site and range ([`reused`]): a property's key beside its tree is then one of the tree's keys,
/// which a lookup's or a delete's bug needs and a random key of a wide range almost never is; the
/// other half keep random keys, which an insert's bug needs (a key not there). Only an integer outside
/// every pick is reused: inside a recursive type, a key equal to one made before most often breaks its
/// validity (a search tree's keys are distinct). Half was measured against none and a quarter
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#reuse)).
const REUSE: f64 = 0.5;

/// The most retries a graft case begins (over all its filters) before it is rejected: a case that does not
/// fit after that many tries costs no more. On the search tree the cases rejected at the cap make over
/// half the graft cases' choices, yet fewer retries cost the tree workloads tests ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#graft_retries)).
const GRAFT_RETRIES: u32 = 30;

/// The chance that a graft case draws its integers in the orders learned ([`Orders`]), when one is
/// known: the other cases draw them as before, so values whose integers the orders would never make
/// (where the order learned is not the validity condition's, or a bug needs keys out of order
/// somewhere the condition allows) stay within reach. Half solved more of the red-black tree's tasks a
/// graft in order helps or hurts than all or none ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#ordered)).
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
/// The value of a property of several arguments has no first choice: its parts are its arguments, so a cut
/// falls between them, and only a cut before a tree grafts inside it. With three arguments or more, it is
/// before the first as often as a retry's cut is before the first part, else before one of the others, drawn
/// uniformly: a retry cuts before the last part half the time, for what was made last most often failed to
/// fit, but a case's start has not failed, and remaking only the last argument (often a flag or a key of a
/// few values) most often makes a value tested before. (With two, the two draws agree: it is drawn as a
/// retry's.) Drawn so, the red-black tree's failures took fewer tests and its tests repeated fewer values;
/// cutting inside the tree instead, at its top node's parts, was tried and left out: most such cases were
/// rejected after all their retries ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#graft-start-cut)).
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

    /// A script of the start before a cut; the empty script when that keeps no choice. The cut is
    /// drawn as [`Script::cut`] draws it (the same draws, the same script), but for a start of several
    /// parts and no first choice (see [`Start`]).
    fn cut(&self, rng: &mut DetRng) -> Script {
        let parts = self.ends.len() - 1;
        // Three parts or more and no first choice: the cut that would be before the last part is after
        // the first. (With two, that is the last: drawn as a retry's, the same draws.)
        let at = match self.ends[0] == 0 && parts >= 3 {
            true if rng.random::<f64>() < CUT_LAST => rng.random_range(1..parts),
            true => rng.random_range(0..parts),
            false => draw_cut(parts, rng),
        };
        match self.ends[at] {
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
mod tests;
