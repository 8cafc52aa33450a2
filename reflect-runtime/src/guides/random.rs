//! Plain random generation: every choice drawn from the case's RNG, honouring the generator's weights.

use crate::guide::{ChoiceContext, Guide};
use reflect_core::choice::Choice;
use reflect_core::source::{sample, DetRng, Stop};

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
    fn plain_case(&self) -> bool {
        true
    }
}
