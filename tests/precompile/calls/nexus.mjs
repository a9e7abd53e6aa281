// Nexus's calls (executor/abi/nexus.c), checked against @noble/hashes and
// the executor's source: nexus-xyz/nexus-zkvm v0.3.6 = f2ad1265 (the latest
// release). keccakf: vm/src/cpu/instructions/custom/keccakf.rs (25 lanes
// at rs1, each two little-endian words, low first; the S-type immediate is
// not added), vm/src/riscv/decoder.rs (opcode 0x5A = KECCAKF_OPCODE in
// common/src/constants/mod.rs, since v0.3.2), vm/src/emulator/registry.rs
// (funct3 0 only; another funct3, and a custom-0 precompile no
// PRECOMPILE_<i> symbol registers, is UndefinedInstruction). Syscalls:
// vm/src/system/syscall.rs (number in a7; the decoded default result is
// a0 = u32::MAX, kept by the calls that set none; first-pass semantics).
import { Call, REG, hex } from './common.mjs';

const GUEST = 'zkvm-nexus-rv32.elf';
const A = 0x10000000; // flat read-write memory below MEMORY_TOP 0x8040_0000
const B = 0x10001000;

// keccakf rs1, imm: S-type, opcode 0x5A, rs2 = x0.
function keccakfWord(rs1, imm, funct3 = 0) {
  return (((imm >> 5) & 0x7f) << 25) | (rs1 << 15) | (funct3 << 12) | ((imm & 0x1f) << 7) | 0x5a;
}

function syscall(nr, ...regs) {
  const c = new Call().reg(REG.a7, nr);
  regs.forEach((v, i) => c.reg(REG.a0 + i, v));
  return c;
}

const ascii = (s) => hex(new TextEncoder().encode(s));

