#!/usr/bin/env bash
# Installs what is missing, builds the optimised `cli`, and runs the main
# job on a bundled guest. This is the README's first command.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"

guest=build/guests/verifier-rv32.elf
echo "== cli execute $guest --stats"
build/cli/cli execute "$guest" --stats
