#!/usr/bin/env bash
# Installs what is missing, builds the optimised `cli` and one bundled
# guest, and runs the main job on it: a flamegraph of a toy STARK
# verifier. This is the README's first command; it builds nothing else
# (scripts/test.sh builds and runs the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DZKPROF_TESTS=OFF >/dev/null
cmake --build build -j "$(nproc)" --target cli guest_verifier_rv32

mkdir -p out
guest=build/guests/verifier-rv32.elf
folded=out/verifier-rv32.folded
svg=out/verifier-rv32.svg
echo "== cli execute $guest --private-input guests/inputs/verifier.in --flamegraph $folded --flamegraph $svg --stats"
build/cli/cli execute "$guest" --private-input guests/inputs/verifier.in \
  --flamegraph "$folded" --flamegraph "$svg" --stats
echo "folded flamegraph: $folded ($(wc -l <"$folded") stacks)"
echo "flamegraph picture: $svg (open it in a browser: click to zoom, Ctrl-F to search)"
