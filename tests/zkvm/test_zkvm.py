"""`cli execute` on guests written to each zkVM's ABI (SPEC section 4).

The guests (guests/zkvm/) follow SP1's and RISC Zero's conventions: their
memory map and start code, their call numbers and registers. Each takes a
mode from its input and either runs the precompiles and I/O calls or does
one wrong thing. What is checked, against independent references:

- precompiles compute the right answers: SHA-256("abc") and Keccak-256("")
  (known digests), x * y mod m (Python's integers);
- input items are read in order, public values / journal bytes land in
  --public-output, the committed digest and journal digest in --stats
  (hashlib), halt codes become the exit status;
- a call the executor does not implement, an access outside the zkVM's
  memory, exhausted input and a guest panic end in exit 70 with one
  `error:` line naming the call or fault, the pc and the function;
- the ABI is detected from the ELF (symbols, or the call-name strings of a
  stripped RISC Zero guest), --zkvm overrides it, a RISC Zero program
  binary (R0BF) is unpacked, a damaged one refused (65);
- every ecall counts once in an [ecall:NAME] leaf under its caller, and the
  folded counts add up to the instructions --stats reports.

Run: CLI=build/cli/cli GUEST_DIR=build/guests python3 tests/zkvm/test_zkvm.py [-v]
"""

import hashlib
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
TIMEOUT = 60

KECCAK256_EMPTY = bytes.fromhex("c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470")
SHA256_ABC = hashlib.sha256(b"abc").digest()
X = 123456789**5
Y = 987654321**4
M = 2**255 - 19


SECP256K1_P = 2**256 - 2**32 - 977
SECP256K1_G = (0x79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798,
               0x483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8)
SECP256K1_2G_X = "c6047f9441ed7d6d3045406e95c07cd85c778e4b8cef3ca7abac09b95c709ee5"
BN254_P = 0x30644E72E131A029B85045B68181585D97816A916871CA8D3C208C16D87CFD47


def ec_add(p, q, prime):
    lam = (q[1] - p[1]) * pow(q[0] - p[0], -1, prime) % prime
    x = (lam * lam - p[0] - q[0]) % prime
    return x, (lam * (p[0] - x) - p[1]) % prime


def ec_double(p, prime):  # a = 0 on both curves
    lam = 3 * p[0] * p[0] * pow(2 * p[1], -1, prime) % prime
    x = (lam * lam - 2 * p[0]) % prime
    return x, (lam * (p[0] - x) - p[1]) % prime


def point(p):
    return le256(p[0]) + le256(p[1])


def read_file(path, mode):
    if not os.path.exists(path):
        return None
    with open(path, mode) as f:
        return f.read()


def le256(n):
    return n.to_bytes(32, "little")


class Run:
    def __init__(self, code, stdout, stderr, public, folded):
        self.code, self.stdout, self.stderr = code, stdout, stderr
        self.public, self.folded = public, folded

    def stat(self, key):
        for line in self.stderr.splitlines():
            if line.startswith(key + ": "):
                return line[len(key) + 2 :]
        return None

    @property
    def errors(self):
        return [line for line in self.stderr.splitlines() if line.startswith("error:")]


class ZkvmTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="zkvm-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def file(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def guest(self, name):
        path = os.path.join(GUEST_DIR, name)
        self.assertTrue(os.path.exists(path), f"{path} is not built")
        return path

    def run_cli(self, elf, inputs=(), extra=(), raw=False):
        public = os.path.join(self.tmp, "public.bin")
        folded = os.path.join(self.tmp, "out.folded")
        args = [CLI, "execute", elf, "--stats", "--public-output", public]
        args += ["--flamegraph-raw" if raw else "--flamegraph", folded]
        for i, data in enumerate(inputs):
            args += ["--input", self.file(f"in{i}", data)]
        p = subprocess.run(args + list(extra), capture_output=True, timeout=TIMEOUT)
        self.assertLess(p.returncode, 128, p.stderr.decode())
        pub = read_file(public, "rb")
        fold = read_file(folded, "r") or ""
        return Run(p.returncode, p.stdout, p.stderr.decode(), pub, fold)

    def assert_folded_sum(self, r):
        total = sum(int(line.rsplit(" ", 1)[1]) for line in r.folded.splitlines())
        self.assertEqual(total, int(r.stat("instructions")), r.folded)

    def assert_one_error(self, r, *words):
        self.assertEqual(r.code, 70, r.stderr)
        self.assertEqual(len(r.errors), 1, r.stderr)
        for w in words:
            self.assertIn(w, r.errors[0])
        self.assertRegex(r.errors[0], r" at pc 0x[0-9a-f]+ in \w+")


