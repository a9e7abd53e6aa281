#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# SECONDS (default 30): fuzz_guest and fuzz_dwarf seeded with the bundled
# guests, fuzz_perf with the perf.data files tests/perf/perfgen.py writes,
# fuzz_pprof with pprof, speedscope, Gecko and folded profiles of a bundled guest. A
# crash, leak or sanitizer report fails the run and leaves the input in
# build-fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
build=build-fuzz

command -v clang >/dev/null || { echo "error: clang not found: install the Debian package clang" >&2; exit 1; }
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DZKPROF_FUZZ=ON -DZKPROF_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_guest fuzz_dwarf fuzz_perf fuzz_pprof cli guests >/dev/null

mkdir -p "$build/corpus/guest" "$build/corpus/perf" "$build/corpus/pprof" "$build/crashes"
cp "$build"/guests/*.elf "$build/corpus/guest"/
python3 tests/perf/perfgen.py --seeds "$build/corpus/perf"
for ext in pb.gz json gecko.json folded; do
  "$build/cli/cli" execute "$build/guests/zkvm-sp1-rv32.elf" --input guests/inputs/zkvm-sp1.in \
    --flamegraph "$build/corpus/pprof/sp1.$ext" >/dev/null 2>&1
done
gunzip -c "$build/corpus/pprof/sp1.pb.gz" >"$build/corpus/pprof/sp1.pb"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# report_crash LOG: the sanitizer's report from its first line (the stack
# comes before the shadow-memory dump, so a plain tail would cut it).
report_crash() {
  grep -m1 -A45 -E "ERROR: |runtime error:|==ERROR|deadly signal|Test unit written" "$1" >&2 || tail -40 "$1" >&2
  grep -E "Test unit written" "$1" >&2 || true
}

# run_target NAME CORPUS MAX_LEN
run_target() {
  local name=$1 corpus=$2 max_len=$3
  echo "fuzzing $name for ${seconds}s"
  "$build/tests/fuzz/$name" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$build/crashes/" -print_final_stats=1 "$corpus" \
    2>"$build/$name.log" || { report_crash "$build/$name.log"; exit 1; }
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/$name.log" || true
  echo "$name: no crash in ${seconds}s"
}

run_target fuzz_guest "$build/corpus/guest" 65536
run_target fuzz_dwarf "$build/corpus/guest" 262144
run_target fuzz_perf "$build/corpus/perf" 16384
run_target fuzz_pprof "$build/corpus/pprof" 65536
