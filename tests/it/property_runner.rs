//! The runner, called directly: failing properties are shrunk, replayed, remembered; hangs,
//! vacuous runs, corrupt files and bad tokens are reported; the guide hears feedback.

use refgen::prelude::*;
use refgen::refgen_core::combinators::{int, vec};
use refgen::refgen_core::DetRng;
use refgen::refgen_core::Stop;
use refgen::refgen_runtime::guide::{ChoiceContext, Feedback, Guide};
use refgen::refgen_runtime::persist::Store;
use refgen::refgen_runtime::runner::{FailureKind, Origin};
use refgen::runner::RunError;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use refgen_fixtures::runs::{failure, hang, temp_dir};

fn small_lists() -> Property<Vec<u32>> {
    Property::new(|| vec(int(0u32..=1000), 0..=20), |xs: Vec<u32>| assert!(xs.iter().all(|&x| x < 500), "too big"))
}

#[test]
fn a_failing_property_is_shrunk_to_a_minimal_counterexample() {
    for seed in 0..5 {
        let f = failure(small_lists().check(&Config::new("lists").seed(seed)));
        assert_eq!(f.args, vec![("value".to_owned(), "[500]".to_owned())], "seed {seed}:\n{f}");
        assert!(f.reason.contains("too big"), "{}", f.reason);
        assert!(f.reason.contains("property_runner.rs"), "the panic's location: {}", f.reason);
        assert_eq!(f.kind, FailureKind::Failed);
        assert!(f.shrink.steps > 0);
        let shown = f.to_string();
        for part in ["value = [500]", "seed: ", "cases passed", "discarded", "shrink steps", "REFGEN_REPLAY="] {
            assert!(shown.contains(part), "missing {part:?} in\n{shown}");
        }
    }
}

#[test]
fn a_failure_gives_the_typed_value_and_the_tests_it_took() {
    let p = small_lists();
    for seed in 0..5 {
        let config = Config::new("lists").seed(seed);
        let f = failure(p.check(&config));
        assert_eq!(p.value_of(&f), Some(vec![500]), "seed {seed}");
        // Tests to failure: the passed cases and the failing one.
        assert_eq!(f.tests, f.cases + 1);
        let passing = Config::new("lists").seed(seed).cases(f.cases);
        assert!(p.check(&passing).is_ok(), "seed {seed}: the cases before the failure pass");
        assert!(f.shrink.attempts >= f.shrink.steps);
    }
}

#[test]
fn reverse_shrinks_to_zero_one_on_the_calling_thread_too() {
    let p = Property::new(|| vec(int(0u8..=100), 0..=10), |xs: Vec<u8>| xs.iter().rev().eq(xs.iter()));
    for config in [Config::new("rev"), Config::new("rev").no_timeout()] {
        let f = failure(p.check(&config));
        assert_eq!(f.args[0].1, "[0, 1]", "{f}");
        assert_eq!(f.reason, "the property returned false");
    }
}

#[test]
fn the_same_seed_gives_the_same_failure() {
    let a = failure(small_lists().check(&Config::new("x").seed(11).max_shrink_steps(3)));
    let b = failure(small_lists().check(&Config::new("x").seed(11).max_shrink_steps(3)));
    assert_eq!(a.token, b.token);
    assert_eq!(a.origin, b.origin);
    let c = failure(small_lists().check(&Config::new("x").seed(12).max_shrink_steps(0)));
    let d = failure(small_lists().check(&Config::new("x").seed(11).max_shrink_steps(0)));
    assert_ne!(c.token, d.token, "different seeds, different first failures");
}

