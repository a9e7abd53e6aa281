// Ceno's calls (executor/abi/ceno.c), each checked against @noble/curves,
// @noble/hashes or BigInt. The contracts are Ceno's emulator's at
// scroll-tech/ceno ac164255 (2026-08-14): ceno_emul/src/syscalls.rs and
// syscalls/{keccak_permute,sha256,uint256,secp256k1,secp256r1,
// pubio_commit,keccak_xorin}.rs, syscalls/bn254/{types,bn254_curve,bn254_fptower}.rs;
// the numbers in ceno_syscall (scroll-tech/ceno-patch syscall/src/lib.rs
// 6a71aabe). Where the emulator panics (an `unwrap`, `expect` or `assert`),
// the call must fault:
//  - secp256k1 ADD/DOUBLE: each point must decode (coordinates below p,
//    halo2 from_repr) and lie on the curve (words_to_halo2_point asserts);
//    equal points double, same x otherwise gives 16 zero words (add_words);
//  - secp256r1 ADD/DOUBLE: 16 zero words are the identity (SecpPoint::from),
//    any other point must decode (p256 from_encoded_point); p256's complete
//    addition, the identity written as zeros;
//  - BN254: each coordinate must be below p (Bn254Fp::from, substrate_bn
//    Fq::from_slice "cannot parse Fq"), no curve check; a sum or double at
//    infinity panics ("cannot unpack affine"); BN254_DOUBLE asserts a1 = 0;
//  - every operand word-aligned (MemoryView::new asserts).
import { Call, REG, hex, le, mod, modpow } from './common.mjs';

const GUEST = 'zkvm-ceno-rv32.elf'; // ROM at 0x0800_0000: the layout of 2025-08 on
const A = 0x11000000; // scratch in RAM [0x1000_0000, 0x2000_4000)
const B = 0x11001000;
const W = 0x11002000;

function ecall(code, ...regs) {
  const c = new Call().reg(REG.t0, code);
  regs.forEach((v, i) => c.reg(REG.a0 + i, v));
  return c;
}

const N = {
  HALT: 0,
  LOG_PC_CYCLE: 0x00000003,
  PUB_IO_COMMIT: 0x00000010,
  KECCAK_PERMUTE: 0x00010109,
  SECP256K1_ADD: 0x0001010A,
  SECP256K1_DOUBLE: 0x0000010B,
  SECP256K1_DECOMPRESS: 0x0000010C,
  SECP256K1_SCALAR_INVERT: 0x0000010E,
  SHA_EXTEND: 0x00300105,
  BN254_ADD: 0x0001010E,
  BN254_DOUBLE: 0x0000010F,
  BN254_FP_ADD: 0x00010126,
  BN254_FP_MUL: 0x00010128,
  BN254_FP2_ADD: 0x00010129,
  BN254_FP2_MUL: 0x0001012B,
  SECP256R1_ADD: 0x0001012C,
  SECP256R1_DOUBLE: 0x0000012D,
  SECP256R1_SCALAR_INVERT: 0x0000012F,
  KECCAK_XORIN: 0x00010130,
  UINT256_MUL: 0x0001011D,
};

// ceno_syscall numbers that ceno_emul's handle_syscall (ac164255) has no arm
// for: Ceno stops with "Unknown syscall", so the call faults here.
const UNHANDLED = {
  SECP256K1_SCALAR_SQRT: 0x0000010D,
  BLS12381_DECOMPRESS: 0x0000011C,
  BLS12381_ADD: 0x0001011E,
  BLS12381_DOUBLE: 0x0000011F,
  BLS12381_FP_ADD: 0x00010120,
  BLS12381_FP_SUB: 0x00010121,
  BLS12381_FP_MUL: 0x00010122,
  BLS12381_FP2_ADD: 0x00010123,
  BLS12381_FP2_SUB: 0x00010124,
  BLS12381_FP2_MUL: 0x00010125,
  SECP256R1_DECOMPRESS: 0x0000012E,
  PHANTOM_LOG_PRINT: 0x00000004,
  STATE_CONTINUATION: 0x00000011,
};

// Random points cheaply: a walk adding one of 32 random multiples of the generator.
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

