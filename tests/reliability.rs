//! Reliability (issue 16): a panicking generator is reported with its real input and shrunk;
//! failures survive concurrent runs, deep trees and processes that die; bad configuration
//! and mismatched tokens are told; inputs that would blow up are bounded.

use refgen::prelude::*;
use refgen::refgen_core::combinators::int;
use refgen::refgen_runtime::guides::RlGuide;
use refgen::refgen_runtime::runner::{FailureKind, Origin};
use refgen::runner::RunError;
use std::path::PathBuf;

use refgen_fixtures::runs::{failure, temp_dir};

// ---------------------------------------------------------------- 1. a panicking generator

/// A generator that panics for `a >= 209`, after choosing `a` and `b`.
fn with_panics() -> Property<(u8, u8)> {
    Property::new(
        || {
            (int(0u8..=255), int(0u8..=255))
                .map(|(a, b)| if a >= 209 { panic!("for a={a}") } else { (a, b) }, |v: &(u8, u8)| Some(*v))
        },
        |_: (u8, u8)| (),
    )
}

#[test]
fn a_panicking_generator_is_reported_with_its_real_choices_and_shrunk() {
    for seed in 0..3 {
        let f = failure(with_panics().check(&Config::new("genpanic").seed(seed)));
        assert_eq!(f.kind, FailureKind::GeneratorPanicked, "{f}");
        assert!(!f.flaky, "a deterministic panic is not flaky:\n{f}");
        assert!(f.reason.contains("for a=209"), "shrunk to the smallest panicking a:\n{f}");
        assert_eq!(f.tree.choices(), vec![209, 0], "{f}");
        assert!(f.shrink.steps > 0, "{f}");
        assert!(f.token.len() > "r1-0000".len(), "a token with choices: {}", f.token);
        let shown = f.to_string();
        assert!(shown.contains("its generator panicked") && shown.contains("=209"), "{shown}");
        // The token replays the panic.
        let again = failure(with_panics().check(&Config::new("genpanic").replay(f.token.clone())));
        assert_eq!(again.kind, FailureKind::GeneratorPanicked);
        assert!(again.reason.contains("for a=209"), "{again}");
    }
}

/// A derived type whose validity condition panics for `a >= 209`.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(valid(self))]
struct WithPanics {
    a: u8,
    b: u8,
}

fn valid(w: &WithPanics) -> bool {
    assert!(w.a < 209, "for a={}", w.a);
    true
}

#[property(regressions = false)]
#[should_panic(expected = "for a=209")]
fn a_panicking_assume_is_reported_at_its_smallest_input(w: WithPanics) {
    let _ = w;
}

// ---------------------------------------------------------------- child processes

/// Runs this test binary's `child_process` test in a child process with `mode`.
fn child(mode: &str, dir: &std::path::Path) -> std::process::Output {
    child_with(mode, dir, &[])
}

/// [`child`] with environment variables set, and the harness capturing output.
fn child_with(mode: &str, dir: &std::path::Path, vars: &[(&str, &str)]) -> std::process::Output {
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args(["--ignored", "--exact", "child_process", "--test-threads=1"])
        .env("RELIABILITY_CHILD", mode)
        .env("RELIABILITY_DIR", dir)
        .env_remove("REFGEN_REGRESSIONS")
        .env_remove("REFGEN_CASES");
    for (k, v) in vars {
        cmd.env(k, v);
    }
    cmd.output().unwrap()
}

/// Fails only on `x == k`: each `k` is a different failure.
fn only(k: u32) -> Property<u32> {
    Property::new(|| int(0u32..=9), move |x: u32| x != k)
}

