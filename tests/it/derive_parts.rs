//! Attributes for the parts of a field: `each(...)` for elements, `some(...)` for the value in `Some`, `key(...)` / `value(...)` for maps, and `range` on `char`.

use refgen::interpret::{generate_recorded, parse_tree, reflect};
use refgen::prelude::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// The values of seeds `0..seeds` that `g` makes, each checked to parse
/// back from its choices and to reflect.
fn round_trips<T: std::fmt::Debug + PartialEq + 'static>(g: &BoxGen<T>, seeds: u64) -> Vec<T> {
    let mut out = Vec::new();
    for seed in 0..seeds {
        let (v, tree) = generate_recorded(g, seed);
        let Ok(v) = v else { continue };
        assert_eq!(parse_tree(g, &tree).unwrap(), v);
        assert!(!reflect(g, &v).is_empty(), "{v:?}");
        out.push(v);
    }
    out
}

#[derive(Debug, Clone, PartialEq, Reflective)]
struct Parts {
    #[choice(each(range = 1..=6))]
    dice: Vec<u8>,
    #[choice(some(range = 10..=20))]
    port: Option<u32>,
    #[choice(len = 1..=3, each(regex = "[a-z]{2}"))]
    words: Vec<String>,
    #[choice(len = 2..=2, key(range = 0..=3), value(len = 1..=1))]
    table: BTreeMap<u8, String>,
    #[choice(len = 0..=4, each(range = 'a'..='f'))]
    hex: BTreeSet<char>,
    #[choice(range = 'x'..='z')]
    letter: char,
    #[choice(each(some(range = -2..=2)))]
    maybe: VecDeque<Option<i64>>,
    #[choice(len = 1..=2, value(each(range = 7..=7)))]
    lists: HashMap<bool, Vec<u16>>,
}

#[test]
fn parts_follow_their_attributes() {
    for v in round_trips(&Parts::generator(), 300) {
        assert!(v.dice.iter().all(|d| (1..=6).contains(d)), "{v:?}");
        assert!(v.port.is_none_or(|p| (10..=20).contains(&p)), "{v:?}");
        assert!((1..=3).contains(&v.words.len()), "{v:?}");
        assert!(v.words.iter().all(|w| w.len() == 2 && w.chars().all(|c| c.is_ascii_lowercase())), "{v:?}");
        assert!(!v.table.is_empty() && v.table.len() <= 2, "{v:?}");
        assert!(v.table.iter().all(|(k, s)| *k <= 3 && s.chars().count() == 1), "{v:?}");
        assert!(v.hex.len() <= 4 && v.hex.iter().all(|c| ('a'..='f').contains(c)), "{v:?}");
        assert!(('x'..='z').contains(&v.letter), "{v:?}");
        assert!(v.maybe.iter().flatten().all(|x| (-2..=2).contains(x)), "{v:?}");
        assert!(!v.lists.is_empty() && v.lists.values().flatten().all(|x| *x == 7), "{v:?}");
    }
}

#[test]
fn values_outside_the_parts_attributes_do_not_reflect() {
    let g = Parts::generator();
    let (v, _) = generate_recorded(&g, 1);
    let v = v.unwrap();
    let mut bad = v.clone();
    bad.dice.push(9);
    assert!(reflect(&g, &bad).is_empty());
    let mut bad = v.clone();
    bad.port = Some(99);
    assert!(reflect(&g, &bad).is_empty());
    let mut bad = v;
    bad.letter = 'a';
    assert!(reflect(&g, &bad).is_empty());
}

/// A field named like a combinator does not shadow it in later `with` expressions, and can still be read there.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Shadow {
    #[choice(range = 0..=3)]
    regex: u8,
    #[choice(with = regex("[a-c]{2}"))]
    name: String,
    #[choice(with = refgen::combinators::int(0..=*regex))]
    below: u8,
}

use refgen::regex::regex;

#[test]
fn field_names_do_not_shadow_combinators() {
    for v in round_trips(&Shadow::generator(), 50) {
        assert!(v.name.len() == 2 && v.below <= v.regex, "{v:?}");
    }
}

