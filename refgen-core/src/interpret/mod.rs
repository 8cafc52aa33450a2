//! Every interpretation of a generator: generate, parse, replay, weigh, reflect, check, measure.
//!
//! The forward interpretations differ only in the [`Source`] that answers
//! the choices; the backward ones run [`Gen::back`]. This module holds
//! generation, parsing and the backward interpretations; the others have a
//! module each, re-exported here:
//!
//! - [`replay`]: lenient replay of a (possibly edited) choice tree;
//! - [`weighted`]: generation with weights by site and label (tuning by examples);
//! - [`derivatives`]: derivatives, `nullable`, the next pick, and the language.

pub mod derivatives;
pub mod replay;
pub mod weighted;

pub use derivatives::{
    derivative, enumerate, language, next_pick, nullable, sequence_probability, Derivative, Language, NextPick,
};
pub use replay::{lenient_source, replay_lenient, replay_with, reroll_choice};
pub use weighted::{generate_weighted, labels_of, tuning_label, NotInRange, WeightedSource, Weights};

use crate::choice::{Choice, ChoiceTree, Request, Site};
use crate::gen::Gen;
use crate::source::{rng_from_seed, DetRng, RngSource, Source, Stop};
use crate::trail::Recorder;
use std::fmt;

// ---------------------------------------------------------------- generate

/// Generate one value from `seed` (Goldstein's `G[.]`).
pub fn generate<G: Gen + ?Sized>(g: &G, seed: u64) -> Result<G::Value, Stop> {
    g.run_rng(&mut rng_from_seed(seed))
}

/// Generate one value with choices drawn from `rng`.
pub fn generate_with<G: Gen + ?Sized>(g: &G, rng: &mut DetRng) -> Result<G::Value, Stop> {
    g.run_rng(rng)
}

/// Generate one value from `seed` and record the choice tree that made it
/// (Goldstein's randomness interpretation `R[.]`, with the value).
pub fn generate_recorded<G: Gen + ?Sized>(g: &G, seed: u64) -> (Result<G::Value, Stop>, ChoiceTree) {
    run_recorded(g, RngSource(&mut rng_from_seed(seed))).0
}

/// Run `g` against `src`, recording the choice tree; returns the source too.
pub fn run_recorded<G: Gen + ?Sized, S: Source>(g: &G, src: S) -> ((Result<G::Value, Stop>, ChoiceTree), S) {
    let mut rec = Recorder::new(src);
    let r = g.run(&mut rec);
    let (tree, src) = rec.finish();
    ((r, tree), src)
}

// ---------------------------------------------------------------- parse

/// Why a strict parse of a choice sequence failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The choice at `index` is not one the choice point `site` can make.
    Unfit {
        /// Position in the sequence.
        index: usize,
        /// The choice point.
        site: Site,
        /// The offending choice.
        choice: Choice,
        /// How many answers the choice point has.
        arity: u64,
    },
    /// The sequence ended at `index`, where the choice point `site` still needed an answer.
    Exhausted {
        /// Position in the sequence.
        index: usize,
        /// The choice point.
        site: Site,
    },
    /// The generator finished with `left` choices unused.
    Leftover {
        /// How many choices were not used.
        left: usize,
    },
    /// The generator gave no value for another reason (void, or its validity condition failed).
    NoValue(Stop),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unfit { index, site, choice, arity } => write!(
                f,
                "choice #{index} is {choice}, but the choice point `{site}` has only {arity} answer(s) (0..={})",
                arity.saturating_sub(1)
            ),
            ParseError::Exhausted { index, site } => {
                write!(f, "the choices ended after {index}, but the choice point `{site}` still needs one")
            }
            ParseError::Leftover { left } => write!(f, "the generator finished with {left} choice(s) left over"),
            ParseError::NoValue(stop) => write!(f, "{stop}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Answers choices from a fixed sequence; notes the first problem.
pub(crate) struct SeqSource<'a> {
    pub(crate) choices: &'a [Choice],
    pub(crate) pos: usize,
    pub(crate) error: Option<ParseError>,
}

impl Source for SeqSource<'_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let Some(&c) = self.choices.get(self.pos) else {
            self.error = Some(ParseError::Exhausted { index: self.pos, site });
            return Err(Stop::Rejected);
        };
        if !request.accepts(c) {
            self.error = Some(ParseError::Unfit { index: self.pos, site, choice: c, arity: request.arity() });
            return Err(Stop::Rejected);
        }
        self.pos += 1;
        Ok(c)
    }
}

/// Parse a choice sequence strictly (Goldstein's `P[.]`): every choice must
/// be one the generator can make at that point, and all must be used.
pub fn parse<G: Gen + ?Sized>(g: &G, choices: &[Choice]) -> Result<G::Value, ParseError> {
    let mut src = SeqSource { choices, pos: 0, error: None };
    match g.run(&mut src) {
        Ok(v) if src.pos == choices.len() => Ok(v),
        Ok(_) => Err(ParseError::Leftover { left: choices.len() - src.pos }),
        Err(stop) => Err(src.error.unwrap_or(ParseError::NoValue(stop))),
    }
}

/// Parse the flat sequence of a choice tree strictly; see [`parse`].
pub fn parse_tree<G: Gen + ?Sized>(g: &G, tree: &ChoiceTree) -> Result<G::Value, ParseError> {
    parse(g, &tree.choices())
}

// ---------------------------------------------------------------- backward

/// Every choice tree that makes `g` produce `value` (Goldstein's
/// `Reflect`); empty when `g` cannot produce it.
pub fn reflect<G: Gen + ?Sized>(g: &G, value: &G::Value) -> Vec<ChoiceTree> {
    g.back(value).into_iter().map(|w| ChoiceTree::root(w.forest)).collect()
}

/// Whether `value` is in the range of `g` (Goldstein's `Check`).
///
/// # Cost
///
/// It finds every way of making `value` ([`reflect`]), and keeps none: its
/// time and memory grow with the number of ways, not only with the size of
/// the value. Every combinator with one way per value (integers, chars,
/// floats, collections of such, the derived generators of types whose
/// variants do not overlap) costs about the value's size. A generator whose
/// options overlap, so that a value has several ways, costs their number,
/// which multiplies along the value: a list of `n` elements each made by
/// either of two options has `2^n` ways (below, `n = 12` makes 4,096).
/// [`mod@crate::regex`] bounds its own ways (nested repetitions such as
/// `(a*)*` would otherwise have exponentially many); other generators are
/// not bounded, so give `check`, [`reflect`] and [`probability`] values of a
/// modest size when options overlap.
///
/// ```
/// use refgen::combinators::{pick, pure, vec};
/// use refgen::gen::Gen;
/// use refgen::interpret::{check, reflect};
///
/// let either = pick("zero", [("a", 1, pure(0u8).boxed()), ("b", 1, pure(0u8).boxed())]);
/// let g = vec(either, 0..=12);
/// assert!(check(&g, &vec![0; 12]));
/// assert_eq!(reflect(&g, &vec![0; 12]).len(), 1 << 12, "two ways per element");
/// ```
pub fn check<G: Gen + ?Sized>(g: &G, value: &G::Value) -> bool {
    !g.back(value).is_empty()
}

/// The probability that generation gives `value` (Goldstein's `Prob`):
/// the sum over every way of making it. A value of hundreds of choices
/// can be less likely than the smallest `f64`, and then gives 0.
pub fn probability<G: Gen + ?Sized>(g: &G, value: &G::Value) -> f64 {
    g.back(value).iter().map(|w| w.prob).sum()
}
