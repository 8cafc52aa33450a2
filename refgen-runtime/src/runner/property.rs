//! The property builder (data only): a generator, a test, how to show and key values, examples.

use super::report::Failure;
use crate::case::IntoOutcome;
use crate::hashing::value_key;
use refgen_core::gen::{BoxGen, Gen, Way};
use refgen_core::parse_tree;
use refgen_core::source::{DetRng, Source, Stop};
use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

type GenFn<V> = dyn Fn() -> BoxGen<V> + Send + Sync;
type TestFn<V> = dyn Fn(V) -> Result<(), String> + Send + Sync;
type DescribeFn<V> = dyn Fn(&V) -> Vec<(String, String)> + Send + Sync;
type ExampleFn<V> = dyn Fn() -> V + Send + Sync;
type KeyFn<V> = dyn Fn(&V) -> u64 + Send + Sync;

/// A property: a generator of inputs and a test over them.
pub struct Property<V> {
    pub(crate) gen: Arc<GenFn<V>>,
    pub(super) test: Arc<TestFn<V>>,
    pub(super) describe: Arc<DescribeFn<V>>,
    /// The key of a value, for novelty ([`crate::hashing::value_key`]).
    pub(super) key: Arc<KeyFn<V>>,
    pub(super) examples: Vec<Arc<ExampleFn<V>>>,
    /// The name of the value type (`V`, before its values were boxed): what a replay token is stamped with.
    pub(super) type_name: &'static str,
}

impl<V> Clone for Property<V> {
    fn clone(&self) -> Self {
        Property {
            gen: self.gen.clone(),
            test: self.test.clone(),
            describe: self.describe.clone(),
            key: self.key.clone(),
            examples: self.examples.clone(),
            type_name: self.type_name,
        }
    }
}

impl<V: Debug + 'static> Property<V> {
    /// The property that `test` holds for every value `gen()` makes. `gen`
    /// is called once on each thread that runs cases; `test` returns `()`,
    /// `bool` or a `Result` (see [`IntoOutcome`]).
    ///
    /// ```
    /// use refgen::combinators::{int, vec};
    /// use refgen::{config::Config, runner::Property};
    ///
    /// let p = Property::new(|| vec(int(0u8..=9), 0..=5), |xs: Vec<u8>| xs.len() <= 5);
    /// let report = p.check(&Config::new("doc").cases(50)).unwrap();
    /// assert_eq!(report.cases, 50);
    /// ```
    pub fn new<G, R>(gen: impl Fn() -> G + Send + Sync + 'static, test: impl Fn(V) -> R + Send + Sync + 'static) -> Self
    where
        G: Gen<Value = V> + 'static,
        R: IntoOutcome,
    {
        Property {
            gen: Arc::new(move || std::rc::Rc::new(gen()) as BoxGen<V>),
            test: Arc::new(move |v| test(v).into_outcome()),
            describe: Arc::new(|v: &V| vec![("value".to_owned(), format!("{v:?}"))]),
            key: Arc::new(|v: &V| value_key(v)),
            examples: Vec::new(),
            type_name: std::any::type_name::<V>(),
        }
    }
}

