// Jolt's curve-field inlines (executor/abi/jolt_fields.c: custom-0 0x0B,
// funct7 5 secp256k1, 6 Grumpkin, 7 P-256), checked against @noble/curves'
// fields, points and GLV split, and BigInt, in the memory contracts of
// a16z/jolt jolt-inlines/{secp256k1,grumpkin}/src/sequence_builder.rs at
// 01f78185 and jolt-inlines/{p256,grumpkin}/src/*.rs at HEAD ff9f8c13:
// operands 4 u64 limbs at rs1 (and rs2), 8-aligned, the result at rd.
// MUL / SQUARE: a b mod q for any 256-bit a, b whose a b / q (the host's
// advice) fits in 256 bits. DIV: a / b mod q; the sequence checks b c
// against [rs1], so a >= q panics, and secp256k1 (01f78185) stores c limb
// by limb as it loads b, before the check (rd = rs1 panics, rd = rs2 does
// not), P-256 (HEAD) after it. Grumpkin DIV_ADV: arkworks Montgomery limbs
// (x 2^256 mod q). GLVR_ADV: [sign k1, |k1| lo, hi, sign k2, |k2| lo, hi].
// P256_FAKE_GLV_ADV: s P, then a lo, hi, sign, b lo, hi, sign with
// b s = a (mod n), the first remainder of Euclid's (n, s) below sqrt n.
import { Call, REG, le, mod } from './common.mjs';

const GUEST = 'zkvm-jolt-rv64.elf';
const A = 0x84000000;
const B = 0x84001000;
const C = 0x84002000;
const TOP = (1n << 256n) - 1n;
const word = (funct3, funct7, rd, rs1, rs2) =>
  ((funct7 << 25) | (rs2 << 20) | (rs1 << 15) | (funct3 << 12) | (rd << 7) | 0x0b) >>> 0;
const u64s = (list) => list.map((v) => le(v, 8)).join('');

// rd = a2, rs1 = a0, rs2 = a1: [out] = op([x], [y]).
const line = (f3, f7, out, a, b, x, y, readLen = 32) =>
  new Call().reg(REG.a2, out).reg(REG.a0, a).reg(REG.a1, b).mem(a, le(x, 32)).mem(b, le(y, 32))
    .insn(word(f3, f7, REG.a2, REG.a0, REG.a1)).read(out, readLen).line();

// floor(sqrt(n)) by Newton's method.
const isqrt = (n) => {
  let x = n, y = (x + 1n) >> 1n;
  while (y < x) [x, y] = [y, (y + n / y) >> 1n];
  return x;
};

