// ZisK's free-input calls (fcalls) added in v0.16.x and renumbered in v0.17.0
// (executor/abi/zisk_fcall.c and the files it calls), for calls/zisk.mjs. Each
// is checked in both numberings (ziskos zisklib/fcalls/mod.rs at v0.16.0
// aacf0a73 and v0.17.0 b6327450 = v0.18.0 790f9e28), pushed as ziskos's
// wrappers in zisklib/fcalls/ push them, against references written here from
// the definitions: @noble/curves point and Fp2 arithmetic, JavaScript BigInt.
// Where ZisK's host (zisklib/fcalls_impl/) panics the answer is a fault of the
// call: an inverse of 0 (s = 0 mod n, x1 = x2, y = 0), a division by 0, a
// modulus 0, all-zero msb operands, more than 8192 result words.
import { le, mod } from './common.mjs';

const GUEST = 'zkvm-zisk-rv64.elf';

// a^-1 mod m by the extended Euclidean algorithm; null when gcd(a, m) != 1 (m = 1 gives 0).
function invMod(a, m) {
  let [r0, r1, t0, t1] = [m, mod(a, m), 0n, 1n];
  while (r1) {
    const q = r0 / r1;
    [r0, r1, t0, t1] = [r1, r0 - q * r1, t1, t0 - q * t1];
  }
  return r0 === 1n ? mod(t0, m) : null;
}

const bitLength = (v) => (v ? v.toString(2).length : 0);

// secp256k1_ecdsa_verify, secp256r1_ecdsa_verify (v0.17.0+ ids 4, 5; v0.16.x 20, 21): pk (8 words:
// x, y), z, r, s (4 each) -> u1 G + u2 PK, u1 = z / s, u2 = r / s mod n, the point at infinity as
// (0, 0) (fcalls_impl/secp256k1/ecdsa.rs, secp256r1/ecdsa.rs). Reference: @noble/curves points.
export function ecdsaCalls(calls, { secp256k1, p256, push, limbs, fcallCase }) {
  for (const [curve, ids, name] of [[secp256k1, [4, 20], 'fcall_secp256k1_ecdsa_verify'],
    [p256, [5, 21], 'fcall_secp256r1_ecdsa_verify']]) {
    const Pt = curve.Point, n = Pt.Fn.ORDER, p = Pt.Fp.ORDER, G = Pt.BASE.toAffine();
    const pushes = (pk, z, r, s) => [push(8, le(pk.x, 32) + le(pk.y, 32)), push(4, le(z, 32)), push(4, le(r, 32)),
      push(4, le(s, 32))];
    const point = (q) => [...limbs(q.x, 4), ...limbs(q.y, 4)];
    // pk given as a noble point (or { x, y } for (0, 0)); the answer from noble's group law
    const caseFor = (pk, z, r, s, id) => {
      const what = `${id}: pk ${pk.x},${pk.y} z ${z} r ${r} s ${s}`;
      if (s % n === 0n) return fcallCase(what, pushes(pk, z, r, s), id, [], name);
      const w = invMod(s, n), u1 = mod(z * w, n), u2 = mod(r * w, n);
      let q = Pt.BASE.multiplyUnsafe(u1);
      if (pk.x || pk.y) q = q.add(Pt.fromAffine(pk).multiplyUnsafe(u2));
      return fcallCase(what, pushes(pk, z, r, s), id, q.is0() ? point({ x: 0n, y: 0n }) : point(q.toAffine()));
    };
    const key = (d) => Pt.BASE.multiply(d).toAffine();
    // G + PK by the chord rule, for a PK off the curve (ZisK's own test: "PK not in the curve works")
    const chord = (a, b) => {
      const l = mod((b.y - a.y) * invMod(b.x - a.x, p), p);
      const x = mod(l * l - a.x - b.x, p);
      return { x, y: mod(l * (a.x - x) - a.y, p) };
    };
    calls.push({
      name,
      reference: '@noble/curves (z/s) G + (r/s) PK; s = 0 mod n panics',
      guest: GUEST,
      quick: 150,
      random: (rng) => caseFor(key(1n + rng.below(n - 1n)), rng.bits(256), 1n + rng.below(n - 1n), 1n + rng.below(n - 1n),
        rng.pick(ids)),
      edges: () => {
        const d = 0x1234567n, pk = key(d), cases = [];
        for (const id of ids) {
          cases.push(caseFor({ x: 0n, y: 0n }, 1n, 1n, 1n, id)); // PK (0, 0): G
          cases.push(caseFor(pk, 0n, 5n, 7n, id));
          cases.push(caseFor(pk, 5n, 0n, 7n, id));
          cases.push(caseFor(pk, 0n, 0n, 1n, id)); // (0, 0)
          cases.push(caseFor(pk, mod(-3n * d, n), 3n, 11n, id)); // z + r d = 0: the point at infinity
          cases.push(caseFor(key(n - 1n), 9n, 9n, 2n, id)); // PK = -G, u1 = u2: infinity
          cases.push(caseFor(key(1n), 9n, 9n, 2n, id)); // PK = G: doublings of G
          cases.push(caseFor(pk, n + 5n, (1n << 256n) - 1n, n - 1n, id)); // z, r not below n
          cases.push(caseFor(pk, 1n, 1n, 0n, id)); // s = 0 panics
          cases.push(caseFor(pk, 1n, 1n, n, id)); // s = n panics
          const words = (ws) => ws.reduce((v, w, i) => v | (w << BigInt(64 * i)), 0n);
          const off = { x: words([1n, 2n, 3n, 4n]), y: words([5n, 6n, 7n, 8n]) };
          const want = chord(G, off);
          cases.push(fcallCase(`${id}: PK off the curve (ZisK's test)`, pushes(off, 1n, 1n, 1n), id, point(want)));
          // 16 words: no call of id 4; id 5 is then v0.16's msm_edges, which ZisK's host has no arm for
          if (id === ids[0]) {
            cases.push(fcallCase(`${id}: 16 words pushed`, pushes(pk, 1n, 1n, 1n).slice(0, 3), id, [],
              id === 5 ? 'fcall_secp256k1_msm_edges' : name));
          }
        }
        return cases;
      },
    });
  }
}

