"""Guest flamegraphs of real programs against docs/CONTRACT.md#2-guest-profiles.

Each class runs `cli execute G.elf --flamegraph F --flamegraph-raw R --stats`
(with --no-inline: the classes assert the stack rules' function frames;
Checkpoints keeps inline frames, whose counts also survive a stop) and checks the folded files against what the stack rules (docs/CONTRACT.md#how-the-stack-moves) imply for
the program's known call structure, never against the program's own
output. Every class checks the folded format (`stack COUNT` lines, sorted
bytewise, no repeated stack, counts > 0), that the sums of the counts
of both files equal `instructions: N` from --stats, and that the
interpreter alone (--engine interp) writes the same files (the first run
takes the translation tier, every block translated at its first entry).

Longjmp (guests/longjmp.c, rv32 and rv64): main -> run_search -> setjmp,
  then descend x50 -> bail -> longjmp, whose `ret` lands in run_search at
  an address no frame has as its return address: "RETURN to t" pops down
  to run_search (the nearest frame below the top whose function holds t).
  Asserted: every stack holding after_jump is `_start;main;run_search;
  after_jump` (after_jump calls nothing; nothing between run_search and
  it, no descend/bail/longjmp/setjmp below it); run_search only ever sits
  at `_start;main;run_search` (a frame leaked by one search would nest the
  next search deeper); descend frames form one unbroken run right above
  run_search, every depth 1..50 is there and none deeper (one frame per
  level, recursion kept), and only the 50th calls bail.
SaveRestore (guests/saverestore.c, -Os -msave-restore): prologues
  `jal t0, __riscv_save_N` (CALL, t0 is a link register), left by `jr t0`
  (RETURN to the return address: pop), epilogues `j __riscv_restore_N`
  (JUMP into another function: a tail call, the frame is replaced) left
  by `ret`. Asserted: save and restore frames appear; each is the leaf of
  its stack and at most one per stack (millicode calls nothing, so a frame
  above or below one is a leaked frame); save sits directly on walk, step
  and mix (each calls it), restore directly under main, walk and step (it
  replaced walk, step and mix), never on mix (mix's restore replaced mix);
  walk, step, mix and leaf sit only where the program calls them, leaf
  always the leaf; and no stack is deeper than the program's real call
  depth (_start;main;walk;step;mix;leaf: 6) + 2.
Checkpoints (fib 20, longjmp 40, verifier 4; rv32 and rv64): with
  --flamegraph-checkpoint-cycles N the run stops every N instructions and
  restarts with a new clock base for the tracer (trace.h), frames live
  across each stop; the final files must equal those of an uninterrupted
  run, for N = 10007 (fast loops between stops) and 3001 (only the
  precise ones).
Deep (deep.S at depth 3000): the exact folded and raw files, derived from
  the guest's hand-counted instructions per stack (see deep.S): D frames of
  rec, popped one by one, then D frames of recj popped at once by a
  longjmp-like return into _start; and --stats = 13 D + 27.
DeepMillion (deep.S at depth 1,000,000): push and pop at a million levels
  in bounded time and memory, without a crash. See the class for why the
  run is stopped before its flamegraph is written.

Environment: CLI (the cli binary), GUEST_DIR (<name>-rv32/64.elf),
GUEST_INPUTS (<name>.in), DEEP_GUEST (path prefix of deep.S's ELFs:
<prefix>-rv32.elf, -rv64.elf), DEEP_TIME_LIMIT (seconds, default 60),
DEEP_MEMORY_LIMIT_MB (default 2048).
Exit status: 0 passed, 1 failed, 77 a test skipped (a guest ELF or the cli
is missing; 1 under CI=true).

Run: python3 test_guest_flamegraph.py [-v] [Class[.test]]
"""

import ctypes
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

XLENS = (32, 64)
TIMEOUT = 120  # seconds for one cli run

CLI = os.environ.get("CLI", "")
GUEST_DIR = os.environ.get("GUEST_DIR", "")
GUEST_INPUTS = os.environ.get("GUEST_INPUTS", "")
DEEP_GUEST = os.environ.get("DEEP_GUEST", "")

