//! The choice sequences a guide has heard, so that its random answers avoid remaking a value tested before.
//!
//! A generator is a parser of choices: the same kept choices (those outside
//! the failed attempts of retrying filters) make the same value. So a guide
//! that remembers the kept choices of every valid case it heard knows, at a
//! choice it answers at random, when an answer can only end the case on a
//! sequence heard before: the answer completes one. It then draws among the
//! other answers ([`Tested::steer`]). When every answer there completes a
//! sequence heard, or starts only such sequences, nothing new is left below
//! the choices so far; they are remembered as such, and one choice up, the
//! answer that led there is avoided the same way. Hypothesis keeps a tree
//! of the choice sequences it has run for the same end; here a set of keys
//! of sequences serves, as a sequence's key is built choice by choice.
//!
//! Only the choices outside the attempts of retrying filters are steered: a
//! graft's answer inside a node whose `#[assume]` couples it with the rest
//! (a search tree's key, a colour) is one the condition may reject, and
//! steering there cut a few more repeats but nearly doubled the time to make
//! the values ([measurements](https://github.com/refgen-rs/refgen/blob/main/docs/measurements.md#tested-values)).

use crate::guide::ChoiceContext;
use crate::guides::weighted_draw;
use refgen_core::choice::Choice;
use refgen_core::hashing::{finish, mix, BuildKey};
use refgen_core::source::{sample, DetRng};
use refgen_core::trail::Trail;
use std::collections::HashSet;

/// The fold of no choice: the start of every sequence's key.
const EMPTY: u64 = 0x243f_6a88_85a3_08d3;

/// A choice point of at most this many answers is scanned whole for the answers not heard; a wider
/// one is redrawn at most [`REDRAWS`] times.
const SCAN: u64 = 64;

/// The most redraws at a choice point wider than [`SCAN`].
const REDRAWS: usize = 8;

/// The keys of the sequences of kept choices heard (see the module docs).
#[derive(Debug, Clone, Default)]
pub(super) struct Tested {
    /// The keys of the kept choices of every valid case heard, and of every prefix found to lead only
    /// to such sequences.
    known: HashSet<u64, BuildKey>,
    /// The fold of the kept choices of the case under way, as far as it was read.
    memo: Option<Memo>,
}

/// The fold of the kept choices among a case's first `nodes` trail nodes, read at `epoch`.
#[derive(Debug, Clone, Copy)]
struct Memo {
    case: u64,
    epoch: u32,
    nodes: usize,
    fold: u64,
}

impl Tested {
    /// A valid case's kept choices, heard (nothing when it kept none, as a case on the runner's fast
    /// path that was not made again).
    pub(super) fn heard(&mut self, trail: &Trail) {
        let mut kept = trail.kept_nodes().filter_map(|n| n.choice).peekable();
        if kept.peek().is_some() {
            self.known.insert(finish(kept.fold(EMPTY, mix)));
        }
    }

    /// The answer `c`, drawn at `ctx`, unless it completes a sequence heard (or starts only such
    /// sequences); then another drawn among those that do not, with the request's weights, or `c`
    /// when there is none. `epoch` changes whenever a failed attempt may have left the trail (a
    /// retry began): the kept choices so far are then read again.
    pub(super) fn steer(&mut self, ctx: &ChoiceContext<'_>, epoch: u32, c: Choice, rng: &mut DetRng) -> Choice {
        if ctx.trail.in_attempt() {
            return c;
        }
        let prefix = self.prefix(ctx.trail, ctx.case.index, epoch);
        let heard = |x: Choice| self.known.contains(&finish(mix(prefix, x)));
        if !heard(c) {
            return c;
        }
        let request = ctx.request;
        if request.arity() > SCAN {
            return (0..REDRAWS).map(|_| sample(rng, request)).find(|&x| !heard(x)).unwrap_or(c);
        }
        let open: Vec<(Choice, f64)> = (0..request.arity())
            .filter(|&x| request.accepts(x) && !heard(x))
            .map(|x| (x, request.probability(x)))
            .collect();
        if open.is_empty() {
            // Nothing new below these choices: the answer that led here is avoided one choice up.
            self.known.insert(finish(prefix));
            return c;
        }
        let total: f64 = open.iter().map(|o| o.1).sum();
        open[weighted_draw(open.iter().map(|o| o.1), total, rng)].0
    }

