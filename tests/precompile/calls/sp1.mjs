// SP1's calls (executor/abi/sp1.c), each checked against @noble/curves,
// @noble/hashes or BigInt. The memory contracts are SP1's executor's
// (succinctlabs/sp1: v5.2.4 = 2a51f3dd for RV32, v6.4.0 = f66b4bff for
// RV64): crates/core/executor/src/syscalls/precompiles/ (v5) and
// src/minimal/precompiles/ (v6). Where the math leaves a result undefined
// (P + (-P), a zero denominator), the answer is the one SP1's formulas give
// (crates/curves/src/weierstrass/mod.rs sw_add, sw_double;
// src/edwards/mod.rs ed_add; src/edwards/ed25519.rs decompress), written out
// here as BigInt arithmetic from that source.
import { Call, REG, hex, le, mod, modpow } from './common.mjs';

const RV32 = 'zkvm-sp1-rv32.elf';
const RV64 = 'zkvm-sp1-rv64.elf';
const A = 0x10000000; // scratch addresses, flat read-write memory in both layouts
const B = 0x10001000;
const C = 0x10002000;
const D = 0x10003000;
const E = 0x10004000;

// An ecall with the code in t0 and pointers in a0.. a4.
function ecall(code, ...regs) {
  const c = new Call().reg(REG.t0, code);
  regs.forEach((v, i) => c.reg(REG.a0 + i, v));
  return c;
}

// SP1's sw_add (crates/curves/src/weierstrass/mod.rs): unsigned big
// integers, so a negative intermediate panics; P = Q (as numbers) panics.
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

// SP1's sw_double, likewise.
function swDouble(p, a, P) {
  const s = (((a + 3n * P.x * P.x) % p) * modpow((2n * P.y) % p, p - 2n, p)) % p;
  const x3 = s * s + 2n * p - 2n * P.x;
  if (x3 < 0n) return null;
  const x = x3 % p;
  const y3 = s * (p + P.x - x) + p - P.y;
  return y3 < 0n ? null : { x, y: y3 % p };
}

// SP1's ed_add (crates/curves/src/edwards/mod.rs): a zero denominator inverts to 0.
function edAdd(p, d, P, Q) {
  const x3n = (P.x * Q.y + P.y * Q.x) % p;
  const y3n = (P.y * Q.y + P.x * Q.x) % p;
  const dxy = (d * ((P.x * P.y * Q.x * Q.y) % p)) % p;
  const dx = modpow((1n + dxy) % p, p - 2n, p);
  const dy = modpow((1n + p - dxy) % p, p - 2n, p);
  return { x: (x3n * dx) % p, y: (y3n * dy) % p };
}

// Random points of a group cheaply: a walk that adds one of 32 random
// multiples of the generator at each step (one addition, not a multiplication).
function pointWalk(Point) {
  let pool = null;
  let cur = null;
  return (rng) => {
    if (!pool) {
      pool = Array.from({ length: 32 }, () => Point.BASE.multiply(1n + rng.below(Point.Fn.ORDER - 1n)));
      cur = pool[0];
    }
    cur = cur.add(pool[rng.int(pool.length)]);
    return cur.toAffine();
  };
}

