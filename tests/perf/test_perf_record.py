"""`cli perf fold` against `perf script | cli perf collapse` on real recordings.

Builds one of the programs in programs/ (-O2 -g -fno-omit-frame-pointer),
records it with `perf record -g -F 4000` (perf's build-id cache in a
scratch HOME), and checks (docs/PERF.md#folding-rules):

- `cli perf fold` prints exactly what `perf script | cli perf collapse`
  prints, byte for byte, by default, with --addrs, --all (--kernel
  --jit), with --pid and --tid (perf script -F +pid), and with --event;
- the program's known call structure is there (calls: main;run;alpha
  down to gamma_, the 127-entry limit under deep; threads: the names
  worker-a, worker_b, renamed and the exec'd name);
- calls only: a `perf record -z` recording (compressed records) and a
  system-wide one (`perf record -a`) fold as perf script folds them;
- the recording cut after its data section (feature sections lost)
  folds as perf script folds it, with one warning;
- calls only: after the program is rebuilt (another build id), the
  stacks are unchanged: both read the binary perf record left in the
  build-id cache; and a --call-graph dwarf recording folds to what perf
  script unwinds (tests/perf/test_perf_dwarf.py covers DWARF unwinding).

Exits 77 (skipped) without perf or a C compiler, or when the kernel does
not permit perf_event_open (perf_event_paranoid, containers); under CI=true
that fails instead.

Run: CLI=build/cli/cli python3 tests/perf/test_perf_record.py --program calls [-v]
"""

import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perftest  # noqa: E402
from perftest import fold, folded_lines, perf_script_collapse  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")
PROGRAM = None  # set in main()
CFLAGS = ["-O2", "-g", "-fno-omit-frame-pointer"]
CALLS_ONLY = []  # the tests of the calls program alone: main() leaves them out for the others


def calls_only(test):
    CALLS_ONLY.append(test.__name__)
    return test


def compile_program(name, out, variant=1):
    src = os.path.join(PROGRAMS, name + ".c")
    subprocess.run(["cc", *CFLAGS, f"-DVARIANT={variant}", src, "-o", out, "-pthread"],
                   check=True, capture_output=True)


def record(exe, data, env, *extra, args=()):
    return subprocess.run(["perf", "record", *extra, "-F", "4000", "-o", data, exe, *args],
                          capture_output=True, env=env, timeout=300)


