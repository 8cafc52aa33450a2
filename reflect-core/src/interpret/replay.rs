//! Lenient replay (Goldstein's `MutGen`): a possibly broken or edited choice tree replayed against a generator, its gaps answered by a rule or by another source.

use super::run_recorded;
use crate::choice::{Choice, ChoiceTree, Request, Site};
use crate::gen::Gen;
use crate::source::{rng_from_seed, sample_uniform, DetRng, Handover, Source, Stop};
use crate::trail::{Cue, Cursor};

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
/// ([`ChoiceTree::reroll`]) is replaced by a random different one; where the
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
            Cue::Raise => request.largest(),
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
