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

skip() {
  echo "skipped: $*"
  if [ "${CI:-}" = true ]; then
    echo "error: skipped under CI=true: $*"
    exit 1
  fi
  exit 77
}

# Runs apt-get install as root: directly when root, else through sudo when it
# needs no password (a test cannot answer a prompt).
apt_install() {
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "not root and no sudo" >&2; return 1; }
    sudo -n true 2>/dev/null || { echo "not root and sudo needs a password" >&2; return 1; }
    sudo=(sudo -n)
  fi
  command -v apt-get >/dev/null || { echo "no apt-get" >&2; return 1; }
  echo "installing: $*" >&2
  "${sudo[@]}" apt-get update -qq >&2 &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
      apt-get install -y -qq --no-install-recommends "$@" >&2
}

if [ ! -x "$chromium" ]; then
  log=$(mktemp)
  if ! apt_install chromium 2>"$log" || [ ! -x "$chromium" ]; then
    reason=$(grep -v '^installing:' "$log" | grep -v '^\s*$' | tail -n 1 || true)
    rm -f "$log"
    skip "chromium cannot be installed here: ${reason:-no $chromium after apt-get install chromium}"
  fi
  rm -f "$log"
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  log=$(mktemp)
  if ! apt_install nodejs npm 2>"$log" || ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    reason=$(grep -v '^installing:' "$log" | grep -v '^\s*$' | tail -n 1 || true)
    rm -f "$log"
    skip "Node.js and npm cannot be installed here: ${reason:-no node or npm after apt-get install nodejs npm}"
  fi
  rm -f "$log"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  skip "playwright-core needs Node.js >= 20, and this machine has $(node --version)"
fi

# The pinned npm packages, installed beside a copy of package.json and
# package-lock.json in the work directory.
mkdir -p "$work"
if ! cmp -s "$here/package-lock.json" "$work/node_modules/.zkprof-package-lock.json" ||
   ! cmp -s "$here/package.json" "$work/package.json" ||
   [ ! -d "$work/node_modules/playwright-core" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$work/"
  echo "npm ci in $work" >&2
  (cd "$work" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >&2)
  cp "$here/package-lock.json" "$work/node_modules/.zkprof-package-lock.json"
fi

export CHROMIUM="$chromium"
export BROWSER_TEST_DEPS="$work"
exec node "$here/flamegraph.test.mjs"
