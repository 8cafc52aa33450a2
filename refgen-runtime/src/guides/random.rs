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

/// `#[property(guide = random)]`'s options: none, so the guide itself (see [`super`]'s table).
pub const fn options<V>() -> RandomGuide {
    RandomGuide
}

super::option_keys!();

/// The names `random`'s options may use: none.
pub mod names {}

impl<V> super::GuideOptions<V> for RandomGuide {
    type Guide = RandomGuide;
    fn into_guide(self, _property: super::ForProperty<V>) -> RandomGuide {
        self
    }
}
