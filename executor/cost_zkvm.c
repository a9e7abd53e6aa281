/*
 * cost_zkvm: SP1 v6 gas, ZisK area and OpenVM cells, each instruction
 * costed by its word (the chip or operation the zkVM's transpiler maps it
 * to), each call by its name. Every figure is cited in docs/ZKVMS.md,
 * "Weights".
 */
#include "executor/cost_zkvm.h"

#include <stdlib.h>
#include <string.h>

/* The fields of an instruction word the tables below tell opcodes apart by. */
struct rv_fields {
    unsigned opcode, funct3, funct7, rd;
};

static struct rv_fields fields_of(uint32_t word)
{
    return (struct rv_fields){.opcode = word & 0x7f,
                              .funct3 = (word >> 12) & 7,
                              .funct7 = word >> 25,
                              .rd = (word >> 7) & 0x1f};
}

struct named_cost {
    const char *call;
    uint64_t cost;
};

static int add_calls(struct cost_model *m, const struct named_cost *calls, size_t n,
                     struct error *e)
{
    for (size_t i = 0; i < n; i++)
        if (cost_model_add_call(m, calls[i].call, calls[i].cost, e) != 0) {
            cost_model_free(m);
            return -1;
        }
    return 0;
}

/* ---- SP1 v6 ---- */

/*
 * SP1 v6's chips (RiscvAirId) an instruction lands in, from
 * riscv_air_id_from_opcode (succinctlabs/sp1 crates/core/executor/src/vm/
 * shapes.rs at 1a3f8494).
 */
enum sp1_air {
    SP1_ADD,
    SP1_ADDI,
    SP1_ADDW,
    SP1_SUB,
    SP1_SUBW,
    SP1_BITWISE,
    SP1_LT,
    SP1_MUL,
    SP1_DIVREM,
    SP1_SHIFT_LEFT,
    SP1_SHIFT_RIGHT,
    SP1_LOAD_BYTE,
    SP1_LOAD_HALF,
    SP1_LOAD_WORD,
    SP1_LOAD_DOUBLE,
    SP1_STORE_BYTE,
    SP1_STORE_HALF,
    SP1_STORE_WORD,
    SP1_STORE_DOUBLE,
    SP1_UTYPE,
    SP1_BRANCH,
    SP1_JAL,
    SP1_JALR,
    SP1_SYSCALL_INSTRS,
    SP1_SYSCALL_CORE,
    SP1_GLOBAL,
    SP1_NONE, /* no chip: SP1 does not run the instruction */
    SP1_AIR_COUNT
};

/*
 * Each chip's trace cells per event (artifacts/rv64im_costs.json at
 * d38bc758) and complexity (get_complexity_mapping in vm/gas.rs at
 * 03f37eae). SP1's gas is
 * (3 * cells + complexity) / 10 summed over all events; one event costs
 * 3 * cells + complexity tenths.
 */
static const struct {
    uint16_t cells, complexity;
} sp1_v6_airs[SP1_AIR_COUNT] = {
    [SP1_ADD] = {33, 15},          [SP1_ADDI] = {30, 14},        [SP1_ADDW] = {36, 20},
    [SP1_SUB] = {33, 15},          [SP1_SUBW] = {32, 15},        [SP1_BITWISE] = {51, 19},
    [SP1_LT] = {44, 41},           [SP1_MUL] = {82, 60},         [SP1_DIVREM] = {246, 347},
    [SP1_SHIFT_LEFT] = {65, 68},   [SP1_SHIFT_RIGHT] = {69, 77}, [SP1_LOAD_BYTE] = {47, 32},
    [SP1_LOAD_HALF] = {44, 33},    [SP1_LOAD_WORD] = {44, 33},   [SP1_LOAD_DOUBLE] = {39, 24},
    [SP1_STORE_BYTE] = {50, 32},   [SP1_STORE_HALF] = {45, 27},  [SP1_STORE_WORD] = {44, 27},
    [SP1_STORE_DOUBLE] = {39, 23}, [SP1_UTYPE] = {31, 19},       [SP1_BRANCH] = {45, 49},
    [SP1_JAL] = {31, 24},          [SP1_JALR] = {38, 25},        [SP1_SYSCALL_INSTRS] = {65, 93},
    [SP1_SYSCALL_CORE] = {10, 2},  [SP1_GLOBAL] = {241, 216},    [SP1_NONE] = {0, 0},
};

