#!/usr/bin/env python3
"""Runs a command and passes only if it exits with exactly the given status
(and was not killed by a signal): `expect_status.py STATUS -- CMD ARGS...`."""
import subprocess
import sys


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: expect_status.py STATUS -- CMD [ARGS...]")
    want = int(sys.argv[1])
    got = subprocess.run(sys.argv[3:]).returncode
    if got != want:
        print(f"expected exit status {want}, got {got}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
