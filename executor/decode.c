/*
 * decode: RV32I/RV64I, M, A, Zicsr and C instructions to `struct insn`
 * (the RISC-V unprivileged ISA, chapters "RV32I", "RV64I", "M", "A",
 * "Zicsr" and "C").
 */
#include "executor/decode.h"

#include <stddef.h>

/* Sign-extends the low `bits` bits of v. */
static int32_t sext(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    v &= (m << 1) - 1;
    return (int32_t)((v ^ m) - m);
}

static int32_t imm_i(uint32_t w)
{
    return sext(w >> 20, 12);
}

static int32_t imm_s(uint32_t w)
{
    return sext(((w >> 25) << 5) | ((w >> 7) & 0x1f), 12);
}

static int32_t imm_b(uint32_t w)
{
    return sext(((w >> 31) << 12) | (((w >> 7) & 1) << 11) | (((w >> 25) & 0x3f) << 5) |
                    (((w >> 8) & 0xf) << 1),
                13);
}

static int32_t imm_u(uint32_t w)
{
    return (int32_t)(w & 0xfffff000u);
}

static int32_t imm_j(uint32_t w)
{
    return sext(((w >> 31) << 20) | (w & 0xff000) | (((w >> 20) & 1) << 11) |
                    (((w >> 21) & 0x3ff) << 1),
                21);
}

static struct insn make(enum insn_op op, uint32_t w, int32_t imm)
{
    unsigned rd = (w >> 7) & 0x1f;
    return (struct insn){
        .op = (uint8_t)op,
        .rd = (uint8_t)(rd ? rd : REG_SINK),
        .rs1 = (uint8_t)((w >> 15) & 0x1f),
        .rs2 = (uint8_t)((w >> 20) & 0x1f),
        .imm = imm,
    };
}

static struct insn illegal(uint32_t w)
{
    return (struct insn){.op = OP_ILLEGAL, .imm = (int32_t)w};
}

static struct insn decode_branch(uint32_t w)
{
    static const enum insn_op ops[8] = {OP_BEQ, OP_BNE, OP_ILLEGAL, OP_ILLEGAL,
                                        OP_BLT, OP_BGE, OP_BLTU,    OP_BGEU};
    enum insn_op op = ops[(w >> 12) & 7];
    if (op == OP_ILLEGAL)
        return illegal(w);
    struct insn in = make(op, w, imm_b(w));
    in.rd = (uint8_t)((w >> 12) & 7); /* funct3, kept for BRANCH_FAR */
    return in;
}

static struct insn decode_load(uint32_t w, int xlen)
{
    static const enum insn_op ops[8] = {OP_LB,  OP_LH,  OP_LW,  OP_LD,
                                        OP_LBU, OP_LHU, OP_LWU, OP_ILLEGAL};
    enum insn_op op = ops[(w >> 12) & 7];
    if (op == OP_ILLEGAL || (xlen == 32 && (op == OP_LD || op == OP_LWU)))
        return illegal(w);
    return make(op, w, imm_i(w));
}

static struct insn decode_store(uint32_t w, int xlen)
{
    static const enum insn_op ops[8] = {OP_SB,      OP_SH,      OP_SW,      OP_SD,
                                        OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL};
    enum insn_op op = ops[(w >> 12) & 7];
    if (op == OP_ILLEGAL || (xlen == 32 && op == OP_SD))
        return illegal(w);
    return make(op, w, imm_s(w));
}

/* Shift-immediate: shamt is 5 bits on RV32 and for *W, 6 bits on RV64. */
static struct insn decode_shift_imm(uint32_t w, unsigned shamt_bits, enum insn_op left,
                                    enum insn_op right_logical, enum insn_op right_arith)
{
    unsigned funct3 = (w >> 12) & 7;
    unsigned upper = w >> (20 + shamt_bits); /* bits above shamt in imm[11:0] */
    unsigned shamt = (w >> 20) & ((1u << shamt_bits) - 1);
    unsigned srai_upper = 0x20u >> (shamt_bits - 5); /* 0100000 as funct7 or funct6 */
    if (funct3 == 1 && upper == 0)
        return make(left, w, (int32_t)shamt);
    if (funct3 == 5 && upper == 0)
        return make(right_logical, w, (int32_t)shamt);
    if (funct3 == 5 && upper == srai_upper)
        return make(right_arith, w, (int32_t)shamt);
    return illegal(w);
}

