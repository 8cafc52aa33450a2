//! Choice Gradient Sampling: fitness is the count of distinct valid values of a derivative, options with no valid value are never taken while another has some, every sample is an output of the run, and the budget of generator runs is respected exactly.

use refgen::combinators::{int, just, pick};
use refgen::interpret::{derivative, language};
use refgen::prelude::*;
use refgen::refgen_core::gen::Way;
use refgen::refgen_core::source::{rng_from_seed, sample, DetRng, RngSource};
use refgen::refgen_core::source::{Source, Stop};
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Plan};
use refgen::refgen_runtime::guides::{CgsConfig, CgsGuide, RandomGuide, RlGuide};
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn cgs(samples: u32) -> CgsGuide {
    CgsGuide::new(CgsConfig::default().samples(samples))
}

/// A root pick whose first option (weight 9) only leads to invalid values. The filters of these
/// tests do not retry: a retry would make the root's pick again, past the prefix being measured.
fn bad_or_good() -> impl Gen<Value = (bool, u8)> {
    let root = pick("root", [("bad", 9, just(false).boxed()), ("good", 1, just(true).boxed())]);
    (root, int(0u8..=99).site("x")).filter(|(ok, _)| *ok).retries(0)
}

#[test]
fn an_option_that_leads_only_to_invalid_values_is_never_taken_while_another_has_fitness() {
    let n = 10;
    for seed in 0..40 {
        let mut guide = cgs(n);
        // One run per sample of both options, then one more: the run that decides.
        generate_distinct(&bad_or_good(), &mut guide, 2 * n as usize + 1, seed);
        let step = guide.last_step().expect("the root was decided");
        assert_eq!((step.site, step.prefix.as_slice()), ("root", &[][..]));
        assert_eq!(step.fitness[0], 0, "seed {seed}: no sample of `bad` is valid");
        assert!(step.fitness[1] > 0, "seed {seed}: {step:?}");
        assert_eq!(step.chosen, 1, "seed {seed}: `bad` has probability 0");
    }
    // When every fitness is 0 the choice is uniform: both options are taken.
    let never = (pick("root", [("a", 1, just(0u8).boxed()), ("b", 1, just(1u8).boxed())]), int(0u8..=9))
        .filter(|_| false)
        .retries(0);
    let mut taken = [0; 2];
    for seed in 0..40 {
        let mut guide = cgs(5);
        generate_distinct(&never, &mut guide, 11, seed);
        let step = guide.last_step().expect("the root was decided");
        assert_eq!(step.fitness, vec![0, 0]);
        assert_eq!(guide.stats().blind_steps, 1);
        taken[step.chosen as usize] += 1;
    }
    assert!(taken[0] > 5 && taken[1] > 5, "{taken:?}");
}

/// A small finite generator: `a <= b` over `0..=3`, and a last choice that
/// the value forgets (two choice sequences, one value).
fn small() -> impl Gen<Value = (u8, u8, ())> {
    let forgotten = int(0u8..=1).site("c").map(|_| (), |_: &()| Some(0));
    (int(0u8..=3).site("a"), int(0u8..=3).site("b"), forgotten).filter(|(a, b, _)| a <= b).retries(0)
}

#[test]
fn fitness_is_the_number_of_distinct_valid_values_of_the_derivatives_language() {
    let g = small();
    // With enough samples every member of each derivative's language is drawn.
    let n = 400;
    let mut guide = cgs(n);
    generate_distinct(&g, &mut guide, 4 * n as usize + 1, 7);
    let step = guide.last_step().expect("the root was decided");
    assert_eq!(step.site, "a");
    assert_eq!(step.samples, vec![n as u64; 4]);
    for c in 0..4u64 {
        let lang = language(&derivative(&g, c), 1_000, 10);
        assert!(lang.complete);
        let values: HashSet<_> = lang.members.into_iter().map(|(_, v)| v).collect();
        // a = c leaves b in c..=3: 4 - c values (the forgotten choice makes no new one).
        assert_eq!(values.len() as u64, 4 - c);
        assert_eq!(step.fitness[c as usize], values.len() as u64, "option {c}: {step:?}");
    }
    // With few samples, fitness counts what was drawn, never more than the language holds.
    let mut few = cgs(2);
    generate_distinct(&g, &mut few, 9, 7);
    let step = few.last_step().expect("the root was decided");
    for c in 0..4 {
        assert!(step.fitness[c] <= 2 && step.fitness[c] <= 4 - c as u64, "{step:?}");
    }
}

