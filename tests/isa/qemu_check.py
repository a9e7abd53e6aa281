#!/usr/bin/env python3
"""An ISA test guest under qemu-user, an emulator that shares no code with cli:

  qemu_check.py --cli CLI --elf GUEST.elf [--status N] [--signal SIGNAME]

runs GUEST.elf under qemu-riscv32 or qemu-riscv64 (by the ELF's class),
on a hart with C exactly when the ELF says so (EF_RISCV_RVC, as cli
decides: `-cpu rvXX,c=true|false`), and `cli execute GUEST.elf`, and
requires

  - qemu's exit status to be N (default 0: every check of the guest
    passed), the status the isa.<name> test expects of cli; or, with
    --signal, qemu to die of that signal: a fault, which cli reports as
    exit status N (70) and qemu-user as the signal Linux would send
    (SIGILL for an illegal instruction, SIGSEGV for a load or store to
    memory it may not touch, SIGBUS for a misaligned atomic);
  - cli's exit status to be the same as qemu's (N, or with --signal N);
  - the same standard output from both (the guests print nothing, so
    this is empty for all of them today).

So every expected status of tests/isa/CMakeLists.txt is confirmed by an
independent emulator. Skipped (77; a failure under CI=true,
tests/ctest_status.py) when qemu-riscvXX is not installed (Debian package
qemu-user).
"""

import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

EF_RISCV_RVC = 0x1
TIMEOUT = 30  # seconds per run
ARGS = None


def elf_class_and_rvc(path):
    """(32 or 64, whether e_flags has EF_RISCV_RVC) from the ELF header."""
    with open(path, "rb") as f:
        head = f.read(0x40)
    if head[:4] != b"\x7fELF" or head[4] not in (1, 2) or head[5] != 1:
        raise ValueError(f"{path} is not a little-endian ELF32/ELF64 file")
    xlen = 32 if head[4] == 1 else 64
    flags, = struct.unpack_from("<I", head, 0x24 if xlen == 32 else 0x30)
    return xlen, bool(flags & EF_RISCV_RVC)


def run(argv):
    return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=TIMEOUT)


def describe(code):
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


class QemuAgrees(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        xlen, rvc = elf_class_and_rvc(ARGS.elf)
        qemu = shutil.which(f"qemu-riscv{xlen}")
        if not qemu:
            raise unittest.SkipTest(f"qemu-riscv{xlen} is not installed (Debian package qemu-user)")
        cls.qemu = run([qemu, "-cpu", f"rv{xlen},c={'true' if rvc else 'false'}", ARGS.elf])
        cls.cli = run([ARGS.cli, "execute", ARGS.elf])

    def test_qemu_gives_the_expected_result(self):
        if ARGS.signal:
            want = -signal.Signals[ARGS.signal].value
        else:
            want = ARGS.status
        self.assertEqual(self.qemu.returncode, want,
                         f"qemu: {describe(self.qemu.returncode)}, expected {describe(want)}; "
                         f"qemu stderr: {self.qemu.stderr.decode(errors='replace').strip()}")

    def test_cli_gives_what_qemu_gives(self):
        if ARGS.signal:
            # A fault: qemu dies of the signal, cli exits with its status.
            self.assertLess(self.qemu.returncode, 0, "qemu did not fault")
            want = ARGS.status
        else:
            want = self.qemu.returncode
        self.assertEqual(self.cli.returncode, want,
                         f"cli: {describe(self.cli.returncode)}, qemu: "
                         f"{describe(self.qemu.returncode)}; cli stderr: "
                         f"{self.cli.stderr.decode(errors='replace').strip()}")

    def test_same_stdout(self):
        self.assertEqual(self.cli.stdout, self.qemu.stdout)


def main():
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--elf", required=True)
    ap.add_argument("--status", type=int, default=0,
                    help="the guest's exit status (with --signal: cli's, for the fault)")
    ap.add_argument("--signal", choices=["SIGILL", "SIGSEGV", "SIGBUS"],
                    help="the guest faults: qemu must die of this signal")
    ARGS, rest = ap.parse_known_args()
    if not os.path.exists(ARGS.elf):
        sys.exit(f"error: {ARGS.elf} does not exist: build the guests first")
    ctest_status.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
