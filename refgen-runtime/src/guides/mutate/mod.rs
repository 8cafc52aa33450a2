//! Validity-preserving mutation (Goldstein's thesis Sec. 3.4) with splicing and grafting: a corpus and its mutants.
//!
//! `#[property(guide = mutate)]` (or `mutate(corpus = N, fresh = P, splice =
//! S, graft = G, rotate = R, operators = [reroll, swap, shrink])`) runs [`MutateGuide`]:
//!
//! - **The corpus** is seeded by the cases the guide hears without having
//!   planned them: the property's examples (`example = ...`, reflected into
//!   their choices) and the failures remembered in the regressions file
//!   (replayed first). A generated case joins it when it is valid and new
//!   (a value not made before in the run), when it raises the best utility
//!   reported with `maximize!` / `target!`, or when it fails. A new value
//!   joins only if its shape is new too ([`shape`]: its picks'
//!   options and number of choices): a corpus of new values filled up with
//!   small values that differ in an integer, where new shapes press toward
//!   new structures and sizes. An entry is kept without the failed attempts
//!   of its retrying filters. A case made by another guide before this one
//!   took over ([`Origin::Adopted`]: the default guide hands over the valid
//!   values of its random phase when it switches) joins, and gives donors,
//!   as a fresh case of the guide's own would, but is none of its cases (no
//!   work, no fresh case counted).
//! - **Donors**: every part of every valid new value is kept as a donor for
//!   splicing ([`refgen_core::edit::splice::Donors`], at most 512 per site).
//! - **The schedule**: while the corpus is empty a case is fresh (plain
//!   random generation); after that a case is fresh while fresh cases have
//!   made less than their share [`MutateConfig::fresh`] (default 0.1) of the
//!   choices of all cases (valid and rejected: the work), else, once the
//!   corpus has given donors, a graft case with probability
//!   [`MutateConfig::graft`] (default 0.25; below), else a mutant of a
//!   corpus entry drawn with weight the square of its number of choices
//!   (larger entries have more to mutate, and were reached by more steps:
//!   growing valid values step by step is what mutation is for). Half the
//!   time, the entry must also have a **rare feature** drawn uniformly:
//!   a feature ([`shape::features`]: a constructor under a
//!   constructor, by branch, such as a function under the first part of
//!   an application) that at most a quarter of the corpus's entries have.
//!   It is drawn by size until it has it, at most four times, else it is
//!   that feature's elite, the largest entry that has it (an entry is not
//!   replaced while it is the elite of some feature). A rare construct
//!   lives in a few small entries that a draw by size would seldom reach;
//!   drawn this way, it gets its share of the mutations and grows. Where no
//!   feature is rare (a search tree's nodes under nodes are in nearly every
//!   entry), the draw is by size alone. A share
//!   [`MutateConfig::splice`] (default 0.5) of the mutants are splices: a
//!   part of the entry (a leaf included) replaced by a donor made at the same
//!   site, a little larger than it, and again with probability one half (at
//!   most three splices); the others are made by an operator drawn uniformly
//!   from [`MutateConfig::operators`] (default all three,
//!   [`Mutation::ALL`]); an operator with nothing to act on in that entry
//!   falls back to a reroll.
//! - **Fresh cases on the fast path**: once the corpus has an entry, a
//!   fresh case takes the runner's fast path ([`Choices::Plain`]): its
//!   value made straight from its seed, with no trail, so it costs what
//!   random generation costs. The runner tells the guide each value's key
//!   and, for a new value, its kept choices, made again from the seed
//!   ([`Choices::Plain::hear`]): the corpus and the donors take it as
//!   they take a recorded fresh case's. Such a case's work is not counted:
//!   the first fresh case and one in [`CALIBRATE`] (16) are recorded, and
//!   the fresh cases on the fast path count as their mean (fresh cases are
//!   random generation's, so the recorded ones are a fair sample), the
//!   mean at each case applied to all of them: a fresh case's work is
//!   heavy-tailed (a few make hundreds of failed attempts), so the mean of
//!   the first few recorded is most often below the true one. The fast path
//!   saves only a little of a valid test's cost: the grown cases, which need
//!   their trails, take most of the time
//!   ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#fresh-cases-on-the-fast-path)).
//! - **Replay**: a mutant is the entry's choice tree with the edit applied,
//!   replayed leniently, so it is always a value the generator can make:
//!   a choice that no longer fits, or under a reroll mark, is drawn at
//!   random; where the tree runs out, a pick takes its first (base) option,
//!   as Goldstein's `MutGen` does, and an integer is drawn at random. The
//!   generator's validity condition (`#[assume]`) and `assume!` still
//!   apply, with no local retry ([`Plan::retry`]): a rejected
//!   mutant is discarded and the next case tried (a retry would make the
//!   failing part again from nothing, losing the edit); the report's notes
//!   give the rejection rate per operator. A fresh case is random
//!   generation, retries included.
//! - **Grafting**: a graft case is made by the generator, retries included,
//!   from the start of a corpus entry (drawn as a mutant's is; an entry with
//!   no choice beneath a choice of the same site, such as a list, has nowhere
//!   to graft and is mutated instead): its first choice (the option its root
//!   picked) and its parts before a cut (the last part with probability one
//!   half, else one drawn uniformly) are replayed. (A property of several
//!   arguments has no first choice: a cut keeps its first arguments whole,
//!   a tree and the key after it say, and makes the others again; a cut
//!   after the first is drawn uniformly, not before the last half the time
//!   as a retry's is: remaking only a last flag or key most often makes a
//!   value tested before.)
//!   After them, every pick
//!   made beneath a choice of the same site (a subtree of a recursive type)
//!   replays a donor of that site, drawn with weight its number of choices
//!   (in half the draws, where the site's donors have several top choices,
//!   such as a term's constructors, after its top choice is drawn uniformly:
//!   [`Donors::draw`](refgen_core::edit::splice::Donors::draw)),
//!   and the other choices are drawn at random, but that an integer made
//!   outside every pick (a property's key beside its tree) is, half the
//!   time, one made before in the case at the same site and range, drawn
//!   uniformly among them (one of the tree's keys: a lookup or a delete of
//!   a key that is there, which a random key of a wide range almost never
//!   is); outside the attempts of
//!   retrying filters (a property's keys and flags, say), an answer that
//!   would complete the kept choices of a valid case heard before, and so
//!   remake its value, is drawn again among the answers that would not,
//!   and choices with nothing new below them are avoided one choice up.
//!   Half the donors are
//!   **relabelled**: the picks their top part makes itself (a node's
//!   colour, a tag; not its integers, not its subtrees) are drawn afresh,
//!   so a black node is tried as a red one. Independently, half the donors
//!   are **remapped**: their integers go, site by site, to as many values
//!   drawn from a window of the range (half the time as narrow as they fit:
//!   packed), in the same order (equal ones equal; a site's lone value is
//!   kept), so a search tree's order or a heap's holds inside the donor
//!   while the donor moves where it fits (a subtree of keys 1 to 13 comes
//!   back with keys 2 to 8, and fits beside another). Where every valid
//!   value so far had the integers of a site in one order in the order
//!   they were made (a search tree's keys, made left part first, increase;
//!   learned after 30 pairs with none against the order, per scope: the
//!   outermost part of the recursive type an integer is made in, so a
//!   property's other arguments made at the same site do not count), half
//!   the graft cases draw the integers they make at that site, and the
//!   window a donor is remapped into, after the last one made in the
//!   scope: the keys of a tree grafted together come in order, and only
//!   the coupling that is left (heights, colours) is searched for; the
//!   other half graft as before, so values the order would never make stay
//!   within reach. Where a node's
//!   `#[assume]` fails, its retry keeps the failed attempt's first choice
//!   and its parts before a new cut, and makes the rest again from other
//!   donors (chronological backtracking: what was made last most often is
//!   what did not fit); with probability one quarter, or when the attempt
//!   kept nothing, it starts again from the case's start. After 30 retries
//!   in all, the case is rejected. So the search for a subtree that fits
//!   what is already made (a black height, a range of keys) runs inside the
//!   node, on the filter's retries, over parts already valid. Where a
//!   splice puts one donor in place and is rejected if it does not fit,
//!   grafting tries donors until one fits: two subtrees of black height 2,
//!   with keys on either side of a node's key, make a red-black tree of
//!   black height 3, which neither random generation nor splicing made in
//!   our measurements (`examples/bugfind`, the red-black tree workload;
//!   remapped donors, whose keys fit beside each other, made it the
//!   commonest height there); a relabelled donor of black height 3 is a red
//!   node over two black subtrees, the shape that delete's rebalancing and
//!   insert's rotations need, which no donor had as made.
//! - **Rotation**: of the cases neither fresh nor grafted, a share
//!   [`MutateConfig::rotate`] (default [`ROTATE`], half; `rotate = P`) are a corpus entry
//!   (drawn as a mutant's parent is) rotated at one of its nodes, drawn
//!   uniformly ([`refgen_core::edit::rotation`]): a part of the node's own
//!   type takes the node's place, and the node goes beneath it, with the
//!   part's part on the other side in its old place, as a search tree's
//!   rotation; the order of the parts is kept and the shape above them
//!   changes, where every other operator changes what is below a part.
//!   Each of the two nodes moved has, with probability 3/4, its own picks
//!   drawn afresh ([`Edit::Relabel`](refgen_core::edit::Edit::Relabel): a colour, a tag; its integers kept):
//!   a red-black tree's rotation keeps its black heights only recoloured,
//!   as the tree's own insert recolours. Replayed and checked as a mutant
//!   is (no local retry). An entry with no node whose part has parts of
//!   its own (a list, a tree of one node) is mutated instead. Rotations
//!   find more of a red-black tree's bugs, most of them in delete's
//!   rebalancing, whose bugs need a black sibling with a red child on a
//!   given side ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#rotate)).
//!   About 95% of a red-black tree's rotations are rejected: the runner
//!   counts them as rejected edits, not discards ([`ROTATE`] says what that
//!   costs a run).
//! - **Size**: at most [`MutateConfig::corpus_size`] entries (default 256);
//!   when full, a new entry replaces the smallest (fewest choices, then
//!   oldest) entry that joined for being new and is no feature's elite
//!   (failing that, the smallest that joined for being new); seeds,
//!   failures and utility records stay.
//!
//! - **Restarts**: after periods of [`MutateConfig::restart_every`] cases
//!   (default [`RESTART`], 5,000; `0` never) times the terms of Luby's
//!   sequence, 1, 1, 2, 1, 1, 2, 4, ... (so after 5,000, 10,000, 20,000,
//!   25,000, ... cases; [`MutateConfig::restart_luby`]: short runs and ever
//!   longer ones, for a search whose cases to a failure are heavy-tailed),
//!   the guide starts again: the corpus
//!   keeps its seeds, failures and utility records only, and the donors,
//!   shapes, features and orders learned from valid values are dropped; the
//!   schedule's work is counted afresh; and it starts from the valid new
//!   values of its latest fresh cases (at most 20), random generation's,
//!   which owe nothing to the corpus: it starts where the first start did,
//!   from random values, not from the first small value it would make
//!   itself. A corpus grows by descent, and after some thousands of
//!   cases most of it descends from a few entries: one run's valid values
//!   settle on some shapes and seldom make others; restarts trade a run's
//!   settled corpus for independent ones
//!   ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#restart)).
//!   A run shorter than the first period never restarts.
//!
//! Departures from the thesis: splicing, grafting, rotation, the donors, the rare
//! features' elites, restarts and the schedule by work are this library's (splicing
//! and grafting are what grow values whose validity couples a part with its
//! surroundings, such as balanced trees; see [`refgen_core::edit::splice`]); the
//! thesis's fresh cases are a fixed share of the cases.
//!
//! [`mutant`] makes one mutant outside a run, the same way.
//!
//! Everything that grows values by mutation is in this folder: the
//! corpus (`corpus`, with the rare features' `elites`), the schedule by
//! work (`schedule`) and the restarts (`restarts`), the edits made of
//! several (`edits`) and how an edited tree is replayed (`replay`),
//! grafting (`graft`, with the integer `order`s it keeps and the choice
//! sequences already `tested`), and [`shape`]. The tree operations they
//! use are the core's [`refgen_core::edit`] (operators, rotations,
//! [`splice`](refgen_core::edit::splice)).

