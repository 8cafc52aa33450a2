//! Floats: the default `float`, with round decimals and the special values common.

use super::{any_int, int, pick, IntValue, Pick};
use crate::gen::Gen;
use std::fmt::Debug;

/// Floating-point types usable with [`float`].
pub trait FloatValue: Copy + PartialEq + Debug + 'static {
    /// The unsigned integer type of the same width.
    type Bits: IntValue;
    /// The value's bits.
    fn bits(self) -> Self::Bits;
    /// The value with these bits.
    fn from_float_bits(bits: Self::Bits) -> Self;
    /// `n` tenths, as this type (`n as Self / 10.0`).
    fn from_tenths(n: i32) -> Self;
    /// The value as an `f64` (exact).
    fn to_f64(self) -> f64;
    /// The special values: zeros, ones, infinities, NaN, the extremes.
    fn specials() -> Vec<Self>;
}

macro_rules! float_value {
    ($t:ident, $bits:ty) => {
        impl FloatValue for $t {
            type Bits = $bits;
            fn bits(self) -> $bits {
                self.to_bits()
            }
            fn from_float_bits(bits: $bits) -> Self {
                $t::from_bits(bits)
            }
            fn from_tenths(n: i32) -> Self {
                n as $t / 10.0
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn specials() -> Vec<Self> {
                vec![
                    0.0,
                    -0.0,
                    1.0,
                    -1.0,
                    0.5,
                    $t::INFINITY,
                    $t::NEG_INFINITY,
                    $t::NAN,
                    $t::MIN_POSITIVE,
                    $t::EPSILON,
                    $t::MAX,
                    $t::MIN,
                ]
            }
        }
    };
}
float_value!(f64, u64);
float_value!(f32, u32);

/// The largest magnitude of [`float`]'s `"decimal"` option, in tenths.
const FLOAT_DECIMAL_TENTHS: i32 = 10_000;

/// Any float, from a pick at the site `"float"` among three options:
/// `"decimal"` (weight 6: a multiple of 0.1 in `-1000.0..=1000.0`, counting
/// outward from 0.0, so shrinking lowers toward 0), `"special"` (weight 2:
/// zeros, ones, 0.5, infinities, NaN, the smallest positive normal, epsilon,
/// the extremes) and `"bits"` (weight 2: any bit pattern). Backward, values
/// are compared by their bits, so NaN and -0.0 reflect too.
pub fn float<F: FloatValue>() -> Pick<F> {
    let decimal = int(-FLOAT_DECIMAL_TENTHS..=FLOAT_DECIMAL_TENTHS)
        .site("float.decimal")
        .map(F::from_tenths, |v: &F| tenths(*v).filter(|&n| F::from_tenths(n).bits() == v.bits()));
    let specials = F::specials();
    let n = specials.len() - 1;
    let special = int(0..=n)
        .site("float.special")
        .map(move |i| F::specials()[i], move |v: &F| specials.iter().position(|s| s.bits() == v.bits()));
    let bits = any_int::<F::Bits>().site("float.bits").map(F::from_float_bits, |v: &F| Some(v.bits()));
    pick("float", [("decimal", 6, decimal.boxed()), ("special", 2, special.boxed()), ("bits", 2, bits.boxed())])
}

/// `v` in tenths, rounded, when it is within the `"decimal"` range.
fn tenths<F: FloatValue>(v: F) -> Option<i32> {
    let x = v.to_f64();
    let limit = FLOAT_DECIMAL_TENTHS as f64 / 10.0;
    (x.is_finite() && x.abs() <= limit).then(|| (x * 10.0).round() as i32)
}
