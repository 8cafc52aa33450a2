//! Strings on the SMT back end: regex membership and string differences as Z3 constraints.
//!
//! The specification is the structure [`Regex::shape`] gives, the one the
//! regex generator runs: unbounded repetitions are bounded as the generator
//! bounds them, so both back ends draw from the same language. A coverage
//! constraint ([`StrDifference::CoverRegex`], [`StrDifference::CoverRegexCounts`])
//! is the native back end's [`Reduce`] written out: the cases of the
//! pattern (the sequences of keys a run can make, each with the regex of
//! the strings it makes) are enumerated natively, and Z3 picks the case of
//! each value through an integer `case` with `case = i ∧ x ∈ case_i` for
//! some `i`; "different" is then `case ≠ case_v`. When the constraint
//! implies the coverage (it is a cover, or `all_of` one), no two members
//! share a case, so the loop walks the cases instead: each query assumes
//! `case = i ∧ x ∈ case_i` for the next case not yet tried, and a case with
//! no value (`unsat`) never gets one later, as constraints only accumulate.
//! Z3 then solves one small regex at a time rather than their union.

use super::{iorek_loop, solver, Combined};
use crate::distinct::{cover_by, different_lengths, edit_distance, not_equal, Difference, DistinctSet, Reduce};
use refgen_core::regex::{Regex, Shape};
use std::fmt;
use z3::ast::{Bool, Int, Regexp, String as Text};
use z3::{SatResult, Solver};

/// At most this many cases of a coverage constraint are enumerated.
pub const MAX_CASES: usize = 10_000;

/// At most this many cells in the table that computes an edit distance:
/// `(longest string + 1)²`, the longest being what the pattern can match.
pub const MAX_EDIT_CELLS: u64 = 40_000;

/// A difference constraint between two strings that both back ends understand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrDifference {
    /// Different when not equal.
    NotEqual,
    /// Different when the lengths (in chars) differ.
    DifferentLengths,
    /// Different when the Levenshtein distance is at least this (the
    /// pattern must bound its strings' length; see [`MAX_EDIT_CELLS`]).
    EditDistance(usize),
    /// Different when the `cover-regexp` cases differ ([`Reduce::RegexCases`]).
    CoverRegex,
    /// Different when the cases differ, every count of a repetition a case
    /// of its own ([`Reduce::RegexCounts`]).
    CoverRegexCounts,
    /// Different when all of these say so.
    AllOf(Vec<StrDifference>),
    /// Different when one of these says so.
    SomeOf(Vec<StrDifference>),
    /// Different when this one says they are not.
    Not(Box<StrDifference>),
}

/// Why the SMT back end cannot take a pattern or a constraint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmtError(pub String);

impl fmt::Display for SmtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SmtError {}

