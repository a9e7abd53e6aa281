#!/usr/bin/env bash
# Installs the Debian packages the build needs, only those that are
# missing; with --tests also those that only the tests need. Uses sudo only
# when not already root.
#
# usage: scripts/install-deps.sh [--tests]
set -euo pipefail

# What `cli` and the bundled guests need (scripts/demo.sh).
packages=(build-essential cmake pkg-config
          gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
          libelf-dev libdw-dev libdeflate-dev libzstd-dev uthash-dev libiberty-dev libgmp-dev
          libprotobuf-c-dev protobuf-c-compiler zlib1g-dev libjansson-dev)
# libdeflate-dev inflates compressed DWARF (perf/dwarf/debug_inflate.c): about
# 1.6 times fewer instructions than zlib on libc's debug file, the most of a
# first `cli perf fold` of a --call-graph dwarf recording (docs/PERF.md).
if [ "${1:-}" = "--tests" ]; then
  # The tests' references and runners (scripts/test.sh): cmocka for the
  # unit tests, qemu, llvm-addr2line, perf, go tool pprof and perl (which runs
  # third_party/FlameGraph's stackcollapse-perf.pl) as independent
  # references, clang for the fuzzers, Chromium for the browser test.
  # rustc and rust-src build the Rust guest (cmake/RustGuest.cmake): Debian's
  # rustc with the library source is the only offline way to build core
  # for riscv32im.
  packages+=(python3 perl libcmocka-dev golang-go llvm clang qemu-user chromium linux-perf
             rustc rust-src)
  # Node.js and npm drive the browser test (tests/browser); the machine's
  # own Node.js (npm bundled) is used when there is one.
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    packages+=(nodejs npm)
  fi
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "installing: ${missing[*]}" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
