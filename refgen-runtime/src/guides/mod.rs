//! The strategies that answer a generator's choices, one module each (see [`crate::guide`]).
//!
//! # The guide table
//!
//! This is the one table of the guides and of what `#[property(guide = ...)]` accepts; the
//! other docs link here. `guide = name` is the guide with its defaults, `guide = name(k = v, ...)`
//! sets options, and any other expression whose value implements `Guide` is used as it is
//! (`guide = MyGuide::default()`, `guide = DistinctGuide::cover()`).
//!
//! | `guide =` | what it does | options, `key = value` (default) | module |
//! |---|---|---|---|
//! | `auto` (the default) | random generation; from the first case that reports a utility (`maximize!` / `minimize!`), most cases go to `sa` (while it keeps up with random generation's best; random generation keeps at least 1/16), once at least 20 cases ran and their retrying `#[assume]`s made more than one failed attempt per case, to `mutate` with half the work fresh, and once more than half of them were discarded, to `rl` (the switch is shown in the statistics and failure reports) | none | [`auto`] |
//! | `random` | plain random generation, honouring the generator's weights | none | [`random`] |
//! | `rl` | RLCheck: Monte Carlo Control per choice point, rewarded for valid new values | `explore = paper` \| `forget` \| `bonus` \| `softmax` \| `diverse` (`paper`; `diverse` also sets ε = 0.05), `epsilon = E` (0.25), `window = N` (4), `abstraction = Sequence` \| `Tree` \| `TreeLR` (`TreeLR`), `prior = weights` \| `uniform` (`weights`: the policy starts as the generator's distribution; `uniform` is RLCheck's start), `grow = P` (0.5) | [`rl`] |
//! | `cgs` | Choice Gradient Sampling: each option's derivative sampled to steer toward valid values | `samples = N` (50, at least 1), `grow = P` (0.5) | [`cgs`] |
//! | `sa` | targeted: simulated annealing on `maximize!` / `minimize!` | `steps = N` (the run's cases, at most 10 000), `initial_temp = T` (1), `restart_after = N` (never), `max_retries = N` (50), `neighbour = f` (from the choice trees; `f: fn(&V, f64, &mut DetRng) -> V` over the arguments' value), `grow = P` (0.5) | [`sa`] |
//! | `tuned(...)` | generation tuned by examples: weights by site and label from values like (or unlike) yours | `like = EXPR`, `unlike = EXPR` (at least one; each gives values of the arguments' type: an array, a `Vec`, `examples_from_dir("dir")`), `smoothing = S` (0.1); or `weights = "file.json"` alone (a saved tuning, beside `Cargo.toml`) | [`tuned`] |
//! | `mutate` | validity-preserving mutation and splicing of a corpus of interesting cases | `corpus = N` (256), `fresh = P` (0.1, the share of the work), `splice = P` (0.5), `graft = P` (0.25), `rotate = P` (0.5; of the cases neither fresh nor grafted), `restart_every = N` (5,000 cases, the unit of Luby's periods between restarts; 0 never), `restart_luby = false` (every `N` cases), `operators = [reroll, swap, shrink]` (all three) | [`mutate`] |
//! | `DistinctGuide::...` (or `#[property(distinct = N)]`) | a set of pairwise different inputs first (one per pick pattern, or all different values), then random | constructors: `cover()`, `cover_regex()`, `all_different()`, `new(gen, difference)` | [`distinct`] |
//!
//! **`grow = P`.** `rl`, `cgs` and `sa` run as their papers have them until
//! their retrying `#[assume]`s make more than one failed attempt per case;
//! from then on mutation with splicing and grafting makes the share `P` of
//! the work and grows valid values from the valid parts of every case, as the
//! default guide does after its switch ([`grow`]). `grow = 0` is the guide
//! alone. A validity condition that discards instead never makes the switch.
//!
//! # How `#[property]` reads a guide's options
//!
//! The macro knows no guide: it writes `guide = name(k1 = v1, k2 = v2)` as
//! `name::options::<V>().k1(v1).k2(v2)` (with `name` a module of this one and
//! `V` the arguments' value, a tuple with several), and makes the guide with
//! [`GuideOptions::into_guide`]. Each value is read with
//! the guide's `name::names::*` in scope, so `explore = diverse` is
//! `rl::names::diverse`, and a name the guide does not have is the user's own
//! (`neighbour = my_function`). When every value is a literal, a name or an
//! array of them, the options are built in a `const` block, so a setter's
//! `assert!` rejects a bad value at compile time (a `static` given by name is
//! then written `{ MY_STATIC }`). A guide therefore owns and
//! checks its options, and a new option is a field and a setter of the
//! guide's configuration, in the guide's own module:
//! - one options type, the guide's configuration (`rl::RlConfig`,
//!   `cgs::CgsConfig`, `mutate::MutateConfig`, `auto::AutoConfig`; `random`'s
//!   is the guide itself), which `XGuide::new` takes too: its setters, one per
//!   key and `const fn` when their values can be constants, set the options;
//!   `sa::SaOptions` adds `neighbour`, whose function names the arguments'
//!   type, to an `SaConfig`, and `tuned`'s options carry its examples;
//! - `pub const fn options<V>()`, that type's defaults for arguments of
//!   type `V`;
//! - `pub mod names`, the names its options' values may use (possibly none);
//! - its keys, listed once with `option_keys!` (a key missing there is refused);
//! - an impl of [`GuideOptions`] for that type.
//!
//! A wrong key is a compile error at the key (no field of that name in the
//! guide's `Options`, with the list of the keys it takes), a
//! wrong value one at the value (a type mismatch, a name not found, or the
//! setter's own message).

