"""The precompiles the zkVM calls use, against references outside the project.

precompile_harness (beside this file) runs our functions on requests from
its stdin; every expected answer here comes from Python itself:

- MulmodTest: bigint_mulmod_256 (SP1's UINT256_MUL, RISC Zero's BIGINT),
  both as it writes apart and over its first operand, against Python's
  a * b % m on random 256-bit triples of a fixed seed and on edge cases
  (0, 1, m - 1, m, 2^256 - 1, m = 1, m even, a or b >= m). m = 0 means
  mod 2^256, as SP1 defines UINT256_MUL (its uint256-mul test program takes
  the modulus 0 as 1 << 256);
- Sha3SpongeTest: keccak_f1600 inside a SHA3-256 sponge the harness
  writes (rate 136, padding 0x06 ... 0x80) against hashlib.sha3_256, on
  messages of random length and on the rate's edges;
- Sha256HalvesTest: sha256_extend then sha256_compress, block by block,
  against hashlib.sha256 on messages of random length and the padding's
  edges.

A default run takes a few seconds; --long (or ZKPROF_LONG_TESTS=1) checks
a million multiplications and more messages.

Run: PRECOMPILE_HARNESS=build/tests/precompile/precompile_harness \\
     python3 tests/precompile/test_reference.py [--long] [MulmodTest] [-v]
"""

import hashlib
import os
import random
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

HARNESS = os.environ.get("PRECOMPILE_HARNESS", "build/tests/precompile/precompile_harness")
LONG = os.environ.get("ZKPROF_LONG_TESTS") == "1"
if "--long" in sys.argv:
    sys.argv.remove("--long")
    LONG = True

SEED = 0x5EED_2025
TOP = 1 << 256
BATCH = 20000  # requests per harness run
SHOWN = 5  # mismatches printed


def run_harness(lines):
    """The harness's output lines for these request lines."""
    r = subprocess.run([HARNESS], input="".join(line + "\n" for line in lines),
                       capture_output=True, text=True, timeout=600, check=False)
    if r.returncode != 0:
        raise AssertionError(f"harness exited {r.returncode}: {r.stderr.strip()}")
    out = r.stdout.splitlines()
    if len(out) != len(lines):
        raise AssertionError(f"{len(lines)} requests, {len(out)} answers")
    return out


class HarnessCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(HARNESS, os.X_OK):
            raise unittest.SkipTest(f"no harness at {HARNESS} (build precompile_harness)")

    def assert_no_mismatch(self, bad, total, what):
        if bad:
            shown = "\n".join(bad[:SHOWN])
            self.fail(f"{len(bad)} of {total} {what} differ; the first:\n{shown}")


def mulmod_reference(a, b, m):
    return a * b % (m if m else TOP)


def edge_triples():
    """Every pair of edge operands with every edge modulus."""
    p = 2**256 - 2**32 - 977  # secp256k1's field prime
    moduli = [0, 1, 2, 3, 10, 2**64, 2**128 + 1, 2**255, p, TOP - 2, TOP - 1]
    out = []
    for m in moduli:
        values = {0, 1, 2, TOP - 1, TOP - 2, 2**255, 2**128 - 1}
        if m:
            values |= {m - 1, m, min(m + 1, TOP - 1), m // 2}
        for a in sorted(values):
            for b in sorted(values):
                out.append((a, b, m))
    return out


def random_operand(rng):
    """Mostly 256-bit; some shorter, so a or b < m and a, b >= m both occur."""
    bits = 256 if rng.random() < 0.6 else rng.randint(1, 256)
    return rng.getrandbits(bits)


def random_modulus(rng):
    shape = rng.random()
    if shape < 0.05:
        return 0
    if shape < 0.15:
        return rng.getrandbits(256) & ~1 or 2  # even
    return random_operand(rng) or 1


class MulmodTest(HarnessCase):
    def check(self, triples):
        bad = []
        for start in range(0, len(triples), BATCH):
            part = triples[start:start + BATCH]
            out = run_harness([f"mulmod {a:x} {b:x} {m:x}" for a, b, m in part])
            for (a, b, m), line in zip(part, out):
                want = f"{mulmod_reference(a, b, m):064x}"
                apart, over = line.split()
                if apart != want or over != want:
                    bad.append(f"a={a:#x} b={b:#x} m={m:#x}: apart {apart}, over a {over},"
                               f" Python {want}")
        self.assert_no_mismatch(bad, len(triples), "products")

    def test_edge_cases(self):
        self.check(edge_triples())

    def test_random(self):
        rng = random.Random(SEED)
        n = 1_000_000 if LONG else 3000
        self.check([(random_operand(rng), random_operand(rng), random_modulus(rng))
                    for _ in range(n)])


def random_lengths(seed, count, most):
    rng = random.Random(seed)
    return sorted(rng.randint(0, most) for _ in range(count))


class DigestCase(HarnessCase):
    OP = None
    REFERENCE = None

    def check(self, lengths, seed):
        rng = random.Random(seed)
        messages = [rng.randbytes(n) for n in lengths]
        out = run_harness([f"{self.OP} {m.hex() or '-'}" for m in messages])
        bad = [f"{len(m)} bytes {m[:16].hex()}...: ours {got}, hashlib {want}"
               for m, got in zip(messages, out)
               if got != (want := self.REFERENCE(m).hexdigest())]
        self.assert_no_mismatch(bad, len(messages), "digests")


class Sha3SpongeTest(DigestCase):
    OP = "sha3_256"
    REFERENCE = hashlib.sha3_256

    def test_rate_edges(self):
        edges = [k * 136 + d for k in range(4) for d in (-2, -1, 0, 1) if k * 136 + d >= 0]
        self.check(edges, SEED)

    def test_random_lengths(self):
        count, most = (5000, 5000) if LONG else (300, 1000)
        self.check(random_lengths(SEED + 1, count, most), SEED + 2)


class Sha256HalvesTest(DigestCase):
    OP = "sha256"
    REFERENCE = hashlib.sha256

    def test_padding_edges(self):
        edges = [k * 64 + d for k in range(4) for d in (0, 1, 54, 55, 56, 57, 63)]
        self.check(edges, SEED + 3)

    def test_random_lengths(self):
        count, most = (5000, 5000) if LONG else (300, 1000)
        self.check(random_lengths(SEED + 4, count, most), SEED + 5)


if __name__ == "__main__":
    ctest_status.main()
