//! Targeted property-based testing by simulated annealing, neighbours made from choice trees.
//!
//! After Löscher and Sagonas, "Automating Targeted Property-Based Testing" (ICST 2018).
//!
//! The property reports a utility with `maximize!` (or `minimize!`,
//! `target!`); [`SaGuide`] searches for inputs of high utility:
//!
//! 1. the first input comes from the generator, or from the property's
//!    examples (`example = ...`, [`crate::runner::Property::example`]): the
//!    runner replays each example's reflected choices under the guide, which
//!    hears it as a case and starts from the last one;
//! 2. each next case is a *neighbour* of the current input at temperature
//!    `T_k = T_0 · (1 - k / k_max)` (`k_max` the run's cases, at most
//!    [`MAX_DEFAULT_STEPS`]): by default its recorded choice tree,
//!    edited by the rules of [`refgen_core::edit::neighbour`] (the paper's Tables
//!    I-II, scaled by `T`) and replayed leniently, so the neighbour is always
//!    a value the generator can make, new parts generated afresh (a pick
//!    there takes its first, base option, as lenient replay does; an integer
//!    is drawn at random), and an integer that an earlier change put out of
//!    range brought back to its nearest end (as PropEr's `make_inrange`); or, with
//!    [`SaGuide::with_neighbour`], a function of the value written by hand;
//! 3. a neighbour of higher utility is accepted; one of lower utility with
//!    probability `exp(-(u_cur - u_next) / T)` (at `T = 0`, never); a
//!    neighbour the validity condition rejects (`#[assume]`, `assume!`) is
//!    not a step: another neighbour is drawn, and after
//!    [`SaConfig::max_retries`] in a row, a fresh input from the generator.
//!    A neighbour is replayed with no local retry of a retrying `#[assume]`
//!    (one would make the failing part again from nothing, undoing the
//!    step), and the current input is kept without its failed attempts;
//! 4. with [`SaConfig::restart_after`], after that many rejected steps in a
//!    row the search restarts from a fresh input, its schedule over the steps
//!    that are left (as the paper's implementation, PropEr, does in its
//!    restarting temperature function); by default it does not restart, as
//!    PropEr's default temperature function; when the schedule is spent
//!    (`k = k_max`) it starts another.
//!
//! A case that reports no utility counts as the natural log of one more
//! than its number of choices: with no target, the search presses toward
//! larger valid values over validity-preserving neighbours (a value of a
//! size not reached before is found by growing one that is valid, which
//! random generation of a type with a hard `#[assume]` rarely does). Several utilities in
//! one case: the largest counts (see [`crate::maximize!`]). The departures of
//! the constructed neighbourhood from the paper's are listed in
//! [`refgen_core::edit::neighbour`].
//!
//! **`guide = sa` grows.** Where a retrying `#[assume]` makes more than one
//! failed attempt per case, `#[property(guide = sa)]` shares the work with
//! grafting once it has seen that ([`super::grow`]; `sa(grow = 0)` is this
//! guide alone): one search follows one input, and its
//! neighbours rarely keep a balanced tree's heights.

use crate::guide::{CaseInfo, ChoiceContext, Feedback, Guide, GuideReport, Outcome, Plan, ReportSection};
use crate::hashing::mix;
use rand::Rng;
use refgen_core::choice::{Choice, ChoiceTree, Request};
use refgen_core::edit::neighbour::neighbour;
use refgen_core::gen::BoxGen;
use refgen_core::interpret::replay::Cue;
use refgen_core::interpret::{parse_tree, reflect};
use refgen_core::source::{rng_from_seed, sample, DetRng, Stop};
use refgen_core::trail::Kind;

/// The most steps the default schedule falls over, however many cases the
/// run has (the schedule starts again when spent). PropEr ties `k_max` to
/// the number of tests, which over a large budget keeps the search hot
/// through the steps that matter; of the bounds tried on the graph benchmark of
/// `benches/src/bin/targeted_graph.rs`, 10,000 took the fewest tests
/// ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#max_default_steps)).
pub const MAX_DEFAULT_STEPS: u64 = 10_000;