# guests/longjmp.c: DEPTH, the descend frames at the bottom of a search.
LONGJMP_DEPTH = 50
# guests/saverestore.c: _start;main;walk;step;mix;leaf
SAVERESTORE_DEPTH = 6
MILLICODE = re.compile(r"__riscv_(save|restore)_\d+\Z")


# ---- running cli and reading folded files --------------------------------

def guest_elf(name, xlen):
    return os.path.join(GUEST_DIR, f"{name}-rv{xlen}.elf")


def require_files(*paths):
    if not CLI or not os.access(CLI, os.X_OK):
        raise unittest.SkipTest(f"no executable cli (CLI={CLI!r})")
    for p in paths:
        if not os.path.isfile(p):
            raise unittest.SkipTest(f"missing {p}")


class Run:
    def __init__(self, code, stdout, stderr, named, raw):
        self.code, self.stdout, self.stderr = code, stdout, stderr
        self.named, self.raw = named, raw
        m = re.search(r"^instructions:\s*(\d+)\s*$", stderr, re.M)
        self.instructions = int(m.group(1)) if m else None


# The engines a run may take: the translation tier where it can run (every
# block translated on its first entry, so that short loops run as
# translated code too), and the interpreter alone.
ENGINES = {"translate": ("--engine", "auto", "--translate-after", "0"),
           "interp": ("--engine", "interp")}


def run_cli(elf, input_path=None, extra=("--no-inline",), engine="translate"):
    """cli execute elf --flamegraph --flamegraph-raw --stats (and `extra`)
    under `engine` (ENGINES): a Run with the text of both files (None when
    one was not written)."""
    with tempfile.TemporaryDirectory() as tmp:
        named, raw = os.path.join(tmp, "g.folded"), os.path.join(tmp, "g.raw.folded")
        argv = [CLI, "execute", elf, "--flamegraph", named, "--flamegraph-raw", raw,
                "--stats", *ENGINES[engine], *extra]
        if input_path:
            argv += ["--private-input", input_path]
        p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT)
        texts = []
        for path in (named, raw):
            try:
                with open(path, "rb") as f:
                    texts.append(f.read().decode())
            except FileNotFoundError:
                texts.append(None)
        return Run(p.returncode, p.stdout, p.stderr.decode(errors="replace"), *texts)


def parse_folded(test, text, what):
    """[(frames tuple, count)] of a folded file, after checking its format:
    `stack COUNT` lines, count > 0, sorted bytewise, no stack twice."""
    test.assertIsNotNone(text, f"{what}: not written")
    test.assertTrue(text.endswith("\n"), f"{what}: no final newline")
    lines = text[:-1].split("\n")
    encoded = [line.encode() for line in lines]
    test.assertEqual(encoded, sorted(encoded), f"{what}: lines not sorted bytewise")
    stacks, seen = [], set()
    for line in lines:
        m = re.fullmatch(r"(\S+) ([1-9][0-9]*)", line)
        test.assertIsNotNone(m, f"{what}: malformed line {line[:200]!r}")
        test.assertNotIn(m.group(1), seen, f"{what}: stack twice: {line[:200]!r}")
        seen.add(m.group(1))
        frames = tuple(m.group(1).split(";"))
        test.assertTrue(all(frames), f"{what}: empty frame in {line[:200]!r}")
        stacks.append((frames, int(m.group(2))))
    return stacks


