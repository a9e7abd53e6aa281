/*
 * cost_model: opcode classes, the built-in zkVM cost models (each figure
 * cited in docs/ZKVMS.md, "Weights") and --cost-table files.
 */
#include "executor/cost_model.h"
#include "executor/cost_zkvm.h"

#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *const class_names[INSN_CLASS_COUNT] = {
    "add",    "logic", "shift_left", "shift_right", "slt",   "mul",   "div",
    "branch", "jump",  "auipc",      "load",        "store", "ecall", "other",
};

const char *insn_class_name(enum insn_class c)
{
    return c < INSN_CLASS_COUNT ? class_names[c] : "?";
}

/* OP-IMM and OP without the M extension, by funct3 (funct3 0 is add or sub). */
static enum insn_class alu_class(unsigned funct3)
{
    static const enum insn_class by_funct3[8] = {INSN_ADD,   INSN_SHIFT_LEFT, INSN_SLT,
                                                 INSN_SLT,   INSN_LOGIC,      INSN_SHIFT_RIGHT,
                                                 INSN_LOGIC, INSN_LOGIC};
    return by_funct3[funct3];
}

/*
 * Quadrants 0 and 2 by funct3: 1, 5 (c.fld, c.fsd and their sp forms) and
 * on RV32 3, 7 (c.flw, c.fsw) move floating-point registers, which the
 * 32-bit classes count as other; on RV64 3, 7 are c.ld and c.sd.
 */
static enum insn_class compressed_memory_class(unsigned funct3, int xlen)
{
    if (funct3 == 1 || funct3 == 5 || (xlen == 32 && (funct3 & 3) == 3))
        return INSN_OTHER;
    return funct3 < 4 ? INSN_LOAD : INSN_STORE;
}

/* Quadrant 1's ALU group (funct3 4): c.srli, c.srai, c.andi, c.sub ... c.addw. */
static enum insn_class compressed_alu_class(uint16_t half)
{
    unsigned op = (half >> 10) & 3, funct2 = (half >> 5) & 3;
    if (op < 2)
        return INSN_SHIFT_RIGHT; /* c.srli, c.srai */
    if (op == 2)
        return INSN_LOGIC; /* c.andi */
    if (half & (1u << 12))
        return funct2 < 2 ? INSN_ADD : INSN_OTHER; /* c.subw, c.addw; reserved */
    return funct2 == 0 ? INSN_ADD : INSN_LOGIC;    /* c.sub; c.xor, c.or, c.and */
}

/*
 * A compressed instruction's class: that of the 32-bit instruction it
 * expands to (the RISC-V ISA manual, "C" extension, its RVC listings).
 */
static enum insn_class compressed_class(uint16_t half, int xlen)
{
    unsigned funct3 = half >> 13;
    switch (half & 3) {
    case 0:
        if (funct3 == 0) /* c.addi4spn; all zero is the illegal instruction */
            return half ? INSN_ADD : INSN_OTHER;
        return funct3 == 4 ? INSN_OTHER : compressed_memory_class(funct3, xlen);
    case 1:
        switch (funct3) {
        case 1: return xlen == 32 ? INSN_JUMP : INSN_ADD; /* c.jal (RV32), c.addiw (RV64) */
        case 4: return compressed_alu_class(half);
        case 5: return INSN_JUMP; /* c.j */
        case 6:
        case 7: return INSN_BRANCH; /* c.beqz, c.bnez */
        default: return INSN_ADD;   /* c.addi, c.nop, c.li, c.lui, c.addi16sp */
        }
    default:
        if (funct3 == 0)
            return INSN_SHIFT_LEFT; /* c.slli */
        if (funct3 != 4)
            return compressed_memory_class(funct3, xlen); /* the sp-relative loads and stores */
        if ((half >> 2) & 31)
            return INSN_ADD;                              /* c.mv, c.add */
        return (half >> 7) & 31 ? INSN_JUMP : INSN_OTHER; /* c.jr, c.jalr; c.ebreak */
    }
}

