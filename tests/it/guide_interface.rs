//! The guide interface: plans (fresh or a tree replayed leniently), what a guide sees at a choice (the trail, the cue, the
//! budget, the generator), stopping a case, and the feedback after it.

use refgen::interpret::replay::Cue;
use refgen::interpret::{generate, generate_recorded, parse_tree};
use refgen::prelude::*;
use refgen::refgen_core::combinators::{bool, int, vec};
use refgen::refgen_core::edit::random_edit;
use refgen::refgen_core::source::{rng_from_seed, sample, RngSource};
use refgen::refgen_core::{replay_with, DetRng};
use refgen::refgen_core::{ChoiceTree, Stop};
use refgen::refgen_runtime::explore::generate_distinct;
use refgen::refgen_runtime::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Outcome, Plan};
use refgen::runner::RunError;
use refgen_fixtures::runs::temp_dir;
use std::sync::{Arc, Mutex};

/// Replays a fixed plan; counts the choices it is asked for, and what the plan held there.
struct Planned {
    plan: Plan,
    asked: Vec<Cue>,
}

impl Guide for Planned {
    fn name(&self) -> &str {
        "planned"
    }
    fn begin_case(&mut self, _case: &CaseInfo<'_>) -> Plan {
        self.plan.clone()
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<u64, Stop> {
        self.asked.push(ctx.cue);
        Ok(sample(rng, ctx.request))
    }
}

#[test]
fn a_replay_plan_is_followed_and_the_guide_fills_only_the_gaps() {
    let g = vec(int(0u32..=1000).site("x"), 3..=6);
    let (v, tree) = generate_recorded(&g, 5);
    let v = v.unwrap();
    // The whole tree fits: the value comes back and the guide is never asked.
    let mut guide = Planned { plan: Plan::replay(tree.clone()), asked: Vec::new() };
    let out = generate_distinct(&g, &mut guide, 1, 0);
    assert_eq!(out.unique_valid, vec![v.clone()]);
    assert!(guide.asked.is_empty());
    // The last element cut off, and the first one out of range: the guide answers those two.
    let mut broken = tree.clone();
    broken.children.pop();
    broken.children[1].children[0].choice = Some(5000);
    let mut guide = Planned { plan: Plan::replay(broken), asked: Vec::new() };
    let out = generate_distinct(&g, &mut guide, 1, 0);
    assert_eq!(guide.asked, vec![Cue::Unfit(5000), Cue::Missing]);
    let w = &out.unique_valid[0];
    assert_eq!((w.len(), &w[1..w.len() - 1]), (v.len(), &v[1..v.len() - 1]));
    // Fresh plans: every choice is asked, as a gap.
    let mut guide = Planned { plan: Plan::fresh(), asked: Vec::new() };
    generate_distinct(&g, &mut guide, 1, 0);
    assert!(!guide.asked.is_empty() && guide.asked.iter().all(|c| *c == Cue::Missing));
}

#[test]
fn replay_with_any_source_keeps_what_fits() {
    let g = vec(int(0u32..=1000).site("x"), 3..=6);
    let (v, tree) = generate_recorded(&g, 9);
    let (w, used) = replay_with(&g, &tree, &mut RngSource(&mut rng_from_seed(1)));
    assert_eq!((w.unwrap(), &used), (v.unwrap(), &tree));
    // An empty tree: every choice comes from the source, as plain generation from the same RNG would make it.
    let (w, _) = replay_with(&g, &ChoiceTree::root(Vec::new()), &mut RngSource(&mut rng_from_seed(3)));
    assert_eq!(w.unwrap(), generate(&g, 3).unwrap());
}

/// Records what it sees at every choice: the prefix, the path's sites, the index, and how many closed
/// children the innermost open node and its parent have. Answers 2 where it can, else 1.
#[derive(Default)]
struct Watcher {
    seen: Vec<Seen>,
}

/// (prefix, the path's sites, index, (closed children of the innermost open node, of its parent)).
type Seen = (Vec<u64>, Vec<&'static str>, usize, (usize, usize));

impl Guide for Watcher {
    fn name(&self) -> &str {
        "watcher"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, _rng: &mut DetRng) -> Result<u64, Stop> {
        let depth = ctx.path().count();
        let path = ctx.path().map(|n| n.site).collect();
        let closed = (ctx.siblings(depth).len(), depth.checked_sub(1).map_or(0, |d| ctx.siblings(d).len()));
        self.seen.push((ctx.prefix(), path, ctx.index(), closed));
        assert_eq!(ctx.case.budget, 1);
        Ok(if ctx.request.accepts(2) { 2 } else { 1 })
    }
}

#[test]
fn the_context_shows_the_trail() {
    // (a, [b, ...]) with each list element a pick over a bool.
    let g = (int(0u8..=9).site("a"), vec(bool().site("b"), 0..=3).part("list"));
    let mut w = Watcher::default();
    let out = generate_distinct(&g, &mut w, 1, 0);
    assert_eq!(out.unique_valid, vec![(2, vec![true, true])]);
    let sites: Vec<_> = w.seen.iter().map(|s| s.1.clone()).collect();
    let elem = vec!["1", "list", "elem"];
    assert_eq!(sites, vec![vec!["0"], vec!["1", "list"], elem.clone(), elem]);
    let prefixes: Vec<_> = w.seen.iter().map(|s| s.0.clone()).collect();
    assert_eq!(prefixes, vec![vec![], vec![2], vec![2, 2], vec![2, 2, 1]]);
    // Each choice is the first child of its node; the second element's parent list has the length
    // and the first element closed beside it.
    let placed: Vec<_> = w.seen.iter().map(|s| (s.2, s.3)).collect();
    assert_eq!(placed, vec![(0, (0, 0)), (0, (0, 0)), (0, (0, 1)), (0, (0, 2))]);
}

/// Stops every case at its third choice.
struct Stopper;

impl Guide for Stopper {
    fn name(&self) -> &str {
        "stopper"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<u64, Stop> {
        if ctx.trail.choice_count() >= 2 {
            return Err(Stop::Halt);
        }
        Ok(sample(rng, ctx.request))
    }
}

#[test]
fn a_guide_can_stop_a_case() {
    let g = vec(int(0u8..=9), 2..=5);
    let out = generate_distinct(&g, &mut Stopper, 20, 1);
    assert_eq!((out.valid, out.invalid), (0, 20));
    // Under a property, a stopped case is discarded; a run of nothing else gives up.
    let p = Property::new(move || vec(int(0u8..=9), 2..=5), |_: Vec<u8>| {});
    match p.check(&Config::new("stopped").cases(10).guide(|| Stopper)) {
        Err(RunError::Vacuous { valid, reasons, .. }) => {
            assert_eq!(valid, 0);
            assert!(reasons[0].0.contains("stopped"), "{reasons:?}");
        }
        other => panic!("expected a vacuous run, got {other:?}"),
    }
}

/// Plans every case as an edit of an earlier one that the property rejects (the replay of a tree that
/// makes 1), and answers every choice with 1; counts the cases it planned and those it heard of.
struct Rejected {
    tree: ChoiceTree,
    counts: Arc<Mutex<(usize, usize)>>,
}

impl Guide for Rejected {
    fn name(&self) -> &str {
        "rejected"
    }
    fn begin_case(&mut self, _case: &CaseInfo<'_>) -> Plan {
        self.counts.lock().unwrap().0 += 1;
        Plan::replay(self.tree.clone())
    }
    fn choose(&mut self, _ctx: &ChoiceContext<'_>, _rng: &mut DetRng) -> Result<u64, Stop> {
        Ok(1)
    }
    fn feedback(&mut self, _feedback: &Feedback<'_>) {
        self.counts.lock().unwrap().1 += 1;
    }
}

#[test]
fn a_guides_rejected_edits_have_a_budget_of_their_own() {
    let g = || int(0u8..=9);
    let one = (0..).map(|seed| generate_recorded(&g(), seed)).find(|(v, _)| *v == Ok(1)).unwrap().1;
    let p = Property::new(g, |x: u8| assume!(x.is_multiple_of(2)));
    let dir = temp_dir("rejected_edits");
    let file = dir.join("obs.jsonl");
    // 20 valid cases may take 40 discards, and 40 rejected edits besides: every case is a rejected edit
    // until those 40 are spent, then the rest are random generation's (about half of them discarded).
    let config = Config::new("rejected").seed(3).cases(20).max_discard_ratio(2).observability(&file);
    let counts = Arc::new(Mutex::new((0, 0)));
    let c = counts.clone();
    let guide = move || Rejected { tree: one.clone(), counts: c.clone() };
    let report = p.check(&config.guide(guide)).expect("rejected edits are not discards");
    assert_eq!((report.cases, report.rejected), (20, 40));
    assert!(report.discards > 0 && report.discards < 40, "{report:?}");
    assert!(report.warnings.iter().any(|w| w.contains("rejected 40 times")), "{:?}", report.warnings);
    assert!(report.statistics().contains("40 of the guide's edits of earlier cases were rejected"));
    // The observations tell the guide's edits from the cases it did not plan.
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let how = |h: &str, status: &str| lines.iter().filter(|l| l["how_generated"] == h && l["status"] == status).count();
    assert_eq!((how("edited by the guide", "gave_up"), how("edited by the guide", "passed")), (40, 0));
    assert_eq!((how("generated", "gave_up") as u64, how("generated", "passed")), (report.discards, 20));
    assert_eq!(lines.len() as u64, 60 + report.discards);
    // Random generation's cases, not the guide's: it planned only the 40 edits, and heard of every case.
    assert_eq!(*counts.lock().unwrap(), (40, 60 + report.discards as usize));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the generator itself at the start of each case and records (outcome, tree, valid samples) after it.
struct Sampler {
    /// How many of its own samples were valid, and how many invalid.
    sampled: Arc<Mutex<(usize, usize)>>,
    log: Arc<Mutex<Vec<(Outcome, ChoiceTree)>>>,
}

impl Guide for Sampler {
    fn name(&self) -> &str {
        "sampler"
    }
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        let mut rng = rng_from_seed(case.index);
        let mut sampled = self.sampled.lock().unwrap();
        for _ in 0..10 {
            match case.gen.run_key(&mut RngSource(&mut rng)) {
                Ok(_) => sampled.0 += 1,
                Err(stop) => {
                    assert_eq!(stop, Stop::Invalid);
                    sampled.1 += 1
                }
            }
        }
        Plan::fresh()
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<u64, Stop> {
        Ok(sample(rng, ctx.request))
    }
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        assert_eq!(feedback.valid, feedback.outcome != Outcome::Discarded);
        self.log.lock().unwrap().push((feedback.outcome, feedback.tree()));
    }
}

#[test]
fn feedback_carries_the_outcome_and_the_tree_and_a_guide_can_run_the_generator() {
    let (log, sampled) = (Arc::new(Mutex::new(Vec::new())), Arc::new(Mutex::new((0, 0))));
    let (shared, counts) = (log.clone(), sampled.clone());
    let gen = || int(0u32..=99).filter(|x| x % 2 == 0).retries(0);
    let p = Property::new(gen, |x: u32| {
        assume!(!x.is_multiple_of(3));
        assert!(x < 90);
    });
    let cfg = Config::new("sampler").cases(1000);
    let err = p.check(&cfg.guide(move || Sampler { log: shared.clone(), sampled: counts.clone() })).unwrap_err();
    assert!(matches!(err, RunError::Failed(_)));
    // The guide's own runs of the generator: about half the numbers are odd, and invalid.
    let (valid, invalid) = *sampled.lock().unwrap();
    assert!(valid > 0 && invalid > 0 && valid + invalid == 10 * log.lock().unwrap().len(), "{valid} {invalid}");
    let log = log.lock().unwrap();
    let (last, tree) = log.last().unwrap();
    assert_eq!(*last, Outcome::Failed, "the failing case is the last one the guide hears of");
    let x = parse_tree(&gen(), tree).unwrap();
    assert!(x >= 90 && x % 2 == 0 && x % 3 != 0);
    for (outcome, tree) in log.iter() {
        let parsed = parse_tree(&gen(), tree);
        match outcome {
            Outcome::Passed => assert!(parsed.is_ok_and(|x| x < 90 && x % 3 != 0)),
            Outcome::Discarded => assert!(parsed.is_err() || parsed.is_ok_and(|x| x % 3 == 0)),
            Outcome::Failed => assert!(parsed.is_ok_and(|x| x >= 90)),
        }
    }
}

// ---------------------------------------------------------------- a guide of its own, under 60 lines

/// Hill climbing by mutation, written only against the guide interface: each case replays the
/// best tree so far (by the utility the property reports) with one random shared edit; the guide
/// answers the gaps the edit leaves at random.
#[derive(Default)]
struct Climber {
    best: Option<(f64, ChoiceTree)>,
}

impl Guide for Climber {
    fn name(&self) -> &str {
        "climber"
    }
    fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
        let Some((_, best)) = &self.best else { return Plan::fresh() };
        let mut rng = rng_from_seed(case.index);
        match random_edit(best, &mut rng).and_then(|e| e.apply(best)) {
            Some(mutant) => Plan::replay(mutant),
            None => Plan::fresh(),
        }
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<u64, Stop> {
        Ok(sample(rng, ctx.request))
    }
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        let Some(u) = feedback.utility else { return };
        if self.best.as_ref().is_none_or(|(b, _)| u >= *b) {
            self.best = Some((u, feedback.tree()));
        }
    }
}

/// How many leading digits sit at their own index: `[0, 1, 2, 9]` has 3.
fn in_place(xs: &[u8]) -> usize {
    xs.iter().enumerate().take_while(|(i, &x)| *i == x as usize).count()
}

#[test]
fn a_mutation_guide_of_its_own_finds_a_planted_bug() {
    // The planted bug: seven digits in place. Random digits put them there with probability 1e-7.
    let p = Property::new(
        || vec(int(0u8..=9).site("digit"), 0..=12),
        |xs: Vec<u8>| {
            target!(in_place(&xs));
            assert!(in_place(&xs) < 7, "seven digits in place");
        },
    );
    // Random generation itself: the default guide, `auto`, would move to annealing on the utility.
    let random = p.check(&Config::new("planted_random").cases(20_000).guide(|| refgen::guides::RandomGuide));
    assert!(random.is_ok(), "random generation should not find it: {random:?}");
    match p.check(&Config::new("planted_climber").cases(20_000).guide(Climber::default)) {
        Err(RunError::Failed(f)) => {
            assert!(f.reason.contains("seven digits in place"), "{}", f.reason);
            assert_eq!(f.args[0].1, "[0, 1, 2, 3, 4, 5, 6]", "shrunk to the smallest");
        }
        other => panic!("the climber should find the bug: {other:?}"),
    }
}