mod config;
mod corpus;
mod edits;
mod elites;
mod graft;
mod order;
mod replay;
mod restarts;
mod schedule;
pub mod shape;
mod stats;
mod tested;
#[cfg(test)]
mod tests;

pub use config::{names, options, MutateConfig, Operators, RESTART, ROTATE};
#[doc(hidden)]
pub use config::{Options, OPTIONS};
pub use corpus::{CorpusEntry, Joined};
pub use replay::mutant;
pub use stats::MutateStats;

use crate::guide::{CaseInfo, ChoiceContext, Choices, Feedback, Guide, GuideReport, Origin, Outcome, Plan};
use crate::hashing::mix;
use corpus::Corpus;
use edits::{rotated, spliced};
use graft::Grafting;
use order::Orders;
use rand::Rng;
use refgen_core::choice::{Choice, ChoiceTree};
use refgen_core::edit::splice::Donors;
use refgen_core::edit::Mutation;
use refgen_core::source::{rng_from_seed, sample, DetRng, Stop};
use refgen_core::trail::Trail;
use replay::{edited, fill};
use schedule::Work;
use shape::{features, Shapes};
use std::collections::VecDeque;
use std::fmt::Debug;
use tested::Tested;

/// A restart starts from the valid new values of the latest fresh cases, at most this many.
const RESTART_ADOPTS: usize = 20;