static uint64_t sp1_v6_tenths(enum sp1_air a)
{
    return 3 * (uint64_t)sp1_v6_airs[a].cells + sp1_v6_airs[a].complexity;
}

/* OP-IMM and OP without M, by funct3 (funct3 0 is the caller's). */
static enum sp1_air sp1_v6_alu(unsigned funct3)
{
    static const enum sp1_air by_funct3[8] = {SP1_ADD,     SP1_SHIFT_LEFT, SP1_LT,
                                              SP1_LT,      SP1_BITWISE,    SP1_SHIFT_RIGHT,
                                              SP1_BITWISE, SP1_BITWISE};
    return by_funct3[funct3];
}

static enum sp1_air sp1_v6_air(uint32_t word)
{
    static const enum sp1_air loads[8] = {SP1_LOAD_BYTE,   SP1_LOAD_HALF, SP1_LOAD_WORD,
                                          SP1_LOAD_DOUBLE, SP1_LOAD_BYTE, SP1_LOAD_HALF,
                                          SP1_LOAD_WORD,   SP1_NONE};
    static const enum sp1_air stores[8] = {SP1_STORE_BYTE,   SP1_STORE_HALF, SP1_STORE_WORD,
                                           SP1_STORE_DOUBLE, SP1_NONE,       SP1_NONE,
                                           SP1_NONE,         SP1_NONE};
    struct rv_fields f = fields_of(word);
    switch (f.opcode) {
    case 0x37:
    case 0x17: return SP1_UTYPE; /* lui, auipc */
    case 0x6f: return SP1_JAL;
    case 0x67: return SP1_JALR;
    case 0x63: return SP1_BRANCH;
    case 0x03: return loads[f.funct3];
    case 0x23: return stores[f.funct3];
    case 0x13: return f.funct3 == 0 ? SP1_ADDI : sp1_v6_alu(f.funct3);
    case 0x1b: return f.funct3 == 0 ? SP1_ADDW : sp1_v6_alu(f.funct3); /* addiw, slliw, ... */
    case 0x33:
        if (f.funct7 == 1)
            return f.funct3 < 4 ? SP1_MUL : SP1_DIVREM;
        if (f.funct3 == 0)
            return f.funct7 == 0x20 ? SP1_SUB : SP1_ADD;
        return sp1_v6_alu(f.funct3);
    case 0x3b:
        if (f.funct7 == 1)
            return f.funct3 == 0 ? SP1_MUL : SP1_DIVREM;
        if (f.funct3 == 0)
            return f.funct7 == 0x20 ? SP1_SUBW : SP1_ADDW;
        return sp1_v6_alu(f.funct3);
    case 0x73: return word == 0x00000073 ? SP1_SYSCALL_INSTRS : SP1_NONE;
    default: return SP1_NONE;
    }
}

static uint64_t sp1_v6_insn(uint32_t word)
{
    return sp1_v6_tenths(sp1_v6_air(word));
}

/*
 * A precompile's chip per call: cells and complexity per row, and rows
 * per call (RiscvAirId::rows_per_event: ShaExtend 48, ShaCompress 80,
 * KeccakPermute 24, the others 1).
 */
