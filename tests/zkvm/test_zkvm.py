"""`cli execute` on guests written to each zkVM's ABI (docs/CONTRACT.md#4-zkvm-guests).

The guests (guests/zkvm/) follow SP1's and RISC Zero's conventions: their
memory map and start code, their call numbers and registers. Each takes a
mode from its input and either runs the precompiles and I/O calls or does
one wrong thing. What is checked, against independent references:

- precompiles compute the right answers: SHA-256("abc") and Keccak-256("")
  (known digests), x * y mod m and k times a secp256k1 point (Python's
  integers), SHA3-256 through RISC Zero's SYS_KECCAK (hashlib; a Keccak-f
  written here from FIPS 202);
- RISC Zero's other software calls do what its host does: pipes, argv
  without arguments, assumptions (SYS_VERIFY_INTEGRITY only with
  --no-verify-assumptions), the calls its executor refuses too;
- input items are read in order, public values / journal bytes land in
  --public-output, the committed digest and journal digest in --stats
  (hashlib), halt codes become the exit status;
- a call the executor does not implement, an access outside the zkVM's
  memory, exhausted input and a guest panic end in exit 70 with one
  `error:` line naming the call or fault, the pc and the function;
- the ABI is detected from the ELF (symbols, or the call-name strings of a
  stripped RISC Zero guest), --zkvm overrides it, a RISC Zero program
  binary (R0BF) is unpacked, a damaged one refused (65);
- Jolt guests built for other I/O sizes find their input, output and
  termination word where Jolt's MemoryLayout::new (written out here) puts
  them, from --jolt-memory or the ELF's symbols; a layout that misses them
  stops at the first stray access, naming the option;
- every ecall counts once in an [ecall:NAME] leaf under its caller, and the
  folded counts add up to the instructions --stats reports.

Run: CLI=build/cli/cli GUEST_DIR=build/guests python3 tests/zkvm/test_zkvm.py [-v]
"""

import hashlib
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.environ.get("GUEST_DIR", "build/guests")
ENRICH = os.environ.get("ENRICH", "scripts/enrich_flamegraph.py")
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
SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
BLS_P = int("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9fe"
            "ffffffffaaab", 16)
BLS_G1_X = int("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb"
               "3af00adb22c6bb", 16)  # the BLS12-381 G1 generator (its standard)
P256_P = 2**256 - 2**224 + 2**192 + 2**96 - 1
P256_A = P256_P - 3
P256_G = (0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
          0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5)
# 2G on P-256, as NIST's point multiplication test vectors give it (k = 2)
P256_2G = (0x7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978,
           0x07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1)
ED_P = 2**255 - 19
ED_D = -121665 * pow(121666, -1, ED_P) % ED_P
# RFC 8032 section 5.1: the base point B (y = 4/5, x even).
ED_B = (15112221349535400772501151409588531511454012693041857206046113283949847762202,
        46316835694926478169428394003475163141307993866256225615783033603165251855960)


def ed_add(p, q):  # the twisted Edwards addition law of RFC 8032 5.1.4, affine
    t = ED_D * p[0] * q[0] * p[1] * q[1]
    x = (p[0] * q[1] + q[0] * p[1]) * pow(1 + t, -1, ED_P) % ED_P
    y = (p[1] * q[1] + p[0] * q[0]) * pow(1 - t, -1, ED_P) % ED_P
    return x, y


