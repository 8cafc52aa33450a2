//! Generation tuned by examples (Goldstein's `tunedLike` / `tunedUnlike`, after "Inputs from Hell").
//!
//! `#[property(guide = tuned(like = EXPR, unlike = EXPR, smoothing = S))]`
//! reflects each example into the choices that make it and counts the
//! (site, label) pairs they use; a case then answers each choice with those
//! weights ([`Weights::choose`]): an option the `like` examples took `n`
//! times weighs `n + S` (default `S` = [`DEFAULT_SMOOTHING`]), divided by
//! `1 + m` when the `unlike` examples took it `m` times; a choice point no
//! example reached keeps the generator's own weights; large integer ranges
//! are tuned per bucket. The details are in
//! [`refgen_core::interpret::weighted`].
//!
//! Each `EXPR` gives values of the argument's type (the tuple of them, with
//! several arguments): an array or `Vec` of literals, a function's result,
//! or [`examples_from_dir`], which reads one JSON value per `*.json` file
//! of a directory through serde ("inputs like my production samples"). An
//! example the generator cannot make, a file that cannot be read or
//! parsed: each is named in the run's setup error, never skipped.
//!
//! A tuning computed once can be saved and checked in:
//! [`save_weights`] writes [`Weights`] as JSON, [`load_weights`] reads
//! them back, and `guide = tuned(weights = "file.json")` (or
//! [`TunedGuide::new`]) runs with them.

use crate::guide::{ChoiceContext, Guide};
use refgen_core::choice::Choice;
use refgen_core::gen::Gen;
use refgen_core::interpret::Weights;
use refgen_core::source::{DetRng, Stop};
use serde::de::DeserializeOwned;
use std::fmt::{self, Debug, Display};
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::path::Path;

/// The smoothing `guide = tuned(...)` adds to every option of a choice
/// point the `like` examples reached: small, so an option no example took
/// still comes now and then.
pub const DEFAULT_SMOOTHING: f64 = 0.1;

/// Why a tuning could not be made or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TuningError(pub String);

impl Display for TuningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TuningError {}

/// Examples for a tuning, or why there are none: what `like = ...` and
/// `unlike = ...` accept (anything iterable over values, or the result of
/// [`examples_from_dir`]).
pub trait IntoExamples<V> {
    /// The examples, or a readable reason they could not be had.
    fn into_examples(self) -> Result<Vec<V>, TuningError>;
}

impl<V, I: IntoIterator<Item = V>> IntoExamples<V> for I {
    fn into_examples(self) -> Result<Vec<V>, TuningError> {
        Ok(self.into_iter().collect())
    }
}

/// Examples read from files, or why they could not be (see [`examples_from_dir`]).
#[derive(Debug, Clone)]
pub struct FileExamples<V>(Result<Vec<V>, TuningError>);

impl<V> FileExamples<V> {
    /// The examples, or why they could not be read.
    pub fn into_result(self) -> Result<Vec<V>, TuningError> {
        self.0
    }
}

impl<V> IntoExamples<V> for FileExamples<V> {
    fn into_examples(self) -> Result<Vec<V>, TuningError> {
        self.0
    }
}

/// The examples in directory `dir`: one JSON value per `*.json` file, read
/// through serde, in the order of the file names. A directory that cannot be
/// read, or a file that cannot be read or parsed, is an error naming it.
pub fn examples_from_dir<V: DeserializeOwned>(dir: impl AsRef<Path>) -> FileExamples<V> {
    let dir = dir.as_ref();
    let read = || -> Result<Vec<V>, TuningError> {
        let cannot =
            |e: std::io::Error| TuningError(format!("cannot read the examples directory {}: {e}", dir.display()));
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).map_err(cannot)? {
            let path = entry.map_err(cannot)?.path();
            if path.extension().is_some_and(|e| e == "json") {
                files.push(path);
            }
        }
        files.sort();
        files
            .iter()
            .map(|path| {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| TuningError(format!("cannot read the example {}: {e}", path.display())))?;
                serde_json::from_str(&text).map_err(|e| {
                    TuningError(format!("the example {} is not a value of this type: {e}", path.display()))
                })
            })
            .collect()
    };
    FileExamples(read())
}

