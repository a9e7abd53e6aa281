#!/usr/bin/env bash
# Runs flamegraph.test.mjs: the flamegraph SVG driven in a real headless
# Chromium by playwright-core (ctest: render.browser).
#
#   CLI=build/cli/cli tests/browser/run.sh [WORK_DIR]
#
# Installs what the test needs: Debian's chromium (and nodejs npm when there
# is no node), with sudo when not root, as scripts/install-deps.sh does; then
# the npm packages pinned in package-lock.json, with `npm ci` in WORK_DIR
# (default build/tests/browser), so the source tree stays clean; that is
# skipped while WORK_DIR's install matches package-lock.json. Exits 77
# (skipped), with a line saying why, only when Chromium or Node.js cannot be
# installed here (under CI=true that fails too); any other failure fails the
# test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$here/../../build/tests/browser}
chromium=${CHROMIUM:-/usr/bin/chromium}
export CLI=${CLI:-$here/../../build/cli/cli}

. "$here/../npm_env.sh"

if [ ! -x "$chromium" ]; then
  apt_install_or_skip '[ -x "$chromium" ]' chromium
fi
need_node
npm_ci_into "$here" "$work"

export CHROMIUM="$chromium"
export BROWSER_TEST_DEPS="$work"
exec node "$here/flamegraph.test.mjs"
