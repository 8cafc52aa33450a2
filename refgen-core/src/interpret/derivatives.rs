//! Derivatives (Goldstein's thesis Sec. 2.5): a generator after a prefix, `nullable`, its language.

use crate::choice::{Choice, ChoiceTree, OwnedRequest, Request, Site};
use crate::gen::{Gen, Way};
use crate::source::{FirstPick, Handover, Script, Scripted, Source, Stop};

/// Replays a prefix, then halts at the first choice point beyond it and notes its request.
struct Probe<'a> {
    prefix: &'a [Choice],
    pos: usize,
    prob: f64,
    next: Option<OwnedRequest>,
}

impl Source for Probe<'_> {
    fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        match self.prefix.get(self.pos) {
            Some(&c) if request.accepts(c) => {
                self.pos += 1;
                self.prob *= request.probability(c);
                Ok(c)
            }
            Some(_) => Err(Stop::Rejected),
            None => {
                self.next = Some(request.to_owned_request());
                Err(Stop::Halt)
            }
        }
    }
}

/// What a generator does after a prefix of choices.
enum AfterPrefix<T> {
    /// It finished with this value, using exactly the prefix.
    Done(T),
    /// It asks this next.
    Asks(OwnedRequest),
    /// It cannot continue (the prefix does not fit, or no value results).
    Fails,
}

fn after_prefix<G: Gen + ?Sized>(g: &G, prefix: &[Choice]) -> (AfterPrefix<G::Value>, f64) {
    let mut p = Probe { prefix, pos: 0, prob: 1.0, next: None };
    let r = g.run(&mut p);
    let out = match r {
        Ok(v) if p.pos == prefix.len() => AfterPrefix::Done(v),
        Err(Stop::Halt) => match p.next.take() {
            Some(req) => AfterPrefix::Asks(req),
            None => AfterPrefix::Fails,
        },
        _ => AfterPrefix::Fails,
    };
    (out, p.prob)
}

/// The choice point a generator asks next, with its options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextPick {
    /// The choice point.
    pub site: Site,
    /// What it asks.
    pub request: OwnedRequest,
}

/// The choice point `g` asks first, or `None` when it makes no choice
/// (it is nullable, or void).
pub fn next_pick<G: Gen + ?Sized>(g: &G) -> Option<NextPick> {
    FirstPick::of(|s| g.run(s)).map(|(site, request)| NextPick { site, request })
}

/// Goldstein's `ν`: the value `g` gives without making any choice, if it makes none.
pub fn nullable<G: Gen + ?Sized>(g: &G) -> Option<G::Value> {
    match after_prefix(g, &[]).0 {
        AfterPrefix::Done(v) => Some(v),
        _ => None,
    }
}

/// The derivative of a generator by a choice prefix (Goldstein's thesis Sec. 2.5):
/// the generator that makes the choices `g` would make after `prefix`.
/// It is `void` when the prefix does not fit.
#[derive(Debug, Clone)]
pub struct Derivative<G> {
    gen: G,
    prefix: Vec<Choice>,
}

/// `δ_c g`: the derivative of `g` by the choice `c`.
pub fn derivative<G: Gen>(g: G, c: Choice) -> Derivative<G> {
    Derivative { gen: g, prefix: vec![c] }
}

impl<G: Gen> Derivative<G> {
    /// The derivative of this derivative by `c` (the prefix grows by one;
    /// nothing is nested).
    pub fn derive(&self, c: Choice) -> Self
    where
        G: Clone,
    {
        let mut prefix = self.prefix.clone();
        prefix.push(c);
        Derivative { gen: self.gen.clone(), prefix }
    }

    /// The choices taken so far.
    pub fn prefix(&self) -> &[Choice] {
        &self.prefix
    }

    /// The generator underneath.
    pub fn inner(&self) -> &G {
        &self.gen
    }
}

/// Answers from a prefix, then hands over.
struct Prefix<'a> {
    prefix: &'a [Choice],
    pos: usize,
}

