//! The `Reflective` trait: a type's own generator, with implementations for standard types.
//!
//! Implemented for: every primitive integer ([`crate::combinators::integer`]:
//! 0, ±1, `MIN`, `MAX` and small values often), `NonZero` integers (the
//! same without 0, never made), `f32`/`f64`
//! ([`crate::combinators::float`]), `bool`, `char`
//! ([`crate::combinators::char()`]: mostly printable ASCII, whitespace and
//! control characters common, the rest of Unicode present), `()`, `String`,
//! `Box<str>`, `Cow<'static, B>` (owned), `PathBuf` (relative, one to three
//! short components), `Duration`, `SystemTime` (from the Unix epoch to
//! 2100), `PhantomData<T>`, `Option`, `Box`, `Rc`,
//! `Arc`, `Vec`, `VecDeque`, `BTreeSet`, `HashSet`, `BTreeMap`, `HashMap`,
//! `BinaryHeap`, `LinkedList` (of default length: short most often, up to
//! the largest size at times, see [`crate::combinators::sizes`]), arrays
//! and tuples up to eight; and `Result`, `Ordering`, `IpAddr`, `Ipv4Addr`,
//! `Ipv6Addr`, `SocketAddr` (and its `V4`, `V6`), `Range`, `RangeInclusive`
//! (any two ends: empty and reversed ranges too), `Wrapping`, `Saturating`,
//! `Reverse` and `OsString`, each by a map of the generators here (an
//! address as its integer, so its edge values come up). Behind features of
//! their crates' names: `chrono`'s dates and times, `uuid::Uuid` and
//! `serde_json::Value` (each favouring its edge values).

use crate::combinators::{
    bool as bool_gen, char as char_gen, float, integer, nonzero_integer, option, pure, sized_string, sized_vec, vec,
};
use crate::gen::{BoxGen, Gen};
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::hash::Hash;
use std::rc::Rc;
use std::sync::Arc;

/// The longest collection the standard implementations generated before
/// default lengths had sizes; they now reach the largest size
/// ([`crate::combinators::sizes`]). Write `len = 0..=8` for the old range.
#[deprecated(
    note = "default lengths now reach the largest size (refgen_core::combinators::sizes); write `0..=8` for the old range"
)]
pub const DEFAULT_MAX_LEN: usize = 8;

/// A type with its own reflective generator, written once and used by every
/// interpretation. Derive it with `#[derive(Reflective)]`, or implement it
/// by returning a generator built from [`crate::combinators`].
pub trait Reflective: Sized + 'static {
    /// The type's generator.
    fn generator() -> BoxGen<Self>;

    /// The parts of the type an override at the use site may replace (see
    /// [`crate::combinators::overriding`]): listed by the derive, none otherwise.
    #[doc(hidden)]
    fn __overridable() -> Vec<crate::overrides::Overridable> {
        Vec::new()
    }
}

macro_rules! reflective_int {
    ($($t:ty),*) => {$(
        impl Reflective for $t {
            fn generator() -> BoxGen<Self> {
                integer::<$t>(stringify!($t)).boxed()
            }
        }
    )*};
}
reflective_int!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl Reflective for f64 {
    fn generator() -> BoxGen<Self> {
        float::<f64>().boxed()
    }
}

impl Reflective for f32 {
    fn generator() -> BoxGen<Self> {
        float::<f32>().boxed()
    }
}

impl Reflective for bool {
    fn generator() -> BoxGen<Self> {
        bool_gen().boxed()
    }
}

impl Reflective for char {
    fn generator() -> BoxGen<Self> {
        char_gen().boxed()
    }
}

impl Reflective for () {
    fn generator() -> BoxGen<Self> {
        pure(()).boxed()
    }
}

impl Reflective for String {
    fn generator() -> BoxGen<Self> {
        sized_string(char_gen()).boxed()
    }
}

impl<T: Reflective> Reflective for Vec<T>
where
    T: Clone,
{
    fn generator() -> BoxGen<Self> {
        sized_vec(T::generator()).boxed()
    }
}

