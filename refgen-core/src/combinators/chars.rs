//! `bool`, and characters: classes of ranges and the default `char`.

use super::integers::one_of;
use super::{pick, Pick};
use crate::choice::{Choice, ChoiceTree, Opt, Request, Site};
use crate::gen::Sequence;
use crate::gen::{fill_draws, Answerer};
use crate::gen::{one_forward_body, Gen, Way};
use crate::source::{DetRng, Stop};
use std::fmt::Debug;
use std::rc::Rc;

/// `false` or `true`, each with weight 1 (a pick with labels `"false"`, `"true"`).
#[derive(Debug, Clone, Copy)]
pub struct Bool {
    site: Site,
}

const BOOL_OPTIONS: [Opt; 2] = [Opt { label: "false", weight: 1 }, Opt { label: "true", weight: 1 }];

/// See [`Bool`]; at the site `"bool"`, renamed with [`Bool::site`].
pub fn bool() -> Bool {
    Bool { site: "bool" }
}

impl Bool {
    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }
}

impl Bool {
    #[inline(always)]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<bool, Stop> {
        match a.choose_leaf(self.site, Request::Pick { options: &BOOL_OPTIONS, total: 2 })? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Stop::Rejected),
        }
    }
}

impl Gen for Bool {
    type Value = bool;
    one_forward_body!();
    fn back(&self, target: &bool) -> Vec<Way> {
        vec![Way { forest: vec![ChoiceTree::choice(self.site, *target as Choice, Vec::new())], prob: 0.5 }]
    }
}

/// A char from a class: a union of inclusive ranges, uniformly over its
/// members. One integer choice point: the char's index in the class.
#[derive(Debug, Clone)]
pub struct CharClass {
    site: Site,
    ranges: Rc<[(u32, u32)]>,
    count: u64,
    /// The first char of the class, when its chars are one range (the
    /// common `[a-z]`): then the char at an index is this plus the index.
    contiguous: Option<u32>,
}

