//! Overrides at the use site: one field or variant of a derived type made by another generator.
//!
//! The derive runs each field through [`run_field`] (and [`back_field`]),
//! which looks for an override only where one may be in force: plain
//! generation from the RNG never does, so the type's own generator pays
//! nothing for it.

use crate::choice::Site;
use crate::derived::{back_part, run_part};
use crate::gen::{Answerer, BoxGen, Gen, Way};
use crate::reflective::Reflective;
use crate::source::{DetRng, RngSource, Source, Stop};
use std::any::{type_name, Any, TypeId};
use std::cell::{Cell, RefCell};
use std::fmt;
use std::rc::Rc;

/// One part of a derived type that an override may replace: its site and the
/// type of its values. Listed by the derive (`Reflective::__overridable`).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Overridable {
    site: Site,
    value: TypeId,
    value_name: &'static str,
}

impl Overridable {
    /// The part at `site`, whose values are of type `V`.
    #[inline]
    pub fn of<V: 'static>(site: Site) -> Overridable {
        Overridable { site, value: TypeId::of::<V>(), value_name: type_name::<V>() }
    }

    /// The name a user gives the part: the site without the type's name
    /// (`age` for `User.age`, `Circle.radius` for `Shape::Circle.radius`,
    /// `Circle` for the variant `Shape::Circle`).
    fn short_name(&self) -> &'static str {
        let after_type = |s: &'static str| s.rsplit_once("::").map_or(s, |(_, rest)| rest);
        match self.site.split_once('.') {
            Some((ty, field)) if !ty.contains("::") => field,
            _ => after_type(self.site),
        }
    }
}

/// One override in force: the site it replaces and the generator (a
/// `BoxGen<V>`, type-erased) that makes the part there.
#[derive(Clone)]
struct Entry {
    site: Site,
    gen: Rc<dyn Any>,
}

thread_local! {
    /// The overrides of the innermost [`Overriding`] running on this thread
    /// (none while an override's own generator runs).
    static TABLES: RefCell<Vec<Rc<[Entry]>>> = const { RefCell::new(Vec::new()) };
    /// Whether the innermost table holds any override: the one read on the path of every field.
    static ACTIVE: Cell<bool> = const { Cell::new(false) };
}

/// A table of overrides in force until dropped (also when unwinding).
struct InForce;

impl InForce {
    fn push(table: Rc<[Entry]>) -> InForce {
        ACTIVE.with(|a| a.set(!table.is_empty()));
        TABLES.with(|t| t.borrow_mut().push(table));
        InForce
    }
}

impl Drop for InForce {
    fn drop(&mut self) {
        let active = TABLES.with(|t| {
            let mut t = t.borrow_mut();
            t.pop();
            t.last().is_some_and(|top| !top.is_empty())
        });
        ACTIVE.with(|a| a.set(active));
    }
}

/// The generator in force at `site` for values of type `V`, if any.
#[inline]
fn in_force<V: 'static>(site: Site) -> Option<BoxGen<V>> {
    at_site(site)?.downcast_ref::<BoxGen<V>>().cloned()
}

/// The generator in force at `site`, type-erased: the lookup, compiled once rather than per value type.
fn at_site(site: Site) -> Option<Rc<dyn Any>> {
    if !ACTIVE.with(Cell::get) {
        return None;
    }
    TABLES.with(|t| {
        let t = t.borrow();
        t.last()?.iter().find(|e| e.site == site).map(|e| Rc::clone(&e.gen))
    })
}

/// The empty table: no override holds inside an override's own generator.
fn none() -> Rc<[Entry]> {
    Rc::from(Vec::new())
}

/// Runs one field's generator `g` as the part `site`, or the override in force there.
#[inline]
pub fn run_field<G, A>(g: &G, site: Site, src: &mut A) -> Result<G::Value, Stop>
where
    G: Gen + ?Sized,
    G::Value: 'static,
    A: Answerer + ?Sized,
{
    if A::MAY_OVERRIDE {
        if let Some(o) = in_force::<G::Value>(site) {
            let _none = InForce::push(none());
            return run_part(&*o, site, src);
        }
    }
    run_part(g, site, src)
}

/// The ways of one field's generator `g` to make `target`, or those of the override in force at `site`.
#[inline]
pub fn back_field<G>(g: &G, site: Site, target: &G::Value) -> Vec<Way>
where
    G: Gen + ?Sized,
    G::Value: 'static,
{
    if let Some(o) = in_force::<G::Value>(site) {
        let _none = InForce::push(none());
        return o.back(target);
    }
    g.back(target)
}

/// A variant's value from the override in force at `site` (the variant's
/// name), if any; `is_variant` says whether a value is of that variant (a
/// value of another one is rejected).
#[inline]
pub fn run_variant<T: 'static, A: Answerer + ?Sized>(
    site: Site,
    src: &mut A,
    is_variant: fn(&T) -> bool,
) -> Option<Result<T, Stop>> {
    if !A::MAY_OVERRIDE {
        return None;
    }
    let o = in_force::<T>(site)?;
    let _none = InForce::push(none());
    Some(run_part(&*o, site, src).and_then(|v| if is_variant(&v) { Ok(v) } else { Err(Stop::Rejected) }))
}

/// The ways of the override in force at `site` (a variant's name) to make
/// `target`, as the part `site`, if there is one.
#[inline]
pub fn back_variant<T: 'static>(site: Site, target: &T) -> Option<Vec<Way>> {
    let o = in_force::<T>(site)?;
    let _none = InForce::push(none());
    Some(back_part(vec![Way::empty()], site, o.back(target)))
}