static const struct {
    const char *call;
    uint16_t cells, complexity, rows;
} sp1_v6_precompiles[] = {
    {"SHA_EXTEND", 128, 80, 48},
    {"SHA_COMPRESS", 206, 300, 80},
    {"KECCAK_PERMUTE", 2640, 2859, 24},
    {"ED_ADD", 1347, 792, 1},
    {"ED_DECOMPRESS", 1123, 755, 1},
    {"SECP256K1_ADD", 1599, 918, 1},
    {"SECP256K1_DOUBLE", 1591, 904, 1},
    {"SECP256K1_DECOMPRESS", 997, 691, 1},
    {"SECP256R1_ADD", 1599, 918, 1},
    {"SECP256R1_DOUBLE", 1591, 904, 1},
    {"SECP256R1_DECOMPRESS", 997, 691, 1},
    {"BN254_ADD", 1599, 918, 1},
    {"BN254_DOUBLE", 1591, 904, 1},
    {"BLS12381_ADD", 2399, 1374, 1},
    {"BLS12381_DOUBLE", 2391, 1356, 1},
    {"BLS12381_DECOMPRESS", 1546, 1237, 1},
    {"UINT256_MUL", 371, 253, 1},
    {"U256XU2048_MUL", 2075, 1197, 1},
    {"UINT256_ADD_CARRY", 477, 297, 1},
    {"UINT256_MUL_CARRY", 477, 297, 1},
    {"BN254_FP_ADD", 306, 217, 1},
    {"BN254_FP_SUB", 306, 217, 1},
    {"BN254_FP_MUL", 306, 217, 1},
    {"BN254_FP2_ADD", 592, 415, 1},
    {"BN254_FP2_SUB", 592, 415, 1},
    {"BN254_FP2_MUL", 1095, 666, 1},
    {"BLS12381_FP_ADD", 450, 317, 1},
    {"BLS12381_FP_SUB", 450, 317, 1},
    {"BLS12381_FP_MUL", 450, 317, 1},
    {"BLS12381_FP2_ADD", 880, 615, 1},
    {"BLS12381_FP2_SUB", 880, 615, 1},
    {"BLS12381_FP2_MUL", 1639, 994, 1},
    {"POSEIDON2", 348, 497, 1},
};

/*
 * Every call costs its ecall's SyscallInstrs event; a precompile call
 * also a SyscallCore and a Global event (ReportGenerator::handle_instruction
 * with syscall_sent) and its chip's rows.
 */
int cost_sp1_v6_gas(struct cost_model *m, struct error *e)
{
    uint64_t ecall = sp1_v6_tenths(SP1_SYSCALL_INSTRS);
    if (cost_model_start(m, "gas", sp1_v6_tenths(SP1_ADD), e) != 0)
        return -1;
    free(m->unit);
    m->unit = strdup("tenths");
    if (!m->unit) {
        cost_model_free(m);
        return error_fail(e, ERROR_NO_MEMORY, "out of memory for a cost model");
    }
    m->insn_cost = sp1_v6_insn;
    m->call_default = ecall;
    uint64_t sent = ecall + sp1_v6_tenths(SP1_SYSCALL_CORE) + sp1_v6_tenths(SP1_GLOBAL);
    enum { N = sizeof(sp1_v6_precompiles) / sizeof(sp1_v6_precompiles[0]) };
    struct named_cost calls[N];
    for (size_t i = 0; i < N; i++) {
        uint64_t chip =
            3 * (uint64_t)sp1_v6_precompiles[i].cells + sp1_v6_precompiles[i].complexity;
        calls[i] = (struct named_cost){sp1_v6_precompiles[i].call,
                                       sent + sp1_v6_precompiles[i].rows * chip};
    }
    return add_calls(m, calls, N, e);
}

/* ---- ZisK ---- */

/*
 * ZisK's area (0xPolygonHermez/zisk at 41448cf2: core/src/zisk_ops.rs,
 * emulator/src/emu_costs.rs, emulator/src/stats/mem_operations_stats.rs): MAIN_COST per step, the
 * step's operation and its memory access. Reads and writes of less than
 * 8 aligned bytes go through the MemAlign machine; ZisK charges a
 * part-word write the read's figure (get_cost).
 */
enum {
    ZISK_STEP = 68,         /* MAIN_COST */
    ZISK_BINARY = 75,       /* BINARY_COST: sub, the _w forms, logic, compares */
    ZISK_BINARY_ADD = 26,   /* BINARY_ADD_COST: add */
    ZISK_BINARY_E = 54,     /* BINARY_E_COST: shifts, sign extension */
    ZISK_ARITH = 95,        /* ARITHAM32_COST, ARITHA32_COST: mul, div, rem */
    ZISK_READ = 16,         /* MEM_READ_COST: 8 aligned bytes */
    ZISK_WRITE = 18,        /* MEM_WRITE_COST */
    ZISK_READ_BYTE = 25,    /* MEM_READ_BYTE_COST */
    ZISK_WRITE_BYTE = 32,   /* MEM_WRITE_BYTE_COST */
    ZISK_UNALIGNED = 53 * 2 /* MEM_READ_UNALIGNED_1_COST: 2 or 4 bytes in one 8-byte word */
};

