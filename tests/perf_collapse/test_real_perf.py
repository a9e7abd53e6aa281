"""`cli perf collapse` on what a real `perf record -g` / `perf script` prints.

Builds a tiny C program whose main calls a, a calls b, b calls c, and c
spins for about 0.2 s; records it with `perf record -g -F 4000`, pipes
`perf script` into `cli perf collapse` and checks (docs/PERF.md#folding-rules):

- the heaviest stack is the program's comm, then its callers down to
  main;a;b;c (root first), and stacks through main;a;b;c carry most of
  the weight;
- the weights are the sample periods: their sum is the sum of the periods
  on the sample headers;
- every output line is `frames COUNT`, sorted bytewise.

Exits 77 (skipped) when there is no perf or C compiler, or when the kernel
does not permit perf_event_open (perf_event_paranoid, containers); under
CI=true that fails instead.

Run: CLI=build/cli/cli python3 tests/perf_collapse/test_real_perf.py
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

PROGRAM = r"""
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

volatile unsigned long sink;

__attribute__((noinline)) void c(void)
{
    double end = now() + 0.2;
    while (now() < end)
        for (long i = 0; i < 1000000; i++)
            sink += (unsigned long)i;
}

__attribute__((noinline)) void b(void) { c(); sink++; }
__attribute__((noinline)) void a(void) { b(); sink++; }

int main(void)
{
    a();
    return 0;
}
"""


def fail(why):
    print("FAIL: " + why)
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, timeout=120, **kw)


def probe_perf(tmp):
    """Skips unless `perf record -g` works here."""
    if not shutil.which("perf"):
        ctest_status.skip("no perf in PATH (Debian package linux-perf)")
    probe = os.path.join(tmp, "probe.data")
    p = run(["perf", "record", "-q", "-g", "-o", probe, "--", "true"])
    if p.returncode != 0 or not os.path.exists(probe):
        reason = p.stderr.decode(errors="replace").strip().splitlines()
        ctest_status.skip("perf record is not permitted here (perf_event_open): "
                          + (reason[0] if reason else "exit %d" % p.returncode))


def build(tmp):
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not cc:
        ctest_status.skip("no C compiler")
    src, prog = os.path.join(tmp, "prog.c"), os.path.join(tmp, "prog")
    with open(src, "w") as f:
        f.write(PROGRAM)
    p = run([cc, "-O2", "-g", "-fno-omit-frame-pointer", "-o", prog, src])
    if p.returncode != 0:
        fail("cannot build the test program:\n" + p.stderr.decode(errors="replace"))
    return prog


def record_and_script(tmp, prog):
    data = os.path.join(tmp, "perf.data")
    p = run(["perf", "record", "-q", "-g", "-F", "4000", "-o", data, "--", prog])
    if p.returncode != 0:
        fail("perf record failed:\n" + p.stderr.decode(errors="replace"))
    p = run(["perf", "script", "-i", data])
    if p.returncode != 0:
        fail("perf script failed:\n" + p.stderr.decode(errors="replace"))
    return p.stdout


def header_periods(script):
    """The periods of the sample headers ("...: PERIOD EVENT:"), by hand."""
    periods = []
    for line in script.decode(errors="replace").splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            m = re.search(r":\s+(\d+)\s+\S+:\s*$", line)
            if m:
                periods.append(int(m.group(1)))
    return periods


def parse_folded(text):
    stacks = []
    lines = text.splitlines()
    if lines != sorted(lines, key=lambda l: l.encode()):
        fail("output lines are not sorted bytewise")
    for line in lines:
        m = re.fullmatch(r"(\S.*) (\d+)", line)
        if not m:
            fail("not a folded line: %r" % line)
        stacks.append((m.group(1).split(";"), int(m.group(2))))
    return stacks


def through_abc(frames):
    return frames[0] == "prog" and any(frames[i:i + 4] == ["main", "a", "b", "c"]
                                       for i in range(1, len(frames)))


def check(stacks, periods):
    if not stacks:
        fail("no stacks in the output")
    total = sum(w for _, w in stacks)
    if total != sum(periods):
        fail("weights sum to %d, the sample periods to %d" % (total, sum(periods)))
    frames, weight = max(stacks, key=lambda s: s[1])
    if frames[0] != "prog" or frames[-4:] != ["main", "a", "b", "c"]:
        fail("the heaviest stack is %s (%d of %d), not prog;...;main;a;b;c"
             % (";".join(frames), weight, total))
    abc = sum(w for f, w in stacks if through_abc(f))
    if abc * 2 <= total:
        fail("stacks through prog;...;main;a;b;c weigh only %d of %d" % (abc, total))
    print("ok: %d stacks, total %d; heaviest %s %d; through main;a;b;c %.1f%%"
          % (len(stacks), total, ";".join(frames), weight, 100.0 * abc / total))


def main():
    cli = os.environ.get("CLI") or (sys.argv[1] if len(sys.argv) > 1 else "")
    if not cli:
        fail("set CLI to the built cli (or pass it as the argument)")
    with tempfile.TemporaryDirectory() as tmp:
        probe_perf(tmp)
        prog = build(tmp)
        script = record_and_script(tmp, prog)
        p = run([cli, "perf", "collapse"], input=script)
        if p.returncode != 0 or p.stderr:
            fail("cli perf collapse: exit %d\n%s" % (p.returncode,
                                                     p.stderr.decode(errors="replace")))
        check(parse_folded(p.stdout.decode()), header_periods(script))


if __name__ == "__main__":
    main()
