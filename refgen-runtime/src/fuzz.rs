//! Fuzz targets: a property run on a fuzzer's bytes, its failures shrunk and remembered.
//!
//! Goldstein's thesis (Ch. 4, "Bringing Fuzzing into Focus") lets an
//! off-the-shelf fuzzer drive a reflective generator: the fuzzer's bytes
//! answer the generator's choices ([`refgen_core::bytes`]), so every input
//! is a value the generator can make, and the property is the fuzz target.
//!
//! [`Fuzzer::run_bytes`] runs one input as a case of the property: the bytes
//! decode into a value, the property runs on it (panics caught, `assume!`
//! honoured), and a failing case is shrunk by reflection like any case of
//! [`Property::check`] and remembered in the regressions directory of the
//! [`Config`]. The property's `#[property]` test (or [`Property::check`]
//! with the same name and directory) replays it first on its next run, so a
//! crash a fuzzer found becomes a failing `cargo test` with the minimal
//! value.
//!
//! [`fuzz_one`] is what a fuzz target calls for each input: it keeps one
//! [`Fuzzer`] per thread and, after a failure is remembered, panics with the
//! report so the fuzzer records the crash. Feed it bytes from a test and it
//! behaves exactly as under a fuzzer.
//!
//! A property is written once: `#[property] pub fn name(..)` in a library
//! defines, beside its `#[test]`, a hidden type `name` whose `name::property()`
//! returns the property and its [`Config`] (the test's own name, regressions
//! directory and guide), and `name::generator()` its arguments' generator.
//! With the cargo feature `libfuzzer`, the macro `refgen_runtime::fuzz_property!`
//! writes the whole libFuzzer (cargo-fuzz) target from it (not a doctest:
//! it is a binary of a cargo-fuzz crate, linked with libFuzzer):
//!
//! ```ignore
//! // fuzz/fuzz_targets/short_lists.rs, in a cargo-fuzz crate that depends on
//! // `refgen` with `features = ["libfuzzer"]`, on libfuzzer-sys (its
//! // `fuzz_target!` names `::libfuzzer_sys`), and on `my_crate`, whose
//! // `properties` module holds `#[property] pub fn short_lists(xs: Vec<u8>) { .. }`.
//! #![no_main]
//! refgen::fuzz_property!(my_crate::properties::short_lists);
//! ```
//!
//! and `cargo +nightly fuzz run short_lists` runs it; a crash lands in the
//! regressions directory `cargo test` of `my_crate` replays. For AFL++ (the
//! `afl` crate, cargo feature `afl`) the target's `main` calls
//! `afl_main(my_crate::properties::short_lists::property)` instead, and
//! `cargo afl build` builds it.
//!
//! [`mutate_bytes`] is a structure-aware mutator (libFuzzer's custom
//! mutator hook, `fuzz_property!(path, mutate)`): it decodes the
//! bytes into their choice tree, applies one of the mutation operators of
//! the `mutate` guide ([`Mutation`]: reroll a choice, swap two subtrees of
//! one site, replace a subtree by a descendant of its site), replays the
//! mutant leniently, and encodes the result, so the mutant is a value the
//! generator makes.
//!
//! [`seed_corpus`] writes values a user writes down into a fuzzer's corpus
//! directory, each reflected into the bytes that decode to it
//! ([`refgen_core::bytes::to_bytes`]), so the fuzzer starts from real,
//! valid inputs rather than from nothing.

use crate::config::Config;
use crate::hashing::fnv1a;
use crate::runner::{Property, Run, RunError};
use rand::Rng;
use refgen_core::bytes::{encode_tree, from_bytes_recorded, to_bytes};
use refgen_core::edit::Mutation;
use refgen_core::gen::Gen;
use refgen_core::interpret::replay_lenient;
use refgen_core::source::rng_from_seed;
use std::any::Any;
use std::cell::RefCell;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// Runs a property on fuzzer inputs, one case per input (see the module docs).
pub struct Fuzzer<V: 'static> {
    /// The run, on boxed values (compiled once, whatever `V`).
    run: Run<crate::runner::property::Erased>,
    regressions: Option<PathBuf>,
    _value: std::marker::PhantomData<fn() -> V>,
}

