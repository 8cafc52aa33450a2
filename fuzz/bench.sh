#!/usr/bin/env bash
# Executions and seconds to the first crash of the planted bug in `bst_delete` (a delete that breaks the
# order of a search tree), over RUNS libFuzzer runs (seeds 1..RUNS) per setup:
#   a: `arbitrary`-derived input, invalid trees skipped (what cargo-fuzz users write today);
#   b: the bytes source, libFuzzer's own mutation, an empty corpus;
#   c: (b) with a corpus seeded by reflection from 5 small valid values (src/bin/seed_corpus.rs);
#   d: (c) with the structure-aware mutator.
# Each run stops at the first crash or after LIMIT seconds. Needs cargo-fuzz and a nightly toolchain.
# Usage: fuzz/bench.sh [RUNS] [LIMIT]
set -euo pipefail
cd "$(dirname "$0")"
RUNS=${1:-10}
LIMIT=${2:-30}
cargo +nightly fuzz build >/dev/null 2>&1
bin=${CARGO_TARGET_DIR:-target}/x86_64-unknown-linux-gnu/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo run --quiet --release --bin seed_corpus -- "$work/seeds" >/dev/null

median() { sort -g | awk '{v[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print v[(NR+1)/2]; else print (v[NR/2]+v[NR/2+1])/2}'; }

for setup in a b c d; do
  case $setup in
    a) target=bst_delete_arbitrary seeded=no ;;
    b) target=bst_delete seeded=no ;;
    c) target=bst_delete seeded=yes ;;
    d) target=bst_delete_mutate seeded=yes ;;
  esac
  found=0
  : >"$work/execs" ; : >"$work/secs"
  for seed in $(seq 1 "$RUNS"); do
    run="$work/$setup-$seed"
    mkdir -p "$run/corpus" "$run/artifacts"
    [ $seeded = yes ] && cp "$work/seeds"/* "$run/corpus/"
    start=$(date +%s.%N)
    # Each run remembers its find in a directory of its own, so no run starts from another's.
    REFGEN_REGRESSIONS="$run/regressions" "$bin/$target" -seed="$seed" -max_total_time="$LIMIT" -print_final_stats=1 \
      -artifact_prefix="$run/artifacts/" "$run/corpus" >"$run/log" 2>&1 || true
    end=$(date +%s.%N)
    if ls "$run/artifacts"/crash-* >/dev/null 2>&1; then
      found=$((found + 1))
      grep -o 'stat::number_of_executed_units: [0-9]*' "$run/log" | awk '{print $2}' >>"$work/execs"
      echo "$end - $start" | bc -l >>"$work/secs"
    fi
  done
  printf 'setup=%s runs=%d found=%d median_execs=%s median_secs=%.2f\n' "$setup" "$RUNS" "$found" \
    "$(median <"$work/execs")" "$(median <"$work/secs" | sed 's/-/0/')"
done