class Recording(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="zkprof-record-")
        cls.dir = cls.tmp.name
        cls.env = dict(os.environ, HOME=cls.dir)  # perf's build-id cache: ~/.debug
        cls.exe = os.path.join(cls.dir, PROGRAM)
        compile_program(PROGRAM, cls.exe)
        if PROGRAM == "threads":
            os.symlink(cls.exe, cls.exe + "-exec")
        cls.data = os.path.join(cls.dir, "perf.data")
        r = record(cls.exe, cls.data, cls.env, "-g")
        if r.returncode != 0:
            raise AssertionError("perf record failed: " + r.stderr.decode())

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def fold_env(self, *flags):
        r = fold(self.data, *flags, env=self.env)
        self.assertEqual(r.code, 0, r.describe())
        return r

    def same(self, *flags, script_args=(), data=None, perl_check=True):
        data = data or self.data
        r = fold(data, *flags, env=self.env)
        self.assertEqual(r.code, 0, r.describe())
        mine = r
        ref = perf_script_collapse_env(data, self.env, flags, script_args, perl_check)
        self.assertEqual(ref.code, 0, ref.describe())
        if mine.stdout != ref.stdout:
            diff = set(mine.stdout.splitlines()) ^ set(ref.stdout.splitlines())
            self.fail(f"{flags}: fold and perf script | collapse differ in "
                      f"{len(diff)} lines, e.g.\n" + "\n".join(sorted(diff)[:6]))
        return mine

    def test_default(self):
        self.same()

    def test_addrs(self):
        self.same("--addrs")

    def test_annotations(self):
        # --all: kernel frames (when the recording has any) _[k]; the perl check covers it
        self.same("--all")
        self.same("--kernel", "--addrs")

    def test_pid_tid(self):
        self.same("--pid", script_args=("-F", "+pid"))
        self.same("--tid", script_args=("-F", "+pid"))

    def test_event(self):
        self.same("--event", "cpu-clock")

    def test_structure(self):
        lines = folded_lines(self.fold_env().stdout)
        stacks = [line.rsplit(" ", 1)[0] for line in lines]
        if PROGRAM == "calls":
            # gamma_ and delta are leaves that set up no frame: frame-pointer
            # unwinding skips their callers (beta, run), perf script too
            self.assertTrue(any(";main;run;alpha;" in s and s.endswith(";gamma_")
                                for s in stacks), lines[:20])
            self.assertTrue(any(s.endswith(";main;delta") for s in stacks), lines[:20])
            deepest = max(len(s.split(";")) for s in stacks)
            self.assertEqual(deepest, 128)  # comm + perf script's 127 entries
        else:
            comms = {s.split(";", 1)[0] for s in stacks}
            for name in ("worker-a", "worker_b", "renamed", "threads-exec"):
                self.assertIn(name, comms)

    @calls_only
    def test_rebuilt_binary(self):
        before = self.fold_env().stdout
        compile_program(PROGRAM, self.exe, variant=2)  # a new build id at the same path
        try:
            self.assertEqual(self.fold_env().stdout, before)
            self.same()
        finally:
            compile_program(PROGRAM, self.exe)

    @calls_only
    def test_compressed(self):
        """perf record -z: zstd-compressed records, folded as perf script folds them."""
        data = os.path.join(self.dir, "z.data")
        r = record(self.exe, data, self.env, "-z", "-g", args=("0.5",))
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        with open(data, "rb") as f:
            self.assertIn(struct.pack("<I", 81), f.read())  # a PERF_RECORD_COMPRESSED header
        mine = self.same(data=data)
        self.assertEqual(mine.warnings, [], mine.describe())
        self.same("--pid", script_args=("-F", "+pid"), data=data)

    def test_features_cut(self):
        """The file cut after its data section: the samples fold as perf script folds them."""
        cut = os.path.join(self.dir, "cut.data")
        with open(self.data, "rb") as f:
            blob = f.read()
        offset, size = struct.unpack_from("<QQ", blob, 40)
        with open(cut, "wb") as f:
            f.write(blob[:offset + size])
        mine = self.same(data=cut)
        self.assertEqual(len(mine.warnings), 1, mine.describe())
        self.assertIn("feature sections", mine.warnings[0])
        self.assertEqual(mine.stdout, self.fold_env().stdout)

    @calls_only
    def test_system_wide(self):
        """perf record -a (samples of every task, the idle one, maybe of no thread: pid -1):
        fold equals perf script | collapse, which weighs each sample by its period."""
        data = os.path.join(self.dir, "all.data")
        r = subprocess.run(["perf", "record", "-a", "-g", "-F", "999", "-o", data, self.exe,
                            "0.3"], capture_output=True, env=self.env, timeout=300)
        if r.returncode != 0:
            self.skipTest("perf record -a is not permitted here: " + r.stderr.decode()[-200:])
        # whatever else ran on the machine is in it, deleted and memfd binaries too
        # (a departure from the script, docs/PERF.md): no stackcollapse-perf.pl check
        self.same(data=data, perl_check=False)
        self.same("--tid", script_args=("-F", "+pid"), data=data, perl_check=False)

    @calls_only  # test_perf_dwarf.py covers the rest
    def test_dwarf(self):
        """--call-graph dwarf: user stacks unwound as perf script unwinds them."""
        data = os.path.join(self.dir, "dwarf.data")
        r = record(self.exe, data, self.env, "--call-graph", "dwarf", args=("0.2",))
        self.assertEqual(r.returncode, 0, r.stderr.decode())
        out = fold(data, env=self.env)
        self.assertEqual(out.code, 0, out.describe())
        ref = perf_script_collapse_env(data, self.env, (), ())
        self.assertEqual(out.stdout, ref.stdout)
        self.assertTrue(any(";main;run;alpha;beta;gamma_" in line
                            for line in folded_lines(out.stdout)), out.stdout[:500])


def perf_script_collapse_env(data, env, flags, script_args, perl_check=True):
    return perftest.perf_script_collapse(data, *flags, script_args=script_args,
                                         perl_check=perl_check, env=env, timeout=300)


def can_record(tmp):
    """perf record works here (perf_event_open permitted), as a short run shows."""
    data = os.path.join(tmp, "probe.data")
    r = subprocess.run(["perf", "record", "-g", "-o", data, "true"], capture_output=True,
                       env=dict(os.environ, HOME=tmp), timeout=60)
    return r.returncode == 0 and os.path.exists(data), r.stderr.decode()[-300:]


def main():
    global PROGRAM
    parser = argparse.ArgumentParser()
    parser.add_argument("--program", required=True, choices=["calls", "threads"])
    args, rest = parser.parse_known_args()
    PROGRAM = args.program
    if PROGRAM != "calls":
        for name in CALLS_ONLY:
            delattr(Recording, name)
    sys.argv = [sys.argv[0], *rest]
    perftest.setup_cli()
    for tool in ("perf", "cc"):
        if not shutil.which(tool):
            ctest_status.skip(f"{tool} is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        ok, why = can_record(tmp)
    if not ok:
        ctest_status.skip("perf record is not permitted here (perf_event_open): " + why)
    ctest_status.main()


if __name__ == "__main__":
    main()