enum insn_class insn_class_of(uint32_t word, int xlen)
{
    if ((word & 3) != 3)
        return compressed_class((uint16_t)word, xlen);
    unsigned opcode = word & 0x7f, funct3 = (word >> 12) & 7, funct7 = word >> 25;
    switch (opcode) {
    case 0x37: return INSN_ADD; /* lui: SP1 runs it as an add of x0 */
    case 0x17: return INSN_AUIPC;
    case 0x6f:
    case 0x67: return INSN_JUMP;
    case 0x63: return INSN_BRANCH;
    case 0x03: return INSN_LOAD;
    case 0x23: return INSN_STORE;
    case 0x13:
    case 0x1b: return alu_class(funct3); /* OP-IMM, OP-IMM-32 */
    case 0x33:
    case 0x3b: /* OP, OP-32 */
        if (funct7 == 1)
            return funct3 < 4 ? INSN_MUL : INSN_DIV;
        return alu_class(funct3);
    case 0x73: return word == 0x00000073 ? INSN_ECALL : INSN_OTHER;
    default: return INSN_OTHER;
    }
}

uint64_t cost_model_call(const struct cost_model *m, const char *call)
{
    for (size_t i = 0; i < m->ncalls; i++)
        if (strcmp(m->calls[i].name, call) == 0)
            return m->calls[i].cost;
    return m->call_default;
}

void cost_model_free(struct cost_model *m)
{
    for (size_t i = 0; i < m->ncalls; i++)
        free(m->calls[i].name);
    free(m->calls);
    free(m->name);
    free(m->unit);
    memset(m, 0, sizeof(*m));
}

int cost_model_add_call(struct cost_model *m, const char *name, uint64_t cost, struct error *e)
{
    struct call_cost *c = realloc(m->calls, (m->ncalls + 1) * sizeof(*c));
    if (!c)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory for a cost model");
    m->calls = c;
    c[m->ncalls].name = strdup(name);
    if (!c[m->ncalls].name)
        return error_fail(e, ERROR_NO_MEMORY, "out of memory for a cost model");
    c[m->ncalls++].cost = cost;
    return 0;
}

int cost_model_start(struct cost_model *m, const char *name, uint64_t per_insn, struct error *e)
{
    memset(m, 0, sizeof(*m));
    m->name = strdup(name);
    m->unit = strdup("count");
    if (!m->name || !m->unit) {
        cost_model_free(m);
        return error_fail(e, ERROR_NO_MEMORY, "out of memory for a cost model");
    }
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++)
        m->class_cost[c] = per_insn;
    m->outside_cost = per_insn;
    m->call_default = per_insn;
    return 0;
}

/*
 * SP1's trace cells per event of each chip ("costs", RiscvAirId -> cells)
 * from succinctlabs/sp1 crates/core/executor/src/artifacts/rv32im_costs.json
 * (commit 3c61993a, the RV32 v4/v5 line), and the chips an opcode's event
 * lands in from crates/core/executor/src/cost.rs (estimate_riscv_event_counts).
 */
enum {
    SP1_CPU = 109,
    SP1_ADD_SUB = 46,
    SP1_BITWISE = 40,
    SP1_SHIFT_LEFT = 67,
    SP1_SHIFT_RIGHT = 133,
    SP1_LT = 55,
    SP1_MUL = 82,
    SP1_DIV_REM = 145,
    SP1_BRANCH = 58,
    SP1_JUMP = 50,
    SP1_AUIPC = 40,
    SP1_MEMORY_INSTRS = 91,
    SP1_SYSCALL_INSTRS = 80,
    SP1_SYSCALL_CORE = 23,
    SP1_GLOBAL = 427,
};

static const struct {
    const char *call;
    uint64_t cells; /* the precompile chip's cells per call */
} sp1_precompiles[] = {
    {"SHA_EXTEND", 15936},          {"SHA_COMPRESS", 40480},
    {"KECCAK_PERMUTE", 93720},      {"ED_ADD", 3637},
    {"ED_DECOMPRESS", 3062},        {"SECP256K1_ADD", 4013},
    {"SECP256K1_DOUBLE", 4492},     {"SECP256K1_DECOMPRESS", 2686},
    {"SECP256R1_ADD", 4013},        {"SECP256R1_DOUBLE", 4492},
    {"SECP256R1_DECOMPRESS", 2686}, {"BN254_ADD", 4013},
    {"BN254_DOUBLE", 4492},         {"BLS12381_ADD", 6045},
    {"BLS12381_DOUBLE", 6772},      {"BLS12381_DECOMPRESS", 4149},
    {"UINT256_MUL", 880},           {"U256XU2048_MUL", 5850},
    {"BN254_FP_ADD", 704},          {"BN254_FP_SUB", 704},
    {"BN254_FP_MUL", 704},          {"BN254_FP2_ADD", 1382},
    {"BN254_FP2_SUB", 1382},        {"BN254_FP2_MUL", 2885},
    {"BLS12381_FP_ADD", 1048},      {"BLS12381_FP_SUB", 1048},
    {"BLS12381_FP_MUL", 1048},      {"BLS12381_FP2_ADD", 2070},
    {"BLS12381_FP2_SUB", 2070},     {"BLS12381_FP2_MUL", 4341},
};