/// Ends the process on `x >= 5`, as `mode` says; in mode `late`, a case
/// with `x >= 5` fails twice (found on the fast path, then made again
/// under a recorder), and the third such case (a shrink try or a replay,
/// both recorded by their choices) aborts.
fn killer(mode: &'static str) -> Property<u32> {
    static LATE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    struct Bomb;
    impl Drop for Bomb {
        fn drop(&mut self) {
            panic!("second panic, in a destructor");
        }
    }
    Property::new(
        || int(0u32..=9),
        move |x: u32| {
            if x >= 5 {
                match mode {
                    "late" if LATE.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 2 => panic!("fails"),
                    "abort" | "late" => std::process::abort(),
                    "exit0" => std::process::exit(0),
                    _ => {
                        let _bomb = Bomb;
                        panic!("first panic for x={x}");
                    }
                }
            }
        },
    )
}

/// The child processes' side: selected by `RELIABILITY_CHILD` (run only by [`child`]).
#[test]
#[ignore = "run by other tests in a child process"]
fn child_process() {
    let mode = std::env::var("RELIABILITY_CHILD").expect("run by child()");
    let dir = PathBuf::from(std::env::var("RELIABILITY_DIR").unwrap());
    if mode == "exit-plain" {
        let p = Property::new(
            || int(0u32..=9),
            |x: u32| {
                if x >= 5 {
                    std::process::exit(0)
                }
            },
        );
        let _ = p.check(&Config::new("exit-plain").no_timeout());
        unreachable!("the run ends the process");
    } else if mode == "exit-after" {
        // A hang abandons its run: no longer live, it does not fail an exit that follows.
        let p = Property::new(
            || int(0u32..=9),
            |x: u32| {
                if x >= 5 {
                    refgen_fixtures::runs::hang()
                }
            },
        );
        let _ = p.check(&Config::new("exit-after").case_timeout(std::time::Duration::from_millis(50)));
        let _ = only(99).check(&Config::new("exit-after").cases(10));
        std::process::exit(0);
    } else if mode == "replay" {
        // The token's property (mended: the case passes now), and another one.
        let mine = Property::new(|| int(0u8..=255), |_: u8| ());
        let report = mine.check(&Config::new("tokens::mine").from_env()).unwrap();
        assert_eq!((report.cases, report.replay_note.as_deref()), (1, Some("the replayed case passed")));
        let other = Property::new(|| int(0u32..=9), |_: u32| ());
        let report = other.check(&Config::new("tokens::other").cases(50).from_env()).unwrap();
        assert_eq!((report.cases, report.replay_note.as_deref()), (50, None));
    } else if mode == "env" {
        let _ = Config::new("env").from_env();
    } else if mode == "env-cases" {
        // Past the harness's capture, for the parent to read.
        let cases = Config::new("env").from_env().cases;
        std::io::Write::write_all(&mut std::io::stdout(), format!("cases={cases}\n").as_bytes()).unwrap();
    } else if mode == "warn" {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("warn.json"), "{ corrupt").unwrap();
        only(99).check(&Config::new("warn").cases(10).regressions(&dir)).unwrap();
    } else if let Some(k) = mode.strip_prefix("only") {
        let f = failure(only(k.parse().unwrap()).check(&Config::new("concurrent").regressions(&dir)));
        assert!(f.saved_to.is_some(), "{f}");
    } else if mode == "guided-generator" {
        let p = Property::new(aborting_generator, |_: u32| ());
        let _ = p.check(&Config::new("guided-generator").regressions(&dir).guide(RlGuide::default));
        unreachable!("the run ends the process");
    } else if mode == "generator" {
        // The generator ends the process when it makes a value of 5 or more.
        let _ = Property::new(aborting_generator, |_: u32| ()).check(&Config::new("generator").regressions(&dir));
        unreachable!("the run ends the process");
    } else {
        let mode: &'static str = Box::leak(mode.into_boxed_str());
        let _ = killer(mode).check(&Config::new("killer").regressions(&dir));
        unreachable!("the run ends the process");
    }
}

// ---------------------------------------------------------------- 2. concurrent writers

