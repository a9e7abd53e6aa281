#!/usr/bin/env python3
"""`cli merge` (docs/FORMATS.md, "Merging"): sums profiles of separate runs.
Merging is associative: (A+B)+C, A+(B+C) and A+B+C in one call all equal
the folded sum computed here, through folded and through pprof
intermediates; a folded count merges into a pprof file's first weight.
Env: CLI, GUEST_DIR, GUEST_INPUTS."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import profiles as P  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402


class Merge(P.TempDirTest):
    def setUp(self):
        super().setUp()
        self.runs = []
        for i, (elf, inp) in enumerate([("verifier-rv32.elf", "verifier.in"),
                                        ("sha256-rv32.elf", "sha256.in"),
                                        ("verifier-rv32.elf", "verifier.in")]):
            path = self.path(f"run{i}.folded")
            P.execute(elf, inp, "--flamegraph", path, "--flamegraph", self.path(f"run{i}.pb.gz"))
            self.runs.append(path)

    def merge(self, out, *inputs):
        P.cli("merge", *inputs, "-o", self.path(out))
        return self.path(out)

    def test_associative(self):
        a, b, c = self.runs
        want = P.add_stacks(*(P.read_folded(r) for r in self.runs))
        for ext in ("folded", "pb.gz"):
            with self.subTest(intermediate=ext):
                left = self.merge("l.folded", self.merge(f"ab.{ext}", a, b), c)
                right = self.merge("r.folded", a, self.merge(f"bc.{ext}", b, c))
                once = self.merge("all.folded", a, b, c)
                for got in (left, right, once):
                    self.assertEqual(P.read_folded(got), want)
                texts = []
                for got in (left, right, once):
                    with open(got) as f:
                        texts.append(f.read())
                self.assertEqual(texts[0], texts[1])  # byte for byte, not only as sums
                self.assertEqual(texts[0], texts[2])

    def test_pprof_inputs(self):
        want = P.add_stacks(*(P.read_folded(r) for r in self.runs))
        out = self.merge("p.folded", *(r.replace(".folded", ".pb.gz") for r in self.runs))
        self.assertEqual(P.read_folded(out), want)

    def test_folded_count_joins_first_weight(self):
        a = self.runs[0]
        out = self.merge("mix.pb.gz", a, a.replace(".folded", ".pb.gz"))
        self.merge("mix.folded", out)
        self.assertEqual(P.read_folded(self.path("mix.folded")),
                         P.add_stacks(P.read_folded(a), P.read_folded(a)))
        if not P.go_available():
            self.skipTest("go is not installed: no go tool pprof to read the profile back")
        types, _ = P.pprof_raw(out)
        self.assertEqual(types, ["instructions"])

    def test_stdout_is_folded(self):
        r = P.cli("merge", self.runs[0], self.runs[1])
        self.assertEqual(P.parse_folded(r.stdout),
                         P.add_stacks(P.read_folded(self.runs[0]), P.read_folded(self.runs[1])))
        self.assertEqual(r.stdout.splitlines(), sorted(r.stdout.splitlines()))


if __name__ == "__main__":
    ctest_status.main()
