#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs them:
# fuzz_guest and fuzz_dwarf seeded with the bundled guests, fuzz_perf with
# the perf.data files tests/perf/perfgen.py writes, fuzz_pprof with pprof,
# speedscope, Gecko and folded profiles of a bundled guest, fuzz_translate
# (both engines on instruction streams its input steers) with two short
# inputs. A crash, leak or sanitizer report (or the engines' disagreement)
# fails the run and leaves the input in build-fuzz/crashes/.
#
#   scripts/fuzz.sh [SECONDS]        build, then run each target SECONDS (default 30)
#   scripts/fuzz.sh build            build the targets only
#   scripts/fuzz.sh run NAME SECONDS run one target (built), e.g. fuzz_perf
#
# FUZZ_BUILD names the fuzz build (default build-fuzz). With FUZZ_SEEDS_FROM=DIR
# the seeds' guests and cli come from that (already built) build, and the fuzz
# build makes the targets alone: the test build's CTest tests fuzz.* do so.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${FUZZ_BUILD:-build-fuzz}
seeds_from=${FUZZ_SEEDS_FROM:-}
targets=(fuzz_guest fuzz_dwarf fuzz_perf fuzz_pprof fuzz_translate)

# No clang: a skip (77, CTest's SKIP_RETURN_CODE) where it may be missing, a failure under CI.
need_clang() {
  command -v clang >/dev/null && return 0
  echo "error: clang not found: install the Debian package clang (scripts/install-deps.sh --tests)" >&2
  [ "${CI:-}" = true ] && exit 1
  exit 77
}

build_targets() {
  need_clang
  CC=clang cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DZKPROF_FUZZ=ON -DZKPROF_TESTS=OFF >/dev/null
  local extra=(cli guests)
  [ -n "$seeds_from" ] && extra=()
  cmake --build "$build" -j "$(nproc)" --target "${targets[@]}" "${extra[@]}" >/dev/null
}

# Writes the seed corpora once (a lock keeps two runs from racing).
make_seeds() {
  local from=${seeds_from:-$build}
  mkdir -p "$build/crashes"
  exec 9>"$build/seeds.lock"
  flock 9
  if [ ! -e "$build/corpus/done" ]; then
    mkdir -p "$build/corpus/guest" "$build/corpus/perf" "$build/corpus/pprof"
    cp "$from"/guests/*.elf "$build/corpus/guest"/
    python3 tests/perf/perfgen.py --seeds "$build/corpus/perf"
    for ext in pb.gz json gecko.json folded; do
      "$from/cli/cli" execute "$from/guests/zkvm-sp1-rv32.elf" --input guests/inputs/zkvm-sp1.in \
        --flamegraph "$build/corpus/pprof/sp1.$ext" >/dev/null 2>&1
    done
    gunzip -c "$build/corpus/pprof/sp1.pb.gz" >"$build/corpus/pprof/sp1.pb"
    touch "$build/corpus/done"
  fi
  # fuzz_translate's seeds: its first byte picks RV32 (bit 0 clear) or RV64, and C (bit 1)
  if [ ! -e "$build/corpus/translate/rv64c" ]; then
    mkdir -p "$build/corpus/translate"
    printf '\000rv32 stream' >"$build/corpus/translate/rv32"
    printf '\001rv64 stream' >"$build/corpus/translate/rv64"
    printf '\002rv32c stream' >"$build/corpus/translate/rv32c"
    printf '\003rv64c stream' >"$build/corpus/translate/rv64c"
  fi
  exec 9>&-
}

# report_crash LOG: the sanitizer's report from its first line (the stack
# comes before the shadow-memory dump, so a plain tail would cut it).
report_crash() {
  grep -m1 -A45 -E "ERROR: |runtime error:|==ERROR|deadly signal|Test unit written" "$1" >&2 || tail -40 "$1" >&2
  grep -E "Test unit written" "$1" >&2 || true
}

# run_target NAME SECONDS
run_target() {
  local name=$1 seconds=$2 corpus max_len
  case $name in
    fuzz_guest) corpus=guest max_len=65536 ;;
    fuzz_dwarf) corpus=guest max_len=262144 ;;
    fuzz_perf) corpus=perf max_len=16384 ;;
    fuzz_pprof) corpus=pprof max_len=65536 ;;
    fuzz_translate) corpus=translate max_len=4096 ;;
    *) echo "error: no fuzz target $name (${targets[*]})" >&2; exit 64 ;;
  esac
  [ -x "$build/tests/fuzz/$name" ] || need_clang
  make_seeds
  export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
  export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
  echo "fuzzing $name for ${seconds}s"
  # a copy of the seeds per target: libFuzzer adds what it finds to its corpus
  local work="$build/corpus-$name"
  rm -rf "$work" && cp -r "$build/corpus/$corpus" "$work"
  "$build/tests/fuzz/$name" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 \
    -rss_limit_mb=4096 -artifact_prefix="$build/crashes/" -print_final_stats=1 "$work" \
    2>"$build/$name.log" || { report_crash "$build/$name.log"; exit 1; }
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/$name.log" || true
  echo "$name: no crash in ${seconds}s"
}

case ${1:-} in
  build) build_targets ;;
  run) run_target "${2:?target name}" "${3:?seconds}" ;;
  *)
    build_targets
    for t in "${targets[@]}"; do run_target "$t" "${1:-30}"; done
    ;;
esac