/// One fresh case in this many is recorded, the first included: the others take the runner's fast path,
/// and the work of each is counted as the mean of the recorded ones' (see the module docs).
pub const CALIBRATE: u64 = 16;

/// A case that passed with a new value, kept to be heard again: adopted by a grower
/// ([`Origin::Adopted`]), or by a restart.
#[derive(Debug, Clone)]
pub(in crate::guides) struct Kept {
    trail: Trail,
    key: Option<u64>,
}

impl Kept {
    /// `feedback`'s case, if it passed with a new value.
    pub(in crate::guides) fn of(feedback: &Feedback<'_>) -> Option<Kept> {
        (feedback.outcome == Outcome::Passed && feedback.new)
            .then(|| Kept { trail: feedback.trail.clone(), key: feedback.key })
    }

    /// The case's feedback, as it was heard.
    pub(in crate::guides) fn feedback(&self) -> Feedback<'_> {
        let (origin, failed_attempts, outcome) = (Origin::Adopted, None, Outcome::Passed);
        Feedback {
            origin,
            failed_attempts,
            outcome,
            valid: true,
            new: true,
            utility: None,
            key: self.key,
            trail: &self.trail,
            state_machine: false,
        }
    }
}

/// What the guide planned for the case under way.
#[derive(Debug, Clone, Copy)]
enum Planned {
    Fresh,
    Mutant(Mutation),
    Splice,
    Graft,
    Rotate,
}