const be = (v, size) => {
  let out = '';
  for (let i = size - 1; i >= 0; i--) out += Number((v >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, '0');
  return out;
};

export async function suite({ npm }) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { p256 } = await npm('@noble/curves/nist.js');
  const { bn254 } = await npm('@noble/curves/bn254.js');
  const { keccakP, keccak_256 } = await npm('@noble/hashes/sha3.js');
  const calls = [];

  // ---- HALT, LOG_PC_CYCLE, PUB_IO_COMMIT, unknown numbers ----
  calls.push({
    name: 'HALT+LOG_PC_CYCLE+PUB_IO_COMMIT',
    reference: 'vm_state.rs ecall, phantom/mod.rs, pubio_commit.rs: no memory written',
    edges: () => [
      { what: 'HALT exits', lines: [ecall(N.HALT, 3).ecall().line()], want: 'ok exit' },
      { what: 'LOG_PC_CYCLE writes nothing', lines: [ecall(N.LOG_PC_CYCLE, A, 5).mem(A, hex(new TextEncoder().encode('label'))).ecall().read(A, 5).line()],
        want: `ok - ${hex(new TextEncoder().encode('label'))}` },
      { what: 'PUB_IO_COMMIT reads the 8 words, writes none', lines: [ecall(N.PUB_IO_COMMIT, A).mem(A, '11'.repeat(32)).ecall().read(A, 32).line()],
        want: `ok - ${'11'.repeat(32)}` },
      { what: 'PUB_IO_COMMIT misaligned (MemoryView asserts)', lines: [ecall(N.PUB_IO_COMMIT, A + 2).ecall().line()], want: { fault: 'PUB_IO_COMMIT' } },
      { what: 'unknown number (Unknown syscall)', lines: [ecall(0x0001012a, A, B).ecall().line()], want: { fault: '-', why: 'Unknown syscall' } },
      ...Object.entries(UNHANDLED).map(([name, code]) => ({
        what: `${name} (a ceno_syscall number handle_syscall has no arm for)`,
        lines: [ecall(code, A, B).ecall().line()],
        want: { fault: '-', why: 'Unknown syscall' },
      })),
    ],
  });

  // ---- KECCAK_PERMUTE: 25 little-endian lanes at a0 ----
  calls.push({
    name: 'KECCAK_PERMUTE',
    reference: '@noble/hashes keccakP (24 rounds)',
    random(rng) {
      const state = rng.bytes(200);
      const s32 = new Uint32Array(state.slice().buffer);
      keccakP(s32, 24);
      return { what: `state ${hex(state)}`, lines: [ecall(N.KECCAK_PERMUTE, A).mem(A, hex(state)).ecall().read(A, 200).line()],
        want: `ok - ${hex(new Uint8Array(s32.buffer))}` };
    },
    edges() {
      const z = new Uint32Array(50);
      keccakP(z, 24);
      const ones = new Uint32Array(50).fill(0xffffffff);
      keccakP(ones, 24);
      return [
        { what: 'all zero', lines: [ecall(N.KECCAK_PERMUTE, A).mem(A, '00'.repeat(200)).ecall().read(A, 200).line()], want: `ok - ${hex(new Uint8Array(z.buffer))}` },
        { what: 'all ones', lines: [ecall(N.KECCAK_PERMUTE, A).mem(A, 'ff'.repeat(200)).ecall().read(A, 200).line()], want: `ok - ${hex(new Uint8Array(ones.buffer))}` },
        { what: 'misaligned', lines: [ecall(N.KECCAK_PERMUTE, A + 4 + 2).ecall().line()], want: { fault: 'KECCAK_PERMUTE' } },
      ];
    },
  });

  // ---- KECCAK_XORIN (keccak_xorin.rs, ac164255): the 34 words at a1 XORed
  // into the first 34 of the state at a0; the state's 200 bytes and the
  // block's 136 must not overlap nor pass 2^32. Checked three ways: one call
  // against a plain XOR (the 64 state bytes after the rate and the block
  // untouched); XORIN then KECCAK_PERMUTE against noble's keccakP on the
  // XORed state; and whole messages absorbed block by block (pad10*1, 0x01
  // ... 0x80) against noble's keccak_256. ----
  const RATE = 136;
  const xorinLine = (st, blk) => ecall(N.KECCAK_XORIN, A, B).mem(A, hex(st)).mem(B, hex(blk)).ecall().read(A, 200).read(B, RATE).line();
  const xored = (st, blk) => st.map((v, i) => (i < RATE ? v ^ blk[i] : v));
  const permuted = (bytes) => {
    const s32 = new Uint32Array(bytes.slice().buffer);
    keccakP(s32, 24);
    return new Uint8Array(s32.buffer);
  };
  const digestLines = (msg) => {
    const padded = new Uint8Array(Math.floor(msg.length / RATE) * RATE + RATE);
    padded.set(msg);
    padded[msg.length] ^= 0x01;
    padded[padded.length - 1] ^= 0x80;
    const lines = [];
    for (let at = 0; at < padded.length; at += RATE) {
      const x = ecall(N.KECCAK_XORIN, A, B).mem(B, hex(padded.subarray(at, at + RATE)));
      if (at === 0) x.mem(A, '00'.repeat(200));
      lines.push(x.ecall().line());
      const last = at + RATE === padded.length;
      const p = ecall(N.KECCAK_PERMUTE, A).ecall();
      lines.push((last ? p.read(A, 32) : p).line());
    }
    return lines;
  };
  calls.push({
    name: 'KECCAK_XORIN',
    reference: 'XOR; XORIN + KECCAK_PERMUTE vs @noble/hashes keccakP; chained over messages vs keccak_256',
    quick: 600,
    random(rng) {
      const kind = rng.int(3);
      if (kind === 0) {
        const st = rng.bytes(200), blk = rng.bytes(RATE);
        return { what: `one call: state ${hex(st)} block ${hex(blk)}`, lines: [xorinLine(st, blk)], want: `ok - ${hex(xored(st, blk))} ${hex(blk)}` };
      }
      if (kind === 1) {
        const st = rng.bytes(200), blk = rng.bytes(RATE);
        const lines = [ecall(N.KECCAK_XORIN, A, B).mem(A, hex(st)).mem(B, hex(blk)).ecall().line(), ecall(N.KECCAK_PERMUTE, A).ecall().read(A, 200).line()];
        return { what: `xorin then permute: state ${hex(st)} block ${hex(blk)}`, lines, want: `ok - ${hex(permuted(xored(st, blk)))}` };
      }
      const msg = rng.bytes(rng.int(3 * RATE + 10));
      return { what: `keccak-256 of ${hex(msg)}`, lines: digestLines(msg), want: `ok - ${hex(keccak_256(msg))}` };
    },
    edges() {
      const st = Uint8Array.from({ length: 200 }, (_, i) => i);
      const blk = Uint8Array.from({ length: RATE }, (_, i) => 255 - i);
      const at = (a0, a1) => ecall(N.KECCAK_XORIN, a0, a1).ecall().line();
      const fault = { fault: 'KECCAK_XORIN' };
      return [
        ...[0, 1, RATE - 1, RATE, RATE + 1, 2 * RATE].map((n) => {
          const msg = Uint8Array.from({ length: n }, (_, i) => (i * 7) & 0xff);
          return { what: `keccak-256 of ${n} bytes`, lines: digestLines(msg), want: `ok - ${hex(keccak_256(msg))}` };
        }),
        { what: 'zeros into ones', lines: [xorinLine(new Uint8Array(200).fill(255), new Uint8Array(RATE))], want: `ok - ${'ff'.repeat(200)} ${'00'.repeat(RATE)}` },
        { what: 'the block only its 136 bytes (the next word is not read)',
          lines: [ecall(N.KECCAK_XORIN, A, B).mem(A, hex(st)).mem(B, hex(blk) + 'ffffffff').ecall().read(A, 200).line()], want: `ok - ${hex(xored(st, blk))}` },
        { what: 'block right after the state (a1 = a0 + 200)',
          lines: [ecall(N.KECCAK_XORIN, A, A + 200).mem(A, hex(st) + hex(blk)).ecall().read(A, 200 + RATE).line()], want: `ok - ${hex(xored(st, blk))}${hex(blk)}` },
        { what: 'block right before the state (a1 + 136 = a0)',
          lines: [ecall(N.KECCAK_XORIN, A + RATE, A).mem(A, hex(blk) + hex(st)).ecall().read(A, RATE + 200).line()], want: `ok - ${hex(blk)}${hex(xored(st, blk))}` },
        { what: 'block inside the state past the rate (a1 = a0 + 196): overlap asserts', lines: [at(A, A + 196)], want: fault },
        { what: 'block overlapping the state start (a1 = a0 - 132)', lines: [at(A + 132, A)], want: fault },
        { what: 'the same address', lines: [at(A, A)], want: fault },
        { what: 'state misaligned', lines: [at(A + 2, B)], want: fault },
        { what: 'block misaligned', lines: [at(A, B + 2)], want: fault },
        { what: 'state wraps past 2^32 (state range overflow)', lines: [at(0xffffff40, B)], want: fault },
        { what: 'block wraps past 2^32 (block range overflow)', lines: [at(A, 0xffffffa0)], want: fault },
      ];
    },
  });

  // ---- SHA_EXTEND, one word (sha256.rs extend at ac164255; the layout's
  // guests): 48 calls over a block's schedule, a0 = &w[i], i = 16..63. No
  // library exposes SHA-256's message schedule (noble's _SHA256 keeps it in
  // a module-private buffer and takes only blocks), so the reference is
  // FIPS 180-4 section 6.2.2 step 1 written here with BigInt:
  // W_t = sigma1(W_t-2) + W_t-7 + sigma0(W_t-15) + W_t-16 mod 2^32,
  // sigma0 = ROTR7 ^ ROTR18 ^ SHR3, sigma1 = ROTR17 ^ ROTR19 ^ SHR10 (4.6, 4.7). ----
  const M32 = 0xffffffffn;
  const rotr = (x, n) => ((x >> BigInt(n)) | (x << BigInt(32 - n))) & M32;
  const sigma0 = (x) => rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3n);
  const sigma1 = (x) => rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10n);
  const schedule = (w16) => {
    const w = [...w16];
    for (let t = 16; t < 64; t++) w.push((sigma1(w[t - 2]) + w[t - 7] + sigma0(w[t - 15]) + w[t - 16]) & M32);
    return w;
  };
  const wordsHex = (ws) => ws.map((v) => le(v, 4)).join('');
  calls.push({
    name: 'SHA_EXTEND',
    reference: 'FIPS 180-4 6.2.2 schedule in BigInt (no library exposes it), over 48 chained calls',
    quick: 500,
    random(rng) {
      const w16 = Array.from({ length: 16 }, () => rng.bits(32));
      // the words after w[15] hold garbage before the calls: each call overwrites its own
      const lines = [];
      const first = ecall(N.SHA_EXTEND, W + 64).mem(W, wordsHex(w16) + hex(rng.bytes(192)));
      lines.push(first.ecall().line());
      for (let i = 17; i < 64; i++) lines.push(ecall(N.SHA_EXTEND, W + 4 * i).ecall().line());
      lines[lines.length - 1] = ecall(N.SHA_EXTEND, W + 4 * 63).ecall().read(W, 256).line();
      return { what: `w ${wordsHex(w16)}`, lines, want: `ok - ${wordsHex(schedule(w16))}` };
    },
    edges() {
      const one = (w16, what) => {
        const w = schedule(w16);
        return { what, lines: [ecall(N.SHA_EXTEND, W + 64).mem(W, wordsHex(w16) + '00000000').ecall().read(W + 64, 4).line()], want: `ok - ${le(w[16], 4)}` };
      };
      return [
        one(Array(16).fill(0n), 'zeros'),
        one(Array(16).fill(M32), 'all ones'),
        { what: 'misaligned a0', lines: [ecall(N.SHA_EXTEND, W + 66).ecall().line()], want: { fault: 'SHA_EXTEND' } },
      ];
    },
  });

  // ---- SHA_EXTEND, the whole schedule (before c3473257, 2026-01-26: w[16..64]
  // from w[0..16] at a0, as SP1's): the guests of the 2024-25 layout and those
  // reading rkyv hints (built before 2025-12-31). Same BigInt reference. ----
  for (const [guest, at] of [['zkvm-ceno-rkyv-rv32.elf', W], ['zkvm-ceno-rkyv-old-rv32.elf', 0x81002000]]) {
    const line = (w16, junk) => ecall(N.SHA_EXTEND, at).mem(at, wordsHex(w16) + junk).ecall().read(at, 256).line();
    calls.push({
      name: `SHA_EXTEND.schedule.${guest.includes('old') ? 'old' : 'rkyv'}`,
      reference: 'FIPS 180-4 6.2.2 schedule in BigInt, one call',
      guest,
      quick: 300,
      random(rng) {
        const w16 = Array.from({ length: 16 }, () => rng.bits(32));
        return { what: `w ${wordsHex(w16)}`, lines: [line(w16, hex(rng.bytes(192)))], want: `ok - ${wordsHex(schedule(w16))}` };
      },
      edges: () => [
        { what: 'zeros', lines: [line(Array(16).fill(0n), '00'.repeat(192))], want: `ok - ${wordsHex(schedule(Array(16).fill(0n)))}` },
        { what: 'all ones', lines: [line(Array(16).fill(M32), 'ff'.repeat(192))], want: `ok - ${wordsHex(schedule(Array(16).fill(M32)))}` },
        { what: 'misaligned a0', lines: [ecall(N.SHA_EXTEND, at + 2).ecall().line()], want: { fault: 'SHA_EXTEND' } },
      ],
    });
  }

  // ---- UINT256_MUL: x (a0) = x * y mod m, y then m at a1; m = 0 means 2^256 (uint256.rs) ----
  const uintMul = (x, y, m) => (m === 0n ? (x * y) % (1n << 256n) : (x * y) % m);
  const mulCase = (x, y, m) => ({
    what: `x ${x} y ${y} m ${m}`,
    lines: [ecall(N.UINT256_MUL, A, B).mem(A, le(x, 32)).mem(B, le(y, 32) + le(m, 32)).ecall().read(A, 32).read(B, 64).line()],
    want: `ok - ${le(uintMul(x, y, m), 32)} ${le(y, 32) + le(m, 32)}`,
  });
  const TOP = (1n << 256n) - 1n;
  calls.push({
    name: 'UINT256_MUL',
    reference: 'BigInt',
    random(rng) {
      const x = rng.bits(256), y = rng.bits(256);
      return mulCase(x, y, rng.pick([0n, rng.bits(256), rng.bits(rng.int(256) + 1), 1n, TOP]));
    },
    edges: () => [
      ...[[0n, 5n, 7n], [TOP, TOP, 0n], [TOP, TOP, TOP], [6n, 7n, 1n], [9n, 9n, 10n], [TOP, 2n, 0n]].map(([x, y, m]) => mulCase(x, y, m)),
      { what: 'misaligned y', lines: [ecall(N.UINT256_MUL, A, B + 2).ecall().line()], want: { fault: 'UINT256_MUL' } },
    ],
  });

  // ---- curves: x limbs then y, little-endian words, p at a0 = p + q (a1) or 2p ----
  const enc = (P) => le(P.x, 32) + le(P.y, 32);
  const curves = [
    { name: 'SECP256K1', Point: secp256k1.Point, add: N.SECP256K1_ADD, dbl: N.SECP256K1_DOUBLE, checks: 'curve' },
    { name: 'SECP256R1', Point: p256.Point, add: N.SECP256R1_ADD, dbl: N.SECP256R1_DOUBLE, checks: 'curve+identity' },
    { name: 'BN254', Point: bn254.G1.Point, add: N.BN254_ADD, dbl: N.BN254_DOUBLE, checks: 'reduced' },
  ];
  for (const cv of curves) {
    const p = cv.Point.Fp.ORDER;
    const { a, b } = cv.Point.CURVE();
    const onCurve = (P) => P.x < p && P.y < p && mod(P.x ** 3n + a * P.x + b - P.y * P.y, p) === 0n;
    const isZero = (P) => P.x === 0n && P.y === 0n;
    const toPoint = (P) => (isZero(P) ? cv.Point.ZERO : cv.Point.fromAffine(P));
    const out = (R) => `ok - ${R.is0() ? '00'.repeat(64) : enc(R.toAffine())}`;
    const addFault = { fault: `${cv.name}_ADD` };
    const dblFault = { fault: `${cv.name}_DOUBLE` };
    // BN254 checks no curve equation: substrate_bn's Jacobian formulas on
    // (x, y, 1) give the affine chord and tangent (they do not use b).
    const chord = (P, Q) => {
      const l = mod((Q.y - P.y) * modpow(mod(Q.x - P.x, p), p - 2n, p), p);
      const x = mod(l * l - P.x - Q.x, p);
      return { x, y: mod(l * (P.x - x) - P.y, p) };
    };
    const tangent = (P) => {
      const l = mod((3n * P.x * P.x + a) * modpow(mod(2n * P.y, p), p - 2n, p), p);
      const x = mod(l * l - 2n * P.x, p);
      return { x, y: mod(l * (P.x - x) - P.y, p) };
    };
    // What Ceno writes for p + q (a line's `want`).
    const cenoAdd = (P, Q) => {
      if (cv.checks === 'reduced') {
        if (P.x >= p || P.y >= p || Q.x >= p || Q.y >= p) return addFault;
        if (P.x === Q.x) return P.y === Q.y && P.y !== 0n ? `ok - ${enc(tangent(P))}` : addFault;
        return `ok - ${enc(chord(P, Q))}`;
      }
      const ok = (R) => onCurve(R) || (cv.checks === 'curve+identity' && isZero(R));
      if (!ok(P) || !ok(Q)) return addFault;
      if (cv.checks === 'curve' && P.x === Q.x && P.y !== Q.y) return `ok - ${'00'.repeat(64)}`;
      return out(toPoint(P).add(toPoint(Q)));
    };
    const cenoDouble = (P) => {
      if (cv.checks === 'reduced') {
        if (P.x >= p || P.y >= p) return dblFault;
        return P.y === 0n ? dblFault : `ok - ${enc(tangent(P))}`;
      }
      if (!(onCurve(P) || (cv.checks === 'curve+identity' && isZero(P)))) return dblFault;
      return out(toPoint(P).double());
    };
    const randomPoint = pointWalk(cv.Point);
    const addLine = (P, Q) => ecall(cv.add, A, B).mem(A, enc(P)).mem(B, enc(Q)).ecall().read(A, 64).read(B, 64).line();
    const dblLine = (P, a1 = 0) => ecall(cv.dbl, A, a1).mem(A, enc(P)).ecall().read(A, 64).line();
    const addWant = (P, Q) => {
      const w = cenoAdd(P, Q);
      return typeof w === 'string' ? `${w} ${enc(Q)}` : w;
    };
    calls.push({
      name: `${cv.name}_ADD`,
      reference: `@noble/curves Point.add; ${cv.checks === 'reduced' ? 'substrate_bn (affine chord) off the curve' : 'Ceno\'s checks'} at the edges`,
      random(rng) {
        const P = randomPoint(rng), Q = randomPoint(rng);
        const R = cv.Point.fromAffine(P).add(cv.Point.fromAffine(Q));
        return { what: `P ${P.x},${P.y} Q ${Q.x},${Q.y}`, lines: [addLine(P, Q)], want: `${out(R)} ${enc(Q)}` };
      },
      edges() {
        const G = cv.Point.BASE.toAffine();
        const G2 = cv.Point.BASE.double().toAffine();
        const neg = { x: G.x, y: p - G.y };
        const zero = { x: 0n, y: 0n };
        const top = TOP;
        const offCurve = { x: G.x, y: mod(G.y + 1n, p) };
        const cases = [
          ['P + P', G, G],
          ['P + (-P)', G, neg],
          ['(0, 0) + Q', zero, G],
          ['P + (0, 0)', G, zero],
          ['(0, 0) + (0, 0)', zero, zero],
          ['off the curve + Q', offCurve, G2],
          ['P + off the curve', G2, offCurve],
          ['x + p', { x: G.x + p, y: G.y }, G2],
          ['y + p', G2, { x: G.x, y: G.y + p <= top ? G.y + p : G.y }],
          ['largest limbs', { x: top, y: top }, G],
          ['x = p - 1, y = 1 (no point)', { x: p - 1n, y: 1n }, G],
        ].filter(([, P, Q]) => P.x <= top && Q.x <= top && P.y <= top && Q.y <= top);
        return [
          ...cases.map(([what, P, Q]) => ({ what, lines: [addLine(P, Q)], want: addWant(P, Q) })),
          { what: 'misaligned q', lines: [ecall(cv.add, A, B + 2).ecall().line()], want: addFault },
          { what: 'misaligned p', lines: [ecall(cv.add, A + 2, B).ecall().line()], want: addFault },
        ];
      },
    });
    calls.push({
      name: `${cv.name}_DOUBLE`,
      reference: `@noble/curves Point.double; Ceno's checks at the edges`,
      random(rng) {
        const P = randomPoint(rng);
        return { what: `P ${P.x},${P.y}`, lines: [dblLine(P)], want: out(cv.Point.fromAffine(P).double()) };
      },
      edges() {
        const G = cv.Point.BASE.toAffine();
        const cases = [
          ['G', G],
          ['(0, 0)', { x: 0n, y: 0n }],
          ['y = 0', { x: G.x, y: 0n }],
          ['off the curve', { x: G.x, y: mod(G.y + 1n, p) }],
          ['x + p', { x: G.x + p, y: G.y }],
          ['largest limbs', { x: TOP, y: TOP }],
        ].filter(([, P]) => P.x <= TOP);
        const list = cases.map(([what, P]) => ({ what, lines: [dblLine(P)], want: cenoDouble(P) }));
        list.push({ what: 'misaligned', lines: [ecall(cv.dbl, A + 2).ecall().line()], want: dblFault });
        if (cv.name === 'BN254') list.push({ what: 'a1 != 0 (bn254_double asserts a1 = 0)', lines: [dblLine(G, B)], want: dblFault });
        return list;
      },
    });
  }

  // ---- SECP256K1_DECOMPRESS: x big-endian at a0, y (parity a1) big-endian into a0 + 32 ----
  const k1 = secp256k1.Point;
  const k1p = k1.Fp.ORDER;
  const decLine = (x, odd) => ecall(N.SECP256K1_DECOMPRESS, A, odd).mem(A, be(x, 32) + '00'.repeat(32)).ecall().read(A, 64).line();
  const nobleY = (x, odd) => {
    try {
      return k1.fromBytes(Uint8Array.from([odd ? 3 : 2, ...k1.Fp.toBytes(x)])).toAffine().y;
    } catch {
      return null;
    }
  };
  const decWant = (x, odd) => {
    const y = x < k1p ? nobleY(x, odd) : null;
    return y === null ? { fault: 'SECP256K1_DECOMPRESS' } : `ok - ${be(x, 32)}${be(y, 32)}`;
  };
  const k1Walk = pointWalk(k1);
  calls.push({
    name: 'SECP256K1_DECOMPRESS',
    reference: '@noble/curves secp256k1 Point.fromBytes (SEC1 compressed)',
    random(rng) {
      // half the time a random x (about half of them have no y: the call faults)
      const x = rng.int(2) ? k1Walk(rng).x : rng.below(k1p);
      const odd = rng.int(2);
      return { what: `x ${x} odd ${odd}`, lines: [decLine(x, odd)], want: decWant(x, odd) };
    },
    edges: () => [
      ...[[0n, 0], [1n, 1], [k1p - 1n, 0], [k1p, 0], [TOP, 1], [k1.BASE.toAffine().x, 0], [k1.BASE.toAffine().x, 1]].map(([x, odd]) => ({ what: `x ${x} odd ${odd}`, lines: [decLine(x, odd)], want: decWant(x, odd) })),
      { what: 'a1 = 2 (panics: y_is_odd should be 0/1)', lines: [decLine(k1.BASE.toAffine().x, 2)], want: { fault: 'SECP256K1_DECOMPRESS' } },
      { what: 'misaligned', lines: [ecall(N.SECP256K1_DECOMPRESS, A + 2, 0).ecall().line()], want: { fault: 'SECP256K1_DECOMPRESS' } },
    ],
  });

  // ---- SECP256K1_SCALAR_INVERT, SECP256R1_SCALAR_INVERT: 32 bytes at a0, a
  // big-endian scalar below n (k256/p256 Scalar::from_repr), inverted ----
  for (const [name, code, Fn] of [
    ['SECP256K1_SCALAR_INVERT', N.SECP256K1_SCALAR_INVERT, k1.Fn],
    ['SECP256R1_SCALAR_INVERT', N.SECP256R1_SCALAR_INVERT, p256.Point.Fn],
  ]) {
    const invLine = (k) => ecall(code, A).mem(A, be(k, 32)).ecall().read(A, 32).line();
    const n = Fn.ORDER;
    calls.push({
      name,
      reference: `@noble/curves ${name.startsWith('SECP256K1') ? 'secp256k1' : 'p256'} Fn.inv`,
      quick: 500,
      random(rng) {
        const k = 1n + rng.below(n - 1n);
        return { what: `k ${k}`, lines: [invLine(k)], want: `ok - ${be(Fn.inv(k), 32)}` };
      },
      edges: () => [
        { what: '1', lines: [invLine(1n)], want: `ok - ${be(1n, 32)}` },
        { what: '2', lines: [invLine(2n)], want: `ok - ${be(Fn.inv(2n), 32)}` },
        { what: 'n - 1', lines: [invLine(n - 1n)], want: `ok - ${be(Fn.inv(n - 1n), 32)}` },
        { what: '0 (invert().unwrap() panics)', lines: [invLine(0n)], want: { fault: name } },
        { what: 'n (from_repr: illegal)', lines: [invLine(n)], want: { fault: name } },
        { what: 'n + 1', lines: [invLine(n + 1n)], want: { fault: name } },
        { what: 'all ones', lines: [invLine(TOP)], want: { fault: name } },
        { what: 'misaligned', lines: [ecall(code, A + 1).ecall().line()], want: { fault: name } },
      ],
    });
  }

  // ---- BN254 Fp (8 words) and Fp2 (c0 then c1): x (a0) = x op y (a1); inputs below p ----
  const { Fp: bnFp, Fp2: bnFp2 } = bn254.fields;
  const bp = bnFp.ORDER;
  for (const [name, code, fp2, op] of [
    ['BN254_FP_ADD', N.BN254_FP_ADD, false, (x, y) => bnFp.add(x, y)],
    ['BN254_FP_MUL', N.BN254_FP_MUL, false, (x, y) => bnFp.mul(x, y)],
    ['BN254_FP2_ADD', N.BN254_FP2_ADD, true, (x, y) => bnFp2.add(x, y)],
    ['BN254_FP2_MUL', N.BN254_FP2_MUL, true, (x, y) => bnFp2.mul(x, y)],
  ]) {
    const encF = (v) => (fp2 ? le(v.c0, 32) + le(v.c1, 32) : le(v, 32));
    const size = fp2 ? 64 : 32;
    const make = (c0, c1) => (fp2 ? bnFp2.create({ c0, c1 }) : c0);
    const line = (x, y) => ecall(code, A, B).mem(A, encF(x)).mem(B, encF(y)).ecall().read(A, size).read(B, size).line();
    const want = (x, y) => `ok - ${encF(op(x, y))} ${encF(y)}`;
    calls.push({
      name,
      reference: `@noble/curves bn254 ${fp2 ? 'Fp2' : 'Fp'}`,
      random(rng) {
        const x = make(rng.below(bp), rng.below(bp)), y = make(rng.below(bp), rng.below(bp));
        return { what: `x ${encF(x)} y ${encF(y)}`, lines: [line(x, y)], want: want(x, y) };
      },
      edges() {
        const cases = [[0n, 0n], [bp - 1n, bp - 1n], [bp - 1n, 1n], [1n, 0n]].map(([u, v]) => [make(u, v), make(v, u)]);
        const raw = (xh, yh) => ecall(code, A, B).mem(A, xh).mem(B, yh).ecall().read(A, size).line();
        const okElt = encF(make(1n, 1n));
        const bad = (fp2 ? [le(bp, 32) + le(0n, 32), le(0n, 32) + le(bp, 32)] : [le(bp, 32)]).concat(['ff'.repeat(size)]);
        return [
          ...cases.map(([x, y]) => ({ what: `x ${encF(x)} y ${encF(y)}`, lines: [line(x, y)], want: want(x, y) })),
          ...bad.map((h) => ({ what: `x not below p: ${h} (Fq::from_slice panics)`, lines: [raw(h, okElt)], want: { fault: name } })),
          ...bad.map((h) => ({ what: `y not below p: ${h}`, lines: [raw(okElt, h)], want: { fault: name } })),
          { what: 'misaligned', lines: [ecall(code, A, B + 2).ecall().line()], want: { fault: name } },
        ];
      },
    });
  }
  return calls.map((c) => ({ guest: GUEST, ...c }));
}
