#!/usr/bin/env python3
"""Bad DWARF never breaks `cli execute --flamegraph` (run under the
sanitizer build): copies of the inline guest with a DWARF section
truncated, cut, overwritten with random bytes or moved past the end of the
file must run to exit 0 and write a well-formed profile whose counts add
up to `instructions: N`, with at most one `warning:` line (exactly one,
naming bad DWARF, where libdw must notice: a section cut to a few
bytes or moved away); an ELF whose DWARF is renamed
away gives exactly the `--no-inline` profile and no warning. The same
with --lines.

CliLines: `cli execute --lines` beyond the qemu comparison
(tests/flamegraph, flamegraph.qemu_lines.*, checks the folded names
against qemu and llvm-addr2line; docs/CONTRACT.md, "Source lines"):

- speedscope: every frame named `NAME:LINE` has "line" LINE and a "file"
  that is a source file; no other frame has either. pprof (decoded here
  from profile.proto's field numbers): the function of every `NAME:LINE`
  frame has that file as filename, and its location's line is LINE.
- Without DWARF: one `warning:` line naming --lines, exit 0, the same file
  as without --lines.
- `--lines=3`, and --lines without --flamegraph: exit 64 with one
  `error:` line.

Env: CLI, ELF (guests/inline-rvXX.elf, built with -g), INPUT.
"""
import gzip
import json
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
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
ELF = os.environ.get("ELF", "build/guests/inline-rv32.elf")
INPUT = os.environ.get("INPUT", "guests/inputs/inline.in")
LINE_NAME = re.compile(r"\A(.+):([0-9]+)\Z")


def run_cli(path, tmp, *extra):
    out = os.path.join(tmp, "out.folded")
    if os.path.exists(out):
        os.unlink(out)
    run = subprocess.run([CLI, "execute", path, "--private-input", INPUT, "--stats",
                          "--flamegraph", out, *extra], capture_output=True, text=True)
    with open(out) if os.path.exists(out) else open(os.devnull) as f:
        return run, f.read()


def varints(data):
    """(field, wire type, value) of a protobuf message; value bytes for
    length-delimited fields, an int for varints."""
    i = 0
    while i < len(data):
        key, i = varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(data, i)
        elif wire == 2:
            n, i = varint(data, i)
            value, i = data[i:i + n], i + n
        else:
            raise ValueError("unexpected wire type %d" % wire)
        yield field, wire, value


def varint(data, i):
    shift = value = 0
    while True:
        b = data[i]
        i += 1
        value |= (b & 0x7f) << shift
        shift += 7
        if b < 0x80:
            return value, i


def pprof_frames(path):
    """{function name: (filename, line)} of a pprof file: profile.proto's
    Profile.string_table (6), function (5: id 1, name 2, filename 4),
    location (4: line 4 = {function_id 1, line 2})."""
    with open(path, "rb") as f:
        data = gzip.decompress(f.read())
    strings, funcs, lines = [], {}, {}
    for field, _, value in varints(data):
        if field == 6:
            strings.append(value.decode())
        elif field == 5:
            f = {k: v for k, _, v in varints(value)}
            funcs[f.get(1, 0)] = (f.get(2, 0), f.get(4, 0))
        elif field == 4:
            for k, _, v in varints(value):
                if k == 4:
                    line = {a: b for a, _, b in varints(v)}
                    lines[line.get(1, 0)] = line.get(2, 0)
    return {strings[name]: (strings[file], lines.get(fid, 0))
            for fid, (name, file) in funcs.items()}


