"""Shared helpers of the benchmark scripts: timing a command several times
with its peak memory, and medians. Standard library only."""
import os
import re
import resource
import statistics
import subprocess
import sys
import time


PEAK_RSS = None  # path of the peak_rss helper (build/scripts/peak_rss); set by set_build()
CPU_TIME = False  # run_once times by CPU (user + system) instead of wall time; use_cpu_time()


def use_cpu_time(on):
    """Times commands by the CPU time they and their children used (user +
    system, from getrusage) instead of wall time: on a shared VM, time the
    host gives to others (steal) counts in the wall time alone, and wall-time
    ratios moved by up to 1.3x between runs."""
    global CPU_TIME
    CPU_TIME = on


def set_build(build_dir):
    """Uses the build's peak_rss helper so that RSS is the command's own."""
    global PEAK_RSS
    path = os.path.join(build_dir, "scripts", "peak_rss")
    PEAK_RSS = path if os.access(path, os.X_OK) else None
    if not PEAK_RSS:
        print(f"warning: {path} not built (make peak_rss): RSS is printed as 0", file=sys.stderr)


def build_cli(build_dir):
    """set_build(build_dir), then the path of its cli; exits with an error
    line when it has not been built."""
    set_build(build_dir)
    cli = os.path.join(build_dir, "cli", "cli")
    if not os.access(cli, os.X_OK):
        sys.exit(f"error: {cli} not found; build first (scripts/demo.sh builds {build_dir}/)")
    return cli


def require_success(cmds, runs):
    """Exits with an error line and the stderr of the first run of median_runs
    that did not exit 0, naming its command."""
    for cmd, rs in zip(cmds, runs):
        for r in rs:
            if r[2] != 0:
                sys.exit(f"error: {' '.join(cmd)} exited {r[2]}:\n{r[3]}")


def run_once(cmd, stdin_path=None):
    """Runs cmd, returns (seconds, peak RSS in KiB or 0, exit status, stderr text).
    The seconds are wall time, or CPU time after use_cpu_time(True); both
    include the small peak_rss wrapper when it is used."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(([PEAK_RSS] if PEAK_RSS else []) + cmd, stdin=stdin,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        if stdin_path:
            stdin.close()
    if CPU_TIME:
        wall = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    err = proc.stderr.decode(errors="replace")
    rss = 0
    lines = err.splitlines()
    if PEAK_RSS and lines and lines[-1].startswith("peak_rss_kib: "):
        rss = int(lines[-1].split()[1])
        err = "\n".join(lines[:-1]) + "\n"
    return wall, rss, proc.returncode, err


def median_runs(cmds, repeat, stdin_paths=None):
    """Runs the commands alternately `repeat` times; returns per-command lists of runs."""
    results = [[] for _ in cmds]
    for _ in range(repeat):
        for i, cmd in enumerate(cmds):
            stdin_path = stdin_paths[i] if stdin_paths else None
            results[i].append(run_once(cmd, stdin_path))
    return results


def median(values):
    return statistics.median(values)


def min_ratio(runs_a, runs_b):
    """b's fastest wall time / a's: the runs least disturbed by the host
    (on the shared development VM whole seconds run 20-40% slow)."""
    return min(r[0] for r in runs_b) / min(r[0] for r in runs_a)


def paired_ratio(runs_a, runs_b):
    """Median over rounds of b's wall time / a's, each from the same round
    of median_runs: the machine's slow and fast spells, which last longer
    than a round, cancel out of each ratio."""
    return statistics.median(b[0] / a[0] for a, b in zip(runs_a, runs_b))


def retired_from_stats(stderr):
    for line in stderr.splitlines():
        if line.startswith("instructions: "):
            return int(line.split()[1])
    raise RuntimeError("no 'instructions:' line in cli --stats output:\n" + stderr)


def host_instructions(cmd):
    """The host instructions cmd runs ("I refs" of valgrind --tool=cachegrind
    --cache-sim=no), which the load of a shared host does not move; exits
    with an error line if cmd fails."""
    vg = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    r = subprocess.run(vg + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"error: {' '.join(cmd)} failed:\n{r.stderr}")
    return int(m.group(1).replace(",", ""))
