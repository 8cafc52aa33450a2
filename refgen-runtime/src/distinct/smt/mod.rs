//! The SMT back end of distinct sets (feature `z3`): integers and regex strings found one at a time.
//!
//! A reflective generator is Rust code, which a solver cannot read, so this
//! back end takes its specification in a form Z3 can: an integer range
//! ([`distinct_ints`]), or a regex ([`distinct_strings`]: Z3's regex
//! membership over the same structure [`refgen_core::regex::regex`]
//! generates from). Each member is one query: the solver holds the
//! specification, and after each model `v` the loop asserts that the next
//! value differs from `v` (by the constraint, and `x != v`, Iorek's default);
//! `unsat` means the set is exhausted. The same constraints run on the
//! native back end through [`IntDifference::native`] and
//! [`StrDifference::native`], so both back ends can be checked against each
//! other.
//!
//! Each query may take [`QUERY_TIMEOUT_MS`]; a query Z3 gives up on ends
//! the search as [`Stopped::Budget`]. Z3 4.8 (Debian's) makes strings of a
//! few dozen chars quickly, but slows down sharply past about 80: sets of
//! long strings are the native back end's.
//!
//! Build with `--features z3` (needs Debian's `libz3-dev`).

mod strings;

pub use strings::{distinct_strings, SmtError, StrDifference, MAX_CASES, MAX_EDIT_CELLS};

use super::{all_of, differ, not, not_equal, some_of, Difference, DistinctSet, Member, Stopped};
use z3::ast::{Bool, Int};
use z3::{Model, Params, SatResult, Solver};

/// How long one Z3 query may take, in milliseconds, before Z3 gives up on it.
pub const QUERY_TIMEOUT_MS: u32 = 10_000;

/// A solver whose queries give up after [`QUERY_TIMEOUT_MS`].
fn solver() -> Solver {
    let solver = Solver::new();
    let mut params = Params::new();
    params.set_u32("timeout", QUERY_TIMEOUT_MS);
    solver.set_params(&params);
    solver
}

/// A difference constraint between two integers that both back ends understand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IntDifference {
    /// Different when not equal.
    NotEqual,
    /// Different when at least this far apart.
    Distance(u64),
    /// Different when all of these say so.
    AllOf(Vec<IntDifference>),
    /// Different when one of these says so.
    SomeOf(Vec<IntDifference>),
    /// Different when this one says they are not.
    Not(Box<IntDifference>),
}

/// The combinators a constraint of either back end is built with: a
/// constraint is one of its own atoms or one of these.
enum Combined<'d, D> {
    AllOf(&'d [D]),
    SomeOf(&'d [D]),
    Not(&'d D),
}

impl<'d, D> Combined<'d, D> {
    /// The native constraint: the parts' natives, combined.
    fn native<T: 'static>(self, part: impl Fn(&D) -> Difference<T>) -> Difference<T> {
        match self {
            Combined::AllOf(ds) => all_of(ds.iter().map(part)),
            Combined::SomeOf(ds) => some_of(ds.iter().map(part)),
            Combined::Not(d) => not(part(d)),
        }
    }

    /// The assertion: the parts' assertions, combined.
    fn assertion(self, part: impl Fn(&D) -> Bool) -> Bool {
        match self {
            Combined::AllOf(ds) => Bool::and(&ds.iter().map(part).collect::<Vec<_>>()),
            Combined::SomeOf(ds) => Bool::or(&ds.iter().map(part).collect::<Vec<_>>()),
            Combined::Not(d) => part(d).not(),
        }
    }
}

impl IntDifference {
    fn combined(&self) -> Option<Combined<'_, IntDifference>> {
        match self {
            IntDifference::AllOf(ds) => Some(Combined::AllOf(ds)),
            IntDifference::SomeOf(ds) => Some(Combined::SomeOf(ds)),
            IntDifference::Not(d) => Some(Combined::Not(d)),
            IntDifference::NotEqual | IntDifference::Distance(_) => None,
        }
    }

    /// The same constraint for the native back end ([`super::distinct`]).
    pub fn native(&self) -> Difference<i64> {
        if let Some(c) = self.combined() {
            return c.native(IntDifference::native);
        }
        match self {
            IntDifference::Distance(t) => {
                let t = *t;
                differ(move |a: &i64, b: &i64| a.abs_diff(*b) >= t)
            }
            _ => not_equal(),
        }
    }

    /// The constraint that `x` differs from the model value `v`.
    fn assertion(&self, x: &Int, v: i64) -> Bool {
        if let Some(c) = self.combined() {
            return c.assertion(|d| d.assertion(x, v));
        }
        match self {
            IntDifference::Distance(t) => {
                let t = Int::from_u64(*t);
                let v = Int::from_i64(v);
                Bool::or(&[x.ge(&v + &t), x.le(&v - &t)])
            }
            _ => x.ne(Int::from_i64(v)),
        }
    }
}

/// Iorek's generation loop over `solver`, which holds the specification:
/// up to `n` members in at most `budget` queries, each made by `check`
/// (`Solver::check`, or a walk over cases under assumptions). `member` reads a model:
/// the value, and the assertion that the next value differs from it (or
/// `None` when the model has no value). `unknown` from the solver (it gave
/// up, as after [`QUERY_TIMEOUT_MS`]) ends the search as if its budget were spent.
fn iorek_loop<V>(
    n: usize,
    budget: usize,
    solver: &Solver,
    mut check: impl FnMut(&Solver) -> SatResult,
    mut member: impl FnMut(&Model) -> Option<(V, Bool)>,
) -> DistinctSet<V> {
    let mut members = Vec::new();
    let mut runs = 0;
    let stopped = loop {
        if members.len() >= n {
            break Stopped::Found;
        }
        if runs >= budget {
            break Stopped::Budget;
        }
        runs += 1;
        match check(solver) {
            SatResult::Sat => {}
            SatResult::Unsat => break Stopped::Exhausted,
            SatResult::Unknown => break Stopped::Budget,
        }
        let Some((value, different)) = solver.get_model().and_then(|m| member(&m)) else {
            break Stopped::Exhausted;
        };
        solver.assert(different);
        members.push(Member { value, steps: Vec::new() });
    };
    DistinctSet { members, stopped, runs }
}

/// Up to `n` integers in `lo..=hi`, every pair different under
/// `difference`, by at most `budget` Z3 queries (one per member, and the
/// last one that finds none). Members carry no choices (`steps` is empty).
pub fn distinct_ints(n: usize, lo: i64, hi: i64, difference: &IntDifference, budget: usize) -> DistinctSet<i64> {
    let solver = solver();
    let x = Int::new_const("x");
    solver.assert(x.ge(Int::from_i64(lo)));
    solver.assert(x.le(Int::from_i64(hi)));
    iorek_loop(n, budget, &solver, Solver::check, |model| {
        let v = model.eval(&x, true)?.as_i64()?;
        Some((v, Bool::and(&[x.ne(Int::from_i64(v)), difference.assertion(&x, v)])))
    })
}
