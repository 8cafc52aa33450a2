//! The regressions store and the in-flight file: round trips, corrupt files, orphans, records.

use super::*;
use crate::hashing::case_seed;
use refgen_core::choice::Choice;
use refgen_core::combinators::{int, vec};

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("reflect-persist-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&d);
    d
}

#[test]
fn a_run_starting_or_ending_is_never_taken_for_an_orphan() {
    // One thread starts and ends runs (an in-flight file each) while another looks for orphans:
    // an in-flight file must be locked from the moment its name appears until it is gone.
    let dir = temp_dir("inflight-race");
    fs::create_dir_all(&dir).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let runs = {
        let (dir, stop) = (dir.clone(), stop.clone());
        std::thread::spawn(move || {
            let t = ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![])]);
            for _ in 0..3000 {
                let mut f = InFlight::create(&dir, "race").unwrap();
                f.record(&t).unwrap();
            }
            stop.store(true, std::sync::atomic::Ordering::SeqCst);
        })
    };
    let (store, _) = Store::open(&dir, "race");
    let mut taken = 0;
    while !stop.load(std::sync::atomic::Ordering::SeqCst) {
        taken += store.take_orphans().len();
    }
    runs.join().unwrap();
    assert_eq!(taken, 0, "living runs were taken for orphans");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_in_flight_file_holds_the_last_record_whichever_way_it_was_written() {
    // Records that fit are copied into a mapping of the file, longer ones are written to it: a
    // reader (the next run, after this process ended) must find exactly the last record each time.
    let dir = temp_dir("inflight-last");
    let mut f = InFlight::create(&dir, "last").unwrap();
    let read = |f: &InFlight| InFlightCase::parse(&fs::read_to_string(f.path()).unwrap()).unwrap();
    let t = ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![ChoiceTree::choice("y", 7, vec![])])]);
    // Longer than the mapped slot: written, and the mapping made again after it.
    let long: Vec<Choice> = (0..1000).map(|i| u64::MAX - i).collect();
    for round in 0..3u64 {
        for (run, index) in [(u64::MAX, u64::MAX), (5, 0), (12_345_678_901 + round, 3)] {
            f.record_case(run, index).unwrap();
            assert_eq!(read(&f), InFlightCase::Seed(case_seed(run, index)));
        }
        // A run's generated cases: counted up in place, across one more digit, after a gap,
        // back to fewer digits, for another run.
        let run = 0xdead_beef_u64 << round;
        for (r, index) in (0..12).chain(97..=101).chain([1_000, 7, 8]).map(|i| (run, i)).chain([(run + 1, 9)]) {
            f.record_case(r, index).unwrap();
            assert_eq!(read(&f), InFlightCase::Seed(case_seed(r, index)), "case {index} of run {r}");
        }
        f.record(&t).unwrap();
        assert_eq!(read(&f), InFlightCase::Choices(vec![3, 7]));
        f.record_choices(long.iter().copied().skip(round as usize * 500)).unwrap();
        assert_eq!(read(&f), InFlightCase::Choices(long[round as usize * 500..].to_vec()));
        f.record_choices([1, 2]).unwrap();
        assert_eq!(read(&f), InFlightCase::Choices(vec![1, 2]));
        f.record_guided(round, u64::MAX - round).unwrap();
        assert_eq!(read(&f), InFlightCase::Guided { index: round, seed: u64::MAX - round });
    }
    let path = f.path().to_owned();
    drop(f);
    assert!(!path.exists());
    // A case another run left, recorded again as it was (a seed alone, as earlier versions wrote).
    let mut f = InFlight::create(&dir, "again").unwrap();
    let guided = InFlightCase::Guided { index: 7, seed: 9 };
    for case in [InFlightCase::Seed(42), InFlightCase::Choices(vec![1, 2, 3]), guided, InFlightCase::Seed(u64::MAX)] {
        f.record_again(&case).unwrap();
        assert_eq!(read(&f), case);
    }
    drop(f);
    assert!(!dir.exists(), "the directory the in-flight file made is gone with it, empty");
}

