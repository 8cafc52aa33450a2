//! The strings a regular expression matches, as a reflective generator.
//!
//! [`regex`] parses a pattern with `regex-syntax` and turns its syntax tree
//! into a generator:
//!
//! - a literal makes no choice;
//! - a character class is one integer choice point (site `"regex.class"`)
//!   over the chars of the class;
//! - an alternation `a|b|c` is a pick (site `"regex.alt"`) whose options are
//!   labelled by position (`"0"`, `"1"`, ...), each of weight 1;
//! - a repetition is a length choice point (site `"regex.repeat"`) in
//!   `min..=max`, then that many runs of its body. An unbounded repetition
//!   (`*`, `+`, `{n,}`) is bounded to `min..=min + 8`
//!   ([`UNBOUNDED_EXTRA`]);
//! - groups are transparent; anchors and word boundaries (`^`, `$`, `\b`)
//!   at the start or end of the pattern are ignored: the generator produces
//!   whole strings. One inside the pattern (`a^b`) cannot be honoured, and
//!   is an error.
//!
//! Backward, a string is matched against the same tree, every way it
//! matches becomes a choice tree, so [`crate::reflect`] gives every
//! derivation (up to [`MAX_WAYS_PER_END`] for each split of the string, a
//! bound that only patterns with nested repetitions meet) and a string the
//! pattern does not match gives none.
//!
//! ```
//! use refgen::{check, generate, regex::regex};
//!
//! let g = regex("[a-c]{2}(x|yz)?");
//! let s = generate(&g, 3).unwrap();
//! assert!(check(&g, &s));
//! assert!(check(&g, &"abyz".to_string()));
//! assert!(!check(&g, &"abz".to_string()));
//! ```

use super::{char_class, CharClass, POSITIONS};
use crate::choice::{Choice, ChoiceTree, Opt, Request};
use crate::gen::Answerer;
use crate::gen::{one_forward_body, Gen, Way};
use crate::source::Stop;
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// How many repetitions past its minimum an unbounded repetition may make.
pub const UNBOUNDED_EXTRA: u32 = 8;

/// The site of a character class's choice point.
pub const CLASS_SITE: &str = "regex.class";
/// The site of an alternation's pick.
pub const ALT_SITE: &str = "regex.alt";
/// The site of a repetition's length choice point.
pub const REPEAT_SITE: &str = "regex.repeat";

/// A pattern that does not parse, or uses a feature the generator does not support.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegexError(pub String);

impl fmt::Display for RegexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RegexError {}

#[derive(Debug, Clone)]
enum Node {
    Lit(Vec<char>),
    Class(CharClass, Rc<[(char, char)]>),
    Alt(Vec<Opt>, Vec<Node>),
    Repeat { min: u32, max: u32, sub: Box<Node> },
    Concat(Vec<Node>),
}

/// The generator of the strings a pattern matches; see the module docs.
#[derive(Debug, Clone)]
pub struct Regex {
    pattern: Rc<str>,
    node: Rc<Node>,
}

/// The generator of the strings `pattern` matches (see the module docs).
///
/// # Panics
/// When the pattern does not parse or matches no string; use
/// [`Regex::new`] to handle that as an error.
pub fn regex(pattern: &str) -> Regex {
    match Regex::new(pattern) {
        Ok(g) => g,
        Err(e) => panic!("regex {pattern:?}: {e}"),
    }
}

impl Regex {
    /// The generator of the strings `pattern` matches, or why there is none.
    pub fn new(pattern: &str) -> Result<Regex, RegexError> {
        let hir = regex_syntax::Parser::new().parse(pattern).map_err(|e| RegexError(e.to_string()))?;
        let node = lower(&hir, Edges { start: true, end: true })?;
        Ok(Regex { pattern: pattern.into(), node: Rc::new(node) })
    }

    /// The pattern this generator was built from.
    pub fn pattern(&self) -> &str {
        &self.pattern
    }