static struct insn decode_op_imm(uint32_t w, int xlen)
{
    static const enum insn_op ops[8] = {OP_ADDI, OP_ILLEGAL, OP_SLTI, OP_SLTIU,
                                        OP_XORI, OP_ILLEGAL, OP_ORI,  OP_ANDI};
    unsigned funct3 = (w >> 12) & 7;
    if (funct3 == 1 || funct3 == 5)
        return decode_shift_imm(w, xlen == 64 ? 6 : 5, OP_SLLI, OP_SRLI, OP_SRAI);
    return make(ops[funct3], w, imm_i(w));
}

static struct insn decode_op_imm32(uint32_t w)
{
    unsigned funct3 = (w >> 12) & 7;
    if (funct3 == 0)
        return make(OP_ADDIW, w, imm_i(w));
    if (funct3 == 1 || funct3 == 5)
        return decode_shift_imm(w, 5, OP_SLLIW, OP_SRLIW, OP_SRAIW);
    return illegal(w);
}

/* Register-register ops, indexed by funct3, for funct7 0, 0x20 and 1 (M). */
static struct insn decode_op(uint32_t w)
{
    static const enum insn_op base[8] = {OP_ADD, OP_SLL, OP_SLT, OP_SLTU,
                                         OP_XOR, OP_SRL, OP_OR,  OP_AND};
    static const enum insn_op mul[8] = {OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU,
                                        OP_DIV, OP_DIVU, OP_REM,    OP_REMU};
    unsigned funct3 = (w >> 12) & 7, funct7 = w >> 25;
    if (funct7 == 0)
        return make(base[funct3], w, 0);
    if (funct7 == 1)
        return make(mul[funct3], w, 0);
    if (funct7 == 0x20 && funct3 == 0)
        return make(OP_SUB, w, 0);
    if (funct7 == 0x20 && funct3 == 5)
        return make(OP_SRA, w, 0);
    return illegal(w);
}

static struct insn decode_op32(uint32_t w)
{
    static const enum insn_op base[8] = {OP_ADDW,    OP_SLLW, OP_ILLEGAL, OP_ILLEGAL,
                                         OP_ILLEGAL, OP_SRLW, OP_ILLEGAL, OP_ILLEGAL};
    static const enum insn_op mul[8] = {OP_MULW, OP_ILLEGAL, OP_ILLEGAL, OP_ILLEGAL,
                                        OP_DIVW, OP_DIVUW,   OP_REMW,    OP_REMUW};
    unsigned funct3 = (w >> 12) & 7, funct7 = w >> 25;
    enum insn_op op = OP_ILLEGAL;
    if (funct7 == 0)
        op = base[funct3];
    else if (funct7 == 1)
        op = mul[funct3];
    else if (funct7 == 0x20 && funct3 == 0)
        op = OP_SUBW;
    else if (funct7 == 0x20 && funct3 == 5)
        op = OP_SRAW;
    return op == OP_ILLEGAL ? illegal(w) : make(op, w, 0);
}

/* The kind of a jalr by its link registers (see decode.h). */
static enum insn_op jalr_kind(uint32_t w)
{
    unsigned rd = (w >> 7) & 0x1f, rs1 = (w >> 15) & 0x1f;
    if (insn_is_link(rd))
        return insn_is_link(rs1) && rs1 != rd ? OP_JALR_RETCALL : OP_JALR_CALL;
    return insn_is_link(rs1) ? OP_JALR_RET : OP_JALR;
}

static struct insn decode_system(uint32_t w)
{
    if (w == 0x00000073)
        return make(OP_ECALL, w, 0);
    if (w == 0x00100073)
        return make(OP_EBREAK, w, 0);
    if (((w >> 12) & 3) != 0) /* funct3 1-3, 5-7: csrrw, csrrs, csrrc and their immediates */
        return make(OP_CSR, w, (int32_t)w);
    return illegal(w); /* xRET, wfi, sfence.vma: privileged */
}

/* LR, SC and the AMOs (funct5), .W on both XLENs, .D on RV64; aq and rl are ignored. */
static struct insn decode_amo(uint32_t w, int xlen)
{
    unsigned funct3 = (w >> 12) & 7, funct5 = w >> 27;
    if (funct3 != 2 && !(funct3 == 3 && xlen == 64))
        return illegal(w);
    switch (funct5) {
    case 0x02: /* lr: rs2 must be 0 */
        if (((w >> 20) & 0x1f) != 0)
            return illegal(w);
        return make(OP_AMO, w, (int32_t)w);
    case 0x00:
    case 0x01:
    case 0x03:
    case 0x04:
    case 0x08:
    case 0x0c:
    case 0x10:
    case 0x14:
    case 0x18:
    case 0x1c: return make(OP_AMO, w, (int32_t)w);
    default: return illegal(w);
    }
}