use crate::guide::Guide;
use rand::Rng;

/// The keys a guide's `name(key = value, ...)` takes, written once beside its `options`: a struct
/// `Options` with one field per key, and `OPTIONS`, a value of it. `#[property]` reads each key given
/// as a field of `OPTIONS`, so a key the guide does not take is rustc's error at the key ("no field
/// `temperature` on type `...::rl::Options`"), which lists the keys it takes.
macro_rules! option_keys {
    ($($key:ident),* $(,)?) => {
        /// The keys of this guide's options in `#[property(guide = ...)]`, as fields.
        #[doc(hidden)]
        #[allow(missing_docs)] // each field is a key, documented at its setter
        pub struct Options {
            $(pub $key: (),)*
        }
        /// [`Options`], every key set.
        #[doc(hidden)]
        pub const OPTIONS: Options = Options { $($key: (),)* };
    };
}
pub(crate) use option_keys;
use refgen_core::gen::BoxGen;
use refgen_core::source::DetRng;

pub mod auto;
pub mod cgs;
pub mod distinct;
pub mod grow;
pub mod mutate;
pub mod random;
pub mod rl;
pub mod sa;
pub mod switch;
pub mod tuned;

/// The old path of [`mutate::shape`], kept for code written before it moved under [`mutate`].
pub use mutate::shape;

pub use auto::{AutoConfig, AutoGuide};
pub use cgs::{CgsConfig, CgsGuide};
pub use distinct::DistinctGuide;
pub use grow::Growing;
pub use mutate::{MutateConfig, MutateGuide};
pub use random::RandomGuide;
pub use rl::{RlConfig, RlGuide};
pub use sa::{SaConfig, SaGuide};
pub use tuned::TunedGuide;

/// A guide's options, as `#[property(guide = name(k = v, ...))]` writes
/// them: they make the guide for a property whose arguments have type `V`
/// (see the module docs).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot make a guide for arguments of type `{V}`",
    label = "these options are not complete, or not for this type",
    note = "the guide's `options()` docs, linked from `refgen::guides`, say which options it needs"
)]
pub trait GuideOptions<V> {
    /// The guide the options make.
    type Guide: Guide + 'static;

    /// The guide, for the property `property` says.
    fn into_guide(self, property: ForProperty<V>) -> Self::Guide;
}

/// [`GuideOptions::into_guide`], boxed, as `#[property]` calls it (with
/// `Config::boxed_guide`): options that make no guide are then one error,
/// at the options, not a second one where the guide is used.
#[doc(hidden)]
pub fn guide_from<V, O: GuideOptions<V>>(options: O, property: ForProperty<V>) -> Box<dyn Guide> {
    Box::new(options.into_guide(property))
}

/// What a guide's options may need to know of the property they guide.
pub struct ForProperty<V> {
    /// The generator of the property's arguments (a tuple's, with several).
    pub gen: BoxGen<V>,
    /// The directory of the property's `Cargo.toml`, which relative file names start from.
    pub manifest_dir: &'static str,
}

