//! Generators that take arguments: one body, run under the arguments its caller gives.
//!
//! A derived type may take arguments (`#[reflect(args(lo: i32, hi: i32))]`):
//! bounds, a height, a colour, anything its fields' attributes name. Its
//! generator is then one body, a [`GenWith`], run under whatever arguments a
//! caller gives: [`ReflectiveWith::generator_with`] pairs the body with the
//! arguments as a [`WithArgs`], an ordinary [`Gen`] that every interpretation
//! accepts. Backward, a value is held to the same arguments: `check` is
//! false on a value the body cannot make under them.
//!
//! Written by hand, a body is any [`GenWith`]; the derive's documentation
//! (`refgen::Reflective`, "Arguments") shows the attributes that write one.
//!
//! ```
//! use refgen::combinators::int;
//! use refgen::args::{GenWith, WithArgs, ReflectiveWith};
//! use refgen::{interpret, DetRng, Gen, Source, Stop, Way};
//! use std::rc::Rc;
//!
//! /// A number in `lo..=hi`.
//! #[derive(Debug, Clone, PartialEq)]
//! struct Between(u8);
//!
//! struct Body;
//! impl GenWith<(u8, u8)> for Body {
//!     type Value = Between;
//!     fn run_with(&self, &(lo, hi): &(u8, u8), src: &mut dyn Source) -> Result<Between, Stop> {
//!         int(lo..=hi).run(src).map(Between)
//!     }
//!     fn run_rng_with(&self, &(lo, hi): &(u8, u8), rng: &mut DetRng) -> Result<Between, Stop> {
//!         int(lo..=hi).run_rng(rng).map(Between)
//!     }
//!     fn back_with(&self, &(lo, hi): &(u8, u8), b: &Between) -> Vec<Way> {
//!         int(lo..=hi).back(&b.0)
//!     }
//! }
//! impl ReflectiveWith for Between {
//!     type Args = (u8, u8);
//!     fn generator_with(args: (u8, u8)) -> WithArgs<Self> {
//!         WithArgs::new(Rc::new(Body), args)
//!     }
//! }
//!
//! let g = Between::generator_with((3, 5));
//! assert!((3..=5).contains(&interpret::generate(&g, 1).unwrap().0));
//! assert!(!interpret::check(&g, &Between(9)));
//! ```

use crate::gen::{Gen, Way};
use crate::source::{DetRng, Source, Stop};
use std::rc::Rc;

/// A generator body that takes arguments `A`: forward and backward, both
/// under the arguments given. What `#[derive(Reflective)]` writes for a type
/// with `#[reflect(args(...))]`; [`WithArgs`] makes it a [`Gen`].
pub trait GenWith<A> {
    /// The type of the values generated.
    type Value;

    /// The forward direction under `args`, asking `src` at each choice point.
    fn run_with(&self, args: &A, src: &mut dyn Source) -> Result<Self::Value, Stop>;

    /// Plain generation under `args`: what [`GenWith::run_with`] gives with
    /// an RNG source over `rng`, without a dynamic call per choice.
    fn run_rng_with(&self, args: &A, rng: &mut DetRng) -> Result<Self::Value, Stop>;

    /// Every way the body makes exactly `target` under `args` (none when it
    /// cannot: a value outside the arguments).
    fn back_with(&self, args: &A, target: &Self::Value) -> Vec<Way>;
}

/// The body of a type's generator that takes arguments, shared.
pub type BoxGenWith<A, T> = Rc<dyn GenWith<A, Value = T>>;

/// A type whose generator takes arguments: derive it with
/// `#[derive(Reflective)]` and `#[reflect(args(name: Type, ...))]`.
///
/// A field of such a type names the arguments it is made with,
/// `#[choice(args(expr, ...))]` (through `Box`, and `each(args(...))` /
/// `some(args(...))` for elements of a `Vec` or an `Option`). When every
/// argument has a default or a range (`args(lo: i32 = 0, h: u8 in 0..=4)`),
/// the type is [`crate::Reflective`] as well.
#[diagnostic::on_unimplemented(
    message = "`{Self}` takes no arguments",
    label = "`args(...)` given to a type without `#[reflect(args(...))]`",
    note = "a derived type takes arguments when it declares them: `#[reflect(args(lo: i32, hi: i32))]`"
)]
pub trait ReflectiveWith: Sized + 'static {
    /// The arguments: the one declared type, or a tuple of several.
    type Args: Clone + 'static;

    /// The type's generator under `args`.
    fn generator_with(args: Self::Args) -> WithArgs<Self>;
}

/// A [`ReflectiveWith`] type's generator body with its arguments: a [`Gen`].
pub struct WithArgs<T: ReflectiveWith> {
    body: BoxGenWith<T::Args, T>,
    args: T::Args,
}

impl<T: ReflectiveWith> WithArgs<T> {
    /// The body `body` under `args`.
    pub fn new(body: BoxGenWith<T::Args, T>, args: T::Args) -> Self {
        WithArgs { body, args }
    }

    /// The arguments.
    pub fn args(&self) -> &T::Args {
        &self.args
    }
}

impl<T: ReflectiveWith> Clone for WithArgs<T> {
    fn clone(&self) -> Self {
        WithArgs { body: Rc::clone(&self.body), args: self.args.clone() }
    }
}

impl<T: ReflectiveWith> Gen for WithArgs<T> {
    type Value = T;

    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        self.body.run_with(&self.args, src)
    }

    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        self.body.run_rng_with(&self.args, rng)
    }

    fn back(&self, target: &T) -> Vec<Way> {
        self.body.back_with(&self.args, target)
    }
}
