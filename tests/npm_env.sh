# Sourced by the tests that run under Node.js (tests/browser/run.sh,
# tests/precompile/run.sh): installs what they need and says why when it
# cannot.
#
#   skip REASON            exit 77 (skipped), or fail under CI=true
#   apt_install PKG...     apt-get install as root, or through sudo -n
#   need_node              Node.js >= 20.19 and npm, installed when missing
#   npm_ci_into SRC WORK   the packages pinned in SRC/package-lock.json,
#                          installed with `npm ci` in WORK (skipped while
#                          WORK's install matches the lock file), so the
#                          source tree stays clean

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

# apt_install, or skip with the last line apt-get printed.
apt_install_or_skip() {
  local check=$1 log reason
  shift
  log=$(mktemp)
  if ! apt_install "$@" 2>"$log" || ! eval "$check"; then
    reason=$(grep -v '^installing:' "$log" | grep -v '^\s*$' | tail -n 1 || true)
    rm -f "$log"
    skip "$* cannot be installed here: ${reason:-still missing after apt-get install $*}"
  fi
  rm -f "$log"
}

need_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    apt_install_or_skip 'command -v node >/dev/null && command -v npm >/dev/null' nodejs npm
  fi
  if ! node -e 'const [a, b] = process.versions.node.split(".").map(Number);
                process.exit(a > 20 || (a === 20 && b >= 19) ? 0 : 1)'; then
    skip "the npm packages need Node.js >= 20.19, and this machine has $(node --version)"
  fi
}

# Tests that share WORK run at once under `ctest -j` (precompile.calls.*):
# the check and the install hold a lock on WORK, so that none reads
# node_modules while another's `npm ci` replaces it.
npm_ci_into() {
  local src=$1 work=$2 lock
  mkdir -p "$work"
  exec {lock}>"$work/.zkprof-npm.lock"
  flock "$lock"
  if ! cmp -s "$src/package-lock.json" "$work/node_modules/.zkprof-package-lock.json" ||
     ! cmp -s "$src/package.json" "$work/package.json"; then
    cp "$src/package.json" "$src/package-lock.json" "$work/"
    echo "npm ci in $work" >&2
    (cd "$work" && npm ci --no-audit --no-fund --prefer-offline --loglevel=error >&2)
    cp "$src/package-lock.json" "$work/node_modules/.zkprof-package-lock.json"
  fi
  flock -u "$lock"
  exec {lock}>&-
}