// uint256 div / inv / inv_mod, bigint_div, bin_decomp, msb_pos_384 (zisklib/fcalls_impl/uint256/,
// bigint_div.rs, bin_decomp.rs, msb_pos_384.rs; v0.16's big_int256_div.rs, big_int_div.rs).
// Reference: BigInt division, the extended Euclidean algorithm, the binary digits.
export function integerCalls(calls, { push, pushValue, limbs, fcallCase }) {
  const U256 = 1n << 256n;
  const div = (a, b, id, name) => fcallCase(`${id}: ${a} / ${b}`, [push(4, le(a, 32)), push(4, le(b, 32))], id,
    b ? [...limbs(a / b, 4), ...limbs(a % b, 4)] : [], b ? null : name);
  for (const [id, name] of [[19, 'fcall_uint256_div'], [16, 'fcall_big_int256_div']]) {
    calls.push({
      name,
      reference: 'BigInt / and %; b = 0 panics',
      guest: GUEST,
      quick: 300,
      random: (rng) => div(rng.bits(1 + rng.int(256)), rng.bits(1 + rng.int(256)) || 1n, id, name),
      edges: () => [div(0n, 1n, id, name), div(U256 - 1n, 1n, id, name), div(5n, U256 - 1n, id, name),
        div(U256 - 1n, U256 - 1n, id, name), div(7n, 0n, id, name)],
    });
  }
  // inv (id 20): a -> [1, a^-1 mod 2^256] or [0, 0, 0, 0, 0]; inv_mod (21): a, m -> the same mod m
  const inverse = (a, m) => {
    const r = invMod(a, m);
    return r === null ? ['0', ...limbs(0n, 4)] : ['1', ...limbs(r, 4)];
  };
  const inv = (a) => fcallCase(`a ${a}`, [push(4, le(a, 32))], 20, inverse(a, U256));
  calls.push({
    name: 'fcall_uint256_inv',
    reference: 'BigInt extended Euclid mod 2^256',
    guest: GUEST,
    quick: 300,
    random: (rng) => inv(rng.bits(256)),
    edges: () => [inv(0n), inv(1n), inv(2n), inv(U256 - 1n), inv(U256 - 2n)],
  });
  const invm = (a, m) => fcallCase(`a ${a} m ${m}`, [push(4, le(a, 32)), push(4, le(m, 32))], 21,
    m ? inverse(a, m) : [], m ? null : 'fcall_uint256_inv_mod');
  calls.push({
    name: 'fcall_uint256_inv_mod',
    reference: 'BigInt extended Euclid; m = 0 panics, m = 1 gives [1, 0]',
    guest: GUEST,
    quick: 300,
    random: (rng) => invm(rng.bits(1 + rng.int(256)), 2n + rng.bits(1 + rng.int(255))),
    edges: () => [invm(3n, 0n), invm(3n, 1n), invm(0n, 7n), invm(7n, 7n), invm(14n, 7n), invm(6n, 4n), invm(3n, 4n),
      invm(U256 - 1n, U256 - 1n), invm(2n, U256 - 1n)],
  });
  // bigint_div (v0.17.0+ id 22; v0.16's big_int_div, id 17): len_a, a, len_b, b, each word pushed by
  // value -> len_q, q, len_r, r, each padded to a multiple of 4 words; 0 is 4 words, but v0.16's q = 0
  // is none
  const padded = (v, zeroEmpty) => {
    const words = v ? Math.ceil(Math.ceil(bitLength(v) / 64) / 4) * 4 : zeroEmpty ? 0 : 4;
    return [words.toString(16), ...limbs(v, words)];
  };
  const bigDiv = (a, la, b, lb, id) => {
    const name = id === 22 ? 'fcall_bigint_div' : 'fcall_big_int_div';
    const words = (v, n) => limbs(v, n).map((w) => pushValue(BigInt(`0x${w}`)));
    const lines = [pushValue(BigInt(la)), ...words(a, la), pushValue(BigInt(lb)), ...words(b, lb)];
    return fcallCase(`${id}: ${a} (${la}) / ${b} (${lb})`, lines, id,
      b ? [...padded(a / b, id === 17), ...padded(a % b, false)] : [], b ? null : name);
  };
  for (const id of [22, 17]) {
    calls.push({
      name: id === 22 ? 'fcall_bigint_div' : 'fcall_big_int_div',
      reference: 'BigInt / and %, padded to 4 words; b = 0 panics',
      guest: GUEST,
      quick: 150,
      random: (rng) => {
        const la = rng.int(10), lb = 1 + rng.int(6);
        return bigDiv(rng.bits(64 * la), la, rng.bits(64 * lb) || 1n, lb, id);
      },
      edges: () => [bigDiv(0n, 0, 5n, 1, id), bigDiv(3n, 1, 5n, 1, id), bigDiv(1n << 600n, 10, 1n << 300n, 5, id),
        bigDiv(5n, 1, 0n, 2, id), bigDiv((1n << 256n) - 1n, 4, 1n, 1, id)],
    });
  }
  // bin_decomp (v0.17.0+ id 16; v0.16 id 18): len, x (len words, each by value) -> [n, the n bits from
  // the highest set one down]; 0 gives [1, 0]; past 8192 bits ZisK's result words overrun (panics)
  const decomp = (x, len, id) => {
    const bits = x ? x.toString(2).split('') : ['0'];
    const lines = [pushValue(BigInt(len)), ...limbs(x, len).map((w) => pushValue(BigInt(`0x${w}`)))];
    return fcallCase(`${id}: ${x} (${len})`, lines, id, bits.length + 1 > 8193 ? [] : [bits.length.toString(16), ...bits],
      bits.length + 1 > 8193 ? 'fcall_bin_decomp' : null);
  };
  for (const id of [16, 18]) {
    calls.push({
      name: `fcall_bin_decomp (id ${id})`,
      reference: 'BigInt binary digits',
      guest: GUEST,
      quick: 100,
      random: (rng) => {
        const len = rng.int(4);
        return decomp(rng.bits(64 * len), len, id);
      },
      edges: () => [decomp(0n, 0, id), decomp(0n, 3, id), decomp(1n, 1, id), decomp(1n << 191n, 3, id),
        decomp((1n << 8192n) - 1n, 128, id), decomp(1n << 8192n, 129, id),
        // len 4 with the words as a block: neither numbering's call of the id (a fault naming v0.17's)
        fcallCase(`${id}: len, then a block`, [pushValue(4n), push(4, le(9n, 32))], id, [],
          id === 16 ? 'fcall_bin_decomp' : 'fcall_msb_pos_384')],
    });
  }
  // msb_pos_384 (v0.17.0+ id 18; v0.16 id 15): x, y (8 words each, 6 used) -> [limb, bit] of the
  // highest set bit of the larger; both 0 panics
  const msb384 = (x, y, id) => {
    const [x6, y6] = [x % (1n << 384n), y % (1n << 384n)];
    const hi = x6 > y6 ? x6 : y6, pos = BigInt(bitLength(hi) - 1);
    const lines = [push(8, le(x, 64)), push(8, le(y, 64))];
    return fcallCase(`${id}: ${x}, ${y}`, lines, id, hi ? [(pos / 64n).toString(16), (pos % 64n).toString(16)] : [],
      hi ? null : 'fcall_msb_pos_384');
  };
  for (const id of [18, 15]) {
    calls.push({
      name: `fcall_msb_pos_384 (id ${id})`,
      reference: 'BigInt bit length of the larger',
      guest: GUEST,
      quick: 200,
      random: (rng) => msb384(rng.bits(1 + rng.int(384)), rng.bits(1 + rng.int(384)), id),
      edges: () => [msb384(0n, 1n, id), msb384(1n << 383n, 0n, id), msb384(0n, 0n, id),
        msb384(0xffn << 384n, 0n, id) /* words 6, 7 are not read */],
    });
  }
}

