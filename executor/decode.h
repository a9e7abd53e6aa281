/*
 * decode: turns one 32-bit RISC-V instruction word into a predecoded
 * `struct insn`: an operation number for the dispatch table and the
 * operands already extracted and sign-extended, so the interpreter never
 * looks at instruction bits again.
 */
#ifndef EXECUTOR_DECODE_H
#define EXECUTOR_DECODE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Every operation the interpreter dispatches on. DECODE must stay first
 * (value 0): a zero-filled code cache means "not decoded yet".
 */
/* clang-format off */
#define INSN_OPS(X)                                                                                \
    X(DECODE)                                                                                      \
    X(ILLEGAL)                                                                                     \
    X(LUI) X(AUIPC)                                                                                \
    X(JAL) X(JAL_CALL) X(JAL_FAR) X(JALR) X(JALR_CALL) X(JALR_RET) X(JALR_RETCALL)                 \
    X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) X(BRANCH_FAR)                                      \
    X(LB) X(LH) X(LW) X(LBU) X(LHU) X(LWU) X(LD)                                                   \
    X(SB) X(SH) X(SW) X(SD)                                                                        \
    X(ADDI) X(SLTI) X(SLTIU) X(XORI) X(ORI) X(ANDI) X(SLLI) X(SRLI) X(SRAI)                        \
    X(ADD) X(SUB) X(SLL) X(SLT) X(SLTU) X(XOR) X(SRL) X(SRA) X(OR) X(AND)                          \
    X(FENCE) X(ECALL) X(EBREAK)                                                                    \
    X(ADDIW) X(SLLIW) X(SRLIW) X(SRAIW) X(ADDW) X(SUBW) X(SLLW) X(SRLW) X(SRAW)                    \
    X(MUL) X(MULH) X(MULHSU) X(MULHU) X(DIV) X(DIVU) X(REM) X(REMU)                                \
    X(MULW) X(DIVW) X(DIVUW) X(REMW) X(REMUW)                                                     \
    X(AMO) X(CSR)                                                                                  \
    ALIGNED_OPS(X)                                                                                 \
    RVC_OPS(X)

/*
 * The aligned forms of the loads and stores wider than a byte (and of the
 * compressed ones: C_LW_A ... in RVC_OPS): the same access, but an
 * address that is not a multiple of its size faults, as in the zkVMs
 * whose executors trap such accesses (abi.h: aligned_access). The code
 * cache decodes them instead of the plain ones for those ABIs only, so no
 * other guest pays for the test.
 */
#define ALIGNED_OPS(X)                                                                             \
    X(LH_A) X(LW_A) X(LHU_A) X(LWU_A) X(LD_A) X(SH_A) X(SW_A) X(SD_A)

/*
 * The compressed (RVC) forms: the operation of the 32-bit instruction each
 * expands to, as an operation of its own, so that a handler knows the
 * instruction's length (2 bytes) without looking (c.li and c.mv are C_ADDI
 * and C_ADD from x0; c.nop is C_ADDI into the sink). OP_C_ADDI is the
 * first and OP_C_JALR_RETCALL the last of them.
 */
#define RVC_OPS(X)                                                                                 \
    X(C_ADDI) X(C_ADDIW) X(C_LUI) X(C_SLLI) X(C_SRLI) X(C_SRAI) X(C_ANDI)                          \
    X(C_ADD) X(C_SUB) X(C_XOR) X(C_OR) X(C_AND) X(C_ADDW) X(C_SUBW)                                \
    X(C_LW) X(C_LD) X(C_SW) X(C_SD) X(C_LW_A) X(C_LD_A) X(C_SW_A) X(C_SD_A)                        \
    X(C_BEQ) X(C_BNE) X(C_BRANCH_FAR)                                                              \
    X(C_JAL) X(C_JAL_CALL) X(C_JAL_FAR) X(C_JALR) X(C_JALR_CALL) X(C_JALR_RET) X(C_JALR_RETCALL)

/* clang-format on */

enum insn_op {
#define INSN_OP_ENUM(name) OP_##name,
    INSN_OPS(INSN_OP_ENUM)
#undef INSN_OP_ENUM
        OP_COUNT
};

/*
 * Set in `op` of the first instruction of every 4 KiB page in the code
 * cache: the fast loops check their budget there (see interp_impl.h).
 */
#define INSN_PAGE_MARK 0x80
_Static_assert(OP_COUNT <= INSN_PAGE_MARK, "operation numbers must leave the mark bit free");

