//! The HTML report of a run and the page comparing guides: the counts of a known run, the
//! shrink trace of a failure, the guide's own section, readable errors on bad lines, and the
//! page rendered by a real headless Chromium (when one is installed; CI installs it).

use refgen::html::{self, read_runs};
use refgen::prelude::*;
use refgen::refgen_core::combinators::{int, vec};
use refgen::refgen_runtime::observe::{CaseStatus, Taken};
use refgen::refgen_runtime::shrink::shortlex_less;
use refgen::refgen_runtime::token;
use std::path::{Path, PathBuf};
use std::process::Command;

use refgen_fixtures::runs::{failure, temp_dir};

/// Lists of small numbers; a list whose sum is 3 more than a multiple of 7 is discarded (about one in seven, whichever search makes them); each case is labelled and reports its length.
fn labelled_lists() -> Property<Vec<u8>> {
    Property::new(
        || vec(int(0u8..=9), 0..=4),
        |xs: Vec<u8>| {
            assume!(xs.iter().map(|&x| x as u32).sum::<u32>() % 7 != 3);
            label!(if xs.is_empty() { "empty" } else { "non-empty" });
            target!(xs.len() as f64);
        },
    )
}

/// The observation lines a run wrote into `dir`.
fn lines_of(dir: &Path) -> String {
    let file = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"));
    std::fs::read_to_string(file.expect("an observations file")).unwrap()
}

#[test]
fn the_report_of_a_known_run_has_its_counts() {
    let dir = temp_dir("html-counts");
    let config = Config::new("html::counts").cases(120).seed(3).no_timeout().observability(&dir).report(&dir);
    let report = labelled_lists().check(&config).unwrap();
    // The default guide searches on the utility: its neighbours that are discarded are rejected edits.
    let discarded = report.discards + report.rejected;
    assert!(discarded > 0, "the run discards some cases");

    // The lines read back give the runner's own counts.
    let runs = read_runs(&lines_of(&dir)).unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    let s = run.summary();
    assert_eq!((s.valid, s.discarded, s.failed), (report.cases, discarded, 0));
    assert_eq!(s.cases, report.cases + discarded);
    let labels = run.label_counts();
    assert_eq!(labels.values().sum::<u64>(), report.labels.values().sum::<u64>());
    assert_eq!(labels, report.labels.clone().into_iter().collect());
    assert_eq!(s.best_utility, report.best_utility.map(|b| b.utility));
    // Every case's choices, counted by site, add up to its size.
    let by_site: u64 = run.site_counts().values().flat_map(|m| m.values()).sum();
    assert_eq!(by_site as usize, run.searched().map(|c| c.size).sum::<usize>());
    let t = run.timeline();
    assert!(t.distinct_valid.windows(2).all(|w| w[0] <= w[1]));
    assert!(*t.distinct_valid.last().unwrap() <= report.cases);

    // The page shows them.
    let page = std::fs::read_to_string(dir.join("html.counts.auto.html")).unwrap();
    let row = format!("<td>auto</td><td>{}</td><td>{}</td>", report.cases + discarded, report.cases);
    assert!(page.contains(&row), "the counts row {row:?} in the page");
    for id in ["outcome", "timeline", "sites", "sizes", "labels", "guide"] {
        assert!(page.contains(&format!("<section id=\"{id}\">")), "section {id}");
    }
    assert!(!page.contains("id=\"shrink\""), "a passing run has no shrink trace");
    assert!(page.contains("non-empty") && page.contains("best so far"));
    assert!(!page.contains("<script") && !page.contains("http://") && !page.contains("https://"));
}

#[test]
fn a_report_is_written_without_observations_and_holds_the_same_counts() {
    let dir = temp_dir("html-alone");
    let seeded = |c: Config| c.cases(60).seed(9).no_timeout();
    labelled_lists().check(&seeded(Config::new("html::alone")).report(&dir)).unwrap();
    let alone = std::fs::read_to_string(dir.join("html.alone.auto.html")).unwrap();
    let both = temp_dir("html-both");
    labelled_lists().check(&seeded(Config::new("html::alone")).report(&both).observability(&both)).unwrap();
    let with_lines = std::fs::read_to_string(both.join("html.alone.auto.html")).unwrap();
    assert_eq!(alone, with_lines, "the report does not depend on observations being written");
}

/// A property that fails on any list with an element of at least 500.
fn big_elements() -> Property<Vec<u32>> {
    Property::new(|| vec(int(0u32..=1000), 0..=20), |xs: Vec<u32>| assert!(xs.iter().all(|&x| x < 500), "too big"))
}