    /// The structure the generator follows, for back ends that read the
    /// pattern rather than run it (an SMT solver's regex membership).
    ///
    /// ```
    /// use refgen::regex::{regex, Shape};
    ///
    /// let digits = Box::new(Shape::Class(vec![('0', '9')]));
    /// let ab_or_c = Shape::Alt(vec![Shape::Lit("ab".into()), Shape::Lit("c".into())]);
    /// assert_eq!(
    ///     regex("(ab|c)[0-9]+").shape(),
    ///     Shape::Concat(vec![ab_or_c, Shape::Repeat { min: 1, max: 9, sub: digits }]),
    /// );
    /// ```
    pub fn shape(&self) -> Shape {
        shape(&self.node)
    }
}

/// The structure of a [`Regex`] as the generator reads it: unbounded
/// repetitions already bounded, anchors at the ends dropped, groups gone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// These chars, no choice.
    Lit(String),
    /// One char of these inclusive ranges (one choice at [`CLASS_SITE`]).
    Class(Vec<(char, char)>),
    /// One of these (a pick at [`ALT_SITE`]; option `i` is the `i`-th).
    Alt(Vec<Shape>),
    /// `min..=max` runs of `sub` (a choice of `count - min` at [`REPEAT_SITE`]).
    Repeat {
        /// The fewest runs.
        min: u32,
        /// The most runs.
        max: u32,
        /// What is repeated.
        sub: Box<Shape>,
    },
    /// These in order.
    Concat(Vec<Shape>),
}

fn shape(node: &Node) -> Shape {
    match node {
        Node::Lit(cs) => Shape::Lit(cs.iter().collect()),
        Node::Class(_, ranges) => Shape::Class(ranges.to_vec()),
        Node::Alt(_, subs) => Shape::Alt(subs.iter().map(shape).collect()),
        Node::Repeat { min, max, sub } => Shape::Repeat { min: *min, max: *max, sub: Box::new(shape(sub)) },
        Node::Concat(ns) => Shape::Concat(ns.iter().map(shape).collect()),
    }
}

/// Whether a node may stand at the start or the end of every string the
/// pattern matches: where an anchor or word boundary means nothing more
/// than "the generator makes whole strings".
#[derive(Debug, Clone, Copy)]
struct Edges {
    start: bool,
    end: bool,
}

/// Whether the anchor or boundary `look` is honoured at `edges`.
fn honoured(look: Look, edges: Edges) -> bool {
    match look {
        Look::Start | Look::StartLF | Look::StartCRLF => edges.start,
        Look::End | Look::EndLF | Look::EndCRLF => edges.end,
        _ => edges.start || edges.end,
    }
}

