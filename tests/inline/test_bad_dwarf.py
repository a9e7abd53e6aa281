#!/usr/bin/env python3
"""Bad DWARF never crashes symtab/inline_chain.c (run under the sanitizer
build): copies of a guest ELF with a DWARF section truncated, cut to a few
bytes, zeroed, overwritten with random bytes, moved past the end of the
file, or with its attribute forms swapped, asked about every instruction
address (tests/inline/inline_query --lines). Each must exit 0 with one line
per address whose function frame is the one the good ELF gives (the symbol
table does not depend on DWARF), and damage that libdw must notice gives
one `warning:` line. An ELF whose DWARF is renamed away gives function
frames only and no warning.

Env: QUERY, ELF (a guest built with -g).
"""
import os
import random
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

QUERY = os.environ.get("QUERY", "build/tests/inline/inline_query")
ELF = os.environ.get("ELF", "build/guests/inline-rv32.elf")
SHF_EXECINSTR = 0x4

# DW_FORM codes swapped in .debug_abbrev ("wrong forms").
FORM_SWAPS = {0x0b: 0x0e, 0x0e: 0x0b, 0x1f: 0x10, 0x05: 0x0a}


class Elf:
    """The section headers of a little-endian ELF, editable in place."""

    def __init__(self, data):
        self.data = bytearray(data)
        self.is64 = data[4] == 2
        if self.is64:
            self.shoff, = struct.unpack_from("<Q", data, 0x28)
            self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", data, 0x3a)
            self.shdr = struct.Struct("<IIQQQQIIQQ")
        else:
            self.shoff, = struct.unpack_from("<I", data, 0x20)
            self.shentsize, self.shnum, self.shstrndx = struct.unpack_from("<HHH", data, 0x2e)
            self.shdr = struct.Struct("<IIIIIIIIII")

    def header(self, i):
        return list(self.shdr.unpack_from(self.data, self.shoff + i * self.shentsize))

    def set_header(self, i, fields):
        self.shdr.pack_into(self.data, self.shoff + i * self.shentsize, *fields)

    def name(self, i):
        strtab = self.header(self.shstrndx)
        start = strtab[4] + self.header(i)[0]
        return bytes(self.data[start:self.data.index(b"\0", start)]).decode()

    def section(self, name):
        for i in range(self.shnum):
            if self.name(i) == name:
                return i
        return None

    def rename_dwarf_away(self):
        """Every .debug_* section renamed .xebug_*: an ELF without DWARF."""
        strtab = self.header(self.shstrndx)
        for i in range(self.shnum):
            if self.name(i).startswith(".debug_"):
                self.data[strtab[4] + self.header(i)[0] + 1] = ord("x")

    def text_addresses(self):
        addrs = []
        for i in range(self.shnum):
            h = self.header(i)
            if h[1] == 1 and h[2] & SHF_EXECINSTR:
                addrs.extend(range(h[3], h[3] + h[5] - 3, 4))
        return addrs