#[test]
fn a_failure_report_has_the_shrink_trace_down_to_the_minimal_case() {
    let dir = temp_dir("html-shrink");
    let f = failure(big_elements().check(&Config::new("html::shrink").seed(1).observability(&dir).report(&dir)));
    let runs = read_runs(&lines_of(&dir)).unwrap();
    let trace = runs[0].shrink_trace();
    assert_eq!(trace.len() as u64, f.shrink.steps + 1, "the case found, then one entry per step kept");
    assert_eq!(trace.last().unwrap().representation, "shrink(value=[500])");
    let choices: Vec<_> = trace.iter().map(|c| token::decode(&c.choices).unwrap().choices).collect();
    assert!(choices.windows(2).all(|w| shortlex_less(&w[1], &w[0])), "each step is smaller");
    assert!(trace.iter().all(|c| c.status == CaseStatus::Failed));
    let page = std::fs::read_to_string(dir.join("html.shrink.auto.html")).unwrap();
    assert!(page.contains("<section id=\"shrink\">") && page.contains("shrink(value=[500])"));
    assert!(page.contains("verdict failed") && page.contains("REFGEN_REPLAY="));
}

#[test]
fn a_learning_guide_adds_its_section() {
    let dir = temp_dir("html-rl");
    let config = Config::new("html::rl").cases(80).guide(refgen::guides::RlGuide::default).report(&dir);
    labelled_lists().check(&config).unwrap();
    let name = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).next().unwrap();
    let page = std::fs::read_to_string(&name).unwrap();
    assert!(page.contains("<section id=\"guide-section\"><h2>RLCheck"), "{}", name.display());
    assert!(page.contains("mean reward per window"));
}

#[test]
fn the_comparison_puts_guides_side_by_side() {
    let dir = temp_dir("html-compare");
    let file = dir.join("lists.jsonl");
    let base = || Config::new("html::compare").cases(60).seed(5).observability(&file);
    labelled_lists().check(&base()).unwrap();
    labelled_lists().check(&base().guide(refgen::guides::RlGuide::default)).unwrap();
    let runs = read_runs(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(runs.len(), 2);
    let out = dir.join("compare.html");
    html::write_compare(&[file], &out).unwrap();
    let page = std::fs::read_to_string(out).unwrap();
    for run in &runs {
        let s = run.summary();
        let row = format!("<td>{}</td><td>{}</td><td>{}</td>", html::escape(&run.guide), s.cases, s.valid);
        assert!(page.contains(&row), "{row}");
    }
    assert!(page.contains("distinct valid values over cases run"));
    let most = runs.iter().map(|r| r.summary().distinct_valid).max().unwrap();
    let leader = runs.iter().find(|r| r.summary().distinct_valid == most).unwrap();
    let line = format!("most distinct valid values: <b>{}</b> ({most})", html::escape(&leader.guide));
    assert!(page.contains(&line), "{line}");
}

#[test]
fn bad_lines_are_readable_errors() {
    let err = read_runs("\n{\"type\": \"test_case\"\n").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.to_string().starts_with("line 2: not JSON"), "{err}");
    let err = read_runs("{\"type\": \"info\"}").unwrap_err();
    assert_eq!(err.to_string(), "line 1: not a `test_case` observation");
    let missing = PathBuf::from("/nonexistent/lines.jsonl");
    let err = html::write_compare(&[missing], Path::new("/tmp/never.html")).unwrap_err();
    assert!(err.starts_with("cannot read /nonexistent/lines.jsonl"), "{err}");
}

/// Headless Chromium, as the machine's packages install it.
fn chromium() -> Option<PathBuf> {
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"].iter().map(PathBuf::from).find(|p| p.exists())
}

