// ZKsync Airbender's delegations (executor/abi/airbender.c), each a csrrw
// x0, CSR, x0 word run through the ABI's custom-instruction handler, checked
// against @noble/hashes and BigInt. The contracts are Airbender's RISC-V
// simulator's at matter-labs/zksync-airbender 97dbacf8 (2025-07-25):
// risc_v_simulator/src/delegations/blake2_round_function_with_compression_mode.rs
// and u256_ops_with_control.rs, blake2s_u32/src/lib.rs (IV, CONFIGURED_IV,
// SIGMAS), cycle/state.rs (only csrrw). Where the simulator asserts or
// panics, the call must fault.
import { Call, hex, le } from './common.mjs';

const GUEST = 'zkvm-airbender-rv32.elf';
const S = 0x01000000; // x10: 128-aligned, above the 2 MiB ROM, in the 1 GiB of RAM
const BLK = 0x01001000; // x11
const UA = 0x01002000;
const UB = 0x01003000;
const csrrw = (csr, rs1 = 0, rd = 0) => ((csr << 20) | (rs1 << 15) | (1 << 12) | (rd << 7) | 0x73) >>> 0;
const BLAKE2 = csrrw(0x7c7);
const U256 = csrrw(0x7ca);

const M32 = 0xffffffff;
const wordsHex = (ws) => ws.map((w) => le(BigInt(w >>> 0), 4)).join('');
const words = (bytes) => Array.from({ length: bytes.length / 4 }, (_, i) => new DataView(bytes.buffer, bytes.byteOffset).getUint32(4 * i, true));