/// Write `weights` to `path` as JSON.
pub fn save_weights(weights: &Weights, path: impl AsRef<Path>) -> Result<(), TuningError> {
    let path = path.as_ref();
    let json = serde_json::to_string_pretty(weights).map_err(|e| TuningError(e.to_string()))?;
    std::fs::write(path, json).map_err(|e| TuningError(format!("cannot write the weights to {}: {e}", path.display())))
}

/// Read weights [`save_weights`] wrote.
pub fn load_weights(path: impl AsRef<Path>) -> Result<Weights, TuningError> {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path)
        .map_err(|e| TuningError(format!("cannot read the weights file {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| TuningError(format!("the weights file {} is corrupt: {e}", path.display())))
}

/// Weights from examples (see [`Weights::from_examples`]), with the examples
/// the generator cannot make named by their `Debug`.
pub fn tune<G>(
    gen: &G,
    like: impl IntoExamples<G::Value>,
    unlike: impl IntoExamples<G::Value>,
    smoothing: f64,
) -> Result<Weights, TuningError>
where
    G: Gen + ?Sized,
    G::Value: Debug,
{
    let (like, unlike) = (like.into_examples()?, unlike.into_examples()?);
    Weights::from_examples(gen, &like, &unlike, smoothing).map_err(|missing| {
        let name = |list: &str, examples: &[G::Value], i: &usize| format!("{list} #{i}: {:?}", examples[*i]);
        let names: Vec<String> = (missing.like.iter().map(|i| name("like", &like, i)))
            .chain(missing.unlike.iter().map(|i| name("unlike", &unlike, i)))
            .collect();
        TuningError(format!(
            "the generator cannot make these examples, so it cannot be tuned by them: {}",
            names.join("; ")
        ))
    })
}

/// Every choice drawn with tuned weights; see the module docs.
#[derive(Debug, Clone)]
pub struct TunedGuide {
    weights: Weights,
}

impl TunedGuide {
    /// A guide drawing with `weights` (say, loaded with [`load_weights`]).
    pub fn new(weights: Weights) -> Self {
        TunedGuide { weights }
    }

    /// A guide tuned like `like` and unlike `unlike` with [`DEFAULT_SMOOTHING`] (see [`tune`]).
    pub fn from_examples<G>(
        gen: &G,
        like: impl IntoExamples<G::Value>,
        unlike: impl IntoExamples<G::Value>,
    ) -> Result<Self, TuningError>
    where
        G: Gen + ?Sized,
        G::Value: Debug,
    {
        tune(gen, like, unlike, DEFAULT_SMOOTHING).map(TunedGuide::new)
    }

    /// The weights the guide draws with.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }
}

impl Guide for TunedGuide {
    fn name(&self) -> &str {
        "tuned"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        Ok(self.weights.choose(rng, ctx.site, ctx.request))
    }
}

/// `#[property(guide = tuned(...))]`'s options, none set (see [`super`]'s table): `like` or
/// `unlike` (or both) must follow, or `weights` alone.
pub const fn options<V>() -> TunedOptions<V, NoExamples, NoExamples> {
    TunedOptions {
        like: ManuallyDrop::new(NoExamples),
        unlike: ManuallyDrop::new(NoExamples),
        smoothing: None,
        value: PhantomData,
    }
}

/// The options of `guide = tuned(...)`: the examples like and unlike the
/// arguments' values `V` to tune by, each [`NoExamples`] or [`Given`].
/// Only options with examples make a guide.
#[derive(Debug, Clone)]
pub struct TunedOptions<V, L, U> {
    // Held without drop glue, so that the setters are `const fn` whatever
    // the examples' type (options dropped without making a guide leak them).
    like: ManuallyDrop<L>,
    unlike: ManuallyDrop<U>,
    smoothing: Option<f64>,
    value: PhantomData<fn() -> V>,
}

/// No examples given (yet) for `like` or `unlike`.
#[derive(Debug, Clone, Copy)]
pub struct NoExamples;

/// Examples given for `like` or `unlike`.
#[derive(Debug, Clone, Copy)]
pub struct Given<E>(E);

impl<V> IntoExamples<V> for NoExamples {
    fn into_examples(self) -> Result<Vec<V>, TuningError> {
        Ok(Vec::new())
    }
}

impl<V, E: IntoExamples<V>> IntoExamples<V> for Given<E> {
    fn into_examples(self) -> Result<Vec<V>, TuningError> {
        self.0.into_examples()
    }
}

impl<V, U> TunedOptions<V, NoExamples, U> {
    /// `like = EXPR`: values like the ones to generate (anything [`IntoExamples`]).
    pub const fn like<E: IntoExamples<V>>(self, examples: E) -> TunedOptions<V, Given<E>, U> {
        let TunedOptions { like: _, unlike, smoothing, value } = self;
        TunedOptions { like: ManuallyDrop::new(Given(examples)), unlike, smoothing, value }
    }
}

impl<V, L> TunedOptions<V, L, NoExamples> {
    /// `unlike = EXPR`: values unlike the ones to generate (anything [`IntoExamples`]).
    pub const fn unlike<E: IntoExamples<V>>(self, examples: E) -> TunedOptions<V, L, Given<E>> {
        let TunedOptions { like, unlike: _, smoothing, value } = self;
        TunedOptions { like, unlike: ManuallyDrop::new(Given(examples)), smoothing, value }
    }
}

impl<V, L, U> TunedOptions<V, L, U> {
    /// `smoothing = S`: added to every option's count ([`DEFAULT_SMOOTHING`] when not given).
    pub const fn smoothing(mut self, s: f64) -> Self {
        self.smoothing = Some(s);
        self
    }
}

impl<V> TunedOptions<V, NoExamples, NoExamples> {
    /// `weights = "file.json"`: a tuning already made ([`save_weights`]), read from this file
    /// beside `Cargo.toml` when the guide is made.
    pub const fn weights(self, path: &'static str) -> TunedWeights {
        assert!(self.smoothing.is_none(), "`weights` is a tuning already made: give it alone, without `smoothing`");
        TunedWeights { path }
    }
}

/// The options of `guide = tuned(weights = "file.json")`.
#[derive(Debug, Clone, Copy)]
pub struct TunedWeights {
    path: &'static str,
}

super::option_keys!(like, unlike, smoothing, weights);

/// The names `tuned`'s options may use: [`examples_from_dir`], so that
/// `tuned(like = examples_from_dir("dir"))` needs no import.
pub mod names {
    pub use super::examples_from_dir;
}

/// Panics with a tuning's error: a property whose examples cannot tune its
/// generator cannot run as written, and the test says why.
fn tuned_or_panic(weights: Result<Weights, TuningError>) -> TunedGuide {
    match weights {
        Ok(w) => TunedGuide::new(w),
        Err(e) => panic!("{e}"),
    }
}

impl<V: Debug + 'static, L: IntoExamples<V>, U: IntoExamples<V>> TunedOptions<V, L, U> {
    /// The guide tuned to the examples given, for `property`'s generator (a bad example panics, with the
    /// error: the options are read where the property's test begins).
    fn tuned(self, property: super::ForProperty<V>) -> TunedGuide {
        tuned_or_panic(tune(
            &property.gen,
            ManuallyDrop::into_inner(self.like),
            ManuallyDrop::into_inner(self.unlike),
            self.smoothing.unwrap_or(DEFAULT_SMOOTHING),
        ))
    }
}

// Two impls, not one: `tuned` with no examples at all has no `GuideOptions`, so it is a compile error.
impl<V: Debug + 'static, E: IntoExamples<V>, U: IntoExamples<V>> super::GuideOptions<V>
    for TunedOptions<V, Given<E>, U>
{
    type Guide = TunedGuide;
    fn into_guide(self, property: super::ForProperty<V>) -> TunedGuide {
        self.tuned(property)
    }
}

impl<V: Debug + 'static, E: IntoExamples<V>> super::GuideOptions<V> for TunedOptions<V, NoExamples, Given<E>> {
    type Guide = TunedGuide;
    fn into_guide(self, property: super::ForProperty<V>) -> TunedGuide {
        self.tuned(property)
    }
}

impl<V> super::GuideOptions<V> for TunedWeights {
    type Guide = TunedGuide;
    fn into_guide(self, property: super::ForProperty<V>) -> TunedGuide {
        tuned_or_panic(load_weights(format!("{}/{}", property.manifest_dir, self.path)))
    }
}
