#!/usr/bin/env bash
# The fuzz smoke test CI runs (.ci/run): libFuzzer must find the planted bug of `bst_delete` in a seeded,
# bounded run, the find must be remembered in the regressions directory, and the property's test must
# replay it from there under `cargo test`. Each step prints its wall time.
# Needs a nightly toolchain and cargo-fuzz. Usage: fuzz/smoke.sh
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/corpus" "$work/artifacts"
# The fuzzer and the test both read the regressions directory from here, not from fuzz/regressions.
export REFGEN_REGRESSIONS="$work/regressions"

step() { printf 'fuzz smoke: %-58s %4ds\n' "$1" $(($(date +%s) - $2)); }
fail() {
    echo "fuzz smoke: FAILED: $1" >&2
    [ -f "$2" ] && tail -n 60 "$2" >&2
    exit 1
}

t=$(date +%s)
cargo +nightly fuzz build bst_delete >"$work/build.log" 2>&1 || fail "cargo fuzz build" "$work/build.log"
step "built the target bst_delete" "$t"

t=$(date +%s)
# Seeded, with a budget of runs and of time: the same run each time, and an end even if it finds nothing.
if "${CARGO_TARGET_DIR:-target}"/x86_64-unknown-linux-gnu/release/bst_delete -seed=1 -runs=2000000 -max_total_time=120 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/fuzz.log" 2>&1; then
    fail "libFuzzer ended without a crash" "$work/fuzz.log"
fi
ls "$work/artifacts"/crash-* >/dev/null 2>&1 || fail "libFuzzer wrote no crash file" "$work/fuzz.log"
[ -f "$REFGEN_REGRESSIONS/refgen_fuzz__bst_delete.json" ] ||
    fail "the crash was not remembered in the regressions directory" "$work/fuzz.log"
execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$work/fuzz.log" | awk '{print $2}')
step "libFuzzer found the planted bug (${execs:-?} executions)" "$t"

t=$(date +%s)
cargo test --lib -- --ignored the_fuzzers_find_is_replayed_first >"$work/test.log" 2>&1 ||
    fail "cargo test did not replay the find" "$work/test.log"
step "cargo test replayed the find from the regressions directory" "$t"