export async function suite({ npm }) {
  const { keccakP } = await npm('@noble/hashes/sha3.js');
  const permute = (bytes) => {
    const s = new Uint32Array(bytes.slice().buffer);
    keccakP(s, 24);
    return hex(new Uint8Array(s.buffer));
  };
  const calls = [];

  calls.push({
    name: 'keccakf',
    reference: '@noble/hashes keccakP (24 rounds)',
    guest: GUEST,
    random(rng) {
      const state = rng.bytes(200);
      const imm = rng.int(4096) - 2048; // ignored by Nexus: the state is at rs1
      const at = A + 8 * rng.int(64);
      return {
        what: `state ${hex(state)} imm ${imm}`,
        lines: [new Call().reg(REG.a0, at).mem(at, hex(state)).insn(keccakfWord(REG.a0, imm)).read(at, 200).line()],
        want: `ok - ${permute(state)}`,
      };
    },
    edges() {
      const zero = new Uint8Array(200);
      const ones = new Uint8Array(200).fill(0xff);
      return [
        { what: 'all zero', lines: [new Call().reg(REG.a1, B).mem(B, hex(zero)).insn(keccakfWord(REG.a1, 0)).read(B, 200).line()], want: `ok - ${permute(zero)}` },
        { what: 'all ones, rs1 = a5', lines: [new Call().reg(REG.a5, B).mem(B, hex(ones)).insn(keccakfWord(REG.a5, 0)).read(B, 200).line()], want: `ok - ${permute(ones)}` },
        { what: 'twice in place', lines: [
          new Call().reg(REG.a0, B).mem(B, hex(zero)).insn(keccakfWord(REG.a0, 0)).line(),
          new Call().reg(REG.a0, B).insn(keccakfWord(REG.a0, 0)).read(B, 200).line(),
        ], want: `ok - ${permute(Uint8Array.from(Buffer.from(permute(zero), 'hex')))}` },
        { what: 'unaligned state: UnalignedMemoryRead', lines: [new Call().reg(REG.a0, A + 2).insn(keccakfWord(REG.a0, 0)).line()], want: { fault: 'keccakf' } },
        { what: 'above MEMORY_TOP', lines: [new Call().reg(REG.a0, 0x80400000 - 100).insn(keccakfWord(REG.a0, 0)).line()], want: { fault: 'keccakf' } },
        { what: 'funct3 1: UndefinedInstruction', lines: [new Call().reg(REG.a0, A).insn(keccakfWord(REG.a0, 0, 1)).line()], want: { fault: '-' } },
      ];
    },
  });

  // Precompile #0, .insn r 0x0b, 0, 0, a2, a0, a1: this guest registers it as
  // nexus-precompiles' example DummyDiv (PRECOMPILE_0 = "::dummy_div :: DummyDiv";
  // precompiles/examples/dummy_div/src/host.rs: rd = rs1 / rs2 on u32, a Rust
  // division that panics for 0). An index no symbol registers: UndefinedInstruction.
  const divWord = (rd, rs1, rs2) => (rs2 << 20) | (rs1 << 15) | (rd << 7) | 0x0b;
  calls.push({
    name: 'DummyDiv',
    reference: 'BigInt (u32 division)',
    guest: GUEST,
    random(rng) {
      const x = rng.bits(32), y = rng.int(3) ? rng.bits(32) || 1n : rng.bits(rng.int(32) + 1) || 1n;
      return {
        what: `${x} / ${y}`,
        lines: [new Call().reg(REG.a0, x).reg(REG.a1, y).insn(divWord(REG.a2, REG.a0, REG.a1)).readReg(REG.a2).readReg(REG.a0).line()],
        want: `ok - ${(x / y).toString(16)} ${x.toString(16)}`,
      };
    },
    edges: () => [
      { what: 'the guest word 0x00b5060b', lines: [new Call().reg(REG.a0, 7).reg(REG.a1, 2).insn(0x00b5060b).readReg(REG.a2).line()], want: 'ok - 3' },
      { what: 'rd = rs1', lines: [new Call().reg(REG.a0, 0xffffffff).reg(REG.a1, 16).insn(divWord(REG.a0, REG.a0, REG.a1)).readReg(REG.a0).line()], want: 'ok - fffffff' },
      { what: 'divisor 0: the host panics', lines: [new Call().reg(REG.a0, 1).reg(REG.a1, 0).insn(0x00b5060b).line()], want: { fault: 'DummyDiv' } },
      { what: 'funct7 1 funct3 2: index 10, registered by no symbol', lines: [new Call().insn(0x02b5260b).line()], want: { fault: '-', why: 'precompile 10' } },
    ],
  });

  calls.push({
    name: 'syscalls',
    reference: 'vm/src/system/syscall.rs (first pass)',
    guest: GUEST,
    edges: () => [
      { what: 'Write fd 1: a0 = count', lines: [syscall(0x200, 1, A, 5).mem(A, ascii('hello')).ecall().readReg(REG.a0).line()], want: 'ok - 5' },
      { what: 'Write fd 2: -1, nothing written', lines: [syscall(0x200, 2, A, 5).ecall().readReg(REG.a0).line()], want: 'ok - ffffffff' },
      { what: 'Write fd 1, bytes past MEMORY_TOP', lines: [syscall(0x200, 1, 0x80400000 - 2, 5).ecall().line()], want: { fault: 'Write' } },
      { what: 'Exit', lines: [syscall(0x201, 3).ecall().line()], want: 'ok exit' },
      { what: 'ReadFromPrivateInput, no tape: u32::MAX', lines: [syscall(0x400).ecall().readReg(REG.a0).line()], want: 'ok - ffffffff' },
      { what: 'CycleCount ^#x: a0 kept', lines: [syscall(0x401, A, 3).mem(A, ascii('^#x')).ecall().readReg(REG.a0).line()], want: `ok - ${A.toString(16)}` },
      { what: 'CycleCount $#x after ^#x: a0 kept', lines: [syscall(0x401, A, 3).mem(A, ascii('$#x')).ecall().readReg(REG.a0).line()], want: `ok - ${A.toString(16)}` },
      { what: 'CycleCount $#y never started: -1', lines: [syscall(0x401, A, 3).mem(A, ascii('$#y')).ecall().readReg(REG.a0).line()], want: 'ok - ffffffff' },
      { what: 'CycleCount bad label: InvalidProfileLabel', lines: [syscall(0x401, A, 3).mem(A, ascii('x#y')).ecall().line()], want: { fault: 'CycleCount' } },
      { what: 'OverwriteStackPointer, first pass: sp kept, a0 = -1', lines: [syscall(0x402).reg(2, 0x80400000).ecall().readReg(REG.a0).readReg(2).line()], want: 'ok - ffffffff 80400000' },
      { what: 'OverwriteHeapPointer, first pass: 0', lines: [syscall(0x403).ecall().readReg(REG.a0).line()], want: 'ok - 0' },
      { what: 'MemoryAdvise (0.3.2+): a0 = -1', lines: [syscall(0x405, A, 64).ecall().readReg(REG.a0).line()], want: 'ok - ffffffff' },
      { what: 'ReadFromAuxiliaryInput: UnimplementedSyscall since 0.3.2', lines: [syscall(0x404).ecall().line()], want: { fault: '-' } },
      { what: 'an unknown number', lines: [syscall(0x999).ecall().line()], want: { fault: '-' } },
    ],
  });

  // rin = lw from the public input space (its u32 length first; no input given here: 0).
  calls.push({
    name: 'rin',
    reference: 'vm/src/emulator/registry.rs get_for_read_input: lw on the input memory',
    guest: GUEST,
    edges: () => [
      { what: 'the length word', lines: [new Call().reg(REG.a0, 0).reg(REG.a1, 7).insn(0x000505ab).readReg(REG.a1).line()], want: 'ok - 0' },
      { what: 'past the input', lines: [new Call().reg(REG.a0, 4).insn(0x000505ab).line()], want: { fault: 'rin' } },
      { what: 'unaligned', lines: [new Call().reg(REG.a0, 2).insn(0x000505ab).line()], want: { fault: 'rin' } },
    ],
  });
  return calls;
}
