//! The run loop: random cases on the fast path are recorded again only when they fail (and the
//! report shows the input that failed), the watch reports hangs without losing a failure being
//! shrunk, the run-level time budget stops generation, and runs carry their durations.

use refgen::prelude::*;
use refgen::refgen_core::combinators::{int, vec};
use refgen::refgen_core::source::rng_from_seed;
use refgen::refgen_runtime::guides::{AutoGuide, RandomGuide};
use refgen::refgen_runtime::runner::{case_seed, FailureKind, Origin};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use refgen_fixtures::runs::{failure, hang};

/// The failing input shown is the value the failing generated case made, on the fast path,
/// with and without a time limit, under the random guide and under `auto`.
#[test]
fn a_fast_path_failure_shows_the_value_that_failed() {
    let gen = || int(0u32..=1_000_000);
    let p = Property::new(gen, |x: u32| x % 7 != 3);
    for seed in 0..6 {
        for config in [Config::new("fast"), Config::new("fast").no_timeout()] {
            for auto in [false, true] {
                let config = config.clone().seed(seed).max_shrink_steps(0);
                let config = if auto { config.guide(AutoGuide::default) } else { config.guide(|| RandomGuide) };
                let f = failure(p.check(&config));
                let Origin::Generated(i) = f.origin else { panic!("{f}") };
                let made = gen().run_rng(&mut rng_from_seed(case_seed(seed, i))).unwrap();
                assert_eq!(f.args[0].1, made.to_string(), "seed {seed}:\n{f}");
                assert_eq!(made % 7, 3);
                assert!(!f.flaky && f.warnings.is_empty(), "{f}");
                assert_eq!(p.value_of(&f), Some(made));
            }
        }
    }
}

static MADE: AtomicU64 = AtomicU64::new(0);

/// A generator that reads a counter makes another value when its failing seed is run again:
/// the report says so and calls the failure flaky, rather than show a value that passed as failing.
#[test]
fn a_generator_that_reads_more_than_its_choices_is_not_shown_as_failing() {
    let p = Property::new(|| int(0u64..=0).map(|_| MADE.fetch_add(1, Ordering::SeqCst), |_| Some(0)), |n: u64| n != 5);
    let f = failure(p.check(&Config::new("counter").guide(|| RandomGuide).no_timeout()));
    assert!(f.flaky, "{f}");
    assert!(f.warnings.iter().any(|w| w.contains("reads more than its choices")), "{f}");
    assert!(f.to_string().contains("flaky"), "{f}");
}

/// A shrink candidate that hangs does not lose the failure being shrunk: it is reported, as shrunk
/// so far, with a note; the run does not wait for the hung candidate.
#[test]
fn a_hang_while_shrinking_reports_the_failure_found() {
    let p = Property::new(
        || int(0u32..=1000),
        |x: u32| {
            if x == 0 {
                hang();
            }
            assert!(x < 100, "too big");
        },
    );
    let f = failure(p.check(&Config::new("hang_shrink").seed(1).case_timeout(Duration::from_millis(300))));
    assert_eq!(f.kind, FailureKind::Failed, "{f}");
    let x: u32 = f.args[0].1.parse().unwrap();
    assert!(x >= 100, "{f}");
    assert!(f.reason.contains("too big"), "{f}");
    assert!(f.warnings.iter().any(|w| w.contains("hung")), "{f}");
}

static FAILING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

/// A candidate that hangs after some were kept: the failure is reported as shrunk so far (the
/// last failing candidate), not as it was first found.
#[test]
fn a_hang_while_shrinking_reports_the_failure_as_shrunk_so_far() {
    let p = Property::new(
        || int(0u32..=1_000_000),
        |x: u32| {
            if x >= 100 {
                let mut failing = FAILING.lock().unwrap();
                failing.push(x);
                // The first failure, its recording again, two kept candidates; then a hang.
                let hangs = failing.len() == 5;
                drop(failing);
                if hangs {
                    hang();
                }
                panic!("too big");
            }
        },
    );
    let config = Config::new("hang_shrunk").seed(3).case_timeout(Duration::from_millis(300));
    let f = failure(p.check(&config));
    let failing = FAILING.lock().unwrap().clone();
    assert!(failing.len() >= 5 && failing[0] == failing[1] && failing[3] != failing[0], "{failing:?}");
    assert_eq!(f.args[0].1, failing[3].to_string(), "{failing:?}\n{f}");
    assert!(f.warnings.iter().any(|w| w.contains("hung")), "{f}");
}

