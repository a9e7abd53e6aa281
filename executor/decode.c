/*
 * decode: RV32I/RV64I, M, A and Zicsr instruction words to `struct insn`
 * (the RISC-V unprivileged ISA, chapters "RV32I", "RV64I", "M", "A" and
 * "Zicsr").
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
        return illegal(w); /* compressed encodings are refused at load time */
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