#[test]
fn round_trips_and_writes_no_temporary_files() {
    let dir = temp_dir("round");
    let (mut s, w) = Store::open(&dir, "a::b");
    assert!(w.is_none() && s.entries.is_empty());
    let t = ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![])]);
    s.add(t.clone(), "boom").unwrap();
    s.add(t.clone(), "boom").unwrap();
    let (s2, w) = Store::open(&dir, "a::b");
    assert!(w.is_none());
    assert_eq!(s2.entries, vec![Entry { tree: t, reason: "boom".into() }]);
    assert_eq!(s2.path, dir.join("a__b.json"));
    let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).filter(|n| n != LOCK).collect();
    assert_eq!(names.len(), 1, "{names:?}");
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn corrupt_and_outdated_files_are_warnings() {
    let dir = temp_dir("corrupt");
    fs::create_dir_all(&dir).unwrap();
    let path = dir.join(file_name("p"));
    fs::write(&path, "{ not json").unwrap();
    let (mut s, w) = Store::open(&dir, "p");
    let w = w.expect("a warning");
    assert!(w.contains(&path.display().to_string()) && w.contains("corrupt"), "{w}");
    assert!(s.entries.is_empty());
    s.add(ChoiceTree::root(vec![]), "x").unwrap();
    assert!(dir.join("p.json.corrupt").exists());
    // A second corrupt file is kept beside the first, not over it.
    fs::write(&path, "{ also not json").unwrap();
    s.add(ChoiceTree::root(vec![]), "x").unwrap();
    assert_eq!(fs::read_to_string(dir.join("p.json.corrupt")).unwrap(), "{ not json");
    assert_eq!(fs::read_to_string(dir.join("p.json.corrupt.1")).unwrap(), "{ also not json");
    fs::write(&path, r#"{"version": 99, "property": "p", "cases": []}"#).unwrap();
    let (_, w) = Store::open(&dir, "p");
    assert!(w.expect("a warning").contains("version 99"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_deep_tree_reads_back() {
    let dir = temp_dir("deep");
    let mut t = ChoiceTree::choice("leaf", 0, vec![]);
    for i in 0..500 {
        t = ChoiceTree::choice(
            "node",
            i % 3,
            vec![ChoiceTree::group("left", vec![t]), ChoiceTree::choice("x", i, vec![])],
        );
    }
    let t = ChoiceTree::root(vec![t, ChoiceTree::group("empty", vec![])]);
    let (mut s, _) = Store::open(&dir, "deep");
    s.add(t.clone(), "deep").unwrap();
    let (s, w) = Store::open(&dir, "deep");
    assert!(w.is_none(), "{w:?}");
    assert_eq!(s.entries[0].tree, t);
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_version_one_file_is_read() {
    let dir = temp_dir("v1");
    fs::create_dir_all(&dir).unwrap();
    let v1 = r#"{"version": 1, "property": "p", "cases": [{"tree": {"site": "<root>", "children": [{"site": "x", "choice": 3}]}, "reason": "r"}]}"#;
    fs::write(dir.join("p.json"), v1).unwrap();
    let (s, w) = Store::open(&dir, "p");
    assert!(w.is_none(), "{w:?}");
    assert_eq!(s.entries[0].tree, ChoiceTree::root(vec![ChoiceTree::choice("x", 3, vec![])]));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_value_is_remembered_by_reflection() {
    let dir = temp_dir("value");
    let g = vec(int(0u8..=9), 0..=5);
    let (mut s, _) = Store::open(&dir, "v");
    assert!(s.add_value(&g, &vec![3, 1]).unwrap());
    assert!(!s.add_value(&g, &vec![42]).unwrap(), "42 is out of range");
    let (s, _) = Store::open(&dir, "v");
    assert_eq!(refgen_core::parse_tree(&g, &s.entries[0].tree).unwrap(), vec![3, 1]);
    fs::remove_dir_all(&dir).unwrap();
}
