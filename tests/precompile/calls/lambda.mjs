// lambda_vm's calls (executor/abi/lambda.c), each checked against
// @noble/hashes, @noble/curves or plain JavaScript. The contracts are
// lambda_vm's executor's (executor/src/vm/syscalls/, crypto/ecsm): number
// in a7, arguments in a0..a2, nothing written back to a register.
import { Call, REG, hex, le } from './common.mjs';

const GUEST = 'zkvm-lambda-rv64.elf';
const A = 0x40000000; // the heap: lambda_vm's memory is read-write everywhere
const B = 0x40001000;
const C = 0x40002000;
const N = (v) => BigInt.asUintN(64, BigInt(v)); // the calls numbered down from 2^64 - 1

function ecall(number, ...args) {
  const c = new Call().reg(REG.a7, N(number));
  args.forEach((v, i) => c.reg(REG.a0 + i, v));
  return c;
}

const be = (v, size) => {
  let out = '';
  for (let i = size - 1; i >= 0; i--) out += Number((v >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, '0');
  return out;
};

export async function suite({ npm }) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { _SHA256 } = await npm('@noble/hashes/sha2.js');
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  const Fp = secp256k1.Point.Fp, Fn = secp256k1.Point.Fn;
  const calls = [];

  // Sha256 (2^64 - 1): the state at a0 (8 big-endian words, the digest's
  // bytes) takes one 64-byte block at a1
  calls.push({
    name: 'Sha256',
    reference: '@noble/hashes _SHA256.process',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(32), block = rng.bytes(64);
      const sv = new DataView(state.buffer);
      const sha = new _SHA256();
      sha.set(...Array.from({ length: 8 }, (_, i) => sv.getUint32(4 * i, false)));
      sha.process(new DataView(block.buffer), 0);
      const want = sha.get().map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
      return { what: `state ${hex(state)}`, lines: [ecall(-1, A, B).mem(A, hex(state)).mem(B, hex(block)).ecall().read(A, 32).line()], want: `ok - ${want}` };
    },
  });
  // KeccakPermute (2^64 - 2): 25 little-endian lanes at a0, 8-byte aligned
  calls.push({
    name: 'KeccakPermute',
    reference: '@noble/hashes keccakP',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(200);
      const s = new Uint32Array(state.slice().buffer);
      keccakP(s, 24);
      return { what: `state ${hex(state)}`, lines: [ecall(-2, A).mem(A, hex(state)).ecall().read(A, 200).line()], want: `ok - ${hex(new Uint8Array(s.buffer))}` };
    },
    edges: () => [{ what: 'unaligned state', lines: [ecall(-2, A + 4).ecall().line()], want: { fault: 'KeccakPermute' } }],
  });
  // DmaMemcpy (2^64 - 3): a2 <= 256 bytes from a1 to a0, as memmove (the source read whole first)
  calls.push({
    name: 'DmaMemcpy',
    reference: 'Uint8Array.copyWithin (memmove)',
    guest: GUEST,
    random(rng) {
      const buf = rng.bytes(600);
      const n = rng.int(257), src = rng.int(300), dst = rng.int(300);
      const want = buf.slice();
      want.copyWithin(dst, src, src + n);
      return { what: `n ${n} src +${src} dst +${dst}`, lines: [ecall(-3, A + dst, A + src, n).mem(A, hex(buf)).ecall().read(A, 600).line()], want: `ok - ${hex(want)}` };
    },
    edges: () => [{ what: '257 bytes', lines: [ecall(-3, A, B, 257).ecall().line()], want: { fault: 'DmaMemcpy' } }],
  });
  // Hint (2^64 - 31): kind a0 (0 x^-1 mod p, 1 x^-1 mod n, 2 a root mod p), x at a1, 32 bytes BE out at a2; none: zeros
  calls.push({
    name: 'Hint',
    reference: '@noble/curves secp256k1 Fp.inv, Fn.inv, Fp.sqrt',
    guest: GUEST,
    random(rng) {
      const kind = rng.int(3);
      const m = kind === 1 ? Fn.ORDER : Fp.ORDER;
      const x = rng.int(16) ? rng.below(m) : m + rng.below(2n ** 256n - m); // some not reduced
      let y = 0n;
      if (x < m && x !== 0n) {
        if (kind === 0) y = Fp.inv(x);
        else if (kind === 1) y = Fn.inv(x);
        else {
          try {
            y = Fp.sqrt(x); // noble throws when x has no root: then the hint is zeros
          } catch {
            y = 0n;
          }
        }
      }
      return { what: `kind ${kind} x ${x}`, lines: [ecall(-31, kind, A, B).mem(A, be(x, 32)).ecall().read(B, 32).line()], want: `ok - ${be(y, 32)}` };
    },
    edges: () => [{ what: 'kind 3', lines: [ecall(-31, 3, A, B).ecall().line()], want: { fault: 'Hint' } }],
  });
  // Ecsm (2^64 - 11): xR (a0) = x of k (a2) times the point of x = xG (a1) with even y;
  // EcsmAffine (2^64 - 12): (xR, yR) = k (xG, yG); 32-byte little-endian numbers
  const G = secp256k1.Point.BASE;
  for (const affine of [false, true]) {
    const name = affine ? 'EcsmAffine' : 'Ecsm';
    const size = affine ? 64 : 32;
    calls.push({
      name,
      reference: '@noble/curves secp256k1 Point.multiply',
      guest: GUEST,
      quick: 300,
      random(rng) {
        let P = G.multiply(1n + rng.below(Fn.ORDER - 1n)).toAffine();
        if (!affine && P.y & 1n) P = { x: P.x, y: Fp.neg(P.y) };
        const k = 1n + rng.below(Fn.ORDER - 1n);
        const R = secp256k1.Point.fromAffine(P).multiply(k).toAffine();
        const point = affine ? le(P.x, 32) + le(P.y, 32) : le(P.x, 32);
        const want = affine ? le(R.x, 32) + le(R.y, 32) : le(R.x, 32);
        return { what: `k ${k}`, lines: [ecall(affine ? -12 : -11, C, A, B).mem(A, point).mem(B, le(k, 32)).ecall().read(C, size).line()], want: `ok - ${want}` };
      },
      edges: () => [
        { what: 'k = 0', lines: [ecall(affine ? -12 : -11, C, A, B).mem(B, le(0n, 32)).ecall().line()], want: { fault: name } },
        { what: 'k = n', lines: [ecall(affine ? -12 : -11, C, A, B).mem(A, le(G.toAffine().x, 32) + le(G.toAffine().y, 32)).mem(B, le(Fn.ORDER, 32)).ecall().line()], want: { fault: name } },
        { what: 'x = p', lines: [ecall(affine ? -12 : -11, C, A, B).mem(A, le(Fp.ORDER, 32)).mem(B, le(1n, 32)).ecall().line()], want: { fault: name } },
      ],
    });
  }
  return calls;
}
