// OpenVM's calls (executor/abi/openvm.c, openvm_algebra.c), each checked
// against @noble/curves, @noble/hashes or BigInt. The memory contracts are
// OpenVM's (openvm-org/openvm v2.0.1 = b820b25b, the latest release; the
// 1.x releases for KECCAK256/SHA256 of a whole message, v1.7.0 = 425913bd):
//   custom-1 (0x2b) funct3 0: modular ADD SUB MUL DIV ISEQ SETUP, funct7 =
//     index * 8 + op (extensions/algebra/transpiler/src/lib.rs; SETUP's rs2
//     register number picks ADDSUB x0, MULDIV x1, ISEQ x2); the modulus at
//     rs1 bare from v1.4.0 (moduli-macros/src/lib.rs, 3fd48e28), after a
//     [1][index][bytes as u32] header before (moduli-macros@v1.3.0)
//   funct3 1: short Weierstrass EC_ADD_NE, EC_DOUBLE, SETUP (p then a at
//     rs1; rs2 = x0 the double's setup) (extensions/ecc/transpiler, sw-macros)
//   funct3 2: Fp2 = Fp[u]/(u^2 + 1) ADD SUB MUL DIV SETUP (the prime twice at rs1)
//   funct3 3: pairing HintFinalExp (calls/openvm_pairing.mjs)
//   custom-0 (0x0b) funct3 4: KECCAK256 (funct7 0), SHA256 (1) of [rs1], rs2
//     bytes, to [rd] (1.x); funct3 5: 256-bit [rd] = [rs1] op [rs2]
//     (extensions/bigint: Int256Funct7; shifts by rs2's low byte, shift.rs)
// Where OpenVM's executor panics, the answer is a fault of that call:
//   - DIVMOD / Fp2 DIV by 0: invert().unwrap() (extensions/algebra/circuit/src/fields.rs)
//   - EC_ADD_NE with x1 = x2, EC_DOUBLE with y = 0: invert().unwrap()
//     (extensions/ecc/circuit/src/weierstrass_chip/curves.rs)
// ISEQ compares the bytes (modular_chip/is_eq.rs execute_e12_impl:
// `(b == c) as u8`); operands not below N are only a debug_assert there.
import { Call, Rng, hex, le, mod, modpow } from './common.mjs';
import { pairingCalls } from './openvm_pairing.mjs';

const GUEST = 'zkvm-openvm-rv32.elf';
// OpenVM 2.1's RV64 (v2.1.0-preview, perf/ecc-projective-coord at 7bfa7d3e): the same
// memory contracts with 8-byte registers; curves projective on that branch.
const GUEST64 = 'zkvm-openvm64-rv64.elf';
const A = 0x10000000; // flat read-write memory [0x400, 2^29)
const B = 0x10001000;
const C = 0x10002000;
const S = 0x10003000; // a setup's scratch (rd)
const M = 0x10004000; // where a modulus goes