/// An index drawn with probability `weight / total`, for the guides that weigh their options in floats.
pub(crate) fn weighted_draw(weights: impl Iterator<Item = f64>, total: f64, rng: &mut DetRng) -> usize {
    let mut draw = rng.random::<f64>() * total;
    let mut last = 0;
    for (i, w) in weights.enumerate() {
        if w > 0.0 {
            if draw < w {
                return i;
            }
            draw -= w;
            last = i;
        }
    }
    last
}

#[cfg(test)]
mod tests {
    //! Each option `#[property(guide = ...)]` writes sets the field of the guide's configuration it names.
    use super::*;
    use refgen_core::combinators::int;
    use refgen_core::edit::Mutation;

    fn property() -> ForProperty<u8> {
        ForProperty { gen: crate::__private::argument::<u8, _>(int(0u8..=9)), manifest_dir: env!("CARGO_MANIFEST_DIR") }
    }

    #[test]
    fn options_are_the_configurations_defaults() {
        assert_eq!(rl::options::<u8>(), RlConfig::default());
        assert_eq!(cgs::options::<u8>(), CgsConfig::default());
        assert_eq!(sa::options::<u8>().config(), SaConfig::default());
        assert_eq!(mutate::options::<u8>(), MutateConfig::default());
        assert_eq!(auto::options::<u8>(), AutoConfig::default());
        assert_eq!(&mutate::options::<u8>().operators[..], &Mutation::ALL[..]);
    }

    #[test]
    fn rl_diverse_brings_its_epsilon_unless_one_is_given() {
        use rl::names::*;
        let o = || rl::options::<u8>();
        assert_eq!(o().explore(diverse).epsilon, 0.05);
        assert_eq!(o().explore(diverse).window(3), RlConfig::diverse().window(3));
        // `diverse`'s ε is a default: an `epsilon` given before or after it wins.
        assert_eq!(o().epsilon(0.1).explore(diverse).epsilon, 0.1);
        assert_eq!(o().explore(diverse).epsilon(0.1).epsilon, 0.1);
        assert_eq!(o().explore(diverse).explore(paper).epsilon, 0.25);
        let set = o().explore(forget).epsilon(0.1).abstraction(Sequence).prior(uniform);
        assert_eq!(
            (set.explore, set.epsilon, set.abstraction, set.prior),
            (rl::Explore::FORGET, 0.1, rl::Abstraction::Sequence, rl::Prior::Uniform)
        );
    }

    #[test]
    fn rl_cgs_and_sa_grow_by_default_and_grow_0_is_the_guide_alone() {
        let names = |g: Growing| (g.name().to_owned(), g.share(), g.inner().name().to_owned());
        assert_eq!(names(rl::options::<u8>().into_guide(property())), ("rl".into(), 0.5, "rl".into()));
        assert_eq!(
            names(rl::options::<u8>().grow(0.0).into_guide(property())),
            ("rl(grow = 0)".into(), 0.0, "rl".into())
        );
        assert_eq!(
            names(cgs::options::<u8>().grow(0.25).into_guide(property())),
            ("cgs(grow = 0.25)".into(), 0.25, "cgs".into())
        );
        assert_eq!(names(sa::options().into_guide(property())), ("sa".into(), 0.5, "sa".into()));
    }

    #[test]
    fn cgs_sa_and_mutate_options_set_the_fields_they_name() {
        assert_eq!(cgs::options::<u8>().samples(10).samples, 10);

        let sa = sa::options::<u8>().steps(2000).restart_after(300).initial_temp(0.8).max_retries(0).grow(0.25);
        assert_eq!(
            sa.config(),
            SaConfig { steps: Some(2000), restart_after: Some(300), initial_temp: 0.8, max_retries: 1, grow: 0.25 }
        );

        use mutate::names::*;
        let m = mutate::options::<u8>()
            .corpus(8)
            .fresh(0.5)
            .splice(0.25)
            .graft(0.5)
            .rotate(0.75)
            .restart_every(0)
            .restart_luby(false)
            .operators([shrink, reroll]);
        assert_eq!(
            (m.corpus_size, m.fresh, m.splice, m.graft, m.rotate, m.restart_every, m.restart_luby),
            (8, 0.5, 0.25, 0.5, 0.75, 0, false)
        );
        assert_eq!(&m.operators[..], &[Mutation::Shrink, Mutation::Reroll]);
        assert_eq!(m.operators([reroll, swap]).operators([shrink]), m.operators([shrink]));
    }
}
