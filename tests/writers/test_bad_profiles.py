#!/usr/bin/env python3
"""Bad profile inputs to `cli report`, `cli merge` and `cli flamegraph`:
a corrupt .pb.gz, truncated gzip, a gzip of garbage, protobuf indices out
of range, malformed folded lines, broken JSON, Gecko files with tables out
of range, an SVG picture: each gives
one clear `error:` line naming the file, a non-zero exit (65, 66 for a
missing file), and no crash (the build runs under ASan/UBSan).
Env: CLI."""
import gzip
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(__file__))
import profiles as P  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

GOOD = P.encode_pprof([("instructions", "count")], {"main;f": [3], "main": [1]})


def bad_inputs():
    raw = gzip.decompress(GOOD)
    yield "truncated.pb.gz", GOOD[: len(GOOD) // 2], "truncated"
    yield "flipped.pb.gz", GOOD[:10] + bytes(b ^ 0x5A for b in GOOD[10:40]) + GOOD[40:], \
        "damaged gzip"
    yield "garbage.pb.gz", gzip.compress(b"\xff" * 64), "does not parse"
    yield "empty.pb.gz", gzip.compress(b""), "string_table[0]"
    # a sample naming location 99, which does not exist
    yield "badloc.pb.gz", gzip.compress(raw + P.field_bytes(2, P.packed(1, [99]) +
                                                            P.packed(2, [1]))), "location 99"
    # a function whose name index is past the string table
    yield "badstr.pb.gz", gzip.compress(raw + P.field_bytes(5, P.field_varint(1, 77) +
                                                            P.field_varint(2, 500))), \
        "out of range"
    yield "twovalues.pb.gz", gzip.compress(raw + P.field_bytes(2, P.packed(1, [1]) +
                                                               P.packed(2, [1, 2]))), "2 values"
    yield "bad.folded", b"main;f 3\nmain;g three\n", "line 2: expected"
    yield "nocount.folded", b"main\n", "line 1: expected"
    yield "broken.json", b'{"profiles": [', "broken.json: line"
    yield "gecko.json", b'{"meta": {}, "threads": []}', "Firefox Profiler (Gecko) file with no threads"
    gecko = '{"meta": {}, "threads": [{"stringTable": ["a"], ' \
        '"frameTable": {"schema": {"location": 0}, "data": [[%s]]}, ' \
        '"stackTable": {"schema": {"prefix": 0, "frame": 1}, "data": [[null, 0], [%s, 0]]}, ' \
        '"samples": {"schema": {"stack": 0, "weight": 1}, "data": [[%s, %s]]}}]}'
    yield "badprefix.gecko.json", (gecko % ("0", "1", "1", "1")).encode(), \
        "stack 1: prefix out of range"
    yield "badloc.gecko.json", (gecko % ("5", "0", "1", "1")).encode(), \
        "frame 0: location is not a string index"
    yield "badstack.gecko.json", (gecko % ("0", "0", "2", "1")).encode(), \
        "sample 0: stack out of range"
    yield "nostack.gecko.json", (gecko % ("0", "0", "null", "1")).encode(), "sample 0: no stack"
    yield "badweight.gecko.json", (gecko % ("0", "0", "1", "-3")).encode(), \
        "weight is not a non-negative integer"
    yield "processed.json", b'{"meta": {"preprocessedProfileVersion": 50}, "threads": [{"samples": ' \
        b'{"stack": [0], "length": 1}, "frameTable": {"length": 0}}]}', "saved after processing"
    yield "picture.svg", b'<?xml version="1.0"?>\n<svg></svg>\n', "an SVG picture"
    yield "badindex.json", b'{"shared":{"frames":[{"name":"a"}]},"profiles":[{"type":"sampled",' \
        b'"samples":[[0,5]],"weights":[1]}]}', "frame index out of range"


class BadProfiles(unittest.TestCase):
    def test_each_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name, data, words in bad_inputs():
                path = os.path.join(tmp, name)
                with open(path, "wb") as f:
                    f.write(data)
                for cmd in (["report", path], ["merge", path, "-o", os.path.join(tmp, "o.pb.gz")],
                            ["flamegraph", path, "-o", os.path.join(tmp, "o.svg")]):
                    with self.subTest(file=name, cmd=cmd[0]):
                        r = P.cli(*cmd, check=False)
                        self.assertEqual(r.returncode, 65, r.stderr)
                        lines = r.stderr.splitlines()
                        self.assertEqual(len(lines), 1, r.stderr)
                        self.assertTrue(lines[0].startswith(f"error: {path}"), r.stderr)
                        self.assertIn(words, lines[0])
                        self.assertFalse(os.path.exists(os.path.join(tmp, "o.pb.gz")))

    def test_missing_file_and_usage(self):
        r = P.cli("report", "/nonexistent/p.pb.gz", check=False)
        self.assertEqual(r.returncode, 66, r.stderr)
        self.assertTrue(r.stderr.startswith("error: cannot read /nonexistent/p.pb.gz"))
        for args in (["report"], ["merge"], ["report", "--top", "x", "a"],
                     ["merge", "a", "--format", "png"], ["diff", "a", "b", "-o", "d.pb.gz"],
                     ["diff", "a", "b", "--format", "gecko"]):
            r = P.cli(*args, check=False)
            self.assertEqual(r.returncode, 64, (args, r.stderr))
            self.assertTrue(r.stderr.startswith("error: "), r.stderr)


if __name__ == "__main__":
    ctest_status.main()
