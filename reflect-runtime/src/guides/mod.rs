//! The strategies that answer a generator's choices, one module each, all behind [`crate::guide::Guide`].
//!
//! | guide | `#[property(guide = ...)]` | module |
//! |---|---|---|
//! | random, switching to RLCheck when most cases are discarded (the default) | `auto` | [`auto`] |
//! | plain random generation | `random` | [`random`] |
//! | RLCheck: Monte Carlo Control per choice point | `rl`, `rl(explore = diverse, epsilon = .., window = .., abstraction = .., prior = uniform)` | [`rl`] |
//! | Choice Gradient Sampling: derivatives sampled to steer toward valid values | `cgs`, `cgs(samples = N)` | [`cgs`] |
//! | targeted: simulated annealing on `maximize!` / `minimize!` | `sa`, `sa(steps = .., initial_temp = .., restart_after = ..)` | [`sa`] |
//! | tuned by examples: weights by site and label from values like (or unlike) yours | `tuned(like = .., unlike = .., smoothing = ..)`, `tuned(weights = "file.json")` | [`tuned`] |
//! | validity-preserving mutation of a corpus of interesting cases | `mutate`, `mutate(corpus = N, fresh = P, operators = [reroll, swap, shrink])` | [`mutate`] |
//! | a set of pairwise different inputs first (one per pick pattern, or all different values), then random | `DistinctGuide::cover()`, `DistinctGuide::cover_regex()`, `DistinctGuide::all_different()` | [`distinct`] |

pub mod auto;
pub mod cgs;
pub mod distinct;
pub mod mutate;
pub mod random;
pub mod rl;
pub mod sa;
pub mod shape;
pub mod tuned;

pub use auto::{AutoConfig, AutoGuide};
pub use cgs::{CgsConfig, CgsGuide};
pub use distinct::DistinctGuide;
pub use mutate::{MutateConfig, MutateGuide};
pub use random::RandomGuide;
pub use rl::{RlConfig, RlGuide};
pub use sa::{SaConfig, SaGuide};
pub use tuned::TunedGuide;
