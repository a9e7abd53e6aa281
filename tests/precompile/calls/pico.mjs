// Pico's calls (executor/abi/pico.c), each checked against @noble/curves,
// @noble/hashes or BigInt. The memory contracts are Pico's emulator's
// (brevis-network/pico v1.3.0 = f8617c9c: vm/src/emulator/riscv/syscalls/,
// codes in code.rs): Pico's codes from 0x1012C differ from SP1's, so these
// are the calls where Pico is not SP1 v3 with other numbers, and the shared
// ones at Pico's codes. Where the math leaves a result undefined (P + (-P),
// a zero denominator), the answer is the one Pico's formulas give
// (vm/src/chips/gadgets/curves/weierstrass/mod.rs sw_add, sw_double, the
// same as SP1's), written out here as BigInt arithmetic from that source.
import { Call, REG, hex, le, mod, modpow } from './common.mjs';

const GUEST = 'zkvm-pico-rv32.elf';
const A = 0x10000000; // scratch addresses in Pico's flat memory
const B = 0x10001000;

function ecall(code, ...regs) {
  const c = new Call().reg(REG.t0, code);
  regs.forEach((v, i) => c.reg(REG.a0 + i, v));
  return c;
}

// Pico's sw_add and sw_double (unsigned big integers: a negative intermediate panics).
function swAdd(p, P, Q) {
  if (P.x === Q.x && P.y === Q.y) return null;
  const num = p + Q.y - P.y;
  const den = p + Q.x - P.x;
  if (num < 0n || den < 0n) return null;
  const s = ((num % p) * modpow(den % p, p - 2n, p)) % p;
  const x3 = s * s + 2n * p - P.x - Q.x;
  if (x3 < 0n) return null;
  const x = x3 % p;
  const y3 = s * (p + P.x - x) + p - P.y;
  return y3 < 0n ? null : { x, y: y3 % p };
}

function swDouble(p, a, P) {
  const s = (((a + 3n * P.x * P.x) % p) * modpow((2n * P.y) % p, p - 2n, p)) % p;
  const x3 = s * s + 2n * p - 2n * P.x;
  if (x3 < 0n) return null;
  const x = x3 % p;
  const y3 = s * (p + P.x - x) + p - P.y;
  return y3 < 0n ? null : { x, y: y3 % p };
}