def sqrt_3mod4(a, p):
    r = pow(a, (p + 1) // 4, p)
    return r if r * r % p == a % p else None


def u32(n):
    return struct.pack("<I", n)


def items(blob):  # [u32 length][bytes] ...
    out = []
    while blob:
        n = struct.unpack("<I", blob[:4])[0]
        out.append(blob[4:4 + n])
        blob = blob[4 + n:]
    return out


def value(n):  # a raw argument for mode 11
    return u32(n | 1 << 31)


def ec_add(p, q, prime):
    lam = (q[1] - p[1]) * pow(q[0] - p[0], -1, prime) % prime
    x = (lam * lam - p[0] - q[0]) % prime
    return x, (lam * (p[0] - x) - p[1]) % prime


def ec_double(p, prime, a=0):
    lam = (3 * p[0] * p[0] + a) * pow(2 * p[1], -1, prime) % prime
    x = (lam * lam - 2 * p[0]) % prime
    return x, (lam * (p[0] - x) - p[1]) % prime


# bigint2 programs ("bibc" bytecode, RISC Zero's bigint2 crate): op codes and registers
CONST, LOAD, STORE, ADD, SUB, MUL, REM, QUO, INV = 2, 3, 4, 8, 9, 10, 11, 12, 14
SP, A1, A2, A3, A4, A5, A6 = 2, 11, 12, 13, 14, 15, 16


def bop(code, a=0, b=0, typ=0):
    return code | typ << 4 | a << 16 | b << 40


def arena(reg, offset=0):  # offset in 16-byte units
    return reg << 16 | offset


def bibc(ops, types=(32,), consts=()):
    out = b"bibc" + struct.pack("<5I", 1, 0, len(types), len(consts), len(ops))
    out += b"".join(struct.pack("<4Q", t, 0, 0, 0) for t in types)
    return out + struct.pack(f"<{len(consts)}Q{len(ops)}Q", *consts, *ops)


def point(p):
    return le256(p[0]) + le256(p[1])


def le(v, n):
    return v.to_bytes(n, "little")


def fp2(op, x, y, p):  # Fp2 = Fp[u] / (u^2 + 1), elements (c0, c1)
    if op == "div":
        norm = pow(y[0] * y[0] + y[1] * y[1], -1, p)
        y = (y[0] * norm % p, -y[1] * norm % p)
        op = "mul"
    if op == "mul":
        return (x[0] * y[0] - x[1] * y[1]) % p, (x[0] * y[1] + x[1] * y[0]) % p
    sign = 1 if op == "add" else -1
    return (x[0] + sign * y[0]) % p, (x[1] + sign * y[1]) % p


def bls_g1():  # the BLS12-381 G1 generator: its standard x, the root of x^3 + 4 with its y
    y = sqrt_3mod4(BLS_G1_X**3 + 4, BLS_P)
    return BLS_G1_X, y


KB_P = 0x7F000001  # KoalaBear


def kb_poseidon2(cells, degree, rounds_f, external, internal):
    # Poseidon2 over KoalaBear, 16 cells, as SP1's Plonky3 fork computes it: external layer
    # blocks [[2,3,1,1],[1,2,3,1],[1,1,2,3],[3,1,1,2]] plus the column sums; internal layer
    # 2^-32 (J + diag(-2, 1, 2, 4, ..., 2^13, 2^15)) (DiffusionMatrixKoalaBear's Montgomery shifts)
    def ext(c):
        out = []
        for i in range(0, 16, 4):
            x = c[i : i + 4]
            t01, t23 = x[0] + x[1], x[2] + x[3]
            a, b = t01 + t23 + x[1], t01 + t23 + x[3]
            out += [a + t01, a + 2 * x[2], b + t23, b + 2 * x[0]]
        return [(out[i] + sum(out[i % 4 :: 4])) % KB_P for i in range(16)]

    diag = [-2] + [1 << s for s in list(range(14)) + [15]]
    inv = pow(2**32, -1, KB_P)
    full = lambda c, rc: ext([pow((x + k) % KB_P, degree, KB_P) for x, k in zip(c, rc)])
    c = ext(list(cells))
    for r in range(rounds_f // 2):
        c = full(c, external[r])
    for k in internal:
        c[0] = pow((c[0] + k) % KB_P, degree, KB_P)
        c = [inv * (sum(c) + d * x) % KB_P for d, x in zip(diag, c)]
    for r in range(rounds_f // 2, rounds_f):
        c = full(c, external[r])
    return c


# SP1 v6's Poseidon2 round constants: RC16 of its slop-koala-bear crate (poseidon2.rs), the rows
# of the full rounds (4 before, 4 after) and the first entry of the 20 partial rounds' rows.
SP1_KB_EXTERNAL = [[int(w, 16) for w in row.split()] for row in (
    "7ee56a48 11367045 12e41941 7ebbc12b 1970b7d5 662b60e8 3e4990c6 679f91f5"
    " 350813bb 00874ad4 28a0081a 18fa5872 5f25b071 5e5d5998 5e6fd3e7 5b2e2660",
    "6f1837bf 3fe6182b 1edd7ac5 57470d00 43d486d5 1982c70f 0ea53af9 61d6165b"
    " 51639c00 2dec352c 2950e531 2d2cb947 08256cef 1a0109f6 1f51faf3 5cef1c62",
    "3d65e50e 33d91626 133d5a1e 0ff49b0d 38900cd1 2c22cc3f 28852bb2 06c65a02"
    " 7b2cf7bc 68016e1a 15e16bc0 5248149a 6dd212a0 18d6830a 5001be82 64dac34e",
    "5902b287 426583a0 0c921632 3fe028a5 245f8e49 43bb297e 7873dbd9 3cc987df"
    " 286bb4ce 640a8dcd 512a8e36 03a4cf55 481837a2 03d6da84 73726ac7 760e7fdf",
    "43e7dc24 259a5d61 27e85a3b 1b9133fa 343e5628 485cd4c2 16e269f5 165b60c6"
    " 25f683d9 124f81f9 174331f9 77344dc5 5a821dba 5fc4177f 54153bf5 5e3f1194",
    "3bdbf191 088c84a3 68256c9b 3c90bbc6 6846166a 03f4238d 463335fb 5e3d3551"
    " 6e59ae6f 32d06cc0 596293f3 6c87edb2 08fc60b5 34bcca80 24f007f3 62731c6f",
    "1e1db6c6 0ca409bb 585c1e78 56e94edc 16d22734 18e11467 7b2c3730 770075e4"
    " 35d1b18c 22be3db5 4fb1fbb7 477cb3ed 7d5311c6 5b62ae7d 559c5fa8 77f15048",
    "3211570b 490fef6a 77ec311f 2247171b 4e0ac711 2edf69c9 3b5a8850 65809421"
    " 5619b4aa 362019a7 6bf9d4ed 5b413dff 617e181e 5e7ab57b 33ad7833 3466c7ca")]
SP1_KB_INTERNAL = [int(w, 16) for w in (
    "54dfeb5d 7d40afd6 722cb316 106a4573 45a7ccdb 44061375 154077a5 45744faa 4eb5e5ee 3794e83f"
    " 47c7093c 5694903c 69cb6299 373df84c 46a0df58 46b8758a 3241ebcb 0b09d233 1af42357 1e66cec2"
).split()]


def read_file(path, mode):
    if not os.path.exists(path):
        return None
    with open(path, mode) as f:
        return f.read()


def le256(n):
    return n.to_bytes(32, "little")


def s64(n):  # a signed value as the u64 a register holds
    return (n % 2**64).to_bytes(8, "little")


# guests/zkvm/zkvm_guest.h's access_once: an operation's number, size and kind.
ACCESS_OPS = {"lb": (0, 1, "load"), "lh": (1, 2, "load"), "lhu": (2, 2, "load"),
              "lw": (3, 4, "load"), "sb": (4, 1, "store"), "sh": (5, 2, "store"),
              "sw": (6, 4, "store"), "lwu": (7, 4, "load"), "ld": (8, 8, "load"),
              "sd": (9, 8, "store"), "c.lw": (10, 4, "load"), "c.sw": (11, 4, "store"),
              "c.ld": (12, 8, "load"), "c.sd": (13, 8, "store")}


def access_result(name, offset, width):
    """What access_once returns for a well-formed access, as `width` little-endian bytes:
    its buffer holds bytes 0..31 (all below 0x80: loads need no sign), a store writes 0xff
    bytes and the buffer's first word is read back."""
    _, size, kind = ACCESS_OPS[name]
    buf = bytearray(range(32))
    if kind == "load":
        return bytes(buf[offset:offset + size]).ljust(width, b"\0")[:width]
    buf[offset:offset + size] = b"\xff" * size
    return bytes(buf[:width])


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

    def run_cli(self, elf, inputs=(), extra=(), raw=False, inline=False):
        """Runs cli; function frames only (--no-inline: the stack rules) unless `inline`."""
        public = os.path.join(self.tmp, "public.bin")
        folded = os.path.join(self.tmp, "out.folded")
        args = [CLI, "execute", elf, "--stats", "--public-output", public]
        if not inline:
            args.append("--no-inline")
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

    def check_alignment(self, abi, ops, access, width):
        """The ABI's executor traps a load or store wider than a byte whose address is not a
        multiple of its size (docs/ZKVMS.md, "Alignment"): `access(op number, offset)` runs
        the guest's access_once; it returns (Run, `width` result bytes or None)."""
        for name in ops:
            op, size, kind = ACCESS_OPS[name]
            aligned = size if size > 1 else 3  # a byte's access is aligned anywhere
            with self.subTest(op=name):
                r, got = access(op, aligned)
                self.assertEqual(r.errors, [])
                if got is not None:
                    self.assertEqual(got, access_result(name, aligned, width))
                for offset in sorted({1, size // 2} - {0}) if size > 1 else ():
                    r, _ = access(op, offset)
                    self.assert_one_error(r, f"misaligned {kind} (address 0x",
                                          f"{abi}'s executor traps loads and stores")
                    addr = int(re.search(r"address 0x([0-9a-f]+)", r.errors[0]).group(1), 16)
                    self.assertEqual(addr % 8, offset, r.errors[0])

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

    def test_inline_frames(self):
        # sha256_abc, static and called once, is inlined into full_run (-O2 -g): the
        # zkVM calls' leaves sit below its inline frame, at the ecalls' call sites,
        # also where sp1_zkvm_sha256_compress's tail call replaced its frame.
        for xlen in (32, 64):
            r = self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"), self.ITEMS, inline=True)
            self.assertEqual(r.code, 0, r.stderr)
            self.assert_folded_sum(r)
            run = "\n_start;sp1_zkvm_start;full_run;sha256_abc;"
            self.assertIn(run + "sp1_zkvm_sha256_compress;sp1_zkvm_syscall;[ecall:SHA_EXTEND] 1\n",
                          r.folded)
            self.assertIn(run + "sp1_zkvm_syscall;[ecall:SHA_COMPRESS] 1\n", r.folded)

    def test_full_run_rv32(self):
        self.full_run(32)

    def test_full_run_rv64_v6(self):
        self.full_run(64)

    def test_raw_output_keeps_ecall_frames(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), self.ITEMS, raw=True)
        self.assertEqual(r.code, 0, r.stderr)
        # with DWARF, each frame also names its pc (docs/FORMATS.md, "Raw folded stacks")
        frame = r"0x[0-9a-f]+(@0x[0-9a-f]+)?"
        self.assertRegex(r.folded, re.compile(r"^(%s;){4}\[ecall:SHA_COMPRESS\] 1$" % frame,
                                              re.M))
        self.assert_folded_sum(r)

    @unittest.skipUnless(shutil.which("llvm-addr2line"), "needs llvm-addr2line")
    def test_enrich_gives_the_named_file(self):
        # The raw file holds the pcs of the inline frames and lines
        # (docs/FORMATS.md, "Raw folded stacks"); [ecall:NAME] leaves stay bare.
        elf = self.guest("zkvm-sp1-rv32.elf")
        for flags in ((), ("--lines",)):
            with self.subTest(flags=flags):
                named = self.run_cli(elf, self.ITEMS, flags, inline=True)
                raw = self.run_cli(elf, self.ITEMS, inline=True, raw=True)
                self.assertEqual((named.code, raw.code), (0, 0), named.stderr + raw.stderr)
                self.assertIn(";[ecall:SHA_COMPRESS] 1\n", named.folded)
                p = subprocess.run([sys.executable, ENRICH, "--elf", elf, *flags],
                                   input=raw.folded, capture_output=True, text=True,
                                   timeout=TIMEOUT)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(p.stdout, named.folded)

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

    def test_unconstrained_block_is_undone(self):
        hint = b"hint-from-block"
        buffer_sum = sum(i & 0xFF for i in range(3 * 4096 + 100)) & 0xFFFFFFFF
        for xlen in (32, 64):
            r = self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"), [b"\7"])
            self.assertEqual(r.code, 0, r.stderr)
            # entered = 0 and s1 = 0x1234 again, the word 5, the buffer as before,
            # and the hint written inside the block kept.
            want = u32(0) + u32(0x1234) + u32(5) + u32(buffer_sum) + hint
            self.assertEqual(r.public, want)
            self.assertRegex(r.stat("unconstrained"), r"^1 blocks, \d+ instructions")
            self.assert_folded_sum(r)

    def test_unconstrained_misuse_faults(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\x08"])
        # SP1 checks the calls a block may make first: a second ENTER is one it may not.
        self.assert_one_error(r, "ENTER_UNCONSTRAINED", "only WRITE and EXIT_UNCONSTRAINED")
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\x09"])
        self.assert_one_error(r, "HINT_LEN", "only WRITE and EXIT_UNCONSTRAINED")

    def hook(self, fd, payload, xlen=32):
        r = self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"), [b"\x0a", bytes([fd]) + payload])
        return r, (items(r.public) if r.code == 0 else None)

    def test_hooks_field_roots_and_inverses(self):
        # FD_BLS12_381_SQRT (18): 4 is a square; -1 is not (p = 3 mod 4), so 2 * -1 is.
        r, got = self.hook(18, (4).to_bytes(48, "big"))
        self.assertEqual(got, [b"\1", sqrt_3mod4(4, BLS_P).to_bytes(48, "big")], r.stderr)
        r, got = self.hook(18, (BLS_P - 1).to_bytes(48, "big"), xlen=64)
        self.assertEqual(got, [b"\0", sqrt_3mod4(2 * (BLS_P - 1), BLS_P).to_bytes(48, "big")])
        # FD_BLS12_381_INVERSE (19)
        r, got = self.hook(19, (12345).to_bytes(48, "big"))
        self.assertEqual(got, [pow(12345, -1, BLS_P).to_bytes(48, "big")], r.stderr)
        # FD_FP_SQRT (20) and FD_FP_INV (21) over 2^255 - 19 (p = 5 mod 8: Tonelli-Shanks).
        fp = lambda *v: u32(32)[::-1] + b"".join(n.to_bytes(32, "big") for n in v)
        r, got = self.hook(20, fp(9, ED_P, 2))
        self.assertEqual(got[0], b"\1", r.stderr)
        root = int.from_bytes(got[1], "big")
        self.assertEqual(root * root % ED_P, 9)
        r, got = self.hook(20, fp(2, ED_P, 2))  # 2 is not a square: the root of 2 * 2
        self.assertEqual([got[0], int.from_bytes(got[1], "big") ** 2 % ED_P], [b"\0", 4])
        r, got = self.hook(21, fp(7, ED_P))
        self.assertEqual(got, [pow(7, -1, ED_P).to_bytes(32, "big")], r.stderr)
        # FD_RSA_MUL_MOD (17): product 512 bytes, modulus 256, little-endian.
        prod, mod = 3**1000, 7**200
        r, got = self.hook(17, prod.to_bytes(512, "little") + mod.to_bytes(256, "little"))
        self.assertEqual(got, [(prod % mod).to_bytes(256, "little"),
                               (prod // mod % 2**2048).to_bytes(256, "little")], r.stderr)

    def test_hook_ecrecover_and_ed_decompress(self):
        # FD_ECRECOVER_HOOK (15) with r = x(G): alpha = x^3 + 7, y of odd parity asked.
        x, y = SECP256K1_G
        alpha = (x**3 + 7) % SECP256K1_P
        odd_y = y if y % 2 else SECP256K1_P - y
        r, got = self.hook(15, bytes([1 | 0x80]) + x.to_bytes(32, "big") + alpha.to_bytes(32, "big"))
        self.assertEqual(got, [b"\1", odd_y.to_bytes(32, "big"),
                               pow(x, -1, SECP256K1_N).to_bytes(32, "big")], r.stderr)
        # FD_EDDECOMPRESS (16): B's y decompresses; v = d y^2 + 1 as the guest would send it.
        y = ED_B[1]
        v = (ED_D * y * y + 1) % ED_P
        r, got = self.hook(16, y.to_bytes(32, "little") + v.to_bytes(32, "little"))
        self.assertEqual(got, [b"\1"], r.stderr)
        r, got = self.hook(16, (ED_P + 1).to_bytes(32, "little") + v.to_bytes(32, "little"))
        self.assertEqual(got, [b"\0"])  # y not below p
        r, _ = self.hook(19, bytes(48))  # the inverse of 0: SP1's hook panics
        self.assert_one_error(r, "WRITE", "FD_BLS12_381_INVERSE")

    def precompile(self, code, args, data, xlen=32):
        head = u32(code) + b"".join(args) + value(0) * (4 - len(args))
        return self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"), [b"\x0b", head + data])

    def test_ed25519(self):
        b2 = ed_add(ED_B, ED_B)
        b3 = ed_add(b2, ED_B)
        for xlen in (32, 64):
            r = self.precompile(0x00010107, [u32(64)], point(b2) + point(ED_B), xlen)  # ED_ADD
            self.assertEqual(r.code, 0, r.stderr)
            self.assertEqual(r.public[:64], point(b3))
            # ED_DECOMPRESS: x into the first half from y in the second, sign = x's parity.
            r = self.precompile(0x00000108, [value(b3[0] & 1)], bytes(32) + le256(b3[1]), xlen)
            self.assertEqual(r.public, point(b3), r.stderr)
        # RFC 8032 test 1's public key (d75a98...) is the point A; y's top bit is x's sign.
        a = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        sign, y = a[31] >> 7, int.from_bytes(a, "little") & (2**255 - 1)
        r = self.precompile(0x00000108, [value(sign)], bytes(32) + le256(y))
        x = int.from_bytes(r.public[:32], "little")
        self.assertEqual((x % 2, (-x * x + y * y - 1 - ED_D * x * x * y * y) % ED_P), (sign, 0))
        r = self.precompile(0x00000108, [value(0)], bytes(32) + le256(2))  # y = 2: no x
        self.assert_one_error(r, "ED_DECOMPRESS", "is not a square: no x")

    def test_weierstrass_decompress(self):
        x, y = SECP256K1_G
        for sign in (0, 1):
            r = self.precompile(0x0000010C, [value(sign)], bytes(32) + le256(x))
            want = y if y % 2 == sign else SECP256K1_P - y
            self.assertEqual(r.public, le256(want) + le256(x), r.stderr)
        # BLS12-381: sign 1 asks for the larger of y and p - y (the ZCash flag).
        y = sqrt_3mod4(BLS_G1_X**3 + 4, BLS_P)
        big = max(y, BLS_P - y)
        le384 = lambda n: n.to_bytes(48, "little")
        r = self.precompile(0x0000011C, [value(1)], bytes(48) + le384(BLS_G1_X))
        self.assertEqual(r.public, le384(big) + le384(BLS_G1_X), r.stderr)
        r = self.precompile(0x0000010C, [value(0)], bytes(32) + le256(SECP256K1_P + 1))
        self.assert_one_error(r, "SECP256K1_DECOMPRESS", "no point has this x")
        r = self.precompile(0x0000010C, [value(0)], bytes(32) + le256(x), xlen=64)
        self.assert_one_error(r, "SECP256K1_DECOMPRESS", "v6")  # v6 removed it

    def test_wide_multiplications(self):
        a, b = 3**150, 7**700
        data = le256(a) + b.to_bytes(256, "little") + bytes(256 + 32)
        r = self.precompile(0x0001012F, [u32(32), u32(288), u32(544)], data)  # U256XU2048_MUL
        prod = a * b
        self.assertEqual(r.public[288:], (prod % 2**2048).to_bytes(256, "little")
                         + le256(prod >> 2048), r.stderr)
        x, y, z = 2**256 - 1, 2**256 - 5, 2**255 + 3
        for code, want in ((0x00010130, x + y + z), (0x00010131, x * y + z)):
            data = le256(x) + le256(y) + le256(z) + bytes(64)
            r = self.precompile(code, [u32(32), u32(64), u32(96), u32(128)], data, xlen=64)
            self.assertEqual(r.public[96:], want.to_bytes(64, "little"), r.stderr)

    def test_sp1_stdin_file(self):
        # bincode of SP1Stdin { buffer: [[0], x, y ++ m], ptr: 0, proofs: [] }: u64 counts and
        # lengths, little-endian; the items are those of test_full_run_rv32.
        blob = struct.pack("<Q", len(self.ITEMS))
        for it in self.ITEMS:
            blob += struct.pack("<Q", len(it)) + it
        blob += struct.pack("<QQ", 0, 0)
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), extra=["--stdin", self.file("s", blob)])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, SHA256_ABC + KECCAK256_EMPTY + le256(X * Y % M))
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"),
                         extra=["--stdin", self.file("t", blob[:-3])])
        self.assertEqual(r.code, 66, r.stderr)
        self.assertIn("not an SP1Stdin", r.stderr)

    def sp1_stdin(self, items, proofs):
        # bincode of SP1Stdin: u64 item count, each item as u64 length and bytes, u64 ptr, then
        # the proofs (a u64 count; their bytes are not read here, so any stand in)
        blob = struct.pack("<Q", len(items))
        for it in items:
            blob += struct.pack("<Q", len(it)) + it
        return blob + struct.pack("<QQ", 0, proofs) + b"proof bytes" * proofs

    def test_verify_proof_without_verification(self):
        # Mode 1 calls VERIFY_SP1_PROOF once; with the option it returns, as SP1 does with
        # deferred proof verification off.
        flag = "--no-deferred-proof-verification"
        for xlen in (32, 64):
            elf = self.guest(f"zkvm-sp1-rv{xlen}.elf")
            stdin = self.file("one", self.sp1_stdin([b"\1"], 1))
            r = self.run_cli(elf, extra=["--stdin", stdin, flag])
            self.assertEqual(r.code, 0, r.stderr)
            self.assertEqual(r.stat("deferred-proofs"),
                             "1 VERIFY_SP1_PROOF calls accepted without verification "
                             f"({flag}); --stdin carried 1 proofs")
            self.assertNotIn("warning", r.stderr)
            self.assertIn(";sp1_zkvm_syscall;[ecall:VERIFY_SP1_PROOF] 1\n", r.folded)
            self.assert_folded_sum(r)
        # More calls than proofs, or fewer: SP1 with verification on fails or warns.
        r = self.run_cli(elf, [b"\1"], [flag])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertIn("warning: sp1: the guest called VERIFY_SP1_PROOF 1 times but --stdin "
                      "carried 0 proofs: with verification on, SP1 stops", r.stderr)
        r = self.run_cli(elf, extra=["--stdin", self.file("two", self.sp1_stdin([b"\3"], 2)),
                                     flag])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertIn("called VERIFY_SP1_PROOF 0 times but --stdin carried 2 proofs: not all "
                      "proofs were read", r.stderr)
        # Not for other zkVMs.
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), extra=[flag])
        self.assertEqual(r.code, 64, r.stderr)
        self.assertIn("is for SP1 guests", r.stderr)

    def test_bls12_381_decompress_outside_the_subgroup(self):
        # SP1 decompresses with amcl's deserialize_g1, which does not check the subgroup: x = 0
        # gives y^2 = 4, P = (0, 2), of order 3 (2P = -P), outside G1, whose order r is prime.
        le384 = lambda n: n.to_bytes(48, "little")
        r_order = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
        self.assertEqual(ec_double((0, 2), BLS_P), (0, BLS_P - 2))
        self.assertNotEqual(r_order % 3, 0)
        for sign, want in ((0, 2), (1, BLS_P - 2)):
            r = self.precompile(0x0000011C, [value(sign)], bytes(96))
            self.assertEqual(r.code, 0, r.stderr)
            self.assertEqual(r.public, le384(want) + bytes(48))
        r = self.precompile(0x0000011C, [value(0)], bytes(48) + le384(BLS_P))
        self.assert_one_error(r, "BLS12381_DECOMPRESS", "no point has this x")

    def test_poseidon2(self):
        # The reference is first checked against the published known answer of the koala-bear
        # crate of SP1's Plonky3 fork (test_poseidon2_width_16_random: x^7, 8 + 13 rounds).
        seed = 899088431
        ext = [[pow(i + 16 * j + seed, 11, KB_P) for i in range(16)] for j in range(8)]
        inn = [pow(i + seed, 7, KB_P) for i in range(13)]
        kat_in = [1179785652, 1291567559, 2079538220, 471640172, 653876821, 478855335, 871063984,
                  540251327, 1506944720, 1403776782, 770420443, 126472305, 1535928603,
                  1017977016, 818646757, 359411429]
        self.assertEqual(kb_poseidon2([x % KB_P for x in kat_in], 7, 8, ext, inn),
                         [153573417, 912646680, 312278853, 1934353212, 792707553, 386983851,
                          470582679, 1088774782, 1984802780, 693802370, 695614875, 2129012796,
                          898643682, 1996915498, 1258236015, 2124822813])
        cells = list(range(16))
        want = kb_poseidon2(cells, 3, 8, SP1_KB_EXTERNAL, SP1_KB_INTERNAL)
        r = self.precompile(0x00000133, [value(0)], struct.pack("<16I", *cells), xlen=64)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(list(struct.unpack("<16I", r.public)), want)
        self.assertIn(";sp1_zkvm_syscall5;[ecall:POSEIDON2] 1\n", r.folded)
        r = self.precompile(0x00000133, [value(0)], struct.pack("<16I", KB_P, *cells[1:]), xlen=64)
        self.assert_one_error(r, "POSEIDON2", "not below KoalaBear")
        r = self.precompile(0x00000133, [value(0)], struct.pack("<16I", *cells))  # RV32: no such call
        self.assert_one_error(r, "POSEIDON2", "v6")

    def test_mprotect_and_sig_return(self):
        def call(code, a0, a1, xlen=64):
            return self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"),
                                [b"\x0c", struct.pack("<3I", code, a0, a1)])
        # SP1's own checks, in its order, then its panic for a program without the note that
        # turns on its user mode (every ELF here).
        for a0, a1, why in ((0x10000, 0x100, "prot must be 8 bits"),
                            (0x10008, 6, "addr must be page aligned"),
                            (0x10000, 7, "prot must be none, R, RW or RX"),
                            (0x10000, 6, "untrusted mode must be turned on")):
            self.assert_one_error(call(0x132, a0, a1), "MPROTECT", why)
        self.assert_one_error(call(0x132, 0x10000, 4, xlen=32), "MPROTECT", "v6")
        self.assert_one_error(call(0x134, 0x10000, 0), "SIG_RETURN", "user mode")
        # HINT_MPROTECT_FLUSH (v6.2 on) returns its code; v6.0 and v6.1 return at once from
        # MPROTECT, checks and all (minimal/ecall.rs at v6.1.0).
        r = call(0x35, 0, 0)
        self.assertEqual((r.code, r.public), (0, struct.pack("<Q", 0x35)), r.stderr)
        r = self.run_cli(self.guest("zkvm-sp1-rv64.elf"), [b"\x0c", struct.pack("<3I", 0x132, 8, 7)],
                         ["--zkvm-release", "6.1"])
        self.assertEqual((r.code, r.public), (0, struct.pack("<Q", 0x132)), r.stderr)

    def test_halt_code_is_the_exit_status(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\3"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.errors, [])

    def test_unsupported_precompile(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\1"])
        self.assert_one_error(r, "sp1 call VERIFY_SP1_PROOF is not supported", "sp1_zkvm_syscall",
                              "cannot verify", "--no-deferred-proof-verification")
        self.assertIn("[ecall:HINT_READ] 1", r.folded)  # the profile of what ran is written
        self.assertNotIn("VERIFY_SP1_PROOF", r.folded)  # the faulting call did not retire

    def test_access_outside_memory(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\2"])
        self.assert_one_error(r, "load from unmapped memory (address 0x78001000)", "sp1_zkvm_start")

    def test_input_exhausted(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\4"])
        self.assert_one_error(r, "HINT_READ", "input is exhausted")

    def test_item_length_mismatch(self):
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\0", b"short"])
        self.assertEqual(r.code, 10, r.stderr)  # the guest checks the length HINT_LEN gave

    def test_misaligned_access_traps(self):
        # executor.rs (v4/v5) and vm.rs (v6): InvalidMemoryAccess
        for xlen, ops in ((32, ("lb", "lh", "lhu", "lw", "sb", "sh", "sw")),
                          (64, ("lh", "lw", "lwu", "ld", "sh", "sw", "sd"))):
            def access(op, offset):
                r = self.run_cli(self.guest(f"zkvm-sp1-rv{xlen}.elf"),
                                 [b"\x0d", struct.pack("<II", op, offset)])
                return r, r.public
            self.check_alignment("sp1", ops, access, xlen // 8)

    def test_linux_abi_forced(self):
        # Under the linux ABI SP1's stack top shares a page with read-only code.
        r = self.run_cli(self.guest("zkvm-sp1-rv32.elf"), [b"\0"], ["--zkvm", "linux"])
        self.assertEqual(r.stat("abi"), "linux (--zkvm linux)")
        self.assert_one_error(r, "store to read-only memory")


KECCAK_RC = [0x0000000000000001, 0x0000000000008082, 0x800000000000808A, 0x8000000080008000,
             0x000000000000808B, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
             0x000000000000008A, 0x0000000000000088, 0x0000000080008009, 0x000000008000000A,
             0x000000008000808B, 0x800000000000008B, 0x8000000000008089, 0x8000000000008003,
             0x8000000000008002, 0x8000000000000080, 0x000000000000800A, 0x800000008000000A,
             0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008]


def keccak_f(lanes):
    """Keccak-f[1600] (FIPS 202 3.3) on 25 lanes, lane x + 5y; written from the standard."""
    mask = 2**64 - 1
    rot = lambda v, n: ((v << n) | (v >> (64 - n))) & mask if n else v
    a = list(lanes)
    for rc in KECCAK_RC:
        c = [a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20] for x in range(5)]
        d = [c[(x - 1) % 5] ^ rot(c[(x + 1) % 5], 1) for x in range(5)]
        a = [a[i] ^ d[i % 5] for i in range(25)]
        b = [0] * 25  # rho and pi: B[y, 2x + 3y] = rot(A[x, y], r[x, y])
        x, y, r = 1, 0, 0
        b[0] = a[0]
        for t in range(24):
            r = (t + 1) * (t + 2) // 2 % 64
            b[y + 5 * ((2 * x + 3 * y) % 5)] = rot(a[x + 5 * y], r)
            x, y = y, (2 * x + 3 * y) % 5
        a = [b[i] ^ (~b[(i % 5 + 1) % 5 + 5 * (i // 5)] & b[(i % 5 + 2) % 5 + 5 * (i // 5)])
             for i in range(25)]
        a[0] ^= rc
    return a


def sha3_256(msg, pad=0x06):
    """SHA3-256 through keccak_f, so a test can check keccak_f against hashlib."""
    padded = bytearray(msg) + bytes([pad]) + bytes(-(len(msg) + 1) % 136)
    padded[-1] |= 0x80
    lanes = [0] * 25
    for off in range(0, len(padded), 136):
        for i in range(17):
            lanes[i] ^= int.from_bytes(padded[off + 8 * i:off + 8 * i + 8], "little")
        lanes = keccak_f(lanes)
    return b"".join(v.to_bytes(8, "little") for v in lanes)[:32]


def keccak256(msg):
    """Keccak-256: the sponge of sha3_256 with the original padding (0x01), as Ethereum uses."""
    return sha3_256(msg, pad=0x01)



def put_word_at_entry(path, word):
    """Overwrites the 32-bit ELF's instruction at its entry point with `word`."""
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        entry, phoff = struct.unpack_from("<II", data, 0x18)
        phentsize, phnum = struct.unpack_from("<HH", data, 0x2A)
        for i in range(phnum):
            p_type, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIIII", data,
                                                                         phoff + i * phentsize)
            if p_type == 1 and p_vaddr <= entry < p_vaddr + p_filesz:
                struct.pack_into("<I", data, p_offset + entry - p_vaddr, word)
                f.seek(0)
                f.write(data)
                return
        raise AssertionError(f"{path}: no segment holds the entry 0x{entry:x}")

def symbols(elf):
    """The ELF's symbols, name -> address (nm)."""
    out = subprocess.run(["nm", elf], capture_output=True, text=True, check=True).stdout
    return {f[2]: int(f[0], 16) for f in (line.split() for line in out.splitlines()) if len(f) == 3}


def frame_count(folded, leaf):
    """What the folded stacks ending in the frame `leaf` count."""
    return sum(int(line.rsplit(" ", 1)[1]) for line in folded.splitlines()
               if line.rsplit(" ", 1)[0].endswith(";" + leaf))


def under(folded, frame):
    """What the folded stacks through `frame` count, its callees' included."""
    return sum(int(line.rsplit(" ", 1)[1]) for line in folded.splitlines()
               if (";" + frame + ";") in line or line.rsplit(" ", 1)[0].endswith(";" + frame))


class Sp1UserMode(ZkvmTest):
    """SP1 v6's user mode (guests/zkvm/sp1_user.c; docs/ZKVMS.md, "User mode"). What is
    expected comes from SP1 v6.4's source: PROT_FAILURE_READ 5, _WRITE 7, _EXEC 1
    (sp1-primitives consts.rs); the trap context gets the code and the pc of the faulting
    instruction, of a fetch its target (handle_interrupt); an access the rights forbid does
    nothing, a call checks its operands' pages in order first (minimal/precompiles/); a
    trapped instruction is a cycle (post_instruction_update)."""
    HEAP = 0x123456000
    MPROTECT, KECCAK = 0x132, 0x10109

    def mode(self, mode, elf="zkvm-sp1-user-rv64.elf", extra=()):
        return self.run_cli(self.guest(elf), [bytes([mode])], extra)

    def test_traps_and_sig_return(self):
        sym = symbols(self.guest("zkvm-sp1-user-rv64.elf"))
        r = self.mode(0)
        self.assertEqual((r.code, r.errors), (0, []), r.stderr)
        words = struct.unpack(f"<{len(r.public) // 8}Q", r.public)
        # [code, pc, t0, a5] as the handler saw them; a5 is 0xfeed after the handler's first
        # SIG_RETURN, which set it; the load that trapped left its 0x5a5a.
        self.assertEqual([words[i:i + 4] for i in range(0, 20, 4)], [
            (7, sym["sp1u_store"], self.MPROTECT, 0),            # a store to a read-only page
            (5, sym["sp1u_load_at"], self.MPROTECT, 0x5a5a),     # a load from a page without rights
            (5, sym["sp1u_keccak_at"], self.KECCAK, 0xfeed),     # the call's read check first
            (7, sym["sp1u_keccak_at"], self.KECCAK, 0xfeed),     # read allowed, write not
            (1, self.HEAP + 24, self.KECCAK, 0xfeed)])           # a fetch: the target's pc
        self.assertEqual(words[20:], (keccak_f([0] * 25)[0],))   # the page read-write again
        self.assertIn(": 5 traps, 5 SIG_RETURNs", r.stat("sp1-user-mode"))
        self.assertIn("region [0x%x, 0x1c00000000)" % sym["_end"], r.stat("sp1-user-mode"))
        self.assertEqual(frame_count(r.folded, "0x123456018"), 1)  # the failed fetch's cycle
        self.assert_folded_sum(r)

    def test_empty_note_region_refused(self):
        # elf.rs (v6.2 on) asserts heap_end > heap_start when it reads the note: a copy of the
        # guest whose note ends where it starts is refused (65); v6.1 reads no region and runs it
        sym = symbols(self.guest("zkvm-sp1-user-rv64.elf"))
        with open(self.guest("zkvm-sp1-user-rv64.elf"), "rb") as f:
            elf = f.read()
        desc = b"1\0\0\0" + struct.pack("<QQ", sym["_end"], 0x1C00000000)
        self.assertEqual(elf.count(desc), 1)
        empty = os.path.join(self.tmp, "empty-note.elf")
        with open(empty, "wb") as f:
            f.write(elf.replace(desc, b"1\0\0\0" + struct.pack("<QQ", sym["_end"], sym["_end"])))
        r = self.run_cli(empty, [bytes([7])])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertEqual(len(r.errors), 1, r.stderr)
        self.assertIn("empty region", r.errors[0])
        r = self.run_cli(empty, [bytes([7])], ["--zkvm-release", "6.1"])
        self.assertEqual((r.code, r.public), (0, struct.pack("<Q", 77)), r.stderr)

    def test_a_trapped_instruction_is_one_cycle(self):
        # Mode 7: one load from a page MPROTECT left without rights. v6.1's executor has no
        # page rights (MPROTECT returns at once): the load reads 77. v6.4 traps it: the
        # handler emulates it (0xfeed), and the run is longer by the handler's instructions
        # alone, the trapped load counting as the one v6.1 ran.
        old = self.mode(7, extra=["--zkvm-release", "6.1"])
        new = self.mode(7)
        self.assertEqual((old.code, old.public), (0, struct.pack("<Q", 77)), old.stderr)
        self.assertEqual((new.code, new.public), (0, struct.pack("<Q", 0xfeed)), new.stderr)
        self.assertIsNone(old.stat("sp1-user-mode"))
        handler = under(new.folded, "sp1u_handler")
        self.assertEqual(int(new.stat("instructions")) - int(old.stat("instructions")), handler)
        self.assertEqual(frame_count(new.folded, "sp1u_load") + frame_count(new.folded, "sp1u_load_at"),
                         frame_count(old.folded, "sp1u_load"))
        for r in (old, new):
            self.assert_folded_sum(r)

    def test_sig_return_without_a_trap(self):
        # SP1 restores the frame a0 points to whether or not a trap made it: pc sp1u_landing,
        # a0 = 33, which it halts with; with or without a handler.
        for elf in ("zkvm-sp1-user-rv64.elf", "zkvm-sp1-user-nohandler-rv64.elf"):
            r = self.mode(4, elf)
            self.assertEqual((r.code, r.errors), (33, []), r.stderr)
            self.assertIn("[ecall:SIG_RETURN] 1", r.folded)
        r = self.mode(4, extra=["--zkvm-release", "6.1"])
        self.assert_one_error(r, "SIG_RETURN", "SP1 added it in v6.2.0")

    def test_mprotect_checks(self):
        for mode, why in ((1, "(argument 0x123456008): addr must be page aligned"),
                          (2, "outside the region the ELF's SUCCINCT note names"),
                          (3, "(argument 0x10000000000): addr must be below 2^40")):
            with self.subTest(mode=mode):
                self.assert_one_error(self.mode(mode), "sp1 call MPROTECT", why, "SP1 panics")

    def test_faults_that_are_no_traps(self):
        r = self.mode(5, "zkvm-sp1-user-nohandler-rv64.elf")
        self.assert_one_error(r, "load from unmapped memory (address 0x123456000)", "sp1u_load_at",
                              "no __SUCCINCT_TRAP_CONTEXT")
        r = self.mode(6)  # the context names a heap page as the handler
        self.assert_one_error(r, "(address 0x123456000)", "is not in the program")
        r = self.mode(8)  # a jump to a page made readable and executable: untrusted code
        self.assertEqual((r.code, len(r.errors)), (70, 1), r.stderr)
        for words in ("at pc 0x123456018 (jumped to from 0x", "in sp1u_jump",
                      "untrusted code, which is not run here"):
            self.assertIn(words, r.errors[0])


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

    def test_user_ecall_is_reserved(self):
        # RISC Zero's kernel table has unimp for kind 5; its 1.x executor has no case for it.
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\1"])
        self.assert_one_error(r, "risc0 call USER is not supported: kind 5 is reserved",
                              "risc0_zkvm_platform_ecall")

    # ---- software calls beyond I/O: what RISC Zero's host does for each ----

    def calls(self, mode, data, extra=()):
        return self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [bytes([mode]) + data], extra)

    def test_argc_and_argv_without_arguments(self):
        r = self.calls(8, struct.pack("<I", 0))
        self.assertEqual(r.public, struct.pack("<I", 0))  # argc, before argv faults
        self.assert_one_error(r, "risc0 call sys_argv (argument 0x0): no argument has this index",
                              "risc0_zkvm_platform_ecall")

    CLAIM = bytes(range(32)) + bytes(32)  # a claim digest, then a zero control root

    def test_verify_integrity_needs_receipts(self):
        r = self.calls(9, struct.pack("<II", 1, 64) + self.CLAIM)
        self.assert_one_error(r, "risc0 call sys_verify_integrity is not supported: claim "
                              + self.CLAIM[:32].hex() + " needs a receipt",
                              "--no-verify-assumptions", "risc0_zkvm_platform_ecall")
        r = self.calls(9, struct.pack("<II", 1, 64) + self.CLAIM, ["--no-verify-assumptions"])
        self.assertEqual((r.code, r.public), (0, struct.pack("<I", 0)), r.stderr)
        self.assertRegex(r.stat("assumptions"), r"^1 accepted unverified .* 0 left unresolved")

    def test_verify_integrity2_is_left_unresolved(self):
        # RISC Zero's host records a SYS_VERIFY_INTEGRITY2 claim as unresolved and returns 0.
        r = self.calls(9, struct.pack("<II", 2, 64) + self.CLAIM)
        self.assertEqual((r.code, r.public), (0, struct.pack("<I", 0)), r.stderr)
        self.assertRegex(r.stat("assumptions"), r"^0 accepted unverified .* 1 left unresolved")
        self.assertIn(";[ecall:sys_verify_integrity2] 1\n", r.folded)

    def test_verify_integrity_bad_length(self):
        for which in (1, 2):
            r = self.calls(9, struct.pack("<II", which, 32) + self.CLAIM, ["--no-verify-assumptions"])
            self.assert_one_error(r, "(argument 0x20): a1 must be 0 and a4 64",
                                  "risc0_zkvm_platform_ecall")

    def test_keccak_permutations_make_sha3(self):
        self.assertEqual(sha3_256(b"abc"), hashlib.sha3_256(b"abc").digest())  # the reference
        for n in (0, 3, 135, 136, 300, 1024):
            msg = bytes((7 * i + n) % 256 for i in range(n))
            r = self.calls(10, struct.pack("<I", n) + msg)
            self.assertEqual((r.code, r.public), (0, hashlib.sha3_256(msg).digest()), (n, r.stderr))
            blocks = n // 136 + 1
            self.assertEqual(r.stat("keccak"),
                             f"{blocks} permutations, 0 batches sent to prove (not proven here)")
            self.assertIn("risc0_zkvm_platform_sys_keccak;risc0_zkvm_platform_ecall;"
                          f"[ecall:sys_keccak] {blocks}\n", r.folded)
            self.assert_folded_sum(r)

    KECCAK_MAX_INPUTS = 2**17 // 200  # RISC Zero's keccak circuit at its default po2, 17

    def test_keccak_batch_fills_and_proves(self):
        n = self.KECCAK_MAX_INPUTS
        r = self.calls(11, struct.pack("<III", n, 0, 0))
        self.assertEqual(r.code, 0, r.stderr)
        full, first = struct.unpack("<II", r.public[:8])
        self.assertEqual((full, first), (1, n - 1))  # the last call of a batch says it is full
        lanes = [0] * 25
        for _ in range(n):
            lanes = keccak_f(lanes)
        self.assertEqual(r.public[8:], b"".join(v.to_bytes(8, "little") for v in lanes))
        r = self.calls(11, struct.pack("<III", 2 * n + 1, n, 0))
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(struct.unpack("<II", r.public[:8]), (2, n - 1))
        self.assertEqual(r.stat("keccak"), f"{2 * n + 1} permutations, 2 batches sent to prove "
                         "(not proven here)")

    def test_keccak_bad_calls(self):
        r = self.calls(11, struct.pack("<III", self.KECCAK_MAX_INPUTS + 1, 0, 0))
        self.assert_one_error(r, "risc0 call sys_keccak (argument 0x28f): the batch is full",
                              "risc0_zkvm_platform_ecall")
        r = self.calls(11, struct.pack("<III", 1, 0, 2))
        self.assert_one_error(r, "(argument 0x2): an invalid mode (a3)", "risc0_zkvm_platform_ecall")
        name = b"risc0_zkvm_platform::syscall::nr::SYS_KECCAK"  # a1 = 0: no room for the state
        r = self.calls(13, struct.pack("<I", len(name)) + name)
        self.assert_one_error(r, "(argument 0x0): a1 must be 50", "risc0_zkvm_platform_ecall")

    def test_pipe(self):
        data = b"hello, pipe!"
        r = self.calls(12, struct.pack("<I", len(data)) + data)
        self.assertEqual(r.code, 0, r.stderr)
        # RISC Zero's host gives both ends the lowest free fd: 0-3 are taken, then 4, then 5.
        self.assertEqual(r.public, struct.pack("<IIII", 0, 4, 4, len(data)) + data
                         + struct.pack("<I", 5))
        name = b"risc0_zkvm_platform::syscall::nr::SYS_PIPE"  # a1 = 0, not 2
        r = self.calls(13, struct.pack("<I", len(name)) + name)
        self.assert_one_error(r, "risc0 call sys_pipe (argument 0x0): a1 must be 2",
                              "risc0_zkvm_platform_ecall")

    def test_calls_risc0_does_not_run_either(self):
        for name, frame, why in (
                ("risc0_zkvm_platform::syscall::nr::SYS_EXIT", "sys_exit", "no handler"),
                ("risc0_zkvm_platform::syscall::nr::SYS_FORK", "sys_fork", "no handler"),
                ("risc0_zkvm_platform::syscall::nr::SYS_EXECUTE_ZKR", "sys_execute_zkr",
                 "no handler"),
                ("risc0_zkvm_platform::syscall::nr::SYS_PROVE_ZKR", "sys_prove_zkr",
                 "recursion program"),
                ("risc0-zkvm-platform::syscall::SYS_PROVE_KECCAK", "sys_prove_keccak",
                 "keccak coprocessor")):
            r = self.calls(13, struct.pack("<I", len(name)) + name.encode())
            self.assert_one_error(r, f"risc0 call {frame} is not supported: ", why,
                                  "risc0_zkvm_platform_ecall")
        name = b"my_host::SYS_CUSTOM"
        r = self.calls(13, struct.pack("<I", len(name)) + name)
        self.assert_one_error(r, 'risc0 call SOFTWARE is not supported: "my_host::SYS_CUSTOM" is '
                              "no call of RISC Zero's platform", "risc0_zkvm_platform_ecall")

    # ---- BIGINT2: bibc programs assembled here, results against Python's integers ----

    def run_bigint2(self, nondet, args, arg_words=16, temp_words=0, verify_words=1, extra=()):
        """Runs the program on six operands (ints); returns the run and the operands after."""
        blob = (struct.pack("<4I", len(nondet) // 4, verify_words, 0, temp_words) + nondet +
                b"\0" * 4 * verify_words)
        data = b"".join(a.to_bytes(4 * arg_words, "little") for a in args)
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"),
                         [b"\5" + struct.pack("<II", len(blob) // 4, arg_words) + blob + data],
                         extra=extra)
        size = 4 * arg_words
        after = [int.from_bytes(r.public[i * size:(i + 1) * size], "little") for i in range(6)]
        return r, after

    def test_bigint2_modmul_modinv_quotient(self):
        p, x, y = SECP256K1_P, X % SECP256K1_P, Y
        ops = [bop(LOAD, arena(A1)), bop(LOAD, arena(A2)), bop(LOAD, arena(A3)),  # 0 p, 1 x, 2 y
               bop(MUL, 1, 2), bop(REM, 3, 0), bop(STORE, arena(A4), 4),  # x * y mod p
               bop(INV, 1, 0), bop(STORE, arena(A5), 6),  # x^-1 mod p
               bop(QUO, 3, 0), bop(STORE, arena(A6), 8, typ=1)]  # x * y // p, 64 bytes wide
        r, after = self.run_bigint2(bibc(ops, types=(32, 64)), [p, x, y, 0, 0, 0])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(after, [p, x, y, x * y % p, pow(x, -1, p), x * y // p])
        self.assertIn("risc0_zkvm_platform_sys_bigint2_6;[ecall:BIGINT2] 1\n", r.folded)

    def test_bigint2_cycles(self):
        """Under --weight cycles a BIGINT2 call costs what RISC Zero counts: the
        2.x kernel's user ecall, _ecall_dispatch (10), its table's j,
        _ecall_bigint2's 14 instructions before the machine ecall and 2 after
        (kernel.s, commit 9a94c406), and the machine ecall's 1 + its verify
        program's words + 1 (bigint.rs ecall_execute)."""
        ops = [bop(LOAD, arena(A1)), bop(LOAD, arena(A2)), bop(MUL, 0, 1),
               bop(STORE, arena(A3), 2, typ=1)]
        for verify in (1, 40):
            with self.subTest(verify=verify):
                r, after = self.run_bigint2(bibc(ops, types=(32, 64)), [X, Y, 0, 0, 0, 0],
                                            verify_words=verify, extra=["--weight", "cycles"])
                self.assertEqual(r.code, 0, r.stderr)
                self.assertEqual(after[2], X * Y)
                cycles = 1 + 10 + 1 + 14 + (1 + verify + 1) + 2
                self.assertIn(f"risc0_zkvm_platform_sys_bigint2_6;[ecall:BIGINT2] {cycles}\n",
                              r.folded)

    def test_bigint2_ec_add_k256(self):
        # lambda = (y2 - y1) / (x2 - x1), kept non-negative by adding p as RISC Zero's programs do
        g, g2 = SECP256K1_G, ec_double(SECP256K1_G, SECP256K1_P)
        ops = [bop(LOAD, arena(A1)), bop(LOAD, arena(A1, 2)),  # 0 x1, 1 y1
               bop(LOAD, arena(A2)), bop(LOAD, arena(A2, 2)),  # 2 x2, 3 y2
               bop(LOAD, arena(A3)),  # 4 p
               bop(ADD, 2, 4), bop(SUB, 5, 0),  # 6 dx = x2 + p - x1
               bop(ADD, 3, 4), bop(SUB, 7, 1),  # 8 dy
               bop(INV, 6, 4), bop(MUL, 8, 9), bop(REM, 10, 4),  # 11 lambda
               bop(MUL, 11, 11), bop(ADD, 12, 4), bop(ADD, 13, 4),  # 14 lambda^2 + 2p
               bop(SUB, 14, 0), bop(SUB, 15, 2), bop(REM, 16, 4),  # 17 x3
               bop(ADD, 0, 4), bop(SUB, 18, 17), bop(MUL, 11, 19),  # 20 lambda (x1 + p - x3)
               bop(ADD, 20, 4), bop(SUB, 21, 1), bop(REM, 22, 4),  # 23 y3
               bop(STORE, arena(A4), 17), bop(STORE, arena(A4, 2), 23),
               bop(STORE, arena(SP), 11)]  # a temporary on the stack, as the platform allows
        pt = lambda q: q[0] | q[1] << 256
        r, after = self.run_bigint2(bibc(ops), [pt(g), pt(g2), SECP256K1_P, 0, 0, 0], temp_words=8)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(after[3], pt(ec_add(g, g2, SECP256K1_P)))
        self.assertEqual(hex(ec_add(g, g2, SECP256K1_P)[0]),  # 3G, published
                         "0xf9308a019258c31049344f85f89d5229b531c845836f99b08601f113bce036f9")

    def test_bigint2_signed_division_truncates(self):
        # Quo and Rem round towards zero; Store writes the magnitude.
        for a, b in ((-7, 2), (7, -2), (-7, -2), (-(X % M), 12345)):
            ops = [bop(LOAD, arena(A1)), bop(LOAD, arena(A2)), bop(SUB, 0, 1)]  # 2: value a
            ops += [bop(LOAD, arena(A3)), bop(LOAD, arena(A4)), bop(SUB, 3, 4)]  # 5: value b
            ops += [bop(QUO, 2, 5), bop(REM, 2, 5),
                    bop(STORE, arena(A5), 6), bop(STORE, arena(A6), 7)]
            args = [max(a, 0), max(-a, 0), max(b, 0), max(-b, 0), 99, 99]
            r, after = self.run_bigint2(bibc(ops), args)
            self.assertEqual(r.code, 0, r.stderr)
            q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
            self.assertEqual(after[4:], [abs(q), abs(a - q * b)], (a, b))

    def test_bigint2_bad_programs(self):
        good = [bop(LOAD, arena(A1)), bop(LOAD, arena(A2))]
        cases = (
            (bibc(good + [15]), "bigint2 op 2 has the unknown op code 0xf"),
            (b"BIBC" + bibc(good)[4:], "not a bigint2 program"),
            (bibc(good + [bop(INV, 1, 0)]), "bigint2 op 2 (Inv): op 1 has no inverse modulo op 0"),
            (bibc(good + [bop(REM, 0, 1)]), "bigint2 op 2 (Rem): division by zero"),
            (bibc(good + [bop(ADD, 0, 3)]), "bigint2 op 2 (Add) uses ops 0 and 3: not both earlier"),
            (bibc([bop(LOAD, arena(3))]), "register x3 is not an arena"),
            (bibc(good + [bop(MUL, 0, 0), bop(STORE, arena(A3), 2)]),
             "bigint2 op 3 (Store): the value needs 64 bytes, the type has 32"),
        )
        for prog, why in cases:
            r, _ = self.run_bigint2(prog, [M, 0, 0, 0, 0, 0])
            self.assert_one_error(r, f"risc0 call BIGINT2 (argument 0x", "risc0_zkvm_platform_sys_bigint2_6")
            self.assertIn(why, r.stderr)

    # ---- POSEIDON2: risc0's published vectors (zkvm/methods/guest/src/bin/multi_test.rs) ----

    P2_HASH16 = [1749308481, 879447913, 499502012, 1842374203, 1869354733, 71489094, 19273002,
                 690566044]  # of 0, 1, ..., 15
    P2_HASH32 = [1257374621, 1235708219, 1590109606, 1571950965, 936452277, 615799448, 844422484,
                 1109152478]  # of 0, 1, ..., 31
    P2_IS_ELEM, P2_CHECK_OUT = 0x80000000, 0x40000000

    def run_poseidon2(self, calls, use_state=False):
        data = b"\6" + struct.pack("<II", use_state, len(calls))
        for flags, words in calls:
            data += struct.pack(f"<II{len(words)}I", flags, len(words), *words)
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [data])
        return r, list(struct.unpack("<16I", r.public)) if len(r.public) == 64 else None

    def test_poseidon2_published_vectors(self):
        packed = [i | (i + 1) << 16 for i in range(0, 16, 2)]  # two 16-bit elements a word
        for calls, use_state, want in (
                ([(self.P2_IS_ELEM | 1, list(range(16)))], False, self.P2_HASH16),
                ([(1, packed)], False, self.P2_HASH16),
                ([(self.P2_IS_ELEM | 2, list(range(32)))], False, self.P2_HASH32),
                ([(self.P2_IS_ELEM | 1, list(range(16))), (self.P2_IS_ELEM | 1, list(range(16, 32)))],
                 True, self.P2_HASH32)):
            r, words = self.run_poseidon2(calls, use_state)
            self.assertEqual(r.code, 0, r.stderr)
            self.assertEqual(words[:8], want, calls)
        self.assertIn(";[ecall:POSEIDON2] 2\n", r.folded)

    def test_poseidon2_check_out(self):
        elems = (self.P2_IS_ELEM | 1, list(range(16)))
        r, words = self.run_poseidon2([elems, (elems[0] | self.P2_CHECK_OUT, elems[1])])
        self.assertEqual(r.code, 0, r.stderr)  # the output already holds the hash
        r, _ = self.run_poseidon2([elems, (self.P2_IS_ELEM | self.P2_CHECK_OUT | 2, list(range(32)))])
        self.assert_one_error(r, "risc0 call POSEIDON2 (argument 0x", "risc0_zkvm_platform_ecall")
        self.assertIn("the output in memory is not the hash", r.stderr)

    def test_input_digest_words(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\7" + struct.pack("<I", 7)])
        self.assertEqual((r.code, r.public), (0, b"\0" * 4), r.stderr)
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\7" + struct.pack("<I", 8)])
        self.assert_one_error(r, "risc0 call INPUT (argument 0x8): the input digest has 8 words",
                              "risc0_zkvm_platform_ecall")

    def test_access_outside_memory(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\2"])
        self.assert_one_error(r, "(address 0xc0000000)", "risc0_zkvm_platform_start")

    def test_misaligned_access_traps(self):
        # rv32im.rs: LoadAddressMisaligned, StoreAddressMisaligned
        def access(op, offset):
            r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"),
                             [b"\x0e" + struct.pack("<II", op, offset)])
            return r, r.public
        self.check_alignment("risc0", ("lb", "lh", "lhu", "lw", "sb", "sh", "sw"), access, 4)

    def test_panic(self):
        r = self.run_cli(self.guest("zkvm-risc0-rv32.elf"), [b"\3"])
        self.assert_one_error(r, "guest panicked (sys_panic): boom")

    def test_no_input(self):
        self.assertEqual(self.run_cli(self.guest("zkvm-risc0-rv32.elf")).code, 12)


SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


def be256(n):
    return n.to_bytes(32, "big")


def ec_mul(k, pt, prime):  # double-and-add from the top bit; k in [1, order)
    acc = None
    for bit in bin(k)[2:]:
        acc = acc and ec_double(acc, prime)
        if bit == "1":
            acc = ec_add(acc, pt, prime) if acc else pt
    return acc


def ecsm_record(kind, k, x, y=0):  # a mode-7 record of the lambda guest
    return bytes([kind]) + le256(k) + le256(x) + le256(y)


class Lambda(ZkvmTest):
    GUEST = "zkvm-lambda-rv64.elf"
    ECHO = bytes(range(256)) * 2 + b"tail"  # 516 bytes: three DmaMemcpy calls
    RANDOM_K = random.Random(14).randrange(2**255, SECP256K1_N)

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

    def test_ecsm(self):
        p, g = SECP256K1_P, SECP256K1_G
        neg_g = (g[0], p - g[1])  # odd y: the affine call keeps the caller's y
        seven_g = ec_mul(7, g, p)
        y = sqrt_3mod4(seven_g[0] ** 3 + 7, p)
        even_7g = (seven_g[0], y if y % 2 == 0 else p - y)  # the x-only call's lift of x(7G)
        scalars = [1, 2, 3, SECP256K1_N - 1, self.RANDOM_K]
        records, want = b"", b""
        for k in scalars:
            for base in (g, neg_g):
                records += ecsm_record(0, k, base[0]) + ecsm_record(1, k, *base)
                want += le256(ec_mul(k, g, p)[0]) + point(ec_mul(k, base, p))
            records += ecsm_record(0, k, seven_g[0]) + ecsm_record(2, k, *seven_g)
            want += le256(ec_mul(k, even_7g, p)[0]) + point(ec_mul(k, seven_g, p))
        self.assertEqual(ec_mul(2, g, p)[0], int(SECP256K1_2G_X, 16))  # the reference itself
        self.assertEqual(ec_mul(SECP256K1_N - 1, g, p), neg_g)
        r = self.run_cli(self.guest(self.GUEST), [b"\7" + records])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, want)
        self.assert_folded_sum(r)
        for call in ("Ecsm", "EcsmAffine"):  # main tail-calls commit_ecsm
            self.assertRegex(r.folded, r"\n_start;commit_ecsm[.\w]*;lambda_vm_syscalls_ecall;"
                                       rf"\[ecall:{call}\] 15\n")

    def test_ecsm_bad_inputs(self):
        p, (gx, gy), n = SECP256K1_P, SECP256K1_G, SECP256K1_N
        cases = [
            (ecsm_record(0, 0, gx), "lambda call Ecsm (argument 0x", "the scalar k is 0"),
            (ecsm_record(1, n, gx, gy), "call EcsmAffine", "not below secp256k1's order n"),
            (ecsm_record(1, 5, gx, gy ^ 1), "call EcsmAffine", "the point is not on secp256k1"),
            (ecsm_record(1, 5, gx, p), "call EcsmAffine", "a coordinate is not below p"),
            (ecsm_record(0, 5, 0), "call Ecsm (", "the point is not on secp256k1"),  # 7: no root
            (ecsm_record(0, 5, p + 1), "call Ecsm (", "a coordinate is not below p"),
            (ecsm_record(3, 5, gx, gy), "call EcsmAffine", "the scalar overlaps the point"),
            (ecsm_record(4, 5, gx), "call Ecsm (argument 0xffffffe8): an operand crosses a 2^32"),
        ]
        self.assertNotEqual(pow(7, (p - 1) // 2, p), 1)  # x = 0 is not on the curve
        self.assertEqual(len(cases), 8)
        for record, *words in cases:
            with self.subTest(words[-1]):
                r = self.run_cli(self.guest(self.GUEST), [b"\7" + record])
                self.assert_one_error(r, *words, "lambda_vm_syscalls_ecall")

    def test_lincomb2_branch_number_is_not_taken_for_ecsm_affine(self):
        # A guest whose symbols name ecsm_lincomb2 (lambda_vm's branch that numbers it 2^64-12).
        with open(self.guest(self.GUEST), "rb") as f:
            elf = f.read()
        old, new = b"lambda_vm_syscalls_print_string", b"lambda_vm_syscall_ecsm_lincomb2"
        self.assertEqual(len(old), len(new))
        self.assertIn(old, elf)
        gx, gy = SECP256K1_G
        r = self.run_cli(self.file("lincomb2.elf", elf.replace(old, new)),
                         [b"\7" + ecsm_record(1, 5, gx, gy)])
        self.assert_one_error(r, "lambda call ecsm_lincomb2 is not supported: its branch",
                              "lambda_vm_syscalls_ecall")


def ecall_counts(folded, caller):  # [ecall:NAME] leaves under `caller`, summed by NAME
    calls = {}
    for line in folded.splitlines():
        m = re.search(r";" + caller + r";\[ecall:(\w+)\] (\d+)$", line)
        if m:
            calls[m[1]] = calls.get(m[1], 0) + int(m[2])
    return calls


class Nexus(ZkvmTest):
    GUEST = "zkvm-nexus-rv32.elf"
    SECRET = b"secret!"  # 7 bytes: two words, the last one padded
    PUBLIC = b"public input 15"

    def test_full_run(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\0" + self.SECRET, self.PUBLIC])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")  # fd 1 only; the write to fd 2 returned -1
        minus1 = u32(0xFFFFFFFF)
        want = (self.SECRET + b"\0" + u32(len(self.PUBLIC)) + self.PUBLIC + b"\0"
                + minus1 + u32(0) + minus1 + u32(3) + u32(1) + u32(1) + minus1)
        self.assertEqual(r.public, want)
        self.assertRegex(r.stat("abi"), r"^nexus \(auto: symbol nexus_rt")
        self.assertRegex(r.stat("region"), r"^loop: 2 runs, \d+ instructions")
        self.assertEqual(r.stat("public-output"), f"{len(want)} bytes")
        self.assert_folded_sum(r)
        self.assertEqual(ecall_counts(r.folded, "nexus_rt_read_input"), {"rin": 5})
        self.assertEqual(ecall_counts(r.folded, "nexus_rt_write_output"), {"wou": 14})
        self.assertEqual(ecall_counts(r.folded, "nexus_rt_ecall"),
                         {"ReadFromPrivateInput": 9, "OverwriteStackPointer": 1,
                          "OverwriteHeapPointer": 1, "Write": 2, "CycleCount": 5, "Exit": 1})
        self.assertRegex(r.folded, r"\n_start;\[ecall:OverwriteStackPointer\] 1\n")

    def test_no_public_input(self):  # the input space is its length word alone: 0
        r = self.run_cli(self.guest(self.GUEST), [b"\0"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public[:4], u32(0))

    def test_misaligned_access_traps(self):
        # vm/src/memory/variable.rs: UnalignedMemoryRead, UnalignedMemoryWrite
        def access(op, offset):
            r = self.run_cli(self.guest(self.GUEST), [bytes([8, op, offset])])
            return r, bytes([r.code]) if r.code != 70 else None
        self.check_alignment("nexus", ("lb", "lh", "lw", "sh", "sw"), access, 1)

    def test_exit_code(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\4"], ["--zkvm", "nexus"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.stat("abi"), "nexus (--zkvm nexus)")
        self.assertEqual(r.errors, [])

    def test_unknown_call(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\1"])
        self.assert_one_error(r, "nexus call 0x300: no call has this number in a7",
                              "nexus_rt_ecall")

    def test_unregistered_precompile(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\2"])
        self.assert_one_error(r, "a custom-0 instruction (precompile 9) that no PRECOMPILE_9 symbol "
                              "registers", "nexus_rt_start_rust")

    def test_registered_dummy_div_runs(self):
        # PRECOMPILE_0 names nexus-precompiles' example DummyDiv, whose host code is rd = rs1 / rs2
        # (precompiles/examples/dummy_div/src/host.rs @ v0.3.6): 200 / 4
        r = self.run_cli(self.guest(self.GUEST), [b"\7"])
        self.assertEqual(r.code, 50, r.stderr)

    def test_access_past_memory_top(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\3"])
        self.assert_one_error(r, "load from unmapped memory (address 0x80400000)",
                              "nexus_rt_start_rust")

    def test_rin_past_the_public_input(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\5", b"abcd"])
        self.assert_one_error(r, "nexus call rin (argument 0x8)", "nexus_rt_read_input")

    def test_bad_cycle_count_label(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\6"])
        self.assert_one_error(r, "the label is not ^#NAME or $#NAME", "nexus_rt_ecall")

    def test_three_inputs_refused(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\0", b"", b""])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("Nexus takes two inputs", r.stderr)

    def test_refuses_rv64(self):
        r = self.run_cli(self.guest("hello-rv64.elf"), extra=["--zkvm", "nexus"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("Nexus guests are RV32IM", r.stderr)

    # Nexus 0.2 (nexus-zkvm v0.2.4, 0b787f2e): code from 0, calls in s2, `unimp` halts.
    GUEST02 = "zkvm-nexus02-rv32.elf"
    RELEASE02 = "0.2.4 (code from 0 (0.2's runtime/linker-scripts/default.x)"

    def test_02_full_run(self):
        r = self.run_cli(self.guest(self.GUEST02), [b"\0abc"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")  # WriteLog
        # WriteToOutput: the rest of the tape, then WriteLog's result 0, the read past the
        # tape's end -1, ProfileCycles' 5 four times, WriteToOutput's own 0
        want = (b"abc" + u32(0) + u32(0xFFFFFFFF) + u32(5) * 4 + u32(0x12345678) + u32(0))
        self.assertEqual(r.public, want)
        self.assertEqual(r.stat("public-output"), f"{len(want)} bytes")
        self.assertTrue(r.stat("nexus-release").startswith(self.RELEASE02), r.stderr)
        self.assertRegex(r.stat("abi"), r"^nexus \(auto: symbol nexus_rt")
        self.assertRegex(r.stat("region"), r"^loop: 2 runs, \d+ instructions")
        self.assert_folded_sum(r)
        self.assertEqual(ecall_counts(r.folded, "nexus_rt_write_to_output"), {"WriteToOutput": 11})
        self.assertEqual(ecall_counts(r.folded, "nexus_rt_cycle_count_ecall"),
                         {"ProfileCycles": 4})
        self.assertRegex(r.folded, r"\n_start;\[ecall:unimp\] 1\n")

    def test_02_halt_status_is_a0(self):  # main's result, abort's 1 (runtime/asm.S)
        for mode, code in ((b"\5", 42), (b"\2", 1)):
            r = self.run_cli(self.guest(self.GUEST02), [mode])
            self.assertEqual(r.code, code, r.stderr)
            self.assertEqual(r.errors, [])

    def test_02_unknown_call(self):
        r = self.run_cli(self.guest(self.GUEST02), [b"\1"])
        self.assert_one_error(r, "nexus call 0x4: no call has this number in s2",
                              "UnknownECall", "nexus_rt_start_rust")

    def test_02_region_never_started(self):
        r = self.run_cli(self.guest(self.GUEST02), [b"\3"])
        self.assert_one_error(r, "the end of a region never started", "InvalidProfileLabel",
                              "nexus_rt_cycle_count_ecall")

    def test_02_has_no_custom_instructions(self):
        r = self.run_cli(self.guest(self.GUEST02), [b"\4"])
        self.assert_one_error(r, "Nexus before 0.3 has no custom instructions",
                              "nexus_rt_start_rust")

    def test_02_profile_cycles_came_with_0_2_2(self):  # vm/src/syscalls.rs at v0.2.1: 1, 2, 3
        r = self.run_cli(self.guest(self.GUEST02), [b"\0"], ["--zkvm-release", "0.2.1"])
        self.assert_one_error(r, "ProfileCycles (5) came with 0.2.2", "nexus_rt_cycle_count_ecall")
        self.assertEqual(r.stat("nexus-release"), "0.2.1 (--zkvm-release 0.2.1)")

    def test_02_one_input_only(self):
        r = self.run_cli(self.guest(self.GUEST02), [b"\0", b""])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("Nexus 0.2 takes one input", r.stderr)

    def test_release_flag(self):
        r = self.run_cli(self.guest(self.GUEST02), [b"\0"], ["--zkvm-release", "0.3"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("code from 0 is Nexus 0.2's layout", r.stderr)
        r = self.run_cli(self.guest(self.GUEST02), [b"\0"], ["--zkvm-release", "0.4"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("--zkvm-release 0.4 is not a Nexus release", r.stderr)
        r = self.run_cli(self.guest(self.GUEST), [b"\4"], ["--zkvm-release", "v0.3.6"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.stat("nexus-release"), "0.3.6 (--zkvm-release v0.3.6)")
        r = self.run_cli(self.guest(self.GUEST), [b"\4"])
        self.assertTrue(r.stat("nexus-release").startswith("0.3 (no code from 0"), r.stderr)

    def test_0_2_layout_with_0_3_calls(self):
        # nexus-zkvm between v0.2.4 and v0.3.0 (e.g. 5159c5a3, its vm/test/helloworld.elf): code
        # from 0, calls numbered in a7 as 0.3 numbers them
        guest = self.guest("zkvm-nexus-at0-rv32.elf")
        r = self.run_cli(guest, [b"\4"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertTrue(r.stat("nexus-release").startswith("0.2's layout with 0.3's calls (code "
                                                           "from 0 as 0.2 links it"), r.stderr)
        r = self.run_cli(guest, [b"\4"], ["--zkvm-release", "0.2"])  # as 0.2.4 runs it: s2 = 0
        self.assert_one_error(r, "nexus call 0x0: no call has this number in s2", "in _start")

    def test_02_detected_without_symbols(self):
        tool = shutil.which("riscv64-unknown-elf-strip")
        if not tool:
            self.skipTest("riscv64-unknown-elf-strip not installed")
        stripped = os.path.join(self.tmp, "nexus02.elf")
        subprocess.run([tool, "--strip-all", "-o", stripped, self.guest(self.GUEST02)], check=True)
        r = self.run_cli(stripped, [b"\5"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.stat("abi"),
                         "nexus (auto: code from 0 and ecalls with their number in s2 "
                         "(Nexus 0.2's runtime))")
        self.assertTrue(r.stat("nexus-release").startswith(self.RELEASE02), r.stderr)


class Openvm(ZkvmTest):
    GUEST = "zkvm-openvm-rv32.elf"
    MESSAGE = bytes(range(200))  # two Keccak-256 blocks (rate 136), four SHA-256 blocks
    A = random.Random(21).randrange(2**256) | 1 << 255  # negative as a signed number
    B = random.Random(22).randrange(2**255) & ~0xFF | 77  # shifts by 77

    def test_full_run(self):
        a, b, m = self.A, self.B, 2**256
        r = self.run_cli(self.guest(self.GUEST), [b"\0", self.MESSAGE, le256(a) + le256(b)])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")
        signed = lambda v: v - m if v >> 255 else v
        want = (keccak256(self.MESSAGE) + hashlib.sha256(self.MESSAGE).digest() + KECCAK256_EMPTY
                + SHA256_ABC + le256((a + b) % m) + le256((a - b) % m) + le256(a * b % m)
                + le256((a << 77) % m) + le256((signed(a) >> 77) % m) + le256(int(a < b))
                + le256(int(signed(a) < signed(b))) + u32(1) + u32(0))
        self.assertEqual(r.public, want)
        self.assertEqual(keccak256(b""), KECCAK256_EMPTY)  # the reference, against a known digest
        self.assertRegex(r.stat("abi"), r"^openvm \(auto: symbol openvm")
        self.assertEqual(r.stat("public-values"), f"{len(want)} bytes")
        self.assert_folded_sum(r)
        counts = {}
        for caller in ("openvm_native_keccak256", "openvm_sha256", "openvm_int256_all",
                       "openvm_beq256", "openvm_reveal_u32", "openvm_hint_input",
                       "openvm_hint_word", "openvm_hint_buffer", "openvm_print_str",
                       "openvm_hint_random", "openvm_terminate_ok"):
            counts.update(ecall_counts(r.folded, caller))
        self.assertEqual(counts, {"KECCAK256": 2, "SHA256": 2, "ADD256": 1, "SUB256": 1,
                                  "MUL256": 1, "SLL256": 1, "SRA256": 1, "SLTU256": 1,
                                  "SLT256": 1, "BEQ256": 2, "REVEAL": len(want) // 4,
                                  "HintInput": 3, "HINT_STOREW": 5, "HINT_BUFFER": 3,
                                  "PrintStr": 1, "HintRandom": 1, "TERMINATE": 1})

    def test_one_item(self):  # guests/inputs/zkvm-openvm.in's run
        r = self.run_cli(self.guest(self.GUEST), [b"\x09hello"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, keccak256(b"hello"))

    def test_misaligned_access_traps(self):
        # loadstore/core.rs: "unaligned memory access not supported" (the trace's panic)
        def access(op, offset):
            r = self.run_cli(self.guest(self.GUEST), [bytes([14, op, offset])])
            return r, r.public
        self.check_alignment("openvm", ("lb", "lh", "lhu", "lw", "sb", "sh", "sw"), access, 4)

    def test_terminate_code(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\1"], ["--zkvm", "openvm"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.stat("abi"), "openvm (--zkvm openvm)")
        self.assertEqual(r.errors, [])

    def test_modular_arithmetic(self):
        rng = random.Random(23)
        p = SECP256K1_P
        a, b = rng.randrange(p), rng.randrange(p)
        r = self.run_cli(self.guest(self.GUEST), [b"\7", le256(p) + le256(a) + le256(b)])
        self.assertEqual(r.code, 0, r.stderr)
        want = (le256((a + b) % p) + le256((a - b) % p) + le256(a * b % p)
                + le256(a * pow(b, -1, p) % p) + u32(1) + u32(0))
        self.assertEqual(r.public, want)
        calls = {}
        for caller in ("openvm_setup_all_moduli", "openvm_modular_run", "openvm_is_eq_mod"):
            calls.update(ecall_counts(r.folded, caller))
        self.assertEqual(calls, {"SETUP_MOD": 3, "ADDMOD": 2, "SUBMOD": 1, "MULMOD": 1,
                                 "DIVMOD": 1, "ISEQMOD": 2})

    def test_modulus_not_set_up(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\x08"])
        self.assert_one_error(r, "openvm call ADDMOD (argument 0x0): the modulus was not set up",
                              "openvm_main")

    def test_weierstrass_curves(self):
        self.assertEqual(ec_double(P256_G, P256_P, P256_A), P256_2G)  # the reference, against NIST
        curves = [(SECP256K1_P, 0, SECP256K1_G, 32), (P256_P, P256_A, P256_G, 32),
                  (BN254_P, 0, (1, 2), 32), (BLS_P, 0, bls_g1(), 48)]
        inputs, want = [b"\x0a"], b""
        for p, a, g, n in curves:
            g2 = ec_double(g, p, a)
            g3 = ec_add(g, g2, p)
            inputs.append(b"".join(le(v, n) for v in (p, a, g[0], g[1], g2[0], g2[1])))
            want += b"".join(le(v, n) for v in (g3[0], g3[1], g2[0], g2[1]))
        r = self.run_cli(self.guest(self.GUEST), inputs)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, want)
        self.assert_folded_sum(r)
        self.assertEqual(ecall_counts(r.folded, r"openvm_sw_\w+"),
                         {"SETUP_EC_ADD_NE": 4, "SETUP_EC_DOUBLE": 4, "EC_ADD_NE": 4,
                          "EC_DOUBLE": 4})

    def test_curve_of_unknown_prime_refused(self):
        record = b"".join(le(v, 32) for v in (2**255 - 19, 0, 1, 2, 3, 4))
        r = self.run_cli(self.guest(self.GUEST), [b"\x0a", record])
        self.assert_one_error(r, "openvm call SETUP_EC_ADD_NE", "p at rs1 is not a modulus",
                              "openvm_sw_setup_0")

    def test_complex_extension_fields(self):
        rng = random.Random(24)
        inputs, want = [b"\x0b"], b""
        for p, n in ((BN254_P, 32), (BLS_P, 48)):
            x, y = [(rng.randrange(p), rng.randrange(p)) for _ in range(2)]
            inputs.append(b"".join(le(v, n) for v in (p, *x, *y)))
            for op in ("add", "sub", "mul", "div"):
                want += b"".join(le(v, n) for v in fp2(op, x, y, p))
            self.assertEqual(fp2("mul", fp2("div", x, y, p), y, p), x)  # the reference's division
        r = self.run_cli(self.guest(self.GUEST), inputs)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, want)
        self.assertEqual(ecall_counts(r.folded, r"openvm_complex_\w+"),
                         {"SETUP_FP2": 4, "FP2_ADD": 2, "FP2_SUB": 2, "FP2_MUL": 2, "FP2_DIV": 2})

    def test_curve_not_set_up(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\2"])
        self.assert_one_error(r, "openvm call EC_ADD_NE (argument 0x0): the curve was not set up",
                              "openvm_main")

    def test_double_at_infinity(self):
        record = b"".join(le(v, 32) for v in (SECP256K1_P, 0, 5, 0, 0, 0))
        r = self.run_cli(self.guest(self.GUEST), [b"\x0d", record])
        self.assert_one_error(r, "openvm call EC_DOUBLE", "y is 0", "openvm_sw_double_0")

    # BN254's generators; G2's x and y as c0 + c1 u (EIP-197 lists c1 first)
    BN254_G1 = (1, 2)
    BN254_G2 = (10857046999023057135944570762232829481370756359578518086990519993285655852781,
                11559732032986387107991004021392285783925812861821192530917403151452391805634,
                8495653923123431417604973247489272438418190587263600148770280649306958101930,
                4082367875863433681332203403145435568316851327593401208105741076214120093531)

    def test_final_exponentiation_hint(self):
        # (G1, G2), (-G1, G2): the hint reaches the guest through HINT_BUFFER; its values are
        # checked against @noble/curves by precompile.calls.openvm (HintFinalExp.BN254)
        p = 21888242871839275222246405745257275088696311157297823662689037894645226208583
        g1 = [self.BN254_G1, (1, p - 2)]
        item = b"".join(le(v, 32) for pt in g1 for v in pt)
        item += b"".join(le(v, 32) for _ in g1 for v in self.BN254_G2)
        r = self.run_cli(self.guest(self.GUEST), [b"\x0c", item])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(len(r.public), 768)
        u = r.public[384:]
        # u is in Fp6: its coefficients of w^1, w^3, w^5 (64 bytes each) are 0
        self.assertEqual(u[64:128] + u[192:256] + u[320:384], bytes(192))
        self.assertEqual(ecall_counts(r.folded, r"openvm_pairing_run"), {"HintFinalExp": 1})

    def test_final_exponentiation_hint_without_pairs(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\x0c", b""])
        self.assert_one_error(r, "openvm call HintFinalExp", "no pairs", "openvm_pairing_run")

    def test_hint_stream_used_up(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\3"])
        self.assert_one_error(r, "openvm call HINT_STOREW (argument 0x4): the hint stream has "
                              "fewer bytes left (HintOutOfBounds)", "openvm_hint_word")

    def test_ecall_refused(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\4"])
        self.assert_one_error(r, "openvm call ecall is not supported: OpenVM has no ecall",
                              "openvm_main")

    def test_no_input_item_left(self):
        for inputs in ([b"\5"], []):
            r = self.run_cli(self.guest(self.GUEST), inputs)
            self.assert_one_error(r, "(EndOfInputStream)", "openvm_hint_input")

    def test_access_past_memory(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\6"])
        self.assert_one_error(r, "load from unmapped memory (address 0x20000000)", "openvm_main")

    def test_linux_rv64_guest_runs_in_openvm_memory(self):  # RV64 is OpenVM 2.1's
        # its _start does not set sp (OpenVM's sets 0x0020_0400): the first push faults
        r = self.run_cli(self.guest("hello-rv64.elf"), extra=["--zkvm", "openvm"])
        self.assert_one_error(r, "store to unmapped memory (address 0xffffffffffffffe0)")

    # OpenVM 2.1's RV64 (v2.1.0-preview, perf/ecc-projective-coord at 7bfa7d3e): dword hints
    # and public values, SHA-2 compress, misaligned accesses allowed.
    GUEST64 = "zkvm-openvm64-rv64.elf"

    def test_rv64_full_run(self):
        item = b"\0hello world, twelve"
        r = self.run_cli(self.guest(self.GUEST64), [item])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")
        rest = item[1:] + bytes(-(len(item) - 1) % 8)
        keccak_f_zero_lane0 = bytes.fromhex("e7dde140798f25f1")
        want = (rest + SHA256_ABC + hashlib.sha512(b"abc").digest() + keccak_f_zero_lane0
                + (0x0123456789ABCDEF).to_bytes(8, "little"))
        self.assertEqual(r.public, want)
        self.assertTrue(r.stat("abi").startswith("openvm (auto: code at 0x200800"), r.stderr)
        self.assert_folded_sum(r)
        counts = {}
        for caller in ("openvm_sha256_compress", "openvm_sha512_compress", "openvm_keccakf",
                       "openvm_reveal_u64", "openvm_hint_input", "openvm_hint_dword",
                       "openvm_hint_buffer", "openvm_print_str", "openvm_hint_random",
                       "openvm_terminate_ok"):
            counts.update(ecall_counts(r.folded, caller))
        self.assertEqual(counts, {"SHA256": 1, "SHA512": 1, "KECCAKF": 1,
                                  "REVEAL": len(want) // 8, "HintInput": 1, "HINT_STORED": 3,
                                  "HINT_BUFFER": 1, "PrintStr": 1, "HintRandom": 1,
                                  "TERMINATE": 1})

    def test_rv64_no_input_item_left(self):
        for inputs in ([b"\1"], []):
            r = self.run_cli(self.guest(self.GUEST64), inputs)
            self.assert_one_error(r, "(EndOfInputStream)", "--input", "openvm_hint_input")

    def test_rv64_reveal_imm_is_signed(self):  # Rv64IoTranspilerExtension: STORED, imm < 0
        r = self.run_cli(self.guest(self.GUEST64), [b"\2"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, (8).to_bytes(8, "little") + (7).to_bytes(8, "little"))


class Zisk(ZkvmTest):
    GUEST = "zkvm-zisk-rv64.elf"
    NUMBERS = [random.Random(31 + i).randrange(2**256) for i in range(4)]  # a, b, c, m

    def test_full_run(self):
        a, b, c, mod = self.NUMBERS
        r = self.run_cli(self.guest(self.GUEST), [b"\0", b"".join(map(le256, self.NUMBERS))])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")  # through the UART
        zero_permuted = keccak_f([0] * 25)
        self.assertEqual(zero_permuted[0], 0xF1258F7940E1DDE7)  # Keccak team's published vector
        g2 = ec_double(SECP256K1_G, SECP256K1_P)
        g3 = ec_add(SECP256K1_G, g2, SECP256K1_P)
        self.assertEqual(g2[0], int(SECP256K1_2G_X, 16))
        want = (b"".join(v.to_bytes(8, "little") for v in zero_permuted) + SHA256_ABC
                + point(g2) + point(g3) + le256((a * b + c) % 2**256) + le256((a * b + c) >> 256)
                + le256((a * b + c) % mod) + u32(82) + u32(0xFFFEEEE))
        self.assertEqual(r.public, want)
        self.assertRegex(r.stat("abi"), r"^zisk \(auto: symbol ziskos")
        self.assertEqual(r.stat("zisk-layout"),
                         "SYS_ADDR 0xa0400000, input at 0x40000000, items (v0.16.0 on)")
        self.assert_folded_sum(r)
        counts = {}
        for call in ("keccak_f", "sha256_f", "secp256k1_dbl", "secp256k1_add", "arith256",
                     "arith256_mod"):
            counts.update(ecall_counts(r.folded, "ziskos_syscall_" + call))
        self.assertEqual(counts, {"keccakf": 1, "sha256f": 1, "secp256k1_dbl": 1,
                                  "secp256k1_add": 1, "arith256": 1, "arith256_mod": 1})
        self.assertRegex(r.folded, r"\n_start;\[ecall:exit\] 1\n")

    def test_bls12_381_and_bn254_fp2(self):
        le384 = lambda n: n.to_bytes(48, "little")
        g = (BLS_G1_X, sqrt_3mod4(BLS_G1_X**3 + 4, BLS_P))  # y^2 = x^3 + 4
        g2 = ec_double(g, BLS_P)
        g3 = ec_add(g, g2, BLS_P)
        rng = random.Random(41)
        f1, f2 = [(rng.randrange(BN254_P), rng.randrange(BN254_P)) for _ in range(2)]
        p = BN254_P
        fp2 = [((f1[0] + f2[0]) % p, (f1[1] + f2[1]) % p), ((f1[0] - f2[0]) % p, (f1[1] - f2[1]) % p),
               ((f1[0] * f2[0] - f1[1] * f2[1]) % p, (f1[0] * f2[1] + f1[1] * f2[0]) % p)]
        record = le384(g[0]) + le384(g[1]) + point(f1) + point(f2)
        r = self.run_cli(self.guest(self.GUEST), [b"\x08", record])
        self.assertEqual(r.code, 0, r.stderr)
        want = (le384(g2[0]) + le384(g2[1]) + le384(g3[0]) + le384(g3[1])
                + b"".join(point(v) for v in fp2))
        self.assertEqual(r.public, want)
        self.assert_folded_sum(r)

    def test_exit_code(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\1"], ["--zkvm", "zisk"])
        self.assertEqual(r.code, 42, r.stderr)
        self.assertEqual(r.stat("abi"), "zisk (--zkvm zisk)")
        self.assertEqual(r.public, b"")  # no outputs: the count reads 0

    # ZisK before v0.16.0 (core/src/mem.rs, emulator/src/emu_context.rs up to v0.15.0): one
    # input at 0x9000_0000, its length at + 8 after the free-input word (v0.7.0 on) or at + 0.
    OLD_INPUT = {os.path.join("tiny", "zkvm-zisk-v07-rv64.elf"):
                 "free-input word then length (v0.7.0-v0.15.0)",
                 os.path.join("tiny", "zkvm-zisk-v03-rv64.elf"): "length first (before v0.7.0)"}

    def test_input_before_v0_16(self):
        data = bytes(random.Random(43).randrange(256) for _ in range(13))
        for name, layout in self.OLD_INPUT.items():
            with self.subTest(guest=name):
                r = self.run_cli(self.guest(name), [data])
                self.assertEqual(r.code, 0, r.stderr)
                self.assertEqual(r.stdout, b"ok\n")
                self.assertEqual(r.stat("zisk-layout"),
                                 f"SYS_ADDR 0xa0000000, input at 0x90000000, {layout}")
                self.assertEqual(r.public, u32(13) + data + bytes(3))
                self.assert_folded_sum(r)

    def test_input_before_v0_16_refused(self):
        for name in self.OLD_INPUT:
            with self.subTest(guest=name):
                r = self.run_cli(self.guest(name), [b"a", b"b"])  # one input only then
                self.assertEqual(r.code, 65, r.stderr)
                self.assertIn("before v0.16.0, which reads one input at 0x90000000", r.stderr)
                r = self.run_cli(self.guest(name))  # empty: the guest panics, ending in unimp
                self.assertEqual(r.stdout, b"panicked: the input is empty\n")
                self.assert_one_error(r, "guest panicked (unimp)", "give it with --input FILE",
                                      "ziskos_panic")

    DMA_GUEST = os.path.join("zisk-dma", "zkvm-zisk-dma-rv64.elf")

    def test_arith384_add256_secp256r1(self):
        r = self.arith384_add256_secp256r1(self.GUEST)
        self.assertEqual(r.stat("zisk-precompiles"),
                         "0x815 secp256r1_add, 0x816 secp256r1_dbl (no inputcpy in the ELF)")

    def test_later_numbering_from_0x815(self):  # ZisK's definitions/src/syscall.rs, 40e35b35
        r = self.arith384_add256_secp256r1(self.DMA_GUEST)
        self.assertRegex(r.stat("zisk-precompiles"), "^0x815 and up numbered with DMA")
        r = self.run_cli(self.guest(self.DMA_GUEST), [b"\x0c"])  # no free call's results to copy
        self.assert_one_error(r, "zisk call dma_inputcpy", "ziskos_main")
        r = self.run_cli(self.guest(self.GUEST), [b"\x0c"])
        self.assert_one_error(r, "zisk call secp256r1_add (argument", "ziskos_main")

    # ZisK's DMA calls (executor/abi/zisk_dma.c): what they compute, from Python's slices
    DMA_BYTES = bytes(random.Random(34).randrange(256) for _ in range(64))

    def dma_copies_want(self):  # mode 14 in both numberings: copies, moves, compares
        b = self.DMA_BYTES
        forward, backward, flipped = bytearray(b), bytearray(b), bytearray(b)
        forward[8:48] = b[0:40]
        backward[0:40] = b[5:45]
        flipped[10] ^= 0x80
        d = b[10] - flipped[10]
        return b + forward + backward + s64(0) + s64(d) + s64(-d) + s64(0), d

    def test_dma_later_numbering(self):
        b = self.DMA_BYTES
        x = random.Random(35).randrange(SECP256K1_P)
        r = self.run_cli(self.guest(self.DMA_GUEST), [b"\x0e", b, le256(x)])
        self.assertEqual(r.code, 0, r.stderr)
        copies, d = self.dma_copies_want()
        macro_copy = bytearray(40)
        macro_copy[5:29] = b[3:27]
        fills = bytearray([0x11] * 64)
        fills[4:28] = bytes(24)
        fills[30:37] = b"\xab" * 7
        fills[40:49] = b"\x5a" * 9
        fills[52:55] = b"\x77" * 3
        inverse = le256(pow(x, -1, SECP256K1_P))
        want = (copies + macro_copy + s64(d) + s64(0) + s64(-d) + fills + u32(1)
                + inverse + inverse)
        self.assertEqual(r.public, want)
        self.assert_folded_sum(r)
        counts = {f: ecall_counts(r.folded, f) for f in
                  ("ziskos_memcpy", "ziskos_memmove", "ziskos_memcmp", "ziskos_memset", "inputcpy")}
        self.assertEqual(counts, {"ziskos_memcpy": {"dma_memcpy": 4},
                                  "ziskos_memmove": {"dma_memcpy": 2},
                                  "ziskos_memcmp": {"dma_memcmp": 4},
                                  "ziskos_memset": {"dma_memset": 2},
                                  "inputcpy": {"dma_inputcpy": 1}})

    def test_dma_earlier_numbering(self):  # the count in the csrs (memcpy.s at adf7566d)
        r = self.run_cli(self.guest(self.GUEST), [b"\x0e", self.DMA_BYTES])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, self.dma_copies_want()[0])
        self.assert_folded_sum(r)
        self.assertEqual(ecall_counts(r.folded, "ziskos_memcmp"), {"dma_memcmp": 4})

    def test_dma_faults(self):
        for guest in (self.GUEST, self.DMA_GUEST):
            r = self.run_cli(self.guest(guest), [b"\x0f"])
            self.assert_one_error(r, "zisk call dma_memcpy", "the next instruction is not its add",
                                  "ziskos_dma_faults")
            r = self.run_cli(self.guest(guest), [b"\x10"])
            self.assert_one_error(r, "zisk call dma_memcpy (argument 0xbffffff8): the destination "
                                  "is not writable memory", "ziskos_memcpy")
            r = self.run_cli(self.guest(guest), [b"\x11"])  # a count that wraps the address
            self.assert_one_error(r, "zisk call dma_memcpy", "the source is not in memory",
                                  "ziskos_memcpy")
        r = self.run_cli(self.guest(self.DMA_GUEST), [b"\x12"])
        self.assert_one_error(r, "zisk call dma_inputcpy (argument 0x8): no free call has given "
                              "result words", "inputcpy")
        r = self.run_cli(self.guest(self.DMA_GUEST), [b"\x13"])
        self.assert_one_error(r, "zisk call dma_inputcpy (argument 0x28): more bytes than the last "
                              "free call's result words left", "inputcpy")
        r = self.run_cli(self.guest(self.DMA_GUEST), [b"\x14"])
        self.assert_one_error(r, "zisk call dma_memset (argument 0x100): the fill byte is not 0 to "
                              "255", "ziskos_dma_faults")
        r = self.run_cli(self.guest(self.DMA_GUEST), [b"\x15"])
        self.assert_one_error(r, "zisk call dma_memcpy", "the marker's count is negative",
                              "ziskos_dma_faults")

    def arith384_add256_secp256r1(self, guest):
        rng = random.Random(32)
        a, b, c = (rng.randrange(2**384) for _ in range(3))
        mod = rng.randrange(2**383, 2**384) | 1
        record = b"".join(le(v, 48) for v in (a, b, c, mod))
        r = self.run_cli(self.guest(guest), [b"\x09", record, point(P256_G)])
        self.assertEqual(r.code, 0, r.stderr)
        low = lambda v: v % 2**256
        total = low(a) + low(b) + 1
        g2 = ec_double(P256_G, P256_P, P256_A)
        self.assertEqual(g2, P256_2G)  # the reference, against NIST's vector
        want = (le((a * b + c) % mod, 48) + le256(total % 2**256) + u32(total >> 256)
                + point(g2) + point(ec_add(P256_G, g2, P256_P)))
        self.assertEqual(r.public, want)
        self.assert_folded_sum(r)
        counts = {}
        for call in ("arith384_mod", "add256", "secp256r1_dbl", "secp256r1_add"):
            counts.update(ecall_counts(r.folded, "ziskos_syscall_" + call))
        self.assertEqual(counts, {"arith384_mod": 1, "add256": 1, "secp256r1_dbl": 1,
                                  "secp256r1_add": 1})
        return r

    def test_free_input_calls(self):
        u64s = lambda *v: struct.pack(f"<{len(v)}Q", *v)
        # ZisK's own test vectors (zisklib/fcalls_impl/secp256k1/fp_sqrt.rs): a square and its
        # roots of parity 0 and 1, and a non-square with the root of 3 x it answers
        x = u64s(0x643764B2FAA1592A, 0x4AC3AB52286F702A, 0x6591D88C833FFD4F, 0xC6FB7A1E514EAC26)
        root0 = u64s(0xA3D2FB0160F29DF6, 0x3EBCE4D565B52649, 0x4CDEC0BF5C968639, 0x123E42087C415355)
        root1 = u64s(0x5C2D04FD9F0D5E39, 0xC1431B2A9A4AD9B6, 0xB3213F40A36979C6, 0xEDC1BDF783BEACAA)
        y = u64s(0x643764B2FAA1592C, 0x4AC3AB52286F702A, 0x6591D88C833FFD4F, 0xC6FB7A1E514EAC26)
        root_3y = u64s(0xDAB2978E63122590, 0x5DC785C971480237, 0x87A60DF9F92B07B9, 0x855B365E9F83D30D)
        # and its BLS12-381 ones (bls12_381/fp_sqrt.rs): a square, a non-square and the root of 2 x
        bls_sq = u64s(0xF22CB1516A067D13, 0x3E46BE206AB02DE6, 0x93153C30D0917C98,
                      0x597D68CA77B5FA6D, 0x44A50733DF914E5E, 0x0F7377B1BB431D82)
        bls_root = u64s(0x516E9B68EC7E4040, 0x4B1F0DE82104D372, 0x7E742E30000909D7,
                        0x44051766A1553492, 0xE7043EA4BFFC292F, 0x03EFCB69D6BF0CE0)
        bls_nonsq = u64s(0x361799CCD540A764, 0xF606E6B453A13BD8, 0x8880BD6A4B0B963A,
                         0x8C9A8B3BA67F6D02, 0x922D30923791C733, 0x1975E3CCD03944CA)
        bls_root_2x = u64s(0x5514D9E1A2FAEBF1, 0x391ED94DEC028013, 0x5A8C79B17991FDED,
                           0x56207337F5F736D0, 0x0C6F1181533CC4B6, 0x0B1D40EDB0C1FEC0)
        rng = random.Random(33)
        z = rng.randrange(BLS_P)
        f = (rng.randrange(BN254_P), rng.randrange(BN254_P))
        g = (rng.randrange(BLS_P), rng.randrange(BLS_P))
        xv = int.from_bytes(x, "little")
        self.assertEqual(int.from_bytes(root0, "little") ** 2 % SECP256K1_P, xv)
        pad = bytes(16)
        r = self.run_cli(self.guest(self.GUEST),
                         [b"\x0a", x, y, le(z, 64), point(f), le(g[0], 48) + le(g[1], 48),
                          bls_sq + pad, bls_nonsq + pad])
        self.assertEqual(r.code, 0, r.stderr)
        inv_f = fp2("div", (1, 0), f, BN254_P)
        inv_g = fp2("div", (1, 0), g, BLS_P)
        want = (le256(pow(xv, -1, SECP256K1_P)) + le256(pow(xv, -1, SECP256K1_N))
                + u64s(1) + root0 + u64s(1) + root1 + le256(pow(xv, -1, BN254_P))
                + u64s(0) + root_3y + le(pow(z, -1, BLS_P), 48) + point(inv_f)
                + le(inv_g[0], 48) + le(inv_g[1], 48) + u64s(1) + bls_root + u64s(0) + bls_root_2x)
        self.assertEqual(r.public, want)
        self.assert_folded_sum(r)
        self.assertEqual(ecall_counts(r.folded, r"ziskos_fcall_\w+"),
                         {"fcall_param": 14, "fcall_secp256k1_fp_inv": 1,
                          "fcall_secp256k1_fn_inv": 1, "fcall_secp256k1_fp_sqrt": 3,
                          "fcall_bn254_fp_inv": 1, "fcall_bls12_381_fp_inv": 1,
                          "fcall_bn254_fp2_inv": 1, "fcall_bls12_381_fp2_inv": 1,
                          "fcall_bls12_381_fp_sqrt": 2,
                          "fcall_get": 4 * 3 + 5 * 3 + 6 + 8 + 12 + 7 * 2})

    def test_early_fcall_csr(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\x0d"])
        self.assert_one_error(r, "zisk call 0x860: early ziskos's free calls", "ziskos_main")

    def test_fcall_get_without_a_call(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\x0b"])
        self.assert_one_error(r, "zisk call fcall_get (argument 0x0): the last free call's result "
                              "words are used up", "ziskos_fcall_get")

    # pil2-proofman fields/src/poseidon2.rs's known answer for Poseidon16 of 0..15 (the crate
    # ZisK's opc_poseidon2 calls)
    POSEIDON2_0_15 = [9639188652563994454, 12273372933164734616, 2905147255612444119,
                      17581461329934617288, 14390794100096760072, 5468485695976078057,
                      2832370985856357627, 1116111836864400812, 14997632823506024332,
                      3976503894892102369, 14874978986912301676, 12458748982184310703,
                      103345454961107931, 3354965064850558444, 14413825288474057217,
                      4214638127285300968]

    def test_poseidon2_blake2b_round_profile(self):  # mode 2; blake2b against hashlib
        cells = b"".join(i.to_bytes(8, "little") for i in range(16))
        for guest, csr in ((self.GUEST, "0x817"), (self.DMA_GUEST, "0x819")):
            for msg in (b"", b"abc", bytes(range(128))):
                with self.subTest(guest=guest, size=len(msg)):
                    r = self.run_cli(self.guest(guest), [b"\2", cells, msg])
                    self.assertEqual(r.code, 0, r.stderr)
                    want = b"".join(v.to_bytes(8, "little") for v in self.POSEIDON2_0_15)
                    self.assertEqual(r.public, want + hashlib.blake2b(msg).digest())
                    counts = ecall_counts(r.folded, "ziskos_syscall_blake2b_round")
                    self.assertEqual(counts, {"blake2b_round": 12}, csr)
                    marks = "2 (csrs 0x81A, no effect in ZisK)" if guest == self.DMA_GUEST else None
                    self.assertEqual(r.stat("zisk-profile-marks"), marks)

    def test_other_ecall(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\3"])
        self.assert_one_error(r, "zisk call 0x40: ZisK's only ecall is exit", "ziskos_main")

    def test_input_is_read_only(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\4"])
        self.assert_one_error(r, "store to read-only memory (address 0x40000000)", "ziskos_main")

    def test_equal_points_refused(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\5"])
        self.assert_one_error(r, "zisk call secp256k1_add", "the points share x",
                              "ziskos_syscall_secp256k1_add")

    def test_fcall_not_implemented(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\6"])
        self.assert_one_error(r, "zisk call fcall_secp256k1_msm_edges (argument 0x5): v0.16.x's id 5, "
                              "which ZisK's host has no arm for", "ziskos_main")

    def test_access_past_ram(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\7"])
        self.assert_one_error(r, "load from unmapped memory (address 0xc0000000)", "ziskos_main")

    def test_refuses_rv32(self):
        r = self.run_cli(self.guest("hello-rv32.elf"), extra=["--zkvm", "zisk"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("ZisK guests are RV64", r.stderr)


def jolt_memory_layout(max_input, max_output, trusted, untrusted):
    """The I/O addresses of Jolt's MemoryLayout::new (a16z/jolt @ 01f78185,
    common/src/jolt_device.rs), written out here from its source."""
    def up8(v):
        return (v + 7) // 8 * 8
    max_input, max_output, trusted, untrusted = map(up8, (max_input, max_output, trusted, untrusted))
    words = (max_input + max_output + trusted + untrusted + 16) // 8
    io_bytes = 8 * (1 << (words - 1).bit_length())  # u64::next_power_of_two
    lowest = 0x8000_0000 - io_bytes
    if trusted >= untrusted:
        trusted_start, untrusted_start = lowest, lowest + trusted
    else:
        untrusted_start, trusted_start = lowest, lowest + untrusted
    input_start = max(trusted_start + trusted, untrusted_start + untrusted)
    output_start = input_start + max_input
    panic = output_start + max_output
    return {"lowest": lowest, "input": input_start, "output": output_start, "panic": panic,
            "termination": panic + 8, "io_end": panic + 16}


def jolt_io_stat(layout):
    return ("input 0x{input:x} output 0x{output:x} panic 0x{panic:x} "
            "termination 0x{termination:x}".format(**layout))


class Jolt(ZkvmTest):
    GUEST = "zkvm-jolt-rv64.elf"
    # guests/CMakeLists.txt builds these two for other sizes: baked into the code, and as symbols.
    SIZED = os.path.join("jolt-sized", "zkvm-jolt-sized-rv64.elf")  # apart: needs --jolt-memory
    SIZED_SIZES = (100, 1000, 0, 256)
    SIZED_OPTION = ("max_input_size=100,max_output_size=1000,max_trusted_advice_size=0,"
                    "max_untrusted_advice_size=256")
    SYMBOLS = "zkvm-jolt-symbols-rv64.elf"
    SYMBOLS_SIZES = (40000, 5000, 4096, 8192)

    def test_misaligned_access_traps(self):
        # tracer/src/emulator/mmu.rs: "Unaligned load_word" and the like; compressed too
        def access(op, offset):
            r = self.run_cli(self.guest(self.GUEST), [bytes([7, op, offset])])
            return r, r.public
        self.check_alignment("jolt", ("lh", "lw", "lwu", "ld", "sd", "c.lw", "c.sw", "c.ld",
                                      "c.sd"), access, 8)

    def test_full_run(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\0", b"\x01\x02", b"\x03\x04"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"jolt\nok\n")
        zero_permuted = keccak_f([0] * 25)
        self.assertEqual(zero_permuted[0], 0xF1258F7940E1DDE7)  # Keccak team's published vector
        want = (b"\x01\x02\x03\x04" + b"".join(v.to_bytes(8, "little") for v in zero_permuted)
                + SHA256_ABC + SHA256_ABC)
        self.assertEqual(r.public, want)
        self.assertEqual(r.stat("jolt-output-bytes"), str(len(want)))
        self.assertRegex(r.stat("abi"), r"^jolt \(auto: symbol jolt_sdk")
        default = jolt_memory_layout(4096, 4096, 4096, 4096)
        self.assertEqual(default["input"], 0x7FFF_A000)  # the addresses docs/ZKVMS.md gives
        self.assertEqual(default["termination"], 0x7FFF_C008)
        self.assertEqual(r.stat("jolt-io"), jolt_io_stat(default))
        self.assertRegex(r.stderr, r'(?m)^"keccak": [1-9]\d* RV64IMAC cycles$')
        self.assert_folded_sum(r)
        self.assertEqual(ecall_counts(r.folded, "jolt_sdk_keccak_f"), {"KECCAK256_INLINE": 1})
        self.assertEqual(ecall_counts(r.folded, "jolt_sdk_sha256_init"), {"SHA256_INIT_INLINE": 1})
        self.assertEqual(ecall_counts(r.folded, "jolt_sdk_sha256_compress"), {"SHA256_INLINE": 1})
        self.assertEqual(ecall_counts(r.folded, "jolt_sdk_println_custom"), {"print": 1})
        self.assertEqual(ecall_counts(r.folded, "jolt_sdk_ecall"),
                         {"print": 1, "start_cycle_tracking": 1, "end_cycle_tracking": 1})

    def test_blake2b_inline(self):
        # BLAKE2_INLINE as jolt-inlines/blake2's sdk digest() calls it on a
        # one-block message, against Python's hashlib.blake2b.
        for msg in (b"", b"abc", bytes(range(128))):
            r = self.run_cli(self.guest(self.GUEST), [bytes([8, len(msg)]) + msg])
            self.assertEqual(r.code, 0, r.stderr)
            self.assertEqual(r.public, hashlib.blake2b(msg).digest())
            self.assertEqual(ecall_counts(r.folded, "jolt_sdk_blake2b_compress"), {"BLAKE2_INLINE": 1})

    def test_guest_is_compressed(self):
        with open(self.guest(self.GUEST), "rb") as f:
            head = f.read(64)
        self.assertEqual(int.from_bytes(head[48:52], "little") & 1, 1)  # e_flags: EF_RISCV_RVC

    def test_panic_word(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\1"], ["--zkvm", "jolt"])
        self.assertEqual(r.stat("abi"), "jolt (--zkvm jolt)")
        self.assert_one_error(r, "guest panicked", "Jolt's panic word", "jolt_sdk_main")

    def test_store_past_ram(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\2"])
        self.assert_one_error(r, "store to unmapped memory (address 0x88000000)", "jolt_sdk_main")

    def test_inline_not_implemented(self):
        # funct7 5 funct3 3: secp256k1's reserved slot, no inline registered there
        r = self.run_cli(self.guest(self.GUEST), [b"\3"])
        self.assert_one_error(r, "jolt call SECP256K1_INLINE is not supported", "jolt_sdk_main")

    def test_secp256k1_inlines_and_advice_tape(self):
        # SECP256K1_MULQ and _DIVQ as jolt-inlines/secp256k1's sdk calls them,
        # against Python's integers mod p; then the product's two words
        # through the advice tape (written by ecall and by VirtualHostIO, read
        # by the 01f78185 and HEAD advice LD words), back in order.
        p = 2**256 - 2**32 - 977
        for a, b in ((3, 5), (p - 1, p - 2), (2**255 + 12345, 2**200 + 7)):
            r = self.run_cli(self.guest(self.GUEST),
                             [b"\x09" + a.to_bytes(32, "little") + b.to_bytes(32, "little")])
            self.assertEqual(r.code, 0, r.stderr)
            product = a * b % p
            want = product.to_bytes(32, "little") + (product * pow(b, -1, p) % p).to_bytes(32, "little")
            self.assertEqual(r.public, want + product.to_bytes(32, "little")[:16])
            self.assertEqual(ecall_counts(r.folded, "jolt_sdk_secp256k1_mulq"), {"SECP256K1_MULQ": 1})
            self.assertEqual(ecall_counts(r.folded, "jolt_sdk_secp256k1_divq"), {"SECP256K1_DIVQ": 1})
            self.assertEqual(ecall_counts(r.folded, "jolt_sdk_advice_write"), {"advice_write": 2})
            self.assertEqual(ecall_counts(r.folded, "jolt_sdk_advice_read_u64"), {"ADVICE_LD": 2})

    def test_advice_load_past_the_tape(self):
        # jolt-sdk's AdviceReader on a tape no compute_advice pass filled: the tracer panics
        r = self.run_cli(self.guest(self.GUEST), [b"\x0a"])
        self.assert_one_error(r, "ADVICE_LD", "compute_advice", "jolt_sdk_advice_read_u64")

    def test_other_ecall(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\4"])
        self.assert_one_error(r, "jolt call 0x7: Jolt's calls are print (a0 = 0x505249)", "jolt_sdk_ecall")

    def test_input_is_read_only(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\5"])
        self.assert_one_error(r, "store to read-only memory (address 0x7fffa000)", "jolt_sdk_main")

    def test_input_too_large(self):
        r = self.run_cli(self.guest(self.GUEST), [bytes(4097)])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("larger than the guest's max_input_size (4096 bytes, Jolt's defaults)",
                      r.stderr)

    def full_run_output(self, r):
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"jolt\nok\n")
        want = (b"\x01\x02\x03\x04" + b"".join(v.to_bytes(8, "little") for v in keccak_f([0] * 25))
                + SHA256_ABC + SHA256_ABC)
        self.assertEqual(r.public, want)

    def test_other_sizes_given(self):
        # Baked-in sizes: nothing in the ELF says them, --jolt-memory does.
        layout = jolt_memory_layout(*self.SIZED_SIZES)
        self.assertEqual(layout["input"], 0x7FFF_F900)  # untrusted advice first, 2 KiB region
        r = self.run_cli(self.guest(self.SIZED), [b"\0", b"\x01\x02", b"\x03\x04"],
                         ["--jolt-memory", self.SIZED_OPTION])
        self.full_run_output(r)
        self.assertEqual(r.stat("jolt-io"), jolt_io_stat(layout))
        self.assertIn("(--jolt-memory)", r.stat("jolt-memory"))
        self.assert_folded_sum(r)

    def test_other_sizes_echo_and_panic(self):
        r = self.run_cli(self.guest(self.SIZED), [b"\6\x03\x00abc"], ["--jolt-memory", self.SIZED_OPTION])
        self.assertEqual((r.code, r.public), (0, b"abc"), r.stderr)
        r = self.run_cli(self.guest(self.SIZED), [b"\1"], ["--jolt-memory", self.SIZED_OPTION])
        panic = jolt_memory_layout(*self.SIZED_SIZES)["panic"]
        self.assert_one_error(r, "guest panicked", f"Jolt's panic word (0x{panic:x})")
        r = self.run_cli(self.guest(self.SIZED), [bytes(100)], ["--jolt-memory", self.SIZED_OPTION])
        self.assertEqual(r.code, 0, r.stderr)  # mode 0 with zeros: exactly max_input_size fits
        r = self.run_cli(self.guest(self.SIZED), [bytes(101)], ["--jolt-memory", self.SIZED_OPTION])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("larger than the guest's max_input_size (100 bytes, --jolt-memory)", r.stderr)

    def test_other_sizes_not_given(self):
        # Run with the default layout, the guest reads its input where nothing is mapped: it
        # stops there, saying why, instead of running on zeros.
        r = self.run_cli(self.guest(self.SIZED), [b"\0", b"\x01\x02", b"\x03\x04"])
        layout = jolt_memory_layout(*self.SIZED_SIZES)
        self.assert_one_error(r, f"load from unmapped memory (address 0x{layout['input']:x})",
                              "jolt_sdk_main", "Jolt's defaults", "--jolt-memory")
        self.assertEqual(r.public, b"")

    def test_other_sizes_mistaken(self):
        # Wrong sizes given: the guest's first output store lands in that layout's read-only
        # input or advice (the last one's untrusted advice comes first, as the larger); or its
        # output lands in that layout's output and its termination store, which these sizes
        # move, stops the run. Either way: exit 70, naming the option.
        actual = jolt_memory_layout(*self.SIZED_SIZES)
        for sizes, where, words in [((1024, 1000, 0, 0), actual["output"], "in Jolt's input"),
                                    ((100, 1000, 0, 0), actual["termination"], "outside Jolt's I/O"),
                                    ((100, 1000, 8, 512), actual["output"], "in Jolt's advice")]:
            wrong = jolt_memory_layout(*sizes)
            self.assertNotEqual(wrong["termination"], actual["termination"])
            spec = ",".join(f"{n}={v}" for n, v in zip(
                ["max_input_size", "max_output_size", "max_trusted_advice_size",
                 "max_untrusted_advice_size"], sizes))
            r = self.run_cli(self.guest(self.SIZED), [b"\0", b"\x01\x02", b"\x03\x04"],
                             ["--jolt-memory", spec])
            self.assert_one_error(r, f"store to read-only memory (address 0x{where:x})", words,
                                  f"[0x{wrong['lowest']:x}, 0x{wrong['io_end']:x})", "(--jolt-memory)",
                                  "needs them as --jolt-memory")

    def test_sizes_from_symbols(self):
        layout = jolt_memory_layout(*self.SYMBOLS_SIZES)
        self.assertLess(layout["lowest"], 0x7FFF_8000)  # larger than the default region
        r = self.run_cli(self.guest(self.SYMBOLS), [b"\0", b"\x01\x02", b"\x03\x04"])
        self.full_run_output(r)
        self.assertEqual(r.stat("jolt-io"), jolt_io_stat(layout))
        self.assertEqual(r.stat("jolt-memory"),
                         "max_input_size=40000,max_output_size=5000,max_trusted_advice_size=4096,"
                         "max_untrusted_advice_size=8192 (the ELF's __jolt_max_*_size symbols)")
        # An input larger than the default 4 KiB, echoed to fill the 5000-byte output exactly.
        data = random.Random(11).randbytes(5000)
        r = self.run_cli(self.guest(self.SYMBOLS), [b"\6" + (5000).to_bytes(2, "little") + data])
        self.assertEqual((r.code, r.public), (0, data), r.stderr)
        self.assertEqual(r.stat("jolt-output-bytes"), "5000")

    def test_option_over_symbols(self):
        # --jolt-memory wins over the symbols: here wrongly, the guest's input is not mapped.
        r = self.run_cli(self.guest(self.SYMBOLS), [b"\0"], ["--jolt-memory", "max_input_size=4096"])
        input_start = jolt_memory_layout(*self.SYMBOLS_SIZES)["input"]
        self.assert_one_error(r, f"load from unmapped memory (address 0x{input_start:x})",
                              "--jolt-memory")

    def test_default_sizes_spelled_out(self):
        r = self.run_cli(self.guest(self.GUEST), [b"\0", b"\x01\x02", b"\x03\x04"],
                         ["--jolt-memory", "max_input_size=4096,max_output_size=0x1000,"
                          "stack_size=65536,memory_size=33554432"])
        self.full_run_output(r)

    def test_bad_jolt_memory(self):
        elf = self.guest(self.GUEST)
        for spec, words in [
                ("max_input=4096", "unknown size 'max_input'"),
                ("max_input_size=4k", "max_input_size wants a byte count"),
                ("max_input_size=", "max_input_size wants a byte count"),
                ("max_input_size=-1", "max_input_size wants a byte count"),
                ("max_input_size=1,max_input_size=2", "max_input_size given twice"),
                ("max_input_size", "'max_input_size' is not NAME=N"),
                ("max_input_size=8,", "'' is not NAME=N"),
                ("max_trusted_advice_size=3000", "powers of two or 0"),
                ("max_output_size=2147483648", "max_output_size wants a byte count below 2^31")]:
            p = subprocess.run([CLI, "execute", elf, "--jolt-memory", spec], capture_output=True,
                               timeout=TIMEOUT)
            self.assertEqual(p.returncode, 64, spec)
            err = p.stderr.decode()
            self.assertEqual(len(err.splitlines()), 1, err)
            self.assertTrue(err.startswith("error: --jolt-memory: "), err)
            self.assertIn(words, err)
        p = subprocess.run([CLI, "execute", self.guest("hello-rv64.elf"), "--jolt-memory",
                            "max_input_size=8"], capture_output=True, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 64)
        self.assertIn("--jolt-memory is for Jolt guests; this one runs as linux", p.stderr.decode())

    def test_refuses_rv32(self):
        r = self.run_cli(self.guest("hello-rv32.elf"), extra=["--zkvm", "jolt"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("Jolt guests are RV64", r.stderr)


class WithoutC(ZkvmTest):
    """SP1, RISC Zero, Nexus and OpenVM have no C: an ELF built with it
    (guests/zkvm/rvc.S) runs as RV32IM, as their executors read it: SP1's
    disassembler/elf.rs takes every 4-byte word of the text as an
    instruction and refuses an entry point that is not 4-byte aligned;
    RISC Zero's rv32im.rs traps a word whose low bits are not 11 as
    IllegalInstruction. Linux runs the same ELFs with C (docs/ZKVMS.md,
    "Compressed instructions")."""
    ABIS = ("sp1", "risc0", "nexus", "openvm")  # whose memory maps take text at 0x0020_0800
    MISSING_C = "executor runs RV32IM, without compressed instructions: build the guest " \
                "without C (-march=rv32im)"

    def rvc(self, variant):
        return self.guest(os.path.join("weights", f"zkvm-rvc-{variant}-rv32.elf"))

    def test_built_with_c_runs_without_it(self):
        """Four 4-byte instructions and no compressed one: the flag alone changes nothing
        but a warning."""
        r = self.run_cli(self.rvc("plain"), extra=["--zkvm", "sp1"])
        self.assertEqual((r.code, r.errors), (7, []), r.stderr)
        self.assertEqual(r.stat("instructions"), "4")
        self.assertIn("is built with compressed instructions (EF_RISCV_RVC), which sp1's "
                      "executor does not run: it runs as RV32IM", r.stderr)
        r = self.run_cli(self.rvc("plain"), extra=["--zkvm", "linux"])
        self.assertEqual((r.code, r.stat("instructions")), (7, "4"), r.stderr)
        self.assertNotIn("warning:", r.stderr)

    def test_compressed_instruction_is_illegal(self):
        for abi in self.ABIS:
            with self.subTest(abi=abi):
                r = self.run_cli(self.rvc("first_compressed"), extra=["--zkvm", abi])
                self.assert_one_error(r, "illegal instruction 0x", f"{abi}'s {self.MISSING_C}",
                                      "at pc 0x200800 in _start, after 0 instructions")
                # The c.li a0, 7 halfword is the word's low half.
                word = int(re.search(r"illegal instruction 0x([0-9a-f]{8})", r.errors[0])[1], 16)
                self.assertEqual(word & 0xFFFF, 0x451D)
        r = self.run_cli(self.rvc("first_compressed"), extra=["--zkvm", "linux"])
        self.assertEqual((r.code, r.errors, r.stat("instructions")), (7, [], "4"), r.stderr)

    def test_jump_to_a_halfword_is_misaligned(self):
        r = self.run_cli(self.rvc("half_target"), extra=["--zkvm", "sp1"])
        self.assert_one_error(r, "jump to misaligned target 0x200812", f"sp1's {self.MISSING_C}")
        # With C the jalr lands on c.li a0, 9 (after addi, auipc, addi, jalr; then 3 more).
        r = self.run_cli(self.rvc("half_target"), extra=["--zkvm", "linux"])
        self.assertEqual((r.code, r.errors, r.stat("instructions")), (9, [], "8"), r.stderr)

    def test_entry_on_a_halfword_is_refused(self):
        for abi in self.ABIS:
            with self.subTest(abi=abi):
                r = self.run_cli(self.rvc("half_entry"), extra=["--zkvm", abi])
                self.assertEqual(r.code, 65, r.stderr)
                self.assertEqual(len(r.errors), 1, r.stderr)
                self.assertIn("entry point 0x200802 is not 4-byte aligned, as a hart without C "
                              f"needs: {abi}'s {self.MISSING_C}", r.errors[0])
        r = self.run_cli(self.rvc("half_entry"), extra=["--zkvm", "linux"])
        self.assertEqual((r.code, r.errors), (7, []), r.stderr)


class Pico(ZkvmTest):
    """Pico (brevis-network/pico, v1.0.0 to v1.3.0): its memory map, codes and fds."""

    ELF = "zkvm-pico-rv32.elf"
    # Pico's own known answer for POSEIDON2_PERMUTE of zeros (gnark/poseidon2/
    # poseidon2_koalabear_test.go at v1.3.0 f8617c9c).
    POSEIDON2_ZERO = (1330215056, 1388930081, 1337212159, 2038180411, 1881671374, 164509734,
                      498654582, 1841854018, 82116708, 1571428065, 117003252, 1678395592,
                      2088326992, 1852522451, 1063576961, 1871812444)

    def run_pico(self, items, extra=()):
        return self.run_cli(self.guest(self.ELF), items, extra)

    def test_full_run(self):
        # The stack grows below the text (sp loaded from a static 0x0020_0400): it must be
        # memory, as in Pico's one flat array.
        r = self.run_pico([b"\0", le256(X), le256(Y) + le256(M)])
        self.assertEqual(r.code, 0, r.stderr)
        # cycle-tracker lines are logged by Pico as any line: they stay output here
        self.assertEqual(r.stdout, b"cycle-tracker-start: hashes\ncycle-tracker-end: hashes\nok\n")
        self.assertEqual(r.public, SHA256_ABC + KECCAK256_EMPTY + le256(X * Y % M))
        self.assertEqual(r.stat("committed-digest"), SHA256_ABC.hex())
        self.assertRegex(r.stat("abi"), r"^pico \(auto: symbol pico_sdk")
        self.assertRegex(r.stat("region"), r"^hashes: 1 runs, \d+ instructions")
        self.assertRegex(r.stat("pico-release"), r"^v1\.3\.0 \(not known")
        self.assert_folded_sum(r)
        self.assertIn(";pico_sdk_sha256_compress;pico_sdk_syscall;[ecall:SHA_EXTEND] 1\n", r.folded)

    def test_cycle_tracker_came_in_v1_1_8(self):
        r = self.run_pico([b"\0", le256(X), le256(Y) + le256(M)], ["--zkvm-release", "1.1.7"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertIsNone(r.stat("region"))
        self.assertEqual(r.stat("pico-release"), "v1.1.7 (--zkvm-release 1.1.7: v1.1.7)")

    def test_poseidon2_koalabear(self):
        r = self.run_pico([b"\1"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, struct.pack("<16I", *self.POSEIDON2_ZERO))
        # v1.0.x ran its own rounds with the S-box x^7: another permutation
        r = self.run_pico([b"\1"], ["--zkvm-release", "1.0"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertNotEqual(r.public, struct.pack("<16I", *self.POSEIDON2_ZERO))

    def test_secp256k1_field_calls_at_pico_codes(self):
        x, y = SECP256K1_G  # any two elements below p
        x, y = x * 7 % SECP256K1_P, y
        r = self.run_pico([b"\2", le256(x) + le256(y)])
        self.assertEqual(r.code, 0, r.stderr)
        p = SECP256K1_P
        self.assertEqual(r.public, le256(x * y % p) + le256((x + y) % p) + le256((x - y) % p))

    def test_halt_code_is_the_exit_status(self):
        r = self.run_pico([b"\3"])
        self.assertEqual(r.code, 42, r.stderr)

    def test_input_exhausted_names_input(self):
        r = self.run_pico([b"\4"])
        self.assert_one_error(r, "HINT_READ", "input is exhausted", "--input")

    def test_fd4_appends_an_item(self):
        # input_stream.push: after the items still unread
        r = self.run_pico([b"\5\1", b"given"])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, u32(5) + b"given" + u32(6) + b"pushed")

    def test_unconstrained_block_is_undone(self):
        r = self.run_pico([b"\6"])
        self.assertEqual(r.code, 0, r.stderr)
        # the enter returns 0 after the block; the word is back; the pushed item stays
        self.assertEqual(r.public, u32(0) + u32(5) + u32(10) + b"from-block")
        self.assertIn("unconstrained: 1 blocks", r.stderr)

    def hook(self, fd, count, payload):
        return self.run_pico([b"\7", bytes([fd, count]) + payload])

    def test_hook_ed_decompress(self):
        # fd 8: [1] when the 32 bytes are a compressed point, [0] otherwise
        y = ED_B[1]
        r = self.hook(8, 1, le(y, 32))
        self.assertEqual(r.public, u32(1) + b"\1", r.stderr)
        no_x = next(v for v in range(2, 100)
                    if pow((v * v - 1) * pow(ED_D * v * v + 1, -1, ED_P) % ED_P,
                           (ED_P - 1) // 2, ED_P) == ED_P - 1)
        r = self.hook(8, 1, le(no_x, 32))
        self.assertEqual(r.public, u32(1) + b"\0", r.stderr)
        r = self.hook(8, 1, le(y, 32)[:31])  # not 32 bytes
        self.assertEqual(r.public, u32(1) + b"\0", r.stderr)

    def test_hook_ecrecover(self):
        # fd 5: [y odd << 7][r][alpha] -> [1][y][1/r mod n] when alpha is a square
        p, n = SECP256K1_P, SECP256K1_N
        x = SECP256K1_G[0]
        alpha = (x**3 + 7) % p
        rr = 12345
        for odd in (0, 1):
            r = self.hook(5, 3, bytes([odd << 7]) + rr.to_bytes(32, "big") + alpha.to_bytes(32, "big"))
            self.assertEqual(r.code, 0, r.stderr)
            y = sqrt_3mod4(alpha, p)
            y = y if y % 2 == odd else p - y
            self.assertEqual(r.public, u32(1) + b"\1" + u32(32) + y.to_bytes(32, "big") + u32(32)
                             + pow(rr, -1, n).to_bytes(32, "big"))
        non_square = next(a for a in range(2, 100) if sqrt_3mod4(a, p) is None)
        r = self.hook(5, 2, b"\0" + rr.to_bytes(32, "big") + non_square.to_bytes(32, "big"))
        self.assertEqual(r.public, u32(1) + b"\0" + u32(32)
                         + sqrt_3mod4(3 * non_square, p).to_bytes(32, "big"), r.stderr)
        r = self.hook(5, 1, b"\0" * 10)  # not 65 bytes: [0]
        self.assertEqual(r.public, u32(1) + b"\0", r.stderr)

    def call(self, code, a0=0, a1=0, extra=()):
        return self.run_pico([b"\x08", struct.pack("<3I", code, a0, a1)], extra)

    def test_release_gates(self):
        # SECP256R1_DOUBLE (0x131) came in v1.2.2; VERIFY_PICO_PROOF in v1.1.6
        self.assert_one_error(self.call(0x131, 0x100000, extra=["--zkvm-release", "1.2.1"]),
                              "SECP256R1_DOUBLE", "came in v1.2.2")
        self.assert_one_error(self.call(0x1B, extra=["--zkvm-release", "1.1.5"]),
                              "VERIFY_PICO_PROOF", "came in v1.1.6")
        r = self.call(0x1B)
        self.assertEqual((r.code, r.public), (0, u32(0x1B)), r.stderr)
        self.assertIn("deferred-proofs: 1 VERIFY_PICO_PROOF", r.stderr)

    def test_unknown_code_and_bad_release(self):
        self.assert_one_error(self.call(0x133), "invalid syscall number")
        r = self.run_pico([b"\3"], ["--zkvm-release", "2.0"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("not a Pico release", r.stderr)

    def test_misaligned_access_traps(self):
        r = self.call(0x0001012F, 0x100002, 0x100000)  # POSEIDON2_PERMUTE's input misaligned
        self.assert_one_error(r, "POSEIDON2_PERMUTE", "aligned")


class Detection(ZkvmTest):
    def test_linux_guest_runs_as_linux(self):
        r = self.run_cli(self.guest("hello-rv32.elf"))
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stat("abi"),
                         "linux (auto: no zkVM's marks; ecalls with Linux syscall numbers in a7)")
        self.assertNotIn("[ecall:", r.folded)  # Linux system calls are not frames

    def test_unknown_zkvm_name(self):
        p = subprocess.run([CLI, "execute", self.guest("hello-rv32.elf"), "--zkvm", "nope"],
                           capture_output=True, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 64)
        self.assertIn("--zkvm wants auto, linux, sp1, risc0, lambda, nexus, openvm, zisk, jolt",
                      p.stderr.decode())

    def test_risc0_refuses_rv64(self):
        r = self.run_cli(self.guest("hello-rv64.elf"), extra=["--zkvm", "risc0"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("RISC Zero guests are RV32IM", r.stderr)

    def test_segments_outside_the_memory_map(self):
        # SP1 v6 links above 0x7800_0000: outside RISC Zero's user memory.
        r = self.run_cli(self.guest("zkvm-sp1-rv64.elf"), extra=["--zkvm", "risc0"])
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("as a risc0 guest", r.stderr)

    # Each bundled zkVM guest, stripped of every symbol, and what then decides (detect_code.c).
    STRIPPED = [("zkvm-jolt-rv64.elf", "jolt", "Jolt's inline instructions"),
                ("zkvm-zisk-rv64.elf", "zisk", "ZisK's precompiles"),
                ("zkvm-nexus-rv32.elf", "nexus", ".note.nexus-precompiles"),
                ("zkvm-openvm-rv32.elf", "openvm", "OpenVM's custom-0 instructions"),
                ("zkvm-sp1-rv32.elf", "sp1", "SP1's precompile codes"),
                ("zkvm-sp1-rv64.elf", "sp1", "0x78000800 (SP1 v6)"),
                ("zkvm-risc0-rv32.elf", "risc0", "risc0_zkvm_platform::syscall::nr::"),
                (os.path.join("weights", "zkvm-weights-risc0-rv32.elf"), "risc0",
                 "RISC Zero's kinds in t0"),
                (os.path.join("weights", "zkvm-weights-openvm-rv32.elf"), "openvm", "no zkVM's ecall"),
                (os.path.join("tiny", "zkvm-openvm-at0-rv64.elf"), "openvm",
                 "code at 0x0 with no ecall and OpenVM's "
                 "terminate")]

    def strip(self, name):
        tool = shutil.which("llvm-objcopy") or shutil.which("riscv64-unknown-elf-strip")
        if not tool:
            self.skipTest("no llvm-objcopy or riscv64-unknown-elf-strip")
        out = os.path.join(self.tmp, os.path.basename(name))
        args = [tool, "--strip-all", self.guest(name), out] if "objcopy" in tool else \
            [tool, "--strip-all", "-o", out, self.guest(name)]
        subprocess.run(args, check=True, capture_output=True, timeout=TIMEOUT)
        return out

    def test_openvm_program_at_0(self):
        # OpenVM takes a program from address 0 (transpiler/src/elf.rs): 5 instructions, then
        # terminate with exit code 0 (the immediate).
        elf = self.strip(os.path.join("tiny", "zkvm-openvm-at0-rv64.elf"))
        r = self.run_cli(elf)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stat("instructions"), "6")
        with open(elf, "rb") as f:
            entry = struct.unpack_from("<Q", f.read(32), 24)[0]  # e_entry: no symbol names it
        self.assertEqual(r.folded, f"{entry:#x} 5\n{entry:#x};[ecall:TERMINATE] 1\n")

    def abi_line(self, elf, extra=()):
        p = subprocess.run([CLI, "execute", elf, "--stats", "--max-cycles", "1", *extra],
                           capture_output=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)
        err = p.stderr.decode()
        return p.returncode, err, next((l for l in err.splitlines() if l.startswith("abi: ")), "")

    def test_stripped_guests_are_detected_and_say_why(self):
        for name, abi, why in self.STRIPPED:
            with self.subTest(name):
                stripped = self.strip(name)
                self.assertEqual(subprocess.run(["nm", stripped], capture_output=True).stdout, b"")
                _, err, line = self.abi_line(stripped)
                self.assertTrue(line.startswith(f"abi: {abi} (auto: "), err)
                self.assertIn(why, line)
                self.assertNotIn("symbol", line)

    def test_unmarked_guest_names_the_candidates(self):
        # No marks, not Linux: exit 65 with one error naming the --zkvm values, not a fault.
        code, err, line = self.abi_line(self.guest(os.path.join("weights",
                                                                "zkvm-unmarked-rv32.elf")))
        self.assertEqual(code, 65, err)
        errors = [l for l in err.splitlines() if l.startswith("error:")]
        self.assertEqual(len(errors), 1, err)
        for w in ["no Linux program", "--zkvm openvm", "--zkvm sp1", "--zkvm risc0"]:
            self.assertIn(w, errors[0])
        self.assertEqual(line, "")
        code, err, line = self.abi_line(self.guest(os.path.join("weights",
                                                                "zkvm-unmarked-rv32.elf")),
                                        ["--zkvm", "openvm"])
        self.assertEqual(line, "abi: openvm (--zkvm openvm)", err)  # --zkvm still decides

    def test_files_that_are_not_programs(self):
        objcopy = shutil.which("riscv64-unknown-elf-objcopy")
        if not objcopy or not shutil.which("llvm-objcopy"):
            self.skipTest("no riscv64-unknown-elf-objcopy or llvm-objcopy")
        raw = os.path.join(self.tmp, "app.bin")
        subprocess.run(["llvm-objcopy", "-O", "binary", self.guest("zkvm-openvm-rv32.elf"), raw],
                       check=True, timeout=TIMEOUT)
        # ZisK's float library sits at 0x87F0_0000; RISC Zero's kernel from 0xC000_0000.
        floatlib = os.path.join(self.tmp, "ziskfloat.elf")
        subprocess.run([objcopy, "--change-addresses", "0x07F00000",
                        self.guest("zkvm-zisk-rv64.elf"), floatlib], check=True, timeout=TIMEOUT)
        kernel = os.path.join(self.tmp, "v1compat.elf")
        subprocess.run([objcopy, "--change-addresses", "0xBFE00000",
                        self.guest(os.path.join("weights", "zkvm-pages-rv32.elf")), kernel],
                       check=True, capture_output=True, timeout=TIMEOUT)
        put_word_at_entry(kernel, 0x30200073)  # mret: machine-mode code, as the kernel's
        for path, words, zkvm in [(raw, ["raw binary image", "app.elf"], "openvm"),
                                  (floatlib, ["ZisK's float library", "guest's ELF"], "zisk"),
                                  (kernel, ["RISC Zero's machine-mode kernel", "R0BF"], "risc0")]:
            for extra in ([], ["--zkvm", zkvm]):
                with self.subTest(path=path, extra=extra):
                    code, err, _ = self.abi_line(path, extra)
                    self.assertEqual(code, 65, err)
                    errors = [l for l in err.splitlines() if l.startswith("error:")]
                    self.assertEqual(len(errors), 1, err)
                    for w in words:
                        self.assertIn(w, errors[0])

    def test_linux_guest_input_once(self):
        p = subprocess.run([CLI, "execute", self.guest("hello-rv32.elf"), "--input", "/dev/null",
                            "--input", "/dev/null"], capture_output=True, timeout=TIMEOUT)
        self.assertEqual(p.returncode, 64)
        self.assertIn("give --input once", p.stderr.decode())


def sha_s0(x):
    r = lambda v, n: (v >> n | v << (32 - n)) & 0xFFFFFFFF
    return r(x, 7) ^ r(x, 18) ^ (x >> 3)


def sha_s1(x):
    r = lambda v, n: (v >> n | v << (32 - n)) & 0xFFFFFFFF
    return r(x, 17) ^ r(x, 19) ^ (x >> 10)


def be32(n):
    return n.to_bytes(32, "big")


class Ceno(ZkvmTest):
    """Ceno (scroll-tech/ceno, layout of 2025-08 and later): hints, calls, PUB_IO_COMMIT."""

    ELF = "zkvm-ceno-rv32.elf"
    SECP256R1_P = P256_P
    BN254_G = (1, 2)

    def run_ceno(self, items, extra=()):
        return self.run_cli(self.guest(self.ELF), items, extra)

    def call(self, nr, data, a0=0, a1=None, a1_offset=True):
        """Mode 0: the call `nr` on a buffer holding `data`; the buffer's Keccak-256 is committed."""
        spec = struct.pack("<4I", nr, a0, 1 if a1_offset else 0, a1 or 0)
        return self.run_ceno([b"\0", spec + data])

    def assert_call(self, nr, data, want, **kw):
        r = self.call(nr, data, **kw)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, keccak256(want), r.stderr)
        return r

    def test_commit_and_regions(self):
        msg = b"public bytes of a ceno guest" * 9  # two Keccak blocks
        r = self.run_ceno([b"\2", msg])
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, keccak256(msg))
        words = struct.unpack("<8I", keccak256(msg))
        self.assertEqual(r.stat("ceno-public-io"),
                         " ".join(f"{w:08x}" for w in words) + " (1 commits)")
        self.assertRegex(r.stat("abi"), r"^ceno \(auto: symbol ceno_rt")
        self.assertEqual(r.stat("ceno-layout"), "ROM 0x0800_0000 (2025-08 and later)")
        self.assertEqual(r.stat("ceno-hints"), "ceno_serde")
        self.assertRegex(r.stat("region"), r"^commit: ")
        self.assert_folded_sum(r)
        self.assertIn(";ceno_rt_keccak256;ceno_rt_syscall;[ecall:KECCAK_PERMUTE] ", r.folded)

    def test_items_padded_to_words(self):
        # ceno_host's Items::finalise: each item padded to 4 bytes; the second item follows
        for n in (0, 1, 5, 8):
            with self.subTest(n=n):
                r = self.run_ceno([b"\2", bytes(range(n))])
                self.assertEqual(r.public, keccak256(bytes(range(n))), r.stderr)

    def test_rkyv_hints(self):
        # ceno_host before cff9d41d (2025-12-31), Items::finalise with rkyv: each item's end (u32,
        # from the region's start), padded to 16 bytes, then the items padded to 16; the guests
        # read hints[..end] as ceno_rt's mmio.rs did, each item ending with its length (as rkyv's
        # end with their root). The layout of 2024-25 always; the later one by the rkyv marks.
        rkyv = lambda data: data + struct.pack("<I", len(data))
        for elf, layout in (("zkvm-ceno-rkyv-old-rv32.elf", "ROM 0x2000_0000 (2024-10 to 2025-08)"),
                            ("zkvm-ceno-rkyv-rv32.elf", "ROM 0x0800_0000 (2025-08 and later)")):
            for n in (0, 1, 12, 13, 100):
                with self.subTest(elf=elf, n=n):
                    msg = bytes(range(n))
                    extra = [rkyv(b"x" * k) for k in range(n % 7)]  # more ends than one 16-byte row
                    r = self.run_cli(self.guest(elf), [rkyv(b"\2"), rkyv(msg)] + extra)
                    self.assertEqual(r.code, 0, r.stderr)
                    self.assertEqual(r.public, keccak256(msg), r.stderr)
                    self.assertEqual(r.stat("ceno-hints"), "rkyv")
                    self.assertEqual(r.stat("ceno-layout"), layout)
        r = self.run_cli(self.guest("zkvm-ceno-rkyv-old-rv32.elf"), [])
        self.assert_one_error(r, "load from unmapped memory (address 0x40000000)",
                              "no input was given", "--input FILE")

    def test_halt_code_is_the_exit_status(self):
        r = self.run_ceno([b"\1\x2a"])
        self.assertEqual(r.code, 42, r.stderr)

    def test_no_input_names_input(self):
        r = self.run_ceno([])
        self.assert_one_error(r, "load from unmapped memory (address 0x28000000)",
                              "no input was given", "--input FILE")

    def test_unknown_call(self):
        r = self.call(0x0001011E, bytes(64))
        self.assert_one_error(r, "no Ceno call has this number")

    def test_misaligned_access_traps(self):
        def access(op, offset):
            r = self.run_ceno([bytes([3, op, offset])])
            return r, r.public and None
        self.check_alignment("ceno", ["lh", "lhu", "lw", "sh", "sw", "lb", "sb"], access, 4)

    def test_keccak_permute(self):
        lanes = [random.getrandbits(64) for _ in range(25)]
        data = b"".join(le(v, 8) for v in lanes)
        want = b"".join(le(v, 8) for v in keccak_f(lanes))
        self.assert_call(0x00010109, data, want)

    def test_sha_extend_one_word(self):
        # c3473257 on: w[i] from w[i-16], w[i-15], w[i-7], w[i-2], at a0 = &w[i]
        w = [random.getrandbits(32) for _ in range(64)]
        for i in (16, 40, 63):
            with self.subTest(i=i):
                want = list(w)
                want[i] = (w[i - 16] + sha_s0(w[i - 15]) + w[i - 7] + sha_s1(w[i - 2])) & 0xFFFFFFFF
                self.assert_call(0x00300105, struct.pack("<64I", *w), struct.pack("<64I", *want),
                                 a0=4 * i)

    def test_uint256_mul(self):
        for m in (M, 0):
            with self.subTest(m=m):
                want = le256(X * Y % (m or 2**256)) + le256(Y) + le256(m)
                self.assert_call(0x0001011D, le256(X) + le256(Y) + le256(m), want, a1=32)

    def test_weierstrass_add_and_double(self):
        g = SECP256K1_G
        two = ec_double(g, SECP256K1_P)
        three = ec_add(g, two, SECP256K1_P)
        self.assert_call(0x0001010A, point(g) + point(two), point(three) + point(two), a1=64)
        self.assert_call(0x0000010B, point(g), point(two))
        r2 = ec_double(P256_G, P256_P, P256_A)
        self.assertEqual(r2, P256_2G)
        self.assert_call(0x0001012C, point(P256_G) + point(r2),
                         point(ec_add(P256_G, r2, P256_P)) + point(r2), a1=64)
        self.assert_call(0x0000012D, point(P256_G), point(P256_2G))
        b2 = ec_double(self.BN254_G, BN254_P)
        self.assert_call(0x0001010E, point(self.BN254_G) + point(b2),
                         point(ec_add(self.BN254_G, b2, BN254_P)) + point(b2), a1=64)
        # a1 = 0, as ceno-patch's syscall_bn254_double passes it (ceno_emul asserts it)
        self.assert_call(0x0000010F, point(self.BN254_G), point(b2), a1_offset=False)

    def test_secp256k1_decompress_and_invert(self):
        x, y = SECP256K1_G
        for odd in (0, 1):
            want_y = y if y % 2 == odd else SECP256K1_P - y
            self.assert_call(0x0000010C, be32(x) + bytes(32), be32(x) + be32(want_y),
                             a1=odd, a1_offset=False)
        k = random.randrange(1, SECP256K1_N)
        self.assert_call(0x0000010E, be32(k), be32(pow(k, -1, SECP256K1_N)))
        r = self.call(0x0000010E, be32(0))
        self.assert_one_error(r, "SECP256K1_SCALAR_INVERT", "not below the group order")

    def test_secp256r1_scalar_invert(self):
        n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551  # FIPS 186-4 P-256
        k = random.randrange(1, n)
        self.assert_call(0x0000012F, be32(k), be32(pow(k, -1, n)))
        r = self.call(0x0000012F, be32(n))
        self.assert_one_error(r, "SECP256R1_SCALAR_INVERT", "not below the group order")

    def test_keccak_xorin(self):
        # keccak_xorin.rs: the 136-byte block at a1 XORed into the state's first 136 bytes
        state, block = random.randbytes(200), random.randbytes(136)
        want = bytes(a ^ b for a, b in zip(state, block)) + state[136:] + block
        self.assert_call(0x00010130, state + block, want, a1=200)
        r = self.call(0x00010130, state + block, a1=196)  # overlapping: Ceno asserts
        self.assert_one_error(r, "KECCAK_XORIN", "overlap")

    def test_bn254_fields(self):
        p = BN254_P
        x, y = [random.randrange(p) for _ in range(2)]
        self.assert_call(0x00010126, le256(x) + le256(y), le256((x + y) % p) + le256(y), a1=32)
        self.assert_call(0x00010128, le256(x) + le256(y), le256(x * y % p) + le256(y), a1=32)
        a, b = (x, y), (y, x ^ 5)
        b = (b[0], b[1] % p)
        for nr, op in ((0x00010129, "add"), (0x0001012B, "mul")):
            got = fp2(op, a, b, p)
            self.assert_call(nr, point(a) + point(b), point(got) + point(b), a1=64)


class Airbender(ZkvmTest):
    """ZKsync Airbender (matter-labs/zksync-airbender): oracle CSR, QuasiUART, delegations."""

    ELF = "zkvm-airbender-rv32.elf"
    IV = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
          0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19)

    def run_ab(self, words, extra=(), elf=None):
        return self.run_cli(elf or self.guest(self.ELF), [struct.pack(f"<{len(words)}I", *words)],
                            extra)

    def uart(self, r, n):  # the UART line's n words
        self.assertTrue(r.stdout.endswith(b"\n"), r.stdout)
        return struct.unpack(f"<{n}I", r.stdout[:-1])

    def test_finish_output_and_uart(self):
        out = [random.getrandbits(32) for _ in range(8)]
        r = self.run_ab([0] + out)
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.stdout, b"ok\n")
        self.assertEqual(r.public, struct.pack("<8I", *out))
        self.assertEqual(r.stat("airbender-output"), " ".join(f"{w:08x}" for w in out))
        self.assertEqual(r.stat("airbender-oracle-reads"), "9")
        self.assertRegex(r.stat("abi"), r"^airbender \(auto: symbol riscv_common")
        self.assert_folded_sum(r)

    def test_input_read_past_its_end_is_zeros(self):
        r = self.run_ab([0, 7])  # QuasiUARTSource: unwrap_or_default
        self.assertEqual(r.code, 0, r.stderr)
        self.assertEqual(r.public, struct.pack("<8I", 7, 0, 0, 0, 0, 0, 0, 0))

    def test_no_input_names_input(self):
        r = self.run_cli(self.guest(self.ELF))
        self.assert_one_error(r, "oracle_read", "no input was given", "--input FILE")

    def test_finish_error_is_a_panic(self):
        r = self.run_ab([3])
        self.assert_one_error(r, "finish_error", "cycle CSR")

    def test_unknown_csr(self):
        r = self.run_ab([4])
        self.assertEqual(r.code, 70, r.stderr)
        self.assertIn("no such CSR", r.errors[0])

    def test_misaligned_access_traps(self):
        def access(op, offset):
            r = self.run_ab([5, op, offset])
            return r, r.public[:4] if r.code == 0 else None
        self.check_alignment("airbender", ["lh", "lhu", "lw", "sh", "sw", "lb", "sb"], access, 4)

    def blake_round(self, state, ext, block, rnd, ctl):
        r = self.run_ab([1] + list(state) + list(ext) + list(block) + [1 << rnd, ctl])
        self.assertEqual(r.code, 0, r.stderr)
        words = self.uart(r, 24)
        self.assertEqual(r.public, struct.pack("<8I", *words[:8]))
        return words[:8], words[8:]

    def test_blake2s_rounds_make_blake2s(self):
        # ten delegations, round 0 to 9, the last folding: hashlib's BLAKE2s of one block
        msg = b"abc"
        block = struct.unpack("<16I", msg.ljust(64, b"\0"))
        state = list(self.IV)
        state[0] ^= 0x01010020
        ext = [0] * 16
        ext[12], ext[14] = self.IV[4] ^ len(msg), self.IV[6] ^ 0xFFFFFFFF
        for rnd in range(10):
            state, ext = self.blake_round(state, ext, block, rnd, 1 if rnd == 9 else 0)
        self.assertEqual(struct.pack("<8I", *state), hashlib.blake2s(msg).digest())

    def test_blake2s_compression_mode_hashes_two_nodes(self):
        left, right = os.urandom(32), os.urandom(32)
        for node_is_right in (False, True):  # bit 2: the block (x11) is the right node
            with self.subTest(right=node_is_right):
                mine, other = (left, right) if node_is_right else (right, left)
                state = list(struct.unpack("<8I", mine))
                block = list(struct.unpack("<8I", other)) + [0] * 8
                ext = [0] * 16
                for rnd in range(10):
                    ctl = 4 | (2 if not node_is_right else 0) | (1 if rnd == 9 else 0)
                    state, ext = self.blake_round(state, ext, block, rnd, ctl)
                want = other + mine if not node_is_right else mine + other
                self.assertEqual(struct.pack("<8I", *state), hashlib.blake2s(want).digest())

    def u256(self, a, b, ctl):
        r = self.run_ab([2] + list(struct.unpack("<8I", le256(a))) +
                        list(struct.unpack("<8I", le256(b))) + [ctl])
        self.assertEqual(r.code, 0, r.stderr)
        words = self.uart(r, 9)
        return int.from_bytes(struct.pack("<8I", *words[:8]), "little"), words[8]

    def test_u256_ops(self):
        a, b, top = random.getrandbits(256), random.getrandbits(256), 2**256
        for ctl, want in [(1, ((a + b) % top, int(a + b >= top))),
                          (1 | 64, ((a + b + 1) % top, int(a + b + 1 >= top))),
                          (2, ((a - b) % top, int(a < b))),
                          (4, ((b - a) % top, int(b < a))),
                          (8, (a * b % top, int(a * b >= top))),
                          (16, (a * b >> 256, 0)),
                          (32, (a, 0)),
                          (128, (b, 0))]:
            with self.subTest(ctl=ctl):
                self.assertEqual(self.u256(a, b, ctl), want)
        self.assertEqual(self.u256(a, a, 32), (a, 1))

    def test_u256_bad_op(self):
        r = self.run_ab([2] + [0] * 16 + [3])
        self.assert_one_error(r, "u256_ops", "one op bit")

    def app_files(self):
        """app.bin and the text-less app.elf, as Airbender's dump_bin.sh makes them."""
        objcopy = shutil.which("llvm-objcopy") or shutil.which("riscv64-unknown-elf-objcopy")
        if not objcopy:
            self.skipTest("no objcopy")
        app_bin, app_elf = os.path.join(self.tmp, "app.bin"), os.path.join(self.tmp, "app.elf")
        subprocess.run([objcopy, "-O", "binary", self.guest(self.ELF), app_bin], check=True)
        subprocess.run([objcopy, "-R", ".text", self.guest(self.ELF), app_elf], check=True)
        return app_bin, app_elf

    def test_app_bin_with_symbols_from_app_elf(self):
        app_bin, app_elf = self.app_files()
        out = [random.getrandbits(32) for _ in range(8)]
        whole = self.run_ab([0] + out)  # the ELF itself: the same run
        # objcopy -R .text drops the function symbols with .text (as in Airbender's own
        # app.elf): its frames stay addresses; an ELF that kept them names them
        for symbols, named in ((app_elf, False), (self.guest(self.ELF), True)):
            with self.subTest(symbols=symbols):
                r = self.run_ab([0] + out, ["--zkvm", "airbender", "--symbols", symbols],
                                elf=app_bin)
                self.assertEqual(r.code, 0, r.stderr)
                self.assertEqual(r.stdout, b"ok\n")
                self.assertEqual(r.public, struct.pack("<8I", *out))
                self.assertEqual(whole.stat("instructions"), r.stat("instructions"))
                self.assert_folded_sum(r)
                frames = "riscv_common_main;riscv_common_uart_write;riscv_common_csr_write_word"
                self.assertEqual(frames in r.folded, named, r.folded)
        r = self.run_ab([0] + out, ["--symbols", app_elf])  # an ELF guest has its own
        self.assertEqual(r.code, 64, r.stderr)

    def test_text_less_app_elf_runs_its_app_bin(self):
        # Airbender's layout: app.elf (no code) beside app.bin; or NAME.elf beside NAME.bin
        app_bin, app_elf = self.app_files()
        out = [random.getrandbits(32) for _ in range(8)]
        whole = self.run_ab([0] + out)  # the ELF itself: the same run
        other_elf, other_bin = (os.path.join(self.tmp, n) for n in ("guest.elf", "guest.bin"))
        os.rename(app_elf, other_elf)
        os.rename(app_bin, other_bin)
        os.mkdir(os.path.join(self.tmp, "app"))
        app_elf, app_bin = (os.path.join(self.tmp, "app", n) for n in ("app.elf", "app.bin"))
        shutil.copy(other_elf, app_elf)
        shutil.copy(other_bin, app_bin)
        for elf, bin_ in ((app_elf, app_bin), (other_elf, other_bin)):
            for extra in ([], ["--zkvm", "airbender"]):
                with self.subTest(elf=elf, extra=extra):
                    r = self.run_ab([0] + out, extra, elf=elf)
                    self.assertEqual(r.code, 0, r.stderr)
                    self.assertEqual(r.stdout, b"ok\n")
                    self.assertEqual(r.public, struct.pack("<8I", *out))
                    self.assertEqual(whole.stat("instructions"), r.stat("instructions"))
                    self.assertIn(bin_, r.stat("abi"))
                    self.assert_folded_sum(r)
        r = self.run_ab([0], ["--zkvm", "sp1"], elf=app_elf)  # another zkVM: no app.bin for it
        self.assertEqual(r.code, 65, r.stderr)

    def test_text_less_app_elf_alone_refused(self):
        app_bin, app_elf = self.app_files()
        os.unlink(app_bin)
        for extra in ([], ["--zkvm", "airbender"]):
            with self.subTest(extra=extra):
                r = self.run_ab([0], extra, elf=app_elf)
                self.assertEqual(r.code, 65, r.stderr)
                self.assertEqual(len(r.errors), 1, r.stderr)
                for w in ("app.elf", "without its code", "app.bin", "--symbols app.elf"):
                    self.assertIn(w, r.errors[0])

    def test_raw_binary_needs_zkvm(self):
        app_bin, _ = self.app_files()
        r = self.run_ab([0], elf=app_bin)
        self.assertEqual(r.code, 65, r.stderr)
        self.assertIn("--zkvm airbender", r.errors[0])


if __name__ == "__main__":
    ctest_status.main()