/// A char in one of `ranges` (each `(low, high)` inclusive); surrogates are
/// never produced. At the site `"char"`.
///
/// # Panics
/// When the class has no char.
pub fn char_class(ranges: &[(char, char)]) -> CharClass {
    let mut rs: Vec<(u32, u32)> = Vec::new();
    for &(a, b) in ranges {
        let (a, b) = (a as u32, b as u32);
        if a > b {
            continue;
        }
        // Split around the surrogate gap so every index maps to a char.
        if a < 0xD800 && b > 0xDFFF {
            rs.push((a, 0xD7FF));
            rs.push((0xE000, b));
        } else {
            rs.push((a, b));
        }
    }
    rs.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (a, b) in rs {
        match merged.last_mut() {
            Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    let count: u64 = merged.iter().map(|&(a, b)| (b - a) as u64 + 1).sum();
    assert!(count > 0, "char_class: the class {ranges:?} has no char");
    let contiguous = match merged[..] {
        [(a, _)] => Some(a),
        _ => None,
    };
    CharClass { site: "char", ranges: merged.into(), count, contiguous }
}

/// Any char (any Unicode scalar value).
pub fn any_char() -> CharClass {
    char_class(&[('\0', char::MAX)])
}

impl CharClass {
    /// The same generator, at the choice point `site`.
    pub fn site(mut self, site: Site) -> Self {
        self.site = site;
        self
    }

    /// The char at `index` in the class (`index` below its size, which
    /// is at most `0x110000`).
    #[inline(always)]
    fn nth(&self, index: u64) -> char {
        let code = match self.contiguous {
            Some(first) => first + index as u32,
            None => self.nth_code(index),
        };
        // Never the fallback: the class holds no surrogate and nothing past
        // `char::MAX` (`char_class` splits and bounds its ranges).
        char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
    }

    /// The code point at `index` in a class of several ranges.
    fn nth_code(&self, mut index: u64) -> u32 {
        for &(a, b) in self.ranges.iter() {
            let n = (b - a) as u64 + 1;
            if index < n {
                return a + index as u32;
            }
            index -= n;
        }
        unreachable!("an index below the class's size lies in one of its ranges")
    }

    /// The index of `c` in the class.
    fn index(&self, c: char) -> Option<u64> {
        let c = c as u32;
        let mut before = 0u64;
        for &(a, b) in self.ranges.iter() {
            if (a..=b).contains(&c) {
                return Some(before + (c - a) as u64);
            }
            before += (b - a) as u64 + 1;
        }
        None
    }

    #[inline(always)]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<char, Stop> {
        Ok(self.nth(a.choose_int(self.site, self.count - 1)?))
    }

    /// Whether `c` is in the class.
    pub fn contains(&self, c: char) -> bool {
        self.index(c).is_some()
    }
}

impl Gen for CharClass {
    type Value = char;
    one_forward_body!();
    #[inline]
    fn fill_rng<C: Sequence<char>>(&self, rng: &mut DetRng, n: usize, out: &mut C) -> Result<(), Stop> {
        let span = self.count - 1;
        match self.contiguous {
            // Within ASCII, every char is one byte: the mask changes no
            // code, but lets the compiler see that, so a `String` adds each
            // char as a byte without asking its width.
            //
            // The draws come from a copy of the RNG, put back after, in a
            // loop of their own: a `String` may grow in the loop, and
            // across that call the compiler kept the state of an RNG
            // behind a pointer in memory, loaded and stored for every char
            // (`gen_speed`'s record, instructions a value: 1043 before,
            // 1024 with the copy, 948 -> 933 with the loop written here
            // rather than through `fill_draws`'s iterator; with the copy
            // around all three arms, or the collection moved into a local
            // too, it got slower). A `Vec<char>` of ASCII pushes with a
            // capacity check per char here; strings are the common case.
            Some(first) if first as u64 + span < 0x80 => {
                let mut local = rng.clone();
                for _ in 0..n {
                    let k = crate::source::sample(&mut local, Request::Int { span });
                    out.push_elem(char::from((first as u64 + k) as u8 & 0x7F));
                }
                *rng = local;
            }
            // Within Latin-1 every index is a char as it is (no check).
            Some(first) if first as u64 + span <= 0xFF => {
                fill_draws(rng, move || span, n, out, |k| char::from((first as u64 + k) as u8))
            }
            _ => fill_draws(rng, move || span, n, out, |k| self.nth(k)),
        }
        Ok(())
    }
    fn back(&self, target: &char) -> Vec<Way> {
        match self.index(*target) {
            Some(i) => {
                vec![Way { forest: vec![ChoiceTree::choice(self.site, i, Vec::new())], prob: 1.0 / self.count as f64 }]
            }
            None => Vec::new(),
        }
    }
}

/// Printable ASCII but the space, in the order [`char()`]'s `"ascii"`
/// option counts it: letters and digits first (so shrinking ends at `'a'`),
/// then punctuation.
const ASCII: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";

/// The whitespace of [`char()`]'s `"whitespace"` option: ASCII's, then
/// Unicode's most common (next line, no-break space, line separator,
/// ideographic space) and the byte-order mark.
const WHITESPACE: [char; 11] =
    [' ', '\t', '\n', '\r', '\u{b}', '\u{c}', '\u{85}', '\u{a0}', '\u{2028}', '\u{3000}', '\u{feff}'];

/// The chars of `ranges` but those of `except`, as ranges.
fn ranges_without(ranges: &[(char, char)], except: &[char]) -> Vec<(char, char)> {
    let mut out = Vec::new();
    for &(a, b) in ranges {
        let mut lo = a as u32;
        let mut cut: Vec<u32> =
            except.iter().map(|&c| c as u32).filter(|&c| (a as u32..=b as u32).contains(&c)).collect();
        cut.sort_unstable();
        for c in cut {
            if lo < c {
                out.extend(char::from_u32(lo).zip(char::from_u32(c - 1)));
            }
            lo = c + 1;
        }
        if lo <= b as u32 {
            out.extend(char::from_u32(lo).map(|l| (l, b)));
        }
    }
    out
}

/// Any char, favouring the ones that break programs. A pick at the site
/// `"char"` among labelled options that share no char, so guides and
/// tuning can steer it:
///
/// | option | weight | chars |
/// |---|---|---|
/// | `"ascii"` | 10 | printable ASCII but the space (`'!'..='~'`), letters and digits first |
/// | `"whitespace"` | 3 | space, tab, `\n`, `\r`, vertical tab, form feed, U+0085, U+00A0, U+2028, U+3000, U+FEFF |
/// | `"control"` | 2 | the other ASCII control characters (`'\0'..='\x1f'`, `'\x7f'`) |
/// | `"bmp"` | 2 | the rest of the Basic Multilingual Plane (`'\u{80}'..='\u{ffff}'`, no surrogates) |
/// | `"astral"` | 1 | the supplementary planes (`'\u{10000}'..`: emoji, historic scripts) |
///
/// So more than half of all chars are printable ASCII, one in six is
/// whitespace (a space in one in sixty), one in nine a control character,
/// and one in six lies outside ASCII. Shrinking ends at `'a'`. What
/// `Reflective` gives `char` (and `String`'s chars); [`any_char`] is the
/// uniform generator over all of Unicode, [`char_class`] one over chosen
/// ranges.
pub fn char() -> Pick<char> {
    let control = ranges_without(&[('\0', '\x1f'), ('\x7f', '\x7f')], &WHITESPACE);
    let bmp = ranges_without(&[('\u{80}', '\u{ffff}')], &WHITESPACE);
    pick(
        "char",
        [
            ("ascii", 10, one_of("char.ascii", ASCII.chars().collect()).boxed()),
            ("whitespace", 3, one_of("char.whitespace", WHITESPACE.to_vec()).boxed()),
            ("control", 2, char_class(&control).site("char.control").boxed()),
            ("bmp", 2, char_class(&bmp).site("char.bmp").boxed()),
            ("astral", 1, char_class(&[('\u{10000}', char::MAX)]).site("char.astral").boxed()),
        ],
    )
}

#[cfg(test)]
mod char_tests {
    use super::*;
    use crate::source::rng_from_seed;

    /// Most chars are ASCII, whitespace is common, and the rest of Unicode still comes up.
    #[test]
    fn default_chars_favour_ascii_and_whitespace() {
        let g = char();
        let mut rng = rng_from_seed(3);
        let cs: Vec<char> = (0..4000).map(|_| g.run_rng(&mut rng).unwrap()).collect();
        let share = |f: &dyn Fn(char) -> bool| cs.iter().filter(|&&c| f(c)).count() as f64 / cs.len() as f64;
        assert!(share(&|c| c.is_ascii_graphic()) > 0.5);
        assert!(share(&|c| c == ' ') > 0.01);
        assert!(share(&|c| c.is_whitespace()) > 0.15);
        assert!(share(&|c| c.is_ascii_control()) > 0.05);
        assert!(share(&|c| !c.is_ascii()) > 0.1);
        assert_eq!(ASCII.len(), 94);
        assert!(ASCII.chars().all(|c| c.is_ascii_graphic()));
        // The options share no char: each has one way.
        for c in ['a', ' ', '\t', '\0', '\x7f', '\u{85}', 'é', '\u{feff}', '😀', char::MAX] {
            assert_eq!(g.back(&c).len(), 1, "{c:?}");
        }
    }
}

// ---------------------------------------------------------------- floats