// bn254 twist add / dbl line coefficients (ids 8, 9), BLS12-381's (v0.17.0+ ids 14, 15; v0.16 13, 14) and
// BLS12-381's fp2_sqrt (v0.17.0+ id 13, v0.16 id 19) (fcalls_impl/bn254/twist.rs, bls12_381/twist.rs,
// fp2_sqrt.rs). Reference: @noble/curves Fp2 and G2 points.
export function fp2Calls(calls, { bn254, bls12_381, push, limbs, fcallCase }) {
  for (const [curve, label, n, addIds, dblIds] of [[bn254, 'bn254', 4, [8], [9]],
    [bls12_381, 'bls12_381', 6, [14, 13], [15, 14]]]) {
    const Fp2 = curve.fields.Fp2, G2 = curve.G2.Point;
    const words = (e) => [...limbs(e.c0, n), ...limbs(e.c1, n)];
    const bytes = (...es) => es.map((e) => le(e.c0, 8 * n) + le(e.c1, 8 * n)).join('');
    // the pushes of the points' coordinates, as 2n-word blocks (ziskos: 16 / 24 words a point)
    const pushes = (...es) => {
      const out = [];
      for (let i = 0; i < es.length; i += 2) out.push(push(4 * n, bytes(es[i], es[i + 1])));
      return out;
    };
    const line = (l, x, y) => [...words(l), ...words(Fp2.sub(y, Fp2.mul(l, x)))];
    const addName = `fcall_${label}_twist_add_line_coeffs`, dblName = `fcall_${label}_twist_dbl_line_coeffs`;
    const addCase = (a, b, id) => {
      const d = Fp2.sub(b.x, a.x);
      return fcallCase(`${id}: ${a.x.c0}.. + ${b.x.c0}..`, pushes(a.x, a.y, b.x, b.y), id,
        Fp2.is0(d) ? [] : line(Fp2.mul(Fp2.sub(b.y, a.y), Fp2.inv(d)), a.x, a.y), Fp2.is0(d) ? addName : null);
    };
    const dblCase = (a, id) => fcallCase(`${id}: 2 (${a.x.c0}..)`, pushes(a.x, a.y), id,
      Fp2.is0(a.y) ? [] : line(Fp2.div(Fp2.mul(Fp2.sqr(a.x), Fp2.create({ c0: 3n, c1: 0n })), Fp2.add(a.y, a.y)), a.x, a.y),
      Fp2.is0(a.y) ? dblName : null);
    const p = curve.fields.Fp.ORDER;
    const el = (rng) => Fp2.create({ c0: rng.below(p), c1: rng.below(p) });
    // a point of G2 (a few, made once: noble's G2 multiply is slow) or, one time in two, any two
    // elements (the formulas ask no curve)
    const pool = [];
    const pt = (rng) => {
      if (rng.int(2)) return { x: el(rng), y: el(rng) };
      if (pool.length < 8) pool.push(G2.BASE.multiply(1n + rng.bits(128)).toAffine());
      return rng.pick(pool);
    };
    const g = G2.BASE.toAffine();
    for (const id of addIds) {
      calls.push({
        name: `${addName} (id ${id})`,
        reference: '@noble/curves Fp2: lambda = (y2 - y1) / (x2 - x1), mu = y1 - lambda x1; x1 = x2 panics',
        guest: GUEST,
        quick: 100,
        random: (rng) => addCase(pt(rng), pt(rng), id),
        edges: () => [addCase(g, G2.BASE.negate().toAffine(), id), addCase(g, g, id),
          addCase(g, G2.BASE.double().toAffine(), id)],
      });
    }
    for (const id of dblIds) {
      calls.push({
        name: `${dblName} (id ${id})`,
        reference: '@noble/curves Fp2: lambda = 3 x^2 / 2 y, mu = y - lambda x; y = 0 panics',
        guest: GUEST,
        quick: 100,
        random: (rng) => dblCase(pt(rng), id),
        edges: () => [dblCase(g, id), dblCase({ x: g.x, y: Fp2.ZERO }, id), dblCase({ x: Fp2.ZERO, y: Fp2.ONE }, id)],
      });
    }
  }
  // fp2_sqrt: a -> [1, a root], or [0, a root of a (1 + u)] when a is no square. The root is the one
  // Algorithm 9 of eprint.iacr.org/2012/685 (p = 3 mod 4) gives, written here from the paper over
  // noble's Fp2; each answer is also checked to square to a (or a (1 + u)).
  {
    const Fp2 = bls12_381.fields.Fp2, p = bls12_381.fields.Fp.ORDER;
    const minusOne = Fp2.create({ c0: p - 1n, c1: 0n });
    const alg9 = (a) => {
      const a1 = Fp2.pow(a, (p - 3n) / 4n);
      const alpha = Fp2.mul(Fp2.sqr(a1), a);
      const a0 = Fp2.mul(Fp2.create({ c0: alpha.c0, c1: mod(-alpha.c1, p) }), alpha);
      if (Fp2.eql(a0, minusOne)) return null;
      const x0 = Fp2.mul(a1, a);
      if (Fp2.eql(alpha, minusOne)) return Fp2.mul(Fp2.create({ c0: 0n, c1: 1n }), x0);
      return Fp2.mul(Fp2.pow(Fp2.add(Fp2.ONE, alpha), (p - 1n) / 2n), x0);
    };
    const nqr = Fp2.create({ c0: 1n, c1: 1n });
    const sqrtCase = (a, id) => {
      let r = alg9(a), ok = 1n;
      if (r === null) [r, ok] = [alg9(Fp2.mul(a, nqr)), 0n];
      if (!Fp2.eql(Fp2.sqr(r), ok ? a : Fp2.mul(a, nqr))) throw new Error(`Algorithm 9 gave no root of ${a.c0}, ${a.c1}`);
      return fcallCase(`${id}: ${a.c0}, ${a.c1}`, [push(16, le(a.c0, 48) + le(a.c1, 48) + le(0n, 32))], id,
        [ok.toString(16), ...limbs(r.c0, 6), ...limbs(r.c1, 6)]);
    };
    for (const id of [13, 19]) {
      calls.push({
        name: `fcall_bls12_381_fp2_sqrt (id ${id})`,
        reference: 'Algorithm 9 (eprint 2012/685) over @noble/curves Fp2, root^2 checked',
        guest: GUEST,
        quick: 60,
        random: (rng) => {
          const a = Fp2.create({ c0: rng.below(p), c1: rng.below(p) });
          return sqrtCase(rng.int(2) ? Fp2.sqr(a) : a, id);
        },
        edges: () => [sqrtCase(Fp2.ZERO, id), sqrtCase(Fp2.ONE, id), sqrtCase(minusOne, id),
          sqrtCase(Fp2.create({ c0: 0n, c1: 1n }), id), sqrtCase(nqr, id), sqrtCase(Fp2.create({ c0: 4n, c1: 0n }), id)],
      });
    }
  }
}
