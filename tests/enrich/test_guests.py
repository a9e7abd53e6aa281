#!/usr/bin/env python3
"""For every bundled guest (both XLENs): enrich_flamegraph.py --no-inline
on `cli --flamegraph-raw` output must give exactly `cli --no-inline
--flamegraph`'s named stacks, and without --no-inline the same total count (inline
expansion only splits frames). Env: CLI, GUEST_DIR, GUEST_INPUTS, ENRICH.
Exits 77 when no addr2line tool is installed (1 under CI=true)."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
INPUTS = os.environ.get("GUEST_INPUTS", "guests/inputs")
ENRICH = os.environ.get("ENRICH", "scripts/enrich_flamegraph.py")


def total(text):
    return sum(int(line.rsplit(" ", 1)[1]) for line in text.splitlines())


class EnrichEveryGuest(unittest.TestCase):
    def check(self, elf, tmp):
        name = os.path.basename(elf).rsplit("-", 1)[0]
        inp = os.path.join(INPUTS, name + ".in")
        named = os.path.join(tmp, "named.folded")
        raw = os.path.join(tmp, "raw.folded")
        cmd = [CLI, "execute", elf, "--no-inline", "--flamegraph", named, "--flamegraph-raw", raw]
        if os.path.exists(inp):
            cmd += ["--private-input", inp]
        run = subprocess.run(cmd, capture_output=True)
        status = os.path.join(INPUTS, name + ".exit")  # a guest whose input ends it otherwise
        want_code = int(open(status).read()) if os.path.exists(status) else 0
        self.assertEqual(run.returncode, want_code, run.stderr.decode())
        with open(named) as f:
            want = f.read()
        plain = subprocess.run([sys.executable, ENRICH, "--elf", elf, "-i", raw, "--no-inline"],
                               capture_output=True, text=True)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        self.assertEqual(plain.stdout, want)
        inlined = subprocess.run([sys.executable, ENRICH, "--elf", elf, "-i", raw],
                                 capture_output=True, text=True)
        self.assertEqual(inlined.returncode, 0, inlined.stderr)
        self.assertEqual(total(inlined.stdout), total(want))

    def test_every_guest(self):
        elfs = sorted(os.path.join(GUEST_DIR, f) for f in os.listdir(GUEST_DIR)
                      if f.endswith(".elf"))
        self.assertTrue(elfs, f"no guests in {GUEST_DIR}")
        with tempfile.TemporaryDirectory() as tmp:
            for elf in elfs:
                with self.subTest(guest=os.path.basename(elf)):
                    self.check(elf, tmp)


if __name__ == "__main__":
    if not any(shutil.which(t) for t in ("llvm-addr2line", "riscv64-unknown-elf-addr2line",
                                         "addr2line")):
        ctest_status.skip("no addr2line tool installed")
    ctest_status.main()
