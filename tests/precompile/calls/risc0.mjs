// RISC Zero's calls (executor/abi/risc0.c), checked against @noble/hashes,
// @noble/curves and BigInt. The contracts are those of RISC Zero v3.0.6
// (risc0/risc0 1cc70cf0, the latest release): the user ecalls as the
// v1compat kernel passes them on (risc0/zkos/v1compat/src/main.rs,
// kernel.s) and the machine ecalls of the executor
// (risc0/circuit/rv32im/src/execute/: sha2.rs, bigint.rs, bibc.rs);
// software calls as the host runs them
// (risc0/zkvm/src/host/server/exec/syscall/). A kernel `unimp` or an
// executor error is a fault of the call.
import { Call, REG, hex, le } from './common.mjs';

const GUEST = 'zkvm-risc0-rv32.elf';
const A = 0x10000000; // flat read-write user memory [0x1_0000, 0xC000_0000)
const B = 0x10001000;
const C = 0x10002000;
const D = 0x10003000;
const E = 0x10004000;
const F = 0x10005000;
const PROG = 0x10010000;
const T1 = 6, T2 = 7, T3 = 28;
const PREFIX = 'risc0_zkvm_platform::syscall::nr::';

const ascii = (s) => hex(new TextEncoder().encode(s));

function ecall(kind, ...regs) {
  const c = new Call().reg(REG.t0, kind);
  regs.forEach((v, i) => c.reg(REG.a0 + i, v));
  return c;
}

// ---- a "bibc" program (execute/bibc.rs @ v3.0.6): header, types, constants, ops ----
const OP = { Const: 2, Load: 3, Store: 4, Add: 8, Sub: 9, Mul: 10, Rem: 11, Quo: 12, Inv: 14 };
class Bibc {
  constructor(typeBytes = [32]) {
    this.types = typeBytes; // each type's coefficients: the bytes a Load or Store moves
    this.consts = [];
    this.ops = [];
  }
  op(code, type, a, b) {
    this.ops.push(BigInt(code) | (BigInt(type) << 4n) | (BigInt(a) << 16n) | (BigInt(b) << 40n));
    return this.ops.length - 1;
  }
  load(reg, type = 0, offset = 0) { return this.op(OP.Load, type, (reg << 16) | offset, 0); }
  store(reg, value, type = 0, offset = 0) { return this.op(OP.Store, type, (reg << 16) | offset, value); }
  konst(v, limbs) {
    const at = this.consts.length;
    for (let i = 0; i < limbs; i++) this.consts.push((v >> BigInt(64 * i)) & ((1n << 64n) - 1n));
    return this.op(OP.Const, 0, at, limbs);
  }
  arith(name, a, b) { return this.op(OP[name], 0, a, b); }
  bytes() {
    const u32 = (v) => le(BigInt(v), 4);
    let s = ascii('bibc') + u32(1) + u32(0) + u32(this.types.length) + u32(this.consts.length) + u32(this.ops.length);
    for (const t of this.types) s += le(BigInt(t), 8) + le(0n, 8) + le(0n, 8) + le(0n, 8);
    for (const c of this.consts) s += le(c, 8);
    for (const o of this.ops) s += le(o, 8);
    return s;
  }
}

// A BIGINT2 call running `prog`: the blob's header at a0 (nondet size in words,
// verify 0, consts 0), the program at t1; arenas a1.. a6 as given.
function bigint2(prog, arenas, mems) {
  const code = prog.bytes();
  const c = new Call().reg(REG.t0, 6).reg(REG.a0, PROG).reg(T1, PROG + 0x100).reg(T2, PROG + 0x100).reg(T3, PROG + 0x100);
  c.mem(PROG, le(BigInt(code.length / 8), 4) + le(0n, 4) + le(0n, 4) + le(0n, 4)).mem(PROG + 0x100, code);
  arenas.forEach((v, i) => c.reg(REG.a1 + i, v));
  for (const [at, bytes] of mems) c.mem(at, bytes);
  return c.ecall();
}