class GuestTest(unittest.TestCase):
    maxDiff = 4000

    def checked_run(self, elf, input_path=None, extra=("--no-inline",), stdout=None):
        """Runs cli; requires exit 0, both files well formed, both sums
        equal to --stats, and the interpreter alone to give the same files
        and output. Returns (run, named stacks, raw stacks)."""
        r = run_cli(elf, input_path, extra)
        self.assertEqual(r.code, 0, f"cli exit {r.code}, stderr:\n{r.stderr}")
        i = run_cli(elf, input_path, extra, engine="interp")
        self.assertEqual((i.code, i.stdout, i.instructions), (r.code, r.stdout, r.instructions),
                         "--engine interp: another exit status, stdout or count")
        self.assertEqual(i.named, r.named, "--engine interp: another --flamegraph")
        self.assertEqual(i.raw, r.raw, "--engine interp: another --flamegraph-raw")
        if stdout is not None:
            self.assertEqual(r.stdout, stdout)
        self.assertIsNotNone(r.instructions, f"no instructions: N in\n{r.stderr}")
        named = parse_folded(self, r.named, "--flamegraph")
        raw = parse_folded(self, r.raw, "--flamegraph-raw")
        self.assertEqual(sum(c for _, c in named), r.instructions,
                         "named counts' sum != instructions of --stats")
        self.assertEqual(sum(c for _, c in raw), r.instructions,
                         "raw counts' sum != instructions of --stats")
        for frames, _ in raw:
            for f in frames:
                # with inline frames also the pc (docs/FORMATS.md, "Raw folded stacks")
                self.assertRegex(f, r"\A0x[0-9a-f]+(@0x[0-9a-f]+)?\Z", "raw frame not 0x<hex>")
        return r, named, raw


def show(frames):
    text = ";".join(frames)
    return text if len(text) < 300 else text[:140] + " ... " + text[-140:]


# ---- longjmp ---------------------------------------------------------------

class Longjmp(GuestTest):

    def test_longjmp(self):
        elfs = [guest_elf("longjmp", x) for x in XLENS]
        require_files(*elfs)
        inp = os.path.join(GUEST_INPUTS, "longjmp.in")
        for xlen, elf in zip(XLENS, elfs):
            with self.subTest(xlen=xlen):
                r, named, _ = self.checked_run(elf, inp if os.path.isfile(inp) else None)
                self.check(named)
                print(f"longjmp-rv{xlen}: {r.instructions} instructions, "
                      f"{len(named)} stacks", file=sys.stderr)

    def check(self, stacks):
        after, descend_depths = 0, set()
        for frames, count in stacks:
            self.assertEqual(frames[0], "_start", f"root is not the entry: {show(frames)}")
            if "after_jump" in frames:
                after += count
                # after_jump calls nothing: it is the leaf, right on run_search
                self.assertEqual(frames, ("_start", "main", "run_search", "after_jump"),
                                 f"after_jump not directly under main;run_search: "
                                 f"{show(frames)}")
            if "run_search" in frames:
                self.assertEqual(frames.count("run_search"), 1,
                                 f"run_search nested in itself: {show(frames)}")
                self.assertEqual(frames[:3], ("_start", "main", "run_search"),
                                 f"run_search not at _start;main: {show(frames)}")
            if "descend" in frames:
                self.assertEqual(frames[:3], ("_start", "main", "run_search"), show(frames))
                k = 0
                while 3 + k < len(frames) and frames[3 + k] == "descend":
                    k += 1
                self.assertGreater(k, 0, f"descend not right above run_search: "
                                         f"{show(frames)}")
                self.assertNotIn("descend", frames[3 + k:],
                                 f"descend chain broken: {show(frames)}")
                self.assertLessEqual(k, LONGJMP_DEPTH,
                                     f"{k} descend frames, deeper than the recursion")
                rest = frames[3 + k:]
                if rest:
                    self.assertEqual(rest[0], "bail", f"descend calls only descend "
                                                      f"and bail: {show(frames)}")
                    self.assertEqual(k, LONGJMP_DEPTH,
                                     f"bail above {k} descend frames: {show(frames)}")
                descend_depths.add(k)
            if "bail" in frames:
                self.assertIn("descend", frames, show(frames))
        self.assertGreater(after, 0, "after_jump never ran")
        self.assertEqual(descend_depths, set(range(1, LONGJMP_DEPTH + 1)),
                         "descend depths seen are not exactly 1..50")


# ---- save/restore millicode --------------------------------------------------