/*
 * SP1 gas (RV32): each instruction's cells, the CPU chip's and its own
 * chip's (a division also a multiplication and a comparison, as SP1
 * counts it); an ecall the CPU and syscall-instruction chips', and a
 * precompile call also its syscall-core and global events and its chip.
 */
static int sp1_gas(struct cost_model *m, struct error *e)
{
    if (cost_model_start(m, "gas", SP1_CPU, e) != 0)
        return -1;
    static const uint64_t chip[INSN_CLASS_COUNT] = {
        [INSN_ADD] = SP1_ADD_SUB,
        [INSN_LOGIC] = SP1_BITWISE,
        [INSN_SHIFT_LEFT] = SP1_SHIFT_LEFT,
        [INSN_SHIFT_RIGHT] = SP1_SHIFT_RIGHT,
        [INSN_SLT] = SP1_LT,
        [INSN_MUL] = SP1_MUL,
        [INSN_DIV] = SP1_DIV_REM + SP1_MUL + SP1_LT,
        [INSN_BRANCH] = SP1_BRANCH,
        [INSN_JUMP] = SP1_JUMP,
        [INSN_AUIPC] = SP1_AUIPC,
        [INSN_LOAD] = SP1_MEMORY_INSTRS,
        [INSN_STORE] = SP1_MEMORY_INSTRS,
        [INSN_ECALL] = SP1_SYSCALL_INSTRS,
    };
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++)
        m->class_cost[c] = SP1_CPU + chip[c];
    m->call_default = SP1_CPU + SP1_SYSCALL_INSTRS;
    for (size_t i = 0; i < sizeof(sp1_precompiles) / sizeof(sp1_precompiles[0]); i++) {
        uint64_t cost = m->call_default + SP1_SYSCALL_CORE + SP1_GLOBAL + sp1_precompiles[i].cells;
        if (cost_model_add_call(m, sp1_precompiles[i].call, cost, e) != 0) {
            cost_model_free(m);
            return -1;
        }
    }
    return 0;
}

/*
 * RISC Zero 2.x/3.x cycles (risc0/circuit/rv32im/src/execute: executor.rs,
 * pager.rs at commit 05da30e7, platform.rs): one per user instruction
 * (on_insn_end), and paging: a 1 KiB page's first load in a segment costs
 * PAGE_CYCLES = 1 + 10 * 32 + 1 = 322, and so does its first store
 * (page-out), each page-table node (a Merkle tree 22 levels deep) newly
 * loaded or dirtied NODE_CYCLES = 1 + 2 + 8 + 1 + 1 = 13; each segment
 * starts with 5 (load root 1, Poseidon entry 1, paging 1, resume 2) and
 * ends with 5 (suspend 2, Poseidon entry 1, paging 1, store root 1) of
 * RESERVED_PAGING_CYCLES = 10. Segments hold 2^20 cycles (the default
 * segment_limit_po2), RESERVED_CYCLES = (2^8 + 2^16) / 16 + 1 = 4113 of
 * them for lookup tables; a segment splits before the instruction that
 * finds it past 2^20 - MAX_INSN_CYCLES (25,000: risc0-circuit-rv32im's
 * lib.rs).
 */
static int risc0_cycles(struct cost_model *m, struct error *e)
{
    if (cost_model_start(m, "cycles", 1, e) != 0)
        return -1;
    m->page_in = m->page_out = 322;
    m->node_in = m->node_out = 13;
    m->segment_in = m->segment_out = 5;
    m->segment_po2 = 20;
    m->segment_reserved = 4113;
    m->segment_insn_max = 25000;
    return 0;
}

/* "class:NAME": the instructions of one opcode class (docs/ZKVMS.md, "Weights"). */
static int class_count(struct cost_model *m, const char *name, struct error *e)
{
    const char *want = name + strlen(CLASS_WEIGHT_PREFIX);
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++) {
        if (strcmp(class_names[c], want) != 0)
            continue;
        if (cost_model_start(m, name, 0, e) != 0)
            return -1;
        m->class_cost[c] = 1;
        m->call_default = c == INSN_ECALL;
        m->outside_cost = c == INSN_OTHER;
        return 0;
    }
    return error_fail(e, ERROR_UNSUPPORTED,
                      "--weight %s: no such opcode class (add, logic, shift_left, shift_right, "
                      "slt, mul, div, branch, jump, auipc, load, store, ecall, other)",
                      name);
}

