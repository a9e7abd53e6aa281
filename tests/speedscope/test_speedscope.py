#!/usr/bin/env python3
"""Tests for the speedscope JSON writer (flamegraph/speedscope.c).

Folded inputs are fed to speedscope_dump (folded text on stdin, speedscope
JSON on stdout) and each output is checked with the json module:

- it is strict UTF-8 and strict JSON (no raw control characters);
- it follows the structure of the speedscope file-format schema
  (https://www.speedscope.app/file-format-schema.json), checked here by
  hand: required keys and their types, the "sampled" profile's fields,
  frame indices in range, as many weights as samples, unit in the enum;
- frames are distinct by name and sorted by their UTF-8 bytes;
- each sample's frame names joined by ';' is a stack of the input, and
  the weights per stack equal the input's counts with identical stacks
  merged (zero counts give no sample); weights sum to endValue, which is
  the input's total.

Names carry quotes, backslashes, control characters, non-ASCII UTF-8,
invalid UTF-8 (expected as Python's "replace" decoding: one U+FFFD per
maximal ill-formed subpart) and other odd characters.

Run: SPEEDSCOPE_DUMP=build/tests/speedscope/speedscope_dump \
     python3 tests/speedscope/test_speedscope.py [-v]
"""

import json
import os
import random
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

DUMP = os.environ.get("SPEEDSCOPE_DUMP") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "build", "tests",
    "speedscope", "speedscope_dump")

SCHEMA = "https://www.speedscope.app/file-format-schema.json"
UNITS = ("none", "nanoseconds", "microseconds", "milliseconds", "seconds",
         "bytes")