/// The mutational guide; see the module docs.
#[derive(Debug, Clone)]
pub struct MutateGuide {
    config: MutateConfig,
    corpus: Corpus,
    best: Option<f64>,
    planned: Option<Planned>,
    stats: MutateStats,
    /// Mixed with the key of every case heard, so the schedule follows the run.
    salt: u64,
    /// The shapes of the valid cases that were new values.
    shapes: Shapes,
    /// The parts of the valid cases, for splicing.
    donors: Donors,
    /// The work of the cases, for the schedule.
    work: Work,
    /// The fresh cases that took the fast path.
    plain_fresh: u64,
    /// The cases planned, the restarts made, and the planned cases at which the next is due (see
    /// [`MutateConfig::restart_every`]).
    planned_cases: u64,
    restarts: u64,
    restart_at: u64,
    /// Cases adopted from the guide before it ([`Origin::Adopted`]).
    adopted: u64,
    /// The valid new values of the latest fresh cases (at most [`RESTART_ADOPTS`]), with their keys: a
    /// restart starts from them.
    recent_fresh: VecDeque<Kept>,
    /// The graft case under way.
    grafting: Grafting,
    /// The kept choices of the valid cases heard, which a graft's random answers avoid remaking.
    tested: Tested,
    /// The orders of integer sites learned from valid values, for grafting.
    orders: Orders,
    /// The tree of the last case replayed, handed back ([`Guide::recycle`]): the next mutant is made
    /// into it.
    spare: Option<ChoiceTree>,
}

impl Default for MutateGuide {
    fn default() -> Self {
        MutateGuide::new(MutateConfig::default())
    }
}

/// The most donors the splice pool keeps per site.
const DONORS_PER_SITE: usize = 512;

fn slot(op: Mutation) -> usize {
    Mutation::ALL.iter().position(|&m| m == op).unwrap_or(0)
}

