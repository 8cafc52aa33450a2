//! Plain random generation: every choice drawn from the case's RNG, honouring the weights.

use crate::guide::{CaseInfo, ChoiceContext, Guide, Plan};
use refgen_core::choice::Choice;
use refgen_core::source::{sample, DetRng, Stop};

/// Plain random generation, honouring the generator's weights (how the
/// default guide, [`super::AutoGuide`], starts).
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomGuide;

impl Guide for RandomGuide {
    fn name(&self) -> &str {
        "random"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        Ok(sample(rng, ctx.request))
    }
    /// Every case takes the fast path.
    fn begin_case(&mut self, _case: &CaseInfo<'_>) -> Plan {
        Plan::plain()
    }
}

/// `#[property(guide = random)]`'s options: none (see [`super`]'s table).
pub const fn options<V>() -> RandomOptions {
    RandomOptions
}

/// The options of `guide = random`: none.
#[derive(Debug, Clone, Copy, Default)]
pub struct RandomOptions;

/// The names `random`'s options may use: none.
pub mod names {}

impl<V> super::GuideOptions<V> for RandomOptions {
    type Guide = RandomGuide;
    fn into_guide(self, _property: super::ForProperty<V>) -> RandomGuide {
        RandomGuide
    }
}
