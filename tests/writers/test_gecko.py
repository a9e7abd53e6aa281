#!/usr/bin/env python3
"""Firefox Profiler (Gecko) output (docs/FORMATS.md#gecko): checked against
the Gecko profile format the Firefox Profiler documents
(docs-developer/gecko-profile-format.md and its GeckoSamples, GeckoFrameTable
and GeckoStackTable types): the required keys, every table's rows as long
as its schema, stack, frame, string and category indices in range, samples
in time order with an eventDelay column (the profiler's processing wants
one); then its stacks and sample totals against the folded file of the same
run, one thread per weight. Read back (`cli merge`, `cli report`), a Gecko file
gives the stacks and weights it was written from, and a file without a
weight column (as SP1's profiler writes) counts each sample once.
Env: CLI, GUEST_DIR, GUEST_INPUTS."""
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import profiles as P  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402


def check_table(tc, table, what, required):
    tc.assertIsInstance(table, dict, what)
    tc.assertIn("schema", table, what)
    tc.assertIn("data", table, what)
    schema = table["schema"]
    for col in required:
        tc.assertIn(col, schema, f"{what}.schema lacks {col}")
    cols = sorted(schema.values())
    tc.assertEqual(cols, list(range(len(cols))), f"{what}.schema: columns 0..n-1")
    for row in table["data"]:
        tc.assertEqual(len(row), len(cols), f"{what}: a row of {len(row)} columns")
    return schema


def check_gecko(tc, doc):
    """The documented shape; returns {thread name: {stack: weight}}."""
    for key in ("meta", "libs", "threads"):
        tc.assertIn(key, doc)
    meta = doc["meta"]
    for key in ("version", "interval", "startTime", "processType"):
        tc.assertIn(key, meta)
    categories = meta.get("categories", [])
    for c in categories:
        tc.assertTrue({"name", "color", "subcategories"} <= set(c))
    out = {}
    for th in doc["threads"]:
        for key in ("name", "processType", "tid", "pid", "registerTime", "unregisterTime",
                    "samples", "markers", "stackTable", "frameTable", "stringTable"):
            tc.assertIn(key, th)
        strings = th["stringTable"]
        tc.assertTrue(all(isinstance(s, str) for s in strings))
        fs = check_table(tc, th["frameTable"], "frameTable", ["location", "category", "line"])
        frames = th["frameTable"]["data"]
        for row in frames:
            tc.assertTrue(0 <= row[fs["location"]] < len(strings))
            cat = row[fs["category"]]
            tc.assertTrue(cat is None or 0 <= cat < len(categories))
            line = row[fs["line"]]
            tc.assertTrue(line is None or (isinstance(line, int) and line > 0))
        ss = check_table(tc, th["stackTable"], "stackTable", ["prefix", "frame"])
        stacks = th["stackTable"]["data"]
        for i, row in enumerate(stacks):
            tc.assertTrue(0 <= row[ss["frame"]] < len(frames))
            prefix = row[ss["prefix"]]
            tc.assertTrue(prefix is None or 0 <= prefix < i, "prefix before its stack")
        check_table(tc, th["markers"], "markers", ["name", "data"])
        sm = check_table(tc, th["samples"], "samples", ["stack", "time", "eventDelay"])
        samples = th["samples"]["data"]
        times = [row[sm["time"]] for row in samples]
        tc.assertEqual(times, sorted(times), "samples in time order")

        def names(stack):
            out = []
            while stack is not None:
                frame = frames[stacks[stack][ss["frame"]]]
                out.append(strings[frame[fs["location"]]])
                stack = stacks[stack][ss["prefix"]]
            return ";".join(reversed(out))
        got = {}
        for k, row in enumerate(samples):
            st = row[sm["stack"]]
            tc.assertTrue(st is None or 0 <= st < len(stacks))
            w = row[sm["weight"]] if "weight" in sm else 1
            got[names(st)] = got.get(names(st), 0) + w
            if k + 1 < len(samples):  # the clock advances by the weight (1 us per unit)
                tc.assertAlmostEqual(samples[k + 1][sm["time"]] - row[sm["time"]], w / 1000)
        out[th["name"]] = got
    return out