class SaveRestore(GuestTest):

    # where the program calls its functions: function -> allowed callers
    CALLERS = {"walk": {"main"}, "step": {"walk"}, "mix": {"step"},
               "leaf": {"step", "mix"}}

    def test_saverestore(self):
        elfs = [guest_elf("saverestore", x) for x in XLENS]
        require_files(*elfs)
        inp = os.path.join(GUEST_INPUTS, "saverestore.in")
        for xlen, elf in zip(XLENS, elfs):
            with self.subTest(xlen=xlen):
                r, named, _ = self.checked_run(elf, inp if os.path.isfile(inp) else None)
                self.check(named)
                print(f"saverestore-rv{xlen}: {r.instructions} instructions, "
                      f"{len(named)} stacks, max depth "
                      f"{max(len(f) for f, _ in named)}", file=sys.stderr)

    def check(self, stacks):
        saves_on, restores_under = set(), set()
        for frames, _ in stacks:
            self.assertEqual(frames[0], "_start", show(frames))
            self.assertLessEqual(len(frames), SAVERESTORE_DEPTH + 2,
                                 f"deeper than the program's calls: {show(frames)}")
            milli = [i for i, f in enumerate(frames) if MILLICODE.match(f)]
            self.assertLessEqual(len(milli), 1, f"leaked millicode frame: {show(frames)}")
            if milli:
                i = milli[0]
                self.assertEqual(i, len(frames) - 1,
                                 f"millicode frame is not the leaf: {show(frames)}")
                self.assertGreater(i, 0, show(frames))
                parent = frames[i - 1]
                if frames[i].startswith("__riscv_save_"):
                    saves_on.add(parent)
                else:
                    restores_under.add(parent)
                    # mix tail-calls restore, which replaces mix: restore
                    # sits under step, never on mix (nor on leaf)
                    self.assertNotIn(parent, ("mix", "leaf"),
                                     f"tail call to restore kept the caller's "
                                     f"frame: {show(frames)}")
            if "leaf" in frames:
                self.assertEqual(frames[-1], "leaf", f"leaf calls nothing: {show(frames)}")
            for i, f in enumerate(frames):
                if f in self.CALLERS:
                    self.assertIn(frames[i - 1], self.CALLERS[f],
                                  f"{f} where the program does not call it: "
                                  f"{show(frames)}")
                    if f == "walk":
                        self.assertEqual(frames[:i], ("_start", "main"), show(frames))
        self.assertTrue(saves_on, "no __riscv_save_N frame")
        self.assertTrue(restores_under, "no __riscv_restore_N frame")
        for f in ("walk", "step", "mix"):
            self.assertIn(f, saves_on, f"no __riscv_save_N called from {f}")
        for f in ("main", "walk", "step"):  # restore replaced walk, step, mix
            self.assertIn(f, restores_under, f"no __riscv_restore_N under {f}")


# ---- checkpoints -------------------------------------------------------------

class Checkpoints(GuestTest):

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.tmp = tmp.name

    def test_final_profile_unchanged(self):
        for name, text in (("fib", "20"), ("longjmp", "40"), ("verifier", "4")):
            inp = os.path.join(self.tmp, f"{name}.in")
            with open(inp, "w") as f:
                f.write(text)
            for xlen in XLENS:
                elf = guest_elf(name, xlen)
                require_files(elf, inp)
                whole, _, _ = self.checked_run(elf, inp, extra=())
                for n in (10007, 3001):
                    with self.subTest(guest=f"{name}-rv{xlen}", checkpoint=n):
                        r, _, _ = self.checked_run(
                            elf, inp, extra=("--flamegraph-checkpoint-cycles", str(n)))
                        self.assertGreater(r.instructions, 3 * n, "too short to stop often")
                        self.assertEqual(r.named, whole.named)
                        self.assertEqual(r.raw, whole.raw)


# ---- deep recursion ----------------------------------------------------------