/* The zkVMs' own weights: by ABI, name and xlen (0: either). */
static const struct builtin {
    const char *abi, *name;
    int xlen;
    int (*build)(struct cost_model *m, struct error *e);
} builtins[] = {
    {"risc0", "cycles", 0, risc0_cycles},      {"sp1", "gas", 32, sp1_gas},
    {"sp1", "gas", 64, cost_sp1_v6_gas},       {"zisk", "area", 0, cost_zisk_area},
    {"openvm", "cells", 0, cost_openvm_cells},
};

enum { BUILTINS = sizeof(builtins) / sizeof(builtins[0]) };

static const struct builtin *find_builtin(const char *name, const char *abi, int xlen)
{
    for (size_t i = 0; i < BUILTINS; i++)
        if (strcmp(builtins[i].abi, abi) == 0 && strcmp(builtins[i].name, name) == 0 &&
            (builtins[i].xlen == 0 || builtins[i].xlen == xlen))
            return &builtins[i];
    return NULL;
}

/* The weights of `abi` but "instructions" and "cycles", as ", a, b". */
static void list_own_weights(char *out, size_t size, const char *abi, int xlen)
{
    size_t at = 0;
    out[0] = 0;
    for (size_t i = 0; i < BUILTINS && at < size; i++) {
        const struct builtin *b = &builtins[i];
        if (strcmp(b->abi, abi) == 0 && strcmp(b->name, "cycles") != 0 &&
            (b->xlen == 0 || b->xlen == xlen))
            at += (size_t)snprintf(out + at, size - at, ", %s", b->name);
    }
}

int cost_model_builtin(struct cost_model *m, const char *name, const char *abi, int xlen,
                       struct error *e)
{
    memset(m, 0, sizeof(*m));
    if (strcmp(name, "instructions") == 0)
        return cost_model_start(m, name, 1, e);
    if (strncmp(name, CLASS_WEIGHT_PREFIX, strlen(CLASS_WEIGHT_PREFIX)) == 0)
        return class_count(m, name, e);
    if (strcmp(name, "pages") == 0) {
        if (cost_model_start(m, name, 0, e) != 0)
            return -1;
        m->counts_pages = true;
        return 0;
    }
    bool zkvm = strcmp(abi, "linux") != 0;
    const struct builtin *b = find_builtin(name, abi, xlen);
    if (b)
        return b->build(m, e);
    if (strcmp(name, "cycles") == 0 && zkvm) /* one per instruction (a step, a row) */
        return cost_model_start(m, name, 1, e);
    char own[64];
    list_own_weights(own, sizeof(own), abi, xlen);
    return error_fail(e, ERROR_UNSUPPORTED,
                      "--weight %s: %s guests have no such weight here (instructions%s%s), and "
                      "every guest has classes, class:NAME and pages; a --cost-table file adds one",
                      name, abi, zkvm ? ", cycles" : "", own);
}

/* ---- --cost-table files ---- */

