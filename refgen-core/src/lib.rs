//! Reflective generators: one definition of a generator, interpreted many ways.
//!
//! A generator is a parser of choices. At each *choice point* (a [`Site`])
//! it asks one question, pick one of these labelled, weighted options or pick
//! an integer in a range, and builds its value from the answers. Everything
//! this crate does is a different way of answering those questions, or of
//! running the same definition backward:
//!
//! | interpretation | function | what answers the choices |
//! |---|---|---|
//! | generate | [`generate`], [`generate_recorded`] | a seeded RNG ([`RngSource`]), honouring weights |
//! | parse | [`parse`], [`parse_tree`] | a choice sequence; a choice the generator cannot make is an error |
//! | replay leniently | [`replay_lenient`], [`replay_with`] | a possibly broken [`ChoiceTree`] (edited with [`edit`]); unfit choices are replaced, missing ones take the first option (or are asked of another source) |
//! | weighted | [`generate_weighted`], [`Weights`] | weights looked up by site and label (tuning by examples) |
//! | guided | [`Gen::run`] with any [`Source`] | a guide (see the runtime crate) |
//! | bytes | [`bytes::from_bytes`], and backward [`bytes::to_bytes`] | a fuzzer's byte string ([`bytes::BytesSource`]) |
//! | language | [`language`], [`enumerate`] | every option in turn, up to a bound |
//! | derivative | [`derivative`], [`nullable`], [`next_pick`] | a fixed prefix, then whatever comes next |
//! | reflect | [`reflect`] | the value itself: which choice trees produce it? |
//! | check | [`check`] | is the value in the generator's range? |
//! | probability | [`probability`] | weights: how likely is the value? |
//!
//! The interpretations, derivatives and mutation follow Harrison Goldstein,
//! *Advancing Property-Based Testing in Theory and Practice* (dissertation
//! proposal, University of Pennsylvania, 2022), cited in these docs as
//! "Goldstein's thesis".
//!
//! # Writing a generator
//!
//! The running example of Goldstein's "Advancing Property-Based Testing in Theory and
//! Practice", a binary search tree with keys in `lo..=hi`, with its backward annotations ([`Gen::at`]):
//!
//! ```
//! use refgen::combinators::{int, just, pick, pure};
//! use refgen::{check, generate, parse_tree, reflect, BoxGen, Gen};
//!
//! #[derive(Debug, Clone, PartialEq)]
//! enum Tree { Leaf, Node(Box<Tree>, i64, Box<Tree>) }
//!
//! fn bst(lo: i64, hi: i64) -> BoxGen<Tree> {
//!     if lo > hi {
//!         return just(Tree::Leaf).boxed();
//!     }
//!     pick("bst", [
//!         ("leaf", 1, just(Tree::Leaf).boxed()),
//!         ("node", 5, int(lo..=hi).site("key")
//!             .at(|t: &Tree| match t { Tree::Node(_, x, _) => Some(*x), _ => None })
//!             .bind(move |x| bst(lo, x - 1)
//!                 .at(|t: &Tree| match t { Tree::Node(l, _, _) => Some((**l).clone()), _ => None })
//!                 .bind(move |l| bst(x + 1, hi)
//!                     .at(|t: &Tree| match t { Tree::Node(_, _, r) => Some((**r).clone()), _ => None })
//!                     .bind(move |r| pure(Tree::Node(Box::new(l.clone()), x, Box::new(r)))))).boxed()),
//!     ]).boxed()
//! }
//!
//! let g = bst(0, 9);
//! let t = generate(&g, 7).unwrap();                 // forward
//! let trees = reflect(&g, &t);                      // backward
//! assert_eq!(parse_tree(&g, &trees[0]).unwrap(), t); // and forward again
//! assert!(check(&g, &t));
//! ```

pub mod args;
pub mod bytes;
pub mod choice;
pub mod combinators;
mod completable;
mod data_crates;
mod derived;
pub mod edit;
pub mod gen;
pub mod hashing;
pub mod interpret;
pub mod laws;
mod overrides;
pub mod reflective;
pub mod source;
mod std_types;
mod synthesized;
pub mod trail;

pub use args::{GenWith, ReflectiveWith, WithArgs};
pub use choice::{Choice, ChoiceTree, Opt, OwnedRequest, Request, Site, RETRY, ROOT};
pub use combinators::regex;
/// The old paths of [`edit::neighbour`] and [`edit::splice`], kept for code written before they moved under [`edit`].
pub use edit::{neighbour, splice};
pub use gen::{BoxGen, Gen, Way};
pub use interpret::{
    check, derivative, enumerate, generate, generate_recorded, generate_weighted, generate_with, language, next_pick,
    nullable, parse, parse_tree, probability, reflect, replay_lenient, replay_with, run_recorded, sequence_probability,
    Derivative, Language, NextPick, ParseError, Weights,
};
pub use reflective::Reflective;
pub use source::{rng_from_seed, DetRng, RngSource, Source, Stop};
pub use trail::{Recorder, Trail};

/// What the code `#[derive(Reflective)]` writes calls: not part of the API, and may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::completable::*;
    pub use crate::derived::*;
    pub use crate::overrides::{back_field, back_variant, run_field, run_variant, Overridable};
    pub use crate::synthesized::*;
}

/// Everything needed to write and use generators, in one `use` (the facade's
/// `refgen::prelude` is the one to use: this one is kept for the crate's own docs).
#[doc(hidden)]
pub mod prelude {
    pub use crate::combinators::{
        any_char, any_int, bool, char, char_class, float, from_fns, int, integer, just, lazy, option, overriding, pick,
        pure, recursive, string, vec, void, Overriding,
    };
    pub use crate::regex::regex;
    pub use crate::{
        check, derivative, enumerate, generate, generate_recorded, generate_weighted, language, next_pick, nullable,
        parse, parse_tree, probability, reflect, replay_lenient, BoxGen, Choice, ChoiceTree, Gen, ParseError,
        Reflective, ReflectiveWith, Source, Stop, Weights,
    };
}
