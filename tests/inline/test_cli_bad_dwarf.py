#!/usr/bin/env python3
"""Bad DWARF never breaks `cli execute --flamegraph` (run under the
sanitizer build): copies of the inline guest with a DWARF section
truncated, cut, overwritten with random bytes or moved past the end of the
file must run to exit 0 and write a well-formed profile whose counts add
up to `instructions: N`, with at most one `warning:` line (exactly one,
naming bad DWARF, where libdw must notice: a section cut to a few
bytes or moved away); an ELF whose DWARF is renamed
away gives exactly the `--no-inline` profile and no warning.

Env: CLI, ELF (guests/inline-rvXX.elf, built with -g), INPUT.
"""
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_bad_dwarf import Elf, damages  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
ELF = os.environ.get("ELF", "build/guests/inline-rv32.elf")
INPUT = os.environ.get("INPUT", "guests/inputs/inline.in")


def run_cli(path, tmp, *extra):
    out = os.path.join(tmp, "out.folded")
    if os.path.exists(out):
        os.unlink(out)
    run = subprocess.run([CLI, "execute", path, "--private-input", INPUT, "--stats",
                          "--flamegraph", out, *extra], capture_output=True, text=True)
    with open(out) if os.path.exists(out) else open(os.devnull) as f:
        return run, f.read()


class CliBadDwarf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(ELF, "rb") as f:
            cls.good = f.read()
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, label, elf, must_warn):
        path = os.path.join(self.tmp.name, "damaged.elf")
        with open(path, "wb") as f:
            f.write(elf.data)
        run, folded = run_cli(path, self.tmp.name)
        self.assertEqual(run.returncode, 0, "%s: %s" % (label, run.stderr[-2000:]))
        self.assertNotIn("Sanitizer", run.stderr)
        self.assertNotIn("runtime error", run.stderr)
        n = int(re.search(r"^instructions: (\d+)$", run.stderr, re.M).group(1))
        self.assertTrue(folded.endswith("\n"), label)
        self.assertEqual(sum(int(l.rsplit(" ", 1)[1]) for l in folded.splitlines()), n, label)
        warnings = [l for l in run.stderr.splitlines() if l.startswith("warning: ")]
        self.assertLessEqual(len(warnings), 1, run.stderr)
        if must_warn:
            self.assertEqual(len(warnings), 1, "%s: expected a warning" % label)
            self.assertIn("bad DWARF", warnings[0])
        return run, folded

    def damaged(self, name, mutate):
        elf = Elf(self.good)
        i = elf.section(name)
        self.assertIsNotNone(i, name)
        h = elf.header(i)
        mutate(elf, i, h)
        return elf

    def test_damaged_sections(self):
        rng = random.Random(5)

        truncate, cut, _zero, garbage, past_end = damages(rng)
        for name in (".debug_info", ".debug_abbrev", ".debug_line"):
            for label, mutate, warns in (("truncated", truncate, False), ("cut", cut, True),
                                         ("garbage", garbage, False),
                                         ("past the end", past_end, True)):
                with self.subTest(section=name, damage=label):
                    self.check("%s %s" % (name, label), self.damaged(name, mutate),
                               warns and name != ".debug_line")

    def test_no_dwarf_is_no_inline(self):
        elf = Elf(self.good)
        for i in range(elf.shnum):
            if elf.name(i).startswith(".debug_"):
                h = elf.header(i)
                strtab = elf.header(elf.shstrndx)
                elf.data[strtab[4] + h[0] + 1] = ord("x")  # .debug_x -> .xebug_x
        run, folded = self.check("no dwarf", elf, False)
        self.assertNotIn("warning", run.stderr)
        _, plain = run_cli(ELF, self.tmp.name, "--no-inline")
        self.assertEqual(folded, plain)
        _, inlined = run_cli(ELF, self.tmp.name)
        self.assertNotEqual(inlined, plain, "the good ELF has inline frames")


if __name__ == "__main__":
    unittest.main()