/// Runs headless Chromium on `page` with `extra` arguments, in a fresh profile; its standard output and error.
fn run_chromium(browser: &Path, profile: &Path, page: &Path, extra: &[&str]) -> (String, String) {
    // A browser that hangs is stopped: the test fails rather than waiting forever.
    let out = Command::new("timeout")
        .arg("120")
        .arg(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn the_report_renders_in_a_headless_browser() {
    let Some(browser) = chromium() else {
        eprintln!("SKIPPED: the_report_renders_in_a_headless_browser: no chromium at /usr/bin/chromium (.ci/run installs it: apt-get install chromium)");
        return;
    };
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("html-report");
    let _ = std::fs::remove_dir_all(&target);
    // Long lists fail, after a few hundred cases: the report has every section.
    let prop = Property::new(
        || vec(int(0u32..=1000), 0..=20),
        |xs: Vec<u32>| {
            label!(if xs.len() > 10 { "long" } else { "short" });
            target!(xs.iter().sum::<u32>() as f64);
            assert!(xs.len() < 20, "too long");
        },
    );
    let config = Config::new("html::browser").seed(1).cases(400).guide(refgen::guides::RlGuide::default);
    let f = failure(prop.check(&config.report(&target)));
    let page = std::fs::read_dir(&target).unwrap().map(|e| e.unwrap().path()).next().unwrap();
    let (dom, log) = run_chromium(&browser, &target.join("profile-dom"), &page, &["--dump-dom"]);
    for id in ["outcome", "timeline", "sites", "sizes", "labels", "guide", "guide-section", "shrink"] {
        assert!(dom.contains(&format!("<section id=\"{id}\">")), "section {id} in the rendered DOM");
    }
    assert!(dom.contains("<svg") && dom.contains("<polyline"), "the charts are in the DOM");
    assert!(dom.contains(&html::escape(&f.args[0].1)), "the minimal case is shown");
    let errors: Vec<_> =
        log.lines().filter(|l| l.contains("CONSOLE") || l.contains("Uncaught") || l.contains("ERR_FILE")).collect();
    assert!(errors.is_empty(), "the page logs no errors: {errors:#?}");
    let shot = target.join("report.png");
    let shot_arg = format!("--screenshot={}", shot.display());
    run_chromium(
        &browser,
        &target.join("profile-shot"),
        &page,
        &[&shot_arg, "--window-size=1000,2400", "--hide-scrollbars"],
    );
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a screenshot of a drawn page at {}", shot.display());
    eprintln!("screenshot of the report: {}", shot.display());
}

/// A value with a pick: its options' labels are what the report shows.
#[derive(Reflective, Debug, Clone, PartialEq)]
enum Shape {
    Dot,
    Line(u8),
}

#[test]
fn a_pick_is_shown_by_its_options_labels() {
    let dir = temp_dir("html-picks");
    let p = Property::new(Shape::generator, |_: Shape| ());
    p.check(&Config::new("html::picks").cases(50).observability(&dir).report(&dir)).unwrap();
    let runs = read_runs(&lines_of(&dir)).unwrap();
    let sites = runs[0].site_counts();
    let (_, shapes) = sites.iter().find(|(_, m)| m.keys().any(|t| matches!(t, Taken::Option(_)))).expect("a pick site");
    let labels: Vec<_> = shapes.keys().cloned().collect();
    assert_eq!(labels, vec![Taken::Option("Dot".to_owned()), Taken::Option("Line".to_owned())]);
    assert_eq!(shapes.values().sum::<u64>(), 50, "one pick per case");
    let page = std::fs::read_to_string(dir.join("html.picks.auto.html")).unwrap();
    assert!(page.contains(">Dot</text>") && page.contains(">Line</text>"));
}

/// `#[property(report = ...)]` writes the report of its run.
#[property(cases = 30, seed = 4, report = "target/reflect-test-report")]
fn reported_by_the_macro(xs: Vec<u8>) {
    label!(if xs.is_empty() { "empty" } else { "non-empty" });
}

#[test]
fn the_property_attribute_writes_a_report() {
    reported_by_the_macro();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/reflect-test-report");
    let page = std::fs::read_to_string(dir.join("html_report.reported_by_the_macro.auto.html")).unwrap();
    assert!(page.contains("<td>auto</td><td>30</td><td>30</td>"), "30 cases, all valid");
}

#[property(cases = 20, seed = 1, report = "target/reflect-test-names", guide = random)]
fn named_random(x: u8) {
    let _ = x;
}

#[property(cases = 20, seed = 1, report = "target/reflect-test-names", guide = mutate)]
fn named_mutate(x: u8) {
    let _ = x;
}

#[property(cases = 20, seed = 1, report = "target/reflect-test-names", guide = rl(explore = diverse))]
fn named_rl(x: u8) {
    let _ = x;
}

#[property(cases = 20, seed = 1, report = "target/reflect-test-names", guide = tuned(like = [1u8, 2, 3]))]
fn named_tuned(x: u8) {
    let _ = x;
}

/// A guide is spelled one way, the way `guide = ...` takes it, in the report's
/// text and in its file's name: `<module>.<function>.<guide>.html`.
#[test]
fn a_report_file_is_named_by_the_property_path_and_the_guide_as_written() {
    named_random();
    named_mutate();
    named_rl();
    named_tuned();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/reflect-test-names");
    for (function, guide) in [
        ("named_random", "random"),
        ("named_mutate", "mutate"),
        ("named_rl", "rl(explore = diverse)"),
        ("named_tuned", "tuned"),
    ] {
        let file = dir.join(format!("html_report.{function}.{guide}.html"));
        let page = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(page.contains(&format!("<td>{}</td>", html::escape(guide))), "{}", file.display());
    }
}

/// The histogram of a `0..=20` choice has ranges within `0..=20`, on the run's page and the comparison.
#[test]
fn integer_ranges_end_at_the_largest_choice() {
    let dir = temp_dir("html-ranges");
    let file = dir.join("ranges.jsonl");
    let p = Property::new(|| int(0u8..=20), |_: u8| ());
    p.check(&Config::new("html::ranges").cases(400).observability(&file).report(&dir)).unwrap();
    let out = dir.join("compare.html");
    html::write_compare(&[file], &out).unwrap();
    for page in [dir.join("html.ranges.auto.html"), out] {
        let page = std::fs::read_to_string(page).unwrap();
        assert!(page.contains("choice 18–20"), "the last range ends at 20");
        for past in 21..=30 {
            assert!(!page.contains(&format!("choice {past}–")), "a range starts at {past}");
        }
    }
}
