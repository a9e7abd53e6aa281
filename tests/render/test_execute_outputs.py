#!/usr/bin/env python3
"""`cli execute --flamegraph` picks the format from each file's extension:
one run writes folded, SVG and speedscope files of the same profile. The
SVG's frames and the speedscope weights must agree with the folded file
(parsed independently here), and all totals with --stats.
Env: CLI, GUEST_DIR, GUEST_INPUTS."""
import json
import os
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
INPUTS = os.environ.get("GUEST_INPUTS", "guests/inputs")
SVG_NS = "{http://www.w3.org/2000/svg}"


def folded_stacks(path):
    stacks = {}
    with open(path) as f:
        for line in f:
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            stacks[stack] = stacks.get(stack, 0) + int(count)
    return stacks


class ExecuteOutputs(unittest.TestCase):
    def run_guest(self, tmp, *outputs):
        elf = os.path.join(GUEST_DIR, "verifier-rv32.elf")
        cmd = [CLI, "execute", elf, "--private-input", os.path.join(INPUTS, "verifier.in"),
               "--stats"]
        for o in outputs:
            cmd += ["--flamegraph", os.path.join(tmp, o)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return int(next(l.split()[1] for l in r.stderr.splitlines()
                        if l.startswith("instructions: ")))

    def test_one_run_three_formats(self):
        with tempfile.TemporaryDirectory() as tmp:
            n = self.run_guest(tmp, "p.folded", "p.svg", "p.json")
            stacks = folded_stacks(os.path.join(tmp, "p.folded"))
            self.assertEqual(sum(stacks.values()), n)

            root = ET.parse(os.path.join(tmp, "p.svg")).getroot()
            frames = root.iter(SVG_NS + "g")
            counts = {g.get("data-name"): int(g.get("data-count"))
                      for g in frames if g.get("class") == "frame"}
            self.assertEqual(counts["all"], n)
            # main's total is every stack through main, computed from the folded file
            main_total = sum(c for s, c in stacks.items() if s.split(";")[:2] == ["_start", "main"])
            self.assertEqual(counts["main"], main_total)

            with open(os.path.join(tmp, "p.json")) as f:
                doc = json.load(f)
            prof = doc["profiles"][0]
            self.assertEqual(sum(prof["weights"]), n)
            names = [fr["name"] for fr in doc["shared"]["frames"]]
            got = {}
            for sample, w in zip(prof["samples"], prof["weights"]):
                key = ";".join(names[i] for i in sample)
                got[key] = got.get(key, 0) + w
            self.assertEqual(got, stacks)

    def test_format_flag_overrides_extension(self):
        with tempfile.TemporaryDirectory() as tmp:
            elf = os.path.join(GUEST_DIR, "hello-rv32.elf")
            out = os.path.join(tmp, "p.txt")
            r = subprocess.run([CLI, "execute", elf, "--format", "svg", "--flamegraph", out],
                               capture_output=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            ET.parse(out)  # an SVG despite the extension
            r = subprocess.run([CLI, "execute", elf, "--format", "png", "--flamegraph", out],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 64)
            self.assertTrue(r.stderr.startswith("error: "), r.stderr)


if __name__ == "__main__":
    ctest_status.main()
