#!/usr/bin/env python3
"""`cli diff --summary` and `--fail-above` (docs/CI.md, docs/FORMATS.md
"Diff summaries"): the totals, the changed functions, new and vanished
ones and the zkVM calls, against tables computed here from the folded
files the profiles were made from; the exit statuses of the gate; bad
inputs; and docs/CI.md's three commands, run as written on two builds of
a bundled guest that differ in one function (fib and fib-slower).
Env: CLI, GUEST_DIR."""
import json
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "writers"))
import profiles as P  # noqa: E402
sys.path.insert(0, os.path.join(HERE, ".."))
import ctest_status  # noqa: E402

DOCS_CI = os.path.join(HERE, "..", "..", "docs", "CI.md")

BEFORE = {
    "main;verify;hash": 100,
    "main;verify;check": 50,
    "main;[ecall:SHA_COMPRESS]": 3,
    "main;io": 10,
}
AFTER = {
    "main;verify;hash": 120,
    "main;verify;check": 50,
    "main;[ecall:SHA_COMPRESS]": 5,
    "main;newfn": 7,
}


def folded(stacks):
    return "".join(f"{s} {n}\n" for s, n in stacks.items())


def markdown_table(text, header_start):
    """The rows (lists of cells) of the Markdown table whose header starts so."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(header_start))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
        rows.append([c.strip() for c in cells])
    return rows


def percent(before, after):
    return f"{(after - before) * 100 / before:+.2f}%"


class Summary(P.TempDirTest):
    def write(self, name, stacks):
        path = self.path(name)
        with open(path, "w") as f:
            f.write(folded(stacks))
        return path

    def diff(self, *args):
        return subprocess.run([P.CLI, "diff"] + list(args), capture_output=True, text=True,
                              timeout=120)

    def test_markdown_rows_and_percentages(self):
        a, b = self.write("a.folded", BEFORE), self.write("b.folded", AFTER)
        r = self.diff(a, b, "--summary", "md")
        self.assertEqual(r.returncode, 0, r.stderr)
        total_b, total_a = sum(BEFORE.values()), sum(AFTER.values())
        totals = markdown_table(r.stdout, "| weight |")
        self.assertEqual(totals, [["`samples`", f"{total_b}", f"{total_a}",
                                   f"+{total_a - total_b} ({percent(total_b, total_a)})"]])
        self_b, incl_b = P.self_inclusive(BEFORE)
        self_a, incl_a = P.self_inclusive(AFTER)
        rows = markdown_table(r.stdout, "| function |")
        names = [row[0].strip("`") for row in rows]
        # every function whose inclusive or self cost changed, but the zkVM call
        changed = {f for f in set(incl_b) | set(incl_a)
                   if (incl_b.get(f, 0), self_b.get(f, 0)) != (incl_a.get(f, 0), self_a.get(f, 0))
                   and not f.startswith("[ecall:")}
        self.assertEqual(set(names), changed)
        size = {f: max(abs(incl_a.get(f, 0) - incl_b.get(f, 0)),
                       abs(self_a.get(f, 0) - self_b.get(f, 0))) for f in changed}
        self.assertEqual(names, sorted(changed, key=lambda f: (-size[f], f.encode())))
        hash_row = rows[names.index("hash")]
        self.assertEqual(hash_row[1:4], ["100", "120", "+20 (+20.00%)"])
        self.assertEqual(rows[names.index("newfn")][3], "+7 (new)")
        self.assertEqual(rows[names.index("io")][3], "-10 (-100.00%)")
        self.assertIn("**New:** `newfn` (7)", r.stdout)
        self.assertIn("**Vanished:** `io` (10)", r.stdout)
        calls = markdown_table(r.stdout, "| call |")
        self.assertEqual(calls, [["`[ecall:SHA_COMPRESS]`", "3", "5", "+2 (+66.67%)", "3", "5",
                                  "+2 (+66.67%)"]])

    def test_text_columns_line_up(self):
        a, b = self.write("a.folded", BEFORE), self.write("b.folded", AFTER)
        r = self.diff(a, b, "--summary", "text")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        head = next(i for i, l in enumerate(lines) if l.rstrip().endswith("  function"))
        at = lines[head].rindex("function")
        rows = []
        for line in lines[head + 1:]:
            if not line.startswith(" ") or line.startswith("  new:"):
                break
            self.assertEqual(line[at - 2:at], "  ", line)  # the name starts where the header says
            rows.append(line[at:])
        self.assertEqual(rows, ["hash", "verify", "main", "io", "newfn"])
        hash_cells = lines[head + 1][:at].split()
        self.assertEqual(hash_cells[:2], ["100", "120"])

    def test_top_folds_the_rest_away(self):
        a, b = self.write("a.folded", BEFORE), self.write("b.folded", AFTER)
        r = self.diff(a, b, "--summary", "md", "--top", "2")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(len(markdown_table(r.stdout, "| function |")), 2)
        self.assertIn("<details><summary>3 more</summary>", r.stdout)

    def test_json_totals_are_the_folded_sums(self):
        a, b = self.write("a.folded", BEFORE), self.write("b.folded", AFTER)
        r = self.diff(a, b, "--summary", "json", "--top", "0")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(doc["before"], [a])
        self.assertEqual(doc["after"], [b])
        w = doc["weights"][0]
        self.assertEqual(w["total"], [sum(BEFORE.values()), sum(AFTER.values())])
        self.assertAlmostEqual(w["change_percent"],
                               (sum(AFTER.values()) - sum(BEFORE.values())) * 100
                               / sum(BEFORE.values()), places=3)
        self_b, incl_b = P.self_inclusive(BEFORE)
        self_a, incl_a = P.self_inclusive(AFTER)
        for f in w["functions"]:
            n = f["name"]
            self.assertEqual(f["inclusive"], [incl_b.get(n, 0), incl_a.get(n, 0)])
            self.assertEqual(f["self"], [self_b.get(n, 0), self_a.get(n, 0)])
            want = "new" if n not in incl_b else "vanished" if n not in incl_a else "changed"
            self.assertEqual(f["status"], want)
        self.assertEqual(doc["calls"], [{"frame": "[ecall:SHA_COMPRESS]", "calls": [3, 5],
                                         "cost": {"samples": [3, 5]}}])

    def test_gate_exit_statuses(self):
        a, b = self.write("a.folded", BEFORE), self.write("b.folded", AFTER)
        grew = (sum(AFTER.values()) - sum(BEFORE.values())) * 100 / sum(BEFORE.values())
        cases = [
            ([f"{grew + 0.1:.2f}"], 0),
            ([f"{grew - 0.1:.2f}"], 1),
            (["hash=19"], 1),  # hash grew 20%
            (["hash=20"], 0),
            (["check=0"], 0),  # unchanged
            (["samples=5", "check=0"], 1),
            (["newfn=1000"], 1),  # from nothing: any growth is too much
        ]
        for limits, status in cases:
            args = [a, b, "--summary", "text"]
            for l in limits:
                args += ["--fail-above", l]
            r = self.diff(*args)
            self.assertEqual(r.returncode, status, f"{limits}: {r.stderr}")
            self.assertIn("zkprof diff:", r.stdout)  # the summary comes first either way
            self.assertEqual(r.stderr.count("limit exceeded:"), 1 if status else 0, r.stderr)
        r = self.diff(a, b, "--fail-above", "nosuchfunction=1")
        self.assertEqual(r.returncode, 65)
        self.assertTrue(r.stderr.startswith("error: "), r.stderr)

    def test_several_runs_per_side_are_summed(self):
        a = self.write("a.folded", BEFORE)
        b = self.write("b.folded", AFTER)
        r = self.diff("--before", a, "--before", a, "--after", b, "--summary", "json")
        self.assertEqual(r.returncode, 0, r.stderr)
        doc = json.loads(r.stdout)
        self.assertEqual(doc["weights"][0]["total"], [2 * sum(BEFORE.values()),
                                                       sum(AFTER.values())])

    def test_bad_inputs(self):
        a = self.write("a.folded", BEFORE)
        empty = self.write("empty.folded", {})
        pb = self.path("two.pb.gz")
        with open(pb, "wb") as f:
            f.write(P.encode_pprof([("instructions", "count"), ("cycles", "count")],
                                   {"main;hash": [5, 9]}))
        for args, what in [
            ([empty, a], "holds no samples"),
            ([a, pb], "weigh different things"),
        ]:
            r = self.diff(*args, "--summary", "md")
            self.assertEqual(r.returncode, 65, r.stderr)
            self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
            self.assertTrue(r.stderr.startswith("error: ") and what in r.stderr, r.stderr)
        for args in (["--summary", "html", a, a], ["--fail-above", "x%", a, a],
                     ["--before", a, a, a, "--summary", "md"]):
            r = self.diff(*args)
            self.assertEqual(r.returncode, 64, r.stderr)


class CiRecipe(P.TempDirTest):
    """docs/CI.md's three commands, as written, on fib and fib-slower."""

    def recipe(self):
        with open(DOCS_CI) as f:
            text = f.read()
        block = re.search(r"## Any CI: three commands.*?```sh\n(.*?)```", text, re.S).group(1)
        commands = [l for l in block.splitlines() if l.strip()]
        self.assertEqual(len(commands), 3, block)
        return commands

    def run_recipe(self, base, head, n):
        inp = self.path("input")
        with open(inp, "w") as f:
            f.write(f"{n}\n")
        env = dict(os.environ, BASE_ELF=P.guest(base), HEAD_ELF=P.guest(head), INPUT=inp,
                   WEIGHT="instructions")
        statuses = []
        for cmd in self.recipe():
            cmd = re.sub(r"^cli ", f"'{P.CLI}' ", cmd)
            r = subprocess.run(["bash", "-c", cmd], cwd=self.dir, env=env, capture_output=True,
                               text=True, timeout=300)
            statuses.append((r.returncode, r.stderr))
        with open(self.path("summary.md")) as f:
            return statuses, f.read()

    def test_one_function_slower(self):
        (s1, s2, s3), md = self.run_recipe("fib-rv32.elf", "fib-slower-rv32.elf", 15)
        self.assertEqual((s1[0], s2[0]), (0, 0), s1[1] + s2[1])
        rows = markdown_table(md, "| function |")
        names = [row[0].strip("`") for row in rows]
        # fib_iter changed; only its callers' inclusive costs changed with it
        self.assertIn("fib_iter", names)
        for row in rows:
            if row[0] != "`fib_iter`":
                self.assertEqual(row[6], "0", row)  # no other function's self cost moved
        self.assertNotIn("fib`", " ".join(r[0] for r in rows).replace("fib_iter`", ""))
        totals = markdown_table(md, "| weight |")
        self.assertEqual(totals[0][0], "`instructions`")
        before, after = (int(totals[0][i].replace(",", "")) for i in (1, 2))
        grew = (after - before) * 100 / before
        self.assertTrue(0 < grew < 2, totals)  # one small function: under the 2% gate
        self.assertEqual(s3[0], 0, s3[1])

    def test_gate_fails_on_a_larger_change(self):
        # fib(16) against fib(15): the same program with 60% more work
        base, head = self.path("base.pb.gz"), self.path("head.pb.gz")
        for elf, n, out in (("fib-rv32.elf", 15, base), ("fib-rv32.elf", 16, head)):
            with open(self.path(f"in{n}"), "w") as f:
                f.write(f"{n}\n")
            P.cli("execute", P.guest(elf), "--input", self.path(f"in{n}"), "--weight",
                  "instructions", "--flamegraph", out)
        r = P.cli("diff", base, head, "--summary", "md", "--fail-above", "2", check=False)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("limit exceeded: instructions grew by", r.stderr)
        self.assertIn("| `fib` |", r.stdout)


if __name__ == "__main__":
    ctest_status.main()
