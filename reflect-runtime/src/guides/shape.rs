//! The shape and size of a case, and those seen, for guides that press toward new, larger shapes.
//!
//! A case's **shape** is its choice tree with the integers erased: the
//! options its picks took, in order, and how many choices it made. Two
//! search trees with the same nodes in the same places but other keys have
//! one shape; a list's shape is its length. Its **size** is the number of
//! choices it made (failed attempts of retrying filters count in neither). A guide rewarded only for values it has not seen before
//! finds new values most cheaply by changing the integers of small ones (a
//! key of a one-node tree); [`Shapes`] says whether a valid case's shape is
//! new, and how its size compares with the valid cases so far, so that it can
//! be rewarded for growing and for new shapes instead.
//!
//! ```
//! use refgen_core::choice::Request;
//! use refgen_core::trail::Trail;
//! use refgen_runtime::guides::shape::{shape_key, Shapes};
//!
//! let mut t = Trail::new();
//! t.open_choice("x", Request::Int { span: 9 }, 3);
//! t.close();
//! let mut u = Trail::new();
//! u.open_choice("x", Request::Int { span: 9 }, 7);
//! u.close();
//! assert_eq!(shape_key(&t), shape_key(&u)); // integers are erased
//! let mut shapes = Shapes::default();
//! assert!(shapes.observe(&t).new_shape);
//! assert!(!shapes.observe(&u).new_shape);
//! ```

use crate::hashing::{finish, mix};
use refgen_core::trail::Trail;
use std::collections::HashSet;

/// The key of a case's shape: its picks' options in order and its number of choices, the failed
/// attempts of retrying filters left out (two lists of one length have one shape, however many tries
/// each took).
pub fn shape_key(trail: &Trail) -> u64 {
    let (h, choices) = kept(trail);
    finish(mix(h, choices))
}

/// The hash of the kept nodes' options, and their number of choices.
fn kept(trail: &Trail) -> (u64, u64) {
    let mut h = 0x5eed_5a9e_u64;
    let mut choices = 0u64;
    for n in trail.kept_nodes() {
        if n.label().is_some() {
            h = mix(h, n.bucket().wrapping_add(1));
        }
        choices += u64::from(n.choice.is_some());
    }
    (h, choices)
}

/// A case's size: its number of choices, the failed attempts of retrying filters left out.
pub fn size(trail: &Trail) -> usize {
    kept(trail).1 as usize
}

/// What [`Shapes::observe`] found out about a valid case.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Observed {
    /// No valid case before had this shape.
    pub new_shape: bool,
    /// The case's size (its number of choices).
    pub size: usize,
    /// The case's size over the mean size of the valid cases before it
    /// (1 for the first).
    pub relative_size: f64,
}

/// The shapes of the valid cases seen, and their mean size.
#[derive(Debug, Clone, Default)]
pub struct Shapes {
    seen: HashSet<u64, crate::hashing::BuildKey>,
    cases: u64,
    total_size: u64,
}

impl Shapes {
    /// Record a valid case: whether its shape is new, and its size against the mean so far.
    pub fn observe(&mut self, trail: &Trail) -> Observed {
        let size = size(trail);
        let relative_size = if self.cases == 0 {
            1.0
        } else {
            (size as f64 + 1.0) / (self.total_size as f64 / self.cases as f64 + 1.0)
        };
        let new_shape = self.seen.insert(shape_key(trail));
        self.cases += 1;
        self.total_size += size as u64;
        Observed { new_shape, size, relative_size }
    }

    /// The number of distinct shapes seen.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    /// Whether no valid case was observed.
    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    /// The mean size of the valid cases observed (0 before the first).
    pub fn mean_size(&self) -> f64 {
        if self.cases == 0 {
            0.0
        } else {
            self.total_size as f64 / self.cases as f64
        }
    }
}
