// ZisK's calls (executor/abi/zisk.c, zisk_fcall.c, zisk_dma.c), each checked
// against @noble/curves, @noble/hashes or BigInt. The memory contracts are
// ZisK's executor's at v0.18.0 (0xPolygonHermez/zisk 790f9e28):
// core/src/zisk_ops.rs (opc_* : which words each call reads and writes),
// precompiles/helpers/src/ (the arithmetic), core/src/zisk_ops.rs opc_fcall
// and ziskos/entrypoint/src/zisklib/fcalls_impl/ (the free-input calls),
// ziskos/entrypoint/src/dma/*.s and dma.rs (the DMA pairs). Where ZisK's
// executor panics, the answer is a fault of that call:
//   - curve add with x1 = x2, double with y = 0: ark's division by zero
//     (precompiles/helpers/src/arith_eq/secp256k1.rs, bn254curve.rs,
//     arith_eq_384/bls12_381curve.rs)
//   - complex (Fp2) operands not below p: ark's Fq::from(BigInt) unwraps
//     from_bigint (arith_eq/bn254complex.rs, arith_eq_384/bls12_381complex.rs)
//   - arith256_mod / arith384_mod with module 0: num-bigint's % by zero
//   - an inverse that does not exist: "Inverse does not exist"
//     (fcalls_impl/secp256k1/fp_inv.rs, bn254/fp.rs, bls12_381/fp_inv.rs)
//   - input_ready past the input (zisk_ops.rs opc_fcall)
// Curve coordinates not below p are left out: ZisK's x86-64 build reduces
// them (lib-c), its other builds panic.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Call, REG, hex, le, fromLe, mod, modpow } from './common.mjs';

const GUEST = 'zkvm-zisk-rv64.elf';
// The build with ziskos's released numbering of 0x815 and up (dma, secp256r1 at 0x817).
const DMA_GUEST = 'zisk-dma/zkvm-zisk-dma-rv64.elf';
const P = 0xb0000000; // the operand block (pointers); RAM is [0xA000_0000, 0xC000_0000)
const A = 0xb0001000;
const B = 0xb0002000;
const C = 0xb0003000;
const D = 0xb0004000;
const E = 0xb0005000;
const INPUT_ADDR = 0x40000000n;

const csrs = (csr, rs1, rd = 0) => ((csr << 20) | (rs1 << 15) | (2 << 12) | (rd << 7) | 0x73) >>> 0;
const csrwi = (csr, imm) => ((csr << 20) | (imm << 15) | (5 << 12) | 0x73) >>> 0;
const add = (rd, rs1, rs2) => ((rs2 << 20) | (rs1 << 15) | (rd << 7) | 0x33) >>> 0;
const addi = (rd, rs1, imm) => (((imm & 0xfff) << 20) | (rs1 << 15) | (rd << 7) | 0x13) >>> 0;
const word = (w) => le(BigInt(w), 4);

// `csrs CSR, a0` with a0 = at.
const precompile = (csr, at) => new Call().reg(REG.a0, at).insn(csrs(csr, REG.a0));
const pointers = (...ps) => ps.map((p) => le(BigInt(p), 8)).join('');

// The entry point of a guest: call_harness makes every call there, so a DMA marker goes at entry + 4.
function entryOf(guest) {
  const file = readFileSync(path.join(process.env.GUEST_DIR ?? 'build/guests', guest));
  return Number(file.readBigUInt64LE(24));
}

