//! Tests of the mutational guide's schedule: fresh cases on the fast path.

use super::*;
use crate::config::Config;
use crate::runner::Property;
use refgen_core::combinators::{int, vec};
use refgen_core::gen::Gen;
use std::cell::RefCell;
use std::rc::Rc;

thread_local! {
    /// The guide of the last run on this thread (a run without a time limit runs on the calling thread).
    static LAST: RefCell<Option<Rc<RefCell<MutateGuide>>>> = const { RefCell::new(None) };
}

/// A guide shared with the test, so that its state can be read after the run.
struct Shared(Rc<RefCell<MutateGuide>>);

impl Guide for Shared {
    fn name(&self) -> &str {
        "mutate"
    }
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        self.0.borrow_mut().begin_case(case)
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<Choice, Stop> {
        self.0.borrow_mut().choose(ctx, rng)
    }
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        self.0.borrow_mut().feedback(feedback)
    }
}

/// Fresh cases take the fast path, but the first and one in [`CALIBRATE`], which are recorded; those
/// on the fast path count as the recorded ones' mean, and fresh cases keep their share of the work; their
/// new values join the corpus.
#[test]
fn fresh_cases_take_the_fast_path_and_keep_their_share_of_the_work() {
    let sorted = || vec(int(0u8..=255), 0..=8).filter(|xs: &Vec<u8>| xs.is_sorted());
    let p = Property::new(sorted, |xs: Vec<u8>| assert!(xs.is_sorted()));
    for share in [0.25, 0.5] {
        let config = Config::new("fresh on the fast path").cases(3000).seed(5).no_timeout();
        p.check(&config.guide(move || {
            let guide = Rc::new(RefCell::new(MutateGuide::new(MutateConfig::default().fresh(share))));
            LAST.with(|l| *l.borrow_mut() = Some(guide.clone()));
            Shared(guide)
        }))
        .unwrap();
        let g = LAST.with(|l| l.borrow_mut().take()).expect("the run made its guide on this thread");
        let g = g.borrow();
        let (fresh, plain, recorded) = (g.stats.fresh, g.plain_fresh, g.work.fresh_recorded());
        assert!(plain > 0 && recorded > 0 && fresh == plain + recorded, "{fresh} {plain} {recorded}");
        // The first fresh case and one in `CALIBRATE` are recorded, and so is a fresh case made where
        // a mutation operator had nothing to act on.
        assert!(recorded >= fresh.div_ceil(CALIBRATE) && plain * 2 > fresh, "{fresh} {plain} {recorded}");
        let got = g.work.fresh_share();
        assert!((got - share).abs() < 0.05, "fresh work {got:.3} for a share of {share}");
        // New values joined the corpus (one per shape: a list's length).
        assert!(g.corpus.len() >= 3, "{} entries", g.corpus.len());
    }
}