class Gecko(unittest.TestCase):
    def test_guest_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            for elf, inp in P.GUESTS:
                with self.subTest(guest=elf):
                    folded, gecko = os.path.join(tmp, "p.folded"), os.path.join(tmp, "p.gecko.json")
                    n = P.execute(elf, inp, "--flamegraph", folded, "--flamegraph", gecko)
                    with open(gecko) as f:
                        threads = check_gecko(self, json.load(f))
                    self.assertEqual(list(threads), ["instructions"])
                    self.assertEqual(threads["instructions"], P.read_folded(folded))
                    self.assertEqual(sum(threads["instructions"].values()), n)

    def test_one_thread_per_weight(self):
        stacks = {"main;f;g": [3, 30], "main;f": [2, 20], "main": [1, 5]}
        with tempfile.TemporaryDirectory() as tmp:
            src, out = os.path.join(tmp, "in.pb.gz"), os.path.join(tmp, "out.gecko.json")
            with open(src, "wb") as f:
                f.write(P.encode_pprof([("instructions", "count"), ("cycles", "count")], stacks,
                                       {"g": ("g.c", 7)}))
            P.cli("merge", src, "-o", out)
            with open(out) as f:
                doc = json.load(f)
            threads = check_gecko(self, doc)
            self.assertEqual(threads, {"instructions": {k: v[0] for k, v in stacks.items()},
                                       "cycles": {k: v[1] for k, v in stacks.items()}})
            th = doc["threads"][0]
            lines = {th["stringTable"][r[0]]: r[th["frameTable"]["schema"]["line"]]
                     for r in th["frameTable"]["data"]}
            self.assertEqual(lines, {"main": None, "f": None, "g": 7})


    def test_read_back(self):
        """A run's Gecko file, merged to folded and to pprof, gives its folded file and the
        weights of its pprof file, name by name (two threads: named weights)."""
        with tempfile.TemporaryDirectory() as tmp:
            for elf, inp in P.GUESTS:
                with self.subTest(guest=elf):
                    files = {ext: os.path.join(tmp, "p." + ext)
                             for ext in ("folded", "gecko.json", "pb.gz")}
                    P.execute(elf, inp, "--weight", "instructions", "--weight", "class:load",
                              *[a for f in files.values() for a in ("--flamegraph", f)])
                    back = os.path.join(tmp, "back.folded")
                    P.cli("merge", files["gecko.json"], "-o", back)
                    self.assertEqual(P.read_folded(back), P.read_folded(files["folded"]))
                    pprof = os.path.join(tmp, "back.pb.gz")
                    P.cli("merge", files["gecko.json"], "-o", pprof)
                    want = json.loads(P.cli("report", "--json", files["pb.gz"]).stdout)
                    got = json.loads(P.cli("report", "--json", pprof).stdout)
                    self.assertEqual([(w["name"], w["total"]) for w in got["weights"]],
                                     [(w["name"], w["total"]) for w in want["weights"]])
                    self.assertEqual(got["weights"][1]["name"], "class:load")

    def test_lines_survive_a_round_trip(self):
        """pprof (g at g.c:7) -> Gecko -> pprof -> Gecko: the frame table keeps g's line."""
        stacks = {"main;f;g": [3], "main": [1]}
        with tempfile.TemporaryDirectory() as tmp:
            a, b, c, d = (os.path.join(tmp, n) for n in ("a.pb.gz", "b.gecko.json", "c.pb.gz",
                                                          "d.gecko.json"))
            with open(a, "wb") as f:
                f.write(P.encode_pprof([("instructions", "count")], stacks, {"g": ("g.c", 7)}))
            for src, out in ((a, b), (b, c), (c, d)):
                P.cli("merge", src, "-o", out)
            with open(d) as f:
                doc = json.load(f)
            th = doc["threads"][0]
            lines = {th["stringTable"][r[0]]: r[th["frameTable"]["schema"]["line"]]
                     for r in th["frameTable"]["data"]}
            self.assertEqual(lines, {"main": None, "f": None, "g": 7})

    def test_sp1_shaped_file(self):
        """No weight column: each sample counts once (SP1 samples its stack every N cycles).
        Stacks: 0 = main, 1 = main;f, 2 = main;f;g, 3 = main;h; the frame table names them
        through the string table, out of order, and one frame name has a ';'."""
        doc = {"meta": {"version": 24, "interval": 1, "startTime": 0, "processType": 0},
               "libs": [], "threads": [{
                   "name": "main", "stringTable": ["g", "main", "f", "h;x"],
                   "frameTable": {"schema": {"location": 0, "line": 1}, "data": [
                       [1, None], [2, None], [0, 12], [3, None]]},
                   "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [
                       [None, 0], [0, 1], [1, 2], [0, 3]]},
                   "samples": {"schema": {"stack": 0, "time": 1}, "data": [
                       [2, 0], [2, 1], [1, 2], [0, 3], [3, 4], [2, 5]]}}]}
        with tempfile.TemporaryDirectory() as tmp:
            src, out = os.path.join(tmp, "sp1.gecko.json"), os.path.join(tmp, "o.folded")
            with open(src, "w") as f:
                json.dump(doc, f)
            P.cli("merge", src, "-o", out)
            self.assertEqual(P.read_folded(out),
                             {"main;f;g": 3, "main;f": 1, "main": 1, "main;h:x": 1})
            report = json.loads(P.cli("report", "--json", src).stdout)
            self.assertEqual([(w["name"], w["total"]) for w in report["weights"]],
                             [("samples", 6)])


    def test_names_with_a_nul(self):
        """JSON strings may hold U+0000: a frame name ends there, in speedscope and Gecko
        input alike (the sanitiser once walked past the copy; ASan build)."""
        speedscope = {"shared": {"frames": [{"name": "a\u0000;b"}, {"name": "c;d"}]},
                      "profiles": [{"type": "sampled", "samples": [[0], [0, 1]],
                                    "weights": [2, 3]}]}
        gecko = {"meta": {}, "threads": [{
            "stringTable": ["a\u0000;b", "c;d"],
            "frameTable": {"schema": {"location": 0}, "data": [[0], [1]]},
            "stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[None, 0], [0, 1]]},
            "samples": {"schema": {"stack": 0, "weight": 1}, "data": [[0, 2], [1, 3]]}}]}
        with tempfile.TemporaryDirectory() as tmp:
            for name, doc in (("s.json", speedscope), ("g.gecko.json", gecko)):
                with self.subTest(file=name):
                    src, out = os.path.join(tmp, name), os.path.join(tmp, "o.folded")
                    with open(src, "w") as f:
                        json.dump(doc, f)
                    P.cli("merge", src, "-o", out)
                    self.assertEqual(P.read_folded(out), {"a": 2, "a;c:d": 3})


if __name__ == "__main__":
    ctest_status.main()