#[test]
fn concurrent_processes_and_threads_lose_no_failure() {
    let dir = temp_dir("concurrent");
    let children: Vec<_> = (1..=4)
        .map(|k| {
            let dir = dir.clone();
            std::thread::spawn(move || child(&format!("only{k}"), &dir))
        })
        .collect();
    let threads: Vec<_> = (5..=9)
        .map(|k| {
            let dir = dir.clone();
            std::thread::spawn(move || failure(only(k).check(&Config::new("concurrent").regressions(&dir))))
        })
        .collect();
    for c in children {
        let out = c.join().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stdout));
    }
    for t in threads {
        let f = t.join().unwrap();
        assert!(f.saved_to.is_some() && f.warnings.is_empty(), "{f}");
    }
    let (store, w) = refgen::refgen_runtime::persist::Store::open(&dir, "concurrent");
    assert!(w.is_none(), "{w:?}");
    let mut remembered: Vec<u64> = store.entries.iter().map(|e| e.tree.choices()[0]).collect();
    remembered.sort();
    assert_eq!(remembered, (1..=9).collect::<Vec<u64>>(), "every failure is on disk");
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.contains(".tmp") && !n.contains(".inflight")), "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------- 4. processes that die

/// Runs `mode` in a child, which ends; the next run reports the case it left.
fn a_killer_is_reported_by_the_next_run(mode: &'static str) -> std::process::Output {
    let dir = temp_dir(mode);
    let out = child(mode, &dir);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    let inflight = left.iter().find(|n| n.file_name().unwrap().to_string_lossy().starts_with("killer.inflight-"));
    let record = std::fs::read_to_string(inflight.unwrap_or_else(|| panic!("{left:?}"))).unwrap();
    // A fast-path case is recorded by its run's seed and its index, any other by its choices.
    let by = if mode == "late" { "{\"choices\":[" } else { "{\"run\":" };
    assert!(record.starts_with(by) && record.trim_end().ends_with('}'), "{record:?}");
    let f = failure(killer(mode).check(&Config::new("killer").regressions(&dir)));
    assert_eq!(f.kind, FailureKind::EndedProcess, "{f}");
    let x: u32 = f.args[0].1.parse().unwrap();
    assert!(x >= 5, "the case that ended the process:\n{f}");
    assert!(f.saved_to.is_some() && f.to_string().contains("ended the process"), "{f}");
    let (store, _) = refgen::refgen_runtime::persist::Store::open(&dir, "killer");
    assert_eq!(store.entries.len(), 1, "it is remembered");
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!left.iter().any(|n| n.to_string_lossy().contains("inflight")), "{left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
    out
}

#[test]
fn an_abort_is_reported_by_the_next_run() {
    let out = a_killer_is_reported_by_the_next_run("abort");
    assert!(!out.status.success());
}

#[test]
fn an_abort_while_shrinking_is_reported_by_the_next_run() {
    let out = a_killer_is_reported_by_the_next_run("late");
    assert!(!out.status.success());
}