impl Script for Prefix<'_> {
    fn next(&mut self, _site: Site, request: Request<'_>) -> Scripted {
        match self.prefix.get(self.pos) {
            Some(&c) if request.accepts(c) => {
                self.pos += 1;
                Scripted::Take(c)
            }
            Some(_) => Scripted::Fail(Stop::Void),
            None => Scripted::Ask,
        }
    }
}

impl<G: Gen> Gen for Derivative<G> {
    type Value = G::Value;
    fn run(&self, src: &mut dyn Source) -> Result<G::Value, Stop> {
        let mut p = Handover::new(Prefix { prefix: &self.prefix, pos: 0 }, src);
        let r = self.gen.run(&mut p);
        match r {
            // A value reached before the prefix was used up is not in the derivative's language.
            Ok(_) if p.script.pos < self.prefix.len() => Err(Stop::Void),
            r => r,
        }
    }
    fn back(&self, target: &G::Value) -> Vec<Way> {
        let (after, prefix_prob) = after_prefix(&self.gen, &self.prefix);
        if matches!(after, AfterPrefix::Fails) || prefix_prob <= 0.0 {
            return Vec::new();
        }
        let n = self.prefix.len();
        self.gen
            .back(target)
            .into_iter()
            .filter_map(|w| {
                let mut root = ChoiceTree::root(w.forest);
                let flat = root.choices();
                if flat.len() < n || flat[..n] != self.prefix[..] {
                    return None;
                }
                root.forget_prefix(n);
                Some(Way { forest: root.children, prob: w.prob / prefix_prob })
            })
            .collect()
    }
}

/// The language of a generator, enumerated up to a bound (Goldstein's `L[.]`).
#[derive(Debug, Clone, PartialEq)]
pub struct Language<T> {
    /// Every choice sequence found with the value it parses to, in
    /// enumeration order (options in order, depth first).
    pub members: Vec<(Vec<Choice>, T)>,
    /// Whether the enumeration is the whole language (no bound was reached).
    pub complete: bool,
}

/// Enumerate the language of `g`: every choice sequence it can make, with
/// its value, trying options in order, up to `max_members` members and
/// sequences of at most `max_len` choices.
pub fn language<G: Gen + ?Sized>(g: &G, max_members: usize, max_len: usize) -> Language<G::Value> {
    fn go<G: Gen + ?Sized>(
        g: &G,
        prefix: &mut Vec<Choice>,
        max_members: usize,
        max_len: usize,
        out: &mut Language<G::Value>,
    ) {
        if out.members.len() >= max_members {
            out.complete = false;
            return;
        }
        match after_prefix(g, prefix).0 {
            AfterPrefix::Done(v) => out.members.push((prefix.clone(), v)),
            AfterPrefix::Fails => {}
            AfterPrefix::Asks(req) => {
                if prefix.len() >= max_len {
                    out.complete = false;
                    return;
                }
                let n = req.as_request().arity();
                let mut c: u64 = 0;
                while c < n {
                    if out.members.len() >= max_members {
                        out.complete = false;
                        return;
                    }
                    prefix.push(c);
                    go(g, prefix, max_members, max_len, out);
                    prefix.pop();
                    c += 1;
                }
            }
        }
    }
    let mut out = Language { members: Vec::new(), complete: true };
    go(g, &mut Vec::new(), max_members, max_len, &mut out);
    out
}

/// Enumerate the values of `g` (Goldstein's `Enum`), up to the same bounds as [`language`].
pub fn enumerate<G: Gen + ?Sized>(g: &G, max_members: usize, max_len: usize) -> Vec<G::Value> {
    language(g, max_members, max_len).members.into_iter().map(|(_, v)| v).collect()
}

/// The probability that generation makes exactly the choices `choices`
/// (0 when they do not parse).
pub fn sequence_probability<G: Gen + ?Sized>(g: &G, choices: &[Choice]) -> f64 {
    match after_prefix(g, choices) {
        (AfterPrefix::Done(_), p) => p,
        _ => 0.0,
    }
}
