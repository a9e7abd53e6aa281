// What every zkVM's call suite shares: a seeded random source, the byte
// encodings the zkVMs use for numbers, and the request lines call_harness
// reads (tests/precompile/call_harness.c says their grammar).

// SplitMix64: a fixed seed gives the same inputs on every run.
export class Rng {
  constructor(seed) {
    this.s = BigInt.asUintN(64, BigInt(seed));
  }
  next64() {
    this.s = BigInt.asUintN(64, this.s + 0x9e3779b97f4a7c15n);
    let z = this.s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }
  // A number of `bits` bits, uniform.
  bits(bits) {
    let v = 0n;
    for (let have = 0; have < bits; have += 64) v = (v << 64n) | this.next64();
    return BigInt.asUintN(bits, v);
  }
  // Below n (n > 0), uniform enough for tests.
  below(n) {
    const b = n.toString(2).length + 64;
    return this.bits(b) % n;
  }
  int(n) {
    return Number(this.below(BigInt(n)));
  }
  bytes(n) {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Number(this.next64() & 0xffn);
    return out;
  }
  pick(list) {
    return list[this.int(list.length)];
  }
}

// v as `size` little-endian bytes, in hex (memory order).
export function le(v, size) {
  let s = '';
  for (let i = 0; i < size; i++) {
    s += Number((v >> BigInt(8 * i)) & 0xffn).toString(16).padStart(2, '0');
  }
  if (v >> BigInt(8 * size)) throw new Error(`${v} does not fit ${size} bytes`);
  return s;
}

// Little-endian bytes in hex back to a number.
export function fromLe(hex) {
  let v = 0n;
  for (let i = hex.length - 2; i >= 0; i -= 2) v = (v << 8n) | BigInt(parseInt(hex.slice(i, i + 2), 16));
  return v;
}

export function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export function beBytesToBigint(bytes) {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return v;
}

export function mod(a, p) {
  const r = a % p;
  return r < 0n ? r + p : r;
}

export function modpow(b, e, p) {
  let r = 1n;
  b = mod(b, p);
  for (; e > 0n; e >>= 1n) {
    if (e & 1n) r = (r * b) % p;
    b = (b * b) % p;
  }
  return r;
}

// One call: registers, memory written before, the action, and what is read
// after. `want` is the line call_harness must print.
export class Call {
  constructor() {
    this.tokens = [];
  }
  reg(n, v) {
    this.tokens.push(`x${n}=${BigInt(v).toString(16)}`);
    return this;
  }
  mem(addr, hexBytes) {
    if (hexBytes.length) this.tokens.push(`m${addr.toString(16)}=${hexBytes}`);
    return this;
  }
  ecall() {
    this.tokens.push('ecall');
    return this;
  }
  insn(word) {
    this.tokens.push(`insn=${(word >>> 0).toString(16)}`);
    return this;
  }
  read(addr, len) {
    this.tokens.push(`r${addr.toString(16)}:${len}`);
    return this;
  }
  readReg(n) {
    this.tokens.push(`x${n}?`);
    return this;
  }
  line() {
    return this.tokens.join(' ');
  }
}

// RISC-V register numbers by ABI name.
export const REG = { t0: 5, a0: 10, a1: 11, a2: 12, a3: 13, a4: 14, a5: 15, a6: 16, a7: 17 };