fn lower(hir: &Hir, edges: Edges) -> Result<Node, RegexError> {
    let inner = Edges { start: false, end: false };
    Ok(match hir.kind() {
        HirKind::Empty => Node::Concat(Vec::new()),
        HirKind::Look(look) if honoured(*look, edges) => Node::Concat(Vec::new()),
        HirKind::Look(_) => {
            return Err(RegexError(
                "the pattern has an anchor or word boundary (`^`, `$`, `\\b`, ...) inside it, which the generator cannot honour: anchors are only allowed at the start or end of the pattern".into(),
            ))
        }
        HirKind::Literal(lit) => match std::str::from_utf8(&lit.0) {
            Ok(s) => Node::Lit(s.chars().collect()),
            Err(_) => return Err(RegexError("the pattern matches bytes that are not UTF-8".into())),
        },
        HirKind::Class(Class::Unicode(c)) => {
            let ranges: Vec<(char, char)> = c.ranges().iter().map(|r| (r.start(), r.end())).collect();
            if ranges.is_empty() {
                return Err(RegexError("the pattern has a character class that matches no char".into()));
            }
            Node::Class(char_class(&ranges).site(CLASS_SITE), ranges.into())
        }
        HirKind::Class(Class::Bytes(c)) => {
            let ranges: Vec<(char, char)> = c
                .ranges()
                .iter()
                .filter(|r| r.start() < 0x80)
                .map(|r| (r.start() as char, r.end().min(0x7F) as char))
                .collect();
            if ranges.is_empty() {
                return Err(RegexError("the pattern has a byte class with no ASCII byte".into()));
            }
            Node::Class(char_class(&ranges).site(CLASS_SITE), ranges.into())
        }
        HirKind::Repetition(r) => {
            let max = r.max.unwrap_or(r.min.saturating_add(UNBOUNDED_EXTRA));
            Node::Repeat { min: r.min, max, sub: Box::new(lower(&r.sub, inner)?) }
        }
        HirKind::Capture(c) => lower(&c.sub, edges)?,
        HirKind::Concat(hs) => {
            let look = |h: &Hir| matches!(h.kind(), HirKind::Look(_));
            let lowered = hs.iter().enumerate().map(|(i, h)| {
                let start = edges.start && hs[..i].iter().all(look);
                let end = edges.end && hs[i + 1..].iter().all(look);
                lower(h, Edges { start, end })
            });
            Node::Concat(lowered.collect::<Result<_, _>>()?)
        }
        HirKind::Alternation(hs) => {
            let opts = (0..hs.len())
                .map(|i| Opt {
                    label: match POSITIONS.get(i) {
                        Some(l) => l,
                        None => Box::leak(i.to_string().into_boxed_str()),
                    },
                    weight: 1,
                })
                .collect();
            Node::Alt(opts, hs.iter().map(|h| lower(h, edges)).collect::<Result<_, _>>()?)
        }
    })
}

fn run_node<A: Answerer + ?Sized>(node: &Node, src: &mut A, out: &mut String) -> Result<(), Stop> {
    match node {
        Node::Lit(cs) => out.extend(cs.iter()),
        Node::Class(c, _) => out.push(src.sub(c)?),
        Node::Alt(opts, subs) => {
            let c = src.choose(ALT_SITE, Request::Pick { options: opts, total: opts.len() as u64 })?;
            let r = match subs.get(c as usize) {
                Some(s) => run_node(s, src, out),
                None => Err(Stop::Rejected),
            };
            src.leave();
            r?
        }
        Node::Repeat { min, max, sub } => repeat(*min, *max, sub, src, out)?,
        Node::Concat(ns) => {
            for n in ns {
                run_node(n, src, out)?;
            }
        }
    }
    Ok(())
}

/// `min..=max` runs of `sub` (a length choice point, then the runs).
#[inline]
fn repeat<A: Answerer + ?Sized>(min: u32, max: u32, sub: &Node, src: &mut A, out: &mut String) -> Result<(), Stop> {
    let count = repeat_count(min, max, src)?;
    // At least a byte a run: one growth of the string, not one per char.
    out.reserve(count);
    repeat_runs(sub, count, src, out)
}

/// The number of runs of a repetition of `min..=max` (its length choice point).
#[inline]
fn repeat_count<A: Answerer + ?Sized>(min: u32, max: u32, src: &mut A) -> Result<usize, Stop> {
    Ok(min as usize + src.choose_int(REPEAT_SITE, (max - min) as u64)? as usize)
}

/// `count` runs of `sub`.
#[inline]
fn repeat_runs<A: Answerer + ?Sized>(sub: &Node, count: usize, src: &mut A, out: &mut String) -> Result<(), Stop> {
    match sub {
        // The common `[a-z]{m,n}`: the class's chars in a loop of their own.
        Node::Class(c, _) => src.repeat(c, count, None, out),
        sub => {
            for _ in 0..count {
                run_node(sub, src, out)?;
            }
            Ok(())
        }
    }
}