/// The example of the parts of a field in the derive's docs.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Service {
    #[choice(some(range = 1024..=65535))]
    port: Option<u16>,
    #[choice(len = 1..=3, each(regex = "[a-z]{1,8}\\.example"))]
    hosts: Vec<String>,
    #[choice(len = 0..=4, key(regex = "[A-Z]{3}"), value(range = 0..=9))]
    limits: BTreeMap<String, u8>,
    #[choice(each(some(range = -1..=1)))]
    trits: Vec<Option<i8>>,
}

fn sorted(mut v: Vec<u8>) -> Vec<u8> {
    v.sort();
    v
}

/// The example of valid-by-construction values in the derive's docs.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted())]
struct SortedList(
    #[choice(with = refgen::combinators::vec(u8::generator(), 0..=12).map(sorted, |v: &Vec<u8>| Some(v.clone())))]
    Vec<u8>,
);

#[test]
fn the_docs_examples_generate_and_reflect() {
    for v in round_trips(&Service::generator(), 100) {
        assert!(v.port.is_none_or(|p| p >= 1024), "{v:?}");
        assert!(v.hosts.iter().all(|h| h.ends_with(".example")), "{v:?}");
        assert!(v.limits.iter().all(|(k, n)| k.len() == 3 && *n <= 9), "{v:?}");
    }
    // Sorted by construction: never discarded, every length.
    let values = round_trips(&SortedList::generator(), 300);
    assert_eq!(values.len(), 300, "never invalid");
    let lengths: std::collections::BTreeSet<usize> = values.iter().map(|v| v.0.len()).collect();
    assert_eq!(lengths.len(), 13, "{lengths:?}");
}

/// Not `Reflective`: only named in a `PhantomData`.
#[derive(Debug, Clone, PartialEq)]
struct Unit;

/// Fields that are not generated, a range over an earlier field, a marker without bound, and standard types.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Defaults<U: 'static> {
    #[choice(range = 1..=5)]
    len: u8,
    #[choice(range = 0..=*len)]
    below: u8,
    #[choice(len = 0..=*len as usize, each(range = 0..=*below))]
    upto: Vec<u8>,
    #[choice(default)]
    cache: Vec<u8>,
    #[choice(default = *len as usize * 2)]
    twice: usize,
    marker: std::marker::PhantomData<U>,
    wait: std::time::Duration,
    path: std::path::PathBuf,
    name: Box<str>,
    count: std::num::NonZero<u32>,
    at: std::time::SystemTime,
}

#[test]
fn defaults_earlier_fields_markers_and_std_types() {
    let mut paths = std::collections::BTreeSet::new();
    for v in round_trips(&Defaults::<Unit>::generator(), 200) {
        assert!(v.below <= v.len && v.cache.is_empty() && v.twice == v.len as usize * 2, "{v:?}");
        assert!(v.upto.len() <= v.len as usize && v.upto.iter().all(|x| *x <= v.below), "{v:?}");
        assert!(v.path.is_relative() && v.path.components().count() <= 3, "{v:?}");
        assert!(v.wait.subsec_nanos() < 1_000_000_000);
        assert!(v.at >= std::time::UNIX_EPOCH, "{v:?}");
        paths.insert(v.path);
    }
    assert!(paths.len() > 100, "{}", paths.len());
}

/// A type with a lifetime whose fields allow `'static`: the impl is for `Label<'static>`.
#[derive(Debug, Clone, PartialEq, Reflective)]
struct Label<'a> {
    text: std::borrow::Cow<'a, str>,
    #[choice(range = 0..=9)]
    rank: u8,
    seen: std::marker::PhantomData<&'a ()>,
}

#[test]
fn types_with_lifetimes_derive_for_static() {
    let g = Label::<'static>::generator();
    assert_eq!(round_trips(&g, 50).len(), 50);
    // A borrowed value reflects too.
    let borrowed = Label { text: std::borrow::Cow::Borrowed("hi"), rank: 3, seen: std::marker::PhantomData };
    assert!(!reflect(&g, &borrowed).is_empty());
}
