"""Shared helpers of the benchmark scripts: timing a command several times
with its peak memory, and medians. Standard library only."""
import os
import statistics
import subprocess
import time


def run_once(cmd, stdin_path=None):
    """Runs cmd, returns (wall seconds, peak RSS in KiB, exit status, stderr text)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
    finally:
        if stdin_path:
            stdin.close()
    return wall, usage.ru_maxrss, proc.returncode, err.decode(errors="replace")


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


def retired_from_stats(stderr):
    for line in stderr.splitlines():
        if line.startswith("instructions: "):
            return int(line.split()[1])
    raise RuntimeError("no 'instructions:' line in cli --stats output:\n" + stderr)
