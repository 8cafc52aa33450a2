//! Grafting, for [`super::mutate`]: how a graft case answers the generator's choices.
//!
//! A graft case is made by the generator, retries included. [`Grafting`]
//! answers it from a script: first the start of a corpus entry, then, at
//! each pick made beneath a choice of the same site (a part of a recursive
//! type), a donor's choices (half the donors relabelled: their own picks
//! drawn afresh); at the first choice of a retry, a new cut of
//! the failed attempt (chronological backtracking). The module docs of
//! [`super::mutate`] say what a user sees of it and why.

use crate::guide::ChoiceContext;
use rand::Rng;
use refgen_core::choice::{Choice, ChoiceTree, Request};
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
}

impl Grafting {
    /// A graft case begins from the corpus entry `entry` (a valid value's tree): its start before a cut.
    pub(super) fn begin(&mut self, entry: &ChoiceTree, rng: &mut DetRng) {
        self.base = Script::cut(entry, rng).unwrap_or_default();
        self.script.clone_from(&self.base);
        self.retries = 0;
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
        rng: &mut DetRng,
    ) -> Result<Choice, Stop> {
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
        if let Some(c) = self.script.next(ctx, rng) {
            return Ok(c);
        }
        if matches!(ctx.request, Request::Pick { .. }) && ctx.path().any(|n| n.choice.is_some() && n.site == ctx.site) {
            if let Some(donor) = donors.draw(ctx.site, rng) {
                self.script.load(donor, rng.random::<f64>() < RELABEL);
                if let Some(c) = self.script.next(ctx, rng) {
                    return Ok(c);
                }
            }
        }
        Ok(sample(rng, ctx.request))
    }
}

/// The most retries a graft case begins (over all its filters) before it is rejected: a case that does
/// not fit after that many tries costs no more.
const GRAFT_RETRIES: u32 = 30;

/// The chance that a donor a graft case replays is relabelled ([`Script::load`]).
const RELABEL: f64 = 0.5;

/// The chance that a retry of a graft case starts again from the case's start rather than from the
/// failed attempt's kept parts.
const RESTART: f64 = 0.25;

/// The chance that a cut of a graft case ([`Script::cut`]) is before the last part.
const CUT_LAST: f64 = 0.5;

/// Choices a graft case answers in order, each with the site that made it
/// (a donor's, or the kept first parts of a failed attempt); shared, so
/// loading a donor or going back to the case's start copies nothing.
#[derive(Debug, Clone, Default)]
struct Script {
    steps: DonorChoices,
    at: usize,
    /// The positions of the steps to relabel, in order: a relabelled donor's own choices.
    relabel: Option<Rc<[u32]>>,
    /// How many of them are passed.
    relabelled: usize,
}

impl Script {
    /// Answer a donor's choices next, in order; `relabel`led, its own
    /// picks (its top part's labels: a node's colour, a tag) are drawn at
    /// random instead, its integers and its parts kept: a black node of a
    /// red-black tree tried as a red one, say, which gives a red node over
    /// two black subtrees, a shape no donor had as made in our
    /// measurements.
    fn load(&mut self, donor: &Graft, relabel: bool) {
        self.steps = donor.choices.clone();
        self.at = 0;
        self.relabel = relabel.then(|| donor.own.clone());
        self.relabelled = 0;
    }

    /// Pushes the choices of `t` outside failed attempts, in order.
    fn walk<T: Part>(t: T, out: &mut Vec<(Cow<'static, str>, Choice)>) {
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
        let mut tops = attempt.kept_children();
        let (first, rest) = (tops.next()?, tops.next());
        let (mut steps, parts): (Vec<_>, Vec<T>) = match (first.choice(), rest) {
            (Some(c), None) if first.has_children() => (vec![c], first.kept_children().collect()),
            _ => (Vec::new(), attempt.kept_children().collect()),
        };
        if !parts.is_empty() {
            let cut = if rng.random::<f64>() < CUT_LAST { parts.len() - 1 } else { rng.random_range(0..parts.len()) };
            parts[..cut].iter().for_each(|&p| Script::walk(p, &mut steps));
        }
        (!steps.is_empty()).then(|| Script { steps: steps.into(), at: 0, relabel: None, relabelled: 0 })
    }

    /// The next choice, when it was made at `ctx`'s site and fits its
    /// request (drawn at random for a pick to relabel); else the script ends.
    fn next(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Option<Choice> {
        let (site, c) = self.steps.get(self.at)?;
        // The positions to relabel go up one by one, as the steps do.
        let relabel = (self.relabel.as_ref()).is_some_and(|r| r.get(self.relabelled) == Some(&(self.at as u32)));
        self.relabelled += usize::from(relabel);
        if relabel && **site == *ctx.site && matches!(ctx.request, Request::Pick { .. }) {
            self.at += 1;
            Some(sample(rng, ctx.request))
        } else if **site == *ctx.site && ctx.request.accepts(*c) {
            self.at += 1;
            Some(*c)
        } else {
            self.at = self.steps.len();
            None
        }
    }
}

/// A part a script is cut from and walks: a corpus entry's choice tree, or a failed attempt read in
/// place in the trail (a retry of a graft case copies nothing).
trait Part: Copy {
    /// The node's choice and site, for a choice node.
    fn choice(self) -> Option<(Cow<'static, str>, Choice)>;
    /// Whether the node has children (failed attempts included).
    fn has_children(self) -> bool;
    /// The node's children outside failed attempts, first to last.
    fn kept_children(self) -> impl Iterator<Item = Self>;
}

impl Part for &ChoiceTree {
    fn choice(self) -> Option<(Cow<'static, str>, Choice)> {
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
    fn choice(self) -> Option<(Cow<'static, str>, Choice)> {
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
/// yet) is a [`RETRY`](refgen_core::choice::RETRY) group.
fn retry_begun(trail: &Trail) -> Option<usize> {
    let mut open = trail.innermost();
    if let Some(last) = trail.children_rev(open).next() {
        return trail.node(last).is_retry().then_some(last);
    }
    loop {
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
        let mut donors = Donors::new(8);
        donors.add(&ChoiceTree::root(vec![node]), &mut rng_from_seed(1));
        let donor = (0..50).find_map(|s| donors.draw("x", &mut rng_from_seed(s)).filter(|g| g.choices.len() == 7));
        let donor = donor.expect("the top node is a donor").clone();
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
        let (trail, gen) = (Trail::new(), int(0u8..=1));
        let handle = Erased(&gen);
        let replay = |relabel: bool, seed: u64| {
            let (mut script, mut rng) = (Script::default(), rng_from_seed(seed));
            script.load(&donor, relabel);
            let ask = |(site, request)| ChoiceContext {
                site,
                request,
                cue: Cue::Missing,
                trail: &trail,
                case: CaseInfo { index: 0, budget: 1, gen: &handle },
            };
            steps.iter().map(|&s| script.next(&ask(s), &mut rng)).collect::<Option<Vec<_>>>().expect("every step fits")
        };
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
}