/// At most this many ways of matching are kept for each position a part of
/// the pattern can end at. Whether a string matches depends only on the
/// positions, so [`crate::check`] stays exact; [`crate::reflect`] of a
/// string with more derivations (nested repetitions such as `((a*)*)*`
/// have exponentially many) gives a bounded number of them, and
/// [`crate::probability`] then a lower bound.
pub const MAX_WAYS_PER_END: usize = 64;

/// The ways already found for a node at a position, within one backward run.
type Memo = HashMap<(*const Node, usize), Vec<(usize, Way)>>;

/// Keeps at most [`MAX_WAYS_PER_END`] ways for each end position, in order.
fn cap(ways: Vec<(usize, Way)>) -> Vec<(usize, Way)> {
    let mut count: HashMap<usize, usize> = HashMap::new();
    ways.into_iter()
        .filter(|(end, _)| {
            let n = count.entry(*end).or_insert(0);
            *n += 1;
            *n <= MAX_WAYS_PER_END
        })
        .collect()
}

/// Every way `node` matches a prefix of `s[at..]` (at most
/// [`MAX_WAYS_PER_END`] for each end position): the end position and the way.
fn back_node(node: &Node, s: &[char], at: usize, memo: &mut Memo) -> Vec<(usize, Way)> {
    let key = (node as *const Node, at);
    if let Some(ways) = memo.get(&key) {
        return ways.clone();
    }
    let ways = cap(match node {
        Node::Lit(cs) => {
            if s[at..].starts_with(cs) {
                vec![(at + cs.len(), Way::empty())]
            } else {
                Vec::new()
            }
        }
        Node::Class(c, _) => match s.get(at) {
            Some(ch) => c.back(ch).into_iter().map(|w| (at + 1, w)).collect(),
            None => Vec::new(),
        },
        Node::Alt(opts, subs) => {
            let p = 1.0 / opts.len() as f64;
            let mut out = Vec::new();
            for (i, sub) in subs.iter().enumerate() {
                for (end, w) in back_node(sub, s, at, memo) {
                    let forest = vec![ChoiceTree::choice(ALT_SITE, i as Choice, w.forest)];
                    out.push((end, Way { forest, prob: w.prob * p }));
                }
            }
            out
        }
        Node::Repeat { min, max, sub } => {
            let p = 1.0 / ((max - min) as f64 + 1.0);
            let mut out = Vec::new();
            // States after `k` runs of the body: (position, way).
            let mut states = vec![(at, Way::empty())];
            for k in 0..=*max {
                if k >= *min {
                    for (end, w) in &states {
                        let mut forest = vec![ChoiceTree::choice(REPEAT_SITE, (k - min) as Choice, Vec::new())];
                        forest.extend(w.forest.iter().cloned());
                        out.push((*end, Way { forest, prob: w.prob * p }));
                    }
                }
                if k == *max || states.is_empty() {
                    break;
                }
                states = seq_step(states, sub, s, memo);
            }
            out
        }
        Node::Concat(ns) => {
            let mut states = vec![(at, Way::empty())];
            for n in ns {
                if states.is_empty() {
                    break;
                }
                states = seq_step(states, n, s, memo);
            }
            states
        }
    });
    memo.insert(key, ways.clone());
    ways
}

/// Extend each state by every way `node` matches next (at most
/// [`MAX_WAYS_PER_END`] for each end, counted before a way is built).
fn seq_step(states: Vec<(usize, Way)>, node: &Node, s: &[char], memo: &mut Memo) -> Vec<(usize, Way)> {
    let mut next = Vec::new();
    let mut count: HashMap<usize, usize> = HashMap::new();
    for (pos, w) in states {
        for (end, w2) in back_node(node, s, pos, memo) {
            let n = count.entry(end).or_insert(0);
            if *n == MAX_WAYS_PER_END {
                continue;
            }
            *n += 1;
            let mut forest = w.forest.clone();
            forest.extend(w2.forest);
            next.push((end, Way { forest, prob: w.prob * w2.prob }));
        }
    }
    next
}