    /// The fold of the kept choices in `trail`: read on from where the case's last reading stopped
    /// while no failed attempt can have left it since, else again from the start.
    fn prefix(&mut self, trail: &Trail, case: u64, epoch: u32) -> u64 {
        let len = trail.nodes().len();
        let fold = match self.memo {
            Some(m) if m.case == case && m.epoch == epoch && m.nodes <= len => {
                trail.nodes()[m.nodes..].iter().filter_map(|n| n.choice).fold(m.fold, mix)
            }
            _ => trail.kept_nodes().filter_map(|n| n.choice).fold(EMPTY, mix),
        };
        self.memo = Some(Memo { case, epoch, nodes: len, fold });
        fold
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guide::{CaseInfo, Erased};
    use refgen_core::choice::Request;
    use refgen_core::combinators::int;
    use refgen_core::interpret::replay::Cue;
    use refgen_core::source::rng_from_seed;

    /// A trail of the kept choices `kept`, each an integer of `0..=3` at site `x`.
    fn trail_of(kept: &[Choice]) -> Trail {
        let mut t = Trail::new();
        for &c in kept {
            t.leaf_choice("x", Request::Int { span: 3 }, c);
        }
        t
    }

    /// What `tested` answers at the end of `trail` to an integer of `0..=span` drawn as `c`, in case
    /// `case` at `epoch`, with the rng of `seed`.
    fn steer(tested: &mut Tested, trail: &Trail, span: u64, c: Choice, (case, epoch, seed): (u64, u32, u64)) -> Choice {
        let gen = int(0u8..=1);
        let handle = Erased(&gen);
        let ctx = ChoiceContext {
            site: "x",
            request: Request::Int { span },
            cue: Cue::Missing,
            trail,
            case: CaseInfo { index: case, budget: 1, gen: &handle },
        };
        tested.steer(&ctx, epoch, c, &mut rng_from_seed(seed))
    }

    /// An answer that would remake a sequence heard is replaced by one that does not, drawn among them
    /// all; an answer that remakes none is kept.
    #[test]
    fn an_answer_completing_a_sequence_heard_is_replaced() {
        let mut tested = Tested::default();
        tested.heard(&trail_of(&[2, 0]));
        tested.heard(&trail_of(&[2, 1]));
        let at = trail_of(&[2]);
        let mut seen = HashSet::new();
        for seed in 0..200 {
            let c = steer(&mut tested, &at, 3, 0, (seed, 0, seed));
            assert!(c == 2 || c == 3, "{c} remakes a sequence heard");
            seen.insert(c);
        }
        assert_eq!(seen.len(), 2, "both answers not heard are drawn");
        assert_eq!(steer(&mut tested, &at, 3, 3, (0, 0, 0)), 3);
        // Another prefix (another case): the same answer is new there.
        assert_eq!(steer(&mut tested, &trail_of(&[1]), 3, 0, (1000, 0, 0)), 0);
    }

    /// Where every answer remakes a sequence heard, the drawn one is kept, and the choices so far are
    /// known to lead nowhere new: one choice up, the answer that led there is avoided.
    #[test]
    fn a_prefix_with_nothing_new_below_is_avoided_one_choice_up() {
        let mut tested = Tested::default();
        for c in 0..=1 {
            tested.heard(&trail_of(&[3, c]));
        }
        assert_eq!(steer(&mut tested, &trail_of(&[3]), 1, 1, (0, 0, 0)), 1);
        for seed in 1..100 {
            assert_ne!(steer(&mut tested, &trail_of(&[]), 3, 3, (seed, 0, seed)), 3);
        }
    }

    /// Inside an attempt nothing is steered; the choices of a failed attempt are not part of the
    /// sequence, read again from the start once the epoch changed or on from that reading after.
    #[test]
    fn failed_attempts_are_left_out_of_the_prefix() {
        let x = |t: &mut Trail, c: Choice| t.leaf_choice("x", Request::Int { span: 3 }, c);
        let mut tested = Tested::default();
        for heard in [&[1, 2][..], &[1, 0, 2], &[1, 0, 1, 2]] {
            tested.heard(&trail_of(heard));
        }
        let mut t = trail_of(&[1]);
        // Outside any attempt (case 7, epoch 0): 2 would remake [1, 2].
        assert_ne!(steer(&mut tested, &t, 3, 2, (7, 0, 0)), 2);
        // Inside one, whose condition may reject what is drawn: kept as drawn.
        t.begin_attempt();
        assert!(t.in_attempt());
        assert_eq!(steer(&mut tested, &t, 3, 2, (7, 0, 0)), 2);
        x(&mut t, 3);
        t.end_attempt(false);
        x(&mut t, 0);
        // A retry began (epoch 1): the kept choices are [1, 0], and 2 would remake [1, 0, 2].
        assert_ne!(steer(&mut tested, &t, 3, 2, (7, 1, 0)), 2);
        // Read on from that reading, in the same epoch: [1, 0, 1].
        x(&mut t, 1);
        assert_ne!(steer(&mut tested, &t, 3, 2, (7, 1, 0)), 2);
    }
}
