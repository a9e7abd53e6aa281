// Jolt's calls (executor/abi/jolt.c), checked against @noble/hashes and
// BigInt, with the memory contracts of Jolt's tracer at the commit jolt.c
// follows, a16z/jolt 01f78185 (2026-02-06; HEAD ff9f8c13 differs where
// noted): jolt-inlines/sha2/src/exec.rs (state: 8 u32 words at rs1, the
// block: 16 u32 words at rs2, each word the message's big-endian word as
// a number; funct3 1 starts from the IV), jolt-inlines/keccak256 (25 u64
// lanes at rs1), jolt-inlines/bigint/src/multiplication (rd = 8 u64 limbs
// of [rs1] * [rs2], 4 limbs each; all operands loaded before the first
// store), tracer/src/instruction/mod.rs (0x5B: funct3 0 VirtualRev8W, 1
// VirtualAssertEQ, 2 VirtualHostIO; virtual_host_io.rs ignores an unknown
// a0) and tracer/src/emulator/mmu.rs (a misaligned lw / ld panics).
import { Call, REG, hex, le } from './common.mjs';
import { fieldInlines } from './jolt_fields.mjs';

const GUEST = 'zkvm-jolt-rv64.elf';
const A = 0x84000000; // RAM [0x8000_0000, +128 MiB), past the guest's image
const B = 0x84001000;
const C = 0x84002000;