def elf_symbols(path):
    """{name: value} of the ELF's .symtab (32 or 64 bit, little endian)."""
    with open(path, "rb") as f:
        data = f.read()
    is64 = data[4] == 2
    if is64:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    else:
        shoff, = struct.unpack_from("<I", data, 0x20)
        shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
    sections = []
    for i in range(shnum):
        off = shoff + i * shentsize
        if is64:
            _, typ, _, _, sh_off, sh_size, link, _, _, entsize = \
                struct.unpack_from("<IIQQQQIIQQ", data, off)
        else:
            _, typ, _, _, sh_off, sh_size, link, _, _, entsize = \
                struct.unpack_from("<IIIIIIIIII", data, off)
        sections.append((typ, sh_off, sh_size, link, entsize))
    syms = {}
    for typ, off, size, link, entsize in sections:
        if typ != 2:  # SHT_SYMTAB
            continue
        str_off = sections[link][1]
        for s in range(off, off + size, entsize):
            if is64:
                name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", data, s)
            else:
                name, value, _, _, _, _ = struct.unpack_from("<IIIBBH", data, s)
            end = data.index(b"\0", str_off + name)
            syms[data[str_off + name:end].decode()] = value
    return syms


def deep_input(tmp, depth, spin):
    path = os.path.join(tmp, f"deep-{depth}-{spin}.in")
    with open(path, "wb") as f:
        f.write(struct.pack("<II", depth, spin))
    return path


def deep_expected(depth, start, rec, recj):
    """The folded text deep.S must give at `depth` with frames named by the
    three given strings (counts per stack: see deep.S)."""
    stacks = {start: 33}
    for name, inner, bottom in ((rec, 8, 3), (recj, 5, 4)):
        prefix = start
        for k in range(1, depth + 1):
            prefix += ";" + name
            stacks[prefix] = inner if k < depth else bottom
    lines = sorted(f"{s} {c}".encode() for s, c in stacks.items())
    return b"\n".join(lines).decode() + "\n"


class Deep(GuestTest):
    """deep.S at a depth whose folded file stays small enough to compare
    whole: every line at depth k lists k frames, so the file grows with the
    square of the depth (3000 levels: ~40 MB named, ~70 MB raw). 3000
    frames also take the profiler's stack and trie through several
    reallocations."""

    DEPTH = 3000

    def test_deep_exact(self):
        elfs = [f"{DEEP_GUEST}-rv{x}.elf" for x in XLENS]
        require_files(*elfs)
        with tempfile.TemporaryDirectory() as tmp:
            inp = deep_input(tmp, self.DEPTH, 0)
            for xlen, elf in zip(XLENS, elfs):
                with self.subTest(xlen=xlen):
                    t0 = time.monotonic()
                    r = run_cli(elf, inp, ("--stack-size", "64M", "--no-inline"))
                    took = time.monotonic() - t0
                    self.assertEqual(r.code, 0, f"cli exit {r.code}:\n{r.stderr}")
                    self.assertEqual(r.stdout, b"done\n")
                    self.assertEqual(r.instructions, 13 * self.DEPTH + 27, r.stderr)
                    syms = elf_symbols(elf)
                    self.compare(r.named, deep_expected(self.DEPTH, "_start", "rec", "recj"),
                                 "--flamegraph")
                    self.compare(r.raw, deep_expected(
                        self.DEPTH, *(f"0x{syms[s]:x}" for s in ("_start", "rec", "recj"))),
                        "--flamegraph-raw")
                    for text, what in ((r.named, "named"), (r.raw, "raw")):
                        total = sum(int(line.rsplit(" ", 1)[1])
                                    for line in text.splitlines())
                        self.assertEqual(total, r.instructions, f"{what} sum != --stats")
                    print(f"deep-rv{xlen} depth {self.DEPTH}: {r.instructions} "
                          f"instructions, {len(r.named)} + {len(r.raw)} bytes, "
                          f"{took:.2f} s", file=sys.stderr)

    def compare(self, got, want, what):
        self.assertIsNotNone(got, f"{what} not written")
        if got == want:
            return
        g, w = got.splitlines(), want.splitlines()
        for i, (a, b) in enumerate(zip(g, w)):
            if a != b:
                self.fail(f"{what}: line {i + 1} differs:\n got  {a[-200:]!r}\n "
                          f"want {b[-200:]!r}")
        self.fail(f"{what}: {len(g)} lines, want {len(w)}")


