"""`cli perf collapse` against inferno's collapse-perf test suite.

third_party/inferno/collapse-perf/ holds the `perf script` texts of
jonhoo/inferno's perf tests and the folded output inferno expects
(results/NAME-collapsed[-OPT].txt), and results for two inputs kept in
third_party/FlameGraph/ (perf-rust-Yamakaky-dcpu with each of the six
options, example-perf-stacks.txt.gz). Every expected file is compared
byte for byte with `cli perf collapse [--OPT]` on its input.

Where cli departs from inferno, docs/PERF.md says why, and DEPARTURES
below lists the case with the one change that accounts for it, applied
to the input, the options or the expected text (never regenerated):
  - LAST_SAMPLE: the input's last sample has no blank line after it;
    cli leaves it out as stackcollapse-perf.pl does, inferno counts it.
    Applied: a blank line appended to the input.
  - EVENT_MODIFIERS: inferno names an event without its modifiers
    (`cycles:u` is `cycles`) and so counts both events of the file as one;
    cli counts the first event as perf printed it. Applied: `--event
    cycles`, which selects both.
  - QUOTES: cli drops `'` and `"` from names as stackcollapse-perf.pl
    does; inferno keeps them (Rust lifetimes `'a`). Applied: the quotes
    removed from the expected text (inferno's own tests compare
    FlameGraph's results so).
Inputs without an expected file (empty-line, weird-stack-line: inferno
checks its warnings) are checked for ours. The counts are printed at the
end.

Run: CLI=build/cli/cli python3 tests/perf_collapse/test_inferno_suite.py
"""

import glob
import gzip
import os
import re
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import ctest_status  # noqa: E402

THIRD_PARTY = os.path.join(HERE, "..", "..", "third_party")
SUITE = os.path.join(THIRD_PARTY, "inferno", "collapse-perf")
RESULTS = os.path.join(SUITE, "results")
FLAMEGRAPH = os.path.join(THIRD_PARTY, "FlameGraph")

LAST_SAMPLE = "last sample without a blank line left out, as the script does"
EVENT_MODIFIERS = "cycles:u and cycles are two events (inferno drops modifiers)"
QUOTES = "quotes dropped from names, as the script does"

DEPARTURES = {
    ("go-stacks", None): LAST_SAMPLE,
    ("java-inline", None): LAST_SAMPLE,
    ("single-event", None): LAST_SAMPLE,
    ("versioned-vmlinux", "kernel"): LAST_SAMPLE,
    ("single-line-stacks", None): EVENT_MODIFIERS,
}
for _opt in ("pid", "tid", "kernel", "jit", "all", "addrs"):
    DEPARTURES[("perf-rust-Yamakaky-dcpu", _opt)] = QUOTES


def cases():
    """(name, option, input path, expected path) for each expected file."""
    found = []
    for expected in sorted(glob.glob(os.path.join(RESULTS, "*-collapsed*.txt"))):
        m = re.match(r"(.+)-collapsed(?:-(\w+))?\.txt$", os.path.basename(expected))
        name, opt = m.group(1), m.group(2)
        for path in (os.path.join(SUITE, name + ".txt"),
                     os.path.join(FLAMEGRAPH, "test", name + ".txt"),
                     os.path.join(FLAMEGRAPH, name + ".txt.gz")):
            if os.path.isfile(path):
                found.append((name, opt, path, expected))
                break
        else:
            raise AssertionError(f"no input for {expected}")
    return found


def read_input(path):
    with open(path, "rb") as f:
        data = f.read()
    return gzip.decompress(data) if path.endswith(".gz") else data


def collapse(args, data):
    argv = [os.environ["CLI"], "perf", "collapse", *args]
    p = subprocess.run(argv, input=data, capture_output=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"{' '.join(argv)}: exit {p.returncode}: {p.stderr.decode()}")
    return p.stdout, p.stderr.decode()


def first_difference(want, got):
    wl, gl = want.splitlines(), got.splitlines()
    for i, (x, y) in enumerate(zip(wl, gl)):
        if x != y:
            return f"line {i + 1}:\n  inferno: {x[:300]!r}\n  cli:     {y[:300]!r}"
    return f"inferno has {len(wl)} lines, cli {len(gl)}"


class InfernoSuite(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if "CLI" not in os.environ:
            raise AssertionError("CLI is not set (the path of the cli binary)")

    def test_every_expected_file(self):
        found = cases()
        self.assertEqual(len(found), 15, "third_party/inferno/collapse-perf/results")
        counts = {"identical": 0, "documented": 0}
        for name, opt, path, expected_path in found:
            with self.subTest(input=name, opt=opt or "(none)"):
                data = read_input(path)
                args = [f"--{opt}"] if opt else []
                with open(expected_path, "rb") as f:
                    expected = f.read()
                got, _ = collapse(args, data)
                departure = DEPARTURES.get((name, opt))
                if departure:
                    self.assertNotEqual(got, expected, "no longer differs: remove from DEPARTURES")
                    if departure == LAST_SAMPLE:
                        got, _ = collapse(args, data + b"\n")
                    elif departure == EVENT_MODIFIERS:
                        got, _ = collapse(args + ["--event", "cycles"], data)
                    elif departure == QUOTES:
                        expected = re.sub(rb"['\"]", b"", expected)
                counts["documented" if departure else "identical"] += 1
                self.assertTrue(got == expected, first_difference(expected, got))
        print(f"inferno suite: {counts['identical']} identical, {counts['documented']} "
              "documented, 0 unexplained", file=sys.stderr)

    def test_single_line_stacks_fold(self):
        got, err = collapse([], read_input(os.path.join(SUITE, "single-line-stacks.txt")))
        self.assertEqual(got, b"false;[unknown] 1\n")
        self.assertIn("counted only the first event, 'cycles:u'", err)

    def test_no_cpp_name_cut_inside_its_template_arguments(self):
        got, _ = collapse([], read_input(os.path.join(SUITE, "cpp-stacks-std-function.txt")))
        for line in got.decode().splitlines():
            for frame in line.rsplit(" ", 1)[0].split(";"):
                depth = frame.count("<") - frame.count(">")
                self.assertEqual(depth, 0, f"cut inside template arguments: {frame!r}")
                self.assertEqual(frame.count("(") - frame.count(")"), 0, frame)

    def test_empty_line_and_weird_line(self):
        got, err = collapse([], read_input(os.path.join(SUITE, "empty-line.txt")))
        self.assertEqual(got, b"inline-counter 250000\ninline-counter;main 250000\n")
        self.assertRegex(err, r"line 6: skipped 1 frame line that belongs to no sample")
        got, err = collapse([], read_input(os.path.join(SUITE, "weird-stack-line.txt")))
        self.assertEqual(got, b"inline-counter;main 250000\n")
        self.assertRegex(err, r"line 5: skipped a line that is not perf script output "
                              r"\('\s*THIS_IS_A_WEIRD_LINE'\)")
        self.assertRegex(err, r"line 4: left out the last sample")

    def test_no_events(self):
        got, err = collapse([], read_input(os.path.join(SUITE, "no-events.txt")))
        self.assertEqual((got, err), (b"", ""))


if __name__ == "__main__":
    ctest_status.main()