static struct insn decode_misc_mem(uint32_t w)
{
    unsigned funct3 = (w >> 12) & 7;
    if (funct3 == 0 || funct3 == 1) /* fence, fence.i: nothing to order here */
        return make(OP_FENCE, w, 0);
    return illegal(w);
}

struct insn decode_insn(uint32_t w, int xlen)
{
    if ((w & 3) != 3)
        return illegal(w); /* compressed: decode_compressed, on a hart with C */
    switch ((w >> 2) & 0x1f) {
    case 0x00: return decode_load(w, xlen);
    case 0x03: return decode_misc_mem(w);
    case 0x04: return decode_op_imm(w, xlen);
    case 0x05: return make(OP_AUIPC, w, imm_u(w));
    case 0x06: return xlen == 64 ? decode_op_imm32(w) : illegal(w);
    case 0x08: return decode_store(w, xlen);
    case 0x0b: return decode_amo(w, xlen);
    case 0x0c: return decode_op(w);
    case 0x0d: return make(OP_LUI, w, imm_u(w));
    case 0x0e: return xlen == 64 ? decode_op32(w) : illegal(w);
    case 0x18: return decode_branch(w);
    case 0x19: return ((w >> 12) & 7) == 0 ? make(jalr_kind(w), w, imm_i(w)) : illegal(w);
    case 0x1b: return make(insn_is_link((w >> 7) & 0x1f) ? OP_JAL_CALL : OP_JAL, w, imm_j(w));
    case 0x1c: return decode_system(w);
    default: return illegal(w);
    }
}

/* ---- C: each compressed form as the instruction it expands to ---- */

/* Bits [at, at + n) of h moved to bit `to`. */
static uint32_t bits(uint32_t h, unsigned at, unsigned n, unsigned to)
{
    return ((h >> at) & ((1u << n) - 1)) << to;
}

static struct insn compressed(enum insn_op op, unsigned rd, unsigned rs1, unsigned rs2, int32_t imm)
{
    return (struct insn){.op = (uint8_t)op,
                         .rd = (uint8_t)(rd ? rd : REG_SINK),
                         .rs1 = (uint8_t)rs1,
                         .rs2 = (uint8_t)rs2,
                         .imm = imm};
}

/* The 3-bit register fields of the CIW/CL/CS/CA/CB formats name x8..x15. */
static unsigned reg_at_2(uint32_t h)
{
    return bits(h, 2, 3, 0) + 8;
}

static unsigned reg_at_7(uint32_t h)
{
    return bits(h, 7, 3, 0) + 8;
}

/* The 6-bit immediate of CI: imm[5] at bit 12, imm[4:0] at bits 6:2. */
static uint32_t ci_imm(uint32_t h)
{
    return bits(h, 12, 1, 5) | bits(h, 2, 5, 0);
}

/* The jump offset of CJ (c.j, c.jal). */
static int32_t cj_offset(uint32_t h)
{
    return sext(bits(h, 12, 1, 11) | bits(h, 11, 1, 4) | bits(h, 9, 2, 8) | bits(h, 8, 1, 10) |
                    bits(h, 7, 1, 6) | bits(h, 6, 1, 7) | bits(h, 3, 3, 1) | bits(h, 2, 1, 5),
                12);
}

/* The branch offset of CB (c.beqz, c.bnez). */
static int32_t cb_offset(uint32_t h)
{
    return sext(bits(h, 12, 1, 8) | bits(h, 10, 2, 3) | bits(h, 5, 2, 6) | bits(h, 3, 2, 1) |
                    bits(h, 2, 1, 5),
                9);
}

/* Word (lw/sw) and doubleword (ld/sd) offsets of CL/CS. */
static int32_t cl_word_offset(uint32_t h)
{
    return (int32_t)(bits(h, 10, 3, 3) | bits(h, 6, 1, 2) | bits(h, 5, 1, 6));
}

static int32_t cl_double_offset(uint32_t h)
{
    return (int32_t)(bits(h, 10, 3, 3) | bits(h, 5, 2, 6));
}

static struct insn illegal_half(uint32_t h)
{
    return illegal(h);
}