const X = { sp: 2, a0: 10, a1: 11, a2: 12, a3: 13 };
const r = (opcode, funct3, funct7, rd, rs1, rs2) =>
  ((funct7 << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | opcode) >>> 0;
const custom1 = (funct3, funct7, rd, rs1, rs2) => r(0x2b, funct3, funct7, rd, rs1, rs2);
const custom0 = (funct3, funct7, rd, rs1, rs2) => r(0x0b, funct3, funct7, rd, rs1, rs2);

// [a0] = [a1] op [a2]
const op3 = (word, x, y) => new Call().reg(X.a0, C).reg(X.a1, A).reg(X.a2, B).mem(A, x).mem(B, y).insn(word);

export async function suite({ npm }) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { p256 } = await npm('@noble/curves/nist.js');
  const { bn254 } = await npm('@noble/curves/bn254.js');
  const { bls12_381 } = await npm('@noble/curves/bls12-381.js');
  const { sha256, _SHA256, _SHA512 } = await npm('@noble/hashes/sha2.js');
  const { keccak_256 } = await npm('@noble/hashes/sha3.js');
  const calls = [];

  // ---- modular arithmetic ----
  // Moduli: the primes the curves name, and moduli no table here knows (32 and 48 bytes).
  const unknown32 = (1n << 255n) + 0x1d5n; // odd, 256 bits
  const unknown48 = (1n << 380n) + 0x2b3n; // odd, 381 bits
  const moduli = [
    { idx: 0, p: secp256k1.Point.Fp.ORDER, size: 32, what: 'secp256k1 p' },
    { idx: 1, p: bls12_381.fields.Fp.ORDER, size: 48, what: 'BLS12-381 p' },
    { idx: 2, p: bn254.fields.Fr.ORDER, size: 32, what: 'BN254 r (no curve prime)' },
    { idx: 3, p: unknown32, size: 32, what: 'an odd 256-bit number' },
    { idx: 4, p: unknown48, size: 48, what: 'an odd 381-bit number' },
  ];
  // SETUP_MOD as v1.4.0+ writes it (a bare, aligned modulus; 48-byte moduli 16-aligned) or
  // v1.0-v1.3 ([1][idx][len u32] before it). `after` fills the bytes past the modulus.
  const setup = (md, form, rs2 = 0, after = '00'.repeat(16)) => {
    const at = md.size === 48 && form === 'bare' ? M + 16 : M;
    const c = new Call().reg(X.a0, S).reg(X.a1, at).reg(X.sp, S + 0x100);
    if (form === 'header') c.mem(at - 6, '01' + le(BigInt(md.idx), 1) + le(BigInt(md.size), 4));
    else c.mem(at - 6, '00'.repeat(6));
    return c.mem(at, le(md.p, md.size) + after).insn(custom1(0, md.idx * 8 + 5, X.a0, X.a1, rs2)).line();
  };
  const modOps = [
    ['ADDMOD', 0, (x, y, p) => (x + y) % p],
    ['SUBMOD', 1, (x, y, p) => mod(x - y, p)],
    ['MULMOD', 2, (x, y, p) => (x * y) % p],
    ['DIVMOD', 3, (x, y, p) => (y % p === 0n ? null : ((x % p) * modpow(y, p - 2n, p)) % p)],
  ];
  for (const form of ['bare', 'header']) {
    for (const [name, op, ref] of modOps) {
      calls.push({
        name: `${name}.${form}`,
        reference: `BigInt modulo p; SETUP_MOD ${form === 'bare' ? 'v1.4.0+ (bare modulus)' : 'v1.0-v1.3 (header)'}`,
        guest: GUEST,
        random(rng) {
          const md = rng.pick(name === 'DIVMOD' ? moduli.filter((m) => m.idx < 3) : moduli);
          const top = 1n << BigInt(8 * md.size);
          const pick = () => (rng.int(8) ? rng.below(md.p) : rng.below(top));
          const x = pick(), y = pick();
          const want = ref(x % md.p, y % md.p, md.p);
          return {
            what: `${md.what}: x ${x} y ${y}`,
            lines: [setup(md, form), op3(custom1(0, md.idx * 8 + op, X.a0, X.a1, X.a2), le(x, md.size), le(y, md.size)).read(C, md.size).line()],
            want: want === null ? { fault: name } : `ok - ${le(want, md.size)}`,
          };
        },
        edges() {
          const out = [];
          for (const md of moduli) {
            const opLine = (x, y) => op3(custom1(0, md.idx * 8 + op, X.a0, X.a1, X.a2), le(x, md.size), le(y, md.size)).read(C, md.size).line();
            const top = (1n << BigInt(8 * md.size)) - 1n;
            for (const [x, y] of [[0n, 0n], [md.p - 1n, md.p - 1n], [md.p, 1n], [top, top], [1n, md.p]]) {
              const w = name === 'DIVMOD' && md.idx >= 3 ? null : ref(x % md.p, y % md.p, md.p);
              if (name === 'DIVMOD' && md.idx >= 3 && y % md.p !== 0n) continue; // not prime: an inverse may not exist
              out.push({ what: `${md.what}: x ${x} y ${y}`, lines: [setup(md, form), opLine(x, y)], want: w === null ? { fault: name } : `ok - ${le(w, md.size)}` });
            }
          }
          return out;
        },
      });
    }
  }
  // HintNonQr / HintSqrt (v1.3.0+, funct7 = index * 8 + 6 / 7): phantoms that
  // replace the hint stream (extensions/algebra/circuit/src/extension/modular.rs
  // at f6595e3a, phantom::NonQrHintSubEx / SqrtHintSubEx, find_non_qr,
  // mod_sqrt; the flag a register wide: v2.1.0-preview's RV64_REGISTER_NUM_LIMBS).
  // Read back with HINT_BUFFER. Checked by BigInt: the non-residue by Euler's
  // criterion (z^((p-1)/2) = p - 1) and find_non_qr's choice (p - 1 for p = 3
  // mod 4, 2 for 5 mod 8); the flag by Euler's criterion on x; the root r
  // by r^2 = x (or x z) mod p, and r itself as mod_sqrt picks it: x^((p+1)/4)
  // for p = 3 mod 4, Tonelli-Shanks from z, transcribed below, otherwise.
  const sqrtModuli = [
    { idx: 0, p: secp256k1.Point.Fp.ORDER, size: 32, what: 'secp256k1 p' },
    { idx: 1, p: bls12_381.fields.Fp.ORDER, size: 48, what: 'BLS12-381 p' },
    { idx: 5, p: p256.Point.Fp.ORDER, size: 32, what: 'P-256 p' },
    { idx: 6, p: bn254.fields.Fp.ORDER, size: 32, what: 'BN254 p' },
    { idx: 7, p: (1n << 255n) - 19n, size: 32, what: 'ed25519 p (5 mod 8)' },
  ];
  const nonQr = (p) => (p % 4n === 3n ? p - 1n : 2n);
  const euler = (x, p) => modpow(x, (p - 1n) / 2n, p);
  const tonelli = (x, p, z) => {
    let q = p - 1n, s = 0n;
    while (q % 2n === 0n) { q /= 2n; s++; }
    let m = s, c = modpow(z, q, p), t = modpow(x, q, p), r = modpow(x, (q + 1n) >> 1n, p);
    for (;;) {
      if (t === 0n) return 0n;
      if (t === 1n) return r;
      let i = 0n, tmp = t;
      while (tmp !== 1n && i < m) { tmp = (tmp * tmp) % p; i++; }
      if (i === m) return null;
      let b = c;
      for (let k = 0n; k < m - i - 1n; k++) b = (b * b) % p;
      m = i; c = (b * b) % p; t = (t * b * b) % p; r = (r * b) % p;
    }
  };
  const modSqrt = (x, p, z) => {
    if (p % 4n !== 3n) return tonelli(x, p, z);
    const r = modpow(x, (p + 1n) / 4n, p);
    return (r * r) % p === x % p ? r : null;
  };
  const hintBuffer = (rd, rs1) => ((1 << 20) | (rs1 << 15) | (1 << 12) | (rd << 7) | 0x0b) >>> 0;
  const readHint = (bytes, word) => new Call().reg(X.a0, C).reg(X.a2, bytes / word).insn(hintBuffer(X.a0, X.a2)).read(C, bytes).line();
  const sqrtWant = (md, x, word) => {
    const z = nonQr(md.p), xr = x % md.p;
    const square = xr === 0n || euler(xr, md.p) === 1n;
    const r = modSqrt(square ? x : x * z, md.p, z);
    if (r === null || (r * r) % md.p !== (square ? xr : (xr * z) % md.p)) throw new Error(`no root for ${x} mod ${md.p}`);
    return le(square ? 1n : 0n, word) + le(r, md.size);
  };
  const sqrtCase = (md, x, guest = GUEST) => {
    const word = guest === GUEST ? 4 : 8;
    return {
      what: `${md.what}: x ${x}${guest === GUEST ? '' : ' (rv64)'}`,
      guest,
      lines: [setup(md, 'bare'), new Call().reg(X.a1, A).mem(A, le(x, md.size)).insn(custom1(0, md.idx * 8 + 7, 0, X.a1, 0)).line(), readHint(word + md.size, word)],
      want: `ok - ${sqrtWant(md, x, word)}`,
    };
  };
  calls.push({
    name: 'HintNonQr',
    reference: "BigInt: Euler's criterion, find_non_qr's choice",
    guest: GUEST,
    edges: () => [
      ...sqrtModuli.map((md) => {
        const z = nonQr(md.p);
        if (euler(z, md.p) !== md.p - 1n) throw new Error(`${z} is a residue mod ${md.what}`);
        return { what: md.what, lines: [setup(md, 'bare'), new Call().insn(custom1(0, md.idx * 8 + 6, 0, 0, 0)).line(), readHint(md.size, 4)], want: `ok - ${le(z, md.size)}` };
      }),
      { what: 'BN254 r (1 mod 8: OpenVM samples with ChaCha): refused', lines: [setup(moduli[2], 'bare'), new Call().insn(custom1(0, 2 * 8 + 6, 0, 0, 0)).line()], want: { fault: 'HintNonQr' } },
      { what: 'an index never set up', lines: [new Call().insn(custom1(0, 15 * 8 + 6, 0, 0, 0)).line()], want: { fault: 'HintNonQr' } },
      { what: 'rs1 not x0: the transpiler asserts', lines: [setup(sqrtModuli[0], 'bare'), new Call().insn(custom1(0, 6, 0, X.a1, 0)).line()], want: { fault: 'HintNonQr' } },
    ],
  });
  calls.push({
    name: 'HintSqrt',
    reference: "BigInt: Euler's criterion, root squared, mod_sqrt's root",
    guest: GUEST,
    random(rng) {
      const md = rng.pick(sqrtModuli);
      const x = rng.int(8) ? rng.below(md.p) : rng.below(1n << BigInt(8 * md.size));
      return sqrtCase(md, rng.int(3) ? x : (x * x) % md.p, rng.int(4) ? GUEST : GUEST64);
    },
    edges: () => [
      ...sqrtModuli.flatMap((md) => [0n, 1n, md.p - 1n, md.p, nonQr(md.p), 4n].map((x) => sqrtCase(md, x))),
      sqrtCase(sqrtModuli[1], 2n, GUEST64),
      { what: 'BN254 r (1 mod 8): refused', lines: [setup(moduli[2], 'bare'), new Call().reg(X.a1, A).insn(custom1(0, 2 * 8 + 7, 0, X.a1, 0)).line()], want: { fault: 'HintSqrt' } },
      { what: 'x outside memory', lines: [setup(sqrtModuli[0], 'bare'), new Call().reg(X.a1, 0x7ffffff0).insn(custom1(0, 7, 0, X.a1, 0)).line()], want: { fault: 'HintSqrt' } },
      { what: 'rd not x0: the transpiler asserts', lines: [setup(sqrtModuli[0], 'bare'), new Call().reg(X.a1, A).insn(custom1(0, 7, X.a0, X.a1, 0)).line()], want: { fault: 'HintSqrt' } },
    ],
  });
  // ISEQMOD: rd = 1 when the bytes are equal; SETUP_ISEQ (rs2 = x2) writes rd too.
  calls.push({
    name: 'ISEQMOD',
    reference: 'byte equality (modular_chip/is_eq.rs)',
    guest: GUEST,
    random(rng) {
      const md = rng.pick(moduli);
      const x = rng.below(md.p);
      const y = rng.int(2) ? x : rng.below(md.p);
      return {
        what: `${md.what}: x ${x} y ${y}`,
        lines: [setup(md, 'bare', 2), op3(custom1(0, md.idx * 8 + 4, X.a3, X.a1, X.a2), le(x, md.size), le(y, md.size)).readReg(X.a3).line()],
        want: `ok - ${x === y ? 1 : 0}`,
      };
    },
    edges: () => moduli.flatMap((md) => [
      { what: `${md.what}: x and x + p (not reduced: bytes differ)`, lines: [setup(md, 'header', 2),
        op3(custom1(0, md.idx * 8 + 4, X.a3, X.a1, X.a2), le(1n, md.size), le(md.p + 1n, md.size)).readReg(X.a3).line()], want: 'ok - 0' },
      { what: `${md.what}: p and p`, lines: [setup(md, 'bare', 2),
        op3(custom1(0, md.idx * 8 + 4, X.a3, X.a1, X.a2), le(md.p, md.size), le(md.p, md.size)).readReg(X.a3).line()], want: 'ok - 1' },
    ]),
  });
  calls.push({
    name: 'SETUP_MOD',
    reference: 'moduli-macros (v1.0-v1.3 header, v1.4.0+ bare)',
    guest: GUEST,
    edges: () => [
      { what: 'an operation before its setup', lines: [op3(custom1(0, 7 * 8 + 0, X.a0, X.a1, X.a2), le(1n, 32), le(2n, 32)).line()],
        want: { fault: 'ADDMOD' } },
      { what: 'unknown 32-byte modulus, 32-aligned, data after it that is no prime',
        lines: [setup(moduli[3], 'bare', 0, 'ff'.repeat(16)), op3(custom1(0, 3 * 8 + 0, X.a0, X.a1, X.a2), le(5n, 32), le(unknown32 - 1n, 32)).read(C, 32).line()],
        want: `ok - ${le(4n, 32)}` },
    ],
  });

  // ---- Fp2 (funct3 2): SETUP (rs1: the prime twice), then [rd] = [rs1] op [rs2] ----
  const fp2Fields = [
    { idx: 0, Fp2: bn254.fields.Fp2, p: bn254.fields.Fp.ORDER, size: 32, name: 'BN254' },
    { idx: 1, Fp2: bls12_381.fields.Fp2, p: bls12_381.fields.Fp.ORDER, size: 48, name: 'BLS12-381' },
  ];
  const fp2Setup = (f, rs2) => new Call().reg(X.a0, S).reg(X.a1, M).mem(M, le(f.p, f.size).repeat(2))
    .insn(custom1(2, f.idx * 8 + 4, X.a0, X.a1, rs2)).line();
  for (const [name, op, ref] of [['FP2_ADD', 0, 'add'], ['FP2_SUB', 1, 'sub'], ['FP2_MUL', 2, 'mul'], ['FP2_DIV', 3, 'div']]) {
    calls.push({
      name,
      reference: `@noble/curves Fp2.${ref}`,
      guest: GUEST,
      random(rng) {
        const f = rng.pick(fp2Fields);
        const top = 1n << BigInt(8 * f.size);
        const pick = () => (rng.int(8) ? rng.below(f.p) : rng.below(top));
        const x = { c0: pick(), c1: pick() }, y = { c0: pick(), c1: pick() };
        const xr = f.Fp2.create({ c0: x.c0 % f.p, c1: x.c1 % f.p }), yr = f.Fp2.create({ c0: y.c0 % f.p, c1: y.c1 % f.p });
        const enc = (v) => le(v.c0, f.size) + le(v.c1, f.size);
        const zero = f.Fp2.is0(yr) && op === 3;
        return {
          what: `${f.name}: x ${x.c0},${x.c1} y ${y.c0},${y.c1}`,
          lines: [fp2Setup(f, op < 2 ? 0 : 1), op3(custom1(2, f.idx * 8 + op, X.a0, X.a1, X.a2), enc(x), enc(y)).read(C, 2 * f.size).line()],
          want: zero ? { fault: name } : `ok - ${enc(f.Fp2[ref](xr, yr))}`,
        };
      },
      edges: () => fp2Fields.flatMap((f) => {
        const enc = (v) => le(v.c0, f.size) + le(v.c1, f.size);
        const z = { c0: 0n, c1: 0n }, one = { c0: 1n, c1: 0n }, m = { c0: f.p - 1n, c1: f.p - 1n };
        return [[one, z], [z, one], [m, m], [{ c0: f.p, c1: f.p }, one]].map(([x, y]) => {
          const xr = f.Fp2.create({ c0: x.c0 % f.p, c1: x.c1 % f.p }), yr = f.Fp2.create(y);
          const fault = op === 3 && f.Fp2.is0(yr);
          return { what: `${f.name}: x ${x.c0},${x.c1} y ${y.c0},${y.c1}`,
            lines: [fp2Setup(f, op < 2 ? 0 : 1), op3(custom1(2, f.idx * 8 + op, X.a0, X.a1, X.a2), enc(x), enc(y)).read(C, 2 * f.size).line()],
            want: fault ? { fault: name } : `ok - ${enc(f.Fp2[ref](xr, yr))}` };
        });
      }),
    });
  }

  // ---- short Weierstrass (funct3 1): SETUP (p then a at rs1), EC_ADD_NE, EC_DOUBLE ----
  const curves = [
    { idx: 0, Point: secp256k1.Point, size: 32, name: 'secp256k1' },
    { idx: 1, Point: p256.Point, size: 32, name: 'P-256' },
    { idx: 2, Point: bn254.G1.Point, size: 32, name: 'BN254' },
    { idx: 3, Point: bls12_381.G1.Point, size: 48, name: 'BLS12-381' },
  ];
  const ecSetup = (cv, add) => new Call().reg(X.a0, S).reg(X.a1, M).reg(X.a2, M + 0x200)
    .mem(M, le(cv.Point.Fp.ORDER, cv.size) + le(mod(cv.Point.CURVE().a, cv.Point.Fp.ORDER), cv.size))
    .insn(custom1(1, cv.idx * 8 + 2, X.a0, X.a1, add ? X.a2 : 0)).line();
  const encP = (cv, P) => le(P.x, cv.size) + le(P.y, cv.size);
  const randomPoint = (cv, rng) => cv.Point.BASE.multiply(1n + rng.below(cv.Point.Fn.ORDER - 1n)).toAffine();
  calls.push({
    name: 'EC_ADD_NE',
    reference: '@noble/curves Point.add',
    guest: GUEST,
    quick: 500,
    max: 200000,
    random(rng) {
      const cv = rng.pick(curves);
      const P = randomPoint(cv, rng), Q = randomPoint(cv, rng);
      const R = cv.Point.fromAffine(P).add(cv.Point.fromAffine(Q)).toAffine();
      return { what: `${cv.name}: P ${P.x},${P.y} Q ${Q.x},${Q.y}`,
        lines: [ecSetup(cv, true), op3(custom1(1, cv.idx * 8, X.a0, X.a1, X.a2), encP(cv, P), encP(cv, Q)).read(C, 2 * cv.size).line()],
        want: P.x === Q.x ? { fault: 'EC_ADD_NE' } : `ok - ${encP(cv, R)}` };
    },
    edges: () => curves.flatMap((cv) => {
      const G = cv.Point.BASE.toAffine();
      const line = (P, Q) => op3(custom1(1, cv.idx * 8, X.a0, X.a1, X.a2), encP(cv, P), encP(cv, Q)).read(C, 2 * cv.size).line();
      return [
        { what: `${cv.name}: P + P (x1 = x2)`, lines: [ecSetup(cv, true), line(G, G)], want: { fault: 'EC_ADD_NE' } },
        { what: `${cv.name}: P + (-P)`, lines: [ecSetup(cv, true), line(G, { x: G.x, y: cv.Point.Fp.ORDER - G.y })], want: { fault: 'EC_ADD_NE' } },
      ];
    }),
  });
  calls.push({
    name: 'EC_DOUBLE',
    reference: '@noble/curves Point.double',
    guest: GUEST,
    quick: 500,
    max: 200000,
    random(rng) {
      const cv = rng.pick(curves);
      const P = randomPoint(cv, rng);
      return { what: `${cv.name}: P ${P.x},${P.y}`,
        lines: [ecSetup(cv, false), new Call().reg(X.a0, C).reg(X.a1, A).mem(A, encP(cv, P)).insn(custom1(1, cv.idx * 8 + 1, X.a0, X.a1, 0)).read(C, 2 * cv.size).line()],
        want: `ok - ${encP(cv, cv.Point.fromAffine(P).double().toAffine())}` };
    },
    edges: () => curves.map((cv) => ({
      what: `${cv.name}: y = 0`,
      lines: [ecSetup(cv, false), new Call().reg(X.a0, C).reg(X.a1, A).mem(A, le(cv.Point.BASE.toAffine().x, cv.size) + le(0n, cv.size))
        .insn(custom1(1, cv.idx * 8 + 1, X.a0, X.a1, 0)).line()],
      want: { fault: 'EC_DOUBLE' } })),
  });

  // ---- v1.0-v1.2's HintDecompress / HintNonQr (funct3 1, funct7 = index * 8 + 3 / 4):
  // phantoms that replace the hint stream (extensions/ecc/circuit/src/
  // weierstrass_extension.rs at v1.2.0, phantom::DecompressHintSubEx /
  // NonQrHintSubEx). Decompress: 4 bytes of a flag, then y. Checked with
  // @noble/curves: alpha = x^3 + a x + b in the curve's Fp; when Fp.sqrt
  // finds a root, flag 1 and the point's y of the asked parity (the y of a
  // random point of the curve, or noble's root); when not, flag 0 and
  // mod_sqrt(alpha * non_qr) = (-alpha)^((p+1)/4) (every curve here has p = 3
  // mod 4, so non_qr = p - 1), whose square noble checks is -alpha. ----
  const decLine = (cv, x, rec) => new Call().reg(X.a1, A).reg(X.a2, B).mem(A, le(x, cv.size)).mem(B, le(BigInt(rec), 1))
    .insn(custom1(1, cv.idx * 8 + 3, 0, X.a1, X.a2)).line();
  const decWant = (cv, x, rec, knownY = null) => {
    const F = cv.Point.Fp, p = F.ORDER;
    const { a, b } = cv.Point.CURVE();
    const xr = F.create(x % p);
    const alpha = F.add(F.add(F.mul(F.sqr(xr), xr), F.mul(F.create(mod(a, p)), xr)), F.create(b));
    let y = knownY;
    if (y === null) {
      try { y = F.sqrt(alpha); } catch { y = null; }
    }
    if (y === null) {
      const r = modpow(F.neg(alpha), (p + 1n) / 4n, p);
      if (!F.eql(F.sqr(r), F.neg(alpha))) throw new Error(`${cv.name}: -alpha has no root`);
      return `ok - ${le(0n, 4)}${le(r, cv.size)}`;
    }
    if (!F.eql(F.sqr(y), alpha)) throw new Error(`${cv.name}: not a root`);
    const want = (y & 1n) === BigInt(rec & 1) ? y : p - y;
    return `ok - ${le(1n, 4)}${le(want, cv.size)}`;
  };
  const decCase = (cv, x, rec, knownY = null) => ({
    what: `${cv.name}: x ${x} parity byte ${rec}`,
    lines: [ecSetup(cv, true), decLine(cv, x, rec), readHint(4 + cv.size, 4)],
    want: decWant(cv, x, rec, knownY),
  });
  calls.push({
    name: 'HintDecompress',
    reference: "@noble/curves: a point's y of the asked parity, Fp.sqrt; else (-alpha)^((p+1)/4) checked by Fp.sqr",
    guest: GUEST,
    quick: 400,
    random(rng) {
      const cv = rng.pick(curves);
      const rec = rng.int(256);
      if (rng.int(2)) {
        const P = randomPoint(cv, rng);
        return decCase(cv, P.x, rec, P.y);
      }
      const p = cv.Point.Fp.ORDER;
      return decCase(cv, rng.int(8) ? rng.below(p) : rng.below(1n << BigInt(8 * cv.size)), rec);
    },
    edges: () => {
      const out = curves.flatMap((cv) => {
        const G = cv.Point.BASE.toAffine(), p = cv.Point.Fp.ORDER;
        const top = (1n << BigInt(8 * cv.size)) - 1n;
        return [[G.x, 0], [G.x, 1], [G.x, 0xfe], [G.x, 0xff], [G.x + p, 1], [0n, 0], [1n, 1], [p - 1n, 0], [p, 1], [top, 0]]
          .filter(([x]) => x <= top).map(([x, rec]) => decCase(cv, x, rec, x === G.x ? G.y : null));
      });
      const k1 = curves[0];
      const otherA = new Call().reg(X.a0, S).reg(X.a1, M).reg(X.a2, M + 0x200).mem(M, le(k1.Point.Fp.ORDER, 32) + le(5n, 32))
        .insn(custom1(1, 9 * 8 + 2, X.a0, X.a1, X.a2)).line();
      return out.concat([
        { what: 'a curve whose b the setup does not give (secp256k1 p, a = 5)', lines: [otherA, decLine({ ...k1, idx: 9 }, 1n, 0)], want: { fault: 'HintDecompress', why: 'app configuration' } },
        { what: 'a curve never set up', lines: [decLine({ ...k1, idx: 12 }, 1n, 0)], want: { fault: 'HintDecompress', why: 'not set up' } },
        { what: 'rd not x0: the transpiler asserts', lines: [ecSetup(k1, true), new Call().reg(X.a1, A).reg(X.a2, B).insn(custom1(1, 3, X.a0, X.a1, X.a2)).line()], want: { fault: 'HintDecompress', why: 'asserts' } },
        { what: 'x outside memory', lines: [ecSetup(k1, true), new Call().reg(X.a1, 0x7ffffff0).reg(X.a2, B).insn(custom1(1, 3, 0, X.a1, X.a2)).line()], want: { fault: 'HintDecompress', why: 'not in memory' } },
      ]);
    },
  });
  const ecNonQr = (cv) => new Call().insn(custom1(1, cv.idx * 8 + 4, 0, 0, 0)).line();
  const setupCurveOn = (md, idx) => new Call().reg(X.a0, S).reg(X.a1, M + 0x400).reg(X.a2, M + 0x600).mem(M + 0x400, le(md.p, md.size) + le(1n, md.size))
    .insn(custom1(1, idx * 8 + 2, X.a0, X.a1, X.a2)).line();
  calls.push({
    name: 'HintNonQr.ecc',
    reference: "BigInt: Euler's criterion, find_non_qr's choice (p - 1, or 2 for p = 5 mod 8)",
    guest: GUEST,
    edges: () => [
      ...curves.map((cv) => {
        const p = cv.Point.Fp.ORDER, z = nonQr(p);
        if (euler(z, p) !== p - 1n) throw new Error(`${z} is a residue mod ${cv.name}`);
        return { what: cv.name, lines: [ecSetup(cv, false), ecNonQr(cv), readHint(cv.size, 4)], want: `ok - ${le(z, cv.size)}` };
      }),
      { what: 'a curve over ed25519 p (5 mod 8): 2', lines: [setup(sqrtModuli[4], 'bare'), setupCurveOn(sqrtModuli[4], 10), ecNonQr({ idx: 10 }), readHint(32, 4)], want: `ok - ${le(2n, 32)}` },
      { what: 'a curve over BN254 r (1 mod 8: random in OpenVM): refused', lines: [setup(moduli[2], 'bare'), setupCurveOn(moduli[2], 11), ecNonQr({ idx: 11 })], want: { fault: 'HintNonQr', why: 'from_entropy' } },
      { what: 'a curve never set up', lines: [ecNonQr({ idx: 13 })], want: { fault: 'HintNonQr', why: 'not set up' } },
      { what: 'rs2 not x0: the transpiler asserts', lines: [ecSetup(curves[0], true), new Call().insn(custom1(1, 4, 0, 0, X.a2)).line()], want: { fault: 'HintNonQr', why: 'asserts' } },
    ],
  });

  // ---- HintFinalExp (funct3 3): the pairing hint (calls/openvm_pairing.mjs) ----
  calls.push(...(await pairingCalls({ npm, custom1, X, A, B, C, S, GUEST, GUEST64 })));

  // ---- KECCAK256, SHA256 (1.x): [rd] = hash of rs2 bytes at [rs1] ----
  for (const [name, funct7, hash] of [['KECCAK256', 0, keccak_256], ['SHA256', 1, sha256]]) {
    const line = (msg) => new Call().reg(X.a0, C).reg(X.a1, A).reg(X.a2, msg.length).mem(A, hex(msg))
      .insn(custom0(4, funct7, X.a0, X.a1, X.a2)).read(C, 32).line();
    calls.push({
      name,
      reference: `@noble/hashes ${name === 'SHA256' ? 'sha256' : 'keccak_256'}`,
      guest: GUEST,
      random(rng) {
        const msg = rng.bytes(rng.int(400));
        return { what: `message ${hex(msg)}`, lines: [line(msg)], want: `ok - ${hex(hash(msg))}` };
      },
      edges: () => [0, 135, 136, 137, 55, 56, 64].map((n) => {
        const msg = new Uint8Array(n).fill(0x61);
        return { what: `${n} bytes of a`, lines: [line(msg)], want: `ok - ${hex(hash(msg))}` };
      }),
    });
  }

  // ---- SHA-2 compress (v2.0+, custom-0 funct3 4 funct7 2 / 3): [rd] = compress([rs1], [rs2]) ----
  // extensions/sha2/guest/src/lib.rs: the state 8 little-endian u32 (SHA-256) or u64 (SHA-512)
  // words, the block the message bytes; circuit/src/sha2_chips/execution.rs reads the block,
  // then the state, then writes [rd] (so rd may be rs1).
  const sha2 = [
    { name: 'SHA256', funct7: 2, block: 64, words: 8, wordBytes: 4,
      run(h, block) {
        const sha = new _SHA256();
        sha.set(...h.map((v) => Number(v)));
        sha.process(new DataView(block.buffer), 0);
        return sha.get().map((v) => BigInt(v >>> 0));
      } },
    { name: 'SHA512', funct7: 3, block: 128, words: 8, wordBytes: 8,
      run(h, block) {
        const sha = new _SHA512();
        sha.set(...h.flatMap((v) => [Number(v >> 32n), Number(v & 0xffffffffn)]));
        sha.process(new DataView(block.buffer), 0);
        const g = sha.get();
        return Array.from({ length: 8 }, (_, i) => (BigInt(g[2 * i] >>> 0) << 32n) | BigInt(g[2 * i + 1] >>> 0));
      } },
  ];
  for (const hs of sha2) {
    for (const [guest, label] of [[GUEST, 'rv32'], [GUEST64, 'rv64']]) {
      const enc = (h) => h.map((v) => le(v, hs.wordBytes)).join('');
      const line = (h, block, rd = C) => new Call().reg(X.a0, rd).reg(X.a1, A).reg(X.a2, B).mem(A, enc(h)).mem(B, hex(block))
        .insn(custom0(4, hs.funct7, X.a0, X.a1, X.a2)).read(rd, hs.words * hs.wordBytes).line();
      calls.push({
        name: `${hs.name}_COMPRESS.${label}`,
        reference: `@noble/hashes _${hs.name}.set/process/get on the same state and block`,
        guest,
        random(rng) {
          const block = rng.bytes(hs.block);
          const h = Array.from({ length: hs.words }, () => rng.bits(8 * hs.wordBytes));
          return { what: `state ${enc(h)} block ${hex(block)}`, lines: [line(h, block)], want: `ok - ${enc(hs.run(h, block))}` };
        },
        edges: () => {
          const h = Array.from({ length: hs.words }, (_, i) => BigInt(i + 1));
          const block = new Uint8Array(hs.block).fill(0x61);
          return [
            { what: 'rd = rs1 (in place)', lines: [line(h, block, A)], want: `ok - ${enc(hs.run(h, block))}` },
            { what: 'the block past memory', lines: [new Call().reg(X.a0, C).reg(X.a1, A).reg(X.a2, 0x20000000 - 8)
              .insn(custom0(4, hs.funct7, X.a0, X.a1, X.a2)).line()], want: { fault: hs.name } },
          ];
        },
      });
    }
  }

  // ---- RV64 projective curves (perf/ecc-projective-coord, 7bfa7d3e) ----
  // sw-macros set_up_once: SETUP with p1 = (p, a, b) and p2 = (1, 1, 1), then rs2 = x0;
  // EC_ADD_PROJ / EC_DOUBLE_PROJ on (X, Y, Z) by the complete formulas of Renes, Costello
  // and Batina (weierstrass_chip/curves.rs: algorithms 7 and 9 for a = 0, 1 and 3 otherwise),
  // written out below from that source for the representative; every answer is also checked,
  // as an affine point, against @noble/curves.
  const F = (p) => ({ m: (x, y) => (x * y) % p, a: (x, y) => (x + y) % p, s: (x, y) => mod(x - y, p) });
  function projAdd(p, A_, b3, [x1, y1, z1], [x2, y2, z2]) {
    const { m, a, s } = F(p);
    let t0 = m(x1, x2), t1 = m(y1, y2), t2 = m(z1, z2);
    let t3 = s(m(a(x1, y1), a(x2, y2)), a(t0, t1));
    if (A_ === 0n) {
      let t4 = s(m(a(y1, z1), a(y2, z2)), a(t1, t2));
      let y3 = s(m(a(x1, z1), a(x2, z2)), a(t0, t2));
      const x3 = (3n * t0) % p;
      t2 = m(b3, t2);
      const z3 = a(t1, t2);
      t1 = s(t1, t2);
      y3 = m(b3, y3);
      return [s(m(t3, t1), m(t4, y3)), a(m(t1, z3), m(y3, x3)), a(m(z3, t4), m(x3, t3))];
    }
    let t4 = s(m(a(x1, z1), a(x2, z2)), a(t0, t2));
    const t5 = s(m(a(y1, z1), a(y2, z2)), a(t1, t2));
    let z3 = a(m(b3, t2), m(A_, t4));
    let x3 = s(t1, z3);
    z3 = a(t1, z3);
    let y3 = m(x3, z3);
    t1 = (3n * t0) % p;
    t2 = m(A_, t2);
    t4 = m(b3, t4);
    t1 = a(t1, t2);
    t2 = m(A_, s(t0, t2));
    t4 = a(t4, t2);
    y3 = a(y3, m(t1, t4));
    x3 = s(m(t3, x3), m(t5, t4));
    z3 = a(m(t5, z3), m(t3, t1));
    return [x3, y3, z3];
  }
  function projDouble(p, A_, b3, [x, y, z]) {
    const { m, a, s } = F(p);
    if (A_ === 0n) {
      let t0 = m(y, y);
      let z3 = (8n * t0) % p;
      const t1 = m(y, z);
      let t2 = m(b3, m(z, z));
      const x3 = m(t2, z3);
      let y3 = a(t0, t2);
      z3 = m(t1, z3);
      t2 = (3n * t2) % p;
      t0 = s(t0, t2);
      y3 = a(x3, m(t0, y3));
      return [(2n * m(t0, m(x, y))) % p, y3, z3];
    }
    let t0 = m(x, x);
    const t1 = m(y, y);
    let t2 = m(z, z);
    let t3 = (2n * m(x, y)) % p;
    let z3 = (2n * m(x, z)) % p;
    let y3 = a(m(A_, z3), m(b3, t2));
    let x3 = s(t1, y3);
    y3 = m(x3, a(t1, y3));
    x3 = m(t3, x3);
    z3 = m(b3, z3);
    t2 = m(A_, t2);
    t3 = a(m(A_, s(t0, t2)), z3);
    t0 = m(a((3n * t0) % p, t2), t3);
    y3 = a(y3, t0);
    t2 = (2n * m(y, z)) % p;
    x3 = s(x3, m(t2, t3));
    return [x3, y3, (4n * m(t2, t1)) % p];
  }
  const encProj = (cv, P) => P.map((v) => le(v, cv.size)).join('');
  const projSetups = (cv) => {
    const p = cv.Point.Fp.ORDER, { a, b } = cv.Point.CURVE();
    const p1 = le(p, cv.size) + le(mod(a, p), cv.size) + le(mod(b, p), cv.size);
    const one = le(1n, cv.size).repeat(3);
    return [
      new Call().reg(X.a0, S).reg(X.a1, M).reg(X.a2, M + 0x200).mem(M, p1).mem(M + 0x200, one)
        .insn(custom1(1, cv.idx * 8 + 2, X.a0, X.a1, X.a2)).line(),
      new Call().insn(custom1(1, cv.idx * 8 + 2, X.a0, X.a1, 0)).line(),
    ];
  };
  // P scaled by z (z = 0: the identity (0, 1, 0) as sw-macros writes it).
  const scaled = (cv, P, z) => { const p = cv.Point.Fp.ORDER; return z === 0n ? [0n, 1n, 0n] : [(P.x * z) % p, (P.y * z) % p, z]; };
  const affine = (cv, [x, y, z]) => {
    const p = cv.Point.Fp.ORDER;
    if (z === 0n) return null;
    const zi = modpow(z, p - 2n, p);
    return { x: (x * zi) % p, y: (y * zi) % p };
  };
  const sameAs = (cv, R, want) => {
    const got = affine(cv, R);
    const ok = want.is0() ? got === null : got !== null && got.x === want.toAffine().x && got.y === want.toAffine().y;
    if (!ok) throw new Error(`${cv.name}: the transcribed formulas disagree with @noble/curves`);
  };
  const pointOf = (cv, P) => (P === null ? cv.Point.ZERO : cv.Point.fromAffine(P));
  const projCase = (cv, rng, double, Pa, Qa) => {
    const p = cv.Point.Fp.ORDER, { a, b } = cv.Point.CURVE(), A_ = mod(a, p), b3 = mod(3n * b, p);
    const zp = Pa === null ? 0n : 1n + rng.below(p - 1n), zq = Qa === null ? 0n : 1n + rng.below(p - 1n);
    const P = Pa === null ? [0n, 1n, 0n] : scaled(cv, Pa, zp), Q = Qa === null ? [0n, 1n, 0n] : scaled(cv, Qa, zq);
    const R = double ? projDouble(p, A_, b3, P) : projAdd(p, A_, b3, P, Q);
    sameAs(cv, R, double ? pointOf(cv, Pa).double() : pointOf(cv, Pa).add(pointOf(cv, Qa)));
    const name = double ? 'EC_DOUBLE_PROJ' : 'EC_ADD_PROJ';
    const op = double
      ? new Call().reg(X.a0, C).reg(X.a1, A).mem(A, encProj(cv, P)).insn(custom1(1, cv.idx * 8 + 1, X.a0, X.a1, 0))
      : op3(custom1(1, cv.idx * 8, X.a0, X.a1, X.a2), encProj(cv, P), encProj(cv, Q));
    return { lines: [...projSetups(cv), op.read(C, 3 * cv.size).line()], want: `ok - ${encProj(cv, R)}` };
  };
  for (const double of [false, true]) {
    calls.push({
      name: double ? 'EC_DOUBLE_PROJ.rv64' : 'EC_ADD_PROJ.rv64',
      reference: '@noble/curves Point.add / double (as affine points); the representative from curves.rs',
      guest: GUEST64,
      quick: 300,
      max: 100000,
      random(rng) {
        const cv = rng.pick(curves);
        const P = randomPoint(cv, rng), Q = randomPoint(cv, rng);
        return { what: `${cv.name}: P ${P.x},${P.y} Q ${Q.x},${Q.y}`, ...projCase(cv, rng, double, P, Q) };
      },
      edges: () => curves.flatMap((cv) => {
        const rng = new Rng(cv.idx + 7);
        const G = cv.Point.BASE.toAffine(), negG = { x: G.x, y: cv.Point.Fp.ORDER - G.y };
        if (double) return [
          { what: `${cv.name}: 2G`, ...projCase(cv, rng, true, G, G) },
          { what: `${cv.name}: 2 identity`, ...projCase(cv, rng, true, null, null) },
        ];
        return [
          { what: `${cv.name}: P + P (complete: no fault)`, ...projCase(cv, rng, false, G, G) },
          { what: `${cv.name}: P + (-P) = identity`, ...projCase(cv, rng, false, G, negG) },
          { what: `${cv.name}: identity + P`, ...projCase(cv, rng, false, null, G) },
        ];
      }),
    });
  }
  // The same setup on RV32 (every RV32 release is affine): p2 = (1, 1, 1) changes nothing.
  calls.push({
    name: 'EC_ADD_NE.rv32-three-ones',
    reference: '@noble/curves Point.add',
    guest: GUEST,
    edges: () => curves.map((cv) => {
      const G = cv.Point.BASE.toAffine(), G2 = cv.Point.BASE.double().toAffine();
      return { what: `${cv.name}: G + 2G`, lines: [...projSetups(cv), op3(custom1(1, cv.idx * 8, X.a0, X.a1, X.a2), encP(cv, G), encP(cv, G2)).read(C, 2 * cv.size).line()],
        want: `ok - ${encP(cv, cv.Point.BASE.multiply(3n).toAffine())}` };
    }),
  });

  // ---- 256-bit integers (custom-0 funct3 5): [rd] = [rs1] op [rs2] ----
  const M256 = (1n << 256n) - 1n;
  const signed = (v) => (v >> 255n ? v - (1n << 256n) : v);
  const int256 = [
    ['ADD256', (a, b) => (a + b) & M256],
    ['SUB256', (a, b) => (a - b) & M256],
    ['XOR256', (a, b) => a ^ b],
    ['OR256', (a, b) => a | b],
    ['AND256', (a, b) => a & b],
    ['SLL256', (a, b) => (a << (b & 0xffn)) & M256],
    ['SRL256', (a, b) => a >> (b & 0xffn)],
    ['SRA256', (a, b) => BigInt.asUintN(256, signed(a) >> (b & 0xffn))],
    ['SLT256', (a, b) => (signed(a) < signed(b) ? 1n : 0n)],
    ['SLTU256', (a, b) => (a < b ? 1n : 0n)],
    ['MUL256', (a, b) => (a * b) & M256],
  ];
  int256.forEach(([name, ref], funct7) => {
    const line = (a, b) => op3(custom0(5, funct7, X.a0, X.a1, X.a2), le(a, 32), le(b, 32)).read(C, 32).line();
    calls.push({
      name,
      reference: 'BigInt',
      guest: GUEST,
      random(rng) {
        const a = rng.bits(256);
        const b = rng.int(2) ? rng.bits(256) : (rng.bits(248) << 8n) | BigInt(rng.int(256)); // shifts: any low byte
        return { what: `a ${a} b ${b}`, lines: [line(a, b)], want: `ok - ${le(ref(a, b), 32)}` };
      },
      edges: () => [[0n, 0n], [M256, M256], [1n << 255n, 1n], [M256, 255n], [5n, 256n], [1n << 255n, M256]].map(([a, b]) => ({
        what: `a ${a} b ${b}`, lines: [line(a, b)], want: `ok - ${le(ref(a, b), 32)}` })),
    });
  });
  return calls;
}
