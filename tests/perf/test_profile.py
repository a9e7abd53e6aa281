"""`cli profile -- CMD` and `cli perf fold --maps FILE` (docs/PERF.md,
"Recording: cli profile"; docs/FORMATS.md, "Maps snapshot").

- Snapshot (no perf needed): perf.data files written by perfgen whose
  samples hit code no MMAP record maps: [unknown] without --maps, named
  from the ELF the snapshot maps there with it (file offsets through
  PGOFF, --addrs too); a recorded mapping wins over the snapshot; of two
  snapshot entries of a process the later wins; another process's
  entries do not apply. Bad snapshot files: one `error:` line naming the
  file and line, exit 65 (66 unreadable).
- Usage (no perf needed): --help names every flag; no command, bad -F or
  --call-graph: 64; a command not found 127, not executable 126; perf not
  on PATH, or a perf that fails before the command runs: 69 with an
  `error:` line that says what to do.
- Record (perf record permitted): the project's test programs (calls;
  threads; procs: a thread, fork and exec) profiled with `cli profile -o
  x.folded --keep-data D`: x.folded equals `perf script -i D | cli perf
  collapse`, byte for byte; the expected processes and functions are
  there; .svg and .json outputs; exit status 3 and 128+signal passed
  through; Ctrl-C (SIGINT to the process group) and SIGTERM to cli stop
  the run and still write the profile; no temporary file left; the
  --keep-maps file holds the processes' mappings.
- Attach (perf record -a permitted): procs is started, and recorded after
  a while by `perf record -a --synth=no` (no mappings of running
  processes) inside a `cli profile --keep-maps` run: its frames are
  [unknown] without --maps, and with --maps its heavy stacks are those
  `perf script` gives for a normal recording of procs.

Exits 77 (skipped) for the groups whose perf or perf permission is missing
(1 under CI=true).

Run: CLI=build/cli/cli python3 tests/perf/test_profile.py [-v] [Group]
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perftest  # noqa: E402
from perftest import (STB_GLOBAL, PerfFilesTest, Result, cli, fold,  # noqa: E402
                      folded_lines, perf_script_collapse, prog_elf, run)
from perfgen import CONTEXT_USER, PerfData  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

PROGRAMS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "programs")
CFLAGS = ["-O2", "-g", "-fno-omit-frame-pointer", "-pthread"]
EXIT_UNAVAILABLE = 69
BASE = 0x555000  # where prog.elf's text (file offset 0x1000) is mapped
FUNCS = [("main", 0x401000, 0x100, STB_GLOBAL), ("alpha", 0x401100, 0x100, STB_GLOBAL)]


def at(name, off=0x10):
    return BASE + dict((n, v) for n, v, _, _ in FUNCS)[name] - 0x401000 + off


def compile_program(name, out):
    subprocess.run(["cc", *CFLAGS, os.path.join(PROGRAMS, name + ".c"), "-o", out],
                   check=True, capture_output=True)


def stacks(text):
    """{stack: weight} of folded text."""
    out = {}
    for line in folded_lines(text):
        stack, count = line.rsplit(" ", 1)
        out[stack] = out.get(stack, 0) + int(count)
    return out


class Snapshot(PerfFilesTest):
    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.elf = os.path.join(cls.dir, "prog.elf")
        prog_elf(cls.elf, FUNCS)

    def unmapped_file(self):
        """Process 100 ("prog") sampled in prog.elf, whose MMAP record is missing."""
        p = PerfData()
        p.comm(100, 100, "prog", 5)
        p.mmap2(100, 100, 0x7000000, 0x1000, 0, "/nonexistent/libx.so", 6)
        p.sample(100, 100, 10, callchain=[CONTEXT_USER, at("alpha"), at("main")])
        p.sample(100, 100, 11, callchain=[CONTEXT_USER, 0x7000010, at("main")])
        p.fork(200, 100, 200, 100, 12)
        p.comm(200, 200, "child", 13, exec_=True)
        p.sample(200, 200, 14, callchain=[CONTEXT_USER, at("alpha")])
        p.finished_round()
        return self.write_file("unmapped.data", p.to_bytes())

    def maps(self, name, lines):
        return self.write_file(name, ("\n".join(lines) + "\n").encode())

    def folded(self, data, *flags):
        r = fold(data, *flags)
        self.assertEqual(r.code, 0, r.describe())
        return folded_lines(r.stdout)

    def test_without_maps(self):
        self.assertEqual(self.folded(self.unmapped_file()), [
            "child;[unknown] 4000",
            "prog;[unknown];[libx.so] 4000",
            "prog;[unknown];[unknown] 4000",
        ])

    def test_backfilled(self):
        maps = self.maps("prog.maps", [
            "# a comment, then a blank line",
            "",
            f"100 {BASE:x} {BASE + 0x3000:x} 1000 {self.elf}",
            f"200 0x{BASE:x} 0x{BASE + 0x1000:X} 0x1000 {self.elf}",
            # the recorded libx.so mapping wins over this one
            f"100 7000000 7001000 0 {self.elf}",
        ])
        self.assertEqual(self.folded(self.unmapped_file(), "--maps", maps), [
            "child;alpha 4000",
            "prog;main;[libx.so] 4000",
            "prog;main;alpha 4000",
        ])
        # --addrs: file offsets, as for a recorded mapping
        lines = self.folded(self.unmapped_file(), "--maps", maps, "--addrs")
        self.assertIn("prog;main;[libx.so <10>] 4000", lines)

    def test_later_entry_wins_and_pids_apart(self):
        maps = self.maps("exec.maps", [
            f"100 {BASE:x} {BASE + 0x3000:x} 1000 /nonexistent/old-image",
            f"100 {BASE:x} {BASE + 0x3000:x} 1000 {self.elf}",  # exec'd later
            f"300 {BASE:x} {BASE + 0x3000:x} 1000 /nonexistent/other",
        ])
        self.assertEqual(self.folded(self.unmapped_file(), "--maps", maps), [
            "child;[unknown] 4000",  # pid 200 has no entry of its own
            "prog;main;[libx.so] 4000",
            "prog;main;alpha 4000",
        ])

    def test_bad_maps(self):
        data = self.unmapped_file()
        cases = {
            "pid": ("abc 1000 2000 0 /bin/x", "the first field is not a process id"),
            "zero": ("0 1000 2000 0 /bin/x", "the first field is not a process id"),
            "hex": ("1 10zz 2000 0 /bin/x", "START is missing or not a hex number"),
            "short": ("1 1000 2000", "PGOFF is missing"),
            "order": ("1 2000 1000 0 /bin/x", "END 1000 is not above START 2000"),
            "path": ("1 1000 2000 0", "PATH is missing"),
            "path2": ("1 1000 2000 0   ", "PATH is missing"),
            "huge": ("1 1 11112222333344445 0 /x", "END is missing or not a hex number"),
        }
        for name, (line, why) in cases.items():
            with self.subTest(name):
                path = self.maps(f"bad-{name}.maps", ["# fine", line])
                r = fold(data, "--maps", path)
                self.assertEqual(r.code, perftest.EXIT_DATAERR, r.describe())
                self.assertEqual(len(r.errors), 1, r.describe())
                self.assertIn(f"{path}:2: {why}", r.errors[0])
                self.assertEqual(r.stdout, "")
        nul = self.write_file("nul.maps", b"1 1000 2000 0 /bin/\0x\n")
        r = fold(data, "--maps", nul)
        self.assertEqual((r.code, len(r.errors)), (perftest.EXIT_DATAERR, 1), r.describe())
        self.assertIn("NUL", r.errors[0])
        for path in (os.path.join(self.dir, "missing.maps"), self.dir):
            r = fold(data, "--maps", path)
            self.assertEqual((r.code, len(r.errors)), (perftest.EXIT_NOINPUT, 1), r.describe())
            self.assertIn(path, r.errors[0])


class Usage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="zkprof-profile-usage-")
        cls.dir = cls.tmp.name
        cls.true = shutil.which("true")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_help(self):
        r = cli("profile", "--help")
        self.assertEqual(r.code, 0, r.describe())
        for flag in ("-F", "--freq", "--call-graph", "-o", "--keep-data", "--keep-maps",
                     "--event", "--pid", "--tid", "--addrs", "--format", "--title", "--width",
                     "--minwidth", "--colors", "--inverted", "--help", "-- CMD", "128+N"):
            self.assertIn(flag, r.stdout)
        r = cli("perf", "fold", "--help")
        self.assertIn("--maps FILE", r.stdout)
        self.assertIn("profile", cli("--help").stdout)

    def usage_error(self, *args, code=64, says=""):
        r = cli("profile", *args)
        self.assertEqual(r.code, code, r.describe())
        self.assertEqual(len(r.errors), 1, r.describe())
        self.assertIn(says, r.errors[0])
        return r

    def test_usage(self):
        self.usage_error(says="no command to profile")
        self.usage_error("--", says="no command to profile")
        self.usage_error("-F", "0", "--", self.true, says="-F wants")
        self.usage_error("-F", "fast", "--", self.true, says="-F wants")
        self.usage_error("--call-graph", "lbr", "--", self.true, says="choose fp or dwarf")
        self.usage_error("--format", "png", "--", self.true, says="--format png")
        self.usage_error("--bogus", "--", self.true, says="unknown option")

    def test_command_not_runnable(self):
        self.usage_error("--", "no-such-command-zkprof", code=127, says="command not found")
        plain = os.path.join(self.dir, "plain")
        with open(plain, "w") as f:
            f.write("not a program\n")
        self.usage_error("--", plain, code=126, says="not an executable file")

    def test_perf_missing(self):
        env = dict(os.environ, PATH=self.dir)  # no perf there
        r = Result(*cli_run(["profile", "--", self.true], env))
        self.assertEqual(r.code, EXIT_UNAVAILABLE, r.describe())
        self.assertEqual(len(r.errors), 1, r.describe())
        self.assertIn("perf is not on PATH", r.errors[0])
        self.assertIn("install", r.errors[0])

    def test_perf_fails(self):
        bindir = os.path.join(self.dir, "fakeperf")
        os.makedirs(bindir, exist_ok=True)
        fake = os.path.join(bindir, "perf")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\necho 'Error: No permission to enable cpu-clock event.' >&2\n"
                    "exit 255\n")
        os.chmod(fake, 0o755)
        env = dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", ""),
                   TMPDIR=self.dir)
        out = os.path.join(self.dir, "never.folded")
        r = Result(*cli_run(["profile", "-o", out, "--", self.true], env))
        self.assertEqual(r.code, EXIT_UNAVAILABLE, r.describe())
        self.assertEqual(len(r.errors), 1, r.describe())
        self.assertIn("perf record failed before", r.errors[0])
        self.assertIn("No permission", r.stderr)  # perf's own message is kept
        self.assertFalse(os.path.exists(out))
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith("zkprof-")], [])


def cli_run(args, env):
    r = run([perftest.CLI, *args], env=env)
    return r.code, r.stdout, r.stderr


def perf_can_record(directory, *extra):
    if not perftest.have_perf() or not shutil.which("cc"):
        return False
    p = subprocess.run(["perf", "record", *extra, "-q", "-o", os.path.join(directory, "probe"),
                        "--", "true"], capture_output=True, timeout=120,
                       env=dict(os.environ, HOME=directory))
    return p.returncode == 0


class Recorded(unittest.TestCase):
    """A scratch directory with the programs built, HOME there (perf's build-id cache)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory(prefix="zkprof-profile-")
        cls.dir = cls.tmp.name
        if not perf_can_record(cls.dir, *cls.probe_flags):
            cls.tmp.cleanup()
            raise unittest.SkipTest("perf record is not installed or not permitted")
        cls.env = dict(os.environ, HOME=cls.dir, TMPDIR=os.path.join(cls.dir, "tmp"))
        os.makedirs(cls.env["TMPDIR"])
        cls.exe = {}
        for name in ("calls", "threads", "procs"):
            cls.exe[name] = os.path.join(cls.dir, name)
            compile_program(name, cls.exe[name])
        os.symlink(cls.exe["threads"], cls.exe["threads"] + "-exec")
        os.symlink(cls.exe["procs"], cls.exe["procs"] + "-exec")

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def profile(self, *args, code=0):
        r = Result(*cli_run(["profile", *args], self.env))
        self.assertEqual(r.code, code, r.describe())
        self.assertEqual(r.errors, [], r.describe())
        return r

    def path(self, name):
        return os.path.join(self.dir, name)


class DefaultCallGraph(Recorded):
    """Without --call-graph, `cli profile` records DWARF stacks for code
    without frame pointers (stripped too) and frame pointers otherwise."""
    probe_flags = ("--call-graph", "dwarf")
    DWARF_NOTE = "has no frame pointers: recording --call-graph dwarf"

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        src = os.path.join(PROGRAMS, "calls.c")
        cls.nofp = os.path.join(cls.dir, "calls-nofp")
        subprocess.run(["cc", "-O2", "-g", "-fomit-frame-pointer", src, "-o", cls.nofp],
                       check=True, capture_output=True)
        cls.stripped = cls.nofp + "-stripped"
        subprocess.run(["strip", "-o", cls.stripped, cls.nofp], check=True, capture_output=True)

    def recorded_mode(self, data):
        """The --call-graph perf record was given, from the recording's header."""
        r = subprocess.run(["perf", "report", "--header-only", "-i", data], capture_output=True,
                           text=True, env=self.env)
        cmdline = [line for line in r.stdout.splitlines() if line.startswith("# cmdline")]
        self.assertEqual(len(cmdline), 1, r.stdout + r.stderr)
        return cmdline[0].split("--call-graph ", 1)[1].split()[0]

    def test_no_frame_pointers_records_dwarf(self):
        for exe in (self.nofp, self.stripped):
            out, data = self.path("nofp.folded"), self.path("nofp.data")
            r = self.profile("-o", out, "--keep-data", data, "--", exe)
            self.assertIn(f"{exe} {self.DWARF_NOTE}", r.stderr)
            self.assertEqual(self.recorded_mode(data), "dwarf")
            if exe == self.nofp:  # the stripped file has no names to check
                with open(out) as f:
                    s = stacks(f.read())
                # every frame under main, which frame pointers would not give
                self.assertTrue(any(";main;run;alpha;beta;gamma_" in k for k in s),
                                sorted(s)[:10])

    def test_frame_pointers_kept(self):
        out, data = self.path("fp.folded"), self.path("fp.data")
        r = self.profile("-o", out, "--keep-data", data, "--", self.exe["calls"])
        self.assertNotIn(self.DWARF_NOTE, r.stderr)
        self.assertEqual(self.recorded_mode(data), "fp")

    def test_fp_forced(self):
        out, data = self.path("forced.folded"), self.path("forced.data")
        r = self.profile("--call-graph", "fp", "-o", out, "--keep-data", data, "--", self.nofp)
        self.assertNotIn(self.DWARF_NOTE, r.stderr)
        self.assertEqual(self.recorded_mode(data), "fp")


class Record(Recorded):
    probe_flags = ()

    def same_as_perf_script(self, name, *args):
        out, data = self.path(name + ".folded"), self.path(name + ".data")
        self.profile("-o", out, "--keep-data", data, "--", self.exe[name], *args)
        with open(out) as f:
            mine = f.read()
        ref = perf_script_collapse_env(data, self.env)
        self.assertEqual(ref.code, 0, ref.describe())
        if mine != ref.stdout:
            diff = set(mine.splitlines()) ^ set(ref.stdout.splitlines())
            self.fail(f"{name}: cli profile and perf script | collapse differ in {len(diff)} "
                      "lines, e.g.\n" + "\n".join(sorted(diff)[:6]))
        return stacks(mine)

    def test_calls(self):
        s = self.same_as_perf_script("calls")
        self.assertTrue(any(";main;run;alpha;" in k for k in s), list(s)[:10])

    def test_threads(self):
        s = self.same_as_perf_script("threads")
        comms = {k.split(";", 1)[0] for k in s}
        for comm in ("threads", "worker-a", "worker_b", "renamed", "threads-exec"):
            self.assertIn(comm, comms)

    def test_procs(self):
        s = self.same_as_perf_script("procs", "300")
        for comm, function in (("procs", "parent_work"), ("procs", "thread_work"),
                               ("procs-exec", "child_work"), ("procs-exec", "grandchild_work")):
            self.assertTrue(any(k.startswith(comm + ";") and f";{function};spin" in k
                                for k in s), (comm, function, sorted(s)[:20]))

    def test_formats(self):
        svg, speedscope = self.path("p.svg"), self.path("p.json")
        self.profile("-o", svg, "--title", "procs run", "--", self.exe["procs"], "100")
        with open(svg) as f:
            text = f.read()
        self.assertIn("<svg", text)
        self.assertIn("procs run", text)
        self.profile("-o", speedscope, "--", self.exe["procs"], "100")
        with open(speedscope) as f:
            doc = json.load(f)
        self.assertIn("speedscope", doc["$schema"])

    def test_exit_status(self):
        out = self.path("status.folded")
        self.profile("-o", out, "--", self.exe["procs"], "exit", "3", code=3)
        self.profile("-o", out, "--", "sh", "-c", "exit 7", code=7)
        self.profile("-o", out, "--", self.exe["procs"], "kill", "9", code=128 + 9)
        self.profile("-o", out, "--", self.exe["procs"], "kill", "11", code=128 + 11)
        self.assertTrue(os.path.exists(out))

    def test_default_output_and_bad_keep_dir(self):
        cwd = os.path.join(self.dir, "cwd")
        os.makedirs(cwd, exist_ok=True)
        p = subprocess.run([perftest.CLI, "profile", "--format", "folded", "--",
                            self.exe["procs"], "50"], env=self.env, cwd=cwd,
                           capture_output=True, timeout=300)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(os.listdir(cwd), ["profile.folded"])
        r = Result(*cli_run(["profile", "--keep-data", self.path("no/such/dir/x.data"), "--",
                             self.exe["procs"], "50"], self.env))
        self.assertEqual((r.code, len(r.errors)), (73, 1), r.describe())
        self.assertIn("no/such/dir", r.errors[0])

    def interrupted(self, name, send):
        """cli profile of a long procs run, stopped by send(process) after a second."""
        out, stop = self.path(name + ".folded"), self.path(name + ".stop")
        with open(self.path(name + ".err"), "w+") as err:
            p = subprocess.Popen([perftest.CLI, "profile", "-o", out, "--", self.exe["procs"],
                                  stop], env=self.env, stdout=subprocess.DEVNULL, stderr=err,
                                 start_new_session=True)
            try:
                time.sleep(1.5)
                send(p)
                code = p.wait(timeout=300)
            finally:
                open(stop, "w").close()  # ends what the signal left running
            err.seek(0)
            message = err.read()
        with open(out) as f:
            folded = stacks(f.read())
        self.assertTrue(any(";parent_work;spin" in k for k in folded), message)
        return code, message

    def test_ctrl_c_and_sigterm(self):
        # Ctrl-C: the terminal sends SIGINT to the whole foreground group; cli
        # waits for perf to write its file and folds it, procs died of SIGINT
        code, err = self.interrupted("int", lambda p: os.killpg(p.pid, signal.SIGINT))
        self.assertEqual(code, 128 + signal.SIGINT, err)
        # SIGTERM to cli alone: passed to perf, which stops procs with SIGTERM
        code, err = self.interrupted("term", lambda p: p.send_signal(signal.SIGTERM))
        self.assertEqual(code, 128 + signal.SIGTERM, err)

    def test_no_temporary_files_left(self):
        tmp = self.env["TMPDIR"]
        self.profile("-o", self.path("t.folded"), "--", self.exe["procs"], "50")
        self.assertEqual(os.listdir(tmp), [])
        self.profile("-o", self.path("t.folded"), "--keep-data", self.path("kept.data"), "--",
                     self.exe["procs"], "50")
        self.assertEqual([n for n in os.listdir(self.dir) if n.startswith(".zkprof")], [])
        self.assertTrue(os.path.getsize(self.path("kept.data")) > 0)

    def test_keep_maps(self):
        maps = self.path("procs.maps")
        self.profile("-o", self.path("m.folded"), "--keep-maps", maps, "--",
                     self.exe["procs"], "200")
        with open(maps) as f:
            lines = [line.rstrip("\n") for line in f if not line.startswith("#")]
        real = os.path.realpath(self.exe["procs"])
        pids = set()
        for line in lines:
            pid, start, end, pgoff, path = line.split(" ", 4)
            self.assertLess(int(start, 16), int(end, 16))
            int(pgoff, 16)
            if path == real:
                pids.add(int(pid))
        self.assertGreaterEqual(len(pids), 3, lines)  # procs, the exec'd child, its child
        r = fold(self.path("m.folded"), "--maps", maps)  # the file reads back (not perf.data)
        self.assertNotIn(f"{maps}:", r.stderr)


def perf_script_collapse_env(data, env):
    return perftest.perf_script_collapse(data, env=env, timeout=300)


def spin_stacks(folded):
    """{stack without its comm frame: weight} of the stacks that end in spin."""
    out = {}
    for stack, weight in folded.items():
        frames = stack.split(";", 1)[1] if ";" in stack else ""
        if frames.endswith(";spin"):
            out[frames] = out.get(frames, 0) + weight
    return out


def heavy(s, share=0.05):
    total = sum(s.values())
    return {k for k, v in s.items() if v >= share * total}


class Attach(Recorded):
    probe_flags = ("-a",)

    def test_backfill(self):
        procs = self.exe["procs"]
        stop, inner = self.path("stop"), self.path("attach.data")
        maps = self.path("attach.maps")
        # Attach only once the grandchild runs (procs creates STOP.ready
        # then): any later exec or mmap would be recorded, naming frames.
        script = (f"{procs} {stop} & "
                  f"while [ ! -e {stop}.ready ]; do sleep 0.05; done; sleep 0.2; "
                  f"perf record -q -a --synth=no -g -o {inner} -- sleep 0.6; "
                  f"touch {stop}; wait")
        self.profile("-F", "49", "-o", self.path("outer.folded"), "--keep-maps", maps, "--",
                     "sh", "-c", script)
        real = os.path.realpath(procs)
        with open(maps) as f:
            pids = {line.split(" ", 1)[0] for line in f
                    if not line.startswith("#") and line.rstrip("\n").endswith(" " + real)}
        self.assertGreaterEqual(len(pids), 3)

        def of_procs(text):
            """The stacks of procs' processes (by --pid's comm-PID)."""
            return {k: v for k, v in stacks(text).items()
                    if k.split(";", 1)[0].rsplit("-", 1)[-1] in pids}

        r = fold(inner, "--pid", env=self.env)
        self.assertEqual(r.code, 0, r.describe())
        without = of_procs(r.stdout)
        self.assertGreater(sum(without.values()), 0, r.stdout[:2000])
        ours = {"spin", "parent_work", "thread_work", "child_work", "grandchild_work"}
        named_ours = [k for k in without if ours & set(k.split(";"))]
        self.assertFalse(named_ours, named_ours[:5])  # not the kernel's task_mm_cid_work
        self.assertTrue(any("[unknown]" in k for k in without))

        r = fold(inner, "--pid", "--maps", maps, env=self.env)
        self.assertEqual(r.code, 0, r.describe())
        named = spin_stacks(of_procs(r.stdout))
        self.profile("-o", self.path("normal.folded"), "--keep-data", self.path("normal.data"),
                     "--", procs, "400")
        ref = perf_script_collapse_env(self.path("normal.data"), self.env)
        reference = spin_stacks(stacks(ref.stdout))
        self.assertTrue(heavy(named) <= set(reference), (heavy(named), reference))
        self.assertTrue(heavy(reference) <= set(named), (heavy(reference), named))
        for function in ("parent_work", "thread_work", "child_work", "grandchild_work"):
            self.assertTrue(any(f";{function};spin" in k for k in named), (function, named))


def main():
    perftest.setup_cli()
    groups = {"Record": (), "Attach": ("-a",)}
    for group, flags in groups.items():
        if group in sys.argv[1:]:
            with tempfile.TemporaryDirectory() as tmp:
                if not perf_can_record(tmp, *flags):
                    ctest_status.skip(f"perf record {' '.join(flags)} is not installed or not "
                                      "permitted here (perf_event_open, perf_event_paranoid)")
    ctest_status.main()


if __name__ == "__main__":
    main()
