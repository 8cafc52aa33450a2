//! Replay tokens: a failing case's choice sequence as one short line of text, with a checksum.
//!
//! A token looks like `r2.1x9.k3.2.0.k.1c-3f9a`: the version `r2`, a
//! [`Stamp`] saying which property and which type of value it belongs to
//! (two 16-bit hashes in base 36), then each choice in base 36, then a
//! 16-bit checksum in hex. Replaying it runs the generator on those choices,
//! leniently (a choice the generator can no longer make is replaced), so a
//! token survives small changes to the generator; the runner warns when the
//! stamp does not fit the property it is replayed into. Version-1 tokens
//! (`r1.2.0.k.1c-...`, no stamp) are read too.

use crate::hashing::fnv1a;
use refgen_core::choice::{Choice, ChoiceTree, Request, Site};
use refgen_core::gen::Gen;
use refgen_core::source::{Source, Stop};
use refgen_core::trail::Recorder;
use std::fmt;

const VERSION: &str = "r1";
const STAMPED: &str = "r2";

/// Which property and generator a token belongs to: 16-bit hashes of the
/// property's name and of the type of value its generator makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    /// The hash of the property's name.
    pub property: u16,
    /// The hash of the value's type name.
    pub value: u16,
}

impl Stamp {
    /// The stamp of the property `property` whose generator makes values of the type named `value_type`.
    pub fn new(property: &str, value_type: &str) -> Stamp {
        Stamp { property: checksum(property), value: checksum(value_type) }
    }
}

/// A decoded token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// Which property and generator it belongs to (`None` for a version-1 token).
    pub stamp: Option<Stamp>,
    /// The choices.
    pub choices: Vec<Choice>,
}

/// Why a string is not a replay token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenError {
    /// The string given.
    pub token: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a replay token ({}); copy the whole `REFGEN_REPLAY=...` value from the failure report",
            self.token, self.reason
        )
    }
}

impl std::error::Error for TokenError {}

fn checksum(body: &str) -> u16 {
    let h = fnv1a(body.as_bytes());
    (h ^ (h >> 16) ^ (h >> 32) ^ (h >> 48)) as u16
}

/// The token of a choice sequence, with no stamp (version 1).
pub fn encode(choices: &[Choice]) -> String {
    seal(String::from(VERSION), choices)
}

/// The token of a choice sequence made by the property and generator `stamp` names.
pub fn encode_stamped(stamp: Stamp, choices: &[Choice]) -> String {
    let body = format!("{STAMPED}.{}.{}", to_base36(stamp.property.into()), to_base36(stamp.value.into()));
    seal(body, choices)
}

/// `body`, then the choices, then the checksum.
fn seal(mut body: String, choices: &[Choice]) -> String {
    for &c in choices {
        body.push('.');
        body.push_str(&to_base36(c));
    }
    let sum = checksum(&body);
    format!("{body}-{sum:04x}")
}

/// The stamp and choice sequence of a token.
pub fn decode(token: &str) -> Result<Token, TokenError> {
    let err = |reason: String| TokenError { token: token.to_owned(), reason };
    let t = token.trim();
    let (body, sum) = t.rsplit_once('-').ok_or_else(|| err("it has no checksum after a `-`".into()))?;
    let mut parts = body.split('.');
    let stamped = match parts.next() {
        Some(VERSION) => false,
        Some(STAMPED) => true,
        Some(v) => {
            return Err(err(format!("it starts with `{v}`, but this version reads `{VERSION}` and `{STAMPED}` tokens")))
        }
        None => return Err(err("it is empty".into())),
    };
    let sum = u16::from_str_radix(sum, 16).map_err(|_| err(format!("its checksum `{sum}` is not hexadecimal")))?;
    if sum != checksum(body) {
        return Err(err("its checksum does not match: it was cut short or mistyped".into()));
    }
    let mut hash = || {
        let p = parts.next().unwrap_or("");
        u64::from_str_radix(p, 36)
            .ok()
            .and_then(|h| u16::try_from(h).ok())
            .ok_or_else(|| err(format!("its stamp `{p}` is not a 16-bit base-36 number")))
    };
    let stamp = if stamped { Some(Stamp { property: hash()?, value: hash()? }) } else { None };
    let choices = parts
        .enumerate()
        .map(|(i, p)| u64::from_str_radix(p, 36).map_err(|_| err(format!("choice #{i} `{p}` is not a base-36 number"))))
        .collect::<Result<_, _>>()?;
    Ok(Token { stamp, choices })
}

fn to_base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
    }
    out.reverse();
    String::from_utf8(out).expect("ascii digits")
}

/// Answers choices from a flat sequence, leniently: a choice the request
/// does not accept is clamped to its largest answer; past the end, the first answer.
struct SeqLenient<'a> {
    choices: &'a [Choice],
    pos: usize,
}

impl Source for SeqLenient<'_> {
    fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = self.choices.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        Ok(if request.accepts(c) { c } else { request.arity().saturating_sub(1) })
    }
}

/// Run `g` on a flat choice sequence leniently, recording the choice tree it makes.
pub fn replay_sequence<G: Gen + ?Sized>(g: &G, choices: &[Choice]) -> (Result<G::Value, Stop>, ChoiceTree) {
    let mut rec = Recorder::new(sequence_source(choices));
    let r = g.run(&mut rec);
    (r, rec.finish().0)
}

/// The source [`replay_sequence`] runs its generator on.
pub(crate) fn sequence_source(choices: &[Choice]) -> impl Source + '_ {
    SeqLenient { choices, pos: 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use refgen_core::combinators::{int, vec};
    use refgen_core::interpret::generate_recorded;

    #[test]
    fn round_trips() {
        for cs in [vec![], vec![0], vec![1, 35, 36, u64::MAX]] {
            let t = encode(&cs);
            assert_eq!(decode(&t).unwrap(), Token { stamp: None, choices: cs.clone() }, "{t}");
            let stamp = Stamp::new("a::b", "u8");
            let t = encode_stamped(stamp, &cs);
            assert_eq!(decode(&t).unwrap(), Token { stamp: Some(stamp), choices: cs }, "{t}");
        }
    }

    #[test]
    fn corrupt_tokens_are_readable_errors() {
        let good = encode(&[3, 1, 4]);
        let no_stamp = seal("r2".into(), &[]);
        let big_stamp = seal("r2.zzzzzz.1".into(), &[]);
        for bad in [
            "",
            "hello",
            "r1.3.1.4",
            "r2.3-0000",
            "r1.3.!-0000",
            &good[..good.len() - 1],
            &good.replace(".1.", ".2."),
            &no_stamp,
            &big_stamp,
        ] {
            let e = decode(bad).unwrap_err();
            assert!(e.to_string().contains("is not a replay token"), "{e}");
        }
    }

    #[test]
    fn replaying_a_sequence_reproduces_the_value() {
        let g = vec(int(0u32..=1000), 0..=10);
        for seed in 0..50 {
            let (v, tree) = generate_recorded(&g, seed);
            let (w, again) = replay_sequence(&g, &decode(&encode(&tree.choices())).unwrap().choices);
            assert_eq!(v.unwrap(), w.unwrap());
            assert_eq!(tree, again);
        }
    }
}
