#!/usr/bin/env python3
"""Tests for `cli flamegraph` and `cli diff` (flamegraph/svg.c and friends).

Every expectation is computed here, independently, from the folded input:
the call tree, each frame's total (its own count plus its descendants'),
its left edge (its parent's edge, plus the parent's own count, plus the
totals of the siblings before it in bytewise name order), which frames
are at least --minwidth pixels wide, and, for `cli diff --folded`, the two
counts of every stack of either file.

Checked on the SVG, parsed with xml.etree (so it must be well-formed XML):

- it holds exactly the frames wider than --minwidth, each with its name
  (data-name, escaped properly: names carry < & " ' and non-ASCII), its
  total (data-count), its edge (data-start), the rect's x and width in
  proportion, its row by depth; "all" holds the grand total;
- the title, subtitle and unit show; --inverted turns the rows upside
  down; the controls of the DOM contract are there;
- `cli diff`: the after shape, red fills where a frame grew, blue where it
  shrank, data-before the before total; --folded equals difffolded.pl's
  output computed here;
- formats by -o's extension (.svg, .json, .folded) and --format;
- errors: a bad line exits 65 naming the line, a missing file 66, bad
  options 64; an empty input gives a valid SVG saying "No samples".

Run: CLI=build/cli/cli python3 tests/render/test_render.py [-v]
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CLI = os.environ.get("CLI") or os.path.join(HERE, "..", "..", "build", "cli", "cli")
SVG_NS = "{http://www.w3.org/2000/svg}"
PAD = 10
ROW = 16

NAMES = ["main", "sha256_block", "sha256_update", "memcpy", "parse", "verify",
         "std::vector<int, std::allocator<int> >::push_back", "operator&&",
         "say \"hi\"", "it's", "<alloc::vec::Vec<T> as core::ops::drop::Drop>::drop",
         "caf\u00e9_\u00fcber", "\u65e5\u672c", "a", "ab", "a b", "Z", "_start"]


def run(args, stdin=None):
    proc = subprocess.run([CLI] + args, input=stdin, capture_output=True)
    return proc.returncode, proc.stdout, proc.stderr.decode(errors="replace")


def random_folded(rng, lines=300, names=NAMES, max_depth=8):
    out = []
    for _ in range(lines):
        depth = rng.randint(1, max_depth)
        stack = [rng.choice(names) for _ in range(depth)]
        out.append(";".join(stack) + " " + str(rng.choice([1, 1, 2, 3, 10, 50, 400])))
    return "\n".join(out) + "\n"


def parse_folded(text, counts=1):
    """stack tuple -> list of counts, identical stacks merged."""
    stacks = {}
    for line in text.splitlines():
        if not line:
            continue
        parts = line.rsplit(" ", counts)
        values = [int(v) for v in parts[1:]]
        key = tuple(parts[0].split(";"))
        old = stacks.get(key, [0] * counts)
        stacks[key] = [a + b for a, b in zip(old, values)]
    return stacks


class Tree:
    """The call tree of a folded profile, laid out as flamegraph.pl does."""

    def __init__(self, stacks):
        self.self_count = {(): 0}
        for stack, count in stacks.items():
            for i in range(1, len(stack) + 1):
                self.self_count.setdefault(stack[:i], 0)
            self.self_count[stack] += count
        self.total = {p: 0 for p in self.self_count}
        for path, count in self.self_count.items():
            for i in range(len(path) + 1):
                self.total[path[:i]] += count
        self.children = {p: [] for p in self.self_count}
        for path in self.self_count:
            if path:
                self.children[path[:-1]].append(path)
        for kids in self.children.values():
            kids.sort(key=lambda p: p[-1].encode())
        self.start = {(): 0}
        todo = [()]
        while todo:
            path = todo.pop()
            offset = self.start[path] + self.self_count[path]
            for kid in self.children[path]:
                self.start[kid] = offset
                offset += self.total[kid]
                todo.append(kid)

    def frames(self, width, minwidth):
        """(depth, name, total, start) of every frame at least minwidth px wide."""
        grand = self.total[()]
        scale = (width - 2 * PAD) / grand
        out = set()
        for path, total in self.total.items():
            if total > 0 and total * scale >= minwidth:
                out.add((len(path), path[-1] if path else "all", total, self.start[path]))
        return out

    def borderline(self, width, minwidth):
        grand = self.total[()]
        scale = (width - 2 * PAD) / grand
        return any(abs(t * scale - minwidth) < 1e-6 for t in self.total.values())


def svg_frames(root):
    """(depth, name, count, start, x, width, y, fill, before) of every frame."""
    frames = []
    groups = [g for g in root.iter(SVG_NS + "g") if g.get("class") == "frame"]
    for g in groups:
        rect = g.find(SVG_NS + "rect")
        frames.append({
            "name": g.get("data-name"), "count": int(g.get("data-count")),
            "start": int(g.get("data-start")), "before": g.get("data-before"),
            "x": float(rect.get("x")), "width": float(rect.get("width")),
            "y": float(rect.get("y")), "fill": rect.get("fill"),
            "title": g.find(SVG_NS + "title").text, "text": g.find(SVG_NS + "text").text or "",
        })
    if frames:
        root_y = frames[0]["y"]
        for f in frames:
            f["depth"] = round(abs(f["y"] - root_y) / ROW)
    return frames


def by_id(root, ident):
    for el in root.iter():
        if el.get("id") == ident:
            return el
    return None


def rgb(fill):
    return tuple(int(v) for v in re.fullmatch(r"rgb\((\d+),(\d+),(\d+)\)", fill).groups())


class Base(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def write(self, name, text):
        path = os.path.join(self.tmp.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def render(self, text, *options):
        path = self.write("in.folded", text)
        rc, out, err = run(["flamegraph", path] + list(options))
        self.assertEqual(rc, 0, err)
        return ET.fromstring(out), out


class Frames(Base):
    def check_frames(self, text, width, minwidth, options):
        tree = Tree({k: v[0] for k, v in parse_folded(text).items()})
        self.assertFalse(tree.borderline(width, minwidth),
                         "a frame lies exactly on the minimum width: drawn or not, both are right")
        root, _ = self.render(text, "--width", str(width), "--minwidth", str(minwidth), *options)
        self.assertEqual(root.tag, SVG_NS + "svg")
        self.assertEqual(root.get("id"), "flamegraph")
        frames = svg_frames(root)
        got = {(f["depth"], f["name"], f["count"], f["start"]) for f in frames}
        self.assertEqual(len(got), len(frames), "a frame is drawn twice")
        self.assertEqual(got, tree.frames(width, minwidth))
        grand = tree.total[()]
        scale = (width - 2 * PAD) / grand
        for f in frames:
            self.assertAlmostEqual(f["x"], PAD + f["start"] * scale, delta=0.006)
            self.assertAlmostEqual(f["width"], f["count"] * scale, delta=0.006)
        self.assertEqual(frames[0]["name"], "all")
        self.assertEqual(frames[0]["count"], grand)
        return frames

    def test_random_profiles(self):
        rng = random.Random(1234)
        for round_ in range(6):
            text = random_folded(rng, lines=rng.randint(1, 400))
            width, minwidth = rng.choice([300, 1200, 1900]), rng.choice([0, 0.1, 1, 5])
            tree = Tree({k: v[0] for k, v in parse_folded(text).items()})
            while tree.borderline(width, minwidth):  # drawn or not, both would be right
                width += 1
            with self.subTest(round=round_):
                self.check_frames(text, width, minwidth, [])

    def test_minwidth_merges_without_losing_counts(self):
        text = "main;big 1000\nmain;tiny 1\nmain;tiny;deeper 1\nmain;zz 500\n"
        frames = self.check_frames(text, 1200, 5, [])
        names = {f["name"] for f in frames}
        self.assertNotIn("tiny", names)
        self.assertNotIn("deeper", names)
        main = next(f for f in frames if f["name"] == "main")
        self.assertEqual(main["count"], 1502)
        zz = next(f for f in frames if f["name"] == "zz")
        self.assertEqual(zz["start"], 1002)  # after big and the merged-away tiny
        # A percentage of the total works too: 1% of 1502 is 15.02.
        root, _ = self.render(text, "--minwidth", "1%")
        self.assertNotIn("tiny", {f["name"] for f in svg_frames(root)})

    def test_names_are_escaped(self):
        text = "".join(f"main;{n} {i + 1}\n" for i, n in enumerate(NAMES))
        root, raw = self.render(text, "--minwidth", "0")
        names = {f["name"] for f in svg_frames(root)}
        for n in NAMES:
            self.assertIn(n, names)
        self.assertNotIn(b"<int,", raw)
        self.assertIn(b"data-name=\"say &quot;hi&quot;\"", raw)
        self.assertIn(b"data-name=\"it&apos;s\"", raw)
        self.assertIn(b"data-name=\"operator&amp;&amp;\"", raw)

    def test_invalid_utf8_still_parses(self):
        path = os.path.join(self.tmp.name, "bad.folded")
        with open(path, "wb") as f:
            f.write(b"main;caf\xe9 3\nmain;ctl\x01x 2\n")
        rc, out, err = run(["flamegraph", path])
        self.assertEqual(rc, 0, err)
        names = {f["name"] for f in svg_frames(ET.fromstring(out))}
        self.assertIn("caf\ufffd", names)
        self.assertIn("ctl\ufffdx", names)

    def test_long_names_are_cut_with_dots(self):
        long_name = "a_function_name_far_too_long_for_its_little_box"
        root, _ = self.render(f"main;{long_name} 10\nmain;other 990\n", "--width", "1200")
        f = next(f for f in svg_frames(root) if f["name"] == long_name)
        room = int((f["width"] - 6) // 7.2)
        self.assertTrue(f["text"] == "" or f["text"].endswith(".."), f["text"])
        self.assertLessEqual(len(f["text"]), max(room, 0))
        self.assertEqual(f["title"].split(" (")[0], long_name)

    def test_title_subtitle_unit(self):
        root, _ = self.render("main;f 3\nmain 1\n", "--title", "Guest <sha256>",
                              "--subtitle", "rv32 & friends", "--unit", "instructions")
        self.assertEqual(by_id(root, "title").text, "Guest <sha256>")
        self.assertEqual(by_id(root, "subtitle").text, "rv32 & friends")
        self.assertEqual(root.get("data-unit"), "instructions")
        f = next(f for f in svg_frames(root) if f["name"] == "f")
        self.assertEqual(f["title"], "f (3 instructions, 75.00%)")
        self.assertIn("4 instructions", by_id(root, "details").text)
        for ident, text in (("unzoom", "Reset Zoom"), ("search", "Search")):
            self.assertEqual(by_id(root, ident).text, text)
        self.assertIsNotNone(by_id(root, "matched"))
        self.assertTrue(any(el.tag == SVG_NS + "script" for el in root.iter()))
        root, _ = self.render("main 1\n")
        self.assertEqual(by_id(root, "title").text, "Flame Graph")
        self.assertIsNone(by_id(root, "subtitle"))
        self.assertIn("1 samples", by_id(root, "details").text)

    def test_inverted_flips_rows(self):
        text = "main;a;b 5\nmain;c 5\n"
        up = svg_frames(self.render(text)[0])
        down = svg_frames(self.render(text, "--inverted")[0])
        y_up = {f["name"]: f["y"] for f in up}
        y_down = {f["name"]: f["y"] for f in down}
        self.assertGreater(y_up["all"], y_up["main"])
        self.assertGreater(y_up["a"], y_up["b"])
        self.assertLess(y_down["all"], y_down["main"])
        self.assertLess(y_down["a"], y_down["b"])
        for name in y_up:
            self.assertEqual(y_up["all"] - y_up[name], y_down[name] - y_down["all"])
        self.assertEqual({(f["name"], f["x"]) for f in up}, {(f["name"], f["x"]) for f in down})

    def test_stdin_and_output_file(self):
        rc, out, err = run(["flamegraph"], stdin=b"main;f 2\n")
        self.assertEqual(rc, 0, err)
        ET.fromstring(out)
        rc, out, err = run(["flamegraph", "-"], stdin=b"main;f 2\n")
        self.assertEqual(rc, 0, err)
        path = self.write("in.folded", "main;f 2\nmain 1\n")
        target = os.path.join(self.tmp.name, "out.svg")
        rc, out, err = run(["flamegraph", path, "-o", target])
        self.assertEqual((rc, out), (0, b""), err)
        ET.parse(target)
        self.assertEqual(sorted(os.listdir(self.tmp.name)), ["in.folded", "out.svg"])

    def test_formats(self):
        path = self.write("in.folded", "main;g 2\nmain;f 3\nmain;f 1\n")
        rc, out, err = run(["flamegraph", path, "--format", "folded"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(out, b"main;f 4\nmain;g 2\n")
        target = os.path.join(self.tmp.name, "out.folded")
        self.assertEqual(run(["flamegraph", path, "-o", target])[0], 0)
        with open(target, "rb") as f:
            self.assertEqual(f.read(), b"main;f 4\nmain;g 2\n")
        target = os.path.join(self.tmp.name, "out.json")
        rc, out, err = run(["flamegraph", path, "-o", target])
        self.assertEqual(rc, 0, err)
        with open(target) as f:
            doc = json.load(f)
        self.assertEqual(sum(doc["profiles"][0]["weights"]), 6)
        # --format wins over the extension.
        rc, out, err = run(["flamegraph", path, "-o", target, "--format", "svg"])
        self.assertEqual(rc, 0, err)
        ET.parse(target)

    def test_folded_roundtrip_unsorted(self):
        """Lines in any order, sharing prefixes or not, with empty frames: merged exactly."""
        rng = random.Random(7)
        alphabet = ["", "a", "ab", "a b", "b", "a-x", "a;"[:1]]
        lines = []
        for _ in range(2000):
            stack = ";".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6)))
            lines.append(f"{stack} {rng.randint(0, 9)}")
            if rng.random() < 0.3:  # a neighbour sharing a prefix
                lines.append(f"{stack};{rng.choice(alphabet)} {rng.randint(1, 9)}")
        text = "\n".join(lines) + "\n"
        expected = {}
        for stack, (count,) in parse_folded(text).items():
            if count:
                expected[";".join(stack)] = count
        want = "".join(f"{line}\n" for line in sorted(f"{k} {v}" for k, v in expected.items()))
        path = self.write("in.folded", text)
        rc, out, err = run(["flamegraph", path, "--format", "folded"])
        self.assertEqual(rc, 0, err)
        self.assertEqual(out.decode(), want)

    def test_empty_input(self):
        rc, out, err = run(["flamegraph"], stdin=b"")
        self.assertEqual(rc, 0, err)
        root = ET.fromstring(out)
        self.assertEqual(by_id(root, "empty").text, "No samples")
        self.assertEqual(svg_frames(root), [])
        self.assertIn("no samples", err)


class Diff(Base):
    def diff(self, before, after, *options):
        b = self.write("before.folded", before)
        a = self.write("after.folded", after)
        return run(["diff", b, a] + list(options))

    def test_folded_matches_difffolded(self):
        rng = random.Random(99)
        before = random_folded(rng, 200, max_depth=5)
        after = random_folded(rng, 200, max_depth=5)
        rc, out, err = self.diff(before, after, "--folded")
        self.assertEqual(rc, 0, err)
        b = parse_folded(before)
        a = parse_folded(after)
        lines = []
        for stack in set(a) | set(b):
            nb, na = b.get(stack, [0])[0], a.get(stack, [0])[0]
            if nb or na:
                lines.append(f"{';'.join(stack)} {nb} {na}")
        expected = "".join(line + "\n" for line in sorted(lines, key=lambda s: s.encode()))
        self.assertEqual(out.decode(), expected)

    def test_svg_colors_by_change(self):
        before = "main;grows 10\nmain;shrinks 40\nmain;same 5\nmain;gone 7\n"
        after = "main;grows 30\nmain;shrinks 20\nmain;same 5\nmain;new 9\n"
        rc, out, err = self.diff(before, after)
        self.assertEqual(rc, 0, err)
        root = ET.fromstring(out)
        self.assertEqual(root.get("data-diff"), "1")
        frames = {f["name"]: f for f in svg_frames(root)}
        self.assertNotIn("gone", frames)  # the after shape
        tree_b = Tree({k: v[0] for k, v in parse_folded(before).items()})
        for f in frames.values():
            path = ("main", f["name"]) if f["name"] not in ("all", "main") else \
                (() if f["name"] == "all" else ("main",))
            self.assertEqual(int(f["before"]), tree_b.total.get(path, 0), f["name"])
            r, g, b = rgb(f["fill"])
            if f["count"] > int(f["before"]):
                self.assertGreater(r, b, f["name"])
            elif f["count"] < int(f["before"]):
                self.assertGreater(b, r, f["name"])
            else:
                self.assertEqual(r, b, f["name"])
        self.assertEqual(rgb(frames["grows"]["fill"])[0], 255)
        self.assertEqual(rgb(frames["shrinks"]["fill"])[2], 255)
        self.assertIn("before: 40, delta: -20", frames["shrinks"]["title"])

    def test_one_side_from_stdin(self):
        a = self.write("after.folded", "main 2\n")
        proc = subprocess.run([CLI, "diff", "-", a, "--folded"], input=b"main 1\n",
                              capture_output=True)
        self.assertEqual(proc.stdout, b"main 1 2\n")
        self.assertEqual(run(["diff", "-", "-"])[0], 64)

    def test_errors(self):
        good = self.write("good.folded", "main 1\n")
        bad = self.write("bad.folded", "main 1\nmain;f x\n")
        rc, _, err = run(["diff", good, bad])
        self.assertEqual(rc, 65)
        self.assertIn("bad.folded: line 2", err)
        rc, _, err = run(["diff", good, os.path.join(self.tmp.name, "missing")])
        self.assertEqual(rc, 66)
        self.assertEqual(run(["diff", good])[0], 64)
        self.assertEqual(run(["diff", good, good, "--format", "json"])[0], 64)


class Errors(Base):
    def test_bad_line_names_its_number(self):
        path = self.write("bad.folded", "main;f 1\nmain;g 2\n\nno count here\n")
        rc, out, err = run(["flamegraph", path])
        self.assertEqual(rc, 65)
        self.assertEqual(out, b"")
        self.assertRegex(err, r"^error: .*bad\.folded: line 4: ")
        self.assertEqual(err.count("\n"), 1)

    def test_missing_file(self):
        rc, _, err = run(["flamegraph", os.path.join(self.tmp.name, "nope.folded")])
        self.assertEqual(rc, 66)
        self.assertTrue(err.startswith("error: "), err)

    def test_usage(self):
        path = self.write("in.folded", "main 1\n")
        for args in (["--width", "0"], ["--width", "abc"], ["--minwidth", "-1"],
                     ["--colors", "plaid"], ["--format", "png"], ["--bogus"], ["extra"],
                     ["-o"]):
            with self.subTest(args=args):
                rc, _, err = run(["flamegraph", path] + args)
                self.assertEqual(rc, 64, err)
                self.assertTrue(err.startswith("error: "), err)
        rc, out, _ = run(["flamegraph", "--help"])
        self.assertEqual(rc, 0)
        for flag in (b"--width", b"--minwidth", b"--inverted", b"--colors", b"--title",
                     b"--subtitle", b"--unit", b"--format", b"-o"):
            self.assertIn(flag, out)

    def test_output_not_half_written(self):
        path = self.write("bad.folded", "main 1\nbroken\n")
        target = self.write("out.svg", "precious")
        self.assertEqual(run(["flamegraph", path, "-o", target])[0], 65)
        with open(target) as f:
            self.assertEqual(f.read(), "precious")


if __name__ == "__main__":
    if not os.access(CLI, os.X_OK):
        print(f"cli not found at {CLI}", file=sys.stderr)
        sys.exit(1)
    ctest_status.main()
