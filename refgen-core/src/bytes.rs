//! Bytes as a source of choices: a fuzzer's bytes answer choice points; values reflect to bytes.
//!
//! Goldstein's thesis (Ch. 4, "Bringing Fuzzing into Focus") lets an
//! off-the-shelf fuzzer drive a reflective generator: the fuzzer mutates
//! bytes, the bytes answer the choices, and the backward direction turns
//! values a user writes down into bytes that seed the fuzzer's corpus.
//!
//! # The encoding
//!
//! The byte string is read front to back as if it went on with zeros
//! forever. Each choice point reads as few bytes as its largest answer needs
//! (a pick of 2 to 256 options reads one byte, of 257 to 65 536 options two;
//! a pick of one option, or a range of one value, reads none), as one
//! big-endian number `x`, and answers `x mod n` for its `n` answers (a full
//! 64-bit range takes `x` as it is). So
//!
//! - every byte string of every length decodes, never panics, and gives
//!   every choice in range: decoding is total, and a value is one the
//!   generator can make (it is `Err` only when the generator's own validity
//!   condition rejects it, or the generator is void);
//! - once the bytes run out every choice is 0: the first option, the low end
//!   of a range, which for a recursive type is the base case, so decoding
//!   always ends;
//! - a small edit of one byte is a small edit of one choice (an integer
//!   moves by the same amount, modulo its range), and the choices after it
//!   read the same bytes as before.
//!
//! [`to_bytes`] goes the other way: it reflects a value into the choices
//! that make it and writes each in its width, dropping trailing zero bytes
//! (they read back as zeros). Decoding the encoding gives the value back
//! (checked for every generator the law tests cover, by
//! [`crate::laws::round_trip`]).
//!
//! ```
//! use refgen::bytes::{from_bytes, to_bytes};
//! use refgen::combinators::{int, vec};
//!
//! let g = vec(int(0u16..=1000), 0..=5);
//! assert!(from_bytes(&g, &[0xff; 3]).is_ok());         // any bytes decode
//! let v = vec![7, 999, 0];
//! let bytes = to_bytes(&g, &v).unwrap();              // a value, encoded
//! assert_eq!(from_bytes(&g, &bytes).unwrap(), v);     // decodes back to it
//! ```

use crate::choice::{Choice, ChoiceTree, Request, Site};
use crate::gen::Gen;
use crate::interpret::{reflect, run_recorded, ParseError, SeqSource};
use crate::source::{Source, Stop};
use std::fmt;

/// How many bytes a choice point whose largest answer is `largest` reads: as
/// few as hold `largest` (none when it is 0).
pub fn width(largest: Choice) -> usize {
    (u64::BITS - largest.leading_zeros()).div_ceil(8) as usize
}

/// The choice a number `x` read from the bytes answers for `request`: `x`
/// modulo the number of answers.
fn choice_of(x: u64, request: Request<'_>) -> Choice {
    match request.largest() {
        u64::MAX => x,
        largest => x % (largest + 1),
    }
}

/// A [`Source`] that answers each choice point from a byte string (see the
/// module docs for the encoding). It never fails: every answer is in range.
#[derive(Debug, Clone)]
pub struct BytesSource<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> BytesSource<'a> {
    /// A source reading `bytes` from the start.
    pub fn new(bytes: &'a [u8]) -> Self {
        BytesSource { bytes, pos: 0 }
    }

    /// How many bytes the choices so far have read (at most the length of
    /// the byte string: reads past its end read zeros and count nothing).
    pub fn consumed(&self) -> usize {
        self.pos.min(self.bytes.len())
    }
}

impl Source for BytesSource<'_> {
    fn choose(&mut self, _site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let w = width(request.largest());
        let mut x = 0u64;
        for i in self.pos..self.pos + w {
            x = (x << 8) | u64::from(self.bytes.get(i).copied().unwrap_or(0));
        }
        self.pos += w;
        Ok(choice_of(x, request))
    }

    fn tracks_parts(&self) -> bool {
        false
    }
}

/// Decode `bytes` into a value of `g` (see the module docs). Total: any
/// bytes give a value in the generator's range; `Err` only when the
/// generator's validity condition rejects it or the generator is void.
pub fn from_bytes<G: Gen + ?Sized>(g: &G, bytes: &[u8]) -> Result<G::Value, Stop> {
    g.run(&mut BytesSource::new(bytes))
}