export async function suite({ npm }) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { p256 } = await npm('@noble/curves/nist.js');
  const { _SHA256 } = await npm('@noble/hashes/sha2.js');
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  const calls = [];

  // ---- SECP256K1_FP_ADD/SUB/MUL (0x1012C-E): x (a0) = x op y (a1) mod p, both reduced first (fp.rs) ----
  const k1p = secp256k1.Point.Fp.ORDER;
  const top = 1n << 256n;
  for (const [op, code, ref] of [
    ['ADD', 0x0001012C, (x, y) => (mod(x, k1p) + mod(y, k1p)) % k1p],
    ['SUB', 0x0001012D, (x, y) => (mod(x, k1p) + k1p - mod(y, k1p)) % k1p],
    ['MUL', 0x0001012E, (x, y) => (mod(x, k1p) * mod(y, k1p)) % k1p],
  ]) {
    const line = (x, y) => ecall(code, A, B).mem(A, le(x, 32)).mem(B, le(y, 32)).ecall().read(A, 32).line();
    calls.push({
      name: `SECP256K1_FP_${op}`,
      reference: '@noble/curves secp256k1 Fp below p; BigInt mod p above it',
      guest: GUEST,
      random(rng) {
        const reduced = rng.int(8) !== 0;
        const x = reduced ? rng.below(k1p) : rng.below(top), y = reduced ? rng.below(k1p) : rng.below(top);
        const Fp = secp256k1.Point.Fp;
        const want = reduced ? (op === 'ADD' ? Fp.add(x, y) : op === 'SUB' ? Fp.sub(x, y) : Fp.mul(x, y)) : ref(x, y);
        return { what: `x ${x} y ${y}`, lines: [line(x, y)], want: `ok - ${le(want, 32)}` };
      },
      edges: () => [
        { what: 'misaligned x', lines: [ecall(code, A + 2, B).ecall().line()], want: { fault: `SECP256K1_FP_${op}` } },
      ],
    });
  }

  // ---- SECP256R1_ADD (0x10130) / _DOUBLE (0x131) / _DECOMPRESS (0x132), from v1.2.2 ----
  const pp = p256.Point.Fp.ORDER;
  const pa = p256.Point.CURVE().a;
  const enc = (P) => le(P.x, 32) + le(P.y, 32);
  let pool = null;
  const randomPoint = (rng) => {
    if (!pool) pool = Array.from({ length: 16 }, () => p256.Point.BASE.multiply(1n + rng.below(p256.Point.Fn.ORDER - 1n)));
    return pool[rng.int(pool.length)].add(p256.Point.BASE.multiply(1n + rng.below(1000n))).toAffine();
  };
  const addLine = (P, Q) => ecall(0x00010130, A, B).mem(A, enc(P)).mem(B, enc(Q)).ecall().read(A, 64).line();
  const dblLine = (P) => ecall(0x00000131, A).mem(A, enc(P)).ecall().read(A, 64).line();
  calls.push({
    name: 'SECP256R1_ADD',
    reference: '@noble/curves p256 Point.add; Pico sw_add where undefined',
    guest: GUEST,
    quick: 500,
    random(rng) {
      const P = randomPoint(rng), Q = randomPoint(rng);
      if (P.x === Q.x) return { what: 'same x', lines: [addLine(P, Q)], want: swAdd(pp, P, Q) ? `ok - ${enc(swAdd(pp, P, Q))}` : { fault: 'SECP256R1_ADD' } };
      const R = p256.Point.fromAffine(P).add(p256.Point.fromAffine(Q)).toAffine();
      return { what: `P ${P.x},${P.y} Q ${Q.x},${Q.y}`, lines: [addLine(P, Q)], want: `ok - ${enc(R)}` };
    },
    edges() {
      const G = p256.Point.BASE.toAffine();
      return [
        { what: 'P + P (sw_add panics)', lines: [addLine(G, G)], want: { fault: 'SECP256R1_ADD' } },
        { what: 'P + (-P): 0 inverted to 0', lines: [addLine(G, { x: G.x, y: pp - G.y })], want: `ok - ${enc(swAdd(pp, G, { x: G.x, y: pp - G.y }))}` },
        { what: 'v1.2.1 has no SECP256R1_ADD', guest: `${GUEST}@1.2.1`, lines: [addLine(G, G)], want: { fault: 'SECP256R1_ADD', why: 'v1.2.2' } },
      ];
    },
  });
  calls.push({
    name: 'SECP256R1_DOUBLE',
    reference: '@noble/curves p256 Point.double; Pico sw_double where undefined',
    guest: GUEST,
    quick: 500,
    random(rng) {
      const P = randomPoint(rng);
      return { what: `P ${P.x},${P.y}`, lines: [dblLine(P)], want: `ok - ${enc(p256.Point.fromAffine(P).double().toAffine())}` };
    },
    edges() {
      const G = p256.Point.BASE.toAffine();
      return [{ what: 'y = 0: 0 inverted to 0', lines: [dblLine({ x: G.x, y: 0n })], want: `ok - ${enc(swDouble(pp, pa, { x: G.x, y: 0n }))}` }];
    },
  });
  calls.push({
    name: 'SECP256R1_DECOMPRESS',
    reference: '@noble/curves p256 Point.fromBytes of the compressed point',
    guest: GUEST,
    quick: 500,
    random(rng) {
      const P = randomPoint(rng);
      const sign = rng.int(2);
      const bytes = p256.Point.fromAffine(P).toBytes(true);
      bytes[0] = sign ? 3 : 2;
      const Y = p256.Point.fromBytes(bytes).toAffine().y;
      return { what: `x ${P.x} sign ${sign}`, lines: [ecall(0x00000132, A, sign).mem(A, '00'.repeat(32) + le(P.x, 32)).ecall().read(A, 32).line()], want: `ok - ${le(Y, 32)}` };
    },
    edges: () => [
      { what: 'x = p', lines: [ecall(0x00000132, A, 0).mem(A, '00'.repeat(32) + le(pp, 32)).ecall().line()], want: { fault: 'SECP256R1_DECOMPRESS' } },
      { what: 'sign 2', lines: [ecall(0x00000132, A, 2).ecall().line()], want: { fault: 'SECP256R1_DECOMPRESS' } },
    ],
  });

  // ---- SHA_EXTEND + SHA_COMPRESS and KECCAK_PERMUTE at the codes Pico shares with SP1 ----
  calls.push({
    name: 'SHA_EXTEND+SHA_COMPRESS',
    reference: '@noble/hashes _SHA256.process on the same state and block',
    guest: GUEST,
    random(rng) {
      const block = rng.bytes(64);
      const h = Array.from({ length: 8 }, () => Number(rng.bits(32)));
      const view = new DataView(block.buffer);
      const w = Array.from({ length: 16 }, (_, i) => le(BigInt(view.getUint32(4 * i, false)), 4)).join('');
      const sha = new _SHA256();
      sha.set(...h);
      sha.process(view, 0);
      const want = sha.get().map((v) => le(BigInt(v >>> 0), 4)).join('');
      return {
        what: `block ${hex(block)}`,
        lines: [
          ecall(0x00300105, A, 0).mem(A, w).ecall().line(),
          ecall(0x00010106, A, B).mem(B, h.map((v) => le(BigInt(v >>> 0), 4)).join('')).ecall().read(B, 32).line(),
        ],
        want: `ok - ${want}`,
      };
    },
    edges: () => [
      { what: 'SHA_EXTEND with a1 not 0 (Pico asserts it)', lines: [ecall(0x00300105, A, 4).ecall().line()], want: { fault: 'SHA_EXTEND' } },
      { what: 'SHA_COMPRESS with w = h (Pico asserts they differ)', lines: [ecall(0x00010106, A, A).ecall().line()], want: { fault: 'SHA_COMPRESS' } },
    ],
  });
  calls.push({
    name: 'KECCAK_PERMUTE',
    reference: '@noble/hashes keccakP (24 rounds)',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(200);
      const s32 = new Uint32Array(state.slice().buffer);
      keccakP(s32, 24);
      return { what: `state ${hex(state)}`, lines: [ecall(0x00010109, A, 0).mem(A, hex(state)).ecall().read(A, 200).line()], want: `ok - ${hex(new Uint8Array(s32.buffer))}` };
    },
  });

  // ---- POSEIDON2_PERMUTE (0x1012F): a0 16 words in, a1 16 words out ----
  // Pico's own known answer for the all-zero state (gnark/poseidon2/
  // poseidon2_koalabear_test.go, TestPoseidon2KoalaBear, at v1.3.0).
  const zeroOut = [1330215056, 1388930081, 1337212159, 2038180411, 1881671374, 164509734, 498654582, 1841854018,
    82116708, 1571428065, 117003252, 1678395592, 2088326992, 1852522451, 1063576961, 1871812444];
  const words = (ws) => ws.map((w) => le(BigInt(w), 4)).join('');
  calls.push({
    name: 'POSEIDON2_PERMUTE',
    reference: "Pico's gnark KoalaBear Poseidon2 test vector",
    guest: GUEST,
    edges: () => [
      { what: 'zeros', lines: [ecall(0x0001012F, A, B).mem(A, '00'.repeat(64)).ecall().read(B, 64).line()], want: `ok - ${words(zeroOut)}` },
      { what: 'p for 0: each word taken mod p', lines: [ecall(0x0001012F, A, B).mem(A, le(0x7f000001n, 4).repeat(16)).ecall().read(B, 64).line()], want: `ok - ${words(zeroOut)}` },
      { what: 'misaligned output', lines: [ecall(0x0001012F, A, B + 2).ecall().line()], want: { fault: 'POSEIDON2_PERMUTE' } },
    ],
  });
  return calls;
}
