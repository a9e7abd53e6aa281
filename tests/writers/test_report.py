#!/usr/bin/env python3
"""`cli report` and `cli execute --report` (docs/FORMATS.md#reports): the
self and inclusive tables of every weight and the [ecall:NAME] calls,
against tables computed here independently from the folded files they come
from (inclusive counts a stack once per function, however it recurses).
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


class Report(unittest.TestCase):
    def check_json(self, doc, weight_stacks):
        """weight_stacks: {weight: {stack: value}}."""
        self.assertEqual([w["name"] for w in doc["weights"]], list(weight_stacks))
        for w in doc["weights"]:
            self.assertEqual(w["total"], sum(weight_stacks[w["name"]].values()))
        for name, stacks in weight_stacks.items():
            self_, incl = P.self_inclusive(stacks)
            top = doc["top"][name]
            self.assertEqual([(r["function"], r["value"]) for r in top["self"]], P.ranked(self_))
            self.assertEqual([(r["function"], r["value"]) for r in top["inclusive"]],
                             P.ranked(incl))
        first = next(iter(weight_stacks))
        calls_weight = "instructions" if "instructions" in weight_stacks else first
        ecalls = sorted({f for st in weight_stacks[first] for f in st.split(";")
                         if f.startswith("[ecall:") and f.endswith("]")})
        self.assertEqual([e["frame"] for e in doc["ecalls"]], ecalls)
        for e in doc["ecalls"]:
            self.assertEqual(e["name"], e["frame"][len("[ecall:"):-1])
            incl = {w: P.self_inclusive(s)[1].get(e["frame"], 0)
                    for w, s in weight_stacks.items()}
            self.assertEqual(e["cost"], incl)
            self.assertEqual(e["calls"], incl[calls_weight])

    def test_guest_reports(self):
        with tempfile.TemporaryDirectory() as tmp:
            for elf, inp in P.GUESTS:
                with self.subTest(guest=elf):
                    folded, rep = os.path.join(tmp, "p.folded"), os.path.join(tmp, "r.json")
                    P.execute(elf, inp, "--flamegraph", folded, "--report", rep)
                    stacks = P.read_folded(folded)
                    with open(rep) as f:
                        doc = json.load(f)
                    self.assertEqual(doc["inputs"], [P.guest(elf)])
                    # --report keeps the top 20
                    self.assertEqual(len(doc["top"]["instructions"]["self"]),
                                     min(20, len(P.self_inclusive(stacks)[0])))
                    r = P.cli("report", "--json", "--top", "0", folded)
                    full = json.loads(r.stdout)
                    self.check_json(full, {"samples": stacks})
                    self.assertEqual(doc["top"]["instructions"]["inclusive"],
                                     full["top"]["samples"]["inclusive"][:20])
            self.assertTrue(any(P.self_inclusive(stacks)[0]))

    def test_zkvm_calls_are_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            folded = os.path.join(tmp, "p.folded")
            P.execute("zkvm-sp1-rv32.elf", "zkvm-sp1.in", "--flamegraph", folded)
            doc = json.loads(P.cli("report", "--json", folded).stdout)
            self.assertTrue(doc["ecalls"], "the SP1 guest makes zkVM calls")
            self.check_json(json.loads(P.cli("report", "--json", "--top", "0", folded).stdout),
                            {"samples": P.read_folded(folded)})

    def test_folded_frame_like_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "brace.folded")
            with open(path, "w") as f:
                f.write("{closure};main 3\n{closure} 1\n")
            doc = json.loads(P.cli("report", "--json", path).stdout)
            self.check_json(doc, {"samples": {"{closure};main": 3, "{closure}": 1}})

    def test_several_weights_and_inputs(self):
        stacks = {"main;f;f;g": [3, 30], "main;f": [2, 20], "main": [1, 5],
                  "main;h;[ecall:SHA_COMPRESS]": [4, 400], "main;[ecall:HALT]": [1, 1]}
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "in.pb.gz")
            with open(src, "wb") as f:
                f.write(P.encode_pprof([("cycles", "count"), ("instructions", "count")], stacks))
            doc = json.loads(P.cli("report", "--json", "--top", "0", src, src).stdout)
            self.check_json(doc, {"cycles": {k: 2 * v[0] for k, v in stacks.items()},
                                  "instructions": {k: 2 * v[1] for k, v in stacks.items()}})
            text = P.cli("report", src).stdout
            self.assertIn("top 5 functions by self cycles:", text)
            self.assertIn("[ecall:SHA_COMPRESS] calls 400, cycles 4, instructions 400", text)
            self.assertIn("opcode-class mix: not in this profile", text)

    def test_class_mix_and_pages(self):
        """The class:NAME weights are the mix (of all, and of each top
        function's own stacks), pages the [PageIn]/[PageOut] values of
        weight pages, computed here from the stacks."""
        names = ["instructions", "class:add", "class:load", "pages"]
        stacks = {"main;f": [5, 3, 2, 0], "main;f;f": [2, 0, 2, 0], "main": [4, 4, 0, 0],
                  "main;[PageIn]": [0, 0, 0, 3], "main;f;[PageOut]": [0, 0, 0, 1]}
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "in.pb.gz")
            with open(src, "wb") as f:
                f.write(P.encode_pprof([(n, "count") for n in names], stacks))
            doc = json.loads(P.cli("report", "--json", src).stdout)
            self.assertEqual(sorted(doc["top"]), ["instructions", "pages"])
            mix = doc["class_mix"]
            self.assertEqual(mix["by"], "instructions")
            self.assertEqual(mix["all"], {"add": 7, "load": 4})
            leaf = {}
            for st, v in stacks.items():
                fn = leaf.setdefault(st.split(";")[-1], [0, 0, 0])
                for k in range(3):
                    fn[k] += v[k]
            order = sorted((-v[0], n) for n, v in leaf.items() if v[0])
            self.assertEqual([r["function"] for r in mix["functions"]], [n for _, n in order])
            for r in mix["functions"]:
                _, add, load = leaf[r["function"]]
                want = {k: v for k, v in (("add", add), ("load", load)) if v}
                self.assertEqual(r["classes"], want)
            self.assertEqual(doc["pages"], {"in": 3, "out": 1})
            text = P.cli("report", src).stdout
            self.assertIn("  all: add 7 (63.64%), load 4 (36.36%)", text)
            self.assertIn("paged in 3, paged out 1", text)

    def test_class_mix_text_of_calls_and_paging(self):
        """A call's line names the weights other than the classes (the mix
        shows its ecall); ranked by a weight other than instructions, a
        [PageIn] leaf has no instructions and says so."""
        names = ["cycles", "class:add", "class:ecall"]
        stacks = {"main": [2, 2, 0], "main;[ecall:SHA]": [5, 0, 1], "main;[PageIn]": [9, 0, 0]}
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "in.pb.gz")
            with open(src, "wb") as f:
                f.write(P.encode_pprof([(n, "count") for n in names], stacks))
            text = P.cli("report", src).stdout
            self.assertIn("  [ecall:SHA] calls 5, cycles 5\n", text)
            self.assertIn("opcode-class mix of the top 3 functions by self cycles:", text)
            self.assertIn("  [PageIn]: no instructions\n", text)
            self.assertIn("  [ecall:SHA]: ecall 1 (100.00%)\n", text)


if __name__ == "__main__":
    ctest_status.main()