/// Decode `bytes` as [`from_bytes`] does, and record the choice tree the
/// decoding made (for shrinking or mutating the value by its choices).
pub fn from_bytes_recorded<G: Gen + ?Sized>(g: &G, bytes: &[u8]) -> (Result<G::Value, Stop>, ChoiceTree) {
    run_recorded(g, BytesSource::new(bytes)).0
}

/// Answers from a choice sequence strictly, as a parse does, and writes each
/// answer in the width its choice point reads.
struct Encoder<'a> {
    parse: SeqSource<'a>,
    out: Vec<u8>,
}

impl Source for Encoder<'_> {
    fn choose(&mut self, site: Site, request: Request<'_>) -> Result<Choice, Stop> {
        let c = self.parse.choose(site, request)?;
        let w = width(request.largest());
        self.out.extend_from_slice(&c.to_be_bytes()[8 - w..]);
        Ok(c)
    }

    fn tracks_parts(&self) -> bool {
        false
    }
}

/// The bytes that make `g` produce the value `tree`'s choices parse to: its
/// flat choice sequence, parsed strictly (see [`crate::parse`]), each choice
/// written in its width, trailing zero bytes dropped.
pub fn encode_tree<G: Gen + ?Sized>(g: &G, tree: &ChoiceTree) -> Result<Vec<u8>, ParseError> {
    let choices = tree.choices();
    let mut enc = Encoder { parse: SeqSource { choices: &choices, pos: 0, error: None }, out: Vec::new() };
    match g.run(&mut enc) {
        Ok(_) if enc.parse.pos == choices.len() => {}
        Ok(_) => return Err(ParseError::Leftover { left: choices.len() - enc.parse.pos }),
        Err(stop) => return Err(enc.parse.error.unwrap_or(ParseError::NoValue(stop))),
    }
    let mut out = enc.out;
    let kept = out.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    out.truncate(kept);
    Ok(out)
}

/// Why [`to_bytes`] could not encode a value: the generator cannot make it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotInRange;

impl fmt::Display for NotInRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the generator cannot make this value, so no bytes decode to it")
    }
}

impl std::error::Error for NotInRange {}

/// The bytes that decode to `value` (by [`from_bytes`]): `value` reflected
/// into the choices that make it (the first way [`reflect`] finds), each
/// written in its width. Use it to seed a fuzzer's corpus with real values.
pub fn to_bytes<G: Gen + ?Sized>(g: &G, value: &G::Value) -> Result<Vec<u8>, NotInRange> {
    reflect(g, value).iter().find_map(|t| encode_tree(g, t).ok()).ok_or(NotInRange)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::choice::Opt;

    #[test]
    fn a_small_byte_edit_is_a_small_value_edit() {
        use crate::combinators::{int, vec};
        let g = vec(int(0u16..=1000), 0..=4);
        let bytes = [3, 0x01, 0x02, 0x00, 0x07, 0x03, 0xe7];
        assert_eq!(from_bytes(&g, &bytes), Ok(vec![0x0102, 7, 999]));
        let mut edited = bytes;
        edited[2] += 1;
        assert_eq!(from_bytes(&g, &edited), Ok(vec![0x0103, 7, 999]));
    }

    #[test]
    fn widths() {
        assert_eq!([0, 1, 255, 256, 65_535, 65_536, u64::MAX].map(width), [0, 1, 1, 2, 2, 3, 8]);
    }

    #[test]
    fn reads_big_endian_modulo_and_zeros_past_the_end() {
        let opts = [Opt { label: "a", weight: 1 }, Opt { label: "b", weight: 1 }, Opt { label: "c", weight: 1 }];
        let pick = Request::Pick { options: &opts, total: 3 };
        let mut s = BytesSource::new(&[4, 0x01, 0x02, 0xff]);
        assert_eq!(s.choose("p", pick), Ok(1)); // 4 mod 3
        assert_eq!(s.choose("i", Request::Int { span: 1000 }), Ok(0x0102));
        assert_eq!(s.choose("i", Request::Int { span: 1000 }), Ok(0xff00 % 1001)); // the low byte is past the end
        assert_eq!(s.consumed(), 4);
        assert_eq!(s.choose("p", pick), Ok(0));
        assert_eq!(s.choose("one", Request::Int { span: 0 }), Ok(0));
        assert_eq!(s.consumed(), 4);
    }
}