impl StrDifference {
    fn combined(&self) -> Option<Combined<'_, StrDifference>> {
        match self {
            StrDifference::AllOf(ds) => Some(Combined::AllOf(ds)),
            StrDifference::SomeOf(ds) => Some(Combined::SomeOf(ds)),
            StrDifference::Not(d) => Some(Combined::Not(d)),
            _ => None,
        }
    }

    /// The coverage of an atom.
    fn reduce(&self) -> Option<Reduce> {
        match self {
            StrDifference::CoverRegex => Some(Reduce::RegexCases),
            StrDifference::CoverRegexCounts => Some(Reduce::RegexCounts),
            _ => None,
        }
    }

    /// The coverage that holds whenever this does (a cover, or `all_of` one):
    /// two values in the same case are never different under it.
    fn implied_cover(&self) -> Option<Reduce> {
        match self {
            StrDifference::AllOf(ds) => ds.iter().find_map(StrDifference::implied_cover),
            atom => atom.reduce(),
        }
    }

    /// Whether two strings different under this are never equal (so the
    /// solver need not be told `x != v` as well).
    fn implies_unequal(&self) -> bool {
        match self {
            StrDifference::NotEqual | StrDifference::DifferentLengths => true,
            StrDifference::EditDistance(t) => *t >= 1,
            StrDifference::AllOf(ds) => ds.iter().any(StrDifference::implies_unequal),
            StrDifference::SomeOf(ds) => !ds.is_empty() && ds.iter().all(StrDifference::implies_unequal),
            _ => false,
        }
    }

    /// Every atom, depth first.
    fn atoms<'d>(&'d self, out: &mut Vec<&'d StrDifference>) {
        match self {
            StrDifference::AllOf(ds) | StrDifference::SomeOf(ds) => ds.iter().for_each(|d| d.atoms(out)),
            StrDifference::Not(d) => d.atoms(out),
            atom => out.push(atom),
        }
    }

    /// The same constraint for the native back end ([`crate::distinct::distinct`]
    /// over [`refgen_core::regex::regex`] of the same pattern).
    pub fn native(&self) -> Difference<String> {
        if let Some(c) = self.combined() {
            return c.native(StrDifference::native);
        }
        match (self, self.reduce()) {
            (_, Some(reduce)) => cover_by(reduce),
            (StrDifference::DifferentLengths, _) => different_lengths(),
            (StrDifference::EditDistance(t), _) => edit_distance(*t),
            _ => not_equal(),
        }
    }

    /// The constraint that `x` differs from the model value `v`.
    fn assertion(&self, spec: &Spec, v: &Seen) -> Bool {
        if let Some(c) = self.combined() {
            return c.assertion(|d| d.assertion(spec, v));
        }
        if let Some(reduce) = self.reduce() {
            let (_, case) = spec.covers.iter().find(|(r, _)| *r == reduce).expect("set up for every cover");
            let seen = v.cases.iter().find(|(r, _)| *r == reduce).expect("read for every cover").1;
            return case.ne(Int::from_i64(seen));
        }
        match self {
            StrDifference::DifferentLengths => spec.x.length().ne(Int::from_u64(v.value.chars().count() as u64)),
            StrDifference::EditDistance(t) => levenshtein(&spec.x, spec.longest, &v.value).ge(Int::from_u64(*t as u64)),
            _ => spec.x.ne(text(&v.value)),
        }
    }
}

/// The unknown string, and what the constraints need of it.
struct Spec {
    x: Text,
    /// The most chars a string of the pattern has.
    longest: u64,
    /// For each coverage used: the variable holding the case of `x`.
    covers: Vec<(Reduce, Int)>,
}

/// A member as the constraints see it: its value and its case under each coverage.
struct Seen {
    value: String,
    cases: Vec<(Reduce, i64)>,
}

/// A Z3 string literal of `s`: printable ASCII as itself, every other char as `\u{..}`.
fn escape(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ' '..='~' if c != '\\' => c.to_string(),
            c => format!("\\u{{{:x}}}", c as u32),
        })
        .collect()
}

/// The chars of a Z3 string as [`z3::ast::String::as_string`] writes them (`\u{..}` escapes).
fn unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(i) = rest.find("\\u{") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('}')? + i;
        out.push(char::from_u32(u32::from_str_radix(&rest[i + 3..end], 16).ok()?)?);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    Some(out)
}

fn text(s: &str) -> Text {
    Text::from(escape(s))
}

fn literal(s: &str) -> Regexp {
    Regexp::literal(&escape(s))
}

fn union(mut res: Vec<Regexp>) -> Regexp {
    match res.len() {
        1 => res.pop().expect("one"),
        0 => Regexp::empty(),
        _ => Regexp::union(&res),
    }
}

fn concat(mut res: Vec<Regexp>) -> Regexp {
    match res.len() {
        1 => res.pop().expect("one"),
        0 => literal(""),
        _ => Regexp::concat(&res),
    }
}

/// `lo..=hi` runs of `re`.
fn repeat(re: &Regexp, lo: u32, hi: u32) -> Regexp {
    // Z3 reads a loop with upper bound 0 as unbounded.
    if hi == 0 {
        literal("")
    } else {
        re.r#loop(lo, hi)
    }
}