/// The time budget stops generation, and the report says so and how many cases ran.
#[test]
fn the_time_budget_stops_generation_and_says_so() {
    let p = Property::new(|| int(0u32..=9), |_x: u32| std::thread::sleep(Duration::from_millis(2)));
    let budget = Duration::from_millis(150);
    for config in [Config::new("budget"), Config::new("budget").no_timeout()] {
        let report = p.check(&config.cases(u64::MAX).max_time(budget)).unwrap();
        assert_eq!(report.out_of_time, Some(budget));
        assert!(report.cases >= 1 && report.cases < 1_000, "{}", report.cases);
        assert!(report.elapsed >= budget && report.test_time >= Duration::from_millis(2) * report.cases as u32);
        assert!(report.timings().contains("took"), "{}", report.timings());
        let stats = report.statistics();
        assert!(
            stats.contains("time budget") && stats.contains(&format!("after {} valid cases", report.cases)),
            "{stats}"
        );
    }
    // A run that ends by its cases was not stopped by the budget.
    let report = p.check(&Config::new("budget").cases(3).max_time(Duration::from_secs(60))).unwrap();
    assert_eq!((report.cases, report.out_of_time), (3, None));
}

/// A failure carries the time to it, and the generation and test time up to it.
#[test]
fn a_failure_carries_its_durations() {
    let p = Property::new(
        || int(0u32..=99),
        |x: u32| {
            std::thread::sleep(Duration::from_millis(3));
            x < 90
        },
    );
    let f = failure(p.check(&Config::new("durations").seed(2)));
    let tests = f.tests as u32;
    assert!(f.test_time >= Duration::from_millis(3) * tests, "{f}");
    assert!(f.time_to_failure >= f.test_time + f.gen_time, "{f}");
    assert!(f.to_string().contains("found after"), "{f}");
}

static FAILED_ONCE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A property that fails once and then hangs on the same input: the failure found is reported
/// (as flaky or with a note), never replaced by the hang of its replays.
#[test]
fn a_failure_whose_replays_hang_is_still_reported() {
    let p = Property::new(
        || int(0u32..=1000),
        |x: u32| {
            if x > 500 {
                if FAILED_ONCE.swap(true, Ordering::SeqCst) {
                    hang();
                }
                panic!("first failure at {x}");
            }
        },
    );
    let f = failure(p.check(&Config::new("fails_then_hangs").case_timeout(Duration::from_millis(200))));
    assert_eq!(f.kind, FailureKind::Failed, "{f}");
    assert!(f.reason.contains("first failure"), "{f}");
    assert!(f.warnings.iter().any(|w| w.contains("hung")), "{f}");
}

/// `REFGEN_MAX_TIME` (seconds) gives the run a budget and, without `REFGEN_CASES`, no bound of
/// cases: the child process runs a property with the defaults for about that long.
#[test]
fn the_environment_gives_a_time_budget_in_seconds() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", "budget_child", "--nocapture", "--test-threads=1"])
        .env("REFGEN_MAX_TIME", "0.3")
        .env_remove("REFGEN_CASES")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let line = stdout.lines().find_map(|l| l.split_once("budget_child: ").map(|(_, r)| r)).expect("the child's line");
    let (cases, budget) = line.split_once(' ').unwrap();
    assert!(cases.parse::<u64>().unwrap() > refgen::config::DEFAULT_CASES, "{line}");
    assert_eq!(budget, "300ms", "{line}");
}

/// The child side of [`the_environment_gives_a_time_budget_in_seconds`].
#[test]
#[ignore = "run by another test in a child process"]
fn budget_child() {
    let p = Property::new(|| int(0u32..=9), |_x: u32| std::thread::sleep(Duration::from_micros(200)));
    let report = p.check(&Config::new("budget_child").from_env()).unwrap();
    println!("budget_child: {} {:?}", report.cases, report.out_of_time.unwrap());
}

/// A generator that hangs on the fast path: the hang is reported by the case's seed (making the
/// case again hangs too), never by a value the generator did not make.
#[test]
fn a_generator_that_hangs_is_reported_by_its_seed() {
    let p = Property::new(
        || {
            int(0u32..=100).map(
                |x| {
                    if x > 50 {
                        hang();
                    }
                    x
                },
                |x| Some(*x),
            )
        },
        |_x: u32| (),
    );
    let f = failure(p.check(&Config::new("generator_hangs").case_timeout(Duration::from_millis(200))));
    assert_eq!(f.kind, FailureKind::Hung(Duration::from_millis(200)), "{f}");
    assert!(f.args[0].1.contains("seed"), "{f}");
    assert!(f.warnings.iter().any(|w| w.contains("hung as well")), "{f}");
}

