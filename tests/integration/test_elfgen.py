"""Self-test of elfgen, the ELF writer the integration tests rely on: the
guests it writes must run under qemu-user (the reference) and do what they
say, so that a failure elsewhere is the cli's and not the ELF writer's.
Exits 77 (skipped) when qemu-riscv32/64 are not installed, or fails under CI=true.

Run: python3 tests/integration/test_elfgen.py [-v]
"""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from elfgen import *  # noqa: E402,F401,F403
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

XLENS = (32, 64)


def qemu(xlen):
    return shutil.which(f"qemu-riscv{xlen}")


class ElfgenUnderQemu(unittest.TestCase):

    def run_guest(self, data, xlen, stdin=b""):
        with tempfile.TemporaryDirectory() as tmp:
            path = write_elf(os.path.join(tmp, "g.elf"), data)
            p = subprocess.run([qemu(xlen), path], input=stdin,
                               capture_output=True, timeout=30)
        return p.returncode, p.stdout

    def test_exit(self):
        for xlen in XLENS:
            for code in (0, 7, 200):
                with self.subTest(xlen=xlen, code=code):
                    self.assertEqual(self.run_guest(simple_elf(exit_with(code), xlen), xlen),
                                     (code, b""))

    def test_branches_loads_stores_and_write(self):
        """Sums 1..100 in a loop, stores the sum, writes a message from the
        data segment, and exits with sum & 0xff (5050 & 0xff = 186)."""
        for xlen in XLENS:
            code = [li(T0, 100), li(T1, 0), label("loop"), add(T1, T1, T0),
                    addi(T0, T0, -1), bne(T0, ZERO, "loop"),
                    li(T2, DATA), sw(T1, T2, 8), lw(S1, T2, 8),
                    syscall(SYS_WRITE, 1, DATA, 3), mv(A0, S1), li(A7, SYS_EXIT), ecall()]
            with self.subTest(xlen=xlen):
                elf = simple_elf(code, xlen, data=b"ok\n" + bytes(13))
                self.assertEqual(self.run_guest(elf, xlen), (5050 & 0xFF, b"ok\n"))

    def test_li_values(self):
        """li of values that need lui+addi with a negative low part."""
        for xlen in XLENS:
            for value in (0x7FF, 0x800, 0x12345FFF, -0x801, 0x7FFFFFFF):
                code = [li(T0, value), li(T1, value - 5), sub(A0, T0, T1),
                        li(A7, SYS_EXIT), ecall()]
                with self.subTest(xlen=xlen, value=hex(value)):
                    self.assertEqual(self.run_guest(simple_elf(code, xlen), xlen), (5, b""))

    def test_big_endian_and_class_are_what_they_say(self):
        data = build_elf([Segment(TEXT, b"\0" * 4)], TEXT, 64, big_endian=True)
        self.assertEqual(data[:6], b"\x7fELF\x02\x02")
        self.assertEqual(data[0x18:0x20], TEXT.to_bytes(8, "big"))  # e_entry


def main():
    if not all(qemu(x) for x in XLENS):
        ctest_status.skip("qemu-riscv32/qemu-riscv64 not installed (Debian package qemu-user)")
    ctest_status.main()


if __name__ == "__main__":
    main()