impl<V: 'static> Property<V> {
    /// Describe a value as named arguments, for reports (the default is one
    /// argument called `value`, its `Debug`).
    pub fn describe(mut self, describe: impl Fn(&V) -> Vec<(String, String)> + Send + Sync + 'static) -> Self {
        self.describe = Arc::new(describe);
        self
    }

    /// Say when two values count as the same for novelty (what a guide is
    /// told is new, such as RLCheck's reward for a new value): values with the
    /// same key are the same. The default keys a value by its `Debug` text
    /// ([`crate::hashing::value_key`]); a state machine keys a command
    /// sequence by the model state it reaches.
    pub fn key(mut self, key: impl Fn(&V) -> u64 + Send + Sync + 'static) -> Self {
        self.key = Arc::new(key);
        self
    }

    /// Run the value `make` returns before any generated case. It is
    /// reflected into its choices, so if it fails it is shrunk like any case;
    /// a value the generator cannot make is reported as an error.
    pub fn example(mut self, make: impl Fn() -> V + Send + Sync + 'static) -> Self {
        self.examples.push(Arc::new(make));
        self
    }

    /// The failing value of `failure` (a failure of this property), typed:
    /// the value its shrunk choices make, made again by parsing them with
    /// the property's generator. `None` when they make no value (the
    /// generator panicked on them, or the failure is of another property).
    ///
    /// ```
    /// use refgen::combinators::{int, vec};
    /// use refgen::{config::Config, runner::{Property, RunError}};
    ///
    /// let p = Property::new(|| vec(int(0u32..=1000), 0..=9), |xs: Vec<u32>| xs.iter().all(|&x| x < 500));
    /// let Err(RunError::Failed(f)) = p.check(&Config::new("doc").seed(1)) else { panic!() };
    /// assert_eq!(p.value_of(&f), Some(vec![500]));
    /// assert!(f.tests >= 1 && f.shrink.attempts >= 1);
    /// ```
    pub fn value_of(&self, failure: &Failure) -> Option<V> {
        let tree = &failure.tree;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parse_tree(&(self.gen)(), tree).ok())).ok().flatten()
    }
}

/// A value of any property, boxed: what the runner runs on, so that it is compiled once, in this
/// crate, rather than once per property's argument type in each test crate.
pub(crate) type Erased = Box<dyn Any>;

/// A property's generator with its values boxed ([`Erased`]); backward, a value of another type has no way.
struct ErasedGen<V>(BoxGen<V>);

impl<V: 'static> Gen for ErasedGen<V> {
    type Value = Erased;

    #[inline]
    fn run(&self, src: &mut dyn Source) -> Result<Erased, Stop> {
        self.0.run(src).map(|v| Box::new(v) as Erased)
    }

    #[inline]
    fn run_rng(&self, rng: &mut DetRng) -> Result<Erased, Stop> {
        self.0.run_rng(rng).map(|v| Box::new(v) as Erased)
    }

    fn back(&self, target: &Erased) -> Vec<Way> {
        target.downcast_ref::<V>().map_or_else(Vec::new, |v| self.0.back(v))
    }
}

/// The value a boxed one holds: the runner hands each function of a property the values its own
/// generator made, so the type always matches.
fn unbox<V: 'static>(v: &Erased) -> &V {
    v.downcast_ref::<V>().expect("a property's functions see the values of its own generator")
}

impl<V: 'static> Property<V> {
    /// The same property over boxed values (see [`Erased`]).
    pub(crate) fn erased(&self) -> Property<Erased> {
        let (gen, test, describe, key) = (self.gen.clone(), self.test.clone(), self.describe.clone(), self.key.clone());
        Property {
            gen: Arc::new(move || std::rc::Rc::new(ErasedGen(gen())) as BoxGen<Erased>),
            test: Arc::new(move |v: Erased| match v.downcast::<V>() {
                Ok(v) => test(*v),
                Err(_) => unreachable!("a property's test sees the values of its own generator"),
            }),
            describe: Arc::new(move |v: &Erased| describe(unbox::<V>(v))),
            key: Arc::new(move |v: &Erased| key(unbox::<V>(v))),
            examples: self
                .examples
                .iter()
                .map(|e| {
                    let e = e.clone();
                    Arc::new(move || Box::new(e()) as Erased) as Arc<ExampleFn<Erased>>
                })
                .collect(),
            type_name: self.type_name,
        }
    }
}

/// The generator of one argument of a `#[property]`, from a `#[gen(EXPR)]`
/// attribute: any generator of the argument's type, boxed.
pub fn argument<T, G: Gen<Value = T> + 'static>(gen: G) -> BoxGen<T> {
    std::rc::Rc::new(gen)
}

/// Compiles only when `T` is `Debug`: `#[property]` checks each argument's type with it.
#[doc(hidden)]
pub fn argument_is_debug<T: Debug>() {}

/// Compiles only when `R` is a property outcome: `#[property]` checks the return type with it.
#[doc(hidden)]
pub fn returns_outcome<R: IntoOutcome>() {}