/* A load's operation and read, by funct3 (riscv2zisk_context.rs at 02bdca73, load_op). */
static uint64_t zisk_load(unsigned funct3)
{
    static const uint64_t by_funct3[8] = {ZISK_BINARY_E + ZISK_READ_BYTE, /* lb: signextend_b */
                                          ZISK_BINARY_E + ZISK_UNALIGNED, /* lh */
                                          ZISK_BINARY_E + ZISK_UNALIGNED, /* lw */
                                          ZISK_READ,                      /* ld: copyb */
                                          ZISK_READ_BYTE,                 /* lbu */
                                          ZISK_UNALIGNED,                 /* lhu */
                                          ZISK_UNALIGNED,                 /* lwu */
                                          0};
    return by_funct3[funct3];
}

/* A store's write (a copyb, no operation cost), by funct3. */
static uint64_t zisk_store(unsigned funct3)
{
    static const uint64_t by_funct3[8] = {
        ZISK_WRITE_BYTE, ZISK_UNALIGNED, ZISK_UNALIGNED, ZISK_WRITE, 0, 0, 0, 0};
    return by_funct3[funct3];
}

/* OP-IMM and OP without M, by funct3 (funct3 0 is the caller's). */
static uint64_t zisk_alu(unsigned funct3)
{
    return funct3 == 1 || funct3 == 5 ? ZISK_BINARY_E : ZISK_BINARY;
}

/* An AMO as riscv2zisk expands it: a load, an operation, a store, a step each. */
static uint64_t zisk_amo(struct rv_fields f)
{
    unsigned funct5 = f.funct7 >> 2, load = f.funct3 == 2 ? 2 : 3, store = f.funct3;
    if (funct5 == 0x02) /* lr */
        return ZISK_STEP + zisk_load(load);
    if (funct5 == 0x03) /* sc: the store, and rd's 0 when rd is not x0 */
        return ZISK_STEP * (f.rd ? 2 : 1) + zisk_store(store);
    if (funct5 == 0x01) /* amoswap */
        return 2 * ZISK_STEP + zisk_load(load) + zisk_store(store);
    uint64_t op = funct5 == 0x00 && f.funct3 == 3 ? ZISK_BINARY_ADD : ZISK_BINARY;
    return 3 * ZISK_STEP + zisk_load(load) + op + zisk_store(store);
}

static uint64_t zisk_insn(uint32_t word)
{
    struct rv_fields f = fields_of(word);
    switch (f.opcode) {
    case 0x13: return ZISK_STEP + (f.funct3 == 0 ? ZISK_BINARY_ADD : zisk_alu(f.funct3));
    case 0x1b: return ZISK_STEP + (f.funct3 == 0 ? ZISK_BINARY : ZISK_BINARY_E); /* addiw */
    case 0x33:
        if (f.funct7 == 1)
            return ZISK_STEP + ZISK_ARITH;
        if (f.funct3 == 0)
            return ZISK_STEP + (f.funct7 == 0x20 ? ZISK_BINARY : ZISK_BINARY_ADD);
        return ZISK_STEP + zisk_alu(f.funct3);
    case 0x3b:
        if (f.funct7 == 1)
            return ZISK_STEP + ZISK_ARITH;
        return ZISK_STEP + (f.funct3 == 0 ? ZISK_BINARY : ZISK_BINARY_E); /* addw, subw */
    case 0x63: return ZISK_STEP + ZISK_BINARY;                            /* eq, lt, ltu */
    case 0x67: /* jalr: and with ~3; an offset not a multiple of 4 adds an add step */
        if (((int32_t)word >> 20) % 4 == 0)
            return ZISK_STEP + ZISK_BINARY;
        return 2 * ZISK_STEP + ZISK_BINARY_ADD + ZISK_BINARY;
    case 0x03: return ZISK_STEP + zisk_load(f.funct3);
    case 0x23: return ZISK_STEP + zisk_store(f.funct3);
    case 0x2f: return zisk_amo(f);
    default: return ZISK_STEP; /* lui, auipc, jal, fence, CSRs: internal operations */
    }
}

