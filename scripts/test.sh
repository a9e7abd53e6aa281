#!/usr/bin/env bash
# Installs what is missing, builds with AddressSanitizer and UBSan, and runs
# every test under CTest, the fuzzers' short runs (label fuzz, a clang
# build of their own) among them. This is the README's test command and
# what CI runs. Arguments go to ctest (e.g. -L perf, -R zkvm).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh --tests
build=${BUILD_DIR:-build-asan}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DZKPROF_SANITIZE=ON >/dev/null
cmake --build "$build" -j "$(nproc)"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" -j "$(nproc)" --output-on-failure "$@"