export async function suite({ npm }) {
  const { _SHA256 } = await npm('@noble/hashes/sha2.js');
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  const { secp256k1 } = await npm('@noble/curves/secp256k1.js');
  const calls = [];

  // ---- SHA (t0 = 3): a0 out, a1 in (the digest's bytes: big-endian words), a2 / a3 the
  // first block's halves, a4 blocks. Contiguous halves go to the host's sha2 ecall, which
  // drops the pointers' low two bits (execute/sha2.rs guest_addr(..).waddr()); separate
  // halves are copied into one kernel block (main.rs ecall_sha), good for one block only.
  const shaState = (hBytes, blocks) => {
    const v = new DataView(hBytes.buffer, hBytes.byteOffset, 32);
    const sha = new _SHA256();
    sha.set(...Array.from({ length: 8 }, (_, i) => v.getUint32(4 * i, false)));
    for (const b of blocks) sha.process(new DataView(b.buffer, b.byteOffset, 64), 0);
    const out = new DataView(new ArrayBuffer(32));
    sha.get().forEach((w, i) => out.setUint32(4 * i, w >>> 0, false));
    return hex(new Uint8Array(out.buffer));
  };
  const shaLine = (out, inp, b1, b2, count, h, data) =>
    ecall(3, out, inp, b1, b2, count).mem(inp, hex(h)).mem(b1, hex(data)).ecall().read(out & ~3, 32).line();
  calls.push({
    name: 'SHA',
    reference: '@noble/hashes _SHA256.process on the same state and blocks',
    guest: GUEST,
    random(rng) {
      const count = rng.int(5);
      const h = rng.bytes(32), data = rng.bytes(64 * count);
      const blocks = Array.from({ length: count }, (_, i) => data.subarray(64 * i, 64 * i + 64));
      const out = rng.int(4) ? B : A; // out = in (as the kernel's later chunks) or apart
      const d = C + 4 * rng.int(64);
      return { what: `${count} blocks h ${hex(h)} data ${hex(data)}`, lines: [shaLine(out, A, d, d + 32, count, h, data)], want: `ok - ${shaState(h, blocks)}` };
    },
    edges() {
      const h = new Uint8Array(32).map((_, i) => i * 7 + 1);
      const blk = new Uint8Array(64).map((_, i) => 255 - i);
      const apart = (count) => ecall(3, B, A, C, E, count).mem(A, hex(h)).mem(C, hex(blk.subarray(0, 32))).mem(E, hex(blk.subarray(32))).ecall().read(B, 32).line();
      const big = new Uint8Array(64 * 12).map((_, i) => (i * 31) & 0xff);
      const bigBlocks = Array.from({ length: 12 }, (_, i) => big.subarray(64 * i, 64 * i + 64));
      return [
        { what: '0 blocks: in copied to out', lines: [shaLine(B, A, C, C + 32, 0, h, blk)], want: `ok - ${hex(h)}` },
        { what: 'halves apart, 1 block', lines: [apart(1)], want: `ok - ${shaState(h, [blk])}` },
        { what: 'halves apart, 2 blocks: the kernel reads its own memory', lines: [apart(2)], want: { fault: 'SHA' } },
        { what: '12 blocks: the kernel splits at 10', lines: [shaLine(B, A, D, D + 32, 12, h, big)], want: `ok - ${shaState(h, bigBlocks)}` },
        { what: 'in state not aligned: read from the word below', lines: [ecall(3, B, A + 2, C, C + 32, 1).mem(A, hex(h)).mem(C, hex(blk)).ecall().read(B, 32).line()], want: `ok - ${shaState(h, [blk])}` },
        { what: 'out state not aligned: written to the word below', lines: [ecall(3, B + 3, A, C, C + 32, 1).mem(A, hex(h)).mem(C, hex(blk)).ecall().read(B, 32).line()], want: `ok - ${shaState(h, [blk])}` },
        { what: 'contiguous data not aligned: read from the word below', lines: [ecall(3, B, A, C + 1, C + 33, 1).mem(A, hex(h)).mem(C, hex(blk)).ecall().read(B, 32).line()], want: `ok - ${shaState(h, [blk])}` },
        { what: 'zero state and block', lines: [shaLine(B, A, C, C + 32, 1, new Uint8Array(32), new Uint8Array(64))], want: `ok - ${shaState(new Uint8Array(32), [new Uint8Array(64)])}` },
        { what: 'state past user memory', lines: [ecall(3, B, 0xc0000000, C, C + 32, 1).ecall().line()], want: { fault: 'SHA' } },
      ];
    },
  });

  // ---- BIGINT (t0 = 4): z (a0) = x (a2) * y (a3) mod N (a4), a1 = 0; 8 little-endian
  // words each. main.rs ecall_bigint_v1compat: N = 0 runs mul_256 and stops at unimp when
  // the product's high half is not 0; else modmul_256, fully reduced (bibc Rem).
  const TOP = (1n << 256n) - 1n;
  const bigLine = (x, y, n, z = E) => ecall(4, z, 0, A, B, C).mem(A, le(x, 32)).mem(B, le(y, 32)).mem(C, le(n, 32)).ecall().read(z, 32).line();
  const bigWant = (x, y, n) => (n === 0n ? (x * y > TOP ? { fault: 'BIGINT' } : `ok - ${le(x * y, 32)}`) : `ok - ${le((x * y) % n, 32)}`);
  calls.push({
    name: 'BIGINT',
    reference: 'BigInt',
    guest: GUEST,
    random(rng) {
      const n = rng.pick([0n, rng.bits(256), rng.bits(rng.int(256) + 1) || 1n, secp256k1.Point.Fp.ORDER, 1n]);
      const x = rng.pick([rng.bits(256), n ? rng.below(n) : rng.bits(128)]);
      const y = rng.pick([rng.bits(256), n ? rng.below(n) : rng.bits(128)]);
      return { what: `x ${x} y ${y} n ${n}`, lines: [bigLine(x, y, n)], want: bigWant(x, y, n) };
    },
    edges: () => [
      ...[[0n, 0n, 0n], [TOP, 1n, 0n], [TOP, 2n, 0n], [1n << 128n, 1n << 128n, 0n], [(1n << 128n) - 1n, (1n << 128n) + 1n, 0n],
        [TOP, TOP, TOP], [TOP, TOP, TOP - 1n], [5n, 7n, 1n], [TOP, TOP, 3n]].map(([x, y, n]) => ({ what: `x ${x} y ${y} n ${n}`, lines: [bigLine(x, y, n)], want: bigWant(x, y, n) })),
      { what: 'z = x (in place)', lines: [bigLine(123n, 456n, 1000n, A)], want: `ok - ${le((123n * 456n) % 1000n, 32)}` },
      { what: 'op 1: unimp', lines: [ecall(4, E, 1, A, B, C).ecall().line()], want: { fault: 'BIGINT' } },
      { what: 'x not aligned: the host refuses an unaligned arena', lines: [ecall(4, E, 0, A + 2, B, C).ecall().line()], want: { fault: 'BIGINT' } },
      { what: 'z not aligned', lines: [ecall(4, E + 1, 0, A, B, C).ecall().line()], want: { fault: 'BIGINT' } },
    ],
  });

  // ---- BIGINT2 (t0 = 6): programs in the bibc bytecode, run by the host (bibc.rs eval):
  // values are signed; Rem and Quo truncate; Inv is |a| mod |b| inverted; Store writes |v|.
  const p = secp256k1.Point.Fp.ORDER;
  const binary = (name, post) => {
    const g = new Bibc([32, 64]);
    const x = g.load(11), y = g.load(12), n = g.load(13);
    let v = g.arith(name, x, y);
    if (post) v = g.arith(post, v, n);
    g.store(14, v, post === 'Quo' || !post ? 1 : 0);
    return g;
  };
  const programs = [
    ['modmul', binary('Mul', 'Rem'), (x, y, n) => (n ? (x * y) % n : null), 32],
    ['modadd', binary('Add', 'Rem'), (x, y, n) => (n ? (x + y) % n : null), 32],
    ['quotient x*y / n', binary('Mul', 'Quo'), (x, y, n) => (n ? (x * y) / n : null), 64],
    ['sub: |x - y|', binary('Sub'), (x, y) => (x > y ? x - y : y - x), 64],
    ['mul: 512 bits', binary('Mul'), (x, y) => x * y, 64],
  ];
  for (const [name, prog, ref, width] of programs) {
    const line = (x, y, n) => bigint2(prog, [A, B, C, D], [[A, le(x, 32)], [B, le(y, 32)], [C, le(n, 32)]]).read(D, width).line();
    const want = (x, y, n) => { const r = ref(x, y, n); return r === null ? { fault: 'BIGINT2' } : `ok - ${le(r, width)}`; };
    calls.push({
      name: `BIGINT2 ${name}`,
      reference: 'BigInt',
      guest: GUEST,
      random(rng) {
        const n = rng.pick([rng.bits(256) || 1n, p, rng.bits(rng.int(256) + 1) || 1n]);
        const x = rng.pick([rng.bits(256), rng.below(n)]), y = rng.pick([rng.bits(256), rng.below(n)]);
        return { what: `x ${x} y ${y} n ${n}`, lines: [line(x, y, n)], want: want(x, y, n) };
      },
      edges: () => [[0n, 0n, 1n], [TOP, TOP, TOP], [TOP, TOP, 1n], [5n, 9n, 0n], [p - 1n, p - 1n, p]].map(([x, y, n]) => ({ what: `x ${x} y ${y} n ${n}`, lines: [line(x, y, n)], want: want(x, y, n) })),
    });
  }

  // Inv: the inverse of |x| mod n, stored; none (x = 0 mod n, or gcd > 1): "divide by zero".
  const invProg = (() => { const g = new Bibc([32]); const x = g.load(11), n = g.load(13); g.store(14, g.arith('Inv', x, n)); return g; })();
  const gcd = (a, b) => (b ? gcd(b, a % b) : a);
  const invWant = (x, n) => {
    if (n <= 1n) return { fault: 'BIGINT2' };
    const a = x % n;
    if (a === 0n || gcd(a, n) !== 1n) return { fault: 'BIGINT2' };
    let [r0, r1, s0, s1] = [n, a, 0n, 1n];
    while (r1) { const q = r0 / r1; [r0, r1] = [r1, r0 - q * r1]; [s0, s1] = [s1, s0 - q * s1]; }
    return `ok - ${le(((s0 % n) + n) % n, 32)}`;
  };
  const invLine = (x, n) => bigint2(invProg, [A, B, C, D], [[A, le(x, 32)], [C, le(n, 32)]]).read(D, 32).line();
  calls.push({
    name: 'BIGINT2 inverse',
    reference: 'BigInt extended Euclid',
    guest: GUEST,
    random(rng) {
      const n = rng.pick([p, secp256k1.Point.Fn.ORDER, rng.bits(256) | 1n, rng.bits(64) + 2n]);
      const x = rng.pick([rng.below(n), rng.bits(256)]);
      return { what: `x ${x} n ${n}`, lines: [invLine(x, n)], want: invWant(x, n) };
    },
    edges: () => [[0n, p], [p, p], [1n, p], [p + 1n, p], [6n, 9n], [TOP, p], [3n, 0n]].map(([x, n]) => ({ what: `x ${x} n ${n}`, lines: [invLine(x, n)], want: invWant(x, n) })),
  });

  // An affine secp256k1 addition, as a risc0-bigint2 style program: p as a constant (Const).
  const ecProg = (() => {
    const g = new Bibc([64]);
    const P = g.konst(p, 4), twoP = g.konst(2n * p, 5);
    const x1 = g.load(11), y1 = g.load(11, 0, 4), x2 = g.load(12), y2 = g.load(12, 0, 4);
    const dx = g.arith('Sub', g.arith('Add', x2, P), x1);
    const dy = g.arith('Sub', g.arith('Add', y2, P), y1);
    const lam = g.arith('Rem', g.arith('Mul', dy, g.arith('Inv', dx, P)), P);
    const x3 = g.arith('Rem', g.arith('Sub', g.arith('Sub', g.arith('Add', g.arith('Mul', lam, lam), twoP), x1), x2), P);
    const y3 = g.arith('Rem', g.arith('Sub', g.arith('Add', g.arith('Mul', lam, g.arith('Sub', g.arith('Add', x1, P), x3)), P), y1), P);
    g.store(13, x3);
    g.store(13, y3, 0, 4);
    return g;
  })();
  const pt = (P) => le(P.x, 32) + le(0n, 32) + le(P.y, 32) + le(0n, 32); // 64-byte slots (type of 64 coefficients)
  calls.push({
    name: 'BIGINT2 secp256k1 add',
    reference: '@noble/curves secp256k1 Point.add',
    guest: GUEST,
    max: 500,
    random(rng) {
      const P = secp256k1.Point.BASE.multiply(1n + rng.below(secp256k1.Point.Fn.ORDER - 1n)).toAffine();
      const Q = secp256k1.Point.BASE.multiply(1n + rng.below(secp256k1.Point.Fn.ORDER - 1n)).toAffine();
      const R = secp256k1.Point.fromAffine(P).add(secp256k1.Point.fromAffine(Q)).toAffine();
      return {
        what: `P ${P.x},${P.y} Q ${Q.x},${Q.y}`,
        lines: [bigint2(ecProg, [A, B, C], [[A, pt(P)], [B, pt(Q)]]).read(C, 128).line()],
        want: `ok - ${pt(R)}`,
      };
    },
    edges() {
      const G = secp256k1.Point.BASE.toAffine();
      return [{ what: 'P + P: no inverse of 0', lines: [bigint2(ecProg, [A, B, C], [[A, pt(G)], [B, pt(G)]]).line()], want: { fault: 'BIGINT2' } }];
    },
  });

  // Malformed programs: the executor's asserts and errors (bibc.rs, bigint.rs).
  calls.push({
    name: 'BIGINT2 errors',
    reference: 'execute/bibc.rs, bigint.rs @ v3.0.6',
    guest: GUEST,
    edges() {
      const wide = new Bibc([32]); wide.store(14, wide.arith('Mul', wide.load(11), wide.load(11)));
      const badReg = new Bibc([32]); badReg.load(5);
      const later = new Bibc([32]); later.op(OP.Add, 0, 1, 2); later.load(11); later.load(11);
      const unknown = new Bibc([32]); unknown.op(0xf, 0, 0, 0);
      const high = new Bibc([32]); high.store(14, high.load(11));
      const bad = (what, prog, arenas = [A, B, C, D], mems = [[A, le(TOP, 32)]]) => ({ what, lines: [bigint2(prog, arenas, mems).line()], want: { fault: 'BIGINT2' } });
      return [
        bad('a value wider than its store', wide),
        bad('t0 (x5) is no arena', badReg),
        bad('an operand not earlier', later),
        bad('an unknown op code', unknown),
        bad('an unaligned arena', high, [A + 2, B, C, D]),
        bad('a store at 0xBFFF_0000 or above', high, [A, B, C, 0xbfff0000]),
        { what: 'a load then a store below it', lines: [bigint2(high, [A, B, C, D], [[A, le(TOP - 1n, 32)]]).read(D, 32).line()], want: `ok - ${le(TOP - 1n, 32)}` },
      ];
    },
  });

  // ---- SOFTWARE (t0 = 2): the call's name at a2; SYS_KECCAK mode 0 permutes the state
  // at a4 into a0 (a1 = 50 words); mode 1 "proves" the batch (host syscall/keccak.rs).
  const name = (s) => ascii(PREFIX + s) + '00';
  const sw = (nr, ...regs) => {
    const c = new Call().reg(REG.t0, 2).reg(REG.a2, F).mem(F, name(nr));
    [[REG.a0, regs[0]], [REG.a1, regs[1]], [REG.a3, regs[2]], [REG.a4, regs[3]], [REG.a5, regs[4]]].forEach(([r, v]) => v !== undefined && c.reg(r, v));
    return c;
  };
  const permute = (bytes) => {
    const s = new Uint32Array(bytes.slice().buffer);
    keccakP(s, 24);
    return hex(new Uint8Array(s.buffer));
  };
  calls.push({
    name: 'sys_keccak',
    reference: '@noble/hashes keccakP (24 rounds)',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(200);
      const out = rng.int(2) ? B : A; // in place, or apart
      return {
        what: `state ${hex(state)}`,
        lines: [
          sw('SYS_KECCAK', out, 50, 0, A).mem(A, hex(state)).ecall().read(out, 200).readReg(REG.a0).line(),
          sw('SYS_KECCAK', 0, 0, 1, C, D).ecall().line(), // prove the batch: the next starts empty
        ],
        want: [`ok - ${permute(state)} 0`, 'ok -'],
      };
    },
    edges: () => [
      { what: 'a1 not 50', lines: [sw('SYS_KECCAK', B, 49, 0, A).ecall().line()], want: { fault: 'sys_keccak' } },
      { what: 'mode 2', lines: [sw('SYS_KECCAK', B, 50, 2, A).ecall().line()], want: { fault: 'sys_keccak' } },
    ],
  });

  calls.push({
    name: 'other kinds',
    reference: 'kernel.s, main.rs, host syscall handlers @ v3.0.6',
    guest: GUEST,
    edges: () => [
      { what: 'INPUT word 3: 0 (no input digest)', lines: [ecall(1, 3).ecall().readReg(REG.a0).line()], want: 'ok - 0' },
      { what: 'INPUT word 8: unimp', lines: [ecall(1, 8).ecall().line()], want: { fault: 'INPUT' } },
      { what: 'HALT terminate, exit 3', lines: [ecall(0, 0x300, A).ecall().line()], want: 'ok exit' },
      { what: 'HALT type 2: illegal', lines: [ecall(0, 2, A).ecall().line()], want: { fault: 'HALT' } },
      { what: 'USER (5): unimp', lines: [ecall(5).ecall().line()], want: { fault: 'USER' } },
      { what: 't0 = 8: past the kernel table', lines: [ecall(8).ecall().line()], want: { fault: '-' } },
      { what: 'SYS_GETENV: none set, a0 = -1', lines: [sw('SYS_GETENV', B, 4, A, 3).mem(A, ascii('FOO')).ecall().readReg(REG.a0).line()], want: 'ok - ffffffff' },
      { what: 'SYS_ARGC: 0', lines: [sw('SYS_ARGC', 0, 0).ecall().readReg(REG.a0).line()], want: 'ok - 0' },
      { what: 'SYS_READ fd 0 with no input: 0 bytes', lines: [sw('SYS_READ', B, 16, 0, 16).ecall().readReg(REG.a0).line()], want: 'ok - 0' },
      { what: 'SYS_WRITE fd 1', lines: [sw('SYS_WRITE', 0, 0, 1, A, 4).ecall().readReg(REG.a0).line()], want: 'ok - 0' },
      { what: 'SYS_EXIT: no handler', lines: [sw('SYS_EXIT', 0, 0).ecall().line()], want: { fault: 'sys_exit' } },
      { what: 'an unknown name', lines: [sw('SYS_NOPE', 0, 0).ecall().line()], want: { fault: 'SOFTWARE' } },
    ],
  });
  return calls;
}