/* Quadrant 0: c.addi4spn, c.lw, c.sw, and on RV64 c.ld, c.sd. */
static struct insn decode_c0(uint32_t h, int xlen)
{
    unsigned rd = reg_at_2(h), rs1 = reg_at_7(h);
    switch (h >> 13) {
    case 0: {
        int32_t imm =
            (int32_t)(bits(h, 11, 2, 4) | bits(h, 7, 4, 6) | bits(h, 6, 1, 2) | bits(h, 5, 1, 3));
        return imm ? compressed(OP_C_ADDI, rd, 2, 0, imm) : illegal_half(h); /* 0x0000 too */
    }
    case 2: return compressed(OP_C_LW, rd, rs1, 0, cl_word_offset(h));
    case 3:
        return xlen == 64 ? compressed(OP_C_LD, rd, rs1, 0, cl_double_offset(h)) : illegal_half(h);
    case 6: return compressed(OP_C_SW, 0, rs1, rd, cl_word_offset(h));
    case 7:
        return xlen == 64 ? compressed(OP_C_SD, 0, rs1, rd, cl_double_offset(h)) : illegal_half(h);
    default: return illegal_half(h); /* c.fld, c.flw, c.fsd, c.fsw, reserved */
    }
}

/* Quadrant 1, funct3 4: shifts, c.andi and the register-register forms on x8..x15. */
static struct insn decode_c1_arith(uint32_t h, int xlen)
{
    static const enum insn_op ops[8] = {OP_C_SUB,  OP_C_XOR,  OP_C_OR,    OP_C_AND,
                                        OP_C_SUBW, OP_C_ADDW, OP_ILLEGAL, OP_ILLEGAL};
    unsigned rd = reg_at_7(h), shamt = ci_imm(h);
    switch (bits(h, 10, 2, 0)) {
    case 0:
    case 1:
        if (xlen == 32 && shamt >= 32)
            return illegal_half(h);
        return compressed(bits(h, 10, 1, 0) ? OP_C_SRAI : OP_C_SRLI, rd, rd, 0, (int32_t)shamt);
    case 2: return compressed(OP_C_ANDI, rd, rd, 0, sext(ci_imm(h), 6));
    default: {
        enum insn_op op = ops[bits(h, 12, 1, 2) | bits(h, 5, 2, 0)];
        if (op == OP_ILLEGAL || (xlen == 32 && (op == OP_C_SUBW || op == OP_C_ADDW)))
            return illegal_half(h);
        return compressed(op, rd, rd, reg_at_2(h), 0);
    }
    }
}

/* Quadrant 1: immediates, c.jal (RV32) / c.addiw (RV64), c.j, c.beqz, c.bnez. */
static struct insn decode_c1(uint32_t h, int xlen)
{
    unsigned rd = bits(h, 7, 5, 0);
    int32_t imm6 = sext(ci_imm(h), 6);
    switch (h >> 13) {
    case 0: return compressed(OP_C_ADDI, rd, rd, 0, imm6); /* c.nop when rd is x0 */
    case 1:
        if (xlen == 32)
            return compressed(OP_C_JAL_CALL, 1, 0, 0, cj_offset(h));
        return rd ? compressed(OP_C_ADDIW, rd, rd, 0, imm6) : illegal_half(h);
    case 2: return compressed(OP_C_ADDI, rd, 0, 0, imm6); /* c.li */
    case 3:
        if (rd == 2) { /* c.addi16sp */
            int32_t imm = sext(bits(h, 12, 1, 9) | bits(h, 6, 1, 4) | bits(h, 5, 1, 6) |
                                   bits(h, 3, 2, 7) | bits(h, 2, 1, 5),
                               10);
            return imm ? compressed(OP_C_ADDI, 2, 2, 0, imm) : illegal_half(h);
        }
        if (ci_imm(h) == 0)
            return illegal_half(h);
        return compressed(OP_C_LUI, rd, 0, 0, sext(ci_imm(h) << 12, 18)); /* c.lui */
    case 4: return decode_c1_arith(h, xlen);
    case 5:
        return compressed(OP_C_JAL, 0, 0, 0, cj_offset(h)); /* c.j */
    /* c.beqz, c.bnez: rd holds funct3 (beq 0, bne 1), as decode_branch keeps it */
    case 6: return (struct insn){.op = OP_C_BEQ, .rs1 = (uint8_t)reg_at_7(h), .imm = cb_offset(h)};
    default:
        return (struct insn){
            .op = OP_C_BNE, .rd = 1, .rs1 = (uint8_t)reg_at_7(h), .imm = cb_offset(h)};
    }
}

