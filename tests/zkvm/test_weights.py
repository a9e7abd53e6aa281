"""`cli execute --weight` and `--cost-table` (docs/ZKVMS.md, "Weights").

The guest guests/zkvm/weights.S has every instruction written out, so its
opcode-class mix, calls and page touches are known by hand (its comment
lists them). The expected totals below are worked out from that list and
the zkVMs' own tables, cited where they are used, not from our output:

- SP1 gas: each instruction's CPU cells plus its chip's, from SP1's
  rv32im_costs.json and cost.rs (succinctlabs/sp1, commit 3c61993a);
- RISC Zero cycles: one per instruction, each call what its 2.x kernel's
  instructions (kernel.s) and the executor's machine ecalls count (r0vm.rs,
  sha2.rs, poseidon2.rs, bigint.rs; the R0_* figures below), plus paging
  as its pager.rs charges it (PAGE_CYCLES 322 per page in or out,
  NODE_CYCLES 13 per Merkle node loaded or dirtied, RESERVED_PAGING_CYCLES
  10 per segment) for the guest's accesses and its calls' (the kernel's
  dispatch word, the host side's loads and stores), worked out here with a
  Merkle tree of its own;
- SP1 v6 gas, in tenths: 3 * trace cells + complexity per chip event,
  from SP1's rv64im_costs.json and vm/gas.rs (ReportGenerator);
- ZisK area: MAIN_COST 68 per step plus the operation's and the memory
  access's cost, from zisk_ops.rs, emu_costs.rs and
  mem_operations_stats.rs;
- OpenVM cells: the main trace width of the chip each instruction lands in
  (OpenVM 1.x's main_cols per AIR);
- a --cost-table file's classes, calls and pages.

Each weight's total must come out the same in folded, speedscope and pprof
files (read back with `cli report --json`), and bad tables and weights end
in one `error:` line with the documented exit status.

Run: CLI=build/cli/cli GUEST_DIR=build/guests python3 tests/zkvm/test_weights.py [-v]
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import ctest_status  # noqa: E402

CLI = os.environ.get("CLI", "build/cli/cli")
GUEST_DIR = os.path.join(os.environ.get("GUEST_DIR", "build/guests"), "weights")
TIMEOUT = 60

# The guest's instructions by opcode class (guests/zkvm/weights.S), calls apart.
SP1_START = {"add": 6, "auipc": 1, "jump": 1}
RISC0_START = {"add": 10, "auipc": 1, "jump": 1}
WORK = {"add": 12, "jump": 1, "mul": 10, "div": 10, "store": 10, "load": 10, "logic": 10,
        "shift_left": 10, "shift_right": 10, "slt": 10, "branch": 10}

# SP1's cells per chip event (rv32im_costs.json) and an opcode's chips (cost.rs).
SP1_CPU = 109
SP1_CHIP = {"add": 46, "auipc": 40, "jump": 50, "mul": 82, "div": 145 + 82 + 55, "store": 91,
            "load": 91, "logic": 40, "shift_left": 67, "shift_right": 133, "slt": 55,
            "branch": 58}
SP1_ECALL = SP1_CPU + 80                            # CPU + SyscallInstrs
SP1_SHA_EXTEND = SP1_ECALL + 23 + 427 + 15936       # + SyscallCore + Global + ShaExtend

# RISC Zero's pager (pager.rs) and memory layout (platform.rs): a user ecall
# loads the kernel's entry from ECALL_DISPATCH_ADDR (r0vm.rs user_ecall).
PAGE_CYCLES, NODE_CYCLES, RESERVED_PAGING, DEPTH = 322, 13, 10, 22
RESERVED_CYCLES = ((1 << 8) + (1 << 16)) // 16 + 1
REGS_PAGE, DISPATCH_PAGE = 0xFFFF0000 >> 10, 0xFFFF1000 >> 10
CODE_PAGE, DATA_PAGE = 0x00200800 >> 10, 0x00100000 >> 10

# RISC Zero's calls in user cycles, the user ecall included. The 2.x kernel
# (risc0/zkos/v1compat/src/kernel.s, commit 9a94c406) enters every call
# with the ecall, _ecall_dispatch (li tp and la s1 two instructions each,
# li s2, lw, bgeu, slli, add, jr) and its table's j, and returns with mret.
# Its machine ecalls count (risc0/circuit/rv32im/src/execute): a host read
# 1 + 1 for its setup, then 1 per byte to a word boundary, per 4 words, per
# byte after (r0vm.rs ecall_read); TERMINATE 2; SHA 1 + 4 + 68 a block + 1,
# at most 10 blocks each (sha2.rs); POSEIDON2 1 + 1 to load the state + 10
# a block (11 with 16 elements) + 1 out + 1 to store the state + 1
# (poseidon2.rs); BIGINT2 1 + its verify program's words + 1 (bigint.rs).
R0_ENTRY, R0_MRET = 1 + (2 + 2 + 1 + 5) + 1, 1


def r0_host_read(ptr, n):
    head = min(n, -ptr % 4)
    words, tail = divmod(n - head, 4)
    return 2 + head + -(-words // 4) + tail


R0_HOST_SYSCALL = r0_host_read(0, 0)  # main.rs host_syscall
R0_A0_A1 = r0_host_read(0, 8)         # main.rs read_a0_a1
# _ecall_halt: lw, li (2), 8 lw + sw, lw, 6 ALU ops, li a1, li a7; TERMINATE.
R0_HALT = R0_ENTRY + (1 + 2 + 16 + 1 + 6 + 1 + 1) + 2
# _ecall_input: lw, li, bge, slli, li (2), add, lw, sw.
R0_INPUT = R0_ENTRY + (1 + 1 + 1 + 1 + 2 + 1 + 1 + 1) + R0_MRET
R0_BIGINT = R0_ENTRY + 5 + R0_MRET  # 5 lw; ecall_bigint_v1compat's own not counted


def r0_software(host):  # 4 lw, ecall_software (its Rust not counted) and its host reads
    return R0_ENTRY + 4 + host + R0_MRET


def r0_sha(blocks):  # 5 lw, ecall_sha's machine ecalls (its Rust not counted)
    ecalls = max(1, -(-blocks // 10))
    return R0_ENTRY + 5 + ecalls * (1 + 4 + 1) + blocks * (16 + 48 + 4) + R0_MRET


def r0_poseidon2(state, blocks, elements):  # 4 lw, li a7, the machine ecall
    block = (2 if elements else 1) + 4 + 1 + 4
    return R0_ENTRY + 5 + 1 + 2 * state + blocks * block + 1 + 1 + R0_MRET


def r0_bigint2(verify_words):  # mv, lw sp, li, 10 lw, li a7; the machine ecall; mv
    return R0_ENTRY + 14 + 1 + verify_words + 1 + 1 + R0_MRET


# The weights guest's builds for SP1 v6, ZisK and OpenVM, by mnemonic, calls
# apart (guests/zkvm/weights.S): the buffer's address, then _start's and
# work's own instructions.
def mix_of(*parts):
    mix = {}
    for part in parts:
        for name, n in part.items():
            mix[name] = mix.get(name, 0) + n
    return mix


ROUND = {m: 10 for m in ("mul", "div", "sw", "lw", "xor", "slli", "srli", "sltu", "addi", "bne")}
BUFFER = {"lui": 1}
ZISK_BUFFER = {"lui": 1, "slli": 1}
START = {"addi": 1, "auipc": 1, "jal": 1}
SP1_V6_START = mix_of(BUFFER, START, {"lui": 1, "addi": 3})
ZISK_START = mix_of(ZISK_BUFFER, START, {"addi": 2})
OPENVM_START = mix_of(BUFFER, START)
WORK_V6 = mix_of(BUFFER, {"addi": 1, "jalr": 1}, ROUND)
ZISK_WORK = mix_of(ZISK_BUFFER, {"addi": 1, "jalr": 1}, ROUND)

# SP1 v6: (cells, complexity) of the chip each instruction lands in
# (rv64im_costs.json; gas.rs get_complexity_mapping; shapes.rs
# riscv_air_id_from_opcode): a chip event costs 3 * cells + complexity
# tenths of gas (gas = (3 * trace_area + complexity) / 10).
SP1_V6_CHIP = {"lui": (31, 19), "auipc": (31, 19), "addi": (30, 14), "jal": (31, 24),
               "jalr": (38, 25), "mul": (82, 60), "div": (246, 347), "sw": (44, 27),
               "lw": (44, 33), "xor": (51, 19), "slli": (65, 68), "srli": (69, 77),
               "sltu": (44, 41), "bne": (45, 49)}


# guests/zkvm/costmix.S by mnemonic ("addi0", "add0": writing x0; "jalr2":
# by an offset not a multiple of 4), calls apart.
MIX = mix_of({m: 1 for m in ("add", "sub", "sll", "sra", "slt", "slti", "andi", "ori", "mulh",
                             "mulhu", "divu", "rem", "remu", "sb", "sh", "lb", "lbu", "lh",
                             "lhu", "addi0", "add0", "blt", "jalr2")}, {"addi": 3})
MIX_RV64 = mix_of(MIX, {m: 1 for m in ("addw", "subw", "addiw", "sllw", "sraiw", "mulw", "divw",
                                       "remuw", "sd", "ld", "lwu")})
SP1_V6_MIX_START = mix_of(BUFFER, {"jal": 1, "lui": 1, "addi": 4})
ZISK_MIX_START = mix_of(ZISK_BUFFER, {"jal": 1, "addi": 4, "sd": 2})
OPENVM_MIX_START = mix_of(BUFFER, {"jal": 1, "addi": 1})
SP1_V6_CHIP.update({
    "add": (33, 15), "add0": (33, 15), "sub": (33, 15), "addi0": (30, 14),      # Add, Sub, Addi
    "sll": (65, 68), "sllw": (65, 68), "sra": (69, 77), "sraiw": (69, 77),      # shifts
    "slt": (44, 41), "slti": (44, 41), "andi": (51, 19), "ori": (51, 19),       # Lt, Bitwise
    "mulh": (82, 60), "mulhu": (82, 60), "mulw": (82, 60),                      # Mul
    "divu": (246, 347), "rem": (246, 347), "remu": (246, 347), "divw": (246, 347),
    "remuw": (246, 347),                                                        # DivRem
    "sb": (50, 32), "sh": (45, 27), "sd": (39, 23),                             # Store*
    "lb": (47, 32), "lbu": (47, 32), "lh": (44, 33), "lhu": (44, 33),           # Load*
    "ld": (39, 24), "lwu": (44, 33),
    "blt": (45, 49), "jalr2": (38, 25),                                         # Branch, Jalr
    "addw": (36, 20), "addiw": (36, 20), "subw": (32, 15)})                     # Addw, Subw


def tenths(chip):
    cells, complexity = chip
    return 3 * cells + complexity


SP1_V6_ECALL = tenths((65, 93))                         # SyscallInstrs
SP1_V6_SHA_EXTEND = (SP1_V6_ECALL + tenths((10, 2)) +   # + SyscallCore
                     tenths((241, 216)) +               # + Global
                     48 * tenths((128, 80)))            # + ShaExtend, 48 rows
SP1_V6_KECCAK_PERMUTE = (SP1_V6_ECALL + tenths((10, 2)) + tenths((241, 216)) +
                         24 * tenths((2640, 2859)))     # KeccakPermute, 24 rows

# ZisK: MAIN_COST per step, each RISC-V instruction here one step, plus its
# operation (add 26, binary 75, binary_e 54, arith 95, internal 0) and its
# memory access (a 4-byte read or write: MEM_READ_UNALIGNED_1_COST 106).
ZISK_MAIN = 68
ZISK_OP = {"lui": 0, "auipc": 0, "jal": 0, "slli": 54, "srli": 54, "addi": 26, "mul": 95,
           "div": 95, "sw": 106, "lw": 54 + 106, "xor": 75, "sltu": 75, "bne": 75,
           "jalr": 75}
ZISK_OP.update({
    "add": 26, "add0": 26, "addi0": 26, "sub": 75, "slt": 75, "slti": 75, "andi": 75, "ori": 75,
    "blt": 75, "addw": 75, "subw": 75, "addiw": 75,              # binary, the W adds
    "sll": 54, "sra": 54, "sllw": 54, "sraiw": 54,               # binary_e
    "mulh": 95, "mulhu": 95, "divu": 95, "rem": 95, "remu": 95, "mulw": 95, "divw": 95,
    "remuw": 95,                                                 # arith
    "sb": 32,                                                    # a byte write (100 fits)
    "sh": 106, "lhu": 106, "lwu": 106, "lh": 54 + 106,           # 2 or 4 bytes in a word
    "lb": 54 + 25, "lbu": 25,                                    # a byte read
    "sd": 18, "ld": 16,                                          # 8 aligned bytes
    "jalr2": ZISK_MAIN + 26 + 75})                               # 2 steps: add, and
ZISK_SHA256F = ZISK_MAIN + 72 * 121                              # SHA256_COST
ZISK_KECCAKF = ZISK_MAIN + ((93846 * 86) - 1) // 63 + 1  # KECCAK_COST
ZISK_EXIT = ZISK_MAIN

# OpenVM: the main trace width of each instruction's chip (main_cols).
OPENVM_CHIP = {"lui": 18, "jal": 18, "auipc": 20, "addi": 36, "xor": 36, "slli": 53,
               "srli": 53, "sltu": 37, "mul": 31, "div": 59, "sw": 41, "lw": 41, "bne": 26,
               "jalr": 28}
OPENVM_CHIP.update({
    "add": 36, "sub": 36, "andi": 36, "ori": 36, "sll": 53, "sra": 53, "slt": 37, "slti": 37,
    "mulh": 39, "mulhu": 39, "divu": 59, "rem": 59, "remu": 59, "sb": 41, "sh": 41,
    "lbu": 41, "lhu": 41, "lb": 36, "lh": 36,                   # LoadSignExtend
    "addi0": 6, "add0": 6,                                      # nop: PhantomAir
    "blt": 32, "jalr2": 28})
OPENVM_SHA256 = 17 * 470                                        # Sha256VmAir, one block
OPENVM_ADD256 = 168                                             # BaseAluCoreAir<32, 8>
OPENVM_KECCAK256 = 24 * 3163                              # KeccakVmAir, one block
OPENVM_TERMINATE = 0


def class_cost(mix, cost):
    return sum(n * cost(c) for c, n in mix.items())


def sp1_gas(mix):
    return class_cost(mix, lambda c: SP1_CPU + SP1_CHIP[c])


class Merkle:
    """RISC Zero's page states: a page's first load costs PAGE_CYCLES and
    NODE_CYCLES per tree node above it not loaded yet; its first store the
    same for nodes not dirty yet (pager.rs, page_in and fixup_costs)."""

    def __init__(self):
        self.loaded, self.dirty = set(), set()

    @staticmethod
    def above(page):
        node = (1 << DEPTH) + page
        return {node >> k for k in range(1, DEPTH + 1)}

    def load(self, page):
        new = self.above(page) - self.loaded
        self.loaded |= self.above(page)
        return PAGE_CYCLES + NODE_CYCLES * len(new)

    def store(self, page):
        new = self.above(page) - self.dirty
        self.dirty |= self.above(page)
        return PAGE_CYCLES + NODE_CYCLES * len(new)


def risc0_paging():
    """The [PageIn] and [PageOut] of each frame, in the order the guest
    touches its pages: the segment's start (half the reserved cycles, the
    register page written by resume), the code page's first fetch, the
    data page's first load and first store in work, the SHA call's
    dispatch word (its state and block are on the data page, as is HALT's
    digest), the segment's end."""
    t = Merkle()
    start_in = RESERVED_PAGING // 2 + t.load(REGS_PAGE)
    start_out = t.store(REGS_PAGE) + RESERVED_PAGING // 2
    start_in += t.load(CODE_PAGE)
    work_in = t.load(DATA_PAGE)
    work_out = t.store(DATA_PAGE)
    start_in += t.load(DISPATCH_PAGE)
    return {"_start;[PageIn]": start_in, "_start;[PageOut]": start_out,
            "_start;work;[PageIn]": work_in, "_start;work;[PageOut]": work_out}