/* The precompiles' operation costs (zisk_ops.rs), by our ABI's call names. */
enum {
    ZISK_KECCAK = ((93846 * 86) - 1) / 63 + 1, /* KECCAK_COST */
    ZISK_SHA256 = 72 * 121,                    /* SHA256_COST */
    ZISK_ARITH_EQ = 85 * 16,                   /* ARITH_EQ_COST */
    ZISK_ARITH_EQ_384 = 79 * 24,               /* ARITH_EQ_384_COST */
    ZISK_ADD256 = 104,                         /* ADD256_COST */
};

int cost_zisk_area(struct cost_model *m, struct error *e)
{
    static const struct named_cost ops[] = {
        {"keccakf", ZISK_KECCAK},
        {"sha256f", ZISK_SHA256},
        {"arith256", ZISK_ARITH_EQ},
        {"arith256_mod", ZISK_ARITH_EQ},
        {"secp256k1_add", ZISK_ARITH_EQ},
        {"secp256k1_dbl", ZISK_ARITH_EQ},
        {"bn254_curve_add", ZISK_ARITH_EQ},
        {"bn254_curve_dbl", ZISK_ARITH_EQ},
        {"bn254_complex_add", ZISK_ARITH_EQ},
        {"bn254_complex_sub", ZISK_ARITH_EQ},
        {"bn254_complex_mul", ZISK_ARITH_EQ},
        {"arith384_mod", ZISK_ARITH_EQ_384},
        {"bls12_381_curve_add", ZISK_ARITH_EQ_384},
        {"bls12_381_curve_dbl", ZISK_ARITH_EQ_384},
        {"bls12_381_complex_add", ZISK_ARITH_EQ_384},
        {"bls12_381_complex_sub", ZISK_ARITH_EQ_384},
        {"bls12_381_complex_mul", ZISK_ARITH_EQ_384},
        {"add256", ZISK_ADD256},
    };
    struct named_cost calls[sizeof(ops) / sizeof(ops[0])];
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        calls[i] = (struct named_cost){ops[i].call, ZISK_STEP + ops[i].cost}; /* one csrs step */
    if (cost_model_start(m, "area", ZISK_STEP, e) != 0)
        return -1;
    m->insn_cost = zisk_insn;
    return add_calls(m, calls, sizeof(calls) / sizeof(calls[0]), e);
}

/* ---- OpenVM ---- */

/*
 * The main trace width (columns, so cells per row) of each OpenVM 1.x
 * chip, adapter and core together, as OpenVM's own metrics report it
 * (main_cols per AIR in openvm-org/openvm benchmarks-pr/1567: kitchen_sink
 * at 82f7ff99, fib_e2e at f73da4db for LoadSignExtend, MulH, DivRem and
 * HintStore).
 */
enum {
    OVM_PHANTOM = 6,           /* PhantomAir: a nop (an ALU op or lui/auipc to x0) */
    OVM_BASE_ALU = 36,         /* Rv32BaseAluAdapterAir, BaseAluCoreAir<4, 8> */
    OVM_SHIFT = 53,            /* ShiftCoreAir<4, 8> */
    OVM_LESS_THAN = 37,        /* LessThanCoreAir<4, 8> */
    OVM_MUL = 31,              /* Rv32MultAdapterAir, MultiplicationCoreAir<4, 8> */
    OVM_MULH = 39,             /* MulHCoreAir<4, 8> */
    OVM_DIVREM = 59,           /* DivRemCoreAir<4, 8> */
    OVM_BRANCH_EQUAL = 26,     /* Rv32BranchAdapterAir, BranchEqualCoreAir<4> */
    OVM_BRANCH_LESS = 32,      /* BranchLessThanCoreAir<4, 8> */
    OVM_JAL_LUI = 18,          /* Rv32CondRdWriteAdapterAir, Rv32JalLuiCoreAir */
    OVM_JALR = 28,             /* Rv32JalrAdapterAir, Rv32JalrCoreAir */
    OVM_AUIPC = 20,            /* Rv32RdWriteAdapterAir, Rv32AuipcCoreAir */
    OVM_LOAD_STORE = 41,       /* Rv32LoadStoreAdapterAir, LoadStoreCoreAir<4> */
    OVM_LOAD_SIGN_EXTEND = 36, /* LoadSignExtendCoreAir<4, 8>: lb, lh */
    OVM_HINT_STORE = 32,       /* Rv32HintStoreAir, a row per word */
    OVM_KECCAK = 3163,         /* KeccakVmAir, 24 rows per 136-byte block */
    OVM_SHA256 = 470,          /* Sha256VmAir, 17 rows per 64-byte block */
    OVM_ALU256 = 168,          /* Rv32HeapAdapterAir<2, 32, 32>, BaseAluCoreAir<32, 8> */
    OVM_SHIFT256 = 241,        /* ShiftCoreAir<32, 8> */
    OVM_LESS_THAN256 = 169,    /* LessThanCoreAir<32, 8> */
    OVM_MUL256 = 164,          /* MultiplicationCoreAir<32, 8> */
    OVM_BRANCH_EQUAL256 = 124, /* Rv32HeapBranchAdapterAir<2, 32>, BranchEqualCoreAir<32> */
};

