//! How mutate replays an edited tree: the plan of an edit, the answers to its gaps, and one mutant made outside a run.

use crate::guide::{CaseInfo, ChoiceContext, Erased, Guide, GuidedSource, Plan};
use refgen_core::choice::{Choice, ChoiceTree, Request};
use refgen_core::edit::Mutation;
use refgen_core::gen::Gen;
use refgen_core::interpret::replay::Cue;
use refgen_core::source::{sample, DetRng, Stop};
use refgen_core::trail::Trail;
use std::fmt::Debug;

#[cfg(doc)]
use super::MutateGuide;

/// The plan of an edit of an earlier case: replayed without retries, its trail keeping the kept choices.
pub(super) fn edited(tree: ChoiceTree) -> Plan {
    Plan::replay(tree).without_retries().kept_choices_only()
}

/// How a gap of a replayed mutant is answered; see [`super`]'s module docs.
pub(super) fn fill(cue: Cue, request: Request<'_>, rng: &mut DetRng) -> Choice {
    match (cue, request) {
        (Cue::Missing, Request::Pick { .. }) => 0,
        _ => sample(rng, request),
    }
}

/// The gaps of a replayed mutant, answered as [`MutateGuide`] answers them.
struct Fill;

impl Guide for Fill {
    fn name(&self) -> &str {
        "mutate"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        Ok(fill(ctx.cue, ctx.request, rng))
    }
}

/// One mutant of the value `tree` makes, by `op`, replayed leniently against
/// `gen` as [`MutateGuide`] replays its mutants: the value (or why there is
/// none: [`Stop::Invalid`] when the validity condition rejected it) and the
/// choice tree that made it. `None` when `op` has nothing to act on in `tree`.
pub fn mutant<G>(
    gen: &G,
    tree: &ChoiceTree,
    op: Mutation,
    rng: &mut DetRng,
) -> Option<(Result<G::Value, Stop>, ChoiceTree)>
where
    G: Gen + ?Sized,
    G::Value: Debug,
{
    let edited = op.draw(tree, rng)?.apply(tree)?;
    let plan = Plan::replay(edited);
    let mut trail = Trail::new();
    let handle = Erased(gen);
    let case = CaseInfo { index: 0, budget: 0, gen: &handle };
    let r = gen.run(&mut GuidedSource::new(&mut Fill, &mut trail, &plan, case, rng));
    Some((r, trail.to_tree()))
}