export async function fieldInlines(npm) {
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const { p256 } = await npm('@noble/curves/nist.js');
  const { bn254, bn254_Fr } = await npm('@noble/curves/bn254.js');
  const { _splitEndoScalar } = await npm('@noble/curves/abstract/weierstrass.js');
  const calls = [];

  // MUL / SQUARE / DIV of one field: funct3 base + 0, 1, 2.
  const arith = (family, f7, base, suffix, F, divRdOverA) => {
    const q = F.ORDER;
    const mul = (x, y) => ((x * y) / q >> 256n ? { fault: `${family}_MUL${suffix}` } : `ok - ${le(F.mul(mod(x, q), mod(y, q)), 32)}`);
    const sq = (x) => ((x * x) / q >> 256n ? { fault: `${family}_SQUARE${suffix}` } : `ok - ${le(F.sqr(mod(x, q)), 32)}`);
    const div = (x, y) => (x >= q || mod(y, q) === 0n ? { fault: `${family}_DIV${suffix}` } : `ok - ${le(F.div(x, mod(y, q)), 32)}`);
    const operand = (rng) => rng.pick([rng.below(q), rng.below(q), rng.bits(256), q - 1n - rng.below(4n), rng.bits(rng.int(256) + 1)]);
    const at = (rng, base) => base + 8 * rng.int(64);
    const sqLine = (out, a, x) =>
      new Call().reg(REG.a2, out).reg(REG.a0, a).mem(a, le(x, 32)).insn(word(base + 1, f7, REG.a2, REG.a0, 0)).read(out, 32).line();
    calls.push({
      name: `${family}_MUL${suffix}`,
      reference: `@noble/curves ${family} ${suffix === 'Q' ? 'Fp' : 'Fn'}.mul (operands reduced; a fault when a b / q needs over 256 bits)`,
      guest: GUEST,
      quick: 300,
      random(rng) {
        const x = operand(rng), y = operand(rng);
        return { what: `${x} * ${y}`, lines: [line(base, f7, at(rng, C), A, B, x, y)], want: mul(x, y) };
      },
      edges: () => [
        { what: 'q - 1 squared', lines: [line(base, f7, C, A, B, q - 1n, q - 1n)], want: mul(q - 1n, q - 1n) },
        { what: 'zero', lines: [line(base, f7, C, A, B, 0n, q - 1n)], want: `ok - ${le(0n, 32)}` },
        { what: 'q times q: 0', lines: [line(base, f7, C, A, B, q, q)], want: mul(q, q) },
        { what: '2^256 - 1 squared: a b / q over 256 bits, the host asserts', lines: [line(base, f7, C, A, B, TOP, TOP)], want: { fault: `${family}_MUL${suffix}` } },
        { what: 'result over an operand (loads come first)', lines: [line(base, f7, A, A, B, q - 3n, q - 5n)], want: mul(q - 3n, q - 5n) },
        { what: 'result word- but not 8-aligned', lines: [line(base, f7, C + 4, A, B, 1n, 1n)], want: { fault: `${family}_MUL${suffix}` } },
        { what: 'operand outside RAM', lines: [new Call().reg(REG.a2, C).reg(REG.a0, 0x70000000).reg(REG.a1, B).insn(word(base, f7, REG.a2, REG.a0, REG.a1)).line()], want: { fault: `${family}_MUL${suffix}` } },
      ],
    });
    calls.push({
      name: `${family}_SQUARE${suffix}`,
      reference: `@noble/curves ${family} ${suffix === 'Q' ? 'Fp' : 'Fn'}.sqr`,
      guest: GUEST,
      quick: 300,
      random(rng) {
        const x = operand(rng);
        return { what: `${x}^2`, lines: [sqLine(at(rng, C), A, x)], want: sq(x) };
      },
      edges: () => [
        { what: 'q - 1', lines: [sqLine(C, A, q - 1n)], want: sq(q - 1n) },
        { what: 'in place', lines: [sqLine(A, A, 0x1234567890n)], want: sq(0x1234567890n) },
        { what: '2^256 - 1', lines: [sqLine(C, A, TOP)], want: sq(TOP) },
        { what: 'operand word- but not 8-aligned', lines: [sqLine(C, A + 4, 3n)], want: { fault: `${family}_SQUARE${suffix}` } },
      ],
    });
    calls.push({
      name: `${family}_DIV${suffix}`,
      reference: `@noble/curves ${family} ${suffix === 'Q' ? 'Fp' : 'Fn'}.div (a must be below q, b not 0 mod q)`,
      guest: GUEST,
      quick: 300,
      random(rng) {
        const x = rng.pick([rng.below(q), rng.below(q), rng.below(q), q + rng.below(TOP - q)]);
        let y = rng.pick([rng.below(q), rng.below(q), rng.bits(256)]);
        if (y === 0n) y = 1n;
        return { what: `${x} / ${y}`, lines: [line(base + 2, f7, at(rng, C), A, B, x, y)], want: div(x, y) };
      },
      edges: () => [
        { what: '(q - 1) / (q - 1)', lines: [line(base + 2, f7, C, A, B, q - 1n, q - 1n)], want: div(q - 1n, q - 1n) },
        { what: '0 / 7', lines: [line(base + 2, f7, C, A, B, 0n, 7n)], want: `ok - ${le(0n, 32)}` },
        { what: 'divisor 0: the host\'s inverse panics', lines: [line(base + 2, f7, C, A, B, 5n, 0n)], want: { fault: `${family}_DIV${suffix}`, why: 'zero' } },
        { what: 'divisor q: 0 too', lines: [line(base + 2, f7, C, A, B, 5n, q)], want: { fault: `${family}_DIV${suffix}` } },
        { what: 'dividend q: the sequence\'s check fails', lines: [line(base + 2, f7, C, A, B, q, 3n)], want: { fault: `${family}_DIV${suffix}`, why: 'check' } },
        { what: 'result over the divisor (each b limb loaded before c\'s is stored)', lines: [line(base + 2, f7, B, A, B, 12345n, q - 2n)], want: div(12345n, q - 2n) },
        divRdOverA
          ? { what: 'result over the dividend: the check reads c (stored first), panics', lines: [line(base + 2, f7, A, A, B, 12345n, q - 2n)], want: { fault: `${family}_DIV${suffix}`, why: 'check' } }
          : { what: 'result over the dividend (stored after the check)', lines: [line(base + 2, f7, A, A, B, 12345n, q - 2n)], want: div(12345n, q - 2n) },
        { what: 'divisor word- but not 8-aligned', lines: [line(base + 2, f7, C, A, B + 4, 1n, 1n)], want: { fault: `${family}_DIV${suffix}` } },
      ],
    });
  };
  const k1 = secp256k1.Point, r1 = p256.Point;
  arith('SECP256K1', 5, 0, 'Q', k1.Fp, true);
  arith('SECP256K1', 5, 4, 'R', k1.Fn, true);
  arith('P256', 7, 0, 'Q', r1.Fp, false);
  arith('P256', 7, 4, 'R', r1.Fn, false);

  // GLVR_ADV: rd = 6 u64 of the split of [rs1] (reduced; Grumpkin's in Montgomery form).
  const glvWords = ({ k1neg, k1, k2neg, k2 }) => u64s([k1neg ? 1n : 0n, k1 & (2n ** 64n - 1n), k1 >> 64n, k2neg ? 1n : 0n, k2 & (2n ** 64n - 1n), k2 >> 64n]);
  const glvLine = (f3, f7, out, a, raw) =>
    new Call().reg(REG.a2, out).reg(REG.a0, a).mem(a, le(raw, 32)).insn(word(f3, f7, REG.a2, REG.a0, 0)).read(out, 48).line();
  // noble's secp256k1 basis (secp256k1.js secp256k1_ENDO, not exported)
  const k1Basis = [[0x3086d221a7d46bcde86c90e49284eb15n, -0xe4437ed6010e88286f547fa90abfe4c3n], [0x114ca50f7a8e2f3f657c1108d9d44cfd8n, 0x3086d221a7d46bcde86c90e49284eb15n]];
  const nK1 = k1.Fn.ORDER;
  calls.push({
    name: 'SECP256K1_GLVR_ADV',
    reference: '@noble/curves _splitEndoScalar with secp256k1\'s basis, of [rs1] mod n',
    guest: GUEST,
    quick: 300,
    random(rng) {
      const raw = rng.pick([rng.below(nK1), rng.bits(256)]);
      return { what: `k ${raw}`, lines: [glvLine(7, 5, C + 8 * rng.int(64), A, raw)], want: `ok - ${glvWords(_splitEndoScalar(mod(raw, nK1), k1Basis, nK1))}` };
    },
    edges: () => [
      { what: 'k 0', lines: [glvLine(7, 5, C, A, 0n)], want: `ok - ${glvWords(_splitEndoScalar(0n, k1Basis, nK1))}` },
      { what: 'k n - 1', lines: [glvLine(7, 5, C, A, nK1 - 1n)], want: `ok - ${glvWords(_splitEndoScalar(nK1 - 1n, k1Basis, nK1))}` },
      { what: 'k 2^256 - 1 (reduced)', lines: [glvLine(7, 5, C, A, TOP)], want: `ok - ${glvWords(_splitEndoScalar(TOP % nK1, k1Basis, nK1))}` },
      { what: 'result word- but not 8-aligned', lines: [glvLine(7, 5, C + 4, A, 1n)], want: { fault: 'SECP256K1_GLVR_ADV' } },
      { what: 'funct3 3: reserved, no inline', lines: [line(3, 5, C, A, B, 1n, 1n)], want: { fault: 'SECP256K1_INLINE' } },
    ],
  });

  // Grumpkin: its base field is BN254's scalar field, its scalar field BN254's base field.
  const R = 1n << 256n;
  const grumpkinFq = bn254_Fr, grumpkinFr = bn254.fields.Fp;
  const mont = (x, F) => mod(x * R, F.ORDER);
  for (const [name, f3, F] of [['GRUMPKIN_DIVQ_ADV', 0, grumpkinFq], ['GRUMPKIN_DIVR_ADV', 1, grumpkinFr]]) {
    const q = F.ORDER;
    const want = (x, y) => `ok - ${le(mont(F.div(x, y), F), 32)}`;
    calls.push({
      name,
      reference: `@noble/curves bn254 ${F === bn254_Fr ? 'Fr' : 'Fp'}.div, on Montgomery limbs (x 2^256 mod q)`,
      guest: GUEST,
      quick: 300,
      random(rng) {
        const x = rng.below(q), y = rng.below(q - 1n) + 1n;
        // raw limbs: Montgomery form, sometimes unreduced (+ q)
        const ry = mont(y, F) + rng.pick([0n, q]), rx = mont(x, F);
        return { what: `${x} / ${y}`, lines: [line(f3, 6, C + 8 * rng.int(64), A, B, rx, ry)], want: want(x, y) };
      },
      edges: () => [
        { what: '(q - 1) / (q - 1)', lines: [line(f3, 6, C, A, B, mont(q - 1n, F), mont(q - 1n, F))], want: want(q - 1n, q - 1n) },
        { what: 'dividend over q (any limbs)', lines: [line(f3, 6, C, A, B, mont(3n, F) + 2n * q, mont(2n, F))], want: want(3n, 2n) },
        { what: 'divisor 0: the host\'s inverse panics', lines: [line(f3, 6, C, A, B, 1n, 0n)], want: { fault: name, why: 'zero' } },
        { what: 'divisor q: arkworks\' inverse never returns', lines: [line(f3, 6, C, A, B, 1n, q)], want: { fault: name, why: 'never returns' } },
        { what: 'result over both operands', lines: [line(f3, 6, A, A, A, mont(9n, F), mont(9n, F))], want: want(9n, 9n) },
        { what: 'result word- but not 8-aligned', lines: [line(f3, 6, C + 4, A, B, 1n, 1n)], want: { fault: name } },
      ],
    });
  }
  // Grumpkin's GLV basis (jolt-inlines/grumpkin/src/glv.rs n11, n12, n21, n22): a + b lambda = 0 (mod r)
  // for lambda a cube root of unity, which the test finds and checks itself.
  const rG = grumpkinFr.ORDER;
  const gBasis = [[0x6f4d8248eeb859fc8211bbeb7d4f1129n, -0x89d3256894d213e2n], [0x89d3256894d213e2n, 0x6f4d8248eeb859fd0be4e1541221250bn]];
  const cubeRoots = [];
  for (let g = 2n; !cubeRoots.length; g++) {
    const l = grumpkinFr.pow(g, (rG - 1n) / 3n);
    if (l !== 1n) cubeRoots.push(l, grumpkinFr.sqr(l));
  }
  const lambda = cubeRoots.find((l) => gBasis.every(([a, b]) => mod(a + b * l, rG) === 0n));
  if (lambda === undefined) throw new Error('Grumpkin basis: no cube root of unity lambda with a + b lambda = 0');
  const gSplit = (k) => {
    const s = _splitEndoScalar(k, gBasis, rG);
    const v1 = s.k1neg ? -s.k1 : s.k1, v2 = s.k2neg ? -s.k2 : s.k2;
    if (mod(v1 + v2 * lambda, rG) !== k) throw new Error(`Grumpkin split of ${k} is not k1 + k2 lambda`);
    return glvWords(s);
  };
  calls.push({
    name: 'GRUMPKIN_GLVR_ADV',
    reference: '@noble/curves _splitEndoScalar with Grumpkin\'s basis (k = k1 + k2 lambda checked), k from Montgomery limbs',
    guest: GUEST,
    quick: 300,
    random(rng) {
      const k = rng.below(rG);
      return { what: `k ${k}`, lines: [glvLine(2, 6, C + 8 * rng.int(64), A, mont(k, grumpkinFr))], want: `ok - ${gSplit(k)}` };
    },
    edges: () => [
      { what: 'k 0', lines: [glvLine(2, 6, C, A, 0n)], want: `ok - ${gSplit(0n)}` },
      { what: 'k r - 1', lines: [glvLine(2, 6, C, A, mont(rG - 1n, grumpkinFr))], want: `ok - ${gSplit(rG - 1n)}` },
      { what: 'limbs r (k = r, not reduced): the split of 0', lines: [glvLine(2, 6, C, A, rG)], want: `ok - ${gSplit(0n)}` },
      { what: 'funct3 3: no inline', lines: [line(3, 6, C, A, B, 1n, 1n)], want: { fault: 'GRUMPKIN_INLINE' } },
    ],
  });

  // P256_FAKE_GLV_ADV: [rd] = s P (x, y), a lo, hi, sign, b lo, hi, sign.
  const nR1 = r1.Fn.ORDER, rootN = isqrt(nR1);
  const halfGcd = (s) => {
    // Euclid on (n, s) with s's Bezout coefficient t (r_i = t_i s mod n), to the first r_i below sqrt n
    let [r0, r1_, t0, t1] = [nR1, s, 0n, 1n];
    while (r1_ >= rootN) {
      const quot = r0 / r1_;
      [r0, r1_, t0, t1] = [r1_, r0 - quot * r1_, t1, t0 - quot * t1];
    }
    if (mod(t1 * s - r1_, nR1) !== 0n) throw new Error('half-GCD: b s != a');
    return [r1_, t1];
  };
  const signed = (v) => u64s([(v < 0n ? -v : v) & (2n ** 64n - 1n), (v < 0n ? -v : v) >> 64n, v < 0n ? 1n : 0n]);
  const fakeGlvWant = (s, P) => {
    const sr = mod(s, nR1);
    const pt = sr === 0n ? { x: 0n, y: 0n } : P.multiply(sr).toAffine();
    const [a, b] = halfGcd(sr);
    return `ok - ${le(pt.x, 32)}${le(pt.y, 32)}${signed(a)}${signed(b)}`;
  };
  const fakeLine = (out, s, P) =>
    new Call().reg(REG.a2, out).reg(REG.a0, A).reg(REG.a1, B).mem(A, le(s, 32)).mem(B, le(P.x, 32) + le(P.y, 32))
      .insn(word(7, 7, REG.a2, REG.a0, REG.a1)).read(out, 112).line();
  calls.push({
    name: 'P256_FAKE_GLV_ADV',
    reference: '@noble/curves p256 Point.multiply; Euclid\'s (n, s) remainders to below sqrt n (b s = a mod n checked)',
    guest: GUEST,
    quick: 100,
    random(rng) {
      const s = rng.pick([rng.below(nR1), rng.bits(rng.int(256) + 1)]);
      const P = r1.BASE.multiply(rng.below(nR1 - 1n) + 1n);
      return { what: `s ${s} P ${P.toAffine().x}`, lines: [fakeLine(C + 8 * rng.int(64), s, P.toAffine())], want: fakeGlvWant(s, P) };
    },
    edges() {
      const G = r1.BASE, g = G.toAffine();
      return [
        { what: 's 0: the point at infinity, (0, 0)', lines: [fakeLine(C, 0n, g)], want: fakeGlvWant(0n, G) },
        { what: 's n - 1', lines: [fakeLine(C, nR1 - 1n, g)], want: fakeGlvWant(nR1 - 1n, G) },
        { what: 's n + 5 (reduced)', lines: [fakeLine(C, nR1 + 5n, g)], want: fakeGlvWant(5n, G) },
        { what: 's 1: below sqrt n already', lines: [fakeLine(C, 1n, g)], want: fakeGlvWant(1n, G) },
        { what: 'P off the curve: Affine::new asserts', lines: [fakeLine(C, 3n, { x: g.x, y: g.y + 1n })], want: { fault: 'P256_FAKE_GLV_ADV', why: 'curve' } },
        { what: 'result word- but not 8-aligned', lines: [fakeLine(C + 4, 3n, g)], want: { fault: 'P256_FAKE_GLV_ADV' } },
        { what: 'funct3 3: no inline', lines: [line(3, 7, C, A, B, 1n, 1n)], want: { fault: 'P256_INLINE' } },
      ];
    },
  });
  return calls;
}