export async function suite({ npm }) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { p256 } = await npm('@noble/curves/nist.js');
  const { bn254 } = await npm('@noble/curves/bn254.js');
  const { bls12_381 } = await npm('@noble/curves/bls12-381.js');
  const { ed25519 } = await npm('@noble/curves/ed25519.js');
  const { _SHA256 } = await npm('@noble/hashes/sha2.js');
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  const { blake3 } = await npm('@noble/hashes/blake3.js');
  const { _compress } = await npm('@noble/hashes/blake2.js');
  const calls = [];

  // ---- SHA-256: SHA_EXTEND then SHA_COMPRESS on one block, as sp1-lib's sha2 patch calls them ----
  // v5: w and h are u32 words; v6: each word in the low half of a u64 slot.
  for (const [guest, slot, label] of [[RV32, 4, 'rv32'], [RV64, 8, 'rv64']]) {
    calls.push({
      name: `SHA_EXTEND+SHA_COMPRESS.${label}`,
      reference: '@noble/hashes _SHA256.process on the same state and block',
      guest,
      random(rng) {
        const block = rng.bytes(64);
        const h = Array.from({ length: 8 }, () => Number(rng.bits(32)));
        const view = new DataView(block.buffer);
        const w = Array.from({ length: 16 }, (_, i) => BigInt(view.getUint32(4 * i, false)));
        const sha = new _SHA256();
        sha.set(...h);
        sha.process(view, 0);
        const want = sha.get().map((v) => le(BigInt(v >>> 0), slot)).join('');
        const wHex = w.map((v) => le(v, slot)).join('');
        return {
          what: `block ${hex(block)}`,
          lines: [
            ecall(0x00300105, A).mem(A, wHex).ecall().line(),
            ecall(0x00010106, A, B).mem(B, h.map((v) => le(BigInt(v >>> 0), slot)).join('')).ecall().read(B, 8 * slot).line(),
          ],
          want: `ok - ${want}`,
        };
      },
      edges: () => [
        { what: 'w not aligned', lines: [ecall(0x00300105, A + 2).ecall().line()], want: { fault: 'SHA_EXTEND' } },
      ],
    });
  }

  // ---- KECCAK_PERMUTE: 25 lanes, little-endian, the same bytes on v6 ----
  for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
    calls.push({
      name: `KECCAK_PERMUTE.${label}`,
      reference: '@noble/hashes keccakP (24 rounds)',
      guest,
      random(rng) {
        const state = rng.bytes(200);
        const s32 = new Uint32Array(state.slice().buffer);
        keccakP(s32, 24);
        return {
          what: `state ${hex(state)}`,
          lines: [ecall(0x00010109, A).mem(A, hex(state)).ecall().read(A, 200).line()],
          want: `ok - ${hex(new Uint8Array(s32.buffer))}`,
        };
      },
      edges: () => [
        { what: 'all zero', lines: [ecall(0x00010109, A).mem(A, '00'.repeat(200)).ecall().read(A, 8).line()],
          want: `ok - ${hex(new Uint8Array(keccakZero().buffer).slice(0, 8))}` },
      ],
    });
  }
  function keccakZero() {
    const s = new Uint32Array(50);
    keccakP(s, 24);
    return s;
  }

  // ---- UINT256_MUL: x (a0) = x * y mod m, y then m at a1; m = 0 means 2^256 ----
  const uintMul = (x, y, m) => (m === 0n ? (x * y) % (1n << 256n) : (x * y) % m);
  for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
    calls.push({
      name: `UINT256_MUL.${label}`,
      reference: 'BigInt',
      guest,
      random(rng) {
        const x = rng.bits(256), y = rng.bits(256);
        const m = rng.pick([0n, rng.bits(256), rng.bits(rng.int(256) + 1), 1n, (1n << 256n) - 1n]);
        return {
          what: `x ${x} y ${y} m ${m}`,
          lines: [ecall(0x0001011D, A, B).mem(A, le(x, 32)).mem(B, le(y, 32) + le(m, 32)).ecall().read(A, 32).line()],
          want: `ok - ${le(uintMul(x, y, m), 32)}`,
        };
      },
      edges: () => [[0n, 5n, 7n], [(1n << 256n) - 1n, (1n << 256n) - 1n, 0n], [6n, 7n, 1n], [9n, 9n, 10n]].map(([x, y, m]) => ({
        what: `x ${x} y ${y} m ${m}`,
        lines: [ecall(0x0001011D, A, B).mem(A, le(x, 32)).mem(B, le(y, 32) + le(m, 32)).ecall().read(A, 32).line()],
        want: `ok - ${le(uintMul(x, y, m), 32)}`,
      })),
    });
  }

  // ---- Weierstrass ADD and DOUBLE: x limbs then y, little-endian, at a0 (and a1) ----
  const curves = [
    { name: 'SECP256K1', Point: secp256k1.Point, add: 0x0001010A, dbl: 0x0000010B, dec: 0x0000010C },
    { name: 'SECP256R1', Point: p256.Point, add: 0x0001012C, dbl: 0x0000012D, dec: 0x0000012E },
    // the codes of SP1's testnet branch that first had P-256 (core/src/runtime/syscall.rs at 3d4e42b7)
    { name: 'SECP256R1', suffix: '.testnet', Point: p256.Point, add: 0x00010111, dbl: 0x00000114, dec: 0x00000115 },
    { name: 'BN254', Point: bn254.G1.Point, add: 0x0001010E, dbl: 0x0000010F },
    { name: 'BLS12381', Point: bls12_381.G1.Point, add: 0x0001011E, dbl: 0x0000011F, dec: 0x0000011C },
  ];
  for (const cv of curves) {
    const p = cv.Point.Fp.ORDER;
    const a = cv.Point.CURVE().a;
    const size = cv.name === 'BLS12381' ? 48 : 32;
    const enc = (P) => le(P.x, size) + le(P.y, size);
    const randomPoint = pointWalk(cv.Point);
    const addLine = (P, Q) => ecall(cv.add, A, B).mem(A, enc(P)).mem(B, enc(Q)).ecall().read(A, 2 * size).line();
    const dblLine = (P) => ecall(cv.dbl, A).mem(A, enc(P)).ecall().read(A, 2 * size).line();
    const asSp1 = (R, call) => (R ? `ok - ${enc(R)}` : { fault: call });
    // v6 routes secp256k1 to the k256 crate (crates/curves/src/weierstrass/mod.rs
    // sw_add_k256 at v6.4.0): points must decode (on the curve, coordinates
    // below p); P + P doubles; a sum at infinity panics.
    const b = cv.Point.CURVE().b;
    const decodes = (P) => P.x < p && P.y < p && mod(P.x ** 3n + a * P.x + b - P.y * P.y, p) === 0n;
    const k256Add = (P, Q) => {
      if (!decodes(P) || !decodes(Q) || (P.x === Q.x && P.y !== Q.y)) return null;
      const R = cv.Point.fromAffine(P);
      return (P.y === Q.y ? R.double() : R.add(cv.Point.fromAffine(Q))).toAffine();
    };
    const k256Double = (P) => (decodes(P) ? cv.Point.fromAffine(P).double().toAffine() : null);
    for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
      const viaK256 = cv.name === 'SECP256K1' && label === 'rv64';
      const addRef = viaK256 ? k256Add : (P, Q) => swAdd(p, P, Q);
      const doubleRef = viaK256 ? k256Double : (P) => swDouble(p, a, P);
      calls.push({
        name: `${cv.name}_ADD.${label}${cv.suffix ?? ''}`,
        reference: '@noble/curves Point.add; SP1 sw_add where the sum is undefined',
        guest,
        max: 200000,
        random(rng) {
          const P = randomPoint(rng), Q = randomPoint(rng);
          if (P.x === Q.x) return { what: 'same x', lines: [addLine(P, Q)], want: asSp1(addRef(P, Q), `${cv.name}_ADD`) };
          const R = cv.Point.fromAffine(P).add(cv.Point.fromAffine(Q)).toAffine();
          return { what: `P ${P.x},${P.y} Q ${Q.x},${Q.y}`, lines: [addLine(P, Q)], want: `ok - ${enc(R)}` };
        },
        edges() {
          const G = cv.Point.BASE.toAffine();
          const G2 = cv.Point.BASE.double().toAffine();
          const neg = { x: G.x, y: p - G.y };
          const zero = { x: 0n, y: 0n };
          const top = (1n << BigInt(8 * size)) - 1n;
          const cases = [
            ['P + P through ADD (sw_add panics: "Points are the same"; k256 doubles)', G, G],
            ['P + (-P): sw_add inverts 0 to 0; k256 has no coordinates for the sum', G, neg],
            ['(0, 0) + Q: the zero words SP1 guests keep for infinity', zero, G],
            ['P + (0, 0)', G, zero],
            ['x + p, if it fits: the unsigned subtraction may go negative', { x: G.x + p <= top ? G.x + p : G.x, y: G.y }, G2],
            ['Q.x + p against P', G2, { x: G.x + p <= top ? G.x + p : G.x, y: G.y }],
            ['largest limbs', { x: top, y: top }, G],
            ['largest limbs second', G, { x: top, y: top }],
          ];
          return cases.map(([what, P, Q]) => ({ what, lines: [addLine(P, Q)], want: asSp1(addRef(P, Q), `${cv.name}_ADD`) }));
        },
      });
      calls.push({
        name: `${cv.name}_DOUBLE.${label}${cv.suffix ?? ''}`,
        reference: '@noble/curves Point.double; SP1 sw_double where undefined',
        guest,
        max: 200000,
        random(rng) {
          const P = randomPoint(rng);
          const R = cv.Point.fromAffine(P).double().toAffine();
          return { what: `P ${P.x},${P.y}`, lines: [dblLine(P)], want: `ok - ${enc(R)}` };
        },
        edges() {
          const G = cv.Point.BASE.toAffine();
          const top = (1n << BigInt(8 * size)) - 1n;
          return [
            ['y = 0: SP1 inverts 0 to 0', { x: G.x, y: 0n }],
            ['(0, 0)', { x: 0n, y: 0n }],
            ['y + p', { x: G.x, y: G.y + p <= top ? G.y + p : G.y }],
            ['x + p', { x: G.x + p <= top ? G.x + p : G.x, y: G.y }],
            ['largest limbs', { x: top, y: top }],
          ].map(([what, P]) => ({ what, lines: [dblLine(P)], want: asSp1(doubleRef(P), `${cv.name}_DOUBLE`) }));
        },
      });
    }
  }

  // ---- DECOMPRESS: x (little-endian) in the second half at a0, y written to the first; a1 the sign ----
  // RV32 only: v6 removed them (its executor panics).
  for (const cv of curves.filter((c) => c.dec)) {
    const p = cv.Point.Fp.ORDER;
    const size = cv.name === 'BLS12381' ? 48 : 32;
    const randomPoint = pointWalk(cv.Point);
    const line = (x, sign, guest) => ecall(cv.dec, A, sign).mem(A, '00'.repeat(size) + le(x, size)).ecall().read(A, size).line();
    calls.push({
      name: `${cv.name}_DECOMPRESS.rv32${cv.suffix ?? ''}`,
      reference: '@noble/curves Point.fromBytes of the compressed point',
      guest: RV32,
      max: 200000,
      quick: cv.name === 'BLS12381' ? 500 : 2000, // noble's BLS12-381 decoding takes ~4 ms
      random(rng) {
        const P = randomPoint(rng);
        const sign = rng.int(2) ? 1n : 0n;
        // noble's own decoding of the compressed form gives y for this sign
        let Y;
        if (cv.name === 'BLS12381') {
          const bytes = cv.Point.fromAffine(P).toBytes(true); // ZCash: 0x80 compressed, 0x20 the sort flag
          bytes[0] = (bytes[0] & 0x1f) | 0x80 | (sign ? 0x20 : 0);
          Y = cv.Point.fromBytes(bytes).toAffine().y;
        } else {
          const bytes = new Uint8Array(33);
          bytes[0] = sign ? 3 : 2;
          bytes.set(cv.Point.fromAffine(P).toBytes(true).slice(1), 1);
          Y = cv.Point.fromBytes(bytes).toAffine().y;
        }
        return { what: `x ${P.x} sign ${sign}`, lines: [line(P.x, sign)], want: `ok - ${le(Y, size)}` };
      },
      edges() {
        const G = cv.Point.BASE.toAffine();
        let nonResidueX = 1n;
        const b = cv.Point.CURVE().b, a = cv.Point.CURVE().a;
        const isSquare = (v) => v === 0n || modpow(v, (p - 1n) / 2n, p) === 1n;
        while (isSquare(mod(nonResidueX ** 3n + a * nonResidueX + b, p))) nonResidueX++;
        return [
          { what: 'x = p', lines: [line(p, 0n)], want: { fault: `${cv.name}_DECOMPRESS` } },
          { what: 'no y for this x', lines: [line(nonResidueX, 0n)], want: { fault: `${cv.name}_DECOMPRESS` } },
          { what: 'sign 2', lines: [line(G.x, 2n)], want: { fault: `${cv.name}_DECOMPRESS` } },
          ...(cv.suffix ? [] : [{ what: 'v6 removed it', guest: RV64, lines: [line(G.x, 0n)], want: { fault: `${cv.name}_DECOMPRESS` } }]),
        ];
      },
    });
  }

  // ---- Fp and Fp2 of BN254 and BLS12-381: x (a0) = x op y (a1) ----
  const fields = [
    { name: 'BN254', Fp2: bn254.fields.Fp2, p: bn254.fields.Fp.ORDER, size: 32, base: 0x00010126 },
    { name: 'BLS12381', Fp2: bls12_381.fields.Fp2, p: bls12_381.fields.Fp.ORDER, size: 48, base: 0x00010120 },
  ];
  for (const f of fields) {
    const { p, size } = f;
    const top = 1n << BigInt(8 * size);
    // Most inputs below p (noble's field), some up to the limbs' top (SP1 takes those too).
    const element = (rng) => (rng.int(8) ? rng.below(p) : rng.below(top));
    const ops = [
      ['FP_ADD', 0, (x, y) => (mod(x, p) + mod(y, p)) % p],
      ['FP_SUB', 1, (x, y) => (mod(x, p) + p - mod(y, p)) % p],
      ['FP_MUL', 2, (x, y) => (mod(x, p) * mod(y, p)) % p],
    ];
    for (const [op, k, ref] of ops) {
      for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
        calls.push({
          name: `${f.name}_${op}.${label}`,
          reference: 'BigInt modulo p (fp.rs reduces both inputs first)',
          guest,
          random(rng) {
            const x = element(rng), y = element(rng);
            return {
              what: `x ${x} y ${y}`,
              lines: [ecall(f.base + k, A, B).mem(A, le(x, size)).mem(B, le(y, size)).ecall().read(A, size).line()],
              want: `ok - ${le(ref(x, y), size)}`,
            };
          },
        });
      }
    }
    // Fp2 = Fp[u]/(u^2 + 1): c0 limbs then c1. fp2_addsub.rs does not reduce
    // first: (a + p - b) % p panics when b > a + p.
    const fp2 = [
      ['FP2_ADD', 3, (a, b) => ({ c0: (a.c0 + b.c0) % p, c1: (a.c1 + b.c1) % p }), (a, b) => f.Fp2.add(a, b)],
      ['FP2_SUB', 4, (a, b) => (a.c0 + p < b.c0 || a.c1 + p < b.c1 ? null : { c0: (a.c0 + p - b.c0) % p, c1: (a.c1 + p - b.c1) % p }), (a, b) => f.Fp2.sub(a, b)],
      ['FP2_MUL', 5, (a, b) => ({ c0: mod(a.c0 * b.c0 - a.c1 * b.c1, p), c1: (a.c0 * b.c1 + a.c1 * b.c0) % p }), (a, b) => f.Fp2.mul(a, b)],
    ];
    const enc2 = (v) => le(v.c0, size) + le(v.c1, size);
    for (const [op, k, sp1Ref, nobleRef] of fp2) {
      for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
        const line = (x, y) => ecall(f.base + k, A, B).mem(A, enc2(x)).mem(B, enc2(y)).ecall().read(A, 2 * size).line();
        calls.push({
          name: `${f.name}_${op}.${label}`,
          reference: '@noble/curves Fp2 below p; SP1 fp2 formulas above it',
          guest,
          random(rng) {
            const reduced = rng.int(8) !== 0;
            const pick = () => (reduced ? rng.below(p) : rng.below(top));
            const x = { c0: pick(), c1: pick() }, y = { c0: pick(), c1: pick() };
            const R = reduced ? nobleRef(f.Fp2.create(x), f.Fp2.create(y)) : sp1Ref(x, y);
            return { what: `x ${x.c0},${x.c1} y ${y.c0},${y.c1}`, lines: [line(x, y)], want: R ? `ok - ${enc2(R)}` : { fault: `${f.name}_${op}` } };
          },
          edges() {
            const big = top - 1n;
            return [
              [{ c0: 0n, c1: 0n }, { c0: big, c1: big }],
              [{ c0: big, c1: big }, { c0: big, c1: big }],
              [{ c0: 1n, c1: 0n }, { c0: 0n, c1: 1n }],
              [{ c0: p - 1n, c1: p - 1n }, { c0: p - 1n, c1: p - 1n }],
            ].map(([x, y]) => {
              const R = sp1Ref(x, y);
              return { what: `x ${x.c0},${x.c1} y ${y.c0},${y.c1}`, lines: [line(x, y)], want: R ? `ok - ${enc2(R)}` : { fault: `${f.name}_${op}` } };
            });
          },
        });
      }
    }
  }

  // ---- ed25519: ED_ADD (x then y at a0 += a1), ED_DECOMPRESS (y at a0 + 32, x out at a0) ----
  const edP = ed25519.Point.Fp.ORDER;
  const edD = ed25519.Point.CURVE().d;
  const edEnc = (P) => le(P.x, 32) + le(P.y, 32);
  const edRandom = pointWalk(ed25519.Point);
  for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
    const line = (P, Q) => ecall(0x00010107, A, B).mem(A, edEnc(P)).mem(B, edEnc(Q)).ecall().read(A, 64).line();
    calls.push({
      name: `ED_ADD.${label}`,
      reference: '@noble/curves ed25519 Point.add; SP1 ed_add off the curve',
      guest,
      max: 200000,
      random(rng) {
        const P = edRandom(rng), Q = rng.int(16) ? edRandom(rng) : P;
        const R = ed25519.Point.fromAffine(P).add(ed25519.Point.fromAffine(Q)).toAffine();
        return { what: `P ${P.x},${P.y} Q ${Q.x},${Q.y}`, lines: [line(P, Q)], want: `ok - ${edEnc(R)}` };
      },
      edges() {
        const G = ed25519.Point.BASE.toAffine();
        const id = { x: 0n, y: 1n };
        // off the curve, 1 + d x1 x2 y1 y2 = 0: x1 y1 x2 y2 = -1/d
        const t = mod(-modpow(edD, edP - 2n, edP), edP);
        const off = { x: t, y: 1n };
        const top = (1n << 256n) - 1n;
        return [
          ['identity + G', id, G],
          ['G + G', G, G],
          ['a zero denominator: SP1 inverts 0 to 0', off, { x: 1n, y: 1n }],
          ['largest limbs', { x: top, y: top }, G],
        ].map(([what, P, Q]) => ({ what, lines: [line(P, Q)], want: `ok - ${edEnc(edAdd(edP, edD, P, Q))}` }));
      },
    });
    const dline = (yBytesHex, sign) => ecall(0x00000108, A, sign).mem(A, '00'.repeat(32) + yBytesHex).ecall().read(A, 32).line();
    calls.push({
      name: `ED_DECOMPRESS.${label}`,
      reference: '@noble/curves ed25519 Point.fromBytes',
      guest,
      max: 200000,
      random(rng) {
        const P = edRandom(rng);
        const bytes = ed25519.Point.fromAffine(P).toBytes(); // y, and x's parity in bit 255
        const sign = BigInt(bytes[31] >> 7);
        // the call ignores bit 255 of y: leave noise there
        const y = bytes.slice();
        if (rng.int(2)) y[31] ^= 0x80;
        return { what: `y ${hex(bytes)}`, lines: [dline(hex(y), sign)], want: `ok - ${le(P.x, 32)}` };
      },
      edges() {
        let noX = 2n; // a y whose (y^2 - 1) / (d y^2 + 1) is not a square
        const isSquare = (v) => v === 0n || modpow(v, (edP - 1n) / 2n, edP) === 1n;
        while (isSquare(mod((noX * noX - 1n) * modpow(edD * noX * noX + 1n, edP - 2n, edP), edP))) noX++;
        return [
          { what: 'y = 1, sign 1: x = 0, SP1 returns p - 0 mod p = 0', lines: [dline(le(1n, 32), 1n)], want: `ok - ${le(0n, 32)}` },
          { what: 'y = p + 1 (not below p): SP1 reduces it', lines: [dline(le(edP + 1n, 32), 0n)], want: `ok - ${le(0n, 32)}` },
          { what: 'no x for this y', lines: [dline(le(noX, 32), 0n)], want: { fault: 'ED_DECOMPRESS' } },
          { what: 'sign 2', lines: [dline(le(1n, 32), 2n)], want: { fault: 'ED_DECOMPRESS' } },
        ];
      },
    });
  }

  // ---- U256XU2048_MUL (RV32; v6 removed it): lo (a2, 2048 bits), hi (a3) = a (a0) * b (a1) ----
  calls.push({
    name: 'U256XU2048_MUL.rv32',
    reference: 'BigInt',
    guest: RV32,
    random(rng) {
      const a = rng.bits(256), b = rng.bits(2048);
      const r = a * b;
      return {
        what: `a ${a} b ${b}`,
        lines: [ecall(0x0001012F, A, B, C, D).mem(A, le(a, 32)).mem(B, le(b, 256)).ecall().read(C, 256).read(D, 32).line()],
        want: `ok - ${le(r & ((1n << 2048n) - 1n), 256)} ${le(r >> 2048n, 32)}`,
      };
    },
    edges: () => [
      { what: 'v6 removed it', guest: RV64, lines: [ecall(0x0001012F, A, B, C, D).ecall().line()], want: { fault: 'U256XU2048_MUL' } },
    ],
  });

  // ---- UINT256_ADD_CARRY, UINT256_MUL_CARRY (v6): d (a3), e (a4) = low, high of (a op b) + c ----
  for (const [name, code, op] of [['UINT256_ADD_CARRY', 0x00010130, (a, b) => a + b], ['UINT256_MUL_CARRY', 0x00010131, (a, b) => a * b]]) {
    calls.push({
      name: `${name}.rv64`,
      reference: 'BigInt',
      guest: RV64,
      random(rng) {
        const a = rng.bits(256), b = rng.bits(256), c = rng.bits(256);
        const r = op(a, b) + c;
        return {
          what: `a ${a} b ${b} c ${c}`,
          lines: [ecall(code, A, B, C, D, E).mem(A, le(a, 32)).mem(B, le(b, 32)).mem(C, le(c, 32)).ecall().read(D, 32).read(E, 32).line()],
          want: `ok - ${le(r & ((1n << 256n) - 1n), 32)} ${le(r >> 256n, 32)}`,
        };
      },
      edges: () => [
        { what: 'v3 to v5 have no such call', guest: RV32, lines: [ecall(code, A, B, C, D, E).ecall().line()], want: { fault: name } },
      ],
    });
  }
  // ---- BLAKE3_COMPRESS_INNER (testnet before v1.0): the 16-word state at a0
  // through seven rounds with the 16-word message at a1, no final XOR
  // (core/src/syscall/precompiles/blake3/compress/execute.rs, v1.0.5-testnet) ----
  // Two references: noble's blake2 _compress (the rounds BLAKE3 shares) on any
  // state, with the message schedule built from the BLAKE3 paper's
  // permutation; and noble's blake3 itself, keyed, whose 64-byte output of a
  // one-block message gives the whole state: out[i] = v[i] ^ v[i + 8],
  // out[i + 8] = v[i + 8] ^ key[i].
  const B3_PERMUTATION = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8];
  const sigma = (() => {
    const rows = [Array.from({ length: 16 }, (_, i) => i)];
    for (let r = 1; r < 7; r++) rows.push(B3_PERMUTATION.map((j) => rows[r - 1][j]));
    return Uint8Array.from(rows.flat());
  })();
  const words = (bytes) => Array.from({ length: bytes.length / 4 }, (_, i) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(4 * i, true));
  const wordsHex = (ws) => ws.map((w) => le(BigInt(w >>> 0), 4)).join('');
  const B3_IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
    const line = (state, msg) => ecall(0x0038010D, A, B).mem(A, wordsHex(state)).mem(B, wordsHex(msg)).ecall().read(A, 64).line();
    calls.push({
      name: `BLAKE3_COMPRESS_INNER.${label}`,
      reference: '@noble/hashes blake2 _compress with BLAKE3\'s schedule; blake3 keyed output',
      guest,
      random(rng) {
        const msg = words(rng.bytes(64));
        if (rng.int(2)) {
          const state = words(rng.bytes(64));
          const v = _compress(sigma, 0, Uint32Array.from(msg), 7, ...state);
          const want = Array.from({ length: 16 }, (_, i) => v[`v${i}`]);
          return { what: `state ${wordsHex(state)} msg ${wordsHex(msg)}`, lines: [line(state, msg)], want: `ok - ${wordsHex(want)}` };
        }
        // keyed, one 64-byte block: the chunk's first block is also its last and the root
        const key = rng.bytes(32);
        const block = new Uint8Array(new Uint32Array(msg).buffer);
        const out = words(blake3(block, { key, dkLen: 64 }));
        const k = words(key);
        const state = [...k, ...B3_IV.slice(0, 4), 0, 0, 64, 1 | 2 | 8 | 16];
        const v = Array.from({ length: 16 }, (_, i) => (i < 8 ? out[i] ^ out[i + 8] ^ k[i] : out[i] ^ k[i - 8]));
        return { what: `keyed block ${hex(block)}`, lines: [line(state, msg)], want: `ok - ${wordsHex(v)}` };
      },
    });
  }

  // ---- Hooks (v4 on): a WRITE to fds 15-21 pushes the host's answers to the
  // front of stdin, read back with HINT_READ; hook.rs at v5.2.4 (minimal/
  // hooks at v6.4.0) computes them. Each case: the write, one HINT_READ per
  // answer, then HINT_LEN finding none left. ----
  const be = (v, size) => {
    let out = '';
    for (let i = size - 1; i >= 0; i--) out += Number((v >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, '0');
    return out;
  };
  const hookCase = (guest, fd, inputHex, answers, what) => {
    const lines = [ecall(0x02, fd, A, inputHex.length / 2).mem(A, inputHex).ecall().line()];
    for (const a of answers) lines.push(ecall(0xF1, C, a.length / 2).ecall().read(C, a.length / 2).line());
    lines.push(ecall(0xF0).ecall().readReg(REG.t0).line());
    const none = guest === RV64 ? 'ffffffffffffffff' : 'ffffffff';
    return { what, guest, lines, want: ['ok -', ...answers.map((a) => `ok - ${a}`), `ok - ${none}`] };
  };
  const isSquare = (v, q) => v % q === 0n || modpow(v, (q - 1n) / 2n, q) === 1n;
  // FD_ECRECOVER_HOOK: [curve | y odd << 7][r][alpha] (32 bytes BE each) ->
  // [1][y with y^2 = alpha, that parity][r^-1 mod n], or [0][sqrt(3 alpha)]
  for (const [curveId, curve] of [[1, secp256k1], [2, p256]]) {
    const Fp = curve.Point.Fp, Fn = curve.Point.Fn;
    for (const [guest, label] of [[RV32, 'rv32'], [RV64, 'rv64']]) {
      calls.push({
        name: `FD_ECRECOVER_HOOK.${curveId === 1 ? 'secp256k1' : 'secp256r1'}.${label}`,
        reference: '@noble/curves Fp.sqrt, Fn.inv',
        guest,
        quick: 500,
        random(rng) {
          const r = 1n + rng.below(Fn.ORDER - 1n);
          let alpha = rng.below(Fp.ORDER);
          if (curveId === 1 && alpha === 0n) alpha = 1n;
          const odd = rng.int(2);
          const input = ((curveId | (odd << 7)).toString(16).padStart(2, '0')) + be(r, 32) + be(alpha, 32);
          let answers;
          if (isSquare(alpha, Fp.ORDER)) {
            let y = Fp.sqrt(alpha);
            if (Number(y & 1n) !== odd && y !== 0n) y = Fp.neg(y);
            answers = ['01', be(y, 32), be(Fn.inv(r), 32)];
          } else {
            answers = ['00', be(Fp.sqrt(Fp.mul(alpha, 3n)), 32)];
          }
          return hookCase(guest, 15, input, answers, `r ${r} alpha ${alpha} odd ${odd}`);
        },
      });
    }
  }
  // FD_EDDECOMPRESS: [compressed y][v = d y^2 + 1, LE] -> [1] when (y^2 - 1) / v
  // is a square, else [0][v^-1][the even sqrt(2 (y^2 - 1) / v)] (32 bytes LE each)
  const edFp = ed25519.Point.Fp;
  const evenRoot = (a) => {
    const r = edFp.sqrt(a);
    return r & 1n ? edFp.neg(r) : r;
  };
  calls.push({
    name: 'FD_EDDECOMPRESS.rv32',
    reference: '@noble/curves ed25519 Fp.sqrt, Fp.inv',
    guest: RV32,
    quick: 500,
    random(rng) {
      const y = rng.below(edP);
      const v = (edD * y * y + 1n) % edP;
      const u = edFp.mul(edFp.sub(edFp.mul(y, y), 1n), edFp.inv(v));
      const input = le(y, 32) + le(v, 32);
      const answers = isSquare(u, edP) ? ['01'] : ['00', le(edFp.inv(v), 32), le(evenRoot(edFp.mul(u, 2n)), 32)];
      return hookCase(RV32, 16, input, answers, `y ${y}`);
    },
  });
  // FD_RSA_MUL_MOD: [product: 512 LE][m: 256 LE] -> [product mod m][product / m] (256 LE each)
  calls.push({
    name: 'FD_RSA_MUL_MOD.rv32',
    reference: 'BigInt',
    guest: RV32,
    quick: 500,
    random(rng) {
      const m = rng.bits(2048) | 1n;
      const prod = rng.bits(2048) * rng.bits(2048);
      return hookCase(RV32, 17, le(prod, 512) + le(m, 256), [le(prod % m, 256), le((prod / m) & ((1n << 2048n) - 1n), 256)], `m ${m}`);
    },
  });
  // FD_BLS12_381_SQRT: [x: 48 BE] -> [1][sqrt x] or [0][sqrt 2x]; FD_BLS12_381_INVERSE: [x] -> [x^-1]
  const blsFp = bls12_381.fields.Fp;
  calls.push({
    name: 'FD_BLS12_381_SQRT+INVERSE.rv32',
    reference: '@noble/curves bls12_381 Fp.sqrt, Fp.inv',
    guest: RV32,
    quick: 500,
    random(rng) {
      const x = 1n + rng.below(blsFp.ORDER - 1n);
      if (rng.int(2)) return hookCase(RV32, 19, be(x, 48), [be(blsFp.inv(x), 48)], `inverse of ${x}`);
      const answers = isSquare(x, blsFp.ORDER) ? ['01', be(blsFp.sqrt(x), 48)] : ['00', be(blsFp.sqrt(blsFp.mul(x, 2n)), 48)];
      return hookCase(RV32, 18, be(x, 48), answers, `sqrt of ${x}`);
    },
  });
  // FD_FP_SQRT: [n: u32 BE][x][m][nqr] (n bytes BE) -> [1][sqrt x] or [0][sqrt(nqr x)];
  // FD_FP_INV: [n][x][m] -> [x^(m-2) mod m]. Primes = 3 mod 4, whose root
  // Tonelli-Shanks and noble both take as x^((m+1)/4).
  const primes = [secp256k1.Point.Fp.ORDER, p256.Point.Fp.ORDER, bn254.fields.Fp.ORDER, blsFp.ORDER];
  calls.push({
    name: 'FD_FP_SQRT+FP_INV.rv32',
    reference: '@noble/curves Field(m).sqrt, inv',
    guest: RV32,
    quick: 500,
    random(rng) {
      const m = rng.pick(primes);
      const F = primes.indexOf(m) === 3 ? blsFp : [secp256k1.Point.Fp, p256.Point.Fp, bn254.fields.Fp][primes.indexOf(m)];
      const n = (m.toString(16).length + 1) >> 1;
      const x = 1n + rng.below(m - 1n);
      const len = be(BigInt(n), 4);
      if (rng.int(2)) return hookCase(RV32, 21, len + be(x, n) + be(m, n), [be(F.inv(x), n)], `inverse of ${x} mod ${m}`);
      let nqr = 2n;
      while (isSquare(nqr, m)) nqr++;
      const answers = isSquare(x, m) ? ['01', be(F.sqrt(x), n)] : ['00', be(F.sqrt(F.mul(x, nqr)), n)];
      return hookCase(RV32, 20, len + be(x, n) + be(m, n) + be(nqr, n), answers, `sqrt of ${x} mod ${m}`);
    },
  });

  // ---- release by release (docs/ZKVMS.md, SP1's release table): the harness
  // takes the release as --zkvm-release names it ----
  const V3 = `${RV32}@3`;
  const V4 = `${RV32}@4`;
  // v1.2 to v3 write an Fp2 result as c0's significant limbs, then c1's, then
  // zeros (fptower/fp2_addsub.rs, fp2_mul.rs at v3.4.0 563ede17:
  // c0.to_u32_digits().chain(c1.to_u32_digits()), then resize); v4 pads c0.
  const limbs = (v) => {
    const out = [];
    for (; v; v >>= 32n) out.push(v & 0xffffffffn);
    return out;
  };
  for (const f of fields) {
    const { p, size } = f;
    const packed = (R) => {
      const words = [...limbs(R.c0), ...limbs(R.c1)];
      while (words.length < (2 * size) / 4) words.push(0n);
      return words.map((w) => le(w, 4)).join('');
    };
    for (const [op, k, nobleRef] of [['FP2_ADD', 3, (a, b) => f.Fp2.add(a, b)], ['FP2_MUL', 5, (a, b) => f.Fp2.mul(a, b)]]) {
      calls.push({
        name: `${f.name}_${op}.v3`,
        reference: '@noble/curves Fp2, laid out as v3 lays it out',
        guest: V3,
        random(rng) {
          // parts of random widths, so that the packing moves c1 by varying amounts
          const part = () => rng.below(1n << BigInt(32 * rng.int(size / 4 + 1))) % p;
          const x = f.Fp2.create({ c0: part(), c1: part() });
          const y = rng.int(2) ? f.Fp2.create({ c0: 0n, c1: 0n }) : f.Fp2.create({ c0: part(), c1: part() });
          const R = nobleRef(x, y);
          return {
            what: `x ${x.c0},${x.c1} y ${y.c0},${y.c1}`,
            lines: [ecall(f.base + k, A, B).mem(A, le(x.c0, size) + le(x.c1, size)).mem(B, le(y.c0, size) + le(y.c1, size)).ecall().read(A, 2 * size).line()],
            want: `ok - ${packed(R)}`,
          };
        },
      });
    }
  }
  // ED_DECOMPRESS: v1 to v3 compute y^2 - 1 unsigned (y = 0 mod p panics) and
  // write p - 0 unreduced; v4 on, (y^2 + p - 1) % p and (p - x) % p
  // (crates/curves/src/edwards/ed25519.rs decompress at v3.4.0 and v4.2.1).
  const edSqrtM1 = (() => {
    const r = ed25519.Point.Fp.sqrt(edP - 1n);
    return r & 1n ? edP - r : r;
  })();
  const dline = (y, sign) => ecall(0x00000108, A, sign).mem(A, '00'.repeat(32) + le(y, 32)).ecall().read(A, 32).line();
  calls.push({
    name: 'ED_DECOMPRESS.releases',
    reference: 'BigInt on SP1 v3 and v4 decompress',
    guest: V3,
    edges: () => [
      { what: 'v3: y = 1, sign 1 writes p', lines: [dline(1n, 1n)], want: `ok - ${le(edP, 32)}` },
      { what: 'v3: y = 0 panics', lines: [dline(0n, 0n)], want: { fault: 'ED_DECOMPRESS' } },
      { what: 'v3: y = p panics', lines: [dline(edP, 0n)], want: { fault: 'ED_DECOMPRESS' } },
      { what: 'v4: y = 0 gives sqrt(-1)', guest: V4, lines: [dline(0n, 0n)], want: `ok - ${le(edSqrtM1, 32)}` },
      { what: 'v4: y = 1, sign 1 writes 0', guest: V4, lines: [dline(1n, 1n)], want: `ok - ${le(0n, 32)}` },
    ],
  });
  // Calls a release does not have: its executor panics "invalid syscall number".
  const hintLen = () => ecall(0xF0).ecall().readReg(REG.t0).line();
  const write = (fd) => ecall(0x02, fd, A, 4).mem(A, '01020304').ecall().line();
  calls.push({
    name: 'release-gates',
    reference: 'SyscallCode at each release tag',
    guest: V3,
    edges: () => [
      { what: 'BN254_FP_ADD came in v1.2.0', guest: `${RV32}@1.1`, lines: [ecall(0x00010126, A, B).ecall().line()], want: { fault: 'BN254_FP_ADD', why: 'v1.2.0' } },
      { what: 'BN254_FP_ADD in v1.2', guest: `${RV32}@1.2`, lines: [ecall(0x00010126, A, B).mem(A, le(1n, 32)).mem(B, le(2n, 32)).ecall().read(A, 32).line()], want: `ok - ${le(3n, 32)}` },
      { what: 'SECP256R1_ADD came in v4.0.0', lines: [ecall(0x0001012C, A, B).ecall().line()], want: { fault: 'SECP256R1_ADD', why: 'v4.0.0' } },
      { what: 'UINT256_ADD_CARRY came in v6.0.0', guest: `${RV32}@5`, lines: [ecall(0x00010130, A, B).ecall().line()], want: { fault: 'UINT256_ADD_CARRY', why: 'v6.0.0' } },
      { what: 'UINT256_MUL at 0x11D (testnet)', guest: RV32, lines: [ecall(0x0000011D, A, B).mem(A, le(7n, 32)).mem(B, le(9n, 32) + le(10n, 32)).ecall().read(A, 32).line()], want: `ok - ${le(3n, 32)}` },
      { what: 'v3: HINT_LEN with no input left panics', lines: [hintLen()], want: { fault: 'HINT_LEN' } },
      { what: 'v4: HINT_LEN with no input left is all ones', guest: V4, lines: [hintLen()], want: 'ok - ffffffff' },
      { what: 'v3: fd 3 is the public values', lines: [write(3)], want: 'ok -' },
      { what: 'v4: fd 3 is reserved (SP1 panics)', guest: V4, lines: [write(3)], want: { fault: 'WRITE', why: 'reserved' } },
      { what: 'v3: fd 5 is the ecrecover hook', lines: [write(5)], want: { fault: 'WRITE', why: 'hook' } },
      { what: 'v6: fd 3 is ignored', guest: RV64, lines: [write(3)], want: 'ok -' },
      { what: '--zkvm-release 6 on an RV32 ELF', guest: `${RV32}@6`, lines: [hintLen()], want: 'harness refuses' },
    ].filter((c) => c.want !== 'harness refuses'),
  });
  return calls;
}
