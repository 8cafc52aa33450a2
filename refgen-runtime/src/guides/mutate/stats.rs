//! What the mutational guide has done so far: its counts of cases by kind.

#[cfg(doc)]
use refgen_core::edit::Mutation;

/// What the guide has done so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MutateStats {
    /// Fresh cases.
    pub fresh: u64,
    /// Mutants made, by operator (in the order of [`Mutation::ALL`]).
    pub mutants: [u64; 3],
    /// Mutants the validity condition rejected, by operator.
    pub rejected: [u64; 3],
    /// Mutants made by splicing.
    pub spliced: u64,
    /// Spliced mutants the validity condition rejected.
    pub splice_rejected: u64,
    /// Cases made by grafting.
    pub grafted: u64,
    /// Grafted cases the validity condition rejected (every retry spent).
    pub graft_rejected: u64,
    /// Mutants made by rotation.
    pub rotated: u64,
    /// Rotated mutants the validity condition rejected.
    pub rotate_rejected: u64,
}