def padded(cycles):
    """A segment's cycles padded to a power of two, as RISC Zero's final one."""
    po2 = 1
    while po2 < cycles:
        po2 *= 2
    return po2


def folded(path):
    stacks = {}
    with open(path) as f:
        for line in f:
            stack, count = line.rsplit(" ", 1)
            stacks[stack] = stacks.get(stack, 0) + int(count)
    return stacks


class WeightsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def path(self, name):
        return os.path.join(self.tmp.name, name)

    def guest(self, name):
        path = os.path.join(GUEST_DIR, name)
        if not os.path.exists(path):
            self.skipTest(f"{path} not built")
        return path

    def execute(self, zkvm, args, status=0, xlen=32, guest="weights"):
        elf = self.guest(f"zkvm-{guest}-{zkvm}-rv{xlen}.elf")
        r = subprocess.run([CLI, "execute", elf, "--zkvm", zkvm, "--stats", *args],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, status, r.stderr)
        return r

    def report_totals(self, path):
        r = subprocess.run([CLI, "report", "--json", path], capture_output=True, text=True,
                           timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        return {w["name"]: w["total"] for w in json.loads(r.stdout)["weights"]}

    def check_formats(self, zkvm, weights, expected, extra=(), xlen=32, guest="weights"):
        """Every format holds each weight's expected total; folded the first."""
        outs = [self.path(n) for n in ("p.json", "p.pb.gz", "p.folded")]
        args = [a for w in weights for a in ("--weight", w)] + list(extra)
        for out in outs:
            args += ["--flamegraph", out]
        self.execute(zkvm, args, xlen=xlen, guest=guest)
        for out in outs[:2]:
            totals = self.report_totals(out)
            if len(weights) == 1 and out.endswith(".json"):  # one unnamed profile
                totals = {weights[0]: sum(totals.values())}
            self.assertEqual(totals, expected, out)
        self.assertEqual(sum(folded(outs[2]).values()), expected[weights[0]])
        return outs[2]

    def test_sp1_gas_and_cycles(self):
        instructions = sum(SP1_START.values()) + sum(WORK.values()) + 2
        gas = sp1_gas(SP1_START) + sp1_gas(WORK) + SP1_ECALL + SP1_SHA_EXTEND
        out = self.check_formats("sp1", ["gas", "instructions", "cycles"],
                                 {"gas": gas, "instructions": instructions,
                                  "cycles": instructions})
        stacks = folded(out)  # gas, per frame
        self.execute("sp1", ["--weight", "gas", "--flamegraph-raw", self.path("raw.folded")])
        self.assertEqual(sum(folded(self.path("raw.folded")).values()), gas)
        self.assertEqual(stacks["_start;work"], sp1_gas(WORK))
        self.assertEqual(stacks["_start"], sp1_gas(SP1_START))
        self.assertEqual(stacks["_start;[ecall:SHA_EXTEND]"], SP1_SHA_EXTEND)
        self.assertEqual(stacks["_start;[ecall:HALT]"], SP1_ECALL)

    def check_model(self, zkvm, weight, start, work, calls, cost, xlen, guest="weights"):
        """The weight's total in every format, and frame by frame."""
        instructions = sum(start.values()) + sum(work.values()) + len(calls)
        total = class_cost(start, cost) + class_cost(work, cost) + sum(calls.values())
        out = self.check_formats(zkvm, [weight, "instructions"],
                                 {weight: total, "instructions": instructions}, xlen=xlen,
                                 guest=guest)
        callee = "_start;work" if guest == "weights" else "_start;mix"
        expected = {"_start": class_cost(start, cost), callee: class_cost(work, cost)}
        expected.update({f"_start;[ecall:{c}]": n for c, n in calls.items() if n})
        self.assertEqual(folded(out), expected)
        single = self.path("single.folded")  # one weight alone: counted by the cost clock
        self.execute(zkvm, ["--weight", weight, "--flamegraph", single], xlen=xlen, guest=guest)
        self.assertEqual(folded(single), expected)

    def test_sp1_v6_gas(self):
        cost = lambda m: tenths(SP1_V6_CHIP[m])
        self.check_model("sp1", "gas", SP1_V6_START, WORK_V6,
                         {"SHA_EXTEND": SP1_V6_SHA_EXTEND, "HALT": SP1_V6_ECALL}, cost, 64)
        self.check_model("sp1", "gas", SP1_V6_MIX_START, MIX_RV64,
                         {"KECCAK_PERMUTE": SP1_V6_KECCAK_PERMUTE, "HALT": SP1_V6_ECALL}, cost,
                         64, guest="costmix")

    def test_zisk_area(self):
        cost = lambda m: ZISK_MAIN + ZISK_OP[m]
        self.check_model("zisk", "area", ZISK_START, ZISK_WORK,
                         {"keccakf": ZISK_KECCAKF, "exit": ZISK_EXIT}, cost, 64)
        self.check_model("zisk", "area", ZISK_MIX_START, MIX_RV64,
                         {"sha256f": ZISK_SHA256F, "exit": ZISK_EXIT}, cost, 64, guest="costmix")

    def test_openvm_cells(self):
        cost = lambda m: OPENVM_CHIP[m]
        self.check_model("openvm", "cells", OPENVM_START, WORK_V6,
                         {"KECCAK256": OPENVM_KECCAK256, "TERMINATE": OPENVM_TERMINATE}, cost, 32)
        self.check_model("openvm", "cells", OPENVM_MIX_START, MIX,
                         {"SHA256": OPENVM_SHA256, "ADD256": OPENVM_ADD256,
                          "TERMINATE": OPENVM_TERMINATE}, cost, 32, guest="costmix")

    def test_risc0_cycles_with_paging(self):
        instructions = sum(RISC0_START.values()) + sum(WORK.values()) + 2
        paging = risc0_paging()
        calls = {"_start;[ecall:SHA]": r0_sha(1), "_start;[ecall:HALT]": R0_HALT}
        out = self.check_formats("risc0", ["cycles", "instructions"],
                                 {"cycles": instructions - 2 + sum(calls.values()) +
                                  sum(paging.values()), "instructions": instructions})
        stacks = folded(out)
        for frame, cycles in {**paging, **calls}.items():
            self.assertEqual(stacks.get(frame), cycles, frame)
        self.assertEqual(stacks["_start;work"], sum(WORK.values()))

    def test_risc0_stats(self):
        r = self.execute("risc0", ["--weight", "cycles", "--report", self.path("r.json")])
        self.assertNotIn("opcode-classes:", r.stderr)  # cycles: one per instruction, no pcs
        r = self.execute("risc0", ["--weight", "cycles", "--weight", "classes",
                                   "--report", self.path("r.json")])
        paging = sum(risc0_paging().values())
        calls = r0_sha(1) - 1 + R0_HALT - 1
        instructions = sum(RISC0_START.values()) + sum(WORK.values()) + 2
        self.assertIn("segments: 1 ", r.stderr)
        mix = {"add": 10 + 12, "auipc": 1, "jump": 2, **{c: 10 for c in (
            "logic", "shift_left", "shift_right", "slt", "mul", "div", "branch", "load",
            "store")}}
        order = ["add", "logic", "shift_left", "shift_right", "slt", "mul", "div", "branch",
                 "jump", "auipc", "load", "store"]
        self.assertIn("opcode-classes: " + "".join(f"{c} {mix[c]}, " for c in order) +
                      "zkVM calls 2\n", r.stderr)
        self.assertIn(f"paging-cycles: {paging}\n", r.stderr)
        self.assertIn(f"call-cycles: {calls} ", r.stderr)
        total = padded(instructions + calls + paging + RESERVED_CYCLES)
        self.assertIn(f"total-cycles: {total} ", r.stderr)

    def test_risc0_call_cycles(self):
        """guests/zkvm/r0calls.S: each call costs what RISC Zero's kernel and
        executor count for it, in the calling function's [ecall:NAME] frame;
        the pages its host side loads and stores are paged there too. The
        same totals in every format, and in --stats."""
        with open(self.path("in.bin"), "wb") as f:
            f.write(bytes(range(256)) * 5)  # more than the 1030 bytes sys_read asks
        # sys_read of 1030 bytes to 0x0010_1002: its first KiB's whole words,
        # the result words, then the 6 bytes left: 4 from the host, 2 that
        # the kernel copies from the result words (main.rs sys_read).
        read = r0_software(r0_host_read(0x101002, 1024) + R0_A0_A1 +
                           r0_host_read(0x101402, 4) + R0_A0_A1)
        random = r0_software(r0_host_read(0x102000, 1024) + r0_host_read(0x102400, 1200 - 1024))
        calls = {"_start;[ecall:INPUT]": R0_INPUT,
                 "_start;io;[ecall:sys_read]": read,
                 "_start;[ecall:sys_write]": r0_software(R0_HOST_SYSCALL),
                 "_start;[ecall:sys_random]": random,
                 "_start;[ecall:sys_cycle_count]": r0_software(R0_HOST_SYSCALL + R0_A0_A1),
                 "_start;[ecall:SHA]": r0_sha(11),
                 "_start;[ecall:POSEIDON2]": r0_poseidon2(True, 2, True),
                 "_start;[ecall:BIGINT]": R0_BIGINT,
                 "_start;[ecall:HALT]": R0_HALT}
        # The pages, in the order of the run: resume's register page, the
        # code page, the dispatch word (INPUT), sys_read's buffer (two
        # pages, in io), sys_random's (two), SHA's state and blocks, the
        # Poseidon2 state, input and output, BIGINT's operands and result,
        # HALT's digest.
        t = Merkle()
        page_in = RESERVED_PAGING // 2 + t.load(REGS_PAGE) + t.load(CODE_PAGE)
        page_out = t.store(REGS_PAGE) + RESERVED_PAGING // 2
        page_in += t.load(DISPATCH_PAGE)
        io_in = io_out = 0
        for page in (0x101000 >> 10, 0x101400 >> 10):
            io_in += t.load(page)
            io_out += t.store(page)
        for page in (0x102000 >> 10, 0x102400 >> 10):
            page_in += t.load(page)
            page_out += t.store(page)
        page_in += t.load(0x103000 >> 10) + t.load(0x103400 >> 10)
        page_out += t.store(0x103000 >> 10)
        page_in += t.load(0x104000 >> 10) + t.load(0x104400 >> 10) + t.load(0x104800 >> 10)
        page_out += t.store(0x104800 >> 10) + t.store(0x104000 >> 10)
        page_in += t.load(0x105400 >> 10) + t.load(0x105000 >> 10)
        page_out += t.store(0x105000 >> 10)
        page_in += t.load(0x100000 >> 10)
        paging = {"_start;[PageIn]": page_in, "_start;[PageOut]": page_out,
                  "_start;io;[PageIn]": io_in, "_start;io;[PageOut]": io_out}
        # r0calls.S's own instructions: _start 41 and io 9, besides the 9 ecalls.
        expected = {"_start": 41, "_start;io": 9, **calls, **paging}
        total = sum(expected.values())
        out = self.check_formats("risc0", ["cycles", "instructions"],
                                 {"cycles": total, "instructions": 41 + 9 + 9},
                                 extra=["--input", self.path("in.bin")], guest="r0calls")
        self.assertEqual(folded(out), expected)
        r = self.execute("risc0", ["--weight", "cycles", "--input", self.path("in.bin"),
                                   "--flamegraph", self.path("s.folded")], guest="r0calls")
        extra = sum(calls.values()) - len(calls)
        self.assertIn(f"call-cycles: {extra} ", r.stderr)
        self.assertIn(f"paging-cycles: {sum(paging.values())}\n", r.stderr)
        self.assertIn(f"total-cycles: {padded(total + RESERVED_CYCLES)} ", r.stderr)

    def test_cost_table(self):
        table = {"name": "cost", "unit": "count",
                 "classes": {"mul": 5, "div": 20, "default": 1},
                 "calls": {"SHA_EXTEND": 100, "default": 2},
                 "pages": {"page_in": 7, "page_out": 11}}
        with open(self.path("t.json"), "w") as f:
            json.dump(table, f)
        def cost(c):
            return table["classes"].get(c, 1)
        # The code page and the data page paged in, the data page out; the
        # precompile's own accesses are the executor's, not the guest's.
        expected = (class_cost(SP1_START, cost) + class_cost(WORK, cost) + 100 + 2 +
                    7 * 2 + 11)
        out = self.check_formats("sp1", ["cost"], {"cost": expected},
                                 extra=["--cost-table", self.path("t.json")])
        self.assertEqual(folded(out)["_start;work;[PageOut]"], 11)

    def test_docs_cost_table_example(self):
        """docs/ZKVMS.md's cost table (ZisK's older area figures by class)
        reads, and weighs the ZisK guest as its classes say."""
        docs = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "ZKVMS.md")
        with open(docs) as f:
            text = f.read()
        block = text[text.index('{"name": "area_old"'):]
        table = json.loads(block[:block.index("```")])
        with open(self.path("t.json"), "w") as f:
            json.dump(table, f)
        classes = {"lui": "add", "addi": "add", "slli": "shift_left", "srli": "shift_right",
                   "auipc": "auipc", "jal": "jump", "jalr": "jump", "mul": "mul", "div": "div",
                   "sw": "store", "lw": "load", "xor": "logic", "sltu": "slt", "bne": "branch"}
        def cost(m):
            return table["classes"].get(classes[m], table["classes"]["default"])
        expected = (class_cost(ZISK_START, cost) + class_cost(ZISK_WORK, cost) +
                    table["calls"]["keccakf"] + table["calls"]["default"])
        self.check_formats("zisk", ["area_old"], {"area_old": expected}, xlen=64,
                           extra=["--cost-table", self.path("t.json")])

    def test_segments(self):
        for po2, page_in, page_out in ((10, 7, 11), (11, 322, 322), (12, 100, 1), (16, 7, 11)):
            with self.subTest(po2=po2):
                self.segments(po2, page_in, page_out)

    def segments(self, po2, page_in, page_out):
        """guests/zkvm/pages.S under a table with pages and 2^po2-cycle
        segments: RISC Zero's rule replayed here instruction by instruction
        (a segment ends before the instruction that finds its cycles past
        2^po2; a page's first fetch, load or store in a segment costs)."""
        rounds = 200
        code, data = 0x00200800 >> 10, 0x00100000 >> 10
        seq = [None, None]                                   # lui, addi
        seq += [x for i in range(rounds) for x in (("store", data + i), None, None, None)]
        seq += [None, None]
        seq += [x for i in range(rounds) for x in (("load", data + i), None, None, None)]
        seq += [None, None, None, None]                      # the HALT call's
        segments, costs, user = 1, {"in": 0, "out": 0}, 0
        seg_user = seg_paging = 0
        loaded, dirty = set(), set()
        for insn in seq:
            if seg_user + seg_paging > 1 << po2:
                segments, seg_user, seg_paging = segments + 1, 0, 0
                loaded, dirty = set(), set()
            pages = [(code, False)] + ([(insn[1], insn[0] == "store")] if insn else [])
            for page, store in pages:
                if page not in loaded:
                    loaded.add(page)
                    costs["in"] += page_in
                    seg_paging += page_in
                if store and page not in dirty:
                    dirty.add(page)
                    costs["out"] += page_out
                    seg_paging += page_out
            seg_user += 1
            user += 1
        table = {"name": "paged", "pages": {"page_in": page_in, "page_out": page_out,
                                            "segment_po2": po2}}
        with open(self.path("t.json"), "w") as f:
            json.dump(table, f)
        elf = self.guest("zkvm-pages-rv32.elf")
        out = self.path("p.folded")
        r = subprocess.run([CLI, "execute", elf, "--zkvm", "risc0", "--stats", "--cost-table",
                            self.path("t.json"), "--flamegraph", out],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn(f"segments: {segments} ", r.stderr)
        self.assertEqual(folded(out), {"_start": user - 1, "_start;[ecall:HALT]": 1,
                                       "_start;[PageIn]": costs["in"],
                                       "_start;[PageOut]": costs["out"]})

    def test_paging_of_compressed_fetches(self):
        """guests/zkvm/pages_c.S (with C, under the linux ABI): paging runs
        the C loops, and the fetch of the 2-byte c.j in the code page's last
        halfword touches that page only: one page paged in, none out, and
        the table's weight is its 5 instructions (c.j, li, c.li, ecall, c.j)
        plus one page_in."""
        table = {"name": "paged", "pages": {"page_in": 322, "page_out": 322, "segment_po2": 20}}
        with open(self.path("t.json"), "w") as f:
            json.dump(table, f)
        elf = self.guest("zkvm-pages-c-rv32.elf")
        r = subprocess.run([CLI, "execute", elf, "--stats", "--weight", "pages", "--cost-table",
                            self.path("t.json"), "--flamegraph", self.path("p.folded"),
                            "--flamegraph", self.path("p.pb.gz")],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("paging-cycles: 322\n", r.stderr)
        self.assertEqual(folded(self.path("p.folded")), {"_start;[PageIn]": 1})
        r = subprocess.run([CLI, "report", "--json", self.path("p.pb.gz")],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        report = json.loads(r.stdout)
        self.assertEqual(report["pages"], {"in": 1, "out": 0})
        self.assertEqual({w["name"]: w["total"] for w in report["weights"]},
                         {"pages": 1, "paged": 5 + 322})

    def test_report_class_mix_and_pages(self):
        """`classes` and `pages` carry the opcode-class mix and the pages
        touched; the report's are the hand counts of weights.S, in the
        report cli execute writes and in one of its pprof file."""
        args = ["--weight", "instructions", "--weight", "cycles", "--weight", "classes",
                "--weight", "pages", "--flamegraph", self.path("p.pb.gz"),
                "--report", self.path("r.json")]
        self.execute("risc0", args)
        r = subprocess.run([CLI, "report", "--json", self.path("p.pb.gz")],
                           capture_output=True, text=True, timeout=TIMEOUT)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("r.json")) as f:
            written = json.load(f)
        # The register page, the code page and the dispatch page (the
        # kernel's table, which every ecall loads) paged in by _start, the
        # data page by work; the register page and the data page out
        # (as risc0_paging() counts them).
        pages = {"in": 4, "out": 2}
        for report in (written, json.loads(r.stdout)):
            mix = report["class_mix"]
            self.assertEqual(mix["by"], "instructions")
            funcs = {f["function"]: f["classes"] for f in mix["functions"]}
            self.assertEqual(funcs["work"], WORK)
            self.assertEqual(funcs["_start"], RISC0_START)
            self.assertEqual(funcs["[ecall:SHA]"], {"ecall": 1})
            self.assertEqual(funcs["[ecall:HALT]"], {"ecall": 1})
            self.assertEqual(sum(mix["all"].values()),
                             sum(RISC0_START.values()) + sum(WORK.values()) + 2)
            self.assertEqual(report["pages"], pages)
            self.assertNotIn("class:load", report["top"])
        # One class, and the pages, as folded files: the same counts.
        self.execute("risc0", ["--weight", "class:load", "--flamegraph", self.path("l.folded")])
        self.assertEqual(folded(self.path("l.folded")), {"_start;work": WORK["load"]})
        self.execute("risc0", ["--weight", "pages", "--weight", "cycles",
                               "--flamegraph", self.path("g.folded")])
        self.assertEqual(folded(self.path("g.folded")),
                         {"_start;[PageIn]": 3, "_start;[PageOut]": 1,
                          "_start;work;[PageIn]": 1, "_start;work;[PageOut]": 1})
        text = subprocess.run([CLI, "report", self.path("g.folded")], capture_output=True,
                              text=True, timeout=TIMEOUT)
        self.assertIn("opcode-class mix: not in this profile", text.stdout)

    def test_weights_cost_nothing_in_instructions(self):
        """The instruction weight equals the plain profile, stack by stack."""
        self.execute("sp1", ["--flamegraph", self.path("plain.folded")])
        self.execute("sp1", ["--weight", "instructions", "--weight", "gas",
                             "--flamegraph", self.path("w.folded")])
        self.assertEqual(folded(self.path("plain.folded")), folded(self.path("w.folded")))

    def bad(self, args, status, text, zkvm="sp1", xlen=32):
        r = self.execute(zkvm, args, status=status, xlen=xlen)
        lines = r.stderr.strip().splitlines()
        self.assertTrue(any(l.startswith("error:") and text in l for l in lines), r.stderr)

    def test_bad_weights_and_tables(self):
        out = ["--flamegraph", self.path("o.folded")]
        self.bad(["--weight", "area"] + out, 64, "--weight area")
        self.bad(["--weight", "gas"] + out, 64, "no such weight", zkvm="risc0")
        self.bad(["--weight", "cells"] + out, 64, "(instructions, cycles, area)", zkvm="zisk",
                 xlen=64)
        self.bad(["--weight", "area"] + out, 64, "(instructions, cycles, cells)", zkvm="openvm")
        self.bad(["--weight", "area"] + out, 64, "(instructions, cycles, gas)", xlen=64)
        self.bad(["--weight", "gas"], 64, "need --flamegraph")
        self.bad(["--weight", "gas", "--weight", "gas"] + out, 64, "twice")
        self.bad(["--weight", "classes", "--weight", "class:add"] + out, 64, "twice")
        self.bad(["--weight", "class:fma"] + out, 64, "no such opcode class")
        self.bad(["--weight", "pages"] + out, 64, "give one that pages")
        self.bad(["--cost-table", self.path("missing.json")] + out, 66, "missing.json")
        cases = [("{", 65, "line 1"),
                 ('{"name": "c", "classes": {"mull": 1}}', 65, "classes.mull"),
                 ('{"name": "c", "classes": {"mul": -1}}', 65, "classes.mul"),
                 ('{"name": "c", "pages": {"page_in": "x"}}', 65, "pages.page_in"),
                 ('{"name": "a b"}', 65, "name"),
                 ('{"name": "c", "extra": 1}', 65, "extra"),
                 ('[1]', 65, "one JSON object")]
        for text, status, needle in cases:
            with self.subTest(text=text):
                with open(self.path("bad.json"), "w") as f:
                    f.write(text)
                self.bad(["--cost-table", self.path("bad.json")] + out, status, needle)


if __name__ == "__main__":
    ctest_status.main()