def damages(rng):
    """The ways a section (index i, header fields h) is damaged in place:
    truncated to half, cut to 7 bytes, second half zeroed, middle third
    random, moved past the end of the file."""
    def truncate(elf, i, h):
        h[5] = h[5] // 2
        elf.set_header(i, h)

    def cut(elf, i, h):
        h[5] = min(h[5], 7)
        elf.set_header(i, h)

    def zero(elf, i, h):
        off, size = h[4], h[5]
        elf.data[off + size // 2:off + size] = bytes(size - size // 2)

    def garbage(elf, i, h):
        off, size = h[4], h[5]
        start = off + size // 3
        elf.data[start:start + size // 3] = bytes(rng.randrange(256) for _ in range(size // 3))

    def past_end(elf, i, h):
        h[4] = len(elf.data) + 16
        elf.set_header(i, h)

    return truncate, cut, zero, garbage, past_end


def run_query(path, addrs):
    return subprocess.run([QUERY, "--lines", path], input="".join("0x%x\n" % a for a in addrs),
                          capture_output=True, text=True, errors="surrogateescape")


def function_frames(stdout):
    """The address and function frame of each line, without its location."""
    return [line.split(";")[0].split(" (")[0] for line in stdout.splitlines()]


class BadDwarf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(ELF, "rb") as f:
            cls.good = f.read()
        cls.addrs = Elf(cls.good).text_addresses()
        run = run_query(ELF, cls.addrs)
        assert run.returncode == 0 and run.stderr == "", run.stderr
        cls.good_frames = function_frames(run.stdout)
        assert any(";" in line for line in run.stdout.splitlines()), "the ELF has inline frames"
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, label, elf, expect_warning):
        path = os.path.join(self.tmp.name, label.replace(" ", "_") + ".elf")
        with open(path, "wb") as f:
            f.write(elf.data)
        run = run_query(path, self.addrs)
        self.assertEqual(run.returncode, 0, "%s: %s" % (label, run.stderr[-2000:]))
        self.assertNotIn("Sanitizer", run.stderr)
        self.assertNotIn("runtime error", run.stderr)
        warnings = [l for l in run.stderr.splitlines() if l.startswith("warning: ")]
        self.assertEqual(len(warnings), len(run.stderr.splitlines()), run.stderr)
        if expect_warning:
            self.assertEqual(len(warnings), 1, "%s: expected a warning" % label)
            self.assertIn("bad DWARF", warnings[0])
        self.assertEqual(function_frames(run.stdout), self.good_frames, label)
        named = subprocess.run([QUERY, "--named", path], capture_output=True, text=True,
                               input="".join("%x %x\n" % (a, a + 256) for a in self.addrs[::64]))
        self.assertEqual(named.returncode, 0, "%s --named: %s" % (label, named.stderr[-2000:]))
        self.assertNotIn("Sanitizer", named.stderr)
        self.assertNotIn("runtime error", named.stderr)
        return run

    def mutated(self, name, mutate):
        elf = Elf(self.good)
        i = elf.section(name)
        if i is None:
            return None
        h = elf.header(i)
        mutate(elf, i, h)
        return elf

    def test_truncated_and_damaged(self):
        rng = random.Random(16)
        for name in (".debug_info", ".debug_abbrev", ".debug_line", ".debug_str",
                     ".debug_line_str", ".debug_rnglists", ".debug_aranges", ".debug_loclists"):
            truncate, cut, zero, garbage, past_end = damages(rng)
            must_warn = name in (".debug_info", ".debug_abbrev", ".debug_line")
            for label, mutate, warns in (("truncated", truncate, must_warn),
                                         ("cut", cut, must_warn),
                                         ("zeroed", zero, False),
                                         ("garbage", garbage, False),
                                         ("past the end", past_end, must_warn)):
                with self.subTest(section=name, damage=label):
                    elf = self.mutated(name, mutate)
                    if elf is not None:
                        self.check("%s %s" % (name, label), elf, warns)

    def test_wrong_forms(self):
        for swap in sorted(FORM_SWAPS.items()):
            def mutate(elf, i, h):
                off, size = h[4], h[5]
                for k in range(off, off + size):
                    if elf.data[k] == swap[0]:
                        elf.data[k] = swap[1]
            with self.subTest(swap=swap):
                self.check("forms %02x to %02x" % swap, self.mutated(".debug_abbrev", mutate),
                           False)

    def test_random_bytes_everywhere(self):
        rng = random.Random(8)
        for round_ in range(12):
            elf = Elf(self.good)
            for name in (".debug_info", ".debug_abbrev", ".debug_line", ".debug_rnglists"):
                i = elf.section(name)
                if i is None:
                    continue
                off, size = elf.header(i)[4:6]
                for _ in range(8):
                    elf.data[off + rng.randrange(size)] = rng.randrange(256)
            with self.subTest(round=round_):
                self.check("random %d" % round_, elf, False)

    def test_no_dwarf(self):
        elf = Elf(self.good)
        elf.rename_dwarf_away()
        run = self.check("no dwarf", elf, False)
        self.assertEqual(run.stderr, "")
        for line in run.stdout.splitlines():
            self.assertNotIn(";", line)
            self.assertNotIn(" (", line)


if __name__ == "__main__":
    ctest_status.main()