/// A root pick between two tags, then an even number.
fn tagged() -> impl Gen<Value = (char, u8)> {
    let tag = pick("tag", [("A", 1, just('A').boxed()), ("B", 1, just('B').boxed())]);
    (tag, int(0u8..=99).site("x")).filter(|(_, x)| x % 2 == 0).retries(0)
}

#[test]
fn valid_samples_drawn_for_fitness_are_outputs_of_the_run() {
    let n = 10;
    let g = tagged();
    // The 2n samples of the root's two options, and nothing else.
    let mut guide = cgs(n);
    let out = generate_distinct(&g, &mut guide, 2 * n as usize, 3);
    let stats = guide.stats();
    assert_eq!((stats.samples, stats.valid_samples), (out.trials as u64, out.valid as u64));
    // The same run with one case more decides the root, by these samples' fitness.
    let mut deciding = cgs(n);
    generate_distinct(&g, &mut deciding, 2 * n as usize + 1, 3);
    let step = deciding.last_step().expect("the root was decided");
    for (option, tag) in ['A', 'B'].into_iter().enumerate() {
        let found = out.unique_valid.iter().filter(|(t, _)| *t == tag).count() as u64;
        assert!(found > 0);
        assert_eq!(step.fitness[option], found, "every valid sample of option {tag} is an output");
    }
    // Under a property, every sample is a case the property tests.
    let tested = Arc::new(AtomicUsize::new(0));
    let seen = tested.clone();
    let p = Property::new(tagged, move |(_, x): (char, u8)| {
        seen.fetch_add(1, Ordering::Relaxed);
        x % 2 == 0
    });
    let report = p.check(&Config::new("cgs_outputs").cases(300).guide(move || cgs(10))).unwrap();
    assert_eq!(report.cases, 300);
    assert_eq!(tested.load(Ordering::Relaxed), 300);
    assert!(
        report.guide_notes[0].contains(&format!("{} samples", report.cases + report.discards)),
        "{:?}",
        report.guide_notes
    );
}

/// A generator that counts its runs.
struct Counted<G> {
    gen: G,
    runs: Arc<AtomicUsize>,
}

impl<G: Gen> Gen for Counted<G> {
    type Value = G::Value;
    fn run(&self, src: &mut dyn Source) -> Result<G::Value, Stop> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        self.gen.run(src)
    }
    fn back(&self, target: &G::Value) -> Vec<Way> {
        self.gen.back(target)
    }
}

/// A guide that runs the generator itself three times at the start of each case.
struct Greedy;

impl Guide for Greedy {
    fn name(&self) -> &str {
        "greedy"
    }
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        let mut rng = rng_from_seed(case.index);
        for _ in 0..3 {
            let _ = case.gen.run_key(&mut RngSource(&mut rng));
        }
        Plan::fresh()
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<u64, Stop> {
        Ok(sample(rng, ctx.request))
    }
    fn feedback(&mut self, _feedback: &Feedback<'_>) {}
}

#[test]
fn the_budget_of_generator_runs_is_respected_exactly_under_every_guide() {
    let guides: Vec<(&str, Box<dyn Guide>)> = vec![
        ("cgs", Box::new(cgs(7))),
        ("cgs default", Box::new(CgsGuide::default())),
        ("random", Box::new(RandomGuide)),
        ("rl", Box::new(RlGuide::default())),
        ("a guide running the generator itself", Box::new(Greedy)),
    ];
    for (name, mut guide) in guides {
        for budget in [1usize, 2, 1_234] {
            let runs = Arc::new(AtomicUsize::new(0));
            let g = Counted { gen: bad_or_good(), runs: runs.clone() };
            let out = generate_distinct(&g, &mut guide, budget, 5);
            assert_eq!(runs.load(Ordering::Relaxed), budget, "{name}, budget {budget}");
            assert_eq!(out.trials, budget, "{name}, budget {budget}");
        }
    }
    // Under a property: each run of the generator is one case, valid or discarded.
    let runs = Arc::new(AtomicUsize::new(0));
    let counter = runs.clone();
    let gen = move || Counted { gen: tagged(), runs: counter.clone() };
    let p = Property::new(gen, |(_, x): (char, u8)| x % 2 == 0);
    let report = p.check(&Config::new("cgs_budget").cases(250).guide(|| cgs(9))).unwrap();
    assert_eq!(report.cases, 250);
    assert_eq!(runs.load(Ordering::Relaxed) as u64, report.cases + report.discards);
}

#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.windows(2).all(|w| w[0] <= w[1]))]
struct Sorted(#[choice(len = 0..=6)] Vec<u8>);

#[property(cases = 200, guide = cgs(samples = 10))]
fn cgs_is_selected_by_the_property_attribute(xs: Sorted) {
    assert!(xs.0.windows(2).all(|w| w[0] <= w[1]));
}