impl MutateGuide {
    /// A guide with `config`.
    pub fn new(config: MutateConfig) -> Self {
        let restart_at = config.restart_every;
        MutateGuide {
            config,
            corpus: Corpus::default(),
            best: None,
            planned: None,
            stats: MutateStats::default(),
            salt: 0,
            shapes: Shapes::default(),
            donors: Donors::new(DONORS_PER_SITE),
            work: Work::default(),
            plain_fresh: 0,
            planned_cases: 0,
            restarts: 0,
            restart_at,
            adopted: 0,
            recent_fresh: VecDeque::new(),
            grafting: Grafting::default(),
            tested: Tested::default(),
            orders: Orders::default(),
            spare: None,
        }
    }

    /// The corpus, oldest first.
    pub fn corpus(&self) -> &[CorpusEntry] {
        self.corpus.entries()
    }

    /// What the guide has done so far.
    pub fn stats(&self) -> MutateStats {
        self.stats
    }

    /// Whether the next case starts the guide again ([`MutateConfig::restart_every`]; `restart_at` is at least that).
    fn restart_due(&self) -> bool {
        self.config.restart_every > 0 && self.planned_cases == self.restart_at
    }

    /// Whether fresh cases have made less than their share of the work (the choices made, in valid cases
    /// and rejected ones): the next case is fresh. A mutant is rejected far more often than a fresh case,
    /// and a fresh case of a type with a hard validity condition makes many failed attempts for each value.
    fn fresh_due(&self) -> bool {
        self.work.fresh_due(self.config.fresh)
    }

    /// What a case heard (planned as `planned`) teaches.
    fn heard(&mut self, planned: Option<Planned>, feedback: &Feedback<'_>) {
        let fresh = matches!(planned, Some(Planned::Fresh));
        self.planned_cases += u64::from(planned.is_some());
        if let Some(kept) = (fresh && self.config.restart_every > 0).then(|| Kept::of(feedback)).flatten() {
            if self.recent_fresh.len() == RESTART_ADOPTS {
                self.recent_fresh.pop_front();
            }
            self.recent_fresh.push_back(kept);
        }
        self.hear(planned, feedback);
    }

    /// Whether the case under way is a fresh one (for [`super::grow`], whose guide makes it).
    pub(super) fn fresh_planned(&self) -> bool {
        matches!(self.planned, Some(Planned::Fresh))
    }

    /// Start again: the corpus keeps only its seeds, failures and utility records, and everything
    /// learned from the valid values (donors, shapes, features) is dropped.
    fn restart(&mut self) {
        // A new guide, which keeps what is not learned from valid values: the schedule's draws, the best
        // utility, the counts; so a field added later starts again by default.
        let old = std::mem::replace(self, MutateGuide::new(self.config));
        self.best = old.best;
        self.stats = old.stats;
        self.salt = old.salt;
        self.planned_cases = old.planned_cases;
        self.restarts = old.restarts + 1;
        let c = &self.config;
        self.restart_at =
            old.restart_at.saturating_add(restarts::period(c.restart_every, c.restart_luby, self.restarts));
        self.adopted = old.adopted;
        self.tested = old.tested;
        self.work = old.work.restarted();
        self.plain_fresh = old.plain_fresh;
        for e in old.corpus.into_entries().into_iter().filter(|e| e.joined != Joined::New) {
            self.corpus.join(e.tree, e.joined, Vec::new(), self.config.corpus_size);
        }
        // Random generation's latest values, which owe nothing to the corpus, are the new start's first
        // entries and donors, as the values made before the switch were the first start's.
        for kept in &old.recent_fresh {
            self.hear(Some(Planned::Fresh), &kept.feedback());
        }
        self.recent_fresh = old.recent_fresh;
    }

