#!/usr/bin/env bash
# Scale-out check, run by hand: libFuzzer's two multi-process modes over one corpus, on the target
# `bst_delete` (the planted bug). Checks and prints, for each mode, that the bug was found and the
# corpus shared, and that the processes remembered their finds in one regressions directory.
#   fork: `-fork=2 -ignore_crashes=1`: a parent runs two child processes at a time, each on a part of
#         the corpus, and merges what they find into it; it goes on past crashes until LIMIT seconds.
#   jobs: `-jobs=4 -workers=2`: four independent runs, two at a time, on the same corpus directory; the
#         last two start from what the first two wrote into it.
#   afl:  with cargo-afl installed, an AFL++ main and a secondary instance (`-M main`, `-S second`) on
#         one output directory for LIMIT seconds: both find the bug, and each imports the other's inputs.
# Needs cargo-fuzz and a nightly toolchain. Usage: fuzz/scale_out.sh [LIMIT_SECONDS]
set -euo pipefail
cd "$(dirname "$0")"
LIMIT=${1:-20}
cargo +nightly fuzz build bst_delete >/dev/null 2>&1
bin=${CARGO_TARGET_DIR:-$PWD/target}/x86_64-unknown-linux-gnu/release/bst_delete
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
check() { # check DESCRIPTION CONDITION...
    local what=$1
    shift
    if "$@"; then echo "  ok: $what"; else echo "  FAILED: $what"; status=1; fi
}
count() { find "$1" -maxdepth 1 -type f -name "${2:-*}" | wc -l; }
remembered() { grep -o '"tree"' "$1/refgen_fuzz__bst_delete.json" 2>/dev/null | wc -l; }

echo "fork: -fork=2 -ignore_crashes=1, ${LIMIT}s"
mkdir -p "$work/fork/corpus" "$work/fork/artifacts"
REFGEN_REGRESSIONS="$work/fork/regressions" "$bin" -fork=2 -ignore_crashes=1 -seed=1 -max_total_time="$LIMIT" \
    -artifact_prefix="$work/fork/artifacts/" "$work/fork/corpus" >"$work/fork.log" 2>&1 || true
jobs=$(grep -o 'job: [0-9]*' "$work/fork.log" | awk '{print $2}' | sort -n | tail -n 1)
echo "  child jobs run: ${jobs:-0}; corpus files: $(count "$work/fork/corpus"); crash files: $(count "$work/fork/artifacts" 'crash-*'); remembered failures: $(remembered "$work/fork/regressions")"
check "more than one child process ran" test "${jobs:-0}" -ge 2
check "the bug was found" test "$(count "$work/fork/artifacts" 'crash-*')" -ge 1
check "the children's finds were merged into the one corpus" test "$(count "$work/fork/corpus")" -ge 2
check "the failure was remembered in the regressions directory" test "$(remembered "$work/fork/regressions")" -ge 1

echo "jobs: -jobs=4 -workers=2"
mkdir -p "$work/jobs/corpus" "$work/jobs/artifacts"
# No -seed: each job draws its own, as when a user runs them.
(cd "$work/jobs" && REFGEN_REGRESSIONS="$work/jobs/regressions" "$bin" -jobs=4 -workers=2 \
    -max_total_time="$LIMIT" -artifact_prefix="$work/jobs/artifacts/" corpus >"$work/jobs.log" 2>&1 || true)
found=$(cat "$work/jobs"/fuzz-*.log | grep -c 'Test unit written to .*crash-' || true)
echo "  job logs: $(count "$work/jobs" 'fuzz-*.log'); jobs that found the bug: $found; corpus files: $(count "$work/jobs/corpus"); remembered failures: $(remembered "$work/jobs/regressions")"
for j in 0 1 2 3; do
    seeds=$(grep -o 'seed corpus: files: [0-9]*' "$work/jobs/fuzz-$j.log" | awk '{print $4}' || true)
    echo "  job $j started from ${seeds:-0} corpus file(s)"
done
check "every job found the bug" test "$found" -eq 4
later=$(cat "$work/jobs/fuzz-2.log" "$work/jobs/fuzz-3.log" | grep -o 'seed corpus: files: [0-9]*' | awk '$4 > 0' | wc -l || true)
check "the later jobs started from the corpus the earlier ones wrote" test "$later" -ge 1
check "the failures were remembered in the one regressions directory" test "$(remembered "$work/jobs/regressions")" -ge 1

if cargo afl --version >/dev/null 2>&1; then
    echo "afl: -M main and -S second on one output directory, ${LIMIT}s"
    cargo afl build --release --no-default-features --features afl --bin bst_delete_afl >/dev/null 2>&1
    cargo run --quiet --release --bin seed_corpus -- "$work/afl/seeds" >/dev/null 2>&1
    export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
    for who in "-M main" "-S second"; do
        # shellcheck disable=SC2086 # $who is two words on purpose
        REFGEN_REGRESSIONS="$work/afl/regressions" cargo afl fuzz -V "$LIMIT" -i "$work/afl/seeds" -o "$work/afl/sync" \
            $who "${CARGO_TARGET_DIR:-target}"/release/bst_delete_afl >"$work/afl-${who#-? }.log" 2>&1 &
    done
    wait
    for who in main second; do
        echo "  $who: queue $(count "$work/afl/sync/$who/queue" 'id:*'), of which imported from the other: $(count "$work/afl/sync/$who/queue" '*sync:*'), crashes: $(count "$work/afl/sync/$who/crashes" 'id:*')"
    done
    check "both instances found the bug" test "$(count "$work/afl/sync/main/crashes" 'id:*')" -ge 1 -a "$(count "$work/afl/sync/second/crashes" 'id:*')" -ge 1
    imported=$(($(count "$work/afl/sync/main/queue" '*sync:*') + $(count "$work/afl/sync/second/queue" '*sync:*')))
    check "the instances imported each other's inputs" test "$imported" -ge 1
    check "the failures were remembered in the one regressions directory" test "$(remembered "$work/afl/regressions")" -ge 1
else
    echo "afl: skipped (cargo-afl is not installed: cargo install cargo-afl)"
fi
exit $status