/*
 * jal and jalr are split by their return-address-stack hint (the RISC-V
 * unprivileged ISA's table of rd/rs1 link-register uses; links are x1 and
 * x5), so a tracer knows the kind of every jump without looking at it:
 *   JAL        rd not a link: a jump          JAL_CALL      rd a link: a call
 *   JALR       neither a link: a jump         JALR_CALL     rd a link, rs1 not or = rd
 *   JALR_RET   rs1 a link, rd not: a return   JALR_RETCALL  both links, different
 */
static inline int insn_is_link(unsigned reg)
{
    return reg == 1 || reg == 5;
}

/* The register that receives writes to x0, so handlers need no test. */
#define REG_SINK 32

/*
 * A predecoded instruction. `handler` is where the fast interpreter loop
 * bound to the code cache handles it: its operation's handler, or a fused
 * pair's that runs it and the next one (see code_cache.h), so that loop
 * dispatches with one load; decode_insn leaves it NULL and the precise
 * loops dispatch on `op`. For branches and jal, `imm` is the byte offset
 * to the target until the code cache turns it into an instruction count
 * (see code_cache_fill); BRANCH_FAR and JAL_FAR, whose target lies outside
 * the code or is misaligned, keep the byte offset, and BRANCH_FAR keeps the
 * branch's funct3 in `rd`. AMO (every A-extension instruction: LR, SC
 * and the AMOs) and CSR (every Zicsr instruction) keep the whole
 * instruction word in `imm`: they are rare, and their slow paths
 * (interp.h) decode the rest.
 */
struct insn {
    const void *handler;
    uint8_t op;
    uint8_t rd;
    uint8_t rs1;
    uint8_t rs2;
    int32_t imm;
};

/* Decodes `word` for an RV32 (xlen 32) or RV64 (xlen 64) hart. */
struct insn decode_insn(uint32_t word, int xlen);

/*
 * Decodes the 16-bit compressed instruction `half` (its low two bits are
 * not 11) to the C_ operation it expands to; reserved encodings, the
 * all-zero halfword and floating-point forms are OP_ILLEGAL with `half`
 * in `imm`.
 */
struct insn decode_compressed(uint16_t half, int xlen);

/*
 * The aligned form of a load or store wider than a byte (ALIGNED_OPS);
 * any other operation is its own.
 */
static inline enum insn_op insn_op_aligned(enum insn_op op)
{
    switch (op) {
    case OP_LH: return OP_LH_A;
    case OP_LW: return OP_LW_A;
    case OP_LHU: return OP_LHU_A;
    case OP_LWU: return OP_LWU_A;
    case OP_LD: return OP_LD_A;
    case OP_SH: return OP_SH_A;
    case OP_SW: return OP_SW_A;
    case OP_SD: return OP_SD_A;
    case OP_C_LW: return OP_C_LW_A;
    case OP_C_LD: return OP_C_LD_A;
    case OP_C_SW: return OP_C_SW_A;
    case OP_C_SD: return OP_C_SD_A;
    default: return op;
    }
}

/* Whether `word`'s low bits say it is a 32-bit instruction (else a compressed one). */
static inline int insn_word_is_full(uint32_t word)
{
    return (word & 3) == 3;
}

/* Whether the operation is a compressed form (2 bytes long; every other one is 4). */
static inline int insn_op_is_compressed(unsigned op)
{
    op &= INSN_PAGE_MARK - 1;
    return op >= OP_C_ADDI && op <= OP_C_JALR_RETCALL;
}

/* The operation's instruction length in bytes. */
static inline unsigned insn_op_length(unsigned op)
{
    return insn_op_is_compressed(op) ? 2 : 4;
}

/*
 * Whether the operation is a conditional branch or a jump that links
 * nothing (jal, c.j): the ones whose taken runs the tracer's run hooks
 * count (executor/trace.h, "Runs").
 */
static inline bool insn_op_is_run_branch(unsigned op)
{
    switch (op) {
    case OP_BEQ:
    case OP_BNE:
    case OP_BLT:
    case OP_BGE:
    case OP_BLTU:
    case OP_BGEU:
    case OP_JAL:
    case OP_C_BEQ:
    case OP_C_BNE:
    case OP_C_JAL: return true;
    default: return false;
    }
}

/* The name of CSR number `csr` ("instret", "mstatus"), or NULL when this table lacks it. */
const char *insn_csr_name(unsigned csr);

/* The operation's mnemonic, for messages and tests. */
const char *insn_op_name(enum insn_op op);

#endif
