"""ctest_status: exit statuses that tell CTest a skipped test from a passed one.

unittest.main() exits 0 on "OK (skipped=N)", which CTest counts as passed:
a test whose reference (perf, qemu, go, llvm, a cross compiler, a built
guest) is missing would pass without checking anything. Here a test
script exits 1 on any failure or error; else, when anything was skipped,
77 (the tests' SKIP_RETURN_CODE: CTest reports it as skipped) with each
reason printed, or 1 under CI=true, where every reference is installed and
a skip means one is missing; else 0.

    sys.path.insert(0, os.path.join(HERE, ".."))  # tests/
    import ctest_status
    ctest_status.main()              # instead of unittest.main()
    ctest_status.finish(result)      # after running a suite yourself
    ctest_status.skip("no perf")     # a skip decided before any test runs
"""

import os
import sys
import unittest

SKIP = 77


def skip(*reasons):
    """Exits for tests skipped for these reasons: 77, or 1 under CI=true."""
    for reason in reasons:
        print(f"skipped: {reason}", file=sys.stderr)
    _exit_skipped(reasons)


def finish(result):
    """Exits with the status for a finished unittest result."""
    if not result.wasSuccessful():
        sys.exit(1)
    if result.skipped:  # setUpClass skips included, whose tests never count as run
        for test, reason in result.skipped:
            print(f"skipped: {test.id()}: {reason}", file=sys.stderr)
        _exit_skipped([reason for _, reason in result.skipped])
    if result.testsRun == 0:
        print("error: no test ran", file=sys.stderr)
        sys.exit(1)
    sys.exit(0)


def _exit_skipped(reasons):
    if os.environ.get("CI") == "true":
        for reason in dict.fromkeys(reasons):  # each once, in order
            print(f"error: skipped under CI=true: {reason}", file=sys.stderr)
        sys.exit(1)
    sys.exit(SKIP)


def main(**kwargs):
    """unittest.main() (sys.argv passes through: `script.py Class` runs one class),
    then finish()."""
    finish(unittest.main(exit=False, **kwargs).result)