#[test]
fn the_replay_token_reproduces_the_failure() {
    let f = failure(small_lists().check(&Config::new("lists").seed(3)));
    let again = failure(small_lists().check(&Config::new("lists").replay(f.token.clone())));
    assert_eq!(again.origin, Origin::Replay);
    assert_eq!(again.args, f.args);
    assert_eq!(again.token, f.token);
    // An unshrunk token reproduces its own case.
    let raw = failure(small_lists().check(&Config::new("lists").seed(3).max_shrink_steps(0)));
    let replayed = failure(small_lists().check(&Config::new("lists").replay(raw.token.clone()).max_shrink_steps(0)));
    assert_eq!(replayed.args, raw.args);
    // A passing replay is not an error.
    let ok = Property::new(|| vec(int(0u32..=1000), 0..=20), |_xs: Vec<u32>| ());
    let report = ok.check(&Config::new("lists").replay(f.token.clone())).unwrap();
    assert_eq!(report.replay_note.as_deref(), Some("the replayed case passed"));
}

#[test]
fn a_corrupt_token_is_a_readable_error() {
    for bad in ["nonsense", "r1.1.2-ffff", ""] {
        match small_lists().check(&Config::new("lists").replay(bad)) {
            Err(e @ RunError::BadToken(_)) => {
                let msg = e.to_string();
                assert!(msg.contains("REFGEN_REPLAY") && msg.contains("is not a replay token"), "{msg}");
            }
            other => panic!("{bad:?}: {other:?}"),
        }
    }
}

/// Fails only on exactly `[777, 1]`: random generation practically never finds it.
fn needle() -> Property<Vec<u32>> {
    Property::new(|| vec(int(0u32..=1000), 0..=20), |xs: Vec<u32>| xs != [777, 1])
}

