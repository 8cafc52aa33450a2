//! Statistics asked for are shown by `cargo test` without `--nocapture`: the test binary is run again on a helper property, capturing as `cargo test` does.

use refgen::prelude::*;

#[property(cases = 20, stats)]
#[ignore = "run by `statistics_are_not_captured`"]
fn helper_with_stats(x: u8) {
    label!(if x < 128 { "low" } else { "high" });
}

#[test]
fn statistics_are_not_captured() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["helper_with_stats", "--exact", "--ignored", "--test-threads=1"])
        .env_remove("REFGEN_STATS")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("statistics of `stats_visible::helper_with_stats` (20 valid cases"), "{stderr}");
}
