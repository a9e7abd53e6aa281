#!/usr/bin/env bash
# Runs calls.test.mjs for one zkVM: every call of its ABI, through
# call_harness, against @noble/curves, @noble/hashes and BigInt
# (ctest: precompile.calls.ZKVM).
#
#   CALL_HARNESS=build/tests/precompile/call_harness GUEST_DIR=build/guests \
#     tests/precompile/run.sh [WORK_DIR] ZKVM [--long] [CALL...]
#
# Installs Node.js when missing and the npm packages pinned in
# package-lock.json with `npm ci` in WORK_DIR (default
# build/tests/precompile). Exits 77 (skipped), with a line saying why, only
# when Node.js cannot be installed here (under CI=true that fails too).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath -m "${1:-$here/../../build/tests/precompile}")
shift || true

. "$here/../npm_env.sh"

need_node
npm_ci_into "$here" "$work"

export PRECOMPILE_TEST_DEPS="$work"
exec node "$here/calls.test.mjs" "$@"