#[test]
fn a_stored_regression_is_replayed_first() {
    let dir = temp_dir("stored");
    assert!(needle().check(&Config::new("tests::needle").regressions(&dir)).is_ok(), "random cases miss it");
    let (mut store, _) = Store::open(&dir, "tests::needle");
    assert!(store.add_value(&vec(int(0u32..=1000), 0..=20), &vec![777, 1]).unwrap());
    let f = failure(needle().check(&Config::new("tests::needle").regressions(&dir)));
    assert_eq!(f.origin, Origin::Regression(store.path.clone()));
    assert_eq!(f.cases, 0, "it ran before any generated case");
    assert_eq!(f.args[0].1, "[777, 1]");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_failure_is_remembered_and_replayed_first_next_run() {
    let dir = temp_dir("remember");
    let config = Config::new("tests::lists").seed(5).regressions(&dir);
    let first = failure(small_lists().check(&config));
    let path = first.saved_to.clone().expect("remembered");
    assert!(path.starts_with(&dir) && path.ends_with("tests__lists.json"));
    assert!(first.to_string().contains("remembered in"));
    let second = failure(small_lists().check(&config.clone().seed(99)));
    assert_eq!(second.origin, Origin::Regression(path.clone()));
    assert_eq!(second.args, first.args);
    assert_eq!(Store::open(&dir, "tests::lists").0.entries.len(), 1, "the same failure is stored once");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_corrupt_regressions_file_warns_and_the_run_goes_on() {
    let dir = temp_dir("corrupt");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tests__ok.json");
    std::fs::write(&path, "{\"version\": 1, \"cases\": [ trailing garbage").unwrap();
    let p = Property::new(|| vec(int(0u32..=1000), 0..=20), |_xs: Vec<u32>| ());
    let report = p.check(&Config::new("tests::ok").cases(20).regressions(&dir)).expect("the run goes on");
    assert_eq!(report.cases, 20);
    assert_eq!(report.warnings.len(), 1);
    assert!(report.warnings[0].contains(&path.display().to_string()), "{}", report.warnings[0]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Checks that a property hanging for `x > 10` is stopped and reported with its input, under `config`.
fn hang_is_reported(config: Config) {
    let p = Property::new(
        || int(0u32..=100),
        |x: u32| {
            if x > 10 {
                hang();
            }
        },
    );
    let f = failure(p.check(&config.case_timeout(Duration::from_millis(300))));
    assert_eq!(f.kind, FailureKind::Hung(Duration::from_millis(300)));
    let x: u32 = f.args[0].1.parse().unwrap();
    assert!(x > 10, "{f}");
    assert!(f.to_string().contains("hung"), "{f}");
}

#[test]
fn a_hanging_property_is_stopped_and_reported() {
    // Made on the fast path: the watch knows the case by its seed.
    hang_is_reported(Config::new("hang"));
}

#[test]
fn a_hanging_property_under_a_learning_guide_is_reported_with_its_input() {
    // Made by a guide: the watch knows the case by its choices, replayed for the report.
    hang_is_reported(Config::new("hang-rl").guide(refgen::guides::RlGuide::default));
}

#[test]
fn a_vacuous_property_is_reported() {
    let p = Property::new(
        || int(0u32..=1000),
        |x: u32| {
            assume!(x == 3);
        },
    );
    match p.check(&Config::new("vacuous").cases(50)) {
        Err(e @ RunError::Vacuous { .. }) => {
            let msg = e.to_string();
            assert!(msg.contains("discarded") && msg.contains("assume!(x == 3)") && msg.contains("guide"), "{msg}");
        }
        other => panic!("{other:?}"),
    }
    // The generator's own validity condition counts too.
    let filtered = Property::new(|| int(0u32..=1000).filter(|x: &u32| *x == 3), |_x: u32| ());
    assert!(matches!(filtered.check(&Config::new("vacuous").cases(50)), Err(RunError::Vacuous { .. })));
    // A few discards are fine.
    let some = Property::new(|| int(0u32..=9), |x: u32| assume!(x != 0));
    let r = some.check(&Config::new("some").cases(100)).unwrap();
    assert_eq!(r.cases, 100);
    assert!(r.discards > 0);
}

static INVALID_SEEN: AtomicUsize = AtomicUsize::new(0);

#[test]
fn shrinking_honours_the_validity_condition() {
    let p = Property::new(
        || vec(int(0u32..=100), 0..=10).filter(|xs: &Vec<u32>| xs.iter().sum::<u32>() % 2 == 1),
        |xs: Vec<u32>| {
            if xs.iter().sum::<u32>() % 2 != 1 {
                INVALID_SEEN.fetch_add(1, Ordering::SeqCst);
            }
            xs.len() < 3
        },
    );
    let f = failure(p.check(&Config::new("odd")));
    assert_eq!(f.args[0].1, "[0, 0, 1]", "{f}");
    assert_eq!(INVALID_SEEN.load(Ordering::SeqCst), 0, "an invalid value reached the property");
}

#[test]
fn an_example_runs_first_and_is_shrunk_by_reflection() {
    let f = failure(small_lists().example(|| vec![1, 2, 900, 3]).check(&Config::new("ex")));
    assert_eq!(f.origin, Origin::Example(0));
    assert_eq!(f.args[0].1, "[500]");
    match small_lists().example(|| vec![5000]).check(&Config::new("ex")) {
        Err(e @ RunError::BadExample { .. }) => assert!(e.to_string().contains("[5000]"), "{e}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_panicking_generator_is_a_failure_not_a_crash() {
    let p = Property::new(
        || int(0u32..=9).map(|x| if x > 4 { panic!("generator bug") } else { x }, |x| Some(*x)),
        |_x: u32| (),
    );
    let f = failure(p.check(&Config::new("genpanic")));
    assert!(f.reason.contains("the generator panicked") && f.reason.contains("generator bug"), "{}", f.reason);
}

/// One case's feedback: (valid, new, utility).
type Heard = (bool, bool, Option<f64>);

/// Records the feedback it hears.
#[derive(Default)]
struct Listener {
    log: Arc<Mutex<Vec<Heard>>>,
}

impl Guide for Listener {
    fn name(&self) -> &str {
        "Listener"
    }
    fn choose(&mut self, ctx: &ChoiceContext<'_>, rng: &mut DetRng) -> Result<u64, Stop> {
        Ok(refgen::refgen_core::source::sample(rng, ctx.request))
    }
    fn feedback(&mut self, feedback: &Feedback<'_>) {
        self.log.lock().unwrap().push((feedback.valid, feedback.new, feedback.utility));
    }
}

#[test]
fn the_guide_hears_feedback_after_each_case() {
    let log = Arc::new(Mutex::new(Vec::new()));
    let shared = log.clone();
    let p = Property::new(
        || int(0u32..=3),
        |x: u32| {
            assume!(x != 0);
            target!(x * 10);
        },
    );
    let r = p.check(&Config::new("fb").cases(40).guide(move || Listener { log: shared.clone() })).unwrap();
    assert_eq!(r.guide, "Listener");
    let log = log.lock().unwrap();
    assert_eq!(log.len() as u64, r.cases + r.discards);
    assert_eq!(log.iter().filter(|f| !f.0).count() as u64, r.discards);
    assert!(log.iter().filter(|f| f.0).all(|f| matches!(f.2, Some(u) if u >= 10.0)));
    assert_eq!(log.iter().filter(|f| f.1).count(), 4, "four values, each new once");
}

#[test]
fn labels_are_counted() {
    let p = Property::new(
        || int(0u32..=9),
        |x: u32| {
            label!(if x.is_multiple_of(2) { "even" } else { "odd" });
            classify!(x == 0, "zero");
        },
    );
    let r = p.check(&Config::new("labels").cases(200)).unwrap();
    assert_eq!(r.labels["even"] + r.labels["odd"], 200);
    assert!(r.labels["zero"] > 0 && r.labels["zero"] < r.labels["even"]);
    let table = r.statistics();
    assert!(table.contains("even") && table.contains('%'), "{table}");
}

#[test]
fn notes_are_shown_with_the_shrunk_failing_case_only() {
    use std::sync::atomic::AtomicU64;
    static FORMATTED: AtomicU64 = AtomicU64::new(0);
    struct Counted(u32);
    impl std::fmt::Display for Counted {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            FORMATTED.fetch_add(1, Ordering::Relaxed);
            write!(f, "{}", self.0)
        }
    }
    let p = Property::new(
        || vec(int(0u32..=100), 0..=6),
        |xs: Vec<u32>| {
            let total: u32 = xs.iter().sum();
            note!("total = {}", Counted(total));
            note!("len = {}", xs.len());
            total < 150
        },
    );
    let f = failure(p.check(&Config::new("notes").seed(7).cases(2000)));
    // The shrunk case's notes, in order, and no other case's.
    let total: u32 =
        f.args[0].1.trim_matches(|c| c == '[' || c == ']').split(", ").map(|x| x.parse::<u32>().unwrap()).sum();
    assert_eq!(f.notes, vec![format!("total = {total}"), "len = 2".to_owned()], "{f}");
    assert_eq!(total, 150, "{f}");
    let shown = f.to_string();
    assert!(shown.contains("note: total = 150\nnote: len = 2\nreason:"), "{shown}");
    // Formatted only for the cases shown (the final replays), not for the cases searched or shrunk.
    let formatted = FORMATTED.load(Ordering::Relaxed);
    assert!(
        formatted <= 8,
        "{formatted} notes formatted over {} cases and {} shrink steps",
        f.cases,
        f.shrink.attempts
    );
    // Outside a property, a note does nothing.
    note!("nowhere {}", Counted(1));
    assert_eq!(FORMATTED.load(Ordering::Relaxed), formatted);
}

#[test]
fn a_note_reaches_the_observations() {
    let dir = temp_dir("observe-notes");
    let file = dir.join("obs.jsonl");
    let p = Property::new(
        || int(0u32..=9),
        |x: u32| {
            note!("x is {x}");
            x < 9
        },
    );
    failure(p.check(&Config::new("obs::notes").observability(&file)));
    let text = std::fs::read_to_string(&file).unwrap();
    for l in text.lines() {
        let l: serde_json::Value = serde_json::from_str(l).unwrap();
        let x = l["arguments"].as_object().and_then(|a| a.values().next()).and_then(|x| x.as_str()).unwrap().to_owned();
        assert_eq!(l["metadata"]["notes"], serde_json::json!([format!("x is {x}")]), "{l}");
    }
}

#[test]
fn observations_are_written_one_json_object_per_case() {
    let dir = temp_dir("observe");
    let file = dir.join("obs.jsonl");
    let p = Property::new(
        || int(0u32..=9),
        |x: u32| {
            label!("seen");
            x < 9
        },
    );
    let f = failure(p.check(&Config::new("obs::prop").observability(&file)));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines.len() as u64 > f.cases);
    for l in &lines {
        for field in [
            "type",
            "run_start",
            "property",
            "status",
            "status_reason",
            "representation",
            "arguments",
            "how_generated",
            "features",
            "coverage",
            "timing",
            "metadata",
        ] {
            assert!(l.get(field).is_some(), "missing {field} in {l}");
        }
        assert_eq!(l["type"], "test_case");
        assert_eq!(l["property"], "obs::prop");
    }
    assert!(lines.iter().any(|l| l["status"] == "passed" && l["features"].get("seen").is_some()));
    let last = lines.last().unwrap();
    assert_eq!(last["status"], "failed");
    assert_eq!(last["arguments"]["value"], "9");
    assert_eq!(last["how_generated"], "minimal failing case");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `Report::distinct` counts the distinct values of the cases that passed, on the fast path and
/// guided alike, when asked (or with statistics on); it is `None` otherwise.
#[test]
fn the_report_counts_distinct_values_when_asked() {
    // Pairs of 0..=3 with a discard: 12 valid values.
    let p = Property::new(
        || (int(0u8..=3), int(0u8..=3)),
        |(a, b): (u8, u8)| {
            assume!(a != b);
        },
    );
    let base = || Config::new("distinct_count").cases(400).seed(2);
    assert_eq!(p.check(&base()).unwrap().distinct, None);
    let fast = p.check(&base().count_distinct(true)).unwrap();
    assert_eq!(fast.distinct, Some(12));
    assert!(fast.statistics().contains("12 distinct values"), "{}", fast.statistics());
    let guided = p.check(&base().count_distinct(true).guide(refgen::guides::RlGuide::default)).unwrap();
    assert_eq!(guided.distinct, Some(12));
    assert_eq!(p.check(&base().statistics(true)).unwrap().distinct, Some(12));
}

/// `Config::no_regressions` neither writes a failure down nor replays one.
#[test]
fn no_regressions_turns_remembering_off() {
    let dir = temp_dir("no-regressions");
    let with = Config::new("remembered").regressions(&dir);
    assert!(with.clone().no_regressions().regressions.is_none());
    failure(small_lists().check(&with.clone().no_regressions()));
    assert!(std::fs::read_dir(&dir).map_or(true, |mut d| d.next().is_none()), "nothing written");
    failure(small_lists().check(&with));
    assert!(std::fs::read_dir(&dir).unwrap().next().is_some(), "written when on");
}

#[test]
fn a_run_whose_values_are_mostly_filtered_has_a_health_note() {
    let sorted = Property::new(
        || vec(int(0u32..=1000), 0..=6).filter(|xs: &Vec<u32>| xs.is_sorted()),
        |xs: Vec<u32>| assert!(xs.is_sorted()),
    );
    let config = Config::new("health").cases(200).guide(|| refgen::guides::RandomGuide);
    let report = sorted.check(&config).unwrap();
    assert_eq!(report.health.len(), 1, "{:?}", report.health);
    assert!(report.health[0].starts_with("most values made were rejected"), "{:?}", report.health);
    assert!(report.statistics().contains("health: most values"), "{}", report.statistics());
    let healthy = Property::new(|| vec(int(0u32..=1000), 0..=6), |xs: Vec<u32>| assert!(xs.len() <= 6));
    assert!(healthy.check(&config).unwrap().health.is_empty());
}