impl<V: 'static> Fuzzer<V> {
    /// A fuzzer of `property`, named and remembering its failures as `config`
    /// says. Cases run on the calling thread with no time limit (the
    /// fuzzer's own `-timeout` stops a hang), and write no in-flight file
    /// (the fuzzer keeps an input that ends the process itself), no
    /// observations and no HTML report.
    pub fn new(property: &Property<V>, config: &Config) -> Self {
        let mut quiet = config.clone().no_timeout();
        quiet.regressions = None;
        quiet.observability = None;
        quiet.report = None;
        Fuzzer {
            run: Run::new(property.erased(), &quiet, None),
            regressions: config.regressions.clone(),
            _value: std::marker::PhantomData,
        }
    }

    /// Runs the property once, on the value `bytes` decode to. A failure is
    /// shrunk, remembered in the regressions directory, and returned (its
    /// origin [`Origin::Fuzzer`](crate::runner::Origin::Fuzzer)); a value the
    /// property discards passes.
    pub fn run_bytes(&mut self, bytes: &[u8]) -> Result<(), RunError> {
        self.run.fuzz_case(bytes, self.regressions.as_deref())
    }
}

thread_local! {
    /// The fuzzer of [`fuzz_one`] on this thread.
    static FUZZER: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
}

/// What a fuzz target calls for each input: runs the property `make` builds
/// (with its config) on `bytes`, through a [`Fuzzer`] kept on this thread,
/// built by `make` on the first call (and again when a call asks for
/// another value type). On a failure it panics with the report, after the
/// failure was shrunk and remembered, so the fuzzer records a crash.
///
/// # Panics
/// When the property fails on the value `bytes` decode to.
pub fn fuzz_one<V: 'static>(make: impl FnOnce() -> (Property<V>, Config), bytes: &[u8]) {
    let result = FUZZER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if !slot.as_ref().is_some_and(|f| f.is::<Fuzzer<V>>()) {
            let (property, config) = make();
            *slot = Some(Box::new(Fuzzer::new(&property, &config)));
        }
        let fuzzer =
            slot.as_mut().and_then(|f| f.downcast_mut::<Fuzzer<V>>()).expect("a fuzzer of this type was just made");
        fuzzer.run_bytes(bytes)
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// Why [`seed_corpus`] could not seed a corpus.
#[derive(Debug)]
pub enum SeedError {
    /// The value at this index is not one the generator can make.
    NotInRange(usize),
    /// The corpus directory or a file in it could not be written.
    Io(PathBuf, io::Error),
}

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeedError::NotInRange(i) => {
                write!(f, "value #{i} is not one the generator can make, so no bytes decode to it")
            }
            SeedError::Io(path, e) => write!(f, "cannot write the corpus file {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for SeedError {}

/// Writes each of `values` into the corpus directory `dir` (made when
/// missing) as one file holding the bytes that decode to it, named
/// `seed-<hash of the bytes>` so a value written twice is one file. Returns
/// the files' paths, in the order of `values`. Nothing is written when a
/// value is not one the generator can make.
pub fn seed_corpus<'v, G>(
    g: &G,
    values: impl IntoIterator<Item = &'v G::Value>,
    dir: &Path,
) -> Result<Vec<PathBuf>, SeedError>
where
    G: Gen + ?Sized,
    G::Value: 'v,
{
    let encoded = values
        .into_iter()
        .enumerate()
        .map(|(i, v)| to_bytes(g, v).map_err(|_| SeedError::NotInRange(i)))
        .collect::<Result<Vec<_>, _>>()?;
    std::fs::create_dir_all(dir).map_err(|e| SeedError::Io(dir.to_owned(), e))?;
    encoded
        .into_iter()
        .map(|bytes| {
            let path = dir.join(format!("seed-{:016x}", fnv1a(&bytes)));
            std::fs::write(&path, &bytes).map_err(|e| SeedError::Io(path.clone(), e))?;
            Ok(path)
        })
        .collect()
}

/// A structure-aware mutant of the input `bytes` (see the module docs):
/// the bytes decoded into their choice tree, one operator of
/// [`Mutation::ALL`] drawn by `seed` and applied (a reroll when the drawn one
/// has nothing to act on), the mutant replayed leniently, and the choices it
/// made encoded again. `None` when the input makes no value, no operator
/// applies, or the generator's validity condition rejects the mutant.
pub fn mutate_bytes<G: Gen + ?Sized>(g: &G, bytes: &[u8], seed: u64) -> Option<Vec<u8>> {
    let (value, tree) = from_bytes_recorded(g, bytes);
    value.ok()?;
    let mut rng = rng_from_seed(seed);
    let op = Mutation::ALL[rng.random_range(0..Mutation::ALL.len())];
    let (_, mutant) = op.mutant(&tree, &mut rng)?;
    let (value, used) = replay_lenient(g, &mutant, rng.random());
    value.ok()?;
    encode_tree(g, &used).ok()
}