impl<T: ?Sized + 'static> Reflective for std::marker::PhantomData<T> {
    fn generator() -> BoxGen<Self> {
        pure(std::marker::PhantomData).boxed()
    }
}

impl<B> Reflective for std::borrow::Cow<'static, B>
where
    B: ?Sized + ToOwned + 'static,
    B::Owned: Reflective + Clone,
{
    /// Always `Cow::Owned`; backward, a borrowed value reflects as its owned copy.
    fn generator() -> BoxGen<Self> {
        <B::Owned>::generator()
            .map(std::borrow::Cow::Owned, |c: &std::borrow::Cow<'static, B>| Some(c.clone().into_owned()))
            .boxed()
    }
}

impl Reflective for Box<str> {
    fn generator() -> BoxGen<Self> {
        #[allow(clippy::borrowed_box)] // the backward function takes the value as generated: a `Box<str>`
        let unbox = |b: &Box<str>| Some(b.to_string());
        String::generator().map(String::into_boxed_str, unbox).boxed()
    }
}

impl Reflective for std::path::PathBuf {
    /// A relative path of one to three components, each a short name of
    /// letters, digits, `.`, `_` or `-` (never `.` or `..` alone).
    fn generator() -> BoxGen<Self> {
        use crate::regex::regex;
        let component = regex("[a-zA-Z0-9_-][a-zA-Z0-9._-]{0,7}");
        vec(component, 1..=3)
            .map(
                |parts: Vec<String>| parts.iter().collect(),
                |p: &std::path::PathBuf| {
                    let parts: Option<Vec<String>> = p
                        .components()
                        .map(|c| match c {
                            std::path::Component::Normal(s) => s.to_str().map(str::to_owned),
                            _ => None,
                        })
                        .collect();
                    parts
                },
            )
            .boxed()
    }
}

impl Reflective for std::time::Duration {
    /// Whole seconds (the default `u64`, so 0, 1 and `u64::MAX` come up)
    /// and nanoseconds below a second.
    fn generator() -> BoxGen<Self> {
        (u64::generator(), crate::combinators::int(0u32..=999_999_999).site("nanos"))
            .map(
                |(s, n)| std::time::Duration::new(s, n),
                |d: &std::time::Duration| Some((d.as_secs(), d.subsec_nanos())),
            )
            .boxed()
    }
}

impl Reflective for std::time::SystemTime {
    /// A time from the Unix epoch to the start of 2100, to the nanosecond
    /// (seconds counted from the epoch, so shrinking moves toward it).
    fn generator() -> BoxGen<Self> {
        use std::time::{Duration, SystemTime, UNIX_EPOCH};
        const YEAR_2100: u64 = 4_102_444_800;
        let secs = crate::combinators::int(0u64..=YEAR_2100 - 1).site("SystemTime.secs");
        let nanos = crate::combinators::int(0u32..=999_999_999).site("SystemTime.nanos");
        (secs, nanos)
            .map(
                |(s, n)| UNIX_EPOCH + Duration::new(s, n),
                |t: &SystemTime| {
                    let d = t.duration_since(UNIX_EPOCH).ok()?;
                    (d.as_secs() < YEAR_2100).then(|| (d.as_secs(), d.subsec_nanos()))
                },
            )
            .boxed()
    }
}

/// `NonZero` integers: the type's default generator without 0 ([`nonzero_integer`]: no zero is made, so none is discarded).
macro_rules! reflective_nonzero {
    ($($t:ty),*) => {$(
        impl Reflective for std::num::NonZero<$t> {
            fn generator() -> BoxGen<Self> {
                nonzero_integer::<$t>(stringify!($t))
                    .map(
                        |x| std::num::NonZero::new(x).expect("nonzero_integer makes no 0"),
                        |n: &std::num::NonZero<$t>| Some(n.get()),
                    )
                    .boxed()
            }
        }
    )*};
}
reflective_nonzero!(u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize);

impl<T: Reflective> Reflective for Option<T> {
    fn generator() -> BoxGen<Self> {
        option(T::generator()).boxed()
    }
}

impl<T: Reflective + Clone> Reflective for Box<T> {
    fn generator() -> BoxGen<Self> {
        boxed_values(T::generator()).boxed()
    }
}

/// The values of `inner`, each in a `Box`: [`Box`]'s generator over any
/// generator of the contents (a derived type's `Box<Self>` field uses it
/// over its own generator directly, one call fewer per value).
pub fn boxed_values<T: Clone, G: Gen<Value = T>>(inner: G) -> impl Gen<Value = Box<T>> {
    #[allow(clippy::borrowed_box)] // the backward function takes the value as generated: a `Box<T>`
    let unbox = |b: &Box<T>| Some((**b).clone());
    inner.map(Box::new, unbox)
}

/// Pointers and collections built from a `Vec` of their elements (or
/// entries): backward, the value is taken apart into that `Vec`, in the
/// collection's own iteration order.
macro_rules! reflective_via_vec {
    ($(($($bound:tt)*) $ty:ty, $elem:ty, $to_vec:expr);* $(;)?) => {$(
        impl<$($bound)*> Reflective for $ty {
            fn generator() -> BoxGen<Self> {
                <Vec<$elem>>::generator().map(|v| v.into_iter().collect(), |c: &$ty| Some($to_vec(c))).boxed()
            }
        }
    )*};
}
reflective_via_vec! {
    (T: Reflective + Clone) VecDeque<T>, T, |c: &VecDeque<T>| c.iter().cloned().collect::<Vec<_>>();
    (T: Reflective + Clone) LinkedList<T>, T, |c: &LinkedList<T>| c.iter().cloned().collect::<Vec<_>>();
    // Backward in sorted order: two heaps of the same elements are the same heap, whatever their layout.
    (T: Reflective + Clone + Ord) BinaryHeap<T>, T, |c: &BinaryHeap<T>| c.clone().into_sorted_vec();
    (T: Reflective + Clone + Ord) BTreeSet<T>, T, |c: &BTreeSet<T>| c.iter().cloned().collect::<Vec<_>>();
    (T: Reflective + Clone + Eq + Hash) HashSet<T>, T, |c: &HashSet<T>| c.iter().cloned().collect::<Vec<_>>();
    (K: Reflective + Clone + Ord, V: Reflective + Clone) BTreeMap<K, V>, (K, V),
        |c: &BTreeMap<K, V>| c.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
    (K: Reflective + Clone + Eq + Hash, V: Reflective + Clone) HashMap<K, V>, (K, V),
        |c: &HashMap<K, V>| c.iter().map(|(k, v)| (k.clone(), v.clone())).collect::<Vec<_>>();
}

impl<T: Reflective + Clone> Reflective for Rc<T> {
    fn generator() -> BoxGen<Self> {
        T::generator().map(Rc::new, |r: &Rc<T>| Some((**r).clone())).boxed()
    }
}

impl<T: Reflective + Clone> Reflective for Arc<T> {
    fn generator() -> BoxGen<Self> {
        T::generator().map(Arc::new, |r: &Arc<T>| Some((**r).clone())).boxed()
    }
}

impl<T: Reflective + Clone, const N: usize> Reflective for [T; N] {
    fn generator() -> BoxGen<Self> {
        crate::combinators::vec(T::generator(), N..=N)
            .map(|v: Vec<T>| v.try_into().ok().expect("exactly N elements"), |a: &[T; N]| Some(a.to_vec()))
            .boxed()
    }
}

macro_rules! reflective_tuple {
    ($($t:ident),+) => {
        impl<$($t: Reflective + Clone),+> Reflective for ($($t,)+) {
            fn generator() -> BoxGen<Self> {
                ($($t::generator(),)+).boxed()
            }
        }
    };
}
reflective_tuple!(A);
reflective_tuple!(A, B);
reflective_tuple!(A, B, C);
reflective_tuple!(A, B, C, D);
reflective_tuple!(A, B, C, D, E);
reflective_tuple!(A, B, C, D, E, F);
reflective_tuple!(A, B, C, D, E, F, G);
reflective_tuple!(A, B, C, D, E, F, G, H);