/* OP-IMM and OP without M, by funct3. */
static uint64_t openvm_alu(unsigned funct3)
{
    static const uint64_t by_funct3[8] = {OVM_BASE_ALU, OVM_SHIFT, OVM_LESS_THAN, OVM_LESS_THAN,
                                          OVM_BASE_ALU, OVM_SHIFT, OVM_BASE_ALU,  OVM_BASE_ALU};
    return by_funct3[funct3];
}

/* The transpiler makes an ALU op, lui or auipc that writes x0 a nop (from_r_type, ...). */
static uint64_t openvm_insn(uint32_t word)
{
    struct rv_fields f = fields_of(word);
    switch (f.opcode) {
    case 0x13: return f.rd ? openvm_alu(f.funct3) : OVM_PHANTOM;
    case 0x33:
        if (!f.rd)
            return OVM_PHANTOM;
        if (f.funct7 == 1)
            return f.funct3 == 0 ? OVM_MUL : f.funct3 < 4 ? OVM_MULH : OVM_DIVREM;
        return openvm_alu(f.funct3);
    case 0x37: return f.rd ? OVM_JAL_LUI : OVM_PHANTOM;
    case 0x17: return f.rd ? OVM_AUIPC : OVM_PHANTOM;
    case 0x6f: return OVM_JAL_LUI;
    case 0x67: return OVM_JALR;
    case 0x63: return f.funct3 < 2 ? OVM_BRANCH_EQUAL : OVM_BRANCH_LESS;
    case 0x03: return f.funct3 < 2 ? OVM_LOAD_SIGN_EXTEND : OVM_LOAD_STORE;
    case 0x23: return OVM_LOAD_STORE;
    default: return 0; /* custom opcodes are calls; the rest OpenVM does not run */
    }
}

int cost_openvm_cells(struct cost_model *m, struct error *e)
{
    static const struct named_cost calls[] = {
        {"KECCAK256", 24 * OVM_KECCAK},  {"SHA256", 17 * OVM_SHA256},
        {"ADD256", OVM_ALU256},          {"SUB256", OVM_ALU256},
        {"XOR256", OVM_ALU256},          {"OR256", OVM_ALU256},
        {"AND256", OVM_ALU256},          {"SLL256", OVM_SHIFT256},
        {"SRL256", OVM_SHIFT256},        {"SRA256", OVM_SHIFT256},
        {"SLT256", OVM_LESS_THAN256},    {"SLTU256", OVM_LESS_THAN256},
        {"MUL256", OVM_MUL256},          {"BEQ256", OVM_BRANCH_EQUAL256},
        {"HINT_STOREW", OVM_HINT_STORE}, {"HINT_BUFFER", OVM_HINT_STORE},
        {"REVEAL", OVM_LOAD_STORE},      {"HintInput", OVM_PHANTOM},
        {"PrintStr", OVM_PHANTOM},       {"HintRandom", OVM_PHANTOM},
    };
    if (cost_model_start(m, "cells", OVM_BASE_ALU, e) != 0)
        return -1;
    m->insn_cost = openvm_insn;
    m->call_default = 0; /* TERMINATE and the calls no chip above proves */
    return add_calls(m, calls, sizeof(calls) / sizeof(calls[0]), e);
}