/// What a libFuzzer custom mutator calls: writes into `data` (whose first
/// `size` bytes are the input, and which holds `max_size`) a structure-aware
/// mutant ([`mutate_bytes`]) of the generator `make` builds, and returns its
/// length; `None` when there is no mutant that fits, so the caller falls back
/// to the fuzzer's own mutation.
pub fn mutate_into<G: Gen>(
    make: impl FnOnce() -> G,
    data: &mut [u8],
    size: usize,
    max_size: usize,
    seed: u32,
) -> Option<usize> {
    let input = data.get(..size)?;
    let mutant = mutate_bytes(&make(), input, u64::from(seed))?;
    let n = mutant.len();
    (n <= max_size.min(data.len())).then(|| {
        data[..n].copy_from_slice(&mutant);
        n
    })
}

/// The libFuzzer crate the [`fuzz_property!`](crate::fuzz_property) macro expands to.
#[cfg(feature = "libfuzzer")]
pub use libfuzzer_sys;

/// A libFuzzer (cargo-fuzz) target over a property, in one line; needs the
/// cargo feature `libfuzzer`, and the target crate depends on
/// `libfuzzer-sys` too (its macros name it; see the module docs).
///
/// - `fuzz_property!(path::to::name)`: the property `#[property] fn name`
///   defines (it must be reachable from the fuzz crate: `pub`, in a library,
///   not under `cfg(test)`). Every input runs through [`fuzz_one`] with the
///   property's own config, so a crash is remembered where its test replays it.
/// - `fuzz_property!(path::to::name, mutate)` adds the structure-aware custom
///   mutator (`libfuzzer_sys::fuzz_mutator!`) over the property's generator.
/// - `fuzz_property!(make = EXPR)`, where `EXPR` is a function or closure
///   returning a [`Property`] and its [`Config`], for a property built by hand;
///   `fuzz_property!(make = EXPR, mutate = GEN)` adds the mutator over the
///   generator `GEN()` builds.
///
/// With a mutator, every other call mutates by [`mutate_into`], the others
/// (and those with no mutant) by libFuzzer's own mutation.
#[cfg(feature = "libfuzzer")]
#[macro_export]
macro_rules! fuzz_property {
    (make = $make:expr) => {
        $crate::fuzz::libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
            $crate::fuzz::fuzz_one($make, bytes);
        });
    };
    (make = $make:expr, mutate = $gen:expr) => {
        $crate::fuzz_property!(make = $make);
        $crate::fuzz::libfuzzer_sys::fuzz_mutator!(|data: &mut [u8], size: usize, max_size: usize, seed: u32| {
            let mutated =
                if seed % 2 == 0 { $crate::fuzz::mutate_into($gen, data, size, max_size, seed) } else { None };
            mutated.unwrap_or_else(|| $crate::fuzz::libfuzzer_sys::fuzzer_mutate(data, size, max_size))
        });
    };
    ($($name:ident)::+) => {
        $crate::fuzz_property!(make = $($name)::+::property);
    };
    ($($name:ident)::+, mutate) => {
        $crate::fuzz_property!(make = $($name)::+::property, mutate = $($name)::+::generator);
    };
}

/// An AFL++ target over a property, the counterpart of [`fuzz_property!`](crate::fuzz_property)
/// for the `afl` crate (cargo feature `afl`): the whole `main` of a binary
/// built with `cargo afl build`. `make` returns the property and its config,
/// such as `path::to::name::property` for a `#[property] fn name` (not a
/// doctest: it is the `main` of a binary built by `cargo afl build`):
///
/// ```ignore
/// fn main() {
///     refgen::fuzz::afl_main(my_crate::properties::bst_delete::property);
/// }
/// ```
///
/// Each input AFL++ gives (in persistent mode, many per process) runs
/// through [`fuzz_one`]; a failure is shrunk and remembered, and then the
/// process aborts, which AFL++ records as a crash. The property's own panics
/// while it is shrunk are caught by the runner, so AFL++'s
/// abort-on-every-panic hook is left out.
#[cfg(feature = "afl")]
pub fn afl_main<V: 'static>(make: impl Fn() -> (Property<V>, Config) + std::panic::RefUnwindSafe) {
    afl::fuzz(false, |bytes| fuzz_one(&make, bytes));
}