export async function suite({ npm }) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { p256 } = await npm('@noble/curves/nist.js');
  const { bn254 } = await npm('@noble/curves/bn254.js');
  const { bls12_381 } = await npm('@noble/curves/bls12-381.js');
  const { _SHA256 } = await npm('@noble/hashes/sha2.js');
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  const calls = [];

  // ---- keccakf (0x800): the 25 u64 lanes at rs1, in place ----
  calls.push({
    name: 'keccakf',
    reference: '@noble/hashes keccakP (24 rounds)',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(200);
      const s32 = new Uint32Array(state.slice().buffer);
      keccakP(s32, 24);
      return { what: `state ${hex(state)}`, lines: [precompile(0x800, A).mem(A, hex(state)).read(A, 200).line()],
        want: `ok - ${hex(new Uint8Array(s32.buffer))}` };
    },
    edges: () => [
      { what: 'state not in memory', lines: [precompile(0x800, 0xc0000000).line()], want: { fault: 'keccakf' } },
    ],
  });

  // ---- sha256f (0x805, v0.9.0+): {state: 8 u32 as sha2's compress256 holds them, block: 64 bytes} ----
  calls.push({
    name: 'sha256f',
    reference: '@noble/hashes _SHA256.process on the same state and block',
    guest: GUEST,
    random(rng) {
      const block = rng.bytes(64);
      const h = Array.from({ length: 8 }, () => Number(rng.bits(32)));
      const sha = new _SHA256();
      sha.set(...h);
      sha.process(new DataView(block.buffer), 0);
      const state = (hs) => hs.map((v) => word(v >>> 0)).join('');
      return { what: `block ${hex(block)}`,
        lines: [precompile(0x805, P).mem(P, pointers(A, B)).mem(A, state(h)).mem(B, hex(block)).read(A, 32).line()],
        want: `ok - ${state(sha.get())}` };
    },
  });

  // ---- arith256 (0x801): {a, b, c, dl, dh}: dh:dl = a * b + c ----
  const top256 = (1n << 256n) - 1n;
  const arith256Line = (a, b, c) => precompile(0x801, P).mem(P, pointers(A, B, C, D, E))
    .mem(A, le(a, 32)).mem(B, le(b, 32)).mem(C, le(c, 32)).read(D, 32).read(E, 32).line();
  const arith256Want = (a, b, c) => {
    const r = a * b + c;
    return `ok - ${le(r & top256, 32)} ${le(r >> 256n, 32)}`;
  };
  calls.push({
    name: 'arith256',
    reference: 'BigInt',
    guest: GUEST,
    random(rng) {
      const a = rng.bits(256), b = rng.bits(256), c = rng.bits(256);
      return { what: `a ${a} b ${b} c ${c}`, lines: [arith256Line(a, b, c)], want: arith256Want(a, b, c) };
    },
    edges: () => [[top256, top256, top256], [0n, 0n, 0n], [1n, top256, 1n]].map(([a, b, c]) => ({
      what: `a ${a} b ${b} c ${c}`, lines: [arith256Line(a, b, c)], want: arith256Want(a, b, c) })),
  });

  // ---- arith256_mod (0x802), arith384_mod (0x80B): {a, b, c, module, d}: d = (a * b + c) % module ----
  for (const [name, csr, size] of [['arith256_mod', 0x802, 32], ['arith384_mod', 0x80b, 48]]) {
    const bits = BigInt(8 * size);
    const top = (1n << bits) - 1n;
    const line = (a, b, c, m) => precompile(csr, P).mem(P, pointers(A, B, C, D, E))
      .mem(A, le(a, size)).mem(B, le(b, size)).mem(C, le(c, size)).mem(D, le(m, size)).read(E, size).line();
    const want = (a, b, c, m) => (m === 0n ? { fault: name } : `ok - ${le((a * b + c) % m, size)}`);
    calls.push({
      name,
      reference: 'BigInt (num-bigint % in precompiles/helpers/src/arith_eq/arith256.rs, arith_eq_384/arith384.rs)',
      guest: GUEST,
      random(rng) {
        const a = rng.bits(Number(bits)), b = rng.bits(Number(bits)), c = rng.bits(Number(bits));
        const m = rng.pick([rng.bits(Number(bits)), rng.bits(rng.int(Number(bits)) + 1), 1n, top]) || 1n;
        return { what: `a ${a} b ${b} c ${c} m ${m}`, lines: [line(a, b, c, m)], want: want(a, b, c, m) };
      },
      edges: () => [[5n, 7n, 3n, 0n], [top, top, top, top], [top, top, top, 1n], [top, top, top, 2n], [0n, 0n, 0n, 7n]].map(
        ([a, b, c, m]) => ({ what: `a ${a} b ${b} c ${c} m ${m}`, lines: [line(a, b, c, m)], want: want(a, b, c, m) })),
    });
  }

  // ---- add256 (0x811, v0.13.0+): {a, b, cin (a value), c}: c = a + b + cin, the carry to rd ----
  {
    const line = (a, b, cin) => new Call().reg(REG.a0, P).mem(P, pointers(A, B) + le(cin, 8) + pointers(C))
      .mem(A, le(a, 32)).mem(B, le(b, 32)).insn(csrs(0x811, REG.a0, REG.a1)).read(C, 32).readReg(REG.a1).line();
    const want = (a, b, cin) => {
      const r = a + b + cin;
      return `ok - ${le(r & top256, 32)} ${(r >> 256n).toString(16)}`;
    };
    calls.push({
      name: 'add256',
      reference: 'BigInt',
      guest: GUEST,
      random(rng) {
        const a = rng.bits(256), b = rng.int(8) ? rng.bits(256) : top256 - a, cin = BigInt(rng.int(2));
        return { what: `a ${a} b ${b} cin ${cin}`, lines: [line(a, b, cin)], want: want(a, b, cin) };
      },
      edges: () => [
        ...[[top256, 0n, 1n], [top256, top256, 1n], [0n, 0n, 0n]].map(([a, b, cin]) => ({
          what: `a ${a} b ${b} cin ${cin}`, lines: [line(a, b, cin)], want: want(a, b, cin) })),
        // helpers/src/big_int/add256.rs: debug_assert!(cin <= 1); the proof constrains it, refused here
        { what: 'cin 2', lines: [line(1n, 1n, 2n)], want: { fault: 'add256' } },
      ],
    });
  }

  // ---- curves: add {p1, p2}: p1 = p1 + p2; dbl: p1 (at rs1) = 2 p1. x then y, u64 limbs ----
  const curves = [
    { name: 'secp256k1', Point: secp256k1.Point, add: 0x803, dbl: 0x804, size: 32, guest: GUEST },
    { name: 'bn254_curve', Point: bn254.G1.Point, add: 0x806, dbl: 0x807, size: 32, guest: GUEST },
    { name: 'bls12_381_curve', Point: bls12_381.G1.Point, add: 0x80c, dbl: 0x80d, size: 48, guest: GUEST },
    // released numbering (definitions/src/syscall.rs@v0.16.0..v0.18.0): 0x817, 0x818
    { name: 'secp256r1', Point: p256.Point, add: 0x817, dbl: 0x818, size: 32, guest: DMA_GUEST },
  ];
  for (const cv of curves) {
    const { size } = cv;
    const p = cv.Point.Fp.ORDER;
    const enc = (Q) => le(Q.x, size) + le(Q.y, size);
    const randomPoint = (rng) => cv.Point.BASE.multiply(1n + rng.below(cv.Point.Fn.ORDER - 1n)).toAffine();
    const addLine = (Q, R) => precompile(cv.add, P).mem(P, pointers(A, B)).mem(A, enc(Q)).mem(B, enc(R)).read(A, 2 * size).line();
    const dblLine = (Q) => precompile(cv.dbl, A).mem(A, enc(Q)).read(A, 2 * size).line();
    const addName = `${cv.name}_add`, dblName = `${cv.name}_dbl`;
    calls.push({
      name: addName,
      reference: '@noble/curves Point.add',
      guest: cv.guest,
      quick: 500,
      max: 200000,
      random(rng) {
        const Q = randomPoint(rng), R = randomPoint(rng);
        if (Q.x === R.x) return { what: 'same x', lines: [addLine(Q, R)], want: { fault: addName } };
        const S = cv.Point.fromAffine(Q).add(cv.Point.fromAffine(R)).toAffine();
        return { what: `P ${Q.x},${Q.y} Q ${R.x},${R.y}`, lines: [addLine(Q, R)], want: `ok - ${enc(S)}` };
      },
      edges() {
        const G = cv.Point.BASE.toAffine();
        const G2 = cv.Point.BASE.double().toAffine();
        return [
          { what: 'P + P: x1 = x2, ark divides by 0', lines: [addLine(G, G)], want: { fault: addName } },
          { what: 'P + (-P)', lines: [addLine(G, { x: G.x, y: p - G.y })], want: { fault: addName } },
          { what: 'G + 2G', lines: [addLine(G, G2)], want: `ok - ${enc(cv.Point.BASE.multiply(3n).toAffine())}` },
          // a guest with no data above 0xA040_0000 (no unreleased layout) has the released numbering
          ...(cv.name === 'secp256r1' ? [{ what: 'G + 2G on a guest without inputcpy nor the unreleased layout', guest: 'weights/zkvm-weights-zisk-rv64.elf',
            lines: [addLine(G, G2)], want: `ok - ${enc(cv.Point.BASE.multiply(3n).toAffine())}` }] : []),
          { what: 'operands not in memory', lines: [precompile(cv.add, P).mem(P, pointers(0xc0000000, B)).line()], want: { fault: addName } },
        ];
      },
    });
    calls.push({
      name: dblName,
      reference: '@noble/curves Point.double',
      guest: cv.guest,
      quick: 500,
      max: 200000,
      random(rng) {
        const Q = randomPoint(rng);
        return { what: `P ${Q.x},${Q.y}`, lines: [dblLine(Q)], want: `ok - ${enc(cv.Point.fromAffine(Q).double().toAffine())}` };
      },
      edges: () => [
        { what: 'y = 0: 2y has no inverse', lines: [dblLine({ x: cv.Point.BASE.toAffine().x, y: 0n })], want: { fault: dblName } },
      ],
    });
  }

  // ---- complex (Fp2 = Fp[u]/(u^2 + 1)): {f1, f2}: f1 = f1 op f2, c0 limbs then c1 ----
  const fields = [
    { name: 'bn254_complex', Fp2: bn254.fields.Fp2, p: bn254.fields.Fp.ORDER, size: 32, base: 0x808 },
    { name: 'bls12_381_complex', Fp2: bls12_381.fields.Fp2, p: bls12_381.fields.Fp.ORDER, size: 48, base: 0x80e },
  ];
  for (const f of fields) {
    const { p, size } = f;
    const enc2 = (v) => le(v.c0, size) + le(v.c1, size);
    for (const [op, k, ref] of [['add', 0, (x, y) => f.Fp2.add(x, y)], ['sub', 1, (x, y) => f.Fp2.sub(x, y)], ['mul', 2, (x, y) => f.Fp2.mul(x, y)]]) {
      const name = `${f.name}_${op}`;
      const line = (x, y) => precompile(f.base + k, P).mem(P, pointers(A, B)).mem(A, enc2(x)).mem(B, enc2(y)).read(A, 2 * size).line();
      calls.push({
        name,
        reference: '@noble/curves Fp2',
        guest: GUEST,
        random(rng) {
          const x = { c0: rng.below(p), c1: rng.below(p) }, y = { c0: rng.below(p), c1: rng.below(p) };
          return { what: `x ${x.c0},${x.c1} y ${y.c0},${y.c1}`, lines: [line(x, y)], want: `ok - ${enc2(ref(f.Fp2.create(x), f.Fp2.create(y)))}` };
        },
        edges() {
          const z = { c0: 0n, c1: 0n }, m = { c0: p - 1n, c1: p - 1n };
          return [
            { what: '0 op 0', lines: [line(z, z)], want: `ok - ${enc2(ref(z, z))}` },
            { what: '(p-1) op (p-1)', lines: [line(m, m)], want: `ok - ${enc2(ref(f.Fp2.create(m), f.Fp2.create(m)))}` },
            { what: 'c0 = p: ark unwraps from_bigint', lines: [line({ c0: p, c1: 1n }, z)], want: { fault: name } },
            { what: 'second c1 = p', lines: [line(z, { c0: 1n, c1: p })], want: { fault: name } },
            { what: 'largest limbs', lines: [line({ c0: (1n << BigInt(8 * size)) - 1n, c1: 0n }, z)], want: { fault: name } },
          ];
        },
      });
    }
  }

  // ---- free-input calls: csrs 0x8F0 + port (params), csrwi 0x8C0 + (id >> 5), id & 31, csrr 0xFFE (results) ----
  const PORT = { 1: 0, 4: 2, 8: 3, 12: 4 }; // words -> port (ziskos fcall.rs port table)
  const push = (words, hexBytes) => new Call().reg(REG.a0, A).mem(A, hexBytes).insn(csrs(0x8f0 + PORT[words], REG.a0)).line();
  const pushValue = (v) => new Call().reg(REG.a0, v).insn(csrs(0x8f0, REG.a0)).line();
  const run = (id) => new Call().insn(csrwi(0x8c0 + (id >> 5), id & 31)).line();
  const get = () => new Call().insn(csrs(0xffe, 0, REG.a1)).readReg(REG.a1).line();
  const limbs = (v, n) => Array.from({ length: n }, (_, i) => ((v >> BigInt(64 * i)) & 0xffffffffffffffffn).toString(16));
  const fcallCase = (what, pushes, id, results, faultName) => {
    const lines = [...pushes, run(id)];
    const want = lines.map(() => 'ok -');
    if (faultName) {
      want[want.length - 1] = { fault: faultName };
      return { what, lines, want };
    }
    for (const r of results) {
      lines.push(get());
      want.push(`ok - ${r}`);
    }
    return { what, lines, want };
  };
  const SECP_P = secp256k1.Point.Fp.ORDER, SECP_N = secp256k1.Point.Fn.ORDER;
  const BN_P = bn254.fields.Fp.ORDER, BLS_P = bls12_381.fields.Fp.ORDER;
  const inv = (x, p) => modpow(x, p - 2n, p);
  for (const [name, id, p, n] of [
    ['fcall_secp256k1_fp_inv', 1, SECP_P, 4], ['fcall_secp256k1_fn_inv', 2, SECP_N, 4],
    ['fcall_bn254_fp_inv', 6, BN_P, 4], ['fcall_bls12_381_fp_inv', 10, BLS_P, 6],
  ]) {
    // bls12_381_fp_inv pushes 8 words, uses 6 (zisklib/fcalls/bls12_381/fp.rs)
    const pushWords = n === 6 ? 8 : 4;
    const caseFor = (x) => fcallCase(`x ${x}`, [push(pushWords, le(x, 8 * pushWords))], id,
      x % p === 0n ? [] : limbs(inv(x % p, p), n), x % p === 0n ? name : null);
    calls.push({
      name,
      reference: 'BigInt x^(p-2) mod p; num-bigint modinv panics for no inverse',
      guest: GUEST,
      random: (rng) => caseFor(1n + rng.below(p - 1n)),
      edges: () => [caseFor(1n), caseFor(p - 1n), caseFor(0n), caseFor(p)],
    });
  }
  for (const [name, id, p, n] of [['fcall_bn254_fp2_inv', 7, BN_P, 4], ['fcall_bls12_381_fp2_inv', 12, BLS_P, 6]]) {
    const Fp2 = n === 4 ? bn254.fields.Fp2 : bls12_381.fields.Fp2;
    const caseFor = (c0, c1) => {
      const zero = c0 === 0n && c1 === 0n;
      const r = zero ? null : Fp2.inv(Fp2.create({ c0, c1 }));
      return fcallCase(`x ${c0},${c1}`, [push(2 * n, le(c0, 8 * n) + le(c1, 8 * n))], id,
        zero ? [] : [...limbs(r.c0, n), ...limbs(r.c1, n)], zero ? name : null);
    };
    calls.push({
      name,
      reference: '@noble/curves Fp2.inv; 0 has no inverse (panics)',
      guest: GUEST,
      random: (rng) => caseFor(rng.below(p), 1n + rng.below(p - 1n)),
      edges: () => [caseFor(1n, 0n), caseFor(0n, 1n), caseFor(0n, 0n), caseFor(p - 1n, p - 1n)],
    });
  }
  // sqrt: [is square, root]; a non-square x gives the root of NQR x (fcalls_impl/*/fp_sqrt.rs)
  {
    const sqrt = (x, p, nqr, parity) => {
      const e = (p + 1n) / 4n;
      let r = modpow(x, e, p);
      if ((r * r) % p !== x) return [0n, modpow((x * nqr) % p, e, p)];
      if (parity !== null && (r & 1n) !== parity) r = (p - r) % p; // parity: the whole word is compared
      return [1n, r];
    };
    const k1 = (x, parity) => {
      const [ok, r] = sqrt(x, SECP_P, 3n, parity);
      return fcallCase(`x ${x} parity ${parity}`, [push(4, le(x, 32)), pushValue(parity)], 3, [ok.toString(16), ...limbs(r, 4)]);
    };
    calls.push({
      name: 'fcall_secp256k1_fp_sqrt',
      reference: 'BigInt x^((p+1)/4) mod p, the root of the parity asked',
      guest: GUEST,
      random: (rng) => k1(rng.int(2) ? mod(rng.below(SECP_P) ** 2n, SECP_P) : rng.below(SECP_P), BigInt(rng.int(2))),
      edges: () => [k1(0n, 0n), k1(0n, 1n), k1(1n, 1n), k1(4n, 0n), k1(4n, 2n), k1(SECP_P, 0n), k1(SECP_P + 4n, 0n)],
    });
    const bls = (x) => {
      const [ok, r] = sqrt(x, BLS_P, 2n, null);
      return fcallCase(`x ${x}`, [push(8, le(x, 64))], 11, [ok.toString(16), ...limbs(r, 6)]);
    };
    calls.push({
      name: 'fcall_bls12_381_fp_sqrt',
      reference: 'BigInt x^((p+1)/4) mod p',
      guest: GUEST,
      random: (rng) => bls(rng.int(2) ? mod(rng.below(BLS_P) ** 2n, BLS_P) : rng.below(BLS_P)),
      edges: () => [bls(0n), bls(1n), bls(2n), bls(BLS_P - 1n)],
    });
  }
  // input_ready (0x17, v0.17.0+): the address of the last input byte the guest reads next; no
  // result. ZisK panics unless INPUT_ADDR + 7 <= it <= INPUT_ADDR + 7 + input_len. The harness
  // gives no input: input_len 0.
  {
    const ready = (addr) => fcallCase(`address ${addr.toString(16)}`, [pushValue(addr)], 0x17, []);
    const refused = (addr) => fcallCase(`address ${addr.toString(16)}`, [pushValue(addr)], 0x17, [], 'fcall_input_ready');
    calls.push({
      name: 'fcall_input_ready',
      reference: 'zisk_ops.rs opc_fcall bounds',
      guest: GUEST,
      edges: () => [
        ready(INPUT_ADDR + 7n),
        refused(INPUT_ADDR + 8n),
        refused(INPUT_ADDR),
        refused(0n),
        refused(INPUT_ADDR + 0x40000000n),
        { ...refused(INPUT_ADDR + 7n), what: 'no result to read after it', lines: [pushValue(INPUT_ADDR + 7n), run(0x17), get()],
          want: ['ok -', 'ok -', { fault: 'fcall_get' }] },
      ],
    });
  }

  // ---- DMA (v0.16.0+, released numbering; ziskos dma/*.s, dma.rs): the call and its marker at pc + 4 ----
  const entry = entryOf(DMA_GUEST);
  const marker = (w) => word(w);
  const dma = (csrWord, markerWord) => new Call().mem(entry + 4, marker(markerWord)).insn(csrWord);
  // memcpy: csrs 0x813, SRC(a1) ; add x0, DST(a0), COUNT(a2); memmove semantics (Mem::memcpy)
  calls.push({
    name: 'dma_memcpy',
    reference: 'a JavaScript copy (copyWithin for overlaps)',
    guest: DMA_GUEST,
    random(rng) {
      const buf = rng.bytes(256);
      const count = rng.int(200), src = rng.int(256 - count), dst = rng.int(256 - count);
      const want = buf.slice();
      want.copyWithin(dst, src, src + count);
      return { what: `src ${src} dst ${dst} count ${count}`,
        lines: [dma(csrs(0x813, REG.a1), add(0, REG.a0, REG.a2)).mem(A, hex(buf)).reg(REG.a0, A + dst).reg(REG.a1, A + src)
          .reg(REG.a2, count).read(A, 256).line()], want: `ok - ${hex(want)}` };
    },
    edges: () => [
      { what: 'to past RAM', lines: [dma(csrs(0x813, REG.a1), add(0, REG.a0, REG.a2)).reg(REG.a0, 0xbffffff8).reg(REG.a1, A).reg(REG.a2, 16).line()],
        want: { fault: 'dma_memcpy' } },
      { what: 'marker not add/addi', lines: [dma(csrs(0x813, REG.a1), 0x40c50533 /* sub */).line()], want: { fault: 'dma_memcpy' } },
    ],
  });
  // memcmp: csrrs RES(a3), 0x814, SRC(a1) ; add x0, DST(a0), COUNT(a2): the first differing byte of DST less SRC's
  calls.push({
    name: 'dma_memcmp',
    reference: 'a JavaScript byte compare',
    guest: DMA_GUEST,
    random(rng) {
      const a = rng.bytes(64), b = a.slice();
      const count = rng.int(64);
      if (rng.int(4)) b[rng.int(64)] = Number(rng.bits(8));
      let r = 0n;
      for (let i = 0; i < count && !r; i++) r = BigInt(a[i] - b[i]);
      return { what: `a ${hex(a)} b ${hex(b)} count ${count}`,
        lines: [dma(csrs(0x814, REG.a1, REG.a3), add(0, REG.a0, REG.a2)).mem(A, hex(a)).mem(B, hex(b)).reg(REG.a0, A).reg(REG.a1, B)
          .reg(REG.a2, count).readReg(REG.a3).line()], want: `ok - ${BigInt.asUintN(64, r).toString(16)}` };
    },
  });
  // memset: csrs 0x816, DST(a0) ; addi RD(a3), COUNT(a2), byte; RD = DST
  calls.push({
    name: 'dma_memset',
    reference: 'a JavaScript fill',
    guest: DMA_GUEST,
    random(rng) {
      const buf = rng.bytes(128), count = rng.int(100), at = rng.int(128 - count), byte = rng.int(256);
      const want = buf.slice();
      want.fill(byte, at, at + count);
      return { what: `at ${at} count ${count} byte ${byte}`,
        lines: [dma(csrs(0x816, REG.a0), addi(REG.a3, REG.a2, byte)).mem(A, hex(buf)).reg(REG.a0, A + at).reg(REG.a2, count)
          .read(A, 128).readReg(REG.a3).line()], want: `ok - ${hex(want)} ${(A + at).toString(16)}` };
    },
  });
  // inputcpy: csrs 0x815, x0 ; add RD(a3), DST(a0), COUNT(a2): the last free call's result words
  calls.push({
    name: 'dma_inputcpy',
    reference: 'BigInt inverse (secp256k1_fp_inv) copied as its 4 result words',
    guest: DMA_GUEST,
    random(rng) {
      const x = 1n + rng.below(SECP_P - 1n);
      const copy = dma(csrs(0x815, 0), add(REG.a3, REG.a0, REG.a2)).reg(REG.a0, C).reg(REG.a2, 32).read(C, 32).readReg(REG.a3).line();
      return { what: `x ${x}`, lines: [push(4, le(x, 32)), run(1), copy], want: ['ok -', 'ok -', `ok - ${le(inv(x, SECP_P), 32)} ${C.toString(16)}`] };
    },
    edges: () => [
      { what: 'more than the results left', lines: [push(4, le(5n, 32)), run(1),
        dma(csrs(0x815, 0), add(REG.a3, REG.a0, REG.a2)).reg(REG.a0, C).reg(REG.a2, 40).line()], want: ['ok -', 'ok -', { fault: 'dma_inputcpy' }] },
    ],
  });
  return calls;
}