class CliBadDwarf(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(ELF, "rb") as f:
            cls.good = f.read()
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check(self, label, elf, must_warn, *extra):
        path = os.path.join(self.tmp.name, "damaged.elf")
        with open(path, "wb") as f:
            f.write(elf.data)
        run, folded = run_cli(path, self.tmp.name, *extra)
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
                for extra in ((), ("--lines",)):
                    with self.subTest(section=name, damage=label, extra=extra):
                        self.check("%s %s" % (name, label), self.damaged(name, mutate),
                                   warns and name != ".debug_line", *extra)

    def test_no_dwarf_is_no_inline(self):
        elf = Elf(self.good)
        elf.rename_dwarf_away()
        run, folded = self.check("no dwarf", elf, False)
        self.assertNotIn("warning", run.stderr)
        _, plain = run_cli(ELF, self.tmp.name, "--no-inline")
        self.assertEqual(folded, plain)
        _, inlined = run_cli(ELF, self.tmp.name)
        self.assertNotEqual(inlined, plain, "the good ELF has inline frames")



class CliLines(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        with open(ELF, "rb") as f:
            cls.good = f.read()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def folded(self, elf, *extra):
        run, text = run_cli(elf, self.tmp.name, *extra)
        self.assertEqual(run.returncode, 0, run.stderr)
        return run, text

    def execute(self, out, *extra):
        return subprocess.run([CLI, "execute", ELF, "--private-input", INPUT, "--flamegraph", out,
                               *extra], capture_output=True, text=True)

    def test_speedscope_and_pprof_fields(self):
        _, folded = self.folded(ELF, "--lines")
        named = {f for line in folded.splitlines() for f in line.rsplit(" ", 1)[0].split(";")}
        with_line = {f for f in named if LINE_NAME.match(f)}
        self.assertTrue(with_line, "no NAME:LINE frame in\n" + folded[:2000])
        js, pb = self.path("out.json"), self.path("out.pb.gz")
        for out in (js, pb):
            run = self.execute(out, "--lines")
            self.assertEqual(run.returncode, 0, run.stderr)
        with open(js) as f:
            frames = json.load(f)["shared"]["frames"]
        # (a function whose every instruction has a line may stay a frame no sample uses)
        self.assertLessEqual(named, {f["name"] for f in frames})
        for f in frames:
            m = LINE_NAME.match(f["name"])
            if f["name"] in with_line:
                self.assertEqual(f.get("line"), int(m.group(2)), f)
                self.assertRegex(f.get("file", ""), r"\.[chS]\Z", f)
            else:
                self.assertNotIn("line", f)
                self.assertNotIn("file", f)
        by_name = {f["name"]: f for f in frames}
        for name, (file, line) in pprof_frames(pb).items():
            if name in with_line:
                self.assertEqual((file, line), (by_name[name]["file"], by_name[name]["line"]))
            else:
                self.assertEqual((file, line), ("", 0), name)

    def test_without_dwarf_plain_names_and_a_warning(self):
        elf = Elf(self.good)
        elf.rename_dwarf_away()
        path = self.path("nodwarf.elf")
        with open(path, "wb") as f:
            f.write(elf.data)
        run, folded = self.folded(path, "--lines")
        warnings = [l for l in run.stderr.splitlines() if l.startswith("warning:")]
        self.assertEqual(len(warnings), 1, run.stderr)
        self.assertIn("--lines", warnings[0])
        self.assertIn("DWARF", warnings[0])
        _, plain = self.folded(path)
        self.assertEqual(folded, plain)
        self.assertNotRegex(folded, r":[0-9]+ ")

    def test_bad_command_line(self):
        run = self.execute(self.path("x.folded"), "--lines=3")
        self.assertEqual(run.returncode, 64, run.stderr)
        self.assertEqual(len(run.stderr.splitlines()), 1, run.stderr)
        self.assertTrue(run.stderr.startswith("error:"), run.stderr)
        self.assertFalse(os.path.exists(self.path("x.folded")))
        # --lines without a flamegraph file to name
        run = subprocess.run([CLI, "execute", ELF, "--lines", "--report", self.path("r.txt")],
                             capture_output=True, text=True)
        self.assertEqual((run.returncode, run.stderr.count("\n")), (64, 1), run.stderr)
        self.assertRegex(run.stderr, r"\Aerror: --lines needs --flamegraph")

if __name__ == "__main__":
    ctest_status.main()
