"""The cost clock (executor/trace.h, "Cost clock"; docs/ARCHITECTURE.md, "Weights").

A profile with one weight whose costs differ between opcode classes counts
that weight with a cost clock beside the instruction clock (the nodes count
both; no per-pc counts), also when weights of one cost per instruction
(`instructions`) come with it; with a second weight whose costs differ it
counts every pc and weighs them when it writes. The two are independent
ways to the same numbers: the folded file (which holds the first weight)
of `--weight W --weight instructions` must equal, stack for stack, that of
`--weight W --weight instructions --weight class:store` (per pc), and that
of `--weight instructions --weight W` must equal the plain instruction
count's (`--weight instructions` alone), on the zkVM guests and on linux
guests (C, C++-like inlining, Rust, longjmp),
with inline frames and without (the cost loops with per-pc counts and
without: interp_rv32_cost.c, interp_rv32_cost_fast.c), and where the run stops
early (`--max-cycles`: the precise loop takes over near the end; a
checkpoint every so many cycles: the clock read at every stop). The
hand-worked totals of test_weights.py check the first way against the
zkVMs' own tables as well.

Run: CLI=build/cli/cli GUEST_DIR=build/guests python3 tests/zkvm/test_cost_clock.py [-v]
"""

import os
import subprocess
import sys
import tempfile
import unittest

import test_zkvm as zk  # the guests' inputs (a module: its tests are not run here)
from test_weights import folded

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
TIMEOUT = 120

# A cost table whose classes differ, for the zkVMs without a built-in one; with pages
# under RISC Zero (its page tracker charges the frames while the clock runs).
TABLE = '{"name": "table", "classes": {"default": 3, "load": 7, "store": 11, "branch": 5, ' \
        '"mul": 13, "div": 17, "ecall": 2}, "calls": {"default": 100}%s}'
PAGES = ', "pages": {"page_in": 1000, "page_out": 1500, "segment_po2": 12}'

# A second weight whose costs differ, which puts the profile in per-pc mode.
PER_PC = "class:store"

# (name, guest, zkvm, weight, stdin items, cost table or None); a guest with C counts
# per pc either way (the last case)
CASES = [
    ("linux-coremark-rv32", "coremark-rv32.elf", "linux", "table", [b"10"], ""),
    ("linux-interp-rv64", "interp-rv64.elf", "linux", "class:load", [b"300"], None),
    ("linux-inline-rv64", "inline-rv64.elf", "linux", "table", [], ""),
    ("linux-longjmp-rv32", "longjmp-rv32.elf", "linux", "class:jump", [], None),
    ("linux-rust-inline-rv32", "rust_inline-rv32.elf", "linux", "table", [], ""),
    ("linux-qsort-rv64c", "qsort-rv64c.elf", "linux", "table", [b"500"], ""),
    ("sp1-rv32-gas", "zkvm-sp1-rv32.elf", "sp1", "gas", zk.Sp1.ITEMS, None),
    ("sp1-rv32-unconstrained", "zkvm-sp1-rv32.elf", "sp1", "gas", [b"\7"], None),
    ("sp1-rv64-gas", "zkvm-sp1-rv64.elf", "sp1", "gas", zk.Sp1.ITEMS, None),
    ("sp1-rv32-class", "zkvm-sp1-rv32.elf", "sp1", "class:branch", zk.Sp1.ITEMS, None),
    ("openvm-cells", "zkvm-openvm-rv32.elf", "openvm", "cells",
     [b"\0", zk.Openvm.MESSAGE, zk.le256(zk.Openvm.A) + zk.le256(zk.Openvm.B)], None),
    ("zisk-area", "zkvm-zisk-rv64.elf", "zisk", "area",
     [b"\0", b"".join(map(zk.le256, zk.Zisk.NUMBERS))], None),
    ("risc0-table-pages", "zkvm-risc0-rv32.elf", "risc0", "table", [zk.Risc0.INPUT], PAGES),
    ("nexus-table", "zkvm-nexus-rv32.elf", "nexus", "table", [b"\0" + zk.Nexus.SECRET, zk.Nexus.PUBLIC],
     ""),
    ("weights-sp1", os.path.join("weights", "zkvm-weights-sp1-rv32.elf"), "sp1", "gas", [],
     None),
    ("costmix-openvm", os.path.join("weights", "zkvm-costmix-openvm-rv32.elf"), "openvm",
     "cells", [], None),
]


class CostClockTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.runs = 0

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def run_weighted(self, case, weights, extra):
        name, guest, zkvm, _, items, table = case
        elf = os.path.join(GUEST_DIR, guest)
        if not os.path.exists(elf):
            self.skipTest(f"{elf} not built")
        self.runs += 1
        out = self.path(f"p{self.runs}.folded")
        args = [CLI, "execute", elf, "--zkvm", zkvm, "--stats", "--flamegraph", out, *extra]
        for i, item in enumerate(items):
            args += ["--input", self.file(f"in{self.runs}-{i}", item)]
        if table is not None and case[3] in weights:  # else it would be one more weight
            args += ["--cost-table", self.file(f"t{self.runs}.json", (TABLE % table).encode())]
        for w in weights:
            args += ["--weight", w]
        r = subprocess.run(args, capture_output=True, text=True, timeout=TIMEOUT)
        self.assertLess(r.returncode, 128, r.stderr)
        errors = [l for l in r.stderr.splitlines() if l.startswith("error:")]
        self.assertEqual(len(errors), r.returncode == 124, r.stderr)  # --max-cycles's own
        clock = f"cost-clock: {case[3]} " in r.stderr
        differ = sum(w not in ("instructions",) for w in weights)
        expected = differ == 1 and not guest.endswith("c.elf")
        self.assertEqual(clock, expected, r.stderr)  # one weight that differs, without C: the clock
        return r.returncode, folded(out)

    def file(self, name, data):
        path = self.path(name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def check(self, extra=()):
        for case in CASES:
            weight = case[3]
            with self.subTest(case=case[0], extra=extra):
                code, clocked = self.run_weighted(case, [weight, "instructions"], extra)
                code2, counted = self.run_weighted(case, [weight, "instructions", PER_PC], extra)
                self.assertEqual(code, code2)
                self.assertGreater(sum(clocked.values()), 0)
                self.assertEqual(clocked, counted)
                code3, beside = self.run_weighted(case, ["instructions", weight], extra)
                code4, plain = self.run_weighted(case, ["instructions"], extra)
                self.assertEqual((code3, code4), (code, code))
                self.assertGreater(sum(beside.values()), 0)
                self.assertEqual(beside, plain)

    def test_inline_frames(self):
        self.check()

    def test_function_frames(self):
        self.check(["--no-inline"])

    def test_stopped_early(self):
        """--max-cycles ends the run in the precise loop, alone or after the fast one."""
        for frames in ([], ["--no-inline"]):  # the per-pc cost loop, the fast one
            self.check(frames + ["--max-cycles", "3000"])
            self.check(frames + ["--max-cycles", "20000"])

    def test_checkpoints(self):
        """The profile is written at every checkpoint: the clock read where each run stops."""
        for frames in ([], ["--no-inline"]):
            self.check(frames + ["--flamegraph-checkpoint-cycles", "777"])


if __name__ == "__main__":
    ctest_status.main()