/// The parameters of a [`SaGuide`]; the defaults are the paper's implementation's, but for [`MAX_DEFAULT_STEPS`].
/// Its setters are `#[property(guide = sa(key = value, ...))]`'s keys: `steps`, `initial_temp`,
/// `restart_after`, `max_retries`, `grow` (and [`SaOptions`], which `sa::options()` gives, adds
/// `neighbour`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SaConfig {
    /// `k_max`, the number of steps the temperature falls over; `None` (the
    /// default) takes the run's number of cases, as PropEr does, but at most
    /// [`MAX_DEFAULT_STEPS`] (see there why).
    pub steps: Option<u64>,
    /// `T_0`, the temperature at the start; default 1.
    pub initial_temp: f64,
    /// Restart from a fresh input after this many rejected steps in a row;
    /// default `None`: never, as PropEr's default temperature function (its
    /// restarting one uses 100, which took more tests on the graph benchmark
    /// of `benches/src/bin/targeted_graph.rs`: [measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#max_default_steps)).
    pub restart_after: Option<u64>,
    /// After this many invalid neighbours in a row, try a fresh input
    /// instead; default 50 (PropEr's constraint tries).
    pub max_retries: u64,
    /// The share of the work (`0..=1`) that mutation with splicing and grafting makes once the
    /// validity condition retries, in the guide the options make for a property
    /// ([`GuideOptions`](super::GuideOptions): a [`Growing`](super::Growing)); default
    /// [`DEFAULT_GROW`](super::grow::DEFAULT_GROW), 0 the guide alone. [`SaGuide::new`] is the guide
    /// alone whatever it is.
    pub grow: f64,
}

impl Default for SaConfig {
    fn default() -> Self {
        options::<()>().config
    }
}

impl SaConfig {
    /// `steps = N`: the same configuration with `k_max = steps`.
    pub const fn steps(mut self, steps: u64) -> Self {
        self.steps = Some(steps);
        self
    }

    /// `initial_temp = T`: the same configuration starting at temperature `t` (clamped to `0..=1`).
    pub const fn initial_temp(mut self, t: f64) -> Self {
        self.initial_temp = t.clamp(0.0, 1.0);
        self
    }

    /// `restart_after = N`: the same configuration restarting after `n` rejections in a row (`0`: never).
    pub const fn restart_after(mut self, n: u64) -> Self {
        self.restart_after = if n > 0 { Some(n) } else { None };
        self
    }

    /// `max_retries = N`: the same configuration with at most `n` invalid neighbours in a row (at least 1).
    pub const fn max_retries(mut self, n: u64) -> Self {
        self.max_retries = if n > 0 { n } else { 1 };
        self
    }

    /// `grow = P`: once the validity condition retries, mutation with splicing and grafting makes the
    /// share `P` of the work (`0..=1`, default 0.5; 0: the guide alone). See [`super::grow`].
    pub const fn grow(mut self, p: f64) -> Self {
        self.grow = super::grow::grow_option(p);
        self
    }
}

/// Whether a step from utility `current` to `next` at temperature `t` is
/// accepted, `draw` being uniform in `0..1`: always when `next > current`,
/// else when `draw < exp(-(current - next) / t)` (never at `t = 0`).
pub fn accept(current: f64, next: f64, t: f64, draw: f64) -> bool {
    if next > current {
        return true;
    }
    if t <= 0.0 {
        return false;
    }
    draw < (-(current - next) / t).exp()
}

/// What the search has done so far.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SaStats {
    /// Steps taken (valid neighbours evaluated).
    pub steps: u64,
    /// Steps accepted.
    pub accepted: u64,
    /// Restarts from a fresh input.
    pub restarts: u64,
    /// Neighbours the validity condition rejected (each retried).
    pub invalid_neighbours: u64,
    /// Neighbours written by hand that the generator cannot make (each replaced by a fresh input).
    pub unreflectable: u64,
    /// The best utility seen.
    pub best: Option<f64>,
}

/// A neighbourhood function over values, turned into one over choice trees.
trait TreeNeighbour {
    fn next(&mut self, current: &ChoiceTree, t: f64, rng: &mut DetRng) -> Option<ChoiceTree>;
}

/// A user's neighbourhood function: parse the current tree to its value,
/// move it, and reflect the result into a tree to replay.
struct ByValue<T> {
    gen: BoxGen<T>,
    next: fn(&T, f64, &mut DetRng) -> T,
}

