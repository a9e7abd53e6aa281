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
      { what: 'HostIO advice write (later tracers): nothing here', lines: [new Call().reg(REG.a0, 0xadbabe).reg(REG.a1, A).reg(REG.a2, 8).insn(rType(0x5b, 2, 0, 0, 0, 0)).line()], want: 'ok -' },
      { what: 'advice load LW, no advice tape: panics', lines: [new Call().insn(rType(0x5b, 5, 0, REG.a0, 0, 0)).line()], want: { fault: 'advice' } },
      { what: 'ecall print (jolt-sdk 0.2 / 0.3)', lines: [new Call().reg(REG.a0, 0x505249).reg(REG.a1, A).reg(REG.a2, 2).reg(REG.a3, 2).ecall().line()], want: 'ok -' },
      { what: 'ecall, another a0: a trap to the guest, not run here', lines: [new Call().reg(REG.a0, 0x1234).ecall().line()], want: { fault: '-' } },
      { what: 'secp256k1 mulq (funct7 5): not run here', lines: [new Call().insn(rType(0x0b, 0, 5, REG.a0, REG.a1, REG.a2)).line()], want: { fault: 'SECP256K1_INLINE' } },
      { what: 'custom-1 0x2B (external inlines)', lines: [new Call().insn(rType(0x2b, 0, 0, 0, REG.a1, REG.a2)).line()], want: { fault: '-' } },
    ],
  });
  return calls;
}