const rType = (opcode, funct3, funct7, rd, rs1, rs2) =>
  ((funct7 << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | opcode) >>> 0;
const SHA = (rs1, rs2) => rType(0x0b, 0, 0, 0, rs1, rs2);
const SHA_INIT = (rs1, rs2) => rType(0x0b, 1, 0, 0, rs1, rs2);
const KECCAK = (rs1) => rType(0x0b, 0, 1, 0, rs1, 0);
const MUL = (rd, rs1, rs2) => rType(0x0b, 0, 4, rd, rs1, rs2);
const BLAKE2 = (rs1, rs2) => rType(0x0b, 0, 2, 0, rs1, rs2);
const BLAKE3 = (rs1, rs2) => rType(0x0b, 0, 3, 0, rs1, rs2);
const BLAKE3_KEYED64 = (rd, rs1, rs2) => rType(0x0b, 1, 3, rd, rs1, rs2);
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
const words = (list) => list.map((v) => le(BigInt(v >>> 0), 4)).join('');

export async function suite({ npm }) {
  const { _SHA256 } = await npm('@noble/hashes/sha2.js');
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  // The state after one compression of the 16 words w (each a big-endian word of the block).
  const compress = (h, w) => {
    const block = new DataView(new ArrayBuffer(64));
    w.forEach((v, i) => block.setUint32(4 * i, v, false));
    const sha = new _SHA256();
    sha.set(...h);
    sha.process(block, 0);
    return sha.get();
  };
  const permute = (bytes) => {
    const s = new Uint32Array(bytes.slice().buffer);
    keccakP(s, 24);
    return hex(new Uint8Array(s.buffer));
  };
  const calls = [];

  for (const [name, init] of [['SHA256_INLINE', false], ['SHA256_INIT_INLINE', true]]) {
    const word = init ? SHA_INIT : SHA;
    calls.push({
      name,
      reference: '@noble/hashes _SHA256.process on the same state and block',
      guest: GUEST,
      random(rng) {
        const h = Array.from({ length: 8 }, () => Number(rng.bits(32)));
        const w = Array.from({ length: 16 }, () => Number(rng.bits(32)));
        const at = A + 4 * rng.int(256), src = B + 4 * rng.int(256);
        return {
          what: `h ${h} w ${w}`,
          lines: [new Call().reg(REG.a0, at).reg(REG.a1, src).mem(at, words(h)).mem(src, words(w)).insn(word(REG.a0, REG.a1)).read(at, 32).line()],
          want: `ok - ${words(compress(init ? IV : h, w))}`,
        };
      },
      edges: () => [
        { what: 'zero block', lines: [new Call().reg(REG.a3, C).reg(REG.a4, B).mem(C, words(IV)).mem(B, '00'.repeat(64)).insn(word(REG.a3, REG.a4)).read(C, 32).line()],
          want: `ok - ${words(compress(IV, new Array(16).fill(0)))}` },
        { what: 'largest words', lines: [new Call().reg(REG.a0, C).reg(REG.a1, B).mem(C, 'ff'.repeat(32)).mem(B, 'ff'.repeat(64)).insn(word(REG.a0, REG.a1)).read(C, 32).line()],
          want: `ok - ${words(compress(init ? IV : new Array(8).fill(0xffffffff), new Array(16).fill(0xffffffff)))}` },
        { what: 'state not word-aligned: lw panics', lines: [new Call().reg(REG.a0, A + 2).reg(REG.a1, B).insn(word(REG.a0, REG.a1)).line()], want: { fault: name } },
        { what: 'block not word-aligned', lines: [new Call().reg(REG.a0, A).reg(REG.a1, B + 1).insn(word(REG.a0, REG.a1)).line()], want: { fault: name } },
        { what: 'state outside RAM', lines: [new Call().reg(REG.a0, 0x70000000).reg(REG.a1, B).insn(word(REG.a0, REG.a1)).line()], want: { fault: name } },
      ],
    });
  }

  calls.push({
    name: 'KECCAK256_INLINE',
    reference: '@noble/hashes keccakP (24 rounds)',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(200);
      const at = A + 8 * rng.int(256);
      return {
        what: `state ${hex(state)}`,
        lines: [new Call().reg(REG.a0, at).mem(at, hex(state)).insn(KECCAK(REG.a0)).read(at, 200).line()],
        want: `ok - ${permute(state)}`,
      };
    },
    edges: () => [
      { what: 'all zero', lines: [new Call().reg(REG.a5, C).mem(C, '00'.repeat(200)).insn(KECCAK(REG.a5)).read(C, 200).line()], want: `ok - ${permute(new Uint8Array(200))}` },
      { what: 'word- but not doubleword-aligned: ld panics', lines: [new Call().reg(REG.a0, A + 4).insn(KECCAK(REG.a0)).line()], want: { fault: 'KECCAK256_INLINE' } },
      { what: 'funct3 1: no such inline', lines: [new Call().reg(REG.a0, A).insn(rType(0x0b, 1, 1, 0, REG.a0, 0)).line()], want: { fault: 'KECCAK256_INLINE' } },
    ],
  });

  const mulLine = (out, a, b, x, y) =>
    new Call().reg(REG.a2, out).reg(REG.a0, a).reg(REG.a1, b).mem(a, le(x, 32)).mem(b, le(y, 32)).insn(MUL(REG.a2, REG.a0, REG.a1)).read(out, 64).line();
  calls.push({
    name: 'BIGINT256_MUL_INLINE',
    reference: 'BigInt',
    guest: GUEST,
    random(rng) {
      const x = rng.bits(256), y = rng.pick([rng.bits(256), rng.bits(rng.int(256) + 1), (1n << 256n) - 1n]);
      return { what: `${x} * ${y}`, lines: [mulLine(C + 8 * rng.int(64), A, B, x, y)], want: `ok - ${le(x * y, 64)}` };
    },
    edges() {
      const top = (1n << 256n) - 1n;
      return [
        { what: 'largest limbs', lines: [mulLine(C, A, B, top, top)], want: `ok - ${le(top * top, 64)}` },
        { what: 'zero', lines: [mulLine(C, A, B, 0n, top)], want: `ok - ${le(0n, 64)}` },
        { what: 'result over the first operand (loads come first)', lines: [mulLine(A, A, B, top - 5n, top - 7n)], want: `ok - ${le((top - 5n) * (top - 7n), 64)}` },
        { what: 'a squared, one operand', lines: [new Call().reg(REG.a2, C).reg(REG.a0, A).mem(A, le(12345678901234567890n, 32)).insn(MUL(REG.a2, REG.a0, REG.a0)).read(C, 64).line()], want: `ok - ${le(12345678901234567890n ** 2n, 64)}` },
        { what: 'result word- but not doubleword-aligned: sd panics', lines: [mulLine(C + 4, A, B, 1n, 1n)], want: { fault: 'BIGINT256_MUL_INLINE' } },
      ];
    },
  });

  // BLAKE2_INLINE (jolt-inlines/blake2 at 01f78185, also v0.3.0-alpha):
  // [rs1] 8 u64 state words, [rs2] 16 u64 message words, the counter t and
  // the final flag f; v[14] ^= 0 - f. Checked against noble's _BLAKE2b
  // compress on any state (set(), length = t, isLast = f), and chained over a
  // message's blocks against noble's blake2b of the whole message.
  const { blake2b, _BLAKE2b, _compress } = await npm('@noble/hashes/blake2.js');
  const { blake3 } = await npm('@noble/hashes/blake3.js');
  const u64s = (list) => list.map((v) => le(v, 8)).join('');
  const halves = (h) => h.flatMap((v) => [Number(v & 0xffffffffn) | 0, Number(v >> 32n) | 0]);
  const b2compress = (h, m, t, last) => {
    const b = new _BLAKE2b();
    b.set(...halves(h));
    b.length = t;
    const block = new Uint32Array(halves(m).map((x) => x >>> 0));
    b.compress(block, 0, last);
    return b.get().map((x) => x >>> 0);
  };
  const b2words = (ws) => ws.map((x) => le(BigInt(x), 4)).join('');
  const B2B_IV = [0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
    0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n];
  const b2line = (s, src, h, m, t, f) =>
    new Call().reg(REG.a0, s).reg(REG.a1, src).mem(s, u64s(h)).mem(src, u64s([...m, t, f])).insn(BLAKE2(REG.a0, REG.a1)).read(s, 64).line();
  // The lines hashing msg with BLAKE2b (64-byte digest, no key): RFC 7693's blocks, the last final.
  const b2hashLines = (s, src, msg) => {
    const blocks = Math.max(1, Math.ceil(msg.length / 128));
    const lines = [];
    for (let k = 0; k < blocks; k++) {
      const block = new Uint8Array(128);
      block.set(msg.subarray(128 * k, 128 * k + 128));
      const last = k === blocks - 1;
      const c = new Call().reg(REG.a0, s).reg(REG.a1, src);
      if (k === 0) c.mem(s, u64s([B2B_IV[0] ^ 0x01010040n, ...B2B_IV.slice(1)]));
      c.mem(src, hex(block) + u64s([BigInt(last ? msg.length : 128 * (k + 1)), last ? 1n : 0n]));
      c.insn(BLAKE2(REG.a0, REG.a1));
      if (last) c.read(s, 64);
      lines.push(c.line());
    }
    return lines;
  };
  calls.push({
    name: 'BLAKE2_INLINE',
    reference: '@noble/hashes _BLAKE2b compress (any state, counter, final flag); blake2b of whole messages',
    guest: GUEST,
    random(rng, i) {
      if (i % 2) {
        const len = i < 8 ? [0, 1, 128, 129][i >> 1] : rng.int(400);
        const msg = rng.bytes(len);
        return { what: `blake2b of ${hex(msg)}`, lines: b2hashLines(A + 8 * rng.int(64), B + 8 * rng.int(64), msg), want: `ok - ${hex(blake2b(msg))}` };
      }
      const h = Array.from({ length: 8 }, () => rng.bits(64));
      const m = Array.from({ length: 16 }, () => rng.bits(64));
      const t = rng.pick([rng.bits(32), rng.bits(53), 0n]);
      const f = rng.pick([0n, 1n]);
      const at = A + 8 * rng.int(64), src = B + 8 * rng.int(64);
      return { what: `h ${h} m ${m} t ${t} f ${f}`, lines: [b2line(at, src, h, m, t, f)], want: `ok - ${b2words(b2compress(h, m, Number(t), f === 1n))}` };
    },
    edges() {
      const top = (1n << 64n) - 1n, ones = new Array(16).fill(top);
      return [
        { what: 'largest words, t 128, not final', lines: [b2line(C, B, new Array(8).fill(top), ones, 128n, 0n)], want: `ok - ${b2words(b2compress(new Array(8).fill(top), ones, 128, false))}` },
        { what: 'zero state and block, final', lines: [b2line(C, B, new Array(8).fill(0n), new Array(16).fill(0n), 0n, 1n)], want: `ok - ${b2words(b2compress(new Array(8).fill(0n), new Array(16).fill(0n), 0, true))}` },
        { what: 'state word- but not doubleword-aligned: ld panics', lines: [new Call().reg(REG.a0, A + 4).reg(REG.a1, B).insn(BLAKE2(REG.a0, REG.a1)).line()], want: { fault: 'BLAKE2_INLINE' } },
        { what: 'block word- but not doubleword-aligned', lines: [new Call().reg(REG.a0, A).reg(REG.a1, B + 4).insn(BLAKE2(REG.a0, REG.a1)).line()], want: { fault: 'BLAKE2_INLINE' } },
        { what: 'block outside RAM', lines: [new Call().reg(REG.a0, A).reg(REG.a1, 0x70000000).insn(BLAKE2(REG.a0, REG.a1)).line()], want: { fault: 'BLAKE2_INLINE' } },
        { what: 'funct3 1: no such inline', lines: [new Call().reg(REG.a0, A).reg(REG.a1, B).insn(rType(0x0b, 1, 2, 0, REG.a0, REG.a1)).line()], want: { fault: 'BLAKE2_INLINE' } },
      ];
    },
  });

  // BLAKE3_INLINE / BLAKE3_KEYED64_INLINE (jolt-inlines/blake3 at 01f78185,
  // also v0.3.0-alpha): funct3 0, [rs1] the chaining value (8 u32), [rs2]
  // 16 u32 message words, counter low, high, block length, flags; the first
  // 8 output words back to rs1. funct3 1: key [rd], block [rs1] ‖ [rs2]
  // (32 bytes each), counter 0, length 64, flags CHUNK_START | CHUNK_END |
  // ROOT | KEYED_HASH, the digest to rd. Checked against noble's _compress
  // with BLAKE3's schedule (the spec's permutation applied round by round,
  // as noble's blake3.js builds it), and against noble's blake3 of a
  // one-block message (keyed: blake3(left ‖ right, { key })).
  const B3_IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const B3_SIGMA = (() => {
    const res = [];
    for (let i = 0, v = [...Array(16).keys()]; i < 7; i++, v = [2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8].map((j) => v[j])) res.push(...v);
    return Uint8Array.from(res);
  })();
  const b3compress = (cv, m, t0, t1, len, flags) => {
    const o = _compress(B3_SIGMA, 0, Uint32Array.from(m), 7, ...cv, B3_IV[0], B3_IV[1], B3_IV[2], B3_IV[3], t0, t1, len, flags);
    return Array.from({ length: 8 }, (_, i) => (o[`v${i}`] ^ o[`v${i + 8}`]) >>> 0);
  };
  const b3line = (s, src, cv, m, tail) =>
    new Call().reg(REG.a0, s).reg(REG.a1, src).mem(s, words(cv)).mem(src, words([...m, ...tail])).insn(BLAKE3(REG.a0, REG.a1)).read(s, 32).line();
  const keyedLine = (k, l, r, key, msg) =>
    new Call().reg(REG.a2, k).reg(REG.a0, l).reg(REG.a1, r).mem(k, hex(key)).mem(l, hex(msg.subarray(0, 32))).mem(r, hex(msg.subarray(32))).insn(BLAKE3_KEYED64(REG.a2, REG.a0, REG.a1)).read(k, 32).line();
  calls.push({
    name: 'BLAKE3_INLINE',
    reference: '@noble/hashes _compress with BLAKE3\'s schedule; blake3 of one-block messages',
    guest: GUEST,
    random(rng, i) {
      const at = A + 8 * rng.int(64), src = B + 8 * rng.int(64);
      if (i % 2) {
        const len = i < 6 ? [0, 64][i >> 1] : rng.int(65);
        const msg = rng.bytes(len), block = new Uint8Array(64);
        block.set(msg);
        return {
          what: `blake3 of ${hex(msg)}`,
          lines: [new Call().reg(REG.a0, at).reg(REG.a1, src).mem(at, words(B3_IV)).mem(src, hex(block) + words([0, 0, len, 1 | 2 | 8])).insn(BLAKE3(REG.a0, REG.a1)).read(at, 32).line()],
          want: `ok - ${hex(blake3(msg))}`,
        };
      }
      const cv = Array.from({ length: 8 }, () => Number(rng.bits(32)));
      const m = Array.from({ length: 16 }, () => Number(rng.bits(32)));
      const tail = [Number(rng.bits(32)), Number(rng.bits(32)), rng.int(65), rng.int(32)];
      return { what: `cv ${cv} m ${m} tail ${tail}`, lines: [b3line(at, src, cv, m, tail)], want: `ok - ${words(b3compress(cv, m, ...tail))}` };
    },
    edges() {
      const ones = new Array(16).fill(0xffffffff);
      return [
        { what: 'largest words', lines: [b3line(C, B, ones.slice(0, 8), ones, ones.slice(0, 4))], want: `ok - ${words(b3compress(ones.slice(0, 8), ones, ...ones.slice(0, 4)))}` },
        { what: 'state word- but not doubleword-aligned: ld panics', lines: [new Call().reg(REG.a0, A + 4).reg(REG.a1, B).insn(BLAKE3(REG.a0, REG.a1)).line()], want: { fault: 'BLAKE3_INLINE' } },
        { what: 'block word- but not doubleword-aligned', lines: [new Call().reg(REG.a0, A).reg(REG.a1, B + 4).insn(BLAKE3(REG.a0, REG.a1)).line()], want: { fault: 'BLAKE3_INLINE' } },
        { what: 'funct3 2: no such inline', lines: [new Call().reg(REG.a0, A).reg(REG.a1, B).insn(rType(0x0b, 2, 3, 0, REG.a0, REG.a1)).line()], want: { fault: 'BLAKE3_INLINE' } },
      ];
    },
  });
  calls.push({
    name: 'BLAKE3_KEYED64_INLINE',
    reference: '@noble/hashes blake3(left ‖ right, { key })',
    guest: GUEST,
    random(rng) {
      const key = rng.bytes(32), msg = rng.bytes(64);
      return { what: `key ${hex(key)} msg ${hex(msg)}`, lines: [keyedLine(C + 8 * rng.int(64), A + 8 * rng.int(64), B + 8 * rng.int(64), key, msg)], want: `ok - ${hex(blake3(msg, { key }))}` };
    },
    edges() {
      const key = new Uint8Array(32).fill(0xff), msg = new Uint8Array(64).fill(0xab);
      return [
        { what: 'rd = rs1: the key is the left half, the digest over it', lines: [new Call().reg(REG.a0, A).reg(REG.a1, B).mem(A, hex(key)).mem(B, hex(msg.subarray(32))).insn(BLAKE3_KEYED64(REG.a0, REG.a0, REG.a1)).read(A, 32).line()],
          want: `ok - ${hex(blake3(Uint8Array.from([...key, ...msg.subarray(32)]), { key }))}` },
        { what: 'zero key and message', lines: [keyedLine(C, A, B, new Uint8Array(32), new Uint8Array(64))], want: `ok - ${hex(blake3(new Uint8Array(64), { key: new Uint8Array(32) }))}` },
        { what: 'key word- but not doubleword-aligned', lines: [new Call().reg(REG.a2, C + 4).reg(REG.a0, A).reg(REG.a1, B).insn(BLAKE3_KEYED64(REG.a2, REG.a0, REG.a1)).line()], want: { fault: 'BLAKE3_KEYED64_INLINE' } },
        { what: 'right half outside RAM', lines: [new Call().reg(REG.a2, C).reg(REG.a0, A).reg(REG.a1, 0x70000000).insn(BLAKE3_KEYED64(REG.a2, REG.a0, REG.a1)).line()], want: { fault: 'BLAKE3_KEYED64_INLINE' } },
      ];
    },
  });

  calls.push(...(await fieldInlines(npm)));

  // Custom-2 0x5B, the tracer's virtual instructions (tracer/src/instruction/mod.rs at 01f78185).
  const rev8w = (v) => {
    const sw = (x) => ((x & 0xffn) << 24n) | ((x & 0xff00n) << 8n) | ((x >> 8n) & 0xff00n) | ((x >> 24n) & 0xffn);
    return sw(v & 0xffffffffn) | (sw(v >> 32n) << 32n);
  };
  calls.push({
    name: 'VirtualRev8W',
    reference: 'BigInt byte swap of each 32-bit half (virtual_rev8w.rs rev8w)',
    guest: GUEST,
    random(rng) {
      const v = rng.bits(64);
      // the sha2 sdk's `.insn i 0x5B, 0, rd, rd, 0` (funct7 0 here; HEAD moved it to funct7 5)
      const funct7 = rng.pick([0, 5]);
      return {
        what: `${v} funct7 ${funct7}`,
        lines: [new Call().reg(REG.a0, v).insn(rType(0x5b, 0, funct7, REG.a1, REG.a0, 0)).readReg(REG.a1).line()],
        want: `ok - ${rev8w(v).toString(16)}`,
      };
    },
  });

  calls.push({
    name: 'virtual',
    reference: 'tracer/src/instruction/virtual_assert_eq.rs, virtual_host_io.rs',
    guest: GUEST,
    edges: () => [
      { what: 'AssertEQ, equal', lines: [new Call().reg(REG.a0, 5).reg(REG.a1, 5).insn(rType(0x5b, 1, 0, 0, REG.a0, REG.a1)).line()], want: 'ok -' },
      { what: 'AssertEQ, different: assert_eq! panics', lines: [new Call().reg(REG.a0, 5).reg(REG.a1, 6).insn(rType(0x5b, 1, 0, 0, REG.a0, REG.a1)).line()], want: { fault: 'VirtualAssertEQ' } },
      { what: 'HostIO print', lines: [new Call().reg(REG.a0, 0x505249).reg(REG.a1, A).reg(REG.a2, 2).reg(REG.a3, 1).mem(A, '6869').insn(rType(0x5b, 2, 0, 0, 0, 0)).line()], want: 'ok -' },
      { what: 'HostIO cycle start', lines: [new Call().reg(REG.a0, 0xc7c1e).reg(REG.a1, A).reg(REG.a2, 2).reg(REG.a3, 1).insn(rType(0x5b, 2, 0, 0, 0, 0)).line()], want: 'ok -' },
      { what: 'HostIO cycle end', lines: [new Call().reg(REG.a0, 0xc7c1e).reg(REG.a1, A).reg(REG.a2, 2).reg(REG.a3, 2).insn(rType(0x5b, 2, 0, 0, 0, 0)).line()], want: 'ok -' },
      { what: 'HostIO, an unknown a0: nothing', lines: [new Call().reg(REG.a0, 0x1234).insn(rType(0x5b, 2, 0, 0, 0, 0)).readReg(REG.a0).line()], want: 'ok - 1234' },
      { what: 'HostIO with the old print number 0x5052494E (an ecall only): nothing', lines: [new Call().reg(REG.a0, 0x5052494e).reg(REG.a1, 0x70000000).reg(REG.a2, 8).insn(rType(0x5b, 2, 0, 0, 0, 0)).line()], want: 'ok -' },
      { what: 'ecall print (jolt-sdk 0.2 / 0.3)', lines: [new Call().reg(REG.a0, 0x505249).reg(REG.a1, A).reg(REG.a2, 2).reg(REG.a3, 2).ecall().line()], want: 'ok -' },
      { what: 'ecall, another a0: a trap to the guest, not run here', lines: [new Call().reg(REG.a0, 0x1234).ecall().line()], want: { fault: '-' } },
      { what: 'custom-1 0x2B (external inlines)', lines: [new Call().insn(rType(0x2b, 0, 0, 0, REG.a1, REG.a2)).line()], want: { fault: '-' } },
    ],
  });
  calls.push(adviceTape());
  return calls;
}