impl<T> TreeNeighbour for ByValue<T> {
    fn next(&mut self, current: &ChoiceTree, t: f64, rng: &mut DetRng) -> Option<ChoiceTree> {
        let value = parse_tree(&self.gen, current).ok()?;
        let moved = (self.next)(&value, t, rng);
        reflect(&self.gen, &moved).into_iter().next()
    }
}

/// The current input of the search.
struct Current {
    tree: ChoiceTree,
    kinds: Vec<Kind>,
    utility: f64,
}

/// Simulated annealing over choice trees; see the module docs.
///
/// ```
/// use refgen::combinators::{int, vec};
/// use refgen::config::Config;
/// use refgen::guides::sa::SaGuide;
/// use refgen::{maximize, runner::Property};
///
/// // Fails only for a list of at least 30 numbers summing to more than 2,900.
/// let p = Property::new(
///     || vec(int(0u32..=100), 0..=40),
///     |xs: Vec<u32>| {
///         let sum: u32 = xs.iter().sum();
///         maximize!(sum);
///         sum <= 2_900
///     },
/// );
/// let found = p.check(&Config::new("sa_doc").cases(5_000).guide(SaGuide::default));
/// assert!(found.is_err());
/// ```
pub struct SaGuide {
    config: SaConfig,
    current: Option<Current>,
    /// The step within the current schedule.
    k: u64,
    /// The schedule's length (`k_max`, less the steps before the last restart).
    k_max: Option<u64>,
    rejected_in_a_row: u64,
    invalid_in_a_row: u64,
    /// Whether the next case is a fresh input rather than a neighbour.
    fresh: bool,
    /// The index of the case planned last, for seeding.
    case: u64,
    /// Mixed with the key of every case heard, so that the search follows the run (its seed) and not
    /// only the case indices.
    salt: u64,
    user: Option<Box<dyn TreeNeighbour>>,
    stats: SaStats,
    /// The utility of the current input and the temperature after each step, for the report.
    trace: Vec<(f64, f64)>,
}

impl Default for SaGuide {
    fn default() -> Self {
        SaGuide::new(SaConfig::default())
    }
}

impl SaGuide {
    /// A search with this configuration and the neighbourhood constructed from the choice trees.
    pub fn new(config: SaConfig) -> Self {
        SaGuide {
            config,
            current: None,
            k: 0,
            k_max: None,
            rejected_in_a_row: 0,
            invalid_in_a_row: 0,
            fresh: true,
            case: 0,
            salt: 0,
            user: None,
            stats: SaStats::default(),
            trace: Vec::new(),
        }
    }

    /// A search whose neighbours come from `next(current value, temperature,
    /// rng)`, a neighbourhood function written by hand, over the values of
    /// `gen` (the property's generator): each neighbour is reflected into
    /// the choices that make it. A neighbour the generator cannot make is
    /// counted ([`SaStats::unreflectable`]) and replaced by a fresh input.
    pub fn with_neighbour<T: 'static>(config: SaConfig, gen: BoxGen<T>, next: fn(&T, f64, &mut DetRng) -> T) -> Self {
        let mut g = SaGuide::new(config);
        g.user = Some(Box::new(ByValue { gen, next }));
        g
    }

    /// The configuration.
    pub fn config(&self) -> &SaConfig {
        &self.config
    }

    /// What the search has done so far.
    pub fn stats(&self) -> SaStats {
        self.stats
    }

    /// The temperature of the next step.
    pub fn temperature(&self) -> f64 {
        let k_max = self.k_max.unwrap_or(1).max(1);
        self.config.initial_temp * (1.0 - (self.k as f64 / k_max as f64)).clamp(0.0, 1.0)
    }

    fn restart(&mut self) {
        self.current = None;
        self.fresh = true;
        self.stats.restarts += 1;
        self.k_max = self.k_max.map(|m| m.saturating_sub(self.k));
        self.k = 0;
        self.rejected_in_a_row = 0;
    }
}

