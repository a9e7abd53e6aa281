#!/usr/bin/env python3
"""Runs a command and passes only if it exits with exactly the given status
(and was not killed by a signal) and, with --stderr-has, its standard error
contains TEXT: `expect_status.py STATUS [--stderr-has TEXT] -- CMD ARGS...`."""
import subprocess
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 3:
        sys.exit("usage: expect_status.py STATUS [--stderr-has TEXT] -- CMD [ARGS...]")
    want = int(args[0])
    args = args[1:]
    needle = None
    if args[0] == "--stderr-has" and len(args) > 2:
        needle, args = args[1], args[2:]
    if args[0] != "--" or len(args) < 2:
        sys.exit("usage: expect_status.py STATUS [--stderr-has TEXT] -- CMD [ARGS...]")
    run = subprocess.run(args[1:], stderr=subprocess.PIPE, text=True, errors="replace")
    sys.stderr.write(run.stderr)
    if run.returncode != want:
        print(f"expected exit status {want}, got {run.returncode}", file=sys.stderr)
        sys.exit(1)
    if needle is not None and needle not in run.stderr:
        print(f"expected {needle!r} in standard error", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