/// A class of printable ASCII chars as a Z3 regex.
fn class(ranges: &[(char, char)]) -> Result<Regexp, SmtError> {
    let mut res = Vec::new();
    for &(a, b) in ranges {
        if a < ' ' || b > '~' {
            return Err(SmtError(format!(
                "the z3 back end takes character classes of printable ASCII only; this one has {:?}..={:?}",
                a, b
            )));
        }
        // A backslash is written escaped; the range around it as it is.
        let parts = [(a, b.min('[')), (a.max(']'), b)];
        res.extend(parts.iter().filter(|(lo, hi)| lo <= hi).map(|(lo, hi)| Regexp::range(lo, hi)));
        if (a..=b).contains(&'\\') {
            res.push(literal("\\"));
        }
    }
    Ok(union(res))
}

/// The whole language of `shape`.
fn language(shape: &Shape) -> Result<Regexp, SmtError> {
    Ok(match shape {
        Shape::Lit(s) => literal(s),
        Shape::Class(ranges) => class(ranges)?,
        Shape::Alt(subs) => union(subs.iter().map(language).collect::<Result<_, _>>()?),
        Shape::Repeat { min, max, sub } => repeat(&language(sub)?, *min, *max),
        Shape::Concat(parts) => concat(parts.iter().map(language).collect::<Result<_, _>>()?),
    })
}

/// The most chars a string of `shape` has.
fn longest(shape: &Shape) -> u64 {
    match shape {
        Shape::Lit(s) => s.chars().count() as u64,
        Shape::Class(_) => 1,
        Shape::Alt(subs) => subs.iter().map(longest).max().unwrap_or(0),
        Shape::Repeat { max, sub, .. } => longest(sub).saturating_mul(u64::from(*max)),
        Shape::Concat(parts) => parts.iter().map(longest).fold(0, u64::saturating_add),
    }
}

/// One case of a coverage: the keys a run makes, and the strings it makes.
struct Case {
    keys: Vec<u64>,
    re: Regexp,
    /// The same strings told Z3's way when it can be: a repetition of one
    /// char as a star, the count left to the length, which Z3 solves far
    /// faster than the unrolled count (see [`Starred`]).
    starred: Option<Starred>,
}

/// A regex in which every repetition of a one-char body is a star, and the
/// fewest and most chars of the strings meant: exactly those strings when
/// there is at most one star (`star` says whether there is one).
#[derive(Clone)]
struct Starred {
    re: Regexp,
    lens: (u64, u64),
    star: bool,
}

impl Starred {
    fn fixed(re: Regexp, len: u64) -> Self {
        Starred { re, lens: (len, len), star: false }
    }

    /// Both in order, when that is still exact (not two stars).
    fn then(&self, next: &Starred) -> Option<Starred> {
        (!(self.star && next.star)).then(|| Starred {
            re: concat(vec![self.re.clone(), next.re.clone()]),
            lens: (self.lens.0 + next.lens.0, self.lens.1 + next.lens.1),
            star: self.star || next.star,
        })
    }

    /// `x` is one of the strings meant.
    fn holds(&self, x: &Text) -> [Bool; 3] {
        let length = x.length();
        [x.regex_matches(&self.re), length.ge(Int::from_u64(self.lens.0)), length.le(Int::from_u64(self.lens.1))]
    }
}

fn too_many(reduce: Reduce) -> SmtError {
    SmtError(format!("the pattern has more than {MAX_CASES} cases under {reduce:?}; use the native back end"))
}

/// Every pairing of a case of `a` and then one of `b`.
fn product(a: &[Case], b: &[Case], reduce: Reduce) -> Result<Vec<Case>, SmtError> {
    if a.len().saturating_mul(b.len()) > MAX_CASES {
        return Err(too_many(reduce));
    }
    Ok(a.iter()
        .flat_map(|x| {
            b.iter().map(|y| Case {
                keys: x.keys.iter().chain(&y.keys).copied().collect(),
                re: concat(vec![x.re.clone(), y.re.clone()]),
                starred: x.starred.as_ref().zip(y.starred.as_ref()).and_then(|(a, b)| a.then(b)),
            })
        })
        .collect())
}