/* c.jr, c.mv, c.ebreak, c.jalr, c.add (quadrant 2, funct3 4). */
static struct insn decode_c2_jump_move(uint32_t h)
{
    unsigned rd = bits(h, 7, 5, 0), rs2 = bits(h, 2, 5, 0);
    if (!bits(h, 12, 1, 0)) {
        if (rs2) /* c.mv */
            return compressed(OP_C_ADD, rd, 0, rs2, 0);
        if (!rd)
            return illegal_half(h);
        return compressed(insn_is_link(rd) ? OP_C_JALR_RET : OP_C_JALR, 0, rd, 0, 0); /* c.jr */
    }
    if (rs2) /* c.add */
        return compressed(OP_C_ADD, rd, rd, rs2, 0);
    if (!rd)
        return (struct insn){.op = OP_EBREAK, .rd = REG_SINK, .imm = (int32_t)h}; /* c.ebreak */
    /* c.jalr: rd is ra; with t0 as rs1 it returns and calls (see decode.h) */
    return compressed(rd == 5 ? OP_C_JALR_RETCALL : OP_C_JALR_CALL, 1, rd, 0, 0);
}

/* Quadrant 2: c.slli, the sp-relative loads and stores, jumps and moves. */
static struct insn decode_c2(uint32_t h, int xlen)
{
    unsigned rd = bits(h, 7, 5, 0), rs2 = bits(h, 2, 5, 0);
    switch (h >> 13) {
    case 0:
        if (xlen == 32 && ci_imm(h) >= 32)
            return illegal_half(h);
        return compressed(OP_C_SLLI, rd, rd, 0, (int32_t)ci_imm(h));
    case 2: /* c.lwsp */
        if (!rd)
            return illegal_half(h);
        return compressed(OP_C_LW, rd, 2, 0,
                          (int32_t)(bits(h, 12, 1, 5) | bits(h, 4, 3, 2) | bits(h, 2, 2, 6)));
    case 3: /* c.ldsp */
        if (xlen == 32 || !rd)
            return illegal_half(h);
        return compressed(OP_C_LD, rd, 2, 0,
                          (int32_t)(bits(h, 12, 1, 5) | bits(h, 5, 2, 3) | bits(h, 2, 3, 6)));
    case 4: return decode_c2_jump_move(h);
    case 6: return compressed(OP_C_SW, 0, 2, rs2, (int32_t)(bits(h, 9, 4, 2) | bits(h, 7, 2, 6)));
    case 7:
        if (xlen == 32)
            return illegal_half(h);
        return compressed(OP_C_SD, 0, 2, rs2, (int32_t)(bits(h, 10, 3, 3) | bits(h, 7, 3, 6)));
    default: return illegal_half(h); /* c.fldsp, c.flwsp, c.fsdsp, c.fswsp */
    }
}

struct insn decode_compressed(uint16_t half, int xlen)
{
    switch (half & 3) {
    case 0: return decode_c0(half, xlen);
    case 1: return decode_c1(half, xlen);
    case 2: return decode_c2(half, xlen);
    default: return illegal_half(half);
    }
}

const char *insn_csr_name(unsigned csr)
{
    static const struct {
        unsigned number;
        const char *name;
    } csrs[] = {
        {0x001, "fflags"},   {0x002, "frm"},    {0x003, "fcsr"},     {0x100, "sstatus"},
        {0x104, "sie"},      {0x105, "stvec"},  {0x140, "sscratch"}, {0x141, "sepc"},
        {0x142, "scause"},   {0x143, "stval"},  {0x144, "sip"},      {0x180, "satp"},
        {0x300, "mstatus"},  {0x301, "misa"},   {0x302, "medeleg"},  {0x303, "mideleg"},
        {0x304, "mie"},      {0x305, "mtvec"},  {0x340, "mscratch"}, {0x341, "mepc"},
        {0x342, "mcause"},   {0x343, "mtval"},  {0x344, "mip"},      {0xb00, "mcycle"},
        {0xb02, "minstret"}, {0xc00, "cycle"},  {0xc01, "time"},     {0xc02, "instret"},
        {0xc80, "cycleh"},   {0xc81, "timeh"},  {0xc82, "instreth"}, {0xf11, "mvendorid"},
        {0xf12, "marchid"},  {0xf13, "mimpid"}, {0xf14, "mhartid"},
    };
    for (size_t i = 0; i < sizeof(csrs) / sizeof(csrs[0]); i++)
        if (csrs[i].number == csr)
            return csrs[i].name;
    return NULL;
}

const char *insn_op_name(enum insn_op op)
{
    static const char *const names[OP_COUNT] = {
#define INSN_OP_NAME(name) #name,
        INSN_OPS(INSN_OP_NAME)
#undef INSN_OP_NAME
    };
    return (unsigned)op < OP_COUNT ? names[op] : "?";
}