impl Guide for SaGuide {
    fn name(&self) -> &str {
        if self.user.is_some() {
            "sa(neighbour)"
        } else {
            "sa"
        }
    }

    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        if self.k_max.is_none() {
            self.k_max = Some(self.config.steps.unwrap_or(case.budget.min(MAX_DEFAULT_STEPS)).max(1));
        }
        self.case = case.index;
        let Some(current) = &self.current else { return Plan::fresh() };
        if self.fresh {
            return Plan::fresh();
        }
        let t = self.temperature();
        let mut rng = rng_from_seed(mix(mix(self.salt, case.index), 0x5a17_e5a1));
        let next = match &mut self.user {
            Some(user) => user.next(&current.tree, t, &mut rng),
            None => Some(neighbour(&current.tree, &current.kinds, t, &mut rng)),
        };
        match next {
            Some(tree) => Plan::replay(tree).without_retries(),
            // A neighbour it cannot make: a fresh input, with no retry either (as the neighbour's).
            None => {
                self.stats.unreflectable += 1;
                Plan::fresh().without_retries()
            }
        }
    }

    /// The notes, the utility and temperature curves, and the search on the utility.
    fn report(&self) -> GuideReport {
        let s = &self.stats;
        let notes = vec![format!(
            "simulated annealing: {} steps, {} accepted, {} restarts, {} invalid neighbours retried{}",
            s.steps,
            s.accepted,
            s.restarts,
            s.invalid_neighbours,
            if s.unreflectable > 0 {
                format!(", {} neighbours the generator cannot make", s.unreflectable)
            } else {
                String::new()
            }
        )];
        let section = Some(ReportSection {
            title: "Simulated annealing".to_owned(),
            // The counts are the guide's notes, shown above the section.
            lines: Vec::new(),
            curves: vec![
                ("utility of the current input, per step".to_owned(), self.trace.iter().map(|p| p.0).collect()),
                ("temperature, per step".to_owned(), self.trace.iter().map(|p| p.1).collect()),
            ],
        });
        GuideReport { notes, section, uses_utility: true }
    }

    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        // Fresh parts of a neighbour: beneath a pick's new option, a pick takes its first (base)
        // option, as lenient replay does (Goldstein's `MutGen`), so a leaf that becomes a node gets
        // leaves beneath it; a new list element (a fresh mark, `Cue::Fresh`) and an integer are
        // drawn as generation would.
        Ok(match (ctx.cue, ctx.request) {
            (Cue::Missing, Request::Pick { .. }) if self.current.is_some() && !self.fresh => 0,
            // An integer the range no longer holds (an earlier choice narrowed it) goes to the
            // nearest end, as the paper's implementation brings values back into range.
            (Cue::Unfit(old), Request::Int { span }) => old.min(span),
            _ => sample(rng, ctx.request),
        })
    }

    fn feedback(&mut self, feedback: &Feedback<'_>) {
        self.salt = mix(self.salt, feedback.key.unwrap_or(u64::MAX));
        let was_fresh = self.fresh || self.current.is_none();
        if feedback.outcome == Outcome::Discarded {
            if !was_fresh {
                self.stats.invalid_neighbours += 1;
                self.invalid_in_a_row += 1;
                if self.invalid_in_a_row >= self.config.max_retries {
                    self.invalid_in_a_row = 0;
                    self.fresh = true;
                }
            }
            return;
        }
        self.invalid_in_a_row = 0;
        if let Some(u) = feedback.utility {
            self.stats.best = Some(self.stats.best.map_or(u, |b| b.max(u)));
        }
        let u = feedback.utility.unwrap_or_else(|| (1.0 + feedback.trail.choice_count() as f64).ln());
        self.stats.steps += 1;
        let t = self.temperature();
        let take = match &self.current {
            None => true,
            Some(cur) => {
                let draw = rng_from_seed(mix(mix(self.salt, self.case), 0xacce_97ed)).random::<f64>();
                accept(cur.utility, u, t, draw)
            }
        };
        self.k += 1;
        self.fresh = false;
        if take {
            let kinds = feedback.trail.kept_nodes().map(|n| n.kind).collect();
            // Kept without the failed attempts of retrying filters: a neighbour replays with no retry,
            // and would read them as the input's choices.
            let tree = feedback.tree().into_without_retries();
            self.current = Some(Current { tree, kinds, utility: u });
            self.stats.accepted += 1;
            self.rejected_in_a_row = 0;
        } else {
            self.rejected_in_a_row += 1;
            if self.config.restart_after.is_some_and(|r| self.rejected_in_a_row >= r) {
                self.restart();
            }
        }
        self.trace.push((self.current.as_ref().map_or(u, |c| c.utility), t));
        if self.k_max.is_some_and(|m| self.k >= m) {
            // The schedule is spent: start another from a fresh input.
            self.restart();
        }
    }
}