// The advice tape (tracer/src/emulator/cpu.rs AdviceTape at 01f78185 and
// HEAD): a0 = 0xADBABE writes a1, a2 bytes (an ecall at 01f78185, the
// VirtualHostIO word at HEAD; unreadable bytes: nothing), each load takes
// the next 1, 2, 4, 8 bytes little-endian, sign-extended as the tracer's
// `as i8 / i16 / i32 as i64`, LEN the count left; too few bytes panic.
// Loads: 0x5B funct3 3-7 (01f78185), funct3 0 funct7 0-4 rs1 x0 (HEAD).
// Checked against a JavaScript queue of the bytes written, the lines of a
// run in order (the harness keeps one machine, and its tape, per run).
const LOADS = [[1, 'ADVICE_LB'], [2, 'ADVICE_LH'], [4, 'ADVICE_LW'], [8, 'ADVICE_LD'], [0, 'ADVICE_LEN']];
const adviceLoad = (k, head) => (head ? rType(0x5b, 0, k, REG.a4, 0, 0) : rType(0x5b, 3 + k, 0, REG.a4, 0, 0));
const adviceWrite = (bytes, hostIO, at = A) => {
  const c = new Call().reg(REG.a0, 0xadbabe).reg(REG.a1, at).reg(REG.a2, bytes.length).mem(at, hex(bytes));
  return (hostIO ? c.insn(rType(0x5b, 2, 0, 0, 0, 0)) : c.ecall()).line();
};
function adviceTape() {
  let tape = [];
  // the answer of load k (LOADS index) on the queue, which it consumes
  const take = (k) => {
    const [n, name] = LOADS[k];
    if (n === 0) return `ok - ${tape.length.toString(16)}`;
    if (tape.length < n) return { fault: name, why: 'compute_advice' };
    const v = tape.splice(0, n).reduce((acc, b, i) => acc | (BigInt(b) << BigInt(8 * i)), 0n);
    return `ok - ${BigInt.asUintN(64, BigInt.asIntN(8 * n, v)).toString(16)}`;
  };
  const load = (k, head) => ({ what: `${LOADS[k][1]} (${head ? 'HEAD' : '01f78185'} encoding)`, lines: [new Call().insn(adviceLoad(k, head)).readReg(REG.a4).line()] });
  const write = (bytes, hostIO) => {
    tape.push(...bytes);
    return { what: `write ${hex(bytes)} (${hostIO ? 'VirtualHostIO' : 'ecall'})`, lines: [adviceWrite(bytes, hostIO)], want: 'ok -' };
  };
  return {
    name: 'advice tape',
    reference: 'a JavaScript byte queue (AdviceTape write / read / remaining)',
    guest: GUEST,
    quick: 600,
    random(rng, i) {
      if (i === 0) tape = [];
      if (rng.int(3) === 0) return write(rng.bytes(rng.int(17)), rng.int(2) === 1);
      const k = rng.int(LOADS.length);
      return { ...load(k, rng.int(2) === 1), want: take(k) };
    },
    edges() {
      tape = [];
      const steps = [
        { ...load(4, false), want: take(4) }, // LEN, empty: 0
        { ...load(3, true), want: take(3) }, // LD, empty: panics
        write(Uint8Array.from([0xf0, 0xde, 0xbc, 0x9a, 0x78, 0x56, 0x34, 0x12]), false),
        write(Uint8Array.from([0x80, 0xff, 0x01]), true),
        { ...load(4, true), want: take(4) },
        { ...load(2, false), want: take(2) }, // LW: sign-extended
        { ...load(1, true), want: take(1) },
        { ...load(0, false), want: take(0) },
        { ...load(0, true), want: take(0) },
        { ...load(1, false), want: take(1) }, // LH 0xff80: negative
        { ...load(2, true), want: take(2) }, // LW with one byte left: panics, takes nothing
        { ...load(0, true), want: take(0) },
        { what: 'write from unmapped memory: nothing', lines: [new Call().reg(REG.a0, 0xadbabe).reg(REG.a1, 0x70000000).reg(REG.a2, 8).ecall().line()], want: 'ok -' },
        { ...load(4, false), want: take(4) },
        { what: 'funct3 0 funct7 0 with rs1 a0: VirtualRev8W, not a load', lines: [new Call().reg(REG.a0, 0x11223344).insn(rType(0x5b, 0, 0, REG.a4, REG.a0, 0)).readReg(REG.a4).line()], want: 'ok - 44332211' },
      ];
      return steps;
    },
  };
}