/// The cases of `shape` under `reduce`, as [`Reduce::key`] gives them to a
/// run of the regex generator: an alternation's option, then its cases; a
/// repetition's key (short or long; or its count), then its runs' cases;
/// classes and literals give no key.
fn cases(shape: &Shape, reduce: Reduce) -> Result<Vec<Case>, SmtError> {
    Ok(match shape {
        Shape::Lit(_) | Shape::Class(_) => {
            let re = language(shape)?;
            vec![Case { keys: Vec::new(), re: re.clone(), starred: Some(Starred::fixed(re, longest(shape))) }]
        }
        Shape::Alt(subs) => {
            let mut out = Vec::new();
            for (i, sub) in subs.iter().enumerate() {
                for c in cases(sub, reduce)? {
                    out.push(Case { keys: std::iter::once(i as u64).chain(c.keys).collect(), ..c });
                }
            }
            out
        }
        Shape::Concat(parts) => {
            let mut acc =
                vec![Case { keys: Vec::new(), re: literal(""), starred: Some(Starred::fixed(literal(""), 0)) }];
            for part in parts {
                acc = product(&acc, &cases(part, reduce)?, reduce)?;
            }
            acc
        }
        Shape::Repeat { min, max, sub } => {
            let key = |count: u32| match reduce {
                Reduce::RegexCounts => u64::from(count - min),
                _ => u64::from(count - min).min(1),
            };
            let body = cases(sub, reduce)?;
            let mut out: Vec<Case> = Vec::new();
            if let [only] = &body[..] {
                if only.keys.is_empty() {
                    // Counts with the same key make the same case: one loop each.
                    let mut count = *min;
                    while count <= *max {
                        let k = key(count);
                        let last = (count..=*max).take_while(|&c| key(c) == k).last().unwrap_or(count);
                        // A one-char body (a class, or a literal char) repeats as a star.
                        let starred = only.starred.as_ref().filter(|s| s.lens == (1, 1) && !s.star).map(|s| Starred {
                            re: s.re.star(),
                            lens: (u64::from(count), u64::from(last)),
                            star: true,
                        });
                        out.push(Case { keys: vec![k], re: repeat(&only.re, count, last), starred });
                        if out.len() > MAX_CASES {
                            return Err(too_many(reduce));
                        }
                        count = last + 1;
                    }
                    return Ok(out);
                }
            }
            for count in *min..=*max {
                let empty = Starred::fixed(literal(""), 0);
                let mut runs = vec![Case { keys: vec![key(count)], re: literal(""), starred: Some(empty) }];
                for _ in 0..count {
                    runs = product(&runs, &body, reduce)?;
                }
                for run in runs {
                    match out.iter_mut().find(|c| c.keys == run.keys) {
                        Some(c) => {
                            c.re = union(vec![c.re.clone(), run.re]);
                            c.starred = None;
                        }
                        None => out.push(run),
                    }
                }
                if out.len() > MAX_CASES {
                    return Err(too_many(reduce));
                }
            }
            out
        }
    })
}

/// The Levenshtein distance between `x` (of at most `longest` chars) and `v`,
/// by the usual table, one row per char of `x`, chosen by the length of `x`.
fn levenshtein(x: &Text, longest: u64, v: &str) -> Int {
    let v: Vec<char> = v.chars().collect();
    let min = |a: Int, b: Int| a.lt(&b).ite(&a, &b);
    let mut row: Vec<Int> = (0..=v.len() as u64).map(Int::from_u64).collect();
    let mut ends = vec![row[v.len()].clone()];
    for i in 1..=longest {
        let here = x.at(Int::from_u64(i - 1));
        let mut next = vec![Int::from_u64(i)];
        for (j, c) in v.iter().enumerate() {
            let swap = here.eq(text(&c.to_string())).ite(&Int::from_u64(0), &Int::from_u64(1));
            let best = min(min(&row[j + 1] + 1u64, &next[j] + 1u64), &row[j] + &swap);
            next.push(best);
        }
        ends.push(next[v.len()].clone());
        row = next;
    }
    let length = x.length();
    let mut out = ends.pop().expect("row 0");
    for (i, end) in ends.into_iter().enumerate().rev() {
        out = length.eq(Int::from_u64(i as u64)).ite(&end, &out);
    }
    out
}