/// A generator that ends the process: the case left in flight is the one it was making (recorded
/// before it is made), not the case before it; the next run, making it again to report it, ends
/// too, and leaves it in flight again (saying so); once the generator is mended, the case is
/// reported.
#[test]
fn a_generator_that_ends_the_process_leaves_its_own_case_in_flight() {
    let dir = temp_dir("generator");
    assert!(!child("generator", &dir).status.success());
    let again = child("generator", &dir);
    assert!(!again.status.success());
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(err.contains("makes again a case that ended the process in an earlier run"), "{err}");
    let mended = Property::new(|| int(0u32..=9), |_: u32| ());
    let f = failure(mended.check(&Config::new("generator").regressions(&dir)));
    assert_eq!(f.kind, FailureKind::EndedProcess, "{f}");
    let x: u32 = f.args[0].1.parse().unwrap();
    assert!(x >= 5, "the case whose making ended the process:\n{f}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `std::process::exit(0)` in a property: the process fails at once, saying which property's case
/// was cut short and where it is kept, and the next run reports the case.
/// A generator that ends the process when it makes a value of 5 or more.
fn aborting_generator() -> impl Gen<Value = u32> {
    int(0u32..=9).map(|x| if x >= 5 { std::process::abort() } else { x }, |x: &u32| Some(*x))
}

/// A guided case whose generator ends the process: the next run reports that case (by its index in
/// the run: a guide's case cannot be made again outside its run), not the case before it.
#[test]
fn a_guided_case_whose_generator_ends_the_process_is_the_one_reported() {
    let dir = temp_dir("guided-generator");
    assert!(!child("guided-generator", &dir).status.success());
    // The same run with a generator that does not end the process, failing where it would have.
    let seen = Property::new(|| int(0u32..=9), |x: u32| x < 5);
    let config = Config::new("guided-generator").guide(RlGuide::default);
    let Origin::Generated(index) = failure(seen.check(&config)).origin else { panic!("a generated case") };
    let mended = Property::new(|| int(0u32..=9), |_: u32| ());
    let f = failure(mended.check(&config.clone().regressions(&dir)));
    assert_eq!(f.kind, FailureKind::EndedProcess, "{f}");
    assert_eq!(f.args[0].0, "case", "not the value of the case before it:\n{f}");
    assert!(f.args[0].1.contains(&format!("making generated case #{index} ")), "case #{index}:\n{f}");
    // Reported once: the next run passes.
    mended.check(&config.regressions(&dir)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn process_exit_fails_the_process_and_is_reported_by_the_next_run() {
    let out = a_killer_is_reported_by_the_next_run("exit0");
    assert_eq!(out.status.code(), Some(101), "an exit while a case runs is not a pass");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`killer`: the process is exiting") && err.contains("that is not a pass"), "{err}");
    assert!(err.contains("killer.inflight-") && err.contains("the next run reports it"), "{err}");
}

/// Without a regressions directory, and from a property run on the calling thread (no time
/// limit), an exit fails the process too; once the run is over, an exit is the program's own.
#[test]
fn process_exit_without_regressions_or_watch_fails_the_process() {
    let dir = temp_dir("exit-plain");
    let out = child("exit-plain", &dir);
    assert_eq!(out.status.code(), Some(101));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`exit-plain`: the process is exiting"), "{err}");
    assert!(err.contains("with a regressions directory, the next run would report the case"), "{err}");
    let out = child("exit-after", &dir);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_panic_while_unwinding_prints_the_first_panic_and_is_reported_by_the_next_run() {
    let out = a_killer_is_reported_by_the_next_run("double");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("first panic for x=") && err.contains("second panic, in a destructor"), "{err}");
}

// ---------------------------------------------------------------- 5. configuration, tokens, warnings

#[test]
fn switch_words_and_zero_cases_in_the_environment_are_errors() {
    let dir = temp_dir("env");
    for (var, value) in [("REFGEN_REGRESSIONS", "on"), ("REFGEN_REGRESSIONS", "1"), ("REFGEN_CASES", "0")] {
        let out = child_with("env", &dir, &[(var, value)]);
        assert!(!out.status.success(), "{var}={value} was taken");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains(var), "{var}={value}: {said}");
    }
    for (var, value) in [("REFGEN_REGRESSIONS", "off"), ("REFGEN_REGRESSIONS", "OFF"), ("REFGEN_CASES", "3")] {
        assert!(child_with("env", &dir, &[(var, value)]).status.success(), "{var}={value}");
    }
}

#[test]
fn a_former_reflect_variable_is_read_with_a_warning_and_the_new_name_wins() {
    let dir = temp_dir("env-legacy");
    let cases = |out: &std::process::Output| {
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        let n = said.split("cases=").nth(1).map(|rest| rest.chars().take_while(char::is_ascii_digit).collect());
        n.unwrap_or(said)
    };
    let old = child_with("env-cases", &dir, &[("REFLECT_CASES", "7")]);
    assert_eq!(cases(&old), "7");
    let err = String::from_utf8_lossy(&old.stderr);
    assert!(err.contains("REFLECT_CASES is read as REFGEN_CASES"), "stderr: {err}");
    let both = child_with("env-cases", &dir, &[("REFLECT_CASES", "7"), ("REFGEN_CASES", "9")]);
    assert_eq!(cases(&both), "9");
    assert!(!String::from_utf8_lossy(&both.stderr).contains("REFLECT_CASES is read"));
}

#[test]
fn a_warning_reaches_standard_error_when_the_test_passes() {
    let dir = temp_dir("warn");
    let out = child_with("warn", &dir, &[]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("refgen: warning") && err.contains("warn.json"), "stderr: {err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_token_says_which_property_it_belongs_to() {
    let small = Property::new(|| int(0u8..=255), |x: u8| x < 100);
    let f = failure(small.check(&Config::new("tokens::small")));
    let strings = Property::new(
        || refgen::refgen_core::combinators::vec(refgen::refgen_core::combinators::int(0u32..=9), 0..=3),
        |_: Vec<u32>| (),
    );
    // Another property runs its cases as usual, and is told the token is not its own.
    let report = strings.check(&Config::new("tokens::strings").cases(50).replay(f.token.clone())).unwrap();
    assert_eq!(report.cases, 50, "{report:?}");
    assert_eq!(report.replay_note, None);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert!(report.warnings[0].contains("not `tokens::strings`'s own"), "{:?}", report.warnings);
    assert!(report.statistics().contains("not `tokens::strings`'s own"), "warnings are in the statistics");
    // The same property: no warning; the token's case is replayed.
    let same = failure(small.check(&Config::new("tokens::small").replay(f.token.clone())));
    assert!(same.warnings.is_empty(), "{:?}", same.warnings);
    assert_eq!((same.origin.clone(), same.args.clone()), (Origin::Replay, f.args.clone()));
    // Renamed, same type: not its own either; it finds its own failure.
    let renamed = failure(small.check(&Config::new("tokens::renamed").replay(f.token.clone())));
    assert!(matches!(renamed.origin, Origin::Generated(_)), "{renamed}");
    assert!(renamed.warnings[0].contains("not `tokens::renamed`'s own"), "{:?}", renamed.warnings);
    // The same name, another type: replayed, with a warning.
    let retyped = Property::new(|| int(0u16..=255), |x: u16| x < 100);
    let retyped = failure(retyped.check(&Config::new("tokens::small").replay(f.token.clone())));
    assert_eq!(retyped.origin, Origin::Replay);
    assert!(retyped.warnings[0].contains("another type"), "{:?}", retyped.warnings);
}

/// With `REFGEN_REPLAY` set for the run of several properties (`cargo test det_`), the token's
/// property replays its case and says, past the harness's capture, that it passed; every other
/// property runs its cases and says once that the token is not its own.
#[test]
fn a_token_replays_only_its_own_property_and_says_so_past_the_capture() {
    let dir = temp_dir("replay");
    let passing = Property::new(|| int(0u8..=255), |x: u8| x < 100);
    let f = failure(passing.check(&Config::new("tokens::mine")));
    let out = child_with("replay", &dir, &[("REFGEN_REPLAY", &f.token)]);
    let (said, err) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{said}\n{err}");
    assert_eq!(err.matches("not `tokens::other`'s own").count(), 1, "{err}");
    assert!(err.contains("`tokens::mine`: the replayed case passed"), "{err}");
    assert!(!err.contains("`tokens::mine`'s own"), "{err}");
}

/// A run that writes nothing leaves no regressions directory behind; one that remembers a failure
/// makes it; one that was there stays.
#[test]
fn the_regressions_directory_is_made_only_to_write_to_it() {
    let root = temp_dir("made-only");
    let dir = root.join("regressions");
    only(99).check(&Config::new("made").cases(20).regressions(&dir)).unwrap();
    assert!(!dir.exists(), "a passing run made {}", dir.display());
    let f = failure(only(3).check(&Config::new("made").regressions(&dir)));
    assert!(f.saved_to.is_some() && dir.join("made.json").exists(), "{f}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    only(99).check(&Config::new("made").cases(20).regressions(&dir)).unwrap();
    assert!(dir.exists(), "a directory that was there stays");
    std::fs::remove_dir_all(&root).unwrap();
}

/// `NonZero` integers are made without zero: no case is discarded for one.
#[test]
fn nonzero_integers_are_made_without_discards() {
    use std::num::NonZero;
    let small = Property::new(NonZero::<u8>::generator, |_: NonZero<u8>| ());
    assert_eq!(small.check(&Config::new("nonzero::u8").cases(1000)).unwrap().discards, 0);
    let wide = Property::new(NonZero::<i64>::generator, |_: NonZero<i64>| ());
    assert_eq!(wide.check(&Config::new("nonzero::i64").cases(1000)).unwrap().discards, 0);
}

// ---------------------------------------------------------------- 8. flakiness

#[test]
fn a_property_that_fails_now_and_then_is_called_flaky() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static CALLS: AtomicU64 = AtomicU64::new(0);
    // Fails on every third call for x >= 5, whatever x is: one time in three.
    let p = Property::new(|| int(0u32..=9), |x: u32| x < 5 || !CALLS.fetch_add(1, Ordering::SeqCst).is_multiple_of(3));
    for seed in 0..10 {
        let f = failure(p.check(&Config::new("flaky").seed(seed)));
        assert!(f.flaky, "seed {seed}:\n{f}");
        assert!(f.to_string().contains("flaky"), "{f}");
    }
}

// ---------------------------------------------------------------- 6. inputs that blow up

#[test]
fn a_huge_length_in_a_choice_sequence_is_a_parse_error_not_an_abort() {
    use refgen::refgen_core::combinators::vec;
    let g = vec(int(0u8..=9), 0..=usize::MAX);
    assert!(refgen::refgen_core::interpret::parse(&g, &[1 << 40]).is_err());
}

#[test]
fn a_generator_that_cannot_be_built_is_a_setup_error() {
    use refgen::refgen_core::regex::regex;
    for pattern in ["[^\\s\\S]", "a^b"] {
        let p = Property::new(move || regex(pattern), |_: String| ());
        for config in [Config::new("setup"), Config::new("setup").no_timeout()] {
            match p.check(&config) {
                Err(e @ RunError::Setup { .. }) => assert!(e.to_string().contains("cannot run"), "{e}"),
                other => panic!("{pattern}: {other:?}"),
            }
        }
    }
}

// ---------------------------------------------------------------- 8. limits

/// The deepest a derived type may ask for (`depth = 129` is a compile error:
/// `tests/ui/derive/depth_too_deep.rs`).
#[derive(Debug, Clone, PartialEq, Reflective)]
#[reflect(depth = 128)]
enum Deep {
    Nil,
    Cons(Box<Deep>),
}

#[test]
fn the_deepest_depth_the_derive_takes_is_honoured() {
    assert_eq!(refgen::refgen_core::combinators::HARD_DEPTH, 128, "the derive's MAX_DEPTH must follow");
    let mut v = Deep::Nil;
    for _ in 0..120 {
        v = Deep::Cons(Box::new(v));
    }
    assert!(refgen::refgen_core::interpret::check(&Deep::generator(), &v));
}

// ---------------------------------------------------------------- 7. shrinking that stalls

#[test]
fn a_two_choice_integer_shrinks_to_the_boundary() {
    let p = Property::new(u128::generator, |u: u128| u <= 1000);
    for seed in 0..5 {
        let f = failure(p.check(&Config::new("u128").seed(seed)));
        assert_eq!(f.args[0].1, "1001", "seed {seed}:\n{f}");
    }
}

#[test]
fn a_long_list_shrinks_by_halves_within_a_small_budget() {
    use refgen::refgen_core::combinators::vec;
    let p = Property::new(|| vec(int(0u8..=9), 0..=100_000), |xs: Vec<u8>| xs.len() < 1000);
    let f = failure(p.check(&Config::new("long").max_shrink_steps(300).no_timeout()));
    let len = f.tree.choices().len() - 1;
    assert_eq!(len, 1000, "{len} elements left after {:?}", f.shrink);
}