impl Regex {
    #[inline]
    fn forward<A: Answerer + ?Sized>(&self, a: &mut A) -> Result<String, Stop> {
        match &*self.node {
            // A pattern that is one repetition (the common `[a-z]{m,n}`):
            // its loop inlined here rather than behind the recursive walk,
            // into a string made with room for it.
            Node::Repeat { min, max, sub } => {
                let count = repeat_count(*min, *max, a)?;
                let mut out = String::with_capacity(count);
                repeat_runs(sub, count, a, &mut out)?;
                Ok(out)
            }
            node => {
                let mut out = String::new();
                run_node(node, a, &mut out)?;
                Ok(out)
            }
        }
    }
}

impl Gen for Regex {
    type Value = String;
    one_forward_body!();
    fn back(&self, target: &String) -> Vec<Way> {
        let s: Vec<char> = target.chars().collect();
        back_node(&self.node, &s, 0, &mut Memo::new())
            .into_iter()
            .filter(|(end, _)| *end == s.len())
            .map(|(_, w)| w)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::{check, generate, generate_recorded, parse_tree, reflect};

    #[test]
    fn generated_strings_match_and_round_trip() {
        for pat in ["[a-z]{1,3}", "(ab|c)*d", "x?y+", "[0-9]{2}-[A-F]", "a|b|c|dd", "\\d{3}"] {
            let g = regex(pat);
            for seed in 0..200 {
                let (v, tree) = generate_recorded(&g, seed);
                let v = v.unwrap();
                assert_eq!(parse_tree(&g, &tree).unwrap(), v, "{pat}");
                let trees = reflect(&g, &v);
                assert!(!trees.is_empty(), "{pat}: {v:?}");
                for t in trees {
                    assert_eq!(parse_tree(&g, &t).unwrap(), v);
                }
            }
        }
    }

    #[test]
    fn non_matching_strings_have_no_ways() {
        let g = regex("[a-c]{2}(x|yz)?");
        for s in ["", "a", "abc", "abx1", "ABx", "abyzz"] {
            assert!(!check(&g, &s.to_string()), "{s}");
        }
        assert!(check(&g, &"cax".to_string()));
    }

    #[test]
    fn unbounded_repetition_is_bounded() {
        let g = regex("a*");
        for seed in 0..100 {
            assert!(generate(&g, seed).unwrap().len() <= UNBOUNDED_EXTRA as usize);
        }
        assert!(!check(&g, &"a".repeat(UNBOUNDED_EXTRA as usize + 1)));
    }

    #[test]
    fn anchors_are_honoured_at_the_edges_and_refused_inside() {
        for ok in ["^ab$", "^(a|b)$", "\\bword\\b", "^a|b$", "(^a)b"] {
            let g = Regex::new(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
            assert!(check(&g, &generate(&g, 1).unwrap()), "{ok}");
        }
        for bad in ["a^b", "a$b", "a\\bb", "(^a)*", "a(b$)c"] {
            let e = Regex::new(bad).unwrap_err();
            assert!(e.to_string().contains("cannot honour"), "{bad}: {e}");
        }
    }

    #[test]
    fn nested_repetitions_are_checked_without_enumerating_every_derivation() {
        let g = regex("((a*)*)*");
        for (s, matches) in [("", true), ("aaaa", true), ("aab", false)] {
            assert_eq!(check(&g, &s.to_string()), matches, "{s:?}");
            let ways = crate::reflect(&g, &s.to_string());
            assert!(ways.len() <= MAX_WAYS_PER_END, "{s:?}: {} ways", ways.len());
            for t in ways {
                assert_eq!(crate::parse_tree(&g, &t).unwrap(), s, "every way kept is a real derivation");
            }
        }
    }

    #[test]
    fn bad_patterns_are_errors() {
        assert!(Regex::new("(").is_err());
        assert!(Regex::new("[a").is_err());
    }
}