/// Up to `n` strings matching `pattern` (as [`refgen_core::regex::regex`]
/// reads it: unbounded repetitions bounded alike), every pair different
/// under `difference`, in at most `budget` rounds of Iorek's loop (one per
/// member, and the last one that finds none; when the constraint implies a
/// coverage, a round asks one query per case it walks past). Members carry
/// no choices (`steps` is empty).
///
/// # Errors
///
/// When the pattern does not parse, has a character class outside
/// printable ASCII, has more than [`MAX_CASES`] cases under a coverage the
/// constraint uses, or the constraint asks for an edit distance over
/// strings too long for [`MAX_EDIT_CELLS`].
pub fn distinct_strings(
    n: usize,
    pattern: &str,
    difference: &StrDifference,
    budget: usize,
) -> Result<DistinctSet<String>, SmtError> {
    let shape = Regex::new(pattern).map_err(|e| SmtError(format!("regex {pattern:?}: {e}")))?.shape();
    let longest = longest(&shape);
    let mut atoms = Vec::new();
    difference.atoms(&mut atoms);
    if atoms.iter().any(|a| matches!(a, StrDifference::EditDistance(_)))
        && (longest + 1).saturating_mul(longest + 1) > MAX_EDIT_CELLS
    {
        return Err(SmtError(format!(
            "an edit distance over strings of up to {longest} chars is too large a formula for the z3 back end; \
             use the native one"
        )));
    }
    let solver = solver();
    let x = Text::new_const("x");
    let mut covers = Vec::new();
    // The walk over the cases of the coverage the constraint implies: each
    // case's assumption, and the next case to try.
    let implied = difference.implied_cover();
    let mut walk: Vec<Vec<Bool>> = Vec::new();
    for reduce in atoms.iter().filter_map(|a| a.reduce()) {
        if covers.iter().any(|(r, _)| *r == reduce) {
            continue;
        }
        let case = Int::new_const(format!("case_{reduce:?}"));
        let member = cases(&shape, reduce)?
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let mut holds = vec![case.eq(Int::from_u64(i as u64))];
                match &c.starred {
                    Some(starred) => holds.extend(starred.holds(&x)),
                    None => holds.push(x.regex_matches(&c.re)),
                }
                holds
            })
            .collect::<Vec<_>>();
        if Some(reduce) == implied {
            walk = member;
        } else {
            solver.assert(Bool::or(&member.iter().map(|m| Bool::and(m)).collect::<Vec<_>>()));
        }
        covers.push((reduce, case));
    }
    if covers.is_empty() {
        solver.assert(x.regex_matches(&language(&shape)?));
    }
    let mut next = 0;
    let check = |solver: &Solver| {
        if implied.is_none() {
            return solver.check();
        }
        while let Some(assume) = walk.get(next) {
            next += 1;
            match solver.check_assumptions(assume) {
                SatResult::Unsat => continue,
                r => return r,
            }
        }
        SatResult::Unsat
    };
    let spec = Spec { x, longest, covers };
    Ok(iorek_loop(n, budget, &solver, check, |model| {
        let value = unescape(&model.eval(&spec.x, true)?.as_string()?)?;
        let mut cases = Vec::new();
        for (reduce, case) in &spec.covers {
            cases.push((*reduce, model.eval(case, true)?.as_i64()?));
        }
        let seen = Seen { value, cases };
        let mut different = difference.assertion(&spec, &seen);
        if !difference.implies_unequal() {
            different = Bool::and(&[spec.x.ne(text(&seen.value)), different]);
        }
        Some((seen.value, different))
    }))
}