    /// What a case heard (planned as `planned`) teaches: its rejection counted, and its value joining the
    /// corpus and the donors when it should.
    fn hear(&mut self, planned: Option<Planned>, feedback: &Feedback<'_>) {
        self.salt = mix(self.salt, feedback.key.unwrap_or(u64::MAX));
        if feedback.valid {
            self.tested.heard(feedback.trail);
        }
        match (planned, feedback.valid) {
            (Some(Planned::Mutant(op)), false) => self.stats.rejected[slot(op)] += 1,
            (Some(Planned::Splice), false) => self.stats.splice_rejected += 1,
            (Some(Planned::Graft), false) => self.stats.graft_rejected += 1,
            (Some(Planned::Rotate), false) => self.stats.rotate_rejected += 1,
            _ => {}
        }
        let raised = feedback.utility.filter(|u| self.best.is_none_or(|b| *u > b));
        if raised.is_some() {
            self.best = raised;
        }
        let joined = match planned {
            _ if feedback.outcome == Outcome::Failed => Some(Joined::Failed),
            None if feedback.valid => Some(Joined::Seed),
            _ if raised.is_some() => Some(Joined::Utility),
            _ if feedback.valid && feedback.new && self.shapes.observe(feedback.trail).new_shape => Some(Joined::New),
            _ => None,
        };
        let mut kept = Vec::new();
        if joined.is_some() {
            features(feedback.trail, &mut kept);
        }
        if feedback.valid && (joined.is_some() || feedback.new) {
            self.orders.learn(feedback.trail);
            let tree = feedback.tree();
            self.donors.add(&tree, &mut rng_from_seed(mix(self.salt, 0xd0)));
            if let Some(joined) = joined {
                self.corpus.join(tree, joined, kept, self.config.corpus_size);
            }
        } else if let Some(joined) = joined {
            self.corpus.join(feedback.tree(), joined, kept, self.config.corpus_size);
        }
    }
}

impl Guide for MutateGuide {
    fn name(&self) -> &str {
        "mutate"
    }

    /// A fresh case, once the corpus has an entry and a fresh case has been recorded, takes the fast path,
    /// hearing its value, but for one in [`CALIBRATE`] (recorded to count the work) and a restart's first
    /// case. A fresh case retries its filters; a mutant that breaks validity is rejected, not made again
    /// away by a retrying `#[assume]` (whose new attempt, with nothing left to replay, would take every
    /// pick's first option). Only a graft case reads its failed attempts (a retry keeps the start of the
    /// one before); the corpus and the donors keep the valid parts, without them.
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        if self.plain_due() {
            return Plan::new(Choices::Plain { hear: true, note: false });
        }
        self.plan_recorded(case)
    }

    fn recycle(&mut self, tree: ChoiceTree) {
        self.spare = Some(tree);
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        match self.planned {
            // A fresh case is plain random generation: the base option is only for a mutant's gaps.
            Some(Planned::Fresh) => Ok(sample(rng, ctx.request)),
            Some(Planned::Graft) => self.grafting.answer(ctx, &self.donors, &self.orders, &mut self.tested, rng),
            _ => Ok(fill(ctx.cue, ctx.request, rng)),
        }
    }

    /// A fresh case on the fast path: its work is counted as the recorded fresh cases' mean. A case made
    /// before the guide took over (adopted) joins the corpus and gives donors as a fresh case of its own
    /// would, but is none of its cases: the schedule's work and the counts start at the switch; a value
    /// made again adds nothing, and is not heard.
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        match feedback.origin {
            Origin::Plain => {
                self.stats.fresh += 1;
                self.plain_fresh += 1;
                self.work.plain();
                self.heard(Some(Planned::Fresh), feedback);
            }
            Origin::Adopted => {
                if feedback.new {
                    self.adopted += 1;
                    self.hear(Some(Planned::Fresh), feedback);
                }
            }
            Origin::Planned | Origin::Unplanned => {
                let planned = self.planned.take();
                let work = feedback.trail.choices_made() as u64;
                self.work.recorded(matches!(planned, Some(Planned::Fresh)), work);
                self.heard(planned, feedback);
            }
        }
    }

    /// A case that raises the best utility joins the corpus, so later mutants start from it.
    fn report(&self) -> GuideReport {
        GuideReport { notes: self.notes(), section: None, uses_utility: true }
    }
}