def run_dump(folded, name="profile", unit="none"):
    """speedscope_dump on `folded` (bytes); returns (exit status, stdout, stderr)."""
    proc = subprocess.run([DUMP, name, unit], input=folded,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          check=False, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


def folded_stacks(folded):
    """The input as folded_read sees it: {stack (decoded): merged count}, total."""
    stacks, total = {}, 0
    for line in folded.split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            continue
        stack, _, count = line.rpartition(b" ")
        key = stack.decode("utf-8", "replace")
        stacks[key] = stacks.get(key, 0) + int(count)
        total += int(count)
    return {s: c for s, c in stacks.items() if c}, total


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_index(v, size):
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < size


class SchemaError(AssertionError):
    pass


def require(cond, what):
    if not cond:
        raise SchemaError(what)


def check_frame(i, frame):
    require(isinstance(frame, dict), f"frames[{i}] is an object")
    require(isinstance(frame.get("name"), str), f"frames[{i}].name is a string")
    for key, ok in (("file", isinstance(frame.get("file"), str)),
                    ("line", is_number(frame.get("line"))),
                    ("col", is_number(frame.get("col")))):
        require(key not in frame or ok, f"frames[{i}].{key} has its type")
    require(set(frame) <= {"name", "file", "line", "col"}, f"frames[{i}] has no other keys")


def check_sampled_profile(i, prof, nframes):
    require(isinstance(prof, dict), f"profiles[{i}] is an object")
    want = {"type", "name", "unit", "startValue", "endValue", "samples", "weights"}
    require(want <= set(prof), f"profiles[{i}] has {sorted(want - set(prof))}")
    require(prof["type"] == "sampled", f"profiles[{i}].type is sampled")
    require(isinstance(prof["name"], str), f"profiles[{i}].name is a string")
    require(prof["unit"] in UNITS, f"profiles[{i}].unit is a speedscope unit")
    require(is_number(prof["startValue"]) and is_number(prof["endValue"]),
            f"profiles[{i}] start/endValue are numbers")
    samples, weights = prof["samples"], prof["weights"]
    require(isinstance(samples, list) and isinstance(weights, list),
            f"profiles[{i}] samples and weights are arrays")
    require(len(samples) == len(weights), f"profiles[{i}]: one weight per sample")
    for k, s in enumerate(samples):
        require(isinstance(s, list) and all(is_index(f, nframes) for f in s),
                f"profiles[{i}].samples[{k}] is an array of frame indices")
    require(all(is_number(w) for w in weights), f"profiles[{i}].weights are numbers")


def check_schema(doc):
    """The structural rules of the speedscope file format (a SampledProfile file)."""
    require(isinstance(doc, dict), "the file is an object")
    require(doc.get("$schema") == SCHEMA, "$schema")
    shared = doc.get("shared")
    require(isinstance(shared, dict) and isinstance(shared.get("frames"), list),
            "shared.frames is an array")
    frames = shared["frames"]
    for i, frame in enumerate(frames):
        check_frame(i, frame)
    profiles = doc.get("profiles")
    require(isinstance(profiles, list), "profiles is an array")
    for i, prof in enumerate(profiles):
        check_sampled_profile(i, prof, len(frames))
    require("name" not in doc or isinstance(doc["name"], str), "name is a string")
    require("exporter" not in doc or isinstance(doc["exporter"], str), "exporter is a string")
    require("activeProfileIndex" not in doc or is_index(doc["activeProfileIndex"], len(profiles)),
            "activeProfileIndex is a profile index")
    require(set(doc) <= {"$schema", "shared", "profiles", "name", "activeProfileIndex",
                         "exporter"}, "no other top-level keys")


class SpeedscopeTest(unittest.TestCase):
    def convert(self, folded, name="profile", unit="none"):
        """Runs speedscope_dump; returns the parsed, schema-checked document."""
        rc, out, err = run_dump(folded, name, unit)
        self.assertEqual(rc, 0, err.decode(errors="replace"))
        self.assertEqual(err, b"")
        text = out.decode("utf-8")  # strict: the output is valid UTF-8
        doc = json.loads(text)      # strict: no raw control characters
        check_schema(doc)
        return doc

    def check_against(self, folded, doc):
        """The document shows exactly the input's merged stacks and total."""
        stacks, total = folded_stacks(folded)
        frames = [f["name"] for f in doc["shared"]["frames"]]
        prof = doc["profiles"][0]
        self.assertEqual(len(doc["profiles"]), 1)
        self.assertEqual(prof["startValue"], 0)
        self.assertEqual(prof["endValue"], total)
        self.assertEqual(sum(prof["weights"]), total)
        got = {}
        for sample, weight in zip(prof["samples"], prof["weights"]):
            self.assertGreater(weight, 0)
            self.assertTrue(sample, "a sample has at least one frame")
            key = ";".join(frames[f] for f in sample)
            got[key] = got.get(key, 0) + weight
        self.assertEqual(got, stacks)
        return frames

    def roundtrip(self, folded, name="profile", unit="none"):
        doc = self.convert(folded, name, unit)
        frames = self.check_against(folded, doc)
        self.assertEqual(doc["name"], name)
        self.assertEqual(doc["profiles"][0]["name"], name)
        self.assertEqual(doc["profiles"][0]["unit"], unit)
        self.assertEqual(doc["activeProfileIndex"], 0)
        self.assertEqual(doc["exporter"], "zkprof")
        return doc, frames

    def test_simple(self):
        folded = b"main;sha256;compress 1234\nmain 5\nmain;sha256 7\nmain;io 0\n"
        doc, frames = self.roundtrip(folded)
        self.assertEqual(frames, ["compress", "io", "main", "sha256"])
        prof = doc["profiles"][0]
        # depth first, siblings by name, outermost frame first
        self.assertEqual(prof["samples"], [[2], [2, 3], [2, 3, 0]])
        self.assertEqual(prof["weights"], [5, 7, 1234])

    def test_merged_and_deduplicated(self):
        folded = b"a;b 1\nb;a 2\na;b 3\na;a;a 4\r\n\nb 5\n"
        doc, frames = self.roundtrip(folded)
        self.assertEqual(frames, ["a", "b"])
        self.assertEqual(len(doc["profiles"][0]["samples"]), 4)

    def test_empty_input(self):
        doc, frames = self.roundtrip(b"")
        self.assertEqual(frames, [])
        self.assertEqual(doc["profiles"][0]["samples"], [])

    def test_odd_names(self):
        names = [
            'say "hi"', "C:\\path\\to", "back\\\\slash\\", '\\"', "tab\there",
            "ctl\x01\x02\x1b\x1f\x7f", "nul\x00byte", "é", "中文函数", "😀🦀",
            "\u2028\u2029", "std::vector<int>::push_back(int const&)",
            "<T as core::ops::Fn>::call", "operator() {lambda#1}", "{}[],:",
            "'single' `tick`", "/*c*/ //x", "", "  spaced  ", "0x80001234",
            "\ufeffbom", "\ufffd",
        ]
        lines = []
        for i, name in enumerate(names):
            lines.append(f"main;{name} {i + 1}")
            lines.append(f"{name};{names[(i + 3) % len(names)]};leaf {i * 7 + 2}")
        folded = ("\n".join(lines) + "\n").encode("utf-8")
        doc, frames = self.roundtrip(folded, name='guest "v1" \\ 测试', unit="none")
        self.assertEqual(len(frames), len(set(frames)), "one frame per name")
        self.assertEqual(set(frames), set(names) | {"main", "leaf"})
        self.assertEqual(frames, sorted(frames, key=lambda s: s.encode("utf-8")))

    def test_invalid_utf8_replaced(self):
        cases = [b"\xff", b"a\x80b", b"\xc0\xaf", b"\xe2\x82", b"\xe2\x82z",
                 b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xf0\x9f\x98",
                 b"\xf0\x9f\x98\xe2\x82\xac", b"ok\xe9t\xe9", b"\xf5\xf8\xfc"]
        for raw in cases:
            with self.subTest(raw=raw):
                folded = b"main;" + raw + b";x 3\n" + raw + b" 4\n"
                _, frames = self.roundtrip(folded)
                self.assertIn(raw.decode("utf-8", "replace"), frames)

    def test_units(self):
        for unit in UNITS:
            with self.subTest(unit=unit):
                self.roundtrip(b"a;b 10\n", unit=unit)

    def test_unknown_unit_refused(self):
        rc, out, err = run_dump(b"a 1\n", "p", "cycles")
        self.assertEqual(rc, 1)
        self.assertTrue(err.startswith(b"error: "), err)

    def test_large_counts(self):
        folded = b"a 9007199254740993\nb;c 18446744073709551\n"
        doc, _ = self.roundtrip(folded)  # the json module keeps integers exact
        self.assertEqual(doc["profiles"][0]["weights"], [9007199254740993, 18446744073709551])

    def test_random(self):
        rng = random.Random(1234)
        alphabet = ["main", "f", "g", "h", 'q"', "b\\s", "ü", "\x01", "x y",
                    "∑", "k" * 200]
        for trial in range(20):
            with self.subTest(trial=trial):
                lines = []
                for _ in range(rng.randrange(1, 200)):
                    depth = rng.randrange(1, 12)
                    stack = ";".join(rng.choice(alphabet) for _ in range(depth))
                    lines.append(f"{stack} {rng.choice([0, 1, 2, 5, 1000, 123456789])}")
                self.roundtrip(("\n".join(lines) + "\n").encode("utf-8"))

    def test_deep_stack(self):
        stack = ";".join(f"f{i % 7}" for i in range(20000))
        folded = f"{stack} 42\n{stack[:stack.rindex(';')]} 1\n".encode()
        doc, frames = self.roundtrip(folded)
        self.assertEqual(len(frames), 7)
        self.assertEqual([len(s) for s in doc["profiles"][0]["samples"]], [19999, 20000])

    def test_schema_checker_rejects(self):
        """The hand-written schema checks do catch broken files."""
        good = self.convert(b"a;b 1\n")
        broken = [
            lambda d: d.pop("$schema"),
            lambda d: d["shared"].pop("frames"),
            lambda d: d["shared"]["frames"][0].update(name=3),
            lambda d: d["profiles"][0]["samples"][0].append(2),
            lambda d: d["profiles"][0]["samples"][0].append(-1),
            lambda d: d["profiles"][0]["weights"].append(1),
            lambda d: d["profiles"][0].update(unit="cycles"),
            lambda d: d["profiles"][0].pop("endValue"),
            lambda d: d.update(activeProfileIndex=1),
        ]
        for i, breaker in enumerate(broken):
            with self.subTest(i=i):
                doc = json.loads(json.dumps(good))
                breaker(doc)
                with self.assertRaises(SchemaError):
                    check_schema(doc)


if __name__ == "__main__":
    if not os.path.exists(DUMP):
        sys.exit(f"error: {DUMP} not built (set SPEEDSCOPE_DUMP)")
    ctest_status.main()