export async function suite({ npm }) {
  const { blake2s, _compress } = await npm('@noble/hashes/blake2.js');
  const { BSIGMA } = await npm('@noble/hashes/_blake.js'); // BLAKE2's SIGMA rows (the first ten are BLAKE2s')
  const calls = [];

  // BLAKE2s's IV (RFC 7693 2.6, blake2s_u32 lib.rs IV); the chaining value
  // blake2s starts from with no key and a 32-byte digest is IV ^ 0x01010020
  // in word 0 (RFC 7693 2.5): Airbender's CONFIGURED_IV (IV_0_TWIST). The
  // hash cases check both against noble's blake2s.
  const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
  const CONFIGURED_IV = [IV[0] ^ 0x01010020, ...IV.slice(1)];

  const round = (x12, x13) => new Call().reg(10, S).reg(11, BLK).reg(12, x12).reg(13, x13);

  // ---- blake2s_round, non-compression mode: ten calls per block (x12 = 1 << r,
  // x13 = 1 on the tenth) hash a message block by block; the guest sets the
  // extended state's words 12 (IV4 ^ t) and 14 (IV6 ^ f) before round 0 ----
  calls.push({
    name: 'blake2s_round.hash',
    reference: '@noble/hashes blake2s of the message (rounds chained over its blocks)',
    quick: 800,
    random(rng, i) {
      const len = i < 4 ? [0, 1, 64, 65][i] : rng.int(193);
      const msg = rng.bytes(len);
      const blocks = Math.max(1, Math.ceil(len / 64));
      const lines = [];
      for (let k = 0; k < blocks; k++) {
        const block = new Uint8Array(64);
        block.set(msg.subarray(64 * k, 64 * k + 64));
        const last = k === blocks - 1;
        const t = last ? len : 64 * (k + 1);
        for (let r = 0; r < 10; r++) {
          const c = round(1 << r, r === 9 ? 1 : 0);
          if (r === 0) {
            if (k === 0) c.mem(S, wordsHex(CONFIGURED_IV));
            // ext[12], ext[14]; t's high word (ext[13]) is IV5 from round 0
            c.mem(S + 32 + 48, wordsHex([IV[4] ^ t])).mem(S + 32 + 56, wordsHex([last ? ~IV[6] : IV[6]]));
            c.mem(BLK, hex(block));
          }
          c.insn(BLAKE2);
          if (k === blocks - 1 && r === 9) c.read(S, 32);
          lines.push(c.line());
        }
      }
      return { what: `message ${hex(msg)}`, lines, want: `ok - ${hex(blake2s(msg))}` };
    },
  });

  // ---- blake2s_round, one call on any state: the round as noble's _compress
  // runs it (one round, SIGMA row r); round 0 first sets the extended state up,
  // the last-round bit folds it into the state, compression mode hashes the
  // state and the block's first 8 words as two nodes ----
  const one = (state, ext, block, r, ctl) => {
    const compression = (ctl & 4) !== 0, right = (ctl & 2) !== 0, last = (ctl & 1) !== 0;
    let v = [...ext];
    if (r === 0) {
      if (compression) {
        v = [...CONFIGURED_IV, ...IV];
        v[12] ^= 64;
        v[14] ^= M32;
      } else {
        v = [...state, IV[0], IV[1], IV[2], IV[3], ext[12], IV[5], ext[14], IV[7]];
      }
    }
    const msg = compression ? (right ? [...block.slice(0, 8), ...state] : [...state, ...block.slice(0, 8)]) : block;
    const o = _compress(BSIGMA.subarray(16 * r), 0, Uint32Array.from(msg), 1, ...v);
    const v2 = Array.from({ length: 16 }, (_, i) => o[`v${i}`] >>> 0);
    let st = [...state];
    if (last) {
      if (compression) st = [...CONFIGURED_IV];
      st = st.map((w, i) => (w ^ v2[i] ^ v2[i + 8]) >>> 0);
    }
    return [...st, ...v2];
  };
  calls.push({
    name: 'blake2s_round.single',
    reference: '@noble/hashes blake2 _compress, one round with BSIGMA row r',
    random(rng) {
      const state = words(rng.bytes(32)), ext = words(rng.bytes(64)), block = words(rng.bytes(64));
      const r = rng.int(10), ctl = rng.int(8) | (rng.int(4) ? 0 : 8 << rng.int(20));
      const line = round(1 << r, ctl).mem(S, wordsHex([...state, ...ext])).mem(BLK, wordsHex(block)).insn(BLAKE2).read(S, 96).read(BLK, 64).line();
      return { what: `r ${r} control ${ctl} state ${wordsHex(state)} ext ${wordsHex(ext)} block ${wordsHex(block)}`, lines: [line],
        want: `ok - ${wordsHex(one(state, ext, block, r, ctl & 7))} ${wordsHex(block)}` };
    },
  });

  // ---- blake2s_round, compression mode over ten rounds: the node hash of
  // left || right (64 bytes, one block), the input node on either side ----
  calls.push({
    name: 'blake2s_round.compression',
    reference: '@noble/hashes blake2s of the 64-byte pair',
    quick: 1000,
    random(rng) {
      const state = rng.bytes(32), input = rng.bytes(64);
      const right = rng.int(2);
      const lines = [];
      for (let r = 0; r < 10; r++) {
        const c = round(1 << r, 4 | (right ? 2 : 0) | (r === 9 ? 1 : 0));
        if (r === 0) c.mem(S, hex(state)).mem(BLK, hex(input));
        c.insn(BLAKE2);
        if (r === 9) c.read(S, 32);
        lines.push(c.line());
      }
      const pair = new Uint8Array(64);
      pair.set(right ? input.subarray(0, 32) : state, 0);
      pair.set(right ? state : input.subarray(0, 32), 32);
      return { what: `state ${hex(state)} input ${hex(input)} right ${right}`, lines, want: `ok - ${hex(blake2s(pair))}` };
    },
    edges() {
      const fault = { fault: 'blake2s_round' };
      const at = (x10, x11, x12, what) => ({ what, lines: [new Call().reg(10, x10).reg(11, x11).reg(12, x12).reg(13, 0).insn(BLAKE2).line()], want: fault });
      return [
        at(S + 64, BLK, 1, 'x10 not 128-aligned'),
        at(S, BLK + 2, 1, 'x11 not 4-aligned'),
        at(0x1fff80, BLK, 1, 'x10 below 2 MiB'),
        at(S, 0x1ffffc, 1, 'x11 below 2 MiB'),
        at(S, S, 1, 'x10 = x11'),
        at(S, BLK, 0, 'x12 = 0 (not a power of two)'),
        at(S, BLK, 3, 'x12 two bits'),
        at(S, BLK, 1 << 10, 'round 10 (SIGMAS has ten)'),
        { what: 'rs1 != x0', lines: [round(1, 0).insn(csrrw(0x7c7, 5)).line()], want: { fault: '-' } },
        { what: 'csrrs', lines: [round(1, 0).insn(BLAKE2 | 0x3000).line()], want: { fault: '-' } },
      ];
    },
  });

  // ---- u256_ops: a (x10) = a op b (x11), x12 = one op bit (+ carry bit 6);
  // x12 out = the carry, borrow, low product's overflow or equality ----
  const T = 1n << 256n;
  const OPS = { add: 1, sub: 2, bsub: 4, mullo: 8, mulhi: 16, eq: 32, memcopy: 128 };
  const u256Ref = (a, b, op, c) => {
    const ci = BigInt(c);
    switch (op) {
      case 'add': { const r = a + b + ci; return [r % T, r >= T]; }
      case 'sub': { const r = a - b - ci; return [((r % T) + T) % T, r < 0n]; }
      case 'bsub': { const r = b - a - ci; return [((r % T) + T) % T, r < 0n]; }
      case 'mullo': { const r = a * b; return [r % T, r >= T]; }
      case 'mulhi': return [(a * b) >> 256n, false];
      case 'eq': return [a, a === b];
      case 'memcopy': { const r = b + ci; return [r % T, r >= T]; }
    }
  };
  const u256Line = (a, b, x12) => new Call().reg(10, UA).reg(11, UB).reg(12, x12).mem(UA, le(a, 32)).mem(UB, le(b, 32)).insn(U256).read(UA, 32).read(UB, 32).readReg(12).line();
  const u256Case = (a, b, op, c) => {
    const [r, flag] = u256Ref(a, b, op, c);
    return { what: `${op} carry ${c} a ${a} b ${b}`, lines: [u256Line(a, b, OPS[op] | (c << 6))], want: `ok - ${le(r, 32)} ${le(b, 32)} ${flag ? 1 : 0}` };
  };
  const limby = (rng) => {
    // limbs of 0, all ones or random, so that carries run across limbs
    let v = 0n;
    for (let i = 0; i < 8; i++) v |= BigInt(rng.pick([0, M32, Number(rng.bits(32))]) >>> 0) << BigInt(32 * i);
    return v;
  };
  const edgeValues = [0n, 1n, T - 1n, T - 2n, 1n << 255n, (1n << 128n) - 1n, 0xffffffffn];
  for (const op of Object.keys(OPS)) {
    calls.push({
      name: `u256_ops.${op}`,
      reference: 'BigInt',
      random(rng) {
        const a = rng.int(3) ? rng.bits(256) : limby(rng);
        const b = rng.int(8) ? (rng.int(3) ? rng.bits(256) : limby(rng)) : a; // equal now and then
        return u256Case(a, b, op, rng.int(2));
      },
      edges: () => edgeValues.flatMap((a) => edgeValues.flatMap((b) => [0, 1].map((c) => u256Case(a, b, op, c)))),
    });
  }
  calls.push({
    name: 'u256_ops.faults',
    reference: 'u256_ops_with_control.rs asserts',
    edges() {
      const fault = { fault: 'u256_ops' };
      const at = (x10, x11, x12, what) => ({ what, lines: [new Call().reg(10, x10).reg(11, x11).reg(12, x12).insn(U256).line()], want: fault });
      return [
        at(UA + 16, UB, 1, 'x10 not 32-aligned'),
        at(UA, UB + 4, 1, 'x11 not 32-aligned'),
        at(0x1fffe0, UB, 1, 'x10 below 2 MiB'),
        at(UA, 0x100000, 1, 'x11 below 2 MiB'),
        at(UA, UA, 1, 'x10 = x11'),
        at(UA, UB, 0, 'no op bit'),
        at(UA, UB, 64, 'the carry bit alone'),
        at(UA, UB, 3, 'two op bits'),
        at(UA, UB, 256, 'x12 >= 2^8'),
        at(UA, UB, 256 | 1, 'a bit above the eight'),
        { what: 'rs1 != x0', lines: [new Call().reg(10, UA).reg(11, UB).reg(12, 1).insn(csrrw(0x7ca, 10)).line()], want: { fault: '-' } },
      ];
    },
  });
  return calls.map((c) => ({ guest: GUEST, ...c }));
}