impl MutateGuide {
    /// The plan of a case the guide makes off the fast path: a restart when due, then a graft case, a
    /// rotation, a splice, a mutant or a fresh case, as the schedule and the draws say.
    pub(in crate::guides) fn plan_recorded(&mut self, case: &CaseInfo<'_>) -> Plan {
        if self.restart_due() {
            self.restart();
        }
        let mut rng = rng_from_seed(mix(self.salt, case.index));
        // Fields set by hand out of range: a probability compared, never a panic.
        let fresh = self.corpus.is_empty() || self.fresh_due();
        let ops = &self.config.operators[..];
        // No draw for a share of 0, so a guide that never grafts draws as before grafting was added.
        let graft =
            !fresh && !self.donors.is_empty() && self.config.graft > 0.0 && rng.random::<f64>() < self.config.graft;
        let graft_from = graft.then(|| self.corpus.parent(&mut rng)).and_then(|i| self.corpus.graft_start(i));
        if let Some(start) = graft_from {
            self.grafting.begin(start, &self.orders, &mut rng);
            self.planned = Some(Planned::Graft);
            self.stats.grafted += 1;
            return Plan::fresh();
        }
        // No draw for a share of 0, as for grafting.
        // A mutant is made into the tree of the last case replayed, handed back ([`Guide::recycle`]).
        let mut tree = self.spare.take().unwrap_or_else(|| ChoiceTree::root(Vec::new()));
        if !fresh && self.config.rotate > 0.0 && rng.random::<f64>() < self.config.rotate {
            let (parent, rotations) = self.corpus.rotations(self.corpus.parent(&mut rng));
            if rotated(parent, rotations, &mut tree, &mut rng) {
                self.planned = Some(Planned::Rotate);
                self.stats.rotated += 1;
                return edited(tree);
            }
        }
        if !fresh && !self.donors.is_empty() && rng.random::<f64>() < self.config.splice {
            let parent = self.corpus.tree(self.corpus.parent(&mut rng));
            if spliced(&self.donors, parent, &mut tree, &mut rng) {
                self.planned = Some(Planned::Splice);
                self.stats.spliced += 1;
                return edited(tree);
            }
        }
        let mutant = (!fresh)
            .then(|| {
                let i = self.corpus.parent(&mut rng);
                let op = ops[rng.random_range(0..ops.len())];
                let (parent, mutations) = self.corpus.mutations(i);
                mutations.mutant_into(op, parent, &mut tree, &mut rng)
            })
            .flatten();
        match mutant {
            Some(op) => {
                self.planned = Some(Planned::Mutant(op));
                self.stats.mutants[slot(op)] += 1;
                edited(tree)
            }
            None => {
                self.spare = Some(tree);
                self.planned = Some(Planned::Fresh);
                self.stats.fresh += 1;
                Plan::fresh().kept_choices_only()
            }
        }
    }

    /// Whether the next case is a fresh case on the fast path (see [`Guide::begin_case`]).
    fn plain_due(&self) -> bool {
        !self.corpus.is_empty()
            && self.work.calibrated()
            && !self.stats.fresh.is_multiple_of(CALIBRATE)
            && !self.restart_due()
            && self.fresh_due()
    }

    /// What the guide says of its run: its corpus, its operators and their rejections.
    pub fn notes(&self) -> Vec<String> {
        let s = &self.stats;
        let (features, rare) = self.corpus.features();
        let count = |j: Joined| self.corpus.entries().iter().filter(|e| e.joined == j).count();
        let ops: Vec<String> = Mutation::ALL
            .iter()
            .enumerate()
            .map(|(i, op)| {
                let rate = if s.mutants[i] == 0 { 0.0 } else { 100.0 * s.rejected[i] as f64 / s.mutants[i] as f64 };
                format!("{} {} ({} rejected by validity, {rate:.1}%)", op.name(), s.mutants[i], s.rejected[i])
            })
            .collect();
        vec![
            format!(
                "mutate: corpus of {} ({} seeds, {} new, {} utility, {} failing); {} fresh cases ({} on the fast path){}{}",
                self.corpus.len(),
                count(Joined::Seed),
                count(Joined::New),
                count(Joined::Utility),
                count(Joined::Failed),
                s.fresh,
                self.plain_fresh,
                match self.adopted {
                    0 => String::new(),
                    1 => ", 1 value adopted from before the switch".to_owned(),
                    n => format!(", {n} values adopted from before the switch"),
                },
                match (self.restarts, self.config.restart_luby) {
                    (0, _) => String::new(),
                    (1, _) => format!("; started again once (after {} cases)", self.config.restart_every),
                    (n, false) => format!("; started again {n} times (every {} cases)", self.config.restart_every),
                    (n, true) => format!("; started again {n} times (Luby's periods of {} cases)", self.config.restart_every),
                }
            ),
            format!("mutate: mutants by operator: {}", ops.join(", ")),
            format!(
                "mutate: {} spliced ({} rejected by validity), {} grafted ({} rejected), {} rotated ({} rejected), from {} donors; {} features ({} rare)",
                s.spliced,
                s.splice_rejected,
                s.grafted,
                s.graft_rejected,
                s.rotated,
                s.rotate_rejected,
                self.donors.len(),
                features,
                rare
            ),
        ]
    }
}