static int number(json_t *v, const char *where, uint64_t *out, struct error *e)
{
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return error_fail(e, ERROR_CORRUPT, "%s must be a whole number of 0 or more", where);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

static int read_classes(struct cost_model *m, json_t *classes, struct error *e)
{
    if (!classes)
        return 0;
    if (!json_is_object(classes))
        return error_fail(e, ERROR_CORRUPT, "\"classes\" must be an object of class: cost");
    json_t *v = json_object_get(classes, "default");
    uint64_t d = 1;
    if (v && number(v, "classes.default", &d, e) != 0)
        return -1;
    for (size_t c = 0; c < INSN_CLASS_COUNT; c++)
        m->class_cost[c] = d;
    m->outside_cost = d;
    const char *key;
    json_object_foreach(classes, key, v)
    {
        if (strcmp(key, "default") == 0)
            continue;
        size_t c = 0;
        while (c < INSN_CLASS_COUNT && strcmp(class_names[c], key) != 0)
            c++;
        char where[160];
        snprintf(where, sizeof(where), "classes.%.100s", key);
        if (c == INSN_CLASS_COUNT)
            return error_fail(e, ERROR_CORRUPT,
                              "%s: no such opcode class (add, logic, shift_left, shift_right, "
                              "slt, mul, div, branch, jump, auipc, load, store, ecall, other, "
                              "default)",
                              where);
        if (number(v, where, &m->class_cost[c], e) != 0)
            return -1;
    }
    return 0;
}

static int read_calls(struct cost_model *m, json_t *calls, struct error *e)
{
    if (!calls)
        return 0;
    if (!json_is_object(calls))
        return error_fail(e, ERROR_CORRUPT, "\"calls\" must be an object of call name: cost");
    const char *key;
    json_t *v;
    json_object_foreach(calls, key, v)
    {
        char where[160];
        snprintf(where, sizeof(where), "calls.%.100s", key);
        uint64_t cost = 0;
        if (number(v, where, &cost, e) != 0)
            return -1;
        if (strcmp(key, "default") == 0)
            m->call_default = cost;
        else if (cost_model_add_call(m, key, cost, e) != 0)
            return -1;
    }
    return 0;
}

static int read_pages(struct cost_model *m, json_t *pages, struct error *e)
{
    if (!pages)
        return 0;
    if (!json_is_object(pages))
        return error_fail(e, ERROR_CORRUPT, "\"pages\" must be an object");
    static const char *const keys[] = {"page_in", "page_out", "segment_po2"};
    uint64_t *fields[] = {&m->page_in, &m->page_out, NULL};
    const char *key;
    json_t *v;
    json_object_foreach(pages, key, v)
    {
        size_t k = 0;
        while (k < 3 && strcmp(keys[k], key) != 0)
            k++;
        char where[160];
        snprintf(where, sizeof(where), "pages.%.100s", key);
        if (k == 3)
            return error_fail(e, ERROR_CORRUPT, "%s: not a field (page_in, page_out, segment_po2)",
                              where);
        uint64_t n = 0;
        if (number(v, where, &n, e) != 0)
            return -1;
        if (fields[k])
            *fields[k] = n;
        else if (n < 10 || n > 32)
            return error_fail(e, ERROR_CORRUPT, "%s must lie in 10..32", where);
        else
            m->segment_po2 = (unsigned)n;
    }
    return 0;
}

/* The fields of a table's top-level object. */
static int read_table(struct cost_model *m, json_t *root, struct error *e)
{
    if (!json_is_object(root))
        return error_fail(e, ERROR_CORRUPT, "a cost table is one JSON object");
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        if (strcmp(key, "name") && strcmp(key, "unit") && strcmp(key, "classes") &&
            strcmp(key, "calls") && strcmp(key, "pages"))
            return error_fail(e, ERROR_CORRUPT,
                              "\"%.100s\": not a field (name, unit, classes, calls, pages)", key);
    }
    json_t *name = json_object_get(root, "name"), *unit = json_object_get(root, "unit");
    if (!json_is_string(name) || json_string_length(name) == 0 ||
        strcspn(json_string_value(name), " ;\t\n") != json_string_length(name))
        return error_fail(e, ERROR_CORRUPT,
                          "\"name\" (the weight's name) must be a non-empty string without "
                          "spaces or ';'");
    if (unit && !json_is_string(unit))
        return error_fail(e, ERROR_CORRUPT, "\"unit\" must be a string");
    if (cost_model_start(m, json_string_value(name), 1, e) != 0)
        return -1;
    if (unit) {
        free(m->unit);
        m->unit = strdup(json_string_value(unit));
        if (!m->unit)
            return error_fail(e, ERROR_NO_MEMORY, "out of memory for a cost model");
    }
    if (read_classes(m, json_object_get(root, "classes"), e) != 0 ||
        read_calls(m, json_object_get(root, "calls"), e) != 0 ||
        read_pages(m, json_object_get(root, "pages"), e) != 0)
        return -1;
    return 0;
}

int cost_model_read(struct cost_model *m, const char *path, struct error *e)
{
    memset(m, 0, sizeof(*m));
    json_error_t je;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        if (je.line <= 0) /* the file itself: jansson says why in its text */
            return error_fail(e, ERROR_UNREADABLE, "cannot read cost table %s: %s", path, je.text);
        return error_fail(e, ERROR_CORRUPT, "cost table %s: line %d, column %d: %s", path, je.line,
                          je.column, je.text);
    }
    struct error inner = ERROR_INIT;
    int rc = read_table(m, root, &inner);
    json_decref(root);
    if (rc != 0) {
        cost_model_free(m);
        return error_fail(e, inner.status, "cost table %s: %s", path, inner.msg);
    }
    return 0;
}
