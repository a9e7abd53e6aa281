#!/usr/bin/env python3
"""--translate-after N: when the translation tier writes a block changes
nothing else.

For bundled guests (fib: recursion, verifier: calls in turn, tail calls),
both XLENs, `cli execute --flamegraph F --flamegraph-raw R --stats` runs
with --translate-after 0 (every block at its first entry), the default
(15) and 255. Asserted: the three runs print the same stdout, exit
status, `instructions:` and write byte-identical profiles; and the knob
works: --translate-after 0 translates more blocks than the default, which
translates at least as many as 255 (--stats: `engine: translate (N
blocks, ...)`). Skipped (77) on a host where the tier cannot run.

Environment: CLI, GUEST_DIR, GUEST_INPUTS (tests/integration/CMakeLists.txt).
"""
import os
import re
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("CLI")
GUEST_DIR = os.environ.get("GUEST_DIR")
GUEST_INPUTS = os.environ.get("GUEST_INPUTS")
TIMEOUT = 600


def run(elf, input_path, after):
    """(exit status, stdout, instructions, blocks, named bytes, raw bytes)."""
    with tempfile.TemporaryDirectory() as tmp:
        named, raw = os.path.join(tmp, "g.folded"), os.path.join(tmp, "g.raw.folded")
        argv = [CLI, "execute", elf, "--private-input", input_path, "--flamegraph", named,
                "--flamegraph-raw", raw, "--stats", "--engine", "translate"]
        if after is not None:
            argv += ["--translate-after", str(after)]
        p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT)
        err = p.stderr.decode(errors="replace")
        insns = re.search(r"^instructions:\s*(\d+)$", err, re.M)
        blocks = re.search(r"^engine: translate \((\d+) blocks", err, re.M)
        files = []
        for path in (named, raw):
            with open(path, "rb") as f:
                files.append(f.read())
        return (p.returncode, p.stdout, insns and int(insns.group(1)),
                blocks and int(blocks.group(1)), *files)


class TranslateAfter(unittest.TestCase):

    def test_same_results_fewer_blocks(self):
        for guest in ("fib", "verifier"):
            for xlen in (32, 64):
                with self.subTest(guest=guest, xlen=xlen):
                    elf = os.path.join(GUEST_DIR, f"{guest}-rv{xlen}.elf")
                    inp = os.path.join(GUEST_INPUTS, f"{guest}.in")
                    eager, default, late = (run(elf, inp, a) for a in (0, None, 255))
                    for r in (eager, default, late):
                        self.assertEqual(r[0], 0, "exit status")
                        self.assertIsNotNone(r[2], "no instructions: line")
                        self.assertIsNotNone(r[3], "no engine: translate line")
                    for r in (default, late):
                        self.assertEqual(r[1], eager[1], "stdout")
                        self.assertEqual(r[2], eager[2], "instructions")
                        self.assertEqual(r[4], eager[4], "the named profile")
                        self.assertEqual(r[5], eager[5], "the raw profile")
                    self.assertGreater(eager[3], default[3])
                    self.assertGreaterEqual(default[3], late[3])


def main():
    if not CLI or not GUEST_DIR or not GUEST_INPUTS:
        print("CLI, GUEST_DIR and GUEST_INPUTS must be set", file=sys.stderr)
        return 2
    probe = subprocess.run([CLI, "execute", os.path.join(GUEST_DIR, "hello-rv32.elf"),
                            "--engine", "translate"], capture_output=True, timeout=TIMEOUT)
    if probe.returncode == 64:
        print("skipped: the translation tier cannot run on this host", file=sys.stderr)
        return 77
    result = unittest.main(argv=sys.argv[:1], exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