/// `#[property(guide = sa(...))]`'s options, their defaults (see [`super`]'s table); `T` is the
/// arguments' value, which `neighbour` takes.
pub const fn options<T>() -> SaOptions<T> {
    SaOptions {
        config: SaConfig {
            steps: None,
            initial_temp: 1.0,
            restart_after: None,
            max_retries: 50,
            grow: super::grow::DEFAULT_GROW,
        },
        neighbour: None,
    }
}

/// The options of `guide = sa(...)`: an [`SaConfig`] and perhaps a neighbourhood function.
///
/// A type apart from [`SaConfig`] because `neighbour` takes the arguments' value `T`, which the
/// configuration of [`SaGuide::new`] (a guide for any generator) does not name; its other setters
/// set the configuration's, through [`SaConfig`]'s own.
#[derive(Debug, Clone, Copy)]
pub struct SaOptions<T> {
    config: SaConfig,
    neighbour: Option<fn(&T, f64, &mut DetRng) -> T>,
}

impl<T> SaOptions<T> {
    /// `steps = N`: [`SaConfig::steps`].
    pub const fn steps(mut self, steps: u64) -> Self {
        self.config = self.config.steps(steps);
        self
    }

    /// `initial_temp = T`: [`SaConfig::initial_temp`].
    pub const fn initial_temp(mut self, t: f64) -> Self {
        self.config = self.config.initial_temp(t);
        self
    }

    /// `restart_after = N`: [`SaConfig::restart_after`].
    pub const fn restart_after(mut self, n: u64) -> Self {
        self.config = self.config.restart_after(n);
        self
    }

    /// `max_retries = N`: [`SaConfig::max_retries`].
    pub const fn max_retries(mut self, n: u64) -> Self {
        self.config = self.config.max_retries(n);
        self
    }

    /// `grow = P`: [`SaConfig::grow`].
    pub const fn grow(mut self, p: f64) -> Self {
        self.config = self.config.grow(p);
        self
    }

    /// `neighbour = f`: neighbours from `f(current value, temperature, rng)` (see [`SaGuide::with_neighbour`]).
    pub const fn neighbour(mut self, f: fn(&T, f64, &mut DetRng) -> T) -> Self {
        self.neighbour = Some(f);
        self
    }

    /// The configuration the options set.
    pub const fn config(&self) -> SaConfig {
        self.config
    }
}

super::option_keys!(steps, initial_temp, restart_after, max_retries, grow, neighbour);

/// The names `sa`'s options may use: none (`neighbour = f` names the user's function).
pub mod names {}

impl<T: 'static> super::GuideOptions<T> for SaOptions<T> {
    type Guide = super::Growing;
    fn into_guide(self, property: super::ForProperty<T>) -> super::Growing {
        let guide = match self.neighbour {
            None => SaGuide::new(self.config),
            Some(f) => SaGuide::with_neighbour(self.config, property.gen, f),
        };
        super::Growing::new(guide, self.config.grow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn acceptance_follows_the_rule() {
        assert!(accept(1.0, 2.0, 0.0, 0.999), "better is always accepted");
        assert!(!accept(2.0, 1.0, 0.0, 0.0), "at T = 0, worse never is");
        // exp(-(5 - 4) / 0.5) = exp(-2) = 0.1353...
        assert!(accept(5.0, 4.0, 0.5, 0.135));
        assert!(!accept(5.0, 4.0, 0.5, 0.136));
        // Equal utility: exp(0) = 1, accepted at any T > 0.
        assert!(accept(3.0, 3.0, 0.01, 0.999));
    }

    #[test]
    fn the_temperature_falls_linearly() {
        let mut g = SaGuide::new(SaConfig::default().steps(10));
        g.k_max = Some(10);
        assert_eq!(g.temperature(), 1.0);
        g.k = 5;
        assert_eq!(g.temperature(), 0.5);
        g.k = 10;
        assert_eq!(g.temperature(), 0.0);
        let half = SaGuide::new(SaConfig::default().initial_temp(0.5));
        assert_eq!(half.temperature(), 0.5);
    }
}