class Sp1(ZkvmTest):
    ITEMS = [b"\0", le256(X), le256(Y) + le256(M)]

    def full_run(self, xlen):
        r = self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"), self.ITEMS)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")  # the cycle-tracker lines are not output
        self.assertEqual(r.public, SHA256_ABC + KECCAK256_EMPTY + le256(X * Y % M))
        self.assertEqual(r.stat("committed-digest"), SHA256_ABC.hex())
        self.assertRegex(r.stat("abi"), r"^sp1 \(auto: symbol sp1_zkvm")
        self.assertRegex(r.stat("region"), r"^hashes: 1 runs, \d+ instructions")
        self.assert_folded_sum(r)
        self.assertIn("\n_start;sp1_zkvm_start;full_run;sp1_zkvm_sha256_compress;"
                      "sp1_zkvm_syscall;[ecall:SHA_EXTEND] 1\n", r.folded)
        # sp1_zkvm_sha256_compress ends in a tail call of the second syscall:
        # its frame is replaced, so SHA_COMPRESS counts under full_run.
        self.assertIn("\n_start;sp1_zkvm_start;full_run;sp1_zkvm_syscall;"
                      "[ecall:SHA_COMPRESS] 1\n", r.folded)
        for call in ("HINT_LEN", "HINT_READ"):
            self.assertIn(f"\n_start;sp1_zkvm_start;full_run;sp1_zkvm_read_item;sp1_zkvm_syscall;"
                          f"[ecall:{call}] 2\n", r.folded)
        self.assertRegex(r.folded, r";\[ecall:HALT\] 1\n")
        return r

    def test_full_run_rv32(self):
        self.full_run(32)

    def test_full_run_rv64_v6(self):
        self.full_run(64)

    def test_raw_output_keeps_ecall_frames(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), self.ITEMS, raw=True)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertRegex(r.folded, re.compile(r"^(0x[0-9a-f]+;){4}\[ecall:SHA_COMPRESS\] 1$",
                                              re.M))
        self.assert_folded_sum(r)

    def test_operands_of_its_own(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\5"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, SHA256_ABC + KECCAK256_EMPTY + le256(3 * 5 % 7))

    def test_curves(self):
        g, h = SECP256K1_G, (1, 2)  # bn254's G1 generator
        for xlen in (32, 64):
            r = self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"),
                             [b"\6", point(g), point(h)])
            self.assertEqual(r.code, 0, r.stderr)
            g2 = ec_double(g, SECP256K1_P)
            h2 = ec_double(h, BN254_P)
            want = (point(g2) + point(ec_add(g2, g, SECP256K1_P)) + point(h2)
                    + le256(h2[0] * h2[1] % BN254_P))
            self.assertEqual(r.public, want)
            # The published 2G of secp256k1, so the Python above is checked too.
            self.assertEqual(r.public[:32][::-1].hex(), SECP256K1_2G_X)
            for call in ("SECP256K1_DOUBLE", "SECP256K1_ADD", "BN254_DOUBLE", "BN254_FP_MUL"):
                self.assertIn(f";[ecall:{call}] 1\n", r.folded)

    def test_halt_code_is_the_exit_status(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\3"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.errors, [])

    def test_unsupported_precompile(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\1"])
        self.assert_one_error(r, "sp1 call ED_ADD is not supported", "sp1_zkvm_syscall")
        self.assertIn("[ecall:HINT_READ] 1", r.folded)  # the profile of what ran is written
        self.assertNotIn("ED_ADD", r.folded)  # the faulting call did not retire

    def test_access_outside_memory(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\2"])
        self.assert_one_error(r, "load from unmapped memory (address 0x78001000)", "sp1_zkvm_start")

    def test_input_exhausted(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\4"])
        self.assert_one_error(r, "HINT_READ", "input is exhausted")

    def test_item_length_mismatch(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\0", b"short"])
        self.assertEqual(r.code, 10, r.stderr)  # the guest checks the length HINT_LEN gave

    def test_linux_abi_forced(self):
        # Under the linux ABI SP1's stack top shares a page with read-only code.
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\0"], ["--zkvm", "linux"])
        self.assertEqual(r.stat("abi"), "linux (--zkvm linux)")
        self.assert_one_error(r, "store to read-only memory")


def r0bf(user, kernel):
    """A RISC Zero program binary as risc0's binfmt writes it (format 1, ABI v1compat 1.0.0)."""
    header = struct.pack("<II", 1, 8) + bytes([0, 0, 5]) + b"1.0.0"
    return (b"R0BF" + struct.pack("<II", 1, len(header)) + header + struct.pack("<I", len(user))
            + user + kernel)


class Risc0(ZkvmTest):
    INPUT = b"\0" + le256(X) + le256(Y) + le256(M)

    def check_full_run(self, r, how):
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")
        journal = SHA256_ABC + le256(X * Y % M)
        self.assertEqual(r.public, journal)
        self.assertEqual(r.stat("journal"), f"64 bytes, sha256 {hashlib.sha256(journal).hexdigest()}")
        self.assertEqual(r.stat("halt"), f"terminate, output digest {SHA256_ABC.hex()}")
        self.assertRegex(r.stat("abi"), how)
        self.assertIn("hello from the log", r.stderr)
        self.assert_folded_sum(r)
        for call, n in (("SHA", 1), ("BIGINT", 1), ("sys_write", 3), ("sys_log", 1)):
            self.assertIn(f"\n_start;risc0_zkvm_platform_start;risc0_zkvm_platform_ecall;"
                          f"[ecall:{call}] {n}\n", r.folded)
        self.assertIn("risc0_zkvm_platform_read_words;risc0_zkvm_platform_ecall;"
                      "[ecall:sys_read] 1\n", r.folded)

    def test_full_run(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [self.INPUT])
        self.check_full_run(r, r"^risc0 \(auto: symbol risc0_zkvm_platform")

    def test_input_split_over_files(self):
        # RISC Zero's fd 0 is one stream: the files follow each other.
        parts = [self.INPUT[:7], self.INPUT[7:40], self.INPUT[40:]]
        self.check_full_run(self.run_cli(self.guest("zkvm-risc0-rv32.elf"), parts), r"^risc0")

    def test_program_binary(self):
        user = read_file(self.guest("zkvm-risc0-rv32.elf"), "rb")
        path = self.file("guest.bin", r0bf(user, b"\x7fELF kernel"))
        r = self.run_cli(path, [self.INPUT])
        self.check_full_run(r, r"^risc0 \(auto: .*R0BF")

    def test_damaged_program_binary(self):
        user = read_file(self.guest("zkvm-risc0-rv32.elf"), "rb")
        whole = r0bf(user, b"k")
        for cut in (3, 10, 30, 40, len(whole) - len(user) // 2):
            p = subprocess.run([CLI, "execute", self.file("cut.bin", whole[:cut])],
                               capture_output=True, timeout=TIMEOUT)
            self.assertEqual(p.returncode, 65, (cut, p.stderr))
            self.assertEqual(len(p.stderr.decode().splitlines()), 1, p.stderr)

    def test_stripped_guest_detected_by_call_names(self):
        stripped = os.path.join(self.tmp, "stripped.elf")
        strip = shutil.which("riscv64-unknown-elf-strip")
        if not strip:
            self.skipTest("riscv64-unknown-elf-strip not installed")
        subprocess.run([strip, "-o", stripped, self.guest("zkvm-risc0-rv32.elf")], check=True)
        r = self.run_cli(stripped, [self.INPUT])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertRegex(r.stat("abi"), r'^risc0 \(auto: the file holds the string '
                         r'"risc0_zkvm_platform::syscall::nr::"\)')

    def test_halt_code_is_the_exit_status(self):
        self.assertEqual(self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\4"]).code, 7)

    def test_unsupported_call(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\1"])
        self.assert_one_error(r, "risc0 call POSEIDON2 is not supported", "risc0_zkvm_platform_ecall")

    def test_access_outside_memory(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\2"])
        self.assert_one_error(r, "(address 0xc0000000)", "risc0_zkvm_platform_start")

    def test_panic(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\3"])
        self.assert_one_error(r, "guest panicked (sys_panic): boom")

    def test_no_input(self):
        self.assertEqual(self.run_cli(self.guest("zkvm-risc0-rv32.elf")).code, 12)


SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


def be256(n):
    return n.to_bytes(32, "big")


class Lambda(ZkvmTest):
    GUEST = "zkvm-lambda-rv64.elf"
    ECHO = bytes(range(256)) * 2 + b"tail"  # 516 bytes: three DmaMemcpy calls

    def test_full_run(self):
        # Two input files make one private input, read in order.
        r = self.run_cli(self.guest(self.GUEST), [b"\0" + self.ECHO[:100], self.ECHO[100:]])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")
        sqrt4 = pow(4, (SECP256K1_P + 1) // 4, SECP256K1_P)
        self.assertEqual(sqrt4 * sqrt4 % SECP256K1_P, 4)
        want = (self.ECHO + KECCAK256_EMPTY + SHA256_ABC + be256(pow(3, -1, SECP256K1_P))
                + be256(pow(3, -1, SECP256K1_N)) + be256(sqrt4))
        self.assertEqual(r.public, want)
        self.assertRegex(r.stat("abi"), r"^lambda \(auto: symbol lambda_vm_syscalls")
        self.assert_folded_sum(r)
        self.assertRegex(r.folded, r"\n_start;lambda_vm_syscalls_main;commit_input[.\w]*;memcpy;"
                                   r"lambda_vm_syscalls_ecall;\[ecall:DmaMemcpy\] 3\n")
        calls = {}
        for line in r.folded.splitlines():
            m = re.search(r";lambda_vm_syscalls_ecall;\[ecall:(\w+)\] (\d+)$", line)
            if m:
                calls[m[1]] = calls.get(m[1], 0) + int(m[2])
        self.assertEqual(calls, {"DmaMemcpy": 4, "KeccakPermute": 1, "Sha256": 1, "Hint": 3,
                                 "Commit": 6, "Print": 1})
        self.assertRegex(r.folded, r"\n_start;\[ecall:Halt\] 1\n")

    def test_forced_by_name(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\4"], ["--zkvm", "lambda"])
        self.assertEqual(r.stat("abi"), "lambda (--zkvm lambda)")
        self.assertEqual(r.code, 42, r.stderr)

    def test_halt_code_is_the_exit_status(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\4"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.errors, [])

    def test_jump_to_zero_ends_the_run(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\5"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.errors, [])
        self.assert_folded_sum(r)

    def test_unknown_call(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\1"])
        self.assert_one_error(r, "no call has this number in a7", "lambda_vm_syscalls_ecall")

    def test_panic(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\2"])
        self.assert_one_error(r, "guest panicked (Panic): boom", "lambda_vm_syscalls_ecall")

    def test_access_past_the_top_of_memory(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\3"])
        self.assert_one_error(r, "load from unmapped memory (address 0xfffffffffffffffc)",
                              "lambda_vm_syscalls_main")

    def test_access_above_the_window(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\6"])
        self.assert_one_error(r, "load from unmapped memory (address 0x100000000)",
                              "lambda_vm_syscalls_main")

    def test_no_input(self):
        self.assertEqual(self.run_cli(self.guest(self.GUEST)).code, 8)

    def test_refuses_rv32(self):
        r = self.run_cli(self.guest("hello-rv32.elf"), extra=["--zkvm", "lambda"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("lambda_vm guests are RV64IM", r.stderr)


class Detection(ZkvmTest):
    def test_linux_guest_runs_as_linux(self):
        r = self.run_cli(self.guest("hello-rv32.elf"))
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stat("abi"), "linux (auto: no zkVM's marks in the ELF)")
        self.assertNotIn("[ecall:", r.folded)  # Linux system calls are not frames

    def test_unknown_zkvm_name(self):
        p = subprocess.run([CLI, "execute", self.guest("hello-rv32.elf"), "--zkvm", "nope"],
                           capture_output=True, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 64)
        self.assertIn("--zkvm wants auto, linux, sp1, risc0, lambda", p.stderr.decode())

    def test_risc0_refuses_rv64(self):
        r = self.run_cli(self.guest("hello-rv64.elf"), extra=["--zkvm", "risc0"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("RISC Zero guests are RV32IM", r.stderr)

    def test_segments_outside_the_memory_map(self):
        # SP1 v6 links above 0x7800_0000: outside RISC Zero's user memory.
        r = self.run_cli(self.guest("zkvm-sp1-rv64.elf"), extra=["--zkvm", "risc0"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("as a risc0 guest", r.stderr)

    def test_linux_guest_input_once(self):
        p = subprocess.run([CLI, "execute", self.guest("hello-rv32.elf"), "--input", "/dev/null",
                            "--input", "/dev/null"], capture_output=True, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 64)
        self.assertIn("give --input once", p.stderr.decode())


if __name__ == "__main__":
    unittest.main()
