//! Grafting, for [`super::mutate`]: how a graft case answers the generator's choices.
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
//! [`super::mutate`] say what a user sees of it and why.
//!
//! A donor is drawn without regard to the sibling it goes beside; the
//! filter's retries find one that fits. Drawing donors to fit their
//! sibling was measured and left out. The trial read each part's profile
//! (its height, the lengths of its leftmost and rightmost paths, and the
//! sums of its nodes' first three own choices along those paths). It
//! learned, per site, which profile differences between sibling parts
//! every valid value kept: at most three distinct values after 30 pairs,
//! where random pairs of donors fell outside them at least a fifth of the
//! time. Half the graft cases then drew, for a part with a sibling, up to
//! eight donors, and took the first that fitted, not relabelled. On the
//! red-black tree of `examples/bugfind`, it learned the black nodes on the
//! outermost paths. In the default guide's cost run (20,000 tests), the
//! graft cases that matched began 3.2 retries each against 8.6 (24,717
//! over 7,610 cases, 63,467 over 7,390; a temporary count), yet making
//! values took the same time (602 to 652 ms over four runs). Per task, 6
//! trials of at most 1 s, the valid values grew (10 or more nodes: 23% of
//! them with half the cases matched, against 20%), and the failures came
//! no sooner:
//! - without it: 343 of 348 trials solved, geometric mean of the tests
//!   118.1, mean 1920.9;
//! - half the cases: 340, 118.2 and 1735.2;
//! - every case: 333, 110.8 and 1773.4;
//! - half, relabelled as before: 332, 115.1 and 1848.3.
//!
//! On the heap, the right path's length was coupled at times; its 5 trials
//! were the same (mean tests 16.4 against 16.2). On the AVL tree, siblings'
//! heights differ by at most one, but so did most random pairs of donors, so
//! it was never coupled for long. On the search tree and the typed language,
//! nothing was coupled, and they made the same values.

use super::order::{Order, Orders};
use super::tested::Tested;
use crate::guide::ChoiceContext;
use rand::seq::index;
use rand::Rng;
use refgen_core::choice::{Choice, ChoiceTree, Request, Site};
use refgen_core::source::{sample, DetRng, Stop};
use refgen_core::splice::{DonorChoices, Donors, Graft};
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
/// validity (a search tree's keys are distinct).
///
/// Measured under the default guide on `examples/bugfind` (`--per-task --secs 1`, one build, the chance
/// set by a temporary switch, the runs one after another), against no reuse:
/// - the search tree, 5 trials per task: mean tests to a failure 51.1 to 28.0 (a quarter: 35.1), geometric
///   mean 12.6 to 10.0, mean time 4.05 to 2.78 ms;
/// - the AVL tree, 8 trials: geometric mean of the tests 185.4 to 152.9 (a quarter: 159.7), mean 567.6
///   to 521.0 (a quarter: 477.9), mean time 28.11 to 28.32 ms (a quarter: 24.88); the delete bugs came
///   sooner, the insert bugs later;
/// - the red-black tree, 3 trials of at most 1 s: 165 of 174 trials solved against 160 (a quarter: 165),
///   51 tasks in every trial against 49, geometric mean of the tests 94.9 against 108.8 (a quarter: 113.4);
/// - the heap, 5 trials: the same (mean tests 16.4 against 16.5); the typed language has no integer
///   outside a pick, and makes the same values.
const REUSE: f64 = 0.5;

/// The most retries a graft case begins (over all its filters) before it is rejected: a case that does not
/// fit after that many tries costs no more.
///
/// In the default guide's cost run of 5,000 tests on the search tree of `examples/bugfind`, the 8% of graft
/// cases rejected at this cap made 56% of the graft cases' choices, and a retry was kept about 3% of the
/// time; yet fewer retries cost the tree workloads tests. Measured under the default guide (`--per-task`, at
/// most 100,000 tests or 1 s a trial, one build, the cap set by a temporary switch), mean tests to a failure
/// with 30, 10 and no retries: the search tree 28.0, 30.3 and 36.1 (5 trials), the red-black tree 1436.3,
/// 1942.6 and 3953.2 (3 trials; 168, 168 and 164 of 174 trials solved), the AVL tree 521.0 and, with none,
/// 785.3 (8 trials), the heap 16.4, 16.5 and 18.3 (5 trials), the typed language 1551.0 and, with none, 981.2
/// (3 trials). Choices a graft case saves go to fresh cases, whose share of the work counts choices: the
/// typed language's failures come sooner with more fresh cases, the trees' later.
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
/// The value of a property of several arguments has no first choice: its parts are its arguments, so a cut
/// falls between them, and only a cut before a tree grafts inside it. With three arguments or more, it is
/// before the first as often as a retry's cut is before the first part, else before one of the others, drawn
/// uniformly: a retry cuts before the last part half the time, for what was made last most often failed to
/// fit, but a case's start has not failed, and remaking only the last argument (often a flag or a key of a
/// few values) most often makes a value tested before. (With two, the two draws agree: it is drawn as a
/// retry's.) Measured on `examples/bugfind` against the cut drawn as a retry's (the default guide,
/// `--per-task`, at most 100,000 tests or 5 s a trial, two runs at a time): the red-black tree, whose
/// properties take a tree and up to four keys and flags (59 tasks, 3 trials), median tests to a failure 270
/// to 162, mean time 199.68 to 125.19 ms, tasks solved in every trial 59 to 58
/// (`no_balance_insert_1/InsertDelete` in 2 of 3; alone, in 10 trials, 7 against 8), and its cost run
/// (`--tests 20000 --notes`) tested a value tested before in 57.6% of its tests, against 72.0%; the search
/// tree (53 tasks, 5 trials), median 12 both, mean time 1.96 to 1.86 ms; the AVL tree (27 tasks, 5 trials),
/// median 245 both, mean time 13.01 to 12.10 ms; the heap's and the typed language's draws are unchanged (at
/// most two arguments). Cutting inside the tree instead, at its top node's parts, was measured on the AVL
/// workload of `examples/bugfind`, whose properties take a tree and one or two keys (27 tasks, 5 trials of at
/// most 100,000 tests or 5 s): the tests to a failure fell (geometric mean 197 to 108), but most such cases
/// were rejected after all their retries, a valid test cost 4 times as much, and the mean time to a failure
/// went from 25 to 107 ms.
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
