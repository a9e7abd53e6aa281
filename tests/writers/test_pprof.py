#!/usr/bin/env python3
"""pprof output (docs/FORMATS.md#pprof), read back by `go tool pprof -raw`,
the reference reader: `cli execute --flamegraph out.pb.gz` holds the same
stacks and totals as the folded file of the same run; a profile of two
weights (encoded here from profile.proto by hand) keeps both through
`cli merge` to .pb.gz, and `--weight` picks one for folded output.
Skips (77) with a clear message only when go is missing.
Env: CLI, GUEST_DIR, GUEST_INPUTS."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import profiles as P  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402


class Pprof(P.TempDirTest):
    def test_guest_runs_match_folded(self):
        for elf, inp in P.GUESTS:
            with self.subTest(guest=elf):
                n = P.execute(elf, inp, "--flamegraph", self.path("p.folded"),
                              "--flamegraph", self.path("p.pb.gz"))
                folded = P.read_folded(self.path("p.folded"))
                types, stacks = P.pprof_raw(self.path("p.pb.gz"))
                self.assertEqual(types, ["instructions"])
                self.assertEqual({k: v[0] for k, v in stacks.items()}, folded)
                self.assertEqual(sum(v[0] for v in stacks.values()), n)

    def test_report_agrees_with_pprof_top(self):
        """`cli report`'s self and inclusive are go tool pprof's flat and cum."""
        import json
        n = P.execute("zkvm-sp1-rv32.elf", "zkvm-sp1.in", "--flamegraph", self.path("p.pb.gz"))
        doc = json.loads(P.cli("report", "--json", "--top", "0", self.path("p.pb.gz")).stdout)
        top = doc["top"]["instructions"]
        self_ = {r["function"]: r["value"] for r in top["self"]}
        incl = {r["function"]: r["value"] for r in top["inclusive"]}
        want = P.pprof_top(self.path("p.pb.gz"))
        self.assertEqual({f: (self_.get(f, 0), incl[f]) for f in incl}, want)
        self.assertEqual(doc["weights"][0]["total"], n)

    def test_perf_fold(self):
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "perf"))
        from perfgen import CONTEXT_USER, PerfData
        p = PerfData()
        p.comm(100, 100, "prog", time=10)
        p.sample(100, 100, time=20, ip=0x400010, callchain=[CONTEXT_USER, 0x400010, 0x400020])
        p.sample(100, 100, time=21, ip=0x400010, callchain=[CONTEXT_USER, 0x400010, 0x400030],
                 period=5)
        p.finished_round()
        with open(self.path("perf.data"), "wb") as f:
            f.write(p.to_bytes())
        for out in ("p.folded", "p.pb.gz"):
            P.cli("perf", "fold", self.path("perf.data"), "--addrs", "-o", self.path(out))
        types, stacks = P.pprof_raw(self.path("p.pb.gz"))
        self.assertEqual(types, ["samples"])
        self.assertEqual({k: v[0] for k, v in stacks.items()}, P.read_folded(self.path("p.folded")))

    def test_two_weights_survive_merge(self):
        stacks = {"main;f;g": [3, 30], "main;f": [2, 20], "main": [1, 5],
                  "main;h;[ecall:SHA_COMPRESS]": [4, 400]}
        with open(self.path("in.pb.gz"), "wb") as f:
            f.write(P.encode_pprof([("instructions", "count"), ("cycles", "count")], stacks,
                                   {"f": ("f.c", 12)}))
        P.cli("merge", self.path("in.pb.gz"), self.path("in.pb.gz"), "-o", self.path("out.pb.gz"))
        types, got = P.pprof_raw(self.path("out.pb.gz"))
        self.assertEqual(types, ["instructions", "cycles"])
        self.assertEqual(got, {k: [2 * v[0], 2 * v[1]] for k, v in stacks.items()})
        for w, name in enumerate(["instructions", "cycles"]):
            P.cli("merge", self.path("in.pb.gz"), "--weight", name, "-o", self.path("w.folded"))
            self.assertEqual(P.read_folded(self.path("w.folded")),
                             {k: v[w] for k, v in stacks.items()})
        # the file and line known for f reach go tool pprof
        r = P.subprocess.run(["go", "tool", "pprof", "-raw", "-symbolize=none",
                              self.path("out.pb.gz")], capture_output=True, text=True,
                             env=dict(os.environ, GOCACHE="/tmp/zkprof-gocache"))
        self.assertRegex(r.stdout, r" f f\.c:12 ")

    def test_unknown_weight_is_refused(self):
        with open(self.path("in.pb.gz"), "wb") as f:
            f.write(P.encode_pprof([("instructions", "count")], {"main": [1]}))
        r = P.cli("merge", self.path("in.pb.gz"), "--weight", "gas", check=False)
        self.assertEqual(r.returncode, 65, r.stderr)
        self.assertEqual(r.stderr, "error: no weight 'gas' in the profile; it has instructions\n")

    def test_flamegraph_renders_a_pprof_input(self):
        stacks = {"main;f": [7, 70], "main": [1, 10]}
        with open(self.path("in.pb.gz"), "wb") as f:
            f.write(P.encode_pprof([("instructions", "count"), ("cycles", "count")], stacks))
        P.cli("flamegraph", self.path("in.pb.gz"), "--weight", "cycles", "-o",
              self.path("out.folded"))
        self.assertEqual(P.read_folded(self.path("out.folded")), {"main;f": 70, "main": 10})


if __name__ == "__main__":
    if not P.go_available():
        ctest_status.skip("go is not installed (Debian package golang-go); go tool pprof is "
                          "the reference reader of these tests")
    ctest_status.main()