/// `T`'s own generator (a derived type's), to which [`Overriding::field`] and
/// [`Overriding::variant`] add overrides: each names a part of the type and the
/// generator that makes it instead. The result is a generator of the same type,
/// reflective like the rest: the overridden part's choices are recorded under
/// the part's site, so reflection, `check`, shrinking, replay tokens and
/// remembered failures work as for the type's own generator.
///
/// ```
/// use refgen::prelude::*;
/// use refgen::{check, generate};
///
/// #[derive(Debug, Clone, PartialEq, Reflective)]
/// struct User {
///     #[choice(regex = "[a-z]{1,8}")]
///     name: String,
///     age: u32,
/// }
///
/// // The type's own generator, with its `age` between 18 and 120.
/// let adults = overriding::<User>().field("age", int(18u32..=120));
/// for seed in 0..20 {
///     let u = generate(&adults, seed).unwrap();
///     assert!((18..=120).contains(&u.age));
/// }
/// // Backward too: a value the override cannot make is not one of its values.
/// assert!(!check(&adults, &User { name: "ann".into(), age: 7 }));
/// assert!(check(&adults, &User { name: "ann".into(), age: 30 }));
/// ```
///
/// An override holds wherever the part is made while the wrapped generator
/// runs: in a recursive type, at every level. The type's and the field's
/// `#[assume]`s still hold (a value of the override that fails them is made
/// again). Fields with `#[choice(default)]` or `#[at(...)]` are not made by a
/// generator of their own type and cannot be overridden. Naming a part the type
/// does not have, or giving a generator of another type, panics when the
/// override is built, with the list of the parts that can be overridden.
#[track_caller]
pub fn overriding<T: Reflective>() -> Overriding<T> {
    let parts = T::__overridable();
    if parts.is_empty() {
        panic!(
            "refgen: `{}` has no parts to override (overrides are for the fields and variants of a type with \
             `#[derive(Reflective)]` and no arguments)",
            type_name::<T>()
        );
    }
    Overriding { base: T::generator(), parts, table: none() }
}

/// A derived type's generator with some of its parts made by other
/// generators: made by [`overriding`].
pub struct Overriding<T> {
    base: BoxGen<T>,
    parts: Vec<Overridable>,
    table: Rc<[Entry]>,
}

impl<T> Clone for Overriding<T> {
    fn clone(&self) -> Self {
        Overriding { base: self.base.clone(), parts: self.parts.clone(), table: self.table.clone() }
    }
}

impl<T> fmt::Debug for Overriding<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sites: Vec<Site> = self.table.iter().map(|e| e.site).collect();
        f.debug_struct("Overriding").field("type", &type_name::<T>()).field("overridden", &sites).finish()
    }
}

impl<T: 'static> Overriding<T> {
    /// The field `name` (`age`; `Circle.radius` for a field of the variant
    /// `Circle`; `0` for a tuple struct's first field) made by `g`.
    ///
    /// # Panics
    ///
    /// When the type has no such field that can be overridden, or its values are not `g`'s.
    #[track_caller]
    pub fn field<G>(self, name: &str, g: G) -> Self
    where
        G: Gen + 'static,
        G::Value: 'static,
    {
        self.with(name, false, g.boxed())
    }

    /// The variant `name` (`Circle`) made by `g`, a generator of the type
    /// whose values are of that variant, wherever the type's pick chooses it
    /// (a value of another variant is rejected).
    ///
    /// # Panics
    ///
    /// When the type has no such variant.
    #[track_caller]
    pub fn variant<G>(self, name: &str, g: G) -> Self
    where
        G: Gen<Value = T> + 'static,
    {
        self.with(name, true, g.boxed())
    }

    #[track_caller]
    fn with<V: 'static>(mut self, name: &str, variant: bool, g: BoxGen<V>) -> Self {
        let is_variant = |p: &Overridable| !p.site.contains('.');
        let kind = if variant { "variant" } else { "field" };
        let found = self.parts.iter().find(|p| is_variant(p) == variant && (p.short_name() == name || p.site == name));
        let Some(part) = found else {
            let names: Vec<String> = self
                .parts
                .iter()
                .filter(|p| is_variant(p) == variant)
                .map(|p| format!("`{}`", p.short_name()))
                .collect();
            let names = if names.is_empty() { "none".to_string() } else { names.join(", ") };
            panic!(
                "refgen: `{}` has no {kind} `{name}` to override; its {kind}s that can be: {names}",
                type_name::<T>()
            );
        };
        if part.value != TypeId::of::<V>() {
            panic!(
                "refgen: the {kind} `{name}` of `{}` is a `{}`, and the generator given makes `{}`",
                type_name::<T>(),
                part.value_name,
                type_name::<V>()
            );
        }
        let site = part.site;
        let mut entries: Vec<Entry> = self.table.iter().filter(|e| e.site != site).cloned().collect();
        entries.push(Entry { site, gen: Rc::new(g) });
        self.table = Rc::from(entries);
        self
    }
}

impl<T: 'static> Gen for Overriding<T> {
    type Value = T;

    fn run(&self, src: &mut dyn Source) -> Result<T, Stop> {
        let _in_force = InForce::push(self.table.clone());
        self.base.run(src)
    }

    /// The same draws as [`Gen::run`] over the RNG, which it is: plain
    /// generation does not look for overrides, so that the type's own
    /// generator pays nothing for them.
    fn run_rng(&self, rng: &mut DetRng) -> Result<T, Stop> {
        self.run(&mut RngSource(rng))
    }

    fn back(&self, target: &T) -> Vec<Way> {
        let _in_force = InForce::push(self.table.clone());
        self.base.back(target)
    }
}
