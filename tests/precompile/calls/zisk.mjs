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
import { ecdsaCalls, fp2Calls, integerCalls } from './zisk_fcalls.mjs';

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
  const { blake2b } = await npm('@noble/hashes/blake2.js');
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

  // ---- poseidon2 (0x812, v0.16.0+): the 16 u64 Goldilocks cells at rs1 (8-aligned), permuted in
  // place (zisk_ops.rs opc_poseidon2 = pil2-proofman fields poseidon2_hash::<Goldilocks, Poseidon16, 16>).
  // No npm library has it: a BigInt Poseidon2 written here from the Poseidon2 paper (eprint 2023/323:
  // M4 = [[5,7,1,3],[4,6,1,1],[1,3,5,7],[1,1,4,6]], external layer circ(2 M4, M4, M4, M4), internal
  // layer J + diag(DIAG), x^7, 4 + 22 + 4 rounds) and ZisK's published constants
  // (lib-c/c/src/poseidon2/poseidon2_goldilocks_constants.hpp at 790f9e28, the same at v0.16.0 and
  // v0.17.0), checked itself against the known answer of pil2-proofman's fields/src/poseidon2.rs
  // test (the permutation of 0..15), the crate ZisK's emulator calls.
  {
    const GP = 0xffffffff00000001n;
    const DIAG = [
    0xde9b91a467d6afc0n, 0xc5f16b9c76a9be17n, 0x0ab0fef2d540ac55n, 0x3001d27009d05773n,
    0xed23b1f906d3d9ebn, 0x5ce73743cba97054n, 0x1c3bab944af4ba24n, 0x2faa105854dbafaen,
    0x53ffb3ae6d421a10n, 0xbcda9df8884ba396n, 0xfc1273e4a31807bbn, 0xc77952573d5142c0n,
    0x56683339a819b85en, 0x328fcbd8f0ddc8ebn, 0xb5101e303fce9cb7n, 0x774487b8c40089bbn,
    ];
    const RC = [
    0x15ebea3fc73397c3n, 0xd73cd9fbfe8e275cn, 0x8c096bfce77f6c26n, 0x4e128f68b53d8fean,
    0x29b779a36b2763f6n, 0xfe2adc6fb65acd08n, 0x8d2520e725ad0955n, 0x1c2392b214624d2an,
    0x37482118206dcc6en, 0x2f829bed19be019an, 0x2fe298cb6f8159b0n, 0x2bbad982deccdbbfn,
    0xbad568b8cc60a81en, 0xb86a814265baad10n, 0xbec2005513b3acb3n, 0x6bf89b59a07c2a94n,
    0xa25deeb835e230f5n, 0x3c5bad8512b8b12an, 0x7230f73c3cb7a4f2n, 0xa70c87f095c74d0fn,
    0x6b7606b830bb2e80n, 0x6cd467cfc4f24274n, 0xfeed794df42a9b0an, 0x8cf7cf6163b7dbd3n,
    0x9a6e9dda597175a0n, 0xaa52295a684faf7bn, 0x017b811cc3589d8dn, 0x55bfb699b6181648n,
    0xc2ccaf71501c2421n, 0x1707950327596402n, 0xdd2fcdcd42a8229fn, 0x8b9d7d5b27778a21n,
    0xac9a05525f9cf512n, 0x2ba125c58627b5e8n, 0xc74e91250a8147a5n, 0xa3e64b640d5bb384n,
    0xf53047d18d1f9292n, 0xbaaeddacae3a6374n, 0xf2d0914a808b3db1n, 0x18af1a3742bfa3b0n,
    0x9a621ef50c55bdb8n, 0xc615f4d1cc5466f3n, 0xb7fbac19a35cf793n, 0xd2b1a15ba517e46dn,
    0x4a290c4d7fd26f6fn, 0x4f0cf1bb1770c4c4n, 0x548345386cd377f5n, 0x33978d2789fddd42n,
    0xab78c59deb77e211n, 0xc485b2a933d2be7fn, 0xbde3792c00c03c53n, 0xab4cefe8f893d247n,
    0xc5c0e752eab7f85fn, 0xdbf5a76f893bafean, 0xa91f6003e3d984den, 0x099539077f311e87n,
    0x097ec52232f9559en, 0x53641bdf8991e48cn, 0x2afe9711d5ed9d7cn, 0xa7b13d3661b5d117n,
    0x5a0e243fe7af6556n, 0x1076fae8932d5f00n, 0x9b53a83d434934e3n, 0xed3fd595a3c0344an,
    0x28eff4b01103d100n, 0x60400ca3e2685a45n, 0x1c8636beb3389b84n, 0xac1332b60e13eff0n,
    0x2adafcc364e20f87n, 0x79ffc2b14054ea0bn, 0x3f98e4c0908f0a05n, 0xcdb230bc4e8a06c4n,
    0x1bcaf7705b152a74n, 0xd9bca249a82a7470n, 0x91e24af19bf82551n, 0xa62b43ba5cb78858n,
    0xb4898117472e797fn, 0xb3228bca606cdaa0n, 0x844461051bca39c9n, 0xf3411581f6617d68n,
    0xf7fd50646782b533n, 0x6ca664253c18fb48n, 0x2d2fcdec0886a08fn, 0x29da00dd799b575en,
    0x47d966cc3b6e1e93n, 0xde884e9a17ced59en, 0xdacf46dc1c31a045n, 0x5d2e3c121eb387f2n,
    0x51f8b0658b124499n, 0x1e7dbd1daa72167dn, 0x8275015a25c55b88n, 0xe8521c24ac7a70b3n,
    0x6521d121c40b3f67n, 0xac12de797de135b0n, 0xafa28ead79f6ed6an, 0x685174a7a8d26f0bn,
    0xeff92a08d35d9874n, 0x3058734b76dd123an, 0xfa55dcfba429f79cn, 0x559294d4324c7728n,
    0x7a770f53012dc178n, 0xedd8f7c408f3883bn, 0x39b533cf8d795fa5n, 0x160ef9de243a8c0an,
    0x431d52da6215fe3fn, 0x54c51a2a2ef6d528n, 0x9b13892b46ff9d16n, 0x263c46fcee210289n,
    0xb738c96d25aabdc4n, 0x5c33a5203996d38fn, 0x2626496e7c98d8ddn, 0xc669e0a52785903an,
    0xaecde726c8ae1f47n, 0x039343ef3a81e999n, 0x2615ceaf044a54f9n, 0x7e41e834662b66e1n,
    0x4ca5fd4895335783n, 0x64b334d02916f2b0n, 0x87268837389a6981n, 0x034b75bcb20a6274n,
    0x58e658296cc2cd6en, 0xe2d0f759acc31df4n, 0x81a652e435093e20n, 0x0b72b6e0172eaf47n,
    0x4aec43cec577d66dn, 0xde78365b028a84e6n, 0x444e19569adc0ee4n, 0x942b2451fa40d1dan,
    0xe24506623ea5bd6cn, 0x082854bf2ef7c743n, 0x69dbbc566f59d62en, 0x248c38d02a7b5cb2n,
    0x4f4e8f8c09d15edbn, 0xd96682f188d310cfn, 0x6f9a25d56818b54cn, 0xb6cefed606546cd9n,
    0x5bc07523da38a67bn, 0x7df5a3c35b8111cfn, 0xaaa2cc5d4db34bb0n, 0x9e673ff22a4653f8n,
    0xbd8b278d60739c62n, 0xe10d20f6925b8815n, 0xf6c87b91dd4da2bfn, 0xfed623e2f71b6f1an,
    0xa0f02fa52a94d0d3n, 0xbb5794711b39fa16n, 0xd3b94fba9d005c7fn, 0x15a26e89fad946c9n,
    0xf3cb87db8a67cf49n, 0x400d2bf56aa2a577n,
    ];
    const M4 = [[5n, 7n, 1n, 3n], [4n, 6n, 1n, 1n], [1n, 3n, 5n, 7n], [1n, 1n, 4n, 6n]];
    const external = (x) => {
      const y = x.map((_, i) => {
        const b = i - (i % 4);
        return M4[i % 4].reduce((s, c, j) => s + c * x[b + j], 0n);
      });
      // circ(2 M4, M4, M4, M4): each cell plus the sum of the blocks' cells at its position
      return y.map((v, i) => mod(v + y.filter((_, j) => j % 4 === i % 4).reduce((s, w) => s + w, 0n), GP));
    };
    const sbox = (v) => modpow(v, 7n, GP);
    const permute = (input) => {
      let x = external(input.map((v) => v % GP));
      for (let r = 0; r < 4; r++) x = external(x.map((v, i) => sbox(v + RC[16 * r + i])));
      for (let r = 0; r < 22; r++) {
        x[0] = sbox(x[0] + RC[64 + r]);
        const sum = x.reduce((s, v) => s + v, 0n);
        x = x.map((v, i) => mod(v * DIAG[i] + sum, GP));
      }
      for (let r = 0; r < 4; r++) x = external(x.map((v, i) => sbox(v + RC[86 + 16 * r + i])));
      return x;
    };
    const KAT_IN = Array.from({ length: 16 }, (_, i) => BigInt(i));
    const KAT_OUT = [9639188652563994454n, 12273372933164734616n, 2905147255612444119n, 17581461329934617288n,
      14390794100096760072n, 5468485695976078057n, 2832370985856357627n, 1116111836864400812n,
      14997632823506024332n, 3976503894892102369n, 14874978986912301676n, 12458748982184310703n,
      103345454961107931n, 3354965064850558444n, 14413825288474057217n, 4214638127285300968n];
    if (permute(KAT_IN).some((v, i) => v !== KAT_OUT[i])) throw new Error('the BigInt Poseidon2 misses pil2-proofman\'s vector');
    const enc = (cells) => cells.map((v) => le(v, 8)).join('');
    const line = (at, cells) => precompile(0x812, at).mem(at, enc(cells)).read(at, 128).line();
    calls.push({
      name: 'poseidon2',
      reference: 'BigInt Poseidon2 (paper matrices, ZisK constants), itself checked by pil2-proofman\'s 0..15 vector',
      guest: GUEST,
      random(rng) {
        const cells = Array.from({ length: 16 }, () => (rng.int(4) ? rng.below(GP) : rng.bits(64)));
        return { what: `state ${cells}`, lines: [line(A, cells)], want: `ok - ${enc(permute(cells))}` };
      },
      edges: () => [
        { what: 'pil2-proofman test vector: 0..15', lines: [line(A, KAT_IN)], want: `ok - ${enc(KAT_OUT)}` },
        { what: 'zeros', lines: [line(A, Array(16).fill(0n))], want: `ok - ${enc(permute(Array(16).fill(0n)))}` },
        // Goldilocks::new takes any u64; the output is canonical (as_canonical_u64)
        { what: 'cells p and 2^64 - 1 (read mod p)', lines: [line(A, [GP, (1n << 64n) - 1n, ...Array(14).fill(GP - 1n)])],
          want: `ok - ${enc(permute([0n, (1n << 64n) - 1n - GP, ...Array(14).fill(GP - 1n)]))}` },
        { what: 'not 8-aligned: opc_poseidon2 panics', lines: [line(A + 4, KAT_IN)], want: { fault: 'poseidon2' } },
        { what: 'not in memory', lines: [precompile(0x812, 0xbffffff8).line()], want: { fault: 'poseidon2' } },
      ],
    });
  }
  // ---- blake2 (0x819, v0.16.0+): {index (a value), state, input}: one BLAKE2b round on the 16 u64
  // at state, message words SIGMA[(u32)index mod 10] of the 16 u64 at input (zisk_ops.rs opc_blake2,
  // precompiles/helpers/src/blake2/blake2b/round.rs). Checked against a BigInt G written here from
  // RFC 7693 (3.1, 3.2, SIGMA of 2.7), and by composition: twelve calls (index 0..11) on the
  // initialised working vector of a one-block message, then BLAKE2b's finalisation (h ^ v[0..8] ^
  // v[8..16]) equals @noble/hashes blake2b of that message.
  {
    const M64 = (1n << 64n) - 1n;
    const SIGMA = [
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
      [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4], [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
      [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13], [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
      [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11], [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
      [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5], [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
    ];
    const IV = [0x6a09e667f3bcc908n, 0xbb67ae8584caa73bn, 0x3c6ef372fe94f82bn, 0xa54ff53a5f1d36f1n,
      0x510e527fade682d1n, 0x9b05688c2b3e6c1fn, 0x1f83d9abfb41bd6bn, 0x5be0cd19137e2179n];
    const rotr = (x, n) => ((x >> n) | (x << (64n - n))) & M64;
    const G = (v, a, b, c, d, x, y) => {
      v[a] = (v[a] + v[b] + x) & M64; v[d] = rotr(v[d] ^ v[a], 32n);
      v[c] = (v[c] + v[d]) & M64; v[b] = rotr(v[b] ^ v[c], 24n);
      v[a] = (v[a] + v[b] + y) & M64; v[d] = rotr(v[d] ^ v[a], 16n);
      v[c] = (v[c] + v[d]) & M64; v[b] = rotr(v[b] ^ v[c], 63n);
    };
    const round = (v0, m, index) => {
      const v = v0.slice(), s = SIGMA[Number(index & 0xffffffffn) % 10];
      [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15], [0, 5, 10, 15], [1, 6, 11, 12], [2, 7, 8, 13], [3, 4, 9, 14]]
        .forEach(([a, b, c, d], i) => G(v, a, b, c, d, m[s[2 * i]], m[s[2 * i + 1]]));
      return v;
    };
    const enc = (words) => words.map((w) => le(w, 8)).join('');
    const words = (bytes) => Array.from({ length: bytes.length / 8 }, (_, i) => fromLe(hex(bytes.slice(8 * i, 8 * i + 8))));
    const call = (index, v, m) => precompile(0x819, P).mem(P, pointers(index, A, B)).mem(A, enc(v)).mem(B, enc(m)).read(A, 128);
    const readAfter = (index) => precompile(0x819, P).mem(P, pointers(index, A, B)).read(A, 128).line();
    calls.push({
      name: 'blake2b_round',
      reference: 'BigInt G of RFC 7693; 12 chained rounds + finalisation = @noble/hashes blake2b',
      guest: DMA_GUEST,
      random(rng) {
        const v = Array.from({ length: 16 }, () => rng.bits(64)), m = Array.from({ length: 16 }, () => rng.bits(64));
        const index = rng.int(2) ? BigInt(rng.int(12)) : rng.bits(64); // index is taken as u32, mod 10
        return { what: `index ${index} v ${v} m ${m}`, lines: [call(index, v, m).line()], want: `ok - ${enc(round(v, m, index))}` };
      },
      edges() {
        const cases = [];
        for (const len of [0, 3, 64, 127, 128]) {
          const msg = new Uint8Array(len).map((_, i) => (i * 7 + 1) & 0xff);
          const block = new Uint8Array(128);
          block.set(msg);
          const h = IV.map((x, i) => (i === 0 ? x ^ 0x01010040n : x)); // digest 64 bytes, no key
          const v = [...h, ...IV];
          v[12] ^= BigInt(len);
          v[14] ^= M64; // the last block
          const lines = [call(0n, v, words(block)).line()];
          for (let r = 1n; r < 12n; r++) lines.push(readAfter(r));
          const digest = hex(blake2b(msg));
          const finalise = (got) => {
            const w = words(Uint8Array.from(got.slice(5).match(/../g), (b) => parseInt(b, 16)));
            return enc(h.map((x, i) => x ^ w[i] ^ w[i + 8]));
          };
          cases.push({ what: `one-block message of ${len} bytes`, lines,
            want: [...lines.slice(1).map(() => ({ check: () => true, text: 'ok - (a round)' })),
              { check: (got) => got.startsWith('ok - ') && finalise(got) === digest, text: `finalised to ${digest}` }] });
        }
        const z = Array(16).fill(0n);
        cases.push({ what: 'index 10 is round 0', lines: [call(10n, IV.concat(IV), z).line()], want: `ok - ${enc(round(IV.concat(IV), z, 0n))}` });
        cases.push({ what: 'index 2^32 + 3 is round 3 (index as u32)', lines: [call((1n << 32n) + 3n, IV.concat(IV), IV.concat(IV)).line()],
          want: `ok - ${enc(round(IV.concat(IV), IV.concat(IV), 3n))}` });
        cases.push({ what: 'state not 8-aligned: precompiled_load_data panics',
          lines: [precompile(0x819, P).mem(P, pointers(0, A + 4, B)).line()], want: { fault: 'blake2b_round' } });
        cases.push({ what: 'operands not 8-aligned', lines: [precompile(0x819, P + 4).line()], want: { fault: 'blake2b_round' } });
        cases.push({ what: 'input not in memory', lines: [precompile(0x819, P).mem(P, pointers(0, A, 0xc0000000)).line()],
          want: { fault: 'blake2b_round' } });
        return cases;
      },
    });
  }

  // ---- free-input calls: csrs 0x8F0 + port (params), csrwi 0x8C0 + (id >> 5), id & 31, csrr 0xFFE (results) ----
  const PORT = { 1: 0, 4: 2, 8: 3, 12: 4, 16: 5, 20: 6, 24: 7 }; // words -> port (ziskos fcall.rs port table)
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
      edges: () => [caseFor(1n, 0n), caseFor(0n, 1n), caseFor(0n, 0n), caseFor(p - 1n, p - 1n),
        // c1 is negated as p - c1 (fp_neg): c1 = p is 0, above p panics (BigUint)
        fcallCase('x 3,p', [push(2 * n, le(3n, 8 * n) + le(p, 8 * n))], id, [...limbs(inv(3n, p), n), ...limbs(0n, n)]),
        fcallCase('x 3,p+1', [push(2 * n, le(3n, 8 * n) + le(p + 1n, 8 * n))], id, [], name)],
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
  // msb_pos_256 (id 4 up to v0.16.x; fcalls_impl/msb_pos_256.rs at aacf0a73): n (port 0), then n
  // numbers of 4 words -> [limb, bit] of the highest set bit among them; all 0 panics. Reference:
  // BigInt bit length of the largest number.
  {
    const msb = (xs) => {
      const top = xs.reduce((a, b) => (a > b ? a : b), 0n);
      const pos = BigInt(top.toString(2).length - 1);
      return [(pos / 64n).toString(16), (pos % 64n).toString(16)];
    };
    const caseFor = (xs, id = 4) => fcallCase(`x ${xs}`, [pushValue(BigInt(xs.length)), ...xs.map((x) => push(4, le(x, 32)))], id,
      xs.every((x) => x === 0n) ? [] : msb(xs), xs.every((x) => x === 0n) ? 'fcall_msb_pos_256' : null);
    calls.push({
      name: 'fcall_msb_pos_256',
      reference: 'BigInt bit length of the largest number',
      guest: GUEST,
      random: (rng) => caseFor(Array.from({ length: 1 + rng.int(3) }, () => rng.bits(1 + rng.int(256)))),
      edges: () => [caseFor([1n]), caseFor([0n, 1n << 255n]), caseFor([(1n << 64n) - 1n, 1n << 64n]), caseFor([0n, 0n]),
        caseFor([(1n << 256n) - 1n, 0n, 5n])],
    });
    // ... and v0.17.0+'s msb_pos_256 (id 17, the same call)
    calls.push({
      name: 'fcall_msb_pos_256 (id 17)',
      reference: 'BigInt bit length of the largest number',
      guest: GUEST,
      quick: 200,
      random: (rng) => caseFor(Array.from({ length: 1 + rng.int(3) }, () => rng.bits(1 + rng.int(256))), 17),
      edges: () => [caseFor([0n, 0n], 17), caseFor([1n << 200n], 17)],
    });
  }
  ecdsaCalls(calls, { secp256k1, p256, push, run, get, limbs, fcallCase });
  integerCalls(calls, { push, pushValue, run, get, limbs, fcallCase });
  fp2Calls(calls, { bn254, bls12_381, push, limbs, fcallCase });
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
  // profile (0x81A, v0.17.0+): csrs 0x81A, TAG(a0) ; addi x0, x0, cmd: one instruction with no
  // effect that jumps past its marker (riscv2zisk_context.rs transpile_profile_pattern,
  // operations/profile.rs opc_profile); another marker panics the transpiler.
  calls.push({
    name: 'profile',
    reference: 'ZisK: no effect (memory and registers as they were)',
    guest: DMA_GUEST,
    random(rng) {
      const buf = rng.bytes(64), cmd = rng.int(2048), tag = rng.bits(64);
      return { what: `tag ${tag} cmd ${cmd}`,
        lines: [dma(csrs(0x81a, REG.a0), addi(0, 0, cmd)).mem(A, hex(buf)).reg(REG.a0, tag).read(A, 64).readReg(REG.a0).line()],
        want: `ok - ${hex(buf)} ${tag.toString(16)}` };
    },
    edges: () => [
      { what: 'marker addi a0, x0, 1', lines: [dma(csrs(0x81a, REG.a0), addi(REG.a0, 0, 1)).line()], want: { fault: 'profile' } },
      { what: 'marker addi x0, a0, 1', lines: [dma(csrs(0x81a, REG.a0), addi(0, REG.a0, 1)).line()], want: { fault: 'profile' } },
      { what: 'marker add', lines: [dma(csrs(0x81a, REG.a0), add(0, 0, 0)).line()], want: { fault: 'profile' } },
    ],
  });
  return calls;
}
