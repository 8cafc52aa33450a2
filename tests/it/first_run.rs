//! What a new user meets first: the default generators find ordinary bugs, validity that filters still gets its cases, and misconfiguration says what is wrong.

use refgen::prelude::*;
use refgen::runner::RunError;

/// The cases a property over `V` runs before it fails, for seeds `0..seeds`
/// (`None` when it passed every one of `cases`).
fn cases_to_failure<V: std::fmt::Debug + 'static>(
    seeds: u64,
    cases: u64,
    prop: impl Fn() -> Property<V>,
) -> Vec<Option<u64>> {
    (0..seeds)
        .map(|seed| match prop().check(&Config::new("first_run").seed(seed).cases(cases)) {
            Err(RunError::Failed(f)) => Some(f.cases + 1),
            _ => None,
        })
        .collect()
}

#[test]
fn default_strings_contain_spaces() {
    let found = cases_to_failure(10, 500, || Property::new(String::generator, |s: String| assert!(!s.contains(' '))));
    assert!(found.iter().all(Option::is_some), "a space was not found in 500 strings: {found:?}");
}

#[test]
fn default_strings_shrink_to_a_lone_space() {
    let p = Property::new(String::generator, |s: String| assert!(!s.contains(' ')));
    let Err(RunError::Failed(f)) = p.check(&Config::new("first_run").seed(1)) else { panic!("a space is found") };
    assert_eq!(f.args[0].1, "\" \"");
}

#[test]
fn default_integers_reach_their_edges() {
    for (name, found) in [
        ("i32::MAX", cases_to_failure(5, 256, || Property::new(i32::generator, |x: i32| assert!(x != i32::MAX)))),
        ("i64::MIN", cases_to_failure(5, 256, || Property::new(i64::generator, |x: i64| assert!(x != i64::MIN)))),
        ("u64 zero", cases_to_failure(5, 256, || Property::new(u64::generator, |x: u64| assert!(x != 0)))),
        ("-1i16", cases_to_failure(5, 256, || Property::new(i16::generator, |x: i16| assert!(x != -1)))),
    ] {
        assert!(found.iter().all(Option::is_some), "{name} was not generated in 256 cases: {found:?}");
    }
}

#[test]
fn default_chars_include_control_and_non_ascii() {
    let found = cases_to_failure(5, 256, || Property::new(char::generator, |c: char| assert!(!c.is_control())));
    assert!(found.iter().all(Option::is_some), "{found:?}");
    let found = cases_to_failure(5, 256, || Property::new(char::generator, |c: char| assert!(c.is_ascii())));
    assert!(found.iter().all(Option::is_some), "{found:?}");
}

#[test]
fn assume_outside_a_property_says_so() {
    let payload = std::panic::catch_unwind(|| {
        let b = 0;
        refgen::prelude::assume!(b != 0);
    })
    .expect_err("a false assume! panics");
    let msg = payload.downcast_ref::<String>().expect("a readable message");
    assert!(msg.contains("assume!(b != 0) failed outside a property"), "{msg}");
}

#[test]
fn an_unwritable_observations_path_is_an_error() {
    let file = std::env::temp_dir().join(format!("reflect_first_run_{}", std::process::id()));
    std::fs::write(&file, "not a directory").unwrap();
    let p = Property::new(u8::generator, |_x: u8| ());
    let e = p.check(&Config::new("observed").cases(5).observability(file.join("x.jsonl"))).unwrap_err();
    let _ = std::fs::remove_file(&file);
    assert!(matches!(e, RunError::Observability(_)), "{e:?}");
    let msg = e.to_string();
    assert!(msg.starts_with("REFGEN_OBSERVABILITY: cannot write observations to "), "{msg}");
}

/// Sorted lists stated once, without retries: random generation alone gives up; the default guide
/// switches and does not.
#[derive(Debug, Clone, PartialEq, Reflective)]
#[assume(self.0.is_sorted(), retries = 0)]
struct Sorted(#[choice(len = 0..=20)] Vec<u8>);

#[test]
fn the_default_guide_gets_enough_valid_cases() {
    let p = Property::new(Sorted::generator, |s: Sorted| assert!(s.0.is_sorted()));
    let random = p.check(&Config::new("sorted").cases(500).guide(|| refgen::guides::RandomGuide)).unwrap_err();
    let msg = random.to_string();
    assert!(msg.contains("gave up"), "{msg}");
    // The advice does not repeat what the type already does.
    assert!(!msg.contains("`#[assume]` on the type"), "{msg}");
    assert!(msg.contains("guide = auto"), "{msg}");
    let report = p.check(&Config::new("sorted").cases(500)).unwrap();
    assert_eq!((report.cases, report.guide.as_str()), (500, "auto"));
    assert!(report.statistics().contains("auto: switched from random generation to rl"), "{}", report.statistics());
}

/// `guide = auto` names the default guide.
#[property(cases = 50, guide = auto)]
fn the_default_guide_by_name(s: Sorted) {
    assert!(s.0.is_sorted());
}
