#!/usr/bin/env bash
# Runs markdown.test.mjs: `cli diff --summary md` rendered by marked, a
# GitHub-flavoured Markdown parser from npm (ctest: diff.markdown).
#
#   CLI=build/cli/cli tests/diff/run.sh [WORK_DIR]
#
# Installs Node.js when missing and the npm packages pinned in
# package-lock.json with `npm ci` in WORK_DIR (default build/tests/diff).
# Exits 77 (skipped), with a line saying why, only when Node.js cannot be
# installed here (under CI=true that fails too).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(realpath -m "${1:-$here/../../build/tests/diff}")
export CLI=${CLI:-$here/../../build/cli/cli}

. "$here/../npm_env.sh"

need_node
npm_ci_into "$here" "$work"

export DIFF_TEST_DEPS="$work" DIFF_TEST_WORK="$work"
exec node "$here/markdown.test.mjs"