/// A run abandoned for a hang still writes its HTML report: its cases up to the hang, and the failure.
#[test]
fn a_hung_run_writes_its_html_report() {
    let dir = refgen_fixtures::runs::temp_dir("hung-html");
    let p = Property::new(
        || int(0u32..=100),
        |x: u32| {
            if x > 10 {
                hang();
            }
        },
    );
    let f = failure(p.check(&Config::new("hung_html").case_timeout(Duration::from_millis(200)).report(&dir)));
    assert!(matches!(f.kind, FailureKind::Hung(_)), "{f}");
    let page = std::fs::read_to_string(dir.join("hung_html.auto.html")).expect("the report");
    assert!(page.contains("verdict failed") && page.contains("hung"), "{page}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Random cases run in batches on the fast path; observed cases run one by one. Both count the
/// same valid and discarded cases (and rejected edits), labels and best utility (and where it was reached), under the
/// random guide and under `auto`, and the batches' time is within the run's.
#[test]
fn batched_cases_are_counted_as_cases_run_one_by_one() {
    let p = Property::new(
        || int(0u32..=1000),
        |x: u32| {
            assume!(!x.is_multiple_of(5));
            label!(if x.is_multiple_of(3) { "three" } else { "other" });
            maximize!(x % 97);
        },
    );
    let observed = std::env::temp_dir().join(format!("reflect-batched-{}", std::process::id()));
    for seed in 0..3 {
        for auto in [false, true] {
            let config = Config::new("batched").seed(seed).cases(3000);
            let config = if auto { config.guide(AutoGuide::default) } else { config.guide(|| RandomGuide) };
            let batched = p.check(&config).unwrap();
            let one_by_one = p.check(&config.clone().observability(&observed)).unwrap();
            let counts = |r: &refgen::runner::Report| {
                (r.cases, r.discards, r.rejected, r.labels.clone(), r.best_utility.map(|b| (b.utility, b.case)))
            };
            assert_eq!(counts(&batched), counts(&one_by_one), "seed {seed}, auto {auto}");
            // Under `auto` the search's neighbours that are discarded are rejected edits.
            assert!(batched.discards + batched.rejected > 400 && batched.labels.len() == 2, "{batched:?}");
            assert!(batched.gen_time + batched.test_time <= batched.elapsed, "{batched:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&observed);
    let _ = std::fs::remove_file(&observed);
}

/// A guide on the fast path for its first cases that then adopts them: each adopted case is a
/// fast-path case that passed, in order (the first 20 at most), its key the value's and its kept
/// choices making that value again, and its failed attempts left out.
#[test]
fn a_guide_adopts_the_fast_path_cases_that_passed_made_again_from_their_seeds() {
    use refgen::refgen_core::choice::ChoiceTree;
    use refgen::refgen_core::source::{sample, DetRng, Stop};
    use refgen::refgen_core::{parse_tree, Gen};
    use refgen::refgen_runtime::guide::{
        CaseInfo, ChoiceContext, Choices, Feedback, Guide, Origin, Outcome, Plan, PLAIN_CASES_KEPT,
    };
    use refgen::refgen_runtime::hashing::value_key;
    use std::sync::{Arc, Mutex};

    type Adopted = Arc<Mutex<Vec<(Option<u64>, bool, ChoiceTree)>>>;
    struct Switching {
        cases: u64,
        asked: bool,
        adopted: Adopted,
    }
    impl Guide for Switching {
        fn name(&self) -> &str {
            "switching"
        }
        fn choose(
            &mut self,
            ctx: &ChoiceContext<'_>,
            rng: &mut DetRng,
        ) -> Result<refgen::refgen_core::choice::Choice, Stop> {
            Ok(sample(rng, ctx.request))
        }
        fn begin_case(&mut self, _: &CaseInfo<'_>) -> Plan {
            if self.cases < 60 {
                Plan::plain()
            } else if !std::mem::replace(&mut self.asked, true) {
                Plan::new(Choices::Adopt)
            } else {
                Plan::fresh()
            }
        }
        fn feedback(&mut self, f: &Feedback<'_>) {
            if f.origin != Origin::Adopted {
                self.cases += 1;
                return;
            }
            assert!(f.outcome == Outcome::Passed && f.valid && f.utility.is_none());
            self.adopted.lock().unwrap().push((f.key, f.new, f.tree()));
        }
    }
    // A retrying filter, so that the fast path's values are made after failed attempts.
    let gen = || int(0u32..=999).filter(|x| x.is_multiple_of(3));
    let tested = Arc::new(Mutex::new(Vec::new()));
    let seen = tested.clone();
    let p = Property::new(gen, move |x: u32| {
        assume!(x.is_multiple_of(2));
        seen.lock().unwrap().push(x);
    });
    let adopted: Adopted = Arc::default();
    let shared = adopted.clone();
    let config = Config::new("adopted").cases(100).seed(7).guide(move || Switching {
        cases: 0,
        asked: false,
        adopted: shared.clone(),
    });
    p.check(&config).unwrap();
    let tested = tested.lock().unwrap();
    let adopted = adopted.lock().unwrap();
    // The fast path's cases that passed (an odd value is discarded by `assume!`) come first among those tested.
    let passed: Vec<u32> = tested.iter().copied().filter(|x| x.is_multiple_of(2)).take(PLAIN_CASES_KEPT).collect();
    assert!(passed.len() == PLAIN_CASES_KEPT && tested.len() > 60, "{tested:?}");
    assert_eq!(adopted.len(), passed.len());
    let mut keys = std::collections::HashSet::new();
    for ((key, new, tree), x) in adopted.iter().zip(&passed) {
        assert_eq!(*key, Some(value_key(x)));
        assert_eq!(*new, keys.insert(*key), "new until a value comes again");
        assert_eq!(parse_tree(&gen(), tree), Ok(*x), "the kept choices make the value again");
        assert_eq!(*tree, tree.without_retries(), "no failed attempt is kept");
    }
}

/// A guide that hears the values of its fast-path cases (`Choices::Plain { hear: true, .. }`) is told,
/// for each, its value's key and whether it is new; a case that passed with a new value, or failed,
/// comes with its kept choices, made again from its seed (they make the value again, with no failed
/// attempt kept, and the work counts the failed ones); any other comes with none. Such feedback says
/// it came from the fast path ([`Origin::Plain`]), with the case's failed attempts.
#[test]
fn a_guide_that_hears_fast_path_values_gets_their_keys_and_the_choices_of_new_ones() {
    use refgen::refgen_core::choice::ChoiceTree;
    use refgen::refgen_core::source::{sample, DetRng, Stop};
    use refgen::refgen_core::{parse_tree, Gen};
    use refgen::refgen_runtime::guide::{CaseInfo, ChoiceContext, Choices, Feedback, Guide, Origin, Outcome, Plan};
    use refgen::refgen_runtime::hashing::value_key;
    use std::sync::{Arc, Mutex};

    type Heard = Arc<Mutex<Vec<(Outcome, Option<u64>, bool, ChoiceTree, usize)>>>;
    static FAILED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    struct Hearing(Heard);
    impl Guide for Hearing {
        fn name(&self) -> &str {
            "hearing"
        }
        fn choose(
            &mut self,
            ctx: &ChoiceContext<'_>,
            rng: &mut DetRng,
        ) -> Result<refgen::refgen_core::choice::Choice, Stop> {
            Ok(sample(rng, ctx.request))
        }
        fn begin_case(&mut self, _: &CaseInfo<'_>) -> Plan {
            Plan::new(Choices::Plain { hear: true, note: false })
        }
        fn feedback(&mut self, f: &Feedback<'_>) {
            assert_eq!(f.origin, Origin::Plain, "every case takes the fast path");
            let failed = f.failed_attempts.expect("a fast-path case's filters can retry");
            FAILED.fetch_add(failed, std::sync::atomic::Ordering::Relaxed);
            self.0.lock().unwrap().push((f.outcome, f.key, f.new, f.tree(), f.trail.choices_made()));
        }
    }
    // A retrying filter, so that values are made after failed attempts; few values, so that some come again.
    let gen = || int(0u32..=60).filter(|x| x.is_multiple_of(3));
    let tested = Arc::new(Mutex::new(Vec::new()));
    let seen = tested.clone();
    let p = Property::new(gen, move |x: u32| {
        assume!(x.is_multiple_of(2));
        seen.lock().unwrap().push(x);
        assert!(x != 54);
    });
    let heard: Heard = Arc::default();
    let shared = heard.clone();
    let config = Config::new("hears plain values").cases(200).seed(3).max_shrink_steps(0);
    let f = failure(p.check(&config.guide(move || Hearing(shared.clone()))));
    assert_eq!(f.args[0].1, "54");
    let heard = heard.lock().unwrap();
    let tested = tested.lock().unwrap();
    // Every case tested was heard, in order (the discarded ones too), up to the failure, the last.
    let valid: Vec<_> = heard.iter().filter(|h| h.0 != Outcome::Discarded).collect();
    assert!(valid.len() >= 2 && valid.len() <= tested.len(), "{} heard, {} tested", valid.len(), tested.len());
    for (h, x) in valid.iter().zip(tested.iter()) {
        assert_eq!(h.1, Some(value_key(x)), "the key of the value tested");
    }
    assert_eq!(heard.last().unwrap().0, Outcome::Failed);
    let mut keys = std::collections::HashSet::new();
    let mut recorded = 0;
    for (outcome, key, new, tree, made) in heard.iter() {
        let Some(key) = key else { panic!("every value of this generator is made, so every case has a key") };
        assert_eq!(*new, keys.insert(*key), "new until a value comes again");
        if (*new && *outcome == Outcome::Passed) || *outcome == Outcome::Failed {
            recorded += 1;
            let x = parse_tree(&gen(), tree).unwrap();
            assert_eq!(value_key(&x), *key, "the kept choices make the value again");
            assert_eq!(*tree, tree.without_retries(), "no failed attempt is kept");
            assert!(*made >= tree.choice_count(), "the work counts the failed attempts");
        } else {
            assert_eq!(tree.choice_count(), 0, "a value not new, or discarded, is not made again");
        }
    }
    assert!(recorded >= 2 && recorded < heard.len(), "{recorded} of {} made again", heard.len());
    // Two values in three fail the filter: the cases' failed attempts are told.
    assert!(FAILED.load(std::sync::atomic::Ordering::Relaxed) >= heard.len() as u64 / 2);
}

/// Each tree a guide plans to replay comes back to it once its case is made ([`Guide::recycle`]),
/// in order, as it was planned; a fresh case hands back nothing.
#[test]
fn a_guide_gets_back_each_tree_it_replayed() {
    use refgen::refgen_core::choice::ChoiceTree;
    use refgen::refgen_core::source::{sample, DetRng, Stop};
    use refgen::refgen_runtime::guide::{CaseInfo, ChoiceContext, Feedback, Guide, Plan};
    use std::sync::{Arc, Mutex};

    #[derive(Default)]
    struct Trees {
        planned: Vec<ChoiceTree>,
        back: Vec<ChoiceTree>,
        fresh: usize,
    }
    struct Replaying {
        trees: Arc<Mutex<Trees>>,
        last: Option<ChoiceTree>,
    }
    impl Guide for Replaying {
        fn name(&self) -> &str {
            "replaying"
        }
        fn begin_case(&mut self, case: &CaseInfo<'_>) -> Plan {
            let mut trees = self.trees.lock().unwrap();
            match self.last.take().filter(|_| !case.index.is_multiple_of(3)) {
                Some(tree) => {
                    trees.planned.push(tree.clone());
                    Plan::replay(tree)
                }
                None => {
                    trees.fresh += 1;
                    Plan::fresh()
                }
            }
        }
        fn choose(
            &mut self,
            ctx: &ChoiceContext<'_>,
            rng: &mut DetRng,
        ) -> Result<refgen::refgen_core::choice::Choice, Stop> {
            Ok(sample(rng, ctx.request))
        }
        fn feedback(&mut self, f: &Feedback<'_>) {
            self.last = Some(f.tree());
        }
        fn recycle(&mut self, tree: ChoiceTree) {
            self.trees.lock().unwrap().back.push(tree);
        }
    }
    let p = Property::new(|| vec(int(0u8..=9), 0..=6), |_: Vec<u8>| {});
    let trees = Arc::new(Mutex::new(Trees::default()));
    let shared = trees.clone();
    let config = Config::new("recycles").cases(60).seed(5);
    let config = config.guide(move || Replaying { trees: shared.clone(), last: None });
    assert!(p.check(&config).is_ok());
    let trees = trees.lock().unwrap();
    assert!(trees.planned.len() >= 30 && trees.fresh >= 10, "{} replayed, {} fresh", trees.planned.len(), trees.fresh);
    assert_eq!(trees.back, trees.planned, "every replayed tree, and no other, back as it was planned");
}
