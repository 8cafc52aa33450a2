//! A library that derives `Reflective` for its own types behind its feature `refgen`, so that its users generate them in their tests.

/// A percentage, from 0 to 100.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "refgen", derive(refgen::Reflective))]
pub struct Percent(#[cfg_attr(feature = "refgen", choice(range = 0..=100))] pub u8);

/// A discount: a share off, or a fixed amount off above a minimum.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "refgen", derive(refgen::Reflective))]
#[cfg_attr(feature = "refgen", assume(match self { Discount::Fixed { off, min } => off <= min, _ => true }))]
pub enum Discount {
    /// A share of the price off.
    Share(Percent),
    /// `off` cents off a price of at least `min` cents.
    Fixed {
        /// Cents off.
        #[cfg_attr(feature = "refgen", choice(range = 1..=10_000))]
        off: u32,
        /// The smallest price it applies to, in cents.
        #[cfg_attr(feature = "refgen", choice(range = 1..=10_000))]
        min: u32,
    },
}

impl Discount {
    /// The price after the discount, in cents (never more than the price).
    pub fn apply(&self, price: u32) -> u32 {
        match self {
            Discount::Share(Percent(p)) => price - (u64::from(price) * u64::from(*p) / 100) as u32,
            Discount::Fixed { off, min } if price >= *min => price - off,
            Discount::Fixed { .. } => price,
        }
    }
}