class DeepMillion(GuestTest):
    """deep.S at 1,000,000 levels: a million pushes, a million single pops,
    then a million pushes popped at once by a longjmp-like return.

    Its complete flamegraph cannot be written by any implementation: each
    depth 1..D has its own stack with a nonzero count (the call that goes
    one level deeper is counted there), and the line of depth k lists k
    frames, so the file holds D^2/2 frames per phase: about 4.5 TB named
    at D = 1e6. So the run is watched instead: the guest writes "done\\n"
    to stdout after both phases are over and all frames are popped, then
    spins in a loop in _start; the test waits for that line, checks that
    cli is still running (no crash at any depth), reads its peak memory
    (VmHWM) and the time taken, and kills it before the end that would
    write the files. What the full flamegraph would contain is the Deep
    test's subject, at a depth where it can be compared whole: the code
    that pushes, pops and grows the stack and the trie is the same at any
    depth; what only a million levels can show is a crash, a quadratic
    cost per level, or memory out of proportion, and those are checked
    here (limits DEEP_TIME_LIMIT s, DEEP_MEMORY_LIMIT_MB)."""

    DEPTH = 1_000_000

    def test_million_levels(self):
        elfs = [f"{DEEP_GUEST}-rv{x}.elf" for x in XLENS]
        require_files(*elfs)
        limit_s = float(os.environ.get("DEEP_TIME_LIMIT", 60))
        limit_mb = float(os.environ.get("DEEP_MEMORY_LIMIT_MB", 2048))
        with tempfile.TemporaryDirectory() as tmp:
            inp = deep_input(tmp, self.DEPTH, 1)
            for xlen, elf in zip(XLENS, elfs):
                with self.subTest(xlen=xlen):
                    took, peak_mb = self.watch(tmp, elf, inp, limit_s)
                    print(f"deep-rv{xlen} depth {self.DEPTH}: 'done' after "
                          f"{took:.2f} s, peak RSS {peak_mb:.0f} MB", file=sys.stderr)
                    self.assertLess(took, limit_s)
                    self.assertLess(peak_mb, limit_mb, "peak memory (VmHWM)")

    def watch(self, tmp, elf, inp, limit_s):
        named = os.path.join(tmp, "million.folded")
        raw = os.path.join(tmp, "million.raw.folded")
        err_path = os.path.join(tmp, "million.err")
        argv = [CLI, "execute", elf, "--private-input", inp, "--stack-size", "64M",
                "--flamegraph", named, "--flamegraph-raw", raw]
        with open(err_path, "wb") as err:
            t0 = time.monotonic()
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err,
                                 preexec_fn=die_with_parent)
        try:
            out, deadline = b"", t0 + limit_s
            while b"done\n" not in out:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.fail(f"no 'done' within {limit_s:.0f} s")
                ready, _, _ = select.select([p.stdout], [], [], left)
                if ready:
                    chunk = os.read(p.stdout.fileno(), 4096)
                    if not chunk:
                        break
                    out += chunk
            took = time.monotonic() - t0
            alive = p.poll() is None
            peak_mb = vm_hwm_mb(p.pid) if alive else None
        finally:
            if p.poll() is None:
                p.kill()
            p.wait()
            p.stdout.close()
        with open(err_path, "rb") as f:
            stderr = f.read().decode(errors="replace")
        self.assertEqual(out, b"done\n", f"cli exit {p.returncode}, stderr:\n{stderr}")
        self.assertTrue(alive, f"cli ended (exit {p.returncode}) while the guest "
                               f"spins:\n{stderr}")
        self.assertEqual(stderr, "", "cli wrote to stderr")
        self.assertIsNotNone(peak_mb, "no VmHWM in /proc")
        return took, peak_mb


def die_with_parent():
    """In the child: SIGKILL when this test process dies (prctl
    PR_SET_PDEATHSIG), so an interrupted test leaves no spinning cli."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def vm_hwm_mb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


if __name__ == "__main__":
    ctest_status.main()
