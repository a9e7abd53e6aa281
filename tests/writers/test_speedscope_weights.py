#!/usr/bin/env python3
"""speedscope output of several weights (docs/FORMATS.md#speedscope): one
sampled profile per weight, named by it, over the shared frames, each
profile's samples and weights equal to that weight's stacks; with one
weight the file is what it always was (one profile). speedscope input
reads back into `cli report` and `cli merge`.
Env: CLI."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import profiles as P  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

STACKS = {"main;f;g": [3, 30], "main;f": [2, 0], "main": [1, 5], "main;x": [0, 9]}


def profile_stacks(doc, prof):
    names = [f["name"] for f in doc["shared"]["frames"]]
    got = {}
    for sample, w in zip(prof["samples"], prof["weights"]):
        key = ";".join(names[i] for i in sample)
        got[key] = got.get(key, 0) + w
    return got


class SpeedscopeWeights(unittest.TestCase):
    def test_one_profile_per_weight(self):
        with tempfile.TemporaryDirectory() as tmp:
            src, out = os.path.join(tmp, "in.pb.gz"), os.path.join(tmp, "out.json")
            with open(src, "wb") as f:
                f.write(P.encode_pprof([("instructions", "count"), ("cycles", "count")], STACKS))
            P.cli("merge", src, "-o", out)
            with open(out) as f:
                doc = json.load(f)
            self.assertEqual([p["name"] for p in doc["profiles"]], ["instructions", "cycles"])
            for w, prof in enumerate(doc["profiles"]):
                self.assertEqual(prof["type"], "sampled")
                self.assertEqual(prof["unit"], "none")
                self.assertEqual(len(prof["samples"]), len(prof["weights"]))
                want = {k: v[w] for k, v in STACKS.items() if v[w]}
                self.assertEqual(profile_stacks(doc, prof), want)
                self.assertEqual(prof["endValue"], sum(want.values()))
            # read back: the same two weights
            back = os.path.join(tmp, "back.pb.gz")
            P.cli("merge", out, "-o", back)
            P.cli("merge", back, "--weight", "cycles", "-o", os.path.join(tmp, "c.folded"))
            self.assertEqual(P.read_folded(os.path.join(tmp, "c.folded")),
                             {k: v[1] for k, v in STACKS.items() if v[1]})

    def test_one_weight_is_unchanged(self):
        with tempfile.TemporaryDirectory() as tmp:
            folded = os.path.join(tmp, "in.folded")
            with open(folded, "w") as f:
                f.write("main;f 3\nmain 1\n")
            P.cli("flamegraph", folded, "-o", os.path.join(tmp, "a.json"))
            with open(os.path.join(tmp, "a.json")) as f:
                doc = json.load(f)
            self.assertEqual(len(doc["profiles"]), 1)
            self.assertEqual(doc["profiles"][0]["name"], folded)
            self.assertEqual(profile_stacks(doc, doc["profiles"][0]), {"main;f": 3, "main": 1})


if __name__ == "__main__":
    ctest_status.main()
