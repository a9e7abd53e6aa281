#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for
# SECONDS (default 30), seeded with the bundled guests. A crash, leak or
# sanitizer report fails the run and leaves the input in build-fuzz/crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-30}
build=build-fuzz

command -v clang >/dev/null || { echo "error: clang not found: install the Debian package clang" >&2; exit 1; }
CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DZKPROF_FUZZ=ON -DZKPROF_TESTS=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_guest guests >/dev/null

corpus="$build/corpus/guest"
mkdir -p "$corpus" "$build/crashes"
cp "$build"/guests/*.elf "$corpus"/
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
echo "fuzzing fuzz_guest for ${seconds}s"
"$build/tests/fuzz/fuzz_guest" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
  -rss_limit_mb=4096 -artifact_prefix="$build/crashes/" -print_final_stats=1 "$corpus" \
  2>"$build/fuzz_guest.log" || { tail -40 "$build/fuzz_guest.log" >&2; exit 1; }
grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/fuzz_guest.log" || true
echo "fuzz_guest: no crash in ${seconds}s"
